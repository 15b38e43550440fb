//! Go imports as facts: one import per spec, named after the package it
//! brings in, and the local package names that qualify selectors.

use lingo_plugin_sdk::LineIndex;
use lingo_plugin_sdk::types::{Import, ImportKind, ImportedName};
use tree_sitter::Node;

use crate::names::assumed_package_name;

/// How an import spec binds its package.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Binding<'t> {
    /// `import "fmt"`: under the package's own name.
    Plain,
    /// `import f "fmt"`.
    Alias(Node<'t>),
    /// `import . "fmt"`: every exported name, unqualified.
    Dot,
    /// `import _ "embed"`: for its side effects only.
    Blank,
}

/// One import spec of the file.
#[derive(Debug, Clone, Copy)]
pub struct Spec<'t> {
    pub node: Node<'t>,
    pub path_node: Node<'t>,
    pub binding: Binding<'t>,
}

impl<'t> Spec<'t> {
    /// The import path, without its quotes.
    pub fn path<'s>(&self, source: &'s str) -> &'s str {
        let quoted = &source[self.path_node.byte_range()];
        quoted
            .strip_prefix(['"', '`'])
            .and_then(|s| s.strip_suffix(['"', '`']))
            .unwrap_or(quoted)
    }

    /// The name the package has in this file (`None` for dot and blank imports).
    pub fn local_name(&self, source: &str) -> Option<String> {
        match self.binding {
            Binding::Plain => Some(assumed_package_name(self.path(source))),
            Binding::Alias(alias) => Some(source[alias.byte_range()].to_string()),
            Binding::Dot | Binding::Blank => None,
        }
    }
}

/// The top-level `import` declarations of a file.
pub fn declarations(root: Node) -> Vec<Node> {
    let mut cursor = root.walk();
    root.named_children(&mut cursor)
        .filter(|n| n.kind() == "import_declaration")
        .collect()
}

/// The specs of one `import` declaration, grouped or not.
pub fn specs_of(declaration: Node) -> Vec<Spec> {
    let mut out = Vec::new();
    let mut cursor = declaration.walk();
    for child in declaration.named_children(&mut cursor) {
        match child.kind() {
            "import_spec" => out.extend(spec(child)),
            "import_spec_list" => {
                let mut c = child.walk();
                out.extend(
                    child
                        .named_children(&mut c)
                        .filter(|n| n.kind() == "import_spec")
                        .filter_map(spec),
                );
            }
            _ => {}
        }
    }
    out
}

fn spec(node: Node) -> Option<Spec> {
    let path_node = node.child_by_field_name("path")?;
    let binding = match node.child_by_field_name("name") {
        None => Binding::Plain,
        Some(name) => match name.kind() {
            "dot" => Binding::Dot,
            "blank_identifier" => Binding::Blank,
            _ => Binding::Alias(name),
        },
    };
    Some(Spec {
        node,
        path_node,
        binding,
    })
}

/// Every import spec of the file, in order.
pub fn all_specs(root: Node) -> Vec<Spec> {
    declarations(root).into_iter().flat_map(specs_of).collect()
}

/// The imports of a file: a plain or aliased import is a `namespace` import
/// of the package under its assumed name (with the alias, if any); a dot
/// import is a `glob`; a blank import a `side-effect`.
pub fn imports(root: Node, source: &str, lines: &LineIndex) -> Vec<Import> {
    all_specs(root)
        .into_iter()
        .map(|spec| {
            let path = spec.path(source).to_string();
            let (kind, names) = match spec.binding {
                Binding::Plain | Binding::Alias(_) => {
                    let alias = match spec.binding {
                        Binding::Alias(a) => Some(a),
                        _ => None,
                    };
                    let span_node = alias.unwrap_or(spec.path_node);
                    let name = ImportedName {
                        name: assumed_package_name(&path),
                        alias: alias.map(|a| source[a.byte_range()].to_string()),
                        span: lines.span(source, span_node.start_byte(), span_node.end_byte()),
                    };
                    (ImportKind::Namespace, vec![name])
                }
                Binding::Dot => (ImportKind::Glob, Vec::new()),
                Binding::Blank => (ImportKind::SideEffect, Vec::new()),
            };
            Import {
                module_path: path,
                kind,
                names,
                type_only: false,
                reexport: false,
                span: lines.span(source, spec.node.start_byte(), spec.node.end_byte()),
            }
        })
        .collect()
}

/// The names imported packages have in the file.
pub fn package_names(root: Node, source: &str) -> Vec<String> {
    all_specs(root)
        .iter()
        .filter_map(|s| s.local_name(source))
        .collect()
}
