//! Helpers for a plugin's native unit tests: a tree of the plugin's own
//! grammar, and edits applied to a text as the host applies them.

use tree_sitter::{Parser, Tree};

use crate::Language;
use crate::types::{Capability, TextEdit};

/// Asserts that `L` claims exactly the capabilities `stated`, in any
/// order: the list its hooks give, checked against the one a plugin
/// writes down in its tests.
pub fn assert_capabilities<L: Language>(stated: &[Capability]) {
    let mut claimed = crate::capabilities::<L>();
    let mut stated = stated.to_vec();
    claimed.sort();
    stated.sort();
    assert_eq!(claimed, stated, "capabilities of {}", L::NAME);
}

/// The tree of `source`, parsed with the grammar `L` gives for `path`, as
/// the plugin sees it ([`Language::parsed_text`] applied).
pub fn parse<L: Language>(path: &str, source: &str) -> Tree {
    let (_, grammar) = L::grammar(path);
    let mut parser = Parser::new();
    parser
        .set_language(&grammar)
        .expect("grammar compatible with the SDK's tree-sitter");
    let text = L::parsed_text(source).unwrap_or_else(|| source.to_string());
    parser
        .parse(&text, None)
        .expect("tree-sitter parse with a language set")
}

/// `source` with `edits` applied, back to front (as the host applies a
/// plugin's edits: offsets into the text before any edit).
///
/// # Panics
///
/// When two edits overlap or one lies outside the text: a test's edits
/// must not.
pub fn apply(source: &str, edits: &[TextEdit]) -> String {
    let mut edits = edits.to_vec();
    // Stable: insertions at one offset keep their order of application.
    edits.sort_by_key(|e| std::cmp::Reverse(e.start));
    for pair in edits.windows(2) {
        assert!(
            pair[1].end <= pair[0].start,
            "overlapping edits: {:?} and {:?}",
            pair[1],
            pair[0]
        );
    }
    let mut out = source.to_string();
    for edit in &edits {
        out.replace_range(edit.start as usize..edit.end as usize, &edit.new_text);
    }
    out
}

/// Compiles the queries of every language `L` serves and checks their
/// captures against the SDK's vocabulary, as loading the plugin does:
/// one test calling this fails at `cargo test` on what would otherwise
/// fail the plugin's load.
///
/// # Panics
///
/// With the query file, the line and what is wrong.
pub fn check_queries<L: Language>() {
    for language in L::LANGUAGES {
        L::queries(language);
    }
}
