//! Moving a type between files: the text it takes out of its file, and
//! where it goes in the target file (inside the namespace it belongs to).

use lingo_plugin_sdk::extent::{appended, whole_lines};
use lingo_plugin_sdk::types::{PluginError, TextEdit};
use tree_sitter::Node;

use crate::declarations::{enclosing_namespace, file_scoped_namespace, text};
use crate::render::{
    Style, declaration_at, indent_unit, parse_target, render_declaration, start_with_doc,
};

/// The whole lines of the type at `start..end`, with its doc comment (its
/// attributes are part of its node); with the namespace around it too when
/// it is all that namespace holds, so that no empty namespace is left.
///
/// A member (which a deletion may take, a move never) is taken with its
/// doc comment and attributes.
pub fn declaration_extent(
    root: Node,
    source: &str,
    start: usize,
    end: usize,
) -> Result<(usize, usize), PluginError> {
    if let Some(member) = member_at(root, start, end) {
        return Ok(whole_lines(
            source,
            start_with_doc(member, source),
            member.end_byte(),
        ));
    }
    let declaration = declaration_at(root, start, end).ok_or_else(|| {
        PluginError::InvalidInput(format!("no type declaration covers bytes {start}..{end}"))
    })?;
    let mut outer = declaration;
    // Each step goes one namespace out: bounded by the nesting.
    while let Some(namespace) = emptied_namespace(outer) {
        outer = namespace;
    }
    let from = match file_scoped_namespace(outer).filter(|ns| alone_after(*ns, outer)) {
        Some(namespace) => start_with_doc(namespace, source),
        None => start_with_doc(outer, source),
    };
    Ok(whole_lines(source, from, outer.end_byte()))
}

/// Members a deletion takes whole (fields, which may declare several
/// names, are not among them).
const MEMBER_KINDS: &[&str] = &[
    "method_declaration",
    "constructor_declaration",
    "destructor_declaration",
    "operator_declaration",
    "conversion_operator_declaration",
    "property_declaration",
    "indexer_declaration",
    "event_declaration",
    "local_function_statement",
];

/// The member whose declaration ends at `end` and holds `start..end` (a
/// member's span leaves out the attribute lists its node begins with).
fn member_at(root: Node, start: usize, end: usize) -> Option<Node> {
    let mut node = root.descendant_for_byte_range(start, end.max(start))?;
    loop {
        if node.end_byte() < end || node.start_byte() > start {
            return None;
        }
        if MEMBER_KINDS.contains(&node.kind()) {
            return (node.end_byte() == end).then_some(node);
        }
        node = node.parent()?;
    }
}

/// The namespace block `member` is the only member of (comments aside).
fn emptied_namespace(member: Node) -> Option<Node> {
    let list = member.parent().filter(|p| p.kind() == "declaration_list")?;
    let namespace = list
        .parent()
        .filter(|p| p.kind() == "namespace_declaration")?;
    let mut cursor = list.walk();
    let alone = list
        .named_children(&mut cursor)
        .all(|c| c == member || c.kind() == "comment");
    alone.then_some(namespace)
}

/// Whether `member` is all a file-scoped `namespace` declares: nothing but
/// comments and `using` directives beside them in the file.
fn alone_after(namespace: Node, member: Node) -> bool {
    let Some(unit) = member.parent().filter(|p| p.kind() == "compilation_unit") else {
        return false;
    };
    let mut cursor = unit.walk();
    unit.named_children(&mut cursor)
        .all(|c| c == member || c == namespace || matches!(c.kind(), "comment" | "using_directive"))
}

