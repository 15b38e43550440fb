//! Plugin ABI versions: the host loads components built against the
//! current ABI and the one before it (0.16.0: the hostile test plugin,
//! kept as built in `tests/fixtures/abi-0.16.0/`, which cannot write out a
//! shorthand),
//! and refuses an older one (0.6.0, kept in `tests/fixtures/abi-0.6.0/` for
//! that) with a message naming the versions it supports; the built-in plugins state their own policy, entry points
//! and tokens; and the walk follows each plugin's skip-dirs.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use lingo::model::{LanguagePolicy, ModuleLayout, NameRule, TypeAnnotationPosition};
use lingo::runtime::{ABI_VERSION, Limits, PluginRegistry, RuntimeConfig, SUPPORTED_ABI};
use lingo::workspace::Workspace;

fn component_0_6_0() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/abi-0.6.0/hostile.wasm")
}

fn component_0_16_0() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/abi-0.16.0/hostile.wasm")
}

fn registry(extra_plugins: Vec<PathBuf>, include_built_in: bool) -> PluginRegistry {
    PluginRegistry::load(&RuntimeConfig {
        extra_plugins,
        include_built_in,
        cache_dir: Some(Path::new(env!("CARGO_TARGET_TMPDIR")).join("lingo-cache")),
        limits: Limits::default(),
        extension_owners: Default::default(),
        compilation: Default::default(),
    })
    .expect("a registry")
}

/// A fresh directory under the test target dir holding `files`.
fn workspace_dir(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&root);
    for (path, contents) in files {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, contents).unwrap();
    }
    root
}

#[test]
fn the_host_supports_the_current_abi_and_the_one_before() {
    assert_eq!(ABI_VERSION, "0.17.0");
    assert_eq!(SUPPORTED_ABI, ["0.17.0", "0.16.0"]);
}

#[test]
fn a_component_built_against_an_older_abi_is_refused_naming_the_supported_ones() {
    let registry = registry(vec![component_0_6_0()], true);
    let failures = registry.failures();
    assert_eq!(failures.len(), 1, "{failures:?}");
    let message = &failures[0].message;
    assert_eq!(failures[0].code, "PLUGIN_ABI_MISMATCH", "{message}");
    assert!(
        message.contains("built against plugin ABI 0.6.0")
            && message.contains("supports 0.17.0, 0.16.0"),
        "{message}"
    );
    // The built-in plugins load beside it; nothing claims its files.
    assert!(registry.for_path(Path::new("src/lib.rs")).is_some());
    assert!(registry.for_path(Path::new("a.calm")).is_none());
}

#[test]
fn a_component_built_against_abi_0_16_0_loads_and_cannot_write_out_a_shorthand() {
    let registry = registry(vec![component_0_16_0()], false);
    assert!(registry.failures().is_empty(), "{:?}", registry.failures());
    let plugin = registry
        .for_path(Path::new("a.calm"))
        .expect("the 0.16.0 plugin claims .calm");
    assert_eq!(plugin.info().abi_version, "0.16.0");
    // What 0.16.0 says of its policy arrives (its thousand bodiless
    // modifiers cut to the cap, its conversions checked, its empty and
    // 600,000-byte static modifiers dropped).
    let policy = &plugin.info().policy;
    assert_eq!(policy.bodiless_modifiers.len(), 256);
    assert_eq!(policy.static_modifiers, ["static"]);
    assert_eq!(policy.conversions.top_types, ["object"]);
    // It answers what 0.16.0 has: tokens, declarers, the macros it defines
    // and leaves unexpanded, tuple elements, parameter lists, values of
    // declarations, elements of collections, narrowings, parameter
    // contexts...
    assert_eq!(plugin.tokens("a.range", "rangé\n").unwrap().len(), 5);
    assert!(plugin.module_declarers("a.range").unwrap().len() <= 16);
    let facts = plugin.analyze("a.range", "rangé\n", &[]).unwrap();
    assert!(!facts.macro_definitions.is_empty());
    assert!(!facts.locals.is_empty());
    assert!(!facts.parameter_lists.is_empty());
    assert!(
        (facts.references.iter().filter_map(|r| r.receiver)).any(|r| r.indexed),
        "an indexed receiver"
    );
    assert!(!facts.narrowings.is_empty());
    assert!(!facts.parameter_contexts.is_empty());
    // ...and type arguments and type parameters...
    assert!(
        facts.declared_types.iter().any(|d| !d.arguments.is_empty()),
        "{:?}",
        facts.declared_types
    );
    // ...but it cannot write out a shorthand.
    let error = plugin
        .write_out_shorthand("a.range", "rangé\n", &facts.references[0].span, "a", "b")
        .unwrap_err();
    assert_eq!(error.code(), "UNSUPPORTED", "{error}");
}

