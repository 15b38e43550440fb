//! The `analyze_*` tools (typemill's unified analysis API, snake_case with
//! the dotted spellings as aliases): each reads the envelope (`kind`,
//! `scope`, `options`), runs one analysis of [`crate::analyze`] and answers
//! its AnalysisResult, paged.

use std::time::Instant;

use serde_json::{Map, Value, json};

use super::output::{array_of, boolean, integer, object, string};
use super::target::to_json;
use super::{About, Args, Handler, Tool, ToolContext, text};
use crate::args::Group;
use crate::error::ToolError;
use lingo_analysis::{Analysis, GraphLevel, GraphMetricsError, MetricsWanted};
use lingo_analyze::{
    self as analyze, CYCLE_KINDS, DEAD_CODE_KINDS, DOCUMENTATION_KINDS, Found, QUALITY_KINDS,
    Scope, ScopeError, ScopeKind, TEST_KINDS, Thresholds,
};
use lingo_model::budget::Exhausted;
use schemars::JsonSchema;
use serde::Deserialize;

const DEFAULT_LIMIT: u64 = 1000;
const MAX_LIMIT: u64 = 5000;

/// `analyze_quality`.
pub fn quality() -> Tool {
    let mut options = options_schema();
    options["properties"]["thresholds"] = thresholds_schema(
        &Thresholds::KEYS,
        "Limits a function is held to; the defaults are echoed in metadata.thresholds",
    );
    Tool {
        name: "analyze_quality",
        aliases: &["analyze.quality"],
        description: "Code quality findings as findings. `complexity`: functions over the thresholds of cyclomatic or cognitive complexity (medium; high at twice), nesting depth, parameter count or length (low), with every metric; `maintainability`: functions whose maintainability index (0-100, from Halstead volume, cyclomatic complexity and lines) is under the threshold (default 20; high under half of it). Most severe first, paginated.",
        input_schema: input_schema(QUALITY_KINDS, options),
        handler: Handler::Untyped(run_quality),
        text: text::analysis,
        output_schema: output_schema(),
    }
}

/// `analyze_dead_code`.
pub fn dead_code() -> Tool {
    Tool {
        name: "analyze_dead_code",
        aliases: &["analyze.dead_code"],
        description: "Dead code as findings. `unused_symbols` / `unused_types`: private functions, methods, constants (or types) that nothing in the workspace references or even names outside other dead code and that their plugin names no entry point (main, tests, trait implementations) — medium, and low when the index could not see every file; those no reference resolves to but whose name is written elsewhere (a macro, a string) are low, 'unreferenced as far as lingo can see', with the places. `unused_imports`: imports nothing in their file uses, by the rules of `delete`. Each actionable finding suggests the `delete` call that removes it. Paginated.",
        input_schema: input_schema(DEAD_CODE_KINDS, options_schema()),
        handler: Handler::Untyped(run_dead_code),
        text: text::analysis,
        output_schema: output_schema(),
    }
}

/// `analyze_cycles`.
pub fn cycles() -> Tool {
    Tool {
        name: "analyze_cycles",
        aliases: &["analyze.cycles"],
        description: "Dependency cycles as findings: the strongly connected components of the module graph (`modules`: one module depends on another when one of its files holds a certain reference into it) or of the declaration graph (`symbols`: certain calls, references, extends and implements), each with a shortest concrete cycle (metrics.circular_path) and the reference making each step (metrics.steps). Module cycles are medium, high where the language refuses them (Go); declaration cycles (mutual recursion) low. Paginated.",
        input_schema: input_schema(CYCLE_KINDS, options_schema()),
        handler: Handler::Untyped(run_cycles),
        text: text::analysis,
        output_schema: output_schema(),
    }
}

fn run_cycles(context: &ToolContext, args: &Args) -> Result<Value, ToolError> {
    run(
        context,
        args,
        ("dependencies", CYCLE_KINDS),
        analyze::cycles,
    )
}

/// `quality_gate` (mcp-wire-protocol.md).
pub fn quality_gate() -> Tool {
    Tool::new(
        About {
            name: "quality_gate",
            aliases: &["qualityGate"],
            description: "Pass or fail for CI: every function's cyclomatic complexity against `complexity_threshold` (default 10), and the share of duplicated lines against `duplication_threshold` (default 5%: each file above it is a violation), each violation listed with its place. With `defect_threshold`, each file whose analyze_defect_probability score is above it is a violation (without it the check is skipped: the score is explainable, not calibrated). Coverage is not measured: that check is reported `skipped` with the reason, never passed. With `fail_on_violation`, a failed gate is an error (QUALITY_GATE_FAILED) carrying the verdict. The CLI twin `lingo analyze quality_gate` writes JUnit XML or Markdown and exits non-zero on failure.",
            text: text::gate,
            output_schema: gate_schema(),
        },
        run_quality_gate,
    )
}

