//! Refreshes in the background, shared by concurrent requests: a request
//! asks for a refresh that starts after it arrived, waits for it a bounded
//! time, and otherwise answers from the last snapshot. Requests that arrive
//! while a refresh runs share one follow-up refresh.

use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Run numbers of refreshes asked for and done.
#[derive(Debug, Default)]
struct State {
    /// Runs started so far (the running one included).
    started: u64,
    /// Runs finished so far.
    completed: u64,
    running: bool,
    /// A request arrived during the running refresh: run once more.
    pending: bool,
    /// When the last run started.
    last_start: Option<Instant>,
}

/// Coordinates the background refresh worker with the requests.
#[derive(Debug, Default)]
pub struct Refresher {
    state: Mutex<State>,
    finished: Condvar,
}

/// What [`Refresher::request`] tells its caller.
pub struct Ticket {
    /// The run whose completion makes the index fresh for this request.
    pub run: u64,
    /// The caller must start the worker (none is running).
    pub start_worker: bool,
}

impl Refresher {
    fn lock(&self) -> MutexGuard<'_, State> {
        lingo_model::sync::lock(&self.state)
    }

    /// Ask for a refresh that starts now or later.
    pub fn request(&self) -> Ticket {
        let mut state = self.lock();
        if state.running {
            state.pending = true;
            Ticket {
                run: state.started + 1,
                start_worker: false,
            }
        } else {
            state.running = true;
            state.started += 1;
            state.last_start = Some(Instant::now());
            Ticket {
                run: state.started,
                start_worker: true,
            }
        }
    }

    /// The worker finished a run; returns whether it must run again.
    pub fn finished(&self) -> bool {
        let mut state = self.lock();
        state.completed = state.started;
        self.finished.notify_all();
        if state.pending {
            state.pending = false;
            state.started += 1;
            state.last_start = Some(Instant::now());
            true
        } else {
            state.running = false;
            false
        }
    }

    /// Wait until run `run` finished, `timeout` passed or the current
    /// request was cancelled; whether it finished. A cancelled request
    /// stops waiting within [`CHECK_INTERVAL`](lingo_model::budget::CHECK_INTERVAL), so that it gives back its
    /// project's slot and its thread instead of holding them for the
    /// whole wait.
    pub fn wait(&self, run: u64, timeout: Duration) -> bool {
        let budget = lingo_model::budget::current();
        let deadline = Instant::now() + timeout;
        let mut state = self.lock();
        loop {
            if state.completed >= run {
                return true;
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() || budget.as_ref().is_some_and(|b| b.is_cancelled()) {
                return false;
            }
            let slice = lingo_model::budget::wait_slice(budget.as_deref(), Some(left));
            state = lingo_model::sync::wait(&self.finished, state, slice);
        }
    }

    /// Whether a refresh is running now.
    pub fn is_running(&self) -> bool {
        self.lock().running
    }

    /// Whether no refresh is running or asked for and the last one started
    /// less than `interval` ago: a request may take the last snapshot as
    /// fresh without a refresh of its own.
    pub fn settled_within(&self, interval: Duration) -> bool {
        let state = self.lock();
        !state.running
            && state.completed == state.started
            && state.last_start.is_some_and(|at| at.elapsed() < interval)
    }

    /// Whether no refresh is running or asked for and at least one ran.
    pub fn settled(&self) -> bool {
        let state = self.lock();
        !state.running && state.completed == state.started && state.completed > 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_during_a_run_share_one_follow_up() {
        let refresher = Refresher::default();
        let first = refresher.request();
        assert!(first.start_worker);
        assert_eq!(first.run, 1);
        let second = refresher.request();
        let third = refresher.request();
        assert!(!second.start_worker && !third.start_worker);
        assert_eq!((second.run, third.run), (2, 2));
        assert!(!refresher.wait(2, Duration::from_millis(1)));
        assert!(refresher.finished(), "the follow-up runs");
        assert!(refresher.wait(1, Duration::ZERO));
        assert!(!refresher.finished(), "nothing more to do");
        assert!(refresher.wait(2, Duration::ZERO));
        assert!(!refresher.is_running());
        assert!(refresher.settled());
        assert!(refresher.settled_within(Duration::from_secs(60)));
        assert!(!refresher.settled_within(Duration::ZERO));
    }

    #[test]
    fn a_cancelled_request_stops_waiting_and_another_waits_on() {
        let refresher = std::sync::Arc::new(Refresher::default());
        let run = refresher.request().run;
        let budget = lingo_model::budget::Budget::new(Some(Duration::from_secs(60)));
        let waiting = {
            let (refresher, budget) = (refresher.clone(), budget.clone());
            std::thread::spawn(move || {
                let started = Instant::now();
                let finished = budget.scope(|| refresher.wait(run, Duration::from_secs(30)));
                (finished, started.elapsed())
            })
        };
        std::thread::sleep(Duration::from_millis(100));
        budget.cancel();
        let (finished, took) = waiting.join().unwrap();
        assert!(!finished, "the run did not finish");
        assert!(
            took < Duration::from_secs(5),
            "stopped waiting after {took:?}"
        );
        // A request that was not cancelled still waits its whole bound.
        let other = lingo_model::budget::Budget::new(Some(Duration::from_secs(60)));
        let started = Instant::now();
        assert!(!other.scope(|| refresher.wait(run, Duration::from_millis(300))));
        assert!(started.elapsed() >= Duration::from_millis(300));
        // And a finished run ends every wait.
        assert!(!refresher.finished());
        assert!(other.scope(|| refresher.wait(run, Duration::from_secs(30))));
    }

    #[test]
    fn nothing_is_settled_before_the_first_run_or_during_one() {
        let refresher = Refresher::default();
        assert!(!refresher.settled());
        assert!(!refresher.settled_within(Duration::from_secs(60)));
        refresher.request();
        assert!(!refresher.settled(), "a run is under way");
        assert!(!refresher.finished());
        assert!(refresher.settled());
    }
}
