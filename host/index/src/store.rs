//! The index on disk: one SQLite database per workspace in the cache
//! directory, holding each file's hash, size, modification time, plugin
//! fingerprint and facts, so that a restart on an unchanged workspace
//! answers without re-parsing; and, per file, what the layers above derive
//! from it (the graph's resolved references), as opaque blobs they encode.
//!
//! SQLite (rusqlite, bundled) because it is one file, transactional (a
//! crash mid-write leaves the previous index), and needs no server. Facts
//! are stored as postcard blobs: compact and fast to decode, and never read
//! by anything but this module.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rusqlite::{Connection, OptionalExtension, params};

use lingo_model::FileFacts;

/// Bumped whenever the tables or the facts' encoding change; a database of
/// another version is emptied.
const SCHEMA_VERSION: &str = "13";

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("index database {path}: {source}")]
    Sqlite {
        path: String,
        #[source]
        source: rusqlite::Error,
    },
    #[error("cannot create the index directory {path}: {source}")]
    Directory {
        path: String,
        #[source]
        source: std::io::Error,
    },
}

/// What the database remembers about one file; its facts are read and
/// decoded by [`StoredFile::facts`] where they are used, on all cores, one
/// file at a time (never every file's blob at once).
#[derive(Debug, Clone)]
pub struct StoredFile {
    pub sha256: String,
    pub size: u64,
    pub modified: Option<SystemTime>,
    pub plugin: String,
    path: String,
}

impl StoredFile {
    /// The stored facts of this file, read from `store` if its row still
    /// has this hash and plugin (another process sharing the database may
    /// have replaced it since); none when they are gone or no longer decode
    /// (the file is then analysed again).
    pub fn facts(&self, store: &IndexStore) -> Option<FileFacts> {
        super::scratch::with_scratch(|blob| {
            let found = store
                .facts_blob(&self.path, &self.sha256, &self.plugin, blob)
                .inspect_err(
                    |error| tracing::warn!(path = %self.path, %error, "stored facts unreadable"),
                )
                .ok()?;
            if !found {
                return None;
            }
            let mut facts = postcard::from_bytes::<FileFacts>(blob)
                .inspect_err(
                    |error| tracing::warn!(path = %self.path, %error, "stored facts do not decode"),
                )
                .ok()?;
            facts.shrink_to_fit();
            Some(facts)
        })
    }
}

/// One file to write.
pub struct FileRow<'a> {
    pub path: &'a str,
    pub sha256: &'a str,
    pub size: u64,
    pub modified: Option<SystemTime>,
    pub plugin: &'a str,
    pub facts: &'a FileFacts,
}

/// One file's value derived by a layer above the index (`kind` names the
/// layer): the file's sha256 it was derived from, the layer's own key (what
/// else it depends on) and the encoded value.
#[derive(Debug, Clone)]
pub struct DerivedRow {
    pub path: String,
    pub sha256: String,
    pub key: i64,
    pub blob: Vec<u8>,
}

pub struct IndexStore {
    path: PathBuf,
    connection: Mutex<Connection>,
}

