//! Torture sources for each built-in language (Rust, TypeScript, Go, C#,
//! Python, Java): 10,000-deep nesting of declarations, blocks and
//! parenthesised expressions (and 300-deep declarations, which parse at
//! once; Python, which nests blocks by indentation, nests lambdas instead;
//! Java, which has no nested packages, nests classes), a member
//! chain 10,000 links long, a 20 MB file, 300,000 declarations in one
//! file, invalid UTF-8, NUL bytes and a binary file with a source
//! extension. Each case runs on a fresh
//! `lingo serve`, and every tool must answer every call about the file
//! within its deadline, with a result or a structured error (never
//! `INTERNAL_ERROR`, never a protocol error, never a dead server), in a
//! message nested no deeper than a JSON parser with the usual limit reads.
//! A deep file is asked about again after a restart, from the stored index.
//! The files are generated in a scratch directory at test time.

use std::path::{Path, PathBuf};
use std::time::Duration;

use lingo_e2e::{
    ProcessMemory, RawServer, SERDE_JSON_MAX_NESTING, Scratch, json_nesting, process_alive,
};
use serde_json::{Value, json};

/// The server's deadline for one tool call (`--request-timeout-ms`): the
/// call answers by then, with its result or a structured error.
const REQUEST_DEADLINE_MS: u64 = 30_000;

/// Longest any one call may take as the client sees it: the server's
/// deadline and a margin for a shared two-core machine.
const TOOL_DEADLINE: Duration = Duration::from_millis(REQUEST_DEADLINE_MS + 5_000);

/// Longest the first index of one torture workspace may take.
const INDEX_DEADLINE: Duration = Duration::from_secs(90);

/// Nesting depth of the moderately deep files: quick to parse, deeper than
/// any answer may nest.
const SHALLOW_DEPTH: usize = 300;

/// Nesting depth of the deep files.
const DEPTH: usize = 10_000;
/// Declarations of the crowded file.
const DECLARATIONS: usize = 300_000;
/// Size of the huge file: beyond the index's 4 MiB cap.
const HUGE_BYTES: usize = 20 << 20;

/// A generated source file and the byte offset of a name in it (on its
/// first lines, in ASCII), for the position-based tools.
struct Source {
    bytes: Vec<u8>,
    probe: usize,
    /// A declared name to ask for by `symbol`.
    symbol: &'static str,
}

impl Source {
    fn new(text: String, marker: &str, skip: usize, symbol: &'static str) -> Self {
        let probe = text.rfind(marker).map_or(0, |i| i + skip);
        Source {
            bytes: text.into_bytes(),
            probe,
            symbol,
        }
    }

    fn raw(bytes: Vec<u8>, probe: usize, symbol: &'static str) -> Self {
        Source {
            bytes,
            probe,
            symbol,
        }
    }

    /// Zero-based line and character of the probe (ASCII before it on its
    /// line).
    fn position(&self) -> (usize, usize) {
        let before = &self.bytes[..self.probe.min(self.bytes.len())];
        let line = before.iter().filter(|b| **b == b'\n').count();
        let start = before
            .iter()
            .rposition(|b| *b == b'\n')
            .map_or(0, |i| i + 1);
        (line, self.probe - start)
    }
}

/// A four-character base-36 name suffix for declaration `i`.
fn base36(mut i: usize) -> String {
    let digits = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut out = [b'0'; 4];
    for slot in out.iter_mut().rev() {
        *slot = digits[i % 36];
        i /= 36;
    }
    String::from_utf8(out.to_vec()).expect("ASCII")
}

/// Deterministic bytes that are no text at all.
fn binary(len: usize) -> Vec<u8> {
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut bytes = b"\x7fELF\x02\x01\x01\0".to_vec();
    while bytes.len() < len {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        bytes.extend_from_slice(&state.to_le_bytes());
    }
    bytes.truncate(len);
    bytes
}

