//! The types Rust source states without inference: parameters', annotated
//! `let`s', `const`s' and `static`s' types, `let`s initialised by a struct literal or by
//! `T::new(..)` / `T::default()` or by a copy of `self` (`self.clone()`), fields' types, functions' return types
//! (`Self` as the `impl`'s type; each element of a tuple), the type of each `impl` block, the element of a
//! value each binding of a `let`'s tuple pattern destructures, and the element type of the standard
//! collections (`Vec<T>`, `[T]`), what indexing or iterating one gives.

use std::cell::OnceCell;

use lingo_plugin_sdk::LineIndex;
use lingo_plugin_sdk::declared::{Targets, Written, preorder_over_targets};
use lingo_plugin_sdk::types::{DeclaredTarget, DeclaredType, DeclaredTypeSource, Local, Symbol};
use lingo_plugin_sdk::walk::ancestors;
use tree_sitter::Node;

/// Associated functions that return `Self` by the language's own contract
/// (`Default::default`) or by universal convention (`new`).
const CONSTRUCTORS: &[&str] = &["new", "default"];

/// Methods that return an owned copy of their receiver by the standard
/// traits' contracts (`Clone::clone`, `ToOwned::to_owned` of a `Clone`
/// type): `self.clone()` is a value of the `impl`'s type.
const COPIES: &[&str] = &["clone", "to_owned"];

