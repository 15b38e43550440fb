//! Entry points: the items something outside the source calls (`fn main`,
//! tests and benchmarks, trait implementations, foreign and macro entry
//! points), which dead-code analysis must not count as unused.

use lingo_plugin_sdk::types::EntryPointKind;
use tree_sitter::Node;

/// Attribute paths (their last segment) that make a function a test:
/// `#[test]`, `#[tokio::test]`, `#[rstest]`, `#[test_case(..)]`...
const TEST_ATTRIBUTES: &[&str] = &["test", "rstest", "test_case", "quickcheck", "proptest"];
/// Attributes by which foreign code, the linker or the compiler calls an
/// item by name.
const FOREIGN_ATTRIBUTES: &[&str] = &[
    "no_mangle",
    "export_name",
    "proc_macro",
    "proc_macro_derive",
    "proc_macro_attribute",
    "panic_handler",
    "global_allocator",
    "alloc_error_handler",
    "wasm_bindgen",
];

/// Why something outside the source calls the item `node` (nested in the
/// declaration `enclosing`, with the comments and attributes right above
/// it, `attached`), if it does.
pub fn entry_point(
    node: Node,
    name: Node,
    enclosing: Option<Node>,
    attached: &[Node],
    source: &str,
) -> Option<EntryPointKind> {
    let attributes = attached.iter().filter(|n| n.kind() == "attribute_item");
    for &attribute in attributes {
        let Some(path) = attribute_path(attribute, source) else {
            continue;
        };
        let last = path.rsplit("::").next().unwrap_or(path);
        if TEST_ATTRIBUTES.contains(&last) {
            return Some(EntryPointKind::Test);
        }
        if last == "bench" {
            return Some(EntryPointKind::Benchmark);
        }
        if FOREIGN_ATTRIBUTES.contains(&last) || path.ends_with("main") {
            // `#[tokio::main]` wraps the program's `main`.
            return Some(if last == "main" {
                EntryPointKind::Main
            } else {
                EntryPointKind::Foreign
            });
        }
    }
    if node.kind() == "function_item" && has_extern_abi(node) {
        return Some(EntryPointKind::Foreign);
    }
    if enclosing.is_none() && node.kind() == "function_item" && &source[name.byte_range()] == "main"
    {
        return Some(EntryPointKind::Main);
    }
    // An item of `impl Trait for Type` is called through the trait.
    if let Some(owner) = enclosing
        && owner.kind() == "impl_item"
        && owner.child_by_field_name("trait").is_some()
    {
        return Some(EntryPointKind::Implementation);
    }
    None
}

/// The path an attribute names: `test`, `tokio::test`, `no_mangle`.
fn attribute_path<'s>(attribute_item: Node, source: &'s str) -> Option<&'s str> {
    let attribute = attribute_item.named_child(0)?;
    let path = attribute.named_child(0)?;
    source.get(path.byte_range())
}

/// `extern "C" fn`: a function with an ABI other code calls it by.
fn has_extern_abi(function: Node) -> bool {
    let mut cursor = function.walk();
    function
        .children(&mut cursor)
        .filter(|child| child.kind() == "function_modifiers")
        .any(|modifiers| {
            let mut inner = modifiers.walk();
            modifiers
                .children(&mut inner)
                .any(|m| m.kind() == "extern_modifier")
        })
}

#[cfg(test)]
mod tests {
    use crate::Rust;
    use lingo_plugin_sdk::describe_entry_points;

    #[test]
    fn main_tests_benches_trait_items_and_foreign_items_are_entry_points() {
        let source = r#"
fn main() {}
fn helper() {}
#[test]
fn plain_test() {}
/// Documented.
#[tokio::test]
async fn async_test() {}
#[bench]
fn bench_it(b: &mut Bencher) {}
#[no_mangle]
pub extern "C" fn exported() {}
extern "C" fn callback() {}
#[proc_macro_derive(Thing)]
pub fn derive_thing(input: TokenStream) -> TokenStream { input }
struct S;
impl S { fn inherent(&self) {} }
impl std::fmt::Display for S {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result { Ok(()) }
}
impl Iterator for S {
    type Item = u8;
    fn next(&mut self) -> Option<u8> { None }
}
mod inner { fn main() {} }
"#;
        assert_eq!(
            describe_entry_points::<Rust>("src/main.rs", source),
            [
                "main main",
                "plain_test test",
                "async_test test",
                "bench_it benchmark",
                "exported foreign",
                "callback foreign",
                "derive_thing foreign",
                "fmt implementation",
                "Item implementation",
                "next implementation",
            ]
        );
    }
}
