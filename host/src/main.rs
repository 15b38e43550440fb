//! The `lingo` command line: `lingo serve` runs the MCP server over stdio;
//! `lingo plugin new|check|test` write, check and test a language plugin;
//! `lingo analyze` runs an analysis tool and writes a report for CI;
//! `lingo call` runs any tool once, `lingo tools` lists them.

mod call;

use lingo::resolve::Resolved;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use clap::{Parser, Subcommand};
use lingo::mcp::Server;
use lingo::runtime::{Compilation, Limits, PluginRegistry, RuntimeConfig};
use lingo::tools::{Selection, ToolContext, ToolRegistry};
use lingo::workspace::Workspace;

/// How long a stopping server waits for a graph save in flight.
const GRAPH_SAVE_WAIT: Duration = Duration::from_secs(30);

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc's `mi_option_purge_delay` (the sixteenth option of its
/// `mimalloc.h`, v3 as the crate builds it; the crate names no constant
/// for it). Checked by a test below.
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// Give freed pages back to the system at once. By default mimalloc keeps
/// them a second and purges only at a later allocator call, so what a load
/// or a burst of requests freed stayed resident: 60-120 MiB more peak on a
/// 1.38M-line tree, for no measurable speed.
fn purge_freed_memory_at_once() {
    // SAFETY: sets an integer option of the allocator; any value is valid.
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, 0) };
}

/// mimalloc's `mi_option_allow_thp` (the forty-fourth option, v3).
/// Checked by a test below.
const MI_OPTION_ALLOW_THP: libmimalloc_sys::mi_option_t = 43;

/// No transparent huge pages. mimalloc asks for them on its arenas, and a
/// 2 MiB page is resident whole however little of it is used, and zeroed
/// whole when freed memory is touched again: on a 1.38M-line tree the
/// server peaked at 792 MiB with them and 631 MiB without, and a cold
/// `lingo index` at 713-719 MiB against 630-633 MiB, in the same time.
fn no_transparent_huge_pages() {
    // SAFETY: sets an integer option of the allocator; any value is valid.
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_ALLOW_THP, 0) };
    // mimalloc turns them off for the process only when the option is set
    // before it starts, which is before `main`; this is what it does then.
    // SAFETY: a flag of this process; the arguments are the documented ones.
    #[cfg(target_os = "linux")]
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}

#[derive(Parser)]
#[command(
    name = "lingo",
    version,
    about = "Code intelligence for coding agents, over MCP"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Serve MCP over stdin/stdout for one workspace, or over Streamable
    /// HTTP (`--http`) for it or for the projects of a projects file.
    Serve(ServeCommand),
    /// Index a workspace once and print statistics as JSON.
    Index(ServeArgs),
    /// Work with plugin components.
    #[command(subcommand)]
    Plugin(PluginCommand),
    /// Run an analysis (the same tool an MCP client calls) and write a
    /// report. Exit code 0: passed, 1: the gate failed or a finding is at
    /// `--fail-on` or above, 2: the analysis could not run.
    Analyze(AnalyzeArgs),
    /// Call any tool as an MCP client would and print its text answer
    /// (`format=json` for its JSON): `lingo call find_references
    /// '{"symbol": "parse"}'` or `--arg symbol=parse`. Exit code 0:
    /// answered, 1: the tool refused, 2: no such tool or bad arguments.
    Call(CallArgs),
    /// List the tools `lingo call` and the MCP server offer, with their
    /// toolsets.
    Tools,
}

#[derive(clap::Args)]
struct CallArgs {
    /// The tool's name (`lingo tools` lists them).
    tool: String,
    /// The tool's arguments as a JSON object.
    json: Option<String>,
    /// One argument as `key=value` (a value that parses as JSON is that
    /// JSON, else a string); may be repeated, and wins over the JSON.
    #[arg(long = "arg", value_name = "KEY=VALUE")]
    args: Vec<String>,
    /// Call a running server instead (`http://127.0.0.1:8080/mcp`, or a
    /// toolset's path); exit code 3 when it cannot be reached.
    #[arg(long, value_name = "URL")]
    url: Option<String>,
    /// The bearer token for `--url` (default: `LINGO_TOKEN`).
    #[arg(long, env = "LINGO_TOKEN", hide_env_values = true)]
    token: Option<String>,
    #[command(flatten)]
    workspace: ServeArgs,
}

