//! lingo-runtime: loading, sandboxing and pooling the language plugins'
//! WebAssembly components (wasmtime), the compiled-plugin cache, and the
//! conversion of their answers into `lingo-model` facts.
//!
//! The only crate that knows wasmtime or the WIT bindings. It imports
//! `lingo-model` alone; everything that indexes or answers sits above it.

mod bindings;
mod cache;
mod compile_pool;
mod convert;
mod health;
mod memory;
mod sandbox;
mod stderr;
mod tier_up;
mod wasm;

use std::borrow::Cow;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Weak};
use std::time::Duration;

pub use cache::default_dir as default_cache_dir;
pub use cache::{create_private_dir, write_atomically};
pub use sandbox::{Limits, Tier};
pub use wasm::{EditsResult, MemoryBudget, PluginHealth, WasmPlugin};

use tier_up::TierUp;

use lingo_model::patterns::NamePatterns;
use lingo_model::{
    FileFacts, MacroSource, Manifest, ModuleIdentity, PluginInfo, Span, SyntaxNode, Token,
};

include!(concat!(env!("OUT_DIR"), "/embedded_plugins.rs"));

/// The current plugin ABI version (`wit/lingo-plugin.wit`).
pub const ABI_VERSION: &str = "0.17.0";

/// The ABI versions this host can load, newest first: the current one and
/// the one before it (`wit/README.md`), a bindings module per version
/// (`bindings.rs`). A component built against any other is refused with a
/// message naming these.
pub const SUPPORTED_ABI: &[&str] = &[ABI_VERSION, "0.16.0"];

/// Errors of loading a plugin or calling into one.
#[derive(Debug, Clone, thiserror::Error)]
pub enum PluginError {
    #[error("{file}: not a valid WebAssembly component: {reason}")]
    InvalidComponent { file: String, reason: String },
    /// The plugin's queries do not compile (the SDK stops `info()` on them):
    /// `reason` names the query file and the line.
    #[error("query error in {reason} (plugin {file})")]
    InvalidQueries { file: String, reason: String },
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
    Trapped {
        plugin: String,
        /// The trap (stack overflow, out-of-bounds access, unreachable
        /// reached, ...) and the plugin's panic message when it left one.
        reason: String,
        /// The tail of what the plugin wrote to stderr during the call.
        output: String,
    },
    #[error("plugin `{plugin}` reported facts that break the rules ({}); they were repaired or dropped", rules.join("; "))]
    InvalidOutput {
        plugin: String,
        /// Each rule broken, with how often.
        rules: Vec<String>,
    },
    #[error("plugin `{plugin}` is not called for {operation} for now: {reason}")]
    Unavailable {
        plugin: String,
        operation: String,
        reason: String,
    },
    #[error("plugin call not made: {0}")]
    Exhausted(lingo_model::budget::Exhausted),
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
            PluginError::InvalidComponent { .. } | PluginError::InvalidQueries { .. } => {
                "PLUGIN_INVALID"
            }
            PluginError::IncompatibleAbi { .. } => "PLUGIN_ABI_MISMATCH",
            PluginError::Unreadable { .. } => "PLUGIN_UNREADABLE",
            PluginError::Timeout { .. } => "PLUGIN_TIMEOUT",
            PluginError::OutOfMemory { .. } => "PLUGIN_OUT_OF_MEMORY",
            PluginError::Trapped { .. } => "PLUGIN_TRAPPED",
            PluginError::Unsupported { .. } => "UNSUPPORTED",
            PluginError::InvalidInput { .. } => "PLUGIN_INVALID_INPUT",
            PluginError::Failed { .. } => "PLUGIN_FAILED",
            PluginError::InvalidOutput { .. } => "PLUGIN_INVALID_OUTPUT",
            PluginError::Unavailable { .. } => "PLUGIN_UNAVAILABLE",
            PluginError::Exhausted(lingo_model::budget::Exhausted::Cancelled) => {
                "REQUEST_CANCELLED"
            }
            PluginError::Exhausted(lingo_model::budget::Exhausted::DeadlineExceeded) => {
                "REQUEST_TIMEOUT"
            }
        }
    }
}

