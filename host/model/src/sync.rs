//! Locking that one panic cannot turn into a poisoned server: every mutex
//! in the host guards data that is replaced or appended whole, so after a
//! panic elsewhere it is still consistent and is used on.

use std::sync::{
    Condvar, Mutex, MutexGuard, PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard,
};
use std::time::Duration;

/// Lock `mutex`, taking it over if a panicking thread left it poisoned.
pub fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Wait on `condvar` with `guard`, at most `timeout` (`None`: until
/// notified), taking the mutex over if a panicking thread left it poisoned.
pub fn wait<'a, T>(
    condvar: &Condvar,
    guard: MutexGuard<'a, T>,
    timeout: Option<Duration>,
) -> MutexGuard<'a, T> {
    match timeout {
        Some(timeout) => match condvar.wait_timeout(guard, timeout) {
            Ok((guard, _)) => guard,
            Err(poisoned) => poisoned.into_inner().0,
        },
        None => condvar.wait(guard).unwrap_or_else(PoisonError::into_inner),
    }
}

/// Read-lock `lock`, taking it over if a panicking writer left it poisoned.
pub fn read<T>(lock: &RwLock<T>) -> RwLockReadGuard<'_, T> {
    lock.read().unwrap_or_else(PoisonError::into_inner)
}

/// Write-lock `lock`, taking it over if a panicking writer left it poisoned.
pub fn write<T>(lock: &RwLock<T>) -> RwLockWriteGuard<'_, T> {
    lock.write().unwrap_or_else(PoisonError::into_inner)
}
