//! `find_implementations`: an adapter over [`Analysis::implementations`], paged.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::page::{Pagination, Paging};
use super::target::TargetArgs;
use super::{About, Tool, ToolContext, text};
use crate::args::Group;
use crate::error::ToolError;
use lingo_analysis::{Analysis, Implementation, ImplementationsCompleteness, SymbolView};

#[derive(Deserialize, JsonSchema)]
struct ImplementationsArgs {
    /// Also list implementations of implementations and subclasses of subclasses (default true)
    transitive: Option<bool>,
}

impl Group for ImplementationsArgs {}

/// The answer: the type and one page of its implementations.
#[derive(Serialize, JsonSchema)]
pub struct ImplementationsAnswer {
    pub(crate) symbol: SymbolView,
    pub(crate) implementations: Vec<Implementation>,
    pub(crate) pagination: Pagination,
    pub(crate) completeness: ImplementationsCompleteness,
    generation: u64,
}

pub fn tool() -> Tool {
    Tool::new(
        About {
            name: "find_implementations",
            aliases: &["findImplementations", "goto_implementation"],
            description: "Find the implementations of an interface or trait and the subclasses of a class (transitively), each with its edge (extends or implements), depth and certainty.",
            text: text::implementations,
        },
        run,
    )
}

fn run(
    context: &ToolContext,
    (target, args, paging): (TargetArgs, ImplementationsArgs, Paging<200, 5000>),
) -> Result<ImplementationsAnswer, ToolError> {
    let paging = paging.request();
    let transitive = args.transitive.unwrap_or(true);
    let target = target.target()?;
    let answer = Analysis::fresh(&context.workspace)?.implementations(&target, transitive)?;
    let (implementations, pagination) = paging.page(&answer.implementations);
    Ok(ImplementationsAnswer {
        symbol: answer.symbol,
        implementations,
        pagination,
        completeness: answer.completeness,
        generation: answer.generation,
    })
}
