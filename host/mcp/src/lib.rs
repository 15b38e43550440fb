//! lingo-mcp: the protocol. Both transports (stdio and Streamable HTTP),
//! method dispatch, hosted projects, access and limits. The only crate
//! that knows JSON-RPC; only the `lingo` binary imports it.
//!
//! The MCP server: protocol version negotiation, method dispatch and the
//! stdio transport.
//!
//! The read loop never waits for work: cheap methods (`ping`,
//! `initialize`, `tools/list`, ...) are answered inline, each `tools/call`
//! runs as a task holding one of [`MAX_IN_FLIGHT`] slots (a call finding
//! none free is refused at once with a busy error), and
//! `notifications/cancelled` stops a call's work through its
//! [`Budget`], frees its slot and drops its reply.

mod framing;
pub mod http;
pub mod jsonrpc;
pub mod projects;
pub mod reference;
pub mod revision;
#[cfg(test)]
mod surface_tests;
#[cfg(test)]
mod tests;
mod tool_reply;
mod turns;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc, watch};
use tokio::task::{AbortHandle, JoinSet};

use self::framing::Frame;
use self::jsonrpc::{Id, Incoming, RpcError};
use self::turns::Turn;
pub use self::turns::tool_threads;
use crate::projects::access::Grant;
use crate::projects::{ProjectRegistry, tools as project_tools};
use lingo_model::budget::{Budget, Exhausted};
use lingo_model::suggest::similar;
use lingo_tools::error::ToolError;
use lingo_tools::{Answer, Selection, ToolContext, ToolRegistry};
pub use tool_reply::ToolReply;

pub use revision::{HANDSHAKE_PROTOCOL_VERSIONS, Revision, STATELESS_PROTOCOL_VERSIONS};
/// Largest request accepted, in bytes.
pub const MAX_REQUEST_BYTES: usize = 1 << 20;
/// Largest response sent, in bytes.
pub const MAX_RESPONSE_BYTES: usize = 10 << 20;
/// `tools/call` requests handled at once; more are refused as busy.
pub const MAX_IN_FLIGHT: usize = 128;
/// The time budget of one `tools/call` unless configured otherwise.
pub const DEFAULT_REQUEST_TIMEOUT: Duration = Duration::from_secs(60);
/// How long past its deadline a call may take to stop by itself before it
/// is answered REQUEST_TIMEOUT regardless.
const DEADLINE_GRACE: Duration = Duration::from_secs(2);
/// How long in-flight requests may finish after the input closes.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(30);
/// Replies waiting for the writer; when full, reading waits for the client
/// to read (so a client that never reads cannot grow the queue).
const REPLY_QUEUE: usize = 1024;
/// Longest client-supplied name echoed back in an error, in characters.
const MAX_ECHOED_CHARS: usize = 256;

/// Which workspace a tool call runs in.
enum Scope {
    /// One workspace: `projectId` is optional and, when given, names it.
    One(Arc<ToolContext>),
    /// One workspace still opening (its plugins compiling on a first
    /// start): the handshake and `tools/list` do not wait for it, a tool
    /// call does, within its time budget.
    Opening(watch::Receiver<Option<Opened>>),
    /// Hosted projects: every workspace tool names its project.
    Hosted(Arc<ProjectRegistry>),
}

/// The protocol state shared by all requests and connections.
pub struct Server {
    tools: ToolRegistry,
    scope: Scope,
    request_timeout: Duration,
    /// The tools offered where no endpoint chooses others.
    surface: Surface,
}

/// The tools one endpoint offers (the operator's [`Selection`]) and their
/// `tools/list` entries, built once.
pub struct Surface {
    selection: Selection,
    listing: Vec<Value>,
    instructions: String,
}

impl Surface {
    /// The `tools/list` entries.
    pub fn listing(&self) -> &[Value] {
        &self.listing
    }

    /// What `initialize` tells the model.
    pub fn instructions(&self) -> &str {
        &self.instructions
    }

    /// The operator's choice of tools.
    pub fn selection(&self) -> &Selection {
        &self.selection
    }

    /// Whether `tool` (which writes files when `writes`) is offered; the
    /// hosted mode's `list_projects` always is.
    fn admits(&self, tool: &str, writes: bool) -> bool {
        tool == "list_projects" || self.selection.admits(tool, writes)
    }
}

impl Server {
    /// A server whose tool calls have [`DEFAULT_REQUEST_TIMEOUT`] each.
    pub fn new(tools: ToolRegistry, context: ToolContext) -> Arc<Self> {
        Self::with_request_timeout(tools, context, DEFAULT_REQUEST_TIMEOUT)
    }

