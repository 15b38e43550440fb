//! Moving and deleting declarations: the text a declaration takes out of its
//! file, the declaration rendered for another package, and where it goes in
//! the target file.

use lingo_plugin_sdk::extent::{appended, dedent, whole_lines};
use lingo_plugin_sdk::source::indentation;
use lingo_plugin_sdk::types::{PluginError, TextEdit};
use tree_sitter::Node;

use crate::declarations::{TYPE_KINDS, owner, text};
use crate::modules::package_of;

/// Members a deletion takes whole (fields, which may declare several
/// names, are not among them).
const MEMBER_KINDS: &[&str] = &[
    "method_declaration",
    "constructor_declaration",
    "compact_constructor_declaration",
    "annotation_type_element_declaration",
];

/// The type declaration whose span is `start..end` (not a type around a
/// member).
fn type_at(root: Node, start: usize, end: usize) -> Option<Node> {
    lingo_plugin_sdk::source::declaration_at(root, start, end, |kind| TYPE_KINDS.contains(&kind))
}

/// The member whose declaration ends at `end` and holds `start..end`.
fn member_at(root: Node, start: usize, end: usize) -> Option<Node> {
    lingo_plugin_sdk::source::covering(root, start, end)
        .take_while(|n| n.start_byte() <= start && n.end_byte() >= end)
        .find(|n| MEMBER_KINDS.contains(&n.kind()) || TYPE_KINDS.contains(&n.kind()))
        .filter(|n| MEMBER_KINDS.contains(&n.kind()) && n.end_byte() == end)
}

/// Where the declaration's text starts: at the Javadoc right above it.
fn start_with_doc(declaration: Node, source: &str) -> usize {
    let mut start = declaration;
    while let Some(previous) = start.prev_sibling() {
        let doc = previous.kind() == "block_comment"
            && lingo_plugin_sdk::doc::slash_doc_text(text(previous, source)).is_some()
            || previous.kind() == "line_comment" && text(previous, source).starts_with("///");
        if !doc || previous.end_position().row + 1 < start.start_position().row {
            break;
        }
        start = previous;
    }
    start.start_byte()
}

/// The whole lines of the declaration at `start..end`, with its Javadoc
/// (its annotations are part of its node). A member (which a deletion may
/// take, a move never) is taken the same way.
pub fn declaration_extent(
    root: Node,
    source: &str,
    start: usize,
    end: usize,
) -> Result<(usize, usize), PluginError> {
    let declaration = member_at(root, start, end)
        .or_else(|| type_at(root, start, end))
        .ok_or_else(|| {
            PluginError::InvalidInput(format!("no declaration covers bytes {start}..{end}"))
        })?;
    Ok(whole_lines(
        source,
        start_with_doc(declaration, source),
        declaration.end_byte(),
    ))
}

/// The type at `start..end` as written at the top of a file of package
/// `target_module`: its Javadoc and text, dedented; a nested type loses the
/// modifiers a top-level type may not have (`static`, `private`,
/// `protected`).
pub fn render_declaration(
    root: Node,
    source: &str,
    start: usize,
    end: usize,
    target_module: &str,
) -> Result<String, PluginError> {
    check_package_name(target_module)?;
    let declaration = type_at(root, start, end).ok_or_else(|| {
        PluginError::InvalidInput(format!("no type declaration covers bytes {start}..{end}"))
    })?;
    let from = start_with_doc(declaration, source);
    let nested = owner(declaration).is_some_and(|o| o.kind() != "program");
    let mut dropped: Vec<(usize, usize)> = Vec::new();
    if nested {
        let mut cursor = declaration.walk();
        if let Some(modifiers) = declaration
            .children(&mut cursor)
            .find(|c| c.kind() == "modifiers")
        {
            let mut inner = modifiers.walk();
            for word in modifiers.children(&mut inner) {
                if matches!(word.kind(), "static" | "private" | "protected") {
                    let mut to = word.end_byte();
                    // The blanks after the word go with it.
                    while source[to..].starts_with([' ', '\t']) {
                        to += 1;
                    }
                    dropped.push((word.start_byte(), to));
                }
            }
        }
    }
    let mut out = String::new();
    let mut at = from;
    for (a, b) in dropped {
        out.push_str(&source[at..a]);
        at = b;
    }
    out.push_str(&source[at..declaration.end_byte()]);
    let width = indentation(source, from).len();
    Ok(dedent(&out, width))
}

/// `target` must be a package name (`a.b`) or empty (the unnamed package).
fn check_package_name(target: &str) -> Result<(), PluginError> {
    let valid = target.trim().is_empty()
        || target.trim().split('.').all(|segment| {
            let mut chars = segment.chars();
            chars
                .next()
                .is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
                && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '$')
        });
    if valid {
        Ok(())
    } else {
        Err(PluginError::InvalidInput(format!(
            "`{target}` is not a package name"
        )))
    }
}

/// Edits to `target` that add the type at `start..end` of `source` for
/// package `target_module` (empty: the source file's own): at the end of
/// `target`, or, for an empty target, as a new file with its package
/// clause.
pub fn place_declaration(
    source_root: Node,
    source: &str,
    start: usize,
    end: usize,
    target_root: Node,
    target: &str,
    target_module: &str,
) -> Result<Vec<TextEdit>, PluginError> {
    let own;
    let package = if target_module.trim().is_empty() {
        own = package_of(source_root, source);
        own.as_str()
    } else {
        target_module.trim()
    };
    let rendered = render_declaration(source_root, source, start, end, package)?;
    if target.trim().is_empty() {
        let text = if package.is_empty() {
            format!("{rendered}\n")
        } else {
            format!("package {package};\n\n{rendered}\n")
        };
        return Ok(vec![TextEdit {
            start: 0,
            end: target.len() as u32,
            new_text: text,
        }]);
    }
    let target_package = package_of(target_root, target);
    if target_package != package {
        return Err(PluginError::InvalidInput(format!(
            "the target file is in package `{target_package}`, not `{package}`"
        )));
    }
    // A file holds at most one public top-level type.
    let declaration = type_at(source_root, start, end);
    if declaration.is_some_and(|d| is_public(d, source)) {
        let mut cursor = target_root.walk();
        if let Some(public) = target_root
            .named_children(&mut cursor)
            .find(|c| TYPE_KINDS.contains(&c.kind()) && is_public(*c, target))
        {
            let name = public
                .child_by_field_name("name")
                .map_or("", |n| text(n, target));
            return Err(PluginError::InvalidInput(format!(
                "the target file already declares the public type `{name}`: a file holds one"
            )));
        }
    }
    Ok(vec![appended(target, &format!("{rendered}\n"))])
}

/// Whether the declaration's modifiers say `public`.
fn is_public(declaration: Node, source: &str) -> bool {
    crate::declarations::modifier_words(declaration, source).contains(&"public")
}
