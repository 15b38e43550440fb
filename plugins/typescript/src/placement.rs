//! Moving a module-level declaration between files: the statement it
//! takes out of its file (with its JSDoc and `export`), and its place,
//! exported, at the end of the target file.

use lingo_plugin_sdk::extent::{appended, attached_start, whole_lines};
use lingo_plugin_sdk::types::{PluginError, TextEdit};
use tree_sitter::Node;

use crate::declarations::statement_of;
use crate::render::{MEMBERS, declaration_at, render_declaration};

/// The statement a move of the declaration at `start..end` takes whole.
fn movable_statement(root: Node, start: usize, end: usize) -> Result<Node, PluginError> {
    let node = declaration_at(root, start, end).ok_or_else(|| {
        PluginError::InvalidInput(format!("no declaration at bytes {start}..{end}"))
    })?;
    if MEMBERS.contains(&node.kind()) {
        return Err(PluginError::InvalidInput(
            "a member moves with its class, interface or enum".into(),
        ));
    }
    if node.kind() == "variable_declarator"
        && node.parent().is_some_and(|d| d.named_child_count() > 1)
    {
        return Err(PluginError::Failed(
            "this variable shares its statement with others: declare it in a statement of its own first".into(),
        ));
    }
    let statement = statement_of(match node.kind() {
        "variable_declarator" => node.parent().unwrap_or(node),
        _ => node,
    });
    if statement.parent().is_none_or(|p| p.kind() != "program") {
        return Err(PluginError::InvalidInput(
            "only module-level declarations move between files".into(),
        ));
    }
    Ok(statement)
}

/// The whole lines of the declaration's statement with the comments right
/// above it.
///
/// A class member (which a deletion may take, a move never) is taken with
/// the comments and decorators above it.
pub fn declaration_extent(
    root: Node,
    source: &str,
    start: usize,
    end: usize,
) -> Result<(usize, usize), PluginError> {
    if let Some(member) = declaration_at(root, start, end)
        .filter(|n| MEMBERS.contains(&n.kind()))
        .filter(|n| n.parent().is_some_and(|p| p.kind() == "class_body"))
    {
        let from = attached_start(member, source, &["comment", "decorator"]);
        return Ok(whole_lines(source, from, member.end_byte()));
    }
    let statement = movable_statement(root, start, end)?;
    let from = attached_start(statement, source, &["comment"]);
    Ok(whole_lines(source, from, statement.end_byte()))
}

/// Edits to `target` adding the declaration at `start..end` of `source`,
/// exported, after the target's last statement.
pub fn place_declaration(
    source_root: Node,
    source: &str,
    start: usize,
    end: usize,
    target: &str,
    target_module: &str,
) -> Result<Vec<TextEdit>, PluginError> {
    movable_statement(source_root, start, end)?;
    let module = if target_module.is_empty() {
        "."
    } else {
        target_module
    };
    let text = render_declaration(source_root, source, start, end, module)?;
    Ok(vec![appended(target, &format!("{text}\n"))])
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOURCE: &str = "import { r } from \"./r\";\n\n/** A circle. */\nclass Circle {\n  radius = r;\n}\n\nexport const unit = new Circle(), other = 2;\n\nexport function area(c: Circle): number {\n  return c.radius;\n}\n";

    fn parse(source: &str) -> tree_sitter::Tree {
        lingo_plugin_sdk::testing::parse::<crate::TypeScript>("a.ts", source)
    }

    fn moved(needle: &str, target: &str) -> Result<(String, String), PluginError> {
        let tree = parse(SOURCE);
        let start = SOURCE.find(needle).unwrap();
        let end = start + needle.len();
        let (from, to) = declaration_extent(tree.root_node(), SOURCE, start, end)?;
        let left = format!("{}{}", &SOURCE[..from], &SOURCE[to..]);
        let mut placed = target.to_string();
        for e in place_declaration(tree.root_node(), SOURCE, start, end, target, "src/b")? {
            placed.replace_range(e.start as usize..e.end as usize, &e.new_text);
        }
        Ok((left, placed))
    }

    #[test]
    fn a_class_moves_with_its_jsdoc_and_is_exported() {
        let needle = "class Circle {\n  radius = r;\n}";
        let (left, placed) = moved(needle, "").unwrap();
        assert!(
            left.starts_with("import { r } from \"./r\";\n\nexport const"),
            "{left}"
        );
        assert_eq!(
            placed,
            "/** A circle. */\nexport class Circle {\n  radius = r;\n}\n"
        );
    }

    #[test]
    fn an_exported_function_keeps_its_export_and_lands_after_the_last_statement() {
        let needle = "function area(c: Circle): number {\n  return c.radius;\n}";
        let (left, placed) = moved(needle, "export const x = 1;\n").unwrap();
        assert!(left.ends_with("other = 2;\n"), "{left:?}");
        assert_eq!(
            placed,
            "export const x = 1;\n\nexport function area(c: Circle): number {\n  return c.radius;\n}\n"
        );
    }

    #[test]
    fn a_declarator_sharing_its_statement_is_refused() {
        assert!(matches!(
            moved("unit = new Circle()", ""),
            Err(PluginError::Failed(_))
        ));
    }
}
