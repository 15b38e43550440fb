//! Entry points: the declarations something outside the source calls, which
//! dead-code analysis must not count as unused: special methods the runtime
//! calls (`__init__`, `__eq__`...), tests a harness collects (pytest's
//! `test*` functions and methods, unittest's `setUp`...), methods marked
//! `@override`, and functions a decorator registers (`@app.route`,
//! `@pytest.fixture`, `@click.command`), which the framework calls by name.

use lingo_plugin_sdk::types::EntryPointKind;
use tree_sitter::Node;

/// Decorators that change how a function is reached, not who calls it.
const PLAIN_DECORATORS: &[&str] = &[
    "property",
    "cached_property",
    "staticmethod",
    "classmethod",
    "abstractmethod",
    "wraps",
    "lru_cache",
    "cache",
    "setter",
    "getter",
    "deleter",
];

/// Methods a test harness calls around the tests (unittest and pytest).
const TEST_HOOKS: &[&str] = &[
    "setUp",
    "tearDown",
    "setUpClass",
    "tearDownClass",
    "asyncSetUp",
    "asyncTearDown",
    "setup_method",
    "teardown_method",
    "setup_class",
    "teardown_class",
    "setup_module",
    "teardown_module",
];

/// Why something outside the source calls the declaration `node`, if it does.
pub fn entry_point(
    node: Node,
    name: Node,
    _enclosing: Option<Node>,
    source: &str,
) -> Option<EntryPointKind> {
    if node.kind() != "function_definition" {
        return None;
    }
    let name = &source[name.byte_range()];
    if name.len() > 4 && name.starts_with("__") && name.ends_with("__") {
        return Some(EntryPointKind::Implementation);
    }
    if name.starts_with("test") || TEST_HOOKS.contains(&name) {
        return Some(EntryPointKind::Test);
    }
    let decorators = decorators(node, source);
    if decorators.contains(&"override") {
        return Some(EntryPointKind::Implementation);
    }
    if decorators.contains(&"fixture") {
        return Some(EntryPointKind::Test);
    }
    decorators
        .iter()
        .any(|d| !PLAIN_DECORATORS.contains(d))
        .then_some(EntryPointKind::Foreign)
}

/// The last name of each decorator of a decorated definition (`route` of
/// `@app.route("/")`, `fixture` of `@pytest.fixture`).
fn decorators<'s>(function: Node, source: &'s str) -> Vec<&'s str> {
    let Some(decorated) = function
        .parent()
        .filter(|p| p.kind() == "decorated_definition")
    else {
        return Vec::new();
    };
    let mut cursor = decorated.walk();
    decorated
        .named_children(&mut cursor)
        .filter(|c| c.kind() == "decorator")
        .filter_map(|decorator| {
            let mut expression = decorator.named_child(0)?;
            if expression.kind() == "call" {
                expression = expression.child_by_field_name("function")?;
            }
            let last = match expression.kind() {
                "attribute" => expression.child_by_field_name("attribute")?,
                "identifier" => expression,
                _ => return None,
            };
            Some(&source[last.byte_range()])
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use crate::Python;
    use lingo_plugin_sdk::{describe_entry_points, describe_unreachable};

    #[test]
    fn statements_after_return_raise_break_and_exit_are_unreachable() {
        let source = "\
def f(x):
    if x:
        return 1
        print(x)
    for i in x:
        break
        i += 1
    raise ValueError(x)
    cleanup()

def g():
    sys.exit(2)
    never()
";
        assert_eq!(
            describe_unreachable::<Python>("m.py", source),
            ["print(x)", "i += 1", "cleanup()", "never()"]
        );
    }

    #[test]
    fn special_methods_tests_fixtures_and_registered_functions() {
        let source = "\
class Shape:
    def __init__(self): pass
    def _helper(self): pass
    @property
    def area(self): return 0
    @override
    def draw(self): pass

class TestShape:
    def setUp(self): pass
    def test_area(self): pass

def test_module(): pass

@pytest.fixture
def shape(): pass

@app.route(\"/\")
def index(): pass

@functools.lru_cache
def _cached(): pass

def _unused(): pass
";
        assert_eq!(
            describe_entry_points::<Python>("m.py", source),
            [
                "__init__ implementation",
                "draw implementation",
                "setUp test",
                "test_area test",
                "test_module test",
                "shape test",
                "index foreign",
            ]
        );
    }
}