/// `line` repeated, numbered with [`base36`] where it says `@`, until the
/// text is at least `bytes` long.
fn repeated_until(head: &str, line: &str, tail: &str, bytes: usize) -> String {
    let mut text = String::with_capacity(bytes + 64);
    text.push_str(head);
    let mut i = 0;
    while text.len() < bytes {
        text.push_str(&line.replace('@', &base36(i % (36 * 36 * 36 * 36))));
        i += 1;
    }
    text.push_str(tail);
    text
}

/// `line` repeated `count` times, numbered with [`base36`].
fn repeated(head: &str, line: &str, tail: &str, count: usize) -> String {
    let mut text = String::with_capacity(head.len() + count * (line.len() + 2) + tail.len());
    text.push_str(head);
    for i in 0..count {
        text.push_str(&line.replace('@', &base36(i)));
    }
    text.push_str(tail);
    text
}

/// What kind of torture.
#[derive(Debug, Clone, Copy)]
enum Case {
    /// Modules, namespaces or (Go) function literals nested 10,000 deep.
    DeepDeclarations,
    /// Modules or namespaces nested 300 deep: parsed in no time, so the
    /// host always gets all of them.
    NestedDeclarations,
    /// Classes nested 10,000 deep (C#).
    DeepClasses,
    /// Blocks `{{{…}}}` nested 10,000 deep in a function.
    DeepBlocks,
    /// Parenthesised expressions `(((…)))` nested 10,000 deep.
    DeepParentheses,
    /// A member access chain `x.a.a.a…` 10,000 links long.
    LongChain,
    /// A 20 MB file of declarations.
    Huge,
    /// 300,000 declarations in one file (under the 4 MiB cap).
    Crowded,
    /// Invalid UTF-8 in comments, strings and identifiers.
    InvalidUtf8,
    /// NUL bytes between and inside declarations.
    NulBytes,
    /// Random bytes with the source extension.
    Binary,
}

#[derive(Debug, Clone, Copy)]
enum Lang {
    Rust,
    TypeScript,
    Go,
    CSharp,
    Python,
    Java,
}

