//! The types TypeScript and JavaScript source states for declarations, read without inference.

use lingo_plugin_sdk::LineIndex;
use lingo_plugin_sdk::declared::{Targets, Written};
use lingo_plugin_sdk::types::{
    DeclaredTarget, DeclaredType, DeclaredTypeSource, Local, Symbol, TypeArgument,
};
use tree_sitter::Node;

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
        own_wrappers: own_wrappers(root, source, symbols),
    };
    let mut out = Vec::new();
    // The type bodies around the current node, innermost last: a class's
    // name (what `this` denotes as a type there), `None` for an interface
    // or object type, where `this` is whatever implements it.
    let mut bodies: Vec<Option<Node>> = Vec::new();
    // The named classes and interfaces around it, innermost last: the type
    // a method returning `this` is declared on.
    let mut owners: Vec<Option<Node>> = Vec::new();
    let mut cursor = root.walk();
    // Preorder walk without recursion (deeply nested code must not overflow
    // the component's stack); each node is left once its subtree is done.
    loop {
        let node = cursor.node();
        if let Some(body) = type_body(node) {
            bodies.push(body);
            owners.push(owner_name(node));
        }
        let this_type = bodies.last().copied().flatten();
        let owner = owners.last().copied().flatten();
        context.visit(node, this_type, owner, &mut out);
        if cursor.goto_first_child() {
            continue;
        }
        loop {
            if type_body(cursor.node()).is_some() {
                bodies.pop();
                owners.pop();
            }
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return out;
            }
        }
    }
}

/// The name of a class or interface declaration (`None` for other type
/// bodies, which the methods in them are not declared on by name).
fn owner_name(node: Node) -> Option<Node> {
    match node.kind() {
        "class_declaration" | "abstract_class_declaration" | "class" | "interface_declaration" => {
            node.child_by_field_name("name")
        }
        _ => None,
    }
}

/// Members of one union stated at most (`A | B | ...`), as many as the
/// host follows; a larger union states none, since a part of it would be
/// taken for all of it.
const MAX_UNION_MEMBERS: usize = 256;

/// The type a cast states: `T` in `value as T` (not `as const`).
fn cast_type(value: Node) -> Option<Node> {
    if value.kind() != "as_expression" {
        return None;
    }
    let mut cursor = value.walk();
    let parts: Vec<Node> = value
        .named_children(&mut cursor)
        .filter(|c| c.kind() != "comment")
        .collect();
    match parts.as_slice() {
        [_, ty] => Some(*ty),
        _ => None,
    }
}

/// Whether `function`'s return type is `this`.
fn returns_this(function: Node) -> bool {
    function
        .child_by_field_name("return_type")
        .filter(|t| t.kind() == "type_annotation")
        .and_then(first_named_child)
        .is_some_and(|t| t.kind() == "this_type")
}

/// For a node that opens a type body, the class name `this` denotes as a
/// type inside it (`None` for an anonymous class, an interface or an object
/// type); `None` for any other node.
fn type_body(node: Node) -> Option<Option<Node>> {
    match node.kind() {
        "class_declaration" | "abstract_class_declaration" | "class" => {
            Some(node.child_by_field_name("name"))
        }
        "interface_declaration" | "object_type" => Some(None),
        _ => None,
    }
}

struct Context<'a> {
    source: &'a str,
    lines: &'a LineIndex,
    targets: Targets,
    /// The names of [`MEMBER_WRAPPERS`] the file declares or imports
    /// itself, which are then not the standard library's.
    own_wrappers: Vec<&'static str>,
}

/// The standard library's generic types whose values have (some of) the
/// members of their first type argument and no others: `Partial<T>`,
/// `Pick<T, K>`... A member read through one is the argument's member.
const MEMBER_WRAPPERS: &[&str] = &[
    "Partial",
    "Required",
    "Readonly",
    "Pick",
    "Omit",
    "NonNullable",
];

/// Type arguments stated for one declared type at most (the host's cap);
/// past it the rest are left out.
const MAX_TYPE_ARGUMENTS: usize = 64;

/// The [`MEMBER_WRAPPERS`] that `root`'s file declares (a symbol of that
/// name) or imports by name itself.
fn own_wrappers(root: Node, source: &str, symbols: &[Symbol]) -> Vec<&'static str> {
    let mut imported: Vec<&str> = Vec::new();
    let mut cursor = root.walk();
    for statement in root.named_children(&mut cursor) {
        if statement.kind() != "import_statement" {
            continue;
        }
        lingo_plugin_sdk::declared::preorder(statement, |node| {
            if node.kind() == "identifier" || node.kind() == "type_identifier" {
                imported.push(&source[node.byte_range()]);
            }
        });
    }
    MEMBER_WRAPPERS
        .iter()
        .copied()
        .filter(|w| imported.contains(w) || symbols.iter().any(|s| s.name == *w))
        .collect()
}

/// A named type a type expression stands for, or the type of a member of
/// it (`T["_zod"]["def"]`: the members `_zod`, then `def`).
struct Named<'t> {
    written: Written<'t>,
    members: Vec<String>,
}

impl<'t> Named<'t> {
    fn new(written: Written<'t>) -> Self {
        Named {
            written,
            members: Vec::new(),
        }
    }
}

/// Members of a lookup type followed at most (`T["a"]["b"]..`), as the
/// host's cap.
const MAX_LOOKUP_MEMBERS: usize = 8;

/// What [`Context::stood_for`] finds in a type expression: the named types
/// (a union's or intersection's each, a conditional type's branches), and
/// whether it also has an object type with members of its own.
#[derive(Default)]
struct StoodFor<'t> {
    named: Vec<Named<'t>>,
    has_own_members: bool,
}

