//! Building the graph: one node per declaration and file, CONTAINS edges
//! from the facts, and every reference resolved (on all cores) into an edge
//! or recorded as unresolved.

use crate::derived::Resolved;
use std::collections::HashMap;
use std::sync::Arc;

use petgraph::graph::{DiGraph, NodeIndex};
use rayon::prelude::*;

use super::overlay::{self, Overlay};
use super::{Base, CodeGraph, Edge, EdgeKind, Node, ResolutionCounts, Site, Unresolved, persist};
use crate::{Resolution, Resolver, SymbolRef, Target};
use lingo_index::{FileEntry, Snapshot};
use lingo_model::SymbolKind;
use lingo_model::budget::Exhausted;
use lingo_model::name::Name;

/// The edges and misses of one file's references.
#[derive(Default, serde::Serialize, serde::Deserialize)]
pub(super) struct FileEdges {
    pub(super) edges: Vec<(Node, Node, Edge)>,
    pub(super) unresolved: Vec<Unresolved>,
    pub(super) counts: ResolutionCounts,
}

/// One file's resolved references, with what they were resolved from: the
/// file's bytes and the shape of the whole index (see [`shape`]). Made by
/// resolving the file, or read back from the index database.
pub(super) struct FileResolution {
    pub(super) path: String,
    /// The file's sha256; empty when it is not known to be the one the
    /// edges came from (the file is then resolved again).
    pub(super) sha256: String,
    pub(super) shape: u64,
    pub(super) edges: FileEdges,
}

/// What a built graph remembers of one file, for the next build: what its
/// edges were resolved from, and where they are in this graph (no second
/// copy of them).
pub(super) struct FileRecord {
    pub(super) path: String,
    pub(super) sha256: String,
    pub(super) shape: u64,
    /// Whether its edges and misses are in the overlay, not the base.
    in_overlay: bool,
    /// This file's reference edges: a range of the base graph's edge
    /// indexes, or of the overlay's edges.
    edges: std::ops::Range<u32>,
    /// This file's misses: a range of the base's or the overlay's
    /// `unresolved`.
    unresolved: std::ops::Range<u32>,
    counts: ResolutionCounts,
}

impl FileRecord {
    /// The file's edges as (from, to, edge) nodes of `graph`.
    fn edges<'g>(&self, graph: &'g CodeGraph) -> Box<dyn Iterator<Item = (Node, Node, Edge)> + 'g> {
        let range = self.edges.start as usize..self.edges.end as usize;
        let nodes = &graph.base.graph;
        if self.in_overlay {
            Box::new(
                graph.overlay.edges[range]
                    .iter()
                    .map(move |(from, to, edge)| (nodes[*from], nodes[*to], *edge)),
            )
        } else {
            Box::new(
                nodes.raw_edges()[range]
                    .iter()
                    .map(move |e| (nodes[e.source()], nodes[e.target()], e.weight)),
            )
        }
    }

    /// The file's edges, misses and counts in `graph`, as resolving it
    /// gave them (what the index database keeps of it).
    pub(super) fn resolution(&self, graph: &CodeGraph) -> FileEdges {
        FileEdges {
            edges: self.edges(graph).collect(),
            unresolved: self.unresolved(graph).to_vec(),
            counts: self.counts,
        }
    }

    /// The file's misses in `graph`.
    fn unresolved<'g>(&self, graph: &'g CodeGraph) -> &'g [Unresolved] {
        let range = self.unresolved.start as usize..self.unresolved.end as usize;
        if self.in_overlay {
            &graph.overlay.unresolved[range]
        } else {
            &graph.base.unresolved[range]
        }
    }
}

/// The resolutions an earlier build left, to be reused where the rule
/// allows: a graph in memory, or the rows the index database kept.
enum Earlier<'a> {
    Graph(&'a CodeGraph),
    /// The rows, and the generation they were saved at.
    Saved(Vec<Arc<FileResolution>>, Option<u64>),
}

