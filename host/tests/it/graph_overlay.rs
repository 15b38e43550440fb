//! A graph laid over the last full build (the changed files' edges over
//! its base) answers exactly as a graph built whole from the same files:
//! the same edges at every node in the same order, the same misses, counts
//! and edge count, through a chain of edits, and a change of shape builds
//! it whole again.

use crate::common;
use lingo::resolve::Resolved;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use lingo::graph::CodeGraph;
use lingo::workspace::Workspace;
use petgraph::Direction;
use petgraph::graph::NodeIndex;

/// A crate of `FILES` files calling each other's functions, with calls
/// nothing declares.
const FILES: usize = 12;

fn file_text(i: usize, variant: &str) -> String {
    let next = (i + 1) % FILES;
    let prev = (i + FILES - 1) % FILES;
    format!(
        "use crate::m{next}::f{next};\n\
         pub struct S{i} {{ pub v: u32 }}\n\
         impl S{i} {{\n    pub fn get(&self) -> u32 {{ self.v }}\n}}\n\
         pub fn f{i}() -> u32 {{\n    {variant}\n    f{next}() + crate::m{prev}::f{prev}() + missing_{i}()\n}}\n\
         pub fn g{i}(s: &S{i}) -> u32 {{ s.get() + f{i}() }}\n"
    )
}

fn tree(name: &str) -> PathBuf {
    let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("graph-overlay-{name}"));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(root.join("src")).unwrap();
    let mods: String = (0..FILES).map(|i| format!("pub mod m{i};\n")).collect();
    std::fs::write(root.join("src/lib.rs"), mods).unwrap();
    for i in 0..FILES {
        std::fs::write(root.join(format!("src/m{i}.rs")), file_text(i, "")).unwrap();
    }
    root
}

/// Everything a query can see of `graph`, in the order it sees it.
fn observed(graph: &CodeGraph, snapshot: &lingo::workspace::Snapshot) -> Vec<String> {
    let mut out = vec![
        format!("edges {}", graph.edge_count()),
        format!("counts {:?}", graph.counts()),
    ];
    for index in 0..graph.node_count() {
        let node = graph.weight(NodeIndex::new(index));
        for direction in [Direction::Outgoing, Direction::Incoming] {
            let edges: Vec<String> = graph
                .edges(node, direction)
                .map(|(edge, other)| format!("{edge:?} {other:?}"))
                .collect();
            out.push(format!("{node:?} {direction:?} {edges:?}"));
        }
    }
    out.extend(
        graph
            .all_edges()
            .map(|(from, to, edge)| format!("all {from:?} {to:?} {edge:?}")),
    );
    let table = snapshot.table().expect("no budget: never cut short");
    for i in 0..FILES {
        let name = format!("missing_{i}");
        let misses: Vec<String> = graph
            .unresolved_named(&table, &name)
            .map(|miss| format!("{miss:?}"))
            .collect();
        out.push(format!("{name} {misses:?}"));
    }
    out
}

/// The graph a fresh workspace builds whole from the files of `root`.
fn built_whole(root: &Path) -> Vec<String> {
    let workspace = Workspace::new(root, common::registry().clone()).unwrap();
    workspace.refresh();
    let snapshot = workspace.snapshot();
    let graph = snapshot.graph().expect("no budget: never cut short");
    assert_eq!(graph.files_laid_over(), 0);
    observed(&graph, &snapshot)
}

fn compare(laid: &[String], whole: &[String], step: &str) {
    assert_eq!(laid.len(), whole.len(), "{step}: different sizes");
    for (a, b) in laid.iter().zip(whole) {
        assert_eq!(a, b, "{step}");
    }
}

#[test]
fn edits_laid_over_the_base_answer_as_a_whole_build() {
    let root = tree("chain");
    let workspace = Arc::new(Workspace::new(&root, common::registry().clone()).unwrap());
    workspace.refresh();
    let first = workspace
        .snapshot()
        .graph()
        .expect("no budget: never cut short");
    assert_eq!(first.files_laid_over(), 0);
    assert!(first.edge_count() > FILES * 4, "{}", first.edge_count());

    // Bodies change, declarations do not: each step is laid over the base.
    let steps: [(usize, &str, usize); 4] = [
        (3, "let _x = f5() + missing_extra();", 1),
        (7, "let _y = crate::m2::g2(&crate::m2::S2 { v: 1 });", 2),
        (3, "", 2),
        (0, "let _z = f9();", 3),
    ];
    for (step, (file, variant, laid_files)) in steps.iter().enumerate() {
        std::fs::write(
            root.join(format!("src/m{file}.rs")),
            file_text(*file, variant),
        )
        .unwrap();
        workspace.refresh();
        let snapshot = workspace.snapshot();
        let graph = snapshot.graph().expect("no budget: never cut short");
        assert_eq!(graph.files_laid_over(), *laid_files, "step {step}");
        compare(
            &observed(&graph, &snapshot),
            &built_whole(&root),
            &format!("step {step}"),
        );
    }

    // A new declaration changes a file's shape: the graph is built whole.
    let mut text = file_text(5, "");
    text.push_str("pub fn added() -> u32 { f5() }\n");
    std::fs::write(root.join("src/m5.rs"), text).unwrap();
    workspace.refresh();
    let snapshot = workspace.snapshot();
    let graph = snapshot.graph().expect("no budget: never cut short");
    assert_eq!(graph.files_laid_over(), 0);
    compare(
        &observed(&graph, &snapshot),
        &built_whole(&root),
        "new shape",
    );
}

/// What other files' references resolve through, besides declarations,
/// imports and modules: a function's declared return type and a type's
/// base list. Changing either in one file changes how an unchanged file's
/// references resolve, so those are resolved again.
#[test]
fn a_changed_return_type_or_base_list_resolves_the_other_files_again() {
    let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("graph-overlay-types");
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::write(root.join("src/lib.rs"), "pub mod kinds;\npub mod uses;\n").unwrap();
    let kinds = |returned: &str, base: &str| {
        format!(
            "pub struct Foo;\nimpl Foo {{\n    pub fn bar(&self) {{}}\n}}\n\
             pub struct Baz;\nimpl Baz {{\n    pub fn bar(&self) {{}}\n}}\n\
             pub trait Loud {{\n    fn shout(&self) {{}}\n}}\n\
             pub trait Quiet {{\n    fn shout(&self) {{}}\n}}\n\
             pub trait Voice: {base} {{}}\n\
             pub fn make() -> {returned} {{\n    {returned}\n}}\n"
        )
    };
    std::fs::write(root.join("src/kinds.rs"), kinds("Foo", "Loud")).unwrap();
    std::fs::write(
        root.join("src/uses.rs"),
        "use crate::kinds::{make, Voice};\npub fn call() {\n    make().bar();\n}\npub fn speak(v: &dyn Voice) {\n    v.shout();\n}\n",
    )
    .unwrap();
    let workspace = Arc::new(Workspace::new(&root, common::registry().clone()).unwrap());
    workspace.refresh();
    let _ = workspace
        .snapshot()
        .graph()
        .expect("no budget: never cut short");
    for (step, (returned, base)) in [("Baz", "Loud"), ("Baz", "Quiet")].into_iter().enumerate() {
        std::fs::write(root.join("src/kinds.rs"), kinds(returned, base)).unwrap();
        workspace.refresh();
        let snapshot = workspace.snapshot();
        let graph = snapshot.graph().expect("no budget: never cut short");
        compare(
            &observed(&graph, &snapshot),
            &built_whole(&root),
            &format!("step {step}: make() -> {returned}, Voice: {base}"),
        );
    }
}
