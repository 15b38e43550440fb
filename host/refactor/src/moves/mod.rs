//! `move` of a declaration to another file (and `move_type_to_file`): the
//! declaration with its doc comments and attributes taken out of its file
//! (the plugin's `declaration-extent`), written into the target
//! (`place-declaration`), the imports it uses copied along, and, when the
//! move changes module, every file that used it importing it from its new
//! home. What differs between languages comes from the plugins and their
//! policy's module layout; nothing here names a language.

use std::collections::BTreeMap;

use super::RefactorError;
use super::edit;
use super::plan::{
    self, DocumentChange, DocumentId, FileOperation, Plan, TextDocumentEdit, Warning, warning,
};
use crate::reanalyse::reanalyse;
use lingo_analysis::Analysis;
use lingo_index::FileEntry;
use lingo_model::{ModuleIdentity, ModuleLayout, Span, Symbol, SymbolKind, Visibility};

mod declaration;
mod modules;
mod needs;
mod target;
mod users;

pub use declaration::kind_name;
pub(super) use needs::module_identity;
pub(super) use users::module_path_span;

use declaration::{
    at_module_level, check_collision, check_movable, extent, find_declaration, not_moveable,
    plugin_refusal, qualified_name,
};
use modules::Modules;
use needs::{Needs, add_import, module_binding};
use target::Target;
use users::{Users, rewrite_users};

/// Which declaration to move.
#[derive(Debug, Clone)]
pub enum MoveSource {
    /// By name (simple or qualified), with a 1-based line when the name
    /// alone is ambiguous (roslyn-move-contracts.md).
    Named {
        path: String,
        name: String,
        line: Option<u32>,
    },
    /// The declaration at a zero-based position (typemill-api.md).
    At {
        path: String,
        line: u32,
        character: u32,
    },
}

impl MoveSource {
    fn path(&self) -> &str {
        match self {
            MoveSource::Named { path, .. } | MoveSource::At { path, .. } => path,
        }
    }
}

/// A move to plan.
#[derive(Debug, Clone)]
pub struct MoveRequest {
    pub source: MoveSource,
    /// Workspace-relative (or absolute, inside the root) target file.
    pub target_file: String,
    /// Create the target when it does not exist.
    pub create_target_file: bool,
    /// Only types move (`move_type_to_file`).
    pub types_only: bool,
    /// The module the declaration joins, as a user of the language writes
    /// it (`App.Services`, `crate::shapes`, `./shapes`). Where the text
    /// declares modules (namespaces) it may be new, and the target file
    /// defaults to the source file; where paths make modules it names an
    /// existing module, whose file is the target when none is given.
    pub target_module: Option<String>,
    /// With a new namespace and no target file: move to the folder that
    /// mirrors the namespace, as the source's folder mirrors its old one
    /// (`updateFileLocation`).
    pub follow_namespace_folder: bool,
    /// Names of other declarations of the source file that follow this one
    /// to the same place (a consolidation): what the moved text uses of
    /// them needs no import and is no reason to refuse.
    pub moving_along: Vec<String>,
}

/// Where a declaration is, 1-based.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    pub path: String,
    pub line: u32,
    pub column: u32,
}

/// The moved declaration, for the Roslyn-shaped answer.
#[derive(Debug, Clone)]
pub struct Moved {
    pub name: String,
    pub qualified_name: String,
    pub kind: SymbolKind,
    pub previous: Location,
    pub new: Location,
    /// Uses whose file now imports the declaration from its new home.
    pub references_updated: usize,
    pub imports_added: usize,
    pub imports_removed: usize,
    pub created: bool,
    /// The source file, when the move left it without declarations and
    /// deletes it.
    pub deleted: Option<String>,
    /// The module it was in, and the one it is in after the move.
    pub previous_module: Option<String>,
    pub new_module: Option<String>,
}

/// A planned move.
#[derive(Debug, Clone)]
pub struct MoveOutcome {
    pub plan: Plan,
    pub moved: Moved,
}

/// Kinds `move_type_to_file` accepts.
const TYPE_KINDS: &[SymbolKind] = &[
    SymbolKind::Class,
    SymbolKind::Struct,
    SymbolKind::Interface,
    SymbolKind::Enum,
];