#[derive(Deserialize, JsonSchema)]
struct GateArgs {
    /// Folder or file to check (default: the whole workspace)
    project_path: Option<String>,
    /// Highest cyclomatic complexity a function may have (default 10)
    #[schemars(range(min = 0))]
    complexity_threshold: Option<f64>,
    /// Highest share of duplicated lines, in percent, over the files (default 5); clones as analyze_duplicates finds them at its defaults
    #[schemars(range(min = 0))]
    duplication_threshold: Option<f64>,
    /// Lowest test coverage (not measured yet: the check is skipped)
    #[schemars(range(min = 0))]
    coverage_threshold: Option<f64>,
    /// Highest defect probability of a file, as analyze_defect_probability scores it (no default: the check is skipped without it)
    #[schemars(range(min = 0))]
    defect_threshold: Option<f64>,
    /// Answer a failed gate as an error (QUALITY_GATE_FAILED)
    #[serde(default)]
    fail_on_violation: bool,
}

impl Group for GateArgs {}

fn run_quality_gate(context: &ToolContext, args: GateArgs) -> Result<Value, ToolError> {
    // A call's thresholds, else the project's (`lingo.toml`), else the
    // spec's defaults.
    let project = &context.gate;
    let request = analyze::GateRequest {
        complexity_threshold: args
            .complexity_threshold
            .or(project.complexity_threshold)
            .unwrap_or(10.0),
        duplication_threshold: args
            .duplication_threshold
            .or(project.duplication_threshold)
            .unwrap_or(5.0),
        coverage_threshold: args.coverage_threshold.or(project.coverage_threshold),
        defect_threshold: args.defect_threshold.or(project.defect_threshold),
    };
    let fail = args.fail_on_violation;
    let analysis = Analysis::fresh(&context.workspace)?;
    let files = analysis.files_under(args.project_path.as_deref().unwrap_or("."))?;
    let result = analyze::quality_gate(&analysis, &files, &request)?;
    let mut value = to_json(&result)?;
    value["generation"] = json!(analysis.generation());
    if fail && !result.passed {
        return Err(ToolError::QualityGateFailed {
            failed: result
                .checks
                .iter()
                .filter(|c| c.status == analyze::Status::Failed)
                .map(|c| c.name.to_string())
                .collect(),
            violations: result.violations.len(),
            result: value,
        });
    }
    Ok(value)
}

fn gate_schema() -> Value {
    object(
        &["passed", "checks", "violations", "files_analyzed"],
        json!({
            "passed": boolean(),
            "checks": array_of(object(&["name", "status", "violations"], json!({
                "name": string(),
                "status": { "type": "string", "enum": ["passed", "failed", "skipped"] },
                "threshold": { "type": ["number", "null"] },
                "violations": integer(),
                "reason": string(),
            }))),
            "violations": array_of(object(
                &["check", "file_path", "range", "symbol", "value", "threshold", "message"],
                json!({
                    "check": string(), "file_path": string(), "range": super::output::range(),
                    "symbol": string(), "value": { "type": "number" }, "threshold": { "type": "number" },
                    "message": string(),
                }),
            )),
            "files_analyzed": integer(),
            "generation": integer(),
        }),
    )
}

/// `analyze_graph_metrics` (mcp-wire-protocol.md).
pub fn graph_metrics() -> Tool {
    Tool::new(
        About {
            name: "analyze_graph_metrics",
            aliases: &["analyzeGraphMetrics"],
            description: "Metrics of the dependency graph between files (or modules, or declarations: `level` symbols, nodes named `path:qualified name`): PageRank (personalised by `pagerank_seeds`, file paths or their last parts), in- and out-degree, betweenness and closeness centrality (graphs up to 20,000 nodes), local clustering, weakly and strongly connected components; `graphml: true` adds the graph as GraphML. Nodes ranked by PageRank; `top` of them listed (default 20).",
            text: text::graph_metrics,
            output_schema: graph_metrics_schema(),
        },
        run_graph_metrics,
    )
}

/// The graph `analyze_graph_metrics` measures.
#[derive(Clone, Copy, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Level {
    #[default]
    Files,
    Modules,
    Symbols,
}

/// A metric `analyze_graph_metrics` computes.
#[derive(Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Metric {
    Centrality,
    Pagerank,
    Clustering,
    Components,
    All,
}

#[derive(Deserialize, JsonSchema)]
struct GraphMetricsArgs {
    #[serde(default)]
    level: Level,
    /// Default: all
    #[serde(default)]
    metrics: Vec<Metric>,
    /// Nodes PageRank returns to (personalised PageRank)
    #[serde(default)]
    pagerank_seeds: Vec<String>,
    #[serde(default)]
    graphml: bool,
    #[serde(default = "default_top")]
    #[schemars(range(min = 1, max = 5000))]
    top: u32,
}

