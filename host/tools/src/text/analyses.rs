//! Text of the analyses: findings under their files, the quality gate,
//! graph metrics, complexity and batches of analyses, under a budget.

use serde_json::Value;

use super::lists::grouped;
use super::lists::{close_page, range_note};
use super::{Request, Writer, line_col, source_line, str_of};

/// An analysis result: what was asked, the totals by severity, then one
/// line per finding under its file (`line:col severity kind message`), the
/// first suggested tool call in brackets.
pub fn analysis(value: &Value, request: &Request, writer: &mut Writer) {
    let summary = &value["summary"];
    let metadata = &value["metadata"];
    let total = summary["total_findings"].as_u64().unwrap_or(0);
    let severity = |s: &str| summary["by_severity"][s].as_u64().unwrap_or(0);
    let items: Vec<Value> = value["findings"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|finding| {
            let mut item = finding.clone();
            item["file_path"] = finding["location"]["file_path"].clone();
            item
        })
        .collect();
    writer.always(&format!(
        "{} {}: {total} findings (high {}, medium {}, low {}) in {} files{}",
        str_of(metadata, "category").unwrap_or("analysis"),
        str_of(metadata, "kind").unwrap_or(""),
        severity("high"),
        severity("medium"),
        severity("low"),
        summary["files_analyzed"].as_u64().unwrap_or(0),
        range_note(request, items.len(), total),
    ));
    for reason in metadata["incomplete_reasons"]
        .as_array()
        .into_iter()
        .flatten()
    {
        writer.always(&format!("incomplete: {}", reason.as_str().unwrap_or("")));
    }
    let shown = grouped(&items, "file_path", writer, |item| {
        let (line, col) = line_col(&item["location"]["range"]).unwrap_or((0, 0));
        let call = item["suggestions"]
            .as_array()
            .and_then(|s| s.iter().find(|s| s["refactor_call"].is_object()))
            .map(|s| {
                format!(
                    " [{} {}]",
                    str_of(&s["refactor_call"], "command").unwrap_or(""),
                    s["refactor_call"]["arguments"]
                )
            })
            .unwrap_or_default();
        format!(
            "{line}:{col} {} {}: {}{call}",
            str_of(item, "severity").unwrap_or(""),
            str_of(item, "kind").unwrap_or(""),
            source_line(str_of(item, "message").unwrap_or("")),
        )
    });
    close_page(writer, request, shown, items.len(), Some(total));
}

/// A quality gate: the verdict, a line per check, then the violations
/// under their files.
pub fn gate(value: &Value, _request: &Request, writer: &mut Writer) {
    let passed = value["passed"].as_bool().unwrap_or(false);
    writer.always(&format!(
        "quality gate {} in {} files",
        if passed { "passed" } else { "FAILED" },
        value["files_analyzed"].as_u64().unwrap_or(0)
    ));
    for check in value["checks"].as_array().into_iter().flatten() {
        let threshold = check["threshold"]
            .as_f64()
            .map(|t| format!(" (threshold {t})"))
            .unwrap_or_default();
        let detail = match str_of(check, "reason") {
            Some(reason) => format!(": {reason}"),
            None => format!(", {} violations", check["violations"].as_u64().unwrap_or(0)),
        };
        writer.always(&format!(
            "{} {}{threshold}{detail}",
            str_of(check, "status").unwrap_or("?"),
            str_of(check, "name").unwrap_or("?"),
        ));
    }
    let items = value["violations"].as_array().cloned().unwrap_or_default();
    let shown = grouped(&items, "file_path", writer, |item| {
        let (line, col) = line_col(&item["range"]).unwrap_or((0, 0));
        format!(
            "{line}:{col} {}: {}",
            str_of(item, "check").unwrap_or(""),
            source_line(str_of(item, "message").unwrap_or(""))
        )
    });
    if shown < items.len() {
        writer.always(&format!("... {} more violations", items.len() - shown));
    }
}

