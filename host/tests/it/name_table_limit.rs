//! The process's table of names is bounded, and names no fact holds are
//! released. Once the table holds its limit, files are not indexed (each
//! says why, with a stable code) instead of the table growing without end;
//! the names of removed projects and of rewritten files are freed, so a
//! hosted server whose projects come and go never reaches that limit. The
//! limit is process-wide, so each test runs its body in a child process of
//! this binary.

use crate::common;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use lingo::projects::access::Grant;
use lingo::projects::config::ProjectsFile;
use lingo::projects::{ProjectRegistry, WorkspaceOpener};
use lingo::workspace::Workspace;

/// Set, to the test's name, in the child process that runs its body.
const CHILD: &str = "LINGO_TEST_NAME_TABLE_CHILD";

/// Run `body` alone in a child process of this test binary: `test` is its
/// name within this module.
fn in_child_process(test: &str, body: fn()) {
    if std::env::var(CHILD).as_deref() == Ok(test) {
        return body();
    }
    let output = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            &format!("name_table_limit::{test}"),
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD, test)
        .output()
        .expect("run this test binary again");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success() && stdout.contains("1 passed"),
        "the child process failed ({}):\n{stdout}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn past_the_limit_of_names_files_are_refused_with_a_reason_and_the_rest_stay_indexed() {
    in_child_process(
        "past_the_limit_of_names_files_are_refused_with_a_reason_and_the_rest_stay_indexed",
        fill_the_table_past_its_limit,
    );
}

#[test]
fn projects_created_and_removed_again_and_again_never_fill_the_table() {
    in_child_process(
        "projects_created_and_removed_again_and_again_never_fill_the_table",
        create_and_remove_projects_past_the_limit,
    );
}

#[test]
fn a_file_rewritten_with_new_names_again_and_again_never_fills_the_table() {
    in_child_process(
        "a_file_rewritten_with_new_names_again_and_again_never_fills_the_table",
        rewrite_a_file_past_the_limit,
    );
}

/// Each round's names: three files of 4,000 functions, each with a local,
/// all named for the round (about 1.5 MiB of interned names).
fn write_fresh_names(src: &Path, round: usize) {
    std::fs::create_dir_all(src).unwrap();
    for file in 0..3 {
        let text: String = (0..4000)
            .map(|i| format!("pub fn round_{round}_file_{file}_function_{i}() {{ let local_{round}_{file}_{i} = 1; }}\n"))
            .collect();
        std::fs::write(src.join(format!("f{file}.rs")), text).unwrap();
    }
}

/// Rounds, each of which adds far more names than the limit's headroom.
const ROUNDS: usize = 10;
/// What the table may hold above what it held before the rounds: less than
/// two rounds' names, far less than all of them.
const HEADROOM: usize = 3 << 20;

/// Assert that the table gets back within half the headroom over `before`
/// bytes (background threads let go of their snapshots shortly after a
/// refresh, so it is given 30 s); `after` says after what.
fn assert_names_released(before: usize, after: &str) {
    let bound = before + HEADROOM / 2;
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut held = lingo::name::interned_bytes();
    while held > bound && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
        held = lingo::name::interned_bytes();
    }
    assert!(
        held <= bound,
        "{} bytes of names still held {after}",
        held - before
    );
}

/// The three files of `snapshot` indexed, none refused.
fn assert_all_indexed(snapshot: &lingo::workspace::Snapshot, round: usize) {
    let files: Vec<_> = snapshot.files.values().collect();
    assert_eq!(files.len(), 3, "round {round}: {:?}", snapshot.files.keys());
    for file in files {
        assert!(
            file.facts.is_ok(),
            "round {round}: {}: {:?}",
            file.path,
            file.facts.as_ref().err()
        );
    }
}

