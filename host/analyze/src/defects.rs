//! `analyze_defect_probability` (mcp-wire-protocol.md): an explainable
//! score of how likely each file is to hold a defect, from four measured
//! factors, each shown with its raw value, its normalised value (0-1), its
//! weight and its share of the score. No trained model: the weights and
//! curves below are the whole of it.
//!
//! | factor | raw value | normalised | weight |
//! |---|---|---|---|
//! | complexity | highest cyclomatic complexity of a function | `c / (c + 10)` | 0.35 |
//! | churn | commits and changed lines in the period | `½·n/(n+5) + ½·l/(l+L)` (L: the file's lines) | 0.25 |
//! | duplication | share of the file's lines in clones | the share | 0.20 |
//! | coupling | files it depends on plus files depending on it | `k / (k + 10)` | 0.20 |
//!
//! The probability is the weighted mean of the factors measured; a factor
//! that could not be measured (no git history) is left out, and the
//! confidence is the share of the weight that was measured. Each curve is
//! ½ at a value the quality thresholds call a concern (cyclomatic 10, five
//! commits, a file rewritten once, ten coupled files).

use std::collections::HashMap;
use std::sync::Arc;

use schemars::JsonSchema;
use serde::Serialize;

use super::{DuplicatesRequest, duplicates};
use crate::history::History;
use lingo_analysis::{Analysis, Coupling};
use lingo_index::FileEntry;
use lingo_model::budget::Exhausted;

/// The weights of the factors, in the order the factors are listed.
pub const WEIGHTS: [(&str, f64); 4] = [
    ("complexity", 0.35),
    ("churn", 0.25),
    ("duplication", 0.20),
    ("coupling", 0.20),
];

/// Days of history the churn factor reads.
pub const CHURN_DAYS: u32 = 90;

/// One factor of a file's score.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Factor {
    pub name: &'static str,
    /// What was measured, in its own unit.
    pub value: f64,
    /// 0-1.
    pub normalized: f64,
    pub weight: f64,
    /// Its part of the probability (normalized × weight ÷ the weight
    /// measured).
    pub contribution: f64,
    /// The measurement in words.
    pub explanation: String,
}

/// One file's score.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct FileDefect {
    pub file_path: String,
    /// 0-1.
    pub probability: f64,
    /// The share of the factors' weight that was measured (0-1).
    pub confidence: f64,
    /// `high` from 0.6, `medium` from 0.4, else `low`.
    pub risk: &'static str,
    pub factors: Vec<Factor>,
}

/// Totals.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct DefectSummary {
    pub files_analyzed: usize,
    /// Files at `min_confidence` or above, which the list holds.
    pub files_reported: usize,
    pub high: usize,
    pub medium: usize,
    pub low: usize,
    pub average_probability: f64,
}

/// The answer, before paging.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct DefectReport {
    pub summary: DefectSummary,
    pub files: Vec<FileDefect>,
    /// The factors and their weights.
    pub weights: HashMap<&'static str, f64>,
    /// Factors not measured, and why.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unmeasured: Vec<String>,
}

/// The defect probability of each of `files` with a confidence of at least
/// `min_confidence`, most likely first.
pub fn defect_probability(
    analysis: &Analysis,
    files: &[Arc<FileEntry>],
    min_confidence: f64,
) -> Result<DefectReport, Exhausted> {
    let history = churn_history(analysis);
    let clones = duplicates(files, &DuplicatesRequest::default());
    defect_probability_of(analysis, files, min_confidence, (&history, &clones))
}

/// The history the churn factor reads ([`CHURN_DAYS`] days), or why not.
pub fn churn_history(analysis: &Analysis) -> Result<History, String> {
    let since = lingo_refactor::plan::now_seconds() - i64::from(CHURN_DAYS) * 86_400;
    crate::history::since(analysis.workspace().root(), since).map_err(|e| e.to_string())
}