    /// A server for one workspace whose tool calls have `timeout` each
    /// (all plugin calls included).
    pub fn with_request_timeout(
        tools: ToolRegistry,
        context: ToolContext,
        timeout: Duration,
    ) -> Arc<Self> {
        let scope = Scope::One(Arc::new(context));
        let surface = surface(&tools, &scope, Selection::all());
        Arc::new(Server {
            tools,
            scope,
            request_timeout: timeout,
            surface,
        })
    }

    /// A server for one workspace that `open` opens on a thread of its own,
    /// so that the handshake is answered at once (a first start compiles
    /// the plugins, which takes seconds; clients give up on `initialize`
    /// after 1.5 to 30 s). Tool calls wait for it within their time budget;
    /// if it cannot be opened, each says why.
    pub fn opening(
        tools: ToolRegistry,
        selection: Selection,
        timeout: Duration,
        open: impl FnOnce() -> anyhow::Result<ToolContext> + Send + 'static,
    ) -> Arc<Self> {
        let (opened, ready) = watch::channel(None);
        let spawned = std::thread::Builder::new()
            .name("lingo-open".into())
            .spawn(move || {
                let result = open().map(Arc::new).map_err(|error| {
                    tracing::error!("the workspace could not be opened: {error:#}");
                    format!("{error:#}")
                });
                let _ = opened.send(Some(result));
            });
        if let Err(error) = spawned {
            tracing::error!("no thread to open the workspace on: {error}");
        }
        let scope = Scope::Opening(ready);
        let surface = surface(&tools, &scope, selection);
        Arc::new(Server {
            tools,
            scope,
            request_timeout: timeout,
            surface,
        })
    }

    /// A server for the projects of `registry`: every workspace tool takes
    /// a required `projectId`, and the project tools are added.
    pub fn hosted(
        tools: ToolRegistry,
        selection: Selection,
        registry: Arc<ProjectRegistry>,
    ) -> Arc<Self> {
        let scope = Scope::Hosted(registry);
        let surface = surface(&tools, &scope, selection);
        Arc::new(Server {
            tools,
            scope,
            request_timeout: DEFAULT_REQUEST_TIMEOUT,
            surface,
        })
    }

    /// The tools `selection` offers, for an endpoint of their own (an HTTP
    /// path naming a toolset).
    pub fn surface_for(&self, selection: Selection) -> Surface {
        surface(&self.tools, &self.scope, selection)
    }