/// The declared types of the file whose tree is `root`.
pub fn declared_types(
    root: Node,
    source: &str,
    lines: &LineIndex,
    symbols: &[Symbol],
    locals: &[Local],
) -> Vec<DeclaredType> {
    let context = Context {
        root,
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
    root: Node<'a>,
    source: &'a str,
    lines: &'a LineIndex,
    targets: Targets,
}

impl<'a> Context<'a> {
    fn visit(&self, node: Node, out: &mut Vec<DeclaredType>) {
        match node.kind() {
            "parameter" => {
                let target = node
                    .child_by_field_name("pattern")
                    .and_then(binding_name)
                    .and_then(|n| self.targets.local(n));
                if let (Some(target), Some(ty)) = (target, node.child_by_field_name("type")) {
                    self.push_with_element(out, target, ty, DeclaredTypeSource::Annotation);
                }
            }
            "let_declaration" => {
                let Some(target) = node
                    .child_by_field_name("pattern")
                    .and_then(binding_name)
                    .and_then(|n| self.targets.local(n))
                else {
                    return;
                };
                if let Some(ty) = node.child_by_field_name("type") {
                    self.push_with_element(out, target, ty, DeclaredTypeSource::Annotation);
                } else if let Some(value) = node.child_by_field_name("value") {
                    self.initialised(out, target, value);
                }
            }
            // `Data(Data, Other)`: each field's type, an element of the
            // variant's value, which a pattern `Msg::Data(d, o)` binds.
            "enum_variant" => {
                let target = node
                    .child_by_field_name("name")
                    .and_then(|n| self.targets.symbol(n));
                let Some(target) = target else {
                    return;
                };
                // `One(x)` and `Empty` are values of the enum: what calling
                // a tuple variant returns, what a unit variant is.
                let body = node.child_by_field_name("body");
                let enum_name = node
                    .parent()
                    .filter(|list| list.kind() == "enum_variant_list")
                    .and_then(|list| list.parent())
                    .filter(|item| item.kind() == "enum_item")
                    .and_then(|item| item.child_by_field_name("name"));
                if let Some(enum_name) = enum_name {
                    match body.map(|b| b.kind()) {
                        Some("ordered_field_declaration_list") => {
                            self.push(out, target, enum_name, DeclaredTypeSource::ReturnType);
                        }
                        None => self.push(out, target, enum_name, DeclaredTypeSource::Annotation),
                        Some(_) => {}
                    }
                }
                let Some(body) = body.filter(|b| b.kind() == "ordered_field_declaration_list")
                else {
                    return;
                };
                let mut cursor = body.walk();
                let fields: Vec<Node> = body.children_by_field_name("type", &mut cursor).collect();
                for (index, ty) in fields.into_iter().enumerate() {
                    let before = out.len();
                    self.push(out, target, ty, DeclaredTypeSource::Annotation);
                    for pushed in &mut out[before..] {
                        pushed.element = vec![index as u32];
                    }
                }
            }
            "field_declaration" | "const_item" | "static_item" => {
                let target = node
                    .child_by_field_name("name")
                    .and_then(|n| self.targets.symbol(n));
                if let (Some(target), Some(ty)) = (target, node.child_by_field_name("type")) {
                    self.push_with_element(out, target, ty, DeclaredTypeSource::Annotation);
                }
            }
            "function_item" | "function_signature_item" => {
                let target = node
                    .child_by_field_name("name")
                    .and_then(|n| self.targets.symbol(n));
                if let (Some(target), Some(ty)) = (target, node.child_by_field_name("return_type"))
                {
                    self.push_elements(out, target, ty, DeclaredTypeSource::ReturnType);
                    if let Some(element) = element_type(ty, self.source) {
                        self.push(out, target, element, DeclaredTypeSource::Element);
                    }
                }
            }
            "impl_item" => {
                let Some(ty) = node.child_by_field_name("type") else {
                    return;
                };
                let target = named_type(ty, self.source, &|| None)
                    .and_then(|w| self.targets.symbol(w.name).map(|t| (t, w)));
                if let Some((target, written)) = target {
                    out.push(written.declared(
                        target,
                        self.source,
                        self.lines,
                        DeclaredTypeSource::SelfType,
                    ));
                }
            }
            _ => {}
        }
    }

    /// `let x = T { .. }`, `let x = &T { .. }`, `let x = T::new(..)`,
    /// `let x = self.clone()`, `let me = &mut *self`.
    fn initialised(&self, out: &mut Vec<DeclaredType>, target: DeclaredTarget, value: Node) {
        let mut value = value;
        // Each step goes one level down the tree, so this ends.
        loop {
            let inner = match value.kind() {
                "reference_expression" => value.child_by_field_name("value"),
                "parenthesized_expression" => value.named_child(0),
                // `*self`: what the receiver points to (not `-x` or `!x`,
                // whose type is an operator's output).
                "unary_expression" if value.child(0).is_some_and(|op| op.kind() == "*") => {
                    value.named_child(0)
                }
                _ => break,
            };
            match inner {
                Some(inner) => value = inner,
                None => return,
            }
        }
        match value.kind() {
            // `let me = &mut *self;` (`self: Pin<&mut Self>`): a value of the
            // type of the `impl` around it.
            "self" => {
                if let Some(impl_type) = impl_type(&ancestors(self.root, value)) {
                    self.push(out, target, impl_type, DeclaredTypeSource::Constructor);
                }
            }
            "struct_expression" => {
                if let Some(name) = value.child_by_field_name("name") {
                    self.push(out, target, name, DeclaredTypeSource::Literal);
                }
            }
            "call_expression" => {
                let Some(function) = value.child_by_field_name("function") else {
                    return;
                };
                if function.kind() == "field_expression" {
                    self.copy_of_self(out, target, value, function);
                    return;
                }
                if function.kind() != "scoped_identifier" {
                    return;
                }
                let (Some(path), Some(name)) = (
                    function.child_by_field_name("path"),
                    function.child_by_field_name("name"),
                ) else {
                    return;
                };
                if !CONSTRUCTORS.contains(&&self.source[name.byte_range()]) {
                    return;
                }
                self.push(out, target, path, DeclaredTypeSource::Constructor);
            }
            _ => {}
        }
    }

    /// `self.clone()` (the call `call`, whose function is `method`): a
    /// value of the type of the `impl` around it.
    fn copy_of_self(
        &self,
        out: &mut Vec<DeclaredType>,
        target: DeclaredTarget,
        call: Node,
        method: Node,
    ) {
        let has_arguments = call
            .child_by_field_name("arguments")
            .is_some_and(|a| a.named_child_count() > 0);
        let (Some(receiver), Some(name)) = (
            method.child_by_field_name("value"),
            method.child_by_field_name("field"),
        ) else {
            return;
        };
        if has_arguments
            || receiver.kind() != "self"
            || !COPIES.contains(&&self.source[name.byte_range()])
        {
            return;
        }
        if let Some(impl_type) = impl_type(&ancestors(self.root, call)) {
            self.push(out, target, impl_type, DeclaredTypeSource::Constructor);
        }
    }

    /// [`Context::push`] of `ty`, or of each element of it when it is a
    /// tuple type (`-> (Sender<T>, Receiver<T>)`), tuples nested in it
    /// included down to [`MAX_TUPLE_DEPTH`].
    fn push_elements(
        &self,
        out: &mut Vec<DeclaredType>,
        target: DeclaredTarget,
        ty: Node,
        source: DeclaredTypeSource,
    ) {
        let mut pending = vec![(ty, Vec::new())];
        while let Some((ty, element)) = pending.pop() {
            if ty.kind() != "tuple_type" {
                let before = out.len();
                self.push(out, target, ty, source);
                if let Some(pushed) = out.get_mut(before) {
                    pushed.element = element;
                }
                continue;
            }
            if element.len() >= MAX_TUPLE_DEPTH {
                continue;
            }
            // Pushed last first, so that they come out in source order.
            for (index, item) in tuple_items(ty).into_iter().enumerate().rev() {
                let mut path = element.clone();
                path.push(index as u32);
                pending.push((item, path));
            }
        }
    }

    /// [`Context::push`] of `ty`, and of its element type when it is a
    /// standard collection (see [`element_type`]).
    fn push_with_element(
        &self,
        out: &mut Vec<DeclaredType>,
        target: DeclaredTarget,
        ty: Node,
        source: DeclaredTypeSource,
    ) {
        self.push(out, target, ty, source);
        if let Some(element) = element_type(ty, self.source) {
            self.push(out, target, element, DeclaredTypeSource::Element);
        }
    }

    fn push(
        &self,
        out: &mut Vec<DeclaredType>,
        target: DeclaredTarget,
        ty: Node,
        source: DeclaredTypeSource,
    ) {
        // Found once, and only when needed: the way up costs a descent.
        let outer = OnceCell::new();
        let outer = || outer.get_or_init(|| ancestors(self.root, ty)).as_slice();
        let Some(mut written) = named_type(ty, self.source, &|| impl_type(outer())) else {
            return;
        };
        // A generic parameter stands for its one trait bound (`p: P` with
        // `P: Parse`); with several bounds or none, no type is stated.
        if written.qualifier.is_empty() {
            match generic_bound(
                outer(),
                &self.source[written.name.byte_range()],
                self.source,
            ) {
                Generic::Not => {}
                Generic::Bound(bound) => match named_type(bound, self.source, &|| None) {
                    Some(bound) => written = bound,
                    None => return,
                },
                Generic::Unbounded => return,
            }
        }
        // A bare lowercase path (`helpers::make(..)`) names a module, not a type.
        let name = &self.source[written.name.byte_range()];
        if !name.starts_with(|c: char| c.is_uppercase()) {
            return;
        }
        out.push(written.declared(target, self.source, self.lines, source));
    }
}

/// Tuples nested in tuples followed, in a pattern or a type.
const MAX_TUPLE_DEPTH: usize = 8;

/// The items of a tuple pattern or type, in order: its children but the
/// punctuation and comments (`_` is an unnamed node, still an item).
fn tuple_items(tuple: Node) -> Vec<Node> {
    let mut cursor = tuple.walk();
    tuple
        .children(&mut cursor)
        .filter(|c| !c.is_extra() && !matches!(c.kind(), "(" | ")" | ","))
        .collect()
}

/// The value a binding of a `let`'s tuple pattern destructures and the
/// element it binds (`channel()` and `[1]` for `rx` in
/// `let (tx, mut rx) = channel()`), the name node given. None outside a
/// tuple pattern, or after a `..` in one (the element's index is then
/// counted from the end).
pub fn destructured_value<'t>(name: Node<'t>, source: &str) -> Option<(Node<'t>, Vec<u32>)> {
    // `ref x`, `mut x`, `ref mut x`: the binding `x`.
    let mut node = binding_pattern(name)?;
    let mut element = Vec::new();
    loop {
        let parent = node.parent()?;
        match parent.kind() {
            // `Msg::Data(d)`: the variant's field at `d`'s place (the
            // values of `Some(x)` and `Ok(x)` are their scrutinee's
            // element instead: `iterated_value`).
            "tuple_struct_pattern" if element.is_empty() => {
                let variant = parent.child_by_field_name("type")?;
                let last = variant.child_by_field_name("name").unwrap_or(variant);
                if matches!(&source[last.byte_range()], "Some" | "Ok") {
                    return None;
                }
                // The patterns in order: `_` is one too, though unnamed.
                let mut cursor = parent.walk();
                let items: Vec<Node> = parent
                    .children(&mut cursor)
                    .filter(|item| {
                        (item.is_named() || item.kind() == "_")
                            && *item != variant
                            && item.kind() != "comment"
                    })
                    .collect();
                let index = items.iter().position(|item| *item == node)?;
                if items[..index]
                    .iter()
                    .any(|item| item.kind() == "remaining_field_pattern")
                {
                    return None;
                }
                return Some((variant, vec![index as u32]));
            }
            "tuple_pattern" if element.len() < MAX_TUPLE_DEPTH => {
                let items = tuple_items(parent);
                let index = items.iter().position(|item| *item == node)?;
                if items[..index]
                    .iter()
                    .any(|item| item.kind() == "remaining_field_pattern")
                {
                    return None;
                }
                element.push(index as u32);
                node = parent;
            }
            "let_declaration" if !element.is_empty() => {
                if parent.child_by_field_name("pattern")? != node
                    || parent.child_by_field_name("type").is_some()
                {
                    return None;
                }
                element.reverse();
                return Some((parent.child_by_field_name("value")?, element));
            }
            _ => return None,
        }
    }
}

