//! The TypeScript plugin on real code: on files of rxjs 7.8.1
//! (`tests/fixtures/real/typescript/`), the plugin's declarations of the
//! kinds tree-sitter's tags know must be exactly the definitions that
//! tree-sitter-typescript's `tags.scm` followed by tree-sitter-javascript's
//! (the combination the tree-sitter CLI uses for TypeScript), run natively,
//! finds; and every call it tags must be a plugin call reference.
//!
//! The ignored test runs the same comparison over a whole project:
//! `LINGO_TS_PROJECT=/path/to/src cargo test -p lingo --test
//! typescript_real_code -- --ignored --nocapture`.

use crate::common;

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use common::tags::{Tag, native_tags, source_files};
use lingo::model::{FileFacts, ReferenceKind};
use lingo::runtime::LanguagePlugin;
use tree_sitter::{Parser, Query, Tree};

/// The vendored files and the workspace paths they are analysed under.
const REAL_FILES: &[(&str, &str)] = &[
    ("Observable.ts", "src/internal/Observable.ts"),
    ("Subscriber.ts", "src/internal/Subscriber.ts"),
    ("types.ts", "src/internal/types.ts"),
    ("ajax.ts", "src/internal/ajax/ajax.ts"),
    ("TestScheduler.ts", "src/internal/testing/TestScheduler.ts"),
];

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/real/typescript")
        .join(name)
}

fn typescript() -> &'static Arc<dyn LanguagePlugin> {
    common::plugin_for("a.ts")
}

fn language(path: &str) -> tree_sitter::Language {
    if path.ends_with(".tsx") {
        tree_sitter_typescript::LANGUAGE_TSX.into()
    } else {
        tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into()
    }
}

fn parse(path: &str, source: &str) -> Tree {
    let mut parser = Parser::new();
    parser.set_language(&language(path)).unwrap();
    parser.parse(source, None).unwrap()
}

/// The tags query as the tree-sitter CLI assembles it for TypeScript
/// (compiled once per grammar).
fn tags_query(path: &str) -> &'static Query {
    static TYPESCRIPT: OnceLock<Query> = OnceLock::new();
    static TSX: OnceLock<Query> = OnceLock::new();
    let cell = if path.ends_with(".tsx") {
        &TSX
    } else {
        &TYPESCRIPT
    };
    cell.get_or_init(|| {
        let source = format!(
            "{}\n{}",
            tree_sitter_typescript::TAGS_QUERY,
            tree_sitter_javascript::TAGS_QUERY
        );
        Query::new(&language(path), &source).expect("the combined tags query compiles")
    })
}

/// The kind both sides share for a tags definition, or `None` for the
/// definitions lingo deliberately leaves out: functions assigned to
/// properties or object keys (`a.b = function`, `{ k: () => {} }`), the
/// inner name of a named function expression (`const f = function g() {}`:
/// lingo declares `f`), `export x = ...` constants, and method signatures
/// of type literals other than interfaces and aliased object types.
fn common_kind(tag: &Tag) -> Option<&'static str> {
    let node = tag.node;
    match tag.capture.as_str() {
        "definition.class" => Some("class"),
        "definition.interface" => Some("interface"),
        "definition.module" => Some("module"),
        "definition.method" => {
            let owner = node.parent().map(|p| p.kind());
            let aliased_object = owner == Some("object_type")
                && node
                    .parent()
                    .and_then(|p| p.parent())
                    .is_some_and(|p| p.kind() == "type_alias_declaration");
            let declared = node.kind() != "method_signature"
                || matches!(owner, Some("class_body" | "interface_body"))
                || aliased_object;
            declared.then_some("method")
        }
        "definition.function" => match node.kind() {
            "assignment_expression" | "pair" | "function_expression" | "generator_function" => None,
            _ => Some("function"),
        },
        _ => None,
    }
}

/// The shared kind of a plugin symbol, or `None` for kinds tags.scm has no
/// pattern for (fields, properties, enums, type aliases, namespaces,
/// variables, constructors, `#private` methods, `declare module "m"`,
/// anonymous default exports, which lingo names `default`).
fn plugin_common_kind(symbol: &lingo::model::Symbol) -> Option<&'static str> {
    if symbol.name == "default" {
        return None;
    }
    match symbol.language_kind.as_str() {
        "class" => Some("class"),
        "interface" => Some("interface"),
        "module" if !symbol.signature.as_deref().unwrap_or("").contains('"') => Some("module"),
        "method" | "getter" | "setter" | "method_signature" if !symbol.name.starts_with('#') => {
            Some("method")
        }
        "function" | "arrow_function" | "function_signature" => Some("function"),
        _ => None,
    }
}

