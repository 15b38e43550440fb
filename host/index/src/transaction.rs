//! Writing a set of files under the root all or nothing, with a journal
//! that lets the next start finish an apply a crash interrupted, and a
//! snapshot of every touched file that lets a later call undo it.
//!
//! A commit goes: check every file still has the bytes the caller saw
//! (sha256); copy the old bytes into the transaction's folder under the
//! state directory; write each new text to a temporary file in its own
//! folder (synced); mark the journal `committing`; rename each temporary
//! file over its target (one atomic step per file) and delete what is
//! deleted; mark it `committed`. A crash before `committing` leaves every
//! file old (the next start deletes the temporary files); after it, every
//! temporary file is whole, so the next start renames the ones left. Each
//! file is therefore wholly old or wholly new at every moment.
//!
//! Files are written through the root's capability (`root.rs`), so no
//! path, `..` or symbolic link can make a commit write outside the root.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use cap_std::fs::OpenOptions;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::root::RootDir;
use lingo_runtime::create_private_dir;

/// Committed transactions kept for `rollback`, newest first; older ones
/// are deleted.
const KEPT_SNAPSHOTS: usize = 32;
/// The journal's file name inside a transaction's folder.
const JOURNAL: &str = "journal.json";

/// The state folder of the workspace at `root` under `cache_dir`.
pub fn folder_for(cache_dir: &Path, root: &Path) -> PathBuf {
    cache_dir.join("transactions").join(super::cache_key(root))
}

/// What one file becomes.
#[derive(Debug, Clone)]
pub struct FileChange {
    /// Workspace-relative POSIX path.
    pub path: String,
    /// The sha256 (hex) the file must have now, or `None`: it must not exist.
    pub expected: Option<String>,
    /// The new bytes, or `None`: the file is deleted.
    pub content: Option<Vec<u8>>,
}

/// Why a transaction did not commit (nothing was changed), or why a
/// rollback cannot be made.
#[derive(Debug, thiserror::Error)]
pub enum TransactionError {
    #[error("another change to this workspace is being applied")]
    Busy,
    #[error("`{path}` changed since the plan was made (expected {expected}, found {found})")]
    Stale {
        path: String,
        expected: String,
        found: String,
    },
    #[error("cannot write `{path}`: {source}")]
    Io {
        path: String,
        #[source]
        source: io::Error,
    },
    #[error("the change was not applied within its time ({0:?}); nothing was changed")]
    Timeout(Duration),
    #[error("no snapshot `{id}` to roll back to")]
    UnknownSnapshot { id: String, known: Vec<String> },
    #[error("snapshot `{id}` was already rolled back")]
    AlreadyRolledBack { id: String },
    #[error("the same file `{path}` is changed twice")]
    Duplicate { path: String },
}

/// Where a transaction got to; the journal's `state`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum State {
    /// Backups and temporary files being written: nothing changed yet.
    Prepared,
    /// Temporary files being renamed into place: to be finished.
    Committing,
    /// Done; kept as a snapshot to roll back to.
    Committed,
    /// Undone by a later transaction.
    RolledBack,
}

/// One file of a journal.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct JournalFile {
    path: String,
    /// sha256 before and after; `None` where the file does not exist.
    before: Option<String>,
    after: Option<String>,
    /// The temporary file next to `path` holding the new bytes.
    temp: Option<String>,
    /// The backup of the old bytes, in the transaction's folder.
    backup: Option<String>,
}

/// A transaction's journal, `journal.json` in its folder.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Journal {
    id: String,
    state: State,
    /// Seconds since the Unix epoch.
    created: u64,
    files: Vec<JournalFile>,
}

/// A committed change: what was written, and the snapshot that undoes it.
#[derive(Debug, Clone, Serialize)]
pub struct Committed {
    pub snapshot_id: String,
    /// Files that existed and were rewritten.
    pub written: Vec<String>,
    pub created: Vec<String>,
    pub deleted: Vec<String>,
}

/// What a start found of interrupted transactions and did about them.
#[derive(Debug, Default, Clone, Serialize)]
pub struct Recovery {
    /// Interrupted before any file changed: their temporary files removed.
    pub discarded: Vec<String>,
    /// Interrupted while renaming: finished.
    pub finished: Vec<String>,
}