impl Earlier<'_> {
    /// (path, shape, sha256) of each file, in the earlier file order.
    fn identities(&self) -> Vec<(&str, u64, &str)> {
        match self {
            Earlier::Graph(graph) => graph
                .files
                .iter()
                .map(|f| (f.path.as_str(), f.shape, f.sha256.as_str()))
                .collect(),
            Earlier::Saved(saved, _) => saved
                .iter()
                .map(|f| (f.path.as_str(), f.shape, f.sha256.as_str()))
                .collect(),
        }
    }

    /// The generation these resolutions belong to.
    fn generation(&self) -> Option<u64> {
        match self {
            Earlier::Graph(graph) => Some(graph.generation),
            Earlier::Saved(_, generation) => *generation,
        }
    }
}

/// The misses' indexes in `unresolved`, by a hash of their name (not the
/// name: no copy of ~1M names).
fn misses_by_name(files: &[Arc<FileEntry>], unresolved: &[Unresolved]) -> HashMap<u64, Vec<u32>> {
    let mut by_name: HashMap<u64, Vec<u32>> = HashMap::new();
    for (i, miss) in unresolved.iter().enumerate() {
        let name = &files[miss.site.file as usize]
            .facts
            .as_ref()
            .expect("unresolved references come from analyzed files")
            .references[miss.site.reference as usize]
            .name;
        by_name
            .entry(super::name_hash(name))
            .or_default()
            .push(i as u32);
    }
    by_name
}

/// Where one file's edges come from in this build.
enum Source {
    /// Resolved now.
    Fresh(Arc<FileResolution>),
    /// Read back from the database.
    Saved(Arc<FileResolution>),
    /// The same file of the earlier graph in memory.
    Graph(usize),
}

