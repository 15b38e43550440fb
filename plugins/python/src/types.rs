//! The types Python source states without inference: annotations of
//! parameters, variables and attributes (`x: T`, `self.x: T = ...`),
//! return annotations (`-> T`), and variables or attributes assigned a
//! class's instance (`x = T(...)`: a called name in CapWords, the
//! convention for classes), and `e` of `except T as e`. `Optional[T]`,
//! `T | None` and `"T"` state `T`;
//! a container (`list[T]`) states no type of the workspace's, but a
//! sequence or set of one type (`list[T]`, `Sequence[T]`, `set[T]`)
//! states its element's.

use lingo_plugin_sdk::LineIndex;
use lingo_plugin_sdk::declared::{Targets, Written, preorder_over_targets};
use lingo_plugin_sdk::source::text;
use lingo_plugin_sdk::types::{DeclaredTarget, DeclaredType, DeclaredTypeSource, Local, Symbol};
use tree_sitter::Node;

/// Generic types that hold or describe values of their arguments rather
/// than being one: `list[User]` is not a `User`.
const CONTAINERS: &[&str] = &[
    "list",
    "dict",
    "set",
    "frozenset",
    "tuple",
    "type",
    "List",
    "Dict",
    "Set",
    "FrozenSet",
    "Tuple",
    "Type",
    "Sequence",
    "MutableSequence",
    "Iterable",
    "Iterator",
    "Generator",
    "Mapping",
    "MutableMapping",
    "Callable",
    "Awaitable",
    "Coroutine",
    "AsyncIterator",
    "AsyncIterable",
    "Collection",
    "Container",
    "Literal",
    "ClassVar",
    "Final",
    "Annotated",
];

/// Containers of one type argument whose elements are values of it: what
/// indexing one (a sequence) or a `for` over it gives. Mappings are not
/// among them: iterating one gives its keys.
const SEQUENCES: &[&str] = &[
    "list",
    "set",
    "frozenset",
    "List",
    "Set",
    "FrozenSet",
    "Sequence",
    "MutableSequence",
    "AbstractSet",
    "MutableSet",
    "Iterable",
    "Iterator",
    "Collection",
    "Deque",
    "deque",
];

/// Wrappers whose one argument is the value's type.
const OPTIONAL: &[&str] = &["Optional"];

/// The return annotations of guard functions (`-> TypeIs[T]`), whose true
/// result proves the first argument a `T`.
const GUARDS: &[&str] = &["TypeIs", "TypeGuard"];

/// The declared types of the file whose tree is `root`.
pub fn declared_types(
    root: Node,
    source: &str,
    lines: &LineIndex,
    symbols: &[Symbol],
    locals: &[Local],
) -> Vec<DeclaredType> {
    let context = Context {
        source,
        lines,
        targets: Targets::new(symbols, locals),
    };
    let mut out = Vec::new();
    // Each type below is found at a node that holds its target's name.
    preorder_over_targets(root, symbols, locals, |node| context.visit(node, &mut out));
    out
}

struct Context<'a> {
    source: &'a str,
    lines: &'a LineIndex,
    targets: Targets,
}

