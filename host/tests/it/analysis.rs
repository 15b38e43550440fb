//! Data-driven tests of the analysis layer, in process: each case is a
//! fixture text holding several files (`//- path` headers, as in
//! rust-analyzer's fixtures) with a cursor marker `$0`, a query asked at the
//! cursor, and the expected answer in a compact rendering.

use crate::common;

mod cases;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use lingo::analysis::{
    Analysis, CallDirection, CallEnd, FilePosition, Subject, SymbolView, Target,
};
use lingo::resolve::Resolution;
use lingo::runtime::{Limits, PluginRegistry, RuntimeConfig};
use lingo::workspace::Workspace;

use cases::{Case, Query};

/// The cursor marker in fixture texts.
const CURSOR: &str = "$0";

fn registry() -> Arc<PluginRegistry> {
    common::registry().clone()
}

/// A fixture's files, and the cursor (its file, zero-based line and UTF-16
/// character).
struct Fixture {
    files: Vec<(String, String)>,
    cursor: Option<FilePosition>,
}

fn parse_fixture(text: &str) -> Fixture {
    let mut files: Vec<(String, String)> = Vec::new();
    for line in text.lines() {
        if let Some(path) = line.trim().strip_prefix("//- ") {
            files.push((path.trim().to_string(), String::new()));
            continue;
        }
        let Some((_, body)) = files.last_mut() else {
            assert!(
                line.trim().is_empty(),
                "text before the first `//- path`: {line}"
            );
            continue;
        };
        body.push_str(line);
        body.push('\n');
    }
    let mut cursor = None;
    for (path, body) in &mut files {
        if let Some(at) = body.find(CURSOR) {
            assert!(cursor.is_none(), "more than one cursor");
            let before = &body[..at];
            let line = before.matches('\n').count() as u64;
            let line_start = before.rfind('\n').map_or(0, |i| i + 1);
            let character = before[line_start..].encode_utf16().count() as u64;
            body.replace_range(at..at + CURSOR.len(), "");
            cursor = Some(FilePosition {
                path: path.clone(),
                line,
                character,
            });
        }
    }
    Fixture { files, cursor }
}

/// The analysis of a fresh workspace holding the fixture's files.
fn analyse(name: &str, fixture: &Fixture) -> Analysis {
    let root: PathBuf = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("analysis")
        .join(name);
    let _ = std::fs::remove_dir_all(&root);
    for (path, body) in &fixture.files {
        let file = root.join(path);
        std::fs::create_dir_all(file.parent().expect("a file has a folder")).expect("mkdir");
        std::fs::write(&file, body).expect("write a fixture file");
    }
    let workspace = Workspace::new(&root, registry()).expect("a workspace");
    workspace.refresh();
    let snapshot = workspace.snapshot();
    Analysis::new(Arc::new(workspace), snapshot).expect("no budget: never cut short")
}

/// `path:line name` (1-based line) of a declaration.
fn place(path: &str, line: u32, container: Option<&str>, name: &str) -> String {
    match container {
        Some(c) => format!("{path}:{} {c}.{name}", line + 1),
        None => format!("{path}:{} {name}", line + 1),
    }
}

fn symbol(view: &SymbolView) -> String {
    place(
        &view.file_path,
        view.range.start.line,
        view.container.as_deref(),
        &view.name,
    )
}

fn call_end(end: &Option<CallEnd>) -> String {
    match end {
        Some(CallEnd::Symbol(view)) => symbol(view),
        Some(CallEnd::File { file_path, .. }) => format!("{file_path} (top level)"),
        None => "?".into(),
    }
}

