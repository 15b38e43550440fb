//! Point queries of codetextor-api.md: `node_at` (the syntax node and the
//! declaration at a line and column) and `node_source` (a declaration's
//! source, optionally with bodies collapsed and context lines around it).

use serde_json::{Value, json};

use super::target::{self, to_json};
use super::{Args, Tool, ToolContext, output, text};
use crate::error::ToolError;
use lingo_analysis::{self as analysis, Analysis};

/// Most context lines `node_source` adds on each side.
const MAX_CONTEXT: u64 = 200;

pub fn node_at() -> Tool {
    Tool {
        name: "node_at",
        aliases: &["nodeAt"],
        description: "The syntax node at a 1-based line and 0-based column of a file: its grammar type, lines, text and ancestors, plus the innermost declaration containing the position (its name, kind, lines and `parent` container).",
        input_schema: json!({
            "type": "object",
            "properties": {
                "path": { "type": "string", "description": "File path relative to the workspace root" },
                "line": { "type": "integer", "minimum": 1, "description": "Line number (1-indexed)" },
                "column": { "type": "integer", "minimum": 0, "description": "Column in UTF-16 code units (0-indexed, default 0)" }
            },
            "required": ["path", "line"],
            "additionalProperties": false
        }),
        handler: run_node_at,
        text: text::node_at,
        output_schema: output::node_at(),
    }
}

pub fn node_source() -> Tool {
    let mut properties = target::properties();
    properties.insert(
        "chunkId".into(),
        json!({ "type": "string", "description": "Chunk identifier from outline or search results (`path:line:name`)" }),
    );
    properties.insert(
        "collapseBody".into(),
        json!({ "type": "boolean", "description": "Replace function and method bodies with `{ … }` (default false)" }),
    );
    properties.insert(
        "includeContext".into(),
        json!({ "type": "integer", "minimum": 0, "maximum": MAX_CONTEXT, "description": "Lines of context before and after (default 0)" }),
    );
    Tool {
        name: "node_source",
        aliases: &["nodeSource"],
        description: "The source of one declaration, named by `chunkId` (from outline/search_symbols), by position, or by `symbol` (+ `path`). `collapseBody` keeps signatures and structure but folds function bodies; `includeContext` adds surrounding lines.",
        input_schema: json!({
            "type": "object",
            "properties": properties,
            "additionalProperties": false
        }),
        handler: run_node_source,
        text: text::node_source,
        output_schema: output::node_source(),
    }
}

fn run_node_at(context: &ToolContext, args: &Args) -> Result<Value, ToolError> {
    let workspace = &context.workspace;
    let (snapshot, file) = workspace.fresh_file(args.required_str("path")?)?;
    let line = args.uint("line", u32::MAX as u64)?.unwrap_or(1);
    if line == 0 {
        return Err(ToolError::InvalidParam {
            field: "line".into(),
            reason: "lines are 1-indexed here".into(),
            suggestions: vec!["Use line 1 for the first line".into()],
        });
    }
    let column = args.uint("column", u32::MAX as u64)?.unwrap_or(0);
    to_json(&analysis::node_at(
        &file,
        line,
        column,
        snapshot.generation,
    )?)
}

fn run_node_source(context: &ToolContext, args: &Args) -> Result<Value, ToolError> {
    let collapse = args.bool("collapseBody", false)?;
    let context_lines = args.uint("includeContext", MAX_CONTEXT)?.unwrap_or(0) as usize;
    let analysis = Analysis::fresh(&context.workspace)?;
    let symbol = match args.str("chunkId")? {
        Some(chunk) => analysis.chunk(chunk).map_err(|e| {
            ToolError::from(e)
                .blame("path", "chunkId")
                .blame("symbol", "chunkId")
        })?,
        None => analysis
            .subject(&target::target(args)?)?
            .declaration("a local binding is not a chunk; name a declaration")?,
    };
    to_json(&analysis.declaration_source(symbol, collapse, context_lines)?)
}
