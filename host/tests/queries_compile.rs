//! Compiles every plugin query (`plugins/*/queries/*.scm`) against the native
//! grammar, so that a broken pattern fails here with its file and position
//! instead of as a trap inside the plugin component.

use std::path::{Path, PathBuf};

use tree_sitter::{Language, Query};

/// The grammar a plugin directory's queries are written for.
fn grammar_of(plugin: &str) -> Option<Language> {
    match plugin {
        "rust" => Some(tree_sitter_rust::LANGUAGE.into()),
        "csharp" => Some(tree_sitter_c_sharp::LANGUAGE.into()),
        "go" => Some(tree_sitter_go::LANGUAGE.into()),
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

#[test]
fn the_plugin_query_captures_follow_the_sdk_naming() {
    // The SDK reads `definition.<tag>`, `reference.<kind>` (`ignore` claims a
    // name without reporting it), `local.definition.<kind>`, `local.scope`,
    // `local.after`, `name`, `qualifier`, `receiver` and `container`; any
    // other capture is silently ignored, which is almost always a typo.
    const REFERENCE_KINDS: &[&str] = &[
        "ignore",
        "call",
        "reference",
        "type",
        "import",
        "extends",
        "implements",
        "write",
    ];
    let mut unknown = Vec::new();
    for (plugin, file) in query_files() {
        let language = grammar_of(&plugin).unwrap();
        let source = std::fs::read_to_string(&file).unwrap();
        let Ok(query) = Query::new(&language, &source) else {
            continue;
        };
        let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
        for &name in query.capture_names() {
            let known = match stem.as_str() {
                "symbols" => {
                    name.starts_with("definition.") || matches!(name, "name" | "container")
                }
                "references" => {
                    name.strip_prefix("reference.")
                        .is_some_and(|k| REFERENCE_KINDS.contains(&k))
                        || matches!(name, "name" | "qualifier" | "receiver")
                }
                "locals" => {
                    name.starts_with("local.definition.")
                        || matches!(name, "local.scope" | "local.after")
                }
                _ => true,
            };
            // `@_name` captures serve predicates only (tree-sitter's
            // convention); the SDK never reads them.
            if !known && !name.starts_with('_') {
                unknown.push(format!("{}: @{name}", file.display()));
            }
        }
    }
    assert!(
        unknown.is_empty(),
        "captures the SDK does not read:\n{}",
        unknown.join("\n")
    );
}
