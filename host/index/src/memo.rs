//! Values the layers above the index derive from one snapshot (the name
//! table, the symbol graph), computed once per generation on first use,
//! without the index knowing their types.
//!
//! A build runs on the thread of the request that first asks, under that
//! request's budget; the requests that ask meanwhile wait for it. Every
//! waiter, the builder included, leaves within [`CHECK_INTERVAL`](lingo_model::budget::CHECK_INTERVAL) of its
//! request being cancelled or running out of time, so a shared build never
//! holds a request (and its project's slot) past its budget. A build that
//! stops early is not kept: the next request to ask builds again, and a
//! value is never one made with a request's work cut short.

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::sync::{Arc, Condvar, Mutex};

use lingo_model::budget::Exhausted;
use lingo_model::sync::lock;

/// A value derived from a snapshot.
pub trait Derived: Any + Send + Sync {
    /// Whether the next generation is handed this generation's value to
    /// build its own from (the graph reuses the answers of unchanged files).
    const CARRIED: bool = false;
}

type Value = Arc<dyn Any + Send + Sync>;

/// Where one type's value is in its making.
enum State {
    /// Not built, or its last build stopped early.
    Absent,
    /// A request is building it.
    Building,
    Built(Value),
}

/// A type's slot: its state, a signal for its waiters, whether it is
/// carried.
struct Slot {
    state: Mutex<State>,
    changed: Condvar,
    carried: bool,
}

/// One generation's derived values.
#[derive(Default)]
pub struct Memo {
    /// Per type: its slot.
    values: Mutex<HashMap<TypeId, Arc<Slot>>>,
    /// Carried values of earlier generations, each given up by the first
    /// build of its type in this one that completes.
    earlier: Mutex<HashMap<TypeId, Value>>,
}

/// Puts a slot back to [`State::Absent`] and wakes its waiters if its
/// build ends without a value (stopped early, or unwinding).
struct BuildGuard<'a> {
    slot: &'a Slot,
    done: bool,
}

impl Drop for BuildGuard<'_> {
    fn drop(&mut self) {
        if !self.done {
            *lock(&self.slot.state) = State::Absent;
            self.slot.changed.notify_all();
        }
    }
}

impl Memo {
    /// The memo of the generation after `previous`: empty, but for the
    /// latest carried value of each type.
    pub fn after(previous: &Memo) -> Memo {
        let mut earlier = lock(&previous.earlier).clone();
        for (id, slot) in lock(&previous.values).iter() {
            if let (true, State::Built(value)) = (slot.carried, &*lock(&slot.state)) {
                earlier.insert(*id, value.clone());
            }
        }
        Memo {
            values: Mutex::new(HashMap::new()),
            earlier: Mutex::new(earlier),
        }
    }

    /// The value of type `T`, built by `build` on first use (given the
    /// carried value of an earlier generation, if any). Concurrent callers
    /// wait for the one build; builds of other types may run meanwhile.
    /// A caller leaves with [`Exhausted`] when its request is cancelled or
    /// out of time while it waits, or when its own build stops early for
    /// that reason (`build` returns `Err`); nothing is kept then.
    pub fn get_or_init<T: Derived>(
        &self,
        build: impl FnOnce(Option<Arc<T>>) -> Result<T, Exhausted>,
    ) -> Result<Arc<T>, Exhausted> {
        let id = TypeId::of::<T>();
        let slot = lock(&self.values)
            .entry(id)
            .or_insert_with(|| {
                Arc::new(Slot {
                    state: Mutex::new(State::Absent),
                    changed: Condvar::new(),
                    carried: T::CARRIED,
                })
            })
            .clone();
        let budget = lingo_model::budget::current();
        let mut state = lock(&slot.state);
        loop {
            match &*state {
                State::Built(value) => return Ok(downcast(value)),
                State::Absent => break,
                State::Building => {
                    if let Some(budget) = &budget {
                        budget.check()?;
                    }
                    let slice = lingo_model::budget::wait_slice(budget.as_deref(), None);
                    state = lingo_model::sync::wait(&slot.changed, state, slice);
                }
            }
        }
        *state = State::Building;
        drop(state);
        let mut guard = BuildGuard {
            slot: &slot,
            done: false,
        };
        let earlier = lock(&self.earlier)
            .get(&id)
            .cloned()
            .and_then(|v| v.downcast::<T>().ok());
        let value: Value = Arc::new(build(earlier)?);
        lock(&self.earlier).remove(&id);
        *lock(&slot.state) = State::Built(value.clone());
        guard.done = true;
        slot.changed.notify_all();
        Ok(downcast(&value))
    }

    /// The value of type `T` if it was built.
    pub fn get<T: Derived>(&self) -> Option<Arc<T>> {
        let slot = lock(&self.values).get(&TypeId::of::<T>())?.clone();
        match &*lock(&slot.state) {
            State::Built(value) => Some(downcast(value)),
            _ => None,
        }
    }
}

