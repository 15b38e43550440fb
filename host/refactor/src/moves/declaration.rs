//! The declaration a move takes: found by name and line or position,
//! checked movable (module level, a type where only types move), its
//! extent in its file as the plugin answers it, and no same-named
//! declaration waiting where it goes.

use std::sync::Arc;

use super::modules::{Modules, declared_module};
use super::target::Target;
use super::{MODULE_KINDS, MoveSource, TYPE_KINDS};
use crate::RefactorError;
use lingo_analysis::Analysis;
use lingo_index::FileEntry;
use lingo_model::{FileFacts, ModuleLayout, Span, Symbol, SymbolKind};
use lingo_runtime::{LanguagePlugin, PluginError};

/// The declaration `source` names in `facts`.
pub(super) fn find_declaration(
    file: &FileEntry,
    facts: &FileFacts,
    source: &MoveSource,
) -> Result<usize, RefactorError> {
    let lines = file.line_count() as u32;
    match source {
        MoveSource::At {
            line, character, ..
        } => {
            if *line >= lines {
                return Err(RefactorError::InvalidLine {
                    path: file.path.clone(),
                    line: line + 1,
                    lines,
                });
            }
            let at = |span: &Span| {
                let after_start = (span.start.line, span.start.character) <= (*line, *character);
                let before_end = (*line, *character) <= (span.end.line, span.end.character);
                after_start && before_end
            };
            // The innermost declaration whose name, else whose span, holds it.
            let on_name = facts.symbols.iter().position(|s| at(&s.name_span));
            let innermost = facts
                .symbols
                .iter()
                .enumerate()
                .filter(|(_, s)| at(&s.span))
                .min_by_key(|(_, s)| s.span.end.offset - s.span.start.offset)
                .map(|(i, _)| i);
            on_name
                .or(innermost)
                .ok_or_else(|| RefactorError::SymbolNotFound {
                    path: file.path.clone(),
                    name: String::new(),
                    line: Some(line + 1),
                    nearby: Vec::new(),
                })
        }
        MoveSource::Named { name, line, .. } => {
            if let Some(line) = line
                && (*line == 0 || *line > lines)
            {
                return Err(RefactorError::InvalidLine {
                    path: file.path.clone(),
                    line: *line,
                    lines,
                });
            }
            let wanted = normalized(name);
            let simple = wanted.rsplit('.').next().unwrap_or_default();
            let mut candidates: Vec<usize> = (0..facts.symbols.len())
                .filter(|&i| facts.symbols[i].name == simple)
                .filter(|&i| {
                    let qualified = qualified_name(facts, i);
                    qualified == wanted || qualified.ends_with(&format!(".{wanted}"))
                })
                .filter(|&i| {
                    line.is_none_or(|l| {
                        let span = facts.symbols[i].span;
                        span.start.line < l && l <= span.end.line + 1
                    })
                })
                .collect();
            // A type and the constructors named after it: the type.
            let all = candidates.clone();
            candidates.retain(|&i| {
                facts.symbols[i]
                    .container
                    .is_none_or(|c| !all.contains(&(c as usize)))
            });
            // Blocks named after a type (a Rust `impl`: an object kind)
            // declare no name of their own; prefer what does.
            let narrowed: Vec<usize> = candidates
                .iter()
                .copied()
                .filter(|&i| facts.symbols[i].kind != SymbolKind::Object)
                .collect();
            if !narrowed.is_empty() {
                candidates = narrowed;
            }
            match candidates.as_slice() {
                [one] => Ok(*one),
                [] => Err(RefactorError::SymbolNotFound {
                    path: file.path.clone(),
                    name: name.clone(),
                    line: *line,
                    nearby: lingo_model::suggest::similar(
                        simple,
                        facts.symbols.iter().map(|s| s.name.as_str()),
                        3,
                    ),
                }),
                several => Err(RefactorError::SymbolAmbiguous {
                    path: file.path.clone(),
                    name: name.clone(),
                    lines: several
                        .iter()
                        .map(|&i| facts.symbols[i].span.start.line + 1)
                        .collect(),
                }),
            }
        }
    }
}

/// A qualified name with `.` between segments, whatever the language wrote.
pub(super) fn normalized(name: &str) -> String {
    name.split(['.', ':'])
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(".")
}

/// `A.B.Name`: the names of the declaration's containers, then its own.
pub(super) fn qualified_name(facts: &FileFacts, index: usize) -> String {
    let mut parts = vec![facts.symbols[index].name.to_string()];
    let mut container = facts.symbols[index].container;
    // Containers come before their members: bounded by the symbol count.
    for _ in 0..facts.symbols.len() {
        let Some(c) = container else { break };
        let Some(symbol) = facts.symbols.get(c as usize) else {
            break;
        };
        parts.push(normalized(&symbol.name));
        container = symbol.container;
    }
    parts.reverse();
    parts.join(".")
}

