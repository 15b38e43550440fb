//! The named types Java source states for declarations, read without
//! inference.

use std::collections::HashMap;

use lingo_plugin_sdk::LineIndex;
use lingo_plugin_sdk::declared::{Targets, Written, preorder_over_targets};
use lingo_plugin_sdk::types::{DeclaredTarget, DeclaredType, DeclaredTypeSource, Local, Symbol};
use tree_sitter::Node;

/// The declared types of the file whose tree is `root`.
///
/// Reported: the types of parameters (and of a record's components), of
/// local variables, enhanced-`for`, `catch` and try-with-resources
/// variables, of pattern variables (`o instanceof Foo f`, `case Foo f`), of
/// fields and constants; a `var` initialised by `new T(..)` (constructor);
/// the return types of methods and annotation elements. A type is reported
/// only when it names one: generic arguments and annotations are dropped;
/// `void`, `var`, arrays, varargs, union `catch` types and type parameters
/// are not, nor primitive types but those of fields, record components,
/// constants and returns, which tell overloads apart. Targets are only the document's symbols and
/// locals.
pub fn declared_types(
    root: Node,
    source: &str,
    lines: &LineIndex,
    symbols: &[Symbol],
    locals: &[Local],
) -> Vec<DeclaredType> {
    let mut type_parameters: HashMap<&str, Vec<(u32, u32)>> = HashMap::new();
    for local in locals
        .iter()
        .filter(|l| l.language_kind == "type_parameter")
    {
        type_parameters
            .entry(local.name.as_str())
            .or_default()
            .push((local.scope.start.offset, local.scope.end.offset));
    }
    let context = Context {
        source,
        lines,
        targets: Targets::new(symbols, locals),
        type_parameters,
    };
    let mut out = Vec::new();
    preorder_over_targets(root, symbols, locals, |node| context.visit(node, &mut out));
    out
}

struct Context<'a> {
    source: &'a str,
    lines: &'a LineIndex,
    targets: Targets,
    /// Type parameters by name, with the byte ranges they are in scope.
    type_parameters: HashMap<&'a str, Vec<(u32, u32)>>,
}