#[derive(clap::Args)]
struct AnalyzeArgs {
    /// What to run: an analysis tool without its `analyze_` prefix
    /// (`quality`, `dead_code`, `cycles`, `documentation`, `tests`,
    /// `duplicates`, `code_churn`, `defect_probability`, `deep_context`,
    /// `comprehensive`...) or `quality_gate`.
    analysis: String,
    /// The analysis's kind (`complexity`, `unused_symbols`, `modules`...).
    #[arg(long)]
    kind: Option<String>,
    /// A folder or file to analyse instead of the whole workspace.
    #[arg(long)]
    path: Option<String>,
    /// `json` (the tool's answer), `text` (what a model reads), `markdown`,
    /// `junit` or `sarif` (SARIF 2.1.0, for the analyses that have it).
    #[arg(long, default_value = "json")]
    format: String,
    /// More of the tool's arguments, as a JSON object
    /// (`{"detection_type": "exact"}`).
    #[arg(long)]
    args: Option<String>,
    /// Fail when a finding is at this severity or above: `high`, `medium`
    /// or `low`.
    #[arg(long)]
    fail_on: Option<String>,
    /// quality_gate: the highest cyclomatic complexity a function may have.
    #[arg(long)]
    complexity_threshold: Option<f64>,
    #[command(flatten)]
    workspace: ServeArgs,
}

#[derive(Subcommand)]
enum PluginCommand {
    /// Write a new plugin crate (see docs/plugin-guide.md): it builds with
    /// `cargo build --release --target wasm32-wasip2` and passes `lingo
    /// plugin test` as written. Exit code 0: written, 2: refused.
    New(PluginNewArgs),
    /// Load a built plugin as `lingo serve` does (its queries compiled and
    /// their captures checked) and run it over the files given. Exit code
    /// 0: loaded and every file analysed, 1: a file failed, 2: the plugin
    /// cannot be loaded, a path does not exist or no file is the plugin's.
    Check(PluginCheckArgs),
    /// Run a plugin against conformance fixtures (see sdk/README.md) and
    /// print the differences. Exit code 0: all pass, 1: a check failed,
    /// 2: the plugin cannot be loaded.
    Test(PluginTestArgs),
}

#[derive(clap::Args)]
struct PluginNewArgs {
    /// The language identifier: lowercase letters, digits and `-`
    /// (`python`).
    name: String,
    /// The tree-sitter grammar crate, with a version requirement after `@`
    /// or, without one, the newest (`tree-sitter-python@0.23`).
    #[arg(long)]
    grammar: String,
    /// The grammar crate's language constant.
    #[arg(long, default_value = "LANGUAGE")]
    language_fn: String,
    /// A file extension the plugin claims, without the dot; may be
    /// repeated. By default the name.
    #[arg(long = "extension", value_name = "EXT")]
    extensions: Vec<String>,
    /// Where to write the crate (by default `./lingo-plugin-NAME`); it must
    /// not exist or be empty.
    #[arg(long)]
    dir: Option<PathBuf>,
    /// The SDK's source directory, depended on by path next to its version
    /// (by default the SDK of the lingo checkout this binary was built in,
    /// when it is there). `none`: the version alone.
    #[arg(long)]
    sdk: Option<String>,
}

#[derive(clap::Args)]
struct PluginCheckArgs {
    /// The plugin component (`.wasm`).
    plugin: PathBuf,
    /// Files or folders to run it over (the files with an extension it
    /// claims; at most 2,000). At least one: a check of no file checks
    /// nothing.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Where compiled components are cached.
    #[arg(long, env = "LINGO_CACHE_DIR")]
    cache_dir: Option<PathBuf>,
}

#[derive(clap::Args)]
struct PluginTestArgs {
    /// The plugin component (`.wasm`).
    plugin: PathBuf,
    /// A directory of cases (each a directory with an `expected.json`), or one case.
    fixtures: PathBuf,
    /// First write what the plugin reports into each case's
    /// `expected.json` (the categories and fields it lists), then test.
    #[arg(long)]
    bless: bool,
    /// Where compiled components are cached.
    #[arg(long, env = "LINGO_CACHE_DIR")]
    cache_dir: Option<PathBuf>,
}

#[derive(clap::Args)]
struct ServeCommand {
    #[command(flatten)]
    workspace: ServeArgs,
    #[command(flatten)]
    hosted: HostedArgs,
    #[command(flatten)]
    tools: ToolsArgs,
}

