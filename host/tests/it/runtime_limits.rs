//! The plugin runtime's limits, against real components: a memory budget
//! for all instances together, a bounded pool, per-request deadlines and
//! cancellation, a circuit breaker per operation, trap reasons with the
//! plugin's panic message, deadlines that grow with the input, and deep
//! nesting that does not overflow the plugin's stack.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use lingo::budget::{Budget, Exhausted};
use lingo::runtime::{LanguagePlugin, Limits, PluginError, WasmPlugin};

const MIB: usize = 1 << 20;

/// Tests that measure the process's memory run alone.
static MEMORY_HEAVY: Mutex<()> = Mutex::new(());

fn cache_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("lingo-cache")
}

fn load(stem: &str, limits: Limits) -> WasmPlugin {
    let path = Path::new(lingo::runtime::artifact_dir()).join(format!("{stem}.wasm"));
    let wasm = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    WasmPlugin::load_shared(
        &path.display().to_string(),
        &wasm,
        Some(&cache_dir()),
        limits,
    )
    .unwrap_or_else(|e| panic!("load {stem}: {e}"))
}

fn hostile(limits: Limits) -> WasmPlugin {
    load("lingo_plugin_hostile", limits)
}

fn analyze(plugin: &WasmPlugin, path: &str) -> Result<(), PluginError> {
    plugin.analyze(path, "text", &[]).map(|_| ())
}

/// A `/proc/self/status` figure in KiB (`VmRSS`, `VmHWM`).
fn status_kib(field: &str) -> Option<usize> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[test]
fn concurrent_hungry_calls_stay_within_the_memory_budget_and_release_it() {
    let _alone = MEMORY_HEAVY.lock().unwrap_or_else(|p| p.into_inner());
    let limits = Limits {
        memory_bytes: 256 * MIB,
        total_memory_bytes: 512 * MIB,
        pool_size: 4,
        breaker_threshold: 0,
        ..Limits::default()
    };
    let plugin = Arc::new(hostile(limits));
    let budget = plugin.memory_budget().clone();
    // Reset the peak RSS (Linux: `5` clears VmHWM), then measure from here.
    let _ = std::fs::write("/proc/self/clear_refs", "5");
    let rss_before = status_kib("VmRSS:").unwrap_or(0);
    let started = Instant::now();
    let calls: Vec<_> = (0..32)
        .map(|i| {
            let plugin = plugin.clone();
            std::thread::spawn(move || analyze(&plugin, &format!("hungry{i}.oom")))
        })
        .collect();
    let results: Vec<_> = calls.into_iter().map(|c| c.join().unwrap()).collect();
    let elapsed = started.elapsed();
    for result in &results {
        let error = result.as_ref().expect_err("an unbounded allocation fails");
        assert_eq!(error.code(), "PLUGIN_OUT_OF_MEMORY", "{error}");
    }
    // Every growth was accounted before it was made: never beyond the budget.
    assert!(
        budget.peak() <= 512 * MIB,
        "peak {} MiB",
        budget.peak() >> 20
    );
    // 32 calls of at least 100 MiB each would be 3.2 GB without the budget.
    if let Some(peak) = status_kib("VmHWM:") {
        let grown_mib = peak.saturating_sub(rss_before) >> 10;
        eprintln!(
            "32 hungry calls: {elapsed:?}, budget peak {} MiB, process peak {} MiB above {} MiB",
            budget.peak() >> 20,
            grown_mib,
            rss_before >> 10
        );
        assert!(grown_mib < 1024, "the process grew by {grown_mib} MiB");
    }
    // Failed instances gave their memory back; the plugin still answers.
    assert_eq!(budget.used(), 0, "failed instances hold no memory");
    analyze(&plugin, "after.calm").unwrap();
    let health = plugin.health();
    assert!(health.idle_instances <= 4);
    assert!(health.instance_memory_bytes <= 4 * 64 * MIB);
    assert_eq!(health.failures["PLUGIN_OUT_OF_MEMORY"], 32);
    if let Some(rss) = status_kib("VmRSS:") {
        let kept_mib = rss.saturating_sub(rss_before) >> 10;
        assert!(
            kept_mib < 256,
            "the process keeps {kept_mib} MiB while idle"
        );
    }
}

#[test]
fn the_pool_keeps_at_most_its_size_of_idle_instances() {
    let plugin = Arc::new(hostile(Limits {
        pool_size: 2,
        ..Limits::default()
    }));
    let calls: Vec<_> = (0..8)
        .map(|i| {
            let plugin = plugin.clone();
            std::thread::spawn(move || {
                for _ in 0..5 {
                    analyze(&plugin, &format!("f{i}.calm")).unwrap();
                }
            })
        })
        .collect();
    for call in calls {
        call.join().unwrap();
    }
    let health = plugin.health();
    assert!(health.idle_instances <= 2, "{health:?}");
    assert!(health.healthy);
    // 40 calls, and the load's info() unless an earlier load cached it.
    assert!((40..=41).contains(&health.calls), "{health:?}");
}