impl Context<'_> {
    fn visit(&self, node: Node, out: &mut Vec<DeclaredType>) {
        let field = |name: &str| node.child_by_field_name(name);
        match node.kind() {
            "formal_parameter" | "enhanced_for_statement" | "resource" => {
                let (Some(name), Some(ty)) = (field("name"), field("type")) else {
                    return;
                };
                if field("dimensions").is_some() {
                    return;
                }
                if is_var(ty, self.source) {
                    if let Some(created) = field("value").and_then(created_type) {
                        self.push_to(out, name, created, DeclaredTypeSource::Constructor);
                    }
                } else {
                    self.push_to(out, name, ty, DeclaredTypeSource::Annotation);
                }
            }
            "catch_formal_parameter" => {
                let mut cursor = node.walk();
                let ty = node
                    .named_children(&mut cursor)
                    .find(|c| c.kind() == "catch_type");
                let (Some(name), Some(ty)) = (field("name"), ty) else {
                    return;
                };
                let mut cursor = ty.walk();
                let types: Vec<Node> = ty.named_children(&mut cursor).collect();
                if let [only] = types.as_slice() {
                    self.push_to(out, name, *only, DeclaredTypeSource::Annotation);
                }
            }
            "instanceof_expression" => {
                if let (Some(name), Some(ty)) = (field("name"), field("right")) {
                    self.push_to(out, name, ty, DeclaredTypeSource::Annotation);
                }
            }
            "type_pattern" => {
                let mut cursor = node.walk();
                let children: Vec<Node> = node.named_children(&mut cursor).collect();
                if let [ty, name] = children.as_slice()
                    && name.kind() == "identifier"
                {
                    self.push_to(out, *name, *ty, DeclaredTypeSource::Annotation);
                }
            }
            "local_variable_declaration" | "field_declaration" | "constant_declaration" => {
                self.variables(out, node);
            }
            "method_declaration" | "annotation_type_element_declaration" => {
                let Some(target) = field("name").and_then(|n| self.targets.symbol(n)) else {
                    return;
                };
                if field("dimensions").is_some() {
                    return;
                }
                if let Some(ty) = field("type")
                    && !is_own_type_parameter(node, ty, self.source)
                {
                    self.push(out, target, ty, DeclaredTypeSource::ReturnType);
                }
            }
            _ => {}
        }
    }

    /// `T a = .., b;`: each declarator of a local, field or constant
    /// declaration; `var a = new T(..)` by its constructor.
    fn variables(&self, out: &mut Vec<DeclaredType>, declaration: Node) {
        let Some(ty) = declaration.child_by_field_name("type") else {
            return;
        };
        let implicit = is_var(ty, self.source);
        let mut cursor = declaration.walk();
        for declarator in declaration.children_by_field_name("declarator", &mut cursor) {
            let Some(name) = declarator.child_by_field_name("name") else {
                continue;
            };
            // `int a[]`: an array.
            if declarator.child_by_field_name("dimensions").is_some() {
                continue;
            }
            if !implicit {
                self.push_to(out, name, ty, DeclaredTypeSource::Annotation);
            } else if let Some(created) = declarator
                .child_by_field_name("value")
                .and_then(created_type)
            {
                self.push_to(out, name, created, DeclaredTypeSource::Constructor);
            }
        }
    }

    /// The type `ty` for the declaration named `name`, a local or a symbol.
    fn push_to(&self, out: &mut Vec<DeclaredType>, name: Node, ty: Node, how: DeclaredTypeSource) {
        let target = self
            .targets
            .local(name)
            .or_else(|| self.targets.symbol(name));
        if let Some(target) = target {
            self.push(out, target, ty, how);
        }
    }

    /// [`Context::push_type`] of `ty`, and of its element type when it is
    /// an array or a standard collection (see [`element_type`]).
    fn push(
        &self,
        out: &mut Vec<DeclaredType>,
        target: DeclaredTarget,
        ty: Node,
        how: DeclaredTypeSource,
    ) {
        self.push_type(out, target, ty, how);
        if let Some(element) = element_type(ty, self.source)
            && named_type(element, self.source).is_some()
        {
            self.push_type(out, target, element, DeclaredTypeSource::Element);
        }
    }

    fn push_type(
        &self,
        out: &mut Vec<DeclaredType>,
        target: DeclaredTarget,
        ty: Node,
        how: DeclaredTypeSource,
    ) {
        let Some(written) = named_type(ty, self.source) else {
            // A field's, constant's or return's primitive type (`int
            // size`), which tells overloads apart when it is passed.
            if matches!(
                ty.kind(),
                "integral_type" | "floating_point_type" | "boolean_type"
            ) && matches!(target, DeclaredTarget::Symbol(_))
            {
                out.push(DeclaredType {
                    target,
                    type_name: self.source[ty.byte_range()].to_string(),
                    type_qualifier: Vec::new(),
                    span: self.lines.span(self.source, ty.start_byte(), ty.end_byte()),
                    source: how,
                    element: Vec::new(),
                    arguments: Vec::new(),
                    members: Vec::new(),
                });
            }
            return;
        };
        let name = written.name;
        let type_name = &self.source[name.byte_range()];
        if written.qualifier.is_empty() && self.is_type_parameter(type_name, name.start_byte()) {
            return;
        }
        out.push(DeclaredType {
            target,
            type_name: type_name.to_string(),
            type_qualifier: written.qualifier,
            span: self
                .lines
                .span(self.source, name.start_byte(), name.end_byte()),
            source: how,
            element: Vec::new(),
            arguments: Vec::new(),
            members: Vec::new(),
        });
    }

    /// Whether `name` at `offset` is a type parameter in scope there.
    fn is_type_parameter(&self, name: &str, offset: usize) -> bool {
        let offset = offset as u32;
        self.type_parameters.get(name).is_some_and(|scopes| {
            scopes
                .iter()
                .any(|&(start, end)| start <= offset && offset < end)
        })
    }
}

/// The standard collections whose elements are values of their one type
/// argument: what an enhanced `for` over one gives. Maps are not among
/// them.
const COLLECTIONS: &[&str] = &[
    "Iterable",
    "Collection",
    "List",
    "ArrayList",
    "LinkedList",
    "CopyOnWriteArrayList",
    "Set",
    "HashSet",
    "LinkedHashSet",
    "SortedSet",
    "NavigableSet",
    "TreeSet",
    "Queue",
    "Deque",
    "ArrayDeque",
];

