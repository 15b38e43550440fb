//! lingo-tools: one adapter per MCP tool (arguments, answers, the compact
//! text) and the typed tool errors. Calls the layers below; knows no
//! JSON-RPC transport and never imports `lingo-mcp`.
//!
//! The MCP tools: their names, aliases, input schemas and handlers.

mod analyze;
mod answer;
mod args;
mod code_health;
mod definition;
mod diagnostics;
mod envelope;
pub mod error;
mod graph_tools;
mod health;
mod hierarchy;
mod implementations;
mod moves;
mod node;
mod outline;
pub mod output;
mod page;
mod refactor;
mod references;
mod search;
mod symbol_info;
mod target;
pub mod text;
pub mod toolsets;
mod type_definition;

use std::sync::Arc;

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Map, Value, json};

pub use answer::Answer;
pub use args::{Group, SharedArgs, ToolArgs, listed as listed_schema};
pub use toolsets::{Selection, SelectionError, Toolset};

use crate::error::ToolError;
use lingo_index::Workspace;
use lingo_model::suggest::similar;

/// What every tool handler gets.
pub struct ToolContext {
    pub workspace: Arc<Workspace>,
    /// Names of all tools, for `health_check`.
    pub tool_names: Vec<&'static str>,
    /// The project's quality-gate thresholds (`lingo.toml`).
    pub gate: lingo_analyze::GateConfig,
}

/// A tool's handler: reads its typed arguments ([`ToolArgs`]) from the
/// call's arguments (the second argument), checked against the tool's
/// input schema (the third), and runs the tool.
type Handler = Box<dyn Fn(&ToolContext, &Value, &Value) -> Result<Answer, ToolError> + Send + Sync>;

/// What a tool is, apart from its arguments and handler; `R` is its answer.
pub(crate) struct About<R> {
    pub name: &'static str,
    /// Other spellings accepted on `tools/call` (the specs' camelCase and dotted names).
    pub aliases: &'static [&'static str],
    pub description: &'static str,
    /// Writes the answer's compact text (the default `content`).
    pub text: text::Text<R>,
}

/// One tool.
pub struct Tool {
    pub name: &'static str,
    /// Other spellings accepted on `tools/call` (the specs' camelCase and dotted names).
    pub aliases: &'static [&'static str],
    pub description: &'static str,
    pub input_schema: Value,
    handler: Handler,
    /// What `structuredContent` holds (MCP `outputSchema`), a refusal aside.
    pub output_schema: Value,
}

/// All tools, looked up by name or alias.
pub struct ToolRegistry {
    tools: Vec<Tool>,
}

impl Tool {
    /// A tool whose input schema is derived from the arguments `run` takes
    /// and whose output schema from the answer it gives. The answer turns
    /// into JSON here, at the boundary.
    pub(crate) fn new<A, R>(
        about: About<R>,
        run: fn(&ToolContext, A) -> Result<R, ToolError>,
    ) -> Tool
    where
        A: ToolArgs + 'static,
        R: Serialize + JsonSchema + Send + Sync + 'static,
    {
        let shared = SharedArgs::names();
        let text = about.text;
        let handler: Handler = Box::new(move |context, arguments, schema| {
            Ok(Answer::of(
                run(context, A::parse(arguments, schema, &shared)?)?,
                text,
            ))
        });
        Tool {
            name: about.name,
            aliases: about.aliases,
            description: about.description,
            input_schema: A::schema(),
            handler,
            output_schema: output::schema_of::<R>(),
        }
    }
}

impl Default for ToolRegistry {
    fn default() -> Self {
        Self::new()
    }
}

impl ToolRegistry {
    pub fn new() -> Self {
        let mut tools = vec![
            health::health_check(),
            health::diagnose(),
            outline::tool(),
            search::tool(),
            diagnostics::tool(),
            definition::tool(),
            references::tool(),
            implementations::tool(),
            type_definition::tool(),
            symbol_info::tool(),
            hierarchy::tool(),
            node::node_at(),
            node::node_source(),
            graph_tools::dependents_of(),
            graph_tools::dependencies_of(),
            graph_tools::paths_between(),
            refactor::rename(),
            refactor::delete(),
            moves::move_symbol(),
            moves::move_type_to_file(),
            moves::move_type_to_namespace(),
            refactor::apply(),
            refactor::rollback(),
            analyze::quality(),
            analyze::dead_code(),
            analyze::cycles(),
            analyze::dependencies(),
            analyze::structure(),
            analyze::quality_gate(),
            analyze::graph_metrics(),
            analyze::documentation(),
            analyze::tests(),
            analyze::complexity(),
            code_health::duplicates(),
            code_health::churn(),
            code_health::defect_probability(),
            code_health::name_similarity(),
            code_health::deep_context(),
            code_health::comprehensive(),
            code_health::module_dependencies(),
            analyze::batch(),
        ];
        for tool in &mut tools {
            args::merge(&mut tool.input_schema, SharedArgs::schema());
            // Fields no group of the tool declares are refused.
            tool.input_schema["additionalProperties"] = Value::Bool(false);
            if !lingo_analyze::sarif::supports(tool.name)
                && let Some(formats) =
                    tool.input_schema["properties"]["format"]["enum"].as_array_mut()
            {
                formats.retain(|format| format != "sarif");
            }
            tool.output_schema = output::answer_or_refusal(tool.output_schema.take());
        }
        ToolRegistry { tools }
    }

    pub fn tools(&self) -> &[Tool] {
        &self.tools
    }

