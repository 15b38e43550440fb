//! Declarations nothing uses, as far as the whole workspace shows: private
//! (so nothing outside the workspace can use them), not an entry point the
//! plugin names (`main`, a test, a trait implementation), and neither
//! referenced nor even mentioned by name anywhere outside other such
//! declarations. A private helper that only a dead function calls is dead
//! too: the judgement is a greatest fixpoint, as a compiler's reachability
//! is. `delete` of dead code and the dead-code analysis share it.
//!
//! The mention check is what makes "dead" safe to act on: a name written in
//! a macro body, an attribute, a string or a doc link is used in ways no
//! reference fact records, and a same-named use that resolved elsewhere
//! may still be this declaration's. Such a declaration is *kept*, with the
//! places that name it, never reported dead.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use petgraph::Direction;
use serde::Serialize;

use super::view::{Range, RangePoint, qualified_name};
use super::{Analysis, Incompleteness};
use lingo_index::FileEntry;
use lingo_model::budget::Exhausted;
use lingo_model::{FileFacts, SymbolKind, Visibility};
use lingo_resolve::SymbolRef;
use lingo_resolve::graph::{EdgeKind, Node};

/// Most places listed for one kept declaration.
pub const MAX_MENTIONS_LISTED: usize = 3;

/// What the dead-code judgement found in the files asked about.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DeadCode {
    /// Private declarations nothing uses, in path and source order.
    pub dead: Vec<DeadDeclaration>,
    /// Private declarations no reference outside them resolves to, kept
    /// because their name is written somewhere outside dead code.
    pub kept: Vec<KeptDeclaration>,
    /// Files whose plugin does not say which declarations are entry points:
    /// nothing in them is judged.
    pub unjudged_files: Vec<String>,
    /// Private declarations skipped as entry points.
    pub entry_points: usize,
    /// What the snapshot could not see (unanalysed files, failed import
    /// resolutions); with it, "dead" may be wrong.
    pub incompleteness: Option<Incompleteness>,
}

/// A declaration found unused.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DeadDeclaration {
    pub file_path: String,
    pub name: String,
    /// `Outer.Inner.name`.
    pub qualified_name: String,
    pub kind: &'static str,
    pub range: Range,
    #[serde(skip)]
    pub symbol: SymbolRef,
}

/// A declaration with no reference whose name is still written elsewhere.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct KeptDeclaration {
    #[serde(flatten)]
    pub declaration: DeadDeclaration,
    /// How many places outside dead code write its name.
    pub mentions: usize,
    /// The first of them, `path:line:column` (1-based).
    pub mentioned_at: Vec<String>,
}

/// The kinds of declaration a deletion can take whole: callables, types
/// and constants. Fields, properties, variables (whose initialiser may
/// have effects), enum members and modules are never judged.
fn judged_kind(kind: SymbolKind) -> bool {
    matches!(
        kind,
        SymbolKind::Function
            | SymbolKind::Method
            | SymbolKind::Class
            | SymbolKind::Struct
            | SymbolKind::Enum
            | SymbolKind::Interface
            | SymbolKind::Constant
    )
}

/// One private declaration under judgement.
struct Candidate {
    symbol: SymbolRef,
    /// Byte range of its declaration in its file.
    start: u32,
    end: u32,
    /// Where the lines right above it begin (its doc comment and
    /// attributes, which may name it): a mention there that is no
    /// reference is its own.
    documented_from: u32,
}

/// A place a candidate's name is written: file number, byte offset, and
/// what stands there.
type Use = (u32, u32, UseKind);

/// What a place that writes a candidate's name is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum UseKind {
    /// A reference resolved to the candidate (a graph edge into it).
    Resolved,
    /// A reference of the same name that resolved elsewhere or not at all.
    Reference,
    /// No reference: a comment, a string, a macro body, an attribute.
    Text,
}

/// Most lines above a declaration read as its doc comment and attributes.
const MAX_DOC_LINES: usize = 64;

