//! The tools an operator chooses (`--toolsets`, `--read-only`, lingo.toml)
//! as a client sees them, and `lingo call` / `lingo tools`, the command-line
//! twin of every tool.

use std::process::Output;

use lingo_e2e::{McpServer, Scratch, cache_dir, fixture, lingo_bin, serve_command};
use rmcp::ServiceError;
use rmcp::model::{CallToolRequestParams, ProtocolVersion};
use serde_json::json;

async fn listed(server: &McpServer) -> Vec<String> {
    let tools = server.client.list_all_tools().await.expect("tools/list");
    tools.iter().map(|t| t.name.to_string()).collect()
}

#[tokio::test]
async fn the_default_set_is_served_unless_the_operator_chooses_others() {
    let server = McpServer::start(&fixture("rust-workspace"), &["--toolsets", "default"])
        .await
        .expect("start lingo");
    let names = listed(&server).await;
    assert_eq!(
        names,
        [
            "outline",
            "search_symbols",
            "find_definition",
            "find_references",
            "get_symbol_info",
            "get_call_hierarchy",
            "node_source",
            "rename",
            "apply_plan",
            "rollback"
        ]
    );
    let instructions = server
        .client
        .peer_info()
        .and_then(|info| info.instructions.clone())
        .expect("instructions");
    assert!(
        instructions.contains("Toolsets offered: default"),
        "{instructions}"
    );
    assert!(instructions.contains("analysis"), "{instructions}");

    // A tool of another set is refused with the set that has it.
    let call = server.client.call_tool(
        CallToolRequestParams::new("analyze_dead_code").with_arguments(Default::default()),
    );
    let error = lingo_e2e::patiently("a tool not offered", call)
        .await
        .expect_err("not offered");
    let ServiceError::McpError(error) = error else {
        panic!("expected a JSON-RPC error, got {error}")
    };
    assert_eq!(error.code.0, -32602);
    let data = error.data.expect("error data");
    assert_eq!(data["code"], json!("TOOL_NOT_ENABLED"));
    assert_eq!(data["toolset"], json!("analysis"));
    server.stop().await;
}

#[tokio::test]
async fn read_only_and_lingo_toml_choose_the_tools_the_flags_do_not() {
    let scratch = Scratch::new("toolsets-config");
    let root = scratch.copy_fixture("rust-workspace");
    std::fs::write(
        root.join("lingo.toml"),
        "[tools]\ntoolsets = [\"refactoring\", \"graph\"]\nexclude = [\"rollback\"]\n",
    )
    .expect("write lingo.toml");
    // Without the harness's choice of every tool, lingo.toml's stands.
    let mut command = serve_command(&root, &["--read-only"]);
    command.env_remove("LINGO_TOOLSETS");
    let server = McpServer::start_command(command, ProtocolVersion::default())
        .await
        .expect("start lingo");
    let names = listed(&server).await;
    // The refactorings all write: read-only leaves the graph tools.
    assert_eq!(names, ["dependents_of", "dependencies_of", "paths_between"]);
    server.stop().await;

    let output = std::process::Command::new(lingo_bin())
        .args(["serve", "--toolsets", "refactorings", "--root"])
        .arg(&root)
        .env_remove("LINGO_TOOLSETS")
        .output()
        .expect("run lingo serve");
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("unknown toolset `refactorings`"),
        "{stderr}"
    );
}

/// An outline of the fixture's pricing module over `server`.
async fn outline(server: &McpServer, format: Option<&str>) -> rmcp::model::CallToolResult {
    let mut arguments = json!({ "path": "src/pricing.rs" });
    if let Some(format) = format {
        arguments["format"] = json!(format);
    }
    let serde_json::Value::Object(arguments) = arguments else {
        unreachable!("an object")
    };
    let call = server
        .client
        .call_tool(CallToolRequestParams::new("outline").with_arguments(arguments));
    lingo_e2e::patiently("outline", call)
        .await
        .expect("outline answers")
}

