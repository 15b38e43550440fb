//! Hosted mode over Streamable HTTP, driven by the official client: tokens
//! and the projects each may use, include paths, run-time projects, rate
//! and size limits, refusals before authentication, cancellation, a call's
//! stream resumed from its last event id, and a load of 10,000 calls across
//! three projects.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use lingo_e2e::hosted::{HostedServer, HttpClient, rpc_error};
use lingo_e2e::{PATIENCE, Scratch};
use serde_json::{Value, json};

const TOKEN_BOTH: &str = "secret-both-0123456789";
const TOKEN_ALPHA: &str = "secret-alpha-0123456789";
const TOKEN_ADMIN: &str = "secret-admin-0123456789";

/// Write project `id` under `dir`: a Rust file declaring a function only it
/// has, one every project has, and a folder `private/` with another.
fn project(dir: &Scratch, id: &str) {
    project_at(dir, id, id);
}

/// [`project`] in folder `folder`.
fn project_at(dir: &Scratch, folder: &str, id: &str) {
    dir.write(
        &format!("{folder}/src/lib.rs"),
        format!(
            "/// Only in {id}.\npub fn only_in_{id}() -> u32 {{\n    shared() + 1\n}}\n\npub fn shared() -> u32 {{\n    41\n}}\n"
        ),
    );
    dir.write(
        &format!("{folder}/private/notes.rs"),
        format!("pub fn private_of_{id}() {{}}\n"),
    );
}

const TOKENS: &str = r#"
[[token]]
name = "both"
secret = "secret-both-0123456789"
projects = ["alpha", "beta"]

[[token]]
name = "alpha-only"
secret = "secret-alpha-0123456789"
projects = ["alpha"]

[[token]]
name = "admin"
secret = "secret-admin-0123456789"
projects = ["*"]
admin = true
"#;

