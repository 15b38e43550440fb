//! The named types C# source states for declarations, read without inference.

use std::collections::HashMap;

use lingo_plugin_sdk::LineIndex;
use lingo_plugin_sdk::declared::{Targets, Written, preorder_over_targets};
use lingo_plugin_sdk::types::{DeclaredTarget, DeclaredType, DeclaredTypeSource, Local, Symbol};
use tree_sitter::Node;

/// Names the grammar parses as identifiers that are not named types.
const NOT_TYPES: &[&str] = &["var", "dynamic"];

/// The declared types of the file whose tree is `root`.
///
/// Reported: the types of parameters (and of a record's positional
/// properties), of local variables, `foreach`, `catch`, `out`, LINQ range
/// and pattern variables (`is T t`, `case T { .. } t`), of fields, events,
/// properties and indexers; a `var` initialised by `new T(..)`
/// (constructor); the return types of methods, local functions and
/// operators; an extension method's `this` parameter's type as the method's
/// receiver. A type is reported only when it names one: `ref`, `scoped` and
/// `?` are stripped, generic arguments dropped; `var`, `dynamic`, arrays,
/// tuples, pointers and type parameters are not, nor predefined types
/// (`int`, `object`...) but those of fields, properties and returns
/// (`void` aside), which tell overloads apart. An array's or a standard
/// collection's element type (`T[]`, `List<T>`, `IEnumerable<T>`) is
/// reported as the `element` of what holds or returns one. Targets are
/// only the document's symbols and locals.
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
    // Each type below is found at a node that holds its target's name.
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
            "catch_declaration"
            | "from_clause"
            | "declaration_pattern"
            | "recursive_pattern"
            | "declaration_expression" => {
                if let (Some(name), Some(ty)) = (field("name"), field("type")) {
                    self.annotated(out, name, ty);
                }
            }
            // A parameter is a local; a record's positional parameter is a
            // property (a symbol). `params T[] xs` puts its type and name
            // straight into the list.
            "parameter_list" | "bracketed_parameter_list" => {
                let mut cursor = node.walk();
                let mut ty = None;
                let mut more = cursor.goto_first_child();
                while more {
                    let child = cursor.node();
                    if child.kind() == "parameter" {
                        let name = child.child_by_field_name("name");
                        if let (Some(name), Some(ty)) = (name, child.child_by_field_name("type")) {
                            self.annotated(out, name, ty);
                        }
                    } else {
                        match cursor.field_name() {
                            Some("type") => ty = Some(child),
                            Some("name") => {
                                if let Some(ty) = ty.take() {
                                    self.annotated(out, child, ty);
                                }
                            }
                            _ => {}
                        }
                    }
                    more = cursor.goto_next_sibling();
                }
            }
            "variable_declaration" => self.variables(out, node),
            "foreach_statement" => {
                if let (Some(name), Some(ty)) = (field("left"), field("type"))
                    && name.kind() == "identifier"
                {
                    self.annotated(out, name, ty);
                }
            }
            "property_declaration" | "event_declaration" => {
                if let (Some(name), Some(ty)) = (field("name"), field("type")) {
                    self.annotated(out, name, ty);
                }
            }
            "indexer_declaration" => {
                let mut cursor = node.walk();
                let this = node.children(&mut cursor).find(|c| c.kind() == "this");
                if let (Some(this), Some(ty)) = (this, field("type")) {
                    self.annotated(out, this, ty);
                }
            }
            "method_declaration" => {
                let Some(target) = field("name").and_then(|n| self.targets.symbol(n)) else {
                    return;
                };
                if let Some(ty) = field("returns")
                    && !is_own_type_parameter(node, ty, self.source)
                {
                    self.push(out, target, ty, DeclaredTypeSource::ReturnType);
                }
                if let Some(ty) = field("parameters").and_then(|p| self.this_parameter(p)) {
                    self.push(out, target, ty, DeclaredTypeSource::Receiver);
                }
            }
            "local_function_statement" => {
                let target = field("name").and_then(|n| self.targets.symbol(n));
                if let (Some(target), Some(ty)) = (target, field("type"))
                    && !is_own_type_parameter(node, ty, self.source)
                {
                    self.push(out, target, ty, DeclaredTypeSource::ReturnType);
                }
            }
            // What invoking a value of the delegate type returns.
            "delegate_declaration" => {
                let target = field("name").and_then(|n| self.targets.symbol(n));
                if let (Some(target), Some(ty)) = (target, field("type"))
                    && !is_own_type_parameter(node, ty, self.source)
                {
                    self.push(out, target, ty, DeclaredTypeSource::ReturnType);
                }
            }
            "operator_declaration" => {
                let target = field("operator").and_then(|n| self.targets.symbol(n));
                if let (Some(target), Some(ty)) = (target, field("type")) {
                    self.push(out, target, ty, DeclaredTypeSource::ReturnType);
                }
            }
            // Named after the type it converts to.
            "conversion_operator_declaration" => {
                if let Some(ty) = field("type")
                    && let Some(target) = self.targets.symbol(ty)
                {
                    self.push(out, target, ty, DeclaredTypeSource::ReturnType);
                }
            }
            _ => {}
        }
    }

    /// `T a = .., b;`: each declarator of a local or field declaration;
    /// `var a = new T(..)` by its constructor.
    fn variables(&self, out: &mut Vec<DeclaredType>, declaration: Node) {
        let Some(ty) = declaration.child_by_field_name("type") else {
            return;
        };
        let implicit = ty.kind() == "implicit_type";
        let mut cursor = declaration.walk();
        for declarator in declaration.children(&mut cursor) {
            if declarator.kind() != "variable_declarator" {
                continue;
            }
            let Some(name) = declarator.child_by_field_name("name") else {
                continue;
            };
            let Some(target) = self.target(name) else {
                continue;
            };
            if !implicit {
                self.push(out, target, ty, DeclaredTypeSource::Annotation);
            } else if let Some(created) = initializer(declarator)
                .filter(|v| v.kind() == "object_creation_expression")
                .and_then(|v| v.child_by_field_name("type"))
            {
                self.push(out, target, created, DeclaredTypeSource::Constructor);
            }
        }
    }

    /// The type of an extension method's `this` parameter.
    fn this_parameter<'t>(&self, parameters: Node<'t>) -> Option<Node<'t>> {
        let mut cursor = parameters.walk();
        let first = parameters
            .named_children(&mut cursor)
            .find(|c| c.kind() != "attribute_list")?;
        if first.kind() != "parameter" {
            return None;
        }
        let mut cursor = first.walk();
        let is_this = first
            .children(&mut cursor)
            .any(|c| c.kind() == "modifier" && &self.source[c.byte_range()] == "this");
        if is_this {
            first.child_by_field_name("type")
        } else {
            None
        }
    }

    /// The type `ty` written for the declaration named `name`, a local or a
    /// symbol.
    fn annotated(&self, out: &mut Vec<DeclaredType>, name: Node, ty: Node) {
        if let Some(target) = self.target(name) {
            self.push(out, target, ty, DeclaredTypeSource::Annotation);
        }
    }

    /// [`Context::push_type`] of `ty`, and of its element type when it is
    /// an array or a standard collection (see [`element_type`]).
    fn push(
        &self,
        out: &mut Vec<DeclaredType>,
        target: DeclaredTarget,
        ty: Node,
        source: DeclaredTypeSource,
    ) {
        self.push_type(out, target, ty, source);
        if source != DeclaredTypeSource::Receiver
            && let Some(element) = element_type(ty, self.source)
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
        source: DeclaredTypeSource,
    ) {
        let Some(written) = named_type(ty, self.source) else {
            // A field's, property's or return's built-in type (`uint
            // Length`), which tells overloads apart when it is passed.
            if ty.kind() == "predefined_type"
                && matches!(target, DeclaredTarget::Symbol(_))
                && &self.source[ty.byte_range()] != "void"
            {
                out.push(DeclaredType {
                    target,
                    type_name: self.source[ty.byte_range()].to_string(),
                    type_qualifier: Vec::new(),
                    span: self.lines.span(self.source, ty.start_byte(), ty.end_byte()),
                    source,
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
            source,
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

    fn target(&self, name: Node) -> Option<DeclaredTarget> {
        self.targets
            .local(name)
            .or_else(|| self.targets.symbol(name))
    }
}

/// Whether the return type `ty` of the generic function `function` is one of
/// its type parameters, which are declared after it (`T First<T>(..)`) and
/// so are not yet in scope as locals there.
fn is_own_type_parameter(function: Node, ty: Node, source: &str) -> bool {
    let Some(list) = function.child_by_field_name("type_parameters") else {
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
        p.child_by_field_name("name")
            .is_some_and(|n| &source[n.byte_range()] == name)
    })
}

/// The standard collections whose elements are values of their one type
/// argument: what indexing one (where it has an indexer) or a `foreach`
/// over it gives. Dictionaries are not among them: indexing one gives a
/// value, iterating it a key and value pair.
const COLLECTIONS: &[&str] = &[
    "List",
    "IList",
    "IReadOnlyList",
    "ICollection",
    "IReadOnlyCollection",
    "IEnumerable",
    "Collection",
    "ReadOnlyCollection",
    "ObservableCollection",
    "HashSet",
    "ISet",
    "SortedSet",
    "Queue",
    "Stack",
    "LinkedList",
    "ImmutableArray",
    "ImmutableList",
];

/// The type of the elements of an array or standard collection type as
/// written: `T` of `T[]`, `List<T>`, `IEnumerable<T>`, `T[]?`. `None` for
/// any other type, whose indexer the source may define.
pub(crate) fn element_type<'t>(ty: Node<'t>, source: &str) -> Option<Node<'t>> {
    let mut ty = ty;
    // Each step goes one level down the tree, so this ends.
    loop {
        match ty.kind() {
            "ref_type" | "scoped_type" | "nullable_type" => {
                ty = ty.child_by_field_name("type")?;
            }
            "array_type" => return ty.child_by_field_name("type"),
            "qualified_name" | "alias_qualified_name" => ty = ty.child_by_field_name("name")?,
            "generic_name" => {
                let name = simple_name(ty)?;
                if !COLLECTIONS.contains(&&source[name.byte_range()]) {
                    return None;
                }
                let mut cursor = ty.walk();
                let arguments = ty
                    .named_children(&mut cursor)
                    .find(|c| c.kind() == "type_argument_list")?;
                let mut cursor = arguments.walk();
                let mut types = arguments
                    .named_children(&mut cursor)
                    .filter(|c| !c.is_extra());
                return match (types.next(), types.next()) {
                    (Some(only), None) => Some(only),
                    _ => None,
                };
            }
            _ => return None,
        }
    }
}

/// The collection `xs[i]` indexes (`xs`), for one index that is not a
/// range (`xs[1..]` is a part of the collection, not an element).
pub(crate) fn indexed_collection<'t>(node: Node<'t>, _source: &str) -> Option<Node<'t>> {
    if node.kind() != "element_access_expression" {
        return None;
    }
    let subscript = node.child_by_field_name("subscript")?;
    let mut cursor = subscript.walk();
    let mut arguments = subscript
        .named_children(&mut cursor)
        .filter(|c| !c.is_extra());
    let (Some(only), None) = (arguments.next(), arguments.next()) else {
        return None;
    };
    let is_range = only.kind() == "range_expression"
        || only
            .named_child(0)
            .is_some_and(|c| c.kind() == "range_expression");
    (!is_range)
        .then(|| node.child_by_field_name("expression"))
        .flatten()
}

