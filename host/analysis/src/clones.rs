//! Clone detection over the plugins' token streams: exact and
//! renamed-identifier clones by fingerprints of token windows extended to
//! maximal matches, gapped clones by MinHash signatures of functions'
//! token shingles with locality-sensitive hashing.
//!
//! Tokens are compared by text, never by language, so a clone between two
//! languages of one tree (TypeScript and JavaScript) is found like any
//! other. Comments are left out. Every loop is bounded by the number of
//! tokens, and the work per fingerprint and per bucket by fixed caps (what
//! a cap left out is reported).
//!
//! Exact and renamed: each token is normalised (an identifier to one
//! symbol, a literal to another, anything else to its text), k-token
//! windows are hashed and winnowed (Schleimer, Wilkerson and Aiken, 2003:
//! the smallest hash of each run of `w` windows is kept, which guarantees
//! that every match of `k + w - 1` tokens or more shares a kept
//! fingerprint), and each pair of places sharing a fingerprint is extended
//! both ways to the longest run of equal normalised tokens. A match is
//! `exact` when its places are also equal token for token, else `renamed`.
//!
//! Gapped: each function of enough lines is its set of 5-token shingles;
//! 64 MinHash values per function, banded 16 × 4, propose pairs whose
//! Jaccard similarity is then computed exactly and kept at `threshold` or
//! above, unless one exact or renamed clone already covers both.

use std::collections::{BTreeMap, HashMap, HashSet};

use lingo_model::{Token, TokenKind};

/// One file's tokens, as the plugin gave them (checked), and its functions.
pub struct TokenFile<'a> {
    pub source: &'a str,
    pub tokens: &'a [Token],
    /// The byte ranges of the file's functions (for gapped clones).
    pub functions: Vec<(u32, u32)>,
}

/// What to look for.
#[derive(Debug, Clone, Copy)]
pub struct CloneOptions {
    /// Fewest tokens (comments left out) a clone spans.
    pub min_tokens: usize,
    /// Fewest lines each place of a clone spans.
    pub min_lines: u32,
    /// Lowest Jaccard similarity of a gapped clone (0-1).
    pub threshold: f64,
    /// Look for exact and renamed clones.
    pub token_clones: bool,
    /// Look for gapped clones.
    pub gapped: bool,
}

/// How the places of a clone differ.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum CloneKind {
    /// The same tokens.
    Exact,
    /// The same tokens but for identifiers and literals.
    Renamed,
    /// Similar functions with tokens inserted or deleted.
    Gapped,
}

impl CloneKind {
    pub fn as_str(self) -> &'static str {
        match self {
            CloneKind::Exact => "exact",
            CloneKind::Renamed => "renamed",
            CloneKind::Gapped => "gapped",
        }
    }
}

/// One place of a clone: a byte range of a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Place {
    /// Index into the files handed in.
    pub file: usize,
    pub start: u32,
    pub end: u32,
    /// Its tokens, comments left out.
    pub tokens: usize,
}

/// Places holding the same code.
#[derive(Debug, Clone)]
pub struct CloneClass {
    pub kind: CloneKind,
    pub places: Vec<Place>,
    /// 1 for exact and renamed clones; the lowest Jaccard similarity of
    /// the pairs joining a gapped class.
    pub similarity: f64,
}

/// The classes found, and what the caps left out.
#[derive(Debug, Default)]
pub struct Clones {
    pub classes: Vec<CloneClass>,
    /// One line per cap reached.
    pub capped: Vec<String>,
}

/// The most places sharing one fingerprint (or one MinHash band) that are
/// paired up; a fingerprint shared more widely is boilerplate.
const MAX_BUCKET: usize = 64;
/// The most matches kept before extending stops.
const MAX_MATCHES: usize = 200_000;
/// Tokens per shingle of a gapped clone.
const SHINGLE: usize = 5;
/// MinHash values per function, in `BANDS` bands of `ROWS`.
const BANDS: usize = 16;
const ROWS: usize = 4;

