//! `analyze_deep_context` (mcp-wire-protocol.md): the other analyses run
//! over one scope and combined: a quality scorecard, an annotated file
//! tree, each analysis's summary with its worst items, the hotspots and
//! recommendations derived from them.
//!
//! The scorecard's figures, each documented so a reader can check it:
//!
//! - `complexity_score` (0-100): the share of functions within cyclomatic
//!   10 and cognitive 15;
//! - `maintainability_index` (0-100): the functions' mean maintainability
//!   index (`analyze_quality`'s);
//! - `duplication_percentage`: the share of lines in clones;
//! - `technical_debt_hours`: an estimate, the sum of half an hour per point
//!   of cyclomatic complexity over 10 in each function, 2, 1 or ½ hour per
//!   high, medium or low debt comment, an hour per 50 duplicated lines and
//!   a quarter hour per dead declaration;
//! - `overall_health` (0-100): the weighted mean of the complexity score
//!   (0.35), the maintainability index (0.25), 100 − 4 × the duplication
//!   percentage (0.20, floored at 0) and 100 × (1 − the mean defect
//!   probability) (0.20), over the parts computed.
//!
//! A hotspot is a file among the ten most likely to hold a defect, with an
//! estimate of the hours to refactor it (its complexity over 10, its
//! duplicated lines, and an hour to start).

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::time::Instant;

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Value, json};

use super::{
    ChurnReport, ComplexityReport, Debt, DefectReport, DuplicatesReport, DuplicatesRequest,
    Severity, churn, churn_history, complexity_report, dead_code, debt, defect_probability_of,
    duplicates_of, lex_files,
};
use crate::tdg::{TdgReport, tdg};
use lingo_analysis::Analysis;
use lingo_index::FileEntry;
use lingo_model::budget::Exhausted;

/// The analyses a deep context may include, in the order they run.
pub const DEEP_ANALYSES: [&str; 9] = [
    "ast",
    "complexity",
    "churn",
    "dag",
    "dead-code",
    "satd",
    "duplicates",
    "defect-probability",
    "tdg",
];

/// What was asked.
#[derive(Debug, Clone)]
pub struct DeepRequest {
    /// Names of [`DEEP_ANALYSES`].
    pub analyses: Vec<&'static str>,
    pub period_days: u32,
    /// Folder levels of the file tree (deeper files are counted in their
    /// folder at that level).
    pub max_depth: usize,
    /// Fewest lines of each place of a clone.
    pub clone_min_lines: u32,
    /// Files whose defect probability is less confident are not listed.
    pub min_confidence: f64,
}

/// One analysis's duration.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Timing {
    pub analysis: &'static str,
    pub milliseconds: u128,
}

/// How an hour figure was reached: always by a formula over the findings
/// (complexity over 10, duplicated lines, debt markers, dead code), never
/// measured.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Estimate {
    #[default]
    Formula,
}

/// The quality scorecard.
#[derive(Debug, Clone, Default, Serialize, JsonSchema)]
pub struct Scorecard {
    pub overall_health: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub complexity_score: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub maintainability_index: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duplication_percentage: Option<f64>,
    pub technical_debt_hours: f64,
    /// `technical_debt_hours` is a formula.
    pub estimate: Estimate,
}

/// A folder or file of the annotated tree.
#[derive(Debug, Clone, Default, Serialize, JsonSchema)]
pub struct TreeNode {
    pub name: String,
    pub files: usize,
    pub lines: usize,
    pub max_cyclomatic: u32,
    /// The highest defect probability under it, when computed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub defect_probability: Option<f64>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<TreeNode>,
}

/// A file to look at first.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Hotspot {
    pub file_path: String,
    pub composite_score: f64,
    pub estimated_hours: f64,
    /// `estimated_hours` is a formula.
    pub estimate: Estimate,
    pub priority: &'static str,
    /// The factors, strongest first.
    pub reasons: Vec<String>,
}

