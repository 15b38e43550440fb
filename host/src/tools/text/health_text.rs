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
