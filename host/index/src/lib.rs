//! lingo-index: the workspace index. It owns the file walk and watcher,
//! the stored facts (SQLite), the refresher, and the transactions that
//! write files all or nothing. Imports `lingo-model` and `lingo-runtime`,
//! never resolution, analyses, tools or the protocol.
//!
//! The workspace: which files exist, their contents, hashes and facts, kept
//! fresh by the file watcher's reports (or, without one, a walk shared by
//! the requests of a short interval) and a stat of the one file a request
//! is about.

mod batch_save;
mod error;
mod macros;
mod memo;
pub mod paths;
mod refresher;
mod root;
mod scratch;
mod source_text;
mod store;
pub mod transaction;
mod walk;
mod watch;

pub use error::WorkspaceError;
pub use memo::{Derived as DerivedValue, Memo};
pub use store::{DerivedRow, IndexStore, StoreError};

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock, RwLock};

use lingo_model::sync::lock;
use std::time::{Duration, Instant, SystemTime};

use sha2::{Digest, Sha256};

use batch_save::BatchSave;
use lingo_model::validate::{self, FactLimits};
use lingo_model::{FileFacts, Manifest, ModuleIdentity};
use lingo_runtime::{LanguagePlugin, PluginError, PluginRegistry};
pub use source_text::SourceText;
use store::{FileRow, StoredFile};

/// Files larger than this are not indexed.
pub const MAX_FILE_BYTES: u64 = 4 << 20;

/// How long a workspace-wide question waits for the refresh it asked for
/// before answering from the last snapshot (saying so).
pub const WORKSPACE_WAIT: Duration = Duration::from_secs(10);
/// How long a question about one file waits before analysing that file
/// alone.
pub const FILE_WAIT: Duration = Duration::from_secs(1);
/// The same while the first index runs (seconds to minutes on a large
/// tree): long enough for a small workspace's first index, short enough
/// that a server's first answer about one file comes within a second.
pub const FIRST_INDEX_FILE_WAIT: Duration = Duration::from_millis(200);
/// Indexed files up to which every request refreshes, and a refresh stats
/// every file and every folder the last walk entered, even with a watcher
/// (about 1 µs each, warm): a change notice arrives a moment after the
/// write, and in a tree this small an edit, or a file added or removed,
/// just before a request is never missed (a changed folder means a walk).
/// Past it, the watcher's word is taken (and the file a request names is
/// stat'ed).
const STAT_ALL_FILES: usize = 2_000;
/// Without a file watcher, how long a finished refresh answers for the
/// disk: requests within this interval of its start share it instead of
/// walking the tree again (a file a request names is stat'ed regardless).
pub const UNWATCHED_RECHECK: Duration = Duration::from_millis(250);
/// How often the first index publishes what it has so far.
const PARTIAL_EVERY: Duration = Duration::from_millis(500);

/// The name a workspace's files go by in the cache directory (its index
/// database, its transactions): the root's folder name and a digest of
/// its path.
pub(crate) fn cache_key(root: &Path) -> String {
    let digest = transaction::sha256_hex(root.to_string_lossy().as_bytes());
    let name = root
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("workspace");
    format!("{name}-{}", &digest[..16])
}

/// One indexed file.
pub struct FileEntry {
    /// Workspace-relative POSIX path.
    pub path: String,
    pub plugin: Arc<dyn LanguagePlugin>,
    /// The bytes the facts were made from (read with [`FileEntry::source`]).
    text: SourceText,
    pub sha256: String,
    pub modified: Option<SystemTime>,
    pub size: u64,
    /// The plugin's facts, or why it could not produce them.
    pub facts: Result<Arc<FileFacts>, PluginError>,
    /// Rules the plugin's facts broke (repaired at the boundary).
    pub repairs: Vec<String>,
}

impl std::fmt::Debug for FileEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FileEntry")
            .field("path", &self.path)
            .field("sha256", &self.sha256)
            .finish_non_exhaustive()
    }
}

impl FileEntry {
    /// The facts, or the plugin's error as a tool error.
    pub fn facts(&self) -> Result<&Arc<FileFacts>, WorkspaceError> {
        self.facts
            .as_ref()
            .map_err(|e| WorkspaceError::Plugin(e.clone()))
    }

    /// The file's text as it was indexed. Held compressed: the last two
    /// texts a thread read are kept, so reading one file's text again and
    /// again is cheap, but a loop over many files should read each once.
    pub fn source(&self) -> Arc<str> {
        self.text.text_by_digest(&self.sha256)
    }

    /// `read` of the line that holds byte `offset` (clamped to the text):
    /// where the line starts and its text without the line end. Reads only
    /// the part of the compressed text that holds it.
    pub fn with_line_at<R>(&self, offset: u32, read: impl FnOnce(usize, &str) -> R) -> R {
        self.text.with_line_at(&self.sha256, offset as usize, read)
    }

    /// `read` of zero-based line `line` (where it starts and its text without
    /// the line end), or `None` past the last line. Reads only the part of
    /// the compressed text that holds it.
    pub fn with_line<R>(&self, line: usize, read: impl FnOnce(usize, &str) -> R) -> Option<R> {
        self.text.with_line(&self.sha256, line, read)
    }

    /// Lines of the text, as `str::lines` counts them.
    pub fn lines(&self) -> usize {
        self.text.lines()
    }

    /// Lines of the text, and at least one (an empty file has one).
    pub fn line_count(&self) -> usize {
        self.lines().max(1)
    }
}

/// How far the first index got, for a snapshot published before it ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Progress {
    pub indexed: usize,
    pub total: usize,
}

/// An immutable view of the index at one generation.
#[derive(Clone, Default)]
pub struct Snapshot {
    pub generation: u64,
    /// Set on the snapshots the first index publishes while it runs.
    pub partial: Option<Progress>,
    pub files: Arc<BTreeMap<String, Arc<FileEntry>>>,
    /// Module path -> files declaring or belonging to it.
    pub modules: Arc<HashMap<String, Vec<String>>>,
    pub manifests: Arc<Vec<Manifest>>,
    derived: Arc<Derived>,
    /// The index database, where the layers above keep what they derive.
    store: Option<Arc<IndexStore>>,
}

