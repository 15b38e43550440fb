//! Tests of the edit primitives and module mapping, run natively
//! (`cargo test -p lingo-plugin-csharp`).

use lingo_plugin_sdk::testing::{self, apply};
use lingo_plugin_sdk::types::{ModuleIdentity, PluginError};
use tree_sitter::Tree;

use crate::{CSharp, imports, modules, render};

fn parse(source: &str) -> Tree {
    testing::parse::<CSharp>("a.cs", source)
}

fn add(source: &str, module: &str) -> String {
    let tree = parse(source);
    let edits = imports::render_import(tree.root_node(), source, module, &[]).unwrap();
    apply(source, &edits)
}

fn remove(source: &str, module: &str, name: Option<&str>) -> Result<String, PluginError> {
    let tree = parse(source);
    imports::remove_import(tree.root_node(), source, module, name).map(|e| apply(source, &e))
}

#[test]
fn render_import_keeps_usings_sorted_with_system_first() {
    let source = "using System;\nusing Acme.Zeta;\n\nnamespace N;\n\nclass C { }\n";
    assert_eq!(
        add(source, "Acme.Alpha"),
        "using System;\nusing Acme.Alpha;\nusing Acme.Zeta;\n\nnamespace N;\n\nclass C { }\n"
    );
    assert_eq!(
        add(source, "System.Text"),
        "using System;\nusing System.Text;\nusing Acme.Zeta;\n\nnamespace N;\n\nclass C { }\n"
    );
    assert_eq!(
        add(source, "Zulu"),
        "using System;\nusing Acme.Zeta;\nusing Zulu;\n\nnamespace N;\n\nclass C { }\n"
    );
    // Already imported: nothing to do.
    let tree = parse(source);
    let none = imports::render_import(tree.root_node(), source, "Acme.Zeta", &["X".into()]);
    assert!(none.unwrap().is_empty());
}

#[test]
fn render_import_joins_usings_kept_inside_the_namespace() {
    let source =
        "namespace N\n{\n    using System;\n    using static System.Math;\n\n    class C { }\n}\n";
    assert_eq!(
        add(source, "Acme.Models"),
        "namespace N\n{\n    using System;\n    using Acme.Models;\n    using static System.Math;\n\n    class C { }\n}\n"
    );
}

#[test]
fn render_import_without_usings_goes_after_the_header_comment() {
    let source = "// Copyright Acme.\n\n/// <summary>C.</summary>\nclass C { }\n";
    assert_eq!(
        add(source, "System"),
        "// Copyright Acme.\n\nusing System;\n\n/// <summary>C.</summary>\nclass C { }\n"
    );
    let global_only = "global using System;\nclass C { }\n";
    assert_eq!(
        add(global_only, "Acme"),
        "global using System;\nusing Acme;\nclass C { }\n"
    );
}

#[test]
fn remove_import_drops_whole_directives() {
    let source = "using System;\nusing static System.Math;\nusing Col = System.Collections.Generic.List<int>;\nusing Acme;\n";
    assert_eq!(
        remove(source, "System", None).unwrap(),
        "using static System.Math;\nusing Col = System.Collections.Generic.List<int>;\nusing Acme;\n"
    );
    assert_eq!(
        remove(source, "System.Collections.Generic", Some("Col")).unwrap(),
        "using System;\nusing static System.Math;\nusing Acme;\n"
    );
    assert_eq!(
        remove(source, "System.Math", None).unwrap(),
        "using System;\nusing Col = System.Collections.Generic.List<int>;\nusing Acme;\n"
    );
    let error = remove(source, "Acme", Some("Widget")).unwrap_err();
    assert!(
        matches!(&error, PluginError::InvalidInput(m) if m.contains("whole namespace")),
        "{error:?}"
    );
    assert!(remove(source, "Nowhere", None).is_err());
}

/// Render the type declared at the first occurrence of `marker`.
fn render(source: &str, marker: &str, target: &str) -> Result<String, PluginError> {
    let tree = parse(source);
    let start = source.find(marker).unwrap();
    render::render_declaration(
        tree.root_node(),
        source,
        start,
        start + marker.len(),
        target,
    )
}

#[test]
fn render_declaration_wraps_the_type_in_the_target_namespace() {
    let source = "namespace Old\n{\n    public class Outer\n    {\n        /// <summary>Inner.</summary>\n        [Serializable]\n        private sealed class Inner\n        {\n            int x;\n        }\n    }\n}\n";
    assert_eq!(
        render(source, "private sealed class Inner", "New.Place").unwrap(),
        "namespace New.Place\n{\n    /// <summary>Inner.</summary>\n    [Serializable]\n    internal sealed class Inner\n    {\n        int x;\n    }\n}\n"
    );
    assert_eq!(
        render(source, "private sealed class Inner", "New.Place;").unwrap(),
        "namespace New.Place;\n\n/// <summary>Inner.</summary>\n[Serializable]\ninternal sealed class Inner\n{\n    int x;\n}\n"
    );
    assert_eq!(
        render(source, "private sealed class Inner", "").unwrap(),
        "/// <summary>Inner.</summary>\n[Serializable]\ninternal sealed class Inner\n{\n    int x;\n}\n"
    );
}

