//! Metrics of the dependency graph between files or modules (one depends
//! on another when it holds a certain reference into it): PageRank
//! (personalised by seed nodes when asked), degree, betweenness and
//! closeness centrality, local clustering, weakly and strongly connected
//! components, and the graph as GraphML.
//!
//! PageRank is a power iteration written here rather than petgraph's
//! `page_rank`, which has no personalisation vector; betweenness is
//! Brandes' algorithm, closeness a breadth-first search per node (both
//! unweighted), so they are computed only up to [`MAX_CENTRALITY_NODES`].

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};

use petgraph::algo::tarjan_scc;
use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::EdgeRef;
use schemars::JsonSchema;
use serde::Serialize;

use super::Analysis;
use lingo_model::budget::Exhausted;

/// Largest graph whose betweenness and closeness are computed (both cost
/// nodes × edges).
pub const MAX_CENTRALITY_NODES: usize = 20_000;
const DAMPING: f64 = 0.85;
const MAX_ITERATIONS: usize = 200;
const TOLERANCE: f64 = 1e-10;

/// Which graph.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum GraphLevel {
    Files,
    Modules,
    /// Declarations (`path:qualified name`), by the certain references
    /// between them.
    Symbols,
}

/// What to compute.
#[derive(Debug, Clone, Default)]
pub struct MetricsWanted {
    pub pagerank: bool,
    pub centrality: bool,
    pub clustering: bool,
    pub components: bool,
    pub graphml: bool,
}

/// One node's metrics (those not asked for are absent).
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct NodeMetrics {
    pub name: String,
    pub in_degree: usize,
    pub out_degree: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pagerank: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub betweenness: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub closeness: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clustering: Option<f64>,
}

/// Connected components.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Components {
    pub weakly_connected: usize,
    pub largest_weakly_connected: usize,
    /// Strongly connected components of more than one node (cycles).
    pub cyclic_components: usize,
    pub largest_strongly_connected: usize,
}

/// The metrics of one graph.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct GraphMetrics {
    pub level: GraphLevel,
    pub nodes: usize,
    pub edges: usize,
    /// Every node, by PageRank (else by in-degree), highest first.
    pub ranked: Vec<NodeMetrics>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub average_clustering: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub components: Option<Components>,
    /// The seeds PageRank was personalised by, as matched.
    pub seeds: Vec<String>,
    /// Why a metric asked for was not computed.
    pub skipped: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub graphml: Option<String>,
}

/// Why the metrics cannot be computed as asked.
#[derive(Debug, thiserror::Error)]
pub enum GraphMetricsError {
    #[error("no node of the graph is named `{seed}`")]
    UnknownSeed {
        seed: String,
        suggestions: Vec<String>,
    },
    #[error(transparent)]
    Exhausted(#[from] Exhausted),
}

impl Analysis {
    /// The metrics of the file or module graph; `seeds` (node names, or
    /// their last path parts) personalise PageRank.
    pub fn graph_metrics(
        &self,
        level: GraphLevel,
        wanted: &MetricsWanted,
        seeds: &[String],
    ) -> Result<GraphMetrics, GraphMetricsError> {
        let graph = self.dependency_graph(level)?;
        let n = graph.node_count();
        let names: Vec<String> = graph.node_indices().map(|i| graph[i].clone()).collect();
        let mut seed_nodes = Vec::new();
        for seed in seeds {
            let matched: Vec<usize> = (0..n)
                .filter(|&i| {
                    names[i] == *seed
                        || ["/", ":", "."]
                            .iter()
                            .any(|sep| names[i].ends_with(&format!("{sep}{seed}")))
                })
                .collect();
            if matched.is_empty() {
                return Err(GraphMetricsError::UnknownSeed {
                    seed: seed.clone(),
                    suggestions: lingo_model::suggest::similar(
                        seed,
                        names.iter().map(String::as_str),
                        3,
                    ),
                });
            }
            seed_nodes.extend(matched);
        }
        seed_nodes.sort_unstable();
        seed_nodes.dedup();
        let outgoing: Vec<Vec<usize>> = (0..n)
            .map(|i| {
                graph
                    .neighbors(NodeIndex::new(i))
                    .map(NodeIndex::index)
                    .collect()
            })
            .collect();
        let mut skipped = Vec::new();
        let pagerank = wanted.pagerank.then(|| pagerank(&outgoing, &seed_nodes));
        let centrality_fits = n <= MAX_CENTRALITY_NODES;
        if wanted.centrality && !centrality_fits {
            skipped.push(format!(
                "betweenness and closeness: the graph has {n} nodes, more than {MAX_CENTRALITY_NODES}"
            ));
        }
        let centrality = (wanted.centrality && centrality_fits)
            .then(|| (betweenness(&outgoing), closeness(&outgoing)));
        let clustering = wanted.clustering.then(|| clustering(&outgoing));
        let mut in_degree = vec![0; n];
        for targets in &outgoing {
            for &t in targets {
                in_degree[t] += 1;
            }
        }
        let mut ranked: Vec<NodeMetrics> = (0..n)
            .map(|i| NodeMetrics {
                name: names[i].clone(),
                in_degree: in_degree[i],
                out_degree: outgoing[i].len(),
                pagerank: pagerank.as_ref().map(|p| round(p[i])),
                betweenness: centrality.as_ref().map(|(b, _)| round(b[i])),
                closeness: centrality.as_ref().map(|(_, c)| round(c[i])),
                clustering: clustering.as_ref().map(|c| round(c[i])),
            })
            .collect();
        ranked.sort_by(|a, b| {
            b.pagerank
                .unwrap_or(0.0)
                .total_cmp(&a.pagerank.unwrap_or(0.0))
                .then(b.in_degree.cmp(&a.in_degree))
                .then(a.name.cmp(&b.name))
        });
        let components = wanted.components.then(|| components(&graph, &outgoing));
        let graphml = wanted.graphml.then(|| graphml(&graph, &ranked));
        Ok(GraphMetrics {
            level,
            nodes: n,
            edges: graph.edge_count(),
            average_clustering: clustering
                .as_ref()
                .map(|c| round(c.iter().sum::<f64>() / n.max(1) as f64)),
            ranked,
            components,
            seeds: seed_nodes.iter().map(|&i| names[i].clone()).collect(),
            skipped,
            graphml,
        })
    }

