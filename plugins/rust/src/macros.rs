//! The arguments of well-known macros as embedded code: tree-sitter-rust
//! leaves a macro's arguments as a token tree, so the calls, paths and
//! struct literals in `assert_eq!(parse(x), Ast { .. })` would be invisible.
//! The macros below take expressions (and `matches!` a pattern); their
//! arguments are parsed again, wrapped, by the SDK. The names written in
//! a format string (`"{name}"`) are embedded code too.

use lingo_plugin_sdk::Embedded;
use lingo_plugin_sdk::walk::{Occurrences, walk_holding};
use tree_sitter::Node;

/// Comma-separated expressions, as the elements of an array (which also
/// takes `vec![x; n]`).
const EXPRESSIONS: (&str, &str) = ("fn __lingo() { [", "]; }");
/// One expression: a name captured by a format string.
const EXPRESSION: (&str, &str) = ("fn __lingo() { ", "; }");
/// A pattern, with an optional `if` guard.
const PATTERN: (&str, &str) = ("fn __lingo() { match () { ", " => {} } }");

/// Macros whose arguments are expressions, with the index of the argument
/// that is a format string, if any. The standard library's, and the
/// formatting macros of `anyhow` and `log`.
const EXPRESSION_MACROS: &[(&str, Option<usize>)] = &[
    ("assert", Some(1)),
    ("assert_eq", Some(2)),
    ("assert_ne", Some(2)),
    ("debug_assert", Some(1)),
    ("debug_assert_eq", Some(2)),
    ("debug_assert_ne", Some(2)),
    ("vec", None),
    ("dbg", None),
    ("format", Some(0)),
    ("format_args", Some(0)),
    ("print", Some(0)),
    ("println", Some(0)),
    ("eprint", Some(0)),
    ("eprintln", Some(0)),
    ("write", Some(1)),
    ("writeln", Some(1)),
    ("panic", Some(0)),
    ("todo", Some(0)),
    ("unimplemented", Some(0)),
    ("unreachable", Some(0)),
    ("anyhow", Some(0)),
    ("bail", Some(0)),
    ("ensure", Some(1)),
    ("format_err", Some(0)),
    ("trace", Some(0)),
    ("debug", Some(0)),
    ("info", Some(0)),
    ("warn", Some(0)),
    ("error", Some(0)),
];

/// Macros taking an expression, then a pattern: `matches!(value, Some(x) if x > 1)`.
const PATTERN_MACROS: &[&str] = &["matches", "assert_matches", "debug_assert_matches"];

/// The embedded code in the tree `root` of `source`: the arguments of each
/// macro above that is not itself inside a token tree (those are found in
/// the parse of their enclosing macro), and the names captured by its format
/// string.
pub fn embedded_code(root: Node, source: &str) -> Vec<Embedded> {
    // An invocation of one of the macros above holds the `!` after its
    // name: subtrees without such a `!` are skipped.
    let mut out = Vec::new();
    walk_holding(root, &known_invocations(source), |node| match node.kind() {
        "macro_invocation" => {
            macro_arguments(node, source, &mut out);
            false
        }
        "token_tree" | "macro_definition" => false,
        _ => true,
    });
    out
}

/// Each `!` in `source` right after (spaces aside) a name and before a
/// delimiter: where an invocation whose arguments may be embedded code may
/// be. The `!` of `!=` and of negations are left out, and with them most
/// of the walk. A name in a comment or a string counts too, which only
/// costs a visit.
fn known_invocations(source: &str) -> Occurrences {
    // Any macro's name: one this file does not know may still take
    // expressions (`assert_ok!(fs::read(path).await)`), tried below.
    let known = |name: &str| !name.is_empty() && !name.starts_with(|c: char| c.is_ascii_digit());
    let positions = source
        .match_indices('!')
        .filter(|&(bang, _)| {
            let before = source[..bang].trim_end();
            let name_start = before
                .char_indices()
                .rev()
                .find(|&(_, c)| !(c.is_ascii_alphanumeric() || c == '_'))
                .map_or(0, |(i, c)| i + c.len_utf8());
            let opens = source[bang + 1..].trim_start().starts_with(['(', '[', '{']);
            opens && known(&before[name_start..])
        })
        .map(|(bang, _)| bang)
        .collect();
    Occurrences::at(positions)
}

