//! The files that used the moved declaration, and their imports
//! rewritten to name its new module: an import of it gets the new module's
//! path, a file that reached it without one gets one, and a use written as
//! a path through the old module (`crate::shapes::Square`,
//! `Geometry.Shapes.Circle`) gets the new module's path where the
//! language writes module paths in code.

use std::collections::BTreeMap;

use super::Counts;
use super::declaration::{not_moveable, plugin_refusal};
use super::modules::Modules;
use super::needs::{add_import, module_binding};
use crate::RefactorError;
use crate::edit;
use crate::plan::{self, Warning, warning};
use crate::reanalyse::reanalyse;
use lingo_analysis::{Analysis, SiteView};
use lingo_index::FileEntry;
use lingo_model::{FileFacts, Import, ImportKind, ModuleIdentity, Symbol};
use lingo_resolve::Resolution;
use lingo_runtime::{LanguagePlugin, PluginError};

/// The uses of the moved declaration outside it, by file.
pub(super) struct Users {
    /// Files with certain uses, and how each uses it.
    pub(super) files: BTreeMap<String, FileUses>,
    /// Uses resolved by name only, and same-named uses nothing resolved.
    pub(super) uncertain: Vec<String>,
}

/// How one file uses the moved declaration.
#[derive(Default)]
pub(super) struct FileUses {
    /// Where it is used by its bare name (or through an import of it):
    /// the name's offset in the file.
    pub(super) bare: Vec<usize>,
    /// Uses written as a path through the old module.
    pub(super) qualified: Vec<QualifiedUse>,
}

/// A use written as a path through the old module (`shapes::Square`).
pub(super) struct QualifiedUse {
    /// Where the name starts in its file.
    pub(super) name_start: usize,
    /// The path segments written before the name.
    pub(super) qualifier: Vec<String>,
    /// `path:line:column`, 1-based.
    pub(super) place: String,
}

impl Users {
    pub(super) fn of(
        analysis: &Analysis,
        source: &FileEntry,
        symbol: &Symbol,
        (from, to): (usize, usize),
        old_module: Option<&ModuleIdentity>,
        consolidating_into: Option<&str>,
    ) -> Result<Users, RefactorError> {
        let old_module_name = old_module.and_then(|m| m.path.rsplit(['/', '.', ':']).next());
        let target = lingo_analysis::Target::Position(lingo_analysis::FilePosition {
            path: source.path.clone(),
            line: symbol.name_span.start.line.into(),
            character: symbol.name_span.start.character.into(),
        });
        let references = analysis.references(&target)?;
        let mut users = Users {
            files: BTreeMap::new(),
            uncertain: Vec::new(),
        };
        let mut arriving = 0;
        for site in &references.sites {
            let (path, point) = site.site.place();
            let place = site.site.label();
            if site.resolution == Resolution::NameOnly || site.confidence < 1.0 {
                // Text that moved ahead of it in a consolidation names it
                // before it arrives: it resolves once it is there.
                if consolidating_into == Some(path) {
                    arriving += 1;
                } else {
                    users.uncertain.push(place);
                }
                continue;
            }
            let file = analysis.file(path)?;
            let facts = file.facts()?;
            let offset = edit::LineIndex::new(&file.source()).offset(plan::Position {
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
                r.kind != lingo_model::ReferenceKind::Import
                    && !r.is_member
                    && r.qualifier
                        .last()
                        .is_some_and(|q| Some(q.as_str()) == old_module_name)
            });
            let uses = users.files.entry(path.to_string()).or_default();
            match reference {
                Some(reference) if names_old_module => uses.qualified.push(QualifiedUse {
                    name_start: offset,
                    qualifier: reference
                        .qualifier
                        .iter()
                        .map(lingo_model::Name::to_string)
                        .collect(),
                    place,
                }),
                Some(reference) if reference.kind == lingo_model::ReferenceKind::Import => {}
                _ => uses.bare.push(offset),
            }
        }
        users.uncertain.extend(
            references
                .completeness
                .possibly_missed_sites
                .iter()
                .flatten()
                .map(SiteView::label),
        );
        if !references.completeness.complete && users.uncertain.is_empty() && arriving == 0 {
            users.uncertain.push(references.completeness.note.clone());
        }
        Ok(users)
    }

    /// The warnings about `name`'s uses: `not_rewritten`, the qualified
    /// uses left as they were, and the uncertain ones.
    pub(super) fn warnings(&self, name: &str, not_rewritten: &[String]) -> Vec<Warning> {
        let mut out = Vec::new();
        if !not_rewritten.is_empty() {
            out.push(Warning::listed(
                warning::POTENTIAL_BEHAVIOR_CHANGE,
                format!(
                    "{} uses spell `{name}` with the path of its old module and are not rewritten; fix them, or apply with `force`",
                    not_rewritten.len()
                ),
                not_rewritten.iter().cloned(),
            ));
        }
        if !self.uncertain.is_empty() {
            out.push(Warning::listed(
                warning::INCOMPLETE_REFERENCES,
                format!(
                    "the uses of `{name}` may not be all ({} uncertain): files using it unseen keep importing it from its old module; applying needs `force`",
                    self.uncertain.len()
                ),
                self.uncertain.iter().cloned(),
            ));
        }
        out
    }
}

