//! Plans as typemill-api.md's PlanBase: an LSP `WorkspaceEdit`, summary
//! counts, warnings, metadata and the sha256 of every file the plan read.
//! A plan is plain data: it can be returned, kept by a client and handed
//! back to `apply_plan`, which checks it again before writing anything.

use std::collections::{BTreeMap, BTreeSet};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The plan format's version (`plan_version`).
pub const PLAN_VERSION: &str = "1.0";

/// The plan types typemill-api.md names; lingo makes the first three.
pub const PLAN_TYPES: &[&str] = &[
    "RenamePlan",
    "MovePlan",
    "DeletePlan",
    "ExtractPlan",
    "InlinePlan",
    "ReorderPlan",
    "TransformPlan",
];

/// A zero-based line and UTF-16 character (LSP `Position`).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
pub struct Position {
    pub line: u32,
    pub character: u32,
}

/// LSP `Range`, end exclusive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Range {
    pub start: Position,
    pub end: Position,
}

impl From<&lingo_model::Span> for Range {
    fn from(span: &lingo_model::Span) -> Self {
        Range {
            start: Position {
                line: span.start.line,
                character: span.start.character,
            },
            end: Position {
                line: span.end.line,
                character: span.end.character,
            },
        }
    }
}

/// LSP `TextEdit`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TextEdit {
    pub range: Range,
    pub new_text: String,
}

/// LSP `OptionalVersionedTextDocumentIdentifier`; `uri` is the
/// workspace-relative path.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct DocumentId {
    pub uri: String,
    #[serde(default)]
    pub version: Option<i64>,
}

/// LSP `TextDocumentEdit`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TextDocumentEdit {
    pub text_document: DocumentId,
    pub edits: Vec<TextEdit>,
}

/// LSP `CreateFile`, `RenameFile` and `DeleteFile`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum FileOperation {
    Create {
        uri: String,
        /// The new file's text (an extension of LSP's `CreateFile`, which
        /// creates an empty file).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        text: Option<String>,
    },
    Rename {
        #[serde(rename = "oldUri")]
        old_uri: String,
        #[serde(rename = "newUri")]
        new_uri: String,
    },
    Delete {
        uri: String,
    },
}

/// One entry of `documentChanges`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum DocumentChange {
    Edit(TextDocumentEdit),
    File(FileOperation),
}

/// LSP `WorkspaceEdit`, in its `documentChanges` form (applied in order).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WorkspaceEdit {
    pub document_changes: Vec<DocumentChange>,
}

/// Counts that match the unique paths of the edits.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Summary {
    pub affected_files: usize,
    pub created_files: usize,
    pub deleted_files: usize,
    /// Text edits in all (not in the spec's minimum; the size of the change).
    #[serde(default)]
    pub text_edits: usize,
}

/// A warning code and what it is about.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Warning {
    pub code: String,
    pub message: String,
    /// The sites concerned, `path:line:col` (1-based), at most a few.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sites: Vec<String>,
}

impl Warning {
    /// Sites listed in a warning at most.
    pub const MAX_SITES: usize = 20;

    /// A warning of `code` listing the first [`Self::MAX_SITES`] of `sites`.
    pub fn listed(code: &str, message: String, sites: impl IntoIterator<Item = String>) -> Warning {
        Warning {
            code: code.to_string(),
            message,
            sites: sites.into_iter().take(Self::MAX_SITES).collect(),
        }
    }
}

/// Warning codes (typemill-api.md, plus INCOMPLETE_REFERENCES).
pub mod warning {
    pub const AMBIGUOUS_TARGET: &str = "AMBIGUOUS_TARGET";
    pub const POTENTIAL_BEHAVIOR_CHANGE: &str = "POTENTIAL_BEHAVIOR_CHANGE";
    pub const PARTIAL_APPLY: &str = "PARTIAL_APPLY";
    pub const VALIDATION_SKIPPED: &str = "VALIDATION_SKIPPED";
    /// The references the plan rests on may not be all: applying needs `force`.
    pub const INCOMPLETE_REFERENCES: &str = "INCOMPLETE_REFERENCES";
    /// Warnings that make `apply_plan` ask for `force`.
    pub const NEED_FORCE: &[&str] = &[INCOMPLETE_REFERENCES, POTENTIAL_BEHAVIOR_CHANGE];
}

/// What the plan is and where it came from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Metadata {
    /// `rename.symbol`, `rename.type`, ...
    pub kind: String,
    pub language: String,
    /// `low` (one file), `medium` (up to 10), `high`.
    pub estimated_impact: String,
    /// RFC 3339, UTC.
    pub created_at: String,
    /// The index generation the plan was made from.
    #[serde(default)]
    pub generation: u64,
    /// For a rename, the name before and after.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rename: Option<RenameNames>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct RenameNames {
    pub from: String,
    pub to: String,
}

/// typemill-api.md's PlanBase.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Plan {
    pub plan_type: String,
    pub plan_version: String,
    pub edits: WorkspaceEdit,
    pub summary: Summary,
    #[serde(default)]
    pub warnings: Vec<Warning>,
    pub metadata: Metadata,
    /// Workspace path -> `sha256:<hex>` of every file the plan read.
    pub file_checksums: BTreeMap<String, String>,
}

