//! Navigation and graph tools end to end on small multi-file workspaces
//! (`tests/fixtures/nav/<language>`), each with imports across files and a
//! same-name decoy in another module: exact definitions, references, call
//! hierarchies and implementations, and the decoy never returned as a
//! resolved reference.

use lingo_e2e::{McpServer, Scratch, fixture};
use serde_json::{Value, json};

async fn serve(language: &str) -> McpServer {
    McpServer::start(&fixture(&format!("nav/{language}")), &[])
        .await
        .expect("start lingo on the fixture")
}

/// `file:line kind resolution` (1-based line) of each reference.
fn reference_lines(result: &Value) -> Vec<String> {
    result["references"]
        .as_array()
        .expect("references is an array")
        .iter()
        .map(|r| {
            format!(
                "{}:{} {} {}",
                r["file_path"].as_str().unwrap(),
                r["range"]["start"]["line"].as_u64().unwrap() + 1,
                r["kind"].as_str().unwrap(),
                r["resolution"].as_str().unwrap(),
            )
        })
        .collect()
}

/// `file:line name` (1-based line) of each definition.
fn definition_lines(result: &Value) -> Vec<String> {
    result["definitions"]
        .as_array()
        .expect("definitions is an array")
        .iter()
        .map(|d| {
            format!(
                "{}:{} {}",
                d["file_path"].as_str().unwrap(),
                d["range"]["start"]["line"].as_u64().unwrap() + 1,
                d["name"].as_str().unwrap(),
            )
        })
        .collect()
}

/// `name (file)` of each caller or callee at the first level.
fn hierarchy_names(result: &Value, direction: &str) -> Vec<String> {
    let key = if direction == "incoming" {
        "from"
    } else {
        "to"
    };
    result[direction]
        .as_array()
        .unwrap_or_else(|| panic!("{direction} missing: {result:#}"))
        .iter()
        .map(|c| {
            format!(
                "{} ({})",
                c[key]["name"].as_str().unwrap(),
                c[key]["file_path"].as_str().unwrap()
            )
        })
        .collect()
}

mod rust {
    use super::*;

    #[tokio::test]
    async fn definition_follows_the_import_not_the_decoy() {
        let server = serve("rust").await;
        // `area_of(` in report.rs, line 9 (0-based 8), column 16.
        let found = server
            .call(
                "find_definition",
                json!({ "path": "src/report.rs", "line": 8, "character": 16 }),
            )
            .await
            .ok();
        assert_eq!(definition_lines(&found), ["src/shapes.rs:37 area_of"]);
        assert_eq!(found["resolution"], json!("import"));
        server.stop().await;
    }

    #[tokio::test]
    async fn references_are_exact_and_complete() {
        let server = serve("rust").await;
        let found = server
            .call(
                "find_references",
                json!({ "symbol": "area_of", "path": "src/shapes.rs" }),
            )
            .await
            .ok();
        assert_eq!(
            reference_lines(&found),
            [
                "src/shapes.rs:37 declaration declaration",
                "src/report.rs:3 import import",
                "src/report.rs:9 call import",
            ]
        );
        assert_eq!(found["completeness"]["complete"], json!(true));
        assert_eq!(found["completeness"]["name_only"], json!(0));

        // The decoy has no references at all: nothing calls it.
        let decoy = server
            .call(
                "find_references",
                json!({ "symbol": "area_of", "path": "src/legacy.rs", "include_declaration": false }),
            )
            .await
            .ok();
        assert_eq!(reference_lines(&decoy), Vec::<String>::new());
        assert_eq!(decoy["completeness"]["complete"], json!(true));

        let circle = server
            .call(
                "find_references",
                json!({ "symbol": "Circle", "path": "src/shapes.rs", "include_declaration": false }),
            )
            .await
            .ok();
        assert_eq!(
            reference_lines(&circle),
            [
                "src/report.rs:3 import import",
                "src/report.rs:7 reference import",
                "src/shapes.rs:13 type scope",
                "src/shapes.rs:15 type scope",
                "src/shapes.rs:19 type scope",
            ]
        );
        server.stop().await;
    }

    #[tokio::test]
    async fn ambiguous_names_are_refused_with_candidates() {
        let server = serve("rust").await;
        let error = server
            .call("find_references", json!({ "symbol": "area_of" }))
            .await
            .err();
        assert_eq!(error["code"], json!("SYMBOL_AMBIGUOUS"));
        assert_eq!(
            error["details"]["candidates"],
            json!([
                "src/legacy.rs:4 function area_of",
                "src/shapes.rs:37 function area_of"
            ])
        );
        let unknown = server
            .call("find_references", json!({ "symbol": "area_off" }))
            .await
            .err();
        assert_eq!(unknown["code"], json!("SYMBOL_NOT_FOUND"));
        assert_eq!(unknown["details"]["nearbySymbols"][0], json!("area_of"));
        server.stop().await;
    }

