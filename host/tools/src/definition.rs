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
            description: "Go to definition: where the name at a position (path, zero-based line and character) or a `symbol` (`name`, `Type::member`) is declared, each with how it was resolved and how certain it is.",
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
