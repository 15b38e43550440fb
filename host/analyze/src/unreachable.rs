//! `analyze.dead_code` of kind `unreachable_code`: statements no path
//! reaches, as each file's plugin finds them (statements after one that
//! leaves the block), asked on demand and checked at the boundary.

use std::sync::Arc;

use serde_json::{Map, json};

use super::{Finding, Found, Location, Severity, symbol_count};
use lingo_analysis::Range;
use lingo_index::FileEntry;

/// The unreachable code of `files`; files whose plugin cannot say are
/// listed as not analysed.
pub fn unreachable_code(files: &[Arc<FileEntry>]) -> Found {
    let mut findings = Vec::new();
    let mut unread = Vec::new();
    let total = files.len() as u64;
    for (done, file) in files.iter().enumerate() {
        if lingo_model::budget::check().is_err() {
            unread.push(format!("{}: the request's budget ran out", file.path));
            continue;
        }
        lingo_model::budget::progress("finding unreachable code", done as u64 + 1, total);
        let spans = match file.plugin.unreachable(&file.path, &file.source()) {
            Ok(spans) => spans,
            Err(e) => {
                unread.push(format!("{}: {e}", file.path));
                continue;
            }
        };
        let (spans, report) = lingo_model::validate::check_unreachable(spans, &file.source());
        if !report.is_clean() {
            file.plugin.note_failure(
                "unreachable",
                &lingo_runtime::PluginError::InvalidOutput {
                    plugin: file.plugin.info().name.clone(),
                    rules: report.broken_rules(),
                },
            );
        }
        for span in spans {
            let lines = span.end.line - span.start.line + 1;
            let mut metrics = Map::new();
            metrics.insert("lines".into(), json!(lines));
            findings.push(Finding {
                id: String::new(),
                kind: "unreachable_code",
                severity: Severity::Medium,
                location: Location {
                    file_path: file.path.clone(),
                    range: Range::from(&span),
                },
                symbol: None,
                metrics,
                message: format!(
                    "{lines} line{} no path reaches (after a statement that leaves the block)",
                    if lines == 1 { "" } else { "s" }
                ),
                suggestions: Vec::new(),
            });
        }
    }
    let analysed = files.len() - unread.len();
    unread.truncate(20);
    Found {
        findings,
        files_analyzed: analysed,
        symbols_analyzed: symbol_count(files),
        thresholds: Map::new(),
        incomplete_reasons: unread,
    }
}
