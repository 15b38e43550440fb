//! tsconfig.json as tsc reads it for module resolution: the file governing
//! an importer (the nearest one above it), its `extends` chain within the
//! workspace (relative paths and workspace packages, arrays of them), and
//! `compilerOptions.baseUrl`, `paths` (patterns with one `*`, exact ones
//! first, then the longest prefix), `rootDirs` and `customConditions`, each
//! relative to the file that sets it. tsconfig is JSON with comments and
//! trailing commas.

use lingo_plugin_sdk::types::Manifest;
use serde_json::{Map, Value};

/// Most `extends` links followed (a cycle stops there too).
const MAX_EXTENDS: usize = 8;

/// Most project `references`, and `include`/`files`/`exclude` entries,
/// read of one config.
const MAX_REFERENCES: usize = 64;

/// The resolution settings in force for one importer.
#[derive(Debug, Default, PartialEq)]
pub struct Resolution {
    /// Workspace-relative folder non-relative imports may be under.
    pub base_url: Option<String>,
    /// `paths` patterns with their targets, and the folder the targets are
    /// relative to.
    pub paths: Vec<(String, Vec<String>)>,
    pub paths_base: String,
    /// `customConditions`, tried first in `exports` maps.
    pub custom_conditions: Vec<String>,
    /// `rootDirs`, workspace-relative: folders whose contents a relative
    /// import sees as one.
    pub root_dirs: Vec<String>,
}

impl Resolution {
    /// The workspace-relative paths `import_path` maps to through `paths`
    /// (before extensions and index files are tried): the exact pattern, or
    /// else the `*` pattern with the longest prefix.
    pub fn mapped(&self, import_path: &str) -> Vec<String> {
        let exact = self
            .paths
            .iter()
            .find(|(pattern, _)| !pattern.contains('*') && pattern == import_path);
        let (targets, star) = match exact {
            Some((_, targets)) => (targets, ""),
            None => {
                let best = self
                    .paths
                    .iter()
                    .filter_map(|(pattern, targets)| {
                        let (prefix, suffix) = pattern.split_once('*')?;
                        let middle = import_path.strip_prefix(prefix)?.strip_suffix(suffix)?;
                        Some((prefix.len(), targets, middle))
                    })
                    .max_by_key(|(prefix, ..)| *prefix);
                match best {
                    Some((_, targets, middle)) => (targets, middle),
                    None => return Vec::new(),
                }
            }
        };
        targets
            .iter()
            .filter_map(|target| {
                super::modules::join(&self.paths_base, &target.replacen('*', star, 1))
            })
            .collect()
    }
}

/// The folder of a tsconfig manifest (`""` at the root).
fn folder(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(dir, _)| dir)
}

/// Whether `folder` is `ancestor` or inside it (`""` holds everything).
fn is_within(folder: &str, ancestor: &str) -> bool {
    ancestor.is_empty() || folder == ancestor || folder.starts_with(&format!("{ancestor}/"))
}

/// The config governing a file in `importer_folder`: the nearest
/// `tsconfig.json` (or `jsconfig.json`) at or above it; when that one
/// lists project `references` (a solution config, as Vite's template's
/// `tsconfig.json` naming `tsconfig.app.json`), the first referenced
/// config whose `include` or `files` holds the file.
fn governing_config<'a>(importer_folder: &str, manifests: &'a [Manifest]) -> Option<&'a Manifest> {
    let nearest = manifests
        .iter()
        .filter(|m| {
            let name = m.path.rsplit('/').next().unwrap_or(&m.path);
            matches!(name, "tsconfig.json" | "jsconfig.json")
        })
        .filter(|m| is_within(importer_folder, folder(&m.path)))
        .max_by_key(|m| folder(&m.path).len())?;
    let Some(config) = parse(&nearest.contents) else {
        return Some(nearest);
    };
    let dir = folder(&nearest.path);
    let referenced = config
        .get("references")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .take(MAX_REFERENCES)
        .filter_map(|r| r.get("path")?.as_str())
        .filter_map(|path| {
            let mut path = super::modules::join(dir, path)?;
            if !path.ends_with(".json") {
                path.push_str("/tsconfig.json");
            }
            manifests.iter().find(|m| m.path == path)
        });
    for candidate in referenced {
        if parse(&candidate.contents)
            .is_some_and(|c| holds(&c, folder(&candidate.path), importer_folder))
        {
            return Some(candidate);
        }
    }
    Some(nearest)
}

