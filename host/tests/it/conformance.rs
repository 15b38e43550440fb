//! The plugin conformance kit: every `plugins/<dir>/conformance` directory is
//! run against the built `lingo_plugin_<dir>.wasm`, and the kit itself is
//! shown to fail, with the documented diff lines, on wrong expectations.

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use lingo::conformance::{self, LoadError, Report};
use lingo::runtime::LanguagePlugin;

fn cache_dir() -> Option<PathBuf> {
    Some(Path::new(env!("CARGO_TARGET_TMPDIR")).join("lingo-cache"))
}

fn artifact(stem: &str) -> PathBuf {
    Path::new(lingo::runtime::artifact_dir()).join(format!("{stem}.wasm"))
}

fn rust() -> &'static Arc<dyn LanguagePlugin> {
    static PLUGIN: OnceLock<Arc<dyn LanguagePlugin>> = OnceLock::new();
    PLUGIN.get_or_init(|| {
        conformance::load_plugin(&artifact("lingo_plugin_rust"), cache_dir())
            .unwrap_or_else(|e| panic!("load the Rust plugin: {e}"))
    })
}

/// A fresh fixtures directory holding one case, `files` as (path, text).
fn fixtures(test: &str, case: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("conformance")
        .join(test);
    let _ = std::fs::remove_dir_all(&dir);
    for (path, text) in files {
        let path = dir.join(case).join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    dir
}

fn failure_lines(report: &Report) -> Vec<String> {
    report.failures().map(|f| f.to_string()).collect()
}

#[test]
fn every_plugin_passes_its_conformance_fixtures() {
    let plugins = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../plugins")
        .canonicalize()
        .unwrap();
    let mut dirs: Vec<(String, PathBuf)> = std::fs::read_dir(&plugins)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("conformance").is_dir())
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), p))
        .collect();
    dirs.sort();
    assert!(
        dirs.iter().any(|(name, _)| name == "rust"),
        "plugins/rust/conformance is missing: {dirs:?}"
    );
    let mut failed = Vec::new();
    for (name, dir) in &dirs {
        let wasm = artifact(&format!("lingo_plugin_{name}"));
        let plugin = match conformance::load_plugin(&wasm, cache_dir()) {
            Ok(plugin) => plugin,
            Err(e) => {
                failed.push(format!(
                    "plugins/{name}/conformance: cannot load the plugin: {e}"
                ));
                continue;
            }
        };
        eprintln!("{}", conformance::describe(plugin.as_ref()));
        let report = match conformance::run(&plugin, &dir.join("conformance")) {
            Ok(report) => report,
            Err(e) => {
                failed.push(format!("plugins/{name}/conformance: {e}"));
                continue;
            }
        };
        eprint!("{}", report.render());
        if !report.passed() {
            failed.push(format!("plugins/{name}/conformance:\n{}", report.render()));
        }
    }
    assert!(failed.is_empty(), "\n{}", failed.join("\n"));
}

const LIB: &str = "pub struct Foo;\n\nfn helper() {}\n";

#[test]
fn a_wrong_expectation_produces_the_expected_diff() {
    let dir = fixtures(
        "wrong",
        "basic",
        &[
            ("src/lib.rs", LIB),
            (
                "expected.json",
                r#"{"files": {"src/lib.rs": {"symbols": [{"name": "Foo", "kind": "class"}]}}}"#,
            ),
        ],
    );
    let report = conformance::run(rust(), &dir).unwrap();
    assert_eq!(
        failure_lines(&report),
        [
            r#"FAIL basic/src/lib.rs symbols: expected {"name":"Foo","kind":"class"} — closest actual Foo at 1:1 differs: kind expected "class", got "struct""#,
            r#"FAIL basic/src/lib.rs symbols: unexpected {"name":"Foo","kind":"struct","span":"1:1-1:16"}"#,
            r#"FAIL basic/src/lib.rs symbols: unexpected {"name":"helper","kind":"function","span":"3:1-3:15"}"#,
        ]
    );
    assert_eq!(report.summary(), "1 cases, 1 files, 2 checks, 3 failures");
    assert_eq!(report.exit_code(), 1);
    assert!(
        report
            .render()
            .ends_with("3:1-3:15\"}\n1 cases, 1 files, 2 checks, 3 failures\n")
    );
}