    /// Every tool name the server knows, the hosted mode's project tools
    /// included (for checking an operator's selection).
    pub fn known_tools(&self) -> Vec<&'static str> {
        let mut names = self.tools.names();
        if self.is_hosted() {
            names.extend(project_tools::NAMES);
        }
        names
    }

    /// The time budget of one tool call.
    pub fn request_timeout(&self) -> Duration {
        self.request_timeout
    }

    /// The time budget of a call with `arguments`: its project's in hosted
    /// mode.
    pub fn request_timeout_for(&self, arguments: &Value, grant: &Grant) -> Duration {
        match &self.scope {
            Scope::Hosted(registry) => arguments["projectId"]
                .as_str()
                .and_then(|id| registry.get(id, grant).ok())
                .map_or(self.request_timeout, |p| p.limits.request_timeout),
            Scope::One(_) | Scope::Opening(_) => self.request_timeout,
        }
    }

    /// The tools offered where no endpoint chooses others.
    pub fn surface(&self) -> &Surface {
        &self.surface
    }

    /// Whether the server answers for hosted projects.
    pub fn is_hosted(&self) -> bool {
        matches!(self.scope, Scope::Hosted(_))
    }

    /// Answer one request; a `tools/call` gets a fresh budget.
    pub async fn handle(self: &Arc<Self>, method: &str, params: Value) -> Result<Value, RpcError> {
        let revision = Revision::of_request(method, &params)?;
        match self.answer_inline(method, &params, revision) {
            Some(answer) => answer,
            None => {
                let budget = Budget::new(Some(self.request_timeout));
                let result = self.call_tool(params, budget).await?;
                Ok(revision.shape(method, result))
            }
        }
    }

    /// Answer a method that needs no slot (every one but `tools/call`,
    /// `None`), shaped as `revision` asks.
    fn answer_inline(
        &self,
        method: &str,
        params: &Value,
        revision: Revision,
    ) -> Option<Result<Value, RpcError>> {
        if method == "tools/call" {
            return None;
        }
        if !revision.has_method(method) {
            return Some(Err(method_not_found(method)));
        }
        Some(
            self.answer_method(method, params, revision)
                .map(|result| revision.shape(method, result)),
        )
    }

    fn answer_method(
        &self,
        method: &str,
        params: &Value,
        revision: Revision,
    ) -> Result<Value, RpcError> {
        match method {
            "initialize" => initialize(params, &self.surface.instructions),
            "server/discover" => Ok(revision::discover(
                capabilities(),
                server_info(),
                &self.surface.instructions,
            )),
            "ping" => Ok(json!({})),
            "tools/list" => Ok(json!({ "tools": self.surface.listing })),
            "resources/list" => Ok(json!({ "resources": [] })),
            "resources/templates/list" => Ok(json!({ "resourceTemplates": [] })),
            "prompts/list" => Ok(json!({ "prompts": [] })),
            "resources/read" => Err(resource_not_found(params, revision)),
            _ => Err(method_not_found(method)),
        }
    }

    /// Run a `tools/call` under `budget` for the local caller.
    pub async fn call_tool(
        self: &Arc<Self>,
        params: Value,
        budget: Arc<Budget>,
    ) -> Result<Value, RpcError> {
        self.call_tool_as(params, budget, &Grant::local(), &self.surface)
            .await
    }

    /// Run a `tools/call` of a tool `surface` offers under `budget` for the
    /// caller holding `grant`, on a blocking thread: its `CallToolResult`.
    pub async fn call_tool_as(
        self: &Arc<Self>,
        params: Value,
        budget: Arc<Budget>,
        grant: &Grant,
        surface: &Surface,
    ) -> Result<Value, RpcError> {
        self.reply_to_call(params, budget, grant, surface, Turn::when_needed())
            .await
            .map(ToolReply::into_value)
    }

    /// [`Server::call_tool_as`], the result left for the caller to write;
    /// the tool runs when `turn` comes.
    pub(crate) async fn reply_to_call(
        self: &Arc<Self>,
        params: Value,
        budget: Arc<Budget>,
        grant: &Grant,
        surface: &Surface,
        turn: Turn,
    ) -> Result<ToolReply, RpcError> {
        let (name, mut arguments) = tool_call_params(params)?;
        let registry = match &self.scope {
            Scope::Hosted(registry) => Some(registry.clone()),
            Scope::One(_) | Scope::Opening(_) => None,
        };
        // A tool the server has but this endpoint does not offer says so.
        let canonical = match self.tools.find(&name) {
            Some(tool) => Some(tool.name),
            None => project_tools::NAMES
                .iter()
                .copied()
                .find(|tool| registry.is_some() && *tool == name),
        };
        if let Some(tool) = canonical
            && !surface.admits(tool, lingo_tools::writes(tool))
        {
            return Err(not_offered(tool, surface));
        }
        if let Some(registry) = &registry {
            grant
                .take()
                .map_err(|wait| rate_limited(wait, "token", None))?;
            if project_tools::NAMES.contains(&name.as_str()) {
                let (registry, grant) = (registry.clone(), grant.clone());
                let (tool_name, call_arguments) = (name.clone(), arguments.clone());
                let outcome = run_tool(budget, turn, move || {
                    project_tools::call(&tool_name, &registry, &call_arguments, &grant)
                        .unwrap_or_else(|| Err(ToolError::Internal("not a project tool".into())))
                })
                .await?;
                return Ok(match outcome {
                    Ok(value) => {
                        let text = project_tools::render(&value);
                        let reply = ToolReply::json(value, text, false);
                        if surface.selection.structured_output() {
                            reply
                        } else {
                            reply.text_only()
                        }
                    }
                    Err(error) => ToolReply::refused(&error),
                });
            }
        }
        let Some((position, tool)) = self.tools.locate(&name) else {
            // Only the tools this endpoint offers are suggested.
            let available: Vec<&str> = self
                .known_tools()
                .into_iter()
                .filter(|tool| surface.admits(tool, lingo_tools::writes(tool)))
                .collect();
            let suggestions = similar(&name, available.iter().copied(), 3);
            let name = clip(&name);
            return Err(invalid_params(format!("Unknown tool: {name}")).with_data(
                json!({ "tool": name, "suggestions": suggestions, "available": available }),
            ));
        };
        let tool_name = tool.name;
        let mut held = None;
        let context = match &self.scope {
            Scope::One(context) => context.clone(),
            Scope::Opening(ready) => match opened(ready.clone(), self.request_timeout).await {
                Ok(context) => context,
                Err(error) => return Ok(ToolReply::refused(&error)),
            },
            Scope::Hosted(registry) => {
                let project = match arguments.get("projectId") {
                    Some(Value::String(id)) => registry.get(id, grant),
                    _ => Err(ToolError::ProjectNotFound {
                        project: String::new(),
                        known: registry.ids_for(grant),
                    }),
                };
                let project = match project {
                    Ok(project) => project,
                    Err(error) => return Ok(ToolReply::refused(&error)),
                };
                project
                    .take()
                    .map_err(|wait| rate_limited(wait, "project", Some(&project.id)))?;
                let Some(permit) = project.enter() else {
                    return Err(project_busy(&project));
                };
                if let Value::Object(map) = &mut arguments {
                    // The id named the project; the workspace knows no other.
                    map.remove("projectId");
                }
                let context = project.context.clone();
                held = Some((project, permit));
                context
            }
        };
        let server = self.clone();
        let call_arguments = arguments.clone();
        let outcome = run_tool(budget.clone(), turn, move || {
            let tool = server
                .tools
                .at(position)
                .ok_or_else(|| ToolError::Internal(format!("tool `{tool_name}` vanished")))?;
            server.tools.call(tool, &context, &call_arguments)
        })
        .await?;
        let (answer, is_error) = match outcome {
            Ok(mut answer) => {
                mark_incomplete(&mut answer, &budget);
                (answer, false)
            }
            Err(error) => {
                tracing::debug!(code = error.code(), %error, "tool error");
                (Answer::refusal(&error), true)
            }
        };
        let text = tool.render(&arguments, &answer);
        let reply = ToolReply::answered(answer, text, is_error);
        // The text is what a model reads; clients that find a structured
        // answer hand the model that instead, so it goes only to those that
        // ask for it, and with every refusal (its stable code).
        let wants_json = arguments.get("format").and_then(Value::as_str) == Some("json");
        let reply = if is_error || wants_json || surface.selection.structured_output() {
            reply
        } else {
            reply.text_only()
        };
        if let Some((project, _permit)) = &held {
            let limit = project.limits.max_response_bytes;
            let size = reply.text().len() + reply.structured_len();
            if size > limit {
                return Ok(ToolReply::refused(&ToolError::ResourceLimitExceeded {
                    limit,
                }));
            }
        }
        Ok(reply)
    }
}

