//! JSON views of declarations, locals and reference sites shared by the
//! navigation tools (snake_case, zero-based LSP ranges, as typemill-api.md).

use serde_json::{Value, json};

use super::range_json;
use super::target::Subject;
use crate::graph::{Edge, Site};
use crate::model::Symbol;
use crate::resolve::{SymbolRef, SymbolTable};
use crate::workspace::FileEntry;

/// Longest line excerpt shown next to a reference.
const MAX_LINE_TEXT: usize = 200;

/// A declaration: name, kind, location, container and signature.
pub fn symbol(table: &SymbolTable, r: SymbolRef) -> Value {
    let file = table.file(r);
    let symbol = table.symbol(r);
    json!({
        "name": symbol.name,
        "kind": symbol.kind.as_str(),
        "language_kind": symbol.language_kind,
        "file_path": file.path,
        "range": range_json(&symbol.span),
        "name_range": range_json(&symbol.name_span),
        "container": qualified_container(file, r.symbol as usize),
        "signature": symbol.signature,
        "language": file.facts.as_ref().map(|f| f.language.clone()).ok(),
    })
}

/// A declaration or a local, as [`symbol`] shows it.
pub fn subject(table: &SymbolTable, subject: &Subject) -> Value {
    match subject {
        Subject::Symbol(r) => symbol(table, *r),
        Subject::Local { file, index } => {
            let local = &file
                .facts
                .as_ref()
                .expect("locals come from analyzed files")
                .locals[*index];
            json!({
                "name": local.name,
                "kind": "variable",
                "language_kind": local.language_kind,
                "file_path": file.path,
                "range": range_json(&local.span),
                "name_range": range_json(&local.span),
                "scope": range_json(&local.scope),
                "local": true,
            })
        }
    }
}

/// `Outer.Inner` for the containers of a file's symbol, outermost first.
pub fn qualified_container(file: &FileEntry, index: usize) -> Option<String> {
    let facts = file.facts.as_ref().ok()?;
    let chain = facts.container_chain(index);
    (!chain.is_empty()).then(|| {
        chain
            .iter()
            .map(|s| s.name.as_str())
            .collect::<Vec<_>>()
            .join(".")
    })
}

/// `Container.name` of a declaration.
pub fn qualified_name(file: &FileEntry, index: usize, symbol: &Symbol) -> String {
    match qualified_container(file, index) {
        Some(container) => format!("{container}.{}", symbol.name),
        None => symbol.name.clone(),
    }
}

/// The text of a zero-based line, trimmed and cut to a readable length.
pub fn line_text(file: &FileEntry, line: u32) -> String {
    let text = file
        .source
        .lines()
        .nth(line as usize)
        .unwrap_or_default()
        .trim();
    match text.char_indices().nth(MAX_LINE_TEXT) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_string(),
    }
}

/// A reference site: where, what kind, from which declaration, and the line.
pub fn site(table: &SymbolTable, site: Site) -> Value {
    let file = &table.files()[site.file as usize];
    let facts = file.facts.as_ref().expect("sites come from analyzed files");
    let reference = &facts.references[site.reference as usize];
    let enclosing = reference
        .enclosing
        .map(|e| qualified_name(file, e as usize, &facts.symbols[e as usize]));
    json!({
        "file_path": file.path,
        "range": range_json(&reference.span),
        "kind": reference.kind,
        "enclosing": enclosing,
        "line_text": line_text(file, reference.span.start.line),
    })
}

/// A reference site reached through an edge, with how it was resolved.
pub fn edge_site(table: &SymbolTable, edge: &Edge) -> Option<Value> {
    let mut value = site(table, edge.site?);
    value["resolution"] = json!(edge.resolution);
    value["confidence"] = json!((edge.confidence * 100.0).round() / 100.0);
    Some(value)
}
