//! `delete` of dead code: the declarations [`Analysis::dead_code`] finds
//! unused, each taken out with its doc comments and attributes by the
//! plugin's `declaration-extent`, then the imports only they used removed
//! by `remove-import`; every edited file parsed again.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

use super::RefactorError;
use super::delete::{Removal, remove, unused_in};
use super::edit;
use super::plan::{DocumentChange, DocumentId, TextDocumentEdit, Warning, warning};
use crate::reanalyse::reanalyse;
use lingo_analysis::{Analysis, DeadDeclaration, SymbolRef};
use lingo_index::FileEntry;
use lingo_model::FileFacts;

/// The edits deleting the dead code of `files`, and the warnings: what was
/// kept and why, and whether the judgement could see everything.
pub(super) fn dead_code_changes(
    analysis: &Analysis,
    files: &[Arc<FileEntry>],
) -> Result<(Vec<DocumentChange>, Vec<Warning>), RefactorError> {
    // A declaration the plugin cannot take out stays, and so does what it
    // uses: judged again with it pinned, until every dead one comes out
    // (each round pins one more at least, so at most one round each).
    let mut pinned: HashSet<SymbolRef> = HashSet::new();
    let mut extents: HashMap<SymbolRef, Result<(usize, usize), String>> = HashMap::new();
    let mut judged = analysis.dead_code(files, &pinned)?;
    for _round in 0..=judged.dead.len() {
        let mut stuck = false;
        for dead in &judged.dead {
            let extent = extents
                .entry(dead.symbol)
                .or_insert_with(|| extent_of(analysis, dead));
            if extent.is_err() && pinned.insert(dead.symbol) {
                stuck = true;
            }
        }
        if !stuck {
            break;
        }
        judged = analysis.dead_code(files, &pinned)?;
    }
    let unremovable: Vec<String> = pinned
        .iter()
        .filter_map(|symbol| match extents.get(symbol) {
            Some(Err(reason)) => Some(reason.clone()),
            _ => None,
        })
        .collect();
    let mut by_path: BTreeMap<&str, Vec<(usize, usize)>> = BTreeMap::new();
    for dead in &judged.dead {
        if let Some(Ok(extent)) = extents.get(&dead.symbol) {
            by_path.entry(&dead.file_path).or_default().push(*extent);
        }
    }
    let mut changes = Vec::new();
    let mut failed = Vec::new();
    let mut kept_imports = Vec::new();
    for (path, extents) in by_path {
        let file = analysis.file(path)?;
        let Ok(facts) = file.facts() else { continue };
        match delete_in(analysis, &file, facts, extents) {
            Ok(Deleted { text, uncertain }) => {
                kept_imports.extend(uncertain);
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
            Err(reason) => failed.push(format!("{path}: {reason}")),
        }
    }
    let mut warnings = Vec::new();
    if let Some(incomplete) = &judged.incompleteness {
        warnings.push(Warning {
            code: warning::INCOMPLETE_REFERENCES.into(),
            message: format!(
                "a use of the declarations found dead may be missed: {}; apply with `force` if the build agrees",
                incomplete.incomplete_reasons.join("; ")
            ),
            sites: Vec::new(),
        });
    }
    if !judged.kept.is_empty() {
        warnings.push(Warning {
            code: warning::PARTIAL_APPLY.into(),
            message: format!(
                "{} private declarations no reference resolves to are kept: their name is written elsewhere (a macro, an attribute, a string, a same-named use), which may be a use",
                judged.kept.len()
            ),
            sites: judged
                .kept
                .iter()
                .take(Warning::MAX_SITES)
                .map(|k| {
                    let d = &k.declaration;
                    format!(
                        "{}:{}:{} {} (named at {})",
                        d.file_path,
                        d.range.start.line + 1,
                        d.range.start.character + 1,
                        d.qualified_name,
                        k.mentioned_at.join(", ")
                    )
                })
                .collect(),
        });
    }
    if !judged.unjudged_files.is_empty() {
        warnings.push(Warning {
            code: warning::PARTIAL_APPLY.into(),
            message: format!(
                "{} files are not judged: their plugin does not say which declarations are entry points (ABI 0.4.0's `entry-points`)",
                judged.unjudged_files.len()
            ),
            sites: judged
                .unjudged_files
                .iter()
                .take(Warning::MAX_SITES)
                .cloned()
                .collect(),
        });
    }
    if !unremovable.is_empty() {
        warnings.push(Warning::listed(
            warning::PARTIAL_APPLY,
            format!(
                "{} dead declarations are kept, with what they use: their plugin cannot take them out",
                unremovable.len()
            ),
            unremovable,
        ));
    }
    if !failed.is_empty() {
        warnings.push(Warning::listed(
            warning::PARTIAL_APPLY,
            format!(
                "{} file(s) keep their dead code: their plugin could not take it out cleanly",
                failed.len()
            ),
            failed,
        ));
    }
    if !kept_imports.is_empty() {
        warnings.push(Warning::listed(
            warning::PARTIAL_APPLY,
            format!(
                "{} imports only the deleted code named are kept: the file calls members lingo cannot resolve, which they may serve",
                kept_imports.len()
            ),
            kept_imports,
        ));
    }
    Ok((changes, warnings))
}

/// One file's text with its dead code gone.
struct Deleted {
    text: String,
    /// Imports only the dead code named that may still serve member calls
    /// (`path:line:column`), kept.
    uncertain: Vec<String>,
}

/// The bytes deleting `dead` takes out of its file (the plugin's
/// `declaration-extent`, checked to hold the declaration), or why not
/// (`path:line:column name: reason`).
fn extent_of(analysis: &Analysis, dead: &DeadDeclaration) -> Result<(usize, usize), String> {
    let place = format!(
        "{}:{}:{} {}",
        dead.file_path,
        dead.range.start.line + 1,
        dead.range.start.character + 1,
        dead.qualified_name
    );
    let file = analysis
        .file(&dead.file_path)
        .map_err(|e| format!("{place}: {e}"))?;
    let facts = file.facts().map_err(|e| format!("{place}: {e}"))?;
    let symbol = facts
        .symbols
        .get(dead.symbol.symbol as usize)
        .ok_or_else(|| format!("{place}: no longer indexed"))?;
    let (start, end) = file
        .plugin
        .declaration_extent(&file.path, &file.source(), &symbol.span)
        .map_err(|e| format!("{place}: {e}"))?;
    let (start, end) = (start as usize, end as usize);
    let holds_it = start <= symbol.span.start.offset as usize
        && symbol.span.end.offset as usize <= end
        && end <= file.source().len()
        && file.source().is_char_boundary(start)
        && file.source().is_char_boundary(end);
    if !holds_it {
        return Err(format!(
            "{place}: `declaration-extent` answered {start}..{end}, which does not hold the declaration"
        ));
    }
    // Nothing but the declaration and what it holds may go with it.
    let (own_start, own_end) = (symbol.span.start.offset, symbol.span.end.offset);
    let takes_another = facts.symbols.iter().any(|other| {
        let (s, e) = (other.span.start.offset, other.span.end.offset);
        let in_extent = start <= s as usize && (s as usize) < end;
        in_extent && !(own_start <= s && e <= own_end)
    });
    if takes_another {
        return Err(format!(
            "{place}: `declaration-extent` answered {start}..{end}, which takes other declarations with it"
        ));
    }
    Ok((start, end))
}

/// `file`'s text without the byte ranges `extents` (and without what only
/// they imported), checked by parsing it again: no syntax error added.
fn delete_in(
    analysis: &Analysis,
    file: &Arc<FileEntry>,
    facts: &FileFacts,
    extents: Vec<(usize, usize)>,
) -> Result<Deleted, String> {
    super::rename::check_editable(file).map_err(|e| e.to_string())?;
    let extents = merged(extents);
    let edits: Vec<(u32, u32, String)> = extents
        .iter()
        .map(|&(start, end)| (start as u32, end as u32, String::new()))
        .collect();
    let text = edit::apply_bytes(&file.source(), &edits).map_err(|e| e.to_string())?;

    // Imports the dead code used and nothing else does.
    let before: Vec<Removal> = unused_in(analysis, file, facts, &[]).removals;
    let after: Vec<Removal> = unused_in(analysis, file, facts, &extents).removals;
    let newly: Vec<Removal> = after
        .into_iter()
        .filter(|r| {
            !before
                .iter()
                .any(|b| b.import == r.import && b.name == r.name)
        })
        .collect();
    let uncertain = newly
        .iter()
        .filter(|r| !r.certain)
        .map(|r| {
            let import = &facts.imports[r.import];
            let span = r.name.map_or(import.span, |n| import.names[n].span);
            format!(
                "{}:{}:{}",
                file.path,
                span.start.line + 1,
                span.start.character + 1
            )
        })
        .collect();
    let certain: Vec<Removal> = newly.into_iter().filter(|r| r.certain).collect();
    if !certain.is_empty() {
        let text = remove(analysis, file, facts, (text, &extents), &certain)?;
        return Ok(Deleted { text, uncertain });
    }
    let after = reanalyse(&*file.plugin, &file.path, &text, analysis.snapshot())
        .map_err(|e| format!("the edited text could not be parsed again: {e}"))?;
    if after.syntax_errors() > facts.syntax_errors() {
        return Err(format!(
            "deleting would leave {} syntax errors instead of {}",
            after.syntax_errors(),
            facts.syntax_errors()
        ));
    }
    Ok(Deleted { text, uncertain })
}

/// Byte ranges sorted, those inside or overlapping another joined.
fn merged(mut ranges: Vec<(usize, usize)>) -> Vec<(usize, usize)> {
    ranges.sort();
    let mut out: Vec<(usize, usize)> = Vec::with_capacity(ranges.len());
    for (start, end) in ranges {
        match out.last_mut() {
            Some(last) if start < last.1 => last.1 = last.1.max(end),
            _ => out.push((start, end)),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::merged;

    #[test]
    fn nested_and_overlapping_ranges_are_joined() {
        assert_eq!(
            merged(vec![(10, 20), (0, 5), (12, 15), (18, 25), (25, 30)]),
            [(0, 5), (10, 25), (25, 30)]
        );
    }
}
