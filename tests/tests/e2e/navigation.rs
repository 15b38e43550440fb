//! Navigation and graph tools end to end on small multi-file workspaces
//! (`tests/fixtures/nav/<language>`), each with imports across files and a
//! same-name decoy in another module: exact definitions, references, call
//! hierarchies and implementations, and the decoy never returned as a
//! resolved reference.
//!
//! Each case is a call and the snapshot of what its answer says
//! ([`digest`]); `UPDATE_EXPECT=1 cargo test -p lingo --test e2e navigation`
//! rewrites the snapshots after a deliberate change.

use expect_test::{Expect, expect};
use lingo_e2e::{McpServer, Scratch, ToolOutcome, fixture};
use serde_json::{Map, Value, json};

async fn serve(language: &str) -> McpServer {
    McpServer::start(&fixture(&format!("nav/{language}")), &[])
        .await
        .expect("start lingo on the fixture")
}

/// Calls `tool` and checks the digest of its answer against `expected`.
async fn check(server: &McpServer, tool: &str, arguments: Value, expected: Expect) {
    let outcome = server.call(tool, arguments).await;
    expected.assert_eq(&digest(outcome));
}

/// What a navigation answer says, a fact per line (lines 1-based): the
/// definitions, references, implementations or calls with their resolution
/// and any confidence below 1, then the completeness counts; a graph tool's
/// text as it is; a refusal's code, message and details.
fn digest(outcome: ToolOutcome) -> String {
    if outcome.is_error {
        return refusal_digest(&outcome.err());
    }
    let value = outcome.value;
    if value["format"] == json!("text") {
        return value["text"].as_str().unwrap_or_default().to_string();
    }
    let mut lines = Vec::new();
    if let Some(resolution) = value["resolution"].as_str() {
        lines.push(format!("resolution {resolution}"));
    }
    for definition in entries(&value, "definitions") {
        lines.push(format!(
            "{} {}{}",
            place(definition),
            definition["name"].as_str().unwrap(),
            confidence(definition)
        ));
    }
    for reference in entries(&value, "references") {
        lines.push(format!(
            "{} {} {}{}",
            place(reference),
            reference["kind"].as_str().unwrap(),
            reference["resolution"].as_str().unwrap(),
            confidence(reference)
        ));
    }
    for implementation in entries(&value, "implementations") {
        lines.push(format!(
            "{} {} ({}){}",
            implementation["signature"].as_str().unwrap(),
            implementation["relation"].as_str().unwrap(),
            implementation["file_path"].as_str().unwrap(),
            confidence(implementation)
        ));
    }
    for direction in ["incoming", "outgoing"] {
        if value.get(direction).is_some() {
            lines.push(format!("{direction}:"));
            calls(&value, direction, 1, &mut lines);
        }
    }
    for key in [
        "completeness",
        "incoming_completeness",
        "outgoing_completeness",
    ] {
        if let Some(Value::Object(completeness)) = value.get(key) {
            lines.push(completeness_digest(key, completeness));
        }
    }
    lines.join("\n") + "\n"
}

fn entries<'a>(value: &'a Value, key: &str) -> &'a [Value] {
    value.get(key).map_or(&[], |list| {
        list.as_array()
            .unwrap_or_else(|| panic!("{key} is not an array: {value:#}"))
    })
}

/// `file:line`, the line 1-based.
fn place(entry: &Value) -> String {
    format!(
        "{}:{}",
        entry["file_path"].as_str().unwrap(),
        entry["range"]["start"]["line"].as_u64().unwrap() + 1
    )
}

/// ` (confidence 0.33)` when below 1, else nothing.
fn confidence(entry: &Value) -> String {
    match entry["confidence"].as_f64() {
        Some(confidence) if confidence < 1.0 => format!(" (confidence {confidence:.2})"),
        _ => String::new(),
    }
}

/// The calls of a hierarchy, indented by depth: `name (file) resolution`.
fn calls(node: &Value, direction: &str, depth: usize, lines: &mut Vec<String>) {
    let end = if direction == "incoming" {
        "from"
    } else {
        "to"
    };
    for call in entries(node, direction) {
        lines.push(format!(
            "{}{} ({}) {}{}",
            "  ".repeat(depth),
            call[end]["name"].as_str().unwrap(),
            call[end]["file_path"].as_str().unwrap(),
            call["resolution"].as_str().unwrap(),
            confidence(call)
        ));
        calls(call, direction, depth + 1, lines);
    }
}

/// `key: complete, resolved 2, name_only 0, ...`, then its note if any.
fn completeness_digest(key: &str, completeness: &Map<String, Value>) -> String {
    let mut parts = Vec::new();
    let mut note = String::new();
    for (name, field) in completeness {
        match field {
            Value::Bool(true) => parts.push(name.clone()),
            Value::Bool(false) => parts.push(format!("not {name}")),
            Value::Array(items) if items.is_empty() => {}
            Value::String(text) if name == "note" => note = format!("\n  note: {text}"),
            other => parts.push(format!("{name} {other}")),
        }
    }
    format!("{key}: {}{note}", parts.join(", "))
}

/// `error CODE: message`, then each detail: a list a line per item.
fn refusal_digest(error: &Value) -> String {
    let mut lines = vec![format!(
        "error {}: {}",
        error["code"].as_str().unwrap(),
        error["message"].as_str().unwrap()
    )];
    for (name, detail) in error["details"].as_object().unwrap() {
        match detail {
            Value::Array(items) => {
                lines.push(format!("{name}:"));
                lines.extend(items.iter().map(|item| match item {
                    Value::String(text) => format!("  {text}"),
                    other => format!("  {other}"),
                }));
            }
            other => lines.push(format!("{name}: {other}")),
        }
    }
    lines.join("\n") + "\n"
}