#[test]
fn render_declaration_follows_a_file_scoped_source() {
    let source = "namespace Old;\n\nprotected internal record Point(int X, int Y);\n";
    assert_eq!(
        render(source, "record Point", "New").unwrap(),
        "namespace New;\n\ninternal record Point(int X, int Y);\n"
    );
    assert_eq!(
        render(source, "record Point", "New {}").unwrap(),
        "namespace New\n{\n    internal record Point(int X, int Y);\n}\n"
    );
}

#[test]
fn render_declaration_refuses_members_and_bad_names() {
    let source = "class C\n{\n    void M() { }\n}\n";
    assert!(matches!(
        render(source, "void M() { }", "N"),
        Err(PluginError::InvalidInput(_))
    ));
    assert!(matches!(
        render(source, "class C", "Not a name"),
        Err(PluginError::InvalidInput(_))
    ));
}

use lingo_plugin_sdk::testing::manifest;

#[test]
fn assembly_names_come_from_the_project_file() {
    let named = manifest(
        "src/Shop/Shop.csproj",
        "<Project><PropertyGroup><AssemblyName> Acme.Shop </AssemblyName></PropertyGroup></Project>",
    );
    assert_eq!(modules::assembly_name(&named), "Acme.Shop");
    let plain = manifest("Tools.csproj", "<Project Sdk=\"Microsoft.NET.Sdk\" />");
    assert_eq!(modules::assembly_name(&plain), "Tools");
    let computed = manifest(
        "a/Lib.csproj",
        "<Project><AssemblyName>$(RootNamespace).Core</AssemblyName></Project>",
    );
    assert_eq!(modules::assembly_name(&computed), "Lib");
}

#[test]
fn module_of_is_every_namespace_in_the_nearest_project() {
    let source = "namespace A.B { namespace C { class X { } } }\nclass Global { }\n";
    let tree = parse(source);
    let manifests = [
        manifest("Root.csproj", "<Project />"),
        manifest("src/Lib/Lib.csproj", "<Project />"),
    ];
    let modules = modules::module_of(tree.root_node(), source, "src/Lib/X.cs", &manifests);
    let paths: Vec<(&str, Option<&str>)> = modules
        .iter()
        .map(|m| (m.path.as_str(), m.crate_or_package.as_deref()))
        .collect();
    assert_eq!(
        paths,
        [
            ("A.B", Some("Lib")),
            ("A.B.C", Some("Lib")),
            ("", Some("Lib"))
        ]
    );
}

#[test]
fn resolve_import_tries_the_full_name_then_enclosing_namespaces() {
    let importer = ModuleIdentity {
        path: "Acme.Shop.Services".into(),
        crate_or_package: None,
    };
    assert_eq!(
        modules::resolve_import(&importer, "global::Models"),
        [
            "Models",
            "Acme.Shop.Services.Models",
            "Acme.Shop.Models",
            "Acme.Models"
        ]
    );
    let global = ModuleIdentity {
        path: String::new(),
        crate_or_package: None,
    };
    assert_eq!(modules::resolve_import(&global, "System.IO"), ["System.IO"]);
    assert!(modules::resolve_import(&global, " ").is_empty());
}

/// A declaration's name and its arity as (min, max).
type NamedArity = (String, Option<(u32, Option<u32>)>);

/// The arity of each method, constructor and local function of `source`,
/// by name, in document order.
fn arities(source: &str) -> Vec<NamedArity> {
    let tree = parse(source);
    let mut out = Vec::new();
    let mut stack = vec![tree.root_node()];
    while let Some(node) = stack.pop() {
        if matches!(
            node.kind(),
            "method_declaration" | "constructor_declaration" | "local_function_statement"
        ) {
            let name = node.child_by_field_name("name").unwrap();
            let arity = crate::declarations::arity(node, source).map(|a| (a.min, a.max));
            out.push((source[name.byte_range()].to_string(), arity));
        }
        let mut cursor = node.walk();
        let children: Vec<_> = node.children(&mut cursor).collect();
        stack.extend(children.into_iter().rev());
    }
    out
}

