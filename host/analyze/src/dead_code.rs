//! `analyze.dead_code`: unused symbols and types from the analysis layer's
//! dead-code judgement, unused imports by `delete`'s rules. A declaration
//! is reported dead (medium) only when nothing in the whole workspace uses
//! or even names it and the index saw every file; one no reference
//! resolves to but whose name is written elsewhere is reported low, as
//! "unreferenced as far as lingo can see", with the places.

use std::collections::HashSet;
use std::sync::Arc;

use serde_json::{Map, Value, json};

use super::{
    Finding, Found, Location, RefactorCall, Severity, Suggestion, SymbolIdentifier, kind_word,
    symbol_count,
};
use lingo_analysis::{Analysis, DeadDeclaration, Range};
use lingo_index::FileEntry;
use lingo_model::budget::Exhausted;

/// The kinds served.
pub const DEAD_CODE_KINDS: &[&str] = &[
    "unused_symbols",
    "unused_types",
    "unused_imports",
    "unused_variables",
    "unused_parameters",
    "unreachable_code",
];

/// Kinds of declaration reported as types.
const TYPE_KINDS: &[&str] = &["class", "struct", "enum", "interface"];

/// The dead code of `files` of kind `kind` (one of [`DEAD_CODE_KINDS`]).
pub fn dead_code(
    analysis: &Analysis,
    files: &[Arc<FileEntry>],
    kind: &str,
) -> Result<Found, Exhausted> {
    if kind == "unreachable_code" {
        return Ok(super::unreachable::unreachable_code(files));
    }
    if matches!(kind, "unused_variables" | "unused_parameters") {
        return Ok(Found {
            findings: super::unused_locals::unused_locals(files, kind == "unused_parameters"),
            files_analyzed: files.len(),
            symbols_analyzed: symbol_count(files),
            thresholds: Map::new(),
            incomplete_reasons: Vec::new(),
        });
    }
    let mut findings = Vec::new();
    let mut incomplete_reasons = Vec::new();
    if kind == "unused_imports" {
        for unused in lingo_refactor::unused_imports(analysis, files) {
            let what = match &unused.name {
                Some(name) => format!("`{name}` of `{}`", unused.module_path),
                None => format!("`{}`", unused.module_path),
            };
            let (severity, message, suggestions) = if unused.certain {
                (
                    Severity::Low,
                    format!("import {what} is not used"),
                    vec![delete_call(
                        "unused_imports",
                        &unused.path,
                        "remove the file's unused imports",
                    )],
                )
            } else {
                (
                    Severity::Low,
                    format!(
                        "import {what} names nothing the file mentions, but may serve member calls lingo cannot resolve (a trait or extension methods)"
                    ),
                    Vec::new(),
                )
            };
            findings.push(Finding {
                id: String::new(),
                kind: "unused_import",
                severity,
                location: Location {
                    file_path: unused.path.clone(),
                    range: Range::from(&unused.span),
                },
                symbol: None,
                metrics: metrics(1, unused.certain),
                message,
                suggestions,
            });
        }
    } else {
        let types = kind == "unused_types";
        let judged = analysis.dead_code(files, &HashSet::new())?;
        if let Some(incomplete) = &judged.incompleteness {
            incomplete_reasons.extend(incomplete.incomplete_reasons.iter().cloned());
        }
        if !judged.unjudged_files.is_empty() {
            incomplete_reasons.push(format!(
                "{} files are not judged: their plugin does not say which declarations are entry points",
                judged.unjudged_files.len()
            ));
        }
        let wanted = |d: &DeadDeclaration| TYPE_KINDS.contains(&d.kind) == types;
        let certain = judged.incompleteness.is_none();
        for dead in judged.dead.iter().filter(|d| wanted(d)) {
            let severity = if certain {
                Severity::Medium
            } else {
                Severity::Low
            };
            findings.push(Finding {
                id: String::new(),
                kind: if types {
                    "unused_type"
                } else {
                    "unused_symbol"
                },
                severity,
                location: location(dead),
                symbol: Some(identifier(analysis, dead)),
                metrics: metrics(0, certain),
                message: format!(
                    "`{}` is private and nothing in the workspace uses or names it{}",
                    dead.qualified_name,
                    if certain {
                        ""
                    } else {
                        " (as far as lingo can see: the index is incomplete)"
                    }
                ),
                suggestions: vec![delete_call(
                    "dead_code",
                    &dead.file_path,
                    "delete the file's dead code (this declaration and what only it uses)",
                )],
            });
        }
        for kept in judged.kept.iter().filter(|k| wanted(&k.declaration)) {
            let dead = &kept.declaration;
            let mut metrics = metrics(kept.mentions, false);
            metrics.insert("named_at".into(), json!(kept.mentioned_at));
            findings.push(Finding {
                id: String::new(),
                kind: if types { "unused_type" } else { "unused_symbol" },
                severity: Severity::Low,
                location: location(dead),
                symbol: Some(identifier(analysis, dead)),
                metrics,
                message: format!(
                    "`{}` is unreferenced as far as lingo can see, but its name is written at {} place(s) (a macro, a string, a same-named use): {}",
                    dead.qualified_name,
                    kept.mentions,
                    kept.mentioned_at.join(", ")
                ),
                suggestions: vec![Suggestion {
                    action: "review",
                    description: "check whether the places that name it use it".into(),
                    estimated_impact: None,
                    refactor_call: None,
                }],
            });
        }
    }
    Ok(Found {
        findings,
        files_analyzed: files.len(),
        symbols_analyzed: symbol_count(files),
        thresholds: Map::new(),
        incomplete_reasons,
    })
}

fn location(dead: &DeadDeclaration) -> Location {
    Location {
        file_path: dead.file_path.clone(),
        range: dead.range,
    }
}

fn identifier(analysis: &Analysis, dead: &DeadDeclaration) -> SymbolIdentifier {
    let file = analysis.table().file(dead.symbol);
    let facts = file.facts().ok();
    SymbolIdentifier {
        symbol: dead.qualified_name.clone(),
        symbol_kind: facts
            .and_then(|f| f.symbols.get(dead.symbol.symbol as usize))
            .map_or_else(|| dead.kind.to_string(), |s| kind_word(s.kind)),
        language: facts.map(|f| f.language.clone()).unwrap_or_default(),
    }
}

/// `occurrences` and whether the finding is certain.
fn metrics(occurrences: usize, certain: bool) -> Map<String, Value> {
    let mut metrics = Map::new();
    metrics.insert("occurrences".into(), json!(occurrences.max(1)));
    metrics.insert("certain".into(), json!(certain));
    metrics
}

/// The `delete` call of `kind` on `path`.
fn delete_call(kind: &str, path: &str, description: &str) -> Suggestion {
    Suggestion {
        action: "delete",
        description: description.to_string(),
        estimated_impact: None,
        refactor_call: Some(RefactorCall {
            command: "delete",
            arguments: json!({ "kind": kind, "path": path }),
        }),
    }
}
