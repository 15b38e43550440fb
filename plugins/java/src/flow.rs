//! Which statements leave their block, for unreachable code.

use tree_sitter::Node;

/// A block's (or a switch group's) statements run one after another.
pub fn is_statement_block(node: Node) -> bool {
    matches!(
        node.kind(),
        "block" | "constructor_body" | "switch_block_statement_group"
    )
}

/// `return`, `throw`, `break`, `continue` or `yield`.
pub fn leaves_block(node: Node, _source: &str) -> bool {
    matches!(
        node.kind(),
        "return_statement"
            | "throw_statement"
            | "break_statement"
            | "continue_statement"
            | "yield_statement"
    )
}

#[cfg(test)]
mod tests {
    fn dead(source: &str) -> Vec<String> {
        lingo_plugin_sdk::describe_unreachable::<crate::Java>("A.java", source)
    }

    #[test]
    fn code_after_return_and_throw_is_unreachable() {
        let source = "class A {\n    int f(int n) {\n        switch (n) {\n            case 1:\n                return 1;\n                n++;\n            default:\n                break;\n        }\n        if (n > 2) {\n            throw new IllegalStateException();\n            n = 0;\n        }\n        return n;\n        n = 4;\n    }\n}\n";
        assert_eq!(dead(source), ["n++;", "n = 0;", "n = 4;"]);
    }
}
