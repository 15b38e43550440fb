//! Why the index cannot hand out a file: the workspace's own error type
//! (`crate::error` turns it into a tool error at the edge).

use lingo_runtime::PluginError;

#[derive(Debug, Clone, thiserror::Error)]
pub enum WorkspaceError {
    #[error("the path is invalid: {reason}")]
    InvalidPath { reason: &'static str },
    #[error("path `{path}` is outside the workspace root")]
    OutsideRoot { path: String },
    #[error("file `{path}` is not in the workspace index")]
    FileNotFound {
        path: String,
        /// Indexed paths close to the one asked for.
        suggestions: Vec<String>,
    },
    #[error("file `{path}` exists but is not indexed: {reason}")]
    FileNotIndexed { path: String, reason: String },
    #[error("no language plugin handles `{path}`")]
    UnsupportedLanguage {
        path: String,
        /// The extensions the loaded plugins claim.
        extensions: Vec<String>,
    },
    #[error("the file could not be read: {0}")]
    Unreadable(String),
    /// The file's plugin could not analyse it.
    #[error(transparent)]
    Plugin(#[from] PluginError),
}
