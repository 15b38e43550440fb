//! The code-health tools of mcp-wire-protocol.md beyond complexity:
//! `analyze_duplicates` (and, on the same pattern, churn, defect
//! probability and name similarity): arguments checked here, the analysis
//! in [`crate::analyze`], the answer paged.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{About, Tool, ToolContext, text};
use crate::args::Group;
use crate::error::ToolError;
use lingo_analysis::Analysis;
use lingo_analyze::{
    self as analyze, ChurnReport, DEEP_ANALYSES, DeepAnalyses, DeepContext, DeepRequest,
    DefectReport, Detection, DuplicatesReport, DuplicatesRequest, Hotspot, ModuleDependencies,
    NameScope, NameSimilarity, Recommendation, Scope, ScopeError, ScopeKind, Scorecard, Timing,
};

const DEFAULT_GROUPS: u32 = 100;
const MAX_GROUPS: u32 = 5000;

fn default_groups() -> u32 {
    DEFAULT_GROUPS
}

fn default_period_days() -> u32 {
    30
}

/// The default of `detection_type` and `scope`.
fn default_all() -> String {
    "all".into()
}

/// The arguments of `analyze_duplicates`.
#[derive(Deserialize, JsonSchema)]
struct DuplicatesArgs {
    /// Folder or file to analyse (default: the whole workspace)
    project_path: Option<String>,
    // A name of `Detection::NAMES` (or `semantic`, refused with its reason).
    #[serde(default = "default_all")]
    #[schemars(extend("enum" = Detection::NAMES))]
    detection_type: String,
    /// Lowest Jaccard similarity of a gapped clone
    #[serde(default = "default_threshold")]
    #[schemars(range(min = 0, max = 1))]
    threshold: f64,
    #[serde(default = "default_clone_lines")]
    #[schemars(range(min = 1, max = 10_000))]
    min_lines: u32,
    #[serde(default = "default_min_tokens")]
    #[schemars(range(min = 10, max = 100_000))]
    min_tokens: u32,
    /// Groups per page
    #[serde(default = "default_groups")]
    #[schemars(range(min = 1, max = MAX_GROUPS))]
    limit: u32,
    #[serde(default)]
    offset: u32,
}

impl Group for DuplicatesArgs {}

fn default_threshold() -> f64 {
    0.85
}

fn default_clone_lines() -> u32 {
    5
}

fn default_min_tokens() -> u32 {
    50
}

/// `analyze_duplicates`.
pub fn duplicates() -> Tool {
    Tool::new(
        About {
            name: "analyze_duplicates",
            aliases: &["analyzeDuplicates"],
            description: "Duplicated code (copy-paste clones): exact, renamed (identifiers changed) or gapped (lines inserted or deleted), across languages; each group with its places, each file with its duplicated share.",
            text: text::duplicates,
        },
        run_duplicates,
    )
}

fn run_duplicates(
    context: &ToolContext,
    args: DuplicatesArgs,
) -> Result<PagedReport<DuplicatesReport>, ToolError> {
    let detection = match args.detection_type.as_str() {
        "semantic" => {
            return Err(ToolError::invalid(
                "detection_type",
                "semantic clones (the same behaviour written differently) are not detected; use exact, renamed, gapped or all",
            ));
        }
        name => Detection::parse(name).ok_or_else(|| ToolError::InvalidParam {
            field: "detection_type".into(),
            reason: format!(
                "`{}` is not a detection type ({})",
                name.chars().take(32).collect::<String>(),
                Detection::NAMES.join(", ")
            ),
            suggestions: lingo_model::suggest::similar(name, Detection::NAMES, 2),
        })?,
    };
    let limit = args.limit as usize;
    let offset = args.offset as usize;
    let path = args.project_path.as_deref().unwrap_or(".");
    let analysis = Analysis::fresh(&context.workspace)?;
    let files = analysis.files_under(path)?;
    let request = DuplicatesRequest {
        detection,
        min_tokens: args.min_tokens as usize,
        min_lines: args.min_lines,
        threshold: args.threshold,
    };
    let mut report = analyze::duplicates(&files, &request);
    let total = report.groups.len();
    report.groups = report.groups.into_iter().skip(offset).take(limit).collect();
    let returned = report.groups.len();
    Ok(PagedReport {
        report,
        pagination: page(offset, limit, returned, total),
        generation: analysis.generation(),
    })
}

