//! Module identity: a file's module is its workspace-relative path without
//! extension (`src/a/b`, `src/a/index`), its package
//! the nearest `package.json`'s `name`; import paths resolve the way Node and
//! TypeScript resolve them, to modules in that spelling.

use lingo_plugin_sdk::types::{Manifest, ModuleIdentity};

use crate::{exports, tsconfig};

/// Source extensions in TypeScript's resolution order; all name one module.
const EXTENSIONS: &[&str] = &[
    ".d.ts", ".d.mts", ".d.cts", ".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs",
];

/// `path` without a source extension.
fn strip_extension(path: &str) -> &str {
    EXTENSIONS
        .iter()
        .find_map(|ext| path.strip_suffix(ext))
        .unwrap_or(path)
}

/// The folder a module's index file stands for (`a/b/index` → `a/b`).
fn folder_of_index(module: &str) -> Option<&str> {
    if module == "index" {
        return Some("");
    }
    module.strip_suffix("/index")
}

/// The folder of a workspace-relative path (`""` at the root).
fn parent(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(dir, _)| dir)
}

/// `base` joined with the relative `path`, `.` and `..` resolved; `None`
/// when it climbs above the workspace root.
pub(crate) fn join(base: &str, path: &str) -> Option<String> {
    let mut segments: Vec<&str> = base.split('/').filter(|s| !s.is_empty()).collect();
    for segment in path.split('/') {
        match segment {
            "" | "." => {}
            ".." => {
                segments.pop()?;
            }
            other => segments.push(other),
        }
    }
    Some(segments.join("/"))
}

/// The folder of a `package.json` manifest (`""` at the root).
fn manifest_folder(manifest: &Manifest) -> Option<&str> {
    if manifest.path == "package.json" {
        return Some("");
    }
    manifest.path.strip_suffix("/package.json")
}

/// A `package.json` parsed, or `None` when it is not a JSON object.
fn package_json(manifest: &Manifest) -> Option<serde_json::Map<String, serde_json::Value>> {
    match serde_json::from_str(&manifest.contents).ok()? {
        serde_json::Value::Object(map) => Some(map),
        _ => None,
    }
}

fn package_name(manifest: &Manifest) -> Option<String> {
    package_json(manifest)?
        .get("name")?
        .as_str()
        .map(str::to_string)
}

/// The module of the file at `path`. An index file keeps its `/index`
/// (`a/b/index`): relative imports written in it are resolved from its
/// folder, which `a/b` would not tell; `./b` resolves to both spellings.
pub fn module_of(path: &str, manifests: &[Manifest]) -> Vec<ModuleIdentity> {
    let package = manifests
        .iter()
        .filter_map(|m| {
            let folder = manifest_folder(m)?;
            let inside = folder.is_empty() || path.starts_with(&format!("{folder}/"));
            inside.then_some((folder.len(), m))
        })
        .max_by_key(|(depth, _)| *depth)
        .and_then(|(_, m)| package_name(m));
    vec![ModuleIdentity {
        path: strip_extension(path).to_string(),
        crate_or_package: package,
    }]
}

/// The relative specifier a file of module `importer` imports module
/// `target` by (`./util`, `../shapes/circle`; a folder's index by the folder,
/// `./shapes`).
pub fn import_specifier(importer: &ModuleIdentity, target: &ModuleIdentity) -> String {
    let from: Vec<&str> = parent(&importer.path)
        .split('/')
        .filter(|s| !s.is_empty())
        .collect();
    let to: Vec<&str> = target.path.split('/').filter(|s| !s.is_empty()).collect();
    let target_folder = &to[..to.len().saturating_sub(1)];
    let shared = from
        .iter()
        .zip(target_folder)
        .take_while(|(a, b)| a == b)
        .count();
    let ups = from.len() - shared;
    let down = to[shared..].join("/");
    let specifier = if ups == 0 {
        format!("./{down}")
    } else {
        format!("{}{down}", "../".repeat(ups))
    };
    // A folder's index is imported by the folder's name.
    match specifier.strip_suffix("/index") {
        Some(folder) if !folder.ends_with('.') => folder.to_string(),
        _ => specifier,
    }
}

