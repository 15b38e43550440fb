//! Per-request budgets: one deadline and one cancellation flag shared by
//! all the work a request does (plugin calls included), the record of
//! what that work lost to plugin failures, and where its progress goes
//! (MCP `notifications/progress` when the client sent a `progressToken`,
//! a progress bar on the terminal for the CLI).
//!
//! A request's handler runs inside [`Budget::scope`]; code below it (the
//! plugin runtime, long loops in tools) asks [`current`] or [`check`]
//! without the budget being threaded through every signature. Threads a
//! request spawns carry it over with [`current`] and [`Budget::scope`].

use std::cell::RefCell;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// How often work that waits on other work (a refresh, a shared build)
/// looks whether its request was cancelled or ran out of time.
pub const CHECK_INTERVAL: Duration = Duration::from_millis(50);

/// How long a wait with `left` to go (`None`: no bound of its own) may
/// block before it looks at its request again (`budget`, if any).
pub fn wait_slice(budget: Option<&Budget>, left: Option<Duration>) -> Option<Duration> {
    match (budget, left) {
        (Some(_), Some(left)) => Some(left.min(CHECK_INTERVAL)),
        (Some(_), None) => Some(CHECK_INTERVAL),
        (None, left) => left,
    }
}

/// Reasons kept per request; beyond this only the count grows.
const MAX_REASONS: usize = 16;

/// Why a request's work stopped early.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Exhausted {
    #[error("the request was cancelled by the client")]
    Cancelled,
    #[error("the request ran out of its time budget")]
    DeadlineExceeded,
}

/// The budget of one request.
#[derive(Debug)]
pub struct Budget {
    deadline: Option<Instant>,
    cancelled: AtomicBool,
    /// Plugin failures met while answering (bounded).
    lost: Mutex<Vec<String>>,
    lost_count: AtomicUsize,
    /// Set when the answer comes from an index a refresh is still updating.
    refreshing: Mutex<Option<serde_json::Value>>,
    /// Where progress reports go, when someone listens.
    progress: Mutex<Option<ProgressState>>,
}

/// Where a request's progress goes.
pub type ProgressSink = Arc<dyn Fn(&Progress) + Send + Sync>;

/// One progress report: a number that grows with every report of the
/// request (MCP requires it), the total when known, and what is being done.
#[derive(Debug, Clone, PartialEq)]
pub struct Progress {
    pub progress: u64,
    pub total: Option<u64>,
    pub message: String,
}

/// The least time between two reports of one request (the last step of a
/// task is always reported).
const PROGRESS_INTERVAL: Duration = Duration::from_millis(100);

/// A sink and what it was last sent.
struct ProgressState {
    sink: ProgressSink,
    /// The task being reported and the progress its steps start from.
    task: String,
    base: u64,
    /// The last progress sent, and when.
    sent: u64,
    sent_at: Option<Instant>,
}

impl std::fmt::Debug for ProgressState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProgressState")
            .field("task", &self.task)
            .field("sent", &self.sent)
            .finish_non_exhaustive()
    }
}

thread_local! {
    static CURRENT: RefCell<Option<Arc<Budget>>> = const { RefCell::new(None) };
}

impl Budget {
    /// A budget that ends `timeout` from now (`None`: no deadline).
    pub fn new(timeout: Option<Duration>) -> Arc<Budget> {
        Arc::new(Budget {
            deadline: timeout.map(|t| Instant::now() + t),
            cancelled: AtomicBool::new(false),
            lost: Mutex::new(Vec::new()),
            lost_count: AtomicUsize::new(0),
            refreshing: Mutex::new(None),
            progress: Mutex::new(None),
        })
    }

    /// Send this request's progress reports to `sink`.
    pub fn report_progress_to(&self, sink: ProgressSink) {
        *crate::sync::lock(&self.progress) = Some(ProgressState {
            sink,
            task: String::new(),
            base: 0,
            sent: 0,
            sent_at: None,
        });
    }

    /// `done` of `total` steps of `task`: sent on when someone listens, at
    /// most every [`PROGRESS_INTERVAL`] (and always at a task's last
    /// step). Each task's steps count on from where the one before ended,
    /// so the progress sent only grows.
    pub fn progress(&self, task: &str, done: u64, total: u64) {
        let mut state = crate::sync::lock(&self.progress);
        let Some(state) = state.as_mut() else { return };
        if state.task != task {
            state.task = task.to_string();
            state.base = state.sent;
        }
        let progress = state.base + done.min(total);
        let last = done >= total;
        let due = state
            .sent_at
            .is_none_or(|at| at.elapsed() >= PROGRESS_INTERVAL);
        if progress <= state.sent && state.sent_at.is_some() || !(due || last) {
            return;
        }
        state.sent = progress;
        state.sent_at = Some(Instant::now());
        (state.sink)(&Progress {
            progress,
            total: (state.base == 0).then_some(total),
            message: format!("{task}: {done} of {total}"),
        });
    }

    /// Run `f` with this budget as the thread's current one.
    pub fn scope<R>(self: &Arc<Self>, f: impl FnOnce() -> R) -> R {
        enter(Some(self.clone()), f)
    }

