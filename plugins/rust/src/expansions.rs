//! The items a file's invocations of its own `macro_rules!` macros make:
//! each invocation in item position (a file's, a module's, an `impl`'s or a
//! trait's body) of a macro defined above it in the file, expanded by
//! [`crate::mbe`].

use lingo_plugin_sdk::{Expanded, ExpandedPiece};
use tree_sitter::Node;

use crate::mbe::{Expander, MacroRules};

/// How the expansion of an invocation among associated items is parsed:
/// inside a declaration of the kind its context is.
const IMPL_WRAPPER: (&str, &str) = ("impl __LingoExpansion {\n", "\n}");
const TRAIT_WRAPPER: (&str, &str) = ("trait __LingoExpansion {\n", "\n}");

/// The expansions of the file `source` whose tree is `root`.
pub fn expansions(root: Node, source: &str) -> Vec<Expanded> {
    let mut definitions: Vec<(usize, MacroRules)> = Vec::new();
    let mut invocations: Vec<Node> = Vec::new();
    // Item positions only: a file's items and the bodies of modules, impls
    // and traits, found without descending into functions.
    let mut pending = vec![root];
    while let Some(node) = pending.pop() {
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            match child.kind() {
                "macro_definition" => {
                    let text = &source[child.start_byte()..child.end_byte()];
                    if let Ok(rules) = MacroRules::parse(text) {
                        definitions.push((child.start_byte(), rules));
                    }
                }
                "macro_invocation" => invocations.push(child),
                // `name!(…);` among items may parse as a statement.
                "expression_statement" => {
                    if let Some(inner) = child
                        .named_child(0)
                        .filter(|c| c.kind() == "macro_invocation")
                    {
                        invocations.push(inner);
                    }
                }
                "mod_item" | "impl_item" | "trait_item" => {
                    if let Some(body) = child.child_by_field_name("body") {
                        pending.push(body);
                    }
                }
                _ => {}
            }
        }
    }
    if definitions.is_empty() {
        return Vec::new();
    }
    invocations.sort_by_key(Node::start_byte);
    let mut out = Vec::new();
    for invocation in invocations {
        let Some((name, arguments)) = name_and_arguments(invocation, source) else {
            continue;
        };
        // Textual scope: the macros defined above the invocation.
        let visible = definitions
            .iter()
            .filter(|(start, rules)| *start < invocation.start_byte() && rules.name == name)
            .map(|(_, rules)| rules.clone());
        let expander = Expander::new(visible, "crate");
        if !expander.knows(name) {
            continue;
        }
        let range = (arguments.start_byte(), arguments.end_byte());
        let Ok(expansion) = expander.expand_items(name, &source[range.0..range.1], range.0 as u32)
        else {
            continue;
        };
        // The declaration whose body the invocation is in (past a statement).
        let body = invocation
            .parent()
            .filter(|p| p.kind() != "expression_statement")
            .or_else(|| invocation.parent().and_then(|p| p.parent()));
        let (prefix, suffix) = match body.and_then(|b| b.parent()).map(|p| p.kind()) {
            Some("impl_item") => IMPL_WRAPPER,
            Some("trait_item") => TRAIT_WRAPPER,
            _ => ("", ""),
        };
        let shift = prefix.len() as u32;
        let name_node = invocation
            .child_by_field_name("macro")
            .unwrap_or(invocation);
        out.push(Expanded {
            text: format!("{prefix}{}{suffix}", expansion.text),
            pieces: expansion
                .pieces
                .iter()
                .filter_map(|p| {
                    Some(ExpandedPiece {
                        start: p.start + shift,
                        end: p.end + shift,
                        origin: p.origin?,
                    })
                })
                .collect(),
            anchor: (name_node.start_byte() as u32, name_node.end_byte() as u32),
            wrapped: !prefix.is_empty(),
        });
    }
    out
}

/// The macro name an invocation is written with (a path's last segment)
/// and its token tree.
fn name_and_arguments<'s, 't>(
    invocation: Node<'t>,
    source: &'s str,
) -> Option<(&'s str, Node<'t>)> {
    let path = invocation.child_by_field_name("macro")?;
    let name = match path.kind() {
        "identifier" => path,
        "scoped_identifier" => path.child_by_field_name("name")?,
        _ => return None,
    };
    let mut cursor = invocation.walk();
    let arguments = invocation
        .named_children(&mut cursor)
        .find(|c| c.kind() == "token_tree")?;
    Some((&source[name.start_byte()..name.end_byte()], arguments))
}

