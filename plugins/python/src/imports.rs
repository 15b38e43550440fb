//! Python imports as facts: `import a.b` binds the package `a`, `import a.b
//! as m` the module `a.b` as `m`, `from m import x, y as z` names of `m`
//! (which the importing module re-exports: every name a module binds is
//! its attribute, and a package's `__init__.py` re-exports this way), and
//! `from m import *` everything public of `m`.

use lingo_plugin_sdk::LineIndex;
use lingo_plugin_sdk::declared::preorder;
use lingo_plugin_sdk::source::text;
use lingo_plugin_sdk::types::{Import, ImportKind, ImportedName};
use tree_sitter::Node;

/// The imports of the file at `path`: in a stub (`.pyi`, PEP 484) a
/// `from m import x` re-exports `x` only when written `x as x`, and every
/// name of the statement must be so written for it to count as a re-export.
pub fn file_imports(path: &str, root: Node, source: &str, lines: &LineIndex) -> Vec<Import> {
    let mut found = imports(root, source, lines);
    if path.ends_with(".pyi") {
        for import in found.iter_mut().filter(|i| i.kind == ImportKind::Named) {
            import.reexport = import
                .names
                .iter()
                .all(|n| n.alias.as_deref() == Some(n.name.as_str()));
        }
    }
    found
}

/// The imports of the file, wherever they are written (inside `if
/// TYPE_CHECKING:`, `try:` or a function too), in source order.
pub fn imports(root: Node, source: &str, lines: &LineIndex) -> Vec<Import> {
    let mut out = Vec::new();
    preorder(root, |node| match node.kind() {
        "import_statement" => plain(node, source, lines, &mut out),
        "import_from_statement" => out.push(from(node, source, lines)),
        _ => {}
    });
    out
}

/// The names `import` statements bind, and the dotted module paths they
/// import (`a`, `a.b`, `a.b.c` of `import a.b.c`): always modules, so a
/// member access on one is a path into the module (`os.path.join`), not a
/// value's member.
pub fn bound_names(root: Node, source: &str) -> Vec<String> {
    let mut out = Vec::new();
    preorder(root, |node| {
        if node.kind() != "import_statement" {
            return;
        }
        let mut cursor = node.walk();
        for name in node.children_by_field_name("name", &mut cursor) {
            match name.kind() {
                // `import a.b.c` binds `a`, and `a.b`, `a.b.c` are modules.
                "dotted_name" => {
                    let path = dotted(name, source);
                    let mut prefix = String::new();
                    for segment in path.split('.') {
                        if !prefix.is_empty() {
                            prefix.push('.');
                        }
                        prefix.push_str(segment);
                        out.push(prefix.clone());
                    }
                }
                "aliased_import" => out.extend(
                    name.child_by_field_name("alias")
                        .map(|a| text(a, source).to_string()),
                ),
                _ => {}
            }
        }
    });
    out.sort();
    out.dedup();
    out
}

/// `import a.b.c` (a side-effect import of `a.b.c` and a namespace import
/// of `a`, the name it binds), `import a.b as m`.
fn plain(node: Node, source: &str, lines: &LineIndex, out: &mut Vec<Import>) {
    let span = |n: Node| lines.span(source, n.start_byte(), n.end_byte());
    let mut cursor = node.walk();
    for name in node.children_by_field_name("name", &mut cursor) {
        let import = |module_path: String, kind, names| Import {
            module_path,
            kind,
            names,
            type_only: false,
            reexport: false,
            span: span(node),
        };
        match name.kind() {
            "dotted_name" => {
                let path = dotted(name, source);
                let Some(first) = first_segment(name, source) else {
                    continue;
                };
                if path != first {
                    out.push(import(path, ImportKind::SideEffect, Vec::new()));
                }
                let bound = ImportedName {
                    name: first.clone(),
                    alias: None,
                    span: span(name),
                };
                out.push(import(first, ImportKind::Namespace, vec![bound]));
            }
            "aliased_import" => {
                let (Some(module), Some(alias)) = (
                    name.child_by_field_name("name"),
                    name.child_by_field_name("alias"),
                ) else {
                    continue;
                };
                let path = dotted(module, source);
                let last = path.rsplit('.').next().unwrap_or(&path).to_string();
                let bound = ImportedName {
                    name: last,
                    alias: Some(text(alias, source).to_string()),
                    span: span(name),
                };
                out.push(import(path, ImportKind::Namespace, vec![bound]));
            }
            _ => {}
        }
    }
}

