//! On-disk cache of compiled components, keyed by the sha256 of the `.wasm`
//! and the engine's compatibility hash; beside each, what the component's
//! `info()` answered, so that a start with every component cached
//! instantiates none of them (a plugin's queries are compiled by its first
//! real call instead).

use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};
use wasmtime::Engine;
use wasmtime::component::Component;

use lingo_model::PluginInfo;

/// The default cache directory: `$LINGO_CACHE_DIR`, else the user cache dir.
pub fn default_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("LINGO_CACHE_DIR") {
        return Some(PathBuf::from(dir));
    }
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))?;
    Some(base.join("lingo"))
}

/// The hex sha256 of a component's bytes: its name in the cache (and the
/// plugin's fingerprint), computed once per load.
pub fn digest(wasm: &[u8]) -> String {
    hex::encode(Sha256::digest(wasm))
}

/// Where the compiled form of the component with `digest` is kept.
fn cache_path(dir: &Path, engine: &Engine, digest: &str) -> PathBuf {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    engine.precompile_compatibility_hash().hash(&mut hasher);
    dir.join("components")
        .join(format!("{digest}-{:016x}.cwasm", hasher.finish()))
}

/// Compile `wasm` (whose [`digest`] is `digest`), or load its compiled
/// form from the cache.
pub fn load_or_compile(
    engine: &Engine,
    wasm: &[u8],
    digest: &str,
    dir: Option<&Path>,
) -> wasmtime::Result<Component> {
    if let Some(component) = load_cached(engine, digest, dir) {
        return Ok(component);
    }
    let component = crate::compile_pool::compile(engine, wasm)?;
    if let Some(dir) = dir {
        let path = cache_path(dir, engine, digest);
        if path.exists() && !trusted(&path) {
            // Not ours to replace either.
            return Ok(component);
        }
        if let Err(error) = write_atomically(&path, &component.serialize()?) {
            tracing::warn!(path = %path.display(), %error, "could not cache compiled component");
        }
        if let Some(components) = path.parent() {
            prune(components, MAX_CACHED_COMPONENTS);
        }
    }
    Ok(component)
}

/// The compiled form of the component with `digest` for `engine`, when the
/// cache holds one this user may believe.
pub fn load_cached(engine: &Engine, digest: &str, dir: Option<&Path>) -> Option<Component> {
    let path = cache_path(dir?, engine, digest);
    if !path.exists() {
        return None;
    }
    if !trusted(&path) {
        // wasmtime runs precompiled code as it finds it: a file someone
        // else could have written is never loaded, nor replaced.
        tracing::warn!(path = %path.display(), "compiled component not owned by this user, or writable by others; ignored");
        return None;
    }
    // SAFETY: the file was written by `Component::serialize` of an engine
    // with the same compatibility hash (part of the file name), and it
    // and its directory are this user's and writable by nobody else
    // (`trusted`); wasmtime re-checks the header.
    match unsafe { Component::deserialize_file(engine, &path) } {
        Ok(component) => {
            tracing::debug!(path = %path.display(), "compiled component loaded from cache");
            touch(&path);
            Some(component)
        }
        Err(error) => {
            tracing::warn!(path = %path.display(), %error, "stale compiled component; recompiling");
            None
        }
    }
}

/// Compiled components kept at most: every rebuild of a plugin (or new
/// wasmtime) adds one of some megabytes; the least recently used go first.
const MAX_CACHED_COMPONENTS: usize = 32;

/// Keep the `keep` most recently used compiled components of `dir` (a load
/// from the cache marks one used) and delete the others with their info
/// files. Files of other users or other names are left alone.
fn prune(dir: &Path, keep: usize) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut compiled: Vec<(std::time::SystemTime, PathBuf)> = entries
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|e| e == "cwasm") && trusted(path))
        .filter_map(|path| Some((std::fs::metadata(&path).ok()?.modified().ok()?, path)))
        .collect();
    if compiled.len() <= keep {
        return;
    }
    compiled.sort_by_key(|(used, _)| std::cmp::Reverse(*used));
    for (_, path) in compiled.drain(keep..) {
        tracing::debug!(path = %path.display(), "pruning a compiled component not used lately");
        let _ = std::fs::remove_file(path.with_extension("info.json"));
        let _ = std::fs::remove_file(&path);
    }
}

/// Mark a cached file used now, so that pruning keeps it.
fn touch(path: &Path) {
    let now = std::fs::FileTimes::new().set_modified(std::time::SystemTime::now());
    if let Ok(file) = std::fs::File::options().append(true).open(path) {
        let _ = file.set_times(now);
    }
}

/// Where the `info()` answer of the component with `digest` is kept.
fn info_path(dir: &Path, engine: &Engine, digest: &str) -> PathBuf {
    cache_path(dir, engine, digest).with_extension("info.json")
}

/// The `info()` answer an earlier load of the component with `digest` recorded, if any (a file
/// that does not decode is ignored; the caller validates what it gets).
pub fn load_info(dir: Option<&Path>, engine: &Engine, digest: &str) -> Option<PluginInfo> {
    let path = info_path(dir?, engine, digest);
    if !trusted(&path) {
        return None;
    }
    let bytes = std::fs::read(&path).ok()?;
    serde_json::from_slice(&bytes)
        .inspect_err(
            |error| tracing::warn!(path = %path.display(), %error, "cached plugin info ignored"),
        )
        .ok()
}