/// The value a slot of `T` holds.
fn downcast<T: Derived>(value: &Value) -> Arc<T> {
    value
        .clone()
        .downcast::<T>()
        .expect("a memo slot holds the type it is keyed by")
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Plain(u32);
    impl Derived for Plain {}

    struct Carried(u32);
    impl Derived for Carried {
        const CARRIED: bool = true;
    }

    #[test]
    fn values_are_built_once_and_only_carried_ones_reach_the_next_generation() {
        let first = Memo::default();
        assert!(first.get::<Plain>().is_none());
        assert_eq!(first.get_or_init(|_| Ok(Plain(1))).unwrap().0, 1);
        assert_eq!(first.get_or_init(|_| Ok(Plain(2))).unwrap().0, 1);
        assert_eq!(
            first
                .get_or_init(|earlier: Option<Arc<Carried>>| Ok(Carried(
                    earlier.map_or(10, |e| e.0 + 1)
                )))
                .unwrap()
                .0,
            10
        );

        let second = Memo::after(&first);
        assert!(second.get::<Plain>().is_none());
        assert_eq!(
            second
                .get_or_init(|earlier: Option<Arc<Plain>>| Ok(Plain(earlier.map_or(5, |e| e.0))))
                .unwrap()
                .0,
            5
        );
        assert_eq!(
            second
                .get_or_init(|earlier: Option<Arc<Carried>>| Ok(Carried(
                    earlier.map_or(0, |e| e.0 + 1)
                )))
                .unwrap()
                .0,
            11
        );

        // A generation that never built the carried value hands on the
        // earlier one.
        let third = Memo::after(&Memo::after(&second));
        assert_eq!(
            third
                .get_or_init(|earlier: Option<Arc<Carried>>| Ok(Carried(
                    earlier.map_or(0, |e| e.0 + 1)
                )))
                .unwrap()
                .0,
            12
        );
    }

    #[test]
    fn a_build_stopped_early_keeps_nothing_and_the_next_caller_builds_from_the_earlier_value() {
        let first = Memo::default();
        first.get_or_init(|_| Ok(Carried(1))).unwrap();
        let second = Memo::after(&first);
        let stopped = second.get_or_init(|earlier: Option<Arc<Carried>>| {
            assert_eq!(earlier.map(|e| e.0), Some(1));
            Err::<Carried, _>(Exhausted::Cancelled)
        });
        assert_eq!(stopped.err(), Some(Exhausted::Cancelled));
        assert!(second.get::<Carried>().is_none(), "nothing kept");
        // The earlier value is still there for the next build, and a
        // generation after this one still gets it.
        assert!(Memo::after(&second).earlier.lock().unwrap().len() == 1);
        let built = second
            .get_or_init(|earlier: Option<Arc<Carried>>| {
                Ok(Carried(earlier.map_or(0, |e| e.0 + 1)))
            })
            .unwrap();
        assert_eq!(built.0, 2);
        assert!(
            second.earlier.lock().unwrap().is_empty(),
            "given up once built"
        );
    }

    /// A build of `Plain` on a thread of its own, started when this
    /// returns and ending with `outcome` once the sender is sent to.
    fn build_held(
        memo: &Arc<Memo>,
        outcome: Result<u32, Exhausted>,
    ) -> (
        std::thread::JoinHandle<Result<u32, Exhausted>>,
        std::sync::mpsc::Sender<()>,
    ) {
        let (started_tx, started_rx) = std::sync::mpsc::channel();
        let (release_tx, release_rx) = std::sync::mpsc::channel::<()>();
        let memo = memo.clone();
        let builder = std::thread::spawn(move || {
            memo.get_or_init(|_| {
                started_tx.send(()).unwrap();
                release_rx.recv().unwrap();
                outcome.map(Plain)
            })
            .map(|v| v.0)
        });
        started_rx.recv().unwrap();
        (builder, release_tx)
    }

    #[test]
    fn a_waiting_request_leaves_when_cancelled_and_the_build_goes_on_for_the_others() {
        use std::time::{Duration, Instant};

        let memo = Arc::new(Memo::default());
        let (builder, release) = build_held(&memo, Ok(7));

        // A request that waits for the build, and is cancelled.
        let budget = lingo_model::budget::Budget::new(Some(Duration::from_secs(60)));
        let waiter = {
            let (memo, budget) = (memo.clone(), budget.clone());
            std::thread::spawn(move || {
                budget.scope(|| memo.get_or_init(|_| Ok(Plain(0))).map(|v| v.0))
            })
        };
        std::thread::sleep(Duration::from_millis(100));
        let cancelled_at = Instant::now();
        budget.cancel();
        assert_eq!(waiter.join().unwrap(), Err(Exhausted::Cancelled));
        assert!(cancelled_at.elapsed() < Duration::from_secs(2));

        // One whose time runs out while it waits.
        let short = lingo_model::budget::Budget::new(Some(Duration::from_millis(150)));
        assert_eq!(
            short.scope(|| memo.get_or_init(|_| Ok(Plain(0))).map(|v| v.0)),
            Err(Exhausted::DeadlineExceeded)
        );

        // The build was not disturbed: it ends, and its value is everyone's.
        release.send(()).unwrap();
        assert_eq!(builder.join().unwrap(), Ok(7));
        assert_eq!(memo.get_or_init(|_| Ok(Plain(0))).unwrap().0, 7);
    }

    #[test]
    fn a_waiter_takes_over_a_build_that_stopped_early() {
        let memo = Arc::new(Memo::default());
        let (builder, release) = build_held(&memo, Err(Exhausted::DeadlineExceeded));
        let waiter = {
            let memo = memo.clone();
            std::thread::spawn(move || memo.get_or_init(|_| Ok(Plain(3))).map(|v| v.0))
        };
        std::thread::sleep(std::time::Duration::from_millis(100));
        release.send(()).unwrap();
        assert_eq!(builder.join().unwrap(), Err(Exhausted::DeadlineExceeded));
        assert_eq!(waiter.join().unwrap(), Ok(3), "the waiter built it");
    }
}
