//! What gives an expression its type where the source names no type for it: casts (`x as T`), and an object literal's contextual type (`const c: Config = { .. }`, `{ a: { .. } }`).

use lingo_plugin_sdk::{FunctionAt, ParameterSite};
use tree_sitter::Node;

/// Steps up the tree looked through from a literal to the declaration,
/// cast, `return` or key it is written for (parentheses, and a `return`'s
/// statements up to its function): past this, no context is found.
const MAX_CONTEXT_STEPS: usize = 4096;

/// The node naming the type `value` has by what is written around it, a
/// type the references tag there (`T` or `ns.T`; `T` of `T<A>`):
/// - `value as T`, `<T>value`: a value of `T`;
/// - an object literal given a type where it is written: the initial value
///   of `const c: T`, a field `f: T` or a parameter `p: T = ..`; `{..} as
///   T`, `{..} satisfies T`, `<T>{..}`; returned from a function declared
///   to return `T`;
/// - the annotation `: T` of a destructured parameter: a value of `T`;
/// - an object literal element of an array literal given `T[]`,
///   `readonly T[]`, `Array<T>` or `ReadonlyArray<T>` in those places
///   (`const xs: T[] = [{ .. }]`).
pub fn literal_type<'t>(value: Node<'t>, source: &str) -> Option<Node<'t>> {
    match value.kind() {
        "as_expression" | "type_assertion" => cast_target(value),
        // The annotation of a destructured parameter (`({ a }: Props)`):
        // what its keys are read from is a value of `Props`.
        "type_annotation" => named_type(value),
        "object" => object_type(value, source),
        _ => None,
    }
}

/// The node naming the value an object literal `value` is written for,
/// whose type is the literal's: the key `a` of `{ a: { .. } }`, the
/// assigned `x` or `o.x` of `x = { .. }`, `o.x = { .. }`.
pub fn literal_context(value: Node) -> Option<Node> {
    if value.kind() != "object" {
        return None;
    }
    let (written_for, parent) = outside_parentheses(value)?;
    literal_context_at(written_for, parent)
}

