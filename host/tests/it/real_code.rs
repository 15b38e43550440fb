//! The Rust plugin on real code: on files vendored from regex-syntax and
//! tracing-core (`tests/fixtures/real/`), the plugin must find exactly the
//! declarations that tree-sitter-rust's own `tags.scm`, run natively, finds,
//! and every call site and impl it tags.

use crate::common;

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use common::tags::{Tag, native_tags};
use lingo::model::{FileFacts, ReferenceKind};
use lingo::runtime::{Limits, PluginRegistry, RuntimeConfig};
use tree_sitter::{Parser, Query, QueryCursor, StreamingIterator};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/real")
        .join(name)
}

/// The vendored files and the workspace paths they are analysed under.
const REAL_FILES: &[(&str, &str)] = &[
    ("regex_syntax_ast.rs", "src/ast/mod.rs"),
    ("tracing_core_field.rs", "src/field.rs"),
];

fn parse(source: &str) -> tree_sitter::Tree {
    let mut parser = Parser::new();
    parser
        .set_language(&tree_sitter_rust::LANGUAGE.into())
        .unwrap();
    parser.parse(source, None).unwrap()
}

fn plugin_facts(path: &str, source: &str) -> FileFacts {
    let registry = PluginRegistry::load(&RuntimeConfig {
        extra_plugins: vec![],
        include_built_in: true,
        cache_dir: Some(Path::new(env!("CARGO_TARGET_TMPDIR")).join("lingo-cache")),
        limits: Limits::default(),
        extension_owners: Default::default(),
        compilation: Default::default(),
    })
    .expect("load the built-in plugins");
    registry
        .for_path(Path::new(path))
        .expect("a plugin for .rs files")
        .analyze(path, source, &[])
        .expect("analyze the real file")
}

/// tree-sitter-rust's `tags.scm` (the fixture copy), compiled once.
fn tags_query() -> &'static Query {
    static QUERY: std::sync::OnceLock<Query> = std::sync::OnceLock::new();
    QUERY.get_or_init(|| {
        let source = std::fs::read_to_string(fixture("tags.scm")).unwrap();
        Query::new(&tree_sitter_rust::LANGUAGE.into(), &source).expect("tags.scm compiles")
    })
}

/// The plugin's `language-kind` for a declaration the tags query found.
fn expected_language_kind(tag: &Tag) -> &'static str {
    match tag.node.kind() {
        "struct_item" => "struct",
        "enum_item" => "enum",
        "union_item" => "union",
        "type_item" => "type_alias",
        "trait_item" => "trait",
        "mod_item" => "module",
        "macro_definition" => "macro",
        "function_item" => {
            // tags.scm calls every fn in a `{ ... }` item list a method, the
            // plugin only those of impls and traits (not of inline modules).
            let owner = tag.node.parent().and_then(|list| list.parent());
            match owner.map(|o| o.kind()) {
                Some("impl_item" | "trait_item") => "method",
                _ => "function",
            }
        }
        other => panic!("tags.scm tagged an unexpected {other}"),
    }
}

type Declaration = (String, String, usize, u32);