#[test]
fn the_current_hostile_plugins_parameter_and_argument_types_are_checked() {
    let hostile = Path::new(lingo::runtime::artifact_dir()).join("lingo_plugin_hostile.wasm");
    let registry = registry(vec![hostile], false);
    let plugin = registry.for_path(Path::new("a.range")).unwrap();
    // The policy's conversions: empty and oversized names dropped, lists
    // cut to the cap.
    let conversions = &plugin.info().policy.conversions;
    assert_eq!(conversions.top_types, ["object"]);
    // The static modifiers: the empty and the 600,000-byte one dropped.
    assert_eq!(plugin.info().policy.static_modifiers, ["static"]);
    assert_eq!(conversions.widening.len(), 1);
    assert_eq!(conversions.widening[0].0, "int");
    assert_eq!(conversions.widening[0].1.len(), 256);
    let source = "rangé\n";
    let facts = plugin.analyze("a.range", source, &[]).unwrap();
    let stated_values = facts.symbol_values.len();
    let (checked, report) =
        lingo::validate::check(facts, source, &lingo::validate::FactLimits::default());
    // A function out of range is dropped, the one listed twice kept once
    // (its unnamed type made uncomparable); no list is longer than the cap.
    assert!(
        checked
            .parameter_lists
            .iter()
            .all(|l| (l.function as usize) < checked.symbols.len() && l.types.len() <= 256),
        "{:?}",
        checked.parameter_lists
    );
    assert!(checked.parameter_lists.len() <= 1);
    // Arguments of a call out of range, or of a reference that is no call
    // with that many arguments, are dropped.
    assert!(checked.call_arguments.iter().all(|c| {
        checked.references.get(c.call as usize).is_some_and(|r| {
            r.kind == lingo::model::ReferenceKind::Call
                && r.arguments.get() == Some(c.values.len() as u32)
        })
    }));
    let rules = report.rules().join("; ");
    assert!(
        rules.contains("parameter list function index out of range"),
        "{rules}"
    );
    assert!(rules.contains("call arguments not of a call"), "{rules}");
    // Values of symbols out of range, naming references out of range, given
    // twice or a mebibyte deep are dropped.
    assert_eq!(stated_values, 3);
    assert!(checked.symbol_values.iter().all(|v| {
        (v.symbol as usize) < checked.symbols.len()
            && (v.value.reference as usize) < checked.references.len()
            && v.element.len() <= 8
    }));
    assert!(checked.symbol_values.len() <= 1);
    assert!(
        rules.contains("symbol value index out of range or element too deep"),
        "{rules}"
    );
    // Narrowings naming references out of range, a read narrowing itself
    // and a read given twice are dropped.
    assert!(checked.narrowings.iter().all(|n| {
        (n.value as usize) < checked.references.len()
            && (n.by as usize) < checked.references.len()
            && n.value != n.by
    }));
    assert!(checked.narrowings.len() <= 1, "{:?}", checked.narrowings);
    assert!(rules.contains("narrowing index out of range"), "{rules}");
    assert!(rules.contains("narrowing given twice"), "{rules}");
    // Parameter contexts out of range, a member that is its own function,
    // without positions or with a mebibyte of them, and a target given
    // twice are dropped.
    assert!(checked.parameter_contexts.iter().all(|c| {
        let target_ok = match c.target {
            lingo::model::ContextTarget::Member(index) => {
                (index as usize) < checked.references.len() && index != c.function.reference
            }
            lingo::model::ContextTarget::Local(index) => (index as usize) < checked.locals.len(),
        };
        target_ok
            && (c.function.reference as usize) < checked.references.len()
            && (1..=8).contains(&c.parameters.len())
    }));
    assert!(
        checked.parameter_contexts.len() <= 1,
        "{:?}",
        checked.parameter_contexts
    );
    assert!(
        rules.contains("parameter context index out of range or positions too many"),
        "{rules}"
    );
    // 100,000 type arguments, each its own parent, are dropped with the
    // type kept; a type parameter without a position is dropped.
    let many: Vec<_> = checked
        .declared_types
        .iter()
        .filter(|d| d.type_name == "Many")
        .collect();
    assert_eq!(many.len(), 1, "{:?}", checked.declared_types);
    assert!(many[0].arguments.is_empty());
    assert!(
        rules.contains("declared type arguments malformed"),
        "{rules}"
    );
    // A member path 100,000 names deep drops its type.
    assert!(checked.declared_types.iter().all(|d| d.type_name != "Deep"));
    assert!(
        rules.contains("declared type member path malformed"),
        "{rules}"
    );
    assert!(
        rules.contains("type parameter without exactly one position"),
        "{rules}"
    );
}

