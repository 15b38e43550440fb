//! Raw protocol tests: bytes written to lingo's stdin, JSON-RPC lines read
//! from its stdout — parse errors, unknown methods and tools, size limits,
//! ids, unknown fields, version negotiation, pipelining and shutdown.

use std::collections::BTreeMap;

use lingo_e2e::{RawServer, fixture, tool_value};
use serde_json::{Value, json};

fn start() -> RawServer {
    RawServer::start(&fixture("rust-workspace"), &[])
}

/// Close stdin and check that the server exits successfully with nothing
/// more to say.
async fn finish_cleanly(server: RawServer) {
    let finished = server.finish().await;
    assert!(
        finished.status.success(),
        "{}\nserver log:\n{}",
        finished.status,
        finished.log
    );
    assert!(finished.replies.is_empty(), "{:?}", finished.replies);
}

fn error_code(reply: &Value) -> i64 {
    reply["error"]["code"]
        .as_i64()
        .unwrap_or_else(|| panic!("not an error reply: {reply}"))
}

#[tokio::test]
async fn malformed_json_is_a_parse_error_with_a_null_id() {
    let mut server = start();
    for garbage in [
        &b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\n"[..],
        b"this is not json\n",
        b"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}}\n",
        b"\xff\xfe\n",
    ] {
        server.send_bytes(garbage).await;
        let reply = server.recv().await;
        assert_eq!(error_code(&reply), -32700, "{garbage:?}: {reply}");
        assert_eq!(reply["id"], Value::Null, "{reply}");
        assert!(
            reply["error"]["message"]
                .as_str()
                .unwrap()
                .starts_with("Parse error"),
            "{reply}"
        );
    }
    // The connection survives.
    let pong = server.request(json!(3), "ping", json!({})).await;
    assert_eq!(pong["result"], json!({}));
    finish_cleanly(server).await;
}

#[tokio::test]
async fn invalid_requests_are_refused_with_their_id() {
    let mut server = start();
    let cases = [
        (
            json!({ "jsonrpc": "1.0", "id": 5, "method": "ping" }),
            json!(5),
        ),
        (
            json!({ "id": "no-version", "method": "ping" }),
            json!("no-version"),
        ),
        (json!({ "jsonrpc": "2.0", "id": 6, "method": 42 }), json!(6)),
        (json!({ "jsonrpc": "2.0", "id": 7 }), json!(7)),
        (
            json!({ "jsonrpc": "2.0", "id": {"nested": true}, "method": "ping" }),
            Value::Null,
        ),
        (
            json!([{ "jsonrpc": "2.0", "id": 8, "method": "ping" }]),
            Value::Null,
        ),
        (json!("ping"), Value::Null),
    ];
    for (message, id) in cases {
        server.send(&message).await;
        let reply = server.recv().await;
        assert_eq!(error_code(&reply), -32600, "{message}: {reply}");
        assert_eq!(reply["id"], id, "{message}: {reply}");
    }
    let pong = server.request(json!(9), "ping", json!({})).await;
    assert_eq!(pong["result"], json!({}));
    finish_cleanly(server).await;
}

#[tokio::test]
async fn unknown_methods_are_method_not_found() {
    let mut server = start();
    server.initialize("2025-11-25").await;
    let reply = server.request(json!(1), "server/explode", json!({})).await;
    assert_eq!(error_code(&reply), -32601, "{reply}");
    assert!(
        reply["error"]["message"]
            .as_str()
            .unwrap()
            .contains("server/explode"),
        "{reply}"
    );
    let reply = server
        .request(json!("x"), "tools/explode", json!({ "force": true }))
        .await;
    assert_eq!(error_code(&reply), -32601, "{reply}");

    // A notification is never answered, not even an unknown one: the next
    // line is the reply to the ping that follows it.
    server
        .send(&json!({ "jsonrpc": "2.0", "method": "notifications/whatever", "params": {} }))
        .await;
    server.send(&json!({ "jsonrpc": "2.0", "method": "notifications/cancelled", "params": { "requestId": 1 } })).await;
    let pong = server.request(json!(2), "ping", json!({})).await;
    assert_eq!(pong["result"], json!({}));

    // The methods a client may probe for answer, even when empty.
    for (method, key) in [
        ("resources/list", "resources"),
        ("prompts/list", "prompts"),
        ("resources/templates/list", "resourceTemplates"),
    ] {
        let reply = server.request(json!(method), method, json!({})).await;
        assert_eq!(reply["result"][key], json!([]), "{reply}");
    }
    finish_cleanly(server).await;
}

