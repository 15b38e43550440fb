//! The sandbox: engine configuration, per-store limits and the epoch ticker.

use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use wasmtime::component::ResourceTable;
use wasmtime::{Config, Engine, Store, UpdateDeadline};
use wasmtime_wasi::{WasiCtx, WasiCtxView, WasiView};

use super::memory::{MemoryBudget, StoreMemory};
use super::stderr::{STDERR_TAIL_BYTES, StderrTail};
use lingo_model::budget::Budget;

/// How often the epoch advances; deadlines are counted in these ticks.
pub const EPOCH_TICK: Duration = Duration::from_millis(10);
/// A running call looks at its deadline and its request this often (in
/// ticks), so that a cancelled request stops its plugin call promptly.
const CHECK_EVERY_TICKS: u64 = 10;

const MIB: usize = 1 << 20;

/// Resource limits of plugin calls and instances.
#[derive(Debug, Clone)]
pub struct Limits {
    /// Linear memory a plugin instance may hold, in bytes.
    pub memory_bytes: usize,
    /// Wall-clock budget of one call into a plugin.
    pub call_timeout: Duration,
    /// The limit of calls that only look something up (`resolve-import`,
    /// microseconds of work): a plugin that loops there costs little.
    pub lookup_timeout: Duration,
    /// Extra time per MiB of source for the calls that parse a file, so
    /// that large (generated) files are analysed instead of timing out.
    pub time_per_source_mib: Duration,
    /// Linear memory of all plugin instances together, in bytes: counted in
    /// [`Limits::memory`], shared by every clone of these limits.
    pub total_memory_bytes: usize,
    /// Idle instances kept per plugin.
    pub pool_size: usize,
    /// An instance whose linear memory grew beyond this is dropped after its
    /// call instead of going back to the pool.
    pub pooled_memory_bytes: usize,
    /// Consecutive failures (timeouts, traps, out of memory) of one
    /// operation after which it fails fast for `breaker_cooldown`
    /// (0: never).
    pub breaker_threshold: u32,
    pub breaker_cooldown: Duration,
    /// What the plugin instances hold now, against `total_memory_bytes`.
    pub memory: MemoryBudget,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            memory_bytes: 512 * MIB,
            call_timeout: Duration::from_secs(10),
            lookup_timeout: Duration::from_secs(2),
            // Measured (tests/runtime_limits.rs, the Rust plugin under
            // wasmtime, a generated file of small functions, 2 cores shared
            // with other builds): 2.0 MB / 35k functions in 5.2 s, 4.0 MB /
            // 69k functions in 6.9 s, i.e. at most 2.6 s per MiB. Twice that
            // per MiB, on top of the call timeout, leaves room for a busier
            // machine and slower grammars: 4 MB get 10 + 19 s.
            time_per_source_mib: Duration::from_secs(5),
            total_memory_bytes: 2048 * MIB,
            pool_size: std::thread::available_parallelism().map_or(4, |n| n.get()),
            pooled_memory_bytes: 64 * MIB,
            breaker_threshold: 3,
            breaker_cooldown: Duration::from_secs(30),
            memory: MemoryBudget::new(),
        }
    }
}

impl Limits {
    pub fn deadline_ticks(&self) -> u64 {
        ticks(self.call_timeout)
    }

    /// The time limit of a call that parses `source_bytes` of source.
    pub fn timeout_for(&self, source_bytes: usize) -> Duration {
        let mib = source_bytes as f64 / MIB as f64;
        // Whole milliseconds, so that limits read plainly ("1s", "10.5s").
        let extra = self.time_per_source_mib.mul_f64(mib).as_millis() as u64;
        self.call_timeout + Duration::from_millis(extra)
    }
}

fn ticks(duration: Duration) -> u64 {
    (duration.as_millis() / EPOCH_TICK.as_millis()).max(1) as u64
}

/// Why a running call was stopped by the epoch callback.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// The call's own time limit.
    Timeout,
    /// The request's deadline, which came before the call's own.
    RequestDeadline,
    /// The request was cancelled.
    Cancelled,
}

