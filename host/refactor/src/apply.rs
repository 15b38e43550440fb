//! Applying a plan: checked again as hostile input (type, version, summary,
//! paths inside the root, a checksum for every file it changes, edits that
//! apply), parsed again so that it adds no syntax error, written all or
//! nothing through the workspace's transactions, and answered with a
//! receipt computed on the re-indexed files.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Instant;

use schemars::JsonSchema;
use serde::Serialize;

use super::RefactorError;
use super::edit;
use super::plan::{self, DocumentChange, FileOperation, Plan, Warning, warning};
use crate::reanalyse::reanalyse;
use lingo_analysis::AnalysisError;
use lingo_index::transaction::{Committed, FileChange, sha256_hex};
use lingo_index::{Snapshot, Workspace, WorkspaceError};

/// Sites listed in a receipt at most.
const MAX_RECEIPT_SITES: usize = 20;

/// How to apply.
#[derive(Debug, Clone, Copy)]
pub struct ApplyOptions {
    /// Apply despite warnings that need it and added syntax errors.
    pub force: bool,
    /// Refuse files whose bytes differ from the plan's checksums (default).
    pub validate_checksums: bool,
    /// Give up, changing nothing, when writing has not finished by then.
    pub deadline: Option<Instant>,
}

/// typemill-api.md's apply response, with lingo's receipt.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Applied {
    pub success: bool,
    pub applied_files: Vec<String>,
    pub created_files: Vec<String>,
    pub deleted_files: Vec<String>,
    pub warnings: Vec<Warning>,
    pub rollback_available: bool,
    /// Give it to `rollback` to undo this apply.
    pub snapshot_id: String,
    pub receipt: Receipt,
    /// The applied plan's metadata (what it changed, from which generation).
    pub metadata: plan::Metadata,
}

/// What the index says after the apply.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Receipt {
    /// The index generation the receipt was computed at.
    pub generation: u64,
    pub files_changed: usize,
    /// Syntax errors per changed file, before and after.
    pub files: Vec<FileReceipt>,
    /// For a rename: references in the changed files still spelled with
    /// the old name (other declarations of that name may explain them).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old_name_left: Option<NameLeft>,
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct FileReceipt {
    pub path: String,
    pub syntax_errors_before: usize,
    /// `None` when the file is gone, or no plugin reads it.
    pub syntax_errors_after: Option<usize>,
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct NameLeft {
    pub name: String,
    /// The places still spelled so, each once however many macro
    /// expansions read it.
    pub count: usize,
    /// `path:line:col`, 1-based, the first few.
    pub sites: Vec<String>,
}

/// A file as the plan sees it: the text on disk, and what the plan makes
/// of it so far (`None`: absent).
struct FileState {
    original: Option<String>,
    current: Option<String>,
}

/// Apply `plan` to `workspace`.
pub fn apply_plan(
    workspace: &Arc<Workspace>,
    plan: &Plan,
    options: &ApplyOptions,
) -> Result<Applied, RefactorError> {
    check_envelope(plan, options)?;
    let states = play(workspace, plan)?;
    check_checksums(plan, &states, options)?;
    let snapshot = workspace.snapshot();
    let mut receipts = Vec::new();
    let mut changes = Vec::new();
    let mut added_errors = Vec::new();
    for (path, state) in &states {
        if state.original == state.current {
            continue;
        }
        let before = state
            .original
            .as_deref()
            .map_or(0, |text| syntax_errors_of(workspace, &snapshot, path, text));
        if let Some(text) = &state.current {
            let after = syntax_errors_of(workspace, &snapshot, path, text);
            if after > before {
                added_errors.push(format!("{path}: {before} -> {after}"));
            }
        }
        receipts.push(FileReceipt {
            path: path.clone(),
            syntax_errors_before: before,
            syntax_errors_after: None,
        });
        changes.push(FileChange {
            path: path.clone(),
            expected: state.original.as_deref().map(|t| sha256_hex(t.as_bytes())),
            content: state.current.as_ref().map(|t| t.as_bytes().to_vec()),
        });
    }
    if !added_errors.is_empty() && !options.force {
        return Err(RefactorError::ForceRequired {
            code: "COMPILATION_ERROR",
            message: format!(
                "the change adds syntax errors to {} files",
                added_errors.len()
            ),
            sites: added_errors,
        });
    }
    let committed = workspace.commit(&changes, options.deadline)?;
    let mut warnings = plan.warnings.clone();
    if options.force
        && !plan
            .warnings
            .iter()
            .any(|w| w.code == warning::VALIDATION_SKIPPED)
    {
        warnings.push(Warning {
            code: warning::VALIDATION_SKIPPED.into(),
            message: "applied with `force`".into(),
            sites: added_errors,
        });
    }
    let receipt = receipt(workspace, plan, &committed, receipts);
    Ok(Applied {
        success: true,
        applied_files: committed.written,
        created_files: committed.created,
        deleted_files: committed.deleted,
        warnings,
        rollback_available: true,
        snapshot_id: committed.snapshot_id,
        receipt,
        metadata: plan.metadata.clone(),
    })
}

/// What `rollback` answers.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct RolledBack {
    pub success: bool,
    /// The snapshot undone.
    pub rolled_back: String,
    pub restored_files: Vec<String>,
    /// Files the apply had deleted, written again.
    pub recreated_files: Vec<String>,
    /// Files the apply had created, deleted.
    pub deleted_files: Vec<String>,
    /// The rollback is itself a change: this snapshot undoes it.
    pub snapshot_id: String,
    pub generation: u64,
}