#[test]
fn only_given_fields_are_compared_and_partial_categories_allow_extras() {
    let dir = fixtures(
        "partial",
        "basic",
        &[
            ("src/lib.rs", LIB),
            (
                "expected.json",
                r#"{"files": {"src/lib.rs": {
                    "symbols": [{"name": "Foo", "kind": "struct", "nameSpan": "1:12-1:15", "container": null}],
                    "diagnostics": [],
                    "module": {"path": "crate", "package": "crate"},
                    "partial": ["symbols"]}}}"#,
            ),
        ],
    );
    let report = conformance::run(rust(), &dir).unwrap();
    assert_eq!(failure_lines(&report), Vec::<String>::new());
    assert_eq!(report.summary(), "1 cases, 1 files, 4 checks, 0 failures");
    assert_eq!(report.exit_code(), 0);
    assert_eq!(
        report.render(),
        "ok   basic (1 files, 4 checks)\n1 cases, 1 files, 4 checks, 0 failures\n"
    );
    // A case directory given directly is run as the only case.
    let single = conformance::run(rust(), &dir.join("basic")).unwrap();
    assert_eq!(single.render(), report.render());
}

#[test]
fn a_plugin_that_traps_fails_the_case_and_the_others_still_run() {
    let dir = fixtures(
        "trap",
        "crash",
        &[
            ("a.trap", "x"),
            ("b.calm", "y"),
            (
                "expected.json",
                r#"{"files": {"a.trap": {"symbols": []}, "b.calm": {"symbols": [], "diagnostics": []}}}"#,
            ),
        ],
    );
    let hostile = conformance::load_plugin(&artifact("lingo_plugin_hostile"), cache_dir())
        .unwrap_or_else(|e| panic!("load the hostile plugin: {e}"));
    let report = conformance::run(&hostile, &dir).unwrap();
    let lines = failure_lines(&report);
    assert_eq!(lines.len(), 1, "{lines:#?}");
    assert!(
        lines[0].starts_with("FAIL crash/a.trap: plugin error: plugin `hostile` trapped"),
        "{lines:#?}"
    );
    // b.calm was checked: its two exhaustive categories count.
    assert_eq!(report.summary(), "1 cases, 2 files, 2 checks, 1 failures");
    assert_eq!(report.exit_code(), 1);
}

#[test]
fn a_directory_without_cases_is_an_error() {
    let dir = fixtures("no-cases", "unused", &[]);
    std::fs::create_dir_all(&dir).unwrap();
    let error = conformance::run(rust(), &dir).unwrap_err();
    assert!(error.to_string().contains("holds no cases"), "{error}");
    let error = conformance::run(rust(), &dir.join("absent")).unwrap_err();
    assert!(error.to_string().contains("No such file"), "{error}");
}

