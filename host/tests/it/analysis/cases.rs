//! The cases of `analysis.rs`: (fixture, query at the cursor `$0`,
//! expected answer) per language. Answers are one line per item:
//! `path:line Container.name resolution` for definitions, `path:line kind
//! in Enclosing resolution` for references, `path:line Container.name
//! RELATION depth` for implementations, `path:line Container.name` for type
//! definitions and calls, `path:line name LABEL path:line name` for the
//! edges of dependents and dependencies (lines 1-based), `name visibility
//! references certain+name_only callers .. callees .. implementations ..
//! members [..]` (lower case) for symbol info; `error CODE` for a refusal.
//! Definitions name the container as the plugin reports it (`Parser`),
//! the other views by nesting (`Demo.Parser`; none for a Go method,
//! declared apart from its type).

/// Cases whose expected answer is the right one but not today's, with why
/// (reported, not failed, so that a fix elsewhere shows up as a note).
pub const WRONG_TODAY: &[(&str, &str)] = &[];

/// What is asked at the cursor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Query {
    Definition,
    References,
    Implementations,
    TypeDefinition,
    Callers,
    Callees,
    Dependents,
    Dependencies,
    SymbolInfo,
}

pub struct Case {
    pub name: &'static str,
    pub fixture: &'static str,
    pub query: Query,
    pub expected: &'static str,
}

use Query::*;

/// A Rust crate: `Parser` with a field and a method both named `parse`, a
/// free function `parse`, and a trait `Describe` it implements.
macro_rules! rust_crate {
    ($parser:expr, $run:expr) => {
        concat!(
            "//- Cargo.toml\n[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
            "//- src/lib.rs\npub mod parser;\npub mod run;\n",
            "//- src/parser.rs\n",
            $parser,
            "//- src/run.rs\n",
            $run
        )
    };
}

macro_rules! rust_parser {
    () => {
        r#"pub struct Parser {
    pub parse: u32,
}

pub trait Describe {
    fn describe(&self) -> u32;
}

impl Parser {
    pub fn new() -> Parser {
        Parser { parse: 0 }
    }

    pub fn parse(&self) -> u32 {
        self.parse
    }

    pub fn check(&self) -> u32 {
        parse()
    }
}

impl Describe for Parser {
    fn describe(&self) -> u32 {
        1
    }
}

pub fn parse() -> u32 {
    0
}
"#
    };
}

pub const RUST: &[Case] = &[
    Case {
        name: "rust_member_call_through_a_typed_parameter",
        fixture: rust_crate!(
            rust_parser!(),
            "use crate::parser::Parser;\n\npub fn typed(p: Parser) -> u32 {\n    p.pa$0rse()\n}\n"
        ),
        query: Definition,
        expected: "src/parser.rs:14 Parser.parse qualified",
    },
    Case {
        name: "rust_chained_call",
        fixture: rust_crate!(
            rust_parser!(),
            "use crate::parser::Parser;\n\npub fn chained() -> u32 {\n    Parser::new().pa$0rse()\n}\n"
        ),
        query: Definition,
        expected: "src/parser.rs:14 Parser.parse qualified",
    },
    Case {
        // A struct literal is a value of its type.
        name: "rust_member_call_on_a_struct_literal",
        fixture: rust_crate!(
            rust_parser!(),
            "use crate::parser::Parser;\n\npub fn literal() -> u32 {\n    (Parser { parse: 1 }).pa$0rse()\n}\n"
        ),
        query: Definition,
        expected: "src/parser.rs:14 Parser.parse qualified",
    },
    Case {
        name: "rust_field_read_is_the_field_not_the_method",
        fixture: rust_crate!(
            rust_parser!(),
            "use crate::parser::Parser;\n\npub fn field(p: Parser) -> u32 {\n    p.pa$0rse\n}\n"
        ),
        query: Definition,
        expected: "src/parser.rs:2 Parser.parse qualified",
    },
    Case {
        name: "rust_macro_argument",
        fixture: rust_crate!(
            rust_parser!(),
            "use crate::parser::Parser;\n\npub fn in_macro(p: Parser) {\n    assert_eq!(p.pa$0rse(), 1);\n}\n"
        ),
        query: Definition,
        expected: "src/parser.rs:14 Parser.parse qualified",
    },
    Case {
        name: "rust_bare_call_is_the_free_function_not_the_method",
        fixture: rust_crate!(
            r#"pub struct Parser;

impl Parser {
    pub fn parse(&self) -> u32 {
        1
    }

    pub fn check(&self) -> u32 {
        pa$0rse()
    }
}

pub fn parse() -> u32 {
    0
}
"#,
            "\n"
        ),
        query: Definition,
        expected: "src/parser.rs:13 parse scope",
    },
    Case {
        name: "rust_references_of_the_method_leave_out_field_and_function",
        fixture: rust_crate!(
            r#"pub struct Parser {
    pub parse: u32,
}

impl Parser {
    pub fn new() -> Parser {
        Parser { parse: 0 }
    }

    pub fn pa$0rse(&self) -> u32 {
        self.parse
    }
}

pub fn parse() -> u32 {
    0
}
"#,
            r#"use crate::parser::{parse, Parser};

pub fn typed(p: Parser) -> u32 {
    p.parse() + p.parse + parse()
}

pub fn chained() -> u32 {
    Parser::new().parse()
}

pub fn in_macro(p: Parser) {
    assert_eq!(p.parse(), 1);
}
"#
        ),
        query: References,
        expected: "
            src/run.rs:4 call in typed qualified
            src/run.rs:8 call in chained qualified
            src/run.rs:12 call in in_macro qualified
        ",
    },
    Case {
        name: "rust_implementations_of_a_trait",
        fixture: rust_crate!(
            r#"pub trait Desc$0ribe {
    fn describe(&self) -> u32;
}

pub struct Parser;

impl Describe for Parser {
    fn describe(&self) -> u32 {
        1
    }
}
"#,
            "\n"
        ),
        query: Implementations,
        expected: "src/parser.rs:7 Parser IMPLEMENTS 1",
    },
    Case {
        name: "rust_type_definition_of_a_parameter",
        fixture: rust_crate!(
            rust_parser!(),
            "use crate::parser::Parser;\n\npub fn typed($0p: Parser) -> u32 {\n    p.parse()\n}\n"
        ),
        query: TypeDefinition,
        expected: "src/parser.rs:1 Parser",
    },
    Case {
        name: "rust_callers_of_a_method",
        fixture: rust_crate!(
            r#"pub struct Parser;

impl Parser {
    pub fn pa$0rse(&self) -> u32 {
        1
    }
}
"#,
            r#"use crate::parser::Parser;

pub fn typed(p: Parser) -> u32 {
    p.parse()
}

pub fn twice(p: Parser) -> u32 {
    p.parse() + p.parse()
}
"#
        ),
        query: Callers,
        expected: "
            src/run.rs:3 typed
            src/run.rs:7 twice
        ",
    },
    Case {
        name: "rust_callees_of_a_function",
        fixture: rust_crate!(
            rust_parser!(),
            "use crate::parser::Parser;\n\npub fn ty$0ped(p: Parser) -> u32 {\n    p.parse() + Parser::new().parse()\n}\n"
        ),
        query: Callees,
        expected: "
            src/parser.rs:10 Parser.new
            src/parser.rs:14 Parser.parse
        ",
    },
    Case {
        name: "rust_dependents_of_a_method",
        fixture: rust_crate!(
            r#"pub struct Parser;

impl Parser {
    pub fn pa$0rse(&self) -> u32 {
        1
    }
}
"#,
            r#"use crate::parser::Parser;

pub fn typed(p: Parser) -> u32 {
    p.parse()
}

pub fn outer(p: Parser) -> u32 {
    typed(p)
}
"#
        ),
        query: Dependents,
        expected: "
            src/run.rs:3 typed CALLS src/parser.rs:4 parse
            src/run.rs:7 outer CALLS src/run.rs:3 typed
        ",
    },
    Case {
        name: "rust_references_of_a_local",
        fixture: rust_crate!(
            rust_parser!(),
            "pub fn local() -> u32 {\n    let $0n = 1;\n    n + n\n}\n"
        ),
        query: References,
        expected: "
            src/run.rs:3 reference in local scope
            src/run.rs:3 reference in local scope
        ",
    },
    Case {
        name: "rust_a_local_has_no_implementations",
        fixture: rust_crate!(
            rust_parser!(),
            "pub fn local() -> u32 {\n    let $0n = 1;\n    n\n}\n"
        ),
        query: Implementations,
        expected: "error INVALID_PARAM",
    },
    Case {
        name: "rust_nothing_at_the_cursor",
        fixture: rust_crate!(rust_parser!(), "pub fn f() {}\n$0\n"),
        query: Definition,
        expected: "error SYMBOL_NOT_FOUND",
    },
    Case {
        name: "rust_type_definition_of_a_function_is_refused",
        fixture: rust_crate!(rust_parser!(), "pub fn $0f() {}\n"),
        query: TypeDefinition,
        expected: "error INVALID_PARAM",
    },
    Case {
        name: "rust_dependencies_of_a_function",
        fixture: rust_crate!(
            rust_parser!(),
            "use crate::parser::Parser;\n\npub fn ty$0ped(p: Parser) -> u32 {\n    p.parse() + p.parse\n}\n"
        ),
        query: Dependencies,
        expected: "
            src/parser.rs:14 parse REFERENCES src/parser.rs:2 parse
            src/run.rs:3 typed CALLS src/parser.rs:14 parse
            src/run.rs:3 typed REFERENCES src/parser.rs:1 Parser
            src/run.rs:3 typed REFERENCES src/parser.rs:2 parse
        ",
    },
    Case {
        name: "rust_symbol_info_of_a_type",
        fixture: rust_crate!(
            rust_parser!(),
            "use crate::parser::Parser;\n\npub fn typed(p: Par$0ser) -> u32 {\n    p.parse()\n}\n"
        ),
        query: SymbolInfo,
        expected: "parser public references 6+0 callers 0+0 callees 0+0 implementations 0+0 members [parse]",
    },
    // `crate::a::Handle::current` where `a`'s `Handle` has its `impl` in
    // another file: the module path names the owner, so this file's own
    // `Handle::current` is not meant, and the answer is a guess.
    Case {
        name: "rust_path_to_another_modules_type_is_not_this_files_type",
        fixture: concat!(
            "//- Cargo.toml\n[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
            "//- src/lib.rs\npub mod a;\npub mod a_impl;\npub mod b;\n",
            "//- src/a.rs\npub struct Handle;\n",
            "//- src/a_impl.rs\nuse crate::a::Handle;\n\nimpl Handle {\n    pub fn current() -> u32 {\n        1\n    }\n}\n",
            "//- src/b.rs\npub struct Handle;\n\nimpl Handle {\n    pub fn current() -> u32 {\n        2\n    }\n}\n\npub fn f() -> u32 {\n    crate::a::Handle::cur$0rent()\n}\n",
        ),
        query: Definition,
        expected: "src/a_impl.rs:4 Handle.current qualified",
    },
    Case {
        // `fs::read(..)` is the function `pub use self::read::read;`
        // re-exports, not the private module `read` beside it (a call names
        // a value), read inside another crate's macro as an expression.
        name: "rust_a_call_is_never_a_module_and_unknown_macros_hold_expressions",
        fixture: concat!(
            "//- Cargo.toml\n[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
            "//- src/lib.rs\npub mod fs;\n",
            "//- src/fs/mod.rs\nmod read;\npub use self::read::read;\n",
            "//- src/fs/read.rs\npub fn read(path: &str) -> Vec<u8> {\n    path.into()\n}\n",
            "//- tests/fs.rs\nuse demo::fs;\n\n#[test]\nfn reads() {\n    let out = assert_ok!(fs::re$0ad(\"bar\"));\n}\n",
        ),
        query: Definition,
        expected: "src/fs/read.rs:1 read qualified",
    },
    Case {
        // `Inner::id` where `Inner` has a field and a method named `id`:
        // the path alone does not say which, so neither is certain.
        name: "rust_path_to_a_name_both_a_field_and_a_method",
        fixture: concat!(
            "//- Cargo.toml\n[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
            "//- src/lib.rs\npub struct Inner {\n    id: u32,\n}\n\nimpl Inner {\n    pub fn id(&self) -> u32 {\n        self.id\n    }\n}\n\npub fn ids(all: &[Inner]) -> Vec<u32> {\n    all.iter().map(Inner::i$0d).collect()\n}\n",
        ),
        query: Definition,
        expected: "src/lib.rs:2 Inner.id qualified uncertain\nsrc/lib.rs:6 Inner.id qualified uncertain",
    },
    Case {
        // A workspace member importing a sibling by the name its manifest
        // gives the dependency (`engine = { package = "core-lib", .. }`).
        name: "rust_renamed_workspace_dependency",
        fixture: concat!(
            "//- Cargo.toml\n[workspace]\nmembers = [\"app\", \"core\"]\n",
            "//- app/Cargo.toml\n[package]\nname = \"app\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\nengine = { package = \"core-lib\", path = \"../core\" }\n",
            "//- app/src/lib.rs\nuse engine::Widget;\n\npub fn make() -> Widget {\n    Wid$0get\n}\n",
            "//- core/Cargo.toml\n[package]\nname = \"core-lib\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
            "//- core/src/lib.rs\npub struct Widget;\n",
            "//- core/src/other.rs\npub struct Widget;\n",
        ),
        query: Definition,
        expected: "core/src/lib.rs:1 Widget import",
    },
    Case {
        // Members of an `impl` in another file than the type, reached
        // through a typed value: the block's name resolves to the type.
        name: "rust_member_of_an_impl_in_another_file_through_a_typed_value",
        fixture: concat!(
            "//- Cargo.toml\n[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
            "//- src/lib.rs\npub mod a;\npub mod a_impl;\npub mod b;\npub mod c;\n",
            "//- src/a.rs\npub struct Handle;\n",
            "//- src/a_impl.rs\nuse crate::a::Handle;\n\nimpl Handle {\n    pub fn current(&self) -> u32 {\n        1\n    }\n}\n",
            "//- src/b.rs\npub struct Handle;\n\nimpl Handle {\n    pub fn current(&self) -> u32 {\n        2\n    }\n}\n",
            "//- src/c.rs\nuse crate::a::Handle;\n\npub fn g(h: Handle) -> u32 {\n    h.cur$0rent()\n}\n",
        ),
        query: Definition,
        expected: "src/a_impl.rs:4 Handle.current qualified",
    },
    Case {
        // A type declared inside an invocation of a macro another file
        // defines, used from an integration test by the crate's name.
        name: "rust_item_made_by_another_files_macro",
        fixture: concat!(
            "//- Cargo.toml\n[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
            "//- src/lib.rs\n#[macro_use]\nmod macros;\npub mod runtime;\n",
            "//- src/macros.rs\nmacro_rules! cfg_rt {\n    ($($item:item)*) => { $( #[cfg(feature = \"rt\")] $item )* }\n}\n",
            "//- src/runtime.rs\ncfg_rt! {\n    /// The runtime.\n    pub struct Runtime;\n}\n",
            "//- tests/t.rs\nuse demo::runtime::Runtime;\n\nfn f() -> Runtime {\n    Run$0time\n}\n",
        ),
        query: Definition,
        expected: "src/runtime.rs:3 Runtime import",
    },
    Case {
        // `let me = &mut *self;` with `self: Pin<&mut Self>`: a value of the
        // impl's type, whose field `me.func` is.
        name: "rust_a_local_bound_to_self_has_the_impls_type",
        fixture: concat!(
            "//- Cargo.toml\n[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
            "//- src/lib.rs\nuse std::pin::Pin;\n\npub struct Task {\n    func: Option<u32>,\n}\n\npub struct Other {\n    func: Option<u32>,\n}\n\nimpl Task {\n    pub fn poll(self: Pin<&mut Self>) -> Option<u32> {\n        let me = &mut *self;\n        me.fu$0nc.take()\n    }\n}\n",
        ),
        query: Definition,
        expected: "src/lib.rs:4 Task.func qualified",
    },
    Case {
        // The methods of an impl for a standard pointer to a type are
        // reached through a value of the pointer, as `Deref` reaches them;
        // an impl for a pointer to its own type parameter is not the
        // parameter's.
        name: "rust_method_of_an_impl_for_a_pointer_to_the_type",
        fixture: concat!(
            "//- Cargo.toml\n[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
            "//- src/lib.rs\nuse std::sync::Arc;\n\npub struct Handle;\n\npub trait Schedule {\n    fn schedule(&self);\n}\n\nimpl Schedule for Arc<Handle> {\n    fn schedule(&self) {}\n}\n\nimpl<T> Schedule for Box<T> {\n    fn schedule(&self) {}\n}\n\npub struct Other;\n\nimpl Other {\n    pub fn schedule(&self) {}\n}\n\npub fn run(me: &Arc<Handle>) {\n    me.sche$0dule();\n}\n",
        ),
        query: Definition,
        expected: "src/lib.rs:10 Handle.schedule qualified",
    },
    Case {
        // A field of a struct declared inside a macro invocation has the
        // type written there: a call through it is the type's method.
        name: "rust_call_through_a_field_a_macro_made",
        fixture: concat!(
            "//- Cargo.toml\n[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
            "//- src/lib.rs\n#[macro_use]\nmod macros;\npub mod runtime;\npub mod parser;\n",
            "//- src/macros.rs\nmacro_rules! cfg_rt {\n    ($($item:item)*) => { $( #[cfg(feature = \"rt\")] $item )* }\n}\n",
            "//- src/parser.rs\npub struct Parser;\n\nimpl Parser {\n    pub fn parse(&self) {}\n}\n\npub struct Other;\n\nimpl Other {\n    pub fn parse(&self) {}\n}\n",
            "//- src/runtime.rs\nuse crate::parser::Parser;\n\ncfg_rt! {\n    pub struct Runtime {\n        pub parser: Parser,\n    }\n}\n\npub fn run(r: &Runtime) {\n    r.parser.pa$0rse();\n}\n",
        ),
        query: Definition,
        expected: "src/parser.rs:4 Parser.parse qualified",
    },
    Case {
        // `self` inside an `impl` a macro invocation holds is that impl's
        // type; its methods' parameters have the types written there.
        name: "rust_self_and_parameters_inside_a_macro_made_impl",
        fixture: concat!(
            "//- Cargo.toml\n[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
            "//- src/lib.rs\n#[macro_use]\nmod macros;\npub mod runtime;\npub mod parser;\n",
            "//- src/macros.rs\nmacro_rules! cfg_rt {\n    ($($item:item)*) => { $( #[cfg(feature = \"rt\")] $item )* }\n}\n",
            "//- src/parser.rs\npub struct Parser;\n\nimpl Parser {\n    pub fn pa$0rse(&self) {}\n}\n\npub struct Other;\n\nimpl Other {\n    pub fn parse(&self) {}\n}\n",
            "//- src/runtime.rs\nuse crate::parser::{Other, Parser};\n\npub struct Runtime {\n    parser: Other,\n}\n\ncfg_rt! {\n    impl Runtime {\n        fn run(&self, given: Parser) {\n            self.parser.parse();\n            given.parse();\n        }\n    }\n}\n",
        ),
        query: References,
        expected: r#"src/runtime.rs:11 call in Runtime.run qualified when feature = "rt""#,
    },
    Case {
        // `$crate::` paths and an exported macro from another module of the
        // crate, nested in another invocation the file's own macro makes.
        name: "rust_nested_invocations_of_other_files_macros_expand",
        fixture: concat!(
            "//- Cargo.toml\n[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
            "//- src/lib.rs\n#[macro_use]\nmod macros;\npub mod sync;\n",
            "//- src/macros.rs\n#[macro_export]\nmacro_rules! feature {\n    (#![$meta:meta] $($item:item)*) => { $( #[cfg($meta)] $item )* }\n}\nmacro_rules! cfg_sync {\n    ($($item:item)*) => { $crate::feature! { #![feature = \"sync\"] $($item)* } }\n}\n",
            "//- src/sync.rs\ncfg_sync! {\n    pub struct Mutex;\n}\n\npub fn make() -> Mutex {\n    Mu$0tex\n}\n",
        ),
        query: Definition,
        expected: "src/sync.rs:2 Mutex scope",
    },
    Case {
        // A macro exported from a module file, invoked where expressions
        // go: from a test that imports the crate's module of the same name
        // (`use demo::span;`), and from the crate through `#[macro_use]`.
        // The invocations are the macro's; `span::Id` stays the module's;
        // the definition's own rules name nothing.
        name: "rust_exported_macro_invoked_beside_a_module_of_its_name",
        fixture: concat!(
            "//- Cargo.toml\n[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
            "//- src/lib.rs\n#[macro_use]\nmod macros;\npub mod span;\n\npub fn root() -> span::Id {\n    span!(1)\n}\n",
            "//- src/span.rs\npub struct Id;\n",
            "//- src/macros.rs\n#[macro_export]\nmacro_rules! sp$0an {\n    ($x:expr) => { $crate::span::Id };\n}\n",
            "//- tests/t.rs\nuse demo::span;\n\n#[test]\nfn spans() {\n    let _i: span::Id = span!(2);\n    demo::span!(3);\n}\n",
        ),
        query: References,
        expected: "
            src/lib.rs:6 call in root import
            tests/t.rs:5 call in spans import
            tests/t.rs:6 call in spans qualified
        ",
    },
    Case {
        // A private module beside a public re-export of one name: another
        // crate (a test) importing the name gets what it can see.
        name: "rust_import_from_another_crate_skips_a_private_module",
        fixture: concat!(
            "//- Cargo.toml\n[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
            "//- src/lib.rs\npub mod fs;\n",
            "//- src/fs/mod.rs\nmod read;\npub use self::read::read;\n",
            "//- src/fs/read.rs\npub fn read() -> u8 {\n    1\n}\n",
            "//- tests/t.rs\nuse demo::fs::re$0ad;\n\n#[test]\nfn reads() {\n    read();\n}\n",
        ),
        query: Definition,
        expected: "src/fs/read.rs:1 read import",
    },
    Case {
        // `use a::Enum::Variant;` imports a member of a type.
        name: "rust_import_of_an_enum_variant",
        fixture: rust_crate!(
            "pub enum Token {\n    Word,\n    Number,\n}\n",
            "use crate::parser::Token::Number;\n\npub fn first() -> crate::parser::Token {\n    Num$0ber\n}\n"
        ),
        query: Definition,
        expected: "src/parser.rs:3 Token.Number import",
    },
    Case {
        // `Self` in the type's `impl` (in another file) is a use of the
        // type; `Self` in a trait is not.
        name: "rust_self_in_an_impl_is_a_use_of_the_type",
        fixture: rust_crate!(
            "pub struct Par$0ser;\n\npub trait Make {\n    fn make() -> Self;\n}\n",
            "use crate::parser::Parser;\n\nimpl Parser {\n    pub fn new() -> Self {\n        Self::default_one()\n    }\n\n    fn default_one() -> Self {\n        Self\n    }\n}\n"
        ),
        query: References,
        expected: "
            src/run.rs:1 import in - import
            src/run.rs:3 type in Parser import
            src/run.rs:4 type in Parser.new import
            src/run.rs:5 reference in Parser.new import
            src/run.rs:8 type in Parser.default_one import
            src/run.rs:9 reference in Parser.default_one import
        ",
    },
    Case {
        // `use demo::fire;` of a macro exported from a module file: the
        // import names the macro the test invokes.
        name: "rust_import_of_an_exported_macro",
        fixture: concat!(
            "//- Cargo.toml\n[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
            "//- src/lib.rs\n#[macro_use]\nmod macros;\n",
            "//- src/macros.rs\n#[macro_export]\nmacro_rules! fire {\n    ($x:expr) => { $x };\n}\n",
            "//- tests/t.rs\nuse demo::fi$0re;\n\n#[test]\nfn fires() {\n    fire!(1);\n}\n",
        ),
        query: Definition,
        expected: "src/macros.rs:2 fire import",
    },
    Case {
        name: "rust_module_beside_an_exported_macro_of_its_name",
        fixture: concat!(
            "//- Cargo.toml\n[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
            "//- src/lib.rs\n#[macro_use]\nmod macros;\npub mod span;\n\npub fn root() -> span::Id {\n    span!(1)\n}\n",
            "//- src/span.rs\npub struct Id;\n",
            "//- src/macros.rs\n#[macro_export]\nmacro_rules! span {\n    ($x:expr) => { $crate::span::Id };\n}\n",
            "//- tests/t.rs\nuse demo::span;\n\n#[test]\nfn spans() {\n    let _i: sp$0an::Id = span!(2);\n}\n",
        ),
        query: Definition,
        expected: "src/lib.rs:3 span import",
    },
    Case {
        // `let (tx, mut rx) = mpsc::channel();`: each binding has the type
        // of its element of the function's stated tuple, so `recv_many` is
        // the receiver's, not the sender's of the same name.
        name: "rust_bindings_of_a_tuple_pattern_have_their_elements_types",
        fixture: concat!(
            "//- Cargo.toml\n[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
            "//- src/lib.rs\npub mod mpsc;\n",
            "//- src/mpsc.rs\npub struct Sender;\npub struct Receiver;\n\n",
            "impl Sender {\n    pub fn recv_many(&self) {}\n}\n\n",
            "impl Receiver {\n    pub fn recv_ma$0ny(&mut self) {}\n}\n\n",
            "pub fn channel() -> (Sender, (u8, Receiver)) {\n    (Sender, (0, Receiver))\n}\n",
            "//- tests/t.rs\nuse demo::mpsc;\n\n#[test]\nfn receives() {\n",
            "    let (tx, (_, mut rx)) = mpsc::channel();\n    tx.recv_many();\n    rx.recv_many();\n}\n",
        ),
        query: References,
        expected: "
            tests/t.rs:7 call in receives qualified
        ",
    },
    Case {
        // A binding of a tuple variant's pattern has the type of the field
        // at its place, in `match`, `if let` and a nested `Some(..)`, also
        // bound `ref` or `ref mut`: `run` is `Data`'s there, `Other`'s for
        // the other variant.
        name: "rust_a_tuple_variants_pattern_binds_its_fields_types",
        fixture: concat!(
            "//- Cargo.toml\n[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
            "//- src/lib.rs\npub struct Data;\nimpl Data {\n    pub fn r$0un(&self) {}\n}\n",
            "pub struct Other;\nimpl Other {\n    pub fn run(&self) {}\n}\n\n",
            "pub enum Msg {\n    Pair(u32, Data),\n    Other(Other),\n}\n\n",
            "pub fn f(m: &Msg) {\n",
            "    match m {\n        Msg::Pair(_, d) => d.run(),\n        Msg::Other(o) => o.run(),\n    }\n",
            "    if let Msg::Pair(n, data) = m {\n        data.run();\n        let _ = n;\n    }\n",
            "}\n\n",
            "pub fn g(m: &mut Msg) {\n",
            "    match *m {\n        Msg::Pair(_, ref mut d) => d.run(),\n        Msg::Other(ref o) => o.run(),\n    }\n",
            "}\n",
        ),
        query: References,
        expected: "
            src/lib.rs:17 call in f qualified
            src/lib.rs:21 call in f qualified
            src/lib.rs:28 call in g qualified
        ",
    },
    Case {
        // Calling a tuple variant gives a value of its enum, and a unit
        // variant is one: `rev` is `Seq`'s, not `Other`'s, also through a
        // glob import of the variants.
        name: "rust_a_variants_value_is_of_its_enum",
        fixture: concat!(
            "//- Cargo.toml\n[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
            "//- src/lib.rs\npub enum Seq {\n    One(u8),\n    Two(u8, u8),\n    Empty,\n}\n",
            "impl Seq {\n    pub fn r$0ev(&mut self) {}\n}\n",
            "pub struct Other;\nimpl Other {\n    pub fn rev(&mut self) {}\n}\n\n",
            "use Seq::*;\n\n",
            "pub fn f() {\n",
            "    let mut a = Seq::One(1);\n    a.rev();\n",
            "    let mut b = Seq::Empty;\n    b.rev();\n",
            "    let mut c = Two(1, 2);\n    c.rev();\n",
            "}\n",
        ),
        query: References,
        expected: "
            src/lib.rs:18 call in f qualified
            src/lib.rs:20 call in f qualified
            src/lib.rs:22 call in f qualified
        ",
    },
    Case {
        // What `x.unwrap()`, `x.expect(..)` and `x?` give is the value the
        // `Option` or `Result` holds: `run` is `Frame`'s after `pop()`,
        // `Other`'s after `other()`.
        name: "rust_unwrapping_an_option_or_result_gives_what_it_holds",
        fixture: concat!(
            "//- Cargo.toml\n[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
            "//- src/lib.rs\npub struct Frame;\nimpl Frame {\n    pub fn r$0un(&self) {}\n}\n",
            "pub struct Other;\nimpl Other {\n    pub fn run(&self) {}\n}\n\n",
            "pub struct Stack {\n    frames: Vec<Frame>,\n}\n\n",
            "impl Stack {\n    pub fn pop(&mut self) -> Option<Frame> {\n        self.frames.pop()\n    }\n",
            "    pub fn other(&self) -> Result<Other, ()> {\n        Ok(Other)\n    }\n}\n\n",
            "pub fn f(s: &mut Stack) -> Option<()> {\n",
            "    s.pop().unwrap().run();\n",
            "    s.pop().expect(\"a frame\").run();\n",
            "    let frame = s.pop()?;\n    frame.run();\n",
            "    s.other().unwrap().run();\n",
            "    None\n}\n",
        ),
        query: References,
        expected: "
            src/lib.rs:24 call in f qualified
            src/lib.rs:25 call in f qualified
            src/lib.rs:27 call in f qualified
        ",
    },
    Case {
        // A field bound by its own name in a struct's pattern has the
        // field's type: `run` is `Data`'s, not `Other`'s.
        name: "rust_a_struct_patterns_shorthand_field_has_the_fields_type",
        fixture: concat!(
            "//- Cargo.toml\n[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
            "//- src/lib.rs\npub struct Data;\nimpl Data {\n    pub fn r$0un(&self) {}\n}\n",
            "pub struct Other;\nimpl Other {\n    pub fn run(&self) {}\n}\n\n",
            "pub struct Span {\n    pub inner: Data,\n    pub other: Other,\n}\n\n",
            "pub fn f(s: &Span) {\n",
            "    let Span { inner, .. } = s;\n    inner.run();\n",
            "    if let Span { ref other, .. } = *s {\n        other.run();\n    }\n",
            "}\n",
        ),
        query: References,
        expected: "
            src/lib.rs:17 call in f qualified
        ",
    },
    Case {
        // `use super::*` in a file's `mod tests` names the file's module,
        // not its parent's: the parent's `Alternation` struct is not what
        // a bare `Alternation` of the file means (a variant brought in by
        // `use self::GroupState::*`), and a rename of the struct left it.
        name: "rust_use_super_in_an_inline_module_names_the_files_module",
        fixture: concat!(
            "//- Cargo.toml\n[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
            "//- src/lib.rs\npub mod ast;\n",
            "//- src/ast/mod.rs\nmod parse;\npub struct Altern$0ation {\n    pub n: u32,\n}\n",
            "//- src/ast/parse.rs\nuse crate::ast;\n\nenum GroupState {\n    Alternation(ast::Alternation),\n}\n\n",
            "fn push(stack: &mut Vec<GroupState>) {\n    use self::GroupState::*;\n",
            "    stack.push(Alternation(ast::Alternation { n: 0 }));\n}\n\n",
            "#[cfg(test)]\nmod tests {\n    use super::*;\n\n    fn pushes() {\n        push(&mut Vec::new());\n    }\n}\n",
        ),
        query: References,
        expected: "
            src/ast/parse.rs:4 type in GroupState.Alternation qualified
            src/ast/parse.rs:9 type in push qualified
        ",
    },
    Case {
        // A qualified path names the trait it writes: `<Fast as Other>::run`
        // is `Other`'s `run`, `<Fast as Runner>::run` `Runner`'s, though
        // `Fast` implements both with a method of that name.
        name: "rust_a_qualified_paths_trait_is_the_members_owner",
        fixture: concat!(
            "//- Cargo.toml\n[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
            "//- src/lib.rs\npub trait Runner {\n    fn run(&self) -> u32;\n}\n",
            "pub trait Other {\n    fn r$0un(&self) -> u32;\n}\n\npub struct Fast;\n\n",
            "impl Runner for Fast {\n    fn run(&self) -> u32 {\n        1\n    }\n}\n\n",
            "impl Other for Fast {\n    fn run(&self) -> u32 {\n        2\n    }\n}\n\n",
            "pub fn both(f: &Fast) -> u32 {\n    <Fast as Runner>::run(f) + <Fast as Other>::run(f) + <Fast as crate::Other>::run(f)\n}\n",
        ),
        query: References,
        expected: "
            src/lib.rs:23 call in both qualified
            src/lib.rs:23 call in both qualified
        ",
    },
    Case {
        // `impl Deref for Guard { type Target = Inner; }`: a member `Guard`
        // lacks is `Inner`'s (auto-deref), one it has is its own.
        name: "rust_a_member_a_type_lacks_is_its_deref_targets",
        fixture: concat!(
            "//- Cargo.toml\n[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
            "//- src/lib.rs\nuse std::ops::Deref;\n\npub struct Inner {\n    pub id: u32,\n}\n\npub struct Other {\n    pub id: u32,\n}\n\n",
            "pub struct Guard {\n    inner: Inner,\n    pub name: u32,\n}\n\n",
            "impl Deref for Guard {\n    type Target = Inner;\n    fn deref(&self) -> &Inner {\n        &self.inner\n    }\n}\n\n",
            "pub fn read(g: &Guard) -> u32 {\n    g.i$0d + g.name\n}\n",
        ),
        query: Definition,
        expected: "src/lib.rs:4 Inner.id qualified",
    },
    Case {
        // An element of a standard collection (`Box<[Remote]>`, `&[Remote]`,
        // `Vec<Remote>`), or the value an `Option<Remote>` holds, has the
        // element's type, indexed, iterated, matched by `Some(x)`, or
        // given to an adaptor's closure (`iter().for_each(|o| ..)`,
        // `as_ref().map(|r| ..)`):
        // `steal` is `Remote`'s, not `Local`'s of the same name. A range
        // index is a part of the collection, not an element.
        name: "rust_elements_of_standard_collections_have_the_element_type",
        fixture: concat!(
            "//- Cargo.toml\n[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
            "//- src/lib.rs\npub struct Remote;\npub struct Local;\n\n",
            "impl Remote {\n    pub fn ste$0al(&self) {}\n}\n\n",
            "impl Local {\n    pub fn steal(&self) {}\n}\n\n",
            "pub struct Shared {\n    remotes: Box<[Remote]>, maybe: Option<Remote>,\n}\n\n",
            "fn all() -> Vec<Remote> {\n    Vec::new()\n}\n\n",
            "impl Shared {\n    fn run(&self, others: &[Remote]) {\n",
            "        self.remotes[0].steal();\n",
            "        for remote in &self.remotes {\n            remote.steal();\n        }\n",
            "        for other in others.iter() {\n            other.steal();\n        }\n",
            "        let first = &others[0];\n        first.steal();\n",
            "        all()[1].steal();\n",
            "        let part = &others[1..];\n        part.steal();\n",
            "        others.iter().for_each(|o| o.steal());\n",
            "        for p in &self.remotes[1..] {\n            p.steal();\n        }\n",
            "        if let Some(m) = self.maybe.as_ref() {\n            m.steal();\n        }\n",
            "        self.maybe.as_ref().map(|r| r.steal());\n",
            "    }\n}\n",
        ),
        query: References,
        expected: "
            src/lib.rs:22 call in Shared.run qualified
            src/lib.rs:24 call in Shared.run qualified
            src/lib.rs:27 call in Shared.run qualified
            src/lib.rs:30 call in Shared.run qualified
            src/lib.rs:31 call in Shared.run qualified
            src/lib.rs:33 call in Shared.run name_only
            src/lib.rs:34 call in Shared.run qualified
            src/lib.rs:36 call in Shared.run qualified
            src/lib.rs:39 call in Shared.run qualified
            src/lib.rs:41 call in Shared.run qualified
        ",
    },
];

