//! The plugin conformance kit: runs any plugin against language-neutral
//! fixtures (tiny workspaces plus an `expected.json`) and reports precise
//! differences. The format is documented in `sdk/README.md`, "Conformance
//! fixtures"; `lingo plugin test` and `host/tests/conformance.rs` drive it.

mod diff;
mod facts;
mod fixture;
mod matching;

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
pub fn run(plugin: &dyn LanguagePlugin, fixtures: &Path) -> Result<Report, ConformanceError> {
    let cases = fixture::case_dirs(fixtures)?
        .into_iter()
        .map(|(name, dir)| run_case(plugin, &name, &dir))
        .collect();
    Ok(Report { cases })
}

fn run_case(plugin: &dyn LanguagePlugin, name: &str, dir: &Path) -> CaseReport {
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
    let analyzable = |path: &str| {
        Path::new(path)
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| info.extensions.iter().any(|x| x.eq_ignore_ascii_case(e)))
    };

    let mut manifests = Vec::new();
    let mut sources = Vec::new();
    for path in &case.files {
        let wanted = fixture::is_manifest(path, &info.manifests);
        if !wanted && !analyzable(path) {
            continue;
        }
        match std::fs::read_to_string(case.dir.join(path)) {
            Ok(contents) if wanted => manifests.push(Manifest {
                path: path.clone(),
                contents,
            }),
            Ok(contents) => sources.push((path.clone(), contents)),
            Err(e) => report.failures.push(fail(
                Some(path),
                None,
                format!("fixture error: cannot be read as UTF-8 text: {e}"),
            )),
        }
    }
    let mut analyzed: BTreeMap<String, FileFacts> = BTreeMap::new();
    for (path, source) in sources {
        match plugin.analyze(&path, &source, &manifests) {
            Ok(facts) => {
                analyzed.insert(path, facts);
            }
            Err(e) => report
                .failures
                .push(fail(Some(&path), None, format!("plugin error: {e}"))),
        }
    }

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
            let actual = facts::entries(category, facts);
            let outcome =
                matching::match_category(category, &expected.entries, &actual, expected.exhaustive);
            for (i, closest) in &outcome.missing {
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

    // Which files each module path names, as the server's module map does.
    let mut module_files: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for (path, facts) in &analyzed {
        for module in &facts.modules {
            module_files
                .entry(module.path.as_str())
                .or_default()
                .insert(path.as_str());
        }
    }
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
        let mut candidates: Vec<String> = Vec::new();
        let mut error: Option<PluginError> = None;
        for importer in &facts.modules {
            match plugin.resolve_import(importer, &r.import, &manifests) {
                Ok(found) => {
                    for c in found {
                        if !candidates.contains(&c) {
                            candidates.push(c);
                        }
                    }
                }
                Err(e) => error = Some(e),
            }
        }
        if let Some(e) = error {
            report.failures.push(fail(
                None,
                category,
                format!("{} imports {}: plugin error: {e}", r.from, r.import),
            ));
            continue;
        }
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
            let files: BTreeSet<&str> = candidates
                .iter()
                .filter_map(|c| module_files.get(c.as_str()))
                .flatten()
                .copied()
                .collect();
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
