//! The file a move goes to: named, or the file of a module where paths
//! make modules, or the folder that mirrors a namespace; created when
//! asked and allowed by the module layout.

use std::path::Path;
use std::sync::Arc;

use super::declaration::at_module_level;
use super::modules::{declared_module, namespace_name};
use super::{MODULE_KINDS, MoveRequest};
use crate::RefactorError;
use lingo_analysis::Analysis;
use lingo_index::FileEntry;
use lingo_model::{ModuleLayout, Symbol};

/// The file a declaration moves into.
pub(super) struct Target {
    pub(super) path: String,
    /// Its text now (empty for a file the move creates).
    pub(super) text: Arc<str>,
    pub(super) created: bool,
    pub(super) entry: Option<Arc<FileEntry>>,
    /// For a created file of a language whose files are modules once
    /// declared: the existing file that declares it.
    pub(super) declared_by: Option<String>,
}

impl Target {
    pub(super) fn open(
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
            _ => analysis.workspace().resolve(requested)?,
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
                name: symbol.name.to_string(),
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
                super::super::rename::check_editable(entry)?;
            }
            return Ok(Target {
                path,
                text: entry.source().clone(),
                created: false,
                entry: Some(entry.clone()),
                declared_by: None,
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
        let mut declared_by = None;
        if layout == ModuleLayout::DeclaredFilePerModule {
            // The first existing file that may declare it does.
            let declarers = source
                .plugin
                .module_declarers(&path)
                .map_err(|e| invalid(e.to_string()))?;
            let snapshot = analysis.snapshot();
            let declarer = declarers.iter().find(|d| snapshot.file(d).is_some());
            let Some(declarer) = declarer else {
                return Err(invalid(format!(
                    "a new file of this language becomes a module only once another file declares it, and none of the files that may ({}) exists; create the file and its declaration first",
                    if declarers.is_empty() {
                        "none named by its plugin".to_string()
                    } else {
                        declarers.join(", ")
                    }
                )));
            };
            if let Some(entry) = snapshot.file(declarer) {
                super::super::rename::check_editable(entry)?;
            }
            declared_by = Some(declarer.clone());
        }
        Ok(Target {
            path,
            text: Arc::from(""),
            created: true,
            entry: None,
            declared_by,
        })
    }
}

/// The file of `module` (as the source file would import it) where paths
/// make modules: its only file, else the one named like the source file,
/// else its first.
pub(super) fn module_file(
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
        let nearby =
            lingo_model::suggest::similar(module, snapshot.modules.keys().map(String::as_str), 3);
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
pub(super) fn namespace_folder_file(
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
    let new = namespace_name(module, &source.plugin.info().path_separator)?;
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