/// The collection a `foreach` variable iterates (`xs` in `foreach (var x
/// in xs)`), or whose elements a lambda's parameter takes (`xs` in
/// `xs.Where(x => ..)`), its name node given; none for a deconstruction.
pub(crate) fn iterated_value<'t>(name: Node<'t>, source: &str) -> Option<Node<'t>> {
    let mut node = name;
    if node.parent()?.kind() == "implicit_parameter" {
        node = node.parent()?;
    }
    let parent = node.parent()?;
    match parent.kind() {
        "foreach_statement" => (parent.child_by_field_name("left") == Some(node))
            .then(|| parent.child_by_field_name("right"))
            .flatten(),
        "lambda_expression" if node.kind() == "implicit_parameter" => {
            element_lambda_collection(parent, source)
        }
        "parameter" if parent.child_by_field_name("type").is_none() => {
            let list = parent.parent()?;
            let mut cursor = list.walk();
            let mut parameters = list.named_children(&mut cursor).filter(|c| !c.is_extra());
            if (parameters.next(), parameters.next()) != (Some(parent), None) {
                return None;
            }
            let lambda = list.parent()?;
            (lambda.kind() == "lambda_expression")
                .then(|| element_lambda_collection(lambda, source))
                .flatten()
        }
        _ => None,
    }
}

