//! Macro definitions routed to the files that invoke them: which other
//! file's definition each name a file leaves unexpanded stands for, and the
//! re-analysis of the files whose given definitions changed.
//!
//! The host knows no language's macros: the plugins say what a file
//! defines (name, text, whether other packages see it) and which
//! invocations it could not expand; the host matches names, package by
//! package, and hands the texts back.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::{Arc, Mutex};

use lingo_model::validate::{self, FactLimits};
use lingo_model::{
    FileFacts, MacroSource, Manifest, RoutedInvocation, UnexpandedReason, macros_digest,
};
use lingo_runtime::{LanguagePlugin, PluginError};

use lingo_model::sync::lock;

use crate::FileEntry;

/// Rounds of routing per refresh: a definition handed over may expand to
/// invocations of further macros, found only by expanding it. The vendored
/// sources of tokio, serde, syn, regex, clap, hyper and rayon settle after
/// 7 (1,286 files, then 213, 116, 52, 52, 17, 1); a refresh that stops
/// short leaves the next start to expand and resolve again.
pub(crate) const MAX_ROUNDS: usize = 16;
/// Definitions handed to one file.
pub(crate) const MAX_GIVEN: usize = 256;
/// Bytes of definition text handed to one file.
pub(crate) const MAX_GIVEN_BYTES: usize = 1 << 20;

/// One definition the workspace has (copied out of its file, so that the
/// files can be replaced while the environment is in use).
struct Definition {
    path: Box<str>,
    package: Option<Box<str>>,
    exported: bool,
    text: Box<str>,
}

/// The workspace's macro definitions by name.
pub(crate) struct MacroEnvironment {
    by_name: HashMap<Box<str>, Vec<Definition>>,
}

/// The package a file's facts place it in (its first module's).
fn package(entry: &FileEntry) -> Option<&str> {
    let facts = entry.facts.as_ref().ok()?;
    facts.modules.first()?.crate_or_package.as_deref()
}

impl MacroEnvironment {
    /// The definitions every file's facts list, with their texts.
    pub(crate) fn of<'a>(files: impl IntoIterator<Item = &'a Arc<FileEntry>>) -> Self {
        let mut by_name: HashMap<Box<str>, Vec<Definition>> = HashMap::new();
        for entry in files {
            let Ok(facts) = &entry.facts else { continue };
            if facts.macro_definitions.is_empty() {
                continue;
            }
            let source = entry.source();
            for definition in &facts.macro_definitions {
                let span = &definition.span;
                // Validated facts: the span is inside the text, on
                // character boundaries.
                let Some(text) = source.get(span.start.offset as usize..span.end.offset as usize)
                else {
                    continue;
                };
                by_name
                    .entry(definition.name.as_str().into())
                    .or_default()
                    .push(Definition {
                        path: entry.path.as_str().into(),
                        package: package(entry).map(Into::into),
                        exported: definition.exported,
                        text: text.into(),
                    });
            }
        }
        MacroEnvironment { by_name }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.by_name.is_empty()
    }

    /// The definitions `entry` is to be given: for each name it leaves
    /// undefined or was given before, the one definition it sees (its own
    /// package's, else an exported one; the nearest by path, then the
    /// first by path), in name order, within [`MAX_GIVEN`] and
    /// [`MAX_GIVEN_BYTES`].
    pub(crate) fn sources_for(&self, path: &str, facts: &FileFacts) -> Vec<MacroSource> {
        let names: BTreeSet<&str> = facts
            .unexpanded_macros
            .iter()
            .filter(|u| u.reason == UnexpandedReason::Undefined)
            .map(|u| u.name.as_str())
            .chain(facts.macros_given.iter().map(|(name, _)| name.as_str()))
            .collect();
        if names.is_empty() || self.by_name.is_empty() {
            return Vec::new();
        }
        let own_package = facts
            .modules
            .first()
            .and_then(|m| m.crate_or_package.as_deref());
        let mut given = Vec::new();
        let mut bytes = 0;
        for name in names {
            let Some(candidates) = self.by_name.get(name) else {
                continue;
            };
            let best = candidates
                .iter()
                .filter(|d| *d.path != *path)
                .filter(|d| {
                    d.exported || (d.package.is_some() && d.package.as_deref() == own_package)
                })
                .min_by_key(|d| {
                    (
                        d.package.as_deref() != own_package || own_package.is_none(),
                        std::cmp::Reverse(shared_prefix(&d.path, path)),
                        &d.path,
                    )
                });
            let Some(best) = best else { continue };
            bytes += best.text.len();
            if given.len() == MAX_GIVEN || bytes > MAX_GIVEN_BYTES {
                break;
            }
            given.push(MacroSource {
                name: name.to_string(),
                path: best.path.to_string(),
                text: best.text.to_string(),
            });
        }
        given
    }
}

