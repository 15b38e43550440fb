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
        // `format!` is a macro from the standard library: not in the
        // workspace, so nothing is missing from the list.
        assert_eq!(
            summary["outgoing_completeness"]["external_names"],
            json!(["format"])
        );
        assert_eq!(
            summary["outgoing_completeness"]["unresolved_names"],
            json!([])
        );
        assert_eq!(summary["outgoing_completeness"]["complete"], json!(true));

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

/// `signature relation` of each implementation.
fn implementation_lines(result: &Value) -> Vec<String> {
    result["implementations"]
        .as_array()
        .unwrap_or_else(|| panic!("implementations missing: {result:#}"))
        .iter()
        .map(|i| {
            format!(
                "{} {} ({})",
                i["signature"].as_str().unwrap(),
                i["relation"].as_str().unwrap(),
                i["file_path"].as_str().unwrap(),
            )
        })
        .collect()
}

/// C#: `Reports/Report.cs` (namespace `Geometry.Reports`, file-scoped) and
/// `Reports/Hexagon.cs` see `Shapes/Shapes.cs` (`Geometry.Shapes`) through
/// `using Geometry.Shapes;`. `Legacy/Legacy.cs` (`Geometry.Legacy`) declares
/// `IShape`, `Areas.AreaOf` and `Circle` again and is never imported.
mod csharp {
    use super::*;

    #[tokio::test]
    async fn definition_follows_the_using_not_the_decoy() {
        let server = serve("csharp").await;
        // `new Circle(radius)` in Report.cs, line 11 (0-based 10), column 25.
        let circle = server
            .call(
                "find_definition",
                json!({ "path": "Reports/Report.cs", "line": 10, "character": 25 }),
            )
            .await
            .ok();
        assert_eq!(definition_lines(&circle), ["Shapes/Shapes.cs:10 Circle"]);
        assert_eq!(circle["resolution"], json!("import"));
        assert_eq!(circle["definitions"][0]["confidence"], json!(1.0));

        // `Areas` of `Areas.AreaOf(...)`, line 13, column 20.
        let areas = server
            .call(
                "find_definition",
                json!({ "path": "Reports/Report.cs", "line": 12, "character": 20 }),
            )
            .await
            .ok();
        assert_eq!(definition_lines(&areas), ["Shapes/Shapes.cs:32 Areas"]);
        assert_eq!(areas["resolution"], json!("import"));

        // `AreaOf` of `Areas.AreaOf(...)`, column 26: a member of the type
        // the qualifier resolves to through the `using`, not of the decoy's
        // `Areas`.
        let area_of = server
            .call(
                "find_definition",
                json!({ "path": "Reports/Report.cs", "line": 12, "character": 26 }),
            )
            .await
            .ok();
        assert_eq!(definition_lines(&area_of), ["Shapes/Shapes.cs:35 AreaOf"]);
        assert_eq!(area_of["resolution"], json!("qualified"));
        assert_eq!(area_of["definitions"][0]["confidence"], json!(1.0));
        server.stop().await;
    }