/// Whether the config `config` (in `dir`) holds the files of
/// `importer_folder`: one of its `include` or `files` entries reaches
/// that folder and no `exclude` entry does; without `include` and
/// `files`, every folder under its own. Entries are read by their
/// literal part: `src` and `src/**/*` reach every folder under `src`,
/// `*.ts` and `main.ts` only their own folder.
fn holds(config: &Map<String, Value>, dir: &str, importer_folder: &str) -> bool {
    let entries = |key: &str| -> Vec<String> {
        config
            .get(key)
            .map(strings)
            .unwrap_or_default()
            .into_iter()
            .take(MAX_REFERENCES)
            .collect()
    };
    let reaches = |entry: &str| -> bool {
        let segments: Vec<&str> = entry
            .split('/')
            .filter(|s| !s.is_empty() && *s != ".")
            .collect();
        let wildcard = segments.iter().position(|s| s.contains(['*', '?']));
        let (literal, deep) = match wildcard {
            Some(at) => (
                &segments[..at],
                segments[at] == "**" || at + 1 < segments.len(),
            ),
            // A file (`vite.config.ts`) is in its folder; a folder holds
            // everything under it.
            None => match segments.last() {
                Some(last) if last.contains('.') => (&segments[..segments.len() - 1], false),
                _ => (&segments[..], true),
            },
        };
        let Some(reached) = super::modules::join(dir, &literal.join("/")) else {
            return false;
        };
        if deep {
            is_within(importer_folder, &reached)
        } else {
            importer_folder == reached
        }
    };
    let (include, files) = (entries("include"), entries("files"));
    let included = if config.contains_key("include") || config.contains_key("files") {
        include.iter().chain(&files).any(|e| reaches(e))
    } else {
        is_within(importer_folder, dir)
    };
    included && !entries("exclude").iter().any(|e| reaches(e))
}

/// The settings for a file in `importer_folder`: from the config that
/// governs it ([`governing_config`]), with its `extends` chain; `None`
/// when no config governs it.
pub fn resolution_for(importer_folder: &str, manifests: &[Manifest]) -> Option<Resolution> {
    let governing = governing_config(importer_folder, manifests)?;
    let mut resolution = Resolution::default();
    let (mut base_url_set, mut paths_set, mut conditions_set, mut root_dirs_set) =
        (false, false, false, false);
    // The chain in precedence order: a file's own settings first, then what
    // it extends, the last of an `extends` array before the first.
    let mut pending: Vec<&Manifest> = vec![governing];
    let mut seen: Vec<&str> = Vec::new();
    while let Some(manifest) = pending.pop() {
        if seen.len() >= MAX_EXTENDS || seen.contains(&manifest.path.as_str()) {
            continue;
        }
        seen.push(&manifest.path);
        let Some(config) = parse(&manifest.contents) else {
            continue;
        };
        let dir = folder(&manifest.path);
        let options = config.get("compilerOptions").and_then(Value::as_object);
        let option = |name: &str| options.and_then(|o| o.get(name));
        // The nearest setting wins: a file's own over what it extends.
        if !base_url_set && let Some(base) = option("baseUrl").and_then(Value::as_str) {
            resolution.base_url = super::modules::join(dir, base);
            base_url_set = true;
        }
        if !paths_set && let Some(paths) = option("paths").and_then(Value::as_object) {
            resolution.paths = paths
                .iter()
                .map(|(pattern, targets)| (pattern.clone(), strings(targets)))
                .collect();
            resolution.paths_base = dir.to_string();
            paths_set = true;
        }
        if !conditions_set && let Some(conditions) = option("customConditions") {
            resolution.custom_conditions = strings(conditions);
            conditions_set = true;
        }
        if !root_dirs_set && let Some(root_dirs) = option("rootDirs") {
            resolution.root_dirs = strings(root_dirs)
                .iter()
                .filter_map(|root| super::modules::join(dir, root))
                .collect();
            root_dirs_set = true;
        }
        // Of an array, the last `MAX_EXTENDS` (the ones that win): no more
        // links are followed in all.
        let extended: Vec<&str> = match config.get("extends") {
            Some(Value::String(one)) => vec![one.as_str()],
            Some(Value::Array(many)) => {
                let skipped = many.len().saturating_sub(MAX_EXTENDS);
                many[skipped..].iter().filter_map(Value::as_str).collect()
            }
            _ => Vec::new(),
        };
        // Pushed first to last: the last is taken first.
        pending.extend(
            extended
                .into_iter()
                .filter_map(|target| extended_config(dir, target, manifests)),
        );
    }
    // Paths without a baseUrl are relative to their own file; with one, to it.
    if let Some(base) = &resolution.base_url {
        resolution.paths_base = base.clone();
    }
    Some(resolution)
}

