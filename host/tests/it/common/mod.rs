//! What the host's integration tests share: the built-in plugins, loaded
//! once per test binary with a compilation cache under the target directory.

// Each test binary uses a part of this module.
#![allow(dead_code)]

pub mod tags;

use std::path::Path;
use std::sync::{Arc, OnceLock};

use lingo::runtime::{LanguagePlugin, Limits, PluginRegistry, RuntimeConfig};

/// The built-in plugins.
pub fn registry() -> &'static Arc<PluginRegistry> {
    static REGISTRY: OnceLock<Arc<PluginRegistry>> = OnceLock::new();
    REGISTRY.get_or_init(|| {
        Arc::new(
            PluginRegistry::load(&RuntimeConfig {
                extra_plugins: vec![],
                include_built_in: true,
                cache_dir: Some(Path::new(env!("CARGO_TARGET_TMPDIR")).join("lingo-cache")),
                limits: Limits::default(),
                extension_owners: Default::default(),
                compilation: Default::default(),
            })
            .expect("load the built-in plugins"),
        )
    })
}

/// The built-in plugin that reads `path`.
pub fn plugin_for(path: &str) -> &'static Arc<dyn LanguagePlugin> {
    registry()
        .for_path(Path::new(path))
        .unwrap_or_else(|| panic!("a plugin for {path}"))
}
