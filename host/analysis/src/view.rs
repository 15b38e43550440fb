//! The plain views of declarations, locals and reference sites the queries
//! return (snake_case, zero-based LSP ranges, as typemill-api.md).

use schemars::JsonSchema;
use serde::Serialize;

use super::target::Subject;
use lingo_index::FileEntry;
use lingo_model::{ReferenceKind, Span, Symbol, SymbolKind};
use lingo_resolve::graph::{Edge, Site};
use lingo_resolve::{Resolution, SymbolRef, SymbolTable};

/// Longest line excerpt shown next to a reference.
const MAX_LINE_TEXT: usize = 200;

/// A zero-based line and UTF-16 character.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, JsonSchema)]
pub struct RangePoint {
    pub line: u32,
    pub character: u32,
}

/// `{ "start": {line, character}, "end": {...} }`, zero-based.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Range {
    pub start: RangePoint,
    pub end: RangePoint,
}

impl From<&Span> for Range {
    fn from(span: &Span) -> Self {
        Range {
            start: RangePoint {
                line: span.start.line,
                character: span.start.character,
            },
            end: RangePoint {
                line: span.end.line,
                character: span.end.character,
            },
        }
    }
}

/// A declaration: name, kind, location, container and signature.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct SymbolView {
    pub name: String,
    pub kind: &'static str,
    pub language_kind: String,
    pub file_path: String,
    pub range: Range,
    pub name_range: Range,
    /// `Outer.Inner`, the containers by nesting, outermost first.
    pub container: Option<String>,
    /// The leading part of `container` made of namespaces, modules and
    /// packages (`DBus.Protocol` of `DBus.Protocol.MessageReader`): where
    /// the declaration lives rather than what it belongs to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    pub signature: Option<String>,
    pub language: Option<String>,
}

impl SymbolView {
    pub fn new(table: &SymbolTable, r: SymbolRef) -> Self {
        let file = table.file(r);
        let symbol = table.symbol(r);
        SymbolView {
            name: symbol.name.to_string(),
            kind: symbol.kind.as_str(),
            language_kind: symbol.language_kind.to_string(),
            file_path: file.path.clone(),
            range: (&symbol.span).into(),
            name_range: (&symbol.name_span).into(),
            container: qualified_container(file, r.symbol as usize),
            namespace: namespace_of(file, r.symbol as usize),
            signature: symbol.signature.as_deref().map(String::from),
            language: file.facts.as_ref().map(|f| f.language.clone()).ok(),
        }
    }
}

/// A local binding: only visible inside its scope.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct LocalView {
    pub name: String,
    /// Always `variable`.
    pub kind: &'static str,
    pub language_kind: String,
    pub file_path: String,
    pub range: Range,
    pub name_range: Range,
    pub scope: Range,
    /// Always true.
    pub local: bool,
}

/// A declaration or a local.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum SubjectView {
    Symbol(SymbolView),
    Local(LocalView),
}

impl SubjectView {
    pub fn new(table: &SymbolTable, subject: &Subject) -> Self {
        match subject {
            Subject::Symbol(r) => SubjectView::Symbol(SymbolView::new(table, *r)),
            Subject::Local { file, index } => {
                let local = file.facts.as_ref().ok().and_then(|f| f.locals.get(*index));
                let start = lingo_model::Position {
                    line: 0,
                    character: 0,
                    offset: 0,
                };
                let empty = Span { start, end: start };
                let (name, language_kind, span, scope) = match local {
                    Some(l) => (
                        l.name.to_string(),
                        l.language_kind.to_string(),
                        l.span,
                        l.scope,
                    ),
                    None => (String::new(), String::new(), empty, empty),
                };
                SubjectView::Local(LocalView {
                    name,
                    kind: "variable",
                    language_kind,
                    file_path: file.path.clone(),
                    range: (&span).into(),
                    name_range: (&span).into(),
                    scope: (&scope).into(),
                    local: true,
                })
            }
        }
    }

    pub fn name(&self) -> &str {
        match self {
            SubjectView::Symbol(s) => &s.name,
            SubjectView::Local(l) => &l.name,
        }
    }

    /// The same view with its `kind` replaced (`declaration` in reference lists).
    pub fn with_kind(&self, kind: &'static str) -> Self {
        let mut view = self.clone();
        match &mut view {
            SubjectView::Symbol(s) => s.kind = kind,
            SubjectView::Local(l) => l.kind = kind,
        }
        view
    }
}

