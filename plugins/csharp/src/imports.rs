//! `using` directives: the imports they make, and the edits that add or
//! remove them.

use lingo_plugin_sdk::LineIndex;
use lingo_plugin_sdk::source::{indentation, line_end, line_start};
use lingo_plugin_sdk::types::{Import, ImportKind, ImportedName, PluginError, TextEdit};
use tree_sitter::Node;

use crate::declarations::text;

/// One `using` directive, taken apart.
pub struct Using<'t> {
    pub node: Node<'t>,
    /// `global using`: in force in every file of the project.
    pub global: bool,
    /// `using static Type;`
    pub is_static: bool,
    /// The alias of `using Alias = Target;`.
    pub alias: Option<Node<'t>>,
    /// The namespace or type named.
    pub target: Node<'t>,
}

impl<'t> Using<'t> {
    fn parse(node: Node<'t>) -> Option<Self> {
        let mut cursor = node.walk();
        let children: Vec<Node<'t>> = node.children(&mut cursor).collect();
        let alias = node.child_by_field_name("name");
        let target = children
            .iter()
            .rev()
            .find(|c| c.is_named() && Some(**c) != alias && c.kind() != "comment")?;
        Some(Using {
            node,
            global: children.iter().any(|c| c.kind() == "global"),
            is_static: children.iter().any(|c| c.kind() == "static"),
            alias,
            target: *target,
        })
    }

    /// The target as written, whitespace removed.
    pub fn path(&self, source: &str) -> String {
        compact(text(self.target, source))
    }

    fn is_plain(&self) -> bool {
        self.alias.is_none() && !self.is_static
    }

    /// For an alias: the namespace part of the target and the aliased name
    /// (type arguments dropped) with the node holding it.
    fn aliased(&self, source: &str) -> (String, String, Node<'t>) {
        let target = self.target;
        let (module, name) = match target.kind() {
            "qualified_name" => (
                target
                    .child_by_field_name("qualifier")
                    .map(|q| compact(text(q, source)))
                    .unwrap_or_default(),
                target.child_by_field_name("name").unwrap_or(target),
            ),
            "alias_qualified_name" => (
                String::new(),
                target.child_by_field_name("name").unwrap_or(target),
            ),
            _ => (String::new(), target),
        };
        let bare = if name.kind() == "generic_name" {
            name.named_child(0).unwrap_or(name)
        } else {
            name
        };
        (module, compact(text(bare, source)), bare)
    }
}

/// Text without whitespace (`System . Text` is `System.Text`).
fn compact(text: &str) -> String {
    text.split_whitespace().collect()
}

/// `global::A.B` is `A.B`.
pub fn without_global(path: &str) -> &str {
    path.strip_prefix("global::").unwrap_or(path)
}

/// Every `using` directive: top level and inside namespaces.
pub fn usings(root: Node) -> Vec<Using> {
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        match node.kind() {
            "using_directive" => out.extend(Using::parse(node)),
            "compilation_unit" | "namespace_declaration" | "declaration_list" => {
                let mut cursor = node.walk();
                let children: Vec<_> = node.named_children(&mut cursor).collect();
                stack.extend(children.into_iter().rev());
            }
            kind if kind.starts_with("preproc_") => {
                let mut cursor = node.walk();
                let children: Vec<_> = node.named_children(&mut cursor).collect();
                stack.extend(children.into_iter().rev());
            }
            _ => {}
        }
    }
    out
}

/// The imports of a file. `using A.B;` imports the namespace, `using
/// static A.B.T;` everything static of a type (a glob of types only), and
/// `using X = A.B.T;` the name `T` of `A.B` as `X`. A `global using` applies
/// to every file of the project and is reported as a re-export.
pub fn imports(root: Node, source: &str, lines: &LineIndex) -> Vec<Import> {
    usings(root)
        .into_iter()
        .map(|using| {
            let span = lines.span(source, using.node.start_byte(), using.node.end_byte());
            let (module_path, kind, names) = match using.alias {
                Some(alias) => {
                    let (module, name, name_node) = using.aliased(source);
                    let imported = ImportedName {
                        name,
                        alias: Some(text(alias, source).to_string()),
                        span: lines.span(source, name_node.start_byte(), name_node.end_byte()),
                    };
                    (module, ImportKind::Named, vec![imported])
                }
                // `using X;` brings every type of namespace X into scope,
                // `using static X.T;` every static member of T: both globs.
                None => (using.path(source), ImportKind::Glob, Vec::new()),
            };
            Import {
                module_path,
                kind,
                names,
                type_only: using.is_static,
                reexport: using.global,
                span,
            }
        })
        .collect()
}

/// How `using` directives sort: `System` namespaces first, then by name
/// regardless of case.
fn sort_key(path: &str) -> (bool, String, String) {
    let path = without_global(path);
    let system = path == "System" || path.starts_with("System.");
    (!system, path.to_lowercase(), path.to_string())
}

/// The directives that new ones join: the non-global top-level usings if
/// there are any, else those of the first namespace that has some.
fn using_site<'a, 't>(usings: &'a [Using<'t>]) -> Vec<&'a Using<'t>> {
    let local: Vec<&Using> = usings.iter().filter(|u| !u.global).collect();
    let Some(first) = local
        .iter()
        .find(|u| {
            u.node
                .parent()
                .is_some_and(|p| p.kind() == "compilation_unit")
        })
        .or_else(|| local.first())
    else {
        return Vec::new();
    };
    let parent = first.node.parent();
    local
        .into_iter()
        .filter(|u| u.node.parent() == parent)
        .collect()
}

