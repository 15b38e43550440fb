//! The items a file's macro invocations make: each invocation in item
//! position (a file's, a module's, an `impl`'s or a trait's body) of a
//! `macro_rules!` macro defined above it in the file or handed over by the
//! host from another file, expanded by [`crate::mbe`]; invocations where an
//! expression goes reported, not expanded (which definition they invoke is
//! the host's to route); and the file's own definitions, for the host to
//! hand to the files that invoke them.

use lingo_plugin_sdk::types::MacroSource;
use lingo_plugin_sdk::{
    DefinedMacro, Expanded, ExpandedPiece, Expansions, Unexpanded, UnexpandedReason,
};
use std::rc::Rc;

use lingo_plugin_sdk::MAX_EXPANSIONS;
use tree_sitter::Node;

use crate::mbe::{ExpandError, Expander, MacroRules};

/// How the expansion of an invocation among associated items is parsed:
/// inside a declaration of the kind its context is.
const IMPL_WRAPPER: (&str, &str) = ("impl __LingoExpansion {\n", "\n}");
const TRAIT_WRAPPER: (&str, &str) = ("trait __LingoExpansion {\n", "\n}");

/// Definitions read per file, of its own and of those handed over each: past
/// them a file's invocations are left undefined.
const MAX_DEFINITIONS: usize = 1024;

/// What a walk over a file's item positions finds.
#[derive(Default)]
struct ItemMacros<'t> {
    /// `macro_rules!` definitions, in source order.
    definitions: Vec<Node<'t>>,
    invocations: Vec<Node<'t>>,
}

/// The standard library's macros (`std`'s and `core`'s prelude ones): an
/// invocation of one the file does not define is no workspace macro's and
/// is not reported undefined.
const STANDARD_MACROS: &[&str] = &[
    "assert",
    "assert_eq",
    "assert_ne",
    "assert_matches",
    "cfg",
    "column",
    "compile_error",
    "concat",
    "dbg",
    "debug_assert",
    "debug_assert_eq",
    "debug_assert_matches",
    "debug_assert_ne",
    "env",
    "eprint",
    "eprintln",
    "file",
    "format",
    "format_args",
    "include",
    "include_bytes",
    "include_str",
    "line",
    "matches",
    "module_path",
    "option_env",
    "panic",
    "print",
    "println",
    "stringify",
    "thread_local",
    "todo",
    "unimplemented",
    "unreachable",
    "vec",
    "write",
    "writeln",
    "addr_of",
    "addr_of_mut",
    "pin",
    "ready",
    "is_x86_feature_detected",
];

/// The invocations outside item position (in function bodies, constants'
/// values, statics...), in source order: their arguments are not expanded,
/// but which definition each invokes is reported.
fn expression_macros(root: Node) -> Vec<Node> {
    let mut found = Vec::new();
    let mut cursor = root.walk();
    let mut descend = true;
    loop {
        let node = cursor.node();
        if descend {
            match node.kind() {
                "macro_invocation" if !crate::macros::in_item_position(node) => found.push(node),
                _ => {}
            }
            // A token tree holds no invocation the grammar reads; a
            // definition's rules are no code of the file.
            let opaque = matches!(node.kind(), "token_tree" | "macro_definition");
            if !opaque && cursor.goto_first_child() {
                continue;
            }
        }
        if cursor.goto_next_sibling() {
            descend = true;
            continue;
        }
        if !cursor.goto_parent() {
            break;
        }
        descend = false;
    }
    found
}

