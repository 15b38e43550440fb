//! A plugin's facts are checked at the host's boundary. The hostile test
//! plugin reports broken facts on purpose, one kind per file extension
//! (container cycles, indices out of range, huge counts, huge strings, deep
//! nesting, spans beyond the file, a `resolve-import` that never returns,
//! two seconds per file, an extension a built-in plugin serves). Each case
//! runs on a fresh `lingo serve` and checks:
//!
//! - the file's facts were repaired (its valid facts kept) or the file was
//!   skipped, and either way it carries a `PLUGIN_INVALID_OUTPUT`
//!   diagnostic naming the broken rules (`FACTS_CAPPED` is accepted too
//!   for facts that are merely too many or too long);
//! - every call answers (a result or a structured error) within a stated
//!   time;
//! - the server's peak resident memory stays under a stated figure;
//! - the other tools keep answering: `health_check`, the outline of a Rust
//!   file, `find_references` of a Rust function.

use std::path::PathBuf;
use std::time::Duration;

use lingo_e2e::{
    McpServer, SERDE_JSON_MAX_NESTING, Scratch, ToolOutcome, hostile_args, json_nesting,
    raw_tool_answer, start_hostile, start_hostile_with,
};
use serde_json::{Value, json};

/// The code of the diagnostic (or the error) of a file whose facts broke
/// the host's rules.
const INVALID_OUTPUT: &str = "PLUGIN_INVALID_OUTPUT";

/// The codes of a file whose facts were more than the host keeps (too many
/// or too long): the plugin broke a rule, or the file is merely huge and
/// its facts were capped.
const CAP_CODES: [&str; 2] = [INVALID_OUTPUT, "FACTS_CAPPED"];

/// Longest any one call may take in these tests (plugin calls have a
/// deadline of [`FACTS_PLUGIN_TIMEOUT_MS`]; the host's own work on a few
/// broken facts is quick).
const CALL_LIMIT: Duration = Duration::from_secs(10);

/// The plugin's deadline per call where a test is about what the host does
/// with broken facts, not about time: making a mebibyte of them takes the
/// plugin a while on a loaded machine, and a timeout there would test
/// nothing. The looping plugin's test keeps the 1 s deadline.
const FACTS_PLUGIN_TIMEOUT_MS: u64 = 5_000;

/// `lingo serve` on `root` with the hostile plugin, for a facts test.
async fn start_facts_case(root: &std::path::Path) -> McpServer {
    start_hostile_with(root, FACTS_PLUGIN_TIMEOUT_MS, 64, &[]).await
}

/// Peak resident memory the server may reach on a case with small facts.
const RSS_LIMIT_MIB: u64 = 256;

const LIB_RS: &str = "/// Adds one.
pub fn increment(x: u32) -> u32 {
    x + 1
}

pub fn twice(x: u32) -> u32 {
    increment(increment(x))
}
";

/// A workspace holding `lib.rs`, a calm hostile file and `files`.
fn workspace(scratch: &Scratch, files: &[(&str, String)]) -> PathBuf {
    scratch.write("ws/lib.rs", LIB_RS);
    scratch.write("ws/other.calm", "nothing to see here\n");
    for (name, contents) in files {
        scratch.write(&format!("ws/{name}"), contents);
    }
    scratch.path().join("ws")
}

/// The last `n` bytes of `text` (on a character boundary).
fn tail(text: &str, n: usize) -> &str {
    let mut start = text.len().saturating_sub(n);
    while !text.is_char_boundary(start) {
        start += 1;
    }
    &text[start..]
}

/// `tool` answers within `limit`: a result or a structured error.
async fn answer_within(
    server: &McpServer,
    tool: &str,
    arguments: Value,
    limit: Duration,
) -> ToolOutcome {
    match server.try_call(tool, arguments.clone(), limit).await {
        Ok(timed) => timed.value,
        Err(failure) => panic!(
            "{tool} {arguments}: {failure}\nserver alive: {}\nserver log (end):\n{}",
            server.is_alive(),
            tail(&server.log(), 6000)
        ),
    }
}

async fn answer(server: &McpServer, tool: &str, arguments: Value) -> ToolOutcome {
    answer_within(server, tool, arguments, CALL_LIMIT).await
}

/// A short rendering of an answer for assertion messages.
fn brief(value: &Value) -> String {
    let text = value.to_string();
    if text.len() > 3000 {
        format!("{}… ({} bytes)", &text[..3000], text.len())
    } else {
        text
    }
}

