//! `find_definition`: an adapter over [`Analysis::definition`].

use serde_json::{Value, json};

use super::target::{self, to_json};
use super::{Args, Tool, ToolContext, output, text};
use crate::error::ToolError;
use lingo_analysis::{Analysis, SymbolQuery, Target};

pub fn tool() -> Tool {
    Tool {
        name: "find_definition",
        aliases: &["findDefinition", "goto_definition"],
        description: "Find where a symbol is declared. Give a position (path, zero-based line and character) to resolve the name there through local scopes, imports and module paths; or give a symbol name (optionally `Type::member`). Each definition says how it was resolved (declaration, scope, import, qualified, name_only) and a confidence.",
        input_schema: json!({
            "type": "object",
            "properties": {
                "path": { "type": "string", "description": "File containing the position" },
                "line": { "type": "integer", "minimum": 0, "description": "Zero-based line" },
                "character": { "type": "integer", "minimum": 0, "description": "Zero-based UTF-16 character in the line" },
                "symbol": { "type": "string", "description": "Symbol name to look up when no position is given (`name`, `Type::name` or `Type.name`)" }
            },
            "additionalProperties": false
        }),
        handler: run,
        text: text::definition,
        output_schema: output::definition(),
    }
}

fn run(context: &ToolContext, args: &Args) -> Result<Value, ToolError> {
    // A name is looked up workspace-wide: `path` only goes with a position.
    let target = match target::target(args)? {
        Target::Symbol(query) => Target::Symbol(SymbolQuery {
            path: None,
            ..query
        }),
        position => position,
    };
    let analysis = Analysis::fresh(&context.workspace)?;
    to_json(&analysis.definition(&target)?)
}
