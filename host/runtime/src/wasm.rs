//! A plugin component under wasmtime: ABI check, a bounded instance pool,
//! calls with deadlines (the call's own, scaled by the input's size, and the
//! request's), a circuit breaker per operation, and replacement of instances
//! that trap, with the trap's kind and the plugin's panic message.

use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock, RwLock};

use wasmtime::component::{Component, Linker, ResourceAny};
use wasmtime::{Engine, Store, Trap};

use super::health;
pub use super::health::PluginHealth;
pub use super::memory::MemoryBudget;

use super::bindings::{v0_16_0, v0_17_0};
use super::convert::{self, Failure};
use super::memory::MemoryScope;
use super::sandbox::{self, Limits, SandboxState, Stop, Tier};
use super::stderr::panic_message;
use super::tier_up::TierUp;
use super::{Compilation, LanguagePlugin, PluginError, SUPPORTED_ABI, cache};
use lingo_model::{
    FileFacts, MacroSource, Manifest, ModuleIdentity, PluginInfo, Span, SyntaxNode, Token,
};

/// The capability of a plugin whose `entry-points` answers may be trusted,
/// an empty one included.
const ENTRY_POINTS_CAPABILITY: &str = "entry-points";

/// The capability of a plugin whose `tokens` answers may be asked for.
const TOKENS_CAPABILITY: &str = "tokens";

/// The capability of a plugin whose `unreachable` answers may be asked for.
const UNREACHABLE_CAPABILITY: &str = "unreachable";

/// How often a call waiting for another call's compile of the same plugin
/// looks at its own budget.
const COMPILE_WAIT_STEP: std::time::Duration = std::time::Duration::from_millis(10);

/// The ABI's interface prefix in a component's export names.
const ABI_PACKAGE: &str = "lingo:plugin/";

/// The bindings of one instance, for the ABI version its component was
/// built against.
enum Bindings {
    V0_17_0(v0_17_0::LanguagePlugin),
    V0_16_0(v0_16_0::LanguagePlugin),
}

/// Pre-linked instantiation, per ABI version.
enum Pre {
    V0_17_0(v0_17_0::LanguagePluginPre<SandboxState>),
    V0_16_0(v0_16_0::LanguagePluginPre<SandboxState>),
}

/// `$body` with `$b` bound to the instance's bindings and `conv` to the
/// conversions of its ABI version; both arms must give the same type.
macro_rules! per_version {
    ($bindings:expr, $b:ident => $body:expr) => {
        match $bindings {
            Bindings::V0_17_0($b) => {
                #[allow(unused_imports)]
                use convert::v0_17_0 as conv;
                $body
            }
            Bindings::V0_16_0($b) => {
                #[allow(unused_imports)]
                use convert::v0_16_0 as conv;
                $body
            }
        }
    };
}

/// One instance and the store it lives in.
struct Instance {
    store: Store<SandboxState>,
    bindings: Bindings,
    /// The code it runs: an instance of replaced code is not pooled.
    tier: Tier,
}

/// The compiled code instances are made from: the engine that compiled
/// it, the pre-linked component, and which compiler made it.
struct Code {
    engine: Engine,
    pre: Pre,
    tier: Tier,
}

/// What a plugin's code is compiled from, when it is compiled at its first
/// call or replaced later, and how.
pub(crate) struct Source {
    pub wasm: Cow<'static, [u8]>,
    pub cache_dir: Option<PathBuf>,
    pub compilation: Compilation,
    /// Told when the plugin gets baseline code.
    pub tier_up: Option<Arc<TierUp>>,
}

/// A loaded plugin component.
pub struct WasmPlugin {
    info: PluginInfo,
    origin: String,
    /// sha256 of the component's bytes.
    fingerprint: String,
    abi: AbiVersion,
    /// None until the first call of a plugin whose info was stated ahead
    /// (built-in ones); replaced once at most, by optimized code, when it
    /// runs on baseline code ([`WasmPlugin::tier_up`]).
    code: RwLock<Option<Arc<Code>>>,
    /// Held while compiling, so that concurrent first calls compile once.
    compiling: Mutex<()>,
    /// Why the code could not be compiled at the first call: every later
    /// call fails with it at once.
    compile_failure: OnceLock<PluginError>,
    /// Why the optimized code could not replace the baseline code.
    tier_up_failure: Mutex<Option<String>>,
    /// None when the code was compiled at load and is never replaced.
    source: Option<Source>,
    limits: Limits,
    /// Idle instances (at most `limits.pool_size`); a call takes one (or
    /// makes one) and gives it back unless it failed or grew too large.
    idle: Mutex<Vec<Instance>>,
    health: health::Health,
}

/// Files a plugin may name as declarers of a new module, at most, and the
/// length of each.
const MAX_DECLARERS: usize = 16;
const MAX_DECLARER_BYTES: usize = 4096;

/// The operations of the ABI, as health and breakers name them.
mod operation {
    pub const INFO: &str = "info";
    pub const ANALYZE: &str = "analyze";
    pub const RESOLVE_IMPORT: &str = "resolve-import";
    pub const RENDER_IMPORT: &str = "render-import";
    pub const RENDER_REEXPORT: &str = "render-reexport";
    pub const DECLARE_MODULE: &str = "declare-module";
    pub const WRITE_OUT_SHORTHAND: &str = "write-out-shorthand";
    pub const MODULE_DECLARERS: &str = "module-declarers";
    pub const REMOVE_IMPORT: &str = "remove-import";
    pub const NODE_AT: &str = "node-at";
    pub const DECLARATION_EXTENT: &str = "declaration-extent";
    pub const PLACE_DECLARATION: &str = "place-declaration";
    pub const IMPORT_SPECIFIER: &str = "import-specifier";
    pub const TOKENS: &str = "tokens";
    pub const UNREACHABLE: &str = "unreachable";
}

