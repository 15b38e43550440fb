//! Exact answers of `find_type_definition`, `get_symbol_info`, `node_at`,
//! `node_source` and `dependencies_of` in all four languages, on the
//! navigation fixtures (`tests/fixtures/nav/<language>`: shapes, a report
//! and a legacy module repeating the names) and on
//! `tests/fixtures/tools/<language>` (points and segments whose fields,
//! properties, constants, parameters and locals have written types, and a
//! decoy `Point` elsewhere), plus each tool's errors: a stable code and the
//! field at fault.
//!
//! Lines in declaration views (`range`) are zero-based (typemill-api.md);
//! the helpers print them 1-based, as an editor shows them. `node_at` and
//! `node_source` speak 1-based lines themselves (codetextor-api.md).
//!
//! Tests marked `#[ignore]` state the answer a user should get where the
//! tool answers something else today; the reason says what is wrong.

use lingo_e2e::{McpServer, ToolOutcome, fixture};
use serde_json::{Value, json};

async fn serve(name: &str) -> McpServer {
    McpServer::start(&fixture(name), &[])
        .await
        .unwrap_or_else(|e| panic!("start lingo on fixture {name}: {e}"))
}

/// `file:line kind name` (1-based line) of a declaration view.
fn place(view: &Value) -> String {
    format!(
        "{}:{} {} {}",
        view["file_path"].as_str().unwrap_or("?"),
        view["range"]["start"]["line"].as_u64().map_or(0, |l| l + 1),
        view["kind"].as_str().unwrap_or("?"),
        view["name"].as_str().unwrap_or("?"),
    )
}

/// `file:line kind name (resolution)` of each type definition found.
fn types(answer: &Value) -> Vec<String> {
    answer["type_definitions"]
        .as_array()
        .unwrap_or_else(|| panic!("no type_definitions: {answer:#}"))
        .iter()
        .map(|t| format!("{} ({})", place(t), t["resolution"].as_str().unwrap_or("?")))
        .collect()
}

/// `kind name (line N)` (1-based line) of each member, sorted.
fn members(info: &Value) -> Vec<String> {
    let mut found = members_in_order(info);
    found.sort();
    found
}

/// `kind name (line N)` (1-based line) of each member, as answered.
fn members_in_order(info: &Value) -> Vec<String> {
    info["members"]
        .as_array()
        .unwrap_or_else(|| panic!("no members: {info:#}"))
        .iter()
        .map(|m| {
            format!(
                "{} {} (line {})",
                m["kind"].as_str().unwrap_or("?"),
                m["name"].as_str().unwrap_or("?"),
                m["line"].as_u64().map_or(0, |l| l + 1),
            )
        })
        .collect()
}

/// The error of a failed call, after checking its code and the field the
/// details blame.
fn expect_error(outcome: ToolOutcome, code: &str, field: &str) -> Value {
    let error = outcome.err();
    assert_eq!(error["code"], json!(code), "{error:#}");
    assert_eq!(error["details"]["field"], json!(field), "{error:#}");
    error
}

/// The lines of the Graph section of a graph tool's text answer.
fn graph_lines(text: &str) -> Vec<&str> {
    let graph = text
        .strip_prefix("## Graph\n\n")
        .unwrap_or_else(|| panic!("no Graph section first:\n{text}"));
    let (graph, _) = graph
        .split_once("\n## Nodes\n\n")
        .unwrap_or_else(|| panic!("no Nodes section:\n{text}"));
    graph.lines().collect()
}

/// The entries of the Nodes section, in order (without the notes).
fn node_entries(text: &str) -> Vec<&str> {
    let (_, nodes) = text
        .split_once("\n## Nodes\n\n")
        .unwrap_or_else(|| panic!("no Nodes section:\n{text}"));
    nodes
        .split("\n\n")
        .filter(|entry| !entry.trim().is_empty() && !entry.starts_with("Note:"))
        .collect()
}

/// The names listed in the Nodes section, in order.
fn node_names(text: &str) -> Vec<&str> {
    node_entries(text)
        .into_iter()
        .map(|entry| entry.lines().next().unwrap().trim_end_matches(':'))
        .collect()
}

/// The Nodes entry of `name` (from `name:` to its last snippet line).
fn node_entry<'t>(text: &'t str, name: &str) -> &'t str {
    let header = format!("{name}:\n");
    node_entries(text)
        .into_iter()
        .find(|entry| entry.starts_with(&header))
        .unwrap_or_else(|| panic!("no Nodes entry for {name}:\n{text}"))
        .trim_end_matches('\n')
}

// ---------------------------------------------------------------------------
// find_type_definition
// ---------------------------------------------------------------------------

mod find_type_definition {
    use super::*;

    async fn types_at(server: &McpServer, path: &str, line: u32, character: u32) -> Value {
        server
            .call(
                "find_type_definition",
                json!({ "path": path, "line": line, "character": character }),
            )
            .await
            .ok()
    }

    async fn types_of(server: &McpServer, path: &str, symbol: &str) -> Value {
        server
            .call(
                "find_type_definition",
                json!({ "path": path, "symbol": symbol }),
            )
            .await
            .ok()
    }

    /// Fields, a parameter behind `&`, an annotated local and a local read
    /// later: each the canvas's `Point`/`Segment`, never the decoy's.
    #[tokio::test]
    async fn rust_fields_parameters_and_annotated_locals() {
        let server = serve("tools/rust").await;
        let point = ["src/canvas.rs:4 struct Point (scope)"];

        let from = types_of(&server, "src/canvas.rs", "from").await;
        assert_eq!(place(&from["symbol"]), "src/canvas.rs:11 field from");
        assert_eq!(types(&from), point, "{from:#}");
        assert_eq!(from["type_definitions"][0]["written_as"], json!("Point"));
        assert_eq!(from["unresolved_types"], json!([]));
        let to = types_of(&server, "src/canvas.rs", "Segment::to").await;
        assert_eq!(types(&to), point, "{to:#}");

        // `pub fn width(segment: &Segment) -> i64`
        let segment = types_at(&server, "src/canvas.rs", 18, 13).await;
        assert_eq!(segment["symbol"]["name"], json!("segment"));
        assert_eq!(segment["symbol"]["language_kind"], json!("parameter"));
        assert_eq!(segment["symbol"]["local"], json!(true));
        assert_eq!(
            types(&segment),
            ["src/canvas.rs:10 struct Segment (scope)"],
            "{segment:#}"
        );
        // `let start: &Point = &segment.from;`
        let start = types_at(&server, "src/canvas.rs", 19, 8).await;
        assert_eq!(start["symbol"]["name"], json!("start"));
        assert_eq!(types(&start), point, "{start:#}");
        // `end.x - start.x`: on a use of the local `end: Point`, its type.
        let end = types_at(&server, "src/canvas.rs", 21, 4).await;
        assert_eq!(end["symbol"]["name"], json!("end"));
        assert_eq!(
            end["symbol"]["range"]["start"]["line"],
            json!(20),
            "the declaration of `end`: {end:#}"
        );
        assert_eq!(types(&end), point, "{end:#}");

        // `pub x: i64`: a type of the language, not of the workspace.
        let x = server
            .call(
                "find_type_definition",
                json!({ "path": "src/canvas.rs", "symbol": "x" }),
            )
            .await;
        let error = expect_error(x, "TYPE_NOT_FOUND", "symbol");
        assert_eq!(error["details"]["symbolName"], json!("x"));
        server.stop().await;
    }