/// The identifier a simple binding pattern binds (`x`, `mut x`).
fn binding_name(pattern: Node) -> Option<Node> {
    match pattern.kind() {
        "identifier" => Some(pattern),
        "mut_pattern" => {
            let mut cursor = pattern.walk();
            pattern
                .named_children(&mut cursor)
                .find(|c| c.kind() == "identifier")
        }
        _ => None,
    }
}

/// Standard pointer types that dereference to their one type argument
/// (`Pin<P>` to what `P` points to).
const SMART_POINTERS: &[&str] = &["Box", "Rc", "Arc", "Pin"];

/// Standard collections that hold values of their one type argument: what
/// indexing one (`xs[i]`, where it can be indexed) or iterating it (`for x
/// in &xs`) gives; and `Option<T>` and `Result<T, E>`, which hold a `T`
/// where they hold one (`Some(x)`, `Ok(x)`, and what iterating them
/// gives). Maps are not among them: indexing one gives a value, iterating
/// it a key and a value.
const COLLECTIONS: &[&str] = &[
    "Vec",
    "VecDeque",
    "LinkedList",
    "HashSet",
    "BTreeSet",
    "BinaryHeap",
    "Option",
    "Result",
];

/// The type of the elements of a standard collection type as written: `T`
/// of `Vec<T>`, `[T]` and `[T; N]`, through references, raw pointers and the
/// standard smart pointers (`&[T]`, `Box<[T]>`, `Arc<Vec<T>>`). `None` for
/// any other type, whose indexing the source may define.
pub fn element_type<'t>(ty: Node<'t>, source: &str) -> Option<Node<'t>> {
    let mut ty = ty;
    // Each step goes one level down the tree, so this ends.
    loop {
        match ty.kind() {
            "reference_type" | "pointer_type" => ty = ty.child_by_field_name("type")?,
            "array_type" => return ty.child_by_field_name("element"),
            "generic_type" => {
                let base = ty.child_by_field_name("type")?;
                let name = source[base.byte_range()].rsplit("::").next()?;
                // `Result<T, E>` holds a `T` where it holds one.
                let argument = match name {
                    "Result" => first_type_argument(ty)?,
                    _ => only_type_argument(ty)?,
                };
                if SMART_POINTERS.contains(&name) {
                    ty = argument;
                } else {
                    return COLLECTIONS.contains(&name).then_some(argument);
                }
            }
            _ => return None,
        }
    }
}

