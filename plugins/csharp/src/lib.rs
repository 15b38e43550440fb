//! The lingo plugin for C#: tree-sitter-c-sharp plus the `.scm` queries in
//! `queries/`, with Rust code only for visibility, `using` directives,
//! namespaces and assemblies, declaration rendering and declared types.

mod declarations;
#[cfg(test)]
mod edit_tests;
mod entry;
mod flow;
mod imports;
mod modules;
mod overloads;
mod placement;
mod preprocess;
mod render;
mod types;

use lingo_plugin_sdk::types::{
    Manifest, ModuleIdentity, PluginError, SymbolKind, TextEdit, Visibility,
};
use lingo_plugin_sdk::{
    EntryPointHook, ImportsHook, Language, LineIndex, MetricsConfig, ModuleResolution, Queries,
    Reachability, RemoveImportHook, RenderDeclarationHook, RenderImportHook, SymbolConfig,
};
use tree_sitter::Node;

/// C#, as a lingo language.
pub struct CSharp;

const SYMBOLS: &str = include_str!("../queries/symbols.scm");
const REFERENCES: &str = include_str!("../queries/references.scm");
const LOCALS: &str = include_str!("../queries/locals.scm");

static SYMBOL_CONFIG: SymbolConfig = SymbolConfig {
    signature_end_fields: &["body", "accessors", "value"],
    comment_kinds: &["comment"],
    // Attribute lists are inside C# declarations, not beside them.
    attribute_kinds: &[],
    path_separator: ".",
};

static METRICS_CONFIG: MetricsConfig = MetricsConfig {
    function_tags: &[
        "method",
        "constructor",
        "destructor",
        "operator",
        "conversion_operator",
        "local_function",
    ],
    branch_kinds: &[
        "if_statement",
        "while_statement",
        "do_statement",
        "for_statement",
        "foreach_statement",
        // Each `case` label of a switch statement, each arm of a switch expression.
        "case",
        "switch_expression_arm",
        "catch_clause",
        "conditional_expression",
    ],
    nesting_kinds: &[
        "if_statement",
        "while_statement",
        "do_statement",
        "for_statement",
        "foreach_statement",
        "switch_statement",
        "switch_expression",
        "catch_clause",
        "conditional_expression",
    ],
    else_kinds: &["else"],
    nesting_only_kinds: &["lambda_expression", "anonymous_method_expression"],
    binary_kinds: &["binary_expression"],
    boolean_operators: &["&&", "||", "??"],
    parameters_field: "parameters",
    atomic_operand_kinds: &[
        "string_literal",
        "verbatim_string_literal",
        "raw_string_literal",
        "character_literal",
        "interpolated_string_expression",
    ],
};

