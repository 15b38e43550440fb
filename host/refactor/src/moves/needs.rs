//! What the moved text needs where it goes: the imports it uses,
//! respelled for the target, and the declarations of its old module it
//! reaches without an import (`BREAKS_ACCESSIBILITY` where they are
//! private and paths make modules).

use std::collections::HashSet;
use std::sync::Arc;

use super::MODULE_KINDS;
use super::declaration::{at_module_level, plugin_refusal};
use super::modules::{Modules, declared_module};
use crate::RefactorError;
use crate::edit;
use crate::reanalyse::reanalyse;
use lingo_analysis::Analysis;
use lingo_index::FileEntry;
use lingo_model::{
    FileFacts, Import, ImportKind, ModuleIdentity, ModuleLayout, Span, Symbol, Visibility,
};
use lingo_resolve::Target as Resolved;
use lingo_runtime::{LanguagePlugin, PluginError};

/// What the moved text uses from its old surroundings.
pub(super) struct Needs {
    /// Module path as the target writes it -> names (empty: the module
    /// itself, or every name of it).
    pub(super) imports: Vec<(String, Vec<String>)>,
    /// Imports used under an alias (`path:line`).
    pub(super) aliases: Vec<String>,
    /// Where the moved text names a declaration of its old module by its
    /// bare name (offset in the source file), and the specifier the target
    /// imports that module by: a language whose imports bind the module
    /// (Go's package name) must qualify those names.
    pub(super) reached_by_name: Vec<(usize, String)>,
    /// Whether the moved text uses declarations of the module it leaves,
    /// which the target then imports.
    pub(super) uses_old_module: bool,
}

/// The name a file of `plugin`'s language at `path` binds when it imports
/// `specifier` (for `names`), when that import binds the module rather than
/// the names (Go's `import "example.com/m/shapes"` binds `shapes`): uses of
/// the names are then written through it. `None` where an import binds the
/// names themselves.
pub(super) fn module_binding(
    plugin: &dyn LanguagePlugin,
    (path, text): (&str, &str),
    specifier: &str,
    names: &[String],
    snapshot: &lingo_index::Snapshot,
) -> Result<Option<String>, PluginError> {
    let imported = add_import(plugin, path, text, specifier, names)?;
    let facts = reanalyse(plugin, path, &imported, snapshot)?;
    Ok(facts
        .imports
        .iter()
        .find(|i| i.module_path == specifier && i.kind == ImportKind::Namespace)
        .and_then(|i| i.names.first())
        .map(|n| n.local_name().to_string())
        .filter(|binding| !binding.is_empty()))
}

