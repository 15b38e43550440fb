//! Moving a declaration between files: the text it takes out of its file
//! (with its doc comment, and its group when it is the group's only spec),
//! and its place at the end of the target file.

use lingo_plugin_sdk::extent::{appended, attached_start, whole_lines};
use lingo_plugin_sdk::types::{PluginError, TextEdit};
use tree_sitter::Node;

use crate::declarations::{movable_at, package_name, render_text};
use crate::names::assumed_package_name;

/// The node a move takes whole: a spec's declaration when the spec is
/// alone in it (`type T int`, `const ( A = 1 )`), else the node itself.
fn outermost(node: Node) -> Node {
    match node.parent() {
        Some(parent)
            if matches!(
                parent.kind(),
                "type_declaration" | "const_declaration" | "var_declaration"
            ) && parent.named_child_count() == 1 =>
        {
            parent
        }
        Some(list) if list.kind() == "var_spec_list" && list.named_child_count() == 1 => {
            list.parent().unwrap_or(node)
        }
        _ => node,
    }
}

/// The whole lines of the declaration at `start..end` with the comments
/// right above it.
pub fn declaration_extent(
    root: Node,
    source: &str,
    start: usize,
    end: usize,
) -> Result<(usize, usize), PluginError> {
    let node = outermost(movable_at(root, start, end)?);
    let from = attached_start(node, source, &["comment"]);
    Ok(whole_lines(source, from, node.end_byte()))
}

/// The name of a method of the file whose receiver is the type `node`
/// declares, if any.
fn method_of(root: Node, source: &str, node: Node) -> Option<String> {
    if node.kind() != "type_spec" && node.kind() != "type_alias" {
        return None;
    }
    let name = &source[node.child_by_field_name("name")?.byte_range()];
    let mut cursor = root.walk();
    root.named_children(&mut cursor)
        .filter(|d| d.kind() == "method_declaration")
        .find(|method| {
            method
                .child_by_field_name("receiver")
                .is_some_and(|r| receiver_names(&source[r.byte_range()], name))
        })
        .and_then(|method| method.child_by_field_name("name"))
        .map(|n| source[n.byte_range()].to_string())
}

/// Whether a receiver list (`(s *Square)`, `(Square[T])`) names type `name`.
fn receiver_names(receiver: &str, name: &str) -> bool {
    receiver
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .any(|word| word == name)
}

/// Edits to `target` adding the declaration at `start..end` of `source`
/// at its end, for package `target_module` (an import path; empty for the
/// source's own package). Names are exported when the package changes; a
/// new file gets its package clause.
pub fn place_declaration(
    source_root: Node,
    source: &str,
    start: usize,
    end: usize,
    target_root: Node,
    target: &str,
    target_module: &str,
) -> Result<Vec<TextEdit>, PluginError> {
    let node = movable_at(source_root, start, end)?;
    let own_package = package_name(source_root, source).unwrap_or_default();
    let target_package = if target.trim().is_empty() {
        if target_module.is_empty() {
            own_package.clone()
        } else {
            assumed_package_name(target_module.trim_end_matches('/'))
        }
    } else {
        package_name(target_root, target)
            .ok_or_else(|| PluginError::Failed("the target file has no package clause".into()))?
    };
    let export = target_package != own_package;
    if export && let Some(method) = method_of(source_root, source, node) {
        return Err(PluginError::Failed(format!(
            "`{method}` is a method of this type, and a method is declared in its type's package: move the type with its methods, or the methods first"
        )));
    }
    let outer = outermost(node);
    let doc_start = attached_start(outer, source, &["comment"]);
    let doc = dedented_lines(&source[doc_start..outer.start_byte()]);
    let text = format!("{doc}{}\n", render_text(node, source, export)?);
    let text = if target.trim().is_empty() {
        format!("package {target_package}\n\n{text}")
    } else {
        text
    };
    Ok(vec![appended(target, &text)])
}

/// Comment lines taken from inside a group: each line without its
/// indentation.
fn dedented_lines(text: &str) -> String {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(|l| format!("{l}\n"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::parse;

    const SOURCE: &str = "package shapes

import \"math\"

// Circle is round.
type Circle struct{ r float64 }

// area of a circle.
func area(c Circle) float64 { return math.Pi * c.r * c.r }

const (
\t// small things.
\tsmall = 1
\tlarge = 2
)
";

    fn moved(needle: &str, target: &str, module: &str) -> (String, String) {
        let tree = parse(SOURCE);
        let start = SOURCE.find(needle).unwrap();
        let end = start + needle.len();
        let (from, to) = declaration_extent(tree.root_node(), SOURCE, start, end).unwrap();
        let left = format!("{}{}", &SOURCE[..from], &SOURCE[to..]);
        let target_tree = parse(target);
        let edits = place_declaration(
            tree.root_node(),
            SOURCE,
            start,
            end,
            target_tree.root_node(),
            target,
            module,
        )
        .unwrap();
        let mut placed = target.to_string();
        for e in edits.iter().rev() {
            placed.replace_range(e.start as usize..e.end as usize, &e.new_text);
        }
        (left, placed)
    }

    #[test]
    fn a_type_moves_with_its_doc_comment_into_a_new_file_of_its_package() {
        let (left, created) = moved("Circle struct{ r float64 }", "", "");
        assert!(!left.contains("Circle is round"), "{left}");
        assert!(
            left.contains("import \"math\"\n\n// area of a circle."),
            "{left}"
        );
        assert_eq!(
            created,
            "package shapes\n\n// Circle is round.\ntype Circle struct{ r float64 }\n"
        );
    }

    #[test]
    fn a_function_moved_to_another_package_is_exported() {
        let needle = "func area(c Circle) float64 { return math.Pi * c.r * c.r }";
        let (_, placed) = moved(needle, "package geo\n\nvar x = 1\n", "example.com/m/geo");
        assert_eq!(
            placed,
            "package geo\n\nvar x = 1\n\n// area of a circle.\nfunc Area(c Circle) float64 { return math.Pi * c.r * c.r }\n"
        );
    }

    #[test]
    fn a_type_with_methods_in_its_file_does_not_leave_its_package() {
        let source = "package shapes\n\ntype Square struct{ side float64 }\n\nfunc (s *Square) Area() float64 { return s.side * s.side }\n";
        let tree = crate::test_support::parse(source);
        let start = source.find("Square struct").unwrap();
        let end = source.find("}\n").unwrap() + 1;
        let target = crate::test_support::parse("");
        let refused = place_declaration(
            tree.root_node(),
            source,
            start,
            end,
            target.root_node(),
            "",
            "example.com/m/geo",
        );
        assert!(
            matches!(&refused, Err(PluginError::Failed(reason)) if reason.contains("`Area`")),
            "{refused:?}"
        );
        // Within its package it moves.
        assert!(
            place_declaration(
                tree.root_node(),
                source,
                start,
                end,
                target.root_node(),
                "",
                ""
            )
            .is_ok()
        );
    }

    #[test]
    fn a_spec_leaves_its_group_with_its_comment() {
        let (left, created) = moved("small = 1", "", "");
        assert_eq!(
            created,
            "package shapes\n\n// small things.\nconst small = 1\n"
        );
        assert!(left.ends_with("const (\n\tlarge = 2\n)\n"), "{left}");
    }
}
