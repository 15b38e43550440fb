//! The Java plugin on real code: on files of gson (`tests/fixtures/real/java/`),
//! the plugin must find exactly the classes, interfaces and methods that
//! tree-sitter-java's own `tags.scm`, run natively, finds, and report every
//! call, object creation, `extends` and `implements` it tags with the
//! matching reference kind. An ignored test runs the same comparison over a
//! whole Java tree (`LINGO_JAVA_REAL_DIR`).

use crate::common;

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use common::tags::{Outcome, compare_over_tree, native_tags};
use lingo::model::{FileFacts, ReferenceKind};
use lingo::runtime::LanguagePlugin;
use tree_sitter::{Node, Parser, Query, Tree};

const REAL_FILES: &[&str] = &[
    "gson_JsonReader.java",
    "gson_Gson.java",
    "gson_LinkedTreeMap.java",
];

fn java() -> &'static Arc<dyn LanguagePlugin> {
    common::plugin_for("Main.java")
}

fn parse(source: &str) -> Tree {
    let mut parser = Parser::new();
    parser
        .set_language(&tree_sitter_java::LANGUAGE.into())
        .unwrap();
    parser.parse(source, None).unwrap()
}

/// The reference kind the plugin gives a name `tags.scm` tags as a class
/// or an implementation: a superclass extends, an entry of an `implements`
/// list implements, of an interface's `extends` list extends, `new T()`
/// calls `T` and `new T() { .. }` extends it; any other type list
/// (`permits`) holds types.
fn expected_kind(capture: &str, name: Node) -> Option<ReferenceKind> {
    let parent = name.parent()?;
    Some(match (capture, parent.kind()) {
        ("reference.call", _) => ReferenceKind::Call,
        ("reference.class", "superclass") => ReferenceKind::Extends,
        // An anonymous class's `new T(..) { .. }` extends `T` (javac binds
        // the name to the type; its constructor is the anonymous class's).
        ("reference.class", "object_creation_expression") => {
            let mut cursor = parent.walk();
            if parent
                .children(&mut cursor)
                .any(|c| c.kind() == "class_body")
            {
                ReferenceKind::Extends
            } else {
                ReferenceKind::Call
            }
        }
        ("reference.implementation", "type_list") => match parent.parent()?.kind() {
            "super_interfaces" => ReferenceKind::Implements,
            "extends_interfaces" => ReferenceKind::Extends,
            _ => ReferenceKind::Type,
        },
        _ => return None,
    })
}

/// (kind, name, zero-based line) of a declaration.
type Declaration = (String, String, usize);

/// Compare the plugin's facts of `source` with `tags.scm`.
fn compare(label: &str, source: &str, facts: &FileFacts, tree: &Tree) -> Outcome {
    let mut outcome = Outcome::default();
    let query = Query::new(
        &tree_sitter_java::LANGUAGE.into(),
        tree_sitter_java::TAGS_QUERY,
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
    let actual: BTreeSet<Declaration> = facts
        .symbols
        .iter()
        .filter(|s| matches!(s.language_kind.as_str(), "class" | "interface" | "method"))
        .map(|s| {
            (
                s.language_kind.to_string(),
                s.name.to_string(),
                s.name_span.start.line as usize,
            )
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
        let Some(expected) = expected_kind(&tag.capture, tag.name) else {
            outcome
                .mismatches
                .push(format!("{label}: unexpected tag {} on {name}", tag.capture));
            continue;
        };
        outcome.references += 1;
        *outcome.kinds.entry(tag.capture.clone()).or_default() += 1;
        let at = tag.name.start_byte() as u32;
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
        .join("tests/fixtures/real/java")
        .join(name)
}

#[test]
fn declarations_and_references_match_tree_sitter_javas_tags_query_on_real_code() {
    let mut total = Outcome::default();
    for file in REAL_FILES {
        let source = std::fs::read_to_string(fixture(file)).unwrap();
        let tree = parse(&source);
        assert!(!tree.root_node().has_error(), "{file} parses cleanly");
        let facts = java()
            .analyze(file, &source, &[])
            .unwrap_or_else(|e| panic!("analyze {file}: {e}"));
        assert!(
            facts.diagnostics.is_empty(),
            "{file}: {:?}",
            facts.diagnostics
        );
        total.absorb(compare(file, &source, &facts, &tree));
    }
    assert!(
        total.mismatches.is_empty(),
        "the plugin differs from tags.scm:\n{}",
        total.mismatches.join("\n")
    );
    // The comparison covered every kind in real numbers.
    for (kind, at_least) in [
        ("class", 5),
        ("method", 100),
        ("reference.call", 300),
        ("reference.class", 20),
        ("reference.implementation", 2),
    ] {
        let n = total.kinds.get(kind).copied().unwrap_or(0);
        assert!(n >= at_least, "only {n} {kind} compared: {:?}", total.kinds);
    }
}

/// The same comparison over every `.java` file under `LINGO_JAVA_REAL_DIR`
/// that parses without a syntax error (a gson checkout, say):
/// `LINGO_JAVA_REAL_DIR=/path/to/gson cargo test -p lingo --test it --
/// --ignored java_real_code`.
#[test]
#[ignore = "needs a Java tree: set LINGO_JAVA_REAL_DIR"]
fn declarations_and_references_match_tags_over_a_whole_tree() {
    let dir = std::env::var("LINGO_JAVA_REAL_DIR").expect("set LINGO_JAVA_REAL_DIR");
    compare_over_tree(&dir, "java", parse, |label, source, tree| {
        let facts = java()
            .analyze(label, source, &[])
            .unwrap_or_else(|e| panic!("analyze {label}: {e}"));
        compare(label, source, &facts, tree)
    });
}