/// The transactions of one workspace: its state folder and the lock that
/// lets one commit run at a time.
#[derive(Debug)]
pub struct Transactions {
    dir: PathBuf,
    writer: std::sync::Mutex<()>,
    /// A pause after each file written or renamed, so that crash tests can
    /// kill the process in the middle of a commit
    /// (`LINGO_TEST_APPLY_STEP_MS`; none otherwise).
    step_delay: Option<Duration>,
}

impl Transactions {
    /// Transactions kept under `dir` (created private).
    pub fn new(dir: PathBuf) -> Transactions {
        Transactions {
            dir,
            writer: std::sync::Mutex::new(()),
            step_delay: std::env::var("LINGO_TEST_APPLY_STEP_MS")
                .ok()
                .and_then(|ms| ms.parse().ok())
                .map(Duration::from_millis),
        }
    }

    /// Where the journals and snapshots live.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Apply `changes` to the files under `root`, all or none; within
    /// `deadline` for everything before the first rename.
    pub fn commit(
        &self,
        root: &RootDir,
        changes: &[FileChange],
        deadline: Option<Instant>,
    ) -> Result<Committed, TransactionError> {
        let _writing = self.writer.try_lock().map_err(|_| TransactionError::Busy)?;
        self.commit_locked(root, changes, deadline)
    }

    fn commit_locked(
        &self,
        root: &RootDir,
        changes: &[FileChange],
        deadline: Option<Instant>,
    ) -> Result<Committed, TransactionError> {
        let started = Instant::now();
        let mut seen = std::collections::HashSet::new();
        for change in changes {
            if !seen.insert(change.path.as_str()) {
                return Err(TransactionError::Duplicate {
                    path: change.path.clone(),
                });
            }
        }
        // Every file as the caller saw it, read once: its bytes are the backup.
        let mut olds = Vec::with_capacity(changes.len());
        for change in changes {
            let old = read_if_exists(root, &change.path)?;
            let found = old.as_deref().map(sha256_hex);
            if found != change.expected {
                return Err(TransactionError::Stale {
                    path: change.path.clone(),
                    expected: change.expected.clone().unwrap_or_else(|| "no file".into()),
                    found: found.unwrap_or_else(|| "no file".into()),
                });
            }
            olds.push(old);
        }
        let id = new_id();
        let folder = self.dir.join(&id);
        create_private_dir(&folder).map_err(|source| io_error(&folder, source))?;
        let mut journal = Journal {
            id: id.clone(),
            state: State::Prepared,
            created: unix_seconds(),
            files: Vec::with_capacity(changes.len()),
        };
        let prepared = self.prepare(root, changes, &olds, &folder, &mut journal, |_| {
            deadline.is_some_and(|d| Instant::now() > d)
        });
        if let Err(error) = prepared {
            discard(root, &journal);
            let _ = std::fs::remove_dir_all(&folder);
            return Err(match error {
                Prepare::Io(error) => error,
                Prepare::Timeout => TransactionError::Timeout(started.elapsed()),
            });
        }
        journal.state = State::Committing;
        write_journal(&folder, &journal)?;
        finish(root, &journal, self.step_delay)
            .map_err(|(path, source)| TransactionError::Io { path, source })?;
        journal.state = State::Committed;
        write_journal(&folder, &journal)?;
        self.prune();
        let mut committed = Committed {
            snapshot_id: id,
            written: Vec::new(),
            created: Vec::new(),
            deleted: Vec::new(),
        };
        for file in &journal.files {
            match (&file.before, &file.after) {
                (Some(_), Some(_)) => committed.written.push(file.path.clone()),
                (None, Some(_)) => committed.created.push(file.path.clone()),
                (Some(_), None) => committed.deleted.push(file.path.clone()),
                (None, None) => {}
            }
        }
        Ok(committed)
    }