#[test]
fn wrong_fields_of_several_categories_are_each_named() {
    let dir = fixtures(
        "fields",
        "basic",
        &[
            (
                "src/main.rs",
                "use std::fmt::Display;\n\nfn main() {\n    let x = 1;\n    helper(x);\n}\n",
            ),
            (
                "expected.json",
                r#"{"files": {"src/main.rs": {
                    "imports": [{"modulePath": "std::fmt", "names": ["Debug"], "line": 1}],
                    "references": [{"name": "helper", "kind": "call", "at": "5:5", "enclosing": "helper"}],
                    "locals": [{"name": "x", "at": "4:9", "kind": "parameter"}],
                    "metrics": [{"name": "main", "cyclomatic": 1, "halstead": {"totalOperands": 999}}],
                    "module": {"path": "crate::main"},
                    "partial": ["references"]}}}"#,
            ),
        ],
    );
    let report = conformance::run(rust(), &dir).unwrap();
    // The Halstead count is compared; its actual value is the plugin's business.
    let (metrics, others): (Vec<String>, Vec<String>) = failure_lines(&report)
        .into_iter()
        .partition(|l| l.contains(" metrics: "));
    assert_eq!(
        others,
        [
            r#"FAIL basic/src/main.rs references: expected {"name":"helper","kind":"call","at":"5:5","enclosing":"helper"} — closest actual helper at 5:5 differs: enclosing expected "helper", got "main""#,
            r#"FAIL basic/src/main.rs imports: expected {"modulePath":"std::fmt","names":["Debug"],"line":1} — closest actual std::fmt at 1:1 differs: names expected ["Debug"], got ["Display"]"#,
            r#"FAIL basic/src/main.rs imports: unexpected {"modulePath":"std::fmt","kind":"named","names":["Display"],"line":1}"#,
            r#"FAIL basic/src/main.rs locals: expected {"name":"x","kind":"parameter","at":"4:9"} — closest actual x at 4:9 differs: kind expected "parameter", got "variable""#,
            r#"FAIL basic/src/main.rs locals: unexpected {"name":"x","kind":"variable","at":"4:9"}"#,
            r#"FAIL basic/src/main.rs module: expected {"path":"crate::main"} — closest actual crate differs: path expected "crate::main", got "crate""#,
            r#"FAIL basic/src/main.rs module: unexpected {"path":"crate","package":"crate"}"#,
        ]
    );
    assert_eq!(metrics.len(), 2, "{metrics:#?}");
    assert!(
        metrics[0].starts_with(
            r#"FAIL basic/src/main.rs metrics: expected {"name":"main","cyclomatic":1,"halstead":{"totalOperands":999}} — closest actual main at 3:1 differs: halstead.totalOperands expected 999, got "#
        ),
        "{metrics:#?}"
    );
    assert!(
        metrics[1].starts_with(
            r#"FAIL basic/src/main.rs metrics: unexpected {"name":"main","line":3,"cyclomatic":1,"halstead":{"#
        ),
        "{metrics:#?}"
    );
}

#[test]
fn resolve_import_mismatches_show_files_and_candidates() {
    let dir = fixtures(
        "resolve",
        "imports",
        &[
            ("Cargo.toml", "[package]\nname = \"demo\"\n"),
            ("src/lib.rs", "pub mod a;\npub mod b;\n"),
            ("src/a.rs", "pub struct Foo;\n"),
            ("src/b.rs", "use crate::a::Foo;\n"),
            (
                "expected.json",
                r#"{"resolveImports": [
                    {"from": "src/b.rs", "import": "crate::a", "expect": ["src/a.rs"], "modules": ["demo::a"]},
                    {"from": "src/b.rs", "import": "crate::a", "expect": ["src/b.rs"]},
                    {"from": "src/b.rs", "import": "super::a", "modules": ["crate::a"]},
                    {"from": "src/nope.rs", "import": "crate::a", "expect": []}
                ]}"#,
            ),
        ],
    );
    let report = conformance::run(rust(), &dir).unwrap();
    assert_eq!(
        failure_lines(&report),
        [
            r#"FAIL imports resolveImports: src/b.rs imports crate::a: expect expected ["src/b.rs"], got ["src/a.rs"] (candidates ["demo::a"])"#,
            r#"FAIL imports resolveImports: src/b.rs imports super::a: modules expected ["crate::a"], got ["demo::a"]"#,
            r#"FAIL imports resolveImports: src/nope.rs imports crate::a: `from` is not a file the plugin analyzed"#,
        ]
    );
    assert_eq!(report.summary(), "1 cases, 0 files, 4 checks, 3 failures");
}

