//! A plugin's health: call and failure counts, the last error, and a
//! circuit breaker per operation.
//!
//! An operation that failed at the wasm level (timeout, trap, out of
//! memory) [`BreakerConfig::threshold`] times in a row is not called again
//! for [`BreakerConfig::cooldown`]: calls fail fast with PLUGIN_UNAVAILABLE.
//! Operations on a document are tracked per input (path and text), so that
//! one pathological file does not stop the analysis of the others; the
//! others (`resolve-import`) per operation.
//! After the cooldown one trial call goes through; its success closes the
//! breaker, its failure opens it for another cooldown. Typed errors the
//! plugin returns (unsupported, invalid input) are answers, not failures.

use std::collections::{BTreeMap, HashMap};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::PluginError;
use super::sandbox::Tier;

/// Inputs tracked at most; beyond, breakers that are not open are dropped.
const MAX_BREAKERS: usize = 1024;

/// Failures newer than this make a plugin unhealthy.
pub const RECENT_FAILURE: Duration = Duration::from_secs(60);

/// When an operation's breaker opens, and for how long.
#[derive(Debug, Clone, Copy)]
pub struct BreakerConfig {
    /// Consecutive failures that open the breaker (0: never).
    pub threshold: u32,
    pub cooldown: Duration,
}

/// What a plugin's calls did, for `health_check`.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PluginHealth {
    /// No operation is tripped and no call failed in the last minute.
    pub healthy: bool,
    /// Calls made into the plugin (fast failures not included).
    pub calls: u64,
    /// Calls that failed at the wasm level, and calls refused by a breaker
    /// or the request's budget, by error code.
    pub failures: BTreeMap<String, u64>,
    pub last_error: Option<LastError>,
    /// Operations not called for now.
    pub tripped: Vec<TrippedOperation>,
    /// Instances waiting in the pool.
    pub idle_instances: usize,
    /// Linear memory held by all plugin instances sharing the budget.
    pub instance_memory_bytes: usize,
    pub memory_budget_bytes: usize,
    /// Which compiler the code serving calls came from: `baseline` while
    /// a server compiles the optimized code in the background, else
    /// `optimized`; absent until the plugin's first call compiles it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code_tier: Option<Tier>,
    /// Why the optimized code could not replace the baseline code.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tier_up_failure: Option<String>,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LastError {
    pub operation: String,
    pub code: String,
    pub message: String,
    pub seconds_ago: u64,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TrippedOperation {
    pub operation: String,
    /// The input it failed on, for operations on a document.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input: Option<String>,
    pub consecutive_failures: u32,
    /// When a trial call will be let through (0: now).
    pub retry_in_ms: u64,
    pub last_error: String,
}

#[derive(Debug, Default)]
struct Breaker {
    consecutive: u32,
    open_until: Option<Instant>,
    trial_in_flight: bool,
    last_error: String,
}

#[derive(Debug, Default)]
struct State {
    calls: u64,
    failures: BTreeMap<&'static str, u64>,
    last_error: Option<(Instant, &'static str, &'static str, String)>,
    last_fault: Option<Instant>,
    breakers: HashMap<Key, Breaker>,
}

/// What a breaker watches: an operation, and for operations on a document
/// the input (a label, e.g. the path, and a hash of path and text).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Key {
    pub operation: &'static str,
    pub input: Option<(String, u64)>,
}

impl Key {
    pub fn operation(operation: &'static str) -> Self {
        Key {
            operation,
            input: None,
        }
    }

    pub fn document(operation: &'static str, path: &str, source: &str) -> Self {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        path.hash(&mut hasher);
        source.hash(&mut hasher);
        Key {
            operation,
            input: Some((path.chars().take(200).collect(), hasher.finish())),
        }
    }
}

/// The health record of one plugin.
#[derive(Debug)]
pub struct Health {
    plugin: String,
    config: BreakerConfig,
    state: Mutex<State>,
}

/// Whether an error is the plugin's fault at the wasm level (the instance
/// was dropped), as opposed to an answer or a request running out.
pub fn is_fault(error: &PluginError) -> bool {
    matches!(
        error,
        PluginError::Timeout { .. } | PluginError::OutOfMemory { .. } | PluginError::Trapped { .. }
    )
}

impl Health {
    pub fn new(plugin: &str, config: BreakerConfig) -> Self {
        Health {
            plugin: plugin.to_string(),
            config,
            state: Mutex::new(State::default()),
        }
    }

