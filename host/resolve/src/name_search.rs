//! The declared names of a snapshot laid out for search by part of a name:
//! each distinct name once, in lower case, joined into one text, with an
//! index of the three-byte sequences (trigrams) each name holds.
//!
//! A 1M-line tree declares a few hundred thousand symbols under some
//! hundred thousand distinct names. A query of three bytes or more reads
//! the names listed under its rarest trigram and checks each of them; a
//! shorter one scans the joined text once (`memchr::memmem`). Either way
//! each name is asked once, not each declaration.

use memchr::memmem;

use lingo_model::Name;

/// How a name matched a query: lower is better.
pub type Rank = u8;
/// The name is the query.
pub const EXACT: Rank = 0;
/// The name starts with the query.
pub const PREFIX: Rank = 1;
/// The query is inside the name.
pub const INSIDE: Rank = 2;

/// Distinct names, in one order, their lower-case texts joined for
/// scanning, and the trigram index of those texts.
pub struct NameSearch {
    names: Vec<Name>,
    /// How many declarations have each name.
    declarations: Vec<u32>,
    lower: Joined,
    /// `None` past `u32::MAX` names, which are then scanned.
    trigrams: Option<Trigrams>,
}

/// A name that matched a query.
#[derive(Debug, Clone, Copy)]
pub struct Found<'a> {
    pub name: &'a Name,
    pub rank: Rank,
    /// How many declarations have the name.
    pub declarations: u32,
}

/// Texts joined by [`SEPARATOR`], with where each starts.
struct Joined {
    text: String,
    /// Offset of each text in `text`; one more entry, past the end.
    starts: Vec<usize>,
}

/// What follows each text in [`Joined::text`].
const SEPARATOR: char = '\n';

impl Joined {
    fn new<'a>(texts: impl Iterator<Item = &'a str>) -> Joined {
        let mut joined = Joined {
            text: String::new(),
            starts: Vec::new(),
        };
        for text in texts {
            joined.starts.push(joined.text.len());
            joined.text.push_str(text);
            joined.text.push(SEPARATOR);
        }
        joined.starts.push(joined.text.len());
        joined
    }

    fn len(&self) -> usize {
        self.starts.len() - 1
    }

    fn get(&self, index: usize) -> &str {
        // Each text is followed by its one-byte separator.
        &self.text[self.starts[index]..self.starts[index + 1] - 1]
    }

    /// The index of each text containing `query`, with how it matched, in
    /// text order, from one scan of the joined text.
    fn scan(&self, query: &str) -> Vec<(u32, Rank)> {
        let mut found: Vec<(u32, Rank)> = Vec::new();
        if query.contains(SEPARATOR) {
            // Only a hostile plugin's name holds one: ask each text.
            for index in 0..self.len() {
                if let Some(rank) = rank(self.get(index), query) {
                    found.push((index as u32, rank));
                }
            }
            return found;
        }
        // Matches come in increasing offsets, and none spans a separator,
        // so the first match in a text is its best and the others follow it.
        for at in memmem::find_iter(self.text.as_bytes(), query.as_bytes()) {
            let index = self.starts.partition_point(|&start| start <= at) - 1;
            if found
                .last()
                .is_some_and(|&(last, _)| last as usize == index)
            {
                continue;
            }
            let start = self.starts[index];
            let len = self.starts[index + 1] - 1 - start;
            let rank = match (at == start, query.len() == len) {
                (true, true) => EXACT,
                (true, false) => PREFIX,
                _ => INSIDE,
            };
            found.push((index as u32, rank));
        }
        found
    }
}

/// How `name` matched `query`, when it did.
pub fn rank(name: &str, query: &str) -> Option<Rank> {
    if name == query {
        Some(EXACT)
    } else if name.starts_with(query) {
        Some(PREFIX)
    } else if name.contains(query) {
        Some(INSIDE)
    } else {
        None
    }
}

/// The byte classes trigrams are made of: the 26 lower-case letters, the
/// 10 digits, `_`, and one class for every other byte (so a trigram of
/// the index may stand for several byte sequences; a name listed under a
/// query's trigrams is checked before it counts).
const CLASSES: usize = 38;

fn class(byte: u8) -> usize {
    match byte {
        b'a'..=b'z' => usize::from(byte - b'a'),
        b'0'..=b'9' => 26 + usize::from(byte - b'0'),
        b'_' => 36,
        _ => 37,
    }
}

/// The trigrams of `text`, by number (`0..CLASSES³`), in text order.
fn trigrams_of(text: &[u8]) -> impl Iterator<Item = usize> + '_ {
    text.windows(3)
        .map(|w| (class(w[0]) * CLASSES + class(w[1])) * CLASSES + class(w[2]))
}

/// For each trigram, the names whose lower-case text holds it.
struct Trigrams {
    /// Where each trigram's list starts in `lists`; one more entry, past
    /// the end.
    starts: Vec<usize>,
    /// How many names each trigram's list holds.
    counts: Vec<u32>,
    /// Each trigram's list: name indexes, increasing, each written as its
    /// difference from the one before (the first from 0) in LEB128, so a
    /// common trigram takes about a byte a name.
    lists: Vec<u8>,
}