    /// `let circle = Circle::new(radius)` (a constructor of a written type)
    /// and `let square = Square { side }` (a literal) through the `use` of
    /// report.rs, not the legacy module's `Circle`; a `&[&dyn Shape]`
    /// parameter; a type itself; and the refusals.
    #[tokio::test]
    async fn rust_locals_follow_the_import_and_bad_requests_are_refused() {
        let server = serve("nav/rust").await;
        let circle = types_at(&server, "src/report.rs", 6, 8).await;
        assert_eq!(circle["symbol"]["name"], json!("circle"));
        assert_eq!(
            types(&circle),
            ["src/shapes.rs:9 struct Circle (import)"],
            "{circle:#}"
        );
        let square = types_at(&server, "src/report.rs", 7, 8).await;
        assert_eq!(
            types(&square),
            ["src/shapes.rs:26 struct Square (import)"],
            "{square:#}"
        );
        let shapes = types_at(&server, "src/shapes.rs", 36, 15).await;
        assert_eq!(shapes["symbol"]["name"], json!("shapes"));
        assert_eq!(
            types(&shapes),
            ["src/shapes.rs:4 interface Shape (scope)"],
            "{shapes:#}"
        );
        assert_eq!(
            shapes["type_definitions"][0]["language_kind"],
            json!("trait")
        );

        // On a type, the type itself.
        let on_type = types_of(&server, "src/shapes.rs", "Circle").await;
        assert_eq!(
            types(&on_type),
            ["src/shapes.rs:9 struct Circle (declaration)"]
        );

        // A function has a signature, not a type definition.
        let function = server
            .call(
                "find_type_definition",
                json!({ "path": "src/shapes.rs", "symbol": "area_of" }),
            )
            .await;
        let error = expect_error(function, "INVALID_PARAM", "symbol");
        let message = error["message"].as_str().unwrap();
        assert!(message.contains("`area_of` is a function"), "{error:#}");

        // Positions outside the file: the line, then the character.
        let past_the_end = server
            .call(
                "find_type_definition",
                json!({ "path": "src/shapes.rs", "line": 99, "character": 0 }),
            )
            .await;
        let error = expect_error(past_the_end, "INVALID_LINE_NUMBER", "line");
        assert_eq!(error["details"]["lineCount"], json!(39));
        assert_eq!(error["details"]["line"], json!(99));
        let past_the_line = server
            .call(
                "find_type_definition",
                json!({ "path": "src/shapes.rs", "line": 36, "character": 99 }),
            )
            .await;
        expect_error(past_the_line, "INVALID_LINE_NUMBER", "character");

        // Unknown and ambiguous names.
        let unknown = server
            .call("find_type_definition", json!({ "symbol": "Circel" }))
            .await;
        let error = expect_error(unknown, "SYMBOL_NOT_FOUND", "symbol");
        assert_eq!(error["details"]["nearbySymbols"], json!(["Circle"]));
        let ambiguous = server
            .call("find_type_definition", json!({ "symbol": "Circle" }))
            .await;
        let error = expect_error(ambiguous, "SYMBOL_AMBIGUOUS", "symbol");
        assert_eq!(
            error["details"]["candidates"],
            json!([
                "src/legacy.rs:9 struct Circle",
                "src/shapes.rs:9 struct Circle"
            ])
        );
        // No way to name anything.
        let nothing = server.call("find_type_definition", json!({})).await;
        expect_error(nothing, "INVALID_PARAM", "symbol");
        let no_line = server
            .call("find_type_definition", json!({ "path": "src/shapes.rs" }))
            .await;
        expect_error(no_line, "MISSING_REQUIRED_PARAM", "line");
        server.stop().await;
    }

    /// `pub const ORIGIN: Point = Point { x: 0, y: 0 };` has one type.
    #[tokio::test]
    async fn rust_constant_has_its_type_once() {
        let server = serve("tools/rust").await;
        let origin = types_of(&server, "src/canvas.rs", "ORIGIN").await;
        assert_eq!(
            types(&origin),
            ["src/canvas.rs:4 struct Point (scope)"],
            "{origin:#}"
        );
        server.stop().await;
    }

    #[tokio::test]
    async fn typescript_fields_constants_parameters_and_locals() {
        let server = serve("tools/typescript").await;
        let point = ["src/canvas.ts:4 interface Point (scope)"];
        for symbol in ["from", "Segment.to", "ORIGIN"] {
            let answer = types_of(&server, "src/canvas.ts", symbol).await;
            assert_eq!(types(&answer), point, "{symbol}: {answer:#}");
        }
        let origin = types_of(&server, "src/canvas.ts", "ORIGIN").await;
        assert_eq!(place(&origin["symbol"]), "src/canvas.ts:21 constant ORIGIN");

        // `export function width(segment: Segment): number`
        let segment = types_at(&server, "src/canvas.ts", 23, 22).await;
        assert_eq!(segment["symbol"]["language_kind"], json!("parameter"));
        assert_eq!(
            types(&segment),
            ["src/canvas.ts:10 class Segment (scope)"],
            "{segment:#}"
        );
        // `const start: Point = segment.from;`, `const end: Point = ...`
        for line in [24, 25] {
            let local = types_at(&server, "src/canvas.ts", line, 8).await;
            assert_eq!(types(&local), point, "line {line}: {local:#}");
        }
        // The constructor's parameter `from: Point` is not the field.
        let parameter = types_at(&server, "src/canvas.ts", 13, 14).await;
        assert_eq!(parameter["symbol"]["language_kind"], json!("parameter"));
        assert_eq!(types(&parameter), point, "{parameter:#}");
        server.stop().await;
    }

    /// `new Circle(...)` and a `Shape[]` parameter through imports (one
    /// through the `shapes/index.ts` re-export), not legacy.ts's `Circle`
    /// and `Shape`; `number` and a function are refused.
    #[tokio::test]
    async fn typescript_types_follow_imports_not_the_decoys() {
        let server = serve("nav/typescript").await;
        let circle = types_at(&server, "src/report.ts", 5, 8).await;
        assert_eq!(
            types(&circle),
            ["src/shapes/circle.ts:4 class Circle (import)"],
            "{circle:#}"
        );
        let square = types_at(&server, "src/report.ts", 6, 8).await;
        assert_eq!(
            types(&square),
            ["src/shapes/square.ts:9 class Square (import)"],
            "{square:#}"
        );
        let shapes = types_at(&server, "src/shapes/area.ts", 3, 23).await;
        assert_eq!(
            types(&shapes),
            ["src/shapes/shape.ts:2 interface Shape (import)"],
            "{shapes:#}"
        );

        // `constructor(public radius: number)`
        let radius = server
            .call(
                "find_type_definition",
                json!({ "path": "src/shapes/circle.ts", "line": 4, "character": 23 }),
            )
            .await;
        let error = expect_error(radius, "TYPE_NOT_FOUND", "symbol");
        assert_eq!(error["details"]["symbolName"], json!("radius"));
        let function = server
            .call(
                "find_type_definition",
                json!({ "path": "src/report.ts", "symbol": "summary" }),
            )
            .await;
        expect_error(function, "INVALID_PARAM", "symbol");
        server.stop().await;
    }

    #[tokio::test]
    async fn go_fields_variables_parameters_and_pointers() {
        let server = serve("tools/go").await;
        let point = ["canvas/canvas.go:5 struct Point (scope)"];
        // `From Point`, `To *Point`, `var Origin Point`.
        for symbol in ["From", "Segment.To", "Origin"] {
            let answer = types_of(&server, "canvas/canvas.go", symbol).await;
            assert_eq!(types(&answer), point, "{symbol}: {answer:#}");
        }
        // `func Width(segment Segment) int`
        let segment = types_at(&server, "canvas/canvas.go", 18, 11).await;
        assert_eq!(segment["symbol"]["name"], json!("segment"));
        assert_eq!(
            types(&segment),
            ["canvas/canvas.go:10 struct Segment (scope)"],
            "{segment:#}"
        );
        // `var start Point = segment.From`
        let start = types_at(&server, "canvas/canvas.go", 19, 5).await;
        assert_eq!(start["symbol"]["name"], json!("start"));
        assert_eq!(types(&start), point, "{start:#}");

        // `X, Y int`
        let x = server
            .call(
                "find_type_definition",
                json!({ "path": "canvas/canvas.go", "symbol": "X" }),
            )
            .await;
        expect_error(x, "TYPE_NOT_FOUND", "symbol");
        let function = server
            .call(
                "find_type_definition",
                json!({ "path": "canvas/canvas.go", "symbol": "Width" }),
            )
            .await;
        expect_error(function, "INVALID_PARAM", "symbol");
        server.stop().await;
    }

    /// `square := shapes.Square{...}` in another package, a method's
    /// receiver `c *Circle`, a `[]Shape` parameter; a method refused.
    #[tokio::test]
    async fn go_literals_receivers_and_qualified_types() {
        let server = serve("nav/go").await;
        let square = types_at(&server, "report/report.go", 12, 1).await;
        assert_eq!(square["symbol"]["name"], json!("square"));
        assert_eq!(
            types(&square),
            ["shapes/shapes.go:31 struct Square (qualified)"],
            "{square:#}"
        );
        let receiver = types_at(&server, "shapes/shapes.go", 25, 6).await;
        assert_eq!(receiver["symbol"]["language_kind"], json!("receiver"));
        assert_eq!(
            types(&receiver),
            ["shapes/shapes.go:16 struct Circle (scope)"],
            "{receiver:#}"
        );
        let shapes = types_at(&server, "shapes/area.go", 3, 12).await;
        assert_eq!(
            types(&shapes),
            ["shapes/shapes.go:5 interface Shape (scope)"],
            "{shapes:#}"
        );
        let method = server
            .call(
                "find_type_definition",
                json!({ "path": "shapes/shapes.go", "symbol": "Circle.Area" }),
            )
            .await;
        let error = expect_error(method, "INVALID_PARAM", "symbol");
        let message = error["message"].as_str().unwrap();
        assert!(message.contains("`Area` is a method"), "{error:#}");
        let unknown = server
            .call("find_type_definition", json!({ "symbol": "AreaOff" }))
            .await;
        let error = expect_error(unknown, "SYMBOL_NOT_FOUND", "symbol");
        assert_eq!(error["details"]["nearbySymbols"][0], json!("AreaOf"));
        server.stop().await;
    }

