//! The graph's resolutions kept with the index: a restart answers as the
//! first run did, from saved rows, and rows that do not decode or fit are
//! resolved again instead of trusted.

use crate::common;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use lingo::tools::{ToolContext, ToolRegistry};
use lingo::workspace::{DerivedRow, IndexStore, Workspace};
use serde_json::{Value, json};

/// A small Rust crate whose references cross files.
fn tree(name: &str) -> (PathBuf, PathBuf) {
    let base = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("graph-persist-{name}"));
    let _ = std::fs::remove_dir_all(&base);
    let root = base.join("ws");
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::write(
        root.join("src/lib.rs"),
        "mod shapes;\nuse crate::shapes::area;\npub fn total() -> u32 { area(2) + area(3) }\n",
    )
    .unwrap();
    std::fs::write(
        root.join("src/shapes.rs"),
        "pub fn area(side: u32) -> u32 { side * side }\npub fn twice() -> u32 { area(1) * 2 }\n",
    )
    .unwrap();
    (root, base.join("cache"))
}

/// `find_references` of `area` as (file, line) pairs, from a new workspace
/// on `root` with its database under `cache`.
fn references_of_area(root: &Path, cache: &Path) -> Vec<(String, u64)> {
    let workspace = Workspace::with_store(root, common::registry().clone(), cache).unwrap();
    let tools = ToolRegistry::new();
    let context = ToolContext {
        workspace: Arc::new(workspace),
        tool_names: tools.names(),
        gate: Default::default(),
    };
    let answer: Value = tools
        .call(
            tools.find("find_references").unwrap(),
            &context,
            &json!({ "symbol": "area", "path": "src/shapes.rs", "format": "json" }),
        )
        .expect("find_references answers")
        .value();
    let mut sites: Vec<(String, u64)> = answer["references"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["file_path"].as_str().unwrap().to_string(),
                r["range"]["start"]["line"].as_u64().unwrap(),
            )
        })
        .collect();
    sites.sort();
    sites
}