/// The type of the elements of a one-dimensional array or a standard
/// collection type as written: `T` of `T[]`, `List<T>`, `Iterable<T>`.
/// `None` for any other type.
pub(crate) fn element_type<'t>(ty: Node<'t>, source: &str) -> Option<Node<'t>> {
    match ty.kind() {
        "array_type" => {
            let dimensions = ty.child_by_field_name("dimensions")?;
            let mut cursor = dimensions.walk();
            let pairs = dimensions
                .children(&mut cursor)
                .filter(|c| c.kind() == "[")
                .count();
            (pairs == 1)
                .then(|| ty.child_by_field_name("element"))
                .flatten()
        }
        "generic_type" => {
            let name = named_type(ty, source)?;
            if !COLLECTIONS.contains(&&source[name.name.byte_range()]) {
                return None;
            }
            let mut cursor = ty.walk();
            let arguments = ty
                .named_children(&mut cursor)
                .find(|c| c.kind() == "type_arguments")?;
            let mut cursor = arguments.walk();
            let mut types = arguments
                .named_children(&mut cursor)
                .filter(|c| !c.is_extra());
            match (types.next(), types.next()) {
                (Some(only), None) if only.kind() != "wildcard" => Some(only),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The array `xs[i]` reads an element of (`xs`).
pub(crate) fn indexed_collection<'t>(node: Node<'t>, _source: &str) -> Option<Node<'t>> {
    (node.kind() == "array_access")
        .then(|| node.child_by_field_name("array"))
        .flatten()
}

/// The array or collection an enhanced `for` variable iterates (`xs` in
/// `for (var x : xs)`), or whose elements a lambda's parameter takes (`xs`
/// in `xs.forEach(x -> ..)` and `xs.stream().map(x -> ..)`), its name node
/// given.
pub(crate) fn iterated_value<'t>(name: Node<'t>, source: &str) -> Option<Node<'t>> {
    let parent = name.parent()?;
    match parent.kind() {
        "enhanced_for_statement" => (parent.child_by_field_name("name") == Some(name))
            .then(|| parent.child_by_field_name("value"))
            .flatten(),
        "lambda_expression" => element_lambda_collection(parent, source),
        "inferred_parameters" => {
            let mut cursor = parent.walk();
            let mut parameters = parent.named_children(&mut cursor).filter(|c| !c.is_extra());
            if (parameters.next(), parameters.next()) != (Some(name), None) {
                return None;
            }
            let lambda = parent.parent()?;
            (lambda.kind() == "lambda_expression")
                .then(|| element_lambda_collection(lambda, source))
                .flatten()
        }
        _ => None,
    }
}

/// The methods of `Iterable` and `Collection` that call a lambda given as
/// their first argument with each element.
const COLLECTION_LAMBDAS: &[&str] = &["forEach", "removeIf"];

/// The methods of `Stream` that call a lambda given as their first
/// argument with each element of the stream.
const STREAM_LAMBDAS: &[&str] = &[
    "forEach",
    "forEachOrdered",
    "map",
    "mapToInt",
    "mapToLong",
    "mapToDouble",
    "mapToObj",
    "flatMap",
    "filter",
    "peek",
    "anyMatch",
    "allMatch",
    "noneMatch",
    "takeWhile",
    "dropWhile",
];

/// The collection `xs` of `xs.forEach(x -> ..)` or `xs.stream().map(x ->
/// ..)`, where `lambda` is the first argument.
fn element_lambda_collection<'t>(lambda: Node<'t>, source: &str) -> Option<Node<'t>> {
    let list = lambda.parent()?;
    let call = list.parent()?;
    let mut cursor = list.walk();
    let first = list.named_children(&mut cursor).find(|c| !c.is_extra())?;
    if list.kind() != "argument_list" || first != lambda || call.kind() != "method_invocation" {
        return None;
    }
    let method = &source[call.child_by_field_name("name")?.byte_range()];
    let object = call.child_by_field_name("object")?;
    if COLLECTION_LAMBDAS.contains(&method) {
        return Some(object);
    }
    if !STREAM_LAMBDAS.contains(&method) || object.kind() != "method_invocation" {
        return None;
    }
    let stream = &source[object.child_by_field_name("name")?.byte_range()];
    let no_arguments = object
        .child_by_field_name("arguments")
        .is_some_and(|a| a.named_child_count() == 0);
    (no_arguments && stream == "stream")
        .then(|| object.child_by_field_name("object"))
        .flatten()
}

