//! Tests of the tool surface as a model meets it: the toolsets an endpoint
//! offers, what they cost in tokens (o200k, the tokenizer of current
//! models) and whether a client's tool search finds the right tool.

use std::collections::HashMap;

use serde_json::{Value, json};
use tokio::sync::watch;

use super::*;
use lingo_tools::Toolset;

/// Most tokens of all tools together, as a model reads them.
const ALL_TOOLS_BUDGET: usize = 12_000;
/// Most tokens of the default set.
const DEFAULT_SET_BUDGET: usize = 5_000;

/// The surface `selection` gives a one-workspace server.
fn surface_of(selection: Selection) -> Surface {
    let (_, ready) = watch::channel(None);
    surface(&ToolRegistry::new(), &Scope::Opening(ready), selection)
}

/// What a model is shown of one tool: name, description, input schema.
fn as_read(tool: &Value) -> String {
    json!({
        "name": tool["name"],
        "description": tool["description"],
        "inputSchema": tool["inputSchema"],
    })
    .to_string()
}

fn tokens(listing: &[Value]) -> (usize, Vec<(String, usize)>) {
    let bpe = tiktoken_rs::o200k_base().expect("the o200k vocabulary");
    let per_tool: Vec<(String, usize)> = listing
        .iter()
        .map(|tool| {
            let name = tool["name"].as_str().unwrap_or_default().to_string();
            (name, bpe.encode_ordinary(&as_read(tool)).len())
        })
        .collect();
    (per_tool.iter().map(|(_, n)| n).sum(), per_tool)
}

#[test]
fn every_tool_and_the_default_set_fit_their_token_budgets() {
    let mut over = Vec::new();
    for (selection, budget) in [
        (Selection::all(), ALL_TOOLS_BUDGET),
        (
            Selection::of_sets(vec![Toolset::Default]),
            DEFAULT_SET_BUDGET,
        ),
    ] {
        let surface = surface_of(selection.clone());
        let (total, mut per_tool) = tokens(surface.listing());
        per_tool.sort_by_key(|tool| std::cmp::Reverse(tool.1));
        println!(
            "{:?}: {total} tokens (budget {budget}): {per_tool:?}",
            selection.sets()
        );
        if total > budget {
            over.push(format!("{:?}: {total} > {budget}", selection.sets()));
        }
    }
    assert!(over.is_empty(), "over budget: {over:?}");
}

#[test]
fn a_toolset_lists_its_tools_in_the_registry_order() {
    let default = surface_of(Selection::of_sets(vec![Toolset::Default]));
    let names: Vec<&str> = default
        .listing()
        .iter()
        .filter_map(|tool| tool["name"].as_str())
        .collect();
    assert_eq!(
        names,
        [
            "outline",
            "search_symbols",
            "find_definition",
            "find_references",
            "get_symbol_info",
            "get_call_hierarchy",
            "node_source",
            "rename",
            "apply_plan",
            "rollback"
        ]
    );
    let all = surface_of(Selection::all());
    assert_eq!(all.listing().len(), ToolRegistry::new().tools().len());
    // One project: `projectId` is accepted but not advertised.
    assert!(
        all.listing()
            .iter()
            .all(|tool| tool["inputSchema"]["properties"]["projectId"].is_null())
    );
}

#[test]
fn read_only_offers_no_tool_that_writes_and_instructions_say_so() {
    let known = ToolRegistry::new().names();
    let selection = Selection::new(&["all".into()], &[], &[], true, &known).unwrap();
    let surface = surface_of(selection);
    for tool in surface.listing() {
        assert_eq!(
            tool["annotations"]["readOnlyHint"],
            json!(true),
            "{}",
            tool["name"]
        );
    }
    assert!(surface.instructions().contains("read-only"));
    assert!(surface.instructions().contains("zero-based"));
    assert!(surface.instructions().contains("`line:column` 1-based"));
}