/// Which tools the server offers (over HTTP, `/mcp/<toolset>` offers one
/// set besides).
#[derive(clap::Args)]
struct ToolsArgs {
    /// Toolsets to offer, comma-separated: default, navigation,
    /// refactoring, analysis, graph, workspace, hosted, all (default:
    /// `[tools] toolsets` of lingo.toml, else `default`).
    #[arg(
        long,
        value_name = "SETS",
        value_delimiter = ',',
        env = "LINGO_TOOLSETS"
    )]
    toolsets: Vec<String>,
    /// Single tools to offer besides the toolsets, comma-separated.
    #[arg(long, value_name = "TOOLS", value_delimiter = ',')]
    tools: Vec<String>,
    /// Tools not to offer, comma-separated.
    #[arg(long, value_name = "TOOLS", value_delimiter = ',')]
    exclude_tools: Vec<String>,
    /// Offer no tool that writes files (rename, delete, move, apply_plan,
    /// rollback...).
    #[arg(long)]
    read_only: bool,
    /// Give every answer as `structuredContent` too, each tool declaring
    /// its `outputSchema`, for clients that are programs. Without it an
    /// answer is its compact text (clients that find a structured answer
    /// show the model that instead), and a call asks `format: json` for it.
    #[arg(long, env = "LINGO_STRUCTURED_OUTPUT")]
    structured_output: bool,
}

/// `[tools]` of lingo.toml: the same choices as [`ToolsArgs`], which win.
#[derive(serde::Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct ToolsConfig {
    #[serde(default)]
    toolsets: Vec<String>,
    #[serde(default)]
    include: Vec<String>,
    #[serde(default)]
    exclude: Vec<String>,
    #[serde(default)]
    read_only: bool,
    #[serde(default)]
    structured_output: bool,
}

impl ToolsArgs {
    /// The tools to offer: the flags, else lingo.toml's `[tools]`, checked
    /// against `known`.
    fn selection(&self, file: &ToolsConfig, known: &[&str]) -> anyhow::Result<Selection> {
        let pick = |flag: &Vec<String>, config: &Vec<String>| {
            if flag.is_empty() {
                config.clone()
            } else {
                flag.clone()
            }
        };
        Selection::new(
            &pick(&self.toolsets, &file.toolsets),
            &pick(&self.tools, &file.include),
            &pick(&self.exclude_tools, &file.exclude),
            self.read_only || file.read_only,
            known,
        )
        .map(|selection| {
            selection.with_structured_output(self.structured_output || file.structured_output)
        })
        .context("choosing the tools to offer")
    }
}

/// Hosted mode: HTTP, projects, tokens.
#[derive(clap::Args)]
struct HostedArgs {
    /// Serve Streamable HTTP at `/mcp` on this address instead of stdio
    /// (`--http` alone: 127.0.0.1:8080).
    #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = "127.0.0.1:8080")]
    http: Option<std::net::SocketAddr>,
    /// Serve the projects of this file (see README, "Hosted mode") instead
    /// of `--root`; every tool then takes `projectId`.
    #[arg(long, value_name = "TOML")]
    projects: Option<PathBuf>,
    /// The bearer tokens file (`[[token]]` tables); the `LINGO_TOKEN`
    /// environment variable gives one token for every project instead.
    #[arg(long, value_name = "TOML")]
    tokens: Option<PathBuf>,
    /// A `Host` header value to accept besides the loopback names; may be
    /// repeated (needed when serving a non-loopback address).
    #[arg(long = "allowed-host", value_name = "HOST")]
    allowed_hosts: Vec<String>,
    /// A browser `Origin` to accept (`https://app.example.com:443`); may be
    /// repeated. Requests with any other `Origin` are refused.
    #[arg(long = "allowed-origin", value_name = "ORIGIN")]
    allowed_origins: Vec<String>,
}

#[derive(clap::Args)]
struct ServeArgs {
    /// The workspace root.
    #[arg(long, default_value = ".")]
    root: PathBuf,
    /// An extra plugin component (`.wasm`); may be repeated.
    #[arg(long = "plugin", value_name = "WASM")]
    plugins: Vec<PathBuf>,
    /// A TOML config file (default: `lingo.toml` in the root, if present).
    #[arg(long)]
    config: Option<PathBuf>,
    /// Where compiled components are cached.
    #[arg(long, env = "LINGO_CACHE_DIR")]
    cache_dir: Option<PathBuf>,
    /// Do not load the built-in plugins.
    #[arg(long)]
    no_built_in: bool,
    /// Time limit of one plugin call, in milliseconds.
    #[arg(long)]
    plugin_timeout_ms: Option<u64>,
    /// Memory limit of one plugin instance, in MiB.
    #[arg(long)]
    plugin_memory_mb: Option<usize>,
    /// Time budget of one tool call (all its plugin calls included), in
    /// milliseconds.
    #[arg(long)]
    request_timeout_ms: Option<u64>,
    /// Memory of all plugin instances together, in MiB.
    #[arg(long)]
    plugin_total_memory_mb: Option<usize>,
}