/// Whether the type written is `var` (no type stated).
fn is_var(ty: Node, source: &str) -> bool {
    ty.kind() == "type_identifier" && &source[ty.byte_range()] == "var"
}

/// The type of `new T(..)` (not of an anonymous class body's `new T() {}`,
/// whose type is a subclass of `T`, nor of `outer.new T()`).
fn created_type(value: Node) -> Option<Node> {
    if value.kind() != "object_creation_expression" {
        return None;
    }
    let mut cursor = value.walk();
    let anonymous_or_inner = value
        .named_children(&mut cursor)
        .any(|c| c.kind() == "class_body")
        || value.named_child(0).is_some_and(|first| {
            value.child_by_field_name("type") != Some(first)
                && !matches!(first.kind(), "type_arguments")
        });
    if anonymous_or_inner {
        return None;
    }
    value.child_by_field_name("type")
}

/// Whether the return type `ty` of the generic method `method` is one of
/// its own type parameters (`<T> T first(..)`), declared before it but
/// in scope only inside the method's node.
fn is_own_type_parameter(method: Node, ty: Node, source: &str) -> bool {
    let Some(list) = method.child_by_field_name("type_parameters") else {
        return false;
    };
    let Some(written) = named_type(ty, source) else {
        return false;
    };
    if !written.qualifier.is_empty() {
        return false;
    }
    let name = &source[written.name.byte_range()];
    let mut cursor = list.walk();
    list.named_children(&mut cursor).any(|p| {
        let mut inner = p.walk();
        p.named_children(&mut inner)
            .find(|c| c.kind() == "type_identifier")
            .is_some_and(|n| &source[n.byte_range()] == name)
    })
}

/// The outer named type of a type as written: annotations stripped, generic
/// arguments dropped, the path split off. `None` for primitive types,
/// `void`, `var`, arrays and wildcards.
pub(crate) fn named_type<'t>(ty: Node<'t>, source: &str) -> Option<Written<'t>> {
    let mut ty = ty;
    // Each step goes one level down the tree, so this ends.
    loop {
        match ty.kind() {
            "annotated_type" => {
                let mut cursor = ty.walk();
                ty = ty
                    .named_children(&mut cursor)
                    .find(|c| !c.kind().ends_with("annotation"))?;
            }
            "generic_type" => ty = ty.named_child(0)?,
            "type_identifier" => {
                if &source[ty.byte_range()] == "var" {
                    return None;
                }
                return Some(Written {
                    name: ty,
                    qualifier: Vec::new(),
                });
            }
            "scoped_type_identifier" => {
                let mut cursor = ty.walk();
                let children: Vec<Node> = ty.named_children(&mut cursor).collect();
                let name = *children.last()?;
                if name.kind() != "type_identifier" {
                    return None;
                }
                return Some(Written {
                    name,
                    qualifier: qualifier(*children.first()?, source)?,
                });
            }
            _ => return None,
        }
    }
}

/// The segments of the type path `node` (`a.b.Outer` of `a.b.Outer.Inner`),
/// outermost first, without generic arguments or annotations.
fn qualifier(node: Node, source: &str) -> Option<Vec<String>> {
    let mut parts = Vec::new();
    let mut node = node;
    // Each step goes one level down the tree, so this ends.
    loop {
        match node.kind() {
            "type_identifier" => {
                parts.push(source[node.byte_range()].to_string());
                break;
            }
            "generic_type" => node = node.named_child(0)?,
            "scoped_type_identifier" => {
                let mut cursor = node.walk();
                let children: Vec<Node> = node.named_children(&mut cursor).collect();
                let last = *children.last()?;
                parts.push(source[last.byte_range()].to_string());
                node = *children.first()?;
            }
            _ => return None,
        }
    }
    parts.reverse();
    Some(parts)
}