/// The collection a `for` loop's variable iterates, the variable's name
/// node given: `xs` in `for x in xs`, `for x in &xs`, `for x in
/// &xs[1..]` and `for x in xs.iter()` (`iter`, `iter_mut`, `into_iter`:
/// the standard collections' iterators over their elements), and the
/// closure parameter `x` of `xs.iter().map(|x| ..)`. None for a pattern
/// that destructures.
pub fn iterated_value<'t>(name: Node<'t>, source: &str) -> Option<Node<'t>> {
    let pattern = binding_pattern(name)?;
    let parent = pattern.parent()?;
    match parent.kind() {
        "closure_parameters" => adapted_collection(parent, pattern, source),
        "for_expression" if parent.child_by_field_name("pattern")? == pattern => {
            let mut value = parent.child_by_field_name("value")?;
            // `&xs[a..]`: a part of `xs`, whose elements are `xs`'s. Each
            // step goes one level down the tree, so this ends.
            loop {
                value = match value.kind() {
                    "reference_expression" => value.child_by_field_name("value")?,
                    "index_expression" if indexed_collection(value, source).is_none() => {
                        value.named_child(0)?
                    }
                    _ => break,
                };
            }
            Some(element_source(value, source))
        }
        "tuple_struct_pattern" => unwrapped_value(parent, pattern, source),
        _ => None,
    }
}

