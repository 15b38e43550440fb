//! `diagnostics`: the syntax errors the plugins reported for some files,
//! and the files they could not analyse.

use std::sync::Arc;

use schemars::JsonSchema;
use serde::Serialize;

use super::view::Range;
use lingo_index::FileEntry;
use lingo_model::Severity;

/// One syntax error.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct DiagnosticView {
    pub file_path: String,
    pub range: Range,
    /// 1-based.
    pub line: u32,
    #[schemars(with = "String")]
    pub severity: Severity,
    pub code: String,
    /// Always `syntax`.
    pub source: &'static str,
    pub message: String,
}

/// A file its plugin could not analyse, and why.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct UnanalyzedFile {
    pub file_path: String,
    pub code: &'static str,
    pub reason: String,
}

/// The diagnostics of a set of files.
#[derive(Debug, Clone, Default)]
pub struct Diagnostics {
    /// By file, in the order the files were given.
    pub diagnostics: Vec<DiagnosticView>,
    pub unanalyzed: Vec<UnanalyzedFile>,
    /// Files whose diagnostics are listed (the analysed ones).
    pub files_checked: usize,
}

/// The syntax errors of `files`.
pub fn diagnostics(files: &[Arc<FileEntry>]) -> Diagnostics {
    let mut out = Diagnostics::default();
    for file in files {
        match &file.facts {
            Ok(facts) => {
                out.files_checked += 1;
                out.diagnostics
                    .extend(facts.diagnostics.iter().map(|d| DiagnosticView {
                        file_path: file.path.clone(),
                        range: (&d.span).into(),
                        line: d.span.start.line + 1,
                        severity: d.severity,
                        code: d.code.clone(),
                        source: "syntax",
                        message: d.message.clone(),
                    }));
            }
            Err(error) => out.unanalyzed.push(UnanalyzedFile {
                file_path: file.path.clone(),
                code: error.code(),
                reason: error.to_string(),
            }),
        }
    }
    out
}
