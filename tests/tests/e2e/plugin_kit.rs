//! The plugin kit as a stranger uses it, following docs/plugin-guide.md: a
//! plugin crate written by `lingo plugin new` outside the repository builds
//! with one command, passes `lingo plugin check` and `lingo plugin test` as
//! written, grows by one query pattern and one pasted `unexpected` line, and
//! a typo in a query capture fails the check with the file and line.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use lingo::runtime::artifact_dir;
use lingo_e2e::{Scratch, lingo_bin, workspace_dir};

/// `cargo` for the generated crate, with nothing of the outer build's
/// environment that would redirect or reconfigure it.
fn cargo(dir: &Path, args: &[&str]) -> Output {
    let mut command = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    command.current_dir(dir).args(args);
    for var in [
        "CARGO_ENCODED_RUSTFLAGS",
        "RUSTFLAGS",
        "CARGO_BUILD_TARGET",
        "CARGO_TARGET_DIR",
        "CARGO_MANIFEST_DIR",
        "CARGO_PRIMARY_PACKAGE",
        "RUSTC_WRAPPER",
        "RUSTC_WORKSPACE_WRAPPER",
    ] {
        command.env_remove(var);
    }
    // Kept between runs (the generated crate is new each time, its
    // dependencies are not).
    command.env(
        "CARGO_TARGET_DIR",
        workspace_dir().join("target").join("plugin-kit"),
    );
    command.output().expect("run cargo")
}

fn lingo(args: &[&str], dir: &Path) -> Output {
    Command::new(lingo_bin())
        .current_dir(dir)
        .args(args)
        .env("LINGO_LOG", "error")
        .output()
        .expect("run lingo")
}

fn text(output: &Output) -> String {
    format!(
        "exit {:?}\nstdout:\n{}\nstderr:\n{}",
        output.status.code(),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

fn build(crate_dir: &Path) -> PathBuf {
    let built = cargo(
        crate_dir,
        &["build", "--release", "--target", "wasm32-wasip2"],
    );
    assert!(built.status.success(), "build: {}", text(&built));
    workspace_dir().join("target/plugin-kit/wasm32-wasip2/release/lingo_plugin_toy.wasm")
}

#[test]
fn a_new_plugin_builds_checks_and_grows_by_pasting_what_the_kit_prints() {
    let scratch = Scratch::new("plugin-kit");
    let crate_dir = scratch.path().join("lingo-plugin-toy");
    let dir = crate_dir.to_str().expect("UTF-8 scratch path");
    let created = lingo(
        &[
            "plugin",
            "new",
            "toy",
            "--grammar",
            "tree-sitter-go@0.25",
            "--extension",
            "go",
            "--dir",
            dir,
        ],
        scratch.path(),
    );
    assert!(created.status.success(), "new: {}", text(&created));
    assert!(
        !crate_dir.starts_with(workspace_dir()),
        "the crate is outside the repository"
    );

    // The next steps it prints are commands that check something.
    let printed = String::from_utf8_lossy(&created.stdout).into_owned();
    assert!(
        printed
            .lines()
            .filter(|l| l.trim_start().starts_with("lingo plugin "))
            .all(|l| l.trim_end().ends_with(" conformance")),
        "{printed}"
    );
    // As written: it builds, loads, and passes its own fixture and tests.
    let wasm = build(&crate_dir);
    let wasm = wasm.to_str().expect("UTF-8 path");
    let checked = lingo(&["plugin", "check", wasm, "conformance"], &crate_dir);
    assert!(checked.status.success(), "check: {}", text(&checked));
    assert!(
        String::from_utf8_lossy(&checked.stdout).contains("queries: compiled, captures checked"),
        "{}",
        text(&checked)
    );
    let tested = lingo(&["plugin", "test", wasm, "conformance"], &crate_dir);
    assert!(tested.status.success(), "test: {}", text(&tested));
    let unit_tests = cargo(&crate_dir, &["test"]);
    assert!(
        unit_tests.status.success(),
        "cargo test: {}",
        text(&unit_tests)
    );

    // The guide's loop: real code, one pattern, the kit prints the new fact
    // as an `unexpected` line, pasted into expected.json it passes.
    std::fs::write(
        crate_dir.join("conformance/basic/example.go"),
        "package toy\n\nfunc Hello() {}\n",
    )
    .unwrap();
    let symbols = crate_dir.join("queries/symbols.scm");
    let mut query = std::fs::read_to_string(&symbols).unwrap();
    query.push_str("(function_declaration name: (identifier) @name) @definition.function\n");
    std::fs::write(&symbols, &query).unwrap();
    let wasm = build(&crate_dir);
    let wasm = wasm.to_str().expect("UTF-8 path");
    let tested = lingo(&["plugin", "test", wasm, "conformance"], &crate_dir);
    assert_eq!(tested.status.code(), Some(1), "{}", text(&tested));
    let stdout = String::from_utf8_lossy(&tested.stdout).into_owned();
    let unexpected = stdout
        .lines()
        .find_map(|l| l.strip_prefix("FAIL basic/example.go symbols: unexpected "))
        .unwrap_or_else(|| panic!("no unexpected symbol: {stdout}"));
    assert_eq!(
        unexpected,
        r#"{"name":"Hello","kind":"function","span":"3:1-3:16"}"#
    );
    let expected_path = crate_dir.join("conformance/basic/expected.json");
    let mut expected: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&expected_path).unwrap()).unwrap();
    expected["files"]["example.go"]["symbols"] =
        serde_json::json!([serde_json::from_str::<serde_json::Value>(unexpected).unwrap()]);
    std::fs::write(&expected_path, expected.to_string()).unwrap();
    let tested = lingo(&["plugin", "test", wasm, "conformance"], &crate_dir);
    assert!(
        tested.status.success(),
        "test after pasting: {}",
        text(&tested)
    );

    // A typo in a capture compiles, and fails the load with file and line.
    std::fs::write(&symbols, query.replace("@name)", "@nmae)")).unwrap();
    let wasm = build(&crate_dir);
    let wasm = wasm.to_str().expect("UTF-8 path");
    let checked = lingo(&["plugin", "check", wasm, "conformance"], &crate_dir);
    assert_eq!(checked.status.code(), Some(2), "{}", text(&checked));
    let line = query.lines().count();
    // The message is the query's error, not a broken component, and names
    // the plugin once: by its file.
    let stderr = String::from_utf8_lossy(&checked.stderr);
    let message = stderr.trim_end();
    assert!(
        message.starts_with(&format!(
            "cannot load plugin: query error in symbols.scm line {line}: unknown capture @nmae"
        )) && message.ends_with(&format!(" (plugin {wasm})"))
            && !message.contains("(toy)"),
        "{}",
        text(&checked)
    );
}

