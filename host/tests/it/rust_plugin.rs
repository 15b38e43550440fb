//! The built-in Rust plugin, run through the host runtime on the fixture
//! files in `tests/fixtures/rust/`: exact symbols, references, imports,
//! locals, diagnostics, metrics and module identities.

use crate::common;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use lingo::model::{FileFacts, Manifest, Span};
use lingo::runtime::{LanguagePlugin, Limits, PluginRegistry, RuntimeConfig};

fn rust() -> &'static Arc<dyn LanguagePlugin> {
    common::plugin_for("lib.rs")
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/rust")
}

/// Facts of `tests/fixtures/rust/<name>`, analysed as `src/<name>`.
fn analyze(name: &str) -> FileFacts {
    let source = std::fs::read_to_string(fixtures().join(name)).unwrap();
    rust()
        .analyze(&format!("src/{name}"), &source, &[])
        .unwrap_or_else(|e| panic!("analyze {name}: {e}"))
}

/// `line:character-line:character`, zero-based as in the model.
fn span(s: &Span) -> String {
    format!(
        "{}:{}-{}:{}",
        s.start.line, s.start.character, s.end.line, s.end.character
    )
}

fn lines(rendered: impl Iterator<Item = String>) -> Vec<String> {
    rendered.collect()
}

/// One line per symbol: name, kind/language kind, span, name span,
/// container (index and name), visibility and modifiers.
fn symbol_lines(facts: &FileFacts) -> Vec<String> {
    lines(facts.symbols.iter().enumerate().map(|(i, s)| {
        let container = match (s.container, &s.container_name) {
            (None, None) => "-".to_string(),
            (Some(c), Some(name)) => format!("#{c} {name}"),
            (c, name) => format!("{c:?} {name:?}"),
        };
        let modifiers = if s.modifiers.is_empty() {
            String::new()
        } else {
            format!(" [{}]", s.modifiers.join(" "))
        };
        format!(
            "#{i} {} {}/{} {} name {} in {container} {}{modifiers}",
            s.name,
            s.kind.as_str(),
            s.language_kind,
            span(&s.span),
            span(&s.name_span),
            format!("{:?}", s.visibility).to_lowercase(),
        )
    }))
}

/// One line per reference: name, kind, position, qualifier, member flag,
/// enclosing symbol and resolved local.
fn reference_lines(facts: &FileFacts) -> Vec<String> {
    lines(facts.references.iter().map(|r| {
        let mut line = format!(
            "{} {} {}:{}",
            r.name,
            format!("{:?}", r.kind).to_lowercase(),
            r.span.start.line,
            r.span.start.character
        );
        if !r.qualifier.is_empty() {
            line += &format!(" q={}", r.qualifier.join("::"));
        }
        if r.is_member {
            line += " member";
        }
        if let Some(e) = r.enclosing.get() {
            line += &format!(" in={}", facts.symbols[e as usize].name);
        }
        if let Some(l) = r.local.get() {
            line += &format!(" local=#{l}");
        }
        line
    }))
}

fn symbol<'f>(facts: &'f FileFacts, name: &str, language_kind: &str) -> &'f lingo::model::Symbol {
    facts
        .symbols
        .iter()
        .find(|s| s.name == name && s.language_kind == language_kind)
        .unwrap_or_else(|| panic!("no {language_kind} `{name}` in {:#?}", symbol_lines(facts)))
}

