//! Rendering a type declaration for another namespace: its doc comment,
//! attributes and text, re-indented inside a block or file-scoped namespace,
//! with an accessibility that is legal at namespace level.

use lingo_plugin_sdk::extent::dedent;
use lingo_plugin_sdk::types::PluginError;
use tree_sitter::Node;

use crate::declarations::{TYPE_KINDS, file_scoped_namespace, text};

/// How the target namespace is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Style {
    /// `namespace A.B;` followed by the declaration.
    FileScoped,
    /// `namespace A.B { ... }`.
    Block,
}

/// The target of a rendering: `A.B` (the source file's style), `A.B;`
/// (file-scoped), `A.B {}` (block) or `""` (the global namespace). A leading
/// `namespace` keyword is allowed.
pub(crate) fn parse_target(target: &str, default: Style) -> Result<(String, Style), PluginError> {
    let mut name = target.trim();
    name = name.strip_prefix("namespace ").unwrap_or(name).trim();
    let style = if let Some(rest) = name.strip_suffix(';') {
        name = rest.trim_end();
        Style::FileScoped
    } else if let Some(rest) = name.strip_suffix("{}") {
        name = rest.trim_end();
        Style::Block
    } else {
        default
    };
    let valid = name.split('.').all(|segment| {
        let mut chars = segment.chars();
        chars
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_' || c == '@')
            && chars.all(|c| c.is_alphanumeric() || c == '_')
    });
    if !name.is_empty() && !valid {
        return Err(PluginError::InvalidInput(format!(
            "`{target}` is not a namespace name"
        )));
    }
    Ok((name.to_string(), style))
}

/// The type declaration whose span `[start, end)` is (not a type around a
/// member).
pub(crate) fn declaration_at(root: Node, start: usize, end: usize) -> Option<Node> {
    lingo_plugin_sdk::source::declaration_at(root, start, end, |kind| TYPE_KINDS.contains(&kind))
}

/// Where the declaration's text starts: at the doc comment right above it.
pub(crate) fn start_with_doc(declaration: Node, source: &str) -> usize {
    let mut start = declaration;
    while let Some(previous) = start.prev_sibling() {
        let doc = previous.kind() == "comment"
            && crate::declarations::doc_comment(text(previous, source)).is_some()
            && previous.end_position().row + 1 >= start.start_position().row;
        if !doc {
            break;
        }
        start = previous;
    }
    start.start_byte()
}

/// Replacements (relative to `base`) that make the declaration's
/// accessibility legal in a namespace: `private`, `protected`, `protected
/// internal` and `private protected` become `internal`.
fn namespace_accessibility(
    declaration: Node,
    source: &str,
    base: usize,
) -> Vec<(usize, usize, &'static str)> {
    let mut cursor = declaration.walk();
    let access: Vec<Node> = declaration
        .children(&mut cursor)
        .filter(|c| c.kind() == "modifier")
        .filter(|m| {
            matches!(
                text(*m, source).trim(),
                "private" | "protected" | "internal" | "public"
            )
        })
        .collect();
    let words: Vec<&str> = access.iter().map(|m| text(*m, source).trim()).collect();
    if !words.iter().any(|w| matches!(*w, "private" | "protected")) {
        return Vec::new();
    }
    let mut edits = Vec::new();
    for (i, modifier) in access.iter().enumerate() {
        let (start, end) = (modifier.start_byte() - base, modifier.end_byte() - base);
        if i == 0 {
            edits.push((start, end, "internal"));
        } else {
            // Drop the word and the space before it.
            let space_start = access[i - 1].end_byte() - base;
            edits.push((space_start, end, ""));
        }
    }
    edits
}

/// The indentation unit of the file: a tab if its declarations are
/// indented with tabs, else four spaces.
pub(crate) fn indent_unit(source: &str) -> &'static str {
    let tabbed = source
        .lines()
        .find(|l| l.starts_with([' ', '\t']) && !l.trim().is_empty())
        .is_some_and(|l| l.starts_with('\t'));
    if tabbed { "\t" } else { "    " }
}

/// The declaration at `[start, end)` rendered into `target_module`.
pub fn render_declaration(
    root: Node,
    source: &str,
    start: usize,
    end: usize,
    target_module: &str,
) -> Result<String, PluginError> {
    let declaration = declaration_at(root, start, end).ok_or_else(|| {
        PluginError::InvalidInput(format!(
            "no type declaration covers bytes {start}..{end}: only classes, structs, records, \
             interfaces, enums and delegates can move to another namespace"
        ))
    })?;
    let default_style = if file_scoped_namespace(root).is_some() {
        Style::FileScoped
    } else {
        Style::Block
    };
    let (namespace, style) = parse_target(target_module, default_style)?;
    let from = start_with_doc(declaration, source);
    let to = declaration.end_byte();
    let mut body = source[from..to].to_string();
    let mut edits = namespace_accessibility(declaration, source, from);
    edits.sort_by_key(|e| std::cmp::Reverse(e.0));
    for (s, e, replacement) in edits {
        body.replace_range(s..e, replacement);
    }
    let line_start = source[..from].rfind('\n').map_or(0, |i| i + 1);
    let width = source[line_start..from].chars().count();
    let body = dedent(&body, width);
    if namespace.is_empty() {
        return Ok(format!("{body}\n"));
    }
    Ok(match style {
        Style::FileScoped => format!("namespace {namespace};\n\n{body}\n"),
        Style::Block => {
            let unit = indent_unit(source);
            let indented: Vec<String> = body
                .lines()
                .map(|l| {
                    if l.trim().is_empty() {
                        String::new()
                    } else {
                        format!("{unit}{l}")
                    }
                })
                .collect();
            let brace_on_same_line = declaration
                .child_by_field_name("body")
                .and_then(|b| b.child(0))
                .zip(declaration.child_by_field_name("name"))
                .is_some_and(|(brace, name)| {
                    brace.start_position().row == name.start_position().row
                });
            let open = if brace_on_same_line { " {\n" } else { "\n{\n" };
            format!("namespace {namespace}{open}{}\n}}\n", indented.join("\n"))
        }
    })
}