impl Analysis {
    /// The dead-code judgement over `files` (usually [`Self::files_under`]);
    /// uses anywhere in the workspace count. Declarations in `pinned` count
    /// as used (a deletion that cannot take one out keeps what it uses).
    pub fn dead_code(
        &self,
        files: &[Arc<FileEntry>],
        pinned: &HashSet<SymbolRef>,
    ) -> Result<DeadCode, Exhausted> {
        let table = self.table();
        let mut candidates = Vec::new();
        let mut unjudged_files = Vec::new();
        let mut entry_points = 0;
        let resolver = self.resolver();
        // Each type's supertypes, resolved once for all its methods.
        let mut supertypes: HashMap<SymbolRef, Vec<SymbolRef>> = HashMap::new();
        for file in files {
            let Ok(facts) = file.facts() else { continue };
            let Some(number) = table.file_number(&file.path) else {
                continue;
            };
            let Some(entries) = &facts.entry_points else {
                unjudged_files.push(file.path.clone());
                continue;
            };
            let called: HashSet<u32> = entries.iter().map(|e| e.symbol).collect();
            let unused_on_purpose = &file.plugin.info().policy.unused_declarations;
            for (index, symbol) in facts.symbols.iter().enumerate() {
                if symbol.visibility != Visibility::Private
                    || !judged_kind(symbol.kind)
                    || !is_name(&symbol.name)
                    || unused_on_purpose.matches(&symbol.name)
                    || symbol.modifiers.iter().any(|m| m == "partial")
                {
                    continue;
                }
                let symbol_ref = SymbolRef {
                    file: number,
                    symbol: index as u32,
                };
                // An override is called through its supertype's method,
                // whatever the language says of it.
                let overrides = symbol.kind.is_callable()
                    && symbol.container.is_some_and(|container| {
                        let ty = SymbolRef {
                            file: number,
                            symbol: container,
                        };
                        supertypes
                            .entry(ty)
                            .or_insert_with(|| resolver.all_supertypes(ty))
                            .iter()
                            .any(|base| resolver.declares_member(*base, &symbol.name))
                    });
                if called.contains(&(index as u32))
                    || inside_entry_point(facts, index, &called)
                    || overrides
                {
                    entry_points += 1;
                    continue;
                }
                candidates.push(Candidate {
                    symbol: symbol_ref,
                    start: symbol.span.start.offset,
                    end: symbol.span.end.offset,
                    documented_from: documented_from(&file.source(), facts, index),
                });
            }
        }
        let uses = self.uses_of(&candidates)?;
        let by_file = ByFile::new(&candidates);
        let pinned: Vec<bool> = candidates
            .iter()
            .map(|c| pinned.contains(&c.symbol))
            .collect();
        let alive = fixpoint(&by_file, &uses, pinned.clone());
        let mut dead = Vec::new();
        let mut kept = Vec::new();
        for (index, candidate) in candidates.iter().enumerate() {
            let Some(declaration) = self.declaration(candidate.symbol) else {
                continue;
            };
            if !alive[index] {
                dead.push(declaration);
                continue;
            }
            if pinned[index] {
                continue;
            }
            // Its own declaration and what dead code says are no mention.
            let own = |&(file, offset, kind): &Use| {
                let from = if kind == UseKind::Text {
                    candidate.documented_from
                } else {
                    candidate.start
                };
                file == candidate.symbol.file && from <= offset && offset < candidate.end
            };
            let mut places: Vec<&Use> = uses[index]
                .iter()
                .filter(|u| !own(u) && !by_file.inside(&alive, u))
                .collect();
            if places.iter().any(|(_, _, kind)| *kind == UseKind::Resolved) {
                // Used.
                continue;
            }
            places.sort_unstable();
            places.dedup_by_key(|(file, offset, _)| (*file, *offset));
            kept.push(KeptDeclaration {
                declaration,
                mentions: places.len(),
                mentioned_at: places
                    .iter()
                    .take(MAX_MENTIONS_LISTED)
                    .map(|(file, offset, _)| self.place(*file, *offset))
                    .collect(),
            });
        }
        Ok(DeadCode {
            dead,
            kept,
            unjudged_files,
            entry_points,
            incompleteness: self.incompleteness(),
        })
    }

