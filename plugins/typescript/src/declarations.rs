//! What the queries cannot say about a declaration: the statement around it,
//! its signature range, visibility, modifiers, and the names that qualify.

use std::collections::HashSet;

use lingo_plugin_sdk::types::Visibility;
use tree_sitter::Node;

/// Statements that wrap a declaration without being one (a namespace that
/// is not exported parses as an expression statement).
const WRAPPERS: &[&str] = &[
    "export_statement",
    "ambient_declaration",
    "expression_statement",
];

/// Keywords that are modifiers when they are a declaration's own tokens.
const MODIFIER_WORDS: &[&str] = &[
    "abstract", "async", "static", "readonly", "declare", "override", "accessor", "const",
];

use lingo_plugin_sdk::source::text;

/// The statement a declaration is written as: a declarator's `const`/`let`
/// statement (for the first declarator, which the statement starts with),
/// and around that any `export` or `declare`.
pub fn statement_of(node: Node) -> Node {
    let mut current = node;
    if current.kind() == "variable_declarator" {
        match current.parent() {
            Some(declaration)
                if matches!(
                    declaration.kind(),
                    "lexical_declaration" | "variable_declaration"
                ) && declaration.named_child(0) == Some(current) =>
            {
                current = declaration
            }
            _ => return current,
        }
    }
    while let Some(parent) = current.parent().filter(|p| WRAPPERS.contains(&p.kind())) {
        current = parent;
    }
    current
}

/// The function a declarator binds (`const f = () => ...`) or a default
/// export is (`export default function () {}`).
pub fn function_value(node: Node) -> Option<Node> {
    if !matches!(node.kind(), "variable_declarator" | "export_statement") {
        return None;
    }
    node.child_by_field_name("value").filter(|v| {
        matches!(
            v.kind(),
            "arrow_function" | "function_expression" | "generator_function"
        )
    })
}

/// The head of a declaration: from its statement's start (so `export const`
/// and `export default` are part of it) to its body, or to the value of a
/// variable, or to its end.
pub fn signature_range(node: Node) -> Option<(usize, usize)> {
    let start = statement_of(node).start_byte();
    let body_owner = function_value(node).unwrap_or(node);
    let end = ["body", "value"]
        .iter()
        .filter_map(|field| body_owner.child_by_field_name(field))
        .map(|n| n.start_byte())
        .min()
        .unwrap_or(node.end_byte());
    Some((start, end.max(start)))
}

/// Whether `statement` (a declaration or its wrapper) is exported.
fn is_exported(statement: Node) -> bool {
    let mut current = Some(statement);
    while let Some(node) = current {
        if node.kind() == "export_statement" {
            return true;
        }
        current = node.parent().filter(|p| {
            WRAPPERS.contains(&p.kind())
                || matches!(
                    p.kind(),
                    "lexical_declaration" | "variable_declaration" | "variable_declarator"
                )
        });
    }
    false
}

/// The name a declaration declares, for matching `export { name }`.
fn declared_name<'s>(node: Node, source: &'s str) -> Option<&'s str> {
    node.child_by_field_name("name").map(|n| text(n, source))
}

/// Names a statement list exports without declaring: `export { a, b as c }`,
/// `export default a`, and CommonJS `module.exports = { a }`,
/// `exports.a = a`, `module.exports = a`.
fn exported_names<'s>(list: Node, source: &'s str) -> HashSet<&'s str> {
    let mut names = HashSet::new();
    let mut cursor = list.walk();
    for statement in list.named_children(&mut cursor) {
        match statement.kind() {
            "export_statement" if statement.child_by_field_name("source").is_none() => {
                if let Some(value) = statement
                    .child_by_field_name("value")
                    .filter(|v| v.kind() == "identifier")
                {
                    names.insert(text(value, source));
                }
                let mut c = statement.walk();
                for clause in statement
                    .named_children(&mut c)
                    .filter(|n| n.kind() == "export_clause")
                {
                    let mut cc = clause.walk();
                    for specifier in clause.named_children(&mut cc) {
                        if let Some(name) = specifier.child_by_field_name("name") {
                            names.insert(text(name, source));
                        }
                    }
                }
            }
            "expression_statement" => {
                if let Some(assignment) = statement
                    .named_child(0)
                    .filter(|n| n.kind() == "assignment_expression")
                {
                    commonjs_exports(assignment, source, &mut names);
                }
            }
            _ => {}
        }
    }
    names
}

