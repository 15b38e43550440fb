//! `rename` of a file or a directory: the files moved, and every import
//! that named a module they make respelled for its new path. What a path
//! means comes from the plugin's module layout: where the text declares
//! modules (C# namespaces) nothing else changes; where a file is a module
//! (TypeScript) or a folder is a package (Go), every import of a moved
//! module is rewritten in place with the plugin's `import-specifier`, and
//! the moved files' own imports are respelled from their new folder; where
//! a file is a module that its parent declares (Rust `mod`), the
//! declaration is renamed the way `rename` renames a symbol.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::Arc;

use super::RefactorError;
use super::edit;
use super::plan::{
    self, DocumentChange, DocumentId, FileOperation, Plan, RenameNames, TextDocumentEdit,
};
use super::rename::{RenameKind, RenameRequest, check_editable, plan_rename};
use crate::reanalyse::reanalyse;
use lingo_analysis::{Analysis, FilePosition, Target};
use lingo_index::FileEntry;
use lingo_model::{ModuleIdentity, ModuleLayout, SymbolKind};

/// The longest file or folder name a new path may hold (what file systems
/// allow).
const MAX_NAME: usize = 255;

/// The most files one directory rename moves.
const MAX_FILES: usize = 10_000;

/// A file or directory rename to plan.
#[derive(Debug, Clone)]
pub struct PathRenameRequest {
    /// The file or directory, workspace-relative (or absolute inside it).
    pub from: String,
    /// Its new path; a bare name (no `/`) renames it in its folder.
    pub to: String,
    pub directory: bool,
}

/// One file the rename moves.
struct MovedFile {
    from: String,
    to: String,
    /// Its index entry (files the index does not hold move as they are).
    entry: Option<Arc<FileEntry>>,
}

