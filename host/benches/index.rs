//! Indexing throughput: a real source tree of one language analysed through
//! that language's built-in plugin (every fact, inside the wasmtime sandbox)
//! or natively in this process (the language's tree-sitter grammar crate with
//! the plugin's own `symbols.scm` and `references.scm`, expanded per grammar
//! as the plugin expands them), single-threaded, with the peak resident
//! memory of the process. Run one mode per process so the peaks stay apart:
//!
//! ```text
//! cargo bench -p lingo --bench index -- --mode native [--lang L] [--dir PATH] [--repeat N]
//! cargo bench -p lingo --bench index -- --mode plugin [--lang L] [--dir PATH] [--repeat N] [--no-cache]
//! ```
//!
//! `--lang` is `rust` (the default), `typescript`, `go` or `csharp`; the files
//! are those with the extensions of that language's plugin. `--no-cache` makes
//! the plugin's setup compile the components with Cranelift instead of loading
//! the compiled form from the on-disk cache.
//!
//! `host/benches/run.sh` runs both for each language and prints the ratios.
//! The tree defaults to `$LINGO_BENCH_DIR`, else, for Rust only, the wasmtime
//! crate's sources in the cargo registry (present once lingo has been built).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use lingo::runtime::{Limits, PluginRegistry, RuntimeConfig};
use tree_sitter::{Parser, Query, QueryCursor, StreamingIterator};

/// A language with a built-in plugin.
#[derive(Clone, Copy, PartialEq)]
enum Lang {
    Rust,
    TypeScript,
    Go,
    CSharp,
}

impl Lang {
    fn parse(name: &str) -> Option<Lang> {
        Some(match name {
            "rust" => Lang::Rust,
            "typescript" => Lang::TypeScript,
            "go" => Lang::Go,
            "csharp" => Lang::CSharp,
            _ => return None,
        })
    }

    fn name(self) -> &'static str {
        match self {
            Lang::Rust => "rust",
            Lang::TypeScript => "typescript",
            Lang::Go => "go",
            Lang::CSharp => "csharp",
        }
    }

    /// The plugin's `EXTENSIONS` (`plugins/<lang>/src/lib.rs`).
    fn extensions(self) -> &'static [&'static str] {
        match self {
            Lang::Rust => &["rs"],
            Lang::TypeScript => &["ts", "tsx", "mts", "cts", "js", "jsx", "mjs", "cjs"],
            Lang::Go => &["go"],
            Lang::CSharp => &["cs"],
        }
    }

    /// The grammar for a file of this language with this (lowercase)
    /// extension, as the plugin's `grammar(path)` picks it.
    fn grammar(self, extension: &str) -> Grammar {
        match self {
            Lang::Rust => Grammar::Rust,
            Lang::TypeScript => match extension {
                "tsx" => Grammar::Tsx,
                "js" | "jsx" | "mjs" | "cjs" => Grammar::JavaScript,
                _ => Grammar::TypeScript,
            },
            Lang::Go => Grammar::Go,
            Lang::CSharp => Grammar::CSharp,
        }
    }
}

/// One tree-sitter grammar of a plugin (the TypeScript plugin has three).
#[derive(Clone, Copy, PartialEq, PartialOrd, Eq, Ord, Debug)]
enum Grammar {
    Rust,
    TypeScript,
    Tsx,
    JavaScript,
    Go,
    CSharp,
}

impl Grammar {
    fn language(self) -> tree_sitter::Language {
        match self {
            Grammar::Rust => tree_sitter_rust::LANGUAGE.into(),
            Grammar::TypeScript => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
            Grammar::Tsx => tree_sitter_typescript::LANGUAGE_TSX.into(),
            Grammar::JavaScript => tree_sitter_javascript::LANGUAGE.into(),
            Grammar::Go => tree_sitter_go::LANGUAGE.into(),
            Grammar::CSharp => tree_sitter_c_sharp::LANGUAGE.into(),
        }
    }

