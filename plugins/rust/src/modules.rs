//! Rust module paths: files to `crate::a::b` modules and `use` paths to the
//! modules they may name.

use lingo_plugin_sdk::types::{Manifest, ModuleIdentity};
use tree_sitter::Node;

use crate::cargo::{CargoManifest, renamed_crate};

/// The module of the file at `path`: the nearest `Cargo.toml` above it names
/// the crate; the path inside `src/` names the module.
pub fn module_of(
    _root: Node,
    _source: &str,
    path: &str,
    manifests: &[Manifest],
) -> Vec<ModuleIdentity> {
    let manifest = manifests
        .iter()
        .filter(|m| {
            m.path
                .strip_suffix("Cargo.toml")
                .is_some_and(|dir| path.starts_with(dir) && (dir.is_empty() || dir.ends_with('/')))
        })
        .max_by_key(|m| m.path.len())
        .and_then(CargoManifest::read);
    let (dir, crate_name) = match &manifest {
        Some(m) => (
            m.dir.as_str(),
            m.crate_name.clone().unwrap_or_else(|| "crate".into()),
        ),
        None => ("", "crate".to_string()),
    };
    let inside = &path[dir.len()..];
    let stem = inside.strip_suffix(".rs").unwrap_or(inside);
    let parts: Vec<&str> = stem.split('/').collect();
    let (krate, modules): (String, &[&str]) = match parts.as_slice() {
        ["src", "lib"] | ["src", "main"] => (crate_name, &[]),
        ["src", "bin", bin] | ["src", "bin", bin, "main"] => (bin.replace('-', "_"), &[]),
        ["src", rest @ ..] => (crate_name, rest),
        [kind @ ("tests" | "examples" | "benches"), file] => {
            (format!("{kind}_{}", file.replace('-', "_")), &[])
        }
        [kind @ ("tests" | "examples" | "benches"), file, "main"] => {
            (format!("{kind}_{}", file.replace('-', "_")), &[])
        }
        other => (crate_name, other),
    };
    let mut segments: Vec<&str> = modules.to_vec();
    if segments.last() == Some(&"mod") {
        segments.pop();
    }
    let mut path = krate.clone();
    for s in segments {
        path.push_str("::");
        path.push_str(s);
    }
    vec![ModuleIdentity {
        path,
        crate_or_package: Some(krate),
    }]
}

/// Most inline modules looked through around a `super`.
pub(crate) const MAX_INLINE_MODULES: usize = 64;

/// `super` at the head of a path written inside inline modules (`mod
/// tests { .. super::run() .. }`): the module it names, relative to the
/// file's own (`self`, or `self::a` inside `mod a { mod b { .. } }`), as
/// the alias and path [`lingo_plugin_sdk::Language::aliased_name`] gives.
/// `None` outside inline modules (the file's module is the importer
/// [`resolve_import`] reads `super` from) and for `super::super`.
pub fn super_alias(word: Node, source: &str) -> Option<(String, Vec<String>)> {
    if word.kind() != "super" {
        return None;
    }
    // `super::super::x`: the next segment is another `super`.
    let path = word.parent().filter(|p| p.kind() == "scoped_identifier")?;
    if path
        .child_by_field_name("name")
        .is_some_and(|n| n.kind() == "super")
        || path
            .parent()
            .and_then(|p| p.child_by_field_name("name"))
            .is_some_and(|n| n.kind() == "super")
    {
        return None;
    }
    // The inline modules around the word, innermost first.
    let mut modules: Vec<&str> = Vec::new();
    let mut current = word.parent();
    while let Some(node) = current {
        if node.kind() == "mod_item" && node.child_by_field_name("body").is_some() {
            if modules.len() >= MAX_INLINE_MODULES {
                return None;
            }
            modules.push(source.get(node.child_by_field_name("name")?.byte_range())?);
        }
        current = node.parent();
    }
    // The parent of the innermost: the file's module, or an outer one.
    let mut parent: Vec<String> = modules
        .iter()
        .skip(1)
        .rev()
        .map(|m| m.to_string())
        .collect();
    if modules.is_empty() {
        return None;
    }
    match parent.pop() {
        Some(last) => Some((
            last,
            std::iter::once("self".to_string()).chain(parent).collect(),
        )),
        None => Some(("self".to_string(), Vec::new())),
    }
}

/// Candidate modules for a `use` path written in module `importer`.
pub fn resolve_import(
    importer: &ModuleIdentity,
    import_path: &str,
    manifests: &[Manifest],
) -> Vec<String> {
    let segments: Vec<&str> = import_path
        .split("::")
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    let Some((&first, rest)) = segments.split_first() else {
        return Vec::new();
    };
    let krate = importer.crate_or_package.clone().unwrap_or_else(|| {
        importer
            .path
            .split("::")
            .next()
            .unwrap_or("crate")
            .to_string()
    });
    let join = |base: String, rest: &[&str]| {
        rest.iter().fold(base, |mut acc, s| {
            acc.push_str("::");
            acc.push_str(s);
            acc
        })
    };
    match first {
        "crate" => vec![join(krate, rest)],
        "self" => vec![join(importer.path.clone(), rest)],
        "super" => {
            let mut base: Vec<&str> = importer.path.split("::").collect();
            let mut rest = rest;
            base.pop();
            while let Some((&"super", tail)) = rest.split_first() {
                base.pop();
                rest = tail;
            }
            if base.is_empty() {
                return Vec::new();
            }
            vec![join(base.join("::"), rest)]
        }
        // Uniform paths: a child module of the importer, or another crate.
        // A dependency the manifest renames names the package's crate.
        _ => match renamed_crate(manifests, &krate, first) {
            Some(renamed) => vec![join(importer.path.clone(), &segments), join(renamed, rest)],
            None => vec![
                join(importer.path.clone(), &segments),
                join(first.to_string(), rest),
            ],
        },
    }
}