/// What is computed from a snapshot on first use and shared by every
/// answer of that generation.
#[derive(Default)]
struct Derived {
    /// The layers above the index: name table, graph.
    memo: Memo,
    /// Files whose facts are an error.
    failed: OnceLock<usize>,
}

impl Derived {
    /// Derived data for the generation after `previous`.
    fn after(previous: &Derived) -> Derived {
        Derived {
            memo: Memo::after(&previous.memo),
            failed: OnceLock::new(),
        }
    }
}

impl Snapshot {
    /// What the layers above the index derive from this generation.
    pub fn memo(&self) -> &Memo {
        &self.derived.memo
    }

    /// The index database, if the workspace has one (for derived values
    /// worth keeping across restarts).
    pub fn store(&self) -> Option<&Arc<IndexStore>> {
        self.store.as_ref()
    }

    /// sha256 over the manifests' paths and contents.
    pub fn manifests_digest(&self) -> String {
        digest_manifests(&self.manifests)
    }

    pub fn file(&self, path: &str) -> Option<&Arc<FileEntry>> {
        self.files.get(path)
    }

    /// Files whose plugin could not analyse them (counted once per
    /// snapshot: every answer reports it).
    pub fn failed_files(&self) -> usize {
        *self
            .derived
            .failed
            .get_or_init(|| self.files.values().filter(|f| f.facts.is_err()).count())
    }

    /// This snapshot with `texts` in place of the files' own (`None`: the
    /// file is gone), each analysed by the plugin its path selects and
    /// validated, for planning a change in steps on what the steps before
    /// it would leave. Held in memory only: never published, never stored,
    /// and its derived data is its own.
    pub fn with_texts(
        &self,
        registry: &PluginRegistry,
        texts: &BTreeMap<String, Option<String>>,
    ) -> Snapshot {
        let mut files = (*self.files).clone();
        for (path, text) in texts {
            let Some(text) = text else {
                files.remove(path);
                continue;
            };
            let plugin = match self.files.get(path) {
                Some(entry) => entry.plugin.clone(),
                None => match registry.for_path(Path::new(path)) {
                    Some(plugin) => plugin.clone(),
                    None => continue,
                },
            };
            let source: Arc<str> = Arc::from(text.as_str());
            let facts = self.analyze_text(&*plugin, path, &source).map(|facts| {
                let (facts, _) = validate::check(facts, &source, &FactLimits::default());
                Arc::new(facts)
            });
            files.insert(
                path.clone(),
                Arc::new(FileEntry {
                    path: path.clone(),
                    plugin,
                    sha256: transaction::sha256_hex(text.as_bytes()),
                    text: SourceText::new(&source),
                    modified: None,
                    size: text.len() as u64,
                    facts,
                    repairs: Vec::new(),
                }),
            );
        }
        let mut overlay = self.clone();
        overlay.modules = Arc::new(module_map(&files));
        overlay.files = Arc::new(files);
        overlay.derived = Arc::new(Derived::default());
        overlay.store = None;
        overlay.partial = None;
        overlay
    }

    /// `plugin`'s facts of `text` at `path` (not validated), with the
    /// definitions this snapshot's files hold of the macros it invokes
    /// elsewhere.
    pub fn analyze_text(
        &self,
        plugin: &dyn LanguagePlugin,
        path: &str,
        text: &str,
    ) -> Result<FileFacts, PluginError> {
        macros::analyse_text(self.files.values(), plugin, path, text, &self.manifests)
    }

    pub fn symbol_count(&self) -> usize {
        self.files
            .values()
            .filter_map(|f| f.facts.as_ref().ok())
            .map(|f| f.symbols.len())
            .sum()
    }
}

/// Statistics of one refresh.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RefreshStats {
    pub generation: u64,
    pub files: usize,
    /// Files parsed by their plugin.
    pub analyzed: usize,
    /// Files whose facts came from the database.
    pub loaded: usize,
    /// Files analysed again with other files' macro definitions.
    pub expanded_again: usize,
    pub removed: usize,
    pub failed: usize,
    pub elapsed_ms: u128,
}

pub struct Workspace {
    root: PathBuf,
    /// The root as a capability: every read under it goes through this.
    dir: root::RootDir,
    registry: Arc<PluginRegistry>,
    snapshot: RwLock<Snapshot>,
    /// Serialises refreshes; readers use the last snapshot meanwhile.
    refresh_lock: Mutex<Option<RefreshStats>>,
    /// The on-disk index, when there is a cache directory.
    store: Option<Arc<IndexStore>>,
    /// OS change notifications; without them every refresh walks the tree.
    watcher: Option<watch::Watcher>,
    /// Statistics of the first refresh (how much came from the database).
    initial: OnceLock<RefreshStats>,
    /// The background refresh worker's schedule.
    refresher: refresher::Refresher,
    /// Changes written to the files, all or nothing, and their snapshots.
    transactions: transaction::Transactions,
    /// The folders the last walk entered, with when each last changed: a
    /// small tree's refresh walks again when one of them changed (a file
    /// was added or removed there), before any change notice arrives.
    walked_folders: Mutex<Vec<(String, Option<std::time::SystemTime>)>>,
    /// The folders served (workspace-relative, no trailing `/`); empty:
    /// the whole root. Files elsewhere are not indexed, and paths elsewhere
    /// are outside the boundary.
    include: Vec<String>,
    /// The id clients name the workspace by, when not the root's name
    /// (a hosted project's).
    project_id: Option<String>,
}

impl Workspace {
    /// A workspace rooted at `root` (which must exist). Nothing is indexed
    /// until the first [`Workspace::refresh`].
    pub fn new(root: &Path, registry: Arc<PluginRegistry>) -> anyhow::Result<Self> {
        let root = root
            .canonicalize()
            .map_err(|e| anyhow::anyhow!("workspace root {}: {e}", root.display()))?;
        anyhow::ensure!(
            root.is_dir(),
            "workspace root {} is not a directory",
            root.display()
        );
        let dir = root::RootDir::open(&root)
            .map_err(|e| anyhow::anyhow!("workspace root {}: {e}", root.display()))?;
        Ok(Workspace {
            dir,
            registry,
            snapshot: RwLock::new(Snapshot::default()),
            refresh_lock: Mutex::new(None),
            store: None,
            watcher: None,
            initial: OnceLock::new(),
            refresher: refresher::Refresher::default(),
            include: Vec::new(),
            project_id: None,
            walked_folders: Mutex::new(Vec::new()),
            transactions: transaction::Transactions::new(transaction::folder_for(
                &lingo_runtime::default_cache_dir()
                    .unwrap_or_else(|| std::env::temp_dir().join("lingo")),
                &root,
            )),
            root,
        })
    }

