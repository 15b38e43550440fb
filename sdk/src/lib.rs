//! The crate a lingo language plugin depends on.
//!
//! A plugin implements [`Language`]: the tree-sitter grammar, the `.scm`
//! queries that find symbols, references and locals, and a few hooks for what
//! queries cannot say (imports, visibility, doc comments). The SDK does the
//! rest: it keeps the parsed tree in the WIT `document` resource, runs the
//! queries, computes spans, diagnostics and metrics, and exports the component
//! through [`export_plugin!`].

pub mod bindings;
mod component;
pub mod declared;
pub mod doc;
mod document;
mod embedded;
mod entry;
mod expansion;
pub mod extent;
mod facts;
mod grammar;
mod language;
pub mod manifests;
mod metrics;
mod overloads;
mod query;
pub mod query_check;
pub mod query_files;
pub mod source;
pub mod testing;
mod text;
mod tokens;
mod unreachable;
pub mod walk;

pub use component::{Component, capabilities};
pub use document::Document;
pub use embedded::MAX_EMBEDDED_DEPTH;
pub use entry::{describe_entry_points, describe_unreachable};
pub use expansion::{
    DefinedMacro, Expanded, ExpandedPiece, Expansions, MAX_EXPANSIONS, Unexpanded, UnexpandedReason,
};
pub use grammar::comment_kinds;
pub use language::{
    Embedded, EntryPointHook, FunctionAt, ImportsHook, Language, MetricsConfig, ModuleResolution,
    ParameterSite, Reachability, RemoveImportHook, RenderDeclarationHook, RenderImportHook,
    SymbolConfig, default_symbol_kind, never_hoisted,
};
pub use overloads::OverloadTypes;
pub use query::{MAX_QUERY_START_DEPTH, Queries};
pub use text::LineIndex;
pub use tokens::default_token_kind;

/// The WIT types a plugin names in its hooks.
pub mod types {
    pub use crate::bindings::exports::lingo::plugin::types::*;
}

/// The prefix of a symbol modifier stating the condition a declaration
/// exists under (`when:feature = "fast"`, from [`Language::modifiers`]):
/// the host reports it with every reference written inside it.
pub const CONDITION_MODIFIER: &str = "when:";

/// The ABI version this SDK implements: the version of `wit/lingo-plugin.wit`.
pub const ABI_VERSION: &str = "0.17.0";

/// The conversion rules of a language without overloads told apart by
/// argument types (`language-policy.conversions`): none stated.
pub fn no_conversions() -> types::ConversionRules {
    types::ConversionRules {
        nominal: false,
        top_types: Vec::new(),
        widening: Vec::new(),
    }
}

/// The conversion rules of a language whose overloads are told apart by
/// argument types: nominal or not, the top types, and each built-in type
/// with the built-in types it widens to, as static tables.
pub fn conversion_rules(
    nominal: bool,
    top_types: &[&str],
    widening: &[(&str, &[&str])],
) -> types::ConversionRules {
    types::ConversionRules {
        nominal,
        top_types: top_types.iter().map(|t| t.to_string()).collect(),
        widening: widening
            .iter()
            .map(|(from, to)| types::Widening {
                from: from.to_string(),
                to: to.iter().map(|t| t.to_string()).collect(),
            })
            .collect(),
    }
}

/// Export `$language` (a type implementing [`Language`]) as the component.
///
/// Only a WebAssembly build exports anything: natively (unit tests, the
/// native side of `bench/sandbox`) several plugins link into one binary,
/// and their exports would have the same symbol names.
#[macro_export]
macro_rules! export_plugin {
    ($language:ty) => {
        #[allow(dead_code)]
        type __LingoComponent = $crate::Component<$language>;
        #[cfg(target_family = "wasm")]
        $crate::bindings::export_bindings!(__LingoComponent with_types_in $crate::bindings);
    };
}
