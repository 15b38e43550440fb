//! `find_type_definition`: an adapter over [`Analysis::type_definition`].

use super::target::TargetArgs;
use super::{About, Tool, ToolContext, text};
use crate::error::ToolError;
use lingo_analysis::{Analysis, TypeDefinitions};

pub fn tool() -> Tool {
    Tool::new(
        About {
            name: "find_type_definition",
            aliases: &["findTypeDefinition", "goto_type_definition"],
            description: "Go to type definition: the type of a variable, field or parameter, from its written annotation; on a type name, the type itself. Inferred types are reported as such, not guessed.",
            text: text::type_definition,
        },
        run,
    )
}

fn run(context: &ToolContext, target: TargetArgs) -> Result<TypeDefinitions, ToolError> {
    let target = target.target()?;
    Ok(Analysis::fresh(&context.workspace)?.type_definition(&target)?)
}