    /// A workspace whose index persists in a database under `cache_dir`.
    /// Without a usable database it still works, indexing from scratch.
    pub fn with_store(
        root: &Path,
        registry: Arc<PluginRegistry>,
        cache_dir: &Path,
    ) -> anyhow::Result<Self> {
        let mut workspace = Workspace::new(root, registry)?;
        workspace.transactions =
            transaction::Transactions::new(transaction::folder_for(cache_dir, &workspace.root));
        match IndexStore::open(cache_dir, &workspace.root) {
            Ok(store) => {
                tracing::info!(database = %store.path().display(), "index database");
                workspace.store = Some(Arc::new(store));
            }
            Err(error) => {
                tracing::warn!(%error, "index database unavailable; the index stays in memory")
            }
        }
        Ok(workspace)
    }

    /// Watch the tree for changes, so refreshes stat the indexed files
    /// instead of walking every folder. Returns whether watching works.
    pub fn watch(&mut self) -> bool {
        match watch::Watcher::start(&self.root) {
            Ok(watcher) => {
                self.watcher = Some(watcher);
                true
            }
            Err(error) => {
                tracing::warn!(%error, "no file watcher; every refresh walks the tree");
                false
            }
        }
    }

    /// Apply `changes` to the files, all or none (see `transaction.rs`),
    /// and tell the watcher, so the next refresh reads them again.
    pub fn commit(
        &self,
        changes: &[transaction::FileChange],
        deadline: Option<Instant>,
    ) -> Result<transaction::Committed, transaction::TransactionError> {
        let committed = self.transactions.commit(&self.dir, changes, deadline);
        self.report_written(changes.iter().map(|c| c.path.as_str()));
        committed
    }

    /// Undo the committed change `snapshot_id`, as a new change.
    pub fn rollback(
        &self,
        snapshot_id: &str,
        force: bool,
    ) -> Result<transaction::Committed, transaction::TransactionError> {
        let committed = self.transactions.rollback(&self.dir, snapshot_id, force);
        if let Ok(done) = &committed {
            let touched = done
                .written
                .iter()
                .chain(&done.created)
                .chain(&done.deleted);
            self.report_written(touched.map(String::as_str));
        }
        committed
    }

    /// [`Workspace::recover`] before a workspace is opened (its plugins
    /// need not be loaded): the changes to the files under `root` that a
    /// crash interrupted, finished or discarded, with the transactions
    /// kept under `cache_dir` (else the default cache folder), as a
    /// workspace opened with it keeps them.
    pub fn recover_at(
        root: &Path,
        cache_dir: Option<&Path>,
    ) -> anyhow::Result<transaction::Recovery> {
        let root = root
            .canonicalize()
            .map_err(|e| anyhow::anyhow!("workspace root {}: {e}", root.display()))?;
        let dir = root::RootDir::open(&root)
            .map_err(|e| anyhow::anyhow!("workspace root {}: {e}", root.display()))?;
        let cache_dir = match cache_dir {
            Some(dir) => dir.to_path_buf(),
            None => lingo_runtime::default_cache_dir()
                .unwrap_or_else(|| std::env::temp_dir().join("lingo")),
        };
        let transactions =
            transaction::Transactions::new(transaction::folder_for(&cache_dir, &root));
        let recovery = transactions.recover(&dir);
        if !recovery.discarded.is_empty() || !recovery.finished.is_empty() {
            tracing::warn!(?recovery, "interrupted changes recovered");
        }
        Ok(recovery)
    }

    /// Finish or discard the changes a crash interrupted; run before the
    /// first index.
    pub fn recover(&self) -> transaction::Recovery {
        let recovery = self.transactions.recover(&self.dir);
        if !recovery.discarded.is_empty() || !recovery.finished.is_empty() {
            tracing::warn!(?recovery, "interrupted changes recovered");
        }
        recovery
    }

    /// Read the file at workspace path `path` now, from the disk.
    pub fn read_current(&self, path: &str) -> std::io::Result<Vec<u8>> {
        self.dir.read(path)
    }

