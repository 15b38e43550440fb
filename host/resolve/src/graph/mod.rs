//! The symbol graph of one snapshot (petgraph): declarations and files as
//! nodes; CONTAINS, CALLS, REFERENCES, EXTENDS, IMPLEMENTS and IMPORTS edges
//! from every resolved reference, each recording how it was resolved. The
//! references nothing resolved are kept too, so answers can say what they
//! may be missing.

mod build;
mod overlay;
mod persist;
pub use persist::wait_for_saves;
pub mod render;

use std::collections::HashMap;

use petgraph::Direction;
use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::EdgeRef;
use serde::{Deserialize, Serialize};

use crate::{Resolution, SymbolRef, SymbolTable};
use lingo_model::ReferenceKind;
use lingo_model::name::Name;

/// The key of a name in the graph's name maps: the hash the table of
/// names computed when it was interned (a graph holds a million misses).
fn name_hash(name: &Name) -> u64 {
    name.interned_hash()
}

/// What an edge means.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum EdgeKind {
    Contains,
    Calls,
    References,
    Extends,
    Implements,
    Imports,
}

impl EdgeKind {
    pub fn of_reference(kind: ReferenceKind) -> EdgeKind {
        match kind {
            ReferenceKind::Call => EdgeKind::Calls,
            ReferenceKind::Reference | ReferenceKind::Type | ReferenceKind::Write => {
                EdgeKind::References
            }
            ReferenceKind::Import => EdgeKind::Imports,
            ReferenceKind::Extends => EdgeKind::Extends,
            ReferenceKind::Implements => EdgeKind::Implements,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            EdgeKind::Contains => "CONTAINS",
            EdgeKind::Calls => "CALLS",
            EdgeKind::References => "REFERENCES",
            EdgeKind::Extends => "EXTENDS",
            EdgeKind::Implements => "IMPLEMENTS",
            EdgeKind::Imports => "IMPORTS",
        }
    }

    /// Edges that mean "depends on" (everything but structure).
    pub fn is_dependency(self) -> bool {
        self != EdgeKind::Contains
    }
}

/// A graph node: a declaration, or a file (the source of references made
/// outside any declaration, such as imports).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Node {
    Symbol(SymbolRef),
    File(u32),
}

impl Node {
    pub fn file(self) -> u32 {
        match self {
            Node::Symbol(s) => s.file,
            Node::File(f) => f,
        }
    }
}

/// A reference written in the source: file number and index into that
/// file's references.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Site {
    pub file: u32,
    pub reference: u32,
}

/// An edge: what it means, where it is written and how sure it is. Twelve
/// bytes (a 1M-line tree has about three million): the site's file number
/// `u32::MAX` stands for no site, and the confidence, which resolution
/// rounds to hundredths, is kept as a number of hundredths.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub struct Edge {
    pub kind: EdgeKind,
    pub resolution: Resolution,
    hundredths: u8,
    site: Site,
}

const _: () = assert!(std::mem::size_of::<Edge>() == 12);

impl Edge {
    /// The edge from a reference written at `site` (none for CONTAINS
    /// edges, which come from declarations), `confidence` in 0..=1.
    pub fn new(
        kind: EdgeKind,
        site: Option<Site>,
        resolution: Resolution,
        confidence: f64,
    ) -> Edge {
        Edge {
            kind,
            resolution,
            hundredths: (confidence.clamp(0.0, 1.0) * 100.0).round() as u8,
            site: site.unwrap_or(Site {
                file: u32::MAX,
                reference: u32::MAX,
            }),
        }
    }

    /// Where the reference it comes from is written.
    pub fn site(&self) -> Option<Site> {
        (self.site.file != u32::MAX).then_some(self.site)
    }

    /// How sure the resolution is, in 0..=1 (hundredths).
    pub fn confidence(&self) -> f32 {
        f32::from(self.hundredths) / 100.0
    }
}

/// A reference that did not become an edge.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub struct Unresolved {
    pub site: Site,
    /// Declarations with the same name (0: none anywhere; more than
    /// [`crate::MAX_NAME_ONLY_CANDIDATES`]: too many to guess).
    pub candidates: u32,
}

/// Counts of how the references of a snapshot were resolved.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResolutionCounts {
    pub scope: usize,
    pub import: usize,
    pub qualified: usize,
    pub name_only: usize,
    pub local: usize,
    pub unresolved: usize,
}

/// Cloning shares the base and copies the overlay (at most the changed
/// files' edges).
#[derive(Clone)]
pub struct CodeGraph {
    /// The last full build, shared by the generations laid over it since.
    base: std::sync::Arc<Base>,
    /// The edges and misses of the files changed since the base.
    overlay: overlay::Overlay,
    counts: ResolutionCounts,
    edge_count: usize,
    /// Per file, the resolution the edges came from, for the next build.
    files: Vec<std::sync::Arc<build::FileRecord>>,
    /// The manifests the references were resolved with.
    manifests: std::sync::Arc<Vec<lingo_model::Manifest>>,
    /// The generation of the snapshot it was built from.
    generation: u64,
}