/// Every file that used the declaration imports it from its new module:
/// an import naming only it gets the new module's path in place of the old
/// (a re-export stays one), one naming more loses it and a new import is
/// added, a file that reached it by its bare name without an import (its
/// old module's own files) gets one, a use written as a path through the
/// old module gets the new module's path where the language writes module
/// paths in code, and the target drops its import of it. Returns the
/// qualified uses left as they were (`path:line:column`).
pub(super) fn rewrite_users(
    analysis: &Analysis,
    plugin: &dyn LanguagePlugin,
    symbol: &Symbol,
    (modules, moved): (&Modules, Moved<'_>),
    users: &Users,
    texts: &mut BTreeMap<String, String>,
    counts: &mut Counts,
) -> Result<Vec<String>, RefactorError> {
    let Some(new_module) = &modules.target else {
        return Ok(users
            .files
            .values()
            .flat_map(|u| u.qualified.iter().map(|q| q.place.clone()))
            .collect());
    };
    let refusal = |e: PluginError| plugin_refusal(symbol, e);
    let misfit = |what: &str, e: edit::EditError| {
        not_moveable(
            symbol,
            format!("`{what}` answered edits that do not fit: {e}"),
        )
    };
    let separator = plugin.info().path_separator.clone();
    let manifests = &analysis.snapshot().manifests;
    let mut not_rewritten = Vec::new();
    for (path, uses) in &users.files {
        let file = analysis.file(path)?;
        let facts = file.facts()?;
        let untouched = !texts.contains_key(path);
        let mut text = texts
            .get(path)
            .cloned()
            .unwrap_or_else(|| file.source().to_string());
        // Where an offset of the file's own text is in `text`: the same in
        // an untouched file, shifted past the declaration in the file it
        // leaves; unknown in the file it joins.
        let at = |offset: usize| -> Option<usize> {
            if untouched {
                Some(offset)
            } else if *path == moved.path && !(moved.from..moved.to).contains(&offset) {
                Some(if offset >= moved.to {
                    offset - (moved.to - moved.from)
                } else {
                    offset
                })
            } else {
                None
            }
        };
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
        // Where an import binds the module rather than names (Go's package
        // name), uses are written through that name.
        let binding = match &specifier {
            Some(specifier) if !is_code_path(specifier, &separator) => module_binding(
                plugin,
                (path, &file.source()),
                specifier,
                &[symbol.name.to_string()],
                analysis.snapshot(),
            )
            .map_err(refusal)?,
            _ => None,
        };
        // Edits of the file's own text, made together from the last; then
        // the plugin's edits of the result.
        let mut in_place: Vec<(usize, usize, String)> = Vec::new();
        let mut removals = Vec::new();
        for import in &old_imports {
            let only_it = import.names.len() == 1;
            if let (true, true, Some(specifier)) = (only_it, untouched, &specifier)
                && let Some((start, end)) = module_path_span(&file.source(), import)
            {
                in_place.push((start, end, specifier.clone()));
                imported = true;
                continue;
            }
            removals.push(*import);
        }
        let qualifier = match (&specifier, &binding) {
            (_, Some(binding)) => Some(binding.clone()),
            (Some(specifier), None) if is_code_path(specifier, &separator) => {
                Some(specifier.clone())
            }
            _ => None,
        };
        let mut through_binding = false;
        for qualified in &uses.qualified {
            let range = qualifier_range(&file.source(), qualified, &separator)
                .and_then(|(start, end)| Some((at(start)?, at(end)?)));
            match (&qualifier, range) {
                (Some(qualifier), Some((start, end))) => {
                    in_place.push((start, end, qualifier.clone()));
                    through_binding |= binding.is_some();
                }
                _ => not_rewritten.push(qualified.place.clone()),
            }
        }
        if let Some(binding) = &binding {
            for offset in uses.bare.iter().filter_map(|o| at(*o)) {
                in_place.push((offset, offset, format!("{binding}{separator}")));
                through_binding = true;
            }
        }
        in_place.sort_by_key(|(start, _, _)| std::cmp::Reverse(*start));
        for (start, end, replacement) in in_place {
            text.replace_range(start..end, &replacement);
            counts.references += 1;
        }
        for import in &removals {
            let edits = plugin
                .remove_import(path, &text, &import.module_path, Some(&symbol.name))
                .map_err(refusal)?;
            text = edit::apply_bytes(&text, &edits).map_err(|e| misfit("remove-import", e))?;
            counts.removed += 1;
        }
        // A use by the bare name needs an import, and so does a file whose
        // import of it went or that now names it through the new module.
        let needs_import = !uses.bare.is_empty() || !removals.is_empty() || through_binding;
        if needs_import
            && !imported
            && let Some(specifier) = &specifier
        {
            text = add_import(plugin, path, &text, specifier, &[symbol.name.to_string()])
                .map_err(refusal)?;
            counts.added += 1;
        }
        if through_binding {
            text = drop_unused_module_imports(plugin, (path, text), facts, modules, analysis)
                .map_err(refusal)?;
        }
        texts.insert(path.clone(), text);
    }
    Ok(not_rewritten)
}

/// The file a declaration leaves, and the bytes it took out of it.
#[derive(Clone, Copy)]
pub(super) struct Moved<'a> {
    pub(super) path: &'a str,
    pub(super) from: usize,
    pub(super) to: usize,
}

