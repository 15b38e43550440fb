//! The declared names of a snapshot laid out for search by part of a name:
//! each distinct name once, all joined into one text (as written and in
//! lower case) that a substring search scans in one pass.
//!
//! A 1M-line tree declares a few hundred thousand symbols under some
//! hundred thousand distinct names; a search asks each name once instead of
//! each symbol, and finds the names containing the query with one SIMD
//! scan (`memchr::memmem`) of a few MB instead of a comparison per name.

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

/// Distinct names, in one order, and their texts joined for scanning.
pub struct NameSearch {
    names: Vec<Name>,
    as_written: Joined,
    lower: Joined,
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

    fn get(&self, index: usize) -> &str {
        // Each text is followed by its one-byte separator.
        &self.text[self.starts[index]..self.starts[index + 1] - 1]
    }

    /// The index of each text containing `query`, with how it matched, in
    /// text order.
    fn containing(&self, query: &str) -> Vec<(u32, Rank)> {
        let mut found: Vec<(u32, Rank)> = Vec::new();
        if query.is_empty() {
            return found;
        }
        if query.contains(SEPARATOR) {
            // Only a hostile plugin's name holds one: ask each text.
            for index in 0..self.starts.len() - 1 {
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

impl NameSearch {
    /// The index of `names`, each distinct.
    pub fn new(names: Vec<Name>) -> NameSearch {
        let as_written = Joined::new(names.iter().map(Name::as_str));
        let lowered: Vec<String> = names.iter().map(|name| name.to_lowercase()).collect();
        let lower = Joined::new(lowered.iter().map(String::as_str));
        NameSearch {
            names,
            as_written,
            lower,
        }
    }

    /// The names containing `query` (compared in lower case unless
    /// `case_sensitive`), each with how it matched.
    pub fn containing(&self, query: &str, case_sensitive: bool) -> Vec<(&Name, Rank)> {
        let found = if case_sensitive {
            self.as_written.containing(query)
        } else {
            self.lower.containing(&query.to_lowercase())
        };
        found
            .into_iter()
            .map(|(index, rank)| (&self.names[index as usize], rank))
            .collect()
    }

    /// Every name with its lower-case text, for matching of another kind
    /// (a regular expression).
    pub fn names(&self) -> impl Iterator<Item = (&Name, &str)> {
        self.names
            .iter()
            .enumerate()
            .map(|(index, name)| (name, self.lower.get(index)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn search(names: &[&str]) -> NameSearch {
        NameSearch::new(names.iter().map(|n| Name::new(n)).collect())
    }

    fn found(search: &NameSearch, query: &str, case_sensitive: bool) -> Vec<(String, Rank)> {
        search
            .containing(query, case_sensitive)
            .into_iter()
            .map(|(name, rank)| (name.to_string(), rank))
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
        // Every Nth name of a generated vocabulary, against a plain scan.
        let names: Vec<String> = (0..2000)
            .map(|i| {
                format!(
                    "{}_{}{}",
                    ["get", "set", "Parse", "new"][i % 4],
                    i,
                    "éx".repeat(i % 3)
                )
            })
            .collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let index = search(&refs);
        for query in ["get", "1", "_1", "Éx", "new_3", "x", "parse_10"] {
            let lower = query.to_lowercase();
            let expected: Vec<(String, Rank)> = names
                .iter()
                .filter_map(|n| rank(&n.to_lowercase(), &lower).map(|r| (n.clone(), r)))
                .collect();
            assert_eq!(found(&index, query, false), expected, "{query}");
        }
    }
}
