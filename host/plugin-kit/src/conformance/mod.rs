//! The plugin conformance kit: runs any plugin against language-neutral
//! fixtures (tiny workspaces plus an `expected.json`) and reports precise
//! differences. The format is documented in `sdk/README.md`, "Conformance
//! fixtures"; `lingo plugin test` and `host/tests/conformance.rs` drive it.

mod diff;
mod facts;
mod fixture;
mod matching;
mod resolution;
#[cfg(test)]
mod tests;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use diff::Failure;

use lingo_model::{FileFacts, Manifest};
use lingo_runtime::{LanguagePlugin, Limits, PluginError, PluginRegistry, RuntimeConfig};

/// Why a plugin could not be loaded for testing.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The runtime refused the file; `message` names it and says why.
    #[error("{message}")]
    Refused {
        file: String,
        code: &'static str,
        message: String,
    },
    #[error("{file}: cannot start the plugin runtime: {reason}")]
    Runtime { file: String, reason: String },
}

/// Why fixtures could not be run at all (a broken case is a failure instead).
#[derive(Debug, thiserror::Error)]
pub enum ConformanceError {
    #[error("fixtures directory {dir}: {reason}")]
    FixturesUnreadable { dir: String, reason: String },
    #[error("fixtures directory {dir} holds no cases (directories with an expected.json)")]
    NoCases { dir: String },
}

/// Load `wasm` the way `lingo serve --plugin` does (same ABI check, same
/// sandbox), without the built-in plugins.
pub fn load_plugin(
    wasm: &Path,
    cache_dir: Option<PathBuf>,
) -> Result<Arc<dyn LanguagePlugin>, LoadError> {
    let file = wasm.display().to_string();
    let registry = PluginRegistry::load(&RuntimeConfig {
        extra_plugins: vec![wasm.to_path_buf()],
        include_built_in: false,
        cache_dir,
        limits: Limits::default(),
        extension_owners: Default::default(),
        compilation: Default::default(),
    })
    .map_err(|e| LoadError::Runtime {
        file: file.clone(),
        reason: format!("{e:#}"),
    })?;
    if let Some(failure) = registry.failures().first() {
        return Err(LoadError::Refused {
            file: failure.origin.clone(),
            code: failure.code,
            message: failure.message.clone(),
        });
    }
    registry
        .plugins()
        .first()
        .cloned()
        .ok_or_else(|| LoadError::Runtime {
            file,
            reason: "the runtime loaded no plugin from it".into(),
        })
}

/// One line about the plugin: name, version, ABI, languages, extensions,
/// manifests and origin.
pub fn describe(plugin: &dyn LanguagePlugin) -> String {
    let info = plugin.info();
    format!(
        "plugin {} {}, ABI {}, languages {}, extensions {}, manifests {} ({})",
        info.name,
        info.version,
        info.abi_version,
        info.languages.join(" "),
        info.extensions.join(" "),
        if info.manifests.is_empty() {
            "-".to_string()
        } else {
            info.manifests.join(" ")
        },
        plugin.origin()
    )
}

/// The outcome of one case.
#[derive(Debug)]
pub struct CaseReport {
    pub name: String,
    /// Files with expectations.
    pub files: usize,
    pub checks: usize,
    pub failures: Vec<Failure>,
}

/// The outcome of a fixtures directory.
#[derive(Debug)]
pub struct Report {
    pub cases: Vec<CaseReport>,
}

impl Report {
    pub fn failures(&self) -> impl Iterator<Item = &Failure> {
        self.cases.iter().flat_map(|c| &c.failures)
    }

    pub fn passed(&self) -> bool {
        self.failures().next().is_none()
    }

    /// `0` when every check passed, `1` otherwise.
    pub fn exit_code(&self) -> i32 {
        if self.passed() { 0 } else { 1 }
    }

    /// `N cases, M files, K checks, F failures`.
    pub fn summary(&self) -> String {
        diff::summary(
            self.cases.len(),
            self.cases.iter().map(|c| c.files).sum(),
            self.cases.iter().map(|c| c.checks).sum(),
            self.failures().count(),
        )
    }