/// The strings of a JSON string or array of strings.
fn strings(value: &Value) -> Vec<String> {
    match value {
        Value::String(one) => vec![one.clone()],
        Value::Array(many) => many
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect(),
        _ => Vec::new(),
    }
}

/// The tsconfig an `extends` of a file in `dir` names: a path relative to
/// it (`./base`, `.json` added when missing), or a file of a workspace
/// package (`@org/tsconfig/base.json`; the package alone means its
/// `tsconfig.json`).
fn extended_config<'a>(dir: &str, target: &str, manifests: &'a [Manifest]) -> Option<&'a Manifest> {
    let mut path = if target.starts_with("./") || target.starts_with("../") {
        super::modules::join(dir, target)?
    } else {
        let (name, sub_path) = super::modules::split_package(target);
        let (package, _) = super::modules::package_named(name, manifests)?;
        super::modules::join(package, sub_path.unwrap_or("tsconfig.json"))?
    };
    if !path.ends_with(".json") {
        path.push_str(".json");
    }
    manifests.iter().find(|m| m.path == path)
}

/// A tsconfig's object: JSON once its comments and trailing commas are
/// taken out (strings kept as they are).
fn parse(text: &str) -> Option<Map<String, Value>> {
    match serde_json::from_str(&strict_json(text)).ok()? {
        Value::Object(map) => Some(map),
        _ => None,
    }
}

