//! Entry points: the functions something outside the source calls (`main`,
//! `init`, tests, benchmarks, fuzz targets and examples the `testing`
//! package runs, `//export`ed functions), which dead-code analysis must not
//! count as unused.

use lingo_plugin_sdk::types::EntryPointKind;
use tree_sitter::Node;

/// Why something outside the source calls the declaration `node`, if it does.
pub fn entry_point(
    node: Node,
    name: Node,
    _enclosing: Option<Node>,
    source: &str,
) -> Option<EntryPointKind> {
    if node.kind() != "function_declaration" {
        return None;
    }
    let name = &source[name.byte_range()];
    if exported_by_comment(node, source) {
        return Some(EntryPointKind::Foreign);
    }
    match name {
        "main" => return Some(EntryPointKind::Main),
        "init" => return Some(EntryPointKind::Initializer),
        _ => {}
    }
    let takes_testing = node
        .child_by_field_name("parameters")
        .and_then(|p| source.get(p.byte_range()))
        .is_some_and(|p| p.contains("testing."));
    if !takes_testing && !name.starts_with("Example") {
        return None;
    }
    // The `testing` package's rule: the prefix, then the end of the name or
    // anything but a lower-case letter.
    let harnessed = |prefix: &str| {
        name.strip_prefix(prefix)
            .is_some_and(|rest| !rest.starts_with(|c: char| c.is_lowercase()))
    };
    if harnessed("Test") || harnessed("Fuzz") || harnessed("Example") {
        Some(EntryPointKind::Test)
    } else if harnessed("Benchmark") {
        Some(EntryPointKind::Benchmark)
    } else {
        None
    }
}

/// A `//export Name` comment right above: cgo exports the function to C.
fn exported_by_comment(node: Node, source: &str) -> bool {
    let mut current = node;
    // Bounded by the number of siblings before the node.
    while let Some(previous) = current.prev_sibling() {
        if previous.kind() != "comment" {
            return false;
        }
        if source[previous.byte_range()].starts_with("//export ") {
            return true;
        }
        current = previous;
    }
    false
}

#[cfg(test)]
mod tests {
    use crate::Go;
    use lingo_plugin_sdk::describe_entry_points;

    #[test]
    fn main_init_tests_benchmarks_and_exports_are_entry_points() {
        let source = "package main\n\
            import \"testing\"\n\
            func main() {}\n\
            func init() {}\n\
            func helper() {}\n\
            func TestArea(t *testing.T) {}\n\
            func Testing(x int) {}\n\
            func Testable(t *testing.T) {}\n\
            func BenchmarkArea(b *testing.B) {}\n\
            func FuzzParse(f *testing.F) {}\n\
            func ExampleArea() {}\n\
            // Add is called from C.\n\
            //export Add\n\
            func Add(a, b C.int) C.int { return a + b }\n\
            func (s *S) init() {}\n";
        assert_eq!(
            describe_entry_points::<Go>("main_test.go", source),
            [
                "main main",
                "init initializer",
                "TestArea test",
                "BenchmarkArea benchmark",
                "FuzzParse test",
                "ExampleArea test",
                "Add foreign",
            ]
        );
    }
}
