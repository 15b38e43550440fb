//! The `Language` trait: what a plugin author writes.

use tree_sitter::Node;

use crate::query::Queries;
use crate::types::{
    Arity, DeclaredType, EntryPointKind, Import, LanguagePolicy, Local, Manifest, ModuleIdentity,
    ModuleLayout, NameRule, PluginError, Symbol, SymbolKind, TextEdit, TokenKind,
    TypeAnnotationPosition, ValueOrType, Visibility,
};

/// Static facts about how a language's symbols look in its grammar.
pub struct SymbolConfig {
    /// Node fields whose start ends a declaration's signature (`body`, `value`).
    pub signature_end_fields: &'static [&'static str],
    /// Node kinds that are comments.
    pub comment_kinds: &'static [&'static str],
    /// Node kinds that may sit between a doc comment and its declaration
    /// (attributes, decorators).
    pub attribute_kinds: &'static [&'static str],
    /// Separator of qualified paths as written (`::`, `.`).
    pub path_separator: &'static str,
}

/// Node kinds that drive the per-function metrics.
pub struct MetricsConfig {
    /// `language-kind` tags of symbols that get metrics (`function`, `method`).
    pub function_tags: &'static [&'static str],
    /// Each adds one path to cyclomatic complexity (`if_expression`, `match_arm`...).
    pub branch_kinds: &'static [&'static str],
    /// Structures that add to cognitive complexity and nest (`if`, loops, `match`).
    pub nesting_kinds: &'static [&'static str],
    /// Node kinds of an `else` branch (cognitive +1, no nesting penalty). An
    /// unnamed token kind (C#'s `else`) marks the named node after it as the branch.
    pub else_kinds: &'static [&'static str],
    /// Nodes that nest but add nothing on their own (closures, lambdas).
    pub nesting_only_kinds: &'static [&'static str],
    /// Binary expression node kind, and the short-circuit operators in it.
    pub binary_kinds: &'static [&'static str],
    pub boolean_operators: &'static [&'static str],
    /// Node field holding a function's parameter list.
    pub parameters_field: &'static str,
    /// Named nodes counted whole as one Halstead operand (string literals).
    pub atomic_operand_kinds: &'static [&'static str],
}

/// Text that the grammar leaves unparsed but that holds code of the
/// language: the arguments of a Rust macro, kept as a token tree. The SDK
/// parses `prefix`, the bytes `start..end` of the text and `suffix` as one
/// more text of the language, and reports the references and locals it
/// finds in those bytes as the text's own, with their spans in the text.
/// The wrapper makes the bytes parse as what they are (`fn f() { [` and
/// `]; }` around a list of expressions).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Embedded {
    pub start: usize,
    pub end: usize,
    pub prefix: &'static str,
    pub suffix: &'static str,
}

/// The imports of the file at `path` (workspace-relative) whose tree is
/// `root`: what [`Language::IMPORTS`] holds. `path` matters where what an
/// import means depends on the file (a Python stub, `.pyi`, re-exports only
/// `import x as x`); most languages read the tree alone.
///
/// # Example
///
/// Go's `import "example.com/zoo/animals"` and `import a "…"`: one
/// namespace import per import spec, binding the alias or the path's last
/// segment.
///
/// ```ignore
/// use lingo_plugin_sdk::types::{Import, ImportKind, ImportedName};
/// use lingo_plugin_sdk::{Language, LineIndex, walk};
/// use tree_sitter::Node;
///
/// fn imports(_path: &str, root: Node, source: &str, lines: &LineIndex) -> Vec<Import> {
///     let mut out = Vec::new();
///     walk::walk_entering(root, |node| {
///         if node.kind() != "import_spec" {
///             return true; // keep descending
///         }
///         let Some(path) = node.child_by_field_name("path") else {
///             return false;
///         };
///         let module_path = source[path.byte_range()].trim_matches('"').to_string();
///         let bound = node.child_by_field_name("name");
///         let name = module_path.rsplit('/').next().unwrap_or(&module_path).to_string();
///         out.push(Import {
///             kind: ImportKind::Namespace,
///             names: vec![ImportedName {
///                 name,
///                 alias: bound.map(|b| source[b.byte_range()].to_string()),
///                 span: lines.span(source, path.start_byte(), path.end_byte()),
///             }],
///             module_path,
///             type_only: false,
///             reexport: false,
///             span: lines.span(source, node.start_byte(), node.end_byte()),
///         });
///         false
///     });
///     out
/// }
///
/// impl Language for Go {
///     const IMPORTS: Option<lingo_plugin_sdk::ImportsHook> = Some(imports);
///     // ...
/// }
/// ```
///
/// A fixture's `imports` category checks what it reports (`lingo plugin
/// test`; `sdk/README.md`, "Conformance fixtures").
pub type ImportsHook =
    fn(path: &str, root: Node, source: &str, lines: &crate::LineIndex) -> Vec<Import>;

/// Edits that import `names` of `module_path` into the document
/// (`edits.render-import`): what [`Language::RENDER_IMPORT`] holds.
pub type RenderImportHook = fn(
    root: Node,
    source: &str,
    module_path: &str,
    names: &[String],
) -> Result<Vec<TextEdit>, PluginError>;