    #[tokio::test]
    async fn references_are_exact_and_complete() {
        let server = serve("csharp").await;
        let area_of = server
            .call(
                "find_references",
                json!({ "symbol": "AreaOf", "path": "Shapes/Shapes.cs" }),
            )
            .await
            .ok();
        assert_eq!(
            reference_lines(&area_of),
            [
                "Shapes/Shapes.cs:35 declaration declaration",
                "Reports/Report.cs:13 call qualified",
            ]
        );
        assert_eq!(area_of["completeness"]["complete"], json!(true));
        assert_eq!(area_of["completeness"]["name_only"], json!(0));

        let shape = server
            .call(
                "find_references",
                json!({ "symbol": "IShape", "path": "Shapes/Shapes.cs", "include_declaration": false }),
            )
            .await
            .ok();
        // The first entry of a class's base list is reported as `extends`
        // (syntax cannot tell a base class from an interface), the others as
        // `implements`.
        assert_eq!(
            reference_lines(&shape),
            [
                "Reports/Hexagon.cs:6 implements import",
                "Reports/Report.cs:13 type import",
                "Shapes/Shapes.cs:10 extends scope",
                "Shapes/Shapes.cs:24 implements scope",
                "Shapes/Shapes.cs:35 type scope",
            ]
        );
        assert_eq!(shape["completeness"]["complete"], json!(true));
        assert_eq!(shape["completeness"]["name_only"], json!(0));

        // The decoy interface is used by the decoy circle only.
        let decoy_shape = server
            .call(
                "find_references",
                json!({ "symbol": "IShape", "path": "Legacy/Legacy.cs", "include_declaration": false }),
            )
            .await
            .ok();
        assert_eq!(
            reference_lines(&decoy_shape),
            ["Legacy/Legacy.cs:16 extends scope"]
        );

        let areas = server
            .call(
                "find_references",
                json!({ "symbol": "Areas", "path": "Shapes/Shapes.cs" }),
            )
            .await
            .ok();
        assert_eq!(
            reference_lines(&areas),
            [
                "Shapes/Shapes.cs:32 declaration declaration",
                "Reports/Report.cs:13 reference import",
            ]
        );
        assert_eq!(areas["completeness"]["complete"], json!(true));

        // `Circle` names the class and its constructor in Shapes.cs: the
        // class is picked by position. `new Circle(...)` refers to the class.
        let circle = server
            .call(
                "find_references",
                json!({ "path": "Shapes/Shapes.cs", "line": 9, "character": 17, "include_declaration": false }),
            )
            .await
            .ok();
        assert_eq!(
            reference_lines(&circle),
            ["Reports/Report.cs:11 call import"]
        );
        assert_eq!(circle["completeness"]["complete"], json!(true));

        // The decoys have no references at all.
        for (line, character) in [(9, 24), (11, 29), (15, 17)] {
            let decoy = server
                .call(
                    "find_references",
                    json!({ "path": "Legacy/Legacy.cs", "line": line, "character": character, "include_declaration": false }),
                )
                .await
                .ok();
            assert_eq!(
                reference_lines(&decoy),
                Vec::<String>::new(),
                "{}",
                decoy["symbol"]
            );
            assert_eq!(decoy["completeness"]["complete"], json!(true));
        }
        server.stop().await;
    }

    #[tokio::test]
    async fn ambiguous_names_are_refused_with_candidates() {
        let server = serve("csharp").await;
        let error = server
            .call("find_references", json!({ "symbol": "AreaOf" }))
            .await
            .err();
        assert_eq!(error["code"], json!("SYMBOL_AMBIGUOUS"));
        assert_eq!(
            error["details"]["candidates"],
            json!([
                "Legacy/Legacy.cs:12 method Areas.AreaOf",
                "Shapes/Shapes.cs:35 method Areas.AreaOf"
            ])
        );
        let circle = server
            .call("find_references", json!({ "symbol": "Circle" }))
            .await
            .err();
        assert_eq!(circle["code"], json!("SYMBOL_AMBIGUOUS"));
        assert_eq!(
            circle["details"]["candidates"],
            json!([
                "Legacy/Legacy.cs:16 class Geometry.Legacy.Circle",
                "Shapes/Shapes.cs:10 class Geometry.Shapes.Circle",
                "Shapes/Shapes.cs:12 constructor Circle.Circle"
            ])
        );
        // Qualifying the name with its container, as the error suggests,
        // picks one: the full namespace or its last part.
        for qualified in ["Geometry.Shapes.Circle", "Shapes.Circle"] {
            let found = server
                .call("find_definition", json!({ "symbol": qualified }))
                .await
                .ok();
            assert_eq!(
                definition_lines(&found),
                ["Shapes/Shapes.cs:10 Circle"],
                "{qualified}"
            );
        }
        let unknown = server
            .call("find_references", json!({ "symbol": "AreaOff" }))
            .await
            .err();
        assert_eq!(unknown["code"], json!("SYMBOL_NOT_FOUND"));
        assert_eq!(unknown["details"]["nearbySymbols"][0], json!("AreaOf"));
        server.stop().await;
    }

