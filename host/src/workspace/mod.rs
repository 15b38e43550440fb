//! The workspace: which files exist, their contents, hashes and facts, kept
//! fresh by a stat check before every answer.

pub mod paths;
mod walk;

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock, RwLock};
use std::time::{Instant, SystemTime};

use sha2::{Digest, Sha256};

use crate::error::ToolError;
use crate::graph::CodeGraph;
use crate::model::{FileFacts, Manifest, ModuleIdentity};
use crate::resolve::SymbolTable;
use crate::runtime::{LanguagePlugin, PluginError, PluginRegistry};

/// Files larger than this are not indexed.
pub const MAX_FILE_BYTES: u64 = 4 << 20;

/// One indexed file.
pub struct FileEntry {
    /// Workspace-relative POSIX path.
    pub path: String,
    pub plugin: Arc<dyn LanguagePlugin>,
    pub source: Arc<str>,
    pub sha256: String,
    pub modified: Option<SystemTime>,
    pub size: u64,
    /// The plugin's facts, or why it could not produce them.
    pub facts: Result<Arc<FileFacts>, PluginError>,
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
    pub fn facts(&self) -> Result<&Arc<FileFacts>, ToolError> {
        self.facts
            .as_ref()
            .map_err(|e| ToolError::Plugin(e.clone()))
    }

    pub fn line_count(&self) -> usize {
        self.source.lines().count().max(1)
    }
}

/// An immutable view of the index at one generation.
#[derive(Clone, Default)]
pub struct Snapshot {
    pub generation: u64,
    pub files: Arc<BTreeMap<String, Arc<FileEntry>>>,
    /// Module path -> files declaring or belonging to it.
    pub modules: Arc<HashMap<String, Vec<String>>>,
    pub manifests: Arc<Vec<Manifest>>,
    derived: Arc<Derived>,
}

/// What is computed from a snapshot on first use and shared by every
/// answer of that generation.
#[derive(Default)]
struct Derived {
    table: OnceLock<Arc<SymbolTable>>,
    graph: OnceLock<Arc<CodeGraph>>,
}

impl Snapshot {
    /// The name table of this generation (built on first use).
    pub fn table(&self) -> Arc<SymbolTable> {
        self.derived
            .table
            .get_or_init(|| Arc::new(SymbolTable::build(self)))
            .clone()
    }

    /// The symbol graph of this generation (built on first use).
    pub fn graph(&self) -> Arc<CodeGraph> {
        self.derived
            .graph
            .get_or_init(|| Arc::new(CodeGraph::build(self)))
            .clone()
    }

    pub fn file(&self, path: &str) -> Option<&Arc<FileEntry>> {
        self.files.get(path)
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
    pub analyzed: usize,
    pub removed: usize,
    pub failed: usize,
    pub elapsed_ms: u128,
}

pub struct Workspace {
    root: PathBuf,
    registry: Arc<PluginRegistry>,
    snapshot: RwLock<Snapshot>,
    /// Serialises refreshes; readers use the last snapshot meanwhile.
    refresh_lock: Mutex<Option<RefreshStats>>,
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
        Ok(Workspace {
            root,
            registry,
            snapshot: RwLock::new(Snapshot::default()),
            refresh_lock: Mutex::new(None),
        })
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    pub fn registry(&self) -> &Arc<PluginRegistry> {
        &self.registry
    }

    /// The identifier clients use as `projectId`: the root's directory name.
    pub fn project_id(&self) -> String {
        self.root
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("workspace")
            .to_string()
    }

    /// The last indexed snapshot, without checking freshness.
    pub fn snapshot(&self) -> Snapshot {
        self.snapshot.read().expect("snapshot lock").clone()
    }

    /// Statistics of the last refresh, if any.
    pub fn last_refresh(&self) -> Option<RefreshStats> {
        self.refresh_lock.lock().expect("refresh lock").clone()
    }

    /// Bring the index up to date with the disk and return the fresh snapshot.
    pub fn fresh(&self) -> Snapshot {
        self.refresh();
        self.snapshot()
    }

    /// Re-read changed files, drop deleted ones, re-analyze what changed.
    pub fn refresh(&self) -> RefreshStats {
        let mut last = self.refresh_lock.lock().expect("refresh lock");
        let started = Instant::now();
        let previous = self.snapshot();
        let listing = walk::list(&self.root, &self.registry);
        let manifests = Arc::new(read_manifests(&self.root, &listing.manifests));
        let manifests_changed = *manifests != *previous.manifests;

        let mut files = BTreeMap::new();
        let mut to_analyze = Vec::new();
        for found in listing.sources {
            let old = previous.files.get(&found.path);
            let unchanged =
                old.is_some_and(|o| o.size == found.size && o.modified == found.modified);
            match old {
                Some(old) if unchanged && !manifests_changed => {
                    files.insert(found.path.clone(), old.clone());
                }
                _ => to_analyze.push((found, old.cloned())),
            }
        }
        let removed = previous
            .files
            .keys()
            .filter(|p| !listing_contains(&files, &to_analyze, p))
            .count();
        let analyzed = self.analyze_all(to_analyze, &manifests, manifests_changed);
        let changed =
            !analyzed.is_empty() || removed > 0 || manifests_changed || previous.generation == 0;
        let failed = analyzed.iter().filter(|e| e.facts.is_err()).count();
        let analyzed_count = analyzed.len();
        for entry in analyzed {
            files.insert(entry.path.clone(), Arc::new(entry));
        }
        let generation = if changed {
            previous.generation + 1
        } else {
            previous.generation
        };
        if changed {
            let modules = Arc::new(module_map(&files));
            *self.snapshot.write().expect("snapshot lock") = Snapshot {
                generation,
                files: Arc::new(files),
                modules,
                manifests,
                derived: Arc::default(),
            };
        }
        let stats = RefreshStats {
            generation,
            files: self.snapshot().files.len(),
            analyzed: analyzed_count,
            removed,
            failed,
            elapsed_ms: started.elapsed().as_millis(),
        };
        if changed {
            tracing::info!(?stats, "workspace refreshed");
        }
        *last = Some(stats.clone());
        stats
    }