    /// Rename once the plugin has said who it is.
    pub fn set_plugin(&mut self, plugin: &str) {
        self.plugin = plugin.to_string();
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        lingo_model::sync::lock(&self.state)
    }

    /// May `operation` be called now? A refusal is counted.
    pub fn admit(&self, key: &Key) -> Result<(), PluginError> {
        let now = Instant::now();
        let mut state = self.lock();
        let Some(breaker) = state.breakers.get_mut(key) else {
            return Ok(());
        };
        let Some(open_until) = breaker.open_until else {
            return Ok(());
        };
        if now >= open_until && !breaker.trial_in_flight {
            breaker.trial_in_flight = true;
            return Ok(());
        }
        let on = match &key.input {
            Some((label, _)) => format!(" on `{label}`"),
            None => String::new(),
        };
        let reason = if breaker.trial_in_flight {
            format!(
                "it failed {} times in a row{on} (last: {}); a trial call is under way",
                breaker.consecutive, breaker.last_error
            )
        } else {
            format!(
                "it failed {} times in a row{on} (last: {}); it is tried again in {} s",
                breaker.consecutive,
                breaker.last_error,
                open_until.saturating_duration_since(now).as_secs() + 1
            )
        };
        let error = PluginError::Unavailable {
            plugin: self.plugin.clone(),
            operation: key.operation.to_string(),
            reason,
        };
        *state.failures.entry(error.code()).or_default() += 1;
        Err(error)
    }

    /// A call was made (whatever its outcome).
    pub fn called(&self) {
        self.lock().calls += 1;
    }

    /// Calls made so far.
    pub fn calls(&self) -> u64 {
        self.lock().calls
    }

    /// The call of `operation` returned (values or typed errors).
    pub fn succeeded(&self, key: &Key) {
        let mut state = self.lock();
        if let Some(breaker) = state.breakers.remove(key)
            && breaker.open_until.is_some()
        {
            tracing::info!(plugin = %self.plugin, operation = key.operation, "plugin operation works again");
        }
    }

    /// The call of `operation` failed with `error`.
    pub fn failed(&self, key: &Key, error: &PluginError) {
        let now = Instant::now();
        let operation = key.operation;
        let mut state = self.lock();
        let code = error.code();
        *state.failures.entry(code).or_default() += 1;
        state.last_error = Some((now, operation, code, error.to_string()));
        if !is_fault(error) {
            // The request ran out or was cancelled mid-call: neither counts
            // against the plugin, but a trial call must not stay in flight.
            if let Some(breaker) = state.breakers.get_mut(key) {
                breaker.trial_in_flight = false;
            }
            return;
        }
        state.last_fault = Some(now);
        if state.breakers.len() >= MAX_BREAKERS && !state.breakers.contains_key(key) {
            state.breakers.retain(|_, b| b.open_until.is_some());
            if state.breakers.len() >= MAX_BREAKERS {
                return;
            }
        }
        let breaker = state.breakers.entry(key.clone()).or_default();
        breaker.consecutive += 1;
        breaker.last_error = error.to_string();
        let was_trial = std::mem::take(&mut breaker.trial_in_flight);
        let threshold = self.config.threshold;
        if threshold > 0 && (was_trial || breaker.consecutive >= threshold) {
            breaker.open_until = Some(now + self.config.cooldown);
            tracing::warn!(
                plugin = %self.plugin,
                operation,
                failures = breaker.consecutive,
                cooldown_s = self.config.cooldown.as_secs(),
                "plugin operation tripped: calls fail fast until the cooldown ends"
            );
        }
    }

    /// A failure noted from outside a call (facts that broke the rules).
    pub fn note(&self, operation: &'static str, error: &PluginError) {
        let now = Instant::now();
        let mut state = self.lock();
        *state.failures.entry(error.code()).or_default() += 1;
        state.last_error = Some((now, operation, error.code(), error.to_string()));
    }

