//! Plugin code compiled on a thread pool of its own, entered from a thread
//! of its own that the caller waits for.
//!
//! A plugin is compiled at its first call, which may come from a task of
//! rayon's global pool (the graph build resolving imports) while it holds
//! the plugin's compile lock and other tasks wait for that lock. wasmtime
//! spreads a compile over the rayon pool it is called in: on the global
//! pool, a worker waiting inside the compile could run one of those tasks
//! and block on the lock its own thread holds. Here the compile's tasks
//! run only on this pool's workers, which run nothing else, and the caller
//! waits in a plain `join`, which runs no other task meanwhile.

use std::sync::OnceLock;

use wasmtime::Engine;
use wasmtime::component::Component;

/// Compile `wasm` for `engine` on the compile pool, using every core.
pub fn compile(engine: &Engine, wasm: &[u8]) -> wasmtime::Result<Component> {
    let Some(pool) = pool() else {
        // No pool could be started: on the calling thread alone.
        return Component::new(engine, wasm);
    };
    std::thread::scope(|scope| {
        let compiling = std::thread::Builder::new()
            .name("lingo-compile".into())
            .spawn_scoped(scope, || pool.install(|| Component::new(engine, wasm)));
        match compiling {
            Ok(handle) => handle
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            Err(_) => Component::new(engine, wasm),
        }
    })
}

/// The pool, one worker per core, started at the first compile.
fn pool() -> Option<&'static rayon::ThreadPool> {
    static POOL: OnceLock<Option<rayon::ThreadPool>> = OnceLock::new();
    POOL.get_or_init(|| {
        rayon::ThreadPoolBuilder::new()
            .thread_name(|i| format!("lingo-compile-{i}"))
            .build()
            .map_err(|error| tracing::warn!(%error, "no compile pool; compiling on one thread"))
            .ok()
    })
    .as_ref()
}
