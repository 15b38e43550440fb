//! `use` declarations: flattening use trees into imports, and the edits that
//! add or remove them.

use lingo_plugin_sdk::LineIndex;
use lingo_plugin_sdk::source::{line_end, remove_list_item};
use lingo_plugin_sdk::types::{Import, ImportKind, ImportedName, PluginError, TextEdit};
use lingo_plugin_sdk::walk::{Occurrences, walk_holding};
use tree_sitter::Node;

/// One leaf of a use tree.
struct UseEntry<'t> {
    module: String,
    name: String,
    alias: Option<String>,
    glob: bool,
    /// The use-tree node that brings this entry in.
    node: Node<'t>,
    /// The node holding the name (for its span).
    name_node: Node<'t>,
}

fn segments(node: Node, source: &str) -> Vec<String> {
    source[node.byte_range()]
        .split("::")
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

fn flatten<'t>(node: Node<'t>, prefix: &[String], source: &str, out: &mut Vec<UseEntry<'t>>) {
    match node.kind() {
        "use_list" => {
            let mut cursor = node.walk();
            for child in node.named_children(&mut cursor) {
                flatten(child, prefix, source, out);
            }
        }
        "scoped_use_list" => {
            let mut path = prefix.to_vec();
            if let Some(p) = node.child_by_field_name("path") {
                path.extend(segments(p, source));
            }
            if let Some(list) = node.child_by_field_name("list") {
                flatten(list, &path, source, out);
            }
        }
        "use_wildcard" => {
            let mut path = prefix.to_vec();
            let text = source[node.byte_range()]
                .trim_end_matches('*')
                .trim_end_matches("::");
            path.extend(
                text.split("::")
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(String::from),
            );
            out.push(UseEntry {
                module: path.join("::"),
                name: "*".into(),
                alias: None,
                glob: true,
                node,
                name_node: node,
            });
        }
        "use_as_clause" => {
            let (Some(path), Some(alias)) = (
                node.child_by_field_name("path"),
                node.child_by_field_name("alias"),
            ) else {
                return;
            };
            push_path(
                node,
                path,
                Some(source[alias.byte_range()].to_string()),
                prefix,
                source,
                out,
            );
        }
        "identifier" | "scoped_identifier" | "crate" | "self" | "super" => {
            push_path(node, node, None, prefix, source, out);
        }
        _ => {}
    }
}

fn push_path<'t>(
    node: Node<'t>,
    path: Node<'t>,
    alias: Option<String>,
    prefix: &[String],
    source: &str,
    out: &mut Vec<UseEntry<'t>>,
) {
    let mut full = prefix.to_vec();
    full.extend(segments(path, source));
    if full.last().is_some_and(|s| s == "self") {
        full.pop(); // `use a::b::{self}` imports the module `a::b`
    }
    let Some(name) = full.pop() else { return };
    let name_node = path.child_by_field_name("name").unwrap_or(path);
    out.push(UseEntry {
        module: full.join("::"),
        name,
        alias,
        glob: false,
        node,
        name_node,
    });
}

fn use_declarations<'t>(root: Node<'t>, source: &str) -> Vec<Node<'t>> {
    // A `use` declaration's text holds `use`: subtrees without it are skipped.
    let mut out = Vec::new();
    walk_holding(root, &Occurrences::of("use", source), |node| {
        let found = node.kind() == "use_declaration";
        if found {
            out.push(node);
        }
        !found
    });
    out
}

/// How many inline modules (`mod tests { .. }`) are around `node`, up to
/// [`crate::modules::MAX_INLINE_MODULES`] and one more.
fn inline_depth(node: Node) -> usize {
    let mut depth = 0;
    let mut current = node.parent();
    while let Some(ancestor) = current {
        if ancestor.kind() == "mod_item" && ancestor.child_by_field_name("body").is_some() {
            depth += 1;
            if depth > crate::modules::MAX_INLINE_MODULES {
                break;
            }
        }
        current = ancestor.parent();
    }
    depth
}

/// Whether to keep a `use` of `module` written `depth` inline modules
/// deep, with `module` made relative to the file's module
/// (`super::super::x` one module deep is the file's `super::x`). Not kept:
/// a path whose `super`s stop inside the file (`use super::*` in `mod
/// tests`), which names the file's own declarations, seen by its code
/// already; read from the file's module, it would import the parent
/// module's instead.
fn kept_relative_to_the_file(module: &mut String, depth: usize) -> bool {
    let supers = module.split("::").take_while(|s| *s == "super").count();
    if supers == 0 {
        return true;
    }
    if supers <= depth {
        return false;
    }
    let rest: Vec<&str> = module.split("::").skip(depth).collect();
    *module = rest.join("::");
    true
}

