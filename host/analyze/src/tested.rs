//! `analyze.tests`: which public functions and methods no test reaches.
//! The tests are the declarations the plugins name as test entry points
//! (`#[test]`, `TestXxx`, `[Fact]`...); a function is reached when a chain
//! of certain calls and references leads to it from one (a static
//! approximation of coverage: a call lingo cannot resolve is not followed,
//! so "untested" may be reached at run time; no coverage file is read).

use std::collections::{HashSet, VecDeque};
use std::sync::Arc;

use petgraph::Direction;
use serde_json::{Map, json};

use super::{Found, Severity, declaration_finding, entry_points_of, share_finding};
use lingo_analysis::{Analysis, SymbolRef};
use lingo_index::FileEntry;
use lingo_model::budget::Exhausted;
use lingo_model::{EntryPointKind, SymbolKind, Visibility};
use lingo_resolve::graph::Node;

/// The kinds served.
pub const TEST_KINDS: &[&str] = &["untested", "coverage"];

/// The test findings of `files`.
pub fn tests(
    analysis: &Analysis,
    files: &[Arc<FileEntry>],
    kind: &str,
) -> Result<Found, Exhausted> {
    let reached = reached_from_tests(analysis)?;
    let table = analysis.table();
    let mut findings = Vec::new();
    let mut symbols_analyzed = 0;
    let tests_found = reached.tests;
    for file in files {
        let Ok(facts) = file.facts() else { continue };
        let Some(number) = table.file_number(&file.path) else {
            continue;
        };
        let tests_here = entry_points_of(facts, &[EntryPointKind::Test]);
        let judged: Vec<usize> = facts
            .symbols
            .iter()
            .enumerate()
            .filter(|(i, s)| {
                matches!(s.kind, SymbolKind::Function | SymbolKind::Method)
                    && s.visibility == Visibility::Public
                    && !tests_here.contains(&(*i as u32))
            })
            .map(|(i, _)| i)
            .collect();
        symbols_analyzed += judged.len();
        let untested: Vec<usize> = judged
            .iter()
            .copied()
            .filter(|&i| {
                !reached.symbols.contains(&SymbolRef {
                    file: number,
                    symbol: i as u32,
                })
            })
            .collect();
        if kind == "coverage" {
            if let Some(&first) = untested.first() {
                let mut metrics = Map::new();
                metrics.insert("missing_tests".into(), json!(untested.len()));
                findings.push(share_finding(
                    file,
                    facts,
                    (first, "test_coverage"),
                    (judged.len() - untested.len(), judged.len(), 0.0),
                    metrics,
                    "public functions are reached from a test",
                ));
            }
            continue;
        }
        for index in untested {
            let mut metrics = Map::new();
            metrics.insert("missing_tests".into(), json!(1));
            findings.push(declaration_finding(
                file,
                facts,
                index,
                ("untested", Severity::Low),
                metrics,
                |name| format!("no test reaches `{name}` through calls lingo resolves"),
            ));
        }
    }
    let mut incomplete_reasons = Vec::new();
    if tests_found == 0 {
        incomplete_reasons.push(
            "no test was found (no plugin named a test entry point): nothing is reached".into(),
        );
    }
    Ok(Found {
        findings,
        files_analyzed: files.len(),
        symbols_analyzed,
        thresholds: Map::new(),
        incomplete_reasons,
    })
}

/// What tests reach.
struct Reached {
    symbols: HashSet<SymbolRef>,
    tests: usize,
}

/// Every declaration a test reaches through certain dependency edges
/// (breadth first from every test and what it contains).
fn reached_from_tests(analysis: &Analysis) -> Result<Reached, Exhausted> {
    let table = analysis.table();
    let graph = analysis.graph()?;
    let mut queue: VecDeque<SymbolRef> = VecDeque::new();
    let mut seen: HashSet<SymbolRef> = HashSet::new();
    let mut tests = 0;
    for (number, file) in table.files().iter().enumerate() {
        let Ok(facts) = file.facts() else { continue };
        let test_symbols = entry_points_of(facts, &[EntryPointKind::Test]);
        tests += test_symbols.len();
        for (index, _) in facts.symbols.iter().enumerate() {
            // A test, or a declaration inside one (a closure's helper).
            let inside_test = std::iter::successors(Some(index as u32), |&i| {
                facts.symbols.get(i as usize).and_then(|s| s.container)
            })
            .take(facts.symbols.len())
            .any(|i| test_symbols.contains(&i));
            if inside_test {
                let r = SymbolRef {
                    file: number as u32,
                    symbol: index as u32,
                };
                if seen.insert(r) {
                    queue.push_back(r);
                }
            }
        }
    }
    // Each declaration is queued once: bounded by the graph's size.
    while let Some(at) = queue.pop_front() {
        for (edge, to) in graph.edges(Node::Symbol(at), Direction::Outgoing) {
            if !edge.kind.is_dependency() || edge.confidence() < 1.0 {
                continue;
            }
            if let Node::Symbol(r) = to
                && seen.insert(r)
            {
                queue.push_back(r);
            }
        }
    }
    Ok(Reached {
        symbols: seen,
        tests,
    })
}
