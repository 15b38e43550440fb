//! `analyze_duplicates` (mcp-wire-protocol.md): exact, renamed and gapped
//! clones over the files in scope, from their plugins' tokens (asked on
//! demand, in parallel, and checked at the boundary), with the share of
//! each file's lines that is duplicated.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use rayon::prelude::*;
use schemars::JsonSchema;
use serde::Serialize;

use lingo_analysis::clones::{self, CloneKind, CloneOptions, TokenFile};
use lingo_index::FileEntry;
use lingo_model::Token;

/// Which clones to report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Detection {
    Exact,
    Renamed,
    Gapped,
    All,
}

impl Detection {
    /// The spellings accepted, in order.
    pub const NAMES: [&'static str; 4] = ["exact", "renamed", "gapped", "all"];

    pub fn parse(name: &str) -> Option<Detection> {
        match name {
            "exact" => Some(Detection::Exact),
            "renamed" => Some(Detection::Renamed),
            "gapped" => Some(Detection::Gapped),
            "all" => Some(Detection::All),
            _ => None,
        }
    }

    fn as_str(self) -> &'static str {
        Detection::NAMES[self as usize]
    }

    fn wants(self, kind: CloneKind) -> bool {
        match self {
            Detection::All => true,
            Detection::Exact => kind == CloneKind::Exact,
            Detection::Renamed => kind == CloneKind::Renamed,
            Detection::Gapped => kind == CloneKind::Gapped,
        }
    }
}

/// What was asked.
#[derive(Debug, Clone, Copy)]
pub struct DuplicatesRequest {
    pub detection: Detection,
    pub min_tokens: usize,
    pub min_lines: u32,
    /// Lowest similarity of a gapped clone.
    pub threshold: f64,
}

impl Default for DuplicatesRequest {
    fn default() -> Self {
        DuplicatesRequest {
            detection: Detection::All,
            min_tokens: 50,
            min_lines: 5,
            threshold: 0.85,
        }
    }
}

/// One place of a clone group (lines 1-based, inclusive).
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Fragment {
    pub file_path: String,
    pub start_line: u32,
    pub end_line: u32,
    pub tokens: usize,
}

/// Places holding the same code.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct CloneGroup {
    /// 1-based, in the order of the whole list (largest first).
    pub id: usize,
    #[serde(rename = "type")]
    pub kind: CloneKind,
    /// Lines of the first place.
    pub lines: u32,
    /// Tokens of the first place (comments left out).
    pub tokens: usize,
    /// 1 for exact and renamed groups; the lowest Jaccard similarity of
    /// the pairs joining a gapped group.
    pub similarity: f64,
    pub fragments: Vec<Fragment>,
}

/// One file's share of duplicated lines.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct FileDuplication {
    pub file_path: String,
    pub duplicated_lines: u32,
    pub total_lines: u32,
    pub duplication_percentage: f64,
}

/// Totals over the scope.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct DuplicatesSummary {
    pub files_analyzed: usize,
    pub files_with_clones: usize,
    pub total_lines: u64,
    pub duplicated_lines: u64,
    pub duplication_percentage: f64,
    pub clone_groups: usize,
    /// Groups per type, every type present.
    pub by_type: BTreeMap<&'static str, usize>,
}

/// The settings used.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct DuplicatesSettings {
    pub detection_type: &'static str,
    pub min_tokens: usize,
    pub min_lines: u32,
    pub threshold: f64,
}

/// A file lingo could not read tokens of, and why.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Unread {
    pub file_path: String,
    pub reason: String,
}

/// The whole answer, before paging.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct DuplicatesReport {
    pub summary: DuplicatesSummary,
    pub groups: Vec<CloneGroup>,
    /// Files with duplicated lines, most duplicated first.
    pub files: Vec<FileDuplication>,
    pub settings: DuplicatesSettings,
    /// Files whose plugin gives no tokens (or failed to): not analysed.
    pub unread: Vec<Unread>,
    /// What a cap or a repaired plugin answer left out.
    pub incomplete_reasons: Vec<String>,
}

/// The files of a scope with their plugins' tokens.
pub struct LexedFiles {
    /// Each file whose tokens could be read, with them (checked).
    pub read: Vec<(Arc<FileEntry>, Vec<Token>)>,
    pub unread: Vec<Unread>,
    /// Tokens a plugin broke the rules with, dropped.
    pub incomplete_reasons: Vec<String>,
}