/// The arguments of `analyze_code_churn`.
#[derive(Deserialize, JsonSchema)]
struct ChurnArgs {
    /// Folder or file (`.` for the workspace)
    project_path: String,
    #[serde(default = "default_period_days")]
    #[schemars(range(min = 1, max = 36_500))]
    period_days: u32,
    /// Files per page
    #[serde(default = "default_groups")]
    #[schemars(range(min = 1, max = MAX_GROUPS))]
    limit: u32,
    #[serde(default)]
    offset: u32,
}

impl Group for ChurnArgs {}

/// `analyze_code_churn`.
pub fn churn() -> Tool {
    Tool::new(
        About {
            name: "analyze_code_churn",
            aliases: &["analyzeCodeChurn"],
            description: "Which files change most often, from git history: commits, lines added and deleted, authors and last change over `period_days`.",
            text: text::churn,
        },
        run_churn,
    )
}

fn run_churn(
    context: &ToolContext,
    args: ChurnArgs,
) -> Result<PagedReport<ChurnReport>, ToolError> {
    let path = args.project_path.as_str();
    let limit = args.limit as usize;
    let offset = args.offset as usize;
    let analysis = Analysis::fresh(&context.workspace)?;
    let files = analysis.files_under(path)?;
    let root = context.workspace.root();
    let mut report =
        analyze::churn(root, &files, args.period_days).map_err(|e| ToolError::NoHistory {
            path: path.to_string(),
            reason: e.to_string(),
        })?;
    let total = report.files.len();
    report.files = report.files.into_iter().skip(offset).take(limit).collect();
    let returned = report.files.len();
    Ok(PagedReport {
        report,
        pagination: page(offset, limit, returned, total),
        generation: analysis.generation(),
    })
}

/// The arguments of `analyze_defect_probability`.
#[derive(Deserialize, JsonSchema)]
struct DefectArgs {
    /// Folder or file to analyse (default: the whole workspace)
    project_path: Option<String>,
    #[serde(default = "default_min_confidence")]
    #[schemars(range(min = 0, max = 1))]
    min_confidence: f64,
    /// Write each file's factors in the text answer (the structured answer always has them)
    #[serde(default = "default_explain")]
    #[allow(dead_code)] // read by the text renderer, from the call's arguments
    explain: bool,
    /// Files per page
    #[serde(default = "default_groups")]
    #[schemars(range(min = 1, max = MAX_GROUPS))]
    limit: u32,
    #[serde(default)]
    offset: u32,
}

impl Group for DefectArgs {}

fn default_min_confidence() -> f64 {
    0.7
}

fn default_explain() -> bool {
    true
}

/// `analyze_defect_probability`.
pub fn defect_probability() -> Tool {
    Tool::new(
        About {
            name: "analyze_defect_probability",
            aliases: &["analyzeDefectProbability"],
            description: "Which files most likely hold bugs: an explainable risk score from complexity, churn, duplication and coupling, each factor shown, with its confidence.",
            text: text::defects,
        },
        run_defect_probability,
    )
}

fn run_defect_probability(
    context: &ToolContext,
    args: DefectArgs,
) -> Result<PagedReport<DefectReport>, ToolError> {
    let limit = args.limit as usize;
    let offset = args.offset as usize;
    let path = args.project_path.as_deref().unwrap_or(".");
    let analysis = Analysis::fresh(&context.workspace)?;
    let files = analysis.files_under(path)?;
    let mut report = analyze::defect_probability(&analysis, &files, args.min_confidence)?;
    let total = report.files.len();
    report.files = report.files.into_iter().skip(offset).take(limit).collect();
    let returned = report.files.len();
    Ok(PagedReport {
        report,
        pagination: page(offset, limit, returned, total),
        generation: analysis.generation(),
    })
}

/// The arguments of `analyze_name_similarity`.
#[derive(Deserialize, JsonSchema)]
struct NameSimilarityArgs {
    #[schemars(length(min = 1, max = 256))]
    query: String,
    /// Folder or file (default: the whole workspace)
    project_path: Option<String>,
    #[serde(default = "default_top_k")]
    #[schemars(range(min = 1, max = 1000))]
    top_k: u32,
    #[serde(default)]
    phonetic: bool,
    // A name of `NameScope::NAMES`.
    #[serde(default = "default_all")]
    #[schemars(extend("enum" = NameScope::NAMES))]
    scope: String,
}

