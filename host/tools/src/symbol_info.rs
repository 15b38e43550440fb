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
            description: "Everything about one declaration: kind, signature, docs, visibility, container, members, complexity, and how many references, callers, callees and implementations it has (certain and guessed).",
            text: text::symbol_info,
        },
        run,
    )
}

fn run(context: &ToolContext, target: TargetArgs) -> Result<SymbolInfo, ToolError> {
    let target = target.target()?;
    Ok(Analysis::fresh(&context.workspace)?.symbol_info(&target)?)
}
