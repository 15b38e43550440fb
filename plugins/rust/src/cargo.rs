//! What `Cargo.toml` files say that module paths need, read with the
//! `toml` crate: a package's crate name and the dependencies it renames
//! (`tokio_util = { package = "tokio-util", .. }`, directly or through the
//! workspace's `[workspace.dependencies]`).

use std::rc::Rc;

use lingo_plugin_sdk::types::Manifest;
use toml::{Table, Value};

/// The dependency tables of a manifest (target-specific ones are found
/// under `[target.<cfg>]`).
const DEPENDENCY_TABLES: &[&str] = &["dependencies", "dev-dependencies", "build-dependencies"];

/// One `Cargo.toml`, as far as module paths need it.
#[derive(Debug, Default)]
pub struct CargoManifest {
    /// The folder it is in, with a trailing `/` (empty at the root).
    pub dir: String,
    /// `[package] name`.
    pub package: Option<String>,
    /// The library's crate name: `[lib] name`, else the package's, with
    /// `-` spelled `_`.
    pub crate_name: Option<String>,
    /// Dependencies known by another name than their package's: (the name
    /// paths write, with `-` spelled `_`; the package), `workspace = true`
    /// ones not yet looked up.
    renames: Vec<(String, String)>,
    /// `name = { workspace = true }` dependencies, by the name paths write.
    from_workspace: Vec<String>,
    /// `[workspace.dependencies]` renames.
    workspace_renames: Vec<(String, String)>,
}

impl CargoManifest {
    /// The manifest `manifest` says, or `None` when it is no `Cargo.toml`
    /// or not TOML.
    pub fn read(manifest: &Manifest) -> Option<CargoManifest> {
        let dir = manifest.path.strip_suffix("Cargo.toml")?;
        if !(dir.is_empty() || dir.ends_with('/')) {
            return None;
        }
        let table: Table = manifest.contents.parse().ok()?;
        let string =
            |table: Option<&Value>, key: &str| table?.get(key)?.as_str().map(str::to_string);
        let package = string(table.get("package"), "name");
        let lib = string(table.get("lib"), "name");
        let mut read = CargoManifest {
            dir: dir.to_string(),
            crate_name: lib.or_else(|| package.clone()).map(|n| n.replace('-', "_")),
            package,
            ..CargoManifest::default()
        };
        let targets = table
            .get("target")
            .and_then(Value::as_table)
            .into_iter()
            .flat_map(|targets| targets.values().filter_map(Value::as_table));
        for holder in std::iter::once(&table).chain(targets) {
            for name in DEPENDENCY_TABLES {
                let Some(dependencies) = holder.get(*name).and_then(Value::as_table) else {
                    continue;
                };
                read.add_dependencies(dependencies, false);
            }
        }
        if let Some(dependencies) = table
            .get("workspace")
            .and_then(|w| w.get("dependencies"))
            .and_then(Value::as_table)
        {
            read.add_dependencies(dependencies, true);
        }
        Some(read)
    }

    fn add_dependencies(&mut self, dependencies: &Table, of_workspace: bool) {
        for (name, spec) in dependencies {
            let written = name.replace('-', "_");
            let Some(spec) = spec.as_table() else {
                continue;
            };
            if let Some(package) = spec.get("package").and_then(Value::as_str) {
                let rename = (written, package.to_string());
                if of_workspace {
                    self.workspace_renames.push(rename);
                } else {
                    self.renames.push(rename);
                }
            } else if !of_workspace && spec.get("workspace").and_then(Value::as_bool) == Some(true)
            {
                self.from_workspace.push(written);
            }
        }
    }
}

