//! What tells Java overloads apart by argument types: parameter types as
//! written, what a call's arguments are, and Java's widening, boxing and
//! unboxing conversions of its primitive and boxed types.

use lingo_plugin_sdk::LineIndex;
use lingo_plugin_sdk::types::{ArgumentValue, ConversionRules, NamedType, ParameterType};
use tree_sitter::Node;

use crate::types::named_type;

/// The types every value converts to (a primitive by boxing).
const TOP_TYPES: &[&str] = &["Object"];

/// Method invocation conversions (JLS §5.3): widening primitive (§5.1.2)
/// and boxing (§5.1.7). Unboxing (§5.1.8) is not listed: an overload that
/// needs it is chosen only when none applies by subtyping (JLS §15.12.2),
/// and a boxed value always passes for `Object` by subtyping, so listing
/// it would prefer `m(long)` to `m(Object)` for an `Integer`, which javac
/// does not. A boxed type's supertypes other than `Object` (`Number`,
/// `Comparable`) are not built-in: a parameter of such a type is compared
/// with nothing.
const WIDENING: &[(&str, &[&str])] = &[
    ("byte", &["short", "int", "long", "float", "double", "Byte"]),
    ("short", &["int", "long", "float", "double", "Short"]),
    ("char", &["int", "long", "float", "double", "Character"]),
    ("int", &["long", "float", "double", "Integer"]),
    ("long", &["float", "double", "Long"]),
    ("float", &["double", "Float"]),
    ("double", &["Double"]),
    ("boolean", &["Boolean"]),
    ("Byte", &[]),
    ("Short", &[]),
    ("Character", &[]),
    ("Integer", &[]),
    ("Long", &[]),
    ("Float", &[]),
    ("Double", &[]),
    ("Boolean", &[]),
    ("String", &[]),
];

/// The conversion rules of `language-policy.conversions`.
pub fn conversion_rules() -> ConversionRules {
    lingo_plugin_sdk::conversion_rules(true, TOP_TYPES, WIDENING)
}

/// Whether `name` (with the path written before it) is one of the
/// built-in types the rules list: a primitive, `Object`, `String` or a
/// boxed type, bare or in `java.lang`.
fn built_in(name: &str, qualifier: &[String]) -> bool {
    (qualifier.is_empty() || qualifier == ["java", "lang"])
        && (TOP_TYPES.contains(&name) || WIDENING.iter().any(|(from, _)| *from == name))
}

/// The parameter types of a method or constructor; a varargs parameter is
/// other.
pub fn parameter_types(node: Node, source: &str, lines: &LineIndex) -> Option<Vec<ParameterType>> {
    let parameters = node.child_by_field_name("parameters")?;
    let mut out = Vec::new();
    let mut cursor = parameters.walk();
    for child in parameters.named_children(&mut cursor) {
        match child.kind() {
            "formal_parameter" => {
                let ty = child
                    .child_by_field_name("type")
                    .filter(|_| child.child_by_field_name("dimensions").is_none());
                out.push(match ty {
                    Some(ty) => parameter_type(node, ty, source, lines),
                    None => ParameterType::Other,
                });
            }
            "spread_parameter" => out.push(ParameterType::Other),
            // `Outer this`, a receiver parameter, takes no argument.
            _ => {}
        }
    }
    Some(out)
}

/// One parameter's type: a built-in type, a named type as written (not a
/// type parameter of `function` or of a type around it), or other.
fn parameter_type(function: Node, ty: Node, source: &str, lines: &LineIndex) -> ParameterType {
    match ty.kind() {
        "integral_type" | "floating_point_type" | "boolean_type" => {
            ParameterType::BuiltIn(source[ty.byte_range()].to_string())
        }
        "type_identifier" | "scoped_type_identifier" | "generic_type" | "annotated_type" => {
            let Some(written) = named_type(ty, source) else {
                return ParameterType::Other;
            };
            let name = &source[written.name.byte_range()];
            if built_in(name, &written.qualifier) {
                // `List<String>` is no `String`; a generic `Integer` is none.
                return if ty.kind() == "generic_type" {
                    ParameterType::Other
                } else {
                    ParameterType::BuiltIn(name.to_string())
                };
            }
            if written.qualifier.is_empty() && is_type_parameter(function, name, source) {
                return ParameterType::Other;
            }
            let at = written.name;
            ParameterType::Named(NamedType {
                type_name: name.to_string(),
                type_qualifier: written.qualifier,
                span: lines.span(source, at.start_byte(), at.end_byte()),
            })
        }
        _ => ParameterType::Other,
    }
}

/// Whether `name` is a type parameter of `function` or of a declaration
/// around it. Each step goes one level up, so this ends at the root.
fn is_type_parameter(function: Node, name: &str, source: &str) -> bool {
    let mut current = Some(function);
    while let Some(node) = current {
        if let Some(list) = node.child_by_field_name("type_parameters") {
            let mut cursor = list.walk();
            let declared = list.named_children(&mut cursor).any(|p| {
                let mut inner = p.walk();
                p.kind() == "type_parameter"
                    && p.named_children(&mut inner)
                        .find(|c| c.kind() == "type_identifier")
                        .is_some_and(|n| &source[n.byte_range()] == name)
            });
            if declared {
                return true;
            }
        }
        current = node.parent();
    }
    false
}

/// A call's argument expressions by position.
pub fn argument_nodes(call: Node) -> Option<Vec<Node>> {
    let list = call.child_by_field_name("arguments")?;
    let mut cursor = list.walk();
    Some(
        list.named_children(&mut cursor)
            .filter(|c| !c.is_extra())
            .collect(),
    )
}