    /// Per case an `ok` line or its failures, then the summary.
    pub fn render(&self) -> String {
        let mut out = String::new();
        for case in &self.cases {
            if case.failures.is_empty() {
                out += &format!(
                    "ok   {} ({} files, {} checks)\n",
                    case.name, case.files, case.checks
                );
            }
            for failure in &case.failures {
                out += &format!("{failure}\n");
            }
        }
        out + &self.summary() + "\n"
    }
}

/// Run every case under `fixtures` against `plugin`.
pub fn run(plugin: &Arc<dyn LanguagePlugin>, fixtures: &Path) -> Result<Report, ConformanceError> {
    let cases = fixture::case_dirs(fixtures)?
        .into_iter()
        .map(|(name, dir)| run_case(plugin, &name, &dir))
        .collect();
    Ok(Report { cases })
}

/// A case's files as the plugin saw them: the manifests it reads and the
/// facts of each file it analysed.
struct Analyzed {
    manifests: Vec<Manifest>,
    files: BTreeMap<String, FileFacts>,
    /// The text of each file the plugin analysed.
    sources: BTreeMap<String, String>,
}

impl Analyzed {
    /// The case indexed as the server indexes it, for `definitions`.
    fn index(&self, plugin: &Arc<dyn LanguagePlugin>) -> resolution::CaseIndex {
        resolution::CaseIndex::new(plugin, &self.manifests, &self.sources)
    }
}

/// The actual entries of `category` for `path`: the plugin's facts, or
/// for `definitions` the server's resolution of the references that start
/// where `positions` say (every reference when `positions` is empty).
fn actual_entries(
    category: &fixture::Category,
    facts: &FileFacts,
    path: &str,
    index: &mut dyn FnMut() -> Arc<resolution::CaseIndex>,
    positions: &BTreeSet<String>,
) -> Result<Vec<facts::Actual>, String> {
    if category.kind != fixture::Kind::Definitions {
        return Ok(facts::entries(category, facts));
    }
    let mut entries = index().definitions(path)?;
    if !positions.is_empty() {
        entries.retain(|e| {
            e.fields
                .get("at")
                .and_then(serde_json::Value::as_str)
                .is_some_and(|at| positions.contains(at))
        });
    }
    Ok(entries)
}

/// The `at` positions the entries give.
fn positions(entries: &[fixture::Entry]) -> BTreeSet<String> {
    entries
        .iter()
        .flatten()
        .filter(|(field, _)| *field == "at")
        .filter_map(|(_, value)| value.as_str().map(str::to_string))
        .collect()
}

/// Run `plugin` over the files of `case` it claims; a file it cannot read
/// or analyse is a failure, given to `fail`.
fn analyze_case(
    plugin: &dyn LanguagePlugin,
    case: &fixture::Case,
    fail: &mut dyn FnMut(&str, String),
) -> Analyzed {
    let info = plugin.info();
    let mut manifests = Vec::new();
    let mut sources = Vec::new();
    for path in &case.files {
        let wanted = fixture::is_manifest(path, &info.manifests);
        if !wanted && !claims(plugin, path) {
            continue;
        }
        match std::fs::read_to_string(case.dir.join(path)) {
            Ok(contents) if wanted => manifests.push(Manifest {
                path: path.clone(),
                contents,
            }),
            Ok(contents) => sources.push((path.clone(), contents)),
            Err(e) => fail(
                path,
                format!("fixture error: cannot be read as UTF-8 text: {e}"),
            ),
        }
    }
    let mut files = BTreeMap::new();
    let mut texts = BTreeMap::new();
    for (path, source) in sources {
        match plugin.analyze(&path, &source, &manifests) {
            Ok(facts) => {
                files.insert(path.clone(), facts);
                texts.insert(path, source);
            }
            Err(e) => fail(&path, format!("plugin error: {e}")),
        }
    }
    Analyzed {
        manifests,
        files,
        sources: texts,
    }
}

