//! `find_definition`: an adapter over [`Analysis::definition`].

use super::target::TargetArgs;
use super::{About, Tool, ToolContext, text};
use crate::error::ToolError;
use lingo_analysis::{Analysis, Definitions, SymbolQuery, Target};

pub fn tool() -> Tool {
    Tool::new(
        About {
            name: "find_definition",
            aliases: &["findDefinition", "goto_definition"],
            description: "Find where a symbol is declared. Give a position (path, zero-based line and character) to resolve the name there through local scopes, imports and module paths; or give a symbol name (optionally `Type::member`). Each definition says how it was resolved (declaration, scope, import, qualified, name_only) and a confidence.",
            text: text::definition,
        },
        run,
    )
}

fn run(context: &ToolContext, args: TargetArgs) -> Result<Definitions, ToolError> {
    // A name is looked up workspace-wide: `path` only goes with a position.
    let target = match args.target()? {
        Target::Symbol(query) => Target::Symbol(SymbolQuery {
            path: None,
            ..query
        }),
        position => position,
    };
    let analysis = Analysis::fresh(&context.workspace)?;
    Ok(analysis.definition(&target)?)
}
