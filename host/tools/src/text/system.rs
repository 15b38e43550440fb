//! Text of the server's own answers (health) and of answers that are text
//! already (the graph tools), under the budget.

use serde_json::Value;

use super::{Request, Writer, plain, str_of};
use crate::graph_tools::GraphText;

/// `health_check` / `diagnose`: one line for the server and the workspace,
/// one per plugin, then errors and warnings.
pub fn health(value: &Value, request: &Request, writer: &mut Writer) {
    let components = &value["components"];
    let workspace = &value["workspace"];
    let healthy = if value["healthy"].as_bool() == Some(true) {
        "healthy"
    } else {
        "UNHEALTHY"
    };
    writer.always(&format!(
        "lingo {}: {healthy}; plugin ABI {}",
        str_of(&components["server"], "version").unwrap_or("?"),
        str_of(components, "pluginAbi").unwrap_or("?"),
    ));
    writer.always(&format!(
        "workspace {} ({}): {}, {} files, {} symbols, generation {}, {} failed, {} with syntax errors",
        str_of(workspace, "projectId").unwrap_or("?"),
        str_of(workspace, "root").unwrap_or("?"),
        str_of(workspace, "state").unwrap_or("?"),
        workspace["fileCount"].as_u64().unwrap_or(0),
        workspace["symbolCount"].as_u64().unwrap_or(0),
        workspace["generation"].as_u64().unwrap_or(0),
        workspace["failedFiles"].as_u64().unwrap_or(0),
        workspace["filesWithSyntaxErrors"].as_u64().unwrap_or(0),
    ));
    for plugin in components["plugins"].as_array().into_iter().flatten() {
        let extensions: Vec<String> = plugin["extensions"]
            .as_array()
            .into_iter()
            .flatten()
            .map(plain)
            .collect();
        let health = &plugin["health"];
        let state = if health["healthy"].as_bool() == Some(false) {
            format!(
                "UNHEALTHY: {}",
                str_of(health, "lastError").unwrap_or("failing")
            )
        } else {
            "healthy".to_string()
        };
        writer.always(&format!(
            "plugin {} {} (ABI {}, .{}): {state}",
            str_of(plugin, "name").unwrap_or("?"),
            str_of(plugin, "version").unwrap_or("?"),
            str_of(plugin, "abiVersion").unwrap_or("?"),
            extensions.join(" ."),
        ));
    }
    for (key, label) in [("errors", "error"), ("warnings", "warning")] {
        let items = value[key].as_array().cloned().unwrap_or_default();
        let mut shown = 0;
        for item in &items {
            let path = str_of(item, "path")
                .map(|p| format!(" {p}"))
                .unwrap_or_default();
            let line = format!(
                "{label} {}{path}: {}",
                str_of(item, "code").unwrap_or("?"),
                str_of(item, "message").unwrap_or("")
            );
            if !writer.line(&line) {
                break;
            }
            shown += 1;
        }
        if shown < items.len() {
            writer.always(&format!(
                "... {} more {key} (max_tokens {}); structuredContent lists them all",
                items.len() - shown,
                request.max_tokens
            ));
        }
    }
    if let Some(omitted) = value["warningsOmitted"].as_u64().filter(|n| *n > 0) {
        writer.always(&format!("... {omitted} more warnings not listed"));
    }
}

/// The graph tools: their text as they wrote it, cut at the budget.
pub fn graph(answer: &GraphText, request: &Request, writer: &mut Writer) {
    let text = &answer.text;
    if writer.whole(text) {
        return;
    }
    let left_out = writer.cut_whole(text);
    if left_out > 0 {
        writer.always(&format!(
            "... {left_out} more lines left out (max_tokens {}); narrow the question (a smaller depth or limit) or raise max_tokens",
            request.max_tokens
        ));
    }
}