    #[tokio::test]
    async fn call_hierarchy_both_ways() {
        let server = serve("csharp").await;
        let twice = server
            .call(
                "get_call_hierarchy",
                json!({ "symbol": "Twice", "direction": "both" }),
            )
            .await
            .ok();
        assert_eq!(hierarchy_names(&twice, "incoming"), Vec::<String>::new());
        assert_eq!(
            hierarchy_names(&twice, "outgoing"),
            ["Summary (Reports/Report.cs)"]
        );
        let summary = server
            .call(
                "get_call_hierarchy",
                json!({ "symbol": "Summary", "direction": "both" }),
            )
            .await
            .ok();
        assert_eq!(
            hierarchy_names(&summary, "incoming"),
            ["Twice (Reports/Report.cs)"]
        );
        // `new Circle(...)` calls the class; `Areas.AreaOf` is the one in
        // Shapes.cs, never the decoy.
        assert_eq!(
            hierarchy_names(&summary, "outgoing"),
            [
                "Circle (Shapes/Shapes.cs)",
                "Square (Shapes/Shapes.cs)",
                "AreaOf (Shapes/Shapes.cs)",
            ]
        );
        assert_eq!(summary["outgoing_completeness"]["complete"], json!(true));

        let deep = server
            .call(
                "get_call_hierarchy",
                json!({ "symbol": "AreaOf", "path": "Shapes/Shapes.cs", "direction": "incoming", "depth": 2 }),
            )
            .await
            .ok();
        assert_eq!(
            hierarchy_names(&deep, "incoming"),
            ["Summary (Reports/Report.cs)"]
        );
        assert_eq!(
            deep["incoming"][0]["incoming"][0]["from"]["name"],
            json!("Twice")
        );
        server.stop().await;
    }

    #[tokio::test]
    async fn implementations_from_base_lists_across_namespaces() {
        let server = serve("csharp").await;
        let shape = server
            .call(
                "find_implementations",
                json!({ "symbol": "IShape", "path": "Shapes/Shapes.cs" }),
            )
            .await
            .ok();
        // Hexagon sees IShape through its `using`; the decoy's Circle
        // implements the decoy IShape, not this one.
        assert_eq!(
            implementation_lines(&shape),
            [
                "public class Hexagon : Polygon, IShape IMPLEMENTS (Reports/Hexagon.cs)",
                "public class Circle : IShape IMPLEMENTS (Shapes/Shapes.cs)",
                "public class Square : Polygon, IShape IMPLEMENTS (Shapes/Shapes.cs)",
            ]
        );
        assert_eq!(shape["completeness"]["complete"], json!(true));

        let decoy = server
            .call(
                "find_implementations",
                json!({ "symbol": "IShape", "path": "Legacy/Legacy.cs" }),
            )
            .await
            .ok();
        assert_eq!(
            implementation_lines(&decoy),
            ["public class Circle : IShape IMPLEMENTS (Legacy/Legacy.cs)"]
        );

        let polygon = server
            .call("find_implementations", json!({ "symbol": "Polygon" }))
            .await
            .ok();
        assert_eq!(
            implementation_lines(&polygon),
            [
                "public class Hexagon : Polygon, IShape EXTENDS (Reports/Hexagon.cs)",
                "public class Square : Polygon, IShape EXTENDS (Shapes/Shapes.cs)",
            ]
        );
        server.stop().await;
    }

    #[tokio::test]
    async fn graph_tools_answer_in_the_spec_text_format() {
        let server = serve("csharp").await;
        let text = server
            .call(
                "dependents_of",
                json!({ "file_path": "Shapes/Shapes.cs", "symbol": "AreaOf" }),
            )
            .await
            .text();
        // `Twice` calls `Summary` by its bare name: C#'s plugin says bare
        // names reach members of the enclosing type (an implicit `this`), so
        // the call is certain and drawn.
        assert!(
            text.starts_with(
                "## Graph\n\nTwice --CALLS--> Summary --CALLS--> AreaOf\n\n## Nodes\n"
            ),
            "{text}"
        );
        assert!(
            text.contains("\nSummary:\n  file: Reports/Report.cs\n  offset: 9, limit: 7\n"),
            "{text}"
        );
        assert!(
            !text.contains("Legacy"),
            "the decoy is not a dependent: {text}"
        );

        let shape = server
            .call(
                "dependents_of",
                json!({ "file_path": "Shapes/Shapes.cs", "symbol": "IShape" }),
            )
            .await
            .text();
        assert!(
            shape.starts_with(
                "## Graph\n\n\
                 Hexagon --IMPLEMENTS--> IShape\n\
                 Twice --CALLS--> Summary --REFERENCES--> IShape\n\
                 Summary --CALLS--> AreaOf --REFERENCES--> IShape\n\
                 Summary --CALLS--> Square --IMPLEMENTS--> IShape\n\
                 Summary --CALLS--> Circle --IMPLEMENTS--> IShape\n\n## Nodes\n"
            ),
            "{shape}"
        );
        assert!(!shape.contains("Legacy"), "{shape}");

        let path = server
            .call(
                "paths_between",
                json!({
                    "from": { "file_path": "Shapes/Shapes.cs", "symbol": "AreaOf" },
                    "to": { "file_path": "Reports/Report.cs", "symbol": "Twice" }
                }),
            )
            .await
            .text();
        assert!(
            path.starts_with("## Graph\n\nTwice --CALLS--> Summary --CALLS--> AreaOf\n"),
            "{path}"
        );
        for decoy in ["AreaOf", "Circle"] {
            let none = server
                .call(
                    "paths_between",
                    json!({
                        "from": { "file_path": "Legacy/Legacy.cs", "symbol": decoy },
                        "to": { "file_path": "Reports/Report.cs", "symbol": "Twice" }
                    }),
                )
                .await
                .text();
            assert_eq!(none, "No path found.", "{decoy}");
        }
        let decoy = server
            .call(
                "dependents_of",
                json!({ "file_path": "Legacy/Legacy.cs", "symbol": "AreaOf" }),
            )
            .await
            .text();
        assert!(
            decoy.starts_with("## Graph\n\nAreaOf\n\n## Nodes\n\n(none)"),
            "nothing depends on the decoy: {decoy}"
        );
        server.stop().await;
    }
}