impl WasmPlugin {
    /// Compile (or load from cache), check the ABI, instantiate once and ask
    /// the plugin who it is.
    pub fn load(
        engine: &Engine,
        origin: &str,
        wasm: &[u8],
        cache_dir: Option<&Path>,
        limits: Limits,
    ) -> Result<Self, PluginError> {
        let digest = cache::digest(wasm);
        Self::load_with_digest(engine, origin, wasm, digest, cache_dir, limits)
    }

    /// [`WasmPlugin::load`] of bytes whose [`cache::digest`] is known
    /// (the built-in plugins': computed when lingo was built).
    pub fn load_with_digest(
        engine: &Engine,
        origin: &str,
        wasm: &[u8],
        digest: String,
        cache_dir: Option<&Path>,
        limits: Limits,
    ) -> Result<Self, PluginError> {
        check_header(origin, wasm)?;
        let code = optimized_code(engine, wasm, &digest, cache_dir, origin)?;
        Self::with_code(code, origin, digest, cache_dir, limits, None)
    }

    /// Load for a registry. With `stated` (the built-in plugins' `info()`,
    /// recorded beside their source and checked by a test) nothing is
    /// compiled until the first call; else the code is compiled now and
    /// the plugin asked who it is. `source.compilation` says which code
    /// comes first when the cache has no optimized code: baseline code is
    /// told to `source.tier_up`, whose thread replaces it.
    pub(crate) fn load_for_registry(
        origin: &str,
        digest: String,
        stated: Option<PluginInfo>,
        source: Source,
        limits: Limits,
    ) -> Result<Self, PluginError> {
        check_header(origin, &source.wasm)?;
        if let Some(info) = stated {
            let abi = AbiVersion::parse(&info.abi_version)
                .filter(|abi| SUPPORTED_ABI.contains(&abi.as_str()))
                .ok_or_else(|| PluginError::IncompatibleAbi {
                    file: origin.to_string(),
                    found: info.abi_version.clone(),
                    supported: SUPPORTED_ABI.join(", "),
                })?;
            let mut plugin = Self::new(origin, digest, abi, None, Some(source), limits);
            plugin.accept_info(info);
            return Ok(plugin);
        }
        let code = compile(origin, &digest, &source)?;
        let baseline = code.tier == Tier::Baseline;
        let cache_dir = source.cache_dir.clone();
        let plugin = Self::with_code(
            code,
            origin,
            digest,
            cache_dir.as_deref(),
            limits,
            Some(source),
        )?;
        if baseline {
            plugin.baseline_compiled();
        }
        Ok(plugin)
    }

    fn new(
        origin: &str,
        digest: String,
        abi: AbiVersion,
        code: Option<Code>,
        source: Option<Source>,
        limits: Limits,
    ) -> Self {
        WasmPlugin {
            info: PluginInfo {
                name: origin.to_string(),
                version: String::new(),
                abi_version: String::new(),
                languages: Vec::new(),
                extensions: Vec::new(),
                manifests: Vec::new(),
                path_separator: String::new(),
                capabilities: Vec::new(),
                policy: lingo_model::LanguagePolicy::unstated(),
            },
            origin: origin.to_string(),
            fingerprint: digest,
            abi,
            code: RwLock::new(code.map(Arc::new)),
            compiling: Mutex::new(()),
            compile_failure: OnceLock::new(),
            tier_up_failure: Mutex::new(None),
            source,
            health: health::Health::new(
                origin,
                health::BreakerConfig {
                    threshold: limits.breaker_threshold,
                    cooldown: limits.breaker_cooldown,
                },
            ),
            limits,
            idle: Mutex::new(Vec::new()),
        }
    }

    /// The plugin of linked `code`: its `info()` from the cache or asked.
    fn with_code(
        code: Code,
        origin: &str,
        digest: String,
        cache_dir: Option<&Path>,
        limits: Limits,
        source: Option<Source>,
    ) -> Result<Self, PluginError> {
        let abi = code.pre.abi();
        let mut plugin = Self::new(origin, digest, abi, Some(code), source, limits);
        // Cached info is kept under the optimized engine's key, whichever
        // code runs now.
        let info_engine =
            sandbox::engine().map_err(|e| invalid(origin, format!("no engine: {e:#}")))?;
        // The SDK compiles every query here, so a broken one fails the load
        // with its file and position (from the captured panic message). A
        // component that loaded before has its answer cached: nothing is
        // instantiated until the first real call.
        let cached = cache::load_info(cache_dir, &info_engine, &plugin.fingerprint);
        let from_cache = cached.is_some();
        let info: PluginInfo = match cached {
            Some(info) => info,
            None => plugin
                .call(health::Key::operation(operation::INFO), 0, |store, b| {
                    Ok(per_version!(b, b => b.lingo_plugin_plugin().call_info(store)?.into()))
                })
                .map_err(|e| info_failure(origin, e))?,
        };
        // The version `info()` states must be the one the exports carry.
        if info.abi_version != abi.as_str() {
            return Err(PluginError::IncompatibleAbi {
                file: origin.to_string(),
                found: format!(
                    "{} (its exports are lingo:plugin@{})",
                    info.abi_version,
                    abi.as_str()
                ),
                supported: SUPPORTED_ABI.join(", "),
            });
        }
        plugin.accept_info(info);
        if !from_cache {
            cache::store_info(cache_dir, &info_engine, &plugin.fingerprint, &plugin.info);
        }
        Ok(plugin)
    }

    /// Take `info` as the plugin's, repaired where it breaks the rules.
    fn accept_info(&mut self, info: PluginInfo) {
        let (info, report) = lingo_model::validate::check_info(info, &Default::default());
        if !report.is_clean() {
            tracing::warn!(origin = %self.origin, rules = ?report.rules(), "plugin info repaired");
        }
        self.health.set_plugin(&info.name);
        self.info = info;
    }

