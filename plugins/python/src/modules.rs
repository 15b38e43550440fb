//! Files to modules and imports to modules. A file's module is its path
//! from an import root, dotted: `pkg/sub/mod.py` is `pkg.sub.mod`, and a
//! package's `pkg/__init__.py` is `pkg.__init__` (so that a relative
//! import written in it counts from `pkg` itself). Import roots: the
//! workspace root, the folder of each `pyproject.toml`, `setup.py` or
//! `setup.cfg`, and a `src/` beside any of them; a file has one module per
//! root it lies under, the deepest root first.

use lingo_plugin_sdk::types::{Manifest, ModuleIdentity};

/// The file name of a package's own module.
const PACKAGE_FILE: &str = "__init__";

/// The modules of the file at workspace-relative `path`.
pub fn module_of(path: &str, manifests: &[Manifest]) -> Vec<ModuleIdentity> {
    let Some(stem) = path
        .strip_suffix(".py")
        .or_else(|| path.strip_suffix(".pyi"))
    else {
        return Vec::new();
    };
    let mut roots: Vec<String> = vec![String::new(), "src".into()];
    for manifest in manifests {
        let folder = manifest
            .path
            .rsplit_once('/')
            .map_or(String::new(), |(folder, _)| folder.to_string());
        roots.push(join(&folder, "src"));
        roots.push(folder);
    }
    roots.sort_by_key(|r| std::cmp::Reverse(r.len()));
    roots.dedup();
    roots
        .into_iter()
        .filter_map(|root| {
            let relative = if root.is_empty() {
                stem
            } else {
                stem.strip_prefix(&root)?.strip_prefix('/')?
            };
            let parts: Vec<&str> = relative.split('/').collect();
            // A folder or file that is no identifier cannot be imported.
            parts
                .iter()
                .all(|p| is_identifier(p))
                .then(|| ModuleIdentity {
                    path: parts.join("."),
                    crate_or_package: (!root.is_empty()).then_some(root),
                })
        })
        .collect()
}

/// The modules `import_path` may name, written in module `importer`: for
/// an absolute path the module and the package of that name; for a
/// relative one (`.x`, `..x`) the same, counted from the importer's
/// package.
pub fn resolve_import(importer: &ModuleIdentity, import_path: &str) -> Vec<String> {
    let dots = import_path.len() - import_path.trim_start_matches('.').len();
    let rest = &import_path[dots..];
    if dots == 0 {
        return as_module_or_package(rest);
    }
    let Some(module) = relative(&importer.path, dots, rest) else {
        return Vec::new();
    };
    let mut out = as_module_or_package(&module);
    // A qualified name lingo builds from `from . import x` and `x.name` reads
    // `..x` (the module path, then `.x`): where `..x` names no module, the
    // one a level nearer is meant.
    if dots >= 2 && !rest.is_empty() {
        out.extend(
            relative(&importer.path, dots - 1, rest)
                .map(|m| as_module_or_package(&m))
                .unwrap_or_default(),
        );
    }
    out
}

/// The module `dots` levels up from `importer`'s own (one dot: the package
/// `importer` is in), then `rest`; `None` above the top.
fn relative(importer: &str, dots: usize, rest: &str) -> Option<String> {
    let mut package: Vec<&str> = importer.split('.').collect();
    for _ in 0..dots {
        package.pop()?;
    }
    let mut parts: Vec<&str> = package;
    if !rest.is_empty() {
        parts.extend(rest.split('.'));
    }
    (!parts.is_empty()).then(|| parts.join("."))
}

/// `a.b` names the module `a/b.py` or the package `a/b/__init__.py`.
fn as_module_or_package(path: &str) -> Vec<String> {
    if path.is_empty() {
        return Vec::new();
    }
    vec![path.to_string(), format!("{path}.{PACKAGE_FILE}")]
}

fn join(folder: &str, name: &str) -> String {
    if folder.is_empty() {
        name.to_string()
    } else {
        format!("{folder}/{name}")
    }
}

fn is_identifier(part: &str) -> bool {
    part.starts_with(|c: char| c.is_alphabetic() || c == '_')
        && part.chars().all(|c| c.is_alphanumeric() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn modules(path: &str, manifests: &[&str]) -> Vec<String> {
        let manifests: Vec<Manifest> = manifests
            .iter()
            .map(|p| Manifest {
                path: p.to_string(),
                contents: String::new(),
            })
            .collect();
        module_of(path, &manifests)
            .into_iter()
            .map(|m| format!("{} ({})", m.path, m.crate_or_package.unwrap_or_default()))
            .collect()
    }

    #[test]
    fn a_file_has_a_module_per_import_root() {
        assert_eq!(modules("pkg/sub/mod.py", &[]), ["pkg.sub.mod ()"]);
        assert_eq!(
            modules("src/pkg/__init__.py", &["pyproject.toml"]),
            ["pkg.__init__ (src)", "src.pkg.__init__ ()"]
        );
        assert_eq!(
            modules("lib/proj/src/proj/a.pyi", &["lib/proj/pyproject.toml"]),
            [
                "proj.a (lib/proj/src)",
                "src.proj.a (lib/proj)",
                "lib.proj.src.proj.a ()"
            ]
        );
        assert!(modules("scripts/run-all.py", &[]).is_empty());
        assert!(modules("README.md", &[]).is_empty());
    }

    fn resolved(importer: &str, path: &str) -> Vec<String> {
        resolve_import(
            &ModuleIdentity {
                path: importer.into(),
                crate_or_package: None,
            },
            path,
        )
    }

    #[test]
    fn relative_imports_count_from_the_package() {
        assert_eq!(
            resolved("pkg.mod", "os.path"),
            ["os.path", "os.path.__init__"]
        );
        assert_eq!(resolved("pkg.mod", ".sib"), ["pkg.sib", "pkg.sib.__init__"]);
        assert_eq!(
            resolved("pkg.__init__", ".sib"),
            ["pkg.sib", "pkg.sib.__init__"]
        );
        assert_eq!(resolved("pkg.mod", "."), ["pkg", "pkg.__init__"]);
        assert_eq!(
            resolved("a.b.mod", "..c"),
            ["a.c", "a.c.__init__", "a.b.c", "a.b.c.__init__"]
        );
        assert!(resolved("mod", "..x").is_empty());
    }
}
