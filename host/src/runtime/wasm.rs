//! A plugin component under wasmtime: ABI check, instance pool, calls with
//! deadlines, and replacement of instances that trap.

use sha2::Digest;
use std::sync::Mutex;

use wasmtime::component::{Component, Linker, ResourceAny};
use wasmtime::{Engine, Store, Trap};

use super::bindings::exports::lingo::plugin::types::{
    PluginError as WitPluginError, TextEdit as WitTextEdit,
};
use super::bindings::{LanguagePlugin as Bindings, LanguagePluginPre};
use super::sandbox::{Limits, SandboxState};
use super::{LanguagePlugin, PluginError, SUPPORTED_ABI, cache};
use crate::model::{FileFacts, Manifest, ModuleIdentity, PluginInfo, SyntaxNode};

/// The ABI's interface prefix in a component's export names.
const ABI_PACKAGE: &str = "lingo:plugin/";

/// One instance and the store it lives in.
struct Instance {
    store: Store<SandboxState>,
    bindings: Bindings,
}

/// A loaded plugin component.
pub struct WasmPlugin {
    info: PluginInfo,
    origin: String,
    /// sha256 of the component's bytes.
    fingerprint: String,
    engine: Engine,
    pre: LanguagePluginPre<SandboxState>,
    limits: Limits,
    /// Idle instances; a call takes one (or makes one) and gives it back
    /// unless it trapped.
    idle: Mutex<Vec<Instance>>,
}

impl WasmPlugin {
    /// Compile (or load from cache), check the ABI, instantiate once and ask
    /// the plugin who it is.
    pub fn load(
        engine: &Engine,
        origin: &str,
        wasm: &[u8],
        cache_dir: Option<&std::path::Path>,
        limits: Limits,
    ) -> Result<Self, PluginError> {
        let invalid = |reason: String| PluginError::InvalidComponent {
            file: origin.to_string(),
            reason,
        };
        if !wasmparser_is_component(wasm) {
            return Err(invalid(
                "the file is not a WebAssembly component (wrong header)".into(),
            ));
        }
        let component = cache::load_or_compile(engine, wasm, cache_dir)
            .map_err(|e| invalid(format!("{e:#}")))?;
        check_abi(engine, &component, origin)?;
        let mut linker = Linker::new(engine);
        wasmtime_wasi::p2::add_to_linker_sync(&mut linker)
            .map_err(|e| invalid(format!("{e:#}")))?;
        let pre = linker.instantiate_pre(&component).map_err(|e| {
            invalid(format!(
                "cannot be linked (it may import more than WASI): {e:#}"
            ))
        })?;
        let pre = LanguagePluginPre::new(pre).map_err(|e| invalid(format!("{e:#}")))?;
        let mut plugin = WasmPlugin {
            info: PluginInfo {
                name: origin.to_string(),
                version: String::new(),
                abi_version: String::new(),
                languages: Vec::new(),
                extensions: Vec::new(),
                manifests: Vec::new(),
                path_separator: String::new(),
                capabilities: Vec::new(),
            },
            origin: origin.to_string(),
            fingerprint: hex::encode(sha2::Sha256::digest(wasm)),
            engine: engine.clone(),
            pre,
            limits,
            idle: Mutex::new(Vec::new()),
        };
        let info: PluginInfo = plugin
            .call(|store, b| b.lingo_plugin_plugin().call_info(store))?
            .into();
        if info.abi_version != SUPPORTED_ABI {
            return Err(PluginError::IncompatibleAbi {
                file: origin.to_string(),
                found: info.abi_version,
                supported: SUPPORTED_ABI.to_string(),
            });
        }
        plugin.info = info;
        Ok(plugin)
    }

    fn instantiate(&self) -> Result<Instance, PluginError> {
        let mut store = Store::new(&self.engine, SandboxState::new(&self.limits));
        store.limiter(|state| &mut state.limits);
        store.set_epoch_deadline(self.limits.deadline_ticks());
        let bindings = self
            .pre
            .instantiate(&mut store)
            .map_err(|e| self.classify(e))?;
        Ok(Instance { store, bindings })
    }