/// What to do, derived from the analyses.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Recommendation {
    pub title: String,
    pub description: String,
    pub priority: &'static str,
    pub impact: &'static str,
    pub estimated_hours: f64,
    /// `estimated_hours` is a formula.
    pub estimate: Estimate,
    /// A lingo tool call that does it, when one can.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refactor_call: Option<Value>,
}

/// The whole answer.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct DeepContext {
    pub generated_at: String,
    pub analyses_run: Vec<&'static str>,
    pub timings: Vec<Timing>,
    pub quality_scorecard: Scorecard,
    pub file_tree: TreeNode,
    pub analyses: DeepAnalyses,
    pub hotspots: Vec<Hotspot>,
    pub recommendations: Vec<Recommendation>,
    /// What could not be measured, and why.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unmeasured: Vec<String>,
}

/// Each analysis's summary with its worst items, under its name; an
/// analysis not asked for (or not measured) is absent.
#[derive(Debug, Clone, Default, Serialize, JsonSchema)]
pub struct DeepAnalyses {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ast: Option<AstSummary>,
    /// The functions over the limits, and the ten most complex files.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub complexity: Option<ComplexityReport>,
    /// The ten most changed files.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub churn: Option<ChurnReport>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dag: Option<DagSummary>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dead_code: Option<DeadCodeSummary>,
    /// The first fifty debt comments.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub satd: Option<Debt>,
    /// The ten largest clone groups and the ten most duplicated files.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duplicates: Option<DuplicatesReport>,
    /// The ten files most likely to hold a defect.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub defect_probability: Option<DefectReport>,
    /// The technical debt gradient, the ten highest files.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tdg: Option<TdgReport>,
}

/// Files, lines and declarations per language.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct AstSummary {
    pub files: usize,
    pub languages: Vec<LanguageSummary>,
}

/// One language's share of the scope.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct LanguageSummary {
    pub language: String,
    pub files: usize,
    pub lines: usize,
    pub symbols: usize,
    pub functions: usize,
}

/// The dependency graph between the files in scope.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct DagSummary {
    /// Files in scope with a place in the graph.
    pub nodes: usize,
    /// Their dependencies on other files.
    pub edges: usize,
    pub module_cycles: usize,
    /// The ten files most depended on.
    pub most_depended_on: Vec<FileDependents>,
}

/// How many files depend on one file, and it on how many.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct FileDependents {
    pub file_path: String,
    pub depended_on_by: usize,
    pub depends_on: usize,
}

/// Unused declarations and types.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct DeadCodeSummary {
    pub total: usize,
    /// Findings not of low severity.
    pub certain: usize,
    /// The first twenty, most severe first.
    pub items: Vec<DeadItem>,
}

/// One unused declaration.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct DeadItem {
    pub symbol: Option<String>,
    pub file_path: String,
    /// 1-based.
    pub line: u32,
    pub severity: Severity,
    pub message: String,
}

/// The results the combined figures read.
#[derive(Default)]
struct Parts {
    complexity: Option<ComplexityReport>,
    churn: Option<ChurnReport>,
    duplicates: Option<DuplicatesReport>,
    debt: Option<Debt>,
    defects: Option<DefectReport>,
    dead: Vec<super::Finding>,
}