/// TypeScript: `src/report.ts` imports from `./shapes`, an index file that
/// re-exports (`export { x } from`, `export * from`, `export type`) the
/// modules of `src/shapes/`; `src/main.ts` imports the index as a namespace
/// (`import * as shapes`). `src/legacy.ts` declares `areaOf`, `Shape` and
/// `Circle` again and is never imported.
mod typescript {
    use super::*;

    #[tokio::test]
    async fn definition_follows_the_import_through_the_index_not_the_decoy() {
        let server = serve("typescript").await;
        // `areaOf(` in report.ts, line 8 (0-based 7), column 16: imported
        // from `./shapes` (index.ts), which re-exports it from `./area`.
        let found = server
            .call(
                "find_definition",
                json!({ "path": "src/report.ts", "line": 7, "character": 16 }),
            )
            .await
            .ok();
        assert_eq!(definition_lines(&found), ["src/shapes/area.ts:4 areaOf"]);
        assert_eq!(found["resolution"], json!("import"));
        assert_eq!(found["definitions"][0]["confidence"], json!(1.0));

        // `new Square(` (line 7, column 21): through `export * from "./square"`.
        let square = server
            .call(
                "find_definition",
                json!({ "path": "src/report.ts", "line": 6, "character": 21 }),
            )
            .await
            .ok();
        assert_eq!(definition_lines(&square), ["src/shapes/square.ts:9 Square"]);
        assert_eq!(square["resolution"], json!("import"));

        // `shapes.areaOf(` and `new shapes.Circle(` in main.ts (line 6):
        // members of the namespace import.
        for (character, expected) in [
            (22, "src/shapes/area.ts:4 areaOf"),
            (41, "src/shapes/circle.ts:4 Circle"),
        ] {
            let found = server
                .call(
                    "find_definition",
                    json!({ "path": "src/main.ts", "line": 5, "character": character }),
                )
                .await
                .ok();
            assert_eq!(definition_lines(&found), [expected]);
            assert_eq!(found["resolution"], json!("qualified"));
            assert_eq!(found["definitions"][0]["confidence"], json!(1.0));
        }
        server.stop().await;
    }