/// The defect probability from a history and the clones already found.
pub fn defect_probability_of(
    analysis: &Analysis,
    files: &[Arc<FileEntry>],
    min_confidence: f64,
    (history, clones): (&Result<History, String>, &super::DuplicatesReport),
) -> Result<DefectReport, Exhausted> {
    let (history, mut unmeasured) = match history {
        Ok(history) => (Some(history), Vec::new()),
        Err(e) => (None, vec![format!("churn: {e}")]),
    };
    if history.is_some_and(|h| h.truncated) {
        unmeasured.push(format!(
            "churn: only the newest {} commits were read",
            crate::history::MAX_COMMITS
        ));
    }
    let duplicated: HashMap<&str, f64> = clones
        .files
        .iter()
        .map(|f| (f.file_path.as_str(), f.duplication_percentage / 100.0))
        .collect();
    let unread: std::collections::HashSet<&str> =
        clones.unread.iter().map(|u| u.file_path.as_str()).collect();
    let coupling = analysis.file_coupling()?;
    let mut scored: Vec<FileDefect> = files
        .iter()
        .filter(|f| f.facts().is_ok())
        .map(|file| {
            let measured = Measured {
                history,
                duplication: (!unread.contains(file.path.as_str()))
                    .then(|| duplicated.get(file.path.as_str()).copied().unwrap_or(0.0)),
                coupling: coupling.get(&file.path).copied().unwrap_or_default(),
            };
            score(file, &measured)
        })
        .collect();
    let files_analyzed = scored.len();
    scored.retain(|f| f.confidence >= min_confidence);
    scored.sort_by(|a, b| {
        b.probability
            .total_cmp(&a.probability)
            .then_with(|| a.file_path.cmp(&b.file_path))
    });
    let count = |risk: &str| scored.iter().filter(|f| f.risk == risk).count();
    let average = if scored.is_empty() {
        0.0
    } else {
        scored.iter().map(|f| f.probability).sum::<f64>() / scored.len() as f64
    };
    Ok(DefectReport {
        summary: DefectSummary {
            files_analyzed,
            files_reported: scored.len(),
            high: count("high"),
            medium: count("medium"),
            low: count("low"),
            average_probability: round(average),
        },
        files: scored,
        weights: WEIGHTS.into_iter().collect(),
        unmeasured,
    })
}

/// What was measured of the workspace, for one file.
struct Measured<'a> {
    history: Option<&'a History>,
    /// The duplicated share, when the file's tokens could be read.
    duplication: Option<f64>,
    coupling: Coupling,
}

/// One file's factors and score.
fn score(file: &FileEntry, measured: &Measured) -> FileDefect {
    let lines = file.source().lines().count().max(1) as f64;
    let facts = file.facts().ok();
    let cyclomatic = facts
        .and_then(|f| f.metrics.iter().map(|m| m.cyclomatic).max())
        .unwrap_or(0) as f64;
    let mut factors: Vec<(usize, f64, f64, String)> = vec![(
        0,
        cyclomatic,
        saturate(cyclomatic, 10.0),
        format!("highest cyclomatic complexity of a function: {cyclomatic}"),
    )];
    if let Some(history) = measured.history {
        let (commits, changed) = history.files.get(&file.path).map_or((0.0, 0.0), |h| {
            (h.commits as f64, (h.lines_added + h.lines_deleted) as f64)
        });
        let normalized = 0.5 * saturate(commits, 5.0) + 0.5 * saturate(changed, lines);
        factors.push((
            1,
            commits,
            normalized,
            format!(
                "{commits} commits changing {changed} lines in {CHURN_DAYS} days, of {lines} lines"
            ),
        ));
    }
    if let Some(share) = measured.duplication {
        factors.push((
            2,
            share,
            share.clamp(0.0, 1.0),
            format!("{:.1}% of its lines in clones", share * 100.0),
        ));
    }
    let coupled = (measured.coupling.depends_on + measured.coupling.depended_on_by) as f64;
    factors.push((
        3,
        coupled,
        saturate(coupled, 10.0),
        format!(
            "depends on {} files, {} depend on it",
            measured.coupling.depends_on, measured.coupling.depended_on_by
        ),
    ));
    let weight_measured: f64 = factors.iter().map(|(i, ..)| WEIGHTS[*i].1).sum();
    let total_weight: f64 = WEIGHTS.iter().map(|(_, w)| w).sum();
    let factors: Vec<Factor> = factors
        .into_iter()
        .map(|(i, value, normalized, explanation)| Factor {
            name: WEIGHTS[i].0,
            value: round(value),
            normalized: round(normalized),
            weight: WEIGHTS[i].1,
            contribution: round(normalized * WEIGHTS[i].1 / weight_measured),
            explanation,
        })
        .collect();
    let probability = round(factors.iter().map(|f| f.contribution).sum());
    FileDefect {
        file_path: file.path.clone(),
        probability,
        confidence: round(weight_measured / total_weight),
        risk: if probability >= 0.6 {
            "high"
        } else if probability >= 0.4 {
            "medium"
        } else {
            "low"
        },
        factors,
    }
}

/// `x / (x + half)`: 0 at 0, ½ at `half`, towards 1 beyond.
fn saturate(x: f64, half: f64) -> f64 {
    if x <= 0.0 {
        0.0
    } else {
        x / (x + half.max(f64::MIN_POSITIVE))
    }
}

fn round(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_curves_are_half_at_their_concern() {
        assert_eq!(saturate(10.0, 10.0), 0.5);
        assert_eq!(saturate(0.0, 10.0), 0.0);
        assert!(saturate(1e9, 10.0) < 1.0);
        assert_eq!(saturate(-3.0, 10.0), 0.0);
        let total: f64 = WEIGHTS.iter().map(|(_, w)| w).sum();
        assert!((total - 1.0).abs() < 1e-9);
    }
}