#[test]
fn the_current_hostile_plugins_macros_are_checked() {
    let hostile = Path::new(lingo::runtime::artifact_dir()).join("lingo_plugin_hostile.wasm");
    let registry = registry(vec![hostile], false);
    let limits = lingo::validate::FactLimits::default();
    let plugin = registry.for_path(Path::new("a.range")).unwrap();
    // Spans beyond the text, reversed, inside a character, on line
    // u32::MAX, an empty name: repaired or dropped; the good one stays.
    let source = "rangé\n";
    let facts = plugin.analyze("a.range", source, &[]).unwrap();
    let (checked, report) = lingo::validate::check(facts, source, &limits);
    let kept: Vec<&str> = checked
        .macro_definitions
        .iter()
        .map(|d| d.name.as_str())
        .collect();
    assert!(kept.contains(&"whole"), "{kept:?}");
    assert!(!kept.contains(&""), "{kept:?}");
    assert!(
        checked
            .macro_definitions
            .iter()
            .all(|d| d.span.start.offset < d.span.end.offset
                && source.is_char_boundary(d.span.end.offset as usize)),
        "{:?}",
        checked.macro_definitions
    );
    assert!(
        report
            .broken_rules()
            .iter()
            .any(|r| r.contains("macro definition")),
        "{report:?}"
    );
    // An unknown reason is `unsupported`, never trusted as more.
    assert!(
        checked
            .unexpanded_macros
            .iter()
            .any(|u| u.name == "max" && u.reason == lingo::model::UnexpandedReason::Unsupported)
    );
    // A plugin refusing the definitions handed to it still answers.
    let given = [lingo::model::MacroSource {
        name: "m".into(),
        path: "b.range".into(),
        text: "m".repeat(1 << 16),
    }];
    let facts = plugin
        .analyze_expanding("a.range", source, &[], &given)
        .unwrap();
    assert_eq!(
        facts.macros_given,
        [("m".to_string(), "b.range".to_string())]
    );
    // Names a mebibyte long are cut to the name limit.
    let facts = plugin.analyze("a.longstr", "x\n", &[]).unwrap();
    let (checked, _) = lingo::validate::check(facts, "x\n", &limits);
    assert!(!checked.macro_definitions.is_empty());
    assert!(
        checked
            .macro_definitions
            .iter()
            .all(|d| d.name.len() <= limits.max_name_bytes)
    );
    assert!(
        checked
            .unexpanded_macros
            .iter()
            .all(|u| u.name.len() <= limits.max_name_bytes)
    );
}

