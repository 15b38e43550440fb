//! Indexing throughput: a real Rust source tree analysed through the Rust
//! plugin (every fact, inside the wasmtime sandbox) or natively in this
//! process (tree-sitter-rust with the plugin's own `symbols.scm` and
//! `references.scm`), single-threaded, with the peak resident memory of the
//! process. Run one mode per process so the peaks stay apart:
//!
//! ```text
//! cargo bench -p lingo --bench index -- --mode native [--dir PATH] [--repeat N]
//! cargo bench -p lingo --bench index -- --mode plugin [--dir PATH] [--repeat N] [--no-cache]
//! ```
//!
//! `--no-cache` makes the plugin's setup compile the component with Cranelift
//! instead of loading the compiled form from the on-disk cache.
//!
//! `host/benches/run.sh` runs both and prints the ratio. The tree defaults to
//! `$LINGO_BENCH_DIR`, else the wasmtime crate's sources in the cargo
//! registry (present once lingo has been built).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use lingo::runtime::{Limits, PluginRegistry, RuntimeConfig};
use tree_sitter::{Parser, Query, QueryCursor, StreamingIterator};

const SYMBOLS_SCM: &str = include_str!("../../plugins/rust/queries/symbols.scm");
const REFERENCES_SCM: &str = include_str!("../../plugins/rust/queries/references.scm");

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Native,
    Plugin,
}

struct Options {
    mode: Mode,
    dir: PathBuf,
    repeat: usize,
    cache: bool,
}

fn usage() -> ! {
    eprintln!("usage: index --mode native|plugin [--dir PATH] [--repeat N] [--no-cache]");
    std::process::exit(2);
}

fn options() -> Options {
    let mut mode = None;
    let mut dir = std::env::var_os("LINGO_BENCH_DIR").map(PathBuf::from);
    let mut repeat = 3;
    let mut cache = true;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--mode" => {
                mode = match args.next().as_deref() {
                    Some("native") => Some(Mode::Native),
                    Some("plugin") => Some(Mode::Plugin),
                    _ => usage(),
                }
            }
            "--dir" => dir = Some(args.next().unwrap_or_else(|| usage()).into()),
            "--repeat" => {
                repeat = args
                    .next()
                    .and_then(|n| n.parse().ok())
                    .filter(|&n| n > 0)
                    .unwrap_or_else(|| usage())
            }
            "--no-cache" => cache = false,
            // `cargo bench` passes `--bench`; test-harness filters mean nothing here.
            _ => {}
        }
    }
    let Some(mode) = mode else { usage() };
    let dir = dir.unwrap_or_else(default_dir);
    Options {
        mode,
        dir,
        repeat,
        cache,
    }
}

/// The newest `wasmtime-<version>` sources under `$CARGO_HOME/registry/src`.
fn default_dir() -> PathBuf {
    let cargo_home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))
        .expect("CARGO_HOME or HOME");
    let mut found = Vec::new();
    for index in std::fs::read_dir(cargo_home.join("registry/src"))
        .into_iter()
        .flatten()
    {
        let Ok(index) = index else { continue };
        for krate in std::fs::read_dir(index.path()).into_iter().flatten() {
            let Ok(krate) = krate else { continue };
            let name = krate.file_name().to_string_lossy().into_owned();
            if let Some(version) = name.strip_prefix("wasmtime-")
                && version.starts_with(|c: char| c.is_ascii_digit())
            {
                found.push(krate.path());
            }
        }
    }
    found.sort();
    found.pop().unwrap_or_else(|| {
        eprintln!("no wasmtime sources in the cargo registry; pass --dir or set LINGO_BENCH_DIR");
        std::process::exit(2)
    })
}

/// Every `.rs` file under `root` (path relative to it, text), sorted.
fn sources(root: &Path) -> Vec<(String, String)> {
    let mut files = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() {
                stack.push(path);
            } else if kind.is_file()
                && path.extension().is_some_and(|e| e == "rs")
                && let Ok(text) = std::fs::read_to_string(&path)
            {
                let relative = path.strip_prefix(root).unwrap_or(&path);
                files.push((relative.to_string_lossy().into_owned(), text));
            }
        }
    }
    files.sort();
    files
}

/// `VmHWM` (peak resident set) of this process, in KiB.
fn peak_rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

/// What one pass found, to check that both modes did the work.
#[derive(Default, Clone, Copy)]
struct Counts {
    symbols: usize,
    references: usize,
    failures: usize,
}

/// What a mode needs before the timed passes.
enum Runner {
    Native { symbols: Query, references: Query },
    Plugin(PluginRegistry),
}

impl Runner {
    fn new(mode: Mode, cache: bool) -> Runner {
        match mode {
            Mode::Native => {
                let language = tree_sitter_rust::LANGUAGE.into();
                Runner::Native {
                    symbols: Query::new(&language, SYMBOLS_SCM).expect("symbols.scm"),
                    references: Query::new(&language, REFERENCES_SCM).expect("references.scm"),
                }
            }
            Mode::Plugin => Runner::Plugin(
                PluginRegistry::load(&RuntimeConfig {
                    extra_plugins: vec![],
                    include_built_in: true,
                    cache_dir: cache
                        .then(|| Path::new(env!("CARGO_TARGET_TMPDIR")).join("lingo-cache")),
                    limits: Limits::default(),
                })
                .expect("load the built-in plugins"),
            ),
        }
    }