impl Lang {
    fn extension(self) -> &'static str {
        match self {
            Lang::Rust => "rs",
            Lang::TypeScript => "ts",
            Lang::Go => "go",
            Lang::CSharp => "cs",
            Lang::Python => "py",
            Lang::Java => "java",
        }
    }

    /// A small, ordinary file declaring `calm_fn`, to check that the rest
    /// of the workspace is still served.
    fn calm(self) -> &'static str {
        match self {
            Lang::Rust => "pub fn calm_fn() -> u32 {\n    1\n}\n",
            Lang::TypeScript => "export function calm_fn(): number {\n  return 1;\n}\n",
            Lang::Go => "package calm\n\nfunc calm_fn() int {\n\treturn 1\n}\n",
            Lang::CSharp => {
                "namespace Calm {\n  class Host {\n    int calm_fn() { return 1; }\n  }\n}\n"
            }
            Lang::Python => "def calm_fn():\n    return 1\n",
            Lang::Java => "class Host {\n  int calm_fn() { return 1; }\n}\n",
        }
    }

    fn source(self, case: Case) -> Source {
        let n = if matches!(case, Case::NestedDeclarations) {
            SHALLOW_DEPTH
        } else {
            DEPTH
        };
        let open = |pattern: &str| -> String {
            (0..n)
                .map(|i| pattern.replace("{}", &i.to_string()))
                .collect()
        };
        let close = |pattern: &str| pattern.repeat(n);
        match (self, case) {
            (Lang::Rust, Case::DeepDeclarations | Case::NestedDeclarations) => Source::new(
                format!("{}fn f(){{}}{}\n", open("mod m{} {"), close("}")),
                "fn f(",
                3,
                "f",
            ),
            (Lang::Rust, Case::DeepBlocks) => Source::new(
                format!("fn f() {{{}let x = 1;{}}}\n", "{".repeat(n), close("}")),
                "fn f(",
                3,
                "f",
            ),
            (Lang::Rust, Case::DeepParentheses) => Source::new(
                format!("fn f() -> i32 {{ {}1{} }}\n", "(".repeat(n), close(")")),
                "fn f(",
                3,
                "f",
            ),
            (Lang::TypeScript, Case::DeepDeclarations | Case::NestedDeclarations) => Source::new(
                format!(
                    "{}function f() {{}}{}\n",
                    open("namespace N{} {"),
                    close("}")
                ),
                "function f(",
                9,
                "f",
            ),
            (Lang::TypeScript, Case::DeepBlocks) => Source::new(
                format!(
                    "function f() {{{}let x = 1;{}}}\n",
                    "{".repeat(n),
                    close("}")
                ),
                "function f(",
                9,
                "f",
            ),
            (Lang::TypeScript, Case::DeepParentheses) => Source::new(
                format!(
                    "function f() {{ return {}1{}; }}\n",
                    "(".repeat(n),
                    close(")")
                ),
                "function f(",
                9,
                "f",
            ),
            (Lang::Go, Case::DeepDeclarations) => Source::new(
                format!(
                    "package deep\n\nfunc f() {{\n{}{}}}\n",
                    "_ = func() {\n".repeat(n),
                    close("}\n")
                ),
                "func f(",
                5,
                "f",
            ),
            (Lang::Go, Case::DeepBlocks) => Source::new(
                format!(
                    "package deep\n\nfunc f() {{\n{}x := 1\n_ = x\n{}}}\n",
                    "{\n".repeat(n),
                    close("}\n")
                ),
                "func f(",
                5,
                "f",
            ),
            (Lang::Go, Case::DeepParentheses) => Source::new(
                format!(
                    "package deep\n\nfunc f() int {{\n\treturn {}1{}\n}}\n",
                    "(".repeat(n),
                    close(")")
                ),
                "func f(",
                5,
                "f",
            ),
            (Lang::CSharp, Case::DeepDeclarations | Case::NestedDeclarations) => Source::new(
                format!(
                    "{}class C {{ void f() {{}} }}{}\n",
                    open("namespace N{} {"),
                    close("}")
                ),
                "void f(",
                5,
                "f",
            ),
            (Lang::CSharp, Case::DeepClasses) => Source::new(
                format!("{}void f() {{}}{}\n", open("class C{} {"), close("}")),
                "void f(",
                5,
                "f",
            ),
            (Lang::CSharp, Case::DeepBlocks) => Source::new(
                format!(
                    "class C {{ void f() {{{}int x = 1;{}}} }}\n",
                    "{".repeat(n),
                    close("}")
                ),
                "void f(",
                5,
                "f",
            ),
            (Lang::CSharp, Case::DeepParentheses) => Source::new(
                format!(
                    "class C {{ int f() {{ return {}1{}; }} }}\n",
                    "(".repeat(n),
                    close(")")
                ),
                "int f(",
                4,
                "f",
            ),
            // Python nests by indentation: a declaration or block 10,000
            // deep would take 50 MB of spaces. Lambdas nest in one line.
            (Lang::Python, Case::DeepDeclarations) => Source::new(
                format!("def f():\n    return {}1\n", "lambda: ".repeat(n)),
                "def f(",
                4,
                "f",
            ),
            (Lang::Python, Case::NestedDeclarations) => Source::new(
                format!(
                    "{}{}def f(): pass\n",
                    (0..n)
                        .map(|i| format!("{}class C{i}:\n", " ".repeat(i)))
                        .collect::<String>(),
                    " ".repeat(n)
                ),
                "def f(",
                4,
                "f",
            ),
            (Lang::Python, Case::DeepParentheses) => Source::new(
                format!("def f():\n    return {}1{}\n", "(".repeat(n), close(")")),
                "def f(",
                4,
                "f",
            ),
            (Lang::Java, Case::DeepDeclarations | Case::NestedDeclarations) => Source::new(
                format!("{}void f() {{}}{}\n", open("class C{} {"), close("}")),
                "void f(",
                5,
                "f",
            ),
            (Lang::Java, Case::DeepBlocks) => Source::new(
                format!(
                    "class C {{ void f() {{{}int x = 1;{}}} }}\n",
                    "{".repeat(n),
                    close("}")
                ),
                "void f(",
                5,
                "f",
            ),
            (Lang::Java, Case::DeepParentheses) => Source::new(
                format!(
                    "class C {{ int f() {{ return {}1{}; }} }}\n",
                    "(".repeat(n),
                    close(")")
                ),
                "int f(",
                4,
                "f",
            ),
            (lang, Case::LongChain) => {
                let chain = format!("x{}", ".a".repeat(n));
                let (text, marker, skip) = match lang {
                    Lang::Rust => (format!("fn f() -> u32 {{ {chain} }}\n"), "fn f(", 3),
                    Lang::TypeScript => (
                        format!("function f() {{ return {chain}; }}\n"),
                        "function f(",
                        9,
                    ),
                    Lang::Go => (
                        format!("package chain\n\nfunc f() int {{\n\treturn {chain}\n}}\n"),
                        "func f(",
                        5,
                    ),
                    Lang::CSharp | Lang::Java => (
                        format!("class C {{ int f() {{ return {chain}; }} }}\n"),
                        "int f(",
                        4,
                    ),
                    // `x` an imported module: its name qualifies paths.
                    Lang::Python => (
                        format!("import x\n\ndef f():\n    return {chain}\n"),
                        "def f(",
                        4,
                    ),
                };
                Source::new(text, marker, skip, "f")
            }
            (Lang::Python, Case::DeepBlocks) => unreachable!("Python blocks nest by indentation"),
            (_, Case::DeepClasses) => unreachable!("C# only"),
            (Lang::Go, Case::NestedDeclarations) => unreachable!("Go declarations do not nest"),
            (lang, Case::Huge) => {
                let (head, line, tail) = lang.declarations();
                Source::new(
                    repeated_until(head, line, tail, HUGE_BYTES),
                    "a0000",
                    0,
                    "a0000",
                )
            }
            (lang, Case::Crowded) => {
                let (head, line, tail) = lang.declarations();
                let text = repeated(head, line, tail, DECLARATIONS);
                assert!(text.len() < 4 << 20, "under the index's cap");
                let probe = text.find("a0000").expect("the first declaration");
                Source::new(text, "", 0, "a0000").with_probe(probe)
            }
            (lang, Case::InvalidUtf8) => {
                let (before, after) = lang.around(b"\xff\xfe\xc3(\xe2\x82");
                Source::raw(before.clone(), lang.first_name_offset(&before), "before")
                    .with_tail(after)
            }
            (lang, Case::NulBytes) => {
                let (before, after) = lang.around(b"\0\0\0");
                Source::raw(before.clone(), lang.first_name_offset(&before), "before")
                    .with_tail(after)
            }
            (lang, Case::Binary) => {
                let _ = lang;
                Source::raw(binary(256 << 10), 0, "before")
            }
        }
    }

    /// Head, numbered line and tail of a file of many declarations named
    /// `a<base36>`.
    fn declarations(self) -> (&'static str, &'static str, &'static str) {
        match self {
            Lang::Rust => ("", "fn a@(){}\n", ""),
            Lang::TypeScript => ("class Crowded {\n", "a@(){}\n", "}\n"),
            Lang::Go => ("package crowded\n\nconst (\n", "a@=0\n", ")\n"),
            Lang::CSharp => ("class Crowded {\n", "int a@;\n", "}\n"),
            Lang::Python => ("", "a@=0\n", ""),
            Lang::Java => ("class Crowded {\n", "int a@;\n", "}\n"),
        }
    }

    /// A file declaring `before`, then `hostile` bytes inside a comment, a
    /// string, an identifier and between declarations, then `last`.
    /// Returns the part up to the first hostile bytes and the rest.
    fn around(self, hostile: &[u8]) -> (Vec<u8>, Vec<u8>) {
        let (head, parts): (&str, [&str; 4]) = match self {
            Lang::Rust => (
                "fn before() {}\n// ",
                [
                    "\nfn in_string() { let s = \"",
                    "\"; }\nfn ident",
                    "x() {}\n",
                    "\nfn last() {}\n",
                ],
            ),
            Lang::TypeScript => (
                "function before() {}\n// ",
                [
                    "\nfunction in_string() { const s = \"",
                    "\"; }\nfunction ident",
                    "x() {}\n",
                    "\nfunction last() {}\n",
                ],
            ),
            Lang::Go => (
                "package odd\n\nfunc before() {}\n// ",
                [
                    "\nfunc in_string() { _ = \"",
                    "\" }\nfunc ident",
                    "x() {}\n",
                    "\nfunc last() {}\n",
                ],
            ),
            Lang::CSharp | Lang::Java => (
                "class Odd {\n  void before() {}\n  // ",
                [
                    "\n  void in_string() { var s = \"",
                    "\"; }\n  void ident",
                    "x() {}\n",
                    "\n  void last() {}\n}\n",
                ],
            ),
            Lang::Python => (
                "def before(): pass\n# ",
                [
                    "\ndef in_string():\n    s = \"",
                    "\"\ndef ident",
                    "x(): pass\n",
                    "\ndef last(): pass\n",
                ],
            ),
        };
        let mut rest = Vec::new();
        for part in parts {
            rest.extend_from_slice(hostile);
            rest.extend_from_slice(part.as_bytes());
        }
        (head.as_bytes().to_vec(), rest)
    }

    /// Offset of `before` in a file's head.
    fn first_name_offset(self, head: &[u8]) -> usize {
        head.windows(6)
            .position(|w| w == b"before")
            .expect("the head declares `before`")
    }
}