/// The type a cast converts its operand to, when it names one class or
/// interface (`(ObjectPath) value`, `(demo.Path) value`): not a primitive,
/// array or generic type, nor an intersection (`(A & B) value`).
pub fn cast_type(argument: Node) -> Option<Node> {
    if argument.kind() != "cast_expression" {
        return None;
    }
    let mut cursor = argument.walk();
    let mut types = argument.children_by_field_name("type", &mut cursor);
    let ty = types.next()?;
    if types.next().is_some() {
        return None;
    }
    matches!(ty.kind(), "type_identifier" | "scoped_type_identifier").then_some(ty)
}

/// The built-in type of a literal (`1L` is a `long`) or of a cast to a
/// primitive type (`(long) n`), or `null`.
pub fn literal(argument: Node, source: &str) -> Option<ArgumentValue> {
    let text = &source[argument.byte_range()];
    let built_in = |name: &str| Some(ArgumentValue::BuiltIn(name.to_string()));
    match argument.kind() {
        "null_literal" => Some(ArgumentValue::Null),
        "true" | "false" => built_in("boolean"),
        "character_literal" => built_in("char"),
        "string_literal" => built_in("String"),
        "decimal_integer_literal"
        | "hex_integer_literal"
        | "octal_integer_literal"
        | "binary_integer_literal" => {
            if text.ends_with(['l', 'L']) {
                built_in("long")
            } else {
                built_in("int")
            }
        }
        "decimal_floating_point_literal" | "hex_floating_point_literal" => {
            if text.ends_with(['f', 'F']) {
                built_in("float")
            } else {
                built_in("double")
            }
        }
        // `(long) n`: a value of the primitive type cast to.
        "cast_expression" => argument
            .child_by_field_name("type")
            .filter(|ty| {
                matches!(
                    ty.kind(),
                    "integral_type" | "floating_point_type" | "boolean_type"
                )
            })
            .and_then(|ty| built_in(&source[ty.byte_range()])),
        // `-1`, `+2.5`: the literal's type.
        "unary_expression" if text.starts_with(['-', '+']) => {
            let operand = argument.child_by_field_name("operand")?;
            literal(operand, source).filter(|v| matches!(v, ArgumentValue::BuiltIn(_)))
        }
        _ => None,
    }
}

/// The built-in type the source declares for a parameter or local named
/// by `name`: `int n`, `String s = ..`; not `var`, not an array.
pub fn declared_built_in(name: Node, source: &str) -> Option<String> {
    let parent = name.parent()?;
    if parent.child_by_field_name("dimensions").is_some() {
        return None;
    }
    let ty = match parent.kind() {
        "formal_parameter" => parent.child_by_field_name("type")?,
        "variable_declarator" => parent.parent()?.child_by_field_name("type")?,
        _ => return None,
    };
    match ty.kind() {
        "integral_type" | "floating_point_type" | "boolean_type" => {
            Some(source[ty.byte_range()].to_string())
        }
        "type_identifier" | "scoped_type_identifier" => {
            let written = named_type(ty, source)?;
            let name = &source[written.name.byte_range()];
            built_in(name, &written.qualifier).then(|| name.to_string())
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use lingo_plugin_sdk::Document;
    use lingo_plugin_sdk::bindings::exports::lingo::plugin::syntax::GuestDocument;
    use lingo_plugin_sdk::testing::{describe_call_arguments, describe_parameter_lists};

    use crate::Java;

    fn parameter_lines(source: &str) -> Vec<String> {
        describe_parameter_lists(&Document::<Java>::new("src/a/A.java".into(), source.into()))
    }

    fn argument_lines(source: &str) -> Vec<String> {
        describe_call_arguments(&Document::<Java>::new("src/a/A.java".into(), source.into()))
    }

    #[test]
    fn parameter_types_are_what_the_source_writes() {
        let source = "package a;\n\
            class Box<T> {\n\
            Box(int n, String s, java.lang.Object o, Frame f, io.Stream st) { }\n\
            void m(T t, Integer i, int[] a, int b[], List<Frame> l, List<String> ls) { }\n\
            void p(long l, Object... rest) { }\n\
            <U> U g(U u, Frame f) { return u; }\n\
            }\n";
        assert_eq!(
            parameter_lines(source),
            [
                "Box(int, String, Object, named Frame, named io.Stream)",
                "m(other, Integer, other, other, named List, named List)",
                "p(long, other)",
                "g(other, named Frame)",
            ]
        );
    }

    #[test]
    fn call_arguments_are_literals_built_in_locals_or_values() {
        let source = "package a;\n\
            class C {\n\
            void m(int n, Frame f, long[] many, Integer boxed) {\n\
            String s = \"a\"; var v = f; int[] arr = null;\n\
            w(1, 2L, 0x10, 4.0, 5f, 'c', \"s\", true, null, -7, (long) n, (Frame) f);\n\
            w(n, s, f, v, many, make(), new Frame(), n + 1, x -> x, boxed, arr);\n\
            w((a.Frame) f, (List<Frame>) f, (Frame[]) f, (Frame & Runnable) f);\n\
            }\n\
            }\n";
        assert_eq!(
            argument_lines(source),
            [
                "w(int, long, int, double, float, char, String, boolean, null, int, long, Frame)",
                "w(int, String, f, v, many, make(), Frame(), ?, ?, Integer, arr)",
                "w(Frame, ?, ?, ?)",
            ]
        );
    }
}