/// The name of the key or assigned name the expression `written_for` (a
/// child of `parent`) is the value of.
fn literal_context_at<'t>(written_for: Node<'t>, parent: Node<'t>) -> Option<Node<'t>> {
    match parent.kind() {
        "pair" if parent.child_by_field_name("value") == Some(written_for) => parent
            .child_by_field_name("key")
            .filter(|k| k.kind() == "property_identifier"),
        "assignment_expression" if parent.child_by_field_name("right") == Some(written_for) => {
            let left = parent.child_by_field_name("left")?;
            match left.kind() {
                "identifier" => Some(left),
                "member_expression" => left
                    .child_by_field_name("property")
                    .filter(|p| p.kind() == "property_identifier"),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The function whose parameter `value` (an object literal or a function
/// expression) is written for, and the parameter's positions:
/// - an argument of a call or `new` (`f(a, { k: v })`: the call, `[1]`),
///   with no spread argument before it;
/// - the attributes of a JSX element, by its tag's name (`Filter` of
///   `<Filter onSelect={f} />`: the element, `[0]`);
/// - a function expression as the value of a declaration of a function
///   type (`const m: ErrorMap = (issue) => ..`: the type, `[]`), returned
///   from a function declared to return one, or the value of a key or an
///   assigned property (`{ override: (ctx) => .. }`: the key, `[]`).
pub fn parameter_site<'t>(value: Node<'t>, source: &str) -> Option<ParameterSite<'t>> {
    if let Some(element) = jsx_element_named(value) {
        // `<Filter onSelect={f} />`: the attributes are the props object,
        // the component's first argument.
        return Some(ParameterSite {
            function: FunctionAt::Callee(element),
            parameters: vec![0],
        });
    }
    if let Some(name) = object_method_name(value) {
        // `{ override(ctx) { .. } }`: the method is the value of its key.
        return Some(ParameterSite {
            function: FunctionAt::Named(name),
            parameters: Vec::new(),
        });
    }
    let is_function = is_function_expression(value);
    if value.kind() != "object" && !is_function {
        return None;
    }
    let (written_for, parent) = outside_parentheses(value)?;
    if parent.kind() == "arguments" {
        let call = parent.parent()?;
        if !matches!(call.kind(), "call_expression" | "new_expression") {
            return None;
        }
        // `xs.push({ .. })`: an object literal added to an array is one of
        // its elements.
        if let Some(array) = array_added_to(call, source).filter(|_| value.kind() == "object") {
            return Some(ParameterSite {
                function: FunctionAt::ElementOf(array),
                parameters: Vec::new(),
            });
        }
        let mut cursor = parent.walk();
        let mut position = 0;
        for argument in parent.named_children(&mut cursor) {
            match argument.kind() {
                _ if argument == written_for => {
                    return Some(ParameterSite {
                        function: FunctionAt::Callee(call),
                        parameters: vec![position],
                    });
                }
                "comment" => {}
                // Past a spread, positions are not known.
                "spread_element" => return None,
                _ => position += 1,
            }
        }
        return None;
    }
    if !is_function {
        // An object literal anywhere else has its type from
        // `literal_type` or `literal_context`, or none.
        return None;
    }
    let function = match object_type_at(written_for, parent, source) {
        Some(ty) => FunctionAt::Type(ty),
        None => FunctionAt::Named(literal_context_at(written_for, parent)?),
    };
    Some(ParameterSite {
        function,
        parameters: Vec::new(),
    })
}

/// The JSX element whose tag `name` is (`Filter` of `<Filter ..>`).
fn jsx_element_named(name: Node) -> Option<Node> {
    let element = name
        .parent()
        .filter(|p| matches!(p.kind(), "jsx_opening_element" | "jsx_self_closing_element"))?;
    (element.child_by_field_name("name") == Some(name)).then_some(element)
}

/// The array methods whose arguments become its elements.
const ELEMENT_ADDERS: &[&str] = &["push", "unshift"];

/// The array `call` adds its arguments to (`xs` of `xs.push(..)`).
fn array_added_to<'t>(call: Node<'t>, source: &str) -> Option<Node<'t>> {
    let method = call
        .child_by_field_name("function")
        .filter(|f| f.kind() == "member_expression")?;
    let property = method.child_by_field_name("property")?;
    ELEMENT_ADDERS
        .contains(&source.get(property.byte_range())?)
        .then(|| method.child_by_field_name("object"))
        .flatten()
}

/// For the name of a parameter written without a type in a function
/// expression (`x` of `(a, x) => ..`, of `x => ..`), the function and the
/// parameter's position.
pub fn untyped_parameter(name: Node<'_>) -> Option<(Node<'_>, u32)> {
    if name.kind() != "identifier" {
        return None;
    }
    let parent = name.parent()?;
    if parent.kind() == "arrow_function" {
        // `x => ..`.
        return (parent.child_by_field_name("parameter") == Some(name)).then_some((parent, 0));
    }
    if !matches!(parent.kind(), "required_parameter" | "optional_parameter")
        || parent.child_by_field_name("pattern") != Some(name)
        || parent.child_by_field_name("type").is_some()
    {
        return None;
    }
    let list = parent
        .parent()
        .filter(|l| l.kind() == "formal_parameters")?;
    let function = list
        .parent()
        .filter(|f| is_function_expression(*f) || object_method_name(*f).is_some())?;
    let position = crate::types::parameters_of(function)
        .into_iter()
        .position(|p| p == parent)?;
    Some((function, position as u32))
}

/// The name of `node` when it is a method written in an object literal
/// (`override(ctx) { .. }` in `{ .. }`), not a getter or setter.
fn object_method_name(node: Node) -> Option<Node> {
    if node.kind() != "method_definition" || node.parent()?.kind() != "object" {
        return None;
    }
    let mut cursor = node.walk();
    let accessor = node
        .children(&mut cursor)
        .any(|c| matches!(c.kind(), "get" | "set"));
    if accessor {
        return None;
    }
    node.child_by_field_name("name")
        .filter(|n| n.kind() == "property_identifier")
}

/// Whether `node` is a function written as an expression.
fn is_function_expression(node: Node) -> bool {
    matches!(
        node.kind(),
        "arrow_function" | "function_expression" | "function"
    )
}

/// The type an object literal is written for (see [`literal_type`]).
fn object_type<'t>(object: Node<'t>, source: &str) -> Option<Node<'t>> {
    let (written_for, parent) = outside_parentheses(object)?;
    if parent.kind() == "array" {
        // `[{ .. }, ..]`: an element of the array's stated type.
        let (array, around) = outside_parentheses(parent)?;
        return named_type(array_element_type(
            stated_type_at(array, around, source)?,
            source,
        )?);
    }
    object_type_at(written_for, parent, source)
}