/// The config file: extra plugins and limits.
#[derive(serde::Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct ConfigFile {
    #[serde(default)]
    plugins: Vec<PathBuf>,
    plugin_timeout_ms: Option<u64>,
    plugin_memory_mb: Option<usize>,
    request_timeout_ms: Option<u64>,
    plugin_total_memory_mb: Option<usize>,
    /// Extension -> plugin name, where several plugins claim an extension.
    #[serde(default)]
    extensions: std::collections::HashMap<String, String>,
    /// The quality gate's thresholds where a call gives none.
    #[serde(default)]
    quality_gate: lingo::analyze::GateConfig,
    /// Which tools `lingo serve` offers.
    #[serde(default)]
    tools: ToolsConfig,
}

fn load_config(args: &ServeArgs) -> anyhow::Result<(ConfigFile, Option<PathBuf>)> {
    let path = match &args.config {
        Some(path) => Some(path.clone()),
        None => Some(args.root.join("lingo.toml")).filter(|p| p.is_file()),
    };
    let Some(path) = path else {
        return Ok((ConfigFile::default(), None));
    };
    let text =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let config: ConfigFile =
        toml::from_str(&text).with_context(|| format!("parsing {}", path.display()))?;
    config
        .quality_gate
        .check()
        .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    Ok((config, path.parent().map(PathBuf::from)))
}

fn runtime_config(args: &ServeArgs) -> anyhow::Result<RuntimeConfig> {
    let (file, base) = load_config(args)?;
    let mut extra_plugins = args.plugins.clone();
    // Plugin paths in the config file are relative to the file.
    extra_plugins.extend(file.plugins.iter().map(|p| match &base {
        Some(base) if p.is_relative() => base.join(p),
        _ => p.clone(),
    }));
    let mut limits = Limits::default();
    if let Some(ms) = args.plugin_timeout_ms.or(file.plugin_timeout_ms) {
        limits.call_timeout = Duration::from_millis(ms);
    }
    if let Some(mb) = args.plugin_memory_mb.or(file.plugin_memory_mb) {
        limits.memory_bytes = mb << 20;
    }
    if let Some(mb) = args.plugin_total_memory_mb.or(file.plugin_total_memory_mb) {
        limits.total_memory_bytes = mb << 20;
    }
    Ok(RuntimeConfig {
        extra_plugins,
        include_built_in: !args.no_built_in,
        cache_dir: args
            .cache_dir
            .clone()
            .or_else(lingo::runtime::default_cache_dir),
        limits,
        extension_owners: file
            .extensions
            .iter()
            .map(|(extension, plugin)| {
                (
                    extension.trim_start_matches('.').to_ascii_lowercase(),
                    plugin.clone(),
                )
            })
            .collect(),
        compilation: Compilation::Optimized,
    })
}

/// The plugins of `config`, each one refused logged with its reason (a
/// server goes on without it).
fn load_plugins(config: &RuntimeConfig) -> anyhow::Result<PluginRegistry> {
    let registry = PluginRegistry::load(config)?;
    for failure in registry.failures() {
        tracing::error!(origin = %failure.origin, error = %failure.message, "plugin refused");
    }
    Ok(registry)
}

/// The workspace of `args`, with its index database. A server (`serving`)
/// also watches the files, and starts its plugins on baseline code when
/// the cache has no optimized code, to answer within a second.
fn open_workspace(args: &ServeArgs, serving: bool) -> anyhow::Result<Arc<Workspace>> {
    let mut config = runtime_config(args)?;
    if serving {
        config.compilation = Compilation::Tiered;
    }
    let registry = Arc::new(load_plugins(&config)?);
    let mut workspace = match &config.cache_dir {
        Some(dir) => Workspace::with_store(&args.root, registry, dir)?,
        None => Workspace::new(&args.root, registry)?,
    };
    // A change a crash interrupted is finished (or discarded) before
    // anything reads the files.
    workspace.recover();
    if serving {
        workspace.watch();
    }
    Ok(Arc::new(workspace))
}

