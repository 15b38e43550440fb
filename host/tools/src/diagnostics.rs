//! `get_diagnostics`: an adapter over [`lingo_analysis::diagnostics`] for
//! one file or the whole workspace, paged.

use serde_json::{Value, json};

use super::target::to_json;
use super::{Args, Tool, ToolContext, output, text};
use crate::error::ToolError;
use lingo_analysis::diagnostics;

const DEFAULT_LIMIT: u64 = 200;

pub fn tool() -> Tool {
    Tool {
        name: "get_diagnostics",
        aliases: &["getDiagnostics", "diagnostics"],
        description: "Syntax errors (parse errors and missing tokens) of one file, or of every indexed file when no path is given. Paginated.",
        input_schema: json!({
            "type": "object",
            "properties": {
                "path": { "type": "string", "description": "File path relative to the workspace root (default: whole workspace)" },
                "limit": { "type": "integer", "minimum": 1, "maximum": 5000, "default": DEFAULT_LIMIT },
                "offset": { "type": "integer", "minimum": 0, "default": 0 }
            },
            "additionalProperties": false
        }),
        handler: run,
        text: text::diagnostics,
        output_schema: output::diagnostics(),
    }
}

fn run(context: &ToolContext, args: &Args) -> Result<Value, ToolError> {
    let workspace = &context.workspace;
    let limit = args.limit("limit", DEFAULT_LIMIT, 5000)?;
    let offset = args.uint("offset", u32::MAX as u64)?.unwrap_or(0) as usize;
    let (snapshot, files) = match args.str("path")? {
        Some(path) => {
            let (snapshot, file) = workspace.fresh_file(path)?;
            (snapshot, vec![file])
        }
        None => {
            let snapshot = workspace.fresh();
            let files = snapshot.files.values().cloned().collect();
            (snapshot, files)
        }
    };
    let found = diagnostics(&files);
    let total = found.diagnostics.len();
    let page: Vec<Value> = found
        .diagnostics
        .iter()
        .skip(offset)
        .take(limit)
        .map(to_json)
        .collect::<Result<_, _>>()?;
    let returned = page.len();
    Ok(json!({
        "diagnostics": page,
        "summary": {
            "total": total,
            "returned": returned,
            "offset": offset,
            "has_more": offset + returned < total,
            "files_checked": found.files_checked,
        },
        "unanalyzed_files": to_json(&found.unanalyzed)?,
        "generation": snapshot.generation,
    }))
}
