//! The types Go source states without inference (`declared-types`).

use std::collections::HashMap;

use lingo_plugin_sdk::LineIndex;
use lingo_plugin_sdk::declared::{Targets, Written, preorder_over_targets};
use lingo_plugin_sdk::types::{DeclaredTarget, DeclaredType, DeclaredTypeSource, Local, Symbol};
use tree_sitter::Node;

/// Go's predeclared types: not declared anywhere a host could find them.
const PREDECLARED: &[&str] = &[
    "any",
    "bool",
    "byte",
    "comparable",
    "complex64",
    "complex128",
    "error",
    "float32",
    "float64",
    "int",
    "int8",
    "int16",
    "int32",
    "int64",
    "rune",
    "string",
    "uint",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "uintptr",
];

/// The `language-kind` of a type parameter among the locals.
const TYPE_PARAMETER: &str = "type_parameter";

/// The declared types of the file whose tree is `root`.
pub fn declared_types(
    root: Node,
    source: &str,
    lines: &LineIndex,
    symbols: &[Symbol],
    locals: &[Local],
) -> Vec<DeclaredType> {
    let mut locals_named: HashMap<&str, Vec<&Local>> = HashMap::new();
    for local in locals {
        locals_named
            .entry(local.name.as_str())
            .or_default()
            .push(local);
    }
    let mut context = Context {
        source,
        lines,
        targets: Targets::new(symbols, locals),
        locals_named,
        // A package-level `new` hides the builtin (in this file at least);
        // methods and fields named `new` do not.
        new_is_builtin: !symbols.iter().any(|s| {
            s.name == "new"
                && matches!(
                    s.language_kind.as_str(),
                    "function"
                        | "variable"
                        | "constant"
                        | "type"
                        | "struct"
                        | "interface"
                        | "type_alias"
                )
        }),
        constraints: HashMap::new(),
    };
    let mut out = Vec::new();
    // Each type below is found at a node that holds its target's name, and
    // the constraints are recorded at declarations holding a symbol's name.
    preorder_over_targets(root, symbols, locals, |node| context.visit(node, &mut out));
    out
}

struct Context<'a, 't> {
    source: &'a str,
    lines: &'a LineIndex,
    targets: Targets,
    locals_named: HashMap<&'a str, Vec<&'a Local>>,
    new_is_builtin: bool,
    /// Type parameters seen so far, by their name's offset: the single
    /// named type their constraint is, if it is one.
    constraints: HashMap<u32, Option<Written<'t>>>,
}