impl Group for NameSimilarityArgs {}

fn default_top_k() -> u32 {
    10
}

/// `analyze_name_similarity`.
pub fn name_similarity() -> Tool {
    Tool::new(
        About {
            name: "analyze_name_similarity",
            aliases: &["analyzeNameSimilarity"],
            description: "Declared names similar to `query` (spelling, shared words, optionally sound), best first, with where each is declared.",
            text: text::names,
        },
        run_name_similarity,
    )
}

fn run_name_similarity(
    context: &ToolContext,
    args: NameSimilarityArgs,
) -> Result<Report<NameSimilarity>, ToolError> {
    let query = args.query.as_str();
    if query.trim().is_empty() || query.len() > 256 {
        return Err(ToolError::invalid(
            "query",
            "expected a name of 1 to 256 bytes",
        ));
    }
    if analyze::name_words(query).is_empty() {
        return Err(ToolError::invalid(
            "query",
            "the query has no letters to compare",
        ));
    }
    let name = args.scope.as_str();
    let scope = NameScope::parse(name).ok_or_else(|| ToolError::InvalidParam {
        field: "scope".into(),
        reason: format!(
            "`{}` is not a scope ({})",
            name.chars().take(32).collect::<String>(),
            NameScope::NAMES.join(", ")
        ),
        suggestions: lingo_model::suggest::similar(name, NameScope::NAMES, 2),
    })?;
    let path = args.project_path.as_deref().unwrap_or(".");
    let analysis = Analysis::fresh(&context.workspace)?;
    let files = analysis.files_under(path)?;
    let answer = analyze::name_similarity(&files, query, scope, args.top_k as usize, args.phonetic);
    Ok(Report {
        report: answer,
        generation: analysis.generation(),
    })
}

/// The scope of `analyze_deep_context` and `analyze_comprehensive`.
#[derive(Deserialize, JsonSchema)]
struct ScopeArgs {
    /// Folder or file (default: the whole workspace)
    project_path: Option<String>,
    #[schemars(length(max = 256))]
    include_patterns: Option<Vec<String>>,
    #[schemars(length(max = 256))]
    exclude_patterns: Option<Vec<String>>,
}

impl Group for ScopeArgs {}

/// The arguments of `analyze_deep_context` besides its scope.
#[derive(Deserialize, JsonSchema)]
struct DeepContextArgs {
    // Names of `DEEP_ANALYSES`.
    #[schemars(length(max = 16), extend("items" = { "type": "string", "enum": DEEP_ANALYSES }))]
    include_analyses: Option<Vec<String>>,
    #[schemars(length(max = 16), extend("items" = { "type": "string", "enum": DEEP_ANALYSES }))]
    exclude_analyses: Option<Vec<String>>,
    #[serde(default = "default_period_days")]
    #[schemars(range(min = 1, max = 36_500))]
    period_days: u32,
    /// Folder levels of the file tree
    #[serde(default = "default_max_depth")]
    #[schemars(range(max = 32))]
    max_depth: u32,
}

impl Group for DeepContextArgs {}

fn default_max_depth() -> u32 {
    3
}

/// `analyze_deep_context`.
pub fn deep_context() -> Tool {
    Tool::new(
        About {
            name: "analyze_deep_context",
            aliases: &["analyzeDeepContext"],
            description: "Codebase health report: size, complexity, churn, dependency graph, dead code, TODO/FIXME comments, duplicates and defect probability, with a scorecard, an annotated file tree, hotspots and recommendations.",
            text: text::deep_context,
        },
        run_deep_context,
    )
}

