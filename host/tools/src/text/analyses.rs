//! Text of the analyses: findings under their files, the quality gate,
//! graph metrics, complexity and batches of analyses, under a budget.

use serde_json::Value;

use super::health_text::json_number;
use super::lists::{close_page, grouped, range_note};
use super::{Request, Writer, source_line};
use crate::analyze::{BatchAnswer, RankedMetrics};
use crate::code_health::Report;
use lingo_analysis::{GraphLevel, Range};
use lingo_analyze::{AnalysisResult, ComplexityReport, GateResult, Severity, Status};

/// An analysis result: what was asked, the totals by severity, then one
/// line per finding under its file (`line:col severity kind message`), the
/// first suggested tool call in brackets.
pub fn analysis(answer: &AnalysisResult, request: &Request, writer: &mut Writer) {
    let summary = &answer.summary;
    let metadata = &answer.metadata;
    let findings = &answer.findings;
    let total = summary.total_findings as u64;
    let severity = |severity: Severity| {
        summary
            .by_severity
            .get(severity.as_str())
            .copied()
            .unwrap_or(0)
    };
    writer.always(&format!(
        "{} {}: {total} findings (high {}, medium {}, low {}) in {} files{}",
        metadata.category,
        metadata.kind,
        severity(Severity::High),
        severity(Severity::Medium),
        severity(Severity::Low),
        summary.files_analyzed,
        range_note(request, findings.len(), total),
    ));
    for reason in &metadata.incomplete_reasons {
        writer.always(&format!("incomplete: {reason}"));
    }
    let shown = grouped(
        findings,
        |finding| &finding.location.file_path,
        writer,
        |finding| {
            let call = finding
                .suggestions
                .iter()
                .find_map(|suggestion| suggestion.refactor_call.as_ref())
                .map(|call| format!(" [{} {}]", call.command, call.arguments))
                .unwrap_or_default();
            format!(
                "{} {} {}: {}{call}",
                line_col(&finding.location.range),
                finding.severity.as_str(),
                finding.kind,
                source_line(&finding.message),
            )
        },
    );
    close_page(writer, request, shown, findings.len(), Some(total));
}

/// The 1-based `line:col` where `range` starts.
fn line_col(range: &Range) -> String {
    let (line, column) = super::start_of(range);
    format!("{line}:{column}")
}

/// A quality gate: the verdict, a line per check, then the violations
/// under their files.
pub fn gate(answer: &Report<GateResult>, _request: &Request, writer: &mut Writer) {
    let gate = &answer.report;
    writer.always(&format!(
        "quality gate {} in {} files",
        if gate.passed { "passed" } else { "FAILED" },
        gate.files_analyzed
    ));
    for check in &gate.checks {
        let threshold = check
            .threshold
            .map(|t| format!(" (threshold {t})"))
            .unwrap_or_default();
        let detail = match &check.reason {
            Some(reason) => format!(": {reason}"),
            None => format!(", {} violations", check.violations),
        };
        writer.always(&format!(
            "{} {}{threshold}{detail}",
            status_word(check.status),
            check.name,
        ));
    }
    let violations = &gate.violations;
    let shown = grouped(
        violations,
        |violation| &violation.file_path,
        writer,
        |violation| {
            format!(
                "{} {}: {}",
                line_col(&violation.range),
                violation.check,
                source_line(&violation.message)
            )
        },
    );
    if shown < violations.len() {
        writer.always(&format!("... {} more violations", violations.len() - shown));
    }
}

/// How a check ended, as the structured answer spells it.
fn status_word(status: Status) -> &'static str {
    match status {
        Status::Passed => "passed",
        Status::Failed => "failed",
        Status::Skipped => "skipped",
    }
}