/// The embedded code of one macro invocation.
fn macro_arguments(node: Node, source: &str, out: &mut Vec<Embedded>) {
    let Some(name) = node
        .child_by_field_name("macro")
        .and_then(|m| match m.kind() {
            "identifier" => Some(m),
            "scoped_identifier" => m.child_by_field_name("name"),
            _ => None,
        })
    else {
        return;
    };
    let name = &source[name.byte_range()];
    let mut cursor = node.walk();
    let Some(tokens) = node
        .children(&mut cursor)
        .filter(|c| c.kind() == "token_tree")
        .last()
    else {
        return;
    };
    // The delimiters are one byte each.
    let (start, end) = (tokens.start_byte() + 1, tokens.end_byte() - 1);
    if start >= end {
        return;
    }
    let mut cursor = tokens.walk();
    let children: Vec<Node> = tokens.children(&mut cursor).collect();
    if let Some(&(_, format_index)) = EXPRESSION_MACROS.iter().find(|(m, _)| *m == name) {
        if !in_a_syntax_of_its_own(&children) {
            out.push(region(start, end, EXPRESSIONS));
        }
        if let Some(index) = format_index {
            format_captures(&children, index, source, out);
        }
    } else if !PATTERN_MACROS.contains(&name) {
        // Another macro, written where an expression or statement goes:
        // its arguments, read as expressions when they look like them (a
        // parse that fails is dropped, but error recovery is slow, so what
        // is written in a syntax of its own is not tried).
        if !in_item_position(node) && looks_like_expressions(&children, source) {
            out.push(region(start, end, EXPRESSIONS));
        }
    } else {
        let Some(comma) = children.iter().find(|c| c.kind() == ",") else {
            return;
        };
        out.push(region(start, comma.start_byte(), EXPRESSIONS));
        // The pattern, without a trailing comma.
        let pattern_end = start + source[start..end].trim_end().trim_end_matches(',').len();
        if comma.end_byte() < pattern_end {
            out.push(region(comma.end_byte(), pattern_end, PATTERN));
        }
    }
}

/// Path segments read back from a word of a token tree, at most.
const MAX_TOKEN_PATH: usize = 32;

/// A word of a macro's token tree that ends a path (`Barrier` in
/// `f!(std::sync::Barrier)`): its own text and the segments written before
/// it, outermost first (`["std", "sync"]`). The grammar reads a token tree
/// as loose tokens, so without this each segment would be a bare name.
/// `None` for a word that no `::` precedes, and for a path longer than
/// [`MAX_TOKEN_PATH`].
pub fn token_tree_path(word: Node, source: &str) -> Option<(String, Vec<String>)> {
    if word.kind() != "identifier" || word.parent()?.kind() != "token_tree" {
        return None;
    }
    let mut path = Vec::new();
    let mut at = word;
    // Each step goes one sibling back, so this ends.
    while let Some(separator) = at.prev_sibling().filter(|p| p.kind() == "::") {
        // `::std::..` (a path from the root) ends where no segment is.
        let Some(segment) = separator
            .prev_sibling()
            .filter(|p| matches!(p.kind(), "identifier" | "crate" | "self" | "super"))
        else {
            break;
        };
        if path.len() >= MAX_TOKEN_PATH {
            return None;
        }
        path.push(source.get(segment.byte_range())?.to_string());
        at = segment;
    }
    if path.is_empty() {
        return None;
    }
    path.reverse();
    Some((source.get(word.byte_range())?.to_string(), path))
}

/// Whether the invocation `node` stands where an item goes (a file's, a
/// module's, an `impl`'s or a trait's body), where it makes declarations,
/// not values.
pub(crate) fn in_item_position(node: Node) -> bool {
    let parent = node
        .parent()
        .filter(|p| p.kind() != "expression_statement")
        .or_else(|| node.parent().and_then(|p| p.parent()));
    parent.is_none_or(|p| matches!(p.kind(), "source_file" | "declaration_list"))
}

