//! The capture vocabulary of the three queries, checked: a capture the SDK
//! does not read (`@nmae`, `@reference.cal`) compiles but silently reports
//! nothing, so it is refused with the query file and the pattern's line.

use std::ops::Range;

use tree_sitter::{CaptureQuantifier, Query};

/// The kinds a `@reference.<kind>` capture may have: the WIT reference
/// kinds, and `ignore`, which claims a name for its pattern (so later
/// catch-all patterns skip it) and reports nothing.
pub const REFERENCE_KINDS: &[&str] = &[
    "call",
    "reference",
    "type",
    "import",
    "extends",
    "implements",
    "write",
    "ignore",
];

/// What one query file may capture.
struct Vocabulary {
    file: &'static str,
    /// The capture that makes a pattern report something, as a prefix
    /// (`definition.`); what follows it is the pattern's tag.
    tagged: &'static str,
    /// The tags allowed after `tagged`; `None` allows any non-empty one.
    tags: Option<&'static [&'static str]>,
    /// The other captures the SDK reads.
    plain: &'static [&'static str],
    /// Whether a tagged pattern must capture `@name` too.
    needs_name: bool,
}

const SYMBOLS: Vocabulary = Vocabulary {
    file: "symbols.scm",
    tagged: "definition.",
    tags: None,
    plain: &["name", "container"],
    needs_name: true,
};

const REFERENCES: Vocabulary = Vocabulary {
    file: "references.scm",
    tagged: "reference.",
    tags: Some(REFERENCE_KINDS),
    plain: &["name", "receiver", "qualifier", "shorthand"],
    needs_name: true,
};

const LOCALS: Vocabulary = Vocabulary {
    file: "locals.scm",
    tagged: "local.definition.",
    tags: None,
    plain: &["local.scope", "local.after", "local.from"],
    needs_name: false,
};

/// The problems of the captures of `query` (symbols, references and
/// locals compiled together: `patterns` holds each file's patterns, and
/// `starts` where each file's text begins), one line each, naming the
/// file and the 1-based line of the pattern in it: unknown capture names,
/// tags outside the vocabulary, a definition or reference without
/// `@name`, and `@name` in a pattern that reports nothing. Captures
/// starting with `_` are the query's own (for predicates) and never
/// checked.
pub fn capture_problems(
    query: &Query,
    patterns: &[Range<usize>; 3],
    sources: [&str; 3],
    starts: [usize; 3],
) -> Vec<String> {
    let mut problems = Vec::new();
    for (file, vocabulary) in [SYMBOLS, REFERENCES, LOCALS].iter().enumerate() {
        let text = File {
            source: sources[file],
            start: starts[file],
        };
        check(
            query,
            patterns[file].clone(),
            vocabulary,
            text,
            &mut problems,
        );
    }
    problems
}

/// One query file's text and where it starts in the combined query.
struct File<'a> {
    source: &'a str,
    start: usize,
}

fn check(
    query: &Query,
    patterns: Range<usize>,
    vocabulary: &Vocabulary,
    file: File,
    problems: &mut Vec<String>,
) {
    let names = query.capture_names();
    for pattern in patterns {
        let offset = query
            .start_byte_for_pattern(pattern)
            .saturating_sub(file.start);
        let line = line_of(file.source, offset);
        let used: Vec<&str> = query
            .capture_quantifiers(pattern)
            .iter()
            .zip(names)
            .filter(|(quantifier, _)| **quantifier != CaptureQuantifier::Zero)
            .map(|(_, name)| *name)
            .filter(|name| !name.starts_with('_'))
            .collect();
        let mut tagged = false;
        for name in &used {
            if let Some(tag) = name.strip_prefix(vocabulary.tagged) {
                tagged = true;
                let known = match vocabulary.tags {
                    Some(tags) => tags.contains(&tag),
                    None => !tag.is_empty(),
                };
                if !known {
                    let allowed = vocabulary
                        .tags
                        .map_or_else(|| "a non-empty tag".to_string(), |tags| tags.join(", "));
                    problems.push(format!(
                        "{} line {line}: unknown tag in @{name} (after @{}: {allowed})",
                        vocabulary.file, vocabulary.tagged
                    ));
                }
            } else if !vocabulary.plain.contains(name) {
                problems.push(format!(
                    "{} line {line}: unknown capture @{name} (known: @{}<tag>, {}; \
                     a capture starting with `_` is the query's own)",
                    vocabulary.file,
                    vocabulary.tagged,
                    vocabulary
                        .plain
                        .iter()
                        .map(|p| format!("@{p}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
        }
        let has_name = used.contains(&"name");
        if vocabulary.needs_name && tagged && !has_name {
            problems.push(format!(
                "{} line {line}: the pattern has @{}<tag> but no @name, so it reports nothing",
                vocabulary.file, vocabulary.tagged
            ));
        }
        if has_name && !tagged {
            problems.push(format!(
                "{} line {line}: the pattern has @name but no @{}<tag>, so it reports nothing",
                vocabulary.file, vocabulary.tagged
            ));
        }
    }
}

/// The 1-based line of byte `offset` of `source`.
fn line_of(source: &str, offset: usize) -> usize {
    source
        .get(..offset)
        .map_or(0, |before| before.matches('\n').count())
        + 1
}

#[cfg(test)]
mod tests {
    fn problems(symbols: &str, references: &str, locals: &str) -> Vec<String> {
        let language: tree_sitter::Language = tree_sitter_rust::LANGUAGE.into();
        let refused = crate::Queries::new(&language, symbols, references, locals).err();
        refused.map_or_else(Vec::new, |problems| {
            problems.lines().map(str::to_string).collect()
        })
    }

    #[test]
    fn the_vocabulary_passes() {
        let found = problems(
            "(function_item name: (identifier) @name) @definition.function\n",
            "(call_expression function: (field_expression value: (_) @receiver \
             field: (field_identifier) @name)) @reference.call\n\
             ((identifier) @name (#eq? @name \"self\")) @reference.ignore\n\
             (scoped_identifier path: (_) @qualifier name: (identifier) @_n @name) @reference.reference\n",
            "(block) @local.scope\n(let_declaration pattern: (identifier) @local.definition.variable) @local.after\n",
        );
        assert!(found.is_empty(), "{found:?}");
    }

    #[test]
    fn typos_and_patterns_that_report_nothing_are_named_with_their_line() {
        let found = problems(
            "; a comment\n(function_item name: (identifier) @nmae) @definition.function\n",
            "(call_expression function: (identifier) @name) @reference.cal\n\
             (identifier) @name\n",
            "(block) @local.scopes\n",
        );
        assert_eq!(
            found,
            [
                "symbols.scm line 2: unknown capture @nmae (known: @definition.<tag>, @name, \
                 @container; a capture starting with `_` is the query's own)",
                "symbols.scm line 2: the pattern has @definition.<tag> but no @name, so it \
                 reports nothing",
                "references.scm line 1: unknown tag in @reference.cal (after @reference.: call, \
                 reference, type, import, extends, implements, write, ignore)",
                "references.scm line 2: the pattern has @name but no @reference.<tag>, so it \
                 reports nothing",
                "locals.scm line 1: unknown capture @local.scopes (known: @local.definition.<tag>, \
                 @local.scope, @local.after, @local.from; a capture starting with `_` is the query's own)",
            ]
        );
    }
}