impl<'a> Context<'a> {
    fn visit(&self, node: Node, out: &mut Vec<DeclaredType>) {
        match node.kind() {
            "typed_parameter" => {
                let mut cursor = node.walk();
                let name = node
                    .named_children(&mut cursor)
                    .find(|c| c.kind() == "identifier");
                if let (Some(name), Some(ty)) = (name, node.child_by_field_name("type")) {
                    self.annotated(out, name, ty, DeclaredTypeSource::Annotation);
                }
            }
            "typed_default_parameter" => {
                if let (Some(name), Some(ty)) = (
                    node.child_by_field_name("name"),
                    node.child_by_field_name("type"),
                ) {
                    self.annotated(out, name, ty, DeclaredTypeSource::Annotation);
                }
            }
            "function_definition" => {
                let (Some(name), Some(ty)) = (
                    node.child_by_field_name("name"),
                    node.child_by_field_name("return_type"),
                ) else {
                    return;
                };
                // `-> TypeIs[T]`, `-> TypeGuard[T]`: a `bool` whose being
                // true proves the first argument a `T`.
                if let Some(proven) = self.guarded(ty) {
                    let stated = self.target(name).zip(self.stated(proven));
                    if let Some((target, written)) = stated {
                        out.push(written.declared(
                            target,
                            self.source,
                            self.lines,
                            DeclaredTypeSource::Narrowed,
                        ));
                    }
                    return;
                }
                match tuple_items(ty, self.source) {
                    // `-> tuple[Reader, Writer]`: each element, which
                    // `r, w = open_pair()` destructures.
                    Some(items) => {
                        for (index, item) in items.into_iter().enumerate() {
                            let before = out.len();
                            self.annotated(out, name, item, DeclaredTypeSource::ReturnType);
                            if let Some(pushed) = out.get_mut(before) {
                                pushed.element = vec![index as u32];
                            }
                        }
                    }
                    None => self.annotated(out, name, ty, DeclaredTypeSource::ReturnType),
                }
            }
            "assignment" => self.assignment(node, out),
            // `except ValueError as e`: `e` is a `ValueError`.
            "except_clause" => {
                let caught = node
                    .child_by_field_name("value")
                    .filter(|v| v.kind() == "as_pattern");
                let Some(caught) = caught else { return };
                let alias = caught
                    .child_by_field_name("alias")
                    .and_then(|a| a.named_child(0))
                    .filter(|a| a.kind() == "identifier");
                let written = caught.named_child(0).and_then(|ty| self.named(ty));
                if let (Some(alias), Some(written)) = (alias, written)
                    && let Some(target) = self.targets.local(alias)
                {
                    out.push(written.declared(
                        target,
                        self.source,
                        self.lines,
                        DeclaredTypeSource::Annotation,
                    ));
                }
            }
            _ => {}
        }
    }

    /// `x: T`, `x: T = v`, `x = T(..)`, and the same of `self.x`.
    fn assignment(&self, node: Node, out: &mut Vec<DeclaredType>) {
        let Some(left) = node.child_by_field_name("left") else {
            return;
        };
        let name = match left.kind() {
            "identifier" => left,
            "attribute" => match left.child_by_field_name("attribute") {
                Some(attribute) => attribute,
                None => return,
            },
            _ => return,
        };
        if let Some(ty) = node.child_by_field_name("type") {
            self.annotated(out, name, ty, DeclaredTypeSource::Annotation);
        } else if let Some(value) = node.child_by_field_name("right") {
            self.constructed(out, name, value);
        }
    }

    /// `x = T(..)`, `x = m.T(..)` where `T` is in CapWords.
    fn constructed(&self, out: &mut Vec<DeclaredType>, name: Node, value: Node) {
        if value.kind() != "call" {
            return;
        }
        let Some(function) = value.child_by_field_name("function") else {
            return;
        };
        let Some(written) = self.named(function) else {
            return;
        };
        let type_name = text(written.name, self.source);
        let capwords = type_name.starts_with(|c: char| c.is_ascii_uppercase())
            && type_name.chars().any(|c| c.is_ascii_lowercase());
        if capwords && let Some(target) = self.target(name) {
            out.push(written.declared(
                target,
                self.source,
                self.lines,
                DeclaredTypeSource::Constructor,
            ));
        }
    }

    fn annotated(
        &self,
        out: &mut Vec<DeclaredType>,
        name: Node,
        annotation: Node,
        source: DeclaredTypeSource,
    ) {
        let Some(target) = self.target(name) else {
            return;
        };
        if let Some(written) = self.stated(annotation) {
            out.push(written.declared(target, self.source, self.lines, source));
        }
        let element = self
            .element_annotation(annotation)
            .and_then(|element| self.stated(element));
        if let Some(written) = element {
            out.push(written.declared(
                target,
                self.source,
                self.lines,
                DeclaredTypeSource::Element,
            ));
        }
    }

