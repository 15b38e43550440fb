//! The graph tools of graph-tools-api.md: `dependents_of`,
//! `dependencies_of` and `paths_between`, adapters over the analysis's
//! dependency queries answering in the spec's text format.

use serde_json::{Value, json};

use super::{Args, Tool, ToolContext, output, text};
use crate::error::ToolError;
use lingo_analysis::{Analysis, DependencyGraph, SymbolRef};

pub fn dependents_of() -> Tool {
    Tool {
        name: "dependents_of",
        aliases: &["dependentsOf"],
        description: "Who depends on this symbol: every caller, referrer, subclass and implementation, transitively, as a compact text graph (`A --CALLS--> B`) with a Nodes section giving each discovered symbol's file, offset and limit (for a Read tool) and, for small results, code snippets.",
        input_schema: symbol_schema(),
        handler: run_dependents,
        text: text::graph,
        output_schema: output::graph_text(),
    }
}

pub fn dependencies_of() -> Tool {
    Tool {
        name: "dependencies_of",
        aliases: &["dependenciesOf"],
        description: "What this symbol depends on: everything it calls, references, extends or implements, transitively, in the same text format as dependents_of.",
        input_schema: symbol_schema(),
        handler: run_dependencies,
        text: text::graph,
        output_schema: output::graph_text(),
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
        text: text::graph,
        output_schema: output::graph_text(),
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
    let analysis = Analysis::fresh(&context.workspace)?;
    Ok(text_answer(&analysis.dependents(symbol(&analysis, args)?)?))
}

fn run_dependencies(context: &ToolContext, args: &Args) -> Result<Value, ToolError> {
    let analysis = Analysis::fresh(&context.workspace)?;
    Ok(text_answer(
        &analysis.dependencies(symbol(&analysis, args)?)?,
    ))
}

/// The declaration `file_path` and `symbol` name.
fn symbol(analysis: &Analysis, args: &Args) -> Result<SymbolRef, ToolError> {
    let path = args.required_str("file_path")?;
    let symbol = args.required_str("symbol")?;
    analysis
        .symbol_in_file(path, symbol)
        .map_err(|e| ToolError::from(e).blame("path", "file_path"))
}

fn run_paths(context: &ToolContext, args: &Args) -> Result<Value, ToolError> {
    let analysis = Analysis::fresh(&context.workspace)?;
    let end = |field: &str| -> Result<SymbolRef, ToolError> {
        let value = args.value(field).ok_or_else(|| ToolError::MissingParam {
            field: field.to_string(),
        })?;
        let part = |key: &str| {
            value[key].as_str().ok_or_else(|| ToolError::MissingParam {
                field: format!("{field}.{key}"),
            })
        };
        Ok(analysis.symbol_in_file(part("file_path")?, part("symbol")?)?)
    };
    let (from, to) = (end("from")?, end("to")?);
    let answer = analysis.paths_between(from, to)?;
    let mut value = match &answer.graph {
        Some(graph) => text_answer(graph),
        None => json!({ "format": "text", "text": answer.text(), "generation": answer.generation }),
    };
    value["paths"] = json!(answer.paths);
    Ok(value)
}

/// The text answer: the rendered graph, then any notes.
fn text_answer(graph: &DependencyGraph) -> Value {
    json!({
        "format": "text",
        "text": graph.text(),
        "nodes": graph.nodes.len(),
        "edges": graph.edges.len(),
        "generation": graph.generation,
    })
}