    /// [`WasmPlugin::load`] on the shared engine (whose ticker thread
    /// drives the deadlines), for embedders and tests that hold no engine.
    pub fn load_shared(
        origin: &str,
        wasm: &[u8],
        cache_dir: Option<&Path>,
        limits: Limits,
    ) -> Result<Self, PluginError> {
        let engine = sandbox::engine().map_err(|e| invalid(origin, format!("no engine: {e:#}")))?;
        Self::load(&engine, origin, wasm, cache_dir, limits)
    }

    /// Which compiler the code that serves the next call came from; None
    /// before the first call compiles it.
    pub fn tier(&self) -> Option<Tier> {
        self.current_code().map(|code| code.tier)
    }

    /// Calls made into the plugin so far.
    pub fn calls(&self) -> u64 {
        self.health.calls()
    }

    pub(crate) fn info_name(&self) -> &str {
        &self.info.name
    }

    /// Whether the optimized code failed to replace the baseline code.
    pub(crate) fn tier_up_failed(&self) -> bool {
        lingo_model::sync::lock(&self.tier_up_failure).is_some()
    }

    fn baseline_compiled(&self) {
        if let Some(tier_up) = self.source.as_ref().and_then(|s| s.tier_up.as_ref()) {
            tier_up.baseline_compiled();
        }
    }

    /// Replace baseline code by optimized code, compiled from the plugin's
    /// bytes or loaded from the cache, and written to it. Calls running on
    /// the baseline code finish on it; the next ones get instances of the
    /// new code. On failure the plugin keeps serving from the baseline
    /// code, and its health says why.
    pub fn tier_up(&self) -> Result<(), PluginError> {
        let Some(source) = &self.source else {
            return Ok(());
        };
        if self.tier() != Some(Tier::Baseline) {
            return Ok(());
        }
        let upgraded = (|| {
            let engine = sandbox::engine()
                .map_err(|e| invalid(&self.origin, format!("no engine: {e:#}")))?;
            let code = optimized_code(
                &engine,
                &source.wasm,
                &self.fingerprint,
                source.cache_dir.as_deref(),
                &self.origin,
            )?;
            if code.pre.abi() != self.abi {
                return Err(invalid(
                    &self.origin,
                    "the optimized code exports another ABI version".into(),
                ));
            }
            Ok(code)
        })();
        match upgraded {
            Ok(code) => {
                *write(&self.code) = Some(Arc::new(code));
                self.lock_idle().clear();
                Ok(())
            }
            Err(error) => {
                *lingo_model::sync::lock(&self.tier_up_failure) = Some(error.to_string());
                Err(error)
            }
        }
    }

    fn current_code(&self) -> Option<Arc<Code>> {
        self.code
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .clone()
    }

    /// The code to make instances from, compiled now if this is the first
    /// call (once, whoever calls at the same time).
    fn code(&self) -> Result<Arc<Code>, PluginError> {
        if let Some(code) = self.current_code() {
            return Ok(code);
        }
        let _compiling = self.compile_lock()?;
        if let Some(code) = self.current_code() {
            return Ok(code);
        }
        if let Some(failure) = self.compile_failure.get() {
            return Err(failure.clone());
        }
        let Some(source) = &self.source else {
            return Err(invalid(&self.origin, "no code to run".into()));
        };
        let compiled = compile(&self.origin, &self.fingerprint, source).and_then(|code| {
            if code.pre.abi() == self.abi {
                Ok(code)
            } else {
                Err(invalid(
                    &self.origin,
                    format!(
                        "its exports carry ABI {}, its stated info {}",
                        code.pre.abi().as_str(),
                        self.abi.as_str()
                    ),
                ))
            }
        });
        match compiled {
            Ok(code) => {
                let code = Arc::new(code);
                *write(&self.code) = Some(Arc::clone(&code));
                if code.tier == Tier::Baseline {
                    self.baseline_compiled();
                }
                Ok(code)
            }
            Err(error) => {
                let _ = self.compile_failure.set(error.clone());
                Err(error)
            }
        }
    }