impl Source {
    fn with_probe(mut self, probe: usize) -> Self {
        self.probe = probe;
        self
    }

    fn with_tail(mut self, tail: Vec<u8>) -> Self {
        self.bytes.extend(tail);
        self
    }
}

/// The last `n` bytes of `text` (on a character boundary).
fn tail(text: &str, n: usize) -> &str {
    let mut start = text.len().saturating_sub(n);
    while !text.is_char_boundary(start) {
        start += 1;
    }
    &text[start..]
}

fn brief(value: &Value) -> String {
    let text = value.to_string();
    if text.len() > 2000 {
        format!("{}… ({} bytes)", &text[..2000], text.len())
    } else {
        text
    }
}

/// A `lingo serve` spoken to in raw JSON-RPC lines, so that every answer
/// is seen as sent: one a client's JSON parser would refuse (nested too
/// deeply) is a failure of its own, not a call that never returns.
struct Server {
    raw: RawServer,
    next_id: u64,
}

/// One tool answer: the structured content and `isError`.
struct Answer {
    is_error: bool,
    value: Value,
}

impl Server {
    async fn start(root: &Path) -> Self {
        let deadline = REQUEST_DEADLINE_MS.to_string();
        let mut raw = RawServer::start(root, &["--request-timeout-ms", &deadline]);
        raw.initialize("2025-11-25").await;
        Server { raw, next_id: 1 }
    }

