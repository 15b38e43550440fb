//! Macros across files, through the index: a definition in one file makes
//! the declarations of the invocations in others; an edit to it re-analyses
//! its users; a start on a stored index gives nothing again; and the
//! tokens of an expanded invocation are read once.

use crate::common;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use lingo::analysis::{Analysis, SymbolQuery, Target};
use lingo::workspace::Workspace;

const MANIFEST: &str = "[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n";
const MACROS: &str =
    "macro_rules! cfg_rt {\n    ($($item:item)*) => { $( #[cfg(feature = \"rt\")] $item )* }\n}\n";
const RUNTIME: &str = "cfg_rt! {\n    pub struct Runtime;\n    pub fn spawn() {}\n}\n\npin_project! {\n    pub struct Pinned { runtime: Runtime }\n}\n";

/// A crate whose `src/runtime.rs` declares through `src/macros.rs`'s macro.
fn scratch(name: &str) -> PathBuf {
    let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("macros-{name}"));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(root.join("src")).unwrap();
    for (path, text) in [
        ("Cargo.toml", MANIFEST),
        (
            "src/lib.rs",
            "#[macro_use]\nmod macros;\npub mod runtime;\n",
        ),
        ("src/macros.rs", MACROS),
        ("src/runtime.rs", RUNTIME),
    ] {
        std::fs::write(root.join(path), text).unwrap();
    }
    root
}

/// The names `path` declares in `workspace`'s current index.
fn declared(workspace: &Arc<Workspace>, path: &str) -> Vec<String> {
    let snapshot = workspace.snapshot();
    let file = snapshot.file(path).expect("indexed");
    let facts = file.facts().expect("facts");
    facts.symbols.iter().map(|s| s.name.to_string()).collect()
}

fn cache(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("macros-cache-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn another_files_definition_declares_and_an_edit_to_it_reanalyses_its_users() {
    let root = scratch("edit");
    let cache = cache("edit");
    let workspace =
        Arc::new(Workspace::with_store(&root, common::registry().clone(), &cache).unwrap());
    let stats = workspace.refresh();
    assert_eq!(stats.expanded_again, 1, "{stats:?}");
    assert_eq!(declared(&workspace, "src/runtime.rs"), ["Runtime", "spawn"]);
    let snapshot = workspace.snapshot();
    let facts = snapshot.file("src/runtime.rs").unwrap().facts().unwrap();
    assert_eq!(
        facts.macros_given,
        [("cfg_rt".to_string(), "src/macros.rs".to_string())]
    );
    // What is left unexpanded says so: another crate's macro.
    let left: Vec<&str> = facts
        .unexpanded_macros
        .iter()
        .map(|u| u.name.as_str())
        .collect();
    assert_eq!(left, ["pin_project"]);

    // A start on the stored index: nothing analysed, nothing expanded again.
    let again = Workspace::with_store(&root, common::registry().clone(), &cache).unwrap();
    let stats = again.refresh();
    assert_eq!((stats.analyzed, stats.expanded_again), (0, 0), "{stats:?}");
    assert_eq!(
        declared(&Arc::new(again), "src/runtime.rs"),
        ["Runtime", "spawn"]
    );

    // The definition now drops what it is given: its user, unchanged on
    // disk, is analysed again and declares nothing.
    std::fs::write(
        root.join("src/macros.rs"),
        "macro_rules! cfg_rt {\n    ($($item:item)*) => {};\n}\n",
    )
    .unwrap();
    let stats = workspace.refresh();
    assert_eq!((stats.analyzed, stats.expanded_again), (1, 1), "{stats:?}");
    assert!(declared(&workspace, "src/runtime.rs").is_empty());

    // The definition gone: the user is analysed without it and says so.
    std::fs::write(root.join("src/macros.rs"), "").unwrap();
    workspace.refresh();
    let snapshot = workspace.snapshot();
    let facts = snapshot.file("src/runtime.rs").unwrap().facts().unwrap();
    assert!(facts.macros_given.is_empty());
    assert_eq!(facts.unexpanded_macros.len(), 2, "{facts:?}");
}

#[test]
fn an_edited_user_read_before_the_refresh_gets_the_definitions_too() {
    let root = scratch("fresh-file");
    let workspace = Arc::new(Workspace::new(&root, common::registry().clone()).unwrap());
    workspace.refresh();
    std::fs::write(
        root.join("src/runtime.rs"),
        "cfg_rt! {\n    pub struct Handle;\n}\n",
    )
    .unwrap();
    let (_, file) = workspace.fresh_file("src/runtime.rs").unwrap();
    let names: Vec<String> = file
        .facts()
        .unwrap()
        .symbols
        .iter()
        .map(|s| s.name.to_string())
        .collect();
    assert_eq!(names, ["Handle"]);
}

#[test]
fn an_expanded_invocations_tokens_are_read_once_and_unexpanded_ones_still_reference() {
    let root = scratch("references");
    let workspace = Arc::new(Workspace::new(&root, common::registry().clone()).unwrap());
    workspace.refresh();
    let analysis = Analysis::new(workspace.clone(), workspace.snapshot()).unwrap();
    let runtime = analysis
        .references(&Target::Symbol(SymbolQuery {
            name: "Runtime".into(),
            path: None,
        }))
        .unwrap();
    // The declaration's name inside `cfg_rt! { .. }` is no use of it (the
    // grammar's reading of the token tree is replaced by the expansion's);
    // the field type inside `pin_project! { .. }`, which nothing expands,
    // is one.
    let lines: Vec<u32> = runtime
        .sites
        .iter()
        .map(|s| s.site.range.start.line + 1)
        .collect();
    assert_eq!(lines, [7], "{runtime:#?}");
    assert!(runtime.completeness.complete, "{:?}", runtime.completeness);
}

/// A chain of definitions, each expanding to the next one's invocation
/// (found only by expanding the one before), settles in the first refresh:
/// the user declares what the last one makes, and a start on the stored
/// index has nothing left to expand. (Vendored crates need 7 rounds.)
#[test]
fn a_chain_of_macros_settles_in_one_refresh() {
    const STEPS: usize = 7;
    let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("macros-chain");
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::write(root.join("Cargo.toml"), MANIFEST).unwrap();
    let mut lib = String::new();
    for step in 1..=STEPS {
        let body = if step == STEPS {
            "$($item)*".to_string()
        } else {
            format!("step{}! {{ $($item)* }}", step + 1)
        };
        std::fs::write(
            root.join(format!("src/step{step}.rs")),
            format!("macro_rules! step{step} {{\n    ($($item:item)*) => {{ {body} }};\n}}\n"),
        )
        .unwrap();
        lib.push_str(&format!("#[macro_use]\nmod step{step};\n"));
    }
    lib.push_str("pub mod user;\n");
    std::fs::write(root.join("src/lib.rs"), lib).unwrap();
    std::fs::write(root.join("src/user.rs"), "step1! { pub fn deepest() {} }\n").unwrap();
    let cache = cache("chain");
    let workspace =
        Arc::new(Workspace::with_store(&root, common::registry().clone(), &cache).unwrap());
    workspace.refresh();
    assert_eq!(declared(&workspace, "src/user.rs"), ["deepest"]);
    let again = Workspace::with_store(&root, common::registry().clone(), &cache).unwrap();
    let stats = again.refresh();
    assert_eq!((stats.analyzed, stats.expanded_again), (0, 0), "{stats:?}");
}