/// A TypeScript package: `Parser` with a method `parse`, a function
/// `parse`, a `Sized` class whose `size` is a field and a `Measured` one
/// whose `size` is a method.
macro_rules! ts_package {
    ($parser:expr, $run:expr) => {
        concat!(
            "//- package.json\n{ \"name\": \"demo\" }\n",
            "//- src/parser.ts\n",
            $parser,
            "//- src/run.ts\n",
            $run
        )
    };
}

macro_rules! ts_parser {
    () => {
        r#"export class Parser {
  count = 0;

  static create(): Parser {
    return new Parser();
  }

  parse(): number {
    return this.count;
  }
}

export function parse(): number {
  return 0;
}

export class Sized {
  size = 1;
}

export class Measured {
  size(): number {
    return 2;
  }
}
"#
    };
}

pub const TYPESCRIPT: &[Case] = &[
    Case {
        // A string in a type names a property: `R["_meta"]` is the member
        // of `R`'s constraint, certain; a string literal type used as a
        // key elsewhere (`as "_meta" | "_id"`) is a guess by name; a
        // string literal type that names no member (`"read"`) is nothing.
        name: "ts_strings_in_types_name_properties",
        fixture: concat!(
            "//- package.json\n{ \"name\": \"demo\" }\n",
            "//- src/registry.ts\nexport class Registry<Meta> {\n  _me$0ta!: Meta;\n  _id = 0;\n}\n\n",
            "export type MetaOf<R extends Registry<unknown>> = R[\"_meta\"];\n",
            "export type Mode = \"read\" | \"write\";\n\n",
            "export function field(r: Registry<string>, which: boolean): unknown {\n",
            "  const key = (which ? \"_meta\" : \"_id\") as \"_meta\" | \"_id\";\n",
            "  return r[key];\n}\n",
        ),
        query: References,
        expected: "
            src/registry.ts:6 reference in MetaOf qualified
            src/registry.ts:10 reference in field name_only
        ",
    },
    Case {
        // A key of an object literal given as an argument is the property
        // of the parameter's type, through a call, a method, `new` and a
        // key of a function type; a callback's parameter written without a
        // type has the type of the parameter it is written for, through a
        // function type alias, an interface's call signature and an
        // inline function type. `Other.depth` is not meant; a spread
        // before the literal leaves its position unknown (a guess).
        name: "ts_arguments_and_callbacks_take_their_parameters_type",
        fixture: concat!(
            "//- package.json\n{ \"name\": \"demo\" }\n",
            "//- src/options.ts\nexport interface Options {\n  de$0pth: number;\n}\n\n",
            "export interface Other {\n  depth: number;\n}\n\n",
            "export type Visit = (options: Options, index: number) => void;\n\n",
            "export interface Visitor {\n  (options: Options): void;\n}\n\n",
            "export class Walker {\n  constructor(options: Options) {}\n",
            "  walk(first: Other, options: Options): void {}\n",
            "  each(visit: (options: Options) => void): void {}\n}\n\n",
            "export function configure(options: Options, ...rest: Other[]): void {}\n",
            "//- src/run.ts\nimport { Options, Visit, Visitor, Walker, configure } from \"./options\";\n\n",
            "configure({ depth: 1 });\n",
            "const w = new Walker({ depth: 2 });\n",
            "w.walk({ depth: 3 }, { depth: 4 });\n",
            "const visit: Visit = (o, i) => o.depth;\n",
            "const visitor: Visitor = function (o) { return o.depth; };\n",
            "w.each((o) => o.depth);\n",
            "configure(...[], { depth: 5 });\n",
        ),
        query: References,
        expected: "
            src/run.ts:3 write in - qualified
            src/run.ts:4 write in w qualified
            src/run.ts:5 write in - qualified
            src/run.ts:6 reference in visit qualified
            src/run.ts:7 reference in visitor qualified
            src/run.ts:8 reference in - qualified
            src/run.ts:9 write in - name_only
        ",
    },
    Case {
        // An object literal's keys are the properties of the type it is
        // written for: a declaration's annotation, a cast, a declared
        // return type, the key or the property it is the value of. Not
        // `Other.depth` of the same name, and a guess where no type is
        // written.
        name: "ts_object_keys_are_properties_of_the_type_the_literal_is_written_for",
        fixture: concat!(
            "//- package.json\n{ \"name\": \"demo\" }\n",
            "//- src/options.ts\nexport interface Options {\n  de$0pth: number;\n  inner?: Options;\n}\n\n",
            "export interface Other {\n  depth: number;\n}\n\n",
            "export class Holder {\n  options: Options = { depth: 0 };\n}\n",
            "//- src/run.ts\nimport { Options, Other, Holder } from \"./options\";\n\n",
            "const a: Options = { depth: 1 };\n",
            "const b = { depth: 2 } as Options;\n",
            "const c: Other = { depth: 3 };\n",
            "export function make(): Options {\n  return { depth: 4, inner: { depth: 5 } };\n}\n",
            "export function set(h: Holder): void {\n  h.options = { depth: 6 };\n}\n",
            "const loose = { depth: 7 };\n",
            "//- src/union.ts\nimport { Options, Other } from \"./options\";\n\n",
            "type Either = Options | Other;\n",
            "const e: Either = { depth: 8 };\n",
            "const f = (x: Either): number => x.depth;\n",
            "type Loose = Options | { depth: number; kind: \"inline\" } | null;\n",
            "const l: Loose = { depth: 9 };\n",
            "const g = (x: Loose): number => x!.depth;\n",
        ),
        query: References,
        expected: "
            src/options.ts:11 write in Holder.options qualified
            src/run.ts:3 write in a qualified
            src/run.ts:4 write in b qualified
            src/run.ts:7 write in make qualified
            src/run.ts:7 write in make qualified
            src/run.ts:10 write in set qualified
            src/run.ts:12 write in loose name_only
            src/union.ts:4 write in e qualified uncertain
            src/union.ts:5 reference in f qualified
            src/union.ts:7 write in l qualified uncertain
            src/union.ts:8 reference in g qualified
        ",
    },
    Case {
        // A union of 40 types (more than a few dozen is common in generated
        // code): a member reached through it is each type's, the last
        // one's too.
        name: "ts_a_member_through_a_large_union_is_every_types",
        fixture: concat!(
            "//- package.json\n{ \"name\": \"demo\" }\n",
            "//- src/types.ts\nexport class A0 {\n  run(): void {}\n}\nexport class A1 {\n  run(): void {}\n}\nexport class A2 {\n  run(): void {}\n}\nexport class A3 {\n  run(): void {}\n}\nexport class A4 {\n  run(): void {}\n}\nexport class A5 {\n  run(): void {}\n}\nexport class A6 {\n  run(): void {}\n}\nexport class A7 {\n  run(): void {}\n}\nexport class A8 {\n  run(): void {}\n}\nexport class A9 {\n  run(): void {}\n}\nexport class A10 {\n  run(): void {}\n}\nexport class A11 {\n  run(): void {}\n}\nexport class A12 {\n  run(): void {}\n}\nexport class A13 {\n  run(): void {}\n}\nexport class A14 {\n  run(): void {}\n}\nexport class A15 {\n  run(): void {}\n}\nexport class A16 {\n  run(): void {}\n}\nexport class A17 {\n  run(): void {}\n}\nexport class A18 {\n  run(): void {}\n}\nexport class A19 {\n  run(): void {}\n}\nexport class A20 {\n  run(): void {}\n}\nexport class A21 {\n  run(): void {}\n}\nexport class A22 {\n  run(): void {}\n}\nexport class A23 {\n  run(): void {}\n}\nexport class A24 {\n  run(): void {}\n}\nexport class A25 {\n  run(): void {}\n}\nexport class A26 {\n  run(): void {}\n}\nexport class A27 {\n  run(): void {}\n}\nexport class A28 {\n  run(): void {}\n}\nexport class A29 {\n  run(): void {}\n}\nexport class A30 {\n  run(): void {}\n}\nexport class A31 {\n  run(): void {}\n}\nexport class A32 {\n  run(): void {}\n}\nexport class A33 {\n  run(): void {}\n}\nexport class A34 {\n  run(): void {}\n}\nexport class A35 {\n  run(): void {}\n}\nexport class A36 {\n  run(): void {}\n}\nexport class A37 {\n  run(): void {}\n}\nexport class A38 {\n  run(): void {}\n}\nexport class A39 {\n  r$0un(): void {}\n}\n",
            "export type U = A0 | A1 | A2 | A3 | A4 | A5 | A6 | A7 | A8 | A9 | A10 | A11 | A12 | A13 | A14 | A15 | A16 | A17 | A18 | A19 | A20 | A21 | A22 | A23 | A24 | A25 | A26 | A27 | A28 | A29 | A30 | A31 | A32 | A33 | A34 | A35 | A36 | A37 | A38 | A39;\n",
            "//- src/run.ts\nimport { U } from \"./types\";\n\nexport function run(u: U): void {\n  u.run();\n}\n",
        ),
        query: References,
        expected: "
            src/run.ts:4 call in run qualified
        ",
    },
    Case {
        // Unions nested past the parts the resolver looks at for one union
        // (200 parts, each a union of six): not followed, so the member is
        // a guess, not a part of the answer given as all of it.
        name: "ts_unions_nested_past_the_budget_are_not_followed",
        fixture: concat!(
            "//- package.json\n{ \"name\": \"demo\" }\n",
            "//- src/types.ts\nexport class A {\n  r$0un(): void {}\n}\nexport class B {\n  run(): void {}\n}\n",
            "type V0 = A | B | A | B | A | B;\ntype V1 = A | B | A | B | A | B;\ntype V2 = A | B | A | B | A | B;\ntype V3 = A | B | A | B | A | B;\ntype V4 = A | B | A | B | A | B;\ntype V5 = A | B | A | B | A | B;\ntype V6 = A | B | A | B | A | B;\ntype V7 = A | B | A | B | A | B;\ntype V8 = A | B | A | B | A | B;\ntype V9 = A | B | A | B | A | B;\ntype V10 = A | B | A | B | A | B;\ntype V11 = A | B | A | B | A | B;\ntype V12 = A | B | A | B | A | B;\ntype V13 = A | B | A | B | A | B;\ntype V14 = A | B | A | B | A | B;\ntype V15 = A | B | A | B | A | B;\ntype V16 = A | B | A | B | A | B;\ntype V17 = A | B | A | B | A | B;\ntype V18 = A | B | A | B | A | B;\ntype V19 = A | B | A | B | A | B;\ntype V20 = A | B | A | B | A | B;\ntype V21 = A | B | A | B | A | B;\ntype V22 = A | B | A | B | A | B;\ntype V23 = A | B | A | B | A | B;\ntype V24 = A | B | A | B | A | B;\ntype V25 = A | B | A | B | A | B;\ntype V26 = A | B | A | B | A | B;\ntype V27 = A | B | A | B | A | B;\ntype V28 = A | B | A | B | A | B;\ntype V29 = A | B | A | B | A | B;\ntype V30 = A | B | A | B | A | B;\ntype V31 = A | B | A | B | A | B;\ntype V32 = A | B | A | B | A | B;\ntype V33 = A | B | A | B | A | B;\ntype V34 = A | B | A | B | A | B;\ntype V35 = A | B | A | B | A | B;\ntype V36 = A | B | A | B | A | B;\ntype V37 = A | B | A | B | A | B;\ntype V38 = A | B | A | B | A | B;\ntype V39 = A | B | A | B | A | B;\ntype V40 = A | B | A | B | A | B;\ntype V41 = A | B | A | B | A | B;\ntype V42 = A | B | A | B | A | B;\ntype V43 = A | B | A | B | A | B;\ntype V44 = A | B | A | B | A | B;\ntype V45 = A | B | A | B | A | B;\ntype V46 = A | B | A | B | A | B;\ntype V47 = A | B | A | B | A | B;\ntype V48 = A | B | A | B | A | B;\ntype V49 = A | B | A | B | A | B;\ntype V50 = A | B | A | B | A | B;\ntype V51 = A | B | A | B | A | B;\ntype V52 = A | B | A | B | A | B;\ntype V53 = A | B | A | B | A | B;\ntype V54 = A | B | A | B | A | B;\ntype V55 = A | B | A | B | A | B;\ntype V56 = A | B | A | B | A | B;\ntype V57 = A | B | A | B | A | B;\ntype V58 = A | B | A | B | A | B;\ntype V59 = A | B | A | B | A | B;\ntype V60 = A | B | A | B | A | B;\ntype V61 = A | B | A | B | A | B;\ntype V62 = A | B | A | B | A | B;\ntype V63 = A | B | A | B | A | B;\ntype V64 = A | B | A | B | A | B;\ntype V65 = A | B | A | B | A | B;\ntype V66 = A | B | A | B | A | B;\ntype V67 = A | B | A | B | A | B;\ntype V68 = A | B | A | B | A | B;\ntype V69 = A | B | A | B | A | B;\ntype V70 = A | B | A | B | A | B;\ntype V71 = A | B | A | B | A | B;\ntype V72 = A | B | A | B | A | B;\ntype V73 = A | B | A | B | A | B;\ntype V74 = A | B | A | B | A | B;\ntype V75 = A | B | A | B | A | B;\ntype V76 = A | B | A | B | A | B;\ntype V77 = A | B | A | B | A | B;\ntype V78 = A | B | A | B | A | B;\ntype V79 = A | B | A | B | A | B;\ntype V80 = A | B | A | B | A | B;\ntype V81 = A | B | A | B | A | B;\ntype V82 = A | B | A | B | A | B;\ntype V83 = A | B | A | B | A | B;\ntype V84 = A | B | A | B | A | B;\ntype V85 = A | B | A | B | A | B;\ntype V86 = A | B | A | B | A | B;\ntype V87 = A | B | A | B | A | B;\ntype V88 = A | B | A | B | A | B;\ntype V89 = A | B | A | B | A | B;\ntype V90 = A | B | A | B | A | B;\ntype V91 = A | B | A | B | A | B;\ntype V92 = A | B | A | B | A | B;\ntype V93 = A | B | A | B | A | B;\ntype V94 = A | B | A | B | A | B;\ntype V95 = A | B | A | B | A | B;\ntype V96 = A | B | A | B | A | B;\ntype V97 = A | B | A | B | A | B;\ntype V98 = A | B | A | B | A | B;\ntype V99 = A | B | A | B | A | B;\ntype V100 = A | B | A | B | A | B;\ntype V101 = A | B | A | B | A | B;\ntype V102 = A | B | A | B | A | B;\ntype V103 = A | B | A | B | A | B;\ntype V104 = A | B | A | B | A | B;\ntype V105 = A | B | A | B | A | B;\ntype V106 = A | B | A | B | A | B;\ntype V107 = A | B | A | B | A | B;\ntype V108 = A | B | A | B | A | B;\ntype V109 = A | B | A | B | A | B;\ntype V110 = A | B | A | B | A | B;\ntype V111 = A | B | A | B | A | B;\ntype V112 = A | B | A | B | A | B;\ntype V113 = A | B | A | B | A | B;\ntype V114 = A | B | A | B | A | B;\ntype V115 = A | B | A | B | A | B;\ntype V116 = A | B | A | B | A | B;\ntype V117 = A | B | A | B | A | B;\ntype V118 = A | B | A | B | A | B;\ntype V119 = A | B | A | B | A | B;\ntype V120 = A | B | A | B | A | B;\ntype V121 = A | B | A | B | A | B;\ntype V122 = A | B | A | B | A | B;\ntype V123 = A | B | A | B | A | B;\ntype V124 = A | B | A | B | A | B;\ntype V125 = A | B | A | B | A | B;\ntype V126 = A | B | A | B | A | B;\ntype V127 = A | B | A | B | A | B;\ntype V128 = A | B | A | B | A | B;\ntype V129 = A | B | A | B | A | B;\ntype V130 = A | B | A | B | A | B;\ntype V131 = A | B | A | B | A | B;\ntype V132 = A | B | A | B | A | B;\ntype V133 = A | B | A | B | A | B;\ntype V134 = A | B | A | B | A | B;\ntype V135 = A | B | A | B | A | B;\ntype V136 = A | B | A | B | A | B;\ntype V137 = A | B | A | B | A | B;\ntype V138 = A | B | A | B | A | B;\ntype V139 = A | B | A | B | A | B;\ntype V140 = A | B | A | B | A | B;\ntype V141 = A | B | A | B | A | B;\ntype V142 = A | B | A | B | A | B;\ntype V143 = A | B | A | B | A | B;\ntype V144 = A | B | A | B | A | B;\ntype V145 = A | B | A | B | A | B;\ntype V146 = A | B | A | B | A | B;\ntype V147 = A | B | A | B | A | B;\ntype V148 = A | B | A | B | A | B;\ntype V149 = A | B | A | B | A | B;\ntype V150 = A | B | A | B | A | B;\ntype V151 = A | B | A | B | A | B;\ntype V152 = A | B | A | B | A | B;\ntype V153 = A | B | A | B | A | B;\ntype V154 = A | B | A | B | A | B;\ntype V155 = A | B | A | B | A | B;\ntype V156 = A | B | A | B | A | B;\ntype V157 = A | B | A | B | A | B;\ntype V158 = A | B | A | B | A | B;\ntype V159 = A | B | A | B | A | B;\ntype V160 = A | B | A | B | A | B;\ntype V161 = A | B | A | B | A | B;\ntype V162 = A | B | A | B | A | B;\ntype V163 = A | B | A | B | A | B;\ntype V164 = A | B | A | B | A | B;\ntype V165 = A | B | A | B | A | B;\ntype V166 = A | B | A | B | A | B;\ntype V167 = A | B | A | B | A | B;\ntype V168 = A | B | A | B | A | B;\ntype V169 = A | B | A | B | A | B;\ntype V170 = A | B | A | B | A | B;\ntype V171 = A | B | A | B | A | B;\ntype V172 = A | B | A | B | A | B;\ntype V173 = A | B | A | B | A | B;\ntype V174 = A | B | A | B | A | B;\ntype V175 = A | B | A | B | A | B;\ntype V176 = A | B | A | B | A | B;\ntype V177 = A | B | A | B | A | B;\ntype V178 = A | B | A | B | A | B;\ntype V179 = A | B | A | B | A | B;\ntype V180 = A | B | A | B | A | B;\ntype V181 = A | B | A | B | A | B;\ntype V182 = A | B | A | B | A | B;\ntype V183 = A | B | A | B | A | B;\ntype V184 = A | B | A | B | A | B;\ntype V185 = A | B | A | B | A | B;\ntype V186 = A | B | A | B | A | B;\ntype V187 = A | B | A | B | A | B;\ntype V188 = A | B | A | B | A | B;\ntype V189 = A | B | A | B | A | B;\ntype V190 = A | B | A | B | A | B;\ntype V191 = A | B | A | B | A | B;\ntype V192 = A | B | A | B | A | B;\ntype V193 = A | B | A | B | A | B;\ntype V194 = A | B | A | B | A | B;\ntype V195 = A | B | A | B | A | B;\ntype V196 = A | B | A | B | A | B;\ntype V197 = A | B | A | B | A | B;\ntype V198 = A | B | A | B | A | B;\ntype V199 = A | B | A | B | A | B;\n",
            "export type U = V0 | V1 | V2 | V3 | V4 | V5 | V6 | V7 | V8 | V9 | V10 | V11 | V12 | V13 | V14 | V15 | V16 | V17 | V18 | V19 | V20 | V21 | V22 | V23 | V24 | V25 | V26 | V27 | V28 | V29 | V30 | V31 | V32 | V33 | V34 | V35 | V36 | V37 | V38 | V39 | V40 | V41 | V42 | V43 | V44 | V45 | V46 | V47 | V48 | V49 | V50 | V51 | V52 | V53 | V54 | V55 | V56 | V57 | V58 | V59 | V60 | V61 | V62 | V63 | V64 | V65 | V66 | V67 | V68 | V69 | V70 | V71 | V72 | V73 | V74 | V75 | V76 | V77 | V78 | V79 | V80 | V81 | V82 | V83 | V84 | V85 | V86 | V87 | V88 | V89 | V90 | V91 | V92 | V93 | V94 | V95 | V96 | V97 | V98 | V99 | V100 | V101 | V102 | V103 | V104 | V105 | V106 | V107 | V108 | V109 | V110 | V111 | V112 | V113 | V114 | V115 | V116 | V117 | V118 | V119 | V120 | V121 | V122 | V123 | V124 | V125 | V126 | V127 | V128 | V129 | V130 | V131 | V132 | V133 | V134 | V135 | V136 | V137 | V138 | V139 | V140 | V141 | V142 | V143 | V144 | V145 | V146 | V147 | V148 | V149 | V150 | V151 | V152 | V153 | V154 | V155 | V156 | V157 | V158 | V159 | V160 | V161 | V162 | V163 | V164 | V165 | V166 | V167 | V168 | V169 | V170 | V171 | V172 | V173 | V174 | V175 | V176 | V177 | V178 | V179 | V180 | V181 | V182 | V183 | V184 | V185 | V186 | V187 | V188 | V189 | V190 | V191 | V192 | V193 | V194 | V195 | V196 | V197 | V198 | V199;\n",
            "//- src/run.ts\nimport { U } from \"./types\";\n\nexport function run(u: U): void {\n  u.run();\n}\n",
        ),
        query: References,
        expected: "
            src/run.ts:4 call in run name_only
        ",
    },
    Case {
        // Generic aliases stand for what their arguments bind: conditional
        // types, intersections, mapped types over `keyof T` and the
        // standard wrappers keep the argument's members. A type parameter
        // with no argument written is its constraint (`issue` of an
        // `ErrorMap`, also for a callback returned from a function typed to
        // return one). `other.code` names `Other`, which `U` leaves out.
        name: "ts_generic_aliases_bind_their_arguments",
        fixture: concat!(
            "//- package.json\n{ \"name\": \"demo\" }\n",
            "//- src/issues.ts\n",
            "export interface Base { c$0ode?: string; path: string }\n",
            "export interface A extends Base { kind: \"a\" }\n",
            "export interface Other { code: string }\n",
            "export type U = A | Base;\n",
            "type Identity<T> = T;\n",
            "type Flatten<T> = Identity<{ [k in keyof T]: T[k] }>;\n",
            "type MakePartial<T, K extends keyof T> = Omit<T, K> & Partial<Pick<T, K>>;\n",
            "export type Raw<T extends Base> = T extends any ? Flatten<MakePartial<T, \"path\"> & { input: unknown }> : never;\n",
            "export interface ErrorMap<T extends Base = U> { (issue: Raw<T>): string }\n",
            "//- src/use.ts\n",
            "import { ErrorMap, Raw, A, Other } from \"./issues\";\n",
            "export const map: ErrorMap = (issue) => issue.code ?? \"\";\n",
            "export const make: () => ErrorMap = () => {\n",
            "  return (issue) => issue.code ?? \"\";\n",
            "};\n",
            "export function read(raw: Raw<A>, other: Raw<Other>): void {\n",
            "  raw.code;\n",
            "  other.code;\n",
            "}\n",
        ),
        query: References,
        expected: "
            src/use.ts:2 reference in map qualified
            src/use.ts:4 reference in make qualified
            src/use.ts:7 reference in read qualified
        ",
    },
    Case {
        // A generic type named without arguments from outside has its
        // defaults: `issue` of an `ErrorMap` is a `U`, so `issue.code` is
        // `A`'s and `B`'s (each certain), and no `Other`'s.
        name: "ts_a_generic_named_without_arguments_has_its_defaults",
        fixture: concat!(
            "//- package.json\n{ \"name\": \"demo\" }\n",
            "//- src/issues.ts\n",
            "export interface Base { code?: string }\n",
            "export interface A extends Base { c$0ode: \"a\" }\n",
            "export interface B extends Base { code: \"b\" }\n",
            "export interface Other extends Base { code: \"o\" }\n",
            "export type U = A | B;\n",
            "export interface ErrorMap<T extends Base = U> { (issue: T): string }\n",
            "//- src/use.ts\n",
            "import { ErrorMap, Other } from \"./issues\";\n",
            "export const map: ErrorMap = (issue) => issue.code;\n",
            "export const other: ErrorMap<Other> = (issue) => issue.code;\n",
        ),
        query: References,
        expected: "
            src/use.ts:2 reference in map qualified
        ",
    },
    Case {
        // A literal of `Data = Strip<U> & { fatal?: boolean }` has the
        // members of one of `U`'s types and of the object type: its key
        // found in one of `U`'s types alone is that type's, certainly; a
        // key in both of `U`'s types is one of two.
        name: "ts_a_literal_of_an_intersection_has_all_its_types_members",
        fixture: concat!(
            "//- package.json\n{ \"name\": \"demo\" }\n",
            "//- src/issues.ts\n",
            "export interface A { code: \"a\"; valid$0ation: string; path: string }\n",
            "export interface B { code: \"b\"; path: string }\n",
            "type U = A | B;\n",
            "type Strip<T> = T extends any ? Omit<T, \"path\"> : never;\n",
            "export type Data = Strip<U> & { fatal?: boolean };\n",
            "export function add(data: Data): void {}\n",
            "add({ code: \"a\", validation: \"email\", fatal: true });\n",
        ),
        query: References,
        expected: "
            src/issues.ts:7 write in - qualified
        ",
    },
    Case {
        // `r.error` of a `Result = Ok | Bad` is `Ok`'s `error` (never) or
        // `Bad`'s (an `Err`): `.issues` on it is `Err`'s, certainly.
        name: "ts_a_member_of_a_union_has_the_types_of_its_members",
        fixture: concat!(
            "//- package.json\n{ \"name\": \"demo\" }\n",
            "//- src/result.ts\n",
            "export interface Err { iss$0ues: string[] }\n",
            "type Ok<T> = { success: true; data: T; error?: never };\n",
            "type Bad = { success: false; error: Err };\n",
            "export type Result<T> = Ok<T> | Bad;\n",
            "export function check(r: Result<number>): number {\n",
            "  return r.error!.issues.length;\n",
            "}\n",
        ),
        query: References,
        expected: "
            src/result.ts:6 reference in check qualified
        ",
    },
    Case {
        // `Params<T> = Partial<Omit<T["_zod"]["def"], "type">>`: a key of a
        // literal written for it is a member of the type of `def` of the
        // type of `_zod` of `T`.
        name: "ts_a_lookup_type_is_the_type_of_the_member_it_names",
        fixture: concat!(
            "//- package.json\n{ \"name\": \"demo\" }\n",
            "//- src/schema.ts\n",
            "export interface DateDef { type: string; preci$0sion: number }\n",
            "export interface DateInternals { def: DateDef }\n",
            "export interface DateSchema { _zod: DateInternals }\n",
            "type Params<T extends { _zod: { def: unknown } }> = Partial<Omit<T[\"_zod\"][\"def\"], \"type\">>;\n",
            "export function datetime(params?: string | Params<DateSchema>): void {}\n",
            "datetime({ precision: 3 });\n",
        ),
        query: References,
        expected: "
            src/schema.ts:6 write in - qualified
        ",
    },
    Case {
        // A literal pushed onto an array is one of its elements: its keys
        // are the element type's members (`issues: Issue[]`).
        name: "ts_a_literal_pushed_onto_an_array_is_an_element",
        fixture: concat!(
            "//- package.json\n{ \"name\": \"demo\" }\n",
            "//- src/check.ts\n",
            "export interface Issue { co$0de: string; input: unknown }\n",
            "export interface Other { code: string }\n",
            "export interface Payload { issues: Issue[] }\n",
            "export function check(payload: Payload): void {\n",
            "  payload.issues.push({ code: \"too_big\", input: 1 });\n",
            "}\n",
        ),
        query: References,
        expected: "
            src/check.ts:5 write in check qualified
        ",
    },
    Case {
        // `const xs: Item[] = [{ .. }]`: each literal element is an `Item`
        // (also `Array<T>`, `ReadonlyArray<T>`, `readonly T[]`, a return).
        name: "ts_literal_elements_of_an_array_take_its_element_type",
        fixture: concat!(
            "//- package.json\n{ \"name\": \"demo\" }\n",
            "//- src/items.ts\n",
            "export interface Item<T extends string> { i$0d: T; name: string }\n",
            "export interface Other { id: string }\n",
            "const all: Item<\"a\" | \"b\">[] = [\n  { id: \"a\", name: \"A\" },\n  { id: \"b\", name: \"B\" },\n];\n",
            "const some: ReadonlyArray<Item<\"a\">> = [{ id: \"a\", name: \"A\" }];\n",
            "export function more(): readonly Item<\"b\">[] {\n  return [{ id: \"b\", name: \"B\" }];\n}\n",
        ),
        query: References,
        expected: "
            src/items.ts:4 write in all qualified
            src/items.ts:5 write in all qualified
            src/items.ts:7 write in some qualified
            src/items.ts:9 write in more qualified
        ",
    },
    Case {
        // A component's attributes are its props (`<Filter onSelect={f} />`),
        // and so are the names its parameter destructures (`({ onSelect }:
        // Props)`); an intrinsic element's attribute of the same name is not.
        name: "ts_jsx_attributes_and_destructured_parameters_are_props",
        fixture: concat!(
            "//- package.json\n{ \"name\": \"demo\" }\n",
            "//- src/filter.tsx\n",
            "export interface FilterProps { onSel$0ect: (v: string) => void; label?: string }\n",
            "export interface ButtonProps { onSelect: () => void }\n",
            "export function Filter({ onSelect, label: title = \"x\" }: FilterProps) {\n",
            "  return <div onClick={() => onSelect(title)} />;\n",
            "}\n",
            "export const Button = ({ onSelect }: ButtonProps) => <button onClick={onSelect} />;\n",
            "//- src/page.tsx\n",
            "import { Button, Filter } from \"./filter\";\n",
            "import * as ui from \"./filter\";\n",
            "export function Page() {\n",
            "  return (\n    <div>\n",
            "      <Filter onSelect={(v) => v} label=\"a\" />\n",
            "      <ui.Filter onSelect={(v) => v}></ui.Filter>\n",
            "      <Button onSelect={() => {}} />\n",
            "    </div>\n  );\n}\n",
        ),
        query: References,
        expected: "
            src/filter.tsx:3 reference in Filter qualified
            src/page.tsx:6 write in Page qualified
            src/page.tsx:7 write in Page qualified
        ",
    },
    Case {
        // A monorepo: `apps/web` imports `@acme/utils/format` by name
        // (workspaces), whose `exports` map sends it to its source under
        // the `@acme/source` condition that the app's tsconfig gets by
        // extending a workspace package's; and `#util/*` through its own
        // package.json `imports`.
        name: "ts_workspace_packages_resolve_through_exports_imports_and_extended_tsconfigs",
        fixture: concat!(
            "//- package.json\n{ \"name\": \"acme\", \"workspaces\": [\"packages/*\", \"apps/*\"] }\n",
            "//- packages/tsconfig/package.json\n{ \"name\": \"@acme/tsconfig\" }\n",
            "//- packages/tsconfig/tsconfig.base.json\n",
            "{ \"compilerOptions\": { \"customConditions\": [\"@acme/source\"], \"strict\": true } }\n",
            "//- packages/utils/package.json\n",
            "{ \"name\": \"@acme/utils\", \"exports\": { \"./format\": { \"@acme/source\": \"./lib/format.ts\", \"default\": \"./dist/format.js\" } } }\n",
            "//- packages/utils/lib/format.ts\nexport function formatAm$0ount(n: number): string {\n  return String(n);\n}\n",
            "//- apps/web/package.json\n",
            "{ \"name\": \"@acme/web\", \"imports\": { \"#util/*\": \"./src/util/*.ts\" } }\n",
            "//- apps/web/tsconfig.json\n{ \"extends\": \"@acme/tsconfig/tsconfig.base.json\" }\n",
            "//- apps/web/src/util/money.ts\n",
            "import { formatAmount } from \"@acme/utils/format\";\n",
            "export const money = (n: number) => formatAmount(n);\n",
            "//- apps/web/src/page.ts\n",
            "import { money } from \"#util/money\";\n",
            "import * as fmt from \"@acme/utils/format\";\n",
            "export const shown = money(1) + fmt.formatAmount(2);\n",
        ),
        query: References,
        expected: "
            apps/web/src/page.ts:3 call in shown qualified
            apps/web/src/util/money.ts:1 import in - import
            apps/web/src/util/money.ts:2 call in money import
        ",
    },
    Case {
        // `#util/*` resolves through the importer's package.json `imports`,
        // and `rootDirs` lets `./gen` name a file of another root.
        name: "ts_subpath_imports_and_root_dirs_resolve",
        fixture: concat!(
            "//- package.json\n{ \"name\": \"web\", \"imports\": { \"#util/*\": \"./src/util/*.ts\" } }\n",
            "//- tsconfig.json\n{ \"compilerOptions\": { \"rootDirs\": [\"src\", \"generated\"] } }\n",
            "//- src/util/money.ts\nexport const mo$0ney = (n: number) => n;\n",
            "//- generated/views/gen.ts\nexport const generated = 1;\n",
            "//- src/views/page.ts\n",
            "import { money } from \"#util/money\";\n",
            "import { generated } from \"./gen\";\n",
            "export const shown = money(generated);\n",
        ),
        query: References,
        expected: "
            src/views/page.ts:1 import in - import
            src/views/page.ts:3 call in shown import
        ",
    },
    Case {
        name: "ts_root_dirs_join_folders_for_relative_imports",
        fixture: concat!(
            "//- package.json\n{ \"name\": \"web\" }\n",
            "//- tsconfig.json\n{ \"compilerOptions\": { \"rootDirs\": [\"src\", \"generated\"] } }\n",
            "//- generated/views/gen.ts\nexport const generated = 1;\n",
            "//- src/views/page.ts\n",
            "import { generated } from \"./gen\";\n",
            "export const shown = gener$0ated + 1;\n",
        ),
        query: Definition,
        expected: "generated/views/gen.ts:1 generated import",
    },
    Case {
        // A file's own alias shadows an interface of its name elsewhere: a
        // key of a literal written for the alias, which does not have it,
        // is not the other type's member.
        name: "ts_an_alias_is_not_a_same_named_interface_of_another_file",
        fixture: concat!(
            "//- package.json\n{ \"name\": \"demo\" }\n",
            "//- src/tracker.ts\nexport interface TrackerRecord { dura$0tion: number | null }\n",
            "export const empty: TrackerRecord = { duration: null };\n",
            "//- src/schedule.ts\n",
            "type TrackerRecord = { start: string };\n",
            "export const make = (): TrackerRecord => {\n  return { start: \"\", duration: 1 };\n};\n",
        ),
        query: References,
        expected: "
            src/schedule.ts:3 write in make name_only
            src/tracker.ts:2 write in empty qualified
        ",
    },
    Case {
        // Vite's template: `tsconfig.json` only references
        // `tsconfig.app.json`, which holds `src` and the `@/*` alias.
        name: "ts_a_solution_tsconfig_hands_files_to_the_referenced_project",
        fixture: concat!(
            "//- package.json\n{ \"name\": \"web\" }\n",
            "//- tsconfig.json\n{ \"files\": [], \"references\": [{ \"path\": \"./tsconfig.app.json\" }] }\n",
            "//- tsconfig.app.json\n{ \"compilerOptions\": { \"paths\": { \"@/*\": [\"./src/*\"] } }, \"include\": [\"src\"] }\n",
            "//- src/lib/utils.ts\nexport function c$0n(...parts: string[]): string {\n  return parts.join(\" \");\n}\n",
            "//- src/components/button.ts\n",
            "import { cn } from \"@/lib/utils\";\n",
            "export const button = cn(\"a\", \"b\");\n",
        ),
        query: References,
        expected: "
            src/components/button.ts:1 import in - import
            src/components/button.ts:2 call in button import
        ",
    },
    Case {
        // `const S: Ctor<Str> = make("S", (inst) => ..)`: `make<T>` returns
        // a `Ctor<T>`, so `T` is `Str` there, and `inst` (a `T`) a `Str`;
        // `make` is merged with an interface of its name.
        name: "ts_a_call_infers_type_arguments_from_the_type_its_result_is_given",
        fixture: concat!(
            "//- package.json\n{ \"name\": \"demo\" }\n",
            "//- src/core.ts\n",
            "export interface Base { kind: string }\n",
            "export interface Ctor<T extends Base> { init(inst: T): void }\n",
            "export interface make<T extends Base> { name: string }\n",
            "export function make<T extends Base>(name: string, init: (inst: T) => void): Ctor<T> {\n",
            "  return { init };\n",
            "}\n",
            "//- src/str.ts\n",
            "import { Base, Ctor, make } from \"./core\";\n",
            "export interface Str extends Base { pat$0tern: string }\n",
            "export const Str: Ctor<Str> = make(\"Str\", (inst) => {\n",
            "  inst.pattern;\n",
            "});\n",
        ),
        query: References,
        expected: "
            src/str.ts:4 reference in Str qualified
        ",
    },
    Case {
        // A name re-exported through six modules, globs and a renaming
        // `export type { .. as .. }` among them, resolves.
        name: "ts_names_reexported_through_six_modules_resolve",
        fixture: concat!(
            "//- package.json\n{ \"name\": \"demo\" }\n",
            "//- src/core/errors.ts\nexport interface $Map { r$0un(): void }\n",
            "//- src/core/index.ts\nexport * from \"./errors\";\n",
            "//- src/classic/errors.ts\nexport type { $Map as Map } from \"../core/index\";\n",
            "//- src/classic/external.ts\nexport * from \"./errors\";\n",
            "//- src/classic/index.ts\nexport * from \"./external\";\n",
            "//- src/index.ts\nexport * from \"./classic/index\";\n",
            "//- src/use.ts\nimport * as z from \"./index\";\n",
            "export function go(m: z.Map): void {\n  m.run();\n}\n",
        ),
        query: References,
        expected: "
            src/use.ts:3 call in go qualified
        ",
    },
    Case {
        // `await p` is the value the promise holds: `save` is `User`'s, not
        // `Group`'s of the same name.
        name: "ts_awaiting_a_promise_gives_the_value_it_holds",
        fixture: concat!(
            "//- package.json\n{ \"name\": \"demo\" }\n",
            "//- src/user.ts\nexport class User {\n  sa$0ve(): void {}\n}\n\nexport class Group {\n  save(): void {}\n}\n",
            "//- src/run.ts\nimport { User } from \"./user\";\n\n",
            "export async function load(): Promise<User> {\n  return new User();\n}\n\n",
            "export async function run(): Promise<void> {\n",
            "  const user = await load();\n  user.save();\n",
            "  (await load()).save();\n",
            "}\n",
        ),
        query: References,
        expected: "
            src/run.ts:9 call in run qualified
            src/run.ts:10 call in run qualified
        ",
    },
    Case {
        // Inside `if (x instanceof T)` and `if (isAdmin(x))` with `x is
        // Admin`, a read of `x` has the narrowed type: `save` is `Admin`'s
        // there, `User`'s (which `Admin` overrides) elsewhere, and after a
        // test of a function that is no guard.
        name: "ts_instanceof_and_type_predicates_narrow_a_reads_type",
        fixture: concat!(
            "//- package.json\n{ \"name\": \"demo\" }\n",
            "//- src/user.ts\nexport class User {\n  save(): void {}\n}\n\nexport class Admin extends User {\n  sa$0ve(): void {}\n}\n\n",
            "export function isAdmin(u: User): u is Admin {\n  return true;\n}\n\n",
            "export function isNew(u: User): boolean {\n  return true;\n}\n",
            "//- src/run.ts\nimport { Admin, User, isAdmin, isNew } from \"./user\";\n\n",
            "export function run(u: User, v: User): void {\n",
            "  u.save();\n",
            "  if (u instanceof Admin) {\n    u.save();\n  }\n",
            "  if (isAdmin(v)) {\n    v.save();\n  }\n",
            "  if (isNew(v)) {\n    v.save();\n  }\n",
            "}\n",
        ),
        query: References,
        expected: "
            src/run.ts:6 call in run qualified
            src/run.ts:9 call in run qualified
        ",
    },
    Case {
        // An element of an array (indexed, iterated by `for .. of`, or the
        // parameter of a callback `map` and `forEach` pass each element
        // to) has the element's type: `save` is `User`'s, not `Group`'s
        // of the same name. A string index reads a property.
        name: "ts_elements_of_arrays_have_the_element_type",
        fixture: concat!(
            "//- package.json\n{ \"name\": \"demo\" }\n",
            "//- src/user.ts\nexport class User {\n  sa$0ve(): void {}\n}\n\nexport class Group {\n  save(): void {}\n}\n",
            "//- src/run.ts\nimport { User } from \"./user\";\n\nexport class Store {\n  users: User[] = [];\n\n",
            "  all(): Array<User> {\n    return this.users;\n  }\n\n",
            "  run(more: readonly User[]): void {\n",
            "    this.users[0].save();\n",
            "    for (const user of more) {\n      user.save();\n    }\n",
            "    this.all().forEach((u) => u.save());\n",
            "    more.map(m => m.save());\n",
            "    const first = more[1];\n    first.save();\n",
            "    const o: any = {};\n    o[\"x\"].save();\n",
            "  }\n}\n",
        ),
        query: References,
        expected: "
            src/run.ts:11 call in Store.run qualified
            src/run.ts:13 call in Store.run qualified
            src/run.ts:15 call in Store.run qualified
            src/run.ts:16 call in Store.run qualified
            src/run.ts:18 call in Store.run qualified
            src/run.ts:20 call in Store.run name_only
        ",
    },
    Case {
        // Calling a value whose type is a function type alias returns what
        // the alias states.
        name: "ts_calling_a_value_of_a_function_type_alias_returns_its_result",
        fixture: concat!(
            "//- package.json\n{ \"name\": \"demo\" }\n",
            "//- src/result.ts\nexport class Result {\n  equal(): boolean { return true; }\n}\n\nexport class Other {\n  equal(): boolean { return false; }\n}\n\nexport type EqualFunc = (ix: number, iy: number) => Result;\n",
            "//- src/walk.ts\nimport { EqualFunc } from \"./result\";\n\nexport function walk(f: EqualFunc): boolean {\n  return f(1, 2).eq$0ual();\n}\n",
        ),
        query: Definition,
        expected: "src/result.ts:2 Result.equal qualified",
    },
    Case {
        // `super.close()` in a class overriding `close`: the superclass's,
        // found through the path its `extends` writes.
        name: "ts_super_call_is_the_superclass_member_not_the_override",
        fixture: concat!(
            "//- package.json\n{ \"name\": \"demo\" }\n",
            "//- src/base.ts\nexport class Base {\n  close(): void {}\n}\n",
            "//- src/child.ts\nimport * as base from \"./base\";\n\nexport class Child extends base.Base {\n  close(): void {\n    super.clo$0se();\n  }\n}\n",
        ),
        query: Definition,
        expected: "src/base.ts:2 Base.close qualified",
    },
    Case {
        name: "ts_member_call_through_a_typed_parameter",
        fixture: ts_package!(
            ts_parser!(),
            "import { Parser, parse } from \"./parser\";\n\nexport function typed(p: Parser): number {\n  return p.pa$0rse() + parse();\n}\n"
        ),
        query: Definition,
        expected: "src/parser.ts:8 Parser.parse qualified",
    },
    Case {
        name: "ts_chained_call",
        fixture: ts_package!(
            ts_parser!(),
            "import { Parser } from \"./parser\";\n\nexport function chained(): number {\n  return Parser.create().pa$0rse();\n}\n"
        ),
        query: Definition,
        expected: "src/parser.ts:8 Parser.parse qualified",
    },
    Case {
        name: "ts_bare_call_is_the_imported_function",
        fixture: ts_package!(
            ts_parser!(),
            "import { Parser, parse } from \"./parser\";\n\nexport function typed(p: Parser): number {\n  return p.parse() + pa$0rse();\n}\n"
        ),
        query: Definition,
        expected: "src/parser.ts:13 parse import",
    },
    Case {
        name: "ts_field_of_one_class_method_of_another",
        fixture: ts_package!(
            ts_parser!(),
            "import { Sized, Measured } from \"./parser\";\n\nexport function both(s: Sized, m: Measured): number {\n  return s.si$0ze + m.size();\n}\n"
        ),
        query: Definition,
        expected: "src/parser.ts:18 Sized.size qualified",
    },
    Case {
        name: "ts_references_of_the_method",
        fixture: ts_package!(
            r#"export class Parser {
  pa$0rse(): number {
    return 1;
  }
}

export function parse(): number {
  return 0;
}
"#,
            r#"import { Parser, parse } from "./parser";

export function typed(p: Parser): number {
  return p.parse() + parse();
}

export function fresh(): number {
  return new Parser().parse();
}
"#
        ),
        query: References,
        expected: "
            src/run.ts:4 call in typed qualified
            src/run.ts:8 call in fresh qualified
        ",
    },
    Case {
        // A constructor parameter property is a parameter and a field: its
        // uses as either are uses of the field.
        name: "ts_references_of_a_parameter_property",
        fixture: ts_package!(
            r#"export class Action {
  constructor(protected in$0dex: number) {
    this.index = index + 1;
  }

  next(): number {
    return this.index;
  }
}
"#,
            r#"import { Action } from "./parser";

export function step(a: Action): number {
  return a.next();
}
"#
        ),
        query: References,
        expected: "
            src/parser.ts:3 write in Action.constructor qualified
            src/parser.ts:3 reference in Action.constructor scope
            src/parser.ts:7 reference in Action.next qualified
        ",
    },
    Case {
        // Both names of `a as b` in an import or a re-export refer to `a`
        // (tsserver counts them too); the uses of `b` are uses of `a`.
        name: "ts_references_through_import_and_export_aliases",
        fixture: ts_package!(
            r#"export function pa$0rse(): number {
  return 0;
}
"#,
            r#"import { parse as read } from "./parser";
export { parse as parseAll } from "./parser";

export function go(): number {
  return read();
}
"#
        ),
        query: References,
        expected: "
            src/run.ts:1 import in - import
            src/run.ts:1 import in - import
            src/run.ts:2 import in - import
            src/run.ts:2 import in - import
            src/run.ts:5 call in go import
        ",
    },
    Case {
        // Generic call signatures on consecutive lines (the vendored
        // grammar's scanner fix): the file parses, the interface is found.
        name: "ts_references_of_an_interface_with_generic_call_signatures",
        fixture: ts_package!(
            r#"export interface Fac$0tory {
  // nameless
  <T>(fn: T): T
  // named
  <T>(name: string, fn: T): T
  bound: number
}

export const make: Factory = ((a: unknown) => a) as Factory;
"#,
            r#"import { Factory } from "./parser";

export function use(f: Factory): number {
  return f.bound;
}
"#
        ),
        query: References,
        expected: "
            src/parser.ts:9 type in make scope
            src/parser.ts:9 type in make scope
            src/run.ts:1 import in - import
            src/run.ts:3 type in use import
        ",
    },
    Case {
        name: "ts_implementations_of_an_interface",
        fixture: ts_package!(
            r#"export interface Sha$0pe {
  area(): number;
}

export class Square implements Shape {
  area(): number {
    return 4;
  }
}

export class Big extends Square {}
"#,
            "\n"
        ),
        query: Implementations,
        expected: "
            src/parser.ts:5 Square IMPLEMENTS 1
            src/parser.ts:11 Big EXTENDS 2
        ",
    },
    Case {
        name: "ts_type_definition_of_a_parameter",
        fixture: ts_package!(
            ts_parser!(),
            "import { Parser } from \"./parser\";\n\nexport function typed($0p: Parser): number {\n  return p.parse();\n}\n"
        ),
        query: TypeDefinition,
        expected: "src/parser.ts:1 Parser",
    },
    Case {
        name: "ts_callers_of_a_method",
        fixture: ts_package!(
            r#"export class Parser {
  pa$0rse(): number {
    return 1;
  }
}
"#,
            r#"import { Parser } from "./parser";

export function typed(p: Parser): number {
  return p.parse();
}

export function fresh(): number {
  return new Parser().parse();
}
"#
        ),
        query: Callers,
        expected: "
            src/run.ts:3 typed
            src/run.ts:7 fresh
        ",
    },
    Case {
        name: "ts_callees_of_a_function",
        fixture: ts_package!(
            ts_parser!(),
            "import { Parser, parse } from \"./parser\";\n\nexport function ty$0ped(p: Parser): number {\n  return p.parse() + parse();\n}\n"
        ),
        query: Callees,
        expected: "
            src/parser.ts:8 Parser.parse
            src/parser.ts:13 parse
        ",
    },
    // The same method called once on a typed value and once on an untyped
    // one: two calls of it, the certain one and the guessed one, so the
    // guess is never read as certain.
    Case {
        name: "ts_callees_certain_and_guessed_apart",
        fixture: ts_package!(
            ts_parser!(),
            "import { Parser } from \"./parser\";\n\nexport function ty$0ped(p: Parser, q: any): number {\n  return p.parse() + q.parse();\n}\n"
        ),
        query: Callees,
        expected: "
            src/parser.ts:8 Parser.parse
            src/parser.ts:8 Parser.parse
        ",
    },
    Case {
        name: "ts_dependents_of_a_method",
        fixture: ts_package!(
            r#"export class Parser {
  pa$0rse(): number {
    return 1;
  }
}
"#,
            r#"import { Parser } from "./parser";

export function typed(p: Parser): number {
  return p.parse();
}

export function outer(p: Parser): number {
  return typed(p);
}
"#
        ),
        query: Dependents,
        expected: "
            src/run.ts:3 typed CALLS src/parser.ts:2 parse
            src/run.ts:7 outer CALLS src/run.ts:3 typed
        ",
    },
    Case {
        name: "ts_dependencies_of_a_function",
        fixture: ts_package!(
            ts_parser!(),
            "import { Parser, parse } from \"./parser\";\n\nexport function ty$0ped(p: Parser): number {\n  return p.parse() + parse();\n}\n"
        ),
        query: Dependencies,
        expected: "
            src/parser.ts:8 parse REFERENCES src/parser.ts:2 count
            src/run.ts:3 typed CALLS src/parser.ts:13 parse
            src/run.ts:3 typed CALLS src/parser.ts:8 parse
            src/run.ts:3 typed REFERENCES src/parser.ts:1 Parser
        ",
    },
    Case {
        name: "ts_symbol_info_of_a_class",
        fixture: ts_package!(
            "export class Par$0ser {\n  count = 0;\n\n  parse(): number {\n    return this.count;\n  }\n}\n",
            "import { Parser } from \"./parser\";\n\nexport function typed(p: Parser): number {\n  return p.parse();\n}\n"
        ),
        query: SymbolInfo,
        expected: "parser public references 2+0 callers 0+0 callees 0+0 implementations 0+0 members [count parse]",
    },
    Case {
        // `export { stringType as string }` beside the declaration: the
        // exported name leads to it, through a namespace the package's
        // index re-exports (`import * as z ...; export { z }`) and a
        // named import of that namespace.
        name: "ts_a_local_export_under_another_name_through_a_reexported_namespace",
        fixture: concat!(
            "//- package.json\n{ \"name\": \"demo\" }\n",
            "//- src/types.ts\nexport class ZodString {}\n\nfunction string$0Type(): ZodString {\n  return new ZodString();\n}\n\nexport { stringType as string };\n",
            "//- src/external.ts\nexport * from \"./types\";\nexport * as iso from \"./iso\";\n",
            "//- src/iso.ts\nexport function duration(): number {\n  return 1;\n}\n",
            "//- src/index.ts\nimport * as z from \"./external\";\nexport { z };\nexport * from \"./external\";\n",
            "//- src/app.ts\nimport { z } from \"./index\";\nimport * as all from \"./index\";\n\nexport const s = z.string();\nexport const t = all.string();\n",
        ),
        query: References,
        expected: "
            src/app.ts:4 call in s qualified
            src/app.ts:5 call in t qualified
            src/types.ts:7 reference in - scope
        ",
    },
    Case {
        // `z.iso.duration()`: `iso` is `export * as iso from "./iso"`,
        // reached through glob re-exports.
        name: "ts_a_namespace_reexport_inside_a_qualified_path",
        fixture: concat!(
            "//- package.json\n{ \"name\": \"demo\" }\n",
            "//- src/external.ts\nexport * as iso from \"./iso\";\n",
            "//- src/iso.ts\nexport function duration(): number {\n  return 1;\n}\n",
            "//- src/index.ts\nexport * from \"./external\";\n",
            "//- src/app.ts\nimport * as z from \"./index\";\n\nexport const d = z.iso.dura$0tion();\n",
        ),
        query: Definition,
        expected: "src/iso.ts:1 duration qualified",
    },
    Case {
        // An interface merged with a const of its name is a type where a
        // type is written (`extends ZodType`), and a method returning
        // `this` returns what it is called on: `a.nullable().min(1)` on a
        // `ZodAny` is `ZodAny.min`, `t.nullable().min(2)` the base's.
        name: "ts_this_returning_methods_keep_the_receivers_type_through_a_merged_interface",
        fixture: concat!(
            "//- package.json\n{ \"name\": \"demo\" }\n",
            "//- src/schemas.ts\nexport interface ZodType {\n  nullable(): this;\n  mi$0n(n: number): this;\n}\nexport interface _ZodType extends ZodType {}\nexport const ZodType: { new (): ZodType } = null as any;\nexport interface ZodAny extends _ZodType {\n  min(n: number): this;\n}\nexport function any(): ZodAny {\n  return null as any;\n}\n",
            "//- src/app.ts\nimport * as z from \"./schemas\";\n\nexport function f(t: z.ZodType) {\n  const a = z.any();\n  a.nullable().min(1);\n  t.nullable().min(2);\n}\n",
        ),
        query: References,
        expected: "
            src/app.ts:6 call in f qualified
        ",
    },
    Case {
        name: "ts_a_this_returning_call_on_a_subtype_is_the_subtypes_member",
        fixture: concat!(
            "//- package.json\n{ \"name\": \"demo\" }\n",
            "//- src/schemas.ts\nexport interface ZodType {\n  nullable(): this;\n  min(n: number): this;\n}\nexport interface _ZodType extends ZodType {}\nexport const ZodType: { new (): ZodType } = null as any;\nexport interface ZodAny extends _ZodType {\n  min(n: number): this;\n}\nexport function any(): ZodAny {\n  return null as any;\n}\n",
            "//- src/app.ts\nimport * as z from \"./schemas\";\n\nexport function f(t: z.ZodType) {\n  const a = z.any();\n  a.nullable().mi$0n(1);\n  t.nullable().min(2);\n}\n",
        ),
        query: Definition,
        expected: "src/schemas.ts:8 ZodAny.min qualified",
    },
    Case {
        // `raw as Issue` where `type Issue = TooSmall | Invalid | null`:
        // `issue.format` is the property of each type of the union.
        name: "ts_a_member_of_a_union_alias_is_each_types_member",
        fixture: concat!(
            "//- package.json\n{ \"name\": \"demo\" }\n",
            "//- src/issues.ts\nexport interface TooSmall {\n  code: \"too_small\";\n  format: string;\n}\nexport interface Invalid {\n  code: \"invalid\";\n  format: string;\n}\nexport interface Other {\n  code: \"other\";\n}\nexport type Issue = TooSmall | Invalid | null;\nexport type Alias = Other;\n",
            "//- src/app.ts\nimport type { Issue, Alias } from \"./issues\";\n\nexport function f(raw: unknown): string {\n  const issue = raw as Issue;\n  const other = raw as Alias;\n  return issue.for$0mat + other.code;\n}\n",
        ),
        query: Definition,
        expected: "
            src/issues.ts:3 TooSmall.format qualified
            src/issues.ts:7 Invalid.format qualified
        ",
    },
    Case {
        name: "ts_a_member_through_an_alias_of_one_type",
        fixture: concat!(
            "//- package.json\n{ \"name\": \"demo\" }\n",
            "//- src/issues.ts\nexport interface TooSmall {\n  code: \"too_small\";\n  format: string;\n}\nexport interface Invalid {\n  code: \"invalid\";\n  format: string;\n}\nexport interface Other {\n  code: \"other\";\n}\nexport type Issue = TooSmall | Invalid | null;\nexport type Alias = Other;\n",
            "//- src/app.ts\nimport type { Issue, Alias } from \"./issues\";\n\nexport function f(raw: unknown): string {\n  const issue = raw as Issue;\n  const other = raw as Alias;\n  return issue.format + other.co$0de;\n}\n",
        ),
        query: Definition,
        expected: "src/issues.ts:10 Other.code qualified",
    },
    Case {
        // `const stringType = ZodString.create` at module level, exported
        // as `string`: `z.string()` calls what the const holds, a static
        // field holding a function that returns a `ZodString`.
        name: "ts_a_module_const_holding_a_static_function_types_its_calls",
        fixture: concat!(
            "//- package.json\n{ \"name\": \"demo\" }\n",
            "//- src/types.ts\nexport class ZodString {\n  min(n: number): ZodString {\n    return this;\n  }\n  static create = (): ZodString => new ZodString();\n}\nconst stringType = ZodString.create;\nexport { stringType as string };\n",
            "//- src/app.ts\nimport * as z from \"./types\";\n\nexport const s = z.string().mi$0n(1);\n",
        ),
        query: Definition,
        expected: "src/types.ts:2 ZodString.min qualified",
    },
    Case {
        // A module's `export const registry = makeRegistry()`: the type
        // the function returns, in another file.
        name: "ts_a_module_const_initialised_by_a_call_has_its_return_type",
        fixture: concat!(
            "//- package.json\n{ \"name\": \"demo\" }\n",
            "//- src/registry.ts\nexport class Registry {\n  add(name: string): void {}\n}\nexport function makeRegistry(): Registry {\n  return new Registry();\n}\nexport const registry = makeRegistry();\n",
            "//- src/app.ts\nimport { registry } from \"./registry\";\n\nregistry.ad$0d(\"x\");\n",
        ),
        query: Definition,
        expected: "src/registry.ts:2 Registry.add qualified",
    },
];

