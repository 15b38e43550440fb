//! The lingo plugin for Go: tree-sitter-go plus the `.scm` queries in
//! `queries/`, with Rust code only for imports, Go's capitalisation rule,
//! declaration heads, declared types, `go.mod` modules and edits.

mod declarations;
mod entry;
mod flow;
mod import_edits;
mod imports;
mod modules;
mod names;
mod placement;
mod types;

use lingo_plugin_sdk::types::{
    Manifest, ModuleIdentity, PluginError, SymbolKind, TextEdit, Visibility,
};
use lingo_plugin_sdk::{
    EntryPointHook, ImportsHook, Language, LineIndex, MetricsConfig, ModuleResolution, Queries,
    Reachability, RemoveImportHook, RenderDeclarationHook, RenderImportHook, SymbolConfig,
};
use tree_sitter::Node;

/// Go, as a lingo language.
pub struct Go;

const SYMBOLS: &str = include_str!("../queries/symbols.scm");
const REFERENCES: &str = include_str!("../queries/references.scm");
const LOCALS: &str = include_str!("../queries/locals.scm");

static SYMBOL_CONFIG: SymbolConfig = SymbolConfig {
    signature_end_fields: &["body", "value"],
    comment_kinds: &["comment"],
    attribute_kinds: &[],
    path_separator: ".",
};

static METRICS_CONFIG: MetricsConfig = MetricsConfig {
    function_tags: &["function", "method"],
    branch_kinds: &[
        "if_statement",
        "for_statement",
        "expression_case",
        "type_case",
        "communication_case",
    ],
    nesting_kinds: &[
        "if_statement",
        "for_statement",
        "expression_switch_statement",
        "type_switch_statement",
        "select_statement",
    ],
    // `if_statement` has no else node: the `else` token heads the branch.
    else_kinds: &["else"],
    nesting_only_kinds: &["func_literal"],
    binary_kinds: &["binary_expression"],
    boolean_operators: &["&&", "||"],
    parameters_field: "parameters",
    atomic_operand_kinds: &[
        "interpreted_string_literal",
        "raw_string_literal",
        "rune_literal",
    ],
};

