//! SARIF 2.1.0 (OASIS Static Analysis Results Interchange Format) of an
//! analysis tool's answer, for code-scanning pipelines: one run whose tool
//! is lingo, a rule per kind of result, a result per finding, gate
//! violation, clone group or risky file, each at its place.
//!
//! Built from the tool's structured JSON (the same the MCP tools answer),
//! as `report.rs` builds Markdown and JUnit. Levels: high → `error`, medium
//! → `warning`, low → `note`. Paths are relative to the workspace root
//! (`uriBaseId` `%SRCROOT%`); lines and columns are 1-based.

use std::collections::BTreeMap;

use serde_json::{Value, json};

/// The tools whose answers have a SARIF form.
pub const SARIF_TOOLS: &[&str] = &[
    "analyze_quality",
    "analyze_dead_code",
    "analyze_cycles",
    "analyze_dependencies",
    "analyze_structure",
    "analyze_documentation",
    "analyze_tests",
    "quality_gate",
    "analyze_duplicates",
    "analyze_defect_probability",
];

/// The official schema's address, which a SARIF log names.
const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// Whether `tool`'s answers have a SARIF form.
pub fn supports(tool: &str) -> bool {
    SARIF_TOOLS.contains(&tool)
}

/// The SARIF log of `tool`'s answer `value`.
pub fn sarif(tool: &str, value: &Value) -> Value {
    let mut rules: BTreeMap<String, String> = BTreeMap::new();
    let mut results = Vec::new();
    match tool {
        "quality_gate" => gate(value, &mut rules, &mut results),
        "analyze_duplicates" => duplicates(value, &mut rules, &mut results),
        "analyze_defect_probability" => defects(value, &mut rules, &mut results),
        _ => findings(value, &mut rules, &mut results),
    }
    json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {
                "driver": {
                    "name": "lingo",
                    "version": env!("CARGO_PKG_VERSION"),
                    "rules": rules.into_iter().map(|(id, description)| json!({
                        "id": id,
                        "shortDescription": { "text": description },
                    })).collect::<Vec<_>>(),
                }
            },
            "originalUriBaseIds": { "%SRCROOT%": { "description": { "text": "The workspace root" } } },
            "results": results,
        }]
    })
}

/// A SARIF level from a severity or risk word.
fn level(severity: &str) -> &'static str {
    match severity {
        "high" => "error",
        "medium" => "warning",
        _ => "note",
    }
}

/// A location at 1-based lines (and columns, when known).
fn location(path: &str, start: (u64, Option<u64>), end: (u64, Option<u64>)) -> Value {
    let mut region = json!({ "startLine": start.0.max(1), "endLine": end.0.max(start.0).max(1) });
    if let Some(column) = start.1 {
        region["startColumn"] = json!(column.max(1));
    }
    if let (Some(column), true) = (end.1, end.0 > start.0 || end.1 > start.1) {
        region["endColumn"] = json!(column.max(1));
    }
    json!({
        "physicalLocation": {
            "artifactLocation": { "uri": path, "uriBaseId": "%SRCROOT%" },
            "region": region,
        }
    })
}

/// A location from a zero-based `range` object.
fn range_location(path: &str, range: &Value) -> Value {
    let point = |p: &Value| {
        (
            p["line"].as_u64().unwrap_or(0) + 1,
            Some(p["character"].as_u64().unwrap_or(0) + 1),
        )
    };
    location(path, point(&range["start"]), point(&range["end"]))
}

fn text(value: &Value) -> &str {
    value.as_str().unwrap_or("")
}

/// typemill's AnalysisResult: a result per finding.
fn findings(value: &Value, rules: &mut BTreeMap<String, String>, results: &mut Vec<Value>) {
    let category = text(&value["metadata"]["category"]);
    for finding in value["findings"].as_array().into_iter().flatten() {
        let kind = text(&finding["kind"]);
        rules
            .entry(kind.to_string())
            .or_insert_with(|| format!("{category}: {}", kind.replace('_', " ")));
        results.push(json!({
            "ruleId": kind,
            "level": level(text(&finding["severity"])),
            "message": { "text": text(&finding["message"]) },
            "locations": [range_location(text(&finding["location"]["file_path"]), &finding["location"]["range"])],
            "properties": { "metrics": finding["metrics"] },
        }));
    }
}

/// A quality gate: a result per violation, an error each.
fn gate(value: &Value, rules: &mut BTreeMap<String, String>, results: &mut Vec<Value>) {
    for violation in value["violations"].as_array().into_iter().flatten() {
        let check = text(&violation["check"]);
        rules
            .entry(format!("quality-gate/{check}"))
            .or_insert_with(|| format!("quality gate: {}", check.replace('_', " ")));
        results.push(json!({
            "ruleId": format!("quality-gate/{check}"),
            "level": "error",
            "message": { "text": text(&violation["message"]) },
            "locations": [range_location(text(&violation["file_path"]), &violation["range"])],
            "properties": { "value": violation["value"], "threshold": violation["threshold"] },
        }));
    }
}

/// Clone groups: a result per group at its first place, the others
/// related.
fn duplicates(value: &Value, rules: &mut BTreeMap<String, String>, results: &mut Vec<Value>) {
    for group in value["groups"].as_array().into_iter().flatten() {
        let kind = text(&group["type"]);
        let id = format!("duplicate-code/{kind}");
        rules
            .entry(id.clone())
            .or_insert_with(|| format!("{kind} clone"));
        let places: Vec<Value> = group["fragments"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|f| {
                let line = |key: &str| f[key].as_u64().unwrap_or(1);
                location(
                    text(&f["file_path"]),
                    (line("start_line"), None),
                    (line("end_line"), None),
                )
            })
            .collect();
        let Some((first, others)) = places.split_first() else {
            continue;
        };
        let related: Vec<Value> = others
            .iter()
            .enumerate()
            .map(|(i, place)| {
                let mut place = place.clone();
                place["id"] = json!(i + 1);
                place["message"] = json!({ "text": "another copy" });
                place
            })
            .collect();
        results.push(json!({
            "ruleId": id,
            "level": "warning",
            "message": { "text": format!(
                "{kind} clone of {} lines ({} tokens) in {} places",
                group["lines"], group["tokens"], places.len()
            ) },
            "locations": [first],
            "relatedLocations": related,
            "properties": { "similarity": group["similarity"] },
        }));
    }
}

/// Defect probability: a result per file at medium or high risk.
fn defects(value: &Value, rules: &mut BTreeMap<String, String>, results: &mut Vec<Value>) {
    for file in value["files"].as_array().into_iter().flatten() {
        let risk = text(&file["risk"]);
        if risk == "low" {
            continue;
        }
        rules
            .entry("defect-probability".into())
            .or_insert_with(|| "file likely to hold a defect".into());
        let factors: Vec<String> = file["factors"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|f| format!("{} {}", text(&f["name"]), f["contribution"]))
            .collect();
        results.push(json!({
            "ruleId": "defect-probability",
            "level": level(risk),
            "message": { "text": format!(
                "defect probability {} (confidence {}): {}",
                file["probability"], file["confidence"], factors.join(", ")
            ) },
            "locations": [location(text(&file["file_path"]), (1, None), (1, None))],
            "properties": { "factors": file["factors"] },
        }));
    }
}