/// The clone classes of `files`.
pub fn find(files: &[TokenFile], options: &CloneOptions) -> Clones {
    let stream = Stream::new(files);
    let mut clones = Clones::default();
    if options.token_clones {
        clones.classes = token_clones(&stream, files, options, &mut clones.capped);
    }
    if options.gapped {
        let gapped = gapped_clones(&stream, files, options, &clones.classes, &mut clones.capped);
        clones.classes.extend(gapped);
        // The pieces of a gapped clone's functions are part of it.
        clones.classes = without_subsumed(std::mem::take(&mut clones.classes));
    }
    clones.classes.sort_by(|a, b| {
        (b.places[0].tokens, a.kind, &a.places).cmp(&(a.places[0].tokens, b.kind, &b.places))
    });
    clones
}

/// Every file's code tokens in one sequence, normalised.
struct Stream {
    /// Renamed-normalised hash per token.
    norm: Vec<u64>,
    /// Exact hash per token.
    exact: Vec<u64>,
    /// Byte range per token.
    range: Vec<(u32, u32)>,
    /// File per token.
    file: Vec<u32>,
    /// Where each file's tokens start in the sequence (one more entry than
    /// files: the end).
    starts: Vec<usize>,
}

const IDENTIFIER: u64 = 0x9e37_79b9_7f4a_7c15;
const LITERAL: u64 = 0xc2b2_ae3d_27d4_eb4f;

impl Stream {
    fn new(files: &[TokenFile]) -> Stream {
        let total: usize = files.iter().map(|f| f.tokens.len()).sum();
        let mut stream = Stream {
            norm: Vec::with_capacity(total),
            exact: Vec::with_capacity(total),
            range: Vec::with_capacity(total),
            file: Vec::with_capacity(total),
            starts: Vec::with_capacity(files.len() + 1),
        };
        for (index, file) in files.iter().enumerate() {
            stream.starts.push(stream.norm.len());
            for token in file.tokens {
                if token.kind == TokenKind::Comment {
                    continue;
                }
                let text = file
                    .source
                    .get(token.start as usize..token.end as usize)
                    .unwrap_or("");
                let exact = text_hash(text);
                stream.exact.push(exact);
                stream.norm.push(match token.kind {
                    TokenKind::Identifier => IDENTIFIER,
                    TokenKind::Literal => LITERAL,
                    _ => exact,
                });
                stream.range.push((token.start, token.end));
                stream.file.push(index as u32);
            }
        }
        stream.starts.push(stream.norm.len());
        stream
    }

    /// The token positions of file `f`.
    fn file_range(&self, f: usize) -> std::ops::Range<usize> {
        self.starts[f]..self.starts[f + 1]
    }

    /// The place tokens `from..to` (same file) cover.
    fn place(&self, from: usize, to: usize) -> Place {
        Place {
            file: self.file[from] as usize,
            start: self.range[from].0,
            end: self.range[to - 1].1,
            tokens: to - from,
        }
    }
}

/// FNV-1a over the text, then mixed: stable across runs and platforms.
fn text_hash(text: &str) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in text.bytes() {
        hash ^= byte as u64;
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    mix(hash)
}

