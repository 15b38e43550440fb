//! Which declaration a query is about: the name at a position of a file, or
//! a symbol name, optionally narrowed to one file.

use lingo_model::SymbolKind;
use std::sync::Arc;

use super::{Analysis, AnalysisError};
use lingo_index::FileEntry;
use lingo_model::suggest::similar;
use lingo_resolve::{AtPosition, Definition, SymbolRef, SymbolTable, at_offset, is_item};

/// A zero-based (line, UTF-16 character) position of a workspace file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FilePosition {
    /// Workspace-relative path, as the client wrote it.
    pub path: String,
    pub line: u64,
    pub character: u64,
}

/// A symbol by name (`name`, `Type::name` or `Type.name`), optionally
/// narrowed to the declarations of one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SymbolQuery {
    pub name: String,
    pub path: Option<String>,
}

/// What a query is about, as the caller names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    Position(FilePosition),
    Symbol(SymbolQuery),
}

/// A declaration to navigate from, as the index knows it.
#[derive(Debug, Clone)]
pub enum Subject {
    Symbol(SymbolRef),
    /// A local binding: only visible inside its file.
    Local {
        file: Arc<FileEntry>,
        index: usize,
    },
}

impl Subject {
    /// The declaration, or [`AnalysisError::NotApplicable`] with `reason`
    /// for a local.
    pub fn declaration(&self, reason: &str) -> Result<SymbolRef, AnalysisError> {
        match self {
            Subject::Symbol(r) => Ok(*r),
            Subject::Local { .. } => Err(AnalysisError::NotApplicable {
                reason: reason.to_string(),
            }),
        }
    }
}

impl Analysis {
    /// The one declaration (or local) `target` names: SYMBOL_AMBIGUOUS when
    /// several fit, SYMBOL_UNRESOLVED when a reference resolves to nothing.
    pub fn subject(&self, target: &Target) -> Result<Subject, AnalysisError> {
        match target {
            Target::Position(position) => {
                let file = self.file(&position.path)?;
                self.subject_at(&file, position.line, position.character)
            }
            Target::Symbol(query) => {
                let file = query.path.as_deref().map(|p| self.file(p)).transpose()?;
                self.subject_named(&query.name, file.as_ref())
            }
        }
    }

    fn subject_at(
        &self,
        file: &Arc<FileEntry>,
        line: u64,
        character: u64,
    ) -> Result<Subject, AnalysisError> {
        let offset = offset_in(file, line, character)?;
        let facts = file.facts()?;
        let table = self.table();
        let file_number = self.file_number(file)?;
        match at_offset(facts, offset) {
            Some(AtPosition::Declaration(index)) => Ok(Subject::Symbol(SymbolRef {
                file: file_number,
                symbol: index as u32,
            })),
            Some(AtPosition::LocalDeclaration(index)) => Ok(Subject::Local {
                file: file.clone(),
                index,
            }),
            Some(AtPosition::Reference(reference)) => {
                let resolver = self.resolver();
                let definitions = resolver.resolve(file, reference);
                match definitions.as_slice() {
                    [] => {
                        let candidates =
                            resolver.name_only_candidates(&reference.name, reference.is_member);
                        Err(AnalysisError::Unresolved {
                            name: reference.name.to_string(),
                            path: file.path.clone(),
                            line: line as u32,
                            character: character as u32,
                            reason: if candidates > 0 {
                                format!(
                                    "{candidates} declarations share the name; without types lingo cannot tell which one is meant"
                                )
                            } else if in_syntax_error(facts, offset) {
                                "no declaration of that name is indexed; the code here has syntax errors the parser could not read (get_diagnostics lists them), and a declaration in it may be missing".into()
                            } else {
                                "no declaration of that name is indexed".into()
                            },
                        })
                    }
                    [one] => subject_of(table, one),
                    several => Err(AnalysisError::Ambiguous {
                        name: reference.name.to_string(),
                        candidates: several
                            .iter()
                            .map(|d| Ok(describe_subject(table, &subject_of(table, d)?)))
                            .collect::<Result<_, AnalysisError>>()?,
                    }),
                }
            }
            None => Err(nothing_at(file, line, character)),
        }
    }