/// A reference written in the source: where, what kind, from which
/// declaration, and the line.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct SiteView {
    pub file_path: String,
    pub range: Range,
    #[schemars(with = "String")]
    pub kind: ReferenceKind,
    /// `Type.name` of the declaration the reference is written in,
    /// qualified by the types around it but not by its namespaces or
    /// modules (the file says where it is): `SaslPeer.Run`.
    pub enclosing: Option<String>,
    /// The condition the code around the reference exists under, as its
    /// plugin states it (`feature = "fast"` for Rust's `#[cfg(..)]`): the
    /// innermost enclosing declaration's that states one. Absent when the
    /// code is always built.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub condition: Option<String>,
    pub line_text: String,
}

impl SiteView {
    /// The view of `site`; `None` when the site is not in the table (never
    /// for sites of this generation's graph).
    pub fn new(table: &SymbolTable, site: Site) -> Option<Self> {
        let file = table.files().get(site.file as usize)?;
        let facts = file.facts.as_ref().ok()?;
        let reference = facts.references.get(site.reference as usize)?;
        let enclosing = reference.enclosing.get().and_then(|e| {
            let symbol = facts.symbols.get(e as usize)?;
            Some(member_name(file, e as usize, symbol))
        });
        Some(SiteView {
            file_path: file.path.clone(),
            range: (&reference.span).into(),
            kind: reference.kind,
            enclosing,
            condition: condition_around(&facts.symbols, reference.enclosing.get()),
            line_text: line_text(file, reference.span.start.offset),
        })
    }

    /// Sort key: by file, then position.
    pub fn place(&self) -> (&str, RangePoint) {
        (&self.file_path, self.range.start)
    }

    /// `path:line:column`, 1-based, as warnings and messages list a site.
    pub fn label(&self) -> String {
        format!(
            "{}:{}:{}",
            self.file_path,
            self.range.start.line + 1,
            self.range.start.character + 1
        )
    }
}

/// The condition stated by `enclosing` or the nearest of its containers
/// that states one (the walk bounded by the symbols' count).
pub fn condition_around(symbols: &[Symbol], enclosing: Option<u32>) -> Option<String> {
    let mut at = enclosing;
    for _ in 0..symbols.len() {
        let symbol = symbols.get(at? as usize)?;
        if let Some(condition) = symbol.condition() {
            return Some(condition.to_string());
        }
        at = symbol.container;
    }
    None
}

/// A reference site of a declaration, with how it was resolved.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ReferenceSite {
    #[serde(flatten)]
    pub site: SiteView,
    pub resolution: Resolution,
    #[schemars(range(min = 0, max = 1))]
    pub confidence: f64,
}

impl ReferenceSite {
    /// The site an edge stands on (none for CONTAINS edges).
    pub fn of_edge(table: &SymbolTable, edge: &Edge) -> Option<Self> {
        Some(ReferenceSite {
            site: SiteView::new(table, edge.site()?)?,
            resolution: edge.resolution,
            confidence: rounded(edge.confidence()),
        })
    }
}

/// An edge's confidence to two decimals.
pub(crate) fn rounded(confidence: f32) -> f64 {
    f64::from((confidence * 100.0).round() / 100.0)
}

/// `Outer.Inner` for the containers of a file's symbol, outermost first;
/// for a member declared outside its type, the type's name.
pub fn qualified_container(file: &FileEntry, index: usize) -> Option<String> {
    let facts = file.facts.as_ref().ok()?;
    let chain = facts.container_chain(index);
    if chain.is_empty() {
        // A member declared outside its type (a Go method, by its receiver)
        // belongs to the type its plugin names.
        return facts
            .symbols
            .get(index)
            .and_then(|s| s.container_name.as_ref())
            .map(|name| name.as_str().to_string());
    }
    Some(
        chain
            .iter()
            .map(|s| s.name.as_str())
            .collect::<Vec<_>>()
            .join("."),
    )
}

/// Whether a symbol of this kind is a place declarations live in
/// (namespace, module, package) rather than a declaration they belong to.
fn is_namespace(kind: SymbolKind) -> bool {
    matches!(
        kind,
        SymbolKind::Namespace | SymbolKind::Module | SymbolKind::Package
    )
}