#[test]
fn malformed_fixtures_fail_instead_of_passing() {
    let dir = fixtures(
        "malformed",
        "typo",
        &[
            ("src/lib.rs", LIB),
            (
                "expected.json",
                r#"{"files": {"src/lib.rs": {"symbols": [{"nmae": "Foo"}]}}}"#,
            ),
        ],
    );
    std::fs::create_dir_all(dir.join("empty")).unwrap();
    let missing = dir.join("missing");
    std::fs::create_dir_all(&missing).unwrap();
    std::fs::write(
        missing.join("expected.json"),
        r#"{"files": {"src/gone.rs": {"symbols": []}, "notes.txt": {"symbols": []}}}"#,
    )
    .unwrap();
    std::fs::write(missing.join("notes.txt"), "not Rust").unwrap();
    let report = conformance::run(rust(), &dir).unwrap();
    let lines = failure_lines(&report);
    assert_eq!(lines.len(), 4, "{lines:#?}");
    assert!(
        lines[0].starts_with("FAIL empty: fixture error: ")
            && lines[0].contains("expected.json: cannot be read"),
        "{lines:#?}"
    );
    assert_eq!(
        lines[1],
        "FAIL missing/notes.txt: fixture error: the plugin claims no extension of this file (it claims rs)"
    );
    assert_eq!(
        lines[2],
        "FAIL missing/src/gone.rs: fixture error: no such file in the case"
    );
    assert!(
        lines[3].starts_with("FAIL typo: fixture error: ")
            && lines[3]
                .contains("src/lib.rs: symbols[0]: unknown field `nmae` (fields: name, kind,"),
        "{lines:#?}"
    );
    assert_eq!(report.exit_code(), 1);
}

#[test]
fn a_file_that_is_not_a_plugin_is_refused_with_its_path_and_reason() {
    let dir = fixtures("refused", "case", &[("not-a-plugin.wasm", "hello")]);
    let file = dir.join("case/not-a-plugin.wasm");
    let Err(error) = conformance::load_plugin(&file, cache_dir()) else {
        panic!("a text file loaded as a plugin")
    };
    let LoadError::Refused {
        file: origin, code, ..
    } = &error
    else {
        panic!("{error:?}")
    };
    assert_eq!(origin, &file.display().to_string());
    assert_eq!(*code, "PLUGIN_INVALID");
    assert!(
        error.to_string().starts_with(&format!(
            "{}: not a valid WebAssembly component: ",
            file.display()
        )),
        "{error}"
    );
    let absent = dir.join("absent.wasm");
    let Err(LoadError::Refused { code, .. }) = conformance::load_plugin(&absent, cache_dir())
    else {
        panic!("a missing file loaded as a plugin")
    };
    assert_eq!(code, "PLUGIN_UNREADABLE");
}

#[test]
fn bless_writes_what_the_plugin_reports_in_the_fields_the_case_names() {
    let dir = fixtures(
        "bless",
        "basic",
        &[
            ("src/lib.rs", LIB),
            (
                "expected.json",
                r#"{"files": {"src/lib.rs": {
                    "symbols": [{"name": "Foo", "kind": "class"}],
                    "diagnostics": [{"code": "E1"}],
                    "module": {"path": "elsewhere"},
                    "partial": ["symbols"]}}}"#,
            ),
        ],
    );
    let before = conformance::run(rust(), &dir).unwrap();
    assert!(!before.passed());

    let blessed = conformance::bless(rust(), &dir).unwrap();
    assert_eq!(blessed.len(), 1);
    assert_eq!(blessed[0].outcome, Ok(3));
    let written = std::fs::read_to_string(dir.join("basic/expected.json")).unwrap();
    assert_eq!(
        written,
        r#"{
  "files": {
    "src/lib.rs": {
      "symbols": [
        {"name": "Foo", "kind": "struct"},
        {"name": "helper", "kind": "function"}
      ],
      "diagnostics": [],
      "module": {"path": "crate"},
      "partial": ["symbols"]
    }
  }
}
"#
    );
    let after = conformance::run(rust(), &dir).unwrap();
    assert_eq!(failure_lines(&after), Vec::<String>::new());
}

#[test]
fn bless_leaves_a_case_the_plugin_cannot_read_as_it_was() {
    let expected = r#"{"files": {"src/lib.rs": {"symbols": []}}}"#;
    let dir = fixtures(
        "bless-unreadable",
        "broken",
        &[("src/lib.rs", "\u{0}"), ("expected.json", expected)],
    );
    std::fs::write(dir.join("broken/src/lib.rs"), [0xff, 0xfe, 0x00]).unwrap();
    let blessed = conformance::bless(rust(), &dir).unwrap();
    let why = blessed[0].outcome.as_ref().expect_err("an unreadable file");
    assert!(why.contains("src/lib.rs"), "{why}");
    assert_eq!(
        std::fs::read_to_string(dir.join("broken/expected.json")).unwrap(),
        expected
    );
}