/// What opening the workspace gave: its context, or why it failed.
type Opened = Result<Arc<ToolContext>, String>;

/// The workspace's context once it is open, waiting at most `timeout`.
async fn opened(
    mut ready: watch::Receiver<Option<Opened>>,
    timeout: Duration,
) -> Result<Arc<ToolContext>, ToolError> {
    let waited = tokio::time::timeout(timeout, ready.wait_for(Option::is_some)).await;
    let not_open = |why: String| ToolError::Internal(format!("the workspace is not open: {why}"));
    match waited {
        Ok(Ok(state)) => match state.as_ref() {
            Some(Ok(context)) => Ok(context.clone()),
            Some(Err(error)) => Err(not_open(error.clone())),
            None => Err(not_open("it is still opening".into())),
        },
        Ok(Err(_)) => Err(not_open("opening it stopped".into())),
        Err(_) => Err(not_open(format!(
            "it is still opening after {} s (its plugins compiling); try again",
            timeout.as_secs()
        ))),
    }
}

/// The error of a call over a token's or a project's request rate.
fn rate_limited(wait: Duration, scope: &str, project: Option<&str>) -> RpcError {
    let retry_after_ms = wait.as_millis().max(1) as u64;
    RpcError::new(
        jsonrpc::RATE_LIMITED,
        format!("Rate limit exceeded: the {scope}'s request rate is used up; retry in {retry_after_ms} ms"),
    )
    .with_data(json!({
        "code": "RATE_LIMITED",
        "scope": scope,
        "projectId": project,
        "retryAfterMs": retry_after_ms,
        "retryable": true,
    }))
}

/// The error of a call finding every one of its project's slots taken.
fn project_busy(project: &crate::projects::Project) -> RpcError {
    let limit = project.limits.max_concurrent;
    RpcError::new(
        jsonrpc::SERVER_BUSY,
        format!(
            "Server busy: project `{}` already runs {limit} tool calls; retry later",
            project.id
        ),
    )
    .with_data(json!({
        "code": "RESOURCE_LIMIT_EXCEEDED",
        "scope": "project",
        "projectId": project.id,
        "limit": limit,
        "retryable": true,
    }))
}

/// A JSON-RPC "Invalid params" error.
fn invalid_params(message: String) -> RpcError {
    RpcError::new(jsonrpc::INVALID_PARAMS, message)
}

/// The tool name and arguments of `tools/call` parameters.
fn tool_call_params(params: Value) -> Result<(String, Value), RpcError> {
    let Value::Object(mut params) = params else {
        return Err(invalid_params(
            "Invalid params: tools/call needs an object with `name`".into(),
        ));
    };
    let name = match params.remove("name") {
        Some(Value::String(name)) => name,
        Some(_) => {
            return Err(invalid_params(
                "Invalid params: `name` must be a string".into(),
            ));
        }
        None => return Err(invalid_params("Invalid params: `name` is missing".into())),
    };
    let arguments = params.remove("arguments").unwrap_or(Value::Null);
    if !matches!(arguments, Value::Object(_) | Value::Null) {
        return Err(invalid_params(
            "Invalid params: `arguments` must be an object".into(),
        ));
    }
    Ok((name, arguments))
}

