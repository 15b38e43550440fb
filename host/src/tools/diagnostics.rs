//! `get_diagnostics`: syntax errors of one file or of the whole workspace.

use serde_json::{Value, json};

use super::{Args, Tool, ToolContext, range_json};
use crate::error::ToolError;

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
    let mut all = Vec::new();
    let mut unanalyzed = Vec::new();
    for file in &files {
        match &file.facts {
            Ok(facts) => all.extend(facts.diagnostics.iter().map(|d| {
                json!({
                    "file_path": file.path,
                    "range": range_json(&d.span),
                    "line": d.span.start.line + 1,
                    "severity": d.severity,
                    "code": d.code,
                    "source": "syntax",
                    "message": d.message,
                })
            })),
            Err(error) => unanalyzed.push(json!({ "file_path": file.path, "code": error.code(), "reason": error.to_string() })),
        }
    }
    let total = all.len();
    let page: Vec<Value> = all.into_iter().skip(offset).take(limit).collect();
    let returned = page.len();
    Ok(json!({
        "diagnostics": page,
        "summary": {
            "total": total,
            "returned": returned,
            "offset": offset,
            "has_more": offset + returned < total,
            "files_checked": files.len() - unanalyzed.len(),
        },
        "unanalyzed_files": unanalyzed,
        "generation": snapshot.generation,
    }))
}