impl Plan {
    /// A plan of type `plan_type` (`RenamePlan`...) and kind `kind`
    /// (`rename.symbol`...) for `changes`, made at `generation`, with the
    /// summary and impact the changes imply.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        plan_type: &str,
        kind: String,
        language: String,
        generation: u64,
        changes: Vec<DocumentChange>,
        warnings: Vec<Warning>,
        file_checksums: BTreeMap<String, String>,
        rename: Option<RenameNames>,
    ) -> Plan {
        let edits = WorkspaceEdit {
            document_changes: changes,
        };
        let summary = Plan::summarize(&edits);
        Plan {
            plan_type: plan_type.to_string(),
            plan_version: PLAN_VERSION.into(),
            metadata: Metadata {
                kind,
                language,
                estimated_impact: impact(summary.affected_files).into(),
                created_at: now_rfc3339(),
                generation,
                rename,
            },
            edits,
            summary,
            warnings,
            file_checksums,
        }
    }

    /// The summary the edits imply: unique paths touched, created, deleted.
    pub fn summarize(edits: &WorkspaceEdit) -> Summary {
        let mut affected = BTreeSet::new();
        let mut created = BTreeSet::new();
        let mut deleted = BTreeSet::new();
        let mut text_edits = 0;
        for change in &edits.document_changes {
            match change {
                DocumentChange::Edit(edit) => {
                    affected.insert(edit.text_document.uri.as_str());
                    text_edits += edit.edits.len();
                }
                DocumentChange::File(FileOperation::Create { uri, .. }) => {
                    created.insert(uri.as_str());
                    affected.insert(uri.as_str());
                }
                DocumentChange::File(FileOperation::Rename { old_uri, new_uri }) => {
                    deleted.insert(old_uri.as_str());
                    created.insert(new_uri.as_str());
                    affected.insert(old_uri.as_str());
                    affected.insert(new_uri.as_str());
                }
                DocumentChange::File(FileOperation::Delete { uri }) => {
                    deleted.insert(uri.as_str());
                    affected.insert(uri.as_str());
                }
            }
        }
        Summary {
            affected_files: affected.len(),
            created_files: created.len(),
            deleted_files: deleted.len(),
            text_edits,
        }
    }

    /// The warnings that make applying need `force`.
    pub fn needs_force(&self) -> Vec<&Warning> {
        self.warnings
            .iter()
            .filter(|w| warning::NEED_FORCE.contains(&w.code.as_str()))
            .collect()
    }
}

/// `low`, `medium` or `high` for a change touching `files` files.
pub fn impact(files: usize) -> &'static str {
    match files {
        0 | 1 => "low",
        2..=10 => "medium",
        _ => "high",
    }
}

/// `sha256:<hex>`, the form of `file_checksums`.
pub fn checksum(sha256_hex: &str) -> String {
    format!("sha256:{sha256_hex}")
}

/// Now as RFC 3339 UTC (`2025-10-10T12:00:00Z`), without a date crate:
/// the civil date from days since the epoch (Howard Hinnant's algorithm).
pub fn now_rfc3339() -> String {
    rfc3339(now_seconds())
}

/// Seconds since the Unix epoch, now.
pub fn now_seconds() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs()) as i64
}

/// `seconds` since the Unix epoch as an RFC 3339 UTC timestamp.
pub fn rfc3339(seconds: i64) -> String {
    let (days, rest) = (seconds.div_euclid(86_400), seconds.rem_euclid(86_400));
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_counts_unique_paths() {
        let edit = |uri: &str| {
            DocumentChange::Edit(TextDocumentEdit {
                text_document: DocumentId {
                    uri: uri.into(),
                    version: None,
                },
                edits: vec![TextEdit {
                    range: Range {
                        start: Position {
                            line: 0,
                            character: 0,
                        },
                        end: Position {
                            line: 0,
                            character: 1,
                        },
                    },
                    new_text: "x".into(),
                }],
            })
        };
        let edits = WorkspaceEdit {
            document_changes: vec![
                edit("a.rs"),
                edit("a.rs"),
                edit("b.rs"),
                DocumentChange::File(FileOperation::Rename {
                    old_uri: "b.rs".into(),
                    new_uri: "c.rs".into(),
                }),
            ],
        };
        let summary = Plan::summarize(&edits);
        assert_eq!(
            (
                summary.affected_files,
                summary.created_files,
                summary.deleted_files,
                summary.text_edits
            ),
            (3, 1, 1, 3)
        );
        // The JSON is LSP's: `documentChanges`, `textDocument`, `newText`, `kind`.
        let json = serde_json::to_value(&edits).unwrap();
        assert_eq!(json["documentChanges"][0]["edits"][0]["newText"], "x");
        assert_eq!(json["documentChanges"][3]["kind"], "rename");
        assert_eq!(json["documentChanges"][3]["oldUri"], "b.rs");
        let back: WorkspaceEdit = serde_json::from_value(json).unwrap();
        assert_eq!(back, edits);
    }

    #[test]
    fn dates_are_rfc3339() {
        let now = now_rfc3339();
        assert_eq!(now.len(), 20, "{now}");
        assert!(now.starts_with("20") && now.ends_with('Z'), "{now}");
    }
}
