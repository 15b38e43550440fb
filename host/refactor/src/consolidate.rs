//! `move` of kind `consolidate`: every module-level declaration of one
//! file moved into another module, one after the other, each planned by the
//! move planner on the workspace as the moves before it would leave it (an
//! overlay of the snapshot, in memory; nothing is written until the whole
//! plan is applied); then the emptied file deleted, with the declaration
//! of its module where a parent file declares it (Rust's `mod`). The plan
//! is the difference between the files as they are and as the last step
//! leaves them.

use std::collections::BTreeMap;

use super::RefactorError;
use super::edit;
use super::moves::{MoveRequest, MoveSource, plan_move};
use super::plan::{
    self, DocumentChange, DocumentId, FileOperation, Plan, TextDocumentEdit, Warning, warning,
};
use lingo_analysis::Analysis;
use lingo_model::{FileFacts, ModuleLayout, Span, SymbolKind};

/// Files' texts after some steps (`None`: deleted).
type Texts = BTreeMap<String, Option<String>>;

/// A consolidation to plan.
#[derive(Debug, Clone)]
pub struct ConsolidateRequest {
    /// The file whose declarations all move.
    pub source_file: String,
    /// Where they go: a file (empty when `target_module` names it).
    pub target_file: String,
    /// Or the module they join, as the source file would import it.
    pub target_module: Option<String>,
}

/// A planned consolidation.
#[derive(Debug, Clone)]
pub struct Consolidated {
    pub plan: Plan,
    /// The declarations moved, by qualified name, in the order they moved.
    pub moved: Vec<String>,
}

/// Kinds that are no declaration of their own file's (what holds them).
const MODULE_KINDS: &[SymbolKind] = &[
    SymbolKind::Module,
    SymbolKind::Namespace,
    SymbolKind::Package,
    SymbolKind::File,
];

/// Plan moving every declaration of `request.source_file` to its target.
pub fn plan_consolidate(
    analysis: &Analysis,
    request: &ConsolidateRequest,
) -> Result<Consolidated, RefactorError> {
    let source = analysis.file(&request.source_file)?;
    let facts = source.facts()?;
    let names: Vec<String> = module_level(facts)
        .iter()
        .map(|&i| facts.symbols[i].name.to_string())
        .collect();
    if names.is_empty() {
        return Err(RefactorError::InvalidTargetPath {
            path: source.path.clone(),
            reason: "it declares nothing to move".into(),
        });
    }
    let layout = source.plugin.info().policy.module_layout;
    let registry = analysis.workspace().registry().clone();
    let mut texts: Texts = BTreeMap::new();
    let mut current = analysis.clone();
    let mut moved = Vec::new();
    let mut target_path = None;
    let mut warnings: Vec<Warning> = Vec::new();
    // Each round moves the file's first declaration left: at most one
    // round per declaration it had.
    for _ in 0..names.len() {
        let Some(file) = current.snapshot().file(&source.path).cloned() else {
            break;
        };
        let facts = file.facts()?;
        let Some(&index) = module_level(facts).first() else {
            break;
        };
        let symbol = &facts.symbols[index];
        let step = MoveRequest {
            source: MoveSource::At {
                path: source.path.clone(),
                line: symbol.name_span.start.line,
                character: symbol.name_span.start.character,
            },
            target_file: request.target_file.clone(),
            create_target_file: true,
            types_only: false,
            target_module: request.target_module.clone(),
            follow_namespace_folder: false,
            moving_along: names.clone(),
        };
        let outcome = plan_move(&current, &step)?;
        moved.push(outcome.moved.qualified_name.clone());
        target_path.get_or_insert_with(|| outcome.moved.new.path.clone());
        for warning in outcome.plan.warnings {
            if !warnings
                .iter()
                .any(|w| w.code == warning.code && w.message == warning.message)
            {
                warnings.push(warning);
            }
        }
        let changed = play(&current, &outcome.plan.edits.document_changes)?;
        texts.extend(changed.clone());
        current = Analysis::new(
            current.workspace().clone(),
            current.snapshot().with_texts(&registry, &changed),
        )?;
    }
    if let Some(file) = current.snapshot().file(&source.path).cloned() {
        let facts = file.facts()?;
        if !module_level(facts).is_empty() {
            return Err(RefactorError::InvalidTargetPath {
                path: source.path.clone(),
                reason: "declarations are left in it after every move".into(),
            });
        }
        if layout == ModuleLayout::DeclaredFilePerModule {
            let (changed, left) = drop_module_declaration(&current, &source.path)?;
            texts.extend(changed);
            if !left.is_empty() {
                warnings.push(Warning::listed(
                    warning::POTENTIAL_BEHAVIOR_CHANGE,
                    format!(
                        "{} uses name the module of `{}` itself, which is gone; fix them, or apply with `force`",
                        left.len(),
                        source.path
                    ),
                    left,
                ));
            }
        }
        texts.insert(source.path.clone(), None);
    }
    // Another package's manifest is not merged into the target's (typemill's
    // `merge_dependencies`): what the moved code needs from it may be missing.
    let package_of = |path: &str| {
        current
            .snapshot()
            .file(path)
            .and_then(|f| f.facts().ok().and_then(|f| f.modules.first().cloned()))
            .and_then(|m| m.crate_or_package)
    };
    let source_package = facts
        .modules
        .first()
        .and_then(|m| m.crate_or_package.clone());
    if let Some(target) = &target_path
        && source_package.is_some()
        && package_of(target) != source_package
    {
        warnings.push(Warning {
            code: warning::POTENTIAL_BEHAVIOR_CHANGE.into(),
            message: format!(
                "`{}` is in package `{}` and `{target}` in another: lingo does not merge their manifests' dependencies, which the moved code may need; merge them, or apply with `force`",
                source.path,
                source_package.clone().unwrap_or_default()
            ),
            sites: vec![source.path.clone(), target.clone()],
        });
    }
    let plan = compose(analysis, &texts, warnings, facts.language.clone())?;
    Ok(Consolidated { plan, moved })
}