/// The named type stated for the expression `written_for` (a child of
/// `parent`): the declaration, cast or return it is the value of.
fn object_type_at<'t>(written_for: Node<'t>, parent: Node<'t>, source: &str) -> Option<Node<'t>> {
    named_type(stated_type_at(written_for, parent, source)?)
}

/// The type written for the expression `written_for` (a child of
/// `parent`), whatever its form: the declaration, cast or return it is
/// the value of.
fn stated_type_at<'t>(written_for: Node<'t>, parent: Node<'t>, source: &str) -> Option<Node<'t>> {
    let is_value = |field: &str| parent.child_by_field_name(field) == Some(written_for);
    match parent.kind() {
        "variable_declarator"
        | "public_field_definition"
        | "required_parameter"
        | "optional_parameter"
            if is_value("value") =>
        {
            parent.child_by_field_name("type")
        }
        "as_expression" | "satisfies_expression" | "type_assertion" => {
            // `x as T`, `x satisfies T` and `<T>x`: the expression is the
            // part that is no type.
            let expression = match parent.kind() {
                "type_assertion" => last_named(parent)?,
                _ => first_named(parent)?,
            };
            (expression == written_for)
                .then(|| cast_type(parent))
                .flatten()
        }
        "arrow_function" if is_value("body") => returned_type(parent, source),
        "return_statement" => returned_type(enclosing_function(parent)?, source),
        _ => None,
    }
}

/// The standard array types whose one type argument is their element's.
const ARRAY_TYPES: &[&str] = &["Array", "ReadonlyArray"];

/// The element type of the array type `ty`: `T` of `T[]`, `readonly T[]`,
/// `Array<T>`, `ReadonlyArray<T>` (in an annotation or parentheses, or
/// with `| null`).
fn array_element_type<'t>(ty: Node<'t>, source: &str) -> Option<Node<'t>> {
    let mut ty = ty;
    // Each step goes one level down the tree, so this ends.
    loop {
        match ty.kind() {
            "type_annotation" | "parenthesized_type" | "readonly_type" => ty = first_named(ty)?,
            "union_type" => ty = only_non_null(ty)?,
            "array_type" => return first_named(ty),
            "generic_type" => return only_argument_of(ty, ARRAY_TYPES, source),
            _ => return None,
        }
    }
}

/// The one type argument of the generic type `generic` when it names one
/// of `names` (`T` of `Array<T>`).
fn only_argument_of<'t>(generic: Node<'t>, names: &[&str], source: &str) -> Option<Node<'t>> {
    let name = generic.child_by_field_name("name")?;
    let arguments = generic.child_by_field_name("type_arguments")?;
    (names.contains(&source.get(name.byte_range())?) && arguments.named_child_count() == 1)
        .then(|| first_named(arguments))
        .flatten()
}

/// The type `cast` (`x as T`, `x satisfies T`, `<T>x`) states, when a
/// named one.
fn cast_target(cast: Node) -> Option<Node> {
    named_type(cast_type(cast)?)
}

/// The type `cast` (`x as T`, `x satisfies T`, `<T>x`) states.
fn cast_type(cast: Node) -> Option<Node> {
    match cast.kind() {
        "type_assertion" => first_named(cast.child(0).filter(|c| c.kind() == "type_arguments")?),
        _ => last_named(cast),
    }
}

