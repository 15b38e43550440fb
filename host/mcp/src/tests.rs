//! In-process tests of the server: a panicking tool, an answer that lost
//! work, a call past its deadline, and random or mangled JSON-RPC lines fed
//! to [`serve`] over in-memory streams.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use proptest::prelude::*;
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

use super::*;
use lingo_index::Workspace;
use lingo_runtime::PluginRegistry;

/// A server on an empty workspace without plugins, shared by the tests.
pub(crate) fn server() -> Arc<Server> {
    static SERVER: OnceLock<Arc<Server>> = OnceLock::new();
    SERVER
        .get_or_init(|| {
            let root = std::env::temp_dir().join(format!("lingo-mcp-{}", std::process::id()));
            std::fs::create_dir_all(&root).expect("create an empty workspace");
            let registry = PluginRegistry::from_plugins(Vec::new(), &HashMap::new());
            let workspace = Workspace::new(&root, Arc::new(registry)).expect("a workspace");
            let tools = ToolRegistry::new();
            let context = ToolContext {
                workspace: Arc::new(workspace),
                tool_names: tools.names(),
                gate: Default::default(),
            };
            Server::new(tools, context)
        })
        .clone()
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a tokio runtime")
}

#[test]
fn a_panicking_tool_answers_internal_error_and_the_next_call_works() {
    let runtime = runtime();
    let budget = Budget::new(Some(Duration::from_secs(60)));
    let answer = runtime.block_on(run_tool::<_, Value>(budget, Turn::when_needed(), || {
        panic!("a tool bug")
    }));
    let error = answer.expect_err("a panic is an error reply");
    assert_eq!(error.code, jsonrpc::INTERNAL_ERROR);
    assert!(error.message.contains("panicked"), "{}", error.message);

    let budget = Budget::new(Some(Duration::from_secs(60)));
    let answer = runtime.block_on(run_tool(budget, Turn::when_needed(), || {
        Ok(json!({ "ok": true }))
    }));
    assert_eq!(
        answer.expect("no panic").expect("a value"),
        json!({ "ok": true })
    );
}

#[test]
fn an_answer_that_lost_work_says_so() {
    let tools = lingo_tools::ToolRegistry::new();
    let references = tools.find("find_references").unwrap();
    let runtime = runtime();
    let budget = Budget::new(Some(Duration::from_secs(60)));
    let answer = runtime.block_on(run_tool(budget.clone(), Turn::when_needed(), || {
        lingo_model::budget::note_loss("plugin `x` timed out");
        Ok(Answer::refusal(&ToolError::Internal("a stand-in".into())))
    }));
    let mut answer = answer.expect("no panic").expect("an answer");
    mark_incomplete(&mut answer, &budget);
    let value = answer.value();
    assert_eq!(value["complete"], json!(false));
    assert_eq!(value["incompleteReasons"], json!(["plugin `x` timed out"]));
    let text = references.render(&json!({}), &answer);
    assert!(
        text.ends_with("Note: incomplete: plugin `x` timed out\n"),
        "{text}"
    );

    let untouched = Budget::new(None);
    let mut answer = Answer::refusal(&ToolError::Internal("a stand-in".into()));
    mark_incomplete(&mut answer, &untouched);
    assert!(answer.notes().is_empty());
}

#[test]
fn a_call_that_ignores_its_deadline_is_answered_as_timed_out() {
    let runtime = runtime();
    let budget = Budget::new(Some(Duration::from_millis(10)));
    let watched = budget.clone();
    let started = std::time::Instant::now();
    let answer = runtime.block_on(run_tool(budget, Turn::when_needed(), || {
        std::thread::sleep(Duration::from_secs(10));
        Ok(json!({}))
    }));
    let outcome = answer.expect("no panic");
    assert!(
        matches!(
            outcome,
            Err(ToolError::Exhausted(Exhausted::DeadlineExceeded))
        ),
        "{outcome:?}"
    );
    assert!(watched.is_cancelled(), "the work is told to stop");
    assert!(started.elapsed() < Duration::from_secs(8));
    runtime.shutdown_background();
}