/// Edits that remove the import of `name` of `module_path` (the whole
/// import when `None`) from the document (`edits.remove-import`): what
/// [`Language::REMOVE_IMPORT`] holds.
pub type RemoveImportHook = fn(
    root: Node,
    source: &str,
    module_path: &str,
    name: Option<&str>,
) -> Result<Vec<TextEdit>, PluginError>;

/// The declaration at bytes `start..end` written for the module
/// `target_module` (`edits.render-declaration`): what
/// [`Language::RENDER_DECLARATION`] holds.
pub type RenderDeclarationHook = fn(
    root: Node,
    source: &str,
    start: usize,
    end: usize,
    target_module: &str,
) -> Result<String, PluginError>;

/// Why something outside the source calls the declaration `node` (named by
/// `name`, nested in the declaration `enclosing`, `None` at the top of the
/// file) without a reference to it: a program's `main`, a test, a method a
/// supertype dispatches to; `None` when nothing does. What
/// [`Language::ENTRY_POINT`] holds. `attached` is the run of siblings right
/// above `node` whose kinds are the [`SymbolConfig`]'s comment and attribute
/// kinds, nearest first (read from one walk of the tree:
/// `Node::prev_sibling` searches down from the root, so asking it per
/// declaration is quadratic in a file of many).
pub type EntryPointHook = fn(
    node: Node,
    name: Node,
    enclosing: Option<Node>,
    attached: &[Node],
    source: &str,
) -> Option<EntryPointKind>;

/// How a language finds the modules of its files (capability
/// `module-resolution`): what [`Language::MODULE_RESOLUTION`] holds.
///
/// # Example
///
/// Go: a file's module is its folder's import path under the `module` line
/// of `go.mod`, and an import path names the module of the same path (the
/// host maps module paths back to the files whose `module_of` gave them).
///
/// ```ignore
/// use lingo_plugin_sdk::types::{Manifest, ModuleIdentity};
/// use lingo_plugin_sdk::{Language, ModuleResolution};
/// use tree_sitter::Node;
///
/// fn module_of(_root: Node, _source: &str, path: &str, manifests: &[Manifest]) -> Vec<ModuleIdentity> {
///     let Some(go_mod) = manifests.iter().find(|m| m.path == "go.mod") else {
///         return Vec::new();
///     };
///     let Some(module) = go_mod.contents.lines().find_map(|l| l.strip_prefix("module ")) else {
///         return Vec::new();
///     };
///     let module = module.split("//").next().unwrap_or(module).trim();
///     let folder = path.rsplit_once('/').map_or("", |(folder, _)| folder);
///     let path = if folder.is_empty() { module.to_string() } else { format!("{module}/{folder}") };
///     vec![ModuleIdentity { path, crate_or_package: Some(module.to_string()) }]
/// }
///
/// fn resolve_import(_importer: &ModuleIdentity, import_path: &str, _manifests: &[Manifest]) -> Vec<String> {
///     vec![import_path.to_string()]
/// }
///
/// impl Language for Go {
///     const MANIFESTS: &'static [&'static str] = &["go.mod"];
///     const MODULE_RESOLUTION: Option<ModuleResolution> =
///         Some(ModuleResolution { module_of, resolve_import });
///     // ...
/// }
/// ```
///
/// A fixture's `module` category and its `resolveImports` entries check
/// these hooks alone; its `definitions` category checks where the host's
/// resolution then takes each reference (`lingo plugin test`;
/// `sdk/README.md`, "Conformance fixtures").
#[derive(Clone, Copy)]
pub struct ModuleResolution {
    /// The modules the file at `path` belongs to (`modules.module-of`),
    /// with the manifests the plugin asked for ([`Language::MANIFESTS`]).
    pub module_of:
        fn(root: Node, source: &str, path: &str, manifests: &[Manifest]) -> Vec<ModuleIdentity>,
    /// The files an import of `import_path` in a file of `importer` may
    /// name, in the order the host tries them (`modules.resolve-import`).
    pub resolve_import:
        fn(importer: &ModuleIdentity, import_path: &str, manifests: &[Manifest]) -> Vec<String>,
}

/// How a language's statements leave their block (capability
/// `unreachable`, the WIT `document.unreachable`): what
/// [`Language::UNREACHABLE`] holds. The statements after one that leaves a
/// block are unreachable, unless hoisted.
#[derive(Clone, Copy)]
pub struct Reachability {
    /// Whether `node` is a block whose statements run one after another.
    pub is_statement_block: fn(node: Node) -> bool,
    /// Whether statement `node` of a block leaves it: no statement after it
    /// in the block runs (`return`, `throw`, `break`, `continue`, a call
    /// that never returns).
    pub leaves_block: fn(node: Node, source: &str) -> bool,
    /// Whether statement `node`, written after one that leaves its block,
    /// still counts as reachable code: a declaration the language hoists
    /// (a JavaScript `function`, a C# local function). [`never_hoisted`]
    /// for a language without.
    pub hoisted: fn(node: Node) -> bool,
}

/// A [`Reachability::hoisted`] for languages that hoist nothing.
pub fn never_hoisted(_node: Node) -> bool {
    false
}