impl Group for GraphMetricsArgs {}

fn default_top() -> u32 {
    20
}

fn run_graph_metrics(context: &ToolContext, args: GraphMetricsArgs) -> Result<Value, ToolError> {
    let level = match args.level {
        Level::Files => GraphLevel::Files,
        Level::Modules => GraphLevel::Modules,
        Level::Symbols => GraphLevel::Symbols,
    };
    let asked = &args.metrics;
    let all = asked.is_empty() || asked.contains(&Metric::All);
    let wanted = MetricsWanted {
        pagerank: all || asked.contains(&Metric::Pagerank),
        centrality: all || asked.contains(&Metric::Centrality),
        clustering: all || asked.contains(&Metric::Clustering),
        components: all || asked.contains(&Metric::Components),
        graphml: args.graphml,
    };
    let seeds = args.pagerank_seeds;
    let top = args.top as usize;
    let analysis = Analysis::fresh(&context.workspace)?;
    let mut metrics = analysis
        .graph_metrics(level, &wanted, &seeds)
        .map_err(|e| match e {
            GraphMetricsError::UnknownSeed { seed, suggestions } => ToolError::InvalidParam {
                field: "pagerank_seeds".into(),
                reason: format!("no node of the graph is named `{seed}`"),
                suggestions,
            },
            GraphMetricsError::Exhausted(exhausted) => ToolError::Exhausted(exhausted),
        })?;
    let total = metrics.ranked.len();
    metrics.ranked.truncate(top);
    let mut value = to_json(&metrics)?;
    value["total_nodes_ranked"] = json!(total);
    value["generation"] = json!(analysis.generation());
    Ok(value)
}

fn graph_metrics_schema() -> Value {
    let number = json!({ "type": "number" });
    object(
        &["level", "nodes", "edges", "ranked", "seeds", "skipped"],
        json!({
            "level": { "type": "string", "enum": ["files", "modules", "symbols"] },
            "nodes": integer(), "edges": integer(),
            "ranked": array_of(object(&["name", "in_degree", "out_degree"], json!({
                "name": string(), "in_degree": integer(), "out_degree": integer(),
                "pagerank": number, "betweenness": number, "closeness": number, "clustering": number,
            }))),
            "average_clustering": number,
            "components": object(
                &["weakly_connected", "largest_weakly_connected", "cyclic_components", "largest_strongly_connected"],
                json!({
                    "weakly_connected": integer(), "largest_weakly_connected": integer(),
                    "cyclic_components": integer(), "largest_strongly_connected": integer(),
                }),
            ),
            "seeds": array_of(string()),
            "skipped": array_of(string()),
            "graphml": string(),
            "total_nodes_ranked": integer(),
            "generation": integer(),
        }),
    )
}

/// `analyze_documentation`.
pub fn documentation() -> Tool {
    let mut options = options_schema();
    options["properties"]["visibility"] =
        json!({ "type": "string", "enum": ["public", "all"], "default": "public" });
    Tool {
        name: "analyze_documentation",
        aliases: &["analyze.documentation"],
        description: "Documentation as findings, from the doc comments the plugins read: `missing`, each declaration (function, method, type, constant, module) without one; `coverage`, per file, the share that have one (medium under 25%). Public declarations only unless options.visibility is `all`. Paginated.",
        input_schema: input_schema(DOCUMENTATION_KINDS, options),
        handler: Handler::Untyped(run_documentation),
        text: text::analysis,
        output_schema: output_schema(),
    }
}

fn run_documentation(context: &ToolContext, args: &Args) -> Result<Value, ToolError> {
    let all = match options(args)?.get("visibility") {
        None | Some(Value::Null) => false,
        Some(Value::String(v)) if v == "public" => false,
        Some(Value::String(v)) if v == "all" => true,
        Some(_) => {
            return Err(ToolError::invalid(
                "options.visibility",
                "expected `public` or `all`",
            ));
        }
    };
    run(
        context,
        args,
        ("documentation", DOCUMENTATION_KINDS),
        |_, files, kind| Ok(analyze::documentation(files, kind, all)),
    )
}

/// `analyze_tests`.
pub fn tests() -> Tool {
    Tool {
        name: "analyze_tests",
        aliases: &["analyze.tests"],
        description: "Tests as findings, statically: the tests are the declarations the plugins name as test entry points, and a function is reached when certain calls and references lead to it from one (no coverage file is read; a call lingo cannot resolve is not followed). `untested`: each public function or method no test reaches; `coverage`: per file, the share reached (medium when none). Paginated.",
        input_schema: input_schema(TEST_KINDS, options_schema()),
        handler: Handler::Untyped(run_tests),
        text: text::analysis,
        output_schema: output_schema(),
    }
}

fn run_tests(context: &ToolContext, args: &Args) -> Result<Value, ToolError> {
    run(context, args, ("tests", TEST_KINDS), analyze::tests)
}

