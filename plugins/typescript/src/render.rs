//! A module-level declaration re-rendered for another module: with its
//! JSDoc, as its own statement, and exported so that the module it leaves
//! can import it.

use lingo_plugin_sdk::types::PluginError;
use tree_sitter::Node;

use crate::declarations::statement_of;

/// Node kinds a declaration span may denote.
const DECLARATIONS: &[&str] = &[
    "function_declaration",
    "generator_function_declaration",
    "function_signature",
    "class_declaration",
    "abstract_class_declaration",
    "interface_declaration",
    "type_alias_declaration",
    "enum_declaration",
    "internal_module",
    "module",
    "variable_declarator",
    "lexical_declaration",
    "variable_declaration",
];

use lingo_plugin_sdk::source::text;

/// Members of classes, interfaces, enums and object literals: a span inside
/// one denotes the member, not the declaration around it.
pub(crate) const MEMBERS: &[&str] = &[
    "method_definition",
    "method_signature",
    "abstract_method_signature",
    "public_field_definition",
    "field_definition",
    "property_signature",
    "enum_assignment",
    "pair",
];

/// The declaration or member the span `[start, end)` denotes.
pub(crate) fn declaration_at(root: Node, start: usize, end: usize) -> Option<Node> {
    lingo_plugin_sdk::source::declaration_at(root, start, end, |kind| {
        DECLARATIONS.contains(&kind) || MEMBERS.contains(&kind)
    })
}

/// The JSDoc comments directly above `statement`, in order.
fn leading_doc(statement: Node, source: &str) -> Option<String> {
    let mut docs = Vec::new();
    let mut next_row = statement.start_position().row;
    let mut sibling = statement.prev_sibling();
    while let Some(prev) = sibling {
        let is_doc = prev.kind() == "comment" && text(prev, source).starts_with("/**");
        if !is_doc || prev.end_position().row + 1 < next_row {
            break;
        }
        docs.push(text(prev, source));
        next_row = prev.start_position().row;
        sibling = prev.prev_sibling();
    }
    docs.reverse();
    (!docs.is_empty()).then(|| docs.join("\n"))
}

/// The declaration's own statement text, without `export`: a declarator
/// among several becomes a statement of its own.
fn declaration_text(node: Node, source: &str) -> String {
    let (declaration, declarator) = match node.kind() {
        "variable_declarator" => (node.parent(), Some(node)),
        _ => (Some(node), None),
    };
    let declaration = declaration.unwrap_or(node);
    let own_statement = matches!(
        declaration.kind(),
        "lexical_declaration" | "variable_declaration"
    ) && declaration.named_child_count() > 1;
    match declarator.filter(|_| own_statement) {
        Some(declarator) => {
            let keyword = declaration
                .child_by_field_name("kind")
                .map_or("var", |k| text(k, source));
            format!("{keyword} {};", text(declarator, source))
        }
        None => text(declaration, source).to_string(),
    }
}

/// The declaration at `[start, end)` as an exported statement for
/// `target_module`, JSDoc first.
pub fn render_declaration(
    root: Node,
    source: &str,
    start: usize,
    end: usize,
    target_module: &str,
) -> Result<String, PluginError> {
    if target_module.trim().is_empty() {
        return Err(PluginError::InvalidInput("target module is empty".into()));
    }
    let node = declaration_at(root, start, end).ok_or_else(|| {
        PluginError::InvalidInput(format!("no declaration at bytes {start}..{end}"))
    })?;
    let statement = statement_of(if node.kind() == "variable_declarator" {
        node.parent().unwrap_or(node)
    } else {
        node
    });
    if MEMBERS.contains(&node.kind()) || statement.parent().is_none_or(|p| p.kind() != "program") {
        return Err(PluginError::InvalidInput(format!(
            "`{}` is not a module-level declaration; only those move between modules",
            node.child_by_field_name("name")
                .map_or(node.kind(), |n| text(n, source))
        )));
    }
    // Keep `export default` and `declare`; add `export` when it is missing.
    let mut prefix = Vec::new();
    let mut wrapper = Some(statement);
    while let Some(w) = wrapper.filter(|w| w.id() != node.id()) {
        let mut cursor = w.walk();
        for child in w.children(&mut cursor) {
            if matches!(child.kind(), "export" | "default" | "declare") {
                prefix.push(child.kind());
            }
        }
        wrapper = w
            .child_by_field_name("declaration")
            .or_else(|| {
                w.named_children(&mut w.walk())
                    .find(|c| c.kind() != "comment" && c.kind() != "decorator")
            })
            .filter(|c| matches!(c.kind(), "ambient_declaration" | "export_statement"));
    }
    if !prefix.contains(&"export") {
        prefix.insert(0, "export");
    }
    let mut rendered = String::new();
    if let Some(doc) = leading_doc(statement, source) {
        rendered.push_str(&doc);
        rendered.push('\n');
    }
    rendered.push_str(&prefix.join(" "));
    rendered.push(' ');
    rendered.push_str(&declaration_text(node, source));
    Ok(rendered)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render(source: &str, needle: &str) -> Result<String, PluginError> {
        let tree = lingo_plugin_sdk::testing::parse::<crate::TypeScript>("a.ts", source);
        let start = source.find(needle).expect("needle in source");
        render_declaration(
            tree.root_node(),
            source,
            start,
            start + needle.len(),
            "src/b",
        )
    }

    #[test]
    fn a_private_declaration_is_exported_with_its_jsdoc() {
        let source = "/** Doubles. */\nfunction twice(x: number) {\n  return 2 * x;\n}\n";
        assert_eq!(
            render(source, "function twice").unwrap(),
            "/** Doubles. */\nexport function twice(x: number) {\n  return 2 * x;\n}"
        );
    }

    #[test]
    fn exported_and_ambient_declarations_keep_their_keywords() {
        let source = "export default class A {}\ndeclare const V: string;\n";
        assert_eq!(
            render(source, "class A {}").unwrap(),
            "export default class A {}"
        );
        assert_eq!(
            render(source, "V: string").unwrap(),
            "export declare const V: string;"
        );
    }

    #[test]
    fn one_declarator_of_several_becomes_its_own_statement() {
        let source = "export const a = 1, b = () => a;\n";
        assert_eq!(
            render(source, "b = () => a").unwrap(),
            "export const b = () => a;"
        );
    }

    #[test]
    fn members_and_locals_do_not_move_between_modules() {
        let source = "class C {\n  m() {\n    const inner = 1;\n  }\n}\n";
        assert!(matches!(
            render(source, "m() {"),
            Err(PluginError::InvalidInput(_))
        ));
        assert!(matches!(
            render(source, "inner = 1"),
            Err(PluginError::InvalidInput(_))
        ));
    }
}
