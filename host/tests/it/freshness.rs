//! Freshness without a walk per request: the file a request names is
//! stat'ed, so an edit to it shows at once; other changes show after the
//! watcher's report or, without a watcher, within the recheck interval.

use crate::common;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use lingo::workspace::{UNWATCHED_RECHECK, Workspace};

/// A fresh directory under the target's temporary folder.
fn scratch(name: &str) -> PathBuf {
    let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("freshness-{name}"));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(root.join("src")).expect("create the scratch tree");
    root
}

/// The names declared in `path`, as the index has them for a request about
/// that file.
fn declared(workspace: &Arc<Workspace>, path: &str) -> Vec<String> {
    let (_, file) = workspace.fresh_file(path).expect("the file is indexed");
    let facts = file.facts().expect("facts");
    facts.symbols.iter().map(|s| s.name.to_string()).collect()
}

#[test]
fn an_edit_to_the_file_a_request_names_shows_at_once_without_a_watcher() {
    let root = scratch("unwatched");
    std::fs::write(root.join("src/lib.rs"), "pub fn alpha() {}\n").unwrap();
    let workspace = Arc::new(Workspace::new(&root, common::registry().clone()).unwrap());
    assert_eq!(declared(&workspace, "src/lib.rs"), ["alpha"]);

    // Within the recheck interval, a request about the edited file sees it
    // (a different size), and so does one about a file just created.
    std::fs::write(root.join("src/lib.rs"), "pub fn alphabet() {}\n").unwrap();
    assert_eq!(declared(&workspace, "src/lib.rs"), ["alphabet"]);
    std::fs::write(root.join("src/extra.rs"), "pub fn beta() {}\n").unwrap();
    assert_eq!(declared(&workspace, "src/extra.rs"), ["beta"]);

    // Past the interval, a workspace-wide request sees every change.
    std::fs::write(root.join("src/late.rs"), "pub fn gamma() {}\n").unwrap();
    std::thread::sleep(UNWATCHED_RECHECK + Duration::from_millis(50));
    let snapshot = workspace.fresh();
    assert!(
        snapshot.file("src/late.rs").is_some(),
        "late.rs not indexed"
    );
}

#[test]
fn with_a_watcher_a_workspace_wide_request_sees_a_reported_change() {
    let root = scratch("watched");
    std::fs::write(root.join("src/lib.rs"), "pub fn alpha() {}\n").unwrap();
    let mut workspace = Workspace::new(&root, common::registry().clone()).unwrap();
    assert!(workspace.watch(), "inotify is available");
    let workspace = Arc::new(workspace);
    let first = workspace.fresh();
    assert!(first.file("src/lib.rs").is_some());
    // Nothing changed: the same generation, no refresh.
    assert_eq!(workspace.fresh().generation, first.generation);

    std::fs::write(root.join("src/other.rs"), "pub fn delta() {}\n").unwrap();
    // The notice arrives a moment after the write.
    let started = Instant::now();
    let mut snapshot = workspace.fresh();
    while snapshot.file("src/other.rs").is_none() && started.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(10));
        snapshot = workspace.fresh();
    }
    assert!(
        snapshot.file("src/other.rs").is_some(),
        "other.rs not indexed"
    );
    assert!(snapshot.generation > first.generation);
}

/// A file the first index has not reached yet is not indexed for a reason
/// the answer gives: indexing is under way, not an ignore rule.
#[test]
fn a_file_the_first_index_has_not_reached_says_so() {
    let root = scratch("first-index-pending");
    let workspace = Workspace::new(&root, common::registry().clone()).unwrap();
    workspace.refresh();
    // A snapshot published before the index reached the file.
    let mut pending = workspace.snapshot();
    pending.partial = Some(lingo::workspace::Progress {
        indexed: 0,
        total: 1,
    });
    std::fs::write(root.join("src/lib.rs"), "pub fn alpha() {}\n").unwrap();
    let Err(error) = workspace.file(&pending, "src/lib.rs") else {
        panic!("not in the snapshot, so not indexed");
    };
    let message = error.to_string();
    assert!(
        message.contains("the first index has not reached it yet (0 of 1 files)"),
        "{message}"
    );
}