/// Candidate modules for `import_path` written in a file of `importer`:
/// relative paths against the importer's folder; bare names through the
/// governing tsconfig's `paths` (or else under its `baseUrl`), and names
/// of workspace packages (`package.json` `name`) to their entry or
/// sub-path; other bare names are external and resolve to nothing.
pub fn resolve_import(
    importer: &ModuleIdentity,
    import_path: &str,
    manifests: &[Manifest],
) -> Vec<String> {
    let import_path = import_path.trim();
    let relative = import_path == "."
        || import_path == ".."
        || import_path.starts_with("./")
        || import_path.starts_with("../");
    let importer_folder = parent(&importer.path);
    if relative {
        let Some(target) = join(importer_folder, import_path) else {
            return Vec::new();
        };
        let mut out = candidates(&target);
        // `rootDirs`: the same relative path from the importer's place in
        // each other root.
        let root_dirs = tsconfig::resolution_for(importer_folder, manifests)
            .map(|c| c.root_dirs)
            .unwrap_or_default();
        let inside = |folder: &str, root: &str| {
            root.is_empty() || folder == root || folder.starts_with(&format!("{root}/"))
        };
        if let Some(own) = root_dirs
            .iter()
            .filter(|root| inside(importer_folder, root))
            .max_by_key(|root| root.len())
        {
            let offset = importer_folder[own.len()..].trim_start_matches('/');
            for root in root_dirs.iter().filter(|root| *root != own) {
                let moved = join(root, offset).and_then(|folder| join(&folder, import_path));
                for candidate in moved.map(|t| candidates(&t)).unwrap_or_default() {
                    if !out.contains(&candidate) {
                        out.push(candidate);
                    }
                }
            }
        }
        return out;
    }
    if import_path.starts_with('/') {
        return Vec::new();
    }
    let config = tsconfig::resolution_for(importer_folder, manifests);
    let conditions = config
        .as_ref()
        .map(|c| c.custom_conditions.clone())
        .unwrap_or_default();
    if import_path.starts_with('#') {
        return package_import(importer_folder, import_path, manifests, &conditions);
    }
    let mut out: Vec<String> = Vec::new();
    if let Some(config) = &config {
        let mut mapped = config.mapped(import_path);
        if mapped.is_empty()
            && let Some(base) = &config.base_url
        {
            mapped.extend(join(base, import_path));
        }
        for target in mapped {
            out.extend(candidates(&target));
        }
    }
    for candidate in workspace_package(import_path, manifests, &conditions) {
        if !out.contains(&candidate) {
            out.push(candidate);
        }
    }
    out
}

/// The conditions tsc tries in `exports` and `imports` maps, the
/// `customConditions` first.
fn active_conditions(custom_conditions: &[String]) -> Vec<&str> {
    let mut conditions: Vec<&str> = custom_conditions.iter().map(String::as_str).collect();
    conditions.extend(["types", "import", "module", "require", "node", "default"]);
    conditions
}

/// The modules a subpath import (`#utils/*`) names through the `imports`
/// map of the nearest `package.json` above the importer: a target inside
/// the package (and a built target's source), or a workspace package.
fn package_import(
    importer_folder: &str,
    import_path: &str,
    manifests: &[Manifest],
    custom_conditions: &[String],
) -> Vec<String> {
    let Some((folder, manifest)) = manifests
        .iter()
        .filter_map(|m| {
            let folder = manifest_folder(m)?;
            let inside = folder.is_empty()
                || importer_folder == folder
                || importer_folder.starts_with(&format!("{folder}/"));
            inside.then_some((folder, m))
        })
        .max_by_key(|(folder, _)| folder.len())
    else {
        return Vec::new();
    };
    let Some(imports) = exports::imports_of_package(&manifest.contents) else {
        return Vec::new();
    };
    let mut out: Vec<String> = Vec::new();
    for target in imports.targets(import_path, &active_conditions(custom_conditions)) {
        let found = if target.starts_with("./") {
            let mut found = join(folder, &target)
                .map(|t| candidates(&t))
                .unwrap_or_default();
            let source = source_of_output(&target);
            if source != target.trim_start_matches("./") {
                found.extend(
                    join(folder, &source)
                        .map(|t| candidates(&t))
                        .unwrap_or_default(),
                );
            }
            found
        } else {
            workspace_package(&target, manifests, custom_conditions)
        };
        for candidate in found {
            if !out.contains(&candidate) {
                out.push(candidate);
            }
        }
    }
    out
}

