//! `analyze.structure`: how the code is built, from the plugins'
//! declarations and the graph's certain `extends` / `implements` edges.
//!
//! - `symbols`: per file, its declarations counted by kind (low).
//! - `hierarchy`: declarations with more than `max_children` direct
//!   members (default 20): medium, high at twice.
//! - `interfaces`: each interface or trait with how many declarations of
//!   the workspace certainly implement or extend it (low; `implementation_
//!   count` 0 may mean it is implemented outside the workspace).
//! - `inheritance`: types whose chain of supertypes is deeper than
//!   `max_inheritance_depth` (default 3): medium.
//! - `modules`: per module, its files and declarations (low).
//!
//! `options.symbol_kinds` (lowercase LSP kinds) keeps some kinds;
//! `options.include_private` (default false) counts private declarations.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

use petgraph::Direction;
use serde_json::{Map, Value, json};

use super::{Finding, Found, Location, Severity, declaration_finding, kind_word};
use lingo_analysis::Analysis;
use lingo_index::FileEntry;
use lingo_model::budget::Exhausted;
use lingo_model::{SymbolKind, Visibility};
use lingo_resolve::SymbolRef;
use lingo_resolve::graph::{EdgeKind, Node};

/// The kinds served.
pub const STRUCTURE_KINDS: &[&str] = &[
    "symbols",
    "hierarchy",
    "interfaces",
    "inheritance",
    "modules",
];

/// What a structure analysis counts and judges by.
#[derive(Debug, Clone)]
pub struct StructureOptions {
    pub max_children: f64,
    pub max_inheritance_depth: f64,
    /// Lowercase LSP kinds kept; all when empty.
    pub symbol_kinds: Vec<String>,
    pub include_private: bool,
}

impl Default for StructureOptions {
    fn default() -> Self {
        StructureOptions {
            max_children: 20.0,
            max_inheritance_depth: 3.0,
            symbol_kinds: Vec::new(),
            include_private: false,
        }
    }
}

impl StructureOptions {
    pub const THRESHOLD_KEYS: [&'static str; 2] = ["max_children", "max_inheritance_depth"];

    /// These with threshold `key` set, or `None` for an unknown key.
    pub fn with(mut self, key: &str, value: f64) -> Option<Self> {
        match key {
            "max_children" => self.max_children = value,
            "max_inheritance_depth" => self.max_inheritance_depth = value,
            _ => return None,
        }
        Some(self)
    }

    fn keeps(&self, kind: SymbolKind, visibility: Visibility) -> bool {
        (self.include_private || visibility == Visibility::Public)
            && (self.symbol_kinds.is_empty() || self.symbol_kinds.contains(&kind_word(kind)))
    }
}

/// The findings of `kind` over `files`.
pub fn structure(
    analysis: &Analysis,
    files: &[Arc<FileEntry>],
    kind: &str,
    options: &StructureOptions,
) -> Result<Found, Exhausted> {
    let findings = match kind {
        "hierarchy" => hierarchy(files, options),
        "interfaces" | "inheritance" => supertypes(analysis, files, kind, options)?,
        "modules" => modules(files, options),
        _ => symbols(files, options),
    };
    let mut thresholds = Map::new();
    thresholds.insert("max_children".into(), json!(options.max_children));
    thresholds.insert(
        "max_inheritance_depth".into(),
        json!(options.max_inheritance_depth),
    );
    Ok(Found {
        findings,
        files_analyzed: files.len(),
        symbols_analyzed: super::symbol_count(files),
        thresholds,
        incomplete_reasons: analysis
            .incompleteness()
            .map(|i| i.incomplete_reasons)
            .unwrap_or_default(),
    })
}

/// A descriptive finding about a whole file or module.
fn whole(path: &str, kind: &'static str, metrics: Map<String, Value>, message: String) -> Finding {
    Finding {
        id: String::new(),
        kind,
        severity: Severity::Low,
        location: Location {
            file_path: path.to_string(),
            range: super::start_of_file(),
        },
        symbol: None,
        metrics,
        message,
        suggestions: Vec::new(),
    }
}

/// Declarations counted by kind, as `3 function, 1 struct`.
fn by_kind<'a>(kinds: impl Iterator<Item = SymbolKind> + 'a) -> (usize, BTreeMap<String, usize>) {
    let mut counts = BTreeMap::new();
    let mut total = 0;
    for kind in kinds {
        *counts.entry(kind_word(kind)).or_default() += 1;
        total += 1;
    }
    (total, counts)
}