/// A Go module of one package: `Parser` with a method `Parse`, a function
/// `Parse`, `Sized` with a field `Size` and `Measured` with a method `Size`.
macro_rules! go_module {
    ($parser:expr, $run:expr) => {
        concat!(
            "//- go.mod\nmodule example.com/demo\n\ngo 1.22\n",
            "//- parser.go\n",
            $parser,
            "//- run.go\n",
            $run
        )
    };
}

macro_rules! go_parser {
    () => {
        r#"package demo

type Parser struct {
	count int
}

func NewParser() *Parser {
	return &Parser{}
}

func (p *Parser) Parse() int {
	return p.count
}

func Parse() int {
	return 0
}

type Sized struct {
	Size int
}

type Measured struct{}

func (m Measured) Size() int {
	return 2
}
"#
    };
}

pub const GO: &[Case] = &[
    Case {
        // A type switch's variable in `case T:` is a `T`, a type assertion
        // `x.(T)` (also `v, ok := x.(T)`) a `T`, and `v, ok := m[k]` the
        // map's value: `Run` is `A`'s there, `B`'s in `case *B:`; in a case
        // of two types, or after `v` is assigned anew, it is not known.
        name: "go_type_switches_and_assertions_give_their_type",
        fixture: concat!(
            "//- go.mod\nmodule example.com/demo\n\ngo 1.22\n",
            "//- run.go\npackage demo\n\ntype A struct{}\n\nfunc (A) R$0un() {}\n\ntype B struct{}\n\nfunc (B) Run() {}\n\n",
            "func f(x interface{}, byName map[string]A) {\n",
            "\tswitch v := x.(type) {\n",
            "\tcase A:\n\t\tv.Run()\n",
            "\tcase *B:\n\t\tv.Run()\n",
            "\tcase int, string:\n\t\t_ = v\n",
            "\t}\n",
            "\tif a, ok := x.(A); ok {\n\t\ta.Run()\n\t}\n",
            "\tx.(A).Run()\n",
            "\tif a, ok := byName[\"k\"]; ok {\n\t\ta.Run()\n\t}\n",
            "\tswitch v := x.(type) {\n",
            "\tcase A:\n\t\tv = A{}\n\t\tv.Run()\n",
            "\t}\n",
            "}\n",
        ),
        query: References,
        expected: "
            run.go:14 call in f qualified
            run.go:21 call in f qualified
            run.go:23 call in f qualified
            run.go:25 call in f qualified
            run.go:30 call in f name_only
        ",
    },
    Case {
        // An element of a slice, a map's value and the value a `range`
        // gives are of the collection's element type: `groups[0].Name`,
        // `byName[k].Name`, `for _, g := range groups { g.Name }`.
        name: "go_elements_of_slices_maps_and_ranges_have_the_element_type",
        fixture: concat!(
            "//- go.mod\nmodule example.com/demo\n\ngo 1.22\n",
            "//- stats.go\npackage demo\n\ntype diffStats struct {\n\tNa$0me string\n}\n\ntype other struct {\n\tName string\n}\n\nfunc names(groups []diffStats, byName map[string]*diffStats) []string {\n\tout := []string{groups[0].Name, byName[\"a\"].Name, groups[1:][0].Name}\n\tfor i, g := range groups {\n\t\t_ = i\n\t\tout = append(out, g.Name)\n\t}\n\treturn out\n}\n",
        ),
        query: References,
        expected: "
            stats.go:12 reference in names qualified
            stats.go:12 reference in names qualified
            stats.go:12 reference in names qualified
            stats.go:15 reference in names qualified
        ",
    },
    Case {
        // A local holding a function literal: calling it returns what the
        // literal states, here a map whose value is then indexed.
        name: "go_calling_a_local_function_literal_returns_its_result",
        fixture: concat!(
            "//- go.mod\nmodule example.com/demo\n\ngo 1.22\n",
            "//- graph.go\npackage demo\n\ntype Node struct {\n\tID int\n}\n\ntype Other struct {\n\tID int\n}\n\nfunc build() int {\n\tmakeGraph := func() map[string]*Node {\n\t\treturn map[string]*Node{}\n\t}\n\tg := makeGraph()\n\treturn g[\"a\"].I$0D\n}\n",
        ),
        query: Definition,
        expected: "graph.go:4 Node.ID qualified",
    },
    Case {
        // Calling a value of a named function type returns what the type
        // states: `f(x, y).Equal()` with `f EqualFunc`.
        name: "go_calling_a_value_of_a_function_type_returns_its_result",
        fixture: concat!(
            "//- go.mod\nmodule example.com/demo\n\ngo 1.22\n",
            "//- diff.go\npackage demo\n\ntype Result struct{}\n\nfunc (r Result) Equal() bool { return true }\n\ntype Other struct{}\n\nfunc (o Other) Equal() bool { return false }\n\ntype EqualFunc func(ix, iy int) Result\n\nfunc walk(f EqualFunc) bool {\n\treturn f(1, 2).Eq$0ual()\n}\n",
        ),
        query: Definition,
        expected: "diff.go:5 Result.Equal qualified",
    },
    Case {
        // A package-level `var std = NewParser()`: the type `NewParser`
        // returns.
        name: "go_a_package_variable_has_the_type_of_its_value",
        fixture: go_module!(
            go_parser!(),
            "package demo\n\nvar std = NewParser()\n\nfunc run() int {\n\treturn std.Pa$0rse()\n}\n"
        ),
        query: Definition,
        expected: "parser.go:11 Parser.Parse qualified",
    },
    Case {
        // `p, err := Open()` of a function returning `(*Parser, error)`:
        // `p` is the first result, so `p.Size()` is the parser's method,
        // not `Measured`'s of the same name.
        name: "go_the_results_a_short_declaration_destructures",
        fixture: go_module!(
            go_parser!(),
            "package demo\n\ntype Opened struct{}\n\nfunc (o *Opened) Parse() int {\n\treturn 1\n}\n\nfunc Open() (*Opened, error) {\n\treturn &Opened{}, nil\n}\n\nfunc run() int {\n\to, err := Open()\n\tif err != nil {\n\t\treturn 0\n\t}\n\treturn o.Pa$0rse()\n}\n"
        ),
        query: Definition,
        expected: "run.go:5 Opened.Parse qualified",
    },
    Case {
        name: "go_member_call_through_a_typed_parameter",
        fixture: go_module!(
            go_parser!(),
            "package demo\n\nfunc typed(p *Parser) int {\n\treturn p.Pa$0rse() + Parse()\n}\n"
        ),
        query: Definition,
        expected: "parser.go:11 Parser.Parse qualified",
    },
    Case {
        name: "go_chained_call",
        fixture: go_module!(
            go_parser!(),
            "package demo\n\nfunc chained() int {\n\treturn NewParser().Pa$0rse()\n}\n"
        ),
        query: Definition,
        expected: "parser.go:11 Parser.Parse qualified",
    },
    Case {
        name: "go_bare_call_is_the_function",
        fixture: go_module!(
            go_parser!(),
            "package demo\n\nfunc typed(p *Parser) int {\n\treturn p.Parse() + Pa$0rse()\n}\n"
        ),
        query: Definition,
        expected: "parser.go:15 Parse scope",
    },
    Case {
        name: "go_field_of_one_type_method_of_another",
        fixture: go_module!(
            go_parser!(),
            "package demo\n\nfunc both(s Sized, m Measured) int {\n\treturn s.Si$0ze + m.Size()\n}\n"
        ),
        query: Definition,
        expected: "parser.go:20 Sized.Size qualified",
    },
    Case {
        name: "go_references_of_the_method",
        fixture: go_module!(
            r#"package demo

type Parser struct{}

func (p *Parser) Pa$0rse() int {
	return 1
}

func Parse() int {
	return 0
}
"#,
            r#"package demo

func typed(p *Parser) int {
	return p.Parse() + Parse()
}

func fresh() int {
	return (&Parser{}).Parse()
}
"#
        ),
        query: References,
        expected: "
            run.go:4 call in typed qualified
            run.go:8 call in fresh qualified
        ",
    },
    Case {
        name: "go_implementations_by_embedding",
        fixture: go_module!(
            r#"package demo

type Ba$0se struct{}

type Derived struct {
	Base
}
"#,
            "package demo\n"
        ),
        query: Implementations,
        expected: "parser.go:5 Derived EXTENDS 1",
    },
    Case {
        name: "go_type_definition_of_a_parameter",
        fixture: go_module!(
            go_parser!(),
            "package demo\n\nfunc typed($0p *Parser) int {\n\treturn p.Parse()\n}\n"
        ),
        query: TypeDefinition,
        expected: "parser.go:3 Parser",
    },
    Case {
        name: "go_callers_of_a_method",
        fixture: go_module!(
            r#"package demo

type Parser struct{}

func (p *Parser) Pa$0rse() int {
	return 1
}
"#,
            r#"package demo

func typed(p *Parser) int {
	return p.Parse()
}

func fresh() int {
	return (&Parser{}).Parse()
}
"#
        ),
        query: Callers,
        expected: "
            run.go:3 typed
            run.go:7 fresh
        ",
    },
    Case {
        name: "go_callees_of_a_function",
        fixture: go_module!(
            go_parser!(),
            "package demo\n\nfunc ty$0ped(p *Parser) int {\n\treturn p.Parse() + Parse()\n}\n"
        ),
        query: Callees,
        expected: "
            parser.go:11 Parser.Parse
            parser.go:15 Parse
        ",
    },
    Case {
        name: "go_dependents_of_a_method",
        fixture: go_module!(
            r#"package demo

type Parser struct{}

func (p *Parser) Pa$0rse() int {
	return 1
}
"#,
            r#"package demo

func typed(p *Parser) int {
	return p.Parse()
}

func outer(p *Parser) int {
	return typed(p)
}
"#
        ),
        query: Dependents,
        expected: "
            run.go:3 typed CALLS parser.go:5 Parse
            run.go:7 outer CALLS run.go:3 typed
        ",
    },
    Case {
        name: "go_dependencies_of_a_function",
        fixture: go_module!(
            go_parser!(),
            "package demo\n\nfunc ty$0ped(p *Parser) int {\n\treturn p.Parse() + Parse()\n}\n"
        ),
        query: Dependencies,
        expected: "
            parser.go:11 Parse REFERENCES parser.go:3 Parser
            parser.go:11 Parse REFERENCES parser.go:4 count
            run.go:3 typed CALLS parser.go:11 Parse
            run.go:3 typed CALLS parser.go:15 Parse
            run.go:3 typed REFERENCES parser.go:3 Parser
        ",
    },
    Case {
        name: "go_symbol_info_of_a_method",
        fixture: go_module!(
            go_parser!(),
            "package demo\n\nfunc typed(p *Parser) int {\n\treturn p.Pa$0rse() + Parse()\n}\n"
        ),
        query: SymbolInfo,
        expected: "parse public references 1+0 callers 1+0 callees 0+0 implementations 0+0 members []",
    },
];