impl Context<'_> {
    /// `written` stated for `target` as `source`, with the type arguments
    /// written after its name.
    fn declare(
        &self,
        written: Written,
        target: DeclaredTarget,
        source: DeclaredTypeSource,
    ) -> DeclaredType {
        let arguments = self.arguments_of(written.name);
        DeclaredType {
            arguments,
            ..written.declared(target, self.source, self.lines, source)
        }
    }

    /// The named types written as type arguments after `name` (when it is
    /// the name of a generic type `Name<..>`), each followed by its own,
    /// at most [`MAX_TYPE_ARGUMENTS`].
    fn arguments_of(&self, name: Node) -> Vec<TypeArgument> {
        let mut out = Vec::new();
        self.push_arguments(name, None, &mut out);
        out
    }

    fn push_arguments(&self, name: Node, parent: Option<u32>, out: &mut Vec<TypeArgument>) {
        // `Two` of `ns.Two<T>` is named inside the path the generic names.
        let path = name
            .parent()
            .filter(|p| {
                p.kind() == "nested_type_identifier" && p.child_by_field_name("name") == Some(name)
            })
            .unwrap_or(name);
        let Some(arguments) = path
            .parent()
            .filter(|g| g.kind() == "generic_type" && g.child_by_field_name("name") == Some(path))
            .and_then(|g| g.child_by_field_name("type_arguments"))
        else {
            return;
        };
        let mut cursor = arguments.walk();
        let written: Vec<Node> = arguments
            .named_children(&mut cursor)
            .filter(|c| c.kind() != "comment")
            .collect();
        self.push_argument_types(written, parent, out);
    }

    /// The named types the type expressions `written` (the arguments at
    /// positions 0, 1, ..) stand for, each followed by its own arguments.
    fn push_argument_types(
        &self,
        written: Vec<Node>,
        parent: Option<u32>,
        out: &mut Vec<TypeArgument>,
    ) {
        for (position, argument) in written.into_iter().enumerate() {
            for named in self.stood_for(argument, None).named {
                if out.len() >= MAX_TYPE_ARGUMENTS {
                    return;
                }
                let name = named.written.name;
                let index = out.len() as u32;
                let span = self
                    .lines
                    .span(self.source, name.start_byte(), name.end_byte());
                out.push(TypeArgument {
                    parent,
                    position: position as u32,
                    type_name: self.source[name.byte_range()].to_string(),
                    type_qualifier: named.written.qualifier,
                    span,
                    members: named.members,
                });
                // Each level is a type argument further in, and at most
                // MAX_TYPE_ARGUMENTS are taken, so this recursion is bounded.
                self.push_arguments(name, Some(index), out);
            }
        }
    }

    /// The named types the type expression `ty` stands for: `T` itself
    /// (also a type parameter), each type of a union or intersection, both
    /// branches of a conditional type, the argument of a standard wrapper
    /// keeping its members (`Partial<T>`, `Pick<T, K>`), the `T` of a
    /// mapped type over `keyof T` (`{ [k in keyof T]: T[k] }`). At most
    /// [`MAX_UNION_MEMBERS`]; none for more.
    fn stood_for<'t>(&self, ty: Node<'t>, this_type: Option<Node<'t>>) -> StoodFor<'t> {
        let mut found = StoodFor::default();
        let mut pending = vec![ty];
        while let Some(ty) = pending.pop() {
            if found.named.len() > MAX_UNION_MEMBERS || pending.len() > MAX_UNION_MEMBERS {
                return StoodFor::default();
            }
            match ty.kind() {
                "type_annotation" | "parenthesized_type" | "readonly_type" => {
                    pending.extend(first_named_child(ty));
                }
                "union_type" | "intersection_type" => {
                    let mut cursor = ty.walk();
                    let inner: Vec<Node> = ty
                        .named_children(&mut cursor)
                        .filter(|c| c.kind() != "comment")
                        .collect();
                    // Last first, so that they come out in source order.
                    pending.extend(inner.into_iter().rev());
                }
                "conditional_type" => {
                    let branches = ["alternative", "consequence"];
                    pending.extend(branches.iter().filter_map(|f| ty.child_by_field_name(f)));
                }
                "object_type" => match mapped_over(ty) {
                    Some(keyed) => pending.push(keyed),
                    None => found.has_own_members |= ty.named_child_count() > 0,
                },
                "generic_type" => {
                    let Some(name) = ty.child_by_field_name("name") else {
                        continue;
                    };
                    let wrapped = (name.kind() == "type_identifier")
                        .then(|| &self.source[name.byte_range()])
                        .filter(|n| MEMBER_WRAPPERS.contains(n) && !self.own_wrappers.contains(n))
                        .and_then(|_| ty.child_by_field_name("type_arguments"))
                        .and_then(first_named_child);
                    match wrapped {
                        Some(argument) => pending.push(argument),
                        None => pending.push(name),
                    }
                }
                "this_type" => {
                    if let Some(name) = this_type {
                        found.named.push(Named::new(Written {
                            name,
                            qualifier: Vec::new(),
                        }));
                    }
                }
                "type_identifier" => found.named.push(Named::new(Written {
                    name: ty,
                    qualifier: Vec::new(),
                })),
                "nested_type_identifier" => {
                    if let Some(written) = self.named_type(ty, this_type) {
                        found.named.push(Named::new(written));
                    }
                }
                // `T["_zod"]["def"]`: the type of a member of a named type.
                "lookup_type" => found.named.extend(self.looked_up(ty, this_type)),
                _ => {}
            }
        }
        found
    }

    /// The member type a lookup type names (`T["_zod"]["def"]`), when it
    /// looks up string literal keys of a named type.
    fn looked_up<'t>(&self, ty: Node<'t>, this_type: Option<Node<'t>>) -> Option<Named<'t>> {
        let mut members = Vec::new();
        let mut base = ty;
        while base.kind() == "lookup_type" {
            if members.len() >= MAX_LOOKUP_MEMBERS {
                return None;
            }
            let mut cursor = base.walk();
            let parts: Vec<Node> = base
                .named_children(&mut cursor)
                .filter(|c| c.kind() != "comment")
                .collect();
            let [object, index] = parts.as_slice() else {
                return None;
            };
            let key = (index.kind() == "literal_type")
                .then(|| first_named_child(*index))
                .flatten()
                .filter(|k| k.kind() == "string")?;
            let key = self.source[key.byte_range()].trim_matches(|c| c == '"' || c == '\'');
            if key.is_empty() {
                return None;
            }
            members.push(key.to_string());
            base = *object;
        }
        members.reverse();
        let base = match base.kind() {
            "generic_type" => base.child_by_field_name("name")?,
            _ => base,
        };
        let written = match base.kind() {
            "type_identifier" => Written {
                name: base,
                qualifier: Vec::new(),
            },
            "nested_type_identifier" | "this_type" => self.named_type(base, this_type)?,
            _ => return None,
        };
        Some(Named { written, members })
    }

    /// `named` stated for `target` as `source` (see [`Self::declare`]).
    fn declare_named(
        &self,
        named: Named,
        target: DeclaredTarget,
        source: DeclaredTypeSource,
    ) -> DeclaredType {
        DeclaredType {
            members: named.members,
            ..self.declare(named.written, target, source)
        }
    }

    /// The type parameters of the generic declaration `node` (a type
    /// alias, interface or class) stated for `target` by position, and
    /// each one's constraint (`T extends Base`) for its local.
    fn type_parameters(&self, out: &mut Vec<DeclaredType>, target: DeclaredTarget, node: Node) {
        let Some(parameters) = node.child_by_field_name("type_parameters") else {
            return;
        };
        let mut cursor = parameters.walk();
        let declared: Vec<Node> = parameters
            .named_children(&mut cursor)
            .filter(|p| p.kind() == "type_parameter")
            .collect();
        for (position, parameter) in declared.into_iter().enumerate() {
            let Some(name) = parameter.child_by_field_name("name") else {
                continue;
            };
            let written = Written {
                name,
                qualifier: Vec::new(),
            };
            // `T = Issue`: the default, as the argument at position 0.
            let mut default = Vec::new();
            let default_type = parameter
                .child_by_field_name("value")
                .and_then(first_named_child);
            if let Some(default_type) = default_type {
                self.push_argument_types(vec![default_type], None, &mut default);
            }
            out.push(DeclaredType {
                element: vec![position as u32],
                arguments: default,
                ..written.declared(
                    target,
                    self.source,
                    self.lines,
                    DeclaredTypeSource::TypeParameter,
                )
            });
            let constraint = parameter
                .child_by_field_name("constraint")
                .and_then(first_named_child);
            let (Some(local), Some(constraint)) = (self.targets.local(name), constraint) else {
                continue;
            };
            for named in self.stood_for(constraint, None).named {
                out.push(self.declare_named(named, local, DeclaredTypeSource::Annotation));
            }
        }
    }

    /// The declared types `node` states; `this_type` is the class name
    /// `this` denotes as a type at `node`, `owner` the class or interface
    /// whose body holds it.
    fn visit<'t>(
        &self,
        node: Node<'t>,
        this_type: Option<Node<'t>>,
        owner: Option<Node<'t>>,
        out: &mut Vec<DeclaredType>,
    ) {
        match node.kind() {
            // `p: T`, `p?: T`, and parameter properties
            // (`private readonly p: T`), which are fields too.
            "required_parameter" | "optional_parameter" => {
                let Some(name) = node
                    .child_by_field_name("pattern")
                    .filter(|p| p.kind() == "identifier")
                else {
                    return;
                };
                let Some(ty) = node.child_by_field_name("type") else {
                    return;
                };
                for target in self
                    .targets
                    .local(name)
                    .into_iter()
                    .chain(self.targets.symbol(name))
                {
                    self.annotated(out, target, ty, this_type);
                    self.element(out, target, ty, this_type);
                    self.function_type_parameters(out, target, ty, this_type);
                }
            }
            "variable_declarator" => {
                let Some(name) = node
                    .child_by_field_name("name")
                    .filter(|n| n.kind() == "identifier")
                else {
                    return;
                };
                let ty = node.child_by_field_name("type");
                let value = node.child_by_field_name("value");
                if let Some(target) = self.targets.local(name) {
                    self.typed_or_constructed(out, target, ty, value, this_type);
                }
                let Some(target) = self.targets.symbol(name) else {
                    return;
                };
                self.typed_or_constructed(out, target, ty, value, this_type);
                // A name bound to a function is a function symbol, which
                // also has the type the function returns and its
                // parameters' types.
                if let Some(function) = value.filter(|v| is_function_value(*v)) {
                    self.returns(out, target, function, this_type);
                    self.parameters(out, target, function, this_type);
                }
                // `const m: (e: E) => R = ..`: a value of a function type,
                // called with those parameters, returning `R`.
                if let Some(ty) = ty {
                    self.function_type_parameters(out, target, ty, this_type);
                    self.function_type_returns(out, target, ty, this_type);
                }
            }
            // Class fields: TypeScript's `x: T = ..`, JavaScript's `x = ..`.
            "public_field_definition" | "field_definition" => {
                let name = node
                    .child_by_field_name("name")
                    .or_else(|| node.child_by_field_name("property"));
                let Some(target) = name.and_then(|n| self.targets.symbol(n)) else {
                    return;
                };
                let ty = node.child_by_field_name("type");
                let value = node.child_by_field_name("value");
                self.typed_or_constructed(out, target, ty, value, this_type);
                // `static create = (..): ZodString => ..`: a field holding a
                // function also has the type the function returns.
                if let Some(function) = value.filter(|v| is_function_value(*v)) {
                    self.returns(out, target, function, this_type);
                    self.parameters(out, target, function, this_type);
                }
                if let Some(ty) = ty {
                    self.function_type_parameters(out, target, ty, this_type);
                }
            }
            "property_signature" => {
                let target = node
                    .child_by_field_name("name")
                    .and_then(|n| self.targets.symbol(n));
                if let (Some(target), Some(ty)) = (target, node.child_by_field_name("type")) {
                    self.annotated(out, target, ty, this_type);
                    self.element(out, target, ty, this_type);
                    // `override?: (ctx: Context) => void`.
                    self.function_type_parameters(out, target, ty, this_type);
                }
            }
            // `interface ErrorMap { (issue: Issue): string }`: a value of the
            // interface is called with these parameters.
            "call_signature" => {
                let target = owner.and_then(|o| self.targets.symbol(o));
                if let Some(target) = target {
                    self.parameters(out, target, node, this_type);
                }
            }
            "function_declaration"
            | "generator_function_declaration"
            | "function_signature"
            | "method_definition"
            | "method_signature"
            | "abstract_method_signature" => {
                let Some(target) = node
                    .child_by_field_name("name")
                    .and_then(|n| self.targets.symbol(n))
                else {
                    return;
                };
                self.type_parameters(out, target, node);
                self.parameters(out, target, node, this_type);
                if is_getter(node) {
                    // A getter's return type is its property's type.
                    if let Some(ty) = node.child_by_field_name("return_type") {
                        self.annotated(out, target, ty, this_type);
                    }
                } else if let Some(owner) = owner.filter(|_| returns_this(node)) {
                    // `min(n: number): this`: what it is called on.
                    let written = Written {
                        name: owner,
                        qualifier: Vec::new(),
                    };
                    out.push(self.declare(written, target, DeclaredTypeSource::ThisType));
                } else {
                    self.returns(out, target, node, this_type);
                }
            }
            // `export default (): T => ..`, a function named `default`.
            "export_statement" => {
                let Some(function) = node
                    .child_by_field_name("value")
                    .filter(|v| is_function_value(*v))
                else {
                    return;
                };
                let mut cursor = node.walk();
                let target = node
                    .children(&mut cursor)
                    .find(|c| c.kind() == "default")
                    .and_then(|d| self.targets.symbol(d));
                if let Some(target) = target {
                    self.returns(out, target, function, this_type);
                }
            }
            // `type One = Two<T>`, `type U = A | B | null`: the types it
            // stands for, each stated (an object type states none: the
            // alias is a type of its own members).
            "type_alias_declaration" => {
                let (Some(target), Some(value)) = (
                    node.child_by_field_name("name")
                        .and_then(|n| self.targets.symbol(n)),
                    node.child_by_field_name("value"),
                ) else {
                    return;
                };
                // `type Handler = (e: E) => Result`: what calling a value of
                // the type returns.
                if value.kind() == "function_type" {
                    self.parameters(out, target, value, this_type);
                    let returned = value
                        .child_by_field_name("return_type")
                        .and_then(|ty| self.named_type(ty, this_type));
                    if let Some(written) = returned {
                        out.push(self.declare(written, target, DeclaredTypeSource::ReturnType));
                    }
                    return;
                }
                self.type_parameters(out, target, node);
                // A union with a type that states none and has members
                // (`A | { kind: "b" }`, `A & B`) also states the alias
                // itself: the members written in it, which no name states,
                // are the alias's own, and the host knows the union is not
                // all named types.
                let stood_for = self.stood_for(value, this_type);
                let opaque = stood_for.has_own_members && !stood_for.named.is_empty();
                for named in stood_for.named {
                    out.push(self.declare_named(named, target, DeclaredTypeSource::Annotation));
                }
                if let (true, Some(name)) = (opaque, node.child_by_field_name("name")) {
                    let itself = Written {
                        name,
                        qualifier: Vec::new(),
                    };
                    // `A & { own }`: every value has the members written
                    // in it (as a class has its own), so a key of a literal
                    // found in `A` alone is `A`'s.
                    let source = match intersects_own_members(value) {
                        true => DeclaredTypeSource::SelfType,
                        false => DeclaredTypeSource::Annotation,
                    };
                    out.push(self.declare(itself, target, source));
                }
            }
            "interface_declaration" => {
                let target = node
                    .child_by_field_name("name")
                    .and_then(|n| self.targets.symbol(n));
                if let Some(target) = target {
                    self.type_parameters(out, target, node);
                }
            }
            "class_declaration" | "abstract_class_declaration" | "class" => {
                let Some(name) = node.child_by_field_name("name") else {
                    return;
                };
                if let Some(target) = self.targets.symbol(name) {
                    self.type_parameters(out, target, node);
                    let written = Written {
                        name,
                        qualifier: Vec::new(),
                    };
                    out.push(self.declare(written, target, DeclaredTypeSource::SelfType));
                    // `new C(..)` passes the constructor's parameters.
                    if let Some(constructor) = constructor_of(node, self.source) {
                        self.parameters(out, target, constructor, this_type);
                    }
                }
            }
            _ => {}
        }
    }

    /// The types of the parameters of `function` (a declaration, function
    /// expression, function type or call signature) stated for `target`
    /// (the declared-type source `parameter`, `[i]`), and of the parameters
    /// of a parameter's function type (`[i, j]`).
    fn parameters(
        &self,
        out: &mut Vec<DeclaredType>,
        target: DeclaredTarget,
        function: Node,
        this_type: Option<Node>,
    ) {
        let stated = |out: &mut Vec<DeclaredType>, ty: Node, positions: &[u32]| {
            if let Some(written) = self.named_argument_type(ty, this_type) {
                let declared = self.declare(written, target, DeclaredTypeSource::Parameter);
                out.push(DeclaredType {
                    element: positions.to_vec(),
                    ..declared
                });
            }
        };
        for (position, parameter) in parameters_of(function).into_iter().enumerate() {
            let Some(ty) = parameter.child_by_field_name("type") else {
                continue;
            };
            let position = position as u32;
            stated(out, ty, &[position]);
            let Some(inner) = function_type(ty) else {
                continue;
            };
            for (inner_position, inner_parameter) in parameters_of(inner).into_iter().enumerate() {
                if let Some(inner_ty) = inner_parameter.child_by_field_name("type") {
                    stated(out, inner_ty, &[position, inner_position as u32]);
                }
            }
        }
    }

    /// The named type a parameter's annotation `ty` states for the object
    /// literals and functions written for it: [`Self::named_type`], also
    /// of the one named type of a union whose other types are predefined
    /// or literal ones (`params?: string | Options`), which no object
    /// literal or function is.
    fn named_argument_type<'t>(
        &self,
        ty: Node<'t>,
        this_type: Option<Node<'t>>,
    ) -> Option<Written<'t>> {
        let union = match ty.kind() {
            "type_annotation" => first_named_child(ty)?,
            _ => ty,
        };
        if union.kind() != "union_type" {
            return self.named_type(ty, this_type);
        }
        let mut others = Vec::new();
        let mut pending = vec![union];
        // `A | B | C` nests unions; flattened with an explicit stack.
        while let Some(node) = pending.pop() {
            let mut cursor = node.walk();
            for member in node.named_children(&mut cursor) {
                match member.kind() {
                    "union_type" => pending.push(member),
                    "comment" | "predefined_type" | "literal_type" => {}
                    _ => others.push(member),
                }
            }
        }
        match others.as_slice() {
            [one] => self.named_type(*one, this_type),
            _ => None,
        }
    }

    /// The parameter types of the function type `ty` annotates, when it is
    /// one (`(ctx: Context) => void`, also with `| undefined`), stated for
    /// `target`.
    fn function_type_parameters(
        &self,
        out: &mut Vec<DeclaredType>,
        target: DeclaredTarget,
        ty: Node,
        this_type: Option<Node>,
    ) {
        if let Some(function) = function_type(ty) {
            self.parameters(out, target, function, this_type);
        }
    }

    /// The return type of the function type `ty` annotates, when it is one
    /// and states a named type, stated for `target`.
    fn function_type_returns(
        &self,
        out: &mut Vec<DeclaredType>,
        target: DeclaredTarget,
        ty: Node,
        this_type: Option<Node>,
    ) {
        let returned = function_type(ty)
            .and_then(|function| function.child_by_field_name("return_type"))
            .and_then(|returned| self.named_type(returned, this_type));
        if let Some(written) = returned {
            out.push(self.declare(written, target, DeclaredTypeSource::ReturnType));
        }
    }

    /// The annotation `ty` if there is one, else the class `value`
    /// constructs (`new T(..)`).
    fn typed_or_constructed(
        &self,
        out: &mut Vec<DeclaredType>,
        target: DeclaredTarget,
        ty: Option<Node>,
        value: Option<Node>,
        this_type: Option<Node>,
    ) {
        if let Some(ty) = ty {
            self.annotated(out, target, ty, this_type);
            self.element(out, target, ty, this_type);
        } else if let Some(cast) = value.and_then(cast_type) {
            // `const issue = raw as Issue`: the type the cast states.
            self.annotated(out, target, cast, this_type);
        } else if let Some(written) = value.and_then(|v| self.constructed(v)) {
            out.push(self.declare(written, target, DeclaredTypeSource::Constructor));
        }
    }

    fn annotated(
        &self,
        out: &mut Vec<DeclaredType>,
        target: DeclaredTarget,
        ty: Node,
        this_type: Option<Node>,
    ) {
        if let Some(written) = self.named_type(ty, this_type) {
            out.push(self.declare(written, target, DeclaredTypeSource::Annotation));
        }
    }

    /// The return type annotated on `function`, or for a type predicate on
    /// its first parameter (`(x: unknown): x is User`, `asserts x is User`)
    /// the type it proves (`narrowed`).
    fn returns(
        &self,
        out: &mut Vec<DeclaredType>,
        target: DeclaredTarget,
        function: Node,
        this_type: Option<Node>,
    ) {
        let proven = guarded_type(function, self.source)
            .and_then(|proven| self.named_type(proven, this_type));
        if let Some(written) = proven {
            out.push(self.declare(written, target, DeclaredTypeSource::Narrowed));
            return;
        }
        let Some(ty) = function
            .child_by_field_name("return_type")
            .filter(|t| t.kind() == "type_annotation")
        else {
            return;
        };
        if let Some(written) = self.named_type(ty, this_type) {
            out.push(self.declare(written, target, DeclaredTypeSource::ReturnType));
        }
        self.element(out, target, ty, this_type);
    }

    /// The element type of the array or iterable `ty` (see
    /// [`Context::element_type`]), stated for `target`.
    fn element(
        &self,
        out: &mut Vec<DeclaredType>,
        target: DeclaredTarget,
        ty: Node,
        this_type: Option<Node>,
    ) {
        let written = self
            .element_type(ty)
            .and_then(|element| self.named_type(element, this_type));
        if let Some(written) = written {
            out.push(self.declare(written, target, DeclaredTypeSource::Element));
        }
    }

    /// The type of the elements of an array or standard iterable type as
    /// written: `T` of `T[]`, `readonly T[]`, `Array<T>`, `Set<T>`,
    /// `Iterable<T>`, also with `| null` or `| undefined`. `None` for any
    /// other type.
    fn element_type<'t>(&self, ty: Node<'t>) -> Option<Node<'t>> {
        let mut ty = ty;
        // Each step goes at least one level down the tree, so this ends.
        loop {
            match ty.kind() {
                "type_annotation" | "parenthesized_type" | "readonly_type" => {
                    ty = first_named_child(ty)?
                }
                "union_type" => ty = self.only_non_null_member(ty)?,
                "array_type" => return first_named_child(ty),
                "generic_type" => {
                    let name = ty.child_by_field_name("name")?;
                    if name.kind() != "type_identifier"
                        || !ITERABLES.contains(&&self.source[name.byte_range()])
                    {
                        return None;
                    }
                    let arguments = ty.child_by_field_name("type_arguments")?;
                    let mut cursor = arguments.walk();
                    let mut types = arguments
                        .named_children(&mut cursor)
                        .filter(|c| c.kind() != "comment");
                    return match (types.next(), types.next()) {
                        (Some(only), None) => Some(only),
                        _ => None,
                    };
                }
                _ => return None,
            }
        }
    }

    /// The class `new C(..)`, `new ns.C<T>(..)` constructs, when it is
    /// written as a name or a path of names.
    fn constructed<'t>(&self, value: Node<'t>) -> Option<Written<'t>> {
        if value.kind() != "new_expression" {
            return None;
        }
        let constructor = value.child_by_field_name("constructor")?;
        match constructor.kind() {
            "identifier" => Some(Written {
                name: constructor,
                qualifier: Vec::new(),
            }),
            "member_expression" => {
                let name = constructor
                    .child_by_field_name("property")
                    .filter(|p| p.kind() == "property_identifier")?;
                // `new this.C()`, `new (f())()`: not a path of names.
                let qualifier = crate::declarations::dotted_path(
                    constructor.child_by_field_name("object")?,
                    self.source,
                )?;
                Some(Written { name, qualifier })
            }
            _ => None,
        }
    }

    /// The named type a type annotation states: generic arguments and
    /// parentheses dropped, the path split off, `T | null` and
    /// `T | undefined` read as `T`, `this` as the enclosing class. `None`
    /// for predefined types (`string`, `any`, `void`..), type parameters,
    /// unions of several types, intersections, arrays, tuples, function,
    /// object, literal and query types.
    fn named_type<'t>(&self, ty: Node<'t>, this_type: Option<Node<'t>>) -> Option<Written<'t>> {
        let mut ty = ty;
        // Each step goes at least one level down the tree, so this ends.
        loop {
            match ty.kind() {
                "type_annotation" | "parenthesized_type" => ty = first_named_child(ty)?,
                "generic_type" => ty = ty.child_by_field_name("name")?,
                "union_type" => ty = self.only_non_null_member(ty)?,
                "this_type" => {
                    return Some(Written {
                        name: this_type?,
                        qualifier: Vec::new(),
                    });
                }
                // Also a type parameter, which stands for its binding or
                // its constraint.
                "type_identifier" => {
                    return Some(Written {
                        name: ty,
                        qualifier: Vec::new(),
                    });
                }
                "nested_type_identifier" => {
                    let name = ty.child_by_field_name("name")?;
                    let qualifier = match ty.child_by_field_name("module") {
                        Some(module) => self.source[module.byte_range()]
                            .split('.')
                            .map(str::trim)
                            .filter(|s| !s.is_empty())
                            .map(str::to_string)
                            .collect(),
                        None => Vec::new(),
                    };
                    return Some(Written { name, qualifier });
                }
                _ => return None,
            }
        }
    }

    /// The one member of a union that is not `null` or `undefined`, if
    /// there is exactly one.
    fn only_non_null_member<'t>(&self, union: Node<'t>) -> Option<Node<'t>> {
        let mut found = None;
        // `A | B | C` nests unions; flattened with an explicit stack.
        let mut pending = vec![union];
        while let Some(node) = pending.pop() {
            let mut cursor = node.walk();
            for member in node.named_children(&mut cursor) {
                match member.kind() {
                    "union_type" => pending.push(member),
                    "comment" => {}
                    "literal_type" | "predefined_type"
                        if matches!(&self.source[member.byte_range()], "null" | "undefined") => {}
                    _ if found.is_some() => return None,
                    _ => found = Some(member),
                }
            }
        }
        found
    }
}

