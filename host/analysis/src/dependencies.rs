//! `dependents` / `dependencies` / `paths_between`: transitive walks and
//! shortest paths over the dependency edges of the symbol graph, as the
//! subgraph graph-tools-api.md renders (`graph::render`).

use lingo_model::SymbolKind;
use lingo_model::budget::Exhausted;
use std::collections::{HashMap, HashSet, VecDeque};

use petgraph::Direction;

use super::{Analysis, AnalysisError};
use lingo_resolve::graph::render::{self, EdgeLabel, EdgeView, NodeView};
use lingo_resolve::graph::{CodeGraph, Edge, EdgeKind, Node, Site};
use lingo_resolve::{Resolution, SymbolRef, SymbolTable};

/// How far a traversal goes: an internal safeguard, not the caller's concern.
const MAX_DEPTH: usize = 10;
/// Nodes a traversal discovers at most.
const MAX_NODES: usize = 100;
/// Paths `paths_between` finds at most.
const MAX_PATHS: usize = 3;

/// The subgraph an answer shows: nodes in discovery order (the query's
/// first) and the edges between them, with notes on what was left out.
#[derive(Debug, Clone)]
pub struct DependencyGraph {
    pub nodes: Vec<NodeView>,
    pub edges: Vec<EdgeView>,
    pub notes: Vec<String>,
    pub generation: u64,
}

impl DependencyGraph {
    /// The text of graph-tools-api.md: Graph and Nodes sections, then notes.
    pub fn text(&self) -> String {
        let mut text = render::render(&self.nodes, &self.edges);
        for note in &self.notes {
            text.push_str(&format!("\nNote: {note}\n"));
        }
        text
    }
}

/// The answer of [`Analysis::paths_between`]: none found, or the subgraph
/// of the paths.
#[derive(Debug, Clone)]
pub struct PathsBetween {
    pub paths: usize,
    pub graph: Option<DependencyGraph>,
    pub generation: u64,
}

impl PathsBetween {
    /// The subgraph's text, or the spec's sentence for no path.
    pub fn text(&self) -> String {
        match &self.graph {
            Some(graph) => graph.text(),
            None => render::NO_PATH.to_string(),
        }
    }
}

impl Analysis {
    /// Who depends on `symbol` (named by [`Analysis::symbol_in_file`] or
    /// [`Analysis::subject`]), transitively.
    pub fn dependents(&self, symbol: SymbolRef) -> Result<DependencyGraph, Exhausted> {
        self.traverse(symbol, Direction::Incoming)
    }

    /// What `symbol` depends on, transitively.
    pub fn dependencies(&self, symbol: SymbolRef) -> Result<DependencyGraph, Exhausted> {
        self.traverse(symbol, Direction::Outgoing)
    }

    /// Up to [`MAX_PATHS`] shortest paths from `from` to `to`, or else from
    /// `to` to `from`.
    pub fn paths_between(
        &self,
        from: SymbolRef,
        to: SymbolRef,
    ) -> Result<PathsBetween, AnalysisError> {
        if from == to {
            return Err(AnalysisError::SameSymbol);
        }
        let graph = self.graph()?;
        let (a, b) = (Node::Symbol(from), Node::Symbol(to));
        let mut paths = shortest_paths(&graph, a, b);
        if paths.is_empty() {
            paths = shortest_paths(&graph, b, a);
        }
        if paths.is_empty() {
            return Ok(PathsBetween {
                paths: 0,
                graph: None,
                generation: self.generation(),
            });
        }
        let mut result = Subgraph::new(a);
        result.query.insert(b);
        result.index(b);
        for path in &paths {
            for step in path.windows(2) {
                let (a, b) = (step[0], step[1]);
                if let Some((edge, label)) = graph
                    .edges(a, Direction::Outgoing)
                    .filter(|(_, other)| *other == b)
                    .find_map(|(edge, _)| followed(edge).map(|l| (edge, l)))
                {
                    result.add_edge(a, b, label, edge);
                }
            }
        }
        Ok(PathsBetween {
            paths: paths.len(),
            graph: Some(result.view(self.table(), Vec::new(), self.generation())),
            generation: self.generation(),
        })
    }