/// Names exported by a CommonJS assignment.
fn commonjs_exports<'s>(assignment: Node, source: &'s str, names: &mut HashSet<&'s str>) {
    let (Some(left), Some(right)) = (
        assignment.child_by_field_name("left"),
        assignment.child_by_field_name("right"),
    ) else {
        return;
    };
    let target = text(left, source);
    if target == "module.exports" {
        match right.kind() {
            "identifier" => {
                names.insert(text(right, source));
            }
            "object" => {
                let mut c = right.walk();
                for property in right.named_children(&mut c) {
                    let value = match property.kind() {
                        "shorthand_property_identifier" => Some(property),
                        "pair" => property
                            .child_by_field_name("value")
                            .filter(|v| v.kind() == "identifier"),
                        _ => None,
                    };
                    if let Some(value) = value {
                        names.insert(text(value, source));
                    }
                }
            }
            _ => {}
        }
    } else if (target.starts_with("exports.") || target.starts_with("module.exports."))
        && right.kind() == "identifier"
    {
        names.insert(text(right, source));
    }
}

/// Whether `program` is a script: no `import` or `export` statement, so
/// its top-level declarations are global. Stops at the first one.
fn is_script(program: Node) -> bool {
    let mut cursor = program.walk();
    !program
        .named_children(&mut cursor)
        .any(|s| matches!(s.kind(), "import_statement" | "export_statement"))
}

/// Visibility of a module-level (or namespace-level) declaration: exported
/// is public, anything else private to its module; declarations inside
/// functions are private.
fn module_visibility(node: Node, source: &str) -> Visibility {
    let statement = statement_of(node);
    if is_exported(node) {
        return Visibility::Public;
    }
    let Some(list) = statement.parent() else {
        return Visibility::Private;
    };
    let ambient = list.kind() == "statement_block"
        && list
            .parent()
            .is_some_and(|owner| matches!(owner.kind(), "module" | "ambient_declaration"));
    let augments_module = node.kind() == "module"
        && node
            .child_by_field_name("name")
            .is_some_and(|n| n.kind() == "string");
    if ambient || augments_module {
        // `declare module "m" { ... }` declares a module for everyone, and
        // it and `declare global { ... }` export what they declare.
        return Visibility::Public;
    }
    if statement.kind() == "ambient_declaration" && list.kind() == "program" && is_script(list) {
        // `declare const __DEV__: boolean` in a file without imports or
        // exports (a script, often a `.d.ts`) declares a global: every file
        // of the program sees it.
        return Visibility::Public;
    }
    let is_module_level = list.kind() == "program"
        || (list.kind() == "statement_block"
            && list.parent().is_some_and(|o| o.kind() == "internal_module"));
    if is_module_level
        && declared_name(node, source)
            .is_some_and(|name| exported_names(list, source).contains(name))
    {
        return Visibility::Public;
    }
    Visibility::Private
}

/// The visibility of a member from its accessibility modifier or `#name`;
/// without either, TypeScript members are public.
fn member_visibility(node: Node, source: &str) -> Visibility {
    let mut cursor = node.walk();
    let modifier = node
        .children(&mut cursor)
        .find(|c| c.kind() == "accessibility_modifier");
    if let Some(modifier) = modifier {
        return match text(modifier, source) {
            "private" => Visibility::Private,
            "protected" => Visibility::Protected,
            _ => Visibility::Public,
        };
    }
    let name = node
        .child_by_field_name("name")
        .or_else(|| node.child_by_field_name("property"));
    if name.is_some_and(|n| n.kind() == "private_property_identifier") {
        return Visibility::Private;
    }
    Visibility::Public
}

/// Visibility: class members by their accessibility modifier or `#name`
/// (public without either), interface and enum members as their owner,
/// object literal members unspecified, declarations by whether they are
/// exported.
pub fn visibility(node: Node, source: &str) -> Visibility {
    let parent_kind = node.parent().map(|p| p.kind());
    match (node.kind(), parent_kind) {
        ("required_parameter" | "optional_parameter", _) => member_visibility(node, source),
        (_, Some("class_body")) => member_visibility(node, source),
        (_, Some("object")) => Visibility::Unspecified,
        // Members of interfaces, enums and aliased object types are as
        // visible as their owner.
        (_, Some("interface_body" | "enum_body" | "object_type")) => node
            .parent()
            .and_then(|body| body.parent())
            .map_or(Visibility::Unspecified, |owner| visibility(owner, source)),
        _ => module_visibility(node, source),
    }
}

/// Modifiers in source order: those of the wrapping statements (`export`,
/// `default`, `declare`), then the declaration's own keywords, then those of
/// the function a declarator binds (`async`).
pub fn modifiers(node: Node, source: &str) -> Vec<String> {
    let mut out = Vec::new();
    let statement = statement_of(node);
    let mut wrappers = Vec::new();
    let mut current = Some(node);
    while let Some(n) = current {
        if WRAPPERS.contains(&n.kind()) {
            wrappers.push(n);
        }
        if n == statement {
            break;
        }
        current = n.parent();
    }
    for wrapper in wrappers.iter().rev() {
        let mut cursor = wrapper.walk();
        for child in wrapper.children(&mut cursor) {
            match child.kind() {
                "export" | "default" | "declare" => out.push(child.kind().to_string()),
                _ => {}
            }
        }
    }
    own_modifiers(node, source, &mut out);
    if let Some(function) = function_value(node) {
        own_modifiers(function, source, &mut out);
    }
    out
}

