//! Go declarations: which node a doc comment sits above, declaration heads,
//! doc comment text, and a declaration re-rendered for another package.

use lingo_plugin_sdk::types::PluginError;
use tree_sitter::Node;

use crate::names::{assumed_package_name, is_exported};

/// Specs (`type A int`) and the declaration keyword that heads them.
const SPEC_KEYWORDS: &[(&str, &str)] = &[
    ("type_spec", "type"),
    ("type_alias", "type"),
    ("const_spec", "const"),
    ("var_spec", "var"),
];

fn keyword_of(spec: Node) -> Option<&'static str> {
    SPEC_KEYWORDS
        .iter()
        .find(|(kind, _)| *kind == spec.kind())
        .map(|(_, keyword)| *keyword)
}

/// Whether a spec sits in a parenthesised group (`const ( A = 1; B = 2 )`).
fn is_grouped(spec: Node) -> bool {
    let Some(parent) = spec.parent() else {
        return false;
    };
    if parent.kind() == "var_spec_list" {
        return true;
    }
    let mut cursor = parent.walk();
    parent.children(&mut cursor).any(|c| c.kind() == "(")
}

/// The node a doc comment precedes: the whole declaration for a spec that
/// is not in a group (`// T is ... \n type T int`), else the node itself.
pub fn documented_node(node: Node) -> Node {
    match (keyword_of(node), node.parent()) {
        (Some(_), Some(declaration)) if !is_grouped(node) => declaration,
        _ => node,
    }
}

/// The head of a spec, which its node does not hold whole: its keyword,
/// also inside a group (`const Millimetre Unit`), then the spec up to its
/// value or its struct or interface body.
pub fn signature_text(node: Node, source: &str) -> Option<String> {
    let keyword = keyword_of(node)?;
    let end = match node.kind() {
        "const_spec" | "var_spec" => node
            .child_by_field_name("value")
            .map_or(node.end_byte(), |v| v.start_byte()),
        _ => match node.child_by_field_name("type") {
            Some(body) if matches!(body.kind(), "struct_type" | "interface_type") => {
                let mut cursor = body.walk();
                let brace = body
                    .children(&mut cursor)
                    .find(|c| matches!(c.kind(), "{" | "field_declaration_list"));
                brace.map_or(body.end_byte(), |b| b.start_byte())
            }
            _ => node.end_byte(),
        },
    };
    Some(format!("{keyword} {}", &source[node.start_byte()..end]))
}

/// Whether `operand` is a bare name naming the receiver of the method it
/// is written in.
pub fn is_method_receiver(operand: Node, source: &str) -> bool {
    if operand.kind() != "identifier" {
        return false;
    }
    let mut ancestor = operand.parent();
    while let Some(node) = ancestor {
        if node.kind() == "method_declaration" {
            let Some(receiver) = node.child_by_field_name("receiver") else {
                return false;
            };
            let mut cursor = receiver.walk();
            let name = receiver
                .named_children(&mut cursor)
                .find_map(|p| p.child_by_field_name("name"));
            return name.is_some_and(|n| source[n.byte_range()] == source[operand.byte_range()]);
        }
        ancestor = node.parent();
    }
    false
}

/// Whether a comment follows code on its line: it is about that code, not
/// a doc comment of what comes next.
pub fn ends_a_code_line(comment: Node) -> bool {
    let mut node = comment;
    loop {
        if let Some(previous) = node.prev_sibling() {
            return previous.end_position().row == comment.start_position().row;
        }
        match node.parent() {
            Some(parent) => node = parent,
            None => return false,
        }
    }
}

/// The text of a `//` or `/* */` comment without its markers. Directives
/// (`//go:generate`, `//nolint:all`) are not documentation and read as
/// empty lines.
pub fn doc_text(comment: &str) -> Option<String> {
    if let Some(line) = comment.strip_prefix("//") {
        if is_directive(line) {
            return Some(String::new());
        }
        return Some(lingo_plugin_sdk::doc::line_text(line));
    }
    let body = comment.strip_prefix("/*")?.strip_suffix("*/")?;
    Some(lingo_plugin_sdk::doc::block_text(body))
}