    #[tokio::test]
    async fn references_are_exact_and_complete() {
        let server = serve("typescript").await;
        let found = server
            .call(
                "find_references",
                json!({ "symbol": "areaOf", "path": "src/shapes/area.ts" }),
            )
            .await
            .ok();
        assert_eq!(
            reference_lines(&found),
            [
                "src/shapes/area.ts:4 declaration declaration",
                "src/main.ts:6 call qualified",
                "src/report.ts:2 import import",
                "src/report.ts:8 call import",
                "src/shapes/index.ts:2 import import",
            ]
        );
        assert_eq!(found["completeness"]["complete"], json!(true));
        assert_eq!(found["completeness"]["name_only"], json!(0));

        let circle = server
            .call(
                "find_references",
                json!({ "symbol": "Circle", "path": "src/shapes/circle.ts", "include_declaration": false }),
            )
            .await
            .ok();
        assert_eq!(
            reference_lines(&circle),
            [
                "src/main.ts:6 call qualified",
                "src/report.ts:2 import import",
                "src/report.ts:6 call import",
                "src/shapes/index.ts:3 import import",
            ]
        );

        // `import type` and `export type` count; the decoy's `implements
        // Shape` is the decoy interface's.
        let shape = server
            .call(
                "find_references",
                json!({ "symbol": "Shape", "path": "src/shapes/shape.ts", "include_declaration": false }),
            )
            .await
            .ok();
        assert_eq!(
            reference_lines(&shape),
            [
                "src/shapes/area.ts:1 import import",
                "src/shapes/area.ts:4 type import",
                "src/shapes/circle.ts:1 import import",
                "src/shapes/circle.ts:4 implements import",
                "src/shapes/index.ts:5 import import",
                "src/shapes/square.ts:1 import import",
                "src/shapes/square.ts:9 implements import",
            ]
        );
        assert_eq!(shape["completeness"]["complete"], json!(true));
        let decoy_shape = server
            .call(
                "find_references",
                json!({ "symbol": "Shape", "path": "src/legacy.ts", "include_declaration": false }),
            )
            .await
            .ok();
        assert_eq!(
            reference_lines(&decoy_shape),
            ["src/legacy.ts:14 implements scope"]
        );

        // The decoy function and class have no references at all.
        for symbol in ["areaOf", "Circle"] {
            let decoy = server
                .call(
                    "find_references",
                    json!({ "symbol": symbol, "path": "src/legacy.ts", "include_declaration": false }),
                )
                .await
                .ok();
            assert_eq!(reference_lines(&decoy), Vec::<String>::new(), "{symbol}");
            assert_eq!(decoy["completeness"]["complete"], json!(true), "{symbol}");
        }
        server.stop().await;
    }

    #[tokio::test]
    async fn ambiguous_names_are_refused_with_candidates() {
        let server = serve("typescript").await;
        let error = server
            .call("find_references", json!({ "symbol": "areaOf" }))
            .await
            .err();
        assert_eq!(error["code"], json!("SYMBOL_AMBIGUOUS"));
        assert_eq!(
            error["details"]["candidates"],
            json!([
                "src/legacy.ts:4 function areaOf",
                "src/shapes/area.ts:4 function areaOf"
            ])
        );
        let shape = server
            .call("find_implementations", json!({ "symbol": "Shape" }))
            .await
            .err();
        assert_eq!(shape["code"], json!("SYMBOL_AMBIGUOUS"));
        assert_eq!(
            shape["details"]["candidates"],
            json!([
                "src/legacy.ts:9 interface Shape",
                "src/shapes/shape.ts:2 interface Shape"
            ])
        );
        let unknown = server
            .call("find_references", json!({ "symbol": "areaOff" }))
            .await
            .err();
        assert_eq!(unknown["code"], json!("SYMBOL_NOT_FOUND"));
        assert_eq!(unknown["details"]["nearbySymbols"][0], json!("areaOf"));
        server.stop().await;
    }

    #[tokio::test]
    async fn call_hierarchy_both_ways() {
        let server = serve("typescript").await;
        let summary = server
            .call(
                "get_call_hierarchy",
                json!({ "symbol": "summary", "direction": "both" }),
            )
            .await
            .ok();
        assert_eq!(
            hierarchy_names(&summary, "incoming"),
            ["twice (src/report.ts)"]
        );
        assert_eq!(
            hierarchy_names(&summary, "outgoing"),
            [
                "areaOf (src/shapes/area.ts)",
                "Circle (src/shapes/circle.ts)",
                "Square (src/shapes/square.ts)",
            ]
        );
        assert_eq!(summary["outgoing_completeness"]["complete"], json!(true));

        let main = server
            .call(
                "get_call_hierarchy",
                json!({ "symbol": "main", "direction": "outgoing" }),
            )
            .await
            .ok();
        assert_eq!(
            hierarchy_names(&main, "outgoing"),
            [
                "twice (src/report.ts)",
                "areaOf (src/shapes/area.ts)",
                "Circle (src/shapes/circle.ts)",
            ]
        );

        let deep = server
            .call(
                "get_call_hierarchy",
                json!({ "symbol": "areaOf", "path": "src/shapes/area.ts", "direction": "incoming", "depth": 2 }),
            )
            .await
            .ok();
        assert_eq!(
            hierarchy_names(&deep, "incoming"),
            ["main (src/main.ts)", "summary (src/report.ts)"]
        );
        assert_eq!(
            deep["incoming"][1]["incoming"][0]["from"]["name"],
            json!("twice")
        );
        server.stop().await;
    }

