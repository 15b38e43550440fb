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

/// The attributes the compiler itself reads (the Rust reference's built-in
/// attributes and the tool attributes' namespaces). Any other attribute on
/// a function is an attribute macro, which receives the function and may
/// register or call it in code the source does not show (`#[apply(template)]` of
/// rstest_reuse, a framework's route or handler attribute).
const BUILT_IN_ATTRIBUTES: &[&str] = &[
    "allow",
    "automatically_derived",
    "cfg",
    "cfg_attr",
    "cold",
    "collapse_debuginfo",
    "coverage",
    "debugger_visualizer",
    "deny",
    "deprecated",
    "derive",
    "doc",
    "expect",
    "export_name",
    "forbid",
    "ignore",
    "inline",
    "instruction_set",
    "link",
    "link_name",
    "link_ordinal",
    "link_section",
    "macro_export",
    "macro_use",
    "must_use",
    "naked",
    "no_link",
    "no_mangle",
    "non_exhaustive",
    "optimize",
    "path",
    "repr",
    "should_panic",
    "target_feature",
    "track_caller",
    "unsafe",
    "used",
    "warn",
];

/// Namespaces of tool attributes (`#[rustfmt::skip]`, `#[clippy::...]`,
/// `#[diagnostic::...]`), read by tools, not macros.
const TOOL_NAMESPACES: &[&str] = &["rustfmt", "clippy", "diagnostic", "rust_analyzer"];

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
        // On a function only: on a type, such an attribute is most often a
        // derive's inert helper (`#[serde(..)]`), not a macro of its own.
        let namespace = path.split("::").next().unwrap_or(path);
        if node.kind() == "function_item"
            && !BUILT_IN_ATTRIBUTES.contains(&path)
            && !TOOL_NAMESPACES.contains(&namespace)
        {
            return Some(EntryPointKind::Foreign);
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
    dead_code_allowed(node, attached, source).then_some(EntryPointKind::AllowedUnused)
}

/// Whether `#[allow(dead_code)]` (or `unused`, or `expect`, or under a
/// `cfg_attr`) is in force at `node`: among its own attributes (`attached`,
/// nearest first), or as a `#![allow(..)]` opening its body. What it
/// nests inherits the allowance (the SDK passes it down), as rustc applies
/// lint levels; a file-wide `#![allow]` is not read.
fn dead_code_allowed(node: Node, attached: &[Node], source: &str) -> bool {
    let outer = attached
        .iter()
        .any(|a| a.kind() == "attribute_item" && allows_dead_code(*a, source));
    outer
        || node
            .child_by_field_name("body")
            .is_some_and(|body| opens_with_allowance(body, source))
}

/// Whether the inner attributes at the start of `body` (before its first
/// item or statement) allow dead code.
fn opens_with_allowance(body: Node, source: &str) -> bool {
    let mut cursor = body.walk();
    for child in body.named_children(&mut cursor) {
        match child.kind() {
            "inner_attribute_item" if allows_dead_code(child, source) => return true,
            "inner_attribute_item" | "line_comment" | "block_comment" => {}
            _ => return false,
        }
    }
    false
}

/// Whether an attribute is `allow`/`expect` (perhaps under `cfg_attr`) of
/// `dead_code` or the `unused` group.
fn allows_dead_code(attribute: Node, source: &str) -> bool {
    let Some(text) = source.get(attribute.byte_range()) else {
        return false;
    };
    let words: Vec<&str> = text
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .collect();
    // The path first: `#[doc = "allow unused"]` allows nothing.
    let allowing = match words.first() {
        Some(&("allow" | "expect")) => true,
        Some(&"cfg_attr") => words.iter().any(|w| matches!(*w, "allow" | "expect")),
        _ => false,
    };
    allowing && words.iter().any(|w| matches!(*w, "dead_code" | "unused"))
}

/// The path an attribute names: `test`, `tokio::test`, `no_mangle`.
pub(crate) fn attribute_path<'s>(attribute_item: Node, source: &'s str) -> Option<&'s str> {
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

    /// `#[allow(dead_code)]` (or `expect`, or `unused`, or under
    /// `cfg_attr`) on a declaration, on an item around it or as a module's
    /// `#![allow(..)]` leaves it out of the dead; `#[doc]` words and other
    /// lints do not.
    #[test]
    fn declarations_the_source_allows_to_be_dead_are_entry_points() {
        let source = r#"
#[allow(dead_code)]
fn assert_covariance() {
    fn map_key() {}
}
#[expect(unused)]
struct Kept;
#[cfg_attr(test, allow(dead_code))]
fn only_in_tests() {}
#[doc = "allow unused"]
fn documented() {}
#[allow(clippy::all)]
fn linted() {}
mod quiet {
    #![allow(dead_code)]
    fn inner() {}
}
fn plain() {}
"#;
        assert_eq!(
            describe_entry_points::<Rust>("src/lib.rs", source),
            [
                "assert_covariance allowed-unused",
                "map_key allowed-unused",
                "Kept allowed-unused",
                "only_in_tests allowed-unused",
                "quiet allowed-unused",
                "inner allowed-unused",
            ]
        );
    }

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

    #[test]
    fn an_item_an_attribute_macro_receives_is_an_entry_point() {
        let source = r#"
#[apply(all_engines)]
fn roundtrip<E: Engine>(engine: E) {}
#[allow(dead_code)]
#[inline]
fn plain() {}
#[rustfmt::skip]
#[cfg(test)]
fn formatted() {}
#[route(GET, "/")]
fn index() {}
#[doc = "x"]
#[must_use]
fn documented() -> u8 { 0 }
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Unused;
"#;
        assert_eq!(
            describe_entry_points::<Rust>("src/lib.rs", source),
            // `allow` is built in, no macro: `plain` is only allowed dead.
            ["roundtrip foreign", "plain allowed-unused", "index foreign"]
        );
    }
}
