//! Which statements leave their block, for unreachable code.

use tree_sitter::Node;

/// A block's (or a `case`'s) statements run one after another.
pub fn is_statement_block(node: Node) -> bool {
    matches!(
        node.kind(),
        "statement_block" | "switch_case" | "switch_default"
    )
}

/// `return`, `throw`, `break` or `continue`.
pub fn leaves_block(node: Node, _source: &str) -> bool {
    matches!(
        node.kind(),
        "return_statement" | "throw_statement" | "break_statement" | "continue_statement"
    )
}

/// Function declarations are hoisted: callable from before they are
/// written.
pub fn hoisted(node: Node) -> bool {
    matches!(
        node.kind(),
        "function_declaration" | "generator_function_declaration" | "class_declaration"
    )
}

#[cfg(test)]
mod tests {
    fn dead(source: &str) -> Vec<String> {
        lingo_plugin_sdk::describe_unreachable::<crate::TypeScript>("a.ts", source)
    }

    #[test]
    fn code_after_return_and_throw_is_unreachable() {
        let source = "function f(n: number): number {\n  switch (n) {\n    case 1:\n      return 1;\n      n++;\n    default:\n      n--;\n  }\n  if (n > 2) {\n    throw new Error(\"no\");\n    n = 0;\n  }\n  return helper(n);\n  function helper(x: number) { return x; }\n  n = 4;\n}\n";
        assert_eq!(dead(source), ["n++;", "n = 0;", "n = 4;"]);
    }
}
