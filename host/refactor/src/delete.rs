//! `delete` of the imports a file does not use (removed by the plugins'
//! `remove-import`, checked by parsing the file again), of dead code (the
//! declarations the analysis layer's judgement finds unused, taken out by
//! the plugins' `declaration-extent` with the imports only they used), and
//! of whole files (with every use of their declarations elsewhere listed).

use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;

use petgraph::Direction;

use super::RefactorError;
use super::edit;
use super::plan::{
    self, DocumentChange, DocumentId, FileOperation, Plan, TextDocumentEdit, Warning, warning,
};
use crate::reanalyse::reanalyse;
use lingo_analysis::{Analysis, SiteView};
use lingo_index::FileEntry;
use lingo_model::{FileFacts, Import, ImportKind, ReferenceKind};
use lingo_resolve::graph::{EdgeKind, Node};
use lingo_resolve::{SymbolRef, Target};

/// What `delete` removes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeleteKind {
    /// Imports whose names nothing in their file uses.
    UnusedImports,
    /// Private declarations nothing uses (see [`Analysis::dead_code`]).
    DeadCode,
    /// One source file.
    File,
}

impl DeleteKind {
    pub const NAMES: &[&str] = &["unused_imports", "dead_code", "file"];

    pub fn parse(text: &str) -> Option<DeleteKind> {
        match text {
            "unused_imports" => Some(DeleteKind::UnusedImports),
            "dead_code" => Some(DeleteKind::DeadCode),
            "file" => Some(DeleteKind::File),
            _ => None,
        }
    }

    fn as_str(self) -> &'static str {
        match self {
            DeleteKind::UnusedImports => "unused_imports",
            DeleteKind::DeadCode => "dead_code",
            DeleteKind::File => "file",
        }
    }
}

/// A deletion to plan.
#[derive(Debug, Clone)]
pub struct DeleteRequest {
    pub kind: DeleteKind,
    /// A file, or for `unused_imports` and `dead_code` a folder (`.`: the
    /// workspace).
    pub path: String,
    /// Also remove imports lingo cannot prove unused: names from outside the
    /// workspace in a file that calls members nothing in it resolves (an
    /// import of a trait or of extension methods may serve those calls).
    pub aggressive: bool,
}

/// Plan the deletion `request` asks for on `analysis`'s snapshot.
pub fn plan_delete(analysis: &Analysis, request: &DeleteRequest) -> Result<Plan, RefactorError> {
    let files = analysis.files_under(&request.path)?;
    let (changes, warnings) = match request.kind {
        DeleteKind::UnusedImports => unused_imports_changes(analysis, &files, request.aggressive)?,
        DeleteKind::DeadCode => super::dead_code::dead_code_changes(analysis, &files)?,
        DeleteKind::File => file_changes(analysis, &files, &request.path)?,
    };
    let mut checksums = BTreeMap::new();
    let mut language = String::new();
    for change in &changes {
        let path = match change {
            DocumentChange::Edit(edit) => &edit.text_document.uri,
            DocumentChange::File(FileOperation::Delete { uri }) => uri,
            DocumentChange::File(_) => continue,
        };
        let file = analysis.file(path)?;
        if language.is_empty()
            && let Ok(facts) = file.facts()
        {
            language = facts.language.clone();
        }
        checksums.insert(path.clone(), plan::checksum(&file.sha256));
    }
    Ok(Plan::new(
        "DeletePlan",
        format!("delete.{}", request.kind.as_str()),
        language,
        analysis.generation(),
        changes,
        warnings,
        checksums,
        None,
    ))
}

/// An import (or one name of it) nothing in its file uses, as the
/// analyses report it.
#[derive(Debug, Clone)]
pub struct UnusedImport {
    pub path: String,
    /// The import, or the name inside it.
    pub span: lingo_model::Span,
    pub module_path: String,
    /// The name, when only it is unused.
    pub name: Option<String>,
    /// Whether lingo can prove it unused (else it may serve member calls
    /// nothing resolves).
    pub certain: bool,
}