    /// `total := shapes.AreaOf([]shapes.Shape{circle, square})` is a
    /// float64, the result of a call: no type of the workspace.
    #[tokio::test]
    async fn go_call_result_is_not_the_type_of_its_argument() {
        let server = serve("nav/go").await;
        let total = server
            .call(
                "find_type_definition",
                json!({ "path": "report/report.go", "line": 13, "character": 1 }),
            )
            .await;
        let error = expect_error(total, "TYPE_NOT_FOUND", "symbol");
        assert_eq!(error["details"]["symbolName"], json!("total"));
        server.stop().await;
    }

    #[tokio::test]
    async fn csharp_fields_properties_and_typed_locals() {
        let server = serve("tools/csharp").await;
        let point = ["Canvas/Canvas.cs:4 class Point (scope)"];
        // `public Point From;`, `public Point To { get; set; }`,
        // `public static readonly Point Origin = new Point();`
        for (symbol, kind) in [
            ("From", "field"),
            ("Segment.To", "property"),
            ("Origin", "field"),
        ] {
            let answer = types_of(&server, "Canvas/Canvas.cs", symbol).await;
            assert_eq!(answer["symbol"]["kind"], json!(kind), "{answer:#}");
            assert_eq!(types(&answer), point, "{symbol}: {answer:#}");
        }
        // `Point start = From;`
        let start = types_at(&server, "Canvas/Canvas.cs", 21, 18).await;
        assert_eq!(start["symbol"]["name"], json!("start"));
        assert_eq!(types(&start), point, "{start:#}");
        assert_eq!(
            start["type_definitions"][0]["container"],
            json!("Drawing.Canvas")
        );

        // `public int X`: written, a built-in type, declared nowhere in
        // the workspace.
        let x = types_of(&server, "Canvas/Canvas.cs", "X").await;
        assert_eq!(x["type_definitions"], json!([]), "{x:#}");
        assert_eq!(x["unresolved_types"][0]["name"], json!("int"), "{x:#}");
        let method = server
            .call(
                "find_type_definition",
                json!({ "path": "Canvas/Canvas.cs", "symbol": "Width" }),
            )
            .await;
        let error = expect_error(method, "INVALID_PARAM", "symbol");
        let message = error["message"].as_str().unwrap();
        assert!(message.contains("`Width` is a method"), "{error:#}");
        server.stop().await;
    }

    /// `var circle = new Circle(radius)` names the class of the `using`d
    /// namespace, not Legacy's `Circle`.
    #[tokio::test]
    async fn csharp_constructed_locals_follow_the_using() {
        let server = serve("nav/csharp").await;
        let circle = types_at(&server, "Reports/Report.cs", 10, 12).await;
        assert_eq!(circle["symbol"]["name"], json!("circle"));
        assert_eq!(
            types(&circle),
            ["Shapes/Shapes.cs:10 class Circle (import)"],
            "{circle:#}"
        );
        assert_eq!(
            circle["type_definitions"][0]["container"],
            json!("Geometry.Shapes")
        );
        let square = types_at(&server, "Reports/Report.cs", 11, 12).await;
        assert_eq!(
            types(&square),
            ["Shapes/Shapes.cs:24 class Square (import)"],
            "{square:#}"
        );
        let outside = server
            .call(
                "find_type_definition",
                json!({ "path": "Reports/Report.cs", "line": 400, "character": 0 }),
            )
            .await;
        let error = expect_error(outside, "INVALID_LINE_NUMBER", "line");
        assert_eq!(error["details"]["path"], json!("Reports/Report.cs"));
        server.stop().await;
    }
}

// ---------------------------------------------------------------------------
// get_symbol_info
// ---------------------------------------------------------------------------

mod get_symbol_info {
    use super::*;

    async fn info(server: &McpServer, arguments: Value) -> Value {
        server.call("get_symbol_info", arguments).await.ok()
    }

    #[tokio::test]
    async fn rust_function_trait_and_decoy() {
        let server = serve("nav/rust").await;
        let area_of = info(
            &server,
            json!({ "path": "src/shapes.rs", "symbol": "area_of" }),
        )
        .await;
        assert_eq!(place(&area_of), "src/shapes.rs:37 function area_of");
        assert_eq!(
            area_of["signature"],
            json!("pub fn area_of(shapes: &[&dyn Shape]) -> f64")
        );
        assert_eq!(area_of["doc"], json!("The total area of some shapes."));
        assert_eq!(area_of["module"], json!("geometry::shapes"));
        assert_eq!(area_of["visibility"], json!("public"));
        assert_eq!(area_of["container"], json!(null));
        // Called once (summary); imported and called from report.rs. The
        // legacy `area_of` is another declaration.
        assert_eq!(area_of["callers"], json!({ "certain": 1, "name_only": 0 }));
        assert_eq!(
            area_of["references"],
            json!({ "certain": 2, "name_only": 0 })
        );
        // `s.area()` in `shapes.iter().map(|s| ..)`: an element of the
        // `&[&dyn Shape]`, so the trait's method.
        assert_eq!(area_of["callees"], json!({ "certain": 1, "name_only": 0 }));
        assert_eq!(area_of["metrics"]["parameters"], json!(1));
        assert_eq!(area_of["metrics"]["lines"], json!(3));
        assert_eq!(area_of["metrics"]["cyclomatic"], json!(1));
        assert_eq!(members(&area_of), Vec::<String>::new());

        // The same declaration through its call in report.rs.
        let at_call = info(
            &server,
            json!({ "path": "src/report.rs", "line": 8, "character": 16 }),
        )
        .await;
        assert_eq!(place(&at_call), "src/shapes.rs:37 function area_of");
        assert_eq!(at_call["references"], area_of["references"]);

        let decoy = info(
            &server,
            json!({ "path": "src/legacy.rs", "symbol": "area_of" }),
        )
        .await;
        assert_eq!(decoy["doc"], json!("Not the area a report wants."));
        assert_eq!(decoy["module"], json!("geometry::legacy"));
        assert_eq!(decoy["references"], json!({ "certain": 0, "name_only": 0 }));
        assert_eq!(decoy["callers"], json!({ "certain": 0, "name_only": 0 }));

        let shape = info(&server, json!({ "symbol": "Shape" })).await;
        assert_eq!(place(&shape), "src/shapes.rs:4 interface Shape");
        assert_eq!(shape["language_kind"], json!("trait"));
        assert_eq!(members(&shape), ["method area (line 5)"]);
        assert_eq!(shape["members_total"], json!(1));
        // `impl Shape for Circle`, `impl Shape for Square`, and the
        // `&dyn Shape` of area_of.
        assert_eq!(
            shape["implementations"],
            json!({ "certain": 2, "name_only": 0 })
        );
        assert_eq!(shape["references"], json!({ "certain": 3, "name_only": 0 }));

        let new = info(&server, json!({ "symbol": "Circle::new" })).await;
        assert_eq!(place(&new), "src/shapes.rs:14 method new");
        assert_eq!(new["container"], json!("Circle"));
        assert_eq!(new["signature"], json!("pub fn new(radius: f64) -> Self"));
        assert_eq!(new["callers"], json!({ "certain": 1, "name_only": 0 }));

        // A local: what the index knows is where it is.
        let local = info(
            &server,
            json!({ "path": "src/report.rs", "line": 6, "character": 8 }),
        )
        .await;
        assert_eq!(local["name"], json!("circle"));
        assert_eq!(local["kind"], json!("variable"));
        assert_eq!(local["local"], json!(true));
        assert!(local.get("references").is_none(), "{local:#}");
        server.stop().await;
    }

    #[tokio::test]
    async fn rust_unknown_and_ambiguous_names_are_refused() {
        let server = serve("nav/rust").await;
        let unknown = server
            .call("get_symbol_info", json!({ "symbol": "area_off" }))
            .await;
        let error = expect_error(unknown, "SYMBOL_NOT_FOUND", "symbol");
        assert_eq!(error["details"]["symbolName"], json!("area_off"));
        assert_eq!(error["details"]["nearbySymbols"][0], json!("area_of"));
        let ambiguous = server
            .call("get_symbol_info", json!({ "symbol": "area_of" }))
            .await;
        let error = expect_error(ambiguous, "SYMBOL_AMBIGUOUS", "symbol");
        assert_eq!(
            error["details"]["candidates"],
            json!([
                "src/legacy.rs:4 function area_of",
                "src/shapes.rs:37 function area_of"
            ])
        );
        let no_file = server
            .call(
                "get_symbol_info",
                json!({ "path": "src/shape.rs", "symbol": "Shape" }),
            )
            .await;
        let error = expect_error(no_file, "FILE_NOT_FOUND", "path");
        assert_eq!(
            error["suggestions"][0],
            json!("Did you mean src/shapes.rs?")
        );
        server.stop().await;
    }