    /// The plugin's symbols and references query text for this grammar.
    fn queries(self) -> (String, String) {
        match self {
            Grammar::Rust => (
                include_str!("../../plugins/rust/queries/symbols.scm").into(),
                include_str!("../../plugins/rust/queries/references.scm").into(),
            ),
            Grammar::TypeScript => (
                typescript_queries("typescript", "symbols"),
                typescript_queries("typescript", "references"),
            ),
            Grammar::Tsx => (
                typescript_queries("tsx", "symbols"),
                typescript_queries("tsx", "references"),
            ),
            Grammar::JavaScript => (
                typescript_queries("javascript", "symbols"),
                typescript_queries("javascript", "references"),
            ),
            Grammar::Go => (
                include_str!("../../plugins/go/queries/symbols.scm").into(),
                include_str!("../../plugins/go/queries/references.scm").into(),
            ),
            Grammar::CSharp => (
                include_str!("../../plugins/csharp/queries/symbols.scm").into(),
                include_str!("../../plugins/csharp/queries/references.scm").into(),
            ),
        }
    }
}

/// The TypeScript plugin's `kind` query (`symbols`, `references`) for one
/// of its languages, expanded from its files as the plugin expands them
/// (`queries/languages/<language>/<kind>.scm` and the files it includes).
fn typescript_queries(language: &str, kind: &str) -> String {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../plugins/typescript/queries");
    let mut files: Vec<(String, String)> = Vec::new();
    let mut pending = vec![dir.clone()];
    while let Some(folder) = pending.pop() {
        for entry in std::fs::read_dir(&folder).expect("the TypeScript plugin's queries") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "scm") {
                let name = path
                    .strip_prefix(&dir)
                    .expect("under the queries folder")
                    .with_extension("")
                    .to_string_lossy()
                    .replace('\\', "/");
                files.push((name, std::fs::read_to_string(&path).expect("a query file")));
            }
        }
    }
    let table: Vec<(&str, &str)> = files
        .iter()
        .map(|(name, text)| (name.as_str(), text.as_str()))
        .collect();
    lingo_plugin_sdk::query_files::expand(&format!("languages/{language}/{kind}"), &table)
        .unwrap_or_else(|e| panic!("{e}"))
}

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Native,
    Plugin,
}

struct Options {
    mode: Mode,
    lang: Lang,
    dir: PathBuf,
    repeat: usize,
    cache: bool,
}

fn usage() -> ! {
    eprintln!(
        "usage: index --mode native|plugin [--lang rust|typescript|go|csharp] [--dir PATH] \
         [--repeat N] [--no-cache]"
    );
    std::process::exit(2);
}

