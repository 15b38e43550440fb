//! Tool errors: typed, each with a stable code, the field at fault and
//! suggestions, rendered in the error shape of roslyn-move-contracts.md §2.

use lingo_analysis::AnalysisError;
use lingo_index::WorkspaceError;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Value, json};

use lingo_runtime::PluginError;

#[derive(Debug, thiserror::Error)]
pub enum ToolError {
    #[error("missing required parameter `{field}`")]
    MissingParam { field: String },
    #[error("parameter `{field}` is invalid: {reason}")]
    InvalidParam {
        field: String,
        reason: String,
        suggestions: Vec<String>,
    },
    #[error("unknown parameter `{field}`")]
    UnknownParam {
        field: String,
        allowed: Vec<String>,
        suggestions: Vec<String>,
    },
    #[error("{}", project_message(.project))]
    ProjectNotFound { project: String, known: Vec<String> },
    /// The caller's token does not allow the action.
    #[error("{action} is not permitted: {reason}")]
    NotPermitted { action: String, reason: String },
    #[error("the quality gate failed: {} ({violations} violations)", failed.join(", "))]
    QualityGateFailed {
        failed: Vec<String>,
        violations: usize,
        /// The whole verdict, for the client that asked to fail on it.
        result: Value,
    },
    #[error("file `{path}` is not in the workspace index")]
    FileNotFound {
        path: String,
        suggestions: Vec<String>,
    },
    #[error("file `{path}` exists but is not indexed: {reason}")]
    FileNotIndexed { path: String, reason: String },
    #[error("path `{path}` is outside the workspace root")]
    PathOutsideBoundary { path: String },
    #[error("no language plugin handles `{path}`")]
    UnsupportedLanguage {
        path: String,
        extensions: Vec<String>,
    },
    #[error("no symbol `{name}` found")]
    SymbolNotFound { name: String, nearby: Vec<String> },
    #[error("`{name}` matches {} declarations; say which one", candidates.len())]
    SymbolAmbiguous {
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
    #[error(
        "`{name}` has no type annotation naming a declaration of the workspace: the type is inferred (lingo does not infer types) or built into the language"
    )]
    TypeNotWritten { name: String },
    /// A graph query the spec rejects, with the spec's own message.
    #[error("{message}")]
    GraphQuery { message: String },
    #[error("{}", lingo_analysis::position_message(.path, .field, *.line, *.character, *.line_count))]
    InvalidPosition {
        path: String,
        /// `line` when the line does not exist, else `character`.
        field: &'static str,
        line: u64,
        character: u64,
        line_count: usize,
        /// Whether the tool counts lines from 1 (`node_at`).
        one_based: bool,
    },
    #[error("no symbol or reference at {line}:{character} in `{path}`")]
    NothingAtPosition {
        path: String,
        line: u32,
        character: u32,
        nearby: Vec<String>,
    },
    #[error("invalid regular expression: {reason}")]
    InvalidQuery { reason: String },
    #[error("the result exceeds the {limit}-byte response limit")]
    ResourceLimitExceeded { limit: usize },
    /// The version history an analysis reads cannot be read.
    #[error("no git history for `{path}`: {reason}")]
    NoHistory { path: String, reason: String },
    #[error("{0}")]
    Exhausted(#[from] lingo_model::budget::Exhausted),
    #[error(transparent)]
    Plugin(#[from] PluginError),
    #[error("internal error: {0}")]
    Internal(String),
    /// A refactoring that cannot be planned, applied or rolled back.
    #[error(transparent)]
    Refactor(lingo_refactor::RefactorError),
    /// Another error, blamed on the argument that carried the bad value
    /// (a tool whose path argument is `file_path`, or a `chunkId` naming a
    /// file and a declaration).
    #[error("{error}")]
    Blamed {
        field: &'static str,
        error: Box<ToolError>,
    },
}

impl ToolError {
    /// Stable machine-readable code (uppercase snake case).
    pub fn code(&self) -> &'static str {
        match self {
            ToolError::MissingParam { .. } => "MISSING_REQUIRED_PARAM",
            ToolError::InvalidParam { .. } => "INVALID_PARAM",
            ToolError::UnknownParam { .. } => "UNKNOWN_PARAM",
            ToolError::ProjectNotFound { .. } => "PROJECT_NOT_FOUND",
            ToolError::NotPermitted { .. } => "PERMISSION_DENIED",
            ToolError::QualityGateFailed { .. } => "QUALITY_GATE_FAILED",
            ToolError::FileNotFound { .. } => "FILE_NOT_FOUND",
            ToolError::FileNotIndexed { .. } => "FILE_NOT_INDEXED",
            ToolError::PathOutsideBoundary { .. } => "PATH_OUTSIDE_BOUNDARY",
            ToolError::UnsupportedLanguage { .. } => "UNSUPPORTED_LANGUAGE",
            ToolError::SymbolNotFound { .. } => "SYMBOL_NOT_FOUND",
            ToolError::SymbolAmbiguous { .. } => "SYMBOL_AMBIGUOUS",
            ToolError::Unresolved { .. } => "SYMBOL_UNRESOLVED",
            ToolError::TypeNotWritten { .. } => "TYPE_NOT_FOUND",
            ToolError::GraphQuery { .. } => "INVALID_QUERY",
            ToolError::InvalidPosition { .. } => "INVALID_LINE_NUMBER",
            ToolError::NothingAtPosition { .. } => "SYMBOL_NOT_FOUND",
            ToolError::InvalidQuery { .. } => "INVALID_QUERY",
            ToolError::ResourceLimitExceeded { .. } => "RESOURCE_LIMIT_EXCEEDED",
            ToolError::NoHistory { .. } => "GIT_HISTORY_UNAVAILABLE",
            ToolError::Exhausted(lingo_model::budget::Exhausted::Cancelled) => "REQUEST_CANCELLED",
            ToolError::Exhausted(lingo_model::budget::Exhausted::DeadlineExceeded) => {
                "REQUEST_TIMEOUT"
            }
            ToolError::Plugin(e) => e.code(),
            ToolError::Internal(_) => "INTERNAL_ERROR",
            ToolError::Refactor(e) => e.code(),
            ToolError::Blamed { error, .. } => error.code(),
        }
    }

    /// This error, blamed on the argument `field` where it blames `from`
    /// (a tool that names its path argument `file_path`).
    pub fn blame(self, from: &str, field: &'static str) -> Self {
        if self.details()["field"] == json!(from) {
            ToolError::Blamed {
                field,
                error: Box::new(self),
            }
        } else {
            self
        }
    }

    pub fn invalid(field: &str, reason: impl Into<String>) -> Self {
        ToolError::InvalidParam {
            field: field.to_string(),
            reason: reason.into(),
            suggestions: Vec::new(),
        }
    }

    fn details(&self) -> Value {
        match self {
            ToolError::MissingParam { field } => json!({ "field": field }),
            ToolError::InvalidParam { field, .. } => json!({ "field": field }),
            ToolError::UnknownParam { field, allowed, .. } => {
                json!({ "field": field, "allowed": allowed })
            }
            ToolError::ProjectNotFound { project, known } => {
                json!({ "field": "projectId", "projectId": project, "knownProjects": known })
            }
            ToolError::NotPermitted { action, .. } => json!({ "action": action }),
            ToolError::QualityGateFailed { failed, result, .. } => {
                json!({ "field": "fail_on_violation", "failedChecks": failed, "result": result })
            }
            ToolError::FileNotFound { path, .. } => json!({ "field": "path", "path": path }),
            ToolError::FileNotIndexed { path, reason } => {
                json!({ "field": "path", "path": path, "reason": reason })
            }
            ToolError::PathOutsideBoundary { path } => json!({ "field": "path", "path": path }),
            ToolError::UnsupportedLanguage { path, extensions } => {
                json!({ "field": "path", "path": path, "supportedExtensions": extensions })
            }
            ToolError::SymbolNotFound { name, nearby } => {
                json!({ "field": "symbol", "symbolName": name, "nearbySymbols": nearby })
            }
            ToolError::SymbolAmbiguous { name, candidates } => {
                json!({ "field": "symbol", "symbolName": name, "candidates": candidates })
            }
            ToolError::Unresolved {
                name,
                path,
                line,
                character,
                reason,
            } => json!({
                "field": "character", "symbolName": name, "path": path, "line": line, "character": character, "reason": reason
            }),
            ToolError::TypeNotWritten { name } => json!({ "field": "symbol", "symbolName": name }),
            ToolError::GraphQuery { .. } => json!({ "field": "to" }),
            ToolError::InvalidPosition {
                path,
                field,
                line,
                character,
                line_count,
                ..
            } => json!({
                "field": field, "path": path, "line": line, "character": character, "lineCount": line_count
            }),
            ToolError::NothingAtPosition {
                path,
                line,
                character,
                nearby,
            } => json!({
                "field": "character", "path": path, "line": line, "character": character, "nearbySymbols": nearby
            }),
            ToolError::InvalidQuery { .. } => json!({ "field": "query" }),
            ToolError::ResourceLimitExceeded { limit } => json!({ "limitBytes": limit }),
            ToolError::NoHistory { path, .. } => json!({ "path": path }),
            ToolError::Plugin(e) => e.details(),
            ToolError::Exhausted(_) | ToolError::Internal(_) => json!({}),
            ToolError::Refactor(e) => e.details(),
            ToolError::Blamed { field, error } => {
                let mut details = error.details();
                details["field"] = json!(field);
                details
            }
        }
    }

    fn suggestions(&self) -> Vec<String> {
        match self {
            ToolError::InvalidParam { suggestions, .. } => suggestions.clone(),
            ToolError::UnknownParam { suggestions, .. } => suggestions
                .iter()
                .map(|s| format!("Did you mean `{s}`?"))
                .collect(),
            ToolError::FileNotFound { suggestions, .. } => {
                let mut out: Vec<String> = suggestions
                    .iter()
                    .map(|s| format!("Did you mean {s}?"))
                    .collect();
                out.push("Paths are relative to the workspace root, with `/` separators".into());
                out
            }
            ToolError::ProjectNotFound { known, .. } => {
                let mut out: Vec<String> = known
                    .iter()
                    .take(5)
                    .map(|id| format!("Use projectId `{id}`"))
                    .collect();
                out.push("`list_projects` lists the projects this token may use".into());
                out
            }
            ToolError::PathOutsideBoundary { .. } => {
                vec!["Use a path relative to the workspace root, without `..` leaving it".into()]
            }
            ToolError::SymbolNotFound { nearby, .. }
            | ToolError::NothingAtPosition { nearby, .. } => {
                let mut out = vec!["Check the spelling of the symbol name".to_string()];
                out.extend(nearby.iter().take(3).map(|s| format!("Did you mean {s}?")));
                out
            }
            ToolError::SymbolAmbiguous { candidates, .. } => ambiguity_suggestions(candidates),
            ToolError::Unresolved { .. } => vec![
                "The declaration may live in a dependency outside the workspace".into(),
                "Try `search_symbols` with the name to see same-named declarations".into(),
            ],
            ToolError::TypeNotWritten { .. } => {
                vec!["Use find_definition on the initializer's constructor or call instead".into()]
            }
            ToolError::InvalidPosition {
                one_based: true,
                line_count,
                ..
            } => vec![format!(
                "Lines count from 1 and columns from 0 here; the file has {line_count} lines"
            )],
            ToolError::InvalidPosition { .. } => vec!["Lines and characters are zero-based".into()],
            ToolError::ResourceLimitExceeded { .. } => {
                vec!["Narrow the query or page with `limit` and `offset`".into()]
            }
            ToolError::NoHistory { .. } => vec![
                "Churn reads the git repository the workspace is in; analyses without churn need none".into(),
            ],
            ToolError::Plugin(PluginError::Timeout { .. }) => {
                vec!["The file may be too large or pathological for the plugin".into()]
            }
            ToolError::Blamed { error, .. } => error.suggestions(),
            ToolError::Refactor(e) => e.suggestions(),
            _ => Vec::new(),
        }
    }

    /// The refusal a client is answered with.
    pub fn refusal(&self) -> Refusal {
        Refusal {
            success: Failed,
            error: RefusalError {
                code: self.code(),
                message: self.to_string(),
                details: self.details(),
                suggestions: self.suggestions(),
            },
        }
    }

    /// `{"success": false, "error": {code, message, details, suggestions}}`.
    pub fn to_json(&self) -> Value {
        self.refusal().to_json()
    }
}

