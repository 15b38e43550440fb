//! Text of the code-health answers: clone groups, churn, defect
//! probability and name similarity, one line per item under a budget.

use serde_json::{Number, Value};

use super::{Request, Writer};
use crate::code_health::{Comprehensive, PagedReport, Report, ReportPage};
use lingo_analysis::clones::CloneKind;
use lingo_analyze::{
    ChurnReport, DeepAnalyses, DeepContext, DefectReport, DuplicatesReport, ModuleDependencies,
    NameSimilarity,
};

/// A decimal figure as the structured answer writes it (`2.0`, `0.35`,
/// `1e-7`), `null` when it is not a finite number.
pub(super) fn json_number(x: f64) -> String {
    Number::from_f64(x).map_or_else(|| "null".to_string(), |n| n.to_string())
}

/// The closing line of a paged list: how many more and the arguments of
/// the next page.
fn close_paged(page: &ReportPage, request: &Request, writer: &mut Writer, shown: usize) {
    let next = page.offset + shown;
    if next < page.total {
        writer.always(&format!(
            "... {} more; next page: {}",
            page.total - next,
            request.next_page(next as u64)
        ));
    }
}

/// `analyze_duplicates`: totals, then each group with its places
/// (`path:start-end`), then the most duplicated files.
pub fn duplicates(answer: &PagedReport<DuplicatesReport>, request: &Request, writer: &mut Writer) {
    let report = &answer.report;
    let summary = &report.summary;
    let groups_of = |kind: CloneKind| summary.by_type.get(kind.as_str()).copied().unwrap_or(0);
    writer.always(&format!(
        "duplicates: {} groups ({} exact, {} renamed, {} gapped); {} of {} lines duplicated ({}%) in {} of {} files",
        summary.clone_groups,
        groups_of(CloneKind::Exact),
        groups_of(CloneKind::Renamed),
        groups_of(CloneKind::Gapped),
        summary.duplicated_lines,
        summary.total_lines,
        json_number(summary.duplication_percentage),
        summary.files_with_clones,
        summary.files_analyzed,
    ));
    let unread = report.unread.len();
    if unread > 0 {
        writer.always(&format!(
            "{unread} files not read (their plugin gives no tokens)"
        ));
    }
    for reason in &report.incomplete_reasons {
        writer.always(&format!("incomplete: {reason}"));
    }
    let mut shown = 0;
    for group in &report.groups {
        let similarity = match group.kind {
            CloneKind::Gapped => format!(" similarity {}", json_number(group.similarity)),
            CloneKind::Exact | CloneKind::Renamed => String::new(),
        };
        let places: Vec<String> = group
            .fragments
            .iter()
            .map(|f| format!("{}:{}-{}", f.file_path, f.start_line, f.end_line))
            .collect();
        let line = format!(
            "#{} {} {} lines {} tokens{similarity}: {}",
            group.id,
            group.kind.as_str(),
            group.lines,
            group.tokens,
            places.join(", ")
        );
        if !writer.line(&line) {
            break;
        }
        shown += 1;
    }
    close_paged(&answer.pagination, request, writer, shown);
    if shown == report.groups.len() {
        for file in report.files.iter().take(10) {
            let line = format!(
                "{} {}% ({} of {} lines)",
                file.file_path,
                json_number(file.duplication_percentage),
                file.duplicated_lines,
                file.total_lines
            );
            if !writer.line(&line) {
                break;
            }
        }
    }
}

/// `analyze_code_churn`: totals, then one line per file.
pub fn churn(answer: &PagedReport<ChurnReport>, request: &Request, writer: &mut Writer) {
    let report = &answer.report;
    let summary = &report.summary;
    writer.always(&format!(
        "churn over {} days (since {}): {} commits, {} of {} files changed, +{} -{} lines, {} authors",
        report.period_days,
        report.since,
        summary.commits,
        summary.files_changed,
        summary.files_in_scope,
        summary.lines_added,
        summary.lines_deleted,
        summary.authors,
    ));
    for reason in &report.incomplete_reasons {
        writer.always(&format!("incomplete: {reason}"));
    }
    let mut shown = 0;
    for file in &report.files {
        let line = format!(
            "{} score {}: {} commits +{} -{} by {} authors, last {}",
            file.file_path,
            json_number(file.churn_score),
            file.commits,
            file.lines_added,
            file.lines_deleted,
            file.author_count,
            file.last_change,
        );
        if !writer.line(&line) {
            break;
        }
        shown += 1;
    }
    close_paged(&answer.pagination, request, writer, shown);
}

