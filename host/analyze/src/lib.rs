//! lingo-analyze: the `analyze_*` analyses and their reports (SARIF,
//! JUnit, the quality gate), and the git history they read. Built on
//! `lingo-analysis` and `lingo-refactor`; never imports tools or the
//! protocol.
//!
//! The analysis engine (API boundary for the `analyze_*` tools): typemill's
//! unified analysis envelope (a scope of files, findings with a severity,
//! a location, metrics and suggestions whose `refactor_call` is a lingo
//! refactoring tool with arguments it accepts; a summary counting every
//! severity; paging) over analyses computed from the typed analysis layer.
//! One module per category; nothing here names a language.

mod churn;
pub mod coverage;
mod cycles;
mod dead_code;
mod debt;
mod deep_context;
mod defects;
mod dependencies;
mod documentation;
mod duplicates;
mod gate;
pub mod history;
mod module_deps;
mod names;
mod quality;
mod ranking;
pub mod report;
pub mod sarif;
mod smells;
mod structure;
mod tdg;
mod tested;
mod unreachable;
mod unused_locals;

use std::collections::BTreeMap;
use std::sync::Arc;

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Map, Value};

use lingo_analysis::{Analysis, AnalysisError, Range};
use lingo_index::FileEntry;

pub use churn::{ChurnReport, churn};
pub use cycles::{CYCLE_KINDS, cycles};
pub use dead_code::{DEAD_CODE_KINDS, dead_code};
pub use debt::{Debt, DebtItem, debt};
pub use deep_context::{
    AstSummary, DEEP_ANALYSES, DagSummary, DeadCodeSummary, DeadItem, DeepAnalyses, DeepContext,
    DeepRequest, FileDependents, Hotspot, LanguageSummary, Recommendation, Scorecard, Timing,
    deep_context,
};
pub use defects::{DefectReport, churn_history, defect_probability, defect_probability_of};
pub use dependencies::{DEPENDENCY_KINDS, DependencyThresholds, dependencies, graph_export};
pub use documentation::{DOCUMENTATION_KINDS, documentation};
pub use duplicates::{
    Detection, DuplicatesReport, DuplicatesRequest, LexedFiles, duplicates, duplicates_of,
    lex_files,
};
pub use gate::{Check, GateConfig, GateRequest, GateResult, Status, Violation, quality_gate};
pub use module_deps::{ModuleDependencies, module_dependencies};
pub use names::{NameScope, NameSimilarity, name_similarity, words as name_words};
pub use quality::{QUALITY_KINDS, Thresholds, quality};
pub use ranking::{ComplexityReport, complexity_report, halstead_effort};
pub use structure::{STRUCTURE_KINDS, StructureOptions, structure};
pub use tdg::{FileTdg, TDG_WEIGHTS, TdgFactor, TdgReport, TdgSummary};
pub use tested::{TEST_KINDS, tests};

/// How much a finding matters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    High,
    Medium,
    Low,
}

impl Severity {
    pub const ALL: [Severity; 3] = [Severity::High, Severity::Medium, Severity::Low];

    pub fn as_str(self) -> &'static str {
        match self {
            Severity::High => "high",
            Severity::Medium => "medium",
            Severity::Low => "low",
        }
    }
}

/// Which files an analysis reads (typemill's Scope).
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Scope {
    #[serde(rename = "type")]
    pub kind: ScopeKind,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub include: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub exclude: Vec<String>,
}

/// The kinds of scope served.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ScopeKind {
    Workspace,
    Directory,
    File,
}

/// Why a scope cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum ScopeError {
    #[error("{0}")]
    Files(#[from] AnalysisError),
    #[error("`{pattern}` is not a glob: {reason}")]
    Glob { pattern: String, reason: String },
}

impl Scope {
    /// The workspace's indexed files in scope, in path order.
    pub fn files(&self, analysis: &Analysis) -> Result<Vec<Arc<FileEntry>>, ScopeError> {
        let path = match self.kind {
            ScopeKind::Workspace => ".",
            ScopeKind::Directory | ScopeKind::File => self.path.as_deref().unwrap_or("."),
        };
        let files = analysis.files_under(path)?;
        let include = globs(&self.include)?;
        let exclude = globs(&self.exclude)?;
        Ok(files
            .into_iter()
            .filter(|f| {
                (self.include.is_empty() || include.is_match(&f.path))
                    && (self.exclude.is_empty() || !exclude.is_match(&f.path))
            })
            .collect())
    }
}