    fn report_written<'a>(&self, paths: impl Iterator<Item = &'a str>) {
        if let Some(watcher) = &self.watcher {
            for path in paths {
                watcher.report(self.root.join(path));
            }
        }
    }

    /// Whether a file watcher is running.
    pub fn is_watching(&self) -> bool {
        self.watcher.is_some()
    }

    /// The files as they are on disk, and the indexed files the watcher
    /// reported changed (re-read whatever their size and modification time
    /// say). Without a watcher: a full walk. With one: `None` when nothing
    /// was reported (nothing to do), a walk when files may have been added,
    /// else the indexed files with only the reported ones stat'ed again, so
    /// a refresh costs O(changed files) in system calls.
    fn listing(&self, previous: &Snapshot) -> Option<(walk::Listing, HashSet<String>)> {
        let Some(watcher) = &self.watcher else {
            return Some((self.walk(), HashSet::new()));
        };
        let changes = watcher.take();
        // Change notices arrive a moment after the write that caused them.
        // A tree small enough to stat in a few milliseconds is stat'ed
        // whole, so an edit made just before a request is never missed;
        // past that, the watcher's word is taken.
        let stat_all = previous.files.len() <= STAT_ALL_FILES;
        if previous.generation > 0 && !changes.overflow && changes.paths.is_empty() && !stat_all {
            return None;
        }
        let reported: HashSet<String> = changes
            .paths
            .iter()
            .filter_map(|p| paths::relative_posix(&self.root, p))
            .filter(|p| previous.files.contains_key(p))
            .collect();
        if previous.generation == 0
            || changes.overflow
            || changes
                .paths
                .iter()
                .any(|p| self.may_add_files(p, previous))
            || (stat_all && self.a_walked_folder_changed())
        {
            return Some((self.walk(), reported));
        }
        let manifests = previous.manifests.iter().map(|m| m.path.clone()).collect();
        let listing = walk::restat(
            &self.dir,
            previous.files.values().map(|f| &**f),
            (!stat_all).then_some(&reported),
            manifests,
        );
        Some((listing, reported))
    }

    /// The tree as it is on disk, remembering the folders entered.
    fn walk(&self) -> walk::Listing {
        let mut listing = walk::list(&self.root, &self.registry);
        if !self.include.is_empty() {
            listing
                .sources
                .retain(|file| paths::served(&self.include, &file.path));
        }
        *lock(&self.walked_folders) = listing.folders.clone();
        listing
    }

    /// Whether a folder the last walk entered changed since (or is gone):
    /// a file may have been added or removed there. One stat per folder.
    fn a_walked_folder_changed(&self) -> bool {
        lock(&self.walked_folders).iter().any(|(folder, modified)| {
            let path = if folder.is_empty() {
                "."
            } else {
                folder.as_str()
            };
            self.dir
                .stat(path)
                .map_or(true, |now| now.modified != *modified)
        })
    }

    /// Whether a changed path may bring files the index does not know (a
    /// new source file or folder, a manifest, an ignore file) or take away
    /// several (a removed folder).
    fn may_add_files(&self, path: &Path, previous: &Snapshot) -> bool {
        let Some(relative) = paths::relative_posix(&self.root, path) else {
            return false;
        };
        if walk::is_skipped(&self.registry, &relative) || previous.files.contains_key(&relative) {
            return false;
        }
        let file_name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        // A path gone from the disk that was no indexed file may have been a
        // folder holding some: walk to find out.
        !path.exists()
            || path.is_dir()
            || self.registry.for_path(path).is_some()
            || walk::changes_listing(&self.registry, file_name)
    }

    /// Where the index is persisted, if it is.
    pub fn store_path(&self) -> Option<&Path> {
        self.store.as_ref().map(|s| s.path())
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Serve only `folders` under the root (before the first refresh).
    /// Each must be an existing folder inside the root.
    pub fn set_include(&mut self, folders: &[String]) -> anyhow::Result<()> {
        let mut include = Vec::with_capacity(folders.len());
        for folder in folders {
            let relative = paths::resolve(&self.root, folder)
                .map_err(|e| anyhow::anyhow!("include path `{folder}`: {e}"))?;
            anyhow::ensure!(
                self.dir.is_dir(&relative),
                "include path `{folder}` is not a folder under the root"
            );
            if relative.is_empty() {
                // The root itself: everything.
                return Ok(());
            }
            include.push(relative);
        }
        self.include = include;
        Ok(())
    }

    /// Name the workspace `id` for clients (a hosted project's id).
    pub fn set_project_id(&mut self, id: &str) {
        self.project_id = Some(id.to_string());
    }

    /// The served folders (empty: the whole root).
    pub fn include(&self) -> &[String] {
        &self.include
    }

    /// A client-supplied path as a workspace-relative POSIX path, refused
    /// when it leaves the root or, with include paths, when it is neither
    /// in a served folder nor a folder holding one.
    pub fn resolve(&self, input: &str) -> Result<String, WorkspaceError> {
        let path = paths::resolve(&self.root, input)?;
        if paths::served(&self.include, &path) || paths::holds_served(&self.include, &path) {
            Ok(path)
        } else {
            Err(WorkspaceError::OutsideRoot {
                path: input.to_string(),
            })
        }
    }

    pub fn registry(&self) -> &Arc<PluginRegistry> {
        &self.registry
    }

    /// The identifier clients use as `projectId`: the root's directory name.
    pub fn project_id(&self) -> String {
        if let Some(id) = &self.project_id {
            return id.clone();
        }
        self.root
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("workspace")
            .to_string()
    }

    /// The last indexed snapshot, without checking freshness.
    pub fn snapshot(&self) -> Snapshot {
        self.snapshot
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    fn publish(&self, snapshot: Snapshot) {
        *self.snapshot.write().unwrap_or_else(|p| p.into_inner()) = snapshot;
    }

    /// Statistics of the first refresh, once it ran.
    pub fn initial_refresh(&self) -> Option<RefreshStats> {
        self.initial.get().cloned()
    }

    /// Statistics of the last refresh, if any.
    pub fn last_refresh(&self) -> Option<RefreshStats> {
        lock(&self.refresh_lock).clone()
    }

    /// Start a refresh in the background (the first index at start-up).
    pub fn start_refresh(self: &Arc<Self>) -> u64 {
        let ticket = self.refresher.request();
        if ticket.start_worker {
            let workspace = self.clone();
            let spawned = std::thread::Builder::new()
                .name("lingo-refresh".into())
                .spawn(move || workspace.refresh_worker());
            if let Err(error) = spawned {
                tracing::error!(%error, "cannot start the refresh thread; refreshing inline");
                self.refresh_worker();
            }
        }
        ticket.run
    }

    /// Run refreshes while requests ask for them. A panic in one costs that
    /// refresh only: the schedule goes on and waiters are woken.
    fn refresh_worker(&self) {
        loop {
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                lingo_model::budget::enter(None, || self.refresh())
            }));
            if outcome.is_err() {
                tracing::error!("a refresh panicked; the previous snapshot stays in use");
            }
            if !self.refresher.finished() {
                break;
            }
        }
    }

    /// Wait until refresh run `run` (as [`Workspace::start_refresh`]
    /// numbered it) finished or `timeout` passed; whether it finished.
    pub fn wait_for_refresh(&self, run: u64, timeout: Duration) -> bool {
        self.refresher.wait(run, timeout)
    }

    /// Whether a refresh is running now.
    pub fn is_refreshing(&self) -> bool {
        self.refresher.is_running()
    }

    /// The index as fresh as a workspace-wide answer can wait for: a
    /// refresh that started after this call, or after [`WORKSPACE_WAIT`]
    /// (or the request's remaining time, if shorter) the last snapshot,
    /// noted on the request as `refreshing`.
    pub fn fresh(self: &Arc<Self>) -> Snapshot {
        self.fresh_within(WORKSPACE_WAIT)
    }

    /// Whether an answer must wait for a refresh: one is running or asked
    /// for (the first index included), the watcher reported changes, the
    /// tree is small enough to stat whole ([`STAT_ALL_FILES`]), or, without
    /// a watcher, the last refresh is older than [`UNWATCHED_RECHECK`].
    /// Otherwise the last snapshot is current and a request costs no
    /// system call.
    fn needs_refresh(&self) -> bool {
        if !self.refresher.settled() {
            return true;
        }
        match &self.watcher {
            Some(watcher) => watcher.has_changes() || self.snapshot().files.len() <= STAT_ALL_FILES,
            None => !self.refresher.settled_within(UNWATCHED_RECHECK),
        }
    }

    /// Whether the file at workspace path `path` (resolved) differs on
    /// disk from `snapshot` by its size or modification time (or appeared,
    /// or vanished). The watcher is told, so the refresh re-reads it.
    fn file_changed(&self, snapshot: &Snapshot, path: &str) -> bool {
        let absolute = self.root.join(path);
        let on_disk = self.dir.stat(path).ok().filter(|m| m.is_file);
        let changed = match (snapshot.files.get(path), on_disk) {
            (Some(entry), Some(meta)) => entry.size != meta.len || entry.modified != meta.modified,
            (Some(_), None) => true,
            (None, Some(_)) => self.registry.for_path(&absolute).is_some(),
            (None, None) => false,
        };
        if changed && let Some(watcher) = &self.watcher {
            watcher.report(absolute);
        }
        changed
    }

    /// [`Workspace::fresh`] with another bound on the wait.
    pub fn fresh_within(self: &Arc<Self>, wait: Duration) -> Snapshot {
        if !self.needs_refresh() {
            return self.snapshot();
        }
        self.refreshed_within(wait)
    }

    /// The index once it has read `paths` (workspace paths), which the
    /// caller has just written, created or deleted: one of them differing
    /// on disk from the index starts a refresh whether or not a watcher has
    /// reported it yet (`lingo call` runs without one, and a watcher's
    /// events may still be on their way); else as [`Workspace::fresh`].
    pub fn fresh_after_writes(self: &Arc<Self>, paths: &[&str]) -> Snapshot {
        let current = self.snapshot();
        if paths.iter().any(|path| self.file_changed(&current, path)) {
            return self.refreshed_within(WORKSPACE_WAIT);
        }
        self.fresh()
    }

    /// A refresh started (or joined) and waited for, within `wait` and the
    /// request's budget.
    fn refreshed_within(self: &Arc<Self>, wait: Duration) -> Snapshot {
        let run = self.start_refresh();
        let wait = lingo_model::budget::current()
            .and_then(|b| b.remaining())
            .map_or(wait, |r| r.min(wait));
        let done = self.refresher.wait(run, wait);
        let snapshot = self.snapshot();
        if !done || snapshot.partial.is_some() {
            note_refreshing(&snapshot);
        }
        snapshot
    }

    /// The index and one file in it, as fresh as an answer about that file
    /// needs: when the refresh takes longer than [`FILE_WAIT`], the file is
    /// read and (if it changed) analysed alone, so a slow plugin or a long
    /// first index delays only its own files.
    pub fn fresh_file(
        self: &Arc<Self>,
        input: &str,
    ) -> Result<(Snapshot, Arc<FileEntry>), WorkspaceError> {
        let current = self.snapshot();
        // A path that names no possible file is not "changed"; `file`
        // refuses it below with its error and suggestions.
        let resolved = self.resolve(input).ok();
        let changed = resolved
            .as_deref()
            .is_some_and(|path| self.file_changed(&current, path));
        if !changed && !self.needs_refresh() {
            if let Some(entry) = resolved.as_deref().and_then(|path| current.file(path)) {
                let entry = entry.clone();
                return Ok((current, entry));
            }
            let file = self.file(&current, input)?;
            return Ok((current, file));
        }
        let run = self.start_refresh();
        let wait = if self.initial.get().is_some() {
            FILE_WAIT
        } else {
            FIRST_INDEX_FILE_WAIT
        };
        if self.refresher.wait(run, wait) {
            let snapshot = self.snapshot();
            if snapshot.partial.is_some() {
                note_refreshing(&snapshot);
            }
            let file = self.file(&snapshot, input)?;
            return Ok((snapshot, file));
        }
        let snapshot = self.snapshot();
        note_refreshing(&snapshot);
        let path = self.resolve(input)?;
        let absolute = self.root.join(&path);
        let plugin = match self.registry.for_path(&absolute) {
            Some(plugin) if self.dir.is_file(&path) && !walk::is_skipped(&self.registry, &path) => {
                plugin.clone()
            }
            // Not a file lingo indexes: the usual errors and suggestions.
            _ => return self.file(&snapshot, input).map(|f| (snapshot, f)),
        };
        let metadata = self
            .dir
            .stat(&path)
            .map_err(|e| WorkspaceError::Unreadable(format!("{path}: {e}")))?;
        if metadata.len > MAX_FILE_BYTES {
            return self.file(&snapshot, input).map(|f| (snapshot, f));
        }
        let found = walk::FoundFile {
            path: path.clone(),
            plugin,
            size: metadata.len,
            modified: metadata.modified,
        };
        let pending = Pending {
            old: snapshot.files.get(&path).cloned(),
            found,
            stored: None,
        };
        let manifests = snapshot.manifests.clone();
        let (entry, _) = self.analyze_one(pending, &manifests, true).ok_or_else(|| {
            WorkspaceError::FileNotFound {
                path: path.clone(),
                suggestions: Vec::new(),
            }
        })?;
        // With the definitions the snapshot holds of the macros it invokes.
        let sources = match &entry.facts {
            Ok(facts) => macros::MacroEnvironment::of(snapshot.files.values())
                .sources_for(&entry.path, facts),
            Err(_) => Vec::new(),
        };
        let entry = if sources.is_empty() {
            entry
        } else {
            macros::analyse(&entry, &sources, &manifests).unwrap_or(entry)
        };
        let entry = Arc::new(entry);
        let mut overlay = snapshot.clone();
        let mut files = (*snapshot.files).clone();
        files.insert(path, entry.clone());
        overlay.files = Arc::new(files);
        overlay.derived = Arc::new(Derived::default());
        // One file analysed ahead of the refresh: what is derived from this
        // view is not kept.
        overlay.store = None;
        Ok((overlay, entry))
    }

    /// Re-read changed files, drop deleted ones, re-analyze what changed.
    /// The first refresh takes unchanged files' facts from the database.
    pub fn refresh(&self) -> RefreshStats {
        let mut last = lock(&self.refresh_lock);
        let started = Instant::now();
        let previous = self.snapshot();
        let Some((listing, reported)) = self.listing(&previous) else {
            // The watcher saw nothing change: the snapshot is current.
            let stats = RefreshStats {
                generation: previous.generation,
                files: previous.files.len(),
                elapsed_ms: started.elapsed().as_millis(),
                ..RefreshStats::default()
            };
            *last = Some(stats.clone());
            return stats;
        };
        let manifests = Arc::new(read_manifests(&self.dir, &listing.manifests));
        let manifests_digest = digest_manifests(&manifests);
        let first = previous.generation == 0;
        let mut stored = if first {
            self.load_stored()
        } else {
            Stored::default()
        };
        // Facts depend on the manifests (module paths): reuse them only
        // while the manifests are the same.
        let reuse = if first {
            stored.manifests_digest.as_deref() == Some(manifests_digest.as_str())
        } else {
            *manifests == *previous.manifests
        };

        let mut files = BTreeMap::new();
        let mut to_analyze = Vec::new();
        for found in listing.sources {
            let old = previous.files.get(&found.path);
            let unchanged = !reported.contains(&found.path)
                && old.is_some_and(|o| o.size == found.size && o.modified == found.modified);
            match old {
                Some(old) if unchanged && reuse => {
                    files.insert(found.path.clone(), old.clone());
                }
                _ => {
                    let from_store = stored.files.remove(&found.path);
                    to_analyze.push(Pending {
                        found,
                        old: old.cloned(),
                        stored: from_store,
                    });
                }
            }
        }
        let mut removed: Vec<String> = previous
            .files
            .keys()
            .filter(|p| !files.contains_key(*p) && !to_analyze.iter().any(|t| &t.found.path == *p))
            .cloned()
            .collect();
        // Files the database knows that are gone from the disk.
        let store_was_empty = stored.files.is_empty() && stored.generation == 0;
        removed.extend(stored.files.into_keys());
        // The first index publishes what it has every so often, so that
        // answers need not wait for all of it.
        let progress = (first && previous.files.is_empty()).then(|| Partial {
            total: to_analyze.len(),
            last: Mutex::new(Instant::now()),
            manifests: manifests.clone(),
        });
        // The first index saves as it goes, where every row the database
        // holds was made with these manifests (a batch writes them).
        let batch = (first && self.store.is_some() && (reuse || store_was_empty))
            .then(|| BatchSave::new(&manifests_digest, batch_save::SAVE_EVERY));
        let results = self.analyze_all(
            to_analyze,
            &manifests,
            reuse,
            progress.as_ref(),
            batch.as_ref(),
        );
        let saved_in_batches = batch.map_or(0, BatchSave::saved).min(results.len());
        let analyzed_count = results
            .iter()
            .filter(|(_, origin)| *origin == Origin::Analyzed)
            .count();
        let loaded = results
            .iter()
            .filter(|(_, origin)| *origin == Origin::Stored)
            .count();
        let failed = results.iter().filter(|(e, _)| e.facts.is_err()).count();
        let content_changed = results.iter().any(|(_, o)| *o != Origin::Stored);
        let base = if first {
            stored.generation
        } else {
            previous.generation
        };
        let changed = content_changed || !removed.is_empty() || !reuse || base == 0;
        for (entry, _) in &results {
            files.insert(entry.path.clone(), entry.clone());
        }
        // The files analysed and not yet saved, by path: `files` holds
        // them from here, so that routing can let go of the entries it
        // replaces.
        let unsaved_paths: Vec<String> = results[saved_in_batches..]
            .iter()
            .filter(|(_, origin)| *origin == Origin::Analyzed)
            .map(|(entry, _)| entry.path.clone())
            .collect();
        drop(results);
        // Other files' macro definitions, handed to the files that invoke
        // them; an edited definition re-analyses its users. A first index
        // goes on publishing what it has meanwhile.
        let routed = macros::route(&mut files, &manifests, &|files| {
            if let Some(progress) = &progress {
                progress.maybe_publish_files(self, files);
            }
        });
        let changed = changed || !routed.is_empty();
        let generation = if changed { base + 1 } else { base };
        let mut unsaved: Vec<&FileEntry> = unsaved_paths
            .iter()
            .filter(|path| !routed.contains_key(*path))
            .filter_map(|path| files.get(path))
            .map(|entry| &**entry)
            .collect();
        unsaved.extend(routed.values().map(|entry| &**entry));
        self.persist(
            &unsaved,
            &removed,
            &[
                ("generation", generation.to_string()),
                ("manifests", manifests_digest.clone()),
            ],
        );
        let removed_count = removed.len();
        if changed || first {
            let modules = Arc::new(module_map(&files));
            self.publish(Snapshot {
                generation,
                partial: None,
                files: Arc::new(files),
                modules,
                manifests,
                derived: Arc::new(Derived::after(&previous.derived)),
                store: self.store.clone(),
            });
        }
        let stats = RefreshStats {
            generation,
            files: self.snapshot().files.len(),
            analyzed: analyzed_count,
            expanded_again: routed.len(),
            loaded,
            removed: removed_count,
            failed,
            elapsed_ms: started.elapsed().as_millis(),
        };
        if changed || first {
            tracing::info!(?stats, "workspace refreshed");
        }
        if first {
            let _ = self.initial.set(stats.clone());
        }
        *last = Some(stats.clone());
        stats
    }

    /// What the database holds, or nothing when there is no database.
    fn load_stored(&self) -> Stored {
        let Some(store) = &self.store else {
            return Stored::default();
        };
        let loaded = store.load().and_then(|files| {
            let generation = store.meta("generation")?.and_then(|g| g.parse().ok());
            let manifests_digest = store.meta("manifests")?;
            Ok(Stored {
                files,
                generation: generation.unwrap_or(0),
                manifests_digest,
            })
        });
        loaded.unwrap_or_else(|error| {
            tracing::warn!(%error, "index database unreadable; indexing from scratch");
            Stored::default()
        })
    }

    /// Write what was analyzed to the database, with `meta`; failures only
    /// cost a re-parse at the next start, so they are logged, not returned.
    fn persist(&self, analyzed: &[&FileEntry], removed: &[String], meta: &[(&str, String)]) {
        let Some(store) = &self.store else { return };
        let rows: Vec<FileRow> = analyzed
            .iter()
            .filter_map(|entry| {
                let facts = entry.facts.as_ref().ok()?;
                Some(FileRow {
                    path: &entry.path,
                    sha256: &entry.sha256,
                    size: entry.size,
                    modified: entry.modified,
                    plugin: entry.plugin.fingerprint(),
                    facts,
                })
            })
            .collect();
        // A file that failed is forgotten, so the next start tries it again.
        let mut forget: Vec<String> = removed.to_vec();
        forget.extend(
            analyzed
                .iter()
                .filter(|e| e.facts.is_err())
                .map(|e| e.path.clone()),
        );
        if let Err(error) = store.save(&rows, &forget, meta) {
            tracing::warn!(%error, "could not save the index");
        }
    }

    /// Read and analyze files on all cores. A file whose bytes did not change
    /// (same sha256) keeps its facts, from memory or from the database, while
    /// `reuse` holds (the manifests did not change).
    fn analyze_all(
        &self,
        work: Vec<Pending>,
        manifests: &Arc<Vec<Manifest>>,
        reuse: bool,
        partial: Option<&Partial>,
        batch: Option<&BatchSave>,
    ) -> Vec<(Arc<FileEntry>, Origin)> {
        let workers = std::thread::available_parallelism()
            .map_or(2, |n| n.get())
            .min(work.len().max(1));
        let queue = Mutex::new(work);
        let results = Mutex::new(Vec::new());
        std::thread::scope(|scope| {
            for _ in 0..workers {
                scope.spawn(|| {
                    loop {
                        let Some(pending) = lock(&queue).pop() else {
                            break;
                        };
                        let path = pending.found.path.clone();
                        // A panic analysing one file costs that file only.
                        let done = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                            self.analyze_one(pending, manifests, reuse)
                        }));
                        match done {
                            Ok(Some((entry, origin))) => {
                                lock(&results).push((Arc::new(entry), origin));
                            }
                            Ok(None) => {}
                            Err(_) => tracing::error!(%path, "analysing the file panicked; it is left out"),
                        }
                        if let Some(partial) = partial {
                            partial.maybe_publish(self, &results);
                        }
                        if let Some(batch) = batch {
                            batch.maybe_save(self, &results);
                        }
                    }
                });
            }
        });
        results.into_inner().unwrap_or_else(|p| p.into_inner())
    }

    fn analyze_one(
        &self,
        pending: Pending,
        manifests: &[Manifest],
        reuse: bool,
    ) -> Option<(FileEntry, Origin)> {
        let Pending { found, old, stored } = pending;
        let (sha256, source) = scratch::with_scratch(|bytes| {
            self.dir.read_into(&found.path, bytes).ok()?;
            let source: Arc<str> = String::from_utf8_lossy(bytes).into();
            Some((transaction::sha256_hex(bytes), source))
        })?;
        if let Some(old) = old.filter(|o| reuse && o.sha256 == sha256) {
            let entry = FileEntry {
                modified: found.modified,
                size: found.size,
                ..clone_entry(&old)
            };
            return Some((entry, Origin::Unchanged));
        }
        let fingerprint = found.plugin.fingerprint();
        // Stored facts are decoded here, on the analysing threads; a row
        // that does not decode is analysed again.
        // Past the limit of the table of names, no new facts are taken in.
        let full = lingo_model::name::table_full();
        let decoded = stored
            .filter(|s| full.is_none() && reuse && s.sha256 == sha256 && s.plugin == fingerprint)
            .zip(self.store.as_deref())
            .and_then(|(stored, store)| stored.facts(store));
        let (facts, origin) = match (decoded, full) {
            (Some(facts), _) => (Ok(facts), Origin::Stored),
            (None, Some(held)) => (Err(names_full(&found.plugin, held)), Origin::Analyzed),
            (None, None) => (
                found
                    .plugin
                    .analyze(&found.path, &source, manifests)
                    .inspect_err(|e| {
                        tracing::warn!(path = %found.path, error = %e, "file could not be analyzed")
                    }),
                Origin::Analyzed,
            ),
        };
        // Facts enter the index only through validation, stored ones too.
        let (facts, repairs) = match facts {
            Ok(facts) => {
                let (facts, report) = validate::check(facts, &source, &FactLimits::default());
                if !report.is_clean() {
                    tracing::warn!(path = %found.path, plugin = %found.plugin.info().name, rules = ?report.rules(), "plugin facts repaired");
                }
                if !report.broken.is_empty() && origin == Origin::Analyzed {
                    found.plugin.note_failure(
                        "analyze",
                        &PluginError::InvalidOutput {
                            plugin: found.plugin.info().name.clone(),
                            rules: report.broken_rules(),
                        },
                    );
                }
                (Ok(Arc::new(facts)), report.broken_rules())
            }
            Err(error) => (Err(error), Vec::new()),
        };
        let entry = FileEntry {
            path: found.path,
            plugin: found.plugin,
            sha256,
            modified: found.modified,
            size: found.size,
            text: SourceText::new(&source),
            facts,
            repairs,
        };
        Some((entry, origin))
    }

    /// The indexed file at a client-supplied path, with boundary checks and
    /// "did you mean" suggestions.
    pub fn file(&self, snapshot: &Snapshot, input: &str) -> Result<Arc<FileEntry>, WorkspaceError> {
        let path = self.resolve(input)?;
        if let Some(entry) = snapshot.file(&path) {
            return Ok(entry.clone());
        }
        let absolute = self.root.join(&path);
        let on_disk = self.dir.stat(&path).ok().filter(|s| s.is_file);
        if let Some(stat) = on_disk
            && self.registry.for_path(&absolute).is_some()
        {
            let too_large = stat.len > MAX_FILE_BYTES;
            let reason = if too_large {
                format!(
                    "it is larger than the {} MiB indexing limit",
                    MAX_FILE_BYTES >> 20
                )
            } else if let Some(progress) = &snapshot.partial {
                format!(
                    "the first index has not reached it yet ({} of {} files); ask again shortly",
                    progress.indexed, progress.total
                )
            } else {
                "it is hidden, excluded by an ignore file (.gitignore, .ignore), or in a skipped build or vendor folder".to_string()
            };
            return Err(WorkspaceError::FileNotIndexed { path, reason });
        }
        if absolute.is_file() && self.registry.for_path(&absolute).is_none() {
            let mut extensions: Vec<String> = self
                .registry
                .plugins()
                .iter()
                .flat_map(|p| p.info().extensions.clone())
                .collect();
            extensions.sort();
            return Err(WorkspaceError::UnsupportedLanguage { path, extensions });
        }
        let file_name = path.rsplit('/').next().unwrap_or(&path).to_string();
        let mut suggestions =
            lingo_model::suggest::similar(&path, snapshot.files.keys().map(String::as_str), 3);
        if suggestions.is_empty() {
            suggestions = snapshot
                .files
                .keys()
                .filter(|p| p.rsplit('/').next() == Some(file_name.as_str()))
                .take(3)
                .cloned()
                .collect();
        }
        Err(WorkspaceError::FileNotFound { path, suggestions })
    }
}