/// Everything that must keep working whatever one plugin reported.
async fn assert_others_answer(server: &McpServer, after: &str) {
    let health = answer(server, "health_check", json!({})).await;
    assert!(!health.is_error, "after {after}: {}", brief(&health.value));
    assert_eq!(
        health.value["components"]["server"]["name"],
        json!("lingo"),
        "after {after}"
    );

    let outline = answer(server, "outline", json!({ "path": "lib.rs" })).await;
    assert!(
        !outline.is_error,
        "after {after}: {}",
        brief(&outline.value)
    );
    assert_eq!(outline.value["language"], json!("rust"), "after {after}");
    let names: Vec<&str> = outline.value["outline"]
        .as_array()
        .expect("an outline list")
        .iter()
        .filter_map(|n| n["name"].as_str())
        .collect();
    assert_eq!(names, ["increment", "twice"], "after {after}");

    let references = answer(
        server,
        "find_references",
        json!({ "symbol": "increment", "path": "lib.rs" }),
    )
    .await;
    assert!(
        !references.is_error,
        "after {after}: {}",
        brief(&references.value)
    );
    let in_lib = references.value["references"]
        .as_array()
        .expect("a reference list")
        .iter()
        .filter(|r| r["file_path"] == json!("lib.rs") && r["kind"] != json!("declaration"))
        .count();
    assert_eq!(
        in_lib,
        2,
        "after {after}: both calls in twice(): {}",
        brief(&references.value)
    );
    assert!(server.is_alive(), "after {after}: the server process ended");
}

/// The peak resident memory of the server stays under `limit_mib`.
fn assert_memory_under(server: &McpServer, limit_mib: u64, case: &str) {
    let memory = server
        .memory()
        .unwrap_or_else(|| panic!("{case}: no /proc figures for the server"));
    eprintln!("{case}: server memory {memory:?}");
    assert!(
        memory.peak_mib() < limit_mib,
        "{case}: the server's peak RSS was {} MiB (now {} MiB), over the {limit_mib} MiB stated",
        memory.peak_mib(),
        memory.rss_mib()
    );
}

/// What the host reported about `path`'s facts breaking its rules: the
/// file's diagnostics coded one of `codes`, or its entry among the files
/// not analysed with one of them.
async fn findings(server: &McpServer, path: &str, codes: &[&str]) -> Vec<Value> {
    let diagnostics = answer(server, "get_diagnostics", json!({ "path": path })).await;
    assert!(
        !diagnostics.is_error,
        "{path}: get_diagnostics: {}",
        brief(&diagnostics.value)
    );
    let of_code = |list: &Value| -> Vec<Value> {
        list.as_array()
            .map(|items| {
                items
                    .iter()
                    .filter(|d| codes.iter().any(|c| d["code"] == json!(c)))
                    .cloned()
                    .collect()
            })
            .unwrap_or_default()
    };
    let mut found = of_code(&diagnostics.value["diagnostics"]);
    found.extend(of_code(&diagnostics.value["unanalyzed_files"]));
    found
}

/// `path` got a `PLUGIN_INVALID_OUTPUT` diagnostic naming each of `rules`
/// (each rule: words of which one must appear, case-insensitively).
async fn assert_rules_reported(server: &McpServer, path: &str, rules: &[&[&str]]) {
    assert_reported_as(server, path, &[INVALID_OUTPUT], rules).await;
}

/// `path` got a diagnostic coded one of `codes` naming each of `rules`.
async fn assert_reported_as(server: &McpServer, path: &str, codes: &[&str], rules: &[&[&str]]) {
    let findings = findings(server, path, codes).await;
    assert!(
        !findings.is_empty(),
        "{path}: no {codes:?} diagnostic; get_diagnostics says {}",
        brief(
            &answer(server, "get_diagnostics", json!({ "path": path }))
                .await
                .value
        )
    );
    let text = findings
        .iter()
        .map(Value::to_string)
        .collect::<Vec<_>>()
        .join("\n")
        .to_lowercase();
    for rule in rules {
        assert!(
            rule.iter().any(|word| text.contains(&word.to_lowercase())),
            "{path}: the {codes:?} diagnostic does not name the rule {rule:?}: {}",
            brief(&json!(findings))
        );
    }
}

