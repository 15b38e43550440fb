//! `analyze.documentation`: declarations without a doc comment (`missing`)
//! and, per file, the share of declarations that have one (`coverage`),
//! from the plugins' facts (each symbol's doc comment as the language
//! writes it). Public declarations only unless `visibility: all`.
//! `todos`: per file, the technical-debt comments (`TODO`, `FIXME`,
//! `HACK`... opening a comment line, from the plugins' comment tokens), at
//! the severity of the worst, with `todo_count`.

use std::sync::Arc;

use serde_json::{Map, json};

use super::{Found, Severity, declaration_finding, entry_points_of, share_finding};
use lingo_index::FileEntry;
use lingo_model::{EntryPointKind, FileFacts, SymbolKind, Visibility};

/// The kinds served.
pub const DOCUMENTATION_KINDS: &[&str] = &["missing", "coverage", "todos"];

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
    if kind == "todos" {
        return todos(files);
    }
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
            if let (Some(&first), false) = (judged.first(), undocumented.is_empty()) {
                let documented = judged.len() - undocumented.len();
                let mut metrics = Map::new();
                metrics.insert("documented".into(), json!(documented));
                metrics.insert("declarations".into(), json!(judged.len()));
                findings.push(share_finding(
                    file,
                    facts,
                    (first, "documentation_coverage"),
                    (documented, judged.len(), 0.25),
                    metrics,
                    "declarations are documented",
                ));
            }
            continue;
        }
        for index in undocumented {
            findings.push(declaration_finding(
                file,
                facts,
                index,
                ("missing_documentation", Severity::Low),
                Map::new(),
                |name| format!("`{name}` has no doc comment"),
            ));
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
    let exempt = entry_points_of(
        facts,
        &[
            EntryPointKind::Test,
            EntryPointKind::Benchmark,
            EntryPointKind::Implementation,
        ],
    );
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

/// One finding per file with debt comments, at its first (worst) one.
fn todos(files: &[Arc<FileEntry>]) -> Found {
    let lexed = super::lex_files(files);
    let found = super::debt(&lexed);
    let mut by_file: std::collections::BTreeMap<&str, Vec<&super::DebtItem>> =
        std::collections::BTreeMap::new();
    for item in &found.items {
        by_file
            .entry(item.file_path.as_str())
            .or_default()
            .push(item);
    }
    let findings = by_file
        .into_iter()
        .map(|(path, mut items)| {
            items.sort_by_key(|i| (i.severity, i.line));
            let worst = items[0];
            let mut metrics = Map::new();
            metrics.insert("todo_count".into(), json!(items.len()));
            metrics.insert(
                "markers".into(),
                json!(items.iter().take(10).map(|i| json!({
                    "line": i.line, "marker": i.marker, "category": i.category, "text": i.text,
                })).collect::<Vec<_>>()),
            );
            let point = lingo_analysis::RangePoint {
                line: worst.line - 1,
                character: 0,
            };
            super::Finding {
                id: String::new(),
                kind: "todo_comments",
                severity: worst.severity,
                location: super::Location {
                    file_path: path.to_string(),
                    range: lingo_analysis::Range {
                        start: point,
                        end: point,
                    },
                },
                symbol: None,
                metrics,
                message: format!("{} debt comments, the worst: {}", items.len(), worst.text),
                suggestions: Vec::new(),
            }
        })
        .collect();
    let mut incomplete_reasons = lexed.incomplete_reasons;
    incomplete_reasons.extend(
        lexed
            .unread
            .iter()
            .map(|u| format!("{}: comments not read ({})", u.file_path, u.reason)),
    );
    Found {
        findings,
        files_analyzed: lexed.read.len(),
        symbols_analyzed: 0,
        thresholds: Map::new(),
        incomplete_reasons,
    }
}
