//! Loading, sandboxing and pooling plugin components.

mod bindings;
mod cache;
mod convert;
mod sandbox;
mod wasm;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

pub use cache::default_dir as default_cache_dir;
pub use sandbox::Limits;
pub use wasm::{EditsResult, WasmPlugin};

use crate::model::{FileFacts, Manifest, ModuleIdentity, PluginInfo, SyntaxNode};

include!(concat!(env!("OUT_DIR"), "/embedded_plugins.rs"));

/// The ABI versions this host can load.
pub const SUPPORTED_ABI: &str = "0.1.0";

/// Errors of loading a plugin or calling into one.
#[derive(Debug, Clone, thiserror::Error)]
pub enum PluginError {
    #[error("{file}: not a valid WebAssembly component: {reason}")]
    InvalidComponent { file: String, reason: String },
    #[error("{file}: built against plugin ABI {found}, but this lingo supports {supported}")]
    IncompatibleAbi {
        file: String,
        found: String,
        supported: String,
    },
    #[error("{file}: cannot be read: {reason}")]
    Unreadable { file: String, reason: String },
    #[error("plugin `{plugin}` exceeded its time limit of {limit:?} and was restarted")]
    Timeout { plugin: String, limit: Duration },
    #[error("plugin `{plugin}` exceeded its memory limit of {limit_mb} MiB and was restarted")]
    OutOfMemory { plugin: String, limit_mb: usize },
    #[error("plugin `{plugin}` trapped and was restarted: {reason}")]
    Trapped { plugin: String, reason: String },
    #[error("plugin `{plugin}` does not support {operation}")]
    Unsupported { plugin: String, operation: String },
    #[error("plugin `{plugin}` rejected the input: {reason}")]
    InvalidInput { plugin: String, reason: String },
    #[error("plugin `{plugin}` failed: {reason}")]
    Failed { plugin: String, reason: String },
}

impl PluginError {
    /// Stable machine-readable code.
    pub fn code(&self) -> &'static str {
        match self {
            PluginError::InvalidComponent { .. } => "PLUGIN_INVALID",
            PluginError::IncompatibleAbi { .. } => "PLUGIN_ABI_MISMATCH",
            PluginError::Unreadable { .. } => "PLUGIN_UNREADABLE",
            PluginError::Timeout { .. } => "PLUGIN_TIMEOUT",
            PluginError::OutOfMemory { .. } => "PLUGIN_OUT_OF_MEMORY",
            PluginError::Trapped { .. } => "PLUGIN_TRAPPED",
            PluginError::Unsupported { .. } => "UNSUPPORTED",
            PluginError::InvalidInput { .. } => "PLUGIN_INVALID_INPUT",
            PluginError::Failed { .. } => "PLUGIN_FAILED",
        }
    }
}

/// What the host needs from a language, whatever implements it.
pub trait LanguagePlugin: Send + Sync {
    fn info(&self) -> &PluginInfo;
    /// Where the plugin came from (`embedded:…` or a file path).
    fn origin(&self) -> &str;
    /// Identifies the plugin's code (sha256 of the component): facts stored
    /// under another fingerprint are stale.
    fn fingerprint(&self) -> &str;
    /// Parse `source` and return every fact about it.
    fn analyze(
        &self,
        path: &str,
        source: &str,
        manifests: &[Manifest],
    ) -> Result<FileFacts, PluginError>;
    /// Candidate module paths an import path written in `importer` names.
    fn resolve_import(
        &self,
        importer: &ModuleIdentity,
        import_path: &str,
        manifests: &[Manifest],
    ) -> Result<Vec<String>, PluginError>;
    /// Edits that add an import of `names` from `module_path` to `source`.
    fn render_import(
        &self,
        path: &str,
        source: &str,
        module_path: &str,
        names: &[String],
    ) -> EditsResult;
    /// Edits that remove `name` (or everything) imported from `module_path`.
    fn remove_import(
        &self,
        path: &str,
        source: &str,
        module_path: &str,
        name: Option<&str>,
    ) -> EditsResult;
    /// The syntax node at `offset` and its ancestors, innermost first.
    fn node_at(
        &self,
        path: &str,
        source: &str,
        offset: u32,
    ) -> Result<Vec<SyntaxNode>, PluginError>;
}