/// What a full build makes: the petgraph graph and the misses.
struct Base {
    graph: DiGraph<Node, Edge>,
    /// First node index of each file's symbols.
    symbol_base: Vec<u32>,
    /// Node index of each file's file node.
    file_nodes: Vec<NodeIndex>,
    unresolved: Vec<Unresolved>,
    /// [`name_hash`] of the name -> indexes into `unresolved` (a hash may
    /// collide: lookups compare the names).
    unresolved_by_name: HashMap<u64, Vec<u32>>,
}

/// The graph is carried to the next generation, which takes the edges of
/// unchanged files from it.
impl lingo_index::DerivedValue for CodeGraph {
    const CARRIED: bool = true;
}

impl CodeGraph {
    pub fn node(&self, node: Node) -> NodeIndex {
        match node {
            Node::Symbol(s) => {
                NodeIndex::new((self.base.symbol_base[s.file as usize] + s.symbol) as usize)
            }
            Node::File(f) => self.base.file_nodes[f as usize],
        }
    }

    pub fn weight(&self, index: NodeIndex) -> Node {
        self.base.graph[index]
    }

    /// Edges into `node` (`Direction::Incoming`) or out of it, as
    /// (edge, the node at the other end), in the same order whether or not
    /// files changed since the last full build.
    pub fn edges(
        &self,
        node: Node,
        direction: Direction,
    ) -> Box<dyn Iterator<Item = (&Edge, Node)> + '_> {
        let index = self.node(node);
        let graph = &self.base.graph;
        let base = graph.edges_directed(index, direction).map(move |e| {
            let other = match direction {
                Direction::Incoming => e.source(),
                Direction::Outgoing => e.target(),
            };
            (e.id().index() as u32, e.weight(), graph[other])
        });
        if self.overlay.is_empty() {
            return Box::new(base.map(|(_, edge, other)| (edge, other)));
        }
        // A full build lists a node's edges newest first: by file number
        // descending, CONTAINS edges last.
        let mut merged: Vec<((i64, u32), &Edge, Node)> = base
            .filter(|(_, edge, _)| !self.overlay.masks(edge.site()))
            .map(|(position, edge, other)| {
                (overlay::build_order(edge.site(), position), edge, other)
            })
            .collect();
        merged.extend(
            self.overlay
                .adjacent(index, direction)
                .map(|(position, other)| {
                    let edge = &self.overlay.edges[position as usize].2;
                    (
                        overlay::build_order(edge.site(), position),
                        edge,
                        graph[other],
                    )
                }),
        );
        merged.sort_by_key(|entry| std::cmp::Reverse(entry.0));
        Box::new(merged.into_iter().map(|(_, edge, other)| (edge, other)))
    }

    /// Every edge as (from, to, edge), in the order a full build adds them.
    pub fn all_edges(&self) -> Box<dyn Iterator<Item = (Node, Node, &Edge)> + '_> {
        let graph = &self.base.graph;
        let base = graph
            .raw_edges()
            .iter()
            .filter(|e| !self.overlay.masks(e.weight.site()))
            .map(move |e| (graph[e.source()], graph[e.target()], &e.weight));
        if self.overlay.is_empty() {
            return Box::new(base);
        }
        // Both are in file order: merge them.
        let mut base = base.peekable();
        let mut laid = self
            .overlay
            .edges
            .iter()
            .map(move |(from, to, edge)| (graph[*from], graph[*to], edge))
            .peekable();
        let file_of = |edge: &Edge| edge.site().map_or(-1, |s| s.file as i64);
        Box::new(std::iter::from_fn(move || {
            match (base.peek(), laid.peek()) {
                (Some(b), Some(o)) if file_of(o.2) < file_of(b.2) => laid.next(),
                (Some(_), _) => base.next(),
                (None, _) => laid.next(),
            }
        }))
    }

    /// References named `name` that did not resolve to anything (`table`
    /// is this generation's, whose facts hold the names), in file order.
    pub fn unresolved_named<'a>(
        &'a self,
        table: &'a SymbolTable,
        name: &'a str,
    ) -> impl Iterator<Item = &'a Unresolved> + 'a {
        // A name never interned is no miss's name.
        let hash = Name::existing(name).map_or(0, |name| name_hash(&name));
        let base = self
            .base
            .unresolved_by_name
            .get(&hash)
            .into_iter()
            .flatten()
            .map(|i| &self.base.unresolved[*i as usize])
            .filter(|miss| !self.overlay.masks(Some(miss.site)));
        let mut misses: Vec<&Unresolved> =
            base.chain(self.overlay.unresolved_hashed(hash)).collect();
        if !self.overlay.is_empty() {
            misses.sort_by_key(|miss| miss.site);
        }
        misses.into_iter().filter(move |miss| {
            table
                .files()
                .get(miss.site.file as usize)
                .and_then(|f| f.facts.as_ref().ok())
                .and_then(|f| f.references.get(miss.site.reference as usize))
                .is_some_and(|r| r.name == name)
        })
    }

    /// How the snapshot's references were resolved.
    pub fn counts(&self) -> ResolutionCounts {
        self.counts
    }

    pub fn node_count(&self) -> usize {
        self.base.graph.node_count()
    }

    pub fn edge_count(&self) -> usize {
        self.edge_count
    }

    /// Files whose edges lie over the last full build (0 right after one).
    pub fn files_laid_over(&self) -> usize {
        self.overlay.masked_count()
    }
}