/// lingo on `root` without the harness's choice of structured output (the
/// flags and lingo.toml decide), and the tools it lists.
async fn start_as_configured(root: &std::path::Path) -> (McpServer, Vec<rmcp::model::Tool>) {
    let mut command = serve_command(root, &[]);
    command.env_remove("LINGO_STRUCTURED_OUTPUT");
    let server = McpServer::start_command(command, ProtocolVersion::default())
        .await
        .expect("start lingo");
    let tools = server.client.list_all_tools().await.expect("tools/list");
    (server, tools)
}

/// What a model reads is the compact text: without the operator's choice
/// of structured output, an answer carries no `structuredContent` (clients
/// that find one hand the model that instead) and no tool an
/// `outputSchema`; `format: json` asks for it; lingo.toml's
/// `structured_output` gives it to every answer.
#[tokio::test]
async fn an_answer_is_its_text_unless_structured_output_is_chosen() {
    let scratch = Scratch::new("structured-output");
    let root = scratch.copy_fixture("rust-workspace");
    let (server, tools) = start_as_configured(&root).await;
    assert!(tools.iter().all(|tool| tool.output_schema.is_none()));
    let answered = outline(&server, None).await;
    assert_eq!(answered.structured_content, None);
    let text = &answered.content[0].as_text().expect("text").text;
    assert!(text.contains("pub fn total_with_tax"), "{text}");
    let asked = outline(&server, Some("json")).await;
    let structured = asked.structured_content.expect("asked for");
    assert_eq!(structured["filePath"], json!("src/pricing.rs"));
    server.stop().await;

    std::fs::write(
        root.join("lingo.toml"),
        "[tools]\nstructured_output = true\n",
    )
    .expect("write lingo.toml");
    let (server, tools) = start_as_configured(&root).await;
    assert!(tools.iter().all(|tool| tool.output_schema.is_some()));
    let answered = outline(&server, None).await;
    let structured = answered.structured_content.expect("every answer");
    lingo_e2e::check_output_schema("outline", &structured);
    let text = &answered.content[0].as_text().expect("text").text;
    assert!(text.contains("pub fn total_with_tax"), "{text}");
    server.stop().await;
}

/// `lingo call` on the fixture with `args`.
fn call(args: &[&str]) -> Output {
    std::process::Command::new(lingo_bin())
        .arg("call")
        .args(args)
        .arg("--root")
        .arg(fixture("rust-workspace"))
        .arg("--cache-dir")
        .arg(cache_dir())
        .env_remove("LINGO_CACHE_DIR")
        .output()
        .expect("run lingo call")
}

