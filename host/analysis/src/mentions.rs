//! Mentions of a name that no fact covers: whole words written inside the
//! regions a plugin could not read as code (syntax errors, macro
//! invocations left unexpanded) that are no reference or declaration of
//! their file. Counted for every word once per generation, so that a
//! references answer looks its name up instead of scanning every region.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use lingo_index::{DerivedValue, FileEntry};
use lingo_model::budget::Exhausted;
use lingo_model::{FileFacts, SYNTAX_ERROR_CODE, Span};

/// Per word, its mentions no fact covers, by kind of region.
#[derive(Default)]
pub(crate) struct Mentions {
    unparsed: HashMap<Box<str>, usize>,
    unexpanded: HashMap<Box<str>, usize>,
}

impl DerivedValue for Mentions {}

/// The regions of a file where a name may be written that no fact covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Region {
    /// Inside a syntax error (the parser may have skipped code).
    Unparsed,
    /// Inside a macro invocation the plugin left unexpanded.
    Unexpanded,
}

impl Region {
    fn spans(self, facts: &FileFacts) -> Box<dyn Iterator<Item = &Span> + '_> {
        match self {
            Region::Unparsed => Box::new(
                facts
                    .diagnostics
                    .iter()
                    .filter(|d| d.code == SYNTAX_ERROR_CODE)
                    .map(|d| &d.span),
            ),
            Region::Unexpanded => Box::new(facts.unexpanded_macros.iter().map(|u| &u.extent)),
        }
    }
}

impl Mentions {
    /// Count the words of `files`' regions. Work is the regions' bytes; the
    /// request's budget is checked per file.
    pub(crate) fn build(files: &[Arc<FileEntry>]) -> Result<Mentions, Exhausted> {
        let budget = lingo_model::budget::current();
        let mut mentions = Mentions::default();
        for file in files {
            if let Some(budget) = &budget {
                budget.check()?;
            }
            if let Ok(facts) = &file.facts {
                mentions.count(&file.source(), facts);
            }
        }
        Ok(mentions)
    }

    /// Add the words of one file's regions.
    fn count(&mut self, source: &str, facts: &FileFacts) {
        let mut known = None;
        for (region, counts) in [
            (Region::Unparsed, &mut self.unparsed),
            (Region::Unexpanded, &mut self.unexpanded),
        ] {
            for span in region.spans(facts) {
                for (offset, word) in whole_words(source, span) {
                    let known = known.get_or_insert_with(|| known_offsets(facts));
                    if !known.contains(&(offset as u32)) {
                        *counts.entry(word.into()).or_default() += 1;
                    }
                }
            }
        }
    }

    /// Mentions of `name` in `region`s: looked up when `name` is one word,
    /// else counted by scanning `files`.
    pub(crate) fn of(&self, name: &str, region: Region, files: &[Arc<FileEntry>]) -> usize {
        if !name.is_empty() && name.chars().all(is_word_char) {
            let counts = match region {
                Region::Unparsed => &self.unparsed,
                Region::Unexpanded => &self.unexpanded,
            };
            return counts.get(name).copied().unwrap_or(0);
        }
        scan(name, region, files)
    }
}

/// [`Mentions::of`] without the table: every region of `files` searched.
pub(crate) fn scan(name: &str, region: Region, files: &[Arc<FileEntry>]) -> usize {
    files
        .iter()
        .filter_map(|f| Some((f.source(), f.facts.as_ref().ok()?)))
        .map(|(source, facts)| mentions_in(name, &source, facts, region.spans(facts)))
        .sum()
}

/// The start of every reference and declaration name of a file.
fn known_offsets(facts: &FileFacts) -> HashSet<u32> {
    let references = facts.references.iter().map(|r| r.span.start.offset);
    let declarations = facts.symbols.iter().map(|s| s.name_span.start.offset);
    references.chain(declarations).collect()
}

/// The whole words inside `span` of `source` (runs of word characters with
/// none right before or after them in the source), with their offsets.
fn whole_words<'s>(source: &'s str, span: &Span) -> impl Iterator<Item = (usize, &'s str)> + 's {
    let (start, end) = (span.start.offset as usize, span.end.offset as usize);
    let mut words = Vec::new();
    let Some(region) = source.get(start..end) else {
        return words.into_iter();
    };
    // `start` and `end` are character boundaries: `get` took them.
    let touches_word_before = source[..start]
        .chars()
        .next_back()
        .is_some_and(is_word_char);
    let touches_word_after = source[end..].chars().next().is_some_and(is_word_char);
    let mut run: Option<usize> = None;
    for (at, c) in region.char_indices().chain([(region.len(), ' ')]) {
        match (run, at < region.len() && is_word_char(c)) {
            (None, true) => run = Some(at),
            (Some(from), false) => {
                let clipped = (from == 0 && touches_word_before)
                    || (at == region.len() && touches_word_after);
                if !clipped {
                    words.push((start + from, &region[from..at]));
                }
                run = None;
            }
            _ => {}
        }
    }
    words.into_iter()
}

/// Mentions of `name` as a whole word inside `regions` of one file
/// (`source`, `facts`) that are no reference of its facts.
pub(crate) fn mentions_in<'f>(
    name: &str,
    source: &str,
    facts: &FileFacts,
    regions: impl Iterator<Item = &'f Span>,
) -> usize {
    if name.is_empty() {
        return 0;
    }
    let mut known: Option<HashSet<u32>> = None;
    let mut count = 0;
    for region in regions {
        let (start, end) = (region.start.offset as usize, region.end.offset as usize);
        let Some(region) = source.get(start..end) else {
            continue;
        };
        for (at, _) in region.match_indices(name) {
            let offset = start + at;
            let whole_word = !source[..offset]
                .chars()
                .next_back()
                .is_some_and(is_word_char)
                && !source[offset + name.len()..]
                    .chars()
                    .next()
                    .is_some_and(is_word_char);
            if !whole_word {
                continue;
            }
            let known = known.get_or_insert_with(|| known_offsets(facts));
            if !known.contains(&(offset as u32)) {
                count += 1;
            }
        }
    }
    count
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '$'
}

