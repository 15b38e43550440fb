//! `analyze.dependencies`: the file dependency graph (one file depends on
//! another when it holds a certain reference into it) judged six ways.
//!
//! - `imports`: files with more than `max_imports` imports (default 20);
//!   medium, high at twice.
//! - `graph`: every file with a dependency, low, with its in- and
//!   out-degree; `options.format: "graph"` adds the graph to the metadata
//!   (`options.export_format` mermaid, the default with it, or graphviz).
//! - `circular`: the module cycles of `analyze.cycles`.
//! - `coupling`: files depending on more than `max_coupling` other files
//!   (efferent coupling, default 15); medium, high at twice. Its
//!   `coupling_score` is `k / (k + 10)` of the files it is coupled to
//!   either way.
//! - `cohesion`: folders of two files or more whose dependencies mostly
//!   leave them: `cohesion_score`, the share of the dependencies of the
//!   folder's files that stay in it, under `min_cohesion` (default 0.25);
//!   low.
//! - `depth`: files whose longest chain of dependencies (through the
//!   graph's strongly connected components, each counted once) is longer
//!   than `max_depth` (default 8); medium.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use petgraph::Direction;
use petgraph::algo::condensation;
use petgraph::graph::{DiGraph, NodeIndex};
use serde_json::{Map, Value, json};

use super::{Finding, Found, Location, Severity};
use lingo_analysis::{Analysis, GraphLevel};
use lingo_index::FileEntry;
use lingo_model::budget::Exhausted;

/// The kinds served.
pub const DEPENDENCY_KINDS: &[&str] = &[
    "imports", "graph", "circular", "coupling", "cohesion", "depth",
];

/// The limits the kinds judge by.
#[derive(Debug, Clone, Copy)]
pub struct DependencyThresholds {
    pub max_imports: f64,
    pub max_coupling: f64,
    pub min_cohesion: f64,
    pub max_depth: f64,
}

impl Default for DependencyThresholds {
    fn default() -> Self {
        DependencyThresholds {
            max_imports: 20.0,
            max_coupling: 15.0,
            min_cohesion: 0.25,
            max_depth: 8.0,
        }
    }
}

impl DependencyThresholds {
    pub const KEYS: [&'static str; 4] =
        ["max_imports", "max_coupling", "min_cohesion", "max_depth"];

    /// These with `key` set, or `None` for an unknown key.
    pub fn with(mut self, key: &str, value: f64) -> Option<Self> {
        match key {
            "max_imports" => self.max_imports = value,
            "max_coupling" => self.max_coupling = value,
            "min_cohesion" => self.min_cohesion = value,
            "max_depth" => self.max_depth = value,
            _ => return None,
        }
        Some(self)
    }

    fn echoed(&self) -> Map<String, Value> {
        [
            ("max_imports", self.max_imports),
            ("max_coupling", self.max_coupling),
            ("min_cohesion", self.min_cohesion),
            ("max_depth", self.max_depth),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), json!(v)))
        .collect()
    }
}

