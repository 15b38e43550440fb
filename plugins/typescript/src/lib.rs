//! The lingo plugin for TypeScript, TSX and JavaScript: tree-sitter-typescript
//! and tree-sitter-javascript plus the `.scm` queries in `queries/`, with Rust
//! code only for imports, visibility, modifiers, declared types and module
//! paths.

mod context;
mod declarations;
mod entry;
mod exports;
mod flow;
mod import_edits;
mod imports;
mod modules;
mod narrowing;
mod placement;
mod render;
mod shorthand;
mod tsconfig;
mod types;

use std::sync::OnceLock;

use lingo_plugin_sdk::types::{
    Manifest, ModuleIdentity, PluginError, SymbolKind, TextEdit, Visibility,
};
use lingo_plugin_sdk::{
    EntryPointHook, ImportsHook, Language, LineIndex, MetricsConfig, ModuleResolution, Queries,
    Reachability, RemoveImportHook, RenderDeclarationHook, RenderImportHook, SymbolConfig,
    query_files,
};
use tree_sitter::Node;

/// TypeScript, TSX and JavaScript, as one lingo language plugin.
pub struct TypeScript;

/// The query files, by name: the patterns shared by the three dialects,
/// each dialect's own, and per language (`languages/<language>/<kind>`)
/// which of them make its queries, in which order (`; include:` lines).
const QUERY_FILES: &[(&str, &str)] = &[
    ("symbols", include_str!("../queries/symbols.scm")),
    ("references", include_str!("../queries/references.scm")),
    ("locals", include_str!("../queries/locals.scm")),
    (
        "typescript/symbols",
        include_str!("../queries/typescript/symbols.scm"),
    ),
    (
        "typescript/references",
        include_str!("../queries/typescript/references.scm"),
    ),
    (
        "typescript/locals",
        include_str!("../queries/typescript/locals.scm"),
    ),
    (
        "javascript/symbols",
        include_str!("../queries/javascript/symbols.scm"),
    ),
    (
        "javascript/references",
        include_str!("../queries/javascript/references.scm"),
    ),
    (
        "javascript/locals",
        include_str!("../queries/javascript/locals.scm"),
    ),
    (
        "jsx/references",
        include_str!("../queries/jsx/references.scm"),
    ),
    (
        "languages/typescript/symbols",
        include_str!("../queries/languages/typescript/symbols.scm"),
    ),
    (
        "languages/typescript/references",
        include_str!("../queries/languages/typescript/references.scm"),
    ),
    (
        "languages/typescript/locals",
        include_str!("../queries/languages/typescript/locals.scm"),
    ),
    (
        "languages/tsx/symbols",
        include_str!("../queries/languages/tsx/symbols.scm"),
    ),
    (
        "languages/tsx/references",
        include_str!("../queries/languages/tsx/references.scm"),
    ),
    (
        "languages/tsx/locals",
        include_str!("../queries/languages/tsx/locals.scm"),
    ),
    (
        "languages/javascript/symbols",
        include_str!("../queries/languages/javascript/symbols.scm"),
    ),
    (
        "languages/javascript/references",
        include_str!("../queries/languages/javascript/references.scm"),
    ),
    (
        "languages/javascript/locals",
        include_str!("../queries/languages/javascript/locals.scm"),
    ),
];

/// The grammar of a language identifier.
fn grammar_for(language: &str) -> tree_sitter::Language {
    match language {
        "javascript" => tree_sitter_javascript::LANGUAGE.into(),
        "tsx" => tree_sitter_typescript::LANGUAGE_TSX.into(),
        _ => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
    }
}

fn compile(language: &str) -> Queries {
    let file = |kind: &str| {
        query_files::expand(&format!("languages/{language}/{kind}"), QUERY_FILES)
            .unwrap_or_else(|e| query_files::query_error(&format!("{e} ({language})")))
    };
    Queries::new(
        &grammar_for(language),
        &file("symbols"),
        &file("references"),
        &file("locals"),
    )
    .unwrap_or_else(|e| query_files::query_error(&format!("{e} ({language})")))
}

static SYMBOL_CONFIG: SymbolConfig = SymbolConfig {
    signature_end_fields: &["body", "value"],
    comment_kinds: &["comment"],
    attribute_kinds: &["decorator"],
    path_separator: ".",
};