/// The standard methods (LINQ's and `List<T>`'s) that call a lambda given
/// as their first argument with each element of the collection they are
/// called on.
const ELEMENT_LAMBDAS: &[&str] = &[
    "Where",
    "Select",
    "SelectMany",
    "Any",
    "All",
    "Count",
    "First",
    "FirstOrDefault",
    "Last",
    "LastOrDefault",
    "Single",
    "SingleOrDefault",
    "OrderBy",
    "OrderByDescending",
    "GroupBy",
    "ToDictionary",
    "ToLookup",
    "Sum",
    "Min",
    "Max",
    "Average",
    "TakeWhile",
    "SkipWhile",
    "ForEach",
    "Find",
    "FindAll",
    "FindIndex",
    "FindLast",
    "Exists",
    "TrueForAll",
    "RemoveAll",
];

/// The collection `xs` of `xs.Where(x => ..)`: the receiver of one of
/// [`ELEMENT_LAMBDAS`] whose first argument is `lambda`.
fn element_lambda_collection<'t>(lambda: Node<'t>, source: &str) -> Option<Node<'t>> {
    let argument = lambda.parent()?;
    let list = argument.parent()?;
    let call = list.parent()?;
    let mut cursor = list.walk();
    let first = list.named_children(&mut cursor).find(|c| !c.is_extra())?;
    if argument.kind() != "argument"
        || first != argument
        || argument.child_by_field_name("name").is_some()
        || call.kind() != "invocation_expression"
    {
        return None;
    }
    let method = call
        .child_by_field_name("function")
        .filter(|f| f.kind() == "member_access_expression")?;
    let name = method.child_by_field_name("name")?;
    let name = simple_name(name).unwrap_or(name);
    ELEMENT_LAMBDAS
        .contains(&&source[name.byte_range()])
        .then(|| method.child_by_field_name("expression"))
        .flatten()
}

