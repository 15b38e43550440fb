//! The whole-line extent of a declaration: what a move or a delete takes
//! out of a file, with the comments and attributes attached to it.

use tree_sitter::Node;

use crate::types::TextEdit;

/// The start of `node` together with the siblings right above it whose kind
/// is in `attached` (doc comments, attributes, decorators): each must end
/// on the line before the next one starts, so a blank line detaches them.
pub fn attached_start(node: Node, source: &str, attached: &[&str]) -> usize {
    let mut start = node.start_byte();
    let mut current = node;
    // Bounded by the number of siblings before the node.
    while let Some(previous) = current.prev_sibling() {
        if !attached.contains(&previous.kind()) {
            break;
        }
        let gap = &source[previous.end_byte()..current.start_byte()];
        if gap.matches('\n').count() > 1 {
            break;
        }
        start = previous.start_byte();
        current = previous;
    }
    start
}

/// The siblings right above `node` whose kind is in `attributes` (Rust
/// attributes, TypeScript decorators), nearest first, looking past the
/// comments (`comments`) between them; whatever else comes first ends them.
/// For a language whose attributes are children of the declaration (C#'s
/// attribute lists), look at the children instead.
pub fn attributes_above<'t>(
    node: Node<'t>,
    attributes: &[&str],
    comments: &[&str],
) -> Vec<Node<'t>> {
    let mut found = Vec::new();
    let mut current = node;
    // Bounded by the number of siblings before the node.
    while let Some(previous) = current.prev_sibling() {
        if attributes.contains(&previous.kind()) {
            found.push(previous);
        } else if !comments.contains(&previous.kind()) {
            break;
        }
        current = previous;
    }
    found
}

/// `[start, end)` widened to whole lines: back to the start of its first
/// line when only blanks precede it there, and then, when only blanks
/// follow, through the line break after it; then one blank line more when the text
/// around it would otherwise be left with two blank lines in a row (or a
/// blank line at the start or the end of the file or of a `{ }` block).
pub fn whole_lines(source: &str, start: usize, end: usize) -> (usize, usize) {
    let line_start = source[..start].rfind('\n').map_or(0, |i| i + 1);
    let from = if source[line_start..start].trim().is_empty() {
        line_start
    } else {
        start
    };
    let line_end = source[end..]
        .find('\n')
        .map_or(source.len(), |i| end + i + 1);
    if from != line_start || !source[end..line_end].trim().is_empty() {
        return (from, end);
    }
    let mut to = line_end;
    let blank_before = from == 0 || source[..from].ends_with("\n\n") || {
        let before = source[..from].trim_end_matches([' ', '\t']);
        before.ends_with("\n\n") || before.is_empty() || before.trim_end().ends_with('{')
    };
    let next_line_end = source[to..].find('\n').map(|i| to + i + 1);
    if let Some(next) = next_line_end
        && blank_before
        && source[to..next].trim().is_empty()
    {
        to = next;
    }
    let mut from = from;
    if source[to..].trim().is_empty() && from > 0 && blank_before {
        // Nothing follows: the blank line before it would end the file.
        let previous_line = source[..from - 1].rfind('\n').map_or(0, |i| i + 1);
        if source[previous_line..from].trim().is_empty() {
            from = previous_line;
        }
    }
    (from, to)
}

/// The edit that adds `text` (a declaration, ending with a line break) at
/// the end of `target` after one blank line; a blank `target` (a file a
/// move creates) is replaced by `text`.
pub fn appended(target: &str, text: &str) -> TextEdit {
    let (start, separator) = if target.trim().is_empty() {
        (0, "")
    } else if target.ends_with("\n\n") {
        (target.len(), "")
    } else if target.ends_with('\n') {
        (target.len(), "\n")
    } else {
        (target.len(), "\n\n")
    };
    TextEdit {
        start: start as u32,
        end: target.len() as u32,
        new_text: format!("{separator}{text}"),
    }
}

/// `text` with up to `width` leading blanks (spaces or tabs) removed from
/// every line but the first: a declaration taken out of an indented block.
pub fn dedent(text: &str, width: usize) -> String {
    let mut lines = text.split('\n');
    let mut out = lines.next().unwrap_or("").to_string();
    for line in lines {
        out.push('\n');
        let blanks = line.len() - line.trim_start_matches([' ', '\t']).len();
        out.push_str(&line[blanks.min(width)..]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cut(source: &str, needle: &str) -> String {
        let start = source.find(needle).unwrap();
        let (from, to) = whole_lines(source, start, start + needle.len());
        format!("{}{}", &source[..from], &source[to..])
    }

    #[test]
    fn a_declaration_between_blank_lines_leaves_one_blank_line() {
        let source = "a\n\nfn f() {}\n\nb\n";
        assert_eq!(cut(source, "fn f() {}"), "a\n\nb\n");
    }

    #[test]
    fn the_last_declaration_takes_its_line_break() {
        assert_eq!(cut("a\n\nfn f() {}\n", "fn f() {}"), "a\n");
        assert_eq!(cut("a\n\nfn f() {}", "fn f() {}"), "a\n");
        assert_eq!(cut("fn f() {}\n", "fn f() {}"), "");
    }

    #[test]
    fn text_sharing_the_line_is_kept() {
        assert_eq!(cut("x; fn f() {}\n", "fn f() {}"), "x; \n");
        assert_eq!(cut("fn f() {} // note\n", "fn f() {}"), " // note\n");
    }

    #[test]
    fn the_first_declaration_leaves_no_leading_blank_line() {
        assert_eq!(cut("fn f() {}\n\nfn g() {}\n", "fn f() {}"), "fn g() {}\n");
    }

    #[test]
    fn attached_comments_stop_at_a_blank_line() {
        let source = "// header\n\n/// doc\n#[derive(Debug)]\nstruct S;\n";
        let mut parser = tree_sitter::Parser::new();
        parser
            .set_language(&tree_sitter_rust::LANGUAGE.into())
            .unwrap();
        let tree = parser.parse(source, None).unwrap();
        let item = tree.root_node().named_child(3).unwrap();
        assert_eq!(item.kind(), "struct_item");
        let start = attached_start(item, source, &["line_comment", "attribute_item"]);
        assert_eq!(&source[start..], "/// doc\n#[derive(Debug)]\nstruct S;\n");
    }
}
