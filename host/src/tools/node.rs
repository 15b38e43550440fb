//! Point queries of codetextor-api.md: `node_at` (the syntax node and the
//! declaration at a line and column) and `node_source` (a declaration's
//! source, optionally with bodies collapsed and context lines around it).

use serde_json::{Value, json};

use super::target::{self, to_json};
use super::{Args, Tool, ToolContext};
use crate::analysis::{Analysis, Subject, SymbolView, offset_in};
use crate::error::ToolError;
use crate::model::FileFacts;
use crate::resolve::{Resolver, SymbolRef};
use crate::workspace::FileEntry;

/// Longest `content` returned by `node_at`, in characters.
const MAX_NODE_CONTENT: usize = 2000;
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
    }
}

fn run_node_at(context: &ToolContext, args: &Args) -> Result<Value, ToolError> {
    let workspace = &context.workspace;
    let (snapshot, file) = workspace.fresh_file(args.required_str("path")?)?;
    let line = args.uint("line", u32::MAX as u64)?.unwrap_or(1);
    if line == 0 {
        return Err(ToolError::InvalidParam {
            field: "line".into(),
            reason: "lines are 1-indexed here (codetextor-api.md)".into(),
            suggestions: vec!["Use line 1 for the first line".into()],
        });
    }
    let column = args.uint("column", u32::MAX as u64)?.unwrap_or(0);
    let offset = offset_in(&file, line - 1, column)?;
    let nodes = file.plugin.node_at(&file.path, &file.source, offset)?;
    let (nodes, report) =
        crate::validate::check_nodes(nodes, &file.source, &crate::validate::FactLimits::default());
    if !report.is_clean() {
        tracing::warn!(path = %file.path, rules = ?report.rules(), "plugin node-at answer repaired");
    }
    let Some(innermost) = nodes.iter().find(|n| n.named).or(nodes.first()) else {
        return Err(ToolError::NothingAtPosition {
            path: file.path.clone(),
            line: line as u32,
            character: column as u32,
            nearby: Vec::new(),
        });
    };
    let facts = file.facts()?;
    let enclosing = innermost_symbol(facts, offset);
    let text = file
        .source
        .get(innermost.span.start.offset as usize..innermost.span.end.offset as usize)
        .unwrap_or_default();
    let mut node = json!({
        "type": innermost.kind,
        "startLine": u64::from(innermost.span.start.line) + 1,
        "endLine": u64::from(innermost.span.end.line) + 1,
        "startColumn": innermost.span.start.character,
        "endColumn": innermost.span.end.character,
        "content": cut(text, MAX_NODE_CONTENT),
    });
    if let Some(index) = enclosing {
        let symbol = &facts.symbols[index];
        node["name"] = json!(symbol.name);
        if let Some(parent) = symbol.container {
            let parent = &facts.symbols[parent as usize];
            node["parent"] = json!(format!("{} {}", parent.language_kind, parent.name));
        }
    }
    let ancestors: Vec<Value> = nodes
        .iter()
        .filter(|n| n.named)
        .skip(1)
        .map(|n| {
            json!({ "type": n.kind, "startLine": n.span.start.line + 1, "endLine": n.span.end.line + 1 })
        })
        .collect();
    let symbol = enclosing.map(|index| {
        let s = &facts.symbols[index];
        json!({
            "name": s.name,
            "kind": s.kind.as_str(),
            "languageKind": s.language_kind,
            "startLine": s.span.start.line + 1,
            "endLine": s.span.end.line + 1,
            "signature": s.signature,
            "chunkId": chunk_id(&file, index),
        })
    });
    Ok(json!({
        "filePath": file.path,
        "node": node,
        "ancestors": ancestors,
        "symbol": symbol,
        "generation": snapshot.generation,
    }))
}

