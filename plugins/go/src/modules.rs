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

#[cfg(test)]
mod tests {
    use super::*;

    use lingo_plugin_sdk::testing::manifest;

    #[test]
    fn the_module_path_comes_from_the_module_directive() {
        assert_eq!(
            module_path("// comment\nmodule example.com/m // trailing\n\ngo 1.22\n").as_deref(),
            Some("example.com/m")
        );
        assert_eq!(
            module_path("module \"example.com/q\"\n").as_deref(),
            Some("example.com/q")
        );
        assert_eq!(module_path("modules x\ngo 1.22\n"), None);
    }

    #[test]
    fn a_file_belongs_to_its_directory_under_the_nearest_go_mod() {
        let manifests = [
            manifest("go.mod", "module example.com/m\n"),
            manifest("tools/go.mod", "module example.com/tools\n"),
        ];
        let of = |path| {
            let m = module_of(path, &manifests);
            (m.path, m.crate_or_package)
        };
        assert_eq!(
            of("main.go"),
            ("example.com/m".into(), Some("example.com/m".into()))
        );
        assert_eq!(of("a/b/c.go").0, "example.com/m/a/b");
        assert_eq!(
            of("tools/lint/x.go"),
            (
                "example.com/tools/lint".into(),
                Some("example.com/tools".into())
            )
        );
        assert_eq!(of("toolsx/y.go").0, "example.com/m/toolsx");
        let loose = module_of("a/b.go", &[]);
        assert_eq!((loose.path.as_str(), loose.crate_or_package), ("a", None));
        assert_eq!(module_of("b.go", &[]).path, ".");
    }

    #[test]
    fn imports_name_packages_by_path_and_relative_ones_from_the_importer() {
        let importer = ModuleIdentity {
            path: "example.com/m/a/b".into(),
            crate_or_package: Some("example.com/m".into()),
        };
        assert_eq!(resolve_import(&importer, "fmt"), ["fmt"]);
        assert_eq!(resolve_import(&importer, "./c"), ["example.com/m/a/b/c"]);
        assert_eq!(resolve_import(&importer, "../../x"), ["example.com/m/x"]);
        assert!(resolve_import(&importer, "../../../../../x").is_empty());
        assert!(resolve_import(&importer, " ").is_empty());
    }
}
