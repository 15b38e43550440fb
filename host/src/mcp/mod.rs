//! The MCP server: protocol version negotiation, method dispatch and the
//! stdio transport.

mod framing;
pub mod jsonrpc;

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::{Semaphore, mpsc};
use tokio::task::JoinSet;

use self::framing::Frame;
use self::jsonrpc::{Incoming, RpcError};
use crate::tools::{ToolContext, ToolRegistry};

/// Protocol revisions spoken, newest first.
pub const SUPPORTED_PROTOCOL_VERSIONS: &[&str] =
    &["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];
/// Largest request accepted, in bytes.
pub const MAX_REQUEST_BYTES: usize = 1 << 20;
/// Largest response sent, in bytes.
pub const MAX_RESPONSE_BYTES: usize = 10 << 20;
/// Requests handled at once; more wait their turn.
pub const MAX_IN_FLIGHT: usize = 128;
/// How long in-flight requests may finish after the input closes.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(30);

/// The protocol state shared by all requests of a connection.
pub struct Server {
    tools: ToolRegistry,
    context: Arc<ToolContext>,
}

impl Server {
    pub fn new(tools: ToolRegistry, context: ToolContext) -> Arc<Self> {
        Arc::new(Server {
            tools,
            context: Arc::new(context),
        })
    }

    /// Answer one request.
    pub async fn handle(self: &Arc<Self>, method: &str, params: Value) -> Result<Value, RpcError> {
        match method {
            "initialize" => initialize(&params),
            "ping" => Ok(json!({})),
            "tools/list" => Ok(json!({ "tools": self.tools.list() })),
            "tools/call" => self.call_tool(params).await,
            "resources/list" => Ok(json!({ "resources": [] })),
            "resources/templates/list" => Ok(json!({ "resourceTemplates": [] })),
            "prompts/list" => Ok(json!({ "prompts": [] })),
            _ => Err(RpcError::new(
                jsonrpc::METHOD_NOT_FOUND,
                format!("Method not found: {method}"),
            )),
        }
    }

    async fn call_tool(self: &Arc<Self>, params: Value) -> Result<Value, RpcError> {
        let invalid = |message: String| RpcError::new(jsonrpc::INVALID_PARAMS, message);
        let Value::Object(params) = params else {
            return Err(invalid(
                "Invalid params: tools/call needs an object with `name`".into(),
            ));
        };
        let name = match params.get("name") {
            Some(Value::String(name)) => name.clone(),
            Some(_) => return Err(invalid("Invalid params: `name` must be a string".into())),
            None => return Err(invalid("Invalid params: `name` is missing".into())),
        };
        let arguments = params.get("arguments").cloned().unwrap_or(Value::Null);
        if !matches!(arguments, Value::Object(_) | Value::Null) {
            return Err(invalid(
                "Invalid params: `arguments` must be an object".into(),
            ));
        }
        if self.tools.find(&name).is_none() {
            let suggestions = self.tools.suggest(&name);
            return Err(invalid(format!("Unknown tool: {name}"))
                .with_data(json!({ "tool": name, "suggestions": suggestions, "available": self.tools.names() })));
        }
        let server = self.clone();
        let outcome = tokio::task::spawn_blocking(move || {
            let tool = server.tools.find(&name).expect("checked above");
            server.tools.call(tool, &server.context, &arguments)
        })
        .await
        .map_err(|e| {
            RpcError::new(
                jsonrpc::INTERNAL_ERROR,
                format!("Internal error: tool panicked: {e}"),
            )
        })?;
        Ok(match outcome {
            Ok(value) => tool_result(value, false),
            Err(error) => {
                tracing::debug!(code = error.code(), %error, "tool error");
                tool_result(error.to_json(), true)
            }
        })
    }
}

/// MCP `CallToolResult`: the JSON as text, and as structured content. A
/// tool whose answer is text (`{"format": "text", "text": ...}`, as the
/// graph tools) gets that text as its content.
fn tool_result(value: Value, is_error: bool) -> Value {
    let text = match (&value["format"], &value["text"]) {
        (Value::String(format), Value::String(text)) if format == "text" => text.clone(),
        _ => serde_json::to_string_pretty(&value).expect("JSON values serialise"),
    };
    json!({
        "content": [{ "type": "text", "text": text }],
        "structuredContent": value,
        "isError": is_error,
    })
}

fn initialize(params: &Value) -> Result<Value, RpcError> {
    let requested = match params.get("protocolVersion") {
        Some(Value::String(v)) => v.as_str(),
        Some(_) => {
            return Err(RpcError::new(
                jsonrpc::INVALID_PARAMS,
                "Invalid params: `protocolVersion` must be a string",
            ));
        }
        None => {
            return Err(RpcError::new(
                jsonrpc::INVALID_PARAMS,
                "Invalid params: `protocolVersion` is missing",
            ));
        }
    };
    let version = negotiate(requested);
    tracing::info!(requested, negotiated = version, client = %params["clientInfo"]["name"], "initialize");
    Ok(json!({
        "protocolVersion": version,
        "capabilities": {
            "tools": { "listChanged": false },
            "resources": { "listChanged": false },
            "prompts": { "listChanged": false },
        },
        "serverInfo": { "name": "lingo", "title": "lingo code intelligence", "version": env!("CARGO_PKG_VERSION") },
        "instructions": "lingo answers questions about the code of one workspace: outline a file, search symbols, find definitions, list syntax errors. Paths are relative to the workspace root; lines and characters in positions are zero-based, `line` fields in outlines are 1-based.",
    }))
}

/// The client's version when spoken here, else the newest one spoken here.
pub fn negotiate(requested: &str) -> &'static str {
    SUPPORTED_PROTOCOL_VERSIONS
        .iter()
        .copied()
        .find(|v| *v == requested)
        .unwrap_or(SUPPORTED_PROTOCOL_VERSIONS[0])
}

