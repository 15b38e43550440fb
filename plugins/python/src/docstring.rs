//! Docstrings: the string a module, class or function body starts with,
//! cleaned as `inspect.cleandoc` does (PEP 257).

use tree_sitter::Node;

/// The docstring of the declaration `node` (a `function_definition` or
/// `class_definition`), cleaned; `None` when its body does not start with
/// a string.
pub fn of(node: Node, source: &str) -> Option<String> {
    let body = node.child_by_field_name("body")?;
    let mut cursor = body.walk();
    let first = body
        .named_children(&mut cursor)
        .find(|c| c.kind() != "comment")?;
    if first.kind() != "expression_statement" || first.named_child_count() != 1 {
        return None;
    }
    let string = first.named_child(0).filter(|s| s.kind() == "string")?;
    let text = string_value(string, source)?;
    let cleaned = clean(&text);
    (!cleaned.is_empty()).then_some(cleaned)
}

/// The text between a string literal's quotes, prefixes (`r`, `u`) aside;
/// `None` for an f-string or a concatenation.
fn string_value(string: Node, source: &str) -> Option<String> {
    let mut text = String::new();
    let mut cursor = string.walk();
    for part in string.named_children(&mut cursor) {
        match part.kind() {
            "string_content" => text.push_str(&source[part.byte_range()]),
            "string_start" => {
                if source[part.byte_range()].to_ascii_lowercase().contains('f') {
                    return None;
                }
            }
            "string_end" => {}
            "escape_sequence" => text.push_str(&source[part.byte_range()]),
            _ => return None,
        }
    }
    Some(text)
}

/// PEP 257's trim: the first line stripped, the common indentation of the
/// others removed, blank lines at both ends dropped.
pub fn clean(text: &str) -> String {
    let expanded = text.replace('\t', "        ");
    let lines: Vec<&str> = expanded.lines().collect();
    let Some((first, rest)) = lines.split_first() else {
        return String::new();
    };
    let indent = rest
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    let mut out: Vec<&str> = vec![first.trim()];
    out.extend(
        rest.iter()
            .map(|l| l.get(indent..).unwrap_or("").trim_end()),
    );
    while out.last().is_some_and(|l| l.is_empty()) {
        out.pop();
    }
    while out.first().is_some_and(|l| l.is_empty()) {
        out.remove(0);
    }
    out.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn docstrings_are_cleaned_as_pep_257_says() {
        assert_eq!(
            clean("Summary.\n\n    Details\n      indented\n    "),
            "Summary.\n\nDetails\n  indented"
        );
        assert_eq!(
            clean("\n    Starts on the second line.\n    "),
            "Starts on the second line."
        );
        assert_eq!(clean(""), "");
    }

    #[test]
    fn the_first_statement_of_a_body_if_a_plain_string() {
        let docs = |source: &str| {
            let tree = lingo_plugin_sdk::testing::parse::<crate::Python>("m.py", source);
            let root = tree.root_node();
            let mut cursor = root.walk();
            root.named_children(&mut cursor)
                .map(|n| of(n, source))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            docs("def f():\n    \"\"\"Does f.\n\n    More.\n    \"\"\"\n    return 1\n"),
            [Some("Does f.\n\nMore.".to_string())]
        );
        assert_eq!(
            docs("class C:\n    # a comment\n    r'''Raw.'''\n"),
            [Some("Raw.".to_string())]
        );
        assert_eq!(docs("def f():\n    x = 'no'\n"), [None]);
        assert_eq!(docs("def f():\n    f'{x} no'\n"), [None]);
    }
}