    fn subject_named(
        &self,
        symbol: &str,
        file: Option<&Arc<FileEntry>>,
    ) -> Result<Subject, AnalysisError> {
        let table = self.table();
        let mut found: Vec<Subject> = self
            .resolver()
            .by_name(symbol, &self.separators())
            .iter()
            .map(|d| subject_of(table, d))
            .collect::<Result<_, _>>()?;
        if let Some(file) = file {
            found.retain(|s| matches!(s, Subject::Symbol(r) if table.file(*r).path == file.path));
        }
        // A type and the constructors named after it (C#): the type.
        if found.len() > 1 {
            let is_own_constructor = |s: &Subject| match s {
                Subject::Symbol(r) => {
                    let symbol = table.symbol(*r);
                    symbol.kind == SymbolKind::Constructor
                        && symbol.container.is_some_and(|c| {
                            found.iter().any(|t| {
                                matches!(t, Subject::Symbol(t) if t.file == r.file && t.symbol == c)
                            })
                        })
                }
                Subject::Local { .. } => false,
            };
            let kept: Vec<bool> = found.iter().map(|s| !is_own_constructor(s)).collect();
            if kept.iter().filter(|k| **k).count() == 1 {
                let mut keep = kept.into_iter();
                found.retain(|_| keep.next().unwrap_or(true));
            }
        }
        match found.len() {
            0 => Err(self.not_found(symbol)),
            1 => Ok(found.remove(0)),
            _ => Err(AnalysisError::Ambiguous {
                name: symbol.to_string(),
                candidates: found.iter().map(|s| describe_subject(table, s)).collect(),
            }),
        }
    }

    /// The item declared in `path` named `symbol` (or `Type.name`).
    pub fn symbol_in_file(&self, path: &str, symbol: &str) -> Result<SymbolRef, AnalysisError> {
        let file = self.file(path)?;
        let facts = file.facts()?;
        let file_number = self.file_number(&file)?;
        let separators = self.separators();
        let (owner, name) = lingo_resolve::split_qualified(symbol, &separators);
        let found: Vec<usize> = facts
            .symbols
            .iter()
            .enumerate()
            .filter(|(_, s)| {
                s.name == name
                    && is_item(s)
                    && owner.is_none_or(|o| {
                        lingo_resolve::owner_fits(s.container_name.as_deref(), o, &separators)
                    })
            })
            .map(|(i, _)| i)
            .collect();
        // A file's own package or module clause shares its name with what
        // it declares (Go's `package main` and `func main`): the
        // declaration is meant.
        let declarations: Vec<usize> = found
            .iter()
            .copied()
            .filter(|&i| {
                !matches!(
                    facts.symbols[i].kind,
                    SymbolKind::Package | SymbolKind::Module | SymbolKind::Namespace
                )
            })
            .collect();
        let found = if declarations.len() == 1 {
            declarations
        } else {
            found
        };
        // A bare name is the whole name of a declaration outside any type
        // and only part of a member's (`Transform.transform`): when one
        // declaration is so named, it is meant.
        let found = match owner {
            None if found.len() > 1 => {
                let unqualified: Vec<usize> = found
                    .iter()
                    .copied()
                    .filter(|&i| super::view::member_name(&file, i, &facts.symbols[i]) == name)
                    .collect();
                if unqualified.len() == 1 {
                    unqualified
                } else {
                    found
                }
            }
            _ => found,
        };
        let at = |index: usize| SymbolRef {
            file: file_number,
            symbol: index as u32,
        };
        match found.as_slice() {
            [one] => Ok(at(*one)),
            [] => Err(AnalysisError::NotFound {
                name: format!("{symbol} in {}", file.path),
                nearby: similar(name, facts.symbols.iter().map(|s| s.name.as_str()), 5),
            }),
            several => Err(AnalysisError::Ambiguous {
                name: symbol.to_string(),
                candidates: several
                    .iter()
                    .map(|i| {
                        let s = &facts.symbols[*i];
                        format!(
                            "{}:{} {} {}",
                            file.path,
                            s.span.start.line + 1,
                            s.kind.as_str(),
                            super::view::qualified_name(&file, *i, s)
                        )
                    })
                    .collect(),
            }),
        }
    }

