//! The Streamable HTTP transport (hosted mode): the official SDK's server
//! transport (rmcp: one endpoint for POST and GET, SSE streams,
//! `Mcp-Session-Id`, resumption with `Last-Event-ID`, `Host` and `Origin`
//! checks) behind bearer-token authentication, serving the same
//! [`Server`] as stdio.

use std::borrow::Cow;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use rmcp::model::{
    CacheScope, CallToolRequestParams, CallToolResponse, CallToolResult, ErrorCode, ErrorData,
    ListToolsResult, PaginatedRequestParams, ProgressNotificationParam, ProtocolVersion,
    ReadResourceRequestParams, ReadResourceResponse, ResultType, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{RoleServer, ServerHandler};
use serde_json::{Value, json};
use tokio::sync::{Semaphore, mpsc};
use tokio_util::sync::CancellationToken;

use super::jsonrpc::RpcError;
use super::revision::{self, HANDSHAKE_PROTOCOL_VERSIONS};
use super::{MAX_IN_FLIGHT, MAX_REQUEST_BYTES, Server, Surface};
use crate::projects::access::{Grant, Tokens};
use lingo_model::budget::Budget;
use lingo_tools::Toolset;

/// The path the MCP endpoint is served at.
pub const ENDPOINT: &str = "/mcp";

/// How the HTTP transport is set up.
pub struct HttpOptions {
    /// Accepted bearer tokens; none: every caller is local (only allowed on
    /// a loopback address).
    pub tokens: Tokens,
    /// `Host` values accepted besides the loopback names (DNS rebinding).
    pub allowed_hosts: Vec<String>,
    /// Browser `Origin`s accepted; any other present `Origin` is refused.
    pub allowed_origins: Vec<String>,
}

/// Why the transport cannot start.
#[derive(Debug, thiserror::Error)]
pub enum HttpError {
    #[error(
        "refusing to serve {addr} without tokens: only a loopback address may be served unauthenticated (give --tokens or LINGO_TOKEN)"
    )]
    OpenWithoutTokens { addr: SocketAddr },
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        addr: SocketAddr,
        source: std::io::Error,
    },
    #[error("serving HTTP: {0}")]
    Serve(std::io::Error),
}

/// Listen on `addr` and serve until `shutdown` is cancelled.
pub async fn serve(
    server: Arc<Server>,
    addr: SocketAddr,
    options: HttpOptions,
    shutdown: CancellationToken,
) -> Result<(), HttpError> {
    if options.tokens.is_empty() && !addr.ip().is_loopback() {
        return Err(HttpError::OpenWithoutTokens { addr });
    }
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|source| HttpError::Bind { addr, source })?;
    let local = listener.local_addr().unwrap_or(addr);
    tracing::info!(address = %local, endpoint = ENDPOINT, authenticated = !options.tokens.is_empty(), "serving MCP over Streamable HTTP");
    serve_on(listener, server, options, shutdown).await
}

/// Serve on a bound listener (tests bind port 0).
pub async fn serve_on(
    listener: tokio::net::TcpListener,
    server: Arc<Server>,
    options: HttpOptions,
    shutdown: CancellationToken,
) -> Result<(), HttpError> {
    let loopback = listener
        .local_addr()
        .is_ok_and(|address| address.ip().is_loopback());
    let app = router(server, options, loopback, shutdown.clone());
    axum::serve(listener, app)
        .with_graceful_shutdown(async move { shutdown.cancelled().await })
        .await
        .map_err(HttpError::Serve)
}

/// Browser origins on this machine, accepted when serving on a loopback
/// address (a page on the same machine, such as the MCP Inspector's web
/// UI); the spec's DNS-rebinding rule refuses other origins.
const LOOPBACK_ORIGINS: &[&str] = &[
    "http://localhost:*",
    "https://localhost:*",
    "http://127.0.0.1:*",
    "https://127.0.0.1:*",
    "http://[::1]:*",
    "https://[::1]:*",
];