/// (kind, name, zero-based line, byte offset of the name).
type Declaration = (&'static str, String, u32, u32);

/// Compare one file; returns (tags-only, plugin-only, compared count, calls checked).
struct Comparison {
    only_in_tags: Vec<Declaration>,
    only_in_plugin: Vec<Declaration>,
    compared: usize,
    calls: usize,
    wrong_calls: Vec<String>,
    lines: usize,
}

fn compare(path: &str, source: &str, query: &Query) -> Comparison {
    let tree = parse(path, source);
    let tags = native_tags(query, &tree, source);
    let expected: BTreeSet<Declaration> = tags
        .iter()
        .filter_map(|t| {
            Some((
                common_kind(t)?,
                source[t.name.byte_range()].to_string(),
                t.name.start_position().row as u32,
                t.name.start_byte() as u32,
            ))
        })
        .collect();
    let facts: FileFacts = typescript()
        .analyze(path, source, &[])
        .unwrap_or_else(|e| panic!("analyze {path}: {e}"));
    let actual: BTreeSet<Declaration> = facts
        .symbols
        .iter()
        .filter_map(|s| {
            Some((
                plugin_common_kind(s)?,
                s.name.to_string(),
                s.name_span.start.line,
                s.name_span.start.offset,
            ))
        })
        .collect();
    let calls: HashMap<u32, (&str, ReferenceKind)> = facts
        .references
        .iter()
        .map(|r| (r.span.start.offset, (r.name.as_str(), r.kind)))
        .collect();
    let mut wrong_calls = Vec::new();
    let mut checked = 0;
    for tag in tags.iter().filter(|t| t.capture == "reference.call") {
        // tags.scm captures the arguments of `a.b(...)` as the call and the
        // property as the name; both sides agree on the name's position.
        let name = &source[tag.name.byte_range()];
        checked += 1;
        let found = calls.get(&(tag.name.start_byte() as u32));
        if found != Some(&(name, ReferenceKind::Call)) {
            wrong_calls.push(format!(
                "{path}:{}:{} {name}: plugin has {found:?}",
                tag.name.start_position().row + 1,
                tag.name.start_position().column + 1
            ));
        }
    }
    Comparison {
        only_in_tags: expected.difference(&actual).cloned().collect(),
        only_in_plugin: actual.difference(&expected).cloned().collect(),
        compared: expected.len(),
        calls: checked,
        wrong_calls,
        lines: source.lines().count(),
    }
}

#[test]
fn declarations_match_tree_sitter_typescripts_tags_on_rxjs() {
    let mut kinds = HashMap::<&str, usize>::new();
    let mut lines = 0;
    for (file, path) in REAL_FILES {
        let source = std::fs::read_to_string(fixture(file)).unwrap();
        let tree = parse(path, &source);
        assert!(!tree.root_node().has_error(), "{file} parses cleanly");
        let comparison = compare(path, &source, tags_query(path));
        assert!(
            comparison.only_in_tags.is_empty() && comparison.only_in_plugin.is_empty(),
            "{file}: declarations differ (kind, name, zero-based line, offset)\n\
             only in tags.scm: {:#?}\nonly in the plugin: {:#?}",
            comparison.only_in_tags,
            comparison.only_in_plugin
        );
        let tree_tags = native_tags(tags_query(path), &tree, &source);
        for tag in &tree_tags {
            if let Some(kind) = common_kind(tag) {
                *kinds.entry(kind).or_default() += 1;
            }
        }
        lines += comparison.lines;
    }
    assert!(lines > 2_000, "{lines} lines");
    for kind in ["class", "interface", "method", "function"] {
        assert!(
            kinds.get(kind).is_some_and(|&n| n >= 5),
            "{kind}: {kinds:?}"
        );
    }
}

#[test]
fn calls_tagged_by_tree_sitter_are_plugin_call_references_on_rxjs() {
    let mut checked = 0;
    let mut wrong = Vec::new();
    for (file, path) in REAL_FILES {
        let source = std::fs::read_to_string(fixture(file)).unwrap();
        let comparison = compare(path, &source, tags_query(path));
        checked += comparison.calls;
        wrong.extend(comparison.wrong_calls);
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(checked > 200, "{checked} calls");
}

/// Every `.ts`/`.tsx` file under a folder, recursively, sorted.
fn project_files(root: &Path) -> Vec<PathBuf> {
    let mut files = source_files(root, "ts");
    files.extend(source_files(root, "tsx"));
    files.sort();
    files
}

#[test]
#[ignore = "needs a TypeScript project: LINGO_TS_PROJECT=/path/to/src"]
fn declarations_match_tags_over_a_whole_project() {
    let root = PathBuf::from(std::env::var("LINGO_TS_PROJECT").expect("LINGO_TS_PROJECT"));
    let (mut files, mut lines, mut compared, mut calls) = (0, 0, 0, 0);
    let mut failures = Vec::new();
    for file in project_files(&root) {
        let path = file
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let source = std::fs::read_to_string(&file).unwrap();
        let comparison = compare(&path, &source, tags_query(&path));
        files += 1;
        lines += comparison.lines;
        compared += comparison.compared;
        calls += comparison.calls;
        for d in &comparison.only_in_tags {
            failures.push(format!("{path}: only in tags {d:?}"));
        }
        for d in &comparison.only_in_plugin {
            failures.push(format!("{path}: only in plugin {d:?}"));
        }
        failures.extend(comparison.wrong_calls);
    }
    println!(
        "{files} files, {lines} lines, {compared} declarations and {calls} calls compared, {} differences",
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