/// The imports of `files` nothing in their file uses, by the rules
/// `delete` of unused imports applies.
pub fn unused_imports(analysis: &Analysis, files: &[Arc<FileEntry>]) -> Vec<UnusedImport> {
    let mut out = Vec::new();
    for file in files {
        let Ok(facts) = file.facts() else { continue };
        if facts.imports.is_empty() {
            continue;
        }
        for removal in unused_in(analysis, file, facts, &[]).removals {
            let import = &facts.imports[removal.import];
            let name = removal.name.map(|n| &import.names[n]);
            out.push(UnusedImport {
                path: file.path.clone(),
                span: name.map_or(import.span, |n| n.span),
                module_path: import.module_path.clone(),
                name: name.map(|n| n.local_name().to_string()),
                certain: removal.certain,
            });
        }
    }
    out
}

/// One import, or one name of it, found unused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Removal {
    /// Index into the file's imports.
    pub import: usize,
    /// Index into the import's names; `None`: the whole import.
    pub name: Option<usize>,
    /// Whether lingo can prove it unused (see [`DeleteRequest::aggressive`]).
    pub certain: bool,
}

/// What was found in one file.
#[derive(Default)]
pub(super) struct Findings {
    pub removals: Vec<Removal>,
    /// Imports of modules outside the workspace that bring in every name
    /// (`using System;`, `use std::io::*`): whether they are used cannot
    /// be told.
    unjudged: usize,
}

/// The edits removing unused imports from `files`, and the warnings.
fn unused_imports_changes(
    analysis: &Analysis,
    files: &[Arc<FileEntry>],
    aggressive: bool,
) -> Result<(Vec<DocumentChange>, Vec<Warning>), RefactorError> {
    let mut changes = Vec::new();
    let (mut uncertain, mut failed) = (Vec::new(), Vec::new());
    let mut unjudged = 0;
    for file in files {
        let Ok(facts) = file.facts() else { continue };
        if facts.imports.is_empty() {
            continue;
        }
        let findings = unused_in(analysis, file, facts, &[]);
        unjudged += findings.unjudged;
        let site = |r: &Removal| {
            let import = &facts.imports[r.import];
            let span = r.name.map_or(import.span, |n| import.names[n].span);
            format!(
                "{}:{}:{}",
                file.path,
                span.start.line + 1,
                span.start.character + 1
            )
        };
        uncertain.extend(findings.removals.iter().filter(|r| !r.certain).map(site));
        let removals: Vec<Removal> = findings
            .removals
            .iter()
            .copied()
            .filter(|r| r.certain || aggressive)
            .collect();
        if removals.is_empty() {
            continue;
        }
        match remove(
            analysis,
            file,
            facts,
            (file.source().to_string(), &[]),
            &removals,
        ) {
            Ok(text) => {
                if let Some(edit) = edit::difference(&file.source(), &text) {
                    changes.push(DocumentChange::Edit(TextDocumentEdit {
                        text_document: DocumentId {
                            uri: file.path.clone(),
                            version: None,
                        },
                        edits: vec![edit],
                    }));
                }
            }
            Err(reason) => failed.push(format!("{}: {reason}", file.path)),
        }
    }
    let mut warnings = Vec::new();
    if !uncertain.is_empty() {
        let (code, message) = if aggressive {
            (
                warning::POTENTIAL_BEHAVIOR_CHANGE,
                format!(
                    "{} imports removed with `aggressive` name nothing the file mentions, but the file calls members lingo cannot resolve, which an import of a trait or of extension methods may serve; apply with `force` if the build agrees",
                    uncertain.len()
                ),
            )
        } else {
            (
                warning::PARTIAL_APPLY,
                format!(
                    "{} imports name nothing the file mentions but are kept: the file calls members lingo cannot resolve, which an import of a trait or of extension methods may serve (`aggressive: true` removes them)",
                    uncertain.len()
                ),
            )
        };
        warnings.push(Warning::listed(code, message, uncertain));
    }
    if !failed.is_empty() {
        warnings.push(Warning::listed(
            warning::PARTIAL_APPLY,
            format!(
                "{} file(s) keep their unused imports: their plugin could not remove them cleanly",
                failed.len()
            ),
            failed,
        ));
    }
    if unjudged > 0 {
        warnings.push(Warning {
            code: warning::PARTIAL_APPLY.into(),
            message: format!(
                "{unjudged} imports of every name of a module outside the workspace are kept: what they bring in is not indexed"
            ),
            sites: Vec::new(),
        });
    }
    Ok((changes, warnings))
}

