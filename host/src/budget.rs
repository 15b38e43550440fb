//! Per-request budgets: one deadline and one cancellation flag shared by
//! all the work a request does (plugin calls included), and the record of
//! what that work lost to plugin failures.
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
        })
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
}
