//! The analysis tools end to end (`analyze_dead_code`, `analyze_quality`):
//! exact findings on small workspaces written for them, complexity numbers
//! counted by hand, every answer in typemill's envelope (each severity
//! counted, thresholds echoed, paging), suggested `refactor_call`s that the
//! named tool accepts, the four languages' fixtures answered, and the
//! envelope's errors with their fields.

use lingo_e2e::{McpServer, PATIENCE, Scratch, fixture};
use serde_json::{Value, json};

/// `kind severity name` of each finding.
fn findings(answer: &Value) -> Vec<String> {
    answer["findings"]
        .as_array()
        .unwrap_or_else(|| panic!("no findings: {answer:#}"))
        .iter()
        .map(|f| {
            format!(
                "{} {} {}",
                f["kind"].as_str().unwrap_or("?"),
                f["severity"].as_str().unwrap_or("?"),
                f["symbol"]["symbol"]
                    .as_str()
                    .or(f["location"]["file_path"].as_str())
                    .unwrap_or("?")
            )
        })
        .collect()
}

const TIDY: &str = r#"//! Helpers, some of them dead.

/// Counts distinct words; nothing calls it.
fn distinct_words(text: &str) -> usize {
    only_the_dead_call_me(text.split(' ').count())
}

fn only_the_dead_call_me(n: usize) -> usize {
    n + 1
}

/// Named in a string only.
fn named_in_a_string() -> u32 {
    7
}

/// The name a caller looks up.
pub const LOOKED_UP: &str = "named_in_a_string";

/// Used by the API.
fn used() -> u32 {
    1
}

/// Classifies a number.
pub fn classify(n: i32) -> &'static str {
    if n < 0 {
        "negative"
    } else if n == 0 || n == 1 {
        "small"
    } else {
        for _ in 0..used() {
            if n > 100 {
                return "big";
            }
        }
        "other"
    }
}
"#;

const PYTHON_SERVER: &str = r#"class Server:
    def run(self):
        return self._bind()

    def _bind(self):
        return 1

    def __repr__(self):
        return "Server"


class TlsServer(Server):
    def _bind(self):
        return 2


@app.route("/")
def _index():
    return "registered by its decorator"


def _unused():
    return 3


def test_server():
    assert Server().run() == 1
"#;

/// Python: an override is reached through its base class's method, a
/// special method by the runtime, a decorated function by its framework, a
/// test by the harness; only the private function nothing calls is dead.
#[tokio::test]
async fn python_overrides_special_methods_and_registered_functions_are_not_dead() {
    let scratch = Scratch::new("analyses-dead-python");
    let root = scratch.path().join("python");
    scratch.write("python/server.py", PYTHON_SERVER);
    let server = McpServer::start(&root, &[]).await.expect("start lingo");
    let answer = server.call("analyze_dead_code", json!({})).await.ok();
    assert_eq!(
        findings(&answer),
        ["unused_symbol medium _unused"],
        "{answer:#}"
    );
    server.stop().await;
}

/// Items declared in a body are in scope there: a Rust `fn imp()` under
/// `#[cfg]` inside a function, called a few lines below, a constant
/// inside a body, and the same shape in TypeScript (a local function, and
/// function-valued `const`s called from a nested block or a closure),
/// Python and C#, are used, not dead; only the private function nothing
/// calls is. A `declare const` of a script (`.d.ts`) is a global: not
/// judged as private.
#[tokio::test]
async fn items_declared_in_a_body_are_used_where_they_are_called() {
    let scratch = Scratch::new("analyses-dead-block");
    scratch.write(
        "Cargo.toml",
        "[package]\nname = \"blocky\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    scratch.write(
        "src/lib.rs",
        "pub fn width() -> usize {\n    #[cfg(unix)]\n    fn imp() -> usize {\n        LIMIT * 2\n    }\n    #[cfg(not(unix))]\n    fn imp() -> usize {\n        LIMIT\n    }\n    const LIMIT: usize = 40;\n    imp()\n}\n\nfn unused_helper() -> usize {\n    1\n}\n",
    );
    scratch.write(
        "web/size.ts",
        "export function size(flag: boolean): number {\n  function inner(): number {\n    return 2;\n  }\n  const helper = (x: number) => x + 1;\n  if (flag) {\n    return helper(1);\n  }\n  return inner();\n}\n\nexport function later(): () => number {\n  const run = () => 3;\n  return () => run();\n}\n",
    );
    // A script's ambient declaration is a global, not a private one.
    scratch.write("web/globals.d.ts", "declare const __DEV__: boolean\n");
    scratch.write(
        "py/size.py",
        "def size():\n    def _inner():\n        return 2\n    return _inner()\n",
    );
    scratch.write(
        "cs/Size.cs",
        "namespace Sizes {\n    public static class Size {\n        public static int Of() {\n            int Inner() { return 2; }\n            return Inner();\n        }\n    }\n}\n",
    );
    let server = McpServer::start(scratch.path(), &[])
        .await
        .expect("start lingo");
    // Judged on the whole workspace: a first index not yet done answers
    // from the files indexed so far.
    server.wait_until_indexed(PATIENCE).await;
    let answer = server.call("analyze_dead_code", json!({})).await.ok();
    assert_eq!(
        findings(&answer),
        ["unused_symbol medium unused_helper"],
        "{answer:#}"
    );
    // The call names both `#[cfg]` variants, certainly, by scope.
    let call = server
        .call(
            "find_definition",
            json!({ "path": "src/lib.rs", "line": 10, "character": 4 }),
        )
        .await
        .ok();
    let found: Vec<(u64, &str)> = call["definitions"]
        .as_array()
        .expect("definitions")
        .iter()
        .map(|d| {
            (
                d["range"]["start"]["line"].as_u64().unwrap_or(0),
                d["resolution"].as_str().unwrap_or("?"),
            )
        })
        .collect();
    assert_eq!(found, [(2, "scope"), (6, "scope")], "{call:#}");
    server.stop().await;
}

