//! The arguments that name what a navigation tool is about (a position, or
//! a symbol name optionally narrowed to a file), read into an analysis
//! [`Target`].

use serde_json::{Map, Value, json};

use super::Args;
use crate::error::ToolError;
use lingo_analysis::{FilePosition, SymbolQuery, Target};

/// The input properties of [`target`], for tool schemas.
pub fn properties() -> Map<String, Value> {
    let schema = json!({
        "path": { "type": "string", "description": "Workspace-relative file: the file of the position, or the file declaring `symbol`" },
        "line": { "type": "integer", "minimum": 0, "description": "Zero-based line of the position" },
        "character": { "type": "integer", "minimum": 0, "description": "Zero-based UTF-16 character of the position (default 0)" },
        "symbol": { "type": "string", "description": "Symbol name when no position is given (`name`, `Type::name` or `Type.name`); add `path` when several declarations share it" }
    });
    match schema {
        Value::Object(map) => map,
        _ => unreachable!("a JSON object literal"),
    }
}

/// The target named by `path`/`line`/`character` or by `symbol` (+`path`).
pub fn target(args: &Args) -> Result<Target, ToolError> {
    let line = args.uint("line", u32::MAX as u64)?;
    let character = args.uint("character", u32::MAX as u64)?.unwrap_or(0);
    match (args.str("path")?, line, args.str("symbol")?) {
        (Some(path), Some(line), _) => Ok(Target::Position(FilePosition {
            path: path.to_string(),
            line,
            character,
        })),
        (path, None, Some(symbol)) => Ok(Target::Symbol(SymbolQuery {
            name: symbol.to_string(),
            path: path.map(str::to_string),
        })),
        (Some(_), None, None) => Err(ToolError::MissingParam {
            field: "line".into(),
        }),
        (None, Some(_), _) => Err(ToolError::MissingParam {
            field: "path".into(),
        }),
        (None, None, None) => Err(ToolError::InvalidParam {
            field: "symbol".into(),
            reason: "give either `path` with `line` and `character`, or `symbol`".into(),
            suggestions: vec![
                "{\"path\": \"src/lib.rs\", \"line\": 10, \"character\": 4}".into(),
                "{\"symbol\": \"parse\"}".into(),
            ],
        }),
    }
}

/// Serialize a query's answer (plain structs whose serialization is the
/// tool's JSON).
pub fn to_json(value: &impl serde::Serialize) -> Result<Value, ToolError> {
    serde_json::to_value(value).map_err(|e| ToolError::Internal(format!("serializing: {e}")))
}
