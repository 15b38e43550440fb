//! The lingo plugin for Java: tree-sitter-java plus the `.scm` queries in
//! `queries/`, with Rust code only for visibility, modifiers, imports,
//! packages and source roots, declared types, entry points and edits.

mod declarations;
#[cfg(test)]
mod edit_tests;
mod entry;
mod flow;
mod imports;
mod modules;
mod overloads;
mod placement;
mod types;

use lingo_plugin_sdk::types::{
    Arity, DeclaredType, LanguagePolicy, Local, Manifest, ModuleIdentity, ModuleLayout, NameRule,
    PluginError, Symbol, SymbolKind, TextEdit, TokenKind, TypeAnnotationPosition, Visibility,
};
use lingo_plugin_sdk::{
    EntryPointHook, ImportsHook, Language, LineIndex, MetricsConfig, ModuleResolution, Queries,
    Reachability, RemoveImportHook, RenderDeclarationHook, RenderImportHook, SymbolConfig,
};
use tree_sitter::Node;

/// Java, as a lingo language.
pub struct Java;

const SYMBOLS: &str = include_str!("../queries/symbols.scm");
const REFERENCES: &str = include_str!("../queries/references.scm");
const LOCALS: &str = include_str!("../queries/locals.scm");

static SYMBOL_CONFIG: SymbolConfig = SymbolConfig {
    signature_end_fields: &["body"],
    comment_kinds: &["line_comment", "block_comment"],
    // Annotations are inside a declaration's `modifiers`, not beside it.
    attribute_kinds: &[],
    path_separator: ".",
};

static METRICS_CONFIG: MetricsConfig = MetricsConfig {
    function_tags: &["method", "constructor"],
    branch_kinds: &[
        "if_statement",
        "while_statement",
        "do_statement",
        "for_statement",
        "enhanced_for_statement",
        // Each `case` label of a switch (statement or expression).
        "case",
        "catch_clause",
        "ternary_expression",
    ],
    nesting_kinds: &[
        "if_statement",
        "while_statement",
        "do_statement",
        "for_statement",
        "enhanced_for_statement",
        "switch_expression",
        "catch_clause",
        "ternary_expression",
    ],
    else_kinds: &["else"],
    nesting_only_kinds: &["lambda_expression"],
    binary_kinds: &["binary_expression"],
    boolean_operators: &["&&", "||"],
    parameters_field: "parameters",
    atomic_operand_kinds: &["string_literal", "character_literal"],
};