#[cfg(test)]
mod tests {
    use lingo_plugin_sdk::Document;
    use lingo_plugin_sdk::bindings::exports::lingo::plugin::syntax::GuestDocument;
    use lingo_plugin_sdk::types::Span;

    use crate::Rust;

    const SOURCE: &str = r#"macro_rules! cfg_sync {
    ($($item:item)*) => { $( #[cfg(feature = "sync")] $item )* }
}
macro_rules! getter {
    ($name:ident: $ty:ty) => { pub fn $name(&self) -> $ty { self.$name } }
}
cfg_sync! {
    pub mod mutex;
    pub use mutex::{Mutex, MutexGuard};
    /// A semaphore.
    pub struct Semaphore { permits: usize }
}
struct Point { x: Semaphore }
impl Point {
    getter!(x: Semaphore);
}
fn uses() -> Semaphore { unknown!(Semaphore) }
macro_rules! with_helper {
    ($name:ident) => { struct Generated; fn $name() { helper(); } }
}
with_helper!(made);
"#;

    fn text(span: &Span) -> &'static str {
        &SOURCE[span.start.offset as usize..span.end.offset as usize]
    }

    #[test]
    fn items_a_files_own_macros_make_are_its_symbols() {
        let document = Document::<Rust>::new("src/lib.rs".into(), SOURCE.into());
        let symbols = document.symbols();
        let listed: Vec<String> = symbols
            .iter()
            .map(|s| {
                let container = s
                    .container
                    .map_or("-".to_string(), |c| symbols[c as usize].name.clone());
                format!(
                    "{} {:?} in {container} at {:?}",
                    s.name,
                    s.kind,
                    text(&s.name_span)
                )
            })
            .collect();
        let expected = [
            "mutex SymbolKind::Module in - at \"mutex\"",
            "Semaphore SymbolKind::Struct in - at \"Semaphore\"",
            "permits SymbolKind::Field in Semaphore at \"permits\"",
            "x SymbolKind::Method in Point at \"x\"",
        ];
        for line in expected {
            assert!(
                listed.iter().any(|l| l == line),
                "{line} not in {listed:#?}"
            );
        }
        // Document order, and spans inside the invocation.
        let starts: Vec<u32> = symbols.iter().map(|s| s.span.start.offset).collect();
        assert!(starts.is_sorted(), "{starts:?}");
        let semaphore = symbols.iter().find(|s| s.name == "Semaphore").unwrap();
        assert_eq!(
            text(&semaphore.span),
            "pub struct Semaphore { permits: usize }"
        );
        assert_eq!(semaphore.doc.as_deref(), Some("A semaphore."));
        // The re-export is an import of the file.
        let imports = document.imports();
        let reexport = imports
            .iter()
            .find(|i| i.module_path.contains("mutex"))
            .expect("the `use` in the invocation");
        assert!(reexport.reexport);
        let names: Vec<&str> = reexport.names.iter().map(|n| text(&n.span)).collect();
        assert_eq!(names, ["Mutex", "MutexGuard"]);
        // References inside the expansion are placed at their tokens.
        let references = document.references();
        assert!(references.iter().any(|r| r.name == "Semaphore"
            && text(&r.span) == "Semaphore"
            && r.span.start.offset > SOURCE.find("getter!(").unwrap() as u32));
        // What the definition wrote has no text in the file: not reported.
        assert!(
            symbols
                .iter()
                .any(|s| s.name == "made" && text(&s.name_span) == "made")
        );
        assert!(!symbols.iter().any(|s| s.name == "Generated"));
        let invocation = SOURCE.find("with_helper!(made)").unwrap() as u32;
        assert!(
            !references
                .iter()
                .any(|r| r.name == "helper" && r.span.start.offset >= invocation)
        );
        for reference in &references {
            assert_eq!(text(&reference.span), reference.name, "{reference:?}");
        }
        // An invocation of a macro the file does not define stays as it is.
        assert!(!symbols.iter().any(|s| s.name == "__LingoExpansion"));
    }
}
