//! What a plugin reads from the manifests, kept between calls: the host
//! passes the same manifests to every module lookup of one index
//! generation, thousands of times on a large tree, and reading them all
//! each time (TOML, JSON) can cost more than the lookups.

use std::any::{Any, TypeId};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use crate::types::Manifest;

/// The manifests a reading was made of, and the reading.
type Kept = (Vec<(String, String)>, Rc<dyn Any>);

thread_local! {
    /// One reading per type of value, in this plugin instance.
    static KEPT: RefCell<HashMap<TypeId, Kept>> = RefCell::new(HashMap::new());
}

/// The value `read` makes of `manifests`: the one made before when the
/// manifests are the same (paths and contents compared byte for byte),
/// else made now and kept in its place. One value is kept per type `T`.
pub fn read_once<T: 'static>(manifests: &[Manifest], read: impl FnOnce(&[Manifest]) -> T) -> Rc<T> {
    let id = TypeId::of::<T>();
    let kept = KEPT.with(|kept| {
        let kept = kept.borrow();
        let (texts, value) = kept.get(&id)?;
        let same = texts.len() == manifests.len()
            && texts
                .iter()
                .zip(manifests)
                .all(|((path, contents), m)| *path == m.path && *contents == m.contents);
        if same {
            Rc::clone(value).downcast::<T>().ok()
        } else {
            None
        }
    });
    if let Some(value) = kept {
        return value;
    }
    // Read outside the borrow: `read` may keep readings of its own.
    let value = Rc::new(read(manifests));
    let texts = manifests
        .iter()
        .map(|m| (m.path.clone(), m.contents.clone()))
        .collect();
    KEPT.with(|kept| {
        kept.borrow_mut()
            .insert(id, (texts, Rc::clone(&value) as Rc<dyn Any>))
    });
    value
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::testing::manifest;

    #[test]
    fn a_reading_is_kept_while_the_manifests_are_the_same() {
        let reads = std::cell::Cell::new(0);
        let length = |manifests: &[Manifest]| {
            reads.set(reads.get() + 1);
            manifests.iter().map(|m| m.contents.len()).sum::<usize>()
        };
        let one = [manifest("a/Cargo.toml", "abc")];
        assert_eq!(*read_once(&one, length), 3);
        assert_eq!(*read_once(&one, length), 3);
        assert_eq!(reads.get(), 1);
        // Same length, other bytes; another path; one more manifest.
        let changed = [manifest("a/Cargo.toml", "abd")];
        assert_eq!(*read_once(&changed, length), 3);
        let moved = [manifest("b/Cargo.toml", "abd")];
        assert_eq!(*read_once(&moved, length), 3);
        let more = [manifest("b/Cargo.toml", "abd"), manifest("Cargo.toml", "x")];
        assert_eq!(*read_once(&more, length), 4);
        assert_eq!(reads.get(), 4);
        // Another type keeps its own reading.
        let count = |manifests: &[Manifest]| manifests.len() as u8;
        assert_eq!(*read_once(&more, count), 2);
        assert_eq!(*read_once(&more, length), 4);
        assert_eq!(reads.get(), 4);
    }
}