/// Run the analyses of `request` over `files` and combine them.
pub fn deep_context(
    analysis: &Analysis,
    files: &[Arc<FileEntry>],
    request: &DeepRequest,
) -> Result<DeepContext, Exhausted> {
    let wants = |name: &str| request.analyses.contains(&name);
    let mut timings = Vec::new();
    let mut analyses = DeepAnalyses::default();
    let mut unmeasured = Vec::new();
    let mut parts = Parts::default();
    let steps = request.analyses.len() as u64;
    let timed = |name: &'static str, timings: &mut Vec<Timing>, started: Instant| {
        timings.push(Timing {
            analysis: name,
            milliseconds: started.elapsed().as_millis(),
        });
        let done = timings.iter().filter(|t| t.analysis != "tokens").count() as u64;
        lingo_model::budget::progress("analyses", done, steps);
    };
    if wants("ast") {
        let started = Instant::now();
        analyses.ast = Some(ast_summary(files));
        timed("ast", &mut timings, started);
    }
    if wants("complexity") {
        let started = Instant::now();
        let report = complexity_report(files, (10, 15), Some(10));
        analyses.complexity = Some(report.clone());
        parts.complexity = Some(report);
        timed("complexity", &mut timings, started);
    }
    if wants("churn") {
        let started = Instant::now();
        match churn(analysis.workspace().root(), files, request.period_days) {
            Ok(mut report) => {
                report.files.truncate(10);
                analyses.churn = Some(report.clone());
                parts.churn = Some(report);
            }
            Err(e) => unmeasured.push(format!("churn: {e}")),
        }
        timed("churn", &mut timings, started);
    }
    if wants("dag") {
        let started = Instant::now();
        analyses.dag = Some(dag_summary(analysis, files)?);
        timed("dag", &mut timings, started);
    }
    if wants("dead-code") {
        let started = Instant::now();
        let mut dead = dead_code(analysis, files, "unused_symbols")?.findings;
        dead.extend(dead_code(analysis, files, "unused_types")?.findings);
        dead.sort_by(|a, b| {
            (a.severity, &a.location.file_path).cmp(&(b.severity, &b.location.file_path))
        });
        analyses.dead_code = Some(DeadCodeSummary {
            total: dead.len(),
            certain: dead.iter().filter(|f| f.severity != Severity::Low).count(),
            items: dead
                .iter()
                .take(20)
                .map(|f| DeadItem {
                    symbol: f.symbol.as_ref().map(|s| s.symbol.clone()),
                    file_path: f.location.file_path.clone(),
                    line: f.location.range.start.line + 1,
                    severity: f.severity,
                    message: f.message.clone(),
                })
                .collect(),
        });
        parts.dead = dead;
        timed("dead-code", &mut timings, started);
    }
    let needs_tokens =
        wants("satd") || wants("duplicates") || wants("defect-probability") || wants("tdg");
    let lexed = needs_tokens.then(|| {
        let started = Instant::now();
        let lexed = lex_files(files);
        timed("tokens", &mut timings, started);
        lexed
    });
    let mut all_debt = None;
    if let Some(lexed) = &lexed
        && (wants("satd") || wants("tdg"))
    {
        let started = Instant::now();
        let found = debt(lexed);
        if wants("satd") {
            let mut shown = found.clone();
            shown.items.truncate(50);
            analyses.satd = Some(shown.clone());
            parts.debt = Some(shown);
            timed("satd", &mut timings, started);
        }
        all_debt = Some(found);
    }
    if let Some(lexed) = &lexed
        && (wants("duplicates") || wants("defect-probability") || wants("tdg"))
    {
        let started = Instant::now();
        let clones = DuplicatesRequest {
            min_lines: request.clone_min_lines,
            ..DuplicatesRequest::default()
        };
        let report = duplicates_of(lexed, &clones);
        if wants("duplicates") {
            let mut shown = report.clone();
            shown.groups.truncate(10);
            shown.files.truncate(10);
            analyses.duplicates = Some(shown);
            timed("duplicates", &mut timings, started);
        }
        let history =
            (wants("defect-probability") || wants("tdg")).then(|| churn_history(analysis));
        if let (true, Some(history)) = (wants("defect-probability"), &history) {
            let started = Instant::now();
            let defects =
                defect_probability_of(analysis, files, request.min_confidence, (history, &report))?;
            let mut shown = defects.clone();
            shown.files.truncate(10);
            analyses.defect_probability = Some(shown);
            unmeasured.extend(defects.unmeasured.iter().cloned());
            parts.defects = Some(defects);
            timed("defect-probability", &mut timings, started);
        }
        if let (Some(history), Some(debt)) = (&history, &all_debt)
            && wants("tdg")
        {
            let started = Instant::now();
            let every_file = defect_probability_of(analysis, files, 0.0, (history, &report))?;
            if !wants("defect-probability") {
                unmeasured.extend(every_file.unmeasured.iter().cloned());
            }
            let lines: HashMap<&str, usize> =
                files.iter().map(|f| (f.path.as_str(), f.lines())).collect();
            analyses.tdg = Some(tdg(&every_file, debt, &lines));
            timed("tdg", &mut timings, started);
        }
        parts.duplicates = Some(report);
    }
    let scorecard = scorecard(files, &parts);
    Ok(DeepContext {
        generated_at: lingo_refactor::plan::now_rfc3339(),
        analyses_run: request.analyses.clone(),
        timings,
        file_tree: file_tree(files, &parts, request.max_depth),
        hotspots: hotspots(files, &parts),
        recommendations: recommendations(&parts),
        quality_scorecard: scorecard,
        analyses,
        unmeasured,
    })
}

