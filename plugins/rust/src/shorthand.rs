//! Shorthand fields written out in full (`Point { x }` → `Point { x: y }`).

use lingo_plugin_sdk::types::{PluginError, TextEdit};
use tree_sitter::Node;

/// The edit that writes the shorthand named `name` as `member: value`: a
/// field initialiser (`Point { x }`) or a field pattern (`Point { x }`,
/// `Point { ref mut x }`, whose `ref mut` stays with the binding).
pub fn write_out(
    name: Node,
    source: &str,
    member: &str,
    value: &str,
) -> Result<Vec<TextEdit>, PluginError> {
    let parent = name.parent();
    let initialiser = parent.filter(|p| p.kind() == "shorthand_field_initializer");
    if name.kind() == "identifier"
        && let Some(initialiser) = initialiser
    {
        return Ok(vec![TextEdit {
            start: initialiser.start_byte() as u32,
            end: initialiser.end_byte() as u32,
            new_text: format!("{member}: {value}"),
        }]);
    }
    let pattern = parent.filter(|p| p.kind() == "field_pattern");
    if name.kind() == "shorthand_field_identifier"
        && let Some(pattern) = pattern
    {
        // `ref`, `mut`: how the field binds, written before the binding.
        let binding_modes = source
            .get(pattern.start_byte()..name.start_byte())
            .unwrap_or_default();
        return Ok(vec![TextEdit {
            start: pattern.start_byte() as u32,
            end: name.end_byte() as u32,
            new_text: format!("{member}: {binding_modes}{value}"),
        }]);
    }
    Err(PluginError::InvalidInput(format!(
        "`{}` is no shorthand field",
        name.kind()
    )))
}

#[cfg(test)]
mod tests {
    use lingo_plugin_sdk::Language;
    use lingo_plugin_sdk::testing::{apply, parse};

    use crate::Rust;

    /// `source` with the shorthand at the `nth` occurrence of `name`
    /// written out.
    fn written_out(source: &str, name: &str, nth: usize, member: &str, value: &str) -> String {
        let tree = parse::<Rust>("a.rs", source);
        let (start, _) = source.match_indices(name).nth(nth).unwrap();
        let node = tree
            .root_node()
            .named_descendant_for_byte_range(start, start + name.len())
            .unwrap();
        let edits = Rust::write_out_shorthand(node, source, member, value).unwrap();
        apply(source, &edits)
    }

    #[test]
    fn initialisers_and_patterns_are_written_out() {
        assert_eq!(
            written_out("fn f(x: i32) -> P { P { x, y: 0 } }", "x", 1, "xx", "x"),
            "fn f(x: i32) -> P { P { xx: x, y: 0 } }"
        );
        assert_eq!(
            written_out("fn f(p: P) { let P { x, .. } = p; }", "x", 0, "x", "y"),
            "fn f(p: P) { let P { x: y, .. } = p; }"
        );
        assert_eq!(
            written_out("fn f(p: P) { let P { ref mut x } = p; }", "x", 0, "xx", "x"),
            "fn f(p: P) { let P { xx: ref mut x } = p; }"
        );
    }

    #[test]
    fn a_name_that_is_no_shorthand_is_refused() {
        let source = "fn f(p: P) { let P { x: y } = p; }";
        let tree = parse::<Rust>("a.rs", source);
        let node = tree
            .root_node()
            .named_descendant_for_byte_range(21, 22)
            .unwrap();
        assert!(Rust::write_out_shorthand(node, source, "a", "b").is_err());
    }
}
