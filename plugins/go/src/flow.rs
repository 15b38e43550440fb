//! Which statements leave their block, for unreachable code.

use tree_sitter::Node;

/// A block's (or a case's) statements run one after another.
pub fn is_statement_block(node: Node) -> bool {
    node.kind() == "statement_list"
}

/// `return`, `break`, `continue`, `goto`, or a call of `panic`.
pub fn leaves_block(node: Node, source: &str) -> bool {
    match node.kind() {
        "return_statement" | "break_statement" | "continue_statement" | "goto_statement" => true,
        "expression_statement" => node
            .named_child(0)
            .filter(|call| call.kind() == "call_expression")
            .and_then(|call| call.child_by_field_name("function"))
            .and_then(|f| source.get(f.byte_range()))
            .is_some_and(|name| name == "panic"),
        _ => false,
    }
}

/// A labeled statement may be the target of a `goto`: it and what follows
/// it can run.
pub fn hoisted(node: Node) -> bool {
    node.kind() == "labeled_statement"
}

#[cfg(test)]
mod tests {
    fn dead(source: &str) -> Vec<String> {
        lingo_plugin_sdk::describe_unreachable::<crate::Go>("a.go", source)
    }

    #[test]
    fn code_after_return_and_panic_is_unreachable() {
        let source = "package a\n\nfunc f(n int) int {\n\tswitch n {\n\tcase 1:\n\t\treturn 1\n\t\tn++\n\tcase 2:\n\t\tn--\n\t}\n\tif n > 3 {\n\t\tpanic(\"no\")\n\t\tn = 0\n\t}\n\treturn n\n\tn = 5\n}\n";
        assert_eq!(dead(source), ["n++", "n = 0", "n = 5"]);
    }
}