/// At most [`MAX_ECHOED_CHARS`] characters of a client-supplied name.
fn clip(text: &str) -> String {
    match text.char_indices().nth(MAX_ECHOED_CHARS) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_string(),
    }
}

/// Run a tool's `work` on a blocking thread with `budget` as its current
/// budget, once `turn` comes. A panic answers
/// INTERNAL_ERROR; a call still waiting or running [`DEADLINE_GRACE`]
/// past the deadline is cancelled and answered REQUEST_TIMEOUT.
async fn run_tool<F, T>(
    budget: Arc<Budget>,
    turn: Turn,
    work: F,
) -> Result<Result<T, ToolError>, RpcError>
where
    F: FnOnce() -> Result<T, ToolError> + Send + 'static,
    T: Send + 'static,
{
    let scoped = budget.clone();
    let task = async move {
        let turn = turn.taken().await;
        // The turn goes with the work: a call answered as timed out keeps
        // it until its thread has stopped.
        tokio::task::spawn_blocking(move || {
            let _turn = turn;
            scoped.scope(work)
        })
        .await
    };
    let joined = match budget.remaining() {
        Some(left) => match tokio::time::timeout(left + DEADLINE_GRACE, task).await {
            Ok(joined) => joined,
            Err(_) => {
                budget.cancel();
                tracing::warn!("tool call overran its deadline; answered as timed out");
                return Ok(Err(ToolError::Exhausted(Exhausted::DeadlineExceeded)));
            }
        },
        None => task.await,
    };
    joined.map_err(|e| {
        tracing::error!(error = %e, "tool panicked");
        RpcError::new(
            jsonrpc::INTERNAL_ERROR,
            format!("Internal error: tool panicked: {e}"),
        )
    })
}

/// An answer that lost work to plugin failures says so: `complete: false`
/// and the reasons, whatever the tool claimed.
fn mark_incomplete(answer: &mut Answer, budget: &Budget) {
    let (lost, reasons) = budget.losses();
    if lost == 0 {
        return;
    }
    answer.note("complete", Value::Bool(false));
    answer.note("incompleteReasons", json!(reasons));
}

/// What `initialize` tells the model about using the server, with the
/// toolsets `selection` offers.
pub fn instructions(hosted: bool, selection: &Selection) -> String {
    let scope = if hosted {
        "lingo answers questions about the code of the projects this token may use, from a parsed and resolved index: prefer it to text search when you need what a name refers to, who uses or calls it, or an edit across files. Every tool but list_projects takes `projectId` (list_projects names them). Paths are relative to the project root"
    } else {
        "lingo answers questions about the code of one workspace from a parsed and resolved index: prefer it to text search when you need what a name refers to, who uses or calls it, or an edit across files. Paths are relative to the workspace root"
    };
    format!(
        "{scope}. Positions you pass (`line`, `character`) are zero-based unless the argument says 1-based; text answers print `line:column` 1-based, as compilers do. Answers say how certain each result is. {}",
        selection.describe()
    )
}

/// The `tools/list` entries and instructions `selection` gives in `scope`.
fn surface(tools: &ToolRegistry, scope: &Scope, selection: Selection) -> Surface {
    let hosted = matches!(scope, Scope::Hosted(_));
    let mut listing = tools.list(&selection);
    if hosted {
        for tool in &mut listing {
            let schema = &mut tool["inputSchema"];
            schema["properties"]["projectId"] = json!({
                "type": "string",
                "description": "The project to answer from (`list_projects` names them)",
            });
            match schema["required"].as_array_mut() {
                Some(required) => required.insert(0, json!("projectId")),
                None => schema["required"] = json!(["projectId"]),
            }
        }
        listing.extend(project_tools::list().into_iter().filter(|tool| {
            let name = tool["name"].as_str().unwrap_or_default();
            name == "list_projects" || selection.admits(name, false)
        }));
        if !selection.structured_output() {
            for tool in &mut listing {
                if let Some(entry) = tool.as_object_mut() {
                    entry.remove("outputSchema");
                }
            }
        }
    }
    let instructions = instructions(hosted, &selection);
    Surface {
        selection,
        listing,
        instructions,
    }
}

