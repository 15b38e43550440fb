//! Change notifications from the operating system (inotify and friends,
//! through `notify`): which paths changed since the last refresh, so that a
//! refresh checks the indexed files instead of walking the whole tree.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use notify::{EventKind, RecommendedWatcher, RecursiveMode, Watcher as _};

/// Changed paths remembered between refreshes, at most.
const MAX_REPORTED_PATHS: usize = 100_000;

/// Paths reported changed since the last [`Watcher::take`].
#[derive(Debug, Default)]
pub struct Changes {
    pub paths: HashSet<PathBuf>,
    /// Events were lost (queue overflow, watcher error): walk everything.
    pub overflow: bool,
}

pub struct Watcher {
    /// Kept alive for its OS watches; dropping it stops them.
    _watcher: RecommendedWatcher,
    changes: Arc<Mutex<Changes>>,
}

impl Watcher {
    /// Watch `root` recursively.
    pub fn start(root: &Path) -> Result<Watcher, notify::Error> {
        let changes = Arc::new(Mutex::new(Changes::default()));
        let sink = changes.clone();
        // Links are not followed: a linked folder (to `/usr`, say) is not
        // the workspace's, and the walk does not enter it either.
        let config = notify::Config::default().with_follow_symlinks(false);
        let mut watcher = RecommendedWatcher::new(
            move |event: notify::Result<notify::Event>| {
                let mut changes = lingo_model::sync::lock(&sink);
                match event {
                    Ok(event) if event.need_rescan() => changes.overflow = true,
                    Ok(event) if matches!(event.kind, EventKind::Access(_)) => {}
                    // Past this many paths a walk is cheaper than the list.
                    Ok(_) if changes.paths.len() >= MAX_REPORTED_PATHS => {
                        changes.paths.clear();
                        changes.overflow = true;
                    }
                    Ok(event) => changes.paths.extend(event.paths),
                    Err(error) => {
                        tracing::warn!(%error, "file watcher error; the next refresh walks the tree");
                        changes.overflow = true;
                    }
                }
            },
            config,
        )?;
        watcher.watch(root, RecursiveMode::Recursive)?;
        Ok(Watcher {
            _watcher: watcher,
            changes,
        })
    }

    /// The changes since the last call, emptying the record.
    pub fn take(&self) -> Changes {
        std::mem::take(&mut *lingo_model::sync::lock(&self.changes))
    }

    /// Whether anything was reported since the last [`Watcher::take`].
    pub fn has_changes(&self) -> bool {
        let changes = lingo_model::sync::lock(&self.changes);
        changes.overflow || !changes.paths.is_empty()
    }

    /// Record `path` as changed, as if the OS had reported it (a request
    /// saw it differ from the index before the notice arrived).
    pub fn report(&self, path: PathBuf) {
        let mut changes = lingo_model::sync::lock(&self.changes);
        if changes.paths.len() < MAX_REPORTED_PATHS {
            changes.paths.insert(path);
        } else {
            changes.overflow = true;
        }
    }
}