/// Files, lines and declarations per language.
fn ast_summary(files: &[Arc<FileEntry>]) -> AstSummary {
    let mut languages: BTreeMap<String, (usize, usize, usize, usize)> = BTreeMap::new();
    for file in files {
        let Ok(facts) = file.facts() else { continue };
        let entry = languages.entry(facts.language.clone()).or_default();
        entry.0 += 1;
        entry.1 += file.lines();
        entry.2 += facts.symbols.len();
        entry.3 += facts.metrics.len();
    }
    AstSummary {
        files: files.len(),
        languages: languages
            .into_iter()
            .map(
                |(language, (files, lines, symbols, functions))| LanguageSummary {
                    language,
                    files,
                    lines,
                    symbols,
                    functions,
                },
            )
            .collect(),
    }
}

/// The dependency graph between the files in scope: size and cycles.
fn dag_summary(analysis: &Analysis, files: &[Arc<FileEntry>]) -> Result<DagSummary, Exhausted> {
    let coupling = analysis.file_coupling()?;
    let in_scope: Vec<_> = files
        .iter()
        .filter_map(|f| coupling.get(&f.path).map(|c| (&f.path, *c)))
        .collect();
    let edges: usize = in_scope.iter().map(|(_, c)| c.depends_on).sum();
    let mut most_depended: Vec<_> = in_scope
        .iter()
        .filter(|(_, c)| c.depended_on_by > 0)
        .collect();
    most_depended.sort_by(|a, b| {
        b.1.depended_on_by
            .cmp(&a.1.depended_on_by)
            .then(a.0.cmp(b.0))
    });
    let cycles = super::cycles(analysis, files, "modules")?.findings.len();
    Ok(DagSummary {
        nodes: in_scope.len(),
        edges,
        module_cycles: cycles,
        most_depended_on: most_depended
            .iter()
            .take(10)
            .map(|(path, c)| FileDependents {
                file_path: path.to_string(),
                depended_on_by: c.depended_on_by,
                depends_on: c.depends_on,
            })
            .collect(),
    })
}

/// The scorecard of the parts computed.
fn scorecard(files: &[Arc<FileEntry>], parts: &Parts) -> Scorecard {
    let (mut functions, mut within, mut mi_sum, mut hours) = (0usize, 0usize, 0.0, 0.0);
    for file in files {
        let Ok(facts) = file.facts() else { continue };
        for m in &facts.metrics {
            functions += 1;
            if m.cyclomatic <= 10 && m.cognitive <= 15 {
                within += 1;
            }
            mi_sum += super::quality::maintainability_index(m);
            hours += 0.5 * f64::from(m.cyclomatic.saturating_sub(10));
        }
    }
    let mut card = Scorecard::default();
    let mut weighted = Vec::new();
    if parts.complexity.is_some() {
        let score = if functions == 0 {
            100.0
        } else {
            100.0 * within as f64 / functions as f64
        };
        let mi = if functions == 0 {
            100.0
        } else {
            mi_sum / functions as f64
        };
        card.complexity_score = Some(round1(score));
        card.maintainability_index = Some(round1(mi));
        weighted.push((score, 0.35));
        weighted.push((mi, 0.25));
    } else {
        hours = 0.0;
    }
    if let Some(duplicates) = &parts.duplicates {
        let share = duplicates.summary.duplication_percentage;
        card.duplication_percentage = Some(share);
        weighted.push(((100.0 - 4.0 * share).max(0.0), 0.20));
        hours += duplicates.summary.duplicated_lines as f64 / 50.0;
    }
    if let Some(defects) = &parts.defects
        && !defects.files.is_empty()
    {
        let mean =
            defects.files.iter().map(|f| f.probability).sum::<f64>() / defects.files.len() as f64;
        weighted.push((100.0 * (1.0 - mean), 0.20));
    }
    if let Some(debt) = &parts.debt {
        hours += 2.0 * debt.high as f64 + debt.medium as f64 + 0.5 * debt.low as f64;
    }
    hours += 0.25 * parts.dead.len() as f64;
    let total: f64 = weighted.iter().map(|(_, w)| w).sum();
    card.overall_health = if total > 0.0 {
        round1(weighted.iter().map(|(s, w)| s * w).sum::<f64>() / total)
    } else {
        100.0
    };
    card.technical_debt_hours = round1(hours);
    card
}

