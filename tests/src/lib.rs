//! Shared harness of the end-to-end tests: finding (and refreshing) the built
//! `lingo` binary, copying fixture workspaces into scratch directories, and
//! starting `lingo serve` either behind the official MCP client (rmcp) or as
//! a raw child process spoken to in JSON-RPC lines.

pub mod hosted;

use std::path::{Path, PathBuf};
use std::process::{ExitStatus, Stdio};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use anyhow::{Context, bail};
use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, ClientConfig, Implementation, ProtocolVersion,
};
use rmcp::service::RunningService;
use rmcp::transport::TokioChildProcess;
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

/// How long any single exchange with the server may take before the test
/// fails. It is a failure condition, not a timing assertion: it only has to
/// be long enough for a slow, shared machine.
pub const PATIENCE: Duration = Duration::from_secs(60);

/// Directory of this package (`tests/`).
pub fn package_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Directory of the cargo workspace.
pub fn workspace_dir() -> PathBuf {
    package_dir()
        .parent()
        .expect("tests/ has a parent")
        .to_path_buf()
}

/// A fixture workspace under `tests/fixtures/`. Never modify it in place: use
/// [`Scratch::copy_fixture`] for tests that write.
pub fn fixture(name: &str) -> PathBuf {
    let path = package_dir().join("fixtures").join(name);
    assert!(path.is_dir(), "fixture {} is missing", path.display());
    path
}

/// The profile directory the running test executable was built into
/// (`target/debug` for `target/debug/deps/e2e-…`).
fn profile_dir() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let mut dir = exe.parent()?.to_path_buf();
    if dir.file_name().is_some_and(|n| n == "deps") {
        dir = dir.parent()?.to_path_buf();
    }
    Some(dir)
}

/// The `lingo` binary the tests drive.
///
/// `LINGO_BIN` names one explicitly. Otherwise it is the binary cargo built
/// for the end-to-end tests (`CARGO_BIN_EXE_lingo` of the `e2e` test target),
/// which sits in the profile directory of the running test executable.
/// Panics with a clear message when no binary can be found.
pub fn lingo_bin() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        if let Some(bin) = std::env::var_os("LINGO_BIN") {
            let bin = PathBuf::from(bin);
            assert!(bin.is_file(), "LINGO_BIN={} is not a file", bin.display());
            return bin;
        }
        let profile = profile_dir().unwrap_or_else(|| workspace_dir().join("target").join("debug"));
        let bin = profile.join(format!("lingo{}", std::env::consts::EXE_SUFFIX));
        assert!(
            bin.is_file(),
            "the lingo binary was not found at {}; run the tests with `cargo test` \
             (or point LINGO_BIN at one)",
            bin.display()
        );
        bin
    })
}

/// Compiled plugin components are cached here, shared by all tests (never the
/// user's own cache).
pub fn cache_dir() -> PathBuf {
    let target = lingo_bin()
        .parent()
        .and_then(Path::parent)
        .map(Path::to_path_buf)
        .unwrap_or_else(|| workspace_dir().join("target"));
    target.join("lingo-e2e").join("component-cache")
}

/// The hostile test plugin component, built by the host's build script.
pub fn hostile_plugin() -> PathBuf {
    let path = Path::new(lingo::runtime::artifact_dir()).join("lingo_plugin_hostile.wasm");
    assert!(
        path.is_file(),
        "hostile plugin component missing at {}",
        path.display()
    );
    path
}

/// A scratch directory, removed when dropped. It lives in the system's
/// temporary directory, outside the repository, so that no `.gitignore` of
/// the repository applies to workspaces copied into it.
pub struct Scratch {
    path: PathBuf,
}