    /// Run `f` on an instance with a fresh deadline. An instance whose call
    /// failed at the wasm level is dropped, never reused.
    fn call<R>(
        &self,
        f: impl FnOnce(&mut Store<SandboxState>, &Bindings) -> wasmtime::Result<R>,
    ) -> Result<R, PluginError> {
        let idle = self.idle.lock().expect("plugin pool lock").pop();
        let mut instance = match idle {
            Some(instance) => instance,
            None => self.instantiate()?,
        };
        instance
            .store
            .set_epoch_deadline(self.limits.deadline_ticks());
        let result = f(&mut instance.store, &instance.bindings);
        match result {
            Ok(value) => {
                self.idle.lock().expect("plugin pool lock").push(instance);
                Ok(value)
            }
            Err(error) => {
                tracing::warn!(plugin = %self.info.name, error = %format!("{error:#}"), "plugin instance discarded");
                Err(self.classify(error))
            }
        }
    }

    fn classify(&self, error: wasmtime::Error) -> PluginError {
        let plugin = self.info.name.clone();
        if let Some(Trap::Interrupt) = error.downcast_ref::<Trap>() {
            return PluginError::Timeout {
                plugin,
                limit: self.limits.call_timeout,
            };
        }
        let text = format!("{error:#}");
        if text.contains("memory")
            && (text.contains("grow") || text.contains("limit") || text.contains("allocat"))
        {
            return PluginError::OutOfMemory {
                plugin,
                limit_mb: self.limits.memory_bytes >> 20,
            };
        }
        PluginError::Trapped {
            plugin,
            reason: first_line(&text),
        }
    }

    fn plugin_error(
        &self,
        error: super::bindings::exports::lingo::plugin::types::PluginError,
    ) -> PluginError {
        use super::bindings::exports::lingo::plugin::types::PluginError as E;
        let plugin = self.info.name.clone();
        match error {
            E::Unsupported(operation) => PluginError::Unsupported { plugin, operation },
            E::InvalidInput(reason) => PluginError::InvalidInput { plugin, reason },
            E::Failed(reason) => PluginError::Failed { plugin, reason },
        }
    }
}

fn first_line(text: &str) -> String {
    text.lines()
        .next()
        .unwrap_or(text)
        .chars()
        .take(300)
        .collect()
}

/// A component's preamble: `\0asm`, then version 0x0d and layer 1.
fn wasmparser_is_component(bytes: &[u8]) -> bool {
    bytes.len() >= 8 && &bytes[0..4] == b"\0asm" && bytes[6..8] == [1, 0]
}

/// Refuse a component whose `lingo:plugin` exports carry another version.
fn check_abi(engine: &Engine, component: &Component, origin: &str) -> Result<(), PluginError> {
    let ty = component.component_type();
    let versions: Vec<String> = ty
        .exports(engine)
        .filter_map(|(name, _)| name.strip_prefix(ABI_PACKAGE).map(str::to_string))
        .filter_map(|rest| rest.split_once('@').map(|(_, v)| v.to_string()))
        .collect();
    match versions.first() {
        None => Err(PluginError::InvalidComponent {
            file: origin.to_string(),
            reason: "it does not export the lingo:plugin interfaces (is it a lingo plugin?)".into(),
        }),
        Some(found) if found != SUPPORTED_ABI => Err(PluginError::IncompatibleAbi {
            file: origin.to_string(),
            found: found.clone(),
            supported: SUPPORTED_ABI.to_string(),
        }),
        Some(_) => Ok(()),
    }
}

impl LanguagePlugin for WasmPlugin {
    fn info(&self) -> &PluginInfo {
        &self.info
    }

    fn origin(&self) -> &str {
        &self.origin
    }

    fn fingerprint(&self) -> &str {
        &self.fingerprint
    }