fn options() -> Options {
    let mut mode = None;
    let mut lang = Lang::Rust;
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
            "--lang" => {
                lang = args
                    .next()
                    .as_deref()
                    .and_then(Lang::parse)
                    .unwrap_or_else(|| usage())
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
    let dir = dir.unwrap_or_else(|| {
        if lang == Lang::Rust {
            default_dir()
        } else {
            eprintln!(
                "no default {} tree; pass --dir or set LINGO_BENCH_DIR",
                lang.name()
            );
            std::process::exit(2)
        }
    });
    Options {
        mode,
        lang,
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

/// A file of the tree, read before timing.
struct Source {
    /// Relative to the tree's root.
    path: String,
    text: String,
    grammar: Grammar,
}

/// Every file of `lang` under `root` (by the plugin's extensions), sorted by
/// path.
fn sources(root: &Path, lang: Lang) -> Vec<Source> {
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
                && let Some(extension) = path
                    .extension()
                    .and_then(|e| e.to_str())
                    .map(|e| e.to_ascii_lowercase())
                && lang.extensions().contains(&extension.as_str())
                && let Ok(text) = std::fs::read_to_string(&path)
            {
                let relative = path.strip_prefix(root).unwrap_or(&path);
                files.push(Source {
                    path: relative.to_string_lossy().into_owned(),
                    text,
                    grammar: lang.grammar(&extension),
                });
            }
        }
    }
    files.sort_by(|a, b| a.path.cmp(&b.path));
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

/// A grammar with the plugin's two queries compiled for it.
struct NativeGrammar {
    grammar: Grammar,
    language: tree_sitter::Language,
    symbols: Query,
    references: Query,
}

/// What a mode needs before the timed passes.
enum Runner {
    /// One entry per grammar the files use.
    Native(Vec<NativeGrammar>),
    Plugin(PluginRegistry),
}

impl Runner {
    fn new(mode: Mode, cache: bool, files: &[Source]) -> Runner {
        match mode {
            Mode::Native => {
                let mut grammars: Vec<Grammar> = files.iter().map(|f| f.grammar).collect();
                grammars.sort();
                grammars.dedup();
                Runner::Native(
                    grammars
                        .into_iter()
                        .map(|grammar| {
                            let language = grammar.language();
                            let (symbols, references) = grammar.queries();
                            NativeGrammar {
                                grammar,
                                symbols: Query::new(&language, &symbols)
                                    .unwrap_or_else(|e| panic!("{grammar:?} symbols: {e}")),
                                references: Query::new(&language, &references)
                                    .unwrap_or_else(|e| panic!("{grammar:?} references: {e}")),
                                language,
                            }
                        })
                        .collect(),
                )
            }
            Mode::Plugin => Runner::Plugin(
                PluginRegistry::load(&RuntimeConfig {
                    extra_plugins: vec![],
                    include_built_in: true,
                    cache_dir: cache
                        .then(|| Path::new(env!("CARGO_TARGET_TMPDIR")).join("lingo-cache")),
                    limits: Limits::default(),
                    extension_owners: Default::default(),
                    compilation: Default::default(),
                })
                .expect("load the built-in plugins"),
            ),
        }
    }

    /// One pass over every file; for native runs, also the time spent parsing.
    fn pass(&self, files: &[Source]) -> (Counts, Option<Duration>) {
        match self {
            Runner::Native(grammars) => {
                let (counts, parsing) = native_pass(files, grammars);
                (counts, Some(parsing))
            }
            Runner::Plugin(registry) => (plugin_pass(files, registry), None),
        }
    }
}

/// Parse each file with its grammar and run the plugin's symbols and
/// references queries on it.
fn native_pass(files: &[Source], grammars: &[NativeGrammar]) -> (Counts, Duration) {
    let mut parser = Parser::new();
    let mut current = None;
    let mut cursor = QueryCursor::new();
    let mut counts = Counts::default();
    let mut parsing = Duration::ZERO;
    for file in files {
        let native = grammars
            .iter()
            .find(|g| g.grammar == file.grammar)
            .expect("a grammar for every file");
        if current != Some(file.grammar) {
            parser.set_language(&native.language).unwrap();
            current = Some(file.grammar);
        }
        let source = &file.text;
        let started = Instant::now();
        let Some(tree) = parser.parse(source, None) else {
            counts.failures += 1;
            continue;
        };
        parsing += started.elapsed();
        for (query, count) in [
            (&native.symbols, &mut counts.symbols),
            (&native.references, &mut counts.references),
        ] {
            let mut matches = cursor.matches(query, tree.root_node(), source.as_bytes());
            while matches.next().is_some() {
                *count += 1;
            }
        }
    }
    (counts, parsing)
}

/// Every fact of each file through its plugin (`analyze`), picked by the
/// file's extension.
fn plugin_pass(files: &[Source], registry: &PluginRegistry) -> Counts {
    let mut counts = Counts::default();
    for Source { path, text, .. } in files {
        let plugin = registry
            .for_path(Path::new(path))
            .unwrap_or_else(|| panic!("no plugin for {path}"));
        match plugin.analyze(path, text, &[]) {
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
    let files = sources(&options.dir, options.lang);
    let lines: usize = files.iter().map(|f| f.text.lines().count()).sum();
    let bytes: usize = files.iter().map(|f| f.text.len()).sum();
    println!(
        "tree: {} ({} files, {} lines, {:.1} MiB)",
        options.dir.display(),
        files.len(),
        lines,
        bytes as f64 / (1 << 20) as f64
    );
    if files.is_empty() {
        eprintln!(
            "no {} files (.{}) under {}",
            options.lang.name(),
            options.lang.extensions().join(", ."),
            options.dir.display()
        );
        std::process::exit(2);
    }
    let mode = match options.mode {
        Mode::Native => "native",
        Mode::Plugin => "plugin",
    };

    let started = Instant::now();
    let runner = Runner::new(options.mode, options.cache, &files);
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
         setup_s={:.6} failures={} lang={}",
        options.cache,
        files.len(),
        median.as_secs_f64(),
        best.as_secs_f64(),
        lines as f64 / median.as_secs_f64(),
        setup.as_secs_f64(),
        counts.failures,
        options.lang.name()
    );
}