/// A 64-bit finaliser (splitmix64's).
fn mix(mut x: u64) -> u64 {
    x ^= x >> 30;
    x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^= x >> 27;
    x = x.wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// The winnowed fingerprints of every file: (hash, position of the
/// window's first token), for windows of `k` tokens, one kept per run of
/// `w` windows.
fn fingerprints(stream: &Stream, k: usize, w: usize) -> Vec<(u64, u32)> {
    const BASE: u64 = 0x100_0000_01b3;
    let top = (0..k - 1).fold(1u64, |p, _| p.wrapping_mul(BASE));
    let mut kept = Vec::new();
    for f in 0..stream.starts.len() - 1 {
        let range = stream.file_range(f);
        if range.len() < k {
            continue;
        }
        let mut hashes = Vec::with_capacity(range.len() - k + 1);
        let mut hash = 0u64;
        for (i, p) in range.clone().enumerate() {
            if i >= k {
                hash = hash.wrapping_sub(stream.norm[p - k].wrapping_mul(top));
            }
            hash = hash.wrapping_mul(BASE).wrapping_add(stream.norm[p]);
            if i + 1 >= k {
                hashes.push(mix(hash));
            }
        }
        let mut last: Option<usize> = None;
        for window in 0..hashes.len().saturating_sub(w - 1).max(1) {
            let end = (window + w).min(hashes.len());
            // The rightmost smallest hash of the run.
            let mut best = window;
            for i in window..end {
                if hashes[i] <= hashes[best] {
                    best = i;
                }
            }
            if last != Some(best) {
                kept.push((hashes[best], (range.start + best) as u32));
                last = Some(best);
            }
        }
    }
    kept.sort_unstable();
    kept
}

/// Exact and renamed clone classes: matches from shared fingerprints,
/// extended to maximal runs, joined into classes of equal places.
fn token_clones(
    stream: &Stream,
    files: &[TokenFile],
    options: &CloneOptions,
    capped: &mut Vec<String>,
) -> Vec<CloneClass> {
    let t = options.min_tokens.max(2);
    let k = (t / 2).max(1);
    let w = t - k + 1;
    let prints = fingerprints(stream, k, w);
    let mut matches: HashSet<(u32, u32, u32)> = HashSet::new();
    let mut wide_buckets = 0usize;
    let mut group_start = 0;
    while group_start < prints.len() {
        let hash = prints[group_start].0;
        let mut group_end = group_start;
        while group_end < prints.len() && prints[group_end].0 == hash {
            group_end += 1;
        }
        let group = &prints[group_start..group_end];
        group_start = group_end;
        if group.len() > MAX_BUCKET {
            wide_buckets += 1;
        }
        let group = &group[..group.len().min(MAX_BUCKET)];
        for (i, &(_, a)) in group.iter().enumerate() {
            for &(_, b) in &group[i + 1..] {
                if matches.len() >= MAX_MATCHES {
                    break;
                }
                if let Some(found) = extend(stream, a as usize, b as usize, k)
                    && found.2 as usize >= t
                {
                    matches.insert(found);
                }
            }
        }
    }
    if wide_buckets > 0 {
        capped.push(format!(
            "{wide_buckets} token windows occur more than {MAX_BUCKET} times; only {MAX_BUCKET} places of each were compared"
        ));
    }
    if matches.len() >= MAX_MATCHES {
        capped.push(format!("stopped at {MAX_MATCHES} matches"));
    }
    classes_of(stream, files, matches, options.min_lines)
}

/// The maximal run of equal normalised tokens through positions `a` and
/// `b` (`k` tokens from each equal), as (start a, start b, length), `a`
/// first; a run that overlaps itself in one file is cut where the second
/// place starts. `None` when the windows differ (a hash collision).
fn extend(stream: &Stream, a: usize, b: usize, k: usize) -> Option<(u32, u32, u32)> {
    let (a, b) = if a < b { (a, b) } else { (b, a) };
    if stream.norm[a..a + k] != stream.norm[b..b + k] {
        return None;
    }
    let (fa, fb) = (stream.file[a] as usize, stream.file[b] as usize);
    let (ra, rb) = (stream.file_range(fa), stream.file_range(fb));
    let mut back = 0;
    while a - back > ra.start
        && b - back > rb.start
        && stream.norm[a - back - 1] == stream.norm[b - back - 1]
    {
        back += 1;
    }
    let mut len = k;
    while a + len < ra.end && b + len < rb.end && stream.norm[a + len] == stream.norm[b + len] {
        len += 1;
    }
    let (start_a, start_b) = (a - back, b - back);
    let mut len = len + back;
    if fa == fb && start_b < start_a + len {
        len = start_b - start_a;
    }
    (len > 0).then_some((start_a as u32, start_b as u32, len as u32))
}

/// Classes of equal places (start and length) from pairwise matches, each
/// place spanning `min_lines` lines or more.
fn classes_of(
    stream: &Stream,
    files: &[TokenFile],
    matches: HashSet<(u32, u32, u32)>,
    min_lines: u32,
) -> Vec<CloneClass> {
    let mut members: BTreeMap<(u32, u32), Vec<u32>> = BTreeMap::new();
    let mut matches: Vec<_> = matches.into_iter().collect();
    matches.sort_unstable();
    for (a, b, len) in matches {
        let starts = members.entry((a, len)).or_default();
        starts.push(b);
    }
    // Join (a, len)'s partners with those of places already in a class of
    // that length: a class is every start equal to another at `len`.
    let mut class_of: HashMap<(u32, u32), usize> = HashMap::new();
    let mut classes: Vec<Vec<u32>> = Vec::new();
    let mut lengths: Vec<u32> = Vec::new();
    for ((a, len), partners) in members {
        let id = *class_of.entry((a, len)).or_insert_with(|| {
            classes.push(vec![a]);
            lengths.push(len);
            classes.len() - 1
        });
        for b in partners {
            // A place overlapping one of the class (a run repeating
            // itself) is not another copy.
            let overlaps = classes[id].iter().any(|&m| {
                stream.file[m as usize] == stream.file[b as usize] && m.abs_diff(b) < len
            });
            if !overlaps && class_of.insert((b, len), id).is_none() {
                classes[id].push(b);
            }
        }
    }
    let found: Vec<CloneClass> = classes
        .into_iter()
        .zip(lengths)
        .filter(|(starts, _)| starts.len() > 1)
        .filter_map(|(mut starts, len)| {
            starts.sort_unstable();
            let len = len as usize;
            let places: Vec<Place> = starts
                .iter()
                .map(|&s| stream.place(s as usize, s as usize + len))
                .collect();
            if places.iter().any(|p| lines_spanned(files, p) < min_lines) {
                return None;
            }
            let first = starts[0] as usize;
            let exact = starts.iter().all(|&s| {
                stream.exact[s as usize..s as usize + len] == stream.exact[first..first + len]
            });
            Some(CloneClass {
                kind: if exact {
                    CloneKind::Exact
                } else {
                    CloneKind::Renamed
                },
                places,
                similarity: 1.0,
            })
        })
        .collect();
    without_subsumed(found)
}

/// The classes less those whose every place lies inside a place of a
/// larger class kept before it: a part of a copied function is not
/// another clone.
fn without_subsumed(mut classes: Vec<CloneClass>) -> Vec<CloneClass> {
    classes.sort_by(|a, b| b.places[0].tokens.cmp(&a.places[0].tokens));
    // Kept places by (file, start), with their ends.
    let mut kept: BTreeMap<(usize, u32), u32> = BTreeMap::new();
    let inside = |kept: &BTreeMap<(usize, u32), u32>, p: &Place| {
        kept.range((p.file, 0)..=(p.file, p.start))
            .rev()
            .take(16)
            .any(|(_, &end)| end >= p.end)
    };
    classes.retain(|class| {
        if class.places.iter().all(|p| inside(&kept, p)) {
            return false;
        }
        for p in &class.places {
            let end = kept.entry((p.file, p.start)).or_insert(p.end);
            *end = (*end).max(p.end);
        }
        true
    });
    classes
}

/// How many lines `place` spans.
pub fn lines_spanned(files: &[TokenFile], place: &Place) -> u32 {
    let text = files[place.file]
        .source
        .get(place.start as usize..place.end as usize)
        .unwrap_or("");
    text.bytes().filter(|&b| b == b'\n').count() as u32 + 1
}

/// A function's tokens, as a set of shingle hashes and its place.
struct Function {
    place: Place,
    shingles: Vec<u64>,
}

/// Gapped clone classes: functions whose shingle sets are similar, joined
/// into classes, leaving out pairs one token clone already covers.
fn gapped_clones(
    stream: &Stream,
    files: &[TokenFile],
    options: &CloneOptions,
    token_classes: &[CloneClass],
    capped: &mut Vec<String>,
) -> Vec<CloneClass> {
    let functions = functions(stream, files, options);
    // The token-clone classes covering most of each function.
    let covered: Vec<HashSet<usize>> = functions
        .iter()
        .map(|f| {
            token_classes
                .iter()
                .enumerate()
                .filter(|(_, c)| c.places.iter().any(|p| covers_most(p, &f.place)))
                .map(|(i, _)| i)
                .collect()
        })
        .collect();
    let seeds: Vec<u64> = (0..BANDS * ROWS)
        .map(|i| mix(0x5851_f42d_4c95_7f2d ^ i as u64))
        .collect();
    let mut buckets: HashMap<(usize, u64), Vec<usize>> = HashMap::new();
    for (index, function) in functions.iter().enumerate() {
        let signature: Vec<u64> = seeds
            .iter()
            .map(|seed| {
                function
                    .shingles
                    .iter()
                    .map(|s| mix(s ^ seed))
                    .min()
                    .unwrap_or(u64::MAX)
            })
            .collect();
        for band in 0..BANDS {
            let key = signature[band * ROWS..(band + 1) * ROWS]
                .iter()
                .fold(band as u64, |h, v| mix(h ^ v));
            buckets.entry((band, key)).or_default().push(index);
        }
    }
    let mut pairs: BTreeMap<(usize, usize), f64> = BTreeMap::new();
    let mut wide_buckets = 0usize;
    let mut keys: Vec<_> = buckets.keys().copied().collect();
    keys.sort_unstable();
    for key in keys {
        let members = &buckets[&key];
        if members.len() > MAX_BUCKET {
            wide_buckets += 1;
        }
        let members = &members[..members.len().min(MAX_BUCKET)];
        for (i, &a) in members.iter().enumerate() {
            for &b in &members[i + 1..] {
                let pair = (a.min(b), a.max(b));
                if pairs.contains_key(&pair)
                    || nested(&functions[a].place, &functions[b].place)
                    || !covered[a].is_disjoint(&covered[b])
                {
                    continue;
                }
                let similarity = jaccard(&functions[a].shingles, &functions[b].shingles);
                if similarity >= options.threshold {
                    pairs.insert(pair, similarity);
                }
            }
        }
    }
    if wide_buckets > 0 {
        capped.push(format!(
            "{wide_buckets} groups of near-identical functions had more than {MAX_BUCKET} members; only {MAX_BUCKET} of each were compared"
        ));
    }
    join_pairs(&functions, pairs)
}

/// The functions of `files` spanning `min_lines` lines and enough tokens
/// for one shingle, with their shingles (sorted, distinct).
fn functions(stream: &Stream, files: &[TokenFile], options: &CloneOptions) -> Vec<Function> {
    let mut out = Vec::new();
    for (f, file) in files.iter().enumerate() {
        let range = stream.file_range(f);
        let starts = &stream.range[range.clone()];
        for &(start, end) in &file.functions {
            let from = range.start + starts.partition_point(|r| r.0 < start);
            let to = range.start + starts.partition_point(|r| r.1 <= end);
            if to <= from || to - from < SHINGLE.max(options.min_tokens / 2) {
                continue;
            }
            let place = stream.place(from, to);
            if lines_spanned(files, &place) < options.min_lines {
                continue;
            }
            let mut shingles: Vec<u64> = stream.norm[from..to]
                .windows(SHINGLE)
                .map(|w| w.iter().fold(0u64, |h, t| mix(h ^ t)))
                .collect();
            shingles.sort_unstable();
            shingles.dedup();
            out.push(Function { place, shingles });
        }
    }
    out
}

/// Whether `outer` covers at least four fifths of `inner`'s bytes.
fn covers_most(outer: &Place, inner: &Place) -> bool {
    if outer.file != inner.file {
        return false;
    }
    let overlap = outer
        .end
        .min(inner.end)
        .saturating_sub(outer.start.max(inner.start));
    overlap as u64 * 5 >= (inner.end - inner.start) as u64 * 4
}

/// Whether one place lies within the other (a closure in its function).
fn nested(a: &Place, b: &Place) -> bool {
    a.file == b.file
        && ((a.start <= b.start && b.end <= a.end) || (b.start <= a.start && a.end <= b.end))
}

/// |a ∩ b| / |a ∪ b| of two sorted, distinct lists.
fn jaccard(a: &[u64], b: &[u64]) -> f64 {
    let (mut i, mut j, mut both) = (0, 0, 0usize);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                both += 1;
                i += 1;
                j += 1;
            }
        }
    }
    let union = a.len() + b.len() - both;
    if union == 0 {
        0.0
    } else {
        both as f64 / union as f64
    }
}