#[test]
fn symbols_of_every_declaration_kind_with_exact_spans_and_containers() {
    let facts = analyze("symbols.rs");
    assert_eq!(facts.language, "rust");
    let expected = [
        "#0 Point struct/struct 8:0-12:1 name 8:11-8:16 in - public",
        "#1 x field/field 10:4-10:14 name 10:8-10:9 in #0 Point public",
        "#2 y field/field 11:4-11:10 name 11:4-11:5 in #0 Point private",
        "#3 Shape enum/enum 15:0-18:1 name 15:16-15:21 in - internal",
        "#4 Circle enum_member/variant 16:4-16:26 name 16:4-16:10 in #3 Shape internal",
        "#5 radius field/field 16:13-16:24 name 16:13-16:19 in #4 Circle internal",
        "#6 Square enum_member/variant 17:4-17:15 name 17:4-17:10 in #3 Shape internal",
        "#7 Area interface/trait 20:0-27:1 name 20:6-20:10 in - private",
        "#8 area method/method 22:4-22:26 name 22:7-22:11 in #7 Area private",
        "#9 Unit type_parameter/associated_type 23:4-23:14 name 23:9-23:13 in #7 Area private",
        "#10 describe method/method 24:4-26:5 name 24:7-24:15 in #7 Area private",
        "#11 Shape object/impl 29:0-34:1 name 29:14-29:19 in - unspecified",
        "#12 Unit type_parameter/type_alias 30:4-30:20 name 30:9-30:13 in #11 Shape public",
        "#13 area method/method 31:4-33:5 name 31:7-31:11 in #11 Shape public",
        "#14 Wrapper struct/struct 36:0-36:25 name 36:11-36:18 in - public",
        "#15 Wrapper object/impl 38:0-42:1 name 38:37-38:44 in - unspecified",
        "#16 fmt method/method 39:4-41:5 name 39:7-39:10 in #15 Wrapper public",
        "#17 Point object/impl 44:0-57:1 name 44:5-44:10 in - unspecified",
        "#18 ORIGIN constant/constant 45:4-45:51 name 45:14-45:20 in #17 Point public",
        "#19 new method/method 48:4-50:5 name 48:17-48:20 in #17 Point public [const]",
        "#20 shift method/method 54:4-56:5 name 54:31-54:36 in #17 Point internal [async unsafe]",
        "#21 inner module/module 59:0-67:1 name 59:4-59:9 in - private",
        "#22 COUNT variable/static 60:4-60:34 name 60:19-60:24 in #21 inner public [mut]",
        "#23 Id type_parameter/type_alias 61:4-61:22 name 61:13-61:15 in #21 inner public",
        "#24 twice function/macro 62:4-66:5 name 62:17-62:22 in #21 inner private",
        "#25 Bits struct/union 69:0-72:1 name 69:10-69:14 in - public",
        "#26 i field/field 70:4-70:10 name 70:4-70:5 in #25 Bits private",
        "#27 f field/field 71:4-71:10 name 71:4-71:5 in #25 Bits private",
        "#28 callback function/function 74:0-78:1 name 74:14-74:22 in - private [extern \"C\"]",
    ];
    assert_eq!(symbol_lines(&facts), expected);
}

#[test]
fn methods_in_an_impl_are_contained_by_it_and_named_after_its_self_type() {
    let facts = analyze("symbols.rs");
    let new = symbol(&facts, "new", "method");
    let container = &facts.symbols[new.container.unwrap() as usize];
    assert_eq!(
        (container.language_kind.as_str(), container.name.as_str()),
        ("impl", "Point")
    );
    assert_eq!(new.container_name.as_deref(), Some("Point"));
    // A generic, path-qualified trait impl is still named after the bare self type.
    let fmt = symbol(&facts, "fmt", "method");
    assert_eq!(fmt.container_name.as_deref(), Some("Wrapper"));
    assert_eq!(
        facts.symbols[fmt.container.unwrap() as usize]
            .signature
            .as_deref(),
        Some("impl<T: fmt::Debug> fmt::Display for Wrapper<T>")
    );
    assert_eq!(
        facts
            .container_chain(
                facts
                    .symbols
                    .iter()
                    .position(|s| s.name == "COUNT")
                    .unwrap()
            )
            .iter()
            .map(|s| s.name.as_str())
            .collect::<Vec<_>>(),
        ["inner"]
    );
}

#[test]
fn signatures_end_where_the_body_starts() {
    let facts = analyze("symbols.rs");
    let signatures: Vec<(&str, Option<&str>)> = facts
        .symbols
        .iter()
        .map(|s| (s.name.as_str(), s.signature.as_deref()))
        .collect();
    let expected: Vec<(&str, Option<&str>)> = vec![
        ("Point", Some("pub struct Point")),
        ("x", Some("pub x: i32")),
        ("y", Some("y: i32")),
        ("Shape", Some("pub(crate) enum Shape")),
        ("Circle", Some("Circle")),
        ("radius", Some("radius: f64")),
        ("Square", Some("Square")),
        ("Area", Some("trait Area")),
        ("area", Some("fn area(&self) -> f64")),
        ("Unit", Some("type Unit")),
        ("describe", Some("fn describe(&self) -> String")),
        ("Shape", Some("impl Area for Shape")),
        ("Unit", Some("type Unit = f64")),
        ("area", Some("fn area(&self) -> f64")),
        ("Wrapper", Some("pub struct Wrapper<T>")),
        (
            "Wrapper",
            Some("impl<T: fmt::Debug> fmt::Display for Wrapper<T>"),
        ),
        (
            "fmt",
            Some("fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result"),
        ),
        ("Point", Some("impl Point")),
        ("ORIGIN", Some("pub const ORIGIN: Point")),
        ("new", Some("pub const fn new(x: i32, y: i32) -> Self")),
        (
            "shift",
            Some("pub(super) async unsafe fn shift(&mut self, dx: i32)"),
        ),
        ("inner", Some("mod inner")),
        ("COUNT", Some("pub static mut COUNT: u32")),
        ("Id", Some("pub type Id = u64")),
        ("twice", Some("macro_rules! twice")),
        ("Bits", Some("pub union Bits")),
        ("i", Some("i: u32")),
        ("f", Some("f: f32")),
        // Whitespace, newlines included, collapses to single spaces, and
        // the breaks inside brackets (with a trailing comma) disappear.
        (
            "callback",
            Some("extern \"C\" fn callback(code: i32) -> i32"),
        ),
    ];
    assert_eq!(signatures, expected);
}