/// The namespaces, modules and packages leading a symbol's containers,
/// `Outer.Inner`, or `None` when its first container is a type or there is
/// none.
pub fn namespace_of(file: &FileEntry, index: usize) -> Option<String> {
    let facts = file.facts.as_ref().ok()?;
    let chain = facts.container_chain(index);
    let leading: Vec<&str> = chain
        .iter()
        .take_while(|s| is_namespace(s.kind))
        .map(|s| s.name.as_str())
        .collect();
    (!leading.is_empty()).then(|| leading.join("."))
}

/// `Type.name` of a declaration: qualified by the containers after its
/// leading namespaces and modules.
pub fn member_name(file: &FileEntry, index: usize, symbol: &Symbol) -> String {
    let Ok(facts) = file.facts.as_ref() else {
        return symbol.name.to_string();
    };
    let mut parts: Vec<&str> = facts
        .container_chain(index)
        .into_iter()
        .skip_while(|s| is_namespace(s.kind))
        .map(|s| s.name.as_str())
        .collect();
    parts.push(&symbol.name);
    parts.join(".")
}

/// `Container.name` of a declaration.
pub fn qualified_name(file: &FileEntry, index: usize, symbol: &Symbol) -> String {
    match qualified_container(file, index) {
        Some(container) => format!("{container}.{}", symbol.name),
        None => symbol.name.to_string(),
    }
}

/// The text of the line holding byte `offset` (clamped to the source),
/// trimmed and cut to a readable length. Only that line is scanned, not
/// the file up to it.
pub fn line_text(file: &FileEntry, offset: u32) -> String {
    file.with_line_at(offset, |_, line| {
        let text = line.trim();
        match text.char_indices().nth(MAX_LINE_TEXT) {
            Some((cut, _)) => format!("{}…", &text[..cut]),
            None => text.to_string(),
        }
    })
}

/// Characters of a doc comment's summary at most.
pub const MAX_DOC_SUMMARY_CHARS: usize = 240;

/// The summary of a doc comment, as lists of declarations show it: its
/// first paragraph (up to the first blank line) on one line, cut at
/// [`MAX_DOC_SUMMARY_CHARS`] with `…`; `None` when it has no text.
/// `get_symbol_info` answers the whole comment.
pub fn doc_summary(doc: &str) -> Option<String> {
    let paragraph = doc
        .lines()
        .map(str::trim)
        .skip_while(|line| line.is_empty())
        .take_while(|line| !line.is_empty());
    let mut summary = String::new();
    for line in paragraph {
        if !summary.is_empty() {
            summary.push(' ');
        }
        summary.push_str(line);
        // A character takes 4 bytes at most: enough text to cut from.
        if summary.len() > 4 * MAX_DOC_SUMMARY_CHARS {
            break;
        }
    }
    if let Some((cut, _)) = summary.char_indices().nth(MAX_DOC_SUMMARY_CHARS) {
        summary.truncate(cut);
        summary.truncate(summary.trim_end().len());
        summary.push('…');
    }
    (!summary.is_empty()).then_some(summary)
}

/// `path:line:name`, the 1-based line of the declaration's start (the
/// chunk ids of outline, search_symbols and node_source).
pub fn chunk_id(file: &FileEntry, index: usize) -> String {
    let symbol = file.facts.as_ref().ok().and_then(|f| f.symbols.get(index));
    match symbol {
        Some(symbol) => format!(
            "{}:{}:{}",
            file.path,
            symbol.span.start.line + 1,
            symbol.name
        ),
        None => format!("{}:0:", file.path),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_doc_summary_is_the_first_paragraph_on_one_line() {
        let long = "word ".repeat(100);
        let cut = format!("{}…", "word ".repeat(48).trim_end());
        let cases: [(&str, Option<&str>); 6] = [
            (
                "The Tokio runtime.\n\nThe runtime provides...",
                Some("The Tokio runtime."),
            ),
            (
                "\n  Spans two\n  lines.\n\n# Examples",
                Some("Spans two lines."),
            ),
            ("", None),
            ("\n \n", None),
            ("Größe ändern.", Some("Größe ändern.")),
            (&long, Some(&cut)),
        ];
        for (doc, summary) in cases {
            assert_eq!(doc_summary(doc).as_deref(), summary, "{doc:?}");
        }
        let wide = "é".repeat(300);
        let summary = doc_summary(&wide).expect("a summary");
        assert_eq!(summary.chars().count(), MAX_DOC_SUMMARY_CHARS + 1);
    }
}
