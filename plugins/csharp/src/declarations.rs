//! Declaration facts queries cannot say: C#'s default visibility, modifiers,
//! spans without attributes, signatures and qualified namespace names.

use lingo_plugin_sdk::types::{Arity, Visibility};
use tree_sitter::Node;

/// Words of `modifier` nodes that set accessibility rather than behaviour.
const ACCESS_WORDS: &[&str] = &["public", "private", "protected", "internal", "file"];

/// Kinds of type declarations, which a namespace or another type may hold.
pub const TYPE_KINDS: &[&str] = &[
    "class_declaration",
    "struct_declaration",
    "record_declaration",
    "interface_declaration",
    "enum_declaration",
    "delegate_declaration",
];

pub use lingo_plugin_sdk::source::text;

/// The node holding a declaration's modifiers and attributes: the field or
/// event declaration around a declarator, else the node itself.
pub fn declaration_of(node: Node) -> Node {
    if node.kind() == "variable_declarator"
        && let Some(declaration) = node.parent().and_then(|list| list.parent())
        && matches!(
            declaration.kind(),
            "field_declaration" | "event_field_declaration"
        )
    {
        return declaration;
    }
    node
}

/// The text of each `modifier` child, in source order.
pub fn modifier_words<'s>(declaration: Node, source: &'s str) -> Vec<&'s str> {
    let mut cursor = declaration.walk();
    declaration
        .children(&mut cursor)
        .filter(|c| c.kind() == "modifier")
        .map(|m| text(m, source).trim())
        .collect()
}

/// What a declaration sits in: the type, namespace or compilation unit,
/// looking through declaration lists and `#if` blocks.
pub fn owner(node: Node) -> Option<Node> {
    let mut parent = node.parent();
    while let Some(p) = parent {
        if p.kind() == "declaration_list" || p.kind().starts_with("preproc_") {
            parent = p.parent();
        } else {
            return Some(p);
        }
    }
    None
}

/// The accessibility a declaration's own modifiers give it.
fn declared_visibility(words: &[&str]) -> Option<Visibility> {
    let has = |w: &str| words.contains(&w);
    if has("public") {
        Some(Visibility::Public)
    } else if has("protected") {
        // `protected internal` and `private protected` both reach subclasses.
        Some(Visibility::Protected)
    } else if has("internal") {
        Some(Visibility::Internal)
    } else if has("private") || has("file") {
        Some(Visibility::Private)
    } else {
        None
    }
}

/// C#'s accessibility rules: an explicit modifier wins; otherwise types in
/// a namespace are `internal`, members of an interface and enum members are
/// public, explicit interface implementations are reachable wherever the
/// interface is, and members of classes, structs and records are private.
/// Namespaces and local functions have no accessibility.
pub fn visibility(node: Node, source: &str) -> Visibility {
    match node.kind() {
        "namespace_declaration" | "file_scoped_namespace_declaration" => {
            return Visibility::Unspecified;
        }
        "local_function_statement" => return Visibility::Unspecified,
        // A record's positional parameter is a public property.
        "parameter" | "enum_member_declaration" => return Visibility::Public,
        _ => {}
    }
    let declaration = declaration_of(node);
    if let Some(declared) = declared_visibility(&modifier_words(declaration, source)) {
        return declared;
    }
    let mut cursor = declaration.walk();
    if declaration
        .children(&mut cursor)
        .any(|c| c.kind() == "explicit_interface_specifier")
    {
        return Visibility::Public;
    }
    match owner(declaration).map(|o| o.kind()) {
        Some("interface_declaration") => Visibility::Public,
        Some("namespace_declaration" | "compilation_unit") | None => Visibility::Internal,
        _ => Visibility::Private,
    }
}

/// Modifiers other than accessibility, in source order, plus `ref` of a
/// `ref struct`.
pub fn modifiers(node: Node, source: &str) -> Vec<String> {
    let declaration = declaration_of(node);
    let mut out: Vec<String> = modifier_words(declaration, source)
        .into_iter()
        .filter(|w| !ACCESS_WORDS.contains(w))
        .map(str::to_string)
        .collect();
    if declaration.kind() == "struct_declaration" {
        let mut cursor = declaration.walk();
        if declaration.children(&mut cursor).any(|c| c.kind() == "ref") {
            out.push("ref".into());
        }
    }
    out
}

/// Where a declaration starts once its attribute lists are left out.
fn start_after_attributes(node: Node) -> usize {
    let mut cursor = node.walk();
    node.children(&mut cursor)
        .find(|c| c.kind() != "attribute_list" && !c.kind().starts_with("preproc_"))
        .map_or(node.start_byte(), |c| c.start_byte())
}