/// The compact rendering of `query`'s answer at the cursor: one line per
/// item, `error CODE` for a refusal.
fn answer(analysis: &Analysis, query: Query, cursor: &FilePosition) -> Vec<String> {
    let target = Target::Position(cursor.clone());
    let lines =
        match query {
            Query::Definition => analysis.definition(&target).map(|d| {
                d.definitions
                    .iter()
                    .map(|s| {
                        let container = s.declared.as_ref().and_then(|d| d.container.as_deref());
                        let place = place(&s.file_path, s.range.start.line, container, &s.name);
                        format!(
                            "{place} {}{}",
                            word(&s.resolution),
                            uncertain(s.resolution, s.confidence)
                        )
                    })
                    .collect()
            }),
            Query::References => analysis.references(&target).map(|r| {
                r.sites
                    .iter()
                    .map(|s| {
                        let condition = s
                            .site
                            .condition
                            .as_deref()
                            .map(|c| format!(" when {c}"))
                            .unwrap_or_default();
                        format!(
                            "{}:{} {} in {} {}{}{condition}",
                            s.site.file_path,
                            s.site.range.start.line + 1,
                            word(&s.site.kind),
                            s.site.enclosing.as_deref().unwrap_or("-"),
                            word(&s.resolution),
                            uncertain(s.resolution, s.confidence),
                        )
                    })
                    .collect()
            }),
            Query::Implementations => analysis.implementations(&target, true).map(|i| {
                i.implementations
                    .iter()
                    .map(|i| format!("{} {} {}", symbol(&i.symbol), i.relation.as_str(), i.depth))
                    .collect()
            }),
            Query::TypeDefinition => analysis.type_definition(&target).map(|t| {
                t.type_definitions
                    .iter()
                    .map(|t| symbol(&t.symbol))
                    .collect()
            }),
            Query::Callers | Query::Callees => {
                let direction = if query == Query::Callers {
                    CallDirection::Incoming
                } else {
                    CallDirection::Outgoing
                };
                analysis.call_hierarchy(&target, direction, 1).map(|h| {
                    let calls = h.incoming.or(h.outgoing).unwrap_or_default();
                    calls
                        .iter()
                        .map(|c| {
                            call_end(if query == Query::Callers {
                                &c.from
                            } else {
                                &c.to
                            })
                        })
                        .collect()
                })
            }
            Query::SymbolInfo => analysis.symbol_info(&target).map(|info| {
                let Some(d) = info.details else {
                    return vec![format!("{} local", info.subject.name())];
                };
                let tally = |t: lingo::analysis::Tally| format!("{}+{}", t.certain, t.name_only);
                let members: Vec<&str> = d.members.iter().map(|m| m.name.as_str()).collect();
                vec![format!(
                "{} {:?} references {} callers {} callees {} implementations {} members [{}]",
                info.subject.name(),
                d.visibility,
                tally(d.references),
                tally(d.callers),
                tally(d.callees),
                tally(d.implementations),
                members.join(" ")
            )
            .to_lowercase()]
            }),
            Query::Dependents | Query::Dependencies => analysis.subject(&target).map(|subject| {
                let Subject::Symbol(r) = subject else {
                    return vec!["a local".to_string()];
                };
                let graph = if query == Query::Dependents {
                    analysis.dependents(r)
                } else {
                    analysis.dependencies(r)
                }
                .expect("no budget: never cut short");
                let mut edges: Vec<String> = graph
                    .edges
                    .iter()
                    .map(|e| {
                        let end = |i: usize| {
                            let n = &graph.nodes[i];
                            format!("{}:{} {}", n.file, n.start_line, n.name)
                        };
                        format!("{} {} {}", end(e.from), e.label.as_str(), end(e.to))
                    })
                    .collect();
                edges.sort();
                edges.extend(graph.notes.iter().map(|n| format!("note: {n}")));
                edges
            }),
        };
    match lines {
        Ok(lines) => lines,
        Err(error) => vec![format!(
            "error {}",
            lingo::error::ToolError::from(error).code()
        )],
    }
}

/// ` uncertain` after a resolution other than name-only found with a
/// confidence below 1 (several overloads, a name that may mean a member
/// or a type); nothing otherwise.
fn uncertain(resolution: Resolution, confidence: f64) -> &'static str {
    if resolution != Resolution::NameOnly && confidence < 1.0 {
        " uncertain"
    } else {
        ""
    }
}

