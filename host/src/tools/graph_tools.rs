//! The graph tools of graph-tools-api.md: `dependents_of`,
//! `dependencies_of` and `paths_between`, answering in the spec's text
//! format (Graph and Nodes sections).

use std::collections::{HashMap, HashSet, VecDeque};

use petgraph::Direction;
use serde_json::{Value, json};

use super::{Args, Tool, ToolContext};
use crate::error::{ToolError, similar};
use crate::graph::render::{self, EdgeLabel, EdgeView, NodeView};
use crate::graph::{CodeGraph, Edge, EdgeKind, Node, Site};
use crate::resolve::{Resolution, Resolver, SymbolRef, SymbolTable, is_item};
use crate::workspace::Workspace;

/// How far a traversal goes: an internal safeguard, not the caller's concern.
const MAX_DEPTH: usize = 10;
/// Nodes a traversal discovers at most.
const MAX_NODES: usize = 100;
/// Paths `paths_between` shows at most.
const MAX_PATHS: usize = 3;

pub fn dependents_of() -> Tool {
    Tool {
        name: "dependents_of",
        aliases: &["dependentsOf"],
        description: "Who depends on this symbol: every caller, referrer, subclass and implementation, transitively, as a compact text graph (`A --CALLS--> B`) with a Nodes section giving each discovered symbol's file, offset and limit (for a Read tool) and, for small results, code snippets.",
        input_schema: symbol_schema(),
        handler: run_dependents,
    }
}

pub fn dependencies_of() -> Tool {
    Tool {
        name: "dependencies_of",
        aliases: &["dependenciesOf"],
        description: "What this symbol depends on: everything it calls, references, extends or implements, transitively, in the same text format as dependents_of.",
        input_schema: symbol_schema(),
        handler: run_dependencies,
    }
}

pub fn paths_between() -> Tool {
    let end = json!({
        "type": "object",
        "properties": {
            "file_path": { "type": "string" },
            "symbol": { "type": "string" }
        },
        "required": ["file_path", "symbol"],
        "additionalProperties": false
    });
    Tool {
        name: "paths_between",
        aliases: &["pathsBetween"],
        description: "How two symbols connect through the code graph: up to 3 shortest paths, searched in both directions (the arrows show the real direction), in the same text format as dependents_of.",
        input_schema: json!({
            "type": "object",
            "properties": { "from": end, "to": end },
            "required": ["from", "to"],
            "additionalProperties": false
        }),
        handler: run_paths,
    }
}

fn symbol_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "file_path": { "type": "string", "description": "File declaring the symbol, relative to the workspace root" },
            "symbol": { "type": "string", "description": "The symbol's name (`name`, or `Type.name` for a member)" }
        },
        "required": ["file_path", "symbol"],
        "additionalProperties": false
    })
}

fn run_dependents(context: &ToolContext, args: &Args) -> Result<Value, ToolError> {
    traverse(context, args, Direction::Incoming)
}

fn run_dependencies(context: &ToolContext, args: &Args) -> Result<Value, ToolError> {
    traverse(context, args, Direction::Outgoing)
}

/// Edges the graph tools follow: CALLS, REFERENCES, EXTENDS, IMPLEMENTS,
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

fn traverse(context: &ToolContext, args: &Args, direction: Direction) -> Result<Value, ToolError> {
    let workspace = &context.workspace;
    let snapshot = workspace.fresh();
    let resolver = Resolver::new(&snapshot);
    let table = resolver.table();
    let start = symbol_in_file(
        workspace,
        &snapshot,
        &resolver,
        args.required_str("file_path")?,
        args.required_str("symbol")?,
    )?;
    let graph = snapshot.graph();
    let mut result = Subgraph::new(Node::Symbol(start));
    let mut queue = VecDeque::from([(Node::Symbol(start), 0usize)]);
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
    Ok(answer(&result, table, &notes, snapshot.generation))
}

fn run_paths(context: &ToolContext, args: &Args) -> Result<Value, ToolError> {
    let workspace = &context.workspace;
    let snapshot = workspace.fresh();
    let resolver = Resolver::new(&snapshot);
    let table = resolver.table();
    let end = |field: &str| -> Result<SymbolRef, ToolError> {
        let value = args.value(field).ok_or_else(|| ToolError::MissingParam {
            field: field.to_string(),
        })?;
        let part = |key: &str| {
            value[key].as_str().ok_or_else(|| ToolError::MissingParam {
                field: format!("{field}.{key}"),
            })
        };
        symbol_in_file(
            workspace,
            &snapshot,
            &resolver,
            part("file_path")?,
            part("symbol")?,
        )
    };
    let (from, to) = (end("from")?, end("to")?);
    if from == to {
        return Err(ToolError::GraphQuery {
            message: render::SAME_SYMBOL.to_string(),
        });
    }
    let graph = snapshot.graph();
    let paths = shortest_paths(&graph, Node::Symbol(from), Node::Symbol(to));
    let paths = if paths.is_empty() {
        shortest_paths(&graph, Node::Symbol(to), Node::Symbol(from))
    } else {
        paths
    };
    if paths.is_empty() {
        return Ok(json!({
            "format": "text",
            "text": render::NO_PATH,
            "paths": 0,
            "generation": snapshot.generation,
        }));
    }
    let mut result = Subgraph::new(Node::Symbol(from));
    result.query.insert(Node::Symbol(to));
    result.index(Node::Symbol(to));
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
    let mut value = answer(&result, table, &[], snapshot.generation);
    value["paths"] = json!(paths.len());
    Ok(value)
}

