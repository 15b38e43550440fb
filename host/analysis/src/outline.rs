//! `outline`: the hierarchical structure of one file (codetextor-api.md),
//! within a byte budget and a nesting depth.

use std::borrow::Cow;
use std::sync::Arc;

use schemars::JsonSchema;
use serde::Serialize;

use super::AnalysisError;
use super::view::{MAX_DOC_SUMMARY_CHARS, chunk_id, doc_summary};
use lingo_index::FileEntry;
use lingo_model::{FileFacts, Symbol, Visibility};

/// The outline of one file: which of its declarations are shown and how
/// deep each is nested. What each says (name, kind, lines, signature...) is
/// read from the file's facts when the answer is written, as text or as
/// JSON ([`OutlineView`]), not copied out for each call.
pub struct Outline {
    file: Arc<FileEntry>,
    facts: Arc<FileFacts>,
    pub generation: u64,
    /// The declarations shown, in source order with each container before
    /// what it holds (pre-order).
    entries: Vec<Entry>,
    /// Whether sources are left out of the JSON.
    collapse: bool,
    /// Whether declarations were left out (the notes say which and why).
    pub truncated: bool,
    pub notes: Vec<String>,
}

/// One declaration shown in an outline.
#[derive(Debug, Clone, Copy)]
struct Entry {
    /// Its index in the file's symbols.
    symbol: u32,
    /// 0 for a top-level declaration, 1 for one nested in it, ...
    depth: u32,
}

impl Outline {
    pub fn file_path(&self) -> &str {
        &self.file.path
    }

    /// The declarations shown, in pre-order, each with its nesting depth (0
    /// for top level).
    pub fn declarations(&self) -> impl Iterator<Item = (usize, &Symbol)> {
        self.entries.iter().map(|entry| {
            (
                entry.depth as usize,
                &self.facts.symbols[entry.symbol as usize],
            )
        })
    }

    /// The outline as its JSON is written: nodes nested under their
    /// containers, borrowing from the facts (and the text, when sources are
    /// shown).
    fn view<'a>(&'a self, source: Option<&'a str>) -> OutlineView<'a> {
        // Nodes are closed from the deepest up: `open[d]` collects the
        // children of the node open at depth `d - 1` (`open[0]` the roots).
        let mut open: Vec<Vec<OutlineNode<'a>>> = vec![Vec::new()];
        for entry in &self.entries {
            let depth = entry.depth as usize;
            close_deeper(&mut open, depth);
            let index = entry.symbol as usize;
            let node = OutlineNode::new(&self.file, &self.facts.symbols[index], index, source);
            open[depth].push(node);
            open.push(Vec::new());
        }
        close_deeper(&mut open, 0);
        OutlineView {
            file_path: &self.file.path,
            language: &self.facts.language,
            generation: self.generation,
            outline: open.pop().unwrap_or_default(),
            truncated: self.truncated,
            notes: &self.notes,
        }
    }
}

/// Close the nodes open deeper than `depth`: each list of children goes to
/// the last node of the level above.
fn close_deeper(open: &mut Vec<Vec<OutlineNode<'_>>>, depth: usize) {
    while open.len() > depth + 1 {
        let children = open.pop().unwrap_or_default();
        if let Some(parent) = open.last_mut().and_then(|level| level.last_mut()) {
            parent.children = children;
        }
    }
}

impl Serialize for Outline {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let source = (!self.collapse).then(|| self.file.source());
        self.view(source.as_deref()).serialize(serializer)
    }
}

impl JsonSchema for Outline {
    fn schema_name() -> Cow<'static, str> {
        OutlineView::schema_name()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        OutlineView::json_schema(generator)
    }
}

/// The outline of one file, as its JSON says it.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(rename = "Outline")]
struct OutlineView<'a> {
    file_path: &'a str,
    language: &'a str,
    generation: u64,
    outline: Vec<OutlineNode<'a>>,
    /// Whether declarations were left out (the notes say which and why).
    truncated: bool,
    notes: &'a [String],
}

/// One declaration of an outline, with the ones nested in it.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct OutlineNode<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    language_kind: &'a str,
    name: &'a str,
    /// 1-based.
    line: u64,
    end_line: u64,
    #[schemars(with = "String")]
    visibility: Visibility,
    chunk_id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    signature: Option<&'a str>,
    /// The doc comment's first paragraph (get_symbol_info answers all of
    /// it).
    #[serde(skip_serializing_if = "Option::is_none")]
    doc_comment: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    container_name: Option<&'a str>,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    modifiers: &'a [String],
    /// The declaration's full source, when bodies are not collapsed.
    #[serde(skip_serializing_if = "Option::is_none")]
    source: Option<&'a str>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    children: Vec<OutlineNode<'a>>,
}

impl<'a> OutlineNode<'a> {
    /// The node of `symbol` (number `index` of `file`), without children;
    /// its source from `source`, the file's text, when given.
    fn new(file: &FileEntry, symbol: &'a Symbol, index: usize, source: Option<&'a str>) -> Self {
        OutlineNode {
            kind: symbol.kind.as_str(),
            language_kind: &symbol.language_kind,
            name: &symbol.name,
            line: u64::from(symbol.span.start.line) + 1,
            end_line: u64::from(symbol.span.end.line) + 1,
            visibility: symbol.visibility,
            chunk_id: chunk_id(file, index),
            signature: symbol.signature.as_deref(),
            doc_comment: symbol.doc.as_deref().and_then(doc_summary),
            container_name: symbol.container_name.as_deref(),
            modifiers: &symbol.modifiers,
            source: source.map(|text| source_of(text, symbol)),
            children: Vec::new(),
        }
    }
}

