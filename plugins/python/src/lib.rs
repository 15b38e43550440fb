//! The lingo plugin for Python: tree-sitter-python plus the queries in
//! `queries/`, with Rust code only for imports, modules and packages,
//! docstrings, the underscore visibility convention and declared types.
//!
//! Written against the public SDK as any plugin author would (it started as
//! `lingo plugin new python --grammar tree-sitter-python@0.25`).

mod docstring;
mod entry;
mod imports;
mod modules;
mod narrowing;
mod types;

use lingo_plugin_sdk::types::{
    DeclaredType, Local, ModuleLayout, Symbol, TypeAnnotationPosition, Visibility,
};
use lingo_plugin_sdk::{
    EntryPointHook, ImportsHook, Language, LineIndex, MetricsConfig, ModuleResolution, Queries,
    Reachability, SymbolConfig, never_hoisted,
};
use tree_sitter::Node;

/// Python, as a lingo language.
pub struct Python;

const SYMBOLS: &str = include_str!("../queries/symbols.scm");
const REFERENCES: &str = include_str!("../queries/references.scm");
const LOCALS: &str = include_str!("../queries/locals.scm");

static SYMBOL_CONFIG: SymbolConfig = SymbolConfig {
    // A `def`'s or `class`'s head ends at its body; an assignment's at its
    // value.
    signature_end_fields: &["body", "right"],
    comment_kinds: &["comment"],
    attribute_kinds: &["decorator"],
    path_separator: ".",
};

static METRICS_CONFIG: MetricsConfig = MetricsConfig {
    function_tags: &["function", "method", "property"],
    branch_kinds: &[
        "if_statement",
        "elif_clause",
        "for_statement",
        "while_statement",
        "except_clause",
        "case_clause",
        "conditional_expression",
        "for_in_clause",
        "if_clause",
    ],
    nesting_kinds: &[
        "if_statement",
        "for_statement",
        "while_statement",
        "try_statement",
        "with_statement",
        "match_statement",
    ],
    else_kinds: &["else_clause", "elif_clause"],
    nesting_only_kinds: &["lambda", "function_definition"],
    binary_kinds: &["boolean_operator"],
    boolean_operators: &["and", "or"],
    parameters_field: "parameters",
    atomic_operand_kinds: &["string"],
};

