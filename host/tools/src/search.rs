//! `search_symbols`: an adapter over [`Analysis::search`], paged.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{About, Tool, ToolContext, text};
use crate::args::Group;
use crate::error::ToolError;
use lingo_analysis::{Analysis, SearchHit, SymbolSearch};

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

/// The answer: one page of the declarations found, best first.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SearchAnswer {
    pub(crate) symbols: Vec<SearchHit>,
    pub(crate) total: usize,
    returned: usize,
    offset: usize,
    has_more: bool,
    generation: u64,
}

fn default_limit() -> u32 {
    DEFAULT_LIMIT
}

pub fn tool() -> Tool {
    Tool::new(
        About {
            name: "search_symbols",
            aliases: &["searchSymbols", "workspace_symbols"],
            description: "Search declarations (functions, classes, types, methods, constants) by name across the workspace: case-insensitive substring, or a regular expression; exact matches first. Paginated.",
            text: text::search,
        },
        run,
    )
}

fn run(context: &ToolContext, args: SearchArgs) -> Result<SearchAnswer, ToolError> {
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
    let returned = hits.len();
    Ok(SearchAnswer {
        symbols: hits,
        total,
        returned,
        offset,
        has_more: offset + returned < total,
        generation: analysis.generation(),
    })
}