/// A language plugin. Everything has a default except the grammar, the
/// queries and the configuration. What a plugin can do beyond what the SDK
/// does for every language follows from the optional hooks it provides
/// (`IMPORTS`, `MODULE_RESOLUTION`, ... `UNREACHABLE`): there is no list of
/// capabilities to keep in step with them.
pub trait Language: 'static {
    /// Short identifier, e.g. `rust`.
    const NAME: &'static str;
    /// The plugin's own version.
    const VERSION: &'static str;
    /// Language identifiers served.
    const LANGUAGES: &'static [&'static str];
    /// File extensions claimed, without the dot.
    const EXTENSIONS: &'static [&'static str];
    /// Manifest files wanted for module resolution.
    const MANIFESTS: &'static [&'static str] = &[];
    /// Whether a `@local.definition` outside every `@local.scope` is
    /// dropped: true where one pattern binds a local inside a function and
    /// declares a module variable at the top (Python's `x = 1`), so that
    /// the top-level one is left to `symbols.scm`.
    const LOCALS_NEED_A_SCOPE: bool = false;
    /// The `@definition.<tag>` tags whose repeats in one container are one
    /// declaration, the first: Python's `self.x = ...` declares `x` in the
    /// first method that assigns it (or the class body), and the later
    /// assignments are writes to it.
    const REPEATS_MERGED: &'static [&'static str] = &[];

    // The optional hooks whose presence the host is told of: each is `None`
    // by default, and `info()` lists the capability of each one that is
    // `Some` (see [`crate::capabilities`]), so a hook provided is a
    // capability claimed and the reverse.

    /// The file's imports (capability `imports`). Without it the plugin
    /// reports none, and names are not resolved across files through
    /// imports.
    const IMPORTS: Option<ImportsHook> = None;
    /// A file's modules and the files an import names (capability
    /// `module-resolution`). Without it every import stays unresolved.
    const MODULE_RESOLUTION: Option<ModuleResolution> = None;
    /// Writing an import (capability `render-import`). Without it the
    /// refactorings that add imports answer `Unsupported`.
    const RENDER_IMPORT: Option<RenderImportHook> = None;
    /// Removing an import (capability `remove-import`). Without it the
    /// refactorings that drop imports answer `Unsupported`.
    const REMOVE_IMPORT: Option<RemoveImportHook> = None;
    /// Writing a declaration for another module (capability
    /// `render-declaration`). Without it moves answer `Unsupported`.
    const RENDER_DECLARATION: Option<RenderDeclarationHook> = None;
    /// Why a declaration is called from outside the source (capability
    /// `entry-points`, the WIT `document.entry-points`). Without it the
    /// plugin states no entry points, and the host judges nothing in its
    /// files dead: it trusts an empty answer only from a plugin that claims
    /// the capability.
    const ENTRY_POINT: Option<EntryPointHook> = None;
    /// Which statements leave their block (capability `unreachable`, the
    /// WIT `document.unreachable`). Without it the host answers
    /// `Unsupported` for unreachable code.
    const UNREACHABLE: Option<Reachability> = None;
    /// The parameter and argument types that tell overloads apart (the
    /// WIT `document.parameter-lists` and `document.call-arguments`,
    /// which need no capability: without the hook both are empty and the
    /// host tells overloads apart by arity alone).
    const OVERLOAD_TYPES: Option<crate::OverloadTypes> = None;

    /// The language identifier and grammar for a file path.
    fn grammar(path: &str) -> (&'static str, tree_sitter::Language);
    /// The compiled queries for the grammar `language` (from [`Self::grammar`]).
    fn queries(language: &str) -> &'static Queries;
    fn symbol_config() -> &'static SymbolConfig;
    fn metrics_config() -> &'static MetricsConfig;

    /// The language's rules the host applies (`plugin-info.policy`): the
    /// folders whose files of this language are not indexed, whether a bare
    /// name inside a type's body may mean a member of that type, where a
    /// type annotation is written, whether the modules around a file's own
    /// are in scope, whether fields and methods share one namespace, which
    /// names say a binding or declaration is unused on purpose, which
    /// modifiers mark a declaration without a body. By default: no folders
    /// skipped, bare names never members, no annotations assumed, modules
    /// declared in the text, they may import each other, enclosing modules
    /// not in scope, a field and a method may share a name, no name unused
    /// on purpose, no bodiless modifier.
    fn policy() -> LanguagePolicy {
        LanguagePolicy {
            skip_dirs: Vec::new(),
            bare_names_reach_members: false,
            type_annotation: TypeAnnotationPosition::None,
            module_layout: ModuleLayout::DeclaredInText,
            cyclic_imports: true,
            enclosing_modules_visible: false,
            members_share_one_namespace: false,
            unused_locals: NameRule {
                names: Vec::new(),
                prefixes: Vec::new(),
            },
            unused_declarations: NameRule {
                names: Vec::new(),
                prefixes: Vec::new(),
            },
            bodiless_modifiers: Vec::new(),
            private_reaches_nested_modules: false,
            file_named_after_public_type: false,
            conversions: crate::no_conversions(),
            value_or_type: ValueOrType::Unstated,
            static_modifiers: Vec::new(),
        }
    }

    /// The types the source states for the document's declarations
    /// (`declared-types`): annotated parameters, fields and variables,
    /// variables initialised by a constructor or literal, return types,
    /// receivers and the self type of type bodies, with targets as indices
    /// into `symbols` and `locals` (the document's facts, in the order the
    /// host receives them). None by default.
    ///
    /// # Example
    ///
    /// Go parameters, `func walk(d *animals.Dog)`: the type of each
    /// `parameter_declaration` is stated for the locals its names bind.
    /// [`crate::declared::preorder_over_targets`] visits only the nodes
    /// that hold a declaration's name, and [`crate::declared::Targets`]
    /// finds the local a name node declares.
    ///
    /// ```ignore
    /// use lingo_plugin_sdk::declared::{Targets, Written, preorder_over_targets};
    /// use lingo_plugin_sdk::types::{DeclaredType, DeclaredTypeSource, Local, Symbol};
    /// use lingo_plugin_sdk::LineIndex;
    /// use tree_sitter::Node;
    ///
    /// fn declared_types(
    ///     root: Node,
    ///     source: &str,
    ///     lines: &LineIndex,
    ///     symbols: &[Symbol],
    ///     locals: &[Local],
    /// ) -> Vec<DeclaredType> {
    ///     let targets = Targets::new(symbols, locals);
    ///     let mut out = Vec::new();
    ///     preorder_over_targets(root, symbols, locals, |node| {
    ///         if node.kind() != "parameter_declaration" {
    ///             return;
    ///         }
    ///         // `*animals.Dog`: the name `Dog`, the qualifier `animals`.
    ///         let Some(mut ty) = node.child_by_field_name("type") else { return };
    ///         while ty.kind() == "pointer_type" {
    ///             let Some(inner) = ty.named_child(0) else { return };
    ///             ty = inner;
    ///         }
    ///         let written = match ty.kind() {
    ///             "type_identifier" => Written { name: ty, qualifier: Vec::new() },
    ///             "qualified_type" => {
    ///                 let (Some(package), Some(name)) =
    ///                     (ty.child_by_field_name("package"), ty.child_by_field_name("name"))
    ///                 else {
    ///                     return;
    ///                 };
    ///                 Written { name, qualifier: vec![source[package.byte_range()].to_string()] }
    ///             }
    ///             _ => return,
    ///         };
    ///         let mut cursor = node.walk();
    ///         for name in node.children_by_field_name("name", &mut cursor) {
    ///             if let Some(target) = targets.local(name) {
    ///                 out.push(written.clone().declared(
    ///                     target,
    ///                     source,
    ///                     lines,
    ///                     DeclaredTypeSource::Annotation,
    ///                 ));
    ///             }
    ///         }
    ///     });
    ///     out
    /// }
    /// ```
    ///
    /// [`crate::declared::describe_declared_types`] prints them in a
    /// plugin's unit tests; a fixture's `declaredTypes` category checks
    /// them, and its `definitions` category the member accesses they type
    /// (`lingo plugin test`; `sdk/README.md`, "Conformance fixtures").
    fn declared_types(
        _root: Node,
        _source: &str,
        _lines: &crate::LineIndex,
        _symbols: &[Symbol],
        _locals: &[Local],
    ) -> Vec<DeclaredType> {
        Vec::new()
    }

    /// The expression the binding named by `name` (a local's name node,
    /// or a variable's, constant's, field's or property's) is initialised
    /// with: `make()` in `let p = make()`, `NewDecoder(r)` in `d :=
    /// NewDecoder(r)`, `ZodString.create` in a module's `const stringType
    /// = ZodString.create` (`document.symbol-values`). None by default.
    fn local_value(_name: Node) -> Option<Node> {
        None
    }

    /// The expression a binding of a tuple pattern destructures, and the
    /// element it binds as indices from the outermost tuple in
    /// (`local.element`): `channel()` and `[1]` for `rx` in
    /// `let (tx, rx) = channel()`, `Open(p)` and `[1]` for `err` in
    /// `f, err := Open(p)`. Asked when `local_value` finds none; none by
    /// default. The host types such a local by the element of the value's
    /// stated tuple type (`declared-type.element`).
    fn destructured_value<'t>(_name: Node<'t>, _source: &str) -> Option<(Node<'t>, Vec<u32>)> {
        None
    }

    /// The collection the binding named by `name` iterates, when it is a
    /// loop variable: `xs` in `for x in xs`, `foreach (var x in xs)`,
    /// `for (const x of xs)`. Its value is then one element of the
    /// collection's (`receiver.indexed`), typed by the collection's stated
    /// element type (the declared-type source `element`). Asked when
    /// `local_value` and `destructured_value` find none; none by default.
    fn iterated_value<'t>(_name: Node<'t>, _source: &str) -> Option<Node<'t>> {
        None
    }

    /// When the expression `node` is a value of the type of an expression
    /// inside it (Rust's `x.clone()`), that expression, looked through like
    /// the transparent ones. None by default.
    fn same_type_value<'t>(_node: Node<'t>, _source: &str) -> Option<Node<'t>> {
        None
    }

    /// When the expression `node` reaches one element of a collection
    /// (`xs[i]`), the collection's expression (`xs`): the value is then
    /// one element of the collection's (`receiver.indexed`), typed by its
    /// stated element type (the declared-type source `element`). For a
    /// language whose collections have members of their own; see
    /// [`Self::element_expressions`] for one whose collections are stated
    /// by their element's type. None by default.
    fn indexed_collection<'t>(_node: Node<'t>, _source: &str) -> Option<Node<'t>> {
        None
    }

    /// What narrows the type of the value the name `value` reads (a
    /// local's or parameter's, as a member access's receiver) where it is
    /// read: the type node tested for (`T` of `isinstance(x, T)` before
    /// it or around it), or the call of a function that may be a guard
    /// (`is_ready(x)` of `assert is_ready(x)`), whose declaration then
    /// states the declared-type source `narrowed`. The host types the read
    /// by it when it resolves to either, and as before otherwise. The walk
    /// must be bounded by the tree (`document.narrowings`). None by
    /// default.
    fn narrowed_by<'t>(_value: Node<'t>, _source: &str) -> Option<Node<'t>> {
        None
    }

    /// How many arguments a call of the declaration `node` takes
    /// (`symbol.arity`), for functions, methods and constructors whose
    /// overloads calls tell apart by argument count. None by default: the
    /// host then keeps every same-named candidate.
    fn arity(_node: Node, _source: &str) -> Option<Arity> {
        None
    }

    /// How many arguments the call or object creation `call` (the node a
    /// `@reference.call` pattern tags) passes (`reference.arguments`). By
    /// default the named children of its `arguments` field, comments left
    /// out; none when it has no such field or an argument is spread
    /// (`f(...xs)`, `f(xs...)`), since the count is then unknown.
    fn call_arguments(call: Node) -> Option<u32> {
        let arguments = call.child_by_field_name("arguments")?;
        let mut cursor = arguments.walk();
        let mut count = 0;
        for child in arguments.children(&mut cursor) {
            if child.kind().contains("spread") || child.kind().starts_with("variadic") {
                return None;
            }
            if child.is_named() && !child.is_extra() {
                count += 1;
            }
        }
        Some(count)
    }

    /// Expression kinds that only wrap the value inside them, looked
    /// through to find a member access's receiver (`(p).name`). By default
    /// parentheses; a language adds `await`, non-null assertions and the
    /// like where its grammar has them.
    fn transparent_expressions() -> &'static [&'static str] {
        &["parenthesized_expression"]
    }

    /// Expression kinds that reach an element of the collection their first
    /// child holds (Go's `xs[i]`, `xs[i:j]`), looked through like the
    /// transparent ones: for a language that states a collection's type by
    /// its element's (Go's `[]T`, `map[K]T`, whose values have no members
    /// of their own), the element's type is the type of the collection's
    /// value. None by default.
    fn element_expressions() -> &'static [&'static str] {
        &[]
    }

    /// The node naming the type of a literal expression `value` (Go's
    /// `T{..}`, Rust's `T { .. }`), whose value is of that type: a member
    /// reached through the literal (`(&T{}).M()`) is the type's. The type
    /// reference must be tagged at that node (TypeScript: `T` of `const xs:
    /// T[] = [{ .. }]` for the literal element). `source` is the tree's
    /// text. None by default.
    fn literal_type<'t>(_value: Node<'t>, _source: &str) -> Option<Node<'t>> {
        None
    }

    /// The name of the value a literal expression `value` takes its type
    /// from where it is written, when no type is named for it (TypeScript's
    /// `{ b: 1 }` as the value of the key `a` in `{ a: { b: 1 } }`, or of
    /// `x.a` in `x.a = { b: 1 }`): a member reached through the literal (its
    /// key `b`) is a member of that value's type. The reference must be
    /// named exactly at that node. None by default.
    fn literal_context(_value: Node) -> Option<Node> {
        None
    }

    /// The function whose parameter the literal or function expression
    /// `value` is written for, where `value` then has that parameter's
    /// type: TypeScript's `{ k: v }` in `f(a, { k: v })` (the call, `[1]`),
    /// `(x) => ..` in `const m: ErrorMap = (x) => ..` (the type, `[]`: the
    /// function is the value itself). A member reached through such a
    /// literal, and a parameter of such a function
    /// ([`Self::untyped_parameter`]), are typed by it
    /// (`document.parameter-contexts`); `{ k: v }` in `xs.push({ k: v })`
    /// is one element of `xs` ([`FunctionAt::ElementOf`]). `source` is the
    /// tree's text. The walk must be bounded by the tree. None by default.
    fn parameter_site<'t>(_value: Node<'t>, _source: &str) -> Option<ParameterSite<'t>> {
        None
    }

    /// For the name of a parameter declared without a type in a function
    /// expression, that function and the parameter's position (`x` of
    /// `(a, x) => ..`: 1). None by default.
    fn untyped_parameter(_name: Node<'_>) -> Option<(Node<'_>, u32)> {
        None
    }

    /// The LSP kind for a `definition.<tag>` capture tag.
    fn symbol_kind(tag: &str) -> SymbolKind {
        default_symbol_kind(tag)
    }

    /// The name of a `definition.<tag>` symbol when it is not the text of
    /// its `@name` capture: a declaration the source leaves unnamed (Java's
    /// anonymous class `new Base() { .. }`) gets a name no reference can
    /// spell, such as `<anonymous Base>`, its `@name` capture giving only
    /// its position. By default the capture's text.
    fn symbol_name(_tag: &str, _node: Node, _name: Node, _source: &str) -> Option<String> {
        None
    }

    /// The node that names a `definition.<tag>` symbol when it is not its
    /// `@name` capture: a node inside the declaration that says what the
    /// declaration is about where the capture is only a wrapper around it.
    /// Rust's `impl Schedule for Arc<Handle>` declares members that a call
    /// on an `Arc<Handle>` reaches through the pointer, and lingo reads
    /// `Arc<Handle>` as `Handle` wherever a type is stated: the impl is
    /// named by `Handle`. The symbol's name, name span and the position
    /// that is no reference of its own follow that node. By default the
    /// capture.
    fn symbol_name_node<'t>(
        _tag: &str,
        _node: Node<'t>,
        name: Node<'t>,
        _source: &str,
    ) -> Node<'t> {
        name
    }

    /// Whether a `definition.<tag>` match declares a symbol where it is:
    /// nested in a declaration whose tag is `container` (`None` at the top
    /// of the file). By default every match does. Python's module variables
    /// are assigned at any depth of the module's `if`, `for`, `with` and
    /// `try` blocks, while the same assignment in a function binds a local:
    /// its queries tag assignments at any depth, and this keeps those that
    /// no declaration holds.
    fn declares_within(_tag: &str, _container: Option<&str>) -> bool {
        true
    }

    /// Whether the name of a `definition.<tag>` symbol also uses a name
    /// declared elsewhere, and so is reported as a reference too (a Rust
    /// `impl` is named after the type it implements).
    fn name_is_reference(_tag: &str) -> bool {
        false
    }

    /// The declaration a word stands for where the language lets a word
    /// name a declaration by another name (Rust's `Self` inside an `impl`):
    /// that declaration's name, and the path written before it. A
    /// reference written so keeps its span (the word as written), so that a
    /// rename leaves it as it is. `None` for any other word.
    fn aliased_name(_word: Node, _source: &str) -> Option<(String, Vec<String>)> {
        None
    }

    /// The path a `@qualifier` written in a form of the language's own
    /// stands for, where its text split at the path separator does not
    /// say it (Rust's `<T as Trait>::f` is `Trait`'s member, `<T>::f`
    /// `T`'s). `None`: the text's segments, those opening with `<` left
    /// out.
    fn qualifier_path(_qualifier: Node, _source: &str) -> Option<Vec<String>> {
        None
    }

    /// Whether the body of a `definition.<tag>` symbol is a template, not
    /// code, so that no name in it is reported as a reference (the rules
    /// of a Rust `macro_rules!`: what they name is resolved where they
    /// expand).
    fn holds_no_references(_tag: &str) -> bool {
        false
    }

    /// The node whose preceding comments document the declaration `node`: a
    /// wrapper such as an `export` statement. By default the node itself.
    fn documented_node(node: Node) -> Node {
        node
    }

    /// The byte range of a declaration's head, for languages whose symbol
    /// node does not hold it (a name bound to a function value). `None`
    /// keeps the default: from the node's start to its first
    /// `signature_end_fields` child.
    fn signature_range(_node: Node, _source: &str) -> Option<(usize, usize)> {
        None
    }

    /// The declaration head as text, for languages where it is not one range
    /// of the source (the second field of C#'s `int a, b;` reads `int b`).
    /// Takes precedence over [`Self::signature_range`].
    fn signature_text(_node: Node, _source: &str) -> Option<String> {
        None
    }

    /// The byte range a declaration's span covers when it is not its node's:
    /// a C# file-scoped namespace (`namespace A;`) covers the rest of the
    /// file, and a span leaves out attributes the node holds. The symbol
    /// contains every declaration inside the node or this range. `None`
    /// keeps the node's range.
    fn symbol_range(_node: Node, _source: &str) -> Option<(usize, usize)> {
        None
    }

    /// The name of what the declaration `node` belongs to, when the
    /// structural container's own name does not say it fully (a C#
    /// namespace nested in another is `A.B`). Asked only for symbols that
    /// have a container; `None` keeps the container's name.
    fn container_name(_node: Node, _source: &str) -> Option<String> {
        None
    }

    /// The function-like node whose metrics describe the symbol `node` (the
    /// function value of a declaration that binds one). By default the node.
    fn measured_node(node: Node) -> Node {
        node
    }

    /// Bare names that, written before a member access, qualify a path
    /// rather than denote a value (`ns` of TypeScript's `import * as ns`),
    /// and dotted paths of them that are modules too (Python's `os.path`
    /// after `import os.path`, joined by the path separator, no spaces). A
    /// reference whose `@receiver` is written exactly as one of them gets
    /// it as its qualifier (split at the separator) and is not a member
    /// access.
    fn qualifying_names(_root: Node, _source: &str) -> Vec<String> {
        Vec::new()
    }

    /// Whether a member access's `@receiver` is the enclosing type's own
    /// instance (`self`, `this`). Such a reference is reported with the
    /// enclosing type's name as its qualifier (still a member access), so
    /// that the host looks the member up in that type.
    fn is_self_receiver(_receiver: Node, _source: &str) -> bool {
        false
    }

    /// Whether a member access's `@receiver` stands for the enclosing
    /// type's supertype (Python's `super()`, Java's `super`). Such a
    /// reference is reported with that supertype's path
    /// ([`Language::supertype_of`]) as its qualifier, so that the host
    /// looks the member up from that type, not from the enclosing one
    /// (which may override it). False by default.
    fn is_super_receiver(_receiver: Node, _source: &str) -> bool {
        false
    }

    /// The supertype `super` means inside the type declaration `owner`,
    /// as its path is written there (`["socketserver", "TCPServer"]`);
    /// none where it names none (no base, or none the source writes).
    fn supertype_of(_owner: Node, _source: &str) -> Option<Vec<String>> {
        None
    }

    /// The text to parse in place of `source`, when the grammar should not
    /// see all of it: as many bytes, each newline where it was, what is
    /// left out written as spaces (C#'s branches of `#if` the compiler
    /// skips). Every span still points into `source`, whose text the facts
    /// quote. An answer of another length, or with a newline moved, is
    /// ignored. By default the source is parsed as it is.
    fn parsed_text(_source: &str) -> Option<String> {
        None
    }

    /// Code the grammar left unparsed in the text `source` whose tree is
    /// `root` (see [`Embedded`]). Asked again of each embedded text once
    /// parsed, up to [`crate::MAX_EMBEDDED_DEPTH`] levels, so nested macros
    /// are found in their enclosing macro's parse; the answer for the file
    /// should not include code nested in another embedded region. An
    /// embedded text that does not parse without errors is left as the
    /// grammar parsed it.
    fn embedded_code(_root: Node, _source: &str) -> Vec<Embedded> {
        Vec::new()
    }

    /// The code the file's macro invocations make, for a language whose
    /// macros make declarations (Rust's `macro_rules!`). Each expansion is
    /// parsed as a document of its own; its symbols, references, locals and
    /// imports become the file's, placed at the invocation's tokens they
    /// came from (see [`crate::Expanded`]). At most
    /// [`crate::MAX_EXPANSIONS`] per file are kept.
    ///
    /// `given` are definitions from other files the host found for the
    /// names the file invokes without defining them (see
    /// [`Self::macro_definitions`]); invocations still left unexpanded are
    /// reported with why, so that answers can say what they may miss.
    fn expansions(
        _root: Node,
        _source: &str,
        _given: &[crate::types::MacroSource],
    ) -> crate::Expansions {
        crate::Expansions::default()
    }

    /// The macros the file defines that other files may invoke (Rust's
    /// `macro_rules!`), for the host to hand to the files that invoke
    /// them through [`Self::expansions`]' `given`.
    fn macro_definitions(_root: Node, _source: &str) -> Vec<crate::DefinedMacro> {
        Vec::new()
    }

    /// The doc text of a comment, or `None` when it is not a doc comment.
    fn doc_comment(_comment: &str) -> Option<String> {
        None
    }

    /// The doc text of the comment node `comment`, or `None` when it is not
    /// a doc comment. By default [`Self::doc_comment`] of its text; a
    /// language can also look at where the comment sits (in Go, a comment
    /// that ends a line of code is about that code, not the next line).
    fn doc_comment_node(comment: Node, source: &str) -> Option<String> {
        Self::doc_comment(&source[comment.byte_range()])
    }

    /// Documentation written inside the declaration `node` instead of in
    /// comments before it: a Python docstring (the body's first statement,
    /// a string). Asked only when no doc comment precedes the declaration.
    /// None by default.
    fn inner_documentation(_node: Node, _source: &str) -> Option<String> {
        None
    }

    /// Visibility of a declaration node.
    fn visibility(_node: Node, _source: &str) -> Visibility {
        Visibility::Unspecified
    }

    /// Visibility of the name `name` declared by `node`, for declarations of
    /// several names whose visibility differs (Go's `var Exported, local int`).
    /// By default [`Self::visibility`] of the node.
    fn name_visibility(node: Node, _name: Node, source: &str) -> Visibility {
        Self::visibility(node, source)
    }

    /// What token `node` is, taken whole (the WIT `document.tokens`), or
    /// `None` to leave it to the SDK: comments and literals are taken
    /// whole, other leaves classified by [`crate::default_token_kind`].
    /// Needed only where the grammar's node kinds mislead the default (a
    /// keyword the grammar names as a node, a literal kind named oddly).
    fn token_kind(_node: Node, _source: &str) -> Option<TokenKind> {
        None
    }

    /// Modifiers of a declaration node, in source order.
    fn modifiers(_node: Node, _source: &str) -> Vec<String> {
        Vec::new()
    }

    /// Edits that re-export `names` of `module_path` publicly from the
    /// document (`edits.render-reexport`), so that what moved there stays
    /// reachable by the document's module. Unsupported by default.
    fn render_reexport(
        _root: Node,
        _source: &str,
        _module_path: &str,
        _names: &[String],
    ) -> Result<Vec<TextEdit>, PluginError> {
        Err(PluginError::Unsupported(format!(
            "{}: render-reexport",
            Self::NAME
        )))
    }

    /// The byte range `[start, end)` that moving or deleting the
    /// declaration whose symbol span is `start..end` takes out of the
    /// source: doc comments, attributes and wrapper included, whole lines
    /// through the line break after it (`declaration-extent`). Use
    /// [`crate::extent::whole_lines`] for the line rounding.
    fn declaration_extent(
        _root: Node,
        _source: &str,
        _start: usize,
        _end: usize,
    ) -> Result<(usize, usize), PluginError> {
        Err(PluginError::Unsupported(format!(
            "{}: declaration-extent",
            Self::NAME
        )))
    }

    /// Edits to the target document (`target_root`, `target_source`; empty
    /// for a file the move creates) that add the declaration at
    /// `start..end` of the source, rendered for `target_module`
    /// (`place-declaration`).
    fn place_declaration(
        _source_root: Node,
        _source: &str,
        _start: usize,
        _end: usize,
        _target_root: Node,
        _target_source: &str,
        _target_module: &str,
    ) -> Result<Vec<TextEdit>, PluginError> {
        Err(PluginError::Unsupported(format!(
            "{}: place-declaration",
            Self::NAME
        )))
    }

    /// How a file of module `importer` writes an import of module `target`
    /// (`import-specifier`); `resolve_import` of the answer must give
    /// `target` back.
    fn import_specifier(
        _importer: &ModuleIdentity,
        _target: &ModuleIdentity,
        _manifests: &[Manifest],
    ) -> Result<String, PluginError> {
        Err(PluginError::Unsupported(format!(
            "{}: import-specifier",
            Self::NAME
        )))
    }

    /// The files that may declare the new file `path` as a module, in the
    /// order the host tries them (`module-declarers`). None by default:
    /// files are modules by themselves.
    fn module_declarers(_path: &str) -> Vec<String> {
        Vec::new()
    }

    /// Edits to a parent document that declare the new file `path` as its
    /// module (`edits.declare-module`). Unsupported by default.
    fn declare_module(
        _root: Node,
        _source: &str,
        _path: &str,
    ) -> Result<Vec<TextEdit>, PluginError> {
        Err(PluginError::Unsupported(format!(
            "{}: declare-module",
            Self::NAME
        )))
    }

    /// Edits that write out in full the shorthand whose name is `name`
    /// (`{ body }`, `Point { x }`), the member spelled `member` and the
    /// value `value` (`edits.write-out-shorthand`, ABI 0.17.0). `name` is
    /// the smallest node spanning the name's bytes; `InvalidInput` when it
    /// is no shorthand's name. Unsupported by default: a language without
    /// shorthands.
    fn write_out_shorthand(
        _name: Node,
        _source: &str,
        _member: &str,
        _value: &str,
    ) -> Result<Vec<TextEdit>, PluginError> {
        Err(PluginError::Unsupported(format!(
            "{}: write-out-shorthand",
            Self::NAME
        )))
    }
}

