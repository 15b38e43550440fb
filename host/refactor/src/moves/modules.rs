//! The modules a moved declaration leaves and joins: the namespace its
//! text declares (kept, or the one asked for), or the module its file's
//! path makes.

use super::declaration::qualified_name;
use super::target::Target;
use super::{MODULE_KINDS, MoveRequest};
use crate::RefactorError;
use crate::reanalyse::reanalyse;
use lingo_analysis::Analysis;
use lingo_index::FileEntry;
use lingo_model::{FileFacts, ModuleIdentity, ModuleLayout, SymbolKind};

/// The modules the declaration leaves and joins.
pub(super) struct Modules {
    pub(super) source: Option<ModuleIdentity>,
    pub(super) target: Option<ModuleIdentity>,
    /// Whether the move keeps the declaration in its module.
    pub(super) same: bool,
}

impl Modules {
    pub(super) fn of(
        analysis: &Analysis,
        source: &FileEntry,
        index: usize,
        target: &Target,
        request: &MoveRequest,
        layout: ModuleLayout,
    ) -> Result<Modules, RefactorError> {
        let facts = source.facts()?;
        if !layout.follows_paths() {
            // The text declares the module: the declaration's namespace,
            // kept unless the request names another.
            let source_module = declared_module(facts, index);
            let target_module = match &request.target_module {
                Some(name) => ModuleIdentity {
                    path: namespace_name(name, &source.plugin.info().path_separator)?,
                    crate_or_package: source_module
                        .as_ref()
                        .and_then(|m| m.crate_or_package.clone()),
                },
                None => match source_module.clone() {
                    Some(module) => module,
                    None => {
                        return Ok(Modules {
                            source: None,
                            target: None,
                            same: true,
                        });
                    }
                },
            };
            let same = source_module
                .as_ref()
                .is_some_and(|m| m.path == target_module.path);
            if same && target.path == source.path {
                return Err(RefactorError::SameLocation {
                    name: facts.symbols[index].name.to_string(),
                    path: format!("{} ({})", source.path, target_module.path),
                });
            }
            return Ok(Modules {
                source: source_module,
                target: Some(target_module),
                same,
            });
        }
        let source_module = facts.modules.first().cloned();
        let target_module = match &target.entry {
            Some(entry) => entry.facts()?.modules.first().cloned(),
            None => reanalyse(&*source.plugin, &target.path, "", analysis.snapshot())
                .map_err(|e| RefactorError::InvalidTargetPath {
                    path: target.path.clone(),
                    reason: format!("its plugin could not place it in a module: {e}"),
                })?
                .modules
                .into_iter()
                .next(),
        };
        let same = match (&source_module, &target_module) {
            (Some(s), Some(t)) => s.path == t.path,
            _ => false,
        };
        if same && target.path == source.path {
            return Err(RefactorError::SameLocation {
                name: facts.symbols[index].name.to_string(),
                path: target.path.clone(),
            });
        }
        Ok(Modules {
            source: source_module,
            target: target_module,
            same,
        })
    }
}

/// The namespace a declaration is declared in where the text declares
/// them: its nearest module-kind container's qualified name, else the
/// file's first module (the global namespace of a file that declares none).
pub(super) fn declared_module(facts: &FileFacts, index: usize) -> Option<ModuleIdentity> {
    let mut container = facts.symbols.get(index)?.container;
    for _ in 0..facts.symbols.len() {
        let Some(c) = container else { break };
        let symbol = facts.symbols.get(c as usize)?;
        if MODULE_KINDS.contains(&symbol.kind) && symbol.kind != SymbolKind::File {
            let path = qualified_name(facts, c as usize);
            return Some(
                facts
                    .modules
                    .iter()
                    .find(|m| m.path == path)
                    .cloned()
                    .unwrap_or_else(|| ModuleIdentity {
                        path,
                        crate_or_package: facts
                            .modules
                            .first()
                            .and_then(|m| m.crate_or_package.clone()),
                    }),
            );
        }
        container = symbol.container;
    }
    facts
        .modules
        .iter()
        .find(|m| m.path.is_empty())
        .or(facts.modules.first())
        .cloned()
}

/// A namespace name as the request wrote it, checked: identifiers joined
/// by `.` (or by the language's own `separator`), normalized to `.`.
pub(super) fn namespace_name(name: &str, separator: &str) -> Result<String, RefactorError> {
    let invalid = |reason: &str| RefactorError::InvalidNamespace {
        namespace: name.to_string(),
        reason: reason.to_string(),
    };
    let trimmed = name.trim();
    if trimmed.is_empty() {
        return Err(invalid("it is empty"));
    }
    let segments: Vec<&str> = if !separator.is_empty() && trimmed.contains(separator) {
        trimmed.split(separator).collect()
    } else {
        trimmed.split('.').collect()
    };
    for segment in &segments {
        let mut chars = segment.chars();
        let starts_well = chars.next().is_some_and(|c| c.is_alphabetic() || c == '_');
        if !starts_well || !chars.all(|c| c.is_alphanumeric() || c == '_') {
            return Err(invalid(
                "each part must be an identifier (a letter or `_`, then letters, digits or `_`), parts joined by `.`",
            ));
        }
    }
    Ok(segments.join("."))
}