/// The definitions and invocations in item position of the tree at `root`:
/// a file's items and the bodies of modules, impls and traits, found
/// without descending into functions.
fn item_macros(root: Node) -> ItemMacros {
    let mut found = ItemMacros::default();
    let mut pending = vec![root];
    while let Some(node) = pending.pop() {
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            match child.kind() {
                "macro_definition" => found.definitions.push(child),
                "macro_invocation" => found.invocations.push(child),
                // `name!(…);` among items may parse as a statement.
                "expression_statement" => {
                    if let Some(inner) = child
                        .named_child(0)
                        .filter(|c| c.kind() == "macro_invocation")
                    {
                        found.invocations.push(inner);
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
    found.definitions.sort_by_key(Node::start_byte);
    found.invocations.sort_by_key(Node::start_byte);
    found
}

/// The `macro_rules!` macros the file at `root` defines in item position,
/// `#[macro_export]` ones marked exported.
pub fn macro_definitions(root: Node, source: &str) -> Vec<DefinedMacro> {
    item_macros(root)
        .definitions
        .into_iter()
        .filter_map(|definition| {
            let name = definition.child_by_field_name("name")?;
            Some(DefinedMacro {
                name: source[name.byte_range()].to_string(),
                range: (definition.start_byte() as u32, definition.end_byte() as u32),
                exported: has_macro_export(definition, source),
            })
        })
        .collect()
}

/// Whether an attribute before `definition` (past comments and other
/// attributes) is `#[macro_export]`.
fn has_macro_export(definition: Node, source: &str) -> bool {
    let mut previous = definition.prev_named_sibling();
    while let Some(node) = previous {
        match node.kind() {
            "attribute_item" => {
                let attribute = node.named_child(0);
                let path = attribute.and_then(|a| a.named_child(0));
                if path.is_some_and(|p| &source[p.byte_range()] == "macro_export") {
                    return true;
                }
            }
            "line_comment" | "block_comment" => {}
            _ => return false,
        }
        previous = node.prev_named_sibling();
    }
    false
}

/// The expansions of the file `source` whose tree is `root`, with the
/// definitions `given` from other files, and the invocations left
/// unexpanded.
pub fn expansions(root: Node, source: &str, given: &[MacroSource]) -> Expansions {
    let found = item_macros(root);
    let mut result = Expansions::default();
    // Item-position invocations are expanded; the others only reported.
    let mut invocations: Vec<(Node, bool)> = found
        .invocations
        .iter()
        .map(|&i| (i, true))
        .chain(expression_macros(root).into_iter().map(|i| (i, false)))
        .collect();
    if invocations.is_empty() {
        return result;
    }
    invocations.sort_by_key(|(i, _)| i.start_byte());
    let own: Vec<(usize, Rc<MacroRules>)> = found
        .definitions
        .iter()
        .take(MAX_DEFINITIONS)
        .filter_map(|d| {
            let rules = MacroRules::parse(&source[d.byte_range()]).ok()?;
            Some((d.start_byte(), Rc::new(rules)))
        })
        .collect();
    let given: Vec<Rc<MacroRules>> = given
        .iter()
        .take(MAX_DEFINITIONS)
        .filter_map(|g| MacroRules::parse(&g.text).ok().filter(|r| r.name == g.name))
        .map(Rc::new)
        .collect();
    // The expander of the definitions above the invocation, made again
    // only when an invocation is past more of them.
    let mut expander: Option<(usize, Expander)> = None;
    for (invocation, item_position) in invocations {
        let Some((name, arguments)) = name_and_arguments(invocation, source) else {
            continue;
        };
        // The name itself: `error` of `tracing::error!`, where a reference
        // to the macro is.
        let path = invocation
            .child_by_field_name("macro")
            .unwrap_or(invocation);
        let name_node = match path.kind() {
            "scoped_identifier" => path.child_by_field_name("name").unwrap_or(path),
            _ => path,
        };
        let anchor = (name_node.start_byte() as u32, name_node.end_byte() as u32);
        let left = |name: &str, reason| Unexpanded {
            name: name.to_string(),
            range: anchor,
            extent: (invocation.start_byte() as u32, invocation.end_byte() as u32),
            reason,
        };
        // Textual scope: the macros defined above the invocation, the
        // latest first; another file's where the file defines none of a
        // name.
        let above = own.partition_point(|(start, _)| *start < invocation.start_byte());
        if expander
            .as_ref()
            .is_none_or(|(made_for, _)| *made_for != above)
        {
            let visible = &own[..above];
            let elsewhere = given
                .iter()
                .filter(|g| !visible.iter().any(|(_, a)| a.name == g.name));
            let rules = visible.iter().rev().map(|(_, r)| r).chain(elsewhere);
            expander = Some((above, Expander::new(rules.cloned(), "crate")));
        }
        let Some((_, expander)) = &expander else {
            continue;
        };
        if !item_position {
            // Where an expression or statement goes: which definition it
            // invokes (none known: undefined, unless the standard library
            // has it), its code not made.
            if expander.knows(name) {
                result
                    .unexpanded
                    .push(left(name, UnexpandedReason::Unsupported));
            } else if !STANDARD_MACROS.contains(&name) {
                result
                    .unexpanded
                    .push(left(name, UnexpandedReason::Undefined));
            }
            continue;
        }
        if result.expanded.len() >= MAX_EXPANSIONS {
            result.unexpanded.push(left(name, UnexpandedReason::Budget));
            continue;
        }
        if !expander.knows(name) {
            result
                .unexpanded
                .push(left(name, UnexpandedReason::Undefined));
            continue;
        }
        let range = (arguments.start_byte(), arguments.end_byte());
        let expansion = match expander.expand_items(name, &source[range.0..range.1], range.0 as u32)
        {
            Ok(expansion) => expansion,
            Err(error) => {
                let reason = match error {
                    ExpandError::Budget(_) => UnexpandedReason::Budget,
                    _ => UnexpandedReason::Unsupported,
                };
                result.unexpanded.push(left(name, reason));
                continue;
            }
        };
        // What it invokes that is not known is another file's macro, or
        // one the workspace does not define.
        for inner in &expansion.unknown {
            result
                .unexpanded
                .push(left(inner, UnexpandedReason::Undefined));
        }
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
        result.expanded.push(Expanded {
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
            anchor,
            wrapped: !prefix.is_empty(),
        });
    }
    result
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

    /// What a declaration inside an invocation states is read from the
    /// expansion's tree, as it is outside one: the type of a field, of a
    /// parameter and of `self` in an `impl`, a return type, a local's and a
    /// static's value, each at its token in the invocation.
    #[test]
    fn types_and_values_stated_inside_an_invocation_are_facts_of_the_file() {
        use lingo_plugin_sdk::types::{DeclaredTarget, DeclaredTypeSource};
        const MADE: &str = r#"macro_rules! cfg_rt {
    ($($item:item)*) => { $( $item )* }
}
cfg_rt! {
    pub struct Outer { inner: Inner }
    impl Outer {
        fn run(&self, other: Other) -> Inner { let made = Inner::new(); made }
    }
    static GLOBAL: Inner = Inner::new();
}
"#;
        let at = |span: &Span| &MADE[span.start.offset as usize..span.end.offset as usize];
        let document = Document::<Rust>::new("src/lib.rs".into(), MADE.into());
        let symbols = document.symbols();
        let locals = document.locals();
        let references = document.references();
        let listed: Vec<String> = document
            .declared_types()
            .iter()
            .map(|d| {
                let target = match d.target {
                    DeclaredTarget::Symbol(s) => symbols[s as usize].name.clone(),
                    DeclaredTarget::Local(l) => format!("local {}", locals[l as usize].name),
                };
                assert_eq!(at(&d.span), d.type_name, "{d:?}");
                format!("{target}: {} ({:?})", d.type_name, d.source)
            })
            .collect();
        for line in [
            format!("inner: Inner ({:?})", DeclaredTypeSource::Annotation),
            format!("Outer: Outer ({:?})", DeclaredTypeSource::SelfType),
            format!("run: Inner ({:?})", DeclaredTypeSource::ReturnType),
            format!("local other: Other ({:?})", DeclaredTypeSource::Annotation),
            format!("GLOBAL: Inner ({:?})", DeclaredTypeSource::Annotation),
        ] {
            assert!(listed.contains(&line), "{line} not in {listed:#?}");
        }
        let made = locals.iter().find(|l| l.name == "made").expect("the let");
        let value = made.value.as_ref().expect("its value");
        let named = &references[value.reference as usize];
        assert_eq!((named.name.as_str(), value.called), ("new", true));
        assert!(at(&named.span) == "new" && named.span.start.offset > at_offset(MADE, "let made"));
        let global = symbols.iter().position(|s| s.name == "GLOBAL").unwrap() as u32;
        let values = document.symbol_values();
        let value = values
            .iter()
            .find(|v| v.symbol == global)
            .expect("the static's value");
        let named = &references[value.value.reference as usize];
        assert_eq!(named.name, "new");
        assert!(named.span.start.offset > at_offset(MADE, "static GLOBAL"));
    }

    fn at_offset(source: &str, text: &str) -> u32 {
        source.find(text).unwrap() as u32
    }
}

#[cfg(test)]
mod across_files {
    use lingo_plugin_sdk::Document;
    use lingo_plugin_sdk::bindings::exports::lingo::plugin::syntax::GuestDocument;
    use lingo_plugin_sdk::types::{MacroSource, Span};

    use crate::Rust;

    const MACROS: &str = r#"//! The crate's macros.
macro_rules! cfg_sync {
    ($($item:item)*) => { $( #[cfg(feature = "sync")] $item )* }
}

/// Runs `$e` on the runtime.
#[macro_export]
#[doc(hidden)]
macro_rules! cfg_rt {
    ($($item:item)*) => { $( #[cfg(feature = "rt")] $item )* }
}
"#;

    const USER: &str = r#"cfg_sync! {
    pub mod mutex;
    cfg_io! { pub struct Reader; }
}
cfg_rt! { pub fn spawn() {} }
pin_project! { struct Pinned { field: u8 } }
fn body() { cfg_rt! { fn hidden() {} } }
"#;

    fn text<'s>(source: &'s str, span: &Span) -> &'s str {
        &source[span.start.offset as usize..span.end.offset as usize]
    }

    fn given(names: &[&str]) -> Vec<MacroSource> {
        let document = Document::<Rust>::new("src/macros.rs".into(), MACROS.into());
        document
            .macro_definitions()
            .into_iter()
            .filter(|d| names.contains(&d.name.as_str()))
            .map(|d| MacroSource {
                name: d.name.clone(),
                path: "src/macros.rs".into(),
                text: text(MACROS, &d.span).to_string(),
            })
            .collect()
    }

    #[test]
    fn a_file_names_its_definitions_and_which_are_exported() {
        let document = Document::<Rust>::new("src/macros.rs".into(), MACROS.into());
        let listed: Vec<(String, bool, String)> = document
            .macro_definitions()
            .iter()
            .map(|d| {
                let first_line = text(MACROS, &d.span).lines().next().unwrap_or_default();
                (d.name.clone(), d.exported, first_line.to_string())
            })
            .collect();
        assert_eq!(
            listed,
            [
                ("cfg_sync".into(), false, "macro_rules! cfg_sync {".into()),
                ("cfg_rt".into(), true, "macro_rules! cfg_rt {".into()),
            ]
        );
    }

    #[test]
    fn without_definitions_item_invocations_are_left_undefined() {
        let document = Document::<Rust>::new("src/lib.rs".into(), USER.into());
        let left: Vec<(String, String)> = document
            .unexpanded_macros()
            .iter()
            .map(|u| (u.name.clone(), u.reason.clone()))
            .collect();
        // The invocation inside `body` too: where an expression goes,
        // reported but never expanded.
        let expected = [
            ("cfg_sync", "undefined"),
            ("cfg_rt", "undefined"),
            ("pin_project", "undefined"),
            ("cfg_rt", "undefined"),
        ];
        assert_eq!(left, expected.map(|(n, r)| (n.to_string(), r.to_string())));
        assert!(!document.symbols().iter().any(|s| s.name == "mutex"));
    }

    #[test]
    fn definitions_handed_over_expand_and_what_they_invoke_is_reported() {
        let document = Document::<Rust>::new("src/lib.rs".into(), USER.into());
        document.expand(given(&["cfg_sync", "cfg_rt"])).unwrap();
        let symbols = document.symbols();
        for name in ["mutex", "spawn"] {
            let symbol = symbols.iter().find(|s| s.name == name).expect(name);
            assert_eq!(text(USER, &symbol.name_span), name);
        }
        assert!(!symbols.iter().any(|s| s.name == "hidden"));
        let left: Vec<(String, String, String)> = document
            .unexpanded_macros()
            .iter()
            .map(|u| {
                (
                    u.name.clone(),
                    text(USER, &u.span).to_string(),
                    u.reason.clone(),
                )
            })
            .collect();
        // `cfg_io!` is inside `cfg_sync!`'s expansion: reported at the
        // invocation that made it.
        assert_eq!(
            left,
            [
                (
                    "cfg_io".to_string(),
                    "cfg_sync".to_string(),
                    "undefined".to_string()
                ),
                (
                    "pin_project".into(),
                    "pin_project".into(),
                    "undefined".into()
                ),
                // In `body`: defined now, but not expanded there.
                ("cfg_rt".into(), "cfg_rt".into(), "unsupported".into()),
            ]
        );
        // Handing over nothing again forgets them.
        document.expand(Vec::new()).unwrap();
        assert!(!document.symbols().iter().any(|s| s.name == "mutex"));
    }

    #[test]
    fn a_files_own_definition_above_wins_over_one_handed_over() {
        let source =
            "macro_rules! cfg_rt { (fn $n:ident() {}) => { struct $n; } }\ncfg_rt! { fn f() {} }\n";
        let document = Document::<Rust>::new("src/lib.rs".into(), source.into());
        document.expand(given(&["cfg_rt"])).unwrap();
        let symbols = document.symbols();
        let f = symbols.iter().find(|s| s.name == "f").expect("f");
        assert_eq!(format!("{:?}", f.kind), "SymbolKind::Struct");
        assert!(document.unexpanded_macros().is_empty());
    }

    #[test]
    fn a_handed_over_definition_that_does_not_parse_or_names_another_macro_is_ignored() {
        let document = Document::<Rust>::new("src/lib.rs".into(), "cfg_rt! { fn f() {} }\n".into());
        let mut sources = given(&["cfg_rt"]);
        sources[0].name = "other".into();
        sources.push(MacroSource {
            name: "cfg_rt".into(),
            path: "src/x.rs".into(),
            text: "macro_rules! cfg_rt { (".into(),
        });
        document.expand(sources).unwrap();
        assert!(!document.symbols().iter().any(|s| s.name == "f"));
        assert_eq!(document.unexpanded_macros()[0].reason, "undefined");
    }

    #[test]
    fn invocations_past_the_bound_are_left_unexpanded_for_budget() {
        let over = lingo_plugin_sdk::MAX_EXPANSIONS + 6;
        let mut source = String::from("macro_rules! item { ($i:item) => { $i } }\n");
        for n in 0..over {
            source.push_str(&format!("item! {{ struct S{n}; }}\n"));
        }
        let document = Document::<Rust>::new("src/lib.rs".into(), source);
        let structs = document
            .symbols()
            .iter()
            .filter(|s| s.name.starts_with('S'))
            .count();
        assert_eq!(structs, lingo_plugin_sdk::MAX_EXPANSIONS);
        let left = document.unexpanded_macros();
        assert_eq!(left.len(), 6);
        assert!(
            left.iter()
                .all(|u| u.reason == "budget" && u.name == "item")
        );
    }
}