#[test]
fn a_trap_names_its_kind_and_the_plugins_panic_message() {
    let plugin = hostile(Limits::default());
    let error = analyze(&plugin, "x.trap").unwrap_err();
    let PluginError::Trapped { reason, output, .. } = &error else {
        panic!("expected a trap, got {error:?}");
    };
    assert!(reason.starts_with("unreachable code reached"), "{reason}");
    assert!(
        reason.contains("panicked at") && reason.contains("hostile plugin traps on purpose"),
        "{reason}"
    );
    assert!(
        output.contains("hostile plugin traps on purpose"),
        "{output}"
    );
    assert!(error.to_string().contains("traps on purpose"), "{error}");
    assert_eq!(error.details()["reason"].as_str(), Some(reason.as_str()));
    // The next call gets a fresh instance and clean stderr.
    analyze(&plugin, "x.calm").unwrap();
}

#[test]
fn a_request_deadline_shortens_the_call_and_the_loss_is_noted() {
    let plugin = hostile(Limits {
        call_timeout: Duration::from_secs(30),
        ..Limits::default()
    });
    let request = Budget::new(Some(Duration::from_millis(300)));
    let started = Instant::now();
    let error = request.scope(|| analyze(&plugin, "x.loop")).unwrap_err();
    let elapsed = started.elapsed();
    assert!(
        matches!(error, PluginError::Exhausted(Exhausted::DeadlineExceeded)),
        "{error:?}"
    );
    assert!(elapsed < Duration::from_secs(3), "took {elapsed:?}");
    let (count, reasons) = request.losses();
    assert_eq!(count, 1);
    assert!(reasons[0].contains("time budget"), "{reasons:?}");
    // Out of time before the call: not made at all.
    let calls = plugin.health().calls;
    let error = request.scope(|| analyze(&plugin, "x.calm")).unwrap_err();
    assert_eq!(error.code(), "REQUEST_TIMEOUT");
    assert_eq!(plugin.health().calls, calls);
    // The request's deadline is not the plugin's fault.
    assert!(plugin.health().tripped.is_empty());
}

#[test]
fn cancelling_a_request_stops_its_running_plugin_call() {
    let plugin = hostile(Limits {
        call_timeout: Duration::from_secs(30),
        ..Limits::default()
    });
    let request = Budget::new(None);
    let canceller = {
        let request = request.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(200));
            request.cancel();
        })
    };
    let started = Instant::now();
    let error = request.scope(|| analyze(&plugin, "x.loop")).unwrap_err();
    canceller.join().unwrap();
    assert_eq!(error.code(), "REQUEST_CANCELLED", "{error}");
    assert!(started.elapsed() < Duration::from_secs(3));
    // Cancelled before the call: refused at once.
    let error = request.scope(|| analyze(&plugin, "x.calm")).unwrap_err();
    assert_eq!(error.code(), "REQUEST_CANCELLED");
    analyze(&plugin, "x.calm").unwrap();
}

#[test]
fn a_file_that_keeps_timing_out_fails_fast_until_its_trial_call() {
    let plugin = hostile(Limits {
        call_timeout: Duration::from_millis(200),
        breaker_threshold: 3,
        breaker_cooldown: Duration::from_millis(700),
        ..Limits::default()
    });
    for _ in 0..3 {
        let error = analyze(&plugin, "x.loop").unwrap_err();
        assert_eq!(error.code(), "PLUGIN_TIMEOUT", "{error}");
    }
    let started = Instant::now();
    let error = analyze(&plugin, "x.loop").unwrap_err();
    assert!(started.elapsed() < Duration::from_millis(100));
    let PluginError::Unavailable {
        operation, reason, ..
    } = &error
    else {
        panic!("expected a fast failure, got {error:?}");
    };
    assert_eq!(operation, "analyze");
    assert!(reason.contains("3 times in a row on `x.loop`"), "{reason}");
    let health = plugin.health();
    assert!(!health.healthy);
    assert_eq!(health.tripped.len(), 1);
    assert_eq!(health.tripped[0].operation, "analyze");
    assert_eq!(health.tripped[0].input.as_deref(), Some("x.loop"));
    assert_eq!(health.failures["PLUGIN_TIMEOUT"], 3);
    assert_eq!(health.failures["PLUGIN_UNAVAILABLE"], 1);
    // The last error is the plugin's own, not the fast failure.
    assert_eq!(health.last_error.as_ref().unwrap().code, "PLUGIN_TIMEOUT");
    let json = serde_json::to_value(&health).unwrap();
    assert_eq!(json["tripped"][0]["consecutiveFailures"], 3);
    // Other files, and other operations on the same file, still run.
    analyze(&plugin, "x.calm").unwrap();
    plugin.node_at("y.calm", "text", 0).unwrap();

    // After the cooldown one trial call is made; it fails again, and the
    // file fails fast again at once.
    std::thread::sleep(Duration::from_millis(800));
    let error = analyze(&plugin, "x.loop").unwrap_err();
    assert_eq!(error.code(), "PLUGIN_TIMEOUT", "{error}");
    let error = analyze(&plugin, "x.loop").unwrap_err();
    assert_eq!(error.code(), "PLUGIN_UNAVAILABLE", "{error}");
}