/// The outline of a file with broken facts answers: either the repaired
/// facts, keeping the valid declaration `kept`, or a structured
/// `PLUGIN_INVALID_OUTPUT` error if the file was skipped. Returns the
/// outline when there is one.
async fn assert_outline_survives(server: &McpServer, path: &str, kept: &str) -> Option<Value> {
    let outline = answer(server, "outline", json!({ "path": path })).await;
    if outline.is_error {
        assert_eq!(
            outline.value["error"]["code"],
            json!(INVALID_OUTPUT),
            "{path}: a skipped file says why: {}",
            brief(&outline.value)
        );
        return None;
    }
    let names = outline_names(&outline.value["outline"]);
    assert!(
        names.iter().any(|n| n == kept),
        "{path}: the valid declaration {kept} was not kept: {names:?}"
    );
    Some(outline.value)
}

/// Every name in an outline, depth first (iteratively: outlines may be deep).
fn outline_names(outline: &Value) -> Vec<String> {
    let mut names = Vec::new();
    let mut stack: Vec<&Value> = outline
        .as_array()
        .map(|a| a.iter().rev().collect())
        .unwrap_or_default();
    while let Some(node) = stack.pop() {
        if let Some(name) = node["name"].as_str() {
            names.push(name.to_string());
        }
        if let Some(children) = node["children"].as_array() {
            stack.extend(children.iter().rev());
        }
    }
    names
}

/// The deepest nesting of an outline (iteratively).
fn outline_depth(outline: &Value) -> usize {
    let mut deepest = 0;
    let mut stack: Vec<(&Value, usize)> = outline
        .as_array()
        .map(|a| a.iter().map(|n| (n, 1)).collect())
        .unwrap_or_default();
    while let Some((node, depth)) = stack.pop() {
        deepest = deepest.max(depth);
        if let Some(children) = node["children"].as_array() {
            stack.extend(children.iter().map(|c| (c, depth + 1)));
        }
    }
    deepest
}

#[tokio::test]
async fn container_cycles_are_broken_and_reported() {
    let scratch = Scratch::new("facts-cycle");
    let root = workspace(&scratch, &[("a.cycle", "a cycle of containers\n".into())]);
    let server = start_facts_case(&root).await;

    assert_rules_reported(
        &server,
        "a.cycle",
        &[&["cycle"], &["own container", "itself"]],
    )
    .await;
    if let Some(outline) = assert_outline_survives(&server, "a.cycle", "cycle_ok").await {
        let names = outline_names(&outline["outline"]);
        assert!(names.len() <= 5, "each declaration at most once: {names:?}");
    }
    for (tool, arguments) in [
        ("get_symbol_info", json!({ "symbol": "cycle_self" })),
        ("get_symbol_info", json!({ "symbol": "cycle_a" })),
        ("find_references", json!({ "symbol": "cycle_a" })),
        ("node_at", json!({ "path": "a.cycle", "line": 1 })),
        (
            "dependents_of",
            json!({ "file_path": "a.cycle", "symbol": "cycle_b" }),
        ),
        ("search_symbols", json!({ "query": "cycle" })),
        // A plan re-analyses the edited text: those facts are checked too.
        (
            "rename",
            json!({ "symbol": "cycle_a", "path": "a.cycle", "new_name": "cycle_z" }),
        ),
    ] {
        answer(&server, tool, arguments).await;
    }
    assert_others_answer(&server, "a.cycle").await;
    assert_memory_under(&server, RSS_LIMIT_MIB, "a.cycle");
    server.stop().await;
}

#[tokio::test]
async fn indices_out_of_range_are_dropped_and_reported() {
    let scratch = Scratch::new("facts-range");
    let root = workspace(&scratch, &[("a.range", "indices out of range\n".into())]);
    let server = start_facts_case(&root).await;

    assert_rules_reported(
        &server,
        "a.range",
        &[
            &["out of range", "out of bounds"],
            &["container"],
            &["enclosing"],
            &["local"],
            &["receiver"],
            &["local value"],
            &["tuple element too deep"],
            &["metric"],
        ],
    )
    .await;
    assert_outline_survives(&server, "a.range", "range_ok").await;
    for (tool, arguments) in [
        ("get_symbol_info", json!({ "symbol": "range_far" })),
        ("get_symbol_info", json!({ "symbol": "range_ok" })),
        ("find_references", json!({ "symbol": "range_ok" })),
        ("node_at", json!({ "path": "a.range", "line": 1 })),
        (
            "find_definition",
            json!({ "path": "a.range", "line": 0, "character": 0 }),
        ),
        (
            "dependents_of",
            json!({ "file_path": "a.range", "symbol": "range_ok" }),
        ),
    ] {
        answer(&server, tool, arguments).await;
    }
    // A broken file must not break the references of every other symbol.
    assert_others_answer(&server, "a.range").await;
    assert_memory_under(&server, RSS_LIMIT_MIB, "a.range");
    server.stop().await;
}

