//! `analyze_code_churn` (mcp-wire-protocol.md): how often and how much the
//! workspace's code files changed over the last `period_days`, from the git
//! history (`crate::history`), most churned first.
//!
//! A file's `churn_score` (0-1) weighs how often it changed against how
//! much: half its commits over the most any file had, half its lines added
//! and deleted over the most any file had. Only the files in scope that
//! lingo indexes (code) are reported.

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Arc;

use schemars::JsonSchema;
use serde::Serialize;

use crate::history::{self, History, HistoryError};
use lingo_index::FileEntry;
use lingo_refactor::plan::{now_seconds, rfc3339};

/// One file's churn.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct FileChurn {
    pub file_path: String,
    pub commits: u32,
    pub lines_added: u64,
    pub lines_deleted: u64,
    pub author_count: usize,
    /// Up to ten author e-mail addresses, sorted.
    pub authors: Vec<String>,
    /// RFC 3339.
    pub last_change: String,
    pub churn_score: f64,
    /// A version was binary: its lines are not counted.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub binary: bool,
}

/// Totals over the period.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ChurnSummary {
    /// Commits in the period (merges not counted), whatever they changed.
    pub commits: usize,
    /// Files in scope changed in the period.
    pub files_changed: usize,
    pub files_in_scope: usize,
    pub lines_added: u64,
    pub lines_deleted: u64,
    pub authors: usize,
}

/// The answer, before paging.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ChurnReport {
    pub period_days: u32,
    /// The start of the period, RFC 3339.
    pub since: String,
    pub summary: ChurnSummary,
    pub files: Vec<FileChurn>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub incomplete_reasons: Vec<String>,
}

/// The churn of `files` (under the workspace at `root`) over the last
/// `period_days` days.
pub fn churn(
    root: &Path,
    files: &[Arc<FileEntry>],
    period_days: u32,
) -> Result<ChurnReport, HistoryError> {
    let since = now_seconds() - i64::from(period_days) * 86_400;
    let history = history::since(root, since)?;
    Ok(report(&history, files, period_days, since))
}

/// The report of `history` for `files`.
fn report(
    history: &History,
    files: &[Arc<FileEntry>],
    period_days: u32,
    since: i64,
) -> ChurnReport {
    let in_scope: Vec<(&String, &history::FileHistory)> = files
        .iter()
        .filter_map(|f| history.files.get_key_value(&f.path))
        .collect();
    let most_commits = in_scope
        .iter()
        .map(|(_, h)| h.commits)
        .max()
        .unwrap_or(0)
        .max(1);
    let most_lines = in_scope
        .iter()
        .map(|(_, h)| h.lines_added + h.lines_deleted)
        .max()
        .unwrap_or(0)
        .max(1);
    let mut authors = BTreeSet::new();
    let mut rows: Vec<FileChurn> = in_scope
        .iter()
        .map(|(path, h)| {
            authors.extend(h.authors.iter().cloned());
            let score = 0.5 * f64::from(h.commits) / f64::from(most_commits)
                + 0.5 * (h.lines_added + h.lines_deleted) as f64 / most_lines as f64;
            FileChurn {
                file_path: path.to_string(),
                commits: h.commits,
                lines_added: h.lines_added,
                lines_deleted: h.lines_deleted,
                author_count: h.authors.len(),
                authors: h.authors.iter().take(10).cloned().collect(),
                last_change: rfc3339(h.last_change),
                churn_score: (score * 1000.0).round() / 1000.0,
                binary: h.binary,
            }
        })
        .collect();
    rows.sort_by(|a, b| {
        b.churn_score
            .total_cmp(&a.churn_score)
            .then_with(|| a.file_path.cmp(&b.file_path))
    });
    let mut incomplete_reasons = Vec::new();
    if history.truncated {
        incomplete_reasons.push(format!(
            "only the newest {} commits of the period were read",
            history::MAX_COMMITS
        ));
    }
    ChurnReport {
        period_days,
        since: rfc3339(since),
        summary: ChurnSummary {
            commits: history.commits,
            files_changed: rows.len(),
            files_in_scope: files.len(),
            lines_added: rows.iter().map(|r| r.lines_added).sum(),
            lines_deleted: rows.iter().map(|r| r.lines_deleted).sum(),
            authors: authors.len(),
        },
        files: rows,
        incomplete_reasons,
    }
}