/// The tokens of `files`, asked of their plugins.
pub fn lex_files(files: &[Arc<FileEntry>]) -> LexedFiles {
    let mut lexed = LexedFiles {
        read: Vec::new(),
        unread: Vec::new(),
        incomplete_reasons: Vec::new(),
    };
    for (file, outcome) in files.iter().zip(lex_all(files)) {
        match outcome {
            Ok((tokens, report)) => {
                if !report.is_clean() {
                    lexed.incomplete_reasons.push(format!(
                        "{}: tokens dropped ({})",
                        file.path,
                        report.broken_rules().join("; ")
                    ));
                }
                lexed.read.push((file.clone(), tokens));
            }
            Err(reason) => lexed.unread.push(Unread {
                file_path: file.path.clone(),
                reason,
            }),
        }
    }
    lexed
}

/// The clones of `files`.
pub fn duplicates(files: &[Arc<FileEntry>], request: &DuplicatesRequest) -> DuplicatesReport {
    duplicates_of(&lex_files(files), request)
}

/// The clones of files already lexed.
pub fn duplicates_of(lexed: &LexedFiles, request: &DuplicatesRequest) -> DuplicatesReport {
    let read = &lexed.read;
    let mut incomplete_reasons = lexed.incomplete_reasons.clone();
    // Every file's text at once: clones are looked for across them all.
    let sources: Vec<Arc<str>> = read.iter().map(|(file, _)| file.source()).collect();
    let token_files: Vec<TokenFile> = read
        .iter()
        .zip(&sources)
        .map(|((file, tokens), source)| TokenFile {
            source,
            tokens,
            functions: function_ranges(file),
        })
        .collect();
    let options = CloneOptions {
        min_tokens: request.min_tokens,
        min_lines: request.min_lines,
        threshold: request.threshold,
        token_clones: request.detection != Detection::Gapped,
        gapped: matches!(request.detection, Detection::Gapped | Detection::All),
    };
    let found = clones::find(&token_files, &options);
    incomplete_reasons.extend(found.capped);
    let lines: Vec<LineStarts> = sources.iter().map(|s| LineStarts::new(s)).collect();
    let mut groups = Vec::new();
    let mut covered: Vec<Vec<(u32, u32)>> = vec![Vec::new(); read.len()];
    for class in found
        .classes
        .iter()
        .filter(|c| request.detection.wants(c.kind))
    {
        let fragments: Vec<Fragment> = class
            .places
            .iter()
            .map(|p| {
                let (start_line, end_line) = (
                    lines[p.file].line(p.start),
                    lines[p.file].line(p.end.saturating_sub(1)),
                );
                covered[p.file].push((start_line, end_line));
                Fragment {
                    file_path: read[p.file].0.path.clone(),
                    start_line,
                    end_line,
                    tokens: p.tokens,
                }
            })
            .collect();
        groups.push(CloneGroup {
            id: groups.len() + 1,
            kind: class.kind,
            lines: fragments[0].end_line - fragments[0].start_line + 1,
            tokens: fragments[0].tokens,
            similarity: class.similarity,
            fragments,
        });
    }
    let mut by_file = Vec::new();
    let (mut total_lines, mut duplicated_lines) = (0u64, 0u64);
    for (index, (file, _)) in read.iter().enumerate() {
        let total = lines[index].count();
        let duplicated = union_length(&mut covered[index]);
        total_lines += total as u64;
        duplicated_lines += duplicated as u64;
        if duplicated > 0 {
            by_file.push(FileDuplication {
                file_path: file.path.clone(),
                duplicated_lines: duplicated,
                total_lines: total,
                duplication_percentage: percentage(duplicated as u64, total as u64),
            });
        }
    }
    by_file.sort_by(|a, b| {
        (b.duplicated_lines, &a.file_path).cmp(&(a.duplicated_lines, &b.file_path))
    });
    let mut by_type: BTreeMap<&'static str, usize> =
        [CloneKind::Exact, CloneKind::Renamed, CloneKind::Gapped]
            .iter()
            .map(|k| (k.as_str(), 0))
            .collect();
    for group in &groups {
        *by_type.entry(group.kind.as_str()).or_default() += 1;
    }
    DuplicatesReport {
        summary: DuplicatesSummary {
            files_analyzed: read.len(),
            files_with_clones: by_file.len(),
            total_lines,
            duplicated_lines,
            duplication_percentage: percentage(duplicated_lines, total_lines),
            clone_groups: groups.len(),
            by_type,
        },
        groups,
        files: by_file,
        settings: DuplicatesSettings {
            detection_type: request.detection.as_str(),
            min_tokens: request.min_tokens,
            min_lines: request.min_lines,
            threshold: request.threshold,
        },
        unread: lexed.unread.clone(),
        incomplete_reasons,
    }
}