impl PluginError {
    /// The error's `details` object: the plugin, and what it left behind.
    pub fn details(&self) -> serde_json::Value {
        use serde_json::json;
        match self {
            PluginError::Trapped {
                plugin,
                reason,
                output,
            } => json!({ "plugin": plugin, "reason": reason, "stderr": output }),
            PluginError::InvalidOutput { plugin, rules } => {
                json!({ "plugin": plugin, "rules": rules })
            }
            PluginError::Timeout { plugin, limit } => {
                json!({ "plugin": plugin, "limitMs": limit.as_millis() as u64 })
            }
            PluginError::OutOfMemory { plugin, limit_mb } => {
                json!({ "plugin": plugin, "limitMb": limit_mb })
            }
            PluginError::Unavailable {
                plugin, operation, ..
            } => json!({ "plugin": plugin, "operation": operation }),
            PluginError::Unsupported { plugin, operation } => {
                json!({ "plugin": plugin, "operation": operation })
            }
            PluginError::InvalidInput { plugin, .. } | PluginError::Failed { plugin, .. } => {
                json!({ "plugin": plugin })
            }
            PluginError::InvalidComponent { file, .. }
            | PluginError::InvalidQueries { file, .. }
            | PluginError::IncompatibleAbi { file, .. }
            | PluginError::Unreadable { file, .. } => json!({ "file": file }),
            PluginError::Exhausted(_) => json!({}),
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
    ) -> Result<FileFacts, PluginError> {
        self.analyze_expanding(path, source, manifests, &[])
    }
    /// [`Self::analyze`], with the definitions of other files' macros
    /// that `source` invokes (ABI 0.9.0 on; earlier plugins take none).
    /// The facts record which were given, and a digest of their texts.
    fn analyze_expanding(
        &self,
        path: &str,
        source: &str,
        manifests: &[Manifest],
        macros: &[MacroSource],
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
    /// Edits that re-export `names` of `module_path` from `source`, publicly,
    /// so that they stay reachable by the old path.
    fn render_reexport(
        &self,
        _path: &str,
        _source: &str,
        _module_path: &str,
        _names: &[String],
    ) -> EditsResult {
        Err(self.unsupported("render-reexport"))
    }
    /// Edits that remove `name` (or everything) imported from `module_path`.
    fn remove_import(
        &self,
        path: &str,
        source: &str,
        module_path: &str,
        name: Option<&str>,
    ) -> EditsResult;
    /// The byte range `[start, end)` that moving or deleting the
    /// declaration at `span` takes out of `source` (ABI 0.3.0 on; earlier
    /// plugins cannot say).
    fn declaration_extent(
        &self,
        _path: &str,
        _source: &str,
        _span: &Span,
    ) -> Result<(u32, u32), PluginError> {
        Err(self.unsupported("declaration-extent"))
    }
    /// Edits to `target` (path, text) that add the declaration at `span` of
    /// `source` (path, text), rendered for `target_module` (empty: its own).
    fn place_declaration(
        &self,
        _source: (&str, &str),
        _span: &Span,
        _target: (&str, &str),
        _target_module: &str,
    ) -> EditsResult {
        Err(self.unsupported("place-declaration"))
    }
    /// The files that may declare the new file `path` as a module, in the
    /// order to try (ABI 0.8.0 on; none before, and none where files are
    /// modules by themselves).
    fn module_declarers(&self, _path: &str) -> Result<Vec<String>, PluginError> {
        Ok(Vec::new())
    }
    /// Edits to `parent` (path, text) that declare the new file `path` as a
    /// module (ABI 0.8.0 on).
    fn declare_module(&self, _parent: (&str, &str), _path: &str) -> EditsResult {
        Err(self.unsupported("declare-module"))
    }
    /// Edits to `source` that write out in full the shorthand whose name
    /// is at `name` (`{ body }`), its member spelled `member` and its
    /// value `value` (ABI 0.17.0 on; earlier plugins cannot).
    fn write_out_shorthand(
        &self,
        _path: &str,
        _source: &str,
        _name: &Span,
        _member: &str,
        _value: &str,
    ) -> EditsResult {
        Err(self.unsupported("write-out-shorthand"))
    }
    /// How a file of module `importer` writes an import of `target`.
    fn import_specifier(
        &self,
        _importer: &ModuleIdentity,
        _target: &ModuleIdentity,
        _manifests: &[Manifest],
    ) -> Result<String, PluginError> {
        Err(self.unsupported("import-specifier"))
    }
    /// The tokens of `source` in source order, comments included (ABI
    /// 0.5.0 on, with the `tokens` capability; others cannot say).
    fn tokens(&self, _path: &str, _source: &str) -> Result<Vec<Token>, PluginError> {
        Err(self.unsupported("tokens"))
    }
    /// The runs of statements no path reaches in `source` (ABI 0.5.0 on,
    /// with the `unreachable` capability; others cannot say).
    fn unreachable(&self, _path: &str, _source: &str) -> Result<Vec<Span>, PluginError> {
        Err(self.unsupported("unreachable"))
    }
    /// The error of an operation this plugin does not implement.
    fn unsupported(&self, operation: &str) -> PluginError {
        PluginError::Unsupported {
            plugin: self.info().name.clone(),
            operation: operation.to_string(),
        }
    }
    /// Calls, failures, tripped operations and memory of this plugin, when
    /// it keeps them.
    fn health(&self) -> Option<PluginHealth> {
        None
    }
    /// Count a failure the host found in what `operation` returned (facts
    /// that broke the rules), so the plugin's health shows it.
    fn note_failure(&self, _operation: &'static str, _error: &PluginError) {}
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

/// An extension more than one plugin claims, and which one got it.
#[derive(Debug, Clone, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExtensionConflict {
    pub extension: String,
    /// The plugin that handles the extension.
    pub winner: String,
    /// The other plugins that claim it.
    pub others: Vec<String>,
    /// `config` when `lingo.toml` chose the winner, else `built-in first`.
    pub decided_by: &'static str,
}

/// The loaded plugins, by file extension.
pub struct PluginRegistry {
    plugins: Vec<Arc<dyn LanguagePlugin>>,
    by_extension: HashMap<String, usize>,
    failures: Vec<LoadFailure>,
    conflicts: Vec<ExtensionConflict>,
    /// The plugins' manifest file-name patterns, compiled once.
    manifest_patterns: NamePatterns,
    /// The thread that gives plugins on baseline code their optimized
    /// code (a tiered registry's), and the plugins it watches.
    tier_up: Option<(Arc<TierUp>, Vec<Weak<WasmPlugin>>)>,
}

/// How plugins are compiled when the cache has no optimized code for them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Compilation {
    /// Optimized code (Cranelift) before the first call: for a run that
    /// works through a whole workspace at once (`lingo index`, analyses,
    /// the plugin kit), where the code's speed counts most.
    #[default]
    Optimized,
    /// Baseline code (Winch) first, a fraction of the time, so that a
    /// server answers within a second of its start; optimized code is
    /// compiled in the background, the plugins the workspace calls most
    /// first, cached, and swapped in.
    Tiered,
}

/// Where plugins come from and how they are confined.
#[derive(Debug, Clone)]
pub struct RuntimeConfig {
    pub extra_plugins: Vec<PathBuf>,
    pub include_built_in: bool,
    pub cache_dir: Option<PathBuf>,
    pub limits: Limits,
    /// Extension -> name of the plugin that handles it, where several claim it.
    pub extension_owners: HashMap<String, String>,
    pub compilation: Compilation,
}

impl PluginRegistry {
    /// Load the built-in plugins and the extra ones. A plugin that fails to
    /// load is recorded and skipped; the others still load.
    pub fn load(config: &RuntimeConfig) -> anyhow::Result<Self> {
        let mut registry = PluginRegistry {
            plugins: Vec::new(),
            by_extension: HashMap::new(),
            failures: Vec::new(),
            conflicts: Vec::new(),
            manifest_patterns: NamePatterns::new([]),
            tier_up: None,
        };
        let tier_up =
            (config.compilation == Compilation::Tiered).then(|| Arc::new(TierUp::default()));
        // Each plugin's bytes with their digest and the `info()` it states
        // ahead: the built-in ones' were recorded at build time, and their
        // bytes are not copied.
        type Source = (Cow<'static, [u8]>, Option<&'static str>, Option<PluginInfo>);
        let mut sources: Vec<(String, Result<Source, PluginError>)> = Vec::new();
        if config.include_built_in {
            for (name, bytes, digest, stated) in BUILT_IN_PLUGINS {
                let origin = format!("embedded:{name}");
                let stated = stated.and_then(|json| {
                    serde_json::from_str(json)
                        .inspect_err(|error| tracing::error!(%origin, %error, "stated plugin info does not decode; asking the plugin"))
                        .ok()
                });
                sources.push((origin, Ok((Cow::Borrowed(*bytes), Some(*digest), stated))));
            }
        }
        for path in &config.extra_plugins {
            let origin = path.display().to_string();
            let bytes = std::fs::read(path).map_err(|e| PluginError::Unreadable {
                file: origin.clone(),
                reason: e.to_string(),
            });
            sources.push((origin, bytes.map(|bytes| (Cow::Owned(bytes), None, None))));
        }
        let mut watched = Vec::new();
        for (origin, source) in sources {
            let loaded = source.and_then(|(bytes, digest, stated)| {
                let digest = digest.map_or_else(|| cache::digest(&bytes), str::to_string);
                let source = wasm::Source {
                    wasm: bytes,
                    cache_dir: config.cache_dir.clone(),
                    compilation: config.compilation,
                    tier_up: tier_up.clone(),
                };
                WasmPlugin::load_for_registry(
                    &origin,
                    digest,
                    stated,
                    source,
                    config.limits.clone(),
                )
            });
            match loaded {
                Ok(plugin) => {
                    let plugin = Arc::new(plugin);
                    watched.push(Arc::downgrade(&plugin));
                    registry.plugins.push(plugin);
                }
                Err(error) => {
                    registry.failures.push(LoadFailure {
                        origin,
                        code: error.code(),
                        message: error.to_string(),
                    });
                }
            }
        }
        registry.assign_extensions(&config.extension_owners);
        if let Some(tier_up) = tier_up {
            let thread = Arc::clone(&tier_up);
            let plugins = watched.clone();
            std::thread::Builder::new()
                .name("lingo-tier-up".into())
                .spawn(move || thread.run(plugins))?;
            registry.tier_up = Some((tier_up, watched));
        }
        Ok(registry)
    }

    /// Wait, at most `limit`, until no plugin runs on baseline code whose
    /// optimized code is still to come (those whose optimized code failed
    /// keep their baseline code, and their health says why).
    pub fn wait_for_optimized_code(&self, limit: Duration) {
        if let Some((tier_up, plugins)) = &self.tier_up {
            tier_up.wait_idle(plugins, limit);
        }
    }

    /// A registry of already loaded plugins (tests, tools).
    pub fn from_plugins(
        plugins: Vec<Arc<dyn LanguagePlugin>>,
        extension_owners: &HashMap<String, String>,
    ) -> Self {
        let mut registry = PluginRegistry {
            plugins,
            by_extension: HashMap::new(),
            failures: Vec::new(),
            conflicts: Vec::new(),
            manifest_patterns: NamePatterns::new([]),
            tier_up: None,
        };
        registry.assign_extensions(extension_owners);
        registry
    }

    /// Give each extension to one plugin: the one `owners` names, else the
    /// first loaded (built-in plugins load first, so a third-party plugin
    /// cannot take over a built-in language unless the operator says so).
    /// Every conflict is logged and kept for `health_check`.
    fn assign_extensions(&mut self, owners: &HashMap<String, String>) {
        self.manifest_patterns =
            NamePatterns::new(self.manifest_names().iter().map(String::as_str));
        let mut claims: Vec<(String, Vec<usize>)> = Vec::new();
        for (index, plugin) in self.plugins.iter().enumerate() {
            tracing::info!(plugin = %plugin.info().name, version = %plugin.info().version, origin = plugin.origin(), "plugin loaded");
            for extension in &plugin.info().extensions {
                let extension = extension.trim_start_matches('.').to_ascii_lowercase();
                match claims.iter_mut().find(|(e, _)| *e == extension) {
                    Some((_, claimants)) if !claimants.contains(&index) => claimants.push(index),
                    Some(_) => {}
                    None => claims.push((extension, vec![index])),
                }
            }
        }
        for (extension, claimants) in claims {
            let name = |i: usize| self.plugins[i].info().name.clone();
            let chosen = owners
                .get(&extension)
                .and_then(|owner| claimants.iter().copied().find(|&i| name(i) == *owner));
            if let Some(owner) = owners.get(&extension)
                && chosen.is_none()
            {
                tracing::warn!(%extension, %owner, "the configured plugin for this extension is not loaded or does not claim it");
            }
            let winner = chosen.unwrap_or(claimants[0]);
            if claimants.len() > 1 {
                let conflict = ExtensionConflict {
                    extension: extension.clone(),
                    winner: name(winner),
                    others: claimants
                        .iter()
                        .filter(|&&i| i != winner)
                        .map(|&i| name(i))
                        .collect(),
                    decided_by: if chosen.is_some() {
                        "config"
                    } else {
                        "built-in first"
                    },
                };
                tracing::warn!(?conflict, "several plugins claim one extension");
                self.conflicts.push(conflict);
            }
            self.by_extension.insert(extension, winner);
        }
    }

    /// Extensions more than one plugin claims, with the winner of each.
    pub fn conflicts(&self) -> &[ExtensionConflict] {
        &self.conflicts
    }

    /// The plugin for a file, by its extension.
    pub fn for_path(&self, path: &Path) -> Option<&Arc<dyn LanguagePlugin>> {
        let extension = path.extension()?.to_str()?.to_ascii_lowercase();
        self.by_extension.get(&extension).map(|&i| &self.plugins[i])
    }

    pub fn plugins(&self) -> &[Arc<dyn LanguagePlugin>] {
        &self.plugins
    }

    /// The plugins that could not be loaded, and why. Loading does not log
    /// them: its caller says so once (a server in its log, the plugin kit
    /// in its answer).
    pub fn failures(&self) -> &[LoadFailure] {
        &self.failures
    }

    /// Whether `file_name` (a name, not a path) is a manifest of a loaded
    /// plugin (`Cargo.toml`, `*.csproj`).
    pub fn is_manifest_name(&self, file_name: &str) -> bool {
        self.manifest_patterns.matches(file_name)
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

impl Drop for PluginRegistry {
    fn drop(&mut self) {
        if let Some((tier_up, _)) = &self.tier_up {
            tier_up.stop();
        }
    }
}

/// Directory of the components built alongside this binary (test plugins).
pub fn artifact_dir() -> &'static str {
    env!("LINGO_PLUGIN_ARTIFACTS")
}
