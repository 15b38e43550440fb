//! Source text, as any file on disk could hold it, through each built-in
//! plugin and the host's fact validation: parsing never fails, no plugin
//! traps, and the facts that come back already keep the host's rules.
//!
//! The inputs are token soups of each language's own punctuation and
//! keywords (so the parser reaches deep, broken, half-valid states), with
//! unbalanced nesting, non-ASCII text and control bytes. The number of
//! cases is fixed so the run stays within a small time budget.

use crate::common;

use std::path::Path;

use lingo::validate::{FactLimits, INVALID_OUTPUT_CODE, check};
use proptest::prelude::*;

use common::registry;

/// Tokens of every built-in language, plus text no grammar expects.
const TOKENS: &[&str] = &[
    "fn",
    "mod",
    "impl",
    "struct",
    "enum",
    "trait",
    "use",
    "pub",
    "let",
    "match",
    "macro_rules!",
    "function",
    "class",
    "interface",
    "namespace",
    "import",
    "export",
    "from",
    "const",
    "type",
    "package",
    "func",
    "var",
    "go",
    "defer",
    "using",
    "public",
    "static",
    "void",
    "new",
    "return",
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    "<",
    ">",
    ";",
    ",",
    ".",
    "::",
    "=>",
    "->",
    "=",
    ":",
    "?",
    "#",
    "@",
    "\"",
    "'",
    "`",
    "/*",
    "*/",
    "//",
    "///",
    "\n",
    " ",
    "\t",
    "x",
    "Foo",
    "é",
    "☃",
    "\u{0}",
    "\u{feff}",
    "\r",
    "0x1f",
    "1e9",
];

fn soup() -> impl Strategy<Value = String> {
    proptest::collection::vec(proptest::sample::select(TOKENS), 0..400)
        .prop_map(|tokens| tokens.join(" "))
}

/// A fixed number of cases from a fixed seed, so a run takes the same time
/// and a failure reproduces (`PROPTEST_RNG_SEED=<n>` explores other
/// inputs); shrinking is bounded, since a failing case may cost a plugin
/// time-out each time it is tried.
fn config() -> ProptestConfig {
    let seed = std::env::var("PROPTEST_RNG_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x6c696e676f);
    ProptestConfig {
        cases: 48,
        failure_persistence: None,
        rng_seed: proptest::test_runner::RngSeed::Fixed(seed),
        max_shrink_iters: 32,
        max_shrink_time: 60_000,
        ..ProptestConfig::default()
    }
}

/// Analyse `source` as `path` and check the plugin kept the host's rules.
fn assert_parses(path: &str, source: &str) {
    let plugin = registry()
        .for_path(Path::new(path))
        .unwrap_or_else(|| panic!("a plugin for {path}"));
    let facts = plugin
        .analyze(path, source, &[])
        .unwrap_or_else(|e| panic!("{path} failed on {source:?}: {e}"));
    let (checked, report) = check(facts, source, &FactLimits::default());
    assert!(
        report.broken.is_empty(),
        "{path}: the plugin broke the host's rules {:?} on {source:?}",
        report.rules()
    );
    assert!(
        !checked
            .diagnostics
            .iter()
            .any(|d| d.code == INVALID_OUTPUT_CODE)
    );
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn rust_never_fails(source in soup()) {
        assert_parses("src/lib.rs", &source);
    }

    #[test]
    fn typescript_never_fails(source in soup()) {
        assert_parses("src/index.ts", &source);
        assert_parses("src/view.tsx", &source);
    }

    #[test]
    fn go_never_fails(source in soup()) {
        assert_parses("pkg/main.go", &source);
    }

    #[test]
    fn csharp_never_fails(source in soup()) {
        assert_parses("src/Program.cs", &source);
    }

    #[test]
    fn java_never_fails(source in soup()) {
        assert_parses("src/a/Main.java", &source);
    }
}

/// Deep nesting of each language's constructs, as a generated file could
/// hold: the plugin answers (its own walks do not overflow the stack).
#[test]
fn deep_nesting_never_fails() {
    let depth = 5_000;
    let cases = [
        (
            "src/lib.rs",
            format!("{}fn f(){{}}{}", "mod m {".repeat(depth), "}".repeat(depth)),
        ),
        (
            "src/lib.rs",
            format!("fn f() {{ {} }}", "(".repeat(depth) + &")".repeat(depth)),
        ),
        (
            "src/index.ts",
            format!(
                "{}function f() {{}}{}",
                "namespace N {".repeat(depth),
                "}".repeat(depth)
            ),
        ),
        (
            "src/Program.cs",
            format!(
                "{}void M() {{}}{}",
                "class C {".repeat(depth),
                "}".repeat(depth)
            ),
        ),
        (
            "pkg/main.go",
            format!(
                "package main\nfunc f() {{ {} }}",
                "{".repeat(depth) + &"}".repeat(depth)
            ),
        ),
        (
            "src/a/Main.java",
            format!(
                "{}void m() {{ int x = {}1{}; }}{}",
                "class C {".repeat(depth),
                "(".repeat(depth),
                ")".repeat(depth),
                "}".repeat(depth)
            ),
        ),
    ];
    for (path, source) in cases {
        assert_parses(path, &source);
    }
}