    #[tokio::test]
    async fn implementations_of_an_interface_and_a_base_class() {
        let server = serve("typescript").await;
        let shape = server
            .call(
                "find_implementations",
                json!({ "symbol": "Shape", "path": "src/shapes/shape.ts" }),
            )
            .await
            .ok();
        assert_eq!(
            implementation_lines(&shape),
            [
                "export class Circle implements Shape IMPLEMENTS (src/shapes/circle.ts)",
                "export class Square extends Polygon implements Shape IMPLEMENTS (src/shapes/square.ts)",
            ]
        );
        assert_eq!(shape["completeness"]["complete"], json!(true));
        let decoy = server
            .call(
                "find_implementations",
                json!({ "symbol": "Shape", "path": "src/legacy.ts" }),
            )
            .await
            .ok();
        assert_eq!(
            implementation_lines(&decoy),
            ["export class Circle implements Shape IMPLEMENTS (src/legacy.ts)"]
        );
        let polygon = server
            .call("find_implementations", json!({ "symbol": "Polygon" }))
            .await
            .ok();
        assert_eq!(
            implementation_lines(&polygon),
            ["export class Square extends Polygon implements Shape EXTENDS (src/shapes/square.ts)"]
        );
        server.stop().await;
    }

    #[tokio::test]
    async fn graph_tools_answer_in_the_spec_text_format() {
        let server = serve("typescript").await;
        let text = server
            .call(
                "dependents_of",
                json!({ "file_path": "src/shapes/area.ts", "symbol": "areaOf" }),
            )
            .await
            .text();
        assert!(
            text.starts_with(
                "## Graph\n\n\
                 main --CALLS--> areaOf\n\
                 main --CALLS--> twice --CALLS--> summary --CALLS--> areaOf\n\n## Nodes\n"
            ),
            "{text}"
        );
        assert!(
            text.contains("\nsummary:\n  file: src/report.ts\n  offset: 5, limit: 6\n"),
            "{text}"
        );
        assert!(
            !text.contains("legacy"),
            "the decoy is not a dependent: {text}"
        );

        let decoy = server
            .call(
                "dependents_of",
                json!({ "file_path": "src/legacy.ts", "symbol": "areaOf" }),
            )
            .await
            .text();
        assert!(
            decoy.starts_with("## Graph\n\nareaOf\n\n## Nodes\n\n(none)"),
            "nothing depends on the decoy: {decoy}"
        );
        let none = server
            .call(
                "paths_between",
                json!({
                    "from": { "file_path": "src/legacy.ts", "symbol": "areaOf" },
                    "to": { "file_path": "src/main.ts", "symbol": "main" }
                }),
            )
            .await
            .text();
        assert_eq!(none, "No path found.");
        server.stop().await;
    }
}

/// Go: module `example.com/geometry` (go.mod) with packages `shapes` (two
/// files), `report` (imports `example.com/geometry/shapes`, calls
/// `shapes.AreaOf`...) and `main`. Package `legacy` declares `AreaOf`,
/// `Circle` and `NewCircle` again and is never imported.
mod go {
    use super::*;

    #[tokio::test]
    async fn definition_follows_the_package_import_not_the_decoy() {
        let server = serve("go").await;
        // In report.go: `shapes.NewCircle(` (line 12, column 19),
        // `shapes.AreaOf(` (line 14, column 17) and the `shapes.Shape` type
        // (line 14, column 34).
        for (line, character, expected) in [
            (11, 19, "shapes/shapes.go:21 NewCircle"),
            (13, 17, "shapes/area.go:4 AreaOf"),
            (13, 34, "shapes/shapes.go:5 Shape"),
        ] {
            let found = server
                .call(
                    "find_definition",
                    json!({ "path": "report/report.go", "line": line, "character": character }),
                )
                .await
                .ok();
            assert_eq!(definition_lines(&found), [expected]);
            assert_eq!(found["resolution"], json!("qualified"));
            assert_eq!(found["definitions"][0]["confidence"], json!(1.0));
        }
        server.stop().await;
    }

