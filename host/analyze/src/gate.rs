//! `quality_gate`: pass or fail against thresholds, for CI. Each check is
//! an analysis of this engine, or for coverage a report of the project's
//! own test run (lcov or Cobertura); a check that cannot run (no coverage
//! report, no defect threshold) is reported `skipped` with the reason,
//! never passed.

use std::sync::Arc;

use schemars::JsonSchema;
use serde::Serialize;

use super::coverage::CoverageReport;
use super::{
    DuplicatesReport, DuplicatesRequest, Thresholds, churn_history, defect_probability_of,
    duplicates, quality,
};
use lingo_analysis::{Analysis, Range, RangePoint};
use lingo_index::FileEntry;
use lingo_model::budget::Exhausted;

/// Thresholds a project sets in `lingo.toml` (`[quality_gate]`), which the
/// gate applies where a call gives none.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GateConfig {
    pub complexity_threshold: Option<f64>,
    pub duplication_threshold: Option<f64>,
    pub coverage_threshold: Option<f64>,
    pub defect_threshold: Option<f64>,
    /// The coverage report (lcov or Cobertura XML), workspace-relative.
    pub coverage_file: Option<String>,
}

impl GateConfig {
    /// The first threshold that is not a number ≥ 0, named.
    pub fn check(&self) -> Result<(), String> {
        for (name, value) in [
            ("complexity_threshold", self.complexity_threshold),
            ("duplication_threshold", self.duplication_threshold),
            ("coverage_threshold", self.coverage_threshold),
            ("defect_threshold", self.defect_threshold),
        ] {
            if let Some(v) = value
                && !(v.is_finite() && v >= 0.0)
            {
                return Err(format!("quality_gate.{name} = {v}: expected a number ≥ 0"));
            }
        }
        Ok(())
    }
}

/// The thresholds a gate applies (mcp-wire-protocol.md's arguments).
#[derive(Debug, Clone)]
pub struct GateRequest {
    /// Highest cyclomatic complexity a function may have (default 10).
    pub complexity_threshold: f64,
    /// Highest share of duplicated lines, in percent (default 5).
    pub duplication_threshold: f64,
    /// Lowest line coverage, in percent, of each file the report names
    /// and of them all.
    pub coverage_threshold: Option<f64>,
    pub defect_threshold: Option<f64>,
    /// The coverage report read, and where from; or why there is none.
    pub coverage: Result<(String, CoverageReport), String>,
}

impl Default for GateRequest {
    fn default() -> Self {
        GateRequest {
            complexity_threshold: 10.0,
            duplication_threshold: 5.0,
            coverage_threshold: None,
            defect_threshold: None,
            coverage: Err("no coverage report was given".into()),
        }
    }
}

/// How a check ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Passed,
    Failed,
    Skipped,
}

/// One check of the gate.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Check {
    pub name: &'static str,
    pub status: Status,
    pub threshold: Option<f64>,
    pub violations: usize,
    /// Why it was skipped.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// One place over a threshold.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Violation {
    pub check: &'static str,
    pub file_path: String,
    pub range: Range,
    pub symbol: String,
    pub value: f64,
    pub threshold: f64,
    pub message: String,
}

/// The gate's verdict.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct GateResult {
    /// No check failed (skipped ones do not count either way).
    pub passed: bool,
    pub checks: Vec<Check>,
    pub violations: Vec<Violation>,
    pub files_analyzed: usize,
}

/// Run the gate over `files`.
pub fn quality_gate(
    analysis: &Analysis,
    files: &[Arc<FileEntry>],
    request: &GateRequest,
) -> Result<GateResult, Exhausted> {
    let thresholds = Thresholds {
        cyclomatic_complexity: request.complexity_threshold,
        // Only the cyclomatic complexity gates; the rest never exceed.
        cognitive_complexity: f64::INFINITY,
        nesting_depth: f64::INFINITY,
        parameter_count: f64::INFINITY,
        function_length: f64::INFINITY,
        maintainability_index: 0.0,
        class_members: f64::INFINITY,
        name_length: 0.0,
    };
    let found = quality(analysis, files, "complexity", &thresholds);
    let mut violations: Vec<Violation> = found
        .findings
        .iter()
        .map(|f| {
            let value = f.metrics["cyclomatic_complexity"].as_f64().unwrap_or(0.0);
            let symbol = f
                .symbol
                .as_ref()
                .map(|s| s.symbol.clone())
                .unwrap_or_default();
            Violation {
                check: "complexity",
                file_path: f.location.file_path.clone(),
                range: f.location.range,
                message: format!(
                    "`{symbol}` has a cyclomatic complexity of {value} (at most {})",
                    request.complexity_threshold
                ),
                symbol,
                value,
                threshold: request.complexity_threshold,
            }
        })
        .collect();
    let mut checks = vec![Check {
        name: "complexity",
        status: if violations.is_empty() {
            Status::Passed
        } else {
            Status::Failed
        },
        threshold: Some(request.complexity_threshold),
        violations: violations.len(),
        reason: None,
    }];
    // Clones are found once, for the duplication check and the defect
    // score's duplication factor.
    let clones = duplicates(files, &DuplicatesRequest::default());
    let duplication = duplication_violations(&clones, request.duplication_threshold);
    checks.push(Check {
        name: "duplication",
        status: if duplication.is_empty() {
            Status::Passed
        } else {
            Status::Failed
        },
        threshold: Some(request.duplication_threshold),
        violations: duplication.len(),
        reason: None,
    });
    violations.extend(duplication);
    let (check, coverage) = coverage_check(files, request);
    checks.push(check);
    violations.extend(coverage);
    match request.defect_threshold {
        Some(threshold) => {
            let defects = defect_violations(analysis, files, &clones, threshold)?;
            checks.push(Check {
                name: "defect_probability",
                status: if defects.is_empty() {
                    Status::Passed
                } else {
                    Status::Failed
                },
                threshold: Some(threshold),
                violations: defects.len(),
                reason: None,
            });
            violations.extend(defects);
        }
        None => checks.push(Check {
            name: "defect_probability",
            status: Status::Skipped,
            threshold: None,
            violations: 0,
            reason: Some(
                "no defect_threshold given: lingo's defect probability is an explainable score (analyze_defect_probability), not a calibrated probability, so it gates only when asked"
                    .into(),
            ),
        }),
    }
    Ok(GateResult {
        passed: checks.iter().all(|c| c.status != Status::Failed),
        checks,
        violations,
        files_analyzed: files.len(),
    })
}