/// Plan the rename `request` asks for on `analysis`'s snapshot.
pub fn plan_path_rename(
    analysis: &Analysis,
    request: &PathRenameRequest,
) -> Result<Plan, RefactorError> {
    let root = analysis.workspace().root();
    let from = analysis
        .workspace()
        .resolve(request.from.trim())?
        .trim_end_matches('/')
        .to_string();
    let to = new_path(analysis.workspace(), &from, request.to.trim())?;
    if from == to {
        return Err(RefactorError::SameLocation {
            name: from.clone(),
            path: to,
        });
    }
    let invalid = |reason: &str| RefactorError::InvalidTargetPath {
        path: to.clone(),
        reason: reason.to_string(),
    };
    if root.join(&to).symlink_metadata().is_ok() {
        return Err(invalid("it exists"));
    }
    if to.starts_with(&format!("{from}/")) {
        return Err(invalid("a directory cannot move into itself"));
    }
    let moved = if request.directory {
        directory_files(analysis, &from, &to)?
    } else {
        let entry = analysis.file(&from)?;
        vec![MovedFile {
            from: from.clone(),
            to: to.clone(),
            entry: Some(entry),
        }]
    };
    let mut texts: BTreeMap<String, String> = BTreeMap::new();
    let mut warnings = Vec::new();
    let mut checksums = BTreeMap::new();
    let mut language = String::new();

    // Each moved module's identity before and after.
    let mut renamed_modules: HashMap<String, ModuleIdentity> = HashMap::new();
    let mut new_identity: HashMap<String, ModuleIdentity> = HashMap::new();
    let mut declared = Vec::new();
    for file in &moved {
        let Some(entry) = &file.entry else { continue };
        check_editable(entry)?;
        let plugin = &entry.plugin;
        let same_plugin = analysis
            .workspace()
            .registry()
            .for_path(Path::new(&file.to))
            .is_some_and(|p| p.info().name == plugin.info().name);
        if !same_plugin {
            return Err(RefactorError::InvalidTargetPath {
                path: file.to.clone(),
                reason: format!(
                    "it would no longer be a file of the {} plugin's languages (extensions: {})",
                    plugin.info().name,
                    plugin.info().extensions.join(", ")
                ),
            });
        }
        let facts = entry.facts()?;
        if language.is_empty() {
            language = facts.language.clone();
        }
        let layout = plugin.info().policy.module_layout;
        let (Some(old), Some(new)) = (
            facts.modules.first().cloned(),
            module_at(analysis, entry, &file.to)?,
        ) else {
            continue;
        };
        new_identity.insert(file.from.clone(), new.clone());
        if old.path == new.path || !layout.follows_paths() {
            continue;
        }
        match layout {
            ModuleLayout::DeclaredFilePerModule => declared.push((entry.clone(), old, new)),
            _ => {
                renamed_modules.insert(old.path, new);
            }
        }
    }

    // Modules their parents declare: the declaration of the outermost one
    // (a directory's own module; its submodules follow) renamed like a
    // symbol.
    if let Some((entry, old, new)) = declared.iter().min_by_key(|(_, old, _)| old.path.len()) {
        let plan = rename_declaration(analysis, entry, old, new, request.directory)?;
        warnings.extend(plan.warnings.iter().cloned());
        for change in &plan.edits.document_changes {
            if let DocumentChange::Edit(document) = change {
                let path = &document.text_document.uri;
                let file = analysis.file(path)?;
                let text = edit::apply(&file.source(), &document.edits).map_err(|e| {
                    RefactorError::InvalidPlan {
                        field: "plan.edits".into(),
                        reason: format!("{path}: {e}"),
                    }
                })?;
                texts.insert(path.clone(), text);
            }
        }
    }

    // Imports of the moved modules, and the moved files' own imports.
    if !renamed_modules.is_empty() {
        respell_imports(
            analysis,
            &moved,
            &renamed_modules,
            &new_identity,
            &mut texts,
        )?;
    }

    // Nothing may parse worse than before.
    let moved_to: HashMap<&str, &str> = moved
        .iter()
        .map(|m| (m.from.as_str(), m.to.as_str()))
        .collect();
    for (path, text) in &texts {
        let file = analysis.file(path)?;
        let before = file.facts()?.syntax_errors();
        let at = moved_to.get(path.as_str()).copied().unwrap_or(path);
        let after = reanalyse(&*file.plugin, at, text, analysis.snapshot())
            .map_err(|e| RefactorError::NotEditable {
                path: path.clone(),
                reason: e.to_string(),
            })?
            .syntax_errors();
        if after > before {
            return Err(RefactorError::BreaksSyntax {
                path: path.clone(),
                before,
                after,
            });
        }
    }

    let mut changes = Vec::new();
    for file in &moved {
        let sha = match &file.entry {
            Some(entry) => entry.sha256.clone(),
            None => {
                let bytes = std::fs::read(root.join(&file.from)).map_err(|e| {
                    RefactorError::NotEditable {
                        path: file.from.clone(),
                        reason: e.to_string(),
                    }
                })?;
                lingo_index::transaction::sha256_hex(&bytes)
            }
        };
        checksums.insert(file.from.clone(), plan::checksum(&sha));
        changes.push(DocumentChange::File(FileOperation::Rename {
            old_uri: file.from.clone(),
            new_uri: file.to.clone(),
        }));
    }
    for (path, text) in &texts {
        let file = analysis.file(path)?;
        let Some(difference) = edit::difference(&file.source(), text) else {
            continue;
        };
        checksums.insert(path.clone(), plan::checksum(&file.sha256));
        let uri = moved_to.get(path.as_str()).copied().unwrap_or(path);
        changes.push(DocumentChange::Edit(TextDocumentEdit {
            text_document: DocumentId {
                uri: uri.to_string(),
                version: None,
            },
            edits: vec![difference],
        }));
    }
    let kind = if request.directory {
        "rename.directory"
    } else {
        "rename.file"
    };
    Ok(Plan::new(
        "RenamePlan",
        kind.into(),
        language,
        analysis.generation(),
        changes,
        warnings,
        checksums,
        Some(RenameNames { from, to }),
    ))
}

/// The new path: `to` resolved inside the root, or a bare name beside
/// `from`.
fn new_path(
    workspace: &lingo_index::Workspace,
    from: &str,
    to: &str,
) -> Result<String, RefactorError> {
    if to.is_empty() {
        return Err(RefactorError::InvalidTargetPath {
            path: String::new(),
            reason: "the new path is empty".into(),
        });
    }
    if let Some(long) = to.split(['/', '\\']).find(|part| part.len() > MAX_NAME) {
        return Err(RefactorError::InvalidTargetPath {
            path: format!("{}...", long.chars().take(40).collect::<String>()),
            reason: format!("a name in it is longer than {MAX_NAME} bytes"),
        });
    }
    if to.contains('/') || to.contains('\\') || Path::new(to).is_absolute() {
        return Ok(workspace.resolve(to)?.trim_end_matches('/').to_string());
    }
    if to == "." || to == ".." {
        return Err(RefactorError::InvalidTargetPath {
            path: to.to_string(),
            reason: "it names no file".into(),
        });
    }
    let beside = match from.rsplit_once('/') {
        Some((folder, _)) => format!("{folder}/{to}"),
        None => to.to_string(),
    };
    Ok(workspace.resolve(&beside)?)
}

