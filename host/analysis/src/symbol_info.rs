//! `symbol_info`: everything the index knows about one declaration:
//! signature, documentation, visibility, modifiers, members, metrics and
//! how much of the workspace depends on it.

use petgraph::Direction;
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::Serialize;

use super::view::SubjectView;
use super::{Analysis, AnalysisError, Subject, Target};
use lingo_model::{FunctionMetrics, Visibility};
use lingo_resolve::Resolution;
use lingo_resolve::graph::{EdgeKind, Node};

/// Members listed at most.
const MAX_MEMBERS: usize = 200;

/// Certain and name-only counts of one kind of edge.
#[derive(Debug, Clone, Copy, Default, Serialize, JsonSchema)]
pub struct Tally {
    pub certain: usize,
    pub name_only: usize,
}

impl Tally {
    fn add(&mut self, resolution: Resolution) {
        if resolution == Resolution::NameOnly {
            self.name_only += 1;
        } else {
            self.certain += 1;
        }
    }
}

/// A member of a type, briefly.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Member {
    pub name: String,
    pub kind: &'static str,
    /// Zero-based line of its start.
    pub line: u32,
}

/// What a declaration (not a local) adds to [`SymbolInfo`].
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct SymbolDetails {
    pub doc: Option<String>,
    #[schemars(with = "String")]
    pub visibility: Visibility,
    pub modifiers: Vec<String>,
    /// The module of its file.
    pub module: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "metrics_schema")]
    pub metrics: Option<FunctionMetrics>,
    /// At most [`MAX_MEMBERS`].
    pub members: Vec<Member>,
    pub members_total: usize,
    pub references: Tally,
    pub callers: Tally,
    pub callees: Tally,
    pub implementations: Tally,
}

/// The schema of [`SymbolDetails::metrics`] (the model's type, as it is).
fn metrics_schema(_: &mut SchemaGenerator) -> Schema {
    json_schema!({ "type": "object" })
}

/// The answer of [`Analysis::symbol_info`].
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct SymbolInfo {
    #[serde(flatten)]
    pub subject: SubjectView,
    pub generation: u64,
    #[serde(flatten)]
    pub details: Option<SymbolDetails>,
}

impl Analysis {
    /// What the index knows about the declaration (or local) `target` names.
    pub fn symbol_info(&self, target: &Target) -> Result<SymbolInfo, AnalysisError> {
        let subject = self.subject(target)?;
        let table = self.table();
        let view = SubjectView::new(table, &subject);
        let Subject::Symbol(r) = subject else {
            return Ok(SymbolInfo {
                subject: view,
                generation: self.generation(),
                details: None,
            });
        };
        let facts = table.file(r).facts()?;
        let symbol = table.symbol(r);
        let graph = self.graph()?;
        let node = Node::Symbol(r);
        let mut members = Vec::new();
        let (mut references, mut callers, mut callees, mut implementations) = (
            Tally::default(),
            Tally::default(),
            Tally::default(),
            Tally::default(),
        );
        for (edge, other) in graph.edges(node, Direction::Outgoing) {
            match (edge.kind, other) {
                (EdgeKind::Contains, Node::Symbol(member)) => members.push(member),
                (EdgeKind::Calls, _) => callees.add(edge.resolution),
                _ => {}
            }
        }
        for (edge, _) in graph.edges(node, Direction::Incoming) {
            match edge.kind {
                EdgeKind::Contains => {}
                EdgeKind::Calls => {
                    callers.add(edge.resolution);
                    references.add(edge.resolution);
                }
                EdgeKind::Extends | EdgeKind::Implements => {
                    implementations.add(edge.resolution);
                    references.add(edge.resolution);
                }
                _ => references.add(edge.resolution),
            }
        }
        // In declaration order (the graph lists edges newest first).
        members.sort_by_key(|m| (m.file, table.symbol(*m).span.start.offset));
        let details = SymbolDetails {
            doc: symbol.doc.as_deref().map(String::from),
            visibility: symbol.visibility,
            modifiers: symbol.modifiers.to_vec(),
            module: facts.modules.first().map(|m| m.path.clone()),
            metrics: facts.metrics.iter().find(|m| m.symbol == r.symbol).cloned(),
            members: members
                .iter()
                .take(MAX_MEMBERS)
                .map(|m| {
                    let s = table.symbol(*m);
                    Member {
                        name: s.name.to_string(),
                        kind: s.kind.as_str(),
                        line: s.span.start.line,
                    }
                })
                .collect(),
            members_total: members.len(),
            references,
            callers,
            callees,
            implementations,
        };
        Ok(SymbolInfo {
            subject: view,
            generation: self.generation(),
            details: Some(details),
        })
    }
}