    pub fn names(&self) -> Vec<&'static str> {
        self.tools.iter().map(|t| t.name).collect()
    }

    pub fn find(&self, name: &str) -> Option<&Tool> {
        self.locate(name).map(|(_, tool)| tool)
    }

    /// The tool called `name` (or one of its aliases), with its position
    /// (for [`ToolRegistry::at`]).
    pub fn locate(&self, name: &str) -> Option<(usize, &Tool)> {
        self.tools
            .iter()
            .enumerate()
            .find(|(_, t)| t.name == name || t.aliases.contains(&name))
    }

    /// The tool at `position`.
    pub fn at(&self, position: usize) -> Option<&Tool> {
        self.tools.get(position)
    }

    /// Names close to an unknown one.
    pub fn suggest(&self, name: &str) -> Vec<String> {
        let all = self
            .tools
            .iter()
            .flat_map(|t| std::iter::once(t.name).chain(t.aliases.iter().copied()));
        similar(name, all, 3)
    }

    /// The `tools/list` entries of the tools `selection` admits, in the
    /// registry's fixed order; with their `outputSchema` when the
    /// selection's answers carry `structuredContent` (a tool declaring one
    /// must).
    pub fn list(&self, selection: &Selection) -> Vec<Value> {
        self.tools
            .iter()
            .filter(|t| selection.admits(t.name, t.writes()))
            .map(|t| {
                let mut entry = json!({
                    "name": t.name,
                    "description": t.description,
                    "inputSchema": args::listed(&t.input_schema),
                    "annotations": if t.writes() {
                        json!({ "readOnlyHint": false, "destructiveHint": true, "idempotentHint": false, "openWorldHint": false })
                    } else {
                        json!({ "readOnlyHint": true, "openWorldHint": false })
                    },
                });
                if selection.structured_output() {
                    entry["outputSchema"] = t.output_schema.clone();
                }
                entry
            })
            .collect()
    }

    /// Run `tool` with `arguments`.
    pub fn call(
        &self,
        tool: &Tool,
        context: &ToolContext,
        arguments: &Value,
    ) -> Result<Answer, ToolError> {
        let shared = SharedArgs::from_call(arguments)?;
        let (format, _) = text::options(&shared);
        if format == text::Format::Sarif && !lingo_analyze::sarif::supports(tool.name) {
            return Err(ToolError::invalid(
                "format",
                format!(
                    "{} has no SARIF form; `sarif` is offered by {}",
                    tool.name,
                    lingo_analyze::sarif::SARIF_TOOLS.join(", ")
                ),
            ));
        }
        if let Some(project) = &shared.project_id {
            let id = context.workspace.project_id();
            if *project != id {
                return Err(ToolError::ProjectNotFound {
                    project: project.to_string(),
                    known: vec![id],
                });
            }
        }
        let mut answer = tool.run(context, arguments)?;
        let unanalyzed = context.workspace.snapshot().failed_files();
        // Every answer says when files of the index could not be analysed.
        if unanalyzed > 0 {
            answer.note("unanalyzedFiles", json!(unanalyzed));
        }
        // An answer read from an index a refresh is still updating says so.
        if let Some(detail) = lingo_model::budget::current().and_then(|b| b.refreshing()) {
            answer.note("refreshing", Value::Bool(true));
            answer.note("index", detail);
        }
        Ok(answer)
    }
}

/// Whether the tool called `name` may change files (MCP annotations say
/// so): the refactoring set's tools, and only they, write.
pub fn writes(name: &str) -> bool {
    toolsets::set_of(name) == Some(Toolset::Refactoring)
}

impl Tool {
    /// Check `arguments` and run the handler (no shared options read).
    pub(crate) fn run(
        &self,
        context: &ToolContext,
        arguments: &Value,
    ) -> Result<Answer, ToolError> {
        (self.handler)(context, arguments, &self.input_schema)
    }

    /// Whether calling it may change files (with `dryRun: false`).
    pub fn writes(&self) -> bool {
        writes(self.name)
    }

    /// The `content` text of `answer` to `arguments`: compact text under
    /// the call's token budget, or the JSON when the call asked for
    /// `format: json` (or SARIF), without indentation: a model reading it
    /// pays for every space. Arguments a call refused read as their
    /// defaults.
    pub fn render(&self, arguments: &Value, answer: &Answer) -> String {
        let empty = Map::new();
        let arguments = arguments.as_object().unwrap_or(&empty);
        let max_tokens = arguments
            .get("max_tokens")
            .and_then(Value::as_u64)
            .map_or(text::DEFAULT_MAX_TOKENS, |n| {
                (n as usize).clamp(text::MIN_MAX_TOKENS, text::MAX_MAX_TOKENS)
            });
        match arguments.get("format").and_then(Value::as_str) {
            Some("json") => {
                return serde_json::to_string(&answer.value()).unwrap_or_default();
            }
            Some("sarif") => {
                let value = answer.value();
                if value["success"] != Value::Bool(false) {
                    let log = lingo_analyze::sarif::sarif(self.name, &value);
                    return serde_json::to_string(&log).unwrap_or_default();
                }
            }
            _ => {}
        }
        let mut writer = text::Writer::new(max_tokens);
        let request = text::Request {
            tool: self.name,
            arguments,
            max_tokens,
        };
        answer.write_text(&request, &mut writer);
        let mut out = writer.finish();
        let notes = text::index_notes(answer.notes());
        if !notes.is_empty() {
            out.push('\n');
            out.push_str(&notes.join("\n"));
            out.push('\n');
        }
        out
    }
}