/// Modifiers looked through above a binding's name (`ref mut x`): more
/// than this is no pattern rustc takes.
const MAX_BINDING_MODIFIERS: usize = 4;

/// The pattern that binds the name `name`: the name itself, or the `ref`,
/// `mut` or `ref mut` pattern around it. None for deeper nesting.
fn binding_pattern(name: Node) -> Option<Node> {
    let mut pattern = name;
    for _ in 0..MAX_BINDING_MODIFIERS {
        let parent = pattern.parent()?;
        if !matches!(parent.kind(), "mut_pattern" | "ref_pattern") {
            return Some(pattern);
        }
        pattern = parent;
    }
    None
}

/// The value whose element the one binding `pattern` of `Some(pattern)` or
/// `Ok(pattern)` (the tuple-struct pattern `variant`) takes, where that is
/// matched: `if let`, `while let`, `let .. else`, a `match` arm.
fn unwrapped_value<'t>(variant: Node<'t>, pattern: Node<'t>, source: &str) -> Option<Node<'t>> {
    let ty = variant.child_by_field_name("type")?;
    let mut cursor = variant.walk();
    let mut fields = variant
        .named_children(&mut cursor)
        .filter(|c| *c != ty && !c.is_extra());
    if !matches!(&source[ty.byte_range()], "Some" | "Ok")
        || (fields.next(), fields.next()) != (Some(pattern), None)
    {
        return None;
    }
    let matched = variant.parent()?;
    let value = match matched.kind() {
        "let_condition" | "let_declaration" => matched.child_by_field_name("value")?,
        "match_pattern" => {
            let arm = matched.parent()?;
            let block = arm.parent()?;
            let expression = block.parent()?;
            if arm.kind() != "match_arm" || expression.kind() != "match_expression" {
                return None;
            }
            expression.child_by_field_name("value")?
        }
        _ => return None,
    };
    if matched
        .child_by_field_name("pattern")
        .is_some_and(|p| p != variant)
        && matched.kind() != "match_pattern"
    {
        return None;
    }
    Some(element_source(value, source))
}

/// The methods of `Option`, `Result`, the standard collections and
/// iterators whose result holds elements of their receiver:
/// `opt.as_ref()`, `xs.first()`, `xs.get(i)`, `xs.iter().rev()`.
const ELEMENT_PRESERVING: &[&str] = &[
    "as_ref",
    "as_mut",
    "as_deref",
    "as_deref_mut",
    "take",
    "cloned",
    "copied",
    "iter",
    "iter_mut",
    "into_iter",
    "first",
    "first_mut",
    "last",
    "last_mut",
    "get",
    "get_mut",
    "pop",
    "front",
    "front_mut",
    "back",
    "back_mut",
    "pop_front",
    "pop_back",
    "peek",
    "next",
    "next_back",
    "rev",
    "skip",
    "step_by",
    "filter",
    "skip_while",
    "take_while",
    "peekable",
    "fuse",
    "by_ref",
    "inspect",
];

/// The value an element-yielding expression takes its elements from, with
/// `&` and calls of [`ELEMENT_PRESERVING`] methods taken off: `self.inner`
/// of `self.inner.as_ref()`, `xs` of `&xs`, `xs.iter().rev()` and
/// `xs.first()`. Only a value whose element type the source states (a
/// standard collection, `Option`, `Result`) is then typed by it; of any
/// other, nothing is. Each step goes one level down the tree, so this ends.
fn element_source<'t>(value: Node<'t>, source: &str) -> Node<'t> {
    let mut value = value;
    loop {
        let inner = match value.kind() {
            "reference_expression" => value.child_by_field_name("value"),
            _ => method_call(value, source)
                .filter(|(method, _)| ELEMENT_PRESERVING.contains(method))
                .map(|(_, receiver)| receiver),
        };
        match inner {
            Some(inner) => value = inner,
            None => return value,
        }
    }
}

/// Iterator adaptors that call their closure with each element the
/// iterator yields as its first argument.
const ELEMENT_CLOSURES: &[&str] = &[
    "for_each",
    "map",
    "filter",
    "filter_map",
    "flat_map",
    "inspect",
    "any",
    "all",
    "find",
    "find_map",
    "position",
    "take_while",
    "skip_while",
    "map_while",
    "max_by_key",
    "min_by_key",
];

