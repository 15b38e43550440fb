//! What planning or applying a change can fail with: the codes of
//! typemill-api.md's apply contract and roslyn-move-contracts.md §2.

use serde_json::{Value, json};

use lingo_analysis::AnalysisError;
use lingo_index::transaction::TransactionError;

/// A request cut short while it waited for the name table or the graph.
impl From<lingo_model::budget::Exhausted> for RefactorError {
    fn from(exhausted: lingo_model::budget::Exhausted) -> Self {
        RefactorError::Analysis(exhausted.into())
    }
}

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
    #[error("no declaration `{name}` in `{path}`{}", .line.map(|l| format!(" at line {l}")).unwrap_or_default())]
    SymbolNotFound {
        path: String,
        name: String,
        line: Option<u32>,
        nearby: Vec<String>,
    },
    #[error("`{name}` names {} declarations in `{path}` (lines {}); pass `line`", .lines.len(), .lines.iter().map(u32::to_string).collect::<Vec<_>>().join(", "))]
    SymbolAmbiguous {
        path: String,
        name: String,
        lines: Vec<u32>,
    },
    #[error("line {line} is outside `{path}`, which has {lines} lines")]
    InvalidLine { path: String, line: u32, lines: u32 },
    #[error("`{name}` ({kind}) cannot be moved: {reason}")]
    NotMoveable {
        name: String,
        kind: String,
        reason: String,
        container: Option<String>,
    },
    #[error("`{name}` is nested in `{container}`: nested types move with the type that holds them")]
    Nested { name: String, container: String },
    #[error("`{name}` is already in `{path}`")]
    SameLocation { name: String, path: String },
    #[error("`{path}` cannot be the target: {reason}")]
    InvalidTargetPath { path: String, reason: String },
    #[error("`{namespace}` is not a namespace name: {reason}")]
    InvalidNamespace { namespace: String, reason: String },
    #[error("`{name}` already exists where it would move: {}", .existing.join(", "))]
    MoveCollision {
        name: String,
        target: String,
        existing: Vec<String>,
    },
    #[error("moving `{name}` to `{target}` would leave what it uses out of its reach: {}", .needed.join(", "))]
    BreaksAccessibility {
        name: String,
        target: String,
        /// `name (path:line)` of each declaration the moved one uses and
        /// could no longer see.
        needed: Vec<String>,
    },
    #[error("`{path}` would have {after} syntax errors instead of {before} after the move")]
    BreaksSyntax {
        path: String,
        before: usize,
        after: usize,
    },
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
            RefactorError::SymbolNotFound { .. } => "SYMBOL_NOT_FOUND",
            RefactorError::SymbolAmbiguous { .. } => "SYMBOL_AMBIGUOUS",
            RefactorError::InvalidLine { .. } => "INVALID_LINE_NUMBER",
            RefactorError::NotMoveable { .. } => "SYMBOL_NOT_MOVEABLE",
            RefactorError::Nested { .. } => "SYMBOL_IS_NESTED",
            RefactorError::SameLocation { .. } => "SAME_LOCATION",
            RefactorError::InvalidTargetPath { .. } => "INVALID_TARGET_PATH",
            RefactorError::InvalidNamespace { .. } => "INVALID_NAMESPACE",
            RefactorError::MoveCollision { .. } => "NAME_COLLISION",
            RefactorError::BreaksAccessibility { .. } => "BREAKS_ACCESSIBILITY",
            RefactorError::BreaksSyntax { .. } => "COMPILATION_ERROR",
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
            RefactorError::SymbolNotFound {
                path,
                name,
                line,
                nearby,
            } => json!({
                "field": "symbolName", "sourceFile": path, "symbolName": name,
                "line": line, "nearbySymbols": nearby,
            }),
            RefactorError::SymbolAmbiguous { path, name, lines } => json!({
                "field": "line", "sourceFile": path, "symbolName": name, "lines": lines,
            }),
            RefactorError::InvalidLine { line, lines, .. } => {
                json!({ "field": "line", "line": line, "lines": lines })
            }
            RefactorError::NotMoveable {
                name,
                kind,
                container,
                reason,
            } => json!({
                "field": "symbolName", "symbolName": name, "symbolKind": kind,
                "containingType": container, "reason": reason,
                "supportedKinds": ["Class", "Struct", "Interface", "Enum", "Record", "Delegate"],
            }),
            RefactorError::Nested { name, container } => json!({
                "field": "symbolName", "symbolName": name, "containingType": container,
            }),
            RefactorError::SameLocation { path, .. } => {
                json!({ "field": "targetFile", "targetFile": path })
            }
            RefactorError::InvalidTargetPath { path, reason } => {
                json!({ "field": "targetFile", "targetFile": path, "reason": reason })
            }
            RefactorError::InvalidNamespace { namespace, reason } => {
                json!({ "field": "targetNamespace", "targetNamespace": namespace, "reason": reason })
            }
            RefactorError::MoveCollision {
                name,
                target,
                existing,
            } => json!({
                "field": "targetFile", "symbolName": name, "target": target,
                "existingTypeLocation": existing.first(), "existing": existing,
            }),
            RefactorError::BreaksAccessibility {
                name,
                target,
                needed,
            } => json!({ "symbolName": name, "target": target, "inaccessible": needed }),
            RefactorError::BreaksSyntax {
                path,
                before,
                after,
            } => {
                json!({ "file_path": path, "syntaxErrorsBefore": before, "syntaxErrorsAfter": after })
            }
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
            RefactorError::SymbolNotFound { nearby, .. } => {
                let mut out = vec![
                    "Check spelling of symbol name".to_string(),
                    "Verify the line number is correct".to_string(),
                ];
                out.extend(nearby.iter().take(3).map(|n| format!("Did you mean {n}?")));
                out
            }
            RefactorError::SymbolAmbiguous { .. } => {
                vec!["Pass `line`, the 1-based line where the declaration starts".into()]
            }
            RefactorError::NotMoveable { container, .. } => container
                .iter()
                .map(|c| format!("Move the containing type {c} instead"))
                .collect(),
            RefactorError::Nested { container, .. } => {
                vec![format!("Move the containing type {container} instead")]
            }
            RefactorError::MoveCollision { .. } => vec![
                "Rename the type before moving".into(),
                "Choose a different target".into(),
            ],
            RefactorError::BreaksAccessibility { .. } => {
                vec!["Make what it uses visible to the target module first, or move it too".into()]
            }
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

impl From<lingo_index::WorkspaceError> for RefactorError {
    fn from(error: lingo_index::WorkspaceError) -> Self {
        RefactorError::Analysis(error.into())
    }
}
