//! `outline`: the hierarchical structure of one file (codetextor-api.md).

use serde_json::{Value, json};

use super::{Args, Tool, ToolContext};
use crate::error::ToolError;
use crate::model::FileFacts;
use crate::workspace::FileEntry;

pub fn tool() -> Tool {
    Tool {
        name: "outline",
        aliases: &["getOutline", "get_outline"],
        description: "Hierarchical outline of a file: every declaration with its kind, 1-based lines, signature and doc comment, nested under its container.",
        input_schema: json!({
            "type": "object",
            "properties": {
                "path": { "type": "string", "description": "File path relative to the workspace root" },
                "depth": { "type": "integer", "minimum": 1, "maximum": 64, "description": "Nesting depth to include (default: unlimited)" },
                "collapseBody": { "type": "boolean", "default": true, "description": "Show declarations as signatures (true) or include each declaration's full source (false)" }
            },
            "required": ["path"],
            "additionalProperties": false
        }),
        handler: run,
    }
}

fn run(context: &ToolContext, args: &Args) -> Result<Value, ToolError> {
    let workspace = &context.workspace;
    let snapshot = workspace.fresh();
    let file = workspace.file(&snapshot, args.required_str("path")?)?;
    let depth = args.uint("depth", 64)?.map(|d| d as usize);
    if depth == Some(0) {
        return Err(ToolError::invalid("depth", "depth must be at least 1"));
    }
    let collapse = args.bool("collapseBody", true)?;
    let facts = file.facts()?;
    let mut outline = children(facts, None, 1, depth, collapse, &file);
    let mut notes = Vec::new();
    // Bounded output: first drop the declarations' source, then cut the
    // top-level list, and say so.
    if !collapse && size(&outline) > MAX_OUTLINE_BYTES {
        outline = children(facts, None, 1, depth, true, &file);
        notes.push("declaration sources omitted: the outline exceeded the response budget; use node_source for one declaration".to_string());
    }
    let total = outline.len();
    let mut bytes = 0;
    let kept = outline
        .iter()
        .take_while(|node| {
            bytes += node.to_string().len();
            bytes <= MAX_OUTLINE_BYTES
        })
        .count()
        .max(1)
        .min(total);
    if kept < total {
        outline.truncate(kept);
        notes.push(format!(
            "{} of {total} top-level declarations omitted: the outline exceeded the response budget; use depth to shorten it",
            total - kept
        ));
    }
    Ok(json!({
        "filePath": file.path,
        "language": facts.language,
        "generation": snapshot.generation,
        "outline": outline,
        "truncated": !notes.is_empty(),
        "notes": notes,
    }))
}

/// Bytes of outline one answer carries at most.
const MAX_OUTLINE_BYTES: usize = 256 * 1024;

fn size(nodes: &[Value]) -> usize {
    nodes.iter().map(|n| n.to_string().len()).sum()
}

fn children(
    facts: &FileFacts,
    parent: Option<u32>,
    level: usize,
    depth: Option<usize>,
    collapse: bool,
    file: &FileEntry,
) -> Vec<Value> {
    let source = &file.source;
    facts
        .symbols
        .iter()
        .enumerate()
        .filter(|(_, s)| s.container == parent)
        .map(|(index, symbol)| {
            let mut node = json!({
                "type": symbol.kind.as_str(),
                "languageKind": symbol.language_kind,
                "name": symbol.name,
                "line": symbol.span.start.line + 1,
                "endLine": symbol.span.end.line + 1,
                "visibility": symbol.visibility,
                "chunkId": super::node::chunk_id(file, index),
            });
            if let Some(signature) = &symbol.signature {
                node["signature"] = json!(signature);
            }
            if let Some(doc) = &symbol.doc {
                node["docComment"] = json!(doc);
            }
            if let Some(container) = &symbol.container_name {
                node["containerName"] = json!(container);
            }
            if !symbol.modifiers.is_empty() {
                node["modifiers"] = json!(symbol.modifiers);
            }
            if !collapse {
                let (start, end) = (
                    symbol.span.start.offset as usize,
                    symbol.span.end.offset as usize,
                );
                node["source"] = json!(source.get(start..end).unwrap_or_default());
            }
            if depth.is_none_or(|d| level < d) {
                let nested = children(facts, Some(index as u32), level + 1, depth, collapse, file);
                if !nested.is_empty() {
                    node["children"] = Value::Array(nested);
                }
            }
            node
        })
        .collect()
}
