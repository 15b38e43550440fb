//! Which declaration a navigation request is about: the name at a position
//! of a file, or a symbol name, optionally narrowed to one file.

use std::sync::Arc;

use serde_json::{Map, Value, json};

use super::Args;
use crate::error::{ToolError, similar};
use crate::resolve::{AtPosition, Definition, Resolver, SymbolRef, Target, at_offset};
use crate::workspace::{FileEntry, Snapshot, Workspace};

/// A declaration to navigate from.
#[derive(Debug, Clone)]
pub enum Subject {
    Symbol(SymbolRef),
    /// A local binding: only visible inside its file.
    Local {
        file: Arc<FileEntry>,
        index: usize,
    },
}

/// The input properties of [`subject`], for tool schemas.
pub fn properties() -> Map<String, Value> {
    let schema = json!({
        "path": { "type": "string", "description": "Workspace-relative file: the file of the position, or the file declaring `symbol`" },
        "line": { "type": "integer", "minimum": 0, "description": "Zero-based line of the position" },
        "character": { "type": "integer", "minimum": 0, "description": "Zero-based UTF-16 character of the position (default 0)" },
        "symbol": { "type": "string", "description": "Symbol name when no position is given (`name`, `Type::name` or `Type.name`); add `path` when several declarations share it" }
    });
    match schema {
        Value::Object(map) => map,
        _ => unreachable!("a JSON object literal"),
    }
}

/// The subject named by `path`/`line`/`character` or by `symbol` (+`path`).
pub fn subject(
    workspace: &Workspace,
    snapshot: &Snapshot,
    resolver: &Resolver,
    args: &Args,
) -> Result<Subject, ToolError> {
    let line = args.uint("line", u32::MAX as u64)?;
    let character = args.uint("character", u32::MAX as u64)?.unwrap_or(0);
    match (args.str("path")?, line, args.str("symbol")?) {
        (Some(path), Some(line), _) => {
            let file = workspace.file(snapshot, path)?;
            at_position(resolver, &file, line, character)
        }
        (path, None, Some(symbol)) => {
            let file = path.map(|p| workspace.file(snapshot, p)).transpose()?;
            by_name(workspace, resolver, symbol, file.as_ref())
        }
        (Some(_), None, None) => Err(ToolError::MissingParam {
            field: "line".into(),
        }),
        (None, Some(_), _) => Err(ToolError::MissingParam {
            field: "path".into(),
        }),
        (None, None, None) => Err(ToolError::InvalidParam {
            field: "symbol".into(),
            reason: "give either `path` with `line` and `character`, or `symbol`".into(),
            suggestions: vec![
                "{\"path\": \"src/lib.rs\", \"line\": 10, \"character\": 4}".into(),
                "{\"symbol\": \"parse\"}".into(),
            ],
        }),
    }
}

/// Byte offset of a zero-based (line, UTF-16 character) position of `file`.
pub fn offset_in(file: &FileEntry, line: u64, character: u64) -> Result<u32, ToolError> {
    offset_of(&file.source, line, character).ok_or_else(|| {
        let line_count = file.line_count();
        ToolError::InvalidPosition {
            path: file.path.clone(),
            field: if line as usize >= line_count {
                "line"
            } else {
                "character"
            },
            line,
            character,
            line_count,
        }
    })
}

/// Byte offset of a zero-based (line, UTF-16 character) position.
pub fn offset_of(source: &str, line: u64, character: u64) -> Option<u32> {
    let mut start = 0usize;
    for _ in 0..line {
        start += source[start..].find('\n')? + 1;
    }
    let text = source[start..].split('\n').next().unwrap_or_default();
    let mut units = 0u64;
    for (i, c) in text.char_indices() {
        if units >= character {
            return Some((start + i) as u32);
        }
        units += c.len_utf16() as u64;
    }
    (units >= character).then_some((start + text.len()) as u32)
}