impl Scratch {
    pub fn new(label: &str) -> Self {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let n = COUNTER.fetch_add(1, Ordering::SeqCst);
        let path =
            std::env::temp_dir().join(format!("lingo-e2e-{label}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).expect("create scratch directory");
        Scratch { path }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Copy the fixture `name` to `<scratch>/<name>` and return that root.
    pub fn copy_fixture(&self, name: &str) -> PathBuf {
        let target = self.path.join(name);
        copy_dir(&fixture(name), &target).expect("copy fixture");
        target
    }

    /// Write `contents` to `relative` (creating directories).
    pub fn write(&self, relative: &str, contents: impl AsRef<[u8]>) -> PathBuf {
        let path = self.path.join(relative);
        std::fs::create_dir_all(path.parent().expect("file has a parent"))
            .expect("create directories");
        std::fs::write(&path, contents).expect("write scratch file");
        path
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

fn copy_dir(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_dir(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), &target)?;
        }
    }
    Ok(())
}

/// `lingo serve --root <root> --cache-dir <shared cache> <extra…>`. The
/// caller decides where stdin, stdout and stderr go.
pub fn serve_command(root: &Path, extra: &[&str]) -> Command {
    let mut command = Command::new(lingo_bin());
    command
        .arg("serve")
        .arg("--root")
        .arg(root)
        .arg("--cache-dir")
        .arg(cache_dir())
        .args(extra)
        .env_remove("LINGO_CACHE_DIR")
        .env("LINGO_LOG", "info")
        // Every tool: the tests call them all (a `--toolsets` in `extra` wins).
        .env("LINGO_TOOLSETS", "all")
        // Their answers as `structuredContent` too, which the tests read.
        .env("LINGO_STRUCTURED_OUTPUT", "true")
        .kill_on_drop(true);
    command
}

/// A file for the server's log (its stderr), in a scratch directory of its own.
fn log_file(label: &str) -> (Scratch, PathBuf, std::fs::File) {
    let scratch = Scratch::new(&format!("{label}-log"));
    let log = scratch.path().join("lingo.log");
    let file = std::fs::File::create(&log).expect("create server log");
    (scratch, log, file)
}

/// Await `future`, failing the test if it takes longer than [`PATIENCE`].
pub async fn patiently<F: std::future::Future>(what: &str, future: F) -> F::Output {
    match tokio::time::timeout(PATIENCE, future).await {
        Ok(output) => output,
        Err(_) => panic!("{what}: no answer within {PATIENCE:?}"),
    }
}

/// The outcome of one `tools/call`: the structured result and `isError`.
#[derive(Debug, Clone)]
pub struct ToolOutcome {
    pub is_error: bool,
    pub value: Value,
    /// The text content block.
    pub text: String,
}

impl ToolOutcome {
    /// The value of a successful call; panics (with the error) otherwise.
    pub fn ok(self) -> Value {
        assert!(!self.is_error, "expected success, got {:#}", self.value);
        self.value
    }

    /// The `error` object of a failed call, after checking its shape:
    /// `{"success": false, "error": {code, message, details, suggestions}}`.
    pub fn err(self) -> Value {
        assert!(
            self.is_error,
            "expected an error result, got {:#}",
            self.value
        );
        assert_eq!(self.value["success"], json!(false), "{:#}", self.value);
        let error = self.value["error"].clone();
        assert!(error["code"].is_string(), "error without code: {error:#}");
        assert!(
            error["message"].as_str().is_some_and(|m| !m.is_empty()),
            "error without message: {error:#}"
        );
        assert!(
            error["details"].is_object(),
            "error without details: {error:#}"
        );
        assert!(
            error["suggestions"].is_array(),
            "error without suggestions: {error:#}"
        );
        error
    }

    /// The text of a successful call whose answer is text (graph tools).
    pub fn text(self) -> String {
        assert!(!self.is_error, "expected success, got {:#}", self.value);
        assert_eq!(self.value["format"], json!("text"), "{:#}", self.value);
        self.text
    }

    /// The error code of a failed call.
    pub fn code(self) -> String {
        self.err()["code"]
            .as_str()
            .expect("code is a string")
            .to_string()
    }
}

/// A `lingo serve` process behind the official MCP client.
pub struct McpServer {
    pub client: RunningService<RoleClient, ClientConfig>,
    pid: Option<u32>,
    log: PathBuf,
    _log_dir: Scratch,
}

/// Every tool's `outputSchema`, compiled once.
fn output_validators() -> &'static std::collections::HashMap<&'static str, jsonschema::Validator> {
    static VALIDATORS: OnceLock<std::collections::HashMap<&'static str, jsonschema::Validator>> =
        OnceLock::new();
    VALIDATORS.get_or_init(|| {
        let tools = lingo::tools::ToolRegistry::new();
        tools
            .tools()
            .iter()
            .flat_map(|tool| {
                let validator =
                    jsonschema::validator_for(&tool.output_schema).unwrap_or_else(|e| {
                        panic!("{}: outputSchema does not compile: {e}", tool.name)
                    });
                std::iter::once(tool.name)
                    .chain(tool.aliases.iter().copied())
                    .map(move |name| (name, validator.clone()))
            })
            .collect()
    })
}

/// `value` is what the tool's `outputSchema` says its structured content is.
pub fn check_output_schema(tool: &str, value: &Value) {
    let validator = output_validators()
        .get(tool)
        .unwrap_or_else(|| panic!("no tool `{tool}`"));
    let errors: Vec<String> = validator
        .iter_errors(value)
        .take(5)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "{tool}: structuredContent does not match its outputSchema: {errors:#?}\n{value:#}"
    );
}

impl McpServer {
    /// Start on `root` with the client's default protocol version.
    pub async fn start(root: &Path, extra: &[&str]) -> anyhow::Result<Self> {
        Self::start_with(root, extra, ProtocolVersion::default()).await
    }

