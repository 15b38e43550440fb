//! Entry points: the members something outside the source calls (`public
//! static void main(String[])`, tests and benchmarks a harness finds by
//! annotation, overrides, serialization hooks), which dead-code analysis
//! must not count as unused.

use lingo_plugin_sdk::types::EntryPointKind;
use tree_sitter::Node;

use crate::declarations::{annotation_names, declaration_of, modifier_words, owner, text};

/// Annotations of tests and the set-up and tear-down methods their harnesses
/// call: JUnit 4 and 5, TestNG.
const TEST_ANNOTATIONS: &[&str] = &[
    "Test",
    "ParameterizedTest",
    "RepeatedTest",
    "TestFactory",
    "TestTemplate",
    "Before",
    "After",
    "BeforeClass",
    "AfterClass",
    "BeforeEach",
    "AfterEach",
    "BeforeAll",
    "AfterAll",
    "BeforeMethod",
    "AfterMethod",
    "BeforeSuite",
    "AfterSuite",
    "BeforeTest",
    "AfterTest",
    "DataProvider",
];
/// JMH's annotations.
const BENCHMARK_ANNOTATIONS: &[&str] = &["Benchmark", "Setup", "TearDown"];
/// Members Java serialization calls or reads by name.
const SERIALIZATION_MEMBERS: &[&str] = &[
    "serialVersionUID",
    "serialPersistentFields",
    "readObject",
    "writeObject",
    "readObjectNoData",
    "readResolve",
    "writeReplace",
];

/// Why something outside the source calls the declaration `node`, if it
/// does.
pub fn entry_point(
    node: Node,
    name: Node,
    _enclosing: Option<Node>,
    source: &str,
) -> Option<EntryPointKind> {
    let declaration = declaration_of(node);
    let name = text(name, source);
    for annotation in annotation_names(declaration, source) {
        let simple = annotation.rsplit('.').next().unwrap_or(annotation).trim();
        if TEST_ANNOTATIONS.contains(&simple) {
            return Some(EntryPointKind::Test);
        }
        if BENCHMARK_ANNOTATIONS.contains(&simple) {
            return Some(EntryPointKind::Benchmark);
        }
        if simple == "Override" {
            return Some(EntryPointKind::Implementation);
        }
    }
    let modifiers = modifier_words(declaration, source);
    match declaration.kind() {
        "method_declaration" => {
            if name == "main" && is_main(declaration, &modifiers, source) {
                return Some(EntryPointKind::Main);
            }
            if SERIALIZATION_MEMBERS.contains(&name) {
                return Some(EntryPointKind::Foreign);
            }
            if name.starts_with("test") && in_junit3_test_case(declaration, source) {
                return Some(EntryPointKind::Test);
            }
        }
        "field_declaration" if SERIALIZATION_MEMBERS.contains(&name) => {
            return Some(EntryPointKind::Foreign);
        }
        _ => {}
    }
    None
}

/// `public static void main(String[] args)` (or `String... args`).
fn is_main(method: Node, modifiers: &[&str], source: &str) -> bool {
    if !modifiers.contains(&"public") || !modifiers.contains(&"static") {
        return false;
    }
    if method
        .child_by_field_name("type")
        .is_none_or(|t| t.kind() != "void_type")
    {
        return false;
    }
    let Some(parameters) = method.child_by_field_name("parameters") else {
        return false;
    };
    let mut cursor = parameters.walk();
    let params: Vec<Node> = parameters
        .named_children(&mut cursor)
        .filter(|p| !p.is_extra())
        .collect();
    let [param] = params.as_slice() else {
        return false;
    };
    let written: String = text(*param, source).split_whitespace().collect();
    written.starts_with("String[]")
        || written.starts_with("String...")
        || written.starts_with("java.lang.String[]")
        || written.starts_with("java.lang.String...")
}

/// Whether `method` is declared in a class that extends JUnit 3's
/// `TestCase`, which runs its `test*` methods by name.
fn in_junit3_test_case(method: Node, source: &str) -> bool {
    owner(method)
        .filter(|o| o.kind() == "class_declaration")
        .and_then(|class| class.child_by_field_name("superclass"))
        .is_some_and(|superclass| {
            let written = text(superclass, source);
            written
                .trim_start_matches("extends")
                .trim()
                .rsplit('.')
                .next()
                .is_some_and(|n| n.trim() == "TestCase")
        })
}

#[cfg(test)]
mod tests {
    use crate::Java;
    use lingo_plugin_sdk::describe_entry_points;

    #[test]
    fn main_tests_overrides_and_serialization_are_entry_points() {
        let source = r#"
package app;
import org.junit.jupiter.api.Test;
public class Program implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    public static void main(String[] args) {}
    static void main(int x) {}
    public void main(String[] args, int y) {}
    @Test void adds() {}
    @org.junit.Test public void legacy() {}
    @ParameterizedTest @ValueSource(ints = {1}) void cases(int x) {}
    @Benchmark public void fast() {}
    @Override public String toString() { return ""; }
    @Deprecated void old() {}
    private void readObject(java.io.ObjectInputStream in) {}
}
class Old extends junit.framework.TestCase {
    public void testSum() {}
    void helper() {}
}
"#;
        assert_eq!(
            describe_entry_points::<Java>("app/Program.java", source),
            [
                "serialVersionUID foreign",
                "main main",
                "adds test",
                "legacy test",
                "cases test",
                "fast benchmark",
                "toString implementation",
                "readObject foreign",
                "testSum test",
            ]
        );
    }
}
