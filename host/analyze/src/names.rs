//! `analyze_name_similarity` (mcp-wire-protocol.md): the declared names of
//! the workspace most like a query, by their spelling and their words,
//! and, when asked, by how they sound. Lexical and phonetic only: lingo
//! has no embedding model, and does not pretend to one.
//!
//! A name is split into lowercase words at case changes, digits and
//! underscores (`parseHTTPRequest` → parse, http, request). Its score
//! against the query is the mean of two parts:
//!
//! - `spelling`: the Jaro-Winkler similarity of the two names' words
//!   joined (`calculatetotal` and `calctotal`);
//! - `words`: how well the words pair up, both ways — each word scores 1
//!   for the same word, 0.8 when one is a prefix (of three letters or more)
//!   of the other (`calc`, `calculate`), its Jaro-Winkler similarity when
//!   that is 0.85 or more, else 0; averaged over each name's words, then
//!   over the two directions.
//!
//! With `phonetic`, a name whose words sound like the query's (the same
//! Double Metaphone codes, primary or alternate, in order) is a phonetic
//! match, and scores at least 0.9.

use std::collections::BTreeMap;
use std::sync::Arc;

use rphonetic::DoubleMetaphone;
use schemars::JsonSchema;
use serde::Serialize;

use lingo_index::FileEntry;
use lingo_model::SymbolKind;

/// Which declarations to compare.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NameScope {
    Functions,
    Types,
    Variables,
    All,
}

impl NameScope {
    pub const NAMES: [&'static str; 4] = ["functions", "types", "variables", "all"];

    pub fn parse(name: &str) -> Option<NameScope> {
        match name {
            "functions" => Some(NameScope::Functions),
            "types" => Some(NameScope::Types),
            "variables" => Some(NameScope::Variables),
            "all" => Some(NameScope::All),
            _ => None,
        }
    }

    fn holds(self, kind: SymbolKind) -> bool {
        use SymbolKind as K;
        match self {
            NameScope::All => true,
            NameScope::Functions => {
                matches!(kind, K::Function | K::Method | K::Constructor | K::Operator)
            }
            NameScope::Types => matches!(
                kind,
                K::Class | K::Struct | K::Interface | K::Enum | K::TypeParameter
            ),
            NameScope::Variables => matches!(
                kind,
                K::Variable | K::Constant | K::Field | K::Property | K::EnumMember | K::Event
            ),
        }
    }
}

/// Where a name is declared.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct NamePlace {
    pub file_path: String,
    /// 1-based.
    pub line: u32,
    pub kind: String,
}

/// One similar name.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct SimilarName {
    pub name: String,
    pub score: f64,
    pub spelling: f64,
    pub words: f64,
    pub phonetic_match: bool,
    /// How many declarations have the name.
    pub declarations: usize,
    /// Up to five of them.
    pub places: Vec<NamePlace>,
}

/// The answer.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct NameSimilarity {
    pub query: String,
    /// The query's words.
    pub query_words: Vec<String>,
    /// Distinct names compared.
    pub names_compared: usize,
    pub matches: Vec<SimilarName>,
}

/// The `top_k` names of `files` in `scope` most like `query`.
pub fn name_similarity(
    files: &[Arc<FileEntry>],
    query: &str,
    scope: NameScope,
    top_k: usize,
    phonetic: bool,
) -> NameSimilarity {
    let mut names: BTreeMap<&str, (usize, Vec<NamePlace>)> = BTreeMap::new();
    for file in files {
        let Ok(facts) = file.facts() else { continue };
        for symbol in facts.symbols.iter().filter(|s| scope.holds(s.kind)) {
            let entry = names.entry(symbol.name.as_str()).or_default();
            entry.0 += 1;
            if entry.1.len() < 5 {
                entry.1.push(NamePlace {
                    file_path: file.path.clone(),
                    line: symbol.span.start.line + 1,
                    kind: symbol.kind.as_str().to_ascii_lowercase(),
                });
            }
        }
    }
    let query_words = words(query);
    let encoder = DoubleMetaphone::default();
    let query_sound = phonetic.then(|| sounds(&encoder, &query_words));
    let mut matches: Vec<SimilarName> = names
        .iter()
        .filter_map(|(name, (count, places))| {
            let name_words = words(name);
            if name_words.is_empty() {
                return None;
            }
            let spelling = strsim::jaro_winkler(&query_words.concat(), &name_words.concat());
            let word_score = (word_match(&query_words, &name_words)
                + word_match(&name_words, &query_words))
                / 2.0;
            let phonetic_match = query_sound
                .as_ref()
                .is_some_and(|q| sounds_alike(q, &sounds(&encoder, &name_words)));
            let mut score = (spelling + word_score) / 2.0;
            if phonetic_match {
                score = score.max(0.9);
            }
            Some(SimilarName {
                name: name.to_string(),
                score: round(score),
                spelling: round(spelling),
                words: round(word_score),
                phonetic_match,
                declarations: *count,
                places: places.clone(),
            })
        })
        .collect();
    matches.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then_with(|| a.name.cmp(&b.name))
    });
    let names_compared = matches.len();
    matches.truncate(top_k);
    NameSimilarity {
        query: query.to_string(),
        query_words,
        names_compared,
        matches,
    }
}

