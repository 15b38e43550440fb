//! `search`: declarations by name across the workspace, exact matches
//! first.

use regex::RegexBuilder;
use schemars::JsonSchema;
use serde::Serialize;

use super::view::doc_summary;
use super::{Analysis, AnalysisError};
use lingo_model::suggest::similar;
use lingo_model::{Symbol, SymbolKind};
use lingo_resolve::SymbolRef;
use lingo_resolve::name_search::{self, Found};

/// What to look for.
#[derive(Debug, Clone, Default)]
pub struct SymbolSearch {
    /// A name, part of one, or a regular expression when `regex`.
    pub query: String,
    /// LSP kinds or the languages' own; any when empty.
    pub kinds: Vec<String>,
    pub case_sensitive: bool,
    pub regex: bool,
    /// Only files under this workspace-relative folder.
    pub path: Option<String>,
}

/// One declaration found.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SearchHit {
    pub name: String,
    pub kind: &'static str,
    pub language_kind: String,
    pub file_path: String,
    /// 1-based.
    pub line: u32,
    pub end_line: u32,
    pub container_name: Option<String>,
    pub signature: Option<String>,
    /// The doc comment's first paragraph (get_symbol_info answers all of
    /// it).
    pub doc_comment: Option<String>,
    /// `path:line:name`, for node_source.
    pub chunk_id: String,
}

impl Analysis {
    /// The declarations `search` matches, best first (exact names, then
    /// prefixes, then other matches; shorter names first): how many there
    /// are, and the `limit` of them after the first `offset` (only those
    /// are copied out of the index).
    pub fn search(
        &self,
        search: &SymbolSearch,
        offset: usize,
        limit: usize,
    ) -> Result<(usize, Vec<SearchHit>), AnalysisError> {
        let query = search.query.as_str();
        if query.trim().is_empty() {
            return Err(AnalysisError::InvalidQuery {
                reason: "the query is empty".into(),
            });
        }
        let regex = search
            .regex
            .then(|| {
                RegexBuilder::new(query)
                    .case_insensitive(!search.case_sensitive)
                    .size_limit(1 << 20)
                    .build()
                    .map_err(|e| AnalysisError::InvalidQuery {
                        reason: e.to_string(),
                    })
            })
            .transpose()?;
        self.check_kinds(&search.kinds)?;
        let prefix = match &search.path {
            Some(p) => Some(self.workspace.resolve(p)?),
            None => None,
        };
        // Each distinct name is asked once; its declarations follow.
        let names = self.table.name_search();
        let matched: Vec<Found> = match &regex {
            Some(re) => names
                .names()
                .filter(|(name, _, _)| re.is_match(name))
                .map(|(name, lower, declarations)| {
                    let rank = if search.case_sensitive {
                        name_search::rank(name, query)
                    } else {
                        name_search::rank(lower, &query.to_lowercase())
                    };
                    Found {
                        name,
                        rank: rank.unwrap_or(3),
                        declarations,
                    }
                })
                .collect(),
            None => names.containing(query, search.case_sensitive),
        };
        let kinds: Vec<String> = search
            .kinds
            .iter()
            .map(|k| k.to_ascii_lowercase())
            .collect();
        // Names in answer order (best match first, then shorter names); the
        // declarations of each group of names that rank alike are read only
        // while the window asked for is not full, the rest only counted.
        let mut matched: Vec<(u8, usize, Found)> = matched
            .into_iter()
            .map(|found| (found.rank, found.name.len(), found))
            .collect();
        matched.sort_unstable_by_key(|&(rank, len, _)| (rank, len));
        let end = offset.saturating_add(limit);
        let filtered = prefix.is_some() || !kinds.is_empty();
        let mut total = 0;
        let mut hits: Vec<(Place, SymbolRef)> = Vec::new();
        for group in matched.chunk_by(|a, b| (a.0, a.1) == (b.0, b.1)) {
            if hits.len() >= end && !filtered {
                total += group
                    .iter()
                    .map(|(_, _, found)| found.declarations as usize)
                    .sum::<usize>();
                continue;
            }
            // Within a group, each hit carries its place as plain numbers
            // (files are numbered in path order), so ordering reads no name
            // or path.
            let mut found: Vec<(Place, SymbolRef)> = Vec::new();
            for (_, _, name) in group {
                for &declaration in self.table.named(name.name) {
                    if let Some(p) = &prefix
                        && !is_under(&self.table.file(declaration).path, p)
                    {
                        continue;
                    }
                    let symbol = self.table.symbol(declaration);
                    if !kinds.is_empty() && !kinds.iter().any(|k| kind_matches(symbol, k)) {
                        continue;
                    }
                    let start = symbol.span.start;
                    let place = (declaration.file, start.line, start.character);
                    found.push((place, declaration));
                }
            }
            total += found.len();
            let room = end.saturating_sub(hits.len());
            if room == 0 {
                continue;
            }
            // By place, then by name for declarations that share one place.
            let by_place = |a: &(Place, SymbolRef), b: &(Place, SymbolRef)| {
                a.0.cmp(&b.0).then_with(|| {
                    let name = |hit: &(Place, SymbolRef)| self.table.symbol(hit.1).name.as_str();
                    name(a).cmp(name(b))
                })
            };
            if room < found.len() {
                found.select_nth_unstable_by(room - 1, by_place);
                found.truncate(room);
            }
            found.sort_unstable_by(by_place);
            hits.extend(found);
        }
        let window = hits
            .into_iter()
            .skip(offset)
            .map(|(_, declaration)| {
                let path = self.table.file(declaration).path.as_str();
                let symbol = self.table.symbol(declaration);
                SearchHit {
                    name: symbol.name.to_string(),
                    kind: symbol.kind.as_str(),
                    language_kind: symbol.language_kind.to_string(),
                    file_path: path.to_string(),
                    line: symbol.span.start.line + 1,
                    end_line: symbol.span.end.line + 1,
                    container_name: symbol.container_name.as_deref().map(String::from),
                    signature: symbol.signature.as_deref().map(String::from),
                    doc_comment: symbol.doc.as_deref().and_then(doc_summary),
                    chunk_id: format!("{path}:{}:{}", symbol.span.start.line + 1, symbol.name),
                }
            })
            .collect();
        Ok((total, window))
    }