    fn alive(&self) -> bool {
        self.raw.pid().is_some_and(process_alive)
    }

    fn failure(&self, what: &str, tool: &str, arguments: &Value, failure: &str) -> String {
        format!(
            "{what}: {tool} {arguments}: {failure}\nserver alive: {}\nserver log (end):\n{}",
            self.alive(),
            tail(&self.raw.log(), 6000)
        )
    }

    /// Call `tool`; it must answer within [`TOOL_DEADLINE`] with a result
    /// or a structured error other than `INTERNAL_ERROR`, in a message a
    /// JSON parser with the usual nesting limit reads.
    async fn must_answer(&mut self, what: &str, tool: &str, arguments: Value) -> Answer {
        let id = self.next_id;
        self.next_id += 1;
        let started = std::time::Instant::now();
        self.raw
            .send(&json!({
                "jsonrpc": "2.0",
                "id": id,
                "method": "tools/call",
                "params": { "name": tool, "arguments": arguments },
            }))
            .await;
        let line = loop {
            let line = match tokio::time::timeout(TOOL_DEADLINE, self.raw.recv_raw()).await {
                Ok(line) => line,
                Err(_) => panic!(
                    "{}",
                    self.failure(
                        what,
                        tool,
                        &arguments,
                        &format!("no answer within {TOOL_DEADLINE:?}")
                    )
                ),
            };
            let nesting = json_nesting(&line);
            if nesting > SERDE_JSON_MAX_NESTING {
                panic!(
                    "{}",
                    self.failure(
                        what,
                        tool,
                        &arguments,
                        &format!(
                            "the answer nests {nesting} levels deep; serde_json (and so the Rust \
                             MCP client) refuses more than {SERDE_JSON_MAX_NESTING}, so a client \
                             never sees it: {}…",
                            &line[..line.len().min(300)]
                        )
                    )
                );
            }
            let message: Value = serde_json::from_str(&line).unwrap_or_else(|e| {
                panic!(
                    "{}",
                    self.failure(what, tool, &arguments, &format!("not JSON ({e})"))
                )
            });
            // Notifications carry no id; answers to others are not ours.
            if message.get("id") == Some(&json!(id)) {
                break message;
            }
        };
        let elapsed = started.elapsed();
        if let Some(error) = line.get("error") {
            panic!(
                "{}",
                self.failure(
                    what,
                    tool,
                    &arguments,
                    &format!("a protocol error instead of a tool answer: {error}")
                )
            );
        }
        let result = &line["result"];
        let is_error = result["isError"] == json!(true);
        let value = result["structuredContent"].clone();
        if is_error {
            let code = &value["error"]["code"];
            assert!(
                code.is_string() && value["error"]["message"].is_string(),
                "{}",
                self.failure(
                    what,
                    tool,
                    &arguments,
                    &format!("an error without code and message: {}", brief(&value))
                )
            );
            assert_ne!(
                code,
                &json!("INTERNAL_ERROR"),
                "{}",
                self.failure(what, tool, &arguments, &brief(&value))
            );
        } else {
            assert!(
                value.is_object(),
                "{}",
                self.failure(what, tool, &arguments, "no structuredContent")
            );
        }
        lingo_e2e::check_output_schema(tool, &value);
        eprintln!(
            "{what}: {tool} answered in {elapsed:?}{}",
            if is_error {
                format!(" with {}", value["error"]["code"])
            } else {
                String::new()
            }
        );
        Answer { is_error, value }
    }