/// A C# project: `Parser` implementing `IParser`, with a field `Count`, a
/// method `Parse` and a method `Check` that calls `Parse` by its bare name
/// (an implicit `this`); a static `Helpers.Parse` of the same name.
macro_rules! cs_project {
    ($parser:expr, $run:expr) => {
        concat!(
            "//- Demo.csproj\n<Project Sdk=\"Microsoft.NET.Sdk\"></Project>\n",
            "//- Parser.cs\n",
            $parser,
            "//- Run.cs\n",
            $run
        )
    };
}

macro_rules! cs_parser {
    () => {
        r#"namespace Demo
{
    public interface IParser
    {
        int Parse();
    }

    public class Parser : IParser
    {
        public int Count;

        public static Parser Create() { return new Parser(); }

        public int Parse() { return Count; }

        public int Check() { return Parse(); }
    }

    public static class Helpers
    {
        public static int Parse() { return 0; }
    }

    public class Sized
    {
        public int Size;
    }

    public class Measured
    {
        public int Size() { return 2; }
    }
}
"#
    };
}

pub const CSHARP: &[Case] = &[
    Case {
        // "Color Color": a property `Signature Signature` and the type
        // `Signature` both read as `Signature` heading a member access;
        // the type is meant for a static member or a constant (`StringSig`,
        // `Max`), the property for an instance one (`Length`). Certain
        // either way.
        name: "cs_a_name_both_a_property_and_its_type_is_the_one_the_member_belongs_to",
        fixture: concat!(
            "//- Rule.cs\nnamespace App\n{\n    public enum Kind { All, One }\n\n",
            "    public struct Sig$0nature\n    {\n        public static readonly Signature StringSig = new Signature();\n        public const int Max = 255;\n        public int Length;\n    }\n\n",
            "    public class Rule\n    {\n        public Signature Signature { get; set; }\n        public Kind Kind { get; set; }\n\n",
            "        public void Set()\n        {\n",
            "            Signature = Signature.StringSig;\n",
            "            var n = Signature.Length + Signature.Max;\n",
            "            if (Kind != Kind.All) { n = 0; }\n",
            "        }\n    }\n}\n",
        ),
        query: References,
        expected: "
            Rule.cs:7 type in Signature scope
            Rule.cs:7 call in Signature.StringSig scope
            Rule.cs:14 type in Rule.Signature scope
            Rule.cs:19 reference in Rule.Set scope
            Rule.cs:20 reference in Rule.Set scope
        ",
    },
    Case {
        // The property's side of the same names: `Signature.Length`, and
        // `Signature = ..` itself.
        name: "cs_a_name_both_a_property_and_its_type_is_the_property_for_an_instance_member",
        fixture: concat!(
            "//- Rule.cs\nnamespace App\n{\n    public enum Kind { All, One }\n\n",
            "    public struct Signature\n    {\n        public static readonly Signature StringSig = new Signature();\n        public const int Max = 255;\n        public int Length;\n    }\n\n",
            "    public class Rule\n    {\n        public Signature Sig$0nature { get; set; }\n        public Kind Kind { get; set; }\n\n",
            "        public void Set()\n        {\n",
            "            Signature = Signature.StringSig;\n",
            "            var n = Signature.Length + Signature.Max;\n",
            "            if (Kind != Kind.All) { n = 0; }\n",
            "        }\n    }\n}\n",
        ),
        query: References,
        expected: "
            Rule.cs:19 write in Rule.Set scope
            Rule.cs:20 reference in Rule.Set scope
        ",
    },
    Case {
        // An element of an array or a standard collection (indexed, a
        // `foreach` variable, a LINQ lambda's parameter) has the element's
        // type: `Name` is `User`'s, not `Group`'s of the same name.
        name: "cs_elements_of_arrays_and_collections_have_the_element_type",
        fixture: concat!(
            "//- Users.cs\nusing System.Collections.Generic;\n\nnamespace App\n{\n    public class User\n    {\n        public string Na$0me { get; set; }\n    }\n\n",
            "    public class Group\n    {\n        public string Name { get; set; }\n    }\n\n",
            "    public class Store\n    {\n        private List<User> lUser = new List<User>();\n\n",
            "        public User[] All() { return lUser.ToArray(); }\n\n",
            "        public void Run(IEnumerable<User> users)\n        {\n",
            "            var a = lUser[0].Name;\n",
            "            foreach (var user in users) { a = user.Name; }\n",
            "            a = All()[1].Name;\n",
            "            var first = lUser[2];\n            a = first.Name;\n",
            "            var named = users.Count(u => u.Name != null);\n",
            "        }\n    }\n}\n",
        ),
        query: References,
        expected: "
            Users.cs:23 reference in Store.Run qualified
            Users.cs:24 reference in Store.Run qualified
            Users.cs:25 reference in Store.Run qualified
            Users.cs:27 reference in Store.Run qualified
            Users.cs:28 reference in Store.Run qualified
        ",
    },
    Case {
        // `Program.Settings.Save()`: a qualifier ending in a static
        // property stands for the members of the property's type.
        name: "cs_a_static_property_in_a_qualifier_is_its_types_value",
        fixture: concat!(
            "//- Config.cs\nnamespace App\n{\n    public class AppConfig\n    {\n        public void Save() { }\n    }\n\n    public class Settings\n    {\n        public void Save() { }\n    }\n}\n",
            "//- Program.cs\nnamespace App\n{\n    public static class Program\n    {\n        public static AppConfig Settings { get; set; }\n    }\n\n    public class User\n    {\n        public void Run()\n        {\n            Program.Settings.Sa$0ve();\n        }\n    }\n}\n",
        ),
        query: Definition,
        expected: "Config.cs:5 AppConfig.Save qualified",
    },
    Case {
        // Invoking a value of a delegate type returns what the delegate
        // declares.
        name: "cs_invoking_a_delegate_value_returns_its_return_type",
        fixture: concat!(
            "//- Frames.cs\nnamespace A\n{\n    public class Frame\n    {\n        public int Size() { return 1; }\n    }\n\n    public class Other\n    {\n        public int Size() { return 2; }\n    }\n\n",
            "    public delegate Frame Factory(int n);\n\n    public class User\n    {\n        public int Make(Factory factory)\n        {\n            return factory(3).Si$0ze();\n        }\n    }\n}\n",
        ),
        query: Definition,
        expected: "Frames.cs:5 Frame.Size qualified",
    },
    Case {
        // `base.Close()` in a class overriding `Close`: the base class's,
        // found through the first type of its base list (written with its
        // namespace and type arguments), not the override.
        name: "cs_base_call_is_the_base_class_member_not_the_override",
        fixture: concat!(
            "//- Base.cs\nnamespace Lib.Io\n{\n    public class Stream<T>\n    {\n        public virtual void Close() { }\n    }\n}\n",
            "//- Child.cs\nnamespace App\n{\n    public class Child : Lib.Io.Stream<int>, System.IDisposable\n    {\n        public override void Close()\n        {\n            base.Clo$0se();\n        }\n\n        public void Dispose() { }\n    }\n}\n",
        ),
        query: Definition,
        expected: "Base.cs:5 Stream.Close qualified",
    },
    Case {
        // `: this(..)` and `: base(..)` call a constructor of the class and
        // of its base class, told apart by argument count.
        name: "cs_constructor_initializers_call_constructors",
        fixture: concat!(
            "//- Shapes.cs\nnamespace A\n{\n    public class Shape\n    {\n        public Shape() { }\n\n        public Sh$0ape(int sides) { }\n    }\n\n",
            "    public class Square : Shape\n    {\n        public Square(int side) : base(4) { }\n\n        public Square() : this(1) { }\n\n        public Square(string s) : base() { }\n    }\n}\n",
        ),
        query: References,
        // `: base(4)`, not `: base()`.
        expected: "Shapes.cs:12 call in Square.Square scope",
    },
    Case {
        // `using static A.B;` brings in the static members of `B`.
        name: "cs_using_static",
        fixture: concat!(
            "//- Strings.cs\nnamespace A\n{\n    public static class Strings\n    {\n        public static string Join(string a, string b) { return a + b; }\n    }\n}\n",
            "//- Main.cs\nusing static A.Strings;\n\nnamespace B\n{\n    class Main\n    {\n        string Use() { return Jo$0in(\"a\", \"b\"); }\n    }\n}\n",
        ),
        query: Definition,
        expected: "Strings.cs:5 Strings.Join import",
    },
    Case {
        // As in Java: a base written through a type ends its lookup.
        name: "cs_base_written_through_a_type",
        fixture: concat!(
            "//- T.cs\nnamespace A\n{\n    public sealed class T\n    {\n        public interface S { }\n    }\n}\n",
            "//- J.cs\nnamespace A\n{\n    sealed class J : T.$0S { }\n}\n",
        ),
        query: Definition,
        expected: "T.cs:5 T.S qualified",
    },
    Case {
        // A library's type (`Type`, which nothing in the workspace
        // declares) is no workspace type: `ReadValue(Type)` is the one
        // overload a `Type` parameter or an element of a `Type[]` passes
        // for; a value of unknown type, or of a type written with its
        // namespace, keeps both.
        name: "cs_a_library_types_argument_tells_overloads_apart",
        fixture: cs_project!(
            r#"using System;

namespace Demo
{
    public enum DType { Int, Str }

    public class Reader
    {
        public object Read$0Value(Type type) { return null; }

        public object ReadValue(DType dtype) { return null; }

        public void All(Type t, Type[] types, DType d, object o)
        {
            ReadValue(t);
            ReadValue(types[0]);
            ReadValue(d);
            ReadValue(o.GetType());
        }
    }
}
"#,
            r#"namespace Demo
{
    public static class Run
    {
        public static void Use(Reader r, System.Type t) { r.ReadValue(t); }
    }
}
"#
        ),
        query: References,
        expected: "
            Parser.cs:15 call in Reader.All scope
            Parser.cs:16 call in Reader.All scope
            Parser.cs:18 call in Reader.All scope uncertain
            Run.cs:5 call in Run.Use qualified uncertain
        ",
    },
    Case {
        name: "cs_overloads_told_apart_by_argument_count",
        fixture: cs_project!(
            r#"namespace Demo
{
    public class Writer
    {
        public void Wr$0ite(int a) { }

        public void Write(int a, int b) { }

        public void Write(string s, int b, int c = 0) { }

        public void All() { Write(1); Write(1, 2); Write("x", 1, 2); }
    }
}
"#,
            r#"namespace Demo
{
    public static class Run
    {
        public static void Use(Writer w) { w.Write(3); w.Write(3, 4); }
    }
}
"#
        ),
        query: References,
        expected: "
            Parser.cs:11 call in Writer.All scope
            Run.cs:5 call in Run.Use qualified
        ",
    },
    Case {
        // A literal's type tells `Write(int)` from `Write(string, int = 0)`.
        name: "cs_overloads_told_apart_by_a_literal_argument",
        fixture: cs_project!(
            r#"namespace Demo
{
    public class Writer
    {
        public void Write(int a) { }

        public void Write(string s, int b = 0) { }

        public void All() { Wr$0ite(1); }
    }
}
"#,
            "\n"
        ),
        query: Definition,
        expected: "Parser.cs:5 Writer.Write scope",
    },
    Case {
        // An argument whose type is not known leaves both overloads.
        name: "cs_overloads_of_one_argument_count_are_uncertain_for_an_untyped_argument",
        fixture: cs_project!(
            r#"namespace Demo
{
    public class Writer
    {
        public void Write(int a) { }

        public void Write(string s, int b = 0) { }

        public void All(System.Func<int> f) { Wr$0ite(f()); }
    }
}
"#,
            "\n"
        ),
        query: Definition,
        expected: "
            Parser.cs:5 Writer.Write scope uncertain
            Parser.cs:7 Writer.Write scope uncertain
        ",
    },
    Case {
        // `Equals(Uuid)` beside `Equals(object)`: a `Uuid` value calls the
        // first (identity beats a top type); a `string` the second; a
        // value of unknown type either.
        name: "cs_overloads_by_declared_types_and_the_top_type",
        fixture: cs_project!(
            r#"namespace Demo
{
    public struct Uuid
    {
        public bool Eq$0uals(Uuid other) { return true; }

        public override bool Equals(object obj) { return false; }

        public Uuid(string text) { }

        public Uuid(byte[] bytes, int offset) { }
    }
}
"#,
            r#"namespace Demo
{
    public static class Run
    {
        public static bool Use(Uuid a, Uuid b, object o)
        {
            var c = new Uuid("x");
            return a.Equals(b) && a.Equals(c) && a.Equals("text") && a.Equals(o);
        }
    }
}
"#
        ),
        query: References,
        expected: "
            Run.cs:8 call in Run.Use qualified
            Run.cs:8 call in Run.Use qualified
        ",
    },
    Case {
        // A derived type passes for its base class, not for an unrelated
        // one; a string literal passes for neither.
        name: "cs_overloads_by_subtype",
        fixture: cs_project!(
            r#"namespace Demo
{
    public class Shape { }

    public class Circle : Shape { }

    public class Color { }

    public static class Painter
    {
        public static void Paint(Shape s) { }

        public static void Paint(Color c) { }

        public static void Paint(string name) { }
    }
}
"#,
            r#"namespace Demo
{
    public static class Run
    {
        public static void Use(Circle c)
        {
            Painter.Pa$0int(c);
        }
    }
}
"#
        ),
        query: Definition,
        expected: "Parser.cs:11 Painter.Paint qualified",
    },
    Case {
        // An `int` passes for `long` and for `double` by a widening; `long`
        // is the better target (a `long` passes for a `double`, not the
        // reverse). A `Circle` passes only for the classes. A `float`
        // passes for `double`; whether a constant of it may pass for the
        // kindred `long` the rules do not say, so that call stays
        // uncertain.
        name: "cs_overloads_by_the_better_conversion_target",
        fixture: cs_project!(
            r#"namespace Demo
{
    public class Item { }

    public class Shape : Item { }

    public class Circle : Shape { }

    public static class Scale
    {
        public static void By$0(long n) { }

        public static void By(double n) { }

        public static void By(Shape s) { }

        public static void By(Item i) { }
    }
}
"#,
            r#"namespace Demo
{
    public static class Run
    {
        public static void Use(int count, Circle circle, float f)
        {
            Scale.By(count);
            Scale.By(circle);
            Scale.By(f);
        }
    }
}
"#
        ),
        query: References,
        expected: "
            Run.cs:7 call in Run.Use qualified
            Run.cs:9 call in Run.Use qualified uncertain
        ",
    },
    Case {
        // `1` is an `int` constant: `M(int)` is an identity and beats
        // `M(byte)`, which a constant in range may also call; with no
        // `M(int)`, C# calls `M(byte)` (the better target), a variable
        // `M(long)`, and lingo, not knowing a constant from a variable,
        // says both.
        name: "cs_overloads_and_constants_of_narrower_types",
        fixture: cs_project!(
            r#"namespace Demo
{
    public static class Sink
    {
        public static void P$0ut(int n) { }

        public static void Put(byte n) { }

        public static void Add(byte n) { }

        public static void Add(long n) { }

        public static void Use() { Put(1); Add(1); }
    }
}
"#,
            "\n"
        ),
        query: References,
        expected: "Parser.cs:13 call in Sink.Use scope",
    },
    Case {
        name: "cs_overloads_and_constants_say_both_when_no_identity",
        fixture: cs_project!(
            r#"namespace Demo
{
    public static class Sink
    {
        public static void Add(byte n) { }

        public static void Add(long n) { }

        public static void Use() { A$0dd(1); }
    }
}
"#,
            "\n"
        ),
        query: Definition,
        expected: "
            Parser.cs:5 Sink.Add scope uncertain
            Parser.cs:7 Sink.Add scope uncertain
        ",
    },
    Case {
        // A cast names its value's type: `(Path)value` calls `Write(Path)`,
        // not `Write(object)` or `Write(string)`.
        name: "cs_overloads_by_a_cast_to_a_declared_type",
        fixture: cs_project!(
            r#"namespace Demo
{
    public class Path { }

    public class Writer
    {
        public void Wr$0ite(Path p) { }

        public void Write(object o) { }

        public void Write(string s) { }

        public void All(object value) { Write((Path)value); Write(value); Write((Demo.Path)value); }
    }
}
"#,
            "\n"
        ),
        query: References,
        expected: "
            Parser.cs:13 call in Writer.All scope
            Parser.cs:13 call in Writer.All scope
        ",
    },
    Case {
        // A `char` literal calls `Emit(char)`: an identity beats the
        // parameters whose types lingo cannot compare (an array, a params
        // array, a library type, a type parameter).
        name: "cs_an_identity_beats_parameters_of_unknown_types",
        fixture: cs_project!(
            r#"namespace Demo
{
    public class Tokeniser
    {
        public void Em$0it(char c) { }

        public void Emit(char[] chars) { }

        public void Emit(System.Text.StringBuilder text) { }

        public void Emit<T>(T value) { }

        public void Emit(params int[] codes) { }

        public void All(char c) { Emit('<'); Emit(c); }
    }
}
"#,
            "\n"
        ),
        query: References,
        expected: "
            Parser.cs:15 call in Tokeniser.All scope
            Parser.cs:15 call in Tokeniser.All scope
        ",
    },
    Case {
        // The `Shape` overload is the better target for a `Circle`.
        name: "cs_overloads_by_the_nearest_base_class",
        fixture: cs_project!(
            r#"namespace Demo
{
    public class Item { }

    public class Shape : Item { }

    public class Circle : Shape { }

    public static class Scale
    {
        public static void By(Shape s) { }

        public static void By(Item i) { }
    }
}
"#,
            r#"namespace Demo
{
    public static class Run
    {
        public static void Use(Circle circle)
        {
            Scale.B$0y(circle);
        }
    }
}
"#
        ),
        query: Definition,
        expected: "Parser.cs:11 Scale.By qualified",
    },
    Case {
        // A `byte` passes for `short` and for `ushort`, neither a better
        // target than the other by conversions alone: both stay.
        name: "cs_overloads_with_no_better_conversion_target_stay_uncertain",
        fixture: cs_project!(
            r#"namespace Demo
{
    public static class Scale
    {
        public static void Pair(short n) { }

        public static void Pair(ushort n) { }
    }
}
"#,
            r#"namespace Demo
{
    public static class Run
    {
        public static void Use(byte small)
        {
            Scale.Pa$0ir(small);
        }
    }
}
"#
        ),
        query: Definition,
        expected: "
            Parser.cs:5 Scale.Pair qualified uncertain
            Parser.cs:7 Scale.Pair qualified uncertain
        ",
    },
    Case {
        // An equality operator converts nothing: a `uint` is no `Sig`. A
        // conversion operator may make one a `Path`: both stay.
        name: "cs_overloads_and_operators",
        fixture: cs_project!(
            r#"namespace Demo
{
    public struct Sig
    {
        public static bool operator ==(Sig a, Sig b) { return true; }

        public static bool operator !=(Sig a, Sig b) { return false; }
    }

    public struct Path
    {
        public static implicit operator Path(uint value) { return new Path(); }
    }

    public class Writer
    {
        public void Wr$0ite(uint value) { }

        public void Write(Sig sig) { }

        public void Put(uint value) { }

        public void Put(Path path) { }

        public void All(uint n) { Write((uint)1); Write(n); Put(n); }
    }
}
"#,
            "\n"
        ),
        query: References,
        expected: "
            Parser.cs:25 call in Writer.All scope
            Parser.cs:25 call in Writer.All scope
        ",
    },
    Case {
        // A property's, field's or return's built-in type picks the
        // overload: `h.Length` is a `uint`, `h.Serial` an `int`,
        // `h.Size()` a `long`.
        name: "cs_overloads_by_members_built_in_types",
        fixture: cs_project!(
            r#"namespace Demo
{
    public class Header
    {
        public uint Length { get; set; }

        public int Serial;

        public long Size() { return 0; }
    }

    public class Writer
    {
        public void Wr$0ite(uint value) { }

        public void Write(int value) { }

        public void Write(long value) { }

        public void All(Header h) { Write(h.Length); Write(h.Serial); Write(h.Size()); }
    }
}
"#,
            "\n"
        ),
        query: References,
        expected: "Parser.cs:20 call in Writer.All scope",
    },
    Case {
        // A type with a conversion operator may take a `uint`: its overload
        // stays, behind the identity (C# calls `Put(uint)`); with no
        // identity, both stay.
        name: "cs_a_conversion_operator_keeps_its_types_overload",
        fixture: cs_project!(
            r#"namespace Demo
{
    public struct Path
    {
        public static implicit operator Path(uint value) { return new Path(); }
    }

    public class Writer
    {
        public void Put(uint value) { }

        public void Put(Path path) { }

        public void Add(long value) { }

        public void Add(Path path) { }

        public void All(uint n) { P$0ut(n); Add(n); }
    }
}
"#,
            "\n"
        ),
        query: Definition,
        expected: "Parser.cs:10 Writer.Put scope",
    },
    Case {
        name: "cs_a_conversion_operator_keeps_its_overload_beside_a_widening",
        fixture: cs_project!(
            r#"namespace Demo
{
    public struct Path
    {
        public static implicit operator Path(uint value) { return new Path(); }
    }

    public class Writer
    {
        public void Add(long value) { }

        public void Add(Path path) { }

        public void All(uint n) { A$0dd(n); }
    }
}
"#,
            "\n"
        ),
        query: Definition,
        expected: "
            Parser.cs:10 Writer.Add scope uncertain
            Parser.cs:12 Writer.Add scope uncertain
        ",
    },
    Case {
        // Constructor overloads: a string literal calls the one taking a
        // string, an `int` the other.
        name: "cs_constructor_overloads_by_argument_types",
        fixture: cs_project!(
            r#"namespace Demo
{
    public class Token
    {
        public To$0ken(string text) { }

        public Token(int code) { }
    }
}
"#,
            r#"namespace Demo
{
    public static class Run
    {
        public static Token Use() { return new Token("x"); }

        public static Token Code() { return new Token(7); }
    }
}
"#
        ),
        query: References,
        expected: "Run.cs:5 call in Run.Use scope",
    },
    Case {
        name: "cs_property_named_like_its_type",
        fixture: cs_project!(
            r#"namespace Demo
{
    public class Signature
    {
        public bool Verify() { return true; }
    }
}
"#,
            r#"namespace Demo
{
    public class Holder
    {
        public Signature Signature { get; set; }

        public bool Check() { return Signa$0ture != null; }
    }
}
"#
        ),
        query: Definition,
        expected: "Run.cs:5 Holder.Signature scope",
    },
    Case {
        name: "cs_property_named_like_its_type_heading_a_path",
        fixture: cs_project!(
            r#"namespace Demo
{
    public class Signature
    {
        public bool Verify() { return true; }
    }
}
"#,
            r#"namespace Demo
{
    public class Holder
    {
        public Signature Signature { get; set; }

        public bool Check() { return Signa$0ture.Verify(); }
    }
}
"#
        ),
        query: Definition,
        // `Verify` is each value's, so the property is meant ("Color Color").
        expected: "Run.cs:5 Holder.Signature scope",
    },
    Case {
        name: "cs_member_call_through_a_property_named_like_its_type",
        fixture: cs_project!(
            r#"namespace Demo
{
    public class Signature
    {
        public bool Verify() { return true; }
    }
}
"#,
            r#"namespace Demo
{
    public class Holder
    {
        public Signature Signature { get; set; }

        public bool Check() { return Signature.Ver$0ify(); }
    }
}
"#
        ),
        query: Definition,
        expected: "Parser.cs:5 Signature.Verify qualified",
    },
    Case {
        name: "cs_bare_call_of_a_member_of_another_partial_part",
        fixture: cs_project!(
            r#"namespace Demo
{
    public partial class Parser
    {
        public int Parse() { return 1; }
    }

    public static class Helpers
    {
        public static int Parse() { return 0; }
    }
}
"#,
            r#"namespace Demo
{
    public partial class Parser
    {
        public int Check() { return Pa$0rse() + this.Parse(); }
    }
}
"#
        ),
        query: Definition,
        expected: "Parser.cs:5 Parser.Parse scope",
    },
    Case {
        name: "cs_references_of_a_constructor",
        fixture: cs_project!(
            r#"namespace Demo
{
    public class Point
    {
        public Po$0int(int x) { }

        public Point(int x, int y) : this(x) { }
    }
}
"#,
            r#"namespace Demo
{
    public static class Run
    {
        public static Point One() { return new Point(1); }

        public static Point Two() { return new Point(1, 2); }
    }
}
"#
        ),
        query: References,
        // `: this(x)` calls it too.
        expected: "
            Parser.cs:7 call in Point.Point scope
            Run.cs:5 call in Run.One scope
        ",
    },
    Case {
        name: "cs_bare_name_of_an_inherited_member",
        fixture: cs_project!(
            r#"namespace Demo
{
    public class Base
    {
        protected int Count;
    }
}
"#,
            r#"namespace Demo
{
    public class Derived : Base
    {
        public int Twice() { return Cou$0nt * 2; }
    }
}
"#
        ),
        query: Definition,
        expected: "Parser.cs:5 Base.Count scope",
    },
    Case {
        name: "cs_member_call_through_a_typed_parameter",
        fixture: cs_project!(
            cs_parser!(),
            "namespace Demo\n{\n    public static class Run\n    {\n        public static int Typed(Parser p) { return p.Pa$0rse() + Helpers.Parse(); }\n    }\n}\n"
        ),
        query: Definition,
        expected: "Parser.cs:14 Parser.Parse qualified",
    },
    Case {
        name: "cs_chained_call",
        fixture: cs_project!(
            cs_parser!(),
            "namespace Demo\n{\n    public static class Run\n    {\n        public static int Chained() { return Parser.Create().Pa$0rse(); }\n    }\n}\n"
        ),
        query: Definition,
        expected: "Parser.cs:14 Parser.Parse qualified",
    },
    Case {
        name: "cs_bare_name_is_a_member_of_the_enclosing_type",
        fixture: cs_project!(
            r#"namespace Demo
{
    public class Parser
    {
        public int Parse() { return 1; }

        public int Check() { return Pa$0rse(); }
    }

    public static class Helpers
    {
        public static int Parse() { return 0; }
    }
}
"#,
            "\n"
        ),
        query: Definition,
        expected: "Parser.cs:5 Parser.Parse scope",
    },
    Case {
        name: "cs_field_of_one_class_method_of_another",
        fixture: cs_project!(
            cs_parser!(),
            "namespace Demo\n{\n    public static class Run\n    {\n        public static int Both(Sized s, Measured m) { return s.Si$0ze + m.Size(); }\n    }\n}\n"
        ),
        query: Definition,
        expected: "Parser.cs:26 Sized.Size qualified",
    },
    Case {
        name: "cs_references_of_the_method",
        fixture: cs_project!(
            r#"namespace Demo
{
    public class Parser
    {
        public int Pa$0rse() { return 1; }

        public int Check() { return Parse(); }
    }

    public static class Helpers
    {
        public static int Parse() { return 0; }
    }
}
"#,
            r#"namespace Demo
{
    public static class Run
    {
        public static int Typed(Parser p) { return p.Parse() + Helpers.Parse(); }

        public static int Fresh() { return new Parser().Parse(); }
    }
}
"#
        ),
        query: References,
        expected: "
            Parser.cs:7 call in Parser.Check scope
            Run.cs:5 call in Run.Typed qualified
            Run.cs:7 call in Run.Fresh qualified
        ",
    },
    Case {
        name: "cs_implementations_of_an_interface",
        fixture: cs_project!(
            r#"namespace Demo
{
    public interface IPar$0ser
    {
        int Parse();
    }

    public class Parser : IParser
    {
        public int Parse() { return 1; }
    }

    public class Strict : Parser
    {
    }
}
"#,
            "\n"
        ),
        query: Implementations,
        expected: "
            Parser.cs:8 Demo.Parser IMPLEMENTS 1
            Parser.cs:13 Demo.Strict EXTENDS 2
        ",
    },
    Case {
        name: "cs_type_definition_of_a_parameter",
        fixture: cs_project!(
            cs_parser!(),
            "namespace Demo\n{\n    public static class Run\n    {\n        public static int Typed(Parser $0p) { return p.Parse(); }\n    }\n}\n"
        ),
        query: TypeDefinition,
        expected: "Parser.cs:8 Demo.Parser",
    },
    Case {
        name: "cs_callers_of_a_method",
        fixture: cs_project!(
            r#"namespace Demo
{
    public class Parser
    {
        public int Pa$0rse() { return 1; }

        public int Check() { return Parse(); }
    }
}
"#,
            r#"namespace Demo
{
    public static class Run
    {
        public static int Typed(Parser p) { return p.Parse(); }
    }
}
"#
        ),
        query: Callers,
        expected: "
            Parser.cs:7 Demo.Parser.Check
            Run.cs:5 Demo.Run.Typed
        ",
    },
    Case {
        name: "cs_callees_of_a_method",
        fixture: cs_project!(
            cs_parser!(),
            "namespace Demo\n{\n    public static class Run\n    {\n        public static int Ty$0ped(Parser p) { return p.Parse() + Helpers.Parse(); }\n    }\n}\n"
        ),
        query: Callees,
        expected: "
            Parser.cs:14 Demo.Parser.Parse
            Parser.cs:21 Demo.Helpers.Parse
        ",
    },
    Case {
        name: "cs_dependents_of_a_method",
        fixture: cs_project!(
            r#"namespace Demo
{
    public class Parser
    {
        public int Pa$0rse() { return 1; }
    }
}
"#,
            r#"namespace Demo
{
    public static class Run
    {
        public static int Typed(Parser p) { return p.Parse(); }

        public static int Outer(Parser p) { return Typed(p); }
    }
}
"#
        ),
        query: Dependents,
        expected: "
            Run.cs:5 Typed CALLS Parser.cs:5 Parse
            Run.cs:7 Outer CALLS Run.cs:5 Typed
        ",
    },
    Case {
        name: "cs_dependencies_of_a_method",
        fixture: cs_project!(
            cs_parser!(),
            "namespace Demo\n{\n    public static class Run\n    {\n        public static int Ty$0ped(Parser p) { return p.Parse() + Helpers.Parse(); }\n    }\n}\n"
        ),
        query: Dependencies,
        expected: "
            Parser.cs:14 Parse REFERENCES Parser.cs:10 Count
            Parser.cs:8 Parser IMPLEMENTS Parser.cs:3 IParser
            Run.cs:5 Typed CALLS Parser.cs:14 Parse
            Run.cs:5 Typed CALLS Parser.cs:21 Parse
            Run.cs:5 Typed REFERENCES Parser.cs:19 Helpers
            Run.cs:5 Typed REFERENCES Parser.cs:8 Parser
        ",
    },
    Case {
        name: "cs_symbol_info_of_an_interface",
        fixture: cs_project!(
            cs_parser!(),
            "namespace Demo\n{\n    public static class Run\n    {\n        public static int Typed(IPar$0ser p) { return p.Parse(); }\n    }\n}\n"
        ),
        query: SymbolInfo,
        expected: "iparser public references 2+0 callers 0+0 callees 0+0 implementations 1+0 members [parse]",
    },
];

