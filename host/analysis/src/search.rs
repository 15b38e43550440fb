//! `search`: declarations by name across the workspace, exact matches
//! first.

use regex::{Regex, RegexBuilder};
use schemars::JsonSchema;
use serde::Serialize;

use super::{Analysis, AnalysisError};
use lingo_model::suggest::similar;
use lingo_model::{Symbol, SymbolKind};

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
        let mut hits: Vec<(u8, &str, &Symbol)> = Vec::new();
        for file in self.snapshot.files.values() {
            if prefix.as_ref().is_some_and(|p| !is_under(&file.path, p)) {
                continue;
            }
            let Ok(facts) = &file.facts else { continue };
            for symbol in &facts.symbols {
                if !search.kinds.is_empty() && !search.kinds.iter().any(|k| kind_matches(symbol, k))
                {
                    continue;
                }
                if let Some(score) = score(symbol, query, regex.as_ref(), search.case_sensitive) {
                    hits.push((score, file.path.as_str(), symbol));
                }
            }
        }
        hits.sort_by(|a, b| {
            (a.0, a.2.name.len(), a.1, a.2.span.start.line).cmp(&(
                b.0,
                b.2.name.len(),
                b.1,
                b.2.span.start.line,
            ))
        });
        let total = hits.len();
        let window = hits
            .into_iter()
            .skip(offset)
            .take(limit)
            .map(|(_, path, symbol)| SearchHit {
                name: symbol.name.to_string(),
                kind: symbol.kind.as_str(),
                language_kind: symbol.language_kind.to_string(),
                file_path: path.to_string(),
                line: symbol.span.start.line + 1,
                end_line: symbol.span.end.line + 1,
                container_name: symbol.container_name.as_deref().map(String::from),
                signature: symbol.signature.clone(),
                doc_comment: symbol.doc.clone(),
                chunk_id: format!("{path}:{}:{}", symbol.span.start.line + 1, symbol.name),
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
        for file in self.snapshot.files.values() {
            if let Ok(facts) = &file.facts {
                for s in &facts.symbols {
                    if !known.iter().any(|k| *k == s.language_kind) {
                        known.push(s.language_kind.to_string());
                    }
                }
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

/// How well a declaration matched: lower is better; none when it did not.
fn score(symbol: &Symbol, query: &str, regex: Option<&Regex>, case_sensitive: bool) -> Option<u8> {
    match regex {
        Some(re) => re
            .is_match(&symbol.name)
            .then(|| rank(&symbol.name, query, case_sensitive).unwrap_or(3)),
        None => rank(&symbol.name, query, case_sensitive),
    }
}

/// How well a name matched: lower is better.
fn rank(name: &str, query: &str, case_sensitive: bool) -> Option<u8> {
    let (name, query) = if case_sensitive {
        (name.to_string(), query.to_string())
    } else {
        (name.to_lowercase(), query.to_lowercase())
    };
    if name == query {
        Some(0)
    } else if name.starts_with(&query) {
        Some(1)
    } else if name.contains(&query) {
        Some(2)
    } else {
        None
    }
}

fn kind_matches(symbol: &Symbol, wanted: &str) -> bool {
    let wanted = wanted.to_ascii_lowercase();
    symbol.language_kind == wanted || SymbolKind::parse(&wanted) == Some(symbol.kind)
}

/// `path` is `folder` itself or lies inside it (whole path components).
fn is_under(path: &str, folder: &str) -> bool {
    folder.is_empty()
        || path == folder
        || path
            .strip_prefix(folder)
            .is_some_and(|rest| rest.starts_with('/'))
}