/// A plugin that could not be loaded, kept for `health_check`.
#[derive(Debug, Clone, serde::Serialize)]
pub struct LoadFailure {
    pub origin: String,
    pub code: &'static str,
    pub message: String,
}

/// The loaded plugins, by file extension.
pub struct PluginRegistry {
    plugins: Vec<Arc<dyn LanguagePlugin>>,
    by_extension: HashMap<String, usize>,
    failures: Vec<LoadFailure>,
}

/// Where plugins come from and how they are confined.
#[derive(Debug, Clone)]
pub struct RuntimeConfig {
    pub extra_plugins: Vec<PathBuf>,
    pub include_built_in: bool,
    pub cache_dir: Option<PathBuf>,
    pub limits: Limits,
}

impl PluginRegistry {
    /// Load the built-in plugins and the extra ones. A plugin that fails to
    /// load is recorded and skipped; the others still load.
    pub fn load(config: &RuntimeConfig) -> anyhow::Result<Self> {
        let engine = sandbox::engine()?;
        let mut registry = PluginRegistry {
            plugins: Vec::new(),
            by_extension: HashMap::new(),
            failures: Vec::new(),
        };
        let mut sources: Vec<(String, Result<Vec<u8>, PluginError>)> = Vec::new();
        if config.include_built_in {
            for (name, bytes) in BUILT_IN_PLUGINS {
                sources.push((format!("embedded:{name}"), Ok(bytes.to_vec())));
            }
        }
        for path in &config.extra_plugins {
            let origin = path.display().to_string();
            let bytes = std::fs::read(path).map_err(|e| PluginError::Unreadable {
                file: origin.clone(),
                reason: e.to_string(),
            });
            sources.push((origin, bytes));
        }
        for (origin, bytes) in sources {
            let loaded = bytes.and_then(|bytes| {
                WasmPlugin::load(
                    &engine,
                    &origin,
                    &bytes,
                    config.cache_dir.as_deref(),
                    config.limits.clone(),
                )
            });
            match loaded {
                Ok(plugin) => registry.add(Arc::new(plugin)),
                Err(error) => {
                    tracing::error!(%origin, %error, "plugin refused");
                    registry.failures.push(LoadFailure {
                        origin,
                        code: error.code(),
                        message: error.to_string(),
                    });
                }
            }
        }
        Ok(registry)
    }

    fn add(&mut self, plugin: Arc<dyn LanguagePlugin>) {
        let index = self.plugins.len();
        for extension in &plugin.info().extensions {
            // Later plugins (named by the operator) override built-in ones.
            self.by_extension
                .insert(extension.to_ascii_lowercase(), index);
        }
        tracing::info!(plugin = %plugin.info().name, version = %plugin.info().version, origin = plugin.origin(), "plugin loaded");
        self.plugins.push(plugin);
    }

    /// The plugin for a file, by its extension.
    pub fn for_path(&self, path: &Path) -> Option<&Arc<dyn LanguagePlugin>> {
        let extension = path.extension()?.to_str()?.to_ascii_lowercase();
        self.by_extension.get(&extension).map(|&i| &self.plugins[i])
    }

    pub fn plugins(&self) -> &[Arc<dyn LanguagePlugin>] {
        &self.plugins
    }

    pub fn failures(&self) -> &[LoadFailure] {
        &self.failures
    }

    /// The qualified-path separators of the loaded plugins, longest first.
    pub fn path_separators(&self) -> Vec<String> {
        let mut separators: Vec<String> = self
            .plugins
            .iter()
            .map(|p| p.info().path_separator.clone())
            .collect();
        separators.sort_by(|a, b| b.len().cmp(&a.len()).then_with(|| a.cmp(b)));
        separators.dedup();
        separators
    }

    /// Manifest file names any plugin wants for module resolution.
    pub fn manifest_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self
            .plugins
            .iter()
            .flat_map(|p| p.info().manifests.clone())
            .collect();
        names.sort();
        names.dedup();
        names
    }
}

/// Directory of the components built alongside this binary (test plugins).
pub fn artifact_dir() -> &'static str {
    env!("LINGO_PLUGIN_ARTIFACTS")
}
