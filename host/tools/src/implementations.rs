//! `find_implementations`: an adapter over [`Analysis::implementations`], paged.

use serde_json::{Value, json};

use super::page::{self, PageRequest};
use super::target::{self, to_json};
use super::{Args, Tool, ToolContext, output, text};
use crate::error::ToolError;
use lingo_analysis::Analysis;

const DEFAULT_LIMIT: u64 = 200;
const MAX_LIMIT: u64 = 5000;

pub fn tool() -> Tool {
    let mut properties = target::properties();
    properties.insert(
        "transitive".into(),
        json!({ "type": "boolean", "description": "Also list implementations of implementations and subclasses of subclasses (default true)" }),
    );
    let mut input_schema = json!({
        "type": "object",
        "properties": properties,
        "additionalProperties": false
    });
    page::add_to_schema(&mut input_schema, DEFAULT_LIMIT, MAX_LIMIT);
    Tool {
        name: "find_implementations",
        aliases: &["findImplementations", "goto_implementation"],
        description: "Find the types that implement an interface or trait, or extend a class: the declarations whose base list, `implements` clause or `impl ... for` names it. Transitive by default; each result says through which edge (EXTENDS or IMPLEMENTS), at which depth, and how it was resolved.",
        input_schema,
        handler: run,
        text: text::implementations,
        output_schema: output::implementations(),
    }
}

fn run(context: &ToolContext, args: &Args) -> Result<Value, ToolError> {
    let paging = PageRequest::from_args(args, DEFAULT_LIMIT, MAX_LIMIT)?;
    let transitive = args.bool("transitive", true)?;
    let target = target::target(args)?;
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
