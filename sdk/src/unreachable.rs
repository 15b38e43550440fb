//! Unreachable statements: in a block, those after a statement that leaves
//! it, by the language's rules (`Language::UNREACHABLE`).

use tree_sitter::{Node, Tree};

use crate::language::Language;
use crate::text::LineIndex;
use crate::types::Span;

/// The runs of unreachable statements of `tree`, one span per block, in
/// source order.
/// None without `Language::UNREACHABLE`.
pub(crate) fn unreachable<L: Language>(tree: &Tree, source: &str, lines: &LineIndex) -> Vec<Span> {
    let Some(rules) = L::UNREACHABLE else {
        return Vec::new();
    };
    unreachable_with(
        tree,
        source,
        lines,
        rules.is_statement_block,
        rules.leaves_block,
        rules.hoisted,
    )
}

/// The same, with the hooks given (for tests).
fn unreachable_with(
    tree: &Tree,
    source: &str,
    lines: &LineIndex,
    is_block: impl Fn(Node) -> bool,
    leaves: impl Fn(Node, &str) -> bool,
    hoisted: impl Fn(Node) -> bool,
) -> Vec<Span> {
    let mut spans = Vec::new();
    // A cursor walk: iterative whatever the nesting, each node once.
    let mut cursor = tree.walk();
    'walk: loop {
        let node = cursor.node();
        if is_block(node) {
            let mut dead: Option<(Node, Node)> = None;
            let mut left = false;
            let mut walker = node.walk();
            for statement in node.named_children(&mut walker) {
                if statement.is_extra() || statement.kind().contains("comment") {
                    continue;
                }
                if left && !hoisted(statement) {
                    dead =
                        Some(dead.map_or((statement, statement), |(first, _)| (first, statement)));
                } else if !left && leaves(statement, source) {
                    left = true;
                }
            }
            if let Some((first, last)) = dead {
                spans.push(lines.span(source, first.start_byte(), last.end_byte()));
            }
        }
        if cursor.goto_first_child() {
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                break 'walk;
            }
        }
    }
    // Outer blocks are met before the blocks they hold: in source order.
    spans.sort_by_key(|s| s.start.offset);
    spans
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dead(source: &str) -> Vec<String> {
        let mut parser = tree_sitter::Parser::new();
        parser
            .set_language(&tree_sitter_rust::LANGUAGE.into())
            .unwrap();
        let tree = parser.parse(source, None).unwrap();
        let lines = LineIndex::new(source);
        unreachable_with(
            &tree,
            source,
            &lines,
            |n| n.kind() == "block",
            |n, _| {
                n.kind() == "expression_statement"
                    && n.named_child(0)
                        .is_some_and(|c| c.kind() == "return_expression")
            },
            |n| n.kind() == "function_item",
        )
        .into_iter()
        .map(|s| source[s.start.offset as usize..s.end.offset as usize].to_string())
        .collect()
    }

    #[test]
    fn statements_after_a_return_are_unreachable() {
        assert_eq!(
            dead(
                "fn f() -> u8 {\n    let a = 1;\n    return a;\n    // gone\n    let b = 2;\n    fn g() {}\n    b;\n}\n"
            ),
            ["let b = 2;\n    fn g() {}\n    b;"]
        );
        assert!(dead("fn f() -> u8 {\n    if true { return 1; }\n    2\n}\n").is_empty());
    }
}