fn clone_entry(entry: &FileEntry) -> FileEntry {
    FileEntry {
        path: entry.path.clone(),
        plugin: entry.plugin.clone(),
        text: entry.text.clone(),
        sha256: entry.sha256.clone(),
        modified: entry.modified,
        size: entry.size,
        facts: entry.facts.clone(),
        repairs: entry.repairs.clone(),
    }
}

/// Publishing of the first index's partial snapshots.
struct Partial {
    total: usize,
    last: Mutex<Instant>,
    manifests: Arc<Vec<Manifest>>,
}

impl Partial {
    /// Publish the files analysed so far, at most every [`PARTIAL_EVERY`].
    fn maybe_publish(&self, workspace: &Workspace, results: &Mutex<Vec<(Arc<FileEntry>, Origin)>>) {
        if !self.due() {
            return;
        }
        let files: BTreeMap<String, Arc<FileEntry>> = lock(results)
            .iter()
            .map(|(entry, _)| (entry.path.clone(), entry.clone()))
            .collect();
        self.publish(workspace, files);
    }

    /// Publish `files` (every file analysed, some analysed again with the
    /// macros they invoke), at most every [`PARTIAL_EVERY`].
    fn maybe_publish_files(&self, workspace: &Workspace, files: &BTreeMap<String, Arc<FileEntry>>) {
        if self.due() {
            self.publish(workspace, files.clone());
        }
    }

