//! Saving a long index in batches as it goes, so that a server stopped
//! before the end (a client that quits during the first index) keeps what
//! it analysed, and the next start reads those files' facts instead of
//! analysing them again.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::{FileEntry, Origin, Workspace};
use lingo_model::sync::lock;

/// How long an index runs between two batch saves: what a stop can lose.
pub(super) const SAVE_EVERY: Duration = Duration::from_secs(2);

/// The batch saves of one refresh.
///
/// A batch writes its files' rows and the manifests they were analysed
/// with, never the index's generation: the database keeps claiming the
/// generation it had, so that a half-saved index is not taken for a
/// finished one. Rows of files a batch did not reach stay as they were.
/// The refresh's own save at its end writes the rest and the generation.
pub(super) struct BatchSave {
    every: Duration,
    manifests_digest: String,
    /// How many of the refresh's results are saved, and when the last
    /// batch was.
    saved: Mutex<(usize, Instant)>,
}

impl BatchSave {
    pub(super) fn new(manifests_digest: &str, every: Duration) -> Self {
        BatchSave {
            every,
            manifests_digest: manifests_digest.to_string(),
            saved: Mutex::new((0, Instant::now())),
        }
    }

    /// Save the results not yet saved, at most every `every`. One thread
    /// saves at a time; the others go on analysing.
    pub(super) fn maybe_save(
        &self,
        workspace: &Workspace,
        results: &Mutex<Vec<(Arc<FileEntry>, Origin)>>,
    ) {
        let Ok(mut saved) = self.saved.try_lock() else {
            return;
        };
        let (from, last) = *saved;
        if last.elapsed() < self.every {
            return;
        }
        let (batch, upto) = {
            let results = lock(results);
            let batch: Vec<Arc<FileEntry>> = results[from.min(results.len())..]
                .iter()
                .filter(|(_, origin)| *origin == Origin::Analyzed)
                .map(|(entry, _)| entry.clone())
                .collect();
            (batch, results.len())
        };
        if !batch.is_empty() {
            let entries: Vec<&FileEntry> = batch.iter().map(|e| &**e).collect();
            workspace.persist(
                &entries,
                &[],
                &[("manifests", self.manifests_digest.clone())],
            );
        }
        *saved = (upto, Instant::now());
    }

    /// How many of the results the batches saved.
    pub(super) fn saved(self) -> usize {
        self.saved.into_inner().unwrap_or_else(|p| p.into_inner()).0
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::{Pending, digest_manifests, read_manifests};
    use lingo_runtime::{Limits, PluginRegistry, RuntimeConfig};

    /// Batches saved during an index that never reaches its own save are
    /// read back by the next start instead of analysed again, and the
    /// database does not claim the index finished.
    #[test]
    fn a_stopped_first_index_keeps_its_batches() {
        let root = tempfile::tempdir().unwrap();
        let cache = tempfile::tempdir().unwrap();
        for i in 0..3 {
            let text = format!("pub fn f{i}() -> u32 {{ {i} }}\n");
            std::fs::write(root.path().join(format!("m{i}.rs")), text).unwrap();
        }
        let rust = Path::new(lingo_runtime::artifact_dir()).join("lingo_plugin_rust.wasm");
        let registry = Arc::new(
            PluginRegistry::load(&RuntimeConfig {
                extra_plugins: vec![rust],
                include_built_in: false,
                cache_dir: Some(cache.path().join("components")),
                limits: Limits::default(),
                extension_owners: Default::default(),
                compilation: Default::default(),
            })
            .unwrap(),
        );

        // A first index, stopped after its analysis: only the batches saved.
        let workspace = Workspace::with_store(root.path(), registry.clone(), cache.path()).unwrap();
        let listing = workspace.walk();
        let manifests = Arc::new(read_manifests(&workspace.dir, &listing.manifests));
        let work: Vec<Pending> = listing
            .sources
            .into_iter()
            .map(|found| Pending {
                found,
                old: None,
                stored: None,
            })
            .collect();
        let batch = BatchSave::new(&digest_manifests(&manifests), Duration::ZERO);
        let results = workspace.analyze_all(work, &manifests, true, None, Some(&batch));
        assert_eq!(results.len(), 3);
        // A thread that finds another saving goes on analysing, so the last
        // results may wait for the refresh's own save: at least one batch.
        let saved = batch.saved();
        assert!((1..=3).contains(&saved), "{saved} saved");
        let store = workspace.store.clone().unwrap();
        assert_eq!(store.meta("generation").unwrap(), None);
        drop(workspace);

        let restarted = Workspace::with_store(root.path(), registry, cache.path()).unwrap();
        let stats = restarted.refresh();
        assert_eq!(
            (stats.loaded, stats.analyzed, stats.files),
            (saved, 3 - saved, 3)
        );
        assert_eq!(stats.generation, 1);
    }
}
