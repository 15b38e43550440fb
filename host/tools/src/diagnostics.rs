//! `get_diagnostics`: an adapter over [`lingo_analysis::diagnostics`] for
//! one file or the whole workspace, paged.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use super::target::to_json;
use super::{About, Tool, ToolContext, output, text};
use crate::args::Group;
use crate::error::ToolError;
use lingo_analysis::diagnostics;

#[derive(Deserialize, JsonSchema)]
struct DiagnosticsArgs {
    /// File path relative to the workspace root (default: whole workspace)
    path: Option<String>,
    #[serde(default = "default_limit")]
    #[schemars(range(min = 1, max = 5000))]
    limit: u32,
    #[serde(default)]
    offset: u32,
}

impl Group for DiagnosticsArgs {}

fn default_limit() -> u32 {
    200
}

pub fn tool() -> Tool {
    Tool::new(
        About {
            name: "get_diagnostics",
            aliases: &["getDiagnostics", "diagnostics"],
            description: "Syntax errors (parse errors and missing tokens) of one file, or of every indexed file when no path is given. Paginated.",
            text: text::diagnostics,
            output_schema: output::diagnostics(),
        },
        run,
    )
}

fn run(context: &ToolContext, args: DiagnosticsArgs) -> Result<Value, ToolError> {
    let workspace = &context.workspace;
    let limit = args.limit as usize;
    let offset = args.offset as usize;
    let (snapshot, files) = match &args.path {
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
