//! Moving an item between module files: the text it takes out of its file
//! (with its doc comments and attributes), the item rendered for its new
//! module (visibility raised to `pub(crate)` where the old module still
//! needs it), and its place at the end of the target file.

use lingo_plugin_sdk::extent::{appended, attached_start, dedent, whole_lines};
use lingo_plugin_sdk::types::{ModuleIdentity, PluginError, TextEdit};
use tree_sitter::Node;

/// Items that can move to another module file.
const MOVABLE: &[&str] = &[
    "function_item",
    "struct_item",
    "enum_item",
    "union_item",
    "trait_item",
    "type_item",
    "const_item",
    "static_item",
    "impl_item",
    "mod_item",
];

/// What sits right above an item and belongs to it.
const ATTACHED: &[&str] = &["line_comment", "block_comment", "attribute_item"];

/// Where an item may stand: in a module, or also (`Members`) in an `impl`
/// or a trait, which a deletion may take it out of but a move may not.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Within {
    Module,
    Members,
}

/// The item whose node spans `start..end` exactly, at module level (or
/// inside an `impl` or trait, `within` allowing).
fn item_at(root: Node, start: usize, end: usize, within: Within) -> Result<Node, PluginError> {
    let mut node = root.descendant_for_byte_range(start, end);
    while let Some(n) = node {
        if n.start_byte() == start && n.end_byte() == end && MOVABLE.contains(&n.kind()) {
            let module_level = n
                .parent()
                .is_some_and(|p| p.kind() == "source_file" || p.kind() == "declaration_list");
            let in_module = n.parent().and_then(|p| p.parent()).is_none_or(|g| {
                g.kind() == "mod_item"
                    || (within == Within::Members && matches!(g.kind(), "impl_item" | "trait_item"))
            });
            if module_level && in_module {
                return Ok(n);
            }
            break;
        }
        if n.start_byte() < start || n.end_byte() > end {
            break;
        }
        node = n.parent();
    }
    Err(PluginError::InvalidInput(format!(
        "no module-level item spans bytes {start}..{end}: only functions, types, traits, \
         constants, statics, impls and modules move"
    )))
}

/// The whole lines of the item with its doc comments and attributes.
pub fn declaration_extent(
    root: Node,
    source: &str,
    start: usize,
    end: usize,
) -> Result<(usize, usize), PluginError> {
    let item = item_at(root, start, end, Within::Members)?;
    Ok(whole_lines(
        source,
        attached_start(item, source, ATTACHED),
        item.end_byte(),
    ))
}

/// The item at `start..end` with its doc comments and attributes, out of
/// any indentation, for module `target_module` (empty: its own module).
/// In another module a private item and its private fields become
/// `pub(crate)`: the module it leaves may still use them.
pub fn render_declaration(
    root: Node,
    source: &str,
    start: usize,
    end: usize,
    target_module: &str,
) -> Result<String, PluginError> {
    let item = item_at(root, start, end, Within::Module)?;
    let from = attached_start(item, source, ATTACHED);
    let mut insertions: Vec<usize> = Vec::new();
    if !target_module.is_empty() {
        insertions = private_parts(item);
    }
    let mut text = String::new();
    let mut at = from;
    for insertion in insertions {
        text.push_str(&source[at..insertion]);
        text.push_str("pub(crate) ");
        at = insertion;
    }
    text.push_str(&source[at..item.end_byte()]);
    let line_start = source[..from].rfind('\n').map_or(0, |i| i + 1);
    let width = source[line_start..from].len();
    Ok(dedent(&text, width))
}

/// Where `pub(crate) ` goes for the item and its fields that have no
/// visibility, in source order. Impls, trait items and enum variants take
/// their visibility from elsewhere.
fn private_parts(item: Node) -> Vec<usize> {
    let mut out = Vec::new();
    let has_visibility = |node: Node| {
        let mut cursor = node.walk();
        node.children(&mut cursor)
            .any(|c| c.kind() == "visibility_modifier")
    };
    if item.kind() != "impl_item" && !has_visibility(item) {
        out.push(item.start_byte());
    }
    if matches!(item.kind(), "struct_item" | "union_item")
        && let Some(body) = item.child_by_field_name("body")
    {
        let mut cursor = body.walk();
        for field in body.named_children(&mut cursor) {
            if field.kind() == "field_declaration" && !has_visibility(field) {
                out.push(field.start_byte());
            }
        }
        // A tuple struct's fields: each type, unless a visibility precedes it.
        if body.kind() == "ordered_field_declaration_list" {
            let mut visible = false;
            for child in body.children(&mut cursor) {
                match child.kind() {
                    "visibility_modifier" => visible = true,
                    "(" | "," | "attribute_item" => {}
                    _ if child.is_named() => {
                        if !visible {
                            out.push(child.start_byte());
                        }
                        visible = false;
                    }
                    _ => {}
                }
            }
        }
    }
    out.sort_unstable();
    out
}

/// Edits to `target` adding the item at the end, after a blank line.
pub fn place_declaration(
    source_root: Node,
    source: &str,
    start: usize,
    end: usize,
    target: &str,
    target_module: &str,
) -> Result<Vec<TextEdit>, PluginError> {
    let text = render_declaration(source_root, source, start, end, target_module)?;
    Ok(vec![appended(target, &format!("{text}\n"))])
}

