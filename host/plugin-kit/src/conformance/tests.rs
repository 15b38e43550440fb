//! The declared-types and definitions categories on small Go cases, with
//! the built Go plugin: right expectations pass, wrong ones fail with the
//! documented lines, and `--bless` writes what the plugin and the server's
//! resolution report.

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use lingo_runtime::LanguagePlugin;

use super::{Report, bless, load_plugin, run};

fn go() -> &'static Arc<dyn LanguagePlugin> {
    static PLUGIN: OnceLock<Arc<dyn LanguagePlugin>> = OnceLock::new();
    PLUGIN.get_or_init(|| {
        let wasm = Path::new(lingo_runtime::artifact_dir()).join("lingo_plugin_go.wasm");
        load_plugin(&wasm, None).unwrap_or_else(|e| panic!("load the Go plugin: {e}"))
    })
}

const GO_MOD: &str = "module example.com/zoo\n\ngo 1.21\n";
const SHAPES: &str = "package zoo\n\ntype Point struct {\n\tX int\n}\n\nfunc (p *Point) Move(dx int) {\n\tp.X += dx\n}\n";
const USE: &str = "package zoo\n\nfunc Walk(p *Point) {\n\tp.Move(1)\n\tmissing()\n}\n";

/// A fixtures folder holding one case `zoo`: the Go files above and
/// `expected`.
fn case(expected: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let case = dir.path().join("zoo");
    std::fs::create_dir_all(&case).unwrap();
    for (path, text) in [
        ("go.mod", GO_MOD),
        ("shapes.go", SHAPES),
        ("use.go", USE),
        ("expected.json", expected),
    ] {
        std::fs::write(case.join(path), text).unwrap();
    }
    let fixtures = dir.path().to_path_buf();
    (dir, fixtures)
}

fn lines(report: &Report) -> Vec<String> {
    report.failures().map(|f| f.to_string()).collect()
}

#[test]
fn declared_types_are_checked_at_their_declarations() {
    let (_dir, fixtures) = case(
        r#"{"files": {"use.go": {"declaredTypes": [
            {"name": "p", "target": "local", "at": "3:11", "type": "Point", "qualifier": [], "span": "3:14-3:19", "source": "annotation"}
        ]}, "shapes.go": {"declaredTypes": [
            {"name": "Move", "at": "7:17", "type": "Point", "source": "receiver"},
            {"name": "p", "at": "7:7", "type": "Point"}
        ]}}}"#,
    );
    let report = run(go(), &fixtures).unwrap();
    assert!(report.passed(), "{}", report.render());

    let (_dir, fixtures) = case(
        r#"{"files": {"use.go": {"declaredTypes": [
            {"name": "p", "at": "3:11", "type": "Pointer"}
        ]}, "shapes.go": {"declaredTypes": [
            {"name": "p", "at": "7:7", "type": "Point"}
        ]}}}"#,
    );
    let report = run(go(), &fixtures).unwrap();
    assert_eq!(
        lines(&report),
        [
            r#"FAIL zoo/shapes.go declaredTypes: unexpected {"name":"Move","at":"7:17","type":"Point"}"#,
            r#"FAIL zoo/use.go declaredTypes: expected {"name":"p","at":"3:11","type":"Pointer"} — closest actual p at 3:11 differs: type expected "Pointer", got "Point""#,
            r#"FAIL zoo/use.go declaredTypes: unexpected {"name":"p","at":"3:11","type":"Point"}"#,
        ]
    );
}

#[test]
fn definitions_follow_the_servers_resolution_across_files() {
    // `Point` and `Move` are declared in the other file; `p.Move` resolves
    // through the declared type of `p`; `missing` is declared nowhere.
    let (_dir, fixtures) = case(
        r#"{"files": {"use.go": {"definitions": [
            {"name": "Point", "at": "3:14", "targetFile": "shapes.go", "target": "Point", "targetLine": 3, "resolution": "scope"},
            {"name": "Move", "at": "4:4", "targetFile": "shapes.go", "target": "Move", "targetLine": 7},
            {"name": "p", "at": "4:2", "targetFile": "use.go", "target": "p", "targetLine": 3, "resolution": "scope"},
            {"at": "5:2", "target": null, "resolution": "unresolved"}
        ]}}}"#,
    );
    let report = run(go(), &fixtures).unwrap();
    assert!(report.passed(), "{}", report.render());

    let (_dir, fixtures) = case(
        r#"{"files": {"use.go": {"definitions": [
            {"name": "Move", "at": "4:4", "targetFile": "use.go", "target": "Move"},
            {"at": "5:3", "resolution": "unresolved"}
        ]}}}"#,
    );
    let report = run(go(), &fixtures).unwrap();
    assert_eq!(
        lines(&report),
        [
            r#"FAIL zoo/use.go definitions: expected {"at":"5:3","resolution":"unresolved"} — no reference starts at 5:3"#,
            r#"FAIL zoo/use.go definitions: expected {"name":"Move","at":"4:4","targetFile":"use.go","target":"Move"} — closest actual Move at 4:4 differs: targetFile expected "use.go", got "shapes.go""#,
            r#"FAIL zoo/use.go definitions: unexpected {"name":"Move","at":"4:4","targetFile":"shapes.go","target":"Move","resolution":"qualified"}"#,
        ]
    );
}

#[test]
fn bless_writes_declared_types_and_definitions() {
    let (_dir, fixtures) = case(
        r#"{"files": {"use.go": {
            "declaredTypes": [],
            "definitions": [{"at": "4:4", "targetFile": "x", "targetLine": 1}]
        }}}"#,
    );
    let blessed = bless(go(), &fixtures).unwrap();
    assert_eq!(blessed[0].outcome, Ok(2), "{blessed:?}");
    let written = std::fs::read_to_string(fixtures.join("zoo/expected.json")).unwrap();
    assert!(
        written.contains(r#"{"name": "p", "at": "3:11", "type": "Point"}"#),
        "{written}"
    );
    assert!(
        written.contains(r#"{"at": "4:4", "targetFile": "shapes.go", "targetLine": 7}"#),
        "{written}"
    );
    let report = run(go(), &fixtures).unwrap();
    assert!(report.passed(), "{}", report.render());
}
