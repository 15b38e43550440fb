//! What an analysis query can fail with (`lingo-tools` turns it into a
//! tool error at the edge).

use lingo_index::WorkspaceError;

#[derive(Debug, thiserror::Error)]
pub enum AnalysisError {
    /// The file cannot be handed out, or its plugin could not analyse it.
    #[error(transparent)]
    Workspace(#[from] WorkspaceError),
    #[error("{}", position_message(.path, .field, *.line, *.character, *.line_count))]
    InvalidPosition {
        path: String,
        /// `line` when the line does not exist, else `character`.
        field: &'static str,
        line: u64,
        character: u64,
        line_count: usize,
        /// Whether the tool counts lines from 1 (`node_at`); the others
        /// take LSP's zero-based positions.
        one_based: bool,
    },
    #[error("no symbol or reference at {line}:{character} in `{path}`")]
    NothingAtPosition {
        path: String,
        line: u32,
        character: u32,
        /// Names of the declarations around the position.
        nearby: Vec<String>,
    },
    #[error("no symbol `{name}` found")]
    NotFound {
        name: String,
        /// Declared names close to the one asked for.
        nearby: Vec<String>,
    },
    #[error("`{name}` matches {} declarations; say which one", candidates.len())]
    Ambiguous {
        name: String,
        /// `path:line kind container.name` of each candidate (1-based line).
        candidates: Vec<String>,
    },
    #[error(
        "`{name}` at {path}:{line}:{character} does not resolve to any declaration in the workspace"
    )]
    Unresolved {
        name: String,
        path: String,
        line: u32,
        character: u32,
        /// Why, when known (e.g. too many same-named declarations to guess).
        reason: String,
    },
    /// The query needs another kind of declaration (a local where a
    /// declaration is needed, a function where a variable is).
    #[error("{reason}")]
    NotApplicable { reason: String },
    #[error(
        "`{name}` has no type annotation naming a declaration of the workspace: the type is inferred (lingo does not infer types) or built into the language"
    )]
    TypeNotWritten { name: String },
    /// `paths_between` with the same symbol at both ends.
    #[error("{}", lingo_resolve::graph::render::SAME_SYMBOL)]
    SameSymbol,
    /// A search query that is empty or not a valid regular expression.
    #[error("invalid query: {reason}")]
    InvalidQuery { reason: String },
    #[error("unknown symbol kind `{kind}`")]
    UnknownKind {
        kind: String,
        /// Known kinds close to the one asked for.
        nearby: Vec<String>,
    },
    /// A chunk id that is not `path:line:name`.
    #[error("`{chunk}` is not a chunk id (`path:line:name`)")]
    MalformedChunk { chunk: String },
    /// The file's plugin failed to answer.
    #[error(transparent)]
    Plugin(#[from] lingo_runtime::PluginError),
    /// The request's deadline passed or it was cancelled.
    #[error("{0}")]
    Exhausted(#[from] lingo_model::budget::Exhausted),
    #[error("internal error: {0}")]
    Internal(String),
}

/// What is wrong with a position: a line the file does not have, or a
/// character past the end of a line it has.
pub fn position_message(
    path: &str,
    field: &str,
    line: u64,
    character: u64,
    line_count: usize,
) -> String {
    if field == "line" {
        format!("line {line} is outside `{path}` ({line_count} lines)")
    } else {
        format!("character {character} is past the end of line {line} of `{path}`")
    }
}