/// The duplication check: when the share of duplicated lines over `files`
/// (clones of every type, at `analyze_duplicates`' defaults) is above
/// `threshold` percent, each file whose own share is above it (one at
/// least must be), placed at its first clone.
/// The coverage check: each file of `files` the report names, and all of
/// them together, against the threshold; skipped, with why, without a
/// threshold or a report.
fn coverage_check(files: &[Arc<FileEntry>], request: &GateRequest) -> (Check, Vec<Violation>) {
    let skipped = |reason: String| Check {
        name: "coverage",
        status: Status::Skipped,
        threshold: request.coverage_threshold,
        violations: 0,
        reason: Some(reason),
    };
    let Some(threshold) = request.coverage_threshold else {
        return (skipped("no coverage_threshold".into()), Vec::new());
    };
    let (source, report) = match &request.coverage {
        Ok(found) => found,
        Err(why) => return (skipped(why.clone()), Vec::new()),
    };
    let whole = Range {
        start: RangePoint {
            line: 0,
            character: 0,
        },
        end: RangePoint {
            line: 0,
            character: 0,
        },
    };
    let mut violations = Vec::new();
    let (mut lines, mut covered, mut judged) = (0u64, 0u64, 0usize);
    for file in files {
        let Some(coverage) = report.file(&file.path) else {
            continue;
        };
        judged += 1;
        lines += coverage.lines;
        covered += coverage.covered;
        let percent = round2(coverage.percent());
        if percent < threshold {
            violations.push(Violation {
                check: "coverage",
                file_path: file.path.clone(),
                range: whole,
                symbol: String::new(),
                value: percent,
                threshold,
                message: format!(
                    "{percent}% of its lines ran ({} of {}), under {threshold}% ({source})",
                    coverage.covered, coverage.lines
                ),
            });
        }
    }
    if judged == 0 {
        return (
            skipped(format!("{source} names none of the files checked")),
            Vec::new(),
        );
    }
    let overall = round2(if lines == 0 {
        100.0
    } else {
        100.0 * covered as f64 / lines as f64
    });
    if overall < threshold {
        violations.push(Violation {
            check: "coverage",
            file_path: ".".into(),
            range: whole,
            symbol: String::new(),
            value: overall,
            threshold,
            message: format!(
                "{overall}% of the lines of the {judged} files in {source} ran ({covered} of {lines}), under {threshold}%"
            ),
        });
    }
    let check = Check {
        name: "coverage",
        status: if violations.is_empty() {
            Status::Passed
        } else {
            Status::Failed
        },
        threshold: Some(threshold),
        violations: violations.len(),
        reason: None,
    };
    (check, violations)
}

/// `value` rounded to two decimals.
fn round2(value: f64) -> f64 {
    (value * 100.0).round() / 100.0
}

fn duplication_violations(report: &DuplicatesReport, threshold: f64) -> Vec<Violation> {
    if report.summary.duplication_percentage <= threshold {
        return Vec::new();
    }
    report
        .files
        .iter()
        .filter(|f| f.duplication_percentage > threshold)
        .map(|file| {
            let first = report
                .groups
                .iter()
                .flat_map(|g| &g.fragments)
                .filter(|f| f.file_path == file.file_path)
                .min_by_key(|f| f.start_line);
            let (start, end) = first.map_or((1, 1), |f| (f.start_line, f.end_line));
            let point = |line: u32| RangePoint {
                line: line.saturating_sub(1),
                character: 0,
            };
            Violation {
                check: "duplication",
                file_path: file.file_path.clone(),
                range: Range {
                    start: point(start),
                    end: point(end),
                },
                symbol: String::new(),
                value: file.duplication_percentage,
                threshold,
                message: format!(
                    "{}% of the file's lines are duplicated ({} of {}; at most {threshold}%)",
                    file.duplication_percentage, file.duplicated_lines, file.total_lines
                ),
            }
        })
        .collect()
}

/// The defect check: each file whose defect probability (whatever its
/// confidence) is above `threshold`, with its factors in the message.
fn defect_violations(
    analysis: &Analysis,
    files: &[Arc<FileEntry>],
    clones: &DuplicatesReport,
    threshold: f64,
) -> Result<Vec<Violation>, Exhausted> {
    let history = churn_history(analysis);
    let report = defect_probability_of(analysis, files, 0.0, (&history, clones))?;
    Ok(report
        .files
        .iter()
        .filter(|f| f.probability > threshold)
        .map(|file| {
            let factors: Vec<String> = file
                .factors
                .iter()
                .map(|f| format!("{} {}", f.name, f.contribution))
                .collect();
            Violation {
                check: "defect_probability",
                file_path: file.file_path.clone(),
                range: super::start_of_file(),
                symbol: String::new(),
                value: file.probability,
                threshold,
                message: format!(
                    "defect probability {} (at most {threshold}): {}",
                    file.probability,
                    factors.join(", ")
                ),
            }
        })
        .collect())
}