#[tokio::test]
async fn tools_call_needs_a_known_tool_name() {
    let mut server = start();
    server.initialize("2025-11-25").await;
    for (id, params) in [
        (1, json!({ "arguments": { "query": "total" } })),
        (2, json!({ "name": 5 })),
        (3, json!([])),
        (
            4,
            json!({ "name": "search_symbols", "arguments": ["total"] }),
        ),
    ] {
        let reply = server
            .request(json!(id), "tools/call", params.clone())
            .await;
        assert_eq!(error_code(&reply), -32602, "{params}: {reply}");
    }
    let reply = server.request(json!(5), "tools/call", json!({})).await;
    assert_eq!(error_code(&reply), -32602, "{reply}");

    let reply = server
        .request(
            json!(6),
            "tools/call",
            json!({ "name": "outlin", "arguments": { "path": "src/lib.rs" } }),
        )
        .await;
    assert_eq!(error_code(&reply), -32602, "{reply}");
    let data = &reply["error"]["data"];
    assert_eq!(data["tool"], json!("outlin"));
    assert_eq!(data["suggestions"][0], json!("outline"), "{reply}");
    let available = data["available"].as_array().expect("available tools");
    assert!(available.contains(&json!("find_definition")), "{reply}");

    let reply = server
        .request(json!(7), "tools/call", json!({ "name": "findDefinitions" }))
        .await;
    assert_eq!(error_code(&reply), -32602, "{reply}");
    // Suggestions are the tools' own names, not their other spellings.
    let suggestions = reply["error"]["data"]["suggestions"].as_array().unwrap();
    assert_eq!(suggestions[0], json!("find_definition"), "{reply}");

    // Missing arguments are an empty object: a tool error, not a protocol one.
    let reply = server
        .request(json!(8), "tools/call", json!({ "name": "outline" }))
        .await;
    assert_eq!(reply["result"]["isError"], json!(true), "{reply}");
    assert_eq!(
        tool_value(&reply)["error"]["code"],
        json!("MISSING_REQUIRED_PARAM")
    );
    finish_cleanly(server).await;
}

#[tokio::test]
async fn oversized_requests_are_refused_and_the_server_carries_on() {
    let mut server = start();
    server.initialize("2025-11-25").await;
    let padding = "x".repeat((1 << 20) + 512);
    let huge = json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": { "name": "search_symbols", "arguments": { "query": padding } }
    });
    server.send(&huge).await;
    let reply = server.recv().await;
    assert_eq!(error_code(&reply), -32600, "{reply}");
    assert_eq!(reply["error"]["data"]["limit"], json!(1 << 20));
    assert!(reply["error"]["data"]["size"].as_u64().unwrap() > 1 << 20);

    // Still answering, and a large request under the limit is served.
    let pong = server.request(json!(2), "ping", json!({})).await;
    assert_eq!(pong["result"], json!({}));
    let big = "y".repeat(900 * 1024);
    let reply = server
        .request(
            json!(3),
            "tools/call",
            json!({
                "name": "search_symbols",
                "arguments": { "query": "total" },
                "_meta": { "padding": big }
            }),
        )
        .await;
    assert_eq!(
        reply["result"]["isError"],
        json!(false),
        "{}",
        reply["result"]["structuredContent"]["error"]
    );
    assert_eq!(tool_value(&reply)["total"], json!(4));
    // But a string argument that long is refused, naming the field.
    let reply = server
        .request(
            json!(4),
            "tools/call",
            json!({ "name": "search_symbols", "arguments": { "query": big } }),
        )
        .await;
    let error = &tool_value(&reply)["error"];
    assert_eq!(error["code"], json!("INVALID_PARAM"), "{reply}");
    assert_eq!(error["details"]["field"], json!("query"), "{reply}");
    finish_cleanly(server).await;
}