impl CodeGraph {
    /// The graph of `snapshot`. With the graph of an earlier generation, the
    /// references of files whose bytes did not change are taken from it,
    /// provided no file's declarations, imports or modules changed (what
    /// other files' references resolve against); otherwise every file is
    /// resolved again.
    ///
    /// The build works under the budget of the request that asked for it:
    /// when that runs out, it stops with [`Exhausted`] before anything is
    /// kept or saved, since resolutions cut short would be wrong for every
    /// later request.
    pub fn build(
        snapshot: &Snapshot,
        previous: Option<&CodeGraph>,
    ) -> Result<CodeGraph, Exhausted> {
        let started = std::time::Instant::now();
        // After a restart, the saved resolutions are read on a second thread
        // while the name table is built: neither needs the other.
        let (resolver, saved) = std::thread::scope(|scope| {
            let saved = previous.is_none().then(|| {
                scope.spawn(|| {
                    // The table's files, in the table's order.
                    let files: Vec<Arc<FileEntry>> = snapshot.files.values().cloned().collect();
                    persist::load(snapshot, &files)
                })
            });
            let resolver = snapshot.table().map(|table| Resolver::new(snapshot, table));
            (
                resolver,
                saved.and_then(|loading| loading.join().ok()).flatten(),
            )
        });
        let resolver = resolver?;
        let table = resolver.table().clone();
        let files = table.files();
        let shapes: Vec<u64> = table.shapes().to_vec();
        // The resolutions of an earlier generation: in memory, or, after a
        // restart, as the index database kept them (checked below against
        // the table's files, path by path).
        let earlier = match previous {
            Some(p) => (*p.manifests == *snapshot.manifests).then_some(Earlier::Graph(p)),
            None => saved.map(|(saved, generation)| Earlier::Saved(saved, generation)),
        };
        let reusable = earlier.filter(|earlier| {
            let identities = earlier.identities();
            identities.len() == files.len()
                && identities.iter().zip(files.iter().zip(&shapes)).all(
                    |((path, old_shape, _), (file, shape))| {
                        *path == file.path && old_shape == shape
                    },
                )
        });
        if let Some(Earlier::Graph(previous)) = &reusable
            && let Some(graph) = Self::lay_over(previous, snapshot, &resolver, &shapes, started)?
        {
            return Ok(graph);
        }
        let sources = resolve_all(&resolver, files, &shapes, reusable.as_ref())?;
        let fresh: Vec<(usize, Arc<FileResolution>)> = sources
            .iter()
            .enumerate()
            .filter_map(|(i, source)| match source {
                Source::Fresh(resolution) => Some((i, resolution.clone())),
                _ => None,
            })
            .collect();
        let reused = files.len() - fresh.len();
        // Only the files resolved now are saved when the rest is reused:
        // that is right only on top of the rows of the generation reused,
        // when the database holds them; else every file's, from the graph
        // once built, so that each fresh resolution is freed as soon as its
        // edges are in the graph.
        let base = reusable.as_ref().and_then(Earlier::generation);
        let on_top_of = (reused > 0).then_some(base).flatten();
        let save_whole = reused == 0 || !on_top_of.is_some_and(|g| persist::holds(snapshot, g));
        if save_whole {
            drop(fresh);
        } else {
            persist::save(snapshot, files, fresh, on_top_of);
        }
        let previous_graph = match &reusable {
            Some(Earlier::Graph(graph)) => Some(*graph),
            _ => None,
        };
        // The saved rows are held by `sources` alone from here, so that each
        // is freed once its edges are in the graph: the decoded rows and the
        // graph never both whole in memory.
        drop(reusable);

        let symbol_count: usize = files
            .iter()
            .map(|f| f.facts.as_ref().map_or(0, |f| f.symbols.len()))
            .sum();
        let reference_edges = |source: &Source| match source {
            Source::Fresh(r) | Source::Saved(r) => r.edges.edges.len(),
            Source::Graph(i) => previous_graph.map_or(0, |g| g.files[*i].edges.len()),
        };
        let edge_count: usize = symbol_count + sources.iter().map(reference_edges).sum::<usize>();
        let mut graph: DiGraph<Node, Edge> =
            DiGraph::with_capacity(symbol_count + files.len(), edge_count);
        let mut symbol_base = Vec::with_capacity(files.len());
        for (file_number, file) in files.iter().enumerate() {
            symbol_base.push(graph.node_count() as u32);
            let symbols = file.facts.as_ref().map_or(0, |f| f.symbols.len());
            for symbol in 0..symbols {
                graph.add_node(Node::Symbol(SymbolRef {
                    file: file_number as u32,
                    symbol: symbol as u32,
                }));
            }
        }
        let file_nodes: Vec<NodeIndex> = (0..files.len())
            .map(|f| graph.add_node(Node::File(f as u32)))
            .collect();
        let symbol_node =
            |s: SymbolRef| NodeIndex::new((symbol_base[s.file as usize] + s.symbol) as usize);
        for (file_number, file) in files.iter().enumerate() {
            let Ok(facts) = &file.facts else { continue };
            for (index, symbol) in facts.symbols.iter().enumerate() {
                let Some(container) = symbol.container else {
                    continue;
                };
                let at = |symbol| SymbolRef {
                    file: file_number as u32,
                    symbol,
                };
                graph.add_edge(
                    symbol_node(at(container)),
                    symbol_node(at(index as u32)),
                    Edge::new(EdgeKind::Contains, None, Resolution::Declaration, 1.0),
                );
            }
        }

        let node = |n: Node| match n {
            Node::Symbol(s) => symbol_node(s),
            Node::File(f) => file_nodes[f as usize],
        };
        // Every file's misses first, in file order (a copy, without the
        // edges): they are keyed by name on a second thread while the edges
        // go into the graph on this one.
        let mut unresolved: Vec<Unresolved> = Vec::new();
        let mut unresolved_ranges = Vec::with_capacity(files.len());
        for source in &sources {
            let start = unresolved.len() as u32;
            match (source, previous_graph) {
                (Source::Fresh(r) | Source::Saved(r), _) => {
                    unresolved.extend_from_slice(&r.edges.unresolved);
                }
                (Source::Graph(i), Some(old)) => {
                    unresolved.extend_from_slice(old.files[*i].unresolved(old));
                }
                (Source::Graph(_), None) => {}
            }
            unresolved_ranges.push(start..unresolved.len() as u32);
        }
        let (records, counts, unresolved_by_name) = std::thread::scope(|scope| {
            let by_name = scope.spawn(|| misses_by_name(files, &unresolved));
            let mut counts = ResolutionCounts::default();
            let mut records = Vec::with_capacity(files.len());
            let per_file = files
                .iter()
                .zip(&shapes)
                .zip(sources)
                .zip(unresolved_ranges);
            for (((file, shape), source), unresolved_range) in per_file {
                let edges_start = graph.edge_count();
                let file_counts = match (&source, previous_graph) {
                    (Source::Fresh(r) | Source::Saved(r), _) => {
                        for (from, to, edge) in &r.edges.edges {
                            graph.add_edge(node(*from), node(*to), *edge);
                        }
                        r.edges.counts
                    }
                    (Source::Graph(i), Some(old)) => {
                        let record = &old.files[*i];
                        for (from, to, edge) in record.edges(old) {
                            graph.add_edge(node(from), node(to), edge);
                        }
                        record.counts
                    }
                    (Source::Graph(_), None) => ResolutionCounts::default(),
                };
                add_counts(&mut counts, &file_counts);
                records.push(Arc::new(FileRecord {
                    path: file.path.clone(),
                    sha256: file.sha256.clone(),
                    shape: *shape,
                    in_overlay: false,
                    edges: edges_start as u32..graph.edge_count() as u32,
                    unresolved: unresolved_range,
                    counts: file_counts,
                }));
            }
            let by_name = by_name
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            (records, counts, by_name)
        });
        tracing::info!(
            nodes = graph.node_count(),
            edges = graph.edge_count(),
            files_reused = reused,
            ?counts,
            elapsed_ms = started.elapsed().as_millis() as u64,
            "symbol graph built"
        );
        let edge_count = graph.edge_count();
        let built = CodeGraph {
            base: Arc::new(Base {
                graph,
                symbol_base,
                file_nodes,
                unresolved,
                unresolved_by_name,
            }),
            overlay: Overlay::default(),
            counts,
            edge_count,
            files: records,
            manifests: snapshot.manifests.clone(),
            generation: snapshot.generation,
        };
        if save_whole {
            persist::save_whole(snapshot, files, &built);
        }
        Ok(built)
    }

