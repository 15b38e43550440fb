//! What a client can throw at lingo without slowing it down or confusing
//! it: ids beyond 64 bits echoed byte for byte, names of 100,000 characters
//! refused at once on a workspace of thousands of files, and, with every
//! slot taken by slow calls, a ping still answered at once, one call more
//! refused as busy, and a cancelled call never answered, its slot freed.
//!
//! The slow calls are workspace-wide tool calls made during a first index
//! that the hostile plugin's `.slow` file makes last [`SLOW_FILE_MS`]: each
//! waits for that index, up to the workspace's own bound on such waits.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use lingo_e2e::{McpServer, PATIENCE, RawServer, Scratch, hostile_plugin, serve_command};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout};

/// The limit on tool calls in flight.
const MAX_IN_FLIGHT: usize = 128;
/// How long the hostile plugin takes over the one `.slow` file of the slow
/// workspace, in milliseconds (its deadline is set well above).
const SLOW_FILE_MS: u64 = 20_000;
/// "At once", for a control message on a loaded machine.
const AT_ONCE: Duration = Duration::from_secs(1);

/// A `lingo serve` whose stdout lines are read as text, unparsed.
struct LineServer {
    _child: Child,
    stdin: ChildStdin,
    stdout: Lines<BufReader<ChildStdout>>,
}

impl LineServer {
    fn start(root: &Path) -> Self {
        let mut command = serve_command(root, &[]);
        command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        let mut child = command.spawn().expect("spawn lingo");
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = BufReader::new(child.stdout.take().expect("piped stdout")).lines();
        LineServer {
            _child: child,
            stdin,
            stdout,
        }
    }

    /// Send `line` and return the next line written back.
    async fn exchange(&mut self, line: &str) -> String {
        self.stdin
            .write_all(format!("{line}\n").as_bytes())
            .await
            .expect("write to lingo");
        self.stdin.flush().await.expect("flush to lingo");
        match tokio::time::timeout(PATIENCE, self.stdout.next_line()).await {
            Ok(Ok(Some(line))) => line,
            other => panic!("no reply to {line}: {other:?}"),
        }
    }
}