/// The standard generic types whose elements are values of their one type
/// argument: what indexing one (an array) or a `for .. of` over it gives,
/// and what awaiting a `Promise` gives. `Map` is not among them: iterating
/// one gives key and value pairs.
const ITERABLES: &[&str] = &[
    "Array",
    "ReadonlyArray",
    "Set",
    "ReadonlySet",
    "Iterable",
    "IterableIterator",
    "Promise",
    "PromiseLike",
];

/// The array methods that call their callback with each element as its
/// first argument (`xs.map(x => ..)`).
const ELEMENT_CALLBACKS: &[&str] = &[
    "forEach",
    "map",
    "flatMap",
    "filter",
    "find",
    "findIndex",
    "findLast",
    "findLastIndex",
    "some",
    "every",
];

/// The collection `xs[i]` indexes (`xs`), for an index that is not a
/// string (`o["name"]` reads a property); the promise `await p` waits for
/// (`p`), whose element is the value it holds.
pub fn indexed_collection<'t>(node: Node<'t>, _source: &str) -> Option<Node<'t>> {
    if node.kind() == "await_expression" {
        // `await p`: the value the promise `p` holds.
        return first_named_child(node);
    }
    if node.kind() != "subscript_expression" {
        return None;
    }
    let index = node.child_by_field_name("index")?;
    (!matches!(index.kind(), "string" | "template_string"))
        .then(|| node.child_by_field_name("object"))
        .flatten()
}