impl Trigrams {
    /// The index of `lower`'s texts, in two passes (sizes, then lists), so
    /// that building it takes no more memory than it keeps.
    fn new(lower: &Joined) -> Option<Trigrams> {
        let names = u32::try_from(lower.len()).ok()?;
        let all = CLASSES * CLASSES * CLASSES;
        // The last name added to each trigram's list.
        let mut last: Vec<Option<u32>> = vec![None; all];
        let mut sizes = vec![0usize; all];
        let mut counts = vec![0u32; all];
        for index in 0..names {
            for trigram in trigrams_of(lower.get(index as usize).as_bytes()) {
                if last[trigram] == Some(index) {
                    continue;
                }
                let gap = index - last[trigram].unwrap_or(0);
                sizes[trigram] += leb128_len(gap);
                counts[trigram] += 1;
                last[trigram] = Some(index);
            }
        }
        let mut starts = Vec::with_capacity(all + 1);
        let mut total = 0;
        for size in &sizes {
            starts.push(total);
            total += size;
        }
        starts.push(total);
        let mut lists = vec![0u8; total];
        let mut cursors = starts.clone();
        last.fill(None);
        for index in 0..names {
            for trigram in trigrams_of(lower.get(index as usize).as_bytes()) {
                if last[trigram] == Some(index) {
                    continue;
                }
                let gap = index - last[trigram].unwrap_or(0);
                cursors[trigram] = write_leb128(&mut lists, cursors[trigram], gap);
                last[trigram] = Some(index);
            }
        }
        Some(Trigrams {
            starts,
            counts,
            lists,
        })
    }

    /// The names listed under `trigram`, increasing.
    fn names(&self, trigram: usize) -> impl Iterator<Item = u32> + '_ {
        let mut bytes = self.lists[self.starts[trigram]..self.starts[trigram + 1]].iter();
        let mut name = 0u32;
        std::iter::from_fn(move || {
            let mut gap = 0u32;
            for shift in (0..35).step_by(7) {
                let byte = *bytes.next()?;
                gap |= u32::from(byte & 0x7f) << shift;
                if byte & 0x80 == 0 {
                    break;
                }
            }
            name = name.wrapping_add(gap);
            Some(name)
        })
    }
}

/// Bytes `value` takes in LEB128.
fn leb128_len(value: u32) -> usize {
    (32 - value.leading_zeros() as usize).max(1).div_ceil(7)
}

/// Write `value` in LEB128 at `at`; where the next value goes.
fn write_leb128(out: &mut [u8], mut at: usize, mut value: u32) -> usize {
    loop {
        let byte = (value & 0x7f) as u8;
        value >>= 7;
        if value == 0 {
            out[at] = byte;
            return at + 1;
        }
        out[at] = byte | 0x80;
        at += 1;
    }
}

impl NameSearch {
    /// The index of `names`, each distinct, with how many declarations
    /// have each.
    pub fn new(names: Vec<(Name, usize)>) -> NameSearch {
        let (names, declarations): (Vec<Name>, Vec<u32>) = names
            .into_iter()
            .map(|(name, count)| (name, u32::try_from(count).unwrap_or(u32::MAX)))
            .unzip();
        let lowered: Vec<String> = names.iter().map(|name| name.to_lowercase()).collect();
        let lower = Joined::new(lowered.iter().map(String::as_str));
        drop(lowered);
        let trigrams = Trigrams::new(&lower);
        NameSearch {
            names,
            declarations,
            lower,
            trigrams,
        }
    }