impl Needs {
    pub(super) fn of(
        analysis: &Analysis,
        source: &Arc<FileEntry>,
        symbol: &Symbol,
        (from, to): (usize, usize),
        (modules, layout, moving_along): (&Modules, ModuleLayout, &[String]),
        same_file: bool,
    ) -> Result<Needs, RefactorError> {
        let facts = source.facts()?;
        let inside = |span: &Span| {
            let start = span.start.offset as usize;
            from <= start && start < to
        };
        // Names the moved text uses: references' names and first qualifiers.
        let mut used: HashSet<&str> = HashSet::new();
        for reference in facts.references.iter().filter(|r| inside(&r.span)) {
            used.insert(&reference.name);
            if let Some(first) = reference.qualifier.first() {
                used.insert(first);
            }
        }
        let mut imports: Vec<(String, Vec<String>)> = Vec::new();
        let mut aliases = Vec::new();
        let mut reached_by_name = Vec::new();
        let mut uses_old_module = false;
        // A declaration that stays in its file keeps the file's imports.
        let copied = if same_file {
            &[][..]
        } else {
            &facts.imports[..]
        };
        for import in copied {
            if import.reexport || import.kind == ImportKind::SideEffect || inside(&import.span) {
                continue;
            }
            let names: Vec<String> = match import.kind {
                ImportKind::Glob => import.names.iter().map(|n| n.name.clone()).collect(),
                _ => {
                    let bound = bound_names(import);
                    let wanted: Vec<&lingo_model::ImportedName> = import
                        .names
                        .iter()
                        .filter(|n| used.contains(n.local_name()))
                        .collect();
                    if import.names.is_empty() {
                        if !bound.iter().any(|b| used.contains(b.as_str())) {
                            continue;
                        }
                        Vec::new()
                    } else if wanted.is_empty() {
                        continue;
                    } else {
                        for n in wanted.iter().filter(|n| n.alias.is_some()) {
                            aliases.push(format!(
                                "{}:{}:{}",
                                source.path,
                                n.span.start.line + 1,
                                n.span.start.character + 1
                            ));
                        }
                        wanted.iter().map(|n| n.name.clone()).collect()
                    }
                }
            };
            let Some(path) = respecified(analysis, source, import, modules) else {
                continue;
            };
            merge(&mut imports, path, names);
        }
        // Module-level declarations of the old module it uses, which the
        // target now reaches through an import.
        if !modules.same
            && let (Some(old_module), Some(new_module)) = (&modules.source, &modules.target)
        {
            let needed = Reached::of(
                analysis,
                source,
                facts,
                (from, to),
                (old_module, layout),
                moving_along,
            )?;
            // Namespaces do not hide names; modules made of paths do,
            // except from the modules nested in theirs where the language
            // says so (Rust's `crate::a::b` sees `crate::a`'s private items).
            let policy = &source.plugin.info().policy;
            let separator = &source.plugin.info().path_separator;
            let nested = old_module.path.is_empty()
                || new_module
                    .path
                    .strip_prefix(old_module.path.as_str())
                    .is_some_and(|rest| {
                        !separator.is_empty() && rest.starts_with(separator.as_str())
                    });
            let reached = policy.private_reaches_nested_modules && nested;
            if layout.follows_paths() && !needed.closed.is_empty() && !reached {
                return Err(RefactorError::BreaksAccessibility {
                    name: symbol.name.to_string(),
                    target: new_module.path.clone(),
                    needed: needed.closed,
                });
            }
            for (module, names) in needed.modules {
                if module.path == new_module.path || module.path.is_empty() {
                    continue;
                }
                uses_old_module |= module.path == old_module.path;
                let specifier = source
                    .plugin
                    .import_specifier(new_module, &module, &analysis.snapshot().manifests)
                    .map_err(|e| plugin_refusal(symbol, e))?;
                reached_by_name.extend(
                    needed
                        .sites
                        .iter()
                        .filter(|(_, m)| *m == module.path)
                        .map(|(offset, _)| (*offset, specifier.clone())),
                );
                // A namespace is imported whole, a module by its names.
                let names = if layout.follows_paths() {
                    names
                } else {
                    Vec::new()
                };
                merge(&mut imports, specifier, names);
            }
        }
        Ok(Needs {
            imports,
            aliases,
            reached_by_name,
            uses_old_module,
        })
    }
}

/// What the moved text reaches in its old module without an import (and,
/// where the text declares namespaces, in the namespaces around it).
pub(super) struct Reached {
    /// Module -> names used from it, in order of first use.
    pub(super) modules: Vec<(ModuleIdentity, Vec<String>)>,
    /// `name (path:line)` of each private one.
    pub(super) closed: Vec<String>,
    /// Where the moved text names one by its bare name: the name's offset
    /// in the source file, and the module's path.
    pub(super) sites: Vec<(usize, String)>,
}

impl Reached {
    pub(super) fn of(
        analysis: &Analysis,
        source: &Arc<FileEntry>,
        facts: &FileFacts,
        (from, to): (usize, usize),
        (old_module, layout): (&ModuleIdentity, ModuleLayout),
        moving_along: &[String],
    ) -> Result<Reached, RefactorError> {
        let inside = |span: &Span| {
            let start = span.start.offset as usize;
            from <= start && start < to
        };
        let resolver = analysis.resolver();
        let mut reached = Reached {
            modules: Vec::new(),
            closed: Vec::new(),
            sites: Vec::new(),
        };
        // Where paths make modules, the old module is the files of its path
        // (one file, or a folder's).
        let in_old_module = |file: &FileEntry| {
            file.path == source.path
                || file
                    .facts()
                    .is_ok_and(|f| f.modules.first().is_some_and(|m| m.path == old_module.path))
        };
        let mut seen: HashSet<(String, usize)> = HashSet::new();
        for reference in facts.references.iter().filter(|r| inside(&r.span)) {
            for definition in resolver.resolve(source, reference) {
                let Resolved::Symbol { file, index } = &definition.target else {
                    continue;
                };
                if definition.confidence < 1.0 {
                    continue;
                }
                let same_file = file.path == source.path;
                if layout.follows_paths() && !in_old_module(file) {
                    continue;
                }
                let Ok(other_facts) = file.facts() else {
                    continue;
                };
                let Some(other) = other_facts.symbols.get(*index) else {
                    continue;
                };
                // What moves along ends where the moved text goes.
                let along = same_file && moving_along.iter().any(|m| *m == other.name);
                if (same_file && inside(&other.span))
                    || along
                    || !at_module_level(other_facts, other)
                    || MODULE_KINDS.contains(&other.kind)
                {
                    continue;
                }
                let bare = reference.qualifier.is_empty()
                    && !reference.is_member
                    && reference.kind != lingo_model::ReferenceKind::Import;
                if bare && layout.follows_paths() {
                    reached.sites.push((
                        reference.span.start.offset as usize,
                        old_module.path.clone(),
                    ));
                }
                if !seen.insert((file.path.clone(), *index)) {
                    continue;
                }
                let module = if layout.follows_paths() {
                    old_module.clone()
                } else {
                    let Some(module) = declared_module(other_facts, *index) else {
                        continue;
                    };
                    let encloses = module.path == old_module.path
                        || old_module.path.starts_with(&format!("{}.", module.path));
                    if !encloses {
                        continue;
                    }
                    module
                };
                if matches!(
                    other.visibility,
                    Visibility::Private | Visibility::Unspecified
                ) {
                    reached.closed.push(format!(
                        "{} ({}:{})",
                        other.name,
                        file.path,
                        other.span.start.line + 1
                    ));
                }
                match reached
                    .modules
                    .iter_mut()
                    .find(|(m, _)| m.path == module.path)
                {
                    Some((_, names)) => {
                        if !names.iter().any(|n| *n == other.name) {
                            names.push(other.name.to_string());
                        }
                    }
                    None => reached.modules.push((module, vec![other.name.to_string()])),
                }
            }
        }
        reached.closed.sort();
        reached.closed.dedup();
        Ok(reached)
    }
}