/// The collection whose elements the binding named by `name` takes: `xs`
/// in `for (const x of xs)`, and in `xs.map(x => ..)` (the first parameter
/// of a callback passed first to one of [`ELEMENT_CALLBACKS`]).
pub fn iterated_value<'t>(name: Node<'t>, source: &str) -> Option<Node<'t>> {
    let parent = name.parent()?;
    if parent.kind() == "for_in_statement" {
        let mut cursor = parent.walk();
        let is_of = parent.children(&mut cursor).any(|c| c.kind() == "of");
        return (is_of && parent.child_by_field_name("left") == Some(name))
            .then(|| parent.child_by_field_name("right"))
            .flatten();
    }
    // `x => ..` or `(x) => ..`, `(x: T) => ..`, `function (x) {..}`.
    let function = match parent.kind() {
        "arrow_function" if parent.child_by_field_name("parameter") == Some(name) => parent,
        "required_parameter" if parent.child_by_field_name("pattern") == Some(name) => {
            let parameters = parent.parent()?;
            let first = parameters
                .named_children(&mut parameters.walk())
                .find(|c| c.kind() != "comment")?;
            if first != parent {
                return None;
            }
            parameters.parent()?
        }
        _ => return None,
    };
    if !matches!(function.kind(), "arrow_function" | "function_expression") {
        return None;
    }
    let arguments = function.parent()?;
    let first_argument = arguments
        .named_children(&mut arguments.walk())
        .find(|c| c.kind() != "comment")?;
    let call = arguments.parent()?;
    if arguments.kind() != "arguments"
        || first_argument != function
        || call.kind() != "call_expression"
    {
        return None;
    }
    let method = call
        .child_by_field_name("function")
        .filter(|f| f.kind() == "member_expression")?;
    let property = method.child_by_field_name("property")?;
    ELEMENT_CALLBACKS
        .contains(&&source[property.byte_range()])
        .then(|| method.child_by_field_name("object"))
        .flatten()
}