    /// Back up the old bytes and write the new ones beside their targets;
    /// the journal lists each file as soon as something of it exists.
    fn prepare(
        &self,
        root: &RootDir,
        changes: &[FileChange],
        olds: &[Option<Vec<u8>>],
        folder: &Path,
        journal: &mut Journal,
        late: impl Fn(usize) -> bool,
    ) -> Result<(), Prepare> {
        for (index, (change, old)) in changes.iter().zip(olds).enumerate() {
            if late(index) {
                return Err(Prepare::Timeout);
            }
            let backup = match old {
                Some(bytes) => {
                    let name = format!("backup-{index}");
                    write_synced(&folder.join(&name), bytes)
                        .map_err(|source| Prepare::Io(io_error(&folder.join(&name), source)))?;
                    Some(name)
                }
                None => None,
            };
            let temp = change
                .content
                .as_ref()
                .map(|_| temp_path(&change.path, &journal.id));
            journal.files.push(JournalFile {
                path: change.path.clone(),
                before: old.as_deref().map(sha256_hex),
                after: change.content.as_deref().map(sha256_hex),
                temp: temp.clone(),
                backup,
            });
            // Listed before the temporary file exists, so that a crash
            // while it is written leaves it known and removable.
            write_journal(folder, journal).map_err(Prepare::Io)?;
            if let Some(delay) = self.step_delay {
                std::thread::sleep(delay);
            }
            if let (Some(temp), Some(content)) = (&temp, &change.content) {
                root.write_new(temp, content, Some(&change.path))
                    .map_err(|source| {
                        Prepare::Io(TransactionError::Io {
                            path: change.path.clone(),
                            source,
                        })
                    })?;
            }
        }
        if late(changes.len()) {
            return Err(Prepare::Timeout);
        }
        Ok(())
    }

    /// Finish or discard what a crash interrupted (run before indexing).
    pub fn recover(&self, root: &RootDir) -> Recovery {
        let _writing = match self.writer.lock() {
            Ok(guard) => guard,
            Err(poisoned) => poisoned.into_inner(),
        };
        let mut recovery = Recovery::default();
        for (folder, mut journal) in self.journals() {
            match journal.state {
                State::Prepared => {
                    discard(root, &journal);
                    let _ = std::fs::remove_dir_all(&folder);
                    recovery.discarded.push(journal.id);
                }
                State::Committing => match finish(root, &journal, None) {
                    Ok(()) => {
                        journal.state = State::Committed;
                        let _ = write_journal(&folder, &journal);
                        recovery.finished.push(journal.id);
                    }
                    Err((path, error)) => {
                        tracing::error!(id = %journal.id, %path, %error, "cannot finish an interrupted change");
                    }
                },
                State::Committed | State::RolledBack => {}
            }
        }
        recovery
    }

    /// Undo the committed transaction `id`: every file it touched gets its
    /// old bytes back (a created file is deleted, a deleted one restored),
    /// as one new transaction. Unless `force`, each file must still be as
    /// that transaction left it.
    pub fn rollback(
        &self,
        root: &RootDir,
        id: &str,
        force: bool,
    ) -> Result<Committed, TransactionError> {
        let _writing = self.writer.try_lock().map_err(|_| TransactionError::Busy)?;
        let journals = self.journals();
        let Some((folder, mut journal)) = journals.iter().find(|(_, j)| j.id == id).cloned() else {
            return Err(TransactionError::UnknownSnapshot {
                id: id.to_string(),
                known: journals
                    .iter()
                    .filter(|(_, j)| j.state == State::Committed)
                    .map(|(_, j)| j.id.clone())
                    .collect(),
            });
        };
        if journal.state == State::RolledBack {
            return Err(TransactionError::AlreadyRolledBack { id: id.to_string() });
        }
        let mut changes = Vec::with_capacity(journal.files.len());
        for file in &journal.files {
            let content = match &file.backup {
                Some(name) => Some(
                    std::fs::read(folder.join(name))
                        .map_err(|source| io_error(&folder.join(name), source))?,
                ),
                None => None,
            };
            let expected = if force {
                read_if_exists(root, &file.path)?.as_deref().map(sha256_hex)
            } else {
                file.after.clone()
            };
            changes.push(FileChange {
                path: file.path.clone(),
                expected,
                content,
            });
        }
        let committed = self.commit_locked(root, &changes, None)?;
        journal.state = State::RolledBack;
        write_journal(&folder, &journal)?;
        Ok(committed)
    }

    /// Every readable journal, newest first.
    fn journals(&self) -> Vec<(PathBuf, Journal)> {
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return Vec::new();
        };
        let mut journals: Vec<(PathBuf, Journal)> = entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter_map(|folder| {
                let text = std::fs::read(folder.join(JOURNAL)).ok()?;
                let journal: Journal = serde_json::from_slice(&text).ok()?;
                Some((folder, journal))
            })
            .collect();
        journals.sort_by(|a, b| b.1.id.cmp(&a.1.id));
        journals
    }

    /// Keep the newest [`KEPT_SNAPSHOTS`] finished transactions.
    fn prune(&self) {
        for (folder, journal) in self.journals().into_iter().skip(KEPT_SNAPSHOTS) {
            if matches!(journal.state, State::Committed | State::RolledBack) {
                let _ = std::fs::remove_dir_all(folder);
            }
        }
    }
}

