//! Go naming rules: exported names, visibility and the package name an
//! import path is assumed to declare.

use lingo_plugin_sdk::types::Visibility;
use tree_sitter::Node;

/// Whether a name is exported: it starts with an upper-case letter.
pub fn is_exported(name: &str) -> bool {
    name.chars().next().is_some_and(char::is_uppercase)
}

/// The visibility of `name`, declared by `node`: exported names are public,
/// others private to their package, and anything declared inside a function
/// body private. A package clause and type parameters have none.
pub fn visibility(node: Node, name: Node, source: &str) -> Visibility {
    if matches!(node.kind(), "package_clause" | "type_parameter_declaration") {
        return Visibility::Unspecified;
    }
    if in_function_body(node) {
        return Visibility::Private;
    }
    if is_exported(&source[name.byte_range()]) {
        Visibility::Public
    } else {
        Visibility::Private
    }
}

fn in_function_body(node: Node) -> bool {
    let mut ancestor = node.parent();
    while let Some(current) = ancestor {
        if current.kind() == "block" {
            return true;
        }
        ancestor = current.parent();
    }
    false
}

/// The package name an import path is assumed to declare, as Go tooling
/// guesses it: the last path element, skipping a major-version element
/// (`/v2`), without a `go-` prefix, cut at the first character that cannot
/// be in an identifier (`yaml.v3` declares `yaml`).
pub fn assumed_package_name(import_path: &str) -> String {
    let mut elements = import_path.rsplit('/');
    let mut base = elements.next().unwrap_or_default();
    let is_major_version = base
        .strip_prefix('v')
        .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()));
    if is_major_version && let Some(parent) = elements.next() {
        base = parent;
    }
    let base = base.strip_prefix("go-").unwrap_or(base);
    base.chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn assumed_package_names_follow_go_tooling() {
        assert_eq!(assumed_package_name("fmt"), "fmt");
        assert_eq!(assumed_package_name("net/http"), "http");
        assert_eq!(assumed_package_name("github.com/spf13/cobra/v2"), "cobra");
        assert_eq!(assumed_package_name("gopkg.in/yaml.v3"), "yaml");
        assert_eq!(
            assumed_package_name("github.com/mattn/go-sqlite3"),
            "sqlite3"
        );
        assert_eq!(assumed_package_name("example.com/v2"), "example");
    }

    #[test]
    fn exported_names_start_with_an_upper_case_letter() {
        assert!(is_exported("Name"));
        assert!(is_exported("Ärger"));
        assert!(!is_exported("name"));
        assert!(!is_exported("_Name"));
    }
}
