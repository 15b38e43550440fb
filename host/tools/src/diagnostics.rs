//! `get_diagnostics`: an adapter over [`lingo_analysis::diagnostics`] for
//! one file or the whole workspace, paged.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{About, Tool, ToolContext, text};
use crate::args::Group;
use crate::error::ToolError;
use lingo_analysis::{DiagnosticView, UnanalyzedFile, diagnostics};

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

/// The answer: one page of the syntax errors, and the files not analysed.
#[derive(Serialize, JsonSchema)]
pub struct DiagnosticsAnswer {
    pub(crate) diagnostics: Vec<DiagnosticView>,
    pub(crate) summary: Summary,
    pub(crate) unanalyzed_files: Vec<UnanalyzedFile>,
    generation: u64,
}

/// What the page holds.
#[derive(Serialize, JsonSchema)]
pub struct Summary {
    pub(crate) total: usize,
    returned: usize,
    offset: usize,
    has_more: bool,
    pub(crate) files_checked: usize,
}

fn default_limit() -> u32 {
    200
}

pub fn tool() -> Tool {
    Tool::new(
        About {
            name: "get_diagnostics",
            aliases: &["getDiagnostics", "diagnostics"],
            description: "Syntax errors of one file, or of every indexed file. Paginated.",
            text: text::diagnostics,
        },
        run,
    )
}

fn run(context: &ToolContext, args: DiagnosticsArgs) -> Result<DiagnosticsAnswer, ToolError> {
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
    let page: Vec<DiagnosticView> = found
        .diagnostics
        .into_iter()
        .skip(offset)
        .take(limit)
        .collect();
    let returned = page.len();
    Ok(DiagnosticsAnswer {
        diagnostics: page,
        summary: Summary {
            total,
            returned,
            offset,
            has_more: offset + returned < total,
            files_checked: found.files_checked,
        },
        unanalyzed_files: found.unanalyzed,
        generation: snapshot.generation,
    })
}