    /// Whether [`PARTIAL_EVERY`] has passed since the last publication
    /// (and it is this caller's to publish).
    fn due(&self) -> bool {
        let Ok(mut last) = self.last.try_lock() else {
            return false;
        };
        if last.elapsed() < PARTIAL_EVERY {
            return false;
        }
        *last = Instant::now();
        true
    }

    fn publish(&self, workspace: &Workspace, files: BTreeMap<String, Arc<FileEntry>>) {
        let indexed = files.len();
        let modules = Arc::new(module_map(&files));
        workspace.publish(Snapshot {
            generation: 0,
            partial: Some(Progress {
                indexed,
                total: self.total,
            }),
            files: Arc::new(files),
            modules,
            manifests: self.manifests.clone(),
            derived: Arc::new(Derived::default()),
            // A partial index keeps nothing derived: it is not the tree.
            store: None,
        });
    }
}

/// Record on the current request that `snapshot` may be behind the disk.
fn note_refreshing(snapshot: &Snapshot) {
    if let Some(budget) = lingo_model::budget::current() {
        budget.note_refreshing(serde_json::json!({
            "generation": snapshot.generation,
            "indexing": snapshot.partial,
        }));
    }
}

/// A file waiting to be read: what the walk found, the previous snapshot's
/// entry and the database's row, if any.
struct Pending {
    found: walk::FoundFile,
    old: Option<Arc<FileEntry>>,
    stored: Option<StoredFile>,
}