/// The names an import binds: its names' local names, or for a module
/// imported whole without names, the last segment of its path.
pub(super) fn bound_names(import: &Import) -> Vec<String> {
    if !import.names.is_empty() {
        return import
            .names
            .iter()
            .map(|n| n.local_name().to_string())
            .collect();
    }
    let last = import
        .module_path
        .trim_matches('"')
        .rsplit(['/', '.', ':'])
        .next()
        .unwrap_or_default()
        .to_string();
    vec![last]
}

pub(super) fn merge(imports: &mut Vec<(String, Vec<String>)>, path: String, names: Vec<String>) {
    match imports.iter_mut().find(|(p, _)| *p == path) {
        Some((_, existing)) => {
            for name in names {
                if !existing.contains(&name) {
                    existing.push(name);
                }
            }
        }
        None => imports.push((path, names)),
    }
}

/// How the target writes `import` of the source: the same text when the
/// module is outside the workspace or the file's module does not change,
/// else the plugin's specifier from the target's module; `None` when the
/// import names the target's own module.
pub(super) fn respecified(
    analysis: &Analysis,
    source: &FileEntry,
    import: &Import,
    modules: &Modules,
) -> Option<String> {
    let (Some(importer), Some(target_module)) = (&modules.source, &modules.target) else {
        return Some(import.module_path.clone());
    };
    let resolved =
        analysis
            .table()
            .resolve_import(source, importer, &import.module_path, analysis.snapshot());
    let Some(module) = resolved
        .iter()
        .find(|m| analysis.snapshot().modules.contains_key(*m))
    else {
        return Some(import.module_path.clone());
    };
    if *module == target_module.path {
        return None;
    }
    if modules.same {
        return Some(import.module_path.clone());
    }
    let identity = module_identity(analysis, module).unwrap_or_else(|| ModuleIdentity {
        path: module.clone(),
        crate_or_package: importer.crate_or_package.clone(),
    });
    source
        .plugin
        .import_specifier(target_module, &identity, &analysis.snapshot().manifests)
        .ok()
        .or_else(|| Some(import.module_path.clone()))
}

/// The identity a workspace module's files state for it.
pub(crate) fn module_identity(analysis: &Analysis, module: &str) -> Option<ModuleIdentity> {
    let paths = analysis.snapshot().modules.get(module)?;
    paths.iter().find_map(|path| {
        let file = analysis.snapshot().file(path)?;
        let facts = file.facts().ok()?;
        facts.modules.iter().find(|m| m.path == module).cloned()
    })
}

/// `text` with an import of `names` from `module_path` added by the plugin.
pub(super) fn add_import(
    plugin: &dyn LanguagePlugin,
    path: &str,
    text: &str,
    module_path: &str,
    names: &[String],
) -> Result<String, PluginError> {
    let edits = plugin.render_import(path, text, module_path, names)?;
    edit::apply_bytes(text, &edits).map_err(|e| PluginError::Failed {
        plugin: plugin.info().name.clone(),
        reason: format!("`render-import` answered edits that do not fit: {e}"),
    })
}