#[test]
fn lingo_call_answers_refuses_and_rejects_with_its_exit_codes() {
    let answered = call(&["outline", "--arg", "path=src/pricing.rs"]);
    let text = String::from_utf8_lossy(&answered.stdout);
    assert_eq!(answered.status.code(), Some(0), "{text}");
    assert!(text.contains("pub fn total_with_tax"), "{text}");

    let json = call(&["search_symbols", r#"{"query": "total", "format": "json"}"#]);
    assert_eq!(json.status.code(), Some(0));
    let value: serde_json::Value =
        serde_json::from_slice(&json.stdout).expect("format=json prints JSON");
    assert!(
        value["symbols"].as_array().is_some_and(|s| !s.is_empty()),
        "{value}"
    );

    // The tool refuses: 1, its error printed as a client would read it.
    let refused = call(&["rollback", "--arg", "snapshot_id=no-such-snapshot"]);
    assert_eq!(refused.status.code(), Some(1));
    assert!(!refused.stdout.is_empty());

    // Bad arguments and unknown tools: 2.
    let bad = call(&["find_definition", "--arg", "unknown_field=1"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stdout).contains("UNKNOWN_PARAM"));
    let unknown = call(&["find_refs"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("find_references"));
    let not_json = call(&["outline", "{not json"]);
    assert_eq!(not_json.status.code(), Some(2));
}

/// `lingo call rename` applied (`dryRun: false`), with no watcher running:
/// the receipt reads the file as written, where the old name is left
/// nowhere (it read the index from before the write, and said so).
#[test]
fn lingo_call_applies_a_rename_and_its_receipt_reads_the_written_file() {
    let scratch = Scratch::new("cli-rename");
    let cache = Scratch::new("cli-rename-cache");
    scratch.write(
        "Cargo.toml",
        "[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    scratch.write(
        "src/lib.rs",
        "pub struct Handle;\n\nimpl Handle {\n    pub fn new() -> Handle {\n        Handle\n    }\n}\n",
    );
    let output = std::process::Command::new(lingo_bin())
        .args([
            "call",
            "rename",
            r#"{"path": "src/lib.rs", "line": 0, "character": 12, "new_name": "Runner", "dryRun": false, "format": "json"}"#,
        ])
        .arg("--root")
        .arg(scratch.path())
        .arg("--cache-dir")
        .arg(cache.path())
        .env_remove("LINGO_CACHE_DIR")
        .output()
        .expect("run lingo call");
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let applied: serde_json::Value =
        serde_json::from_slice(&output.stdout).expect("format=json prints JSON");
    assert_eq!(applied["success"], true, "{applied:#}");
    let written = std::fs::read_to_string(scratch.path().join("src/lib.rs")).unwrap();
    assert_eq!(written.matches("Runner").count(), 4, "{written}");
    assert!(!written.contains("Handle"), "{written}");
    assert_eq!(
        applied["receipt"]["old_name_left"]["count"], 0,
        "{applied:#}"
    );
}

/// A use of another type of the old name inside a macro that expands its
/// tokens twice is one place left, not two.
#[test]
fn a_receipt_counts_each_place_the_old_name_is_left_once() {
    let scratch = Scratch::new("cli-rename-twice");
    let cache = Scratch::new("cli-rename-twice-cache");
    scratch.write(
        "Cargo.toml",
        "[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    scratch.write(
        "src/lib.rs",
        "macro_rules! twice {\n    ($($t:tt)*) => { $($t)* $($t)* };\n}\n\npub struct Barrier;\n\npub fn make() -> Barrier {\n    twice! { let _b: Option<std::sync::Barrier> = None; }\n    Barrier\n}\n",
    );
    let output = std::process::Command::new(lingo_bin())
        .args([
            "call",
            "rename",
            r#"{"path": "src/lib.rs", "line": 4, "character": 11, "new_name": "Gate", "dryRun": false, "force": true, "format": "json"}"#,
        ])
        .arg("--root")
        .arg(scratch.path())
        .arg("--cache-dir")
        .arg(cache.path())
        .env_remove("LINGO_CACHE_DIR")
        .output()
        .expect("run lingo call");
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let applied: serde_json::Value =
        serde_json::from_slice(&output.stdout).expect("format=json prints JSON");
    let written = std::fs::read_to_string(scratch.path().join("src/lib.rs")).unwrap();
    assert!(written.contains("std::sync::Barrier"), "{written}");
    assert_eq!(written.matches("Gate").count(), 3, "{written}");
    let left = &applied["receipt"]["old_name_left"];
    assert_eq!(left["count"], 1, "{applied:#}");
    assert_eq!(
        left["sites"],
        serde_json::json!(["src/lib.rs:8:40"]),
        "{applied:#}"
    );
}

#[test]
fn lingo_tools_lists_every_tool_with_its_toolset() {
    let output = std::process::Command::new(lingo_bin())
        .arg("tools")
        .output()
        .expect("run lingo tools");
    assert!(output.status.success());
    let text = String::from_utf8_lossy(&output.stdout);
    assert_eq!(
        text.lines().count(),
        lingo::tools::ToolRegistry::new().tools().len()
    );
    assert!(
        text.lines()
            .any(|line| line.starts_with("find_references") && line.contains("navigation")),
        "{text}"
    );
}
