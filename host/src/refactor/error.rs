//! What planning or applying a change can fail with: the codes of
//! typemill-api.md's apply contract and roslyn-move-contracts.md §2.

use serde_json::{Value, json};

use crate::analysis::AnalysisError;
use crate::workspace::transaction::TransactionError;

#[derive(Debug, thiserror::Error)]
pub enum RefactorError {
    /// The target could not be found or named one declaration.
    #[error(transparent)]
    Analysis(#[from] AnalysisError),
    #[error("`{name}` is not a valid new name here: {reason}")]
    InvalidName { name: String, reason: String },
    #[error("`{target}` is a {found}; `kind: {kind}` renames {expected}")]
    WrongKind {
        target: String,
        kind: String,
        found: String,
        expected: &'static str,
    },
    #[error("`{name}` is already declared where `{old}` is visible: {}", .existing.join(", "))]
    NameCollision {
        name: String,
        old: String,
        /// `path:line` of each clashing declaration or binding.
        existing: Vec<String>,
    },
    #[error("`{path}` cannot be edited: {reason}")]
    NotEditable { path: String, reason: String },
    #[error("plan type `{found}` is not one lingo applies")]
    InvalidPlanType { found: String },
    #[error("the plan is invalid: {reason}")]
    InvalidPlan { field: String, reason: String },
    #[error(
        "`{path}` changed since the plan was made (sha256:{expected} then, sha256:{found} now)"
    )]
    ChecksumMismatch {
        path: String,
        expected: String,
        found: String,
    },
    #[error("the plan no longer fits the workspace: {reason}")]
    StalePlan { path: String, reason: String },
    /// The plan carries a warning that makes applying it need `force`.
    #[error("{message}; apply with `force: true` to accept it")]
    ForceRequired {
        code: &'static str,
        message: String,
        sites: Vec<String>,
    },
    #[error("another change to this workspace is being applied; try again when it is done")]
    Busy,
    #[error("the change did not finish in time; nothing was changed")]
    Timeout,
    #[error("applying failed, nothing was changed: {reason}")]
    ApplyFailed { path: String, reason: String },
    #[error("no snapshot `{id}` to roll back to")]
    UnknownSnapshot { id: String, known: Vec<String> },
    #[error("rolling back failed: {reason}")]
    RollbackFailed { reason: String },
}

impl RefactorError {
    /// Stable code.
    pub fn code(&self) -> &'static str {
        match self {
            RefactorError::Analysis(_) => "ANALYSIS_ERROR",
            RefactorError::InvalidName { .. } => "INVALID_SYMBOL_NAME",
            RefactorError::WrongKind { .. } => "INVALID_PARAM",
            RefactorError::NameCollision { .. } => "NAME_COLLISION",
            RefactorError::NotEditable { .. } => "FILESYSTEM_ERROR",
            RefactorError::InvalidPlanType { .. } => "INVALID_PLAN_TYPE",
            RefactorError::InvalidPlan { .. } => "INVALID_PLAN",
            RefactorError::ChecksumMismatch { .. } => "CHECKSUM_MISMATCH",
            RefactorError::StalePlan { .. } => "STALE_PLAN",
            RefactorError::ForceRequired { code, .. } => code,
            RefactorError::Busy => "WORKSPACE_BUSY",
            RefactorError::Timeout => "APPLY_TIMEOUT",
            RefactorError::ApplyFailed { .. } => "APPLY_FAILED",
            RefactorError::UnknownSnapshot { .. } => "SNAPSHOT_NOT_FOUND",
            RefactorError::RollbackFailed { .. } => "ROLLBACK_FAILED",
        }
    }

    /// The error's details, with the argument at fault as `field`.
    pub fn details(&self) -> Value {
        match self {
            RefactorError::Analysis(_) => json!({}),
            RefactorError::InvalidName { name, reason } => {
                json!({ "field": "new_name", "newName": name, "reason": reason })
            }
            RefactorError::WrongKind { found, .. } => json!({ "field": "kind", "found": found }),
            RefactorError::NameCollision { name, existing, .. } => {
                json!({ "field": "new_name", "newName": name, "existing": existing })
            }
            RefactorError::NotEditable { path, reason } => {
                json!({ "file_path": path, "reason": reason })
            }
            RefactorError::InvalidPlanType { found } => {
                json!({ "field": "plan.plan_type", "found": found })
            }
            RefactorError::InvalidPlan { field, .. } => json!({ "field": field }),
            RefactorError::ChecksumMismatch {
                path,
                expected,
                found,
            } => json!({
                "file_path": path,
                "expected": format!("sha256:{expected}"),
                "found": format!("sha256:{found}"),
            }),
            RefactorError::StalePlan { path, .. } => json!({ "file_path": path }),
            RefactorError::ForceRequired { sites, .. } => {
                json!({ "field": "force", "sites": sites })
            }
            RefactorError::Busy | RefactorError::Timeout => json!({}),
            RefactorError::ApplyFailed { path, .. } => json!({ "file_path": path }),
            RefactorError::UnknownSnapshot { id, known } => {
                json!({ "field": "snapshot_id", "snapshotId": id, "known": known })
            }
            RefactorError::RollbackFailed { .. } => json!({ "field": "snapshot_id" }),
        }
    }

    pub fn suggestions(&self) -> Vec<String> {
        match self {
            RefactorError::NameCollision { .. } => {
                vec!["Choose another name, or rename the clashing declaration first".into()]
            }
            RefactorError::ChecksumMismatch { .. } | RefactorError::StalePlan { .. } => {
                vec!["Make the plan again from the files as they are now".into()]
            }
            RefactorError::Busy => vec!["Read tools keep answering meanwhile".into()],
            RefactorError::InvalidPlanType { .. } => {
                vec!["Pass the plan a lingo refactoring tool returned, unchanged".into()]
            }
            RefactorError::UnknownSnapshot { known, .. } => known
                .iter()
                .take(3)
                .map(|k| format!("Did you mean {k}?"))
                .collect(),
            _ => Vec::new(),
        }
    }
}

impl From<TransactionError> for RefactorError {
    fn from(error: TransactionError) -> Self {
        match error {
            TransactionError::Busy => RefactorError::Busy,
            TransactionError::Stale {
                path,
                expected,
                found,
            } => RefactorError::ChecksumMismatch {
                path,
                expected,
                found,
            },
            TransactionError::Timeout(_) => RefactorError::Timeout,
            TransactionError::UnknownSnapshot { id, known } => {
                RefactorError::UnknownSnapshot { id, known }
            }
            TransactionError::AlreadyRolledBack { id } => RefactorError::RollbackFailed {
                reason: format!("snapshot `{id}` was already rolled back"),
            },
            TransactionError::Io { path, source } => RefactorError::ApplyFailed {
                path,
                reason: source.to_string(),
            },
            TransactionError::Duplicate { path } => RefactorError::InvalidPlan {
                field: "plan.edits".into(),
                reason: format!("`{path}` is changed twice"),
            },
        }
    }
}

impl From<crate::workspace::WorkspaceError> for RefactorError {
    fn from(error: crate::workspace::WorkspaceError) -> Self {
        RefactorError::Analysis(error.into())
    }
}
