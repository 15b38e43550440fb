//! Embedded code: text the grammar leaves unparsed (a macro's token tree)
//! parsed again, wrapped, as code of the language (see [`Embedded`]).

use tree_sitter::{Node, Parser, Tree};

use crate::language::{Embedded, Language};

/// Levels of embedded code parsed: a macro inside a macro's arguments is
/// parsed from its enclosing macro's tree, down to this many levels; deeper
/// ones are left as the grammar parsed them.
pub const MAX_EMBEDDED_DEPTH: usize = 3;

/// One embedded text, parsed.
pub struct EmbeddedTree {
    pub tree: Tree,
    /// The wrapper's prefix, the region's bytes and the wrapper's suffix.
    pub text: String,
    /// The region, in bytes of the file.
    pub start: usize,
    pub end: usize,
    /// Where the region's bytes start in `text`.
    pub prefix_len: usize,
    /// The embedded tree the region was found in; `None` for the file's.
    pub parent: Option<usize>,
}

/// The bytes a tree was parsed from and where they are in the file: the
/// file's own, or an embedded tree's.
#[derive(Clone, Copy)]
pub struct View<'a> {
    pub text: &'a str,
    /// For an embedded tree: its region in the file and where the region
    /// starts in `text`.
    region: Option<(usize, usize, usize)>,
}

impl<'a> View<'a> {
    pub fn file(source: &'a str) -> Self {
        View {
            text: source,
            region: None,
        }
    }

    pub fn embedded(tree: &'a EmbeddedTree) -> Self {
        View {
            text: &tree.text,
            region: Some((tree.start, tree.end, tree.prefix_len)),
        }
    }

    /// The file bytes of `node`, or `None` when it is (partly) in the wrapper.
    pub fn range(&self, node: Node) -> Option<(usize, usize)> {
        let (start, end) = (node.start_byte(), node.end_byte());
        match self.region {
            None => Some((start, end)),
            Some((file_start, file_end, prefix)) => {
                let len = file_end - file_start;
                (start >= prefix && end <= prefix + len)
                    .then(|| (start - prefix + file_start, end - prefix + file_start))
            }
        }
    }

    /// The file offset of `offset`, moved into the region when it is in the
    /// wrapper (a scope that reaches past the region ends with it).
    pub fn clamp(&self, offset: usize) -> usize {
        match self.region {
            None => offset,
            Some((file_start, file_end, prefix)) => {
                let len = file_end - file_start;
                offset.clamp(prefix, prefix + len) - prefix + file_start
            }
        }
    }
}

/// Parse the embedded code of the file `source` (tree `tree`), breadth
/// first: the regions the language finds in the file, then those it finds
/// in each of their trees, down to [`MAX_EMBEDDED_DEPTH`] levels. A region
/// whose wrapped text does not parse cleanly is dropped. Work is bounded by
/// a byte budget of a few times the file's size.
pub fn parse<L: Language>(parser: &mut Parser, tree: &Tree, source: &str) -> Vec<EmbeddedTree> {
    let mut budget = source.len().saturating_mul(MAX_EMBEDDED_DEPTH + 1) + 4096;
    let mut out: Vec<EmbeddedTree> = Vec::new();
    let mut level: Vec<(Option<usize>, Embedded)> = L::embedded_code(tree.root_node(), source)
        .into_iter()
        .map(|e| (None, e))
        .collect();
    for depth in 1..=MAX_EMBEDDED_DEPTH {
        let mut next = Vec::new();
        for (parent, region) in level {
            let Embedded {
                start,
                end,
                prefix,
                suffix,
            } = region;
            if start >= end
                || end > source.len()
                || !source.is_char_boundary(start)
                || !source.is_char_boundary(end)
                || source[start..end].trim().is_empty()
            {
                continue;
            }
            let cost = prefix.len() + (end - start) + suffix.len();
            if cost > budget {
                return out;
            }
            budget -= cost;
            let text = format!("{prefix}{}{suffix}", &source[start..end]);
            let Some(parsed) = parser.parse(&text, None) else {
                continue;
            };
            if parsed.root_node().has_error() {
                continue;
            }
            let embedded = EmbeddedTree {
                tree: parsed,
                text,
                start,
                end,
                prefix_len: prefix.len(),
                parent,
            };
            let index = out.len();
            if depth < MAX_EMBEDDED_DEPTH {
                for inner in L::embedded_code(embedded.tree.root_node(), &embedded.text) {
                    let (Some(from), Some(to)) = (
                        in_region(&embedded, inner.start),
                        in_region(&embedded, inner.end),
                    ) else {
                        continue;
                    };
                    next.push((
                        Some(index),
                        Embedded {
                            start: from,
                            end: to,
                            ..inner
                        },
                    ));
                }
            }
            out.push(embedded);
        }
        if next.is_empty() {
            break;
        }
        level = next;
    }
    out
}

/// The file offset of the embedded text's `offset`, when it is in the region.
fn in_region(tree: &EmbeddedTree, offset: usize) -> Option<usize> {
    let len = tree.end - tree.start;
    (offset >= tree.prefix_len && offset <= tree.prefix_len + len)
        .then(|| offset - tree.prefix_len + tree.start)
}

/// For the file's tree (index 0) and each embedded tree (index `i + 1`), the
/// file ranges re-parsed from it, merged where they overlap: what the tree
/// itself parsed there (the token tree) is superseded.
pub fn reparsed(trees: &[EmbeddedTree]) -> Vec<Vec<(usize, usize)>> {
    let mut out: Vec<Vec<(usize, usize)>> = vec![Vec::new(); trees.len() + 1];
    for tree in trees {
        out[tree.parent.map_or(0, |p| p + 1)].push((tree.start, tree.end));
    }
    for ranges in &mut out {
        ranges.sort_unstable();
        let mut merged: Vec<(usize, usize)> = Vec::with_capacity(ranges.len());
        for &(start, end) in ranges.iter() {
            match merged.last_mut() {
                Some(last) if start <= last.1 => last.1 = last.1.max(end),
                _ => merged.push((start, end)),
            }
        }
        *ranges = merged;
    }
    out
}

/// Whether `offset` lies in one of the merged, sorted `ranges`.
pub fn covered(ranges: &[(usize, usize)], offset: usize) -> bool {
    let after = ranges.partition_point(|&(start, _)| start <= offset);
    after > 0 && offset < ranges[after - 1].1
}