    /// The right to compile this plugin. While another call compiles it,
    /// wait within this request's budget: a request that runs out (or is
    /// cancelled) meanwhile says so instead of waiting for the compile.
    fn compile_lock(&self) -> Result<std::sync::MutexGuard<'_, ()>, PluginError> {
        let budget = lingo_model::budget::current();
        loop {
            match self.compiling.try_lock() {
                Ok(guard) => return Ok(guard),
                Err(std::sync::TryLockError::Poisoned(poisoned)) => {
                    return Ok(poisoned.into_inner());
                }
                Err(std::sync::TryLockError::WouldBlock) => {
                    if let Some(budget) = &budget {
                        budget.check().map_err(PluginError::Exhausted)?;
                    }
                    std::thread::sleep(COMPILE_WAIT_STEP);
                }
            }
        }
    }

    fn instantiate(&self) -> Result<Instance, PluginError> {
        let code = self.code()?;
        let mut store = SandboxState::store(&code.engine, &self.limits);
        let instantiated = match &code.pre {
            Pre::V0_17_0(pre) => pre.instantiate(&mut store).map(Bindings::V0_17_0),
            Pre::V0_16_0(pre) => pre.instantiate(&mut store).map(Bindings::V0_16_0),
        };
        match instantiated {
            Ok(bindings) => Ok(Instance {
                store,
                bindings,
                tier: code.tier,
            }),
            Err(error) => Err(self.classify(error, store.data())),
        }
    }

    /// Run `f` on an instance within the call's deadline (the call timeout,
    /// plus the allowance for `source_bytes` of input, and never past the
    /// request's deadline). An instance whose call failed at the wasm level
    /// is dropped, never reused. Every failure is noted on the request.
    fn call<R>(
        &self,
        key: health::Key,
        source_bytes: usize,
        f: impl FnOnce(&mut Store<SandboxState>, &Bindings) -> wasmtime::Result<R>,
    ) -> Result<R, PluginError> {
        let result = self.call_once(&key, source_bytes, f);
        if let Err(error) = &result {
            lingo_model::budget::note_loss(error.to_string());
        }
        result
    }

    fn call_once<R>(
        &self,
        key: &health::Key,
        source_bytes: usize,
        f: impl FnOnce(&mut Store<SandboxState>, &Bindings) -> wasmtime::Result<R>,
    ) -> Result<R, PluginError> {
        let budget = lingo_model::budget::current();
        if let Some(budget) = &budget {
            budget.check().map_err(PluginError::Exhausted)?;
        }
        self.health.admit(key)?;
        self.health.called();
        let idle = self.lock_idle().pop();
        let mut instance = match idle {
            Some(instance) => instance,
            None => self.instantiate().inspect_err(|e| {
                self.health.failed(key, e);
            })?,
        };
        let timeout = if key.operation == operation::RESOLVE_IMPORT {
            self.limits.call_timeout.min(self.limits.lookup_timeout)
        } else {
            self.limits.timeout_for(source_bytes)
        };
        let state = instance.store.data_mut();
        state.begin_call(timeout, budget);
        let first = state.first_check();
        instance.store.set_epoch_deadline(first);
        let result = f(&mut instance.store, &instance.bindings);
        match result {
            Ok(value) => {
                self.health.succeeded(key);
                self.give_back(instance);
                Ok(value)
            }
            Err(error) => {
                let error = self.classify(error, instance.store.data());
                tracing::warn!(plugin = %self.info.name, operation = key.operation, %error, "plugin instance discarded");
                self.health.failed(key, &error);
                Err(error)
            }
        }
    }

    fn lock_idle(&self) -> std::sync::MutexGuard<'_, Vec<Instance>> {
        lingo_model::sync::lock(&self.idle)
    }

    /// Pool an instance, unless the pool is full, the instance grew beyond
    /// `pooled_memory_bytes`, or the instances together hold more than half
    /// of their budget (idle memory must not starve running calls).
    fn give_back(&self, instance: Instance) {
        if Some(instance.tier) != self.tier() {
            return;
        }
        let held = instance.store.data().memory.held();
        if held > self.limits.pooled_memory_bytes
            || self.limits.memory.used() > self.limits.total_memory_bytes / 2
        {
            tracing::debug!(plugin = %self.info.name, held, "plugin instance dropped instead of pooled");
            return;
        }
        let mut idle = self.lock_idle();
        if idle.len() < self.limits.pool_size.max(1) {
            idle.push(instance);
        }
    }

    /// The plugin's health: calls, failures by code, the last error,
    /// tripped operations, the pool and the shared memory budget.
    pub fn health(&self) -> PluginHealth {
        let idle = self.lock_idle().len();
        let mut report = self.health.report(
            idle,
            (self.limits.memory.used(), self.limits.total_memory_bytes),
        );
        report.code_tier = self.tier();
        report.tier_up_failure = lingo_model::sync::lock(&self.tier_up_failure).clone();
        report
    }

    /// Record a failure found outside a call (facts that broke the rules),
    /// so that `health` shows it.
    pub fn note_failure(&self, operation: &'static str, error: &PluginError) {
        self.health.note(operation, error);
    }

    /// The limits this plugin runs under.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Linear memory of all the instances sharing this plugin's budget.
    pub fn memory_budget(&self) -> &MemoryBudget {
        &self.limits.memory
    }

    /// What a failed call (or instantiation) means, from the error and
    /// what the store recorded: the epoch callback's reason to stop, a
    /// refused memory growth, the trap, and the plugin's stderr.
    fn classify(&self, error: wasmtime::Error, state: &SandboxState) -> PluginError {
        let plugin = self.info.name.clone();
        let trap = error.downcast_ref::<Trap>().copied();
        if trap == Some(Trap::Interrupt) {
            match state.call.stopped {
                Some(Stop::Cancelled) => {
                    return PluginError::Exhausted(lingo_model::budget::Exhausted::Cancelled);
                }
                Some(Stop::RequestDeadline) => {
                    return PluginError::Exhausted(
                        lingo_model::budget::Exhausted::DeadlineExceeded,
                    );
                }
                Some(Stop::Timeout) | None => {
                    return PluginError::Timeout {
                        plugin,
                        limit: state.call.limit(),
                    };
                }
            }
        }
        // wasmtime refuses to copy an answer beyond its host-call budget:
        // the plugin reported more than any file can legitimately hold.
        let text = format!("{error:#}");
        if text.contains("too much data is being copied") {
            return PluginError::InvalidOutput {
                plugin,
                rules: vec![
                    "the answer is too large to copy out of the plugin (more facts than the caps of 1M symbols and 4M references allow)"
                        .to_string(),
                ],
            };
        }
        let stderr = state.stderr.contents();
        if let Some(refused) = state.memory.refused {
            return PluginError::OutOfMemory {
                plugin,
                limit_mb: match refused.scope {
                    MemoryScope::Instance => self.limits.memory_bytes >> 20,
                    MemoryScope::AllInstances => self.limits.total_memory_bytes >> 20,
                },
            };
        }
        // The guest's allocator gave up (a growth wasmtime could not make).
        if stderr.contains("memory allocation of") && stderr.contains("failed") {
            return PluginError::OutOfMemory {
                plugin,
                limit_mb: self.limits.memory_bytes >> 20,
            };
        }
        let what = match trap {
            Some(Trap::StackOverflow) => {
                "stack overflow (the input may nest too deeply for the plugin)".to_string()
            }
            Some(Trap::MemoryOutOfBounds) => "out-of-bounds memory access".to_string(),
            Some(Trap::UnreachableCodeReached) => {
                "unreachable code reached (the plugin panicked or aborted)".to_string()
            }
            Some(other) => other.to_string(),
            None => first_line(&format!("{error:#}")),
        };
        let reason = match panic_message(&stderr) {
            Some(panic) => format!("{what}: {}", truncate(&panic, 2000)),
            None => what,
        };
        PluginError::Trapped {
            plugin,
            reason,
            output: stderr,
        }
    }
    fn plugin_error(&self, error: Failure) -> PluginError {
        let plugin = self.info.name.clone();
        match error {
            Failure::Unsupported(operation) => PluginError::Unsupported { plugin, operation },
            Failure::InvalidInput(reason) => PluginError::InvalidInput { plugin, reason },
            Failure::Failed(reason) => PluginError::Failed { plugin, reason },
        }
    }
}

