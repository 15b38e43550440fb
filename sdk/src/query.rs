//! The query runner: compiled `.scm` queries and their captures.

use std::collections::HashSet;
use std::ops::Range;

use tree_sitter::{Node, Query, QueryCursor, QueryError, QueryErrorKind, StreamingIterator, Tree};

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

/// The compiled queries of a language: its three query files' patterns in
/// one query, so that one pass over a tree matches them all (each query
/// file alone cost about as much as the three together: the pass over the
/// tree is most of a query's cost).
pub struct Queries {
    all: Query,
    /// Where each file's patterns are in `all`, in [`QueryFile`] order.
    patterns: [Range<usize>; 3],
    /// The index of the `@local.scope` capture, if locals.scm has one.
    local_scope: Option<u32>,
}

/// The three query files of a language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QueryFile {
    Symbols,
    References,
    Locals,
}

impl QueryFile {
    const ALL: [QueryFile; 3] = [QueryFile::Symbols, QueryFile::References, QueryFile::Locals];

    pub fn name(self) -> &'static str {
        match self {
            QueryFile::Symbols => "symbols",
            QueryFile::References => "references",
            QueryFile::Locals => "locals",
        }
    }

    /// The capture prefix that makes a pattern of this file report
    /// something; what follows it is the pattern's tag.
    fn tag_prefix(self) -> &'static str {
        match self {
            QueryFile::Symbols => "definition.",
            QueryFile::References => "reference.",
            QueryFile::Locals => "local.definition.",
        }
    }

    /// The capture whose node decides which of two matches tagging the same
    /// thing is kept (the tagged node itself when absent).
    fn dedupe_on(self) -> &'static str {
        match self {
            QueryFile::Symbols | QueryFile::References => "name",
            QueryFile::Locals => "",
        }
    }
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
        let sources = [symbols, references, locals];
        let combined = sources.join("\n");
        // Where each file starts in `combined`.
        let starts = [0, symbols.len() + 1, symbols.len() + references.len() + 2];
        // Compiled once, together; each file is compiled alone only to
        // name the one at fault when that fails.
        let all = Query::new(language, &combined).map_err(|e| {
            fault_alone(language, sources)
                .unwrap_or_else(|| describe_error("the three queries together", &combined, &e))
        })?;
        // Each pattern lies in one file: a file cannot close what another
        // one left open. Patterns come in source order.
        let mut patterns: [Range<usize>; 3] = [0..0, 0..0, 0..0];
        let mut next = 0;
        for (file, range) in patterns.iter_mut().enumerate() {
            let end = starts[file] + sources[file].len();
            let first = next;
            while next < all.pattern_count() && all.start_byte_for_pattern(next) < end {
                if runs_past(&combined, end, all.end_byte_for_pattern(next)) {
                    return Err(fault_alone(language, sources).unwrap_or_else(|| {
                        format!(
                            "{}.scm: a pattern runs on into the next file",
                            QueryFile::ALL[file].name()
                        )
                    }));
                }
                next += 1;
            }
            *range = first..next;
        }
        let problems = crate::query_check::capture_problems(&all, &patterns, sources, starts);
        if !problems.is_empty() {
            return Err(problems.join("\n"));
        }
        let local_scope = all.capture_index_for_name("local.scope");
        Ok(Queries {
            all,
            patterns,
            local_scope,
        })
    }

    /// The three files' patterns in one query, in file order.
    pub fn query(&self) -> &Query {
        &self.all
    }

    /// The query file pattern `pattern` of the combined query comes from.
    fn file_of(&self, pattern: usize) -> Option<QueryFile> {
        QueryFile::ALL
            .into_iter()
            .zip(&self.patterns)
            .find(|(_, range)| range.contains(&pattern))
            .map(|(file, _)| file)
    }
}

/// Whether a pattern whose text (with the blanks and comments after it,
/// as tree-sitter counts it) ends at `pattern_end` goes on past a file
/// ending at `file_end`: a line after the file's end that is not blank or
/// a comment.
fn runs_past(combined: &str, file_end: usize, pattern_end: usize) -> bool {
    combined
        .get(file_end..pattern_end)
        .unwrap_or("")
        .lines()
        .any(|line| {
            let line = line.trim();
            !line.is_empty() && !line.starts_with(';')
        })
}

/// The first query file that does not compile alone, described as
/// [`describe_error`] does.
fn fault_alone(language: &tree_sitter::Language, sources: [&str; 3]) -> Option<String> {
    QueryFile::ALL
        .into_iter()
        .zip(sources)
        .find_map(|(file, source)| {
            Query::new(language, source)
                .err()
                .map(|e| describe_error(&format!("{}.scm", file.name()), source, &e))
        })
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

/// What one pass of a language's queries over a tree found: each query
/// file's tagged matches, in document order, and the nodes captured as
/// `@local.scope` (by id).
pub struct TreeMatches<'tree> {
    pub symbols: Vec<TaggedMatch<'tree>>,
    pub references: Vec<TaggedMatch<'tree>>,
    pub locals: Vec<TaggedMatch<'tree>>,
    pub local_scopes: HashSet<usize>,
}

