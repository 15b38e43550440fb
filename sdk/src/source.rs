//! Reading a source text around a node, as edits need it: a node's text,
//! where a line starts and ends, its indentation, and taking an item out of
//! a comma-separated list. One meaning each, for every plugin.

use tree_sitter::Node;

use crate::types::TextEdit;

/// The source text of `node` (empty when its range does not fall on
/// character boundaries of `source`, which a tree of another text gives).
pub fn text<'s>(node: Node, source: &'s str) -> &'s str {
    source.get(node.byte_range()).unwrap_or("")
}

/// The offset where the line holding `offset` starts.
pub fn line_start(source: &str, offset: usize) -> usize {
    let offset = floor_boundary(source, offset);
    source[..offset].rfind('\n').map_or(0, |i| i + 1)
}

/// The offset just past the line break that ends the line holding
/// `offset` (the text's end on the last line): deleting
/// `line_start..line_end` removes the whole line.
pub fn line_end(source: &str, offset: usize) -> usize {
    let offset = floor_boundary(source, offset);
    source[offset..]
        .find('\n')
        .map_or(source.len(), |i| offset + i + 1)
}

/// The offset of the line break that ends the line holding `offset` (the
/// text's end on the last line): where text appended to the line goes.
pub fn line_break(source: &str, offset: usize) -> usize {
    let offset = floor_boundary(source, offset);
    source[offset..]
        .find('\n')
        .map_or(source.len(), |i| offset + i)
}

/// The whitespace that opens the line holding `offset`, up to `offset` at
/// most: the indentation a line inserted beside it takes.
pub fn indentation(source: &str, offset: usize) -> &str {
    let offset = floor_boundary(source, offset);
    let start = line_start(source, offset);
    let before = &source[start..offset];
    let end = before
        .find(|c: char| !c.is_whitespace())
        .unwrap_or(before.len());
    &before[..end]
}

/// The edit taking `node` out of the comma-separated list it is an item
/// of: with the comma after it and the whitespace that follows, or else
/// with the comma before it (the last item), so the list stays well formed.
pub fn remove_list_item(node: Node, source: &str) -> TextEdit {
    let (mut start, mut end) = (node.start_byte(), node.end_byte());
    if let Some(comma) = node.next_sibling().filter(|n| n.kind() == ",") {
        end = comma.end_byte();
        let rest = source.get(end..).unwrap_or("");
        end += rest.len() - rest.trim_start().len();
    } else if let Some(comma) = node.prev_sibling().filter(|n| n.kind() == ",") {
        start = comma.start_byte();
    }
    TextEdit {
        start: start as u32,
        end: end as u32,
        new_text: String::new(),
    }
}

/// The nodes that cover `start..end`, innermost first, up to the root: the
/// walk a plugin's "which declaration is this span" question takes (each
/// language then says which of them it means).
pub fn covering(root: Node, start: usize, end: usize) -> impl Iterator<Item = Node> {
    std::iter::successors(
        root.descendant_for_byte_range(start, end.max(start)),
        Node::parent,
    )
}

/// The declaration a symbol's span `start..end` denotes: the innermost node
/// whose kind `is_declaration` accepts that covers the span and does not
/// name itself before the span starts (a type around a member covers the
/// member's span, but its name comes first). The one meaning every
/// plugin's edit hooks use.
pub fn declaration_at<'t>(
    root: Node<'t>,
    start: usize,
    end: usize,
    is_declaration: impl Fn(&str) -> bool,
) -> Option<Node<'t>> {
    covering(root, start, end).find(|node| {
        is_declaration(node.kind())
            && node
                .child_by_field_name("name")
                .is_none_or(|name| start <= name.start_byte())
    })
}

/// `offset` clamped to the text and moved back to a character boundary.
fn floor_boundary(source: &str, offset: usize) -> usize {
    let mut offset = offset.min(source.len());
    while !source.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_declaration_of_a_span_is_not_the_one_around_it() {
        let source = "mod outer {\n    fn inner() {}\n}\nfn other() {}\n";
        let mut parser = tree_sitter::Parser::new();
        parser
            .set_language(&tree_sitter_rust::LANGUAGE.into())
            .unwrap();
        let tree = parser.parse(source, None).unwrap();
        let kinds = |kind: &str| matches!(kind, "mod_item" | "function_item");
        let span = |text: &str| {
            let start = source.find(text).unwrap();
            (start, start + text.len())
        };
        let kind_at = |(start, end): (usize, usize)| {
            declaration_at(tree.root_node(), start, end, kinds).map(|n| n.kind())
        };
        assert_eq!(kind_at(span("fn inner() {}")), Some("function_item"));
        assert_eq!(
            kind_at(span("mod outer {\n    fn inner() {}\n}")),
            Some("mod_item")
        );
        // The body of `inner` is in no declaration of its own; `outer`
        // names itself before it.
        assert_eq!(kind_at(span("{}\n}")), None);
        assert_eq!(kind_at(span("fn other() {}")), Some("function_item"));
    }

    #[test]
    fn lines_around_an_offset() {
        let source = "first\n  second line\nlast";
        let at = source.find("line").unwrap();
        assert_eq!(&source[line_start(source, at)..at], "  second ");
        assert_eq!(
            &source[line_start(source, at)..line_end(source, at)],
            "  second line\n"
        );
        assert_eq!(&source[at..line_break(source, at)], "line");
        assert_eq!(line_end(source, source.len()), source.len());
        assert_eq!(line_break(source, source.len() - 1), source.len());
        assert_eq!(line_start(source, 0), 0);
    }

    #[test]
    fn indentation_is_the_whitespace_opening_the_line() {
        let source = "fn f() {\n\t  let x = 1;\n}\n";
        let at = source.find("let").unwrap();
        assert_eq!(indentation(source, at), "\t  ");
        assert_eq!(indentation(source, at + 4), "\t  ");
        assert_eq!(indentation(source, 0), "");
    }

    #[test]
    fn offsets_past_the_end_or_inside_a_character_are_clamped() {
        let source = "é\nü";
        assert_eq!(line_start(source, 1), 0);
        assert_eq!(line_end(source, 99), source.len());
        assert_eq!(indentation(source, 4), "");
    }
}