fn at_position(
    resolver: &Resolver,
    file: &Arc<FileEntry>,
    line: u64,
    character: u64,
) -> Result<Subject, ToolError> {
    let offset = offset_in(file, line, character)?;
    let facts = file.facts()?;
    let table = resolver.table();
    let file_number = table
        .file_number(&file.path)
        .ok_or_else(|| ToolError::Internal(format!("{} missing from the table", file.path)))?;
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
            let definitions = resolver.resolve(file, reference);
            match definitions.as_slice() {
                [] => {
                    let candidates =
                        resolver.name_only_candidates(&reference.name, reference.is_member);
                    Err(ToolError::Unresolved {
                        name: reference.name.clone(),
                        path: file.path.clone(),
                        line: line as u32,
                        character: character as u32,
                        reason: if candidates > 0 {
                            format!(
                                "{candidates} declarations share the name; without types lingo cannot tell which one is meant"
                            )
                        } else {
                            "no declaration of that name is indexed".into()
                        },
                    })
                }
                [one] => Ok(subject_of(resolver, one)),
                several => Err(ToolError::SymbolAmbiguous {
                    name: reference.name.clone(),
                    candidates: several
                        .iter()
                        .map(|d| describe_subject(resolver, &subject_of(resolver, d)))
                        .collect(),
                }),
            }
        }
        None => Err(ToolError::NothingAtPosition {
            path: file.path.clone(),
            line: line as u32,
            character: character as u32,
            nearby: facts
                .symbols
                .iter()
                .filter(|s| s.span.start.line as u64 <= line && line <= s.span.end.line as u64)
                .map(|s| s.name.clone())
                .collect(),
        }),
    }
}

fn by_name(
    workspace: &Workspace,
    resolver: &Resolver,
    symbol: &str,
    file: Option<&Arc<FileEntry>>,
) -> Result<Subject, ToolError> {
    let separators = separators(workspace);
    let mut found: Vec<Subject> = resolver
        .by_name(symbol, &separators)
        .iter()
        .map(|d| subject_of(resolver, d))
        .collect();
    if let Some(file) = file {
        found.retain(
            |s| matches!(s, Subject::Symbol(r) if resolver.table().file(*r).path == file.path),
        );
    }
    match found.len() {
        0 => Err(not_found(resolver, symbol, &separators)),
        1 => Ok(found.remove(0)),
        _ => Err(ToolError::SymbolAmbiguous {
            name: symbol.to_string(),
            candidates: found
                .iter()
                .map(|s| describe_subject(resolver, s))
                .collect(),
        }),
    }
}

/// The separators of qualified names the loaded plugins declare, plus `.`,
/// which every tool accepts for `Type.member`.
pub fn separators(workspace: &Workspace) -> Vec<String> {
    let mut separators = workspace.registry().path_separators();
    if !separators.iter().any(|s| s == ".") {
        separators.push(".".to_string());
    }
    separators
}

/// SYMBOL_NOT_FOUND with the most similar declared names.
pub fn not_found(resolver: &Resolver, wanted: &str, separators: &[String]) -> ToolError {
    let (_, name) = crate::resolve::split_qualified(wanted, separators);
    ToolError::SymbolNotFound {
        name: wanted.to_string(),
        nearby: similar(name, resolver.table().names(), 5),
    }
}

fn subject_of(resolver: &Resolver, definition: &Definition) -> Subject {
    match &definition.target {
        Target::Symbol { file, index } => Subject::Symbol(SymbolRef {
            file: resolver
                .table()
                .file_number(&file.path)
                .expect("definitions point into the table's files"),
            symbol: *index as u32,
        }),
        Target::Local { file, index } => Subject::Local {
            file: file.clone(),
            index: *index,
        },
    }
}

/// `src/a.rs:12 function Outer.name` (1-based line), for candidate lists.
pub fn describe_subject(resolver: &Resolver, subject: &Subject) -> String {
    match subject {
        Subject::Symbol(r) => {
            let table = resolver.table();
            let symbol = table.symbol(*r);
            let qualified = match &symbol.container_name {
                Some(container) => format!("{container}.{}", symbol.name),
                None => symbol.name.clone(),
            };
            format!(
                "{}:{} {} {qualified}",
                table.file(*r).path,
                symbol.span.start.line + 1,
                symbol.kind.as_str()
            )
        }
        Subject::Local { file, index } => {
            let local = &file
                .facts
                .as_ref()
                .expect("locals come from analyzed files")
                .locals[*index];
            format!(
                "{}:{} local {}",
                file.path,
                local.span.start.line + 1,
                local.name
            )
        }
    }
}