/// Whether a token tree's top-level tokens (`children`, delimiters
/// included) may be comma-separated expressions: none of a statement's or
/// an item's, nor a macro DSL's (`=>`, `;`), nor of [`in_a_syntax_of_its_own`].
fn looks_like_expressions(children: &[Node], source: &str) -> bool {
    const NOT_IN_EXPRESSIONS: &[&str] = &[
        ";", "=>", "fn", "struct", "enum", "impl", "trait", "mod", "use", "let", "pub", "type",
        "const", "static",
    ];
    let inner = children
        .get(1..children.len().saturating_sub(1))
        .unwrap_or(&[]);
    !inner.is_empty()
        && !in_a_syntax_of_its_own(children)
        && !inner
            .iter()
            .any(|token| NOT_IN_EXPRESSIONS.contains(&&source[token.byte_range()]))
}

/// Whether the top-level arguments of a macro's token tree are written in
/// a syntax no expression has, so that parsing them as expressions would
/// fail: `tracing`'s `info!(target: "app", user = %name, ?value, "msg")`.
/// An argument that starts with `name:`, `?` or `%`, or a `?` or `%` right
/// after an `=`. Such a parse would be dropped, and tree-sitter's error
/// recovery made it cost eight times a clean parse of the same size.
fn in_a_syntax_of_its_own(children: &[Node]) -> bool {
    let inner = children
        .get(1..children.len().saturating_sub(1))
        .unwrap_or(&[]);
    inner
        .split(|token| token.kind() == ",")
        .any(|argument| match argument {
            [first, ..] if matches!(first.kind(), "?" | "%") => true,
            [first, second, ..] if first.kind() == "identifier" && second.kind() == ":" => true,
            _ => argument
                .windows(2)
                .any(|pair| pair[0].kind() == "=" && matches!(pair[1].kind(), "?" | "%")),
        })
}

fn region(start: usize, end: usize, (prefix, suffix): (&'static str, &'static str)) -> Embedded {
    Embedded {
        start,
        end,
        prefix,
        suffix,
    }
}

/// The names a format string captures (`"{name}"`, `"{name:?}"`): the
/// argument number `index` (counted by the commas at the top of the token
/// tree `children`) when it is a lone string literal. A name given as an
/// argument (`name = value`) is that argument, not a capture.
fn format_captures(children: &[Node], index: usize, source: &str, out: &mut Vec<Embedded>) {
    let mut arguments: Vec<Vec<Node>> = vec![Vec::new()];
    for child in children {
        match child.kind() {
            "(" | ")" | "[" | "]" | "{" | "}" => {}
            "," => arguments.push(Vec::new()),
            _ => arguments.last_mut().expect("one argument").push(*child),
        }
    }
    let [literal] = arguments.get(index).map(Vec::as_slice).unwrap_or(&[]) else {
        return;
    };
    let named: Vec<&str> = arguments[index + 1..]
        .iter()
        .filter_map(|argument| match argument.as_slice() {
            [name, equals, ..] if name.kind() == "identifier" && equals.kind() == "=" => {
                Some(&source[name.byte_range()])
            }
            _ => None,
        })
        .collect();
    let text = &source[literal.byte_range()];
    let (body_start, raw) = match literal.kind() {
        "string_literal" => (1, false),
        "raw_string_literal" => match text.find('"') {
            Some(quote) => (quote + 1, true),
            None => return,
        },
        _ => return,
    };
    let closing = if raw {
        text.rfind('"').unwrap_or(body_start)
    } else {
        text.len().saturating_sub(1)
    };
    if closing <= body_start {
        return;
    }
    let base = literal.start_byte();
    for (from, to) in captured_names(&text[body_start..closing], raw) {
        let name = &text[body_start + from..body_start + to];
        if !named.contains(&name) {
            out.push(region(
                base + body_start + from,
                base + body_start + to,
                EXPRESSION,
            ));
        }
    }
}