/// The lowercase words of an identifier: split at underscores, digits,
/// dashes, dots and spaces, at a lowercase-to-uppercase change, and before
/// the last capital of a run followed by lowercase (`HTTPRequest` → http,
/// request).
pub fn words(name: &str) -> Vec<String> {
    let chars: Vec<char> = name.chars().collect();
    let mut out = Vec::new();
    let mut current = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_alphabetic() {
            if !current.is_empty() {
                out.push(std::mem::take(&mut current));
            }
            continue;
        }
        let previous = i.checked_sub(1).map(|p| chars[p]);
        let next = chars.get(i + 1).copied();
        let boundary = c.is_uppercase()
            && previous.is_some_and(|p| {
                p.is_lowercase() || (p.is_uppercase() && next.is_some_and(char::is_lowercase))
            });
        if boundary && !current.is_empty() {
            out.push(std::mem::take(&mut current));
        }
        current.extend(c.to_lowercase());
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

/// How well each of `from`'s words finds one in `to`, averaged.
fn word_match(from: &[String], to: &[String]) -> f64 {
    if from.is_empty() || to.is_empty() {
        return 0.0;
    }
    let best = |word: &String| {
        to.iter()
            .map(|other| {
                if word == other {
                    1.0
                } else if word.len().min(other.len()) >= 3
                    && (word.starts_with(other.as_str()) || other.starts_with(word.as_str()))
                {
                    0.8
                } else {
                    let jw = strsim::jaro_winkler(word, other);
                    if jw >= 0.85 { jw } else { 0.0 }
                }
            })
            .fold(0.0, f64::max)
    };
    from.iter().map(best).sum::<f64>() / from.len() as f64
}

/// The Double Metaphone codes (primary, alternate) of each word.
fn sounds(encoder: &DoubleMetaphone, words: &[String]) -> Vec<(String, String)> {
    words
        .iter()
        .map(|w| {
            let result = encoder.double_metaphone(w);
            (result.primary(), result.alternate())
        })
        .collect()
}

/// Whether two names' words sound alike, word for word in order.
fn sounds_alike(a: &[(String, String)], b: &[(String, String)]) -> bool {
    a.len() == b.len()
        && !a.is_empty()
        && a.iter().zip(b).all(|((p1, a1), (p2, a2))| {
            !p1.is_empty() && (p1 == p2 || p1 == a2 || a1 == p2 || (!a1.is_empty() && a1 == a2))
        })
}

fn round(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_split_into_their_words() {
        assert_eq!(words("parseHTTPRequest"), ["parse", "http", "request"]);
        assert_eq!(words("calculate_total2"), ["calculate", "total"]);
        assert_eq!(words("XMLHttpRequest"), ["xml", "http", "request"]);
        assert_eq!(words("__init__"), ["init"]);
        assert!(words("_42_").is_empty());
    }

    #[test]
    fn abbreviations_and_reorderings_score_by_their_words() {
        let q = words("calculateTotal");
        assert_eq!(word_match(&q, &words("calculate_total")), 1.0);
        assert_eq!(word_match(&q, &words("calcTotal")), 0.9);
        assert_eq!(word_match(&q, &words("totalCalculate")), 1.0);
        assert_eq!(word_match(&q, &words("renderPage")), 0.0);
    }

    #[test]
    fn names_that_sound_alike_are_found() {
        let encoder = DoubleMetaphone::default();
        let sound = |n: &str| sounds(&encoder, &words(n));
        assert!(sounds_alike(&sound("fetchColour"), &sound("fetchColor")));
        assert!(sounds_alike(&sound("getPhoto"), &sound("getFoto")));
        assert!(!sounds_alike(&sound("getPhoto"), &sound("getPrice")));
    }
}