/// `from m import a, b as c`, `from . import x`, `from m import *`.
fn from(node: Node, source: &str, lines: &LineIndex) -> Import {
    let span = |n: Node| lines.span(source, n.start_byte(), n.end_byte());
    let module_path = node
        .child_by_field_name("module_name")
        .map(|m| dotted(m, source))
        .unwrap_or_default();
    let mut cursor = node.walk();
    let glob = node
        .children(&mut cursor)
        .any(|c| c.kind() == "wildcard_import");
    let mut names = Vec::new();
    let mut cursor = node.walk();
    for name in node.children_by_field_name("name", &mut cursor) {
        match name.kind() {
            "dotted_name" => names.push(ImportedName {
                name: dotted(name, source),
                alias: None,
                span: span(name),
            }),
            "aliased_import" => {
                if let (Some(imported), Some(alias)) = (
                    name.child_by_field_name("name"),
                    name.child_by_field_name("alias"),
                ) {
                    names.push(ImportedName {
                        name: dotted(imported, source),
                        alias: Some(text(alias, source).to_string()),
                        span: span(name),
                    });
                }
            }
            _ => {}
        }
    }
    Import {
        module_path,
        kind: if glob {
            ImportKind::Glob
        } else {
            ImportKind::Named
        },
        names,
        type_only: false,
        reexport: !glob,
        span: span(node),
    }
}

/// A dotted or relative module name as written, without whitespace or
/// comments between its parts (`a . b` → `a.b`, `..x`).
fn dotted(node: Node, source: &str) -> String {
    text(node, source)
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '\\')
        .collect()
}

fn first_segment(dotted_name: Node, source: &str) -> Option<String> {
    let mut cursor = dotted_name.walk();
    let first = dotted_name
        .named_children(&mut cursor)
        .find(|c| c.kind() == "identifier")?;
    Some(text(first, source).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn described(source: &str) -> Vec<String> {
        let tree = lingo_plugin_sdk::testing::parse::<crate::Python>("m.py", source);
        let lines = LineIndex::new(source);
        imports(tree.root_node(), source, &lines)
            .iter()
            .map(|i| {
                let names: Vec<String> = i
                    .names
                    .iter()
                    .map(|n| match &n.alias {
                        Some(a) => format!("{} as {a}", n.name),
                        None => n.name.clone(),
                    })
                    .collect();
                format!(
                    "{} {} [{}]{}",
                    format!("{:?}", i.kind).trim_start_matches("ImportKind::"),
                    i.module_path,
                    names.join(", "),
                    if i.reexport { " reexport" } else { "" }
                )
            })
            .collect()
    }

    #[test]
    fn a_stub_reexports_only_what_it_imports_as_itself() {
        let source = "from .a import X as X, Y as Y\nfrom .b import Z\nfrom .c import W as V\n";
        let tree = lingo_plugin_sdk::testing::parse::<crate::Python>("m.pyi", source);
        let lines = LineIndex::new(source);
        let reexports = |path: &str| -> Vec<bool> {
            file_imports(path, tree.root_node(), source, &lines)
                .iter()
                .map(|i| i.reexport)
                .collect()
        };
        assert_eq!(reexports("pkg/__init__.pyi"), [true, false, false]);
        assert_eq!(reexports("pkg/__init__.py"), [true, true, true]);
    }

    #[test]
    fn every_form_of_import() {
        let source = "\
import os
import os.path, json as j
from . import sibling
from ..pkg.mod import a, b as c
from typing import *
if TYPE_CHECKING:
    from models import User
def f():
    import late
";
        assert_eq!(
            described(source),
            [
                "Namespace os [os]",
                "SideEffect os.path []",
                "Namespace os [os]",
                "Namespace json [json as j]",
                "Named . [sibling] reexport",
                "Named ..pkg.mod [a, b as c] reexport",
                "Glob typing []",
                "Named models [User] reexport",
                "Namespace late [late]",
            ]
        );
        let tree = lingo_plugin_sdk::testing::parse::<crate::Python>("m.py", source);
        assert_eq!(
            bound_names(tree.root_node(), source),
            ["j", "late", "os", "os.path"]
        );
    }
}
