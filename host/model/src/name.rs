//! `Name`: an identifier interned once per process, as the facts hold it,
//! and freed when the last fact holding it is gone.
//!
//! A 1M-line tree holds about a million references and a hundred thousand
//! locals, each naming something, while the distinct names number in the
//! tens of thousands. Each fact keeps an 8-byte handle to one shared copy
//! of its text instead of its own heap copy. Each copy counts its holders:
//! the last handle dropped removes it from the table, so the names of a
//! removed project, or of files gone from every project, are released.
//!
//! `Name` behaves as the string it holds: it dereferences to `str`, hashes,
//! orders, prints (`Display` and `Debug`) and serializes exactly as one, so
//! stored facts, digests and maps keyed by `String` are unchanged by it.
//! Equality is a pointer comparison: a text has at most one copy in the
//! table while any handle holds it.

use std::borrow::Borrow;
use std::fmt;
use std::hash::{BuildHasher, Hash, Hasher};
use std::ops::Deref;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};

use hashbrown::HashTable;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The longest text a name holds: a longer one is cut to this many bytes
/// (at a character boundary) before it is interned, so that no fact can
/// make the table keep a large string. Validation cuts names further
/// (`FactLimits::max_name_bytes`) and reports it.
pub const MAX_NAME_BYTES: usize = 4096;

/// An interned identifier: a counted handle to the table's copy of its text.
pub struct Name(NonNull<Entry>);

/// One text in the table, with the number of handles that hold it.
struct Entry {
    holders: AtomicUsize,
    /// [`hash_of`] the text, kept so that a handle finds its slot without
    /// reading the text after it let go of it.
    hash: u64,
    text: Box<str>,
}

// SAFETY: an entry's text and hash never change after it is made, and its
// count of holders is atomic; it is freed only under its shard's lock, once
// no handle holds it (see `Drop for Name`).
unsafe impl Send for Name {}
// SAFETY: as above: a shared `Name` only reads immutable data.
unsafe impl Sync for Name {}

impl Name {
    /// The interned copy of `text`, cut to [`MAX_NAME_BYTES`].
    pub fn new(text: &str) -> Name {
        let text = cut(text);
        if text.len() <= recent::MAX_TEXT {
            recent::intern(text)
        } else {
            table::intern(text)
        }
    }

    /// The interned copy of `text` if the process holds one (cut to
    /// [`MAX_NAME_BYTES`] as [`Name::new`] cuts it), without adding it.
    pub fn existing(text: &str) -> Option<Name> {
        table::existing(cut(text))
    }

    /// A hash of the text, computed once when it was interned: the same for
    /// the same text in every process (a fixed-seed hash), and free to
    /// read. Not the `Hash` impl's (which hashes as `str` does).
    pub fn interned_hash(&self) -> u64 {
        self.entry().hash
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        &self.entry().text
    }

    fn entry(&self) -> &Entry {
        // SAFETY: this handle counts as a holder, so the entry is not freed
        // while `self` lives.
        unsafe { self.0.as_ref() }
    }
}

