//! The technical debt gradient (`include_tdg`): a 0-5 score per file of how
//! fast debt accrues there, from the factors the defect analysis measures
//! and the file's debt comments. A formula, stated here whole:
//!
//! `tdg = 5 × Σ weightᵢ × factorᵢ ÷ Σ weightᵢ` over the factors measured,
//! each factor 0-1:
//!
//! | factor | what it is | weight |
//! |---|---|---|
//! | churn | the defect analysis's churn factor (commits and changed lines) | 0.35 |
//! | complexity | the defect analysis's complexity factor (highest cyclomatic) | 0.30 |
//! | coupling | the defect analysis's coupling factor (files coupled) | 0.15 |
//! | duplication | the share of the file's lines in clones | 0.10 |
//! | debt comments | `d / (d + 1)`, `d` the debt comments per 100 lines | 0.10 |
//!
//! A factor that could not be measured (churn without git history, clones
//! of an unreadable file) is left out of both sums, and the confidence is
//! the share of the weight measured. A file from 2.5 is `critical`, from
//! 1.5 `warning`, else `normal`.

use std::collections::{BTreeMap, HashMap};

use schemars::JsonSchema;
use serde::Serialize;

use super::{Debt, DefectReport};
use crate::deep_context::Estimate;

/// The factors and their weights, heaviest first.
pub const TDG_WEIGHTS: [(&str, f64); 5] = [
    ("churn", 0.35),
    ("complexity", 0.30),
    ("coupling", 0.15),
    ("duplication", 0.10),
    ("debt_comments", 0.10),
];

/// The files listed, highest score first (the summary counts all).
const LISTED: usize = 10;

/// One file's gradient.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct FileTdg {
    pub file_path: String,
    /// 0-5.
    pub score: f64,
    /// `critical` from 2.5, `warning` from 1.5, else `normal`.
    pub severity: &'static str,
    /// The share of the weight that was measured (0-1).
    pub confidence: f64,
    /// Each measured factor (0-1), by name.
    pub factors: Vec<TdgFactor>,
}

/// One factor of a file's gradient.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct TdgFactor {
    pub name: &'static str,
    /// 0-1.
    pub value: f64,
    pub weight: f64,
}

/// Totals over every file scored.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct TdgSummary {
    pub files: usize,
    pub average: f64,
    pub critical: usize,
    pub warning: usize,
    pub normal: usize,
}

/// The gradient of the files in scope.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct TdgReport {
    pub summary: TdgSummary,
    /// The ten highest.
    pub files: Vec<FileTdg>,
    /// The factors and their weights.
    pub weights: BTreeMap<&'static str, f64>,
    /// The score is a formula over measured factors.
    pub estimate: Estimate,
}

/// The gradient of every file `defects` scored, with the debt comments of
/// `debt` and each file's line count from `lines`.
pub fn tdg(defects: &DefectReport, debt: &Debt, lines: &HashMap<&str, usize>) -> TdgReport {
    let mut comments: HashMap<&str, usize> = HashMap::new();
    for item in &debt.items {
        *comments.entry(item.file_path.as_str()).or_default() += 1;
    }
    let mut scored: Vec<FileTdg> = defects
        .files
        .iter()
        .map(|file| {
            let mut measured: Vec<(&'static str, f64)> = file
                .factors
                .iter()
                .map(|f| (f.name, f.normalized))
                .collect();
            let file_lines = lines.get(file.file_path.as_str()).copied().unwrap_or(0);
            let per_hundred = comments.get(file.file_path.as_str()).copied().unwrap_or(0) as f64
                * 100.0
                / file_lines.max(1) as f64;
            measured.push(("debt_comments", per_hundred / (per_hundred + 1.0)));
            score(&file.file_path, &measured)
        })
        .collect();
    scored.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then_with(|| a.file_path.cmp(&b.file_path))
    });
    let count = |severity: &str| scored.iter().filter(|f| f.severity == severity).count();
    let average = if scored.is_empty() {
        0.0
    } else {
        scored.iter().map(|f| f.score).sum::<f64>() / scored.len() as f64
    };
    let summary = TdgSummary {
        files: scored.len(),
        average: round(average),
        critical: count("critical"),
        warning: count("warning"),
        normal: count("normal"),
    };
    scored.truncate(LISTED);
    TdgReport {
        summary,
        files: scored,
        weights: TDG_WEIGHTS.into_iter().collect(),
        estimate: Estimate::Formula,
    }
}

/// One file's score from its measured factors (name, 0-1); names without
/// a weight are not counted.
fn score(file_path: &str, measured: &[(&'static str, f64)]) -> FileTdg {
    let factors: Vec<TdgFactor> = TDG_WEIGHTS
        .iter()
        .filter_map(|&(name, weight)| {
            let (_, value) = measured.iter().find(|(n, _)| *n == name)?;
            Some(TdgFactor {
                name,
                value: round(value.clamp(0.0, 1.0)),
                weight,
            })
        })
        .collect();
    let weight_measured: f64 = factors.iter().map(|f| f.weight).sum();
    let total_weight: f64 = TDG_WEIGHTS.iter().map(|(_, w)| w).sum();
    let score = if weight_measured > 0.0 {
        5.0 * factors.iter().map(|f| f.weight * f.value).sum::<f64>() / weight_measured
    } else {
        0.0
    };
    let score = round(score);
    FileTdg {
        file_path: file_path.to_string(),
        score,
        severity: if score >= 2.5 {
            "critical"
        } else if score >= 1.5 {
            "warning"
        } else {
            "normal"
        },
        confidence: round(weight_measured / total_weight),
        factors,
    }
}

fn round(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_score_is_the_weighted_mean_of_the_measured_factors_times_five() {
        let total: f64 = TDG_WEIGHTS.iter().map(|(_, w)| w).sum();
        assert!((total - 1.0).abs() < 1e-9);
        let all = score(
            "a.rs",
            &[
                ("churn", 1.0),
                ("complexity", 1.0),
                ("coupling", 0.0),
                ("duplication", 0.0),
                ("debt_comments", 0.0),
            ],
        );
        // 5 × (0.35 + 0.30) = 3.25.
        assert_eq!(all.score, 3.25);
        assert_eq!(all.severity, "critical");
        assert_eq!(all.confidence, 1.0);
        // Without history, churn is left out: 5 × 0.30 ÷ 0.65.
        let no_churn = score(
            "a.rs",
            &[
                ("complexity", 1.0),
                ("coupling", 0.0),
                ("duplication", 0.0),
                ("debt_comments", 0.0),
            ],
        );
        assert_eq!(no_churn.score, 2.308);
        assert_eq!(no_churn.confidence, 0.65);
        let calm = score("a.rs", &[("complexity", 0.1), ("coupling", 0.2)]);
        assert_eq!(calm.severity, "normal");
        assert_eq!(score("a.rs", &[]).score, 0.0);
    }
}