/// `//go:noinline`, `//lint:ignore`, `//export f`, `//line a.go:1`.
fn is_directive(line: &str) -> bool {
    if line.starts_with("export ") || line.starts_with("line ") {
        return true;
    }
    let Some((head, rest)) = line.split_once(':') else {
        return false;
    };
    !head.is_empty()
        && head
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        && rest.starts_with(|c: char| c.is_ascii_lowercase() || c.is_ascii_digit())
}

/// Top-level declaration kinds that can move to another package.
const MOVABLE: &[&str] = &[
    "function_declaration",
    "method_declaration",
    "type_declaration",
    "const_declaration",
    "var_declaration",
    "type_spec",
    "type_alias",
    "const_spec",
    "var_spec",
];

/// The movable declaration the span `start..end` denotes.
fn declaration_at(root: Node, start: usize, end: usize) -> Option<Node> {
    lingo_plugin_sdk::source::declaration_at(root, start, end, |kind| MOVABLE.contains(&kind))
}

fn is_top_level(node: Node) -> bool {
    let mut ancestor = node.parent();
    while let Some(current) = ancestor {
        match current.kind() {
            "source_file" => return true,
            "block" | "func_literal" => return false,
            _ => ancestor = current.parent(),
        }
    }
    false
}

/// The text of the declaration at `start..end`, to be written in the package
/// `target_module` (an import path). A spec taken out of its group gets its
/// keyword back. When the target is another package, the names it declares
/// are exported (Go's capitalisation rule), since the source package now
/// reaches them through an import. Methods stay with their receiver type.
pub fn render_declaration(
    root: Node,
    source: &str,
    start: usize,
    end: usize,
    target_module: &str,
) -> Result<String, PluginError> {
    let node = movable_at(root, start, end)?;
    if node.kind() == "method_declaration" {
        return render_text(node, source, true);
    }
    let current_package = package_name(root, source);
    let target_package = assumed_package_name(target_module.trim_end_matches('/'));
    let export = current_package.is_some_and(|p| p != target_package);
    render_text(node, source, export)
}

/// The movable top-level declaration whose span is `start..end`, with
/// what keeps it in its package refused.
pub fn movable_at(root: Node, start: usize, end: usize) -> Result<Node, PluginError> {
    let node = declaration_at(root, start, end).ok_or_else(|| {
        PluginError::InvalidInput(format!("no Go declaration spans bytes {start}..{end}"))
    })?;
    if !is_top_level(node) {
        return Err(PluginError::InvalidInput(
            "a declaration inside a function body cannot move".into(),
        ));
    }
    Ok(node)
}

/// The text of `node` standing alone (a spec gets its keyword back), its
/// package-level names exported when `export`. Methods and specs that
/// repeat the one above them (iota) cannot stand alone in another package.
pub fn render_text(node: Node, source: &str, export: bool) -> Result<String, PluginError> {
    if node.kind() == "method_declaration" && export {
        let receiver = node
            .child_by_field_name("receiver")
            .map_or("", |r| &source[r.byte_range()]);
        return Err(PluginError::Failed(format!(
            "a method is declared in the package of its receiver {receiver}: move the type with its methods"
        )));
    }
    if node.kind() == "const_spec" && node.child_by_field_name("value").is_none() {
        return Err(PluginError::Failed(
            "this constant repeats the expression of the spec above it (iota): move the whole const group".into(),
        ));
    }
    let mut text = source[node.byte_range()].to_string();
    if export {
        let mut names = declared_names(node);
        names.sort_by_key(|n| std::cmp::Reverse(n.start_byte()));
        for name in names {
            let word = &source[name.byte_range()];
            if is_exported(word) || matches!(word, "_" | "init" | "main") {
                continue;
            }
            let at = name.start_byte() - node.start_byte();
            text.replace_range(at..at + word.len(), &exported(word));
        }
    }
    match keyword_of(node) {
        Some(keyword) => Ok(format!("{keyword} {text}")),
        None => Ok(text),
    }
}