/// `analyze_complexity` (mcp-wire-protocol.md).
pub fn complexity() -> Tool {
    Tool::new(
        About {
            name: "analyze_complexity",
            aliases: &["analyzeComplexity"],
            description: "Complexity report: functions over `max_cyclomatic` (default 10) or `max_cognitive` (default 15), most complex first, and with `top_files` the files ranked by total_score (their highest cyclomatic complexity plus their functions' mean cognitive complexity), with function count and Halstead effort; `top_files: 0` ranks every file with a violation. `toolchain` keeps the files of one language (rust, typescript, javascript, go, csharp).",
            text: text::complexity,
            output_schema: complexity_schema(),
        },
        run_complexity,
    )
}

#[derive(Deserialize, JsonSchema)]
struct ComplexityArgs {
    /// Folder or file (`.` for the workspace)
    project_path: String,
    /// The language whose files are analysed
    toolchain: String,
    #[serde(default = "default_max_cyclomatic")]
    max_cyclomatic: u32,
    #[serde(default = "default_max_cognitive")]
    max_cognitive: u32,
    #[schemars(range(max = 5000))]
    top_files: Option<u32>,
}

impl Group for ComplexityArgs {}

fn default_max_cyclomatic() -> u32 {
    10
}

fn default_max_cognitive() -> u32 {
    15
}

fn run_complexity(context: &ToolContext, args: ComplexityArgs) -> Result<Value, ToolError> {
    let path = args.project_path.as_str();
    let toolchain = args.toolchain.as_str();
    let (max_cyclomatic, max_cognitive) = (args.max_cyclomatic, args.max_cognitive);
    let top_files = args.top_files.map(|n| n as usize);
    let analysis = Analysis::fresh(&context.workspace)?;
    let languages: Vec<String> = context
        .workspace
        .registry()
        .plugins()
        .iter()
        .flat_map(|p| p.info().languages.clone())
        .collect();
    if !languages.iter().any(|l| l == toolchain) {
        return Err(ToolError::InvalidParam {
            field: "toolchain".into(),
            reason: format!(
                "`{toolchain}` is not a language of a loaded plugin ({})",
                languages.join(", ")
            ),
            suggestions: lingo_model::suggest::similar(
                toolchain,
                languages.iter().map(String::as_str),
                2,
            ),
        });
    }
    let files: Vec<_> = analysis
        .files_under(path)?
        .into_iter()
        .filter(|f| f.facts().is_ok_and(|facts| facts.language == toolchain))
        .collect();
    let report = analyze::complexity_report(&files, (max_cyclomatic, max_cognitive), top_files);
    let mut value = to_json(&report)?;
    value["generation"] = json!(analysis.generation());
    Ok(value)
}

fn complexity_schema() -> Value {
    let number = json!({ "type": "number" });
    object(
        &["summary", "violations"],
        json!({
            "summary": object(
                &["files", "functions", "violations", "max_cyclomatic", "avg_cyclomatic", "max_cognitive"],
                json!({
                    "files": integer(), "functions": integer(), "violations": integer(),
                    "max_cyclomatic": integer(), "avg_cyclomatic": number, "max_cognitive": integer(),
                }),
            ),
            "violations": array_of(object(
                &["file", "function", "line", "cyclomatic", "cognitive", "rules"],
                json!({
                    "file": string(), "function": string(), "line": integer(),
                    "cyclomatic": integer(), "cognitive": integer(), "rules": array_of(string()),
                }),
            )),
            "top_files": object(&["requested", "returned", "rankings"], json!({
                "requested": integer(), "returned": integer(),
                "rankings": array_of(object(
                    &["rank", "file", "function_count", "max_cyclomatic", "avg_cognitive", "halstead_effort", "total_score"],
                    json!({
                        "rank": integer(), "file": string(), "function_count": integer(),
                        "max_cyclomatic": integer(), "avg_cognitive": number,
                        "halstead_effort": number, "total_score": number,
                    }),
                )),
            })),
            "generation": integer(),
        }),
    )
}

/// `analyze_batch`: several of the envelope analyses in one call.
pub fn batch() -> Tool {
    Tool {
        name: "analyze_batch",
        aliases: &["analyze.batch"],
        description: "Several analyses in one call, on the same index: `analyses` is a list of {\"tool\": \"analyze_quality\" | \"analyze_dead_code\" | \"analyze_cycles\" | \"analyze_dependencies\" | \"analyze_structure\" | \"analyze_documentation\" | \"analyze_tests\" (or their dotted names), and that tool's own arguments (kind, scope, options, limit, offset)}. Each answer is that tool's AnalysisResult, or its error in its place; one entry's error does not stop the others.",
        input_schema: json!({
            "type": "object",
            "required": ["analyses"],
            "properties": {
                "analyses": {
                    "type": "array",
                    "minItems": 1,
                    "maxItems": 16,
                    "items": {
                        "type": "object",
                        "required": ["tool"],
                        "properties": { "tool": { "type": "string" } }
                    }
                }
            },
            "additionalProperties": false
        }),
        handler: Handler::Untyped(run_batch),
        text: text::batch,
        output_schema: object(
            &["results"],
            json!({
                "results": array_of(object(&["tool"], json!({
                    "tool": string(),
                    "result": output_schema(),
                    "error": { "type": "object" },
                }))),
                "generation": integer(),
            }),
        ),
    }
}