fn run_deep_context(
    context: &ToolContext,
    (args, scope): (DeepContextArgs, ScopeArgs),
) -> Result<Report<DeepContext>, ToolError> {
    let named = |field: &str, names: &[String]| -> Result<Vec<&'static str>, ToolError> {
        names
            .iter()
            .map(|name| {
                DEEP_ANALYSES
                    .iter()
                    .find(|a| **a == name)
                    .copied()
                    .ok_or_else(|| ToolError::InvalidParam {
                        field: field.into(),
                        reason: format!(
                            "`{}` is not an analysis ({})",
                            name.chars().take(32).collect::<String>(),
                            DEEP_ANALYSES.join(", ")
                        ),
                        suggestions: lingo_model::suggest::similar(name, DEEP_ANALYSES, 2),
                    })
            })
            .collect()
    };
    let include = named(
        "include_analyses",
        args.include_analyses.as_deref().unwrap_or_default(),
    )?;
    let exclude = named(
        "exclude_analyses",
        args.exclude_analyses.as_deref().unwrap_or_default(),
    )?;
    let analyses: Vec<&'static str> = DEEP_ANALYSES
        .into_iter()
        .filter(|a| (include.is_empty() || include.contains(a)) && !exclude.contains(a))
        .collect();
    if analyses.is_empty() {
        return Err(ToolError::invalid(
            "exclude_analyses",
            "every analysis is excluded: nothing to run",
        ));
    }
    let files = scoped_files(context, scope)?;
    let analysis = Analysis::fresh(&context.workspace)?;
    let request = DeepRequest {
        analyses,
        period_days: args.period_days,
        max_depth: args.max_depth as usize,
        clone_min_lines: DuplicatesRequest::default().min_lines,
        min_confidence: 0.0,
    };
    let report = analyze::deep_context(&analysis, &files, &request)?;
    Ok(Report {
        report,
        generation: analysis.generation(),
    })
}

/// The arguments of `analyze_comprehensive` besides its scope.
#[derive(Deserialize, JsonSchema)]
struct ComprehensiveArgs {
    /// Clone groups and the duplicated share
    include_duplicates: Option<bool>,
    /// Dead declarations
    include_dead_code: Option<bool>,
    /// Defect probability per file
    include_defects: Option<bool>,
    /// Functions over the complexity limits
    include_complexity: Option<bool>,
    /// Technical debt gradient: a 0-5 score per file from churn, complexity, coupling, duplication and debt comments (a stated formula)
    include_tdg: Option<bool>,
    #[serde(default = "default_confidence_threshold")]
    #[schemars(range(min = 0, max = 1))]
    confidence_threshold: f64,
    #[serde(default = "default_comprehensive_lines")]
    #[schemars(range(min = 1, max = 10_000))]
    min_lines: u32,
    #[serde(default)]
    perf: bool,
    #[serde(default)]
    executive_summary: bool,
}

impl Group for ComprehensiveArgs {}

fn default_confidence_threshold() -> f64 {
    0.5
}

fn default_comprehensive_lines() -> u32 {
    10
}

/// `analyze_comprehensive`.
pub fn comprehensive() -> Tool {
    Tool::new(
        About {
            name: "analyze_comprehensive",
            aliases: &["analyzeComprehensive"],
            description: "Complexity, duplicates, dead code and defect probability in one run, with a scorecard and recommendations; `executive_summary` answers the summary only.",
            text: text::comprehensive,
        },
        run_comprehensive,
    )
}

/// `analyze_comprehensive`'s answer: the summary and recommendations, and
/// unless an executive summary was asked, each analysis's part (under its
/// name) and the hotspots.
#[derive(Serialize, JsonSchema)]
pub struct Comprehensive {
    pub summary: ComprehensiveSummary,
    pub recommendations: Vec<Recommendation>,
    pub unmeasured: Vec<String>,
    generation: u64,
    #[serde(flatten)]
    pub analyses: DeepAnalyses,
    #[serde(skip_serializing_if = "Option::is_none")]
    hotspots: Option<Vec<Hotspot>>,
    /// How long each analysis took (`perf`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub perf: Option<Vec<Timing>>,
}

/// What `analyze_comprehensive` read and its scorecard.
#[derive(Serialize, JsonSchema)]
pub struct ComprehensiveSummary {
    pub files: usize,
    pub lines: usize,
    analyses: Vec<&'static str>,
    pub scorecard: Scorecard,
}