#[test]
fn arity_counts_parameters_defaults_and_params_arrays() {
    let source = r#"
static class C
{
    C() { }
    C(int a, [In] string b) { }
    void None() { }
    void Defaults(int a, int b = 1, string c = null) { }
    void Rest(int a, params object[] rest) { }
    void Refs(ref int a, out int b, in int c) { }
    static void Ext(this string s, int a) { }
}
"#;
    let some = |min, max| Some((min, max));
    assert_eq!(
        arities(source),
        vec![
            ("C".to_string(), some(0, Some(0))),
            ("C".to_string(), some(2, Some(2))),
            ("None".to_string(), some(0, Some(0))),
            ("Defaults".to_string(), some(1, Some(3))),
            ("Rest".to_string(), some(1, None)),
            ("Refs".to_string(), some(3, Some(3))),
            // Called as `s.Ext(1)` or `C.Ext(s, 1)`: not one count.
            ("Ext".to_string(), None),
        ]
    );
}

/// The source with the type at `marker` taken out, and `target` with it added
/// to namespace `namespace`.
fn moved(source: &str, marker: &str, target: &str, namespace: &str) -> (String, String) {
    let tree = parse(source);
    let start = source.find(marker).unwrap();
    let end = start + marker.len();
    let (from, to) =
        crate::placement::declaration_extent(tree.root_node(), source, start, end).unwrap();
    let left = format!("{}{}", &source[..from], &source[to..]);
    let target_tree = parse(target);
    let edits = crate::placement::place_declaration(
        tree.root_node(),
        source,
        start,
        end,
        target_tree.root_node(),
        target,
        namespace,
    )
    .unwrap();
    (left, apply(target, &edits))
}

#[test]
fn a_moved_type_takes_its_doc_comment_and_attributes_and_leaves_no_gap() {
    let source = "namespace Shapes\n{\n    class A { }\n\n    /// <summary>B.</summary>\n    [Serializable]\n    public class B\n    {\n        int x;\n    }\n\n    class C { }\n}\n";
    let (left, created) = moved(source, "public class B", "", "");
    assert_eq!(
        left,
        "namespace Shapes\n{\n    class A { }\n\n    class C { }\n}\n"
    );
    assert_eq!(
        created,
        "namespace Shapes\n{\n    /// <summary>B.</summary>\n    [Serializable]\n    public class B\n    {\n        int x;\n    }\n}\n"
    );
}

#[test]
fn a_moved_type_joins_the_namespace_the_target_already_declares() {
    let source = "namespace Shapes;\n\npublic record Point(int X, int Y);\n";
    let block = "using System;\n\nnamespace Shapes\n{\n    class Other { }\n}\n";
    let (_, into_block) = moved(source, "public record Point", block, "Shapes");
    assert_eq!(
        into_block,
        "using System;\n\nnamespace Shapes\n{\n    class Other { }\n\n    public record Point(int X, int Y);\n}\n"
    );
    let file_scoped = "namespace Shapes;\n\nclass Other { }\n";
    let (_, into_file_scoped) = moved(source, "public record Point", file_scoped, "Shapes");
    assert_eq!(
        into_file_scoped,
        "namespace Shapes;\n\nclass Other { }\n\npublic record Point(int X, int Y);\n"
    );
    let other = "namespace Elsewhere\n{\n}\n";
    let (_, beside) = moved(source, "public record Point", other, "Shapes");
    assert_eq!(
        beside,
        "namespace Elsewhere\n{\n}\n\nnamespace Shapes\n{\n    public record Point(int X, int Y);\n}\n"
    );
    let tree = parse(source);
    let start = source.find("public record").unwrap();
    let target = "namespace Elsewhere;\n\nclass Other { }\n";
    let refused = crate::placement::place_declaration(
        tree.root_node(),
        source,
        start,
        start + "public record Point(int X, int Y);".len(),
        parse(target).root_node(),
        target,
        "Shapes",
    );
    assert!(
        matches!(refused, Err(PluginError::Failed(_))),
        "{refused:?}"
    );
}

#[test]
fn a_type_alone_in_its_namespace_takes_the_namespace_with_it() {
    let source = "using System;\n\nnamespace Outer\n{\n    namespace Inner\n    {\n        // Only one.\n        class Lonely { }\n    }\n\n    class Stays { }\n}\n";
    let (left, _) = moved(source, "class Lonely", "", "");
    assert_eq!(
        left,
        "using System;\n\nnamespace Outer\n{\n    class Stays { }\n}\n"
    );
    let file_scoped = "using System;\n\nnamespace Shapes;\n\n/// <summary>P.</summary>\npublic record Point(int X, int Y);\n";
    let (left, _) = moved(file_scoped, "public record Point", "", "");
    assert_eq!(left, "using System;\n");
    // Beside another type, the namespace stays.
    let two = "namespace Shapes;\n\nclass A { }\n\nclass B { }\n";
    let (left, _) = moved(two, "class B", "", "");
    assert_eq!(left, "namespace Shapes;\n\nclass A { }\n");
}