impl Refusal {
    /// The refusal as `structuredContent`.
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).unwrap_or_else(|e| json!({ "success": false, "error": { "code": "INTERNAL_ERROR", "message": e.to_string() } }))
    }

    /// The stable code.
    pub fn code(&self) -> &'static str {
        self.error.code
    }

    /// What went wrong.
    pub fn message(&self) -> &str {
        &self.error.message
    }

    /// What the code adds (the field at fault, the path, the limit, ...),
    /// an object whose fields depend on the code.
    pub fn details(&self) -> &Value {
        &self.error.details
    }

    /// What to try instead.
    pub fn suggestions(&self) -> &[String] {
        &self.error.suggestions
    }
}

/// A refusal as `structuredContent` holds it: every tool's output schema
/// allows it beside the tool's answer.
#[derive(Serialize, JsonSchema)]
pub struct Refusal {
    success: Failed,
    error: RefusalError,
}

/// What went wrong, in [`Refusal`].
#[derive(Serialize, JsonSchema)]
struct RefusalError {
    code: &'static str,
    message: String,
    /// What the code adds (the field at fault, the path, the limit, ...).
    #[schemars(with = "serde_json::Map<String, Value>")]
    details: Value,
    suggestions: Vec<String>,
}

/// `false`, always (a refusal's `success`).
struct Failed;