/// The call running in a store: its deadline and its request.
#[derive(Debug, Default)]
pub struct CallWindow {
    /// The call's own time limit.
    timeout: Duration,
    deadline: Option<Instant>,
    /// The deadline is the request's, not the call's own.
    request_bound: bool,
    budget: Option<Arc<Budget>>,
    pub stopped: Option<Stop>,
}

impl CallWindow {
    /// The call's own time limit (what a timeout reports).
    pub fn limit(&self) -> Duration {
        self.timeout
    }

    /// Ticks until the next look, or why the call must stop now.
    fn next_check(&mut self) -> Result<u64, Stop> {
        if self.budget.as_ref().is_some_and(|b| b.is_cancelled()) {
            return Err(Stop::Cancelled);
        }
        let Some(deadline) = self.deadline else {
            return Ok(CHECK_EVERY_TICKS);
        };
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(if self.request_bound {
                Stop::RequestDeadline
            } else {
                Stop::Timeout
            });
        }
        Ok(ticks(left).min(CHECK_EVERY_TICKS))
    }
}

/// The per-store state: a WASI context that grants nothing, the memory
/// accounting, the stderr tail and the running call.
pub struct SandboxState {
    wasi: WasiCtx,
    table: ResourceTable,
    pub memory: StoreMemory,
    pub stderr: StderrTail,
    pub call: CallWindow,
}

impl SandboxState {
    pub fn new(limits: &Limits) -> Self {
        // No arguments, no environment, no preopened directories, no
        // sockets; stdin is empty and stdout is discarded (stdout is the MCP
        // protocol channel). stderr is kept as a bounded tail per call: it
        // holds the panic message that explains a trap.
        let stderr = StderrTail::new(STDERR_TAIL_BYTES);
        let wasi = WasiCtx::builder().stderr(stderr.clone()).build();
        SandboxState {
            wasi,
            table: ResourceTable::new(),
            memory: StoreMemory::new(
                limits.memory.clone(),
                limits.memory_bytes,
                limits.total_memory_bytes,
            ),
            stderr,
            call: CallWindow::default(),
        }
    }

    /// A store with the limiter and the deadline callback installed.
    pub fn store(engine: &Engine, limits: &Limits) -> Store<SandboxState> {
        let mut store = Store::new(engine, SandboxState::new(limits));
        store.limiter(|state| &mut state.memory);
        store.epoch_deadline_callback(|mut context| {
            let call = &mut context.data_mut().call;
            match call.next_check() {
                Ok(ticks) => Ok(UpdateDeadline::Continue(ticks)),
                Err(stop) => {
                    call.stopped = Some(stop);
                    Ok(UpdateDeadline::Interrupt)
                }
            }
        });
        // Instantiation runs start functions: it gets the call timeout.
        store.data_mut().begin_call(limits.call_timeout, None);
        store.set_epoch_deadline(CHECK_EVERY_TICKS);
        store
    }

    /// Start a call of at most `timeout`, within the request's `budget`.
    pub fn begin_call(&mut self, timeout: Duration, budget: Option<Arc<Budget>>) {
        let own = Instant::now() + timeout;
        let request = budget
            .as_ref()
            .and_then(|b| b.remaining())
            .map(|left| Instant::now() + left);
        let (deadline, request_bound) = match request {
            Some(request) if request < own => (request, true),
            _ => (own, false),
        };
        self.call = CallWindow {
            timeout,
            deadline: Some(deadline),
            request_bound,
            budget,
            stopped: None,
        };
        self.memory.refused = None;
        self.stderr.clear();
    }