fn main() -> anyhow::Result<()> {
    purge_freed_memory_at_once();
    no_transparent_huge_pages();
    // Logs go to stderr: stdout carries the protocol.
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("LINGO_LOG")
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .init();
    let cli = Cli::parse();
    match cli.command {
        Command::Serve(command) => serve(command),
        Command::Index(args) => {
            let workspace = open_workspace(&args, false)?;
            let stats = workspace.refresh();
            let snapshot = workspace.snapshot();
            let lines: usize = snapshot.files.values().map(|f| f.line_count()).sum();
            println!(
                "{}",
                serde_json::json!({
                    "root": workspace.root().display().to_string(),
                    "refresh": stats,
                    "lines": lines,
                    "symbols": snapshot.symbol_count(),
                    "plugins": workspace.registry().plugins().iter().map(|p| &p.info().name).collect::<Vec<_>>(),
                    "refusedPlugins": workspace.registry().failures(),
                })
            );
            Ok(())
        }
        Command::Plugin(PluginCommand::New(args)) => std::process::exit(plugin_new(&args)),
        Command::Plugin(PluginCommand::Check(args)) => {
            let code = plugin_check(&args)?;
            std::process::exit(code)
        }
        Command::Plugin(PluginCommand::Test(args)) => {
            let code = plugin_test(&args)?;
            std::process::exit(code)
        }
        Command::Analyze(args) => {
            let code = analyze(&args)?;
            std::process::exit(code)
        }
        Command::Call(args) => {
            let arguments = match call::arguments(args.json.as_deref(), &args.args) {
                Ok(arguments) => arguments,
                Err(message) => {
                    eprintln!("{message}");
                    std::process::exit(call::BAD_ARGUMENTS)
                }
            };
            let code = match &args.url {
                Some(url) => tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()?
                    .block_on(call::call_remote(
                        url,
                        args.token.as_deref().filter(|t| !t.is_empty()),
                        &args.tool,
                        arguments,
                    ))?,
                None => call::call(&args.tool, arguments, || {
                    let gate = load_config(&args.workspace)?.0.quality_gate;
                    Ok(call::context_of(
                        open_workspace(&args.workspace, false)?,
                        gate,
                    ))
                })?,
            };
            std::process::exit(code)
        }
        Command::Tools => {
            print!("{}", call::list());
            Ok(())
        }
    }
}

/// Once refresh run `first` is in, load (or build) the symbol graph on a
/// thread of its own, as the first request needing it would: after a
/// restart, the saved graph is read while that request's name table is
/// built, instead of after it.
fn warm_graph_after(workspace: &Arc<lingo::workspace::Workspace>, first: u64) {
    let workspace = workspace.clone();
    let spawned = std::thread::Builder::new()
        .name("lingo-warm".into())
        .spawn(move || {
            // Without a request's budget the build runs to its end.
            if workspace.wait_for_refresh(first, Duration::from_secs(24 * 3600))
                && let Err(error) = workspace.snapshot().graph()
            {
                tracing::warn!(%error, "the graph was not loaded ahead of the first request");
            }
        });
    if let Err(error) = spawned {
        tracing::warn!(%error, "cannot start the thread that loads the graph; the first request will");
    }
}

/// The analyses answered in typemill's envelope (`kind`, `scope`).
const ENVELOPE_ANALYSES: &[&str] = &[
    "quality",
    "dead_code",
    "cycles",
    "dependencies",
    "structure",
    "documentation",
    "tests",
];