/// The router: the MCP endpoint behind authentication. `loopback`: it is
/// served on a loopback address, so loopback origins are accepted.
pub fn router(
    server: Arc<Server>,
    options: HttpOptions,
    loopback: bool,
    shutdown: CancellationToken,
) -> axum::Router {
    let mut origins = options.allowed_origins;
    if loopback {
        origins.extend(LOOPBACK_ORIGINS.iter().map(|o| o.to_string()));
    }
    let mut hosts: Vec<String> = ["localhost", "127.0.0.1", "::1", "[::1]"]
        .iter()
        .map(|h| h.to_string())
        .collect();
    hosts.extend(options.allowed_hosts);
    let config = StreamableHttpServerConfig::default()
        .with_allowed_hosts(hosts)
        .with_allowed_origins(origins)
        .enforce_origin_validation()
        .with_max_request_body_bytes(MAX_REQUEST_BYTES)
        .with_cancellation_token(shutdown);
    let slots = Arc::new(Semaphore::new(MAX_IN_FLIGHT));
    let endpoint = |surface: Surface| {
        let handler = Handler::new(server.clone(), Arc::new(surface), slots.clone());
        StreamableHttpService::new(
            move || Ok(handler.clone()),
            Arc::new(LocalSessionManager::default()),
            config.clone(),
        )
    };
    let mut router = axum::Router::new();
    // `/mcp/<toolset>` offers that set (the operator's exclusions and
    // read-only still apply), so that stateless requests carry it.
    for set in Toolset::EVERY {
        let surface = server.surface_for(server.surface().selection().narrowed_to(set));
        router = router.route_service(&format!("{ENDPOINT}/{}", set.name()), endpoint(surface));
    }
    let default = server.surface_for(server.surface().selection().clone());
    router
        .route_service(ENDPOINT, endpoint(default))
        .layer(axum::middleware::from_fn_with_state(
            Arc::new(options.tokens),
            authenticate,
        ))
}

/// Let a request through with its token's [`Grant`] attached, or answer
/// 401 (RFC 6750).
async fn authenticate(
    State(tokens): State<Arc<Tokens>>,
    mut request: Request,
    next: Next,
) -> Response {
    if tokens.is_empty() {
        request.extensions_mut().insert(Grant::local());
        return next.run(request).await;
    }
    let presented = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| {
            v.strip_prefix("Bearer ")
                .or_else(|| v.strip_prefix("bearer "))
        })
        .map(str::trim);
    let grant = presented.and_then(|token| tokens.authenticate(token));
    match grant {
        Some(grant) => {
            request.extensions_mut().insert(grant);
            next.run(request).await
        }
        None => {
            let (error, description) = match presented {
                None => ("invalid_request", "a bearer token is required"),
                Some(_) => ("invalid_token", "the bearer token is not known"),
            };
            tracing::debug!(error, "request refused: not authenticated");
            let challenge = format!(
                "Bearer realm=\"lingo\", error=\"{error}\", error_description=\"{description}\""
            );
            let mut response = (
                StatusCode::UNAUTHORIZED,
                axum::Json(json!({
                    "jsonrpc": "2.0",
                    "id": null,
                    "error": { "code": -32001, "message": format!("Unauthorized: {description}") },
                })),
            )
                .into_response();
            if let Ok(value) = HeaderValue::from_str(&challenge) {
                response
                    .headers_mut()
                    .insert(header::WWW_AUTHENTICATE, value);
            }
            response
        }
    }
}

/// The rmcp handler of every session: the server, the tools its endpoint
/// offers, and the server-wide cap on calls in flight.
#[derive(Clone)]
struct Handler {
    server: Arc<Server>,
    surface: Arc<Surface>,
    slots: Arc<Semaphore>,
    tools: Arc<ListToolsResult>,
}

impl Handler {
    fn new(server: Arc<Server>, surface: Arc<Surface>, slots: Arc<Semaphore>) -> Self {
        let tools = serde_json::from_value(json!(surface.listing())).unwrap_or_else(|error| {
            tracing::error!(%error, "tool list not in the SDK's shape");
            Vec::new()
        });
        // The list is the same for every caller while the server runs
        // (rmcp leaves the hints and `resultType` out for older revisions).
        let tools = ListToolsResult::with_all_items(tools)
            .with_ttl_ms(revision::LIST_TTL_MS)
            .with_cache_scope(CacheScope::Public);
        Handler {
            server,
            surface,
            slots,
            tools: Arc::new(tools),
        }
    }
}

