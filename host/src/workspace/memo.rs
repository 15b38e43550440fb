//! Values the layers above the index derive from one snapshot (the name
//! table, the symbol graph), computed once per generation on first use,
//! without the index knowing their types.

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use crate::sync::lock;

/// A value derived from a snapshot.
pub trait Derived: Any + Send + Sync {
    /// Whether the next generation is handed this generation's value to
    /// build its own from (the graph reuses the answers of unchanged files).
    const CARRIED: bool = false;
}

type Value = Arc<dyn Any + Send + Sync>;

/// A type's slot: its value once built, and whether it is carried.
type Slot = (Arc<OnceLock<Value>>, bool);

/// One generation's derived values.
#[derive(Default)]
pub struct Memo {
    /// Per type: its value, once built, and whether it is carried.
    values: Mutex<HashMap<TypeId, Slot>>,
    /// Carried values of earlier generations, each taken by the first
    /// build of its type in this one.
    earlier: Mutex<HashMap<TypeId, Value>>,
}

impl Memo {
    /// The memo of the generation after `previous`: empty, but for the
    /// latest carried value of each type.
    pub fn after(previous: &Memo) -> Memo {
        let mut earlier = lock(&previous.earlier).clone();
        for (id, (value, carried)) in lock(&previous.values).iter() {
            if let (true, Some(value)) = (*carried, value.get()) {
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
    pub fn get_or_init<T: Derived>(&self, build: impl FnOnce(Option<Arc<T>>) -> T) -> Arc<T> {
        let id = TypeId::of::<T>();
        let cell = lock(&self.values)
            .entry(id)
            .or_insert_with(|| (Arc::new(OnceLock::new()), T::CARRIED))
            .0
            .clone();
        let value = cell.get_or_init(|| {
            let earlier = lock(&self.earlier)
                .remove(&id)
                .and_then(|v| v.downcast::<T>().ok());
            Arc::new(build(earlier)) as Value
        });
        value
            .clone()
            .downcast::<T>()
            .expect("a memo slot holds the type it is keyed by")
    }

    /// The value of type `T` if it was built.
    pub fn get<T: Derived>(&self) -> Option<Arc<T>> {
        let cell = lock(&self.values).get(&TypeId::of::<T>())?.0.clone();
        cell.get()?.clone().downcast::<T>().ok()
    }
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
        assert_eq!(first.get_or_init(|_| Plain(1)).0, 1);
        assert_eq!(first.get_or_init(|_| Plain(2)).0, 1);
        assert_eq!(
            first
                .get_or_init(|earlier: Option<Arc<Carried>>| Carried(
                    earlier.map_or(10, |e| e.0 + 1)
                ))
                .0,
            10
        );

        let second = Memo::after(&first);
        assert!(second.get::<Plain>().is_none());
        assert_eq!(
            second
                .get_or_init(|earlier: Option<Arc<Plain>>| Plain(earlier.map_or(5, |e| e.0)))
                .0,
            5
        );
        assert_eq!(
            second
                .get_or_init(|earlier: Option<Arc<Carried>>| Carried(
                    earlier.map_or(0, |e| e.0 + 1)
                ))
                .0,
            11
        );

        // A generation that never built the carried value hands on the
        // earlier one.
        let third = Memo::after(&Memo::after(&second));
        assert_eq!(
            third
                .get_or_init(|earlier: Option<Arc<Carried>>| Carried(
                    earlier.map_or(0, |e| e.0 + 1)
                ))
                .0,
            12
        );
    }
}