#[tokio::test]
async fn dead_code_is_found_with_the_delete_call_that_removes_it() {
    let scratch = Scratch::new("analyses-dead");
    let root = scratch.path().join("rust");
    scratch.write(
        "rust/Cargo.toml",
        "[package]\nname = \"tidy\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    scratch.write("rust/src/lib.rs", "pub mod tidy;\n");
    scratch.write("rust/src/tidy.rs", TIDY);
    let server = McpServer::start(&root, &[]).await.expect("start lingo");

    let answer = server.call("analyze_dead_code", json!({})).await.ok();
    assert_eq!(
        findings(&answer),
        [
            "unused_symbol medium distinct_words",
            "unused_symbol medium only_the_dead_call_me",
            "unused_symbol low named_in_a_string",
        ],
        "{answer:#}"
    );
    assert_eq!(
        answer["summary"]["by_severity"],
        json!({ "high": 0, "medium": 2, "low": 1 })
    );
    assert_eq!(answer["metadata"]["category"], "dead_code");
    assert_eq!(answer["metadata"]["kind"], "unused_symbols");
    assert_eq!(answer["findings"][0]["id"], "unused_symbol-1");
    let kept = &answer["findings"][2];
    assert!(
        kept["message"]
            .as_str()
            .unwrap()
            .contains("src/tidy.rs:18:"),
        "{kept:#}"
    );
    assert!(
        kept["suggestions"][0]["refactor_call"].is_null(),
        "{kept:#}"
    );
    // The suggested call is one `delete` accepts, and plans that deletion.
    let call = &answer["findings"][0]["suggestions"][0]["refactor_call"];
    assert_eq!(call["command"], "delete", "{call:#}");
    let plan = server.call("delete", call["arguments"].clone()).await.ok();
    assert_eq!(plan["metadata"]["kind"], "delete.dead_code", "{plan:#}");
    assert_eq!(plan["summary"]["affected_files"], 1, "{plan:#}");

    // Paging, and the dotted alias.
    let page = server
        .call("analyze.dead_code", json!({ "limit": 1, "offset": 1 }))
        .await
        .ok();
    assert_eq!(
        findings(&page),
        ["unused_symbol medium only_the_dead_call_me"]
    );
    assert_eq!(page["summary"]["total_findings"], 3);
    assert_eq!(page["summary"]["returned_findings"], 1);
    assert_eq!(page["summary"]["has_more"], true);
    // Types and imports: none here.
    for kind in ["unused_types", "unused_imports"] {
        let none = server
            .call("analyze_dead_code", json!({ "kind": kind }))
            .await
            .ok();
        assert_eq!(none["summary"]["total_findings"], 0, "{kind}: {none:#}");
    }
    server.stop().await;
}

#[tokio::test]
async fn complexity_numbers_are_the_ones_counted_by_hand() {
    let scratch = Scratch::new("analyses-quality");
    let root = scratch.path().join("rust");
    scratch.write(
        "rust/Cargo.toml",
        "[package]\nname = \"tidy\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    scratch.write("rust/src/lib.rs", "pub mod tidy;\n");
    scratch.write("rust/src/tidy.rs", TIDY);
    let server = McpServer::start(&root, &[]).await.expect("start lingo");
    let answer = server
        .call(
            "analyze_quality",
            json!({ "kind": "complexity", "options": { "thresholds": { "cyclomatic_complexity": 3 } } }),
        )
        .await
        .ok();
    assert_eq!(
        findings(&answer),
        ["complexity_hotspot medium classify"],
        "{answer:#}"
    );
    // `classify`: 1, + `if`, + `else if`, + `||`, + `for`, + the inner `if`:
    // cyclomatic 6. Cognitive: `if` 1, `else if` 1, `||` 1, `else` 1, `for`
    // 1 + 1 (nested once), the inner `if` 1 + 2 (nested twice): 9. Nesting
    // 3 (else, for, if); one parameter; 14 lines.
    let metrics = &answer["findings"][0]["metrics"];
    assert_eq!(metrics["cyclomatic_complexity"], 6, "{metrics:#}");
    assert_eq!(metrics["cognitive_complexity"], 9, "{metrics:#}");
    assert_eq!(metrics["nesting_depth"], 3, "{metrics:#}");
    assert_eq!(metrics["parameter_count"], 1, "{metrics:#}");
    assert_eq!(metrics["function_length"], 14, "{metrics:#}");
    assert_eq!(
        answer["metadata"]["thresholds"]["cyclomatic_complexity"],
        3.0
    );
    assert_eq!(
        answer["metadata"]["thresholds"]["cognitive_complexity"],
        15.0
    );
    let severe = server
        .call(
            "analyze_quality",
            json!({ "options": { "thresholds": { "cyclomatic_complexity": 2 } } }),
        )
        .await
        .ok();
    assert_eq!(
        findings(&severe),
        ["complexity_hotspot high classify"],
        "{severe:#}"
    );
    server.stop().await;
}

#[tokio::test]
async fn the_analyses_answer_in_every_language_and_refuse_bad_envelopes() {
    for language in ["rust", "typescript", "go", "csharp", "java"] {
        let server = McpServer::start(&fixture(&format!("nav/{language}")), &[])
            .await
            .expect("start lingo");
        for (tool, kind) in [
            ("analyze_quality", "complexity"),
            ("analyze_quality", "maintainability"),
            ("analyze_dead_code", "unused_symbols"),
            ("analyze_dead_code", "unused_types"),
            ("analyze_dead_code", "unused_imports"),
        ] {
            let answer = server.call(tool, json!({ "kind": kind })).await.ok();
            assert_eq!(
                answer["metadata"]["language"], language,
                "{tool} {kind}: {answer:#}"
            );
            assert!(
                answer["summary"]["files_analyzed"].as_u64().unwrap() >= 3,
                "{answer:#}"
            );
        }
        let scoped = server
            .call(
                "analyze_quality",
                json!({ "scope": { "type": "directory", "path": ".", "include": ["*.nothing"] } }),
            )
            .await
            .ok();
        assert_eq!(scoped["summary"]["files_analyzed"], 0, "{scoped:#}");
        for (arguments, code, field) in [
            (json!({ "kind": "odors" }), "INVALID_PARAM", "kind"),
            (
                json!({ "scope": { "type": "file" } }),
                "MISSING_REQUIRED_PARAM",
                "scope.path",
            ),
            (
                json!({ "scope": { "type": "planet" } }),
                "INVALID_PARAM",
                "scope.type",
            ),
            (
                json!({ "scope": { "type": "workspace", "include": ["a[" ] } }),
                "INVALID_PARAM",
                "scope",
            ),
            (
                json!({ "scope": { "type": "file", "path": "../x" } }),
                "PATH_OUTSIDE_BOUNDARY",
                "",
            ),
            (
                json!({ "options": { "thresholds": { "cyclomatic": 3 } } }),
                "UNKNOWN_PARAM",
                "options.thresholds.cyclomatic",
            ),
            (
                json!({ "options": { "thresholds": { "cyclomatic_complexity": -1 } } }),
                "INVALID_PARAM",
                "options.thresholds.cyclomatic_complexity",
            ),
            (json!({ "limit": 0 }), "INVALID_PARAM", "limit"),
            (
                json!({ "options": { "limit": 9000 } }),
                "INVALID_PARAM",
                "options.limit",
            ),
        ] {
            let error = server
                .call("analyze_quality", arguments.clone())
                .await
                .err();
            assert_eq!(error["code"], code, "{language} {arguments}: {error:#}");
            if !field.is_empty() {
                assert_eq!(
                    error["details"]["field"], field,
                    "{language} {arguments}: {error:#}"
                );
            }
        }
        server.stop().await;
    }
}

/// A module cycle (two TypeScript files importing each other) and a cycle
/// of declarations (mutual recursion) are found with their concrete path
/// and the reference making each step; a Go import cycle is high, since
/// Go refuses one.
#[tokio::test]
async fn cycles_are_found_with_their_path_and_steps() {
    let scratch = Scratch::new("analyses-cycles");
    let root = scratch.path().join("ts");
    scratch.write(
        "ts/src/even.ts",
        "import { isOdd } from \"./odd\";\n\nexport function isEven(n: number): boolean {\n  return n === 0 ? true : isOdd(n - 1);\n}\n",
    );
    scratch.write(
        "ts/src/odd.ts",
        "import { isEven } from \"./even\";\n\nexport function isOdd(n: number): boolean {\n  return n === 0 ? false : isEven(n - 1);\n}\n",
    );
    scratch.write("ts/src/alone.ts", "export const alone = 1;\n");
    let server = McpServer::start(&root, &[]).await.expect("start lingo");
    let modules = server.call("analyze_cycles", json!({})).await.ok();
    assert_eq!(
        findings(&modules),
        ["circular_dependency medium src/even.ts"],
        "{modules:#}"
    );
    let metrics = &modules["findings"][0]["metrics"];
    assert_eq!(
        metrics["circular_path"],
        json!(["src/even", "src/odd", "src/even"]),
        "{metrics:#}"
    );
    assert_eq!(
        metrics["steps"],
        json!(["src/even.ts:1:10", "src/odd.ts:1:10"]),
        "{metrics:#}"
    );
    assert_eq!(metrics["component_size"], 2);
    let symbols = server
        .call("analyze.cycles", json!({ "kind": "symbols" }))
        .await
        .ok();
    assert_eq!(
        findings(&symbols),
        ["circular_reference low src/even.ts"],
        "{symbols:#}"
    );
    assert_eq!(
        symbols["findings"][0]["metrics"]["circular_path"],
        json!([
            "src/even.ts: isEven",
            "src/odd.ts: isOdd",
            "src/even.ts: isEven"
        ])
    );
    // Scoped to a file outside the cycle: nothing.
    let none = server
        .call(
            "analyze_cycles",
            json!({ "scope": { "type": "file", "path": "src/alone.ts" } }),
        )
        .await
        .ok();
    assert_eq!(none["summary"]["total_findings"], 0, "{none:#}");
    server.stop().await;

    let go = scratch.path().join("go");
    scratch.write("go/go.mod", "module example.com/c\n\ngo 1.22\n");
    scratch.write(
        "go/a/a.go",
        "package a\n\nimport \"example.com/c/b\"\n\n// A calls B.\nfunc A() int { return b.B() }\n",
    );
    scratch.write(
        "go/b/b.go",
        "package b\n\nimport \"example.com/c/a\"\n\n// B calls A.\nfunc B() int { return a.A() }\n",
    );
    let server = McpServer::start(&go, &[]).await.expect("start lingo");
    let refused = server.call("analyze_cycles", json!({})).await.ok();
    assert_eq!(
        findings(&refused),
        ["circular_dependency high a/a.go"],
        "{refused:#}"
    );
    server.stop().await;
}

/// A path through a module to an item is a dependency on the module that
/// declares the item, not on every module the path passes, and a parent
/// declaring its children (`mod x;`) is not a dependency: two Rust modules
/// using each other through `crate::` paths are the cycle, not the crate
/// root.
#[tokio::test]
async fn module_cycles_are_the_ones_the_references_make() {
    let scratch = Scratch::new("analyses-rust-cycles");
    scratch.write(
        "Cargo.toml",
        "[package]\nname = \"an\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    scratch.write(
        "src/lib.rs",
        "mod alpha;\nmod beta;\n\npub fn run() -> u32 {\n    alpha::ping(3)\n}\n",
    );
    scratch.write(
        "src/alpha.rs",
        "use crate::beta::pong;\n\npub fn ping(n: u32) -> u32 {\n    if n == 0 { 0 } else { pong(n - 1) }\n}\n",
    );
    scratch.write(
        "src/beta.rs",
        "use crate::alpha::ping;\n\npub fn pong(n: u32) -> u32 {\n    if n == 0 { 1 } else { ping(n - 1) }\n}\n",
    );
    let server = McpServer::start(scratch.path(), &[])
        .await
        .expect("start lingo");
    let modules = server.call("analyze_cycles", json!({})).await.ok();
    assert_eq!(modules["summary"]["total_findings"], 1, "{modules:#}");
    let metrics = &modules["findings"][0]["metrics"];
    assert_eq!(metrics["component_size"], 2, "{metrics:#}");
    let path: Vec<&str> = metrics["circular_path"]
        .as_array()
        .expect("a path")
        .iter()
        .filter_map(|p| p.as_str())
        .collect();
    assert_eq!(path.len(), 3, "{metrics:#}");
    assert!(
        path.iter()
            .all(|m| m.ends_with("alpha") || m.ends_with("beta")),
        "{metrics:#}"
    );
    server.stop().await;
}

/// `lingo analyze quality_gate --format junit`, read by a JUnit parser as a
/// CI server would: a failed complexity check naming the function, the
/// checks lingo does not measure skipped; exit code 1 on failure, 0 once
/// the threshold allows the function. The MCP tool answers the same
/// verdict, and with `fail_on_violation` refuses with QUALITY_GATE_FAILED.
#[tokio::test]
async fn the_quality_gate_fails_in_junit_and_in_the_exit_code() {
    let scratch = Scratch::new("analyses-gate");
    let root = scratch.path().join("rust");
    scratch.write(
        "rust/Cargo.toml",
        "[package]\nname = \"tidy\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    scratch.write("rust/src/lib.rs", "pub mod tidy;\n");
    scratch.write("rust/src/tidy.rs", TIDY);
    let run = |threshold: &str| {
        std::process::Command::new(lingo_e2e::lingo_bin())
            .args([
                "analyze",
                "quality_gate",
                "--format",
                "junit",
                "--complexity-threshold",
                threshold,
            ])
            .arg("--root")
            .arg(&root)
            .arg("--cache-dir")
            .arg(lingo_e2e::cache_dir())
            .output()
            .expect("run lingo analyze")
    };
    let failed = run("5");
    assert_eq!(
        failed.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&failed.stderr)
    );
    let report = junit_parser::from_reader(std::io::Cursor::new(failed.stdout)).expect("JUnit XML");
    assert_eq!(report.tests, 4);
    assert_eq!(report.failures, 1);
    let suite = &report.suites[0];
    let cases: Vec<(&str, bool, bool)> = suite
        .cases
        .iter()
        .map(|c| {
            (
                c.name.as_str(),
                c.status.is_failure(),
                c.status.is_skipped(),
            )
        })
        .collect();
    assert_eq!(
        cases,
        [
            ("complexity", true, false),
            ("duplication", false, false),
            ("coverage", false, true),
            ("defect_probability", false, true),
        ]
    );
    let failure = suite.cases[0].status.failure_as_ref();
    assert!(
        failure
            .text
            .contains("`classify` has a cyclomatic complexity of 6"),
        "{failure:?}"
    );
    let passed = run("6");
    assert_eq!(
        passed.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&passed.stderr)
    );

    let server = McpServer::start(&root, &[]).await.expect("start lingo");
    let verdict = server
        .call("quality_gate", json!({ "complexity_threshold": 5 }))
        .await
        .ok();
    assert_eq!(verdict["passed"], false, "{verdict:#}");
    assert_eq!(verdict["violations"][0]["symbol"], "classify");
    let refused = server
        .call(
            "quality_gate",
            json!({ "complexity_threshold": 5, "fail_on_violation": true }),
        )
        .await
        .err();
    assert_eq!(refused["code"], "QUALITY_GATE_FAILED", "{refused:#}");
    assert_eq!(refused["details"]["failedChecks"], json!(["complexity"]));
    server.stop().await;
}

/// `analyze_graph_metrics` on a small TypeScript graph (a imports b and c,
/// b imports c, d alone): c ranks first, the one path a..b..c is not the
/// shortest, the triangle clusters fully, two weak components, no cycle;
/// seeds personalise PageRank; GraphML lists every node and edge.
#[tokio::test]
async fn graph_metrics_rank_the_depended_on_first() {
    let scratch = Scratch::new("analyses-graph");
    let root = scratch.path().join("ts");
    scratch.write("ts/src/c.ts", "export const c = 1;\n");
    scratch.write(
        "ts/src/b.ts",
        "import { c } from \"./c\";\nexport const b = c + 1;\n",
    );
    scratch.write(
        "ts/src/a.ts",
        "import { b } from \"./b\";\nimport { c } from \"./c\";\nexport const a = b + c;\n",
    );
    scratch.write("ts/src/d.ts", "export const d = 4;\n");
    let server = McpServer::start(&root, &[]).await.expect("start lingo");
    let metrics = server
        .call("analyze_graph_metrics", json!({ "graphml": true }))
        .await
        .ok();
    let names: Vec<&str> = metrics["ranked"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["name"].as_str().unwrap())
        .collect();
    assert_eq!(names[0], "src/c.ts", "{metrics:#}");
    assert_eq!(metrics["nodes"], 4);
    assert_eq!(metrics["edges"], 3);
    assert_eq!(metrics["components"]["weakly_connected"], 2);
    assert_eq!(metrics["components"]["cyclic_components"], 0);
    let node = |name: &str| {
        metrics["ranked"]
            .as_array()
            .unwrap()
            .iter()
            .find(|n| n["name"] == name)
            .cloned()
            .unwrap()
    };
    assert_eq!(node("src/c.ts")["in_degree"], 2);
    assert_eq!(node("src/b.ts")["betweenness"], 0.0);
    assert_eq!(node("src/a.ts")["clustering"], 1.0);
    let graphml = metrics["graphml"].as_str().unwrap();
    assert_eq!(graphml.matches("<node ").count(), 4, "{graphml}");
    assert_eq!(graphml.matches("<edge ").count(), 3, "{graphml}");
    let seeded = server
        .call(
            "analyze_graph_metrics",
            json!({ "metrics": ["pagerank"], "pagerank_seeds": ["d.ts"] }),
        )
        .await
        .ok();
    assert_eq!(seeded["ranked"][0]["name"], "src/d.ts", "{seeded:#}");
    assert_eq!(seeded["seeds"], json!(["src/d.ts"]));
    let error = server
        .call(
            "analyze_graph_metrics",
            json!({ "pagerank_seeds": ["e.ts"] }),
        )
        .await
        .err();
    assert_eq!(error["code"], "INVALID_PARAM");
    assert_eq!(error["details"]["field"], "pagerank_seeds");
    server.stop().await;
}

/// `analyze_tests` follows calls from the tests the plugin names (a
/// `#[test]` calling `classify`, which calls `used`), so only the public
/// function no test reaches is untested; `analyze_documentation` lists the
/// public declarations without a doc comment, and the share per file.
#[tokio::test]
async fn tests_reach_what_they_call_and_documentation_is_counted() {
    let scratch = Scratch::new("analyses-tests-docs");
    let root = scratch.path().join("rust");
    scratch.write(
        "rust/Cargo.toml",
        "[package]\nname = \"tidy\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    scratch.write("rust/src/lib.rs", "pub mod tidy;\n");
    scratch.write(
        "rust/src/tidy.rs",
        format!(
            "{TIDY}\npub fn untested_api() -> u32 {{\n    2\n}}\n\n#[cfg(test)]\nmod tests {{\n    use super::*;\n\n    #[test]\n    fn small() {{\n        assert_eq!(classify(1), \"small\");\n    }}\n}}\n"
        ),
    );
    let server = McpServer::start(&root, &[]).await.expect("start lingo");
    let untested = server.call("analyze_tests", json!({})).await.ok();
    assert_eq!(
        findings(&untested),
        ["untested low untested_api"],
        "{untested:#}"
    );
    let coverage = server
        .call("analyze_tests", json!({ "kind": "coverage" }))
        .await
        .ok();
    assert_eq!(
        coverage["findings"][0]["metrics"]["coverage_ratio"], 0.5,
        "{coverage:#}"
    );
    let missing = server.call("analyze_documentation", json!({})).await.ok();
    assert_eq!(
        findings(&missing),
        ["missing_documentation low untested_api"],
        "{missing:#}"
    );
    let all = server
        .call(
            "analyze_documentation",
            json!({ "options": { "visibility": "all" } }),
        )
        .await
        .ok();
    assert_eq!(
        findings(&all),
        [
            "missing_documentation low only_the_dead_call_me",
            "missing_documentation low untested_api",
        ],
        "{all:#}"
    );
    server.stop().await;
}

/// `analyze_batch` answers each analysis as its own tool would, an
/// entry's error in its place, and refuses a tool it does not run.
#[tokio::test]
async fn a_batch_answers_each_analysis_in_its_place() {
    let scratch = Scratch::new("analyses-batch");
    let root = scratch.path().join("rust");
    scratch.write(
        "rust/Cargo.toml",
        "[package]\nname = \"tidy\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    scratch.write("rust/src/lib.rs", "pub mod tidy;\n");
    scratch.write("rust/src/tidy.rs", TIDY);
    let server = McpServer::start(&root, &[]).await.expect("start lingo");
    let batch = server
        .call(
            "analyze_batch",
            json!({ "analyses": [
                { "tool": "analyze_dead_code" },
                { "tool": "analyze.quality", "options": { "thresholds": { "cyclomatic_complexity": 3 } } },
                { "tool": "analyze_tests", "kind": "nope" },
            ] }),
        )
        .await
        .ok();
    let results = batch["results"].as_array().unwrap();
    assert_eq!(results.len(), 3);
    let alone = server.call("analyze_dead_code", json!({})).await.ok();
    assert_eq!(
        findings(&results[0]["result"]),
        findings(&alone),
        "{batch:#}"
    );
    assert_eq!(
        findings(&results[1]["result"]),
        ["complexity_hotspot medium classify"]
    );
    assert_eq!(results[2]["tool"], "analyze_tests");
    assert_eq!(results[2]["error"]["code"], "INVALID_PARAM", "{batch:#}");
    let refused = server
        .call(
            "analyze_batch",
            json!({ "analyses": [{ "tool": "rename" }] }),
        )
        .await
        .err();
    assert_eq!(
        refused["details"]["field"], "analyses[0].tool",
        "{refused:#}"
    );
    server.stop().await;
}

/// Hostile arguments to every new analysis tool and to the CLI: numbers
/// out of range or of the wrong type, lists too long or of the wrong
/// items, globs of 10,000 patterns and of 50 KB, nested junk where an
/// object is expected. Each is a structured refusal naming its field (or
/// exit code 2), and the server answers afterwards.
#[tokio::test]
async fn hostile_analysis_arguments_are_refused_with_their_field() {
    let server = McpServer::start(&fixture("nav/rust"), &[])
        .await
        .expect("start lingo");
    let many: Vec<Value> = (0..17)
        .map(|_| json!({ "tool": "analyze_quality" }))
        .collect();
    let patterns: Vec<String> = (0..10_000).map(|i| format!("dir{i}/**/*.rs")).collect();
    // Deep, but within what a JSON-RPC message may nest (deeper messages
    // are refused whole by the protocol layer, see client_bounds.rs).
    let mut deep = json!("leaf");
    for _ in 0..100 {
        deep = json!({ "type": deep });
    }
    for (tool, arguments, code, field) in [
        (
            "quality_gate",
            json!({ "complexity_threshold": -1 }),
            "INVALID_PARAM",
            "complexity_threshold",
        ),
        (
            "quality_gate",
            json!({ "complexity_threshold": "ten" }),
            "INVALID_PARAM",
            "complexity_threshold",
        ),
        (
            "quality_gate",
            json!({ "fail_on_violation": "yes" }),
            "INVALID_PARAM",
            "fail_on_violation",
        ),
        (
            "quality_gate",
            json!({ "project_path": "../../etc" }),
            "PATH_OUTSIDE_BOUNDARY",
            "",
        ),
        (
            "analyze_complexity",
            json!({ "project_path": ".", "toolchain": "rust", "max_cyclomatic": 1u64 << 40 }),
            "INVALID_PARAM",
            "max_cyclomatic",
        ),
        (
            "analyze_complexity",
            json!({ "project_path": ".", "toolchain": "rust", "top_files": 1_000_000_000_000u64 }),
            "INVALID_PARAM",
            "top_files",
        ),
        (
            "analyze_complexity",
            json!({ "toolchain": "rust" }),
            "MISSING_REQUIRED_PARAM",
            "project_path",
        ),
        (
            "analyze_graph_metrics",
            json!({ "top": 0 }),
            "INVALID_PARAM",
            "top",
        ),
        (
            "analyze_graph_metrics",
            json!({ "metrics": ["pagerank", 5] }),
            "INVALID_PARAM",
            "metrics",
        ),
        (
            "analyze_graph_metrics",
            json!({ "metrics": ["entropy"] }),
            "INVALID_PARAM",
            "metrics",
        ),
        (
            "analyze_graph_metrics",
            json!({ "level": "galaxies" }),
            "INVALID_PARAM",
            "level",
        ),
        (
            "analyze_batch",
            json!({ "analyses": many }),
            "INVALID_PARAM",
            "analyses",
        ),
        (
            "analyze_batch",
            json!({ "analyses": [] }),
            "INVALID_PARAM",
            "analyses",
        ),
        (
            "analyze_batch",
            json!({ "analyses": [ 7 ] }),
            "MISSING_REQUIRED_PARAM",
            "analyses[0].tool",
        ),
        (
            "analyze_batch",
            json!({ "analyses": "all" }),
            "INVALID_PARAM",
            "analyses",
        ),
        (
            "analyze_dead_code",
            json!({ "scope": deep }),
            "INVALID_PARAM",
            "scope.type",
        ),
        (
            "analyze_dead_code",
            json!({ "scope": { "type": "workspace", "include": [1, 2] } }),
            "INVALID_PARAM",
            "scope.include",
        ),
        (
            "analyze_documentation",
            json!({ "options": { "visibility": ["all"] } }),
            "INVALID_PARAM",
            "options.visibility",
        ),
        (
            "analyze_tests",
            json!({ "options": "fast" }),
            "INVALID_PARAM",
            "options",
        ),
        (
            "analyze_cycles",
            json!({ "offset": -3 }),
            "INVALID_PARAM",
            "offset",
        ),
    ] {
        let error = server.call(tool, arguments.clone()).await.err();
        assert_eq!(error["code"], code, "{tool} {arguments:.200}: {error:#}");
        if !field.is_empty() {
            assert_eq!(error["details"]["field"], field, "{tool}: {error:#}");
        }
    }
    // Many globs, and one huge glob: answered (no file matches) or refused,
    // never a crash.
    for include in [json!(patterns), json!(["a".repeat(50_000)])] {
        let outcome = server
            .call(
                "analyze_quality",
                json!({ "scope": { "type": "workspace", "include": include } }),
            )
            .await;
        let value = outcome.value;
        assert!(
            value["summary"]["files_analyzed"] == 0 || value["error"]["code"].is_string(),
            "{value:#}"
        );
    }
    let alive = server.call("analyze_quality", json!({})).await.ok();
    assert!(alive["summary"].is_object(), "{alive:#}");
    server.stop().await;

    for args in [
        vec!["analyze", "quality", "--format", "xml"],
        vec!["analyze", "quality", "--fail-on", "catastrophic"],
        vec!["analyze", "astrology"],
    ] {
        let output = std::process::Command::new(lingo_e2e::lingo_bin())
            .args(&args)
            .arg("--root")
            .arg(fixture("nav/rust"))
            .arg("--cache-dir")
            .arg(lingo_e2e::cache_dir())
            .output()
            .expect("run lingo analyze");
        assert_eq!(
            output.status.code(),
            Some(2),
            "{args:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
}

/// `analyze_dependencies` on a TypeScript graph: a imports b and c, b
/// imports c (a chain of two); lib/x and lib/y use only util/z (a folder
/// whose dependencies all leave it); p and q import each other.
#[tokio::test]
async fn dependencies_are_judged_six_ways() {
    let scratch = Scratch::new("analyses-dependencies");
    let root = scratch.path().join("ts");
    scratch.write("ts/src/c.ts", "export const c = 1;\n");
    scratch.write(
        "ts/src/b.ts",
        "import { c } from \"./c\";\nexport const b = c + 1;\n",
    );
    scratch.write(
        "ts/src/a.ts",
        "import { b } from \"./b\";\nimport { c } from \"./c\";\nexport const a = b + c;\n",
    );
    scratch.write("ts/util/z.ts", "export const z = 26;\n");
    scratch.write(
        "ts/lib/x.ts",
        "import { z } from \"../util/z\";\nexport const x = z;\n",
    );
    scratch.write(
        "ts/lib/y.ts",
        "import { z } from \"../util/z\";\nexport const y = z;\n",
    );
    scratch.write(
        "ts/cyc/p.ts",
        "import { q } from \"./q\";\nexport const p = () => q();\n",
    );
    scratch.write(
        "ts/cyc/q.ts",
        "import { p } from \"./p\";\nexport const q = () => p();\n",
    );
    let server = McpServer::start(&root, &[]).await.expect("start lingo");
    let ask = |kind: &str, thresholds: Value| json!({ "kind": kind, "options": { "thresholds": thresholds } });
    let imports = server
        .call(
            "analyze_dependencies",
            ask("imports", json!({ "max_imports": 1 })),
        )
        .await
        .ok();
    assert_eq!(
        findings(&imports),
        ["too_many_imports medium src/a.ts"],
        "{imports:#}"
    );
    assert_eq!(imports["findings"][0]["metrics"]["import_count"], 2);
    assert_eq!(imports["metadata"]["thresholds"]["max_imports"], 1.0);
    let coupling = server
        .call(
            "analyze_dependencies",
            ask("coupling", json!({ "max_coupling": 1 })),
        )
        .await
        .ok();
    assert_eq!(
        findings(&coupling),
        ["high_coupling medium src/a.ts"],
        "{coupling:#}"
    );
    let depth = server
        .call(
            "analyze_dependencies",
            ask("depth", json!({ "max_depth": 1 })),
        )
        .await
        .ok();
    assert_eq!(
        findings(&depth),
        ["deep_dependencies medium src/a.ts"],
        "{depth:#}"
    );
    assert_eq!(depth["findings"][0]["metrics"]["dependency_depth"], 2);
    let cohesion = server
        .call("analyze_dependencies", ask("cohesion", json!({})))
        .await
        .ok();
    // lib's two dependencies both leave it; src's three stay; cyc's two stay.
    assert_eq!(
        findings(&cohesion),
        ["low_cohesion low lib/x.ts"],
        "{cohesion:#}"
    );
    assert_eq!(cohesion["findings"][0]["metrics"]["cohesion_score"], 0.0);
    let circular = server
        .call("analyze_dependencies", json!({ "kind": "circular" }))
        .await
        .ok();
    assert_eq!(findings(&circular).len(), 1, "{circular:#}");
    assert!(findings(&circular)[0].starts_with("circular_dependency medium cyc/"));
    let graph = server
        .call(
            "analyze_dependencies",
            json!({ "kind": "graph", "options": { "format": "graph" } }),
        )
        .await
        .ok();
    let payload = graph["metadata"]["graph"]["payload"].as_str().unwrap();
    assert!(payload.starts_with("graph TD\n"), "{payload}");
    assert!(payload.contains("[\"src/a.ts\"] --> "), "{payload}");
    assert_eq!(graph["summary"]["total_findings"], 8, "{graph:#}");
    let dot = server
        .call(
            "analyze_dependencies",
            json!({ "kind": "graph", "options": { "format": "graph", "export_format": "graphviz" } }),
        )
        .await
        .ok();
    assert!(
        dot["metadata"]["graph"]["payload"]
            .as_str()
            .unwrap()
            .contains("\"lib/x.ts\" -> \"util/z.ts\";")
    );
    for (arguments, field) in [
        (json!({ "kind": "fan" }), "kind"),
        (
            json!({ "options": { "thresholds": { "max_import": 3 } } }),
            "options.thresholds.max_import",
        ),
        (
            json!({ "options": { "thresholds": { "max_depth": -1 } } }),
            "options.thresholds.max_depth",
        ),
        (
            json!({ "options": { "format": "pretty" } }),
            "options.format",
        ),
    ] {
        let error = server
            .call("analyze_dependencies", arguments.clone())
            .await
            .err();
        assert_eq!(error["details"]["field"], field, "{arguments}: {error:#}");
    }
    server.stop().await;
}

/// `analyze_structure` on TypeScript: an interface implemented once, a
/// chain of four supertypes, a class of three methods.
#[tokio::test]
async fn structure_counts_members_implementations_and_supertypes() {
    let scratch = Scratch::new("analyses-structure");
    let root = scratch.path().join("ts");
    scratch.write(
        "ts/src/shapes.ts",
        "export interface Shape {\n  area(): number;\n}\n\nexport class Base implements Shape {\n  area(): number { return 0; }\n}\n\nexport class Mid extends Base {}\n\nexport class Leaf extends Mid {}\n\nexport class Tip extends Leaf {}\n",
    );
    scratch.write(
        "ts/src/big.ts",
        "export class Big {\n  one(): number { return 1; }\n  two(): number { return 2; }\n  three(): number { return 3; }\n}\n",
    );
    let server = McpServer::start(&root, &[]).await.expect("start lingo");
    let interfaces = server
        .call("analyze_structure", json!({ "kind": "interfaces" }))
        .await
        .ok();
    assert_eq!(
        findings(&interfaces),
        ["interface low Shape"],
        "{interfaces:#}"
    );
    assert_eq!(
        interfaces["findings"][0]["metrics"]["implementation_count"],
        1
    );
    let inheritance = server
        .call("analyze_structure", json!({ "kind": "inheritance" }))
        .await
        .ok();
    // Tip -> Leaf -> Mid -> Base -> Shape.
    assert_eq!(
        findings(&inheritance),
        ["deep_inheritance medium Tip"],
        "{inheritance:#}"
    );
    assert_eq!(
        inheritance["findings"][0]["metrics"]["inheritance_depth"],
        4
    );
    let hierarchy = server
        .call(
            "analyze_structure",
            json!({ "kind": "hierarchy", "options": { "thresholds": { "max_children": 2 } } }),
        )
        .await
        .ok();
    assert_eq!(
        findings(&hierarchy),
        ["large_declaration medium Big"],
        "{hierarchy:#}"
    );
    let symbols = server
        .call(
            "analyze_structure",
            json!({ "kind": "symbols", "options": { "symbol_kinds": ["class"] } }),
        )
        .await
        .ok();
    let counts: Vec<(String, Value)> = symbols["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["location"]["file_path"].as_str().unwrap().to_string(),
                f["metrics"]["child_count"].clone(),
            )
        })
        .collect();
    assert_eq!(
        counts,
        [
            ("src/big.ts".to_string(), json!(1)),
            ("src/shapes.ts".to_string(), json!(4))
        ],
        "{symbols:#}"
    );
    let modules = server
        .call("analyze_structure", json!({ "kind": "modules" }))
        .await
        .ok();
    assert_eq!(modules["summary"]["total_findings"], 2, "{modules:#}");
    for (arguments, field) in [
        (json!({ "kind": "layers" }), "kind"),
        (
            json!({ "options": { "symbol_kinds": ["klass"] } }),
            "options.symbol_kinds",
        ),
        (
            json!({ "options": { "include_private": 1 } }),
            "options.include_private",
        ),
        (
            json!({ "options": { "thresholds": { "max_kids": 1 } } }),
            "options.thresholds.max_kids",
        ),
    ] {
        let error = server
            .call("analyze_structure", arguments.clone())
            .await
            .err();
        assert_eq!(error["details"]["field"], field, "{arguments}: {error:#}");
    }
    server.stop().await;
}

/// The coverage check reads the project's own test run: coverage.py's
/// lcov and Cobertura reports of the fixture (calc.py 60%, shapes.py 100%,
/// 73.33% in all, as coverage.py reports them) gate per file and overall;
/// without a threshold or a report it is skipped with the reason.
#[tokio::test]
async fn the_gate_checks_coverage_from_the_projects_report() {
    let scratch = Scratch::new("analyses-gate-coverage");
    let source = lingo_e2e::fixture("coverage/python");
    for name in [
        "calc.py",
        "shapes.py",
        "test_calc.py",
        "lcov.info",
        "coverage.xml",
    ] {
        let text = std::fs::read_to_string(source.join(name)).expect("fixture file");
        scratch.write(name, &text);
    }
    let server = McpServer::start(scratch.path(), &[])
        .await
        .expect("start lingo");
    let coverage_of = |verdict: &Value| -> (String, Vec<String>) {
        let check = verdict["checks"]
            .as_array()
            .expect("checks")
            .iter()
            .find(|c| c["name"] == "coverage")
            .cloned()
            .unwrap_or_default();
        let violations = verdict["violations"]
            .as_array()
            .expect("violations")
            .iter()
            .filter(|v| v["check"] == "coverage")
            .map(|v| format!("{} {}", v["file_path"].as_str().unwrap_or("?"), v["value"]))
            .collect();
        (
            check["status"].as_str().unwrap_or("?").to_string(),
            violations,
        )
    };
    for file in ["lcov.info", "coverage.xml"] {
        let strict = server
            .call(
                "quality_gate",
                json!({ "coverage_threshold": 80, "coverage_file": file }),
            )
            .await
            .ok();
        assert_eq!(
            coverage_of(&strict),
            (
                "failed".to_string(),
                vec!["calc.py 60.0".to_string(), ". 73.33".to_string()]
            ),
            "{file}: {strict:#}"
        );
        let lenient = server
            .call(
                "quality_gate",
                json!({ "coverage_threshold": 50, "coverage_file": file }),
            )
            .await
            .ok();
        assert_eq!(
            coverage_of(&lenient),
            ("passed".to_string(), Vec::new()),
            "{file}: {lenient:#}"
        );
    }
    // No file named: the first report present at a usual place.
    let found = server
        .call("quality_gate", json!({ "coverage_threshold": 70 }))
        .await
        .ok();
    assert_eq!(
        coverage_of(&found),
        ("failed".to_string(), vec!["calc.py 60.0".to_string()]),
        "{found:#}"
    );
    let unasked = server.call("quality_gate", json!({})).await.ok();
    assert_eq!(coverage_of(&unasked).0, "skipped", "{unasked:#}");
    for (file, code) in [
        ("missing.info", "FILE_NOT_FOUND"),
        ("calc.py", "INVALID_PARAM"),
        ("../outside.info", "PATH_OUTSIDE_BOUNDARY"),
    ] {
        let refused = server
            .call(
                "quality_gate",
                json!({ "coverage_threshold": 80, "coverage_file": file }),
            )
            .await
            .code();
        assert_eq!(refused, code, "{file}");
    }
    server.stop().await;
    // Without any report, the check says why it is skipped.
    let bare = Scratch::new("analyses-gate-no-coverage");
    bare.write("calc.py", "def add(a, b):\n    return a + b\n");
    let server = McpServer::start(bare.path(), &[])
        .await
        .expect("start lingo");
    let skipped = server
        .call("quality_gate", json!({ "coverage_threshold": 80 }))
        .await
        .ok();
    let check = skipped["checks"]
        .as_array()
        .expect("checks")
        .iter()
        .find(|c| c["name"] == "coverage")
        .cloned()
        .unwrap_or_default();
    assert_eq!(check["status"], "skipped", "{skipped:#}");
    assert!(
        check["reason"]
            .as_str()
            .unwrap_or_default()
            .contains("no coverage report"),
        "{check:#}"
    );
    server.stop().await;
}

/// The project's `lingo.toml` sets the gate's thresholds; a call's
/// arguments override them; a bad one is refused at start.
#[tokio::test]
async fn the_gate_reads_its_thresholds_from_lingo_toml() {
    let scratch = Scratch::new("analyses-gate-config");
    let root = scratch.path().join("rust");
    scratch.write("rust/src/lib.rs", "pub mod tidy;\n");
    scratch.write("rust/src/tidy.rs", TIDY);
    scratch.write(
        "rust/lingo.toml",
        "[quality_gate]\ncomplexity_threshold = 5\n",
    );
    let run = || {
        std::process::Command::new(lingo_e2e::lingo_bin())
            .args(["analyze", "quality_gate"])
            .arg("--root")
            .arg(&root)
            .arg("--cache-dir")
            .arg(lingo_e2e::cache_dir())
            .output()
            .expect("run lingo analyze")
    };
    let failed = run();
    assert_eq!(
        failed.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&failed.stderr)
    );
    let verdict: Value = serde_json::from_slice(&failed.stdout).unwrap();
    assert_eq!(verdict["checks"][0]["threshold"], 5.0, "{verdict:#}");
    let server = McpServer::start(&root, &[]).await.expect("start lingo");
    let from_file = server.call("quality_gate", json!({})).await.ok();
    assert_eq!(from_file["passed"], false, "{from_file:#}");
    let overridden = server
        .call("quality_gate", json!({ "complexity_threshold": 6 }))
        .await
        .ok();
    assert_eq!(overridden["passed"], true, "{overridden:#}");
    server.stop().await;
    scratch.write(
        "rust/lingo.toml",
        "[quality_gate]\ncomplexity_threshold = -2\n",
    );
    let refused = run();
    assert_ne!(refused.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(
        stderr.contains("quality_gate.complexity_threshold"),
        "{stderr}"
    );
    scratch.write("rust/lingo.toml", "[quality_gate]\ncomplexity = 3\n");
    let unknown = run();
    assert_ne!(unknown.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("complexity"));
}

/// Unused locals: a variable nothing reads, one read only in a format
/// string (kept), one read in a match guard (used); a parameter nothing
/// reads, one marked unused with `_`, and those of a trait and its
/// implementation (their signature is not theirs to change).
#[tokio::test]
async fn unused_variables_and_parameters_are_found() {
    let scratch = Scratch::new("analyses-locals");
    let root = scratch.path().join("rust");
    scratch.write("rust/src/lib.rs", "pub mod locals;\n");
    scratch.write(
        "rust/src/locals.rs",
        "pub struct S;\n\npub trait T {\n    fn g(&self, a: u32);\n}\n\nimpl T for S {\n    fn g(&self, a: u32) {}\n}\n\npub fn f(ready: bool, unused_arg: u32, _quiet: u8) -> u32 {\n    let wanted = ready;\n    let lonely = 3;\n    let shown = 4;\n    println!(\"{shown}\");\n    match Some(1) {\n        Some(x) if wanted => x,\n        _ => 0,\n    }\n}\n",
    );
    let server = McpServer::start(&root, &[]).await.expect("start lingo");
    let messages = |answer: &Value| -> Vec<String> {
        answer["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                format!(
                    "{} {}:{}",
                    f["message"].as_str().unwrap(),
                    f["severity"].as_str().unwrap(),
                    f["location"]["range"]["start"]["line"]
                )
            })
            .collect()
    };
    let variables = server
        .call("analyze_dead_code", json!({ "kind": "unused_variables" }))
        .await
        .ok();
    assert_eq!(
        messages(&variables),
        ["variable `lonely` is never used medium:12"],
        "{variables:#}"
    );
    let parameters = server
        .call("analyze_dead_code", json!({ "kind": "unused_parameters" }))
        .await
        .ok();
    assert_eq!(
        messages(&parameters),
        ["parameter `unused_arg` is never used low:10"],
        "{parameters:#}"
    );
    // The guard's `wanted` is a use of the variable, found as one.
    let references = server
        .call(
            "find_references",
            json!({ "path": "src/locals.rs", "line": 11, "character": 8, "include_declaration": false, "format": "json" }),
        )
        .await
        .ok();
    let lines: Vec<u64> = references["references"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["range"]["start"]["line"].as_u64().unwrap())
        .collect();
    assert_eq!(lines, [16], "{references:#}");
    server.stop().await;
}

/// What says "unused on purpose" comes from each language's policy: a
/// Python method's `self` and a classmethod's `cls` are the receiver, a
/// TypeScript `abstract` or `declare` signature has no body to use its
/// parameters, a Rust `_`-prefixed item is one rustc leaves alone; the
/// parameters that are unused by mistake are still found.
#[tokio::test]
async fn unused_on_purpose_is_each_languages_own_rule() {
    let scratch = Scratch::new("analyses-unused-policy");
    scratch.write(
        "py/shapes.py",
        "class Shape:\n    def area(self, scale):\n        return 1\n\n    @classmethod\n    def unit(cls, size):\n        return size\n",
    );
    scratch.write(
        "web/shape.ts",
        "export abstract class Shape {\n  abstract area(scale: number): number;\n  grow(step: number): number {\n    return 1;\n  }\n}\ndeclare function measure(unit: string): number;\nexport const m = measure;\n",
    );
    scratch.write(
        "Cargo.toml",
        "[package]\nname = \"quiet\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    scratch.write(
        "src/lib.rs",
        "fn _kept_for_later() {}\n\nfn forgotten() {}\n\npub fn used() {}\n",
    );
    let server = McpServer::start(scratch.path(), &[])
        .await
        .expect("start lingo");
    server.wait_until_indexed(PATIENCE).await;
    let parameters = server
        .call("analyze_dead_code", json!({ "kind": "unused_parameters" }))
        .await
        .ok();
    let mut names: Vec<String> = parameters["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| {
            format!(
                "{} {}",
                f["location"]["file_path"].as_str().unwrap_or("?"),
                f["message"].as_str().unwrap_or("?")
            )
        })
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "py/shapes.py parameter `scale` is never used",
            "web/shape.ts parameter `step` is never used",
        ],
        "{parameters:#}"
    );
    let symbols = server.call("analyze_dead_code", json!({})).await.ok();
    assert_eq!(
        findings(&symbols),
        ["unused_symbol medium forgotten"],
        "{symbols:#}"
    );
    server.stop().await;
}

