//! The `analyze_*` tools (typemill's unified analysis API, snake_case with
//! the dotted spellings as aliases): each reads the envelope (`kind`,
//! `scope`, `options`), runs one analysis of [`crate::analyze`] and answers
//! its AnalysisResult, paged.

use serde_json::Value;

use super::code_health::Report;
use super::envelope::{self, Envelope, MAX_LIMIT, Names, OptionsArg, PageOptions, Paged};
use super::target::to_json;
use super::{About, SharedArgs, Tool, ToolArgs, ToolContext, text};
use crate::args::Group;
use crate::error::ToolError;
use lingo_analysis::{Analysis, GraphLevel, GraphMetrics, GraphMetricsError, MetricsWanted};
use lingo_analyze::coverage::{self, CoverageReport};
use lingo_analyze::{
    self as analyze, AnalysisResult, CYCLE_KINDS, DEAD_CODE_KINDS, DOCUMENTATION_KINDS,
    QUALITY_KINDS, TEST_KINDS, Thresholds,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// `analyze_quality`.
pub fn quality() -> Tool {
    Tool::new(
        About {
            name: "analyze_quality",
            aliases: &["analyze.quality"],
            description: "Code quality findings: functions over the complexity thresholds (cyclomatic, cognitive, nesting, parameters, length) or with a low maintainability index, most severe first. Paginated.",
            text: text::analysis,
        },
        run_quality,
    )
}

/// `analyze_dead_code`.
pub fn dead_code() -> Tool {
    Tool::new(
        About {
            name: "analyze_dead_code",
            aliases: &["analyze.dead_code"],
            description: "Dead code, what is never used: private functions, methods, types and constants nothing references, and unused imports, each with how sure it is and the `delete` call that removes it. Paginated.",
            text: text::analysis,
        },
        run_dead_code,
    )
}

/// `analyze_cycles`.
pub fn cycles() -> Tool {
    Tool::new(
        About {
            name: "analyze_cycles",
            aliases: &["analyze.cycles"],
            description: "Circular dependencies between modules, or mutually recursive declarations, each with a shortest cycle and the reference making each step. Paginated.",
            text: text::analysis,
        },
        run_cycles,
    )
}

fn run_cycles(
    context: &ToolContext,
    (envelope, options): (Envelope<CycleKinds>, OptionsArg<PageOptions>),
) -> Result<AnalysisResult, ToolError> {
    let options = options.get();
    envelope::run(context, envelope, &options, "dependencies", analyze::cycles)
}

/// `quality_gate` (mcp-wire-protocol.md).
pub fn quality_gate() -> Tool {
    Tool::new(
        About {
            name: "quality_gate",
            aliases: &["qualityGate"],
            description: "Pass or fail for CI: cyclomatic complexity, duplicated lines and, when asked, defect probability and test coverage (lcov or Cobertura report) against thresholds, each violation with its place.",
            text: text::gate,
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
    /// Lowest line coverage in percent, of each file a coverage report names and of them all (no default: the check is skipped without it)
    #[schemars(range(min = 0, max = 100))]
    coverage_threshold: Option<f64>,
    /// The coverage report of the project's test run, lcov or Cobertura XML (default: lingo.toml's, else lcov.info, coverage/lcov.info or coverage.xml when present)
    coverage_file: Option<String>,
    /// Highest defect probability of a file, as analyze_defect_probability scores it (no default: the check is skipped without it)
    #[schemars(range(min = 0))]
    defect_threshold: Option<f64>,
    /// Answer a failed gate as an error (QUALITY_GATE_FAILED)
    #[serde(default)]
    fail_on_violation: bool,
}

impl Group for GateArgs {}

fn run_quality_gate(
    context: &ToolContext,
    args: GateArgs,
) -> Result<Report<analyze::GateResult>, ToolError> {
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
        coverage: Err(String::new()),
    };
    let request = analyze::GateRequest {
        coverage: coverage_report(
            context,
            args.coverage_file
                .as_deref()
                .or(project.coverage_file.as_deref()),
            request.coverage_threshold.is_some(),
        )?,
        ..request
    };
    let fail = args.fail_on_violation;
    let analysis = Analysis::fresh(&context.workspace)?;
    let files = analysis.files_under(args.project_path.as_deref().unwrap_or("."))?;
    let result = Report {
        report: analyze::quality_gate(&analysis, &files, &request)?,
        generation: analysis.generation(),
    };
    if fail && !result.report.passed {
        return Err(ToolError::QualityGateFailed {
            failed: result
                .report
                .checks
                .iter()
                .filter(|c| c.status == analyze::Status::Failed)
                .map(|c| c.name.to_string())
                .collect(),
            violations: result.report.violations.len(),
            result: to_json(&result)?,
        });
    }
    Ok(result)
}

/// The coverage report named (an error when it cannot be read), or the
/// first default one present; `Err` says why there is none. Read only when
/// the gate has a coverage threshold.
fn coverage_report(
    context: &ToolContext,
    named: Option<&str>,
    wanted: bool,
) -> Result<Result<(String, CoverageReport), String>, ToolError> {
    if !wanted {
        return Ok(Err("no coverage_threshold".into()));
    }
    let workspace = &context.workspace;
    let path = match named {
        Some(path) => workspace.resolve(path)?,
        None => {
            let found = coverage::DEFAULT_REPORTS
                .iter()
                .find(|candidate| workspace.root().join(candidate).is_file());
            match found {
                Some(found) => found.to_string(),
                None => {
                    return Ok(Err(format!(
                        "no coverage report: give coverage_file, or write one of {}",
                        coverage::DEFAULT_REPORTS.join(", ")
                    )));
                }
            }
        }
    };
    let refused = |reason: String| ToolError::InvalidParam {
        field: "coverage_file".into(),
        reason,
        suggestions: vec!["Give an lcov tracefile (lcov.info) or a Cobertura XML report".into()],
    };
    let full = workspace.root().join(&path);
    let size = std::fs::metadata(&full)
        .map_err(|_| ToolError::FileNotFound {
            path: path.clone(),
            suggestions: Vec::new(),
        })?
        .len();
    if size > coverage::MAX_REPORT_BYTES as u64 {
        return Err(refused(format!(
            "{path} is {size} bytes; at most {} are read",
            coverage::MAX_REPORT_BYTES
        )));
    }
    let bytes = std::fs::read(&full).map_err(|e| refused(format!("{path}: {e}")))?;
    let report = CoverageReport::parse(&bytes, workspace.root())
        .map_err(|e| refused(format!("{path}: {e}")))?;
    Ok(Ok((path, report)))
}

/// `analyze_graph_metrics` (mcp-wire-protocol.md).
pub fn graph_metrics() -> Tool {
    Tool::new(
        About {
            name: "analyze_graph_metrics",
            aliases: &["analyzeGraphMetrics"],
            description: "The most central files, modules or declarations of the dependency graph: PageRank, degree, betweenness, closeness, clustering, components; optional GraphML.",
            text: text::graph_metrics,
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

/// `analyze_graph_metrics`' answer: the metrics of the `top` nodes, and
/// how many were ranked.
#[derive(Serialize, JsonSchema)]
pub struct RankedMetrics {
    #[serde(flatten)]
    pub metrics: GraphMetrics,
    total_nodes_ranked: usize,
    generation: u64,
}

fn run_graph_metrics(
    context: &ToolContext,
    args: GraphMetricsArgs,
) -> Result<RankedMetrics, ToolError> {
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
    Ok(RankedMetrics {
        metrics,
        total_nodes_ranked: total,
        generation: analysis.generation(),
    })
}

/// `analyze_documentation`.
pub fn documentation() -> Tool {
    Tool::new(
        About {
            name: "analyze_documentation",
            aliases: &["analyze.documentation"],
            description: "Missing documentation: declarations without a doc comment, and documentation coverage per file. Paginated.",
            text: text::analysis,
        },
        run_documentation,
    )
}

fn run_documentation(
    context: &ToolContext,
    (envelope, options): (
        Envelope<DocumentationKinds>,
        OptionsArg<DocumentationOptions>,
    ),
) -> Result<AnalysisResult, ToolError> {
    let options = options.get();
    let all = options.visibility == Some(Visibility::All);
    envelope::run(
        context,
        envelope,
        &options,
        "documentation",
        |_, files, kind| Ok(analyze::documentation(files, kind, all)),
    )
}

/// `analyze_tests`.
pub fn tests() -> Tool {
    Tool::new(
        About {
            name: "analyze_tests",
            aliases: &["analyze.tests"],
            description: "Untested code, found statically: public functions that no test reaches through certain calls, and each file's share reached. Paginated.",
            text: text::analysis,
        },
        run_tests,
    )
}

fn run_tests(
    context: &ToolContext,
    (envelope, options): (Envelope<TestKinds>, OptionsArg<PageOptions>),
) -> Result<AnalysisResult, ToolError> {
    let options = options.get();
    envelope::run(context, envelope, &options, "tests", analyze::tests)
}

/// `analyze_complexity` (mcp-wire-protocol.md).
pub fn complexity() -> Tool {
    Tool::new(
        About {
            name: "analyze_complexity",
            aliases: &["analyzeComplexity"],
            description: "The most complex functions (cyclomatic, cognitive) and, with `top_files`, the most complex files, with Halstead effort.",
            text: text::complexity,
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

fn run_complexity(
    context: &ToolContext,
    args: ComplexityArgs,
) -> Result<Report<analyze::ComplexityReport>, ToolError> {
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
    Ok(Report {
        report,
        generation: analysis.generation(),
    })
}

/// `analyze_batch`: several of the envelope analyses in one call.
pub fn batch() -> Tool {
    Tool::new(
        About {
            name: "analyze_batch",
            aliases: &["analyze.batch"],
            description: "Run several analyses (analyze_quality, _dead_code, _cycles, _dependencies, _structure, _documentation, _tests) in one call on the same index, each answer or error in its place.",
            text: text::batch,
        },
        run_batch,
    )
}

/// Most analyses one batch runs.
const MAX_BATCH: u32 = 16;

#[derive(Deserialize, JsonSchema)]
struct BatchArgs {
    #[schemars(with = "Vec<BatchEntry>", length(min = 1, max = MAX_BATCH))]
    analyses: Vec<Value>,
}

impl Group for BatchArgs {}

/// One analysis of a batch: the tool, and its own arguments beside it.
#[derive(JsonSchema)]
#[allow(dead_code)]
struct BatchEntry {
    tool: String,
}

/// The answer of a batch: each analysis's answer or error, in order.
#[derive(Serialize, JsonSchema)]
pub struct BatchAnswer {
    pub results: Vec<BatchResult>,
    generation: u64,
}

/// One analysis of a batch: its tool, and its AnalysisResult or its error.
#[derive(Serialize, JsonSchema)]
pub struct BatchResult {
    pub tool: &'static str,
    /// The tool's answer, as it answers alone.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<AnalysisResult>,
    // The `error` of the tool's refusal, as it refuses alone.
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "refusal")]
    #[schemars(with = "Option<Value>")]
    pub error: Option<ToolError>,
}

/// A batch entry's error as the tool alone refuses with it: code,
/// message, details and suggestions.
fn refusal<S: serde::Serializer>(
    error: &Option<ToolError>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    let error = error.as_ref().map(|error| error.to_json()["error"].take());
    error.serialize(serializer)
}

/// An analysis a batch runs: its tool (names and input schema), and the
/// tool's run, answering its AnalysisResult.
struct BatchAnalysis {
    tool: Tool,
    run: RunAnalysis,
}

/// Runs an analysis on a batch entry's arguments.
type RunAnalysis = Box<dyn Fn(&ToolContext, &Value) -> Result<AnalysisResult, ToolError>>;

impl BatchAnalysis {
    /// `tool`, run by `run` on arguments checked as `tool` checks them.
    fn new<A: ToolArgs + 'static>(
        tool: Tool,
        run: fn(&ToolContext, A) -> Result<AnalysisResult, ToolError>,
    ) -> BatchAnalysis {
        let schema = tool.input_schema.clone();
        let shared = SharedArgs::names();
        BatchAnalysis {
            tool,
            run: Box::new(move |context, arguments| {
                run(context, A::parse(arguments, &schema, &shared)?)
            }),
        }
    }
}

fn run_batch(context: &ToolContext, args: BatchArgs) -> Result<BatchAnswer, ToolError> {
    let entries = args.analyses;
    let analyses = [
        BatchAnalysis::new(quality(), run_quality),
        BatchAnalysis::new(dead_code(), run_dead_code),
        BatchAnalysis::new(cycles(), run_cycles),
        BatchAnalysis::new(dependencies(), run_dependencies),
        BatchAnalysis::new(structure(), run_structure),
        BatchAnalysis::new(documentation(), run_documentation),
        BatchAnalysis::new(tests(), run_tests),
    ];
    let mut results = Vec::with_capacity(entries.len());
    for (index, entry) in entries.iter().enumerate() {
        let field = format!("analyses[{index}].tool");
        let Some(name) = entry.get("tool").and_then(Value::as_str) else {
            return Err(ToolError::MissingParam { field });
        };
        let Some(analysis) = analyses
            .iter()
            .find(|a| a.tool.name == name || a.tool.aliases.contains(&name))
        else {
            return Err(ToolError::InvalidParam {
                field,
                reason: format!("`{name}` is not an analysis a batch runs"),
                suggestions: lingo_model::suggest::similar(
                    name,
                    analyses.iter().flat_map(|a| {
                        std::iter::once(a.tool.name).chain(a.tool.aliases.iter().copied())
                    }),
                    2,
                ),
            });
        };
        let mut arguments = entry.clone();
        if let Value::Object(map) = &mut arguments {
            map.remove("tool");
        }
        let tool = analysis.tool.name;
        results.push(match (analysis.run)(context, &arguments) {
            Ok(result) => BatchResult {
                tool,
                result: Some(result),
                error: None,
            },
            Err(error) => BatchResult {
                tool,
                result: None,
                error: Some(error),
            },
        });
    }
    Ok(BatchAnswer {
        results,
        generation: context.workspace.snapshot().generation,
    })
}

fn run_quality(
    context: &ToolContext,
    (envelope, options): (Envelope<QualityKinds>, OptionsArg<QualityOptions>),
) -> Result<AnalysisResult, ToolError> {
    let options = options.get();
    let thresholds = options
        .thresholds
        .as_ref()
        .map_or(Ok(Thresholds::default()), |given| {
            given.apply(Thresholds::default(), Thresholds::with)
        })?;
    envelope::run(
        context,
        envelope,
        &options,
        "quality",
        |analysis, files, kind| Ok(analyze::quality(analysis, files, kind, &thresholds)),
    )
}

/// `analyze_structure`.
pub fn structure() -> Tool {
    Tool::new(
        About {
            name: "analyze_structure",
            aliases: &["analyze.structure"],
            description: "How the code is organized: declarations per file, large types, interfaces and the most implemented ones with their implementation counts, deep inheritance, modules with their files. Paginated.",
            text: text::analysis,
        },
        run_structure,
    )
}

fn run_structure(
    context: &ToolContext,
    (envelope, options): (Envelope<StructureKinds>, OptionsArg<StructureOptionArgs>),
) -> Result<AnalysisResult, ToolError> {
    let given = options.get();
    let defaults = analyze::StructureOptions::default();
    let mut options = match &given.thresholds {
        Some(thresholds) => thresholds.apply(defaults, analyze::StructureOptions::with)?,
        None => defaults,
    };
    let known: Vec<String> = lingo_model::SymbolKind::ALL
        .iter()
        .map(|k| k.as_str().to_ascii_lowercase())
        .collect();
    for kind in &given.symbol_kinds {
        if !known.iter().any(|n| n == kind) {
            return Err(ToolError::InvalidParam {
                field: "options.symbol_kinds".into(),
                reason: format!("expected lowercase LSP kinds ({})", known.join(", ")),
                suggestions: lingo_model::suggest::similar(
                    kind,
                    known.iter().map(String::as_str),
                    2,
                ),
            });
        }
        options.symbol_kinds.push(kind.clone());
    }
    options.include_private = given.include_private;
    envelope::run(
        context,
        envelope,
        &given,
        "structure",
        |analysis, files, kind| analyze::structure(analysis, files, kind, &options),
    )
}

/// `analyze_dependencies`.
pub fn dependencies() -> Tool {
    Tool::new(
        About {
            name: "analyze_dependencies",
            aliases: &["analyze.dependencies"],
            description: "Import graph findings between files: too many imports, coupling, cohesion, dependency depth, circular imports; `graph` adds the graph (Mermaid or Graphviz). Paginated.",
            text: text::analysis,
        },
        run_dependencies,
    )
}

fn run_dead_code(
    context: &ToolContext,
    (envelope, options): (Envelope<DeadCodeKinds>, OptionsArg<PageOptions>),
) -> Result<AnalysisResult, ToolError> {
    let options = options.get();
    envelope::run(context, envelope, &options, "dead_code", analyze::dead_code)
}

fn run_dependencies(
    context: &ToolContext,
    (envelope, options): (Envelope<DependencyKinds>, OptionsArg<DependencyOptions>),
) -> Result<AnalysisResult, ToolError> {
    let options = options.get();
    let defaults = analyze::DependencyThresholds::default();
    let thresholds = match &options.thresholds {
        Some(given) => given.apply(defaults, analyze::DependencyThresholds::with)?,
        None => defaults,
    };
    let export = match options.export_format.unwrap_or(ExportFormat::Mermaid) {
        ExportFormat::Json => "json",
        ExportFormat::Graphviz => "graphviz",
        ExportFormat::Mermaid => "mermaid",
    };
    let mut exported = None;
    let mut value = envelope::run(
        context,
        envelope,
        &options,
        "dependencies",
        |analysis, files, kind| {
            if options.format == Some(DependencyFormat::Graph) {
                exported = Some(analyze::graph_export(analysis, files, export)?);
            }
            analyze::dependencies(analysis, files, kind, &thresholds)
        },
    )?;
    value.metadata.graph = exported;
    if options.format == Some(DependencyFormat::Summary) {
        // The counts without the list.
        value.findings.clear();
        value.summary.returned_findings = 0;
        value.summary.has_more = false;
    }
    Ok(value)
}

/// The kinds and threshold keys of the envelope analyses, from `lingo-analyze`.
macro_rules! names {
    ($($marker:ident = $names:expr $(, $description:literal)?;)+) => {
        $(
            #[derive(Debug, Default)]
            struct $marker;
            impl Names for $marker {
                const NAMES: &'static [&'static str] = $names;
                $(const DESCRIPTION: &'static str = $description;)?
            }
        )+
    };
}

names! {
    QualityKinds = QUALITY_KINDS;
    DeadCodeKinds = DEAD_CODE_KINDS;
    CycleKinds = CYCLE_KINDS;
    DependencyKinds = analyze::DEPENDENCY_KINDS;
    StructureKinds = analyze::STRUCTURE_KINDS;
    DocumentationKinds = DOCUMENTATION_KINDS;
    TestKinds = TEST_KINDS;
    QualityKeys = &Thresholds::KEYS,
        "Limits a function is held to; the defaults are echoed in metadata.thresholds";
    StructureKeys = &analyze::StructureOptions::THRESHOLD_KEYS,
        "max_children (20), max_inheritance_depth (3); echoed in metadata.thresholds";
    DependencyKeys = &analyze::DependencyThresholds::KEYS,
        "max_imports (20), max_coupling (15), min_cohesion (0.25), max_depth (8); echoed in metadata.thresholds";
}

/// `Paged` for options structs with `limit` and `offset` fields.
macro_rules! paged {
    ($($options:ty),+) => {
        $(impl Paged for $options {
            fn limit(&self) -> Option<u32> {
                self.limit
            }
            fn offset(&self) -> Option<u32> {
                self.offset
            }
        })+
    };
}

paged!(
    QualityOptions,
    DocumentationOptions,
    StructureOptionArgs,
    DependencyOptions
);

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct QualityOptions {
    #[schemars(range(min = 1, max = MAX_LIMIT))]
    #[schemars(extend("x-unlisted" = true))]
    limit: Option<u32>,
    #[schemars(extend("x-unlisted" = true))]
    offset: Option<u32>,
    thresholds: Option<envelope::Thresholds<QualityKeys>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Visibility {
    Public,
    All,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct DocumentationOptions {
    #[schemars(range(min = 1, max = MAX_LIMIT))]
    #[schemars(extend("x-unlisted" = true))]
    limit: Option<u32>,
    #[schemars(extend("x-unlisted" = true))]
    offset: Option<u32>,
    /// Declarations counted: `public` (default) or `all`
    visibility: Option<Visibility>,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct StructureOptionArgs {
    #[schemars(range(min = 1, max = MAX_LIMIT))]
    #[schemars(extend("x-unlisted" = true))]
    limit: Option<u32>,
    #[schemars(extend("x-unlisted" = true))]
    offset: Option<u32>,
    thresholds: Option<envelope::Thresholds<StructureKeys>>,
    /// Lowercase LSP kinds to keep
    #[serde(default)]
    #[schemars(length(max = 32))]
    symbol_kinds: Vec<String>,
    /// Count private declarations too
    #[serde(default)]
    include_private: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum DependencyFormat {
    Detailed,
    Summary,
    Graph,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum ExportFormat {
    Json,
    Graphviz,
    Mermaid,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct DependencyOptions {
    #[schemars(range(min = 1, max = MAX_LIMIT))]
    #[schemars(extend("x-unlisted" = true))]
    limit: Option<u32>,
    #[schemars(extend("x-unlisted" = true))]
    offset: Option<u32>,
    thresholds: Option<envelope::Thresholds<DependencyKeys>>,
    /// `summary` leaves the findings out; `graph` adds the graph under metadata.graph
    format: Option<DependencyFormat>,
    /// The graph's notation with `format: graph` (default mermaid)
    export_format: Option<ExportFormat>,
}