static METRICS_CONFIG: MetricsConfig = MetricsConfig {
    function_tags: &[
        "function",
        "arrow_function",
        "method",
        "constructor",
        "getter",
        "setter",
    ],
    branch_kinds: &[
        "if_statement",
        "for_statement",
        "for_in_statement",
        "while_statement",
        "do_statement",
        "switch_case",
        "catch_clause",
        "ternary_expression",
    ],
    nesting_kinds: &[
        "if_statement",
        "for_statement",
        "for_in_statement",
        "while_statement",
        "do_statement",
        "switch_statement",
        "catch_clause",
        "ternary_expression",
    ],
    else_kinds: &["else_clause"],
    nesting_only_kinds: &[
        "arrow_function",
        "function_expression",
        "generator_function",
    ],
    binary_kinds: &["binary_expression"],
    boolean_operators: &["&&", "||", "??"],
    parameters_field: "parameters",
    atomic_operand_kinds: &["string", "template_string", "regex"],
};

impl Language for TypeScript {
    const NAME: &'static str = "typescript";
    const VERSION: &'static str = env!("CARGO_PKG_VERSION");
    const LANGUAGES: &'static [&'static str] = &["typescript", "tsx", "javascript"];
    const EXTENSIONS: &'static [&'static str] =
        &["ts", "tsx", "mts", "cts", "js", "jsx", "mjs", "cjs"];
    const MANIFESTS: &'static [&'static str] = &[
        "package.json",
        "tsconfig.json",
        "tsconfig.*.json",
        "jsconfig.json",
    ];
    const IMPORTS: Option<ImportsHook> = Some(imports::imports);
    const MODULE_RESOLUTION: Option<ModuleResolution> = Some(ModuleResolution {
        module_of: |_root, _source, path, manifests| modules::module_of(path, manifests),
        resolve_import: modules::resolve_import,
    });
    const RENDER_IMPORT: Option<RenderImportHook> = Some(import_edits::render_import);
    const REMOVE_IMPORT: Option<RemoveImportHook> = Some(import_edits::remove_import);
    const RENDER_DECLARATION: Option<RenderDeclarationHook> = Some(render::render_declaration);
    const ENTRY_POINT: Option<EntryPointHook> = Some(entry::entry_point);
    const UNREACHABLE: Option<Reachability> = Some(Reachability {
        is_statement_block: flow::is_statement_block,
        leaves_block: flow::leaves_block,
        hoisted: flow::hoisted,
    });

    fn is_self_receiver(receiver: Node, _source: &str) -> bool {
        receiver.kind() == "this"
    }

    fn is_super_receiver(receiver: Node, _source: &str) -> bool {
        receiver.kind() == "super"
    }

    /// A class's `extends` expression, when it is a name or a dotted path
    /// (`extends Base`, `extends ns.Base<T>`); none for a mixin call.
    fn supertype_of(owner: Node, source: &str) -> Option<Vec<String>> {
        declarations::extended_class_path(owner, source)
    }

    fn grammar(path: &str) -> (&'static str, tree_sitter::Language) {
        let extension = path.rsplit_once('.').map_or("", |(_, e)| e);
        let language = match extension.to_ascii_lowercase().as_str() {
            "tsx" => "tsx",
            "js" | "jsx" | "mjs" | "cjs" => "javascript",
            _ => "typescript",
        };
        (language, grammar_for(language))
    }

    fn queries(language: &str) -> &'static Queries {
        static TYPESCRIPT: OnceLock<Queries> = OnceLock::new();
        static TSX: OnceLock<Queries> = OnceLock::new();
        static JAVASCRIPT: OnceLock<Queries> = OnceLock::new();
        match language {
            "javascript" => JAVASCRIPT.get_or_init(|| compile("javascript")),
            "tsx" => TSX.get_or_init(|| compile("tsx")),
            _ => TYPESCRIPT.get_or_init(|| compile("typescript")),
        }
    }

    fn symbol_config() -> &'static SymbolConfig {
        &SYMBOL_CONFIG
    }

    fn metrics_config() -> &'static MetricsConfig {
        &METRICS_CONFIG
    }

    /// `const p = value`, `let p: T = value`.
    fn local_value(name: Node) -> Option<Node> {
        let declarator = name.parent()?;
        (declarator.kind() == "variable_declarator"
            && declarator.child_by_field_name("name") == Some(name))
        .then(|| declarator.child_by_field_name("value"))
        .flatten()
    }

    /// Skips installed packages and build output.
    /// `(x).m()`, `x!.m()`: the value is `x`'s. Not `await x` (the value the
    /// promise holds, see `indexed_collection`) or `x as T`,
    /// whose type is not `x`'s.
    fn transparent_expressions() -> &'static [&'static str] {
        &["parenthesized_expression", "non_null_expression"]
    }

    fn indexed_collection<'t>(node: Node<'t>, source: &str) -> Option<Node<'t>> {
        types::indexed_collection(node, source)
    }

    fn literal_type<'t>(value: Node<'t>, source: &str) -> Option<Node<'t>> {
        context::literal_type(value, source)
    }

    fn literal_context(value: Node) -> Option<Node> {
        context::literal_context(value)
    }

    fn parameter_site<'t>(
        value: Node<'t>,
        source: &str,
    ) -> Option<lingo_plugin_sdk::ParameterSite<'t>> {
        context::parameter_site(value, source)
    }

    fn untyped_parameter(name: Node<'_>) -> Option<(Node<'_>, u32)> {
        context::untyped_parameter(name)
    }

    fn iterated_value<'t>(name: Node<'t>, source: &str) -> Option<Node<'t>> {
        types::iterated_value(name, source)
    }

    fn narrowed_by<'t>(value: Node<'t>, source: &str) -> Option<Node<'t>> {
        narrowing::narrowed_by(value, source)
    }

    fn policy() -> lingo_plugin_sdk::types::LanguagePolicy {
        lingo_plugin_sdk::types::LanguagePolicy {
            skip_dirs: vec!["node_modules".into(), "dist".into(), "build".into()],
            bare_names_reach_members: false,
            type_annotation: lingo_plugin_sdk::types::TypeAnnotationPosition::AfterName,
            module_layout: lingo_plugin_sdk::types::ModuleLayout::FilePerModule,
            cyclic_imports: true,
            enclosing_modules_visible: false,
            // A class member name is one member; `this.m` read without a
            // call is the method as a value.
            members_share_one_namespace: true,
            // tsc leaves `_`-prefixed parameters alone; `this` is a parameter a
            // function declares for its type only.
            unused_locals: lingo_plugin_sdk::types::NameRule {
                names: vec!["this".into()],
                prefixes: vec!["_".into()],
            },
            unused_declarations: lingo_plugin_sdk::types::NameRule {
                names: vec![],
                prefixes: vec![],
            },
            bodiless_modifiers: vec!["abstract".into(), "declare".into()],
            private_reaches_nested_modules: false,
            file_named_after_public_type: false,
            conversions: lingo_plugin_sdk::no_conversions(),
            value_or_type: lingo_plugin_sdk::types::ValueOrType::Unstated,
            static_modifiers: Vec::new(),
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
            "getter" | "setter" => SymbolKind::Property,
            "method_signature" => SymbolKind::Method,
            "function_signature" => SymbolKind::Function,
            other => lingo_plugin_sdk::default_symbol_kind(other),
        }
    }

    /// JSDoc: `/** ... */`, leading `*`s removed; `/**/` and `/***` are not.
    fn doc_comment(comment: &str) -> Option<String> {
        let body = comment.strip_prefix("/**")?.strip_suffix("*/")?;
        if body.starts_with('*') || body.is_empty() {
            return None;
        }
        Some(lingo_plugin_sdk::doc::block_text(body))
    }

    fn documented_node(node: Node) -> Node {
        declarations::statement_of(node)
    }

    fn signature_range(node: Node, _source: &str) -> Option<(usize, usize)> {
        declarations::signature_range(node)
    }

    fn measured_node(node: Node) -> Node {
        declarations::function_value(node).unwrap_or(node)
    }

    fn qualifying_names(root: Node, source: &str) -> Vec<String> {
        declarations::qualifying_names(root, source)
    }

    fn visibility(node: Node, source: &str) -> Visibility {
        declarations::visibility(node, source)
    }

    fn modifiers(node: Node, source: &str) -> Vec<String> {
        declarations::modifiers(node, source)
    }

    fn render_reexport(
        root: Node,
        source: &str,
        module_path: &str,
        names: &[String],
    ) -> Result<Vec<TextEdit>, PluginError> {
        import_edits::render_reexport(root, source, module_path, names)
    }

    fn write_out_shorthand(
        name: Node,
        _source: &str,
        member: &str,
        value: &str,
    ) -> Result<Vec<TextEdit>, PluginError> {
        shorthand::write_out(name, member, value)
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
        Ok(modules::import_specifier(importer, target))
    }
}