    /// Start on `root`, asking for protocol `version` in the handshake.
    pub async fn start_with(
        root: &Path,
        extra: &[&str],
        version: ProtocolVersion,
    ) -> anyhow::Result<Self> {
        Self::start_command(serve_command(root, extra), version).await
    }

    /// Start `command` (a [`serve_command`] the caller changed), asking for
    /// protocol `version` in the handshake.
    pub async fn start_command(command: Command, version: ProtocolVersion) -> anyhow::Result<Self> {
        let (log_dir, log, log_file) = log_file("mcp");
        let (transport, _) = TokioChildProcess::builder(command)
            .stderr(log_file)
            .spawn()
            .context("spawn lingo")?;
        let pid = transport.id();
        let config = ClientConfig::new(
            ClientCapabilities::default(),
            Implementation::new("lingo-e2e", "0.1.0"),
        )
        .with_protocol_version(version);
        let client = match tokio::time::timeout(PATIENCE, config.serve(transport)).await {
            Ok(Ok(client)) => client,
            Ok(Err(error)) => bail!("handshake failed: {error}\nserver log:\n{}", read_log(&log)),
            Err(_) => bail!(
                "no handshake within {PATIENCE:?}\nserver log:\n{}",
                read_log(&log)
            ),
        };
        Ok(McpServer {
            client,
            pid,
            log,
            _log_dir: log_dir,
        })
    }

    /// The server's log so far.
    pub fn log(&self) -> String {
        read_log(&self.log)
    }

