//! The sandbox: engine configuration, per-store limits and the epoch ticker.

use std::sync::OnceLock;
use std::time::Duration;

use wasmtime::component::ResourceTable;
use wasmtime::{Config, Engine, StoreLimits, StoreLimitsBuilder};
use wasmtime_wasi::{WasiCtx, WasiCtxView, WasiView};

/// How often the epoch advances; deadlines are counted in these ticks.
pub const EPOCH_TICK: Duration = Duration::from_millis(10);

/// Resource limits of one plugin call.
#[derive(Debug, Clone)]
pub struct Limits {
    /// Linear memory a plugin instance may hold, in bytes.
    pub memory_bytes: usize,
    /// Wall-clock budget of one call into a plugin.
    pub call_timeout: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            memory_bytes: 512 << 20,
            call_timeout: Duration::from_secs(10),
        }
    }
}

impl Limits {
    pub fn deadline_ticks(&self) -> u64 {
        (self.call_timeout.as_millis() / EPOCH_TICK.as_millis()).max(1) as u64
    }
}

/// The per-store state: a WASI context that grants nothing, and the limits.
pub struct SandboxState {
    wasi: WasiCtx,
    table: ResourceTable,
    pub limits: StoreLimits,
}

impl SandboxState {
    pub fn new(limits: &Limits) -> Self {
        // No arguments, no environment, no preopened directories, no
        // sockets; stdin is empty and stdout/stderr are discarded (stdout is
        // the MCP protocol channel).
        let wasi = WasiCtx::builder().build();
        SandboxState {
            wasi,
            table: ResourceTable::new(),
            limits: StoreLimitsBuilder::new()
                .memory_size(limits.memory_bytes)
                .trap_on_grow_failure(true)
                .instances(16)
                .build(),
        }
    }
}

impl WasiView for SandboxState {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView {
            ctx: &mut self.wasi,
            table: &mut self.table,
        }
    }
}

/// The shared engine: component model, epoch interruption, a ticker thread.
pub fn engine() -> anyhow::Result<Engine> {
    static ENGINE: OnceLock<Engine> = OnceLock::new();
    if let Some(engine) = ENGINE.get() {
        return Ok(engine.clone());
    }
    let mut config = Config::new();
    config.wasm_component_model(true);
    config.epoch_interruption(true);
    let engine = Engine::new(&config).map_err(|e| anyhow::anyhow!("{e:#}"))?;
    let engine = ENGINE.get_or_init(|| {
        let ticker = engine.weak();
        std::thread::Builder::new()
            .name("lingo-epoch".into())
            .spawn(move || {
                while let Some(engine) = ticker.upgrade() {
                    engine.increment_epoch();
                    drop(engine);
                    std::thread::sleep(EPOCH_TICK);
                }
            })
            .expect("spawn epoch ticker");
        engine
    });
    Ok(engine.clone())
}