#[tokio::test]
async fn huge_counts_are_capped_and_memory_stays_bounded() {
    // 1.1 million declarations in one file, and a node_at answer of a
    // million nodes in another: beyond any per-file cap a host can afford.
    // The plugin needs the memory to build them, so its cap is raised.
    const PEAK_MIB: u64 = 768;
    const LIMIT: Duration = Duration::from_secs(30);
    let scratch = Scratch::new("facts-huge");
    let root = workspace(
        &scratch,
        &[
            ("a.huge", "symbols=1100000 references=0 nodes=1\n".into()),
            ("b.huge", "symbols=1 references=0 nodes=1000000\n".into()),
        ],
    );
    let server = start_hostile_with(&root, 20_000, 1024, &[]).await;

    let started = std::time::Instant::now();
    let health = answer_within(&server, "health_check", json!({}), LIMIT).await;
    assert!(!health.is_error, "{}", brief(&health.value));
    let indexed_in = started.elapsed();

    let outline = answer_within(&server, "outline", json!({ "path": "a.huge" }), LIMIT).await;
    assert!(
        outline.text.len() <= 1 << 20,
        "the outline answer is bounded: {} bytes",
        outline.text.len()
    );
    if !outline.is_error {
        assert_eq!(outline.value["truncated"], json!(true));
    }
    let nodes = answer_within(
        &server,
        "node_at",
        json!({ "path": "b.huge", "line": 1 }),
        LIMIT,
    )
    .await;
    assert!(!nodes.is_error, "{}", brief(&nodes.value));
    assert!(
        nodes.text.len() <= 1 << 20,
        "the node_at answer is bounded: {} bytes",
        nodes.text.len()
    );
    for query in ["huge_ok", "h1"] {
        let search =
            answer_within(&server, "search_symbols", json!({ "query": query }), LIMIT).await;
        assert!(!search.is_error, "{}", brief(&search.value));
    }
    assert_others_answer(&server, "a.huge").await;
    eprintln!(
        "a.huge: first answer after {indexed_in:?}, memory {:?}",
        server.memory()
    );
    assert_memory_under(&server, PEAK_MIB, "a.huge");
    // The file held too much: its facts were capped, or it was skipped,
    // and either way the answers say so.
    if outline.is_error {
        let code = outline.value["error"]["code"].as_str().unwrap_or_default();
        assert!(
            CAP_CODES.contains(&code),
            "a skipped file says it held too much ({CAP_CODES:?}): {}",
            brief(&outline.value)
        );
    }
    assert_reported_as(
        &server,
        "a.huge",
        &CAP_CODES,
        &[&["too many", "too much", "cap", "limit", "exceed"]],
    )
    .await;
    server.stop().await;
}

#[tokio::test]
async fn huge_strings_are_capped() {
    let scratch = Scratch::new("facts-longstr");
    let root = workspace(&scratch, &[("a.longstr", "strings of a mebibyte\n".into())]);
    let server = start_facts_case(&root).await;

    let outline = answer(&server, "outline", json!({ "path": "a.longstr" })).await;
    assert!(
        outline.text.len() < 1 << 20,
        "no mebibyte string reaches an answer: {} bytes",
        outline.text.len()
    );
    if outline.is_error {
        let code = outline.value["error"]["code"].as_str().unwrap_or_default();
        assert!(CAP_CODES.contains(&code), "{}", brief(&outline.value));
    } else {
        let names = outline_names(&outline.value["outline"]);
        assert!(names.iter().any(|n| n == "longstr_ok"), "{names:?}");
    }
    for (tool, arguments) in [
        ("search_symbols", json!({ "query": "longstr_ok" })),
        ("search_symbols", json!({ "query": "nnnn" })),
        ("get_symbol_info", json!({ "symbol": "longstr_ok" })),
        ("node_at", json!({ "path": "a.longstr", "line": 1 })),
        ("get_diagnostics", json!({})),
        (
            "find_definition",
            json!({ "path": "a.longstr", "line": 0, "character": 1 }),
        ),
    ] {
        let outcome = answer(&server, tool, arguments.clone()).await;
        assert!(
            outcome.text.len() < 1 << 20,
            "{tool} {arguments}: no mebibyte string reaches an answer: {} bytes",
            outcome.text.len()
        );
    }
    assert_others_answer(&server, "a.longstr").await;
    assert_memory_under(&server, RSS_LIMIT_MIB, "a.longstr");
    assert_reported_as(
        &server,
        "a.longstr",
        &CAP_CODES,
        &[
            &["too long", "length", "capped"],
            &["name"],
            &["signature"],
            &["doc"],
        ],
    )
    .await;
    server.stop().await;
}

