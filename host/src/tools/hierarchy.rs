//! `get_call_hierarchy`: who calls a function and what it calls, to a
//! chosen depth, from the CALLS edges of the symbol graph.

use std::collections::{BTreeMap, HashSet};

use petgraph::Direction;
use serde_json::{Value, json};

use super::references::completeness;
use super::target::{self, Subject};
use super::{Args, Tool, ToolContext, range_json, view};
use crate::error::ToolError;
use crate::graph::{CodeGraph, EdgeKind, Node, Site};
use crate::model::ReferenceKind;
use crate::resolve::{Resolution, Resolver, SymbolTable};

const MAX_DEPTH: u64 = 5;
/// Calls listed in the whole tree at most; the rest is counted as omitted.
const MAX_CALLS: usize = 500;

pub fn tool() -> Tool {
    let mut properties = target::properties();
    properties.insert(
        "direction".into(),
        json!({ "type": "string", "enum": ["incoming", "outgoing", "both"], "description": "Callers, callees or both (default both)" }),
    );
    properties.insert(
        "depth".into(),
        json!({ "type": "integer", "minimum": 1, "maximum": MAX_DEPTH, "description": "Levels of callers/callees to follow (default 1)" }),
    );
    Tool {
        name: "get_call_hierarchy",
        aliases: &["getCallHierarchy", "call_hierarchy"],
        description: "Incoming calls (callers, with the call sites) and outgoing calls (callees) of a function or method, to a depth of up to 5 levels. Name it by position or by `symbol` (+ `path`). Every call says how it was resolved; `completeness` reports name-only guesses and calls that could not be resolved.",
        input_schema: json!({
            "type": "object",
            "properties": properties,
            "additionalProperties": false
        }),
        handler: run,
    }
}

fn run(context: &ToolContext, args: &Args) -> Result<Value, ToolError> {
    let workspace = &context.workspace;
    let direction = args.str("direction")?.unwrap_or("both");
    let (incoming, outgoing) = match direction {
        "incoming" => (true, false),
        "outgoing" => (false, true),
        "both" => (true, true),
        other => {
            return Err(ToolError::InvalidParam {
                field: "direction".into(),
                reason: format!("`{other}` is not one of incoming, outgoing, both"),
                suggestions: crate::error::similar(other, ["incoming", "outgoing", "both"], 1),
            });
        }
    };
    let depth = args.uint("depth", MAX_DEPTH)?.unwrap_or(1).max(1) as usize;
    let snapshot = workspace.fresh();
    let resolver = Resolver::new(&snapshot);
    let subject = target::subject(workspace, &snapshot, &resolver, args)?;
    let Subject::Symbol(root) = subject else {
        return Err(ToolError::invalid(
            "symbol",
            "a local binding has no call hierarchy; name a function or method",
        ));
    };
    let graph = snapshot.graph();
    let table = resolver.table();
    let mut result = json!({
        "item": view::symbol(table, root),
        "direction": direction,
        "depth": depth,
        "generation": snapshot.generation,
    });
    let mut budget = MAX_CALLS;
    if incoming {
        let mut walk = Walk::new(&graph, table, Direction::Incoming);
        result["incoming"] = json!(walk.level(Node::Symbol(root), depth, &mut budget));
        let sites: Vec<Value> = graph
            .edges(Node::Symbol(root), Direction::Incoming)
            .filter(|(e, _)| e.kind == EdgeKind::Calls)
            .filter_map(|(e, _)| view::edge_site(table, e))
            .collect();
        result["incoming_completeness"] = completeness(&graph, &resolver, &subject, &sites);
    }
    if outgoing {
        let mut walk = Walk::new(&graph, table, Direction::Outgoing);
        result["outgoing"] = json!(walk.level(Node::Symbol(root), depth, &mut budget));
        result["outgoing_completeness"] = unresolved_calls(&graph, table, root);
    }
    result["omitted_calls"] = json!(if budget == 0 {
        "some calls beyond the 500-call limit were omitted"
    } else {
        "none"
    });
    Ok(result)
}

/// The calls between one pair of nodes: the node at the other end, the call
/// sites, the most certain resolution and the highest confidence.
type Calls = (Node, Vec<Site>, Resolution, f32);