#[test]
fn doc_comments_lose_their_markers_stop_at_blank_lines_and_reach_past_plain_comments() {
    let facts = analyze("symbols.rs");
    let docs: Vec<(&str, &str)> = facts
        .symbols
        .iter()
        .filter_map(|s| Some((s.name.as_str(), s.doc.as_deref()?)))
        .collect();
    assert_eq!(
        docs,
        [
            (
                "Point",
                "A point on the plane.\n\nCoordinates are in pixels."
            ),
            ("x", "Horizontal."),
            ("Shape", "The shapes we can draw."),
            ("area", "The area in square pixels."),
        ]
    );

    let facts = analyze("docs.rs");
    let docs: Vec<(&str, Option<&str>)> = facts
        .symbols
        .iter()
        .map(|s| (s.name.as_str(), s.doc.as_deref()))
        .collect();
    assert_eq!(
        docs,
        [
            // Attributes may sit between doc lines and the item.
            (
                "joined",
                Some("First line.\nSecond line.\nAfter the attribute.")
            ),
            ("block", Some("A block doc\nover two lines.")),
            ("detached", None),
            ("four_slashes", None),
            ("three_stars", None),
            // A plain comment between does not end the doc (rustdoc reads past it).
            ("interrupted", Some("Doc of the item.")),
            ("Config", None),
            ("timeout", Some("Seconds to wait.")),
            // The trailing `// remark` of the previous field is not part of it.
            ("retry", Some("Whether to retry.")),
        ]
    );
}

#[test]
fn references_carry_kind_qualifier_member_flag_enclosing_symbol_and_local() {
    let facts = analyze("references.rs");
    let expected = [
        // A name a `use` brings in is an import; the path before it is a
        // plain reference to the modules.
        "Shape import 2:19 q=crate::shapes",
        "shapes reference 2:11 q=crate",
        // Supertraits extend, bare or qualified.
        "Clone extends 4:17 in=Named",
        "Debug extends 4:30 q=fmt in=Named",
        "fmt reference 4:25 in=Named",
        "String type 5:22 in=name",
        // A bound on a generic parameter is a type use, not an `extends`.
        "Named type 8:16 in=total",
        "T type 8:32 in=total local=#0",
        "enumerate call 10:38 member in=total",
        "iter call 10:31 member in=total",
        "items reference 10:25 in=total local=#1",
        // `Some` in `if let Some(first)` is a variant, not a binding.
        "Some reference 11:15 in=total",
        "next call 11:49 member in=total",
        "chars call 11:41 member in=total",
        "name call 11:34 member in=total",
        "item reference 11:29 in=total local=#5",
        "count write 12:12 in=total local=#3",
        "len_utf8 call 12:27 member in=total",
        "first reference 12:21 in=total local=#6",
        "count write 14:8 in=total local=#3",
        "max call 14:22 member in=total",
        "count reference 14:16 in=total local=#3",
        "index reference 14:26 in=total local=#4",
        "Circle type 16:23 q=Shape in=total",
        "Shape reference 16:16 in=total",
        "radius write 16:32 member in=total",
        "shape reference 17:10 in=total local=#7",
        "Square reference 18:15 q=Shape in=total",
        "Shape reference 18:8 in=total",
        "helper call 18:31 in=total",
        "side reference 18:38 in=total local=#8",
        "drop call 19:27 q=std::mem in=total",
        "mem reference 19:22 q=std in=total",
        "std reference 19:17 in=total",
        "other reference 19:32 in=total local=#9",
        // `let count = count + limit;` reads the outer `count`.
        "count reference 21:16 in=total local=#3",
        "limit reference 21:24 in=total local=#2",
        // No references for the `'outer` label.
        "unwrap_or call 25:51 member in=total",
        "parse call 25:34 member in=total",
        "text reference 25:29 in=total local=#12",
        "parse call 26:4 in=total local=#11",
        "count reference 26:17 in=total local=#10",
        "helper call 26:38 q=crate::util in=total",
        "util reference 26:32 q=crate in=total",
        "limit reference 26:45 in=total local=#2",
        "default call 30:27 q=State in=helper",
        "State reference 30:20 in=helper",
        "total write 31:10 member in=helper",
        "state reference 31:4 in=helper local=#14",
        "value reference 31:18 in=helper local=#13",
        "total write 32:10 member in=helper",
        "state reference 32:4 in=helper local=#14",
        "len call 33:24 member in=helper",
        "new call 33:18 q=Vec in=helper",
        "Vec type 33:4 in=helper",
        "total reference 33:38 member in=helper",
        "state reference 33:32 in=helper local=#14",
    ];
    assert_eq!(reference_lines(&facts), expected);
}

