//! Shorthand properties written out in full (`{ body }` → `{ payload: body }`).

use lingo_plugin_sdk::types::{PluginError, TextEdit};
use tree_sitter::Node;

/// The edit that writes the shorthand named `name` as `member: value`: a
/// key of an object literal (`{ body }`) or of a destructuring pattern
/// (`{ body }` and `{ body = 1 }` of `const {..} = o`, `({..}: Props)`).
pub fn write_out(name: Node, member: &str, value: &str) -> Result<Vec<TextEdit>, PluginError> {
    match name.kind() {
        "shorthand_property_identifier" | "shorthand_property_identifier_pattern" => {
            Ok(vec![TextEdit {
                start: name.start_byte() as u32,
                end: name.end_byte() as u32,
                new_text: format!("{member}: {value}"),
            }])
        }
        kind => Err(PluginError::InvalidInput(format!(
            "`{kind}` is no shorthand property"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use lingo_plugin_sdk::Language;
    use lingo_plugin_sdk::testing::{apply, parse};

    use crate::TypeScript;

    fn written_out(source: &str, name: &str, member: &str, value: &str) -> String {
        let tree = parse::<TypeScript>("a.ts", source);
        let start = source.find(name).unwrap();
        let node = tree
            .root_node()
            .named_descendant_for_byte_range(start, start + name.len())
            .unwrap();
        let edits = TypeScript::write_out_shorthand(node, source, member, value).unwrap();
        apply(source, &edits)
    }

    #[test]
    fn keys_of_literals_and_patterns_are_written_out() {
        assert_eq!(
            written_out("f({ method, body });", "body", "payload", "body"),
            "f({ method, payload: body });"
        );
        assert_eq!(
            written_out("const { body = 1 } = o;", "body", "body", "text"),
            "const { body: text = 1 } = o;"
        );
        assert_eq!(
            written_out("function f({ body }: O) {}", "body", "payload", "body"),
            "function f({ payload: body }: O) {}"
        );
    }

    #[test]
    fn a_name_that_is_no_shorthand_is_refused() {
        let source = "const body = 1;";
        let tree = parse::<TypeScript>("a.ts", source);
        let node = tree
            .root_node()
            .named_descendant_for_byte_range(6, 10)
            .unwrap();
        assert!(TypeScript::write_out_shorthand(node, source, "a", "b").is_err());
    }
}