/// How many leading path segments `a` and `b` share.
fn shared_prefix(a: &str, b: &str) -> usize {
    a.split('/')
        .zip(b.split('/'))
        .take_while(|(x, y)| x == y)
        .count()
}

/// What routing shows the files as they change.
pub(crate) type Progress<'a> = dyn Fn(&BTreeMap<String, Arc<FileEntry>>) + Sync + 'a;

/// Route definitions to invokers until nothing changes (at most
/// [`MAX_ROUNDS`]): each file whose definitions to be given differ from
/// those its facts were made with is analysed again with them, on all
/// cores. Each file's new entry replaces its old one in `files` as soon as
/// it is made, and `progress` is shown the files then (a first index
/// publishes them), so that the old facts can go while the round runs
/// instead of being held beside the new ones to its end. Returns the
/// entries analysed again (to be stored), by path.
pub(crate) fn route(
    files: &mut BTreeMap<String, Arc<FileEntry>>,
    manifests: &[Manifest],
    progress: &Progress<'_>,
) -> BTreeMap<String, Arc<FileEntry>> {
    let mut routed = BTreeMap::new();
    for round in 0..MAX_ROUNDS {
        let environment = MacroEnvironment::of(files.values());
        let work: Vec<Arc<FileEntry>> = files
            .values()
            .filter(|entry| given_changed(entry, &environment))
            .cloned()
            .collect();
        if work.is_empty() {
            break;
        }
        tracing::debug!(round, files = work.len(), "macro definitions routed");
        if round + 1 == MAX_ROUNDS {
            // What this round changes may call for another, left to the
            // next refresh, which goes on from here.
            tracing::info!(
                files = work.len(),
                "macro routing's last round this refresh"
            );
        }
        let shared = Mutex::new((std::mem::take(files), std::mem::take(&mut routed)));
        analyse_all(work, &environment, manifests, |again| {
            let mut guard = lock(&shared);
            let (files, routed) = &mut *guard;
            routed.insert(again.path.clone(), again.clone());
            files.insert(again.path.clone(), again);
            progress(files);
        });
        (*files, routed) = shared.into_inner().unwrap_or_else(|p| p.into_inner());
    }
    routed
}

/// Whether the definitions `entry` is to be given differ from those its
/// facts were made with.
fn given_changed(entry: &FileEntry, environment: &MacroEnvironment) -> bool {
    let Ok(facts) = &entry.facts else {
        return false;
    };
    if environment.is_empty() && facts.macros_given.is_empty() {
        return false;
    }
    macros_digest(&environment.sources_for(&entry.path, facts)) != facts.macros_digest
}

