//! `move` of a declaration to another file (and `move_type_to_file`): the
//! declaration with its doc comments and attributes taken out of its file
//! (the plugin's `declaration-extent`), written into the target
//! (`place-declaration`), the imports it uses copied along, and, when the
//! move changes module, every file that used it importing it from its new
//! home. What differs between languages comes from the plugins and their
//! policy's module layout; nothing here names a language.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::path::Path;
use std::sync::Arc;

use super::RefactorError;
use super::edit;
use super::plan::{
    self, DocumentChange, DocumentId, FileOperation, Plan, TextDocumentEdit, Warning, warning,
};
use crate::analysis::Analysis;
use crate::model::{
    FileFacts, Import, ImportKind, ModuleIdentity, ModuleLayout, Span, Symbol, SymbolKind,
    Visibility,
};
use crate::resolve::{Resolution, Target as Resolved};
use crate::runtime::{LanguagePlugin, PluginError};
use crate::workspace::FileEntry;

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
        rewrite_users(
            analysis,
            &*plugin,
            symbol,
            &modules,
            &users,
            &mut texts,
            &mut counts,
        )?;
        warnings.extend(users.warnings(&symbol.name));
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

/// The declaration `source` names in `facts`.
fn find_declaration(
    file: &FileEntry,
    facts: &FileFacts,
    source: &MoveSource,
) -> Result<usize, RefactorError> {
    let lines = file.source.lines().count().max(1) as u32;
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
                    nearby: crate::error::similar(
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
fn normalized(name: &str) -> String {
    name.split(['.', ':'])
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(".")
}

/// `A.B.Name`: the names of the declaration's containers, then its own.
fn qualified_name(facts: &FileFacts, index: usize) -> String {
    let mut parts = vec![facts.symbols[index].name.clone()];
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
fn check_movable(facts: &FileFacts, index: usize, types_only: bool) -> Result<(), RefactorError> {
    let symbol = &facts.symbols[index];
    let container = symbol
        .container
        .and_then(|c| facts.symbols.get(c as usize))
        .filter(|c| !MODULE_KINDS.contains(&c.kind));
    let is_type = TYPE_KINDS.contains(&symbol.kind);
    if let Some(container) = container {
        let owner = symbol
            .container_name
            .clone()
            .unwrap_or_else(|| container.name.clone());
        if is_type {
            return Err(RefactorError::Nested {
                name: symbol.name.clone(),
                container: owner,
            });
        }
        return Err(RefactorError::NotMoveable {
            name: symbol.name.clone(),
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

fn not_moveable(symbol: &Symbol, reason: String) -> RefactorError {
    RefactorError::NotMoveable {
        name: symbol.name.clone(),
        kind: kind_name(symbol.kind),
        reason,
        container: None,
    }
}

/// A plugin's refusal, as the move's error.
fn plugin_refusal(symbol: &Symbol, error: PluginError) -> RefactorError {
    not_moveable(symbol, error.to_string())
}

/// `Class`, `Function`...: the LSP kind's name.
pub fn kind_name(kind: SymbolKind) -> String {
    format!("{kind:?}")
}

/// The file a declaration moves into.
struct Target {
    path: String,
    /// Its text now (empty for a file the move creates).
    text: Arc<str>,
    created: bool,
    entry: Option<Arc<FileEntry>>,
}

impl Target {
    fn open(
        analysis: &Analysis,
        source: &FileEntry,
        symbol: &Symbol,
        request: &MoveRequest,
        layout: ModuleLayout,
    ) -> Result<Target, RefactorError> {
        let root = analysis.workspace().root();
        let requested = request.target_file.trim();
        let path = match (&request.target_module, requested.is_empty()) {
            (Some(module), true) if request.follow_namespace_folder && !layout.follows_paths() => {
                namespace_folder_file(source, symbol, module)?
            }
            (Some(_), true) if !layout.follows_paths() => source.path.clone(),
            (Some(module), true) => module_file(analysis, source, module)?,
            _ => crate::workspace::paths::resolve(root, requested)?,
        };
        let invalid = |reason: String| RefactorError::InvalidTargetPath {
            path: path.clone(),
            reason,
        };
        if path.is_empty() || path.ends_with('/') {
            return Err(invalid("it names no file".into()));
        }
        // Staying in the file is a move only when it changes namespace,
        // which `Modules::of` checks.
        if path == source.path && request.target_module.is_none() {
            return Err(RefactorError::SameLocation {
                name: symbol.name.clone(),
                path,
            });
        }
        let same_plugin = analysis
            .workspace()
            .registry()
            .for_path(Path::new(&path))
            .is_some_and(|p| p.info().name == source.plugin.info().name);
        if !same_plugin {
            return Err(invalid(format!(
                "it is not a file of the {} plugin's languages (extensions: {})",
                source.plugin.info().name,
                source.plugin.info().extensions.join(", ")
            )));
        }
        if let Some(entry) = analysis.snapshot().file(&path) {
            if path != source.path {
                super::rename::check_editable(entry)?;
            }
            return Ok(Target {
                path,
                text: entry.source.clone(),
                created: false,
                entry: Some(entry.clone()),
            });
        }
        if root.join(&path).exists() {
            return Err(invalid(
                "it exists but is not indexed (ignored, skipped or not a file)".into(),
            ));
        }
        if !request.create_target_file {
            return Err(invalid(
                "it does not exist and `createTargetFile` is false".into(),
            ));
        }
        if layout == ModuleLayout::DeclaredFilePerModule {
            return Err(invalid(
                "a new file of this language becomes a module only once another file declares it (`mod`); declare it first, then move into it".into(),
            ));
        }
        Ok(Target {
            path,
            text: Arc::from(""),
            created: true,
            entry: None,
        })
    }
}

/// The file of `module` (as the source file would import it) where paths
/// make modules: its only file, else the one named like the source file,
/// else its first.
fn module_file(
    analysis: &Analysis,
    source: &FileEntry,
    module: &str,
) -> Result<String, RefactorError> {
    let snapshot = analysis.snapshot();
    let facts = source.facts()?;
    let resolved = match facts.modules.first() {
        Some(importer) => {
            analysis
                .table()
                .resolve_import(source, importer, module.trim(), snapshot)
        }
        None => Arc::new(Vec::new()),
    };
    let Some(files) = resolved
        .iter()
        .chain(std::iter::once(&module.trim().to_string()))
        .find_map(|m| snapshot.modules.get(m))
    else {
        let mut reason = "no module of the workspace answers to it".to_string();
        let nearby = crate::error::similar(module, snapshot.modules.keys().map(String::as_str), 3);
        if !nearby.is_empty() {
            reason.push_str(&format!(" (did you mean {}?)", nearby.join(", ")));
        }
        return Err(RefactorError::InvalidTargetPath {
            path: module.to_string(),
            reason,
        });
    };
    let own_name = Path::new(&source.path).file_name();
    let mut files: Vec<&String> = files.iter().collect();
    files.sort();
    files
        .iter()
        .find(|f| files.len() == 1 || Path::new(f.as_str()).file_name() == own_name)
        .or(files.first())
        .map(|f| f.to_string())
        .ok_or_else(|| RefactorError::InvalidTargetPath {
            path: module.to_string(),
            reason: "the module has no file".into(),
        })
}

/// Where a declaration moving to namespace `module` goes when folders
/// mirror namespaces: the source folder with the old namespace's last parts
/// replaced by the new one's, and the source's file name when the
/// declaration is all the file declares, else the declaration's name.
fn namespace_folder_file(
    source: &FileEntry,
    symbol: &Symbol,
    module: &str,
) -> Result<String, RefactorError> {
    let facts = source.facts()?;
    let index = facts
        .symbols
        .iter()
        .position(|s| s.span == symbol.span)
        .unwrap_or_default();
    let old = declared_module(facts, index)
        .map(|m| m.path)
        .unwrap_or_default();
    let new = namespace_name(module)?;
    let old_parts: Vec<&str> = old.split('.').filter(|p| !p.is_empty()).collect();
    let new_parts: Vec<&str> = new.split('.').collect();
    let common = old_parts
        .iter()
        .zip(&new_parts)
        .take_while(|(a, b)| a == b)
        .count();
    let path = Path::new(&source.path);
    let folder: Vec<&str> = path
        .parent()
        .map(|p| p.iter().filter_map(|c| c.to_str()).collect())
        .unwrap_or_default();
    let old_tail = &old_parts[common..];
    if !folder.ends_with(old_tail) {
        return Err(RefactorError::InvalidTargetPath {
            path: source.path.clone(),
            reason: format!(
                "its folder does not mirror its namespace `{old}` (it does not end in `{}`), so the folder of `{new}` is unknown; give a target file instead",
                old_tail.join("/")
            ),
        });
    }
    let mut parts: Vec<&str> = folder[..folder.len() - old_tail.len()].to_vec();
    parts.extend(&new_parts[common..]);
    let alone = facts
        .symbols
        .iter()
        .filter(|s| !MODULE_KINDS.contains(&s.kind) && at_module_level(facts, s))
        .count()
        == 1;
    let file_name = if alone {
        path.file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_string()
    } else {
        let extension = path
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or_default();
        format!("{}.{extension}", symbol.name)
    };
    parts.push(&file_name);
    Ok(parts.join("/"))
}

/// The modules the declaration leaves and joins.
struct Modules {
    source: Option<ModuleIdentity>,
    target: Option<ModuleIdentity>,
    /// Whether the move keeps the declaration in its module.
    same: bool,
}

impl Modules {
    fn of(
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
                    path: namespace_name(name)?,
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
                    name: facts.symbols[index].name.clone(),
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
            None => source
                .plugin
                .analyze(&target.path, "", &analysis.snapshot().manifests)
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
                name: facts.symbols[index].name.clone(),
                path: target.path.clone(),
            });
        }
        if !same && layout == ModuleLayout::FolderPerModule {
            return Err(RefactorError::InvalidTargetPath {
                path: target.path.clone(),
                reason: "it is in another package: uses of the declaration would have to be qualified with the package's name, which lingo does not rewrite yet; move it to a file of the same folder".into(),
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
fn declared_module(facts: &FileFacts, index: usize) -> Option<ModuleIdentity> {
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
/// by `.` (or `::`), normalized to `.`.
fn namespace_name(name: &str) -> Result<String, RefactorError> {
    let invalid = |reason: &str| RefactorError::InvalidNamespace {
        namespace: name.to_string(),
        reason: reason.to_string(),
    };
    let trimmed = name.trim();
    if trimmed.is_empty() {
        return Err(invalid("it is empty"));
    }
    let segments: Vec<&str> = if trimmed.contains("::") {
        trimmed.split("::").collect()
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

/// Whether a declaration is at module level (no container, or a module).
fn at_module_level(facts: &FileFacts, symbol: &Symbol) -> bool {
    symbol
        .container
        .and_then(|c| facts.symbols.get(c as usize))
        .is_none_or(|c| MODULE_KINDS.contains(&c.kind))
}

/// Refuse a target that already declares the name at module level (in the
/// target namespace, where the text declares namespaces).
fn check_collision(
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
    let mut existing = Vec::new();
    for file in &files {
        let Ok(facts) = file.facts() else { continue };
        for (index, other) in facts.symbols.iter().enumerate() {
            let itself = file.path == source.path && other.span == symbol.span;
            if other.name == symbol.name
                && !itself
                && at_module_level(facts, other)
                && !MODULE_KINDS.contains(&other.kind)
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
        name: symbol.name.clone(),
        target: target.path.clone(),
        existing,
    })
}

/// The byte range the move takes out of the source, checked.
fn extent(
    plugin: &dyn LanguagePlugin,
    source: &FileEntry,
    symbol: &Symbol,
) -> Result<(usize, usize), RefactorError> {
    let (from, to) = plugin
        .declaration_extent(&source.path, &source.source, &symbol.span)
        .map_err(|e| plugin_refusal(symbol, e))?;
    let (from, to) = (from as usize, to as usize);
    let text = &source.source;
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

/// What the moved text uses from its old surroundings.
struct Needs {
    /// Module path as the target writes it -> names (empty: the module
    /// itself, or every name of it).
    imports: Vec<(String, Vec<String>)>,
    /// Imports used under an alias (`path:line`).
    aliases: Vec<String>,
}

impl Needs {
    fn of(
        analysis: &Analysis,
        source: &Arc<FileEntry>,
        symbol: &Symbol,
        (from, to): (usize, usize),
        modules: &Modules,
        layout: ModuleLayout,
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
                    let wanted: Vec<&crate::model::ImportedName> = import
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
            let needed = Reached::of(analysis, source, facts, (from, to), old_module, layout)?;
            // Namespaces do not hide names; modules made of paths do.
            if layout.follows_paths() && !needed.closed.is_empty() {
                return Err(RefactorError::BreaksAccessibility {
                    name: symbol.name.clone(),
                    target: new_module.path.clone(),
                    needed: needed.closed,
                });
            }
            for (module, names) in needed.modules {
                if module.path == new_module.path || module.path.is_empty() {
                    continue;
                }
                let specifier = source
                    .plugin
                    .import_specifier(new_module, &module, &analysis.snapshot().manifests)
                    .map_err(|e| plugin_refusal(symbol, e))?;
                // A namespace is imported whole, a module by its names.
                let names = if layout.follows_paths() {
                    names
                } else {
                    Vec::new()
                };
                merge(&mut imports, specifier, names);
            }
        }
        Ok(Needs { imports, aliases })
    }
}

/// What the moved text reaches in its old module without an import (and,
/// where the text declares namespaces, in the namespaces around it).
struct Reached {
    /// Module -> names used from it, in order of first use.
    modules: Vec<(ModuleIdentity, Vec<String>)>,
    /// `name (path:line)` of each private one.
    closed: Vec<String>,
}

impl Reached {
    fn of(
        analysis: &Analysis,
        source: &Arc<FileEntry>,
        facts: &FileFacts,
        (from, to): (usize, usize),
        old_module: &ModuleIdentity,
        layout: ModuleLayout,
    ) -> Result<Reached, RefactorError> {
        let inside = |span: &Span| {
            let start = span.start.offset as usize;
            from <= start && start < to
        };
        let resolver = analysis.resolver();
        let mut reached = Reached {
            modules: Vec::new(),
            closed: Vec::new(),
        };
        let mut seen: HashSet<(String, usize)> = HashSet::new();
        for reference in facts.references.iter().filter(|r| inside(&r.span)) {
            for definition in resolver.resolve(source, reference) {
                let Resolved::Symbol { file, index } = &definition.target else {
                    continue;
                };
                if definition.confidence < 1.0 || !seen.insert((file.path.clone(), *index)) {
                    continue;
                }
                // Where paths make modules, the old module is the file.
                let same_file = file.path == source.path;
                if layout.follows_paths() && !same_file {
                    continue;
                }
                let Ok(other_facts) = file.facts() else {
                    continue;
                };
                let Some(other) = other_facts.symbols.get(*index) else {
                    continue;
                };
                if (same_file && inside(&other.span))
                    || !at_module_level(other_facts, other)
                    || MODULE_KINDS.contains(&other.kind)
                {
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
                        if !names.contains(&other.name) {
                            names.push(other.name.clone());
                        }
                    }
                    None => reached.modules.push((module, vec![other.name.clone()])),
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
fn bound_names(import: &Import) -> Vec<String> {
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

fn merge(imports: &mut Vec<(String, Vec<String>)>, path: String, names: Vec<String>) {
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
fn respecified(
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
pub(super) fn module_identity(analysis: &Analysis, module: &str) -> Option<ModuleIdentity> {
    let paths = analysis.snapshot().modules.get(module)?;
    paths.iter().find_map(|path| {
        let file = analysis.snapshot().file(path)?;
        let facts = file.facts().ok()?;
        facts.modules.iter().find(|m| m.path == module).cloned()
    })
}

/// `text` with an import of `names` from `module_path` added by the plugin.
fn add_import(
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

/// The uses of the moved declaration outside it, by file.
struct Users {
    /// Files with certain uses.
    files: BTreeSet<String>,
    /// Uses written as a qualified path, which a move does not rewrite.
    qualified: Vec<String>,
    /// Uses resolved by name only, and same-named uses nothing resolved.
    uncertain: Vec<String>,
}

impl Users {
    fn of(
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

    fn warnings(&self, name: &str) -> Vec<Warning> {
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
fn rewrite_users(
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
pub(super) fn module_path_span(source: &str, import: &Import) -> Option<(usize, usize)> {
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
fn imports_of<'f>(
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