/// The refusal of a call to a tool the endpoint does not offer.
fn not_offered(name: &'static str, surface: &Surface) -> RpcError {
    let set = lingo_tools::toolsets::set_of(name);
    let how = match set {
        Some(set) => format!(
            "; it is in toolset `{set}`, which the operator enables (`--toolsets {set}`, lingo.toml, or the URL path /mcp/{set})"
        ),
        None => String::new(),
    };
    let read_only = if surface.selection.read_only() && lingo_tools::writes(name) {
        " (this server is read-only)"
    } else {
        ""
    };
    invalid_params(format!("Tool not offered here: {name}{read_only}{how}")).with_data(json!({
        "code": "TOOL_NOT_ENABLED",
        "tool": name,
        "toolset": set.map(|set| set.name()),
        "readOnly": surface.selection.read_only(),
    }))
}

fn initialize(params: &Value, instructions: &str) -> Result<Value, RpcError> {
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
    tracing::info!(requested = %clip(requested), negotiated = version, client = %clip(&params["clientInfo"]["name"].to_string()), "initialize");
    Ok(json!({
        "protocolVersion": version,
        "capabilities": capabilities(),
        "serverInfo": server_info(),
        "instructions": instructions,
    }))
}

/// What the server offers: tools, and (empty) resources and prompts.
pub(crate) fn capabilities() -> Value {
    json!({
        "tools": { "listChanged": false },
        "resources": { "listChanged": false },
        "prompts": { "listChanged": false },
    })
}

/// The server's name and version.
pub fn server_info() -> Value {
    json!({ "name": "lingo", "title": "lingo code intelligence", "version": env!("CARGO_PKG_VERSION") })
}

/// lingo serves no resources: every URI is not found, with the code each
/// revision gives that (2026-07-28: Invalid Params; before: -32002).
fn resource_not_found(params: &Value, revision: Revision) -> RpcError {
    let uri: String = params["uri"]
        .as_str()
        .unwrap_or_default()
        .chars()
        .take(256)
        .collect();
    let code = match revision {
        Revision::Stateless(_) => jsonrpc::INVALID_PARAMS,
        Revision::Handshake => jsonrpc::RESOURCE_NOT_FOUND,
    };
    RpcError::new(code, format!("Resource not found: {uri}")).with_data(json!({ "uri": uri }))
}

fn method_not_found(method: &str) -> RpcError {
    RpcError::new(
        jsonrpc::METHOD_NOT_FOUND,
        format!("Method not found: {}", clip(method)),
    )
}

/// The client's version when spoken here, else the newest one spoken here.
pub fn negotiate(requested: &str) -> &'static str {
    HANDSHAKE_PROTOCOL_VERSIONS
        .iter()
        .copied()
        .find(|v| *v == requested)
        .unwrap_or(HANDSHAKE_PROTOCOL_VERSIONS[0])
}

/// One reply for the writer.
struct Reply {
    id: Id,
    outcome: Result<Value, RpcError>,
}

/// What the writer sends: a reply, a reply written already (a tool call's,
/// written by its task), or a notification (a call's progress).
enum Outgoing {
    Reply(Reply),
    Written(Vec<u8>),
    Notification(Value),
}

/// A `tools/call` in flight.
struct Pending {
    budget: Arc<Budget>,
    /// Its task (set right after spawning).
    abort: Option<AbortHandle>,
    /// Its slot, freed when the entry is dropped.
    _permit: OwnedSemaphorePermit,
}

/// In-flight calls by [`Id::key`].
type PendingCalls = Arc<Mutex<HashMap<String, Pending>>>;

/// The table of in-flight calls (a panic elsewhere never poisons it).
fn lock(pending: &PendingCalls) -> MutexGuard<'_, HashMap<String, Pending>> {
    lingo_model::sync::lock(pending)
}

/// Serve MCP over a pair of byte streams (stdin/stdout in production) until
/// the input closes; then let in-flight requests finish.
pub async fn serve<R, W>(server: Arc<Server>, input: R, output: W) -> anyhow::Result<()>
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin + Send + 'static,
{
    let (sender, receiver) = mpsc::channel::<Outgoing>(REPLY_QUEUE);
    let writer = tokio::spawn(write_replies(receiver, output));
    let mut connection = Connection {
        server,
        replies: sender,
        permits: Arc::new(Semaphore::new(MAX_IN_FLIGHT)),
        pending: Arc::new(Mutex::new(HashMap::new())),
        tasks: JoinSet::new(),
    };
    let mut reader = BufReader::with_capacity(64 * 1024, input);
    let read = loop {
        match framing::next_frame(&mut reader, MAX_REQUEST_BYTES).await {
            Ok(Frame::Eof) => break Ok(()),
            Ok(Frame::TooLarge(size)) => connection.too_large(size).await,
            Ok(Frame::Line(line)) => connection.on_line(&line).await,
            Err(error) => break Err(error),
        }
        connection.reap();
    };
    connection.finish().await;
    let _ = writer.await;
    read?;
    Ok(())
}