    /// The names containing `query` (compared in lower case unless
    /// `case_sensitive`), each with how it matched, in one fixed order.
    pub fn containing(&self, query: &str, case_sensitive: bool) -> Vec<Found<'_>> {
        if query.is_empty() {
            return Vec::new();
        }
        if case_sensitive && !query.is_ascii() {
            // Lower case does not keep every non-ASCII substring a
            // substring (a final sigma): ask each name as written.
            return (0..self.names.len())
                .filter_map(|index| self.found(index, rank(self.names[index].as_str(), query)?))
                .collect();
        }
        let lower = query.to_lowercase();
        let candidates = self.candidates(&lower);
        if !case_sensitive {
            return candidates
                .into_iter()
                .filter_map(|(index, rank)| self.found(index as usize, rank))
                .collect();
        }
        // An ASCII query found as written is found in lower case too.
        candidates
            .into_iter()
            .filter_map(|(index, _)| {
                let index = index as usize;
                self.found(index, rank(self.names[index].as_str(), query)?)
            })
            .collect()
    }

    /// The names whose lower-case text contains `lower`, with how.
    fn candidates(&self, lower: &str) -> Vec<(u32, Rank)> {
        let Some(trigrams) = &self.trigrams else {
            return self.lower.scan(lower);
        };
        if lower.len() < 3 || lower.contains(SEPARATOR) {
            return self.lower.scan(lower);
        }
        let Some(rarest) = trigrams_of(lower.as_bytes()).min_by_key(|&t| trigrams.counts[t]) else {
            return Vec::new();
        };
        let finder = memmem::Finder::new(lower.as_bytes());
        trigrams
            .names(rarest)
            .filter_map(|index| {
                let text = self.lower.get(index as usize);
                let at = finder.find(text.as_bytes())?;
                let rank = match (at, text.len() == lower.len()) {
                    (0, true) => EXACT,
                    (0, false) => PREFIX,
                    _ => INSIDE,
                };
                Some((index, rank))
            })
            .collect()
    }

    fn found(&self, index: usize, rank: Rank) -> Option<Found<'_>> {
        Some(Found {
            name: self.names.get(index)?,
            rank,
            declarations: self.declarations.get(index).copied().unwrap_or(0),
        })
    }

    /// Every name with its lower-case text and how many declarations have
    /// it, for matching of another kind (a regular expression).
    pub fn names(&self) -> impl Iterator<Item = (&Name, &str, u32)> {
        self.names
            .iter()
            .zip(&self.declarations)
            .enumerate()
            .map(|(index, (name, &declarations))| (name, self.lower.get(index), declarations))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn search(names: &[&str]) -> NameSearch {
        NameSearch::new(names.iter().map(|n| (Name::new(n), 1)).collect())
    }

    fn found(search: &NameSearch, query: &str, case_sensitive: bool) -> Vec<(String, Rank)> {
        search
            .containing(query, case_sensitive)
            .into_iter()
            .map(|found| (found.name.to_string(), found.rank))
            .collect()
    }

    #[test]
    fn each_name_containing_the_query_is_found_once_with_its_best_rank() {
        let index = search(&[
            "parse",
            "parse_all",
            "reparse",
            "Parser",
            "parsed_parse",
            "xyz",
        ]);
        assert_eq!(
            found(&index, "parse", true),
            [
                ("parse".into(), EXACT),
                ("parse_all".into(), PREFIX),
                ("reparse".into(), INSIDE),
                ("parsed_parse".into(), PREFIX),
            ]
        );
        assert_eq!(found(&index, "PARSER", false), [("Parser".into(), EXACT)]);
        assert_eq!(found(&index, "nothing", false), []);
        assert_eq!(found(&index, "", false), []);
    }

    #[test]
    fn a_match_never_spans_two_names() {
        let index = search(&["ab", "cd"]);
        assert_eq!(found(&index, "bc", true), []);
        assert_eq!(found(&index, "b\nc", true), []);
        let hostile = search(&["a\nb", "ab"]);
        assert_eq!(found(&hostile, "a\nb", true), [("a\nb".into(), EXACT)]);
    }

    #[test]
    fn it_agrees_with_asking_each_name() {
        // A generated vocabulary (with non-ASCII names, a final sigma and
        // a separator a hostile plugin sent), against asking each name.
        let mut names: Vec<String> = (0..2000)
            .map(|i| {
                format!(
                    "{}_{}{}",
                    ["get", "set", "Parse", "new", "getX", "ΑΣ"][i % 6],
                    i,
                    "éx".repeat(i % 3)
                )
            })
            .collect();
        names.extend(["a\nget_1".to_string(), "x".to_string(), "gEt".to_string()]);
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let index = search(&refs);
        let queries = [
            "get",
            "GET",
            "1",
            "_1",
            "Éx",
            "éx_",
            "new_3",
            "x",
            "parse_10",
            "Parse_1",
            "etX",
            "Σ",
            "σ",
            "ας_",
            "\nget",
            "t_1\u{e9}",
            "zzz",
            "g",
        ];
        for query in queries {
            for case_sensitive in [false, true] {
                let expected: Vec<(String, Rank)> = names
                    .iter()
                    .filter_map(|n| {
                        let found = if case_sensitive {
                            rank(n, query)
                        } else {
                            rank(&n.to_lowercase(), &query.to_lowercase())
                        };
                        found.map(|r| (n.clone(), r))
                    })
                    .collect();
                assert_eq!(
                    found(&index, query, case_sensitive),
                    expected,
                    "{query:?}, case sensitive {case_sensitive}"
                );
            }
        }
    }

    #[test]
    fn trigram_lists_round_trip_through_their_encoding() {
        // Gaps of every LEB128 length, as the lists store them.
        let names: Vec<String> = (0..70_000u32)
            .map(|i| {
                if i % 16_385 == 0 {
                    format!("abc{i}")
                } else {
                    format!("n{i}")
                }
            })
            .collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let index = search(&refs);
        let listed: Vec<String> = found(&index, "abc", true)
            .into_iter()
            .map(|f| f.0)
            .collect();
        assert_eq!(
            listed,
            ["abc0", "abc16385", "abc32770", "abc49155", "abc65540"]
        );
        for value in [0, 1, 127, 128, 16_383, 16_384, u32::MAX] {
            let mut out = vec![0u8; leb128_len(value)];
            assert_eq!(write_leb128(&mut out, 0, value), out.len(), "{value}");
        }
    }
}