/// The module a resolved path names, and its index-file spelling.
fn candidates(target: &str) -> Vec<String> {
    let module = strip_extension(target.trim_end_matches('/'));
    match folder_of_index(module) {
        Some(folder) => vec![folder.to_string(), module.to_string()],
        None if module.is_empty() => vec![String::new(), "index".to_string()],
        None => vec![module.to_string(), format!("{module}/index")],
    }
}

/// `pkg` or `@scope/pkg`, optionally followed by a sub-path.
pub(crate) fn split_package(import_path: &str) -> (&str, Option<&str>) {
    let split_at = if import_path.starts_with('@') {
        import_path.match_indices('/').nth(1).map(|(i, _)| i)
    } else {
        import_path.find('/')
    };
    match split_at {
        Some(i) => (&import_path[..i], Some(&import_path[i + 1..])),
        None => (import_path, None),
    }
}

/// The folder and `package.json` of the workspace package called `name`.
pub(crate) fn package_named<'a>(
    name: &str,
    manifests: &'a [Manifest],
) -> Option<(&'a str, &'a Manifest)> {
    // Each package.json's name, read once while the manifests are the same.
    let names = lingo_plugin_sdk::manifests::read_once(manifests, |manifests| {
        manifests
            .iter()
            .map(|m| manifest_folder(m).and_then(|_| package_name(m)))
            .collect::<Vec<Option<String>>>()
    });
    manifests.iter().zip(names.iter()).find_map(|(m, package)| {
        let folder = manifest_folder(m)?;
        (package.as_deref() == Some(name)).then_some((folder, m))
    })
}

/// Modules of a package of the workspace named by a bare import.
/// With an `exports` map, only what it exports, under the conditions
/// tsc uses (`custom_conditions` first, then types, import, module,
/// require, node, default), and each built target's source under `src/`
/// (a checkout holds the sources, not the build).
fn workspace_package(
    import_path: &str,
    manifests: &[Manifest],
    custom_conditions: &[String],
) -> Vec<String> {
    let (name, sub_path) = split_package(import_path);
    let Some((folder, manifest)) = package_named(name, manifests) else {
        return Vec::new();
    };
    let mut out: Vec<String> = Vec::new();
    let mut add = |path: Option<String>| {
        for candidate in path.map(|p| candidates(&p)).unwrap_or_default() {
            if !out.contains(&candidate) {
                out.push(candidate);
            }
        }
    };
    if let Some(exports) = exports::of_package(&manifest.contents) {
        let sub = sub_path.map_or_else(|| ".".to_string(), |sub| format!("./{sub}"));
        for target in exports.targets(&sub, &active_conditions(custom_conditions)) {
            add(join(folder, &target));
            let source = source_of_output(&target);
            if source == target.trim_start_matches("./") {
                if source.starts_with("src/") {
                    continue; // the source itself
                }
                // A build written beside the package root (`./v4/index.d.cts`)
                // has its sources under `src/`.
                add(join(folder, &format!("src/{source}")));
            } else {
                add(join(folder, &source));
            }
        }
        return out;
    }
    match sub_path {
        Some(sub) => {
            add(join(folder, sub));
            add(join(folder, &format!("src/{sub}")));
        }
        None => {
            let fields = package_json(manifest).unwrap_or_default();
            for field in ["types", "typings", "module", "main"] {
                if let Some(entry) = fields.get(field).and_then(|v| v.as_str()) {
                    add(join(folder, entry));
                    add(join(folder, &source_of_output(entry)));
                }
            }
            add(join(folder, "index"));
            add(join(folder, "src/index"));
        }
    }
    out
}