#[test]
fn impl_headers_reference_the_trait_and_the_self_type() {
    let facts = analyze("symbols.rs");
    let in_impls: Vec<String> = reference_lines(&facts)
        .into_iter()
        .filter(|line| line.starts_with("Point ") || line.contains("implements"))
        .collect();
    assert_eq!(
        in_impls,
        [
            "Area implements 29:5 in=Shape",
            "Display implements 38:25 q=fmt in=Wrapper",
            // `impl Point` is a use of `Point`, besides naming the impl.
            "Point type 44:5 in=Point",
            "Point type 45:22 in=ORIGIN",
            "Point type 45:30 in=ORIGIN",
            // `-> Self`: the impl's type, by its name.
            "Point type 48:40 in=new",
            "Point type 49:8 in=new",
        ]
    );
    let self_types: Vec<String> = reference_lines(&facts)
        .into_iter()
        .filter(|line| line.starts_with("Shape ") || line.starts_with("Wrapper "))
        .collect();
    assert_eq!(
        self_types,
        ["Shape type 29:14 in=Shape", "Wrapper type 38:37 in=Wrapper"]
    );
    // Compound assignment to a field is a write through `self`, qualified
    // by the impl's self type so that it resolves to that type's field.
    assert!(reference_lines(&facts).contains(&"x write 55:13 q=Point member in=shift".to_string()));
    // Lifetimes (`'_`) are not references.
    assert!(facts.references.iter().all(|r| r.name != "_"));
}

#[test]
fn locals_are_bindings_with_the_scope_they_are_visible_in() {
    let facts = analyze("references.rs");
    let locals: Vec<String> = facts
        .locals
        .iter()
        .enumerate()
        .map(|(i, l)| {
            format!(
                "#{i} {} {} {} scope {}",
                l.name,
                l.language_kind,
                span(&l.span),
                span(&l.scope)
            )
        })
        .collect();
    assert_eq!(
        locals,
        [
            "#0 T type_parameter 8:13-8:14 scope 8:13-27:1",
            "#1 items parameter 8:23-8:28 scope 8:23-27:1",
            "#2 limit parameter 8:36-8:41 scope 8:36-27:1",
            "#3 count variable 9:12-9:17 scope 9:12-27:1",
            "#4 index variable 10:9-10:14 scope 10:9-15:5",
            "#5 item variable 10:16-10:20 scope 10:16-15:5",
            "#6 first pattern 11:20-11:25 scope 11:20-13:9",
            "#7 shape variable 16:8-16:13 scope 16:8-27:1",
            "#8 side pattern 18:22-18:26 scope 18:22-18:53",
            "#9 other pattern 19:8-19:13 scope 19:8-19:39",
            "#10 count variable 21:8-21:13 scope 21:8-27:1",
            "#11 parse variable 25:8-25:13 scope 25:8-27:1",
            "#12 text parameter 25:17-25:21 scope 25:17-25:63",
            "#13 value parameter 29:10-29:15 scope 29:10-34:1",
            "#14 state variable 30:12-30:17 scope 30:12-34:1",
        ]
    );
    // Generic parameters of a type are scoped to that type.
    let facts = analyze("symbols.rs");
    let wrapper_t = &facts.locals[0];
    assert_eq!(
        (wrapper_t.name.as_str(), span(&wrapper_t.scope)),
        ("T", "36:19-36:25".to_string())
    );
}

