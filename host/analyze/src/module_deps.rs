//! `analyze.module_dependencies`: what taking a folder (or file) out into a
//! crate, package or project of its own would need — typemill's crate
//! extraction, for every language with a plugin.
//!
//! From the file dependency graph (certain references): the files outside
//! it that it uses (which the new unit must depend on), the files outside
//! that use it (which must depend on the new unit), and the outside files
//! that are both reached from it and reach back into it, which would make
//! the two units depend on each other: extraction is blocked until those
//! edges go. Imports of its files that resolve to no module of the
//! workspace are its external dependencies, grouped as written.

use std::collections::{BTreeMap, HashSet, VecDeque};
use std::sync::Arc;

use petgraph::Direction;
use petgraph::graph::NodeIndex;
use schemars::JsonSchema;
use serde::Serialize;

use lingo_analysis::{Analysis, GraphLevel};
use lingo_index::FileEntry;
use lingo_model::budget::Exhausted;

/// The most items each list holds (the counts cover all).
const MAX_LISTED: usize = 200;

/// A file on the other side of an edge, and how many references cross.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Crossing {
    pub file_path: String,
    pub references: u32,
}

/// An import that resolves to no module of the workspace.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct External {
    /// As written.
    pub module_path: String,
    /// Imports of it in the unit's files.
    pub imports: usize,
}

/// The answer.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ModuleDependencies {
    pub path: String,
    pub files: Vec<String>,
    /// Outside files the unit uses.
    pub dependencies: Vec<Crossing>,
    /// Outside files that use the unit.
    pub dependents: Vec<Crossing>,
    pub external: Vec<External>,
    /// Outside files reached from the unit that reach back into it.
    pub cycles_through: Vec<String>,
    pub extractable: bool,
    pub reasons: Vec<String>,
}

/// What extracting `unit` (the files under `path`) would need.
pub fn module_dependencies(
    analysis: &Analysis,
    path: &str,
    unit: &[Arc<FileEntry>],
) -> Result<ModuleDependencies, Exhausted> {
    let graph = analysis.dependency_graph(GraphLevel::Files)?;
    let inside: HashSet<&str> = unit.iter().map(|f| f.path.as_str()).collect();
    let is_inside = |n: NodeIndex| inside.contains(graph[n].as_str());
    let mut dependencies: BTreeMap<String, u32> = BTreeMap::new();
    let mut dependents: BTreeMap<String, u32> = BTreeMap::new();
    for edge in graph.edge_indices() {
        let Some((a, b)) = graph.edge_endpoints(edge) else {
            continue;
        };
        match (is_inside(a), is_inside(b)) {
            (true, false) => *dependencies.entry(graph[b].clone()).or_default() += graph[edge],
            (false, true) => *dependents.entry(graph[a].clone()).or_default() += graph[edge],
            _ => {}
        }
    }
    // Outside files reachable from the unit through outside files, and
    // outside files from which the unit is reachable: both is a cycle.
    let outward = reach(
        &graph,
        graph.node_indices().filter(|&n| is_inside(n)),
        Direction::Outgoing,
        &is_inside,
    );
    let inward = reach(
        &graph,
        graph.node_indices().filter(|&n| is_inside(n)),
        Direction::Incoming,
        &is_inside,
    );
    let mut cycles_through: Vec<String> = outward
        .intersection(&inward)
        .map(|&n| graph[n].clone())
        .collect();
    cycles_through.sort();
    let external = externals(analysis, unit);
    let mut reasons = Vec::new();
    if unit.is_empty() {
        reasons.push(format!("no indexed file under `{path}`"));
    }
    if !cycles_through.is_empty() {
        reasons.push(format!(
            "{} outside files both use it and are used by it (first: {}): the two units would depend on each other",
            cycles_through.len(),
            cycles_through[0]
        ));
    }
    let crossings = |map: BTreeMap<String, u32>| -> Vec<Crossing> {
        let mut list: Vec<Crossing> = map
            .into_iter()
            .map(|(file_path, references)| Crossing {
                file_path,
                references,
            })
            .collect();
        list.sort_by(|a, b| {
            b.references
                .cmp(&a.references)
                .then(a.file_path.cmp(&b.file_path))
        });
        list.truncate(MAX_LISTED);
        list
    };
    let mut files: Vec<String> = unit.iter().map(|f| f.path.clone()).collect();
    files.truncate(MAX_LISTED);
    cycles_through.truncate(MAX_LISTED);
    Ok(ModuleDependencies {
        path: path.to_string(),
        files,
        dependencies: crossings(dependencies),
        dependents: crossings(dependents),
        external,
        extractable: reasons.is_empty(),
        cycles_through,
        reasons,
    })
}

/// The outside nodes reached from `start` in `direction`, walking only
/// through outside nodes.
fn reach(
    graph: &petgraph::graph::DiGraph<String, u32>,
    start: impl Iterator<Item = NodeIndex>,
    direction: Direction,
    is_inside: &impl Fn(NodeIndex) -> bool,
) -> HashSet<NodeIndex> {
    let mut seen = HashSet::new();
    let mut queue: VecDeque<NodeIndex> = start.collect();
    while let Some(node) = queue.pop_front() {
        for next in graph.neighbors_directed(node, direction) {
            if !is_inside(next) && seen.insert(next) {
                queue.push_back(next);
            }
        }
    }
    seen
}

/// The unit's imports that resolve to no module of the workspace.
fn externals(analysis: &Analysis, unit: &[Arc<FileEntry>]) -> Vec<External> {
    let snapshot = analysis.snapshot();
    let table = analysis.table();
    let workspace_modules: HashSet<String> = table
        .files()
        .iter()
        .filter_map(|f| f.facts().ok())
        .flat_map(|f| f.modules.iter().map(|m| m.path.clone()))
        .collect();
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for file in unit {
        let Ok(facts) = file.facts() else { continue };
        let Some(importer) = facts.modules.first() else {
            continue;
        };
        for import in &facts.imports {
            // A `use` of a declaration in scope (Rust's `use Kind as K`
            // inside a function) names no module, and nothing external.
            if !table.named(&import.module_path).is_empty() {
                continue;
            }
            let candidates = table.resolve_import(file, importer, &import.module_path, snapshot);
            if !candidates.iter().any(|c| workspace_modules.contains(c)) {
                *counts.entry(import.module_path.clone()).or_default() += 1;
            }
        }
    }
    let mut list: Vec<External> = counts
        .into_iter()
        .map(|(module_path, imports)| External {
            module_path,
            imports,
        })
        .collect();
    list.sort_by(|a, b| {
        b.imports
            .cmp(&a.imports)
            .then(a.module_path.cmp(&b.module_path))
    });
    list.truncate(MAX_LISTED);
    list
}