    /// Per candidate, every place its name is written or a reference to it
    /// stands (file number, byte offset): the words of every indexed file,
    /// and the sites of the graph's edges into it.
    fn uses_of(&self, candidates: &[Candidate]) -> Result<Vec<Vec<Use>>, Exhausted> {
        let table = self.table();
        let mut by_name: HashMap<&str, Vec<usize>> = HashMap::new();
        for (index, candidate) in candidates.iter().enumerate() {
            if let Ok(facts) = table.file(candidate.symbol).facts()
                && let Some(symbol) = facts.symbols.get(candidate.symbol.symbol as usize)
            {
                by_name.entry(symbol.name.as_str()).or_default().push(index);
            }
        }
        let mut uses = vec![Vec::new(); candidates.len()];
        if candidates.is_empty() {
            return Ok(uses);
        }
        for (number, file) in table.files().iter().enumerate() {
            // Where the file's references start, read only once a name is found.
            let mut reference_starts: Option<Vec<u32>> = None;
            for (offset, word) in words(&file.source()) {
                let Some(named) = by_name.get(word) else {
                    continue;
                };
                let starts = reference_starts.get_or_insert_with(|| {
                    let mut starts: Vec<u32> = file
                        .facts()
                        .map(|f| f.references.iter().map(|r| r.span.start.offset).collect())
                        .unwrap_or_default();
                    starts.sort_unstable();
                    starts
                });
                let kind = if starts.binary_search(&(offset as u32)).is_ok() {
                    UseKind::Reference
                } else {
                    UseKind::Text
                };
                for &index in named {
                    uses[index].push((number as u32, offset as u32, kind));
                }
            }
        }
        let graph = self.graph()?;
        for (index, candidate) in candidates.iter().enumerate() {
            for (edge, _) in graph.edges(Node::Symbol(candidate.symbol), Direction::Incoming) {
                if edge.kind == EdgeKind::Contains {
                    continue;
                }
                let Some(site) = edge.site() else { continue };
                let Some(file) = table.files().get(site.file as usize) else {
                    continue;
                };
                if let Ok(facts) = file.facts()
                    && let Some(reference) = facts.references.get(site.reference as usize)
                {
                    uses[index].push((site.file, reference.span.start.offset, UseKind::Resolved));
                }
            }
        }
        self.add_uses_of_same_binding(candidates, &mut uses);
        Ok(uses)
    }

    /// The uses of a local binding declared by the very name of a
    /// candidate (a function-valued `const` in a function body is a
    /// declaration and a local at once): its file's references resolved to
    /// that local use the candidate. One pass over each file's references.
    fn add_uses_of_same_binding(&self, candidates: &[Candidate], uses: &mut [Vec<Use>]) {
        let table = self.table();
        let mut by_file: HashMap<u32, Vec<usize>> = HashMap::new();
        for (index, candidate) in candidates.iter().enumerate() {
            by_file
                .entry(candidate.symbol.file)
                .or_default()
                .push(index);
        }
        for (file_number, indices) in by_file {
            let Some(file) = table.files().get(file_number as usize) else {
                continue;
            };
            let Ok(facts) = file.facts() else { continue };
            let local_at: HashMap<_, usize> = facts
                .locals
                .iter()
                .enumerate()
                .map(|(local, l)| ((l.span.start.offset, l.span.end.offset), local))
                .collect();
            let mut candidate_of_local: HashMap<u32, Vec<usize>> = HashMap::new();
            for index in indices {
                let Some(symbol) = facts.symbols.get(candidates[index].symbol.symbol as usize)
                else {
                    continue;
                };
                let name = (symbol.name_span.start.offset, symbol.name_span.end.offset);
                if let Some(&local) = local_at.get(&name) {
                    candidate_of_local
                        .entry(local as u32)
                        .or_default()
                        .push(index);
                }
            }
            if candidate_of_local.is_empty() {
                continue;
            }
            for reference in &facts.references {
                let Some(local) = reference.local.get() else {
                    continue;
                };
                for &index in candidate_of_local.get(&local).into_iter().flatten() {
                    uses[index].push((file_number, reference.span.start.offset, UseKind::Resolved));
                }
            }
        }
    }

    /// A declaration as the answer shows it.
    fn declaration(&self, r: SymbolRef) -> Option<DeadDeclaration> {
        let file = self.table().file(r);
        let facts = file.facts().ok()?;
        let symbol = facts.symbols.get(r.symbol as usize)?;
        Some(DeadDeclaration {
            file_path: file.path.clone(),
            name: symbol.name.to_string(),
            qualified_name: qualified_name(file, r.symbol as usize, symbol),
            kind: symbol.kind.as_str(),
            range: Range::from(&symbol.span),
            symbol: r,
        })
    }

    /// `path:line:column` (1-based) of a byte offset of an indexed file.
    fn place(&self, file: u32, offset: u32) -> String {
        let Some(entry) = self.table().files().get(file as usize) else {
            return String::new();
        };
        let point = point_at(&entry.source(), offset as usize);
        format!("{}:{}:{}", entry.path, point.line + 1, point.character + 1)
    }
}