/// The folders (and, within `max_depth`, files) with their figures.
fn file_tree(files: &[Arc<FileEntry>], parts: &Parts, max_depth: usize) -> TreeNode {
    let probability: BTreeMap<&str, f64> = parts
        .defects
        .iter()
        .flat_map(|d| &d.files)
        .map(|f| (f.file_path.as_str(), f.probability))
        .collect();
    let mut root = TreeNode {
        name: ".".into(),
        ..TreeNode::default()
    };
    for file in files {
        let lines = file.lines();
        let cyclomatic = file
            .facts()
            .ok()
            .and_then(|f| f.metrics.iter().map(|m| m.cyclomatic).max())
            .unwrap_or(0);
        let defect = probability.get(file.path.as_str()).copied();
        let mut node = &mut root;
        let segments: Vec<&str> = file.path.split('/').collect();
        for (depth, segment) in segments.iter().enumerate() {
            add(node, lines, cyclomatic, defect);
            if depth >= max_depth {
                break;
            }
            let index = match node.children.iter().position(|c| c.name == *segment) {
                Some(i) => i,
                None => {
                    node.children.push(TreeNode {
                        name: segment.to_string(),
                        ..TreeNode::default()
                    });
                    node.children.len() - 1
                }
            };
            node = &mut node.children[index];
            if depth + 1 == segments.len() {
                add(node, lines, cyclomatic, defect);
            }
        }
    }
    root
}

/// Count a file into `node`.
fn add(node: &mut TreeNode, lines: usize, cyclomatic: u32, defect: Option<f64>) {
    node.files += 1;
    node.lines += lines;
    node.max_cyclomatic = node.max_cyclomatic.max(cyclomatic);
    if let Some(p) = defect {
        node.defect_probability = Some(node.defect_probability.map_or(p, |q| q.max(p)));
    }
}

/// The ten files most likely to hold a defect.
fn hotspots(files: &[Arc<FileEntry>], parts: &Parts) -> Vec<Hotspot> {
    let Some(defects) = &parts.defects else {
        return Vec::new();
    };
    let duplicated: BTreeMap<&str, u32> = parts
        .duplicates
        .iter()
        .flat_map(|d| &d.files)
        .map(|f| (f.file_path.as_str(), f.duplicated_lines))
        .collect();
    let over: BTreeMap<&str, u32> = files
        .iter()
        .filter_map(|f| {
            let facts = f.facts().ok()?;
            let over = facts
                .metrics
                .iter()
                .map(|m| m.cyclomatic.saturating_sub(10))
                .sum();
            Some((f.path.as_str(), over))
        })
        .collect();
    defects
        .files
        .iter()
        .take(10)
        .map(|file| {
            let path = file.file_path.as_str();
            let hours = 1.0
                + 0.5 * f64::from(over.get(path).copied().unwrap_or(0))
                + f64::from(duplicated.get(path).copied().unwrap_or(0)) / 50.0;
            let mut factors: Vec<_> = file
                .factors
                .iter()
                .filter(|f| f.contribution > 0.0)
                .collect();
            factors.sort_by(|a, b| b.contribution.total_cmp(&a.contribution));
            Hotspot {
                file_path: file.file_path.clone(),
                composite_score: file.probability,
                estimated_hours: round1(hours),
                estimate: Estimate::Formula,
                priority: file.risk,
                reasons: factors.iter().map(|f| f.explanation.clone()).collect(),
            }
        })
        .collect()
}