fn truncate(text: &str, max_chars: usize) -> String {
    match text.char_indices().nth(max_chars) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_string(),
    }
}

/// What the SDK's panic message starts with when a plugin's queries do not
/// compile (`lingo_plugin_sdk::query_files::QUERY_ERROR`).
const QUERY_ERROR: &str = "query error in ";

/// Why the plugin at `origin` cannot be loaded, from the failure of its
/// `info()` call: its queries' error, file and line first when the SDK
/// stopped on them; else a component that traps where it should answer.
fn info_failure(origin: &str, error: PluginError) -> PluginError {
    let PluginError::Trapped { reason, output, .. } = error else {
        return error;
    };
    let queries = panic_message(&output).and_then(|panic| {
        let at = panic.find(QUERY_ERROR)?;
        Some(panic[at + QUERY_ERROR.len()..].to_string())
    });
    match queries {
        Some(reason) => PluginError::InvalidQueries {
            file: origin.to_string(),
            reason: truncate(&reason, 2000),
        },
        None => PluginError::InvalidComponent {
            file: origin.to_string(),
            reason: format!("its info() call trapped: {reason}"),
        },
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

fn write<T>(lock: &RwLock<T>) -> std::sync::RwLockWriteGuard<'_, T> {
    lock.write()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The first code of a plugin, as `source.compilation` says: optimized
/// code from the cache, else baseline code when tiered and the platform has
/// it (and it takes the component), else optimized code compiled now.
fn compile(origin: &str, digest: &str, source: &Source) -> Result<Code, PluginError> {
    let optimized = sandbox::engine().map_err(|e| invalid(origin, format!("no engine: {e:#}")))?;
    let cache_dir = source.cache_dir.as_deref();
    if source.compilation == Compilation::Tiered {
        if let Some(component) = cache::load_cached(&optimized, digest, cache_dir) {
            return link(&optimized, &component, Tier::Optimized, origin);
        }
        let started = std::time::Instant::now();
        let baseline = sandbox::engine_for(Tier::Baseline).and_then(|engine| {
            let component = super::compile_pool::compile(&engine, &source.wasm)?;
            Ok((engine, component))
        });
        match baseline {
            Ok((engine, component)) => {
                tracing::debug!(%origin, seconds = started.elapsed().as_secs_f64(), "baseline code compiled");
                return link(&engine, &component, Tier::Baseline, origin);
            }
            Err(error) => {
                tracing::debug!(%origin, error = %format!("{error:#}"), "no baseline code; compiling optimized code now");
            }
        }
    }
    optimized_code(&optimized, &source.wasm, digest, cache_dir, origin)
}

/// Optimized code of `wasm` (whose digest is `digest`): loaded from the
/// cache, or compiled and cached; then linked.
fn optimized_code(
    engine: &Engine,
    wasm: &[u8],
    digest: &str,
    cache_dir: Option<&Path>,
    origin: &str,
) -> Result<Code, PluginError> {
    let component = cache::load_or_compile(engine, wasm, digest, cache_dir)
        .map_err(|e| invalid(origin, format!("{e:#}")))?;
    link(engine, &component, Tier::Optimized, origin)
}

fn invalid(origin: &str, reason: String) -> PluginError {
    PluginError::InvalidComponent {
        file: origin.to_string(),
        reason,
    }
}

/// Refuse bytes that are not a component before compiling them.
fn check_header(origin: &str, wasm: &[u8]) -> Result<(), PluginError> {
    if wasmparser_is_component(wasm) {
        Ok(())
    } else {
        Err(invalid(
            origin,
            "the file is not a WebAssembly component (wrong header)".into(),
        ))
    }
}

/// Check the ABI of a compiled component and pre-link it with WASI.
fn link(
    engine: &Engine,
    component: &Component,
    tier: Tier,
    origin: &str,
) -> Result<Code, PluginError> {
    let abi = check_abi(engine, component, origin)?;
    let mut linker = Linker::new(engine);
    wasmtime_wasi::p2::add_to_linker_sync(&mut linker)
        .map_err(|e| invalid(origin, format!("{e:#}")))?;
    let pre = linker.instantiate_pre(component).map_err(|e| {
        invalid(
            origin,
            format!("cannot be linked (it may import more than WASI): {e:#}"),
        )
    })?;
    let pre = match abi {
        AbiVersion::V0_17_0 => v0_17_0::LanguagePluginPre::new(pre).map(Pre::V0_17_0),
        AbiVersion::V0_16_0 => v0_16_0::LanguagePluginPre::new(pre).map(Pre::V0_16_0),
    }
    .map_err(|e| invalid(origin, format!("{e:#}")))?;
    Ok(Code {
        engine: engine.clone(),
        pre,
        tier,
    })
}

impl Pre {
    fn abi(&self) -> AbiVersion {
        match self {
            Pre::V0_17_0(_) => AbiVersion::V0_17_0,
            Pre::V0_16_0(_) => AbiVersion::V0_16_0,
        }
    }
}

/// A component's preamble: `\0asm`, then version 0x0d and layer 1.
fn wasmparser_is_component(bytes: &[u8]) -> bool {
    bytes.len() >= 8 && &bytes[0..4] == b"\0asm" && bytes[6..8] == [1, 0]
}

/// An ABI version the host has bindings for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum AbiVersion {
    V0_17_0,
    V0_16_0,
}

impl AbiVersion {
    fn parse(version: &str) -> Option<Self> {
        match version {
            "0.17.0" => Some(AbiVersion::V0_17_0),
            "0.16.0" => Some(AbiVersion::V0_16_0),
            _ => None,
        }
    }

    fn as_str(self) -> &'static str {
        match self {
            AbiVersion::V0_17_0 => "0.17.0",
            AbiVersion::V0_16_0 => "0.16.0",
        }
    }
}