    #[tokio::test]
    async fn references_are_exact_and_complete() {
        let server = serve("go").await;
        let found = server
            .call(
                "find_references",
                json!({ "symbol": "AreaOf", "path": "shapes/area.go" }),
            )
            .await
            .ok();
        assert_eq!(
            reference_lines(&found),
            [
                "shapes/area.go:4 declaration declaration",
                "report/report.go:14 call qualified",
            ]
        );
        assert_eq!(found["completeness"]["complete"], json!(true));
        assert_eq!(found["completeness"]["name_only"], json!(0));

        // `Shape` is used by the other file of its package without a
        // qualifier, and by report.go through the import.
        let shape = server
            .call(
                "find_references",
                json!({ "symbol": "Shape", "include_declaration": false }),
            )
            .await
            .ok();
        assert_eq!(
            reference_lines(&shape),
            [
                "report/report.go:14 type qualified",
                "shapes/area.go:4 type scope",
                "shapes/shapes.go:11 extends scope",
            ]
        );
        assert_eq!(shape["completeness"]["complete"], json!(true));

        let twice = server
            .call(
                "find_references",
                json!({ "symbol": "Twice", "include_declaration": false }),
            )
            .await
            .ok();
        assert_eq!(reference_lines(&twice), ["main.go:10 call qualified"]);

        // The decoys are used only inside their own package.
        for (symbol, expected) in [
            ("AreaOf", vec![]),
            ("NewCircle", vec![]),
            (
                "Circle",
                vec![
                    "legacy/legacy.go:14 type scope",
                    "legacy/legacy.go:15 type scope",
                ],
            ),
        ] {
            let decoy = server
                .call(
                    "find_references",
                    json!({ "symbol": symbol, "path": "legacy/legacy.go", "include_declaration": false }),
                )
                .await
                .ok();
            assert_eq!(reference_lines(&decoy), expected, "{symbol}");
            assert_eq!(decoy["completeness"]["complete"], json!(true), "{symbol}");
        }
        let circle = server
            .call(
                "find_references",
                json!({ "symbol": "Circle", "path": "shapes/shapes.go", "include_declaration": false }),
            )
            .await
            .ok();
        assert_eq!(
            reference_lines(&circle),
            [
                "shapes/shapes.go:21 type scope",
                "shapes/shapes.go:22 type scope",
                "shapes/shapes.go:26 type scope",
            ]
        );

        // `s.Area()` on a `Shape` from `range shapes`: the receiver's type
        // needs type inference, so the call is a name-only guess among the
        // three `Area` methods, and the answer says so.
        let area = server
            .call(
                "find_references",
                json!({ "symbol": "Shape.Area", "include_declaration": false }),
            )
            .await
            .ok();
        assert_eq!(reference_lines(&area), ["shapes/area.go:7 call name_only"]);
        assert!(area["references"][0]["confidence"].as_f64().unwrap() < 0.5);
        assert_eq!(area["completeness"]["complete"], json!(false));
        assert_eq!(area["completeness"]["name_only"], json!(1));
        server.stop().await;
    }

    #[tokio::test]
    async fn ambiguous_names_are_refused_with_candidates() {
        let server = serve("go").await;
        let error = server
            .call("find_references", json!({ "symbol": "AreaOf" }))
            .await
            .err();
        assert_eq!(error["code"], json!("SYMBOL_AMBIGUOUS"));
        assert_eq!(
            error["details"]["candidates"],
            json!([
                "legacy/legacy.go:6 function AreaOf",
                "shapes/area.go:4 function AreaOf"
            ])
        );
        let circle = server
            .call("find_references", json!({ "symbol": "Circle" }))
            .await
            .err();
        assert_eq!(circle["code"], json!("SYMBOL_AMBIGUOUS"));
        assert_eq!(
            circle["details"]["candidates"],
            json!([
                "legacy/legacy.go:11 struct Circle",
                "shapes/shapes.go:16 struct Circle"
            ])
        );
        let unknown = server
            .call("find_references", json!({ "symbol": "AreaOff" }))
            .await
            .err();
        assert_eq!(unknown["code"], json!("SYMBOL_NOT_FOUND"));
        assert_eq!(unknown["details"]["nearbySymbols"][0], json!("AreaOf"));
        server.stop().await;
    }