impl Serialize for Failed {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bool(false)
    }
}

impl JsonSchema for Failed {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "False".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "const": false })
    }
}

/// Why a project was not found: none named, or not one served to the caller.
fn project_message(project: &str) -> String {
    if project.is_empty() {
        "no `projectId` given: every tool here names the project it asks about".into()
    } else {
        format!("project `{project}` is not served here")
    }
}

impl From<WorkspaceError> for ToolError {
    fn from(error: WorkspaceError) -> Self {
        match error {
            WorkspaceError::InvalidPath { reason } => ToolError::invalid("path", reason),
            WorkspaceError::OutsideRoot { path } => ToolError::PathOutsideBoundary { path },
            WorkspaceError::FileNotFound { path, suggestions } => {
                ToolError::FileNotFound { path, suggestions }
            }
            WorkspaceError::FileNotIndexed { path, reason } => {
                ToolError::FileNotIndexed { path, reason }
            }
            WorkspaceError::UnsupportedLanguage { path, extensions } => {
                ToolError::UnsupportedLanguage { path, extensions }
            }
            WorkspaceError::Unreadable(message) => ToolError::Internal(message),
            WorkspaceError::Plugin(e) => ToolError::Plugin(e),
        }
    }
}

impl From<lingo_refactor::RefactorError> for ToolError {
    fn from(error: lingo_refactor::RefactorError) -> Self {
        match error {
            // Finding the target fails as the navigation tools do.
            lingo_refactor::RefactorError::Analysis(e) => e.into(),
            other => ToolError::Refactor(other),
        }
    }
}