/// The glob set of `patterns`; a pattern without a `/` matches the file
/// name anywhere (`*.rs`), one ending in `/` everything under that folder.
fn globs(patterns: &[String]) -> Result<globset::GlobSet, ScopeError> {
    let mut set = globset::GlobSetBuilder::new();
    for pattern in patterns {
        let written = if pattern.ends_with('/') {
            format!("{pattern}**")
        } else if !pattern.contains('/') {
            format!("**/{pattern}")
        } else {
            pattern.clone()
        };
        let glob = globset::Glob::new(&written).map_err(|e| ScopeError::Glob {
            pattern: pattern.clone(),
            reason: e.to_string(),
        })?;
        set.add(glob);
    }
    set.build().map_err(|e| ScopeError::Glob {
        pattern: patterns.join(", "),
        reason: e.to_string(),
    })
}

/// Where a finding is.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Location {
    pub file_path: String,
    pub range: Range,
}

/// The declaration a finding is about (typemill's SymbolIdentifier).
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct SymbolIdentifier {
    pub symbol: String,
    /// The LSP kind, lowercase.
    pub symbol_kind: String,
    pub language: String,
}

/// A lingo refactoring tool call that acts on a finding.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct RefactorCall {
    /// The tool's name.
    pub command: &'static str,
    pub arguments: Value,
}

/// What to do about a finding.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Suggestion {
    pub action: &'static str,
    pub description: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub estimated_impact: Option<String>,
    /// Present when a lingo tool can do it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refactor_call: Option<RefactorCall>,
}

/// One finding.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Finding {
    /// Stable within the result: `<kind>-<n>` in the order of the whole list.
    pub id: String,
    pub kind: &'static str,
    pub severity: Severity,
    pub location: Location,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub symbol: Option<SymbolIdentifier>,
    pub metrics: Map<String, Value>,
    pub message: String,
    pub suggestions: Vec<Suggestion>,
}

/// The counts of a result.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Summary {
    pub total_findings: usize,
    pub returned_findings: usize,
    pub has_more: bool,
    /// Every severity, zero included.
    #[schemars(with = "BySeverity")]
    pub by_severity: BTreeMap<&'static str, usize>,
    pub files_analyzed: usize,
    pub symbols_analyzed: usize,
    pub analysis_time_ms: u128,
}

/// The schema of [`Summary::by_severity`]: a count for every severity.
#[derive(JsonSchema)]
#[allow(dead_code)]
struct BySeverity {
    high: usize,
    medium: usize,
    low: usize,
}

/// What was asked and with which thresholds.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Metadata {
    pub category: &'static str,
    pub kind: String,
    pub scope: Scope,
    /// The files' language when they share one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    pub timestamp: String,
    pub thresholds: Map<String, Value>,
    /// The index generation analysed.
    pub generation: u64,
    /// What the analysis could not see, when anything.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub incomplete_reasons: Vec<String>,
    /// The graph exported (`analyze_dependencies` with `format: graph`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub graph: Option<Value>,
}

/// typemill's AnalysisResult.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct AnalysisResult {
    pub findings: Vec<Finding>,
    pub summary: Summary,
    pub metadata: Metadata,
}

/// What an analysis found over its files, before paging.
pub struct Found {
    pub findings: Vec<Finding>,
    pub files_analyzed: usize,
    pub symbols_analyzed: usize,
    pub thresholds: Map<String, Value>,
    pub incomplete_reasons: Vec<String>,
}