#[test]
fn shadowing_and_patterns_resolve_to_the_binding_in_scope() {
    let source = "\
fn f(x: u32, v: Option<u32>) -> u32 {
    let x = x + 1;
    let (a, b) = (x, x);
    for x in x..b {
        let _ = x;
    }
    match v {
        Some(n) if n > a => n,
        None => x,
        other => other.unwrap_or(MAX),
    }
}
";
    let facts = rust().analyze("src/f.rs", source, &[]).unwrap();
    let binding = |r: &lingo::model::Reference| {
        r.local.get().map(|l| {
            let l = &facts.locals[l as usize];
            format!(
                "{}@{}:{}",
                l.name, l.span.start.line, l.span.start.character
            )
        })
    };
    let resolved: Vec<(String, Option<String>)> = facts
        .references
        .iter()
        .filter(|r| r.span.start.line > 0)
        .map(|r| {
            (
                format!(
                    "{}@{}:{}",
                    r.name, r.span.start.line, r.span.start.character
                ),
                binding(r),
            )
        })
        .collect();
    let own = |s: &str| Some(s.to_string());
    assert_eq!(
        resolved,
        [
            ("x@1:12".to_string(), own("x@0:5")),
            ("x@2:18".to_string(), own("x@1:8")),
            ("x@2:21".to_string(), own("x@1:8")),
            ("x@3:13".to_string(), own("x@1:8")),
            ("b@3:16".to_string(), own("b@2:12")),
            ("x@4:16".to_string(), own("x@3:8")),
            ("v@6:10".to_string(), own("v@0:13")),
            ("Some@7:8".to_string(), None),
            ("n@7:19".to_string(), own("n@7:13")),
            ("a@7:23".to_string(), own("a@2:9")),
            ("n@7:28".to_string(), own("n@7:13")),
            ("None@8:8".to_string(), None),
            ("x@8:16".to_string(), own("x@1:8")),
            ("unwrap_or@9:23".to_string(), None),
            ("other@9:17".to_string(), own("other@9:8")),
            ("MAX@9:33".to_string(), None),
        ]
    );
    assert!(
        facts
            .locals
            .iter()
            .all(|l| l.name.starts_with(char::is_lowercase)),
        "variants and constants are not bindings: {:?}",
        facts.locals
    );
}

#[test]
fn imports_flatten_use_trees() {
    let facts = analyze("imports.rs");
    let imports: Vec<String> = facts
        .imports
        .iter()
        .map(|i| {
            let names: Vec<String> = i
                .names
                .iter()
                .map(|n| match &n.alias {
                    Some(alias) => format!("{} as {alias} {}", n.name, span(&n.span)),
                    None => format!("{} {}", n.name, span(&n.span)),
                })
                .collect();
            format!(
                "{} {:?}{}{} [{}] {}",
                i.module_path,
                i.kind,
                if i.reexport { " reexport" } else { "" },
                if i.type_only { " type-only" } else { "" },
                names.join(", "),
                span(&i.span)
            )
        })
        .collect();
    assert_eq!(
        imports,
        [
            "std::collections Named [HashMap 2:22-2:29] 2:0-2:30",
            "a::b Named [c 3:11-3:12, d as e 3:14-3:15] 3:0-3:28",
            "a::b::f Named [g 3:25-3:26] 3:0-3:28",
            "crate::model Glob [] 4:0-4:20",
            // `self` in a list imports the list's module under an alias.
            "self Named reexport [inner as nested 5:22-5:26] 5:0-5:44",
            "self::inner Named reexport [Item 5:38-5:42] 5:0-5:44",
            "super::super Named reexport [Shared 6:29-6:35] 6:0-6:36",
            "serde Namespace [serde 7:4-7:9] 7:0-7:10",
            "core Named [fmt 8:18-8:22] 8:0-8:31",
            "core::fmt Named [Write 8:24-8:29] 8:0-8:31",
            "a::b::h Named [i 9:15-9:16] 9:0-9:28",
            "a::b::h::j Glob [] 9:0-9:28",
            "a::b Named [k 9:25-9:26] 9:0-9:28",
            // A `use` inside a function body counts too.
            "std::io Named [Read as _ 12:17-12:21] 12:4-12:27",
        ]
    );
}

#[test]
fn syntax_errors_are_reported_with_their_positions() {
    let facts = analyze("broken.rs");
    let diagnostics: Vec<String> = facts
        .diagnostics
        .iter()
        .map(|d| {
            format!(
                "{:?} {} {} {}",
                d.severity,
                d.code,
                span(&d.span),
                d.message
            )
        })
        .collect();
    assert_eq!(
        diagnostics,
        [
            "Error missing-node 4:23-4:23 syntax error: missing `)`",
            "Error missing-node 9:15-9:15 syntax error: missing `identifier`",
            "Error syntax-error 13:18-13:24 syntax error: unexpected `b: u32`",
        ]
    );
    // The declarations around the errors are still found.
    let names: Vec<&str> = facts.symbols.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["ok", "missing_paren", "stray", "S", "a"]);
    // A clean file has none.
    assert!(analyze("symbols.rs").diagnostics.is_empty());
}