#[test]
fn a_tool_the_endpoint_does_not_offer_is_refused_with_its_toolset() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let server = super::tests::server();
    let surface = server.surface_for(Selection::of_sets(vec![Toolset::Default]));
    let params = json!({ "name": "analyze_dead_code", "arguments": {} });
    let budget = Budget::new(Some(Duration::from_secs(10)));
    let error = runtime
        .block_on(server.call_tool_as(params, budget, &Grant::local(), &surface))
        .expect_err("not offered");
    assert_eq!(error.code, jsonrpc::INVALID_PARAMS);
    assert!(
        error.message.contains("toolset `analysis`"),
        "{}",
        error.message
    );
    let data = error.data.expect("data");
    assert_eq!(data["code"], json!("TOOL_NOT_ENABLED"));
    assert_eq!(data["toolset"], json!("analysis"));

    // An unknown name is suggested only tools the endpoint offers.
    let params = json!({ "name": "find_referencs", "arguments": {} });
    let budget = Budget::new(Some(Duration::from_secs(10)));
    let error = runtime
        .block_on(server.call_tool_as(params, budget, &Grant::local(), &surface))
        .expect_err("unknown");
    let data = error.data.expect("data");
    assert_eq!(data["suggestions"][0], json!("find_references"));
    assert!(
        !data["available"]
            .as_array()
            .expect("available")
            .contains(&json!("analyze_dead_code"))
    );
}

/// An answer is its text unless the operator chose structured output or
/// the call asks `format: json`; a refusal always carries its structured
/// error; a tool declares an `outputSchema` exactly when its answers carry
/// `structuredContent`.
#[test]
fn structured_content_goes_where_it_is_asked_for() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let server = super::tests::server();
    let call = |surface: &Surface, arguments: Value| {
        let params = json!({ "name": "get_diagnostics", "arguments": arguments });
        let budget = Budget::new(Some(Duration::from_secs(10)));
        runtime
            .block_on(server.call_tool_as(params, budget, &Grant::local(), surface))
            .expect("a result")
    };
    let plain = server.surface_for(Selection::all());
    let structured = server.surface_for(Selection::all().with_structured_output(true));
    assert!(
        plain
            .listing()
            .iter()
            .all(|t| t.get("outputSchema").is_none()),
        "no outputSchema without structured output"
    );
    assert!(
        structured
            .listing()
            .iter()
            .all(|t| t["outputSchema"]["type"] == json!("object")),
        "every tool declares its outputSchema with structured output"
    );
    // An empty workspace: no diagnostics, an answer all the same.
    let answered = call(&plain, json!({}));
    assert_eq!(answered["isError"], json!(false), "{answered}");
    assert!(answered.get("structuredContent").is_none(), "{answered}");
    assert!(answered["content"][0]["text"].is_string(), "{answered}");

    let asked = call(&plain, json!({ "format": "json" }));
    let text: Value = serde_json::from_str(asked["content"][0]["text"].as_str().unwrap())
        .expect("the text is the JSON");
    assert_eq!(asked["structuredContent"], text, "{asked}");

    let refused = call(&plain, json!({ "path": "../outside.rs" }));
    assert_eq!(refused["isError"], json!(true), "{refused}");
    assert!(
        refused["structuredContent"]["error"]["code"].is_string(),
        "{refused}"
    );

    let given = call(&structured, json!({}));
    assert_eq!(given["isError"], json!(false), "{given}");
    assert!(given["structuredContent"].is_object(), "{given}");
    // The surface of an HTTP path naming a toolset keeps the choice.
    assert!(
        Selection::all()
            .with_structured_output(true)
            .narrowed_to(Toolset::Graph)
            .structured_output()
    );
}