impl Language for Java {
    const NAME: &'static str = "java";
    const VERSION: &'static str = env!("CARGO_PKG_VERSION");
    const LANGUAGES: &'static [&'static str] = &["java"];
    const EXTENSIONS: &'static [&'static str] = &["java"];
    const IMPORTS: Option<ImportsHook> =
        Some(|_path, root, source, lines| imports::imports(root, source, lines));
    const MODULE_RESOLUTION: Option<ModuleResolution> = Some(ModuleResolution {
        module_of: modules::module_of,
        resolve_import: |_importer, import_path, _manifests| modules::resolve_import(import_path),
    });
    const RENDER_IMPORT: Option<RenderImportHook> = Some(imports::render_import);
    const REMOVE_IMPORT: Option<RemoveImportHook> = Some(imports::remove_import);
    const RENDER_DECLARATION: Option<RenderDeclarationHook> = Some(placement::render_declaration);
    const ENTRY_POINT: Option<EntryPointHook> = Some(|node, name, enclosing, _attached, source| {
        entry::entry_point(node, name, enclosing, source)
    });
    const UNREACHABLE: Option<Reachability> = Some(Reachability {
        is_statement_block: flow::is_statement_block,
        leaves_block: flow::leaves_block,
        hoisted: lingo_plugin_sdk::never_hoisted,
    });
    const OVERLOAD_TYPES: Option<lingo_plugin_sdk::OverloadTypes> =
        Some(lingo_plugin_sdk::OverloadTypes {
            parameter_types: overloads::parameter_types,
            argument_nodes: overloads::argument_nodes,
            literal: overloads::literal,
            declared_built_in: overloads::declared_built_in,
            cast_type: overloads::cast_type,
        });

    /// `void` and `boolean` are named leaves of the grammar, `var` a type
    /// identifier: keywords all three, as `int` is.
    fn token_kind(node: Node, source: &str) -> Option<TokenKind> {
        match node.kind() {
            "void_type" | "boolean_type" => Some(TokenKind::Keyword),
            "type_identifier" if &source[node.byte_range()] == "var" => Some(TokenKind::Keyword),
            _ => None,
        }
    }

    fn is_self_receiver(receiver: Node, _source: &str) -> bool {
        receiver.kind() == "this"
    }

    fn is_super_receiver(receiver: Node, _source: &str) -> bool {
        receiver.kind() == "super"
    }

    /// A class's `extends` type, or the type an anonymous class names.
    fn supertype_of(owner: Node, source: &str) -> Option<Vec<String>> {
        declarations::supertype_path(owner, source)
    }

    fn grammar(_path: &str) -> (&'static str, tree_sitter::Language) {
        ("java", tree_sitter_java::LANGUAGE.into())
    }

    fn queries(_language: &str) -> &'static Queries {
        lingo_plugin_sdk::cached_queries!(
            tree_sitter_java::LANGUAGE.into(),
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

    /// `Decoder d = value;`, `var d = value;`.
    fn indexed_collection<'t>(node: Node<'t>, source: &str) -> Option<Node<'t>> {
        types::indexed_collection(node, source)
    }

    fn iterated_value<'t>(name: Node<'t>, source: &str) -> Option<Node<'t>> {
        types::iterated_value(name, source)
    }

    fn local_value(name: Node) -> Option<Node> {
        let declarator = name.parent()?;
        if declarator.kind() != "variable_declarator"
            || declarator.child_by_field_name("name") != Some(name)
        {
            return None;
        }
        declarator.child_by_field_name("value")
    }

    fn arity(node: Node, _source: &str) -> Option<Arity> {
        declarations::arity(node)
    }

    fn policy() -> LanguagePolicy {
        LanguagePolicy {
            // Maven's and Gradle's output folders.
            skip_dirs: vec!["target".into(), "build".into()],
            // A bare name in a class body may be a field or method of the
            // class (an implicit `this`).
            bare_names_reach_members: true,
            type_annotation: TypeAnnotationPosition::BeforeName,
            // The package clause says a file's package.
            module_layout: ModuleLayout::DeclaredInText,
            cyclic_imports: true,
            // `package a.b;` does not see what package `a` declares.
            enclosing_modules_visible: false,
            // A Java class may have a field and a method of one name.
            members_share_one_namespace: false,
            // `_` is an unnamed variable (Java 22).
            unused_locals: NameRule {
                names: vec!["_".into()],
                prefixes: vec![],
            },
            unused_declarations: NameRule {
                names: vec![],
                prefixes: vec![],
            },
            bodiless_modifiers: vec!["abstract".into(), "native".into()],
            private_reaches_nested_modules: false,
            // `public class Parser` lives in `Parser.java`.
            file_named_after_public_type: true,
            conversions: overloads::conversion_rules(),
            // A variable hides a type of its name (obscuring).
            value_or_type: lingo_plugin_sdk::types::ValueOrType::Value,
            static_modifiers: vec!["static".into()],
        }
    }

    fn declared_types(
        root: Node,
        source: &str,
        lines: &LineIndex,
        symbols: &[Symbol],
        locals: &[Local],
    ) -> Vec<DeclaredType> {
        types::declared_types(root, source, lines, symbols, locals)
    }

    fn symbol_name(tag: &str, node: Node, _name: Node, source: &str) -> Option<String> {
        (tag == "anonymous_class").then(|| declarations::anonymous_class_name(node, source))
    }

    fn symbol_kind(tag: &str) -> SymbolKind {
        match tag {
            "anonymous_class" => SymbolKind::Class,
            "annotation_type" => SymbolKind::Interface,
            "annotation_element" => SymbolKind::Method,
            "record_component" => SymbolKind::Field,
            other => lingo_plugin_sdk::default_symbol_kind(other),
        }
    }

    /// A field's declarators share the Javadoc above the field.
    fn documented_node(node: Node) -> Node {
        declarations::declaration_of(node)
    }

    fn signature_text(node: Node, source: &str) -> Option<String> {
        declarations::signature_text(node, source)
    }

    fn symbol_range(node: Node, _source: &str) -> Option<(usize, usize)> {
        declarations::symbol_range(node)
    }

    fn doc_comment(comment: &str) -> Option<String> {
        lingo_plugin_sdk::doc::slash_doc_text(comment)
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

    /// A package is imported by its full name (`a.b`, written `import a.b.*;`).
    fn import_specifier(
        _importer: &ModuleIdentity,
        target: &ModuleIdentity,
        _manifests: &[Manifest],
    ) -> Result<String, PluginError> {
        if target.path.is_empty() {
            return Err(PluginError::Failed(
                "the unnamed package cannot be imported".into(),
            ));
        }
        Ok(target.path.clone())
    }
}