#[test]
fn metrics_match_hand_computed_complexity() {
    let facts = analyze("metrics.rs");
    let metrics: Vec<String> = facts
        .metrics
        .iter()
        .map(|m| {
            format!(
                "{} cyclomatic={} cognitive={} nesting={} parameters={} lines={} code={} comments={}",
                facts.symbols[m.symbol as usize].name,
                m.cyclomatic,
                m.cognitive,
                m.max_nesting,
                m.parameters,
                m.lines,
                m.code_lines,
                m.comment_lines
            )
        })
        .collect();
    assert_eq!(
        metrics,
        [
            // No branches; one comment line.
            "straight cyclomatic=1 cognitive=0 nesting=0 parameters=2 lines=4 code=3 comments=1",
            // if, else-if, and one `&&` and one `||`: 1 + 4 paths. Cognitive:
            // if +1, && +1, else if +1, || +1, else +1.
            "branches cyclomatic=5 cognitive=5 nesting=1 parameters=2 lines=9 code=9 comments=0",
            // for, for, while, if, `?`, three match arms and two `&&` in the
            // guard: 1 + 10. Cognitive: for +1, for +2, while +3, if +4,
            // match +1, one run of `&&` +1.
            "nested cyclomatic=11 cognitive=12 nesting=4 parameters=1 lines=19 code=19 comments=0",
            // The closure nests its `if` (+2) and `else` (+1); the nested fn
            // is measured on its own and its lines are not counted here.
            "method cyclomatic=2 cognitive=3 nesting=2 parameters=2 lines=9 code=6 comments=0",
            "helper cyclomatic=2 cognitive=2 nesting=1 parameters=1 lines=3 code=3 comments=0",
        ]
    );
    // Halstead counts of `fn straight(a: u32, b: u32) -> u32 { a + b }`:
    // operators fn ( : , : ) -> { + }, operands straight a u32 b u32 u32 a b.
    let straight = &facts.metrics[0].halstead;
    assert_eq!(
        (
            straight.distinct_operators,
            straight.total_operators,
            straight.distinct_operands,
            straight.total_operands
        ),
        (9, 10, 4, 8)
    );
    // Only functions and methods are measured.
    assert!(
        facts
            .metrics
            .iter()
            .all(|m| { facts.symbols[m.symbol as usize].kind.is_callable() })
    );
}

fn workspace_manifests() -> Vec<Manifest> {
    let root = fixtures().join("workspace");
    ["Cargo.toml", "crates/engine/Cargo.toml"]
        .into_iter()
        .map(|path| Manifest {
            path: path.to_string(),
            contents: std::fs::read_to_string(root.join(path)).unwrap(),
        })
        .collect()
}

#[test]
fn module_of_follows_the_nearest_cargo_manifest() {
    let root = fixtures().join("workspace");
    let manifests = workspace_manifests();
    let module_of = |path: &str, manifests: &[Manifest]| {
        let source = std::fs::read_to_string(root.join(path)).unwrap();
        let facts = rust().analyze(path, &source, manifests).unwrap();
        facts
            .modules
            .iter()
            .map(|m| {
                format!(
                    "{} ({})",
                    m.path,
                    m.crate_or_package.as_deref().unwrap_or("-")
                )
            })
            .collect::<Vec<_>>()
    };
    let cases = [
        // The package name, `-` spelled `_`; `name` under [dependencies] is a dependency.
        ("src/lib.rs", "shape_kit (shape_kit)"),
        ("src/a/mod.rs", "shape_kit::a (shape_kit)"),
        ("src/a/b.rs", "shape_kit::a::b (shape_kit)"),
        ("src/bin/tool.rs", "tool (tool)"),
        ("tests/smoke.rs", "tests_smoke (tests_smoke)"),
        // The nearest manifest wins, and its [lib] name over the package name.
        ("crates/engine/src/lib.rs", "engine (engine)"),
        ("crates/engine/src/gears.rs", "engine::gears (engine)"),
    ];
    for (path, expected) in cases {
        assert_eq!(module_of(path, &manifests), [expected], "{path}");
    }
    // Without a manifest the crate is `crate`.
    assert_eq!(module_of("src/a/b.rs", &[]), ["crate::a::b (crate)"]);
}

#[test]
fn plugin_declares_what_it_serves() {
    let info = rust().info();
    assert_eq!(info.name, "rust");
    assert_eq!(info.languages, ["rust"]);
    assert_eq!(info.extensions, ["rs"]);
    assert_eq!(info.manifests, ["Cargo.toml"]);
    for capability in [
        "symbols",
        "references",
        "imports",
        "locals",
        "diagnostics",
        "metrics",
    ] {
        assert!(
            info.capabilities.iter().any(|c| c == capability),
            "missing capability {capability}: {:?}",
            info.capabilities
        );
    }
}