impl<'t> Context<'_, 't> {
    fn visit(&mut self, node: Node<'t>, out: &mut Vec<DeclaredType>) {
        match node.kind() {
            "type_spec" | "type_alias" => {
                self.type_parameters(node);
                // `type EqualFunc func(x, y int) Result`: what calling a
                // value of the type returns.
                if let Some(function) = node
                    .child_by_field_name("type")
                    .filter(|ty| ty.kind() == "function_type")
                {
                    self.result_of(node, function, out);
                }
            }
            // A variadic parameter (`xs ...T`) is a slice, stated by its
            // element's type as every collection is.
            "parameter_declaration" | "variadic_parameter_declaration" => {
                let Some(ty) = node.child_by_field_name("type") else {
                    return;
                };
                let mut cursor = node.walk();
                for name in node.children_by_field_name("name", &mut cursor) {
                    if let Some(target) = self.targets.local(name) {
                        self.push(out, target, ty, DeclaredTypeSource::Annotation);
                    }
                }
            }
            "field_declaration" => {
                let Some(ty) = node.child_by_field_name("type") else {
                    return;
                };
                let mut cursor = node.walk();
                let mut named = false;
                for name in node.children_by_field_name("name", &mut cursor) {
                    named = true;
                    if let Some(target) = self.targets.symbol(name) {
                        self.push(out, target, ty, DeclaredTypeSource::Annotation);
                    }
                }
                // An embedded field is named after its type.
                if !named
                    && let Some(written) = self.named_type(ty)
                    && let Some(target) = self.targets.symbol(written.name)
                {
                    out.push(written.declared(
                        target,
                        self.source,
                        self.lines,
                        DeclaredTypeSource::Annotation,
                    ));
                }
            }
            "var_spec" | "const_spec" => self.spec(node, out),
            "short_var_declaration" => {
                let (Some(left), Some(right)) = (
                    node.child_by_field_name("left"),
                    node.child_by_field_name("right"),
                ) else {
                    return;
                };
                let names = named_children(left);
                let values = named_children(right);
                if names.len() != values.len() {
                    return;
                }
                for (name, value) in names.into_iter().zip(values) {
                    if name.kind() != "identifier" {
                        continue;
                    }
                    if let Some(target) = self.targets.local(name) {
                        self.initialised(out, target, value);
                    }
                }
            }
            "function_declaration" => {
                // The result (`func F[T Stringer]() T`) is read here, before
                // the walk reaches the type parameters.
                self.type_parameters(node);
                self.result(node, out);
            }
            "method_elem" => self.result(node, out),
            "method_declaration" => {
                let target = node
                    .child_by_field_name("name")
                    .and_then(|n| self.targets.symbol(n));
                let receiver = node
                    .child_by_field_name("receiver")
                    .and_then(|list| {
                        named_children(list)
                            .into_iter()
                            .find(|p| p.kind() == "parameter_declaration")
                    })
                    .and_then(|p| p.child_by_field_name("type"));
                if let (Some(target), Some(ty)) = (target, receiver) {
                    self.push(out, target, ty, DeclaredTypeSource::Receiver);
                }
                self.result(node, out);
            }
            _ => {}
        }
    }

    /// Records the constraints of the type parameters `node` declares.
    fn type_parameters(&mut self, node: Node<'t>) {
        let Some(list) = node.child_by_field_name("type_parameters") else {
            return;
        };
        for declaration in named_children(list) {
            if declaration.kind() != "type_parameter_declaration" {
                continue;
            }
            let constraint = declaration
                .child_by_field_name("type")
                .and_then(single_named_child)
                .and_then(|ty| self.named_type(ty));
            let mut cursor = declaration.walk();
            for name in declaration.children_by_field_name("name", &mut cursor) {
                self.constraints
                    .insert(name.start_byte() as u32, constraint.clone());
            }
        }
    }

    /// `var x T`, `var x = T{..}`, `const c Unit = 1`: one declared type per
    /// name, from the type when written, else from the name's value.
    fn spec(&self, node: Node<'t>, out: &mut Vec<DeclaredType>) {
        let mut cursor = node.walk();
        let names: Vec<Node> = node.children_by_field_name("name", &mut cursor).collect();
        if let Some(ty) = node.child_by_field_name("type") {
            for name in names {
                if let Some(target) = self.symbol_or_local(name) {
                    self.push(out, target, ty, DeclaredTypeSource::Annotation);
                }
            }
            return;
        }
        let Some(values) = node.child_by_field_name("value").map(named_children) else {
            return;
        };
        if names.len() != values.len() {
            return;
        }
        for (name, value) in names.into_iter().zip(values) {
            if let Some(target) = self.symbol_or_local(name) {
                self.initialised(out, target, value);
            }
        }
    }

    /// A function's or method's result types: `T` or `(T)` as its type,
    /// each of several (`(*T, error)`, `(a, b T, err error)`) as the tuple
    /// element it is (`[0]` for `*T`), which `x, err := F()` destructures.
    fn result(&self, node: Node<'t>, out: &mut Vec<DeclaredType>) {
        self.result_of(node, node, out);
    }

    /// The result types `signature` (a declaration or a function type)
    /// states, for the declaration `named` names, as [`Self::result`] reads
    /// them.
    fn result_of(&self, named: Node<'t>, signature: Node<'t>, out: &mut Vec<DeclaredType>) {
        let target = named
            .child_by_field_name("name")
            .and_then(|n| self.targets.symbol(n));
        if let Some(target) = target {
            self.results(target, signature, out);
        }
    }

    /// The result types `signature` (a declaration, a function type or a
    /// function literal) states, as what calling `target` returns.
    fn results(&self, target: DeclaredTarget, signature: Node<'t>, out: &mut Vec<DeclaredType>) {
        let Some(result) = signature.child_by_field_name("result") else {
            return;
        };
        if result.kind() != "parameter_list" {
            self.push(out, target, result, DeclaredTypeSource::ReturnType);
            return;
        }
        // One type per result: a declaration naming several (`a, b T`)
        // gives each of them.
        let mut types = Vec::new();
        for declaration in named_children(result) {
            if !matches!(
                declaration.kind(),
                "parameter_declaration" | "variadic_parameter_declaration"
            ) {
                continue;
            }
            let Some(ty) = declaration.child_by_field_name("type") else {
                return;
            };
            let mut cursor = declaration.walk();
            let names = declaration
                .children_by_field_name("name", &mut cursor)
                .count()
                .max(1);
            types.extend(std::iter::repeat_n(ty, names));
        }
        if let [only] = types.as_slice() {
            self.push(out, target, *only, DeclaredTypeSource::ReturnType);
            return;
        }
        for (index, ty) in types.into_iter().enumerate() {
            let before = out.len();
            self.push(out, target, ty, DeclaredTypeSource::ReturnType);
            if let Some(pushed) = out.get_mut(before) {
                pushed.element = vec![index as u32];
            }
        }
    }

    /// `x := T{..}`, `x := &T{..}`, `x := new(T)`; not function calls
    /// (`NewT()`, whose return type the host follows) nor conversions
    /// (`T(v)`, indistinguishable from calls).
    fn initialised(&self, out: &mut Vec<DeclaredType>, target: DeclaredTarget, value: Node<'t>) {
        let mut value = value;
        // Each step goes one level down the tree, so this ends.
        loop {
            match value.kind() {
                "parenthesized_expression" => match single_named_child(value) {
                    Some(inner) => value = inner,
                    None => return,
                },
                "unary_expression" => {
                    let is_address = value
                        .child_by_field_name("operator")
                        .is_some_and(|o| &self.source[o.byte_range()] == "&");
                    match value.child_by_field_name("operand") {
                        Some(operand) if is_address => value = operand,
                        _ => return,
                    }
                }
                _ => break,
            }
        }
        match value.kind() {
            "composite_literal" => {
                if let Some(ty) = value.child_by_field_name("type") {
                    self.push(out, target, ty, DeclaredTypeSource::Literal);
                }
            }
            // `makeGraph := func() map[string]*Node { .. }`: what calling
            // the variable returns.
            "func_literal" => self.results(target, value, out),
            "call_expression" => {
                let Some(function) = value.child_by_field_name("function") else {
                    return;
                };
                if function.kind() != "identifier"
                    || &self.source[function.byte_range()] != "new"
                    || !self.new_is_builtin
                    || self.value_in_scope(function)
                {
                    return;
                }
                let Some(argument) = value
                    .child_by_field_name("arguments")
                    .and_then(single_named_child)
                else {
                    return;
                };
                // `new(v)` of a variable (Go 1.26 `new(expr)`) parses as a
                // type name too.
                let is_type = match argument.kind() {
                    "type_identifier" => !self.value_in_scope(argument),
                    "qualified_type" | "generic_type" | "pointer_type" => true,
                    _ => false,
                };
                if is_type {
                    self.push(out, target, argument, DeclaredTypeSource::Constructor);
                }
            }
            _ => {}
        }
    }

    fn push(
        &self,
        out: &mut Vec<DeclaredType>,
        target: DeclaredTarget,
        ty: Node<'t>,
        source: DeclaredTypeSource,
    ) {
        if let Some(written) = self.named_type(ty) {
            out.push(written.declared(target, self.source, self.lines, source));
        }
    }

    /// The outer named type of a type as written: pointers and parentheses
    /// stripped, type arguments dropped, the package split off; a type
    /// parameter replaced by its constraint when that is one named type.
    /// A slice, array or channel is stated by its element's type and a map
    /// by its values': they have no members of their own, and `xs[i]`,
    /// `m[k]` and the `v` of `for _, v := range xs` are values of it (see
    /// `element_expressions`). `None` for predeclared types, function,
    /// struct and interface types.
    fn named_type(&self, ty: Node<'t>) -> Option<Written<'t>> {
        let mut ty = ty;
        // Each step goes one level down the tree, so this ends.
        loop {
            match ty.kind() {
                "pointer_type" | "parenthesized_type" | "type_elem" => {
                    ty = single_named_child(ty)?;
                }
                "slice_type" | "array_type" | "implicit_length_array_type" => {
                    ty = ty.child_by_field_name("element")?;
                }
                "map_type" | "channel_type" => ty = ty.child_by_field_name("value")?,
                "generic_type" => ty = ty.child_by_field_name("type")?,
                "type_identifier" => {
                    let name = &self.source[ty.byte_range()];
                    if let Some(parameter) = self.type_parameter(ty) {
                        return self.constraints.get(&parameter).cloned().flatten();
                    }
                    if PREDECLARED.contains(&name) {
                        return None;
                    }
                    return Some(Written {
                        name: ty,
                        qualifier: Vec::new(),
                    });
                }
                "qualified_type" => {
                    let package = ty.child_by_field_name("package")?;
                    let name = ty.child_by_field_name("name")?;
                    return Some(Written {
                        name,
                        qualifier: vec![self.source[package.byte_range()].to_string()],
                    });
                }
                _ => return None,
            }
        }
    }

    /// The offset of the type parameter `name` denotes, if it denotes one.
    fn type_parameter(&self, name: Node) -> Option<u32> {
        self.visible(name)
            .find(|l| l.language_kind == TYPE_PARAMETER)
            .map(|l| l.span.start.offset)
    }

    /// Whether `name` is a variable, parameter or other value here.
    fn value_in_scope(&self, name: Node) -> bool {
        self.visible(name)
            .any(|l| l.language_kind != TYPE_PARAMETER)
    }

    /// The locals of `name`'s text whose scope holds it.
    fn visible(&self, name: Node) -> impl Iterator<Item = &Local> {
        let offset = name.start_byte() as u32;
        self.locals_named
            .get(&self.source[name.byte_range()])
            .into_iter()
            .flatten()
            .copied()
            .filter(move |l| l.scope.start.offset <= offset && offset < l.scope.end.offset)
    }

    /// Package-level names are symbols; those of function bodies locals.
    fn symbol_or_local(&self, name: Node) -> Option<DeclaredTarget> {
        self.targets
            .symbol(name)
            .or_else(|| self.targets.local(name))
    }
}

