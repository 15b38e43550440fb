//! `health_check` and its Roslyn-shaped twin `diagnose`: plugins, workspace
//! state, counts, errors and warnings.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::target::to_json;
use super::{About, Tool, ToolContext, text};
use crate::args::Group;
use crate::error::ToolError;
use lingo_runtime::PluginHealth;

#[derive(Deserialize, JsonSchema)]
struct HealthArgs {
    /// Include per-language file counts and the last refresh statistics
    #[serde(default)]
    verbose: bool,
}

impl Group for HealthArgs {}

/// `diagnose`'s arguments (roslyn-move-contracts.md's).
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct DiagnoseArgs {
    /// A solution (or project) file to check: it must be a file inside the served workspace, whose every file lingo indexes; answered as workspace.solutionPath
    solution_path: Option<String>,
}

impl Group for DiagnoseArgs {}

/// The answer: the server's parts, the workspace's state, and what is wrong.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Health {
    pub healthy: bool,
    pub components: Components,
    pub workspace: WorkspaceState,
    /// The tools served.
    capabilities: Vec<&'static str>,
    extension_conflicts: Value,
    /// Each a `code` and `message`, and what the code adds.
    #[schemars(with = "Vec<Value>")]
    pub errors: Vec<Problem>,
    #[schemars(with = "Vec<Value>")]
    pub warnings: Vec<Problem>,
    pub warnings_omitted: usize,
}

/// An error or warning: a `code` and `message`, and what the code adds.
#[derive(Serialize)]
pub struct Problem {
    pub code: &'static str,
    /// The code of the error that kept a file from being analysed.
    #[serde(skip_serializing_if = "Option::is_none")]
    cause: Option<&'static str>,
    pub message: String,
    /// The file it is about.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// What the code adds.
    #[serde(flatten)]
    more: Map<String, Value>,
}

impl Problem {
    /// A problem `code`, saying `message`.
    fn new(code: &'static str, message: impl Into<String>) -> Problem {
        Problem {
            code,
            cause: None,
            message: message.into(),
            path: None,
            more: Map::new(),
        }
    }

    /// The same problem, caused by an error with code `cause`.
    fn caused_by(self, cause: &'static str) -> Problem {
        Problem {
            cause: Some(cause),
            ..self
        }
    }

    /// The same problem, about the file at `path`.
    fn at(self, path: &str) -> Problem {
        Problem {
            path: Some(path.to_string()),
            ..self
        }
    }

    /// The same problem, with `key` saying `value` too.
    fn with(mut self, key: &str, value: Value) -> Problem {
        self.more.insert(key.to_string(), value);
        self
    }
}

/// The server and its plugins.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Components {
    pub server: Server,
    pub plugin_abi: &'static str,
    supported_plugin_abis: &'static [&'static str],
    pub plugins: Vec<PluginEntry>,
}

#[derive(Serialize, JsonSchema)]
pub struct Server {
    name: &'static str,
    pub version: &'static str,
}

/// A loaded plugin.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PluginEntry {
    pub name: String,
    pub version: String,
    pub abi_version: String,
    languages: Vec<String>,
    pub extensions: Vec<String>,
    capabilities: Vec<String>,
    origin: Value,
    // What its calls did, when it tracks them: a runtime type without a
    // schema, so any value.
    #[schemars(with = "Value")]
    pub health: Option<PluginHealth>,
}

/// The index: its state and counts (more when `verbose`).
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct WorkspaceState {
    pub state: IndexState,
    indexing: Value,
    pub failed_files: usize,
    repaired_files: usize,
    pub root: String,
    pub project_id: String,
    pub generation: u64,
    pub file_count: usize,
    document_count: usize,
    pub symbol_count: usize,
    pub files_with_syntax_errors: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    languages: Option<BTreeMap<String, usize>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    last_refresh: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    initial_refresh: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    index_database: Option<Option<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    watching: Option<bool>,
    /// `diagnose`'s solution, a file of the workspace.
    #[serde(skip_serializing_if = "Option::is_none")]
    solution_path: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    solution_loaded: Option<bool>,
}

/// Whether the index is being built, refreshed, or ready.
#[derive(Debug, Clone, Copy, Serialize, JsonSchema)]
pub enum IndexState {
    Indexing,
    Refreshing,
    Ready,
}

impl IndexState {
    /// The state's name (as serialized).
    pub fn as_str(self) -> &'static str {
        match self {
            IndexState::Indexing => "Indexing",
            IndexState::Refreshing => "Refreshing",
            IndexState::Ready => "Ready",
        }
    }
}

pub fn health_check() -> Tool {
    Tool::new(
        About {
            name: "health_check",
            aliases: &["healthCheck", "health"],
            description: "Server health: the language plugins loaded (versions, capabilities) or refused, the index state with file and symbol counts, errors and warnings.",
            text: text::health,
        },
        run,
    )
}

pub fn diagnose() -> Tool {
    Tool::new(
        About {
            name: "diagnose",
            aliases: &[],
            description: "Environment and workspace health: the same report as health_check.",
            text: text::health,
        },
        run_diagnose,
    )
}

fn run_diagnose(
    context: &ToolContext,
    (health, args): (HealthArgs, DiagnoseArgs),
) -> Result<Health, ToolError> {
    let solution = match &args.solution_path {
        Some(path) => {
            let relative = context.workspace.resolve(path)?;
            if !context.workspace.root().join(&relative).is_file() {
                return Err(ToolError::FileNotFound {
                    path: path.clone(),
                    suggestions: Vec::new(),
                });
            }
            Some(relative)
        }
        None => None,
    };
    let mut value = run(context, health)?;
    if let Some(relative) = solution {
        // The solution's projects are files of the workspace lingo serves.
        value.workspace.solution_path = Some(relative);
        value.workspace.solution_loaded = Some(true);
    }
    Ok(value)
}