/// The type reference naming `ty`: `T`, `ns.T`, the `T` of `T<A>`, inside
/// an annotation or parentheses. None for any other type (a union, an
/// object type, `this`).
fn named_type(ty: Node) -> Option<Node> {
    let mut ty = ty;
    // Each step goes one level down the tree, so this ends.
    loop {
        match ty.kind() {
            "type_annotation" | "parenthesized_type" => ty = first_named(ty)?,
            "generic_type" => ty = ty.child_by_field_name("name")?,
            "type_identifier" | "nested_type_identifier" => return Some(ty),
            // `T | null`, `T | undefined`: `T`.
            "union_type" => ty = only_non_null(ty)?,
            _ => return None,
        }
    }
}

/// The return type stated for `function`: its own, or for a function
/// expression without one, the return type of the function type of the
/// declaration it is the value of (`const f: () => ErrorMap = () => ..`).
fn declared_return_type(function: Node) -> Option<Node> {
    if let Some(own) = function.child_by_field_name("return_type") {
        return Some(own);
    }
    let (written_for, parent) = outside_parentheses(function)?;
    if !matches!(
        parent.kind(),
        "variable_declarator" | "public_field_definition"
    ) || parent.child_by_field_name("value") != Some(written_for)
    {
        return None;
    }
    let mut ty = parent.child_by_field_name("type")?;
    // Each step goes one level down the tree, so this ends.
    loop {
        match ty.kind() {
            "type_annotation" | "parenthesized_type" => ty = first_named(ty)?,
            "function_type" => return ty.child_by_field_name("return_type"),
            _ => return None,
        }
    }
}

/// The type of what `function` returns: its declared return type, or for
/// an `async` function the type its `Promise<T>` holds.
fn returned_type<'t>(function: Node<'t>, source: &str) -> Option<Node<'t>> {
    let declared = declared_return_type(function)?;
    let mut cursor = function.walk();
    let is_async = function
        .children(&mut cursor)
        .take_while(|c| !c.is_named() || c.kind() == "comment")
        .any(|c| c.kind() == "async");
    if !is_async {
        return Some(declared);
    }
    let mut ty = declared;
    // Each step goes one level down the tree, so this ends.
    loop {
        match ty.kind() {
            "type_annotation" | "parenthesized_type" => ty = first_named(ty)?,
            "generic_type" => return only_argument_of(ty, &["Promise"], source),
            _ => return None,
        }
    }
}

/// The one type of the union `union` (nested unions flattened) that is not
/// `null` or `undefined`, if there is exactly one.
fn only_non_null(union: Node) -> Option<Node> {
    let mut found = None;
    let mut pending = vec![union];
    // `A | B | C` nests unions; flattened with an explicit stack.
    while let Some(node) = pending.pop() {
        let mut cursor = node.walk();
        for member in node.named_children(&mut cursor) {
            let nullish = member.kind() == "literal_type"
                && first_named(member).is_some_and(|v| matches!(v.kind(), "null" | "undefined"));
            match member.kind() {
                "union_type" => pending.push(member),
                "comment" => {}
                _ if nullish || member.kind() == "undefined" => {}
                _ if found.is_some() => return None,
                _ => found = Some(member),
            }
        }
    }
    found
}

/// The first ancestor of `node` that is not a parenthesized expression, a
/// conditional `node` is a branch of or an `as const`, with its child
/// `node` is inside of.
fn outside_parentheses(node: Node) -> Option<(Node, Node)> {
    let mut inner = node;
    for _ in 0..MAX_CONTEXT_STEPS {
        let parent = inner.parent()?;
        // `c ? { .. } : null`: a branch is written for what the whole
        // conditional is.
        let is_branch = parent.kind() == "ternary_expression"
            && parent.child_by_field_name("condition") != Some(inner);
        // `{ .. } as const` names no type: the literal is written for what
        // the cast is.
        let as_const = parent.kind() == "as_expression" && parent.named_child_count() == 1;
        if parent.kind() != "parenthesized_expression" && !is_branch && !as_const {
            return Some((inner, parent));
        }
        inner = parent;
    }
    None
}