/// `analyze_quality` smells and readability on Rust written for them.
#[tokio::test]
async fn smells_and_readability_are_found() {
    let scratch = Scratch::new("analyses-smells");
    let root = scratch.path().join("rust");
    scratch.write("rust/src/lib.rs", "pub mod smelly;\n");
    scratch.write(
        "rust/src/smelly.rs",
        "pub fn many(a: u8, b: u8, c: u8, d: u8, e: u8, f: u8) -> u8 {\n    a + b + c + d + e + f\n}\n\npub fn nested(x: u32) -> u32 {\n    if x > 0 {\n        if x > 1 {\n            if x > 2 {\n                if x > 3 {\n                    if x > 4 {\n                        return 5;\n                    }\n                }\n            }\n        }\n    }\n    0\n}\n\npub fn snake_one() {}\npub fn snake_two() {}\npub fn snake_three() {}\npub fn snake_four() {}\npub fn camelCase() {}\npub fn ab() {}\n\npub struct Big {\n    pub alpha: u8,\n    pub beta: u8,\n    pub gamma: u8,\n}\n",
    );
    let server = McpServer::start(&root, &[]).await.expect("start lingo");
    let smells = server
        .call(
            "analyze_quality",
            json!({ "kind": "smells", "options": { "thresholds": { "class_members": 2 } } }),
        )
        .await
        .ok();
    assert_eq!(
        findings(&smells),
        [
            "long_parameter_list medium many",
            "deep_nesting medium nested",
            "large_class medium Big"
        ],
        "{smells:#}"
    );
    assert_eq!(smells["metadata"]["thresholds"]["class_members"], 2.0);
    let readability = server
        .call("analyze_quality", json!({ "kind": "readability" }))
        .await
        .ok();
    assert_eq!(
        findings(&readability),
        ["inconsistent_naming low camelCase", "short_name low ab"],
        "{readability:#}"
    );
    server.stop().await;
}

