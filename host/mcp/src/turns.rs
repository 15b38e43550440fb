//! Turns to run tool calls: at most [`tool_threads`] at once, process-wide,
//! given in the order the calls arrived.

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, LazyLock};
use std::task::{Context, Poll, Waker};

use tokio::sync::{AcquireError, OwnedSemaphorePermit, Semaphore};

/// How many tool calls run at once, process-wide (all projects, both
/// transports): two per core, at least 4 (so that two long analyses leave
/// room for navigation) and at most 64. The calls are CPU work on a few
/// cores; more threads than that only add their stacks and allocator heaps
/// (128 calls on 128 threads held 350 MB more on a 1M-line tree; 8 turns
/// on 2 cores peaked 24 MB above 4, at the same throughput) and share the
/// cores less fairly. The others wait their turn, in arrival order, within
/// their deadline.
pub fn tool_threads() -> usize {
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    (cores * 2).clamp(4, 64)
}

/// The turns of [`tool_threads`].
static TOOL_TURNS: LazyLock<Arc<Semaphore>> =
    LazyLock::new(|| Arc::new(Semaphore::new(tool_threads())));

type Acquire = Pin<Box<dyn Future<Output = Result<OwnedSemaphorePermit, AcquireError>> + Send>>;

/// A call's place in the line for a turn.
pub(crate) struct Turn(Place);

enum Place {
    /// Not in line: the call joins it when it first waits for a turn.
    NotInLine,
    /// In line since the call arrived.
    InLine(Acquire),
    /// A turn was free when the call arrived.
    Held(OwnedSemaphorePermit),
}

impl Turn {
    /// A place in line taken now, as the request is read. The tasks of
    /// calls that arrive together are first run in the order the scheduler
    /// picks, not in arrival order (a burst of 128 calls was served up to
    /// 60 places out of order, and the last of them twice as late as the
    /// rest), so the place is taken before the call's task exists.
    pub(crate) fn take_place() -> Turn {
        let mut acquire: Acquire = Box::pin(TOOL_TURNS.clone().acquire_owned());
        // The first poll joins the line; the call's task polls it again
        // with its own waker, which then replaces this one.
        match acquire
            .as_mut()
            .poll(&mut Context::from_waker(Waker::noop()))
        {
            Poll::Ready(Ok(permit)) => Turn(Place::Held(permit)),
            Poll::Pending => Turn(Place::InLine(acquire)),
            // A finished future is never polled again; `taken` asks anew
            // (and says why it cannot be had).
            Poll::Ready(Err(_)) => Turn(Place::NotInLine),
        }
    }

    /// No place yet: the call joins the line when it waits for its turn.
    pub(crate) fn when_needed() -> Turn {
        Turn(Place::NotInLine)
    }

    /// Wait for the turn; it is given back when the permit is dropped.
    pub(crate) async fn taken(self) -> OwnedSemaphorePermit {
        let taken = match self.0 {
            Place::NotInLine => TOOL_TURNS.clone().acquire_owned().await,
            Place::InLine(acquire) => acquire.await,
            Place::Held(permit) => Ok(permit),
        };
        taken.expect("the turns are never closed")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Places taken in order are served in that order, whatever order the
    /// waiting tasks are first polled in.
    #[test]
    fn turns_are_given_in_the_order_places_were_taken() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("a runtime");
        runtime.block_on(async {
            // Hold every turn so that the places below wait.
            let mut held = Vec::new();
            for _ in 0..tool_threads() {
                held.push(Turn::when_needed().taken().await);
            }
            let places: Vec<Turn> = (0..8).map(|_| Turn::take_place()).collect();
            let (order, served) = std::sync::mpsc::channel();
            let mut tasks = Vec::new();
            // Spawned, and so first polled, last place first.
            for (index, place) in places.into_iter().enumerate().rev() {
                let order = order.clone();
                tasks.push(tokio::spawn(async move {
                    let turn = place.taken().await;
                    order.send(index).expect("the receiver lives");
                    tokio::task::yield_now().await;
                    drop(turn);
                }));
            }
            tokio::task::yield_now().await; // every task now waits
            drop(held);
            for task in tasks {
                task.await.expect("no panic");
            }
            let served: Vec<usize> = served.try_iter().collect();
            assert_eq!(served, (0..8).collect::<Vec<_>>());
        });
    }
}