    /// Files (or modules) and the certain dependencies between them, each
    /// pair once, weighted by its number of references; every indexed file
    /// (module) is a node, isolated ones too.
    pub fn dependency_graph(&self, level: GraphLevel) -> Result<DiGraph<String, u32>, Exhausted> {
        let table = self.table();
        let code = self.graph()?;
        let symbol_name = |file: &lingo_index::FileEntry, index: usize| -> Option<String> {
            let symbol = file.facts().ok()?.symbols.get(index)?;
            Some(format!(
                "{}:{}",
                file.path,
                super::qualified_name(file, index, symbol)
            ))
        };
        let node_name = |node: lingo_resolve::graph::Node| -> Option<String> {
            let entry = table.files().get(node.file() as usize)?;
            match (level, node) {
                (GraphLevel::Files, _) => Some(entry.path.clone()),
                (GraphLevel::Modules, _) => entry
                    .facts()
                    .ok()
                    .and_then(|f| f.modules.first().map(|m| m.path.clone())),
                (GraphLevel::Symbols, lingo_resolve::graph::Node::Symbol(s)) => {
                    symbol_name(entry, s.symbol as usize)
                }
                (GraphLevel::Symbols, lingo_resolve::graph::Node::File(_)) => None,
            }
        };
        let mut names: Vec<String> = match level {
            GraphLevel::Symbols => table
                .files()
                .iter()
                .flat_map(|file| {
                    let count = file.facts().map_or(0, |f| f.symbols.len());
                    (0..count).filter_map(|i| symbol_name(file, i))
                })
                .collect(),
            _ => (0..table.files().len() as u32)
                .filter_map(|file| node_name(lingo_resolve::graph::Node::File(file)))
                .collect(),
        };
        names.sort();
        names.dedup();
        let mut graph: DiGraph<String, u32> = DiGraph::new();
        let index: HashMap<String, NodeIndex> = names
            .into_iter()
            .map(|name| (name.clone(), graph.add_node(name)))
            .collect();
        let mut weights: BTreeMap<(NodeIndex, NodeIndex), u32> = BTreeMap::new();
        for (from, to, weight) in code.all_edges() {
            if !weight.kind.is_dependency() || weight.confidence() < 1.0 {
                continue;
            }
            let from = node_name(from);
            let to = node_name(to);
            let (Some(from), Some(to)) = (from, to) else {
                continue;
            };
            if from == to {
                continue;
            }
            if let (Some(&a), Some(&b)) = (index.get(&from), index.get(&to)) {
                *weights.entry((a, b)).or_default() += 1;
            }
        }
        for ((a, b), w) in weights {
            graph.add_edge(a, b, w);
        }
        Ok(graph)
    }

    /// Per file, how many other files it depends on (efferent coupling)
    /// and how many depend on it (afferent), by certain references.
    pub fn file_coupling(&self) -> Result<HashMap<String, Coupling>, Exhausted> {
        let graph = self.dependency_graph(GraphLevel::Files)?;
        Ok(graph
            .node_indices()
            .map(|node| {
                let count = |direction| graph.neighbors_directed(node, direction).count();
                (
                    graph[node].clone(),
                    Coupling {
                        depends_on: count(petgraph::Direction::Outgoing),
                        depended_on_by: count(petgraph::Direction::Incoming),
                    },
                )
            })
            .collect())
    }
}

/// A file's coupling to the other files.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Coupling {
    /// Files it holds a certain reference into.
    pub depends_on: usize,
    /// Files holding a certain reference into it.
    pub depended_on_by: usize,
}

