//! Memory accounting of plugin instances: a cap per instance and one budget
//! for all instances together.
//!
//! Every store gets a [`StoreMemory`] as its `wasmtime::ResourceLimiter`.
//! It reserves each linear-memory growth in the shared [`MemoryBudget`]
//! before wasmtime commits it, refuses growth beyond either limit (the call
//! traps and is reported as PLUGIN_OUT_OF_MEMORY), and gives everything the
//! store held back when the store is dropped.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use wasmtime::ResourceLimiter;

/// Table elements a store may hold (a Rust component has a few thousand).
const MAX_TABLE_ELEMENTS: usize = 1 << 20;
/// Instances per store: a component is made of a handful of core instances.
const MAX_INSTANCES: usize = 16;

/// The linear memory of every plugin instance that shares it, counted in
/// bytes. Cloning shares the count.
#[derive(Debug, Clone, Default)]
pub struct MemoryBudget {
    inner: Arc<Counter>,
}

#[derive(Debug, Default)]
struct Counter {
    used: AtomicUsize,
    peak: AtomicUsize,
}

impl MemoryBudget {
    pub fn new() -> Self {
        Self::default()
    }

    /// Bytes of linear memory held by live instances now.
    pub fn used(&self) -> usize {
        self.inner.used.load(Ordering::Relaxed)
    }

    /// The most ever held at once.
    pub fn peak(&self) -> usize {
        self.inner.peak.load(Ordering::Relaxed)
    }

    /// Reserve `bytes` if the total stays within `limit`.
    fn reserve(&self, bytes: usize, limit: usize) -> bool {
        let reserved = self
            .inner
            .used
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |used| {
                used.checked_add(bytes).filter(|&total| total <= limit)
            });
        match reserved {
            Ok(before) => {
                self.inner.peak.fetch_max(before + bytes, Ordering::Relaxed);
                true
            }
            Err(_) => false,
        }
    }

    fn release(&self, bytes: usize) {
        self.inner.used.fetch_sub(bytes, Ordering::AcqRel);
    }
}

/// Which limit refused a growth.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MemoryScope {
    /// The cap of one instance (`Limits::memory_bytes`).
    Instance,
    /// The budget of all instances together (`Limits::total_memory_bytes`).
    AllInstances,
}

/// A refused growth, kept on the store so the failed call can say why.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("linear memory growth to {desired} bytes refused: {}", match .scope {
    MemoryScope::Instance => format!("over the instance limit of {} MiB", .limit >> 20),
    MemoryScope::AllInstances => format!("the plugin instances together would exceed their budget of {} MiB", .limit >> 20),
})]
pub struct MemoryRefused {
    pub scope: MemoryScope,
    pub desired: usize,
    pub limit: usize,
}

/// The resource limiter of one store.
#[derive(Debug)]
pub struct StoreMemory {
    budget: MemoryBudget,
    instance_limit: usize,
    total_limit: usize,
    /// Bytes this store has reserved in the budget.
    held: usize,
    /// The last reservation, released again if wasmtime fails the growth.
    pending: usize,
    /// Why the last growth was refused, if one was.
    pub refused: Option<MemoryRefused>,
}

impl StoreMemory {
    pub fn new(budget: MemoryBudget, instance_limit: usize, total_limit: usize) -> Self {
        StoreMemory {
            budget,
            instance_limit,
            total_limit,
            held: 0,
            pending: 0,
            refused: None,
        }
    }

    /// Linear memory this store holds, in bytes.
    pub fn held(&self) -> usize {
        self.held
    }

    fn refuse(
        &mut self,
        scope: MemoryScope,
        desired: usize,
        limit: usize,
    ) -> wasmtime::Result<bool> {
        let refused = MemoryRefused {
            scope,
            desired,
            limit,
        };
        self.refused = Some(refused);
        // An error, not `Ok(false)`: the growth traps at once instead of the
        // guest's allocator aborting with a less precise message.
        Err(wasmtime::Error::new(refused))
    }
}

impl ResourceLimiter for StoreMemory {
    fn memory_growing(
        &mut self,
        current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        self.pending = 0;
        let delta = desired.saturating_sub(current);
        if self.held.saturating_add(delta) > self.instance_limit {
            return self.refuse(MemoryScope::Instance, desired, self.instance_limit);
        }
        if !self.budget.reserve(delta, self.total_limit) {
            return self.refuse(MemoryScope::AllInstances, desired, self.total_limit);
        }
        self.held += delta;
        self.pending = delta;
        Ok(true)
    }

    fn memory_grow_failed(&mut self, _error: wasmtime::Error) -> wasmtime::Result<()> {
        let pending = std::mem::take(&mut self.pending);
        self.held -= pending;
        self.budget.release(pending);
        Ok(())
    }

    fn table_growing(
        &mut self,
        _current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        Ok(desired <= MAX_TABLE_ELEMENTS)
    }

    fn instances(&self) -> usize {
        MAX_INSTANCES
    }
}

impl Drop for StoreMemory {
    fn drop(&mut self) {
        self.budget.release(self.held);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIB: usize = 1 << 20;

    #[test]
    fn growth_is_refused_beyond_the_instance_cap_and_the_shared_budget() {
        let budget = MemoryBudget::new();
        let mut a = StoreMemory::new(budget.clone(), 64 * MIB, 100 * MIB);
        let mut b = StoreMemory::new(budget.clone(), 64 * MIB, 100 * MIB);
        assert!(a.memory_growing(0, 60 * MIB, None).unwrap());
        let error = a.memory_growing(60 * MIB, 65 * MIB, None).unwrap_err();
        assert_eq!(a.refused.unwrap().scope, MemoryScope::Instance);
        assert!(
            error.to_string().contains("instance limit of 64 MiB"),
            "{error}"
        );
        // 60 + 50 > 100: the second store is refused by the shared budget.
        b.memory_growing(0, 50 * MIB, None).unwrap_err();
        assert_eq!(b.refused.unwrap().scope, MemoryScope::AllInstances);
        assert!(b.memory_growing(0, 40 * MIB, None).unwrap());
        assert_eq!(budget.used(), 100 * MIB);
        assert_eq!(budget.peak(), 100 * MIB);
        drop(a);
        assert_eq!(budget.used(), 40 * MIB);
        // A growth wasmtime could not carry out is given back.
        assert!(b.memory_growing(40 * MIB, 50 * MIB, None).unwrap());
        b.memory_grow_failed(wasmtime::Error::msg("mmap failed"))
            .unwrap();
        assert_eq!((budget.used(), b.held()), (40 * MIB, 40 * MIB));
        drop(b);
        assert_eq!(budget.used(), 0);
    }
}
