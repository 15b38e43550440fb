//! What a grammar says of itself: the node kinds that are comments.

/// The named node kinds of `grammar` that are comments: those called
/// `comment` or whose name ends in `comment` (`line_comment`,
/// `block_comment`), each once, in the grammar's order. For
/// [`crate::SymbolConfig::comment_kinds`] of a grammar that names its
/// comments so (`lingo plugin new` writes that).
pub fn comment_kinds(grammar: &tree_sitter::Language) -> Vec<&'static str> {
    let mut kinds: Vec<&'static str> = Vec::new();
    for id in 0..grammar.node_kind_count() {
        let Ok(id) = u16::try_from(id) else { break };
        if !grammar.node_kind_is_named(id) || !grammar.node_kind_is_visible(id) {
            continue;
        }
        if let Some(kind) = grammar.node_kind_for_id(id)
            && kind.ends_with("comment")
            && !kinds.contains(&kind)
        {
            kinds.push(kind);
        }
    }
    kinds
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_are_the_kinds_named_so() {
        let kinds = comment_kinds(&tree_sitter_rust::LANGUAGE.into());
        assert!(kinds.contains(&"line_comment"), "{kinds:?}");
        assert!(kinds.contains(&"block_comment"), "{kinds:?}");
        assert!(!kinds.contains(&"comment"), "{kinds:?}");
        assert!(kinds.iter().all(|k| k.ends_with("comment")), "{kinds:?}");
    }
}