/// The file's own declarations at module level, in source order.
fn module_level(facts: &FileFacts) -> Vec<usize> {
    facts
        .symbols
        .iter()
        .enumerate()
        .filter(|(_, s)| {
            !MODULE_KINDS.contains(&s.kind)
                && s.container
                    .and_then(|c| facts.symbols.get(c as usize))
                    .is_none_or(|c| MODULE_KINDS.contains(&c.kind))
        })
        .map(|(i, _)| i)
        .collect()
}

/// The texts `changes` leave, played on `analysis`'s snapshot (`None`: the
/// file is deleted).
fn play(analysis: &Analysis, changes: &[DocumentChange]) -> Result<Texts, RefactorError> {
    let mut texts: Texts = BTreeMap::new();
    let current = |texts: &Texts, path: &str| -> Option<String> {
        match texts.get(path) {
            Some(text) => text.clone(),
            None => analysis
                .snapshot()
                .file(path)
                .map(|f| f.source().to_string()),
        }
    };
    for change in changes {
        match change {
            DocumentChange::Edit(document) => {
                let path = &document.text_document.uri;
                let text = current(&texts, path).ok_or_else(|| RefactorError::StalePlan {
                    path: path.clone(),
                    reason: format!("`{path}` does not exist"),
                })?;
                let edited = edit::apply(&text, &document.edits).map_err(|e| {
                    RefactorError::InvalidPlan {
                        field: "plan.edits".into(),
                        reason: format!("{path}: {e}"),
                    }
                })?;
                texts.insert(path.clone(), Some(edited));
            }
            DocumentChange::File(FileOperation::Create { uri, text }) => {
                texts.insert(uri.clone(), Some(text.clone().unwrap_or_default()));
            }
            DocumentChange::File(FileOperation::Delete { uri }) => {
                texts.insert(uri.clone(), None);
            }
            DocumentChange::File(FileOperation::Rename { old_uri, new_uri }) => {
                let text = current(&texts, old_uri);
                texts.insert(old_uri.clone(), None);
                texts.insert(new_uri.clone(), text);
            }
        }
    }
    Ok(texts)
}