#[tokio::test]
async fn ids_are_echoed_exactly() {
    let mut server = start();
    for id in [
        json!(0),
        json!("0"),
        json!(-7),
        json!("abc"),
        json!(""),
        json!(9_007_199_254_740_993_u64),
        json!(1.5),
    ] {
        let reply = server.request(id.clone(), "ping", json!({})).await;
        assert_eq!(reply["id"], id, "{reply}");
        assert_eq!(reply["result"], json!({}));
    }
    // The raw bytes too: an id of 0 is a request, not a notification.
    server
        .send_bytes(b"{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"tools/list\"}\n")
        .await;
    let reply = server.recv().await;
    assert_eq!(reply["id"], json!(0));
    assert!(reply["result"]["tools"].is_array());
    finish_cleanly(server).await;
}

#[tokio::test]
async fn unknown_fields_and_meta_are_ignored() {
    let mut server = start();
    let reply = server
        .request(
            json!(1),
            "initialize",
            json!({
                "protocolVersion": "2025-06-18",
                "capabilities": {
                    "roots": { "listChanged": true },
                    "sampling": {},
                    "elicitation": { "form": {} },
                    "experimental": { "lingo-e2e": { "anything": [1, 2, 3] } },
                    "fromTheFuture": { "nested": { "deeply": true } }
                },
                "clientInfo": { "name": "lingo-e2e", "version": "0.1.0", "websiteUrl": "https://example.invalid" },
                "_meta": { "progressToken": "init", "io.example/trace": "abc" },
                "somethingElse": 42
            }),
        )
        .await;
    assert_eq!(
        reply["result"]["protocolVersion"],
        json!("2025-06-18"),
        "{reply}"
    );
    server
        .send(&json!({ "jsonrpc": "2.0", "method": "notifications/initialized", "params": { "_meta": { "x": 1 } } }))
        .await;

    let list = server
        .request(
            json!(2),
            "tools/list",
            json!({ "_meta": { "progressToken": 2 }, "cursor": null }),
        )
        .await;
    assert!(
        list["result"]["tools"]
            .as_array()
            .is_some_and(|t| t.len() >= 6),
        "{list}"
    );

    let mut message = json!({
        "jsonrpc": "2.0", "id": 3, "method": "tools/call",
        "params": {
            "name": "search_symbols",
            "arguments": { "query": "total", "limit": 1 },
            "_meta": { "progressToken": "abc", "io.example/trace": { "span": 7 } },
            "task": { "ttl": 1000 }
        },
        "extension": "ignored"
    });
    server.send(&message).await;
    let reply = server.recv().await;
    assert_eq!(reply["id"], json!(3));
    assert_eq!(reply["result"]["isError"], json!(false), "{reply}");
    assert_eq!(tool_value(&reply)["symbols"][0]["name"], json!("total"));

    // But unknown *tool arguments* are refused: the schemas are closed.
    message["id"] = json!(4);
    message["params"]["arguments"]["limt"] = json!(3);
    server.send(&message).await;
    let reply = server.recv().await;
    assert_eq!(
        tool_value(&reply)["error"]["code"],
        json!("UNKNOWN_PARAM"),
        "{reply}"
    );
    finish_cleanly(server).await;
}

#[tokio::test]
async fn protocol_versions_are_negotiated() {
    let cases = [
        ("2024-11-05", "2024-11-05"),
        ("2025-03-26", "2025-03-26"),
        ("2025-06-18", "2025-06-18"),
        ("2025-11-25", "2025-11-25"),
        ("2026-07-28", "2025-11-25"),
        ("1999-01-01", "2025-11-25"),
        ("not-a-date", "2025-11-25"),
    ];
    let mut servers: Vec<RawServer> = cases.iter().map(|_| start()).collect();
    for (server, (requested, expected)) in servers.iter_mut().zip(cases) {
        let result = server.initialize(requested).await;
        assert_eq!(
            result["protocolVersion"],
            json!(expected),
            "asked for {requested}: {result}"
        );
        assert_eq!(result["serverInfo"]["name"], json!("lingo"));
        assert!(result["capabilities"]["tools"].is_object(), "{result}");
    }
    for server in servers {
        finish_cleanly(server).await;
    }

    let mut server = start();
    let reply = server
        .request(
            json!(1),
            "initialize",
            json!({ "capabilities": {}, "clientInfo": { "name": "x", "version": "1" } }),
        )
        .await;
    assert_eq!(error_code(&reply), -32602, "{reply}");
    let reply = server
        .request(
            json!(2),
            "initialize",
            json!({ "protocolVersion": 20251125, "capabilities": {} }),
        )
        .await;
    assert_eq!(error_code(&reply), -32602, "{reply}");
    finish_cleanly(server).await;
}

