//! `health_check` and its Roslyn-shaped twin `diagnose`: plugins, workspace
//! state, counts, errors and warnings.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::target::to_json;
use super::{About, Tool, ToolContext, text};
use crate::args::Group;
use crate::error::ToolError;

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
struct Health {
    healthy: bool,
    components: Components,
    workspace: WorkspaceState,
    /// The tools served.
    capabilities: Vec<&'static str>,
    extension_conflicts: Value,
    /// Each a `code` and `message`, and what the code adds.
    errors: Vec<Value>,
    warnings: Vec<Value>,
    warnings_omitted: usize,
}

/// The server and its plugins.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct Components {
    server: Server,
    plugin_abi: &'static str,
    supported_plugin_abis: &'static [&'static str],
    plugins: Vec<PluginEntry>,
}

#[derive(Serialize, JsonSchema)]
struct Server {
    name: &'static str,
    version: &'static str,
}

/// A loaded plugin.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct PluginEntry {
    name: String,
    version: String,
    abi_version: String,
    languages: Vec<String>,
    extensions: Vec<String>,
    capabilities: Vec<String>,
    origin: Value,
    health: Value,
}

/// The index: its state and counts (more when `verbose`).
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct WorkspaceState {
    state: IndexState,
    indexing: Value,
    failed_files: usize,
    repaired_files: usize,
    root: String,
    project_id: String,
    generation: u64,
    file_count: usize,
    document_count: usize,
    symbol_count: usize,
    files_with_syntax_errors: usize,
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
#[derive(Serialize, JsonSchema)]
enum IndexState {
    Indexing,
    Refreshing,
    Ready,
}

pub fn health_check() -> Tool {
    Tool::new(
        About {
            name: "health_check",
            aliases: &["healthCheck", "health"],
            description: "Server health: loaded language plugins with versions and capabilities, plugins refused at load, workspace state with file and symbol counts, errors and warnings.",
            text: text::Text::Json(text::health),
        },
        run,
    )
}

pub fn diagnose() -> Tool {
    Tool::new(
        About {
            name: "diagnose",
            aliases: &[],
            description: "Environment health and workspace status (same report as health_check).",
            text: text::Text::Json(text::health),
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
                health: to_json(&p.health())?,
            })
        })
        .collect::<Result<Vec<_>, ToolError>>()?;
    let mut errors: Vec<Value> = registry
        .failures()
        .iter()
        .map(|f| json!({ "code": f.code, "message": f.message, "origin": f.origin }))
        .collect();
    for plugin in registry.plugins() {
        if let Some(health) = plugin.health().filter(|h| !h.healthy) {
            errors.push(json!({
                "code": "PLUGIN_UNHEALTHY",
                "message": format!("plugin `{}` failed recently or has operations switched off", plugin.info().name),
                "origin": plugin.origin(),
                "health": health,
            }));
        }
    }
    if registry.plugins().is_empty() {
        errors.push(json!({ "code": "NO_PLUGINS", "message": "no language plugin is loaded" }));
    }
    let mut warnings: Vec<Value> = registry
        .conflicts()
        .iter()
        .map(|c| {
            json!({
                "code": "EXTENSION_CONFLICT",
                "message": format!(
                    "plugins {} also claim `.{}`; `{}` handles it ({}; set `[extensions]` in lingo.toml to choose)",
                    c.others.join(", "), c.extension, c.winner, c.decided_by
                ),
                "extension": c.extension,
                "winner": c.winner,
                "others": c.others,
            })
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
                    warnings.push(json!({
                        "code": "FILE_NOT_ANALYZED", "cause": error.code(), "message": error.to_string(), "path": file.path, "details": error.details()
                    }));
                }
            }
        }
        if !file.repairs.is_empty() {
            repaired_files += 1;
            if warnings.len() < MAX_WARNINGS {
                warnings.push(json!({
                    "code": lingo_model::validate::INVALID_OUTPUT_CODE,
                    "message": format!("the plugin's facts for this file broke rules and were repaired: {}", file.repairs.join("; ")),
                    "path": file.path,
                    "plugin": file.plugin.info().name,
                    "rules": file.repairs,
                }));
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
