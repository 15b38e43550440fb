//! `find_implementations`: an adapter over [`Analysis::implementations`], paged.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use super::page::Paging;
use super::target::{TargetArgs, to_json};
use super::{About, Tool, ToolContext, output, text};
use crate::args::Group;
use crate::error::ToolError;
use lingo_analysis::Analysis;

#[derive(Deserialize, JsonSchema)]
struct ImplementationsArgs {
    /// Also list implementations of implementations and subclasses of subclasses (default true)
    transitive: Option<bool>,
}

impl Group for ImplementationsArgs {}

pub fn tool() -> Tool {
    Tool::new(
        About {
            name: "find_implementations",
            aliases: &["findImplementations", "goto_implementation"],
            description: "Find the types that implement an interface or trait, or extend a class: the declarations whose base list, `implements` clause or `impl ... for` names it. Transitive by default; each result says through which edge (EXTENDS or IMPLEMENTS), at which depth, and how it was resolved.",
            text: text::implementations,
            output_schema: output::implementations(),
        },
        run,
    )
}

fn run(
    context: &ToolContext,
    (target, args, paging): (TargetArgs, ImplementationsArgs, Paging<200, 5000>),
) -> Result<Value, ToolError> {
    let paging = paging.request();
    let transitive = args.transitive.unwrap_or(true);
    let target = target.target()?;
    let answer = Analysis::fresh(&context.workspace)?.implementations(&target, transitive)?;
    let (implementations, pagination) = paging.page_with(&answer.implementations, to_json)?;
    Ok(json!({
        "symbol": to_json(&answer.symbol)?,
        "implementations": implementations,
        "pagination": pagination,
        "completeness": to_json(&answer.completeness)?,
        "generation": answer.generation,
    }))
}