/// `analyze_graph_metrics` at the level of declarations.
#[tokio::test]
async fn graph_metrics_rank_declarations_too() {
    let scratch = Scratch::new("analyses-graph-symbols");
    let root = scratch.path().join("ts");
    scratch.write("ts/src/c.ts", "export const c = 1;\n");
    scratch.write(
        "ts/src/b.ts",
        "import { c } from \"./c\";\nexport const b = c + 1;\n",
    );
    scratch.write(
        "ts/src/a.ts",
        "import { b } from \"./b\";\nimport { c } from \"./c\";\nexport const a = b + c;\n",
    );
    let server = McpServer::start(&root, &[]).await.expect("start lingo");
    let metrics = server
        .call("analyze_graph_metrics", json!({ "level": "symbols" }))
        .await
        .ok();
    assert_eq!(metrics["level"], "symbols");
    assert_eq!(metrics["ranked"][0]["name"], "src/c.ts:c", "{metrics:#}");
    assert_eq!(metrics["edges"], 3, "{metrics:#}");
    // A seed named by its declaration's last part.
    let seeded = server
        .call(
            "analyze_graph_metrics",
            json!({ "level": "symbols", "pagerank_seeds": ["a"] }),
        )
        .await
        .ok();
    assert_eq!(seeded["seeds"], json!(["src/a.ts:a"]), "{seeded:#}");
    let error = server
        .call("analyze_graph_metrics", json!({ "level": "galaxy" }))
        .await
        .err();
    assert_eq!(error["details"]["field"], "level");
    server.stop().await;
}