impl Language for Python {
    const NAME: &'static str = "python";
    const VERSION: &'static str = env!("CARGO_PKG_VERSION");
    const LANGUAGES: &'static [&'static str] = &["python"];
    const EXTENSIONS: &'static [&'static str] = &["py", "pyi"];
    /// The project files whose folders (and their `src/`) are import roots.
    const MANIFESTS: &'static [&'static str] = &["pyproject.toml", "setup.py", "setup.cfg"];
    const LOCALS_NEED_A_SCOPE: bool = true;
    const REPEATS_MERGED: &'static [&'static str] = &["field"];
    const IMPORTS: Option<ImportsHook> = Some(imports::file_imports);
    const MODULE_RESOLUTION: Option<ModuleResolution> = Some(ModuleResolution {
        module_of: |_root, _source, path, manifests| modules::module_of(path, manifests),
        resolve_import: |importer, import_path, _manifests| {
            modules::resolve_import(importer, import_path)
        },
    });
    const ENTRY_POINT: Option<EntryPointHook> = Some(|node, name, enclosing, _attached, source| {
        entry::entry_point(node, name, enclosing, source)
    });
    const UNREACHABLE: Option<Reachability> = Some(Reachability {
        is_statement_block,
        leaves_block,
        hoisted: never_hoisted,
    });

    fn grammar(_path: &str) -> (&'static str, tree_sitter::Language) {
        ("python", tree_sitter_python::LANGUAGE.into())
    }

    fn queries(_language: &str) -> &'static Queries {
        lingo_plugin_sdk::cached_queries!(
            tree_sitter_python::LANGUAGE.into(),
            SYMBOLS,
            REFERENCES,
            LOCALS
        )
    }

    fn symbol_config() -> &'static SymbolConfig {
        &SYMBOL_CONFIG
    }

    /// A module variable is assigned outside every function and class
    /// (symbols.scm tags assignments at any depth): in a function the
    /// assignment binds a local, in a class body a class attribute.
    fn declares_within(tag: &str, container: Option<&str>) -> bool {
        !matches!(tag, "variable" | "constant") || container.is_none()
    }

    fn metrics_config() -> &'static MetricsConfig {
        &METRICS_CONFIG
    }

    fn policy() -> lingo_plugin_sdk::types::LanguagePolicy {
        lingo_plugin_sdk::types::LanguagePolicy {
            // Bytecode caches, virtual environments, installed packages and
            // build output (hidden folders such as `.venv` are skipped anyway).
            skip_dirs: vec![
                "__pycache__".into(),
                "venv".into(),
                "site-packages".into(),
                "build".into(),
                "dist".into(),
            ],
            // Members are always reached through `self.` or `cls.`.
            bare_names_reach_members: false,
            type_annotation: TypeAnnotationPosition::AfterName,
            module_layout: ModuleLayout::FilePerModule,
            // Circular imports work in Python when names are used late.
            cyclic_imports: true,
            enclosing_modules_visible: false,
            // Attributes and methods share the class's namespace: `self.m`
            // read without a call is a bound method.
            members_share_one_namespace: true,
            // `_`-names are unused by convention; `self` and `cls` are the
            // receiver a method is handed.
            unused_locals: lingo_plugin_sdk::types::NameRule {
                names: vec!["self".into(), "cls".into()],
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

    /// A decorated definition's comments sit above its decorators.
    fn documented_node(node: Node) -> Node {
        node.parent()
            .filter(|p| p.kind() == "decorated_definition")
            .unwrap_or(node)
    }

    /// A `def`'s head ends with its parameters or return annotation, a
    /// `class`'s with its bases: not at the body, which comments before the
    /// first statement would join.
    fn signature_range(node: Node, _source: &str) -> Option<(usize, usize)> {
        let last = match node.kind() {
            "function_definition" => node
                .child_by_field_name("return_type")
                .or_else(|| node.child_by_field_name("parameters"))?,
            "class_definition" => node
                .child_by_field_name("superclasses")
                .or_else(|| node.child_by_field_name("type_parameters"))
                .or_else(|| node.child_by_field_name("name"))?,
            _ => return None,
        };
        Some((node.start_byte(), last.end_byte()))
    }

    fn inner_documentation(node: Node, source: &str) -> Option<String> {
        docstring::of(node, source)
    }

    /// `_name` is private by convention; `__name__` (a special method) is not.
    fn name_visibility(_node: Node, name: Node, source: &str) -> Visibility {
        let name = &source[name.byte_range()];
        if name.starts_with('_') && !(name.starts_with("__") && name.ends_with("__")) {
            Visibility::Private
        } else {
            Visibility::Public
        }
    }

    /// `async def`: the one modifier a Python declaration has.
    fn modifiers(node: Node, _source: &str) -> Vec<String> {
        if node.kind() == "function_definition"
            && node.child(0).is_some_and(|c| c.kind() == "async")
        {
            vec!["async".into()]
        } else {
            Vec::new()
        }
    }

    /// `self.x` and `cls.x` reach the members of the class around them.
    fn is_self_receiver(receiver: Node, source: &str) -> bool {
        receiver.kind() == "identifier" && matches!(&source[receiver.byte_range()], "self" | "cls")
    }

    /// `super()`, `super(Cls, self)`.
    fn is_super_receiver(receiver: Node, source: &str) -> bool {
        receiver.kind() == "call"
            && receiver
                .child_by_field_name("function")
                .is_some_and(|f| f.kind() == "identifier" && &source[f.byte_range()] == "super")
    }

    /// The first base a class lists (`class Server(socketserver.TCPServer,
    /// Mixin)`), which `super()` reaches first.
    fn supertype_of(owner: Node, source: &str) -> Option<Vec<String>> {
        if owner.kind() != "class_definition" {
            return None;
        }
        let bases = owner.child_by_field_name("superclasses")?;
        let mut cursor = bases.walk();
        let first = bases
            .named_children(&mut cursor)
            .find(|b| !matches!(b.kind(), "comment" | "keyword_argument"))?;
        matches!(first.kind(), "identifier" | "attribute").then(|| {
            source[first.byte_range()]
                .split('.')
                .map(|part| part.trim().to_string())
                .collect()
        })
    }

    /// `x = value`, `x: T = value`.
    /// `reader, writer = open_pair()`, `(a, (b, c)) = f()`: the one value
    /// destructured and the element the name binds.
    fn destructured_value<'t>(name: Node<'t>, _source: &str) -> Option<(Node<'t>, Vec<u32>)> {
        let mut node = name;
        let mut element = Vec::new();
        // Each step goes one level up, at most eight tuples deep.
        while element.len() < 8 {
            let parent = node.parent()?;
            match parent.kind() {
                "pattern_list" | "tuple_pattern" => {
                    let mut cursor = parent.walk();
                    let items: Vec<Node> = parent
                        .named_children(&mut cursor)
                        .filter(|c| c.kind() != "comment")
                        .collect();
                    if items.iter().any(|i| i.kind() == "list_splat_pattern") {
                        return None;
                    }
                    element.push(items.iter().position(|i| *i == node)? as u32);
                    node = parent;
                }
                "assignment" if !element.is_empty() => {
                    if parent.child_by_field_name("left") != Some(node) {
                        return None;
                    }
                    let value = parent.child_by_field_name("right")?;
                    if matches!(value.kind(), "expression_list" | "tuple" | "pattern_list") {
                        return None;
                    }
                    element.reverse();
                    return Some((value, element));
                }
                _ => return None,
            }
        }
        None
    }

    fn local_value(name: Node) -> Option<Node> {
        let assignment = name.parent()?;
        (assignment.kind() == "assignment" && assignment.child_by_field_name("left") == Some(name))
            .then(|| assignment.child_by_field_name("right"))
            .flatten()
    }

    /// `(x).m()`: the value is `x`'s.
    fn transparent_expressions() -> &'static [&'static str] {
        &["parenthesized_expression"]
    }

    fn indexed_collection<'t>(node: Node<'t>, source: &str) -> Option<Node<'t>> {
        types::indexed_collection(node, source)
    }

    fn iterated_value<'t>(name: Node<'t>, _source: &str) -> Option<Node<'t>> {
        types::iterated_value(name)
    }

    fn narrowed_by<'t>(value: Node<'t>, source: &str) -> Option<Node<'t>> {
        narrowing::narrowed_by(value, source)
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

    /// Names bound by imports qualify a path (`os.path`, `models.User`):
    /// a module, or a class whose members follow.
    fn qualifying_names(root: Node, source: &str) -> Vec<String> {
        imports::bound_names(root, source)
    }
}

