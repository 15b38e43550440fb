//! `call_hierarchy`: who calls a function and what it calls, to a chosen
//! depth, from the CALLS edges of the symbol graph.

use std::collections::{BTreeMap, HashSet};

use petgraph::Direction;
use schemars::JsonSchema;
use serde::Serialize;

use super::references::Completeness;
use super::view::{Range, SymbolView, rounded};
use super::{Analysis, AnalysisError, Incompleteness, Target};
use lingo_model::ReferenceKind;
use lingo_resolve::graph::{CodeGraph, EdgeKind, Node, Site};
use lingo_resolve::{Resolution, SymbolRef, SymbolTable};

/// Levels a hierarchy goes down at most.
pub const MAX_DEPTH: usize = 5;
/// Calls listed in the whole tree at most; the rest is counted as omitted.
const MAX_CALLS: usize = 500;

/// Callers, callees or both.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CallDirection {
    Incoming,
    Outgoing,
    Both,
}

impl CallDirection {
    fn incoming(self) -> bool {
        self != CallDirection::Outgoing
    }

    fn outgoing(self) -> bool {
        self != CallDirection::Incoming
    }
}

/// Where a call is written.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct CallSite {
    pub file_path: String,
    pub range: Range,
}

/// The other end of a call: a declaration, or a file's top-level code.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum CallEnd {
    Symbol(SymbolView),
    File {
        /// Always `file`.
        kind: &'static str,
        file_path: String,
        note: &'static str,
    },
}

/// The calls between the subject (or a node below it) and one other node
/// that were resolved alike: a call site resolved for certain and one
/// only guessed are two `Call`s, so no guess reads as certain.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Call {
    /// How the call sites were resolved.
    pub resolution: Resolution,
    /// Their confidence.
    #[schemars(range(min = 0, max = 1))]
    pub confidence: f64,
    pub call_sites: Vec<CallSite>,
    /// The caller (in the incoming tree).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<CallEnd>,
    /// The callee (in the outgoing tree).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to: Option<CallEnd>,
    /// The caller's own callers, above depth 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub incoming: Option<Vec<Call>>,
    /// The callee's own callees, above depth 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outgoing: Option<Vec<Call>>,
}

/// Calls written in the subject's body that resolved to nothing: those
/// the list may be missing, and those to names nothing in the workspace
/// declares (library or built-in code, which a workspace's call graph
/// never holds).
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct OutgoingCompleteness {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unresolved_calls: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unresolved_names: Option<Vec<String>>,
    /// Names called that no declaration of the workspace has.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub external_names: Option<Vec<String>>,
    pub complete: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<&'static str>,
    /// Files and imports of the snapshot the answer could not see.
    #[serde(flatten)]
    pub incomplete: Option<Incompleteness>,
}

/// The answer of [`Analysis::call_hierarchy`].
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct CallHierarchy {
    pub item: SymbolView,
    pub direction: CallDirection,
    pub depth: usize,
    pub generation: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub incoming: Option<Vec<Call>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub incoming_completeness: Option<Completeness>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outgoing: Option<Vec<Call>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outgoing_completeness: Option<OutgoingCompleteness>,
    pub omitted_calls: &'static str,
}

impl Analysis {
    /// Callers and callees of the function `target` names, `depth` levels
    /// (1 to [`MAX_DEPTH`]) deep.
    pub fn call_hierarchy(
        &self,
        target: &Target,
        direction: CallDirection,
        depth: usize,
    ) -> Result<CallHierarchy, AnalysisError> {
        let depth = depth.clamp(1, MAX_DEPTH);
        let root = self
            .subject(target)?
            .declaration("a local binding has no call hierarchy; name a function or method")?;
        let graph = self.graph()?;
        let table = self.table();
        let mut result = CallHierarchy {
            item: SymbolView::new(table, root),
            direction,
            depth,
            generation: self.generation(),
            incoming: None,
            incoming_completeness: None,
            outgoing: None,
            outgoing_completeness: None,
            omitted_calls: "none",
        };
        let mut budget = MAX_CALLS;
        if direction.incoming() {
            let mut walk = Walk::new(&graph, table, Direction::Incoming);
            result.incoming = Some(walk.level(Node::Symbol(root), depth, &mut budget));
            let sites =
                self.incoming_sites(&graph, Node::Symbol(root), |kind| kind == EdgeKind::Calls);
            result.incoming_completeness = Some(self.completeness(&graph, root, &sites));
        }
        if direction.outgoing() {
            let mut walk = Walk::new(&graph, table, Direction::Outgoing);
            result.outgoing = Some(walk.level(Node::Symbol(root), depth, &mut budget));
            result.outgoing_completeness = Some(unresolved_calls(&graph, table, root));
        }
        let incomplete = self.incompleteness();
        if let Some(completeness) = result.incoming_completeness.take() {
            result.incoming_completeness = Some(completeness.seeing(incomplete.clone()));
        }
        if let Some(completeness) = &mut result.outgoing_completeness {
            completeness.complete &= incomplete.is_none();
            completeness.incomplete = incomplete;
        }
        if budget == 0 {
            result.omitted_calls = "some calls beyond the 500-call limit were omitted";
        }
        Ok(result)
    }
}