/// Whether the type `value` (an alias's) is an intersection with an object
/// type of its own members among its types (`A & { path: string }`).
fn intersects_own_members(value: Node) -> bool {
    let mut value = value;
    // Each step goes one level down the tree, so this ends.
    while value.kind() == "parenthesized_type" {
        let Some(inner) = first_named_child(value) else {
            return false;
        };
        value = inner;
    }
    if value.kind() != "intersection_type" {
        return false;
    }
    let mut pending = vec![value];
    // `A & B & C` nests intersections; flattened with an explicit stack.
    while let Some(node) = pending.pop() {
        let mut cursor = node.walk();
        for part in node.named_children(&mut cursor) {
            match part.kind() {
                "intersection_type" => pending.push(part),
                "object_type" if mapped_over(part).is_none() && part.named_child_count() > 0 => {
                    return true;
                }
                _ => {}
            }
        }
    }
    false
}

/// The `T` a mapped type over `keyof T` maps (`{ [k in keyof T]: T[k] }`,
/// `{ [P in keyof T]?: .. }`), whose values have `T`'s members; `None` for
/// any other object type, or one renaming its keys (`as`).
fn mapped_over(object: Node) -> Option<Node> {
    let mut cursor = object.walk();
    let mut members = object
        .named_children(&mut cursor)
        .filter(|c| c.kind() != "comment");
    let (Some(only), None) = (members.next(), members.next()) else {
        return None;
    };
    if only.kind() != "index_signature" {
        return None;
    }
    let mut cursor = only.walk();
    let clause = only
        .named_children(&mut cursor)
        .find(|c| c.kind() == "mapped_type_clause")?;
    if clause.child_by_field_name("alias").is_some() {
        return None;
    }
    let keys = clause
        .child_by_field_name("type")
        .filter(|t| t.kind() == "index_type_query")?;
    first_named_child(keys)
}