fn run_node_source(context: &ToolContext, args: &Args) -> Result<Value, ToolError> {
    let workspace = &context.workspace;
    let collapse = args.bool("collapseBody", false)?;
    let context_lines = args.uint("includeContext", MAX_CONTEXT)?.unwrap_or(0) as usize;
    let snapshot = workspace.fresh();
    let resolver = Resolver::new(&snapshot);
    let table = resolver.table();
    let symbol = match args.str("chunkId")? {
        Some(chunk) => parse_chunk_id(workspace, &snapshot, &resolver, chunk)?,
        None => match Analysis::new(workspace.clone(), snapshot.clone())
            .subject(&target::target(args)?)?
        {
            Subject::Symbol(r) => r,
            Subject::Local { .. } => {
                return Err(ToolError::invalid(
                    "symbol",
                    "a local binding is not a chunk; name a declaration",
                ));
            }
        },
    };
    let file = table.file(symbol).clone();
    let facts = file.facts()?;
    let index = symbol.symbol as usize;
    let declaration = &facts.symbols[index];
    let body = if collapse {
        collapsed(facts, index, &file.source)
    } else {
        let span = declaration.span;
        file.source[span.start.offset as usize..span.end.offset as usize].to_string()
    };
    // Whole lines: from the declaration's line start, plus context.
    let lines: Vec<&str> = file.source.lines().collect();
    let first = declaration.span.start.line as usize;
    let last = declaration.span.end.line as usize;
    let before_start = first.saturating_sub(context_lines);
    let after_end = (last + 1 + context_lines).min(lines.len());
    let indent = lines
        .get(first)
        .map(|l| &l[..declaration.span.start.character.min(l.len() as u32) as usize])
        .unwrap_or_default();
    let mut source = String::new();
    for line in &lines[before_start..first] {
        source.push_str(line);
        source.push('\n');
    }
    source.push_str(indent);
    source.push_str(&body);
    source.push('\n');
    for line in lines.get(last + 1..after_end).unwrap_or_default() {
        source.push_str(line);
        source.push('\n');
    }
    Ok(json!({
        "source": source,
        "filePath": file.path,
        "lineStart": before_start + 1,
        "lineEnd": if collapse && context_lines == 0 { last + 1 } else { after_end.max(last + 1) },
        "declaration": to_json(&SymbolView::new(table, symbol))?,
        "chunkId": chunk_id(&file, index),
        "collapsed": collapse,
        "generation": snapshot.generation,
    }))
}

/// `path:line:name`, the 1-based line of the declaration's start.
pub fn chunk_id(file: &FileEntry, index: usize) -> String {
    let symbol = &file.facts.as_ref().expect("analyzed file").symbols[index];
    format!(
        "{}:{}:{}",
        file.path,
        symbol.span.start.line + 1,
        symbol.name
    )
}

fn parse_chunk_id(
    workspace: &crate::workspace::Workspace,
    snapshot: &crate::workspace::Snapshot,
    resolver: &Resolver,
    chunk: &str,
) -> Result<SymbolRef, ToolError> {
    let malformed = || ToolError::InvalidParam {
        field: "chunkId".into(),
        reason: format!("`{chunk}` is not a chunk id (`path:line:name`)"),
        suggestions: vec!["Take chunk ids from outline or search_symbols results".into()],
    };
    let mut parts = chunk.rsplitn(3, ':');
    let (Some(name), Some(line), Some(path)) = (parts.next(), parts.next(), parts.next()) else {
        return Err(malformed());
    };
    let line: u32 = line.parse().map_err(|_| malformed())?;
    let file = workspace.file(snapshot, path)?;
    let facts = file.facts()?;
    let table = resolver.table();
    let file_number = table
        .file_number(&file.path)
        .ok_or_else(|| ToolError::Internal(format!("{} missing from the table", file.path)))?;
    match facts
        .symbols
        .iter()
        .position(|s| s.name == name && s.span.start.line + 1 == line)
    {
        Some(index) => Ok(SymbolRef {
            file: file_number,
            symbol: index as u32,
        }),
        None => Err(ToolError::SymbolNotFound {
            name: chunk.to_string(),
            nearby: facts
                .symbols
                .iter()
                .enumerate()
                .filter(|(_, s)| s.name == name || s.span.start.line + 1 == line)
                .map(|(i, _)| chunk_id(&file, i))
                .take(5)
                .collect(),
        }),
    }
}

/// The innermost declaration whose span contains `offset`.
fn innermost_symbol(facts: &FileFacts, offset: u32) -> Option<usize> {
    facts
        .symbols
        .iter()
        .enumerate()
        .filter(|(_, s)| s.span.start.offset <= offset && offset <= s.span.end.offset)
        .min_by_key(|(_, s)| s.span.end.offset - s.span.start.offset)
        .map(|(i, _)| i)
}

/// A declaration's source with every function body folded to `{ … }`:
/// callables become their signature; other declarations keep their own
/// text around their members, which are folded the same way.
fn collapsed(facts: &FileFacts, index: usize, source: &str) -> String {
    let symbol = &facts.symbols[index];
    if symbol.kind.is_callable()
        && let Some(signature) = &symbol.signature
    {
        return format!("{signature} {{ … }}");
    }
    let mut out = String::new();
    let mut cursor = symbol.span.start.offset as usize;
    for (child, member) in facts.symbols.iter().enumerate() {
        if member.container != Some(index as u32) {
            continue;
        }
        let start = member.span.start.offset as usize;
        if start < cursor {
            continue;
        }
        out.push_str(&source[cursor..start]);
        out.push_str(&collapsed(facts, child, source));
        cursor = member.span.end.offset as usize;
    }
    out.push_str(&source[cursor..symbol.span.end.offset as usize]);
    out
}

fn cut(text: &str, max_chars: usize) -> String {
    match text.char_indices().nth(max_chars) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_string(),
    }
}