/// The value after `=` in a variable declarator.
fn initializer(declarator: Node) -> Option<Node> {
    let mut cursor = declarator.walk();
    let mut after_equals = false;
    for child in declarator.children(&mut cursor) {
        if after_equals && child.is_named() {
            return Some(child);
        }
        after_equals |= child.kind() == "=";
    }
    None
}

/// The outer named type of a type as written: `ref`, `scoped` and `?`
/// stripped, generic arguments dropped, the path split off (`global::`
/// dropped). `None` for predefined types, `var`, `dynamic`, arrays, tuples,
/// pointers and function pointers.
pub(crate) fn named_type<'t>(ty: Node<'t>, source: &str) -> Option<Written<'t>> {
    let mut ty = ty;
    // Each step goes one level down the tree, so this ends.
    loop {
        match ty.kind() {
            "ref_type" | "scoped_type" | "nullable_type" => {
                ty = ty.child_by_field_name("type")?;
            }
            "identifier" | "generic_name" => {
                let name = simple_name(ty)?;
                if NOT_TYPES.contains(&&source[name.byte_range()]) {
                    return None;
                }
                return Some(Written {
                    name,
                    qualifier: Vec::new(),
                });
            }
            "qualified_name" | "alias_qualified_name" => {
                let name = simple_name(ty.child_by_field_name("name")?)?;
                return Some(Written {
                    name,
                    qualifier: qualifier(ty, source)?,
                });
            }
            _ => return None,
        }
    }
}

