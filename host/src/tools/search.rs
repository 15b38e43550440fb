//! `search_symbols`: declarations by name across the workspace.

use regex::RegexBuilder;
use serde_json::{Value, json};

use super::{Args, Tool, ToolContext};
use crate::error::{ToolError, similar};
use crate::model::{Symbol, SymbolKind};

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
    }
}

/// How well a name matched: lower is better.
fn rank(name: &str, query: &str, case_sensitive: bool) -> Option<u8> {
    let (name, query) = if case_sensitive {
        (name.to_string(), query.to_string())
    } else {
        (name.to_lowercase(), query.to_lowercase())
    };
    if name == query {
        Some(0)
    } else if name.starts_with(&query) {
        Some(1)
    } else if name.contains(&query) {
        Some(2)
    } else {
        None
    }
}

fn run(context: &ToolContext, args: &Args) -> Result<Value, ToolError> {
    let workspace = &context.workspace;
    let snapshot = workspace.fresh();
    let query = args.required_str("query")?;
    if query.trim().is_empty() {
        return Err(ToolError::InvalidQuery {
            reason: "the query is empty".into(),
        });
    }
    let case_sensitive = args.bool("caseSensitive", false)?;
    let regex = if args.bool("regex", false)? {
        Some(
            RegexBuilder::new(query)
                .case_insensitive(!case_sensitive)
                .size_limit(1 << 20)
                .build()
                .map_err(|e| ToolError::InvalidQuery {
                    reason: e.to_string(),
                })?,
        )
    } else {
        None
    };
    let kinds = args.str_list("kinds")?;
    check_kinds(&snapshot, &kinds)?;
    let prefix = match args.str("path")? {
        Some(p) => Some(crate::workspace::paths::resolve(workspace.root(), p)?),
        None => None,
    };
    let limit = args.limit("limit", DEFAULT_LIMIT, MAX_LIMIT)?;
    let offset = args.uint("offset", u32::MAX as u64)?.unwrap_or(0) as usize;

    let mut hits: Vec<(u8, &str, &Symbol)> = Vec::new();
    for file in snapshot.files.values() {
        if prefix.as_ref().is_some_and(|p| !is_under(&file.path, p)) {
            continue;
        }
        let Ok(facts) = &file.facts else { continue };
        for symbol in &facts.symbols {
            if !kinds.is_empty() && !kinds.iter().any(|k| kind_matches(symbol, k)) {
                continue;
            }
            let score = match &regex {
                Some(re) => re
                    .is_match(&symbol.name)
                    .then(|| rank(&symbol.name, query, case_sensitive).unwrap_or(3)),
                None => rank(&symbol.name, query, case_sensitive),
            };
            if let Some(score) = score {
                hits.push((score, file.path.as_str(), symbol));
            }
        }
    }
    hits.sort_by(|a, b| {
        (a.0, a.2.name.len(), a.1, a.2.span.start.line).cmp(&(
            b.0,
            b.2.name.len(),
            b.1,
            b.2.span.start.line,
        ))
    });
    let total = hits.len();
    let page: Vec<Value> = hits
        .iter()
        .skip(offset)
        .take(limit)
        .map(|(_, path, symbol)| {
            json!({
                "name": symbol.name,
                "kind": symbol.kind.as_str(),
                "languageKind": symbol.language_kind,
                "filePath": path,
                "line": symbol.span.start.line + 1,
                "endLine": symbol.span.end.line + 1,
                "containerName": symbol.container_name,
                "signature": symbol.signature,
                "docComment": symbol.doc,
                "chunkId": format!("{path}:{}:{}", symbol.span.start.line + 1, symbol.name),
            })
        })
        .collect();
    let returned = page.len();
    Ok(json!({
        "symbols": page,
        "total": total,
        "returned": returned,
        "offset": offset,
        "hasMore": offset + returned < total,
        "generation": snapshot.generation,
    }))
}

fn kind_matches(symbol: &Symbol, wanted: &str) -> bool {
    let wanted = wanted.to_ascii_lowercase();
    symbol.language_kind == wanted || SymbolKind::parse(&wanted) == Some(symbol.kind)
}

/// Refuse kinds that no LSP kind and no indexed language kind spell.
fn check_kinds(snapshot: &crate::workspace::Snapshot, kinds: &[&str]) -> Result<(), ToolError> {
    if kinds.is_empty() {
        return Ok(());
    }
    let mut known: Vec<String> = SymbolKind::ALL
        .iter()
        .map(|k| k.as_str().to_string())
        .collect();
    for file in snapshot.files.values() {
        if let Ok(facts) = &file.facts {
            for s in &facts.symbols {
                if !known.contains(&s.language_kind) {
                    known.push(s.language_kind.clone());
                }
            }
        }
    }
    for kind in kinds {
        let lower = kind.to_ascii_lowercase();
        if SymbolKind::parse(&lower).is_none() && !known.contains(&lower) {
            let suggestions = similar(kind, known.iter().map(String::as_str), 3)
                .into_iter()
                .map(|s| format!("Did you mean `{s}`?"))
                .collect();
            return Err(ToolError::InvalidParam {
                field: "kinds".into(),
                reason: format!("unknown symbol kind `{kind}`"),
                suggestions,
            });
        }
    }
    Ok(())
}

/// `path` is `folder` itself or lies inside it (whole path components).
fn is_under(path: &str, folder: &str) -> bool {
    folder.is_empty()
        || path == folder
        || path
            .strip_prefix(folder)
            .is_some_and(|rest| rest.starts_with('/'))
}
