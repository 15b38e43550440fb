//! Declaration facts queries cannot say: Java's default visibility,
//! modifiers, declaration heads and arity.

use lingo_plugin_sdk::types::{Arity, Visibility};
use tree_sitter::Node;

pub use lingo_plugin_sdk::source::text;

/// Modifier words that set accessibility rather than behaviour.
const ACCESS_WORDS: &[&str] = &["public", "protected", "private"];

/// Kinds of type declarations, which a file or another type may hold.
pub const TYPE_KINDS: &[&str] = &[
    "class_declaration",
    "interface_declaration",
    "enum_declaration",
    "record_declaration",
    "annotation_type_declaration",
];

/// Kinds of the bodies that hold a type's members.
const BODY_KINDS: &[&str] = &[
    "class_body",
    "interface_body",
    "enum_body",
    "enum_body_declarations",
    "annotation_type_body",
];

/// The node holding a declaration's modifiers: the field or constant
/// declaration around a declarator, else the node itself.
pub fn declaration_of(node: Node) -> Node {
    if node.kind() == "variable_declarator"
        && let Some(declaration) = node.parent()
        && matches!(
            declaration.kind(),
            "field_declaration" | "constant_declaration"
        )
    {
        return declaration;
    }
    node
}

/// The `modifiers` child of a declaration.
fn modifiers_node(declaration: Node) -> Option<Node> {
    let mut cursor = declaration.walk();
    declaration
        .children(&mut cursor)
        .find(|c| c.kind() == "modifiers")
}

/// The modifier keywords of a declaration (annotations left out), in source
/// order.
pub fn modifier_words<'s>(declaration: Node, source: &'s str) -> Vec<&'s str> {
    let Some(modifiers) = modifiers_node(declaration) else {
        return Vec::new();
    };
    let mut cursor = modifiers.walk();
    modifiers
        .children(&mut cursor)
        .filter(|c| !c.kind().ends_with("annotation") && !c.is_extra())
        .map(|c| text(c, source).trim())
        .collect()
}

/// The annotations of a declaration: their names as written (`Test`,
/// `org.junit.Test`).
pub fn annotation_names<'s>(declaration: Node, source: &'s str) -> Vec<&'s str> {
    let Some(modifiers) = modifiers_node(declaration) else {
        return Vec::new();
    };
    let mut cursor = modifiers.walk();
    modifiers
        .children(&mut cursor)
        .filter(|c| matches!(c.kind(), "annotation" | "marker_annotation"))
        .filter_map(|c| c.child_by_field_name("name"))
        .map(|n| text(n, source))
        .collect()
}

/// The type or file a member sits in, looking through the type bodies.
pub fn owner(node: Node) -> Option<Node> {
    let mut parent = node.parent();
    while let Some(p) = parent {
        if BODY_KINDS.contains(&p.kind()) {
            parent = p.parent();
        } else {
            return Some(p);
        }
    }
    None
}

/// Java's accessibility rules: an explicit modifier wins; otherwise members
/// of an interface or annotation type, enum constants and a record's
/// components (read through a public accessor) are public, an enum's
/// constructors private, declarations inside a method body (local classes)
/// have none, and the rest is package-private (`internal`).
pub fn visibility(node: Node, source: &str) -> Visibility {
    match node.kind() {
        "package_declaration" => return Visibility::Unspecified,
        "enum_constant" | "formal_parameter" => return Visibility::Public,
        _ => {}
    }
    let declaration = declaration_of(node);
    let words = modifier_words(declaration, source);
    if words.contains(&"public") {
        return Visibility::Public;
    }
    if words.contains(&"protected") {
        return Visibility::Protected;
    }
    if words.contains(&"private") {
        return Visibility::Private;
    }
    let owner = owner(declaration);
    match owner.map(|o| o.kind()) {
        Some("interface_declaration" | "annotation_type_declaration") => Visibility::Public,
        Some("enum_declaration") if declaration.kind() == "constructor_declaration" => {
            Visibility::Private
        }
        Some("program") | None => Visibility::Internal,
        Some(kind) if TYPE_KINDS.contains(&kind) || kind == "object_creation_expression" => {
            Visibility::Internal
        }
        // A local class or record, in a method body.
        _ => Visibility::Unspecified,
    }
}

/// Modifiers other than accessibility, in source order (`static`, `final`,
/// `abstract`, `default`, `sealed`, `synchronized`...).
pub fn modifiers(node: Node, source: &str) -> Vec<String> {
    modifier_words(declaration_of(node), source)
        .into_iter()
        .filter(|w| !ACCESS_WORDS.contains(w))
        .map(str::to_string)
        .collect()
}