    /// Poll `health_check` until the first index is complete.
    async fn wait_until_indexed(&mut self, what: &str) {
        let started = std::time::Instant::now();
        loop {
            let health = self.must_answer(what, "health_check", json!({})).await;
            let refreshing = health.value["refreshing"] == json!(true)
                || health.value["workspace"]["state"]
                    .as_str()
                    .is_some_and(|s| s != "Ready");
            if !refreshing {
                return;
            }
            assert!(
                started.elapsed() < INDEX_DEADLINE,
                "{what}: still indexing after {INDEX_DEADLINE:?}: {}",
                brief(&health.value)
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    fn memory(&self) -> Option<ProcessMemory> {
        ProcessMemory::of(self.raw.pid()?)
    }

    /// End of input: the server must exit.
    async fn stop(self, what: &str) {
        let finished = self.raw.finish().await;
        assert!(
            finished.status.success(),
            "{what}: the server exited with {} at the end of its input\n{}",
            finished.status,
            tail(&finished.log, 4000)
        );
    }
}

/// Ask every tool about `file` and check the server still serves the rest.
async fn every_tool_answers(
    server: &mut Server,
    what: &str,
    lang: Lang,
    file: &str,
    source: &Source,
) {
    let (line, character) = source.position();
    let at = json!({ "path": file, "line": line, "character": character });
    let calls = [
        ("outline", json!({ "path": file })),
        (
            "outline",
            json!({ "path": file, "collapseBody": false, "depth": 64 }),
        ),
        (
            "search_symbols",
            json!({ "query": source.symbol, "path": file }),
        ),
        ("search_symbols", json!({ "query": "a00", "limit": 50 })),
        ("get_diagnostics", json!({ "path": file })),
        ("get_diagnostics", json!({})),
        ("find_definition", at.clone()),
        ("find_references", at.clone()),
        (
            "find_references",
            json!({ "symbol": source.symbol, "path": file }),
        ),
        (
            "node_at",
            json!({ "path": file, "line": line + 1, "column": character }),
        ),
        ("get_symbol_info", at.clone()),
        (
            "get_symbol_info",
            json!({ "symbol": source.symbol, "path": file }),
        ),
        ("health_check", json!({ "verbose": true })),
        (
            "dependents_of",
            json!({ "file_path": file, "symbol": source.symbol }),
        ),
    ];
    for (tool, arguments) in calls {
        server.must_answer(what, tool, arguments).await;
    }
    // The rest of the workspace is still served.
    let calm = format!("calm.{}", lang.extension());
    let outline = server
        .must_answer(what, "outline", json!({ "path": calm }))
        .await;
    assert!(!outline.is_error, "{what}: {}", brief(&outline.value));
    assert!(
        outline.value.to_string().contains("calm_fn"),
        "{what}: {}",
        brief(&outline.value)
    );
    assert!(server.alive(), "{what}: the server process ended");
    eprintln!("{what}: memory {:?}", server.memory());
}

/// A workspace with the calm file and the torture file; returns the root
/// and the torture file's name.
fn workspace(scratch: &Scratch, lang: Lang, source: &Source) -> (PathBuf, String) {
    let ext = lang.extension();
    scratch.write(&format!("ws/calm.{ext}"), lang.calm());
    let file = format!("torture.{ext}");
    scratch.write(&format!("ws/{file}"), &source.bytes);
    (scratch.path().join("ws"), file)
}

async fn torture(lang: Lang, case: Case) {
    let what = format!("{lang:?} {case:?}");
    let scratch = Scratch::new(&format!("torture-{lang:?}-{case:?}").to_lowercase());
    let source = lang.source(case);
    let (root, file) = workspace(&scratch, lang, &source);
    let started = std::time::Instant::now();
    let mut server = Server::start(&root).await;
    every_tool_answers(&mut server, &what, lang, &file, &source).await;

    match case {
        Case::Huge => {
            // Beyond the index's cap: refused with the reason, or answered.
            let outline = server
                .must_answer(&what, "outline", json!({ "path": file }))
                .await;
            if outline.is_error {
                let error = &outline.value["error"];
                assert_eq!(
                    error["code"],
                    json!("FILE_NOT_INDEXED"),
                    "{what}: {}",
                    brief(&outline.value)
                );
                let message = error["message"].as_str().unwrap_or_default();
                assert!(
                    message.contains("MiB") || message.contains("larger"),
                    "{what}: the error gives the reason: {message}"
                );
            }
        }
        Case::Crowded => {
            // Once indexed, the declarations are found, or the answer
            // says why not.
            server.wait_until_indexed(&what).await;
            let search = server
                .must_answer(
                    &what,
                    "search_symbols",
                    json!({ "query": "a0000", "path": file }),
                )
                .await;
            if !search.is_error {
                // Not found: the answer must say that the file was not
                // analysed, never be a silent miss.
                let said = search.value.to_string().to_lowercase();
                assert!(
                    search.value["total"].as_u64().unwrap_or(0) >= 1
                        || said.contains(&file)
                        || said.contains("not analy")
                        || said.contains("unanaly"),
                    "{what}: the first of 300,000 declarations is neither found nor said to be \
                     missing: {}",
                    brief(&search.value)
                );
            }
        }
        Case::DeepDeclarations
        | Case::NestedDeclarations
        | Case::DeepClasses
        | Case::DeepBlocks
        | Case::DeepParentheses
        | Case::LongChain => {
            // The facts are stored: a restart on the same index must serve
            // the file again, not fall over on the stored facts.
            server.wait_until_indexed(&what).await;
            server.stop(&what).await;
            let mut server = Server::start(&root).await;
            let what = format!("{what} (restarted)");
            every_tool_answers(&mut server, &what, lang, &file, &source).await;
            server.stop(&what).await;
            eprintln!("{what}: {:?} in all", started.elapsed());
            return;
        }
        Case::InvalidUtf8 | Case::NulBytes | Case::Binary => {}
    }
    server.stop(&what).await;
    eprintln!("{what}: {:?} in all", started.elapsed());
}

macro_rules! torture_tests {
    ($($name:ident: $lang:ident $case:ident;)*) => {
        $(
            #[tokio::test]
            async fn $name() {
                torture(Lang::$lang, Case::$case).await;
            }
        )*
    };
}

torture_tests! {
    rust_deep_modules: Rust DeepDeclarations;
    rust_300_nested_modules: Rust NestedDeclarations;
    rust_deep_blocks: Rust DeepBlocks;
    rust_deep_parentheses: Rust DeepParentheses;
    rust_20_mb_file: Rust Huge;
    rust_300k_declarations: Rust Crowded;
    rust_invalid_utf8: Rust InvalidUtf8;
    rust_nul_bytes: Rust NulBytes;
    rust_binary_file: Rust Binary;

    typescript_deep_namespaces: TypeScript DeepDeclarations;
    typescript_300_nested_namespaces: TypeScript NestedDeclarations;
    typescript_deep_blocks: TypeScript DeepBlocks;
    typescript_deep_parentheses: TypeScript DeepParentheses;
    typescript_20_mb_file: TypeScript Huge;
    typescript_300k_declarations: TypeScript Crowded;
    typescript_invalid_utf8: TypeScript InvalidUtf8;
    typescript_nul_bytes: TypeScript NulBytes;
    typescript_binary_file: TypeScript Binary;

    go_deep_function_literals: Go DeepDeclarations;
    go_deep_blocks: Go DeepBlocks;
    go_deep_parentheses: Go DeepParentheses;
    go_20_mb_file: Go Huge;
    go_300k_declarations: Go Crowded;
    go_invalid_utf8: Go InvalidUtf8;
    go_nul_bytes: Go NulBytes;
    go_binary_file: Go Binary;

    csharp_deep_namespaces: CSharp DeepDeclarations;
    csharp_300_nested_namespaces: CSharp NestedDeclarations;
    csharp_deep_classes: CSharp DeepClasses;
    csharp_deep_blocks: CSharp DeepBlocks;
    csharp_deep_parentheses: CSharp DeepParentheses;
    csharp_20_mb_file: CSharp Huge;
    csharp_300k_declarations: CSharp Crowded;
    csharp_invalid_utf8: CSharp InvalidUtf8;
    csharp_nul_bytes: CSharp NulBytes;
    csharp_binary_file: CSharp Binary;

    python_deep_lambdas: Python DeepDeclarations;
    python_300_nested_classes: Python NestedDeclarations;
    python_deep_parentheses: Python DeepParentheses;
    python_20_mb_file: Python Huge;
    python_300k_declarations: Python Crowded;
    python_invalid_utf8: Python InvalidUtf8;
    python_nul_bytes: Python NulBytes;
    python_binary_file: Python Binary;

    java_deep_classes: Java DeepDeclarations;
    java_300_nested_classes: Java NestedDeclarations;
    java_deep_blocks: Java DeepBlocks;
    java_deep_parentheses: Java DeepParentheses;
    java_20_mb_file: Java Huge;
    java_300k_declarations: Java Crowded;
    java_invalid_utf8: Java InvalidUtf8;
    java_nul_bytes: Java NulBytes;
    java_binary_file: Java Binary;

    rust_long_member_chain: Rust LongChain;
    typescript_long_member_chain: TypeScript LongChain;
    go_long_member_chain: Go LongChain;
    csharp_long_member_chain: CSharp LongChain;
    python_long_member_chain: Python LongChain;
    java_long_member_chain: Java LongChain;
}