/// Graph metrics: the graph's size and components, then one line per
/// ranked node (`pagerank in/out betweenness closeness name`).
pub fn graph_metrics(answer: &RankedMetrics, _request: &Request, writer: &mut Writer) {
    let metrics = &answer.metrics;
    let pieces = metrics
        .components
        .as_ref()
        .map(|components| {
            format!(
                "; {} weakly connected components (largest {}), {} cycles (largest {})",
                components.weakly_connected,
                components.largest_weakly_connected,
                components.cyclic_components,
                components.largest_strongly_connected
            )
        })
        .unwrap_or_default();
    let level = match metrics.level {
        GraphLevel::Files => "files",
        GraphLevel::Modules => "modules",
        GraphLevel::Symbols => "symbols",
    };
    writer.always(&format!(
        "{level} graph: {} nodes, {} edges{pieces}",
        metrics.nodes, metrics.edges
    ));
    for skipped in &metrics.skipped {
        writer.always(&format!("not computed: {skipped}"));
    }
    let figure = |label: &str, value: Option<f64>| {
        value
            .map(|x| format!(" {label} {x:.4}"))
            .unwrap_or_default()
    };
    for node in &metrics.ranked {
        let line = format!(
            "{} in {} out {}{}{}{}",
            node.name,
            node.in_degree,
            node.out_degree,
            figure("pagerank", node.pagerank),
            figure("betweenness", node.betweenness),
            figure("closeness", node.closeness),
        );
        if !writer.line(&line) {
            break;
        }
    }
    if metrics.graphml.is_some() {
        writer.always("GraphML in the JSON answer's `graphml` (`format: json`)");
    }
}

/// A complexity report: the totals, the ranked files, then the functions
/// over a limit.
pub fn complexity(answer: &Report<ComplexityReport>, _request: &Request, writer: &mut Writer) {
    let report = &answer.report;
    let summary = &report.summary;
    writer.always(&format!(
        "complexity: {} functions in {} files, {} over the limits; cyclomatic max {} mean {}, cognitive max {}",
        summary.functions,
        summary.files,
        summary.violations,
        summary.max_cyclomatic,
        json_number(summary.avg_cyclomatic),
        summary.max_cognitive
    ));
    let rankings = report.top_files.iter().flat_map(|top| &top.rankings);
    for ranked in rankings {
        let line = format!(
            "#{} {} score {} (max cyclomatic {}, mean cognitive {}, {} functions)",
            ranked.rank,
            ranked.file,
            json_number(ranked.total_score),
            ranked.max_cyclomatic,
            json_number(ranked.avg_cognitive),
            ranked.function_count
        );
        if !writer.line(&line) {
            return;
        }
    }
    let violations = &report.violations;
    let shown = grouped(
        violations,
        |violation| &violation.file,
        writer,
        |violation| {
            format!(
                "{} {} cyclomatic {} cognitive {}",
                violation.line, violation.function, violation.cyclomatic, violation.cognitive
            )
        },
    );
    if shown < violations.len() {
        writer.always(&format!("... {} more violations", violations.len() - shown));
    }
}

/// A batch: each analysis's text in turn (its next page named as a call
/// of that analysis with the batch entry's arguments), or its error.
pub fn batch(answer: &BatchAnswer, request: &Request, writer: &mut Writer) {
    let empty = serde_json::Map::new();
    let asked = request.arguments.get("analyses").and_then(Value::as_array);
    for (index, entry) in answer.results.iter().enumerate() {
        if let Some(result) = &entry.result {
            let mut arguments = asked
                .and_then(|a| a.get(index))
                .and_then(Value::as_object)
                .unwrap_or(&empty)
                .clone();
            arguments.remove("tool");
            let inner = Request {
                tool: entry.tool,
                arguments: &arguments,
                max_tokens: request.max_tokens,
            };
            analysis(result, &inner, writer);
        } else {
            let (code, message) = entry.error.as_ref().map_or(("?", String::new()), |error| {
                (error.code(), error.to_string())
            });
            writer.always(&format!("{}: error {code}: {message}", entry.tool));
        }
    }
}