/// Write replies and notifications as lines until every sender is gone or
/// the client goes. Lines queued while one was written go out together in
/// one write (each write of tokio's stdout is a hop to a blocking thread).
async fn write_replies<W>(mut receiver: mpsc::Receiver<Outgoing>, mut output: W)
where
    W: AsyncWrite + Unpin,
{
    /// Bytes gathered into one write at most (past it, the rest waits).
    const BATCH_BYTES: usize = 1 << 20;
    // One buffer for every batch: a fresh one per write grew by
    // reallocation to as much as a megabyte each time, and the allocator
    // handed those pages back and faulted them in again.
    let mut batch = Vec::new();
    while let Some(outgoing) = receiver.recv().await {
        batch.clear();
        push_line(&mut batch, outgoing);
        while batch.len() < BATCH_BYTES {
            match receiver.try_recv() {
                Ok(outgoing) => push_line(&mut batch, outgoing),
                Err(_) => break,
            }
        }
        if output.write_all(&batch).await.is_err() || output.flush().await.is_err() {
            break; // the client went away
        }
        if batch.capacity() > 2 * BATCH_BYTES {
            batch = Vec::new(); // one reply over the batch size: not kept
        }
    }
}

/// Append `outgoing` to `batch` as one line, its newline included.
fn push_line(batch: &mut Vec<u8>, outgoing: Outgoing) {
    match outgoing {
        Outgoing::Reply(reply) => batch.extend_from_slice(&within_limit(
            &reply.id,
            jsonrpc::reply(&reply.id, &reply.outcome),
        )),
        Outgoing::Written(line) => batch.extend_from_slice(&line),
        Outgoing::Notification(message) => {
            // Writing a `Value` into a Vec fails on nothing.
            let _ = serde_json::to_writer(&mut *batch, &message);
        }
    }
    batch.push(b'\n');
}

/// `line`, the reply to `id`, or an internal error when it is over
/// [`MAX_RESPONSE_BYTES`].
fn within_limit(id: &Id, line: Vec<u8>) -> Vec<u8> {
    if line.len() <= MAX_RESPONSE_BYTES {
        return line;
    }
    let error = RpcError::new(
        jsonrpc::INTERNAL_ERROR,
        format!(
            "Internal error: response of {} bytes exceeds the {MAX_RESPONSE_BYTES}-byte limit",
            line.len()
        ),
    );
    jsonrpc::failure(id, &error)
}

/// The reading side of one connection.
struct Connection {
    server: Arc<Server>,
    replies: mpsc::Sender<Outgoing>,
    permits: Arc<Semaphore>,
    pending: PendingCalls,
    tasks: JoinSet<()>,
}

impl Connection {
    /// Queue a reply (waits only while the client is not reading).
    async fn reply(&self, id: Id, outcome: Result<Value, RpcError>) {
        let _ = self
            .replies
            .send(Outgoing::Reply(Reply { id, outcome }))
            .await;
    }

    /// Refuse a line over [`MAX_REQUEST_BYTES`].
    async fn too_large(&self, size: usize) {
        let error = RpcError::new(
            jsonrpc::INVALID_REQUEST,
            format!(
                "Invalid Request: request of {size} bytes exceeds the {MAX_REQUEST_BYTES}-byte limit"
            ),
        )
        .with_data(json!({ "size": size, "limit": MAX_REQUEST_BYTES }));
        self.reply(Id::null(), Err(error)).await;
    }

    /// Handle one line: answer, start a call, or act on a notification.
    async fn on_line(&mut self, line: &[u8]) {
        match jsonrpc::parse(line) {
            Err((id, error)) => self.reply(id, Err(error)).await,
            Ok(Incoming::Response) => {}
            Ok(Incoming::Notification {
                method, request_id, ..
            }) => self.on_notification(&method, request_id),
            Ok(Incoming::Request { id, method, params }) => {
                let revision = match Revision::of_request(&method, &params) {
                    Ok(revision) => revision,
                    Err(error) => return self.reply(id, Err(error)).await,
                };
                match self.server.answer_inline(&method, &params, revision) {
                    Some(answer) => self.reply(id, answer).await,
                    None => self.start_call(id, params, revision).await,
                }
            }
        }
    }

    /// Act on a notification (only cancellation does anything).
    fn on_notification(&self, method: &str, request_id: Option<Id>) {
        match (method, request_id) {
            ("notifications/cancelled", Some(id)) => self.cancel(&id),
            _ => tracing::debug!(method = %clip(method), "notification"),
        }
    }