/// `text` cut to [`MAX_NAME_BYTES`] at a character boundary.
fn cut(text: &str) -> &str {
    let mut end = text.len().min(MAX_NAME_BYTES);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// A fixed-seed hash of a name's text (foldhash): the same in every process.
fn hash_of(text: &str) -> u64 {
    foldhash::quality::FixedState::with_seed(0x6c69_6e67_6f5f_6e61).hash_one(text)
}

impl Clone for Name {
    fn clone(&self) -> Name {
        // As `Arc::clone`: a new holder comes from an existing one, so no
        // ordering is needed; a count past `isize::MAX` (leaked handles)
        // aborts rather than wrap.
        let before = self.entry().holders.fetch_add(1, Ordering::Relaxed);
        if before > isize::MAX as usize {
            std::process::abort();
        }
        Name(self.0)
    }
}

impl Drop for Name {
    fn drop(&mut self) {
        let hash = self.entry().hash;
        if self.entry().holders.fetch_sub(1, Ordering::Release) != 1 {
            return;
        }
        // This was the last handle; `self.0` is not read again, since
        // another thread may free the entry from here on.
        table::release(self.0, hash);
    }
}

/// The process-wide table of names, in shards that each own a lock.
mod table {
    use super::*;

    /// Shards, a power of two: enough that threads indexing in parallel
    /// rarely wait for each other.
    const SHARDS: usize = 64;

    /// An entry's address as the table keeps it.
    struct Slot(NonNull<Entry>);
    // SAFETY: only read under the shard's lock, see `Name`'s `Send`.
    unsafe impl Send for Slot {}

    static SHARD: [Mutex<HashTable<Slot>>; SHARDS] =
        [const { Mutex::new(HashTable::new()) }; SHARDS];

    /// Bytes the table holds: the texts, the entries and their slots.
    pub(super) static BYTES: AtomicUsize = AtomicUsize::new(0);

    fn entry_bytes(text: &str) -> usize {
        text.len() + std::mem::size_of::<Entry>() + std::mem::size_of::<Slot>()
    }

    fn shard(hash: u64) -> MutexGuard<'static, HashTable<Slot>> {
        // Bits hashbrown uses for neither the bucket (low) nor the tag (top).
        let index = (hash >> 32) as usize & (SHARDS - 1);
        // A panic while holding the lock cannot leave a table half-changed
        // (each change is one call), so a poisoned lock is still usable.
        SHARD[index]
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn text_of(slot: &Slot) -> &str {
        // SAFETY: an entry is in the table until freed, under this lock.
        unsafe { &slot.0.as_ref().text }
    }

    /// A new holder of the entry in `slot`. Under the shard's lock: the
    /// entry may have no holder left and be waiting for `release`, which
    /// then keeps it.
    fn hold(slot: &Slot) -> Name {
        // SAFETY: as in `text_of`.
        unsafe { slot.0.as_ref() }
            .holders
            .fetch_add(1, Ordering::Relaxed);
        Name(slot.0)
    }

    pub(super) fn intern(text: &str) -> Name {
        let hash = hash_of(text);
        let mut shard = shard(hash);
        if let Some(slot) = shard.find(hash, |slot| text_of(slot) == text) {
            return hold(slot);
        }
        let entry = Box::new(Entry {
            holders: AtomicUsize::new(1),
            hash,
            text: text.into(),
        });
        BYTES.fetch_add(entry_bytes(text), Ordering::Relaxed);
        let entry = NonNull::from(Box::leak(entry));
        shard.insert_unique(hash, Slot(entry), |slot| {
            // SAFETY: as in `text_of`.
            unsafe { slot.0.as_ref() }.hash
        });
        Name(entry)
    }

    pub(super) fn existing(text: &str) -> Option<Name> {
        let hash = hash_of(text);
        let shard = shard(hash);
        shard.find(hash, |slot| text_of(slot) == text).map(hold)
    }

    /// Free the entry at `entry` if it is still in the table with no
    /// holder: a handle made meanwhile (by `intern` or `existing`, under
    /// this lock) keeps it, and then its own last drop comes here again.
    /// The entry is found by address, never read before it is found: it
    /// may already be freed by another thread's release.
    pub(super) fn release(entry: NonNull<Entry>, hash: u64) {
        let mut shard = shard(hash);
        let Ok(found) = shard.find_entry(hash, |slot| slot.0 == entry) else {
            return;
        };
        // SAFETY: as in `text_of`.
        let unheld = unsafe { found.get().0.as_ref() }
            .holders
            .load(Ordering::Acquire)
            == 0;
        if unheld {
            let (slot, _) = found.remove();
            // SAFETY: out of the table, with no holder, under the lock that
            // every new holder takes: nothing can reach it any more.
            let entry = unsafe { Box::from_raw(slot.0.as_ptr()) };
            BYTES.fetch_sub(entry_bytes(&entry.text), Ordering::Relaxed);
        }
    }

    /// Entries in the table.
    pub(super) fn len() -> usize {
        SHARD
            .iter()
            .map(|shard| shard.lock().unwrap_or_else(|p| p.into_inner()).len())
            .sum()
    }
}

/// The names a thread interned last, in front of the process-wide table:
/// the same few names recur through a file's facts (`self`, `new`,
/// `Result`), and the table costs a lock and a probe per lookup (a quarter
/// of reading a 1M-line index back at a restart). Only short names are
/// kept, so that what the slots hold alive stays small (at most
/// `SLOTS * MAX_TEXT` bytes of text per thread).
mod recent {
    use std::cell::RefCell;

    use super::Name;

    /// Slots, a power of two: a name is kept in the one its hash picks.
    const SLOTS: usize = 4096;

    /// The longest text kept.
    pub(super) const MAX_TEXT: usize = 48;

    thread_local! {
        static RECENT: RefCell<Vec<Option<Name>>> = RefCell::new(vec![None; SLOTS]);
    }

    /// FNV-1a: a few cycles per byte, and names are short.
    fn slot(text: &str) -> usize {
        let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| {
            (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
        });
        (hash as usize) & (SLOTS - 1)
    }

    /// The interned copy of `text` (already cut to length).
    pub(super) fn intern(text: &str) -> Name {
        let slot = slot(text);
        let interned = RECENT.try_with(|recent| {
            let mut recent = recent.borrow_mut();
            match &recent[slot] {
                Some(name) if name.as_str() == text => name.clone(),
                _ => {
                    let name = super::table::intern(text);
                    recent[slot] = Some(name.clone());
                    name
                }
            }
        });
        // A thread being torn down has no slots left: go to the table.
        interned.unwrap_or_else(|_| super::table::intern(text))
    }

    /// Let go of this thread's names, so that only facts hold names.
    #[cfg(test)]
    pub(super) fn clear() {
        let _ = RECENT.try_with(|recent| recent.borrow_mut().fill(None));
    }
}

impl Default for Name {
    /// The empty name.
    fn default() -> Name {
        Name::new("")
    }
}

impl PartialEq for Name {
    fn eq(&self, other: &Name) -> bool {
        self.0 == other.0
    }
}

impl Eq for Name {}

/// As `str` orders.
impl PartialOrd for Name {
    fn partial_cmp(&self, other: &Name) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Name {
    fn cmp(&self, other: &Name) -> std::cmp::Ordering {
        if self.0 == other.0 {
            return std::cmp::Ordering::Equal;
        }
        self.as_str().cmp(other.as_str())
    }
}

impl Deref for Name {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Name {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

/// Bytes held by the process's table of names (their text and the
/// table's own entries).
pub fn interned_bytes() -> usize {
    table::BYTES.load(Ordering::Relaxed)
}

/// Distinct names the process's table holds.
pub fn interned_count() -> usize {
    table::len()
}

/// The default of [`interned_limit`]: far above what real trees need (the
/// 3.4M-line cargo registry's distinct names take a few MiB), low enough
/// that a tree rewritten again and again with new names cannot grow the
/// process without bound.
pub const DEFAULT_INTERNED_LIMIT: usize = 256 << 20;

static INTERNED_LIMIT: AtomicUsize = AtomicUsize::new(DEFAULT_INTERNED_LIMIT);

/// The most bytes of names the process keeps: past it, no new facts are
/// taken in (the workspace reports the files it could not index).
pub fn interned_limit() -> usize {
    INTERNED_LIMIT.load(Ordering::Relaxed)
}

/// Set [`interned_limit`] (process-wide).
pub fn set_interned_limit(bytes: usize) {
    INTERNED_LIMIT.store(bytes, Ordering::Relaxed);
}

/// Whether the table of names has reached [`interned_limit`]: then the
/// bytes it holds.
pub fn table_full() -> Option<usize> {
    let held = interned_bytes();
    (held >= interned_limit()).then_some(held)
}

/// As `str` hashes, so that `Borrow<str>` holds.
impl Hash for Name {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

impl Borrow<str> for Name {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.as_str(), f)
    }
}

impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl From<&str> for Name {
    fn from(text: &str) -> Name {
        Name::new(text)
    }
}

impl From<String> for Name {
    fn from(text: String) -> Name {
        Name::new(&text)
    }
}

impl From<&String> for Name {
    fn from(text: &String) -> Name {
        Name::new(text)
    }
}

impl From<Name> for String {
    fn from(name: Name) -> String {
        name.as_str().to_string()
    }
}

impl PartialEq<str> for Name {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Name {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for Name {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other.as_str()
    }
}

impl PartialEq<Name> for str {
    fn eq(&self, other: &Name) -> bool {
        self == other.as_str()
    }
}

impl PartialEq<Name> for &str {
    fn eq(&self, other: &Name) -> bool {
        *self == other.as_str()
    }
}

impl PartialEq<Name> for String {
    fn eq(&self, other: &Name) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Serialize for Name {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Name {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Name, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = Name;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<Name, E> {
                Ok(Name::new(text))
            }
        }
        deserializer.deserialize_str(Visitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;
    use std::hash::BuildHasher;

    #[test]
    fn an_interned_hash_is_the_texts_and_lookups_add_nothing() {
        let name = Name::new("interned_hash_subject");
        assert_eq!(
            Name::new(&String::from("interned_hash_subject")).interned_hash(),
            name.interned_hash()
        );
        assert_ne!(
            Name::new("another_subject").interned_hash(),
            name.interned_hash()
        );
        assert_eq!(Name::existing("interned_hash_subject"), Some(name));
        // A lookup interns nothing: the name is still unknown after it
        // (the table's size is shared with the tests running beside).
        assert_eq!(Name::existing("never_interned_anywhere_9f3c"), None);
        assert_eq!(Name::existing("never_interned_anywhere_9f3c"), None);
    }

    #[test]
    fn names_sharing_a_recent_slot_stay_themselves() {
        // Far more names than slots: every slot is shared and replaced.
        let texts: Vec<String> = (0..20_000).map(|i| format!("name{i}")).collect();
        let first: Vec<Name> = texts.iter().map(|t| Name::new(t)).collect();
        for (text, name) in texts.iter().zip(&first).rev() {
            let again = Name::new(text);
            assert_eq!(again.as_str(), text);
            assert_eq!(again, *name);
        }
        // Another thread has its own slots and the same process-wide names.
        let other = std::thread::spawn(|| Name::new("name7")).join().unwrap();
        assert_eq!(other, first[7]);
    }

    #[test]
    fn a_name_is_its_string_in_every_observable_way() {
        let name = Name::new("spawn");
        assert_eq!(name, "spawn");
        assert_eq!(name, Name::from(String::from("spawn")));
        assert_eq!(format!("{name} {name:?}"), "spawn \"spawn\"");
        let state = std::collections::hash_map::RandomState::new();
        assert_eq!(state.hash_one(&name), state.hash_one("spawn"));
        let mut by_string: HashMap<Name, u32> = HashMap::new();
        by_string.insert(name, 1);
        assert_eq!(by_string.get("spawn"), Some(&1));
        assert!(Name::new("a") < Name::new("b") && Name::new("b") < Name::new("ba"));
        assert_eq!(std::mem::size_of::<Option<Name>>(), 8);
    }

    #[test]
    fn a_name_round_trips_as_a_string() {
        let json = serde_json::to_string(&Name::new("x::y")).unwrap();
        assert_eq!(json, "\"x::y\"");
        let back: Name = serde_json::from_str(&json).unwrap();
        assert_eq!(back, "x::y");
        let as_string = postcard::to_stdvec(&"héllo".to_string()).unwrap();
        let as_name = postcard::to_stdvec(&Name::new("héllo")).unwrap();
        assert_eq!(as_string, as_name);
        assert_eq!(postcard::from_bytes::<Name>(&as_string).unwrap(), "héllo");
        assert!(serde_json::from_str::<Name>("12").is_err());
    }

    #[test]
    fn a_name_leaves_the_table_with_its_last_holder() {
        for text in ["released_subject", &"long_released_subject_".repeat(4)] {
            let name = Name::new(text);
            let copy = name.clone();
            drop(name);
            assert_eq!(Name::existing(text).as_deref(), Some(text));
            assert_eq!(copy, text);
            drop(copy);
            recent::clear();
            assert_eq!(Name::existing(text), None, "{text}");
            // Interned again, it is a new entry with the same text.
            assert_eq!(Name::new(text), text);
        }
    }

    #[test]
    fn threads_interning_and_dropping_the_same_names_never_see_a_freed_one() {
        // Few texts, many threads: entries are dropped to no holder and
        // interned again while another thread is releasing them.
        let texts: Vec<String> = (0..16)
            .map(|i| format!("contended_name_{i}_{}", "x".repeat(i * 8)))
            .collect();
        std::thread::scope(|scope| {
            for thread in 0..4 {
                let texts = &texts;
                scope.spawn(move || {
                    for round in 0..20_000 {
                        let text = &texts[(round * 7 + thread) % texts.len()];
                        let name = Name::new(text);
                        let copy = name.clone();
                        assert_eq!(copy.as_str(), text);
                        drop(name);
                        if round % 3 == 0 {
                            recent::clear();
                        }
                        assert_eq!(Name::existing(text).as_deref(), Some(text.as_str()));
                        drop(copy);
                    }
                    recent::clear();
                });
            }
        });
        for text in &texts {
            assert_eq!(Name::existing(text), None, "{text} is still held");
        }
    }

    #[test]
    fn a_long_text_is_cut_at_a_character_boundary_before_it_is_interned() {
        let long = "é".repeat(MAX_NAME_BYTES);
        let name = Name::new(&long);
        assert_eq!(name.len(), MAX_NAME_BYTES);
        assert!(long.starts_with(name.as_str()));
        let odd = format!("a{long}");
        assert_eq!(Name::new(&odd).len(), MAX_NAME_BYTES - 1);
    }
}
