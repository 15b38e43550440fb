//! Throughput under load: many `tools/call` requests kept in flight on one
//! connection (as an agent's client with parallel tool calls does), the four
//! navigation tools in equal shares, with requests/s and the latency
//! percentiles.

use std::collections::BTreeMap;
use std::io::{BufRead, Write};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde::Deserialize;
use serde_json::{Value, json};

use super::{Server, percentile_ms};

/// One request of the mix.
pub struct Call {
    pub tool: &'static str,
    pub arguments: Value,
}

/// What a load run measured.
pub struct LoadResult {
    pub requests: usize,
    pub in_flight: usize,
    pub elapsed: Duration,
    pub latencies: Vec<Duration>,
    /// The same latencies by tool.
    pub per_tool: BTreeMap<&'static str, Vec<Duration>>,
    pub errors: BTreeMap<String, usize>,
    /// Per request in the order answered: its index, and when it was sent
    /// and answered, from the run's start.
    pub answered: Vec<(usize, Duration, Duration)>,
}

impl LoadResult {
    pub fn per_second(&self) -> f64 {
        self.requests as f64 / self.elapsed.as_secs_f64()
    }

    /// The run as tab-separated lines: index, tool, sent and answered (ms
    /// from the start), arguments, one per request in the order answered.
    pub fn timeline(&self, calls: &[Call]) -> String {
        let mut text = String::from("index\ttool\tsent_ms\tanswered_ms\targuments\n");
        for (index, sent, answered) in &self.answered {
            let call = &calls[index % calls.len()];
            text.push_str(&format!(
                "{index}\t{}\t{:.3}\t{:.3}\t{}\n",
                call.tool,
                sent.as_secs_f64() * 1e3,
                answered.as_secs_f64() * 1e3,
                call.arguments
            ));
        }
        text
    }

    pub fn print(&self, label: &str) {
        let errors: Vec<String> = self
            .errors
            .iter()
            .map(|(c, n)| format!("{c}:{n}"))
            .collect();
        println!(
            "load {label}: {} requests, {} in flight: {:.0} requests/s, p50 {:.2} ms, p99 {:.2} ms, \
             max {:.2} ms, errors {}",
            self.requests,
            self.in_flight,
            self.per_second(),
            percentile_ms(&self.latencies, 50.0),
            percentile_ms(&self.latencies, 99.0),
            percentile_ms(&self.latencies, 100.0),
            if errors.is_empty() {
                "none".to_string()
            } else {
                errors.join(",")
            }
        );
        for (tool, latencies) in &self.per_tool {
            println!(
                "load {label}, {tool}: {} requests, p50 {:.2} ms, p99 {:.2} ms",
                latencies.len(),
                percentile_ms(latencies, 50.0),
                percentile_ms(latencies, 99.0),
            );
        }
    }
}

/// The load mix: for each sampled declaration in turn, `find_references` of
/// it, `find_definition` at one of the reference sites, `search_symbols` of
/// the first 3 to 8 characters of its name (so short, common queries are
/// asked as often as long ones), and `outline` of its file. A declaration
/// with no reference site left gives the other three.
pub fn navigation_mix(sample: &[super::Declared], definitions: Vec<Option<Call>>) -> Vec<Call> {
    let mut mix = Vec::new();
    for (i, (symbol, definition)) in sample.iter().zip(definitions).enumerate() {
        mix.push(Call {
            tool: "find_references",
            arguments: super::references_args(symbol),
        });
        mix.extend(definition);
        let cut = symbol
            .name
            .char_indices()
            .nth(3 + i % 6)
            .map_or(symbol.name.len(), |(at, _)| at);
        mix.push(Call {
            tool: "search_symbols",
            arguments: json!({ "query": &symbol.name[..cut] }),
        });
        mix.push(Call {
            tool: "outline",
            arguments: json!({ "path": symbol.file }),
        });
    }
    mix
}

/// Reference sites of a `find_references` answer, as `find_definition`
/// arguments (zero-based positions).
pub fn definition_calls(answer: &Value) -> Vec<Call> {
    answer["references"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|site| site["kind"] != json!("declaration"))
        .filter_map(|site| {
            let start = &site["range"]["start"];
            Some(Call {
                tool: "find_definition",
                arguments: json!({
                    "path": site["file_path"].as_str()?,
                    "line": start["line"].as_u64()?,
                    "character": start["character"].as_u64()?,
                }),
            })
        })
        .collect()
}