/// The function a `return` statement returns from.
fn enclosing_function(statement: Node) -> Option<Node> {
    let mut node = statement;
    for _ in 0..MAX_CONTEXT_STEPS {
        node = node.parent()?;
        match node.kind() {
            "function_declaration"
            | "function_expression"
            | "function"
            | "arrow_function"
            | "method_definition"
            | "generator_function_declaration"
            | "generator_function" => return Some(node),
            // A class body or the program: no function around.
            "class_body" | "program" => return None,
            _ => {}
        }
    }
    None
}

fn first_named(node: Node) -> Option<Node> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor)
        .find(|c| c.kind() != "comment")
}

fn last_named(node: Node) -> Option<Node> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor)
        .filter(|c| c.kind() != "comment")
        .last()
}

#[cfg(test)]
mod tests {
    use lingo_plugin_sdk::Document;
    use lingo_plugin_sdk::bindings::exports::lingo::plugin::syntax::GuestDocument;
    use lingo_plugin_sdk::testing::describe_receiver;

    use crate::TypeScript;

    /// `name <- receiver` for each member reference named in `names`, in
    /// order; `name <- ?` where it has no receiver.
    fn receivers(source: &str, names: &[&str]) -> Vec<String> {
        let document = Document::<TypeScript>::new("a.ts".into(), source.into());
        let references = document.references();
        references
            .iter()
            .filter(|r| r.is_member && names.contains(&r.name.as_str()))
            .map(|r| {
                let receiver = r
                    .receiver
                    .as_ref()
                    .map_or("?".to_string(), |v| describe_receiver(&references, v));
                format!("{} <- {receiver}", r.name)
            })
            .collect()
    }

    #[test]
    fn object_keys_are_members_of_the_type_the_literal_is_written_for() {
        let source = r#"
const config: GlobalConfig = { onError: null };
let boxed: ns.Box<T> = ({ width: 1 });
class C { private opts: Options = { depth: 2 }; }
function f(p: Params = { retries: 3 }): Result {
  if (p) { return { ok: true }; }
  return { ok: false, nested: { inner: 1 } };
}
const g = (): Result => ({ ok: true });
const cast = { kind: "array" } as Change;
const old = <Change>{ kind: "splice" };
const checked = { port: 80 } satisfies Server;
target.settings = { theme: "dark" };
plain = { free: 1 };
const untyped = { loose: 1 };
const union: A | B = { either: 1 };
const branch: Change | null = ready ? ({ picked: 1 } as const) : null;
const test = { cond: 1 } ? 1 : 2;
const items: Item[] = [{ first: 1 }, ({ second: 2 })];
const boxes: ReadonlyArray<ns.Box<T>> = [{ boxed: 1 }];
const listed: Array<Item> | null = [{ listed: 1 }];
const frozen: readonly Item[] = [{ frozen: 1 }];
function items2(): Item[] { return [{ returned: 1 }]; }
const tuple: [Item] = [{ tupled: 1 }];
const mapped: Map<Item> = [{ generic: 1 }];
const nested: Item[][] = [[{ deep: 1 }]];
async function load(): Promise<Info | undefined> { return { awaited: 1 }; }
const fetchIt = async (): Promise<Info> => ({ arrowAwaited: 1 });
class K { async m(): Promise<Info> { return { methodAwaited: 1 }; } }
function pending(): Promise<Info> { return { notAwaited: 1 }; }
"#;
        assert_eq!(
            receivers(
                source,
                &[
                    "onError",
                    "width",
                    "depth",
                    "retries",
                    "ok",
                    "nested",
                    "inner",
                    "kind",
                    "port",
                    "theme",
                    "free",
                    "loose",
                    "either",
                    "picked",
                    "cond",
                    "first",
                    "second",
                    "boxed",
                    "listed",
                    "frozen",
                    "returned",
                    "tupled",
                    "generic",
                    "deep",
                    "awaited",
                    "arrowAwaited",
                    "methodAwaited",
                    "notAwaited"
                ]
            ),
            [
                "onError <- GlobalConfig",
                "width <- Box",
                "depth <- Options",
                "retries <- Params",
                "ok <- Result",
                "ok <- Result",
                "nested <- Result",
                // The key it is the value of.
                "inner <- nested",
                "ok <- Result",
                "kind <- Change",
                "kind <- Change",
                "port <- Server",
                "theme <- settings",
                "free <- plain",
                // No type written for it.
                "loose <- ?",
                "either <- ?",
                // A branch of a conditional is written for what the
                // conditional is; its condition is not.
                "picked <- Change",
                "cond <- ?",
                // An element of an array literal given an array type.
                "first <- Item",
                "second <- Item",
                "boxed <- Box",
                "listed <- Item",
                "frozen <- Item",
                "returned <- Item",
                // Not an array type of one element type.
                "tupled <- ?",
                "generic <- ?",
                "deep <- ?",
                // An async function's literal is what its promise holds.
                "awaited <- Info",
                "arrowAwaited <- Info",
                "methodAwaited <- Info",
                "notAwaited <- Promise",
            ]
        );
    }

