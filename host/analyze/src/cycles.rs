//! `analyze.cycles`: the strongly connected components of the module graph
//! and of the declaration graph (from the analysis layer's cycles), each
//! reported with a shortest concrete cycle and the reference that makes
//! each step. A module cycle is medium, high where the language refuses
//! one (its plugin's policy); a cycle of declarations (mutual recursion)
//! is low.

use std::collections::HashSet;
use std::sync::Arc;

use serde_json::{Map, json};

use super::{Finding, Found, Location, Severity};
use lingo_analysis::{Analysis, CycleLevel};
use lingo_index::FileEntry;
use lingo_model::budget::Exhausted;

/// The kinds served.
pub const CYCLE_KINDS: &[&str] = &["modules", "symbols"];

/// The cycles touching `files` of kind `kind` (one of [`CYCLE_KINDS`]).
pub fn cycles(
    analysis: &Analysis,
    files: &[Arc<FileEntry>],
    kind: &str,
) -> Result<Found, Exhausted> {
    let level = if kind == "symbols" {
        CycleLevel::Symbols
    } else {
        CycleLevel::Modules
    };
    let in_scope: HashSet<&str> = files.iter().map(|f| f.path.as_str()).collect();
    let mut findings = Vec::new();
    for cycle in analysis.cycles(level)? {
        let Some(first) = cycle
            .steps
            .iter()
            .find(|s| in_scope.contains(s.file_path.as_str()))
        else {
            continue;
        };
        let refused = level == CycleLevel::Modules
            && cycle.steps.iter().any(|step| {
                analysis
                    .snapshot()
                    .file(&step.file_path)
                    .is_some_and(|f| !f.plugin.info().policy.cyclic_imports)
            });
        let severity = match (level, refused) {
            (CycleLevel::Symbols, _) => Severity::Low,
            (CycleLevel::Modules, true) => Severity::High,
            (CycleLevel::Modules, false) => Severity::Medium,
        };
        let steps: Vec<String> = cycle
            .steps
            .iter()
            .map(|s| {
                format!(
                    "{}:{}:{}",
                    s.file_path,
                    s.range.start.line + 1,
                    s.range.start.character + 1
                )
            })
            .collect();
        let mut metrics = Map::new();
        metrics.insert("circular_path".into(), json!(cycle.path));
        metrics.insert(
            "cycle_length".into(),
            json!(cycle.path.len().saturating_sub(1)),
        );
        metrics.insert("component_size".into(), json!(cycle.members.len()));
        metrics.insert("steps".into(), json!(steps));
        let what = match level {
            CycleLevel::Modules => "modules",
            CycleLevel::Symbols => "declarations",
        };
        findings.push(Finding {
            id: String::new(),
            kind: match level {
                CycleLevel::Modules => "circular_dependency",
                CycleLevel::Symbols => "circular_reference",
            },
            severity,
            location: Location {
                file_path: first.file_path.clone(),
                range: first.range,
            },
            symbol: None,
            metrics,
            message: format!(
                "{what} depend on each other: {}{}{}",
                cycle.path.join(" -> "),
                if cycle.members.len() + 1 > cycle.path.len() {
                    format!(" ({} {what} in the cycle's component)", cycle.members.len())
                } else {
                    String::new()
                },
                if refused {
                    "; the language refuses an import cycle"
                } else {
                    ""
                }
            ),
            // Which declaration to move to break it is a judgement no tool
            // makes: the steps say where the edges are.
            suggestions: Vec::new(),
        });
    }
    Ok(Found {
        findings,
        files_analyzed: files.len(),
        symbols_analyzed: super::symbol_count(files),
        thresholds: Map::new(),
        incomplete_reasons: analysis
            .incompleteness()
            .map(|i| i.incomplete_reasons)
            .unwrap_or_default(),
    })
}