/// A breadth-limited walk over CALLS edges in one direction.
struct Walk<'g> {
    graph: &'g CodeGraph,
    table: &'g SymbolTable,
    direction: Direction,
    /// Nodes already expanded, so cycles (recursion) end.
    seen: HashSet<Node>,
}

impl<'g> Walk<'g> {
    fn new(graph: &'g CodeGraph, table: &'g SymbolTable, direction: Direction) -> Self {
        Walk {
            graph,
            table,
            direction,
            seen: HashSet::new(),
        }
    }

    /// The callers (or callees) of `node`, each with its call sites and,
    /// below `depth`, its own callers (callees).
    fn level(&mut self, node: Node, depth: usize, budget: &mut usize) -> Vec<Value> {
        self.seen.insert(node);
        // Group the call sites by the node at the other end, in a stable order.
        let mut by_other: BTreeMap<(u32, u32, bool), Calls> = BTreeMap::new();
        for (edge, other) in self.graph.edges(node, self.direction) {
            if edge.kind != EdgeKind::Calls {
                continue;
            }
            let key = match other {
                Node::Symbol(s) => (s.file, s.symbol, false),
                Node::File(f) => (f, 0, true),
            };
            let entry = by_other
                .entry(key)
                .or_insert((other, Vec::new(), edge.resolution, 0.0));
            entry.1.extend(edge.site);
            entry.2 = entry.2.min(edge.resolution);
            entry.3 = entry.3.max(edge.confidence);
        }
        let mut out = Vec::new();
        for (other, sites, resolution, confidence) in by_other.into_values() {
            if *budget == 0 {
                break;
            }
            *budget -= 1;
            let mut item = json!({
                "resolution": resolution,
                "confidence": (confidence * 100.0).round() / 100.0,
                "call_sites": sites.iter().map(|s| self.site_range(*s)).collect::<Vec<_>>(),
            });
            let key = if self.direction == Direction::Incoming {
                "from"
            } else {
                "to"
            };
            item[key] = match other {
                Node::Symbol(s) => view::symbol(self.table, s),
                Node::File(f) => json!({
                    "kind": "file",
                    "file_path": self.table.files()[f as usize].path,
                    "note": "top-level code outside any declaration",
                }),
            };
            if depth > 1 && !self.seen.contains(&other) {
                let nested = self.level(other, depth - 1, budget);
                let key = if self.direction == Direction::Incoming {
                    "incoming"
                } else {
                    "outgoing"
                };
                item[key] = json!(nested);
            }
            out.push(item);
        }
        out
    }

    fn site_range(&self, site: Site) -> Value {
        let file = &self.table.files()[site.file as usize];
        let reference = &file
            .facts
            .as_ref()
            .expect("sites come from analyzed files")
            .references[site.reference as usize];
        json!({ "file_path": file.path, "range": range_json(&reference.span) })
    }
}

/// Calls written inside `root` that resolved to nothing: what the outgoing
/// list may be missing.
fn unresolved_calls(
    graph: &CodeGraph,
    table: &SymbolTable,
    root: crate::resolve::SymbolRef,
) -> Value {
    let resolved: HashSet<Site> = graph
        .edges(Node::Symbol(root), Direction::Outgoing)
        .filter_map(|(e, _)| e.site)
        .collect();
    let file = table.file(root);
    let Ok(facts) = &file.facts else {
        return json!({ "complete": true });
    };
    let mut names: Vec<&str> = facts
        .references
        .iter()
        .enumerate()
        .filter(|(i, r)| {
            r.kind == ReferenceKind::Call
                && r.enclosing == Some(root.symbol)
                && r.local.is_none()
                && !resolved.contains(&Site {
                    file: root.file,
                    reference: *i as u32,
                })
        })
        .map(|(_, r)| r.name.as_str())
        .collect();
    names.sort_unstable();
    names.dedup();
    json!({
        "unresolved_calls": names.len(),
        "unresolved_names": names,
        "complete": names.is_empty(),
        "note": if names.is_empty() { "every call in the body resolved" } else { "calls to these names resolved to nothing in the workspace (library code, or too many same-named candidates)" },
    })
}