/// Whether a declarator's value is a function (the name is then a
/// function symbol).
/// The type a type predicate on `function`'s first parameter proves: `User`
/// of `(x: unknown): x is User` and of `asserts x is User`.
fn guarded_type<'t>(function: Node<'t>, source: &str) -> Option<Node<'t>> {
    let annotation = function.child_by_field_name("return_type")?;
    let predicate = match annotation.kind() {
        "type_predicate_annotation" => first_named_child(annotation)?,
        "asserts_annotation" => first_named_child(first_named_child(annotation)?)?,
        _ => return None,
    };
    if predicate.kind() != "type_predicate" {
        return None;
    }
    let subject = predicate.child_by_field_name("name")?;
    let parameters = function.child_by_field_name("parameters")?;
    let first = first_named_child(parameters)?;
    let first_name = first.child_by_field_name("pattern")?;
    (first_name.kind() == "identifier"
        && source.get(first_name.byte_range()) == source.get(subject.byte_range()))
    .then(|| predicate.child_by_field_name("type"))
    .flatten()
}

fn is_function_value(value: Node) -> bool {
    matches!(
        value.kind(),
        "arrow_function" | "function_expression" | "generator_function"
    )
}

/// Whether a method is a getter (`get x(): T`).
fn is_getter(method: Node) -> bool {
    let mut cursor = method.walk();
    method.children(&mut cursor).any(|c| c.kind() == "get")
}

/// The first named child that is not a comment.
/// The parameter nodes of `function` (a declaration, function expression,
/// function type or call signature), in order, without a `this`
/// parameter (which takes no argument): `required_parameter` and
/// `optional_parameter` nodes; a bare arrow parameter (`x => ..`) states
/// no type and is left out.
pub(crate) fn parameters_of(function: Node) -> Vec<Node> {
    let Some(list) = function.child_by_field_name("parameters") else {
        return Vec::new();
    };
    let mut cursor = list.walk();
    list.named_children(&mut cursor)
        .filter(|p| matches!(p.kind(), "required_parameter" | "optional_parameter"))
        .filter(|p| {
            p.child_by_field_name("pattern")
                .is_none_or(|pattern| pattern.kind() != "this")
        })
        .collect()
}

/// The function type `ty` is (in an annotation or parentheses, with `|
/// null` or `| undefined`), if it is one.
fn function_type(ty: Node) -> Option<Node> {
    let mut ty = ty;
    // Each step goes at least one level down the tree, so this ends.
    loop {
        match ty.kind() {
            "type_annotation" | "parenthesized_type" => ty = first_named_child(ty)?,
            "function_type" => return Some(ty),
            "union_type" => {
                let mut cursor = ty.walk();
                let mut functions = ty
                    .named_children(&mut cursor)
                    .filter(|member| member.kind() != "comment")
                    .filter(|member| !matches!(member.kind(), "literal_type" | "predefined_type"));
                ty = match (functions.next(), functions.next()) {
                    (Some(only), None) => only,
                    _ => return None,
                };
            }
            _ => return None,
        }
    }
}

/// The constructor declared in the body of `class` (`constructor(..)`),
/// with a body (an overload signature has none).
fn constructor_of<'t>(class: Node<'t>, source: &str) -> Option<Node<'t>> {
    let body = class.child_by_field_name("body")?;
    let mut cursor = body.walk();
    body.named_children(&mut cursor).find(|member| {
        member.kind() == "method_definition"
            && member
                .child_by_field_name("name")
                .is_some_and(|name| &source[name.byte_range()] == "constructor")
    })
}

fn first_named_child(node: Node) -> Option<Node> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor)
        .find(|c| c.kind() != "comment")
}

#[cfg(test)]
mod tests {
    use lingo_plugin_sdk::Document;
    use lingo_plugin_sdk::bindings::exports::lingo::plugin::syntax::GuestDocument;
    use lingo_plugin_sdk::declared::describe_declared_types;

    use crate::TypeScript;

    /// One line per declared type of `source` read as the file `path`:
    /// target name (`local` or `symbol`), type (qualified), source.
    #[test]
    fn destructured_properties_are_members_of_the_value() {
        // `k = 2` (a default) reads `options.k` too.
        let source = "class Note {\n  kind = 1;\n  show(options: Options) {\n    const { kind } = this;\n    const { depth: d, k = 2 } = options;\n    return kind + d;\n  }\n}\n";
        let document = Document::<TypeScript>::new("a.ts".into(), source.into());
        let references = document.references();
        let lines: Vec<String> = references
            .iter()
            .filter(|r| r.is_member)
            .map(|r| {
                let on = r
                    .receiver
                    .as_ref()
                    .map(|x| references[x.reference as usize].name.clone());
                format!("{} q={:?} on={on:?}", r.name, r.qualifier)
            })
            .collect();
        assert_eq!(
            lines,
            [
                "kind q=[\"Note\"] on=None",
                "depth q=[] on=Some(\"options\")",
                "k q=[] on=Some(\"options\")",
            ]
        );
        // `kind` is still the local it declares, read on the next line.
        let locals = document.locals();
        assert!(locals.iter().any(|l| l.name == "kind"));
    }

    #[test]
    fn a_parameter_property_is_a_member_of_its_class() {
        let source =
            "class Action {\n  constructor(protected index: number, plain: number) {}\n}\n";
        let document = Document::<TypeScript>::new("a.ts".into(), source.into());
        let symbols = document.symbols();
        let index = symbols
            .iter()
            .find(|s| s.name == "index")
            .expect("a field symbol for the parameter property");
        let container = &symbols[index.container.expect("a container") as usize];
        assert_eq!(container.name, "Action");
        assert_eq!(index.container_name.as_deref(), Some("Action"));
        assert!(symbols.iter().all(|s| s.name != "plain"));
    }

    /// The declared types of `source` but its parameters' (which
    /// [`parameter_lines`] lists).
    fn declared_lines(path: &str, source: &str) -> Vec<String> {
        let document = Document::<TypeScript>::new(path.into(), source.into());
        describe_declared_types(&document, source, ".", true)
            .into_iter()
            .filter(|line| !line.contains(" parameter ["))
            .collect()
    }

    /// The parameter types `source` states.
    fn parameter_lines(source: &str) -> Vec<String> {
        let document = Document::<TypeScript>::new("a.ts".into(), source.into());
        describe_declared_types(&document, source, ".", true)
            .into_iter()
            .filter(|line| line.contains(" parameter ["))
            .collect()
    }