impl Language for CSharp {
    const NAME: &'static str = "csharp";
    const VERSION: &'static str = env!("CARGO_PKG_VERSION");
    const LANGUAGES: &'static [&'static str] = &["csharp"];
    const EXTENSIONS: &'static [&'static str] = &["cs"];
    const MANIFESTS: &'static [&'static str] = &["*.csproj"];
    const IMPORTS: Option<ImportsHook> =
        Some(|_path, root, source, lines| imports::imports(root, source, lines));
    const MODULE_RESOLUTION: Option<ModuleResolution> = Some(ModuleResolution {
        module_of: modules::module_of,
        resolve_import: |importer, import_path, _manifests| {
            modules::resolve_import(importer, import_path)
        },
    });
    const RENDER_IMPORT: Option<RenderImportHook> = Some(imports::render_import);
    const REMOVE_IMPORT: Option<RemoveImportHook> = Some(imports::remove_import);
    const RENDER_DECLARATION: Option<RenderDeclarationHook> = Some(render::render_declaration);
    const ENTRY_POINT: Option<EntryPointHook> = Some(|node, name, enclosing, _attached, source| {
        entry::entry_point(node, name, enclosing, source)
    });
    const UNREACHABLE: Option<Reachability> = Some(Reachability {
        is_statement_block: flow::is_statement_block,
        leaves_block: flow::leaves_block,
        hoisted: flow::hoisted,
    });
    const OVERLOAD_TYPES: Option<lingo_plugin_sdk::OverloadTypes> =
        Some(lingo_plugin_sdk::OverloadTypes {
            parameter_types: overloads::parameter_types,
            argument_nodes: overloads::argument_nodes,
            literal: overloads::literal,
            declared_built_in: overloads::declared_built_in,
            cast_type: overloads::cast_type,
        });

    fn is_self_receiver(receiver: Node, _source: &str) -> bool {
        receiver.kind() == "this"
    }

    fn is_super_receiver(receiver: Node, _source: &str) -> bool {
        receiver.kind() == "base"
    }

    /// The first type of a class's or record's base list (`: Base, IFoo`):
    /// where the class has a base class, it is written first.
    fn supertype_of(owner: Node, source: &str) -> Option<Vec<String>> {
        declarations::base_class_path(owner, source)
    }

    fn grammar(_path: &str) -> (&'static str, tree_sitter::Language) {
        ("csharp", tree_sitter_c_sharp::LANGUAGE.into())
    }

    fn queries(_language: &str) -> &'static Queries {
        lingo_plugin_sdk::cached_queries!(
            tree_sitter_c_sharp::LANGUAGE.into(),
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

    /// `var d = value;`, `Decoder d = value;`.
    fn local_value(name: Node) -> Option<Node> {
        let declarator = name.parent()?;
        if declarator.kind() != "variable_declarator"
            || declarator.child_by_field_name("name") != Some(name)
        {
            return None;
        }
        let mut cursor = declarator.walk();
        declarator
            .named_children(&mut cursor)
            .filter(|c| *c != name)
            .find(|c| !matches!(c.kind(), "bracketed_argument_list" | "tuple_pattern"))
    }

    /// Skips MSBuild's output folders.
    /// `(x).M()`, `x!.M()`: the value is `x`'s. Not `await x` or casts,
    /// whose type is not `x`'s.
    fn transparent_expressions() -> &'static [&'static str] {
        &["parenthesized_expression", "postfix_unary_expression"]
    }

    fn indexed_collection<'t>(node: Node<'t>, source: &str) -> Option<Node<'t>> {
        types::indexed_collection(node, source)
    }

    fn iterated_value<'t>(name: Node<'t>, source: &str) -> Option<Node<'t>> {
        types::iterated_value(name, source)
    }

    /// A constructor initializer's arguments too (`: base(a, b)`), which
    /// the grammar gives no field.
    fn call_arguments(call: Node) -> Option<u32> {
        declarations::call_arguments(call)
    }

    /// `this` and `base` in a constructor initializer: the class, and its
    /// base class.
    fn aliased_name(word: Node, source: &str) -> Option<(String, Vec<String>)> {
        declarations::initialized_type(word, source)
    }

    fn arity(node: Node, source: &str) -> Option<lingo_plugin_sdk::types::Arity> {
        declarations::arity(node, source)
    }

    fn parsed_text(source: &str) -> Option<String> {
        preprocess::compiled_text(source)
    }

    fn policy() -> lingo_plugin_sdk::types::LanguagePolicy {
        lingo_plugin_sdk::types::LanguagePolicy {
            skip_dirs: vec!["bin".into(), "obj".into()],
            bare_names_reach_members: true,
            type_annotation: lingo_plugin_sdk::types::TypeAnnotationPosition::BeforeName,
            module_layout: lingo_plugin_sdk::types::ModuleLayout::DeclaredInText,
            cyclic_imports: true,
            enclosing_modules_visible: true,
            // A C# type cannot have a field and a method of one name.
            members_share_one_namespace: true,
            // `_` discards; abstract and extern methods have no body here.
            unused_locals: lingo_plugin_sdk::types::NameRule {
                names: vec!["_".into()],
                prefixes: vec!["_".into()],
            },
            unused_declarations: lingo_plugin_sdk::types::NameRule {
                names: vec![],
                prefixes: vec![],
            },
            bodiless_modifiers: vec!["abstract".into(), "extern".into()],
            private_reaches_nested_modules: false,
            file_named_after_public_type: false,
            conversions: overloads::conversion_rules(),
            // `Signature.Empty` beside a property `Signature Signature`: the
            // type when `Empty` is static, the property otherwise.
            value_or_type: lingo_plugin_sdk::types::ValueOrType::ByMember,
            // A constant is static without saying so.
            static_modifiers: vec!["static".into(), "const".into()],
        }
    }

    fn declared_types(
        root: Node,
        source: &str,
        lines: &LineIndex,
        symbols: &[lingo_plugin_sdk::types::Symbol],
        locals: &[lingo_plugin_sdk::types::Local],
    ) -> Vec<lingo_plugin_sdk::types::DeclaredType> {
        types::declared_types(root, source, lines, symbols, locals)
    }

    fn symbol_kind(tag: &str) -> SymbolKind {
        match tag {
            "destructor" => SymbolKind::Method,
            "indexer" => SymbolKind::Property,
            "conversion_operator" => SymbolKind::Operator,
            "local_function" => SymbolKind::Function,
            other => lingo_plugin_sdk::default_symbol_kind(other),
        }
    }

    /// A field's declarators share the doc comment above the field.
    fn documented_node(node: Node) -> Node {
        declarations::declaration_of(node)
    }

    fn signature_text(node: Node, source: &str) -> Option<String> {
        declarations::signature_text(node, source)
    }

    fn symbol_range(node: Node, _source: &str) -> Option<(usize, usize)> {
        declarations::symbol_range(node)
    }

    fn container_name(node: Node, source: &str) -> Option<String> {
        declarations::container_name(node, source)
    }

    fn doc_comment(comment: &str) -> Option<String> {
        declarations::doc_comment(comment)
    }

    fn visibility(node: Node, source: &str) -> Visibility {
        declarations::visibility(node, source)
    }

    fn modifiers(node: Node, source: &str) -> Vec<String> {
        declarations::modifiers(node, source)
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
        target_root: Node,
        target: &str,
        target_module: &str,
    ) -> Result<Vec<TextEdit>, PluginError> {
        placement::place_declaration(
            source_root,
            source,
            start,
            end,
            target_root,
            target,
            target_module,
        )
    }

    /// A namespace is imported by its full name.
    fn import_specifier(
        _importer: &ModuleIdentity,
        target: &ModuleIdentity,
        _manifests: &[Manifest],
    ) -> Result<String, PluginError> {
        if target.path.is_empty() {
            return Err(PluginError::Failed(
                "the global namespace needs no using directive".into(),
            ));
        }
        Ok(target.path.clone())
    }
}