fn entries<'t>(declaration: Node<'t>, source: &str) -> Vec<UseEntry<'t>> {
    let mut out = Vec::new();
    if let Some(argument) = declaration.child_by_field_name("argument") {
        flatten(argument, &[], source, &mut out);
    }
    out
}

/// Every `use` in the file, one import per declaration and module path.
pub fn imports(root: Node, source: &str, lines: &LineIndex) -> Vec<Import> {
    let mut out: Vec<Import> = Vec::new();
    for declaration in use_declarations(root, source) {
        let reexport = {
            let mut c = declaration.walk();
            declaration
                .children(&mut c)
                .any(|n| n.kind() == "visibility_modifier")
        };
        let span = lines.span(source, declaration.start_byte(), declaration.end_byte());
        let first = out.len();
        let depth = inline_depth(declaration);
        for mut entry in entries(declaration, source) {
            if depth > 0 && !kept_relative_to_the_file(&mut entry.module, depth) {
                continue;
            }
            let (module_path, kind) = match (entry.glob, entry.module.is_empty()) {
                (true, _) => (entry.module.clone(), ImportKind::Glob),
                (false, true) => (entry.name.clone(), ImportKind::Namespace),
                (false, false) => (entry.module.clone(), ImportKind::Named),
            };
            let name = ImportedName {
                name: entry.name.clone(),
                alias: entry.alias.clone(),
                span: lines.span(
                    source,
                    entry.name_node.start_byte(),
                    entry.name_node.end_byte(),
                ),
            };
            let existing = out[first..]
                .iter_mut()
                .find(|i| i.module_path == module_path && i.kind == kind);
            match existing {
                Some(import) if kind == ImportKind::Named => import.names.push(name),
                _ => out.push(Import {
                    module_path,
                    kind,
                    names: if entry.glob { Vec::new() } else { vec![name] },
                    type_only: false,
                    reexport,
                    span,
                }),
            }
        }
    }
    out
}

