//! Which statements leave their block, for unreachable code.

use tree_sitter::Node;

/// A block's (or a switch section's) statements run one after another.
pub fn is_statement_block(node: Node) -> bool {
    matches!(node.kind(), "block" | "switch_section")
}

/// `return`, `throw`, `break`, `continue` or `goto`.
pub fn leaves_block(node: Node, _source: &str) -> bool {
    matches!(
        node.kind(),
        "return_statement"
            | "throw_statement"
            | "break_statement"
            | "continue_statement"
            | "goto_statement"
    )
}

/// Local functions may be called from before they are written; a labeled
/// statement may be the target of a `goto`.
pub fn hoisted(node: Node) -> bool {
    matches!(
        node.kind(),
        "local_function_statement" | "labeled_statement"
    )
}

#[cfg(test)]
mod tests {
    fn dead(source: &str) -> Vec<String> {
        lingo_plugin_sdk::describe_unreachable::<crate::CSharp>("A.cs", source)
    }

    #[test]
    fn code_after_return_and_throw_is_unreachable() {
        let source = "class A\n{\n    int F(int n)\n    {\n        switch (n)\n        {\n            case 1:\n                return 1;\n                n++;\n            default:\n                break;\n        }\n        if (n > 2)\n        {\n            throw new System.Exception();\n            n = 0;\n        }\n        return Helper(n);\n        int Helper(int x) { return x; }\n        n = 4;\n    }\n}\n";
        assert_eq!(dead(source), ["n++;", "n = 0;", "n = 4;"]);
    }
}