/// The span of a field declared alone (`private int count = 0;`): the whole
/// declaration rather than its declarator; of an anonymous class, its body
/// (the members it declares shadow names there, not in `new Base(..)`'s
/// arguments).
pub fn symbol_range(node: Node) -> Option<(usize, usize)> {
    if node.kind() == "object_creation_expression" {
        return class_body(node).map(|body| (body.start_byte(), body.end_byte()));
    }
    if node.kind() != "variable_declarator" {
        return None;
    }
    let declaration = declaration_of(node);
    if declaration == node {
        return None;
    }
    let mut cursor = declaration.walk();
    let declarators = declaration
        .children_by_field_name("declarator", &mut cursor)
        .count();
    (declarators == 1).then_some((declaration.start_byte(), declaration.end_byte()))
}

/// `source[start..end]` without the annotations and comments in it, on one
/// line.
fn head_text(node: Node, start: usize, end: usize, source: &str) -> String {
    let mut skipped: Vec<(usize, usize)> = Vec::new();
    if let Some(modifiers) = modifiers_node(node) {
        let mut cursor = modifiers.walk();
        skipped.extend(
            modifiers
                .children(&mut cursor)
                .filter(|c| c.kind().ends_with("annotation") || c.is_extra())
                .map(|c| (c.start_byte(), c.end_byte())),
        );
    }
    let mut cursor = node.walk();
    skipped.extend(
        node.children(&mut cursor)
            .filter(|c| c.is_extra())
            .map(|c| (c.start_byte(), c.end_byte())),
    );
    skipped.sort_unstable();
    let mut out = String::new();
    let mut at = start;
    for (from, to) in skipped {
        if from >= at && to <= end {
            out.push_str(source.get(at..from).unwrap_or(""));
            out.push(' ');
            at = to;
        }
    }
    out.push_str(source.get(at..end).unwrap_or(""));
    let head = out.split_whitespace().collect::<Vec<_>>().join(" ");
    head.trim_end_matches(';').trim_end().to_string()
}

/// The declaration head: modifiers, type parameters, type, name,
/// parameters, supertypes and `throws`, without annotations, comments or
/// body, on one line. A field declarator's head is its declaration's
/// modifiers and type followed by its own name (`private static int b`).
pub fn signature_text(node: Node, source: &str) -> Option<String> {
    let declaration = declaration_of(node);
    if declaration != node {
        let ty = declaration.child_by_field_name("type")?;
        let name = node.child_by_field_name("name")?;
        let head = head_text(declaration, declaration.start_byte(), ty.end_byte(), source);
        return Some(format!("{head} {}", text(name, source)));
    }
    if node.kind() == "formal_parameter" {
        return Some(head_text(node, node.start_byte(), node.end_byte(), source));
    }
    // An annotation element's `default` value is no part of its head.
    let end = match node.kind() {
        "annotation_type_element_declaration" => node
            .child_by_field_name("value")
            .and_then(|value| value.prev_sibling())
            .map(|default| default.start_byte()),
        // An anonymous class: `new Base(..)`, before its body.
        "object_creation_expression" => class_body(node).map(|body| body.start_byte()),
        _ => node
            .child_by_field_name("body")
            .map(|body| body.start_byte()),
    }
    .unwrap_or(node.end_byte());
    Some(head_text(
        node,
        node.start_byte(),
        end.max(node.start_byte()),
        source,
    ))
}

/// How many arguments a call of a method or constructor declared by `node`
/// takes: its parameters, a varargs parameter (`String... rest`) taking any
/// number from none up. The receiver parameter (`Foo this`) is no argument.
pub fn arity(node: Node) -> Option<Arity> {
    let parameters = node.child_by_field_name("parameters")?;
    let (mut min, mut max) = (0u32, 0u32);
    let mut varargs = false;
    let mut cursor = parameters.walk();
    for child in parameters.named_children(&mut cursor) {
        match child.kind() {
            "formal_parameter" => {
                min += 1;
                max += 1;
            }
            "spread_parameter" => varargs = true,
            _ => {}
        }
    }
    Some(Arity {
        min,
        max: (!varargs).then_some(max),
    })
}

/// The body of an anonymous class's `new Base(..) { .. }`.
fn class_body(creation: Node) -> Option<Node> {
    let mut cursor = creation.walk();
    creation
        .children(&mut cursor)
        .find(|c| c.kind() == "class_body")
}

