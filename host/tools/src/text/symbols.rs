//! Text of the answers about one declaration or one place: definitions,
//! type definitions, symbol info, outlines, syntax nodes and source.

use serde_json::{Value, json};

use super::{
    BYTES_PER_TOKEN, Request, Writer, certainty, display_container, has_word, kind_prefix,
    line_col, plain, qualified_name, source_line, str_of, symbol_heading,
};

/// `path:line Container.name  signature (certainty)`: the kind only when
/// there is no signature to show it, the name only when the signature
/// does not show it or a container qualifies it.
fn declaration_line(item: &Value) -> String {
    let (line, _) = line_col(&item["name_range"])
        .or_else(|| line_col(&item["range"]))
        .unwrap_or((0, 0));
    let signature = source_line(str_of(item, "signature").unwrap_or(""));
    let kind = if signature.is_empty() {
        format!("{} ", str_of(item, "kind").unwrap_or("symbol"))
    } else {
        String::new()
    };
    let unqualified = display_container(item).is_none();
    let name = if unqualified && has_word(&signature, str_of(item, "name").unwrap_or("?")) {
        String::new()
    } else {
        format!("{}  ", qualified_name(item))
    };
    format!(
        "{}:{line} {kind}{name}{signature}{}",
        str_of(item, "file_path").unwrap_or("?"),
        certainty(item)
    )
    .trim_end()
    .to_string()
}