    #[tokio::test]
    async fn call_hierarchy_both_ways() {
        let server = serve("rust").await;
        let summary = server
            .call(
                "get_call_hierarchy",
                json!({ "symbol": "summary", "direction": "both" }),
            )
            .await
            .ok();
        assert_eq!(
            hierarchy_names(&summary, "incoming"),
            ["twice (src/report.rs)"]
        );
        assert_eq!(
            hierarchy_names(&summary, "outgoing"),
            ["new (src/shapes.rs)", "area_of (src/shapes.rs)"]
        );
        // `format!` is a macro from the standard library: not in the workspace.
        assert_eq!(
            summary["outgoing_completeness"]["unresolved_names"],
            json!(["format"])
        );

        let deep = server
            .call(
                "get_call_hierarchy",
                json!({ "symbol": "area_of", "path": "src/shapes.rs", "direction": "incoming", "depth": 2 }),
            )
            .await
            .ok();
        assert_eq!(
            hierarchy_names(&deep, "incoming"),
            ["summary (src/report.rs)"]
        );
        assert_eq!(
            deep["incoming"][0]["incoming"][0]["from"]["name"],
            json!("twice")
        );
        server.stop().await;
    }

    #[tokio::test]
    async fn implementations_of_a_trait() {
        let server = serve("rust").await;
        let found = server
            .call("find_implementations", json!({ "symbol": "Shape" }))
            .await
            .ok();
        let names: Vec<String> = found["implementations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| {
                format!(
                    "{} {}",
                    i["signature"].as_str().unwrap(),
                    i["relation"].as_str().unwrap()
                )
            })
            .collect();
        assert_eq!(
            names,
            [
                "impl Shape for Circle IMPLEMENTS",
                "impl Shape for Square IMPLEMENTS"
            ]
        );
        server.stop().await;
    }

    #[tokio::test]
    async fn graph_tools_answer_in_the_spec_text_format() {
        let server = serve("rust").await;
        let text = server
            .call(
                "dependents_of",
                json!({ "file_path": "src/shapes.rs", "symbol": "area_of" }),
            )
            .await
            .text();
        assert!(
            text.starts_with("## Graph\n\ntwice --CALLS--> summary --CALLS--> area_of\n"),
            "{text}"
        );
        assert!(
            text.contains("\n## Nodes\n\nsummary:\n  file: src/report.rs\n  offset: 6, limit: 6\n"),
            "{text}"
        );
        assert!(
            !text.contains("legacy.rs"),
            "the decoy is not a dependent: {text}"
        );

        let path = server
            .call(
                "paths_between",
                json!({
                    "from": { "file_path": "src/shapes.rs", "symbol": "area_of" },
                    "to": { "file_path": "src/report.rs", "symbol": "twice" }
                }),
            )
            .await
            .text();
        assert!(
            path.starts_with("## Graph\n\ntwice --CALLS--> summary --CALLS--> area_of\n"),
            "{path}"
        );
        let none = server
            .call(
                "paths_between",
                json!({
                    "from": { "file_path": "src/legacy.rs", "symbol": "area_of" },
                    "to": { "file_path": "src/report.rs", "symbol": "twice" }
                }),
            )
            .await
            .text();
        assert_eq!(none, "No path found.");
        let same = server
            .call(
                "paths_between",
                json!({
                    "from": { "file_path": "src/report.rs", "symbol": "twice" },
                    "to": { "file_path": "src/report.rs", "symbol": "twice" }
                }),
            )
            .await
            .err();
        assert_eq!(
            same["message"],
            json!("Invalid query: source and target are the same symbol.")
        );
        server.stop().await;
    }

    #[tokio::test]
    async fn references_follow_an_edit_and_a_restart_reads_the_database() {
        let scratch = Scratch::new("nav-rust");
        let root = scratch.copy_fixture("nav/rust");
        // The scratch root has a database of its own in the shared cache.
        let server = McpServer::start(&root, &[]).await.unwrap();
        let before = server
            .call(
                "find_references",
                json!({ "symbol": "twice", "include_declaration": false }),
            )
            .await
            .ok();
        assert_eq!(reference_lines(&before), Vec::<String>::new());
        let generation = before["generation"].as_u64().unwrap();
        scratch.write(
            "nav/rust/src/lib.rs",
            "pub mod legacy;\npub mod report;\npub mod shapes;\n\npub fn main_report() -> String {\n    report::twice(1.0)\n}\n",
        );
        let after = server
            .call(
                "find_references",
                json!({ "symbol": "twice", "include_declaration": false }),
            )
            .await
            .ok();
        assert_eq!(reference_lines(&after), ["src/lib.rs:6 call qualified"]);
        assert!(after["generation"].as_u64().unwrap() > generation);
        server.stop().await;

        // A restart on the unchanged tree answers from the database.
        let again = McpServer::start(&root, &[]).await.unwrap();
        let health = again
            .call("health_check", json!({ "verbose": true }))
            .await
            .ok();
        let initial = &health["workspace"]["initialRefresh"];
        assert_eq!(initial["analyzed"], json!(0), "{health:#}");
        assert_eq!(initial["loaded"], json!(4), "{health:#}");
        assert_eq!(initial["generation"], after["generation"], "{health:#}");
        let same = again
            .call(
                "find_references",
                json!({ "symbol": "twice", "include_declaration": false }),
            )
            .await
            .ok();
        assert_eq!(reference_lines(&same), ["src/lib.rs:6 call qualified"]);
        again.stop().await;
    }
}