#[test]
fn the_current_hostile_plugins_tokens_are_checked() {
    let hostile = Path::new(lingo::runtime::artifact_dir()).join("lingo_plugin_hostile.wasm");
    let registry = registry(vec![hostile], false);
    let plugin = registry.for_path(Path::new("a.range")).unwrap();
    let source = "rangé\n";
    let tokens = plugin.tokens("a.range", source).unwrap();
    assert_eq!(tokens.len(), 5);
    // Ten thousand declarers of a new module and a huge one: a few kept.
    let declarers = plugin.module_declarers("a.range").unwrap();
    assert!(
        declarers.len() <= 16 && declarers.iter().all(|d| d.len() <= 4096),
        "{}",
        declarers.len()
    );
    let (kept, report) = lingo::validate::check_tokens(tokens, source);
    // Only the first token lying in the text survives; the ones before it
    // break the rules, and the two after it overlap it.
    assert_eq!(kept.len(), 1, "{kept:?}");
    assert_eq!((kept[0].start, kept[0].end), (0, source.len() as u32));
    let rules = report.broken_rules().join("; ");
    assert!(rules.contains("outside the file"), "{rules}");
    assert!(rules.contains("out of order"), "{rules}");
    // Its unreachable spans: at most one per line of the file (two here),
    // repaired into the text, the empty ones left dropped.
    let spans = plugin.unreachable("a.range", source).unwrap();
    assert_eq!(spans.len(), 5);
    let (kept, report) = lingo::validate::check_unreachable(spans, source);
    let rules = report.rules().join("; ");
    assert!(
        rules.contains("more unreachable spans than lines"),
        "{rules}"
    );
    assert!(
        rules.contains("offset beyond the end of the file"),
        "{rules}"
    );
    assert!(
        kept.iter()
            .all(|s| s.start.offset < s.end.offset && s.end.offset as usize <= source.len()),
        "{kept:?}"
    );
    // With room for all five, the whole-file one is the only one left.
    let many_lines = "rangé\n\n\n\n\n\n";
    let spans = plugin.unreachable("a.range", many_lines).unwrap();
    let (kept, _) = lingo::validate::check_unreachable(spans, many_lines);
    assert_eq!(kept.len(), 1, "{kept:?}");
    assert_eq!(kept[0].end.offset as usize, many_lines.len());
}

#[test]
fn the_built_in_plugins_lex_their_languages() {
    use lingo::model::TokenKind;
    let registry = registry(Vec::new(), true);
    let cases = [
        ("a.rs", "// TODO: x\nfn f() -> u8 { 1 }\n"),
        ("a.go", "package a\n// TODO: x\nfunc f() int { return 1 }\n"),
        ("a.ts", "// TODO: x\nfunction f(): number { return 1; }\n"),
        ("a.cs", "// TODO: x\nclass C { int f() { return 1; } }\n"),
    ];
    for (path, source) in cases {
        let plugin = registry.for_path(Path::new(path)).unwrap();
        assert!(plugin.info().has_capability("tokens"), "{path}");
        let (tokens, report) =
            lingo::validate::check_tokens(plugin.tokens(path, source).unwrap(), source);
        assert!(report.is_clean(), "{path}: {report:?}");
        let text = |kind| {
            tokens
                .iter()
                .filter(|t| t.kind == kind)
                .map(|t| &source[t.start as usize..t.end as usize])
                .collect::<Vec<_>>()
        };
        assert_eq!(text(TokenKind::Comment), ["// TODO: x"], "{path}");
        assert_eq!(text(TokenKind::Literal), ["1"], "{path}");
        assert!(text(TokenKind::Identifier).contains(&"f"), "{path}");
        assert!(
            text(TokenKind::Keyword).contains(&"return") || path == "a.rs",
            "{path}"
        );
    }
}

#[test]
fn the_current_hostile_plugins_entry_points_are_checked() {
    let hostile = Path::new(lingo::runtime::artifact_dir()).join("lingo_plugin_hostile.wasm");
    let registry = registry(vec![hostile], false);
    let plugin = registry.for_path(Path::new("a.range")).unwrap();
    assert_eq!(plugin.info().abi_version, ABI_VERSION);
    let facts = plugin.analyze("a.range", "range\n", &[]).unwrap();
    let (checked, report) =
        lingo::validate::check(facts, "range\n", &lingo::validate::FactLimits::default());
    let entry_points = checked.entry_points.expect("the capability is claimed");
    // Out of range and listed twice: only the first entry of symbol 0 stays.
    assert_eq!(entry_points.len(), 1, "{entry_points:?}");
    assert_eq!(entry_points[0].symbol, 0);
    assert!(format!("{report:?}").contains("entry point"), "{report:?}");
}