#[cfg(test)]
mod tests {
    use lingo_plugin_sdk::Document;
    use lingo_plugin_sdk::bindings::exports::lingo::plugin::syntax::GuestDocument;
    use lingo_plugin_sdk::declared::describe_declared_types;
    use lingo_plugin_sdk::types::Severity;

    use crate::Java;

    /// One line per declared type: target name, dotted type, source.
    fn declared_lines(source: &str) -> Vec<String> {
        let document = Document::<Java>::new("src/a/A.java".into(), source.into());
        let errors: Vec<_> = document
            .diagnostics()
            .into_iter()
            .filter(|d| matches!(d.severity, Severity::Error))
            .collect();
        assert!(errors.is_empty(), "{errors:?}");
        describe_declared_types(&document, source, ".", false)
    }

    #[test]
    fn indexing_iterating_and_element_lambdas_reach_one_element() {
        let source = "class A { void m(User[] users, java.util.List<User> more) {\n\
            var a = users[0];\n\
            for (var c : more) { c.save(); }\n\
            more.forEach(d -> d.save());\n\
            more.stream().map((e) -> e.name()).count();\n\
            more.stream().sorted().map(f -> f);\n\
            more.stream().reduce(0, (g, h) -> g);\n\
            users[1].save();\n\
            } }\n";
        let document = Document::<Java>::new("src/a/A.java".into(), source.into());
        let references = document.references();
        let value = |v| lingo_plugin_sdk::testing::describe_receiver(&references, v);
        let locals = lingo_plugin_sdk::testing::describe_local_values(&document);
        assert_eq!(
            locals,
            ["a = users[_]", "c = more[_]", "d = more[_]", "e = more[_]"]
        );
        let save = references.iter().rfind(|r| r.name == "save").unwrap();
        assert_eq!(value(save.receiver.as_ref().unwrap()), "users[_]");
    }

    #[test]
    fn declared_types_are_what_the_source_writes() {
        let source = r#"package a;
import java.io.*;

public class FrameReader<T> implements Closeable {
    private final Decoder decoder, fallback;
    private static final Options DEFAULTS = new Options();
    java.util.Map.Entry<String, Frame> entry;
    int count;
    Frame[] frames;
    T value;

    public FrameReader(InputStream input, @Nullable Logger logger) {}

    public Frame read(Buffer buffer, int n, String... rest) throws IOException {
        Decoder local = decoder;
        var frame = new Frame(buffer);
        var list = new java.util.ArrayList<Frame>();
        var made = make();
        var anonymous = new Runnable() { public void run() {} };
        for (Chunk chunk : buffer.chunks()) {}
        try (Reader reader = open(); var writer = new Writer()) {
        } catch (IOException | RuntimeException e) {
        } catch (EOFException e) {}
        if (buffer instanceof Marker marker) {}
        switch (buffer) { case Trailer t -> {} default -> {} }
        Function<Frame, Integer> size = (Frame f) -> f.length;
        return frame;
    }

    <U> U map(U u) { return u; }
    T get() { return value; }
    void close() {}
}

record Packet(Header header, int length) {}
@interface Tag { Kind kind(); }
"#;
        assert_eq!(
            declared_lines(source),
            [
                "decoder: Decoder annotation",
                "fallback: Decoder annotation",
                "DEFAULTS: Options annotation",
                "entry: java.util.Map.Entry annotation",
                "count: int annotation",
                "frames: Frame element",
                "input: InputStream annotation",
                "logger: Logger annotation",
                "read: Frame return-type",
                "buffer: Buffer annotation",
                "local: Decoder annotation",
                "frame: Frame constructor",
                "list: java.util.ArrayList constructor",
                "list: Frame element",
                "chunk: Chunk annotation",
                "reader: Reader annotation",
                "writer: Writer constructor",
                "e: EOFException annotation",
                "marker: Marker annotation",
                "t: Trailer annotation",
                "size: Function annotation",
                "f: Frame annotation",
                "header: Header annotation",
                "length: int annotation",
                "kind: Kind return-type",
            ]
        );
    }
}