/// The names of the symbols a `search_symbols` answer lists.
fn names(answer: &Value) -> Vec<String> {
    answer["symbols"]
        .as_array()
        .map(|symbols| {
            symbols
                .iter()
                .filter_map(|s| s["name"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

async fn wait_indexed(client: &HttpClient, project: &str) {
    let started = Instant::now();
    loop {
        let answer = client
            .ok(
                "search_symbols",
                json!({ "projectId": project, "query": "shared" }),
            )
            .await;
        if !names(&answer).is_empty() {
            return;
        }
        assert!(started.elapsed() < PATIENCE, "{project} never indexed");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_token_reaches_only_its_projects_and_their_included_folders() {
    let dir = Scratch::new("hosted-tokens");
    for id in ["alpha", "beta", "gamma"] {
        project(&dir, id);
    }
    let projects = r#"
[[project]]
id = "alpha"
root = "alpha"

[[project]]
id = "beta"
root = "beta"
include = ["src"]

[[project]]
id = "gamma"
root = "gamma"
"#;
    let server = HostedServer::start_in(dir, projects, Some(TOKENS), &[])
        .await
        .expect("server starts");
    let alpha_only = server.connect(Some(TOKEN_ALPHA)).await.expect("session");
    wait_indexed(&alpha_only, "alpha").await;

    // tools/list: every workspace tool requires projectId; the project
    // tools are there.
    let tools = alpha_only
        .client
        .list_all_tools()
        .await
        .expect("tools/list");
    for tool in &tools {
        let required = tool
            .input_schema
            .get("required")
            .cloned()
            .unwrap_or_default();
        let needs_project = required
            .as_array()
            .is_some_and(|r| r.contains(&json!("projectId")));
        assert_eq!(
            needs_project,
            tool.name != "list_projects",
            "{}: required {required}",
            tool.name
        );
    }
    for name in [
        "list_projects",
        "create_project",
        "remove_project",
        "find_references",
    ] {
        assert!(tools.iter().any(|t| t.name == name), "{name} listed");
    }

    // The token's projects and nothing else.
    let listed = alpha_only.ok("list_projects", json!({})).await;
    let ids: Vec<&str> = listed["projects"]
        .as_array()
        .expect("projects")
        .iter()
        .filter_map(|p| p["projectId"].as_str())
        .collect();
    assert_eq!(ids, ["alpha"]);
    // Every listed tool declares what its answer holds; the project tools'
    // answers match.
    for tool in &tools {
        assert!(
            tool.output_schema.is_some(),
            "{} has no outputSchema",
            tool.name
        );
    }
    let schema = tools
        .iter()
        .find(|t| t.name == "list_projects")
        .and_then(|t| t.output_schema.clone())
        .expect("list_projects outputSchema");
    let validator = jsonschema::validator_for(&Value::Object((*schema).clone()))
        .expect("the outputSchema compiles");
    assert!(validator.is_valid(&listed), "{listed}");
    let refusal = alpha_only
        .call("create_project", json!({ "projectId": "x", "root": "/" }))
        .await
        .expect("answer")
        .structured_content
        .expect("structured");
    assert!(
        validator.is_valid(&refusal),
        "a refusal matches too: {refusal}"
    );
    let found = alpha_only
        .ok(
            "search_symbols",
            json!({ "projectId": "alpha", "query": "only_in" }),
        )
        .await;
    assert_eq!(names(&found), ["only_in_alpha"]);
    for other in ["beta", "gamma", "nope", "../alpha", ""] {
        let error = alpha_only
            .refused(
                "search_symbols",
                json!({ "projectId": other, "query": "only_in" }),
            )
            .await;
        assert_eq!(error["code"], "PROJECT_NOT_FOUND", "{other}: {error}");
        assert_eq!(
            error["details"]["knownProjects"],
            json!(["alpha"]),
            "{error}"
        );
    }
    let error = alpha_only
        .refused("search_symbols", json!({ "query": "only_in" }))
        .await;
    assert_eq!(error["code"], "PROJECT_NOT_FOUND", "{error}");
    assert!(
        error["message"]
            .as_str()
            .unwrap_or_default()
            .contains("projectId"),
        "{error}"
    );

    // A token with two projects gets each one's answers only.
    let both = server.connect(Some(TOKEN_BOTH)).await.expect("session");
    wait_indexed(&both, "beta").await;
    let found = both
        .ok(
            "search_symbols",
            json!({ "projectId": "beta", "query": "only_in" }),
        )
        .await;
    assert_eq!(names(&found), ["only_in_beta"]);
    let error = both
        .refused(
            "search_symbols",
            json!({ "projectId": "gamma", "query": "x" }),
        )
        .await;
    assert_eq!(error["code"], "PROJECT_NOT_FOUND");

    // Beta serves `src/` only: `private/` is neither indexed nor readable.
    let found = both
        .ok(
            "search_symbols",
            json!({ "projectId": "beta", "query": "private_of" }),
        )
        .await;
    assert!(names(&found).is_empty(), "{found}");
    let error = both
        .refused(
            "get_outline",
            json!({ "projectId": "beta", "path": "private/notes.rs" }),
        )
        .await;
    assert_eq!(error["code"], "PATH_OUTSIDE_BOUNDARY", "{error}");
    let outline = both
        .ok(
            "get_outline",
            json!({ "projectId": "beta", "path": "src/lib.rs" }),
        )
        .await;
    assert!(outline.to_string().contains("only_in_beta"), "{outline}");
    // Alpha serves everything under its root.
    let found = alpha_only
        .ok(
            "search_symbols",
            json!({ "projectId": "alpha", "query": "private_of" }),
        )
        .await;
    assert_eq!(names(&found), ["private_of_alpha"]);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_without_a_known_token_or_from_a_foreign_origin_are_refused() {
    let dir = Scratch::new("hosted-auth");
    project(&dir, "alpha");
    let server = HostedServer::start_in(
        dir,
        "[[project]]\nid = \"alpha\"\nroot = \"alpha\"\n",
        Some(TOKENS),
        &[],
    )
    .await
    .expect("server starts");
    let http = reqwest::Client::new();
    let initialize = json!({
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": { "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": { "name": "raw", "version": "1" } }
    });
    let request = |token: Option<&str>, body: String| {
        let request = json_post(&http, &server.url, body);
        match token {
            Some(token) => request.header("authorization", format!("Bearer {token}")),
            None => request,
        }
    };
    let post = |token: Option<&str>, origin: Option<&str>| {
        let mut request = request(token, initialize.to_string());
        if let Some(origin) = origin {
            request = request.header("origin", origin);
        }
        request.send()
    };
    for (token, expected) in [
        (None, "invalid_request"),
        (Some("secret-both-012345678"), "invalid_token"),
        // `Bearer` and nothing else: no token given.
        (Some(""), "invalid_request"),
        (Some("secret-both-0123456789x"), "invalid_token"),
    ] {
        let response = post(token, None).await.expect("an HTTP answer");
        assert_eq!(response.status().as_u16(), 401, "{token:?}");
        let challenge = response
            .headers()
            .get("www-authenticate")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_string();
        assert!(
            challenge.starts_with("Bearer ") && challenge.contains(expected),
            "{token:?}: {challenge}"
        );
    }
    // DNS rebinding: a page elsewhere may not drive the server.
    let response = post(Some(TOKEN_BOTH), Some("http://attacker.example"))
        .await
        .expect("an HTTP answer");
    assert_eq!(response.status().as_u16(), 403);
    // A page on this machine (the Inspector's web UI) may, on a loopback
    // server, whatever its port; a look-alike name may not.
    for origin in [
        "http://localhost:6274",
        "http://127.0.0.1:5173",
        "http://[::1]:8080",
        "https://localhost",
    ] {
        let response = post(Some(TOKEN_BOTH), Some(origin))
            .await
            .expect("an HTTP answer");
        assert_eq!(response.status().as_u16(), 200, "{origin}");
    }
    for origin in [
        "http://localhost.attacker.example:6274",
        "http://127.0.0.2:80",
    ] {
        let response = post(Some(TOKEN_BOTH), Some(origin))
            .await
            .expect("an HTTP answer");
        assert_eq!(response.status().as_u16(), 403, "{origin}");
    }
    let response = request(Some(TOKEN_BOTH), initialize.to_string())
        .header("host", "attacker.example")
        .send()
        .await
        .expect("an HTTP answer");
    assert!(
        response.status().is_client_error(),
        "foreign Host: {}",
        response.status()
    );
    // A body over 1 MiB is refused before it is read whole.
    let oversized = json!({
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": { "protocolVersion": "2025-06-18", "capabilities": {},
                    "clientInfo": { "name": "x".repeat(1 << 20), "version": "1" } }
    });
    let response = request(Some(TOKEN_BOTH), oversized.to_string())
        .send()
        .await
        .expect("an HTTP answer");
    assert_eq!(response.status().as_u16(), 413, "oversized body");
    // The right token passes.
    let response = post(Some(TOKEN_BOTH), None).await.expect("an HTTP answer");
    assert_eq!(response.status().as_u16(), 200);
    assert!(response.headers().contains_key("mcp-session-id"));
    // The official client with a wrong token cannot start a session.
    assert!(
        server
            .connect(Some("not-a-token-at-all-000"))
            .await
            .is_err()
    );
    assert!(server.connect(None).await.is_err());
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rates_concurrency_and_sizes_are_limited_with_a_retry_hint() {
    let dir = Scratch::new("hosted-limits");
    project(&dir, "slow");
    project(&dir, "small");
    dir.write(
        "small/src/big.rs",
        (0..400)
            .map(|i| format!("pub fn function_number_{i}() -> u32 {{ {i} }}\n"))
            .collect::<String>(),
    );
    let projects = r#"
[[project]]
id = "slow"
root = "slow"
limits = { requests_per_second = 1, burst = 3 }

[[project]]
id = "small"
root = "small"
limits = { max_response_bytes = 4096 }
"#;
    let tokens = format!(
        "{TOKENS}\n[[token]]\nname = \"stingy\"\nsecret = \"secret-stingy-0123456789\"\nprojects = [\"*\"]\nrequests_per_second = 1\nburst = 2\n"
    );
    let server = HostedServer::start_in(dir, projects, Some(&tokens), &[])
        .await
        .expect("server starts");
    let admin = server.connect(Some(TOKEN_ADMIN)).await.expect("session");
    // The project's burst, then a refusal saying when to retry.
    let call = || admin.call("health_check", json!({ "projectId": "slow" }));
    for _ in 0..3 {
        assert!(call().await.is_ok());
    }
    let error = rpc_error(call().await);
    assert_eq!(error.code.0, -32003, "{error:?}");
    let data = error.data.expect("data");
    assert_eq!(data["code"], "RATE_LIMITED");
    assert_eq!(data["scope"], "project");
    assert_eq!(data["projectId"], "slow");
    let retry = data["retryAfterMs"].as_u64().expect("retryAfterMs");
    assert!((1..=1000).contains(&retry), "{retry}");
    // After the hint, it passes again.
    tokio::time::sleep(Duration::from_millis(retry + 50)).await;
    assert!(call().await.is_ok());

    // A token's own rate, across projects.
    let stingy = server
        .connect(Some("secret-stingy-0123456789"))
        .await
        .expect("session");
    for _ in 0..2 {
        assert!(stingy.call("list_projects", json!({})).await.is_ok());
    }
    let error = rpc_error(
        stingy
            .call("health_check", json!({ "projectId": "small" }))
            .await,
    );
    assert_eq!(error.code.0, -32003);
    assert_eq!(error.data.expect("data")["scope"], "token");

    // An answer over the project's byte cap is refused, not cut.
    wait_indexed(&admin, "small").await;
    let error = admin
        .refused(
            "get_outline",
            json!({ "projectId": "small", "path": "src/big.rs", "format": "json" }),
        )
        .await;
    assert_eq!(error["code"], "RESOURCE_LIMIT_EXCEEDED", "{error}");
    assert_eq!(error["details"]["limitBytes"], 4096);
    let outline = admin
        .ok(
            "get_outline",
            json!({ "projectId": "small", "path": "src/lib.rs" }),
        )
        .await;
    assert!(outline.to_string().contains("only_in_small"));
    server.stop().await;
}

/// Project `id` in folder `id`, serving one call at a time.
fn one_slot_project(id: &str) -> String {
    format!(
        "[[project]]\nid = \"{id}\"\nroot = \"{id}\"\nlimits = {{ max_concurrent = 1, request_timeout_ms = 60000 }}\n"
    )
}

/// A server on `dir` for `projects` with the hostile plugin (and the
/// built-in ones when `built_in`), each plugin call allowed `timeout_ms`.
async fn start_hostile(
    dir: Scratch,
    projects: &str,
    built_in: bool,
    timeout_ms: u64,
) -> HostedServer {
    let plugin = lingo_e2e::hostile_plugin();
    let timeout = timeout_ms.to_string();
    let mut extra = vec![
        "--plugin",
        plugin.to_str().expect("UTF-8 path"),
        "--plugin-timeout-ms",
        &timeout,
    ];
    if !built_in {
        extra.push("--no-built-in");
    }
    HostedServer::start_in(dir, projects, None, &extra)
        .await
        .expect("server starts")
}

/// How long the hostile plugin takes over the cancellation test's one file.
const SLOW_FILE_MS: u64 = 30_000;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_cancelled_over_http_stops_and_gives_back_its_project_slot() {
    let dir = Scratch::new("hosted-cancel");
    dir.write("slow/first.slow", format!("ms={SLOW_FILE_MS}\n"));
    let server = start_hostile(dir, &one_slot_project("slow"), false, 2 * SLOW_FILE_MS).await;
    let client = server.connect(None).await.expect("session");

    // A workspace-wide call waits for the slow first index, holding the
    // project's one slot. Cancelled, it stops waiting and gives the slot
    // back, long before the index (or the ten seconds a call waits for it)
    // would have ended.
    let search = json!({ "projectId": "slow", "query": "slow_fn" });
    let held = hold_the_slot(&client, "slow", "search_symbols", &search).await;
    held.cancel(Some("no longer needed".into()))
        .await
        .expect("the cancellation is sent");
    slot_given_back(&client, "slow", Duration::from_secs(5)).await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_whose_stream_broke_is_resumed_from_its_last_event_id() {
    let dir = Scratch::new("hosted-resume");
    dir.write("slow/first.slow", "ms=2000\n");
    let projects = "[[project]]\nid = \"slow\"\nroot = \"slow\"\n";
    let server = start_hostile(dir, projects, false, 10_000).await;
    let http = reqwest::Client::new();
    let post = |session: Option<&str>, body: Value| {
        let request = json_post(&http, &server.url, body.to_string())
            .header("mcp-protocol-version", "2025-06-18");
        match session {
            Some(session) => request.header("mcp-session-id", session),
            None => request,
        }
    };
    let initialized = post(
        None,
        json!({
            "jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": { "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": { "name": "raw", "version": "1" } }
        }),
    )
    .send()
    .await
    .expect("initialize answered");
    let session = initialized
        .headers()
        .get("mcp-session-id")
        .and_then(|v| v.to_str().ok())
        .expect("a session id")
        .to_string();
    initialized.bytes().await.expect("the initialize answer");
    let notified = post(
        Some(&session),
        json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }),
    )
    .send()
    .await
    .expect("notification accepted");
    assert_eq!(notified.status().as_u16(), 202);

    // A call that waits for the slow first index answers on an event
    // stream; the connection breaks after its first event.
    let mut call = post(
        Some(&session),
        json!({
            "jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": { "name": "search_symbols", "arguments": { "projectId": "slow", "query": "slow_fn" } }
        }),
    )
    .send()
    .await
    .expect("the call is sent");
    let mut events = SseEvents::default();
    let first = loop {
        if let Some(event) = events.next() {
            break event;
        }
        let chunk = call
            .chunk()
            .await
            .expect("the stream")
            .expect("an event before the end");
        events.push(&chunk);
    };
    assert!(
        !first.data.contains("\"id\":2"),
        "the answer came before the break; nothing would be resumed: {first:?}"
    );
    let last_id = first
        .id
        .expect("the first event of the stream has an id to resume from");
    drop(call);

    // Resumed from that event, the stream carries the call's answer.
    let mut resumed = http
        .get(&server.url)
        .header("accept", "text/event-stream")
        .header("mcp-protocol-version", "2025-06-18")
        .header("mcp-session-id", &session)
        .header("last-event-id", &last_id)
        .send()
        .await
        .expect("the stream is resumed");
    assert_eq!(resumed.status().as_u16(), 200);
    let mut events = SseEvents::default();
    let answer = tokio::time::timeout(PATIENCE, async {
        loop {
            while let Some(event) = events.next() {
                if let Ok(message) = serde_json::from_str::<Value>(&event.data)
                    && message["id"] == json!(2)
                {
                    return message;
                }
            }
            let chunk = resumed
                .chunk()
                .await
                .expect("the resumed stream")
                .expect("the answer before the end of the resumed stream");
            events.push(&chunk);
        }
    })
    .await
    .expect("the answer within the patience");
    let symbols = &answer["result"]["structuredContent"]["symbols"];
    assert_eq!(symbols[0]["name"], json!("slow_fn"), "{answer}");
    server.stop().await;
}

/// One server-sent event: its id and its data lines joined.
#[derive(Debug)]
struct SseEvent {
    id: Option<String>,
    data: String,
}

/// Server-sent events read from the bytes of a stream as they arrive.
#[derive(Default)]
struct SseEvents {
    pending: String,
}

impl SseEvents {
    fn push(&mut self, bytes: &[u8]) {
        self.pending
            .push_str(&String::from_utf8_lossy(bytes).replace("\r\n", "\n"));
    }

    /// The next whole event, if one has arrived.
    fn next(&mut self) -> Option<SseEvent> {
        let end = self.pending.find("\n\n")?;
        let block: String = self.pending.drain(..end + 2).collect();
        let mut event = SseEvent {
            id: None,
            data: String::new(),
        };
        for line in block.lines() {
            if let Some(id) = line.strip_prefix("id:") {
                event.id = Some(id.trim_start().to_string());
            } else if let Some(data) = line.strip_prefix("data:") {
                if !event.data.is_empty() {
                    event.data.push('\n');
                }
                event.data.push_str(data.trim_start());
            }
        }
        Some(event)
    }
}

/// How long each `resolve-import` of a `.slowimport` file spins (under the
/// 2 s a `resolve-import` call may take).
const SLOW_IMPORT_MS: u64 = 1_500;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_graph_build_gives_back_its_slot_and_nothing_cut_short_is_kept() {
    let dir = Scratch::new("hosted-cancel-graph");
    dir.write(
        "imports/src/lib.rs",
        "pub fn increment(x: u32) -> u32 {\n    x + 1\n}\n",
    );
    // Eight files whose import takes the plugin 1.5 s to resolve: a graph
    // build of 6 s on two resolver threads.
    for i in 0..8 {
        dir.write(
            &format!("imports/s{i}.slowimport"),
            format!("imports increment\nms={SLOW_IMPORT_MS}\n"),
        );
    }
    let server = start_hostile(dir, &one_slot_project("imports"), true, 4 * SLOW_IMPORT_MS).await;
    let client = server.connect(None).await.expect("session");
    let started = Instant::now();
    while names(
        &client
            .ok(
                "search_symbols",
                json!({ "projectId": "imports", "query": "increment" }),
            )
            .await,
    )
    .is_empty()
    {
        assert!(started.elapsed() < PATIENCE, "never indexed");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let references = json!({ "projectId": "imports", "symbol": "increment", "path": "src/lib.rs" });
    // Every file's reference is in the graph (by name only: the import
    // names no module), and no import resolution counts as failed.
    let complete = |answer: &Value| {
        let completeness = &answer["completeness"];
        assert_eq!(completeness["name_only"], json!(8), "{completeness}");
        assert!(
            completeness.get("failedImportResolutions").is_none()
                && !completeness.to_string().contains("cancel"),
            "every import was answered: no failure may be kept from a cancelled call: {completeness}"
        );
    };

    // The first graph query builds the graph, holding the project's one
    // slot; cancelled, the build stops and the slot is free long before
    // the build would have ended.
    let held = hold_the_slot(&client, "imports", "find_references", &references).await;
    held.cancel(None).await.expect("the cancellation is sent");
    slot_given_back(&client, "imports", Duration::from_secs(2)).await;
    // Nothing of the stopped build was kept: the next query builds the
    // graph whole, every import resolved.
    complete(&client.ok("find_references", references.clone()).await);

    // A definition is resolved on the request's own thread. Its file
    // edited to import a path not asked yet, the plugin is asked, and the
    // request cancelled meanwhile: the answer cut short must not be kept
    // as the import's answer (nor counted as its failure) for the
    // requests after it.
    std::fs::write(
        server.dir().join("imports/s0.slowimport"),
        format!("imports increment\nms={}\n", SLOW_IMPORT_MS - 100),
    )
    .expect("edit");
    let definition =
        json!({ "projectId": "imports", "path": "s0.slowimport", "line": 0, "character": 0 });
    let held = hold_the_slot(&client, "imports", "find_definition", &definition).await;
    held.cancel(None).await.expect("the cancellation is sent");
    slot_given_back(&client, "imports", Duration::from_secs(2)).await;
    complete(&client.ok("find_references", references).await);
    server.stop().await;
}

/// Send `tool` with `arguments` to project `project` (whose one slot it
/// holds while it works) as a cancellable request, once the project is
/// busy with it. A call refused by its arguments has passed the slot:
/// while the call holds it, the project is busy instead. (Each call is a
/// POST of its own, so a probe may reach the server first and get the
/// held call refused: it is then sent again.)
async fn hold_the_slot(
    client: &HttpClient,
    project: &str,
    tool: &str,
    arguments: &Value,
) -> rmcp::service::RequestHandle<rmcp::RoleClient> {
    use rmcp::model::{CallToolRequest, CallToolRequestParams, ClientRequest};
    use rmcp::service::PeerRequestOptions;

    let Value::Object(arguments) = arguments.clone() else {
        panic!("arguments must be an object")
    };
    let started = Instant::now();
    loop {
        assert!(started.elapsed() < PATIENCE, "the project never got busy");
        let request = ClientRequest::CallToolRequest(CallToolRequest::new(
            CallToolRequestParams::new(tool.to_string()).with_arguments(arguments.clone()),
        ));
        let mut handle = client
            .client
            .peer()
            .send_cancellable_request(request, PeerRequestOptions::no_options())
            .await
            .expect("the call is sent");
        tokio::time::sleep(Duration::from_millis(200)).await;
        while handle.rx.try_recv().is_err() {
            assert!(started.elapsed() < PATIENCE, "the project never got busy");
            if refused_as_busy(client, project).await {
                return handle;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

/// Whether a call to `project` is refused because the project is busy (a
/// call with a missing argument, answered as such when the slot is free).
async fn refused_as_busy(client: &HttpClient, project: &str) -> bool {
    match client
        .call("search_symbols", json!({ "projectId": project }))
        .await
    {
        Err(rmcp::service::ServiceError::McpError(error)) => {
            assert_eq!(error.data.expect("data")["scope"], "project");
            true
        }
        Ok(result) => {
            assert_eq!(result.is_error, Some(true), "{result:?}");
            let error = &result.structured_content.expect("structuredContent")["error"];
            assert_eq!(error["code"], "MISSING_REQUIRED_PARAM", "{error}");
            false
        }
        Err(other) => panic!("{other:?}"),
    }
}

/// Wait until `project`'s slot is free again, at most `within` from now.
async fn slot_given_back(client: &HttpClient, project: &str, within: Duration) {
    let cancelled = Instant::now();
    while refused_as_busy(client, project).await {
        assert!(
            cancelled.elapsed() < within,
            "the slot was still held {:?} after the cancellation",
            cancelled.elapsed()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Project `id` (written by [`project`]) answers `user` with its own
/// symbols once indexed, and is not found by `other`.
async fn served_only_to(user: &HttpClient, other: &HttpClient, id: &str) {
    wait_indexed(user, id).await;
    let found = user
        .ok(
            "search_symbols",
            json!({ "projectId": id, "query": "only_in" }),
        )
        .await;
    assert_eq!(names(&found), [format!("only_in_{id}")]);
    let error = other
        .refused("search_symbols", json!({ "projectId": id, "query": "x" }))
        .await;
    assert_eq!(error["code"], "PROJECT_NOT_FOUND");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn projects_are_created_and_removed_at_run_time_by_administrators_only() {
    let dir = Scratch::new("hosted-runtime");
    project(&dir, "alpha");
    project_at(&dir, "pool/fresh", "fresh");
    project(&dir, "elsewhere");
    let projects = "project_roots = [\"pool\"]\n\n[[project]]\nid = \"alpha\"\nroot = \"alpha\"\n";
    let server = HostedServer::start_in(dir, projects, Some(TOKENS), &[])
        .await
        .expect("server starts");
    let pool = server.dir().join("pool/fresh");
    let outside = server.dir().join("elsewhere");
    let admin = server.connect(Some(TOKEN_ADMIN)).await.expect("session");
    let user = server.connect(Some(TOKEN_BOTH)).await.expect("session");

    let error = user
        .refused(
            "create_project",
            json!({ "projectId": "fresh", "root": pool.display().to_string() }),
        )
        .await;
    assert_eq!(error["code"], "PERMISSION_DENIED", "{error}");
    let error = admin
        .refused(
            "create_project",
            json!({ "projectId": "fresh", "root": outside.display().to_string() }),
        )
        .await;
    assert_eq!(error["code"], "PATH_OUTSIDE_BOUNDARY", "{error}");
    let escape = format!("{}/../../elsewhere", pool.display());
    let error = admin
        .refused(
            "create_project",
            json!({ "projectId": "fresh", "root": escape }),
        )
        .await;
    assert_eq!(error["code"], "PATH_OUTSIDE_BOUNDARY", "{error}");
    for bad_id in ["../x", "", ".hidden", "a/b"] {
        let error = admin
            .refused(
                "create_project",
                json!({ "projectId": bad_id, "root": pool.display().to_string() }),
            )
            .await;
        assert_eq!(error["code"], "INVALID_PARAM", "{bad_id}: {error}");
        assert_eq!(error["details"]["field"], "projectId");
    }
    let error = admin
        .refused(
            "create_project",
            json!({ "projectId": "alpha", "root": pool.display().to_string() }),
        )
        .await;
    assert_eq!(error["code"], "INVALID_PARAM", "{error}");
    // At most 64 include paths, each a string: more, or a number, is
    // refused naming the field.
    let folders = |n: usize| (0..n).map(|i| format!("src/f{i}")).collect::<Vec<_>>();
    let error = admin
        .refused(
            "create_project",
            json!({ "projectId": "fresh", "root": pool.display().to_string(), "include": folders(65) }),
        )
        .await;
    assert_eq!(error["code"], "INVALID_PARAM", "{error}");
    assert_eq!(error["details"]["field"], "include");
    let error = admin
        .refused(
            "create_project",
            json!({ "projectId": "fresh", "root": pool.display().to_string(), "include": [7] }),
        )
        .await;
    assert_eq!(error["details"]["field"], "include", "{error}");

    let created = admin
        .ok(
            "create_project",
            json!({ "projectId": "fresh", "root": pool.display().to_string() }),
        )
        .await;
    assert_eq!(created["created"]["projectId"], "fresh");
    // A token naming other projects does not see it.
    served_only_to(&admin, &user, "fresh").await;

    // A restart serves it again, to the same tokens only.
    let server = server.restart(&[]).await.expect("server restarts");
    let admin = server.connect(Some(TOKEN_ADMIN)).await.expect("session");
    let user = server.connect(Some(TOKEN_BOTH)).await.expect("session");
    served_only_to(&admin, &user, "fresh").await;

    let error = user
        .refused("remove_project", json!({ "projectId": "alpha" }))
        .await;
    assert_eq!(error["code"], "PERMISSION_DENIED", "{error}");
    let removed = admin
        .ok("remove_project", json!({ "projectId": "fresh" }))
        .await;
    assert_eq!(removed["removed"], "fresh");
    let error = admin
        .refused(
            "search_symbols",
            json!({ "projectId": "fresh", "query": "x" }),
        )
        .await;
    assert_eq!(error["code"], "PROJECT_NOT_FOUND");
    let listed = admin.ok("list_projects", json!({})).await;
    assert_eq!(listed["projects"].as_array().map(Vec::len), Some(1));
    // Removed, it stays removed after a restart.
    let server = server.restart(&[]).await.expect("server restarts");
    let admin = server.connect(Some(TOKEN_ADMIN)).await.expect("session");
    let listed = admin.ok("list_projects", json!({})).await;
    assert_eq!(
        listed["projects"].as_array().map(Vec::len),
        Some(1),
        "{listed}"
    );
    server.stop().await;
}

/// 10,000 `tools/call`s over HTTP, 128 in flight from 8 sessions, across
/// three projects: every call answered once, by its own project. Prints
/// the latencies and the server's peak memory (BENCHMARKS.md).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ten_thousand_calls_across_three_projects_are_each_answered_once_by_their_project() {
    const CALLS: usize = 10_000;
    const SESSIONS: usize = 8;
    const IN_FLIGHT_PER_SESSION: usize = 16;
    let dir = Scratch::new("hosted-load");
    let ids = ["alpha", "beta", "gamma"];
    for id in ids {
        project(&dir, id);
    }
    let projects: String = ids
        .iter()
        .map(|id| {
            format!(
                "[[project]]\nid = \"{id}\"\nroot = \"{id}\"\nlimits = {{ requests_per_second = 1000000, burst = 1000000, max_concurrent = 128 }}\n\n"
            )
        })
        .collect();
    let tokens = "[[token]]\nname = \"load\"\nsecret = \"secret-load-0123456789\"\nprojects = [\"*\"]\nrequests_per_second = 1000000\nburst = 1000000\n";
    let server = HostedServer::start_in(dir, &projects, Some(tokens), &[])
        .await
        .expect("server starts");
    let mut sessions = Vec::new();
    for _ in 0..SESSIONS {
        sessions.push(Arc::new(
            server
                .connect(Some("secret-load-0123456789"))
                .await
                .expect("session"),
        ));
    }
    for id in ids {
        wait_indexed(&sessions[0], id).await;
    }
    let next = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let started = Instant::now();
    let mut workers = tokio::task::JoinSet::new();
    for session in &sessions {
        for _ in 0..IN_FLIGHT_PER_SESSION {
            let session = session.clone();
            let next = next.clone();
            workers.spawn(async move {
                let mut seen = Vec::new();
                loop {
                    let n = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if n >= CALLS {
                        return seen;
                    }
                    let project = ["alpha", "beta", "gamma"][n % 3];
                    let (tool, arguments) = if n.is_multiple_of(2) {
                        (
                            "search_symbols",
                            json!({ "projectId": project, "query": "only_in" }),
                        )
                    } else {
                        (
                            "find_definition",
                            json!({ "projectId": project, "symbol": format!("only_in_{project}") }),
                        )
                    };
                    let sent = Instant::now();
                    let result = session.call(tool, arguments).await;
                    let latency = sent.elapsed();
                    let answer = match result {
                        Ok(result) if result.is_error != Some(true) => {
                            result.structured_content.unwrap_or_default()
                        }
                        other => panic!("call {n} ({tool} in {project}): {other:?}"),
                    };
                    seen.push((n, project, answer.to_string(), latency));
                }
            });
        }
    }
    let mut answered = BTreeMap::new();
    let mut latencies = Vec::new();
    while let Some(done) = workers.join_next().await {
        for (n, project, answer, latency) in done.expect("worker") {
            // Answered by its own project: its own function, no other's.
            assert!(
                answer.contains(&format!("only_in_{project}")),
                "{n}: {answer}"
            );
            for other in ["alpha", "beta", "gamma"].iter().filter(|o| **o != project) {
                assert!(
                    !answer.contains(&format!("only_in_{other}")),
                    "{n}: {answer}"
                );
            }
            assert!(
                answered.insert(n, project).is_none(),
                "call {n} answered twice"
            );
            latencies.push(latency);
        }
    }
    let elapsed = started.elapsed();
    assert_eq!(answered.len(), CALLS, "every call answered");
    latencies.sort();
    let at = |q: f64| latencies[((latencies.len() as f64 * q) as usize).min(latencies.len() - 1)];
    let memory = server.memory().expect("server memory");
    eprintln!(
        "hosted load: {CALLS} calls, {} in flight from {SESSIONS} sessions, 3 projects: {:.1} s, {:.0} calls/s, p50 {:.1} ms, p99 {:.1} ms, server peak RSS {} MiB",
        SESSIONS * IN_FLIGHT_PER_SESSION,
        elapsed.as_secs_f64(),
        CALLS as f64 / elapsed.as_secs_f64(),
        at(0.50).as_secs_f64() * 1e3,
        at(0.99).as_secs_f64() * 1e3,
        memory.peak_mib(),
    );
    server.stop().await;
}

/// `--projects` without `--http`: the same projects over stdio, for a
/// local client.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stdio_serves_the_projects_of_a_projects_file_too() {
    let dir = Scratch::new("hosted-stdio");
    project(&dir, "alpha");
    project(&dir, "beta");
    let file = dir.write(
        "projects.toml",
        "[[project]]\nid = \"alpha\"\nroot = \"alpha\"\n\n[[project]]\nid = \"beta\"\nroot = \"beta\"\n",
    );
    let server = lingo_e2e::McpServer::start(dir.path(), &["--projects", file.to_str().unwrap()])
        .await
        .expect("server starts");
    for id in ["alpha", "beta"] {
        let started = Instant::now();
        loop {
            let answer = server
                .call(
                    "search_symbols",
                    json!({ "projectId": id, "query": "only_in" }),
                )
                .await
                .ok();
            if !names(&answer).is_empty() {
                assert_eq!(names(&answer), [format!("only_in_{id}")]);
                break;
            }
            assert!(started.elapsed() < PATIENCE, "{id} never indexed");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    let code = server
        .call("search_symbols", json!({ "query": "only_in" }))
        .await
        .code();
    assert_eq!(code, "PROJECT_NOT_FOUND");
    server.stop().await;
}

/// A JSON-RPC POST of `body` to `url`, accepting a JSON answer or a stream,
/// as a Streamable HTTP client sends it.
fn json_post(http: &reqwest::Client, url: &str, body: String) -> reqwest::RequestBuilder {
    http.post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(body)
}

/// The JSON-RPC message of an HTTP answer: the body, or the first `data:`
/// event of a stream.
async fn message_of(response: reqwest::Response) -> Value {
    let streamed = response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/event-stream"));
    let body = response.text().await.expect("a body");
    let json = if streamed {
        body.lines()
            .filter_map(|line| line.strip_prefix("data:"))
            .map(str::trim)
            .find(|data| data.starts_with('{'))
            .unwrap_or_default()
            .to_string()
    } else {
        body
    };
    serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}: {json}"))
}

/// 2026-07-28 over HTTP: no session; `server/discover` and a stateless
/// `tools/list` at a toolset's path, which lists that set.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_stateless_revision_is_served_over_http_per_toolset_path() {
    let dir = Scratch::new("hosted-stateless");
    project(&dir, "alpha");
    let server = HostedServer::start_in(
        dir,
        "[[project]]\nid = \"alpha\"\nroot = \"alpha\"\n",
        Some(TOKENS),
        &[],
    )
    .await
    .expect("server starts");
    let http = reqwest::Client::new();
    let post = |url: String, method: &str| {
        let body = json!({
            "jsonrpc": "2.0", "id": 1, "method": method,
            "params": { "_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {},
                "io.modelcontextprotocol/clientInfo": { "name": "raw", "version": "1" },
            } }
        });
        json_post(&http, &url, body.to_string())
            .header("authorization", format!("Bearer {TOKEN_BOTH}"))
            .header("mcp-protocol-version", "2026-07-28")
            .header("mcp-method", method)
            .send()
    };
    let response = post(server.url.clone(), "server/discover")
        .await
        .expect("an HTTP answer");
    assert_eq!(response.status().as_u16(), 200);
    assert!(response.headers().get("mcp-session-id").is_none());
    let discover = message_of(response).await;
    let versions = &discover["result"]["supportedVersions"];
    assert!(
        versions
            .as_array()
            .is_some_and(|v| v.contains(&json!("2026-07-28")) && v.contains(&json!("2025-11-25"))),
        "{discover}"
    );

    let response = post(format!("{}/graph", server.url), "tools/list")
        .await
        .expect("an HTTP answer");
    assert_eq!(response.status().as_u16(), 200);
    let list = message_of(response).await;
    let names: Vec<&str> = list["result"]["tools"]
        .as_array()
        .unwrap_or_else(|| panic!("{list}"))
        .iter()
        .filter_map(|tool| tool["name"].as_str())
        .collect();
    assert_eq!(
        names,
        [
            "dependents_of",
            "dependencies_of",
            "paths_between",
            "list_projects"
        ],
        "{list}"
    );
    assert_eq!(list["result"]["resultType"], json!("complete"), "{list}");
    assert_eq!(list["result"]["cacheScope"], json!("public"), "{list}");
    assert!(
        list["result"]["ttlMs"].as_u64().is_some_and(|ttl| ttl > 0),
        "{list}"
    );
    server.stop().await;
}

/// `lingo call --url` on a hosted server: the text a client reads, and the
/// exit codes of `lingo call` (1 refused, 2 bad arguments or a tool the
/// server does not offer, 3 unreachable).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lingo_call_reaches_a_hosted_server() {
    let dir = Scratch::new("hosted-cli");
    project(&dir, "alpha");
    let server = HostedServer::start_in(
        dir,
        "[[project]]\nid = \"alpha\"\nroot = \"alpha\"\n",
        Some(TOKENS),
        &[],
    )
    .await
    .expect("server starts");
    let call = |url: String, token: &'static str, args: Vec<String>| async move {
        tokio::process::Command::new(lingo_e2e::lingo_bin())
            .arg("call")
            .args(&args)
            .args(["--url", &url, "--token", token])
            .env_remove("LINGO_TOKEN")
            .output()
            .await
            .expect("run lingo call")
    };
    let args = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let outline = call(
        server.url.clone(),
        TOKEN_BOTH,
        args(&[
            "outline",
            "--arg",
            "projectId=alpha",
            "--arg",
            "path=src/lib.rs",
        ]),
    )
    .await;
    let text = String::from_utf8_lossy(&outline.stdout);
    assert_eq!(outline.status.code(), Some(0), "{text}");
    assert!(text.contains("pub fn only_in_alpha() -> u32"), "{text}");

    let refused = call(
        server.url.clone(),
        TOKEN_BOTH,
        args(&[
            "outline",
            "--arg",
            "projectId=alpha",
            "--arg",
            "path=src/none.rs",
        ]),
    )
    .await;
    assert_eq!(refused.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&refused.stdout).contains("error "));

    let not_offered = call(
        format!("{}/graph", server.url),
        TOKEN_BOTH,
        args(&[
            "outline",
            "--arg",
            "projectId=alpha",
            "--arg",
            "path=src/lib.rs",
        ]),
    )
    .await;
    assert_eq!(not_offered.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&not_offered.stderr).contains("toolset `navigation`"));

    let unknown_token = call(
        server.url.clone(),
        "secret-nobody-0123456789",
        args(&["outline"]),
    )
    .await;
    assert_eq!(unknown_token.status.code(), Some(3));
    server.stop().await;
}