/// The source of `symbol` in `text`, its file's text (empty if the span
/// does not fit it).
fn source_of<'a>(text: &'a str, symbol: &Symbol) -> &'a str {
    let (start, end) = (
        symbol.span.start.offset as usize,
        symbol.span.end.offset as usize,
    );
    text.get(start..end).unwrap_or_default()
}

/// The outline of `file`, `depth` levels deep (at most [`MAX_OUTLINE_DEPTH`],
/// the default), with each declaration's source unless `collapse`.
pub fn outline(
    file: Arc<FileEntry>,
    depth: Option<usize>,
    collapse: bool,
    generation: u64,
) -> Result<Outline, AnalysisError> {
    let facts = file.facts()?.clone();
    let tree = Tree::new(&facts);
    let source = (!collapse).then(|| file.source());
    let mut builder = Builder {
        facts: &facts,
        source: source.as_deref(),
        tree: &tree,
        max_level: depth.unwrap_or(MAX_OUTLINE_DEPTH),
        remaining: MAX_OUTLINE_BYTES,
        omitted: 0,
        deeper: 0,
        entries: Vec::new(),
    };
    for root in tree.roots.iter().map(|&r| r as usize) {
        if builder.remaining == 0 {
            builder.omitted += 1 + tree.descendants(root);
            continue;
        }
        builder.node(root, 1)?;
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
    let entries = builder.entries;
    Ok(Outline {
        file,
        facts,
        generation,
        entries,
        collapse,
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
/// number of symbols, in a few flat lists.
struct Tree {
    roots: Vec<u32>,
    /// Where each symbol's children start in `children` (one more entry
    /// than symbols: symbol `i`'s are `children[starts[i]..starts[i + 1]]`).
    starts: Vec<u32>,
    /// The children of each symbol in turn, each in symbol order.
    children: Vec<u32>,
}

impl Tree {
    fn new(facts: &FileFacts) -> Self {
        let count = facts.symbols.len();
        // Validated facts: a container is another symbol of the file and
        // containers form a forest.
        let parent_of =
            |symbol: &Symbol| symbol.container.map(|c| c as usize).filter(|&c| c < count);
        let mut starts = vec![0u32; count + 1];
        for parent in facts.symbols.iter().filter_map(parent_of) {
            starts[parent + 1] += 1;
        }
        for index in 0..count {
            starts[index + 1] += starts[index];
        }
        let mut next = starts.clone();
        let mut children = vec![0u32; starts[count] as usize];
        let mut roots = Vec::new();
        for (index, symbol) in facts.symbols.iter().enumerate() {
            match parent_of(symbol) {
                Some(parent) => {
                    children[next[parent] as usize] = index as u32;
                    next[parent] += 1;
                }
                None => roots.push(index as u32),
            }
        }
        Tree {
            roots,
            starts,
            children,
        }
    }

    fn children(&self, index: usize) -> &[u32] {
        &self.children[self.starts[index] as usize..self.starts[index + 1] as usize]
    }

    /// Number of symbols nested inside symbol `index`, at any depth: counted
    /// when asked, for the subtrees an outline leaves out (which do not
    /// overlap, so all the counting stays linear).
    fn descendants(&self, index: usize) -> usize {
        let mut count = 0;
        let mut stack = vec![index];
        while let Some(at) = stack.pop() {
            let children = self.children(at);
            count += children.len();
            stack.extend(children.iter().map(|&c| c as usize));
        }
        count
    }
}

/// Chooses the declarations an outline shows, against a byte budget.
struct Builder<'a> {
    facts: &'a FileFacts,
    /// The file's text, when sources are shown.
    source: Option<&'a str>,
    tree: &'a Tree,
    max_level: usize,
    /// Bytes left in the answer's budget.
    remaining: usize,
    /// Declarations left out for the budget.
    omitted: usize,
    /// Declarations below the deepest level shown.
    deeper: usize,
    /// The declarations shown so far, in pre-order.
    entries: Vec<Entry>,
}

impl Builder<'_> {
    /// Show symbol `index` at nesting `level` (1 = top), and its children
    /// while the budget lasts. Recursion is bounded by `max_level`.
    fn node(&mut self, index: usize, level: usize) -> Result<(), AnalysisError> {
        lingo_model::budget::check()?;
        let symbol = &self.facts.symbols[index];
        // What the node's JSON takes, about: the doc comment's summary at
        // its longest (it is made only when the JSON is written).
        let size = 160
            + symbol.name.len()
            + symbol.language_kind.len()
            + symbol.signature.as_deref().map_or(0, str::len)
            + symbol
                .doc
                .as_deref()
                .map_or(0, |doc| doc.len().min(4 * MAX_DOC_SUMMARY_CHARS))
            + symbol.container_name.as_ref().map_or(0, |c| c.len())
            + symbol.modifiers.iter().map(|m| m.len() + 3).sum::<usize>()
            + self.source.map_or(0, |text| source_of(text, symbol).len());
        self.entries.push(Entry {
            symbol: index as u32,
            depth: (level - 1) as u32,
        });
        self.remaining = self.remaining.saturating_sub(size);
        let children = self.tree.children(index);
        if children.is_empty() {
            return Ok(());
        }
        if level >= self.max_level {
            self.deeper += self.tree.descendants(index);
            return Ok(());
        }
        for child in children.iter().map(|&c| c as usize) {
            if self.remaining == 0 {
                self.omitted += 1 + self.tree.descendants(child);
                continue;
            }
            self.node(child, level + 1)?;
        }
        Ok(())
    }
}