/// Projects are created on fresh folders and removed, round after round;
/// each round's names are released with its project.
fn create_and_remove_projects_past_the_limit() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("name-table-projects");
    let _ = std::fs::remove_dir_all(&dir);
    let roots = dir.join("roots");
    std::fs::create_dir_all(&roots).unwrap();
    let roots = roots.canonicalize().unwrap();
    let file = ProjectsFile {
        project_roots: vec![roots.clone()],
        runtime_projects_file: Some(dir.join("state/projects.json")),
        ..ProjectsFile::default()
    };
    let opener = WorkspaceOpener {
        plugins: common::registry().clone(),
        cache_dir: None,
        watch: false,
        tool_names: Vec::new(),
    };
    let registry = ProjectRegistry::load(file, opener).expect("loads");
    let admin = Grant::local();

    let before = lingo::name::interned_bytes();
    lingo::name::set_interned_limit(before + HEADROOM);
    for round in 0..ROUNDS {
        let root = roots.join(format!("p{round}"));
        write_fresh_names(&root.join("src"), round);
        let id = format!("p{round}");
        let project = registry
            .create(&id, root.to_str().unwrap(), Vec::new(), &admin)
            .expect("created");
        let workspace = Arc::clone(&project.context.workspace);
        workspace.refresh();
        assert_all_indexed(&workspace.snapshot(), round);
        drop((project, workspace));
        registry.remove(&id, &admin).expect("removed");
        assert_names_released(before, &format!("after project {round} was removed"));
    }
}

/// One workspace whose files are rewritten with new names, round after
/// round: the old names go with the old facts.
fn rewrite_a_file_past_the_limit() {
    let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("name-table-rewrite");
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).unwrap();
    let workspace = Workspace::new(&root, common::registry().clone()).unwrap();
    workspace.refresh();

    let before = lingo::name::interned_bytes();
    lingo::name::set_interned_limit(before + HEADROOM);
    for round in 0..ROUNDS {
        write_fresh_names(&root.join("src"), round);
        workspace.refresh();
        assert_all_indexed(&workspace.snapshot(), round);
    }
    assert_names_released(before, &format!("after {ROUNDS} rewrites"));
}

/// The test's body, alone in its process.
fn fill_the_table_past_its_limit() {
    let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("name-table-limit");
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::write(root.join("src/a.rs"), "pub fn before_the_limit() {}\n").unwrap();

    let workspace = Workspace::new(&root, common::registry().clone()).unwrap();
    workspace.refresh();
    let indexed = workspace.snapshot();
    let a = &indexed.files["src/a.rs"];
    assert!(a.facts.is_ok(), "{:?}", a.facts.as_ref().err());

    // Names no file held before, past a limit set just above what is held.
    lingo::name::set_interned_limit(lingo::name::interned_bytes() + 4096);
    // More files than analysing threads: those that start once the table
    // is full are refused.
    let files: Vec<String> = (0..8).map(|f| format!("src/new{f}.rs")).collect();
    for (f, path) in files.iter().enumerate() {
        let fresh: String = (0..2000)
            .map(|i| format!("pub fn never_seen_{f}_{i}() {{ let local_{f}_{i} = 1; }}\n"))
            .collect();
        std::fs::write(root.join(path), fresh).unwrap();
    }
    workspace.refresh();
    let snapshot = workspace.snapshot();

    let refused: Vec<_> = files
        .iter()
        .filter_map(|path| snapshot.files[path].facts.as_ref().err())
        .collect();
    assert!(!refused.is_empty(), "no file was refused past the limit");
    for error in &refused {
        assert_eq!(error.code(), "PLUGIN_UNAVAILABLE");
        assert!(
            error.to_string().contains("the table of names is full"),
            "{error}"
        );
    }
    // What was indexed before stays; the table stopped near its limit.
    assert!(snapshot.files["src/a.rs"].facts.is_ok());
    assert!(
        lingo::name::interned_bytes() < lingo::name::interned_limit() + (1 << 20),
        "the table grew {} bytes past its limit",
        lingo::name::interned_bytes() - lingo::name::interned_limit()
    );
}
