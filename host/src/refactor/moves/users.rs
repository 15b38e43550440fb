//! The files that used the moved declaration, and their imports
//! rewritten to name its new module.

use std::collections::{BTreeMap, BTreeSet};

use super::Counts;
use super::declaration::{not_moveable, plugin_refusal};
use super::modules::Modules;
use super::needs::add_import;
use crate::analysis::Analysis;
use crate::model::{FileFacts, Import, ImportKind, ModuleIdentity, Symbol};
use crate::refactor::RefactorError;
use crate::refactor::edit;
use crate::refactor::plan::{self, Warning, warning};
use crate::resolve::Resolution;
use crate::runtime::{LanguagePlugin, PluginError};
use crate::workspace::FileEntry;

/// The uses of the moved declaration outside it, by file.
pub(super) struct Users {
    /// Files with certain uses.
    pub(super) files: BTreeSet<String>,
    /// Uses written as a qualified path, which a move does not rewrite.
    pub(super) qualified: Vec<String>,
    /// Uses resolved by name only, and same-named uses nothing resolved.
    pub(super) uncertain: Vec<String>,
}

impl Users {
    pub(super) fn of(
        analysis: &Analysis,
        source: &FileEntry,
        symbol: &Symbol,
        (from, to): (usize, usize),
        old_module: Option<&ModuleIdentity>,
    ) -> Result<Users, RefactorError> {
        let old_module_name = old_module.and_then(|m| m.path.rsplit(['/', '.', ':']).next());
        let target = crate::analysis::Target::Position(crate::analysis::FilePosition {
            path: source.path.clone(),
            line: symbol.name_span.start.line.into(),
            character: symbol.name_span.start.character.into(),
        });
        let references = analysis.references(&target)?;
        let mut users = Users {
            files: BTreeSet::new(),
            qualified: Vec::new(),
            uncertain: Vec::new(),
        };
        for site in &references.sites {
            let (path, point) = site.site.place();
            let place = format!("{path}:{}:{}", point.line + 1, point.character + 1);
            if site.resolution == Resolution::NameOnly || site.confidence < 1.0 {
                users.uncertain.push(place);
                continue;
            }
            let file = analysis.file(path)?;
            let facts = file.facts()?;
            let offset = edit::LineIndex::new(&file.source).offset(plan::Position {
                line: point.line,
                character: point.character,
            });
            let Some(offset) = offset else { continue };
            if path == source.path && from <= offset && offset < to {
                continue;
            }
            let reference = facts
                .references
                .iter()
                .find(|r| r.span.start.offset as usize == offset);
            // A path naming the old module (`shapes::Circle` for a move out
            // of `shapes`) is not rewritten; a qualifier naming something
            // else (a namespace import of a module re-exporting it) still
            // reaches it.
            let names_old_module = reference.is_some_and(|r| {
                r.kind != crate::model::ReferenceKind::Import
                    && !r.is_member
                    && r.qualifier
                        .last()
                        .is_some_and(|q| Some(q.as_str()) == old_module_name)
            });
            if names_old_module {
                users.qualified.push(place);
            }
            users.files.insert(path.to_string());
        }
        users.uncertain.extend(
            references
                .completeness
                .possibly_missed_sites
                .iter()
                .flatten()
                .map(|s| {
                    let (path, point) = s.place();
                    format!("{path}:{}:{}", point.line + 1, point.character + 1)
                }),
        );
        if !references.completeness.complete && users.uncertain.is_empty() {
            users.uncertain.push(references.completeness.note.clone());
        }
        Ok(users)
    }

    pub(super) fn warnings(&self, name: &str) -> Vec<Warning> {
        let mut out = Vec::new();
        if !self.qualified.is_empty() {
            out.push(Warning {
                code: warning::POTENTIAL_BEHAVIOR_CHANGE.into(),
                message: format!(
                    "{} uses spell `{name}` with the path of its old module and are not rewritten; fix them, or apply with `force`",
                    self.qualified.len()
                ),
                sites: self.qualified.iter().take(Warning::MAX_SITES).cloned().collect(),
            });
        }
        if !self.uncertain.is_empty() {
            out.push(Warning {
                code: warning::INCOMPLETE_REFERENCES.into(),
                message: format!(
                    "the uses of `{name}` may not be all ({} uncertain): files using it unseen keep importing it from its old module; applying needs `force`",
                    self.uncertain.len()
                ),
                sites: self.uncertain.iter().take(Warning::MAX_SITES).cloned().collect(),
            });
        }
        out
    }
}