/// The imports of `file` that nothing in it uses.
///
/// A name is used when a reference outside the imports names it (or
/// qualifies a name with it), or when it appears as a word anywhere else in
/// the text: macro bodies, attributes and doc links use names without the
/// plugin seeing a reference, so a mention keeps an import. A name that is
/// not mentioned is still kept when it resolves to a declaration with
/// members the file calls by member access (a trait's methods); and one
/// that resolves to nothing indexed is only *probably* unused when the file
/// calls members nothing resolves.
///
/// Text in `removed` (byte ranges a deletion takes out) counts as gone:
/// its references and words use nothing.
pub(super) fn unused_in(
    analysis: &Analysis,
    file: &Arc<FileEntry>,
    facts: &FileFacts,
    removed: &[(usize, usize)],
) -> Findings {
    let import_spans: Vec<(usize, usize)> = facts
        .imports
        .iter()
        .map(|i| (i.span.start.offset as usize, i.span.end.offset as usize))
        .collect();
    let mut skipped = import_spans.clone();
    skipped.extend_from_slice(removed);
    let in_skipped = |offset: usize| skipped.iter().any(|(s, e)| *s <= offset && offset < *e);
    let source = file.source();
    let words = words_outside(&source, &skipped);
    let mut referenced: HashSet<&str> = HashSet::new();
    for reference in &facts.references {
        if reference.kind == ReferenceKind::Import
            || in_skipped(reference.span.start.offset as usize)
        {
            continue;
        }
        referenced.insert(reference.name.as_str());
        referenced.extend(reference.qualifier.iter().map(lingo_model::Name::as_str));
    }
    let mentioned = |name: &str| referenced.contains(name) || words.contains(name);
    let member_calls: HashSet<&str> = facts
        .references
        .iter()
        .filter(|r| {
            r.is_member
                && r.kind != ReferenceKind::Import
                && !in_skipped(r.span.start.offset as usize)
        })
        .map(|r| r.name.as_str())
        .collect();
    let resolver = analysis.resolver();
    // Computed once, when a name from outside the workspace is unused.
    let mut calls_unresolved_members: Option<bool> = None;
    let mut unresolved_members = || {
        *calls_unresolved_members.get_or_insert_with(|| {
            facts
                .references
                .iter()
                .filter(|r| {
                    r.is_member
                        && r.kind != ReferenceKind::Import
                        && !in_skipped(r.span.start.offset as usize)
                })
                .any(|r| {
                    !resolver
                        .resolve(file, r)
                        .iter()
                        .any(|d| d.confidence >= 1.0)
                })
        })
    };

    let mut findings = Findings::default();
    for (index, import) in facts.imports.iter().enumerate() {
        let gone = removed.iter().any(|(s, e)| {
            *s <= import.span.start.offset as usize && (import.span.start.offset as usize) < *e
        });
        if import.reexport || import.kind == ImportKind::SideEffect || gone {
            continue;
        }
        if import.kind == ImportKind::Glob {
            match module_names(analysis, file, facts, import) {
                None => findings.unjudged += 1,
                Some(names) if !names.iter().any(|n| mentioned(n)) => {
                    findings.removals.push(Removal {
                        import: index,
                        name: None,
                        certain: true,
                    })
                }
                Some(_) => {}
            }
            continue;
        }
        let mut unused = Vec::new();
        for (n, imported) in import.names.iter().enumerate() {
            let local = imported.local_name();
            // `*` inside a list is every name, judged by nobody here.
            if matches!(local, "" | "*") || mentioned(local) {
                continue;
            }
            let certain = if import.kind == ImportKind::Namespace {
                // A module name serves no member call.
                true
            } else {
                match imported_declarations(analysis, file, facts, imported.span) {
                    Some(declarations) => {
                        if serves_member_calls(analysis, &declarations, &member_calls) {
                            continue;
                        }
                        true
                    }
                    None => !unresolved_members(),
                }
            };
            unused.push((n, certain));
        }
        if unused.is_empty() {
            continue;
        }
        if unused.len() == import.names.len() {
            findings.removals.push(Removal {
                import: index,
                name: None,
                certain: unused.iter().all(|(_, c)| *c),
            });
        } else {
            findings
                .removals
                .extend(unused.into_iter().map(|(n, certain)| Removal {
                    import: index,
                    name: Some(n),
                    certain,
                }));
        }
    }
    findings
}