/// What picks one of several same-named declarations. When they are all
/// in one file (the request named it already), only a qualified name does:
/// the candidates' own spelling is offered.
fn ambiguity_suggestions(candidates: &[String]) -> Vec<String> {
    let path_of = |candidate: &String| candidate.split(':').next().map(str::to_owned);
    let first_path = candidates.first().and_then(path_of);
    let one_file = first_path.is_some() && candidates.iter().all(|c| path_of(c) == first_path);
    if !one_file {
        return vec![
            "Add `path` to pick the declaration in one file".into(),
            "Or give `path`, `line` and `character` of the declaration".into(),
            "Or qualify the name with its container (`Type::name`, `Type.name`)".into(),
        ];
    }
    let qualified: Vec<&str> = candidates
        .iter()
        .filter_map(|c| c.rsplit(' ').next())
        .filter(|name| name.contains('.'))
        .collect();
    match qualified.as_slice() {
        [] => vec!["Qualify the name with its container (`Type::name`, `Type.name`)".into()],
        names => vec![format!(
            "Qualify the name with its container, as the candidates spell it: {}",
            names
                .iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", ")
        )],
    }
}

impl From<AnalysisError> for ToolError {
    fn from(error: AnalysisError) -> Self {
        match error {
            AnalysisError::Workspace(e) => e.into(),
            AnalysisError::InvalidPosition {
                path,
                field,
                line,
                character,
                line_count,
                one_based,
            } => ToolError::InvalidPosition {
                path,
                field,
                line,
                character,
                line_count,
                one_based,
            },
            AnalysisError::NothingAtPosition {
                path,
                line,
                character,
                nearby,
            } => ToolError::NothingAtPosition {
                path,
                line,
                character,
                nearby,
            },
            AnalysisError::NotFound { name, nearby } => ToolError::SymbolNotFound { name, nearby },
            AnalysisError::Ambiguous { name, candidates } => {
                ToolError::SymbolAmbiguous { name, candidates }
            }
            AnalysisError::Unresolved {
                name,
                path,
                line,
                character,
                reason,
            } => ToolError::Unresolved {
                name,
                path,
                line,
                character,
                reason,
            },
            AnalysisError::NotApplicable { reason } => ToolError::invalid("symbol", reason),
            AnalysisError::TypeNotWritten { name } => ToolError::TypeNotWritten { name },
            AnalysisError::SameSymbol => ToolError::GraphQuery {
                message: lingo_resolve::graph::render::SAME_SYMBOL.to_string(),
            },
            AnalysisError::InvalidQuery { reason } => ToolError::InvalidQuery { reason },
            AnalysisError::UnknownKind { kind, nearby } => ToolError::InvalidParam {
                field: "kinds".into(),
                reason: format!("unknown symbol kind `{kind}`"),
                suggestions: nearby
                    .into_iter()
                    .map(|s| format!("Did you mean `{s}`?"))
                    .collect(),
            },
            AnalysisError::MalformedChunk { chunk } => ToolError::InvalidParam {
                field: "chunkId".into(),
                reason: format!("`{chunk}` is not a chunk id (`path:line:name`)"),
                suggestions: vec!["Take chunk ids from outline or search_symbols results".into()],
            },
            AnalysisError::Plugin(e) => ToolError::Plugin(e),
            AnalysisError::Exhausted(e) => ToolError::Exhausted(e),
            AnalysisError::Internal(message) => ToolError::Internal(message),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_position_error_says_which_part_is_wrong() {
        let position = |field, line, character| ToolError::InvalidPosition {
            path: "src/a.rs".into(),
            field,
            line,
            character,
            line_count: 6377,
            one_based: false,
        };
        assert_eq!(
            position("line", 9000, 0).to_string(),
            "line 9000 is outside `src/a.rs` (6377 lines)"
        );
        assert_eq!(
            position("character", 399, 12).to_string(),
            "character 12 is past the end of line 399 of `src/a.rs`"
        );
    }
}