/// The collection whose elements the closure parameter `pattern` (of the
/// `closure_parameters` node `parameters`) takes: `xs` in
/// `xs.iter().map(|x| ..)`, when `x` is the closure's only parameter and
/// the closure is the only argument of one of [`ELEMENT_CLOSURES`] called
/// straight on a collection's iterator (`iter`, `iter_mut`, `into_iter`).
fn adapted_collection<'t>(
    parameters: Node<'t>,
    pattern: Node<'t>,
    source: &str,
) -> Option<Node<'t>> {
    let mut cursor = parameters.walk();
    let mut all = parameters
        .named_children(&mut cursor)
        .filter(|c| !c.is_extra());
    if (all.next(), all.next()) != (Some(pattern), None) {
        return None;
    }
    let closure = parameters.parent()?;
    let arguments = closure.parent()?;
    let mut cursor = arguments.walk();
    let mut passed = arguments
        .named_children(&mut cursor)
        .filter(|c| !c.is_extra());
    if closure.kind() != "closure_expression"
        || arguments.kind() != "arguments"
        || (passed.next(), passed.next()) != (Some(closure), None)
    {
        return None;
    }
    let (adaptor, receiver) = method_call(arguments.parent()?, source)?;
    ELEMENT_CLOSURES
        .contains(&adaptor)
        .then(|| element_source(receiver, source))
}

/// The method name and the receiver of the method call `call`
/// (`xs.iter()`: `iter` and `xs`).
fn method_call<'t, 's>(call: Node<'t>, source: &'s str) -> Option<(&'s str, Node<'t>)> {
    if call.kind() != "call_expression" {
        return None;
    }
    let function = call
        .child_by_field_name("function")
        .filter(|f| f.kind() == "field_expression")?;
    let name = function.child_by_field_name("field")?;
    Some((
        &source[name.byte_range()],
        function.child_by_field_name("value")?,
    ))
}

/// The value `x` of `x.clone()`, whose copy is of `x`'s type by
/// `Clone::clone`'s contract (`fn clone(&self) -> Self`; auto-deref makes
/// `(&x).clone()` a copy of `x`).
pub fn cloned_value<'t>(call: Node<'t>, source: &str) -> Option<Node<'t>> {
    if call.kind() != "call_expression"
        || call
            .child_by_field_name("arguments")
            .is_none_or(|a| a.named_child_count() > 0)
    {
        return None;
    }
    let method = call
        .child_by_field_name("function")
        .filter(|f| f.kind() == "field_expression")?;
    let name = method.child_by_field_name("field")?;
    (source.get(name.byte_range()) == Some("clone"))
        .then(|| method.child_by_field_name("value"))
        .flatten()
}

/// The collection `xs[i]` indexes (`xs`), for an index that is not a range:
/// `xs[a..b]` is a part of the collection, not one element.
pub fn indexed_collection<'t>(node: Node<'t>, source: &str) -> Option<Node<'t>> {
    match node.kind() {
        "index_expression" => {
            let mut cursor = node.walk();
            let mut operands = node.named_children(&mut cursor).filter(|c| !c.is_extra());
            let (collection, index) = (operands.next()?, operands.next()?);
            (index.kind() != "range_expression").then_some(collection)
        }
        // `x?`: what the `Option` or `Result` holds.
        "try_expression" => node.named_child(0).filter(|c| !c.is_extra()),
        // `x.unwrap()`, `x.expect("..")`: likewise.
        "call_expression" => {
            let function = node.child_by_field_name("function")?;
            let method = function.child_by_field_name("field")?;
            (function.kind() == "field_expression"
                && UNWRAPPING.contains(&&source[method.byte_range()]))
            .then(|| function.child_by_field_name("value"))
            .flatten()
        }
        _ => None,
    }
}

/// Methods of `Option` and `Result` that give the value they hold (or
/// panic, or give a default of its type).
const UNWRAPPING: &[&str] = &[
    "unwrap",
    "expect",
    "unwrap_or_default",
    "unwrap_unchecked",
    "unwrap_or",
    "unwrap_or_else",
];