    /// The annotation of the elements of a sequence or set annotation
    /// (`T` of `list[T]`, `Optional[Sequence[T]]`, `set[T] | None`); `None`
    /// for any other.
    fn element_annotation<'t>(&self, annotation: Node<'t>) -> Option<Node<'t>> {
        let node = self.without_optional(annotation)?;
        let (_, last) = self.generic_base(node)?;
        SEQUENCES
            .contains(&last)
            .then(|| only_argument(node))
            .flatten()
    }

    /// `T` of a guard function's return annotation, `TypeIs[T]` or
    /// `TypeGuard[T]` (also `typing.TypeIs[T]`); `None` for any other.
    fn guarded<'t>(&self, annotation: Node<'t>) -> Option<Node<'t>> {
        let mut node = annotation;
        while node.kind() == "type" {
            node = node.named_child(0)?;
        }
        let (_, last) = self.generic_base(node)?;
        GUARDS
            .contains(&last)
            .then(|| only_argument(node))
            .flatten()
    }

    /// The annotation with what only says "or `None`" taken off: the
    /// grammar's `type` wrapper, parentheses, `Optional[..]` and the `None`
    /// side of `T | None`. `None` when neither side of a `|` is `None` or
    /// both are. Each step goes one level down the tree, so this ends.
    fn without_optional<'t>(&self, annotation: Node<'t>) -> Option<Node<'t>> {
        let mut node = annotation;
        loop {
            match node.kind() {
                "type" | "parenthesized_expression" => node = node.named_child(0)?,
                "binary_operator" => {
                    let (left, right) = (
                        node.child_by_field_name("left")?,
                        node.child_by_field_name("right")?,
                    );
                    node = match (is_none(left), is_none(right)) {
                        (false, true) => left,
                        (true, false) => right,
                        _ => return None,
                    };
                }
                "generic_type" | "subscript" => match self.generic_base(node)? {
                    (_, last) if OPTIONAL.contains(&last) => node = only_argument(node)?,
                    _ => return Some(node),
                },
                _ => return Some(node),
            }
        }
    }

    /// The base of a generic annotation (`list` of `list[T]`, `typing.List`
    /// of `typing.List[T]`) and its last word; `None` for any other node.
    fn generic_base<'t>(&self, node: Node<'t>) -> Option<(Node<'t>, &'a str)> {
        let base = match node.kind() {
            "subscript" => node.child_by_field_name("value")?,
            "generic_type" => node.named_child(0)?,
            _ => return None,
        };
        let base_name = text(base, self.source);
        Some((base, base_name.rsplit('.').next().unwrap_or(base_name)))
    }

    /// The declaration `name` names: a local, else a symbol.
    fn target(&self, name: Node) -> Option<DeclaredTarget> {
        self.targets
            .local(name)
            .or_else(|| self.targets.symbol(name))
    }

    /// The one named type an annotation states.
    fn stated<'t>(&self, annotation: Node<'t>) -> Option<Written<'t>> {
        let node = self.without_optional(annotation)?;
        match node.kind() {
            "identifier" | "attribute" => self.named(node),
            "string" => self.in_string(node),
            _ => {
                let (base, last) = self.generic_base(node)?;
                let holds_others = CONTAINERS.contains(&last) || last == "Union";
                if holds_others { None } else { self.named(base) }
            }
        }
    }

    /// `T` or `m.T` as written.
    fn named<'t>(&self, node: Node<'t>) -> Option<Written<'t>> {
        match node.kind() {
            "identifier" => Some(Written {
                name: node,
                qualifier: Vec::new(),
            }),
            "attribute" => {
                let object = node.child_by_field_name("object")?;
                let qualifier: Vec<String> = text(object, self.source)
                    .split('.')
                    .map(str::trim)
                    .map(str::to_string)
                    .collect();
                if qualifier.iter().any(|q| !is_identifier(q)) {
                    return None;
                }
                Some(Written {
                    name: node.child_by_field_name("attribute")?,
                    qualifier,
                })
            }
            _ => None,
        }
    }

    /// `"T"`: a forward reference to a class by its bare name.
    fn in_string<'t>(&self, string: Node<'t>) -> Option<Written<'t>> {
        let mut cursor = string.walk();
        let content = string
            .named_children(&mut cursor)
            .find(|c| c.kind() == "string_content")?;
        is_identifier(text(content, self.source)).then_some(Written {
            name: content,
            qualifier: Vec::new(),
        })
    }
}

