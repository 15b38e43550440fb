//! `implementations`: the declarations that implement an interface or
//! trait, or extend a class, following EXTENDS and IMPLEMENTS edges.

use std::collections::HashSet;

use petgraph::Direction;
use schemars::JsonSchema;
use serde::Serialize;

use super::view::{SiteView, SymbolView, rounded};
use super::{Analysis, AnalysisError, Incompleteness, Target};
use lingo_resolve::Resolution;
use lingo_resolve::graph::{EdgeKind, Node};

/// One implementation (or subclass).
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Implementation {
    #[serde(flatten)]
    pub symbol: SymbolView,
    /// EXTENDS or IMPLEMENTS.
    pub relation: EdgeKind,
    /// 1 for a direct implementation, 2 for one of those's, ...
    pub depth: usize,
    pub resolution: Resolution,
    #[schemars(range(min = 0, max = 1))]
    pub confidence: f64,
    /// Where the base list names the type.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub site: Option<SiteView>,
}

/// What the list of implementations may be missing.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ImplementationsCompleteness {
    pub name_only: usize,
    pub complete: bool,
    pub note: &'static str,
    /// Files and imports of the snapshot the answer could not see.
    #[serde(flatten)]
    pub incomplete: Option<Incompleteness>,
}

/// The answer of [`Analysis::implementations`].
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Implementations {
    pub symbol: SymbolView,
    /// Nearest first, then by place.
    pub implementations: Vec<Implementation>,
    pub completeness: ImplementationsCompleteness,
    pub generation: u64,
}

impl Analysis {
    /// The implementations of the type `target` names; with `transitive`,
    /// also implementations of implementations.
    pub fn implementations(
        &self,
        target: &Target,
        transitive: bool,
    ) -> Result<Implementations, AnalysisError> {
        let root = self.subject(target)?.declaration(
            "a local binding has no implementations; name an interface, trait or class",
        )?;
        let graph = self.graph()?;
        let table = self.table();
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
                    items.push(Implementation {
                        symbol: SymbolView::new(table, implementor),
                        relation: edge.kind,
                        depth,
                        resolution: edge.resolution,
                        confidence: rounded(edge.confidence()),
                        site: edge.site().and_then(|s| SiteView::new(table, s)),
                    });
                    next.push(other);
                }
            }
            if !transitive {
                break;
            }
            frontier = next;
            depth += 1;
        }
        items.sort_by(|a, b| {
            let key = |i: &Implementation| {
                (
                    i.depth,
                    i.symbol.file_path.clone(),
                    i.symbol.range.start.line,
                )
            };
            key(a).cmp(&key(b))
        });
        let incomplete = self.incompleteness();
        Ok(Implementations {
            symbol: SymbolView::new(table, root),
            implementations: items,
            completeness: ImplementationsCompleteness {
                name_only,
                complete: name_only == 0 && incomplete.is_none(),
                note: "implementations are found from base lists and implements clauses written in the workspace; types from dependencies are not indexed",
                incomplete,
            },
            generation: self.generation(),
        })
    }
}
