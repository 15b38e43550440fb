//! `search_symbols`: an adapter over [`Analysis::search`], paged.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use super::target::to_json;
use super::{About, Tool, ToolContext, output, text};
use crate::args::Group;
use crate::error::ToolError;
use lingo_analysis::{Analysis, SymbolSearch};

const DEFAULT_LIMIT: u32 = 50;

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct SearchArgs {
    /// Symbol name, part of one, or a regex when `regex` is true
    #[schemars(length(min = 1))]
    query: String,
    /// Only these kinds: LSP kinds (function, method, class, struct, enum, interface, ...) or the language's own (trait, impl, macro, type_alias, ...)
    #[serde(default)]
    kinds: Vec<String>,
    #[serde(default)]
    case_sensitive: bool,
    #[serde(default)]
    regex: bool,
    /// Only files under this workspace-relative path prefix
    path: Option<String>,
    #[serde(default = "default_limit")]
    #[schemars(range(min = 1, max = 1000))]
    limit: u32,
    #[serde(default)]
    offset: u32,
}

impl Group for SearchArgs {}

fn default_limit() -> u32 {
    DEFAULT_LIMIT
}

pub fn tool() -> Tool {
    Tool::new(
        About {
            name: "search_symbols",
            aliases: &["searchSymbols", "workspace_symbols"],
            description: "Find declarations by name across the workspace: case-insensitive substring match by default, or a regular expression. Exact matches rank first. Paginated.",
            text: text::search,
            output_schema: output::search(),
        },
        run,
    )
}

fn run(context: &ToolContext, args: SearchArgs) -> Result<Value, ToolError> {
    let search = SymbolSearch {
        query: args.query,
        case_sensitive: args.case_sensitive,
        regex: args.regex,
        kinds: args.kinds,
        path: args.path,
    };
    let limit = args.limit as usize;
    let offset = args.offset as usize;
    let analysis = Analysis::fresh(&context.workspace)?;
    let (total, hits) = analysis.search(&search, offset, limit)?;
    let page: Vec<Value> = hits.iter().map(to_json).collect::<Result<_, _>>()?;
    let returned = page.len();
    Ok(json!({
        "symbols": page,
        "total": total,
        "returned": returned,
        "offset": offset,
        "hasMore": offset + returned < total,
        "generation": analysis.generation(),
    }))
}