/// Most analyses one batch runs.
const MAX_BATCH: usize = 16;

fn run_batch(context: &ToolContext, args: &Args) -> Result<Value, ToolError> {
    let Some(Value::Array(entries)) = args.value("analyses") else {
        return Err(ToolError::invalid(
            "analyses",
            "expected a list of analyses",
        ));
    };
    if entries.is_empty() || entries.len() > MAX_BATCH {
        return Err(ToolError::invalid(
            "analyses",
            format!("expected 1 to {MAX_BATCH} analyses, got {}", entries.len()),
        ));
    }
    let tools = [
        quality(),
        dead_code(),
        cycles(),
        dependencies(),
        structure(),
        documentation(),
        tests(),
    ];
    let mut results = Vec::with_capacity(entries.len());
    for (index, entry) in entries.iter().enumerate() {
        let field = format!("analyses[{index}].tool");
        let Some(name) = entry.get("tool").and_then(Value::as_str) else {
            return Err(ToolError::MissingParam { field });
        };
        let Some(tool) = tools
            .iter()
            .find(|t| t.name == name || t.aliases.contains(&name))
        else {
            return Err(ToolError::InvalidParam {
                field,
                reason: format!("`{name}` is not an analysis a batch runs"),
                suggestions: lingo_model::suggest::similar(
                    name,
                    tools
                        .iter()
                        .flat_map(|t| std::iter::once(t.name).chain(t.aliases.iter().copied())),
                    2,
                ),
            });
        };
        let mut arguments = entry.clone();
        if let Value::Object(map) = &mut arguments {
            map.remove("tool");
        }
        let answer = tool.run(context, &arguments);
        results.push(match answer {
            Ok(result) => json!({ "tool": tool.name, "result": result }),
            Err(error) => json!({ "tool": tool.name, "error": error.to_json()["error"] }),
        });
    }
    Ok(json!({
        "results": results,
        "generation": context.workspace.snapshot().generation,
    }))
}

fn run_quality(context: &ToolContext, args: &Args) -> Result<Value, ToolError> {
    let options = options(args)?;
    let thresholds = read_thresholds(
        options,
        &Thresholds::KEYS,
        Thresholds::default(),
        Thresholds::with,
    )?;
    run(
        context,
        args,
        ("quality", QUALITY_KINDS),
        |analysis, files, kind| Ok(analyze::quality(analysis, files, kind, &thresholds)),
    )
}

/// `analyze_structure`.
pub fn structure() -> Tool {
    let mut options = options_schema();
    options["properties"]["thresholds"] = thresholds_schema(
        &analyze::StructureOptions::THRESHOLD_KEYS,
        "max_children (20), max_inheritance_depth (3); echoed in metadata.thresholds",
    );
    options["properties"]["symbol_kinds"] =
        json!({ "type": "array", "items": { "type": "string" }, "maxItems": 32 });
    options["properties"]["include_private"] = json!({ "type": "boolean", "default": false });
    Tool {
        name: "analyze_structure",
        aliases: &["analyze.structure"],
        description: "How the code is built, as findings. `symbols`: per file, its declarations by kind; `hierarchy`: declarations with more than max_children members; `interfaces`: each interface or trait with its implementation_count (certain implements/extends edges of the workspace); `inheritance`: types with more than max_inheritance_depth levels of supertypes; `modules`: per module, its files and declarations. options.symbol_kinds keeps some lowercase LSP kinds; options.include_private counts private declarations. Paginated.",
        input_schema: input_schema(analyze::STRUCTURE_KINDS, options),
        handler: Handler::Untyped(run_structure),
        text: text::analysis,
        output_schema: output_schema(),
    }
}