#[test]
fn calls_and_control_messages_in_process() {
    let lines = [
        r#"{"jsonrpc":"2.0","id":18446744073709551617,"method":"ping"}"#,
        r#"{"jsonrpc":"2.0","id":"c","method":"tools/call","params":{"name":"find_references","arguments":{"symbol":"nothing"}}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"never-sent"}}"#,
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
    ];
    let input = lines.join("\n").into_bytes();
    let replies = exchange(input);
    assert_eq!(replies.len(), 3, "{replies:?}");
    let ping = replies.iter().find(|r| r.contains("18446744073709551617"));
    assert_eq!(
        ping.map(String::as_str),
        Some(r#"{"jsonrpc":"2.0","id":18446744073709551617,"result":{}}"#)
    );
    let call: Value = replies
        .iter()
        .find(|r| r.contains(r#""id":"c""#))
        .and_then(|r| serde_json::from_str(r).ok())
        .expect("the call is answered");
    assert_eq!(
        call["result"]["structuredContent"]["error"]["code"],
        json!("SYMBOL_NOT_FOUND"),
        "{call}"
    );
}

/// A workspace that is still opening, or failed to open, does not hold up
/// the handshake or the tool list; a tool call waits for it within its
/// budget and then says why it cannot answer.
#[test]
fn the_handshake_is_answered_while_the_workspace_opens() {
    let lines = [
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}"#,
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"outline","arguments":{"path":"a.rs"}}}"#,
    ];
    let input = lines.join("\n").into_bytes();
    let reply = |replies: &[String], id: u64| -> Value {
        replies
            .iter()
            .filter_map(|r| serde_json::from_str::<Value>(r).ok())
            .find(|r| r["id"] == json!(id))
            .unwrap_or_else(|| panic!("no reply {id}: {replies:?}"))
    };
    // Still opening (held until the test ends): a call waits its second.
    let (release, held) = std::sync::mpsc::channel::<()>();
    let opening = Server::opening(
        ToolRegistry::new(),
        Selection::all(),
        Duration::from_secs(1),
        move || {
            let _ = held.recv();
            anyhow::bail!("released")
        },
    );
    let replies = exchange_with(opening, input.clone());
    assert!(
        reply(&replies, 1)["result"]["serverInfo"].is_object(),
        "{replies:?}"
    );
    assert!(
        reply(&replies, 2)["result"]["tools"]
            .as_array()
            .is_some_and(|t| !t.is_empty())
    );
    let call = reply(&replies, 3);
    let message = call["result"]["structuredContent"]["error"]["message"].to_string();
    assert!(message.contains("still opening after 1 s"), "{call}");
    drop(release);
    // Failed to open: each call says why (as soon as the opening thread
    // has run; the budget only bounds a starved machine's wait).
    let failed = Server::opening(
        ToolRegistry::new(),
        Selection::all(),
        Duration::from_secs(60),
        || anyhow::bail!("no plugin could be compiled"),
    );
    let replies = exchange_with(failed, input);
    let call = reply(&replies, 3);
    assert_eq!(call["result"]["isError"], json!(true), "{call}");
    let message = call["result"]["structuredContent"]["error"]["message"].to_string();
    assert!(message.contains("no plugin could be compiled"), "{call}");
}

/// Feed `input` to [`serve`] (then end of input); the lines it writes.
fn exchange(input: Vec<u8>) -> Vec<String> {
    exchange_with(server(), input)
}

/// Feed `input` to `server` (then end of input); the lines it writes.
fn exchange_with(server: Arc<Server>, input: Vec<u8>) -> Vec<String> {
    let runtime = runtime();
    let lines = runtime.block_on(async {
        let (client, server_side) = tokio::io::duplex(64 * 1024);
        let (server_read, server_write) = tokio::io::split(server_side);
        let serving = tokio::spawn(serve(server, server_read, server_write));
        let (client_read, mut client_write) = tokio::io::split(client);
        let feeding = tokio::spawn(async move {
            let _ = client_write.write_all(&input).await;
            let _ = client_write.shutdown().await;
        });
        let mut reader = BufReader::new(client_read).lines();
        let mut lines = Vec::new();
        let read = tokio::time::timeout(Duration::from_secs(60), async {
            while let Ok(Some(line)) = reader.next_line().await {
                lines.push(line);
            }
        })
        .await;
        assert!(read.is_ok(), "no end of output within 60 s: {lines:?}");
        feeding.await.expect("the feeder does not panic");
        let served = serving.await.expect("serve does not panic");
        assert!(served.is_ok(), "{served:?}");
        lines
    });
    runtime.shutdown_background();
    lines
}

/// One generated input line.
#[derive(Debug, Clone)]
enum Spec {
    /// A well-formed request: id form, method and parameters from the pools.
    Request { id: u8, method: u8, params: u8 },
    /// A notification; cancellations name an earlier line's id.
    Notification { cancel: bool, target: u8 },
    /// A request with bytes replaced, deleted or inserted.
    Mutated {
        method: u8,
        params: u8,
        edits: Vec<(u16, u8, u8)>,
    },
    /// Arbitrary bytes.
    Garbage(Vec<u8>),
    /// Nested arrays or objects, deeper than the parser allows or not.
    Deep { depth: u16, object: bool },
}

const METHODS: [&str; 8] = [
    "ping",
    "initialize",
    "tools/list",
    "tools/call",
    "tools/call",
    "resources/list",
    "nope/nope",
    "",
];

