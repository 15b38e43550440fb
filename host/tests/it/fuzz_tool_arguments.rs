//! Tool arguments fuzzed through the server's `tools/call`, over a copy of
//! the four-language navigation fixture: the committed corpus
//! (`corpus/tool_arguments.jsonl`) replayed, then a fixed-seed proptest run
//! of its entries mutated and of arguments built from each tool's schema
//! with hostile values. Every answer is a well-formed result or a
//! structured refusal; nothing panics, nothing is written outside the root.

use crate::common;

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use lingo::mcp::Server;
use lingo::tools::{ToolContext, ToolRegistry};
use lingo::workspace::Workspace;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use serde_json::{Map, Value, json};

/// The corpus: one `{"tool": .., "arguments": ..}` per line.
const CORPUS: &str = include_str!("corpus/tool_arguments.jsonl");

fn corpus() -> Vec<(String, Value)> {
    CORPUS
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let entry: Value = serde_json::from_str(line).expect("corpus line is JSON");
            (
                entry["tool"].as_str().expect("tool").to_string(),
                entry["arguments"].clone(),
            )
        })
        .collect()
}

/// A scratch folder holding `root/` (a copy of the fixture) and `beside/`
/// (which nothing may touch).
struct Setup {
    server: Arc<Server>,
    runtime: tokio::runtime::Runtime,
    beside: PathBuf,
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

fn setup() -> &'static Setup {
    static SETUP: OnceLock<Setup> = OnceLock::new();
    SETUP.get_or_init(|| {
        let base = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("fuzz-tool-arguments-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        let root = base.join("root");
        let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/nav");
        copy_dir(&fixture, &root);
        let beside = base.join("beside");
        std::fs::create_dir_all(&beside).unwrap();
        std::fs::write(beside.join("keep.rs"), "pub fn keep() {}\n").unwrap();
        let workspace =
            Arc::new(Workspace::new(&root, common::registry().clone()).expect("a workspace"));
        workspace.refresh();
        let tools = ToolRegistry::new();
        let context = ToolContext {
            workspace,
            tool_names: tools.names(),
            gate: Default::default(),
        };
        let server =
            Server::with_request_timeout(tools, context, std::time::Duration::from_secs(20));
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("a runtime");
        Setup {
            server,
            runtime,
            beside,
        }
    })
}

/// Call `tool` with `arguments`; check the answer's shape. Whether it was
/// answered (not refused).
fn check_call(tool: &str, arguments: &Value) -> Result<bool, TestCaseError> {
    let setup = setup();
    let params = json!({ "name": tool, "arguments": arguments });
    let outcome = setup
        .runtime
        .block_on(setup.server.handle("tools/call", params));
    let answered = match &outcome {
        Ok(result) => result["isError"] == json!(false),
        Err(_) => false,
    };
    match outcome {
        Ok(result) => {
            let text = result["content"][0]["text"].as_str();
            prop_assert!(
                text.is_some(),
                "{} {}: no text: {}",
                tool,
                arguments,
                result
            );
            let is_error = result["isError"].as_bool();
            prop_assert!(is_error.is_some(), "{} {}: {}", tool, arguments, result);
            if is_error == Some(true) {
                let error = &result["structuredContent"]["error"];
                let code = error["code"].as_str().unwrap_or_default();
                prop_assert!(!code.is_empty(), "{} {}: {}", tool, arguments, result);
                prop_assert_ne!(code, "INTERNAL_ERROR", "{} {}: {}", tool, arguments, result);
                prop_assert!(error["message"].is_string());
                prop_assert!(error["details"].is_object());
            }
        }
        Err(error) => {
            // Only the call itself may be refused (unknown tool, arguments
            // not an object, busy), never with an internal error.
            prop_assert_ne!(
                error.code,
                lingo::mcp::jsonrpc::INTERNAL_ERROR,
                "{} {}: {:?}",
                tool,
                arguments,
                error
            );
        }
    }
    let beside: Vec<_> = std::fs::read_dir(&setup.beside).unwrap().collect();
    prop_assert_eq!(beside.len(), 1, "something was written beside the root");
    prop_assert_eq!(
        std::fs::read_to_string(setup.beside.join("keep.rs")).unwrap(),
        "pub fn keep() {}\n"
    );
    Ok(answered)
}

#[test]
fn the_corpus_is_answered_without_a_crash() {
    let mut answered = Vec::new();
    for (tool, arguments) in corpus() {
        if check_call(&tool, &arguments).unwrap_or_else(|e| panic!("{e}")) {
            answered.push(tool);
        }
    }
    // The corpus reaches the tools' work, not only argument checks.
    for tool in [
        "outline",
        "search_symbols",
        "find_references",
        "rename",
        "analyze_complexity",
        "node_at",
    ] {
        assert!(
            answered.iter().any(|t| t == tool),
            "{tool} never answered: {answered:?}"
        );
    }
}

/// Hostile scalars and small structures.
fn hostile_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        Just(json!(u64::MAX)),
        Just(json!(-1)),
        Just(json!(0)),
        Just(json!(1e308)),
        Just(json!(0.5)),
        prop::sample::select(vec![
            "",
            ".",
            "..",
            "../../etc/passwd",
            "/etc/passwd",
            "rust/src/lib.rs",
            "go/main.go",
            "typescript/src/shapes.ts",
            "csharp/Shapes/Circle.cs",
            "a\u{0}b",
            "\u{202e}\u{fe0f}😀",
            "(a+)+$",
            "[",
            "*",
            "Shape",
            "area",
            "main",
            "Circle::area",
            "json",
            "sarif",
            "text",
        ])
        .prop_map(|s| json!(s)),
        "[\\PC]{0,40}".prop_map(Value::String),
        (0usize..20_000).prop_map(|n| json!("x".repeat(n))),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map("[a-zA-Z_]{1,10}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// A tool and arguments: a corpus entry with one field changed, or fields
/// of the tool's own schema with hostile values.
fn tool_call() -> impl Strategy<Value = (String, Value)> {
    let entries = corpus();
    let tools = ToolRegistry::new();
    let schemas: Vec<(String, Vec<String>)> = tools
        .tools()
        .iter()
        .map(|t| {
            let fields = t.input_schema["properties"]
                .as_object()
                .map(|p| p.keys().cloned().collect())
                .unwrap_or_default();
            (t.name.to_string(), fields)
        })
        .collect();
    let mutated = (
        prop::sample::select(entries),
        "[a-zA-Z_]{1,12}",
        hostile_value(),
        any::<bool>(),
    )
        .prop_map(|((tool, mut arguments), key, value, replace)| {
            if let Value::Object(map) = &mut arguments {
                let field = if replace {
                    map.keys().next().cloned().unwrap_or(key)
                } else {
                    key
                };
                map.insert(field, value);
            }
            (tool, arguments)
        });
    let from_schema = prop::sample::select(schemas).prop_flat_map(|(tool, fields)| {
        let count = fields.len().min(5);
        let fields = if fields.is_empty() {
            vec!["x".to_string()]
        } else {
            fields
        };
        (
            Just(tool),
            prop::collection::vec(
                (prop::sample::select(fields), hostile_value()),
                0..=count.max(1),
            ),
        )
            .prop_map(|(tool, pairs)| {
                let mut map = Map::new();
                for (field, value) in pairs {
                    if field == "dryRun" {
                        continue; // writes are fuzzed as plans only
                    }
                    map.insert(field, value);
                }
                (tool, Value::Object(map))
            })
    });
    prop_oneof![mutated, from_schema]
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 1000,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x6675_7a7a),
        max_shrink_iters: 64,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn fuzzed_arguments_get_a_result_or_a_structured_refusal((tool, arguments) in tool_call()) {
        check_call(&tool, &arguments)?;
    }
}
