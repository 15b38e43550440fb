//! Text of the code-health answers: clone groups, churn, defect
//! probability and name similarity, one line per item under a budget.

use serde_json::Value;

use super::{Request, Writer, str_of};

/// The closing line of a paged list whose structured answer carries
/// `pagination`: how many more and the arguments of the next page.
fn close_paged(value: &Value, request: &Request, writer: &mut Writer, shown: usize) {
    let pagination = &value["pagination"];
    let offset = pagination["offset"].as_u64().unwrap_or(0);
    let total = pagination["total"].as_u64().unwrap_or(0);
    let next = offset + shown as u64;
    if next < total {
        writer.always(&format!(
            "... {} more; next page: {}",
            total - next,
            request.next_page(next)
        ));
    }
}

/// `analyze_duplicates`: totals, then each group with its places
/// (`path:start-end`), then the most duplicated files.
pub fn duplicates(value: &Value, request: &Request, writer: &mut Writer) {
    let summary = &value["summary"];
    let types = &summary["by_type"];
    writer.always(&format!(
        "duplicates: {} groups ({} exact, {} renamed, {} gapped); {} of {} lines duplicated ({}%) in {} of {} files",
        summary["clone_groups"],
        types["exact"],
        types["renamed"],
        types["gapped"],
        summary["duplicated_lines"],
        summary["total_lines"],
        summary["duplication_percentage"],
        summary["files_with_clones"],
        summary["files_analyzed"],
    ));
    let unread = value["unread"].as_array().map_or(0, Vec::len);
    if unread > 0 {
        writer.always(&format!(
            "{unread} files not read (their plugin gives no tokens)"
        ));
    }
    for reason in value["incomplete_reasons"].as_array().into_iter().flatten() {
        writer.always(&format!("incomplete: {}", reason.as_str().unwrap_or("?")));
    }
    let groups = value["groups"].as_array().cloned().unwrap_or_default();
    let mut shown = 0;
    for group in &groups {
        let similarity = match group["type"].as_str() {
            Some("gapped") => format!(" similarity {}", group["similarity"]),
            _ => String::new(),
        };
        let places: Vec<String> = group["fragments"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|f| {
                format!(
                    "{}:{}-{}",
                    str_of(f, "file_path").unwrap_or("?"),
                    f["start_line"],
                    f["end_line"]
                )
            })
            .collect();
        let line = format!(
            "#{} {} {} lines {} tokens{similarity}: {}",
            group["id"],
            str_of(group, "type").unwrap_or("?"),
            group["lines"],
            group["tokens"],
            places.join(", ")
        );
        if !writer.line(&line) {
            break;
        }
        shown += 1;
    }
    close_paged(value, request, writer, shown);
    if shown == groups.len() {
        for file in value["files"].as_array().into_iter().flatten().take(10) {
            let line = format!(
                "{} {}% ({} of {} lines)",
                str_of(file, "file_path").unwrap_or("?"),
                file["duplication_percentage"],
                file["duplicated_lines"],
                file["total_lines"]
            );
            if !writer.line(&line) {
                break;
            }
        }
    }
}

/// `analyze_code_churn`: totals, then one line per file.
pub fn churn(value: &Value, request: &Request, writer: &mut Writer) {
    let summary = &value["summary"];
    writer.always(&format!(
        "churn over {} days (since {}): {} commits, {} of {} files changed, +{} -{} lines, {} authors",
        value["period_days"],
        str_of(value, "since").unwrap_or("?"),
        summary["commits"],
        summary["files_changed"],
        summary["files_in_scope"],
        summary["lines_added"],
        summary["lines_deleted"],
        summary["authors"],
    ));
    for reason in value["incomplete_reasons"].as_array().into_iter().flatten() {
        writer.always(&format!("incomplete: {}", reason.as_str().unwrap_or("?")));
    }
    let mut shown = 0;
    for file in value["files"].as_array().into_iter().flatten() {
        let line = format!(
            "{} score {}: {} commits +{} -{} by {} authors, last {}",
            str_of(file, "file_path").unwrap_or("?"),
            file["churn_score"],
            file["commits"],
            file["lines_added"],
            file["lines_deleted"],
            file["author_count"],
            str_of(file, "last_change").unwrap_or("?"),
        );
        if !writer.line(&line) {
            break;
        }
        shown += 1;
    }
    close_paged(value, request, writer, shown);
}

