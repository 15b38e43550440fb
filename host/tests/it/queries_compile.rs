//! Compiles every plugin query (`plugins/*/queries/*.scm`) against the native
//! grammar, so that a broken pattern fails here with its file and position
//! instead of as a trap inside the plugin component. Whether the captures
//! are ones the SDK reads is the SDK's own check (`query_check`), run by
//! each plugin's `queries_check` test and when a plugin is loaded.

use std::path::{Path, PathBuf};

use tree_sitter::{Language, Query};

/// The grammar a plugin directory's queries are written for.
fn grammar_of(plugin: &str) -> Option<Language> {
    match plugin {
        "rust" => Some(tree_sitter_rust::LANGUAGE.into()),
        "csharp" => Some(tree_sitter_c_sharp::LANGUAGE.into()),
        "go" => Some(tree_sitter_go::LANGUAGE.into()),
        "python" => Some(tree_sitter_python::LANGUAGE.into()),
        "java" => Some(tree_sitter_java::LANGUAGE.into()),
        // Shared TypeScript/JavaScript queries; the plugin's own tests
        // compile each language's composition (`queries/languages/`)
        // against its grammar.
        "typescript" => Some(tree_sitter_typescript::LANGUAGE_TSX.into()),
        _ => None,
    }
}

fn plugins_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../plugins")
}

/// `(plugin name, query file)` for every `.scm` under `plugins/*/queries`.
fn query_files() -> Vec<(String, PathBuf)> {
    let mut files = Vec::new();
    for plugin in std::fs::read_dir(plugins_dir()).expect("plugins directory") {
        let plugin = plugin.unwrap().path();
        let Ok(queries) = std::fs::read_dir(plugin.join("queries")) else {
            continue;
        };
        let name = plugin.file_name().unwrap().to_string_lossy().into_owned();
        for file in queries {
            let file = file.unwrap().path();
            if file.extension().is_some_and(|e| e == "scm") {
                files.push((name.clone(), file));
            }
        }
    }
    files.sort();
    files
}

#[test]
fn every_plugin_query_compiles_against_its_native_grammar() {
    let files = query_files();
    assert!(
        files.iter().any(|(plugin, _)| plugin == "rust"),
        "no query files found under {}",
        plugins_dir().display()
    );
    let mut failures = Vec::new();
    for (plugin, file) in &files {
        let language = grammar_of(plugin).unwrap_or_else(|| {
            panic!(
                "{}: no native grammar registered for plugin `{plugin}` in this test",
                file.display()
            )
        });
        let source = std::fs::read_to_string(file).unwrap();
        if let Err(error) = Query::new(&language, &source) {
            failures.push(format!(
                "{}:{}:{}: {:?}: {}",
                file.display(),
                error.row + 1,
                error.column + 1,
                error.kind,
                error.message
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "queries that do not compile:\n{}",
        failures.join("\n")
    );
}