fn counted(counts: &BTreeMap<String, usize>) -> String {
    counts
        .iter()
        .map(|(k, n)| format!("{n} {k}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn symbols(files: &[Arc<FileEntry>], options: &StructureOptions) -> Vec<Finding> {
    files
        .iter()
        .filter_map(|file| {
            let facts = file.facts().ok()?;
            let (total, counts) = by_kind(
                facts
                    .symbols
                    .iter()
                    .filter(|s| options.keeps(s.kind, s.visibility))
                    .map(|s| s.kind),
            );
            (total > 0).then(|| {
                let mut metrics = Map::new();
                metrics.insert("child_count".into(), json!(total));
                metrics.insert("by_kind".into(), json!(counts));
                whole(
                    &file.path,
                    "file_symbols",
                    metrics,
                    format!("{total} declarations: {}", counted(&counts)),
                )
            })
        })
        .collect()
}

fn hierarchy(files: &[Arc<FileEntry>], options: &StructureOptions) -> Vec<Finding> {
    let mut findings = Vec::new();
    for file in files {
        let Ok(facts) = file.facts() else { continue };
        let mut children: HashMap<u32, usize> = HashMap::new();
        for symbol in &facts.symbols {
            if let Some(parent) = symbol.container
                && options.keeps(symbol.kind, symbol.visibility)
            {
                *children.entry(parent).or_default() += 1;
            }
        }
        let mut parents: Vec<_> = children.into_iter().collect();
        parents.sort();
        for (parent, count) in parents {
            let severity = if count as f64 > 2.0 * options.max_children {
                Severity::High
            } else if count as f64 > options.max_children {
                Severity::Medium
            } else {
                continue;
            };
            let mut metrics = Map::new();
            metrics.insert("child_count".into(), json!(count));
            findings.push(declaration_finding(
                file,
                facts,
                parent as usize,
                ("large_declaration", severity),
                metrics,
                |name| {
                    format!(
                        "`{name}` has {count} members (at most {})",
                        options.max_children
                    )
                },
            ));
        }
    }
    findings
}

/// Interfaces with their implementations, or types with deep supertype
/// chains, from the graph's certain `extends` / `implements` edges.
fn supertypes(
    analysis: &Analysis,
    files: &[Arc<FileEntry>],
    kind: &str,
    options: &StructureOptions,
) -> Result<Vec<Finding>, Exhausted> {
    let table = analysis.table();
    let graph = analysis.graph()?;
    let index: HashMap<&str, u32> = table
        .files()
        .iter()
        .enumerate()
        .map(|(i, f)| (f.path.as_str(), i as u32))
        .collect();
    let supertype_edges = |node: Node, direction: Direction| -> Vec<Node> {
        let mut seen = HashSet::new();
        graph
            .edges(node, direction)
            .filter(|(e, _)| {
                matches!(e.kind, EdgeKind::Extends | EdgeKind::Implements) && e.confidence() >= 1.0
            })
            .map(|(_, other)| other)
            .filter(|other| seen.insert(*other))
            .collect()
    };
    let mut findings = Vec::new();
    for file in files {
        let (Ok(facts), Some(&file_index)) = (file.facts(), index.get(file.path.as_str())) else {
            continue;
        };
        for (i, symbol) in facts.symbols.iter().enumerate() {
            if !options.keeps(symbol.kind, symbol.visibility) {
                continue;
            }
            let node = Node::Symbol(SymbolRef {
                file: file_index,
                symbol: i as u32,
            });
            if kind == "interfaces" {
                if symbol.kind != SymbolKind::Interface {
                    continue;
                }
                let count = supertype_edges(node, Direction::Incoming).len();
                let mut metrics = Map::new();
                metrics.insert("implementation_count".into(), json!(count));
                findings.push(declaration_finding(
                    file,
                    facts,
                    i,
                    ("interface", Severity::Low),
                    metrics,
                    |name| format!("`{name}` has {count} implementations in the workspace"),
                ));
                continue;
            }
            if !matches!(
                symbol.kind,
                SymbolKind::Class | SymbolKind::Struct | SymbolKind::Interface
            ) {
                continue;
            }
            // The longest chain of supertypes, breadth first by level; a
            // cycle (broken code) ends where a type repeats.
            let mut depth = 0usize;
            let mut level = vec![node];
            let mut seen: HashSet<Node> = HashSet::from([node]);
            while !level.is_empty() && depth <= 64 {
                let next: Vec<Node> = level
                    .iter()
                    .flat_map(|n| supertype_edges(*n, Direction::Outgoing))
                    .filter(|n| seen.insert(*n))
                    .collect();
                if next.is_empty() {
                    break;
                }
                depth += 1;
                level = next;
            }
            if depth as f64 > options.max_inheritance_depth {
                let mut metrics = Map::new();
                metrics.insert("inheritance_depth".into(), json!(depth));
                findings.push(declaration_finding(
                    file,
                    facts,
                    i,
                    ("deep_inheritance", Severity::Medium),
                    metrics,
                    |name| {
                        format!(
                            "`{name}` has {depth} levels of supertypes (at most {})",
                            options.max_inheritance_depth
                        )
                    },
                ));
            }
        }
    }
    Ok(findings)
}

fn modules(files: &[Arc<FileEntry>], options: &StructureOptions) -> Vec<Finding> {
    let mut modules: BTreeMap<String, (Vec<&str>, Vec<SymbolKind>)> = BTreeMap::new();
    for file in files {
        let Ok(facts) = file.facts() else { continue };
        let module = facts
            .modules
            .first()
            .map_or_else(|| file.path.clone(), |m| m.path.clone());
        let entry = modules.entry(module).or_default();
        entry.0.push(&file.path);
        entry.1.extend(
            facts
                .symbols
                .iter()
                .filter(|s| options.keeps(s.kind, s.visibility))
                .map(|s| s.kind),
        );
    }
    modules
        .into_iter()
        .map(|(module, (paths, kinds))| {
            let (total, counts) = by_kind(kinds.into_iter());
            let mut metrics = Map::new();
            metrics.insert("child_count".into(), json!(total));
            metrics.insert("files".into(), json!(paths.len()));
            metrics.insert("by_kind".into(), json!(counts));
            whole(
                paths[0],
                "module",
                metrics,
                format!(
                    "module `{module}`: {} files, {total} declarations{}",
                    paths.len(),
                    if counts.is_empty() {
                        String::new()
                    } else {
                        format!(" ({})", counted(&counts))
                    }
                ),
            )
        })
        .collect()
}