fn run(context: &ToolContext, args: HealthArgs) -> Result<Health, ToolError> {
    let verbose = args.verbose;
    let workspace = &context.workspace;
    // Health answers at once, whatever the index is doing.
    let snapshot = workspace.fresh_within(lingo_index::FILE_WAIT);
    let registry = workspace.registry();
    let plugins = registry
        .plugins()
        .iter()
        .map(|p| {
            let info = p.info();
            Ok(PluginEntry {
                name: info.name.clone(),
                version: info.version.clone(),
                abi_version: info.abi_version.clone(),
                languages: info.languages.clone(),
                extensions: info.extensions.clone(),
                capabilities: info.capabilities.clone(),
                origin: to_json(&p.origin())?,
                health: p.health(),
            })
        })
        .collect::<Result<Vec<_>, ToolError>>()?;
    let mut errors: Vec<Problem> = registry
        .failures()
        .iter()
        .map(|f| Problem::new(f.code, f.message.clone()).with("origin", json!(f.origin)))
        .collect();
    for plugin in registry.plugins() {
        if let Some(health) = plugin.health().filter(|h| !h.healthy) {
            errors.push(
                Problem::new(
                    "PLUGIN_UNHEALTHY",
                    format!(
                        "plugin `{}` failed recently or has operations switched off",
                        plugin.info().name
                    ),
                )
                .with("origin", json!(plugin.origin()))
                .with("health", to_json(&health)?),
            );
        }
    }
    if registry.plugins().is_empty() {
        errors.push(Problem::new("NO_PLUGINS", "no language plugin is loaded"));
    }
    let mut warnings: Vec<Problem> = registry
        .conflicts()
        .iter()
        .map(|c| {
            Problem::new(
                "EXTENSION_CONFLICT",
                format!(
                    "plugins {} also claim `.{}`; `{}` handles it ({}; set `[extensions]` in lingo.toml to choose)",
                    c.others.join(", "), c.extension, c.winner, c.decided_by
                ),
            )
            .with("extension", json!(c.extension))
            .with("winner", json!(c.winner))
            .with("others", json!(c.others))
        })
        .collect();
    let mut by_language: BTreeMap<String, usize> = BTreeMap::new();
    let mut files_with_syntax_errors = 0;
    let (mut failed_files, mut repaired_files) = (0usize, 0usize);
    for file in snapshot.files.values() {
        match &file.facts {
            Ok(facts) => {
                *by_language.entry(facts.language.clone()).or_default() += 1;
                files_with_syntax_errors += usize::from(!facts.diagnostics.is_empty());
            }
            Err(error) => {
                failed_files += 1;
                if warnings.len() < MAX_WARNINGS {
                    warnings.push(
                        Problem::new("FILE_NOT_ANALYZED", error.to_string())
                            .caused_by(error.code())
                            .at(&file.path)
                            .with("details", error.details()),
                    );
                }
            }
        }
        if !file.repairs.is_empty() {
            repaired_files += 1;
            if warnings.len() < MAX_WARNINGS {
                warnings.push(
                    Problem::new(
                        lingo_model::validate::INVALID_OUTPUT_CODE,
                        format!(
                            "the plugin's facts for this file broke rules and were repaired: {}",
                            file.repairs.join("; ")
                        ),
                    )
                    .at(&file.path)
                    .with("plugin", json!(file.plugin.info().name))
                    .with("rules", json!(file.repairs)),
                );
            }
        }
    }
    let state = if snapshot.partial.is_some() {
        IndexState::Indexing
    } else if workspace.is_refreshing() {
        IndexState::Refreshing
    } else {
        IndexState::Ready
    };
    let mut workspace_state = WorkspaceState {
        state,
        indexing: to_json(&snapshot.partial)?,
        failed_files,
        repaired_files,
        root: workspace.root().display().to_string(),
        project_id: workspace.project_id(),
        generation: snapshot.generation,
        file_count: snapshot.files.len(),
        document_count: snapshot.files.len(),
        symbol_count: snapshot.symbol_count(),
        files_with_syntax_errors,
        languages: None,
        last_refresh: None,
        initial_refresh: None,
        index_database: None,
        watching: None,
        solution_path: None,
        solution_loaded: None,
    };
    if verbose {
        workspace_state.languages = Some(by_language);
        workspace_state.last_refresh = Some(to_json(&workspace.last_refresh())?);
        workspace_state.initial_refresh = Some(to_json(&workspace.initial_refresh())?);
        workspace_state.index_database =
            Some(workspace.store_path().map(|p| p.display().to_string()));
        workspace_state.watching = Some(workspace.is_watching());
    }
    Ok(Health {
        healthy: errors.is_empty(),
        components: Components {
            server: Server {
                name: "lingo",
                version: env!("CARGO_PKG_VERSION"),
            },
            plugin_abi: lingo_runtime::ABI_VERSION,
            supported_plugin_abis: lingo_runtime::SUPPORTED_ABI,
            plugins,
        },
        workspace: workspace_state,
        capabilities: context.tool_names.clone(),
        extension_conflicts: to_json(&registry.conflicts())?,
        errors,
        warnings_omitted: (failed_files + repaired_files + registry.conflicts().len())
            .saturating_sub(warnings.len()),
        warnings,
    })
}

/// Warnings listed at most; the rest are counted.
const MAX_WARNINGS: usize = 100;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_index_state_is_named_as_its_answer_spells_it() {
        for state in [
            IndexState::Indexing,
            IndexState::Refreshing,
            IndexState::Ready,
        ] {
            assert_eq!(
                serde_json::to_value(state).ok(),
                Some(json!(state.as_str()))
            );
        }
    }
}
