//! Text of the server's own answers (health) and of answers that are text
//! already (the graph tools), under the budget.

use super::{Request, Writer};
use crate::graph_tools::GraphText;
use crate::health::{Health, Problem};

/// `health_check` / `diagnose`: one line for the server and the workspace,
/// one per plugin, then errors and warnings.
pub fn health(answer: &Health, request: &Request, writer: &mut Writer) {
    let components = &answer.components;
    let workspace = &answer.workspace;
    let healthy = if answer.healthy {
        "healthy"
    } else {
        "UNHEALTHY"
    };
    writer.always(&format!(
        "lingo {}: {healthy}; plugin ABI {}",
        components.server.version, components.plugin_abi,
    ));
    writer.always(&format!(
        "workspace {} ({}): {}, {} files, {} symbols, generation {}, {} failed, {} with syntax errors",
        workspace.project_id,
        workspace.root,
        workspace.state.as_str(),
        workspace.file_count,
        workspace.symbol_count,
        workspace.generation,
        workspace.failed_files,
        workspace.files_with_syntax_errors,
    ));
    for plugin in &components.plugins {
        // Its last failure and what is tripped; counts stay in `health`.
        let state = match plugin.health.as_ref().filter(|h| !h.healthy) {
            None => "healthy".to_string(),
            Some(health) => {
                let mut state = "UNHEALTHY".to_string();
                if let Some(last) = &health.last_error {
                    state.push_str(&format!(
                        "; last error {} in {} {}s ago: {}",
                        last.code,
                        last.operation,
                        last.seconds_ago,
                        last.message.chars().take(200).collect::<String>()
                    ));
                }
                let tripped: Vec<&str> = health
                    .tripped
                    .iter()
                    .map(|t| t.operation.as_str())
                    .collect();
                if !tripped.is_empty() {
                    state.push_str(&format!("; not called for now: {}", tripped.join(", ")));
                }
                state
            }
        };
        writer.always(&format!(
            "plugin {} {} (ABI {}, .{}): {state}",
            plugin.name,
            plugin.version,
            plugin.abi_version,
            plugin.extensions.join(" ."),
        ));
    }
    let lists: [(&[Problem], &str, &str); 2] = [
        (&answer.errors, "errors", "error"),
        (&answer.warnings, "warnings", "warning"),
    ];
    for (problems, plural, label) in lists {
        let mut shown = 0;
        for problem in problems {
            let path = problem
                .path
                .as_ref()
                .map(|p| format!(" {p}"))
                .unwrap_or_default();
            let line = format!("{label} {}{path}: {}", problem.code, problem.message);
            if !writer.line(&line) {
                break;
            }
            shown += 1;
        }
        if shown < problems.len() {
            writer.always(&format!(
                "... {} more {plural} (max_tokens {}); `format: json` lists them all",
                problems.len() - shown,
                request.max_tokens
            ));
        }
    }
    if answer.warnings_omitted > 0 {
        writer.always(&format!(
            "... {} more warnings not listed",
            answer.warnings_omitted
        ));
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