/// The named type a type expression is a value of, pointers and
/// parentheses looked through: `T` of `T`, `*T`, `(*T)`, and `pkg.T`.
pub fn named_type_node(ty: Node) -> Option<Node> {
    let mut ty = ty;
    // Each step goes one level down the tree, so this ends.
    while matches!(ty.kind(), "pointer_type" | "parenthesized_type") {
        ty = single_named_child(ty)?;
    }
    matches!(ty.kind(), "type_identifier" | "qualified_type").then_some(ty)
}

/// Enclosing nodes looked at from a read for the type switch it is in:
/// past this the read counts as in none.
const MAX_SWITCH_DEPTH: usize = 256;

/// When the identifier `value` reads the variable of `switch v :=
/// x.(type)` inside a `case T:` naming one type, in the same function:
/// that type (a read in a `case A, B:` or `default:` has the switched
/// value's type). None too when a statement of the case before the read
/// declares or assigns a variable of that name.
pub fn type_switch_case<'t>(value: Node<'t>, source: &str) -> Option<Node<'t>> {
    if value.kind() != "identifier" {
        return None;
    }
    let name = source.get(value.byte_range())?;
    // The statement of the innermost statement list on the way up that
    // holds the read, and the node just below the current one.
    let mut statement = None;
    let mut node = value;
    for _ in 0..MAX_SWITCH_DEPTH {
        let parent = node.parent()?;
        match parent.kind() {
            "statement_list" => statement = Some(node),
            "type_case" => {
                let switch = parent.parent()?;
                let alias = switch.child_by_field_name("alias")?;
                if switch.kind() != "type_switch_statement"
                    || source.get(alias.byte_range()) != Some(name)
                {
                    return None;
                }
                let mut cursor = parent.walk();
                let types: Vec<Node> = parent
                    .children_by_field_name("type", &mut cursor)
                    .filter(|t| t.is_named())
                    .collect();
                let [only] = types.as_slice() else {
                    return None;
                };
                // A statement of the case before the read's own that
                // declares or assigns the name ends what the case says.
                let mut before = statement.and_then(|s| s.prev_named_sibling());
                while let Some(earlier) = before {
                    if binds(earlier, name, source) {
                        return None;
                    }
                    before = earlier.prev_named_sibling();
                }
                return named_type_node(*only);
            }
            "func_literal" | "function_declaration" | "method_declaration" => return None,
            _ => {}
        }
        node = parent;
    }
    None
}

