//! Server latency on a large workspace: spawns `lingo serve`, speaks
//! newline-delimited JSON-RPC (MCP) over its stdin and stdout, and measures
//! what an agent waits for:
//!
//! - time until the index is ready (`health_check` answers with files),
//! - the first `find_references` after start-up, which builds the symbol
//!   graph ("graph build"), then p50/p99 of `find_references` and
//!   `dependents_of` over a deterministic sample of symbols,
//! - with `--first`, the time from spawning the server to the answer of
//!   one `find_references` asked right after the handshake (on a warm
//!   restart: the index and graph loaded from the database); with
//!   `--sample 0` nothing else,
//! - throughput: `--load` requests (find_references, find_definition at
//!   their sites, search_symbols of a name's first letters and outline of
//!   the sample's files, in equal shares) with `--in-flight` kept
//!   outstanding, then up to 1,000 one at a time: requests/s, p50, p99,
//! - re-index after editing one file: append a comment line to a mid-sized
//!   file and time `find_references` calls until one answers with a higher
//!   `generation` (re-analysis of the file plus the new generation's graph),
//! - the server's peak resident memory (`VmHWM`), read at the end.
//! - with `--rename-near N`, instead of the above after indexing: plan,
//!   apply and roll back a rename with about N references (`workspace/rename.rs`).
//!
//! Latencies are client round trips (request written to answer read), so they
//! include the JSON encoding on both sides and the pipe. Tool errors are
//! counted by code, never dropped.
//!
//! ```text
//! cargo bench --profile dev -p lingo --bench workspace -- --root TREE \
//!     [--lingo PATH] [--cache-dir DIR] [--sample 200] [--seed 42] [--edits 5] [--log FILE] \
//!     [--load 3000] [--in-flight 128] [--first NAME@PATH] [--timeline FILE]
//! ```
//!
//! `host/benches/run-workspace.sh` builds the tree, runs this and the other
//! measurements, and prints the table of BENCHMARKS.md.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

#[path = "workspace/load.rs"]
mod load;
#[path = "workspace/rename.rs"]
mod rename;

/// Symbol kinds the sample is drawn from (LSP kinds as `search_symbols`
/// reports them).
const SAMPLE_KINDS: &[&str] = &["function", "method", "struct", "class"];
/// Page size of the `search_symbols` enumeration (its maximum).
const PAGE: usize = 1000;
/// Extensions of the files an edit may touch (all take `//` comments).
const EDITABLE: &[&str] = &["rs", "ts", "tsx", "js", "go", "cs"];

struct Options {
    lingo: PathBuf,
    root: PathBuf,
    cache_dir: Option<PathBuf>,
    sample: usize,
    seed: u64,
    edits: usize,
    log: Option<PathBuf>,
    /// Requests of the load run (none: no load run).
    load: usize,
    /// Requests kept in flight during the load run.
    in_flight: usize,
    /// `NAME@PATH`: ask `find_references` of it right after the handshake,
    /// before waiting for the index (a restart's time to its first answer).
    first: Option<(String, String)>,
    /// Measure a rename with about this many references, then stop.
    rename_near: Option<u64>,
    /// Write each request of the concurrent load run here: its index, tool,
    /// and when it was sent and answered (ms from the run's start).
    timeline: Option<PathBuf>,
}

fn usage() -> ! {
    eprintln!(
        "usage: workspace --root TREE [--lingo PATH] [--cache-dir DIR] [--sample N] \
         [--seed N] [--edits N] [--log FILE] [--load N] [--in-flight N] [--first NAME@PATH] [--rename-near N] [--timeline FILE]"
    );
    std::process::exit(2);
}