/// `lingo analyze`: the analysis tool called as an MCP client would call
/// it, its answer written in the format asked; the exit code.
fn analyze(args: &AnalyzeArgs) -> anyhow::Result<i32> {
    use lingo::analyze::{Severity, report, sarif};
    let fail_on = match args.fail_on.as_deref() {
        None => None,
        Some("high") => Some(Severity::High),
        Some("medium") => Some(Severity::Medium),
        Some("low") => Some(Severity::Low),
        Some(other) => {
            eprintln!("--fail-on {other}: expected high, medium or low");
            return Ok(2);
        }
    };
    if !["json", "text", "markdown", "junit", "sarif"].contains(&args.format.as_str()) {
        eprintln!(
            "--format {}: expected json, text, markdown, junit or sarif",
            args.format
        );
        return Ok(2);
    }
    let tool_name = match args.analysis.as_str() {
        "quality_gate" => "quality_gate".to_string(),
        other => format!("analyze_{other}"),
    };
    let tools = ToolRegistry::new();
    let analyses: Vec<&str> = tools
        .names()
        .into_iter()
        .filter(|n| n.starts_with("analyze_") || *n == "quality_gate")
        .filter(|n| *n != "analyze_batch")
        .map(|n| n.strip_prefix("analyze_").unwrap_or(n))
        .collect();
    let Some(tool) = tools
        .find(&tool_name)
        .filter(|_| analyses.contains(&args.analysis.as_str()))
    else {
        eprintln!(
            "no analysis `{}`: expected one of {}",
            args.analysis,
            analyses.join(", ")
        );
        return Ok(2);
    };
    if args.format == "sarif" && !sarif::supports(tool.name) {
        eprintln!(
            "--format sarif: {} has no SARIF form (offered by {})",
            args.analysis,
            sarif::SARIF_TOOLS.join(", ")
        );
        return Ok(2);
    }
    let mut arguments = serde_json::Map::new();
    let accepts = |field: &str| tool.input_schema["properties"].get(field).is_some();
    if ENVELOPE_ANALYSES.contains(&args.analysis.as_str()) {
        if let Some(kind) = &args.kind {
            arguments.insert("kind".into(), kind.clone().into());
        }
        if let Some(path) = &args.path {
            arguments.insert(
                "scope".into(),
                serde_json::json!({ "type": "directory", "path": path }),
            );
        }
    } else if accepts("project_path") {
        let path = args.path.clone().unwrap_or_else(|| ".".into());
        arguments.insert("project_path".into(), path.into());
    }
    if let (Some(threshold), true) = (args.complexity_threshold, accepts("complexity_threshold")) {
        arguments.insert("complexity_threshold".into(), threshold.into());
    }
    if accepts("limit") {
        arguments.insert("limit".into(), 5000.into());
    }
    if let Some(extra) = &args.args {
        match serde_json::from_str::<serde_json::Value>(extra) {
            Ok(serde_json::Value::Object(extra)) => arguments.extend(extra),
            _ => {
                eprintln!("--args: expected a JSON object of the tool's arguments");
                return Ok(2);
            }
        }
    }
    let workspace = open_workspace(&args.workspace, false)?;
    workspace.refresh();
    let arguments = serde_json::Value::Object(arguments);
    let context = ToolContext {
        workspace,
        tool_names: tools.names(),
        gate: load_config(&args.workspace)?.0.quality_gate,
    };
    // Long analyses report progress; on a terminal it is drawn as a bar.
    let bar = indicatif::ProgressBar::new_spinner();
    let budget = lingo::budget::Budget::new(None);
    {
        let bar = bar.clone();
        budget.report_progress_to(std::sync::Arc::new(move |p| {
            bar.set_message(p.message.clone());
            bar.tick();
        }));
    }
    let called = budget.scope(|| tools.call(tool, &context, &arguments));
    bar.finish_and_clear();
    let answer = match called {
        Ok(answer) => answer,
        Err(error) => {
            eprintln!("{}: {error}", error.code());
            return Ok(2);
        }
    };
    let value = &answer.value();
    let out = match args.format.as_str() {
        "text" => tool.render(&arguments, &answer),
        "markdown"
            if tool.name.starts_with("analyze_deep") || tool.name.ends_with("comprehensive") =>
        {
            tool.render(&arguments, &answer)
        }
        "markdown" => report::markdown(value),
        "junit" => report::junit(value, fail_on.unwrap_or(Severity::Low)),
        "sarif" => serde_json::to_string_pretty(&sarif::sarif(tool.name, value))? + "\n",
        _ => serde_json::to_string_pretty(value)? + "\n",
    };
    print!("{out}");
    std::io::Write::flush(&mut std::io::stdout())?;
    let failed = match value["passed"].as_bool() {
        Some(passed) => !passed,
        None => fail_on.is_some_and(|floor| at_or_above(value, floor)),
    };
    Ok(i32::from(failed))
}

/// Whether an analysis's answer holds something at `floor` or above: a
/// finding by its severity, a file by its defect risk, a clone group (as
/// medium).
fn at_or_above(value: &serde_json::Value, floor: lingo::analyze::Severity) -> bool {
    use lingo::analyze::report::at_least;
    let items = |key: &str| value[key].as_array().cloned().unwrap_or_default();
    items("findings")
        .iter()
        .any(|f| at_least(f["severity"].as_str().unwrap_or("low"), floor))
        || items("files")
            .iter()
            .filter_map(|f| f["risk"].as_str())
            .any(|risk| at_least(risk, floor))
        || (!items("groups").is_empty() && at_least("medium", floor))
}

/// `lingo plugin new`: the crate's files, the next commands; the exit code.
fn plugin_new(args: &PluginNewArgs) -> i32 {
    use lingo::plugin_kit::scaffold::{NewPlugin, create, default_sdk_dir};
    let (grammar, grammar_version) = match args.grammar.split_once('@') {
        Some((name, version)) => (name.to_string(), Some(version.to_string())),
        None => (args.grammar.clone(), None),
    };
    let dir = args
        .dir
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("lingo-plugin-{}", args.name)));
    let sdk = match args.sdk.as_deref() {
        Some("none") => None,
        Some(path) => Some(PathBuf::from(path)),
        None => default_sdk_dir(),
    };
    let extensions = if args.extensions.is_empty() {
        vec![args.name.clone()]
    } else {
        args.extensions.clone()
    };
    let plugin = NewPlugin {
        name: args.name.clone(),
        grammar,
        grammar_version,
        language_fn: args.language_fn.clone(),
        extensions,
        dir: dir.clone(),
        sdk,
    };
    match create(&plugin) {
        Ok(files) => {
            println!("wrote {} files to {}:", files.len(), dir.display());
            for file in files {
                println!("  {file}");
            }
            let wasm = format!(
                "target/wasm32-wasip2/release/lingo_plugin_{}.wasm",
                plugin.name.replace('-', "_")
            );
            println!(
                "next:\n  cd {}\n  cargo build --release --target wasm32-wasip2\n  \
                 lingo plugin check {wasm} conformance\n  lingo plugin test {wasm} conformance",
                dir.display()
            );
            0
        }
        Err(error) => {
            eprintln!("lingo plugin new: {error}");
            2
        }
    }
}

