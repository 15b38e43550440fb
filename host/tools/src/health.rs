//! `health_check` and its Roslyn-shaped twin `diagnose`: plugins, workspace
//! state, counts, errors and warnings.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use super::{About, Tool, ToolContext, output, text};
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

pub fn health_check() -> Tool {
    Tool::new(
        About {
            name: "health_check",
            aliases: &["healthCheck", "health"],
            description: "Server health: loaded language plugins with versions and capabilities, plugins refused at load, workspace state with file and symbol counts, errors and warnings.",
            text: text::health,
            output_schema: output::health(),
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
            text: text::health,
            output_schema: output::health(),
        },
        run_diagnose,
    )
}

fn run_diagnose(
    context: &ToolContext,
    (health, args): (HealthArgs, DiagnoseArgs),
) -> Result<Value, ToolError> {
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
        value["workspace"]["solutionPath"] = json!(relative);
        value["workspace"]["solutionLoaded"] = json!(true);
    }
    Ok(value)
}

fn run(context: &ToolContext, args: HealthArgs) -> Result<Value, ToolError> {
    let verbose = args.verbose;
    let workspace = &context.workspace;
    // Health answers at once, whatever the index is doing.
    let snapshot = workspace.fresh_within(lingo_index::FILE_WAIT);
    let registry = workspace.registry();
    let plugins: Vec<Value> = registry
        .plugins()
        .iter()
        .map(|p| {
            let info = p.info();
            json!({
                "name": info.name,
                "version": info.version,
                "abiVersion": info.abi_version,
                "languages": info.languages,
                "extensions": info.extensions,
                "capabilities": info.capabilities,
                "origin": p.origin(),
                "health": p.health(),
            })
        })
        .collect();
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
        "Indexing"
    } else if workspace.is_refreshing() {
        "Refreshing"
    } else {
        "Ready"
    };
    let mut workspace_json = json!({
        "state": state,
        "indexing": snapshot.partial,
        "failedFiles": failed_files,
        "repairedFiles": repaired_files,
        "root": workspace.root().display().to_string(),
        "projectId": workspace.project_id(),
        "generation": snapshot.generation,
        "fileCount": snapshot.files.len(),
        "documentCount": snapshot.files.len(),
        "symbolCount": snapshot.symbol_count(),
        "filesWithSyntaxErrors": files_with_syntax_errors,
    });
    if verbose {
        workspace_json["languages"] = json!(by_language);
        workspace_json["lastRefresh"] = json!(workspace.last_refresh());
        workspace_json["initialRefresh"] = json!(workspace.initial_refresh());
        workspace_json["indexDatabase"] =
            json!(workspace.store_path().map(|p| p.display().to_string()));
        workspace_json["watching"] = json!(workspace.is_watching());
    }
    Ok(json!({
        "healthy": errors.is_empty(),
        "components": {
            "server": { "name": "lingo", "version": env!("CARGO_PKG_VERSION") },
            "pluginAbi": lingo_runtime::ABI_VERSION,
            "supportedPluginAbis": lingo_runtime::SUPPORTED_ABI,
            "plugins": plugins,
        },
        "workspace": workspace_json,
        "capabilities": context.tool_names,
        "extensionConflicts": registry.conflicts(),
        "errors": errors,
        "warnings": warnings,
        "warningsOmitted": (failed_files + repaired_files + registry.conflicts().len()).saturating_sub(warnings.len()),
    }))
}

/// Warnings listed at most; the rest are counted.
const MAX_WARNINGS: usize = 100;
