//! The graph's per-file resolutions kept in the index database, so that a
//! restart on an unchanged tree builds its graph without resolving a
//! reference again. A row is the file's resolved edges and misses, with the
//! file's sha256 and plugin fingerprint (the facts the edges index into)
//! and its shape (what the reuse rule compares); the set is saved with the
//! manifests' digest and the identity of the lingo build that resolved it. Rows are checked like any input: an edge that points
//! outside the snapshot's files, symbols or references discards its row.

use std::collections::HashMap;
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use super::build::{FileEdges, FileResolution};
use super::{CodeGraph, Node, Site};
use lingo_index::{DerivedRow, FileEntry, Snapshot};

/// What every row was resolved under besides its file: the manifests
/// (module paths) and the resolver, which is this build of lingo. Another
/// build may resolve differently, so it resolves again rather than trust
/// rows it did not write.
fn saved_context(snapshot: &Snapshot) -> String {
    format!("{} {}", snapshot.manifests_digest(), build_identity())
}

/// This executable's size and modification time: another build of lingo
/// (a rebuilt or upgraded binary) has another.
fn build_identity() -> &'static str {
    static IDENTITY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    IDENTITY.get_or_init(|| {
        let built = std::env::current_exe()
            .and_then(std::fs::metadata)
            .and_then(|m| Ok((m.len(), m.modified()?)));
        match built {
            Ok((size, modified)) => {
                let since = modified
                    .duration_since(std::time::UNIX_EPOCH)
                    .unwrap_or_default();
                format!(
                    "lingo {} {size} {}",
                    env!("CARGO_PKG_VERSION"),
                    since.as_nanos()
                )
            }
            // Unknown: a context no saved row can have, so nothing is reused.
            Err(error) => format!("unknown build ({error}) {:?}", std::time::SystemTime::now()),
        }
    })
}

/// The rows' kind in the database.
const KIND: &str = "graph";

/// What a row's edges were computed from: the file's bytes and the plugin
/// that produced its facts.
fn identity(file: &FileEntry) -> String {
    format!("{}:{}", file.sha256, file.plugin.fingerprint())
}

/// The saved resolutions of `files` (the snapshot's files in table order),
/// one per file, when they were saved with the same manifests and every
/// file has a row. A row whose file changed, or that does not check out,
/// comes back with no sha256, so that its file is resolved again.
pub(super) fn load(
    snapshot: &Snapshot,
    files: &[Arc<FileEntry>],
) -> Option<(Vec<Arc<FileResolution>>, Option<u64>)> {
    let store = snapshot.store()?;
    let unreadable = |error: &lingo_index::StoreError| {
        tracing::warn!(%error, "saved graph unreadable");
    };
    let (context, generation) = store.derived_context(KIND).inspect_err(unreadable).ok()?;
    if context.as_deref() != Some(saved_context(snapshot).as_str()) {
        return None;
    }
    let started = std::time::Instant::now();
    let numbers: HashMap<&str, usize> = files
        .iter()
        .enumerate()
        .map(|(number, file)| (file.path.as_str(), number))
        .collect();
    // Each row decoded as it is read: one blob held at a time.
    let mut loaded: Vec<Option<Arc<FileResolution>>> = vec![None; files.len()];
    let mut rows = 0;
    store
        .for_each_derived(KIND, |row| {
            rows += 1;
            let Some(&number) = numbers.get(row.path.as_str()) else {
                return;
            };
            let file = &files[number];
            let edges = postcard::from_bytes::<FileEdges>(&row.blob)
                .ok()
                .filter(|edges| fits(edges, number as u32, files));
            let current = row.sha256 == identity(file) && edges.is_some();
            loaded[number] = Some(Arc::new(FileResolution {
                path: row.path,
                sha256: if current {
                    file.sha256.clone()
                } else {
                    String::new()
                },
                shape: row.key as u64,
                edges: edges.unwrap_or_default(),
            }));
        })
        .inspect_err(unreadable)
        .ok()?;
    tracing::info!(
        files = files.len(),
        elapsed_ms = started.elapsed().as_millis() as u64,
        "saved graph loaded"
    );
    // Every file has a row, and no row names a file not held.
    if rows != files.len() {
        return None;
    }
    let loaded: Option<Vec<Arc<FileResolution>>> = loaded.into_iter().collect();
    Some((loaded?, generation))
}

/// Whether every edge and miss of file `number` stays inside `files`.
fn fits(edges: &FileEdges, number: u32, files: &[Arc<FileEntry>]) -> bool {
    let counts = |file: u32| {
        files
            .get(file as usize)
            .and_then(|f| f.facts.as_ref().ok())
            .map(|facts| (facts.symbols.len(), facts.references.len()))
    };
    let Some((_, references)) = counts(number) else {
        return edges.edges.is_empty() && edges.unresolved.is_empty();
    };
    let node_fits = |node: &Node| match node {
        Node::File(file) => (*file as usize) < files.len(),
        Node::Symbol(symbol) => {
            counts(symbol.file).is_some_and(|(symbols, _)| (symbol.symbol as usize) < symbols)
        }
    };
    let site_fits = |site: &Site| site.file == number && (site.reference as usize) < references;
    edges.edges.iter().all(|(from, to, edge)| {
        node_fits(from) && node_fits(to) && edge.site().as_ref().is_none_or(site_fits)
    }) && edges.unresolved.iter().all(|miss| site_fits(&miss.site))
}