/// The calls between one pair of nodes resolved alike: the node at the
/// other end, the call sites, their resolution and confidence.
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
    /// below `depth` (at most [`MAX_DEPTH`]), its own callers (callees).
    fn level(&mut self, node: Node, depth: usize, budget: &mut usize) -> Vec<Call> {
        self.seen.insert(node);
        // Group the call sites by the node at the other end and how they
        // were resolved, in a stable order (certain before guessed).
        let mut by_other: BTreeMap<(u32, u32, bool, Resolution, u32), Calls> = BTreeMap::new();
        for (edge, other) in self.graph.edges(node, self.direction) {
            if edge.kind != EdgeKind::Calls {
                continue;
            }
            let (a, b, is_file) = match other {
                Node::Symbol(s) => (s.file, s.symbol, false),
                Node::File(f) => (f, 0, true),
            };
            // Descending confidence, in hundredths (as answers round it).
            let confidence_key = 100 - (edge.confidence().clamp(0.0, 1.0) * 100.0).round() as u32;
            let key = (a, b, is_file, edge.resolution, confidence_key);
            let entry = by_other.entry(key).or_insert((
                other,
                Vec::new(),
                edge.resolution,
                edge.confidence(),
            ));
            entry.1.extend(edge.site());
        }
        let incoming = self.direction == Direction::Incoming;
        let mut out = Vec::new();
        for (other, sites, resolution, confidence) in by_other.into_values() {
            if *budget == 0 {
                break;
            }
            *budget -= 1;
            let end = match other {
                Node::Symbol(s) => CallEnd::Symbol(SymbolView::new(self.table, s)),
                Node::File(f) => CallEnd::File {
                    kind: "file",
                    file_path: self
                        .table
                        .files()
                        .get(f as usize)
                        .map(|file| file.path.clone())
                        .unwrap_or_default(),
                    note: "top-level code outside any declaration",
                },
            };
            let nested = (depth > 1 && !self.seen.contains(&other))
                .then(|| self.level(other, depth - 1, budget));
            let (from, to) = if incoming {
                (Some(end), None)
            } else {
                (None, Some(end))
            };
            let (nested_in, nested_out) = if incoming {
                (nested, None)
            } else {
                (None, nested)
            };
            out.push(Call {
                resolution,
                confidence: rounded(confidence),
                call_sites: sites.iter().filter_map(|s| self.site(*s)).collect(),
                from,
                to,
                incoming: nested_in,
                outgoing: nested_out,
            });
        }
        out
    }

    fn site(&self, site: Site) -> Option<CallSite> {
        let file = self.table.files().get(site.file as usize)?;
        let reference = file
            .facts
            .as_ref()
            .ok()?
            .references
            .get(site.reference as usize)?;
        Some(CallSite {
            file_path: file.path.clone(),
            range: (&reference.span).into(),
        })
    }
}

/// Calls written inside `root` that resolved to nothing: what the outgoing
/// list may be missing.
fn unresolved_calls(
    graph: &CodeGraph,
    table: &SymbolTable,
    root: SymbolRef,
) -> OutgoingCompleteness {
    let resolved: HashSet<Site> = graph
        .edges(Node::Symbol(root), Direction::Outgoing)
        .filter_map(|(e, _)| e.site())
        .collect();
    let file = table.file(root);
    let Ok(facts) = &file.facts else {
        return OutgoingCompleteness {
            unresolved_calls: None,
            unresolved_names: None,
            external_names: None,
            complete: true,
            note: None,
            incomplete: None,
        };
    };
    let mut names: Vec<String> = facts
        .references
        .iter()
        .enumerate()
        .filter(|(i, r)| {
            r.kind == ReferenceKind::Call
                && r.enclosing.get() == Some(root.symbol)
                && r.local.get().is_none()
                && !resolved.contains(&Site {
                    file: root.file,
                    reference: *i as u32,
                })
        })
        .map(|(_, r)| r.name.to_string())
        .collect();
    names.sort_unstable();
    names.dedup();
    let (external, names): (Vec<String>, Vec<String>) = names
        .into_iter()
        .partition(|name| table.named(name).is_empty());
    OutgoingCompleteness {
        unresolved_calls: Some(names.len()),
        complete: names.is_empty(),
        note: Some(match (names.is_empty(), external.is_empty()) {
            (true, true) => "every call in the body resolved",
            (true, false) => {
                "every call to a workspace declaration resolved; the external names are declared nowhere in the workspace (library or built-in code)"
            }
            (false, _) => {
                "calls to the unresolved names resolved to nothing although the workspace declares such names (too many same-named candidates, or an untyped receiver)"
            }
        }),
        unresolved_names: Some(names),
        external_names: (!external.is_empty()).then_some(external),
        incomplete: None,
    }
}