/// The conventional mapping of tags-style capture names to LSP kinds.
pub fn default_symbol_kind(tag: &str) -> SymbolKind {
    match tag {
        "function" | "macro" | "delegate" | "arrow_function" => SymbolKind::Function,
        "method" => SymbolKind::Method,
        "constructor" => SymbolKind::Constructor,
        "class" => SymbolKind::Class,
        "struct" | "union" | "record_struct" => SymbolKind::Struct,
        "record" => SymbolKind::Class,
        "enum" => SymbolKind::Enum,
        "enum_member" | "variant" => SymbolKind::EnumMember,
        "interface" | "trait" => SymbolKind::Interface,
        "module" | "mod" => SymbolKind::Module,
        "namespace" => SymbolKind::Namespace,
        "package" => SymbolKind::Package,
        "constant" | "const" => SymbolKind::Constant,
        "static" | "variable" | "var" | "let" => SymbolKind::Variable,
        "field" => SymbolKind::Field,
        "property" => SymbolKind::Property,
        "event" => SymbolKind::Event,
        "type" | "type_alias" | "type_parameter" | "associated_type" => SymbolKind::TypeParameter,
        "impl" => SymbolKind::Object,
        "operator" => SymbolKind::Operator,
        _ => SymbolKind::Variable,
    }
}

/// Where a function is named whose parameter a value is written for
/// ([`Language::parameter_site`]).
#[derive(Clone, Copy, Debug)]
pub enum FunctionAt<'t> {
    /// A call or object creation, whose reference is tagged at this node:
    /// the function it calls.
    Callee(Node<'t>),
    /// A type of a function type, whose reference is tagged at this node.
    Type(Node<'t>),
    /// A declaration, key or member of a function type, whose reference is
    /// named exactly at this node.
    Named(Node<'t>),
    /// A collection, whose value is linked as a receiver's at this node:
    /// an object literal written as one of its elements (`xs.push({ .. })`),
    /// with no parameter positions.
    ElementOf(Node<'t>),
}

/// The parameter of a function a value is written for.
#[derive(Clone, Debug)]
pub struct ParameterSite<'t> {
    pub function: FunctionAt<'t>,
    /// The parameter's position in the function's parameters, then in
    /// that parameter's own function type, outermost first; empty when the
    /// value is the function itself (a function expression written where a
    /// function type is stated).
    pub parameters: Vec<u32>,
}
