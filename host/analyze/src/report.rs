//! Reports for CI of an analysis tool's answer (its structured JSON, the
//! same the MCP tools answer): Markdown, and JUnit XML (a test case per
//! gate check, or per finding). Written by `lingo analyze`.

use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};
use serde_json::Value;

use super::Severity;

/// Whether a finding of `severity` (`high`...) is at or above `floor`.
pub fn at_least(severity: &str, floor: Severity) -> bool {
    let rank = |s: &str| match s {
        "high" => 0,
        "medium" => 1,
        _ => 2,
    };
    rank(severity) <= rank(floor.as_str())
}

/// `value` (a quality gate's or an analysis's answer) as Markdown.
pub fn markdown(value: &Value) -> String {
    let mut out = String::new();
    if let Some(passed) = value["passed"].as_bool() {
        out.push_str(&format!(
            "# Quality gate: {}\n\n| check | status | threshold | violations |\n|---|---|--:|--:|\n",
            if passed { "passed" } else { "failed" }
        ));
        for check in value["checks"].as_array().into_iter().flatten() {
            out.push_str(&format!(
                "| {} | {} | {} | {} |\n",
                cell(&check["name"]),
                cell(&check["status"]),
                check["threshold"]
                    .as_f64()
                    .map_or("-".into(), |t| t.to_string()),
                check["violations"]
            ));
        }
        let violations = value["violations"].as_array().cloned().unwrap_or_default();
        if !violations.is_empty() {
            out.push_str("\n| file | line | symbol | value | message |\n|---|--:|---|--:|---|\n");
            for v in &violations {
                out.push_str(&format!(
                    "| {} | {} | {} | {} | {} |\n",
                    cell(&v["file_path"]),
                    v["range"]["start"]["line"].as_u64().unwrap_or(0) + 1,
                    cell(&v["symbol"]),
                    v["value"],
                    cell(&v["message"])
                ));
            }
        }
        return out;
    }
    let metadata = &value["metadata"];
    let summary = &value["summary"];
    out.push_str(&format!(
        "# {} {}\n\n{} findings (high {}, medium {}, low {}) in {} files\n\n",
        cell(&metadata["category"]),
        cell(&metadata["kind"]),
        summary["total_findings"],
        summary["by_severity"]["high"],
        summary["by_severity"]["medium"],
        summary["by_severity"]["low"],
        summary["files_analyzed"]
    ));
    out.push_str("| severity | kind | file | line | message |\n|---|---|---|--:|---|\n");
    for f in value["findings"].as_array().into_iter().flatten() {
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} |\n",
            cell(&f["severity"]),
            cell(&f["kind"]),
            cell(&f["location"]["file_path"]),
            f["location"]["range"]["start"]["line"]
                .as_u64()
                .unwrap_or(0)
                + 1,
            cell(&f["message"])
        ));
    }
    out
}

/// A Markdown table cell: the string, with `|` and line breaks escaped.
fn cell(value: &Value) -> String {
    value
        .as_str()
        .unwrap_or_default()
        .replace('|', "\\|")
        .replace('\n', " ")
}

/// `value` as JUnit XML: a gate's checks as test cases (a failed check a
/// failure listing its violations, a skipped one skipped with the reason),
/// or an analysis's findings (those at `fail_on` or above failures, the
/// rest passed).
pub fn junit(value: &Value, fail_on: Severity) -> String {
    let mut report = Report::new("lingo");
    if value["passed"].is_boolean() {
        let mut suite = TestSuite::new("quality_gate");
        let violations = value["violations"].as_array().cloned().unwrap_or_default();
        for check in value["checks"].as_array().into_iter().flatten() {
            let name = check["name"].as_str().unwrap_or("check");
            let status = match check["status"].as_str() {
                Some("failed") => {
                    let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
                    let listed: Vec<String> = violations
                        .iter()
                        .filter(|v| v["check"] == name)
                        .map(|v| {
                            format!(
                                "{}:{} {}",
                                cell(&v["file_path"]),
                                v["range"]["start"]["line"].as_u64().unwrap_or(0) + 1,
                                cell(&v["message"])
                            )
                        })
                        .collect();
                    status.set_message(format!("{} violations", check["violations"]));
                    status.set_description(listed.join("\n"));
                    status
                }
                Some("skipped") => {
                    let mut status = TestCaseStatus::skipped();
                    status.set_message(cell(&check["reason"]));
                    status
                }
                _ => TestCaseStatus::success(),
            };
            suite.add_test_case(TestCase::new(name, status));
        }
        report.add_test_suite(suite);
    } else {
        let category = value["metadata"]["category"].as_str().unwrap_or("analysis");
        let kind = value["metadata"]["kind"].as_str().unwrap_or("");
        let mut suite = TestSuite::new(format!("{category}.{kind}"));
        for f in value["findings"].as_array().into_iter().flatten() {
            let severity = f["severity"].as_str().unwrap_or("low");
            let name = format!(
                "{} {}:{}",
                cell(&f["id"]),
                cell(&f["location"]["file_path"]),
                f["location"]["range"]["start"]["line"]
                    .as_u64()
                    .unwrap_or(0)
                    + 1
            );
            let status = if at_least(severity, fail_on) {
                let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
                status.set_message(cell(&f["message"]));
                status.set_type(severity.to_string());
                status
            } else {
                TestCaseStatus::success()
            };
            suite.add_test_case(TestCase::new(name, status));
        }
        report.add_test_suite(suite);
    }
    report
        .to_string()
        .unwrap_or_else(|e| format!("<!-- the report could not be written: {e} -->"))
}