/// `text` with `//` and `/* */` comments and the commas before a closing
/// `}` or `]` removed, outside strings.
fn strict_json(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    // Where a comma was kept, to drop it if a closer follows.
    let mut pending_comma: Option<usize> = None;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                let start = i;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i = (i + 1).min(bytes.len());
                out.push_str(&text[start..i]);
                pending_comma = None;
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i < bytes.len() && !(bytes[i] == b'*' && bytes.get(i + 1) == Some(&b'/')) {
                    i += 1;
                }
                i = (i + 2).min(bytes.len());
            }
            b',' => {
                pending_comma = Some(out.len());
                out.push(',');
                i += 1;
            }
            b'}' | b']' => {
                if let Some(at) = pending_comma.take() {
                    out.replace_range(at..at + 1, " ");
                }
                out.push(bytes[i] as char);
                i += 1;
            }
            c if c.is_ascii_whitespace() => {
                out.push(c as char);
                i += 1;
            }
            _ => {
                let start = i;
                i += 1;
                while i < bytes.len() && !b"\"/,}] \t\r\n".contains(&bytes[i]) {
                    i += 1;
                }
                out.push_str(&text[start..i]);
                pending_comma = None;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    use lingo_plugin_sdk::testing::manifest;

    #[test]
    fn comments_and_trailing_commas_are_read_past_but_not_inside_strings() {
        let text =
            "{\n  // a comment\n  \"a\": \"http://x/*y*/\", /* block */\n  \"b\": [1, 2,],\n}\n";
        let parsed = parse(text).expect("parses");
        assert_eq!(parsed["a"], "http://x/*y*/");
        assert_eq!(parsed["b"], serde_json::json!([1, 2]));
        assert!(parse("{\"a\": \"unterminated").is_none());
        assert!(parse("[1]").is_none());
        // Deeply nested, a lone backslash at the end, a comment left open:
        // nothing read, no panic.
        assert!(parse(&"[".repeat(100_000)).is_none());
        assert!(parse("{\"a\": \"x\\").is_none());
        assert!(parse("{ /* open").is_none());
    }

    #[test]
    fn paths_map_exact_patterns_first_then_the_longest_prefix() {
        let manifests = [
            manifest(
                "tsconfig.base.json",
                r#"{ "compilerOptions": { "baseUrl": ".", "paths": {
                    "@lib/*": ["packages/lib/src/*"],
                    "@lib/special/*": ["packages/special/*", "fallback/*"],
                    "thelib/v4": ["packages/lib/src/v4/index.ts"],
                    "*": ["types/*"],
                }, "customConditions": ["@lib/source"] } }"#,
            ),
            manifest("app/tsconfig.json", r#"{ "extends": "../tsconfig.base" }"#),
        ];
        let resolution = resolution_for("app/src", &manifests).expect("governed");
        assert_eq!(resolution.base_url.as_deref(), Some(""));
        assert_eq!(
            resolution.mapped("@lib/shapes"),
            ["packages/lib/src/shapes"]
        );
        assert_eq!(
            resolution.mapped("@lib/special/x"),
            ["packages/special/x", "fallback/x"]
        );
        assert_eq!(
            resolution.mapped("thelib/v4"),
            ["packages/lib/src/v4/index.ts"]
        );
        assert_eq!(resolution.mapped("react"), ["types/react"]);
        assert_eq!(resolution.custom_conditions, ["@lib/source"]);
        // No tsconfig above the file: nothing governs it.
        assert!(resolution_for("other", &manifests[1..]).is_none());
    }

    #[test]
    fn extends_names_workspace_packages_and_arrays_whose_last_entry_wins() {
        let manifests = [
            manifest(
                "packages/config/package.json",
                r#"{ "name": "@acme/config" }"#,
            ),
            manifest(
                "packages/config/tsconfig.json",
                r#"{ "compilerOptions": { "customConditions": ["@acme/source"] } }"#,
            ),
            manifest(
                "packages/config/tsconfig.paths.json",
                r#"{ "compilerOptions": { "paths": { "@/*": ["./shared/*"] } } }"#,
            ),
            manifest(
                "apps/web/tsconfig.app.json",
                r#"{ "compilerOptions": { "paths": { "@/*": ["./src/*"] } } }"#,
            ),
            manifest(
                "apps/web/tsconfig.json",
                r#"{ "extends": ["@acme/config/tsconfig.paths.json", "./tsconfig.app", "@acme/config"] }"#,
            ),
        ];
        let resolution = resolution_for("apps/web/src", &manifests).expect("governed");
        // The later `./tsconfig.app` overrides the earlier package's paths.
        assert_eq!(resolution.mapped("@/util"), ["apps/web/src/util"]);
        // A package named alone is its tsconfig.json.
        assert_eq!(resolution.custom_conditions, ["@acme/source"]);
        // An extends of a package the workspace lacks is skipped.
        let lacking = [manifest(
            "tsconfig.json",
            r#"{ "extends": "@tsconfig/node20/tsconfig.json", "compilerOptions": { "baseUrl": "src" } }"#,
        )];
        let resolution = resolution_for("src", &lacking).expect("governed");
        assert_eq!(resolution.base_url.as_deref(), Some("src"));
    }

    #[test]
    fn a_solution_config_hands_each_file_to_the_referenced_project_that_includes_it() {
        // Vite's template: `tsconfig.json` only references the app's and
        // the tooling's configs; the app's holds the `@/*` alias.
        let manifests = [
            manifest(
                "web/tsconfig.json",
                r#"{ "files": [], "references": [{ "path": "./tsconfig.app.json" }, { "path": "./tsconfig.node.json" }] }"#,
            ),
            manifest(
                "web/tsconfig.app.json",
                r#"{ "compilerOptions": { "paths": { "@/*": ["./src/*"] } }, "include": ["src"], "exclude": ["src/legacy/**"] }"#,
            ),
            manifest(
                "web/tsconfig.node.json",
                r#"{ "compilerOptions": { "paths": { "@/*": ["./tools/*"] } }, "include": ["vite.config.ts"] }"#,
            ),
        ];
        let app = resolution_for("web/src/components", &manifests).expect("governed");
        assert_eq!(app.mapped("@/lib/utils"), ["web/src/lib/utils"]);
        let node = resolution_for("web", &manifests).expect("governed");
        assert_eq!(node.mapped("@/x"), ["web/tools/x"]);
        // Excluded from the app, held by no reference: the solution config.
        let legacy = resolution_for("web/src/legacy/old", &manifests).expect("governed");
        assert!(legacy.mapped("@/x").is_empty());
        // Glob entries: `**` reaches every folder below, `*.ts` its own.
        let config = parse(r#"{ "include": ["lib/**/*.ts", "*.ts"] }"#).expect("parses");
        assert!(holds(&config, "p", "p/lib/a/b"));
        assert!(holds(&config, "p", "p"));
        assert!(!holds(&config, "p", "p/other"));
        assert!(!holds(&config, "p", "q/lib"));
        // Hostile: climbing above the root reaches nothing.
        let config = parse(r#"{ "include": ["../../../x"] }"#).expect("parses");
        assert!(!holds(&config, "p", "x"));
        // 100,000 references, includes and extends: a bounded number read.
        let many = |item: &str| vec![item; 100_000].join(",");
        let hostile = [
            manifest(
                "tsconfig.json",
                &format!(
                    r#"{{ "files": [], "references": [{}], "extends": [{}] }}"#,
                    many(r#"{ "path": "./tsconfig.app.json" }"#),
                    many(r#""./tsconfig.json""#)
                ),
            ),
            manifest(
                "tsconfig.app.json",
                &format!(
                    r#"{{ "include": [{}], "compilerOptions": {{ "baseUrl": "." }} }}"#,
                    many(r#""x/**""#)
                ),
            ),
        ];
        assert!(resolution_for("src", &hostile).is_some_and(|r| r.base_url.is_none()));
        assert!(resolution_for("x/y", &hostile).is_some_and(|r| r.base_url.as_deref() == Some("")));
    }

    #[test]
    fn paths_without_a_base_url_are_relative_to_their_file_and_cycles_end() {
        let manifests = [
            manifest(
                "web/tsconfig.json",
                r#"{ "extends": "./tsconfig.paths.json", "compilerOptions": {} }"#,
            ),
            manifest(
                "web/tsconfig.paths.json",
                r#"{ "extends": "./tsconfig.json", "compilerOptions": { "paths": { "~/*": ["./src/*"] } } }"#,
            ),
        ];
        let resolution = resolution_for("web/src/app", &manifests).expect("governed");
        assert_eq!(resolution.base_url, None);
        assert_eq!(resolution.mapped("~/util/dates"), ["web/src/util/dates"]);
        assert!(resolution.mapped("lodash").is_empty());
    }
}
