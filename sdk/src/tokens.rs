//! The source as a lexer sees it: tokens from the syntax tree's leaves.
//!
//! tree-sitter keeps every token of the source as a leaf of the tree, so the
//! tokens are the leaves in order, with two exceptions: a literal (a string
//! with its quotes, escapes and interpolations) and a comment are one token
//! each, however the grammar splits them. [`Language::token_kind`] may
//! classify a node itself; what it leaves to the default is classified by
//! the grammar's node kinds (see [`default_token_kind`]).

use tree_sitter::{Node, Tree};

use crate::language::Language;
use crate::types::{Token, TokenKind};

/// The tokens of `tree` (parsed from `source`), in source order.
///
/// The walk uses a tree cursor, so it is iterative whatever the nesting,
/// and visits each node at most once.
pub(crate) fn tokens<L: Language>(tree: &Tree, source: &str) -> Vec<Token> {
    tokens_with(tree, source, L::token_kind)
}

/// The tokens of `tree`, with `classify` asked first for every node.
fn tokens_with(
    tree: &Tree,
    source: &str,
    classify: impl Fn(Node, &str) -> Option<TokenKind>,
) -> Vec<Token> {
    let mut tokens = Vec::new();
    let mut cursor = tree.walk();
    'walk: loop {
        let node = cursor.node();
        let whole = if node.start_byte() == node.end_byte() {
            // A node the parser made up to recover (MISSING): no text.
            Some(None)
        } else {
            match classify(node, source).or_else(|| whole_token_kind(node)) {
                Some(kind) => Some(Some(kind)),
                None if node.child_count() == 0 => Some(Some(default_token_kind(node))),
                None => None,
            }
        };
        match whole {
            Some(kind) => {
                if let Some(kind) = kind {
                    tokens.push(Token {
                        kind,
                        start: node.start_byte() as u32,
                        end: node.end_byte() as u32,
                    });
                }
            }
            None => {
                if cursor.goto_first_child() {
                    continue;
                }
            }
        }
        // Next sibling, or the next sibling of the nearest ancestor.
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                break 'walk;
            }
        }
    }
    tokens
}

/// A node taken whole whatever its children: a comment or a literal.
fn whole_token_kind(node: Node) -> Option<TokenKind> {
    let kind = node.kind();
    if kind.contains("comment") {
        Some(TokenKind::Comment)
    } else if node.is_named() && is_literal_kind(kind) {
        Some(TokenKind::Literal)
    } else {
        None
    }
}

/// Whether a grammar's node kind names a literal value.
fn is_literal_kind(kind: &str) -> bool {
    const WORDS: &[&str] = &[
        "literal", "string", "number", "integer", "float", "char", "rune", "regex",
    ];
    const VALUES: &[&str] = &["true", "false", "null", "nil", "undefined"];
    WORDS.iter().any(|w| kind.contains(w)) || VALUES.contains(&kind)
}

/// The kind of a leaf the language did not classify: a named leaf whose
/// kind says identifier or type (`identifier`, `type_identifier`,
/// `primitive_type`, `predefined_type`) is an identifier, another named leaf
/// (`self`, `this`, `mutable_specifier`) or an anonymous word (`fn`,
/// `return`) a keyword, and anything else punctuation.
pub fn default_token_kind(node: Node) -> TokenKind {
    let kind = node.kind();
    if node.is_named() {
        if kind.contains("identifier") || kind.ends_with("type") || kind == "name" {
            TokenKind::Identifier
        } else {
            TokenKind::Keyword
        }
    } else if kind.starts_with(|c: char| c.is_alphabetic() || c == '_') {
        TokenKind::Keyword
    } else {
        TokenKind::Punctuation
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `text:kind` per token of Rust `source`, by the default classification.
    fn lex(source: &str) -> Vec<String> {
        let mut parser = tree_sitter::Parser::new();
        parser
            .set_language(&tree_sitter_rust::LANGUAGE.into())
            .unwrap();
        let tree = parser.parse(source, None).unwrap();
        tokens_with(&tree, source, |_, _| None)
            .into_iter()
            .map(|t| {
                let kind = match t.kind {
                    TokenKind::Identifier => "identifier",
                    TokenKind::Keyword => "keyword",
                    TokenKind::Literal => "literal",
                    TokenKind::Punctuation => "punctuation",
                    TokenKind::Comment => "comment",
                };
                format!("{}:{kind}", &source[t.start as usize..t.end as usize])
            })
            .collect()
    }

    #[test]
    fn a_function_lexes_into_its_tokens() {
        assert_eq!(
            lex("/// Doc.\nfn f(x: u32) -> &'static str { \"a\\n\" }"),
            [
                "/// Doc.\n:comment",
                "fn:keyword",
                "f:identifier",
                "(:punctuation",
                "x:identifier",
                "::punctuation",
                "u32:identifier",
                "):punctuation",
                "->:punctuation",
                "&:punctuation",
                "':punctuation",
                "static:identifier",
                "str:identifier",
                "{:punctuation",
                "\"a\\n\":literal",
                "}:punctuation",
            ]
        );
    }

    #[test]
    fn tokens_are_ordered_and_disjoint_in_broken_and_deep_code() {
        let deep = format!("fn f() {{ {}1{} }}", "(".repeat(3000), ")".repeat(3000));
        for source in ["fn f( { let x = ; }", "struct S { a: , }", deep.as_str()] {
            let mut parser = tree_sitter::Parser::new();
            parser
                .set_language(&tree_sitter_rust::LANGUAGE.into())
                .unwrap();
            let tree = parser.parse(source, None).unwrap();
            let tokens = tokens_with(&tree, source, |_, _| None);
            assert!(!tokens.is_empty());
            let mut last = 0;
            for t in &tokens {
                assert!(t.start >= last && t.end > t.start, "{t:?}");
                last = t.end;
            }
            assert!(last as usize <= source.len());
        }
    }
}