lingo_plugin_sdk::export_plugin!(CSharp);

#[cfg(test)]
mod tests {
    use super::CSharp;
    use lingo_plugin_sdk::Document;
    use lingo_plugin_sdk::bindings::exports::lingo::plugin::syntax::GuestDocument;

    /// Every query compiles and captures only what the SDK reads.
    #[test]
    fn queries_check() {
        lingo_plugin_sdk::testing::check_queries::<super::CSharp>();
    }

    /// The capabilities follow from the hooks the plugin provides: the same
    /// as the list it stated by hand before (in any order).
    #[test]
    fn capabilities_are_the_ones_stated_before() {
        use lingo_plugin_sdk::types::Capability;
        lingo_plugin_sdk::testing::assert_capabilities::<super::CSharp>(&[
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

    /// `member <- receiver` for every reference with a receiver (`()` when
    /// the receiver is a call or `new`).
    fn links(source: &str) -> Vec<String> {
        let document = Document::<CSharp>::new("a.cs".into(), source.into());
        let references = document.references();
        references
            .iter()
            .filter_map(|r| {
                let on = r.receiver.as_ref()?;
                let name = &references[on.reference as usize].name;
                let call = if on.called { "()" } else { "" };
                Some(format!("{} <- {name}{call}", r.name))
            })
            .collect()
    }

    /// A `case` inside `#if`, and an `if` whose two halves are `#if` and
    /// `#else` branches: the parse sees the compiled branches only, so
    /// there is no syntax error, and an edit that makes another branch
    /// compiled is parsed anew.
    #[test]
    fn conditional_compilation_is_parsed_as_the_compiler_sees_it() {
        let source = "class C {\n\
            int M(int t) {\n\
            switch (t) {\n\
            case 0: return 0;\n\
            #if !DISABLE_ONE\n\
            case 1: return One();\n\
            #endif\n\
            }\n\
            #if MONO\n\
            if (t > 2) {\n\
            #else\n\
            if (t > 3) {\n\
            #endif\n\
            return Two();\n\
            }\n\
            return t;\n\
            }\n\
            int One() { return 1; }\n\
            int Two() { return 2; }\n\
            }\n";
        let document = Document::<CSharp>::new("a.cs".into(), source.into());
        assert!(
            document.diagnostics().is_empty(),
            "{:?}",
            document.diagnostics()
        );
        let calls: Vec<String> = document
            .references()
            .iter()
            .filter(|r| r.name == "One" || r.name == "Two")
            .map(|r| format!("{}@{}", r.name, r.span.start.line))
            .collect();
        assert_eq!(calls, ["One@5", "Two@13"]);
        // Defining MONO makes the other half compiled.
        let at = source.find("class").unwrap() as u32;
        document
            .update(vec![lingo_plugin_sdk::types::TextEdit {
                start: at,
                end: at,
                new_text: "#define MONO\n".into(),
            }])
            .unwrap();
        assert!(
            document.diagnostics().is_empty(),
            "{:?}",
            document.diagnostics()
        );
        assert_eq!(document.text().len(), source.len() + "#define MONO\n".len());
    }

    #[test]
    fn an_object_initializer_sets_members_of_the_created_object() {
        let source = "class C {\n\
            Message M(Signature sig) {\n\
            var m = new Message { Signature = sig, Body = new Part { Size = 1 } };\n\
            Signature = sig;\n\
            return m;\n\
            }\n\
            }\n";
        assert_eq!(
            links(source),
            [
                "Signature <- Message()",
                "Body <- Message()",
                "Size <- Part()"
            ]
        );
    }
}