/// `analyze_defect_probability`: totals, then one line per file with its
/// factors' contributions (their explanations too unless `explain` is
/// false).
pub fn defects(answer: &PagedReport<DefectReport>, request: &Request, writer: &mut Writer) {
    let report = &answer.report;
    let summary = &report.summary;
    writer.always(&format!(
        "defect probability: {} files ({} high, {} medium, {} low risk), mean {}",
        summary.files_reported,
        summary.high,
        summary.medium,
        summary.low,
        json_number(summary.average_probability),
    ));
    for reason in &report.unmeasured {
        writer.always(&format!("not measured: {reason}"));
    }
    let explain = request
        .arguments
        .get("explain")
        .and_then(Value::as_bool)
        .unwrap_or(true);
    let mut shown = 0;
    for file in &report.files {
        let factors: Vec<String> = file
            .factors
            .iter()
            .map(|f| {
                let contribution = json_number(f.contribution);
                if explain {
                    format!("{} {contribution} ({})", f.name, f.explanation)
                } else {
                    format!("{} {contribution}", f.name)
                }
            })
            .collect();
        let line = format!(
            "{} {} {} (confidence {}): {}",
            file.file_path,
            file.risk,
            json_number(file.probability),
            json_number(file.confidence),
            factors.join("; ")
        );
        if !writer.line(&line) {
            break;
        }
        shown += 1;
    }
    close_paged(&answer.pagination, request, writer, shown);
}

/// `analyze_name_similarity`: one line per name with its score and where
/// it is declared.
pub fn names(answer: &Report<NameSimilarity>, _request: &Request, writer: &mut Writer) {
    let report = &answer.report;
    writer.always(&format!(
        "names like `{}`: {} of {} names",
        report.query,
        report.matches.len(),
        report.names_compared
    ));
    for m in &report.matches {
        let place = m.places.first().map_or_else(
            || "?".to_string(),
            |place| format!("{} {}:{}", place.kind, place.file_path, place.line),
        );
        let more = match m.declarations {
            0 | 1 => String::new(),
            n => format!(" (+{} more)", n - 1),
        };
        let sound = if m.phonetic_match {
            " sounds alike"
        } else {
            ""
        };
        let line = format!("{} {}{sound}: {place}{more}", json_number(m.score), m.name);
        if !writer.line(&line) {
            break;
        }
    }
}

/// `analyze_deep_context`: a Markdown report — the scorecard, hotspots,
/// recommendations, then each analysis's headline figures.
pub fn deep_context(answer: &Report<DeepContext>, _request: &Request, writer: &mut Writer) {
    let report = &answer.report;
    let card = &report.quality_scorecard;
    writer.always("# Deep context");
    let figure = |label: &str, x: Option<f64>| x.map(|x| format!("{label} {}", json_number(x)));
    let figures: Vec<String> = [
        figure("health", Some(card.overall_health)),
        figure("complexity score", card.complexity_score),
        figure("maintainability", card.maintainability_index),
        figure("duplication %", card.duplication_percentage),
        figure("debt hours (formula)", Some(card.technical_debt_hours)),
    ]
    .into_iter()
    .flatten()
    .collect();
    writer.always(&format!("Scorecard: {}", figures.join(", ")));
    for reason in &report.unmeasured {
        writer.always(&format!("Not measured: {reason}"));
    }
    if !report.hotspots.is_empty() && writer.line("\n## Hotspots") {
        for h in &report.hotspots {
            let line = format!(
                "- {} {} {} (~{} h by formula): {}",
                h.file_path,
                h.priority,
                json_number(h.composite_score),
                json_number(h.estimated_hours),
                h.reasons.join("; ")
            );
            if !writer.line(&line) {
                return;
            }
        }
    }
    if !report.recommendations.is_empty() && writer.line("\n## Recommendations") {
        for r in &report.recommendations {
            let line = format!(
                "- [{}] {}: {} (~{} h)",
                r.priority,
                r.title,
                r.description,
                json_number(r.estimated_hours)
            );
            if !writer.line(&line) {
                return;
            }
        }
    }
    if !writer.line("\n## Analyses") {
        return;
    }
    for line in deep_analyses(&report.analyses) {
        if !writer.line(&line) {
            return;
        }
    }
}

/// The headline of each analysis of a deep context.
fn deep_analyses(analyses: &DeepAnalyses) -> Vec<String> {
    let mut lines = Vec::new();
    if let Some(ast) = &analyses.ast {
        for l in &ast.languages {
            lines.push(format!(
                "- ast {}: {} files, {} lines, {} declarations, {} functions",
                l.language, l.files, l.lines, l.symbols, l.functions
            ));
        }
    }
    if let Some(c) = &analyses.complexity {
        lines.push(format!(
            "- complexity: {} functions, {} over the limits, cyclomatic max {} mean {}",
            c.summary.functions,
            c.summary.violations,
            c.summary.max_cyclomatic,
            json_number(c.summary.avg_cyclomatic)
        ));
    }
    if let Some(c) = &analyses.churn {
        lines.push(format!(
            "- churn over {} days: {} commits, {} files changed, {} authors",
            c.period_days, c.summary.commits, c.summary.files_changed, c.summary.authors
        ));
    }
    if let Some(d) = &analyses.dag {
        lines.push(format!(
            "- dag: {} files, {} dependencies, {} module cycles",
            d.nodes, d.edges, d.module_cycles
        ));
    }
    lines.extend(dead_code_line(analyses));
    if let Some(d) = &analyses.satd {
        lines.push(format!(
            "- debt comments: {} ({} high, {} medium, {} low)",
            d.total, d.high, d.medium, d.low
        ));
    }
    lines.extend(duplicates_line(analyses));
    if let Some(d) = &analyses.defect_probability {
        lines.push(format!(
            "- defect probability: {} high, {} medium, {} low risk, mean {}",
            d.summary.high,
            d.summary.medium,
            d.summary.low,
            json_number(d.summary.average_probability)
        ));
    }
    lines.extend(tdg_lines(analyses));
    lines
}