/// Up to [`MAX_PATHS`] shortest paths from `from` to `to` over followed edges.
fn shortest_paths(graph: &CodeGraph, from: Node, to: Node) -> Vec<Vec<Node>> {
    // Breadth-first distances from `from`, remembering every predecessor on
    // a shortest route.
    let mut distance: HashMap<Node, usize> = HashMap::from([(from, 0)]);
    let mut predecessors: HashMap<Node, Vec<Node>> = HashMap::new();
    let mut queue = VecDeque::from([from]);
    while let Some(node) = queue.pop_front() {
        let d = distance[&node];
        if d >= MAX_DEPTH || distance.contains_key(&to) && d >= distance[&to] {
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
        let head = *partial.last().expect("paths are never empty");
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
        self.edges[slot].3.extend(edge.site);
    }
}

/// The text answer: the rendered graph, then any notes.
fn answer(result: &Subgraph, table: &SymbolTable, notes: &[String], generation: u64) -> Value {
    // A node's focus lines are the lines of the references it makes.
    let mut focus: Vec<Vec<u32>> = vec![Vec::new(); result.nodes.len()];
    for (from, _, _, sites) in &result.edges {
        for site in sites {
            let file = &table.files()[site.file as usize];
            if let Some(r) = file
                .facts
                .as_ref()
                .ok()
                .and_then(|f| f.references.get(site.reference as usize))
            {
                focus[*from].push(r.span.start.line + 1);
            }
        }
    }
    let views: Vec<NodeView> = result
        .nodes
        .iter()
        .zip(focus)
        .map(|(node, focus_lines)| {
            node_view(table, *node, focus_lines, result.query.contains(node))
        })
        .collect();
    let edges: Vec<EdgeView> = result
        .edges
        .iter()
        .map(|(from, to, label, _)| EdgeView {
            from: *from,
            to: *to,
            label: *label,
        })
        .collect();
    let mut text = render::render(&views, &edges);
    for note in notes {
        text.push_str(&format!("\nNote: {note}\n"));
    }
    json!({
        "format": "text",
        "text": text,
        "nodes": views.len(),
        "edges": edges.len(),
        "generation": generation,
    })
}

fn node_view(table: &SymbolTable, node: Node, focus_lines: Vec<u32>, is_query: bool) -> NodeView {
    let file = &table.files()[node.file() as usize];
    let (name, start, end) = match node {
        Node::Symbol(r) => {
            let symbol = table.symbol(r);
            (
                symbol.name.clone(),
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
        .source
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

/// The declaration named `symbol` (or `Type.name`) in `path`.
fn symbol_in_file(
    workspace: &Workspace,
    snapshot: &crate::workspace::Snapshot,
    resolver: &Resolver,
    path: &str,
    symbol: &str,
) -> Result<SymbolRef, ToolError> {
    let file = workspace.file(snapshot, path)?;
    let facts = file.facts()?;
    let table = resolver.table();
    let file_number = table
        .file_number(&file.path)
        .ok_or_else(|| ToolError::Internal(format!("{} missing from the table", file.path)))?;
    let separators = super::target::separators(workspace);
    let (owner, name) = crate::resolve::split_qualified(symbol, &separators);
    let found: Vec<usize> = facts
        .symbols
        .iter()
        .enumerate()
        .filter(|(_, s)| {
            s.name == name
                && is_item(s)
                && owner.is_none_or(|o| {
                    crate::resolve::owner_fits(s.container_name.as_deref(), o, &separators)
                })
        })
        .map(|(i, _)| i)
        .collect();
    let at = |index: usize| SymbolRef {
        file: file_number,
        symbol: index as u32,
    };
    match found.as_slice() {
        [one] => Ok(at(*one)),
        [] => Err(ToolError::SymbolNotFound {
            name: format!("{symbol} in {}", file.path),
            nearby: similar(name, facts.symbols.iter().map(|s| s.name.as_str()), 5),
        }),
        several => Err(ToolError::SymbolAmbiguous {
            name: symbol.to_string(),
            candidates: several
                .iter()
                .map(|i| {
                    let s = &facts.symbols[*i];
                    format!(
                        "{}:{} {} {}",
                        file.path,
                        s.span.start.line + 1,
                        s.kind.as_str(),
                        super::view::qualified_name(&file, *i, s)
                    )
                })
                .collect(),
        }),
    }
}
