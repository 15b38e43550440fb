//! The arguments that name what a navigation tool is about (a position, or
//! a symbol name optionally narrowed to a file), read into an analysis
//! [`Target`].

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

use crate::args::Group;
use crate::error::ToolError;
use lingo_analysis::{FilePosition, SymbolQuery, Target};

/// The arguments naming a position or a declaration.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct TargetArgs {
    /// Workspace-relative file: the file of the position, or the file declaring `symbol`
    pub path: Option<String>,
    /// Zero-based line of the position
    pub line: Option<u32>,
    /// Zero-based UTF-16 character of the position (default 0)
    pub character: Option<u32>,
    /// Symbol name when no position is given (`name`, `Type::name` or `Type.name`); add `path` when several declarations share it
    pub symbol: Option<String>,
}

impl Group for TargetArgs {}

impl TargetArgs {
    /// The target named by `path`/`line`/`character` or by `symbol` (+`path`).
    pub fn target(&self) -> Result<Target, ToolError> {
        match (&self.path, self.line, &self.symbol) {
            (Some(path), Some(line), _) => Ok(Target::Position(FilePosition {
                path: path.clone(),
                line: line.into(),
                character: self.character.unwrap_or(0).into(),
            })),
            (path, None, Some(symbol)) => Ok(Target::Symbol(SymbolQuery {
                name: symbol.clone(),
                path: path.clone(),
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
}

/// Serialize a query's answer (plain structs whose serialization is the
/// tool's JSON).
pub fn to_json(value: &impl serde::Serialize) -> Result<Value, ToolError> {
    serde_json::to_value(value).map_err(|e| ToolError::Internal(format!("serializing: {e}")))
}
