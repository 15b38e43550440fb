//! Which statements leave their block, for unreachable code.

use tree_sitter::Node;

/// Macros that never return.
const DIVERGING_MACROS: &[&str] = &["panic", "unreachable", "todo", "unimplemented"];

/// A block's statements run one after another.
pub fn is_statement_block(node: Node) -> bool {
    node.kind() == "block"
}

/// `return`, `break`, `continue`, or a diverging macro, as a statement.
pub fn leaves_block(node: Node, source: &str) -> bool {
    if node.kind() != "expression_statement" {
        return false;
    }
    let Some(inner) = node.named_child(0) else {
        return false;
    };
    match inner.kind() {
        "return_expression" | "break_expression" | "continue_expression" => true,
        "macro_invocation" => inner
            .child_by_field_name("macro")
            .and_then(|m| source.get(m.byte_range()))
            .is_some_and(|name| DIVERGING_MACROS.contains(&name)),
        _ => false,
    }
}

/// Items declared in a block are visible in all of it, wherever written.
pub fn hoisted(node: Node) -> bool {
    node.kind().ends_with("_item") || matches!(node.kind(), "use_declaration" | "macro_definition")
}

#[cfg(test)]
mod tests {
    fn dead(source: &str) -> Vec<String> {
        lingo_plugin_sdk::describe_unreachable::<crate::Rust>("a.rs", source)
    }

    #[test]
    fn code_after_return_break_and_panic_is_unreachable() {
        let source = "fn f(n: u8) -> u8 {\n    loop {\n        break;\n        n + 1;\n    }\n    if n > 1 {\n        panic!(\"no\");\n        let x = 1;\n    }\n    return n;\n    fn helper() {}\n    n * 2;\n}\n";
        assert_eq!(dead(source), ["n + 1;", "let x = 1;", "n * 2;"]);
        assert!(
            dead(
                "fn g(n: u8) -> u8 {\n    if n > 0 { return 1; }\n    format!(\"{n}\");\n    2\n}\n"
            )
            .is_empty()
        );
    }
}