/// The saved graph rows, once the background save wrote them.
fn saved_rows(root: &Path, cache: &Path, files: usize) -> Vec<DerivedRow> {
    let store = IndexStore::open(cache, &root.canonicalize().unwrap()).unwrap();
    let started = Instant::now();
    loop {
        let (_, _, rows) = store.load_derived("graph").unwrap();
        if rows.len() == files || started.elapsed() > Duration::from_secs(10) {
            return rows.into_values().collect();
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_restart_answers_from_the_saved_graph_as_the_first_run_did() {
    let (root, cache) = tree("restart");
    let first = references_of_area(&root, &cache);
    assert_eq!(
        first.iter().filter(|(f, _)| f == "src/lib.rs").count(),
        3,
        "the import and two calls in lib.rs: {first:?}"
    );
    assert_eq!(saved_rows(&root, &cache, 2).len(), 2, "one row per file");
    assert_eq!(references_of_area(&root, &cache), first);
}

/// A postcard `FileEdges` of file 1 with one edge to symbol 100 of file 1
/// (which has 2): it decodes, but does not fit the snapshot.
const EDGE_OUT_OF_RANGE: [u8; 23] = [
    1, // one edge
    0, 1, 0, // from Symbol { file: 1, symbol: 0 }
    0, 1, 100, // to Symbol { file: 1, symbol: 100 }
    2,   // REFERENCES
    1, 1, 0, // site Some { file: 1, reference: 0 }
    1, // resolved in scope
    0x00, 0x00, 0x80, 0x3f, // confidence 1.0
    0,    // no misses
    0, 0, 0, 0, 0, 0, // counts
];

#[test]
fn saved_rows_that_do_not_decode_or_fit_are_resolved_again() {
    let (root, cache) = tree("garbage");
    let first = references_of_area(&root, &cache);
    let rows = saved_rows(&root, &cache, 2);
    assert_eq!(rows.len(), 2);
    // Same files, same identities, but the edges replaced: by bytes that do
    // not decode, and by an edge to a symbol the file does not have.
    let store = IndexStore::open(&cache, &root.canonicalize().unwrap()).unwrap();
    let (context, _, _) = store.load_derived("graph").unwrap();
    let broken: Vec<DerivedRow> = rows
        .into_iter()
        .map(|row| DerivedRow {
            blob: if row.path == "src/lib.rs" {
                vec![0xff; 7]
            } else {
                EDGE_OUT_OF_RANGE.to_vec()
            },
            ..row
        })
        .collect();
    assert!(
        store
            .save_derived("graph", u64::MAX, None, &context.unwrap(), &broken)
            .unwrap()
    );
    drop(store);
    // Both rows are resolved again: every use is there, nothing panicked.
    assert_eq!(references_of_area(&root, &cache), first);
}

#[test]
fn saves_never_mix_generations() {
    let (root, cache) = tree("generations");
    let store = IndexStore::open(&cache, &root.canonicalize().unwrap()).unwrap();
    let row = |path: &str, byte: u8| DerivedRow {
        path: path.to_string(),
        sha256: "s".into(),
        key: 1,
        blob: vec![byte],
    };
    let rows = |store: &IndexStore| {
        let (_, generation, rows) = store.load_derived("test").unwrap();
        let mut blobs: Vec<(String, u8)> =
            rows.into_values().map(|r| (r.path, r.blob[0])).collect();
        blobs.sort();
        (generation, blobs)
    };
    // A whole set, then an update on top of it.
    assert!(
        store
            .save_derived("test", 5, None, "c", &[row("a", 1), row("b", 1)])
            .unwrap()
    );
    assert!(
        store
            .save_derived("test", 6, Some(5), "c", &[row("a", 2)])
            .unwrap()
    );
    assert_eq!(
        rows(&store),
        (Some(6), vec![("a".into(), 2), ("b".into(), 1)])
    );
    // An update on top of a generation the store does not hold drops all.
    assert!(
        !store
            .save_derived("test", 8, Some(7), "c", &[row("b", 3)])
            .unwrap()
    );
    assert_eq!(rows(&store), (Some(8), vec![]));
    // A save older than the last one is dropped, whole set or not.
    assert!(
        !store
            .save_derived("test", 7, None, "c", &[row("a", 4), row("b", 4)])
            .unwrap()
    );
    assert_eq!(rows(&store), (Some(8), vec![]));
}

/// A postcard `FileEdges` with no edges, no misses and zero counts: it
/// decodes and fits any file.
const NO_EDGES: [u8; 8] = [0, 0, 0, 0, 0, 0, 0, 0];

/// Saved rows are a cache of this build's resolution: rows another build
/// of lingo saved (another resolver, perhaps with other rules) are
/// resolved again, while this build's own are trusted, wrong as they are.
#[test]
fn rows_another_build_saved_are_resolved_again() {
    let (root, cache) = tree("other-build");
    let first = references_of_area(&root, &cache);
    let rows = saved_rows(&root, &cache, 2);
    let store = IndexStore::open(&cache, &root.canonicalize().unwrap()).unwrap();
    let (context, _, _) = store.load_derived("graph").unwrap();
    let context = context.unwrap();
    let emptied: Vec<DerivedRow> = rows
        .into_iter()
        .map(|row| DerivedRow {
            blob: NO_EDGES.to_vec(),
            ..row
        })
        .collect();
    let (manifests, build) = context.split_once(' ').expect("manifests, then the build");
    assert!(build.starts_with("lingo "), "{context}");
    let other_build = format!("{manifests} lingo 0.0.0 1 2");
    assert!(
        store
            .save_derived("graph", u64::MAX, None, &other_build, &emptied)
            .unwrap()
    );
    drop(store);
    assert_eq!(references_of_area(&root, &cache), first);

    // The same rows under this build's context are trusted: the uses of
    // `area` in other files are gone (only its own declaration is left).
    let (root, cache) = tree("this-build");
    assert_eq!(references_of_area(&root, &cache), first);
    let rows = saved_rows(&root, &cache, 2);
    let store = IndexStore::open(&cache, &root.canonicalize().unwrap()).unwrap();
    let (context, _, _) = store.load_derived("graph").unwrap();
    let emptied: Vec<DerivedRow> = rows
        .into_iter()
        .map(|row| DerivedRow {
            blob: NO_EDGES.to_vec(),
            ..row
        })
        .collect();
    assert!(
        store
            .save_derived("graph", u64::MAX, None, &context.unwrap(), &emptied)
            .unwrap()
    );
    drop(store);
    assert_ne!(references_of_area(&root, &cache), first);
}

/// A graph laid over one the database does not hold (there: rows saved
/// by another build; in use: a first graph built from a partial first
/// index, which is not saved) is saved whole, so that a restart reuses
/// every file's rows instead of resolving the whole tree again.
#[test]
fn a_graph_built_on_resolutions_the_database_lacks_is_saved_whole() {
    let (root, cache) = tree("saved-whole");
    let workspace = Workspace::with_store(&root, common::registry().clone(), &cache).unwrap();
    let tools = ToolRegistry::new();
    let context = ToolContext {
        workspace: Arc::new(workspace),
        tool_names: tools.names(),
        gate: Default::default(),
    };
    let references = |context: &ToolContext| -> Value {
        tools
            .call(
                tools.find("find_references").unwrap(),
                context,
                &json!({ "symbol": "area", "path": "src/shapes.rs", "format": "json" }),
            )
            .expect("find_references answers")
            .value()
    };
    let first = references(&context);
    assert_eq!(saved_rows(&root, &cache, 2).len(), 2);
    // The database's rows of this generation replaced by another build's
    // (none): what the graph in memory was built from is not held.
    let store = IndexStore::open(&cache, &root.canonicalize().unwrap()).unwrap();
    let (_, generation, _) = store.load_derived("graph").unwrap();
    let generation = generation.expect("a saved generation");
    assert!(
        store
            .save_derived("graph", generation, None, "another build", &[])
            .unwrap()
    );
    // One file's body changes, not its shape: the next graph reuses the
    // other file's resolutions from the graph in memory.
    std::fs::write(
        root.join("src/shapes.rs"),
        "pub fn area(side: u32) -> u32 { side * side + 0 }\npub fn twice() -> u32 { area(1) * 2 }\n",
    )
    .unwrap();
    context.workspace.refresh();
    let sites = |answer: &Value| -> Vec<(Value, Value)> {
        let listed = answer["references"].as_array().cloned().unwrap_or_default();
        listed
            .iter()
            .map(|r| (r["file_path"].clone(), r["range"]["start"].clone()))
            .collect()
    };
    assert_eq!(sites(&references(&context)), sites(&first));
    lingo::graph::wait_for_saves(Duration::from_secs(30));
    let (saved_context, _, rows) = store.load_derived("graph").unwrap();
    assert_eq!(
        rows.len(),
        2,
        "every file's row, not only the changed one's"
    );
    assert_ne!(saved_context.as_deref(), Some("another build"));
}