fn own_modifiers(node: Node, source: &str, out: &mut Vec<String>) {
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        let kind = child.kind();
        if (!child.is_named() && MODIFIER_WORDS.contains(&kind)) || kind == "override_modifier" {
            out.push(text(child, source).to_string());
        }
    }
}

/// Names that qualify a member access rather than denote a value: namespace
/// imports (`import * as ns`, `import ns = require()`, `const ns =
/// require()`), and the namespaces, enums and classes the file declares.
pub fn qualifying_names(root: Node, source: &str) -> Vec<String> {
    let mut names = Vec::new();
    // An explicit worklist: namespaces nest as deep as the file says, and
    // recursion that deep would overflow the stack.
    let mut pending: Vec<Node> = Vec::new();
    push_statements(root, &mut pending);
    while let Some(statement) = pending.pop() {
        qualifying_in_statement(statement, source, &mut names, &mut pending);
    }
    names
}

/// Queue the statements of `list` so they are taken in document order.
fn push_statements<'t>(list: Node<'t>, pending: &mut Vec<Node<'t>>) {
    let mut cursor = list.walk();
    let statements: Vec<Node> = list.named_children(&mut cursor).collect();
    pending.extend(statements.into_iter().rev());
}

fn qualifying_in_statement<'t>(
    statement: Node<'t>,
    source: &str,
    names: &mut Vec<String>,
    pending: &mut Vec<Node<'t>>,
) {
    let mut push = |n: Node| names.push(text(n, source).to_string());
    match statement.kind() {
        "export_statement" | "ambient_declaration" | "expression_statement" => {
            push_statements(statement, pending);
        }
        "import_statement" => {
            let mut cursor = statement.walk();
            for child in statement.named_children(&mut cursor) {
                let local = match child.kind() {
                    "import_require_clause" => child.named_child(0),
                    "import_clause" => {
                        let mut c = child.walk();
                        child
                            .named_children(&mut c)
                            .find(|n| n.kind() == "namespace_import")
                            .and_then(|n| n.named_child(0))
                    }
                    _ => None,
                };
                if let Some(local) = local {
                    push(local);
                }
            }
        }
        "lexical_declaration" | "variable_declaration" => {
            let mut cursor = statement.walk();
            for declarator in statement.named_children(&mut cursor) {
                let requires = declarator
                    .child_by_field_name("value")
                    .is_some_and(|v| crate::imports::required_module(v, source).is_some());
                if let Some(name) = declarator
                    .child_by_field_name("name")
                    .filter(|n| n.kind() == "identifier" && requires)
                {
                    push(name);
                }
            }
        }
        "internal_module"
        | "module"
        | "enum_declaration"
        | "class_declaration"
        | "abstract_class_declaration" => {
            if let Some(name) = statement.child_by_field_name("name") {
                let first = if name.kind() == "nested_identifier" {
                    name.named_child(0).unwrap_or(name)
                } else {
                    name
                };
                if first.named_child_count() == 0 && first.kind() != "string" {
                    push(first);
                }
            }
            if let Some(body) = statement
                .child_by_field_name("body")
                .filter(|b| b.kind() == "statement_block")
            {
                push_statements(body, pending);
            }
        }
        _ => {}
    }
}

/// The class `owner` (a class declaration or expression) extends, as its
/// path is written: `["Base"]` for `extends Base<T>`, `["ns", "Base"]` for
/// `extends ns.Base`. None without an `extends`, or where it is another
/// expression (a mixin call `extends Mixin(Base)`).
pub fn extended_class_path(owner: Node, source: &str) -> Option<Vec<String>> {
    if !matches!(
        owner.kind(),
        "class_declaration" | "abstract_class_declaration" | "class"
    ) {
        return None;
    }
    let mut cursor = owner.walk();
    let heritage = owner
        .named_children(&mut cursor)
        .find(|c| c.kind() == "class_heritage")?;
    let mut cursor = heritage.walk();
    let extends = heritage
        .named_children(&mut cursor)
        .find(|c| c.kind() == "extends_clause")?;
    dotted_path(extends.child_by_field_name("value")?, source)
}

/// The names of an expression that is a name or a path of names (`Base`,
/// `ns.inner.Base`), outermost first; none for any other expression
/// (`this.C`, `f().C`, `a[b]`).
pub fn dotted_path(expression: Node, source: &str) -> Option<Vec<String>> {
    let mut path = Vec::new();
    let mut part = expression;
    // Each step goes one level down the tree, so this ends.
    loop {
        match part.kind() {
            "identifier" => {
                path.push(text(part, source).to_string());
                break;
            }
            "member_expression" => {
                let property = part
                    .child_by_field_name("property")
                    .filter(|p| p.kind() == "property_identifier")?;
                path.push(text(property, source).to_string());
                part = part.child_by_field_name("object")?;
            }
            _ => return None,
        }
    }
    path.reverse();
    Some(path)
}