    /// The record, without the pool and memory figures.
    pub fn report(&self, idle_instances: usize, memory: (usize, usize)) -> PluginHealth {
        let now = Instant::now();
        let state = self.lock();
        let mut tripped: Vec<TrippedOperation> = state
            .breakers
            .iter()
            .filter_map(|(key, breaker)| {
                let open_until = breaker.open_until?;
                Some(TrippedOperation {
                    operation: key.operation.to_string(),
                    input: key.input.as_ref().map(|(label, _)| label.clone()),
                    consecutive_failures: breaker.consecutive,
                    retry_in_ms: open_until.saturating_duration_since(now).as_millis() as u64,
                    last_error: breaker.last_error.clone(),
                })
            })
            .collect();
        tripped.sort_by(|a, b| (&a.operation, &a.input).cmp(&(&b.operation, &b.input)));
        let recent_fault = state
            .last_fault
            .is_some_and(|at| now.duration_since(at) < RECENT_FAILURE);
        PluginHealth {
            healthy: tripped.is_empty() && !recent_fault,
            calls: state.calls,
            failures: state
                .failures
                .iter()
                .map(|(code, n)| (code.to_string(), *n))
                .collect(),
            last_error: state
                .last_error
                .as_ref()
                .map(|(at, operation, code, message)| LastError {
                    operation: operation.to_string(),
                    code: code.to_string(),
                    message: message.clone(),
                    seconds_ago: now.duration_since(*at).as_secs(),
                }),
            tripped,
            idle_instances,
            instance_memory_bytes: memory.0,
            memory_budget_bytes: memory.1,
            code_tier: None,
            tier_up_failure: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn timeout() -> PluginError {
        PluginError::Timeout {
            plugin: "p".into(),
            limit: Duration::from_secs(1),
        }
    }

    #[test]
    fn three_faults_in_a_row_trip_the_operation_until_a_trial_succeeds() {
        let health = Health::new(
            "p",
            BreakerConfig {
                threshold: 3,
                cooldown: Duration::from_millis(200),
            },
        );
        let resolve = Key::operation("resolve-import");
        for _ in 0..2 {
            health.admit(&resolve).unwrap();
            health.failed(&resolve, &timeout());
        }
        // A success in between resets the count.
        health.succeeded(&resolve);
        for _ in 0..3 {
            health.admit(&resolve).unwrap();
            health.failed(&resolve, &timeout());
        }
        let refused = health.admit(&resolve).unwrap_err();
        assert_eq!(refused.code(), "PLUGIN_UNAVAILABLE");
        assert!(
            refused.to_string().contains("failed 3 times in a row"),
            "{refused}"
        );
        // Other operations are not affected.
        health.admit(&Key::operation("analyze")).unwrap();
        let report = health.report(0, (0, 0));
        assert!(!report.healthy);
        assert_eq!(report.tripped.len(), 1);
        assert_eq!(report.tripped[0].operation, "resolve-import");
        assert_eq!(report.failures["PLUGIN_TIMEOUT"], 5);
        assert_eq!(report.failures["PLUGIN_UNAVAILABLE"], 1);

        std::thread::sleep(Duration::from_millis(250));
        // One trial call; others still fail fast while it runs.
        health.admit(&resolve).unwrap();
        health.admit(&resolve).unwrap_err();
        health.failed(&resolve, &timeout());
        // The failed trial opens the breaker again at once.
        health.admit(&resolve).unwrap_err();
        std::thread::sleep(Duration::from_millis(250));
        health.admit(&resolve).unwrap();
        health.succeeded(&resolve);
        health.admit(&resolve).unwrap();
        assert!(health.report(0, (0, 0)).tripped.is_empty());
    }

    #[test]
    fn operations_on_a_document_trip_for_that_input_only() {
        let health = Health::new(
            "p",
            BreakerConfig {
                threshold: 2,
                cooldown: Duration::from_secs(30),
            },
        );
        let bad = Key::document("analyze", "a.rs", "fn loop");
        for _ in 0..2 {
            health.admit(&bad).unwrap();
            health.failed(&bad, &timeout());
        }
        let refused = health.admit(&bad).unwrap_err();
        assert!(refused.to_string().contains("on `a.rs`"), "{refused}");
        health
            .admit(&Key::document("analyze", "b.rs", "fn ok"))
            .unwrap();
        // The same path with other text is another input.
        health
            .admit(&Key::document("analyze", "a.rs", "fn fixed"))
            .unwrap();
        let report = health.report(0, (0, 0));
        assert_eq!(report.tripped[0].input.as_deref(), Some("a.rs"));
    }

    #[test]
    fn answers_and_exhausted_requests_do_not_count_against_the_plugin() {
        let health = Health::new(
            "p",
            BreakerConfig {
                threshold: 1,
                cooldown: Duration::from_secs(30),
            },
        );
        health.failed(
            &Key::operation("render-import"),
            &PluginError::Exhausted(lingo_model::budget::Exhausted::DeadlineExceeded),
        );
        health.admit(&Key::operation("render-import")).unwrap();
        assert!(health.report(0, (0, 0)).healthy);
    }
}
