//! Text of the answers about one declaration or one place: definitions,
//! type definitions, symbol info, outlines, syntax nodes and source.

use std::fmt::Write as _;

use serde_json::{Value, json};

use super::{
    BYTES_PER_TOKEN, Request, Writer, container_shown, guess_note, has_word, kind_said_by,
    push_source_line, source_line, subject_heading, subject_qualified_name, view_qualified_name,
};
use lingo_analysis::{
    DefinitionSite, Definitions, NodeAt, NodeSource, Outline, Range, SubjectView, SymbolInfo,
    Tally, TypeDefinition, TypeDefinitions,
};
use lingo_resolve::Resolution;

/// A declaration as [`Declaration::line`] writes it: a definition or a
/// type definition.
struct Declaration<'a> {
    file_path: &'a str,
    name_range: &'a Range,
    kind: &'a str,
    name: &'a str,
    container: Option<&'a str>,
    namespace: Option<&'a str>,
    signature: Option<&'a str>,
    resolution: Resolution,
    confidence: f64,
}

impl<'a> From<&'a DefinitionSite> for Declaration<'a> {
    fn from(site: &'a DefinitionSite) -> Self {
        let declared = site.declared.as_ref();
        Declaration {
            file_path: &site.file_path,
            name_range: &site.name_range,
            kind: site.kind,
            name: &site.name,
            container: declared.and_then(|d| d.container.as_deref()),
            namespace: declared.and_then(|d| d.namespace.as_deref()),
            signature: declared.and_then(|d| d.signature.as_deref()),
            resolution: site.resolution,
            confidence: site.confidence,
        }
    }
}

impl<'a> From<&'a TypeDefinition> for Declaration<'a> {
    fn from(definition: &'a TypeDefinition) -> Self {
        let symbol = &definition.symbol;
        Declaration {
            file_path: &symbol.file_path,
            name_range: &symbol.name_range,
            kind: symbol.kind,
            name: &symbol.name,
            container: symbol.container.as_deref(),
            namespace: symbol.namespace.as_deref(),
            signature: symbol.signature.as_deref(),
            resolution: definition.resolution,
            confidence: definition.confidence,
        }
    }
}

impl Declaration<'_> {
    /// `path:line Container.name  signature (certainty)`: the kind only
    /// when there is no signature to show it, the name only when the
    /// signature does not show it or a container qualifies it.
    fn line(&self) -> String {
        let line = u64::from(self.name_range.start.line) + 1;
        let signature = source_line(self.signature.unwrap_or(""));
        let kind = if signature.is_empty() {
            format!("{} ", self.kind)
        } else {
            String::new()
        };
        let name = match container_shown(self.container, self.namespace) {
            None if has_word(&signature, self.name) => String::new(),
            None => format!("{}  ", self.name),
            Some(container) => format!("{container}.{}  ", self.name),
        };
        format!(
            "{}:{line} {kind}{name}{signature}{}",
            self.file_path,
            guess_note(self.resolution, self.confidence)
        )
        .trim_end()
        .to_string()
    }
}

/// `find_definition`: what the name at the position declares. One
/// declaration of the name asked is its line alone (the name is in it;
/// a guess says so); the resolution is named where there are several.
pub fn definition(answer: &Definitions, _request: &Request, writer: &mut Writer) {
    // The name at the position, or the symbol asked by name.
    let asked = answer
        .query
        .name
        .as_deref()
        .or(answer.query.symbol.as_deref());
    let name = asked.unwrap_or("the position");
    let definitions = &answer.definitions;
    let resolution = answer.resolution.map_or("unresolved", Resolution::as_str);
    if definitions.is_empty() {
        writer.always(&format!(
            "no definition of `{name}` in the workspace ({resolution})"
        ));
    } else if let [only] = definitions.as_slice() {
        let line = Declaration::from(only).line();
        if asked.is_none_or(|asked| asked == only.name) {
            writer.always(&line);
        } else {
            writer.always(&format!("`{name}`: {line}"));
        }
        return;
    } else {
        writer.always(&format!("definition of `{name}` ({resolution}):"));
    }
    let mut shown = 0;
    for site in definitions {
        if !writer.line(&Declaration::from(site).line()) {
            break;
        }
        shown += 1;
    }
    if shown < definitions.len() {
        writer.always(&format!(
            "... {} more candidates left out (max_tokens)",
            definitions.len() - shown
        ));
    }
    if answer.truncated {
        writer.always("(more candidates exist than the answer lists)");
    }
}