/// The `params` pool; `None` leaves the member out.
fn params(index: u8) -> Option<Value> {
    let long = "a".repeat(5000);
    Some(match index % 15 {
        0 => json!({}),
        1 => return None,
        2 => json!([]),
        3 => json!({ "name": "outline", "arguments": { "path": "src/lib.rs" } }),
        4 => json!({ "name": "search_symbols", "arguments": { "query": "x" } }),
        5 => json!({ "name": "find_references", "arguments": { "symbol": long } }),
        6 => json!({ "name": "find_references", "arguments": { "symbol": "missing" } }),
        7 => json!({ "name": "health_check" }),
        8 => json!({ "name": "nope", "arguments": {} }),
        9 => json!({ "name": 5 }),
        10 => json!({ "protocolVersion": "2025-11-25", "capabilities": {} }),
        11 => json!({ "name": "search_symbols", "arguments": { "query": "(", "regex": true } }),
        12 => json!({ "name": "outline", "arguments": [1, 2] }),
        13 => json!({ "name": "get_diagnostics", "arguments": { "path": "../../etc/passwd" } }),
        _ => {
            json!({ "name": "paths_between", "arguments": { "from": { "symbol": long }, "to": 1 } })
        }
    })
}

/// The JSON text of the id of line `line` in form `form`; unique per line.
fn id_text(form: u8, line: usize) -> String {
    match form % 6 {
        0 => format!("{line}"),
        1 => format!("\"r{line}\""),
        2 => format!("18446744073709551617{line:03}"),
        3 => format!("-{line}.50"),
        4 => format!("\"\\u00e9{line}\""),
        _ => format!("{line}e2"),
    }
}

