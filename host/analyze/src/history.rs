//! The git history of the workspace, read in-process with `gix` (no `git`
//! binary): per file, the commits that changed it since a time, the lines
//! they added and deleted, their authors and the last change.
//!
//! Commits are walked from HEAD newest first over every parent and stop at
//! the cutoff (committer time); merges are skipped, since their changes are
//! the commits merged, counted where they were made. Each commit's tree is
//! compared with its first parent's (the root commit's with the empty
//! tree), renames not tracked (a rename is a deletion and an addition),
//! and each changed blob's lines counted by gix's diff; a binary blob has
//! no lines. Paths are the workspace's: the repository may hold the
//! workspace in a folder, and changes outside it are left out.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::ControlFlow;
use std::path::Path;

use gix::bstr::ByteSlice;

/// The most commits read; a longer period is cut there, and says so.
pub const MAX_COMMITS: usize = 20_000;

/// What the history says of one file.
#[derive(Debug, Clone, Default)]
pub struct FileHistory {
    pub commits: u32,
    pub lines_added: u64,
    pub lines_deleted: u64,
    /// Author e-mail addresses, lowercase.
    pub authors: BTreeSet<String>,
    /// Committer time of the newest change (seconds since the epoch).
    pub last_change: i64,
    /// Some version was binary: its lines are not counted.
    pub binary: bool,
}

/// The history since a time.
#[derive(Debug, Clone, Default)]
pub struct History {
    /// Workspace-relative path to what happened to it.
    pub files: BTreeMap<String, FileHistory>,
    /// Commits read (merges not counted).
    pub commits: usize,
    /// Whether the walk stopped at [`MAX_COMMITS`] before the cutoff.
    pub truncated: bool,
}

/// Why the history cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum HistoryError {
    #[error("not inside a git repository: {0}")]
    NoRepository(String),
    #[error("the repository has no work tree (a bare repository)")]
    Bare,
    #[error("the repository has no commit yet")]
    NoCommit,
    #[error("reading the history failed: {0}")]
    Read(String),
}

impl From<gix::Error> for HistoryError {
    fn from(error: gix::Error) -> Self {
        HistoryError::Read(error.to_string())
    }
}

/// Turn any gix error into [`HistoryError::Read`].
fn read<E: std::fmt::Display>(error: E) -> HistoryError {
    HistoryError::Read(error.to_string())
}

/// The history of the files under `root` since `since` (seconds since the
/// epoch), from the repository `root` is in.
pub fn since(root: &Path, since: i64) -> Result<History, HistoryError> {
    let mut repo = gix::discover(root).map_err(|e| HistoryError::NoRepository(e.to_string()))?;
    repo.object_cache_size_if_unset(32 * 1024 * 1024);
    let workdir = repo.workdir().ok_or(HistoryError::Bare)?;
    let prefix = workspace_prefix(workdir, root)?;
    let head = repo.head_id().map_err(|_| HistoryError::NoCommit)?;
    let mut tree_cache = repo.diff_resource_cache_for_tree_diff().map_err(read)?;
    let mut line_cache = repo.diff_resource_cache_for_tree_diff().map_err(read)?;
    let walk = repo
        .rev_walk([head])
        .sorting(gix::revision::walk::Sorting::ByCommitTimeCutoff {
            order: gix::traverse::commit::simple::CommitTimeOrder::NewestFirst,
            seconds: since,
        })
        .all()
        .map_err(read)?;
    let mut history = History::default();
    for info in walk {
        let info = info.map_err(read)?;
        if info.parent_ids.len() > 1 {
            continue;
        }
        if history.commits == MAX_COMMITS {
            history.truncated = true;
            break;
        }
        history.commits += 1;
        let commit = info.object().map_err(read)?;
        let time = commit.time().map_err(read)?.seconds;
        let author = commit
            .author()
            .map_err(read)?
            .email
            .to_str_lossy()
            .to_lowercase();
        let new_tree = commit.tree().map_err(read)?;
        let old_tree = match info.parent_ids().next() {
            Some(parent) => parent
                .object()
                .map_err(read)?
                .into_commit()
                .tree()
                .map_err(read)?,
            // A root commit, or the edge of a shallow clone: all added.
            None => repo.empty_tree(),
        };
        let mut changes = old_tree.changes().map_err(read)?;
        changes.options(|o| {
            o.track_path().track_rewrites(None);
        });
        changes
            .for_each_to_obtain_tree_with_cache(&new_tree, &mut tree_cache, |change| {
                if !change.entry_mode().is_blob_or_symlink() {
                    return Ok::<_, gix::Error>(ControlFlow::Continue(()));
                }
                let location = change.location().to_str_lossy();
                let Some(path) = in_workspace(&location, &prefix) else {
                    return Ok(ControlFlow::Continue(()));
                };
                let counts = change.diff(&mut line_cache)?.line_counts()?;
                line_cache.clear_resource_cache_keep_allocation();
                let file = history.files.entry(path.to_string()).or_default();
                file.commits += 1;
                match counts {
                    Some(c) => {
                        file.lines_added += u64::from(c.insertions);
                        file.lines_deleted += u64::from(c.removals);
                    }
                    None => file.binary = true,
                }
                file.authors.insert(author.clone());
                file.last_change = file.last_change.max(time);
                Ok(ControlFlow::Continue(()))
            })
            .map_err(read)?;
    }
    Ok(history)
}

/// The workspace root's path inside the work tree, `/`-separated and
/// ending in `/` (empty when the root is the work tree).
fn workspace_prefix(workdir: &Path, root: &Path) -> Result<String, HistoryError> {
    let canonical = |p: &Path| std::fs::canonicalize(p).map_err(read);
    let (workdir, root) = (canonical(workdir)?, canonical(root)?);
    let inside = root.strip_prefix(&workdir).map_err(|_| {
        HistoryError::NoRepository(format!("{} is outside the work tree", root.display()))
    })?;
    let mut prefix: String = inside
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/");
    if !prefix.is_empty() {
        prefix.push('/');
    }
    Ok(prefix)
}

/// The workspace-relative path of a repository path, if under the root.
fn in_workspace<'a>(location: &'a str, prefix: &str) -> Option<&'a str> {
    location.strip_prefix(prefix).filter(|p| !p.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repository_paths_map_into_the_workspace() {
        assert_eq!(in_workspace("src/a.rs", ""), Some("src/a.rs"));
        assert_eq!(in_workspace("host/src/a.rs", "host/"), Some("src/a.rs"));
        assert_eq!(in_workspace("hostile/a.rs", "host/"), None);
        assert_eq!(in_workspace("README.md", "host/"), None);
    }

    #[test]
    fn a_folder_outside_any_repository_is_refused() {
        let dir = std::env::temp_dir().join(format!("lingo-history-none-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // The temporary folder may itself sit in a repository on some
        // machines; only a refusal or an answer is acceptable, never a panic.
        match since(&dir, 0) {
            Err(HistoryError::NoRepository(_)) | Ok(_) => {}
            Err(other) => panic!("{other}"),
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