    fn analyze(
        &self,
        path: &str,
        source: &str,
        manifests: &[Manifest],
    ) -> Result<FileFacts, PluginError> {
        let wit_manifests: Vec<_> = manifests.iter().map(Into::into).collect();
        self.call(|store, b| {
            let syntax = b.lingo_plugin_syntax();
            let document = syntax.document();
            let doc = document.call_constructor(&mut *store, path, source)?;
            let language = document.call_language(&mut *store, doc)?;
            let symbols = document.call_symbols(&mut *store, doc)?;
            let references = document.call_references(&mut *store, doc)?;
            let imports = document.call_imports(&mut *store, doc)?;
            let locals = document.call_locals(&mut *store, doc)?;
            let diagnostics = document.call_diagnostics(&mut *store, doc)?;
            let metrics = document.call_metrics(&mut *store, doc)?;
            let modules =
                b.lingo_plugin_modules()
                    .call_module_of(&mut *store, doc, path, &wit_manifests)?;
            doc.resource_drop(&mut *store)?;
            Ok(FileFacts {
                language,
                symbols: symbols.into_iter().map(Into::into).collect(),
                references: references.into_iter().map(Into::into).collect(),
                imports: imports.into_iter().map(Into::into).collect(),
                locals: locals.into_iter().map(Into::into).collect(),
                diagnostics: diagnostics.into_iter().map(Into::into).collect(),
                metrics: metrics.into_iter().map(Into::into).collect(),
                modules: modules.into_iter().map(Into::into).collect(),
            })
        })
    }

    fn resolve_import(
        &self,
        importer: &ModuleIdentity,
        import_path: &str,
        manifests: &[Manifest],
    ) -> Result<Vec<String>, PluginError> {
        let importer = importer.into();
        let wit_manifests: Vec<_> = manifests.iter().map(Into::into).collect();
        self.call(|store, b| {
            b.lingo_plugin_modules().call_resolve_import(
                store,
                &importer,
                import_path,
                &wit_manifests,
            )
        })
    }

    /// Edits that add an import to `source` (for the refactoring planner).
    fn render_import(
        &self,
        path: &str,
        source: &str,
        module_path: &str,
        names: &[String],
    ) -> EditsResult {
        let result = self.with_document(path, source, |store, b, doc| {
            b.lingo_plugin_edits()
                .call_render_import(store, doc, module_path, names)
        })?;
        self.edits(result)
    }

    /// Edits that remove an import from `source`.
    fn remove_import(
        &self,
        path: &str,
        source: &str,
        module_path: &str,
        name: Option<&str>,
    ) -> EditsResult {
        let result = self.with_document(path, source, |store, b, doc| {
            b.lingo_plugin_edits()
                .call_remove_import(store, doc, module_path, name)
        })?;
        self.edits(result)
    }

    fn node_at(
        &self,
        path: &str,
        source: &str,
        offset: u32,
    ) -> Result<Vec<SyntaxNode>, PluginError> {
        let nodes = self.with_document(path, source, |store, b, doc| {
            b.lingo_plugin_syntax()
                .document()
                .call_node_at(store, doc, offset)
        })?;
        Ok(nodes.into_iter().map(Into::into).collect())
    }
}

impl WasmPlugin {
    /// Parse `source` into a document, run `f` on it, and drop it.
    fn with_document<R>(
        &self,
        path: &str,
        source: &str,
        f: impl FnOnce(&mut Store<SandboxState>, &Bindings, ResourceAny) -> wasmtime::Result<R>,
    ) -> Result<R, PluginError> {
        self.call(|store, b| {
            let doc =
                b.lingo_plugin_syntax()
                    .document()
                    .call_constructor(&mut *store, path, source)?;
            let out = f(&mut *store, b, doc)?;
            doc.resource_drop(&mut *store)?;
            Ok(out)
        })
    }

    /// A plugin's edit list as `(start, end, new text)`, or its typed error.
    fn edits(&self, result: Result<Vec<WitTextEdit>, WitPluginError>) -> EditsResult {
        result
            .map(|edits| {
                edits
                    .into_iter()
                    .map(|e| (e.start, e.end, e.new_text))
                    .collect()
            })
            .map_err(|e| self.plugin_error(e))
    }
}

/// Byte-range edits of a document, or why the plugin could not make them.
pub type EditsResult = Result<Vec<(u32, u32, String)>, PluginError>;