impl Language for Go {
    const NAME: &'static str = "go";
    const VERSION: &'static str = env!("CARGO_PKG_VERSION");
    const LANGUAGES: &'static [&'static str] = &["go"];
    const EXTENSIONS: &'static [&'static str] = &["go"];
    const MANIFESTS: &'static [&'static str] = &["go.mod"];
    const IMPORTS: Option<ImportsHook> =
        Some(|_path, root, source, lines| imports::imports(root, source, lines));
    const MODULE_RESOLUTION: Option<ModuleResolution> = Some(ModuleResolution {
        module_of: |_root, _source, path, manifests| vec![modules::module_of(path, manifests)],
        resolve_import: |importer, import_path, _manifests| {
            modules::resolve_import(importer, import_path)
        },
    });
    const RENDER_IMPORT: Option<RenderImportHook> = Some(import_edits::render_import);
    const REMOVE_IMPORT: Option<RemoveImportHook> = Some(import_edits::remove_import);
    const RENDER_DECLARATION: Option<RenderDeclarationHook> =
        Some(declarations::render_declaration);
    const ENTRY_POINT: Option<EntryPointHook> = Some(|node, name, enclosing, _attached, source| {
        entry::entry_point(node, name, enclosing, source)
    });
    const UNREACHABLE: Option<Reachability> = Some(Reachability {
        is_statement_block: flow::is_statement_block,
        leaves_block: flow::leaves_block,
        hoisted: flow::hoisted,
    });

    fn grammar(_path: &str) -> (&'static str, tree_sitter::Language) {
        ("go", tree_sitter_go::LANGUAGE.into())
    }

    fn queries(_language: &str) -> &'static Queries {
        lingo_plugin_sdk::cached_queries!(
            tree_sitter_go::LANGUAGE.into(),
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

    /// `a, b := x, y` and `var a, b = x, y`: the value in the name's place,
    /// when there are as many values as names.
    /// `x, err := F()`, `var x, err = F()`: the one call's result
    /// destructured, `x` its first element.
    fn destructured_value<'t>(name: Node<'t>, _source: &str) -> Option<(Node<'t>, Vec<u32>)> {
        let (names, values) = assigned(name)?;
        let position = names.iter().position(|n| *n == name)?;
        match values.as_slice() {
            // `v, ok := x.(T)`: no tuple (see `local_value`).
            [one] if is_comma_ok(*one) => None,
            [one] if names.len() > 1 => Some((*one, vec![position as u32])),
            _ => None,
        }
    }

    fn local_value(name: Node) -> Option<Node> {
        if let Some(ranged) = ranged_collection(name) {
            return Some(ranged);
        }
        let (names, values) = assigned(name)?;
        let position = names.iter().position(|n| *n == name)?;
        match values.as_slice() {
            // `v, ok := x.(T)`, `v, ok := m[k]`: `v` is the whole value,
            // `ok` a `bool`.
            [one] if names.len() == 2 && is_comma_ok(*one) => (position == 0).then_some(*one),
            _ => (names.len() == values.len()).then(|| values[position]),
        }
    }

    /// `v` inside `case T:` of `switch v := x.(type)`: a value of `T`.
    fn narrowed_by<'t>(value: Node<'t>, source: &str) -> Option<Node<'t>> {
        types::type_switch_case(value, source)
    }

    /// Skips vendored modules (`go mod vendor`).
    /// `(x).M()`, `(&x).M()`, `(*p).M()`: the value is `x`'s (Go reaches
    /// methods through pointers alike). Not `x.(T)`, whose type is `T`.
    fn transparent_expressions() -> &'static [&'static str] {
        &["parenthesized_expression", "unary_expression"]
    }

    /// `xs[i]`, `xs[i:j]`, `m[k]`: an element of the collection, whose
    /// stated type is its element's (`types::named_type`).
    fn element_expressions() -> &'static [&'static str] {
        &["index_expression", "slice_expression"]
    }

    /// `T{..}`, `pkg.T{..}`, and the type assertion `x.(T)`, `x.(*T)`: a
    /// value of `T`.
    fn literal_type<'t>(value: Node<'t>, _source: &str) -> Option<Node<'t>> {
        match value.kind() {
            "composite_literal" => value
                .child_by_field_name("type")
                .filter(|ty| matches!(ty.kind(), "type_identifier" | "qualified_type")),
            "type_assertion_expression" => {
                types::named_type_node(value.child_by_field_name("type")?)
            }
            _ => None,
        }
    }

    fn policy() -> lingo_plugin_sdk::types::LanguagePolicy {
        lingo_plugin_sdk::types::LanguagePolicy {
            skip_dirs: vec!["vendor".into()],
            bare_names_reach_members: false,
            type_annotation: lingo_plugin_sdk::types::TypeAnnotationPosition::AfterName,
            module_layout: lingo_plugin_sdk::types::ModuleLayout::FolderPerModule,
            cyclic_imports: false,
            enclosing_modules_visible: false,
            // A Go type cannot have a field and a method of one name, and
            // `t.Method` read without a call is a method value.
            members_share_one_namespace: true,
            // The blank identifier; `var _ = x` declares nothing to use.
            unused_locals: lingo_plugin_sdk::types::NameRule {
                names: vec!["_".into()],
                prefixes: vec!["_".into()],
            },
            unused_declarations: lingo_plugin_sdk::types::NameRule {
                names: vec!["_".into()],
                prefixes: vec![],
            },
            bodiless_modifiers: vec![],
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
            // Named types other than structs and interfaces, as gopls has them.
            "type" | "type_alias" => SymbolKind::Class,
            "interface_method" => SymbolKind::Method,
            "embedded_field" => SymbolKind::Field,
            other => lingo_plugin_sdk::default_symbol_kind(other),
        }
    }

    /// An embedded field is named after the type it embeds.
    fn name_is_reference(tag: &str) -> bool {
        tag == "embedded_field"
    }

    fn documented_node(node: Node) -> Node {
        declarations::documented_node(node)
    }

    fn signature_text(node: Node, source: &str) -> Option<String> {
        declarations::signature_text(node, source)
    }

    /// The local names of imported packages: `fmt` of `fmt.Println`.
    fn qualifying_names(root: Node, source: &str) -> Vec<String> {
        imports::package_names(root, source)
    }

    /// The receiver of the enclosing method (`p` of `func (p *Point) ...`).
    fn is_self_receiver(receiver: Node, source: &str) -> bool {
        declarations::is_method_receiver(receiver, source)
    }

    fn doc_comment(comment: &str) -> Option<String> {
        declarations::doc_text(comment)
    }

    fn doc_comment_node(comment: Node, source: &str) -> Option<String> {
        if declarations::ends_a_code_line(comment) {
            return None;
        }
        declarations::doc_text(&source[comment.byte_range()])
    }

    /// Go's capitalisation rule, per declared name.
    fn name_visibility(node: Node, name: Node, source: &str) -> Visibility {
        names::visibility(node, name, source)
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

    /// A package is imported by its import path.
    fn import_specifier(
        _importer: &ModuleIdentity,
        target: &ModuleIdentity,
        _manifests: &[Manifest],
    ) -> Result<String, PluginError> {
        if target.crate_or_package.is_none() {
            return Err(PluginError::Failed(format!(
                "{} is outside any Go module (no go.mod): it has no import path",
                target.path
            )));
        }
        Ok(target.path.clone())
    }
}

lingo_plugin_sdk::export_plugin!(Go);