fn run_comprehensive(
    context: &ToolContext,
    (args, scope): (ComprehensiveArgs, ScopeArgs),
) -> Result<Comprehensive, ToolError> {
    let parts = [
        (args.include_complexity, "complexity"),
        (args.include_duplicates, "duplicates"),
        (args.include_dead_code, "dead-code"),
        (args.include_defects, "defect-probability"),
        (args.include_tdg, "tdg"),
    ];
    let asked: Vec<&'static str> = if parts.iter().any(|(set, _)| set.is_some()) {
        parts
            .iter()
            .filter(|(set, _)| *set == Some(true))
            .map(|(_, analysis)| *analysis)
            .collect()
    } else {
        parts.iter().map(|(_, analysis)| *analysis).collect()
    };
    if asked.is_empty() {
        return Err(ToolError::invalid(
            "include_complexity",
            "every analysis is turned off: nothing to run",
        ));
    }
    let files = scoped_files(context, scope)?;
    let analysis = Analysis::fresh(&context.workspace)?;
    let request = DeepRequest {
        analyses: asked,
        period_days: 30,
        max_depth: 0,
        clone_min_lines: args.min_lines,
        min_confidence: args.confidence_threshold,
    };
    let report = analyze::deep_context(&analysis, &files, &request)?;
    let lines: usize = files.iter().map(|f| f.lines()).sum();
    let unmeasured = report.unmeasured.clone();
    let full = !args.executive_summary;
    Ok(Comprehensive {
        summary: ComprehensiveSummary {
            files: files.len(),
            lines,
            analyses: report.analyses_run,
            scorecard: report.quality_scorecard,
        },
        recommendations: report.recommendations,
        unmeasured,
        generation: analysis.generation(),
        analyses: if full {
            report.analyses
        } else {
            DeepAnalyses::default()
        },
        hotspots: full.then_some(report.hotspots),
        perf: args.perf.then_some(report.timings),
    })
}

/// The indexed files under `project_path` that `include_patterns` and
/// `exclude_patterns` keep.
fn scoped_files(
    context: &ToolContext,
    args: ScopeArgs,
) -> Result<Vec<std::sync::Arc<lingo_index::FileEntry>>, ToolError> {
    let scope = Scope {
        kind: ScopeKind::Directory,
        path: Some(args.project_path.unwrap_or_else(|| ".".into())),
        include: args.include_patterns.unwrap_or_default(),
        exclude: args.exclude_patterns.unwrap_or_default(),
    };
    let analysis = Analysis::fresh(&context.workspace)?;
    scope.files(&analysis).map_err(|e| match e {
        ScopeError::Files(e) => ToolError::from(e),
        ScopeError::Glob { .. } => ToolError::invalid("include_patterns", e.to_string()),
    })
}

/// The arguments of `analyze_module_dependencies`.
#[derive(Deserialize, JsonSchema)]
struct ModuleDependenciesArgs {
    /// The folder or file to extract
    path: String,
}

impl Group for ModuleDependenciesArgs {}

/// `analyze_module_dependencies`.
pub fn module_dependencies() -> Tool {
    Tool::new(
        About {
            name: "analyze_module_dependencies",
            aliases: &["analyze.module_dependencies"],
            description: "Whether a folder or file can be extracted into a package of its own: what it uses, what uses it, its external imports, and the files that would make a cycle.",
            text: text::module_dependencies,
        },
        run_module_dependencies,
    )
}

fn run_module_dependencies(
    context: &ToolContext,
    args: ModuleDependenciesArgs,
) -> Result<Report<ModuleDependencies>, ToolError> {
    let path = args.path.as_str();
    let analysis = Analysis::fresh(&context.workspace)?;
    let files = analysis.files_under(path)?;
    let answer = analyze::module_dependencies(&analysis, path, &files)?;
    Ok(Report {
        report: answer,
        generation: analysis.generation(),
    })
}

/// A report with the index generation it read.
#[derive(Serialize, JsonSchema)]
pub struct Report<T> {
    #[serde(flatten)]
    pub report: T,
    pub generation: u64,
}

/// A report, one page of its list, and the index generation it read.
#[derive(Serialize, JsonSchema)]
pub struct PagedReport<T> {
    #[serde(flatten)]
    pub report: T,
    pub pagination: ReportPage,
    generation: u64,
}

/// What a page of a report holds.
#[derive(Serialize, JsonSchema)]
pub struct ReportPage {
    pub offset: usize,
    limit: usize,
    returned: usize,
    pub total: usize,
    has_more: bool,
}

fn page(offset: usize, limit: usize, returned: usize, total: usize) -> ReportPage {
    ReportPage {
        offset,
        limit,
        returned,
        total,
        has_more: offset + returned < total,
    }
}