/// Graph metrics: the graph's size and components, then one line per
/// ranked node (`pagerank in/out betweenness closeness name`).
pub fn graph_metrics(value: &Value, _request: &Request, writer: &mut Writer) {
    let components = &value["components"];
    let pieces = if components.is_object() {
        format!(
            "; {} weakly connected components (largest {}), {} cycles (largest {})",
            components["weakly_connected"],
            components["largest_weakly_connected"],
            components["cyclic_components"],
            components["largest_strongly_connected"]
        )
    } else {
        String::new()
    };
    writer.always(&format!(
        "{} graph: {} nodes, {} edges{pieces}",
        str_of(value, "level").unwrap_or("files"),
        value["nodes"],
        value["edges"]
    ));
    for skipped in value["skipped"].as_array().into_iter().flatten() {
        writer.always(&format!("not computed: {}", skipped.as_str().unwrap_or("")));
    }
    let number = |v: &Value, key: &str| {
        v[key]
            .as_f64()
            .map(|x| format!(" {key} {x:.4}"))
            .unwrap_or_default()
    };
    for node in value["ranked"].as_array().into_iter().flatten() {
        let line = format!(
            "{} in {} out {}{}{}{}",
            str_of(node, "name").unwrap_or("?"),
            node["in_degree"],
            node["out_degree"],
            number(node, "pagerank"),
            number(node, "betweenness"),
            number(node, "closeness"),
        );
        if !writer.line(&line) {
            break;
        }
    }
    if value["graphml"].is_string() {
        writer.always("GraphML in structuredContent.graphml");
    }
}

/// A complexity report: the totals, the ranked files, then the functions
/// over a limit.
pub fn complexity(value: &Value, _request: &Request, writer: &mut Writer) {
    let summary = &value["summary"];
    writer.always(&format!(
        "complexity: {} functions in {} files, {} over the limits; cyclomatic max {} mean {}, cognitive max {}",
        summary["functions"],
        summary["files"],
        summary["violations"],
        summary["max_cyclomatic"],
        summary["avg_cyclomatic"],
        summary["max_cognitive"]
    ));
    for ranked in value["top_files"]["rankings"]
        .as_array()
        .into_iter()
        .flatten()
    {
        let line = format!(
            "#{} {} score {} (max cyclomatic {}, mean cognitive {}, {} functions)",
            ranked["rank"],
            str_of(ranked, "file").unwrap_or("?"),
            ranked["total_score"],
            ranked["max_cyclomatic"],
            ranked["avg_cognitive"],
            ranked["function_count"]
        );
        if !writer.line(&line) {
            return;
        }
    }
    let items = value["violations"].as_array().cloned().unwrap_or_default();
    let shown = grouped(&items, "file", writer, |item| {
        format!(
            "{} {} cyclomatic {} cognitive {}",
            item["line"],
            str_of(item, "function").unwrap_or("?"),
            item["cyclomatic"],
            item["cognitive"]
        )
    });
    if shown < items.len() {
        writer.always(&format!("... {} more violations", items.len() - shown));
    }
}

/// A batch: each analysis's text in turn (its next page named as a call
/// of that analysis with the batch entry's arguments), or its error.
pub fn batch(value: &Value, request: &Request, writer: &mut Writer) {
    let empty = serde_json::Map::new();
    let asked = request.arguments.get("analyses").and_then(Value::as_array);
    for (index, entry) in value["results"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
    {
        if entry["result"].is_object() {
            let mut arguments = asked
                .and_then(|a| a.get(index))
                .and_then(Value::as_object)
                .unwrap_or(&empty)
                .clone();
            arguments.remove("tool");
            let inner = Request {
                tool: str_of(entry, "tool").unwrap_or("analyze"),
                arguments: &arguments,
                max_tokens: request.max_tokens,
            };
            analysis(&entry["result"], &inner, writer);
        } else {
            writer.always(&format!(
                "{}: error {}: {}",
                str_of(entry, "tool").unwrap_or("?"),
                str_of(&entry["error"], "code").unwrap_or("?"),
                str_of(&entry["error"], "message").unwrap_or("")
            ));
        }
    }
}