    /// The graph of `snapshot` as `previous`'s base with the changed files'
    /// edges laid over it, when every file kept its shape (the caller
    /// checked) and few files changed; `None` to build it whole.
    fn lay_over(
        previous: &CodeGraph,
        snapshot: &Snapshot,
        resolver: &Resolver,
        shapes: &[u64],
        started: std::time::Instant,
    ) -> Result<Option<CodeGraph>, Exhausted> {
        let files = resolver.table().files();
        let changed: Vec<usize> = (0..files.len())
            .filter(|&i| previous.files[i].sha256 != files[i].sha256)
            .collect();
        let mut masked = if previous.overlay.is_empty() {
            vec![false; files.len()]
        } else {
            previous.overlay.masked().to_vec()
        };
        for &i in &changed {
            masked[i] = true;
        }
        let masked_count = masked.iter().filter(|m| **m).count();
        if changed.len() > overlay::MAX_CHANGED || masked_count > overlay::MAX_MASKED {
            return Ok(None);
        }
        // The changed files resolved again, the others' edges reused.
        let fresh: Vec<(usize, Arc<FileResolution>)> = changed
            .iter()
            .map(|&i| {
                let edges = resolve_file(resolver, i as u32, &files[i]);
                let resolution = FileResolution {
                    path: files[i].path.clone(),
                    sha256: files[i].sha256.clone(),
                    shape: shapes[i],
                    edges,
                };
                (i, Arc::new(resolution))
            })
            .collect();
        lingo_model::budget::check()?;
        // On top of the previous generation's rows when the database holds
        // them; else every file's, once laid over.
        let on_previous = persist::holds(snapshot, previous.generation);
        if on_previous {
            persist::save(snapshot, files, fresh.clone(), Some(previous.generation));
        }
        let fresh: HashMap<usize, Arc<FileResolution>> = fresh.into_iter().collect();

        let node = |n: Node| previous.node(n);
        let name_of = |miss: &Unresolved| {
            files[miss.site.file as usize]
                .facts
                .as_ref()
                .ok()
                .and_then(|f| f.references.get(miss.site.reference as usize))
                .map_or_else(
                    || super::name_hash(&Name::default()),
                    |r| super::name_hash(&r.name),
                )
        };
        let laid_files: Vec<usize> = (0..files.len()).filter(|&i| masked[i]).collect();
        let mut laid = Overlay::masking(masked);
        let mut records = previous.files.clone();
        let mut counts = previous.counts;
        let mut edge_count = previous.edge_count;
        for i in laid_files {
            let old = previous.files[i].clone();
            let (ranges, file_counts) = match fresh.get(&i) {
                Some(resolution) => {
                    let edges = &resolution.edges;
                    edge_count = edge_count - old.edges.len() + edges.edges.len();
                    sub_counts(&mut counts, &old.counts);
                    add_counts(&mut counts, &edges.counts);
                    let ranges = laid.push_file(
                        edges
                            .edges
                            .iter()
                            .map(|(from, to, edge)| (node(*from), node(*to), *edge)),
                        edges.unresolved.iter().map(|miss| (*miss, name_of(miss))),
                    );
                    (ranges, edges.counts)
                }
                None => {
                    let ranges = laid.push_file(
                        old.edges(previous)
                            .map(|(from, to, edge)| (node(from), node(to), edge)),
                        old.unresolved(previous)
                            .iter()
                            .map(|miss| (*miss, name_of(miss))),
                    );
                    (ranges, old.counts)
                }
            };
            records[i] = Arc::new(FileRecord {
                path: files[i].path.clone(),
                sha256: files[i].sha256.clone(),
                shape: shapes[i],
                in_overlay: true,
                edges: ranges.0,
                unresolved: ranges.1,
                counts: file_counts,
            });
        }
        tracing::info!(
            changed = changed.len(),
            files_laid_over = laid.masked_count(),
            edges = edge_count,
            elapsed_ms = started.elapsed().as_millis() as u64,
            "symbol graph laid over the last full build"
        );
        let laid_over = CodeGraph {
            base: previous.base.clone(),
            overlay: laid,
            counts,
            edge_count,
            files: records,
            manifests: snapshot.manifests.clone(),
            generation: snapshot.generation,
        };
        if !on_previous {
            persist::save_whole(snapshot, files, &laid_over);
        }
        Ok(Some(laid_over))
    }
}