/// The ABI version a component's `lingo:plugin` exports carry; refuse one
/// the host has no bindings for, or exports of several versions.
fn check_abi(
    engine: &Engine,
    component: &Component,
    origin: &str,
) -> Result<AbiVersion, PluginError> {
    let ty = component.component_type();
    let versions: Vec<String> = ty
        .exports(engine)
        .filter_map(|(name, _)| name.strip_prefix(ABI_PACKAGE).map(str::to_string))
        .filter_map(|rest| rest.split_once('@').map(|(_, v)| v.to_string()))
        .collect();
    let Some(found) = versions.first() else {
        return Err(PluginError::InvalidComponent {
            file: origin.to_string(),
            reason: "it does not export the lingo:plugin interfaces (is it a lingo plugin?)".into(),
        });
    };
    if let Some(other) = versions.iter().find(|v| *v != found) {
        return Err(PluginError::InvalidComponent {
            file: origin.to_string(),
            reason: format!(
                "it exports lingo:plugin interfaces of several versions ({found} and {other})"
            ),
        });
    }
    match AbiVersion::parse(found) {
        Some(version) if SUPPORTED_ABI.contains(&version.as_str()) => Ok(version),
        _ => Err(PluginError::IncompatibleAbi {
            file: origin.to_string(),
            found: found.clone(),
            supported: SUPPORTED_ABI.join(", "),
        }),
    }
}

impl LanguagePlugin for WasmPlugin {
    fn info(&self) -> &PluginInfo {
        &self.info
    }

    fn health(&self) -> Option<PluginHealth> {
        Some(WasmPlugin::health(self))
    }

    fn note_failure(&self, operation: &'static str, error: &PluginError) {
        WasmPlugin::note_failure(self, operation, error)
    }

    fn origin(&self) -> &str {
        &self.origin
    }

    fn fingerprint(&self) -> &str {
        &self.fingerprint
    }

    fn analyze_expanding(
        &self,
        path: &str,
        source: &str,
        manifests: &[Manifest],
        macros: &[MacroSource],
    ) -> Result<FileFacts, PluginError> {
        let key = health::Key::document(operation::ANALYZE, path, source);
        let reports_entry_points = self.info.has_capability(ENTRY_POINTS_CAPABILITY);
        let given_bytes: usize = macros.iter().map(|m| m.text.len()).sum();
        self.call(key, source.len() + given_bytes, |store, b| {
            Ok(per_version!(b, b => {
                let wit_manifests: Vec<_> = manifests.iter().map(Into::into).collect();
                let syntax = b.lingo_plugin_syntax();
                let document = syntax.document();
                let doc = document.call_constructor(&mut *store, path, source)?;
                conv::expand(&document, &mut *store, doc, macros)?;
                let language = document.call_language(&mut *store, doc)?;
                let symbols = document.call_symbols(&mut *store, doc)?;
                let references = document.call_references(&mut *store, doc)?;
                let imports = document.call_imports(&mut *store, doc)?;
                let locals = document.call_locals(&mut *store, doc)?;
                let diagnostics = document.call_diagnostics(&mut *store, doc)?;
                let metrics = document.call_metrics(&mut *store, doc)?;
                let declared_types = conv::declared_types(&document, &mut *store, doc)?;
                let parameter_lists = conv::parameter_lists(&document, &mut *store, doc)?;
                let call_arguments = conv::call_arguments(&document, &mut *store, doc)?;
                let symbol_values = conv::symbol_values(&document, &mut *store, doc)?;
                let narrowings = conv::narrowings(&document, &mut *store, doc)?;
                let parameter_contexts =
                    conv::parameter_contexts(&document, &mut *store, doc)?;
                let entry_points = if reports_entry_points {
                    Some(conv::entry_points(&document, &mut *store, doc)?)
                } else {
                    None
                };
                let made = conv::macros(&document, &mut *store, doc)?;
                let modules = b.lingo_plugin_modules().call_module_of(
                    &mut *store,
                    doc,
                    path,
                    &wit_manifests,
                )?;
                doc.resource_drop(&mut *store)?;
                FileFacts {
                    language,
                    symbols: symbols.into_iter().map(Into::into).collect(),
                    references: references.into_iter().map(Into::into).collect(),
                    imports: imports.into_iter().map(Into::into).collect(),
                    locals: locals.into_iter().map(Into::into).collect(),
                    diagnostics: diagnostics.into_iter().map(Into::into).collect(),
                    metrics: metrics.into_iter().map(Into::into).collect(),
                    modules: modules.into_iter().map(Into::into).collect(),
                    declared_types,
                    parameter_lists,
                    call_arguments,
                    symbol_values,
                    narrowings,
                    parameter_contexts,
                    entry_points,
                    macro_definitions: made.definitions,
                    unexpanded_macros: made.unexpanded,
                    macros_given: macros.iter().map(|m| (m.name.clone(), m.path.clone())).collect(),
                    macros_digest: lingo_model::macros_digest(macros),
                    // Made by the index, which knows the earlier analysis.
                    routed_invocations: Vec::new(),
                }
            }))
        })
    }

