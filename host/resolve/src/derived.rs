//! What resolution derives from a snapshot of the index, built once per
//! generation on first use and kept in the snapshot's memo.

use std::sync::Arc;

use lingo_index::Snapshot;
use lingo_model::budget::Exhausted;

use crate::SymbolTable;
use crate::graph::CodeGraph;

/// The name table and the symbol graph of a [`Snapshot`]. The index knows
/// neither type; it keeps them type-erased in its memo.
pub trait Resolved {
    /// The name table of this generation (built on first use; waiting for
    /// another request's build ends when this request's budget does).
    fn table(&self) -> Result<Arc<SymbolTable>, Exhausted>;

    /// Failed `resolve-import` calls of this generation's name table, if it
    /// was built: (count, first reason).
    fn import_failures(&self) -> (usize, Option<String>);

    /// The symbol graph of this generation (built on first use; the build,
    /// or waiting for another request's, ends when this request's budget
    /// does).
    fn graph(&self) -> Result<Arc<CodeGraph>, Exhausted>;
}

impl Resolved for Snapshot {
    fn table(&self) -> Result<Arc<SymbolTable>, Exhausted> {
        self.memo()
            .get_or_init(|earlier: Option<Arc<SymbolTable>>| {
                Ok(SymbolTable::build(self, earlier.as_deref()))
            })
    }

    fn import_failures(&self) -> (usize, Option<String>) {
        self.memo()
            .get::<SymbolTable>()
            .map_or((0, None), |t| t.import_failures())
    }

    fn graph(&self) -> Result<Arc<CodeGraph>, Exhausted> {
        self.memo().get_or_init(|earlier: Option<Arc<CodeGraph>>| {
            CodeGraph::build(self, earlier.as_deref())
        })
    }
}