/// The findings of `kind` over `files`.
pub fn dependencies(
    analysis: &Analysis,
    files: &[Arc<FileEntry>],
    kind: &str,
    thresholds: &DependencyThresholds,
) -> Result<Found, Exhausted> {
    if kind == "circular" {
        let mut found = super::cycles(analysis, files, "modules")?;
        found.thresholds = thresholds.echoed();
        return Ok(found);
    }
    let graph = analysis.dependency_graph(GraphLevel::Files)?;
    let node: HashMap<&str, NodeIndex> = graph
        .node_indices()
        .map(|n| (graph[n].as_str(), n))
        .collect();
    let degree = |n: NodeIndex| {
        (
            graph.neighbors_directed(n, Direction::Incoming).count(),
            graph.neighbors_directed(n, Direction::Outgoing).count(),
        )
    };
    let mut findings = Vec::new();
    match kind {
        "cohesion" => findings = cohesion(&graph, files, thresholds.min_cohesion),
        "depth" => {
            let depths = depths(&graph);
            for file in files {
                let Some(&n) = node.get(file.path.as_str()) else {
                    continue;
                };
                let depth = depths[n.index()];
                if depth as f64 > thresholds.max_depth {
                    let mut metrics = Map::new();
                    metrics.insert("dependency_depth".into(), json!(depth));
                    findings.push(file_finding(
                        file,
                        ("deep_dependencies", Severity::Medium),
                        metrics,
                        format!(
                            "a chain of {depth} dependencies starts here (at most {})",
                            thresholds.max_depth
                        ),
                    ));
                }
            }
        }
        _ => {
            for file in files {
                let (incoming, outgoing) =
                    node.get(file.path.as_str()).map_or((0, 0), |&n| degree(n));
                let imports = file.facts().map_or(0, |f| f.imports.len());
                let mut metrics = Map::new();
                metrics.insert("in_degree".into(), json!(incoming));
                metrics.insert("out_degree".into(), json!(outgoing));
                let judged = match kind {
                    "imports" => {
                        metrics.insert("import_count".into(), json!(imports));
                        over(imports as f64, thresholds.max_imports).map(|severity| {
                            (
                                ("too_many_imports", severity),
                                format!("{imports} imports (at most {})", thresholds.max_imports),
                            )
                        })
                    }
                    "coupling" => {
                        let coupled = (incoming + outgoing) as f64;
                        metrics.insert(
                            "coupling_score".into(),
                            json!(round(coupled / (coupled + 10.0))),
                        );
                        over(outgoing as f64, thresholds.max_coupling).map(|severity| {
                            (
                                ("high_coupling", severity),
                                format!(
                                    "depends on {outgoing} files (at most {}); {incoming} depend on it",
                                    thresholds.max_coupling
                                ),
                            )
                        })
                    }
                    _ => (incoming + outgoing > 0).then(|| {
                        (
                            ("dependencies", Severity::Low),
                            format!("depends on {outgoing} files; {incoming} depend on it"),
                        )
                    }),
                };
                if let Some((label, message)) = judged {
                    findings.push(file_finding(file, label, metrics, message));
                }
            }
        }
    }
    Ok(Found {
        findings,
        files_analyzed: files.len(),
        symbols_analyzed: super::symbol_count(files),
        thresholds: thresholds.echoed(),
        incomplete_reasons: analysis
            .incompleteness()
            .map(|i| i.incomplete_reasons)
            .unwrap_or_default(),
    })
}

/// Medium over `limit`, high over twice it.
fn over(value: f64, limit: f64) -> Option<Severity> {
    if value > 2.0 * limit {
        Some(Severity::High)
    } else if value > limit {
        Some(Severity::Medium)
    } else {
        None
    }
}

