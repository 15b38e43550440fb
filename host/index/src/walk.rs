//! Listing the workspace: source files the plugins claim and the manifests
//! they asked for, honouring `.gitignore` and skipping hidden folders and
//! the build and vendor folders each plugin's policy names for its files.

use std::path::Path;
use std::sync::Arc;
use std::time::SystemTime;

use lingo_runtime::{LanguagePlugin, PluginRegistry};

use super::MAX_FILE_BYTES;
use super::paths::relative_posix;

/// Folders never indexed, whatever `.gitignore` says (hidden folders are
/// skipped too). Build and vendor folders are the plugins' to name
/// (`skip-dirs` of their policy), for their own files.
const SKIPPED_DIRS: &[&str] = &[".git"];

/// Whether no file under a folder named `name` can be indexed: every
/// plugin's policy skips it.
fn skipped_by_every_plugin(registry: &PluginRegistry, name: &str) -> bool {
    !registry.plugins().is_empty()
        && registry
            .plugins()
            .iter()
            .all(|p| p.info().policy.skip_dirs.iter().any(|d| d == name))
}

/// Whether `plugin`'s policy skips its files under `folders`.
fn skipped_for(plugin: &dyn LanguagePlugin, folders: &[&str]) -> bool {
    let skip = &plugin.info().policy.skip_dirs;
    folders.iter().any(|f| skip.iter().any(|d| d == f))
}

pub struct FoundFile {
    pub path: String,
    pub plugin: Arc<dyn LanguagePlugin>,
    pub size: u64,
    pub modified: Option<SystemTime>,
}

pub struct Listing {
    pub sources: Vec<FoundFile>,
    pub manifests: Vec<String>,
    /// Each folder the walk entered (`""` for the root) and when it last
    /// changed: a file added anywhere changes its folder's time. Empty for
    /// a [`restat`], which enters no folder.
    pub folders: Vec<(String, Option<SystemTime>)>,
}

pub fn list(root: &Path, registry: &PluginRegistry) -> Listing {
    let mut listing = Listing {
        sources: Vec::new(),
        manifests: Vec::new(),
        folders: Vec::new(),
    };
    // Folders under which no plugin indexes anything are not entered.
    let pruned: Vec<String> = registry
        .plugins()
        .first()
        .map(|p| p.info().policy.skip_dirs.clone())
        .unwrap_or_default()
        .into_iter()
        .filter(|d| skipped_by_every_plugin(registry, d))
        .collect();
    let walker = ignore::WalkBuilder::new(root)
        .follow_links(false)
        .require_git(false)
        .filter_entry(move |entry| {
            let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
            !(is_dir
                && entry.depth() > 0
                && entry
                    .file_name()
                    .to_str()
                    .is_some_and(|n| SKIPPED_DIRS.contains(&n) || pruned.iter().any(|d| d == n)))
        })
        .build();
    for entry in walker.flatten() {
        if entry.file_type().is_some_and(|t| t.is_dir()) {
            let folder = if entry.depth() == 0 {
                Some(String::new())
            } else {
                relative_posix(root, entry.path())
            };
            if let Some(folder) = folder {
                let modified = entry.metadata().ok().and_then(|m| m.modified().ok());
                listing.folders.push((folder, modified));
            }
            continue;
        }
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        let Some(path) = relative_posix(root, entry.path()) else {
            continue;
        };
        let file_name = entry.file_name().to_str().unwrap_or_default();
        if registry.is_manifest_name(file_name) {
            listing.manifests.push(path.clone());
        }
        let Some(plugin) = registry.for_path(entry.path()) else {
            continue;
        };
        let folders: Vec<&str> = path.split('/').collect();
        if skipped_for(plugin.as_ref(), &folders[..folders.len() - 1]) {
            continue;
        }
        let Ok(metadata) = entry.metadata() else {
            continue;
        };
        if metadata.len() > MAX_FILE_BYTES {
            tracing::debug!(%path, size = metadata.len(), "skipped: larger than the file size limit");
            continue;
        }
        listing.sources.push(FoundFile {
            path,
            plugin: plugin.clone(),
            size: metadata.len(),
            modified: metadata.modified().ok(),
        });
    }
    listing.manifests.sort();
    listing
}

/// The files of `previous` as they are on disk now, when a watcher vouches
/// that no file was added: each stat'ed again (and left out when gone), or
/// with `only`, just those (the others carried over).
pub fn restat<'a>(
    root: &super::root::RootDir,
    previous: impl Iterator<Item = &'a super::FileEntry>,
    only: Option<&std::collections::HashSet<String>>,
    manifests: Vec<String>,
) -> Listing {
    let sources = previous
        .filter_map(|entry| {
            if only.is_some_and(|only| !only.contains(&entry.path)) {
                return Some(FoundFile {
                    path: entry.path.clone(),
                    plugin: entry.plugin.clone(),
                    size: entry.size,
                    modified: entry.modified,
                });
            }
            let metadata = root.stat(&entry.path).ok()?;
            (metadata.is_file && metadata.len <= MAX_FILE_BYTES).then(|| FoundFile {
                path: entry.path.clone(),
                plugin: entry.plugin.clone(),
                size: metadata.len,
                modified: metadata.modified,
            })
        })
        .collect();
    Listing {
        sources,
        manifests,
        folders: Vec::new(),
    }
}

/// Whether a workspace-relative path is inside a folder the walk skips:
/// a hidden folder, or a build or vendor folder that the policy of the
/// plugin claiming the file names (for a path no plugin claims, such as a
/// folder, one that every plugin's policy names).
pub fn is_skipped(registry: &PluginRegistry, relative: &str) -> bool {
    let mut components: Vec<&str> = relative.split('/').collect();
    components.pop();
    if components
        .iter()
        .any(|c| SKIPPED_DIRS.contains(c) || c.starts_with('.'))
    {
        return true;
    }
    match registry.for_path(Path::new(relative)) {
        Some(plugin) => skipped_for(plugin.as_ref(), &components),
        None => components
            .iter()
            .any(|c| skipped_by_every_plugin(registry, c)),
    }
}

/// Whether a file name is a manifest a plugin asked for, or an ignore file
/// that changes what the walk lists.
pub fn changes_listing(registry: &PluginRegistry, file_name: &str) -> bool {
    matches!(file_name, ".gitignore" | ".ignore") || registry.is_manifest_name(file_name)
}