/// Undo the apply that made `snapshot_id`.
pub fn rollback(
    workspace: &Arc<Workspace>,
    snapshot_id: &str,
    force: bool,
) -> Result<RolledBack, RefactorError> {
    let committed = workspace.rollback(snapshot_id, force)?;
    let generation = workspace.fresh().generation;
    Ok(RolledBack {
        success: true,
        rolled_back: snapshot_id.to_string(),
        restored_files: committed.written,
        recreated_files: committed.created,
        deleted_files: committed.deleted,
        snapshot_id: committed.snapshot_id,
        generation,
    })
}

/// Type, version and summary as lingo writes them; warnings that need
/// `force` have it.
fn check_envelope(plan: &Plan, options: &ApplyOptions) -> Result<(), RefactorError> {
    if !plan::PLAN_TYPES.contains(&plan.plan_type.as_str()) {
        return Err(RefactorError::InvalidPlanType {
            found: plan.plan_type.clone(),
        });
    }
    if plan.plan_version != plan::PLAN_VERSION {
        return Err(RefactorError::InvalidPlan {
            field: "plan.plan_version".into(),
            reason: format!(
                "version `{}` is not {}",
                plan.plan_version,
                plan::PLAN_VERSION
            ),
        });
    }
    if Plan::summarize(&plan.edits) != plan.summary {
        return Err(RefactorError::InvalidPlan {
            field: "plan.summary".into(),
            reason: "the summary does not match the edits".into(),
        });
    }
    let needs = plan.needs_force();
    if let (Some(first), false) = (needs.first(), options.force) {
        return Err(RefactorError::ForceRequired {
            code: if first.code == warning::POTENTIAL_BEHAVIOR_CHANGE {
                warning::POTENTIAL_BEHAVIOR_CHANGE
            } else {
                warning::INCOMPLETE_REFERENCES
            },
            message: first.message.clone(),
            sites: first.sites.clone(),
        });
    }
    Ok(())
}

/// Play the plan's changes, in order, on the files as they are on disk.
fn play(
    workspace: &Arc<Workspace>,
    plan: &Plan,
) -> Result<BTreeMap<String, FileState>, RefactorError> {
    let mut states: BTreeMap<String, FileState> = BTreeMap::new();
    let invalid = |reason: String| RefactorError::InvalidPlan {
        field: "plan.edits".into(),
        reason,
    };
    for change in &plan.edits.document_changes {
        match change {
            DocumentChange::Edit(document) => {
                let path = load(workspace, &mut states, &document.text_document.uri)?;
                let state = states.get_mut(&path).ok_or_else(|| invalid(path.clone()))?;
                let text = state
                    .current
                    .as_deref()
                    .ok_or_else(|| RefactorError::StalePlan {
                        path: path.clone(),
                        reason: format!("`{path}` does not exist"),
                    })?;
                let edited = edit::apply(text, &document.edits)
                    .map_err(|e| invalid(format!("{path}: {e}")))?;
                state.current = Some(edited);
            }
            DocumentChange::File(FileOperation::Create { uri, text }) => {
                let path = load(workspace, &mut states, uri)?;
                let state = states.get_mut(&path).ok_or_else(|| invalid(path.clone()))?;
                if state.current.is_some() {
                    return Err(RefactorError::StalePlan {
                        reason: format!("`{path}` already exists"),
                        path,
                    });
                }
                state.current = Some(text.clone().unwrap_or_default());
            }
            DocumentChange::File(FileOperation::Rename { old_uri, new_uri }) => {
                let from = load(workspace, &mut states, old_uri)?;
                let to = load(workspace, &mut states, new_uri)?;
                let text = states
                    .get_mut(&from)
                    .and_then(|s| s.current.take())
                    .ok_or_else(|| RefactorError::StalePlan {
                        path: from.clone(),
                        reason: format!("`{from}` does not exist"),
                    })?;
                let target = states.get_mut(&to).ok_or_else(|| invalid(to.clone()))?;
                if target.current.is_some() {
                    return Err(RefactorError::StalePlan {
                        reason: format!("`{to}` already exists"),
                        path: to,
                    });
                }
                target.current = Some(text);
            }
            DocumentChange::File(FileOperation::Delete { uri }) => {
                let path = load(workspace, &mut states, uri)?;
                let state = states.get_mut(&path).ok_or_else(|| invalid(path.clone()))?;
                if state.current.take().is_none() {
                    return Err(RefactorError::StalePlan {
                        reason: format!("`{path}` does not exist"),
                        path,
                    });
                }
            }
        }
    }
    Ok(states)
}

