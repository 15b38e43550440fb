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
    use lingo_plugin_sdk::Document;
    use lingo_plugin_sdk::bindings::exports::lingo::plugin::syntax::GuestDocument;

    fn dead(source: &str) -> Vec<String> {
        let document = Document::<crate::Go>::new("a.go".into(), source.into());
        document
            .unreachable()
            .iter()
            .map(|s| source[s.start.offset as usize..s.end.offset as usize].to_string())
            .collect()
    }

    #[test]
    fn code_after_return_and_panic_is_unreachable() {
        let source = "package a\n\nfunc f(n int) int {\n\tswitch n {\n\tcase 1:\n\t\treturn 1\n\t\tn++\n\tcase 2:\n\t\tn--\n\t}\n\tif n > 3 {\n\t\tpanic(\"no\")\n\t\tn = 0\n\t}\n\treturn n\n\tn = 5\n}\n";
        assert_eq!(dead(source), ["n++", "n = 0", "n = 5"]);
    }
}