/// Save the files resolved by a build, in the background: every row when
/// nothing was reused (the file list or a shape changed), else, with
/// `reused_from` the generation whose resolutions the rest came from, the
/// rows of the files resolved again (the store drops every row instead
/// when what it holds is not that generation's). Snapshots without a
/// database (a partial first index, a one-file overlay) save nothing.
pub(super) fn save(
    snapshot: &Snapshot,
    files: &[Arc<FileEntry>],
    fresh: Vec<(usize, Arc<FileResolution>)>,
    reused_from: Option<u64>,
) {
    if snapshot.store().is_none() || fresh.is_empty() {
        return;
    }
    let changed: Vec<(String, Arc<FileResolution>)> = fresh
        .into_iter()
        .map(|(i, resolution)| (identity(&files[i]), resolution))
        .collect();
    // Each resolution is let go as soon as its row is encoded: once the
    // build has put its edges in the graph, it is freed there and then.
    write_in_background(snapshot, reused_from, move || {
        changed
            .into_iter()
            .filter_map(|(identity, resolution)| {
                row(
                    resolution.path.clone(),
                    identity,
                    resolution.shape,
                    &resolution.edges,
                )
            })
            .collect()
    });
}

/// Whether the database holds the rows of `generation`, resolved by this
/// build under these manifests: what a save of only the files resolved
/// again must sit on top of.
pub(super) fn holds(snapshot: &Snapshot, generation: u64) -> bool {
    let Some(store) = snapshot.store() else {
        return false;
    };
    matches!(
        store.derived_context(KIND),
        Ok((Some(context), Some(saved))) if saved == generation && context == saved_context(snapshot)
    )
}

/// Save every file's resolutions as `graph` holds them, replacing what the
/// database holds: after a full build (the resolutions freed as their
/// edges went into the graph), and for a graph that reused resolutions the
/// database does not hold (those of a graph built from a partial first
/// index), which a save of the files resolved again would leave with rows
/// missing, so that the next start would resolve everything again. Each
/// row is encoded in the background from the graph's own edges, one file
/// at a time.
pub(super) fn save_whole(snapshot: &Snapshot, files: &[Arc<FileEntry>], graph: &CodeGraph) {
    if snapshot.store().is_none() || graph.files.len() != files.len() {
        return;
    }
    let graph = graph.clone();
    let identities: Vec<String> = files.iter().map(|file| identity(file)).collect();
    write_in_background(snapshot, None, move || {
        graph
            .files
            .iter()
            .zip(identities)
            .filter_map(|(record, identity)| {
                let edges = record.resolution(&graph);
                row(record.path.clone(), identity, record.shape, &edges)
            })
            .collect()
    });
}

/// One file's row: its edges encoded.
fn row(path: String, identity: String, shape: u64, edges: &FileEdges) -> Option<DerivedRow> {
    Some(DerivedRow {
        path,
        sha256: identity,
        key: shape as i64,
        blob: postcard::to_stdvec(edges).ok()?,
    })
}

/// Write the rows `rows` makes for `snapshot` on a thread of its own, on
/// top of the rows of generation `reused_from` (`None`: replacing them).
fn write_in_background(
    snapshot: &Snapshot,
    reused_from: Option<u64>,
    rows: impl FnOnce() -> Vec<DerivedRow> + Send + 'static,
) {
    let Some(store) = snapshot.store().cloned() else {
        return;
    };
    let generation = snapshot.generation;
    let context = saved_context(snapshot);
    let saving = Saving::start();
    let spawned = std::thread::Builder::new()
        .name("lingo-graph-save".into())
        .spawn(move || {
            let _saving = saving;
            let started = std::time::Instant::now();
            let rows = rows();
            match store.save_derived(KIND, generation, reused_from, &context, &rows) {
                Ok(saved) => tracing::info!(
                    rows = rows.len(),
                    saved,
                    elapsed_ms = started.elapsed().as_millis() as u64,
                    "graph saved"
                ),
                Err(error) => tracing::warn!(%error, "could not save the graph"),
            }
        });
    if let Err(error) = spawned {
        tracing::warn!(%error, "cannot start the graph save thread");
    }
}

/// How many graph saves are writing, for [`wait_for_saves`].
static SAVING: (Mutex<usize>, Condvar) = (Mutex::new(0), Condvar::new());

/// One graph save in flight, counted until dropped (also when the save
/// thread panics or cannot start).
struct Saving;

impl Saving {
    fn start() -> Saving {
        *lingo_model::sync::lock(&SAVING.0) += 1;
        Saving
    }
}

impl Drop for Saving {
    fn drop(&mut self) {
        let mut count = lingo_model::sync::lock(&SAVING.0);
        *count = count.saturating_sub(1);
        SAVING.1.notify_all();
    }
}

/// Wait up to `timeout` for the graph saves in flight to finish, so that a
/// server stopping right after its first graph keeps it for the next start.
/// Whether none is left.
pub fn wait_for_saves(timeout: Duration) -> bool {
    let count = lingo_model::sync::lock(&SAVING.0);
    let (count, _) = SAVING
        .1
        .wait_timeout_while(count, timeout, |count| *count > 0)
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    *count == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stop_waits_for_the_saves_in_flight() {
        let held = Saving::start();
        assert!(!wait_for_saves(Duration::from_millis(20)));
        let saving = Saving::start();
        let writer = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            drop(saving);
        });
        drop(held);
        // Other tests' saves may be in flight too; they end within this.
        assert!(wait_for_saves(Duration::from_secs(60)));
        writer.join().unwrap();
    }
}