    fn resolve_import(
        &self,
        importer: &ModuleIdentity,
        import_path: &str,
        manifests: &[Manifest],
    ) -> Result<Vec<String>, PluginError> {
        self.call(
            health::Key::operation(operation::RESOLVE_IMPORT),
            0,
            |store, b| {
                per_version!(b, b => {
                    let wit_manifests: Vec<_> = manifests.iter().map(Into::into).collect();
                    b.lingo_plugin_modules().call_resolve_import(
                        store,
                        &importer.into(),
                        import_path,
                        &wit_manifests,
                    )
                })
            },
        )
    }

    /// Edits that add an import to `source` (for the refactoring planner).
    fn render_import(
        &self,
        path: &str,
        source: &str,
        module_path: &str,
        names: &[String],
    ) -> EditsResult {
        let result =
            self.with_document(operation::RENDER_IMPORT, path, source, |store, b, doc| {
                Ok(per_version!(b, b => b
                    .lingo_plugin_edits()
                    .call_render_import(store, doc, module_path, names)?
                    .map(|edits| edits.into_iter().map(conv::edit).collect())
                    .map_err(Failure::from)))
            })?;
        result.map_err(|e| self.plugin_error(e))
    }

    /// Edits that re-export `names` of `module_path` from `source` (ABI
    /// 0.8.0 on; earlier plugins cannot render one).
    fn render_reexport(
        &self,
        path: &str,
        source: &str,
        module_path: &str,
        names: &[String],
    ) -> EditsResult {
        let result =
            self.with_document(operation::RENDER_REEXPORT, path, source, |store, b, doc| {
                Ok(per_version!(b, b => b
                    .lingo_plugin_edits()
                    .call_render_reexport(store, doc, module_path, names)?
                    .map(|edits| edits.into_iter().map(conv::edit).collect())
                    .map_err(Failure::from)))
            })?;
        result.map_err(|e| self.plugin_error(e))
    }

    /// Edits that remove an import from `source`.
    fn remove_import(
        &self,
        path: &str,
        source: &str,
        module_path: &str,
        name: Option<&str>,
    ) -> EditsResult {
        let result =
            self.with_document(operation::REMOVE_IMPORT, path, source, |store, b, doc| {
                Ok(per_version!(b, b => b
                    .lingo_plugin_edits()
                    .call_remove_import(store, doc, module_path, name)?
                    .map(|edits| edits.into_iter().map(conv::edit).collect())
                    .map_err(Failure::from)))
            })?;
        result.map_err(|e| self.plugin_error(e))
    }

    fn declaration_extent(
        &self,
        path: &str,
        source: &str,
        span: &Span,
    ) -> Result<(u32, u32), PluginError> {
        let result = self.with_document(
            operation::DECLARATION_EXTENT,
            path,
            source,
            |store, b, doc| {
                per_version!(b, b => Ok(b
                    .lingo_plugin_edits()
                    .call_declaration_extent(store, doc, conv::span(span))?
                    .map(|s| (s.start.offset, s.end.offset))
                    .map_err(Failure::from)))
            },
        )?;
        result.map_err(|e| self.plugin_error(e))
    }

    fn place_declaration(
        &self,
        source: (&str, &str),
        span: &Span,
        target: (&str, &str),
        target_module: &str,
    ) -> EditsResult {
        let key = health::Key::document(operation::PLACE_DECLARATION, source.0, source.1);
        let bytes = source.1.len() + target.1.len();
        let result = self.call(key, bytes, |store, b| {
            per_version!(b, b => {
                let document = b.lingo_plugin_syntax().document();
                let from = document.call_constructor(&mut *store, source.0, source.1)?;
                let into = document.call_constructor(&mut *store, target.0, target.1)?;
                let edits = b.lingo_plugin_edits().call_place_declaration(
                    &mut *store,
                    from,
                    conv::span(span),
                    into,
                    target_module,
                )?;
                from.resource_drop(&mut *store)?;
                into.resource_drop(&mut *store)?;
                Ok(edits
                    .map(|edits| edits.into_iter().map(conv::edit).collect())
                    .map_err(Failure::from))
            })
        })?;
        result.map_err(|e| self.plugin_error(e))
    }

    fn import_specifier(
        &self,
        importer: &ModuleIdentity,
        target: &ModuleIdentity,
        manifests: &[Manifest],
    ) -> Result<String, PluginError> {
        let result = self.call(
            health::Key::operation(operation::IMPORT_SPECIFIER),
            0,
            |store, b| {
                per_version!(b, b => {
                    let wit_manifests: Vec<_> = manifests.iter().map(Into::into).collect();
                    Ok(b.lingo_plugin_modules()
                        .call_import_specifier(store, &importer.into(), &target.into(), &wit_manifests)?
                        .map_err(Failure::from))
                })
            },
        )?;
        result.map_err(|e| self.plugin_error(e))
    }

    fn module_declarers(&self, path: &str) -> Result<Vec<String>, PluginError> {
        let mut declarers = self.call(
            health::Key::operation(operation::MODULE_DECLARERS),
            path.len(),
            |store, b| per_version!(b, b => b.lingo_plugin_modules().call_module_declarers(store, path)),
        )?;
        // Candidates the host looks up, not paths it opens: a few, short.
        declarers.retain(|d| !d.is_empty() && d.len() <= MAX_DECLARER_BYTES);
        declarers.truncate(MAX_DECLARERS);
        Ok(declarers)
    }

