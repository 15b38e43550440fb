//! `find_references`: an adapter over [`Analysis::references`], paged.

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
        "include_declaration".into(),
        json!({ "type": "boolean", "description": "List the declaration itself first (default true)" }),
    );
    let mut input_schema = json!({
        "type": "object",
        "properties": properties,
        "additionalProperties": false
    });
    page::add_to_schema(&mut input_schema, DEFAULT_LIMIT, MAX_LIMIT);
    Tool {
        name: "find_references",
        aliases: &["findReferences"],
        description: "Find every use of a declaration across the workspace: calls, type uses, reads and writes, imports, extends and implements. Name the declaration by a position (path, zero-based line and character) or by `symbol` (+ `path`). Each reference says how it was resolved (scope, import, qualified, name_only) and how certain it is; `completeness` counts the certain and guessed references and lists same-named uses that could not be resolved, so an empty list is never a silent miss. Paged with offset/limit and a byte budget.",
        input_schema,
        handler: run,
        text: text::references,
        output_schema: output::references(),
    }
}

fn run(context: &ToolContext, args: &Args) -> Result<Value, ToolError> {
    let paging = PageRequest::from_args(args, DEFAULT_LIMIT, MAX_LIMIT)?;
    let include_declaration = args.bool("include_declaration", true)?;
    let target = target::target(args)?;
    let answer = Analysis::fresh(&context.workspace)?.references(&target)?;
    let mut items = answer.items(include_declaration);
    // What matters first: the declaration and the certain references (by
    // file and position), the guesses last; a page cut keeps that order.
    items.sort_by_key(|item| !item.is_certain());
    let (references, pagination) = paging.page_with(&items, to_json)?;
    Ok(json!({
        "symbol": to_json(&answer.symbol)?,
        "references": references,
        "pagination": pagination,
        "completeness": to_json(&answer.completeness)?,
        "generation": answer.generation,
    }))
}
