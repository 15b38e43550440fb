//! Locking that one panic cannot turn into a poisoned server: every mutex
//! in the host guards data that is replaced or appended whole, so after a
//! panic elsewhere it is still consistent and is used on.

use std::sync::{Mutex, MutexGuard, PoisonError};

/// Lock `mutex`, taking it over if a panicking thread left it poisoned.
pub fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}