/// Where every file's edges come from, in file order: the earlier
/// resolutions (when the rule allows reuse) for files whose bytes are the
/// same, else resolved now (on all cores, under the current request's
/// budget: [`Exhausted`] when it runs out first).
fn resolve_all(
    resolver: &Resolver,
    files: &[Arc<FileEntry>],
    shapes: &[u64],
    earlier: Option<&Earlier>,
) -> Result<Vec<Source>, Exhausted> {
    let mut done: Vec<Option<Source>> = files
        .iter()
        .enumerate()
        .map(|(i, file)| match earlier? {
            Earlier::Graph(graph) => {
                (graph.files[i].sha256 == file.sha256).then_some(Source::Graph(i))
            }
            Earlier::Saved(saved, _) => {
                (saved[i].sha256 == file.sha256).then(|| Source::Saved(saved[i].clone()))
            }
        })
        .collect();
    let todo: Vec<usize> = (0..files.len()).filter(|i| done[*i].is_none()).collect();
    // On rayon's threads, each under the request's budget: once it is
    // spent the rest is skipped, and the check below answers for it.
    let budget = lingo_model::budget::current();
    let fresh: Vec<(usize, FileEdges)> = todo
        .par_iter()
        .filter_map(|&i| {
            lingo_model::budget::enter(budget.clone(), || {
                lingo_model::budget::check()
                    .is_ok()
                    .then(|| (i, resolve_file(resolver, i as u32, &files[i])))
            })
        })
        .collect();
    lingo_model::budget::check()?;
    for (i, edges) in fresh {
        done[i] = Some(Source::Fresh(Arc::new(FileResolution {
            path: files[i].path.clone(),
            sha256: files[i].sha256.clone(),
            shape: shapes[i],
            edges,
        })));
    }
    Ok(done
        .into_iter()
        .map(|r| r.expect("every file resolved"))
        .collect())
}