#[tokio::test]
async fn ids_beyond_64_bits_and_long_decimals_come_back_as_sent() {
    let mut server = LineServer::start(&lingo_e2e::fixture("rust-workspace"));
    for id in [
        "18446744073709551617",
        "-18446744073709551617",
        "123456789012345678901234567890123456789012345678901234567890",
        "3.141592653589793238462643383279502884197",
        "1.50",
        "1e3",
        r#""\u00e9t\u00e9""#,
    ] {
        for method in ["ping", "no/such/method"] {
            let line = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}"}}"#);
            let reply = server.exchange(&line).await;
            assert!(
                reply.contains(&format!(r#""id":{id},"#))
                    || reply.contains(&format!(r#""id":{id}}}"#)),
                "id {id} not echoed as sent: {reply}"
            );
        }
    }
    // Inside a tool call too.
    let line = r#"{"jsonrpc":"2.0","id":18446744073709551617,"method":"tools/call","params":{"name":"search_symbols","arguments":{"query":"total"}}}"#;
    let reply = server.exchange(line).await;
    assert!(reply.contains(r#""id":18446744073709551617,"#), "{reply}");
}

/// `count` Rust files of a dozen functions and a struct each, named apart.
fn generated_workspace(scratch: &Scratch, count: usize) -> PathBuf {
    for file in 0..count {
        let mut source = format!("pub struct Item{file} {{ pub value: u64 }}\n\n");
        for function in 0..12 {
            source.push_str(&format!(
                "/// Step {function} of module {file}.\npub fn step_{file}_{function}(x: u64) -> u64 {{\n    x + {function}\n}}\n\n"
            ));
        }
        source.push_str(&format!(
            "pub fn run_{file}() -> u64 {{\n    step_{file}_0(1) + step_{file}_11(2)\n}}\n"
        ));
        scratch.write(&format!("ws/src/m{}/f{file}.rs", file % 40), source);
    }
    scratch.write(
        "ws/Cargo.toml",
        "[package]\nname = \"generated\"\nversion = \"0.1.0\"\n",
    );
    scratch.path().join("ws")
}

/// The fastest of three calls (noise on a shared machine only adds time).
async fn fastest(server: &McpServer, tool: &str, arguments: Value) -> (Duration, Value) {
    let mut best: Option<(Duration, Value)> = None;
    for _ in 0..3 {
        let started = Instant::now();
        let outcome = server.call(tool, arguments.clone()).await;
        let took = started.elapsed();
        let error = outcome.err();
        if best.as_ref().is_none_or(|(b, _)| took < *b) {
            best = Some((took, error));
        }
    }
    best.expect("three calls")
}

#[tokio::test]
async fn names_and_paths_of_100k_characters_are_refused_at_once() {
    let scratch = Scratch::new("long-names");
    let root = generated_workspace(&scratch, 2000);
    let server = McpServer::start(&root, &[]).await.expect("start lingo");
    // Wait for the index: the refusal must not depend on it being empty.
    let indexed = server
        .call("find_references", json!({ "symbol": "step_7_3" }))
        .await
        .ok();
    assert!(
        indexed["references"]
            .as_array()
            .is_some_and(|r| !r.is_empty()),
        "{indexed:#}"
    );

    let huge = "q".repeat(100_000);
    for (tool, arguments, field) in [
        ("find_references", json!({ "symbol": huge }), "symbol"),
        ("outline", json!({ "path": huge }), "path"),
        ("search_symbols", json!({ "query": huge }), "query"),
    ] {
        let (took, error) = fastest(&server, tool, arguments).await;
        assert_eq!(error["code"], json!("INVALID_PARAM"), "{tool}: {error:#}");
        assert_eq!(error["details"]["field"], json!(field), "{tool}: {error:#}");
        let message = error["message"].as_str().unwrap_or_default();
        assert!(message.contains("-byte limit"), "{tool}: {message}");
        assert!(
            took < Duration::from_millis(100),
            "{tool} with a 100,000-character {field} took {took:?}"
        );
    }

    // Just under the limit, the name is looked up, and the "did you mean"
    // search over the whole index stays cheap.
    let long = format!("step_7_3{}", "x".repeat(4000));
    let (took, error) = fastest(&server, "find_references", json!({ "symbol": long })).await;
    assert_eq!(error["code"], json!("SYMBOL_NOT_FOUND"), "{error:#}");
    assert!(
        took < Duration::from_secs(1),
        "a 4,008-character name took {took:?}"
    );
    server.stop().await;
}

/// A workspace whose first index takes [`SLOW_FILE_MS`]: its one file
/// makes the hostile plugin take that long.
fn slow_workspace(scratch: &Scratch) -> PathBuf {
    scratch.write("ws/first.slow", format!("ms={SLOW_FILE_MS}\n"));
    scratch.path().join("ws")
}

/// A workspace-wide `tools/call`: it waits (without working) for the slow
/// first index, up to the workspace's bound on that wait, some seconds.
fn slow_call(id: Value) -> Value {
    json!({
        "jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": { "name": "search_symbols", "arguments": { "query": "slow_fn" } }
    })
}

#[tokio::test]
async fn with_every_slot_taken_control_messages_are_answered_and_cancellation_frees_a_slot() {
    let scratch = Scratch::new("full-house");
    let root = slow_workspace(&scratch);
    let plugin = hostile_plugin();
    let mut server = RawServer::start(
        &root,
        &[
            "--no-built-in",
            "--plugin",
            plugin.to_str().expect("UTF-8 path"),
            "--plugin-timeout-ms",
            &(3 * SLOW_FILE_MS).to_string(),
        ],
    );
    server.initialize("2025-11-25").await;

    let mut batch = Vec::new();
    for id in 1..=MAX_IN_FLIGHT {
        batch.extend(serde_json::to_vec(&slow_call(json!(id))).expect("serialise"));
        batch.push(b'\n');
    }
    server.send_bytes(&batch).await;

    // A ping behind them is read and answered before any of them (the
    // reply read next must be the pong).
    let started = Instant::now();
    let pong = server.request(json!("ping"), "ping", json!({})).await;
    assert_eq!(pong["result"], json!({}), "{pong}");
    let took = started.elapsed();
    assert!(
        took < AT_ONCE,
        "ping behind {MAX_IN_FLIGHT} calls took {took:?}"
    );

    // One call more is refused at once, retryable.
    let started = Instant::now();
    server.send(&slow_call(json!("extra"))).await;
    let busy = server.recv().await;
    let took = started.elapsed();
    assert_eq!(busy["id"], json!("extra"), "{busy}");
    assert_eq!(busy["error"]["code"], json!(-32000), "{busy}");
    assert_eq!(
        busy["error"]["data"]["limit"],
        json!(MAX_IN_FLIGHT),
        "{busy}"
    );
    assert_eq!(busy["error"]["data"]["retryable"], json!(true), "{busy}");
    assert!(took < AT_ONCE, "the busy refusal took {took:?}");

    // Cancelling one frees its slot at once: the next call is not busy
    // (an unknown tool, so that its own answer is immediate).
    server
        .send(&json!({ "jsonrpc": "2.0", "method": "notifications/cancelled", "params": { "requestId": 7, "reason": "no longer needed" } }))
        .await;
    let reply = server
        .request(
            json!("after-cancel"),
            "tools/call",
            json!({ "name": "no_such_tool", "arguments": {} }),
        )
        .await;
    assert_eq!(reply["error"]["code"], json!(-32602), "{reply}");

    // The others are answered; the cancelled one never is.
    let mut answered = BTreeSet::new();
    while answered.len() < MAX_IN_FLIGHT - 1 {
        let reply = server.recv().await;
        assert_ne!(reply["id"], json!(7), "the cancelled call was answered");
        let id = reply["id"]
            .as_u64()
            .unwrap_or_else(|| panic!("unexpected reply {reply}"));
        assert!(answered.insert(id), "{id} answered twice");
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let pong = server.request(json!("last"), "ping", json!({})).await;
    assert_eq!(pong["result"], json!({}), "{pong}");
    let finished = server.finish().await;
    assert!(
        finished.replies.is_empty(),
        "nothing more, the cancelled call included: {:?}",
        finished.replies
    );
    assert!(finished.status.success(), "{}", finished.status);
}

/// A client that keeps exactly [`MAX_IN_FLIGHT`] calls in flight, sending
/// the next one as it reads each answer, is never refused as busy: a
/// call's slot is free before its answer can be read.
#[tokio::test]
async fn a_client_keeping_every_slot_busy_is_never_refused() {
    const CALLS: usize = 3_000;
    let mut server = RawServer::start(&lingo_e2e::fixture("rust-workspace"), &[]);
    server.initialize("2025-11-25").await;
    let call = |id: usize| {
        let (name, arguments) = match id % 3 {
            0 => ("search_symbols", json!({ "query": "total" })),
            1 => ("outline", json!({ "path": "src/pricing.rs" })),
            _ => (
                "find_references",
                json!({ "symbol": "total", "path": "src/pricing.rs" }),
            ),
        };
        json!({
            "jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": { "name": name, "arguments": arguments }
        })
    };
    let mut batch = Vec::new();
    for id in 0..MAX_IN_FLIGHT {
        batch.extend(serde_json::to_vec(&call(id)).expect("serialise"));
        batch.push(b'\n');
    }
    server.send_bytes(&batch).await;
    let mut sent = MAX_IN_FLIGHT;
    let mut busy = Vec::new();
    for _ in 0..CALLS {
        let reply = server.recv().await;
        if reply["error"]["code"] == json!(-32000) {
            busy.push(reply["id"].clone());
        }
        if sent < CALLS {
            server.send(&call(sent)).await;
            sent += 1;
        }
    }
    assert!(busy.is_empty(), "refused as busy: {busy:?}");
}
