//! lingo-refactor: the refactoring planner. Plans, checksums, atomic
//! apply, rollback and receipts, built on `lingo-analysis`. Never imports
//! the analyses, tools or the protocol.
//!
//! The refactoring planner (API boundary for the refactoring tools): plans
//! made from the analysis layer — the same references `find_references`
//! answers — as LSP `WorkspaceEdit`s with checksums and warnings, checked
//! by parsing the edited files again with their plugins, and applied all
//! or nothing through the workspace's transactions, with a receipt and a
//! snapshot to roll back to. No language is named here: what differs
//! between languages comes from the plugins' facts and parses.

mod apply;
mod consolidate;
mod dead_code;
mod delete;
mod edit;
mod error;
mod moves;
pub mod plan;
mod reanalyse;
mod rename;
mod rename_path;

pub use apply::{
    Applied, ApplyOptions, FileReceipt, NameLeft, Receipt, RolledBack, apply_plan, rollback,
};
pub use consolidate::{ConsolidateRequest, Consolidated, plan_consolidate};
pub use delete::{DeleteKind, DeleteRequest, UnusedImport, plan_delete, unused_imports};
pub use edit::{EditError, LineIndex, apply as apply_text_edits, unified_diff};
pub use error::RefactorError;
pub use moves::{Location, MoveOutcome, MoveRequest, MoveSource, Moved, kind_name, plan_move};
pub use plan::{Plan, Warning};
pub use rename::{RenameKind, RenameRequest, plan_rename};
pub use rename_path::{PathRenameRequest, plan_path_rename};