/// Unreachable code in the four languages: a statement after `return`.
#[tokio::test]
async fn unreachable_code_is_found_in_every_language() {
    let scratch = Scratch::new("analyses-unreachable");
    let root = scratch.path();
    scratch.write(
        "a.rs",
        "pub fn f() -> u8 {\n    return 1;\n    let _x = 2;\n}\n",
    );
    scratch.write(
        "a.go",
        "package a\n\nfunc F() int {\n\treturn 1\n\tpanic(\"never\")\n}\n",
    );
    scratch.write(
        "a.ts",
        "export function f(): number {\n  return 1;\n  console.log(\"never\");\n}\n",
    );
    scratch.write(
        "A.cs",
        "class A\n{\n    int F()\n    {\n        return 1;\n        System.Console.WriteLine();\n    }\n}\n",
    );
    let server = McpServer::start(root, &[]).await.expect("start lingo");
    server.wait_until_indexed(PATIENCE).await;
    let answer = server
        .call("analyze_dead_code", json!({ "kind": "unreachable_code" }))
        .await
        .ok();
    let places: Vec<String> = answer["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            format!(
                "{} {}:{}",
                f["severity"].as_str().unwrap(),
                f["location"]["file_path"].as_str().unwrap(),
                f["location"]["range"]["start"]["line"]
            )
        })
        .collect();
    assert_eq!(
        places,
        [
            "medium A.cs:5",
            "medium a.go:4",
            "medium a.rs:2",
            "medium a.ts:2"
        ],
        "{answer:#}"
    );
    assert_eq!(answer["findings"][0]["metrics"]["lines"], 1);
    server.stop().await;
}
