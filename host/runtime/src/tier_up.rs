//! The background compile of optimized plugin code: a server's plugins
//! that run on baseline code are given optimized code one at a time, the
//! one the workspace has called most first.

use std::sync::{Arc, Condvar, Mutex, Weak};
use std::time::{Duration, Instant};

use crate::sandbox::Tier;
use crate::wasm::WasmPlugin;

/// Wakes the tier-up thread and those waiting for it.
#[derive(Default)]
pub(crate) struct TierUp {
    state: Mutex<State>,
    changed: Condvar,
}

#[derive(Default)]
struct State {
    /// A plugin got baseline code since the thread last looked.
    pending: bool,
    /// The registry is gone: the thread ends.
    stop: bool,
    /// The thread is compiling.
    busy: bool,
}

impl TierUp {
    /// A plugin now runs on baseline code.
    pub(crate) fn baseline_compiled(&self) {
        lingo_model::sync::lock(&self.state).pending = true;
        self.changed.notify_all();
    }

    /// End the thread after the compile it is in, if any.
    pub(crate) fn stop(&self) {
        lingo_model::sync::lock(&self.state).stop = true;
        self.changed.notify_all();
    }

    /// The thread's body: wait for plugins on baseline code and give each
    /// its optimized code, the most called first; until [`TierUp::stop`].
    /// The plugins are held weakly: a dropped registry's plugins go.
    pub(crate) fn run(self: Arc<Self>, plugins: Vec<Weak<WasmPlugin>>) {
        loop {
            {
                let mut state = lingo_model::sync::lock(&self.state);
                while !state.pending && !state.stop {
                    state = self
                        .changed
                        .wait(state)
                        .unwrap_or_else(|poisoned| poisoned.into_inner());
                }
                if state.stop {
                    return;
                }
                state.pending = false;
                state.busy = true;
            }
            while let Some(plugin) = most_called_on_baseline(&plugins) {
                let started = Instant::now();
                match plugin.tier_up() {
                    Ok(()) => tracing::info!(
                        plugin = %plugin.info_name(),
                        seconds = started.elapsed().as_secs_f64(),
                        "optimized plugin code in use"
                    ),
                    Err(error) => tracing::warn!(
                        plugin = %plugin.info_name(),
                        %error,
                        "optimized plugin code failed; the baseline code keeps serving"
                    ),
                }
                self.changed.notify_all();
                if lingo_model::sync::lock(&self.state).stop {
                    return;
                }
            }
            lingo_model::sync::lock(&self.state).busy = false;
            self.changed.notify_all();
        }
    }

    /// Wait until no plugin of `plugins` runs on baseline code whose
    /// optimized code may still come, or `limit` has passed.
    pub(crate) fn wait_idle(&self, plugins: &[Weak<WasmPlugin>], limit: Duration) {
        let deadline = Instant::now() + limit;
        let mut state = lingo_model::sync::lock(&self.state);
        loop {
            let waiting = state.pending || state.busy || most_called_on_baseline(plugins).is_some();
            let now = Instant::now();
            if !waiting || state.stop || now >= deadline {
                return;
            }
            // Bounded waits: a plugin may get baseline code between the
            // look and the wait.
            let step = (deadline - now).min(Duration::from_millis(100));
            state = self
                .changed
                .wait_timeout(state, step)
                .map(|(state, _)| state)
                .unwrap_or_else(|poisoned| poisoned.into_inner().0);
        }
    }
}

/// The plugin on baseline code whose optimized code has not failed, with
/// the most calls (ties: the first).
fn most_called_on_baseline(plugins: &[Weak<WasmPlugin>]) -> Option<Arc<WasmPlugin>> {
    let mut best: Option<(u64, Arc<WasmPlugin>)> = None;
    for plugin in plugins.iter().filter_map(Weak::upgrade) {
        if plugin.tier() != Some(Tier::Baseline) || plugin.tier_up_failed() {
            continue;
        }
        let calls = plugin.calls();
        if best.as_ref().is_none_or(|(most, _)| calls > *most) {
            best = Some((calls, plugin));
        }
    }
    best.map(|(_, plugin)| plugin)
}