/// `lingo plugin check`: the plugin's info, a line per file; the exit code.
fn plugin_check(args: &PluginCheckArgs) -> anyhow::Result<i32> {
    use lingo::plugin_kit::check::{check_files, claimed_files};
    if let Some(missing) = args.paths.iter().find(|p| !p.exists()) {
        eprintln!(
            "lingo plugin check: no such file or folder: {}",
            missing.display()
        );
        return Ok(2);
    }
    let Some(plugin) = load_for_kit(&args.plugin, args.cache_dir.clone()) else {
        return Ok(2);
    };
    println!("{}", lingo::conformance::describe(plugin.as_ref()));
    println!("queries: compiled, captures checked");
    let files = claimed_files(plugin.as_ref(), &args.paths);
    if files.is_empty() {
        eprintln!(
            "lingo plugin check: no file to check: nothing under the paths given ends in .{}",
            plugin.info().extensions.join(", .")
        );
        return Ok(2);
    }
    let checks = check_files(plugin.as_ref(), &files);
    for check in &checks {
        println!("{}", check.render());
    }
    let failed = checks.iter().filter(|c| c.failed()).count();
    println!("{} files, {failed} failed", checks.len());
    std::io::Write::flush(&mut std::io::stdout())?;
    Ok(if failed > 0 { 1 } else { 0 })
}

/// The plugin at `wasm`, loaded as `lingo serve --plugin` loads it; `None`
/// after saying why it cannot be.
fn load_for_kit(
    wasm: &std::path::Path,
    cache_dir: Option<PathBuf>,
) -> Option<Arc<dyn lingo::runtime::LanguagePlugin>> {
    let cache_dir = cache_dir.or_else(lingo::runtime::default_cache_dir);
    match lingo::conformance::load_plugin(wasm, cache_dir) {
        Ok(plugin) => Some(plugin),
        Err(error) => {
            eprintln!("cannot load plugin: {error}");
            None
        }
    }
}

/// `lingo plugin test`: the plugin's info, the failures, a summary line;
/// the exit code.
fn plugin_test(args: &PluginTestArgs) -> anyhow::Result<i32> {
    let Some(plugin) = load_for_kit(&args.plugin, args.cache_dir.clone()) else {
        return Ok(2);
    };
    println!("{}", lingo::conformance::describe(plugin.as_ref()));
    if args.bless {
        for blessed in lingo::conformance::bless(&plugin, &args.fixtures)? {
            match blessed.outcome {
                Ok(entries) => println!("blessed {} ({entries} entries)", blessed.case),
                Err(why) => println!("not blessed {}: {why}", blessed.case),
            }
        }
    }
    let report = lingo::conformance::run(&plugin, &args.fixtures)?;
    print!("{}", report.render());
    std::io::Write::flush(&mut std::io::stdout())?;
    Ok(report.exit_code())
}

