//! `outline`: an adapter over [`lingo_analysis::outline`].

use serde_json::{Value, json};

use super::target::to_json;
use super::{Args, Tool, ToolContext, output, text};
use crate::error::ToolError;
use lingo_analysis::{MAX_OUTLINE_DEPTH, outline};

pub fn tool() -> Tool {
    Tool {
        name: "outline",
        aliases: &["getOutline", "get_outline"],
        description: "Hierarchical outline of a file: every declaration with its kind, 1-based lines, signature and doc comment, nested under its container.",
        input_schema: json!({
            "type": "object",
            "properties": {
                "path": { "type": "string", "description": "File path relative to the workspace root" },
                "depth": { "type": "integer", "minimum": 1, "maximum": 48, "description": "Nesting depth to include (default and most: 48)" },
                "collapseBody": { "type": "boolean", "default": true, "description": "Show declarations as signatures (true) or include each declaration's full source (false)" }
            },
            "required": ["path"],
            "additionalProperties": false
        }),
        handler: run,
        text: text::outline,
        output_schema: output::outline(),
    }
}

fn run(context: &ToolContext, args: &Args) -> Result<Value, ToolError> {
    let workspace = &context.workspace;
    let (snapshot, file) = workspace.fresh_file(args.required_str("path")?)?;
    let depth = args
        .uint("depth", MAX_OUTLINE_DEPTH as u64)?
        .map(|d| d as usize);
    if depth == Some(0) {
        return Err(ToolError::invalid("depth", "depth must be at least 1"));
    }
    let collapse = args.bool("collapseBody", true)?;
    to_json(&outline(&file, depth, collapse, snapshot.generation)?)
}
