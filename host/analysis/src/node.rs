//! Point queries of codetextor-api.md: the syntax node and declaration at
//! a 1-based line and column (`node_at`), and one declaration's source,
//! optionally with bodies collapsed and context lines around it
//! (`node_source`, named by a chunk id or a target).

use schemars::JsonSchema;
use serde::Serialize;

use super::target::offset_in;
use super::view::{SymbolView, chunk_id};
use super::{Analysis, AnalysisError};
use lingo_index::FileEntry;
use lingo_model::FileFacts;
use lingo_resolve::SymbolRef;

/// Longest `content` of a node, in characters.
const MAX_NODE_CONTENT: usize = 2000;

/// The innermost named syntax node at a position.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SyntaxNodeView {
    /// The grammar's node kind.
    #[serde(rename = "type")]
    pub kind: String,
    /// 1-based lines, 0-based UTF-16 columns.
    pub start_line: u64,
    pub end_line: u64,
    pub start_column: u32,
    pub end_column: u32,
    /// Its text, cut to [`MAX_NODE_CONTENT`] characters.
    pub content: String,
    /// The name of the innermost declaration around the position.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// `language_kind name` of that declaration's container.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent: Option<String>,
}

/// A named node around the innermost one.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AncestorView {
    #[serde(rename = "type")]
    pub kind: String,
    pub start_line: u32,
    pub end_line: u32,
}

/// The innermost declaration around a position.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct EnclosingSymbol {
    pub name: String,
    pub kind: &'static str,
    pub language_kind: String,
    pub start_line: u32,
    pub end_line: u32,
    pub signature: Option<String>,
    pub chunk_id: String,
}

/// The answer of [`node_at`].
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct NodeAt {
    pub file_path: String,
    pub node: SyntaxNodeView,
    /// Innermost first.
    pub ancestors: Vec<AncestorView>,
    pub symbol: Option<EnclosingSymbol>,
    pub generation: u64,
}

/// The syntax node at 1-based `line` and 0-based `column` of `file`, as its
/// plugin parses it, and the declaration around it.
pub fn node_at(
    file: &FileEntry,
    line: u64,
    column: u64,
    generation: u64,
) -> Result<NodeAt, AnalysisError> {
    // Lines count from 1 here (codetextor-api.md): an error says so, in
    // the tool's own terms.
    let offset = offset_in(file, line.saturating_sub(1), column).map_err(|e| match e {
        AnalysisError::InvalidPosition {
            path,
            field,
            line_count,
            ..
        } => AnalysisError::InvalidPosition {
            path,
            field: if field == "character" {
                "column"
            } else {
                field
            },
            line,
            character: column,
            line_count,
            one_based: true,
        },
        other => other,
    })?;
    let nodes = file.plugin.node_at(&file.path, &file.source(), offset)?;
    let (nodes, report) = lingo_model::validate::check_nodes(
        nodes,
        &file.source(),
        &lingo_model::validate::FactLimits::default(),
    );
    if !report.is_clean() {
        tracing::warn!(path = %file.path, rules = ?report.rules(), "plugin node-at answer repaired");
    }
    let Some(innermost) = nodes.iter().find(|n| n.named).or(nodes.first()) else {
        return Err(AnalysisError::NothingAtPosition {
            path: file.path.clone(),
            line: line as u32,
            character: column as u32,
            nearby: Vec::new(),
        });
    };
    let facts = file.facts()?;
    let enclosing = innermost_symbol(facts, offset);
    let source = file.source();
    let text = source
        .get(innermost.span.start.offset as usize..innermost.span.end.offset as usize)
        .unwrap_or_default();
    let declaration = enclosing.and_then(|i| facts.symbols.get(i));
    let node = SyntaxNodeView {
        kind: innermost.kind.clone(),
        start_line: u64::from(innermost.span.start.line) + 1,
        end_line: u64::from(innermost.span.end.line) + 1,
        start_column: innermost.span.start.character,
        end_column: innermost.span.end.character,
        content: cut(text, MAX_NODE_CONTENT),
        name: declaration.map(|s| s.name.to_string()),
        parent: declaration
            .and_then(|s| s.container)
            .and_then(|p| facts.symbols.get(p as usize))
            .map(|p| format!("{} {}", p.language_kind, p.name)),
    };
    let ancestors = nodes
        .iter()
        .filter(|n| n.named)
        .skip(1)
        .map(|n| AncestorView {
            kind: n.kind.clone(),
            start_line: n.span.start.line + 1,
            end_line: n.span.end.line + 1,
        })
        .collect();
    let symbol = enclosing
        .zip(declaration)
        .map(|(index, s)| EnclosingSymbol {
            name: s.name.to_string(),
            kind: s.kind.as_str(),
            language_kind: s.language_kind.to_string(),
            start_line: s.span.start.line + 1,
            end_line: s.span.end.line + 1,
            signature: s.signature.as_deref().map(String::from),
            chunk_id: chunk_id(file, index),
        });
    Ok(NodeAt {
        file_path: file.path.clone(),
        node,
        ancestors,
        symbol,
        generation,
    })
}

