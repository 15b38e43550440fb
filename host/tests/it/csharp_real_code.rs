//! The C# plugin on real code: on files from Python.NET (pythonnet, PyPI
//! sdist; `tests/fixtures/real/csharp/`) the plugin must find exactly the
//! classes, interfaces, methods and namespaces that tree-sitter-c-sharp's
//! own `tags.scm`, run natively, finds, and report every reference it tags
//! with the matching kind. The plugin reports more kinds (structs, records,
//! enums, properties, fields...); the comparison is on the kinds both know.
//!
//! `whole_project_matches_tags_scm` (ignored) runs the same comparison over
//! every `.cs` file under `$LINGO_CSHARP_PROJECT`.

use crate::common;

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use common::tags::{Tag, native_tags, source_files};
use lingo::model::{FileFacts, ReferenceKind};
use lingo::runtime::LanguagePlugin;
use tree_sitter::{Parser, Query, Tree};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/real/csharp")
        .join(name)
}

/// The copied files and the workspace paths they are analysed under.
const REAL_FILES: &[(&str, &str)] = &[
    (
        "pythonnet_ClassDerived.cs",
        "src/runtime/Types/ClassDerived.cs",
    ),
    ("pythonnet_MethodBinder.cs", "src/runtime/MethodBinder.cs"),
    (
        "pythonnet_LibraryLoader.cs",
        "src/runtime/Native/LibraryLoader.cs",
    ),
    ("pythonnet_PythonEngine.cs", "src/runtime/PythonEngine.cs"),
];

fn csharp() -> &'static Arc<dyn LanguagePlugin> {
    common::plugin_for("a.cs")
}

fn parse(source: &str) -> Tree {
    let mut parser = Parser::new();
    parser
        .set_language(&tree_sitter_c_sharp::LANGUAGE.into())
        .unwrap();
    parser.parse(source, None).unwrap()
}

fn tags_query() -> &'static Query {
    static QUERY: OnceLock<Query> = OnceLock::new();
    QUERY.get_or_init(|| {
        let source = std::fs::read_to_string(fixture("tags.scm")).unwrap();
        Query::new(&tree_sitter_c_sharp::LANGUAGE.into(), &source).expect("tags.scm compiles")
    })
}

/// (language kind, name, zero-based line, byte offset of the name).
type Declaration = (String, String, usize, u32);

/// The plugin's `language-kind` for a definition tags.scm found.
fn expected_language_kind(capture: &str) -> &'static str {
    match capture {
        "definition.class" => "class",
        "definition.interface" => "interface",
        "definition.method" => "method",
        "definition.module" => "namespace",
        other => panic!("tags.scm tagged an unexpected {other}"),
    }
}

/// The declarations of one file: (from tags.scm, from the plugin), on the
/// kinds tags.scm knows. tags.scm names only block namespaces with a
/// one-word name; the plugin's other namespaces are left out.
fn declarations(
    source: &str,
    tree: &Tree,
    facts: &FileFacts,
) -> (BTreeSet<Declaration>, BTreeSet<Declaration>) {
    let expected = native_tags(tags_query(), tree, source)
        .iter()
        .filter(|t| t.capture.starts_with("definition."))
        .map(|t| {
            (
                expected_language_kind(&t.capture).to_string(),
                source[t.name.byte_range()].to_string(),
                t.name.start_position().row,
                t.name.start_byte() as u32,
            )
        })
        .collect();
    let one_word_block_namespace = |offset: u32| {
        let name = tree
            .root_node()
            .descendant_for_byte_range(offset as usize, offset as usize);
        name.is_some_and(|n| {
            n.kind() == "identifier"
                && n.parent()
                    .is_some_and(|p| p.kind() == "namespace_declaration")
        })
    };
    let actual = facts
        .symbols
        .iter()
        .filter(|s| match s.language_kind.as_str() {
            "class" | "interface" | "method" => true,
            "namespace" => one_word_block_namespace(s.name_span.start.offset),
            _ => false,
        })
        .map(|s| {
            (
                s.language_kind.to_string(),
                s.name.to_string(),
                s.name_span.start.line as usize,
                s.name_span.start.offset,
            )
        })
        .collect();
    (expected, actual)
}

/// The reference kind the plugin gives a name tags.scm tags as a reference.
fn expected_reference_kind(tag: &Tag) -> ReferenceKind {
    match (tag.capture.as_str(), tag.node.kind()) {
        ("reference.send", _) => ReferenceKind::Call,
        ("reference.class", "object_creation_expression") => ReferenceKind::Call,
        ("reference.interface", _) => ReferenceKind::Extends,
        ("reference.class", "class_declaration") => {
            // The first entry of a class's base list is its base class.
            let first = tag.name.prev_named_sibling().is_none();
            if first {
                ReferenceKind::Extends
            } else {
                ReferenceKind::Implements
            }
        }
        ("reference.class", _) => ReferenceKind::Type,
        (other, kind) => panic!("unexpected tag {other} on {kind}"),
    }
}