/// A block's statements run one after another.
fn is_statement_block(node: Node) -> bool {
    matches!(node.kind(), "block" | "module")
}

/// `return`, `raise`, `break`, `continue`, and the calls that end the
/// program (`sys.exit(..)`, `os._exit(..)`).
fn leaves_block(node: Node, source: &str) -> bool {
    match node.kind() {
        "return_statement" | "raise_statement" | "break_statement" | "continue_statement" => true,
        "expression_statement" => node
            .named_child(0)
            .filter(|call| call.kind() == "call")
            .and_then(|call| call.child_by_field_name("function"))
            .is_some_and(|f| matches!(&source[f.byte_range()], "sys.exit" | "os._exit")),
        _ => false,
    }
}

lingo_plugin_sdk::export_plugin!(Python);

#[cfg(test)]
mod tests {
    use super::Python;
    use lingo_plugin_sdk::Document;
    use lingo_plugin_sdk::bindings::exports::lingo::plugin::syntax::GuestDocument;

    /// Every query compiles and captures only what the SDK reads (loading
    /// the plugin checks the same).
    #[test]
    fn queries_check() {
        lingo_plugin_sdk::testing::check_queries::<Python>();
    }

    /// The capabilities follow from the hooks the plugin provides: the same
    /// as the list it stated by hand before (in any order).
    #[test]
    fn capabilities_are_the_ones_stated_before() {
        use lingo_plugin_sdk::types::Capability;
        lingo_plugin_sdk::testing::assert_capabilities::<super::Python>(&[
            Capability::Symbols,
            Capability::References,
            Capability::Locals,
            Capability::Diagnostics,
            Capability::Metrics,
            Capability::IncrementalUpdate,
            Capability::NodeAt,
            Capability::Tokens,
            Capability::Imports,
            Capability::ModuleResolution,
            Capability::EntryPoints,
            Capability::Unreachable,
        ]);
    }

    fn symbols(source: &str) -> Vec<String> {
        let document = Document::<Python>::new("m.py".into(), source.into());
        document
            .symbols()
            .iter()
            .map(|s| {
                format!(
                    "{} {} in {:?} {}",
                    s.language_kind,
                    s.name,
                    s.container_name.as_deref().unwrap_or("-"),
                    format!("{:?}", s.visibility).trim_start_matches("Visibility::")
                )
            })
            .collect()
    }

