//! `get_symbol_info`: an adapter over [`Analysis::symbol_info`].

use serde_json::{Value, json};

use super::target::{self, to_json};
use super::{Args, Tool, ToolContext, output, text};
use crate::error::ToolError;
use lingo_analysis::Analysis;

pub fn tool() -> Tool {
    Tool {
        name: "get_symbol_info",
        aliases: &["getSymbolInfo", "hover"],
        description: "Everything known about one declaration: kind, signature, documentation, visibility, modifiers, container, members, complexity metrics, and counts of its references, callers, callees and implementations (certain and name-only). Name it by position or by `symbol` (+ `path`).",
        input_schema: json!({
            "type": "object",
            "properties": target::properties(),
            "additionalProperties": false
        }),
        handler: run,
        text: text::symbol_info,
        output_schema: output::symbol_info(),
    }
}

fn run(context: &ToolContext, args: &Args) -> Result<Value, ToolError> {
    let target = target::target(args)?;
    to_json(&Analysis::fresh(&context.workspace)?.symbol_info(&target)?)
}
