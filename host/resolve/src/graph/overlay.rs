//! A generation's graph as the last full build plus the edges of the files
//! changed since: those files' base edges and misses are masked and their
//! current ones kept here. An edit then costs the changed files, not a copy
//! of every edge. Queries merge the two in the order a full build would
//! have produced.

use std::collections::HashMap;
use std::ops::Range;

use petgraph::Direction;
use petgraph::graph::NodeIndex;

use super::{Edge, Site, Unresolved};

/// Most files changed at once that are laid over a base; more, and the
/// graph is built whole.
pub(super) const MAX_CHANGED: usize = 64;
/// Most files an overlay holds before the next change builds the graph
/// whole again.
pub(super) const MAX_MASKED: usize = 256;

/// The edges and misses of the files changed since the base.
#[derive(Default, Clone)]
pub(super) struct Overlay {
    /// Per file number: whether its base edges and misses are replaced
    /// (empty: no file is).
    masked: Vec<bool>,
    masked_count: usize,
    /// (from, to, edge), by file number ascending, each file's in the order
    /// it was resolved.
    pub(super) edges: Vec<(NodeIndex, NodeIndex, Edge)>,
    outgoing: HashMap<NodeIndex, Vec<u32>>,
    incoming: HashMap<NodeIndex, Vec<u32>>,
    pub(super) unresolved: Vec<Unresolved>,
    unresolved_by_name: HashMap<u64, Vec<u32>>,
}

impl Overlay {
    /// An overlay masking `masked` files (by number), filled by
    /// [`Overlay::push_file`] in ascending file order.
    pub(super) fn masking(masked: Vec<bool>) -> Self {
        let masked_count = masked.iter().filter(|m| **m).count();
        Overlay {
            masked,
            masked_count,
            ..Overlay::default()
        }
    }

    pub(super) fn is_empty(&self) -> bool {
        self.masked_count == 0
    }

    pub(super) fn masked_count(&self) -> usize {
        self.masked_count
    }

    pub(super) fn masked(&self) -> &[bool] {
        &self.masked
    }

    /// Whether the base's edge or miss at `site` is replaced here.
    pub(super) fn masks(&self, site: Option<Site>) -> bool {
        site.is_some_and(|s| self.masked.get(s.file as usize).copied().unwrap_or(false))
    }

    /// Add one file's edges and misses (`name_of` gives a miss's name
    /// hash); the ranges they took.
    pub(super) fn push_file(
        &mut self,
        edges: impl Iterator<Item = (NodeIndex, NodeIndex, Edge)>,
        unresolved: impl Iterator<Item = (Unresolved, u64)>,
    ) -> (Range<u32>, Range<u32>) {
        let (edges_start, unresolved_start) = (self.edges.len(), self.unresolved.len());
        for (from, to, edge) in edges {
            let index = self.edges.len() as u32;
            self.outgoing.entry(from).or_default().push(index);
            self.incoming.entry(to).or_default().push(index);
            self.edges.push((from, to, edge));
        }
        for (miss, name) in unresolved {
            let index = self.unresolved.len() as u32;
            self.unresolved_by_name.entry(name).or_default().push(index);
            self.unresolved.push(miss);
        }
        (
            edges_start as u32..self.edges.len() as u32,
            unresolved_start as u32..self.unresolved.len() as u32,
        )
    }

    /// The overlay's edges at `node` in `direction`: (edge index, the node
    /// at the other end).
    pub(super) fn adjacent(
        &self,
        node: NodeIndex,
        direction: Direction,
    ) -> impl Iterator<Item = (u32, NodeIndex)> + '_ {
        let list = match direction {
            Direction::Outgoing => self.outgoing.get(&node),
            Direction::Incoming => self.incoming.get(&node),
        };
        list.into_iter().flatten().map(move |&i| {
            let (from, to, _) = &self.edges[i as usize];
            (
                i,
                if direction == Direction::Outgoing {
                    *to
                } else {
                    *from
                },
            )
        })
    }

    /// The overlay's misses whose name hashes to `hash`.
    pub(super) fn unresolved_hashed(&self, hash: u64) -> impl Iterator<Item = &Unresolved> + '_ {
        self.unresolved_by_name
            .get(&hash)
            .into_iter()
            .flatten()
            .map(|i| &self.unresolved[*i as usize])
    }
}

/// The order a full build gives an edge among a node's edges: reference
/// edges by the file they are written in, CONTAINS edges (no site) first,
/// then by position within their file's resolution.
pub(super) fn build_order(site: Option<Site>, position: u32) -> (i64, u32) {
    (site.map_or(-1, |s| s.file as i64), position)
}