/// Every file under the directory `from`, with its path under `to`: files
/// the index holds, and other files as long as they are text (a rename is
/// applied as text). Symbolic links are refused.
fn directory_files(
    analysis: &Analysis,
    from: &str,
    to: &str,
) -> Result<Vec<MovedFile>, RefactorError> {
    let root = analysis.workspace().root();
    let invalid = |path: &str, reason: String| RefactorError::InvalidTargetPath {
        path: path.to_string(),
        reason,
    };
    let top = root.join(from);
    if !top.is_dir() {
        return Err(invalid(from, "it is not a directory".into()));
    }
    let mut out = Vec::new();
    let mut pending = vec![top];
    // Each directory is read once; the count of files is bounded.
    while let Some(dir) = pending.pop() {
        let entries = std::fs::read_dir(&dir)
            .map_err(|e| invalid(from, format!("{}: {e}", dir.display())))?;
        for entry in entries {
            let entry = entry.map_err(|e| invalid(from, e.to_string()))?;
            let path = entry.path();
            let kind = entry
                .file_type()
                .map_err(|e| invalid(from, e.to_string()))?;
            let relative = path
                .strip_prefix(root)
                .map_err(|_| invalid(from, "a file outside the workspace".into()))?
                .to_string_lossy()
                .replace('\\', "/");
            if kind.is_symlink() {
                return Err(invalid(
                    from,
                    format!("`{relative}` is a symbolic link, which a rename does not move"),
                ));
            }
            if kind.is_dir() {
                pending.push(path);
                continue;
            }
            if out.len() >= MAX_FILES {
                return Err(invalid(
                    from,
                    format!("it holds more than {MAX_FILES} files"),
                ));
            }
            let entry = analysis.snapshot().file(&relative).cloned();
            if entry.is_none() && std::fs::read_to_string(&path).is_err() {
                return Err(invalid(
                    from,
                    format!("`{relative}` is not text, which a rename cannot carry"),
                ));
            }
            let suffix = &relative[from.len()..];
            out.push(MovedFile {
                to: format!("{to}{suffix}"),
                from: relative,
                entry,
            });
        }
    }
    if out.is_empty() {
        return Err(invalid(from, "it holds no file".into()));
    }
    out.sort_by(|a, b| a.from.cmp(&b.from));
    Ok(out)
}

/// The module the plugin places `entry`'s text in at `path`.
fn module_at(
    analysis: &Analysis,
    entry: &FileEntry,
    path: &str,
) -> Result<Option<ModuleIdentity>, RefactorError> {
    let facts =
        reanalyse(&*entry.plugin, path, &entry.source(), analysis.snapshot()).map_err(|e| {
            RefactorError::InvalidTargetPath {
                path: path.to_string(),
                reason: format!("its plugin could not read the file there: {e}"),
            }
        })?;
    Ok(facts.modules.into_iter().next())
}

/// The plan renaming the declaration of module `old` (a module-kind symbol
/// named after it, in the module whose path is the longest that starts
/// `old`'s) to `new`'s name. Refused when the module changes parent, which
/// would need the declaration moved.
fn rename_declaration(
    analysis: &Analysis,
    entry: &FileEntry,
    old: &ModuleIdentity,
    new: &ModuleIdentity,
    directory: bool,
) -> Result<Plan, RefactorError> {
    let refuse = |reason: String| RefactorError::InvalidTargetPath {
        path: new.path.clone(),
        reason,
    };
    let common = common_prefix(&old.path, &new.path);
    let old_name = last_name(&old.path[common..]);
    let new_name = last_name(&new.path[common..]);
    if old_name.is_empty() {
        return Err(refuse(format!(
            "`{}` is a root module, which no other file declares; its manifest names its file",
            old.path
        )));
    }
    let same_parent = old.path.len() - old_name.len() == new.path.len() - new_name.len();
    if new_name.is_empty() || !same_parent {
        return Err(refuse(format!(
            "module `{}` would become `{}`: its parent declares it, so it can only be renamed within its folder",
            old.path, new.path
        )));
    }
    let parent = &old.path[..old.path.len() - old_name.len()];
    let snapshot = analysis.snapshot();
    let mut found = Vec::new();
    for file in snapshot.files.values() {
        if file.path == entry.path && !directory {
            continue;
        }
        let Ok(facts) = file.facts() else { continue };
        let Some(module) = facts.modules.first() else {
            continue;
        };
        if !parent.starts_with(&module.path) {
            continue;
        }
        for (index, symbol) in facts.symbols.iter().enumerate() {
            let declares = symbol.kind == SymbolKind::Module
                && symbol.name == old_name
                && !facts
                    .symbols
                    .iter()
                    .any(|s| s.container == Some(index as u32));
            if declares {
                found.push((file.clone(), symbol.name_span));
            }
        }
    }
    let [(file, span)] = found.as_slice() else {
        return Err(refuse(format!(
            "{} declarations of module `{old_name}` found where one was expected",
            found.len()
        )));
    };
    plan_rename(
        analysis,
        &RenameRequest {
            target: Target::Position(FilePosition {
                path: file.path.clone(),
                line: span.start.line.into(),
                character: span.start.character.into(),
            }),
            new_name: new_name.to_string(),
            kind: RenameKind::Symbol,
            force: false,
        },
    )
}