    /// Stop the call `id`: its budget is cancelled, its task aborted, its
    /// slot freed, and no reply is sent.
    fn cancel(&self, id: &Id) {
        let Some(call) = lock(&self.pending).remove(&id.key()) else {
            tracing::debug!(id = %clip(id.as_raw()), "cancellation of no call in flight");
            return;
        };
        call.budget.cancel();
        if let Some(task) = &call.abort {
            task.abort();
        }
        tracing::debug!(id = %clip(id.as_raw()), "call cancelled");
    }

    /// Start a `tools/call` in a free slot, or refuse it at once.
    async fn start_call(&mut self, id: Id, params: Value, revision: Revision) {
        let key = id.key();
        if lock(&self.pending).contains_key(&key) {
            let error = RpcError::new(
                jsonrpc::INVALID_REQUEST,
                "Invalid Request: this id is already used by a request in flight",
            );
            return self.reply(id, Err(error)).await;
        }
        let Ok(permit) = self.permits.clone().try_acquire_owned() else {
            return self.reply(id, Err(busy())).await;
        };
        let budget = Budget::new(Some(self.server.request_timeout));
        if let Some(token) = progress_token(&params) {
            let sender = self.replies.clone();
            budget.report_progress_to(Arc::new(move |p| {
                let mut params =
                    json!({ "progressToken": token, "progress": p.progress, "message": p.message });
                if let Some(total) = p.total {
                    params["total"] = json!(total);
                }
                // Best effort: a client not reading loses reports, not
                // the answer.
                let _ = sender.try_send(Outgoing::Notification(json!({
                    "jsonrpc": "2.0",
                    "method": "notifications/progress",
                    "params": params,
                })));
            }));
        }
        let call = Pending {
            budget: budget.clone(),
            abort: None,
            _permit: permit,
        };
        lock(&self.pending).insert(key.clone(), call);
        let task = run_call(
            self.server.clone(),
            self.pending.clone(),
            self.replies.clone(),
            (id, key.clone()),
            (params, revision),
            budget,
            Turn::take_place(),
        );
        let handle = self.tasks.spawn(task);
        if let Some(call) = lock(&self.pending).get_mut(&key) {
            call.abort = Some(handle);
        }
    }

    /// Forget finished tasks.
    fn reap(&mut self) {
        while self.tasks.try_join_next().is_some() {}
    }

    /// At end of input: let calls finish for [`SHUTDOWN_GRACE`], then
    /// cancel what is left.
    async fn finish(mut self) {
        tracing::info!(
            pending = self.tasks.len(),
            "input closed; finishing in-flight requests"
        );
        let tasks = &mut self.tasks;
        let drained = tokio::time::timeout(SHUTDOWN_GRACE, async {
            while tasks.join_next().await.is_some() {}
        })
        .await;
        if drained.is_err() {
            for (_, call) in lock(&self.pending).drain() {
                call.budget.cancel();
            }
            self.tasks.abort_all();
            while self.tasks.join_next().await.is_some() {}
        }
    }
}

/// One call's task: run it, then reply unless it was cancelled meanwhile.
async fn run_call(
    server: Arc<Server>,
    pending: PendingCalls,
    replies: mpsc::Sender<Outgoing>,
    (id, key): (Id, String),
    (params, revision): (Value, Revision),
    budget: Arc<Budget>,
    turn: Turn,
) {
    let outcome = server
        .reply_to_call(params, budget, &Grant::local(), &server.surface, turn)
        .await;
    // Written here, on this call's task, rather than by the one writer.
    let line = match outcome {
        Ok(reply) => jsonrpc::success_with(&id, |out| {
            reply.write_json(revision.result_type(), out);
        }),
        Err(error) => jsonrpc::failure(&id, &error),
    };
    let line = within_limit(&id, line);
    let call = lock(&pending).remove(&key);
    if let Some(call) = call {
        // The slot is free before the client can read the reply: a client
        // that sends its next call on reading it never finds the slots
        // all taken (the reply queue is bounded on its own).
        drop(call);
        let _ = replies.send(Outgoing::Written(line)).await;
    }
}

/// The `_meta.progressToken` of a request's parameters: a string or an
/// integer (MCP), at most 256 characters.
fn progress_token(params: &Value) -> Option<Value> {
    let token = params.get("_meta")?.get("progressToken")?;
    match token {
        Value::String(s) if s.len() <= 256 => Some(token.clone()),
        Value::Number(n) if n.is_i64() || n.is_u64() => Some(token.clone()),
        _ => None,
    }
}

/// The error of a `tools/call` refused because every slot is taken.
fn busy() -> RpcError {
    RpcError::new(
        jsonrpc::SERVER_BUSY,
        format!("Server busy: {MAX_IN_FLIGHT} tool calls are in flight; retry later"),
    )
    .with_data(json!({ "limit": MAX_IN_FLIGHT, "retryable": true }))
}