/// Edits adding `use module_path::{names};` after the last top-level `use`.
pub fn render_import(
    root: Node,
    source: &str,
    module_path: &str,
    names: &[String],
) -> Result<Vec<TextEdit>, PluginError> {
    if module_path.trim().is_empty() {
        return Err(PluginError::InvalidInput("module path is empty".into()));
    }
    let mut existing = Vec::new();
    let mut last_top_level_use = None;
    for declaration in use_declarations(root, source) {
        if declaration.parent() == Some(root) {
            last_top_level_use = Some(declaration);
        }
        existing.extend(entries(declaration, source));
    }
    let has_glob = existing.iter().any(|e| e.glob && e.module == module_path);
    let missing: Vec<&String> = names
        .iter()
        .filter(|n| {
            !has_glob
                && !existing
                    .iter()
                    .any(|e| e.module == module_path && &e.name == *n)
        })
        .collect();
    if missing.is_empty() && !names.is_empty() {
        return Ok(Vec::new());
    }
    let statement = match missing.as_slice() {
        [] if names_a_module_by_itself(module_path) => {
            return Err(PluginError::InvalidInput(format!(
                "`use {module_path};` is not Rust: an import of `{module_path}` names what it imports"
            )));
        }
        [] => format!("use {module_path};"),
        [one] => format!("use {module_path}::{one};"),
        many => format!(
            "use {module_path}::{{{}}};",
            many.iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    let (offset, text) = match last_top_level_use {
        Some(last) => (last.end_byte(), format!("\n{statement}")),
        None => (after_file_header(root, source), format!("{statement}\n")),
    };
    Ok(vec![TextEdit {
        start: offset as u32,
        end: offset as u32,
        new_text: text,
    }])
}

/// Whether `module_path` ends in `self`, `super` or `crate`, which a `use`
/// may not import by itself.
fn names_a_module_by_itself(module_path: &str) -> bool {
    matches!(
        module_path.trim().rsplit("::").next(),
        Some("self" | "super" | "crate")
    )
}

/// `pub use path::{a, b};` after the last top-level `use`: what moved to
/// `module_path` stays reachable by the path of the module it left, and
/// the module's own uses of the names keep working through it.
pub fn render_reexport(
    root: Node,
    source: &str,
    module_path: &str,
    names: &[String],
) -> Result<Vec<TextEdit>, PluginError> {
    if module_path.trim().is_empty() {
        return Err(PluginError::InvalidInput("module path is empty".into()));
    }
    let is_identifier = |name: &str| {
        let mut chars = name.chars();
        chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
            && chars.all(|c| c.is_alphanumeric() || c == '_')
    };
    if names.is_empty() || !names.iter().all(|n| is_identifier(n)) {
        return Err(PluginError::InvalidInput(
            "a re-export names one or more identifiers".into(),
        ));
    }
    let statement = match names {
        [one] => format!("pub use {module_path}::{one};"),
        many => format!("pub use {module_path}::{{{}}};", many.join(", ")),
    };
    let last_top_level_use = use_declarations(root, source)
        .into_iter()
        .rfind(|d| d.parent() == Some(root));
    let (offset, text) = match last_top_level_use {
        Some(last) => (last.end_byte(), format!("\n{statement}")),
        None => (after_file_header(root, source), format!("{statement}\n")),
    };
    Ok(vec![TextEdit {
        start: offset as u32,
        end: offset as u32,
        new_text: text,
    }])
}

/// The name the new file at `path` has as a module: its stem, or its
/// folder's name for a `mod.rs`.
fn module_name_of_file(path: &str) -> Option<&str> {
    let path = path.strip_suffix(".rs")?;
    let (folder, stem) = path.rsplit_once('/').unwrap_or(("", path));
    let name = if stem == "mod" {
        folder.rsplit('/').next()?
    } else {
        stem
    };
    let mut chars = name.chars();
    let is_identifier = chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || c == '_');
    is_identifier.then_some(name)
}

/// The files that may declare the new file `path` as a module, most likely
/// first: in its folder `f`, a crate root (`f/lib.rs`, `f/main.rs`) or the
/// module `f` itself (`f/mod.rs`, `f.rs`); for `f/name/mod.rs`, those of
/// `f/name.rs`.
pub fn module_declarers(path: &str) -> Vec<String> {
    let Some(path) = path.strip_suffix(".rs") else {
        return Vec::new();
    };
    let path = path.strip_suffix("/mod").unwrap_or(path);
    let Some((folder, _)) = path.rsplit_once('/') else {
        return Vec::new();
    };
    vec![
        format!("{folder}/lib.rs"),
        format!("{folder}/main.rs"),
        format!("{folder}/mod.rs"),
        format!("{folder}.rs"),
    ]
}

/// `mod name;` for the new file at `path`, after the last top-level `mod`
/// item without a body (else the last `use`, else the file header);
/// nothing if the file declares it already.
pub fn declare_module(root: Node, source: &str, path: &str) -> Result<Vec<TextEdit>, PluginError> {
    let name = module_name_of_file(path).ok_or_else(|| {
        PluginError::InvalidInput(format!("`{path}` is no Rust file a `mod` can name"))
    })?;
    let mut cursor = root.walk();
    let items: Vec<Node> = root.named_children(&mut cursor).collect();
    let declared = |item: &Node| {
        item.kind() == "mod_item"
            && item
                .child_by_field_name("name")
                .is_some_and(|n| &source[n.byte_range()] == name)
    };
    if items.iter().any(declared) {
        return Ok(Vec::new());
    }
    let last_of = |kind: &str| {
        items
            .iter()
            .rfind(|item| item.kind() == kind && item.child_by_field_name("body").is_none())
            .copied()
    };
    let statement = format!("mod {name};");
    let (offset, text) = match last_of("mod_item").or_else(|| last_of("use_declaration")) {
        Some(last) => (last.end_byte(), format!("\n{statement}")),
        None => (after_file_header(root, source), format!("{statement}\n")),
    };
    Ok(vec![TextEdit {
        start: offset as u32,
        end: offset as u32,
        new_text: text,
    }])
}

/// The offset after inner attributes, inner doc comments and `extern crate`s
/// at the top of the file.
fn after_file_header(root: Node, source: &str) -> usize {
    let mut offset = 0;
    let mut cursor = root.walk();
    for child in root.children(&mut cursor) {
        let text = &source[child.byte_range()];
        let header = child.kind() == "inner_attribute_item"
            || child.kind() == "extern_crate_declaration"
            || (child.kind() == "line_comment" && text.starts_with("//!"));
        if !header {
            break;
        }
        offset = line_end(source, child.end_byte());
    }
    offset
}

/// Edits removing `name` (or every name) imported from `module_path`.
pub fn remove_import(
    root: Node,
    source: &str,
    module_path: &str,
    name: Option<&str>,
) -> Result<Vec<TextEdit>, PluginError> {
    let mut edits = Vec::new();
    for declaration in use_declarations(root, source) {
        let all = entries(declaration, source);
        let matches = |e: &UseEntry| {
            let module = if e.module.is_empty() {
                &e.name
            } else {
                &e.module
            };
            module == module_path
                && name.is_none_or(|n| n == e.name || e.alias.as_deref() == Some(n))
        };
        let doomed: Vec<Node> = all.iter().filter(|e| matches(e)).map(|e| e.node).collect();
        if doomed.is_empty() {
            continue;
        }
        if doomed.len() == all.len() {
            let end = line_end(source, declaration.end_byte());
            let end = if source[declaration.end_byte()..end].trim().is_empty() {
                end
            } else {
                declaration.end_byte()
            };
            edits.push(TextEdit {
                start: declaration.start_byte() as u32,
                end: end as u32,
                new_text: String::new(),
            });
            continue;
        }
        for node in collapse_to_removable(doomed) {
            edits.push(remove_list_item(node, source));
        }
    }
    if edits.is_empty() {
        return Err(PluginError::InvalidInput(match name {
            Some(n) => format!("`{n}` is not imported from `{module_path}`"),
            None => format!("nothing is imported from `{module_path}`"),
        }));
    }
    Ok(edits)
}

/// When every item of a `{...}` list goes, remove the list's owner instead.
fn collapse_to_removable(mut doomed: Vec<Node>) -> Vec<Node> {
    loop {
        let mut changed = false;
        let mut next = Vec::new();
        let mut handled = std::collections::HashSet::new();
        for node in &doomed {
            let Some(list) = node.parent().filter(|p| p.kind() == "use_list") else {
                next.push(*node);
                continue;
            };
            if !handled.insert(list.id()) {
                continue;
            }
            let mut c = list.walk();
            let items: Vec<Node> = list.named_children(&mut c).collect();
            let siblings: Vec<Node> = doomed
                .iter()
                .copied()
                .filter(|d| d.parent() == Some(list))
                .collect();
            match list.parent().filter(|p| p.kind() == "scoped_use_list") {
                Some(owner) if siblings.len() == items.len() => {
                    next.push(owner);
                    changed = true;
                }
                _ => next.extend(siblings),
            }
        }
        doomed = next;
        if !changed {
            return doomed;
        }
    }
}

/// Use trees nested in one `use`, followed out, at most.
const MAX_USE_NESTING: usize = 32;

/// The first segment of a path inside a `use` list (`span` in `use
/// crate::{span::Span}`, `a` in `use crate::{a::{b, c}}`), given as
/// `word`: its text and the path of the
/// lists around it (`["crate"]`), which the grammar leaves outside the
/// path. `None` for any other word, and for a path no list holds.
pub fn use_list_prefix(word: Node, source: &str) -> Option<(String, Vec<String>)> {
    if word.kind() != "identifier" {
        return None;
    }
    // Up the paths `word` begins (`span` of `span::Span`, `a` of `a::b::C`).
    let mut path = word;
    while let Some(parent) = path
        .parent()
        .filter(|p| p.kind() == "scoped_identifier" && p.child_by_field_name("path") == Some(path))
    {
        path = parent;
    }
    let mut at = path.parent()?;
    if at.kind() == "scoped_use_list" && at.child_by_field_name("path") == Some(path) {
        // `a` of `a::{b, c}`, itself in a list.
        at = at.parent()?;
    } else if path == word {
        return None;
    }
    let mut prefix: Vec<String> = Vec::new();
    for _ in 0..MAX_USE_NESTING {
        match at.kind() {
            "use_list" => {
                let list_owner = at.parent()?;
                if list_owner.kind() != "scoped_use_list" {
                    break;
                }
                if let Some(list_path) = list_owner.child_by_field_name("path") {
                    let mut segments = segments(list_path, source);
                    segments.append(&mut prefix);
                    prefix = segments;
                }
                at = list_owner.parent()?;
            }
            "use_as_clause" => at = at.parent()?,
            _ => break,
        }
    }
    if prefix.is_empty() {
        return None;
    }
    Some((source.get(word.byte_range())?.to_string(), prefix))
}

#[cfg(test)]
mod inline_module_tests {
    use lingo_plugin_sdk::LineIndex;
    use lingo_plugin_sdk::testing::parse;

    use crate::Rust;

    /// The module paths of the file's imports.
    fn module_paths(source: &str) -> Vec<String> {
        let tree = parse::<Rust>("src/ast/parse.rs", source);
        super::imports(tree.root_node(), source, &LineIndex::new(source))
            .into_iter()
            .map(|i| i.module_path)
            .collect()
    }

    #[test]
    fn a_use_of_the_file_from_its_inline_modules_is_not_the_parents() {
        let source = "use crate::ast;\n\
            fn f() {}\n\
            mod tests {\n    use super::*;\n    use super::super::Alternation;\n    use std::mem;\n\
            \n    mod deeper {\n        use super::super::f;\n        use super::super::super::Span;\n    }\n}\n";
        assert_eq!(
            module_paths(source),
            ["crate", "super", "std", "super"],
            "`use super::*` in `mod tests` names this file's module, not its parent"
        );
    }
}
