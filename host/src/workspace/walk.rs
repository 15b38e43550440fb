//! Listing the workspace: source files the plugins claim and the manifests
//! they asked for, honouring `.gitignore` and skipping build and vendor folders.

use std::path::Path;
use std::sync::Arc;
use std::time::SystemTime;

use crate::runtime::{LanguagePlugin, PluginRegistry};

use super::MAX_FILE_BYTES;
use super::paths::relative_posix;

/// Folders never indexed, whatever `.gitignore` says.
const SKIPPED_DIRS: &[&str] = &[
    "target",
    "node_modules",
    "vendor",
    "bin",
    "obj",
    "dist",
    "build",
    ".git",
];

pub struct FoundFile {
    pub path: String,
    pub plugin: Arc<dyn LanguagePlugin>,
    pub size: u64,
    pub modified: Option<SystemTime>,
}

pub struct Listing {
    pub sources: Vec<FoundFile>,
    pub manifests: Vec<String>,
}

pub fn list(root: &Path, registry: &PluginRegistry) -> Listing {
    let manifest_names = registry.manifest_names();
    let mut listing = Listing {
        sources: Vec::new(),
        manifests: Vec::new(),
    };
    let walker = ignore::WalkBuilder::new(root)
        .follow_links(false)
        .require_git(false)
        .filter_entry(|entry| {
            let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
            !(is_dir
                && entry.depth() > 0
                && entry
                    .file_name()
                    .to_str()
                    .is_some_and(|n| SKIPPED_DIRS.contains(&n)))
        })
        .build();
    for entry in walker.flatten() {
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        let Some(path) = relative_posix(root, entry.path()) else {
            continue;
        };
        let file_name = entry.file_name().to_str().unwrap_or_default();
        if manifest_names.iter().any(|m| glob_match(m, file_name)) {
            listing.manifests.push(path.clone());
        }
        let Some(plugin) = registry.for_path(entry.path()) else {
            continue;
        };
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
    root: &Path,
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
            let metadata = std::fs::metadata(root.join(&entry.path)).ok()?;
            (metadata.is_file() && metadata.len() <= MAX_FILE_BYTES).then(|| FoundFile {
                path: entry.path.clone(),
                plugin: entry.plugin.clone(),
                size: metadata.len(),
                modified: metadata.modified().ok(),
            })
        })
        .collect();
    Listing { sources, manifests }
}

/// Whether a workspace-relative path is inside a folder the walk skips
/// (build and vendor folders, hidden folders).
pub fn is_skipped(relative: &str) -> bool {
    let mut components: Vec<&str> = relative.split('/').collect();
    components.pop();
    components
        .iter()
        .any(|c| SKIPPED_DIRS.contains(c) || c.starts_with('.'))
}

/// Whether a file name is a manifest a plugin asked for, or an ignore file
/// that changes what the walk lists.
pub fn changes_listing(registry: &PluginRegistry, file_name: &str) -> bool {
    matches!(file_name, ".gitignore" | ".ignore")
        || registry
            .manifest_names()
            .iter()
            .any(|m| glob_match(m, file_name))
}

/// Manifest names are exact, or `*.ext`.
fn glob_match(pattern: &str, name: &str) -> bool {
    match pattern.strip_prefix('*') {
        Some(suffix) => name.ends_with(suffix),
        None => pattern == name,
    }
}