    #[test]
    fn classes_methods_attributes_and_module_names() {
        let source = "\
MAX = 3
counter = 0
a, b = 1, 2
if TYPE_CHECKING:
    Alias = int
else:
    other = None

class Shape(Base):
    sides: int = 0

    def __init__(self, name):
        self.name = name
        self._cache = {}

    @property
    def area(self):
        return 0

    @area.setter
    def area(self, value):
        pass

    def _helper(self):
        def inner():
            pass
        return inner

def main():
    local = Shape('x')
";
        assert_eq!(
            symbols(source),
            [
                "constant MAX in \"-\" Public",
                "variable counter in \"-\" Public",
                "variable a in \"-\" Public",
                "variable b in \"-\" Public",
                "variable Alias in \"-\" Public",
                "variable other in \"-\" Public",
                "class Shape in \"-\" Public",
                "field sides in \"Shape\" Public",
                "method __init__ in \"Shape\" Public",
                "field name in \"Shape\" Public",
                "field _cache in \"Shape\" Private",
                "property area in \"Shape\" Public",
                "property area in \"Shape\" Public",
                "method _helper in \"Shape\" Private",
                "function inner in \"_helper\" Public",
                "function main in \"-\" Public",
            ]
        );
    }

    #[test]
    fn an_attribute_is_declared_once_where_first_assigned() {
        let source = "\
class Server:
    port: int

    def __init__(self):
        self.port = 0

    def run(self):
        if True:
            self.sock = open()
        self.sock = None
";
        assert_eq!(
            symbols(source),
            [
                "class Server in \"-\" Public",
                "field port in \"Server\" Public",
                "method __init__ in \"Server\" Public",
                "method run in \"Server\" Public",
                "field sock in \"Server\" Public",
            ]
        );
        let document = Document::<Python>::new("m.py".into(), source.into());
        let writes: Vec<(String, u32)> = document
            .references()
            .iter()
            .filter(|r| r.kind == lingo_plugin_sdk::types::ReferenceKind::Write)
            .map(|r| (r.name.clone(), r.span.start.line + 1))
            .collect();
        // The declaring assignment is a write too, as `self.x` reads `self`.
        assert_eq!(
            writes,
            [
                ("port".to_string(), 5),
                ("sock".to_string(), 9),
                ("sock".to_string(), 10)
            ]
        );
    }

    #[test]
    fn module_variables_at_any_depth_of_the_modules_blocks() {
        let source = "\
if chardet is not None:
    target = chardet.__name__
    for mod in list(sys.modules):
        if mod == target:
            imported_mod = sys.modules[mod]
            for key, value in pairs:
                LIMIT = key
with open(p) as fh:
    a, *rest = fh
class C:
    if flag:
        hidden = 1
def f():
    for i in x:
        y = i
";
        assert_eq!(
            symbols(source),
            [
                "variable target in \"-\" Public",
                "variable mod in \"-\" Public",
                "variable imported_mod in \"-\" Public",
                "variable key in \"-\" Public",
                "variable value in \"-\" Public",
                "constant LIMIT in \"-\" Public",
                "variable fh in \"-\" Public",
                "variable a in \"-\" Public",
                "class C in \"-\" Public",
                "function f in \"-\" Public",
            ]
        );
    }

    #[test]
    fn locals_stay_in_functions() {
        let source = "\
top = 1
def f(a, b=2, *args, c: int = 3, **kw):
    x = a
    for i, j in pairs:
        pass
    with open(p) as fh:
        pass
    return [y for y in x]
";
        let document = Document::<Python>::new("m.py".into(), source.into());
        let names: Vec<String> = document
            .locals()
            .iter()
            .map(|l| format!("{} {}", l.language_kind, l.name))
            .collect();
        assert_eq!(
            names,
            [
                "parameter a",
                "parameter b",
                "parameter args",
                "parameter c",
                "parameter kw",
                "variable x",
                "variable i",
                "variable j",
                "variable fh",
                "variable y",
            ]
        );
    }

    /// A comprehension's variable is read before its `for`: the reads are
    /// of the local, whose value is one element of what it iterates.
    #[test]
    fn a_comprehensions_variable_is_read_before_its_for() {
        let source = "\
def f(users):
    u = 0
    names = [u.name for u in users if u.active]
    return {k: v for k, v in pairs}, u
";
        let document = Document::<Python>::new("m.py".into(), source.into());
        let locals = document.locals();
        let references = document.references();
        let reads: Vec<String> = references
            .iter()
            .filter(|r| matches!(r.name.as_str(), "u" | "k" | "v"))
            .map(|r| {
                let local = r.local.map(|l| &locals[l as usize]);
                let line = local.map_or(0, |l| l.span.start.line + 1);
                format!("{} -> line {line}", r.name)
            })
            .collect();
        assert_eq!(
            reads,
            [
                "u -> line 3",
                "u -> line 3",
                "k -> line 4",
                "v -> line 4",
                "u -> line 2"
            ]
        );
        let comprehension_u = locals.iter().rfind(|l| l.name == "u").unwrap();
        let value = comprehension_u.value.as_ref().unwrap();
        assert!(value.indexed);
        assert_eq!(references[value.reference as usize].name, "users");
    }
}