/// Every fact of a file, one line each, for the reviewed snapshots.
fn digest(facts: &FileFacts) -> String {
    let mut out = vec![format!("language {}", facts.language)];
    for (line, s) in symbol_lines(facts).into_iter().zip(&facts.symbols) {
        out.push(format!(
            "symbol {line} sig={:?} doc={:?}",
            s.signature.as_deref().unwrap_or(""),
            s.doc.as_deref().unwrap_or("")
        ));
    }
    out.extend(
        reference_lines(facts)
            .into_iter()
            .map(|r| format!("reference {r}")),
    );
    for (i, l) in facts.locals.iter().enumerate() {
        out.push(format!(
            "local #{i} {} {} {} scope {}",
            l.name,
            l.language_kind,
            span(&l.span),
            span(&l.scope)
        ));
    }
    for i in &facts.imports {
        out.push(format!("import {:?}", i));
    }
    for d in &facts.diagnostics {
        out.push(format!("diagnostic {:?}", d));
    }
    for m in &facts.metrics {
        let h = &m.halstead;
        out.push(format!(
            "metrics {} cyclomatic={} cognitive={} nesting={} parameters={} lines={}/{}/{} halstead={}/{}/{}/{}",
            facts.symbols[m.symbol as usize].name,
            m.cyclomatic,
            m.cognitive,
            m.max_nesting,
            m.parameters,
            m.lines,
            m.code_lines,
            m.comment_lines,
            h.distinct_operators,
            h.total_operators,
            h.distinct_operands,
            h.total_operands
        ));
    }
    for m in &facts.modules {
        out.push(format!("module {} {:?}", m.path, m.crate_or_package));
    }
    out.join("\n") + "\n"
}

#[test]
fn whole_file_facts_snapshot() {
    // Everything the plugin reports about the fixtures, including what the
    // tests above leave out (Halstead counts, every signature), kept as
    // reviewed snapshots so that any change to the facts shows up in review.
    for fixture in ["symbols.rs", "references.rs", "metrics.rs"] {
        insta::assert_snapshot!(fixture.replace('.', "_"), digest(&analyze(fixture)));
    }
}

/// Apply `(start, end, text)` edits, back to front.
fn apply(source: &str, mut edits: Vec<(u32, u32, String)>) -> String {
    edits.sort_by_key(|e| std::cmp::Reverse(e.0));
    let mut out = source.to_string();
    for (start, end, text) in edits {
        out.replace_range(start as usize..end as usize, &text);
    }
    out
}

#[test]
fn import_edits_add_after_the_last_use_and_remove_list_items() {
    let source = "//! Crate docs.\nuse std::fmt;\nuse crate::a::{b, c as d};\n\nfn main() {}\n";
    let added = rust()
        .render_import(
            "src/main.rs",
            source,
            "crate::shapes",
            &["Point".into(), "Line".into()],
        )
        .unwrap();
    assert_eq!(
        apply(source, added),
        "//! Crate docs.\nuse std::fmt;\nuse crate::a::{b, c as d};\nuse crate::shapes::{Point, Line};\n\nfn main() {}\n"
    );
    let already = rust()
        .render_import("src/main.rs", source, "crate::a", &["b".into()])
        .unwrap();
    assert!(already.is_empty(), "{already:?}");

    let one_item = rust()
        .remove_import("src/main.rs", source, "crate::a", Some("b"))
        .unwrap();
    assert_eq!(
        apply(source, one_item),
        "//! Crate docs.\nuse std::fmt;\nuse crate::a::{c as d};\n\nfn main() {}\n"
    );
    let whole = rust()
        .remove_import("src/main.rs", source, "std", Some("fmt"))
        .unwrap();
    assert_eq!(
        apply(source, whole),
        "//! Crate docs.\nuse crate::a::{b, c as d};\n\nfn main() {}\n"
    );
    let missing = rust()
        .remove_import("src/main.rs", source, "crate::zzz", None)
        .unwrap_err();
    assert_eq!(missing.code(), "PLUGIN_INVALID_INPUT", "{missing}");
}