    /// SYMBOL_NOT_FOUND with the most similar declared names.
    pub(crate) fn not_found(&self, wanted: &str) -> AnalysisError {
        let separators = self.separators();
        let (_, name) = lingo_resolve::split_qualified(wanted, &separators);
        AnalysisError::NotFound {
            name: wanted.to_string(),
            nearby: similar(name, self.table().names(), 5),
        }
    }

    /// The number of `file` in this generation's name table.
    pub(crate) fn file_number(&self, file: &FileEntry) -> Result<u32, AnalysisError> {
        self.table()
            .file_number(&file.path)
            .ok_or_else(|| AnalysisError::Internal(format!("{} missing from the table", file.path)))
    }
}

/// Whether `offset` lies in a region the parser could not read.
fn in_syntax_error(facts: &lingo_model::FileFacts, offset: u32) -> bool {
    facts.diagnostics.iter().any(|d| {
        d.code == lingo_model::SYNTAX_ERROR_CODE
            && d.span.start.offset <= offset
            && offset < d.span.end.offset
    })
}

/// SYMBOL_NOT_FOUND at a position, with the declarations around it.
pub(crate) fn nothing_at(file: &FileEntry, line: u64, character: u64) -> AnalysisError {
    let nearby = file
        .facts
        .as_ref()
        .map(|facts| {
            facts
                .symbols
                .iter()
                .filter(|s| s.span.start.line as u64 <= line && line <= s.span.end.line as u64)
                .map(|s| s.name.to_string())
                .collect()
        })
        .unwrap_or_default();
    AnalysisError::NothingAtPosition {
        path: file.path.clone(),
        line: line as u32,
        character: character as u32,
        nearby,
    }
}

/// Byte offset of a zero-based (line, UTF-16 character) position of `file`.
pub fn offset_in(file: &FileEntry, line: u64, character: u64) -> Result<u32, AnalysisError> {
    let found = usize::try_from(line)
        .ok()
        .and_then(|line| file.with_line(line, |start, text| utf16_offset(start, text, character)));
    found.flatten().ok_or_else(|| {
        let line_count = file.line_count();
        AnalysisError::InvalidPosition {
            path: file.path.clone(),
            field: if line as usize >= line_count {
                "line"
            } else {
                "character"
            },
            line,
            character,
            line_count,
            one_based: false,
        }
    })
}

/// Byte offset of UTF-16 `character` on a line that starts at byte `start`
/// (its end at most), or `None` past the line's end.
fn utf16_offset(start: usize, text: &str, character: u64) -> Option<u32> {
    let mut units = 0u64;
    for (i, c) in text.char_indices() {
        if units >= character {
            return Some((start + i) as u32);
        }
        units += c.len_utf16() as u64;
    }
    (units >= character).then_some((start + text.len()) as u32)
}

/// The subject a resolved definition points at.
pub(crate) fn subject_of(
    table: &SymbolTable,
    definition: &Definition,
) -> Result<Subject, AnalysisError> {
    match &definition.target {
        lingo_resolve::Target::Symbol { file, index } => Ok(Subject::Symbol(SymbolRef {
            file: table.file_number(&file.path).ok_or_else(|| {
                AnalysisError::Internal(format!("{} missing from the table", file.path))
            })?,
            symbol: *index as u32,
        })),
        lingo_resolve::Target::Local { file, index } => Ok(Subject::Local {
            file: file.clone(),
            index: *index,
        }),
    }
}

/// `src/a.rs:12 function Outer.name` (1-based line), for candidate lists.
pub fn describe_subject(table: &SymbolTable, subject: &Subject) -> String {
    match subject {
        Subject::Symbol(r) => {
            let symbol = table.symbol(*r);
            let qualified = match &symbol.container_name {
                Some(container) => format!("{container}.{}", symbol.name),
                None => symbol.name.to_string(),
            };
            format!(
                "{}:{} {} {qualified}",
                table.file(*r).path,
                symbol.span.start.line + 1,
                symbol.kind.as_str()
            )
        }
        Subject::Local { file, index } => {
            let local = file.facts.as_ref().ok().and_then(|f| f.locals.get(*index));
            let (line, name) = local.map_or((0, ""), |l| (l.span.start.line, l.name.as_str()));
            format!("{}:{} local {name}", file.path, line + 1)
        }
    }
}
