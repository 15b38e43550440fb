//! A member access through a value whose type the source writes down (a
//! parameter `p: Parser`, a local `let d = Decoder { .. }`) resolves
//! certainly to that type's member, end to end on
//! `tests/fixtures/rules/rust-typed`, where other types (one of them also
//! named `Parser`, in another module) have members of the same names.

use lingo_e2e::{McpServer, fixture};
use serde_json::{Value, json};

/// `file:line kind resolution confidence` (1-based line) of one answer item.
fn line(item: &Value) -> String {
    format!(
        "{}:{} {} {} {:.2}",
        item["file_path"].as_str().unwrap(),
        item["range"]["start"]["line"].as_u64().unwrap() + 1,
        item["kind"].as_str().unwrap(),
        item["resolution"].as_str().unwrap(),
        item["confidence"].as_f64().unwrap(),
    )
}

async fn call(
    server: &McpServer,
    tool: &str,
    path: &str,
    at: (u32, u32),
    key: &str,
) -> Vec<String> {
    let found = server
        .call(
            tool,
            json!({ "path": path, "line": at.0, "character": at.1 }),
        )
        .await
        .ok();
    found[key]
        .as_array()
        .unwrap_or_else(|| panic!("{key} missing: {found:#}"))
        .iter()
        .map(line)
        .collect()
}

#[tokio::test]
async fn rust_members_through_parameters_and_literal_locals_are_certain() {
    let server = McpServer::start(&fixture("rules/rust-typed"), &[])
        .await
        .expect("start lingo on the fixture");
    let definitions = |at| call(&server, "find_definition", "src/run.rs", at, "definitions");
    // `fn run(p: Parser) { p.parse() }`
    assert_eq!(
        definitions((4, 6)).await,
        ["src/parser.rs:6 method qualified 1.00"]
    );
    // `let d = Decoder { .. }; d.decode() + d.width`
    assert_eq!(
        definitions((9, 6)).await,
        ["src/codec.rs:6 method qualified 1.00"]
    );
    assert_eq!(
        definitions((9, 19)).await,
        ["src/codec.rs:2 field qualified 1.00"]
    );
    // A type outside the workspace: nothing of the workspace is meant.
    assert!(definitions((13, 6)).await.is_empty());
    // The decoys are used by nothing.
    let references = |path, at| call(&server, "find_references", path, at, "references");
    assert_eq!(
        references("src/decoy.rs", (5, 11)).await,
        ["src/decoy.rs:6 declaration declaration 1.00"]
    );
    assert_eq!(
        references("src/decoy.rs", (9, 11)).await,
        ["src/decoy.rs:10 declaration declaration 1.00"]
    );
    assert_eq!(
        references("src/decoy.rs", (18, 15)).await,
        ["src/decoy.rs:19 declaration declaration 1.00"]
    );
    assert_eq!(
        references("src/parser.rs", (5, 11)).await,
        [
            "src/parser.rs:6 declaration declaration 1.00",
            "src/run.rs:5 call qualified 1.00",
        ]
    );
    server.stop().await;
}
