//! The query runner: compiled `.scm` queries and their captures.

use std::collections::HashSet;

use tree_sitter::{
    Node, Query, QueryCursor, QueryError, QueryErrorKind, QueryMatch, StreamingIterator, Tree,
};

/// Syntax depth below which no query match starts. tree-sitter's query
/// cursor keeps a state per pattern in progress on the path from the root,
/// so on code nested thousands deep (generated, or hostile) matching grows
/// with the square of the depth; real code stays far above this.
pub const MAX_QUERY_START_DEPTH: u32 = 1024;

/// A query cursor with the depth bound every query of the SDK runs under.
pub fn cursor() -> QueryCursor {
    let mut cursor = QueryCursor::new();
    cursor.set_max_start_depth(Some(MAX_QUERY_START_DEPTH));
    cursor
}

/// The compiled queries of a language.
pub struct Queries {
    pub symbols: Query,
    pub references: Query,
    pub locals: Query,
}

impl Queries {
    /// Compile the three query sources against `language`. An error names the
    /// query file, what is wrong, the position (1-based line and column) and
    /// the pattern's line: ``symbols.scm: invalid field name `foo` at line
    /// 12, column 4: (function_item foo: (identifier) @name)``. Queries that
    /// compile but capture what the SDK does not read fail too, one line
    /// per problem (see `query_check`).
    pub fn new(
        language: &tree_sitter::Language,
        symbols: &str,
        references: &str,
        locals: &str,
    ) -> Result<Self, String> {
        let compile = |name: &str, source: &str| {
            Query::new(language, source)
                .map_err(|e| describe_error(&format!("{name}.scm"), source, &e))
        };
        let queries = Queries {
            symbols: compile("symbols", symbols)?,
            references: compile("references", references)?,
            locals: compile("locals", locals)?,
        };
        let problems =
            crate::query_check::capture_problems(&queries, [symbols, references, locals]);
        if !problems.is_empty() {
            return Err(problems.join("\n"));
        }
        Ok(queries)
    }
}

/// A query compilation error as one line: the file, the fault, where it is
/// and the text of that line.
pub fn describe_error(file: &str, source: &str, error: &QueryError) -> String {
    let what = match error.kind {
        QueryErrorKind::Field => format!("invalid field name `{}`", error.message),
        QueryErrorKind::NodeType => format!("invalid node type `{}`", error.message),
        QueryErrorKind::Capture => format!("invalid capture name `{}`", error.message),
        QueryErrorKind::Predicate => format!("invalid predicate: {}", error.message),
        QueryErrorKind::Structure => "impossible pattern".to_string(),
        QueryErrorKind::Syntax => "invalid syntax".to_string(),
        QueryErrorKind::Language => return format!("{file}: {}", error.message),
    };
    let line = source.lines().nth(error.row).unwrap_or("").trim();
    let line: String = line.chars().take(200).collect();
    format!(
        "{file}: {what} at line {}, column {}: {line}",
        error.row + 1,
        error.column + 1
    )
}

/// One match: the tagged node, its tag (the capture name after the prefix)
/// and the other captures by name.
pub struct TaggedMatch<'tree> {
    pub tag: &'static str,
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
    tagged_matches_seeing(query, tree, source, prefix, dedupe_on, |_| {})
}

/// [`tagged_matches`], handing every match of the query to `see` as it is
/// found too: what else a caller reads off the same query takes no second
/// pass over the tree.
pub fn tagged_matches_seeing<'tree>(
    query: &'static Query,
    tree: &'tree Tree,
    source: &[u8],
    prefix: &str,
    dedupe_on: &str,
    mut see: impl FnMut(&QueryMatch<'_, 'tree>),
) -> Vec<TaggedMatch<'tree>> {
    let names = query.capture_names();
    let mut cursor = cursor();
    let mut matches = cursor.matches(query, tree.root_node(), source);
    let mut found: Vec<(usize, TaggedMatch<'tree>)> = Vec::new();
    while let Some(m) = matches.next() {
        see(m);
        let mut tag = None;
        let mut captures = Vec::new();
        for capture in m.captures {
            let name: &'static str = names[capture.index as usize];
            if let Some(rest) = name.strip_prefix(prefix) {
                tag = Some((rest, capture.node));
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_broken_query_names_its_file_the_fault_and_the_position() {
        let rust: tree_sitter::Language = tree_sitter_rust::LANGUAGE.into();
        let symbols = "(function_item name: (identifier) @name) @definition.function\n\
                       \n  (struct_item foo: (type_identifier) @name) @definition.struct\n";
        let error = Queries::new(&rust, symbols, "", "").err().unwrap();
        assert_eq!(
            error,
            "symbols.scm: invalid field name `foo` at line 3, column 16: \
             (struct_item foo: (type_identifier) @name) @definition.struct"
        );
        let error = Queries::new(&rust, "", "", "(no_such_node) @x")
            .err()
            .unwrap();
        assert!(
            error.starts_with("locals.scm: invalid node type `no_such_node` at line 1, column 2"),
            "{error}"
        );
        assert!(
            Queries::new(&rust, "", "(", "")
                .err()
                .unwrap()
                .starts_with("references.scm: invalid syntax at line 1")
        );
    }
}
