//! `outline`: the hierarchical structure of one file (codetextor-api.md).

use serde_json::{Value, json};

use super::{Args, Tool, ToolContext};
use crate::error::ToolError;
use crate::model::FileFacts;
use crate::workspace::FileEntry;

pub fn tool() -> Tool {
    Tool {
        name: "outline",
        aliases: &["getOutline", "get_outline"],
        description: "Hierarchical outline of a file: every declaration with its kind, 1-based lines, signature and doc comment, nested under its container.",
        input_schema: json!({
            "type": "object",
            "properties": {
                "path": { "type": "string", "description": "File path relative to the workspace root" },
                "depth": { "type": "integer", "minimum": 1, "maximum": 48, "description": "Nesting depth to include (default and most: 48)" },
                "collapseBody": { "type": "boolean", "default": true, "description": "Show declarations as signatures (true) or include each declaration's full source (false)" }
            },
            "required": ["path"],
            "additionalProperties": false
        }),
        handler: run,
    }
}

fn run(context: &ToolContext, args: &Args) -> Result<Value, ToolError> {
    let workspace = &context.workspace;
    let (snapshot, file) = workspace.fresh_file(args.required_str("path")?)?;
    let depth = args
        .uint("depth", MAX_OUTLINE_DEPTH as u64)?
        .map(|d| d as usize);
    if depth == Some(0) {
        return Err(ToolError::invalid("depth", "depth must be at least 1"));
    }
    let collapse = args.bool("collapseBody", true)?;
    let facts = file.facts()?;
    let tree = Tree::new(facts);
    let mut builder = Builder {
        facts,
        file: &file,
        tree: &tree,
        max_level: depth.unwrap_or(MAX_OUTLINE_DEPTH),
        collapse,
        remaining: MAX_OUTLINE_BYTES,
        omitted: 0,
        deeper: 0,
    };
    let mut outline = Vec::new();
    for &root in &tree.roots {
        if builder.remaining == 0 {
            builder.omitted += 1 + tree.descendants(root);
            continue;
        }
        outline.push(builder.node(root, 1)?);
    }
    let mut notes = Vec::new();
    if builder.omitted > 0 {
        notes.push(format!(
            "{} of {} declarations omitted: the outline exceeded the response budget of {MAX_OUTLINE_BYTES} bytes; use depth to shorten it{}",
            builder.omitted,
            facts.symbols.len(),
            if collapse { "" } else { " or collapseBody to leave out sources" }
        ));
    }
    if builder.deeper > 0 && depth.is_none() {
        notes.push(format!(
            "{} declarations nested deeper than {MAX_OUTLINE_DEPTH} levels are not shown; use node_source or search_symbols for them",
            builder.deeper
        ));
    }
    Ok(json!({
        "filePath": file.path,
        "language": facts.language,
        "generation": snapshot.generation,
        "outline": outline,
        "truncated": !notes.is_empty(),
        "notes": notes,
    }))
}

/// Bytes of outline one answer carries at most.
const MAX_OUTLINE_BYTES: usize = 256 * 1024;
/// Nesting levels one outline shows at most. Each level is two levels of
/// JSON (a node and its `children`), and clients parse JSON recursively
/// with limits of their own (serde_json, and so the Rust MCP SDK, stops at
/// 128 with the reply's own envelope counted): 48 levels stay well inside.
const MAX_OUTLINE_DEPTH: usize = 48;

/// The containment forest of a file's symbols, built once: linear in the
/// number of symbols.
struct Tree {
    roots: Vec<usize>,
    children: Vec<Vec<usize>>,
    /// Number of symbols nested inside each symbol, at any depth.
    descendant_counts: Vec<usize>,
}

impl Tree {
    fn new(facts: &FileFacts) -> Self {
        let count = facts.symbols.len();
        let mut roots = Vec::new();
        let mut children = vec![Vec::new(); count];
        for (index, symbol) in facts.symbols.iter().enumerate() {
            // Validated facts: a container is another symbol of the file and
            // containers form a forest.
            match symbol.container.map(|c| c as usize).filter(|&c| c < count) {
                Some(parent) => children[parent].push(index),
                None => roots.push(index),
            }
        }
        // Descendant counts, children before parents (reverse pre-order).
        let mut order = Vec::with_capacity(count);
        let mut stack: Vec<usize> = roots.iter().rev().copied().collect();
        while let Some(index) = stack.pop() {
            order.push(index);
            stack.extend(children[index].iter().rev().copied());
        }
        let mut descendant_counts = vec![0; count];
        for &index in order.iter().rev() {
            descendant_counts[index] = children[index]
                .iter()
                .map(|&c| 1 + descendant_counts[c])
                .sum();
        }
        Tree {
            roots,
            children,
            descendant_counts,
        }
    }

    fn descendants(&self, index: usize) -> usize {
        self.descendant_counts[index]
    }
}

/// Builds outline nodes against a byte budget.
struct Builder<'a> {
    facts: &'a FileFacts,
    file: &'a FileEntry,
    tree: &'a Tree,
    max_level: usize,
    collapse: bool,
    /// Bytes left in the answer's budget.
    remaining: usize,
    /// Declarations left out for the budget.
    omitted: usize,
    /// Declarations below the deepest level shown.
    deeper: usize,
}

impl Builder<'_> {
    /// The node of symbol `index` at nesting `level` (1 = top), with its
    /// children while the budget lasts. Recursion is bounded by `max_level`.
    fn node(&mut self, index: usize, level: usize) -> Result<Value, ToolError> {
        crate::budget::check()?;
        let symbol = &self.facts.symbols[index];
        let mut node = json!({
            "type": symbol.kind.as_str(),
            "languageKind": symbol.language_kind,
            "name": symbol.name,
            "line": u64::from(symbol.span.start.line) + 1,
            "endLine": u64::from(symbol.span.end.line) + 1,
            "visibility": symbol.visibility,
            "chunkId": super::node::chunk_id(self.file, index),
        });
        let mut size = 160 + symbol.name.len() + symbol.language_kind.len();
        if let Some(signature) = &symbol.signature {
            size += signature.len();
            node["signature"] = json!(signature);
        }
        if let Some(doc) = &symbol.doc {
            size += doc.len();
            node["docComment"] = json!(doc);
        }
        if let Some(container) = &symbol.container_name {
            size += container.len();
            node["containerName"] = json!(container);
        }
        if !symbol.modifiers.is_empty() {
            size += symbol.modifiers.iter().map(|m| m.len() + 3).sum::<usize>();
            node["modifiers"] = json!(symbol.modifiers);
        }
        if !self.collapse {
            let (start, end) = (
                symbol.span.start.offset as usize,
                symbol.span.end.offset as usize,
            );
            let source = self.file.source.get(start..end).unwrap_or_default();
            size += source.len();
            node["source"] = json!(source);
        }
        self.remaining = self.remaining.saturating_sub(size);
        let children = &self.tree.children[index];
        if children.is_empty() {
            return Ok(node);
        }
        if level >= self.max_level {
            self.deeper += self.tree.descendants(index);
            return Ok(node);
        }
        let mut nested = Vec::new();
        for &child in children {
            if self.remaining == 0 {
                self.omitted += 1 + self.tree.descendants(child);
                continue;
            }
            nested.push(self.node(child, level + 1)?);
        }
        if !nested.is_empty() {
            node["children"] = Value::Array(nested);
        }
        Ok(node)
    }
}
