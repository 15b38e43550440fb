//! A member access through a value whose type the source writes down (a
//! parameter `p: Parser`, a local `let d = Decoder { .. }`, a call whose
//! function declares its return type) resolves certainly to that type's
//! member, or its nearest supertype's, end to end on the fixtures
//! `tests/fixtures/rules/<language>-typed`, where other types have members
//! of the same names.

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
            "src/parser.rs:32 call qualified 1.00",
            "src/run.rs:5 call qualified 1.00",
            "src/run.rs:18 call qualified 1.00",
            "src/run.rs:27 call qualified 1.00",
        ]
    );
    server.stop().await;
}

/// Each `(file, zero-based position, expected definitions)` of a fixture,
/// all checked before failing, so one run shows every difference.
async fn expect_definitions(fixture_name: &str, cases: &[(&str, (u32, u32), &[&str])]) {
    let server = McpServer::start(&fixture(fixture_name), &[])
        .await
        .expect("start lingo on the fixture");
    let mut wrong = Vec::new();
    for (path, at, expected) in cases {
        let found = call(&server, "find_definition", path, *at, "definitions").await;
        if found != *expected {
            wrong.push(format!("{path} {at:?}: {found:?}, expected {expected:?}"));
        }
    }
    server.stop().await;
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// `Parser::new().parse()` through `-> Self`; a trait's default method
/// through `impl Describe for Parser`; a `&dyn Describe` parameter; a local
/// initialised by a call; a local initialised by `self.clone()`.
#[tokio::test]
async fn rust_chained_calls_and_trait_methods_are_certain() {
    expect_definitions(
        "rules/rust-typed",
        &[
            (
                "src/run.rs",
                (17, 18),
                &["src/parser.rs:6 method qualified 1.00"],
            ),
            (
                "src/run.rs",
                (17, 42),
                &["src/parser.rs:18 method qualified 1.00"],
            ),
            (
                "src/run.rs",
                (21, 6),
                &["src/parser.rs:18 method qualified 1.00"],
            ),
            // `let made = crate::parser::make(); made.parse()`
            (
                "src/run.rs",
                (26, 9),
                &["src/parser.rs:6 method qualified 1.00"],
            ),
            // `let copy = self.clone(); copy.parse()` inside `impl Parser`
            (
                "src/parser.rs",
                (31, 13),
                &["src/parser.rs:6 method qualified 1.00"],
            ),
        ],
    )
    .await;
}

/// `func stateEndValue(s *scanner, c byte) { s.popParseState() }`,
/// `newScanner().popParseState()`, `d := &Decoder{}; d.Decode(v)`,
/// `NewDecoder(r).Decode(v)`, and a parameter of another package's type.
#[tokio::test]
async fn go_members_through_parameters_literals_and_calls_are_certain() {
    expect_definitions(
        "rules/go-typed",
        &[
            ("run.go", (9, 10), &["scanner.go:7 method qualified 1.00"]),
            ("run.go", (13, 21), &["scanner.go:7 method qualified 1.00"]),
            ("run.go", (18, 7), &["decoder.go:13 method qualified 1.00"]),
            ("run.go", (19, 22), &["decoder.go:13 method qualified 1.00"]),
            (
                "run.go",
                (23, 10),
                &["other/other.go:5 method qualified 1.00"],
            ),
            // `d := NewDecoder(r); d.Decode(v)`
            ("run.go", (28, 10), &["decoder.go:13 method qualified 1.00"]),
            // `Decoder{r: nil}`: a literal's key is its type's field.
            ("run.go", (32, 13), &["decoder.go:6 field qualified 1.00"]),
            // `w.level` with `w wrapped` and `type wrapped struct{ *base }`:
            // the embedded struct's field.
            (
                "scanner.go",
                (27, 10),
                &["scanner.go:22 field qualified 1.00"],
            ),
        ],
    )
    .await;
}

/// `(schema: ZodString) => schema.min(1)`, `z.string().min(6)`, a base
/// class's method, an interface-typed parameter, `new ZodString()`.
#[tokio::test]
async fn typescript_members_through_annotations_calls_and_bases_are_certain() {
    expect_definitions(
        "rules/typescript-typed",
        &[
            (
                "src/use.ts",
                (3, 51),
                &["src/schema.ts:8 method qualified 1.00"],
            ),
            (
                "src/use.ts",
                (6, 20),
                &["src/schema.ts:8 method qualified 1.00"],
            ),
            (
                "src/use.ts",
                (6, 27),
                &["src/schema.ts:2 method qualified 1.00"],
            ),
            (
                "src/use.ts",
                (10, 11),
                &["src/schema.ts:20 method qualified 1.00"],
            ),
            (
                "src/use.ts",
                (15, 14),
                &["src/schema.ts:8 method qualified 1.00"],
            ),
            // `const s = z.string(); s.min(3)`
            (
                "src/use.ts",
                (20, 11),
                &["src/schema.ts:8 method qualified 1.00"],
            ),
        ],
    )
    .await;
}

/// `var d = new Decoder(); d.Decode()`, a base class's method, a
/// parameter, `new Decoder().Decode()`, `Factory.Make().Decode()`.
#[tokio::test]
async fn csharp_members_through_locals_parameters_and_calls_are_certain() {
    expect_definitions(
        "rules/csharp-typed",
        &[
            ("Use.cs", (7, 21), &["Decoder.cs:10 method qualified 1.00"]),
            ("Use.cs", (7, 34), &["Decoder.cs:5 method qualified 1.00"]),
            ("Use.cs", (7, 50), &["Decoder.cs:10 method qualified 1.00"]),
            ("Use.cs", (8, 32), &["Decoder.cs:10 method qualified 1.00"]),
            ("Use.cs", (8, 58), &["Decoder.cs:10 method qualified 1.00"]),
            // `var made = Factory.Make(); made.Decode()`
            ("Use.cs", (14, 24), &["Decoder.cs:10 method qualified 1.00"]),
        ],
    )
    .await;
}

/// A parameter's annotation, a CapWords construction, a `@property` read,
/// `self.x` set in `__init__`, `e` of `except T as e`, a module reached
/// through `from pkg import units` (re-exported by `pkg/__init__.py`) and
/// through `import pkg.units`; `Square` declares the same member names; a
/// name two functions import, each its own.
#[tokio::test]
async fn python_members_through_annotations_constructions_and_modules_are_certain() {
    expect_definitions(
        "rules/python-typed",
        &[
            // `c: Circle` ... `c.area`
            (
                "app.py",
                (7, 14),
                &["pkg/shapes.py:6 property qualified 1.00"],
            ),
            // `made = Circle(2)` ... `made.grow()`
            (
                "app.py",
                (7, 26),
                &["pkg/shapes.py:9 method qualified 1.00"],
            ),
            // `units.scale(..)`
            (
                "app.py",
                (9, 14),
                &["pkg/units.py:2 function qualified 1.00"],
            ),
            // `pkg.units.METRE`
            (
                "app.py",
                (9, 30),
                &["pkg/units.py:1 constant qualified 1.00"],
            ),
            // `except ShapeError as e: e.describe()`
            (
                "app.py",
                (11, 10),
                &["pkg/shapes.py:26 method qualified 1.00"],
            ),
            // `self.radius` in a method of `Circle`
            (
                "pkg/shapes.py",
                (6, 20),
                &["pkg/shapes.py:3 field qualified 1.00"],
            ),
            // `f` imported in two functions, each its own.
            (
                "scoped.py",
                (2, 11),
                &["pkg/units.py:2 function import 1.00"],
            ),
            ("scoped.py", (7, 11), &["pkg/shapes.py:1 class import 1.00"]),
        ],
    )
    .await;
}