#[tokio::test]
async fn deep_nesting_is_bounded() {
    let scratch = Scratch::new("facts-deep");
    let root = workspace(&scratch, &[("a.deep", "depth=5000\n".into())]);

    // The answer must be readable by a JSON parser with the usual nesting
    // limit (serde_json's, the Rust MCP client's): read it raw first.
    let args = hostile_args(1000, 64);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let line = raw_tool_answer(&root, &args, "outline", json!({ "path": "a.deep" })).await;
    let nesting = json_nesting(&line);
    assert!(
        nesting <= SERDE_JSON_MAX_NESTING,
        "the outline answer of a.deep nests {nesting} levels deep; serde_json (and so the \
         Rust MCP client) refuses more than {SERDE_JSON_MAX_NESTING}, so a client never \
         sees it: {}…",
        &line[..line.len().min(300)]
    );

    let server = start_facts_case(&root).await;

    // Nesting beyond the host's cap is legitimate (generated code), so it is
    // reported as a cap, not as broken facts.
    assert_reported_as(
        &server,
        "a.deep",
        &[INVALID_OUTPUT, "FACTS_CAPPED"],
        &[&["deep", "depth", "nest"]],
    )
    .await;
    if let Some(outline) = assert_outline_survives(&server, "a.deep", "d0").await {
        let depth = outline_depth(&outline["outline"]);
        assert!(
            depth <= 1000,
            "the outline's depth is bounded: {depth} levels"
        );
    }
    for (tool, arguments) in [
        ("get_symbol_info", json!({ "symbol": "d0" })),
        ("get_symbol_info", json!({ "symbol": "d4999" })),
        ("get_symbol_info", json!({ "symbol": "d200" })),
        ("find_references", json!({ "symbol": "d0" })),
        ("node_at", json!({ "path": "a.deep", "line": 1 })),
        (
            "dependents_of",
            json!({ "file_path": "a.deep", "symbol": "d0" }),
        ),
        ("search_symbols", json!({ "query": "d49" })),
    ] {
        answer(&server, tool, arguments).await;
    }
    assert_others_answer(&server, "a.deep").await;
    assert_memory_under(&server, RSS_LIMIT_MIB, "a.deep");
    server.stop().await;
}