/// The name of the type an `impl` over a standard pointer is about (see
/// [`SMART_POINTERS`]): `Handle` in `impl Schedule for Arc<Handle>`, whose
/// `@name` capture `name` is `Arc`. `None` unless the pointer has one type
/// argument, written as a path (`Handle`, `a::Handle`, `Handle<T>`) that is
/// not one of the impl's own type parameters (`impl<T> Tr for Box<T>` is
/// about every `T`: it stays named by the pointer).
pub fn pointed_impl_name<'t>(
    impl_item: Node<'t>,
    name: Node<'t>,
    source: &str,
) -> Option<Node<'t>> {
    let ty = impl_item.child_by_field_name("type")?;
    if ty.kind() != "generic_type" || !SMART_POINTERS.contains(&&source[name.byte_range()]) {
        return None;
    }
    let mut argument = only_type_argument(ty)?;
    if argument.kind() == "generic_type" {
        argument = argument.child_by_field_name("type")?;
    }
    let pointed = match argument.kind() {
        "type_identifier" => argument,
        "scoped_type_identifier" => argument.child_by_field_name("name")?,
        _ => return None,
    };
    let pointed_name = &source[pointed.byte_range()];
    let is_parameter = impl_item
        .child_by_field_name("type_parameters")
        .is_some_and(|parameters| {
            let mut cursor = parameters.walk();
            parameters
                .named_children(&mut cursor)
                .filter(|p| p.kind() == "type_parameter")
                .filter_map(|p| p.child_by_field_name("name"))
                .any(|p| &source[p.byte_range()] == pointed_name)
        });
    (!is_parameter).then_some(pointed)
}

/// The first type argument of a generic type (`T` in `Result<T, E>`),
/// lifetimes aside.
fn first_type_argument(generic: Node) -> Option<Node> {
    let arguments = generic.child_by_field_name("type_arguments")?;
    let mut cursor = arguments.walk();
    arguments
        .named_children(&mut cursor)
        .find(|a| !matches!(a.kind(), "lifetime" | "line_comment" | "block_comment"))
}

/// The one type argument of a generic type (`T` in `Box<T>`), lifetimes
/// aside; `None` when it has several.
fn only_type_argument(generic: Node) -> Option<Node> {
    let arguments = generic.child_by_field_name("type_arguments")?;
    let mut cursor = arguments.walk();
    let mut types = arguments
        .named_children(&mut cursor)
        .filter(|a| !matches!(a.kind(), "lifetime" | "line_comment" | "block_comment"));
    match (types.next(), types.next()) {
        (Some(only), None) => Some(only),
        _ => None,
    }
}

/// What `Self` written at `word` stands for: the type the `impl` around
/// it is for, by its name and the path written before it. `None` for any
/// other word, and in a trait (where `Self` is the implementor).
pub fn self_alias(word: Node, source: &str) -> Option<(String, Vec<String>)> {
    if source.get(word.byte_range())? != "Self" {
        return None;
    }
    let mut ancestors = Vec::new();
    let mut current = word.parent();
    // Each step goes one level up, so this ends at the root.
    while let Some(node) = current {
        if matches!(node.kind(), "impl_item" | "trait_item") {
            ancestors.push(node);
            break;
        }
        current = node.parent();
    }
    let written = named_type(impl_type(&ancestors)?, source, &|| None)?;
    Some((
        source[written.name.byte_range()].to_string(),
        written.qualifier,
    ))
}

/// The type the `impl` around a node is for (what `Self` denotes there),
/// given the node's ancestors, innermost first.
fn impl_type<'t>(ancestors: &[Node<'t>]) -> Option<Node<'t>> {
    for n in ancestors {
        match n.kind() {
            "impl_item" => return n.child_by_field_name("type"),
            // `Self` in a trait is the implementor, not a type written here.
            "trait_item" => return None,
            _ => {}
        }
    }
    None
}

/// The outer named type of a type as written: references, pointers,
/// `Box`/`Rc`/`Arc`, `mut` and `dyn`/`impl` stripped, generic arguments
/// dropped, the path
/// split off; `Self` replaced by what `self_type` finds. `None` for tuples, arrays,
/// primitive types, function pointers and the like.
fn named_type<'t>(
    ty: Node<'t>,
    source: &str,
    self_type: &dyn Fn() -> Option<Node<'t>>,
) -> Option<Written<'t>> {
    let mut ty = ty;
    // Each step goes one level down the tree, so this ends.
    loop {
        match ty.kind() {
            "generic_type" => {
                // Member access reaches through the standard smart pointers
                // (`Deref`): `Box<Parser>` is used as a `Parser`.
                let base = ty.child_by_field_name("type")?;
                let name = source[base.byte_range()]
                    .rsplit("::")
                    .next()
                    .unwrap_or_default();
                ty = match (SMART_POINTERS.contains(&name), only_type_argument(ty)) {
                    (true, Some(content)) => content,
                    _ => base,
                };
            }
            "reference_type" | "pointer_type" => {
                ty = ty.child_by_field_name("type")?;
            }
            "dynamic_type" | "abstract_type" => {
                ty = ty.child_by_field_name("trait")?;
            }
            "generic_type_with_turbofish" => {
                ty = ty.child_by_field_name("type")?;
            }
            "type_identifier" | "identifier" if &source[ty.byte_range()] == "Self" => {
                return named_type(self_type()?, source, &|| None);
            }
            "type_identifier" | "identifier" => {
                return Some(Written {
                    name: ty,
                    qualifier: Vec::new(),
                });
            }
            "scoped_type_identifier" | "scoped_identifier" => {
                let name = ty.child_by_field_name("name")?;
                let qualifier: Vec<String> = match ty.child_by_field_name("path") {
                    Some(path) => source[path.byte_range()]
                        .split("::")
                        .map(str::trim)
                        .filter(|s| !s.is_empty() && !s.starts_with('<'))
                        .map(str::to_string)
                        .collect(),
                    None => Vec::new(),
                };
                // `Self::Output`, `T::Item`: an associated type, unknown here.
                if qualifier.first().is_some_and(|q| q == "Self") {
                    return None;
                }
                return Some(Written { name, qualifier });
            }
            _ => return None,
        }
    }
}