    #[tokio::test]
    async fn typescript_function_interface_and_class() {
        let server = serve("nav/typescript").await;
        let area_of = info(
            &server,
            json!({ "path": "src/shapes/area.ts", "symbol": "areaOf" }),
        )
        .await;
        assert_eq!(place(&area_of), "src/shapes/area.ts:4 function areaOf");
        assert_eq!(
            area_of["signature"],
            json!("export function areaOf(shapes: Shape[]): number")
        );
        assert_eq!(area_of["doc"], json!("The total area of some shapes."));
        assert_eq!(area_of["modifiers"], json!(["export"]));
        assert_eq!(area_of["module"], json!("src/shapes/area"));
        // Called by summary (named import) and main (`shapes.areaOf`);
        // also imported by report.ts and re-exported by shapes/index.ts.
        assert_eq!(area_of["callers"], json!({ "certain": 2, "name_only": 0 }));
        assert_eq!(
            area_of["references"],
            json!({ "certain": 4, "name_only": 0 })
        );
        assert_eq!(area_of["metrics"]["parameters"], json!(1));

        // Through the call in report.ts.
        let at_call = info(
            &server,
            json!({ "path": "src/report.ts", "line": 7, "character": 16 }),
        )
        .await;
        assert_eq!(place(&at_call), "src/shapes/area.ts:4 function areaOf");

        let shape = info(
            &server,
            json!({ "path": "src/shapes/shape.ts", "symbol": "Shape" }),
        )
        .await;
        assert_eq!(place(&shape), "src/shapes/shape.ts:2 interface Shape");
        assert_eq!(members(&shape), ["method area (line 3)"]);
        assert_eq!(
            shape["implementations"],
            json!({ "certain": 2, "name_only": 0 })
        );

        let square = info(
            &server,
            json!({ "path": "src/shapes/square.ts", "symbol": "Square" }),
        )
        .await;
        assert_eq!(
            square["signature"],
            json!("export class Square extends Polygon implements Shape")
        );
        assert_eq!(
            members(&square),
            [
                "constructor constructor (line 10)",
                // `constructor(readonly side: number)`: a parameter property.
                "field side (line 10)",
                "method area (line 14)"
            ]
        );
        assert_eq!(square["members_total"], json!(3));
        let ambiguous = server
            .call("get_symbol_info", json!({ "symbol": "areaOf" }))
            .await;
        let error = expect_error(ambiguous, "SYMBOL_AMBIGUOUS", "symbol");
        assert_eq!(
            error["details"]["candidates"],
            json!([
                "src/legacy.ts:4 function areaOf",
                "src/shapes/area.ts:4 function areaOf"
            ])
        );
        server.stop().await;
    }

    #[tokio::test]
    async fn go_function_interface_and_struct() {
        let server = serve("nav/go").await;
        let area_of = info(
            &server,
            json!({ "path": "shapes/area.go", "symbol": "AreaOf" }),
        )
        .await;
        assert_eq!(place(&area_of), "shapes/area.go:4 function AreaOf");
        assert_eq!(
            area_of["signature"],
            json!("func AreaOf(shapes []Shape) float64")
        );
        assert_eq!(
            area_of["doc"],
            json!("AreaOf is the total area of some shapes.")
        );
        assert_eq!(area_of["module"], json!("example.com/geometry/shapes"));
        assert_eq!(area_of["visibility"], json!("public"));
        assert_eq!(area_of["callers"], json!({ "certain": 1, "name_only": 0 }));
        assert_eq!(
            area_of["references"],
            json!({ "certain": 1, "name_only": 0 })
        );
        // A `for` loop: one decision, one level of nesting.
        assert_eq!(area_of["metrics"]["cyclomatic"], json!(2));
        assert_eq!(area_of["metrics"]["max_nesting"], json!(1));
        assert_eq!(area_of["metrics"]["lines"], json!(7));

        // `shapes.AreaOf(...)` in report.go is this one, not legacy's.
        let at_call = info(
            &server,
            json!({ "path": "report/report.go", "line": 13, "character": 17 }),
        )
        .await;
        assert_eq!(place(&at_call), "shapes/area.go:4 function AreaOf");

        let shape = info(
            &server,
            json!({ "path": "shapes/shapes.go", "symbol": "Shape" }),
        )
        .await;
        assert_eq!(place(&shape), "shapes/shapes.go:5 interface Shape");
        assert_eq!(members(&shape), ["method Area (line 6)"]);
        assert_eq!(shape["doc"], json!("Shape is anything with an area."));

        let circle = info(
            &server,
            json!({ "path": "shapes/shapes.go", "symbol": "Circle" }),
        )
        .await;
        assert_eq!(circle["kind"], json!("struct"));
        assert_eq!(members(&circle), ["field Radius (line 17)"]);
        assert_eq!(circle["signature"], json!("type Circle struct"));

        let method = info(
            &server,
            json!({ "path": "shapes/shapes.go", "symbol": "Circle.Area" }),
        )
        .await;
        assert_eq!(place(&method), "shapes/shapes.go:26 method Area");
        assert_eq!(
            method["signature"],
            json!("func (c *Circle) Area() float64")
        );
        // `s.Area()` on a range variable over `[]Shape` calls the
        // interface's method, not this one.
        assert_eq!(method["callers"], json!({ "certain": 0, "name_only": 0 }));
        let interface_method = info(
            &server,
            json!({ "path": "shapes/shapes.go", "symbol": "Shape.Area" }),
        )
        .await;
        assert_eq!(
            interface_method["callers"],
            json!({ "certain": 1, "name_only": 0 })
        );
        server.stop().await;
    }

    /// A Go method's container is its receiver's type, as the candidates
    /// of an ambiguous name (`shapes/shapes.go:26 method Circle.Area`) and
    /// the qualified name that finds it say.
    #[tokio::test]
    async fn go_method_container_is_its_receiver_type() {
        let server = serve("nav/go").await;
        let method = info(
            &server,
            json!({ "path": "shapes/shapes.go", "symbol": "Circle.Area" }),
        )
        .await;
        assert_eq!(method["container"], json!("Circle"), "{method:#}");
        server.stop().await;
    }

    #[tokio::test]
    async fn csharp_method_interface_and_class() {
        let server = serve("nav/csharp").await;
        let area_of = info(
            &server,
            json!({ "path": "Shapes/Shapes.cs", "symbol": "Areas.AreaOf" }),
        )
        .await;
        assert_eq!(place(&area_of), "Shapes/Shapes.cs:35 method AreaOf");
        assert_eq!(area_of["container"], json!("Geometry.Shapes.Areas"));
        assert_eq!(
            area_of["signature"],
            json!("public static double AreaOf(IShape[] shapes)")
        );
        assert_eq!(area_of["modifiers"], json!(["static"]));
        assert_eq!(area_of["module"], json!("Geometry.Shapes"));
        assert_eq!(area_of["callers"], json!({ "certain": 1, "name_only": 0 }));
        // `shape.Area()` on a `foreach (var shape ...)` over an
        // `IShape[]`: the interface's method.
        assert_eq!(area_of["callees"], json!({ "certain": 1, "name_only": 0 }));
        assert_eq!(area_of["metrics"]["cyclomatic"], json!(2));

        // `Areas.AreaOf(...)` in Report.cs, not Legacy's.
        let at_call = info(
            &server,
            json!({ "path": "Reports/Report.cs", "line": 12, "character": 26 }),
        )
        .await;
        assert_eq!(place(&at_call), "Shapes/Shapes.cs:35 method AreaOf");

        let shape = info(
            &server,
            json!({ "path": "Shapes/Shapes.cs", "symbol": "IShape" }),
        )
        .await;
        assert_eq!(place(&shape), "Shapes/Shapes.cs:4 interface IShape");
        // Circle, Square and Reports' Hexagon; Legacy's Circle implements
        // Legacy's IShape.
        assert_eq!(
            shape["implementations"],
            json!({ "certain": 3, "name_only": 0 })
        );
        assert_eq!(shape["references"], json!({ "certain": 5, "name_only": 0 }));
        assert_eq!(members(&shape), ["method Area (line 6)"]);

        let summary = info(
            &server,
            json!({ "path": "Reports/Report.cs", "symbol": "Summary" }),
        )
        .await;
        assert_eq!(summary["container"], json!("Geometry.Reports.Report"));
        // new Circle, new Square, Areas.AreaOf.
        assert_eq!(summary["callees"], json!({ "certain": 3, "name_only": 0 }));
        assert_eq!(summary["callers"], json!({ "certain": 1, "name_only": 0 }));
        assert_eq!(summary["metrics"]["parameters"], json!(2));

        let square = info(
            &server,
            json!({ "path": "Shapes/Shapes.cs", "symbol": "Geometry.Shapes.Square" }),
        )
        .await;
        assert_eq!(
            members(&square),
            [
                "constructor Square (line 26)",
                "field Side (line 27)",
                "method Area (line 28)"
            ]
        );
        // The class and its constructor share the name: the name alone
        // means the class; `Circle.Circle` the constructor.
        let circle = info(
            &server,
            json!({ "path": "Shapes/Shapes.cs", "symbol": "Circle" }),
        )
        .await;
        assert_eq!(place(&circle), "Shapes/Shapes.cs:10 class Circle");
        let constructor = info(
            &server,
            json!({ "path": "Shapes/Shapes.cs", "symbol": "Circle.Circle" }),
        )
        .await;
        assert_eq!(
            place(&constructor),
            "Shapes/Shapes.cs:12 constructor Circle"
        );
        server.stop().await;
    }

