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

use crate::model::PluginInfo;

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

fn cache_path(dir: &Path, engine: &Engine, wasm: &[u8]) -> PathBuf {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    engine.precompile_compatibility_hash().hash(&mut hasher);
    let digest = hex::encode(Sha256::digest(wasm));
    dir.join("components")
        .join(format!("{digest}-{:016x}.cwasm", hasher.finish()))
}

/// Compile `wasm`, or load its compiled form from the cache.
pub fn load_or_compile(
    engine: &Engine,
    wasm: &[u8],
    dir: Option<&Path>,
) -> wasmtime::Result<Component> {
    let Some(dir) = dir else {
        return Component::new(engine, wasm);
    };
    let path = cache_path(dir, engine, wasm);
    if path.exists() {
        // SAFETY: the file was written by `Component::serialize` of an engine
        // with the same compatibility hash (part of the file name), into a
        // directory owned by this user; wasmtime re-checks the header.
        match unsafe { Component::deserialize_file(engine, &path) } {
            Ok(component) => {
                tracing::debug!(path = %path.display(), "compiled component loaded from cache");
                return Ok(component);
            }
            Err(error) => {
                tracing::warn!(path = %path.display(), %error, "stale compiled component; recompiling")
            }
        }
    }
    let component = Component::new(engine, wasm)?;
    if let Err(error) = write_atomically(&path, &component.serialize()?) {
        tracing::warn!(path = %path.display(), %error, "could not cache compiled component");
    }
    Ok(component)
}

/// Where the `info()` answer of `wasm` is kept.
fn info_path(dir: &Path, engine: &Engine, wasm: &[u8]) -> PathBuf {
    cache_path(dir, engine, wasm).with_extension("info.json")
}

/// The `info()` answer an earlier load of `wasm` recorded, if any (a file
/// that does not decode is ignored; the caller validates what it gets).
pub fn load_info(dir: Option<&Path>, engine: &Engine, wasm: &[u8]) -> Option<PluginInfo> {
    let path = info_path(dir?, engine, wasm);
    let bytes = std::fs::read(&path).ok()?;
    serde_json::from_slice(&bytes)
        .inspect_err(
            |error| tracing::warn!(path = %path.display(), %error, "cached plugin info ignored"),
        )
        .ok()
}

/// Record the `info()` answer of `wasm` after a successful load.
pub fn store_info(dir: Option<&Path>, engine: &Engine, wasm: &[u8], info: &PluginInfo) {
    let Some(dir) = dir else { return };
    let path = info_path(dir, engine, wasm);
    let written = serde_json::to_vec(info)
        .map_err(std::io::Error::other)
        .and_then(|bytes| write_atomically(&path, &bytes));
    if let Err(error) = written {
        tracing::warn!(path = %path.display(), %error, "could not cache the plugin info");
    }
}

fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().expect("cache path has a parent");
    std::fs::create_dir_all(dir)?;
    let temporary = dir.join(format!(".{}.tmp", std::process::id()));
    std::fs::write(&temporary, bytes)?;
    std::fs::rename(&temporary, path)
}