    #[test]
    fn functions_and_function_types_state_their_parameters_types() {
        let source = r#"
function f(this: Window, a: A, b?: ns.B<T>, c = 1, d: string | null, e?: string | Options): void {}
class Client {
  constructor(options: Options) {}
  on(event: Event, listener: (change: Change, index: number) => void): void {}
}
const g = (x: X) => x;
type ErrorMap = (issue: Issue, ctx: Ctx) => string;
interface Mapper { (value: Value): Result; }
interface Params { override?: (ctx: Context) => void; }
const m: (p: P) => void = null;
"#;
        assert_eq!(
            parameter_lines(source),
            [
                "symbol f: A parameter [0]",
                "symbol f: ns.B<T> parameter [1]",
                "symbol f: Options parameter [4]",
                "symbol Client: Options parameter [0]",
                "symbol constructor: Options parameter [0]",
                "symbol on: Event parameter [0]",
                "symbol on: Change parameter [1, 0]",
                "local listener: Change parameter [0]",
                "symbol g: X parameter [0]",
                "symbol ErrorMap: Issue parameter [0]",
                "symbol ErrorMap: Ctx parameter [1]",
                "symbol Mapper: Value parameter [0]",
                "symbol override: Context parameter [0]",
                "symbol m: P parameter [0]",
            ]
        );
    }

    #[test]
    fn arrays_and_iterables_state_their_element_type() {
        let source = "class C { users: User[] = []; tags?: ReadonlyArray<ns.Tag>; map: Map<K, V>; }\n\
            function load(all: Array<User> | undefined, s: Set<Group>): readonly Item[] { return []; }\n\
            async function fetch(): Promise<User> { return null; }\n";
        assert_eq!(
            declared_lines("a.ts", source),
            [
                "symbol C: C self-type",
                "symbol users: User element",
                "symbol tags: ReadonlyArray<ns.Tag> annotation",
                "symbol tags: ns.Tag element",
                "symbol map: Map<K, V> annotation",
                "symbol load: Item element",
                "local all: Array<User> annotation",
                "local all: User element",
                "local s: Set<Group> annotation",
                "local s: Group element",
                "symbol fetch: Promise<User> return-type",
                "symbol fetch: User element",
            ]
        );
    }

    /// A type predicate on the first parameter states what it proves, and
    /// no return type; one on another parameter states nothing.
    #[test]
    fn type_predicates_state_what_they_prove() {
        let source = "function isUser(x: unknown): x is User { return true; }\n\
            function assertAdmin(x: User): asserts x is models.Admin {}\n\
            function second(a: number, x: unknown): x is User { return true; }\n\
            class C { isReady(): this is Ready { return true; } }\n";
        assert_eq!(
            declared_lines("a.ts", source),
            [
                "symbol isUser: User narrowed",
                "symbol assertAdmin: models.Admin narrowed",
                "local x: User annotation",
                "symbol C: C self-type",
            ]
        );
    }

    #[test]
    fn indexing_iterating_and_element_callbacks_reach_one_element() {
        let source = "function f(users: User[]) {\n\
            const a = users[0];\n\
            const b = users[\"length\"];\n\
            for (const c of users) { c.save(); }\n\
            for (const k in users) { }\n\
            users.map(d => d.name);\n\
            users.forEach((e, i) => e.save());\n\
            users.reduce((acc, g) => acc, 0);\n\
            const h = await load();\n\
            users[1].save();\n\
            }\n";
        let document = Document::<TypeScript>::new("a.ts".into(), source.into());
        let references = document.references();
        let value = |v| lingo_plugin_sdk::testing::describe_receiver(&references, v);
        let locals = lingo_plugin_sdk::testing::describe_local_values(&document);
        assert_eq!(
            locals,
            [
                "a = users[_]",
                "c = users[_]",
                "d = users[_]",
                "e = users[_]",
                // What the promise `load()` returns holds.
                "h = load()[_]"
            ]
        );
        let last_save = references.iter().rfind(|r| r.name == "save").unwrap();
        assert_eq!(value(last_save.receiver.as_ref().unwrap()), "users[_]");
    }

    #[test]
    fn declared_types_are_what_the_source_writes() {
        let source = r#"import * as ns from "./ns";

export class Subscriber<T> extends Subscription implements Observer<T> {
  protected destination: Observer<T> | null;
  private parser: ns.Parser<T>;
  private readonly stop$ = new Subject<void>();
  constructor(private readonly dest: Subscriber<T>, label?: Label) {
    super();
  }
  next(value: T): void {
    const sub: Subscription = new Subscription();
    const inner = new ns.Inner<T>(value);
    let pending: Queue<T> | undefined;
  }
  pipe(): this { return this; }
  get size(): Size { return this.s; }
  static create<U>(source: Observable<U>): Subscriber<U> { return null; }
  async load(): Promise<Data> { return null; }
  static make = (params?: Label): Subscriber<Data> => new Subscriber(null);
}

export abstract class Operator<T, R> {
  abstract call(subscriber: Subscriber<R>, source: Observable<T>): TeardownLogic;
}

export interface Observer<T> {
  closed?: Flag;
  next(value: T): void;
  complete(): Result;
}

export function of<T>(parser: ns.a.Parser<T>): Observable<T> { return null; }
export const validate = (schema: ZodString): ZodResult => schema.min(1);
export const handle: Handler = function (): Reply { return null; };
export let current: ns.Context | null = null;
export const registry = new Registry();
"#;
        assert_eq!(
            declared_lines("src/subscriber.ts", source),
            [
                "symbol Subscriber: T type-parameter [0]",
                "symbol Subscriber: Subscriber self-type",
                "symbol destination: Observer<T> annotation",
                "symbol parser: ns.Parser<T> annotation",
                "symbol stop$: Subject constructor",
                "local dest: Subscriber<T> annotation",
                "symbol dest: Subscriber<T> annotation",
                "local label: Label annotation",
                "local value: T annotation",
                "local sub: Subscription annotation",
                "local inner: ns.Inner constructor",
                "local pending: Queue<T> annotation",
                "symbol pipe: Subscriber this-type",
                "symbol size: Size annotation",
                "symbol create: U type-parameter [0]",
                "symbol create: Subscriber<U> return-type",
                "local source: Observable<U> annotation",
                "symbol load: Promise<Data> return-type",
                "symbol load: Data element",
                "symbol make: Subscriber<Data> return-type",
                "local params: Label annotation",
                "symbol Operator: T type-parameter [0]",
                "symbol Operator: R type-parameter [1]",
                "symbol Operator: Operator self-type",
                "symbol call: TeardownLogic return-type",
                "local subscriber: Subscriber<R> annotation",
                "local source: Observable<T> annotation",
                "symbol Observer: T type-parameter [0]",
                "symbol closed: Flag annotation",
                "local value: T annotation",
                "symbol complete: Result return-type",
                "symbol of: T type-parameter [0]",
                "symbol of: Observable<T> return-type",
                "local parser: ns.a.Parser<T> annotation",
                "symbol validate: ZodResult return-type",
                "local schema: ZodString annotation",
                "symbol handle: Handler annotation",
                "symbol handle: Reply return-type",
                "symbol current: ns.Context annotation",
                "symbol registry: Registry constructor",
            ]
        );
    }