fn run_structure(context: &ToolContext, args: &Args) -> Result<Value, ToolError> {
    let given = options(args)?;
    let mut options = read_thresholds(
        given,
        &analyze::StructureOptions::THRESHOLD_KEYS,
        analyze::StructureOptions::default(),
        analyze::StructureOptions::with,
    )?;
    match given.get("symbol_kinds") {
        None | Some(Value::Null) => {}
        Some(Value::Array(kinds)) => {
            let known: Vec<String> = lingo_model::SymbolKind::ALL
                .iter()
                .map(|k| k.as_str().to_ascii_lowercase())
                .collect();
            for kind in kinds {
                let Some(kind) = kind.as_str().filter(|k| known.iter().any(|n| n == k)) else {
                    return Err(ToolError::InvalidParam {
                        field: "options.symbol_kinds".into(),
                        reason: format!("expected lowercase LSP kinds ({})", known.join(", ")),
                        suggestions: kind
                            .as_str()
                            .map(|k| {
                                lingo_model::suggest::similar(
                                    k,
                                    known.iter().map(String::as_str),
                                    2,
                                )
                            })
                            .unwrap_or_default(),
                    });
                };
                options.symbol_kinds.push(kind.to_string());
            }
        }
        Some(_) => {
            return Err(ToolError::invalid(
                "options.symbol_kinds",
                "expected an array",
            ));
        }
    }
    options.include_private = match given.get("include_private") {
        None | Some(Value::Null) => false,
        Some(value) => value.as_bool().ok_or_else(|| {
            ToolError::invalid("options.include_private", "expected true or false")
        })?,
    };
    run(
        context,
        args,
        ("structure", analyze::STRUCTURE_KINDS),
        |analysis, files, kind| analyze::structure(analysis, files, kind, &options),
    )
}

/// `analyze_dependencies`.
pub fn dependencies() -> Tool {
    let mut options = options_schema();
    options["properties"]["thresholds"] = thresholds_schema(
        &analyze::DependencyThresholds::KEYS,
        "max_imports (20), max_coupling (15), min_cohesion (0.25), max_depth (8); echoed in metadata.thresholds",
    );
    options["properties"]["format"] =
        json!({ "type": "string", "enum": ["detailed", "summary", "graph"] });
    options["properties"]["export_format"] =
        json!({ "type": "string", "enum": ["json", "graphviz", "mermaid"] });
    Tool {
        name: "analyze_dependencies",
        aliases: &["analyze.dependencies"],
        description: "The file dependency graph (certain references) as findings. `imports`: files with more than max_imports imports; `graph`: each file with its in- and out-degree (options.format `graph` adds the graph as Mermaid, or Graphviz with options.export_format, under metadata.graph); `circular`: module cycles with their path; `coupling`: files depending on more than max_coupling files, with a coupling_score; `cohesion`: folders whose files' dependencies mostly leave them (cohesion_score under min_cohesion); `depth`: files starting a chain of more than max_depth dependencies. Paginated.",
        input_schema: input_schema(analyze::DEPENDENCY_KINDS, options),
        handler: Handler::Untyped(run_dependencies),
        text: text::analysis,
        output_schema: output_schema(),
    }
}

fn run_dependencies(context: &ToolContext, args: &Args) -> Result<Value, ToolError> {
    let options = options(args)?;
    let thresholds = read_thresholds(
        options,
        &analyze::DependencyThresholds::KEYS,
        analyze::DependencyThresholds::default(),
        analyze::DependencyThresholds::with,
    )?;
    let choice = |field: &str, allowed: &[&str]| -> Result<Option<String>, ToolError> {
        match options.get(field) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) if allowed.contains(&s.as_str()) => Ok(Some(s.clone())),
            Some(_) => Err(ToolError::invalid(
                &format!("options.{field}"),
                format!("expected one of {}", allowed.join(", ")),
            )),
        }
    };
    let format = choice("format", &["detailed", "summary", "graph"])?;
    let export = choice("export_format", &["json", "graphviz", "mermaid"])?;
    let mut exported = None;
    let mut value = run(
        context,
        args,
        ("dependencies", analyze::DEPENDENCY_KINDS),
        |analysis, files, kind| {
            if format.as_deref() == Some("graph") {
                exported = Some(analyze::graph_export(
                    analysis,
                    files,
                    export.as_deref().unwrap_or("mermaid"),
                )?);
            }
            analyze::dependencies(analysis, files, kind, &thresholds)
        },
    )?;
    if let Some(graph) = exported {
        value["metadata"]["graph"] = graph;
    }
    if format.as_deref() == Some("summary") {
        // The counts without the list.
        value["findings"] = json!([]);
        value["summary"]["returned_findings"] = json!(0);
        value["summary"]["has_more"] = json!(false);
    }
    Ok(value)
}

fn run_dead_code(context: &ToolContext, args: &Args) -> Result<Value, ToolError> {
    run(
        context,
        args,
        ("dead_code", DEAD_CODE_KINDS),
        analyze::dead_code,
    )
}

