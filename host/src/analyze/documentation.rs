//! `analyze.documentation`: declarations without a doc comment (`missing`)
//! and, per file, the share of declarations that have one (`coverage`),
//! from the plugins' facts (each symbol's doc comment as the language
//! writes it). Public declarations only unless `visibility: all`.

use std::sync::Arc;

use serde_json::{Map, json};

use super::{Finding, Found, Location, Severity, SymbolIdentifier, kind_word};
use crate::analysis::{Range, qualified_name};
use crate::model::{EntryPointKind, FileFacts, SymbolKind, Visibility};
use crate::workspace::FileEntry;

/// The kinds served.
pub const DOCUMENTATION_KINDS: &[&str] = &["missing", "coverage"];

/// Kinds of declaration that are documented (not fields, locals or
/// parameters; not modules, whose documentation a language may keep in the
/// module's own file).
const DOCUMENTED: &[SymbolKind] = &[
    SymbolKind::Function,
    SymbolKind::Method,
    SymbolKind::Class,
    SymbolKind::Struct,
    SymbolKind::Enum,
    SymbolKind::Interface,
    SymbolKind::Constant,
];

/// The documentation findings of `files`.
pub fn documentation(files: &[Arc<FileEntry>], kind: &str, all: bool) -> Found {
    let mut findings = Vec::new();
    let mut symbols_analyzed = 0;
    for file in files {
        let Ok(facts) = file.facts() else { continue };
        let judged: Vec<usize> = judged(facts, all);
        symbols_analyzed += judged.len();
        let undocumented: Vec<usize> = judged
            .iter()
            .copied()
            .filter(|&i| {
                facts.symbols[i]
                    .doc
                    .as_deref()
                    .is_none_or(|d| d.trim().is_empty())
            })
            .collect();
        if kind == "coverage" {
            if judged.is_empty() {
                continue;
            }
            let ratio = 1.0 - undocumented.len() as f64 / judged.len() as f64;
            if undocumented.is_empty() {
                continue;
            }
            let mut metrics = Map::new();
            metrics.insert(
                "coverage_ratio".into(),
                json!((ratio * 1000.0).round() / 1000.0),
            );
            metrics.insert(
                "documented".into(),
                json!(judged.len() - undocumented.len()),
            );
            metrics.insert("declarations".into(), json!(judged.len()));
            findings.push(Finding {
                id: String::new(),
                kind: "documentation_coverage",
                severity: if ratio < 0.25 {
                    Severity::Medium
                } else {
                    Severity::Low
                },
                location: Location {
                    file_path: file.path.clone(),
                    range: Range::from(&facts.symbols[judged[0]].span),
                },
                symbol: None,
                metrics,
                message: format!(
                    "{} of {} declarations are documented ({:.0}%)",
                    judged.len() - undocumented.len(),
                    judged.len(),
                    ratio * 100.0
                ),
                suggestions: Vec::new(),
            });
            continue;
        }
        for index in undocumented {
            let symbol = &facts.symbols[index];
            let name = qualified_name(file, index, symbol);
            findings.push(Finding {
                id: String::new(),
                kind: "missing_documentation",
                severity: Severity::Low,
                location: Location {
                    file_path: file.path.clone(),
                    range: Range::from(&symbol.span),
                },
                symbol: Some(SymbolIdentifier {
                    symbol: name.clone(),
                    symbol_kind: kind_word(symbol.kind),
                    language: facts.language.clone(),
                }),
                metrics: Map::new(),
                message: format!("`{name}` has no doc comment"),
                suggestions: Vec::new(),
            });
        }
    }
    let mut thresholds = Map::new();
    thresholds.insert(
        "visibility".into(),
        json!(if all { "all" } else { "public" }),
    );
    Found {
        findings,
        files_analyzed: files.len(),
        symbols_analyzed,
        thresholds,
        incomplete_reasons: Vec::new(),
    }
}

/// The declarations of `facts` whose documentation is judged: not tests,
/// benchmarks, or implementations of a member documented where it is
/// declared (a trait's, an interface's, an overridden one).
fn judged(facts: &FileFacts, all: bool) -> Vec<usize> {
    let exempt: Vec<u32> = facts
        .entry_points
        .iter()
        .flatten()
        .filter(|e| {
            matches!(
                e.kind,
                EntryPointKind::Test | EntryPointKind::Benchmark | EntryPointKind::Implementation
            )
        })
        .map(|e| e.symbol)
        .collect();
    facts
        .symbols
        .iter()
        .enumerate()
        .filter(|(i, s)| {
            !exempt.contains(&(*i as u32))
                && DOCUMENTED.contains(&s.kind)
                && (all || s.visibility == Visibility::Public)
                && !s.name.is_empty()
        })
        .map(|(i, _)| i)
        .collect()
}