lingo_plugin_sdk::export_plugin!(TypeScript);

#[cfg(test)]
mod grammar_tests {
    use super::grammar_for;

    fn parse(language: &str, source: &str) -> tree_sitter::Tree {
        let mut parser = tree_sitter::Parser::new();
        parser
            .set_language(&grammar_for(language))
            .expect("grammar loads");
        parser.parse(source, None).expect("parser returns a tree")
    }

    fn kinds(tree: &tree_sitter::Tree, kind: &str) -> usize {
        let mut count = 0;
        let mut stack = vec![tree.root_node()];
        while let Some(node) = stack.pop() {
            count += usize::from(node.kind() == kind);
            let mut cursor = node.walk();
            stack.extend(node.children(&mut cursor));
        }
        count
    }

    /// The vendored grammar's scanner fix (plugins/vendor/tree-sitter-typescript/README.lingo.md): a `<` on
    /// a new line inside a type starts the next member.
    #[test]
    fn generic_call_signatures_on_consecutive_lines_parse() {
        let source = "export interface Factory extends Base {\n    // nameless\n    <T extends Function | undefined>(fn: T): T\n    <T>(name: string, fn: T): T\n    (customName: string): Decorator &\n        Annotation\n    bound: Annotation\n}\nconst x: Factory = make()\n";
        for language in ["typescript", "tsx"] {
            let tree = parse(language, source);
            assert!(
                !tree.root_node().has_error(),
                "{language}: {}",
                tree.root_node().to_sexp()
            );
            assert_eq!(kinds(&tree, "call_signature"), 3, "{language}");
            assert_eq!(kinds(&tree, "property_signature"), 1, "{language}");
        }
    }