/// Edits to `target` that add the type at `start..end` of `source` to
/// namespace `target_module` (empty: the namespace it is declared in): into that namespace's block or file-scoped
/// namespace when `target` has one, else as a new namespace block at its
/// end (or the whole text, when `target` is empty).
pub fn place_declaration(
    source_root: Node,
    source: &str,
    start: usize,
    end: usize,
    target_root: Node,
    target: &str,
    target_module: &str,
) -> Result<Vec<TextEdit>, PluginError> {
    // Empty: the declaration's own namespace.
    let own;
    let target_module = if target_module.trim().is_empty() {
        let declaration = declaration_at(source_root, start, end).ok_or_else(|| {
            PluginError::InvalidInput(format!("no type declaration covers bytes {start}..{end}"))
        })?;
        own = enclosing_namespace(declaration, source).unwrap_or_default();
        own.as_str()
    } else {
        target_module
    };
    let (namespace, _) = parse_target(target_module, Style::Block)?;
    if target.trim().is_empty() {
        let text = render_declaration(source_root, source, start, end, target_module)?;
        return Ok(vec![edit(0, target.len(), text)]);
    }
    let body = render_declaration(source_root, source, start, end, "")?;
    if let Some(file_scoped) = file_scoped_namespace(target_root) {
        let declared = namespace_name(file_scoped, target);
        if declared != namespace {
            return Err(PluginError::Failed(format!(
                "the target file declares the file-scoped namespace {declared}: a type of \
                 namespace {namespace} cannot be added to it"
            )));
        }
        return Ok(vec![appended(target, &body)]);
    }
    if namespace.is_empty() {
        return Ok(vec![appended(target, &body)]);
    }
    match namespace_block(target_root, target, &namespace) {
        Some(block) => Ok(vec![into_block(block, target, &body)]),
        None => {
            let wrapped = render_declaration(
                source_root,
                source,
                start,
                end,
                &format!("{namespace} {{}}"),
            )?;
            Ok(vec![appended(target, &wrapped)])
        }
    }
}

fn edit(start: usize, end: usize, new_text: String) -> TextEdit {
    TextEdit {
        start: start as u32,
        end: end as u32,
        new_text,
    }
}

fn namespace_name(namespace: Node, source: &str) -> String {
    let mut full: Vec<String> = enclosing_namespace(namespace, source).into_iter().collect();
    if let Some(name) = namespace.child_by_field_name("name") {
        full.push(text(name, source).split_whitespace().collect());
    }
    full.join(".")
}

/// The last `namespace X { }` block of `root` whose full name is `namespace`.
fn namespace_block<'t>(root: Node<'t>, source: &str, namespace: &str) -> Option<Node<'t>> {
    let mut found = None;
    let mut stack = vec![root];
    // Visits each node once.
    while let Some(node) = stack.pop() {
        if node.kind() == "namespace_declaration" && namespace_name(node, source) == namespace {
            found = Some(node);
        }
        if matches!(
            node.kind(),
            "compilation_unit" | "namespace_declaration" | "declaration_list"
        ) {
            let mut cursor = node.walk();
            stack.extend(node.named_children(&mut cursor));
        }
    }
    found
}

/// `body` inserted before the closing brace of namespace `block`, indented
/// one level deeper than the namespace.
fn into_block(block: Node, target: &str, body: &str) -> TextEdit {
    let Some(list) = block.child_by_field_name("body") else {
        return appended(target, body);
    };
    let close = list.end_byte().saturating_sub(1);
    let line_start = target[..block.start_byte()]
        .rfind('\n')
        .map_or(0, |i| i + 1);
    let outer: String = target[line_start..block.start_byte()]
        .chars()
        .take_while(|c| c.is_whitespace())
        .collect();
    let indent = format!("{outer}{}", indent_unit(target));
    let indented: Vec<String> = body
        .trim_end()
        .lines()
        .map(|l| {
            if l.trim().is_empty() {
                String::new()
            } else {
                format!("{indent}{l}")
            }
        })
        .collect();
    let close_line_start = target[..close].rfind('\n').map_or(0, |i| i + 1);
    let brace_alone = target[close_line_start..close].trim().is_empty();
    let has_members = list.named_child_count() > 0;
    let gap = if has_members { "\n" } else { "" };
    if brace_alone {
        edit(
            close_line_start,
            close_line_start,
            format!("{gap}{}\n", indented.join("\n")),
        )
    } else {
        edit(
            close,
            close,
            format!("\n{gap}{}\n{outer}", indented.join("\n")),
        )
    }
}