/// A Java source root `src/main/java` with package `demo`: `Parser`
/// implementing `IParser`, with a field `count`, methods `parse` and
/// `check` (which calls `parse` by its bare name, an implicit `this`) and a
/// static `create`; a static `Helpers.parse` of the same name.
macro_rules! java_project {
    ($parser:expr, $run:expr) => {
        concat!(
            "//- src/main/java/demo/Parser.java\n",
            $parser,
            "//- src/main/java/demo/Run.java\n",
            $run
        )
    };
}

macro_rules! java_parser {
    () => {
        java_parser!("parse", "IParser")
    };
    ($call:literal, $interface:literal) => {
        concat!(
            "package demo;\n\n",
            "public class Parser implements IParser {\n",
            "    public int count;\n\n",
            "    public static Parser create() { return new Parser(); }\n\n",
            "    public int parse() { return count; }\n\n",
            "    public int check() { return ",
            $call,
            "(); }\n}\n\n",
            "interface ",
            $interface,
            " {\n    int parse();\n}\n\n",
            "final class Helpers {\n    static int parse() { return 0; }\n}\n"
        )
    };
}

pub const JAVA: &[Case] = &[
    Case {
        // A field named as a type in scope hides the type where the name
        // heads a member access (obscuring): `Mode.next()` is the field's.
        name: "java_a_field_named_as_a_type_hides_the_type",
        fixture: concat!(
            "//- src/main/java/a/Mode.java\npackage a;\n\npublic class Mode {\n    public static Mode DEFAULT = new Mode();\n    public Mode next() { return this; }\n}\n",
            "//- src/main/java/a/Run.java\npackage a;\n\nclass Run {\n    Mode Mode = new Mode();\n\n",
            "    Mode step() {\n        return Mo$0de.next();\n    }\n}\n",
        ),
        query: Definition,
        expected: "src/main/java/a/Run.java:4 Run.Mode scope",
    },
    Case {
        // A bare name read beside a method of that name (a getter named
        // after its field) is the field, a bare call the method: each is
        // certain, not a guess between the two.
        name: "java_a_bare_read_is_the_field_beside_a_method_of_its_name",
        fixture: concat!(
            "//- src/main/java/a/Conn.java\npackage a;\n\npublic class Conn {\n",
            "    private boolean follow$0Redirects;\n\n",
            "    public boolean followRedirects() {\n        return followRedirects;\n    }\n\n",
            "    public void copy(Conn other) {\n        followRedirects = other.followRedirects;\n        followRedirects();\n    }\n}\n",
        ),
        query: References,
        expected: "
            src/main/java/a/Conn.java:7 reference in Conn.followRedirects scope
            src/main/java/a/Conn.java:11 write in Conn.copy scope
            src/main/java/a/Conn.java:11 reference in Conn.copy qualified
        ",
    },
    Case {
        // An element of an array (indexed) or of a standard collection (an
        // enhanced `for` with `var`, a lambda given to `forEach`) has the
        // element's type: `save` is `User`'s, not `Group`'s of the same name.
        name: "java_elements_of_arrays_and_collections_have_the_element_type",
        fixture: concat!(
            "//- src/main/java/a/User.java\npackage a;\n\npublic class User {\n    public void sa$0ve() {}\n}\n",
            "//- src/main/java/a/Group.java\npackage a;\n\npublic class Group {\n    public void save() {}\n}\n",
            "//- src/main/java/a/Store.java\npackage a;\n\nimport java.util.List;\n\nclass Store {\n",
            "    void run(User[] users, List<User> more) {\n",
            "        users[0].save();\n",
            "        for (var user : more) {\n            user.save();\n        }\n",
            "        var first = users[1];\n        first.save();\n",
            "        more.forEach(u -> u.save());\n",
            "    }\n}\n",
        ),
        query: References,
        expected: "
            src/main/java/a/Store.java:7 call in Store.run qualified
            src/main/java/a/Store.java:9 call in Store.run qualified
            src/main/java/a/Store.java:12 call in Store.run qualified
            src/main/java/a/Store.java:13 call in Store.run qualified
        ",
    },
    Case {
        // A supertype written through a type (`T.S`) is looked up in the
        // class's own scope, whose nested types include its supertypes':
        // the lookup comes back to the class, and ends there.
        name: "java_supertype_written_through_a_type",
        fixture: concat!(
            "//- src/main/java/a/T.java\npackage a;\n\npublic final class T {\n    interface S {}\n}\n",
            "//- src/main/java/a/J.java\npackage a;\n\nfinal class J implements T.$0S {}\n",
        ),
        query: Definition,
        expected: "src/main/java/a/T.java:4 T.S qualified",
    },
    Case {
        name: "java_member_call_through_a_typed_parameter",
        fixture: java_project!(
            java_parser!(),
            "package demo;\n\nclass Run {\n    int use(Parser p) { return p.pa$0rse(); }\n}\n"
        ),
        query: Definition,
        expected: "src/main/java/demo/Parser.java:8 Parser.parse qualified",
    },
    Case {
        name: "java_chained_call",
        fixture: java_project!(
            java_parser!(),
            "package demo;\n\nclass Run {\n    int use() { return Parser.create().pa$0rse(); }\n}\n"
        ),
        query: Definition,
        expected: "src/main/java/demo/Parser.java:8 Parser.parse qualified",
    },
    Case {
        name: "java_bare_call_is_a_member_of_the_enclosing_type",
        fixture: java_project!(java_parser!("pa$0rse", "IParser"), "package demo;\n"),
        query: Definition,
        expected: "src/main/java/demo/Parser.java:8 Parser.parse scope",
    },
    // Overloads are told apart by argument count, then by argument types:
    // `write(1, 2)` is not `write(int)`; `write(1)` may be `write(int)` or
    // the varargs `write(String, int...)` by count, and an `int` is no
    // `String`.
    Case {
        name: "java_overloads_told_apart_by_argument_count_and_types",
        fixture: java_project!(
            r#"package demo;

public class Writer {
    public void wr$0ite(int a) { }

    public void write(int a, int b) { }

    public void write(String s, int... rest) { }

    public void all() { write(1); write(1, 2); }
}
"#,
            "package demo;\n\nclass Run {\n    void use(Writer w) { w.write(3); w.write(3, 4); }\n}\n"
        ),
        query: References,
        expected: "
            src/main/java/demo/Parser.java:10 call in Writer.all scope
            src/main/java/demo/Run.java:4 call in Run.use qualified
        ",
    },
    // A field's and a return's primitive type pick the overload.
    Case {
        name: "java_overloads_by_members_primitive_types",
        fixture: java_project!(
            r#"package demo;

public class Sink {
    int count;

    long total() { return 0; }

    public void pu$0t(int value) { }

    public void put(long value) { }

    public void put(String value) { }

    public void all() { put(count); put(total()); put("x"); }
}
"#,
            "package demo;\n"
        ),
        query: References,
        expected: "src/main/java/demo/Parser.java:14 call in Sink.all scope",
    },
    // A primitive passes for its own type before a widening or `Object`;
    // a boxed value for `Object`, not for an unrelated class; an unknown
    // value leaves every overload.
    Case {
        name: "java_overloads_by_primitive_boxed_and_declared_types",
        fixture: java_project!(
            r#"package demo;

public class Log {
    public void pr$0int(long value) { }

    public void print(Object value) { }

    public void print(Log other) { }

    public void all(Integer boxed, Log log, java.util.function.Supplier<Log> make) {
        print(1);
        print(boxed);
        print(log);
        print(make.get());
    }
}
"#,
            "package demo;\n"
        ),
        query: References,
        expected: "
            src/main/java/demo/Parser.java:11 call in Log.all scope
            src/main/java/demo/Parser.java:14 call in Log.all scope uncertain
        ",
    },
    // The most specific method: an `int` passes for `long` and for
    // `double`, and `long` for `double`, so `put(long)` is the one; a
    // `Circle` goes to the `Shape` overload rather than the `Item` one. A
    // `float` passes for `double`; the rules do not say that no constant
    // of it passes for the kindred `long`, so that call stays uncertain.
    Case {
        name: "java_overloads_by_the_most_specific_method",
        fixture: java_project!(
            r#"package demo;

public class Sink {
    static class Item { }

    static class Shape extends Item { }

    static class Circle extends Shape { }

    public void pu$0t(long value) { }

    public void put(double value) { }

    public void put(Shape value) { }

    public void put(Item value) { }

    public void all(int count, Circle circle, float f) { put(count); put(circle); put(f); }
}
"#,
            "package demo;\n"
        ),
        query: References,
        expected: "
            src/main/java/demo/Parser.java:18 call in Sink.all scope
            src/main/java/demo/Parser.java:18 call in Sink.all scope uncertain
        ",
    },
    // An identity beats parameters whose types lingo cannot compare: an
    // array, varargs, a library type.
    Case {
        name: "java_an_identity_beats_parameters_of_unknown_types",
        fixture: java_project!(
            r#"package demo;

public class Tokeniser {
    void em$0it(char c) { }

    void emit(char[] chars) { }

    void emit(StringBuilder text) { }

    void emit(int... codes) { }

    void all(char c) { emit('<'); emit(c); }
}
"#,
            "package demo;\n"
        ),
        query: References,
        expected: "
            src/main/java/demo/Parser.java:12 call in Tokeniser.all scope
            src/main/java/demo/Parser.java:12 call in Tokeniser.all scope
        ",
    },
    Case {
        name: "java_field_and_method_of_one_name",
        fixture: java_project!(
            r#"package demo;

public class Counter {
    int size;

    int size() { return size; }
}
"#,
            "package demo;\n\nclass Run {\n    int use(Counter c) { return c.si$0ze(); }\n}\n"
        ),
        query: Definition,
        expected: "src/main/java/demo/Parser.java:6 Counter.size qualified",
    },
    Case {
        name: "java_implementations_of_an_interface",
        fixture: java_project!(
            java_parser!("parse", "IPa$0rser"),
            "package demo;\n\nclass Other implements IParser {\n    public int parse() { return 1; }\n}\n"
        ),
        query: Implementations,
        expected: "
            src/main/java/demo/Parser.java:3 Parser IMPLEMENTS 1
            src/main/java/demo/Run.java:3 Other IMPLEMENTS 1
        ",
    },
    Case {
        name: "java_import_of_a_class_of_another_package",
        fixture: concat!(
            "//- src/main/java/demo/model/Shape.java\npackage demo.model;\n\npublic class Shape {\n    public double area() { return 0; }\n}\n",
            "//- src/main/java/demo/legacy/Shape.java\npackage demo.legacy;\n\npublic class Shape {\n    public double area() { return 1; }\n}\n",
            "//- src/main/java/demo/app/Main.java\npackage demo.app;\n\nimport demo.model.Shape;\n\nclass Main {\n    double use(Sh$0ape s) { return s.area(); }\n}\n",
        ),
        query: Definition,
        expected: "src/main/java/demo/model/Shape.java:3 Shape import",
    },
    Case {
        name: "java_static_import_of_a_method",
        fixture: concat!(
            "//- src/main/java/demo/util/Strings.java\npackage demo.util;\n\npublic final class Strings {\n    public static String join(String a, String b) { return a + b; }\n}\n",
            "//- src/main/java/demo/app/Main.java\npackage demo.app;\n\nimport static demo.util.Strings.join;\n\nclass Main {\n    String use() { return jo$0in(\"a\", \"b\"); }\n}\n",
        ),
        query: Definition,
        expected: "src/main/java/demo/util/Strings.java:4 Strings.join import",
    },
    Case {
        // `import static a.B.*;` brings in every static member of `B`.
        name: "java_static_import_of_all_members",
        fixture: concat!(
            "//- src/main/java/demo/util/Strings.java\npackage demo.util;\n\npublic final class Strings {\n    public static String join(String a, String b) { return a + b; }\n}\n",
            "//- src/main/java/demo/app/Main.java\npackage demo.app;\n\nimport static demo.util.Strings.*;\n\nclass Main {\n    String use() { return jo$0in(\"a\", \"b\"); }\n}\n",
        ),
        query: Definition,
        expected: "src/main/java/demo/util/Strings.java:4 Strings.join import",
    },
    Case {
        name: "java_import_of_a_nested_type",
        fixture: concat!(
            "//- src/main/java/demo/model/Order.java\npackage demo.model;\n\npublic class Order {\n    public static class Item {\n        public long cents() { return 1; }\n    }\n}\n",
            "//- src/main/java/demo/app/Main.java\npackage demo.app;\n\nimport demo.model.Order.Item;\n\nclass Main {\n    long use(It$0em i) { return i.cents(); }\n}\n",
        ),
        query: Definition,
        expected: "src/main/java/demo/model/Order.java:4 Order.Item import",
    },
    // An anonymous class's members, its supertype's included, shadow the
    // locals around it: `name` inside `new Field() { .. }` is the field
    // `Field.name`, not the enclosing method's parameter; a name only the
    // method declares is still its parameter.
    Case {
        name: "java_anonymous_class_field_shadows_the_enclosing_parameter",
        fixture: concat!(
            "//- src/main/java/demo/Field.java\npackage demo;\n\nabstract class Field {\n    String name;\n    String label() { return name; }\n    abstract void write(StringBuilder out);\n}\n",
            "//- src/main/java/demo/Make.java\npackage demo;\n\nclass Make {\n    Field make(String name, int n) {\n        return new Field() {\n            void write(StringBuilder out) { out.append(na$0me); }\n        };\n    }\n}\n",
        ),
        query: Definition,
        expected: "src/main/java/demo/Field.java:4 Field.name scope",
    },
    Case {
        name: "java_anonymous_class_calls_its_supertypes_method_bare",
        fixture: concat!(
            "//- src/main/java/demo/Field.java\npackage demo;\n\nabstract class Field {\n    String name;\n    String label() { return name; }\n    abstract void write(StringBuilder out);\n}\n",
            "//- src/main/java/demo/Make.java\npackage demo;\n\nclass Make {\n    String label() { return \"\"; }\n    Field make() {\n        return new Field() {\n            void write(StringBuilder out) { out.append(lab$0el()); }\n        };\n    }\n}\n",
        ),
        query: Definition,
        expected: "src/main/java/demo/Field.java:5 Field.label scope",
    },
    Case {
        name: "java_anonymous_class_reads_a_captured_parameter",
        fixture: concat!(
            "//- src/main/java/demo/Field.java\npackage demo;\n\nabstract class Field {\n    String name;\n    String label() { return name; }\n    abstract void write(StringBuilder out);\n}\n",
            "//- src/main/java/demo/Make.java\npackage demo;\n\nclass Make {\n    Field make(String name, int n) {\n        return new Field() {\n            void write(StringBuilder out) { out.append(n$0); }\n        };\n    }\n}\n",
        ),
        query: Definition,
        expected: "src/main/java/demo/Make.java:4 n scope",
    },
    // The field's references include the bare read in the anonymous
    // class; the parameter's do not.
    Case {
        name: "java_anonymous_class_field_read_is_a_reference_of_the_field",
        fixture: concat!(
            "//- src/main/java/demo/Field.java\npackage demo;\n\nabstract class Field {\n    String na$0me;\n}\n",
            "//- src/main/java/demo/Make.java\npackage demo;\n\nclass Make {\n    Field make(String name) {\n        return new Field() {\n            String label() { return name; }\n        };\n    }\n}\n",
        ),
        query: References,
        expected: "src/main/java/demo/Make.java:6 reference in Make.make.<anonymous Field>.label scope",
    },
    Case {
        name: "java_parameter_shadowed_in_an_anonymous_class_is_not_read_there",
        fixture: concat!(
            "//- src/main/java/demo/Field.java\npackage demo;\n\nabstract class Field {\n    String name;\n}\n",
            "//- src/main/java/demo/Make.java\npackage demo;\n\nclass Make {\n    Field make(String na$0me) {\n        name.length();\n        return new Field() {\n            String label() { return name; }\n        };\n    }\n}\n",
        ),
        query: References,
        expected: "src/main/java/demo/Make.java:5 reference in Make.make scope",
    },
    // `super.write(out)` in a class overriding `write`: its superclass's.
    Case {
        name: "java_super_call_is_the_superclass_member_not_the_override",
        fixture: concat!(
            "//- src/main/java/demo/Base.java\npackage demo;\n\nclass Base {\n    void write(String out) {}\n}\n",
            "//- src/main/java/demo/Child.java\npackage demo;\n\nclass Child extends Base {\n    @Override\n    void write(String out) { super.wr$0ite(out); }\n}\n",
        ),
        query: Definition,
        expected: "src/main/java/demo/Base.java:4 Base.write qualified",
    },
    // `new Field(name) { .. }`: the arguments are outside the body.
    Case {
        name: "java_anonymous_class_arguments_are_read_outside_its_body",
        fixture: concat!(
            "//- src/main/java/demo/Field.java\npackage demo;\n\nabstract class Field {\n    String name;\n    Field(String name) { this.name = name; }\n}\n",
            "//- src/main/java/demo/Make.java\npackage demo;\n\nclass Make {\n    Field make(String name) {\n        return new Field(na$0me) {\n            String label() { return name; }\n        };\n    }\n}\n",
        ),
        query: Definition,
        expected: "src/main/java/demo/Make.java:4 name scope",
    },
];

