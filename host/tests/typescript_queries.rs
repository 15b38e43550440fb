//! The TypeScript plugin's queries as the plugin composes them: the shared
//! `plugins/typescript/queries/<kind>.scm` plus each dialect's own files
//! (`javascript/` and `jsx/` for JavaScript, `typescript/` for TypeScript,
//! `typescript/` and `jsx/` for TSX), compiled against that dialect's
//! native grammar, with only the captures the SDK reads.

use std::path::{Path, PathBuf};

use tree_sitter::{Language, Query};

fn queries_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../plugins/typescript/queries")
}

/// (dialect, grammar, dialect folders) as `plugins/typescript/src/lib.rs` has them.
fn dialects() -> Vec<(&'static str, Language, &'static [&'static str])> {
    vec![
        (
            "javascript",
            tree_sitter_javascript::LANGUAGE.into(),
            &["javascript", "jsx"],
        ),
        (
            "typescript",
            tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
            &["typescript"],
        ),
        (
            "tsx",
            tree_sitter_typescript::LANGUAGE_TSX.into(),
            &["typescript", "jsx"],
        ),
    ]
}

/// The query text of `kind` for a dialect: its folders' files and the shared one.
fn composed(kind: &str, folders: &[&str]) -> String {
    let read = |path: PathBuf| std::fs::read_to_string(path).unwrap_or_default();
    let mut parts = vec![read(queries_dir().join(format!("{kind}.scm")))];
    for folder in folders {
        parts.push(read(queries_dir().join(folder).join(format!("{kind}.scm"))));
    }
    parts.join("\n")
}

/// Whether the SDK reads a capture of this name (`@_name` captures serve
/// predicates only, by tree-sitter's convention).
fn known_capture(kind: &str, name: &str) -> bool {
    if name.starts_with('_') {
        return true;
    }
    match kind {
        "symbols" => name.starts_with("definition.") || matches!(name, "name" | "container"),
        "references" => {
            name.strip_prefix("reference.").is_some_and(|k| {
                matches!(
                    k,
                    "ignore"
                        | "call"
                        | "reference"
                        | "type"
                        | "import"
                        | "extends"
                        | "implements"
                        | "write"
                )
            }) || matches!(name, "name" | "qualifier" | "receiver")
        }
        _ => name.starts_with("local.definition.") || matches!(name, "local.scope" | "local.after"),
    }
}

#[test]
fn every_dialect_composition_compiles_against_its_grammar_with_sdk_captures() {
    let mut failures = Vec::new();
    for (dialect, language, folders) in dialects() {
        for kind in ["symbols", "references", "locals"] {
            let source = composed(kind, folders);
            assert!(source.contains('@'), "{dialect} {kind}: no query text");
            match Query::new(&language, &source) {
                Ok(query) => {
                    for name in query.capture_names() {
                        if !known_capture(kind, name) {
                            failures.push(format!("{dialect} {kind}: unknown capture @{name}"));
                        }
                    }
                }
                Err(e) => failures.push(format!(
                    "{dialect} {kind}: {}:{}: {:?}: {}",
                    e.row + 1,
                    e.column + 1,
                    e.kind,
                    e.message
                )),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_dialect_query_file_is_used_by_some_dialect() {
    let used: Vec<&str> = dialects()
        .iter()
        .flat_map(|(_, _, folders)| folders.iter().copied())
        .collect();
    for entry in std::fs::read_dir(queries_dir()).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            let folder = path.file_name().unwrap().to_string_lossy().into_owned();
            assert!(
                used.contains(&folder.as_str()),
                "queries/{folder}/ is not part of any dialect"
            );
        }
    }
}