/// What a type name means among the generic parameters around it.
enum Generic<'t> {
    /// Not a generic parameter of an enclosing item.
    Not,
    /// A generic parameter with exactly one trait bound.
    Bound(Node<'t>),
    /// A generic parameter with no bound or several.
    Unbounded,
}

/// Whether `name`, written at a node with these `ancestors` (innermost
/// first), is a generic parameter of an item around it (`fn f<P: Parse>`, `impl<P> X<P> where P: Parse`), and its
/// trait bound if it has exactly one (lifetimes aside). The innermost item
/// declaring the parameter decides.
fn generic_bound<'t>(ancestors: &[Node<'t>], name: &str, source: &str) -> Generic<'t> {
    for &item in ancestors {
        if !matches!(
            item.kind(),
            "function_item"
                | "function_signature_item"
                | "impl_item"
                | "trait_item"
                | "struct_item"
                | "enum_item"
                | "union_item"
                | "type_item"
        ) {
            continue;
        }
        let Some(parameters) = item.child_by_field_name("type_parameters") else {
            continue;
        };
        let mut cursor = parameters.walk();
        let Some(parameter) = parameters.named_children(&mut cursor).find(|p| {
            p.kind() == "type_parameter"
                && p.child_by_field_name("name")
                    .is_some_and(|n| &source[n.byte_range()] == name)
        }) else {
            continue;
        };
        let mut bounds: Vec<Node<'t>> = Vec::new();
        if let Some(written) = parameter.child_by_field_name("bounds") {
            bounds.extend(trait_bounds(written));
        }
        let mut cursor = item.walk();
        for clause in item
            .named_children(&mut cursor)
            .filter(|c| c.kind() == "where_clause")
        {
            let mut predicates = clause.walk();
            for predicate in clause.named_children(&mut predicates) {
                let left = predicate.child_by_field_name("left");
                if left.is_some_and(|l| &source[l.byte_range()] == name)
                    && let Some(written) = predicate.child_by_field_name("bounds")
                {
                    bounds.extend(trait_bounds(written));
                }
            }
        }
        return match bounds.as_slice() {
            [one] => Generic::Bound(*one),
            _ => Generic::Unbounded,
        };
    }
    Generic::Not
}

/// The traits a `trait_bounds` node names (not its lifetimes).
fn trait_bounds(bounds: Node) -> Vec<Node> {
    let mut cursor = bounds.walk();
    bounds
        .named_children(&mut cursor)
        .filter(|b| b.kind() != "lifetime")
        .collect()
}

/// The path of the type a qualified path's `<..>` stands for: the trait of
/// `<T as Trait>`, else the type of `<T>`, without its generic arguments
/// (`<I as Iterator<Item = u8>>` is `Iterator`'s). `None` for any other
/// node.
pub(crate) fn bracketed_path(node: Node, source: &str) -> Option<Vec<String>> {
    if node.kind() != "bracketed_type" {
        return None;
    }
    let inner = node.named_child(0)?;
    let mut ty = if inner.kind() == "qualified_type" {
        inner.child_by_field_name("alias")?
    } else {
        inner
    };
    if ty.kind() == "generic_type" {
        ty = ty.child_by_field_name("type")?;
    }
    let path: Vec<String> = source
        .get(ty.byte_range())?
        .split("::")
        .map(str::trim)
        .filter(|s| !s.is_empty() && !s.starts_with('<'))
        .map(str::to_string)
        .collect();
    (!path.is_empty()).then_some(path)
}