#[test]
fn a_current_plugin_answers_the_move_operations() {
    let registry = registry(Vec::new(), true);
    let plugin = registry.for_path(Path::new("a.rs")).unwrap();
    let source = "/// Doc.\n#[derive(Debug)]\nstruct S;\n\nfn f() {}\n";
    let facts = plugin.analyze("src/lib.rs", source, &[]).unwrap();
    let s = facts.symbols.iter().find(|s| s.name == "S").unwrap();
    let (from, to) = plugin
        .declaration_extent("src/lib.rs", source, &s.span)
        .unwrap();
    assert_eq!(
        &source[from as usize..to as usize],
        "/// Doc.\n#[derive(Debug)]\nstruct S;\n\n"
    );
    let edits = plugin
        .place_declaration(
            ("src/lib.rs", source),
            &s.span,
            ("src/b.rs", "fn g() {}\n"),
            "c::b",
        )
        .unwrap();
    assert_eq!(edits.len(), 1);
    assert_eq!(
        edits[0].2,
        "\n/// Doc.\n#[derive(Debug)]\npub(crate) struct S;\n"
    );
    let module = |path: &str| lingo::model::ModuleIdentity {
        path: path.into(),
        crate_or_package: Some("c".into()),
    };
    assert_eq!(
        plugin
            .import_specifier(&module("c::a"), &module("c::b"), &[])
            .unwrap(),
        "crate::b"
    );
}

#[test]
fn built_in_plugins_state_their_policy() {
    let registry = registry(Vec::new(), true);
    let policy = |file: &str| {
        let plugin = registry.for_path(Path::new(file)).unwrap();
        assert_eq!(plugin.info().abi_version, ABI_VERSION, "{file}");
        plugin.info().policy.clone()
    };
    let rule = |names: &[&str], prefixes: &[&str]| NameRule {
        names: names.iter().map(|s| s.to_string()).collect(),
        prefixes: prefixes.iter().map(|s| s.to_string()).collect(),
    };
    let unused = |policy: &LanguagePolicy| {
        (
            policy.unused_locals.clone(),
            policy.unused_declarations.clone(),
            policy.bodiless_modifiers.clone(),
        )
    };
    let strings = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    // What each language calls unused on purpose, and its bodiless modifiers.
    for (file, locals, declarations, bodiless) in [
        ("a.rs", rule(&[], &["_"]), rule(&[], &["_"]), strings(&[])),
        (
            "a.go",
            rule(&["_"], &["_"]),
            rule(&["_"], &[]),
            strings(&[]),
        ),
        (
            "a.ts",
            rule(&["this"], &["_"]),
            rule(&[], &[]),
            strings(&["abstract", "declare"]),
        ),
        (
            "a.cs",
            rule(&["_"], &["_"]),
            rule(&[], &[]),
            strings(&["abstract", "extern"]),
        ),
        (
            "a.py",
            rule(&["self", "cls"], &["_"]),
            rule(&["_"], &[]),
            strings(&[]),
        ),
    ] {
        assert_eq!(
            unused(&policy(file)),
            (locals, declarations, bodiless),
            "{file}"
        );
    }
    let expect =
        |file: &str, skip: &[&str], bare: bool, annotation, module_layout| LanguagePolicy {
            skip_dirs: skip.iter().map(|s| s.to_string()).collect(),
            bare_names_reach_members: bare,
            type_annotation: annotation,
            cyclic_imports: module_layout != FolderPerModule,
            enclosing_modules_visible: module_layout == DeclaredInText,
            // Every built-in language but Rust (the one whose files are modules
            // once declared) gives a type's fields and methods one namespace.
            members_share_one_namespace: module_layout != DeclaredFilePerModule,
            module_layout,
            unused_locals: policy(file).unused_locals,
            unused_declarations: policy(file).unused_declarations,
            bodiless_modifiers: policy(file).bodiless_modifiers,
            // Only Rust's nested modules see their parents' private items.
            private_reaches_nested_modules: module_layout == DeclaredFilePerModule,
            file_named_after_public_type: false,
            conversions: policy(file).conversions,
            // Only C# tells a member from a type of its name by the member
            // accessed (below).
            value_or_type: if file == "a.cs" {
                lingo::model::ValueOrType::ByMember
            } else {
                lingo::model::ValueOrType::Unstated
            },
            static_modifiers: policy(file).static_modifiers,
        };
    use ModuleLayout::{DeclaredFilePerModule, DeclaredInText, FilePerModule, FolderPerModule};
    use TypeAnnotationPosition::{AfterName, BeforeName};
    assert_eq!(
        policy("a.rs"),
        expect("a.rs", &["target"], false, AfterName, DeclaredFilePerModule)
    );
    assert_eq!(
        policy("a.go"),
        expect("a.go", &["vendor"], false, AfterName, FolderPerModule)
    );
    assert_eq!(
        policy("a.ts"),
        expect(
            "a.ts",
            &["node_modules", "dist", "build"],
            false,
            AfterName,
            FilePerModule
        )
    );
    assert_eq!(
        policy("a.cs"),
        expect("a.cs", &["bin", "obj"], true, BeforeName, DeclaredInText)
    );
    assert_eq!(
        policy("a.py"),
        expect(
            "a.py",
            &["__pycache__", "venv", "site-packages", "build", "dist"],
            false,
            AfterName,
            FilePerModule
        )
    );
    // Only Java names a file after its public type.
    assert!(policy("A.java").file_named_after_public_type);
    // A Java variable hides a type of its name; a C# one is told from the
    // type by whether the member accessed is static (or a constant).
    assert_eq!(
        policy("A.java").value_or_type,
        lingo::model::ValueOrType::Value
    );
    assert_eq!(policy("A.java").static_modifiers, ["static"]);
    assert_eq!(policy("a.cs").static_modifiers, ["static", "const"]);
    // C# and Java tell overloads apart by argument types: their rules are
    // nominal and list `int` widening to `long`; the others state none.
    for file in ["a.cs", "A.java"] {
        let rules = policy(file).conversions;
        assert!(rules.nominal && rules.widens("int", "long"), "{file}");
    }
    for file in ["a.rs", "a.go", "a.ts", "a.py"] {
        assert_eq!(policy(file).conversions, Default::default(), "{file}");
    }
    // No built-in plugin reports declared types yet; the fact is there.
    let facts = registry
        .for_path(Path::new("a.rs"))
        .unwrap()
        .analyze("src/lib.rs", "fn f(x: u32) -> u32 { x }\n", &[])
        .unwrap();
    assert!(facts.declared_types.is_empty());
}

