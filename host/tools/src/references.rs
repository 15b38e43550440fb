//! `find_references`: an adapter over [`Analysis::references`], paged.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::page::{Pagination, Paging};
use super::target::TargetArgs;
use super::{About, Tool, ToolContext, text};
use crate::args::Group;
use crate::error::ToolError;
use lingo_analysis::{Analysis, Completeness, ReferenceItem, SubjectView};

#[derive(Deserialize, JsonSchema)]
struct ReferencesArgs {
    /// List the declaration itself first (default true)
    include_declaration: Option<bool>,
}

impl Group for ReferencesArgs {}

/// The answer: the declaration (first, when asked) and its references, one page.
#[derive(Serialize, JsonSchema)]
pub struct ReferencesAnswer {
    pub(crate) symbol: SubjectView,
    pub(crate) references: Vec<ReferenceItem>,
    pub(crate) pagination: Pagination,
    pub(crate) completeness: Completeness,
    pub(crate) generation: u64,
}

pub fn tool() -> Tool {
    Tool::new(
        About {
            name: "find_references",
            aliases: &["findReferences"],
            description: "Find all references (usages, calls, imports, reads, writes) of a declaration across the workspace, named by position or `symbol`. Each says how it was resolved and how certain it is; `completeness` counts guesses and unresolved same-named uses. Paginated.",
            text: text::references,
        },
        run,
    )
}

fn run(
    context: &ToolContext,
    (target, args, paging): (TargetArgs, ReferencesArgs, Paging<200, 5000>),
) -> Result<ReferencesAnswer, ToolError> {
    let paging = paging.request();
    let include_declaration = args.include_declaration.unwrap_or(true);
    let target = target.target()?;
    let answer = Analysis::fresh(&context.workspace)?.references(&target)?;
    let mut items = answer.items(include_declaration);
    // What matters first: the declaration and the certain references (by
    // file and position), the guesses last; a page cut keeps that order.
    items.sort_by_key(|item| !item.is_certain());
    let (references, pagination) = paging.page(&items);
    Ok(ReferencesAnswer {
        symbol: answer.symbol,
        references,
        pagination,
        completeness: answer.completeness,
        generation: answer.generation,
    })
}