    /// Stop the request's remaining work.
    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::Relaxed);
    }

    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::Relaxed)
    }

    /// Time left, `None` when there is no deadline.
    pub fn remaining(&self) -> Option<Duration> {
        self.deadline
            .map(|d| d.saturating_duration_since(Instant::now()))
    }

    /// Whether work may go on.
    pub fn check(&self) -> Result<(), Exhausted> {
        if self.is_cancelled() {
            return Err(Exhausted::Cancelled);
        }
        if self.remaining().is_some_and(|r| r.is_zero()) {
            return Err(Exhausted::DeadlineExceeded);
        }
        Ok(())
    }

    /// Record that the answer lost work (a plugin call failed).
    pub fn note_loss(&self, reason: impl Into<String>) {
        self.lost_count.fetch_add(1, Ordering::Relaxed);
        let mut lost = crate::sync::lock(&self.lost);
        if lost.len() < MAX_REASONS {
            let reason = reason.into();
            if !lost.contains(&reason) {
                lost.push(reason);
            }
        }
    }

    /// How many losses were noted, and their distinct reasons (bounded).
    pub fn losses(&self) -> (usize, Vec<String>) {
        let lost = crate::sync::lock(&self.lost);
        (self.lost_count.load(Ordering::Relaxed), lost.clone())
    }
}

impl Budget {
    /// Record that the answer was read from an index still being refreshed
    /// (`detail` says which generation and how far indexing got).
    pub fn note_refreshing(&self, detail: serde_json::Value) {
        *crate::sync::lock(&self.refreshing) = Some(detail);
    }

    /// What [`Budget::note_refreshing`] recorded, if anything.
    pub fn refreshing(&self) -> Option<serde_json::Value> {
        crate::sync::lock(&self.refreshing).clone()
    }
}

/// Run `f` with `budget` as the thread's current budget (`None`: detached
/// work, such as a build shared by every request of a generation).
pub fn enter<R>(budget: Option<Arc<Budget>>, f: impl FnOnce() -> R) -> R {
    struct Restore(Option<Arc<Budget>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let previous = self.0.take();
            CURRENT.with(|c| *c.borrow_mut() = previous);
        }
    }
    let previous = CURRENT.with(|c| std::mem::replace(&mut *c.borrow_mut(), budget));
    let _restore = Restore(previous);
    f()
}

/// The budget of the request this thread works for, if any.
pub fn current() -> Option<Arc<Budget>> {
    CURRENT.with(|c| c.borrow().clone())
}

/// Whether the current request may go on (always, outside a request).
pub fn check() -> Result<(), Exhausted> {
    CURRENT.with(|c| c.borrow().as_ref().map_or(Ok(()), |b| b.check()))
}

/// Report progress of the current request, if there is one (see
/// [`Budget::progress`]).
pub fn progress(task: &str, done: u64, total: u64) {
    if let Some(budget) = current() {
        budget.progress(task, done, total);
    }
}

/// Record a loss on the current request, if there is one.
pub fn note_loss(reason: impl Into<String>) {
    if let Some(budget) = current() {
        budget.note_loss(reason);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scope_sets_and_restores_the_current_budget() {
        assert!(current().is_none());
        let budget = Budget::new(Some(Duration::from_secs(60)));
        budget.scope(|| {
            assert!(current().is_some());
            enter(None, || assert!(current().is_none()));
            assert!(current().is_some());
            note_loss("plugin `x` timed out");
            note_loss("plugin `x` timed out");
        });
        assert!(current().is_none());
        assert_eq!(
            budget.losses(),
            (2, vec!["plugin `x` timed out".to_string()])
        );
    }

    #[test]
    fn cancellation_and_deadline_stop_work() {
        let budget = Budget::new(Some(Duration::from_secs(60)));
        assert_eq!(budget.check(), Ok(()));
        budget.cancel();
        assert_eq!(budget.check(), Err(Exhausted::Cancelled));
        let expired = Budget::new(Some(Duration::ZERO));
        assert_eq!(expired.check(), Err(Exhausted::DeadlineExceeded));
        assert_eq!(Budget::new(None).remaining(), None);
    }

    #[test]
    fn progress_only_grows_across_tasks_and_is_throttled() {
        let sent: Arc<Mutex<Vec<Progress>>> = Arc::new(Mutex::new(Vec::new()));
        let budget = Budget::new(None);
        // Nobody listens: nothing happens.
        budget.progress("lexing", 1, 3);
        let log = sent.clone();
        budget.report_progress_to(Arc::new(move |p| log.lock().unwrap().push(p.clone())));
        budget.progress("lexing", 1, 3);
        budget.progress("lexing", 2, 3); // within the interval: skipped
        budget.progress("lexing", 3, 3); // a task's end: sent
        budget.progress("clones", 1, 2); // within the interval: skipped
        budget.progress("clones", 2, 2);
        let sent = sent.lock().unwrap();
        let numbers: Vec<(u64, Option<u64>)> = sent.iter().map(|p| (p.progress, p.total)).collect();
        assert_eq!(numbers, [(1, Some(3)), (3, Some(3)), (5, None)]);
        assert_eq!(sent[2].message, "clones: 2 of 2");
    }
}
