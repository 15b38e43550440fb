//! The graph tools of graph-tools-api.md: `dependents_of`,
//! `dependencies_of` and `paths_between`, adapters over the analysis's
//! dependency queries answering in the spec's text format.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{About, Tool, ToolContext, text};
use crate::args::Group;
use crate::error::ToolError;
use lingo_analysis::{Analysis, DependencyGraph, SymbolRef};

/// A declaration, by its file and name.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct SymbolArgs {
    /// File declaring the symbol, relative to the workspace root
    file_path: String,
    /// The symbol's name (`name`, or `Type.name` for a member)
    symbol: String,
}

impl Group for SymbolArgs {}

impl SymbolArgs {
    /// The declaration named.
    fn resolve(&self, analysis: &Analysis) -> Result<SymbolRef, ToolError> {
        analysis
            .symbol_in_file(&self.file_path, &self.symbol)
            .map_err(|e| ToolError::from(e).blame("path", "file_path"))
    }
}

#[derive(Deserialize, JsonSchema)]
struct PathsArgs {
    /// Where the paths start
    from: SymbolArgs,
    /// Where the paths end
    to: SymbolArgs,
}

impl Group for PathsArgs {}

/// An answer in the spec's text format: the rendered graph, with its size.
#[derive(Serialize, JsonSchema)]
pub struct GraphText {
    format: TextFormat,
    pub text: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    nodes: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    edges: Option<usize>,
    generation: u64,
    /// Paths found (`paths_between`).
    #[serde(skip_serializing_if = "Option::is_none")]
    paths: Option<usize>,
}

/// Always `text`.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum TextFormat {
    Text,
}

pub fn dependents_of() -> Tool {
    Tool::new(
        About {
            name: "dependents_of",
            aliases: &["dependentsOf"],
            description: "Impact analysis: what depends on a symbol (what breaks if it changes): its callers, referrers, subclasses and implementations, transitively, as a text graph with each symbol's file and lines.",
            text: text::graph,
        },
        run_dependents,
    )
}

pub fn dependencies_of() -> Tool {
    Tool::new(
        About {
            name: "dependencies_of",
            aliases: &["dependenciesOf"],
            description: "What a symbol depends on: what it calls, references, extends or implements, transitively, as a text graph.",
            text: text::graph,
        },
        run_dependencies,
    )
}

pub fn paths_between() -> Tool {
    Tool::new(
        About {
            name: "paths_between",
            aliases: &["pathsBetween"],
            description: "How two symbols are connected: up to 3 shortest paths through calls, references and inheritance, as a text graph.",
            text: text::graph,
        },
        run_paths,
    )
}

fn run_dependents(context: &ToolContext, args: SymbolArgs) -> Result<GraphText, ToolError> {
    let analysis = Analysis::fresh(&context.workspace)?;
    Ok(text_answer(&analysis.dependents(args.resolve(&analysis)?)?))
}

fn run_dependencies(context: &ToolContext, args: SymbolArgs) -> Result<GraphText, ToolError> {
    let analysis = Analysis::fresh(&context.workspace)?;
    Ok(text_answer(
        &analysis.dependencies(args.resolve(&analysis)?)?,
    ))
}

fn run_paths(context: &ToolContext, args: PathsArgs) -> Result<GraphText, ToolError> {
    let analysis = Analysis::fresh(&context.workspace)?;
    let (from, to) = (
        analysis.symbol_in_file(&args.from.file_path, &args.from.symbol)?,
        analysis.symbol_in_file(&args.to.file_path, &args.to.symbol)?,
    );
    let answer = analysis.paths_between(from, to)?;
    let mut value = match &answer.graph {
        Some(graph) => text_answer(graph),
        None => GraphText {
            format: TextFormat::Text,
            text: answer.text(),
            nodes: None,
            edges: None,
            generation: answer.generation,
            paths: None,
        },
    };
    value.paths = Some(answer.paths);
    Ok(value)
}

/// The text answer: the rendered graph, then any notes.
fn text_answer(graph: &DependencyGraph) -> GraphText {
    GraphText {
        format: TextFormat::Text,
        text: graph.text(),
        nodes: Some(graph.nodes.len()),
        edges: Some(graph.edges.len()),
        generation: graph.generation,
        paths: None,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;
    use crate::{Answer, ToolRegistry};

    /// A graph answer holding `text`.
    fn graph_answer(text: &str) -> Answer {
        let graph = GraphText {
            format: TextFormat::Text,
            text: text.into(),
            nodes: None,
            edges: None,
            generation: 4,
            paths: None,
        };
        Answer::of(graph, text::graph)
    }

    #[test]
    fn text_answers_repeat_what_the_structured_answer_says_about_itself() {
        let tools = ToolRegistry::new();
        let graph = tools.find("dependents_of").unwrap();
        let mut answer = graph_answer("## Graph\n\na --CALLS--> b\n");
        let notes = json!({
            "complete": false,
            "incompleteReasons": ["plugin `x` exceeded its time limit"],
            "refreshing": true,
            "index": { "generation": 4 },
            "unanalyzedFiles": 2,
        });
        for (key, note) in notes.as_object().unwrap() {
            answer.note(key, note.clone());
        }
        let text = graph.render(&json!({}), &answer);
        assert!(text.starts_with("## Graph\n\na --CALLS--> b\n\n"), "{text}");
        assert!(text.contains("Note: incomplete: plugin `x` exceeded its time limit"));
        assert!(text.contains("Note: answered from index generation 4 while it refreshes"));
        assert!(text.contains("Note: 2 files could not be analysed"));

        let plain = graph_answer("## Graph\n");
        assert_eq!(graph.render(&json!({}), &plain), "## Graph\n");
        let as_json = graph.render(&json!({ "format": "json" }), &plain);
        assert_eq!(
            serde_json::from_str::<Value>(&as_json).unwrap(),
            json!({ "format": "text", "text": "## Graph\n", "generation": 4 })
        );
    }
}