#[tokio::test]
async fn pipelined_requests_are_all_answered() {
    let mut server = start();
    server.initialize("2025-11-25").await;
    let mut batch = Vec::new();
    let mut expected: BTreeMap<String, &str> = BTreeMap::new();
    for i in 0..60 {
        let id = if i % 2 == 0 {
            json!(i)
        } else {
            json!(format!("req-{i}"))
        };
        let (method, params, kind) = match i % 4 {
            0 => ("ping", json!({}), "ping"),
            1 => ("tools/list", json!({}), "list"),
            2 => (
                "tools/call",
                json!({ "name": "search_symbols", "arguments": { "query": "total" } }),
                "search",
            ),
            _ => (
                "tools/call",
                json!({ "name": "outline", "arguments": { "path": "src/orders.rs" } }),
                "outline",
            ),
        };
        expected.insert(id.to_string(), kind);
        let message = json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params });
        batch.extend(serde_json::to_vec(&message).unwrap());
        batch.push(b'\n');
    }
    server.send_bytes(&batch).await;
    let mut seen: BTreeMap<String, Value> = BTreeMap::new();
    for _ in 0..expected.len() {
        let reply = server.recv().await;
        let key = reply["id"].to_string();
        assert!(expected.contains_key(&key), "unexpected id {key}");
        assert!(
            seen.insert(key.clone(), reply).is_none(),
            "{key} answered twice"
        );
    }
    for (key, kind) in &expected {
        let reply = &seen[key];
        match *kind {
            "ping" => assert_eq!(reply["result"], json!({}), "{reply}"),
            "list" => assert!(
                reply["result"]["tools"]
                    .as_array()
                    .is_some_and(|t| t.len() >= 6),
                "{reply}"
            ),
            "search" => assert_eq!(tool_value(reply)["total"], json!(4), "{reply}"),
            _ => assert_eq!(
                tool_value(reply)["outline"][0]["name"],
                json!("place_order"),
                "{reply}"
            ),
        }
    }
    finish_cleanly(server).await;
}

#[tokio::test]
async fn blank_lines_and_crlf_are_tolerated() {
    let mut server = start();
    server
        .send_bytes(b"\n\r\n   \n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\r\n")
        .await;
    let reply = server.recv().await;
    assert_eq!(reply["id"], json!(1));
    assert_eq!(reply["result"], json!({}));
    finish_cleanly(server).await;
}

#[tokio::test]
async fn stdout_carries_only_json_rpc_and_logs_go_to_stderr() {
    let mut server = start();
    server.initialize("2025-11-25").await;
    // A bit of everything, so that every code path has a chance to print.
    let mut messages = vec![
        json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/list" }),
        json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": { "name": "health_check", "arguments": { "verbose": true } } }),
        json!({ "jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": { "name": "get_diagnostics", "arguments": {} } }),
        json!({ "jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": { "name": "outline", "arguments": { "path": "../etc/passwd" } } }),
        json!({ "jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": { "name": "find_definition", "arguments": { "path": "src/orders.rs", "line": 11, "character": 19 } } }),
        json!({ "jsonrpc": "2.0", "id": 6, "method": "nope" }),
        json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }),
    ];
    let mut bytes = Vec::new();
    for message in messages.drain(..) {
        bytes.extend(serde_json::to_vec(&message).unwrap());
        bytes.push(b'\n');
    }
    bytes.extend_from_slice(b"{broken\n");
    server.send_bytes(&bytes).await;
    // `finish` checks every line it reads as a JSON-RPC response.
    let finished = server.finish().await;
    assert!(finished.status.success(), "{}", finished.status);
    let mut ids: Vec<String> = finished
        .replies
        .iter()
        .map(|l| l["id"].to_string())
        .collect();
    ids.sort();
    assert_eq!(
        ids,
        ["1", "2", "3", "4", "5", "6", "null"],
        "{:#?}",
        finished.replies
    );
    assert!(
        finished.log.contains("serving MCP on stdio"),
        "the log goes to stderr: {}",
        finished.log
    );
}