    fn traverse(
        &self,
        symbol: SymbolRef,
        direction: Direction,
    ) -> Result<DependencyGraph, Exhausted> {
        let start = Node::Symbol(symbol);
        let graph = self.graph()?;
        let mut result = Subgraph::new(start);
        let mut queue = VecDeque::from([(start, 0usize)]);
        let mut guesses = 0usize;
        let mut capped = false;
        while let Some((node, depth)) = queue.pop_front() {
            for (edge, other) in graph.edges(node, direction) {
                if edge.kind.is_dependency() && edge.resolution == Resolution::NameOnly {
                    guesses += 1;
                }
                let Some(label) = followed(edge) else {
                    continue;
                };
                // A declaration using itself (recursion) depends on nothing
                // new and adds no dependent.
                if other == node {
                    continue;
                }
                // A package, namespace or module named on the way to what
                // is used (`shapes.AreaOf`) is a path, not a dependency.
                if let Node::Symbol(r) = other
                    && matches!(
                        self.table().symbol(r).kind,
                        SymbolKind::Package | SymbolKind::Namespace | SymbolKind::Module
                    )
                {
                    continue;
                }
                let known = result.contains(other);
                if !known && result.len() > MAX_NODES {
                    capped = true;
                    continue;
                }
                let (from, to) = match direction {
                    Direction::Incoming => (other, node),
                    Direction::Outgoing => (node, other),
                };
                result.add_edge(from, to, label, edge);
                if !known && depth + 1 < MAX_DEPTH {
                    queue.push_back((other, depth + 1));
                }
            }
        }
        let mut notes = Vec::new();
        if capped {
            notes.push(format!(
                "Only the first {MAX_NODES} symbols are shown; the graph continues beyond them."
            ));
        }
        if guesses > 0 {
            notes.push(format!(
                "{guesses} name-only matches (same name, not resolved by the language's rules) are not shown; find_references lists them."
            ));
        }
        Ok(result.view(self.table(), notes, self.generation()))
    }
}

/// Edges the graph queries follow: CALLS, REFERENCES, EXTENDS, IMPLEMENTS,
/// resolved by the language's rules (name-only guesses are left out and
/// counted).
fn followed(edge: &Edge) -> Option<EdgeLabel> {
    if edge.resolution == Resolution::NameOnly {
        return None;
    }
    match edge.kind {
        EdgeKind::Calls => Some(EdgeLabel::Calls),
        EdgeKind::References => Some(EdgeLabel::References),
        EdgeKind::Extends => Some(EdgeLabel::Extends),
        EdgeKind::Implements => Some(EdgeLabel::Implements),
        EdgeKind::Contains | EdgeKind::Imports => None,
    }
}

/// Up to [`MAX_PATHS`] shortest paths from `from` to `to` over followed edges.
fn shortest_paths(graph: &CodeGraph, from: Node, to: Node) -> Vec<Vec<Node>> {
    // Breadth-first distances from `from`, remembering every predecessor on
    // a shortest route.
    let mut distance: HashMap<Node, usize> = HashMap::from([(from, 0)]);
    let mut predecessors: HashMap<Node, Vec<Node>> = HashMap::new();
    let mut queue = VecDeque::from([from]);
    while let Some(node) = queue.pop_front() {
        let d = distance.get(&node).copied().unwrap_or_default();
        if d >= MAX_DEPTH || distance.get(&to).is_some_and(|dt| d >= *dt) {
            continue;
        }
        for (edge, next) in graph.edges(node, Direction::Outgoing) {
            if followed(edge).is_none() {
                continue;
            }
            match distance.get(&next) {
                None => {
                    distance.insert(next, d + 1);
                    predecessors.entry(next).or_default().push(node);
                    queue.push_back(next);
                }
                Some(&dn) if dn == d + 1 => {
                    let list = predecessors.entry(next).or_default();
                    if !list.contains(&node) {
                        list.push(node);
                    }
                }
                Some(_) => {}
            }
        }
    }
    if !distance.contains_key(&to) {
        return Vec::new();
    }
    // Walk back from `to`, branching over predecessors, until enough paths.
    let mut paths = Vec::new();
    let mut stack = vec![vec![to]];
    while let Some(partial) = stack.pop() {
        let Some(&head) = partial.last() else {
            continue;
        };
        if head == from {
            let mut path = partial.clone();
            path.reverse();
            paths.push(path);
            if paths.len() == MAX_PATHS {
                break;
            }
            continue;
        }
        for previous in predecessors.get(&head).into_iter().flatten().rev() {
            let mut longer = partial.clone();
            longer.push(*previous);
            stack.push(longer);
        }
    }
    paths
}