/// Whether `plugin` claims the extension of `path`.
fn claims(plugin: &dyn LanguagePlugin, path: &str) -> bool {
    Path::new(path)
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| {
            plugin
                .info()
                .extensions
                .iter()
                .any(|x| x.eq_ignore_ascii_case(e))
        })
}

fn run_case(plugin: &Arc<dyn LanguagePlugin>, name: &str, dir: &Path) -> CaseReport {
    let mut report = CaseReport {
        name: name.to_string(),
        files: 0,
        checks: 0,
        failures: Vec::new(),
    };
    let fail = |file: Option<&str>, category: Option<&str>, message: String| Failure {
        case: name.to_string(),
        file: file.map(str::to_string),
        category: category.map(str::to_string),
        message,
    };
    let case = match fixture::load_case(dir) {
        Ok(case) => case,
        Err(e) => {
            report
                .failures
                .push(fail(None, None, format!("fixture error: {e}")));
            return report;
        }
    };
    let info = plugin.info();
    let analyzable = |path: &str| claims(plugin.as_ref(), path);
    let whole = analyze_case(plugin.as_ref(), &case, &mut |path, message| {
        report.failures.push(fail(Some(path), None, message))
    });
    let mut indexed = None;
    let mut index = || {
        indexed
            .get_or_insert_with(|| Arc::new(whole.index(plugin)))
            .clone()
    };
    let (manifests, analyzed) = (&whole.manifests, &whole.files);

    for expectation in &case.files_expected {
        let path = expectation.path.as_str();
        report.files += 1;
        let Some(facts) = analyzed.get(path) else {
            if !case.files.iter().any(|f| f == path) {
                report.failures.push(fail(
                    Some(path),
                    None,
                    "fixture error: no such file in the case".into(),
                ));
            } else if !analyzable(path) {
                report.failures.push(fail(
                    Some(path),
                    None,
                    format!(
                        "fixture error: the plugin claims no extension of this file (it claims {})",
                        info.extensions.join(", ")
                    ),
                ));
            }
            // Otherwise the plugin failed on it, which is reported above.
            continue;
        };
        for expected in &expectation.categories {
            let category = expected.category;
            report.checks += expected.entries.len() + usize::from(expected.exhaustive);
            let named = positions(&expected.entries);
            let actual = match actual_entries(category, facts, path, &mut index, &named) {
                Ok(actual) => actual,
                Err(e) => {
                    report
                        .failures
                        .push(fail(Some(path), Some(category.name), e));
                    continue;
                }
            };
            // Definitions expected at a position where no reference starts.
            let mut nowhere = BTreeSet::new();
            if category.kind == fixture::Kind::Definitions {
                let found = positions_of(&actual);
                for (i, at) in expected.entries.iter().enumerate().filter_map(|(i, e)| {
                    e.iter()
                        .find(|(field, _)| *field == "at")
                        .and_then(|(_, at)| Some((i, at.as_str()?)))
                }) {
                    if !found.contains(at) {
                        nowhere.insert(i);
                        report.failures.push(fail(
                            Some(path),
                            Some(category.name),
                            format!(
                                "expected {} — no reference starts at {at}",
                                diff::entry(&expected.entries[i])
                            ),
                        ));
                    }
                }
            }
            let outcome =
                matching::match_category(category, &expected.entries, &actual, expected.exhaustive);
            for (i, closest) in &outcome.missing {
                if nowhere.contains(i) {
                    continue;
                }
                report.failures.push(fail(
                    Some(path),
                    Some(category.name),
                    diff::missing(&expected.entries[*i], closest, &actual),
                ));
            }
            let mut used: Vec<&str> = expected
                .entries
                .iter()
                .flat_map(|e| e.iter().map(|(field, _)| *field))
                .collect();
            used.sort_unstable();
            used.dedup();
            for j in outcome.unexpected {
                report.failures.push(fail(
                    Some(path),
                    Some(category.name),
                    diff::unexpected(category, &actual[j], &used),
                ));
            }
        }
    }

    let module_files = module_files(analyzed);
    for r in &case.resolve_imports {
        report.checks += 1;
        let category = Some("resolveImports");
        let Some(facts) = analyzed.get(&r.from) else {
            report.failures.push(fail(
                None,
                category,
                format!(
                    "{} imports {}: `from` is not a file the plugin analyzed",
                    r.from, r.import
                ),
            ));
            continue;
        };
        let candidates = match resolve(plugin.as_ref(), facts, &r.import, manifests) {
            Ok(candidates) => candidates,
            Err(e) => {
                report.failures.push(fail(
                    None,
                    category,
                    format!("{} imports {}: plugin error: {e}", r.from, r.import),
                ));
                continue;
            }
        };
        let mut problems = Vec::new();
        if let Some(modules) = &r.modules
            && *modules != candidates
        {
            problems.push(format!(
                "modules expected {}, got {}",
                diff::list(modules),
                diff::list(&candidates)
            ));
        }
        if let Some(expect) = &r.expect {
            let files = files_of(&module_files, &candidates);
            let wanted: BTreeSet<&str> = expect.iter().map(String::as_str).collect();
            if files != wanted {
                let files: Vec<String> = files.into_iter().map(str::to_string).collect();
                let wanted: Vec<String> = wanted.into_iter().map(str::to_string).collect();
                problems.push(format!(
                    "expect expected {}, got {} (candidates {})",
                    diff::list(&wanted),
                    diff::list(&files),
                    diff::list(&candidates)
                ));
            }
        }
        if !problems.is_empty() {
            if facts.modules.is_empty() {
                problems.push(format!("module-of gave {} no module", r.from));
            }
            report.failures.push(fail(
                None,
                category,
                format!("{} imports {}: {}", r.from, r.import, problems.join("; ")),
            ));
        }
    }
    report
}