/// `find_type_definition`: the declared types of the symbol at a position.
pub fn type_definition(answer: &TypeDefinitions, request: &Request, writer: &mut Writer) {
    let types = &answer.type_definitions;
    writer.always(&format!(
        "type of {}: {}",
        subject_heading(&answer.symbol, request),
        types.len()
    ));
    for definition in types {
        let written = definition
            .written_as
            .as_ref()
            .map(|w| format!(" as `{w}`"))
            .unwrap_or_default();
        if !writer.line(&format!(
            "{}{written}",
            Declaration::from(definition).line()
        )) {
            break;
        }
    }
    let unresolved: Vec<&str> = answer
        .unresolved_types
        .iter()
        .flatten()
        .map(|t| t.name.as_str())
        .collect();
    if !unresolved.is_empty() {
        writer.always(&format!(
            "not declared in the workspace: {}",
            unresolved.join(", ")
        ));
    }
}

/// `get_symbol_info`: the declaration, its counts and members.
pub fn symbol_info(answer: &SymbolInfo, _request: &Request, writer: &mut Writer) {
    let (kind, file_path, range, signature) = match &answer.subject {
        SubjectView::Symbol(view) => (
            view.kind,
            &view.file_path,
            &view.range,
            view.signature.as_deref(),
        ),
        SubjectView::Local(local) => (local.kind, &local.file_path, &local.range, None),
    };
    let mut header = format!(
        "{kind} {} ({file_path}:{}-{})",
        subject_qualified_name(&answer.subject),
        u64::from(range.start.line) + 1,
        u64::from(range.end.line) + 1,
    );
    let details = answer.details.as_ref();
    if let Some(details) = details {
        header.push_str(&format!(", {}", details.visibility.as_str()));
        if let Some(module) = &details.module {
            header.push_str(&format!(", module {module}"));
        }
    }
    writer.always(&header);
    if let Some(signature) = signature {
        writer.always(&format!("  {}", source_line(signature)));
    }
    let Some(details) = details else {
        return;
    };
    if let Some(doc) = details.doc.as_deref().and_then(|d| d.lines().next())
        && !doc.trim().is_empty()
    {
        writer.always(&format!("  doc: {}", source_line(doc)));
    }
    let tallies: [(&str, &Tally); 4] = [
        ("references", &details.references),
        ("callers", &details.callers),
        ("callees", &details.callees),
        ("implementations", &details.implementations),
    ];
    let counts: Vec<String> = tallies
        .iter()
        .map(|(what, tally)| {
            if tally.name_only > 0 {
                format!("{what} {} (+{} guessed)", tally.certain, tally.name_only)
            } else {
                format!("{what} {}", tally.certain)
            }
        })
        .collect();
    writer.always(&format!("  {}", counts.join(", ")));
    let members = &details.members;
    if !members.is_empty() {
        let total = details.members_total;
        writer.always(&format!("  members ({total}):"));
        let mut shown = 0;
        for member in members {
            let line = format!("    {} {} {}", member.line, member.kind, member.name);
            if !writer.line(&line) {
                break;
            }
            shown += 1;
        }
        if shown < total {
            writer.always(&format!("    ... {} more", total - shown));
        }
    }
}

