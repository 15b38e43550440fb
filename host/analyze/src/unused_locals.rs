//! `analyze.dead_code` of kinds `unused_variables` and `unused_parameters`:
//! local bindings no reference of their file resolves to, from the
//! plugins' locals and the references linked to them (a file's own facts
//! see all of a local's uses, so the reference set is complete).
//!
//! Kept out, because the source may use them where no reference is
//! written: names starting with `_` (the languages' "unused on purpose"),
//! `self` and `this`, names written as a word anywhere else in the
//! binding's scope (a format string, a macro body); for parameters also
//! those of a declaration its plugin names an entry point (an
//! implementation of a trait or interface method, a test, a callback for
//! foreign code: the signature is not theirs to change) and of a
//! declaration without a measured body (a trait or interface method).
//!
//! Variables are medium, parameters low (a parameter may be kept for a
//! signature's sake).

use std::sync::Arc;

use serde_json::{Map, json};

use super::{Finding, Location, Severity};
use lingo_analysis::Range;
use lingo_index::FileEntry;
use lingo_model::{FileFacts, Local};

/// The unused locals of `files`: variables (and patterns' bindings), or
/// parameters.
pub fn unused_locals(files: &[Arc<FileEntry>], parameters: bool) -> Vec<Finding> {
    let mut findings = Vec::new();
    for file in files {
        let Ok(facts) = file.facts() else { continue };
        let mut used = vec![false; facts.locals.len()];
        for reference in &facts.references {
            if let Some(used) = reference.local.get().and_then(|l| used.get_mut(l as usize)) {
                *used = true;
            }
        }
        for (index, local) in facts.locals.iter().enumerate() {
            if used[index] || !judged(local, parameters) {
                continue;
            }
            if parameters && !parameter_may_go(facts, local) {
                continue;
            }
            if named_elsewhere(&file.source, local) {
                continue;
            }
            let (kind, severity, what) = if parameters {
                ("unused_parameter", Severity::Low, "parameter")
            } else {
                ("unused_variable", Severity::Medium, "variable")
            };
            let mut metrics = Map::new();
            metrics.insert("occurrences".into(), json!(0));
            findings.push(Finding {
                id: String::new(),
                kind,
                severity,
                location: Location {
                    file_path: file.path.clone(),
                    range: Range::from(&local.span),
                },
                symbol: None,
                metrics,
                message: format!("{what} `{}` is never used", local.name),
                suggestions: Vec::new(),
            });
        }
    }
    findings
}

/// Whether `local` is of the kind asked and may be unused by mistake.
fn judged(local: &Local, parameters: bool) -> bool {
    let is_parameter = local.language_kind == "parameter";
    let binding = matches!(local.language_kind.as_str(), "variable" | "pattern");
    (if parameters { is_parameter } else { binding })
        && !local.name.starts_with('_')
        && !matches!(local.name.as_str(), "self" | "this" | "")
}

/// Whether a parameter's declaration may change its signature: it has a
/// measured body, is no member of an interface or trait and no abstract or
/// external declaration, and its plugin names it no entry point.
fn parameter_may_go(facts: &FileFacts, local: &Local) -> bool {
    // The innermost declaration holding the parameter.
    let holder = facts
        .symbols
        .iter()
        .enumerate()
        .filter(|(_, s)| {
            s.span.start.offset <= local.span.start.offset
                && local.span.end.offset <= s.span.end.offset
        })
        .min_by_key(|(_, s)| s.span.end.offset - s.span.start.offset)
        .map(|(i, _)| i as u32);
    let Some(holder) = holder else { return false };
    let symbol = &facts.symbols[holder as usize];
    let in_interface = symbol
        .container
        .and_then(|c| facts.symbols.get(c as usize))
        .is_some_and(|c| c.kind == lingo_model::SymbolKind::Interface);
    let bodiless = symbol
        .modifiers
        .iter()
        .any(|m| matches!(m.as_str(), "abstract" | "extern" | "declare"));
    let has_body = !in_interface && !bodiless && facts.metrics.iter().any(|m| m.symbol == holder);
    let entry = facts
        .entry_points
        .as_ref()
        .is_none_or(|entries| entries.iter().any(|e| e.symbol == holder));
    has_body && !entry
}

/// Whether `local`'s name is written as a word in its scope outside its own
/// binding.
fn named_elsewhere(source: &str, local: &Local) -> bool {
    let (start, end) = (
        local.scope.start.offset as usize,
        local.scope.end.offset as usize,
    );
    let Some(scope) = source.get(start..end) else {
        return true;
    };
    let own = local.span.start.offset as usize;
    let word = |c: char| c.is_alphanumeric() || c == '_';
    scope.match_indices(local.name.as_str()).any(|(at, _)| {
        let absolute = start + at;
        let before = scope[..at].chars().next_back();
        let after = scope[at + local.name.len()..].chars().next();
        absolute != own && !before.is_some_and(word) && !after.is_some_and(word)
    })
}