/// `file:line kind resolution` (1-based line) of each reference.
fn reference_lines(result: &Value) -> Vec<String> {
    entries(result, "references")
        .iter()
        .map(|r| {
            format!(
                "{} {} {}",
                place(r),
                r["kind"].as_str().unwrap(),
                r["resolution"].as_str().unwrap(),
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
        check(
            &server,
            "find_definition",
            json!({ "path": "src/report.rs", "line": 8, "character": 16 }),
            expect![[r#"
                resolution import
                src/shapes.rs:37 area_of
            "#]],
        )
        .await;
        server.stop().await;
    }

    #[tokio::test]
    async fn references_are_exact_and_complete() {
        let server = serve("rust").await;
        check(
            &server,
            "find_references",
            json!({ "symbol": "area_of", "path": "src/shapes.rs" }),
            expect![[r#"
                src/shapes.rs:37 declaration declaration
                src/report.rs:3 import import
                src/report.rs:9 call import
                completeness: ambiguous 0, complete, name_only 0, possibly_missed 0, resolved 2
                  note: every same-named reference in the workspace was resolved; these are all of them
            "#]],
        )
        .await;
        // The decoy has no references at all: nothing calls it.
        check(
            &server,
            "find_references",
            json!({ "symbol": "area_of", "path": "src/legacy.rs", "include_declaration": false }),
            expect![[r#"
                completeness: ambiguous 0, complete, name_only 0, possibly_missed 0, resolved 0
                  note: every same-named reference in the workspace was resolved; these are all of them
            "#]],
        )
        .await;
        check(
            &server,
            "find_references",
            json!({ "symbol": "Circle", "path": "src/shapes.rs", "include_declaration": false }),
            expect![[r#"
                src/report.rs:3 import import
                src/report.rs:7 reference import
                src/shapes.rs:13 type scope
                src/shapes.rs:14 type scope
                src/shapes.rs:15 type scope
                src/shapes.rs:19 type scope
                completeness: ambiguous 0, complete, name_only 0, possibly_missed 0, resolved 6
                  note: every same-named reference in the workspace was resolved; these are all of them
            "#]],
        )
        .await;
        server.stop().await;
    }

    #[tokio::test]
    async fn ambiguous_names_are_refused_with_candidates() {
        let server = serve("rust").await;
        check(
            &server,
            "find_references",
            json!({ "symbol": "area_of" }),
            expect![[r#"
                error SYMBOL_AMBIGUOUS: `area_of` matches 2 declarations; say which one
                candidates:
                  src/legacy.rs:4 function area_of
                  src/shapes.rs:37 function area_of
                field: "symbol"
                symbolName: "area_of"
            "#]],
        )
        .await;
        check(
            &server,
            "find_references",
            json!({ "symbol": "area_off" }),
            expect![[r#"
                error SYMBOL_NOT_FOUND: no symbol `area_off` found
                field: "symbol"
                nearbySymbols:
                  area_of
                  area
                symbolName: "area_off"
            "#]],
        )
        .await;
        server.stop().await;
    }

    #[tokio::test]
    async fn call_hierarchy_both_ways() {
        let server = serve("rust").await;
        // `format!` is a macro from the standard library: not in the
        // workspace, so nothing is missing from the list.
        check(
            &server,
            "get_call_hierarchy",
            json!({ "symbol": "summary", "direction": "both" }),
            expect![[r#"
                incoming:
                  twice (src/report.rs) scope
                outgoing:
                  new (src/shapes.rs) qualified
                  area_of (src/shapes.rs) import
                incoming_completeness: ambiguous 0, complete, name_only 0, possibly_missed 0, resolved 1
                  note: every same-named reference in the workspace was resolved; these are all of them
                outgoing_completeness: complete, external_names ["format"], unresolved_calls 0
                  note: every call to a workspace declaration resolved; the external names are declared nowhere in the workspace (library or built-in code)
            "#]],
        )
        .await;
        check(
            &server,
            "get_call_hierarchy",
            json!({ "symbol": "area_of", "path": "src/shapes.rs", "direction": "incoming", "depth": 2 }),
            expect![[r#"
                incoming:
                  summary (src/report.rs) import
                    twice (src/report.rs) scope
                incoming_completeness: ambiguous 0, complete, name_only 0, possibly_missed 0, resolved 1
                  note: every same-named reference in the workspace was resolved; these are all of them
            "#]],
        )
        .await;
        server.stop().await;
    }

    #[tokio::test]
    async fn implementations_of_a_trait() {
        let server = serve("rust").await;
        check(
            &server,
            "find_implementations",
            json!({ "symbol": "Shape" }),
            expect![[r#"
                impl Shape for Circle IMPLEMENTS (src/shapes.rs)
                impl Shape for Square IMPLEMENTS (src/shapes.rs)
                completeness: complete, name_only 0
                  note: implementations are found from base lists and implements clauses written in the workspace; types from dependencies are not indexed
            "#]],
        )
        .await;
        server.stop().await;
    }

    #[tokio::test]
    async fn graph_tools_answer_in_the_spec_text_format() {
        let server = serve("rust").await;
        // The decoy is not a dependent.
        check(
            &server,
            "dependents_of",
            json!({ "file_path": "src/shapes.rs", "symbol": "area_of" }),
            expect![[r###"
                ## Graph

                twice --CALLS--> summary --CALLS--> area_of

                ## Nodes

                summary:
                  file: src/report.rs
                  offset: 6, limit: 6
                  snippet:
                    6: pub fn summary(radius: f64, side: f64) -> String {
                    7:     let circle = Circle::new(radius);
                    8:     let square = Square { side };
                    9:     let total = area_of(&[&circle, &square]);
                    10:     format!("total area {total}")
                    11: }

                twice:
                  file: src/report.rs
                  offset: 14, limit: 4
                  snippet:
                    14: pub fn twice(radius: f64) -> String {
                    15:     let line = summary(radius, radius);
                    16:     format!("{line}\n{line}")
                    17: }
            "###]],
        )
        .await;
        check(
            &server,
            "paths_between",
            json!({
                "from": { "file_path": "src/shapes.rs", "symbol": "area_of" },
                "to": { "file_path": "src/report.rs", "symbol": "twice" }
            }),
            expect![[r###"
                ## Graph

                twice --CALLS--> summary --CALLS--> area_of

                ## Nodes

                summary:
                  file: src/report.rs
                  offset: 6, limit: 6
                  snippet:
                    6: pub fn summary(radius: f64, side: f64) -> String {
                    7:     let circle = Circle::new(radius);
                    8:     let square = Square { side };
                    9:     let total = area_of(&[&circle, &square]);
                    10:     format!("total area {total}")
                    11: }
            "###]],
        )
        .await;
        check(
            &server,
            "paths_between",
            json!({
                "from": { "file_path": "src/legacy.rs", "symbol": "area_of" },
                "to": { "file_path": "src/report.rs", "symbol": "twice" }
            }),
            expect!["No path found."],
        )
        .await;
        check(
            &server,
            "paths_between",
            json!({
                "from": { "file_path": "src/report.rs", "symbol": "twice" },
                "to": { "file_path": "src/report.rs", "symbol": "twice" }
            }),
            expect![[r#"
                error INVALID_QUERY: Invalid query: source and target are the same symbol.
                field: "to"
            "#]],
        )
        .await;
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
        check(
            &server,
            "find_definition",
            json!({ "path": "Reports/Report.cs", "line": 10, "character": 25 }),
            expect![[r#"
                resolution import
                Shapes/Shapes.cs:10 Circle
            "#]],
        )
        .await;
        // `Areas` of `Areas.AreaOf(...)`, line 13, column 20.
        check(
            &server,
            "find_definition",
            json!({ "path": "Reports/Report.cs", "line": 12, "character": 20 }),
            expect![[r#"
                resolution import
                Shapes/Shapes.cs:32 Areas
            "#]],
        )
        .await;
        // `AreaOf` of `Areas.AreaOf(...)`, column 26: a member of the type
        // the qualifier resolves to through the `using`, not of the decoy's
        // `Areas`.
        check(
            &server,
            "find_definition",
            json!({ "path": "Reports/Report.cs", "line": 12, "character": 26 }),
            expect![[r#"
                resolution qualified
                Shapes/Shapes.cs:35 AreaOf
            "#]],
        )
        .await;
        server.stop().await;
    }

    #[tokio::test]
    async fn references_are_exact_and_complete() {
        let server = serve("csharp").await;
        check(
            &server,
            "find_references",
            json!({ "symbol": "AreaOf", "path": "Shapes/Shapes.cs" }),
            expect![[r#"
                Shapes/Shapes.cs:35 declaration declaration
                Reports/Report.cs:13 call qualified
                completeness: ambiguous 0, complete, name_only 0, possibly_missed 0, resolved 1
                  note: every same-named reference in the workspace was resolved; these are all of them
            "#]],
        )
        .await;
        // The first entry of a class's base list is reported as `extends`
        // (syntax cannot tell a base class from an interface), the others as
        // `implements`.
        check(
            &server,
            "find_references",
            json!({ "symbol": "IShape", "path": "Shapes/Shapes.cs", "include_declaration": false }),
            expect![[r#"
                Reports/Hexagon.cs:6 implements import
                Reports/Report.cs:13 type import
                Shapes/Shapes.cs:10 extends scope
                Shapes/Shapes.cs:24 implements scope
                Shapes/Shapes.cs:35 type scope
                completeness: ambiguous 0, complete, name_only 0, possibly_missed 0, resolved 5
                  note: every same-named reference in the workspace was resolved; these are all of them
            "#]],
        )
        .await;
        // The decoy interface is used by the decoy circle only.
        check(
            &server,
            "find_references",
            json!({ "symbol": "IShape", "path": "Legacy/Legacy.cs", "include_declaration": false }),
            expect![[r#"
                Legacy/Legacy.cs:16 extends scope
                completeness: ambiguous 0, complete, name_only 0, possibly_missed 0, resolved 1
                  note: every same-named reference in the workspace was resolved; these are all of them
            "#]],
        )
        .await;
        check(
            &server,
            "find_references",
            json!({ "symbol": "Areas", "path": "Shapes/Shapes.cs" }),
            expect![[r#"
                Shapes/Shapes.cs:32 declaration declaration
                Reports/Report.cs:13 reference import
                completeness: ambiguous 0, complete, name_only 0, possibly_missed 0, resolved 1
                  note: every same-named reference in the workspace was resolved; these are all of them
            "#]],
        )
        .await;
        // `Circle` names the class and its constructor in Shapes.cs: the
        // class is picked by position. `new Circle(...)` refers to the class.
        check(
            &server,
            "find_references",
            json!({ "path": "Shapes/Shapes.cs", "line": 9, "character": 17, "include_declaration": false }),
            expect![[r#"
                Reports/Report.cs:11 call import
                completeness: ambiguous 0, complete, name_only 0, possibly_missed 0, resolved 1
                  note: every same-named reference in the workspace was resolved; these are all of them
            "#]],
        )
        .await;
        // The decoys (`IShape`, `Areas.AreaOf`, `Circle`) have no
        // references at all.
        check(
            &server,
            "find_references",
            json!({ "path": "Legacy/Legacy.cs", "line": 9, "character": 24, "include_declaration": false }),
            expect![[r#"
                completeness: ambiguous 0, complete, name_only 0, possibly_missed 0, resolved 0
                  note: every same-named reference in the workspace was resolved; these are all of them
            "#]],
        )
        .await;
        check(
            &server,
            "find_references",
            json!({ "path": "Legacy/Legacy.cs", "line": 11, "character": 29, "include_declaration": false }),
            expect![[r#"
                completeness: ambiguous 0, complete, name_only 0, possibly_missed 0, resolved 0
                  note: every same-named reference in the workspace was resolved; these are all of them
            "#]],
        )
        .await;
        check(
            &server,
            "find_references",
            json!({ "path": "Legacy/Legacy.cs", "line": 15, "character": 17, "include_declaration": false }),
            expect![[r#"
                completeness: ambiguous 0, complete, name_only 0, possibly_missed 0, resolved 0
                  note: every same-named reference in the workspace was resolved; these are all of them
            "#]],
        )
        .await;
        server.stop().await;
    }

    #[tokio::test]
    async fn ambiguous_names_are_refused_with_candidates() {
        let server = serve("csharp").await;
        check(
            &server,
            "find_references",
            json!({ "symbol": "AreaOf" }),
            expect![[r#"
                error SYMBOL_AMBIGUOUS: `AreaOf` matches 2 declarations; say which one
                candidates:
                  Legacy/Legacy.cs:12 method Areas.AreaOf
                  Shapes/Shapes.cs:35 method Areas.AreaOf
                field: "symbol"
                symbolName: "AreaOf"
            "#]],
        )
        .await;
        check(
            &server,
            "find_references",
            json!({ "symbol": "Circle" }),
            expect![[r#"
                error SYMBOL_AMBIGUOUS: `Circle` matches 3 declarations; say which one
                candidates:
                  Legacy/Legacy.cs:16 class Geometry.Legacy.Circle
                  Shapes/Shapes.cs:10 class Geometry.Shapes.Circle
                  Shapes/Shapes.cs:12 constructor Circle.Circle
                field: "symbol"
                symbolName: "Circle"
            "#]],
        )
        .await;
        // Qualifying the name with its container, as the error suggests,
        // picks one: the full namespace or its last part.
        check(
            &server,
            "find_definition",
            json!({ "symbol": "Geometry.Shapes.Circle" }),
            expect![[r#"
                resolution name_only
                Shapes/Shapes.cs:10 Circle
            "#]],
        )
        .await;
        check(
            &server,
            "find_definition",
            json!({ "symbol": "Shapes.Circle" }),
            expect![[r#"
                resolution name_only
                Shapes/Shapes.cs:10 Circle
            "#]],
        )
        .await;
        check(
            &server,
            "find_references",
            json!({ "symbol": "AreaOff" }),
            expect![[r#"
                error SYMBOL_NOT_FOUND: no symbol `AreaOff` found
                field: "symbol"
                nearbySymbols:
                  AreaOf
                  Area
                  Areas
                symbolName: "AreaOff"
            "#]],
        )
        .await;
        server.stop().await;
    }

    #[tokio::test]
    async fn call_hierarchy_both_ways() {
        let server = serve("csharp").await;
        check(
            &server,
            "get_call_hierarchy",
            json!({ "symbol": "Twice", "direction": "both" }),
            expect![[r#"
                incoming:
                outgoing:
                  Summary (Reports/Report.cs) scope
                incoming_completeness: ambiguous 0, complete, name_only 0, possibly_missed 0, resolved 0
                  note: every same-named reference in the workspace was resolved; these are all of them
                outgoing_completeness: complete, unresolved_calls 0
                  note: every call in the body resolved
            "#]],
        )
        .await;
        // `new Circle(...)` calls the class; `Areas.AreaOf` is the one in
        // Shapes.cs, never the decoy.
        check(
            &server,
            "get_call_hierarchy",
            json!({ "symbol": "Summary", "direction": "both" }),
            expect![[r#"
                incoming:
                  Twice (Reports/Report.cs) scope
                outgoing:
                  Circle (Shapes/Shapes.cs) import
                  Square (Shapes/Shapes.cs) import
                  AreaOf (Shapes/Shapes.cs) qualified
                incoming_completeness: ambiguous 0, complete, name_only 0, possibly_missed 0, resolved 1
                  note: every same-named reference in the workspace was resolved; these are all of them
                outgoing_completeness: complete, unresolved_calls 0
                  note: every call in the body resolved
            "#]],
        )
        .await;
        check(
            &server,
            "get_call_hierarchy",
            json!({ "symbol": "AreaOf", "path": "Shapes/Shapes.cs", "direction": "incoming", "depth": 2 }),
            expect![[r#"
                incoming:
                  Summary (Reports/Report.cs) qualified
                    Twice (Reports/Report.cs) scope
                incoming_completeness: ambiguous 0, complete, name_only 0, possibly_missed 0, resolved 1
                  note: every same-named reference in the workspace was resolved; these are all of them
            "#]],
        )
        .await;
        server.stop().await;
    }

    #[tokio::test]
    async fn implementations_from_base_lists_across_namespaces() {
        let server = serve("csharp").await;
        // Hexagon sees IShape through its `using`; the decoy's Circle
        // implements the decoy IShape, not this one.
        check(
            &server,
            "find_implementations",
            json!({ "symbol": "IShape", "path": "Shapes/Shapes.cs" }),
            expect![[r#"
                public class Hexagon : Polygon, IShape IMPLEMENTS (Reports/Hexagon.cs)
                public class Circle : IShape IMPLEMENTS (Shapes/Shapes.cs)
                public class Square : Polygon, IShape IMPLEMENTS (Shapes/Shapes.cs)
                completeness: complete, name_only 0
                  note: implementations are found from base lists and implements clauses written in the workspace; types from dependencies are not indexed
            "#]],
        )
        .await;
        check(
            &server,
            "find_implementations",
            json!({ "symbol": "IShape", "path": "Legacy/Legacy.cs" }),
            expect![[r#"
                public class Circle : IShape IMPLEMENTS (Legacy/Legacy.cs)
                completeness: complete, name_only 0
                  note: implementations are found from base lists and implements clauses written in the workspace; types from dependencies are not indexed
            "#]],
        )
        .await;
        check(
            &server,
            "find_implementations",
            json!({ "symbol": "Polygon" }),
            expect![[r#"
                public class Hexagon : Polygon, IShape EXTENDS (Reports/Hexagon.cs)
                public class Square : Polygon, IShape EXTENDS (Shapes/Shapes.cs)
                completeness: complete, name_only 0
                  note: implementations are found from base lists and implements clauses written in the workspace; types from dependencies are not indexed
            "#]],
        )
        .await;
        server.stop().await;
    }

    #[tokio::test]
    async fn graph_tools_answer_in_the_spec_text_format() {
        let server = serve("csharp").await;
        // `Twice` calls `Summary` by its bare name: C#'s plugin says bare
        // names reach members of the enclosing type (an implicit `this`), so
        // the call is certain and drawn. The decoy is not a dependent.
        check(
            &server,
            "dependents_of",
            json!({ "file_path": "Shapes/Shapes.cs", "symbol": "AreaOf" }),
            expect![[r###"
                ## Graph

                Twice --CALLS--> Summary --CALLS--> AreaOf

                ## Nodes

                Summary:
                  file: Reports/Report.cs
                  offset: 9, limit: 7
                  snippet:
                    9:     public static string Summary(double radius, double side)
                    10:     {
                    11:         var circle = new Circle(radius);
                    12:         var square = new Square(side);
                    13:         var total = Areas.AreaOf(new IShape[] { circle, square });
                    14:         return $"total area {total}";
                    15:     }

                Twice:
                  file: Reports/Report.cs
                  offset: 18, limit: 5
                  snippet:
                    18:     public static string Twice(double radius)
                    19:     {
                    20:         var line = Summary(radius, radius);
                    21:         return line + "\n" + line;
                    22:     }
            "###]],
        )
        .await;
        check(
            &server,
            "dependents_of",
            json!({ "file_path": "Shapes/Shapes.cs", "symbol": "IShape" }),
            expect![[r###"
                ## Graph

                Hexagon --IMPLEMENTS--> IShape
                Twice --CALLS--> Summary --REFERENCES--> IShape
                Summary --CALLS--> AreaOf --REFERENCES--> IShape
                Summary --CALLS--> Square --IMPLEMENTS--> IShape
                Summary --CALLS--> Circle --IMPLEMENTS--> IShape

                ## Nodes

                AreaOf:
                  file: Shapes/Shapes.cs
                  offset: 35, limit: 6
                  snippet:
                    35:         public static double AreaOf(IShape[] shapes)
                    36:         {
                    37:             double total = 0;
                    38:             foreach (var shape in shapes) total += shape.Area();
                    39:             return total;
                    40:         }

                Circle:
                  file: Shapes/Shapes.cs
                  offset: 10, limit: 6
                  snippet:
                    10:     public class Circle : IShape
                    11:     {
                    12:         public Circle(double radius) { Radius = radius; }
                    13:         public double Radius;
                    14:         public double Area() => 3.14 * Radius * Radius;
                    15:     }

                Hexagon:
                  file: Reports/Hexagon.cs
                  offset: 6, limit: 5
                  snippet:
                    6:     public class Hexagon : Polygon, IShape
                    7:     {
                    8:         public double Side;
                    9:         public double Area() => 2.598 * Side * Side;
                    10:     }

                Square:
                  file: Shapes/Shapes.cs
                  offset: 24, limit: 6
                  snippet:
                    24:     public class Square : Polygon, IShape
                    25:     {
                    26:         public Square(double side) { Side = side; Sides = 4; }
                    27:         public double Side;
                    28:         public double Area() => Side * Side;
                    29:     }

                Summary:
                  file: Reports/Report.cs
                  offset: 9, limit: 7
                  snippet:
                    9:     public static string Summary(double radius, double side)
                    10:     {
                    11:         var circle = new Circle(radius);
                    12:         var square = new Square(side);
                    13:         var total = Areas.AreaOf(new IShape[] { circle, square });
                    14:         return $"total area {total}";
                    15:     }

                Twice:
                  file: Reports/Report.cs
                  offset: 18, limit: 5
                  snippet:
                    18:     public static string Twice(double radius)
                    19:     {
                    20:         var line = Summary(radius, radius);
                    21:         return line + "\n" + line;
                    22:     }
            "###]],
        )
        .await;
        check(
            &server,
            "paths_between",
            json!({
                "from": { "file_path": "Shapes/Shapes.cs", "symbol": "AreaOf" },
                "to": { "file_path": "Reports/Report.cs", "symbol": "Twice" }
            }),
            expect![[r###"
                ## Graph

                Twice --CALLS--> Summary --CALLS--> AreaOf

                ## Nodes

                Summary:
                  file: Reports/Report.cs
                  offset: 9, limit: 7
                  snippet:
                    9:     public static string Summary(double radius, double side)
                    10:     {
                    11:         var circle = new Circle(radius);
                    12:         var square = new Square(side);
                    13:         var total = Areas.AreaOf(new IShape[] { circle, square });
                    14:         return $"total area {total}";
                    15:     }
            "###]],
        )
        .await;
        check(
            &server,
            "paths_between",
            json!({
                "from": { "file_path": "Legacy/Legacy.cs", "symbol": "AreaOf" },
                "to": { "file_path": "Reports/Report.cs", "symbol": "Twice" }
            }),
            expect!["No path found."],
        )
        .await;
        check(
            &server,
            "paths_between",
            json!({
                "from": { "file_path": "Legacy/Legacy.cs", "symbol": "Circle" },
                "to": { "file_path": "Reports/Report.cs", "symbol": "Twice" }
            }),
            expect!["No path found."],
        )
        .await;
        // Nothing depends on the decoy.
        check(
            &server,
            "dependents_of",
            json!({ "file_path": "Legacy/Legacy.cs", "symbol": "AreaOf" }),
            expect![[r#"
                ## Graph

                AreaOf

                ## Nodes

                (none)
            "#]],
        )
        .await;
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
        check(
            &server,
            "find_definition",
            json!({ "path": "src/report.ts", "line": 7, "character": 16 }),
            expect![[r#"
                resolution import
                src/shapes/area.ts:4 areaOf
            "#]],
        )
        .await;
        // `new Square(` (line 7, column 21): through `export * from "./square"`.
        check(
            &server,
            "find_definition",
            json!({ "path": "src/report.ts", "line": 6, "character": 21 }),
            expect![[r#"
                resolution import
                src/shapes/square.ts:9 Square
            "#]],
        )
        .await;
        // `shapes.areaOf(` and `new shapes.Circle(` in main.ts (line 6):
        // members of the namespace import.
        check(
            &server,
            "find_definition",
            json!({ "path": "src/main.ts", "line": 5, "character": 22 }),
            expect![[r#"
                resolution qualified
                src/shapes/area.ts:4 areaOf
            "#]],
        )
        .await;
        check(
            &server,
            "find_definition",
            json!({ "path": "src/main.ts", "line": 5, "character": 41 }),
            expect![[r#"
                resolution qualified
                src/shapes/circle.ts:4 Circle
            "#]],
        )
        .await;
        server.stop().await;
    }

    #[tokio::test]
    async fn references_are_exact_and_complete() {
        let server = serve("typescript").await;
        check(
            &server,
            "find_references",
            json!({ "symbol": "areaOf", "path": "src/shapes/area.ts" }),
            expect![[r#"
                src/shapes/area.ts:4 declaration declaration
                src/main.ts:6 call qualified
                src/report.ts:2 import import
                src/report.ts:8 call import
                src/shapes/index.ts:2 import import
                completeness: ambiguous 0, complete, name_only 0, possibly_missed 0, resolved 4
                  note: every same-named reference in the workspace was resolved; these are all of them
            "#]],
        )
        .await;
        check(
            &server,
            "find_references",
            json!({ "symbol": "Circle", "path": "src/shapes/circle.ts", "include_declaration": false }),
            expect![[r#"
                src/main.ts:6 call qualified
                src/report.ts:2 import import
                src/report.ts:6 call import
                src/shapes/index.ts:3 import import
                completeness: ambiguous 0, complete, name_only 0, possibly_missed 0, resolved 4
                  note: every same-named reference in the workspace was resolved; these are all of them
            "#]],
        )
        .await;
        // `import type` and `export type` count; the decoy's `implements
        // Shape` is the decoy interface's.
        check(
            &server,
            "find_references",
            json!({ "symbol": "Shape", "path": "src/shapes/shape.ts", "include_declaration": false }),
            expect![[r#"
                src/shapes/area.ts:1 import import
                src/shapes/area.ts:4 type import
                src/shapes/circle.ts:1 import import
                src/shapes/circle.ts:4 implements import
                src/shapes/index.ts:5 import import
                src/shapes/square.ts:1 import import
                src/shapes/square.ts:9 implements import
                completeness: ambiguous 0, complete, name_only 0, possibly_missed 0, resolved 7
                  note: every same-named reference in the workspace was resolved; these are all of them
            "#]],
        )
        .await;
        check(
            &server,
            "find_references",
            json!({ "symbol": "Shape", "path": "src/legacy.ts", "include_declaration": false }),
            expect![[r#"
                src/legacy.ts:14 implements scope
                completeness: ambiguous 0, complete, name_only 0, possibly_missed 0, resolved 1
                  note: every same-named reference in the workspace was resolved; these are all of them
            "#]],
        )
        .await;
        // The decoy function and class have no references at all.
        check(
            &server,
            "find_references",
            json!({ "symbol": "areaOf", "path": "src/legacy.ts", "include_declaration": false }),
            expect![[r#"
                completeness: ambiguous 0, complete, name_only 0, possibly_missed 0, resolved 0
                  note: every same-named reference in the workspace was resolved; these are all of them
            "#]],
        )
        .await;
        check(
            &server,
            "find_references",
            json!({ "symbol": "Circle", "path": "src/legacy.ts", "include_declaration": false }),
            expect![[r#"
                completeness: ambiguous 0, complete, name_only 0, possibly_missed 0, resolved 0
                  note: every same-named reference in the workspace was resolved; these are all of them
            "#]],
        )
        .await;
        server.stop().await;
    }

    #[tokio::test]
    async fn ambiguous_names_are_refused_with_candidates() {
        let server = serve("typescript").await;
        check(
            &server,
            "find_references",
            json!({ "symbol": "areaOf" }),
            expect![[r#"
                error SYMBOL_AMBIGUOUS: `areaOf` matches 2 declarations; say which one
                candidates:
                  src/legacy.ts:4 function areaOf
                  src/shapes/area.ts:4 function areaOf
                field: "symbol"
                symbolName: "areaOf"
            "#]],
        )
        .await;
        check(
            &server,
            "find_implementations",
            json!({ "symbol": "Shape" }),
            expect![[r#"
                error SYMBOL_AMBIGUOUS: `Shape` matches 2 declarations; say which one
                candidates:
                  src/legacy.ts:9 interface Shape
                  src/shapes/shape.ts:2 interface Shape
                field: "symbol"
                symbolName: "Shape"
            "#]],
        )
        .await;
        check(
            &server,
            "find_references",
            json!({ "symbol": "areaOff" }),
            expect![[r#"
                error SYMBOL_NOT_FOUND: no symbol `areaOff` found
                field: "symbol"
                nearbySymbols:
                  areaOf
                  area
                symbolName: "areaOff"
            "#]],
        )
        .await;
        server.stop().await;
    }

    #[tokio::test]
    async fn call_hierarchy_both_ways() {
        let server = serve("typescript").await;
        check(
            &server,
            "get_call_hierarchy",
            json!({ "symbol": "summary", "direction": "both" }),
            expect![[r#"
                incoming:
                  twice (src/report.ts) scope
                outgoing:
                  areaOf (src/shapes/area.ts) import
                  Circle (src/shapes/circle.ts) import
                  Square (src/shapes/square.ts) import
                incoming_completeness: ambiguous 0, complete, name_only 0, possibly_missed 0, resolved 1
                  note: every same-named reference in the workspace was resolved; these are all of them
                outgoing_completeness: complete, unresolved_calls 0
                  note: every call in the body resolved
            "#]],
        )
        .await;
        check(
            &server,
            "get_call_hierarchy",
            json!({ "symbol": "main", "direction": "outgoing" }),
            expect![[r#"
                outgoing:
                  twice (src/report.ts) import
                  areaOf (src/shapes/area.ts) qualified
                  Circle (src/shapes/circle.ts) qualified
                outgoing_completeness: complete, unresolved_calls 0
                  note: every call in the body resolved
            "#]],
        )
        .await;
        check(
            &server,
            "get_call_hierarchy",
            json!({ "symbol": "areaOf", "path": "src/shapes/area.ts", "direction": "incoming", "depth": 2 }),
            expect![[r#"
                incoming:
                  main (src/main.ts) qualified
                  summary (src/report.ts) import
                    twice (src/report.ts) scope
                incoming_completeness: ambiguous 0, complete, name_only 0, possibly_missed 0, resolved 2
                  note: every same-named reference in the workspace was resolved; these are all of them
            "#]],
        )
        .await;
        server.stop().await;
    }

    #[tokio::test]
    async fn implementations_of_an_interface_and_a_base_class() {
        let server = serve("typescript").await;
        check(
            &server,
            "find_implementations",
            json!({ "symbol": "Shape", "path": "src/shapes/shape.ts" }),
            expect![[r#"
                export class Circle implements Shape IMPLEMENTS (src/shapes/circle.ts)
                export class Square extends Polygon implements Shape IMPLEMENTS (src/shapes/square.ts)
                completeness: complete, name_only 0
                  note: implementations are found from base lists and implements clauses written in the workspace; types from dependencies are not indexed
            "#]],
        )
        .await;
        check(
            &server,
            "find_implementations",
            json!({ "symbol": "Shape", "path": "src/legacy.ts" }),
            expect![[r#"
                export class Circle implements Shape IMPLEMENTS (src/legacy.ts)
                completeness: complete, name_only 0
                  note: implementations are found from base lists and implements clauses written in the workspace; types from dependencies are not indexed
            "#]],
        )
        .await;
        check(
            &server,
            "find_implementations",
            json!({ "symbol": "Polygon" }),
            expect![[r#"
                export class Square extends Polygon implements Shape EXTENDS (src/shapes/square.ts)
                completeness: complete, name_only 0
                  note: implementations are found from base lists and implements clauses written in the workspace; types from dependencies are not indexed
            "#]],
        )
        .await;
        server.stop().await;
    }

    #[tokio::test]
    async fn graph_tools_answer_in_the_spec_text_format() {
        let server = serve("typescript").await;
        // The decoy is not a dependent, nothing depends on it, and no path
        // leads from it.
        check(
            &server,
            "dependents_of",
            json!({ "file_path": "src/shapes/area.ts", "symbol": "areaOf" }),
            expect![[r#"
                ## Graph

                main --CALLS--> areaOf
                main --CALLS--> twice --CALLS--> summary --CALLS--> areaOf

                ## Nodes

                main:
                  file: src/main.ts
                  offset: 5, limit: 4
                  snippet:
                    5: export function main(): string {
                    6:   const unit = shapes.areaOf([new shapes.Circle(1)]);
                    7:   return twice(unit);
                    8: }

                summary:
                  file: src/report.ts
                  offset: 5, limit: 6
                  snippet:
                    5: export function summary(radius: number, side: number): string {
                    6:   const circle = new Circle(radius);
                    7:   const square = new Square(side);
                    8:   const total = areaOf([circle, square]);
                    9:   return `total area ${total}`;
                    10: }

                twice:
                  file: src/report.ts
                  offset: 13, limit: 4
                  snippet:
                    13: export function twice(radius: number): string {
                    14:   const line = summary(radius, radius);
                    15:   return `${line}\n${line}`;
                    16: }
            "#]],
        )
        .await;
        check(
            &server,
            "dependents_of",
            json!({ "file_path": "src/legacy.ts", "symbol": "areaOf" }),
            expect![[r#"
                ## Graph

                areaOf

                ## Nodes

                (none)
            "#]],
        )
        .await;
        check(
            &server,
            "paths_between",
            json!({
                "from": { "file_path": "src/legacy.ts", "symbol": "areaOf" },
                "to": { "file_path": "src/main.ts", "symbol": "main" }
            }),
            expect!["No path found."],
        )
        .await;
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
        check(
            &server,
            "find_definition",
            json!({ "path": "report/report.go", "line": 11, "character": 19 }),
            expect![[r#"
                resolution qualified
                shapes/shapes.go:21 NewCircle
            "#]],
        )
        .await;
        check(
            &server,
            "find_definition",
            json!({ "path": "report/report.go", "line": 13, "character": 17 }),
            expect![[r#"
                resolution qualified
                shapes/area.go:4 AreaOf
            "#]],
        )
        .await;
        check(
            &server,
            "find_definition",
            json!({ "path": "report/report.go", "line": 13, "character": 34 }),
            expect![[r#"
                resolution qualified
                shapes/shapes.go:5 Shape
            "#]],
        )
        .await;
        server.stop().await;
    }

    #[tokio::test]
    async fn references_are_exact_and_complete() {
        let server = serve("go").await;
        check(
            &server,
            "find_references",
            json!({ "symbol": "AreaOf", "path": "shapes/area.go" }),
            expect![[r#"
                shapes/area.go:4 declaration declaration
                report/report.go:14 call qualified
                completeness: ambiguous 0, complete, name_only 0, possibly_missed 0, resolved 1
                  note: every same-named reference in the workspace was resolved; these are all of them
            "#]],
        )
        .await;
        // `Shape` is used by the other file of its package without a
        // qualifier, and by report.go through the import.
        check(
            &server,
            "find_references",
            json!({ "symbol": "Shape", "include_declaration": false }),
            expect![[r#"
                report/report.go:14 type qualified
                shapes/area.go:4 type scope
                shapes/shapes.go:11 extends scope
                completeness: ambiguous 0, complete, name_only 0, possibly_missed 0, resolved 3
                  note: every same-named reference in the workspace was resolved; these are all of them
            "#]],
        )
        .await;
        check(
            &server,
            "find_references",
            json!({ "symbol": "Twice", "include_declaration": false }),
            expect![[r#"
                main.go:10 call qualified
                completeness: ambiguous 0, complete, name_only 0, possibly_missed 0, resolved 1
                  note: every same-named reference in the workspace was resolved; these are all of them
            "#]],
        )
        .await;
        // The decoys are used only inside their own package.
        check(
            &server,
            "find_references",
            json!({ "symbol": "AreaOf", "path": "legacy/legacy.go", "include_declaration": false }),
            expect![[r#"
                completeness: ambiguous 0, complete, name_only 0, possibly_missed 0, resolved 0
                  note: every same-named reference in the workspace was resolved; these are all of them
            "#]],
        )
        .await;
        check(
            &server,
            "find_references",
            json!({ "symbol": "NewCircle", "path": "legacy/legacy.go", "include_declaration": false }),
            expect![[r#"
                completeness: ambiguous 0, complete, name_only 0, possibly_missed 0, resolved 0
                  note: every same-named reference in the workspace was resolved; these are all of them
            "#]],
        )
        .await;
        check(
            &server,
            "find_references",
            json!({ "symbol": "Circle", "path": "legacy/legacy.go", "include_declaration": false }),
            expect![[r#"
                legacy/legacy.go:14 type scope
                legacy/legacy.go:15 type scope
                completeness: ambiguous 0, complete, name_only 0, possibly_missed 0, resolved 2
                  note: every same-named reference in the workspace was resolved; these are all of them
            "#]],
        )
        .await;
        check(
            &server,
            "find_references",
            json!({ "symbol": "Circle", "path": "shapes/shapes.go", "include_declaration": false }),
            expect![[r#"
                shapes/shapes.go:21 type scope
                shapes/shapes.go:22 type scope
                shapes/shapes.go:26 type scope
                completeness: ambiguous 0, complete, name_only 0, possibly_missed 0, resolved 3
                  note: every same-named reference in the workspace was resolved; these are all of them
            "#]],
        )
        .await;
        // `s.Area()` on a `Shape` from `for _, s := range shapes` with
        // `shapes []Shape`: the element's type, the interface's method.
        check(
            &server,
            "find_references",
            json!({ "symbol": "Shape.Area", "include_declaration": false }),
            expect![[r#"
                shapes/area.go:7 call qualified
                completeness: ambiguous 0, complete, name_only 0, possibly_missed 0, resolved 1
                  note: every same-named reference in the workspace was resolved; these are all of them
            "#]],
        )
        .await;
        server.stop().await;
    }

    #[tokio::test]
    async fn ambiguous_names_are_refused_with_candidates() {
        let server = serve("go").await;
        check(
            &server,
            "find_references",
            json!({ "symbol": "AreaOf" }),
            expect![[r#"
                error SYMBOL_AMBIGUOUS: `AreaOf` matches 2 declarations; say which one
                candidates:
                  legacy/legacy.go:6 function AreaOf
                  shapes/area.go:4 function AreaOf
                field: "symbol"
                symbolName: "AreaOf"
            "#]],
        )
        .await;
        check(
            &server,
            "find_references",
            json!({ "symbol": "Circle" }),
            expect![[r#"
                error SYMBOL_AMBIGUOUS: `Circle` matches 2 declarations; say which one
                candidates:
                  legacy/legacy.go:11 struct Circle
                  shapes/shapes.go:16 struct Circle
                field: "symbol"
                symbolName: "Circle"
            "#]],
        )
        .await;
        check(
            &server,
            "find_references",
            json!({ "symbol": "AreaOff" }),
            expect![[r#"
                error SYMBOL_NOT_FOUND: no symbol `AreaOff` found
                field: "symbol"
                nearbySymbols:
                  AreaOf
                  Area
                symbolName: "AreaOff"
            "#]],
        )
        .await;
        server.stop().await;
    }

    #[tokio::test]
    async fn call_hierarchy_both_ways() {
        let server = serve("go").await;
        // `shapes.Square{...}` is a composite literal, not a call;
        // `fmt.Sprintf` is in the standard library, not in the workspace.
        check(
            &server,
            "get_call_hierarchy",
            json!({ "symbol": "Summary", "direction": "both" }),
            expect![[r#"
                incoming:
                  Twice (report/report.go) scope
                outgoing:
                  AreaOf (shapes/area.go) qualified
                  NewCircle (shapes/shapes.go) qualified
                incoming_completeness: ambiguous 0, complete, name_only 0, possibly_missed 0, resolved 1
                  note: every same-named reference in the workspace was resolved; these are all of them
                outgoing_completeness: complete, external_names ["Sprintf"], unresolved_calls 0
                  note: every call to a workspace declaration resolved; the external names are declared nowhere in the workspace (library or built-in code)
            "#]],
        )
        .await;
        check(
            &server,
            "get_call_hierarchy",
            json!({ "symbol": "AreaOf", "path": "shapes/area.go", "direction": "incoming", "depth": 3 }),
            expect![[r#"
                incoming:
                  Summary (report/report.go) qualified
                    Twice (report/report.go) scope
                      main (main.go) qualified
                incoming_completeness: ambiguous 0, complete, name_only 0, possibly_missed 0, resolved 1
                  note: every same-named reference in the workspace was resolved; these are all of them
            "#]],
        )
        .await;
        server.stop().await;
    }

    /// Go types satisfy interfaces implicitly: nothing in the source says
    /// that `*Circle` and `Square` implement `Shape` (or that `Square`
    /// implements `Polygon`), so a syntactic index cannot list them. What it
    /// can see is interface embedding: `Polygon` embeds `Shape`. The answer
    /// says where implementations come from.
    #[tokio::test]
    async fn implementations_are_embeddings_only() {
        let server = serve("go").await;
        check(
            &server,
            "find_implementations",
            json!({ "symbol": "Shape" }),
            expect![[r#"
                type Polygon interface EXTENDS (shapes/shapes.go)
                completeness: complete, name_only 0
                  note: implementations are found from base lists and implements clauses written in the workspace; types from dependencies are not indexed
            "#]],
        )
        .await;
        check(
            &server,
            "find_implementations",
            json!({ "symbol": "Polygon" }),
            expect![[r#"
                completeness: complete, name_only 0
                  note: implementations are found from base lists and implements clauses written in the workspace; types from dependencies are not indexed
            "#]],
        )
        .await;
        server.stop().await;
    }

    #[tokio::test]
    async fn graph_tools_answer_in_the_spec_text_format() {
        let server = serve("go").await;
        // The decoy is not a dependent, nothing depends on it, and no path
        // leads from it.
        check(
            &server,
            "dependents_of",
            json!({ "file_path": "shapes/area.go", "symbol": "AreaOf" }),
            expect![[r###"
                ## Graph

                main --CALLS--> Twice --CALLS--> Summary --CALLS--> AreaOf

                ## Nodes

                main:
                  file: main.go
                  offset: 9, limit: 3
                  snippet:
                    9: func main() {
                    10: 	fmt.Println(report.Twice(1))
                    11: }

                Summary:
                  file: report/report.go
                  offset: 11, limit: 6
                  snippet:
                    11: func Summary(radius, side float64) string {
                    12: 	circle := shapes.NewCircle(radius)
                    13: 	square := shapes.Square{Length: side}
                    14: 	total := shapes.AreaOf([]shapes.Shape{circle, square})
                    15: 	return fmt.Sprintf("total area %v", total)
                    16: }

                Twice:
                  file: report/report.go
                  offset: 19, limit: 4
                  snippet:
                    19: func Twice(radius float64) string {
                    20: 	line := Summary(radius, radius)
                    21: 	return line + "\n" + line
                    22: }
            "###]],
        )
        .await;
        check(
            &server,
            "dependents_of",
            json!({ "file_path": "legacy/legacy.go", "symbol": "AreaOf" }),
            expect![[r#"
                ## Graph

                AreaOf

                ## Nodes

                (none)
            "#]],
        )
        .await;
        check(
            &server,
            "paths_between",
            json!({
                "from": { "file_path": "shapes/shapes.go", "symbol": "NewCircle" },
                "to": { "file_path": "report/report.go", "symbol": "Twice" }
            }),
            expect![[r###"
                ## Graph

                Twice --CALLS--> Summary --CALLS--> NewCircle

                ## Nodes

                Summary:
                  file: report/report.go
                  offset: 11, limit: 6
                  snippet:
                    11: func Summary(radius, side float64) string {
                    12: 	circle := shapes.NewCircle(radius)
                    13: 	square := shapes.Square{Length: side}
                    14: 	total := shapes.AreaOf([]shapes.Shape{circle, square})
                    15: 	return fmt.Sprintf("total area %v", total)
                    16: }
            "###]],
        )
        .await;
        check(
            &server,
            "paths_between",
            json!({
                "from": { "file_path": "legacy/legacy.go", "symbol": "NewCircle" },
                "to": { "file_path": "report/report.go", "symbol": "Twice" }
            }),
            expect!["No path found."],
        )
        .await;
        server.stop().await;
    }
}

/// Java: a Maven source root `src/main/java` with packages
/// `com.geo.shapes` (an interface, two classes implementing it, and
/// `Areas` with two overloads of `areaOf` of one parameter each),
/// `com.geo.report` (imports the shapes by name) and `com.geo.app`.
/// Package `com.geo.legacy` declares `areaOf` and a nested `Circle` again
/// and is never imported.
mod java {
    use super::*;

    const REPORT: &str = "src/main/java/com/geo/report/Report.java";

    #[tokio::test]
    async fn definition_follows_the_import_not_the_decoy() {
        let server = serve("java").await;
        // In Report.java: `new Circle(` (line 11, column 29) and
        // `Areas.areaOf(` (line 13, column 31): two overloads take one
        // argument, so the call is one of them, not known which.
        check(
            &server,
            "find_definition",
            json!({ "path": REPORT, "line": 10, "character": 29 }),
            expect![[r#"
                resolution import
                src/main/java/com/geo/shapes/Circle.java:3 Circle
            "#]],
        )
        .await;
        check(
            &server,
            "find_definition",
            json!({ "path": REPORT, "line": 12, "character": 31 }),
            expect![[r#"
                resolution qualified
                src/main/java/com/geo/shapes/Areas.java:8 areaOf (confidence 0.50)
                src/main/java/com/geo/shapes/Areas.java:16 areaOf (confidence 0.50)
            "#]],
        )
        .await;
        server.stop().await;
    }

    #[tokio::test]
    async fn references_are_exact_and_complete() {
        let server = serve("java").await;
        check(
            &server,
            "find_references",
            json!({ "symbol": "Circle", "path": "src/main/java/com/geo/shapes/Circle.java" }),
            expect![[r#"
                src/main/java/com/geo/shapes/Circle.java:3 declaration declaration
                src/main/java/com/geo/report/Report.java:4 import import
                src/main/java/com/geo/report/Report.java:11 type import
                src/main/java/com/geo/report/Report.java:11 call import
                completeness: ambiguous 0, complete, name_only 0, possibly_missed 0, resolved 3
                  note: every same-named reference in the workspace was resolved; these are all of them
            "#]],
        )
        .await;
        // Calls on values typed `Shape`; the classes' own `area` methods
        // are other declarations.
        check(
            &server,
            "find_references",
            json!({ "symbol": "Shape.area" }),
            expect![[r#"
                src/main/java/com/geo/shapes/Shape.java:5 declaration declaration
                src/main/java/com/geo/shapes/Areas.java:11 call qualified
                src/main/java/com/geo/shapes/Areas.java:17 call qualified
                completeness: ambiguous 0, complete, name_only 0, possibly_missed 0, resolved 2
                  note: every same-named reference in the workspace was resolved; these are all of them
            "#]],
        )
        .await;
        server.stop().await;
    }

    #[tokio::test]
    async fn call_hierarchy_both_ways() {
        let server = serve("java").await;
        check(
            &server,
            "get_call_hierarchy",
            json!({ "symbol": "summary", "direction": "both" }),
            expect![[r#"
                incoming:
                  twice (src/main/java/com/geo/report/Report.java) scope
                outgoing:
                  areaOf (src/main/java/com/geo/shapes/Areas.java) qualified (confidence 0.50)
                  areaOf (src/main/java/com/geo/shapes/Areas.java) qualified (confidence 0.50)
                  Circle (src/main/java/com/geo/shapes/Circle.java) import
                  Square (src/main/java/com/geo/shapes/Square.java) import
                incoming_completeness: ambiguous 0, complete, name_only 0, possibly_missed 0, resolved 2
                  note: every same-named reference in the workspace was resolved; these are all of them
                outgoing_completeness: complete, external_names ["format","of"], unresolved_calls 0
                  note: every call to a workspace declaration resolved; the external names are declared nowhere in the workspace (library or built-in code)
            "#]],
        )
        .await;
        check(
            &server,
            "get_call_hierarchy",
            json!({ "symbol": "twice", "direction": "incoming", "depth": 2 }),
            expect![[r#"
                incoming:
                  main (src/main/java/com/geo/app/Main.java) qualified
                incoming_completeness: ambiguous 0, complete, name_only 0, possibly_missed 0, resolved 1
                  note: every same-named reference in the workspace was resolved; these are all of them
            "#]],
        )
        .await;
        server.stop().await;
    }

    #[tokio::test]
    async fn implementations_from_implements_clauses() {
        let server = serve("java").await;
        check(
            &server,
            "find_implementations",
            json!({ "symbol": "Shape" }),
            expect![[r#"
                public class Circle implements Shape IMPLEMENTS (src/main/java/com/geo/shapes/Circle.java)
                public class Square implements Shape IMPLEMENTS (src/main/java/com/geo/shapes/Square.java)
                completeness: complete, name_only 0
                  note: implementations are found from base lists and implements clauses written in the workspace; types from dependencies are not indexed
            "#]],
        )
        .await;
        server.stop().await;
    }
}
