//! The Go plugin on real code: on files of cobra (`tests/fixtures/real/go/`),
//! the plugin must find exactly the declarations that tree-sitter-go's own
//! `tags.scm`, run natively, finds, and report every call and type use it
//! tags with the matching reference kind. An ignored test runs the same
//! comparison over a whole Go tree (`LINGO_GO_REAL_DIR`).

use crate::common;

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use common::tags::{Outcome, compare_over_tree, native_tags};
use lingo::model::{FileFacts, ReferenceKind};
use lingo::runtime::LanguagePlugin;
use tree_sitter::{Node, Parser, Query, QueryCursor, StreamingIterator, Tree};

const REAL_FILES: &[&str] = &["cobra_command.go", "cobra_completions.go", "cobra_args.go"];

/// Go's predeclared types: the plugin does not report them as references
/// (no file declares them), `tags.scm` tags them like any type.
const PREDECLARED_TYPES: &[&str] = &[
    "any",
    "bool",
    "byte",
    "comparable",
    "complex64",
    "complex128",
    "error",
    "float32",
    "float64",
    "int",
    "int8",
    "int16",
    "int32",
    "int64",
    "rune",
    "string",
    "uint",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "uintptr",
];

fn go() -> &'static Arc<dyn LanguagePlugin> {
    common::plugin_for("main.go")
}

fn parse(source: &str) -> Tree {
    let mut parser = Parser::new();
    parser
        .set_language(&tree_sitter_go::LANGUAGE.into())
        .unwrap();
    parser.parse(source, None).unwrap()
}

/// The reference kind the plugin gives a type name `tags.scm` tags: an
/// embedded field or embedded interface extends; a generic type converted
/// (`Map[int](xs)`) is taken for a generic function called; else a type.
fn expected_type_kind(name: Node) -> ReferenceKind {
    let mut node = name;
    while let Some(parent) = node.parent() {
        let wraps = match parent.kind() {
            "qualified_type" | "pointer_type" => true,
            "generic_type" => parent.child_by_field_name("type") == Some(node),
            _ => false,
        };
        if !wraps {
            break;
        }
        node = parent;
    }
    let Some(parent) = node.parent() else {
        return ReferenceKind::Type;
    };
    let embedded_field =
        parent.kind() == "field_declaration" && parent.child_by_field_name("name").is_none();
    let embedded_interface = parent.kind() == "type_elem"
        && parent.named_child_count() == 1
        && parent
            .parent()
            .is_some_and(|p| p.kind() == "interface_type");
    if embedded_field || embedded_interface {
        ReferenceKind::Extends
    } else if parent.kind() == "type_conversion_expression" && node.kind() == "generic_type" {
        ReferenceKind::Call
    } else {
        ReferenceKind::Type
    }
}

/// Whether a type name is a type argument of a method's receiver type.
fn is_receiver_type_parameter(name: Node) -> bool {
    let mut node = name;
    for kind in ["type_elem", "type_arguments", "generic_type"] {
        match node.parent() {
            Some(parent) if parent.kind() == kind => node = parent,
            _ => return false,
        }
    }
    let mut parent = node.parent();
    if parent.is_some_and(|p| p.kind() == "pointer_type") {
        parent = parent.and_then(|p| p.parent());
    }
    let list = parent
        .filter(|p| p.kind() == "parameter_declaration")
        .and_then(|p| p.parent());
    list.is_some_and(|list| {
        list.parent()
            .and_then(|m| m.child_by_field_name("receiver"))
            .is_some_and(|receiver| receiver == list)
    })
}

/// (kind, name, zero-based line) of a declaration.
type Declaration = (String, String, usize);

/// Compare the plugin's facts of `source` with `tags.scm`.
fn compare(label: &str, source: &str, facts: &FileFacts, tree: &Tree) -> Outcome {
    let mut outcome = Outcome::default();
    let query = Query::new(&tree_sitter_go::LANGUAGE.into(), tree_sitter_go::TAGS_QUERY)
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
        .filter_map(|s| {
            let kind = match s.language_kind.as_str() {
                "function" | "method" => s.language_kind.as_str(),
                "struct" | "interface" | "type" => "type",
                _ => return None,
            };
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
    let alias_names: BTreeSet<u32> = facts
        .symbols
        .iter()
        .filter(|s| s.language_kind == "type_alias")
        .map(|s| s.name_span.start.offset)
        .collect();
    for tag in tags.iter().filter(|t| t.capture.starts_with("reference.")) {
        let name = &source[tag.name.byte_range()];
        if PREDECLARED_TYPES.contains(&name) {
            continue;
        }
        let at = tag.name.start_byte() as u32;
        let expected = match tag.capture.as_str() {
            "reference.call" => ReferenceKind::Call,
            // tags.scm has no definition pattern for aliases: their names
            // are tagged as type uses; the plugin declares them.
            "reference.type" if alias_names.contains(&at) => continue,
            // `T` of `func (l *List[T])` declares a type parameter (a local).
            "reference.type" if is_receiver_type_parameter(tag.name) => continue,
            "reference.type" => expected_type_kind(tag.name),
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
    let aliases = {
        let query = Query::new(&tree_sitter_go::LANGUAGE.into(), "(type_alias) @a").unwrap();
        let mut cursor = QueryCursor::new();
        let mut matches = cursor.matches(&query, tree.root_node(), source.as_bytes());
        let mut count = 0;
        while matches.next().is_some() {
            count += 1;
        }
        count
    };
    if aliases != alias_names.len() {
        outcome.mismatches.push(format!(
            "{label}: {aliases} type aliases, the plugin declares {}",
            alias_names.len()
        ));
    }
    outcome
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/real/go")
        .join(name)
}

#[test]
fn declarations_and_references_match_tree_sitter_gos_tags_query_on_real_code() {
    let mut total = Outcome::default();
    for file in REAL_FILES {
        let source = std::fs::read_to_string(fixture(file)).unwrap();
        let tree = parse(&source);
        assert!(!tree.root_node().has_error(), "{file} parses cleanly");
        let facts = go()
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
        ("function", 20),
        ("method", 80),
        ("type", 5),
        ("reference.call", 500),
        ("reference.type", 100),
    ] {
        assert!(
            total.kinds.get(kind).is_some_and(|&n| n >= at_least),
            "fewer than {at_least} {kind}: {:?}",
            total.kinds
        );
    }
}

/// The comparison over a whole Go tree, by hand:
/// `LINGO_GO_REAL_DIR=/usr/share/gocode/src/github.com/spf13/cobra cargo test
/// -p lingo --test go_real_code -- --ignored --nocapture` (the default
/// directory is cobra's, from Debian's `golang-github-spf13-cobra-dev`).
#[test]
#[ignore = "needs a Go source tree on the machine"]
fn the_same_comparison_over_a_whole_go_project() {
    let dir = std::env::var("LINGO_GO_REAL_DIR")
        .unwrap_or_else(|_| "/usr/share/gocode/src/github.com/spf13/cobra".into());
    compare_over_tree(&dir, "go", parse, |label, source, tree| {
        let facts = go()
            .analyze(label, source, &[])
            .unwrap_or_else(|e| panic!("analyze {label}: {e}"));
        compare(label, source, &facts, tree)
    });
}