/// The `at` positions of actual entries.
fn positions_of(actual: &[facts::Actual]) -> BTreeSet<&str> {
    actual
        .iter()
        .filter_map(|a| a.fields.get("at")?.as_str())
        .collect()
}

/// Which files each module path names, as the server's module map does.
fn module_files(analyzed: &BTreeMap<String, FileFacts>) -> BTreeMap<&str, BTreeSet<&str>> {
    let mut files: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for (path, facts) in analyzed {
        for module in &facts.modules {
            files
                .entry(module.path.as_str())
                .or_default()
                .insert(path.as_str());
        }
    }
    files
}

/// The files the candidate modules name.
fn files_of<'a>(
    module_files: &BTreeMap<&str, BTreeSet<&'a str>>,
    candidates: &[String],
) -> BTreeSet<&'a str> {
    candidates
        .iter()
        .filter_map(|c| module_files.get(c.as_str()))
        .flatten()
        .copied()
        .collect()
}

/// The candidate modules of `import` from every module of the importing
/// file, in order, without repeats.
fn resolve(
    plugin: &dyn LanguagePlugin,
    facts: &FileFacts,
    import: &str,
    manifests: &[Manifest],
) -> Result<Vec<String>, PluginError> {
    let mut candidates: Vec<String> = Vec::new();
    for importer in &facts.modules {
        for found in plugin.resolve_import(importer, import, manifests)? {
            if !candidates.contains(&found) {
                candidates.push(found);
            }
        }
    }
    Ok(candidates)
}

/// What `--bless` did to one case: the entries it wrote, or why it left
/// the case as it was.
#[derive(Debug, PartialEq, Eq)]
pub struct Blessed {
    pub case: String,
    pub outcome: Result<usize, String>,
}

/// Rewrite each case's `expected.json` with what `plugin` reports: every
/// category a file lists gets the actual entries, with the fields its
/// entries named (the category's identity fields when it named none);
/// `partial` stays; each `resolveImports` entry gets the files and the
/// candidate modules found, for the keys it has. A case the plugin fails on
/// is left as it was.
pub fn bless(
    plugin: &Arc<dyn LanguagePlugin>,
    fixtures: &Path,
) -> Result<Vec<Blessed>, ConformanceError> {
    Ok(fixture::case_dirs(fixtures)?
        .into_iter()
        .map(|(case, dir)| Blessed {
            outcome: bless_case(plugin, &dir),
            case,
        })
        .collect())
}