/// Kinds of containers a movable declaration may sit in.
const MODULE_KINDS: &[SymbolKind] = &[
    SymbolKind::Module,
    SymbolKind::Namespace,
    SymbolKind::Package,
    SymbolKind::File,
];

/// Plan the move `request` asks for on `analysis`'s snapshot.
pub fn plan_move(analysis: &Analysis, request: &MoveRequest) -> Result<MoveOutcome, RefactorError> {
    let source = analysis.file(request.source.path())?;
    super::rename::check_editable(&source)?;
    let facts = source.facts()?;
    let index = find_declaration(&source, facts, &request.source)?;
    let symbol = &facts.symbols[index];
    check_movable(facts, index, request.types_only)?;
    let plugin = source.plugin.clone();
    let layout = plugin.info().policy.module_layout;
    if layout == ModuleLayout::Unstated {
        return Err(not_moveable(
            symbol,
            format!(
                "the {} plugin (ABI {}) cannot move declarations",
                plugin.info().name,
                plugin.info().abi_version
            ),
        ));
    }
    let target = Target::open(analysis, &source, symbol, request, layout)?;
    let modules = Modules::of(analysis, &source, index, &target, request, layout)?;
    check_collision(analysis, &source, symbol, &target, &modules, layout)?;
    let same_file = target.path == source.path;

    // The declaration out of its file, and into the target (the source
    // without it, when the move only changes its namespace).
    let (from, to) = extent(&*plugin, &source, symbol)?;
    let mut source_text = source.source().to_string();
    source_text.replace_range(from..to, "");
    let target_base: &str = if same_file {
        &source_text
    } else {
        &target.text
    };
    // What the declaration uses, imported where it goes.
    let needs = Needs::of(
        analysis,
        &source,
        symbol,
        (from, to),
        (&modules, layout, &request.moving_along),
        same_file,
    )?;
    let module_argument = if modules.same {
        ""
    } else {
        modules.target.as_ref().map_or("", |m| m.path.as_str())
    };
    // Where an import binds a module rather than names (Go), what the
    // declaration names bare from its old module is written through it.
    let (placed_source, placed_span) = qualified_source(
        analysis,
        &source,
        symbol,
        &needs,
        (&target.path, target_base, module_argument),
    )?;
    let placed = plugin
        .place_declaration(
            (&source.path, &placed_source),
            &placed_span,
            (&target.path, target_base),
            module_argument,
        )
        .map_err(|e| plugin_refusal(symbol, e))?;
    let mut target_text = edit::apply_bytes(target_base, &placed).map_err(|e| {
        not_moveable(
            symbol,
            format!("`place-declaration` answered edits that do not fit: {e}"),
        )
    })?;
    let mut counts = Counts::default();
    let mut warnings = Vec::new();

    for (module_path, names) in &needs.imports {
        target_text = add_import(&*plugin, &target.path, &target_text, module_path, names)
            .map_err(|e| plugin_refusal(symbol, e))?;
        counts.added += 1;
    }
    if !needs.aliases.is_empty() {
        warnings.push(Warning {
            code: warning::POTENTIAL_BEHAVIOR_CHANGE.into(),
            message: format!(
                "{} names the declaration uses are imported under another name; the target imports them by their own name",
                needs.aliases.len()
            ),
            sites: needs.aliases.clone(),
        });
    }

    // A public declaration of a package's root module (what code outside
    // the package reaches by the package's name: a Rust crate's root, a Go
    // module's root package) stays reachable by its old path.
    let mut reexported = false;
    if !modules.same
        && !same_file
        && symbol.visibility == Visibility::Public
        && let (Some(old_module), Some(new_module)) = (&modules.source, &modules.target)
        && old_module.crate_or_package.as_deref() == Some(old_module.path.as_str())
    {
        let kept = keep_old_path(
            analysis,
            &*plugin,
            symbol,
            (&source.path, &source_text),
            (old_module, new_module),
            &mut warnings,
        )?;
        if let Some(text) = kept {
            source_text = text;
            reexported = true;
        }
    }

    // The files that used it, when its module changes.
    let mut texts: BTreeMap<String, String> = BTreeMap::new();
    texts.insert(source.path.clone(), source_text);
    texts.insert(target.path.clone(), target_text);
    if !modules.same {
        let mut users = Users::of(
            analysis,
            &source,
            symbol,
            (from, to),
            modules.source.as_ref(),
            (!request.moving_along.is_empty()).then_some(target.path.as_str()),
        )?;
        if reexported {
            // The old path still reaches it: other files' uses stay as they
            // are (a path rewritten into the new module could cross a
            // boundary the old one did not, such as a private module seen
            // from another crate).
            users
                .files
                .retain(|path, _| *path == source.path || *path == target.path);
            users.uncertain.clear();
        }
        if !plugin.info().policy.cyclic_imports {
            refuse_import_cycle(analysis, &target.path, &modules, &needs, &users)?;
        }
        let moved = users::Moved {
            path: &source.path,
            from,
            to,
        };
        let not_rewritten = rewrite_users(
            analysis,
            &*plugin,
            symbol,
            (&modules, moved),
            &users,
            &mut texts,
            &mut counts,
        )?;
        warnings.extend(users.warnings(&symbol.name, &not_rewritten));
    }

    // A new file is a module once the file that may declare it does.
    if let Some(parent) = &target.declared_by {
        let base = match texts.get(parent) {
            Some(text) => text.clone(),
            None => analysis.file(parent)?.source().to_string(),
        };
        let edits = plugin
            .declare_module((parent, &base), &target.path)
            .map_err(|e| plugin_refusal(symbol, e))?;
        let declared = edit::apply_bytes(&base, &edits).map_err(|e| {
            not_moveable(
                symbol,
                format!("`declare-module` answered edits that do not fit: {e}"),
            )
        })?;
        texts.insert(parent.clone(), declared);
    }

    // Nothing may parse worse than before. A file the move empties of
    // declarations is deleted where the text declares modules (where paths
    // make them, the file is a module and stays).
    let mut new_location = None;
    let mut emptied = None;
    for (path, text) in &texts {
        let before = match analysis.snapshot().file(path) {
            Some(file) => file.facts()?.syntax_errors(),
            None => 0,
        };
        let reparsed = reanalyse(&*plugin, path, text, analysis.snapshot())
            .map_err(|e| plugin_refusal(symbol, e))?;
        if *path == target.path {
            new_location = reparsed
                .symbols
                .iter()
                .find(|s| s.name == symbol.name && at_module_level(&reparsed, s))
                .map(|s| Location {
                    path: path.clone(),
                    line: s.name_span.start.line + 1,
                    column: s.name_span.start.character + 1,
                });
        }
        let in_import = |span: &Span| {
            reparsed.imports.iter().any(|i| {
                i.span.start.offset <= span.start.offset && span.end.offset <= i.span.end.offset
            })
        };
        let declares_nothing = !reparsed
            .symbols
            .iter()
            .any(|s| !MODULE_KINDS.contains(&s.kind))
            && reparsed.references.iter().all(|r| in_import(&r.span));
        if *path == source.path && !same_file && declares_nothing && !layout.follows_paths() {
            emptied = Some(path.clone());
        }
        let after = reparsed.syntax_errors();
        if after > before {
            return Err(RefactorError::BreaksSyntax {
                path: path.clone(),
                before,
                after,
            });
        }
    }

    let Some(new_location) = new_location else {
        return Err(not_moveable(
            symbol,
            format!(
                "its plugin does not find `{}` in `{}` after placing it there",
                symbol.name, target.path
            ),
        ));
    };
    let mut changes = Vec::new();
    let mut checksums = BTreeMap::new();
    for (path, text) in &texts {
        if *path == target.path && target.created {
            changes.push(DocumentChange::File(FileOperation::Create {
                uri: path.clone(),
                text: Some(text.clone()),
            }));
            continue;
        }
        let file = analysis.file(path)?;
        checksums.insert(path.clone(), plan::checksum(&file.sha256));
        if emptied.as_ref() == Some(path) {
            changes.push(DocumentChange::File(FileOperation::Delete {
                uri: path.clone(),
            }));
            continue;
        }
        if let Some(edit) = edit::difference(&file.source(), text) {
            changes.push(DocumentChange::Edit(TextDocumentEdit {
                text_document: DocumentId {
                    uri: path.clone(),
                    version: None,
                },
                edits: vec![edit],
            }));
        }
    }
    let kind = match (request.types_only, &request.target_module) {
        (true, Some(_)) => "move.type_to_namespace",
        (true, None) => "move.type_to_file",
        (false, Some(_)) => "move.to_module",
        (false, None) => "move.symbol",
    };
    let plan = Plan::new(
        "MovePlan",
        kind.to_string(),
        facts.language.clone(),
        analysis.generation(),
        changes,
        warnings,
        checksums,
        None,
    );
    Ok(MoveOutcome {
        plan,
        moved: Moved {
            name: symbol.name.to_string(),
            qualified_name: qualified_name(facts, index),
            kind: symbol.kind,
            previous: Location {
                path: source.path.clone(),
                line: symbol.name_span.start.line + 1,
                column: symbol.name_span.start.character + 1,
            },
            new: new_location,
            references_updated: counts.references,
            imports_added: counts.added,
            imports_removed: counts.removed,
            created: target.created,
            deleted: emptied,
            previous_module: modules.source.as_ref().map(|m| m.path.clone()),
            new_module: modules.target.as_ref().map(|m| m.path.clone()),
        },
    })
}

