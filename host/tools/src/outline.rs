//! `outline`: an adapter over [`lingo_analysis::outline`].

use schemars::JsonSchema;
use serde::Deserialize;

use super::{About, Tool, ToolContext, text};
use crate::args::Group;
use crate::error::ToolError;
use lingo_analysis::{MAX_OUTLINE_DEPTH, Outline, outline};

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct OutlineArgs {
    /// File path relative to the workspace root
    path: String,
    /// Nesting depth to include (default and most: 48)
    #[schemars(range(min = 1, max = MAX_OUTLINE_DEPTH))]
    depth: Option<u32>,
    /// Show declarations as signatures (true) or include each declaration's full source (false)
    #[serde(default = "yes")]
    collapse_body: bool,
}

impl Group for OutlineArgs {}

fn yes() -> bool {
    true
}

pub fn tool() -> Tool {
    Tool::new(
        About {
            name: "outline",
            aliases: &["getOutline", "get_outline"],
            description: "Outline of a file: list its functions, classes, methods and every other declaration (kind, 1-based lines, signature, first paragraph of its doc comment), nested under its container. Cheaper than reading the file.",
            text: text::outline,
        },
        run,
    )
}

fn run(context: &ToolContext, args: OutlineArgs) -> Result<Outline, ToolError> {
    let (snapshot, file) = context.workspace.fresh_file(&args.path)?;
    let depth = args.depth.map(|d| d as usize);
    Ok(outline(
        file,
        depth,
        args.collapse_body,
        snapshot.generation,
    )?)
}