/// The references inside the arguments of `assert_eq!`, `vec!`, `format!`,
/// `write!`, `matches!` and the like: parsed as the expressions they are,
/// with spans in the file, locals resolved and `self` qualified.
#[test]
fn references_inside_macro_arguments_are_parsed_as_expressions() {
    let facts = analyze("macros.rs");
    let local = |l: u32| {
        let local = &facts.locals[l as usize];
        format!("{}@{}", local.name, span(&local.span))
    };
    let lines: Vec<String> = facts
        .references
        .iter()
        .filter(|r| r.span.start.line >= 24)
        .map(|r| {
            let mut line = format!(
                "{} {} {}",
                r.name,
                format!("{:?}", r.kind).to_lowercase(),
                span(&r.span)
            );
            if !r.qualifier.is_empty() {
                line += &format!(" q={}", r.qualifier.join("::"));
            }
            if r.is_member {
                line += " member";
            }
            if let Some(e) = r.enclosing.get() {
                line += &format!(" in={}", facts.symbols[e as usize].name);
            }
            if let Some(l) = r.local.get() {
                line += &format!(" local={}", local(l));
            }
            line
        })
        .collect();
    let expected = [
        // `write!(f, "{}..", self.start)?;`
        "write call 24:8-24:13 in=fmt",
        "f reference 24:15-24:16 in=fmt local=f@23:18-23:19",
        "start reference 24:31-24:36 q=Span member in=fmt",
        // `writeln!(f, "{end}", end = self.start + 1)`: a named argument,
        // not a capture nor a write.
        "writeln call 25:8-25:15 in=fmt",
        "f reference 25:17-25:18 in=fmt local=f@23:18-23:19",
        "start reference 25:40-25:45 q=Span member in=fmt",
        "test reference 29:2-29:6",
        // `assert_eq!(parse(text).unwrap().start, only_in_assert());`
        "assert_eq call 32:4-32:13 in=spans",
        "start reference 32:36-32:41 member in=spans",
        "unwrap call 32:27-32:33 member in=spans",
        "parse call 32:15-32:20 in=spans",
        "text reference 32:21-32:25 in=spans local=text@31:8-31:12",
        "only_in_assert call 32:43-32:57 in=spans",
        // `vec![Span::new(0); 2]`
        "vec call 33:16-33:19 in=spans",
        "new call 33:27-33:30 q=Span in=spans",
        "Span reference 33:21-33:25 in=spans",
        // `format!("{text}: {}", spans.len())`: `{text}` captures the local.
        "format call 34:18-34:24 in=spans",
        "text reference 34:28-34:32 in=spans local=text@31:8-31:12",
        "len call 34:46-34:49 member in=spans",
        "spans reference 34:40-34:45 in=spans local=spans@33:8-33:13",
        // `assert!(matches!(parse(text), Ok(span) if span.start > 0), "{message}")`:
        // the pattern binds `span` for its guard.
        "assert call 35:4-35:10 in=spans",
        "matches call 35:12-35:19 in=spans",
        "parse call 35:21-35:26 in=spans",
        "text reference 35:27-35:31 in=spans local=text@31:8-31:12",
        "Ok reference 35:34-35:36 in=spans",
        "start reference 35:51-35:56 member in=spans",
        "span reference 35:46-35:50 in=spans local=span@35:37-35:41",
        "message reference 35:65-35:72 in=spans local=message@34:8-34:15",
    ];
    assert_eq!(lines, expected);
    // The pattern's binding is a local scoped to its arm, inside the macro.
    let span_local = facts.locals.iter().find(|l| l.name == "span").unwrap();
    assert_eq!(span(&span_local.scope), "35:37-35:60");
}

/// `find_references` of a function called only inside `assert_eq!` finds
/// that call, resolved in scope.
#[test]
fn find_references_sees_a_call_inside_assert_eq() {
    use lingo::tools::{ToolContext, ToolRegistry};
    use lingo::workspace::Workspace;

    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("rust-macro-references");
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::write(
        root.join("Cargo.toml"),
        "[package]\nname = \"macros\"\nversion = \"0.1.0\"\n",
    )
    .unwrap();
    std::fs::copy(fixtures().join("macros.rs"), root.join("src/lib.rs")).unwrap();
    let registry = PluginRegistry::load(&RuntimeConfig {
        extra_plugins: vec![],
        include_built_in: true,
        cache_dir: Some(Path::new(env!("CARGO_TARGET_TMPDIR")).join("lingo-cache")),
        limits: Limits::default(),
        extension_owners: Default::default(),
        compilation: Default::default(),
    })
    .expect("load the built-in plugins");
    let workspace = Workspace::new(&root, Arc::new(registry)).expect("a workspace");
    let tools = ToolRegistry::new();
    let context = ToolContext {
        workspace: Arc::new(workspace),
        tool_names: tools.names(),
        gate: Default::default(),
    };
    let answer = tools
        .call(
            tools.find("find_references").unwrap(),
            &context,
            &serde_json::json!({ "symbol": "only_in_assert", "include_declaration": false }),
        )
        .expect("find_references answers")
        .value();
    let sites: Vec<String> = answer["references"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            format!(
                "{} {} {}:{} {} {}",
                r["file_path"].as_str().unwrap(),
                r["kind"].as_str().unwrap(),
                r["range"]["start"]["line"],
                r["range"]["start"]["character"],
                r["enclosing"].as_str().unwrap_or("-"),
                r["confidence"],
            )
        })
        .collect();
    assert_eq!(sites, ["src/lib.rs call 32:43 spans 1.0"], "{answer:#}");
}
