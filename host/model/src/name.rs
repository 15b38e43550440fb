//! `Name`: an identifier interned once per process, as the facts hold it.
//!
//! A 1M-line tree holds about a million references and a hundred thousand
//! locals, each naming something, while the distinct names number in the
//! tens of thousands. Each fact keeps an 8-byte handle instead of its own
//! heap copy. The strings live in `ustr`'s process-wide table and are never
//! freed: identifiers are few and a new generation reuses them.
//!
//! `Name` behaves as the string it holds: it dereferences to `str`, hashes,
//! orders, prints (`Display` and `Debug`) and serializes exactly as one, so
//! stored facts, digests and maps keyed by `String` are unchanged by it.
//! Equality is a pointer comparison.

use std::borrow::Borrow;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use ustr::Ustr;

/// The longest text a name holds: a longer one is cut to this many bytes
/// (at a character boundary) before it is interned, so that no fact can
/// make the table keep a large string. Validation cuts names further
/// (`FactLimits::max_name_bytes`) and reports it.
pub const MAX_NAME_BYTES: usize = 4096;

/// An interned identifier.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Name(Ustr);

impl Name {
    /// The interned copy of `text`, cut to [`MAX_NAME_BYTES`].
    pub fn new(text: &str) -> Name {
        recent::intern(cut(text))
    }

    /// The interned copy of `text` if the process has one (cut to
    /// [`MAX_NAME_BYTES`] as [`Name::new`] cuts it), without adding it.
    pub fn existing(text: &str) -> Option<Name> {
        Ustr::from_existing(cut(text)).map(Name)
    }

    /// The hash the table computed for the text when it was interned: the
    /// same for the same text within the process, and free to read. Not
    /// the `Hash` impl's (which hashes as `str` does).
    pub fn interned_hash(&self) -> u64 {
        self.0.precomputed_hash()
    }

    /// The text, which lives as long as the process.
    pub fn as_str(&self) -> &'static str {
        self.0.as_str()
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

/// The names a thread interned last, in front of the process-wide table:
/// the same few names recur through a file's facts (`self`, `new`,
/// `Result`), and the table costs a lock and a probe through its entries
/// per lookup (a quarter of reading a 1M-line index back at a restart).
mod recent {
    use std::cell::RefCell;

    use super::{Name, Ustr};

    /// Slots, a power of two: a name is kept in the one its hash picks.
    const SLOTS: usize = 8192;

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
        RECENT.with(|recent| {
            let mut recent = recent.borrow_mut();
            match recent[slot] {
                Some(name) if name.as_str() == text => name,
                _ => {
                    let name = Name(Ustr::from(text));
                    recent[slot] = Some(name);
                    name
                }
            }
        })
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
    ustr::total_allocated()
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

/// As `str` hashes, so that `Borrow<str>` holds (`ustr` feeds its own
/// precomputed hash instead).
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
        assert_eq!(state.hash_one(name), state.hash_one("spawn"));
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
    fn a_long_text_is_cut_at_a_character_boundary_before_it_is_interned() {
        let long = "é".repeat(MAX_NAME_BYTES);
        let name = Name::new(&long);
        assert_eq!(name.len(), MAX_NAME_BYTES);
        assert!(long.starts_with(name.as_str()));
        let odd = format!("a{long}");
        assert_eq!(Name::new(&odd).len(), MAX_NAME_BYTES - 1);
    }
}
