//! Per-thread scratch buffers for the bytes a refresh reads and drops at
//! once (a file's text before it is kept as `str`, a stored row's encoded
//! facts before they are decoded).
//!
//! Freed memory goes back to the system at once (`main.rs`), so a fresh
//! buffer per file was fresh pages per file, each one a page fault: on a
//! warm start over 3,017 files the refresh threads spent about a quarter of
//! their time in page faults. A buffer reused by its thread is faulted in
//! once.

use std::cell::RefCell;

/// A buffer that grew past this is given back after use rather than kept:
/// one huge file does not pin its size for the thread's lifetime.
const KEPT_CAPACITY: usize = 4 << 20;

thread_local! {
    static SCRATCH: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Run `f` with this thread's scratch buffer, emptied. A nested call (the
/// buffer already lent out) gets a fresh buffer of its own.
pub fn with_scratch<R>(f: impl FnOnce(&mut Vec<u8>) -> R) -> R {
    SCRATCH.with(|cell| match cell.try_borrow_mut() {
        Ok(mut buffer) => {
            buffer.clear();
            let result = f(&mut buffer);
            if buffer.capacity() > KEPT_CAPACITY {
                *buffer = Vec::new();
            }
            result
        }
        Err(_) => f(&mut Vec::new()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_buffer_is_reused_empty_and_a_nested_call_gets_its_own() {
        let first = with_scratch(|buffer| {
            buffer.extend_from_slice(b"facts");
            buffer.as_ptr() as usize
        });
        let (second, nested) = with_scratch(|buffer| {
            assert!(buffer.is_empty(), "emptied before each use");
            buffer.push(1);
            let nested = with_scratch(|inner| {
                assert!(inner.is_empty());
                inner.as_ptr() as usize
            });
            (buffer.as_ptr() as usize, nested)
        });
        assert_eq!(first, second, "the same allocation, kept between uses");
        assert_ne!(second, nested);
    }

    #[test]
    fn a_buffer_grown_past_the_kept_size_is_given_back() {
        with_scratch(|buffer| buffer.resize(KEPT_CAPACITY + 1, 0));
        with_scratch(|buffer| assert_eq!(buffer.capacity(), 0));
    }
}