/// The names a short variable declaration or `var` spec holding `name`
/// binds, and the values it assigns them, in order.
/// The collection `xs` when `name` is the `v` of `for k, v := range xs`:
/// its element (a map's value), whose type is the collection's stated
/// type. Not the `k` (an index or key), nor a lone `for x := range xs`,
/// which is the index of a slice.
fn ranged_collection(name: Node) -> Option<Node> {
    let list = name.parent()?;
    let clause = list.parent()?;
    if list.kind() != "expression_list"
        || clause.kind() != "range_clause"
        || clause.child_by_field_name("left") != Some(list)
    {
        return None;
    }
    let mut cursor = list.walk();
    let names: Vec<Node> = list.named_children(&mut cursor).collect();
    match names.as_slice() {
        [_, value] if *value == name => clause.child_by_field_name("right"),
        _ => None,
    }
}

/// The forms whose second value, when two are taken, is a `bool` saying
/// whether the first is there: a type assertion `x.(T)` and an index `m[k]`.
fn is_comma_ok(value: Node) -> bool {
    matches!(
        value.kind(),
        "type_assertion_expression" | "index_expression"
    )
}

fn assigned(name: Node) -> Option<(Vec<Node>, Vec<Node>)> {
    let parent = name.parent()?;
    let (names, values): (Vec<Node>, Node) = match parent.kind() {
        "expression_list" => {
            let declaration = parent.parent()?;
            if declaration.kind() != "short_var_declaration"
                || declaration.child_by_field_name("left") != Some(parent)
            {
                return None;
            }
            let mut cursor = parent.walk();
            let names = parent.named_children(&mut cursor).collect();
            (names, declaration.child_by_field_name("right")?)
        }
        "var_spec" => {
            let mut cursor = parent.walk();
            let names = parent.children_by_field_name("name", &mut cursor).collect();
            (names, parent.child_by_field_name("value")?)
        }
        _ => return None,
    };
    let mut cursor = values.walk();
    let values = values.named_children(&mut cursor).collect();
    Some((names, values))
}

/// The unit tests' tree of Go source.
#[cfg(test)]
mod test_support {
    pub use lingo_plugin_sdk::testing::apply;

    /// Go source parsed natively, as the plugin parses it.
    pub fn parse(source: &str) -> tree_sitter::Tree {
        lingo_plugin_sdk::testing::parse::<super::Go>("a.go", source)
    }
}

#[cfg(test)]
mod tests {
    use super::Go;
    use lingo_plugin_sdk::Document;
    use lingo_plugin_sdk::bindings::exports::lingo::plugin::syntax::GuestDocument;

    /// Every query compiles and captures only what the SDK reads.
    #[test]
    fn queries_check() {
        lingo_plugin_sdk::testing::check_queries::<super::Go>();
    }

    /// The capabilities follow from the hooks the plugin provides: the same
    /// as the list it stated by hand before (in any order).
    #[test]
    fn capabilities_are_the_ones_stated_before() {
        use lingo_plugin_sdk::types::Capability;
        lingo_plugin_sdk::testing::assert_capabilities::<super::Go>(&[
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

    /// `member <- receiver` for every reference with a receiver, and
    /// `local = value` for every local with a value (`()` when called).
    fn links(source: &str) -> Vec<String> {
        let document = Document::<Go>::new("a.go".into(), source.into());
        let references = document.references();
        let call = |called: bool| if called { "()" } else { "" };
        let mut out: Vec<String> = references
            .iter()
            .filter_map(|r| {
                let on = r.receiver.as_ref()?;
                let name = &references[on.reference as usize].name;
                Some(format!("{} <- {name}{}", r.name, call(on.called)))
            })
            .collect();
        out.extend(document.locals().iter().filter_map(|l| {
            let value = l.value.as_ref()?;
            let name = &references[value.reference as usize].name;
            let element = match l.element.as_slice() {
                [] => String::new(),
                path => format!(" {path:?}"),
            };
            Some(format!(
                "{} = {name}{}{element}",
                l.name,
                call(value.called)
            ))
        }));
        out
    }

    #[test]
    fn receivers_of_selectors_and_literal_keys_and_values_of_locals() {
        let source = "package p\n\
            import \"os\"\n\
            func f(s *scanner, r io.Reader) {\n\
            s.pop()\n\
            NewDecoder(r).Decode(v)\n\
            (*s).top()\n\
            o := Options{Depth: 1, Name: n}\n\
            q := &pkg.Config{Verbose: true}\n\
            m := map[string]int{key: 1}\n\
            d, e := NewDecoder(r), s\n\
            var w = os.Stdout\n\
            x, err := f()\n\
            ts := []test{{label: \"a\"}, {label: \"b\"}}\n\
            ms := map[string]*pkg.Case{\"k\": {Want: 1}}\n\
            }\n";
        assert_eq!(
            links(source),
            [
                "pop <- s",
                "Decode <- NewDecoder()",
                "top <- s",
                "Depth <- Options",
                "Name <- Options",
                "Verbose <- Config",
                "label <- test",
                "label <- test",
                "Want <- Case",
                // A composite literal is a value of its type.
                "o = Options",
                "q = Config",
                "d = NewDecoder()",
                "e = s",
                "w = Stdout",
                // `x, err := f()`: the elements of `f`'s results.
                "x = f() [0]",
                "err = f() [1]",
            ]
        );
    }
}