    /// Members come in the order they are declared, as `outline` lists them.
    #[tokio::test]
    async fn members_are_listed_in_declaration_order() {
        let server = serve("nav/csharp").await;
        let square = info(
            &server,
            json!({ "path": "Shapes/Shapes.cs", "symbol": "Geometry.Shapes.Square" }),
        )
        .await;
        assert_eq!(
            members_in_order(&square),
            [
                "constructor Square (line 26)",
                "field Side (line 27)",
                "method Area (line 28)"
            ]
        );
        server.stop().await;
    }
}

// ---------------------------------------------------------------------------
// node_at
// ---------------------------------------------------------------------------

mod node_at {
    use super::*;

    async fn node_at(server: &McpServer, path: &str, line: u32, column: u32) -> Value {
        server
            .call(
                "node_at",
                json!({ "path": path, "line": line, "column": column }),
            )
            .await
            .ok()
    }

    /// `type "content" startLine:startColumn-endLine:endColumn`.
    fn node(answer: &Value) -> String {
        let n = &answer["node"];
        format!(
            "{} {} {}:{}-{}:{}",
            n["type"].as_str().unwrap_or("?"),
            n["content"],
            n["startLine"],
            n["startColumn"],
            n["endLine"],
            n["endColumn"]
        )
    }

    fn ancestors(answer: &Value) -> Vec<&str> {
        answer["ancestors"]
            .as_array()
            .unwrap_or_else(|| panic!("no ancestors: {answer:#}"))
            .iter()
            .map(|a| a["type"].as_str().unwrap_or("?"))
            .collect()
    }