/// The crate a path's first segment `first` names in a crate of the
/// package `importer` (its crate name), where a manifest renames that
/// dependency: the renamed package's crate name. `None` where no manifest
/// renames it, or the manifests that do disagree.
pub fn renamed_crate(manifests: &[Manifest], importer: &str, first: &str) -> Option<String> {
    let read = read_all(manifests);
    // The importer's own manifest; for a test, example or benchmark crate
    // (named after its file), any.
    let own: Vec<&CargoManifest> = read
        .iter()
        .filter(|m| m.crate_name.as_deref() == Some(importer))
        .collect();
    let candidates: Vec<&CargoManifest> = if own.is_empty() {
        read.iter().collect()
    } else {
        own
    };
    let mut packages: Vec<&str> = Vec::new();
    for manifest in candidates {
        let direct = manifest
            .renames
            .iter()
            .find(|(written, _)| written == first)
            .map(|(_, package)| package.as_str());
        // `first = { workspace = true }`: the rename the workspace root's
        // `[workspace.dependencies]` makes, the root being the nearest
        // manifest above that has one.
        let through_workspace = || {
            if !manifest.from_workspace.iter().any(|w| w == first) {
                return None;
            }
            read.iter()
                .filter(|root| manifest.dir.starts_with(&root.dir))
                .filter(|root| !root.workspace_renames.is_empty())
                .max_by_key(|root| root.dir.len())?
                .workspace_renames
                .iter()
                .find(|(written, _)| written == first)
                .map(|(_, package)| package.as_str())
        };
        if let Some(package) = direct.or_else(through_workspace)
            && !packages.contains(&package)
        {
            packages.push(package);
        }
    }
    let [package] = packages.as_slice() else {
        return None;
    };
    // The package's library crate name when the workspace has it, else
    // its name as paths write it.
    Some(
        read.iter()
            .find(|m| m.package.as_deref() == Some(*package))
            .and_then(|m| m.crate_name.clone())
            .unwrap_or_else(|| package.replace('-', "_")),
    )
}

/// Every `Cargo.toml` of `manifests`, read (once while they are the same).
fn read_all(manifests: &[Manifest]) -> Rc<Vec<CargoManifest>> {
    lingo_plugin_sdk::manifests::read_once(manifests, |manifests| {
        manifests
            .iter()
            .filter_map(CargoManifest::read)
            .collect::<Vec<_>>()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    use lingo_plugin_sdk::testing::manifest;

    #[test]
    fn crate_names_come_from_the_lib_target_else_the_package() {
        let read = |contents| CargoManifest::read(&manifest("a/Cargo.toml", contents)).unwrap();
        let named = read("[package]\nname = \"tokio-util\"\n");
        assert_eq!(named.crate_name.as_deref(), Some("tokio_util"));
        let lib = read("[package]\nname = \"x\"\n\n[lib]\nname = \"y-z\" # the library\n");
        assert_eq!(lib.crate_name.as_deref(), Some("y_z"));
        assert!(CargoManifest::read(&manifest("a/Cargo.toml", "[package\nname")).is_none());
        assert!(CargoManifest::read(&manifest("a/NotCargo.toml", "")).is_none());
    }

    #[test]
    fn renamed_dependencies_name_the_packages_crate() {
        let manifests = [
            manifest(
                "Cargo.toml",
                "[workspace]\nmembers = [\"app\", \"core\"]\n\n[workspace.dependencies]\nshared = { package = \"core-lib\", path = \"core\" }\n",
            ),
            manifest(
                "app/Cargo.toml",
                "[package]\nname = \"app\"\n\n[dependencies]\nengine = { package = \"core-lib\", path = \"../core\" }\nshared.workspace = true\n\n[target.'cfg(unix)'.dev-dependencies]\nunix-io = { package = \"io-uring\", version = \"1\" }\n",
            ),
            manifest(
                "core/Cargo.toml",
                "[package]\nname = \"core-lib\"\n\n[lib]\nname = \"corelib\"\n",
            ),
        ];
        assert_eq!(
            renamed_crate(&manifests, "app", "engine").as_deref(),
            Some("corelib")
        );
        assert_eq!(
            renamed_crate(&manifests, "app", "shared").as_deref(),
            Some("corelib")
        );
        assert_eq!(
            renamed_crate(&manifests, "app", "unix_io").as_deref(),
            Some("io_uring")
        );
        // Not renamed: the name is the crate's own.
        assert_eq!(renamed_crate(&manifests, "app", "serde"), None);
        // A test crate of the package sees the package's renames.
        assert_eq!(
            renamed_crate(&manifests, "tests_it", "engine").as_deref(),
            Some("corelib")
        );
        // The reading is kept between calls only while the manifests are
        // the same: an edit of the same length is seen.
        let mut edited = manifests.clone();
        edited[2].contents = edited[2].contents.replace("corelib", "corebin");
        assert_eq!(edited[2].contents.len(), manifests[2].contents.len());
        assert_eq!(
            renamed_crate(&edited, "app", "engine").as_deref(),
            Some("corebin")
        );
        assert_eq!(
            renamed_crate(&manifests, "app", "engine").as_deref(),
            Some("corelib")
        );
    }
}