    /// Call `tool` with `arguments` (a JSON object). Checks the text
    /// content: the structured content pretty-printed when the call asks
    /// for `format: json`; otherwise compact text within the call's token
    /// budget.
    pub async fn call(&self, tool: &str, arguments: Value) -> ToolOutcome {
        let Value::Object(arguments) = arguments else {
            panic!("arguments must be an object")
        };
        let wants_json = arguments.get("format") == Some(&json!("json"));
        let wants_sarif = arguments.get("format") == Some(&json!("sarif"));
        let max_tokens = arguments
            .get("max_tokens")
            .and_then(Value::as_u64)
            .unwrap_or(lingo::tools::text::DEFAULT_MAX_TOKENS as u64)
            as usize;
        let params = CallToolRequestParams::new(tool.to_string()).with_arguments(arguments);
        let result = match tokio::time::timeout(PATIENCE, self.client.call_tool(params)).await {
            Ok(Ok(result)) => result,
            Ok(Err(error)) => panic!(
                "tools/call {tool} failed: {error}\nserver log:\n{}",
                self.log()
            ),
            Err(_) => panic!(
                "tools/call {tool}: no answer within {PATIENCE:?}\nserver log:\n{}",
                self.log()
            ),
        };
        let value = result
            .structured_content
            .clone()
            .unwrap_or_else(|| panic!("{tool}: no structuredContent"));
        assert_eq!(
            result.content.len(),
            1,
            "{tool}: one content block expected"
        );
        let text = &result.content[0]
            .as_text()
            .unwrap_or_else(|| panic!("{tool}: content is not text"))
            .text;
        check_output_schema(tool, &value);
        if wants_json {
            let parsed: Value = serde_json::from_str(text)
                .unwrap_or_else(|e| panic!("{tool}: text is not JSON: {e}"));
            assert_eq!(parsed, value, "{tool}: text and structuredContent differ");
        } else if wants_sarif && !result.is_error.unwrap_or(false) {
            let parsed: Value = serde_json::from_str(text)
                .unwrap_or_else(|e| panic!("{tool}: text is not a SARIF log: {e}"));
            assert_eq!(parsed["version"], "2.1.0", "{tool}: {text}");
        } else {
            assert!(
                !text.trim().is_empty() && serde_json::from_str::<Value>(text).is_err(),
                "{tool}: the default text is compact text, not JSON: {text}"
            );
            // The budget holds, give or take the closing lines (which
            // repeat the arguments of the next page).
            let bound = max_tokens * lingo::tools::text::BYTES_PER_TOKEN + 1024;
            assert!(
                text.len() <= bound,
                "{tool}: {} bytes of text for max_tokens {max_tokens}",
                text.len()
            );
            if value["format"] == json!("text") && text.len() < bound / 2 {
                // Text answers (the graph tools) carry their text whole
                // when it fits.
                let own = value["text"].as_str().unwrap_or_default();
                assert!(text.starts_with(own.trim_end()), "{tool}: {text}");
            }
        }
        ToolOutcome {
            is_error: result.is_error.unwrap_or(false),
            value,
            text: text.clone(),
        }
    }