/// What the driver reads of a reply: its id and whether it is an error
/// (serde skips the rest without building it, so that the driver's own
/// parsing takes little of the CPU it shares with the server).
#[derive(Deserialize)]
struct Reply {
    id: Option<u64>,
    error: Option<RpcError>,
    result: Option<ToolResult>,
}

#[derive(Deserialize)]
struct RpcError {
    code: i64,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ToolResult {
    #[serde(default)]
    is_error: bool,
    structured_content: Option<StructuredError>,
}

/// A tool result's structured content, of which only an error is read.
#[derive(Deserialize)]
struct StructuredError {
    error: Option<ErrorCode>,
}

#[derive(Deserialize)]
struct ErrorCode {
    code: String,
}

impl Reply {
    /// The error this reply reports: a JSON-RPC error's code, or a tool
    /// error's.
    fn error_code(&self) -> Option<String> {
        if let Some(error) = &self.error {
            return Some(format!("JSON-RPC {}", error.code));
        }
        let result = self.result.as_ref().filter(|r| r.is_error)?;
        Some(
            result
                .structured_content
                .as_ref()
                .and_then(|c| c.error.as_ref())
                .map_or_else(|| "UNKNOWN".to_string(), |e| e.code.clone()),
        )
    }
}

/// Send `calls` (cycled until `requests` were sent) keeping `in_flight`
/// outstanding; every answer is read and checked.
pub fn run(server: &mut Server, calls: &[Call], requests: usize, in_flight: usize) -> LoadResult {
    assert!(!calls.is_empty(), "no call to send");
    let first_id = server.next_id;
    server.next_id += requests as u64;
    let mut sent_at: Vec<Option<Instant>> = vec![None; requests];
    let (permits, granted) = mpsc::channel::<()>();
    let (sent, sent_times) = mpsc::channel::<(usize, Instant)>();
    let mut latencies = Vec::with_capacity(requests);
    let mut per_tool: BTreeMap<&'static str, Vec<Duration>> = BTreeMap::new();
    let mut errors: BTreeMap<String, usize> = BTreeMap::new();
    let mut answered_at = Vec::with_capacity(requests);
    let started = Instant::now();
    let stdin = &mut server.stdin;
    let stdout = &mut server.stdout;
    std::thread::scope(|scope| {
        scope.spawn(move || {
            for index in 0..requests {
                if index >= in_flight && granted.recv().is_err() {
                    return;
                }
                let call = &calls[index % calls.len()];
                let message = json!({
                    "jsonrpc": "2.0",
                    "id": first_id + index as u64,
                    "method": "tools/call",
                    "params": { "name": call.tool, "arguments": call.arguments },
                });
                let mut line = serde_json::to_vec(&message).expect("serialise");
                line.push(b'\n');
                let now = Instant::now();
                stdin.write_all(&line).expect("write to the server");
                stdin.flush().expect("flush the server's stdin");
                if sent.send((index, now)).is_err() {
                    return;
                }
            }
        });
        let mut line = String::new();
        let mut answered = 0;
        while answered < requests {
            line.clear();
            let read = stdout.read_line(&mut line).expect("read the server");
            assert!(read > 0, "the server closed its stdout under load");
            let arrived = Instant::now();
            let message: Reply = serde_json::from_str(&line).expect("a JSON-RPC line");
            let Some(id) = message.id else {
                continue; // a notification
            };
            let index = (id - first_id) as usize;
            while let Ok((sent_index, at)) = sent_times.try_recv() {
                sent_at[sent_index] = Some(at);
            }
            while sent_at[index].is_none() {
                let (sent_index, at) = sent_times.recv().expect("the writer's send time");
                sent_at[sent_index] = Some(at);
            }
            let sent = sent_at[index].unwrap_or(started);
            let latency = arrived - sent;
            latencies.push(latency);
            answered_at.push((index, sent - started, arrived - started));
            per_tool
                .entry(calls[index % calls.len()].tool)
                .or_default()
                .push(latency);
            if let Some(code) = message.error_code() {
                *errors.entry(code).or_default() += 1;
            }
            answered += 1;
            let _ = permits.send(());
        }
    });
    LoadResult {
        requests,
        in_flight,
        elapsed: started.elapsed(),
        latencies,
        per_tool,
        errors,
        answered: answered_at,
    }
}