/// Whether `statement` declares or assigns a variable `name` at its top:
/// `name := ..`, `name = ..`, `var name ..`.
fn binds(statement: Node, name: &str, source: &str) -> bool {
    let left = match statement.kind() {
        "short_var_declaration" | "assignment_statement" => statement.child_by_field_name("left"),
        "var_declaration" => Some(statement),
        _ => None,
    };
    let Some(left) = left else {
        return false;
    };
    let mut cursor = left.walk();
    let found = left
        .named_children(&mut cursor)
        .any(|n| n.kind() == "identifier" && source.get(n.byte_range()) == Some(name));
    found
        || (statement.kind() == "var_declaration"
            && named_children(statement).into_iter().any(|spec| {
                let mut cursor = spec.walk();
                spec.children_by_field_name("name", &mut cursor)
                    .any(|n| source.get(n.byte_range()) == Some(name))
            }))
}

/// The named children of `node`, comments left out.
fn named_children(node: Node) -> Vec<Node> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor)
        .filter(|c| c.kind() != "comment")
        .collect()
}

/// The only named child of `node` (comments left out), if it has one.
fn single_named_child(node: Node) -> Option<Node> {
    let mut children = named_children(node).into_iter();
    match (children.next(), children.next()) {
        (Some(only), None) => Some(only),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use lingo_plugin_sdk::Document;
    use lingo_plugin_sdk::bindings::exports::lingo::plugin::syntax::GuestDocument;
    use lingo_plugin_sdk::declared::describe_declared_types;

    use crate::Go;

    /// A type switch's variable in a case of one type is narrowed to it
    /// (a pointer's element type); not in a case of two types, in
    /// `default:`, after it is assigned anew, or in a function literal.
    #[test]
    fn a_type_switch_case_of_one_type_narrows_its_variable() {
        let source = "package p\n\nfunc f(x any) {\n\
            \tswitch v := x.(type) {\n\
            \tcase A:\n\t\tv.a()\n\
            \tcase *pkg.B:\n\t\tif ok { v.b() }\n\
            \tcase C, D:\n\t\tv.c()\n\
            \tdefault:\n\t\tv.d()\n\
            \tcase E:\n\t\tv = other\n\t\tv.e()\n\
            \tcase F:\n\t\tgo func() { v.f() }()\n\
            \t}\n}\n";
        let document = document(source);
        let references = document.references();
        let narrowed: Vec<String> = document
            .narrowings()
            .iter()
            .map(|n| {
                let (read, by) = (&references[n.value as usize], &references[n.by as usize]);
                format!("{}:{} {}", read.name, read.span.start.line, by.name)
            })
            .collect();
        assert_eq!(narrowed, ["v:5 A", "v:7 B"]);
    }

    fn document(source: &str) -> Document<Go> {
        Document::<Go>::new("p/p.go".into(), source.into())
    }

    /// One line per declared type: target name, type (qualified), source.
    fn declared_lines(source: &str) -> Vec<String> {
        describe_declared_types(&document(source), source, ".", false)
    }

    #[test]
    fn declared_types_are_what_the_source_writes() {
        let source = "package p\n\
            \n\
            type Decoder struct {\n\
            \tr, br *bufio.Reader\n\
            \tio.Closer\n\
            \t*Base\n\
            \tinner struct{ s *scanner }\n\
            }\n\
            \n\
            type Source interface {\n\
            \tNext() (*Token, error)\n\
            \tPeek() Token\n\
            }\n\
            \n\
            var Default = &Decoder{}\n\
            var std Decoder\n\
            const Millimetre Unit = 1\n\
            \n\
            func NewDecoder(r io.Reader) *Decoder { return &Decoder{} }\n\
            \n\
            func (d *Decoder) Decode() (t Token, err error) {\n\
            \tvar s scanner\n\
            \tvar a, b = A{}, pkg.B{}\n\
            \tx := new(Token)\n\
            \ty, z := &List[int]{}, (Stack{})\n\
            \tg := func(c *Cursor) {}\n\
            \treturn\n\
            }\n\
            \n\
            func (scanner) pop() {}\n\
            \n\
            func (l *List[T]) Push(v T) *List[T] { return l }\n";
        assert_eq!(
            declared_lines(source),
            [
                "r: bufio.Reader annotation",
                "br: bufio.Reader annotation",
                "Closer: io.Closer annotation",
                "Base: Base annotation",
                "s: scanner annotation",
                "Next: Token return-type [0]",
                "Peek: Token return-type",
                "Default: Decoder literal",
                "std: Decoder annotation",
                "Millimetre: Unit annotation",
                "NewDecoder: Decoder return-type",
                "r: io.Reader annotation",
                "Decode: Decoder receiver",
                "Decode: Token return-type [0]",
                "d: Decoder annotation",
                "t: Token annotation",
                "s: scanner annotation",
                "a: A literal",
                "b: pkg.B literal",
                "x: Token constructor",
                "y: List literal",
                "z: Stack literal",
                "c: Cursor annotation",
                "pop: scanner receiver",
                // `T` is the receiver's type parameter: no type is written for it.
                "Push: List receiver",
                "Push: List return-type",
                "l: List annotation",
            ]
        );
    }

    #[test]
    fn predeclared_and_called_types_are_not_declared_collections_by_their_elements() {
        let source = "package p\n\
            \n\
            type T struct {\n\
            \tn int\n\
            \tbuf []byte\n\
            \tm map[string]Token\n\
            \tf func(Token) error\n\
            \tch chan Token\n\
            \tarr [4]Token\n\
            \tiface interface{ Len() int }\n\
            }\n\
            \n\
            type I interface {\n\
            \tio.Reader\n\
            \tLen() int\n\
            \tAll() []Token\n\
            }\n\
            \n\
            type Handler func(w Writer) Token\n\
            \n\
            func f(c byte, s string, e error, a any, xs ...Token, h func(Token), k map[string]Token) (int, *Token) {\n\
            \tv := NewDecoder(nil)\n\
            \tu := f()\n\
            \tq := Token(v)\n\
            \tw := []Token{}\n\
            \tm := map[string]Token{}\n\
            \tn := 1\n\
            \tp := new(v)\n\
            \tr := -Token{}\n\
            \tx, y := Token{}\n\
            \tfor _, tok := range []Token{} {}\n\
            \treturn 0, nil\n\
            }\n\
            \n\
            func g() {\n\
            \tnew := func(x any) *Token { return nil }\n\
            \tt := new(Token)\n\
            }\n";
        // A collection is stated by its element (a map by its values): the
        // fields, `All`'s result, the parameters `xs ...Token` and `k`, and
        // the literals; `[]byte` by a predeclared type, so not at all. What
        // calling a `Handler`, or the local `new` holding a function
        // literal, returns, and the named result of `(int, *Token)`.
        assert_eq!(
            declared_lines(source),
            [
                "m: Token annotation",
                "ch: Token annotation",
                "arr: Token annotation",
                "All: Token return-type",
                "Handler: Token return-type",
                "f: Token return-type [1]",
                "xs: Token annotation",
                "k: Token annotation",
                "w: Token literal",
                "m: Token literal",
                "new: Token return-type",
            ]
        );
    }

    #[test]
    fn new_is_a_constructor_unless_a_package_level_new_hides_it() {
        let method = "package p\n\
            func (s *S) new() {}\n\
            func f() { x := new(T) }\n";
        assert_eq!(
            declared_lines(method),
            ["new: S receiver", "s: S annotation", "x: T constructor"]
        );
        let function = "package p\n\
            func new(t T) *U { return nil }\n\
            func f() { x := new(T) }\n";
        assert_eq!(
            declared_lines(function),
            ["new: U return-type", "t: T annotation"]
        );
    }

    #[test]
    fn a_type_parameter_stands_for_its_constraint_when_that_is_one_named_type() {
        let source = "package p\n\
            \n\
            type Box[T Stringer] struct { v T; all []T }\n\
            \n\
            func Map[T Stringer, U any, P fmt.Stringer, N ~int | ~uint](x T, y U, p P, n N) T { return x }\n";
        assert_eq!(
            declared_lines(source),
            [
                "v: Stringer annotation",
                "all: Stringer annotation",
                "Map: Stringer return-type",
                "x: Stringer annotation",
                "p: fmt.Stringer annotation",
            ]
        );
    }

    #[test]
    fn deeply_nested_source_does_not_overflow_the_stack() {
        let depth = 5000;
        let source = format!(
            "package p\n\nfunc f(d *Decoder) {{\n\tx := {}1{}\n\t{}\n\ty := &Token{{}}\n}}\n",
            "(".repeat(depth),
            ")".repeat(depth),
            "{".repeat(depth) + &"}".repeat(depth),
        );
        // On a thread with a small stack, where recursion on depth would fail.
        let lines = std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(move || declared_lines(&source))
            .expect("spawn a thread")
            .join()
            .expect("no stack overflow");
        assert_eq!(lines, ["d: Decoder annotation", "y: Token literal"]);
    }
}