fn serve(command: ServeCommand) -> anyhow::Result<()> {
    let ServeCommand {
        workspace: args,
        hosted,
        tools: chosen,
    } = command;
    let (file, _) = load_config(&args)?;
    let request_timeout = args
        .request_timeout_ms
        .or(file.request_timeout_ms)
        .map_or(lingo::mcp::DEFAULT_REQUEST_TIMEOUT, Duration::from_millis);
    let tools = ToolRegistry::new();
    let server = match &hosted.projects {
        Some(path) => {
            let config = RuntimeConfig {
                compilation: Compilation::Tiered,
                ..runtime_config(&args)?
            };
            let opener = lingo::projects::WorkspaceOpener {
                plugins: Arc::new(load_plugins(&config)?),
                cache_dir: config.cache_dir.clone(),
                watch: true,
                tool_names: tools.names(),
            };
            let projects = lingo::projects::config::ProjectsFile::read(path)?;
            let registry = lingo::projects::ProjectRegistry::load(projects, opener)?;
            let mut known = tools.names();
            known.extend(lingo::projects::tools::NAMES);
            let selection = chosen.selection(&file.tools, &known)?;
            Server::hosted(tools, selection, Arc::new(registry))
        }
        None => {
            anyhow::ensure!(
                args.root.is_dir(),
                "{}: not a folder to serve",
                args.root.display()
            );
            // A change a crash interrupted is finished (or discarded)
            // before the handshake: a client may read the files itself.
            let config = runtime_config(&args)?;
            lingo::workspace::Workspace::recover_at(&args.root, config.cache_dir.as_deref())?;
            let tool_names = tools.names();
            let selection = chosen.selection(&file.tools, &tool_names)?;
            // The plugins load (and, on a first start, compile) and the
            // workspace opens beside the handshake; then it indexes in the
            // background. Tools wait for both a bounded time (or, about one
            // file, analyse that file first), the handshake not at all.
            Server::opening(tools, selection, request_timeout, move || {
                let workspace = open_workspace(&args, true)?;
                tracing::info!(root = %workspace.root().display(), "serving one workspace");
                let first = workspace.start_refresh();
                warm_graph_after(&workspace, first);
                Ok(ToolContext {
                    workspace,
                    tool_names,
                    gate: file.quality_gate,
                })
            })
        }
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    match hosted.http {
        Some(addr) => {
            let options = lingo::mcp::http::HttpOptions {
                tokens: load_tokens(hosted.tokens.as_deref())?,
                allowed_hosts: hosted.allowed_hosts,
                allowed_origins: hosted.allowed_origins,
            };
            let shutdown = tokio_util::sync::CancellationToken::new();
            let on_signal = shutdown.clone();
            runtime.block_on(async move {
                tokio::spawn(async move {
                    let _ = tokio::signal::ctrl_c().await;
                    tracing::info!("interrupted; finishing in-flight requests");
                    on_signal.cancel();
                });
                lingo::mcp::http::serve(server, addr, options, shutdown).await
            })?;
        }
        None => {
            tracing::info!("serving MCP on stdio");
            runtime.block_on(lingo::mcp::serve(
                server,
                tokio::io::stdin(),
                tokio::io::stdout(),
            ))?;
        }
    }
    // Don't wait for blocking tasks (e.g. a plugin call still running).
    runtime.shutdown_timeout(Duration::from_millis(100));
    // But let a graph being saved reach the database: without it the next
    // start resolves every reference again.
    if !lingo::graph::wait_for_saves(GRAPH_SAVE_WAIT) {
        tracing::warn!("stopped before the graph was saved");
    }
    Ok(())
}

/// The bearer tokens: the tokens file, else `LINGO_TOKEN`, else none.
fn load_tokens(file: Option<&std::path::Path>) -> anyhow::Result<lingo::projects::access::Tokens> {
    use lingo::projects::access::Tokens;
    use lingo::projects::config::TokensFile;
    if let Some(path) = file {
        let tokens = Tokens::from_file(TokensFile::read(path)?)?;
        anyhow::ensure!(!tokens.is_empty(), "{}: no [[token]] in it", path.display());
        return Ok(tokens);
    }
    match std::env::var("LINGO_TOKEN") {
        Ok(secret) if !secret.is_empty() => Ok(Tokens::single(&secret)?),
        _ => Ok(Tokens::default()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_purge_delay_option_is_the_one_set() {
        // Its documented default (1000 ms) tells it from its neighbours
        // (a deprecated option at 0 or 1, use_numa_nodes 0).
        // SAFETY: reads an integer option of the allocator.
        let default = unsafe { libmimalloc_sys::mi_option_get(MI_OPTION_PURGE_DELAY) };
        assert_eq!(default, 1000);
        purge_freed_memory_at_once();
        assert_eq!(
            unsafe { libmimalloc_sys::mi_option_get(MI_OPTION_PURGE_DELAY) },
            0
        );
    }

    #[test]
    fn the_huge_pages_option_is_the_one_set() {
        // Its default (1) and its neighbours' (32 pages reclaimed across
        // threads before it, a minimal purge size of 0 after it) tell it.
        // SAFETY: reads integer options of the allocator.
        let around = |option| unsafe { libmimalloc_sys::mi_option_get(option) };
        assert_eq!(around(MI_OPTION_ALLOW_THP - 1), 32);
        assert_eq!(around(MI_OPTION_ALLOW_THP + 1), 0);
        assert_eq!(around(MI_OPTION_ALLOW_THP), 1);
        no_transparent_huge_pages();
        assert_eq!(around(MI_OPTION_ALLOW_THP), 0);
    }
}