/// The page `offset..offset + limit` of `found`, most severe first (then
/// by place), numbered in that order, in the envelope.
pub fn result(
    analysis: &Analysis,
    files: &[Arc<FileEntry>],
    (category, kind, scope): (&'static str, &str, Scope),
    mut found: Found,
    (offset, limit): (usize, usize),
    started: std::time::Instant,
) -> AnalysisResult {
    found.findings.sort_by(|a, b| {
        (a.severity, &a.location.file_path, a.location.range.start).cmp(&(
            b.severity,
            &b.location.file_path,
            b.location.range.start,
        ))
    });
    let mut numbered: BTreeMap<&'static str, usize> = BTreeMap::new();
    for finding in &mut found.findings {
        let n = numbered.entry(finding.kind).or_default();
        *n += 1;
        finding.id = format!("{}-{n}", finding.kind);
    }
    let mut by_severity: BTreeMap<&'static str, usize> =
        Severity::ALL.iter().map(|s| (s.as_str(), 0)).collect();
    for finding in &found.findings {
        *by_severity.entry(finding.severity.as_str()).or_default() += 1;
    }
    let total = found.findings.len();
    let page: Vec<Finding> = found
        .findings
        .into_iter()
        .skip(offset)
        .take(limit)
        .collect();
    let mut languages = files
        .iter()
        .filter_map(|f| f.facts().ok().map(|facts| facts.language.clone()));
    let first = languages.next();
    let language = first.filter(|l| languages.all(|other| other == *l));
    AnalysisResult {
        summary: Summary {
            total_findings: total,
            returned_findings: page.len(),
            has_more: offset + page.len() < total,
            by_severity,
            files_analyzed: found.files_analyzed,
            symbols_analyzed: found.symbols_analyzed,
            analysis_time_ms: started.elapsed().as_millis(),
        },
        findings: page,
        metadata: Metadata {
            category,
            kind: kind.to_string(),
            scope,
            language,
            timestamp: lingo_refactor::plan::now_rfc3339(),
            thresholds: found.thresholds,
            generation: analysis.generation(),
            incomplete_reasons: found.incomplete_reasons,
            graph: None,
        },
    }
}

/// A finding about declaration `index` of `file` (`message` is given its
/// qualified name).
fn declaration_finding(
    file: &FileEntry,
    facts: &lingo_model::FileFacts,
    index: usize,
    (kind, severity): (&'static str, Severity),
    metrics: Map<String, Value>,
    message: impl FnOnce(&str) -> String,
) -> Finding {
    let symbol = &facts.symbols[index];
    let name = lingo_analysis::qualified_name(file, index, symbol);
    Finding {
        id: String::new(),
        kind,
        severity,
        location: Location {
            file_path: file.path.clone(),
            range: Range::from(&symbol.span),
        },
        message: message(&name),
        symbol: Some(SymbolIdentifier {
            symbol: name,
            symbol_kind: kind_word(symbol.kind),
            language: facts.language.clone(),
        }),
        metrics,
        suggestions: Vec::new(),
    }
}

/// A finding about the share of a file's `total` declarations that pass a
/// check (`passing`), placed at declaration `first` of the file; medium
/// when the share is at most `medium_at`. `metrics` gets `coverage_ratio`.
fn share_finding(
    file: &FileEntry,
    facts: &lingo_model::FileFacts,
    (first, kind): (usize, &'static str),
    (passing, total, medium_at): (usize, usize, f64),
    mut metrics: Map<String, Value>,
    what: &str,
) -> Finding {
    let ratio = passing as f64 / total.max(1) as f64;
    metrics.insert(
        "coverage_ratio".into(),
        serde_json::json!((ratio * 1000.0).round() / 1000.0),
    );
    Finding {
        id: String::new(),
        kind,
        severity: if ratio <= medium_at {
            Severity::Medium
        } else {
            Severity::Low
        },
        location: Location {
            file_path: file.path.clone(),
            range: Range::from(&facts.symbols[first].span),
        },
        symbol: None,
        metrics,
        message: format!("{passing} of {total} {what} ({:.0}%)", ratio * 100.0),
        suggestions: Vec::new(),
    }
}

/// The declarations of `facts` its plugin names entry points of one of
/// `kinds`.
fn entry_points_of(
    facts: &lingo_model::FileFacts,
    kinds: &[lingo_model::EntryPointKind],
) -> std::collections::HashSet<u32> {
    facts
        .entry_points
        .iter()
        .flatten()
        .filter(|e| kinds.contains(&e.kind))
        .map(|e| e.symbol)
        .collect()
}

/// How many declarations `files` hold.
fn symbol_count(files: &[Arc<FileEntry>]) -> usize {
    files
        .iter()
        .filter_map(|f| f.facts().ok())
        .map(|f| f.symbols.len())
        .sum()
}

/// The empty range at the start of a file (where a finding about a whole
/// file or folder is placed).
fn start_of_file() -> Range {
    let start = lingo_analysis::RangePoint {
        line: 0,
        character: 0,
    };
    Range { start, end: start }
}

/// The lowercase LSP kind of a symbol kind (`function`, `class`).
fn kind_word(kind: lingo_model::SymbolKind) -> String {
    kind.as_str().to_ascii_lowercase()
}