/// The nodes and edges of an answer, in discovery order.
struct Subgraph {
    nodes: Vec<Node>,
    index: HashMap<Node, usize>,
    query: HashSet<Node>,
    /// (from, to, label, the reference sites behind the edge).
    edges: Vec<(usize, usize, EdgeLabel, Vec<Site>)>,
    edge_index: HashMap<(usize, usize, EdgeLabel), usize>,
}

impl Subgraph {
    fn new(query: Node) -> Self {
        let mut graph = Subgraph {
            nodes: Vec::new(),
            index: HashMap::new(),
            query: HashSet::from([query]),
            edges: Vec::new(),
            edge_index: HashMap::new(),
        };
        graph.index(query);
        graph
    }

    fn len(&self) -> usize {
        self.nodes.len()
    }

    fn contains(&self, node: Node) -> bool {
        self.index.contains_key(&node)
    }

    fn index(&mut self, node: Node) -> usize {
        if let Some(i) = self.index.get(&node) {
            return *i;
        }
        self.nodes.push(node);
        self.index.insert(node, self.nodes.len() - 1);
        self.nodes.len() - 1
    }

    fn add_edge(&mut self, from: Node, to: Node, label: EdgeLabel, edge: &Edge) {
        let (a, b) = (self.index(from), self.index(to));
        let slot = match self.edge_index.get(&(a, b, label)) {
            Some(slot) => *slot,
            None => {
                self.edges.push((a, b, label, Vec::new()));
                self.edge_index.insert((a, b, label), self.edges.len() - 1);
                self.edges.len() - 1
            }
        };
        self.edges[slot].3.extend(edge.site());
    }

    /// The nodes as the renderer sees them (source lines, the line of the
    /// first reference behind each edge a node starts) and the edges
    /// between them. One site per edge shows how the node depends; the
    /// others repeat it, and the Read tool's offset and limit reach them.
    fn view(&self, table: &SymbolTable, notes: Vec<String>, generation: u64) -> DependencyGraph {
        let mut focus: Vec<Vec<u32>> = vec![Vec::new(); self.nodes.len()];
        for (from, _, _, sites) in &self.edges {
            let first_line = sites
                .iter()
                .filter_map(|site| {
                    table
                        .files()
                        .get(site.file as usize)
                        .and_then(|file| file.facts.as_ref().ok())
                        .and_then(|f| f.references.get(site.reference as usize))
                        .map(|r| r.span.start.line + 1)
                })
                .min();
            focus[*from].extend(first_line);
        }
        let nodes = self
            .nodes
            .iter()
            .zip(focus)
            .map(|(node, focus_lines)| {
                node_view(table, *node, focus_lines, self.query.contains(node))
            })
            .collect();
        let edges = self
            .edges
            .iter()
            .map(|(from, to, label, _)| EdgeView {
                from: *from,
                to: *to,
                label: *label,
            })
            .collect();
        DependencyGraph {
            nodes,
            edges,
            notes,
            generation,
        }
    }
}

fn node_view(table: &SymbolTable, node: Node, focus_lines: Vec<u32>, is_query: bool) -> NodeView {
    let file = &table.files()[node.file() as usize];
    let (name, start, end) = match node {
        Node::Symbol(r) => {
            let symbol = table.symbol(r);
            (
                symbol.name.to_string(),
                symbol.span.start.line,
                symbol.span.end.line,
            )
        }
        Node::File(_) => (
            file.path.clone(),
            0,
            file.line_count().saturating_sub(1) as u32,
        ),
    };
    let lines: Vec<String> = file
        .source()
        .lines()
        .skip(start as usize)
        .take((end - start + 1) as usize)
        .map(str::to_string)
        .collect();
    NodeView {
        name,
        file: file.path.clone(),
        start_line: start + 1,
        end_line: end + 1,
        lines: Some(lines),
        focus_lines,
        is_query,
    }
}