fn options() -> Options {
    let mut options = Options {
        lingo: Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/debug/lingo"),
        root: PathBuf::new(),
        cache_dir: None,
        sample: 200,
        seed: 42,
        edits: 5,
        log: None,
        load: 3000,
        in_flight: 128,
        first: None,
        rename_near: None,
        timeline: None,
    };
    let mut args = std::env::args().skip(1);
    let mut root = None;
    while let Some(arg) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| usage());
        match arg.as_str() {
            "--lingo" => options.lingo = value().into(),
            "--root" => root = Some(PathBuf::from(value())),
            "--cache-dir" => options.cache_dir = Some(value().into()),
            "--sample" => options.sample = number(&value()) as usize,
            "--seed" => options.seed = number(&value()),
            "--edits" => options.edits = number(&value()) as usize,
            "--log" => options.log = Some(value().into()),
            "--load" => options.load = number(&value()) as usize,
            "--in-flight" => options.in_flight = (number(&value()) as usize).max(1),
            "--rename-near" => options.rename_near = Some(number(&value())),
            "--timeline" => options.timeline = Some(value().into()),
            "--first" => {
                let value = value();
                let (name, path) = value.split_once('@').unwrap_or_else(|| usage());
                options.first = Some((name.to_string(), path.to_string()));
            }
            // `cargo bench` passes `--bench`; test-harness filters mean nothing here.
            _ => {}
        }
    }
    options.root = root.unwrap_or_else(|| usage());
    options
}

fn number(text: &str) -> u64 {
    text.parse().unwrap_or_else(|_| usage())
}

/// A `lingo serve` process and its JSON-RPC pipes.
struct Server {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next_id: u64,
}

/// One `tools/call` answer: the tool's JSON value, or its error code.
struct Answer {
    elapsed: Duration,
    result: Result<Value, String>,
}

impl Server {
    fn spawn(options: &Options) -> Server {
        let mut command = Command::new(&options.lingo);
        command
            .arg("serve")
            .args(["--toolsets", "all"])
            .arg("--root")
            .arg(&options.root);
        if let Some(dir) = &options.cache_dir {
            command.arg("--cache-dir").arg(dir);
        }
        let stderr = match &options.log {
            Some(path) => Stdio::from(std::fs::File::create(path).expect("create the log file")),
            None => Stdio::null(),
        };
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .unwrap_or_else(|e| panic!("spawn {}: {e}", options.lingo.display()));
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
        Server {
            child,
            stdin,
            stdout,
            next_id: 1,
        }
    }

    fn send(&mut self, message: &Value) {
        let mut line = serde_json::to_vec(message).expect("serialise");
        line.push(b'\n');
        self.stdin.write_all(&line).expect("write to the server");
        self.stdin.flush().expect("flush the server's stdin");
    }

    /// Send a request and wait for the response with its id (notifications
    /// in between are skipped).
    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        let mut line = String::new();
        loop {
            line.clear();
            let read = self.stdout.read_line(&mut line).expect("read the server");
            assert!(read > 0, "the server closed its stdout during {method}");
            let message: Value = serde_json::from_str(&line).expect("a JSON-RPC line");
            if message["id"] == json!(id) {
                return message;
            }
        }
    }

    /// `tools/call` asking for the JSON answer (`format: json`), which it
    /// reads, timed; an `isError` answer becomes its error code. (The load
    /// runs send what an agent sends: no format, the text answer.)
    fn call(&mut self, tool: &str, mut arguments: Value) -> Answer {
        arguments["format"] = json!("json");
        let started = Instant::now();
        let response = self.request(
            "tools/call",
            json!({ "name": tool, "arguments": arguments }),
        );
        let elapsed = started.elapsed();
        let result = if let Some(error) = response.get("error") {
            Err(format!("JSON-RPC {}", error["code"]))
        } else {
            let result = &response["result"];
            let value = result["structuredContent"].clone();
            if result["isError"] == json!(true) {
                Err(value["error"]["code"]
                    .as_str()
                    .unwrap_or("UNKNOWN")
                    .to_string())
            } else {
                Ok(value)
            }
        };
        Answer { elapsed, result }
    }

    /// `initialize` and `notifications/initialized`.
    fn handshake(&mut self) {
        let response = self.request(
            "initialize",
            json!({
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": { "name": "lingo-workspace-bench", "version": "0" }
            }),
        );
        assert!(response.get("result").is_some(), "initialize: {response}");
        self.send(&json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }));
    }

    /// `VmHWM` and `VmRSS` of the server process, in KiB.
    fn memory_kib(&self) -> (u64, u64) {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .unwrap_or_default();
        let field = |name: &str| {
            status
                .lines()
                .find_map(|line| line.strip_prefix(name))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
                .unwrap_or(0)
        };
        (field("VmHWM:"), field("VmRSS:"))
    }

    /// Close stdin (the server finishes and exits) and wait for it.
    fn stop(self) {
        let Server {
            mut child, stdin, ..
        } = self;
        drop(stdin);
        let _ = child.wait();
    }
}