    /// The first epoch deadline of a call, in ticks.
    pub fn first_check(&mut self) -> u64 {
        self.call.next_check().unwrap_or(1)
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

/// The compiler a plugin's code comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Tier {
    /// Winch, wasmtime's baseline compiler: a plugin compiles in about a
    /// sixth of Cranelift's time, into slower code. Never cached: it only
    /// serves until the optimized code is ready.
    Baseline,
    /// Cranelift: the code the cache keeps and every later start loads.
    Optimized,
}

/// The shared engine of optimized code: component model, epoch
/// interruption, a ticker thread.
pub fn engine() -> anyhow::Result<Engine> {
    engine_for(Tier::Optimized)
}

/// The shared engine of `tier`, configured alike but for the compiler
/// (compiled code belongs to the engine that made it). A platform Winch
/// does not support has no baseline engine.
pub fn engine_for(tier: Tier) -> anyhow::Result<Engine> {
    static OPTIMIZED: OnceLock<Engine> = OnceLock::new();
    static BASELINE: OnceLock<Engine> = OnceLock::new();
    let slot = match tier {
        Tier::Optimized => &OPTIMIZED,
        Tier::Baseline => &BASELINE,
    };
    if let Some(engine) = slot.get() {
        return Ok(engine.clone());
    }
    let mut config = Config::new();
    config.wasm_component_model(true);
    config.epoch_interruption(true);
    if tier == Tier::Baseline {
        config.strategy(wasmtime::Strategy::Winch);
    }
    // Compiles spread over every core, on a pool of their own
    // (`compile_pool.rs`): never on the pool a first call may come from.
    config.parallel_compilation(true);
    // A 32-bit linear memory is reserved whole (the default 4 GiB on 64-bit
    // hosts), so it never needs to move when it grows: compiled code may
    // then keep the memory's base in a register across loops instead of
    // loading it again after every call.
    config.memory_may_move(false);
    // `LINGO_PERFMAP=1` names the compiled plugin code for `perf` in
    // /tmp/perf-<pid>.map (the profiles of bench/speed).
    if std::env::var_os("LINGO_PERFMAP").is_some() {
        config.profiler(wasmtime::ProfilingStrategy::PerfMap);
    }
    let engine = Engine::new(&config).map_err(|e| anyhow::anyhow!("{e:#}"))?;
    let mut created = false;
    let engine = slot.get_or_init(|| {
        created = true;
        engine
    });
    if created {
        // Deadlines are counted in this engine's epochs: one ticker each,
        // for as long as the engine lives (the static keeps it).
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
            .map_err(|e| anyhow::anyhow!("cannot start the epoch ticker: {e}"))?;
    }
    Ok(engine.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_call_deadline_is_the_earlier_of_its_own_and_the_requests() {
        let limits = Limits::default();
        let mut state = SandboxState::new(&limits);
        state.begin_call(Duration::from_secs(10), None);
        assert!(!state.call.request_bound);
        assert_eq!(state.first_check(), CHECK_EVERY_TICKS);

        let request = Budget::new(Some(Duration::from_millis(30)));
        state.begin_call(Duration::from_secs(10), Some(request.clone()));
        assert!(state.call.request_bound);
        assert!(state.first_check() <= 3);
        std::thread::sleep(Duration::from_millis(40));
        assert_eq!(state.call.next_check(), Err(Stop::RequestDeadline));

        let request = Budget::new(Some(Duration::from_secs(60)));
        state.begin_call(Duration::from_millis(1), Some(request.clone()));
        assert!(!state.call.request_bound);
        std::thread::sleep(Duration::from_millis(5));
        assert_eq!(state.call.next_check(), Err(Stop::Timeout));

        state.begin_call(Duration::from_secs(10), Some(request.clone()));
        request.cancel();
        assert_eq!(state.call.next_check(), Err(Stop::Cancelled));
    }

    #[test]
    fn the_time_limit_grows_with_the_source() {
        let limits = Limits {
            call_timeout: Duration::from_secs(10),
            time_per_source_mib: Duration::from_secs(10),
            ..Limits::default()
        };
        assert_eq!(limits.timeout_for(0), Duration::from_secs(10));
        assert_eq!(limits.timeout_for(4 * MIB), Duration::from_secs(50));
        assert_eq!(limits.timeout_for(MIB / 2), Duration::from_secs(15));
        assert_eq!(limits.timeout_for(100), Duration::from_secs(10));
    }
}