/// Imports added and removed, and uses updated.
#[derive(Default)]
struct Counts {
    added: usize,
    removed: usize,
    references: usize,
}

/// `source` (path, text without the moved declaration) with a public
/// re-export of `symbol` from `new_module`, so that code reaching it by
/// `old_module`'s path keeps working. Where the plugin renders no
/// re-export, `None` and a warning naming the path that breaks (applying
/// then needs `force`).
fn keep_old_path(
    analysis: &Analysis,
    plugin: &dyn lingo_runtime::LanguagePlugin,
    symbol: &Symbol,
    (path, text): (&str, &str),
    (old_module, new_module): (&ModuleIdentity, &ModuleIdentity),
    warnings: &mut Vec<Warning>,
) -> Result<Option<String>, RefactorError> {
    let specifier = plugin
        .import_specifier(old_module, new_module, &analysis.snapshot().manifests)
        .map_err(|e| plugin_refusal(symbol, e))?;
    let names = [symbol.name.to_string()];
    match plugin.render_reexport(path, text, &specifier, &names) {
        Ok(edits) => edit::apply_bytes(text, &edits).map(Some).map_err(|e| {
            not_moveable(
                symbol,
                format!("`render-reexport` answered edits that do not fit: {e}"),
            )
        }),
        Err(lingo_runtime::PluginError::Unsupported { .. }) => {
            let separator = &plugin.info().path_separator;
            let old_path = if old_module.path.is_empty() {
                symbol.name.to_string()
            } else {
                format!("{}{separator}{}", old_module.path, symbol.name)
            };
            warnings.push(Warning::listed(
                warning::POTENTIAL_BEHAVIOR_CHANGE,
                format!(
                    "`{}` is public: code outside the workspace that names it `{old_path}` breaks, and the {} plugin writes no re-export; apply with `force`",
                    symbol.name,
                    plugin.info().name
                ),
                [old_path],
            ));
            Ok(None)
        }
        Err(error) => Err(plugin_refusal(symbol, error)),
    }
}

