//! Tests of the edit hooks, run natively (`cargo test -p lingo-plugin-java`).

use lingo_plugin_sdk::testing::{self, apply};
use lingo_plugin_sdk::types::PluginError;
use tree_sitter::Tree;

use crate::{Java, imports, placement};

fn parse(source: &str) -> Tree {
    testing::parse::<Java>("src/a/A.java", source)
}

fn add(source: &str, module: &str, names: &[&str]) -> String {
    let tree = parse(source);
    let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
    let edits = imports::render_import(tree.root_node(), source, module, &names)
        .expect("the import renders");
    apply(source, &edits)
}

fn remove(source: &str, module: &str, name: Option<&str>) -> Result<String, PluginError> {
    let tree = parse(source);
    imports::remove_import(tree.root_node(), source, module, name).map(|e| apply(source, &e))
}

#[test]
fn render_import_keeps_imports_sorted_statics_last() {
    let source = "package a;\n\nimport java.io.File;\nimport java.util.List;\nimport static org.junit.Assert.assertEquals;\n\nclass A {}\n";
    assert_eq!(
        add(source, "java.util", &["Map"]),
        "package a;\n\nimport java.io.File;\nimport java.util.List;\nimport java.util.Map;\nimport static org.junit.Assert.assertEquals;\n\nclass A {}\n"
    );
    assert_eq!(
        add(source, "com.acme", &[]),
        "package a;\n\nimport com.acme.*;\nimport java.io.File;\nimport java.util.List;\nimport static org.junit.Assert.assertEquals;\n\nclass A {}\n"
    );
    // Already imported: nothing to do.
    assert_eq!(add(source, "java.util", &["List"]), source);
}

#[test]
fn render_import_without_imports_goes_after_the_package_clause() {
    let source = "package a;\n\nclass A {}\n";
    assert_eq!(
        add(source, "b.c", &["D"]),
        "package a;\n\nimport b.c.D;\n\nclass A {}\n"
    );
    let source = "// Header.\n\n/** A. */\nclass A {}\n";
    assert_eq!(
        add(source, "b", &["D"]),
        "// Header.\n\nimport b.D;\n\n/** A. */\nclass A {}\n"
    );
    let tree = parse(source);
    assert!(imports::render_import(tree.root_node(), source, "a b-c", &[]).is_err());
}

#[test]
fn remove_import_by_name_or_module() {
    let source =
        "package a;\n\nimport b.C;\nimport b.D;\nimport static b.E.f;\nimport c.*;\n\nclass A {}\n";
    assert_eq!(
        remove(source, "b", Some("C")).expect("removed"),
        "package a;\n\nimport b.D;\nimport static b.E.f;\nimport c.*;\n\nclass A {}\n"
    );
    assert_eq!(
        remove(source, "b", None).expect("removed"),
        "package a;\n\nimport static b.E.f;\nimport c.*;\n\nclass A {}\n"
    );
    assert_eq!(
        remove(source, "b.E", Some("f")).expect("removed"),
        "package a;\n\nimport b.C;\nimport b.D;\nimport c.*;\n\nclass A {}\n"
    );
    assert!(remove(source, "c", Some("X")).is_err());
    assert!(remove(source, "z", None).is_err());
}

#[test]
fn a_nested_type_moves_to_a_new_file_of_its_package() {
    let source = "package a;\n\npublic class Outer {\n    /** The inner one. */\n    private static class Inner {\n        int x;\n    }\n}\n";
    let tree = parse(source);
    let start = source.find("private static").expect("present");
    let end = source.find("    }\n}").expect("present") + 5;
    let edits = placement::place_declaration(
        tree.root_node(),
        source,
        start,
        end,
        parse("").root_node(),
        "",
        "",
    )
    .expect("placed");
    assert_eq!(
        apply("", &edits),
        "package a;\n\n/** The inner one. */\nclass Inner {\n    int x;\n}\n"
    );
    let (from, to) =
        placement::declaration_extent(tree.root_node(), source, start, end).expect("extent");
    assert_eq!(
        format!("{}{}", &source[..from], &source[to..]),
        "package a;\n\npublic class Outer {\n}\n"
    );
}

#[test]
fn a_public_type_joins_no_file_that_has_one() {
    let source = "package a;\n\npublic class Moved {}\n";
    let tree = parse(source);
    let start = source.find("public class").expect("present");
    let end = source.len() - 1;
    let target = "package a;\n\npublic class Here {}\n";
    let refused = placement::place_declaration(
        tree.root_node(),
        source,
        start,
        end,
        parse(target).root_node(),
        target,
        "a",
    );
    assert!(refused.is_err());
    let target = "package a;\n\nclass Here {}\n";
    let edits = placement::place_declaration(
        tree.root_node(),
        source,
        start,
        end,
        parse(target).root_node(),
        target,
        "a",
    )
    .expect("placed");
    assert_eq!(
        apply(target, &edits),
        "package a;\n\nclass Here {}\n\npublic class Moved {}\n"
    );
}
