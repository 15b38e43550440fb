//! The `definitions` category: a case's files indexed as the server
//! indexes them (analysed by the plugin under test, its facts validated,
//! the module map built from its `module-of` answers) and each reference
//! resolved by the server's own name resolution (`lingo-resolve`: scope,
//! imports through the plugin's `resolve-import`, qualified paths,
//! receivers typed by declared types, name-only guesses last), as
//! `find_definition` answers for a position on it.

use std::collections::BTreeMap;
use std::sync::Arc;

use lingo_index::Snapshot;
use lingo_model::Manifest;
use lingo_resolve::{Resolved, Resolver, Target};
use lingo_runtime::{LanguagePlugin, PluginRegistry};
use serde_json::{Value, json};

use super::facts::{Actual, actual, position};

/// A case held in memory as one snapshot of the index.
pub struct CaseIndex {
    snapshot: Snapshot,
}

impl CaseIndex {
    /// Index `sources` (case-relative path to text) with `plugin` alone,
    /// reading `manifests`.
    pub fn new(
        plugin: &Arc<dyn LanguagePlugin>,
        manifests: &[Manifest],
        sources: &BTreeMap<String, String>,
    ) -> Self {
        // The plugin is loaded already, and its loading said so.
        let registry =
            tracing::subscriber::with_default(tracing::subscriber::NoSubscriber::default(), || {
                PluginRegistry::from_plugins(vec![plugin.clone()], &Default::default())
            });
        let mut empty = Snapshot::default();
        empty.manifests = Arc::new(manifests.to_vec());
        let texts = sources
            .iter()
            .map(|(path, text)| (path.clone(), Some(text.clone())))
            .collect();
        CaseIndex {
            snapshot: empty.with_texts(&registry, &texts),
        }
    }

    /// An entry per definition of each reference of `path` (one with
    /// `resolution` `unresolved` for a reference that resolves to nothing).
    pub fn definitions(&self, path: &str) -> Result<Vec<Actual>, String> {
        let file = self
            .snapshot
            .file(path)
            .ok_or_else(|| "the plugin analysed no such file".to_string())?;
        let facts = file
            .facts
            .as_ref()
            .map_err(|e| format!("plugin error: {e}"))?;
        let table = self
            .snapshot
            .table()
            .map_err(|e| format!("name resolution: {e}"))?;
        let resolver = Resolver::new(&self.snapshot, table);
        let mut entries = Vec::new();
        for reference in &facts.references {
            let start = reference.span.start;
            let entry = |target_file: Value, target: Value, line: Value, resolution: &str| {
                actual(
                    &reference.name,
                    Some(&start),
                    json!({
                        "name": reference.name,
                        "kind": reference.kind.as_str().replace('_', "-"),
                        "at": position(&start),
                        "line": start.line + 1,
                        "targetFile": target_file,
                        "target": target,
                        "targetLine": line,
                        "resolution": resolution,
                    }),
                )
            };
            let definitions = resolver.resolve(file, reference);
            if definitions.is_empty() {
                entries.push(entry(Value::Null, Value::Null, Value::Null, "unresolved"));
            }
            for definition in definitions {
                let (file, name, line) = match &definition.target {
                    Target::Symbol { file, index } => {
                        let symbol = file.facts.as_ref().ok().and_then(|f| f.symbols.get(*index));
                        (
                            file,
                            symbol.map(|s| s.name.to_string()),
                            symbol.map(|s| s.span.start.line + 1),
                        )
                    }
                    Target::Local { file, index } => {
                        let local = file.facts.as_ref().ok().and_then(|f| f.locals.get(*index));
                        (
                            file,
                            local.map(|l| l.name.to_string()),
                            local.map(|l| l.span.start.line + 1),
                        )
                    }
                };
                entries.push(entry(
                    json!(file.path),
                    json!(name),
                    json!(line),
                    &definition.resolution.as_str().replace('_', "-"),
                ));
            }
        }
        Ok(entries)
    }
}