/// The byte ranges of the identifiers a format string's body captures:
/// `{name}` or `{name:spec}`; `{{` is an escaped brace, and in a string
/// that is not raw, `\` starts an escape (`\u{..}` included).
fn captured_names(body: &str, raw: bool) -> Vec<(usize, usize)> {
    let bytes = body.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if !raw => {
                i += 2;
                if bytes.get(i - 1) == Some(&b'u') && bytes.get(i) == Some(&b'{') {
                    while i < bytes.len() && bytes[i] != b'}' {
                        i += 1;
                    }
                    i += 1;
                }
            }
            b'{' if bytes.get(i + 1) == Some(&b'{') => i += 2,
            b'{' => {
                let start = i + 1;
                let mut end = start;
                while end < bytes.len()
                    && (bytes[end].is_ascii_alphanumeric() || bytes[end] == b'_')
                {
                    end += 1;
                }
                let name = &body[start..end];
                let starts_like_a_name = name
                    .bytes()
                    .next()
                    .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_');
                if starts_like_a_name && name != "_" && matches!(bytes.get(end), Some(b'}' | b':'))
                {
                    out.push((start, end));
                }
                i = end.max(start);
            }
            _ => i += 1,
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The regions `embedded_code` finds in `source`, as text.
    fn regions(source: &str) -> Vec<&str> {
        let mut parser = tree_sitter::Parser::new();
        parser
            .set_language(&tree_sitter_rust::LANGUAGE.into())
            .expect("grammar");
        let tree = parser.parse(source, None).expect("parsed");
        embedded_code(tree.root_node(), source)
            .into_iter()
            .map(|e| &source[e.start..e.end])
            .collect()
    }

    #[test]
    fn arguments_in_a_macro_syntax_of_their_own_are_not_parsed_as_expressions() {
        let source = r#"fn f() {
            info!(target: "app", "started");
            info!(user = %name, "a");
            debug!(?value, "b");
            warn!(parent: None, "c");
            vec![|x: u32| x + 1];
            assert!(a == b, "{} {c}", d);
            info!(x = 1, y = f(z));
        }"#;
        assert_eq!(
            regions(source),
            [
                "|x: u32| x + 1",
                "a == b, \"{} {c}\", d",
                "c",
                "x = 1, y = f(z)",
            ]
        );
    }

    #[test]
    fn invocations_are_found_through_paths_spaces_and_other_bangs() {
        let source = r#"fn f() {
            if !(a != b) { std::println!("{x}"); }
            windows_targets::link!("kernel32.dll" "system" fn Beep(f: u32));
            assert_eq ! (é, g(h));
            let é = !é;
            log::info!{"{y}"}
        }"#;
        assert_eq!(
            regions(source),
            ["\"{x}\"", "x", "é, g(h)", "\"{y}\"", "y"],
            "every known macro, however written, and nothing else"
        );
    }

    #[test]
    fn only_the_bangs_after_a_name_and_before_a_delimiter_are_kept() {
        let source = "é! x! !y a != b vec ! [] matches!(v, _) mine! { a }";
        let found = known_invocations(source);
        // The `!` of the first occurrence of `pattern`.
        let bang = |pattern: &str| {
            source.find(pattern).expect("in the source") + pattern.find('!').expect("a `!`")
        };
        for pattern in ["é!", "x!", "!y", "!="] {
            let at = bang(pattern);
            assert!(!found.within(at, at + 1), "the `!` of {pattern}");
        }
        for pattern in ["vec !", "matches!", "mine!"] {
            let at = bang(pattern);
            assert!(found.within(at, at + 1), "the `!` of {pattern}");
        }
    }

    #[test]
    fn format_strings_capture_names_not_escapes_or_positions() {
        let body = r"a {x} {{y}} {0} {} {z:?} {w:>width$} \u{ab} {_} {é}";
        let names: Vec<&str> = captured_names(body, false)
            .into_iter()
            .map(|(s, e)| &body[s..e])
            .collect();
        assert_eq!(names, ["x", "z", "w"]);
        let raw = r"\{a}";
        assert_eq!(captured_names(raw, true), [(2, 3)]);
    }
}