/// Task phrasings as agents write them, each with the tool that answers it.
const TASKS: &[(&str, &str)] = &[
    ("who calls parse_config", "get_call_hierarchy"),
    ("find all usages of the Config struct", "find_references"),
    ("where is handle_request defined", "find_definition"),
    ("go to the definition of this function", "find_definition"),
    ("rename the function process to run everywhere", "rename"),
    ("move this class to its own file", "move_type_to_file"),
    ("what is never used", "analyze_dead_code"),
    ("list the functions and classes in this file", "outline"),
    ("search for a symbol named UserService", "search_symbols"),
    ("show me the source code of the parse method", "node_source"),
    (
        "which classes implement the Repository interface",
        "find_implementations",
    ),
    ("what type does this variable have", "find_type_definition"),
    (
        "show the signature and docs of this method",
        "get_symbol_info",
    ),
    ("are there syntax errors in this file", "get_diagnostics"),
    ("apply the refactoring plan", "apply_plan"),
    ("undo the last change", "rollback"),
    ("remove the unused imports", "delete"),
    ("find duplicated code", "analyze_duplicates"),
    ("which functions are too complex", "analyze_complexity"),
    (
        "are there circular dependencies between modules",
        "analyze_cycles",
    ),
    ("does the code pass the quality gate in CI", "quality_gate"),
    ("which files change most often", "analyze_code_churn"),
    (
        "which files are most likely to have bugs",
        "analyze_defect_probability",
    ),
    (
        "find names similar to calculate_total",
        "analyze_name_similarity",
    ),
    ("what breaks if I change this function", "dependents_of"),
    ("what does this function depend on", "dependencies_of"),
    ("how is the parser connected to the lexer", "paths_between"),
    (
        "which languages are loaded, is the server healthy",
        "health_check",
    ),
    ("which public functions have no tests", "analyze_tests"),
    ("which functions lack doc comments", "analyze_documentation"),
    ("what are the most central files", "analyze_graph_metrics"),
    (
        "give me a health report of the codebase",
        "analyze_deep_context",
    ),
    ("move this function to another module", "move"),
    (
        "change the namespace of this class",
        "move_type_to_namespace",
    ),
    ("what syntax node is at line 10 column 5", "node_at"),
    (
        "show the import graph between files",
        "analyze_dependencies",
    ),
    (
        "can this folder be extracted into its own package",
        "analyze_module_dependencies",
    ),
    (
        "functions with a low maintainability index",
        "analyze_quality",
    ),
    ("run several analyses in one call", "analyze_batch"),
    (
        "which interfaces have the most implementations",
        "analyze_structure",
    ),
];

/// Lowercase words of `text` (names split at `_`).
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Okapi BM25 (k1 1.2, b 0.75) over the tools' names and descriptions, as
/// a client's tool search ranks them: the names of the best `top`.
fn bm25_top(listing: &[Value], query: &str, top: usize) -> Vec<String> {
    let documents: Vec<(String, Vec<String>)> = listing
        .iter()
        .map(|tool| {
            let name = tool["name"].as_str().unwrap_or_default().to_string();
            let text = format!(
                "{name} {}",
                tool["description"].as_str().unwrap_or_default()
            );
            (name, words(&text))
        })
        .collect();
    let count = documents.len() as f64;
    let mean_length = documents.iter().map(|(_, w)| w.len()).sum::<usize>() as f64 / count;
    let mut frequency: HashMap<&str, f64> = HashMap::new();
    for (_, document) in &documents {
        let mut seen: Vec<&str> = document.iter().map(String::as_str).collect();
        seen.sort_unstable();
        seen.dedup();
        for word in seen {
            *frequency.entry(word).or_default() += 1.0;
        }
    }
    let query = words(query);
    let mut scored: Vec<(f64, &str)> = documents
        .iter()
        .map(|(name, document)| {
            let length = document.len() as f64;
            let score = query
                .iter()
                .map(|term| {
                    let n = frequency.get(term.as_str()).copied().unwrap_or(0.0);
                    let idf = ((count - n + 0.5) / (n + 0.5) + 1.0).ln();
                    let tf = document.iter().filter(|w| *w == term).count() as f64;
                    idf * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * length / mean_length))
                })
                .sum();
            (score, name.as_str())
        })
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
    scored
        .into_iter()
        .take(top)
        .map(|(_, name)| name.to_string())
        .collect()
}

#[test]
fn a_tool_search_finds_the_right_tool_for_36_of_40_tasks() {
    let surface = surface_of(Selection::all());
    let names: Vec<&str> = surface
        .listing()
        .iter()
        .filter_map(|tool| tool["name"].as_str())
        .collect();
    let mut missed = Vec::new();
    for (task, tool) in TASKS {
        assert!(names.contains(tool), "{tool} is not a tool");
        let top = bm25_top(surface.listing(), task, 3);
        if !top.iter().any(|name| name == tool) {
            missed.push(format!("{task:?} -> {top:?}, not {tool}"));
        }
    }
    println!(
        "{} of {} tasks found in the top 3; missed: {missed:#?}",
        TASKS.len() - missed.len(),
        TASKS.len()
    );
    assert_eq!(TASKS.len(), 40);
    assert!(
        missed.len() <= 4,
        "missed {}:\n{}",
        missed.len(),
        missed.join("\n")
    );
}