    #[test]
    fn arguments_and_callbacks_take_the_type_of_the_parameter_they_are_written_for() {
        let source = r#"
f(a, { retries: 3 });
new Client({ port: 80 });
api.datetime({ precision: 3 });
g(...rest, { lost: 1 });
const m: ErrorMap = (issue, ctx) => issue.code;
const n: ErrorMap = function (first) { return first; };
h((x) => x, y => y);
run({ override: (ctx) => ctx.path });
run({ override(ctx) { return ctx.path; } });
function make(): Handler {
  return (event) => event;
}
const typed: ErrorMap = (issue: Issue) => issue;
"#;
        let document = Document::<TypeScript>::new("a.ts".into(), source.into());
        assert_eq!(
            lingo_plugin_sdk::testing::describe_parameter_contexts(&document),
            [
                ".retries <- f [1]",
                ".port <- Client [0]",
                ".precision <- datetime [0]",
                ".override <- run [0]",
                ".override <- run [0]",
                "issue <- ErrorMap [0]",
                "ctx <- ErrorMap [1]",
                "first <- ErrorMap [0]",
                "x <- h [0, 0]",
                "y <- h [1, 0]",
                // The key it is the value of, itself typed by `run`.
                "ctx <- override [0]",
                "ctx <- override [0]",
                "event <- Handler [0]",
            ]
        );
    }

    /// Literals and callbacks nested hundreds deep in parentheses, keys
    /// and calls are typed through all of them; nested thousands deep, what
    /// lies past where the queries look is not stated, and nothing
    /// overflows.
    #[test]
    fn deeply_nested_literals_and_callbacks_are_bounded() {
        let nested = |depth: usize| {
            format!(
                "const c: Config = {}{{ k: 1 }}{};\nf({}(x) => x{});\ng({}{{ b: 1 }}{});\n",
                "(".repeat(depth),
                ")".repeat(depth),
                "{ n: ".repeat(depth),
                " }".repeat(depth),
                "h(".repeat(depth),
                ")".repeat(depth),
            )
        };
        let source = nested(300);
        let document = Document::<TypeScript>::new("a.ts".into(), source.clone());
        let contexts = lingo_plugin_sdk::testing::describe_parameter_contexts(&document);
        assert_eq!(receivers(&source, &["k"]), ["k <- Config"]);
        assert!(contexts.contains(&"x <- n [0]".to_string()), "{contexts:?}");
        assert!(
            contexts.contains(&".b <- h [0]".to_string()),
            "{contexts:?}"
        );
        let source = nested(5000);
        let document = Document::<TypeScript>::new("a.ts".into(), source.clone());
        // Only the outermost key, within the queries' depth, is stated.
        assert_eq!(
            lingo_plugin_sdk::testing::describe_parameter_contexts(&document),
            [".n <- f [0]"]
        );
    }

    #[test]
    fn a_cast_value_is_a_value_of_the_type_it_is_cast_to() {
        let source =
            "(raw as Observable<any>).next(1);\n(<Subject>raw).complete();\n(raw as const).x;\n";
        assert_eq!(
            receivers(source, &["next", "complete", "x"]),
            ["next <- Observable", "complete <- Subject", "x <- ?"]
        );
    }
}