#[tokio::test]
async fn spans_outside_the_file_are_clamped() {
    let scratch = Scratch::new("facts-maxline");
    // Multi-byte characters, so that an offset can fall inside one.
    let text = "é€😀 spans beyond the file\nsecond line\n";
    let root = workspace(&scratch, &[("a.maxline", text.into())]);
    let server = start_facts_case(&root).await;

    assert_rules_reported(
        &server,
        "a.maxline",
        &[
            &["beyond", "outside", "past the end"],
            &["before it starts", "reversed", "order"],
            &["inside a character", "boundary"],
        ],
    )
    .await;
    if let Some(outline) = assert_outline_survives(&server, "a.maxline", "maxline_ok").await {
        // Spans were clamped into the file's three (1-based) lines.
        let mut stack: Vec<&Value> = outline["outline"].as_array().unwrap().iter().collect();
        while let Some(node) = stack.pop() {
            for field in ["line", "endLine"] {
                let line = node[field].as_u64().unwrap_or(0);
                assert!(
                    (1..=3).contains(&line),
                    "{field} {line} is not in the file: {node}"
                );
            }
            if let Some(children) = node["children"].as_array() {
                stack.extend(children);
            }
        }
    }
    for (tool, arguments) in [
        ("node_at", json!({ "path": "a.maxline", "line": 1 })),
        (
            "node_at",
            json!({ "path": "a.maxline", "line": 2, "column": 3 }),
        ),
        ("get_diagnostics", json!({})),
        ("get_diagnostics", json!({ "path": "a.maxline" })),
        (
            "find_definition",
            json!({ "path": "a.maxline", "line": 0, "character": 0 }),
        ),
        ("get_symbol_info", json!({ "symbol": "maxline_ok" })),
        ("get_symbol_info", json!({ "symbol": "maxline_max" })),
        ("find_references", json!({ "symbol": "maxline_ok" })),
        (
            "node_source",
            json!({ "symbol": "maxline_max", "path": "a.maxline" }),
        ),
        (
            "node_source",
            json!({ "symbol": "maxline_reversed", "path": "a.maxline" }),
        ),
        ("search_symbols", json!({ "query": "maxline" })),
    ] {
        let outcome = answer(&server, tool, arguments.clone()).await;
        if outcome.is_error {
            assert_ne!(
                outcome.value["error"]["code"],
                json!("INTERNAL_ERROR"),
                "{tool} {arguments}: {}",
                brief(&outcome.value)
            );
        }
    }
    let workspace_diagnostics = answer(&server, "get_diagnostics", json!({})).await;
    assert!(
        !workspace_diagnostics.is_error,
        "workspace diagnostics answer: {}",
        brief(&workspace_diagnostics.value)
    );
    assert_others_answer(&server, "a.maxline").await;
    assert_memory_under(&server, RSS_LIMIT_MIB, "a.maxline");
    server.stop().await;
}

/// Something in `value` (an object at any depth) says `key: true`.
fn says_true(value: &Value, key: &str) -> bool {
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(map) => {
                if map.get(key) == Some(&json!(true)) {
                    return true;
                }
                stack.extend(map.values());
            }
            Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
    false
}

#[tokio::test]
async fn a_slow_plugin_slows_its_own_files_not_the_server() {
    // 200 files at 2 s each: the first index takes minutes on two cores.
    const ANSWER_WITHIN: Duration = Duration::from_secs(5);
    let scratch = Scratch::new("facts-slow");
    let files: Vec<(String, String)> = (0..200)
        .map(|i| (format!("slow/f{i:03}.slow"), "ms=2000\n".to_string()))
        .collect();
    let files: Vec<(&str, String)> = files.iter().map(|(n, c)| (n.as_str(), c.clone())).collect();
    let root = workspace(&scratch, &files);
    // Each file is legitimate: 2 s is well within the deadline of a call.
    let server = start_hostile_with(&root, 10_000, 64, &[]).await;

    let health = answer_within(&server, "health_check", json!({}), ANSWER_WITHIN).await;
    assert!(!health.is_error, "{}", brief(&health.value));
    let outline = answer_within(
        &server,
        "outline",
        json!({ "path": "lib.rs" }),
        ANSWER_WITHIN,
    )
    .await;
    assert!(!outline.is_error, "{}", brief(&outline.value));
    assert_eq!(
        outline.value["outline"][0]["name"],
        json!("increment"),
        "{}",
        brief(&outline.value)
    );
    // An answer given while the index is being built says so.
    assert!(
        says_true(&health.value, "refreshing") || says_true(&outline.value, "refreshing"),
        "neither health_check nor outline says `refreshing: true` during the first index: {} / {}",
        brief(&health.value),
        brief(&outline.value)
    );
    assert!(server.is_alive());
    assert_memory_under(&server, RSS_LIMIT_MIB, "200 slow files");
    // End of input ends the server, even in the middle of its first index.
    let exit = server.stop_within(Duration::from_secs(10)).await;
    assert!(exit.is_ok(), "{}", exit.unwrap_err());
}