/// Read the envelope, run `analysis` on the scope's files, answer a page.
fn run(
    context: &ToolContext,
    args: &Args,
    (category, kinds): (&'static str, &[&str]),
    analysis_of: impl FnOnce(
        &Analysis,
        &[std::sync::Arc<lingo_index::FileEntry>],
        &str,
    ) -> Result<Found, Exhausted>,
) -> Result<Value, ToolError> {
    let started = Instant::now();
    let kind = args.str("kind")?.unwrap_or(kinds[0]);
    if !kinds.contains(&kind) {
        return Err(ToolError::InvalidParam {
            field: "kind".into(),
            reason: format!(
                "`{kind}` is not one of {} (the kinds this analysis serves)",
                kinds.join(", ")
            ),
            suggestions: lingo_model::suggest::similar(kind, kinds.iter().copied(), 1),
        });
    }
    let scope = scope(args)?;
    let options = options(args)?;
    let page_field = |field: &str,
                      default: u64,
                      (min, max): (u64, u64)|
     -> Result<u64, ToolError> {
        let value = match args.value(field) {
            Some(value) if !value.is_null() => Some((field.to_string(), value)),
            _ => options.get(field).map(|v| (format!("options.{field}"), v)),
        };
        match value {
            None => Ok(default),
            Some((name, value)) => value
                .as_u64()
                .filter(|v| (min..=max).contains(v))
                .ok_or_else(|| {
                    ToolError::invalid(&name, format!("expected an integer from {min} to {max}"))
                }),
        }
    };
    let limit = page_field("limit", DEFAULT_LIMIT, (1, MAX_LIMIT))? as usize;
    let offset = page_field("offset", 0, (0, u32::MAX as u64))? as usize;
    let analysis = Analysis::fresh(&context.workspace)?;
    let files = scope.files(&analysis).map_err(|e| match e {
        ScopeError::Files(e) => ToolError::from(e),
        ScopeError::Glob { .. } => ToolError::invalid("scope", e.to_string()),
    })?;
    let found = analysis_of(&analysis, &files, kind)?;
    let result = analyze::result(
        &analysis,
        &files,
        (category, kind, scope),
        found,
        (offset, limit),
        started,
    );
    to_json(&result)
}

/// The schema of `options.thresholds`: a number ≥ 0 for each of `keys`.
fn thresholds_schema(keys: &[&str], description: &str) -> Value {
    json!({
        "type": "object",
        "description": description,
        "properties": keys.iter().map(|k| (k.to_string(), json!({ "type": "number", "minimum": 0 }))).collect::<Map<String, Value>>(),
        "additionalProperties": false
    })
}

/// `options.thresholds` applied to `defaults` by `with` (which answers
/// `None` for a key it does not know): each a number ≥ 0 of `keys`, an
/// unknown key refused with the known ones.
fn read_thresholds<T>(
    options: &Map<String, Value>,
    keys: &[&str],
    defaults: T,
    with: impl Fn(T, &str, f64) -> Option<T>,
) -> Result<T, ToolError> {
    let Some(given) = options.get("thresholds") else {
        return Ok(defaults);
    };
    let Value::Object(given) = given else {
        return Err(ToolError::invalid(
            "options.thresholds",
            "expected an object",
        ));
    };
    let mut thresholds = defaults;
    for (key, value) in given {
        let field = format!("options.thresholds.{key}");
        let number = value
            .as_f64()
            .filter(|v| v.is_finite() && *v >= 0.0)
            .ok_or_else(|| ToolError::invalid(&field, "expected a number ≥ 0"))?;
        thresholds = with(thresholds, key, number).ok_or_else(|| ToolError::UnknownParam {
            field: field.clone(),
            allowed: keys.iter().map(|k| k.to_string()).collect(),
            suggestions: lingo_model::suggest::similar(key, keys.iter().copied(), 1),
        })?;
    }
    Ok(thresholds)
}

/// `options`, an object or nothing.
fn options<'a>(args: &Args<'a>) -> Result<&'a Map<String, Value>, ToolError> {
    static EMPTY: std::sync::OnceLock<Map<String, Value>> = std::sync::OnceLock::new();
    match args.value("options") {
        None | Some(Value::Null) => Ok(EMPTY.get_or_init(Map::new)),
        Some(Value::Object(options)) => Ok(options),
        Some(_) => Err(ToolError::invalid("options", "expected an object")),
    }
}