/// References tags.scm tags that the plugin lacks or reports otherwise, and
/// how many were checked per tag.
fn reference_mismatches(
    source: &str,
    tree: &Tree,
    facts: &FileFacts,
    file: &str,
) -> (Vec<String>, HashMap<String, usize>) {
    let plugin: HashMap<u32, (&str, ReferenceKind)> = facts
        .references
        .iter()
        .map(|r| (r.span.start.offset, (r.name.as_str(), r.kind)))
        .collect();
    let mut checked = HashMap::<String, usize>::new();
    let mut wrong = Vec::new();
    for tag in native_tags(tags_query(), tree, source)
        .iter()
        .filter(|t| t.capture.starts_with("reference."))
        // A base list's `(_)` also matches a primary constructor's arguments.
        .filter(|t| t.name.kind() != "argument_list")
    {
        // A generic or qualified base (`Base<T>`, `A.Base`) is reported by
        // its name: the identifier the entry starts or ends with.
        let name_node = match tag.name.kind() {
            "generic_name" => tag.name.named_child(0).unwrap(),
            "qualified_name" => tag.name.child_by_field_name("name").unwrap(),
            _ => tag.name,
        };
        let name_node = if name_node.kind() == "generic_name" {
            name_node.named_child(0).unwrap()
        } else {
            name_node
        };
        let name = &source[name_node.byte_range()];
        let expected = expected_reference_kind(tag);
        *checked.entry(tag.capture.clone()).or_default() += 1;
        let found = plugin.get(&(name_node.start_byte() as u32));
        if found != Some(&(name, expected)) {
            wrong.push(format!(
                "{file}:{}:{} {name}: tags.scm {} -> expected {expected:?}, plugin has {found:?}",
                name_node.start_position().row + 1,
                name_node.start_position().column + 1,
                tag.capture
            ));
        }
    }
    (wrong, checked)
}

#[test]
fn declarations_match_tree_sitter_c_sharps_tags_query_on_real_code() {
    let mut kinds = HashMap::<String, usize>::new();
    let mut lines = 0;
    for (file, path) in REAL_FILES {
        let source = std::fs::read_to_string(fixture(file)).unwrap();
        lines += source.lines().count();
        let tree = parse(&source);
        assert!(!tree.root_node().has_error(), "{file} parses cleanly");
        let facts = csharp().analyze(path, &source, &[]).expect("analyze");
        assert!(
            facts.diagnostics.is_empty(),
            "{file}: {:?}",
            facts.diagnostics
        );
        let (expected, actual) = declarations(&source, &tree, &facts);
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
    assert!(lines > 2_500, "{lines} lines");
    // tags.scm tags only one-word namespace names; Python.NET's are all
    // dotted (`Python.Runtime`), so namespaces are compared but not counted.
    for kind in ["class", "interface", "method"] {
        assert!(
            kinds.get(kind).is_some_and(|&n| n > 0),
            "no {kind}: {kinds:?}"
        );
    }
    assert!(kinds.values().sum::<usize>() > 100, "{kinds:?}");
}

#[test]
fn references_tagged_by_tree_sitter_c_sharp_are_plugin_references() {
    let mut checked = HashMap::<String, usize>::new();
    let mut wrong = Vec::new();
    for (file, path) in REAL_FILES {
        let source = std::fs::read_to_string(fixture(file)).unwrap();
        let tree = parse(&source);
        let facts = csharp().analyze(path, &source, &[]).expect("analyze");
        let (file_wrong, file_checked) = reference_mismatches(&source, &tree, &facts, file);
        wrong.extend(file_wrong);
        for (capture, n) in file_checked {
            *checked.entry(capture).or_default() += n;
        }
    }
    assert!(
        wrong.is_empty(),
        "{} mismatches:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    for capture in ["reference.send", "reference.class"] {
        assert!(checked.get(capture).is_some_and(|&n| n > 20), "{checked:?}");
    }
}

#[test]
#[ignore = "needs a C# project: LINGO_CSHARP_PROJECT=/path/to/sources"]
fn whole_project_matches_tags_scm() {
    let root = PathBuf::from(
        std::env::var("LINGO_CSHARP_PROJECT").expect("LINGO_CSHARP_PROJECT names a folder"),
    );
    let files = source_files(&root, "cs");
    let (mut lines, mut declarations_compared, mut references_compared) = (0, 0, 0);
    let mut symbols = 0;
    let mut unclean = Vec::new();
    let mut failures = Vec::new();
    for file in &files {
        let source = std::fs::read_to_string(file).unwrap();
        let relative = file
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        lines += source.lines().count();
        let tree = parse(&source);
        if tree.root_node().has_error() {
            unclean.push(relative.clone());
        }
        let facts = csharp().analyze(&relative, &source, &[]).expect("analyze");
        symbols += facts.symbols.len();
        let (expected, actual) = declarations(&source, &tree, &facts);
        declarations_compared += expected.len();
        for missing in expected.difference(&actual) {
            failures.push(format!("{relative}: only in tags.scm: {missing:?}"));
        }
        for extra in actual.difference(&expected) {
            failures.push(format!("{relative}: only in the plugin: {extra:?}"));
        }
        let (wrong, checked) = reference_mismatches(&source, &tree, &facts, &relative);
        references_compared += checked.values().sum::<usize>();
        failures.extend(wrong);
    }
    eprintln!(
        "{} files, {lines} lines, {symbols} plugin symbols; {declarations_compared} tags.scm \
         definitions and {references_compared} tags.scm references compared; {} files with \
         syntax errors: {unclean:?}",
        files.len(),
        unclean.len()
    );
    assert!(
        failures.is_empty(),
        "{} differences:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
