//! Dependency cycles: the strongly connected components of the module
//! graph (one module depends on another when a file of it holds a certain
//! reference to an item the other declares; a reference to a module
//! itself, as a path passes it or a parent declares it, is none) and of the declaration graph
//! (certain calls, references, extends and implements between
//! declarations), each with a shortest concrete cycle through it and the
//! reference that makes each step of that cycle.

use std::collections::{HashMap, VecDeque};

use petgraph::algo::tarjan_scc;
use petgraph::graph::{DiGraph, NodeIndex};
use serde::Serialize;

use super::Analysis;
use super::view::{SiteView, qualified_name};
use lingo_model::SymbolKind;
use lingo_model::budget::Exhausted;
use lingo_resolve::SymbolTable;
use lingo_resolve::graph::{Node, Site};

/// Which graph a cycle is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CycleLevel {
    Modules,
    Symbols,
}

/// One strongly connected component of more than one member.
#[derive(Debug, Clone, Serialize)]
pub struct Cycle {
    /// Every member, sorted (modules by path, declarations as
    /// `path: Container.name`).
    pub members: Vec<String>,
    /// A shortest cycle through the first member: `a, b, ..., a`.
    pub path: Vec<String>,
    /// The reference that makes each step of `path`.
    pub steps: Vec<SiteView>,
}

/// What a node of the graph of one level stands for.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Key {
    Module(String),
    Symbol(Node),
}

impl Analysis {
    /// The cycles of the module or declaration graph, largest first.
    pub fn cycles(&self, level: CycleLevel) -> Result<Vec<Cycle>, Exhausted> {
        let code = self.graph()?;
        let table = self.table();
        let module_of = |file: u32| -> Option<String> {
            let entry = table.files().get(file as usize)?;
            let facts = entry.facts().ok()?;
            facts.modules.first().map(|m| m.path.clone())
        };
        let mut graph: DiGraph<Key, Site> = DiGraph::new();
        let mut index: HashMap<Key, NodeIndex> = HashMap::new();
        let mut seen: HashMap<(NodeIndex, NodeIndex), ()> = HashMap::new();
        for (from, to, weight) in code.all_edges() {
            if !weight.kind.is_dependency() || weight.confidence() < 1.0 {
                continue;
            }
            let Some(site) = weight.site() else { continue };
            let (from, to) = match level {
                CycleLevel::Modules => {
                    // A reference to a module itself (a path's `crate::`
                    // or `beta::` on its way to an item, a parent's `mod
                    // x;`) is no dependency on it: the item at the path's
                    // end makes the edge, to the module declaring it.
                    if names_a_module(table, to) {
                        continue;
                    }
                    let (Some(a), Some(b)) = (module_of(from.file()), module_of(to.file())) else {
                        continue;
                    };
                    (Key::Module(a), Key::Module(b))
                }
                CycleLevel::Symbols => match (from, to) {
                    (Node::Symbol(_), Node::Symbol(_)) => (Key::Symbol(from), Key::Symbol(to)),
                    _ => continue,
                },
            };
            if from == to {
                continue;
            }
            let mut node = |key: Key| {
                *index
                    .entry(key.clone())
                    .or_insert_with(|| graph.add_node(key))
            };
            let (a, b) = (node(from), node(to));
            if seen.insert((a, b), ()).is_none() {
                graph.add_edge(a, b, site);
            }
        }
        let name = |key: &Key| -> String {
            match key {
                Key::Module(path) => path.clone(),
                Key::Symbol(Node::Symbol(r)) => {
                    let file = table.file(*r);
                    let symbol = file
                        .facts()
                        .ok()
                        .and_then(|f| f.symbols.get(r.symbol as usize).cloned());
                    match symbol {
                        Some(symbol) => format!(
                            "{}: {}",
                            file.path,
                            qualified_name(file, r.symbol as usize, &symbol)
                        ),
                        None => file.path.clone(),
                    }
                }
                Key::Symbol(Node::File(f)) => table
                    .files()
                    .get(*f as usize)
                    .map_or_else(String::new, |e| e.path.clone()),
            }
        };
        let mut cycles: Vec<Cycle> = tarjan_scc(&graph)
            .into_iter()
            .filter(|component| component.len() > 1)
            .map(|component| {
                let mut members: Vec<(String, NodeIndex)> =
                    component.iter().map(|&n| (name(&graph[n]), n)).collect();
                members.sort();
                let start = members[0].1;
                let ring = shortest_cycle(&graph, start, &component);
                let path: Vec<String> = ring.iter().map(|&n| name(&graph[n])).collect();
                let steps = ring
                    .windows(2)
                    .filter_map(|pair| {
                        let edge = graph.find_edge(pair[0], pair[1])?;
                        SiteView::new(table, graph[edge])
                    })
                    .collect();
                Cycle {
                    members: members.into_iter().map(|(m, _)| m).collect(),
                    path,
                    steps,
                }
            })
            .collect();
        cycles.sort_by(|a, b| {
            b.members
                .len()
                .cmp(&a.members.len())
                .then(a.members.cmp(&b.members))
        });
        Ok(cycles)
    }
}

/// Whether `node` is a file or a module, namespace or package declaration
/// rather than an item declared in one.
fn names_a_module(table: &SymbolTable, node: Node) -> bool {
    match node {
        Node::File(_) => true,
        Node::Symbol(r) => matches!(
            table.symbol(r).kind,
            SymbolKind::Module | SymbolKind::Namespace | SymbolKind::Package
        ),
    }
}

/// A shortest cycle through `start` inside `component` (breadth first):
/// `start, ..., start`.
fn shortest_cycle<N, E>(
    graph: &DiGraph<N, E>,
    start: NodeIndex,
    component: &[NodeIndex],
) -> Vec<NodeIndex> {
    let inside: std::collections::HashSet<NodeIndex> = component.iter().copied().collect();
    let mut parent: HashMap<NodeIndex, NodeIndex> = HashMap::new();
    let mut queue = VecDeque::from([start]);
    // Each node is queued once: bounded by the component's size.
    while let Some(node) = queue.pop_front() {
        for next in graph.neighbors(node) {
            if next == start {
                // node, its parent, ..., start: reversed, then back to start.
                let mut ring = vec![node];
                let mut at = node;
                while let Some(&p) = parent.get(&at) {
                    ring.push(p);
                    at = p;
                }
                ring.reverse();
                ring.push(start);
                return ring;
            }
            if inside.contains(&next) && next != start && !parent.contains_key(&next) {
                parent.insert(next, node);
                queue.push_back(next);
            }
        }
    }
    vec![start]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shortest_cycle_through_the_start_is_found() {
        let mut graph: DiGraph<&str, ()> = DiGraph::new();
        let [a, b, c, d] = ["a", "b", "c", "d"].map(|n| graph.add_node(n));
        // a -> b -> c -> a, and a longer a -> d -> b.
        for (x, y) in [(a, b), (b, c), (c, a), (a, d), (d, b)] {
            graph.add_edge(x, y, ());
        }
        let ring = shortest_cycle(&graph, a, &[a, b, c, d]);
        let names: Vec<&str> = ring.iter().map(|&n| graph[n]).collect();
        assert_eq!(names, ["a", "b", "c", "a"]);
        let two = shortest_cycle(&graph, b, &[a, b, c, d]);
        let names: Vec<&str> = two.iter().map(|&n| graph[n]).collect();
        assert_eq!(names, ["b", "c", "a", "b"]);
    }
}
