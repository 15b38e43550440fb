//! `import` declarations: the imports they make, and the edits that add or
//! remove them.

use lingo_plugin_sdk::LineIndex;
use lingo_plugin_sdk::source::{line_end, line_start};
use lingo_plugin_sdk::types::{Import, ImportKind, ImportedName, PluginError, TextEdit};
use tree_sitter::Node;

use crate::declarations::text;

/// One `import` declaration, taken apart.
pub struct JavaImport<'t> {
    pub node: Node<'t>,
    /// `import static`.
    pub is_static: bool,
    /// `import a.b.*;`
    pub on_demand: bool,
    /// The dotted name after `import` (`a.b.C`, or `a.b` of `a.b.*`).
    pub name: Node<'t>,
}

impl<'t> JavaImport<'t> {
    fn parse(node: Node<'t>) -> Option<Self> {
        let mut cursor = node.walk();
        let children: Vec<Node<'t>> = node.children(&mut cursor).collect();
        let name = children
            .iter()
            .find(|c| matches!(c.kind(), "scoped_identifier" | "identifier"))?;
        Some(JavaImport {
            node,
            is_static: children.iter().any(|c| c.kind() == "static"),
            on_demand: children.iter().any(|c| c.kind() == "asterisk"),
            name: *name,
        })
    }

    /// The dotted name as written, whitespace and comments removed.
    pub fn path(&self, source: &str) -> String {
        dotted(self.name, source)
    }

    /// The module imported from and, for a single-name import, the name
    /// with its node: `a.b` and `C` of `import a.b.C;`.
    fn split(&self, source: &str) -> (String, Option<(String, Node<'t>)>) {
        if self.on_demand {
            return (self.path(source), None);
        }
        match (
            self.name.child_by_field_name("scope"),
            self.name.child_by_field_name("name"),
        ) {
            (Some(scope), Some(name)) => (
                dotted(scope, source),
                Some((text(name, source).to_string(), name)),
            ),
            _ => (
                String::new(),
                Some((text(self.name, source).to_string(), self.name)),
            ),
        }
    }
}

/// A dotted name's identifiers joined by `.` (comments and spaces between
/// them dropped).
fn dotted(node: Node, source: &str) -> String {
    let mut parts = Vec::new();
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        if n.kind() == "identifier" {
            parts.push(text(n, source));
            continue;
        }
        let mut cursor = n.walk();
        let children: Vec<Node> = n
            .named_children(&mut cursor)
            .filter(|c| !c.is_extra())
            .collect();
        stack.extend(children.into_iter().rev());
    }
    parts.join(".")
}

/// Every `import` declaration of the file.
pub fn java_imports(root: Node) -> Vec<JavaImport> {
    let mut cursor = root.walk();
    root.named_children(&mut cursor)
        .filter(|c| c.kind() == "import_declaration")
        .filter_map(JavaImport::parse)
        .collect()
}

/// The imports of a file. `import a.b.C;` imports the name `C` of module
/// `a.b`; `import a.b.*;` is a glob of `a.b`. Static imports read the same
/// way with the type as the module: `import static a.b.C.m;` imports `m`
/// of `a.b.C`, and `import static a.b.C.*;` is a glob of `a.b.C`.
pub fn imports(root: Node, source: &str, lines: &LineIndex) -> Vec<Import> {
    java_imports(root)
        .into_iter()
        .map(|import| {
            let span = lines.span(source, import.node.start_byte(), import.node.end_byte());
            let (module_path, name) = import.split(source);
            let (kind, names) = match name {
                None => (ImportKind::Glob, Vec::new()),
                Some((name, node)) => (
                    ImportKind::Named,
                    vec![ImportedName {
                        name,
                        alias: None,
                        span: lines.span(source, node.start_byte(), node.end_byte()),
                    }],
                ),
            };
            Import {
                module_path,
                kind,
                names,
                type_only: false,
                reexport: false,
                span,
            }
        })
        .collect()
}

/// Whether `s` is a dotted Java name (`a.b.C`).
fn is_dotted_name(s: &str) -> bool {
    !s.is_empty()
        && s.split('.').all(|segment| {
            let mut chars = segment.chars();
            chars
                .next()
                .is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
                && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '$')
        })
}

/// How imports sort: static ones after the others, each group by name.
fn sort_key(is_static: bool, path: &str) -> (bool, String) {
    (is_static, path.to_string())
}

