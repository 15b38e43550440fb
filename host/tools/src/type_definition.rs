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
            description: "Find the declaration of the type of a variable, field, property, constant or parameter, from its written type annotation (`x: Foo`, `Foo x`, `var x Foo`). On a type name it returns the type itself. Types that are only inferred are reported as such, never guessed.",
            text: text::type_definition,
        },
        run,
    )
}

fn run(context: &ToolContext, target: TargetArgs) -> Result<TypeDefinitions, ToolError> {
    let target = target.target()?;
    Ok(Analysis::fresh(&context.workspace)?.type_definition(&target)?)
}