    #[tokio::test]
    async fn call_hierarchy_both_ways() {
        let server = serve("go").await;
        let summary = server
            .call(
                "get_call_hierarchy",
                json!({ "symbol": "Summary", "direction": "both" }),
            )
            .await
            .ok();
        assert_eq!(
            hierarchy_names(&summary, "incoming"),
            ["Twice (report/report.go)"]
        );
        // `shapes.Square{...}` is a composite literal, not a call.
        assert_eq!(
            hierarchy_names(&summary, "outgoing"),
            ["AreaOf (shapes/area.go)", "NewCircle (shapes/shapes.go)"]
        );
        // `fmt.Sprintf` is in the standard library: not in the workspace.
        assert_eq!(
            summary["outgoing_completeness"]["external_names"],
            json!(["Sprintf"])
        );
        assert_eq!(summary["outgoing_completeness"]["complete"], json!(true));

        let deep = server
            .call(
                "get_call_hierarchy",
                json!({ "symbol": "AreaOf", "path": "shapes/area.go", "direction": "incoming", "depth": 3 }),
            )
            .await
            .ok();
        assert_eq!(
            hierarchy_names(&deep, "incoming"),
            ["Summary (report/report.go)"]
        );
        let twice = &deep["incoming"][0]["incoming"][0];
        assert_eq!(twice["from"]["name"], json!("Twice"));
        assert_eq!(twice["incoming"][0]["from"]["name"], json!("main"));
        assert_eq!(twice["incoming"][0]["from"]["file_path"], json!("main.go"));
        server.stop().await;
    }

    /// Go types satisfy interfaces implicitly: nothing in the source says
    /// that `*Circle` and `Square` implement `Shape` (or that `Square`
    /// implements `Polygon`), so a syntactic index cannot list them. What it
    /// can see is interface embedding: `Polygon` embeds `Shape`.
    #[tokio::test]
    async fn implementations_are_embeddings_only() {
        let server = serve("go").await;
        let shape = server
            .call("find_implementations", json!({ "symbol": "Shape" }))
            .await
            .ok();
        assert_eq!(
            implementation_lines(&shape),
            ["type Polygon interface EXTENDS (shapes/shapes.go)"]
        );
        let polygon = server
            .call("find_implementations", json!({ "symbol": "Polygon" }))
            .await
            .ok();
        assert_eq!(implementation_lines(&polygon), Vec::<String>::new());
        // The answer says where implementations come from; it cannot know
        // about implicit satisfaction.
        let note = polygon["completeness"]["note"].as_str().unwrap();
        assert!(
            note.contains("base lists and implements clauses written in the workspace"),
            "{note}"
        );
        server.stop().await;
    }

    #[tokio::test]
    async fn graph_tools_answer_in_the_spec_text_format() {
        let server = serve("go").await;
        let text = server
            .call(
                "dependents_of",
                json!({ "file_path": "shapes/area.go", "symbol": "AreaOf" }),
            )
            .await
            .text();
        assert!(
            text.starts_with(
                "## Graph\n\nmain --CALLS--> Twice --CALLS--> Summary --CALLS--> AreaOf\n\n## Nodes\n"
            ),
            "{text}"
        );
        assert!(
            text.contains("\nSummary:\n  file: report/report.go\n  offset: 11, limit: 6\n"),
            "{text}"
        );
        assert!(
            !text.contains("legacy"),
            "the decoy is not a dependent: {text}"
        );

        let decoy = server
            .call(
                "dependents_of",
                json!({ "file_path": "legacy/legacy.go", "symbol": "AreaOf" }),
            )
            .await
            .text();
        assert!(
            decoy.starts_with("## Graph\n\nAreaOf\n\n## Nodes\n\n(none)"),
            "nothing depends on the decoy: {decoy}"
        );
        let path = server
            .call(
                "paths_between",
                json!({
                    "from": { "file_path": "shapes/shapes.go", "symbol": "NewCircle" },
                    "to": { "file_path": "report/report.go", "symbol": "Twice" }
                }),
            )
            .await
            .text();
        assert!(
            path.starts_with("## Graph\n\nTwice --CALLS--> Summary --CALLS--> NewCircle\n"),
            "{path}"
        );
        let none = server
            .call(
                "paths_between",
                json!({
                    "from": { "file_path": "legacy/legacy.go", "symbol": "NewCircle" },
                    "to": { "file_path": "report/report.go", "symbol": "Twice" }
                }),
            )
            .await
            .text();
        assert_eq!(none, "No path found.");
        server.stop().await;
    }
}