/// Where the source of a built package entry usually is: a file under
/// `dist/`, `lib/`, `build/` or `out/` comes from the same path under `src/`.
fn source_of_output(entry: &str) -> String {
    let entry = entry.trim_start_matches("./");
    for output in ["dist/", "lib/", "build/", "out/"] {
        if let Some(rest) = entry.strip_prefix(output) {
            return format!("src/{rest}");
        }
    }
    entry.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    use lingo_plugin_sdk::testing::manifest;

    fn importer(path: &str) -> ModuleIdentity {
        ModuleIdentity {
            path: path.into(),
            crate_or_package: None,
        }
    }

    #[test]
    fn modules_are_paths_without_extension_in_the_nearest_package() {
        let manifests = [
            manifest("package.json", r#"{"name": "root"}"#),
            manifest("packages/ui/package.json", r#"{"name": "@acme/ui"}"#),
        ];
        let of = |path| {
            let m = &module_of(path, &manifests)[0];
            (m.path.clone(), m.crate_or_package.clone())
        };
        assert_eq!(of("src/a/b.ts"), ("src/a/b".into(), Some("root".into())));
        assert_eq!(
            of("src/types.d.ts"),
            ("src/types".into(), Some("root".into()))
        );
        assert_eq!(
            of("packages/ui/src/index.tsx"),
            ("packages/ui/src/index".into(), Some("@acme/ui".into()))
        );
        assert_eq!(of("packages/uix/a.js").1, Some("root".into()));
        assert_eq!(module_of("a.mjs", &[])[0].crate_or_package, None);
    }

    #[test]
    fn relative_imports_resolve_against_the_importers_folder() {
        let from = |module, path| resolve_import(&importer(module), path, &[]);
        assert_eq!(from("src/a/b", "./c"), ["src/a/c", "src/a/c/index"]);
        assert_eq!(from("src/a/b", "../d.js"), ["src/d", "src/d/index"]);
        assert_eq!(from("src/a/index", "./c"), ["src/a/c", "src/a/c/index"]);
        assert_eq!(
            from("src/a/b", "./dir/index"),
            ["src/a/dir", "src/a/dir/index"]
        );
        assert_eq!(from("src/a/b", "."), ["src/a", "src/a/index"]);
        assert!(from("a", "../../x").is_empty());
        assert!(from("src/a/b", "lodash").is_empty());
        assert!(from("src/a/b", "node:fs").is_empty());
    }

    #[test]
    fn subpath_imports_resolve_through_the_nearest_package_imports_map() {
        let manifests = [
            manifest(
                "apps/web/package.json",
                r##"{"name": "web", "imports": {
                    "#utils/*": "./src/utils/*.ts",
                    "#db": { "types": "./dist/db.d.ts", "default": "./dist/db.js" },
                    "#ui": "@acme/ui",
                    "#nothing": null
                }}"##,
            ),
            manifest(
                "packages/ui/package.json",
                r#"{"name": "@acme/ui", "exports": { ".": "./src/index.ts" }}"#,
            ),
        ];
        let resolve = |path| resolve_import(&importer("apps/web/src/pages/home"), path, &manifests);
        assert_eq!(
            resolve("#utils/dates"),
            ["apps/web/src/utils/dates", "apps/web/src/utils/dates/index"]
        );
        assert_eq!(
            resolve("#db"),
            [
                "apps/web/dist/db",
                "apps/web/dist/db/index",
                "apps/web/src/db",
                "apps/web/src/db/index"
            ]
        );
        assert_eq!(resolve("#ui"), ["packages/ui/src", "packages/ui/src/index"]);
        assert!(resolve("#nothing").is_empty());
        assert!(resolve("#absent").is_empty());
        // Hostile maps: conditions 5,000 deep (past what JSON is read to:
        // the map is not read), 100,000 keys (read, each found).
        let deep = format!(
            r##"{{"name": "web", "imports": {{"#deep": {}"./x.ts"{}}}}}"##,
            r#"{"import": "#.repeat(5_000),
            "}".repeat(5_000),
        );
        let deep = [manifest("apps/web/package.json", &deep)];
        assert!(resolve_import(&importer("apps/web/src/a"), "#deep", &deep).is_empty());
        let wide = format!(
            r##"{{"name": "web", "imports": {{{}}}}}"##,
            (0..100_000)
                .map(|i| format!(r##""#k{i}": "./k.ts""##))
                .collect::<Vec<_>>()
                .join(",")
        );
        let wide = [manifest("apps/web/package.json", &wide)];
        assert_eq!(
            resolve_import(&importer("apps/web/src/a"), "#k99999", &wide),
            ["apps/web/k", "apps/web/k/index"]
        );
        let odd = [manifest(
            "package.json",
            r##"{"imports": {"#a": 7, "#b": ["./b.ts"]}}"##,
        )];
        assert!(resolve_import(&importer("src/a"), "#a", &odd).is_empty());
        assert_eq!(
            resolve_import(&importer("src/a"), "#b", &odd),
            ["b", "b/index"]
        );
        // Outside the package that declares them, `#` names nothing.
        assert!(resolve_import(&importer("packages/ui/src/x"), "#db", &manifests).is_empty());
    }

    #[test]
    fn relative_imports_see_every_root_dir_as_one_folder() {
        let manifests = [manifest(
            "tsconfig.json",
            r#"{ "compilerOptions": { "rootDirs": ["src", "generated/src"] } }"#,
        )];
        let resolved = resolve_import(&importer("src/views/main"), "./templates/t", &manifests);
        assert_eq!(
            resolved,
            [
                "src/views/templates/t",
                "src/views/templates/t/index",
                "generated/src/views/templates/t",
                "generated/src/views/templates/t/index"
            ]
        );
        // A file outside every root dir resolves only from its own folder.
        assert_eq!(
            resolve_import(&importer("tools/x"), "./y", &manifests),
            ["tools/y", "tools/y/index"]
        );
    }

    #[test]
    fn bare_imports_of_workspace_packages_resolve_to_their_entry() {
        let manifests = [manifest(
            "packages/ui/package.json",
            r#"{"name": "@acme/ui", "main": "dist/main.js"}"#,
        )];
        let resolve = |path| resolve_import(&importer("app/x"), path, &manifests);
        let entry = resolve("@acme/ui");
        assert_eq!(
            &entry[..4],
            [
                "packages/ui/dist/main",
                "packages/ui/dist/main/index",
                "packages/ui/src/main",
                "packages/ui/src/main/index"
            ]
        );
        assert!(
            entry.contains(&"packages/ui/src/index".to_string()),
            "{entry:?}"
        );
        assert_eq!(
            resolve("@acme/ui/button")[..2],
            ["packages/ui/button", "packages/ui/button/index"]
        );
        assert!(resolve("@acme/other").is_empty());
    }

    #[test]
    fn an_exports_map_is_all_a_package_offers_and_its_build_maps_to_sources() {
        let package = manifest(
            "package.json",
            r#"{"name": "zod", "exports": {
                ".": {"@zod/source": "./src/index.ts", "types": "./index.d.cts"},
                "./v4": {"@zod/source": "./src/v4/index.ts", "types": "./v4/index.d.cts"},
                "./mini": {"types": "./dist/mini/index.d.ts"}
            }}"#,
        );
        let with_condition = manifest(
            "tsconfig.json",
            r#"{"compilerOptions": {"customConditions": ["@zod/source"]}}"#,
        );
        let resolve = |path, manifests: &[Manifest]| {
            resolve_import(&importer("src/v4/tests/a.test"), path, manifests)
        };
        let both = [package.clone(), with_condition];
        assert_eq!(resolve("zod/v4", &both)[..2], ["src/v4", "src/v4/index"]);
        assert_eq!(resolve("zod", &both)[..2], ["src", "src/index"]);
        // Without the condition, the types' build stands for its sources.
        let alone = [package];
        let v4 = resolve("zod/v4", &alone);
        assert!(v4.contains(&"src/v4/index".to_string()), "{v4:?}");
        let mini = resolve("zod/mini", &alone);
        assert!(mini.contains(&"src/mini/index".to_string()), "{mini:?}");
        // Not exported: nothing, not a guess at `src/v3`.
        assert!(resolve("zod/v3", &alone).is_empty());
    }

    #[test]
    fn import_specifiers_resolve_back_to_their_module() {
        for (from, to, expected) in [
            ("src/a/b", "src/util", "../util"),
            ("src/a/b", "src/a/c", "./c"),
            ("src/a", "src/a/deep/x", "./a/deep/x"),
            ("src/a/b", "src", "../../src"),
            ("main", "lib/x", "./lib/x"),
            ("src/main", "src/geometry/index", "./geometry"),
            ("src/a/b", "src/index", "../index"),
            ("src/a/b", "src/a/index", "./index"),
        ] {
            let specifier = import_specifier(&importer(from), &importer(to));
            assert_eq!(specifier, expected, "{from} -> {to}");
            let resolved = resolve_import(&importer(from), &specifier, &[]);
            assert!(
                resolved.contains(&to.to_string()),
                "{from} -> {to}: {resolved:?}"
            );
        }
    }
}