/// Where a refreshed file's facts came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Origin {
    /// Same bytes as in the previous snapshot.
    Unchanged,
    /// Same bytes and plugin as in the database.
    Stored,
    /// Parsed by the plugin now.
    Analyzed,
}

/// The database's contents, read at the first refresh.
#[derive(Default)]
struct Stored {
    files: HashMap<String, StoredFile>,
    generation: u64,
    manifests_digest: Option<String>,
}

/// sha256 over the manifests' paths and contents.
fn digest_manifests(manifests: &[Manifest]) -> String {
    let mut hasher = Sha256::new();
    for manifest in manifests {
        hasher.update(manifest.path.as_bytes());
        hasher.update([0]);
        hasher.update(manifest.contents.as_bytes());
        hasher.update([0]);
    }
    hex::encode(hasher.finalize())
}

fn read_manifests(root: &root::RootDir, paths: &[String]) -> Vec<Manifest> {
    paths
        .iter()
        .filter_map(|p| {
            let contents = root.read_to_string(p).ok()?;
            Some(Manifest {
                path: p.clone(),
                contents,
            })
        })
        .collect()
}

fn module_map(files: &BTreeMap<String, Arc<FileEntry>>) -> HashMap<String, Vec<String>> {
    let mut map: HashMap<String, Vec<String>> = HashMap::new();
    for entry in files.values() {
        if let Ok(facts) = &entry.facts {
            for ModuleIdentity { path, .. } in &facts.modules {
                map.entry(path.clone())
                    .or_default()
                    .push(entry.path.clone());
            }
        }
    }
    map
}

/// The error of a file not indexed because the process's table of names
/// is full (see [`lingo_model::name::interned_limit`]).
fn names_full(plugin: &Arc<dyn LanguagePlugin>, held: usize) -> PluginError {
    PluginError::Unavailable {
        plugin: plugin.info().name.clone(),
        operation: "analyze".into(),
        reason: format!(
            "the table of names is full ({} MiB of distinct names, the limit of one process); restart lingo to index more",
            held >> 20
        ),
    }
}