pub const PYTHON: &[Case] = &[
    Case {
        // An element of an annotated sequence (indexed, a `for` variable,
        // a comprehension's, read before its `for`) has the element's
        // type: `send` is `Client`'s, not `Other`'s of the same name. A
        // slice is a part, not one.
        name: "python_elements_of_sequences_have_the_element_type",
        fixture: concat!(
            "//- pyproject.toml\n[project]\nname = \"pkg\"\n",
            "//- pkg/__init__.py\n",
            "//- pkg/client.py\nclass Client:\n    def se$0nd(self):\n        return 1\n\n\nclass Other:\n    def send(self):\n        return 2\n",
            "//- pkg/app.py\nfrom typing import Optional, Sequence\n\nfrom pkg.client import Client\n\n\n",
            "def run(clients: list[Client], more: Optional[Sequence[Client]]):\n",
            "    clients[0].send()\n",
            "    for c in more:\n        c.send()\n",
            "    return [m.send() for m in clients] + clients[1:].send()\n",
        ),
        query: References,
        expected: "
            pkg/app.py:7 call in run qualified
            pkg/app.py:9 call in run qualified
            pkg/app.py:10 call in run qualified
            pkg/app.py:10 call in run name_only
        ",
    },
    Case {
        // A read narrowed by a guard function (`-> TypeIs[T]`, imported
        // under another name) asserted before it, or by `isinstance` around
        // it, or by a guard whose failing leaves the function, has the
        // narrowed type: `url` is `ReadyRequest`'s there, and
        // `Request`'s before the assert and after a call of a function that
        // is no guard.
        name: "python_asserted_guards_and_isinstance_narrow_a_reads_type",
        fixture: concat!(
            "//- pyproject.toml\n[project]\nname = \"pkg\"\n",
            "//- pkg/__init__.py\n",
            "//- pkg/models.py\nclass Request:\n    url: str = \"\"\n\n\nclass ReadyRequest(Request):\n    u$0rl: str = \"\"\n",
            "//- pkg/guards.py\nfrom typing import TypeIs\n\nfrom pkg.models import ReadyRequest, Request\n\n\n",
            "def is_ready(request: Request) -> TypeIs[ReadyRequest]:\n    return True\n\n\n",
            "def check(request: Request) -> bool:\n    return True\n",
            "//- pkg/app.py\nfrom pkg.guards import check, is_ready as _is_ready\nfrom pkg.models import ReadyRequest, Request\n\n\n",
            "def send(req: Request, other: Request):\n",
            "    print(req.url)\n",
            "    assert _is_ready(req)\n",
            "    print(req.url)\n",
            "    assert check(other)\n",
            "    print(other.url)\n",
            "    if isinstance(other, ReadyRequest):\n",
            "        print(other.url)\n",
            "\n\ndef retry(req: Request):\n",
            "    if not _is_ready(req):\n        raise ValueError()\n",
            "    print(req.url)\n",
        ),
        query: References,
        expected: "
            pkg/app.py:8 reference in send qualified
            pkg/app.py:12 reference in send qualified
            pkg/app.py:18 reference in retry qualified
        ",
    },
    Case {
        // A reference inside code a Cargo feature gates says so; both cfg
        // branches are indexed, and an item declared in a function body
        // resolves from that block.
        name: "rust_references_in_feature_gated_code_say_so",
        fixture: concat!(
            "//- Cargo.toml\n[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[features]\nfast = []\n",
            "//- src/lib.rs\n",
            "pub fn r$0un() -> u32 {\n",
            "    #[cfg(feature = \"fast\")]\n    fn imp() -> u32 {\n        1\n    }\n",
            "    #[cfg(not(feature = \"fast\"))]\n    fn imp() -> u32 {\n        2\n    }\n",
            "    imp()\n",
            "}\n\n",
            "#[cfg(feature = \"fast\")]\n// a comment between\n#[inline]\npub fn only_fast() -> u32 {\n    run()\n}\n\n",
            "#[cfg(all(feature = \"fast\", not(test)))]\npub mod fast {\n    pub fn twice() -> u32 {\n        crate::run() * 2\n    }\n}\n\n",
            "#[cfg(test)]\nmod tests {\n    #[test]\n    fn runs() {\n        let n = super::run();\n        assert!(n > 0);\n    }\n}\n",
        ),
        query: References,
        expected: r#"
            src/lib.rs:17 call in only_fast scope when feature = "fast"
            src/lib.rs:23 call in twice qualified when all(feature = "fast", not(test))
            src/lib.rs:31 call in runs qualified
        "#,
    },
    Case {
        // A module variable assigned what a function returns, imported by
        // another module: its method.
        name: "python_a_module_variable_has_the_type_of_its_value",
        fixture: concat!(
            "//- pyproject.toml\n[project]\nname = \"pkg\"\n",
            "//- pkg/__init__.py\n",
            "//- pkg/client.py\nclass Client:\n    def send(self):\n        return 1\n\n\ndef make_client() -> Client:\n    return Client()\n\n\ndefault = make_client()\n",
            "//- pkg/app.py\nfrom pkg.client import default\n\n\ndef run():\n    return default.se$0nd()\n",
        ),
        query: Definition,
        expected: "pkg/client.py:2 Client.send qualified",
    },
    Case {
        // `super().run()` in a class overriding `run`: the base's, reached
        // through the first base the class lists and its own bases.
        name: "python_super_reaches_the_bases_member_not_the_override",
        fixture: concat!(
            "//- pyproject.toml\n[project]\nname = \"pkg\"\n",
            "//- pkg/__init__.py\n",
            "//- pkg/base.py\nclass Base:\n    def run(self):\n        return 1\n\n\nclass Mid(Base):\n    pass\n",
            "//- pkg/child.py\nfrom pkg.base import Mid\n\n\nclass Child(Mid):\n    def run(self):\n        return super().r$0un() + 1\n",
        ),
        query: Definition,
        expected: "pkg/base.py:2 Base.run qualified",
    },
];