/// The property names of a tool's input schema, from `tools/list`.
fn schema_properties(server: &mut Server, tool: &str) -> Vec<String> {
    let response = server.request("tools/list", json!({}));
    let tools = response["result"]["tools"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let schema = tools
        .iter()
        .find(|t| t["name"] == json!(tool))
        .unwrap_or_else(|| panic!("tools/list has no {tool}"));
    let mut names: Vec<String> = schema["inputSchema"]["properties"]
        .as_object()
        .map(|p| p.keys().cloned().collect())
        .unwrap_or_default();
    names.sort();
    names
}

/// Call `health_check` until the workspace reports files; returns the
/// answer's workspace object.
fn wait_until_indexed(server: &mut Server) -> Value {
    loop {
        let answer = server.call("health_check", json!({}));
        if let Ok(value) = answer.result {
            let workspace = value["workspace"].clone();
            if workspace["fileCount"].as_u64().unwrap_or(0) > 0 {
                return workspace;
            }
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// A declaration as `search_symbols` lists it.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Declared {
    file: String,
    name: String,
    line: u64,
    kind: String,
}

/// Every declaration of the workspace, paging `search_symbols` with the
/// regex `.`; also the time each page took.
fn all_symbols(server: &mut Server) -> (Vec<Declared>, Vec<Duration>) {
    let mut symbols = Vec::new();
    let mut times = Vec::new();
    loop {
        let answer = server.call(
            "search_symbols",
            json!({ "query": ".", "regex": true, "limit": PAGE, "offset": symbols.len() }),
        );
        times.push(answer.elapsed);
        let page = answer
            .result
            .unwrap_or_else(|code| panic!("search_symbols failed: {code}"));
        for symbol in page["symbols"].as_array().into_iter().flatten() {
            symbols.push(Declared {
                file: symbol["filePath"].as_str().unwrap_or_default().to_string(),
                name: symbol["name"].as_str().unwrap_or_default().to_string(),
                line: symbol["line"].as_u64().unwrap_or(0),
                kind: symbol["kind"].as_str().unwrap_or_default().to_string(),
            });
        }
        if page["hasMore"] != json!(true) {
            return (symbols, times);
        }
    }
}

/// Declarations of a sampled kind whose name no other declaration of the
/// same file carries (so `{symbol, path}` names exactly one), sorted.
fn candidates(symbols: &[Declared]) -> Vec<Declared> {
    let mut per_file: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    for s in symbols {
        *per_file.entry((&s.file, &s.name)).or_default() += 1;
    }
    let mut found: Vec<Declared> = symbols
        .iter()
        .filter(|s| SAMPLE_KINDS.contains(&s.kind.as_str()))
        .filter(|s| per_file[&(s.file.as_str(), s.name.as_str())] == 1)
        .cloned()
        .collect();
    found.sort();
    found
}

/// SplitMix64: a small fixed-seed generator, so the sample is the same on
/// every run over the same tree.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// `count` of `from`, drawn without replacement (partial Fisher-Yates).
fn sample(mut from: Vec<Declared>, count: usize, seed: u64) -> Vec<Declared> {
    let mut random = SplitMix(seed);
    let count = count.min(from.len());
    for i in 0..count {
        let j = i + (random.next() % (from.len() - i) as u64) as usize;
        from.swap(i, j);
    }
    from.truncate(count);
    from
}

/// Latencies of one tool over the sample, and its errors by code.
#[derive(Default)]
struct Series {
    times: Vec<Duration>,
    errors: BTreeMap<String, usize>,
}

impl Series {
    fn record(&mut self, answer: &Answer) {
        self.times.push(answer.elapsed);
        if let Err(code) = &answer.result {
            *self.errors.entry(code.clone()).or_default() += 1;
        }
    }

    fn error_count(&self) -> usize {
        self.errors.values().sum()
    }

    /// `CODE:n,CODE:n`, or `none`.
    fn error_list(&self) -> String {
        if self.errors.is_empty() {
            return "none".into();
        }
        let list: Vec<String> = self
            .errors
            .iter()
            .map(|(c, n)| format!("{c}:{n}"))
            .collect();
        list.join(",")
    }
}

/// The nearest-rank percentile `p` (0-100) of `times`, in milliseconds.
fn percentile_ms(times: &[Duration], p: f64) -> f64 {
    if times.is_empty() {
        return f64::NAN;
    }
    let mut sorted = times.to_vec();
    sorted.sort();
    let rank = ((p / 100.0) * sorted.len() as f64).ceil().max(1.0) as usize;
    sorted[rank.min(sorted.len()) - 1].as_secs_f64() * 1000.0
}

fn ms(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}

fn references_args(s: &Declared) -> Value {
    json!({ "symbol": s.name, "path": s.file })
}

fn dependents_args(s: &Declared) -> Value {
    json!({ "file_path": s.file, "symbol": s.name })
}

/// The file an edit touches: among the workspace's files with an editable
/// extension, the one of median size (ties by path).
fn mid_sized_file(root: &Path, symbols: &[Declared]) -> String {
    let mut files: Vec<(u64, &str)> = symbols
        .iter()
        .map(|s| s.file.as_str())
        .filter(|f| {
            Path::new(f)
                .extension()
                .is_some_and(|e| EDITABLE.iter().any(|x| e == *x))
        })
        .map(|f| (std::fs::metadata(root.join(f)).map_or(0, |m| m.len()), f))
        .collect();
    files.sort();
    files.dedup();
    assert!(!files.is_empty(), "no editable file in the workspace");
    files[files.len() / 2].1.to_string()
}

/// Append a comment line to `file`, then call `find_references` on `probe`
/// until an answer carries a generation above `generation`; the time from
/// the write to that answer, the calls it took, and the new generation.
fn edit_and_wait(
    server: &mut Server,
    file: &Path,
    round: usize,
    probe: &Declared,
    generation: u64,
) -> (Duration, usize, u64) {
    let mut handle = std::fs::OpenOptions::new()
        .append(true)
        .open(file)
        .expect("open the edited file");
    let started = Instant::now();
    writeln!(handle, "// lingo workspace bench edit {round}").expect("append to the edited file");
    drop(handle);
    let mut calls = 0;
    loop {
        calls += 1;
        let answer = server.call("find_references", references_args(probe));
        let seen = match &answer.result {
            Ok(value) => value["generation"].as_u64().unwrap_or(0),
            Err(code) => panic!("find_references failed during the re-index check: {code}"),
        };
        if seen > generation {
            return (started.elapsed(), calls, seen);
        }
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "no new generation within 120 s of the edit"
        );
    }
}

fn main() {
    let options = options();
    let started = Instant::now();
    let mut server = Server::spawn(&options);
    server.handshake();
    let initialized = started.elapsed();
    let properties = schema_properties(&mut server, "search_symbols");
    for needed in ["kinds", "limit", "offset", "query", "regex"] {
        assert!(
            properties.iter().any(|p| p == needed),
            "search_symbols has no `{needed}` in its schema: {properties:?}"
        );
    }
    println!(
        "search_symbols schema properties: {}",
        properties.join(", ")
    );

    let first_answer = options.first.as_ref().map(|(name, path)| {
        // Asked again while the first index has not reached the file, or
        // the graph is still being built when the call's deadline passes.
        let answer = loop {
            let answer = server.call("find_references", json!({ "symbol": name, "path": path }));
            let not_yet = matches!(
                answer.result.as_ref().err().map(String::as_str),
                Some("FILE_NOT_INDEXED" | "REQUEST_TIMEOUT")
            );
            if !not_yet || started.elapsed() > Duration::from_secs(900) {
                break answer;
            }
        };
        let elapsed = started.elapsed();
        let total = match &answer.result {
            Ok(value) => value["pagination"]["total"].to_string(),
            Err(code) => panic!("the first find_references failed: {code}"),
        };
        let (peak_kib, _) = server.memory_kib();
        println!(
            "first find_references ({name} in {path}): {:.3} s from spawn, {total} references, \
             peak RSS so far {:.1} MiB",
            elapsed.as_secs_f64(),
            peak_kib as f64 / 1024.0
        );
        (elapsed, peak_kib)
    });
    if options.first.is_some() && options.sample == 0 {
        // Only the first answer: give the graph's background save time to
        // finish, then stop.
        std::thread::sleep(Duration::from_secs(5));
        server.stop();
        return;
    }
    let mut workspace = wait_until_indexed(&mut server);
    if options.rename_near.is_some() {
        rename::wait_until_ready(&mut server);
        workspace = wait_until_indexed(&mut server);
    }
    let ready = started.elapsed();
    let (memory_ready_kib, _) = server.memory_kib();
    println!(
        "indexed: {} files, {} symbols, generation {} after {:.3} s (handshake {:.3} s)",
        workspace["fileCount"],
        workspace["symbolCount"],
        workspace["generation"],
        ready.as_secs_f64(),
        initialized.as_secs_f64()
    );

    let (symbols, search_times) = all_symbols(&mut server);
    let eligible = candidates(&symbols);
    let chosen = sample(eligible.clone(), options.sample, options.seed);
    assert!(!chosen.is_empty(), "no symbol to sample");
    println!(
        "search_symbols: {} declarations in {} pages (p50 {:.1} ms per page); {} of kinds {:?} \
         unique in their file; sample of {} (seed {})",
        symbols.len(),
        search_times.len(),
        percentile_ms(&search_times, 50.0),
        eligible.len(),
        SAMPLE_KINDS,
        chosen.len(),
        options.seed
    );

    if let Some(near) = options.rename_near {
        rename::run(&mut server, &chosen, near);
        server.stop();
        return;
    }
    // The first find_references builds the graph of this generation.
    let first = server.call("find_references", references_args(&chosen[0]));
    let mut references = Series::default();
    if let Err(code) = &first.result {
        *references.errors.entry(code.clone()).or_default() += 1;
    }
    let generation = first
        .result
        .as_ref()
        .ok()
        .and_then(|v| v["generation"].as_u64())
        .unwrap_or(0);
    println!(
        "graph build (first find_references): {:.1} ms",
        ms(first.elapsed)
    );
    let mut found_references = 0;
    // find_definition at one site each answer lists (if any), for the load
    // run, aligned with `answered`.
    let mut definition_calls = Vec::new();
    // Sample symbols find_references answered, for the load run and the
    // re-index probe.
    let mut answered: Vec<Declared> = Vec::new();
    if let Ok(value) = &first.result {
        definition_calls.push(load::definition_calls(value).into_iter().next());
        answered.push(chosen[0].clone());
    }
    for symbol in &chosen[1..] {
        let answer = server.call("find_references", references_args(symbol));
        if let Ok(value) = &answer.result {
            found_references += value["pagination"]["total"].as_u64().unwrap_or(0);
            definition_calls.push(load::definition_calls(value).into_iter().next());
            answered.push(symbol.clone());
        }
        references.record(&answer);
    }
    let mut dependents = Series::default();
    for symbol in &chosen {
        dependents.record(&server.call("dependents_of", dependents_args(symbol)));
    }
    let (memory_queries_kib, _) = server.memory_kib();
    for (tool, series) in [
        ("find_references", &references),
        ("dependents_of", &dependents),
    ] {
        println!(
            "{tool}: {} calls, p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms, errors {} ({})",
            series.times.len(),
            percentile_ms(&series.times, 50.0),
            percentile_ms(&series.times, 99.0),
            percentile_ms(&series.times, 100.0),
            series.error_count(),
            series.error_list()
        );
    }
    println!(
        "find_references: {found_references} reference sites in total over the sample (declarations included)"
    );

    // Throughput: the four navigation tools an agent calls most, in equal
    // shares, interleaved, many in flight; then the same one at a time.
    let mix = load::navigation_mix(&answered, definition_calls);
    let loads = (options.load > 0 && !mix.is_empty()).then(|| {
        let concurrent = load::run(&mut server, &mix, options.load, options.in_flight);
        concurrent.print("concurrent");
        if let Some(path) = &options.timeline {
            std::fs::write(path, concurrent.timeline(&mix)).expect("write the timeline");
        }
        let serial = load::run(&mut server, &mix, options.load.min(1000), 1);
        serial.print("one at a time");
        (concurrent, serial)
    });
    let (memory_load_kib, _) = server.memory_kib();

    // Re-index after editing one file; the file is restored at the end.
    let edited = mid_sized_file(&options.root, &symbols);
    let edited_path = options.root.join(&edited);
    let original = std::fs::read(&edited_path).expect("read the edited file");
    let probe = answered
        .first()
        .cloned()
        .expect("no find_references call of the sample succeeded");
    let mut reindex = Vec::new();
    let mut generation = generation;
    for round in 1..=options.edits {
        let (elapsed, calls, seen) =
            edit_and_wait(&mut server, &edited_path, round, &probe, generation);
        println!(
            "edit {round} of {edited} ({} bytes): generation {generation} -> {seen} after {:.1} ms, {calls} call(s)",
            original.len(),
            ms(elapsed)
        );
        generation = seen;
        reindex.push(elapsed);
    }
    std::fs::write(&edited_path, &original).expect("restore the edited file");

    let (peak_kib, rss_kib) = server.memory_kib();
    println!(
        "server memory: peak (VmHWM) {:.1} MiB; peak after indexing {:.1} MiB, after the queries {:.1} MiB, \
         after the load {:.1} MiB; now (RSS) {:.1} MiB",
        peak_kib as f64 / 1024.0,
        memory_ready_kib as f64 / 1024.0,
        memory_queries_kib as f64 / 1024.0,
        memory_load_kib as f64 / 1024.0,
        rss_kib as f64 / 1024.0
    );
    server.stop();

    // One machine-readable line for run-workspace.sh.
    println!(
        "RESULT ready_s={:.3} files={} symbols={} sample={} eligible={} graph_build_ms={:.1} \
         refs_n={} refs_p50_ms={:.2} refs_p99_ms={:.2} refs_errors={} refs_error_codes={} \
         deps_n={} deps_p50_ms={:.2} deps_p99_ms={:.2} deps_errors={} deps_error_codes={} \
         reindex_n={} reindex_median_ms={:.1} reindex_max_ms={:.1} edited={} \
         peak_kib={} ready_kib={} load_rps={:.0} load_p50_ms={:.2} load_p99_ms={:.2} \
         load_in_flight={} serial_rps={:.0} first_answer_s={:.3} first_answer_peak_kib={}",
        ready.as_secs_f64(),
        workspace["fileCount"],
        symbols.len(),
        chosen.len(),
        eligible.len(),
        ms(first.elapsed),
        references.times.len(),
        percentile_ms(&references.times, 50.0),
        percentile_ms(&references.times, 99.0),
        references.error_count(),
        references.error_list(),
        dependents.times.len(),
        percentile_ms(&dependents.times, 50.0),
        percentile_ms(&dependents.times, 99.0),
        dependents.error_count(),
        dependents.error_list(),
        reindex.len(),
        percentile_ms(&reindex, 50.0),
        percentile_ms(&reindex, 100.0),
        edited,
        peak_kib,
        memory_ready_kib,
        loads.as_ref().map_or(f64::NAN, |(c, _)| c.per_second()),
        loads
            .as_ref()
            .map_or(f64::NAN, |(c, _)| percentile_ms(&c.latencies, 50.0)),
        loads
            .as_ref()
            .map_or(f64::NAN, |(c, _)| percentile_ms(&c.latencies, 99.0)),
        options.in_flight,
        loads.as_ref().map_or(f64::NAN, |(_, s)| s.per_second()),
        first_answer.map_or(f64::NAN, |(t, _)| t.as_secs_f64()),
        first_answer.map_or(0, |(_, k)| k),
    );
}