    /// In an expression a `<` on the next line still continues it.
    #[test]
    fn a_less_than_on_the_next_line_still_compares() {
        let source = "const small = width\n    < limit\nconst generic = make\n    <number>(1)\n";
        for language in ["typescript", "tsx"] {
            let tree = parse(language, source);
            assert!(
                !tree.root_node().has_error(),
                "{language}: {}",
                tree.root_node().to_sexp()
            );
            assert_eq!(kinds(&tree, "lexical_declaration"), 2, "{language}");
        }
        let tree = parse("typescript", source);
        assert_eq!(kinds(&tree, "binary_expression"), 1);
    }
}

/// The query files as data: each language's composition compiles against
/// its own grammar with only the captures the SDK reads, and every file is
/// in the table and taken in by some language.
#[cfg(test)]
mod query_file_tests {
    use super::{QUERY_FILES, grammar_for};
    use lingo_plugin_sdk::query_files::expand;

    /// Every query compiles and captures only what the SDK reads.
    #[test]
    fn queries_check() {
        lingo_plugin_sdk::testing::check_queries::<super::TypeScript>();
    }

    /// The capabilities follow from the hooks the plugin provides: the same
    /// as the list it stated by hand before (in any order).
    #[test]
    fn capabilities_are_the_ones_stated_before() {
        use lingo_plugin_sdk::types::Capability;
        lingo_plugin_sdk::testing::assert_capabilities::<super::TypeScript>(&[
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

    const LANGUAGES: [&str; 3] = ["typescript", "tsx", "javascript"];
    const KINDS: [&str; 3] = ["symbols", "references", "locals"];

    /// Whether the SDK reads a capture of this name (`@_name` captures
    /// serve predicates only, by tree-sitter's convention).
    fn known_capture(kind: &str, name: &str) -> bool {
        if name.starts_with('_') {
            return true;
        }
        match kind {
            "symbols" => name.starts_with("definition.") || matches!(name, "name" | "container"),
            "references" => {
                name.strip_prefix("reference.").is_some_and(|k| {
                    matches!(
                        k,
                        "ignore"
                            | "call"
                            | "reference"
                            | "type"
                            | "import"
                            | "extends"
                            | "implements"
                            | "write"
                    )
                }) || matches!(name, "name" | "qualifier" | "receiver" | "shorthand")
            }
            _ => {
                name.starts_with("local.definition.")
                    || matches!(name, "local.scope" | "local.after")
            }
        }
    }

    #[test]
    fn every_language_composition_compiles_with_sdk_captures_only() {
        let mut failures = Vec::new();
        for language in LANGUAGES {
            for kind in KINDS {
                let source = expand(&format!("languages/{language}/{kind}"), QUERY_FILES)
                    .unwrap_or_else(|e| panic!("{language} {kind}: {e}"));
                assert!(source.contains('@'), "{language} {kind}: no patterns");
                match tree_sitter::Query::new(&grammar_for(language), &source) {
                    Ok(query) => failures.extend(
                        query
                            .capture_names()
                            .iter()
                            .filter(|name| !known_capture(kind, name))
                            .map(|name| format!("{language} {kind}: unknown capture @{name}")),
                    ),
                    Err(e) => failures.push(format!("{language} {kind}: {e}")),
                }
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }

    #[test]
    fn every_query_file_is_in_the_table_and_taken_in() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("queries");
        let mut on_disk = Vec::new();
        let mut folders = vec![root.clone()];
        while let Some(folder) = folders.pop() {
            for entry in std::fs::read_dir(&folder).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    folders.push(path);
                } else if path.extension().is_some_and(|e| e == "scm") {
                    let name = path.strip_prefix(&root).unwrap().with_extension("");
                    on_disk.push(name.to_string_lossy().replace('\\', "/"));
                }
            }
        }
        on_disk.sort();
        let mut table: Vec<String> = QUERY_FILES.iter().map(|(n, _)| n.to_string()).collect();
        table.sort();
        assert_eq!(on_disk, table, "queries/ and QUERY_FILES differ");
        // Each file is taken in by some language's composition.
        for (name, text) in QUERY_FILES {
            if name.starts_with("languages/") {
                continue;
            }
            let first_pattern = text
                .lines()
                .find(|l| !l.trim().is_empty() && !l.trim_start().starts_with(';'))
                .unwrap_or_else(|| panic!("{name} has no pattern"));
            let taken = LANGUAGES.iter().any(|language| {
                KINDS.iter().any(|kind| {
                    expand(&format!("languages/{language}/{kind}"), QUERY_FILES)
                        .is_ok_and(|s| s.contains(first_pattern))
                })
            });
            assert!(taken, "{name} is taken in by no language");
        }
    }
}

#[cfg(test)]
mod reexport_tests {
    use super::TypeScript;
    use lingo_plugin_sdk::Language;

    /// What a moved declaration's old file writes to keep it exported: an
    /// `export { .. } from` after the last import, in the file's quotes and
    /// semicolon style; nothing for no name or a name that is no identifier.
    #[test]
    fn a_reexport_follows_the_imports_in_the_files_style() {
        let source = "import { a } from './a'\n\nexport function f() {}\n";
        let tree = lingo_plugin_sdk::testing::parse::<TypeScript>("src/x.ts", source);
        let names = ["g".to_string(), "h".to_string()];
        let edits = TypeScript::render_reexport(tree.root_node(), source, "./g", &names).unwrap();
        let mut text = source.to_string();
        for edit in edits.iter().rev() {
            text.replace_range(edit.start as usize..edit.end as usize, &edit.new_text);
        }
        assert_eq!(
            text,
            "import { a } from './a'\nexport { g, h } from './g'\n\nexport function f() {}\n"
        );
        let root = tree.root_node();
        assert!(TypeScript::render_reexport(root, source, "./g", &[]).is_err());
        assert!(TypeScript::render_reexport(root, source, "./g", &["a b".into()]).is_err());
    }
}
