//! The process's table of names is bounded: once it holds its limit of
//! distinct names, files are not indexed (each says why, with a stable
//! code) instead of the table growing without end. The limit is
//! process-wide, so the test runs itself in a child process of this binary.

use crate::common;

use std::path::PathBuf;

use lingo::workspace::Workspace;

/// Set in the child process that runs the test's body.
const CHILD: &str = "LINGO_TEST_NAME_TABLE_CHILD";

#[test]
fn past_the_limit_of_names_files_are_refused_with_a_reason_and_the_rest_stay_indexed() {
    if std::env::var_os(CHILD).is_some() {
        return fill_the_table_past_its_limit();
    }
    let output = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "name_table_limit::past_the_limit_of_names_files_are_refused_with_a_reason_and_the_rest_stay_indexed",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD, "1")
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