fn bless_case(plugin: &Arc<dyn LanguagePlugin>, dir: &Path) -> Result<usize, String> {
    let case = fixture::load_case(dir).map_err(|e| format!("fixture error: {e}"))?;
    let mut failures = Vec::new();
    let analyzed = analyze_case(plugin.as_ref(), &case, &mut |path, message| {
        failures.push(format!("{path}: {message}"))
    });
    let mut indexed = None;
    let mut index = || {
        indexed
            .get_or_insert_with(|| Arc::new(analyzed.index(plugin)))
            .clone()
    };
    if !failures.is_empty() {
        return Err(failures.join("; "));
    }
    let path = dir.join(fixture::EXPECTED);
    let text = std::fs::read_to_string(&path).map_err(|e| e.to_string())?;
    let mut expected: serde_json::Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let mut written = 0;
    if let Some(files) = expected
        .get_mut("files")
        .and_then(serde_json::Value::as_object_mut)
    {
        for (file, wanted) in files.iter_mut() {
            let facts = analyzed
                .files
                .get(file)
                .ok_or_else(|| format!("{file}: not a file the plugin analysed"))?;
            let given = case.files_expected.iter().find(|f| &f.path == file);
            let Some(wanted) = wanted.as_object_mut() else {
                continue;
            };
            for category in fixture::CATEGORIES {
                if !wanted.contains_key(category.name) {
                    continue;
                }
                let given = given.and_then(|g| {
                    g.categories
                        .iter()
                        .find(|c| c.category.name == category.name)
                });
                let mut fields: Vec<&str> = given
                    .into_iter()
                    .flat_map(|c| c.entries.iter().flatten().map(|(field, _)| *field))
                    .collect();
                if fields.is_empty() {
                    fields = category.identity.to_vec();
                }
                let named = given.map(|c| positions(&c.entries)).unwrap_or_default();
                let entries: Vec<serde_json::Value> =
                    actual_entries(category, facts, file, &mut index, &named)
                        .map_err(|e| format!("{file} {}: {e}", category.name))?
                        .into_iter()
                        .map(|actual| {
                            let entry = category
                                .fields
                                .iter()
                                .filter(|(field, _)| fields.contains(field))
                                .filter_map(|(field, _)| {
                                    Some((field.to_string(), actual.fields.get(*field)?.clone()))
                                })
                                .collect();
                            serde_json::Value::Object(entry)
                        })
                        .collect();
                written += entries.len();
                let value = match (category.kind, entries.as_slice()) {
                    (fixture::Kind::Module, [one]) => one.clone(),
                    _ => serde_json::Value::Array(entries),
                };
                wanted.insert(category.name.to_string(), value);
            }
        }
    }
    let module_files = module_files(&analyzed.files);
    if let Some(resolutions) = expected
        .get_mut("resolveImports")
        .and_then(serde_json::Value::as_array_mut)
    {
        for (entry, wanted) in case.resolve_imports.iter().zip(resolutions) {
            let facts = analyzed
                .files
                .get(&entry.from)
                .ok_or_else(|| format!("{}: not a file the plugin analysed", entry.from))?;
            let candidates = resolve(plugin.as_ref(), facts, &entry.import, &analyzed.manifests)
                .map_err(|e| {
                    format!("{} imports {}: plugin error: {e}", entry.from, entry.import)
                })?;
            if entry.expect.is_some() {
                wanted["expect"] = files_of(&module_files, &candidates).into_iter().collect();
            }
            if entry.modules.is_some() {
                wanted["modules"] = candidates.into_iter().collect();
            }
            written += 1;
        }
    }
    std::fs::write(&path, fixture::to_text(&expected)).map_err(|e| e.to_string())?;
    Ok(written)
}