/// A plugin's checked tokens of a file, or why there are none.
type Lexed = Result<(Vec<Token>, lingo_model::validate::Report), String>;

/// The tokens of every file, asked of the plugins on rayon's threads (each
/// call parses the file again inside the plugin's sandbox). The request's
/// budget reaches the workers: its progress, and once it is spent the files
/// not read yet are answered as stopped.
fn lex_all(files: &[Arc<FileEntry>]) -> Vec<Lexed> {
    let finished = AtomicUsize::new(0);
    let budget = lingo_model::budget::current();
    let total = files.len() as u64;
    files
        .par_iter()
        .map(|file| {
            if budget.as_ref().is_some_and(|b| b.check().is_err()) {
                return Err("the request's budget ran out before it was read".into());
            }
            let lexed = lex(file);
            let count = finished.fetch_add(1, Ordering::Relaxed) as u64 + 1;
            if let Some(budget) = &budget {
                budget.progress("reading tokens", count, total);
            }
            lexed
        })
        .collect()
}

fn lex(file: &FileEntry) -> Lexed {
    let tokens = file
        .plugin
        .tokens(&file.path, &file.source())
        .map_err(|e| e.to_string())?;
    let (tokens, report) = lingo_model::validate::check_tokens(tokens, &file.source());
    if !report.is_clean() {
        file.plugin.note_failure(
            "tokens",
            &lingo_runtime::PluginError::InvalidOutput {
                plugin: file.plugin.info().name.clone(),
                rules: report.broken_rules(),
            },
        );
    }
    Ok((tokens, report))
}

/// The byte ranges of the file's measured functions.
fn function_ranges(file: &FileEntry) -> Vec<(u32, u32)> {
    let Ok(facts) = file.facts() else {
        return Vec::new();
    };
    facts
        .metrics
        .iter()
        .filter_map(|m| facts.symbols.get(m.symbol as usize))
        .map(|s| (s.span.start.offset, s.span.end.offset))
        .collect()
}

/// `part` of `whole` in percent, to two decimals.
fn percentage(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        (part as f64 * 10_000.0 / whole as f64).round() / 100.0
    }
}

/// How many lines the inclusive ranges cover together.
fn union_length(ranges: &mut [(u32, u32)]) -> u32 {
    ranges.sort_unstable();
    let mut total = 0;
    let mut current: Option<(u32, u32)> = None;
    for &(start, end) in ranges.iter() {
        current = match current {
            Some((s, e)) if start <= e + 1 => Some((s, e.max(end))),
            Some((s, e)) => {
                total += e - s + 1;
                Some((start, end))
            }
            None => Some((start, end)),
        };
    }
    if let Some((s, e)) = current {
        total += e - s + 1;
    }
    total
}

/// Where each line of a text starts.
struct LineStarts(Vec<u32>);

impl LineStarts {
    fn new(text: &str) -> LineStarts {
        if text.is_empty() {
            return LineStarts(Vec::new());
        }
        let mut starts = vec![0];
        starts.extend(
            text.bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'\n')
                .map(|(i, _)| i as u32 + 1),
        );
        if starts.last().is_some_and(|&s| s as usize == text.len()) {
            starts.pop();
        }
        LineStarts(starts)
    }

    /// The 1-based line of byte `offset`.
    fn line(&self, offset: u32) -> u32 {
        self.0.partition_point(|&s| s <= offset) as u32
    }

    /// Lines in the text (a last line without a break counted).
    fn count(&self) -> u32 {
        self.0.len() as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlapping_ranges_count_once() {
        assert_eq!(union_length(&mut [(1, 5), (3, 8), (10, 10), (11, 12)]), 11);
        assert_eq!(union_length(&mut []), 0);
    }

    #[test]
    fn lines_are_one_based_and_count_an_unbroken_last_line() {
        let lines = LineStarts::new("a\nb\nc");
        assert_eq!((lines.line(0), lines.line(2), lines.line(4)), (1, 2, 3));
        assert_eq!(lines.count(), 3);
        assert_eq!(LineStarts::new("a\nb\n").count(), 2);
        assert_eq!(LineStarts::new("").count(), 0);
    }
}