/// `analyze_defect_probability`: totals, then one line per file with its
/// factors' contributions (their explanations too unless `explain` is
/// false).
pub fn defects(value: &Value, request: &Request, writer: &mut Writer) {
    let summary = &value["summary"];
    writer.always(&format!(
        "defect probability: {} files ({} high, {} medium, {} low risk), mean {}",
        summary["files_reported"],
        summary["high"],
        summary["medium"],
        summary["low"],
        summary["average_probability"],
    ));
    for reason in value["unmeasured"].as_array().into_iter().flatten() {
        writer.always(&format!("not measured: {}", reason.as_str().unwrap_or("?")));
    }
    let explain = request
        .arguments
        .get("explain")
        .and_then(Value::as_bool)
        .unwrap_or(true);
    let mut shown = 0;
    for file in value["files"].as_array().into_iter().flatten() {
        let factors: Vec<String> = file["factors"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|f| {
                let name = str_of(f, "name").unwrap_or("?");
                if explain {
                    format!(
                        "{name} {} ({})",
                        f["contribution"],
                        str_of(f, "explanation").unwrap_or("")
                    )
                } else {
                    format!("{name} {}", f["contribution"])
                }
            })
            .collect();
        let line = format!(
            "{} {} {} (confidence {}): {}",
            str_of(file, "file_path").unwrap_or("?"),
            str_of(file, "risk").unwrap_or("?"),
            file["probability"],
            file["confidence"],
            factors.join("; ")
        );
        if !writer.line(&line) {
            break;
        }
        shown += 1;
    }
    close_paged(value, request, writer, shown);
}

/// `analyze_name_similarity`: one line per name with its score and where
/// it is declared.
pub fn names(value: &Value, _request: &Request, writer: &mut Writer) {
    let matches = value["matches"].as_array().cloned().unwrap_or_default();
    writer.always(&format!(
        "names like `{}`: {} of {} names",
        str_of(value, "query").unwrap_or("?"),
        matches.len(),
        value["names_compared"]
    ));
    for m in &matches {
        let place = &m["places"][0];
        let more = match m["declarations"].as_u64().unwrap_or(1) {
            0 | 1 => String::new(),
            n => format!(" (+{} more)", n - 1),
        };
        let sound = if m["phonetic_match"].as_bool().unwrap_or(false) {
            " sounds alike"
        } else {
            ""
        };
        let line = format!(
            "{} {}{sound}: {} {}:{}{more}",
            m["score"],
            str_of(m, "name").unwrap_or("?"),
            str_of(place, "kind").unwrap_or("?"),
            str_of(place, "file_path").unwrap_or("?"),
            place["line"],
        );
        if !writer.line(&line) {
            break;
        }
    }
}