/// Serve MCP over a pair of byte streams (stdin/stdout in production) until
/// the input closes; then let in-flight requests finish.
pub async fn serve<R, W>(server: Arc<Server>, input: R, output: W) -> anyhow::Result<()>
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin + Send + 'static,
{
    let (sender, mut receiver) = mpsc::unbounded_channel::<Value>();
    let writer = tokio::spawn(async move {
        let mut output = output;
        while let Some(message) = receiver.recv().await {
            let mut line = serde_json::to_vec(&message).expect("JSON values serialise");
            if line.len() > MAX_RESPONSE_BYTES {
                let id = message.get("id").cloned().unwrap_or(Value::Null);
                let error = RpcError::new(
                    jsonrpc::INTERNAL_ERROR,
                    format!(
                        "Internal error: response of {} bytes exceeds the {MAX_RESPONSE_BYTES}-byte limit",
                        line.len()
                    ),
                );
                line = serde_json::to_vec(&jsonrpc::failure(&id, &error))
                    .expect("JSON values serialise");
            }
            line.push(b'\n');
            if output.write_all(&line).await.is_err() || output.flush().await.is_err() {
                break; // the client went away
            }
        }
    });

    let mut reader = BufReader::with_capacity(64 * 1024, input);
    let permits = Arc::new(Semaphore::new(MAX_IN_FLIGHT));
    let mut in_flight = JoinSet::new();
    loop {
        let frame = framing::next_frame(&mut reader, MAX_REQUEST_BYTES).await?;
        let line = match frame {
            Frame::Eof => break,
            Frame::TooLarge(size) => {
                let error = RpcError::new(
                    jsonrpc::INVALID_REQUEST,
                    format!("Invalid Request: request of {size} bytes exceeds the {MAX_REQUEST_BYTES}-byte limit"),
                )
                .with_data(json!({ "size": size, "limit": MAX_REQUEST_BYTES }));
                let _ = sender.send(jsonrpc::failure(&Value::Null, &error));
                continue;
            }
            Frame::Line(line) => line,
        };
        let value: Value = match serde_json::from_slice(&line) {
            Ok(value) => value,
            Err(e) => {
                let error = RpcError::new(jsonrpc::PARSE_ERROR, format!("Parse error: {e}"));
                let _ = sender.send(jsonrpc::failure(&Value::Null, &error));
                continue;
            }
        };
        match jsonrpc::classify(value) {
            Err((id, error)) => {
                let _ = sender.send(jsonrpc::failure(&id, &error));
            }
            Ok(Incoming::Response) => {}
            Ok(Incoming::Notification { method, .. }) => {
                tracing::debug!(%method, "notification");
            }
            Ok(Incoming::Request { id, method, params }) => {
                let permit = permits
                    .clone()
                    .acquire_owned()
                    .await
                    .expect("semaphore never closed");
                let server = server.clone();
                let sender = sender.clone();
                in_flight.spawn(async move {
                    let reply = match server.handle(&method, params).await {
                        Ok(result) => jsonrpc::success(&id, result),
                        Err(error) => jsonrpc::failure(&id, &error),
                    };
                    let _ = sender.send(reply);
                    drop(permit);
                });
            }
        }
        while in_flight.try_join_next().is_some() {}
    }
    tracing::info!(
        pending = in_flight.len(),
        "input closed; finishing in-flight requests"
    );
    let _ = tokio::time::timeout(SHUTDOWN_GRACE, async {
        while in_flight.join_next().await.is_some() {}
    })
    .await;
    drop(sender);
    let _ = writer.await;
    Ok(())
}
