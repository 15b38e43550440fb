//! `find_references`: every resolved use of a declaration, paged, with how
//! each was resolved and what the answer may be missing.

use petgraph::Direction;
use serde_json::{Value, json};

use super::page::{self, PageRequest};
use super::target::{self, Subject};
use super::{Args, Tool, ToolContext, view};
use crate::error::ToolError;
use crate::graph::{CodeGraph, EdgeKind, Node};
use crate::resolve::{Resolution, Resolver, SymbolTable};

const DEFAULT_LIMIT: u64 = 200;
const MAX_LIMIT: u64 = 5000;
/// Possibly-missed sites listed in `completeness` at most.
const MAX_MISSED_SHOWN: usize = 10;

pub fn tool() -> Tool {
    let mut properties = target::properties();
    properties.insert(
        "include_declaration".into(),
        json!({ "type": "boolean", "description": "List the declaration itself first (default true)" }),
    );
    let mut input_schema = json!({
        "type": "object",
        "properties": properties,
        "additionalProperties": false
    });
    page::add_to_schema(&mut input_schema, DEFAULT_LIMIT, MAX_LIMIT);
    Tool {
        name: "find_references",
        aliases: &["findReferences"],
        description: "Find every use of a declaration across the workspace: calls, type uses, reads and writes, imports, extends and implements. Name the declaration by a position (path, zero-based line and character) or by `symbol` (+ `path`). Each reference says how it was resolved (scope, import, qualified, name_only) and how certain it is; `completeness` counts the certain and guessed references and lists same-named uses that could not be resolved, so an empty list is never a silent miss. Paged with offset/limit and a byte budget.",
        input_schema,
        handler: run,
    }
}

fn run(context: &ToolContext, args: &Args) -> Result<Value, ToolError> {
    let workspace = &context.workspace;
    let paging = PageRequest::from_args(args, DEFAULT_LIMIT, MAX_LIMIT)?;
    let include_declaration = args.bool("include_declaration", true)?;
    let snapshot = workspace.fresh();
    let resolver = Resolver::new(&snapshot);
    let subject = target::subject(workspace, &snapshot, &resolver, args)?;
    let table = resolver.table();
    let (mut items, completeness) = match &subject {
        Subject::Symbol(r) => {
            let graph = snapshot.graph();
            let mut items = incoming_sites(&graph, table, Node::Symbol(*r));
            sort_sites(&mut items);
            let completeness = completeness(&graph, &resolver, &subject, &items);
            (items, completeness)
        }
        Subject::Local { file, index } => {
            let facts = file.facts()?;
            let file_number = table.file_number(&file.path).unwrap_or_default();
            let items: Vec<Value> = facts
                .references
                .iter()
                .enumerate()
                .filter(|(_, r)| r.local == Some(*index as u32))
                .map(|(i, _)| {
                    let mut site = view::site(
                        table,
                        crate::graph::Site {
                            file: file_number,
                            reference: i as u32,
                        },
                    );
                    site["resolution"] = json!(Resolution::Scope);
                    site["confidence"] = json!(1.0);
                    site
                })
                .collect();
            let resolved = items.len();
            let completeness = json!({
                "resolved": resolved,
                "name_only": 0,
                "possibly_missed": 0,
                "complete": true,
                "note": "a local binding: every use is in its scope in this file",
            });
            (items, completeness)
        }
    };
    if include_declaration {
        let mut declaration = view::subject(table, &subject);
        declaration["kind"] = json!("declaration");
        declaration["resolution"] = json!(Resolution::Declaration);
        declaration["confidence"] = json!(1.0);
        items.insert(0, declaration);
    }
    let (references, pagination) = paging.page(items);
    Ok(json!({
        "symbol": view::subject(table, &subject),
        "references": references,
        "pagination": pagination,
        "completeness": completeness,
        "generation": snapshot.generation,
    }))
}

/// The reference sites of every dependency edge into `node`.
pub fn incoming_sites(graph: &CodeGraph, table: &SymbolTable, node: Node) -> Vec<Value> {
    graph
        .edges(node, Direction::Incoming)
        .filter(|(edge, _)| edge.kind.is_dependency() || edge.kind == EdgeKind::Imports)
        .filter_map(|(edge, _)| view::edge_site(table, edge))
        .collect()
}

/// By file, then position.
pub fn sort_sites(items: &mut [Value]) {
    items.sort_by(|a, b| {
        let key = |v: &Value| {
            (
                v["file_path"].as_str().unwrap_or_default().to_string(),
                v["range"]["start"]["line"].as_u64().unwrap_or_default(),
                v["range"]["start"]["character"]
                    .as_u64()
                    .unwrap_or_default(),
            )
        };
        key(a).cmp(&key(b))
    });
}

/// How complete a list of reference `sites` of `subject` is: certain and
/// name-only counts, and the same-named references nothing resolved, which
/// may be uses the list lacks.
pub fn completeness(
    graph: &CodeGraph,
    resolver: &Resolver,
    subject: &Subject,
    sites: &[Value],
) -> Value {
    let Subject::Symbol(r) = subject else {
        return json!({ "complete": true });
    };
    let table = resolver.table();
    let symbol = table.symbol(*r);
    let name_only = sites
        .iter()
        .filter(|s| s["resolution"] == json!(Resolution::NameOnly))
        .count();
    let missed: Vec<_> = graph
        .unresolved_named(&symbol.name)
        .filter(|miss| {
            // A use through a value (`x.name`) can only mean a member.
            let facts = table.files()[miss.site.file as usize]
                .facts
                .as_ref()
                .expect("sites come from analyzed files");
            !facts.references[miss.site.reference as usize].is_member
                || crate::resolve::is_member_declaration(symbol)
        })
        .collect();
    let ambiguous = missed.iter().filter(|m| m.candidates > 0).count();
    let shown: Vec<Value> = missed
        .iter()
        .take(MAX_MISSED_SHOWN)
        .map(|m| view::site(table, m.site))
        .collect();
    let complete = name_only == 0 && missed.is_empty();
    let note = if complete {
        "every same-named reference in the workspace was resolved; these are all of them"
            .to_string()
    } else {
        format!(
            "{name_only} references are name-only guesses; {} same-named references could not be resolved ({ambiguous} because too many declarations share the name) and may also be uses of this declaration",
            missed.len()
        )
    };
    json!({
        "resolved": sites.len() - name_only,
        "name_only": name_only,
        "possibly_missed": missed.len(),
        "ambiguous": ambiguous,
        "possibly_missed_sites": shown,
        "complete": complete,
        "note": note,
    })
}