/// `crate::a::b` inside the importer's crate, the crate's own name from
/// another crate of the workspace.
pub fn import_specifier(
    importer: &ModuleIdentity,
    target: &ModuleIdentity,
) -> Result<String, PluginError> {
    let krate = |m: &ModuleIdentity| {
        m.crate_or_package
            .clone()
            .unwrap_or_else(|| m.path.split("::").next().unwrap_or_default().to_string())
    };
    let (importer_crate, target_crate) = (krate(importer), krate(target));
    let first = importer.path.split("::").next().unwrap_or_default();
    let target_first = target.path.split("::").next().unwrap_or_default();
    let rest = target.path.split_once("::").map(|(_, rest)| rest);
    if first == target_first && importer_crate == target_crate {
        return Ok(match rest {
            Some(rest) => format!("crate::{rest}"),
            None => "crate".to_string(),
        });
    }
    if target_first.starts_with("tests_")
        || target_first.starts_with("examples_")
        || target_first.starts_with("benches_")
    {
        return Err(PluginError::Failed(format!(
            "{} is a test, example or bench target: other crates cannot import it",
            target.path
        )));
    }
    Ok(target.path.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOURCE: &str = "use std::fmt;\n\n/// A circle.\n#[derive(Debug)]\nstruct Circle {\n    r: f64,\n    pub name: String,\n}\n\nstruct Pair(f64, pub f64);\n\nmod inner {\n    /// Twice.\n    pub fn twice(x: u32) -> u32 {\n        x * 2\n    }\n}\n";

    fn parse(source: &str) -> tree_sitter::Tree {
        lingo_plugin_sdk::testing::parse::<crate::Rust>("a.rs", source)
    }

    fn item(needle: &str) -> (usize, usize) {
        let tree = parse(SOURCE);
        let start = SOURCE.find(needle).unwrap();
        let mut node = tree
            .root_node()
            .descendant_for_byte_range(start, start)
            .unwrap();
        while !MOVABLE.contains(&node.kind()) || node.start_byte() != start {
            node = node.parent().unwrap();
        }
        (node.start_byte(), node.end_byte())
    }

    fn render(needle: &str, module: &str) -> Result<String, PluginError> {
        let (start, end) = item(needle);
        render_declaration(parse(SOURCE).root_node(), SOURCE, start, end, module)
    }

    #[test]
    fn an_item_moved_to_another_module_opens_what_it_kept_private() {
        assert_eq!(
            render("struct Circle", "shapes::round").unwrap(),
            "/// A circle.\n#[derive(Debug)]\npub(crate) struct Circle {\n    pub(crate) r: f64,\n    pub name: String,\n}"
        );
        assert_eq!(
            render("struct Pair", "x").unwrap(),
            "pub(crate) struct Pair(pub(crate) f64, pub f64);"
        );
        assert_eq!(
            render("struct Pair", "").unwrap(),
            "struct Pair(f64, pub f64);"
        );
    }

    #[test]
    fn an_item_of_an_inline_module_comes_out_dedented_with_its_doc() {
        assert_eq!(
            render("pub fn twice", "m").unwrap(),
            "/// Twice.\npub fn twice(x: u32) -> u32 {\n    x * 2\n}"
        );
        let (start, end) = item("pub fn twice");
        let (from, to) = declaration_extent(parse(SOURCE).root_node(), SOURCE, start, end).unwrap();
        assert_eq!(
            &SOURCE[from..to],
            "    /// Twice.\n    pub fn twice(x: u32) -> u32 {\n        x * 2\n    }\n"
        );
    }

    #[test]
    fn the_extent_takes_doc_comments_and_attributes() {
        let (start, end) = item("struct Circle");
        let (from, to) = declaration_extent(parse(SOURCE).root_node(), SOURCE, start, end).unwrap();
        assert_eq!(
            format!("{}{}", &SOURCE[..from], &SOURCE[to..]),
            "use std::fmt;\n\nstruct Pair(f64, pub f64);\n\nmod inner {\n    /// Twice.\n    pub fn twice(x: u32) -> u32 {\n        x * 2\n    }\n}\n"
        );
    }

    #[test]
    fn a_field_is_not_an_item() {
        let start = SOURCE.find("r: f64").unwrap();
        assert!(
            render_declaration(parse(SOURCE).root_node(), SOURCE, start, start + 6, "x").is_err()
        );
    }

    #[test]
    fn specifiers_are_crate_paths_inside_a_crate() {
        let module = |path: &str, krate: &str| ModuleIdentity {
            path: path.into(),
            crate_or_package: Some(krate.into()),
        };
        assert_eq!(
            import_specifier(
                &module("geo::a", "geo"),
                &module("geo::shapes::round", "geo")
            )
            .unwrap(),
            "crate::shapes::round"
        );
        assert_eq!(
            import_specifier(&module("app", "app"), &module("geo::shapes", "geo")).unwrap(),
            "geo::shapes"
        );
        assert_eq!(
            crate::modules::resolve_import(&module("geo::a", "geo"), "crate::shapes::round", &[]),
            ["geo::shapes::round"]
        );
    }
}