    /// Poll `health_check` until the workspace is indexed (no refresh
    /// running), for at most `limit`; returns the last report. A server
    /// that answers only once indexed is ready at the first answer.
    pub async fn wait_until_indexed(&self, limit: Duration) -> Value {
        let started = std::time::Instant::now();
        loop {
            let health = self.call("health_check", json!({})).await.ok();
            let refreshing = health["refreshing"] == json!(true)
                || health["workspace"]["state"]
                    .as_str()
                    .is_some_and(|s| s != "Ready");
            if !refreshing {
                return health;
            }
            if started.elapsed() > limit {
                panic!("the workspace is still being indexed after {limit:?}: {health:#}");
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// The server process's id.
    pub fn pid(&self) -> Option<u32> {
        self.pid
    }

    /// The server process's memory now (Linux: `/proc/<pid>/status`).
    pub fn memory(&self) -> Option<ProcessMemory> {
        ProcessMemory::of(self.pid?)
    }

    /// Whether the server process still runs (Linux: not gone, not a zombie).
    pub fn is_alive(&self) -> bool {
        self.pid.is_some_and(process_alive)
    }

    /// Call `tool` with `arguments`, allowing at most `limit`. Unlike
    /// [`McpServer::call`] it does not panic: a call that gets no answer in
    /// time, a protocol-level error, a dead server or an answer that is not
    /// a well-formed tool result comes back as `Err` with a description.
    pub async fn try_call(
        &self,
        tool: &str,
        arguments: Value,
        limit: Duration,
    ) -> Result<Timed<ToolOutcome>, String> {
        let Value::Object(arguments) = arguments else {
            return Err("arguments must be an object".into());
        };
        let params = CallToolRequestParams::new(tool.to_string()).with_arguments(arguments);
        let started = std::time::Instant::now();
        let result = match tokio::time::timeout(limit, self.client.call_tool(params)).await {
            Ok(Ok(result)) => result,
            Ok(Err(error)) => {
                return Err(format!(
                    "tools/call {tool} failed after {:?}: {error}",
                    started.elapsed()
                ));
            }
            Err(_) => return Err(format!("tools/call {tool}: no answer within {limit:?}")),
        };
        let elapsed = started.elapsed();
        let Some(value) = result.structured_content.clone() else {
            return Err(format!("{tool}: no structuredContent"));
        };
        let text = match result.content.as_slice() {
            [block] => match block.as_text() {
                Some(text) => text.text.clone(),
                None => return Err(format!("{tool}: content is not text")),
            },
            blocks => return Err(format!("{tool}: {} content blocks", blocks.len())),
        };
        let is_error = result.is_error.unwrap_or(false);
        if is_error
            && !(value["success"] == json!(false)
                && value["error"]["code"].is_string()
                && value["error"]["message"].is_string())
        {
            return Err(format!(
                "{tool}: an error result without code and message: {value}"
            ));
        }
        Ok(Timed {
            elapsed,
            value: ToolOutcome {
                is_error,
                value,
                text,
            },
        })
    }

    /// Close the connection (end of input for the server) and wait up to
    /// `limit` for the process to exit; if it has not, kill it. Returns how
    /// long the exit took, or a description of the failure.
    pub async fn stop_within(mut self, limit: Duration) -> Result<Duration, String> {
        let started = std::time::Instant::now();
        let _ = self.client.close_with_timeout(limit).await;
        let Some(pid) = self.pid else {
            return Ok(started.elapsed());
        };
        while process_alive(pid) && started.elapsed() < limit {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        if process_alive(pid) {
            let _ = std::process::Command::new("kill")
                .args(["-KILL", &pid.to_string()])
                .status();
            return Err(format!(
                "the server (pid {pid}) did not exit within {limit:?} of its input closing; killed"
            ));
        }
        Ok(started.elapsed())
    }

    /// Close the connection and wait for the client (and child) to wind down.
    pub async fn stop(mut self) {
        let _ = self.client.close_with_timeout(PATIENCE).await;
    }
}

/// Something and how long it took.
#[derive(Debug, Clone)]
pub struct Timed<T> {
    pub elapsed: Duration,
    pub value: T,
}

/// Memory figures of a process, in KiB, from `/proc/<pid>/status`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProcessMemory {
    /// Resident set size now (`VmRSS`).
    pub rss_kib: u64,
    /// Peak resident set size (`VmHWM`).
    pub peak_kib: u64,
}

impl ProcessMemory {
    /// The figures of process `pid`, or `None` when it is gone (or the
    /// system has no `/proc`).
    pub fn of(pid: u32) -> Option<Self> {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
        let field = |name: &str| {
            status.lines().find_map(|line| {
                let rest = line.strip_prefix(name)?.strip_prefix(':')?;
                rest.trim()
                    .trim_end_matches("kB")
                    .trim()
                    .parse::<u64>()
                    .ok()
            })
        };
        Some(ProcessMemory {
            rss_kib: field("VmRSS")?,
            peak_kib: field("VmHWM")?,
        })
    }

    /// Peak resident set size in MiB.
    pub fn peak_mib(&self) -> u64 {
        self.peak_kib / 1024
    }

    /// Resident set size now in MiB.
    pub fn rss_mib(&self) -> u64 {
        self.rss_kib / 1024
    }
}

/// Whether process `pid` exists and has not exited (a zombie has).
pub fn process_alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // `pid (comm) S ...`: the state follows the last `)`.
        Ok(stat) => stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().next())
            .is_some_and(|state| state != "Z" && state != "X"),
        Err(_) => false,
    }
}

/// Start `lingo serve` on `root` with the hostile test plugin, a 1 s
/// deadline and a 64 MiB memory cap per plugin call, then `extra`.
pub async fn start_hostile(root: &Path, extra: &[&str]) -> McpServer {
    start_hostile_with(root, 1000, 64, extra).await
}

/// Start `lingo serve` on `root` with the hostile test plugin, a deadline
/// of `timeout_ms` and a memory cap of `memory_mb` per plugin call, then
/// `extra`.
pub async fn start_hostile_with(
    root: &Path,
    timeout_ms: u64,
    memory_mb: u64,
    extra: &[&str],
) -> McpServer {
    let mut args = hostile_args(timeout_ms, memory_mb);
    args.extend(extra.iter().map(|a| a.to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    McpServer::start(root, &args)
        .await
        .expect("start lingo with the hostile plugin")
}

/// The `lingo serve` options that load the hostile test plugin with a
/// deadline of `timeout_ms` and a memory cap of `memory_mb` per call.
pub fn hostile_args(timeout_ms: u64, memory_mb: u64) -> Vec<String> {
    vec![
        "--plugin".to_string(),
        hostile_plugin().display().to_string(),
        "--plugin-timeout-ms".to_string(),
        timeout_ms.to_string(),
        "--plugin-memory-mb".to_string(),
        memory_mb.to_string(),
    ]
}

/// Start a raw `lingo serve` on `root` with `extra`, make one `tools/call`
/// and return the reply line as sent (unparsed), then end the server.
pub async fn raw_tool_answer(root: &Path, extra: &[&str], tool: &str, arguments: Value) -> String {
    let mut server = RawServer::start(root, extra);
    server.initialize("2025-11-25").await;
    let line = server.call_raw(1, tool, arguments).await;
    drop(server);
    line
}

fn read_log(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}

/// A `lingo serve` process spoken to directly: bytes in, JSON lines out.
pub struct RawServer {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: Lines<BufReader<ChildStdout>>,
    log: PathBuf,
    _log_dir: Scratch,
}

impl RawServer {
    pub fn start(root: &Path, extra: &[&str]) -> Self {
        let (log_dir, log, log_file) = log_file("raw");
        let mut command = serve_command(root, extra);
        command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(log_file);
        let mut child = command.spawn().expect("spawn lingo");
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().expect("piped stdout")).lines();
        RawServer {
            child,
            stdin,
            stdout,
            log,
            _log_dir: log_dir,
        }
    }

    /// The server process's id, while it runs.
    pub fn pid(&self) -> Option<u32> {
        self.child.id()
    }

    /// The server's log so far.
    pub fn log(&self) -> String {
        read_log(&self.log)
    }

    /// Write raw bytes to the server's stdin.
    pub async fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        patiently("write to stdin", async {
            stdin.write_all(bytes).await.expect("write to lingo");
            stdin.flush().await.expect("flush to lingo");
        })
        .await;
    }

    /// Write one JSON value as a line.
    pub async fn send(&mut self, message: &Value) {
        let mut line = serde_json::to_vec(message).expect("serialise");
        line.push(b'\n');
        self.send_bytes(&line).await;
    }

    /// The next stdout line, which must be a JSON-RPC 2.0 response: `jsonrpc`
    /// "2.0", an `id`, and exactly one of `result` and `error`.
    pub async fn recv(&mut self) -> Value {
        let line = match tokio::time::timeout(PATIENCE, self.stdout.next_line()).await {
            Ok(Ok(Some(line))) => line,
            Ok(Ok(None)) => panic!("lingo closed stdout\nserver log:\n{}", self.log()),
            Ok(Err(error)) => panic!("reading lingo's stdout: {error}"),
            Err(_) => panic!(
                "no line from lingo within {PATIENCE:?}\nserver log:\n{}",
                self.log()
            ),
        };
        check_response_line(&line)
    }

    /// The next stdout line as sent, unparsed (for answers a JSON parser
    /// may refuse, such as deeply nested ones).
    pub async fn recv_raw(&mut self) -> String {
        match tokio::time::timeout(PATIENCE, self.stdout.next_line()).await {
            Ok(Ok(Some(line))) => line,
            Ok(Ok(None)) => panic!("lingo closed stdout\nserver log:\n{}", self.log()),
            Ok(Err(error)) => panic!("reading lingo's stdout: {error}"),
            Err(_) => panic!(
                "no line from lingo within {PATIENCE:?}\nserver log:\n{}",
                self.log()
            ),
        }
    }

    /// `tools/call` of `tool` with `arguments` (id `id`); the reply line as
    /// sent.
    pub async fn call_raw(&mut self, id: u64, tool: &str, arguments: Value) -> String {
        self.send(&json!({
            "jsonrpc": "2.0",
            "id": id,
            "method": "tools/call",
            "params": { "name": tool, "arguments": arguments },
        }))
        .await;
        self.recv_raw().await
    }

    /// Send a request and return the reply carrying the same id.
    pub async fn request(&mut self, id: Value, method: &str, params: Value) -> Value {
        self.send(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }))
            .await;
        let reply = self.recv().await;
        assert_eq!(reply["id"], id, "reply to another request: {reply}");
        reply
    }

    /// `initialize` with `version`; returns the result.
    pub async fn initialize(&mut self, version: &str) -> Value {
        let reply = self
            .request(
                json!("init"),
                "initialize",
                json!({
                    "protocolVersion": version,
                    "capabilities": {},
                    "clientInfo": { "name": "lingo-e2e-raw", "version": "0.1.0" }
                }),
            )
            .await;
        self.send(&json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }))
            .await;
        reply["result"].clone()
    }

    /// Close stdin, read what is left of stdout (every line must be a
    /// JSON-RPC response) and wait for the process to exit.
    pub async fn finish(mut self) -> Finished {
        drop(self.stdin.take());
        let mut replies = Vec::new();
        let outcome = tokio::time::timeout(PATIENCE, async {
            while let Some(line) = self.stdout.next_line().await.expect("read stdout") {
                replies.push(check_response_line(&line));
            }
            self.child.wait().await.expect("wait for lingo")
        })
        .await;
        let log = read_log(&self.log);
        match outcome {
            Ok(status) => Finished {
                status,
                replies,
                log,
            },
            Err(_) => panic!(
                "lingo did not exit within {PATIENCE:?} of stdin closing\nserver log:\n{log}"
            ),
        }
    }
}