/// A request line.
fn request(id: &str, method: u8, params_index: u8) -> String {
    let method = json!(METHODS[method as usize % METHODS.len()]);
    match params(params_index) {
        Some(p) => format!(r#"{{"jsonrpc":"2.0","id":{id},"method":{method},"params":{p}}}"#),
        None => format!(r#"{{"jsonrpc":"2.0","id":{id},"method":{method}}}"#),
    }
}

/// Apply byte edits (0: replace, 1: delete, 2: insert); newlines become spaces.
fn mutate(mut bytes: Vec<u8>, edits: &[(u16, u8, u8)]) -> Vec<u8> {
    for &(at, op, byte) in edits {
        let byte = if byte == b'\n' { b' ' } else { byte };
        let at = at as usize % (bytes.len() + 1);
        match op % 3 {
            0 if at < bytes.len() => bytes[at] = byte,
            1 if at < bytes.len() => {
                bytes.remove(at);
            }
            _ => bytes.insert(at, byte),
        }
    }
    bytes
}

fn spec() -> impl Strategy<Value = Spec> {
    prop_oneof![
        4 => (any::<u8>(), any::<u8>(), any::<u8>())
            .prop_map(|(id, method, params)| Spec::Request { id, method, params }),
        1 => (any::<bool>(), any::<u8>())
            .prop_map(|(cancel, target)| Spec::Notification { cancel, target }),
        3 => (any::<u8>(), any::<u8>(), prop::collection::vec(any::<(u16, u8, u8)>(), 1..6))
            .prop_map(|(method, params, edits)| Spec::Mutated { method, params, edits }),
        1 => prop::collection::vec(any::<u8>(), 0..200).prop_map(Spec::Garbage),
        1 => (0u16..300, any::<bool>()).prop_map(|(depth, object)| Spec::Deep { depth, object }),
    ]
}

/// The bytes of the input, and for each well-formed request its id text
/// and whether a later line cancels it.
fn render(specs: &[Spec]) -> (Vec<u8>, Vec<(String, bool)>) {
    let mut input = Vec::new();
    let mut requests: Vec<(String, bool)> = Vec::new();
    for (line, spec) in specs.iter().enumerate() {
        let bytes = match spec {
            Spec::Request { id, method, params } => {
                let id = id_text(*id, line);
                let text = request(&id, *method, *params);
                requests.push((id, false));
                text.into_bytes()
            }
            Spec::Notification {
                cancel: true,
                target,
            } if !requests.is_empty() => {
                let index = *target as usize % requests.len();
                requests[index].1 = true;
                let id = &requests[index].0;
                format!(r#"{{"jsonrpc":"2.0","method":"notifications/cancelled","params":{{"requestId":{id},"reason":"test"}}}}"#).into_bytes()
            }
            Spec::Notification { .. } => {
                br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_vec()
            }
            Spec::Mutated {
                method,
                params,
                edits,
            } => mutate(
                request(&format!("\"m{line}\""), *method, *params).into_bytes(),
                edits,
            ),
            Spec::Garbage(bytes) => bytes
                .iter()
                .map(|&b| if b == b'\n' { b' ' } else { b })
                .collect(),
            Spec::Deep { depth, object } => {
                let (open, close) = if *object {
                    (r#"{"a":"#, "}")
                } else {
                    ("[", "]")
                };
                let mut text = open.repeat(*depth as usize);
                text.push('1');
                text.push_str(&close.repeat(*depth as usize));
                text.into_bytes()
            }
        };
        input.extend_from_slice(&bytes);
        input.push(b'\n');
    }
    (input, requests)
}

/// The parts of a reply checked by the property.
#[derive(Deserialize)]
struct ReplyShape<'a> {
    jsonrpc: String,
    #[serde(borrow)]
    id: &'a RawValue,
    result: Option<Value>,
    error: Option<Value>,
}

/// Every reply is JSON-RPC 2.0 with an id and one of `result` and `error`
/// (no internal error: nothing panicked); each well-formed request has
/// exactly one reply with its id as sent (at most one when cancelled).
fn check(specs: &[Spec], replies: &[String]) -> Result<(), TestCaseError> {
    let (_, requests) = render(specs);
    prop_assert!(replies.len() <= specs.len(), "more replies than lines");
    let mut ids = Vec::new();
    for line in replies {
        let reply: ReplyShape = serde_json::from_str(line)
            .map_err(|e| TestCaseError::fail(format!("bad reply {line}: {e}")))?;
        prop_assert_eq!(&reply.jsonrpc, "2.0");
        prop_assert!(reply.result.is_some() != reply.error.is_some(), "{}", line);
        if let Some(error) = &reply.error {
            prop_assert!(error["code"].is_i64(), "{}", line);
            prop_assert!(error["message"].is_string(), "{}", line);
            prop_assert_ne!(
                error["code"].as_i64(),
                Some(jsonrpc::INTERNAL_ERROR),
                "{}",
                line
            );
        }
        ids.push(reply.id.get().to_string());
    }
    for (id, cancelled) in &requests {
        let answered = ids.iter().filter(|i| *i == id).count();
        if *cancelled {
            prop_assert!(answered <= 1, "{} answered {} times", id, answered);
        } else {
            prop_assert_eq!(
                answered,
                1,
                "{} answered {} times: {:?}",
                id,
                answered,
                replies
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, rng_seed: proptest::test_runner::RngSeed::Fixed(0x6c696e676f), max_shrink_iters: 256, ..ProptestConfig::default() })]

    #[test]
    fn every_line_gets_a_well_formed_reply_or_none(specs in prop::collection::vec(spec(), 1..12)) {
        let (input, _) = render(&specs);
        let replies = exchange(input);
        check(&specs, &replies)?;
    }
}

#[test]
fn a_refusal_reads_as_one_line_per_fact() {
    let tools = lingo_tools::ToolRegistry::new();
    let references = tools.find("find_references").unwrap();
    let error = ToolError::UnknownParam {
        field: "pth".into(),
        allowed: vec!["path".into(), "symbol".into()],
        suggestions: vec!["path".into()],
    };
    let text = references.render(
        &json!({ "pth": "x" }),
        &lingo_tools::Answer::refusal(&error),
    );
    assert_eq!(
        text,
        "error UNKNOWN_PARAM: unknown parameter `pth`\nallowed: path; symbol\nhint: Did you mean `path`?\n"
    );
}

#[test]
fn an_answer_is_counted_as_many_bytes_as_it_is_sent_in() {
    let value = json!({
        "symbols": [{"name": "Runtime", "doc": "é \"quoted\"\n", "line": 12}],
        "total": 1,
        "empty": [],
    });
    let sent = serde_json::to_vec(&value).expect("serialises");
    let reply = ToolReply::json(value, String::new(), false);
    assert_eq!(reply.structured_len(), sent.len());
}

#[test]
fn a_reply_over_the_response_limit_is_sent_as_an_internal_error_for_its_id() {
    let id = Id::from_value(&json!(7));
    let small = jsonrpc::success_with(&id, |out| out.extend_from_slice(b"{}"));
    assert_eq!(within_limit(&id, small.clone()), small);

    let text = "x".repeat(MAX_RESPONSE_BYTES);
    let large = jsonrpc::success_with(&id, |out| {
        serde_json::to_writer(&mut *out, &json!({ "text": text })).expect("serialises");
    });
    assert!(large.len() > MAX_RESPONSE_BYTES);
    let sent = within_limit(&id, large);
    assert!(sent.len() < 512, "{} bytes", sent.len());
    let reply: Value = serde_json::from_slice(&sent).expect("one JSON-RPC message");
    assert_eq!(reply["id"], json!(7));
    assert_eq!(reply["error"]["code"], json!(jsonrpc::INTERNAL_ERROR));
    let message = reply["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("exceeds the 10485760-byte limit"),
        "{message}"
    );
}