/// Run all of `queries` over `tree` in one pass. Of each file's matches,
/// those with a capture tagged with the file's prefix (`definition.`,
/// `reference.`, `local.definition.`) are kept, in document order. When
/// several patterns of a file tag the same node, the earliest pattern in
/// the file wins, so specific patterns go first and catch-alls last.
pub fn tree_matches<'tree>(
    queries: &'static Queries,
    tree: &'tree Tree,
    source: &[u8],
) -> TreeMatches<'tree> {
    let names = queries.all.capture_names();
    let mut cursor = cursor();
    let mut matches = cursor.matches(&queries.all, tree.root_node(), source);
    let mut found: [Vec<(usize, TaggedMatch<'tree>)>; 3] = Default::default();
    let mut local_scopes = HashSet::new();
    while let Some(m) = matches.next() {
        let Some(file) = queries.file_of(m.pattern_index) else {
            continue;
        };
        if file == QueryFile::Locals {
            let scopes = m
                .captures
                .iter()
                .filter(|c| Some(c.index) == queries.local_scope);
            local_scopes.extend(scopes.map(|c| c.node.id()));
        }
        let prefix = file.tag_prefix();
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
            found[file as usize].push((
                m.pattern_index,
                TaggedMatch {
                    tag,
                    node,
                    captures,
                },
            ));
        }
    }
    let [symbols, references, locals] = found;
    TreeMatches {
        symbols: first_per_node(symbols, QueryFile::Symbols.dedupe_on()),
        references: first_per_node(references, QueryFile::References.dedupe_on()),
        locals: first_per_node(locals, QueryFile::Locals.dedupe_on()),
        local_scopes,
    }
}

/// The matches, the earliest pattern's kept where several tag the same
/// node (the `dedupe_on` capture's, else the tagged one), in document order.
///
/// Each match's keys are read from the tree once, and matches are sorted
/// as small keys, not moved: a file has hundreds of thousands of them.
fn first_per_node<'tree>(
    found: Vec<(usize, TaggedMatch<'tree>)>,
    dedupe_on: &str,
) -> Vec<TaggedMatch<'tree>> {
    /// What decides a match's fate, read once; `index` is its place in
    /// the cursor's order, the last tie-break.
    struct Keys {
        /// The node two matches must share to be the same thing.
        same: (usize, usize, u16),
        pattern: usize,
        start: usize,
        end: usize,
        index: usize,
    }
    let mut keys: Vec<Keys> = found
        .iter()
        .enumerate()
        .map(|(index, (pattern, m))| {
            let key_node = m.capture(dedupe_on).unwrap_or(m.node);
            Keys {
                same: (
                    key_node.start_byte(),
                    key_node.end_byte(),
                    key_node.kind_id(),
                ),
                pattern: *pattern,
                start: m.node.start_byte(),
                end: m.node.end_byte(),
                index,
            }
        })
        .collect();
    // Of the matches on one node, the earliest pattern's (then the one
    // whose tagged node starts first, then the cursor's first) is kept.
    keys.sort_unstable_by_key(|k| (k.same, k.pattern, k.start, k.index));
    keys.dedup_by_key(|k| k.same);
    // Document order: outer before inner; ties as the pattern order had them.
    keys.sort_unstable_by_key(|k| (k.start, std::cmp::Reverse(k.end), k.pattern, k.index));
    let mut slots: Vec<Option<TaggedMatch<'tree>>> =
        found.into_iter().map(|(_, m)| Some(m)).collect();
    keys.iter()
        .filter_map(|k| slots.get_mut(k.index).and_then(Option::take))
        .collect()
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
        // Together the two files compile, but symbols.scm leaves open what
        // references.scm closes.
        let error = Queries::new(&rust, "(function_item", ") @definition.function", "")
            .err()
            .unwrap();
        assert!(error.starts_with("symbols.scm: invalid syntax"), "{error}");
    }

    #[test]
    fn each_file_keeps_its_patterns_and_lines_when_compiled_together() {
        let rust: tree_sitter::Language = tree_sitter_rust::LANGUAGE.into();
        let queries = Queries::new(
            &rust,
            "(function_item name: (identifier) @name) @definition.function\n\
             (struct_item name: (type_identifier) @name) @definition.struct\n",
            "",
            "; scopes\n(block) @local.scope\n",
        )
        .unwrap();
        assert_eq!(queries.patterns, [0..2, 2..2, 2..3]);
        assert_eq!(queries.file_of(1), Some(QueryFile::Symbols));
        assert_eq!(queries.file_of(2), Some(QueryFile::Locals));
        assert!(queries.local_scope.is_some());
        let error = Queries::new(&rust, "", "", "; scopes\n(block) @local.scopes\n")
            .err()
            .unwrap();
        assert!(
            error.starts_with("locals.scm line 2: unknown capture"),
            "{error}"
        );
    }
}