/// Edits adding `import module_path.Name;` for each name (`import
/// module_path.*;` when `names` is empty or holds `*`). Each joins the
/// file's imports in sorted position; a file without imports gets them
/// after its package clause, else at the top after its header comments. A
/// name already imported, by itself or by a glob of its package, needs no
/// edit.
pub fn render_import(
    root: Node,
    source: &str,
    module_path: &str,
    names: &[String],
) -> Result<Vec<TextEdit>, PluginError> {
    let module_path: String = module_path.split_whitespace().collect();
    if !is_dotted_name(&module_path) {
        return Err(PluginError::InvalidInput(format!(
            "`{module_path}` is not a package or type name"
        )));
    }
    let existing = java_imports(root);
    let globbed = existing
        .iter()
        .any(|i| i.on_demand && !i.is_static && i.path(source) == module_path);
    let mut wanted: Vec<String> = Vec::new();
    if names.is_empty() || names.iter().any(|n| n == "*") {
        if !globbed {
            wanted.push(format!("{module_path}.*"));
        }
    } else {
        for name in names {
            if !is_dotted_name(name) || name.contains('.') {
                return Err(PluginError::InvalidInput(format!(
                    "`{name}` is not a simple name"
                )));
            }
            let full = format!("{module_path}.{name}");
            let present = globbed
                || existing
                    .iter()
                    .any(|i| !i.on_demand && !i.is_static && i.path(source) == full);
            if !present && !wanted.contains(&full) {
                wanted.push(full);
            }
        }
    }
    let mut edits = Vec::new();
    for path in wanted {
        edits.push(insertion(root, source, &existing, &path)?);
    }
    Ok(edits)
}

/// The edit adding `import path;` among `existing`.
fn insertion(
    root: Node,
    source: &str,
    existing: &[JavaImport],
    path: &str,
) -> Result<TextEdit, PluginError> {
    let statement = format!("import {path};");
    let key = sort_key(false, path);
    let edit = |offset: usize, new_text: String| TextEdit {
        start: offset as u32,
        end: offset as u32,
        new_text,
    };
    let path_of = |i: &JavaImport| {
        let mut p = i.path(source);
        if i.on_demand {
            p.push_str(".*");
        }
        p
    };
    if let Some(next) = existing
        .iter()
        .find(|i| sort_key(i.is_static, &path_of(i)) > key)
    {
        let at = line_start(source, next.node.start_byte());
        return Ok(edit(at, format!("{statement}\n")));
    }
    if let Some(last) = existing.last() {
        return Ok(edit(last.node.end_byte(), format!("\n{statement}")));
    }
    let mut cursor = root.walk();
    let children: Vec<Node> = root.children(&mut cursor).collect();
    if let Some(package) = children.iter().find(|c| c.kind() == "package_declaration") {
        return Ok(edit(
            line_end(source, package.end_byte()),
            format!("\n{statement}\n"),
        ));
    }
    let Some(first) = children.iter().position(|n| !n.is_extra()) else {
        let text = if source.is_empty() || source.ends_with('\n') {
            format!("{statement}\n")
        } else {
            format!("\n{statement}\n")
        };
        return Ok(edit(source.len(), text));
    };
    // Before the first declaration and the comments attached to it (a
    // header comment separated by a blank line stays first).
    let mut start = children[first];
    for comment in children[..first].iter().rev() {
        if comment.end_position().row + 1 < start.start_position().row {
            break;
        }
        start = *comment;
    }
    Ok(edit(
        line_start(source, start.start_byte()),
        format!("{statement}\n\n"),
    ))
}

/// Edits removing the imports from `module_path`: with `name`, the import
/// of that name (`import a.b.Name;`, static or not); without, every import
/// of the module, single names and glob.
pub fn remove_import(
    root: Node,
    source: &str,
    module_path: &str,
    name: Option<&str>,
) -> Result<Vec<TextEdit>, PluginError> {
    let module_path: String = module_path.split_whitespace().collect();
    let mut edits = Vec::new();
    let mut globbed = false;
    for import in java_imports(root) {
        let (module, imported) = import.split(source);
        if module != module_path {
            continue;
        }
        let doomed = match (name, imported) {
            (None, _) => true,
            (Some(n), Some((imported, _))) => imported == n,
            (Some(_), None) => {
                globbed = true;
                false
            }
        };
        if doomed {
            edits.push(remove_line(import.node, source));
        }
    }
    if edits.is_empty() {
        return Err(PluginError::InvalidInput(match name {
            Some(n) if globbed => format!(
                "`import {module_path}.*;` imports the whole package: `{n}` cannot be removed alone"
            ),
            Some(n) => format!("`{n}` is not imported from `{module_path}`"),
            None => format!("nothing is imported from `{module_path}`"),
        }));
    }
    Ok(edits)
}

/// Remove a declaration, with its line when nothing else is on it.
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