/// Every file that used the declaration imports it from its new module:
/// an import naming only it gets the new module's path in place of the old
/// (a re-export stays one), one naming more loses it and a new import is
/// added, a file that reached it without an import (its old module's own
/// files) gets one, and the target drops its import of it.
pub(super) fn rewrite_users(
    analysis: &Analysis,
    plugin: &dyn LanguagePlugin,
    symbol: &Symbol,
    modules: &Modules,
    users: &Users,
    texts: &mut BTreeMap<String, String>,
    counts: &mut Counts,
) -> Result<(), RefactorError> {
    let Some(new_module) = &modules.target else {
        return Ok(());
    };
    let refusal = |e: PluginError| plugin_refusal(symbol, e);
    let misfit = |what: &str, e: edit::EditError| {
        not_moveable(
            symbol,
            format!("`{what}` answered edits that do not fit: {e}"),
        )
    };
    let manifests = &analysis.snapshot().manifests;
    for path in &users.files {
        let file = analysis.file(path)?;
        let facts = file.facts()?;
        let untouched = !texts.contains_key(path);
        let mut text = texts
            .get(path)
            .cloned()
            .unwrap_or_else(|| file.source.to_string());
        let importer = facts.modules.first();
        let in_new_module = importer.is_some_and(|m| m.path == new_module.path);
        let specifier = match importer {
            Some(importer) if !in_new_module => Some(
                plugin
                    .import_specifier(importer, new_module, manifests)
                    .map_err(refusal)?,
            ),
            _ => None,
        };
        let old_imports = imports_of(analysis, &file, facts, modules, &symbol.name);
        // Imported from elsewhere (a module re-exporting it): still reached.
        let mut imported = facts.imports.iter().any(|i| {
            i.names.iter().any(|n| n.local_name() == symbol.name)
                && !old_imports.iter().any(|old| std::ptr::eq(*old, i))
        });
        // Rewritten in place from the last, so earlier spans stay valid.
        let mut in_place: Vec<(usize, usize, String)> = Vec::new();
        for import in &old_imports {
            let only_it = import.names.len() == 1;
            if let (true, true, Some(specifier)) = (only_it, untouched, &specifier)
                && let Some((start, end)) = module_path_span(&file.source, import)
            {
                in_place.push((start, end, specifier.clone()));
                imported = true;
                continue;
            }
            let edits = plugin
                .remove_import(path, &text, &import.module_path, Some(&symbol.name))
                .map_err(refusal)?;
            text = edit::apply_bytes(&text, &edits).map_err(|e| misfit("remove-import", e))?;
            counts.removed += 1;
        }
        in_place.sort_by_key(|(start, _, _)| std::cmp::Reverse(*start));
        for (start, end, specifier) in in_place {
            text.replace_range(start..end, &specifier);
            counts.references += 1;
        }
        if !imported && let Some(specifier) = &specifier {
            text = add_import(
                plugin,
                path,
                &text,
                specifier,
                std::slice::from_ref(&symbol.name),
            )
            .map_err(refusal)?;
            counts.added += 1;
            counts.references += 1;
        }
        texts.insert(path.clone(), text);
    }
    Ok(())
}

/// Where `import`'s module path is written inside its span: its only
/// occurrence there.
pub(in crate::refactor) fn module_path_span(
    source: &str,
    import: &Import,
) -> Option<(usize, usize)> {
    let (start, end) = (
        import.span.start.offset as usize,
        import.span.end.offset as usize,
    );
    let text = source.get(start..end)?;
    let path = import.module_path.as_str();
    if path.is_empty() || text.matches(path).count() != 1 {
        return None;
    }
    let at = text.find(path)?;
    Some((start + at, start + at + path.len()))
}

/// The imports of `file` that bring in `name` from the declaration's old
/// module (re-exports included).
pub(super) fn imports_of<'f>(
    analysis: &Analysis,
    file: &FileEntry,
    facts: &'f FileFacts,
    modules: &Modules,
    name: &str,
) -> Vec<&'f Import> {
    let Some(old) = &modules.source else {
        return Vec::new();
    };
    let Some(importer) = facts.modules.first() else {
        return Vec::new();
    };
    facts
        .imports
        .iter()
        .filter(|i| i.kind != ImportKind::Glob && i.names.iter().any(|n| n.name == name))
        .filter(|i| {
            analysis
                .table()
                .resolve_import(file, importer, &i.module_path, analysis.snapshot())
                .contains(&old.path)
        })
        .collect()
}