/// `analyze_deep_context`: a Markdown report — the scorecard, hotspots,
/// recommendations, then each analysis's headline figures.
pub fn deep_context(value: &Value, _request: &Request, writer: &mut Writer) {
    let card = &value["quality_scorecard"];
    writer.always("# Deep context");
    let figure =
        |key: &str, label: &str| (!card[key].is_null()).then(|| format!("{label} {}", card[key]));
    let figures: Vec<String> = [
        figure("overall_health", "health"),
        figure("complexity_score", "complexity score"),
        figure("maintainability_index", "maintainability"),
        figure("duplication_percentage", "duplication %"),
        figure("technical_debt_hours", "debt hours (formula)"),
    ]
    .into_iter()
    .flatten()
    .collect();
    writer.always(&format!("Scorecard: {}", figures.join(", ")));
    for reason in value["unmeasured"].as_array().into_iter().flatten() {
        writer.always(&format!("Not measured: {}", reason.as_str().unwrap_or("?")));
    }
    let hotspots = value["hotspots"].as_array().cloned().unwrap_or_default();
    if !hotspots.is_empty() && writer.line("\n## Hotspots") {
        for h in &hotspots {
            let reasons: Vec<&str> = h["reasons"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            let line = format!(
                "- {} {} {} (~{} h by formula): {}",
                str_of(h, "file_path").unwrap_or("?"),
                str_of(h, "priority").unwrap_or("?"),
                h["composite_score"],
                h["estimated_hours"],
                reasons.join("; ")
            );
            if !writer.line(&line) {
                return;
            }
        }
    }
    let recommendations = value["recommendations"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    if !recommendations.is_empty() && writer.line("\n## Recommendations") {
        for r in &recommendations {
            let line = format!(
                "- [{}] {}: {} (~{} h)",
                str_of(r, "priority").unwrap_or("?"),
                str_of(r, "title").unwrap_or("?"),
                str_of(r, "description").unwrap_or(""),
                r["estimated_hours"]
            );
            if !writer.line(&line) {
                return;
            }
        }
    }
    if !writer.line("\n## Analyses") {
        return;
    }
    let analyses = &value["analyses"];
    let mut lines = Vec::new();
    if let Some(ast) = analyses.get("ast") {
        for l in ast["languages"].as_array().into_iter().flatten() {
            lines.push(format!(
                "- ast {}: {} files, {} lines, {} declarations, {} functions",
                str_of(l, "language").unwrap_or("?"),
                l["files"],
                l["lines"],
                l["symbols"],
                l["functions"]
            ));
        }
    }
    if let Some(c) = analyses.get("complexity") {
        lines.push(format!(
            "- complexity: {} functions, {} over the limits, cyclomatic max {} mean {}",
            c["summary"]["functions"],
            c["summary"]["violations"],
            c["summary"]["max_cyclomatic"],
            c["summary"]["avg_cyclomatic"]
        ));
    }
    if let Some(c) = analyses.get("churn") {
        lines.push(format!(
            "- churn over {} days: {} commits, {} files changed, {} authors",
            c["period_days"],
            c["summary"]["commits"],
            c["summary"]["files_changed"],
            c["summary"]["authors"]
        ));
    }
    if let Some(d) = analyses.get("dag") {
        lines.push(format!(
            "- dag: {} files, {} dependencies, {} module cycles",
            d["nodes"], d["edges"], d["module_cycles"]
        ));
    }
    if let Some(d) = analyses.get("dead_code") {
        lines.push(format!(
            "- dead code: {} declarations ({} certain)",
            d["total"], d["certain"]
        ));
    }
    if let Some(d) = analyses.get("satd") {
        lines.push(format!(
            "- debt comments: {} ({} high, {} medium, {} low)",
            d["total"], d["high"], d["medium"], d["low"]
        ));
    }
    if let Some(d) = analyses.get("duplicates") {
        lines.push(format!(
            "- duplicates: {} groups, {}% of lines",
            d["summary"]["clone_groups"], d["summary"]["duplication_percentage"]
        ));
    }
    if let Some(d) = analyses.get("defect_probability") {
        lines.push(format!(
            "- defect probability: {} high, {} medium, {} low risk, mean {}",
            d["summary"]["high"],
            d["summary"]["medium"],
            d["summary"]["low"],
            d["summary"]["average_probability"]
        ));
    }
    for line in lines {
        if !writer.line(&line) {
            return;
        }
    }
}

/// `analyze_comprehensive`: a Markdown summary, the recommendations, then
/// each analysis's headline and the timings when asked.
pub fn comprehensive(value: &Value, _request: &Request, writer: &mut Writer) {
    let summary = &value["summary"];
    let card = &summary["scorecard"];
    writer.always("# Comprehensive analysis");
    writer.always(&format!(
        "{} files, {} lines; health {}, debt hours {}",
        summary["files"], summary["lines"], card["overall_health"], card["technical_debt_hours"]
    ));
    for reason in value["unmeasured"].as_array().into_iter().flatten() {
        writer.always(&format!("Not measured: {}", reason.as_str().unwrap_or("?")));
    }
    let mut lines = Vec::new();
    for r in value["recommendations"].as_array().into_iter().flatten() {
        lines.push(format!(
            "- [{}] {}: {}",
            str_of(r, "priority").unwrap_or("?"),
            str_of(r, "title").unwrap_or("?"),
            str_of(r, "description").unwrap_or("")
        ));
    }
    if let Some(c) = value.get("complexity") {
        lines.push(format!(
            "- complexity: {} functions, {} over the limits, cyclomatic max {}",
            c["summary"]["functions"], c["summary"]["violations"], c["summary"]["max_cyclomatic"]
        ));
    }
    if let Some(d) = value.get("duplicates") {
        lines.push(format!(
            "- duplicates: {} groups, {}% of lines",
            d["summary"]["clone_groups"], d["summary"]["duplication_percentage"]
        ));
    }
    if let Some(d) = value.get("dead_code") {
        lines.push(format!(
            "- dead code: {} declarations ({} certain)",
            d["total"], d["certain"]
        ));
    }
    if let Some(d) = value.get("defect_probability") {
        lines.push(format!(
            "- defect probability: {} high, {} medium, {} low risk",
            d["summary"]["high"], d["summary"]["medium"], d["summary"]["low"]
        ));
    }
    for t in value["perf"].as_array().into_iter().flatten() {
        lines.push(format!(
            "- {} took {} ms",
            str_of(t, "analysis").unwrap_or("?"),
            t["milliseconds"]
        ));
    }
    for line in lines {
        if !writer.line(&line) {
            return;
        }
    }
}

/// `analyze_module_dependencies`: the verdict, then each list.
pub fn module_dependencies(value: &Value, _request: &Request, writer: &mut Writer) {
    let count = |key: &str| value[key].as_array().map_or(0, Vec::len);
    writer.always(&format!(
        "extracting {} ({} files): {}; uses {} outside files, used by {}, {} external imports",
        str_of(value, "path").unwrap_or("?"),
        count("files"),
        if value["extractable"].as_bool().unwrap_or(false) {
            "extractable"
        } else {
            "blocked"
        },
        count("dependencies"),
        count("dependents"),
        count("external"),
    ));
    for reason in value["reasons"].as_array().into_iter().flatten() {
        writer.always(&format!("blocked: {}", reason.as_str().unwrap_or("?")));
    }
    let sections = [
        ("uses", "dependencies", "file_path", "references"),
        ("used by", "dependents", "file_path", "references"),
        ("external", "external", "module_path", "imports"),
    ];
    for (label, key, name, number) in sections {
        for item in value[key].as_array().into_iter().flatten() {
            let line = format!(
                "{label} {} ({})",
                str_of(item, name).unwrap_or("?"),
                item[number]
            );
            if !writer.line(&line) {
                return;
            }
        }
    }
}
