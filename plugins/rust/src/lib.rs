//! The lingo plugin for Rust: tree-sitter-rust plus the `.scm` queries in
//! `queries/`, with Rust code only for `use` trees, visibility, modules and
//! the arguments of well-known macros and the items `macro_rules!` macros
//! make.

mod cargo;
mod entry;
mod expansions;
mod flow;
mod imports;
mod macros;
mod mbe;
mod modules;
mod placement;
mod shorthand;
mod types;

use lingo_plugin_sdk::types::{Manifest, ModuleIdentity, PluginError, TextEdit, Visibility};
use lingo_plugin_sdk::{
    Embedded, EntryPointHook, ImportsHook, Language, LineIndex, MetricsConfig, ModuleResolution,
    Queries, Reachability, RemoveImportHook, RenderDeclarationHook, RenderImportHook, SymbolConfig,
};
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
    const IMPORTS: Option<ImportsHook> =
        Some(|_path, root, source, lines| imports::imports(root, source, lines));
    const MODULE_RESOLUTION: Option<ModuleResolution> = Some(ModuleResolution {
        module_of: modules::module_of,
        resolve_import: |importer, import_path, manifests| {
            modules::resolve_import(importer, import_path, manifests)
        },
    });
    const RENDER_IMPORT: Option<RenderImportHook> = Some(imports::render_import);
    const REMOVE_IMPORT: Option<RemoveImportHook> = Some(imports::remove_import);
    const RENDER_DECLARATION: Option<RenderDeclarationHook> = Some(placement::render_declaration);
    const ENTRY_POINT: Option<EntryPointHook> = Some(entry::entry_point);
    const UNREACHABLE: Option<Reachability> = Some(Reachability {
        is_statement_block: flow::is_statement_block,
        leaves_block: flow::leaves_block,
        hoisted: flow::hoisted,
    });

    /// `self.x`, and the fields of a `Self { x, .. }` literal or pattern.
    fn is_self_receiver(receiver: Node, source: &str) -> bool {
        receiver.kind() == "self"
            || (receiver.kind() == "type_identifier" && &source[receiver.byte_range()] == "Self")
    }

    /// The arguments of `assert_eq!`, `vec!`, `format!` and the like.
    fn embedded_code(root: Node, source: &str) -> Vec<Embedded> {
        macros::embedded_code(root, source)
    }

    /// The items invocations of `macro_rules!` macros make: the file's
    /// own, and those the host hands over from other files.
    fn expansions(
        root: Node,
        source: &str,
        given: &[lingo_plugin_sdk::types::MacroSource],
    ) -> lingo_plugin_sdk::Expansions {
        expansions::expansions(root, source, given)
    }

    /// The file's `macro_rules!` definitions, `#[macro_export]` ones
    /// visible outside the crate.
    fn macro_definitions(root: Node, source: &str) -> Vec<lingo_plugin_sdk::DefinedMacro> {
        expansions::macro_definitions(root, source)
    }

    fn grammar(_path: &str) -> (&'static str, tree_sitter::Language) {
        ("rust", tree_sitter_rust::LANGUAGE.into())
    }

    fn queries(_language: &str) -> &'static Queries {
        lingo_plugin_sdk::cached_queries!(
            tree_sitter_rust::LANGUAGE.into(),
            SYMBOLS,
            REFERENCES,
            LOCALS
        )
    }

    fn symbol_config() -> &'static SymbolConfig {
        &SYMBOL_CONFIG
    }

    fn metrics_config() -> &'static MetricsConfig {
        &METRICS_CONFIG
    }

    /// `let p = value;`, `let mut p = value;`.
    /// `impl Schedule for Arc<Handle>` is named by `Handle`: its members
    /// are what a call on an `Arc<Handle>` reaches (`types::pointed_impl_name`).
    fn symbol_name_node<'t>(tag: &str, node: Node<'t>, name: Node<'t>, source: &str) -> Node<'t> {
        if tag != "impl" {
            return name;
        }
        types::pointed_impl_name(node, name, source).unwrap_or(name)
    }

    fn local_value(name: Node) -> Option<Node> {
        let mut binding = name.parent()?;
        // `let Span { inner, .. } = s`: the field `inner` read there (the
        // reference the pattern's field names, whose receiver is `Span`).
        if binding.kind() == "field_pattern" && name.kind() == "shorthand_field_identifier" {
            return Some(binding);
        }
        if binding.kind() == "mut_pattern" {
            binding = binding.parent()?;
        }
        // `let x = v;`, and a `static` or `const` item's `= v`.
        matches!(
            binding.kind(),
            "let_declaration" | "static_item" | "const_item"
        )
        .then(|| binding.child_by_field_name("value"))
        .flatten()
    }

    fn destructured_value<'t>(name: Node<'t>, source: &str) -> Option<(Node<'t>, Vec<u32>)> {
        types::destructured_value(name, source)
    }

    fn iterated_value<'t>(name: Node<'t>, source: &str) -> Option<Node<'t>> {
        types::iterated_value(name, source)
    }

    fn indexed_collection<'t>(node: Node<'t>, source: &str) -> Option<Node<'t>> {
        types::indexed_collection(node, source)
    }

    /// `x.clone()`: a value of `x`'s type.
    fn same_type_value<'t>(node: Node<'t>, source: &str) -> Option<Node<'t>> {
        types::cloned_value(node, source)
    }

    /// `(x).m()`, `(&x).m()`, `(*x).m()`: the value is `x`'s. Not `x?` or
    /// `x.await`, whose type is not `x`'s.
    fn transparent_expressions() -> &'static [&'static str] {
        &[
            "parenthesized_expression",
            "reference_expression",
            "unary_expression",
        ]
    }

    /// `Parser { .. }`: a value of `Parser`.
    fn literal_type<'t>(value: Node<'t>, _source: &str) -> Option<Node<'t>> {
        (value.kind() == "struct_expression")
            .then(|| value.child_by_field_name("name"))
            .flatten()
            .filter(|name| name.kind() == "type_identifier")
    }

    fn policy() -> lingo_plugin_sdk::types::LanguagePolicy {
        lingo_plugin_sdk::types::LanguagePolicy {
            skip_dirs: vec!["target".into()],
            bare_names_reach_members: false,
            type_annotation: lingo_plugin_sdk::types::TypeAnnotationPosition::AfterName,
            module_layout: lingo_plugin_sdk::types::ModuleLayout::DeclaredFilePerModule,
            cyclic_imports: true,
            enclosing_modules_visible: false,
            // A struct may have a field `len` and a method `len()`.
            members_share_one_namespace: false,
            // `_x` is unused on purpose; rustc does not report `_`-prefixed items.
            unused_locals: lingo_plugin_sdk::types::NameRule {
                names: vec![],
                prefixes: vec!["_".into()],
            },
            unused_declarations: lingo_plugin_sdk::types::NameRule {
                names: vec![],
                prefixes: vec!["_".into()],
            },
            bodiless_modifiers: vec![],
            // `crate::a::b` sees what `crate::a` keeps private.
            private_reaches_nested_modules: true,
            file_named_after_public_type: false,
            conversions: lingo_plugin_sdk::no_conversions(),
            value_or_type: lingo_plugin_sdk::types::ValueOrType::Unstated,
            static_modifiers: Vec::new(),
        }
    }

    /// Parameters', fields', annotated and constructed `let`s' types,
    /// return types and `impl` types, as written.
    fn declared_types(
        root: Node,
        source: &str,
        lines: &LineIndex,
        symbols: &[lingo_plugin_sdk::types::Symbol],
        locals: &[lingo_plugin_sdk::types::Local],
    ) -> Vec<lingo_plugin_sdk::types::DeclaredType> {
        types::declared_types(root, source, lines, symbols, locals)
    }

    /// An `impl` is named after its self type, which it refers to.
    fn name_is_reference(tag: &str) -> bool {
        tag == "impl"
    }

    /// `Self` inside an `impl` names the type the `impl` is for; a word
    /// after `::` in a macro's token tree (`std::sync::Barrier` in `f!(..)`)
    /// is the last segment of the path written before it; the first word
    /// of a path in a `use` list (`span` of `use crate::{span::Span}`)
    /// follows the lists' path.
    fn aliased_name(word: Node, source: &str) -> Option<(String, Vec<String>)> {
        types::self_alias(word, source)
            .or_else(|| modules::super_alias(word, source))
            .or_else(|| macros::token_tree_path(word, source))
            .or_else(|| imports::use_list_prefix(word, source))
    }

    /// `<T as Trait>::f` is `Trait`'s member, `<T>::f` is `T`'s.
    fn qualifier_path(qualifier: Node, source: &str) -> Option<Vec<String>> {
        types::bracketed_path(qualifier, source)
    }

    /// A `macro_rules!`'s rules are a template: what they name resolves
    /// where an invocation expands them.
    fn holds_no_references(tag: &str) -> bool {
        tag == "macro"
    }

    /// `///` and `/** */` are outer doc comments; `//!` documents the
    /// enclosing item, not the next one.
    fn doc_comment(comment: &str) -> Option<String> {
        lingo_plugin_sdk::doc::slash_doc_text(comment)
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
        out.extend(feature_condition(node, source));
        out
    }

    fn declare_module(root: Node, source: &str, path: &str) -> Result<Vec<TextEdit>, PluginError> {
        imports::declare_module(root, source, path)
    }

    fn module_declarers(path: &str) -> Vec<String> {
        imports::module_declarers(path)
    }

    fn write_out_shorthand(
        name: Node,
        source: &str,
        member: &str,
        value: &str,
    ) -> Result<Vec<TextEdit>, PluginError> {
        shorthand::write_out(name, source, member, value)
    }

    fn render_reexport(
        root: Node,
        source: &str,
        module_path: &str,
        names: &[String],
    ) -> Result<Vec<TextEdit>, PluginError> {
        imports::render_reexport(root, source, module_path, names)
    }

    fn declaration_extent(
        root: Node,
        source: &str,
        start: usize,
        end: usize,
    ) -> Result<(usize, usize), PluginError> {
        placement::declaration_extent(root, source, start, end)
    }

    fn place_declaration(
        source_root: Node,
        source: &str,
        start: usize,
        end: usize,
        _target_root: Node,
        target: &str,
        target_module: &str,
    ) -> Result<Vec<TextEdit>, PluginError> {
        placement::place_declaration(source_root, source, start, end, target, target_module)
    }

    fn import_specifier(
        importer: &ModuleIdentity,
        target: &ModuleIdentity,
        _manifests: &[Manifest],
    ) -> Result<String, PluginError> {
        placement::import_specifier(importer, target)
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
    if node.kind() == "macro_definition" && exported_macro(node, source) {
        return Visibility::Public;
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

/// Most bytes of a condition modifier stated for a declaration, `when:`
/// included: the host cuts a modifier longer than 128 bytes, and reports
/// the plugin for it.
const MAX_CONDITION: usize = 128;

/// The `when:` modifier of a declaration gated on a Cargo feature by the
/// `#[cfg(..)]` attributes right before it (`#[cfg(feature = "fast")]`:
/// `when:feature = "fast"`; several joined by `, `). Other conditions
/// (`test`, targets) are not stated: the answers would mark all test code.
fn feature_condition(node: Node, source: &str) -> Option<String> {
    let mut conditions: Vec<String> = attributes_before(node)
        .filter(|attribute| entry::attribute_path(*attribute, source) == Some("cfg"))
        .filter_map(|attribute| {
            let arguments = attribute.named_child(0)?.child_by_field_name("arguments")?;
            let text = source.get(arguments.byte_range())?;
            let inner = text.strip_prefix('(').unwrap_or(text);
            let inner = inner.strip_suffix(')').unwrap_or(inner);
            let condition = inner.split_whitespace().collect::<Vec<_>>().join(" ");
            condition
                .split(|c: char| !c.is_alphanumeric() && c != '_')
                .any(|word| word == "feature")
                .then_some(condition)
        })
        .collect();
    if conditions.is_empty() {
        return None;
    }
    conditions.reverse();
    let mut joined = format!(
        "{}{}",
        lingo_plugin_sdk::CONDITION_MODIFIER,
        conditions.join(", ")
    );
    if joined.len() > MAX_CONDITION {
        // Cut, and marked so: `…` is three bytes.
        let mut cut = MAX_CONDITION - '…'.len_utf8();
        while !joined.is_char_boundary(cut) {
            cut -= 1;
        }
        joined.truncate(cut);
        joined.push('…');
    }
    Some(joined)
}

/// The attributes right before `node` (comments between them skipped),
/// nearest first.
fn attributes_before(node: Node) -> impl Iterator<Item = Node> {
    std::iter::successors(node.prev_sibling(), |sibling| sibling.prev_sibling())
        .take_while(|sibling| {
            matches!(
                sibling.kind(),
                "attribute_item" | "line_comment" | "block_comment"
            )
        })
        .filter(|sibling| sibling.kind() == "attribute_item")
}

/// Whether a `macro_rules!` carries `#[macro_export]` among the attributes
/// (and comments) right before it: it is then public API, at the crate's
/// root.
fn exported_macro(node: Node, source: &str) -> bool {
    attributes_before(node)
        .any(|attribute| entry::attribute_path(attribute, source) == Some("macro_export"))
}

lingo_plugin_sdk::export_plugin!(Rust);

#[cfg(test)]
mod tests {
    use lingo_plugin_sdk::Document;
    use lingo_plugin_sdk::bindings::exports::lingo::plugin::syntax::GuestDocument;
    use lingo_plugin_sdk::types::{Reference, ReferenceKind};

    /// Every query compiles and captures only what the SDK reads.
    #[test]
    fn queries_check() {
        lingo_plugin_sdk::testing::check_queries::<super::Rust>();
    }

    /// The capabilities follow from the hooks the plugin provides: the same
    /// as the list it stated by hand before (in any order).
    #[test]
    fn capabilities_are_the_ones_stated_before() {
        use lingo_plugin_sdk::types::Capability;
        lingo_plugin_sdk::testing::assert_capabilities::<super::Rust>(&[
            Capability::Symbols,
            Capability::References,
            Capability::Locals,
            Capability::Diagnostics,
            Capability::Metrics,
            Capability::IncrementalUpdate,
            Capability::NodeAt,
            Capability::Tokens,
            Capability::Unreachable,
            Capability::Imports,
            Capability::ModuleResolution,
            Capability::RenderImport,
            Capability::RemoveImport,
            Capability::RenderDeclaration,
            Capability::EntryPoints,
        ]);
    }

    /// A declaration gated on a Cargo feature states the condition as a
    /// `when:` modifier; other `cfg`s, and attributes past another item,
    /// do not.
    #[test]
    fn feature_gated_declarations_state_their_condition() {
        let source = concat!(
            "#[cfg(feature = \"fast\")]\n// note\n#[inline]\nfn fast() {}\n",
            "#[cfg(test)]\nfn tested() {}\n",
            "#[cfg(all(unix, not(feature = \"slow\")))]\n#[cfg(any(feature = \"a\", feature = \"b\"))]\nmod both {}\n",
            "fn plain() {}\n",
            "#[cfg(featured)]\nfn lookalike() {}\n",
        );
        let document = document(source);
        let conditions: Vec<(String, Vec<String>)> = document
            .symbols()
            .into_iter()
            .map(|s| (s.name, s.modifiers))
            .collect();
        assert_eq!(
            conditions,
            [
                ("fast".into(), vec!["when:feature = \"fast\"".to_string()]),
                ("tested".into(), vec![]),
                (
                    "both".into(),
                    vec![
                        "when:all(unix, not(feature = \"slow\")), any(feature = \"a\", feature = \"b\")"
                            .to_string()
                    ]
                ),
                ("plain".into(), vec![]),
                ("lookalike".into(), vec![]),
            ]
        );
        // A condition 100,000 characters long is cut at the bound.
        let long = format!(
            "#[cfg(feature = \"{}\")]\nfn long() {{}}\n",
            "x".repeat(100_000)
        );
        let modifiers = &document_symbols_modifiers(&long)[0];
        assert_eq!(modifiers[0].len(), super::MAX_CONDITION);
        assert!(modifiers[0].ends_with("xx…"), "{}", modifiers[0]);
    }

    /// `super::` inside inline modules names the module around them,
    /// relative to the file's (`self`, `self::a`); at the file's top, and
    /// as `super::super`, it is left to the module paths.
    #[test]
    fn super_inside_inline_modules_is_the_enclosing_module() {
        let source = concat!(
            "fn top() { super::x(); }\n",
            "mod a {\n    fn f() { super::y(); }\n",
            "    mod b {\n        fn g() { super::z(); super::super::w(); }\n    }\n}\n",
        );
        let document = document(source);
        let qualifiers: Vec<(String, Vec<String>)> = document
            .references()
            .into_iter()
            .filter(|r| ["x", "y", "z", "w"].contains(&r.name.as_str()))
            .map(|r| (r.name, r.qualifier))
            .collect();
        assert_eq!(
            qualifiers,
            [
                ("x".into(), vec!["super".to_string()]),
                ("y".into(), vec!["self".to_string()]),
                ("z".into(), vec!["self".to_string(), "a".to_string()]),
                ("w".into(), vec!["super".to_string(), "super".to_string()]),
            ]
        );
    }

    fn document_symbols_modifiers(source: &str) -> Vec<Vec<String>> {
        document(source)
            .symbols()
            .into_iter()
            .map(|s| s.modifiers)
            .collect()
    }

    /// A doc comment reaches its declaration past plain comments and
    /// attributes, not past a blank line.
    #[test]
    fn doc_comments_skip_plain_comments_between() {
        let source = "/// Escapes.\n// TODO: faster\n#[inline]\nfn escape() {}\n\n/// Lost.\n\nfn apart() {}\n";
        let document = document(source);
        let docs: Vec<(String, Option<String>)> = document
            .symbols()
            .into_iter()
            .map(|s| (s.name, s.doc))
            .collect();
        assert_eq!(
            docs,
            [
                ("escape".to_string(), Some("Escapes.".to_string())),
                ("apart".to_string(), None)
            ]
        );
    }

    /// A new file becomes a module: the files that may declare it, and the
    /// `mod` written after the last one (once).
    #[test]
    fn a_new_file_is_declared_after_the_last_mod() {
        use lingo_plugin_sdk::Language;
        assert_eq!(
            Rust::module_declarers("src/a/b.rs"),
            ["src/a/lib.rs", "src/a/main.rs", "src/a/mod.rs", "src/a.rs"]
        );
        assert_eq!(
            Rust::module_declarers("src/a/b/mod.rs"),
            Rust::module_declarers("src/a/b.rs")
        );
        assert!(Rust::module_declarers("lib.rs").is_empty());
        let source = "//! Root.\nmod a;\nmod inline {}\nuse std::fmt;\n";
        let tree = lingo_plugin_sdk::testing::parse::<Rust>("src/lib.rs", source);
        let edits = Rust::declare_module(tree.root_node(), source, "src/escape.rs").unwrap();
        let mut text = source.to_string();
        for edit in edits.iter().rev() {
            text.replace_range(edit.start as usize..edit.end as usize, &edit.new_text);
        }
        assert_eq!(
            text,
            "//! Root.\nmod a;\nmod escape;\nmod inline {}\nuse std::fmt;\n"
        );
        let again = Rust::declare_module(tree.root_node(), source, "src/a/mod.rs").unwrap();
        assert!(again.is_empty(), "`mod a;` is there: {again:?}");
        assert!(Rust::declare_module(tree.root_node(), source, "src/1x.rs").is_err());
    }

    /// What a moved declaration's old module writes to keep it reachable:
    /// a `pub use` after the last `use`; and an import of a module by
    /// itself that Rust refuses (`use super;`) is never rendered.
    #[test]
    fn reexports_are_pub_use_and_use_super_alone_is_refused() {
        use lingo_plugin_sdk::Language;
        let source = "mod escape;\nuse std::fmt;\n\nfn f() {}\n";
        let tree = lingo_plugin_sdk::testing::parse::<Rust>("src/lib.rs", source);
        let edits = Rust::render_reexport(
            tree.root_node(),
            source,
            "crate::escape",
            &["escape_into".into()],
        )
        .unwrap();
        let mut text = source.to_string();
        for edit in edits.iter().rev() {
            text.replace_range(edit.start as usize..edit.end as usize, &edit.new_text);
        }
        assert_eq!(
            text,
            "mod escape;\nuse std::fmt;\npub use crate::escape::escape_into;\n\nfn f() {}\n"
        );
        assert!(Rust::render_reexport(tree.root_node(), source, "crate::escape", &[]).is_err());
        for module in ["super", "crate", "self", "a::super"] {
            let refused = crate::imports::render_import(tree.root_node(), source, module, &[]);
            assert!(refused.is_err(), "use {module};");
        }
        assert!(
            crate::imports::render_import(tree.root_node(), source, "super", &["f".into()]).is_ok()
        );
    }

    use super::Rust;

    fn document(source: &str) -> Document<Rust> {
        Document::<Rust>::new("src/lib.rs".into(), source.into())
    }

    /// One line per reference: name, kind, byte range, line:character,
    /// qualifier, member flag, local binding's name.
    fn reference_lines(source: &str) -> Vec<String> {
        let document = document(source);
        let locals = document.locals();
        document
            .references()
            .iter()
            .map(|r: &Reference| {
                let (start, end) = (r.span.start.offset as usize, r.span.end.offset as usize);
                let written = &source[start..end];
                // `Self` stands for the impl's type, by its name.
                assert!(written == r.name || written == "Self", "span of {r:?}");
                let name = if written == r.name {
                    r.name.clone()
                } else {
                    format!("{} as {written}", r.name)
                };
                let mut line = format!(
                    "{} {} {start}..{end} {}:{}",
                    name,
                    kind(r.kind),
                    r.span.start.line,
                    r.span.start.character
                );
                if !r.qualifier.is_empty() {
                    line += &format!(" q={}", r.qualifier.join("::"));
                }
                if r.is_member {
                    line += " member";
                }
                if let Some(l) = r.local {
                    let local = &locals[l as usize];
                    line += &format!(" local={}@{}", local.name, local.span.start.offset);
                }
                line
            })
            .collect()
    }

    fn kind(kind: ReferenceKind) -> &'static str {
        match kind {
            ReferenceKind::Call => "call",
            ReferenceKind::Reference => "reference",
            ReferenceKind::Type => "type",
            ReferenceKind::Import => "import",
            ReferenceKind::Extends => "extends",
            ReferenceKind::Implements => "implements",
            ReferenceKind::Write => "write",
        }
    }

    #[test]
    fn exported_macros_are_public_and_others_private() {
        let source = "/// Pins.\n#[macro_export]\n// a note\nmacro_rules! pin_mut { () => {} }\n\n#[doc(hidden)]\nmacro_rules! helper { () => {} }\n\nmacro_rules! local { () => {} }\n";
        let document = document(source);
        let visibility: Vec<(String, String)> = document
            .symbols()
            .iter()
            .map(|s| (s.name.clone(), format!("{:?}", s.visibility)))
            .collect();
        assert_eq!(
            visibility,
            [
                ("pin_mut".to_string(), "Visibility::Public".to_string()),
                ("helper".to_string(), "Visibility::Private".to_string()),
                ("local".to_string(), "Visibility::Private".to_string()),
            ]
        );
    }

    #[test]
    fn calls_paths_and_struct_literals_inside_assert_eq_are_references() {
        let source = "fn t() {\n    assert_eq!(parser(\"(?P<☃>)\").parse().unwrap_err(), TestError { span: Span::new(1), kind: ast::ErrorKind::Empty });\n}\n";
        let lines = reference_lines(source);
        assert_eq!(
            lines,
            [
                "assert_eq call 13..22 1:4",
                "unwrap_err call 52..62 1:41 member",
                "parse call 44..49 1:33 member",
                "parser call 24..30 1:15",
                "TestError type 66..75 1:55",
                "span write 78..82 1:67 member",
                "new call 90..93 1:79 q=Span",
                "Span reference 84..88 1:73",
                "kind write 98..102 1:87 member",
                "Empty reference 120..125 1:109 q=ast::ErrorKind",
                "ErrorKind reference 109..118 1:98 q=ast",
                "ast reference 104..107 1:93",
            ]
        );
    }

    #[test]
    fn locals_used_in_macro_arguments_resolve_and_closures_bind_their_own() {
        let source = "fn t(f: &mut F) {\n    let x = 1;\n    assert!(items.iter().all(|x| x.ok()), \"{}\", x);\n    write!(f, \"{x} {y:?}\", y = x)?;\n}\n";
        assert_eq!(
            reference_lines(source),
            [
                "F type 13..14 0:13",
                "assert call 37..43 2:4",
                "all call 58..61 2:25 member",
                "iter call 51..55 2:18 member",
                "items reference 45..50 2:12",
                "ok call 68..70 2:35 member",
                "x reference 66..67 2:33 local=x@63",
                "x reference 81..82 2:48 local=x@26",
                "write call 89..94 3:4",
                "f reference 96..97 3:11 local=f@5",
                "x reference 101..102 3:16 local=x@26",
                "x reference 116..117 3:31 local=x@26",
            ]
        );
        // The closure's parameter is a local of the file, scoped to the closure.
        let locals = document(source).locals();
        let names: Vec<(&str, u32, u32)> = locals
            .iter()
            .map(|l| (l.name.as_str(), l.span.start.offset, l.scope.end.offset))
            .collect();
        assert_eq!(names, [("f", 5, 122), ("x", 26, 122), ("x", 63, 72)]);
    }

    #[test]
    fn nested_macros_vec_repeat_and_matches_patterns() {
        let source = "fn t() {\n    let v = vec![vec![Point::new(); n]];\n    debug_assert!(matches!(v.first(), Some(p) if p.len() > LIMIT), \"{v:?}\");\n}\n";
        assert_eq!(
            reference_lines(source),
            [
                "vec call 21..24 1:12",
                "vec call 26..29 1:17",
                "new call 38..41 1:29 q=Point",
                "Point reference 31..36 1:22",
                "n reference 45..46 1:36",
                "debug_assert call 54..66 2:4",
                "matches call 68..75 2:18",
                "first call 79..84 2:29 member",
                "v reference 77..78 2:27 local=v@17",
                "Some reference 88..92 2:38",
                "len call 101..104 2:51 member",
                "p reference 99..100 2:49 local=p@93",
                "LIMIT reference 109..114 2:59",
                "v reference 119..120 2:69 local=v@17",
            ]
        );
    }

    #[test]
    fn other_macros_and_unparsable_arguments_keep_their_tokens() {
        // Another macro's arguments that read as expressions are read so
        // (`a.b()` a method call); `println!` whose arguments are not
        // expressions: left as tokens.
        let source = "fn t() {\n    my_macro!(a.b());\n    println!(a => b);\n}\n";
        assert_eq!(
            reference_lines(source),
            [
                "my_macro call 13..21 1:4",
                "b call 25..26 1:16 member",
                "a reference 23..24 1:14",
                "println call 35..42 2:4",
                "a reference 44..45 2:13",
                "b reference 49..50 2:18",
            ]
        );
    }

    #[test]
    fn macros_nested_deeper_than_the_limit_are_left_as_tokens() {
        let source = "fn t() { vec![vec![vec![vec![f()]]]]; }";
        let lines = reference_lines(source);
        assert_eq!(
            lines,
            [
                "vec call 9..12 0:9",
                "vec call 14..17 0:14",
                "vec call 19..22 0:19",
                "vec call 24..27 0:24",
                "f reference 29..30 0:29",
            ]
        );
    }

    #[test]
    fn self_fields_in_macros_are_qualified_by_the_impl() {
        let source = "impl P {\n    fn m(&self) { assert_eq!(self.x, self.y()); }\n}\n";
        assert_eq!(
            reference_lines(source),
            [
                "P type 5..6 0:5",
                "assert_eq call 27..36 1:18",
                "x reference 43..44 1:34 q=P member",
                "y call 51..52 1:42 q=P member",
            ]
        );
    }

    #[test]
    fn fields_of_a_self_literal_and_shorthands_are_the_impl_types() {
        let source = "impl P {\n    fn new(top: u8) -> Self { Self { depth: 0, top } }\n}\n";
        let lines = reference_lines(source);
        for expected in [
            "depth write 46..51 1:37 q=P member",
            // A shorthand is the field and the parameter it reads.
            "top write 56..59 1:47 q=P member",
            "top reference 56..59 1:47 local=top@20",
        ] {
            assert!(
                lines.contains(&expected.to_string()),
                "{expected}: {lines:?}"
            );
        }
    }

    /// `Self` in an `impl` names the impl's type, by its name and path, at
    /// the word as written: in types, literals, calls and paths. In a trait
    /// it is the implementor and stays `Self`.
    #[test]
    fn self_in_an_impl_names_the_impls_type() {
        let source = "impl shapes::P {\n    fn new() -> Self { Self::empty(); Self(1) }\n}\ntrait T { fn f() -> Self; }\n";
        let lines = reference_lines(source);
        for expected in [
            "P as Self type 33..37 1:16 q=shapes",
            "P as Self reference 40..44 1:23 q=shapes",
            "empty call 46..51 1:29 q=shapes::P",
            "P as Self call 55..59 1:38 q=shapes",
            "Self type 87..91 3:20",
        ] {
            assert!(
                lines.contains(&expected.to_string()),
                "{expected}: {lines:#?}"
            );
        }
    }

    /// `member <- receiver` for every member access with a receiver; a
    /// called receiver is written `name()`, an element of one `name[_]`.
    fn receiver_lines(source: &str) -> Vec<String> {
        let references = document(source).references();
        references
            .iter()
            .filter_map(|r| {
                let receiver = r.receiver.as_ref()?;
                let value = lingo_plugin_sdk::testing::describe_receiver(&references, receiver);
                Some(format!("{} <- {value}", r.name))
            })
            .collect()
    }

    #[test]
    fn member_accesses_name_their_receivers() {
        let source = "fn t(p: P) {\n\
            p.a();\n\
            self.q.b;\n\
            Parser::new().parse(1).c();\n\
            (&*p).d();\n\
            f()?.e();\n\
            v[0].g();\n\
            assert!(p.h());\n\
            let s = ast::Span { start: 0, end };\n\
            let Span { start: a, .. } = s;\n\
            let t = Self { depth: 1 };\n\
            let Span { end, .. } = s;\n\
            }\n";
        assert_eq!(
            receiver_lines(source),
            [
                "a <- p",
                "b <- q",
                "c <- parse()",
                "parse <- new()",
                "d <- p",
                // What the `Option` or `Result` `f()` returns holds.
                "e <- f()[_]",
                // One element of `v`.
                "g <- v[_]",
                "h <- p",
                "start <- Span",
                "end <- Span",
                "start <- Span",
                "depth <- Self",
                "end <- Span",
            ]
        );
    }

    #[test]
    fn locals_name_the_value_they_are_initialised_with() {
        use lingo_plugin_sdk::bindings::exports::lingo::plugin::syntax::GuestDocument;
        let source = "fn t(p: P) {\n\
            let a = make();\n\
            let mut b = Parser::new(1);\n\
            let c = (p);\n\
            let d = self.x;\n\
            let e = 1 + f();\n\
            let (g, h) = (p, p);\n\
            let (tx, mut rx) = mpsc::channel(8);\n\
            let (i, (j, mut k)) = pair();\n\
            let (_, w) = pair();\n\
            let (first, .., last) = many();\n\
            let (m, n): (A, B) = pair();\n\
            let o = p.clone();\n\
            }\n";
        let document = document(source);
        let references = document.references();
        let lines: Vec<String> = document
            .locals()
            .iter()
            .filter_map(|l| {
                let value = l.value.as_ref()?;
                let call = if value.called { "()" } else { "" };
                let named = &references[value.reference as usize].name;
                let element = match l.element.as_slice() {
                    [] => String::new(),
                    path => format!(" {path:?}"),
                };
                Some(format!("{} = {named}{call}{element}", l.name))
            })
            .collect();
        assert_eq!(
            lines,
            [
                "a = make()",
                "b = new()",
                "c = p",
                "d = x",
                "tx = channel() [0]",
                "rx = channel() [1]",
                "i = pair() [0]",
                "j = pair() [1, 0]",
                "k = pair() [1, 1]",
                "w = pair() [1]",
                // After `..` an element is counted from the end.
                "first = many() [0]",
                // A clone is a value of the original's type.
                "o = p",
            ]
        );
    }

    /// One line per declared type: target name, type (qualified), source.
    fn declared_lines(source: &str) -> Vec<String> {
        lingo_plugin_sdk::declared::describe_declared_types(&document(source), source, "::", false)
    }

    #[test]
    fn declared_types_are_what_the_source_writes() {
        let source = "struct S { p: ast::Parser<'static>, n: u32, b: Box<dyn Tr> }\n\
            impl<'a> Wrap<'a> {\n\
            fn new(s: &Scanner, mut q: &mut crate::a::Q, t: (u8, u8)) -> Self {\n\
            let x: Vec<u8> = Vec::new();\n\
            let d = Decoder { a: 1 };\n\
            let r = &mut Reader {};\n\
            let c = Cursor::new(1);\n\
            let m = Self::default();\n\
            let e = helpers::make();\n\
            let f = Cursor::from(1);\n\
            }\n\
            fn item(&self) -> Option<Item> { None }\n\
            }\n\
            trait Tr { fn make() -> Self; }\n\
            const ORIGIN: Point = Point { x: 0 };\n\
            static NAMES: &[&str] = &[];\n\
            struct Q { a: Box<ast::Parser>, b: std::sync::Arc<Mutex<P>>, c: Rc<'static, L>, d: Pin<Box<Lexer>> }\n\
            fn channel<T>() -> (Sender<T>, (u8, mpsc::Receiver<T>)) {}\n";
        assert_eq!(
            declared_lines(source),
            [
                "p: ast::Parser annotation",
                "b: Tr annotation",
                "Wrap: Wrap self-type",
                "new: Wrap return-type",
                "s: Scanner annotation",
                "q: crate::a::Q annotation",
                "x: Vec annotation",
                "d: Decoder literal",
                "r: Reader literal",
                "c: Cursor constructor",
                "m: Wrap constructor",
                "item: Option return-type",
                "item: Item element",
                "ORIGIN: Point annotation",
                "a: ast::Parser annotation",
                "b: Mutex annotation",
                "c: L annotation",
                "d: Lexer annotation",
                "channel: Sender return-type [0]",
                "channel: mpsc::Receiver return-type [1, 1]",
            ]
        );
    }

    /// A macro's token tree is loose tokens: a path in it is read back
    /// from its last word, so that `std::sync::Barrier` is no bare
    /// `Barrier`.
    #[test]
    fn a_path_in_a_token_tree_keeps_its_qualifier() {
        let source = "fn t() { f!(std::sync::Barrier, crate::a::B, x, ::c::D); }\n";
        let references = document(source).references();
        let paths: Vec<String> = references
            .iter()
            .map(|r| {
                let mut path = r.qualifier.clone();
                path.push(r.name.clone());
                path.join("::")
            })
            .collect();
        assert_eq!(
            paths,
            [
                "f",
                "std::sync::Barrier",
                "std::sync",
                "std",
                "crate::a::B",
                "crate::a",
                "x",
                "c::D",
                "c"
            ]
        );
    }

    /// The first word of a path in a `use` list follows the lists' path,
    /// which the grammar writes outside it.
    #[test]
    fn a_path_in_a_use_list_starts_with_the_lists_path() {
        let source = "use crate::{span::Span, a::{b::C, self}};\nuse d::e::F;\n";
        let references = document(source).references();
        let paths: Vec<String> = references
            .iter()
            .map(|r| {
                let mut path = r.qualifier.clone();
                path.push(r.name.clone());
                let kind = format!("{:?}", r.kind);
                format!(
                    "{} {}",
                    path.join("::"),
                    kind.rsplit("::").next().unwrap_or(&kind)
                )
            })
            .collect();
        assert_eq!(
            paths,
            [
                "crate::span::Span Import",
                "crate::span Reference",
                "crate::a Reference",
                "crate::a::b::C Import",
                "crate::a::b Reference",
                "d::e::F Import",
                "d::e Reference",
                "d Reference"
            ]
        );
    }

    /// `impl Deref for Guard { type Target = Inner; }` states `Inner` as what
    /// a `Guard` extends, held by the `Target` item.
    #[test]
    fn a_deref_target_is_what_the_type_extends() {
        let source = "impl Deref for Guard { type Target = inner::Inner; }\n\
            impl std::ops::Deref for Other { type Target = Vec<T>; }\n\
            impl From<A> for B { type Target = C; }\n";
        let document = document(source);
        let symbols = document.symbols();
        let extends: Vec<String> = document
            .references()
            .iter()
            .filter(|r| matches!(r.kind, lingo_plugin_sdk::types::ReferenceKind::Extends))
            .map(|r| {
                let holder = &symbols[r.enclosing.unwrap() as usize];
                let mut path = r.qualifier.clone();
                path.push(r.name.clone());
                format!("{} extends {}", holder.name, path.join("::"))
            })
            .collect();
        assert_eq!(
            extends,
            ["Target extends inner::Inner", "Target extends Vec"]
        );
    }

    #[test]
    fn standard_collections_state_their_element_type() {
        let source = "struct S { a: Vec<Task>, b: Box<[Remote]>, c: [Slot; 4], d: HashMap<K, V> }\n\
            fn f(xs: &[ast::Node], q: Arc<VecDeque<Job>>, n: &mut Vec<u8>) -> Vec<Item> {}\n\
            fn g() -> (Vec<A>, B) {}\n";
        assert_eq!(
            declared_lines(source),
            [
                "a: Vec annotation",
                "a: Task element",
                "b: Remote element",
                "c: Slot element",
                "d: HashMap annotation",
                "f: Vec return-type",
                "f: Item element",
                "xs: ast::Node element",
                "q: VecDeque annotation",
                "q: Job element",
                "n: Vec annotation",
                "g: Vec return-type [0]",
                "g: B return-type [1]",
            ]
        );
    }

    #[test]
    fn indexing_and_iterating_reach_one_element() {
        let source = "fn t(xs: Vec<A>) {\n\
            let a = xs[0];\n\
            let b = &xs[1..];\n\
            for c in &xs {}\n\
            for mut d in xs.iter() {}\n\
            for (i, e) in xs.iter().enumerate() {}\n\
            for f in make() {}\n\
            for h in &self.all[..] {}\n\
            let g = self.rows[i][j];\n\
            xs[2].run();\n\
            xs.iter().for_each(|k| k.run());\n\
            xs.iter().map(|m| m).count();\n\
            xs.iter().enumerate().map(|n| n);\n\
            opt.map(|p| p.go());\n\
            xs.iter().fold(0, |q, r| q);\n\
            if let Some(s) = self.inner.as_ref() {}\n\
            while let Some(mut t) = xs.pop() {}\n\
            let Ok(u) = load() else { return };\n\
            match self.next { Some(ref v) => {}, None => {} }\n\
            if let Some(Some(w)) = nested {}\n\
            if let Err(y) = load() {}\n\
            for z in xs.iter().rev() {}\n\
            }\n";
        let document = document(source);
        let references = document.references();
        let value = |v| lingo_plugin_sdk::testing::describe_receiver(&references, v);
        let locals = lingo_plugin_sdk::testing::describe_local_values(&document);
        assert_eq!(
            locals,
            [
                "a = xs[_]",
                "c = xs[_]",
                "d = xs[_]",
                "f = make()[_]",
                "h = all[_]",
                "k = xs[_]",
                "m = xs[_]",
                // What `enumerate` yields, as its declaration states it
                // (the standard library's states none).
                "n = enumerate()[_]",
                "p = opt[_]",
                "s = inner[_]",
                "t = xs[_]",
                "u = load()[_]",
                "v = next[_]",
                // Field 0 of the variant `Err` (which the standard library
                // declares, so the host types it by nothing).
                "y = Err",
                "z = xs[_]"
            ]
        );
        let run = references.iter().find(|r| r.name == "run").unwrap();
        assert_eq!(value(run.receiver.as_ref().unwrap()), "xs[_]");
    }

    #[test]
    fn a_generic_parameter_stands_for_its_one_trait_bound() {
        let source = "fn a<P: Parse>(p: P) {}\n\
            fn b<P>(p: &P) where P: ast::Parse {}\n\
            fn c<P: Parse + Clone>(p: P) {}\n\
            fn d<P>(p: P) {}\n\
            fn e<'a, P: 'a + Parse>(p: &'a P) -> P {}\n\
            impl<T: Visitor> Walker<T> { fn f(&self, v: T) {} }\n\
            fn g(p: impl Parse) {}\n";
        assert_eq!(
            declared_lines(source),
            [
                "p: Parse annotation",
                "p: ast::Parse annotation",
                "e: Parse return-type",
                "p: Parse annotation",
                "Walker: Walker self-type",
                "v: Visitor annotation",
                "p: Parse annotation",
            ]
        );
    }

    #[test]
    fn an_edit_inside_a_macro_is_seen_after_update() {
        use lingo_plugin_sdk::types::TextEdit;
        let document = document("fn t() { assert!(a()); }");
        let calls = |d: &Document<Rust>| -> Vec<String> {
            d.references().iter().map(|r| r.name.clone()).collect()
        };
        assert_eq!(calls(&document), ["assert", "a"]);
        document
            .update(vec![TextEdit {
                start: 17,
                end: 18,
                new_text: "b(c)".into(),
            }])
            .unwrap();
        assert_eq!(calls(&document), ["assert", "b", "c"]);
    }

    /// A `macro_rules!`'s rules name nothing where they are written: the
    /// names in them (`$crate::span::Span::new()`, the macro's own name
    /// among them) resolve where an invocation expands them.
    #[test]
    fn a_macro_definitions_rules_hold_no_references() {
        let source = "#[macro_export]\nmacro_rules! span {\n    ($lvl:expr) => { $crate::span::Span::new($lvl) };\n}\nfn f() { span!(level()); }\n";
        let document = document(source);
        let names: Vec<String> = document
            .references()
            .iter()
            .map(|r| format!("{} {:?}", r.name, r.kind))
            .collect();
        assert_eq!(
            names,
            [
                "macro_export ReferenceKind::Reference",
                "span ReferenceKind::Call",
                "level ReferenceKind::Call"
            ]
        );
    }
}