fn resolve_file(resolver: &Resolver, file_number: u32, file: &Arc<FileEntry>) -> FileEdges {
    let mut out = FileEdges::default();
    let Ok(facts) = &file.facts else { return out };
    let table = resolver.table();
    for (index, reference) in facts.references.iter().enumerate() {
        let site = Site {
            file: file_number,
            reference: index as u32,
        };
        if resolver.local_of(file, reference).is_some() {
            out.counts.local += 1;
            continue;
        }
        let from = match base_holder(facts, reference) {
            Some(symbol) => Node::Symbol(SymbolRef {
                file: file_number,
                symbol,
            }),
            None => Node::File(file_number),
        };
        let definitions = resolver.resolve(file, reference);
        let Some(best) = definitions.iter().map(|d| d.resolution).min() else {
            out.counts.unresolved += 1;
            out.unresolved.push(Unresolved {
                site,
                candidates: resolver.name_only_candidates(&reference.name, reference.is_member)
                    as u32,
            });
            continue;
        };
        match best {
            Resolution::Scope | Resolution::Declaration => out.counts.scope += 1,
            Resolution::Import => out.counts.import += 1,
            Resolution::Qualified => out.counts.qualified += 1,
            Resolution::NameOnly => out.counts.name_only += 1,
        }
        for definition in definitions {
            let Target::Symbol {
                file: target,
                index,
            } = &definition.target
            else {
                continue;
            };
            let Some(target_file) = table.file_number(&target.path) else {
                continue;
            };
            let to = Node::Symbol(SymbolRef {
                file: target_file,
                symbol: *index as u32,
            });
            out.edges.push((
                from,
                to,
                Edge::new(
                    edge_kind(table, facts, reference, to),
                    Some(site),
                    definition.resolution,
                    definition.confidence,
                ),
            ));
        }
    }
    out
}

/// The edge a reference makes. A base list cannot always say whether a base
/// is a class or an interface (C# `class A : B, I`); once the base resolves,
/// a class or struct "extending" an interface implements it.
fn edge_kind(
    table: &crate::SymbolTable,
    facts: &lingo_model::FileFacts,
    reference: &lingo_model::Reference,
    to: Node,
) -> EdgeKind {
    let kind = EdgeKind::of_reference(reference.kind);
    let (EdgeKind::Extends, Node::Symbol(target), Some(enclosing)) =
        (kind, to, base_holder(facts, reference))
    else {
        return kind;
    };
    let implementor = facts.symbols[enclosing as usize].kind;
    if table.symbol(target).kind == SymbolKind::Interface
        && matches!(implementor, SymbolKind::Class | SymbolKind::Struct)
    {
        EdgeKind::Implements
    } else {
        kind
    }
}

/// The declaration a reference's edges start at: its enclosing one, or for
/// a base list held by a type's member (a Go embedded field), that type,
/// whose supertype it states.
fn base_holder(facts: &lingo_model::FileFacts, reference: &lingo_model::Reference) -> Option<u32> {
    let enclosing = reference.enclosing.get()?;
    if !matches!(
        reference.kind,
        lingo_model::ReferenceKind::Extends | lingo_model::ReferenceKind::Implements
    ) {
        return Some(enclosing);
    }
    let symbol = facts.symbols.get(enclosing as usize)?;
    match symbol.container {
        Some(container)
            if !crate::is_type_kind(symbol.kind)
                && facts
                    .symbols
                    .get(container as usize)
                    .is_some_and(|c| crate::is_type_kind(c.kind)) =>
        {
            Some(container)
        }
        _ => Some(enclosing),
    }
}

fn add_counts(total: &mut ResolutionCounts, more: &ResolutionCounts) {
    total.scope += more.scope;
    total.import += more.import;
    total.qualified += more.qualified;
    total.name_only += more.name_only;
    total.local += more.local;
    total.unresolved += more.unresolved;
}

fn sub_counts(total: &mut ResolutionCounts, less: &ResolutionCounts) {
    total.scope = total.scope.saturating_sub(less.scope);
    total.import = total.import.saturating_sub(less.import);
    total.qualified = total.qualified.saturating_sub(less.qualified);
    total.name_only = total.name_only.saturating_sub(less.name_only);
    total.local = total.local.saturating_sub(less.local);
    total.unresolved = total.unresolved.saturating_sub(less.unresolved);
}