    /// Refuse kinds that no LSP kind and no indexed language kind spell.
    fn check_kinds(&self, kinds: &[String]) -> Result<(), AnalysisError> {
        if kinds.is_empty() {
            return Ok(());
        }
        let mut known: Vec<String> = SymbolKind::ALL
            .iter()
            .map(|k| k.as_str().to_string())
            .collect();
        for kind in self.table.language_kinds() {
            if !known.iter().any(|k| k == kind) {
                known.push(kind.to_string());
            }
        }
        for kind in kinds {
            let lower = kind.to_ascii_lowercase();
            if SymbolKind::parse(&lower).is_none() && !known.contains(&lower) {
                return Err(AnalysisError::UnknownKind {
                    kind: kind.clone(),
                    nearby: similar(kind, known.iter().map(String::as_str), 3),
                });
            }
        }
        Ok(())
    }
}

/// A declaration's place: file number (in path order), line, character.
type Place = (u32, u32, u32);

/// Whether `symbol` is of `wanted` (lower case): its language's kind or
/// its LSP kind.
fn kind_matches(symbol: &Symbol, wanted: &str) -> bool {
    symbol.language_kind == wanted || SymbolKind::parse(wanted) == Some(symbol.kind)
}

/// `path` is `folder` itself or lies inside it (whole path components).
fn is_under(path: &str, folder: &str) -> bool {
    folder.is_empty()
        || path == folder
        || path
            .strip_prefix(folder)
            .is_some_and(|rest| rest.starts_with('/'))
}
