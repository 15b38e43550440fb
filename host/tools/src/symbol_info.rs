//! `get_symbol_info`: an adapter over [`Analysis::symbol_info`].

use super::target::TargetArgs;
use super::{About, Tool, ToolContext, text};
use crate::error::ToolError;
use lingo_analysis::{Analysis, SymbolInfo};

pub fn tool() -> Tool {
    Tool::new(
        About {
            name: "get_symbol_info",
            aliases: &["getSymbolInfo", "hover"],
            description: "Everything known about one declaration: kind, signature, documentation, visibility, modifiers, container, members, complexity metrics, and counts of its references, callers, callees and implementations (certain and name-only). Name it by position or by `symbol` (+ `path`).",
            text: text::symbol_info,
        },
        run,
    )
}

fn run(context: &ToolContext, target: TargetArgs) -> Result<SymbolInfo, ToolError> {
    let target = target.target()?;
    Ok(Analysis::fresh(&context.workspace)?.symbol_info(&target)?)
}
