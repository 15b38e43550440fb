//! lingo-analysis: the typed query layer. Plain structs in, plain structs
//! out, over resolution and the graph. Knows no JSON-RPC and no tool;
//! never imports the refactoring planner, the analyses, tools or the
//! protocol.
//!
//! The typed analysis layer (rust-analyzer's `ide` crate is the model): an
//! [`Analysis`] of one snapshot and the queries over it, each returning
//! plain structs. Tools, the refactoring planner and later analyses are
//! written against this layer; none of them reads facts or walks the graph
//! itself.

use lingo_resolve::Resolved;
pub mod clones;
mod cycles;
mod dead_code;
mod definition;
mod dependencies;
mod diagnostics;
mod error;
mod graph_metrics;
mod hierarchy;
mod implementations;
mod incomplete;
mod mentions;
mod node;
mod outline;
mod references;
mod search;
mod symbol_info;
mod target;
mod type_definition;
mod view;

use std::sync::Arc;

pub use cycles::{Cycle, CycleLevel};
pub use dead_code::{DeadCode, DeadDeclaration, KeptDeclaration, MAX_MENTIONS_LISTED};
pub use definition::{Declared, DefinitionQuery, DefinitionSite, Definitions};
pub use dependencies::{DependencyGraph, PathsBetween};
pub use diagnostics::{DiagnosticView, Diagnostics, UnanalyzedFile, diagnostics};
pub use error::{AnalysisError, position_message};
pub use graph_metrics::{
    Components, Coupling, GraphLevel, GraphMetrics, GraphMetricsError, MetricsWanted, NodeMetrics,
};
pub use hierarchy::{
    Call, CallDirection, CallEnd, CallHierarchy, CallSite, MAX_DEPTH as MAX_CALL_DEPTH,
    OutgoingCompleteness,
};
pub use implementations::{Implementation, Implementations, ImplementationsCompleteness};
pub use incomplete::Incompleteness;
pub use node::{AncestorView, EnclosingSymbol, NodeAt, NodeSource, SyntaxNodeView, node_at};
pub use outline::{MAX_OUTLINE_DEPTH, Outline, outline};
pub use references::{Completeness, DeclarationItem, ReferenceItem, References};
pub use search::{SearchHit, SymbolSearch};
pub use symbol_info::{Member, SymbolDetails, SymbolInfo, Tally};
pub use target::{FilePosition, Subject, SymbolQuery, Target, describe_subject, offset_in};
pub use type_definition::{TypeDefinition, TypeDefinitions, UnresolvedType};
pub use view::{
    LocalView, Range, RangePoint, ReferenceSite, SiteView, SubjectView, SymbolView, chunk_id,
    line_text, qualified_container, qualified_name,
};

pub use lingo_resolve::SymbolRef;

use lingo_index::{FileEntry, Snapshot, Workspace};
use lingo_model::budget::Exhausted;
use lingo_resolve::graph::CodeGraph;
use lingo_resolve::{Resolver, SymbolTable};

/// One generation of the index with what is derived from it: the name
/// table and the symbol graph (both memoised per generation by the
/// snapshot). Cloning is cheap.
#[derive(Clone)]
pub struct Analysis {
    workspace: Arc<Workspace>,
    snapshot: Snapshot,
    table: Arc<SymbolTable>,
}

impl Analysis {
    /// The analysis of `snapshot`, a snapshot of `workspace` (its name
    /// table built, or waited for until the current request's budget ends).
    pub fn new(workspace: Arc<Workspace>, snapshot: Snapshot) -> Result<Self, Exhausted> {
        let table = snapshot.table()?;
        Ok(Analysis {
            workspace,
            snapshot,
            table,
        })
    }

    /// The analysis of a fresh snapshot (a refresh asked for and waited for
    /// a bounded time).
    pub fn fresh(workspace: &Arc<Workspace>) -> Result<Self, Exhausted> {
        Self::new(workspace.clone(), workspace.fresh())
    }

    pub fn workspace(&self) -> &Arc<Workspace> {
        &self.workspace
    }

    pub fn snapshot(&self) -> &Snapshot {
        &self.snapshot
    }

    pub fn generation(&self) -> u64 {
        self.snapshot.generation
    }

    pub fn table(&self) -> &Arc<SymbolTable> {
        &self.table
    }

    /// The symbol graph of this generation (built on first use; the build,
    /// or waiting for another request's, ends with the request's budget).
    pub fn graph(&self) -> Result<Arc<CodeGraph>, Exhausted> {
        self.snapshot.graph()
    }

    pub fn resolver(&self) -> Resolver<'_> {
        Resolver::new(&self.snapshot, self.table.clone())
    }

    /// The indexed file at a client-supplied path (boundary checks and
    /// "did you mean" suggestions).
    pub fn file(&self, path: &str) -> Result<Arc<FileEntry>, AnalysisError> {
        Ok(self.workspace.file(&self.snapshot, path)?)
    }

    /// The indexed files at a client-supplied path: the file itself, or
    /// every indexed file under a folder (`.` or empty: the whole
    /// workspace), in path order. A path that is neither gets the file
    /// lookup's error, with its suggestions.
    pub fn files_under(&self, path: &str) -> Result<Vec<Arc<FileEntry>>, AnalysisError> {
        let all = || self.snapshot.files.values().cloned().collect();
        let trimmed = path.trim_end_matches('/');
        // `/` is the file system's root, not the workspace's.
        if (trimmed.is_empty() && !path.starts_with('/')) || trimmed == "." {
            return Ok(all());
        }
        let relative = self
            .workspace
            .resolve(if trimmed.is_empty() { path } else { trimmed })?;
        // The root itself, written as an absolute path (as clients send
        // `project_path`).
        if relative.is_empty() {
            return Ok(all());
        }
        if let Some(file) = self.snapshot.file(&relative) {
            return Ok(vec![file.clone()]);
        }
        let prefix = format!("{relative}/");
        let under: Vec<Arc<FileEntry>> = self
            .snapshot
            .files
            .range(prefix.clone()..)
            .take_while(|(p, _)| p.starts_with(&prefix))
            .map(|(_, f)| f.clone())
            .collect();
        if under.is_empty() {
            return self.file(path).map(|f| vec![f]);
        }
        Ok(under)
    }

    /// The separators of qualified names the loaded plugins declare, plus
    /// `.`, which every query accepts for `Type.member`.
    pub fn separators(&self) -> Vec<String> {
        let mut separators = self.workspace.registry().path_separators();
        if !separators.iter().any(|s| s == ".") {
            separators.push(".".to_string());
        }
        separators
    }
}
