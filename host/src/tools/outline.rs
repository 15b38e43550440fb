//! `outline`: the hierarchical structure of one file (codetextor-api.md).

use serde_json::{Value, json};

use super::{Args, Tool, ToolContext};
use crate::error::ToolError;
use crate::model::FileFacts;

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
    let outline = children(facts, None, 1, depth, collapse, &file.source);
    Ok(json!({
        "filePath": file.path,
        "language": facts.language,
        "generation": snapshot.generation,
        "outline": outline,
    }))
}

fn children(
    facts: &FileFacts,
    parent: Option<u32>,
    level: usize,
    depth: Option<usize>,
    collapse: bool,
    source: &str,
) -> Vec<Value> {
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
                let nested = children(
                    facts,
                    Some(index as u32),
                    level + 1,
                    depth,
                    collapse,
                    source,
                );
                if !nested.is_empty() {
                    node["children"] = Value::Array(nested);
                }
            }
            node
        })
        .collect()
}
