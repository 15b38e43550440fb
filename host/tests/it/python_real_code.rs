//! The Python plugin on real code: on files of requests
//! (`tests/fixtures/real/python/`), the plugin must find exactly the
//! classes, functions and module-level assignments that
//! tree-sitter-python's own `tags.scm`, run natively, finds, and report
//! every call it tags as a call. An ignored test runs the same comparison
//! over a whole Python tree (`LINGO_PYTHON_REAL_DIR`).

use crate::common;

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use common::tags::{Outcome, compare_over_tree, native_tags};
use lingo::model::{FileFacts, ReferenceKind};
use lingo::runtime::LanguagePlugin;
use tree_sitter::{Parser, Query, QueryCursor, StreamingIterator, Tree};

const REAL_FILES: &[&str] = &[
    "requests_sessions.py",
    "requests_models.py",
    "requests_utils.py",
];

fn python() -> &'static Arc<dyn LanguagePlugin> {
    common::plugin_for("main.py")
}

fn parse(source: &str) -> Tree {
    let mut parser = Parser::new();
    parser
        .set_language(&tree_sitter_python::LANGUAGE.into())
        .unwrap();
    parser.parse(source, None).unwrap()
}

/// (kind, name, zero-based line) of a declaration.
type Declaration = (String, String, usize);

/// `tags.scm`'s kind for a plugin symbol: `tags.scm` calls every `def` a
/// function and every module-level `name = ...` a constant; the plugin
/// tells methods, constructors, properties, variables and constants apart.
/// Symbols it has no pattern for (attributes, names of a tuple assignment
/// or of an assignment inside a module-level `if` or `try`, type aliases)
/// are left out.
fn tags_kind(language_kind: &str) -> Option<&'static str> {
    Some(match language_kind {
        "function" | "method" | "constructor" | "property" => "function",
        "class" => "class",
        "constant" | "variable" => "constant",
        _ => return None,
    })
}

/// Compare the plugin's facts of `source` with `tags.scm`.
fn compare(label: &str, source: &str, facts: &FileFacts, tree: &Tree) -> Outcome {
    let mut outcome = Outcome::default();
    let query = Query::new(
        &tree_sitter_python::LANGUAGE.into(),
        tree_sitter_python::TAGS_QUERY,
    )
    .expect("tags.scm compiles");
    let tags = native_tags(&query, tree, source);
    let expected: BTreeSet<Declaration> = tags
        .iter()
        .filter_map(|t| {
            let kind = t.capture.strip_prefix("definition.")?;
            Some((
                kind.to_string(),
                source[t.name.byte_range()].to_string(),
                t.name.start_position().row,
            ))
        })
        .collect();
    // The names tags.scm sees assigned: directly at the top of the module,
    // one name each (the plugin also declares `a, b = ...` and assignments
    // inside a module-level `if` or `try`).
    let top_level_names: BTreeSet<u32> = {
        let query = Query::new(
            &tree_sitter_python::LANGUAGE.into(),
            "(module (expression_statement (assignment left: (identifier) @n)))",
        )
        .unwrap();
        let mut cursor = QueryCursor::new();
        let mut matches = cursor.matches(&query, tree.root_node(), source.as_bytes());
        let mut out = BTreeSet::new();
        while let Some(m) = matches.next() {
            out.extend(m.captures.iter().map(|c| c.node.start_byte() as u32));
        }
        out
    };
    let actual: BTreeSet<Declaration> = facts
        .symbols
        .iter()
        .filter_map(|s| {
            let kind = tags_kind(&s.language_kind)?;
            if kind == "constant" && !top_level_names.contains(&s.name_span.start.offset) {
                return None;
            }
            Some((
                kind.to_string(),
                s.name.to_string(),
                s.name_span.start.line as usize,
            ))
        })
        .collect();
    for missing in expected.difference(&actual) {
        outcome
            .mismatches
            .push(format!("{label}: only in tags.scm: {missing:?}"));
    }
    for extra in actual.difference(&expected) {
        outcome
            .mismatches
            .push(format!("{label}: only in the plugin: {extra:?}"));
    }
    for declaration in &expected {
        *outcome.kinds.entry(declaration.0.clone()).or_default() += 1;
    }
    outcome.declarations = expected.len();

    let plugin: HashMap<u32, (&str, ReferenceKind)> = facts
        .references
        .iter()
        .map(|r| (r.span.start.offset, (r.name.as_str(), r.kind)))
        .collect();
    for tag in tags.iter().filter(|t| t.capture.starts_with("reference.")) {
        let name = &source[tag.name.byte_range()];
        let at = tag.name.start_byte() as u32;
        let expected = match tag.capture.as_str() {
            "reference.call" => ReferenceKind::Call,
            other => panic!("unexpected tag {other}"),
        };
        outcome.references += 1;
        *outcome.kinds.entry(tag.capture.clone()).or_default() += 1;
        let found = plugin.get(&at);
        if found != Some(&(name, expected)) {
            outcome.mismatches.push(format!(
                "{label}:{}:{} {name}: tags.scm {} -> expected {expected:?}, plugin has {found:?}",
                tag.name.start_position().row + 1,
                tag.name.start_position().column + 1,
                tag.capture
            ));
        }
    }
    outcome
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/real/python")
        .join(name)
}

#[test]
fn declarations_and_calls_match_tree_sitter_pythons_tags_query_on_real_code() {
    let mut total = Outcome::default();
    for file in REAL_FILES {
        let source = std::fs::read_to_string(fixture(file)).unwrap();
        let tree = parse(&source);
        assert!(!tree.root_node().has_error(), "{file} parses cleanly");
        let facts = python()
            .analyze(file, &source, &[])
            .unwrap_or_else(|e| panic!("analyze {file}: {e}"));
        assert!(
            facts.diagnostics.is_empty(),
            "{file}: {:?}",
            facts.diagnostics
        );
        let outcome = compare(file, &source, &facts, &tree);
        total.absorb(outcome);
    }
    assert!(
        total.mismatches.is_empty(),
        "the plugin differs from tags.scm:\n{}",
        total.mismatches.join("\n")
    );
    // The comparison covered every kind in real numbers.
    for (kind, at_least) in [
        ("function", 100),
        ("class", 5),
        ("constant", 10),
        ("reference.call", 500),
    ] {
        assert!(
            total.kinds.get(kind).is_some_and(|&n| n >= at_least),
            "fewer than {at_least} {kind}: {:?}",
            total.kinds
        );
    }
}

/// The comparison over a whole Python tree, by hand:
/// `LINGO_PYTHON_REAL_DIR=/path/to/project cargo test -p lingo --test
/// python_real_code -- --ignored --nocapture`.
#[test]
#[ignore = "needs a Python source tree on the machine"]
fn the_same_comparison_over_a_whole_python_project() {
    let dir = std::env::var("LINGO_PYTHON_REAL_DIR").expect("LINGO_PYTHON_REAL_DIR");
    compare_over_tree(&dir, "py", parse, |label, source, tree| {
        let facts = python()
            .analyze(label, source, &[])
            .unwrap_or_else(|e| panic!("analyze {label}: {e}"));
        compare(label, source, &facts, tree)
    });
}