    #[tokio::test]
    async fn rust_nodes_ancestors_and_declarations() {
        let server = serve("nav/rust").await;
        // Line 9: `    let total = area_of(&[&circle, &square]);`
        let call = node_at(&server, "src/report.rs", 9, 16).await;
        assert_eq!(call["filePath"], json!("src/report.rs"));
        assert_eq!(node(&call), r#"identifier "area_of" 9:16-9:23"#);
        assert_eq!(
            ancestors(&call),
            [
                "call_expression",
                "let_declaration",
                "block",
                "function_item",
                "source_file"
            ]
        );
        assert_eq!(call["node"]["name"], json!("summary"));
        assert_eq!(
            call["symbol"],
            json!({
                "name": "summary",
                "kind": "function",
                "languageKind": "function",
                "startLine": 6,
                "endLine": 11,
                "signature": "pub fn summary(radius: f64, side: f64) -> String",
                "chunkId": "src/report.rs:6:summary",
            })
        );

        // Line 10 of shapes.rs: `    pub radius: f64,` in `struct Circle`.
        let field = node_at(&server, "src/shapes.rs", 10, 8).await;
        assert_eq!(node(&field), r#"field_identifier "radius" 10:8-10:14"#);
        assert_eq!(field["node"]["parent"], json!("struct Circle"));
        assert_eq!(field["symbol"]["kind"], json!("field"));
        assert_eq!(field["symbol"]["chunkId"], json!("src/shapes.rs:10:radius"));

        // Line 21: `        3.14 * self.radius * self.radius` in
        // `impl Shape for Circle`.
        let literal = node_at(&server, "src/shapes.rs", 21, 8).await;
        assert_eq!(literal["node"]["type"], json!("float_literal"));
        assert_eq!(literal["node"]["content"], json!("3.14"));
        assert_eq!(literal["node"]["parent"], json!("impl Circle"));
        assert_eq!(literal["symbol"]["chunkId"], json!("src/shapes.rs:20:area"));
        assert_eq!(
            ancestors(&literal)[2..],
            [
                "block",
                "function_item",
                "declaration_list",
                "impl_item",
                "source_file"
            ]
        );

        // Outside every declaration; the column defaults to 0.
        let comment = server
            .call("node_at", json!({ "path": "src/shapes.rs", "line": 1 }))
            .await
            .ok();
        assert_eq!(comment["node"]["type"], json!("line_comment"));
        assert_eq!(comment["symbol"], json!(null));
        assert_eq!(ancestors(&comment), ["source_file"]);
        server.stop().await;
    }

    #[tokio::test]
    async fn rust_bad_positions_and_files_are_refused() {
        let server = serve("nav/rust").await;
        let zero = server
            .call("node_at", json!({ "path": "src/shapes.rs", "line": 0 }))
            .await;
        expect_error(zero, "INVALID_PARAM", "line");
        let missing = server
            .call("node_at", json!({ "path": "src/shapes.rs" }))
            .await;
        expect_error(missing, "MISSING_REQUIRED_PARAM", "line");
        let no_file = server
            .call("node_at", json!({ "path": "src/nope.rs", "line": 1 }))
            .await;
        expect_error(no_file, "FILE_NOT_FOUND", "path");
        let outside = server
            .call("node_at", json!({ "path": "src/shapes.rs", "line": 99 }))
            .await;
        let error = expect_error(outside, "INVALID_LINE_NUMBER", "line");
        assert_eq!(error["details"]["lineCount"], json!(39));
        let unknown = server
            .call(
                "node_at",
                json!({ "path": "src/shapes.rs", "line": 1, "character": 3 }),
            )
            .await;
        let error = expect_error(unknown, "UNKNOWN_PARAM", "character");
        let allowed = error["details"]["allowed"].as_array().unwrap();
        for field in ["path", "line", "column"] {
            assert!(allowed.contains(&json!(field)), "{error:#}");
        }
        server.stop().await;
    }

    /// node_at counts lines from 1 and names its column `column`: an error
    /// about a position says so in the same terms.
    #[tokio::test]
    async fn position_errors_use_its_own_one_based_terms() {
        let server = serve("nav/rust").await;
        let outside = server
            .call("node_at", json!({ "path": "src/shapes.rs", "line": 99 }))
            .await;
        let error = expect_error(outside, "INVALID_LINE_NUMBER", "line");
        assert_eq!(error["details"]["line"], json!(99), "{error:#}");
        let advice = error["suggestions"].to_string();
        assert!(!advice.contains("zero-based"), "{error:#}");

        // Line 37 is `    shapes.iter().map(|s| s.area()).sum()`.
        let past_the_line = server
            .call(
                "node_at",
                json!({ "path": "src/shapes.rs", "line": 37, "column": 200 }),
            )
            .await;
        let error = expect_error(past_the_line, "INVALID_LINE_NUMBER", "column");
        assert_eq!(error["details"]["line"], json!(37), "{error:#}");
        server.stop().await;
    }

    #[tokio::test]
    async fn typescript_nodes_and_declarations() {
        let server = serve("nav/typescript").await;
        // Line 8 of report.ts: `  const total = areaOf([circle, square]);`
        let call = node_at(&server, "src/report.ts", 8, 16).await;
        assert_eq!(node(&call), r#"identifier "areaOf" 8:16-8:22"#);
        assert_eq!(
            ancestors(&call),
            [
                "call_expression",
                "variable_declarator",
                "lexical_declaration",
                "statement_block",
                "function_declaration",
                "export_statement",
                "program"
            ]
        );
        assert_eq!(call["symbol"]["chunkId"], json!("src/report.ts:5:summary"));
        assert_eq!(call["symbol"]["startLine"], json!(5));
        assert_eq!(call["symbol"]["endLine"], json!(10));

        // Line 8 of circle.ts: `    return 3.14 * this.radius * this.radius;`
        let literal = node_at(&server, "src/shapes/circle.ts", 8, 11).await;
        assert_eq!(node(&literal), r#"number "3.14" 8:11-8:15"#);
        assert_eq!(literal["node"]["name"], json!("area"));
        assert_eq!(literal["node"]["parent"], json!("class Circle"));
        assert_eq!(
            literal["symbol"]["chunkId"],
            json!("src/shapes/circle.ts:7:area")
        );
        assert_eq!(literal["symbol"]["kind"], json!("method"));
        // Between `3.14` and `*`: the innermost named node is the product.
        let operator = node_at(&server, "src/shapes/circle.ts", 8, 16).await;
        assert_eq!(
            node(&operator),
            r#"binary_expression "3.14 * this.radius" 8:11-8:29"#
        );
        server.stop().await;
    }

    #[tokio::test]
    async fn go_nodes_and_declarations() {
        let server = serve("nav/go").await;
        // Line 14: `\ttotal := shapes.AreaOf([]shapes.Shape{circle, square})`
        let call = node_at(&server, "report/report.go", 14, 17).await;
        assert_eq!(node(&call), r#"field_identifier "AreaOf" 14:17-14:23"#);
        assert_eq!(
            ancestors(&call)[..4],
            [
                "selector_expression",
                "call_expression",
                "expression_list",
                "short_var_declaration"
            ]
        );
        assert_eq!(
            call["symbol"],
            json!({
                "name": "Summary",
                "kind": "function",
                "languageKind": "function",
                "startLine": 11,
                "endLine": 16,
                "signature": "func Summary(radius, side float64) string",
                "chunkId": "report/report.go:11:Summary",
            })
        );
        // Line 27: `\treturn 3.14 * c.Radius * c.Radius`.
        let literal = node_at(&server, "shapes/shapes.go", 27, 8).await;
        assert_eq!(node(&literal), r#"float_literal "3.14" 27:8-27:12"#);
        assert_eq!(
            literal["symbol"]["chunkId"],
            json!("shapes/shapes.go:26:Area")
        );
        assert_eq!(
            literal["symbol"]["signature"],
            json!("func (c *Circle) Area() float64")
        );
        let outside = server
            .call("node_at", json!({ "path": "report/report.go", "line": 0 }))
            .await;
        expect_error(outside, "INVALID_PARAM", "line");
        server.stop().await;
    }

    #[tokio::test]
    async fn csharp_nodes_and_declarations() {
        let server = serve("nav/csharp").await;
        // Line 13: `        var total = Areas.AreaOf(new IShape[] { circle, square });`
        let call = node_at(&server, "Reports/Report.cs", 13, 26).await;
        assert_eq!(node(&call), r#"identifier "AreaOf" 13:26-13:32"#);
        assert_eq!(
            ancestors(&call)[..2],
            ["member_access_expression", "invocation_expression"]
        );
        assert_eq!(call["node"]["name"], json!("Summary"));
        assert_eq!(call["node"]["parent"], json!("class Report"));
        assert_eq!(
            call["symbol"]["chunkId"],
            json!("Reports/Report.cs:9:Summary")
        );
        // The argument list just after: `(new IShape[] { circle, square })`.
        let arguments = node_at(&server, "Reports/Report.cs", 13, 32).await;
        assert_eq!(
            node(&arguments),
            r#"argument_list "(new IShape[] { circle, square })" 13:32-13:65"#
        );

        // Line 14 of Shapes.cs: `        public double Area() => 3.14 * Radius * Radius;`
        let literal = node_at(&server, "Shapes/Shapes.cs", 14, 33).await;
        assert_eq!(node(&literal), r#"real_literal "3.14" 14:32-14:36"#);
        assert_eq!(literal["node"]["parent"], json!("class Circle"));
        assert_eq!(
            literal["symbol"]["chunkId"],
            json!("Shapes/Shapes.cs:14:Area")
        );
        assert_eq!(
            ancestors(&literal)[3..],
            [
                "method_declaration",
                "declaration_list",
                "class_declaration",
                "declaration_list",
                "namespace_declaration",
                "compilation_unit"
            ]
        );
        server.stop().await;
    }
}

// ---------------------------------------------------------------------------
// node_source
// ---------------------------------------------------------------------------

mod node_source {
    use super::*;

    async fn source(server: &McpServer, arguments: Value) -> Value {
        server.call("node_source", arguments).await.ok()
    }

    /// `chunkId lineStart-lineEnd`.
    fn lines(answer: &Value) -> String {
        format!(
            "{} {}-{}",
            answer["chunkId"].as_str().unwrap_or("?"),
            answer["lineStart"],
            answer["lineEnd"]
        )
    }

    #[tokio::test]
    async fn rust_by_name_by_chunk_collapsed_and_with_context() {
        let server = serve("nav/rust").await;
        let area_of = source(
            &server,
            json!({ "path": "src/shapes.rs", "symbol": "area_of" }),
        )
        .await;
        assert_eq!(
            area_of["source"],
            json!(
                "pub fn area_of(shapes: &[&dyn Shape]) -> f64 {\n    shapes.iter().map(|s| s.area()).sum()\n}\n"
            )
        );
        assert_eq!(lines(&area_of), "src/shapes.rs:37:area_of 37-39");
        assert_eq!(area_of["filePath"], json!("src/shapes.rs"));
        assert_eq!(area_of["collapsed"], json!(false));
        assert_eq!(
            place(&area_of["declaration"]),
            "src/shapes.rs:37 function area_of"
        );

        // The `impl Shape for Circle` block by its chunk id, bodies folded.
        let folded = source(
            &server,
            json!({ "chunkId": "src/shapes.rs:19:Circle", "collapseBody": true }),
        )
        .await;
        assert_eq!(
            folded["source"],
            json!("impl Shape for Circle {\n    fn area(&self) -> f64 { … }\n}\n")
        );
        assert_eq!(lines(&folded), "src/shapes.rs:19:Circle 19-23");
        assert_eq!(folded["collapsed"], json!(true));
        assert_eq!(folded["declaration"]["language_kind"], json!("impl"));

        // Two lines of context either side of the trait.
        let shape = source(
            &server,
            json!({ "path": "src/shapes.rs", "symbol": "Shape", "includeContext": 2 }),
        )
        .await;
        assert_eq!(
            shape["source"],
            json!(
                "\n/// Anything with an area.\npub trait Shape {\n    fn area(&self) -> f64;\n}\n\n/// A circle of some radius.\n"
            )
        );
        assert_eq!(lines(&shape), "src/shapes.rs:4:Shape 2-8");

        // Through a call: the declaration it resolves to.
        let at_call = source(
            &server,
            json!({ "path": "src/report.rs", "line": 8, "character": 16 }),
        )
        .await;
        assert_eq!(at_call["chunkId"], json!("src/shapes.rs:37:area_of"));
        server.stop().await;
    }

    #[tokio::test]
    async fn rust_bad_chunk_ids_and_locals_are_refused() {
        let server = serve("nav/rust").await;
        let malformed = server
            .call("node_source", json!({ "chunkId": "nonsense" }))
            .await;
        expect_error(malformed, "INVALID_PARAM", "chunkId");
        let bad_line = server
            .call("node_source", json!({ "chunkId": "src/shapes.rs:x:new" }))
            .await;
        expect_error(bad_line, "INVALID_PARAM", "chunkId");
        // Nothing named `new` starts on line 20: the declarations of that
        // name or on that line are offered.
        let stale = server
            .call("node_source", json!({ "chunkId": "src/shapes.rs:20:new" }))
            .await
            .err();
        assert_eq!(stale["code"], json!("SYMBOL_NOT_FOUND"), "{stale:#}");
        assert_eq!(
            stale["details"]["nearbySymbols"],
            json!(["src/shapes.rs:14:new", "src/shapes.rs:20:area"])
        );
        // A local binding is no chunk.
        let local = server
            .call(
                "node_source",
                json!({ "path": "src/report.rs", "line": 6, "character": 8 }),
            )
            .await;
        let error = expect_error(local, "INVALID_PARAM", "symbol");
        assert!(
            error["message"].as_str().unwrap().contains("local binding"),
            "{error:#}"
        );
        let too_much = server
            .call(
                "node_source",
                json!({ "chunkId": "src/shapes.rs:37:area_of", "includeContext": 201 }),
            )
            .await;
        expect_error(too_much, "INVALID_PARAM", "includeContext");
        server.stop().await;
    }

    /// A chunk id that names no declaration is the `chunkId` argument's
    /// fault, whether its line/name or its file is wrong.
    #[tokio::test]
    async fn chunk_id_errors_blame_the_chunk_id() {
        let server = serve("nav/rust").await;
        let stale = server
            .call("node_source", json!({ "chunkId": "src/shapes.rs:20:new" }))
            .await;
        expect_error(stale, "SYMBOL_NOT_FOUND", "chunkId");
        let no_file = server
            .call("node_source", json!({ "chunkId": "src/nope.rs:1:x" }))
            .await;
        expect_error(no_file, "FILE_NOT_FOUND", "chunkId");
        server.stop().await;
    }

    #[tokio::test]
    async fn typescript_classes_folded_and_functions_with_context() {
        let server = serve("nav/typescript").await;
        // The `export ` before the declaration is part of its first line.
        let circle = source(
            &server,
            json!({ "path": "src/shapes/circle.ts", "symbol": "Circle" }),
        )
        .await;
        assert_eq!(
            circle["source"],
            json!(
                "export class Circle implements Shape {\n  constructor(public radius: number) {}\n\n  area(): number {\n    return 3.14 * this.radius * this.radius;\n  }\n}\n"
            )
        );
        assert_eq!(lines(&circle), "src/shapes/circle.ts:4:Circle 4-10");
        let folded = source(
            &server,
            json!({ "path": "src/shapes/circle.ts", "symbol": "Circle", "collapseBody": true }),
        )
        .await;
        assert_eq!(
            folded["source"],
            json!(
                "export class Circle implements Shape {\n  constructor(public radius: number) { … }\n\n  area(): number { … }\n}\n"
            )
        );
        let twice = source(
            &server,
            json!({ "chunkId": "src/report.ts:13:twice", "includeContext": 1 }),
        )
        .await;
        assert_eq!(
            twice["source"],
            json!(
                "/** The summary, twice. */\nexport function twice(radius: number): string {\n  const line = summary(radius, radius);\n  return `${line}\\n${line}`;\n}\n"
            )
        );
        assert_eq!(lines(&twice), "src/report.ts:13:twice 12-16");
        // Through the imported call in report.ts.
        let at_call = source(
            &server,
            json!({ "path": "src/report.ts", "line": 7, "character": 16 }),
        )
        .await;
        assert_eq!(lines(&at_call), "src/shapes/area.ts:4:areaOf 4-6");
        let unknown = server
            .call(
                "node_source",
                json!({ "path": "src/report.ts", "symbol": "thrice" }),
            )
            .await;
        expect_error(unknown, "SYMBOL_NOT_FOUND", "symbol");
        server.stop().await;
    }

    #[tokio::test]
    async fn go_functions_methods_and_types() {
        let server = serve("nav/go").await;
        let folded = source(
            &server,
            json!({ "path": "shapes/area.go", "symbol": "AreaOf", "collapseBody": true }),
        )
        .await;
        assert_eq!(
            folded["source"],
            json!("func AreaOf(shapes []Shape) float64 { … }\n")
        );
        assert_eq!(lines(&folded), "shapes/area.go:4:AreaOf 4-10");
        let method = source(
            &server,
            json!({ "path": "shapes/shapes.go", "symbol": "Circle.Area" }),
        )
        .await;
        assert_eq!(
            method["source"],
            json!("func (c *Circle) Area() float64 {\n\treturn 3.14 * c.Radius * c.Radius\n}\n")
        );
        assert_eq!(lines(&method), "shapes/shapes.go:26:Area 26-28");
        // The type spec starts after `type `; the whole line is shown.
        let circle = source(
            &server,
            json!({ "chunkId": "shapes/shapes.go:16:Circle", "includeContext": 1 }),
        )
        .await;
        assert_eq!(
            circle["source"],
            json!(
                "// Circle is a circle of some radius.\ntype Circle struct {\n\tRadius float64\n}\n\n"
            )
        );
        assert_eq!(lines(&circle), "shapes/shapes.go:16:Circle 15-19");
        server.stop().await;
    }

    #[tokio::test]
    async fn csharp_methods_and_folded_classes() {
        let server = serve("nav/csharp").await;
        let area_of = source(
            &server,
            json!({ "path": "Shapes/Shapes.cs", "symbol": "Areas.AreaOf" }),
        )
        .await;
        assert_eq!(
            area_of["source"],
            json!(
                "        public static double AreaOf(IShape[] shapes)\n        {\n            double total = 0;\n            foreach (var shape in shapes) total += shape.Area();\n            return total;\n        }\n"
            )
        );
        assert_eq!(lines(&area_of), "Shapes/Shapes.cs:35:AreaOf 35-40");
        let square = source(
            &server,
            json!({ "chunkId": "Shapes/Shapes.cs:24:Square", "collapseBody": true }),
        )
        .await;
        assert_eq!(
            square["source"],
            json!(
                "    public class Square : Polygon, IShape\n    {\n        public Square(double side) { … }\n        public double Side;\n        public double Area() { … }\n    }\n"
            )
        );
        assert_eq!(lines(&square), "Shapes/Shapes.cs:24:Square 24-29");
        assert_eq!(square["declaration"]["container"], json!("Geometry.Shapes"));
        let hexagon = source(
            &server,
            json!({ "chunkId": "Reports/Hexagon.cs:6:Hexagon" }),
        )
        .await;
        assert_eq!(
            hexagon["source"],
            json!(
                "    public class Hexagon : Polygon, IShape\n    {\n        public double Side;\n        public double Area() => 2.598 * Side * Side;\n    }\n"
            )
        );
        server.stop().await;
    }
}

// ---------------------------------------------------------------------------
// dependencies_of
// ---------------------------------------------------------------------------

mod dependencies_of {
    use super::*;

    async fn dependencies(server: &McpServer, file_path: &str, symbol: &str) -> String {
        server
            .call(
                "dependencies_of",
                json!({ "file_path": file_path, "symbol": symbol }),
            )
            .await
            .text()
    }

    #[tokio::test]
    async fn rust_transitive_graph_nodes_and_snippets() {
        let server = serve("nav/rust").await;
        let text = dependencies(&server, "src/report.rs", "twice").await;
        assert_eq!(
            graph_lines(&text),
            [
                // `s.area()` in `shapes.iter().map(|s| ..)`: the trait's.
                "twice --CALLS--> summary --CALLS--> area_of --CALLS--> area",
                "area_of --REFERENCES--> Shape",
                // `Square { side }` names the field `side`.
                "summary --REFERENCES--> side",
                "summary --REFERENCES--> Square",
                "summary --REFERENCES--> Circle",
                "summary --CALLS--> new --REFERENCES--> radius",
                "new --REFERENCES--> Circle",
            ],
            "{text}"
        );
        // Discovered nodes only, sorted by name; the query is not listed.
        assert_eq!(
            node_names(&text),
            [
                "area", "area_of", "Circle", "new", "radius", "Shape", "side", "Square", "summary"
            ],
            "{text}"
        );
        assert_eq!(
            node_entry(&text, "area_of"),
            "area_of:\n  file: src/shapes.rs\n  offset: 37, limit: 3\n  snippet:\n    37: pub fn area_of(shapes: &[&dyn Shape]) -> f64 {\n    38:     shapes.iter().map(|s| s.area()).sum()\n    39: }"
        );
        assert_eq!(
            node_entry(&text, "summary"),
            "summary:\n  file: src/report.rs\n  offset: 6, limit: 6\n  snippet:\n    6: pub fn summary(radius: f64, side: f64) -> String {\n    7:     let circle = Circle::new(radius);\n    8:     let square = Square { side };\n    9:     let total = area_of(&[&circle, &square]);\n    10:     format!(\"total area {total}\")\n    11: }"
        );
        // The shapes module's Circle and area_of, never the legacy ones.
        assert!(!text.contains("src/legacy.rs"), "{text}");
        // Every edge is certain: no name-only match left out.
        assert!(!text.contains("name-only"), "{text}");
        server.stop().await;
    }

    #[tokio::test]
    async fn rust_leaf_symbols_and_errors() {
        let server = serve("nav/rust").await;
        // A struct of plain fields depends on nothing: the query alone.
        let outcome = server
            .call(
                "dependencies_of",
                json!({ "file_path": "src/shapes.rs", "symbol": "Circle" }),
            )
            .await;
        assert_eq!(outcome.value["nodes"], json!(1));
        assert_eq!(outcome.value["edges"], json!(0));
        assert_eq!(outcome.text(), "## Graph\n\nCircle\n\n## Nodes\n\n(none)\n");
        // The legacy area_of uses nothing either (and is asked by file).
        let decoy = dependencies(&server, "src/legacy.rs", "area_of").await;
        assert_eq!(decoy, "## Graph\n\narea_of\n\n## Nodes\n\n(none)\n");

        let unknown = server
            .call(
                "dependencies_of",
                json!({ "file_path": "src/shapes.rs", "symbol": "area_off" }),
            )
            .await;
        let error = expect_error(unknown, "SYMBOL_NOT_FOUND", "symbol");
        assert_eq!(error["details"]["nearbySymbols"][0], json!("area_of"));
        let ambiguous = server
            .call(
                "dependencies_of",
                json!({ "file_path": "src/shapes.rs", "symbol": "area" }),
            )
            .await;
        let error = expect_error(ambiguous, "SYMBOL_AMBIGUOUS", "symbol");
        assert_eq!(
            error["details"]["candidates"],
            json!([
                "src/shapes.rs:5 method Shape.area",
                "src/shapes.rs:20 method Circle.area",
                "src/shapes.rs:31 method Square.area"
            ])
        );
        let missing = server
            .call("dependencies_of", json!({ "file_path": "src/shapes.rs" }))
            .await;
        expect_error(missing, "MISSING_REQUIRED_PARAM", "symbol");
        server.stop().await;
    }

    /// A wrong `file_path` is that argument's fault.
    #[tokio::test]
    async fn unknown_file_blames_file_path() {
        let server = serve("nav/rust").await;
        let no_file = server
            .call(
                "dependencies_of",
                json!({ "file_path": "src/nope.rs", "symbol": "area_of" }),
            )
            .await;
        expect_error(no_file, "FILE_NOT_FOUND", "file_path");
        let outside = server
            .call(
                "dependencies_of",
                json!({ "file_path": "../x.rs", "symbol": "area_of" }),
            )
            .await;
        expect_error(outside, "PATH_OUTSIDE_BOUNDARY", "file_path");
        server.stop().await;
    }

    #[tokio::test]
    async fn typescript_calls_extends_and_implements() {
        let server = serve("nav/typescript").await;
        let text = dependencies(&server, "src/main.ts", "main").await;
        assert_eq!(
            graph_lines(&text),
            [
                "main --CALLS--> twice --CALLS--> summary --CALLS--> areaOf --REFERENCES--> Shape",
                "summary --CALLS--> Square --IMPLEMENTS--> Shape",
                "Square --EXTENDS--> Polygon",
                "summary --CALLS--> Circle --IMPLEMENTS--> Shape",
                "main --CALLS--> Circle",
                "main --CALLS--> areaOf",
            ],
            "{text}"
        );
        assert_eq!(
            node_names(&text),
            [
                "areaOf", "Circle", "Polygon", "Shape", "Square", "summary", "twice"
            ],
            "{text}"
        );
        assert_eq!(
            node_entry(&text, "Shape"),
            "Shape:\n  file: src/shapes/shape.ts\n  offset: 2, limit: 3\n  snippet:\n    2: export interface Shape {\n    3:   area(): number;\n    4: }"
        );
        assert!(!text.contains("src/legacy.ts"), "{text}");

        let square = dependencies(&server, "src/shapes/square.ts", "Square").await;
        assert_eq!(
            graph_lines(&square),
            [
                "Square --IMPLEMENTS--> Shape",
                "Square --EXTENDS--> Polygon"
            ],
            "{square}"
        );
        assert_eq!(node_names(&square), ["Polygon", "Shape"], "{square}");
        server.stop().await;
    }

    /// A discovered function longer than ten lines shows the lines around
    /// what it uses, and says how many it leaves out.
    #[tokio::test]
    async fn typescript_long_functions_are_shown_around_their_uses() {
        let server = serve("tools/typescript").await;
        let text = dependencies(&server, "src/draw.ts", "render").await;
        assert_eq!(
            graph_lines(&text)[0],
            "render --CALLS--> draw --CALLS--> width --REFERENCES--> x",
            "{text}"
        );
        assert!(
            graph_lines(&text).contains(&"draw --REFERENCES--> Segment"),
            "{text}"
        );
        // draw spans lines 5 to 19; it names Segment on line 5 and calls
        // width on line 9.
        assert_eq!(
            node_entry(&text, "draw"),
            "draw:\n  file: src/draw.ts\n  offset: 5, limit: 15\n  snippet:\n    5: export function draw(segments: Segment[]): string[] {\n    6:   const lines: string[] = [];\n    7:   let longest = 0;\n    8:   for (const segment of segments) {\n    9:     const across = width(segment);\n    10:     if (across > longest) {\n    ... omitted 9 lines ..."
        );
        assert_eq!(
            node_entry(&text, "width"),
            "width:\n  file: src/canvas.ts\n  offset: 24, limit: 5\n  snippet:\n    24: export function width(segment: Segment): number {\n    25:   const start: Point = segment.from;\n    26:   const end: Point = segment.to;\n    27:   return end.x - start.x;\n    28: }"
        );
        // The canvas's Point, not the decoy's.
        assert!(!text.contains("src/decoy.ts"), "{text}");
        server.stop().await;
    }

    #[tokio::test]
    async fn go_calls_across_packages_and_embedded_interfaces() {
        let server = serve("nav/go").await;
        let polygon = dependencies(&server, "shapes/shapes.go", "Polygon").await;
        assert_eq!(
            graph_lines(&polygon),
            ["Polygon --EXTENDS--> Shape"],
            "{polygon}"
        );
        assert_eq!(
            node_entry(&polygon, "Shape"),
            "Shape:\n  file: shapes/shapes.go\n  offset: 5, limit: 3\n  snippet:\n    5: type Shape interface {\n    6: \tArea() float64\n    7: }"
        );

        let text = dependencies(&server, "report/report.go", "Twice").await;
        let graph = graph_lines(&text);
        assert!(
            graph[0].starts_with("Twice --CALLS--> Summary --REFERENCES--> "),
            "{text}"
        );
        for line in [
            // `s.Area()` on a range variable over `[]Shape`.
            "Summary --CALLS--> AreaOf --CALLS--> Area",
            "AreaOf --REFERENCES--> Shape",
            "Summary --REFERENCES--> Square",
            // `&Circle{Radius: radius}` names the field `Radius`.
            "Summary --CALLS--> NewCircle --REFERENCES--> Radius",
            "NewCircle --REFERENCES--> Circle",
        ] {
            assert!(graph.contains(&line), "{line} missing:\n{text}");
        }
        assert_eq!(
            node_entry(&text, "NewCircle"),
            "NewCircle:\n  file: shapes/shapes.go\n  offset: 21, limit: 3\n  snippet:\n    21: func NewCircle(radius float64) *Circle {\n    22: \treturn &Circle{Radius: radius}\n    23: }"
        );
        assert!(!text.contains("legacy/legacy.go"), "{text}");
        server.stop().await;
    }

    /// Package clauses are not dependencies: `shapes.NewCircle` depends on
    /// NewCircle, not on the `package shapes` line of every file.
    #[tokio::test]
    async fn go_package_qualifiers_are_not_dependencies() {
        let server = serve("nav/go").await;
        let text = dependencies(&server, "report/report.go", "Twice").await;
        assert_eq!(
            node_names(&text),
            // `Square{Length: s}`, `&Circle{Radius: r}` name fields.
            [
                "Area",
                "AreaOf",
                "Circle",
                "Length",
                "NewCircle",
                "Radius",
                "Shape",
                "Square",
                "Summary"
            ],
            "{text}"
        );
        server.stop().await;
    }

    /// `func main` of package main is a function one may ask about.
    #[tokio::test]
    async fn go_main_function_can_be_asked_about() {
        let server = serve("nav/go").await;
        let text = dependencies(&server, "main.go", "main").await;
        assert!(
            graph_lines(&text)[0].starts_with("main --CALLS--> Twice --CALLS--> Summary"),
            "{text}"
        );
        server.stop().await;
    }

    #[tokio::test]
    async fn csharp_calls_references_and_bases() {
        let server = serve("nav/csharp").await;
        let text = dependencies(&server, "Reports/Report.cs", "Twice").await;
        assert_eq!(
            graph_lines(&text),
            [
                "Twice --CALLS--> Summary --REFERENCES--> IShape",
                "Summary --REFERENCES--> Areas",
                // `shape.Area()` over an `IShape[]`: the interface's.
                "Summary --CALLS--> AreaOf --CALLS--> Area",
                "AreaOf --REFERENCES--> IShape",
                "Summary --CALLS--> Square --IMPLEMENTS--> IShape",
                "Square --EXTENDS--> Polygon",
                "Summary --CALLS--> Circle --IMPLEMENTS--> IShape",
            ],
            "{text}"
        );
        assert_eq!(
            node_names(&text),
            [
                "Area", "AreaOf", "Areas", "Circle", "IShape", "Polygon", "Square", "Summary"
            ],
            "{text}"
        );
        // Areas is exactly ten lines: shown whole.
        assert!(
            node_entry(&text, "Areas").starts_with(
                "Areas:\n  file: Shapes/Shapes.cs\n  offset: 32, limit: 10\n  snippet:\n    32:     public static class Areas\n"
            ),
            "{text}"
        );
        assert!(
            node_entry(&text, "Areas").ends_with("\n    41:     }"),
            "{text}"
        );
        assert!(!text.contains("Legacy/Legacy.cs"), "{text}");
        // `shape.Area()` is the interface's, certainly: no guesses.
        assert!(!text.contains("name-only"), "{text}");

        // Hexagon, declared in Reports, extends and implements the Shapes
        // namespace's types it `using`s.
        let hexagon = dependencies(&server, "Reports/Hexagon.cs", "Hexagon").await;
        assert_eq!(
            graph_lines(&hexagon),
            [
                "Hexagon --IMPLEMENTS--> IShape",
                "Hexagon --EXTENDS--> Polygon"
            ],
            "{hexagon}"
        );
        assert!(
            node_entry(&hexagon, "IShape").starts_with("IShape:\n  file: Shapes/Shapes.cs\n"),
            "{hexagon}"
        );
        server.stop().await;
    }
}
