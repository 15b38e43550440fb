//! Helpers for a plugin's native unit tests: a tree of the plugin's own
//! grammar, edits applied to a text as the host applies them, manifests.

use tree_sitter::{Parser, Tree};

use crate::bindings::exports::lingo::plugin::syntax::GuestDocument;
use crate::types::{
    ArgumentValue, Capability, Manifest, ParameterType, Receiver, Reference, TextEdit,
};
use crate::{Document, Language};

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

/// A manifest the host would hand the plugin: `contents` read at `path`.
pub fn manifest(path: &str, contents: &str) -> Manifest {
    Manifest {
        path: path.into(),
        contents: contents.into(),
    }
}

/// One line per parameter list of `document`: the function's name, then
/// each parameter's type (`Read(int, named IO.Stream, other)`).
pub fn describe_parameter_lists<L: Language>(document: &Document<L>) -> Vec<String> {
    let symbols = document.symbols();
    document
        .parameter_lists()
        .iter()
        .map(|list| {
            let types: Vec<String> = list
                .types
                .iter()
                .map(|t| match t {
                    ParameterType::BuiltIn(name) => name.clone(),
                    ParameterType::Named(named) => {
                        let mut path = named.type_qualifier.clone();
                        path.push(named.type_name.clone());
                        format!("named {}", path.join("."))
                    }
                    ParameterType::Other => "other".into(),
                })
                .collect();
            let name = symbols
                .get(list.function as usize)
                .map_or("?", |s| s.name.as_str());
            format!("{name}({})", types.join(", "))
        })
        .collect()
}

/// One line per call of `document` whose arguments it states: the name
/// called, then what each argument is (`W(int, s, Make(), null, ?)`: a
/// built-in type, the value a reference names, called when followed by
/// `()`, `null`, or `?` for unknown).
pub fn describe_call_arguments<L: Language>(document: &Document<L>) -> Vec<String> {
    let references = document.references();
    let name = |index: u32| {
        references
            .get(index as usize)
            .map_or("?".to_string(), |r| r.name.clone())
    };
    document
        .call_arguments()
        .iter()
        .map(|call| {
            let values: Vec<String> = call
                .values
                .iter()
                .map(|v| match v {
                    ArgumentValue::BuiltIn(name) => name.clone(),
                    ArgumentValue::Null => "null".into(),
                    ArgumentValue::Value(r) if r.called => format!("{}()", name(r.reference)),
                    ArgumentValue::Value(r) => name(r.reference),
                    ArgumentValue::Unknown => "?".into(),
                })
                .collect();
            format!("{}({})", name(call.call), values.join(", "))
        })
        .collect()
}

/// The value `receiver` denotes, as a test reads it: the name of the
/// reference it starts from, then `()` when that is called and `[_]` when
/// the value is one element of it (`users[_]`, `load()[_]`).
pub fn describe_receiver(references: &[Reference], receiver: &Receiver) -> String {
    let named = references
        .get(receiver.reference as usize)
        .map_or("?", |r| r.name.as_str());
    let call = if receiver.called { "()" } else { "" };
    let index = if receiver.indexed { "[_]" } else { "" };
    format!("{named}{call}{index}")
}

/// One line per value `document` states is written for a parameter:
/// `name <- function [positions]`, the name of the member (`.k`) or
/// local (`x`) and the function as [`describe_receiver`] writes it.
pub fn describe_parameter_contexts<L: Language>(document: &Document<L>) -> Vec<String> {
    use crate::types::ContextTarget;
    let references = document.references();
    let locals = document.locals();
    document
        .parameter_contexts()
        .iter()
        .map(|context| {
            let target = match context.target {
                ContextTarget::Member(index) => references
                    .get(index as usize)
                    .map_or("?".to_string(), |r| format!(".{}", r.name)),
                ContextTarget::Local(index) => locals
                    .get(index as usize)
                    .map_or("?".to_string(), |l| l.name.clone()),
            };
            format!(
                "{target} <- {} {:?}",
                describe_receiver(&references, &context.function),
                context.parameters
            )
        })
        .collect()
}

/// One line per local of `document` whose value it states, `name =
/// value` with the value as [`describe_receiver`] writes it.
pub fn describe_local_values<L: Language>(document: &Document<L>) -> Vec<String> {
    let references = document.references();
    document
        .locals()
        .iter()
        .filter_map(|local| {
            let value = local.value.as_ref()?;
            Some(format!(
                "{} = {}",
                local.name,
                describe_receiver(&references, value)
            ))
        })
        .collect()
}
