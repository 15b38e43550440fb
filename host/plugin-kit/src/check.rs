//! `lingo plugin check`: a built plugin loaded as `lingo serve` loads it
//! (its queries compiled and their captures checked inside), then run over
//! real files: per file what it found, and every call that failed.

use std::path::{Path, PathBuf};

use lingo_runtime::LanguagePlugin;

/// Files read at most from the paths given: a check, not an index.
pub const MAX_CHECKED_FILES: usize = 2_000;
/// Larger files are skipped (the serving limit is the same order).
const MAX_FILE_BYTES: u64 = 4 << 20;

/// What the plugin made of one file.
#[derive(Debug)]
pub enum FileCheck {
    Analyzed {
        path: String,
        symbols: usize,
        references: usize,
        locals: usize,
        imports: usize,
        syntax_errors: usize,
    },
    Failed {
        path: String,
        error: String,
    },
    Skipped {
        path: String,
        reason: String,
    },
}

/// The files under `paths` the plugin claims (by extension), in path
/// order, at most [`MAX_CHECKED_FILES`]; hidden folders are not entered.
pub fn claimed_files(plugin: &dyn LanguagePlugin, paths: &[PathBuf]) -> Vec<PathBuf> {
    let extensions = &plugin.info().extensions;
    let claims = |p: &Path| {
        p.extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| extensions.iter().any(|x| x == e))
    };
    let mut files = Vec::new();
    for path in paths {
        if path.is_file() {
            files.push(path.clone());
            continue;
        }
        let walk = ignore::WalkBuilder::new(path)
            .hidden(true)
            .follow_links(false)
            .sort_by_file_name(|a, b| a.cmp(b))
            .build();
        for entry in walk.flatten() {
            if files.len() >= MAX_CHECKED_FILES {
                break;
            }
            if entry.file_type().is_some_and(|t| t.is_file()) && claims(entry.path()) {
                files.push(entry.into_path());
            }
        }
    }
    files.truncate(MAX_CHECKED_FILES);
    files
}

/// Runs the plugin over each file as the index would.
pub fn check_files(plugin: &dyn LanguagePlugin, files: &[PathBuf]) -> Vec<FileCheck> {
    files
        .iter()
        .map(|file| {
            let path = file.display().to_string();
            match std::fs::metadata(file) {
                Ok(meta) if meta.len() > MAX_FILE_BYTES => {
                    return FileCheck::Skipped {
                        path,
                        reason: format!("{} bytes, over {MAX_FILE_BYTES}", meta.len()),
                    };
                }
                Err(e) => {
                    return FileCheck::Skipped {
                        path,
                        reason: e.to_string(),
                    };
                }
                Ok(_) => {}
            }
            let source = match std::fs::read_to_string(file) {
                Ok(source) => source,
                Err(e) => {
                    return FileCheck::Skipped {
                        path,
                        reason: format!("not UTF-8 text: {e}"),
                    };
                }
            };
            let name = file
                .file_name()
                .map_or_else(|| path.clone(), |n| n.to_string_lossy().into_owned());
            match plugin.analyze(&name, &source, &[]) {
                Ok(facts) => FileCheck::Analyzed {
                    path,
                    symbols: facts.symbols.len(),
                    references: facts.references.len(),
                    locals: facts.locals.len(),
                    imports: facts.imports.len(),
                    syntax_errors: facts
                        .diagnostics
                        .iter()
                        .filter(|d| d.code == "syntax-error" || d.code == "missing-node")
                        .count(),
                },
                Err(e) => FileCheck::Failed {
                    path,
                    error: e.to_string(),
                },
            }
        })
        .collect()
}

impl FileCheck {
    /// One line: `ok path: 12 symbols, ...`, `FAIL path: why`, `skip ...`.
    pub fn render(&self) -> String {
        match self {
            FileCheck::Analyzed {
                path,
                symbols,
                references,
                locals,
                imports,
                syntax_errors,
            } => format!(
                "ok {path}: {symbols} symbols, {references} references, {locals} locals, \
                 {imports} imports, {syntax_errors} syntax errors"
            ),
            FileCheck::Failed { path, error } => format!("FAIL {path}: {error}"),
            FileCheck::Skipped { path, reason } => format!("skip {path}: {reason}"),
        }
    }

    pub fn failed(&self) -> bool {
        matches!(self, FileCheck::Failed { .. })
    }
}