/// Analyse each file of `work` again with the definitions `environment`
/// gives it, on all cores, handing each new entry to `done` as it is made.
/// A file the plugin now fails on keeps its facts.
fn analyse_all(
    work: Vec<Arc<FileEntry>>,
    environment: &MacroEnvironment,
    manifests: &[Manifest],
    done: impl Fn(Arc<FileEntry>) + Sync,
) {
    let workers = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .min(work.len());
    let queue = Mutex::new(work);
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                loop {
                    let Some(entry) = lock(&queue).pop() else {
                        break;
                    };
                    // A panic analysing one file costs that file only.
                    let again = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        let facts = entry.facts.as_ref().ok()?;
                        let sources = environment.sources_for(&entry.path, facts);
                        analyse(&entry, &sources, manifests)
                    }));
                    match again {
                        Ok(Some(again)) => done(Arc::new(again)),
                        Ok(None) => {}
                        Err(_) => tracing::error!(path = %entry.path, "analysing the file with its macros panicked; it keeps its facts"),
                    }
                }
            });
        }
    });
}

/// `entry` analysed again with `sources`, validated as every fact is.
pub(crate) fn analyse(
    entry: &FileEntry,
    sources: &[MacroSource],
    manifests: &[Manifest],
) -> Option<FileEntry> {
    let source = entry.source();
    let facts = entry
        .plugin
        .analyze_expanding(&entry.path, &source, manifests, sources)
        .inspect_err(|error| {
            tracing::warn!(path = %entry.path, %error, "file could not be analysed with the macros it invokes");
        })
        .ok()?;
    let (mut facts, report) = validate::check(facts, &source, &FactLimits::default());
    if let Ok(before) = &entry.facts {
        facts.routed_invocations = routed_invocations(before, &facts);
    }
    Some(FileEntry {
        facts: Ok(Arc::new(facts)),
        repairs: report.broken_rules(),
        ..crate::clone_entry(entry)
    })
}

/// `plugin`'s facts of `text` at `path` (a file's text not yet on disk, or
/// one just read), with the definitions `files` hold of the macros it
/// invokes: analysed once, and once more with them where it invokes any.
pub(crate) fn analyse_text<'a>(
    files: impl IntoIterator<Item = &'a Arc<FileEntry>>,
    plugin: &dyn LanguagePlugin,
    path: &str,
    text: &str,
    manifests: &[Manifest],
) -> Result<FileFacts, PluginError> {
    let facts = plugin.analyze(path, text, manifests)?;
    // Only names are looked up: the facts are validated by the caller.
    let environment = MacroEnvironment::of(files);
    let sources = environment.sources_for(path, &facts);
    if sources.is_empty() {
        return Ok(facts);
    }
    let mut expanded = plugin.analyze_expanding(path, text, manifests, &sources)?;
    expanded.routed_invocations = routed_invocations(&facts, &expanded);
    Ok(expanded)
}

/// The invocations of given definitions in `after` (an analysis of the
/// same text with the definitions it names in `macros_given`) that
/// `before` left undefined or had already routed: those of a name it was
/// given that it no longer reports undefined at the same place (expanded,
/// or left for another reason). Each invokes the definition given for its
/// name.
fn routed_invocations(before: &FileFacts, after: &FileFacts) -> Vec<RoutedInvocation> {
    let given: BTreeSet<&str> = after
        .macros_given
        .iter()
        .map(|(name, _)| name.as_str())
        .collect();
    let left: BTreeSet<(&str, u32)> = after
        .unexpanded_macros
        .iter()
        .filter(|u| u.reason == UnexpandedReason::Undefined)
        .map(|u| (u.name.as_str(), u.span.start.offset))
        .collect();
    let mut out: Vec<RoutedInvocation> = before
        .unexpanded_macros
        .iter()
        .filter(|u| u.reason == UnexpandedReason::Undefined)
        .map(|u| RoutedInvocation {
            name: u.name.clone(),
            span: u.span,
        })
        .chain(before.routed_invocations.iter().cloned())
        .filter(|i| {
            given.contains(i.name.as_str())
                && !left.contains(&(i.name.as_str(), i.span.start.offset))
        })
        .collect();
    out.sort_by_key(|i| (i.span.start.offset, i.name.clone()));
    out.dedup();
    out
}