#[tokio::test]
async fn closing_stdin_exits_cleanly_after_answering_in_flight_requests() {
    let mut server = start();
    server.initialize("2025-11-25").await;
    server
        .send(&json!({ "jsonrpc": "2.0", "id": "last", "method": "tools/call", "params": { "name": "search_symbols", "arguments": { "query": "cart" } } }))
        .await;
    let finished = server.finish().await;
    let (status, rest) = (finished.status, finished.replies);
    assert!(status.success(), "exit status {status}");
    assert_eq!(rest.len(), 1, "{rest:?}");
    assert_eq!(rest[0]["id"], json!("last"));
    assert_eq!(tool_value(&rest[0])["symbols"][0]["name"], json!("Cart"));

    // An idle server exits as well.
    finish_cleanly(start()).await;
}

#[tokio::test]
async fn a_missing_root_fails_at_startup_without_touching_stdout() {
    let scratch = lingo_e2e::Scratch::new("missing-root");
    let server = RawServer::start(&scratch.path().join("does-not-exist"), &[]);
    let finished = server.finish().await;
    assert!(!finished.status.success(), "{}", finished.status);
    assert!(finished.replies.is_empty(), "{:?}", finished.replies);
    assert!(
        finished.log.contains("does-not-exist"),
        "the reason goes to stderr: {}",
        finished.log
    );
}

/// The `_meta` of a 2026-07-28 request.
fn stateless(version: &str) -> Value {
    json!({ "_meta": {
        "io.modelcontextprotocol/protocolVersion": version,
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": { "name": "e2e", "version": "1" },
    } })
}

/// 2026-07-28 on stdio: no handshake; `server/discover` names every
/// revision; each request states its own, its result says it is complete
/// (lists with their cache hints); a revision not spoken is refused with
/// the ones that are; what the revision removed is unknown under it; an
/// older client on the same server still negotiates with `initialize`.
#[tokio::test]
async fn the_stateless_revision_is_spoken_beside_the_handshake() {
    let mut server = start();
    let discover = server
        .request(json!(1), "server/discover", stateless("2026-07-28"))
        .await;
    let result = &discover["result"];
    assert_eq!(result["resultType"], json!("complete"), "{discover}");
    assert_eq!(result["supportedVersions"][0], json!("2026-07-28"));
    assert!(
        result["supportedVersions"]
            .as_array()
            .unwrap()
            .contains(&json!("2025-11-25"))
    );
    assert_eq!(
        result["_meta"]["io.modelcontextprotocol/serverInfo"]["name"],
        json!("lingo"),
        "{discover}"
    );
    assert!(result["capabilities"]["tools"].is_object());
    assert!(
        result["instructions"]
            .as_str()
            .is_some_and(|i| i.contains("zero-based"))
    );

    let list = server
        .request(json!(2), "tools/list", stateless("2026-07-28"))
        .await;
    assert_eq!(list["result"]["resultType"], json!("complete"), "{list}");
    assert!(list["result"]["ttlMs"].as_u64().is_some_and(|ttl| ttl > 0));
    assert_eq!(list["result"]["cacheScope"], json!("public"));
    assert!(!list["result"]["tools"].as_array().unwrap().is_empty());

    let mut params = stateless("2026-07-28");
    params["name"] = json!("outline");
    params["arguments"] = json!({ "path": "src/pricing.rs" });
    let call = server.request(json!(3), "tools/call", params).await;
    assert_eq!(call["result"]["resultType"], json!("complete"), "{call}");
    assert_eq!(call["result"]["isError"], json!(false), "{call}");

    let unknown = server
        .request(json!(4), "tools/list", stateless("2031-01-01"))
        .await;
    assert_eq!(error_code(&unknown), -32022, "{unknown}");
    assert_eq!(unknown["error"]["data"]["requested"], json!("2031-01-01"));
    assert_eq!(
        unknown["error"]["data"]["supported"][0],
        json!("2026-07-28")
    );

    let ping = server
        .request(json!(5), "ping", stateless("2026-07-28"))
        .await;
    assert_eq!(error_code(&ping), -32601, "{ping}");

    let no_capabilities = server
        .request(
            json!(6),
            "tools/list",
            json!({ "_meta": { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } }),
        )
        .await;
    assert_eq!(error_code(&no_capabilities), -32602, "{no_capabilities}");

    // A client of the handshake's revisions, on the same server.
    server.initialize("2025-06-18").await;
    let legacy = server.request(json!(7), "tools/list", json!({})).await;
    assert!(legacy["result"].get("resultType").is_none(), "{legacy}");
    assert!(legacy["result"].get("ttlMs").is_none(), "{legacy}");
    finish_cleanly(server).await;
}