fn round(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

/// PageRank by power iteration: with probability `DAMPING` follow an edge,
/// else jump to a seed (any node without seeds); a node without edges
/// jumps as well. Sums to 1.
fn pagerank(outgoing: &[Vec<usize>], seeds: &[usize]) -> Vec<f64> {
    let n = outgoing.len();
    if n == 0 {
        return Vec::new();
    }
    let teleport: Vec<f64> = if seeds.is_empty() {
        vec![1.0 / n as f64; n]
    } else {
        let mut t = vec![0.0; n];
        for &s in seeds {
            t[s] = 1.0 / seeds.len() as f64;
        }
        t
    };
    let mut rank = teleport.clone();
    for _ in 0..MAX_ITERATIONS {
        let dangling: f64 = (0..n)
            .filter(|&i| outgoing[i].is_empty())
            .map(|i| rank[i])
            .sum();
        let mut next: Vec<f64> = teleport
            .iter()
            .map(|t| (1.0 - DAMPING) * t + DAMPING * dangling * t)
            .collect();
        for (i, targets) in outgoing.iter().enumerate() {
            if targets.is_empty() {
                continue;
            }
            let share = DAMPING * rank[i] / targets.len() as f64;
            for &t in targets {
                next[t] += share;
            }
        }
        let change: f64 = next.iter().zip(&rank).map(|(a, b)| (a - b).abs()).sum();
        rank = next;
        if change < TOLERANCE {
            break;
        }
    }
    rank
}

/// Brandes' betweenness centrality (directed, unweighted), normalised by
/// (n − 1)(n − 2).
fn betweenness(outgoing: &[Vec<usize>]) -> Vec<f64> {
    let n = outgoing.len();
    let mut centrality = vec![0.0; n];
    for s in 0..n {
        let mut stack = Vec::new();
        let mut predecessors: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut paths = vec![0.0f64; n];
        let mut distance = vec![usize::MAX; n];
        paths[s] = 1.0;
        distance[s] = 0;
        let mut queue = VecDeque::from([s]);
        while let Some(v) = queue.pop_front() {
            stack.push(v);
            for &w in &outgoing[v] {
                if distance[w] == usize::MAX {
                    distance[w] = distance[v] + 1;
                    queue.push_back(w);
                }
                if distance[w] == distance[v] + 1 {
                    paths[w] += paths[v];
                    predecessors[w].push(v);
                }
            }
        }
        let mut dependency = vec![0.0; n];
        while let Some(w) = stack.pop() {
            for &v in &predecessors[w] {
                dependency[v] += paths[v] / paths[w] * (1.0 + dependency[w]);
            }
            if w != s {
                centrality[w] += dependency[w];
            }
        }
    }
    let scale = if n > 2 {
        1.0 / ((n - 1) * (n - 2)) as f64
    } else {
        1.0
    };
    centrality.iter().map(|c| c * scale).collect()
}

/// Closeness centrality over outgoing paths, scaled by the share of nodes
/// reached (Wasserman and Faust), so a graph in pieces compares fairly.
fn closeness(outgoing: &[Vec<usize>]) -> Vec<f64> {
    let n = outgoing.len();
    (0..n)
        .map(|s| {
            let mut distance = vec![usize::MAX; n];
            distance[s] = 0;
            let mut queue = VecDeque::from([s]);
            let (mut reached, mut total) = (0usize, 0usize);
            while let Some(v) = queue.pop_front() {
                for &w in &outgoing[v] {
                    if distance[w] == usize::MAX {
                        distance[w] = distance[v] + 1;
                        reached += 1;
                        total += distance[w];
                        queue.push_back(w);
                    }
                }
            }
            if total == 0 || n < 2 {
                0.0
            } else {
                (reached as f64 / total as f64) * (reached as f64 / (n - 1) as f64)
            }
        })
        .collect()
}

/// Local clustering coefficient of each node, edges taken undirected.
fn clustering(outgoing: &[Vec<usize>]) -> Vec<f64> {
    let n = outgoing.len();
    let mut neighbours: Vec<HashSet<usize>> = vec![HashSet::new(); n];
    for (a, targets) in outgoing.iter().enumerate() {
        for &b in targets {
            if a != b {
                neighbours[a].insert(b);
                neighbours[b].insert(a);
            }
        }
    }
    (0..n)
        .map(|v| {
            let around: Vec<usize> = neighbours[v].iter().copied().collect();
            let k = around.len();
            if k < 2 {
                return 0.0;
            }
            let mut links = 0usize;
            for (i, &a) in around.iter().enumerate() {
                for &b in &around[i + 1..] {
                    if neighbours[a].contains(&b) {
                        links += 1;
                    }
                }
            }
            2.0 * links as f64 / (k * (k - 1)) as f64
        })
        .collect()
}

fn components(graph: &DiGraph<String, u32>, outgoing: &[Vec<usize>]) -> Components {
    let n = outgoing.len();
    // Weakly connected: union-find over the edges taken undirected.
    let mut parent: Vec<usize> = (0..n).collect();
    fn root(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    for (a, targets) in outgoing.iter().enumerate() {
        for &b in targets {
            let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
            if ra != rb {
                parent[ra] = rb;
            }
        }
    }
    let mut sizes: HashMap<usize, usize> = HashMap::new();
    for x in 0..n {
        *sizes.entry(root(&mut parent, x)).or_default() += 1;
    }
    let strong = tarjan_scc(graph);
    Components {
        weakly_connected: sizes.len(),
        largest_weakly_connected: sizes.values().copied().max().unwrap_or(0),
        cyclic_components: strong.iter().filter(|c| c.len() > 1).count(),
        largest_strongly_connected: strong.iter().map(Vec::len).max().unwrap_or(0),
    }
}

/// The graph as GraphML, each node with its metrics as data.
fn graphml(graph: &DiGraph<String, u32>, ranked: &[NodeMetrics]) -> String {
    let escape = |s: &str| {
        s.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
            .replace('"', "&quot;")
    };
    let by_name: HashMap<&str, &NodeMetrics> =
        ranked.iter().map(|m| (m.name.as_str(), m)).collect();
    let mut out = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n\
         <key id=\"label\" for=\"node\" attr.name=\"label\" attr.type=\"string\"/>\n\
         <key id=\"pagerank\" for=\"node\" attr.name=\"pagerank\" attr.type=\"double\"/>\n\
         <key id=\"betweenness\" for=\"node\" attr.name=\"betweenness\" attr.type=\"double\"/>\n\
         <key id=\"references\" for=\"edge\" attr.name=\"references\" attr.type=\"int\"/>\n\
         <graph id=\"dependencies\" edgedefault=\"directed\">\n",
    );
    for index in graph.node_indices() {
        let name = &graph[index];
        out.push_str(&format!(
            "<node id=\"n{}\"><data key=\"label\">{}</data>",
            index.index(),
            escape(name)
        ));
        if let Some(m) = by_name.get(name.as_str()) {
            if let Some(p) = m.pagerank {
                out.push_str(&format!("<data key=\"pagerank\">{p}</data>"));
            }
            if let Some(b) = m.betweenness {
                out.push_str(&format!("<data key=\"betweenness\">{b}</data>"));
            }
        }
        out.push_str("</node>\n");
    }
    for edge in graph.edge_references() {
        out.push_str(&format!(
            "<edge source=\"n{}\" target=\"n{}\"><data key=\"references\">{}</data></edge>\n",
            edge.source().index(),
            edge.target().index(),
            edge.weight()
        ));
    }
    out.push_str("</graph>\n</graphml>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// a -> b -> c, a -> c, d alone.
    fn small() -> Vec<Vec<usize>> {
        vec![vec![1, 2], vec![2], vec![], vec![]]
    }

    #[test]
    fn pagerank_sums_to_one_and_ranks_the_most_depended_on_first() {
        let rank = pagerank(&small(), &[]);
        assert!((rank.iter().sum::<f64>() - 1.0).abs() < 1e-9, "{rank:?}");
        assert!(rank[2] > rank[1] && rank[1] > rank[0], "{rank:?}");
        assert!((rank[3] - rank[0]).abs() < 1e-9, "{rank:?}");
        // Seeded at `d`, which depends on nothing: all weight stays there.
        let seeded = pagerank(&small(), &[3]);
        assert!(seeded[3] > 0.99, "{seeded:?}");
    }

    #[test]
    fn betweenness_counts_the_shortest_paths_through_a_node() {
        // a -> b -> c only: b is on the one path a..c.
        let line = vec![vec![1], vec![2], vec![]];
        assert_eq!(betweenness(&line), [0.0, 0.5, 0.0]);
        // With a -> c too, the shortest path a..c avoids b.
        assert_eq!(betweenness(&small())[1], 0.0);
    }

    #[test]
    fn closeness_and_clustering_of_a_small_graph() {
        let close = closeness(&small());
        // a reaches b and c at distance 1: (2/2) × (2/3).
        assert!((close[0] - 2.0 / 3.0).abs() < 1e-9, "{close:?}");
        assert_eq!(close[2], 0.0);
        let clustered = clustering(&small());
        // a, b and c form a triangle taken undirected.
        assert_eq!(clustered[..3], [1.0, 1.0, 1.0]);
        assert_eq!(clustered[3], 0.0);
    }
}
