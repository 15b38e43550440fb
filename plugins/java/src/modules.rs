//! Java module identity: a file's package, from its package clause, and
//! the source root it lies under, the way javac finds sources.

use lingo_plugin_sdk::types::{Manifest, ModuleIdentity};
use tree_sitter::Node;

use crate::declarations::text;

/// The package the file's `package` clause names, dotted (`a.b.c`); `""`
/// for the unnamed package.
pub fn package_of(root: Node, source: &str) -> String {
    let mut cursor = root.walk();
    let Some(clause) = root
        .named_children(&mut cursor)
        .find(|c| c.kind() == "package_declaration")
    else {
        return String::new();
    };
    let mut cursor = clause.walk();
    clause
        .named_children(&mut cursor)
        .find(|c| matches!(c.kind(), "identifier" | "scoped_identifier"))
        .map(|name| text(name, source).split_whitespace().collect())
        .unwrap_or_default()
}

/// The source root of the file at `path` in package `package`: the folder
/// that holds the package's folders (`src/main/java` for
/// `src/main/java/a/b/C.java` in package `a.b`), as javac's `-sourcepath`
/// expects. `None` when the file's folder does not end with the package's
/// folders, or the root is the workspace's own.
pub fn source_root(path: &str, package: &str) -> Option<String> {
    let folder = path.rsplit_once('/').map_or("", |(folder, _)| folder);
    let mut segments: Vec<&str> = folder.split('/').filter(|s| !s.is_empty()).collect();
    for part in package.split('.').filter(|s| !s.is_empty()).rev() {
        if segments.pop() != Some(part) {
            return None;
        }
    }
    (!segments.is_empty()).then(|| segments.join("/"))
}

/// The module of a file: its package, in the source root it lies under.
pub fn module_of(
    root: Node,
    source: &str,
    path: &str,
    _manifests: &[Manifest],
) -> Vec<ModuleIdentity> {
    let package = package_of(root, source);
    vec![ModuleIdentity {
        crate_or_package: source_root(path, &package),
        path: package,
    }]
}

/// The package (or type, for a static import or an import of a nested
/// type) `import_path` names: the path itself, since Java imports are
/// always fully qualified.
pub fn resolve_import(import_path: &str) -> Vec<String> {
    let path: String = import_path.split_whitespace().collect();
    if path.is_empty() {
        Vec::new()
    } else {
        vec![path]
    }
}

#[cfg(test)]
mod tests {
    use super::{resolve_import, source_root};

    #[test]
    fn the_source_root_is_the_folder_above_the_package() {
        assert_eq!(
            source_root(
                "gson/src/main/java/com/google/gson/Gson.java",
                "com.google.gson"
            ),
            Some("gson/src/main/java".to_string())
        );
        assert_eq!(source_root("src/A.java", ""), Some("src".to_string()));
        assert_eq!(source_root("a/b/C.java", "a.b"), None);
        assert_eq!(source_root("src/x/C.java", "a.b"), None);
        assert_eq!(resolve_import(" a.b "), ["a.b"]);
        assert!(resolve_import("").is_empty());
    }
}