/// The sequence `xs[i]` reads one element of (`xs`); none for a slice
/// (`xs[1:]`), a part of the sequence.
pub fn indexed_collection<'t>(node: Node<'t>, _source: &str) -> Option<Node<'t>> {
    if node.kind() != "subscript" {
        return None;
    }
    let mut cursor = node.walk();
    let mut subscripts = node.children_by_field_name("subscript", &mut cursor);
    let (Some(only), None) = (subscripts.next(), subscripts.next()) else {
        return None;
    };
    (only.kind() != "slice")
        .then(|| node.child_by_field_name("value"))
        .flatten()
}

/// The collection a `for` variable iterates (`xs` in `for x in xs:` and in
/// a comprehension's `for x in xs`), its name node given; none for a
/// pattern that destructures.
pub fn iterated_value(name: Node) -> Option<Node> {
    let parent = name.parent()?;
    (matches!(parent.kind(), "for_statement" | "for_in_clause")
        && parent.child_by_field_name("left") == Some(name))
    .then(|| parent.child_by_field_name("right"))
    .flatten()
}

fn is_none(node: Node) -> bool {
    matches!(node.kind(), "none")
        || (node.kind() == "type" && node.named_child(0).is_some_and(|c| c.kind() == "none"))
}

/// The element types of a fixed-length tuple annotation (`tuple[A, B]`,
/// `Tuple[A, B]`, `typing.Tuple[A, B]`); `None` for any other annotation
/// and for `tuple[A, ...]`.
fn tuple_items<'t>(annotation: Node<'t>, source: &str) -> Option<Vec<Node<'t>>> {
    let mut node = annotation;
    while node.kind() == "type" {
        node = node.named_child(0)?;
    }
    let (base, items): (Node, Vec<Node>) = match node.kind() {
        "generic_type" => {
            let base = node.named_child(0)?;
            let mut cursor = node.walk();
            let parameters = node
                .named_children(&mut cursor)
                .find(|c| c.kind() == "type_parameter")?;
            let mut cursor = parameters.walk();
            let items = parameters.named_children(&mut cursor).collect();
            (base, items)
        }
        "subscript" => {
            let base = node.child_by_field_name("value")?;
            let mut cursor = node.walk();
            let items = node
                .children_by_field_name("subscript", &mut cursor)
                .collect();
            (base, items)
        }
        _ => return None,
    };
    let base_name = text(base, source);
    let last = base_name.rsplit('.').next().unwrap_or(base_name);
    let fixed = items
        .iter()
        .all(|item| !text(*item, source).trim().starts_with("..."));
    (matches!(last, "tuple" | "Tuple") && items.len() > 1 && fixed).then_some(items)
}

/// The one type argument of `Optional[T]` or `list[T]`, in either shape
/// the grammar gives it.
fn only_argument(generic: Node) -> Option<Node> {
    let arguments = if generic.kind() == "subscript" {
        generic.child_by_field_name("subscript")?
    } else {
        let mut cursor = generic.walk();
        generic
            .named_children(&mut cursor)
            .find(|c| c.kind() == "type_parameter")?
    };
    if arguments.kind() != "type_parameter" {
        return Some(arguments);
    }
    let mut cursor = arguments.walk();
    let mut types = arguments.named_children(&mut cursor);
    match (types.next(), types.next()) {
        (Some(only), None) => Some(only),
        _ => None,
    }
}