    /// Read and analyze files on all cores. A file whose bytes did not change
    /// (same sha256) keeps its facts unless the manifests changed.
    fn analyze_all(
        &self,
        work: Vec<(walk::FoundFile, Option<Arc<FileEntry>>)>,
        manifests: &Arc<Vec<Manifest>>,
        manifests_changed: bool,
    ) -> Vec<FileEntry> {
        let workers = std::thread::available_parallelism()
            .map_or(2, |n| n.get())
            .min(work.len().max(1));
        let queue = Mutex::new(work);
        let results = Mutex::new(Vec::new());
        std::thread::scope(|scope| {
            for _ in 0..workers {
                scope.spawn(|| {
                    loop {
                        let Some((found, old)) = queue.lock().expect("queue lock").pop() else {
                            break;
                        };
                        if let Some(entry) =
                            self.analyze_one(found, old, manifests, manifests_changed)
                        {
                            results.lock().expect("results lock").push(entry);
                        }
                    }
                });
            }
        });
        results.into_inner().expect("results lock")
    }

    fn analyze_one(
        &self,
        found: walk::FoundFile,
        old: Option<Arc<FileEntry>>,
        manifests: &[Manifest],
        manifests_changed: bool,
    ) -> Option<FileEntry> {
        let bytes = std::fs::read(self.root.join(&found.path)).ok()?;
        let sha256 = hex::encode(Sha256::digest(&bytes));
        let source: Arc<str> = String::from_utf8_lossy(&bytes).into();
        if let Some(old) = old.filter(|o| o.sha256 == sha256 && !manifests_changed) {
            return Some(FileEntry {
                modified: found.modified,
                size: found.size,
                ..clone_entry(&old)
            });
        }
        let facts = found
            .plugin
            .analyze(&found.path, &source, manifests)
            .map(Arc::new)
            .inspect_err(
                |e| tracing::warn!(path = %found.path, error = %e, "file could not be analyzed"),
            );
        Some(FileEntry {
            path: found.path,
            plugin: found.plugin,
            source,
            sha256,
            modified: found.modified,
            size: found.size,
            facts,
        })
    }

    /// The indexed file at a client-supplied path, with boundary checks and
    /// "did you mean" suggestions.
    pub fn file(&self, snapshot: &Snapshot, input: &str) -> Result<Arc<FileEntry>, ToolError> {
        let path = paths::resolve(&self.root, input)?;
        if let Some(entry) = snapshot.file(&path) {
            return Ok(entry.clone());
        }
        let absolute = self.root.join(&path);
        if absolute.is_file() && self.registry.for_path(&absolute).is_some() {
            let too_large = absolute.metadata().is_ok_and(|m| m.len() > MAX_FILE_BYTES);
            let reason = if too_large {
                format!(
                    "it is larger than the {} MiB indexing limit",
                    MAX_FILE_BYTES >> 20
                )
            } else {
                "it is hidden, excluded by an ignore file (.gitignore, .ignore), or in a skipped build or vendor folder".to_string()
            };
            return Err(ToolError::FileNotIndexed { path, reason });
        }
        if absolute.is_file() && self.registry.for_path(&absolute).is_none() {
            let mut extensions: Vec<String> = self
                .registry
                .plugins()
                .iter()
                .flat_map(|p| p.info().extensions.clone())
                .collect();
            extensions.sort();
            return Err(ToolError::UnsupportedLanguage { path, extensions });
        }
        let file_name = path.rsplit('/').next().unwrap_or(&path).to_string();
        let mut suggestions =
            crate::error::similar(&path, snapshot.files.keys().map(String::as_str), 3);
        if suggestions.is_empty() {
            suggestions = snapshot
                .files
                .keys()
                .filter(|p| p.rsplit('/').next() == Some(file_name.as_str()))
                .take(3)
                .cloned()
                .collect();
        }
        Err(ToolError::FileNotFound { path, suggestions })
    }
}

fn clone_entry(entry: &FileEntry) -> FileEntry {
    FileEntry {
        path: entry.path.clone(),
        plugin: entry.plugin.clone(),
        source: entry.source.clone(),
        sha256: entry.sha256.clone(),
        modified: entry.modified,
        size: entry.size,
        facts: entry.facts.clone(),
    }
}

fn listing_contains(
    kept: &BTreeMap<String, Arc<FileEntry>>,
    pending: &[(walk::FoundFile, Option<Arc<FileEntry>>)],
    path: &str,
) -> bool {
    kept.contains_key(path) || pending.iter().any(|(f, _)| f.path == path)
}

fn read_manifests(root: &Path, paths: &[String]) -> Vec<Manifest> {
    paths
        .iter()
        .filter_map(|p| {
            let contents = std::fs::read_to_string(root.join(p)).ok()?;
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