/// The length of the longest common prefix of `a` and `b` that ends on a
/// character boundary.
fn common_prefix(a: &str, b: &str) -> usize {
    a.char_indices()
        .zip(b.chars())
        .take_while(|((_, x), y)| x == y)
        .last()
        .map_or(0, |((i, x), _)| i + x.len_utf8())
}

/// The identifier `path` ends with (`shapes` of `crate::geo::shapes`; the
/// whole of `path` when it is all identifier characters).
fn last_name(path: &str) -> &str {
    let start = path
        .char_indices()
        .rev()
        .find(|(_, c)| !(c.is_alphanumeric() || *c == '_'))
        .map_or(0, |(i, c)| i + c.len_utf8());
    &path[start..]
}

/// Every import of a renamed module rewritten in place with the plugin's
/// specifier from the importer (at its new path, when it moves too), and
/// the moved files' imports of modules that stay respelled from their new
/// folder.
fn respell_imports(
    analysis: &Analysis,
    moved: &[MovedFile],
    renamed: &HashMap<String, ModuleIdentity>,
    new_identity: &HashMap<String, ModuleIdentity>,
    texts: &mut BTreeMap<String, String>,
) -> Result<(), RefactorError> {
    let snapshot = analysis.snapshot();
    let moving: HashMap<&str, ()> = moved.iter().map(|m| (m.from.as_str(), ())).collect();
    for file in snapshot.files.values() {
        let Ok(facts) = file.facts() else { continue };
        let Some(importer) = facts.modules.first() else {
            continue;
        };
        let moves = moving.contains_key(file.path.as_str());
        let importer_after = new_identity.get(&file.path).unwrap_or(importer);
        let mut spans: Vec<(usize, usize, String)> = Vec::new();
        for import in &facts.imports {
            let resolved =
                analysis
                    .table()
                    .resolve_import(file, importer, &import.module_path, snapshot);
            let Some(module) = resolved.iter().find(|m| snapshot.modules.contains_key(*m)) else {
                continue;
            };
            let target = match renamed.get(module) {
                Some(new) => new.clone(),
                None if moves => match super::moves::module_identity(analysis, module) {
                    Some(identity) => identity,
                    None => continue,
                },
                None => continue,
            };
            let specifier = file
                .plugin
                .import_specifier(importer_after, &target, &snapshot.manifests)
                .map_err(|e| RefactorError::NotEditable {
                    path: file.path.clone(),
                    reason: format!("its plugin cannot name module `{}`: {e}", target.path),
                })?;
            if specifier == import.module_path {
                continue;
            }
            let Some((start, end)) = super::moves::module_path_span(&file.source(), import) else {
                return Err(RefactorError::NotEditable {
                    path: file.path.clone(),
                    reason: format!(
                        "the import at line {} does not spell its module path `{}` once",
                        import.span.start.line + 1,
                        import.module_path
                    ),
                });
            };
            spans.push((start, end, specifier));
        }
        if spans.is_empty() {
            continue;
        }
        spans.sort_by_key(|(start, _, _)| std::cmp::Reverse(*start));
        let mut text = texts
            .get(&file.path)
            .cloned()
            .unwrap_or_else(|| file.source().to_string());
        for (start, end, specifier) in spans {
            text.replace_range(start..end, &specifier);
        }
        texts.insert(file.path.clone(), text);
    }
    Ok(())
}