/// The span of a declaration: a file-scoped namespace reaches to the end of
/// the file's last declaration; a field with a single declarator covers the
/// whole field declaration; attribute lists are left out.
pub fn symbol_range(node: Node) -> Option<(usize, usize)> {
    let range = match node.kind() {
        "file_scoped_namespace_declaration" => {
            let end = node
                .parent()
                .and_then(|unit| unit.named_child(unit.named_child_count().checked_sub(1)?))
                .map_or(node.end_byte(), |last| last.end_byte().max(node.end_byte()));
            (node.start_byte(), end)
        }
        "variable_declarator" => {
            let declaration = declaration_of(node);
            let single = node
                .parent()
                .is_some_and(|list| list.named_children(&mut list.walk()).count() == 2);
            if declaration == node || !single {
                return None;
            }
            (start_after_attributes(declaration), declaration.end_byte())
        }
        _ => (start_after_attributes(node), node.end_byte()),
    };
    (range != (node.start_byte(), node.end_byte())).then_some(range)
}

/// Fields of a declaration whose start ends its head.
const BODY_FIELDS: &[&str] = &["body", "accessors", "value"];

/// The declaration head: modifiers, type, name, parameters, base list and
/// constraints, without attributes or body. A declarator's head is its
/// declaration's modifiers and type followed by its own name.
pub fn signature_text(node: Node, source: &str) -> Option<String> {
    let declaration = declaration_of(node);
    let start = start_after_attributes(declaration);
    if declaration != node {
        let list = node.parent()?;
        let ty = list.child_by_field_name("type")?;
        let name = node.child_by_field_name("name")?;
        return Some(format!(
            "{} {}",
            &source[start..ty.end_byte()],
            text(name, source)
        ));
    }
    if node.kind() == "parameter" {
        return Some(text(node, source).to_string());
    }
    let end = BODY_FIELDS
        .iter()
        .filter_map(|field| node.child_by_field_name(field))
        .map(|body| body.start_byte())
        .min()
        .unwrap_or(node.end_byte());
    Some(source[start..end.max(start)].to_string())
}

/// A namespace's name as written, without whitespace.
fn namespace_name(namespace: Node, source: &str) -> Option<String> {
    let name = namespace.child_by_field_name("name")?;
    Some(text(name, source).split_whitespace().collect())
}

/// The file-scoped namespace of the compilation unit holding `node`.
pub fn file_scoped_namespace<'t>(node: Node<'t>) -> Option<Node<'t>> {
    let mut root = node;
    while let Some(parent) = root.parent() {
        root = parent;
    }
    let mut cursor = root.walk();
    root.children(&mut cursor)
        .find(|c| c.kind() == "file_scoped_namespace_declaration")
}

/// The full dotted name of the namespace `node` is declared in (`A.B` for
/// `namespace A { namespace B { ... } }`), or `None` in the global namespace.
pub fn enclosing_namespace(node: Node, source: &str) -> Option<String> {
    let mut parts = Vec::new();
    let mut parent = node.parent();
    while let Some(p) = parent {
        if p.kind() == "namespace_declaration" {
            parts.extend(namespace_name(p, source));
        }
        parent = p.parent();
    }
    if let Some(file_scoped) = file_scoped_namespace(node).filter(|ns| *ns != node) {
        parts.extend(namespace_name(file_scoped, source));
    }
    parts.reverse();
    (!parts.is_empty()).then(|| parts.join("."))
}

/// The full name of a declaration's namespace container (`A.B`), when its
/// container is a namespace rather than a type or member.
pub fn container_name(node: Node, source: &str) -> Option<String> {
    let declaration = declaration_of(node);
    let mut parent = declaration.parent();
    while let Some(p) = parent {
        match p.kind() {
            "namespace_declaration" | "compilation_unit" => {
                return enclosing_namespace(declaration, source);
            }
            kind if kind.ends_with("_declaration") || kind.ends_with("_statement") => {
                return None;
            }
            _ => parent = p.parent(),
        }
    }
    None
}

/// The text of a `///` line or a `/** */` block, without comment markers.
pub fn doc_comment(comment: &str) -> Option<String> {
    lingo_plugin_sdk::doc::slash_doc_text(comment)
}

