//! The cost of the sandbox, measured fairly: the same plugin code (the SDK
//! and a language's `Language` impl) analyses the same files once compiled
//! natively into this process and once as the WebAssembly component the host
//! loads, making the calls the host's `analyze` makes, in its order. The
//! ratio of the two is what the sandbox costs; the native stage times say
//! where a plugin's work goes; `parse` is tree-sitter alone, the floor.
//!
//! ```text
//! cargo run --release -p lingo-bench-sandbox -- --lang rust --dir TREE [--passes 3] [--native-only | --component-only] [--plugin FILE.wasm]
//! ```
//!
//! `--native-only` runs the native plugin code alone, for a profiler, and
//! `--component-only` the component alone (to compare two builds of a
//! plugin under `perf stat`, without the native passes' noise);
//! `--plugin FILE.wasm` loads that component instead of the built-in one
//! (to compare two builds of a plugin without rebuilding the bench);
//! `--queries` times the tree work under it: a cursor walk over every node
//! and each of the language's three queries alone.
//!
//! Passes alternate between the modes (native, component, parse, then again)
//! so that both see the same machine; the medians are printed, with the
//! counts of facts each mode produced (they must agree).

mod files;
mod native;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use lingo::runtime::{Limits, PluginRegistry, RuntimeConfig};

use files::{Lang, Source};
use native::Stages;

/// Facts one pass produced, to check that both modes did the same work.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct Counts {
    symbols: usize,
    references: usize,
    locals: usize,
    metrics: usize,
    declared_types: usize,
    failures: usize,
}

struct Options {
    lang: Lang,
    dir: PathBuf,
    passes: usize,
    /// Only the native plugin code (for a profiler).
    native_only: bool,
    /// Only the component (for a profiler, or `perf stat`).
    component_only: bool,
    /// Only the tree work under it: a walk and the three queries.
    queries: bool,
    /// A component to load instead of the built-in plugins.
    plugin: Option<PathBuf>,
}

fn options() -> Options {
    let mut args = std::env::args().skip(1);
    let (mut lang, mut dir, mut passes, mut native_only, mut queries, mut plugin) =
        (None, None, 3, false, false, None);
    let mut component_only = false;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--lang" => lang = args.next().as_deref().and_then(Lang::parse),
            "--dir" => dir = args.next().map(PathBuf::from),
            "--passes" => passes = args.next().and_then(|n| n.parse().ok()).unwrap_or(0),
            "--native-only" => native_only = true,
            "--component-only" => component_only = true,
            "--queries" => queries = true,
            "--plugin" => plugin = Some(args.next().map(PathBuf::from).unwrap_or_else(|| usage())),
            _ => usage(),
        }
    }
    match (lang, dir) {
        (Some(lang), Some(dir)) if passes > 0 && !(native_only && component_only) => Options {
            lang,
            dir,
            passes,
            native_only,
            component_only,
            queries,
            plugin,
        },
        _ => usage(),
    }
}

fn usage() -> ! {
    eprintln!(
        "usage: sandbox --lang rust|typescript|go|csharp|python|java --dir TREE [--passes N] [--native-only | --component-only] [--queries] [--plugin FILE.wasm]"
    );
    std::process::exit(2)
}