/// `scope`, checked: `type` workspace (the default), directory or file;
/// `path` for the last two; `include` / `exclude` globs.
fn scope(args: &Args) -> Result<Scope, ToolError> {
    let Some(value) = args.value("scope").filter(|v| !v.is_null()) else {
        return Ok(Scope {
            kind: ScopeKind::Workspace,
            path: None,
            include: Vec::new(),
            exclude: Vec::new(),
        });
    };
    let Value::Object(scope) = value else {
        return Err(ToolError::invalid("scope", "expected an object"));
    };
    let kind = match scope.get("type") {
        None | Some(Value::Null) => None,
        Some(Value::String(kind)) => Some(kind.as_str()),
        Some(_) => return Err(ToolError::invalid("scope.type", "expected a string")),
    };
    let kind = match kind {
        None | Some("workspace") => ScopeKind::Workspace,
        Some("directory") => ScopeKind::Directory,
        Some("file") => ScopeKind::File,
        Some("symbol") => {
            return Err(ToolError::invalid(
                "scope.type",
                "a symbol scope is not served by this analysis: use `file` with the symbol's file",
            ));
        }
        Some(other) => {
            return Err(ToolError::InvalidParam {
                field: "scope.type".into(),
                reason: format!("`{other}` is not one of workspace, directory, file"),
                suggestions: lingo_model::suggest::similar(
                    other,
                    ["workspace", "directory", "file"],
                    1,
                ),
            });
        }
    };
    let path = match scope.get("path") {
        None | Some(Value::Null) => None,
        Some(Value::String(path)) => Some(path.clone()),
        Some(_) => return Err(ToolError::invalid("scope.path", "expected a string")),
    };
    if kind != ScopeKind::Workspace && path.is_none() {
        return Err(ToolError::MissingParam {
            field: "scope.path".into(),
        });
    }
    let list = |field: &str| -> Result<Vec<String>, ToolError> {
        match scope.get(field) {
            None | Some(Value::Null) => Ok(Vec::new()),
            Some(Value::Array(items)) => items
                .iter()
                .map(|i| {
                    i.as_str().map(str::to_string).ok_or_else(|| {
                        ToolError::invalid(&format!("scope.{field}"), "expected strings")
                    })
                })
                .collect(),
            Some(_) => Err(ToolError::invalid(
                &format!("scope.{field}"),
                "expected an array of globs",
            )),
        }
    };
    Ok(Scope {
        kind,
        path,
        include: list("include")?,
        exclude: list("exclude")?,
    })
}

fn options_schema() -> Value {
    json!({
        "type": "object",
        "description": "Category options; `limit` (1-5000, default 1000) and `offset` page the findings",
        "properties": {
            "limit": { "type": "integer", "minimum": 1, "maximum": MAX_LIMIT },
            "offset": { "type": "integer", "minimum": 0 }
        }
    })
}

fn input_schema(kinds: &[&str], options: Value) -> Value {
    json!({
        "type": "object",
        "properties": {
            "kind": { "type": "string", "enum": kinds, "default": kinds[0] },
            "scope": {
                "type": "object",
                "description": "Files analysed: {\"type\": \"workspace\"} (default), {\"type\": \"directory\"|\"file\", \"path\": ...}, with optional `include` / `exclude` globs (`*.rs`, `tests/`)",
                "properties": {
                    "type": { "type": "string", "enum": ["workspace", "directory", "file"] },
                    "path": { "type": "string" },
                    "include": { "type": "array", "items": { "type": "string" } },
                    "exclude": { "type": "array", "items": { "type": "string" } }
                }
            },
            "options": options,
            "limit": { "type": "integer", "minimum": 1, "maximum": MAX_LIMIT, "default": DEFAULT_LIMIT },
            "offset": { "type": "integer", "minimum": 0, "default": 0 }
        },
        "additionalProperties": false
    })
}

/// typemill's AnalysisResult.
fn output_schema() -> Value {
    let severity = json!({ "type": "string", "enum": ["high", "medium", "low"] });
    let range = super::output::range();
    object(
        &["findings", "summary", "metadata"],
        json!({
            "findings": array_of(object(
                &["id", "kind", "severity", "location", "metrics", "message", "suggestions"],
                json!({
                    "id": string(), "kind": string(), "severity": severity,
                    "location": object(&["file_path", "range"], json!({ "file_path": string(), "range": range })),
                    "symbol": object(&["symbol", "symbol_kind", "language"], json!({
                        "symbol": string(), "symbol_kind": string(), "language": string(),
                    })),
                    "metrics": { "type": "object" },
                    "message": string(),
                    "suggestions": array_of(object(&["action", "description"], json!({
                        "action": string(), "description": string(), "estimated_impact": string(),
                        "refactor_call": object(&["command", "arguments"], json!({
                            "command": string(), "arguments": { "type": "object" },
                        })),
                    }))),
                }),
            )),
            "summary": object(
                &["total_findings", "returned_findings", "has_more", "by_severity", "files_analyzed", "symbols_analyzed", "analysis_time_ms"],
                json!({
                    "total_findings": integer(), "returned_findings": integer(), "has_more": boolean(),
                    "by_severity": object(&["high", "medium", "low"], json!({
                        "high": integer(), "medium": integer(), "low": integer(),
                    })),
                    "files_analyzed": integer(), "symbols_analyzed": integer(), "analysis_time_ms": integer(),
                }),
            ),
            "metadata": object(
                &["category", "kind", "scope", "timestamp", "thresholds", "generation"],
                json!({
                    "category": string(), "kind": string(), "scope": { "type": "object" },
                    "language": string(), "timestamp": string(), "thresholds": { "type": "object" },
                    "generation": integer(), "incomplete_reasons": array_of(string()),
                }),
            ),
        }),
    )
}