/// How many arguments a call of a method, constructor, local function,
/// delegate or operator declared by `node` takes: its parameters, those
/// with a default value optional, a `params` array taking any number more.
/// None for an extension method (called as `x.M(..)` it takes one
/// argument fewer than it declares, called as `C.M(x, ..)` as many) and
/// for a parameter list with preprocessor branches.
pub fn arity(node: Node, source: &str) -> Option<Arity> {
    let parameters = node.child_by_field_name("parameters")?;
    let (mut min, mut max) = (0u32, 0u32);
    let mut any_more = false;
    let mut cursor = parameters.walk();
    for child in parameters.named_children(&mut cursor) {
        match child.kind() {
            "parameter" => {
                let mut inner = child.walk();
                let mut optional = false;
                for part in child.named_children(&mut inner) {
                    match part.kind() {
                        "modifier" => match text(part, source).trim() {
                            "this" => return None,
                            "params" => any_more = true,
                            _ => {}
                        },
                        "attribute_list" | "identifier" => {}
                        _ if child.child_by_field_name("type") == Some(part) => {}
                        // `int x = 0`: the default value.
                        _ => optional = true,
                    }
                }
                max += 1;
                if !optional && !any_more {
                    min += 1;
                }
            }
            "attribute_list" | "comment" => {}
            // `params T[] rest` (fields of the list itself) and `__arglist`.
            _ if parameters.child_by_field_name("name") == Some(child) => any_more = true,
            _ if parameters.child_by_field_name("type") == Some(child) => any_more = true,
            kind if kind.starts_with("preproc") => return None,
            _ => {}
        }
    }
    Some(Arity {
        min,
        max: (!any_more).then_some(max),
    })
}

/// How many arguments a call passes: an invocation's or object creation's
/// `arguments`, or a constructor initializer's argument list (which the
/// grammar gives no field).
pub fn call_arguments(call: Node) -> Option<u32> {
    let arguments = argument_list(call)?;
    let mut cursor = arguments.walk();
    let count = arguments
        .named_children(&mut cursor)
        .filter(|c| !c.is_extra())
        .count();
    u32::try_from(count).ok()
}

/// The argument list of a call, an object creation or a constructor
/// initializer (`: base(..)`, which has no field for it).
pub fn argument_list(call: Node) -> Option<Node> {
    match call.kind() {
        "constructor_initializer" => {
            let mut cursor = call.walk();
            call.named_children(&mut cursor)
                .find(|c| c.kind() == "argument_list")
        }
        _ => call.child_by_field_name("arguments"),
    }
}

/// What `this` or `base` in a constructor initializer (`: this(1)`,
/// `: base(x)`) names: the enclosing class (or struct, or record), or the
/// first type of its base list, by name and the path written before it.
pub fn initialized_type(word: Node, source: &str) -> Option<(String, Vec<String>)> {
    if !matches!(word.kind(), "this" | "base") || word.parent()?.kind() != "constructor_initializer"
    {
        return None;
    }
    let mut current = word.parent();
    // Each step goes one level up, so this ends at the root.
    let declaration = loop {
        let node = current?;
        if matches!(
            node.kind(),
            "class_declaration" | "struct_declaration" | "record_declaration"
        ) {
            break node;
        }
        current = node.parent();
    };
    if word.kind() == "this" {
        let name = declaration.child_by_field_name("name")?;
        return Some((source.get(name.byte_range())?.to_string(), Vec::new()));
    }
    let mut cursor = declaration.walk();
    let bases = declaration
        .named_children(&mut cursor)
        .find(|c| c.kind() == "base_list")?;
    let mut cursor = bases.walk();
    let mut base = bases.named_children(&mut cursor).next()?;
    // `Base<T>`: the generic type's name.
    if base.kind() == "generic_name" {
        base = base.named_child(0)?;
    }
    match base.kind() {
        "identifier" => Some((source.get(base.byte_range())?.to_string(), Vec::new())),
        "qualified_name" => {
            let name = base.child_by_field_name("name")?;
            let qualifier = base.child_by_field_name("qualifier")?;
            let path: Vec<String> = source
                .get(qualifier.byte_range())?
                .split('.')
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
                .collect();
            let name = match name.kind() {
                "generic_name" => name.named_child(0)?,
                _ => name,
            };
            Some((source.get(name.byte_range())?.to_string(), path))
        }
        _ => None,
    }
}

/// The type `base` means in the class or record `owner`, as its path is
/// written first in its base list: `["Base"]` for `: Base<T>, IFoo`,
/// `["Ns", "Base"]` for `: Ns.Base`. None without a base list, or where its
/// first type is written another way (`global::`). A class whose base list
/// names interfaces only has no base class the source writes; the host
/// then finds no member there for `base.M()` (or, for a member the
/// interface declares, that one: such code calls no base class member).
pub fn base_class_path(owner: Node, source: &str) -> Option<Vec<String>> {
    if !matches!(owner.kind(), "class_declaration" | "record_declaration") {
        return None;
    }
    let mut cursor = owner.walk();
    let bases = owner
        .named_children(&mut cursor)
        .find(|c| c.kind() == "base_list")?;
    let mut first = bases.named_child(0)?;
    if first.kind() == "primary_constructor_base_type" {
        first = first.child_by_field_name("type")?;
    }
    // `A.B.Base<T>`: the path and name without type arguments.
    let written = crate::types::named_type(first, source)?;
    let mut path = written.qualifier;
    path.push(text(written.name, source).to_string());
    Some(path)
}