/// A finding about a whole file, placed at its start.
fn file_finding(
    file: &FileEntry,
    (kind, severity): (&'static str, Severity),
    metrics: Map<String, Value>,
    message: String,
) -> Finding {
    Finding {
        id: String::new(),
        kind,
        severity,
        location: Location {
            file_path: file.path.clone(),
            range: super::start_of_file(),
        },
        symbol: None,
        metrics,
        message,
        suggestions: Vec::new(),
    }
}

/// The folders of `files` whose dependencies mostly leave them.
fn cohesion(graph: &DiGraph<String, u32>, files: &[Arc<FileEntry>], min: f64) -> Vec<Finding> {
    let folder = |path: &str| path.rsplit_once('/').map_or(".", |(d, _)| d).to_string();
    let mut members: BTreeMap<String, Vec<&Arc<FileEntry>>> = BTreeMap::new();
    for file in files {
        members.entry(folder(&file.path)).or_default().push(file);
    }
    let mut counts: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    for edge in graph.edge_indices() {
        let Some((a, b)) = graph.edge_endpoints(edge) else {
            continue;
        };
        let (from, to) = (folder(&graph[a]), folder(&graph[b]));
        let entry = counts.entry(from.clone()).or_default();
        if from == to {
            entry.0 += 1;
        } else {
            entry.1 += 1;
        }
    }
    members
        .into_iter()
        .filter(|(_, files)| files.len() >= 2)
        .filter_map(|(dir, files)| {
            let (inside, outside) = counts.get(&dir).copied().unwrap_or((0, 0));
            if inside + outside == 0 {
                return None;
            }
            let score = inside as f64 / (inside + outside) as f64;
            (score < min).then(|| {
                let mut metrics = Map::new();
                metrics.insert("cohesion_score".into(), json!(round(score)));
                metrics.insert("internal_dependencies".into(), json!(inside));
                metrics.insert("external_dependencies".into(), json!(outside));
                metrics.insert("files".into(), json!(files.len()));
                file_finding(
                    files[0],
                    ("low_cohesion", Severity::Low),
                    metrics,
                    format!(
                        "folder `{dir}`: {inside} of its files' {} dependencies stay in it (cohesion {}; at least {min})",
                        inside + outside,
                        round(score)
                    ),
                )
            })
        })
        .collect()
}

/// Per node, the longest chain of dependencies from it, counting each
/// strongly connected component once (on the condensed graph, which has
/// no cycle; visited in reverse topological order, so linear).
fn depths(graph: &DiGraph<String, u32>) -> Vec<usize> {
    let mut component_of = vec![0usize; graph.node_count()];
    let condensed = condensation(graph.map(|i, _| i, |_, w| *w), true);
    for c in condensed.node_indices() {
        for &member in &condensed[c] {
            component_of[member.index()] = c.index();
        }
    }
    let order = petgraph::algo::toposort(&condensed, None).unwrap_or_default();
    let mut depth = vec![0usize; condensed.node_count()];
    for &c in order.iter().rev() {
        depth[c.index()] = condensed
            .neighbors_directed(c, Direction::Outgoing)
            .map(|n| depth[n.index()] + 1)
            .max()
            .unwrap_or(0);
    }
    (0..graph.node_count())
        .map(|n| depth[component_of[n]])
        .collect()
}

/// The file graph of `files` as Mermaid or Graphviz text (at most 500
/// edges), for `options.format: "graph"`.
pub fn graph_export(
    analysis: &Analysis,
    files: &[Arc<FileEntry>],
    format: &str,
) -> Result<Value, Exhausted> {
    let graph = analysis.dependency_graph(GraphLevel::Files)?;
    let in_scope: std::collections::HashSet<&str> = files.iter().map(|f| f.path.as_str()).collect();
    let edges: Vec<(&str, &str)> = graph
        .edge_indices()
        .filter_map(|e| graph.edge_endpoints(e))
        .map(|(a, b)| (graph[a].as_str(), graph[b].as_str()))
        .filter(|(a, b)| in_scope.contains(a) || in_scope.contains(b))
        .take(500)
        .collect();
    let payload = if format == "graphviz" {
        let mut text = String::from("digraph dependencies {\n");
        for (a, b) in &edges {
            text.push_str(&format!("  {a:?} -> {b:?};\n"));
        }
        text.push_str("}\n");
        text
    } else {
        let mut ids: BTreeMap<&str, usize> = BTreeMap::new();
        let mut text = String::from("graph TD\n");
        for (a, b) in &edges {
            let next = ids.len();
            let ia = *ids.entry(a).or_insert(next);
            let next = ids.len();
            let ib = *ids.entry(b).or_insert(next);
            text.push_str(&format!("  n{ia}[\"{a}\"] --> n{ib}[\"{b}\"]\n"));
        }
        text
    };
    Ok(json!({
        "format": if format == "graphviz" { "graphviz" } else { "mermaid" },
        "payload": payload,
        "encoding": "utf8",
        "size_bytes": payload.len(),
    }))
}

fn round(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}