/// Every file through the built-in component, as the host indexes it.
fn component_pass(files: &[Source], registry: &PluginRegistry) -> Counts {
    let mut counts = Counts::default();
    for file in files {
        let plugin = registry
            .for_path(std::path::Path::new(&file.path))
            .unwrap_or_else(|| panic!("no plugin for {}", file.path));
        match plugin.analyze(&file.path, &file.text, &[]) {
            Ok(facts) => {
                counts.symbols += facts.symbols.len();
                counts.references += facts.references.len();
                counts.locals += facts.locals.len();
                counts.metrics += facts.metrics.len();
                counts.declared_types += facts.declared_types.len();
            }
            Err(error) => {
                counts.failures += 1;
                eprintln!("{}: {error}", file.path);
            }
        }
    }
    counts
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn main() {
    let options = options();
    let files = files::sources(&options.dir, options.lang);
    let lines: usize = files.iter().map(|f| f.text.lines().count()).sum();
    let bytes: usize = files.iter().map(|f| f.text.len()).sum();
    eprintln!(
        "{} files, {lines} lines, {:.1} MiB of {}",
        files.len(),
        bytes as f64 / 1048576.0,
        options.lang.name()
    );
    if options.queries {
        native::query_passes(options.lang, &files);
        return;
    }
    // Not loaded for `--native-only`: compiling and instantiating the
    // components would show in a profile of the native code.
    let registry = (!options.native_only).then(|| {
        PluginRegistry::load(&RuntimeConfig {
            extra_plugins: options.plugin.iter().cloned().collect(),
            include_built_in: options.plugin.is_none(),
            cache_dir: Some(std::env::temp_dir().join("lingo-bench-sandbox-cache")),
            limits: Limits::default(),
            extension_owners: Default::default(),
            compilation: Default::default(),
        })
        .expect("load the built-in plugins")
    });

    let (mut native_times, mut component_times, mut parse_times) = (vec![], vec![], vec![]);
    let mut stages = Vec::new();
    let mut digest = String::new();
    let (mut native_counts, mut component_counts) = (Counts::default(), Counts::default());
    if options.component_only {
        let registry = registry.as_ref().expect("loaded unless --native-only");
        let mut counts = Counts::default();
        for pass in 1..=options.passes {
            let started = Instant::now();
            counts = component_pass(&files, registry);
            component_times.push(started.elapsed());
            eprintln!(
                "pass {pass}: component {:.3} s",
                component_times[pass - 1].as_secs_f64()
            );
        }
        println!(
            "component, median of {} passes: {:.3} s; facts: {counts:?}",
            options.passes,
            median(component_times).as_secs_f64()
        );
        return;
    }
    for pass in 1..=options.passes {
        let (counts, pass_stages, pass_digest) = native::pass(options.lang, &files);
        native_times.push(pass_stages.total());
        native_counts = counts;
        digest = pass_digest;
        stages.push(pass_stages);
        if options.native_only {
            eprintln!(
                "pass {pass}: native {:.3} s",
                native_times[pass - 1].as_secs_f64()
            );
            continue;
        }

        let Some(registry) = &registry else {
            continue;
        };
        let started = Instant::now();
        component_counts = component_pass(&files, registry);
        component_times.push(started.elapsed());

        let started = Instant::now();
        native::parse_only(options.lang, &files);
        parse_times.push(started.elapsed());
        eprintln!(
            "pass {pass}: native {:.3} s, component {:.3} s, parse only {:.3} s",
            native_times[pass - 1].as_secs_f64(),
            component_times[pass - 1].as_secs_f64(),
            parse_times[pass - 1].as_secs_f64()
        );
    }
    if options.native_only {
        Stages::median(&stages).print(median(native_times));
        println!("facts digest (native): {digest}");
        return;
    }
    let (native_time, component_time, parse_time) = (
        median(native_times),
        median(component_times),
        median(parse_times),
    );
    let per_second = |t: Duration| lines as f64 / t.as_secs_f64();
    println!(
        "{} files, {lines} lines of {}; medians of {} passes, single-threaded",
        files.len(),
        options.lang.name(),
        options.passes
    );
    println!("| mode | time | lines/s | × parse only |");
    println!("|---|--:|--:|--:|");
    for (mode, time) in [
        ("parse only (native tree-sitter)", parse_time),
        ("plugin code, native", native_time),
        ("plugin code, component (sandbox)", component_time),
    ] {
        println!(
            "| {mode} | {:.3} s | {:.0} | {:.2} |",
            time.as_secs_f64(),
            per_second(time),
            time.as_secs_f64() / parse_time.as_secs_f64()
        );
    }
    println!(
        "sandbox cost (component / native): {:.2}",
        component_time.as_secs_f64() / native_time.as_secs_f64()
    );
    println!();
    Stages::median(&stages).print(native_time);
    println!();
    println!("facts, native:    {native_counts:?}");
    println!("facts, component: {component_counts:?}");
    println!("facts digest (native): {digest}");
    if native_counts != component_counts {
        eprintln!("the two modes produced different facts");
        std::process::exit(1);
    }
}