/// Recommendations from what the analyses found.
fn recommendations(parts: &Parts) -> Vec<Recommendation> {
    let mut out = Vec::new();
    if let Some(complexity) = &parts.complexity
        && !complexity.violations.is_empty()
    {
        let worst: Vec<String> = complexity
            .violations
            .iter()
            .take(3)
            .map(|v| format!("`{}` ({}, cyclomatic {})", v.function, v.file, v.cyclomatic))
            .collect();
        let hours: f64 = complexity
            .violations
            .iter()
            .map(|v| 0.5 * f64::from(v.cyclomatic.saturating_sub(10)))
            .sum();
        out.push(Recommendation {
            title: "Reduce code complexity".into(),
            description: format!(
                "{} functions exceed cyclomatic 10 or cognitive 15; the worst: {}",
                complexity.violations.len(),
                worst.join(", ")
            ),
            priority: if complexity.summary.max_cyclomatic >= 20 {
                "high"
            } else {
                "medium"
            },
            impact: "high",
            estimated_hours: round1(hours.max(0.5)),
            estimate: Estimate::Formula,
            refactor_call: None,
        });
    }
    if let Some(duplicates) = &parts.duplicates
        && duplicates.summary.duplication_percentage > 5.0
    {
        out.push(Recommendation {
            title: "Remove duplicated code".into(),
            description: format!(
                "{}% of the lines are in {} clone groups; the largest spans {} lines",
                duplicates.summary.duplication_percentage,
                duplicates.summary.clone_groups,
                duplicates.groups.first().map_or(0, |g| g.lines)
            ),
            priority: if duplicates.summary.duplication_percentage > 15.0 {
                "high"
            } else {
                "medium"
            },
            impact: "medium",
            estimated_hours: round1(duplicates.summary.duplicated_lines as f64 / 50.0),
            estimate: Estimate::Formula,
            refactor_call: None,
        });
    }
    let certain_dead = parts
        .dead
        .iter()
        .filter(|f| f.severity != Severity::Low)
        .count();
    if certain_dead > 0 {
        out.push(Recommendation {
            title: "Delete dead code".into(),
            description: format!(
                "{certain_dead} private declarations are used by nothing; `delete` with kind `dead_code` takes them out with the imports only they used"
            ),
            priority: "low",
            impact: "low",
            estimated_hours: round1(0.25 * certain_dead as f64),
            estimate: Estimate::Formula,
            refactor_call: Some(json!({ "command": "delete", "arguments": { "kind": "dead_code", "path": "." } })),
        });
    }
    if let Some(debt) = &parts.debt
        && debt.high > 0
    {
        out.push(Recommendation {
            title: "Resolve the defects the comments admit".into(),
            description: format!(
                "{} FIXME, BUG or SECURITY comments mark known problems",
                debt.high
            ),
            priority: "high",
            impact: "high",
            estimated_hours: round1(2.0 * debt.high as f64),
            estimate: Estimate::Formula,
            refactor_call: None,
        });
    }
    if let Some(defects) = &parts.defects
        && defects.files.iter().any(|f| f.risk == "high")
    {
        let risky: Vec<&str> = defects
            .files
            .iter()
            .filter(|f| f.risk == "high")
            .take(3)
            .map(|f| f.file_path.as_str())
            .collect();
        out.push(Recommendation {
            title: "Review the riskiest files first".into(),
            description: format!(
                "{} files score a high defect probability: {}",
                defects.summary.high,
                risky.join(", ")
            ),
            priority: "high",
            impact: "high",
            estimated_hours: round1(2.0 * defects.summary.high as f64),
            estimate: Estimate::Formula,
            refactor_call: None,
        });
    }
    out
}

fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}