/// The gradient's counts, then its highest files.
fn tdg_lines(analyses: &DeepAnalyses) -> Vec<String> {
    let Some(t) = &analyses.tdg else {
        return Vec::new();
    };
    let mut lines = vec![format!(
        "- tdg (0-5, a formula): mean {}, {} critical, {} warning, {} normal",
        json_number(t.summary.average),
        t.summary.critical,
        t.summary.warning,
        t.summary.normal
    )];
    for file in t.files.iter().filter(|f| f.severity != "normal") {
        lines.push(format!(
            "  {} {} {}",
            file.file_path,
            json_number(file.score),
            file.severity
        ));
    }
    lines
}

fn dead_code_line(analyses: &DeepAnalyses) -> Option<String> {
    let d = analyses.dead_code.as_ref()?;
    Some(format!(
        "- dead code: {} declarations ({} certain)",
        d.total, d.certain
    ))
}

fn duplicates_line(analyses: &DeepAnalyses) -> Option<String> {
    let d = analyses.duplicates.as_ref()?;
    Some(format!(
        "- duplicates: {} groups, {}% of lines",
        d.summary.clone_groups,
        json_number(d.summary.duplication_percentage)
    ))
}

/// `analyze_comprehensive`: a Markdown summary, the recommendations, then
/// each analysis's headline and the timings when asked.
pub fn comprehensive(answer: &Comprehensive, _request: &Request, writer: &mut Writer) {
    let summary = &answer.summary;
    let card = &summary.scorecard;
    writer.always("# Comprehensive analysis");
    writer.always(&format!(
        "{} files, {} lines; health {}, debt hours {}",
        summary.files,
        summary.lines,
        json_number(card.overall_health),
        json_number(card.technical_debt_hours)
    ));
    for reason in &answer.unmeasured {
        writer.always(&format!("Not measured: {reason}"));
    }
    let mut lines = Vec::new();
    for r in &answer.recommendations {
        lines.push(format!("- [{}] {}: {}", r.priority, r.title, r.description));
    }
    let analyses = &answer.analyses;
    if let Some(c) = &analyses.complexity {
        lines.push(format!(
            "- complexity: {} functions, {} over the limits, cyclomatic max {}",
            c.summary.functions, c.summary.violations, c.summary.max_cyclomatic
        ));
    }
    lines.extend(duplicates_line(analyses));
    lines.extend(dead_code_line(analyses));
    if let Some(d) = &analyses.defect_probability {
        lines.push(format!(
            "- defect probability: {} high, {} medium, {} low risk",
            d.summary.high, d.summary.medium, d.summary.low
        ));
    }
    lines.extend(tdg_lines(analyses));
    for t in answer.perf.iter().flatten() {
        lines.push(format!("- {} took {} ms", t.analysis, t.milliseconds));
    }
    for line in lines {
        if !writer.line(&line) {
            return;
        }
    }
}

/// `analyze_module_dependencies`: the verdict, then each list.
pub fn module_dependencies(
    answer: &Report<ModuleDependencies>,
    _request: &Request,
    writer: &mut Writer,
) {
    let unit = &answer.report;
    writer.always(&format!(
        "extracting {} ({} files): {}; uses {} outside files, used by {}, {} external imports",
        unit.path,
        unit.files.len(),
        if unit.extractable {
            "extractable"
        } else {
            "blocked"
        },
        unit.dependencies.len(),
        unit.dependents.len(),
        unit.external.len(),
    ));
    for reason in &unit.reasons {
        writer.always(&format!("blocked: {reason}"));
    }
    let uses = unit
        .dependencies
        .iter()
        .map(|c| format!("uses {} ({})", c.file_path, c.references));
    let used_by = unit
        .dependents
        .iter()
        .map(|c| format!("used by {} ({})", c.file_path, c.references));
    let external = unit
        .external
        .iter()
        .map(|e| format!("external {} ({})", e.module_path, e.imports));
    for line in uses.chain(used_by).chain(external) {
        if !writer.line(&line) {
            return;
        }
    }
}
