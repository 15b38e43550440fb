//! A server's start on an empty cache: plugins serve from baseline (Winch)
//! code at once, optimized (Cranelift) code replaces it in the background
//! and is cached, and both give the same facts.

use std::path::{Path, PathBuf};
use std::time::Duration;

use lingo::runtime::{Compilation, LanguagePlugin, Limits, PluginRegistry, RuntimeConfig, Tier};

/// A cache directory of this test alone, empty.
fn empty_cache(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("tiered-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The built-in plugins, as a server (tiered) or a batch run loads them.
fn load(cache: &Path, compilation: Compilation) -> PluginRegistry {
    PluginRegistry::load(&RuntimeConfig {
        extra_plugins: vec![],
        include_built_in: true,
        cache_dir: Some(cache.to_path_buf()),
        limits: Limits::default(),
        extension_owners: Default::default(),
        compilation,
    })
    .expect("load the built-in plugins")
}

fn tier(plugin: &dyn LanguagePlugin) -> Option<Tier> {
    plugin.health().and_then(|health| health.code_tier)
}

fn tiers(registry: &PluginRegistry) -> Vec<(String, Option<Tier>)> {
    registry
        .plugins()
        .iter()
        .map(|plugin| (plugin.info().name.clone(), tier(plugin.as_ref())))
        .collect()
}

/// Only the plugins a workspace calls are compiled: the Rust one here.
fn only_rust(rust: Option<Tier>) -> Vec<(String, Option<Tier>)> {
    ["rust", "typescript", "csharp", "go", "python", "java"]
        .iter()
        .map(|name| (name.to_string(), if *name == "rust" { rust } else { None }))
        .collect()
}

#[test]
fn baseline_code_serves_first_and_optimized_code_replaces_it() {
    let cache = empty_cache("start");
    let source = include_str!("../../resolve/src/lib.rs");

    // Nothing is compiled before a call: the built-in plugins state who
    // they are.
    let registry = load(&cache, Compilation::Tiered);
    assert_eq!(tiers(&registry), only_rust(None));
    let plugin = registry.for_path(Path::new("src/lib.rs")).expect("rust");
    let baseline = plugin.analyze("src/lib.rs", source, &[]).expect("analyze");
    // (Optimized code takes seconds to compile: the call ran on baseline code.)
    assert_eq!(tiers(&registry), only_rust(Some(Tier::Baseline)));

    registry.wait_for_optimized_code(Duration::from_secs(120));
    assert_eq!(tiers(&registry), only_rust(Some(Tier::Optimized)));
    assert_eq!(plugin.health().expect("health").tier_up_failure, None);
    let optimized = plugin.analyze("src/lib.rs", source, &[]).expect("analyze");
    assert!(!optimized.symbols.is_empty());
    assert_eq!(
        format!("{baseline:?}"),
        format!("{optimized:?}"),
        "the two compilers' code gives the same facts"
    );

    // The optimized code was cached: the next server starts on it, and
    // so does a batch run.
    for compilation in [Compilation::Tiered, Compilation::Optimized] {
        let again = load(&cache, compilation);
        let plugin = again.for_path(Path::new("src/lib.rs")).expect("rust");
        plugin.analyze("src/lib.rs", source, &[]).expect("analyze");
        assert_eq!(tiers(&again), only_rust(Some(Tier::Optimized)));
    }
    let _ = std::fs::remove_dir_all(cache);
}

/// What each built-in plugin's `info()` answers is recorded beside its
/// source (`plugins/<folder>/info.json`) and embedded, so that a server
/// knows its languages without compiling them. `UPDATE_EXPECT=1` rewrites
/// a record that no longer matches.
#[test]
fn the_built_in_plugins_state_their_info_truly() {
    let records = [
        (
            "lingo_plugin_rust",
            expect_test::expect_file!["../../../plugins/rust/info.json"],
        ),
        (
            "lingo_plugin_typescript",
            expect_test::expect_file!["../../../plugins/typescript/info.json"],
        ),
        (
            "lingo_plugin_csharp",
            expect_test::expect_file!["../../../plugins/csharp/info.json"],
        ),
        (
            "lingo_plugin_go",
            expect_test::expect_file!["../../../plugins/go/info.json"],
        ),
        (
            "lingo_plugin_python",
            expect_test::expect_file!["../../../plugins/python/info.json"],
        ),
        (
            "lingo_plugin_java",
            expect_test::expect_file!["../../../plugins/java/info.json"],
        ),
    ];
    let cache = Path::new(env!("CARGO_TARGET_TMPDIR")).join("lingo-cache");
    for (stem, record) in records {
        let path = Path::new(lingo::runtime::artifact_dir()).join(format!("{stem}.wasm"));
        let wasm = std::fs::read(&path).expect("the plugin's component");
        // Compiled and asked, not stated.
        let plugin =
            lingo::runtime::WasmPlugin::load_shared(stem, &wasm, Some(&cache), Limits::default())
                .expect("load");
        let answered = serde_json::to_string_pretty(plugin.info()).expect("serialize") + "\n";
        record.assert_eq(&answered);
    }
}

/// A call that finds another call compiling its plugin waits within its
/// own request's budget: out of time, it says so while the compile goes
/// on, and the plugin then serves as usual.
#[test]
fn a_call_waiting_for_another_calls_compile_keeps_to_its_budget() {
    use lingo::budget::{Budget, Exhausted};
    use lingo::runtime::PluginError;

    let cache = empty_cache("wait");
    // Optimized code (Cranelift): seconds to compile.
    let registry = load(&cache, Compilation::Optimized);
    let plugin = registry.for_path(Path::new("src/lib.rs")).expect("rust");
    let source = "pub fn f() {}\n";
    std::thread::scope(|scope| {
        let first = scope.spawn(|| plugin.analyze("src/lib.rs", source, &[]));
        // Let the first call take the compile.
        std::thread::sleep(Duration::from_millis(300));
        let request = Budget::new(Some(Duration::from_millis(100)));
        let waited = request.scope(|| plugin.analyze("src/lib.rs", source, &[]));
        let still_compiling = tier(plugin.as_ref()).is_none();
        assert!(
            matches!(
                waited,
                Err(PluginError::Exhausted(Exhausted::DeadlineExceeded))
            ),
            "{waited:?}"
        );
        assert!(still_compiling, "the second call waited for the compile");
        let facts = first.join().expect("first call").expect("analyze");
        assert_eq!(facts.symbols.len(), 1);
    });
    assert_eq!(tier(plugin.as_ref()), Some(Tier::Optimized));
    assert!(plugin.analyze("src/lib.rs", source, &[]).is_ok());
}