/// The path of the class `owner` extends (`extends a.Base<T>`: `a`,
/// `Base`), or of the type an anonymous class names; none for a class
/// without `extends` (its supertype is `Object`) or another kind of type.
pub fn supertype_path(owner: Node, source: &str) -> Option<Vec<String>> {
    let mut ty = match owner.kind() {
        "class_declaration" => owner.child_by_field_name("superclass")?.named_child(0),
        "object_creation_expression" => owner.child_by_field_name("type"),
        _ => None,
    }?;
    if ty.kind() == "generic_type" {
        ty = ty.named_child(0)?;
    }
    matches!(ty.kind(), "type_identifier" | "scoped_type_identifier").then(|| {
        text(ty, source)
            .split('.')
            .map(|part| part.trim().to_string())
            .collect()
    })
}

/// The name of the anonymous class `new Base(..) { .. }` (the
/// `object_creation_expression`): `<anonymous Base>`, after the type it
/// extends or implements without its generic arguments or qualifier. No
/// reference can spell it.
pub fn anonymous_class_name(creation: Node, source: &str) -> String {
    let mut ty = creation.child_by_field_name("type");
    // `Outer.Base<T>`: the last identifier of the name before `<`.
    while let Some(node) = ty {
        match node.kind() {
            "generic_type" => ty = node.named_child(0),
            "scoped_type_identifier" => {
                ty = node.named_child(node.named_child_count().saturating_sub(1))
            }
            _ => break,
        }
    }
    let base = ty.map_or("", |t| text(t, source));
    format!("<anonymous {base}>")
}

#[cfg(test)]
mod tests {
    use lingo_plugin_sdk::Document;
    use lingo_plugin_sdk::bindings::exports::lingo::plugin::syntax::GuestDocument;
    use lingo_plugin_sdk::types::Visibility;

    use crate::Java;

    fn symbols(source: &str) -> Vec<lingo_plugin_sdk::types::Symbol> {
        Document::<Java>::new("src/a/A.java".into(), source.into()).symbols()
    }

    #[test]
    fn visibility_follows_java_defaults() {
        let source = "package a;\n\
            public class A {\n\
            int count;\n\
            private String name;\n\
            protected void run() {}\n\
            A() {}\n\
            interface I { void m(); int K = 1; }\n\
            enum E { X; E() {} }\n\
            void local() { class L {} }\n\
            }\n\
            class B {}\n";
        let found: Vec<(String, Visibility)> = symbols(source)
            .into_iter()
            .map(|s| (s.name, s.visibility))
            .collect();
        let expected = [
            ("a", Visibility::Unspecified),
            ("A", Visibility::Public),
            ("count", Visibility::Internal),
            ("name", Visibility::Private),
            ("run", Visibility::Protected),
            ("A", Visibility::Internal),
            ("I", Visibility::Internal),
            ("m", Visibility::Public),
            ("K", Visibility::Public),
            ("E", Visibility::Internal),
            ("X", Visibility::Public),
            ("E", Visibility::Private),
            ("local", Visibility::Internal),
            ("L", Visibility::Unspecified),
            ("B", Visibility::Internal),
        ];
        let expected: Vec<(String, Visibility)> = expected
            .into_iter()
            .map(|(n, v)| (n.to_string(), v))
            .collect();
        assert_eq!(found, expected);
    }

    #[test]
    fn signatures_modifiers_docs_and_arity() {
        let source = "package a;\n\
            /** Reads frames.\n * @since 1 */\n\
            @Deprecated\n\
            public final class Reader<T> extends Base implements Closeable {\n\
            /** The limit. */\n\
            @SuppressWarnings(\"x\") private static final int LIMIT = 1, OTHER = 2;\n\
            public static <U> U read(int n, String... rest) throws IOException { return null; }\n\
            abstract void close(Reader<T> this, long at);\n\
            }\n";
        let found = symbols(source);
        let line = |name: &str| -> String {
            let s = found
                .iter()
                .find(|s| s.name == name)
                .expect("the symbol is reported");
            format!(
                "{} | {:?} | {:?} | {:?}",
                s.signature.clone().unwrap_or_default(),
                s.modifiers,
                s.doc,
                s.arity.map(|a| (a.min, a.max))
            )
        };
        assert_eq!(
            line("Reader"),
            "public final class Reader<T> extends Base implements Closeable | [\"final\"] | Some(\"Reads frames.\\n@since 1\") | None"
        );
        assert_eq!(
            line("LIMIT"),
            "private static final int LIMIT | [\"static\", \"final\"] | Some(\"The limit.\") | None"
        );
        assert_eq!(
            line("OTHER"),
            "private static final int OTHER | [\"static\", \"final\"] | Some(\"The limit.\") | None"
        );
        assert_eq!(
            line("read"),
            "public static <U> U read(int n, String... rest) throws IOException | [\"static\"] | None | Some((1, None))"
        );
        assert_eq!(
            line("close"),
            "abstract void close(Reader<T> this, long at) | [\"abstract\"] | None | Some((1, Some(1)))"
        );
    }
}