/// The source text the declaration is placed from, and its span there:
/// the file's own, or, where the target imports a module of the old
/// declaration's uses by a name bound to the module (Go's package name),
/// with each such use inside the declaration written through that name.
fn qualified_source(
    analysis: &Analysis,
    source: &FileEntry,
    symbol: &Symbol,
    needs: &Needs,
    (target_path, target_text, target_module): (&str, &str, &str),
) -> Result<(String, Span), RefactorError> {
    let text = source.source().to_string();
    if needs.reached_by_name.is_empty() {
        return Ok((text, symbol.span));
    }
    let plugin = &*source.plugin;
    // How the target imports a module is asked of the target as the
    // placement leaves it (a new file gets its package clause there).
    let placed = plugin
        .place_declaration(
            (&source.path, &source.source()),
            &symbol.span,
            (target_path, target_text),
            target_module,
        )
        .map_err(|e| plugin_refusal(symbol, e))?;
    let trial = edit::apply_bytes(target_text, &placed).map_err(|e| {
        not_moveable(
            symbol,
            format!("`place-declaration` answered edits that do not fit: {e}"),
        )
    })?;
    let target = (target_path, trial.as_str());
    let separator = plugin.info().path_separator.clone();
    let mut bindings: BTreeMap<&str, Option<String>> = BTreeMap::new();
    let mut inserts: Vec<(usize, String)> = Vec::new();
    let (start, end) = (
        symbol.span.start.offset as usize,
        symbol.span.end.offset as usize,
    );
    for (offset, specifier) in &needs.reached_by_name {
        if *offset < start || *offset >= end {
            continue;
        }
        let binding = match bindings.get(specifier.as_str()) {
            Some(known) => known.clone(),
            None => {
                let names: Vec<String> = needs
                    .imports
                    .iter()
                    .find(|(path, _)| path == specifier)
                    .map(|(_, names)| names.clone())
                    .unwrap_or_default();
                let found = module_binding(plugin, target, specifier, &names, analysis.snapshot())
                    .map_err(|e| plugin_refusal(symbol, e))?;
                bindings.insert(specifier, found.clone());
                found
            }
        };
        if let Some(binding) = binding {
            inserts.push((*offset, format!("{binding}{separator}")));
        }
    }
    if inserts.is_empty() {
        return Ok((text, symbol.span));
    }
    inserts.sort_by_key(|(offset, _)| std::cmp::Reverse(*offset));
    let mut qualified = text;
    let mut grown = 0;
    for (offset, prefix) in &inserts {
        qualified.insert_str(*offset, prefix);
        grown += prefix.len();
    }
    let new_end = end + grown;
    let lines = edit::LineIndex::new(&qualified);
    let end_point = lines.position(new_end);
    let mut span = symbol.span;
    span.end = lingo_model::Position {
        line: end_point.line,
        character: end_point.character,
        offset: new_end as u32,
    };
    Ok((qualified, span))
}