lingo_plugin_sdk::export_plugin!(Java);

#[cfg(test)]
mod tests {
    use super::Java;
    use lingo_plugin_sdk::Document;
    use lingo_plugin_sdk::bindings::exports::lingo::plugin::syntax::GuestDocument;

    /// Every query compiles and captures only what the SDK reads.
    #[test]
    fn queries_check() {
        lingo_plugin_sdk::testing::check_queries::<Java>();
    }

    /// The capabilities follow from the hooks the plugin provides.
    #[test]
    fn capabilities_are_the_hooks_provided() {
        use lingo_plugin_sdk::types::Capability;
        lingo_plugin_sdk::testing::assert_capabilities::<Java>(&[
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

    /// One line per reference: `name kind qualifier` with `.member <- receiver`
    /// for member accesses (`()` when the receiver is a call).
    fn described(source: &str) -> Vec<String> {
        let document = Document::<Java>::new("a/A.java".into(), source.into());
        let references = document.references();
        references
            .iter()
            .map(|r| {
                let kind = format!("{:?}", r.kind);
                let kind = kind.rsplit("::").next().unwrap_or(&kind).to_lowercase();
                let mut line = format!("{} {kind}", r.name);
                if !r.qualifier.is_empty() {
                    line.push_str(&format!(" {}", r.qualifier.join(".")));
                }
                if r.is_member {
                    line.push_str(" member");
                }
                if let Some(on) = &r.receiver {
                    let call = if on.called { "()" } else { "" };
                    line.push_str(&format!(
                        " <- {}{call}",
                        references[on.reference as usize].name
                    ));
                }
                line
            })
            .collect()
    }

    #[test]
    fn paths_members_and_receivers() {
        let source = "package a;\n\
            import java.util.List;\n\
            import static a.b.Util.join;\n\
            import static a.b.Strings.*;\n\
            import a.c.*;\n\
            class A extends java.util.AbstractList<String> implements Runnable {\n\
            int count;\n\
            public void run() {\n\
            Map.Entry<String, Integer> e = null;\n\
            this.count = Math.max(count, 1);\n\
            helper().go();\n\
            A.this.count++;\n\
            Runnable r = System.out::println;\n\
            }\n\
            }\n";
        assert_eq!(
            described(source),
            [
                "List import java.util",
                "join import a.b.Util",
                "Util type a.b",
                "Strings type a.b",
                "AbstractList extends java.util",
                "String type",
                "Runnable implements",
                "Entry type Map",
                "Map type",
                "String type",
                "Integer type",
                "count write A member",
                "max call Math",
                "Math reference",
                "count reference",
                "go call member <- helper()",
                "helper call",
                "count write member",
                "A reference",
                "Runnable type",
                "println reference System.out",
                "out reference System",
                "System reference",
            ]
        );
    }

    /// An anonymous class is a class named `<anonymous Base>` holding its
    /// members, extending the type it names; `this.x` in it is its own.
    #[test]
    fn anonymous_classes_are_classes_that_extend_what_they_name() {
        let source = "class A {\n\
            Runnable make(int n) {\n\
            return new java.lang.Thread(\"t\") {\n\
            public void run() { this.setName(\"x\"); }\n\
            };\n\
            }\n\
            }\n";
        let document = Document::<Java>::new("A.java".into(), source.into());
        let symbols: Vec<String> = document
            .symbols()
            .iter()
            .map(|s| {
                format!(
                    "{} {} in {:?}: {}",
                    s.language_kind,
                    s.name,
                    s.container_name.as_deref().unwrap_or("-"),
                    s.signature.as_deref().unwrap_or("")
                )
            })
            .collect();
        assert_eq!(
            symbols,
            [
                "class A in \"-\": class A",
                "method make in \"A\": Runnable make(int n)",
                "anonymous_class <anonymous Thread> in \"make\": new java.lang.Thread(\"t\")",
                "method run in \"<anonymous Thread>\": public void run()",
            ]
        );
        assert_eq!(
            described(source),
            [
                "Runnable type",
                "Thread extends java.lang",
                "setName call <anonymous Thread> member",
            ]
        );
    }

    /// Anonymous classes nested 150 deep, each calling `super`: every one
    /// is a class; nested 3,000 deep (past the SDK's query depth bound and
    /// the depth it describes declarations to) the facts still come back,
    /// a name after the deepest declarations included.
    #[test]
    fn deeply_nested_anonymous_classes_are_classes() {
        let nested = |depth: usize| {
            let mut source = String::from("class A extends B {\n");
            for _ in 0..depth {
                source.push_str("Object f() { super.f(); return new B() {\n");
            }
            for _ in 0..depth {
                source.push_str("}; }\n");
            }
            // A name after the deepest declarations end.
            source.push_str("int z = y;\n}\n");
            Document::<Java>::new("A.java".into(), source)
        };
        let document = nested(150);
        let anonymous = document
            .symbols()
            .iter()
            .filter(|s| s.name == "<anonymous B>")
            .count();
        assert_eq!(anonymous, 150);
        let supers = document
            .references()
            .iter()
            .filter(|r| r.name == "f" && r.qualifier == ["B"])
            .count();
        assert_eq!(supers, 150, "each super call is the base's");
        let deep = nested(3000);
        assert!(!deep.symbols().is_empty());
        assert!(deep.references().iter().any(|r| r.name == "y"));
    }

    #[test]
    fn void_boolean_and_var_are_keywords() {
        let source = "class A { void f(boolean b) { var v = b; int i = 0; } }";
        let document = Document::<Java>::new("A.java".into(), source.into());
        let keywords: Vec<&str> = document
            .tokens()
            .iter()
            .filter(|t| t.kind == lingo_plugin_sdk::types::TokenKind::Keyword)
            .map(|t| &source[t.start as usize..t.end as usize])
            .collect();
        assert_eq!(keywords, ["class", "void", "boolean", "var", "int"]);
    }

    #[test]
    fn overloads_have_their_arity_and_calls_their_argument_count() {
        let source = "class A {\n\
            void f(int a) {}\n\
            void f(int a, int b) {}\n\
            void g(String... xs) {}\n\
            void h() { f(1); f(1, 2); g(); new A(); }\n\
            }\n";
        let document = Document::<Java>::new("A.java".into(), source.into());
        let arities: Vec<String> = document
            .symbols()
            .iter()
            .filter_map(|s| {
                s.arity
                    .map(|a| format!("{} {}..{:?}", s.name, a.min, a.max))
            })
            .collect();
        assert_eq!(
            arities,
            ["f 1..Some(1)", "f 2..Some(2)", "g 0..None", "h 0..Some(0)"]
        );
        let calls: Vec<String> = document
            .references()
            .iter()
            .filter_map(|r| r.arguments.map(|n| format!("{} {n}", r.name)))
            .collect();
        assert_eq!(calls, ["f 1", "f 2", "g 0", "A 0"]);
    }
}
