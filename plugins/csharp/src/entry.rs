//! Entry points: the members something outside the source calls (`static
//! Main`, static constructors and module initializers, tests and
//! benchmarks a harness finds by attribute, overrides and explicit
//! interface implementations, P/Invoke and serialization callbacks), which
//! dead-code analysis must not count as unused.

use lingo_plugin_sdk::types::EntryPointKind;
use tree_sitter::Node;

use crate::declarations::{declaration_of, modifier_words};

/// Attributes (without `Attribute` and their namespace) of tests and the
/// set-up and tear-down methods their harnesses call: NUnit, xUnit, MSTest.
const TEST_ATTRIBUTES: &[&str] = &[
    "Test",
    "TestCase",
    "TestCaseSource",
    "Theory",
    "Fact",
    "TestMethod",
    "DataTestMethod",
    "SetUp",
    "TearDown",
    "OneTimeSetUp",
    "OneTimeTearDown",
    "TestInitialize",
    "TestCleanup",
    "ClassInitialize",
    "ClassCleanup",
    "AssemblyInitialize",
    "AssemblyCleanup",
];
/// Attributes by which the runtime or foreign code calls a member by name.
const FOREIGN_ATTRIBUTES: &[&str] = &[
    "DllImport",
    "LibraryImport",
    "UnmanagedCallersOnly",
    "OnSerializing",
    "OnSerialized",
    "OnDeserializing",
    "OnDeserialized",
    "JSInvokable",
];

/// Why something outside the source calls the member `node`, if it does.
pub fn entry_point(
    node: Node,
    name: Node,
    _enclosing: Option<Node>,
    source: &str,
) -> Option<EntryPointKind> {
    let declaration = declaration_of(node);
    for attribute in attribute_names(declaration, source) {
        if TEST_ATTRIBUTES.contains(&attribute) {
            return Some(EntryPointKind::Test);
        }
        if attribute == "Benchmark" || attribute == "GlobalSetup" {
            return Some(EntryPointKind::Benchmark);
        }
        if attribute == "ModuleInitializer" {
            return Some(EntryPointKind::Initializer);
        }
        if FOREIGN_ATTRIBUTES.contains(&attribute) {
            return Some(EntryPointKind::Foreign);
        }
    }
    let modifiers = modifier_words(declaration, source);
    let is_static = modifiers.contains(&"static");
    match declaration.kind() {
        "method_declaration" if is_static && &source[name.byte_range()] == "Main" => {
            return Some(EntryPointKind::Main);
        }
        "constructor_declaration" if is_static => return Some(EntryPointKind::Initializer),
        _ => {}
    }
    let mut cursor = declaration.walk();
    let explicit = declaration
        .children(&mut cursor)
        .any(|c| c.kind() == "explicit_interface_specifier");
    if explicit || modifiers.contains(&"override") {
        return Some(EntryPointKind::Implementation);
    }
    None
}

/// The names of the attributes on `declaration`, without namespace,
/// generic arguments or the `Attribute` suffix.
fn attribute_names<'s>(declaration: Node, source: &'s str) -> Vec<&'s str> {
    let mut names = Vec::new();
    let mut lists = declaration.walk();
    for list in declaration.children(&mut lists) {
        if list.kind() != "attribute_list" {
            continue;
        }
        let mut attributes = list.walk();
        for attribute in list.named_children(&mut attributes) {
            let Some(name) = attribute
                .child_by_field_name("name")
                .and_then(|n| source.get(n.byte_range()))
            else {
                continue;
            };
            let name = name.split('<').next().unwrap_or(name);
            let name = name.rsplit('.').next().unwrap_or(name).trim();
            names.push(name.strip_suffix("Attribute").unwrap_or(name));
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use crate::CSharp;
    use lingo_plugin_sdk::describe_entry_points;

    #[test]
    fn main_tests_overrides_and_interop_are_entry_points() {
        let source = r#"
using System;
class Program {
    static void Main(string[] args) {}
    void Main() {}
    static Program() {}
    Program() {}
    [Test] public void Adds() {}
    [NUnit.Framework.TestCaseAttribute(1)] void Cases(int x) {}
    [Fact, Trait("a", "b")] void Facts() {}
    [Benchmark] public void Fast() {}
    [DllImport("user32.dll")] static extern int MessageBox(int h);
    [Obsolete] void Old() {}
    public override string ToString() { return ""; }
    void IDisposable.Dispose() {}
    [OnDeserialized] void Restored(StreamingContext c) {}
}
"#;
        assert_eq!(
            describe_entry_points::<CSharp>("Program.cs", source),
            [
                "Main main",
                "Program initializer",
                "Adds test",
                "Cases test",
                "Facts test",
                "Fast benchmark",
                "MessageBox foreign",
                "ToString implementation",
                "Dispose implementation",
                "Restored foreign",
            ]
        );
    }
}