pub fn package_name(root: Node, source: &str) -> Option<String> {
    let mut cursor = root.walk();
    let clause = root
        .named_children(&mut cursor)
        .find(|n| n.kind() == "package_clause")?;
    let mut c = clause.walk();
    let name = clause
        .named_children(&mut c)
        .find(|n| n.kind() == "package_identifier")?;
    Some(source[name.byte_range()].to_string())
}

/// The name nodes a declaration declares at package level.
fn declared_names(node: Node) -> Vec<Node> {
    let mut out = Vec::new();
    match node.kind() {
        "function_declaration" | "type_spec" | "type_alias" => {
            out.extend(node.child_by_field_name("name"));
        }
        "const_spec" | "var_spec" => {
            let mut cursor = node.walk();
            out.extend(node.children_by_field_name("name", &mut cursor));
        }
        _ => {
            let mut cursor = node.walk();
            for child in node.named_children(&mut cursor) {
                if child.kind() == "var_spec_list" || keyword_of(child).is_some() {
                    out.extend(declared_names(child));
                }
            }
        }
    }
    out
}

fn exported(name: &str) -> String {
    let mut chars = name.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::parse;

    const SOURCE: &str = "package shapes

// area of a square.
func area(side float64) float64 { return side * side }

func (p *point) move() {}

type (
\tpoint struct{ x, y int }
\tSides = int
)

const (
\tsmall = iota
\tlarge
)

var count, Total = 0, 1

func init() {}
";

    fn render(text: &str, target: &str) -> Result<String, PluginError> {
        let tree = parse(SOURCE);
        let start = SOURCE.find(text).expect("declaration in the source");
        render_declaration(tree.root_node(), SOURCE, start, start + text.len(), target)
    }

    #[test]
    fn declarations_moved_to_another_package_are_exported() {
        assert_eq!(
            render(
                "func area(side float64) float64 { return side * side }",
                "example.com/m/geometry"
            )
            .unwrap(),
            "func Area(side float64) float64 { return side * side }"
        );
        assert_eq!(
            render("point struct{ x, y int }", "example.com/m/geometry").unwrap(),
            "type Point struct{ x, y int }"
        );
        assert_eq!(
            render("var count, Total = 0, 1", "example.com/m/geometry").unwrap(),
            "var Count, Total = 0, 1"
        );
        assert_eq!(
            render("small = iota", "example.com/m/geometry").unwrap(),
            "const Small = iota"
        );
        assert_eq!(
            render("func init() {}", "example.com/m/geometry").unwrap(),
            "func init() {}"
        );
    }

    #[test]
    fn within_the_same_package_names_are_kept() {
        assert_eq!(
            render("point struct{ x, y int }", "example.com/m/shapes").unwrap(),
            "type point struct{ x, y int }"
        );
        assert_eq!(
            render("Sides = int", "example.com/other/shapes").unwrap(),
            "type Sides = int"
        );
    }

    #[test]
    fn methods_iota_repeats_and_non_declarations_are_refused() {
        assert!(matches!(
            render("func (p *point) move() {}", "example.com/m/geometry"),
            Err(PluginError::Failed(_))
        ));
        assert!(matches!(
            render("large", "example.com/m/geometry"),
            Err(PluginError::Failed(_))
        ));
        assert!(matches!(
            render("side * side", "example.com/m/geometry"),
            Err(PluginError::InvalidInput(_))
        ));
    }

    #[test]
    fn doc_comments_lose_markers_and_directives() {
        assert_eq!(
            doc_text("// Hello there.  ").as_deref(),
            Some("Hello there.")
        );
        assert_eq!(doc_text("//go:generate stringer").as_deref(), Some(""));
        assert_eq!(doc_text("//nolint:errcheck").as_deref(), Some(""));
        assert_eq!(
            doc_text("// Note: a colon").as_deref(),
            Some("Note: a colon")
        );
        assert_eq!(
            doc_text("/*\n   Block\n   text\n*/").as_deref(),
            Some("Block\ntext")
        );
    }
}