/// The identifier-like words of `source` outside `skipped` byte ranges.
fn words_outside<'s>(source: &'s str, skipped: &[(usize, usize)]) -> HashSet<&'s str> {
    let is_word = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    let mut words = HashSet::new();
    let mut start = None;
    for (at, c) in source
        .char_indices()
        .chain(std::iter::once((source.len(), ' ')))
    {
        match (is_word(c), start) {
            (true, None) => start = Some(at),
            (false, Some(s)) => {
                start = None;
                if !skipped.iter().any(|(a, b)| *a <= s && s < *b) {
                    words.insert(&source[s..at]);
                }
            }
            _ => {}
        }
    }
    words
}

/// The names declared in the workspace modules a glob import brings in;
/// `None` when the module is not in the workspace.
fn module_names<'a>(
    analysis: &'a Analysis,
    file: &FileEntry,
    facts: &FileFacts,
    import: &Import,
) -> Option<HashSet<&'a str>> {
    let snapshot = analysis.snapshot();
    let table = analysis.table();
    let mut names = HashSet::new();
    let mut found = false;
    for importer in &facts.modules {
        for module in table
            .resolve_import(file, importer, &import.module_path, snapshot)
            .iter()
        {
            for path in snapshot.modules.get(module).into_iter().flatten() {
                let Some(number) = table.file_number(path) else {
                    continue;
                };
                let Ok(declaring) = table.files()[number as usize].facts() else {
                    continue;
                };
                found = true;
                names.extend(declaring.symbols.iter().map(|s| s.name.as_str()));
            }
        }
    }
    found.then_some(names)
}

/// The declarations the imported name written at `span` resolves to with
/// certainty; `None` when it resolves to nothing indexed.
fn imported_declarations(
    analysis: &Analysis,
    file: &Arc<FileEntry>,
    facts: &FileFacts,
    span: lingo_model::Span,
) -> Option<Vec<SymbolRef>> {
    let table = analysis.table();
    let resolver = analysis.resolver();
    let mut found = Vec::new();
    for reference in facts.references.iter().filter(|r| {
        r.kind == ReferenceKind::Import
            && span.start.offset <= r.span.start.offset
            && r.span.end.offset <= span.end.offset
    }) {
        for definition in resolver.resolve(file, reference) {
            if definition.confidence < 1.0 {
                continue;
            }
            if let Target::Symbol {
                file: declaring,
                index,
            } = &definition.target
                && let Some(number) = table.file_number(&declaring.path)
            {
                found.push(SymbolRef {
                    file: number,
                    symbol: *index as u32,
                });
            }
        }
    }
    (!found.is_empty()).then_some(found)
}

/// Whether a member of one of `declarations` is called by member access in
/// the file (`w.write_all()` uses an imported trait `Write`).
fn serves_member_calls(
    analysis: &Analysis,
    declarations: &[SymbolRef],
    member_calls: &HashSet<&str>,
) -> bool {
    let table = analysis.table();
    declarations.iter().any(|d| {
        let Ok(facts) = table.file(*d).facts() else {
            return true;
        };
        facts
            .symbols
            .iter()
            .any(|s| s.container == Some(d.symbol) && member_calls.contains(s.name.as_str()))
    })
}

/// `text` (`file`'s, or what an earlier edit of it left, with the same
/// imports) with `removals` made by its plugin, one after the other,
/// checked: no syntax error added to `facts`', and exactly the removed
/// names gone from the imports the plugin reads in the result.
///
/// Imports inside `removed` (byte ranges of `file`'s text that `text` no
/// longer holds) are not expected in the result.
pub(super) fn remove(
    analysis: &Analysis,
    file: &FileEntry,
    facts: &FileFacts,
    (mut text, removed): (String, &[(usize, usize)]),
    removals: &[Removal],
) -> Result<String, String> {
    super::rename::check_editable(file).map_err(|e| e.to_string())?;
    let plugin = &file.plugin;
    let kept: Vec<Import> = facts
        .imports
        .iter()
        .filter(|i| {
            let start = i.span.start.offset as usize;
            !removed.iter().any(|(s, e)| *s <= start && start < *e)
        })
        .cloned()
        .collect();
    let mut expected = bindings(&kept);
    for (module_path, name) in removal_calls(facts, removals) {
        let edits = plugin
            .remove_import(&file.path, &text, module_path, name)
            .map_err(|e| e.to_string())?;
        text = edit::apply_bytes(&text, &edits)
            .map_err(|e| format!("`remove-import` answered edits that do not fit: {e}"))?;
    }
    for removal in removals {
        let import = &facts.imports[removal.import];
        let gone: Vec<(String, String)> = match removal.name {
            Some(n) => vec![binding(import, import.names[n].local_name())],
            None => import_bindings(import),
        };
        for binding in gone {
            if let Some(at) = expected.iter().position(|b| *b == binding) {
                expected.remove(at);
            }
        }
    }
    let after = reanalyse(&**plugin, &file.path, &text, analysis.snapshot())
        .map_err(|e| format!("the edited text could not be parsed again: {e}"))?;
    if after.syntax_errors() > facts.syntax_errors() {
        return Err(format!(
            "removing the imports would leave {} syntax errors instead of {}",
            after.syntax_errors(),
            facts.syntax_errors()
        ));
    }
    let mut left = bindings(&after.imports);
    left.sort();
    expected.sort();
    if left != expected {
        return Err(
            "the imports left after `remove-import` are not the ones expected; nothing is removed"
                .into(),
        );
    }
    Ok(text)
}