/// Which candidates are used: those with a use outside every candidate
/// still thought dead, repeated until nothing changes (at most one round
/// per candidate, since each round but the last revives one at least).
fn fixpoint(by_file: &ByFile, uses: &[Vec<Use>], mut alive: Vec<bool>) -> Vec<bool> {
    for _round in 0..=uses.len() {
        let mut changed = false;
        for index in 0..uses.len() {
            if alive[index] {
                continue;
            }
            if uses[index].iter().any(|u| !by_file.inside(&alive, u)) {
                alive[index] = true;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    alive
}

/// The candidates' byte ranges, by file.
struct ByFile {
    ranges: HashMap<u32, Vec<(usize, Range32)>>,
}

/// A candidate's declaration `[start, end)` and where its doc comment and
/// attributes begin.
#[derive(Clone, Copy)]
struct Range32 {
    documented_from: u32,
    start: u32,
    end: u32,
}

impl ByFile {
    fn new(candidates: &[Candidate]) -> Self {
        let mut ranges: HashMap<u32, Vec<(usize, Range32)>> = HashMap::new();
        for (index, c) in candidates.iter().enumerate() {
            ranges.entry(c.symbol.file).or_default().push((
                index,
                Range32 {
                    documented_from: c.documented_from,
                    start: c.start,
                    end: c.end,
                },
            ));
        }
        ByFile { ranges }
    }

    /// Whether a use lies inside a candidate not (yet) alive: inside its
    /// declaration, or, when no reference stands there, in the doc
    /// comment and attributes above it.
    fn inside(&self, alive: &[bool], &(file, offset, kind): &Use) -> bool {
        self.ranges.get(&file).is_some_and(|ranges| {
            ranges.iter().any(|&(index, r)| {
                let from = if kind == UseKind::Text {
                    r.documented_from
                } else {
                    r.start
                };
                !alive[index] && from <= offset && offset < r.end
            })
        })
    }
}

/// Where the non-blank lines right above symbol `index` begin (at most
/// [`MAX_DOC_LINES`] of them), never before the end of a declaration
/// that ends above it or the name of one that holds it.
fn documented_from(source: &str, facts: &FileFacts, index: usize) -> u32 {
    let symbol = &facts.symbols[index];
    let start = symbol.span.start.offset;
    let floor = facts
        .symbols
        .iter()
        .map(|other| {
            if other.span.end.offset <= start {
                other.span.end.offset
            } else if other.span.start.offset < start {
                // A declaration holding this one: its head is not this one's.
                other.name_span.end.offset.min(start)
            } else {
                0
            }
        })
        .max()
        .unwrap_or(0) as usize;
    let Some(before) = source.get(..start as usize) else {
        return start;
    };
    let mut from = before.rfind('\n').map_or(0, |i| i + 1);
    for _ in 0..MAX_DOC_LINES {
        if from == 0 || from <= floor {
            break;
        }
        let line_start = before[..from - 1].rfind('\n').map_or(0, |i| i + 1);
        if before[line_start..from].trim().is_empty() {
            break;
        }
        from = line_start;
    }
    from.max(floor).min(start as usize) as u32
}

/// Whether a container of symbol `index` is an entry point: a method of a
/// test class or of an `impl Trait for T` is called through it.
fn inside_entry_point(facts: &FileFacts, index: usize, called: &HashSet<u32>) -> bool {
    let mut current = facts.symbols[index].container;
    // Bounded by the symbol count (validated containers form a forest).
    for _ in 0..facts.symbols.len() {
        let Some(container) = current else { break };
        if called.contains(&container) {
            return true;
        }
        current = facts
            .symbols
            .get(container as usize)
            .and_then(|s| s.container);
    }
    false
}

/// Whether `name` is an identifier-like word a use could write (not empty,
/// not an operator's spelling).
fn is_name(name: &str) -> bool {
    name.chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
        && name.chars().all(is_word_char)
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '$'
}

/// The identifier-like words of `source` with their byte offsets.
fn words(source: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut start: Option<usize> = None;
    source
        .char_indices()
        .chain(std::iter::once((source.len(), ' ')))
        .filter_map(move |(at, c)| match (is_word_char(c), start) {
            (true, None) => {
                start = Some(at);
                None
            }
            (false, Some(s)) => {
                start = None;
                Some((s, &source[s..at]))
            }
            _ => None,
        })
}

/// The zero-based line and UTF-16 column of a byte offset.
fn point_at(source: &str, offset: usize) -> RangePoint {
    let offset = offset.min(source.len());
    let before = source.get(..offset).unwrap_or(source);
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    RangePoint {
        line: before.matches('\n').count() as u32,
        character: before[line_start..].encode_utf16().count() as u32,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_found_with_their_offsets() {
        let found: Vec<(usize, &str)> = words("a.b(c_d, $e) é1").collect();
        assert_eq!(
            found,
            [(0, "a"), (2, "b"), (4, "c_d"), (9, "$e"), (13, "é1")]
        );
    }

    #[test]
    fn the_lines_above_a_declaration_are_its_own_until_a_blank_line_or_another_declaration() {
        use lingo_model::{Position, Span, Symbol};
        let source = "fn a() { shout() }\n// shout is dead.\n#[inline]\nfn shout() {}\n\n// far\n\nfn b() {}\n";
        let span = |start: usize, end: usize| Span {
            start: Position {
                line: 0,
                character: 0,
                offset: start as u32,
            },
            end: Position {
                line: 0,
                character: 0,
                offset: end as u32,
            },
        };
        let symbol = |name: &str, start: usize, end: usize| Symbol {
            name: name.into(),
            kind: SymbolKind::Function,
            language_kind: "function".into(),
            span: span(start, end),
            name_span: span(start + 3, start + 3 + name.len()),
            container: None,
            container_name: None,
            signature: None,
            doc: None,
            visibility: Visibility::Private,
            modifiers: thin_vec::ThinVec::new(),
            arity: None,
        };
        let at = |text: &str| source.find(text).unwrap();
        let facts = FileFacts {
            symbols: vec![
                symbol("a", 0, at("\n// shout")),
                symbol("shout", at("fn shout"), at("fn shout") + 13),
                symbol("b", at("fn b"), at("fn b") + 9),
            ],
            entry_points: Some(Vec::new()),
            ..FileFacts::empty("test")
        };
        // The comment and attribute above `shout`, not `a`'s call of it.
        assert_eq!(
            documented_from(source, &facts, 1) as usize,
            at("\n// shout")
        );
        // A blank line detaches `// far` from `b`.
        assert_eq!(documented_from(source, &facts, 2) as usize, at("fn b"));
        assert_eq!(documented_from(source, &facts, 0), 0);
    }

    #[test]
    fn names_are_words() {
        assert!(is_name("helper"));
        assert!(is_name("_private"));
        assert!(!is_name("operator+"));
        assert!(!is_name(""));
        assert!(!is_name("1abc"));
    }

    #[test]
    fn a_helper_only_dead_code_calls_is_dead_and_one_used_elsewhere_lives() {
        let candidate = |symbol, start, end| Candidate {
            symbol: SymbolRef { file: 0, symbol },
            start,
            end,
            documented_from: start,
        };
        // 0 `dead` [0, 10) calls 1 `helper` [20, 30); 2 `used` [40, 50) is
        // named at 100, outside every candidate; 3 `loop_a` [60, 70) and 4
        // `loop_b` [70, 80) call each other only.
        let candidates = [
            candidate(0, 0, 10),
            candidate(1, 20, 30),
            candidate(2, 40, 50),
            candidate(3, 60, 70),
            candidate(4, 70, 80),
        ];
        let at = |file, offset| (file, offset, UseKind::Resolved);
        let uses = vec![
            vec![at(0, 1)],
            vec![at(0, 21), at(0, 5)],
            vec![at(0, 41), at(0, 100)],
            vec![at(0, 61), at(0, 75)],
            vec![at(0, 71), at(0, 65)],
        ];
        let by_file = ByFile::new(&candidates);
        assert_eq!(
            fixpoint(&by_file, &uses, vec![false; 5]),
            [false, false, true, false, false]
        );
        // A use of `dead` outside revives it, and with it `helper`.
        let mut uses = uses;
        uses[0].push(at(1, 0));
        assert_eq!(
            fixpoint(&by_file, &uses, vec![false; 5]),
            [true, true, true, false, false]
        );
        // `loop_a` pinned (it cannot be deleted) keeps `loop_b`.
        uses[0].pop();
        assert_eq!(
            fixpoint(&by_file, &uses, vec![false, false, false, true, false]),
            [false, false, true, true, true]
        );
    }
}