/// `outline`: one line per declaration, `line kind signature`, indented by
/// nesting; the kind only where the signature does not already say it,
/// and names declared together (`a, b int`) on their one line.
pub fn outline(answer: &Outline, request: &Request, writer: &mut Writer) {
    // Every line is written into one buffer; `ends[i]` is where line `i`
    // ends in it.
    let mut text = String::new();
    let mut ends: Vec<usize> = Vec::new();
    let mut declarations = 0;
    for (depth, declaration) in answer.declarations() {
        declarations += 1;
        let signature = declaration
            .signature
            .as_deref()
            .filter(|s| !s.is_empty())
            .unwrap_or(&declaration.name);
        // `line kind signature`, indented.
        let start = text.len();
        for _ in 0..depth {
            text.push_str("  ");
        }
        let _ = write!(text, "{} ", declaration.span.start.line + 1);
        let kind = declaration.language_kind.as_str();
        if !kind_said_by(signature, kind) {
            text.push_str(kind);
            text.push(' ');
        }
        push_source_line(&mut text, signature);
        // A line the same as the one before (declarations a macro repeats)
        // is written once.
        let previous_start = ends.len().checked_sub(2).map_or(0, |i| ends[i]);
        if ends
            .last()
            .is_some_and(|&end| text[previous_start..end] == text[start..])
        {
            text.truncate(start);
        } else {
            ends.push(text.len());
        }
    }
    let lines = ends.iter().scan(0, |from, &end| {
        let line = &text[*from..end];
        *from = end;
        Some(line)
    });
    let path = answer.file_path();
    let of = if request.names_file(path) {
        String::new()
    } else {
        format!(" of {path}")
    };
    writer.always(&format!("outline{of}: {declarations} declarations"));
    let mut shown = 0;
    for line in lines {
        if !writer.line(line) {
            break;
        }
        shown += 1;
    }
    if shown < ends.len() {
        let needed = (text.len() + ends.len()) / BYTES_PER_TOKEN + 400;
        let mut arguments = request.arguments.clone();
        arguments.insert("max_tokens".into(), json!(needed));
        writer.always(&format!(
            "... {} more lines (max_tokens {} reached); all of them: {} {}",
            ends.len() - shown,
            request.max_tokens,
            request.tool,
            Value::Object(arguments)
        ));
    }
    if answer.truncated {
        writer.always("(the outline was cut at its size limit)");
    }
    for note in &answer.notes {
        writer.always(&format!("note: {note}"));
    }
}

/// `node_at`: the syntax node at a position, its declaration and ancestors.
pub fn node_at(answer: &NodeAt, _request: &Request, writer: &mut Writer) {
    let node = &answer.node;
    writer.always(&format!(
        "{}:{}:{} {} `{}` ({}:{}-{}:{})",
        answer.file_path,
        node.start_line,
        node.start_column,
        node.kind,
        source_line(&node.content),
        node.start_line,
        node.start_column,
        node.end_line,
        node.end_column,
    ));
    if let Some(symbol) = &answer.symbol {
        writer.always(&format!(
            "in {} {} ({}-{})  {}",
            symbol.kind,
            symbol.name,
            symbol.start_line,
            symbol.end_line,
            source_line(symbol.signature.as_deref().unwrap_or(""))
        ));
    }
    let ancestors: Vec<String> = answer
        .ancestors
        .iter()
        .map(|a| format!("{} {}-{}", a.kind, a.start_line, a.end_line))
        .collect();
    if !ancestors.is_empty() {
        writer.line(&format!("ancestors: {}", ancestors.join(" < ")));
    }
}

/// `node_source`: a declaration's source with line numbers.
pub fn node_source(answer: &NodeSource, request: &Request, writer: &mut Writer) {
    let first = answer.line_start as u64;
    let last = answer.line_end;
    let declaration = &answer.declaration;
    let collapsed = if answer.collapsed { " (collapsed)" } else { "" };
    writer.always(&format!(
        "{}:{first}-{last} {} {}{collapsed}",
        answer.file_path,
        declaration.kind,
        view_qualified_name(declaration)
    ));
    let source = &answer.source;
    let mut shown = 0u64;
    for (number, line) in (first..).zip(source.lines()) {
        if !writer.line(&format!("{number}: {line}")) {
            break;
        }
        shown += 1;
    }
    let total = source.lines().count() as u64;
    if shown < total {
        let needed = (source.len() + 8 * total as usize) / BYTES_PER_TOKEN + 400;
        let mut arguments = request.arguments.clone();
        arguments.insert("max_tokens".into(), json!(needed));
        writer.always(&format!(
            "... lines {}-{last} left out (max_tokens {}); all of it: {} {}",
            first + shown,
            request.max_tokens,
            request.tool,
            Value::Object(arguments)
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_resolution_is_named_as_its_answer_spells_it() {
        for resolution in [
            Resolution::Declaration,
            Resolution::Scope,
            Resolution::Import,
            Resolution::Qualified,
            Resolution::NameOnly,
        ] {
            assert_eq!(
                serde_json::to_value(resolution).ok(),
                Some(json!(resolution.as_str()))
            );
        }
    }
}
