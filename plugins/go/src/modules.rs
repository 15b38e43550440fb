//! Go packages as modules: a file belongs to the package of its directory,
//! named by the import path `<module path>/<directory>` from the nearest
//! `go.mod`; an import path names that package directly.

use lingo_plugin_sdk::types::{Manifest, ModuleIdentity};

/// The module path a `go.mod` declares (`module example.com/m`).
pub fn module_path(go_mod: &str) -> Option<String> {
    go_mod.lines().find_map(|line| {
        let line = line.split("//").next().unwrap_or_default().trim();
        let rest = line.strip_prefix("module")?;
        if !rest.starts_with(char::is_whitespace) {
            return None;
        }
        let path = rest.trim().trim_matches(|c| c == '"' || c == '`');
        (!path.is_empty()).then(|| path.to_string())
    })
}

/// The package of the file at `path` (workspace-relative): its directory
/// below the nearest `go.mod`, prefixed with that module's path. Without a
/// `go.mod` the package is named by its directory alone (`.` at the root).
pub fn module_of(path: &str, manifests: &[Manifest]) -> ModuleIdentity {
    let directory = path.rsplit_once('/').map_or("", |(dir, _)| dir);
    let nearest = manifests
        .iter()
        .filter_map(|m| {
            let root = m.path.strip_suffix("go.mod")?;
            let root = root.strip_suffix('/').unwrap_or(root);
            let inside = if root.is_empty() {
                Some(directory)
            } else if directory == root {
                Some("")
            } else {
                directory.strip_prefix(root)?.strip_prefix('/')
            }?;
            Some((root.len(), inside, m))
        })
        .max_by_key(|(depth, _, _)| *depth);
    match nearest.and_then(|(_, inside, m)| Some((inside, module_path(&m.contents)?))) {
        Some((inside, module)) => ModuleIdentity {
            path: join(&module, inside),
            crate_or_package: Some(module),
        },
        None => ModuleIdentity {
            path: if directory.is_empty() {
                ".".to_string()
            } else {
                directory.to_string()
            },
            crate_or_package: None,
        },
    }
}

fn join(base: &str, rest: &str) -> String {
    match (base, rest) {
        (_, "") => base.to_string(),
        ("" | ".", _) => rest.to_string(),
        _ => format!("{base}/{rest}"),
    }
}

/// The package an import path names: the path itself, since packages are
/// named by their import paths; a relative path (`./sub`, `../x`, from
/// before modules) is taken from the importer's package.
pub fn resolve_import(importer: &ModuleIdentity, import_path: &str) -> Vec<String> {
    let import_path = import_path.trim();
    if import_path.is_empty() {
        return Vec::new();
    }
    if !(import_path.starts_with("./") || import_path.starts_with("../")) {
        return vec![import_path.to_string()];
    }
    let mut segments: Vec<&str> = importer
        .path
        .split('/')
        .filter(|s| !s.is_empty() && *s != ".")
        .collect();
    for part in import_path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                if segments.pop().is_none() {
                    return Vec::new();
                }
            }
            other => segments.push(other),
        }
    }
    if segments.is_empty() {
        return vec![".".to_string()];
    }
    vec![segments.join("/")]
}
