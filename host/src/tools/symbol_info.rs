//! `get_symbol_info`: everything the index knows about one declaration:
//! signature, documentation, visibility, modifiers, members, metrics and
//! how much of the workspace depends on it.

use petgraph::Direction;
use serde_json::{Value, json};

use super::target::{self, Subject};
use super::{Args, Tool, ToolContext, view};
use crate::error::ToolError;
use crate::graph::{EdgeKind, Node};
use crate::resolve::{Resolution, Resolver};

/// Members listed at most.
const MAX_MEMBERS: usize = 200;

pub fn tool() -> Tool {
    Tool {
        name: "get_symbol_info",
        aliases: &["getSymbolInfo", "hover"],
        description: "Everything known about one declaration: kind, signature, documentation, visibility, modifiers, container, members, complexity metrics, and counts of its references, callers, callees and implementations (certain and name-only). Name it by position or by `symbol` (+ `path`).",
        input_schema: json!({
            "type": "object",
            "properties": target::properties(),
            "additionalProperties": false
        }),
        handler: run,
    }
}

fn run(context: &ToolContext, args: &Args) -> Result<Value, ToolError> {
    let workspace = &context.workspace;
    let snapshot = workspace.fresh();
    let resolver = Resolver::new(&snapshot);
    let subject = target::subject(workspace, &snapshot, &resolver, args)?;
    let table = resolver.table();
    let mut info = view::subject(table, &subject);
    info["generation"] = json!(snapshot.generation);
    let Subject::Symbol(r) = subject else {
        return Ok(info);
    };
    let file = table.file(r);
    let facts = file.facts()?;
    let symbol = table.symbol(r);
    info["doc"] = json!(symbol.doc);
    info["visibility"] = json!(symbol.visibility);
    info["modifiers"] = json!(symbol.modifiers);
    info["module"] = json!(facts.modules.first().map(|m| &m.path));
    if let Some(metrics) = facts.metrics.iter().find(|m| m.symbol == r.symbol) {
        info["metrics"] = json!(metrics);
    }

    let graph = snapshot.graph();
    let node = Node::Symbol(r);
    let mut members = Vec::new();
    let mut counts = Counts::default();
    for (edge, other) in graph.edges(node, Direction::Outgoing) {
        match (edge.kind, other) {
            (EdgeKind::Contains, Node::Symbol(member)) => members.push(member),
            (EdgeKind::Calls, _) => counts.calls.add(edge.resolution),
            _ => {}
        }
    }
    for (edge, _) in graph.edges(node, Direction::Incoming) {
        match edge.kind {
            EdgeKind::Contains => {}
            EdgeKind::Calls => {
                counts.callers.add(edge.resolution);
                counts.references.add(edge.resolution);
            }
            EdgeKind::Extends | EdgeKind::Implements => {
                counts.implementations.add(edge.resolution);
                counts.references.add(edge.resolution);
            }
            _ => counts.references.add(edge.resolution),
        }
    }
    info["members"] = json!(
        members
            .iter()
            .take(MAX_MEMBERS)
            .map(|m| {
                let s = table.symbol(*m);
                json!({ "name": s.name, "kind": s.kind.as_str(), "line": s.span.start.line })
            })
            .collect::<Vec<_>>()
    );
    info["members_total"] = json!(members.len());
    info["references"] = counts.references.json();
    info["callers"] = counts.callers.json();
    info["callees"] = counts.calls.json();
    info["implementations"] = counts.implementations.json();
    Ok(info)
}

/// Certain and name-only counts of one kind of edge.
#[derive(Default)]
struct Tally {
    certain: usize,
    name_only: usize,
}

impl Tally {
    fn add(&mut self, resolution: Resolution) {
        if resolution == Resolution::NameOnly {
            self.name_only += 1;
        } else {
            self.certain += 1;
        }
    }

    fn json(&self) -> Value {
        json!({ "certain": self.certain, "name_only": self.name_only })
    }
}

#[derive(Default)]
struct Counts {
    references: Tally,
    callers: Tally,
    calls: Tally,
    implementations: Tally,
}