/// `find_definition`: what the name at the position declares. One
/// declaration of the name asked is its line alone (the name is in it;
/// a guess says so); the resolution is named where there are several.
pub fn definition(value: &Value, _request: &Request, writer: &mut Writer) {
    let name = str_of(&value["query"], "name").unwrap_or("?");
    let definitions = value["definitions"].as_array().cloned().unwrap_or_default();
    let resolution = str_of(value, "resolution").unwrap_or("unresolved");
    if definitions.is_empty() {
        writer.always(&format!(
            "no definition of `{name}` in the workspace ({resolution})"
        ));
    } else if let [only] = definitions.as_slice() {
        if str_of(only, "name") == Some(name) {
            writer.always(&declaration_line(only));
        } else {
            writer.always(&format!("`{name}`: {}", declaration_line(only)));
        }
        return;
    } else {
        writer.always(&format!("definition of `{name}` ({resolution}):"));
    }
    let mut shown = 0;
    for item in &definitions {
        if !writer.line(&declaration_line(item)) {
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
    if value["truncated"].as_bool() == Some(true) {
        writer.always("(more candidates exist than the answer lists)");
    }
}

/// `find_type_definition`: the declared types of the symbol at a position.
pub fn type_definition(value: &Value, request: &Request, writer: &mut Writer) {
    let types = value["type_definitions"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    writer.always(&format!(
        "type of {}: {}",
        symbol_heading(&value["symbol"], request),
        types.len()
    ));
    for item in &types {
        let written = str_of(item, "written_as")
            .map(|w| format!(" as `{w}`"))
            .unwrap_or_default();
        if !writer.line(&format!("{}{written}", declaration_line(item))) {
            break;
        }
    }
    let unresolved: Vec<String> = value["unresolved_types"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|t| match t {
            Value::Object(_) => str_of(t, "written_as")
                .or_else(|| str_of(t, "name"))
                .map_or_else(|| t.to_string(), str::to_string),
            other => plain(other),
        })
        .collect();
    if !unresolved.is_empty() {
        writer.always(&format!(
            "not declared in the workspace: {}",
            unresolved.join(", ")
        ));
    }
}

/// `get_symbol_info`: the declaration, its counts and members.
pub fn symbol_info(value: &Value, _request: &Request, writer: &mut Writer) {
    let lines = match (
        line_col(&value["range"]),
        value["range"]["end"]["line"].as_u64(),
    ) {
        (Some((start, _)), Some(end)) => format!(":{start}-{}", end + 1),
        _ => String::new(),
    };
    let mut header = format!(
        "{} {} ({}{lines})",
        str_of(value, "kind").unwrap_or("symbol"),
        qualified_name(value),
        str_of(value, "file_path").unwrap_or("?"),
    );
    if let Some(visibility) = str_of(value, "visibility") {
        header.push_str(&format!(", {visibility}"));
    }
    if let Some(module) = str_of(value, "module") {
        header.push_str(&format!(", module {module}"));
    }
    writer.always(&header);
    if let Some(signature) = str_of(value, "signature") {
        writer.always(&format!("  {}", source_line(signature)));
    }
    if let Some(doc) = str_of(value, "doc").and_then(|d| d.lines().next())
        && !doc.trim().is_empty()
    {
        writer.always(&format!("  doc: {}", source_line(doc)));
    }
    let counts: Vec<String> = ["references", "callers", "callees", "implementations"]
        .iter()
        .filter_map(|key| {
            let count = &value[*key];
            let certain = count["certain"].as_u64()?;
            let guessed = count["name_only"].as_u64().unwrap_or(0);
            Some(if guessed > 0 {
                format!("{key} {certain} (+{guessed} guessed)")
            } else {
                format!("{key} {certain}")
            })
        })
        .collect();
    if !counts.is_empty() {
        writer.always(&format!("  {}", counts.join(", ")));
    }
    let members = value["members"].as_array().cloned().unwrap_or_default();
    if !members.is_empty() {
        let total = value["members_total"]
            .as_u64()
            .unwrap_or(members.len() as u64);
        writer.always(&format!("  members ({total}):"));
        let mut shown = 0;
        for member in &members {
            let line = format!(
                "    {} {} {}",
                member["line"].as_u64().unwrap_or(0),
                str_of(member, "kind").unwrap_or("member"),
                str_of(member, "name").unwrap_or("?")
            );
            if !writer.line(&line) {
                break;
            }
            shown += 1;
        }
        if (shown as u64) < total {
            writer.always(&format!("    ... {} more", total - shown as u64));
        }
    }
}

/// `outline`: one line per declaration, `line kind signature`, indented by
/// nesting; the kind only where the signature does not already say it,
/// and names declared together (`a, b int`) on their one line.
pub fn outline(value: &Value, request: &Request, writer: &mut Writer) {
    let roots = value["outline"].as_array().cloned().unwrap_or_default();
    let mut stack: Vec<(&Value, usize)> = roots.iter().rev().map(|d| (d, 0)).collect();
    let mut lines: Vec<String> = Vec::new();
    let mut declarations = 0;
    while let Some((declaration, depth)) = stack.pop() {
        declarations += 1;
        let signature = str_of(declaration, "signature")
            .filter(|s| !s.is_empty())
            .or_else(|| str_of(declaration, "name"))
            .unwrap_or("?");
        let kind = kind_prefix(
            signature,
            str_of(declaration, "languageKind")
                .or_else(|| str_of(declaration, "type"))
                .unwrap_or("declaration"),
        );
        let line = format!(
            "{}{} {kind}{}",
            "  ".repeat(depth),
            declaration["line"].as_u64().unwrap_or(0),
            source_line(signature)
        );
        if lines.last() != Some(&line) {
            lines.push(line);
        }
        if let Some(children) = declaration["children"].as_array() {
            stack.extend(children.iter().rev().map(|c| (c, depth + 1)));
        }
    }
    let path = str_of(value, "filePath").unwrap_or("?");
    let of = if request.names_file(path) {
        String::new()
    } else {
        format!(" of {path}")
    };
    writer.always(&format!("outline{of}: {declarations} declarations"));
    let mut shown = 0;
    for line in &lines {
        if !writer.line(line) {
            break;
        }
        shown += 1;
    }
    if shown < lines.len() {
        let needed = lines.iter().map(|l| l.len() + 1).sum::<usize>() / BYTES_PER_TOKEN + 400;
        let mut arguments = request.arguments.clone();
        arguments.insert("max_tokens".into(), json!(needed));
        writer.always(&format!(
            "... {} more lines (max_tokens {} reached); all of them: {} {}",
            lines.len() - shown,
            request.max_tokens,
            request.tool,
            Value::Object(arguments)
        ));
    }
    if value["truncated"].as_bool() == Some(true) {
        writer.always("(the outline was cut at its size limit)");
    }
    for note in value["notes"].as_array().into_iter().flatten() {
        writer.always(&format!("note: {}", plain(note)));
    }
}

/// `node_at`: the syntax node at a position, its declaration and ancestors.
pub fn node_at(value: &Value, _request: &Request, writer: &mut Writer) {
    let node = &value["node"];
    writer.always(&format!(
        "{}:{}:{} {} `{}` ({}:{}-{}:{})",
        str_of(value, "filePath").unwrap_or("?"),
        node["startLine"].as_u64().unwrap_or(0),
        node["startColumn"].as_u64().unwrap_or(0),
        str_of(node, "type").unwrap_or("node"),
        source_line(str_of(node, "content").unwrap_or("")),
        node["startLine"].as_u64().unwrap_or(0),
        node["startColumn"].as_u64().unwrap_or(0),
        node["endLine"].as_u64().unwrap_or(0),
        node["endColumn"].as_u64().unwrap_or(0),
    ));
    let symbol = &value["symbol"];
    if symbol.is_object() {
        writer.always(&format!(
            "in {} {} ({}-{})  {}",
            str_of(symbol, "kind").unwrap_or("symbol"),
            str_of(symbol, "name").unwrap_or("?"),
            symbol["startLine"].as_u64().unwrap_or(0),
            symbol["endLine"].as_u64().unwrap_or(0),
            source_line(str_of(symbol, "signature").unwrap_or(""))
        ));
    }
    let ancestors: Vec<String> = value["ancestors"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|a| {
            format!(
                "{} {}-{}",
                str_of(a, "type").unwrap_or("?"),
                a["startLine"].as_u64().unwrap_or(0),
                a["endLine"].as_u64().unwrap_or(0)
            )
        })
        .collect();
    if !ancestors.is_empty() {
        writer.line(&format!("ancestors: {}", ancestors.join(" < ")));
    }
}

/// `node_source`: a declaration's source with line numbers.
pub fn node_source(value: &Value, request: &Request, writer: &mut Writer) {
    let first = value["lineStart"].as_u64().unwrap_or(1);
    let last = value["lineEnd"].as_u64().unwrap_or(first);
    let declaration = &value["declaration"];
    let what = if declaration.is_object() {
        format!(
            " {} {}",
            str_of(declaration, "kind").unwrap_or("symbol"),
            qualified_name(declaration)
        )
    } else {
        String::new()
    };
    let collapsed = if value["collapsed"].as_bool() == Some(true) {
        " (collapsed)"
    } else {
        ""
    };
    writer.always(&format!(
        "{}:{first}-{last}{what}{collapsed}",
        str_of(value, "filePath").unwrap_or("?")
    ));
    let source = str_of(value, "source").unwrap_or("");
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
