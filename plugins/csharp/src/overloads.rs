//! What tells C# overloads apart by argument types: parameter types as
//! written, what a call's arguments are, and C#'s implicit conversions of
//! its built-in types.

use lingo_plugin_sdk::LineIndex;
use lingo_plugin_sdk::types::{ArgumentValue, ConversionRules, NamedType, ParameterType};
use tree_sitter::Node;

use crate::types::named_type;

/// The built-in types every value converts to.
const TOP_TYPES: &[&str] = &["object", "dynamic"];

/// C#'s implicit numeric conversions (ECMA-334 §10.2.3). The implicit
/// constant conversions (an `int` literal in range passes for `byte`) are
/// not listed: they hold for constants, not for every `int`. The host
/// keeps an overload taking a kindred type for them (behind an identity).
const WIDENING: &[(&str, &[&str])] = &[
    (
        "sbyte",
        &["short", "int", "long", "float", "double", "decimal"],
    ),
    (
        "byte",
        &[
            "short", "ushort", "int", "uint", "long", "ulong", "float", "double", "decimal",
        ],
    ),
    ("short", &["int", "long", "float", "double", "decimal"]),
    (
        "ushort",
        &["int", "uint", "long", "ulong", "float", "double", "decimal"],
    ),
    ("int", &["long", "float", "double", "decimal"]),
    ("uint", &["long", "ulong", "float", "double", "decimal"]),
    ("long", &["float", "double", "decimal"]),
    ("ulong", &["float", "double", "decimal"]),
    (
        "char",
        &[
            "ushort", "int", "uint", "long", "ulong", "float", "double", "decimal",
        ],
    ),
    ("float", &["double"]),
    ("double", &[]),
    ("decimal", &[]),
    ("bool", &[]),
    ("string", &[]),
];

/// The reference types among the built-in ones: `T?` of these is `T`.
const REFERENCE_BUILT_INS: &[&str] = &["object", "string", "dynamic"];

/// The conversion rules of `language-policy.conversions`.
pub fn conversion_rules() -> ConversionRules {
    lingo_plugin_sdk::conversion_rules(true, TOP_TYPES, WIDENING)
}

/// The parameter types of a method, constructor, operator or local
/// function; `None` for an extension method (its `this` parameter is not
/// passed as an argument) or a list the preprocessor splits.
pub fn parameter_types(node: Node, source: &str, lines: &LineIndex) -> Option<Vec<ParameterType>> {
    let parameters = node.child_by_field_name("parameters")?;
    let mut out = Vec::new();
    let mut cursor = parameters.walk();
    for child in parameters.named_children(&mut cursor) {
        match child.kind() {
            "parameter" => {
                let mut inner = child.walk();
                let mut params = false;
                for part in child.named_children(&mut inner) {
                    if part.kind() == "modifier" {
                        match &source[part.byte_range()] {
                            "this" => return None,
                            "params" => params = true,
                            _ => {}
                        }
                    }
                }
                let ty = child.child_by_field_name("type");
                out.push(match ty {
                    Some(ty) if !params => parameter_type(node, ty, source, lines),
                    _ => ParameterType::Other,
                });
            }
            "attribute_list" | "comment" => {}
            kind if kind.starts_with("preproc") => return None,
            // `params T[] rest`, written as the list's own `type` and
            // `name` fields: one parameter, of no comparable type.
            _ if parameters.child_by_field_name("type") == Some(child) => {}
            _ => out.push(ParameterType::Other),
        }
    }
    Some(out)
}

