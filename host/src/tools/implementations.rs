//! `find_implementations`: the declarations that implement an interface or
//! trait, or extend a class, following EXTENDS and IMPLEMENTS edges.

use std::collections::HashSet;

use petgraph::Direction;
use serde_json::{Value, json};

use super::page::{self, PageRequest};
use super::target::{self, Subject};
use super::{Args, Tool, ToolContext, view};
use crate::error::ToolError;
use crate::graph::{EdgeKind, Node};
use crate::resolve::{Resolution, Resolver};

const DEFAULT_LIMIT: u64 = 200;
const MAX_LIMIT: u64 = 5000;

pub fn tool() -> Tool {
    let mut properties = target::properties();
    properties.insert(
        "transitive".into(),
        json!({ "type": "boolean", "description": "Also list implementations of implementations and subclasses of subclasses (default true)" }),
    );
    let mut input_schema = json!({
        "type": "object",
        "properties": properties,
        "additionalProperties": false
    });
    page::add_to_schema(&mut input_schema, DEFAULT_LIMIT, MAX_LIMIT);
    Tool {
        name: "find_implementations",
        aliases: &["findImplementations", "goto_implementation"],
        description: "Find the types that implement an interface or trait, or extend a class: the declarations whose base list, `implements` clause or `impl ... for` names it. Transitive by default; each result says through which edge (EXTENDS or IMPLEMENTS), at which depth, and how it was resolved.",
        input_schema,
        handler: run,
    }
}

fn run(context: &ToolContext, args: &Args) -> Result<Value, ToolError> {
    let workspace = &context.workspace;
    let paging = PageRequest::from_args(args, DEFAULT_LIMIT, MAX_LIMIT)?;
    let transitive = args.bool("transitive", true)?;
    let snapshot = workspace.fresh();
    let resolver = Resolver::new(&snapshot);
    let subject = target::subject(workspace, &snapshot, &resolver, args)?;
    let Subject::Symbol(root) = subject else {
        return Err(ToolError::invalid(
            "symbol",
            "a local binding has no implementations; name an interface, trait or class",
        ));
    };
    let graph = snapshot.graph();
    let table = resolver.table();
    let mut items = Vec::new();
    let mut seen = HashSet::from([Node::Symbol(root)]);
    let mut frontier = vec![Node::Symbol(root)];
    let mut depth = 1;
    let mut name_only = 0;
    while !frontier.is_empty() {
        let mut next = Vec::new();
        for node in frontier {
            for (edge, other) in graph.edges(node, Direction::Incoming) {
                if !matches!(edge.kind, EdgeKind::Extends | EdgeKind::Implements) {
                    continue;
                }
                let Node::Symbol(implementor) = other else {
                    continue;
                };
                if !seen.insert(other) {
                    continue;
                }
                if edge.resolution == Resolution::NameOnly {
                    name_only += 1;
                }
                let mut item = view::symbol(table, implementor);
                item["relation"] = json!(edge.kind);
                item["depth"] = json!(depth);
                item["resolution"] = json!(edge.resolution);
                item["confidence"] = json!((edge.confidence * 100.0).round() / 100.0);
                if let Some(site) = edge.site.map(|s| view::site(table, s)) {
                    item["site"] = site;
                }
                items.push(item);
                next.push(other);
            }
        }
        if !transitive {
            break;
        }
        frontier = next;
        depth += 1;
    }
    // Nearest first, then by place.
    items.sort_by_key(|i| {
        (
            i["depth"].as_u64(),
            i["file_path"].as_str().map(str::to_string),
            i["range"]["start"]["line"].as_u64(),
        )
    });
    let (implementations, pagination) = paging.page(items);
    Ok(json!({
        "symbol": view::symbol(table, root),
        "implementations": implementations,
        "pagination": pagination,
        "completeness": {
            "name_only": name_only,
            "complete": name_only == 0,
            "note": "implementations are found from base lists and implements clauses written in the workspace; types from dependencies are not indexed",
        },
        "generation": snapshot.generation,
    }))
}
