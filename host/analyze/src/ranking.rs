//! `analyze_complexity` (mcp-wire-protocol.md): the functions over the
//! cyclomatic or cognitive limit, and the files ranked by complexity. A
//! file's `total_score` is its highest cyclomatic complexity plus its
//! functions' mean cognitive complexity; its Halstead effort is the sum of
//! its functions' (difficulty × volume).

use std::sync::Arc;

use schemars::JsonSchema;
use serde::Serialize;

use lingo_analysis::qualified_name;
use lingo_index::FileEntry;
use lingo_model::FunctionMetrics;

/// One function over a limit.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ComplexityViolation {
    pub file: String,
    pub function: String,
    /// 1-based.
    pub line: u32,
    pub cyclomatic: u32,
    pub cognitive: u32,
    /// `max_cyclomatic`, `max_cognitive` or both.
    pub rules: Vec<&'static str>,
}

/// One file's rank.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct FileRanking {
    pub rank: usize,
    pub file: String,
    pub function_count: usize,
    pub max_cyclomatic: u32,
    pub avg_cognitive: f64,
    pub halstead_effort: f64,
    pub total_score: f64,
}

/// Totals over the files.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ComplexitySummary {
    pub files: usize,
    pub functions: usize,
    pub violations: usize,
    pub max_cyclomatic: u32,
    pub avg_cyclomatic: f64,
    pub max_cognitive: u32,
}

/// The files ranked.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct TopFiles {
    pub requested: usize,
    pub returned: usize,
    pub rankings: Vec<FileRanking>,
}

/// The whole answer.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ComplexityReport {
    pub summary: ComplexitySummary,
    pub violations: Vec<ComplexityViolation>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub top_files: Option<TopFiles>,
}

/// Halstead effort of one function: difficulty (n1 / 2 × N2 / n2) times
/// volume (N × log2 n).
pub fn halstead_effort(m: &FunctionMetrics) -> f64 {
    let h = &m.halstead;
    let length = f64::from(h.total_operators + h.total_operands);
    let vocabulary = f64::from(h.distinct_operators + h.distinct_operands);
    if vocabulary < 2.0 || h.distinct_operands == 0 {
        return 0.0;
    }
    let volume = length * vocabulary.log2();
    let difficulty = f64::from(h.distinct_operators) / 2.0 * f64::from(h.total_operands)
        / f64::from(h.distinct_operands);
    difficulty * volume
}

/// The report over `files`: violations of `max_cyclomatic` and
/// `max_cognitive`, and the `top_files` most complex files when asked (0:
/// every file with a violation).
pub fn complexity_report(
    files: &[Arc<FileEntry>],
    (max_cyclomatic, max_cognitive): (u32, u32),
    top_files: Option<usize>,
) -> ComplexityReport {
    let mut violations = Vec::new();
    let mut rankings = Vec::new();
    let (mut functions, mut sum_cyclomatic, mut top_cyclomatic, mut top_cognitive) =
        (0, 0u64, 0, 0);
    for file in files {
        let Ok(facts) = file.facts() else { continue };
        if facts.metrics.is_empty() {
            continue;
        }
        let mut file_max = 0;
        let mut cognitive_sum = 0u64;
        let mut effort = 0.0;
        let mut violated = false;
        for m in &facts.metrics {
            let Some(symbol) = facts.symbols.get(m.symbol as usize) else {
                continue;
            };
            functions += 1;
            sum_cyclomatic += u64::from(m.cyclomatic);
            top_cyclomatic = top_cyclomatic.max(m.cyclomatic);
            top_cognitive = top_cognitive.max(m.cognitive);
            file_max = file_max.max(m.cyclomatic);
            cognitive_sum += u64::from(m.cognitive);
            effort += halstead_effort(m);
            let mut rules = Vec::new();
            if m.cyclomatic > max_cyclomatic {
                rules.push("max_cyclomatic");
            }
            if m.cognitive > max_cognitive {
                rules.push("max_cognitive");
            }
            if !rules.is_empty() {
                violated = true;
                violations.push(ComplexityViolation {
                    file: file.path.clone(),
                    function: qualified_name(file, m.symbol as usize, symbol),
                    line: symbol.span.start.line + 1,
                    cyclomatic: m.cyclomatic,
                    cognitive: m.cognitive,
                    rules,
                });
            }
        }
        let count = facts.metrics.len();
        let avg_cognitive = cognitive_sum as f64 / count as f64;
        rankings.push((
            violated,
            FileRanking {
                rank: 0,
                file: file.path.clone(),
                function_count: count,
                max_cyclomatic: file_max,
                avg_cognitive: (avg_cognitive * 100.0).round() / 100.0,
                halstead_effort: effort.round(),
                total_score: ((f64::from(file_max) + avg_cognitive) * 100.0).round() / 100.0,
            },
        ));
    }
    violations.sort_by(|a, b| b.cyclomatic.cmp(&a.cyclomatic).then(a.file.cmp(&b.file)));
    let top_files = top_files.map(|requested| {
        let mut ranked: Vec<FileRanking> = rankings
            .into_iter()
            .filter(|(violated, _)| requested > 0 || *violated)
            .map(|(_, r)| r)
            .collect();
        ranked.sort_by(|a, b| {
            b.total_score
                .total_cmp(&a.total_score)
                .then(a.file.cmp(&b.file))
        });
        if requested > 0 {
            ranked.truncate(requested);
        }
        for (i, r) in ranked.iter_mut().enumerate() {
            r.rank = i + 1;
        }
        TopFiles {
            requested,
            returned: ranked.len(),
            rankings: ranked,
        }
    });
    ComplexityReport {
        summary: ComplexitySummary {
            files: files.len(),
            functions,
            violations: violations.len(),
            max_cyclomatic: top_cyclomatic,
            avg_cyclomatic: if functions == 0 {
                0.0
            } else {
                (sum_cyclomatic as f64 / functions as f64 * 100.0).round() / 100.0
            },
            max_cognitive: top_cognitive,
        },
        violations,
        top_files,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lingo_model::Halstead;

    #[test]
    fn halstead_effort_is_difficulty_times_volume() {
        let m = FunctionMetrics {
            symbol: 0,
            cyclomatic: 1,
            cognitive: 0,
            max_nesting: 0,
            parameters: 0,
            lines: 1,
            code_lines: 1,
            comment_lines: 0,
            halstead: Halstead {
                distinct_operators: 4,
                distinct_operands: 4,
                total_operators: 8,
                total_operands: 8,
            },
        };
        // V = 16 × log2 8 = 48; D = 4 / 2 × 8 / 4 = 4; E = 192.
        assert!((halstead_effort(&m) - 192.0).abs() < 1e-9);
    }
}
