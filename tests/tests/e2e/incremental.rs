//! The symbol graph after an edit: an edit inside a body re-resolves only
//! the edited file, and answers still include what the edit added and drop
//! what it removed; an edit that changes declarations rebuilds everything.

use lingo_e2e::{McpServer, Scratch};
use serde_json::{Value, json};

/// `file:line` (1-based) of each reference.
fn sites(result: &Value) -> Vec<String> {
    result["references"]
        .as_array()
        .expect("references is an array")
        .iter()
        .map(|r| {
            format!(
                "{}:{}",
                r["file_path"].as_str().unwrap(),
                r["range"]["start"]["line"].as_u64().unwrap() + 1
            )
        })
        .collect()
}

#[tokio::test]
async fn body_edits_and_declaration_edits_both_show_up() {
    let scratch = Scratch::new("incremental");
    let root = scratch.copy_fixture("nav/rust");
    let server = McpServer::start(&root, &[]).await.unwrap();
    let query = json!({ "symbol": "summary", "include_declaration": false });
    let before = server.call("find_references", query.clone()).await.ok();
    assert_eq!(sites(&before), ["src/report.rs:15"]);

    // A second call inside an existing body: declarations are unchanged.
    let report = std::fs::read_to_string(root.join("src/report.rs")).unwrap();
    let edited = report.replace(
        "    let line = summary(radius, radius);",
        "    let line = summary(radius, radius);\n    let _again = summary(radius, 2.0);",
    );
    assert_ne!(edited, report);
    std::fs::write(root.join("src/report.rs"), &edited).unwrap();
    let after = server.call("find_references", query.clone()).await.ok();
    assert_eq!(sites(&after), ["src/report.rs:15", "src/report.rs:16"]);
    assert!(after["generation"].as_u64() > before["generation"].as_u64());
    assert!(
        server.log().contains("changed=1 files_laid_over=1"),
        "only the edited file is resolved again, laid over the graph:\n{}",
        server.log()
    );

    // A call from another file, through a new declaration there.
    let lib = std::fs::read_to_string(root.join("src/lib.rs")).unwrap();
    std::fs::write(
        root.join("src/lib.rs"),
        format!("{lib}\npub fn headline() -> String {{\n    report::summary(1.0, 2.0)\n}}\n"),
    )
    .unwrap();
    let again = server.call("find_references", query.clone()).await.ok();
    assert_eq!(
        sites(&again),
        ["src/lib.rs:8", "src/report.rs:15", "src/report.rs:16"]
    );

    // Back to the original body: the added call is gone.
    std::fs::write(root.join("src/report.rs"), &report).unwrap();
    let reverted = server.call("find_references", query).await.ok();
    assert_eq!(sites(&reverted), ["src/lib.rs:8", "src/report.rs:15"]);
    server.stop().await;
}