/// Why preparing stopped.
enum Prepare {
    Io(TransactionError),
    Timeout,
}

/// Rename every temporary file left over its target, delete what is
/// deleted. Idempotent: a file already renamed is skipped.
fn finish(
    root: &RootDir,
    journal: &Journal,
    step_delay: Option<Duration>,
) -> Result<(), (String, io::Error)> {
    for file in &journal.files {
        if let Some(delay) = step_delay {
            std::thread::sleep(delay);
        }
        match &file.temp {
            Some(temp) => {
                if root.exists_no_follow(temp) {
                    root.rename(temp, &file.path)
                        .map_err(|e| (file.path.clone(), e))?;
                }
            }
            None => match root.remove_file(&file.path) {
                Ok(()) => root.remove_empty_folders(&file.path),
                Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                Err(e) => return Err((file.path.clone(), e)),
            },
        }
    }
    Ok(())
}

/// Remove the temporary files of a transaction that did not commit.
fn discard(root: &RootDir, journal: &Journal) {
    for temp in journal.files.iter().filter_map(|f| f.temp.as_deref()) {
        let _ = root.remove_file(temp);
    }
}

/// The file at `path` under the root, or `None` when there is none.
fn read_if_exists(root: &RootDir, path: &str) -> Result<Option<Vec<u8>>, TransactionError> {
    match root.read(path) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(e) if e.kind() == io::ErrorKind::NotFound && !root.exists_no_follow(path) => Ok(None),
        Err(source) => Err(TransactionError::Io {
            path: path.to_string(),
            source,
        }),
    }
}

/// The temporary file next to `path` for transaction `id`.
fn temp_path(path: &str, id: &str) -> String {
    let (folder, name) = match path.rsplit_once('/') {
        Some((folder, name)) => (format!("{folder}/"), name),
        None => (String::new(), path),
    };
    format!("{folder}.{name}.{id}.tmp")
}

fn write_journal(folder: &Path, journal: &Journal) -> Result<(), TransactionError> {
    let text = serde_json::to_vec_pretty(journal).map_err(|e| TransactionError::Io {
        path: folder.display().to_string(),
        source: io::Error::other(e),
    })?;
    let temp = folder.join("journal.json.tmp");
    let target = folder.join(JOURNAL);
    write_synced(&temp, &text).map_err(|source| io_error(&temp, source))?;
    std::fs::rename(&temp, &target).map_err(|source| io_error(&target, source))?;
    // The rename itself is durable once the folder is synced.
    if let Ok(dir) = std::fs::File::open(folder) {
        let _ = dir.sync_all();
    }
    Ok(())
}

fn write_synced(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut file = std::fs::File::create(path)?;
    file.write_all(bytes)?;
    file.sync_all()
}

fn io_error(path: &Path, source: io::Error) -> TransactionError {
    TransactionError::Io {
        path: path.display().to_string(),
        source,
    }
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

fn unix_seconds() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// A transaction id that sorts by time: `tx-<millis>-<pid>-<n>`.
fn new_id() -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let millis = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis());
    format!(
        "tx-{millis:015}-{}-{:04}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    )
}

impl RootDir {
    /// Create `path` (it must not exist) with `bytes`, synced, with the
    /// permissions of `like` when that file exists; parent folders are
    /// created as needed.
    pub fn write_new(&self, path: &str, bytes: &[u8], like: Option<&str>) -> io::Result<()> {
        if let Some((parent, _)) = path.rsplit_once('/') {
            self.dir().create_dir_all(parent)?;
        }
        let mut file = self
            .dir()
            .open_with(path, OpenOptions::new().write(true).create_new(true))?;
        file.write_all(bytes)?;
        if let Some(permissions) = like
            .and_then(|like| self.dir().metadata(like).ok())
            .map(|m| m.permissions())
        {
            file.set_permissions(permissions)?;
        }
        file.sync_all()
    }

    /// Rename `from` over `to`, both under the root.
    pub fn rename(&self, from: &str, to: &str) -> io::Result<()> {
        self.dir().rename(from, self.dir(), to)
    }

    /// Delete the file (or link) `path`.
    pub fn remove_file(&self, path: &str) -> io::Result<()> {
        self.dir().remove_file(path)
    }

