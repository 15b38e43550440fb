//! `search_symbols`: an adapter over [`Analysis::search`], paged.

use serde_json::{Value, json};

use super::target::to_json;
use super::{Args, Tool, ToolContext, output, text};
use crate::error::ToolError;
use lingo_analysis::{Analysis, SymbolSearch};

const DEFAULT_LIMIT: u64 = 50;
const MAX_LIMIT: u64 = 1000;

pub fn tool() -> Tool {
    Tool {
        name: "search_symbols",
        aliases: &["searchSymbols", "workspace_symbols"],
        description: "Find declarations by name across the workspace: case-insensitive substring match by default, or a regular expression. Exact matches rank first. Paginated.",
        input_schema: json!({
            "type": "object",
            "properties": {
                "query": { "type": "string", "minLength": 1, "description": "Symbol name, part of one, or a regex when `regex` is true" },
                "kinds": {
                    "type": "array", "items": { "type": "string" },
                    "description": "Only these kinds: LSP kinds (function, method, class, struct, enum, interface, ...) or the language's own (trait, impl, macro, type_alias, ...)"
                },
                "caseSensitive": { "type": "boolean", "default": false },
                "regex": { "type": "boolean", "default": false },
                "path": { "type": "string", "description": "Only files under this workspace-relative path prefix" },
                "limit": { "type": "integer", "minimum": 1, "maximum": MAX_LIMIT, "default": DEFAULT_LIMIT },
                "offset": { "type": "integer", "minimum": 0, "default": 0 }
            },
            "required": ["query"],
            "additionalProperties": false
        }),
        handler: run,
        text: text::search,
        output_schema: output::search(),
    }
}

fn run(context: &ToolContext, args: &Args) -> Result<Value, ToolError> {
    let query = args.required_str("query")?;
    let search = SymbolSearch {
        query: query.to_string(),
        case_sensitive: args.bool("caseSensitive", false)?,
        regex: args.bool("regex", false)?,
        kinds: args
            .str_list("kinds")?
            .into_iter()
            .map(str::to_string)
            .collect(),
        path: args.str("path")?.map(str::to_string),
    };
    let limit = args.limit("limit", DEFAULT_LIMIT, MAX_LIMIT)?;
    let offset = args.uint("offset", u32::MAX as u64)?.unwrap_or(0) as usize;
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
