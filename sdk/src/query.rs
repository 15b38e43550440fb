//! The query runner: compiled `.scm` queries and their captures.

use std::collections::HashSet;

use tree_sitter::{Node, Query, QueryCursor, StreamingIterator, Tree};

/// The compiled queries of a language.
pub struct Queries {
    pub symbols: Query,
    pub references: Query,
    pub locals: Query,
}

impl Queries {
    /// Compile the three query sources against `language`. An error names the
    /// query and the position of the fault.
    pub fn new(
        language: &tree_sitter::Language,
        symbols: &str,
        references: &str,
        locals: &str,
    ) -> Result<Self, String> {
        let compile = |name: &str, source: &str| {
            Query::new(language, source).map_err(|e| format!("{name}.scm: {e}"))
        };
        Ok(Queries {
            symbols: compile("symbols", symbols)?,
            references: compile("references", references)?,
            locals: compile("locals", locals)?,
        })
    }
}

/// One match: the tagged node, its tag (the capture name after the prefix)
/// and the other captures by name.
pub struct TaggedMatch<'tree> {
    pub tag: String,
    pub node: Node<'tree>,
    pub captures: Vec<(&'static str, Node<'tree>)>,
}

impl<'tree> TaggedMatch<'tree> {
    pub fn capture(&self, name: &str) -> Option<Node<'tree>> {
        self.captures
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, node)| *node)
    }
}

/// Run `query` over `tree` and return the matches whose tagged capture starts
/// with `prefix` (e.g. `definition.`), in document order. When several
/// patterns tag the same node, the earliest pattern in the query file wins,
/// so specific patterns go first and catch-alls last.
pub fn tagged_matches<'tree>(
    query: &'static Query,
    tree: &'tree Tree,
    source: &[u8],
    prefix: &str,
    dedupe_on: &str,
) -> Vec<TaggedMatch<'tree>> {
    let names = query.capture_names();
    let mut cursor = QueryCursor::new();
    let mut matches = cursor.matches(query, tree.root_node(), source);
    let mut found: Vec<(usize, TaggedMatch<'tree>)> = Vec::new();
    while let Some(m) = matches.next() {
        let mut tag = None;
        let mut captures = Vec::new();
        for capture in m.captures {
            let name: &'static str = names[capture.index as usize];
            if let Some(rest) = name.strip_prefix(prefix) {
                tag = Some((rest.to_string(), capture.node));
            } else {
                captures.push((name, capture.node));
            }
        }
        if let Some((tag, node)) = tag {
            found.push((
                m.pattern_index,
                TaggedMatch {
                    tag,
                    node,
                    captures,
                },
            ));
        }
    }
    // Earliest pattern first, then keep the first match per deduplication node.
    found.sort_by_key(|(pattern, m)| (*pattern, m.node.start_byte()));
    let mut seen = HashSet::new();
    let mut kept: Vec<TaggedMatch<'tree>> = found
        .into_iter()
        .filter_map(|(_, m)| {
            let key_node = m.capture(dedupe_on).unwrap_or(m.node);
            seen.insert((
                key_node.start_byte(),
                key_node.end_byte(),
                key_node.kind_id(),
            ))
            .then_some(m)
        })
        .collect();
    kept.sort_by_key(|m| (m.node.start_byte(), std::cmp::Reverse(m.node.end_byte())));
    kept
}