/// Classes of the functions joined by similar pairs (connected
/// components), each with the lowest similarity of its pairs.
fn join_pairs(functions: &[Function], pairs: BTreeMap<(usize, usize), f64>) -> Vec<CloneClass> {
    let mut graph = petgraph::unionfind::UnionFind::<usize>::new(functions.len());
    for &(a, b) in pairs.keys() {
        graph.union(a, b);
    }
    let mut classes: BTreeMap<usize, (Vec<usize>, f64)> = BTreeMap::new();
    for (&(a, b), &similarity) in &pairs {
        let class = classes.entry(graph.find(a)).or_insert((Vec::new(), 1.0));
        class.0.extend([a, b]);
        class.1 = class.1.min(similarity);
    }
    classes
        .into_values()
        .map(|(mut members, similarity)| {
            members.sort_unstable();
            members.dedup();
            CloneClass {
                kind: CloneKind::Gapped,
                places: members.iter().map(|&m| functions[m].place).collect(),
                similarity: (similarity * 1000.0).round() / 1000.0,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Tokens of `source` split at whitespace: words in `KEYWORDS` are
    /// keywords, digits literals, other words identifiers, the rest
    /// punctuation; `#` starts a comment to the end of the line.
    fn lex(source: &str) -> Vec<Token> {
        const KEYWORDS: &[&str] = &["fn", "let", "if", "return", "else", "while"];
        let mut tokens = Vec::new();
        let mut offset = 0;
        for line in source.split_inclusive('\n') {
            let code_end = line.find('#').unwrap_or(line.len());
            let mut column = 0;
            for word in line[..code_end].split(' ') {
                let (start, end) = (offset + column, offset + column + word.trim_end().len());
                column += word.len() + 1;
                let text = word.trim_end();
                if text.is_empty() {
                    continue;
                }
                let kind = if KEYWORDS.contains(&text) {
                    TokenKind::Keyword
                } else if text.chars().all(|c| c.is_ascii_digit()) {
                    TokenKind::Literal
                } else if text.chars().all(|c| c.is_alphanumeric() || c == '_') {
                    TokenKind::Identifier
                } else {
                    TokenKind::Punctuation
                };
                tokens.push(Token {
                    kind,
                    start: start as u32,
                    end: end as u32,
                });
            }
            if code_end < line.len() {
                let end = offset + line.trim_end().len();
                tokens.push(Token {
                    kind: TokenKind::Comment,
                    start: (offset + code_end) as u32,
                    end: end as u32,
                });
            }
            offset += line.len();
        }
        tokens
    }

    /// A function of `n` (at most 8) different statements over `names`.
    fn function(name: &str, names: [&str; 3], n: usize) -> String {
        let [a, b, c] = names;
        let statements = [
            format!("let {c} = {a} + {b} * 2 ;"),
            format!("if {c} > {a} {{ return {c} ; }}"),
            format!("while {b} < 10 {{ {b} = {b} + {a} ; }}"),
            format!("{a} = {c} - {b} / 3 ;"),
            format!("if {a} == {b} {{ {c} = 0 ; }} else {{ {c} = 1 ; }}"),
            format!("let {b} = ( {a} , {c} ) ;"),
            format!("return {a} * {b} + {c} ;"),
            format!("{c} = {c} % 7 ;"),
        ];
        let mut text = format!("fn {name} ( {a} , {b} ) {{\n");
        for statement in &statements[..n] {
            text.push_str(&format!("  {statement}\n"));
        }
        text.push_str("}\n");
        text
    }

    fn find_in(sources: &[&str], options: CloneOptions) -> Clones {
        let tokens: Vec<Vec<Token>> = sources.iter().map(|s| lex(s)).collect();
        let files: Vec<TokenFile> = sources
            .iter()
            .zip(&tokens)
            .map(|(source, tokens)| TokenFile {
                source,
                tokens,
                functions: vec![(0, source.len() as u32)],
            })
            .collect();
        find(&files, &options)
    }

    const OPTIONS: CloneOptions = CloneOptions {
        min_tokens: 30,
        min_lines: 3,
        threshold: 0.6,
        token_clones: true,
        gapped: false,
    };

    #[test]
    fn the_same_function_in_two_files_is_an_exact_clone() {
        let a = format!("# first\n{}", function("f", ["x", "y", "z"], 8));
        let b = format!("fn other ( ) {{ }}\n{}", function("f", ["x", "y", "z"], 8));
        let clones = find_in(&[&a, &b], OPTIONS);
        assert_eq!(clones.classes.len(), 1, "{:?}", clones.classes);
        let class = &clones.classes[0];
        assert_eq!(class.kind, CloneKind::Exact);
        assert_eq!(class.places.len(), 2);
        // The whole function, from `fn f` to its closing brace, in each.
        assert_eq!(
            &a[class.places[0].start as usize..class.places[0].end as usize],
            function("f", ["x", "y", "z"], 8).trim_end()
        );
        assert_eq!(class.places[1].file, 1);
    }

    #[test]
    fn renamed_variables_make_a_renamed_clone() {
        let a = function("f", ["x", "y", "z"], 8);
        let b = function("g", ["left", "right", "sum"], 8);
        let clones = find_in(&[&a, &b], OPTIONS);
        assert_eq!(clones.classes.len(), 1);
        assert_eq!(clones.classes[0].kind, CloneKind::Renamed);
    }

    #[test]
    fn different_code_and_short_repeats_are_no_clones() {
        let a = function("f", ["x", "y", "z"], 8);
        let b = "fn g ( ) {\n  while q { q = q - 1 ; }\n  return q ;\n}\n".repeat(2);
        let clones = find_in(&[&a, &b], OPTIONS);
        assert!(clones.classes.is_empty(), "{:?}", clones.classes);
    }

    #[test]
    fn a_run_repeating_itself_makes_places_that_do_not_overlap() {
        let body = "  let z = x + y * 2 ;\n".repeat(40);
        let clones = find_in(&[&body], OPTIONS);
        for class in &clones.classes {
            let mut places = class.places.clone();
            places.sort();
            for pair in places.windows(2) {
                assert!(pair[0].end <= pair[1].start, "{places:?}");
            }
        }
        assert!(!clones.classes.is_empty());
    }

    #[test]
    fn functions_with_lines_inserted_are_gapped_clones() {
        let a = function("f", ["x", "y", "z"], 8);
        let mut b = function("f", ["x", "y", "z"], 8);
        let third = b.match_indices('\n').nth(3).unwrap().0 + 1;
        b.insert_str(third, "  while x { x = x - 1 ; }\n");
        let gapped_only = CloneOptions {
            token_clones: false,
            gapped: true,
            ..OPTIONS
        };
        let clones = find_in(&[&a, &b], gapped_only);
        assert_eq!(clones.classes.len(), 1, "{:?}", clones.classes);
        let class = &clones.classes[0];
        assert_eq!(class.kind, CloneKind::Gapped);
        assert!(
            class.similarity >= 0.6 && class.similarity < 1.0,
            "{}",
            class.similarity
        );
        // With token clones asked too, the runs before and after the
        // inserted line are parts of the gapped clone, not clones of their
        // own.
        let both = CloneOptions {
            gapped: true,
            ..OPTIONS
        };
        let clones = find_in(&[&a, &b], both);
        let kinds: Vec<_> = clones.classes.iter().map(|c| c.kind).collect();
        assert_eq!(kinds, [CloneKind::Gapped], "{:?}", clones.classes);
        // A copy made whole is exact, and not gapped as well.
        let clones = find_in(&[&a, &a.clone()], both);
        let kinds: Vec<_> = clones.classes.iter().map(|c| c.kind).collect();
        assert_eq!(kinds, [CloneKind::Exact], "{:?}", clones.classes);
    }

    #[test]
    fn empty_and_tokenless_files_are_fine() {
        let clones = find_in(
            &["", "   \n", "# only a comment\n"],
            CloneOptions {
                gapped: true,
                ..OPTIONS
            },
        );
        assert!(clones.classes.is_empty());
    }
}
