//! Point queries of codetextor-api.md: `node_at` (the syntax node and the
//! declaration at a line and column) and `node_source` (a declaration's
//! source, optionally with bodies collapsed and context lines around it).

use schemars::JsonSchema;
use serde::Deserialize;

use super::target::TargetArgs;
use super::{About, Tool, ToolContext, text};
use crate::args::Group;
use crate::error::ToolError;
use lingo_analysis::{self as analysis, Analysis, NodeAt, NodeSource};

/// Most context lines `node_source` adds on each side.
const MAX_CONTEXT: u32 = 200;

#[derive(Deserialize, JsonSchema)]
struct NodeAtArgs {
    /// File path relative to the workspace root
    path: String,
    /// Line number (1-indexed)
    line: u32,
    /// Column in UTF-16 code units (0-indexed, default 0)
    #[serde(default)]
    column: u32,
}

impl Group for NodeAtArgs {}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct NodeSourceArgs {
    /// Chunk identifier from outline or search results (`path:line:name`)
    chunk_id: Option<String>,
    /// Replace function and method bodies with `{ … }` (default false)
    #[serde(default)]
    collapse_body: bool,
    /// Lines of context before and after (default 0)
    #[serde(default)]
    #[schemars(range(max = MAX_CONTEXT))]
    include_context: u32,
}

impl Group for NodeSourceArgs {}

pub fn node_at() -> Tool {
    Tool::new(
        About {
            name: "node_at",
            aliases: &["nodeAt"],
            description: "The syntax node at a 1-based line and 0-based column of a file: its grammar type, lines, text, ancestors and enclosing declaration.",
            text: text::node_at,
        },
        run_node_at,
    )
}

pub fn node_source() -> Tool {
    Tool::new(
        About {
            name: "node_source",
            aliases: &["nodeSource"],
            description: "Source code of one declaration, by `chunkId` (from outline or search_symbols), position or `symbol`; `collapseBody` folds function bodies, `includeContext` adds the lines around.",
            text: text::node_source,
        },
        run_node_source,
    )
}

fn run_node_at(context: &ToolContext, args: NodeAtArgs) -> Result<NodeAt, ToolError> {
    let (snapshot, file) = context.workspace.fresh_file(&args.path)?;
    if args.line == 0 {
        return Err(ToolError::InvalidParam {
            field: "line".into(),
            reason: "lines are 1-indexed here".into(),
            suggestions: vec!["Use line 1 for the first line".into()],
        });
    }
    Ok(analysis::node_at(
        &file,
        args.line.into(),
        args.column.into(),
        snapshot.generation,
    )?)
}

fn run_node_source(
    context: &ToolContext,
    (target, args): (TargetArgs, NodeSourceArgs),
) -> Result<NodeSource, ToolError> {
    let collapse = args.collapse_body;
    let context_lines = args.include_context as usize;
    let analysis = Analysis::fresh(&context.workspace)?;
    let symbol = match &args.chunk_id {
        Some(chunk) => analysis.chunk(chunk).map_err(|e| {
            ToolError::from(e)
                .blame("path", "chunkId")
                .blame("symbol", "chunkId")
        })?,
        None => analysis
            .subject(&target.target()?)?
            .declaration("a local binding is not a chunk; name a declaration")?,
    };
    Ok(analysis.declaration_source(symbol, collapse, context_lines)?)
}