/// A Rust file of `functions` small functions (about 58 bytes each).
fn generated_rust(functions: usize) -> String {
    let mut source = String::with_capacity(functions * 64);
    for i in 0..functions {
        source.push_str(&format!(
            "pub fn f{i}(a: u32) -> u32 {{ let x = a + {i}; x * 2 }}\n"
        ));
    }
    source
}

#[test]
fn a_large_generated_file_is_analysed_within_its_scaled_deadline() {
    let _alone = MEMORY_HEAVY.lock().unwrap_or_else(|p| p.into_inner());
    let limits = Limits::default();
    let plugin = load("lingo_plugin_rust", limits.clone());
    // 35,000 functions: 2 MB. `LINGO_GENERATED_FUNCTIONS` measures others.
    let functions = std::env::var("LINGO_GENERATED_FUNCTIONS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(35_000);
    let source = generated_rust(functions);
    let started = Instant::now();
    let facts = plugin
        .analyze("src/generated.rs", &source, &[])
        .unwrap_or_else(|e| panic!("{e}"));
    let elapsed = started.elapsed();
    let allowed = limits.timeout_for(source.len());
    eprintln!(
        "analyze of {} bytes ({} functions): {elapsed:?}, allowed {allowed:?}",
        source.len(),
        facts.symbols.len()
    );
    assert_eq!(facts.symbols.len(), functions);
    assert!(allowed > limits.call_timeout + Duration::from_secs(9));
    assert!(elapsed < allowed);
}

#[test]
fn ten_thousand_deep_nesting_does_not_overflow_the_plugin_stack() {
    let plugin = load("lingo_plugin_rust", Limits::default());
    let depth = 10_000;
    let modules = format!(
        "{}fn f() {{}}{}",
        (0..depth)
            .map(|i| format!("mod m{i} {{ "))
            .collect::<String>(),
        "}".repeat(depth)
    );
    let blocks = format!("fn g() {{ {}1{} }}", "{".repeat(depth), "}".repeat(depth));
    let expressions = format!(
        "fn h() -> i32 {{ {}1{} }}",
        "(".repeat(depth),
        ")".repeat(depth)
    );
    let ifs = format!(
        "fn k(a: bool) {{ {}{} }}",
        "if a { ".repeat(depth),
        "}".repeat(depth)
    );
    for (what, source) in [
        ("modules", &modules),
        ("blocks", &blocks),
        ("expressions", &expressions),
        ("ifs", &ifs),
    ] {
        let facts = plugin
            .analyze("src/lib.rs", source, &[])
            .unwrap_or_else(|e| panic!("{depth} nested {what}: {e}"));
        assert!(!facts.symbols.is_empty(), "{what}");
        plugin
            .node_at("src/lib.rs", source, (source.len() / 2) as u32)
            .unwrap_or_else(|e| panic!("node_at in {depth} nested {what}: {e}"));
    }
}

#[test]
fn a_component_loaded_before_starts_without_an_instance_and_answers_alike() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("info-cache");
    let _ = std::fs::remove_dir_all(&dir);
    let path = Path::new(lingo::runtime::artifact_dir()).join("lingo_plugin_rust.wasm");
    let wasm = std::fs::read(&path).unwrap();
    let load = || WasmPlugin::load_shared("rust", &wasm, Some(&dir), Limits::default()).unwrap();
    let calls = |plugin: &WasmPlugin| plugin.health().calls;

    let first = load();
    assert_eq!(calls(&first), 1, "the first load asks info()");
    let second = load();
    assert_eq!(calls(&second), 0, "the second takes info() from the cache");
    assert_eq!(first.info(), second.info());
    let facts = second
        .analyze("src/lib.rs", "pub fn alpha() {}\n", &[])
        .unwrap();
    assert!(facts.symbols.iter().any(|s| s.name == "alpha"));

    // A cached answer that does not decode is ignored.
    for entry in std::fs::read_dir(dir.join("components")).unwrap() {
        let entry = entry.unwrap().path();
        if entry.to_string_lossy().ends_with(".info.json") {
            std::fs::write(&entry, b"{ not json").unwrap();
        }
    }
    let third = load();
    assert_eq!(
        calls(&third),
        1,
        "a broken cache entry means a real info() call"
    );
    assert_eq!(third.info(), first.info());
}