/// The answer of [`Analysis::declaration_source`].
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct NodeSource {
    /// Whole lines: the declaration from its line's start, with context.
    pub source: String,
    pub file_path: String,
    /// 1-based, inclusive.
    pub line_start: usize,
    pub line_end: usize,
    pub declaration: SymbolView,
    pub chunk_id: String,
    pub collapsed: bool,
    pub generation: u64,
}

impl Analysis {
    /// The declaration a chunk id (`path:line:name`) names.
    pub fn chunk(&self, chunk: &str) -> Result<SymbolRef, AnalysisError> {
        let malformed = || AnalysisError::MalformedChunk {
            chunk: chunk.to_string(),
        };
        let mut parts = chunk.rsplitn(3, ':');
        let (Some(name), Some(line), Some(path)) = (parts.next(), parts.next(), parts.next())
        else {
            return Err(malformed());
        };
        let line: u32 = line.parse().map_err(|_| malformed())?;
        let file = self.file(path)?;
        let facts = file.facts()?;
        let file_number = self.file_number(&file)?;
        match facts
            .symbols
            .iter()
            .position(|s| s.name == name && s.span.start.line + 1 == line)
        {
            Some(index) => Ok(SymbolRef {
                file: file_number,
                symbol: index as u32,
            }),
            None => Err(AnalysisError::NotFound {
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

    /// The source of `symbol`, with every function body folded to `{ … }`
    /// when `collapse`, and `context_lines` lines around it.
    pub fn declaration_source(
        &self,
        symbol: SymbolRef,
        collapse: bool,
        context_lines: usize,
    ) -> Result<NodeSource, AnalysisError> {
        let table = self.table();
        let file = table.file(symbol).clone();
        let facts = file.facts()?;
        let index = symbol.symbol as usize;
        let declaration = table.symbol(symbol);
        let source = file.source();
        let body = if collapse {
            collapsed(facts, index, &source)
        } else {
            let span = declaration.span;
            source
                .get(span.start.offset as usize..span.end.offset as usize)
                .unwrap_or_default()
                .to_string()
        };
        let lines: Vec<&str> = source.lines().collect();
        let first = declaration.span.start.line as usize;
        let last = declaration.span.end.line as usize;
        let before_start = first.saturating_sub(context_lines);
        let after_end = (last + 1 + context_lines).min(lines.len());
        let indent = lines
            .get(first)
            .and_then(|l| l.get(..declaration.span.start.character.min(l.len() as u32) as usize))
            .unwrap_or_default();
        let mut source = String::new();
        for line in lines.get(before_start..first).unwrap_or_default() {
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
        Ok(NodeSource {
            source,
            file_path: file.path.clone(),
            line_start: before_start + 1,
            line_end: if collapse && context_lines == 0 {
                last + 1
            } else {
                after_end.max(last + 1)
            },
            declaration: SymbolView::new(table, symbol),
            chunk_id: chunk_id(&file, index),
            collapsed: collapse,
            generation: self.generation(),
        })
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
/// text around their members, which are folded the same way. The members
/// of each declaration are listed once (linear in the file's declarations);
/// recursion is bounded by the container depth, which validation caps.
fn collapsed(facts: &FileFacts, index: usize, source: &str) -> String {
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); facts.symbols.len()];
    for (child, member) in facts.symbols.iter().enumerate() {
        if let Some(list) = member.container.and_then(|c| members.get_mut(c as usize)) {
            list.push(child);
        }
    }
    fold(facts, &members, index, source)
}

/// [`collapsed`] of `index`, its members read from `members`.
fn fold(facts: &FileFacts, members: &[Vec<usize>], index: usize, source: &str) -> String {
    let Some(symbol) = facts.symbols.get(index) else {
        return String::new();
    };
    if symbol.kind.is_callable()
        && let Some(signature) = &symbol.signature
    {
        return format!("{signature} {{ … }}");
    }
    let mut out = String::new();
    let mut cursor = symbol.span.start.offset as usize;
    for &child in members.get(index).into_iter().flatten() {
        let member = &facts.symbols[child];
        let start = member.span.start.offset as usize;
        if start < cursor {
            continue;
        }
        out.push_str(source.get(cursor..start).unwrap_or_default());
        out.push_str(&fold(facts, members, child, source));
        cursor = member.span.end.offset as usize;
    }
    out.push_str(
        source
            .get(cursor..symbol.span.end.offset as usize)
            .unwrap_or_default(),
    );
    out
}

fn cut(text: &str, max_chars: usize) -> String {
    match text.char_indices().nth(max_chars) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_string(),
    }
}