/// `text` without the imports of the old module that bind a name it no
/// longer writes (in Go, an unused import does not compile).
fn drop_unused_module_imports(
    plugin: &dyn LanguagePlugin,
    (path, mut text): (&str, String),
    facts: &FileFacts,
    modules: &Modules,
    analysis: &Analysis,
) -> Result<String, PluginError> {
    let Some(old) = &modules.source else {
        return Ok(text);
    };
    let Some(importer) = facts.modules.first() else {
        return Ok(text);
    };
    let file = analysis.snapshot().file(path);
    let now = reanalyse(plugin, path, &text, analysis.snapshot())?;
    for import in &now.imports {
        let Some(binding) = import.names.first().map(|n| n.local_name()) else {
            continue;
        };
        let of_old_module = import.kind == ImportKind::Namespace
            && file.is_some_and(|f| {
                analysis
                    .table()
                    .resolve_import(f, importer, &import.module_path, analysis.snapshot())
                    .contains(&old.path)
            });
        let still_named = now.references.iter().any(|r| {
            let outside = r.span.start.offset < import.span.start.offset
                || r.span.start.offset >= import.span.end.offset;
            outside
                && r.kind != lingo_model::ReferenceKind::Import
                && (r.name == binding || r.qualifier.first().is_some_and(|q| q == binding))
        });
        if of_old_module && !still_named {
            let edits = plugin.remove_import(path, &text, &import.module_path, None)?;
            text = edit::apply_bytes(&text, &edits).map_err(|e| PluginError::Failed {
                plugin: plugin.info().name.clone(),
                reason: format!("`remove-import` answered edits that do not fit: {e}"),
            })?;
        }
    }
    Ok(text)
}

/// Whether `specifier` is a path code can write (`crate::legacy`,
/// `Geometry.Legacy`): identifiers joined by the language's separator,
/// rather than a file path or URL (`./legacy`, `example.com/m/legacy`).
fn is_code_path(specifier: &str, separator: &str) -> bool {
    !separator.is_empty()
        && specifier.split(separator).all(|segment| {
            let mut chars = segment.chars();
            chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
                && chars.all(|c| c.is_alphanumeric() || c == '_')
        })
}

/// The bytes of a qualified use's path before its name, without the last
/// separator (`crate::shapes` of `crate::shapes::Square`), when the text
/// writes exactly the qualifier the plugin reported.
fn qualifier_range(source: &str, used: &QualifiedUse, separator: &str) -> Option<(usize, usize)> {
    if used.qualifier.is_empty() {
        return None;
    }
    let written = format!("{}{separator}", used.qualifier.join(separator));
    let start = used.name_start.checked_sub(written.len())?;
    (source.get(start..used.name_start)? == written)
        .then_some((start, used.name_start - separator.len()))
}

/// Where `import`'s module path is written inside its span: its only
/// occurrence there.
pub(crate) fn module_path_span(source: &str, import: &Import) -> Option<(usize, usize)> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_paths_are_identifiers_joined_by_the_separator() {
        assert!(is_code_path("crate::legacy", "::"));
        assert!(is_code_path("Geometry.Legacy", "."));
        assert!(!is_code_path("./legacy", "."));
        assert!(!is_code_path("example.com/m/legacy", "."));
        assert!(!is_code_path("crate::", "::"));
        assert!(!is_code_path("", "::"));
    }

    #[test]
    fn a_qualifier_is_found_only_where_the_text_writes_it() {
        let used = |name_start, qualifier: &[&str]| QualifiedUse {
            name_start,
            qualifier: qualifier.iter().map(|s| s.to_string()).collect(),
            place: String::new(),
        };
        let source = "let s = crate::shapes::Square::new(); let t = shapes :: Square;";
        let at = source.find("Square").unwrap();
        assert_eq!(
            qualifier_range(source, &used(at, &["crate", "shapes"]), "::"),
            Some((8, 21))
        );
        assert_eq!(&source[8..21], "crate::shapes");
        let spaced = source.rfind("Square").unwrap();
        assert_eq!(
            qualifier_range(source, &used(spaced, &["shapes"]), "::"),
            None
        );
        assert_eq!(
            qualifier_range(source, &used(3, &["crate", "shapes"]), "::"),
            None
        );
    }
}