impl ServerHandler for Handler {
    fn get_info(&self) -> ServerConfig {
        let info = json!({
            "protocolVersion": HANDSHAKE_PROTOCOL_VERSIONS[0],
            "capabilities": super::capabilities(),
            "serverInfo": super::server_info(),
            "instructions": self.surface.instructions(),
        });
        serde_json::from_value(info).unwrap_or_else(|error| {
            tracing::error!(%error, "server info not in the SDK's shape");
            ServerConfig::default()
        })
    }

    /// Both the stateless revision (rmcp serves it without a session) and
    /// the handshake's.
    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Owned(
            revision::supported_versions()
                .iter()
                .filter_map(|v| serde_json::from_value(json!(v)).ok())
                .collect(),
        )
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok((*self.tools).clone())
    }

    /// lingo serves no resources: every URI is not found (rmcp answers
    /// 2026-07-28 clients with Invalid Params, as that revision asks).
    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let uri: String = request.uri.chars().take(256).collect();
        Err(ErrorData::resource_not_found(
            format!("Resource not found: {uri}"),
            Some(json!({ "uri": uri })),
        ))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let grant = context
            .extensions
            .get::<axum::http::request::Parts>()
            .and_then(|parts| parts.extensions.get::<Grant>())
            .cloned()
            .ok_or_else(|| {
                ErrorData::new(
                    ErrorCode::INTERNAL_ERROR,
                    "Internal error: the request carries no grant",
                    None,
                )
            })?;
        let Ok(_slot) = self.slots.clone().try_acquire_owned() else {
            return Err(to_error_data(super::busy()));
        };
        let params = json!({ "name": request.name, "arguments": request.arguments });
        let timeout = self
            .server
            .request_timeout_for(&params["arguments"], &grant);
        let budget = Budget::new(Some(timeout));
        if let Some(token) = context.meta.get_progress_token() {
            report_progress(&budget, token, &context);
        }
        // notifications/cancelled (or the client going away) stops the work.
        let (cancelled, stop) = (context.ct.clone(), budget.clone());
        let watcher = tokio::spawn(async move {
            cancelled.cancelled().await;
            stop.cancel();
        });
        let outcome = self
            .server
            .call_tool_as(params, budget, &grant, &self.surface)
            .await;
        watcher.abort();
        let value = outcome.map_err(to_error_data)?;
        let mut result: CallToolResult = serde_json::from_value(value).map_err(|error| {
            ErrorData::new(
                ErrorCode::INTERNAL_ERROR,
                format!("Internal error: answer not in the SDK's shape: {error}"),
                None,
            )
        })?;
        // 2026-07-28 requires it on every result (rmcp leaves it out for
        // older revisions, as it does the list's).
        result.result_type = Some(ResultType::COMPLETE);
        Ok(result.into())
    }
}

/// Forward the call's progress reports to the client, in order.
fn report_progress(
    budget: &Budget,
    token: rmcp::model::ProgressToken,
    context: &RequestContext<RoleServer>,
) {
    let (sender, mut receiver) = mpsc::channel::<(f64, Option<f64>, Option<String>)>(64);
    let peer = context.peer.clone();
    tokio::spawn(async move {
        while let Some((progress, total, message)) = receiver.recv().await {
            let mut param = ProgressNotificationParam::new(token.clone(), progress);
            param.total = total;
            param.message = message;
            if peer.notify_progress(param).await.is_err() {
                break;
            }
        }
    });
    budget.report_progress_to(Arc::new(move |p| {
        // Best effort: a client not reading loses reports, not the answer.
        let _ = sender.try_send((
            p.progress as f64,
            p.total.map(|t| t as f64),
            Some(p.message.clone()),
        ));
    }));
}

fn to_error_data(error: RpcError) -> ErrorData {
    ErrorData::new(
        ErrorCode(error.code as i32),
        error.message,
        error.data.map(|data| match data {
            Value::Null => json!({}),
            other => other,
        }),
    )
}