/// The declarations of one file: (from tags.scm, from the plugin). Checks
/// on the way that the file is clean and that the plugin's bodiless fns,
/// left out of the comparison, are exactly the native `function_signature_item`s.
fn declarations(file: &str, path: &str) -> (BTreeSet<Declaration>, BTreeSet<Declaration>) {
    let source = std::fs::read_to_string(fixture(file)).unwrap();
    assert!(source.lines().count() >= 1_000, "{file} is real-sized");
    let tree = parse(&source);
    assert!(!tree.root_node().has_error(), "{file} parses cleanly");

    let expected: BTreeSet<Declaration> = native_tags(tags_query(), &tree, &source)
        .iter()
        .filter(|t| t.capture.starts_with("definition."))
        .map(|t| {
            (
                expected_language_kind(t).to_string(),
                source[t.name.byte_range()].to_string(),
                t.name.start_position().row,
                t.name.start_byte() as u32,
            )
        })
        .collect();

    let facts = plugin_facts(path, &source);
    assert!(
        facts.diagnostics.is_empty(),
        "{file}: {:?}",
        facts.diagnostics
    );
    const KINDS: &[&str] = &[
        "struct",
        "enum",
        "union",
        "type_alias",
        "trait",
        "module",
        "macro",
        "function",
        "method",
    ];
    // tags.scm has no pattern for bodiless trait methods (`fn f(&self);`),
    // which the plugin reports as methods: leave those out, and count them.
    let bodiless = |s: &&lingo::model::Symbol| {
        source[s.span.start.offset as usize..s.span.end.offset as usize].ends_with(';')
            && matches!(s.language_kind.as_str(), "function" | "method")
    };
    let actual: BTreeSet<Declaration> = facts
        .symbols
        .iter()
        .filter(|s| KINDS.contains(&s.language_kind.as_str()) && !bodiless(s))
        .map(|s| {
            (
                s.language_kind.to_string(),
                s.name.to_string(),
                s.name_span.start.line as usize,
                s.name_span.start.offset,
            )
        })
        .collect();

    let native_bodiless = {
        let language = tree_sitter_rust::LANGUAGE.into();
        let query = Query::new(&language, "(function_signature_item) @f").unwrap();
        let mut cursor = QueryCursor::new();
        let mut matches = cursor.matches(&query, tree.root_node(), source.as_bytes());
        let mut count = 0;
        while matches.next().is_some() {
            count += 1;
        }
        count
    };
    assert_eq!(
        facts.symbols.iter().filter(bodiless).count(),
        native_bodiless,
        "{file}: bodiless fns"
    );
    (expected, actual)
}

#[test]
fn declarations_match_tree_sitter_rusts_tags_query_on_real_code() {
    let mut kinds = HashMap::<String, usize>::new();
    for (file, path) in REAL_FILES {
        let (expected, actual) = declarations(file, path);
        let missing: Vec<_> = expected.difference(&actual).collect();
        let extra: Vec<_> = actual.difference(&expected).collect();
        assert!(
            missing.is_empty() && extra.is_empty(),
            "{file}: declarations differ from tags.scm (kind, name, zero-based line, offset)\n\
             only in tags.scm: {missing:#?}\nonly in the plugin: {extra:#?}"
        );
        for declaration in &expected {
            *kinds.entry(declaration.0.clone()).or_default() += 1;
        }
    }
    // The comparison covered every kind of declaration in real numbers.
    for kind in [
        "struct", "enum", "trait", "module", "macro", "function", "method",
    ] {
        assert!(
            kinds.get(kind).is_some_and(|&n| n > 0),
            "no {kind}: {kinds:?}"
        );
    }
    assert!(kinds.values().sum::<usize>() > 200, "{kinds:?}");
}

#[test]
fn call_sites_and_impls_tagged_by_tree_sitter_rust_are_plugin_references() {
    let mut checked = HashMap::<String, usize>::new();
    let mut wrong = Vec::new();
    for (file, path) in REAL_FILES {
        let source = std::fs::read_to_string(fixture(file)).unwrap();
        let tree = parse(&source);
        let facts = plugin_facts(path, &source);
        let plugin: HashMap<u32, (&str, ReferenceKind)> = facts
            .references
            .iter()
            .map(|r| (r.span.start.offset, (r.name.as_str(), r.kind)))
            .collect();
        let tags = native_tags(tags_query(), &tree, &source);
        for tag in tags.iter().filter(|t| t.capture.starts_with("reference.")) {
            let name = &source[tag.name.byte_range()];
            let expected = match tag.capture.as_str() {
                "reference.call" => ReferenceKind::Call,
                // `impl Trait for T` names the trait; `impl T` names the type.
                "reference.implementation" if tag.node.child_by_field_name("trait").is_some() => {
                    ReferenceKind::Implements
                }
                "reference.implementation" => ReferenceKind::Type,
                other => panic!("unexpected tag {other}"),
            };
            *checked.entry(tag.capture.clone()).or_default() += 1;
            let found = plugin.get(&(tag.name.start_byte() as u32));
            if found != Some(&(name, expected)) {
                wrong.push(format!(
                    "{file}:{}:{} {name}: tags.scm {} -> expected {expected:?}, plugin has {found:?}",
                    tag.name.start_position().row + 1,
                    tag.name.start_position().column + 1,
                    tag.capture
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(checked["reference.call"] > 200, "{checked:?}");
    assert!(checked["reference.implementation"] > 40, "{checked:?}");
}