#[test]
fn the_walk_skips_each_languages_own_folders() {
    let root = workspace_dir(
        "abi-policy-walk",
        &[
            (
                "Cargo.toml",
                "[package]\nname = \"w\"\nversion = \"0.1.0\"\n",
            ),
            ("src/lib.rs", "pub fn lib() {}\n"),
            // `bin` is C#'s output folder, not Rust's: indexed.
            ("src/bin/x.rs", "fn main() {}\n"),
            ("target/debug/build/gen.rs", "fn generated() {}\n"),
            ("app/App.csproj", "<Project Sdk=\"Microsoft.NET.Sdk\" />\n"),
            ("app/Program.cs", "class Program {}\n"),
            ("app/bin/Debug/Gen.cs", "class Gen {}\n"),
            ("app/obj/Gen.cs", "class Gen {}\n"),
            ("web/index.ts", "export const a = 1;\n"),
            ("web/node_modules/dep/index.ts", "export const b = 2;\n"),
            ("web/dist/index.js", "export const a = 1;\n"),
            ("go/vendor/dep/dep.go", "package dep\n"),
            ("go/main.go", "package main\n"),
            (".git/hooks/x.rs", "fn hook() {}\n"),
        ],
    );
    let workspace = Workspace::new(&root, Arc::new(registry(Vec::new(), true))).unwrap();
    workspace.refresh();
    let snapshot = workspace.snapshot();
    let files: Vec<&str> = snapshot.files.keys().map(String::as_str).collect();
    assert_eq!(
        files,
        [
            "app/Program.cs",
            "go/main.go",
            "src/bin/x.rs",
            "src/lib.rs",
            "web/index.ts"
        ]
    );
}