/// Refuse members, nested types and (for `move_type_to_file`) what is no type.
pub(super) fn check_movable(
    facts: &FileFacts,
    index: usize,
    types_only: bool,
) -> Result<(), RefactorError> {
    let symbol = &facts.symbols[index];
    let container = symbol
        .container
        .and_then(|c| facts.symbols.get(c as usize))
        .filter(|c| !MODULE_KINDS.contains(&c.kind));
    let is_type = TYPE_KINDS.contains(&symbol.kind);
    if let Some(container) = container {
        let owner = symbol
            .container_name
            .as_deref()
            .unwrap_or(&container.name)
            .to_string();
        if is_type {
            return Err(RefactorError::Nested {
                name: symbol.name.to_string(),
                container: owner,
            });
        }
        return Err(RefactorError::NotMoveable {
            name: symbol.name.to_string(),
            kind: kind_name(symbol.kind),
            reason: format!("it is a member of `{owner}`; only module-level declarations move"),
            container: Some(owner),
        });
    }
    if types_only && !is_type {
        return Err(not_moveable(
            symbol,
            "only types (classes, structs, interfaces, enums, records, delegates) move with move_type_to_file".into(),
        ));
    }
    Ok(())
}

pub(super) fn not_moveable(symbol: &Symbol, reason: String) -> RefactorError {
    RefactorError::NotMoveable {
        name: symbol.name.to_string(),
        kind: kind_name(symbol.kind),
        reason,
        container: None,
    }
}

/// A plugin's refusal, as the move's error.
pub(super) fn plugin_refusal(symbol: &Symbol, error: PluginError) -> RefactorError {
    not_moveable(symbol, error.to_string())
}

/// `Class`, `Function`...: the LSP kind's name.
pub fn kind_name(kind: SymbolKind) -> String {
    format!("{kind:?}")
}

/// Whether a declaration is at module level (no container, or a module).
pub(super) fn at_module_level(facts: &FileFacts, symbol: &Symbol) -> bool {
    symbol
        .container
        .and_then(|c| facts.symbols.get(c as usize))
        .is_none_or(|c| MODULE_KINDS.contains(&c.kind))
}

/// Refuse a target that already declares the name at module level (in the
/// target namespace, where the text declares namespaces).
pub(super) fn check_collision(
    analysis: &Analysis,
    source: &FileEntry,
    symbol: &Symbol,
    target: &Target,
    modules: &Modules,
    layout: ModuleLayout,
) -> Result<(), RefactorError> {
    let mut files: Vec<Arc<FileEntry>> = target.entry.iter().cloned().collect();
    if !modules.same
        && let Some(module) = &modules.target
    {
        for path in analysis
            .snapshot()
            .modules
            .get(&module.path)
            .into_iter()
            .flatten()
        {
            if let Some(file) = analysis.snapshot().file(path)
                && !files.iter().any(|f| f.path == file.path)
            {
                files.push(file.clone());
            }
        }
    }
    let in_target_namespace = |facts: &FileFacts, index: usize| {
        layout.follows_paths()
            || modules
                .target
                .as_ref()
                .is_none_or(|t| declared_module(facts, index).is_some_and(|m| m.path == t.path))
    };
    // A declaration named after another (a Rust `impl`, whose name the
    // plugin also reports as a reference) declares no name of its own.
    if source
        .facts()
        .is_ok_and(|facts| names_another(facts, symbol))
    {
        return Ok(());
    }
    let mut existing = Vec::new();
    for file in &files {
        let Ok(facts) = file.facts() else { continue };
        for (index, other) in facts.symbols.iter().enumerate() {
            let itself = file.path == source.path && other.span == symbol.span;
            if other.name == symbol.name
                && !itself
                && at_module_level(facts, other)
                && !MODULE_KINDS.contains(&other.kind)
                && !names_another(facts, other)
                && in_target_namespace(facts, index)
            {
                existing.push(format!("{}:{}", file.path, other.span.start.line + 1));
            }
        }
    }
    if existing.is_empty() {
        return Ok(());
    }
    Err(RefactorError::MoveCollision {
        name: symbol.name.to_string(),
        target: target.path.clone(),
        existing,
    })
}

/// The byte range the move takes out of the source, checked.
pub(super) fn extent(
    plugin: &dyn LanguagePlugin,
    source: &FileEntry,
    symbol: &Symbol,
) -> Result<(usize, usize), RefactorError> {
    let (from, to) = plugin
        .declaration_extent(&source.path, &source.source(), &symbol.span)
        .map_err(|e| plugin_refusal(symbol, e))?;
    let (from, to) = (from as usize, to as usize);
    let text = &source.source();
    let fits = from <= symbol.span.start.offset as usize
        && symbol.span.end.offset as usize <= to
        && to <= text.len()
        && text.is_char_boundary(from)
        && text.is_char_boundary(to);
    if !fits {
        return Err(not_moveable(
            symbol,
            format!(
                "its plugin answered an extent ({from}..{to}) that does not hold the declaration ({}..{}) inside the file ({} bytes)",
                symbol.span.start.offset,
                symbol.span.end.offset,
                text.len()
            ),
        ));
    }
    Ok((from, to))
}

/// Whether `symbol`'s name is also a reference of its file: it names
/// another declaration (an `impl` its type) rather than a new one.
fn names_another(facts: &FileFacts, symbol: &Symbol) -> bool {
    facts
        .references
        .iter()
        .any(|r| r.span.start.offset == symbol.name_span.start.offset && r.name == symbol.name)
}