    fn declare_module(&self, (parent, text): (&str, &str), path: &str) -> EditsResult {
        let result =
            self.with_document(operation::DECLARE_MODULE, parent, text, |store, b, doc| {
                Ok(per_version!(b, b => b
                    .lingo_plugin_edits()
                    .call_declare_module(store, doc, path)?
                    .map(|edits| edits.into_iter().map(conv::edit).collect())
                    .map_err(Failure::from)))
            })?;
        result.map_err(|e| self.plugin_error(e))
    }

    fn write_out_shorthand(
        &self,
        path: &str,
        source: &str,
        name: &Span,
        member: &str,
        value: &str,
    ) -> EditsResult {
        let operation = operation::WRITE_OUT_SHORTHAND;
        let result = self.with_document(operation, path, source, |store, b, doc| {
            Ok(match b {
                Bindings::V0_17_0(b) => b
                    .lingo_plugin_edits()
                    .call_write_out_shorthand(
                        store,
                        doc,
                        convert::v0_17_0::span(name),
                        member,
                        value,
                    )?
                    .map(|edits| edits.into_iter().map(convert::v0_17_0::edit).collect())
                    .map_err(Failure::from),
                // Added in 0.17.0.
                Bindings::V0_16_0(_) => Err(Failure::Unsupported(operation.into())),
            })
        })?;
        result.map_err(|e| self.plugin_error(e))
    }

    fn tokens(&self, path: &str, source: &str) -> Result<Vec<Token>, PluginError> {
        if !self.info.has_capability(TOKENS_CAPABILITY) {
            return Err(self.unsupported(operation::TOKENS));
        }
        let result = self.with_document(operation::TOKENS, path, source, |store, b, doc| {
            Ok(per_version!(b, b => Ok(b
                    .lingo_plugin_syntax()
                    .document()
                    .call_tokens(store, doc)?
                    .into_iter()
                    .map(conv::token)
                    .collect())))
        })?;
        result.map_err(|e| self.plugin_error(e))
    }

    fn unreachable(&self, path: &str, source: &str) -> Result<Vec<Span>, PluginError> {
        if !self.info.has_capability(UNREACHABLE_CAPABILITY) {
            return Err(self.unsupported(operation::UNREACHABLE));
        }
        let result =
            self.with_document(operation::UNREACHABLE, path, source, |store, b, doc| {
                Ok(per_version!(b, b => Ok(b
                        .lingo_plugin_syntax()
                        .document()
                        .call_unreachable(store, doc)?
                        .into_iter()
                        .map(Into::into)
                        .collect())))
            })?;
        result.map_err(|e| self.plugin_error(e))
    }

    fn node_at(
        &self,
        path: &str,
        source: &str,
        offset: u32,
    ) -> Result<Vec<SyntaxNode>, PluginError> {
        self.with_document(operation::NODE_AT, path, source, |store, b, doc| {
            Ok(per_version!(b, b => b
                .lingo_plugin_syntax()
                .document()
                .call_node_at(store, doc, offset)?
                .into_iter()
                .map(Into::into)
                .collect()))
        })
    }
}

impl WasmPlugin {
    /// Parse `source` into a document, run `f` on it, and drop it.
    fn with_document<R>(
        &self,
        operation: &'static str,
        path: &str,
        source: &str,
        f: impl FnOnce(&mut Store<SandboxState>, &Bindings, ResourceAny) -> wasmtime::Result<R>,
    ) -> Result<R, PluginError> {
        let key = health::Key::document(operation, path, source);
        self.call(key, source.len(), |store, b| {
            let doc = per_version!(b, b => b
                .lingo_plugin_syntax()
                .document()
                .call_constructor(&mut *store, path, source)?);
            let out = f(&mut *store, b, doc)?;
            doc.resource_drop(&mut *store)?;
            Ok(out)
        })
    }
}

/// Byte-range edits of a document, or why the plugin could not make them.
pub type EditsResult = Result<Vec<(u32, u32, String)>, PluginError>;

#[cfg(test)]
mod tests {
    use super::*;

    fn trapped(stderr: &str) -> PluginError {
        PluginError::Trapped {
            plugin: "toy.wasm".into(),
            reason: "unreachable code reached (the plugin panicked or aborted)".into(),
            output: stderr.into(),
        }
    }

    #[test]
    fn a_query_error_at_load_is_reported_as_one() {
        let stderr = "\nthread '<unnamed>' panicked at src/lib.rs:47:9:\n\
                      query error in symbols.scm line 13: unknown capture @nmae (known: \
                      @definition.<tag>, @name)\n\
                      note: run with `RUST_BACKTRACE=1` for a backtrace\n";
        let error = info_failure("toy.wasm", trapped(stderr));
        assert_eq!(error.code(), "PLUGIN_INVALID");
        assert_eq!(
            error.to_string(),
            "query error in symbols.scm line 13: unknown capture @nmae (known: \
             @definition.<tag>, @name) (plugin toy.wasm)"
        );
    }

    #[test]
    fn another_trap_at_load_is_an_invalid_component() {
        let stderr = "thread '<unnamed>' panicked at src/lib.rs:1:1:\nindex out of bounds\n";
        let error = info_failure("toy.wasm", trapped(stderr));
        assert!(
            error.to_string().starts_with(
                "toy.wasm: not a valid WebAssembly component: its info() call trapped"
            ),
            "{error}"
        );
        let timeout = PluginError::Timeout {
            plugin: "toy".into(),
            limit: std::time::Duration::from_secs(1),
        };
        assert!(matches!(
            info_failure("toy.wasm", timeout),
            PluginError::Timeout { .. }
        ));
    }
}