impl IndexStore {
    /// The database of the workspace at `root`, under `cache_dir/index/`.
    pub fn open(cache_dir: &Path, root: &Path) -> Result<Self, StoreError> {
        let dir = cache_dir.join("index");
        std::fs::create_dir_all(&dir).map_err(|source| StoreError::Directory {
            path: dir.display().to_string(),
            source,
        })?;
        let path = dir.join(format!("{}.sqlite", super::cache_key(root)));
        let connection = Connection::open(&path).map_err(|source| StoreError::Sqlite {
            path: path.display().to_string(),
            source,
        })?;
        // Two servers on one workspace take turns instead of failing.
        connection
            .busy_timeout(Duration::from_secs(5))
            .map_err(|source| StoreError::Sqlite {
                path: path.display().to_string(),
                source,
            })?;
        let store = IndexStore {
            path,
            connection: Mutex::new(connection),
        };
        store.prepare()?;
        Ok(store)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    fn error(&self, source: rusqlite::Error) -> StoreError {
        StoreError::Sqlite {
            path: self.path.display().to_string(),
            source,
        }
    }

    /// Create the tables, or empty them when their version is not ours.
    fn prepare(&self) -> Result<(), StoreError> {
        let connection = lingo_model::sync::lock(&self.connection);
        connection
            .execute_batch(
                "PRAGMA journal_mode = WAL;
                 PRAGMA synchronous = NORMAL;
                 CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
                 CREATE TABLE IF NOT EXISTS files (
                     path TEXT PRIMARY KEY,
                     sha256 TEXT NOT NULL,
                     size INTEGER NOT NULL,
                     modified_ns INTEGER,
                     plugin TEXT NOT NULL,
                     facts BLOB NOT NULL
                 );
                 CREATE TABLE IF NOT EXISTS derived (
                     kind TEXT NOT NULL,
                     path TEXT NOT NULL,
                     sha256 TEXT NOT NULL,
                     key INTEGER NOT NULL,
                     blob BLOB NOT NULL,
                     PRIMARY KEY (kind, path)
                 );",
            )
            .map_err(|e| self.error(e))?;
        let version: Option<String> = connection
            .query_row("SELECT value FROM meta WHERE key = 'schema'", [], |row| {
                row.get(0)
            })
            .optional()
            .map_err(|e| self.error(e))?;
        if version.as_deref() != Some(SCHEMA_VERSION) {
            connection
                .execute_batch("DELETE FROM files; DELETE FROM derived; DELETE FROM meta;")
                .map_err(|e| self.error(e))?;
            connection
                .execute(
                    "INSERT INTO meta (key, value) VALUES ('schema', ?1)",
                    [SCHEMA_VERSION],
                )
                .map_err(|e| self.error(e))?;
        }
        Ok(())
    }

    /// A value of the meta table.
    pub fn meta(&self, key: &str) -> Result<Option<String>, StoreError> {
        let connection = lingo_model::sync::lock(&self.connection);
        connection
            .query_row("SELECT value FROM meta WHERE key = ?1", [key], |row| {
                row.get(0)
            })
            .optional()
            .map_err(|e| self.error(e))
    }

    /// Every stored file, without its facts (see [`StoredFile::facts`]).
    pub fn load(&self) -> Result<HashMap<String, StoredFile>, StoreError> {
        let connection = lingo_model::sync::lock(&self.connection);
        let mut statement = connection
            .prepare("SELECT path, sha256, size, modified_ns, plugin FROM files")
            .map_err(|e| self.error(e))?;
        let rows = statement
            .query_map([], |row| {
                Ok((
                    row.get::<_, String>(0)?,
                    row.get::<_, String>(1)?,
                    row.get::<_, i64>(2)?,
                    row.get::<_, Option<i64>>(3)?,
                    row.get::<_, String>(4)?,
                ))
            })
            .map_err(|e| self.error(e))?;
        let mut files = HashMap::new();
        for row in rows {
            let (path, sha256, size, modified_ns, plugin) = row.map_err(|e| self.error(e))?;
            files.insert(
                path.clone(),
                StoredFile {
                    sha256,
                    size: size as u64,
                    modified: modified_ns.map(from_nanos),
                    plugin,
                    path,
                },
            );
        }
        Ok(files)
    }

    /// The encoded facts of `path`, into `blob` (emptied first), if its
    /// row has this hash and plugin: whether it has.
    fn facts_blob(
        &self,
        path: &str,
        sha256: &str,
        plugin: &str,
        blob: &mut Vec<u8>,
    ) -> Result<bool, StoreError> {
        blob.clear();
        let connection = lingo_model::sync::lock(&self.connection);
        let mut statement = connection
            .prepare_cached(
                "SELECT facts FROM files WHERE path = ?1 AND sha256 = ?2 AND plugin = ?3",
            )
            .map_err(|e| self.error(e))?;
        statement
            .query_row(params![path, sha256, plugin], |row| {
                blob.extend_from_slice(row.get_ref(0)?.as_blob()?);
                Ok(())
            })
            .optional()
            .map(|found| found.is_some())
            .map_err(|e| self.error(e))
    }

    /// Write changed files, delete removed ones and record `meta`, in one
    /// transaction: the database holds the old index or the new, never a mix.
    pub fn save(
        &self,
        changed: &[FileRow],
        removed: &[String],
        meta: &[(&str, String)],
    ) -> Result<(), StoreError> {
        let mut connection = lingo_model::sync::lock(&self.connection);
        let transaction = connection.transaction().map_err(|e| self.error(e))?;
        {
            let mut upsert = transaction
                .prepare_cached(
                    "INSERT OR REPLACE INTO files (path, sha256, size, modified_ns, plugin, facts)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                )
                .map_err(|e| self.error(e))?;
            for row in changed {
                let blob = postcard::to_stdvec(row.facts).expect("facts serialise");
                upsert
                    .execute(params![
                        row.path,
                        row.sha256,
                        row.size as i64,
                        row.modified.map(to_nanos),
                        row.plugin,
                        blob
                    ])
                    .map_err(|e| self.error(e))?;
            }
            let mut delete = transaction
                .prepare_cached("DELETE FROM files WHERE path = ?1")
                .map_err(|e| self.error(e))?;
            for path in removed {
                delete.execute([path]).map_err(|e| self.error(e))?;
            }
            let mut set = transaction
                .prepare_cached("INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)")
                .map_err(|e| self.error(e))?;
            for (key, value) in meta {
                set.execute(params![key, value])
                    .map_err(|e| self.error(e))?;
            }
        }
        transaction.commit().map_err(|e| self.error(e))
    }
}

impl IndexStore {
    /// The rows of `kind`, by path, with the context and the generation
    /// they were saved at (none when nothing of `kind` was saved).
    #[allow(clippy::type_complexity)]
    pub fn load_derived(
        &self,
        kind: &str,
    ) -> Result<(Option<String>, Option<u64>, HashMap<String, DerivedRow>), StoreError> {
        let (context, generation) = self.derived_context(kind)?;
        let mut by_path = HashMap::new();
        self.for_each_derived(kind, |row| {
            by_path.insert(row.path.clone(), row);
        })?;
        Ok((context, generation, by_path))
    }

    /// The context and the generation the rows of `kind` were saved at.
    pub fn derived_context(&self, kind: &str) -> Result<(Option<String>, Option<u64>), StoreError> {
        let context = self.meta(&format!("derived.{kind}.context"))?;
        let generation = self
            .meta(&format!("derived.{kind}.generation"))?
            .and_then(|g| g.parse().ok());
        Ok((context, generation))
    }

    /// Hand each row of `kind` to `each` as it is read: only one row's blob
    /// is held at a time.
    pub fn for_each_derived(
        &self,
        kind: &str,
        mut each: impl FnMut(DerivedRow),
    ) -> Result<(), StoreError> {
        let connection = lingo_model::sync::lock(&self.connection);
        let mut statement = connection
            .prepare("SELECT path, sha256, key, blob FROM derived WHERE kind = ?1")
            .map_err(|e| self.error(e))?;
        let rows = statement
            .query_map([kind], |row| {
                Ok(DerivedRow {
                    path: row.get(0)?,
                    sha256: row.get(1)?,
                    key: row.get(2)?,
                    blob: row.get(3)?,
                })
            })
            .map_err(|e| self.error(e))?;
        for row in rows {
            each(row.map_err(|e| self.error(e))?);
        }
        Ok(())
    }

    /// Save rows of `kind` derived at `generation` under `context`, in one
    /// transaction. Without `on_top_of`, the rows are the whole set and
    /// replace every earlier row of the kind. With it, they are the rows
    /// that changed since generation `on_top_of`: upserted when the rows
    /// held are that generation's, else every row is dropped (an update on
    /// top of other rows would mix generations). A save of a generation
    /// older than the one saved last is dropped, so that saves finishing
    /// out of order never leave older rows. Whether the rows were written.
    pub fn save_derived(
        &self,
        kind: &str,
        generation: u64,
        on_top_of: Option<u64>,
        context: &str,
        rows: &[DerivedRow],
    ) -> Result<bool, StoreError> {
        let generation_key = format!("derived.{kind}.generation");
        let context_key = format!("derived.{kind}.context");
        let mut connection = lingo_model::sync::lock(&self.connection);
        let transaction = connection.transaction().map_err(|e| self.error(e))?;
        let saved: Option<String> = transaction
            .query_row(
                "SELECT value FROM meta WHERE key = ?1",
                [&generation_key],
                |row| row.get(0),
            )
            .optional()
            .map_err(|e| self.error(e))?;
        let saved = saved.and_then(|g| g.parse::<u64>().ok());
        if saved > Some(generation) {
            return Ok(false);
        }
        let consistent = on_top_of.is_none_or(|base| saved == Some(base));
        let rows = if consistent { rows } else { &[] };
        {
            if on_top_of.is_none() || !consistent {
                transaction
                    .execute("DELETE FROM derived WHERE kind = ?1", [kind])
                    .map_err(|e| self.error(e))?;
            }
            let mut upsert = transaction
                .prepare_cached(
                    "INSERT OR REPLACE INTO derived (kind, path, sha256, key, blob)
                     VALUES (?1, ?2, ?3, ?4, ?5)",
                )
                .map_err(|e| self.error(e))?;
            for row in rows {
                upsert
                    .execute(params![kind, row.path, row.sha256, row.key, row.blob])
                    .map_err(|e| self.error(e))?;
            }
            let mut set = transaction
                .prepare_cached("INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)")
                .map_err(|e| self.error(e))?;
            set.execute(params![generation_key, generation.to_string()])
                .map_err(|e| self.error(e))?;
            set.execute(params![context_key, context])
                .map_err(|e| self.error(e))?;
        }
        transaction.commit().map_err(|e| self.error(e))?;
        Ok(consistent)
    }
}

fn to_nanos(time: SystemTime) -> i64 {
    time.duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos().min(i64::MAX as u128) as i64)
}

fn from_nanos(nanos: i64) -> SystemTime {
    UNIX_EPOCH + Duration::from_nanos(nanos.max(0) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stored row whose facts are damaged (cut short, not postcard, not
    /// even a blob) reads as no facts, so the file is analysed again; the
    /// thread's next read is not disturbed by the failed one.
    #[test]
    fn damaged_stored_facts_read_as_none_and_the_next_read_works() {
        let cache = tempfile::tempdir().expect("temp dir");
        let store = IndexStore::open(cache.path(), Path::new("/workspace")).expect("open");
        let facts = FileFacts::empty("rust");
        let row = FileRow {
            path: "src/lib.rs",
            sha256: "abc",
            size: 1,
            modified: None,
            plugin: "rust@1",
            facts: &facts,
        };
        store.save(&[row], &[], &[]).expect("save");
        let stored = store
            .load()
            .expect("load")
            .remove("src/lib.rs")
            .expect("row");
        assert_eq!(stored.facts(&store), Some(facts.clone()));

        let encoded = postcard::to_stdvec(&facts).expect("encodes");
        let set = |value: rusqlite::types::Value| {
            let connection = lingo_model::sync::lock(&store.connection);
            connection
                .execute("UPDATE files SET facts = ?1", [value])
                .expect("update");
        };
        for damaged in [
            rusqlite::types::Value::Blob(encoded[..encoded.len() / 2].to_vec()),
            rusqlite::types::Value::Blob(vec![0xff; 64 << 10]),
            rusqlite::types::Value::Text("not a blob".into()),
            rusqlite::types::Value::Integer(7),
        ] {
            set(damaged.clone());
            assert_eq!(stored.facts(&store), None, "{damaged:?}");
        }
        set(rusqlite::types::Value::Blob(encoded));
        assert_eq!(stored.facts(&store), Some(facts));
    }
}