#[tokio::test]
async fn a_looping_resolve_import_costs_a_bounded_time_and_is_reported() {
    // Every file imports `increment` from a module of its own, and the
    // plugin's resolve-import never returns: a 1 s timeout per file, 100 s
    // of plugin time in all if nothing bounds the request.
    const ANSWER_WITHIN: Duration = Duration::from_secs(25);
    let scratch = Scratch::new("facts-importloop");
    let files: Vec<(String, String)> = (0..100)
        .map(|i| {
            (
                format!("loops/l{i:03}.importloop"),
                "imports increment\n".to_string(),
            )
        })
        .collect();
    let files: Vec<(&str, String)> = files.iter().map(|(n, c)| (n.as_str(), c.clone())).collect();
    let root = workspace(&scratch, &files);
    let server = start_hostile(&root, &[]).await;

    // The index itself needs no import resolved.
    let health = answer(&server, "health_check", json!({})).await;
    assert!(!health.is_error, "{}", brief(&health.value));

    let started = std::time::Instant::now();
    let references = answer_within(
        &server,
        "find_references",
        json!({ "symbol": "increment", "path": "lib.rs" }),
        ANSWER_WITHIN,
    )
    .await;
    let took = started.elapsed();
    eprintln!("find_references with a looping resolve-import: {took:?}");
    if references.is_error {
        // Out of time: a structured error that says so.
        let code = references.value["error"]["code"].as_str().unwrap_or("");
        assert!(
            code.contains("TIMEOUT") || code.contains("PLUGIN"),
            "{}",
            brief(&references.value)
        );
    } else {
        let completeness = &references.value["completeness"];
        assert_eq!(
            completeness["complete"],
            json!(false),
            "the answer lost work to the plugin and must not claim to be complete: {}",
            brief(completeness)
        );
        let said = completeness.to_string().to_lowercase();
        assert!(
            ["hostile", "timed out", "timeout", "plugin"]
                .iter()
                .any(|w| said.contains(w)),
            "the incompleteness names the plugin failure: {}",
            brief(completeness)
        );
    }
    assert_others_answer(&server, "the looping resolve-import").await;
    assert_memory_under(&server, RSS_LIMIT_MIB, "looping resolve-import");
    server.stop().await;
}

/// Every object in `value`, at any depth.
fn objects(value: &Value) -> Vec<&serde_json::Map<String, Value>> {
    let mut found = Vec::new();
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(map) => {
                found.push(map);
                stack.extend(map.values());
            }
            Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
    found
}

#[tokio::test]
async fn a_plugin_claiming_a_built_in_extension_is_a_reported_conflict() {
    let scratch = Scratch::new("facts-conflict");
    let root = workspace(&scratch, &[]);
    let server = start_facts_case(&root).await;

    // The built-in Rust plugin keeps `.rs`.
    let outline = answer(&server, "outline", json!({ "path": "lib.rs" })).await;
    assert!(!outline.is_error, "{}", brief(&outline.value));
    assert_eq!(
        outline.value["language"],
        json!("rust"),
        "the built-in plugin wins `.rs`: {}",
        brief(&outline.value)
    );
    assert_eq!(outline.value["outline"][0]["name"], json!("increment"));
    assert_eq!(
        outline.value["outline"][0]["docComment"],
        json!("Adds one.")
    );

    // health_check shows the conflict: the extension, both plugins, the winner.
    let health = answer(&server, "health_check", json!({})).await;
    assert!(!health.is_error, "{}", brief(&health.value));
    // The smallest object that mentions the conflict, the extension and
    // the plugin that lost.
    let conflict = objects(&health.value)
        .into_iter()
        .filter(|o| {
            let text = Value::Object((*o).clone()).to_string().to_lowercase();
            text.contains("conflict") && text.contains("hostile") && text.contains("rs")
        })
        .min_by_key(|o| Value::Object((*o).clone()).to_string().len())
        .unwrap_or_else(|| {
            panic!(
                "health_check shows no extension conflict over `rs` naming both plugins: {:#}",
                health.value
            )
        });
    let winner = conflict
        .iter()
        .find(|(k, _)| {
            let k = k.to_lowercase();
            k.contains("winner") || k.contains("chosen") || k.contains("used")
        })
        .map(|(_, v)| v.clone());
    assert!(
        winner
            .as_ref()
            .is_some_and(|w| w.to_string().contains("rust")),
        "the conflict names the plugin that won (`rust`): {conflict:#?}"
    );
    assert!(
        server.log().to_lowercase().contains("conflict"),
        "the conflict is logged:\n{}",
        tail(&server.log(), 4000)
    );
    assert_others_answer(&server, "the `.rs` claim").await;
    // The hostile plugin still serves its own files.
    let calm = answer(&server, "outline", json!({ "path": "other.calm" })).await;
    assert_eq!(
        calm.value["language"],
        json!("hostile"),
        "{}",
        brief(&calm.value)
    );
    server.stop().await;
}