/// The `remove-import` calls that make `removals`: `(module, None)` takes
/// every import of a module, so it is asked only when all of them go;
/// otherwise each name is removed by itself.
fn removal_calls<'f>(
    facts: &'f FileFacts,
    removals: &[Removal],
) -> Vec<(&'f str, Option<&'f str>)> {
    let mut calls = Vec::new();
    let mut done: HashSet<&str> = HashSet::new();
    for removal in removals {
        let import = &facts.imports[removal.import];
        let module = import.module_path.as_str();
        let whole_module = facts
            .imports
            .iter()
            .enumerate()
            .filter(|(_, i)| i.module_path == module)
            .all(|(index, _)| {
                removals
                    .iter()
                    .any(|r| r.import == index && r.name.is_none())
            });
        if whole_module {
            if done.insert(module) {
                calls.push((module, None));
            }
            continue;
        }
        match removal.name {
            Some(n) => calls.push((module, Some(import.names[n].name.as_str()))),
            None if import.names.is_empty() => calls.push((module, None)),
            None => calls.extend(import.names.iter().map(|n| (module, Some(n.name.as_str())))),
        }
    }
    calls
}

/// (module, local name) of every name `imports` bind.
fn bindings(imports: &[Import]) -> Vec<(String, String)> {
    imports.iter().flat_map(import_bindings).collect()
}

fn import_bindings(import: &Import) -> Vec<(String, String)> {
    if import.names.is_empty() {
        return vec![binding(import, "*")];
    }
    import
        .names
        .iter()
        .map(|n| binding(import, n.local_name()))
        .collect()
}

fn binding(import: &Import, local: &str) -> (String, String) {
    (import.module_path.clone(), local.to_string())
}

/// The deletion of one file, with the uses of its declarations in other
/// files listed (they break: applying needs `force`).
fn file_changes(
    analysis: &Analysis,
    files: &[Arc<FileEntry>],
    path: &str,
) -> Result<(Vec<DocumentChange>, Vec<Warning>), RefactorError> {
    let [file] = files else {
        return Err(RefactorError::WrongKind {
            target: path.to_string(),
            kind: "file".into(),
            found: format!("folder of {} source files", files.len()),
            expected: "one file",
        });
    };
    let table = analysis.table();
    let graph = analysis.graph()?;
    let mut uses = Vec::new();
    if let (Some(number), Ok(facts)) = (table.file_number(&file.path), file.facts()) {
        for symbol in 0..facts.symbols.len() as u32 {
            let node = Node::Symbol(SymbolRef {
                file: number,
                symbol,
            });
            for (edge, from) in graph.edges(node, Direction::Incoming) {
                if edge.kind == EdgeKind::Contains || from.file() == number {
                    continue;
                }
                if let Some(site) = edge.site().and_then(|s| SiteView::new(table, s)) {
                    uses.push(site.label());
                }
            }
        }
    }
    uses.sort();
    uses.dedup();
    let mut warnings = Vec::new();
    if !uses.is_empty() {
        warnings.push(Warning::listed(
            warning::POTENTIAL_BEHAVIOR_CHANGE,
            format!(
                "{} uses in other files name declarations of `{}`, which they would lose; remove or move them first, or apply with `force`",
                uses.len(),
                file.path
            ),
            uses,
        ));
    }
    Ok((
        vec![DocumentChange::File(FileOperation::Delete {
            uri: file.path.clone(),
        })],
        warnings,
    ))
}