/// One parameter's type: a built-in type by name, a named type exactly as
/// written (not nullable, not a type parameter of `function` or of a type
/// around it), or other.
fn parameter_type(function: Node, ty: Node, source: &str, lines: &LineIndex) -> ParameterType {
    let text = &source[ty.byte_range()];
    match ty.kind() {
        "predefined_type" => ParameterType::BuiltIn(text.to_string()),
        "identifier" if text == "dynamic" => ParameterType::BuiltIn(text.to_string()),
        // `object?`, `string?`: the same type, annotated; `int?` and
        // `Frame?` may be `Nullable<T>`.
        "nullable_type" => ty
            .child_by_field_name("type")
            .filter(|inner| inner.kind() == "predefined_type")
            .map(|inner| &source[inner.byte_range()])
            .filter(|name| REFERENCE_BUILT_INS.contains(name))
            .map_or(ParameterType::Other, |name| {
                ParameterType::BuiltIn(name.to_string())
            }),
        "identifier" | "generic_name" | "qualified_name" | "alias_qualified_name" => {
            let Some(written) = named_type(ty, source) else {
                return ParameterType::Other;
            };
            let name = written.name;
            let type_name = &source[name.byte_range()];
            if written.qualifier.is_empty() && is_type_parameter(function, type_name, source) {
                return ParameterType::Other;
            }
            ParameterType::Named(NamedType {
                type_name: type_name.to_string(),
                type_qualifier: written.qualifier,
                span: lines.span(source, name.start_byte(), name.end_byte()),
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
        // A method's list is its `type_parameters` field; a type's, a
        // child without a field.
        let mut children = node.walk();
        let list = node.child_by_field_name("type_parameters").or_else(|| {
            node.named_children(&mut children)
                .find(|c| c.kind() == "type_parameter_list")
        });
        if let Some(list) = list {
            let mut cursor = list.walk();
            let declared = list.named_children(&mut cursor).any(|p| {
                p.kind() == "type_parameter"
                    && p.child_by_field_name("name")
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

/// A call's argument expressions by position: `None` when one is named
/// (`Parse(text, strict: true)`), which may reorder them.
pub fn argument_nodes(call: Node) -> Option<Vec<Node>> {
    let list = crate::declarations::argument_list(call)?;
    let mut cursor = list.walk();
    let mut out = Vec::new();
    for argument in list.named_children(&mut cursor) {
        if argument.is_extra() {
            continue;
        }
        if argument.kind() != "argument" || argument.child_by_field_name("name").is_some() {
            return None;
        }
        let mut inner = argument.walk();
        let value = argument
            .named_children(&mut inner)
            .filter(|c| !c.is_extra())
            .last()?;
        out.push(value);
    }
    Some(out)
}

/// The built-in type of a literal (`1L` is a `long`) or of a cast to a
/// built-in type (`(uint)n`), or `null`.
pub fn literal(argument: Node, source: &str) -> Option<ArgumentValue> {
    let text = &source[argument.byte_range()];
    let built_in = |name: &str| Some(ArgumentValue::BuiltIn(name.to_string()));
    match argument.kind() {
        "null_literal" => Some(ArgumentValue::Null),
        "boolean_literal" => built_in("bool"),
        "character_literal" => built_in("char"),
        "string_literal" => {
            // `"abc"u8` is a `ReadOnlySpan<byte>`.
            let mut cursor = argument.walk();
            let utf8 = argument
                .named_children(&mut cursor)
                .any(|c| c.kind() == "string_literal_encoding");
            if utf8 { None } else { built_in("string") }
        }
        "verbatim_string_literal" | "raw_string_literal" | "interpolated_string_expression" => {
            built_in("string")
        }
        "integer_literal" => built_in(integer_type(text)),
        "real_literal" => built_in(real_type(text)),
        // `(uint)x`: a value of the built-in type cast to.
        "cast_expression" => argument
            .child_by_field_name("type")
            .filter(|ty| ty.kind() == "predefined_type")
            .and_then(|ty| built_in(&source[ty.byte_range()])),
        // `-1`, `+2.5`: the literal's type.
        "prefix_unary_expression" if text.starts_with(['-', '+']) => {
            let operand = argument.named_child(0)?;
            matches!(operand.kind(), "integer_literal" | "real_literal")
                .then(|| literal(operand, source))
                .flatten()
        }
        _ => None,
    }
}

/// The type a cast converts its operand to, when it names one
/// (`(ObjectPath)value`, `(Demo.Path)value`): not a built-in, array,
/// nullable, generic or tuple type.
pub fn cast_type(argument: Node) -> Option<Node> {
    if argument.kind() != "cast_expression" {
        return None;
    }
    argument
        .child_by_field_name("type")
        .filter(|ty| matches!(ty.kind(), "identifier" | "qualified_name"))
}

/// An integer literal's type by its suffix (`u`, `l`, `ul`); unsuffixed,
/// `int` (a literal beyond `int`'s range is wider, which the constant
/// conversions listed for `int` do not cover: such a literal is `long`).
fn integer_type(text: &str) -> &'static str {
    let lower = text.to_ascii_lowercase();
    let digits = lower.trim_end_matches(['u', 'l']);
    let suffix = &lower[digits.len()..];
    match suffix {
        "" => {
            let value = if let Some(hex) = digits.strip_prefix("0x") {
                u64::from_str_radix(&hex.replace('_', ""), 16).ok()
            } else if let Some(binary) = digits.strip_prefix("0b") {
                u64::from_str_radix(&binary.replace('_', ""), 2).ok()
            } else {
                digits.replace('_', "").parse::<u64>().ok()
            };
            match value {
                Some(v) if v <= i32::MAX as u64 => "int",
                Some(v) if v <= u32::MAX as u64 => "uint",
                Some(v) if v <= i64::MAX as u64 => "long",
                _ => "ulong",
            }
        }
        "u" => "uint",
        "l" => "long",
        _ => "ulong",
    }
}

/// A real literal's type by its suffix (`f`, `d`, `m`); unsuffixed, `double`.
fn real_type(text: &str) -> &'static str {
    match text.chars().last().map(|c| c.to_ascii_lowercase()) {
        Some('f') => "float",
        Some('m') => "decimal",
        _ => "double",
    }
}

/// The built-in type the source declares for a parameter or local named
/// by `name`: `int n`, `string s = ..`; not `var`, not `int?`.
pub fn declared_built_in(name: Node, source: &str) -> Option<String> {
    let parent = name.parent()?;
    let ty = match parent.kind() {
        "parameter" => parent.child_by_field_name("type")?,
        "variable_declarator" => parent.parent()?.child_by_field_name("type")?,
        _ => return None,
    };
    match ty.kind() {
        "predefined_type" => Some(source[ty.byte_range()].to_string()),
        "nullable_type" => ty
            .child_by_field_name("type")
            .filter(|inner| inner.kind() == "predefined_type")
            .map(|inner| &source[inner.byte_range()])
            .filter(|name| REFERENCE_BUILT_INS.contains(name))
            .map(str::to_string),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use lingo_plugin_sdk::Document;
    use lingo_plugin_sdk::bindings::exports::lingo::plugin::syntax::GuestDocument;
    use lingo_plugin_sdk::testing::{describe_call_arguments, describe_parameter_lists};

    use crate::CSharp;

    fn parameter_lines(source: &str) -> Vec<String> {
        describe_parameter_lists(&Document::<CSharp>::new("A.cs".into(), source.into()))
    }

    fn argument_lines(source: &str) -> Vec<String> {
        describe_call_arguments(&Document::<CSharp>::new("A.cs".into(), source.into()))
    }

    #[test]
    fn parameter_types_are_what_the_source_writes() {
        let source = "class Box<T>\n\
            {\n\
            public Box(int n, string s, object? o, Frame f, IO.Stream st) { }\n\
            void M(T t, int? n, Frame? f, int[] a, List<Frame> l, dynamic d) { }\n\
            void P(ref long l, params object[] rest) { }\n\
            static void E(this Frame f, int n) { }\n\
            U G<U>(U u, Frame f) => u;\n\
            }\n";
        assert_eq!(
            parameter_lines(source),
            [
                "Box(int, string, object, named Frame, named IO.Stream)",
                "M(other, other, other, other, named List, dynamic)",
                "P(long, other)",
                "G(other, named Frame)",
            ]
        );
    }

    #[test]
    fn call_arguments_are_literals_built_in_locals_or_values() {
        let source = "class C\n\
            {\n\
            void M(int n, Frame f, long[] many)\n\
            {\n\
            string s = \"a\"; var v = f;\n\
            W(1, 2L, 3u, 4.0, 5f, 6m, 'c', \"s\", true, null, -7, 0xFFFFFFFF);\n\
            W(n, s, f, v, many, Make(), new Frame(), n + 1, x => x);\n\
            W(text: s);\n\
            W(\"u8\"u8, $\"{n}\", @\"v\", (uint)n, (Frame)f, (int?)n);\n\
            W((IO.Stream)f, (List<Frame>)f, (Frame[])f);\n\
            }\n\
            }\n";
        assert_eq!(
            argument_lines(source),
            [
                "W(int, long, uint, double, float, decimal, char, string, bool, null, int, uint)",
                "W(int, string, f, v, many, Make(), Frame(), ?, ?)",
                "W(?, string, string, uint, Frame, ?)",
                "W(Stream, ?, ?)",
            ]
        );
    }
}