    /// One pass over every file; for native runs, also the time spent parsing.
    fn pass(&self, files: &[(String, String)]) -> (Counts, Option<Duration>) {
        match self {
            Runner::Native {
                symbols,
                references,
            } => {
                let (counts, parsing) = native_pass(files, symbols, references);
                (counts, Some(parsing))
            }
            Runner::Plugin(registry) => (plugin_pass(files, registry), None),
        }
    }
}

/// Parse each file and run the plugin's symbols and references queries on it.
fn native_pass(
    files: &[(String, String)],
    symbols: &Query,
    references: &Query,
) -> (Counts, Duration) {
    let mut parser = Parser::new();
    parser
        .set_language(&tree_sitter_rust::LANGUAGE.into())
        .unwrap();
    let mut cursor = QueryCursor::new();
    let mut counts = Counts::default();
    let mut parsing = Duration::ZERO;
    for (_, source) in files {
        let started = Instant::now();
        let Some(tree) = parser.parse(source, None) else {
            counts.failures += 1;
            continue;
        };
        parsing += started.elapsed();
        for (query, count) in [
            (symbols, &mut counts.symbols),
            (references, &mut counts.references),
        ] {
            let mut matches = cursor.matches(query, tree.root_node(), source.as_bytes());
            while matches.next().is_some() {
                *count += 1;
            }
        }
    }
    (counts, parsing)
}

/// Every fact of each file through the plugin (`analyze`).
fn plugin_pass(files: &[(String, String)], registry: &PluginRegistry) -> Counts {
    let plugin = registry
        .for_path(Path::new("lib.rs"))
        .expect("a plugin for .rs files");
    let mut counts = Counts::default();
    for (path, source) in files {
        match plugin.analyze(path, source, &[]) {
            Ok(facts) => {
                counts.symbols += facts.symbols.len();
                counts.references += facts.references.len();
            }
            Err(error) => {
                counts.failures += 1;
                eprintln!("{path}: {error}");
            }
        }
    }
    counts
}

fn main() {
    let options = options();
    let files = sources(&options.dir);
    let lines: usize = files.iter().map(|(_, s)| s.lines().count()).sum();
    let bytes: usize = files.iter().map(|(_, s)| s.len()).sum();
    println!(
        "tree: {} ({} files, {} lines, {:.1} MiB)",
        options.dir.display(),
        files.len(),
        lines,
        bytes as f64 / (1 << 20) as f64
    );
    if files.is_empty() {
        eprintln!("no .rs files under {}", options.dir.display());
        std::process::exit(2);
    }
    let mode = match options.mode {
        Mode::Native => "native",
        Mode::Plugin => "plugin",
    };

    let started = Instant::now();
    let runner = Runner::new(options.mode, options.cache);
    let setup = started.elapsed();
    let after_setup_kib = peak_rss_kib();

    let mut times = Vec::new();
    let mut last = (Counts::default(), None);
    for pass in 1..=options.repeat {
        let started = Instant::now();
        last = runner.pass(&files);
        let elapsed = started.elapsed();
        println!(
            "{mode} pass {pass}: {:.3} s, {:.0} lines/s",
            elapsed.as_secs_f64(),
            lines as f64 / elapsed.as_secs_f64()
        );
        times.push(elapsed);
    }
    times.sort();
    let median = times[times.len() / 2];
    let best = times[0];
    let (counts, parsing) = last;
    let peak_kib = peak_rss_kib();
    println!(
        "{mode}: setup {:.3} s; median pass {:.3} s ({:.0} lines/s), best {:.3} s",
        setup.as_secs_f64(),
        median.as_secs_f64(),
        lines as f64 / median.as_secs_f64(),
        best.as_secs_f64()
    );
    if let Some(parsing) = parsing {
        println!(
            "{mode}: of the last pass, parsing took {:.3} s",
            parsing.as_secs_f64()
        );
    }
    let what = match options.mode {
        Mode::Native => "query matches",
        Mode::Plugin => "facts",
    };
    println!(
        "{mode}: {} symbol and {} reference {what}, {} failed files",
        counts.symbols, counts.references, counts.failures
    );
    println!(
        "{mode}: peak RSS {:.1} MiB (after setup {:.1} MiB)",
        peak_kib as f64 / 1024.0,
        after_setup_kib as f64 / 1024.0
    );
    // One machine-readable line for run.sh.
    println!(
        "RESULT mode={mode} cache={} files={} lines={lines} bytes={bytes} median_s={:.6} \
         best_s={:.6} lines_per_s={:.0} peak_kib={peak_kib} setup_kib={after_setup_kib} \
         setup_s={:.6} failures={}",
        options.cache,
        files.len(),
        median.as_secs_f64(),
        best.as_secs_f64(),
        lines as f64 / median.as_secs_f64(),
        setup.as_secs_f64(),
        counts.failures
    );
}