/// How a [`RawServer`] ended.
#[derive(Debug)]
pub struct Finished {
    pub status: ExitStatus,
    /// Replies read after stdin was closed.
    pub replies: Vec<Value>,
    /// Everything the server wrote to stderr.
    pub log: String,
}

/// How deeply JSON `text` nests objects and arrays (`{}` is 1). Strings
/// are skipped; the text need not be valid JSON.
pub fn json_nesting(text: &str) -> usize {
    let (mut depth, mut deepest) = (0usize, 0usize);
    let (mut in_string, mut escaped) = (false, false);
    for byte in text.bytes() {
        if in_string {
            match byte {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'{' | b'[' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b'}' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

/// The deepest nesting `serde_json` (and so the Rust MCP client) parses by
/// default; a message nested deeper is refused.
pub const SERDE_JSON_MAX_NESTING: usize = 127;

/// Parse one stdout line as a JSON-RPC 2.0 response, or panic.
pub fn check_response_line(line: &str) -> Value {
    let value: Value = serde_json::from_str(line)
        .unwrap_or_else(|e| panic!("stdout line is not JSON ({e}): {line:?}"));
    assert_eq!(value["jsonrpc"], json!("2.0"), "not JSON-RPC 2.0: {line}");
    assert!(value.get("id").is_some(), "response without id: {line}");
    assert!(
        value.get("result").is_some() != value.get("error").is_some(),
        "a response carries exactly one of result and error: {line}"
    );
    value
}

/// The structured content of a `tools/call` reply read raw.
pub fn tool_value(reply: &Value) -> &Value {
    &reply["result"]["structuredContent"]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[should_panic(expected = "does not match its outputSchema")]
    fn an_answer_missing_its_fields_fails_the_output_schema() {
        check_output_schema("find_references", &json!({ "references": "none" }));
    }

    #[test]
    fn a_refusal_matches_every_output_schema() {
        let refusal = json!({
            "success": false,
            "error": { "code": "SYMBOL_NOT_FOUND", "message": "no symbol", "details": {}, "suggestions": [] },
        });
        for tool in lingo::tools::ToolRegistry::new().tools() {
            check_output_schema(tool.name, &refusal);
        }
    }
}