    /// Remove the folders above `path` that are now empty, innermost first,
    /// up to (not including) the root; stops at the first that is not.
    pub fn remove_empty_folders(&self, path: &str) {
        let mut folder = Path::new(path).parent();
        // One step per path component.
        while let Some(current) = folder.filter(|f| !f.as_os_str().is_empty()) {
            if self.dir().remove_dir(current).is_err() {
                break;
            }
            folder = current.parent();
        }
    }

    /// Whether anything (a link included) is at `path`.
    pub fn exists_no_follow(&self, path: &str) -> bool {
        self.dir().symlink_metadata(path).is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scratch root with two files, and a state folder.
    fn scratch(name: &str) -> (PathBuf, RootDir, Transactions) {
        let base = std::env::temp_dir().join(format!("lingo-tx-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        std::fs::create_dir_all(base.join("root/src")).unwrap();
        std::fs::write(base.join("root/src/a.rs"), "fn a() {}\n").unwrap();
        std::fs::write(base.join("root/src/b.rs"), "fn b() {}\n").unwrap();
        let root = RootDir::open(&base.join("root").canonicalize().unwrap()).unwrap();
        let transactions = Transactions::new(base.join("state"));
        (base, root, transactions)
    }

    fn change(path: &str, old: Option<&str>, new: Option<&str>) -> FileChange {
        FileChange {
            path: path.into(),
            expected: old.map(|o| sha256_hex(o.as_bytes())),
            content: new.map(|n| n.as_bytes().to_vec()),
        }
    }

    fn read(base: &Path, path: &str) -> Option<String> {
        std::fs::read_to_string(base.join("root").join(path)).ok()
    }

    /// Names in the root's folders that are temporary files.
    fn temps(base: &Path) -> Vec<String> {
        let mut out = Vec::new();
        for folder in ["root", "root/src", "root/src/new"] {
            if let Ok(entries) = std::fs::read_dir(base.join(folder)) {
                out.extend(
                    entries
                        .filter_map(Result::ok)
                        .map(|e| e.file_name().to_string_lossy().into_owned())
                        .filter(|n| n.ends_with(".tmp")),
                );
            }
        }
        out
    }

    #[test]
    fn commits_writes_creates_and_deletes_then_rolls_them_back() {
        let (base, root, transactions) = scratch("commit");
        let changes = [
            change("src/a.rs", Some("fn a() {}\n"), Some("fn a2() {}\n")),
            change("src/b.rs", Some("fn b() {}\n"), None),
            change("src/new/c.rs", None, Some("fn c() {}\n")),
        ];
        let committed = transactions.commit(&root, &changes, None).unwrap();
        assert_eq!(committed.written, ["src/a.rs"]);
        assert_eq!(committed.deleted, ["src/b.rs"]);
        assert_eq!(committed.created, ["src/new/c.rs"]);
        assert_eq!(read(&base, "src/a.rs").as_deref(), Some("fn a2() {}\n"));
        assert_eq!(read(&base, "src/b.rs"), None);
        assert_eq!(read(&base, "src/new/c.rs").as_deref(), Some("fn c() {}\n"));
        assert!(temps(&base).is_empty());

        transactions
            .rollback(&root, &committed.snapshot_id, false)
            .unwrap();
        assert_eq!(read(&base, "src/a.rs").as_deref(), Some("fn a() {}\n"));
        assert_eq!(read(&base, "src/b.rs").as_deref(), Some("fn b() {}\n"));
        assert_eq!(read(&base, "src/new/c.rs"), None);
        let again = transactions.rollback(&root, &committed.snapshot_id, false);
        assert!(matches!(
            again,
            Err(TransactionError::AlreadyRolledBack { .. })
        ));
        let _ = std::fs::remove_dir_all(base);
    }

    #[test]
    fn a_stale_file_changes_nothing() {
        let (base, root, transactions) = scratch("stale");
        let changes = [
            change("src/a.rs", Some("fn a() {}\n"), Some("fn a2() {}\n")),
            change("src/b.rs", Some("fn b_old() {}\n"), Some("fn b2() {}\n")),
        ];
        let error = transactions.commit(&root, &changes, None).unwrap_err();
        assert!(matches!(error, TransactionError::Stale { ref path, .. } if path == "src/b.rs"));
        assert_eq!(read(&base, "src/a.rs").as_deref(), Some("fn a() {}\n"));
        assert!(temps(&base).is_empty());
        let _ = std::fs::remove_dir_all(base);
    }

    #[test]
    fn a_timeout_before_the_renames_changes_nothing() {
        let (base, root, transactions) = scratch("timeout");
        let changes = [change("src/a.rs", Some("fn a() {}\n"), Some("x\n"))];
        let past = Instant::now() - Duration::from_secs(1);
        let error = transactions
            .commit(&root, &changes, Some(past))
            .unwrap_err();
        assert!(matches!(error, TransactionError::Timeout(_)));
        assert_eq!(read(&base, "src/a.rs").as_deref(), Some("fn a() {}\n"));
        assert!(temps(&base).is_empty());
        let _ = std::fs::remove_dir_all(base);
    }

    #[test]
    fn writes_never_leave_the_root() {
        let (base, root, transactions) = scratch("outside");
        std::fs::create_dir_all(base.join("outside")).unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(base.join("outside"), base.join("root/out")).unwrap();
        for path in ["../escape.rs", "/tmp/escape.rs", "out/escape.rs"] {
            let changes = [change(path, None, Some("x\n"))];
            assert!(
                transactions.commit(&root, &changes, None).is_err(),
                "{path}"
            );
        }
        assert!(!base.join("escape.rs").exists());
        assert!(!base.join("outside/escape.rs").exists());
        let _ = std::fs::remove_dir_all(base);
    }

    /// A crash at each point of a commit, simulated by the journal and
    /// files it leaves: recovery makes every file old or every file new.
    #[test]
    fn recovery_finishes_or_discards_an_interrupted_commit() {
        let (base, root, transactions) = scratch("recover");
        let changes = [
            change("src/a.rs", Some("fn a() {}\n"), Some("fn a2() {}\n")),
            change("src/b.rs", Some("fn b() {}\n"), Some("fn b2() {}\n")),
        ];
        // Interrupted while preparing: nothing changes, temps go away.
        let folder = transactions.dir().join("tx-000000000000001-1-0000");
        create_private_dir(&folder).unwrap();
        let mut journal = Journal {
            id: "tx-000000000000001-1-0000".into(),
            state: State::Prepared,
            created: 0,
            files: Vec::new(),
        };
        let olds: Vec<_> = changes
            .iter()
            .map(|c| read_if_exists(&root, &c.path).unwrap())
            .collect();
        assert!(
            transactions
                .prepare(&root, &changes, &olds, &folder, &mut journal, |_| false)
                .is_ok()
        );
        assert_eq!(temps(&base).len(), 2);
        let recovery = transactions.recover(&root);
        assert_eq!(recovery.discarded.len(), 1);
        assert!(temps(&base).is_empty());
        assert_eq!(read(&base, "src/a.rs").as_deref(), Some("fn a() {}\n"));

        // Interrupted after the first rename: the second is finished.
        create_private_dir(&folder).unwrap();
        let mut journal = Journal {
            state: State::Prepared,
            files: Vec::new(),
            ..journal
        };
        assert!(
            transactions
                .prepare(&root, &changes, &olds, &folder, &mut journal, |_| false)
                .is_ok()
        );
        journal.state = State::Committing;
        write_journal(&folder, &journal).unwrap();
        let first = &journal.files[0];
        root.rename(first.temp.as_deref().unwrap(), &first.path)
            .unwrap();
        assert!(transactions.step_delay.is_none());
        let recovery = transactions.recover(&root);
        assert_eq!(recovery.finished.len(), 1);
        assert_eq!(read(&base, "src/a.rs").as_deref(), Some("fn a2() {}\n"));
        assert_eq!(read(&base, "src/b.rs").as_deref(), Some("fn b2() {}\n"));
        assert!(temps(&base).is_empty());
        // The finished transaction can be rolled back like any other.
        transactions.rollback(&root, &journal.id, false).unwrap();
        assert_eq!(read(&base, "src/a.rs").as_deref(), Some("fn a() {}\n"));
        let _ = std::fs::remove_dir_all(base);
    }

    #[test]
    fn one_commit_at_a_time() {
        let (base, root, transactions) = scratch("busy");
        let _held = transactions.writer.lock().unwrap();
        let changes = [change("src/a.rs", Some("fn a() {}\n"), Some("x\n"))];
        assert!(matches!(
            transactions.commit(&root, &changes, None),
            Err(TransactionError::Busy)
        ));
        let _ = std::fs::remove_dir_all(base);
    }
}