fn is_identifier(text: &str) -> bool {
    text.starts_with(|c: char| c.is_alphabetic() || c == '_')
        && text.chars().all(|c| c.is_alphanumeric() || c == '_')
}

#[cfg(test)]
mod tests {
    use lingo_plugin_sdk::Document;
    use lingo_plugin_sdk::bindings::exports::lingo::plugin::syntax::GuestDocument;
    use lingo_plugin_sdk::declared::describe_declared_types;

    fn declared(source: &str) -> Vec<String> {
        let document = Document::<crate::Python>::new("m.py".into(), source.into());
        describe_declared_types(&document, source, ".", true)
    }

    #[test]
    fn annotations_constructions_and_returns() {
        let source = "\
class Parser:
    depth: int
    lexer: Lexer

    def __init__(self, lexer: 'Lexer', log: Optional[Logger] = None):
        self.lexer = lexer
        self.cache = Cache()
        self.items: list[Item] = []

    def make(self) -> Parser | None:
        return None

def is_ready(r: Request) -> TypeIs[ReadyRequest]:
    return True

def is_admin(u) -> typing.TypeGuard[list[Admin]]:
    return True

def run(p: models.Parser, n=3):
    q = Parser()
    r: Parser = q
    s = make_parser()
    try:
        pass
    except errors.ParseError as e:
        pass
";
        assert_eq!(
            declared(source),
            [
                "symbol depth: int annotation",
                "symbol lexer: Lexer annotation",
                "local lexer: Lexer annotation",
                "local log: Logger annotation",
                "symbol cache: Cache constructor",
                // A container is not a type, but its elements are of one.
                "symbol items: Item element",
                "symbol make: Parser return-type",
                // A guard states what its true result proves, and no
                // return type (a `bool`, whose element is nothing).
                "symbol is_ready: ReadyRequest narrowed",
                "local r: Request annotation",
                "local p: models.Parser annotation",
                "local q: Parser constructor",
                "local r: Parser annotation",
                "local e: errors.ParseError annotation",
            ]
        );
    }
}

#[cfg(test)]
mod tuple_tests {
    use lingo_plugin_sdk::Document;
    use lingo_plugin_sdk::bindings::exports::lingo::plugin::syntax::GuestDocument;
    use lingo_plugin_sdk::declared::describe_declared_types;

    /// `-> tuple[A, B]` states each element's type, and `a, b = f()` names
    /// the element each binding destructures; `tuple[A, ...]` and a value
    /// that is itself a tuple state none.
    #[test]
    fn tuple_returns_and_the_bindings_that_destructure_them() {
        let source = "\
def pair() -> tuple[Reader, Writer]:
    pass

def many() -> Tuple[Reader, ...]:
    pass

def run():
    reader, writer = pair()
    (first, (second, third)) = pair()
    x, y = 1, 2
    head, *rest = pair()
";
        let document = Document::<crate::Python>::new("m.py".into(), source.into());
        assert_eq!(
            describe_declared_types(&document, source, ".", true),
            [
                "symbol pair: Reader return-type [0]",
                "symbol pair: Writer return-type [1]",
            ]
        );
        let references = document.references();
        let values: Vec<String> = document
            .locals()
            .iter()
            .filter_map(|l| {
                let value = l.value.as_ref()?;
                let named = &references[value.reference as usize].name;
                Some(format!("{} = {named} {:?}", l.name, l.element))
            })
            .collect();
        assert_eq!(
            values,
            ["reader = pair [0]", "writer = pair [1]", "first = pair [0]"]
        );
    }
}