    #[test]
    fn types_the_source_does_not_name_are_not_reported() {
        let source = r#"function f<T, K extends keyof T>(
  a: string, b: number, c: any, d: unknown, e: void, g: object,
  h: A | B, i: A & B, j: A[], k: [A, B], l: (x: number) => B, m: { a: A },
  n: typeof q, o: "lit", p: 1, r: T, s: T | undefined, t: K, u: readonly A[],
  v: Array<T>[], w: keyof A, ...rest: A[]
): T[] {
  const x = make();
  const y = new this.Ctor();
  const z = new (pick())();
  const { left, right }: Pair = pair;
  const cast = value as A;
  let later;
  return [];
}
function guard(x: unknown): x is A { return true; }
function check(x: unknown): asserts x is A {}
interface Shape { next(): this; size: number; }
let outside: T;
"#;
        // A cast states the type it casts to; `next(): this` names no type
        // but states one: what it is called on, declared by `Shape`. An
        // array is no named type, but its elements are of one. A type
        // predicate is no return type, but states what it proves. A type
        // parameter is stated as written (`r: T`), and a generic function
        // states its type parameters: the host reads `T` as its constraint.
        assert_eq!(
            declared_lines("src/none.ts", source),
            [
                "symbol f: T type-parameter [0]",
                "symbol f: K type-parameter [1]",
                "symbol f: T element",
                "local j: A element",
                "local r: T annotation",
                "local s: T annotation",
                "local t: K annotation",
                "local u: A element",
                "local v: Array<T> element",
                "local cast: A annotation",
                "symbol guard: A narrowed",
                "symbol check: A narrowed",
                "symbol next: Shape this-type",
                "symbol outside: T annotation",
            ]
        );
    }

    /// A type alias states the types it stands for: each named type of a
    /// union (`null` and literals state none; an object type makes the
    /// alias state itself, for the members written in it), and a cast
    /// states its type.
    #[test]
    fn aliases_state_the_types_they_stand_for() {
        let source = "type U = A | (B | null) | \"lit\" | { x: X };\n\
            type One<T> = ns.Two<T>;\n\
            type Obj = { a: A };\n\
            type Param<T> = T;\n\
            export function f(raw: unknown) {\n\
              const issue = raw as U;\n\
              const fixed = raw as const;\n\
            }\n";
        assert_eq!(
            declared_lines("src/alias.ts", source),
            [
                "symbol U: A annotation",
                "symbol U: B annotation",
                "symbol U: U annotation",
                "symbol One: T type-parameter [0]",
                "symbol One: ns.Two<T> annotation",
                "symbol a: A annotation",
                "symbol Param: T type-parameter [0]",
                "symbol Param: T annotation",
                "local issue: U annotation",
            ]
        );
    }

    #[test]
    fn generic_aliases_state_their_parameters_arguments_and_what_they_stand_for() {
        // A conditional type's branches, an intersection's types, a mapped
        // type over `keyof T` and the standard wrappers stand for the types
        // in them; a mapped type renaming its keys, and a wrapper the file
        // imports itself, do not.
        let source = "import { Omit } from './mine';\n\
            type Raw<T extends ns.Base = Issue> = T extends any ? Flatten<MakePartial<T, 'a'> & { input: unknown }> : never;\n\
            type Flat<T> = { [k in keyof T]: T[k] };\n\
            type Wrapped = Partial<Pick<Issue, 'code'>> | Omit<Issue, 'x'> | Readonly<A & B>;\n\
            type Renamed<T> = { [k in keyof T as `x${k}`]: T[k] };\n\
            interface ErrorMap<T extends Base> { (issue: Raw<T>, all: Map<Key<T>, A | B>): string }\n\
            class Box<T> { value: T }\n\
            type Def<T extends Schema> = Partial<Omit<T['_zod'][\"def\"], 'x'>> | Box<T['a'][0]>;\n";
        let document = Document::<TypeScript>::new("src/generic.ts".into(), source.into());
        assert_eq!(
            describe_declared_types(&document, source, ".", true),
            [
                "symbol Raw: T = Issue type-parameter [0]",
                "local T: ns.Base annotation",
                "symbol Raw: Flatten<MakePartial<T>> annotation",
                "symbol Flat: T type-parameter [0]",
                "symbol Flat: T annotation",
                "symbol Wrapped: Issue annotation",
                "symbol Wrapped: Omit<Issue> annotation",
                "symbol Wrapped: A annotation",
                "symbol Wrapped: B annotation",
                "symbol Renamed: T type-parameter [0]",
                "symbol ErrorMap: T type-parameter [0]",
                "local T: Base annotation",
                "symbol ErrorMap: Raw<T> parameter [0]",
                "symbol ErrorMap: Map<Key<T>, A | B> parameter [1]",
                "local issue: Raw<T> annotation",
                "local all: Map<Key<T>, A | B> annotation",
                "symbol Box: T type-parameter [0]",
                "symbol Box: Box self-type",
                "symbol value: T annotation",
                "symbol Def: T type-parameter [0]",
                "local T: Schema annotation",
                "symbol Def: Omit<T[\"_zod\"][\"def\"]> annotation",
                "symbol Def: Box annotation",
            ]
        );
    }

    #[test]
    fn deeply_nested_generic_and_conditional_types_are_bounded() {
        // 5,000 levels of type arguments, of conditional types and of
        // lookups: at most 64 arguments are stated, nothing overflows.
        let depth = 5_000;
        let generic = format!("{}X{}", "A<".repeat(depth), ">".repeat(depth));
        let conditional = "T extends U ? ".repeat(depth) + "X" + &" : never".repeat(depth);
        let lookup = format!("T{}", "[\"k\"]".repeat(depth));
        let source =
            format!("type G = {generic};\ntype C<T, U> = {conditional};\ntype L<T> = {lookup};\n");
        let document = Document::<TypeScript>::new("src/deep.ts".into(), source.clone());
        let declared = document.declared_types();
        let g = declared
            .iter()
            .find(|d| d.type_name == "A")
            .expect("G states A");
        assert_eq!(g.arguments.len(), 64);
        // Past 256 pending branches, a conditional states none of its
        // types rather than some.
        assert!(declared.iter().all(|d| d.type_name != "X"), "{declared:?}");
        // A lookup deeper than the host follows is not stated.
        assert!(declared.iter().all(|d| d.members.len() <= 8));
    }

    #[test]
    fn javascript_and_tsx_state_types_by_construction_and_annotation() {
        let js = "import db from './db';\n\
            class Pool {\n\
              conn = new Connection();\n\
              #size = 1;\n\
              static count = 0;\n\
            }\n\
            const pool = new Pool();\n\
            const Named = class Inner {};\n\
            function open() {\n\
              const client = new db.Client();\n\
              let other = make();\n\
            }\n";
        assert_eq!(
            declared_lines("src/pool.js", js),
            [
                "symbol Pool: Pool self-type",
                "symbol conn: Connection constructor",
                "symbol pool: Pool constructor",
                "symbol Inner: Inner self-type",
                "local client: db.Client constructor",
            ]
        );
        let tsx = "export function View(props: Props): JSX.Element {\n\
              const state: State = useState();\n\
              return <div />;\n\
            }\n";
        assert_eq!(
            declared_lines("src/view.tsx", tsx),
            [
                "symbol View: JSX.Element return-type",
                "local props: Props annotation",
                "local state: State annotation",
            ]
        );
    }

    #[test]
    fn deeply_nested_source_does_not_overflow() {
        let depth = 5000;
        let source = format!(
            "function f(p: {}Deep{}) {{ return {}p{}; }}\n",
            "(".repeat(depth),
            ")".repeat(depth),
            "(".repeat(depth),
            ")".repeat(depth),
        );
        assert_eq!(
            declared_lines("src/deep.ts", &source),
            ["local p: Deep annotation"]
        );
    }
}