#[cfg(test)]
mod tests {
    use super::*;
    use lingo_model::{Diagnostic, Position, Reference, ReferenceKind, Severity};

    fn span(start: u32, end: u32) -> Span {
        let at = |offset| Position {
            line: 0,
            character: offset,
            offset,
        };
        Span {
            start: at(start),
            end: at(end),
        }
    }

    #[test]
    fn mentions_in_syntax_errors_that_are_no_reference_are_counted() {
        let source = "ok(helper); <T>(x): helper_two helper $helper helper()";
        let mut facts = FileFacts::empty("test");
        // `helper` at 3 is a reference; the region starts at 12.
        facts.references.push(Reference {
            name: "helper".into(),
            kind: ReferenceKind::Reference,
            span: span(3, 9),
            qualifier: thin_vec::ThinVec::new(),
            is_member: false,
            enclosing: lingo_model::OptU32::NONE,
            local: lingo_model::OptU32::NONE,
            receiver: None,
            arguments: lingo_model::OptU32::NONE,
        });
        let errors = |facts: &FileFacts| {
            facts
                .diagnostics
                .iter()
                .filter(|d| d.code == SYNTAX_ERROR_CODE)
                .map(|d| d.span)
                .collect::<Vec<_>>()
        };
        // The scan, checked against the table of every word.
        let unparsed = |name: &str, facts: &FileFacts| {
            let scanned = mentions_in(name, source, facts, errors(facts).iter());
            assert_eq!(
                table(source, facts, name, Region::Unparsed),
                scanned,
                "{name}"
            );
            scanned
        };
        assert_eq!(unparsed("helper", &facts), 0);
        facts.diagnostics.push(Diagnostic {
            severity: Severity::Error,
            code: SYNTAX_ERROR_CODE.into(),
            message: "syntax error".into(),
            span: span(0, source.len() as u32),
        });
        // Whole words only (not `helper_two` or `$helper`), references
        // excluded (the one at 3): `helper` at 31 and at 46.
        assert_eq!(unparsed("helper", &facts), 2);
        assert_eq!(unparsed("", &facts), 0);
        // Inside an invocation left unexpanded, likewise; a declaration's
        // name is no missed use either.
        facts.diagnostics.clear();
        facts.unexpanded_macros.push(lingo_model::UnexpandedMacro {
            name: "m".into(),
            span: span(0, 1),
            extent: span(31, source.len() as u32),
            reason: lingo_model::UnexpandedReason::Undefined,
        });
        let unexpanded = |facts: &FileFacts| {
            let scanned = mentions_in(
                "helper",
                source,
                facts,
                facts.unexpanded_macros.iter().map(|u| &u.extent),
            );
            assert_eq!(table(source, facts, "helper", Region::Unexpanded), scanned);
            scanned
        };
        assert_eq!(unexpanded(&facts), 2);
        facts.symbols.push(lingo_model::Symbol {
            name: "helper".into(),
            kind: lingo_model::SymbolKind::Function,
            language_kind: "function_item".into(),
            span: span(31, 37),
            name_span: span(31, 37),
            container: None,
            container_name: None,
            signature: None,
            doc: None,
            visibility: lingo_model::Visibility::Public,
            modifiers: thin_vec::ThinVec::new(),
            arity: None,
        });
        assert_eq!(unexpanded(&facts), 1);
    }

    /// The table's count of `name`, for a one-word name.
    fn table(source: &str, facts: &FileFacts, name: &str, region: Region) -> usize {
        if name.is_empty() {
            return 0;
        }
        let mut mentions = Mentions::default();
        mentions.count(source, facts);
        mentions.of(name, region, &[])
    }

    /// Regions that start or end inside a word: the clipped word is no
    /// whole word, in the table as in the scan.
    #[test]
    fn words_cut_by_a_region_are_not_whole() {
        let source = "alpha beta gamma_delta é_x";
        let mut facts = FileFacts::empty("test");
        for (start, end) in [(2, 12), (6, 10), (11, 16), (0, source.len() as u32)] {
            facts.unexpanded_macros.clear();
            facts.unexpanded_macros.push(lingo_model::UnexpandedMacro {
                name: "m".into(),
                span: span(0, 1),
                extent: span(start, end),
                reason: lingo_model::UnexpandedReason::Undefined,
            });
            for name in [
                "alpha",
                "pha",
                "beta",
                "gamma",
                "gamma_delta",
                "delta",
                "é_x",
                "x",
            ] {
                let scanned = mentions_in(
                    name,
                    source,
                    &facts,
                    facts.unexpanded_macros.iter().map(|u| &u.extent),
                );
                assert_eq!(
                    table(source, &facts, name, Region::Unexpanded),
                    scanned,
                    "{name} in {start}..{end}"
                );
            }
        }
    }
}