/// An enum as it serializes (`name_only`, `call`).
fn word(value: &impl serde::Serialize) -> String {
    serde_json::to_value(value)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

/// Run every case of `cases`; report all mismatches at once.
fn run(cases: &[Case]) {
    let mut failures = Vec::new();
    for case in cases {
        let fixture = parse_fixture(case.fixture);
        let cursor = fixture
            .cursor
            .clone()
            .unwrap_or_else(|| panic!("{}: no cursor `$0`", case.name));
        let analysis = analyse(case.name, &fixture);
        let actual = answer(&analysis, case.query, &cursor);
        let expected: Vec<String> = case
            .expected
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(str::to_string)
            .collect();
        let wrong_today = cases::WRONG_TODAY
            .iter()
            .find(|(name, _)| *name == case.name);
        match wrong_today {
            Some((_, why)) if actual == expected => {
                eprintln!("{}: right now; drop it from WRONG_TODAY ({why})", case.name);
            }
            Some((_, why)) => eprintln!("{}: still wrong: {why}\n  {actual:?}", case.name),
            None => {}
        }
        if actual != expected && wrong_today.is_none() {
            failures.push(format!(
                "{} ({:?}):\n  expected: {expected:#?}\n  actual:   {actual:#?}",
                case.name, case.query
            ));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn rust() {
    run(cases::RUST);
}

#[test]
fn typescript() {
    run(cases::TYPESCRIPT);
}

#[test]
fn go() {
    run(cases::GO);
}

#[test]
fn csharp() {
    run(cases::CSHARP);
}

#[test]
fn java() {
    run(cases::JAVA);
}

#[test]
fn python() {
    run(cases::PYTHON);
}

/// A file its plugin could not analyse makes every resolution-dependent
/// answer incomplete, and the answer says why.
#[test]
fn answers_say_what_they_could_not_see() {
    let hostile = Path::new(lingo::runtime::artifact_dir()).join("lingo_plugin_hostile.wasm");
    let registry = PluginRegistry::load(&RuntimeConfig {
        extra_plugins: vec![hostile],
        include_built_in: true,
        cache_dir: Some(Path::new(env!("CARGO_TARGET_TMPDIR")).join("lingo-cache")),
        limits: Limits {
            // Past it for the hostile file (5 s), well within it for the
            // Rust plugin's calls on a busy machine.
            call_timeout: std::time::Duration::from_millis(2000),
            ..Limits::default()
        },
        extension_owners: Default::default(),
        compilation: Default::default(),
    })
    .expect("the built-in plugins and the hostile one");
    let root = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("analysis")
        .join("incomplete");
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(root.join("src")).expect("mkdir");
    std::fs::write(
        root.join("src/lib.rs"),
        "pub fn f() {}\n\npub fn g() {\n    f()\n}\n",
    )
    .expect("write");
    // The hostile plugin takes 5 s over this file: past the 2 s limit.
    std::fs::write(root.join("x.slow"), "ms=5000\n").expect("write");
    let workspace = Workspace::new(&root, Arc::new(registry)).expect("a workspace");
    workspace.refresh();
    let snapshot = workspace.snapshot();
    let analysis =
        Analysis::new(Arc::new(workspace), snapshot).expect("no budget: never cut short");
    let target = Target::Symbol(lingo::analysis::SymbolQuery {
        name: "f".into(),
        path: None,
    });
    let answer = analysis.references(&target).expect("references of f");
    assert_eq!(answer.sites.len(), 1, "{answer:#?}");
    let completeness = serde_json::to_value(&answer.completeness).expect("serializes");
    assert_eq!(
        completeness["complete"],
        serde_json::json!(false),
        "{completeness:#}"
    );
    assert_eq!(
        completeness["unanalyzedFiles"],
        serde_json::json!(1),
        "{completeness:#}"
    );
    let reasons = completeness["incompleteReasons"].to_string();
    assert!(
        reasons.contains("1 files could not be analysed"),
        "{reasons}"
    );
}

/// `paths_between` finds the shortest path in either direction, and none
/// between unrelated declarations; the same declaration twice is refused.
#[test]
fn paths_between_declarations() {
    let fixture = parse_fixture(
        "//- src/lib.rs\n\
         pub fn parse() -> u32 {\n    1\n}\n\n\
         pub fn typed() -> u32 {\n    parse()\n}\n\n\
         pub fn outer() -> u32 {\n    typed()\n}\n\n\
         pub fn alone() {}\n",
    );
    let analysis = analyse("paths_between", &fixture);
    let symbol = |name: &str| {
        analysis
            .symbol_in_file("src/lib.rs", name)
            .expect("a declaration")
    };
    let path = |from: &str, to: &str| -> Vec<String> {
        let answer = analysis
            .paths_between(symbol(from), symbol(to))
            .expect("an answer");
        let Some(graph) = answer.graph else {
            return vec![answer.text()];
        };
        graph
            .edges
            .iter()
            .map(|e| {
                let (a, b) = (&graph.nodes[e.from].name, &graph.nodes[e.to].name);
                format!("{a} {} {b}", e.label.as_str())
            })
            .collect()
    };
    let chain = ["outer CALLS typed", "typed CALLS parse"];
    assert_eq!(path("outer", "parse"), chain);
    assert_eq!(path("parse", "outer"), chain, "searched backwards too");
    assert_eq!(path("alone", "parse"), ["No path found."]);
    let same = analysis.paths_between(symbol("parse"), symbol("parse"));
    assert!(
        matches!(same, Err(lingo::analysis::AnalysisError::SameSymbol)),
        "{same:?}"
    );
}

/// The JSON of the outline of `src/lib.rs`.
fn outline_json(analysis: &Analysis, depth: Option<usize>, collapse: bool) -> serde_json::Value {
    let file = analysis.snapshot().file("src/lib.rs").expect("indexed");
    let outline = lingo::analysis::outline(file.clone(), depth, collapse, 1).expect("an outline");
    serde_json::to_value(&outline).expect("serializes")
}

/// An outline nests declarations under their containers in source order,
/// shows `depth` levels, and says how many declarations it left out for
/// its byte budget (all the others, at any depth).
#[test]
fn outline_nests_cuts_and_counts_what_it_leaves_out() {
    let fixture = parse_fixture(
        "//- src/lib.rs\n\
         pub mod shapes {\n    pub struct Point;\n    impl Point {\n        pub fn new() -> Point {\n            Point\n        }\n        pub fn norm(&self) -> u32 {\n            0\n        }\n    }\n}\n\n\
         pub fn free() {}\n",
    );
    let analysis = analyse("outline", &fixture);
    let names = |outline: &serde_json::Value| -> Vec<String> {
        // `name@line` depth first, children indented by two spaces.
        let mut lines = Vec::new();
        let mut stack: Vec<(&serde_json::Value, usize)> = outline["outline"]
            .as_array()
            .expect("nodes")
            .iter()
            .rev()
            .map(|n| (n, 0))
            .collect();
        while let Some((node, depth)) = stack.pop() {
            lines.push(format!(
                "{}{}@{}",
                "  ".repeat(depth),
                node["name"].as_str().unwrap(),
                node["line"]
            ));
            if let Some(children) = node["children"].as_array() {
                stack.extend(children.iter().rev().map(|c| (c, depth + 1)));
            }
        }
        lines
    };
    let full = outline_json(&analysis, None, true);
    let impl_name = names(&full)[2].trim().to_string();
    assert_eq!(
        names(&full),
        [
            "shapes@1",
            "  Point@2",
            &format!("  {impl_name}"),
            "    new@4",
            "    norm@7",
            "free@13"
        ],
        "{full:#}"
    );
    assert_eq!(full["truncated"], serde_json::json!(false));
    assert_eq!(
        full["outline"][0]["chunkId"],
        serde_json::json!("src/lib.rs:1:shapes")
    );
    let shallow = outline_json(&analysis, Some(2), false);
    assert_eq!(
        names(&shallow),
        [
            "shapes@1",
            "  Point@2",
            &format!("  {impl_name}"),
            "free@13"
        ]
    );
    assert_eq!(
        shallow["outline"][1]["source"],
        serde_json::json!("pub fn free() {}")
    );

    // 4,000 functions with long signatures are past the byte budget: the
    // outline stops and counts the rest.
    let long = "x: u64, ".repeat(12);
    let body: String = (0..4_000)
        .map(|i| format!("pub fn f{i}({long}) {{}}\n"))
        .collect();
    let fixture = parse_fixture(&format!("//- src/lib.rs\n{body}"));
    let cut = outline_json(&analyse("outline_budget", &fixture), None, true);
    let shown = cut["outline"].as_array().expect("nodes").len();
    assert!(shown > 100 && shown < 4_000, "{shown} shown");
    assert_eq!(cut["truncated"], serde_json::json!(true));
    let note = cut["notes"][0].as_str().expect("a note");
    assert!(
        note.starts_with(&format!("{} of 4000 declarations omitted", 4_000 - shown)),
        "{note}"
    );
}

/// A definition asked at a declaration (a function's name, a local's) is
/// that declaration, and the answer names it: its text is the declaration's
/// line alone.
#[test]
fn a_declaration_is_its_own_definition_and_is_named() {
    use lingo::tools::{ToolContext, ToolRegistry};

    let fixture = parse_fixture(
        "//- src/lib.rs\n\
         pub fn total(prices: &[u32]) -> u32 {\n    let sum = prices.iter().sum();\n    sum\n}\n",
    );
    let analysis = analyse("declaration_definition", &fixture);
    for (line, character, name, kind) in [(0, 8, "total", "function"), (1, 9, "sum", "variable")] {
        let position = FilePosition {
            path: "src/lib.rs".into(),
            line,
            character,
        };
        let answer = analysis
            .definition(&Target::Position(position))
            .expect("a definition");
        assert_eq!(answer.query.name.as_deref(), Some(name), "{answer:#?}");
        assert_eq!(answer.definitions.len(), 1, "{answer:#?}");
        assert_eq!(answer.definitions[0].kind, kind, "{answer:#?}");
    }

    let tools = ToolRegistry::new();
    let context = ToolContext {
        workspace: analysis.workspace().clone(),
        tool_names: tools.names(),
        gate: Default::default(),
    };
    let tool = tools.find("find_definition").expect("the tool");
    let arguments = serde_json::json!({ "path": "src/lib.rs", "line": 1, "character": 9 });
    let answer = tools
        .call(tool, &context, &arguments)
        .expect("find_definition answers");
    assert_eq!(
        tool.render(&arguments, &answer).trim(),
        "src/lib.rs:2 variable sum"
    );
}
