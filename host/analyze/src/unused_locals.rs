//! `analyze.dead_code` of kinds `unused_variables` and `unused_parameters`:
//! local bindings no reference of their file resolves to, from the
//! plugins' locals and the references linked to them (a file's own facts
//! see all of a local's uses, so the reference set is complete).
//!
//! Kept out, because the source may use them where no reference is
//! written: names the plugin's policy says are unused on purpose (a `_`
//! prefix, a receiver such as Python's `self`), names written as a word
//! anywhere else in the binding's scope (a format string, a macro body);
//! for parameters also those of a declaration its plugin names an entry
//! point (an implementation of a trait or interface method, a test, a
//! callback for foreign code: the signature is not theirs to change) and of
//! a declaration without a measured body (an interface member, or one
//! whose modifiers the policy calls bodiless).
//!
//! Variables are medium, parameters low (a parameter may be kept for a
//! signature's sake).

use std::collections::HashSet;
use std::sync::Arc;

use serde_json::{Map, json};

use super::{Finding, Location, Severity};
use lingo_analysis::Range;
use lingo_index::FileEntry;
use lingo_model::{FileFacts, LanguagePolicy, Local};

/// The unused locals of `files`: variables (and patterns' bindings), or
/// parameters.
pub fn unused_locals(files: &[Arc<FileEntry>], parameters: bool) -> Vec<Finding> {
    let mut findings = Vec::new();
    for file in files {
        let Ok(facts) = file.facts() else { continue };
        let policy = &file.plugin.info().policy;
        let mut used = vec![false; facts.locals.len()];
        // Computed once per file, so that each parameter costs a lookup.
        let holders = if parameters {
            innermost_holders(facts)
        } else {
            Vec::new()
        };
        let measured: HashSet<u32> = facts.metrics.iter().map(|m| m.symbol).collect();
        for reference in &facts.references {
            if let Some(used) = reference.local.get().and_then(|l| used.get_mut(l as usize)) {
                *used = true;
            }
        }
        for (index, local) in facts.locals.iter().enumerate() {
            if used[index] || !judged(local, parameters, policy) {
                continue;
            }
            let holder = holders.get(index).copied().flatten();
            if parameters && !parameter_may_go(facts, holder, &measured, policy) {
                continue;
            }
            if named_elsewhere(&file.source(), local) {
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

/// Whether `local` is of the kind asked and may be unused by mistake (its
/// name does not say it is unused on purpose).
fn judged(local: &Local, parameters: bool, policy: &LanguagePolicy) -> bool {
    let is_parameter = local.language_kind == "parameter";
    let binding = matches!(local.language_kind.as_str(), "variable" | "pattern");
    (if parameters { is_parameter } else { binding })
        && !local.name.is_empty()
        && !policy.unused_locals.matches(&local.name)
}

/// Whether a parameter's declaration (`holder`, the innermost declaration
/// around it) may change its signature: it has a measured body, is no
/// member of an interface or trait and has no modifier its policy calls
/// bodiless (`abstract`, `extern`...), and its plugin names it no entry
/// point.
fn parameter_may_go(
    facts: &FileFacts,
    holder: Option<u32>,
    measured: &HashSet<u32>,
    policy: &LanguagePolicy,
) -> bool {
    let Some(holder) = holder else { return false };
    let Some(symbol) = facts.symbols.get(holder as usize) else {
        return false;
    };
    let in_interface = symbol
        .container
        .and_then(|c| facts.symbols.get(c as usize))
        .is_some_and(|c| c.kind == lingo_model::SymbolKind::Interface);
    let bodiless = symbol
        .modifiers
        .iter()
        .any(|m| policy.bodiless_modifiers.contains(m));
    let has_body = !in_interface && !bodiless && measured.contains(&holder);
    let entry = facts
        .entry_points
        .as_ref()
        .is_none_or(|entries| entries.iter().any(|e| e.symbol == holder));
    has_body && !entry
}

/// For each local of `facts`, the innermost declaration whose span holds
/// it: one sweep over the declarations and the locals, both by start
/// (declarations nest, so the open ones form a stack).
fn innermost_holders(facts: &FileFacts) -> Vec<Option<u32>> {
    let mut declarations: Vec<usize> = (0..facts.symbols.len()).collect();
    // Outer before inner at one start; of equal spans, the first last, so
    // that it is on top.
    declarations.sort_by_key(|&i| {
        let span = &facts.symbols[i].span;
        (
            span.start.offset,
            std::cmp::Reverse(span.end.offset),
            std::cmp::Reverse(i),
        )
    });
    let mut locals: Vec<usize> = (0..facts.locals.len()).collect();
    locals.sort_by_key(|&i| facts.locals[i].span.start.offset);
    let mut holders = vec![None; facts.locals.len()];
    let mut open: Vec<usize> = Vec::new();
    let mut next = 0;
    for local in locals {
        let span = &facts.locals[local].span;
        while let Some(&declaration) = declarations.get(next) {
            if facts.symbols[declaration].span.start.offset > span.start.offset {
                break;
            }
            open.push(declaration);
            next += 1;
        }
        // Declarations that ended before this local ended before every
        // later one too.
        open.retain(|&d| facts.symbols[d].span.end.offset >= span.start.offset);
        holders[local] = open
            .iter()
            .rev()
            .find(|&&d| facts.symbols[d].span.end.offset >= span.end.offset)
            .map(|&d| d as u32);
    }
    holders
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