/// The path before the name of a qualified name, outermost first, without
/// generic arguments or `global::`.
fn qualifier(name: Node, source: &str) -> Option<Vec<String>> {
    let mut parts = Vec::new();
    let mut node = match name.kind() {
        "qualified_name" => name.child_by_field_name("qualifier")?,
        _ => name,
    };
    // Each step goes one level down the tree, so this ends.
    loop {
        match node.kind() {
            "qualified_name" => {
                let part = simple_name(node.child_by_field_name("name")?)?;
                parts.push(source[part.byte_range()].to_string());
                node = node.child_by_field_name("qualifier")?;
            }
            // `alias::Name`: the alias, unless it is `global`.
            "alias_qualified_name" => {
                if node.id() != name.id() {
                    let part = simple_name(node.child_by_field_name("name")?)?;
                    parts.push(source[part.byte_range()].to_string());
                }
                let alias = node.child_by_field_name("alias")?;
                let alias = &source[alias.byte_range()];
                if alias != "global" {
                    parts.push(alias.to_string());
                }
                break;
            }
            "identifier" | "generic_name" => {
                let part = simple_name(node)?;
                parts.push(source[part.byte_range()].to_string());
                break;
            }
            _ => return None,
        }
    }
    parts.reverse();
    Some(parts)
}

