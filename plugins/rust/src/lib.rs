//! The lingo plugin for Rust: tree-sitter-rust plus the `.scm` queries in
//! `queries/`, with Rust code only for `use` trees, visibility and modules.

mod imports;
mod modules;

use std::sync::OnceLock;

use lingo_plugin_sdk::types::{
    Capability, Import, Manifest, ModuleIdentity, PluginError, TextEdit, Visibility,
};
use lingo_plugin_sdk::{Language, LineIndex, MetricsConfig, Queries, SymbolConfig};
use tree_sitter::Node;

/// Rust, as a lingo language.
pub struct Rust;

const SYMBOLS: &str = include_str!("../queries/symbols.scm");
const REFERENCES: &str = include_str!("../queries/references.scm");
const LOCALS: &str = include_str!("../queries/locals.scm");

static SYMBOL_CONFIG: SymbolConfig = SymbolConfig {
    signature_end_fields: &["body", "value"],
    comment_kinds: &["line_comment", "block_comment"],
    attribute_kinds: &["attribute_item"],
    path_separator: "::",
};

static METRICS_CONFIG: MetricsConfig = MetricsConfig {
    function_tags: &["function", "method"],
    branch_kinds: &[
        "if_expression",
        "while_expression",
        "for_expression",
        "loop_expression",
        "match_arm",
        "try_expression",
    ],
    nesting_kinds: &[
        "if_expression",
        "while_expression",
        "for_expression",
        "loop_expression",
        "match_expression",
    ],
    else_kinds: &["else_clause"],
    nesting_only_kinds: &["closure_expression"],
    binary_kinds: &["binary_expression"],
    boolean_operators: &["&&", "||"],
    parameters_field: "parameters",
    atomic_operand_kinds: &["string_literal", "raw_string_literal", "char_literal"],
};

impl Language for Rust {
    const NAME: &'static str = "rust";
    const VERSION: &'static str = env!("CARGO_PKG_VERSION");
    const LANGUAGES: &'static [&'static str] = &["rust"];
    const EXTENSIONS: &'static [&'static str] = &["rs"];
    const MANIFESTS: &'static [&'static str] = &["Cargo.toml"];

    fn is_self_receiver(receiver: Node, _source: &str) -> bool {
        receiver.kind() == "self"
    }

    fn grammar(_path: &str) -> (&'static str, tree_sitter::Language) {
        ("rust", tree_sitter_rust::LANGUAGE.into())
    }

    fn queries(_language: &str) -> &'static Queries {
        static QUERIES: OnceLock<Queries> = OnceLock::new();
        QUERIES.get_or_init(|| {
            Queries::new(
                &tree_sitter_rust::LANGUAGE.into(),
                SYMBOLS,
                REFERENCES,
                LOCALS,
            )
            .unwrap_or_else(|e| panic!("rust plugin queries: {e}"))
        })
    }

    fn symbol_config() -> &'static SymbolConfig {
        &SYMBOL_CONFIG
    }

    fn metrics_config() -> &'static MetricsConfig {
        &METRICS_CONFIG
    }

    fn extra_capabilities() -> Vec<Capability> {
        vec![
            Capability::Imports,
            Capability::ModuleResolution,
            Capability::RenderImport,
            Capability::RemoveImport,
        ]
    }

    /// An `impl` is named after its self type, which it refers to.
    fn name_is_reference(tag: &str) -> bool {
        tag == "impl"
    }

    /// `///` and `/** */` are outer doc comments; `//!` documents the
    /// enclosing item, not the next one.
    fn doc_comment(comment: &str) -> Option<String> {
        if let Some(rest) = comment.strip_prefix("///") {
            if rest.starts_with('/') {
                return None;
            }
            return Some(
                rest.strip_prefix(' ')
                    .unwrap_or(rest)
                    .trim_end()
                    .to_string(),
            );
        }
        let body = comment.strip_prefix("/**")?.strip_suffix("*/")?;
        if body.starts_with('*') {
            return None;
        }
        let lines: Vec<&str> = body
            .lines()
            .map(|l| l.trim().trim_start_matches('*').trim_start())
            .collect();
        Some(lines.join("\n").trim().to_string())
    }

    fn visibility(node: Node, source: &str) -> Visibility {
        visibility(node, source)
    }

    fn modifiers(node: Node, source: &str) -> Vec<String> {
        let mut cursor = node.walk();
        let mut out = Vec::new();
        for child in node.children(&mut cursor) {
            match child.kind() {
                "function_modifiers" => {
                    let mut c = child.walk();
                    out.extend(
                        child
                            .children(&mut c)
                            .map(|m| source[m.byte_range()].to_string()),
                    );
                }
                "mutable_specifier" | "unsafe" | "default" => {
                    out.push(source[child.byte_range()].to_string())
                }
                _ => {}
            }
        }
        out
    }

    fn imports(root: Node, source: &str, lines: &LineIndex) -> Vec<Import> {
        imports::imports(root, source, lines)
    }

    fn render_import(
        root: Node,
        source: &str,
        module_path: &str,
        names: &[String],
    ) -> Result<Vec<TextEdit>, PluginError> {
        imports::render_import(root, source, module_path, names)
    }

    fn remove_import(
        root: Node,
        source: &str,
        module_path: &str,
        name: Option<&str>,
    ) -> Result<Vec<TextEdit>, PluginError> {
        imports::remove_import(root, source, module_path, name)
    }

    fn module_of(
        root: Node,
        source: &str,
        path: &str,
        manifests: &[Manifest],
    ) -> Vec<ModuleIdentity> {
        modules::module_of(root, source, path, manifests)
    }

    fn resolve_import(
        importer: &ModuleIdentity,
        import_path: &str,
        _manifests: &[Manifest],
    ) -> Vec<String> {
        modules::resolve_import(importer, import_path)
    }
}

/// The visibility a declaration's own modifier gives it, or `None` without one.
fn declared_visibility(node: Node, source: &str) -> Option<Visibility> {
    let mut cursor = node.walk();
    let modifier = node
        .children(&mut cursor)
        .find(|c| c.kind() == "visibility_modifier")?;
    let text: String = source[modifier.byte_range()]
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    Some(match text.as_str() {
        "pub" => Visibility::Public,
        "pub(self)" => Visibility::Private,
        _ => Visibility::Internal,
    })
}

/// Rust's visibility rules: an explicit modifier wins; trait items, enum
/// variants and the fields of variants are as visible as their trait or enum;
/// the items of a trait impl are reachable wherever the trait is (they cannot
/// be narrowed); an `impl` block itself has no visibility; everything else is
/// private to its module.
fn visibility(node: Node, source: &str) -> Visibility {
    if let Some(declared) = declared_visibility(node, source) {
        return declared;
    }
    if node.kind() == "impl_item" {
        return Visibility::Unspecified;
    }
    // Items sit in a list (`declaration_list`, `enum_variant_list`,
    // `field_declaration_list`) whose parent is the owner.
    let owner = node.parent().and_then(|list| list.parent());
    match owner {
        Some(impl_item) if impl_item.kind() == "impl_item" => {
            if impl_item.child_by_field_name("trait").is_some() {
                Visibility::Public
            } else {
                Visibility::Private
            }
        }
        Some(owner) if matches!(owner.kind(), "trait_item" | "enum_item" | "enum_variant") => {
            visibility(owner, source)
        }
        _ => Visibility::Private,
    }
}

lingo_plugin_sdk::export_plugin!(Rust);