/// Edits adding `using module_path;`. It joins the file's own directives
/// (top level, or inside the namespace when the file keeps them there), in
/// sorted position with `System` first; a file without directives gets it at
/// the top, after its header comments and `extern alias` lines. The names
/// are brought in by the namespace import, so they need no edit of their own.
pub fn render_import(
    root: Node,
    source: &str,
    module_path: &str,
    _names: &[String],
) -> Result<Vec<TextEdit>, PluginError> {
    let module_path = compact(module_path);
    if module_path.is_empty() {
        return Err(PluginError::InvalidInput("module path is empty".into()));
    }
    let all = usings(root);
    let wanted = without_global(&module_path);
    if all
        .iter()
        .any(|u| u.is_plain() && without_global(&u.path(source)) == wanted)
    {
        return Ok(Vec::new());
    }
    let statement = format!("using {module_path};");
    let site = using_site(&all);
    let plain: Vec<&&Using> = site.iter().filter(|u| u.is_plain()).collect();
    let key = sort_key(&module_path);
    let edit = |offset: usize, new_text: String| TextEdit {
        start: offset as u32,
        end: offset as u32,
        new_text,
    };
    if let Some(next) = plain.iter().find(|u| sort_key(&u.path(source)) > key) {
        let indent = indentation(source, next.node.start_byte());
        let at = line_start(source, next.node.start_byte());
        return Ok(vec![edit(at, format!("{indent}{statement}\n"))]);
    }
    if let Some(last) = plain.last() {
        let indent = indentation(source, last.node.start_byte());
        return Ok(vec![edit(
            last.node.end_byte(),
            format!("\n{indent}{statement}"),
        )]);
    }
    if let Some(first) = site.first() {
        let indent = indentation(source, first.node.start_byte());
        let at = line_start(source, first.node.start_byte());
        return Ok(vec![edit(at, format!("{indent}{statement}\n"))]);
    }
    // No directive of the file's own: after `extern alias` lines and global
    // usings, else before the first declaration and the comments attached
    // to it (a header comment separated by a blank line stays first).
    let mut cursor = root.walk();
    let children: Vec<Node> = root.children(&mut cursor).collect();
    let is_directive = |n: &Node| matches!(n.kind(), "extern_alias_directive" | "using_directive");
    if let Some(last) = children.iter().rev().find(|n| is_directive(n)) {
        return Ok(vec![edit(
            line_end(source, last.end_byte()),
            format!("{statement}\n"),
        )]);
    }
    let Some(first) = children.iter().position(|n| n.kind() != "comment") else {
        let text = if source.is_empty() || source.ends_with('\n') {
            format!("{statement}\n")
        } else {
            format!("\n{statement}\n")
        };
        return Ok(vec![edit(source.len(), text)]);
    };
    let mut start = children[first];
    for comment in children[..first].iter().rev() {
        if comment.end_position().row + 1 < start.start_position().row {
            break;
        }
        start = *comment;
    }
    Ok(vec![edit(
        line_start(source, start.start_byte()),
        format!("{statement}\n\n"),
    )])
}

/// Edits removing the directives that import from `module_path`: with
/// `name`, the alias directive for that name (`using X = A.B.Name;`, by
/// name or alias); without, every directive of the namespace or type.
pub fn remove_import(
    root: Node,
    source: &str,
    module_path: &str,
    name: Option<&str>,
) -> Result<Vec<TextEdit>, PluginError> {
    let module_path = compact(module_path);
    let wanted = without_global(&module_path);
    let mut edits = Vec::new();
    let mut namespace_import = false;
    for using in usings(root) {
        let doomed = match (using.alias, name) {
            (Some(alias), _) => {
                let (module, aliased, _) = using.aliased(source);
                without_global(&module) == wanted
                    && name.is_none_or(|n| n == aliased || n == text(alias, source))
            }
            (None, None) => without_global(&using.path(source)) == wanted,
            (None, Some(_)) => {
                namespace_import |= without_global(&using.path(source)) == wanted;
                false
            }
        };
        if doomed {
            edits.push(remove_line(using.node, source));
        }
    }
    if edits.is_empty() {
        return Err(PluginError::InvalidInput(match name {
            Some(n) if namespace_import => format!(
                "`using {wanted};` imports the whole namespace: `{n}` cannot be removed alone"
            ),
            Some(n) => format!("`{n}` is not imported from `{wanted}`"),
            None => format!("nothing is imported from `{wanted}`"),
        }));
    }
    Ok(edits)
}

/// Remove a directive, with its line when nothing else is on it.
fn remove_line(node: Node, source: &str) -> TextEdit {
    let (mut start, mut end) = (node.start_byte(), node.end_byte());
    let line = line_start(source, start);
    let next = line_end(source, end);
    if source[line..start].trim().is_empty() && source[end..next].trim().is_empty() {
        start = line;
        end = next;
    }
    TextEdit {
        start: start as u32,
        end: end as u32,
        new_text: String::new(),
    }
}