/// The identifier of a simple name: itself, or a generic name's.
fn simple_name(node: Node) -> Option<Node> {
    match node.kind() {
        "identifier" => Some(node),
        "generic_name" => {
            let mut cursor = node.walk();
            node.named_children(&mut cursor)
                .find(|c| c.kind() == "identifier")
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use lingo_plugin_sdk::Document;
    use lingo_plugin_sdk::bindings::exports::lingo::plugin::syntax::GuestDocument;
    use lingo_plugin_sdk::declared::describe_declared_types;
    use lingo_plugin_sdk::types::Severity;

    use crate::CSharp;

    /// One line per declared type: target name, dotted type, source.
    /// The source is expected to parse without syntax errors.
    fn declared_lines(source: &str) -> Vec<String> {
        let document = Document::<CSharp>::new("src/A.cs".into(), source.into());
        let errors: Vec<_> = document
            .diagnostics()
            .into_iter()
            .filter(|d| matches!(d.severity, Severity::Error))
            .collect();
        assert!(errors.is_empty(), "{errors:?}");
        describe_declared_types(&document, source, ".", false)
    }

    #[test]
    fn declared_types_are_what_the_source_writes() {
        let source = r#"using System.IO;
namespace Acme.Codec;

/// Reads frames.
public sealed class FrameReader : IDisposable
{
    private readonly Decoder _decoder, _fallback;
    private static readonly Options Defaults = new();
    public event EventHandler<FrameArgs> FrameRead;
    public System.IO.Stream Input { get; }
    public Frame? Last => _last;
    public Frame this[int index] => _frames[index];

    public FrameReader(Stream input, ILogger<FrameReader> logger)
    {
        Input = input;
    }

    public Frame Read(ref Buffer buffer, out Header header)
    {
        Decoder local = _decoder;
        var frame = new Frame(buffer);
        var qualified = new Acme.Codec.Frame();
        Frame implicitNew = new();
        using var scope = new Scope();
        using (var writer = new StreamWriter(Input)) { }
        foreach (Chunk chunk in buffer.Chunks) { }
        for (Node node = buffer.Head; node != null; node = node.Next) { }
        try { Parse(out Header parsed); }
        catch (IOException e) { }
        if (buffer.Peek() is Marker marker) { }
        switch (buffer.Kind) { case Trailer t: break; case Point { X: 0 } origin: break; }
        var items = from Chunk c in buffer.Chunks select c;
        Func<Frame, int> size = (Frame f) => f.Length;
        Frame Next(Cursor cursor) => cursor.Frame;
        header = default;
        return frame;
    }

    public void Dispose() { }
}

public interface IFactory { Decoder Create(Options options); }
public record Packet(Header Header, int Length);
"#;
        assert_eq!(
            declared_lines(source),
            [
                "_decoder: Decoder annotation",
                "_fallback: Decoder annotation",
                "Defaults: Options annotation",
                "FrameRead: EventHandler annotation",
                "Input: System.IO.Stream annotation",
                "Last: Frame annotation",
                "this: Frame annotation",
                "input: Stream annotation",
                "logger: ILogger annotation",
                "Read: Frame return-type",
                "buffer: Buffer annotation",
                "header: Header annotation",
                "local: Decoder annotation",
                "frame: Frame constructor",
                "qualified: Acme.Codec.Frame constructor",
                "implicitNew: Frame annotation",
                "scope: Scope constructor",
                "writer: StreamWriter constructor",
                "chunk: Chunk annotation",
                "node: Node annotation",
                "parsed: Header annotation",
                "e: IOException annotation",
                "marker: Marker annotation",
                "t: Trailer annotation",
                "origin: Point annotation",
                "c: Chunk annotation",
                "size: Func annotation",
                "f: Frame annotation",
                "Next: Frame return-type",
                "cursor: Cursor annotation",
                "Create: Decoder return-type",
                "options: Options annotation",
                "Header: Header annotation",
                "Length: int annotation",
            ]
        );
    }

    #[test]
    fn an_extension_method_has_its_this_parameter_as_receiver() {
        let source = "public static class DecoderExtensions\n\
            {\n\
            public static Frame ReadAll(this Decoder decoder, Stream input) => null;\n\
            public static void Reset(this ref Cursor cursor) { }\n\
            public static int Count<T>(this IEnumerable<T> items) => 0;\n\
            public static T First<T>(this T value) => value;\n\
            public static void Fill(this byte[] bytes) { }\n\
            public Frame NotExtension(Decoder decoder) => null;\n\
            }\n";
        assert_eq!(
            declared_lines(source),
            [
                "ReadAll: Frame return-type",
                "ReadAll: Decoder receiver",
                "decoder: Decoder annotation",
                "input: Stream annotation",
                "Reset: Cursor receiver",
                "cursor: Cursor annotation",
                "Count: int return-type",
                "Count: IEnumerable receiver",
                "items: IEnumerable annotation",
                "NotExtension: Frame return-type",
                "decoder: Decoder annotation",
            ]
        );
    }

    #[test]
    fn qualified_generic_and_nullable_names_are_reduced_to_the_type_name() {
        let source = "class C\n\
            {\n\
            global::System.IO.Stream _stream;\n\
            Legacy::Codec.Decoder _legacy;\n\
            Outer<int>.Inner _inner;\n\
            System.Collections.Generic.List<Frame>? _frames;\n\
            Dictionary<string, List<Frame>> _index;\n\
            void M(scoped ref Span<byte> span, in Acme.Header header, params IList<Frame> rest)\n\
            {\n\
            var d = new global::Acme.Decoder();\n\
            var g = new Cache<Frame>.Entry();\n\
            ref readonly Frame r = ref _frames[0];\n\
            }\n\
            }\n";
        assert_eq!(
            declared_lines(source),
            [
                "_stream: System.IO.Stream annotation",
                "_legacy: Legacy.Codec.Decoder annotation",
                "_inner: Outer.Inner annotation",
                "_frames: System.Collections.Generic.List annotation",
                "_frames: Frame element",
                "_index: Dictionary annotation",
                "span: Span annotation",
                "header: Acme.Header annotation",
                "rest: IList annotation",
                "rest: Frame element",
                "d: Acme.Decoder constructor",
                "g: Cache.Entry constructor",
                "r: Frame annotation",
            ]
        );
    }

    #[test]
    fn arrays_tuples_type_parameters_and_locals_built_in_types_are_not_reported() {
        let source = "unsafe class Box<T>\n\
            {\n\
            int _count; string _name; object _tag; dynamic _any;\n\
            T _value; T[] _values; Frame[] _frames; Frame?[] _maybe; int? _n;\n\
            (Frame, int) _pair; Frame* _ptr; delegate*<Frame, void> _callback;\n\
            public Box(T value) { }\n\
            public void Run(int n, Frame[] frames, (int, Frame) pair, params Frame[] more)\n\
            {\n\
            var a = 1;\n\
            var b = Make();\n\
            var c = new Frame[3];\n\
            var e = (Frame)b;\n\
            var (x, y) = Split();\n\
            foreach (var item in frames) { }\n\
            if (b is var v) { }\n\
            if (b is Frame) { }\n\
            Parse(out var parsed);\n\
            try { } catch (IOException) { }\n\
            Make<Frame>();\n\
            }\n\
            T Get() => _value;\n\
            U Map<U>(Func<T, U> map) => map(_value);\n\
            public delegate Frame Factory();\n\
            public string Name { get; }\n\
            }\n";
        // A member's built-in type is reported, to tell overloads apart.
        assert_eq!(
            declared_lines(source),
            [
                "_count: int annotation",
                "_name: string annotation",
                "_tag: object annotation",
                // An array is not a type, but its elements are of one.
                "_frames: Frame element",
                "_maybe: Frame element",
                "frames: Frame element",
                "more: Frame element",
                "map: Func annotation",
                "Factory: Frame return-type",
                "Name: string annotation",
            ]
        );
    }

    #[test]
    fn arrays_and_standard_collections_state_their_element_type() {
        let source = "class C {\n\
            List<User> _users; IEnumerable<Ns.Item> Items { get; } Dictionary<K, V> _map;\n\
            User[] Load(IReadOnlyList<User>? list) { var all = new HashSet<Group>(); return null; }\n\
            }\n";
        assert_eq!(
            declared_lines(source),
            [
                "_users: List annotation",
                "_users: User element",
                "Items: IEnumerable annotation",
                "Items: Ns.Item element",
                "_map: Dictionary annotation",
                "Load: User element",
                "list: IReadOnlyList annotation",
                "list: User element",
                "all: HashSet constructor",
                "all: Group element",
            ]
        );
    }

    #[test]
    fn indexing_and_foreach_reach_one_element() {
        let source = "class C { void M(List<User> users) {\n\
            var a = users[0];\n\
            var b = users[1..];\n\
            foreach (var c in users) { c.Save(); }\n\
            foreach (User d in users) { }\n\
            users[2].Name.Trim();\n\
            var e = grid[0][1];\n\
            users.Where(f => f.Active).Select((g) => g.Name);\n\
            users.ToDictionary(h => h.Id, k => k);\n\
            users.Aggregate(0, (m, n) => m);\n\
            } }\n";
        let document = Document::<CSharp>::new("a.cs".into(), source.into());
        let references = document.references();
        let value = |v| lingo_plugin_sdk::testing::describe_receiver(&references, v);
        let locals = lingo_plugin_sdk::testing::describe_local_values(&document);
        assert_eq!(
            locals,
            [
                "a = users[_]",
                "c = users[_]",
                "d = users[_]",
                "f = users[_]",
                // An element of what `Where` returns, as its declaration
                // states it (the standard library's states none).
                "g = Where()[_]",
                "h = users[_]"
            ]
        );
        let name = references.iter().find(|r| r.name == "Name").unwrap();
        assert_eq!(value(name.receiver.as_ref().unwrap()), "users[_]");
    }

    #[test]
    fn deeply_nested_source_does_not_overflow() {
        let depth = 5000;
        let source = format!(
            "class C {{ Frame M(Decoder d) {{ var x = {}1{}; Decoder after = d; return null; }} }}",
            "(".repeat(depth),
            ")".repeat(depth)
        );
        assert_eq!(
            declared_lines(&source),
            [
                "M: Frame return-type",
                "d: Decoder annotation",
                "after: Decoder annotation"
            ]
        );
    }
}
