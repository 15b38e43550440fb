//! A language's own `tags.scm` run natively, as tree-sitter's tagger runs
//! it, for the real-code tests that hold a plugin to it.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use tree_sitter::{Node, Query, QueryCursor, StreamingIterator, Tree};

/// One tag: its capture (`definition.method`, `reference.call`...), the
/// tagged node and the name node.
pub struct Tag<'t> {
    pub capture: String,
    pub node: Node<'t>,
    pub name: Node<'t>,
}

/// The tags `query` finds in `tree`, in the order of their names. As
/// tree-sitter's tagger does, a name tagged by several patterns keeps the
/// earliest pattern's tag; a pattern without both a `@name` and a dotted
/// capture (`@definition.x`, `@reference.x`) tags nothing (`@doc`,
/// `@module` are not tags).
pub fn native_tags<'t>(query: &Query, tree: &'t Tree, source: &str) -> Vec<Tag<'t>> {
    let names = query.capture_names();
    let mut cursor = QueryCursor::new();
    let mut matches = cursor.matches(query, tree.root_node(), source.as_bytes());
    let mut by_name: HashMap<usize, (usize, Tag<'t>)> = HashMap::new();
    while let Some(m) = matches.next() {
        let mut tagged = None;
        let mut name = None;
        for capture in m.captures {
            match names[capture.index as usize] {
                "name" => name = Some(capture.node),
                other if other.contains('.') => tagged = Some((other.to_string(), capture.node)),
                _ => {}
            }
        }
        let (Some((capture, node)), Some(name)) = (tagged, name) else {
            continue;
        };
        let tag = Tag {
            capture,
            node,
            name,
        };
        match by_name.get(&name.start_byte()) {
            Some((pattern, _)) if *pattern <= m.pattern_index => {}
            _ => {
                by_name.insert(name.start_byte(), (m.pattern_index, tag));
            }
        }
    }
    let mut tags: Vec<Tag<'t>> = by_name.into_values().map(|(_, tag)| tag).collect();
    tags.sort_by_key(|t| t.name.start_byte());
    tags
}

/// Every file below `dir` with extension `extension`, sorted; unreadable
/// folders are skipped.
pub fn source_files(dir: &Path, extension: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(folder) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        for path in entries.flatten().map(|e| e.path()) {
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == extension) {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// What comparing a plugin's facts with `tags.scm` found, over one file or
/// many.
#[derive(Default)]
pub struct Outcome {
    pub declarations: usize,
    pub references: usize,
    /// Compared tags by capture or declaration kind.
    pub kinds: HashMap<String, usize>,
    pub mismatches: Vec<String>,
}

impl Outcome {
    /// `other`'s counts and mismatches added to these.
    pub fn absorb(&mut self, other: Outcome) {
        self.declarations += other.declarations;
        self.references += other.references;
        self.mismatches.extend(other.mismatches);
        for (kind, n) in other.kinds {
            *self.kinds.entry(kind).or_default() += n;
        }
    }
}

/// `compare(label, source, tree)` over every `.extension` file under `dir`
/// that `parse` reads without a syntax error, the rest listed as skipped;
/// prints what was compared and fails on the first 50 mismatches. For the
/// by-hand tests that run a real-code comparison over a whole tree.
pub fn compare_over_tree(
    dir: &str,
    extension: &str,
    parse: impl Fn(&str) -> Tree,
    mut compare: impl FnMut(&str, &str, &Tree) -> Outcome,
) {
    let files = source_files(Path::new(dir), extension);
    assert!(!files.is_empty(), "no .{extension} files under {dir}");
    let (mut lines, mut skipped) = (0, Vec::new());
    let mut total = Outcome::default();
    for file in &files {
        let Ok(source) = std::fs::read_to_string(file) else {
            continue;
        };
        let tree = parse(&source);
        let label = file.strip_prefix(dir).unwrap_or(file).display().to_string();
        if tree.root_node().has_error() {
            skipped.push(label);
            continue;
        }
        lines += source.lines().count();
        total.absorb(compare(&label, &source, &tree));
    }
    eprintln!(
        "{dir}: {} files ({} with syntax errors skipped: {skipped:?}), {lines} lines, \
         {} declarations and {} tagged references compared, {} mismatches",
        files.len(),
        skipped.len(),
        total.declarations,
        total.references,
        total.mismatches.len()
    );
    assert!(
        total.mismatches.is_empty(),
        "{}",
        total.mismatches[..total.mismatches.len().min(50)].join("\n")
    );
}