/// Record the `info()` answer of the component with `digest` after a successful load.
pub fn store_info(dir: Option<&Path>, engine: &Engine, digest: &str, info: &PluginInfo) {
    let Some(dir) = dir else { return };
    let path = info_path(dir, engine, digest);
    let written = serde_json::to_vec(info)
        .map_err(std::io::Error::other)
        .and_then(|bytes| write_atomically(&path, &bytes));
    if let Err(error) = written {
        tracing::warn!(path = %path.display(), %error, "could not cache the plugin info");
    }
}

/// Whether a cache file may be believed: a regular file (not a link), and
/// it and its directory owned by this user and writable by nobody else.
#[cfg(unix)]
fn trusted(path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    // SAFETY: geteuid has no preconditions and cannot fail.
    let me = unsafe { libc::geteuid() };
    let private =
        |metadata: &std::fs::Metadata| metadata.uid() == me && metadata.mode() & 0o022 == 0;
    let file = std::fs::symlink_metadata(path);
    let dir = path.parent().map(std::fs::symlink_metadata);
    matches!(file, Ok(ref m) if m.is_file() && private(m))
        && matches!(dir, Some(Ok(ref m)) if m.is_dir() && private(m))
}

#[cfg(not(unix))]
fn trusted(_path: &Path) -> bool {
    true
}

/// Create `dir` and its missing parents, private to this user (0700).
pub fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)
}

/// Write `bytes` to `path` whole or not at all: to a temporary file in the
/// same (private) directory, synced, then renamed over `path`, so that a
/// reader or a crash sees the old file or the new one, never a part.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    create_private_dir(dir)?;
    // Unique per write: threads of one process (tests, plugins loaded side
    // by side) write here at once, and a shared name would let one rename
    // another's bytes into its place.
    static WRITES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let temporary = dir.join(format!(
        ".{}-{}.tmp",
        std::process::id(),
        WRITES.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    ));
    let written = (|| {
        let mut file = std::fs::File::create(&temporary)?;
        std::io::Write::write_all(&mut file, bytes)?;
        file.sync_all()?;
        std::fs::rename(&temporary, path)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    written
}

#[cfg(all(test, unix))]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    use super::*;

    /// The digests computed when lingo was built are the ones a load would
    /// compute: a plugin's fingerprint does not depend on where it came from.
    #[test]
    fn built_in_digests_are_the_bytes_digests() {
        assert!(!crate::BUILT_IN_PLUGINS.is_empty());
        for (name, bytes, built, _) in crate::BUILT_IN_PLUGINS {
            assert_eq!(*built, digest(bytes), "{name}");
        }
    }

    /// Threads writing different entries at once each get their own bytes.
    #[test]
    fn concurrent_writes_do_not_cross() {
        let base = std::env::temp_dir().join(format!("lingo-cache-race-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        std::thread::scope(|scope| {
            for i in 0..8 {
                let base = &base;
                scope.spawn(move || {
                    for round in 0..50 {
                        let path = base.join(format!("{i}.info.json"));
                        write_atomically(&path, format!("{i}-{round}").as_bytes()).unwrap();
                        let text = std::fs::read_to_string(&path).unwrap();
                        assert!(text.starts_with(&format!("{i}-")), "{i}: {text}");
                    }
                });
            }
        });
        let _ = std::fs::remove_dir_all(base);
    }

    #[test]
    fn only_private_files_of_this_user_are_trusted() {
        let base = std::env::temp_dir().join(format!("lingo-cache-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        let path = base.join("components").join("x.cwasm");
        write_atomically(&path, b"compiled").unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(path.parent().unwrap()), 0o700);
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
        assert!(trusted(&path));

        // Writable by others: not believed.
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o666)).unwrap();
        assert!(!trusted(&path));
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
        let dir = path.parent().unwrap();
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o777)).unwrap();
        assert!(!trusted(&path));
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700)).unwrap();

        // A link, even to a trusted file: not believed.
        let link = dir.join("link.cwasm");
        std::os::unix::fs::symlink(&path, &link).unwrap();
        assert!(!trusted(&link));

        // Pruning keeps the most recently used, and their info files.
        let components = base.join("pruned");
        for (i, age) in [30u64, 10, 20, 40].iter().enumerate() {
            let compiled = components.join(format!("{i}.cwasm"));
            write_atomically(&compiled, b"c").unwrap();
            write_atomically(&compiled.with_extension("info.json"), b"{}").unwrap();
            let then = std::time::SystemTime::now() - std::time::Duration::from_secs(age * 60);
            let file = std::fs::File::options()
                .append(true)
                .open(&compiled)
                .unwrap();
            file.set_times(std::fs::FileTimes::new().set_modified(then))
                .unwrap();
        }
        touch(&components.join("3.cwasm"));
        prune(&components, 2);
        let mut left: Vec<String> = std::fs::read_dir(&components)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        left.sort();
        assert_eq!(left, ["1.cwasm", "1.info.json", "3.cwasm", "3.info.json"]);

        // Another user's file (only root can make one here).
        // SAFETY: no preconditions.
        if unsafe { libc::geteuid() } == 0 {
            std::os::unix::fs::chown(&path, Some(65534), Some(65534)).unwrap();
            assert!(!trusted(&path));
        }
        let _ = std::fs::remove_dir_all(base);
    }
}