/// The workspace path of `uri` (inside the root), its state read from
/// the disk the first time.
fn load(
    workspace: &Workspace,
    states: &mut BTreeMap<String, FileState>,
    uri: &str,
) -> Result<String, RefactorError> {
    let path = workspace.resolve(uri).map_err(AnalysisError::from)?;
    // A plan edits source files a plugin reads and the manifests they
    // depend on; nothing else (no `.git/hooks/...`, no dotfiles).
    let name = path.rsplit('/').next().unwrap_or(&path);
    let editable = workspace
        .registry()
        .for_path(&workspace.root().join(&path))
        .is_some()
        || workspace
            .registry()
            .manifest_names()
            .iter()
            .any(|m| m == name);
    if !editable || path.split('/').any(|part| part.starts_with('.')) {
        return Err(RefactorError::InvalidPlan {
            field: "plan.edits".into(),
            reason: format!(
                "`{path}` is not a source file or manifest lingo edits (no plugin reads it, or it is hidden)"
            ),
        });
    }
    if !states.contains_key(&path) {
        let original = match workspace.read_current(&path) {
            Ok(bytes) => {
                Some(
                    String::from_utf8(bytes).map_err(|_| RefactorError::NotEditable {
                        path: path.clone(),
                        reason: "it is not valid UTF-8".into(),
                    })?,
                )
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => {
                return Err(RefactorError::from(AnalysisError::from(
                    WorkspaceError::Unreadable(format!("{path}: {e}")),
                )));
            }
        };
        states.insert(
            path.clone(),
            FileState {
                current: original.clone(),
                original,
            },
        );
    }
    Ok(path)
}

/// Every file the plan changes that exists has a checksum, and (unless
/// the caller opted out) its bytes still match it.
fn check_checksums(
    plan: &Plan,
    states: &BTreeMap<String, FileState>,
    options: &ApplyOptions,
) -> Result<(), RefactorError> {
    for (path, state) in states {
        let Some(original) = &state.original else {
            if plan.file_checksums.contains_key(path) {
                return Err(RefactorError::StalePlan {
                    path: path.clone(),
                    reason: format!("`{path}` was read by the plan and is gone"),
                });
            }
            continue;
        };
        let Some(expected) = plan.file_checksums.get(path) else {
            return Err(RefactorError::InvalidPlan {
                field: "plan.file_checksums".into(),
                reason: format!("no checksum for `{path}`, which the plan changes"),
            });
        };
        let expected = expected.strip_prefix("sha256:").unwrap_or(expected);
        let found = sha256_hex(original.as_bytes());
        if options.validate_checksums && expected != found {
            return Err(RefactorError::ChecksumMismatch {
                path: path.clone(),
                expected: expected.to_string(),
                found,
            });
        }
    }
    Ok(())
}

/// Syntax errors of `text` at `path`: from the index when it holds those
/// very bytes, else by parsing it; 0 where no plugin reads the file.
fn syntax_errors_of(workspace: &Workspace, snapshot: &Snapshot, path: &str, text: &str) -> usize {
    if let Some(entry) = snapshot.file(path)
        && entry.sha256 == sha256_hex(text.as_bytes())
        && let Ok(facts) = &entry.facts
    {
        return facts.syntax_errors();
    }
    let Some(plugin) = workspace.registry().for_path(&workspace.root().join(path)) else {
        return 0;
    };
    reanalyse(&**plugin, path, text, snapshot).map_or(0, |facts| facts.syntax_errors())
}

/// The receipt: the touched files as the index reads them now, once it
/// has read what was written.
fn receipt(
    workspace: &Arc<Workspace>,
    plan: &Plan,
    committed: &Committed,
    mut files: Vec<FileReceipt>,
) -> Receipt {
    let written: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
    let snapshot = workspace.fresh_after_writes(&written);
    for file in &mut files {
        file.syntax_errors_after = snapshot
            .file(&file.path)
            .and_then(|entry| entry.facts.as_ref().ok())
            .map(|facts| facts.syntax_errors());
    }
    let old_name_left = plan.metadata.rename.as_ref().map(|names| {
        let mut sites = Vec::new();
        for file in files.iter().filter_map(|f| snapshot.file(&f.path)) {
            if let Ok(facts) = &file.facts {
                // Once per place: a macro expanded several times names the
                // same tokens once per expansion.
                let places: std::collections::BTreeSet<(u32, u32)> = facts
                    .references
                    .iter()
                    .filter(|r| r.name == names.from)
                    .map(|r| (r.span.start.line, r.span.start.character))
                    .collect();
                sites.extend(places.into_iter().map(|(line, character)| {
                    format!("{}:{}:{}", file.path, line + 1, character + 1)
                }));
            }
        }
        NameLeft {
            name: names.from.clone(),
            count: sites.len(),
            sites: sites.into_iter().take(MAX_RECEIPT_SITES).collect(),
        }
    });
    Receipt {
        generation: snapshot.generation,
        files_changed: committed.written.len() + committed.created.len() + committed.deleted.len(),
        files,
        old_name_left,
    }
}
