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
use crate::analysis::Analysis;
use crate::model::{ModuleLayout, Span, SymbolKind};

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
use needs::{Needs, add_import};
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
    let mut source_text = source.source.to_string();
    source_text.replace_range(from..to, "");
    let target_base: &str = if same_file {
        &source_text
    } else {
        &target.text
    };
    let module_argument = if modules.same {
        ""
    } else {
        modules.target.as_ref().map_or("", |m| m.path.as_str())
    };
    let placed = plugin
        .place_declaration(
            (&source.path, &source.source),
            &symbol.span,
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

    // What the declaration uses, imported where it goes.
    let needs = Needs::of(
        analysis,
        &source,
        symbol,
        (from, to),
        &modules,
        layout,
        same_file,
    )?;
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

    // The files that used it, when its module changes.
    let mut texts: BTreeMap<String, String> = BTreeMap::new();
    texts.insert(source.path.clone(), source_text);
    texts.insert(target.path.clone(), target_text);
    if !modules.same {
        let users = Users::of(
            analysis,
            &source,
            symbol,
            (from, to),
            modules.source.as_ref(),
        )?;
        let not_rewritten = rewrite_users(
            analysis,
            &*plugin,
            symbol,
            &modules,
            &users,
            &mut texts,
            &mut counts,
        )?;
        warnings.extend(users.warnings(&symbol.name, &not_rewritten));
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
        let reparsed = plugin
            .analyze(path, text, &analysis.snapshot().manifests)
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
        if let Some(edit) = edit::difference(&file.source, text) {
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
            name: symbol.name.clone(),
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
