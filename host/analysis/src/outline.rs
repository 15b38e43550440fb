//! `outline`: the hierarchical structure of one file (codetextor-api.md),
//! within a byte budget and a nesting depth.

use schemars::JsonSchema;
use serde::Serialize;

use super::AnalysisError;
use super::view::{chunk_id, doc_summary};
use lingo_index::FileEntry;
use lingo_model::{FileFacts, Name, Visibility};

/// One declaration of an outline, with the ones nested in it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct OutlineNode {
    #[serde(rename = "type")]
    pub kind: &'static str,
    #[schemars(with = "String")]
    pub language_kind: Name,
    #[schemars(with = "String")]
    pub name: Name,
    /// 1-based.
    pub line: u64,
    pub end_line: u64,
    #[schemars(with = "String")]
    pub visibility: Visibility,
    pub chunk_id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,
    /// The doc comment's first paragraph (get_symbol_info answers all of
    /// it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub doc_comment: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<String>")]
    pub container_name: Option<Name>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub modifiers: Vec<String>,
    /// The declaration's full source, when bodies are not collapsed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<OutlineNode>,
}

/// The outline of one file.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Outline {
    pub file_path: String,
    pub language: String,
    pub generation: u64,
    pub outline: Vec<OutlineNode>,
    /// Whether declarations were left out (the notes say which and why).
    pub truncated: bool,
    pub notes: Vec<String>,
}

/// The outline of `file`, `depth` levels deep (at most [`MAX_OUTLINE_DEPTH`],
/// the default), with each declaration's source unless `collapse`.
pub fn outline(
    file: &FileEntry,
    depth: Option<usize>,
    collapse: bool,
    generation: u64,
) -> Result<Outline, AnalysisError> {
    let facts = file.facts()?;
    let tree = Tree::new(facts);
    let mut builder = Builder {
        facts,
        file,
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
    Ok(Outline {
        file_path: file.path.clone(),
        language: facts.language.clone(),
        generation,
        outline,
        truncated: !notes.is_empty(),
        notes,
    })
}

/// Bytes of outline one answer carries at most.
const MAX_OUTLINE_BYTES: usize = 256 * 1024;
/// Nesting levels one outline shows at most. Each level is two levels of
/// JSON (a node and its `children`), and clients parse JSON recursively
/// with limits of their own (serde_json, and so the Rust MCP SDK, stops at
/// 128 with the reply's own envelope counted): 48 levels stay well inside.
pub const MAX_OUTLINE_DEPTH: usize = 48;

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
    fn node(&mut self, index: usize, level: usize) -> Result<OutlineNode, AnalysisError> {
        lingo_model::budget::check()?;
        let symbol = &self.facts.symbols[index];
        let source = (!self.collapse).then(|| {
            let (start, end) = (
                symbol.span.start.offset as usize,
                symbol.span.end.offset as usize,
            );
            self.file
                .source()
                .get(start..end)
                .unwrap_or_default()
                .to_string()
        });
        let doc_comment = symbol.doc.as_deref().and_then(doc_summary);
        let size = 160
            + symbol.name.len()
            + symbol.language_kind.len()
            + symbol.signature.as_deref().map_or(0, str::len)
            + doc_comment.as_ref().map_or(0, String::len)
            + symbol.container_name.as_ref().map_or(0, |c| c.len())
            + symbol.modifiers.iter().map(|m| m.len() + 3).sum::<usize>()
            + source.as_ref().map_or(0, String::len);
        let mut node = OutlineNode {
            kind: symbol.kind.as_str(),
            language_kind: symbol.language_kind.clone(),
            name: symbol.name.clone(),
            line: u64::from(symbol.span.start.line) + 1,
            end_line: u64::from(symbol.span.end.line) + 1,
            visibility: symbol.visibility,
            chunk_id: chunk_id(self.file, index),
            signature: symbol.signature.as_deref().map(String::from),
            doc_comment,
            container_name: symbol.container_name.clone(),
            modifiers: symbol.modifiers.to_vec(),
            source,
            children: Vec::new(),
        };
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
        node.children = nested;
        Ok(node)
    }
}