/// The parent's declaration of the module the file at `path` makes (a
/// module-kind symbol without a body, named as the module's last part, in
/// a file of the parent module) taken out; and the uses of that module
/// left anywhere (`path:line:column`).
fn drop_module_declaration(
    analysis: &Analysis,
    path: &str,
) -> Result<(Texts, Vec<String>), RefactorError> {
    let file = analysis.file(path)?;
    let Some(module) = file.facts()?.modules.first().cloned() else {
        return Ok((BTreeMap::new(), Vec::new()));
    };
    let separator = file.plugin.info().path_separator.clone();
    let name = match module.path.rsplit_once(separator.as_str()) {
        Some((_, name)) => name.to_string(),
        None => return Ok((BTreeMap::new(), Vec::new())),
    };
    let parent = &module.path[..module.path.len() - name.len() - separator.len()];
    let mut found = Vec::new();
    for other in analysis.snapshot().files.values() {
        if other.path == path {
            continue;
        }
        let Ok(facts) = other.facts() else { continue };
        if facts.modules.first().is_none_or(|m| m.path != parent) {
            continue;
        }
        for (index, symbol) in facts.symbols.iter().enumerate() {
            let declares = symbol.kind == SymbolKind::Module
                && symbol.name == name
                && !facts
                    .symbols
                    .iter()
                    .any(|s| s.container == Some(index as u32));
            if declares {
                found.push((other.clone(), symbol.clone()));
            }
        }
    }
    let [(parent_file, declaration)] = found.as_slice() else {
        return Ok((BTreeMap::new(), Vec::new()));
    };
    let left = uses_of_module(analysis, parent_file, declaration)?;
    let (start, end) = parent_file
        .plugin
        .declaration_extent(&parent_file.path, &parent_file.source(), &declaration.span)
        .map_err(|e| RefactorError::InvalidTargetPath {
            path: parent_file.path.clone(),
            reason: format!("the declaration of module `{name}` cannot be taken out: {e}"),
        })?;
    let text =
        edit::apply_bytes(&parent_file.source(), &[(start, end, String::new())]).map_err(|e| {
            RefactorError::InvalidTargetPath {
                path: parent_file.path.clone(),
                reason: format!(
                    "the extent of the declaration of module `{name}` does not fit: {e}"
                ),
            }
        })?;
    let mut changed = BTreeMap::new();
    changed.insert(parent_file.path.clone(), Some(text));
    Ok((changed, left))
}

/// Certain uses of the module declared by `declaration` in `file`, outside
/// the declaration itself.
fn uses_of_module(
    analysis: &Analysis,
    file: &lingo_index::FileEntry,
    declaration: &lingo_model::Symbol,
) -> Result<Vec<String>, RefactorError> {
    let target = lingo_analysis::Target::Position(lingo_analysis::FilePosition {
        path: file.path.clone(),
        line: declaration.name_span.start.line.into(),
        character: declaration.name_span.start.character.into(),
    });
    let references = analysis.references(&target)?;
    let within = |span: &Span, path: &str, point: &lingo_analysis::RangePoint| {
        path == file.path && span.start.line <= point.line && point.line <= span.end.line
    };
    Ok(references
        .sites
        .iter()
        .filter_map(|site| {
            let (path, point) = site.site.place();
            (!within(&declaration.span, path, &point)).then(|| site.site.label())
        })
        .collect())
}

/// The plan taking the workspace from `analysis`'s files to `texts`.
fn compose(
    analysis: &Analysis,
    texts: &Texts,
    warnings: Vec<Warning>,
    language: String,
) -> Result<Plan, RefactorError> {
    let mut changes = Vec::new();
    let mut checksums = BTreeMap::new();
    for (path, text) in texts {
        let original = analysis.snapshot().file(path);
        if let Some(file) = original {
            checksums.insert(path.clone(), plan::checksum(&file.sha256));
        }
        match (original, text) {
            (Some(file), Some(text)) => {
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
            (None, Some(text)) => changes.push(DocumentChange::File(FileOperation::Create {
                uri: path.clone(),
                text: Some(text.clone()),
            })),
            (Some(_), None) => changes.push(DocumentChange::File(FileOperation::Delete {
                uri: path.clone(),
            })),
            (None, None) => {}
        }
    }
    Ok(Plan::new(
        "MovePlan",
        "move.consolidate".to_string(),
        language,
        analysis.generation(),
        changes,
        warnings,
        checksums,
        None,
    ))
}