#[test]
fn a_plugin_is_not_written_over_files_or_from_bad_names() {
    let scratch = Scratch::new("plugin-kit-refused");
    scratch.write("taken/keep.txt", "mine");
    let taken = scratch.path().join("taken");
    let refused = lingo(
        &[
            "plugin",
            "new",
            "toy",
            "--grammar",
            "tree-sitter-go@0.25",
            "--dir",
            taken.to_str().unwrap(),
        ],
        scratch.path(),
    );
    assert_eq!(refused.status.code(), Some(2), "{}", text(&refused));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("is not empty"));
    assert_eq!(std::fs::read_dir(&taken).unwrap().count(), 1);

    let bad = lingo(
        &[
            "plugin",
            "new",
            "Toy Lang",
            "--grammar",
            "tree-sitter-go@0.25",
        ],
        scratch.path(),
    );
    assert_eq!(bad.status.code(), Some(2), "{}", text(&bad));
    assert!(
        String::from_utf8_lossy(&bad.stderr).contains("invalid name `Toy Lang`"),
        "{}",
        text(&bad)
    );
    assert_eq!(std::fs::read_dir(scratch.path()).unwrap().count(), 1);
}

/// `lingo plugin check` on what a stranger may point it at: a file that is
/// not UTF-8, one over the size it reads, a nesting 10,000 deep, a path
/// that does not exist, and a `.wasm` that is no component. Each gets a
/// line or an exit code that says what happened; nothing crashes.
#[test]
fn plugin_check_reports_hostile_files_and_refuses_what_is_not_there() {
    let scratch = Scratch::new("plugin-check-hostile");
    scratch.write("tree/ok.py", "def f():\n    return 1\n");
    scratch.write("tree/latin1.py", b"s = '\xe9t\xe9'\n");
    scratch.write("tree/big.py", "x = 1\n".repeat(1 << 20));
    scratch.write(
        "tree/deep.py",
        format!("x = {}1{}\n", "(".repeat(10_000), ")".repeat(10_000)),
    );
    scratch.write("tree/notes.txt", "not claimed");
    let python = Path::new(artifact_dir()).join("lingo_plugin_python.wasm");
    let python = python.to_str().expect("UTF-8 path");
    let tree = scratch.path().join("tree");
    let checked = lingo(
        &["plugin", "check", python, tree.to_str().unwrap()],
        scratch.path(),
    );
    assert_eq!(checked.status.code(), Some(0), "{}", text(&checked));
    let stdout = String::from_utf8_lossy(&checked.stdout);
    let line = |name: &str| {
        stdout
            .lines()
            .find(|l| l.contains(name))
            .unwrap_or_else(|| panic!("no line for {name}: {stdout}"))
            .to_string()
    };
    assert!(line("ok.py").starts_with("ok "), "{stdout}");
    assert!(line("deep.py").starts_with("ok "), "{stdout}");
    assert!(line("latin1.py").starts_with("skip ") && line("latin1.py").contains("UTF-8"));
    assert!(line("big.py").starts_with("skip ") && line("big.py").contains("bytes"));
    assert!(!stdout.contains("notes.txt"), "{stdout}");
    assert!(stdout.contains("4 files, 0 failed"), "{stdout}");

    let missing = scratch.path().join("nowhere");
    let refused = lingo(
        &["plugin", "check", python, missing.to_str().unwrap()],
        scratch.path(),
    );
    assert_eq!(refused.status.code(), Some(2), "{}", text(&refused));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("no such file or folder"));

    // Paths with no file of the plugin's are an error too.
    scratch.write("unclaimed/notes.txt", "not claimed");
    let unclaimed = scratch.path().join("unclaimed");
    let nothing = lingo(
        &["plugin", "check", python, unclaimed.to_str().unwrap()],
        scratch.path(),
    );
    assert_eq!(nothing.status.code(), Some(2), "{}", text(&nothing));
    assert!(
        String::from_utf8_lossy(&nothing.stderr).contains("no file to check"),
        "{}",
        text(&nothing)
    );

    // No file to check is an error, not a check of nothing.
    let nothing = lingo(&["plugin", "check", python], scratch.path());
    assert_eq!(nothing.status.code(), Some(2), "{}", text(&nothing));
    assert!(
        String::from_utf8_lossy(&nothing.stderr).contains("PATHS"),
        "{}",
        text(&nothing)
    );

    let fake = scratch.write("fake.wasm", b"\0asm not a component");
    let tree = tree.to_str().unwrap();
    let refused = lingo(
        &["plugin", "check", fake.to_str().unwrap(), tree],
        scratch.path(),
    );
    assert_eq!(refused.status.code(), Some(2), "{}", text(&refused));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("cannot load plugin"));
}