/// Refuse a move that makes the module it leaves and the one it joins
/// import each other, where the language refuses an import cycle: the new
/// module imports the old one (the moved text uses it, or a file of the
/// new module already does) while the old one imports the new (a file of
/// the old module uses the declaration, or already imports the new module).
fn refuse_import_cycle(
    analysis: &Analysis,
    target_path: &str,
    modules: &Modules,
    needs: &Needs,
    users: &Users,
) -> Result<(), RefactorError> {
    let (Some(old), Some(new)) = (&modules.source, &modules.target) else {
        return Ok(());
    };
    let new_imports_old = !needs.reached_by_name.is_empty()
        || needs.uses_old_module
        || module_imports(analysis, &new.path, &old.path);
    let old_imports_new = module_imports(analysis, &old.path, &new.path)
        || users.files.iter().any(|(path, uses)| {
            let in_old = analysis
                .snapshot()
                .file(path)
                .and_then(|f| f.facts().ok().and_then(|f| f.modules.first().cloned()))
                .is_some_and(|m| m.path == old.path);
            in_old && (!uses.bare.is_empty() || !uses.qualified.is_empty())
        });
    if new_imports_old && old_imports_new {
        return Err(RefactorError::InvalidTargetPath {
            path: target_path.to_string(),
            reason: format!(
                "`{}` and `{}` would import each other, and the language refuses an import cycle; move what the declaration uses along with it, or its users",
                old.path, new.path
            ),
        });
    }
    Ok(())
}

/// Whether a file of module `from` imports module `to` now.
fn module_imports(analysis: &Analysis, from: &str, to: &str) -> bool {
    let snapshot = analysis.snapshot();
    snapshot
        .modules
        .get(from)
        .into_iter()
        .flatten()
        .any(|path| {
            let Some(file) = snapshot.file(path) else {
                return false;
            };
            let Ok(facts) = file.facts() else {
                return false;
            };
            let Some(importer) = facts.modules.first() else {
                return false;
            };
            facts.imports.iter().any(|import| {
                analysis
                    .table()
                    .resolve_import(file, importer, &import.module_path, snapshot)
                    .iter()
                    .any(|m| m == to)
            })
        })
}
