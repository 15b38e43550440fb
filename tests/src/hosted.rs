//! Hosted-mode harness: `lingo serve --http` on a free loopback port with a
//! projects file and a tokens file, and clients of the official SDK
//! speaking Streamable HTTP to it.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig, Implementation,
};
use rmcp::service::{RunningService, ServiceError};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{RoleClient, ServiceExt};
use serde_json::Value;
use tokio::process::{Child, Command};

use crate::{PATIENCE, ProcessMemory, Scratch, cache_dir, lingo_bin};

/// A `lingo serve --http` process.
pub struct HostedServer {
    child: Child,
    /// `http://127.0.0.1:PORT/mcp`.
    pub url: String,
    log: PathBuf,
    dir: Scratch,
}

impl HostedServer {
    /// Start with `projects` (the projects file's text; relative roots are
    /// relative to the scratch directory it is written to, see
    /// [`HostedServer::start_in`]) and `tokens` (the tokens file's text, or
    /// none for an unauthenticated loopback server).
    pub async fn start(projects: &str, tokens: Option<&str>) -> anyhow::Result<Self> {
        Self::start_in(Scratch::new("hosted"), projects, tokens, &[]).await
    }

    /// Start in `dir`, where the projects' folders already are.
    pub async fn start_in(
        dir: Scratch,
        projects: &str,
        tokens: Option<&str>,
        extra: &[&str],
    ) -> anyhow::Result<Self> {
        let projects_file = dir.write("projects.toml", projects);
        let log = dir.path().join("lingo.log");
        let log_file = std::fs::File::create(&log).context("create the server log")?;
        let mut command = Command::new(lingo_bin());
        command
            .arg("serve")
            .args(["--http", "127.0.0.1:0", "--projects"])
            .arg(&projects_file)
            .arg("--cache-dir")
            .arg(cache_dir())
            .args(extra)
            .env_remove("LINGO_CACHE_DIR")
            .env_remove("LINGO_TOKEN")
            .env("LINGO_LOG", "info")
            .env("LINGO_TOOLSETS", "all")
            .env("LINGO_STRUCTURED_OUTPUT", "true")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log_file)
            .kill_on_drop(true);
        if let Some(tokens) = tokens {
            command
                .arg("--tokens")
                .arg(dir.write("tokens.toml", tokens));
        }
        let child = command.spawn().context("spawn lingo serve --http")?;
        let started = Instant::now();
        let address = loop {
            let text = std::fs::read_to_string(&log).unwrap_or_default();
            if let Some(address) = listening_address(&text) {
                break address;
            }
            if started.elapsed() > PATIENCE {
                bail!("the server did not start listening:\n{text}");
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        };
        Ok(HostedServer {
            child,
            url: format!("http://{address}/mcp"),
            log,
            dir,
        })
    }

    /// A session of the official client, with `token` as its bearer token.
    pub async fn connect(&self, token: Option<&str>) -> anyhow::Result<HttpClient> {
        let mut config = StreamableHttpClientTransportConfig::with_uri(self.url.clone());
        if let Some(token) = token {
            config = config.auth_header(token);
        }
        let transport = StreamableHttpClientTransport::from_config(config);
        let client_config = ClientConfig::new(
            ClientCapabilities::default(),
            Implementation::new("lingo-e2e-http", "0.1.0"),
        );
        let client = tokio::time::timeout(PATIENCE, client_config.serve(transport))
            .await
            .context("no handshake in time")?
            .map_err(|e| anyhow::anyhow!("handshake failed: {e}"))?;
        Ok(HttpClient { client })
    }

    pub fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    pub fn pid(&self) -> Option<u32> {
        self.child.id()
    }

    pub fn memory(&self) -> Option<ProcessMemory> {
        ProcessMemory::of(self.pid()?)
    }

    /// The scratch directory the files are in.
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }

    pub async fn stop(mut self) {
        let _ = self.child.kill().await;
    }

    /// Kill the server at once (SIGKILL: no shutdown of any kind).
    pub async fn kill(&mut self) {
        let _ = self.child.kill().await;
    }

    /// Kill the server and start it again on the same files and cache.
    pub async fn restart(mut self, extra: &[&str]) -> anyhow::Result<Self> {
        self.kill().await;
        let projects = std::fs::read_to_string(self.dir.path().join("projects.toml"))?;
        let tokens = std::fs::read_to_string(self.dir.path().join("tokens.toml")).ok();
        Self::start_in(self.dir, &projects, tokens.as_deref(), extra).await
    }
}

/// The `address=` of the line saying the server listens.
fn listening_address(log: &str) -> Option<String> {
    let line = log
        .lines()
        .find(|l| l.contains("serving MCP over Streamable HTTP"))?;
    let rest = line.split("address=").nth(1)?;
    Some(rest.split_whitespace().next()?.to_string())
}

/// One client session over HTTP.
pub struct HttpClient {
    pub client: RunningService<RoleClient, ClientConfig>,
}

impl HttpClient {
    /// `tools/call`: the result, or the protocol error.
    pub async fn call(&self, tool: &str, arguments: Value) -> Result<CallToolResult, ServiceError> {
        let Value::Object(arguments) = arguments else {
            panic!("arguments must be an object")
        };
        let params = CallToolRequestParams::new(tool.to_string()).with_arguments(arguments);
        match tokio::time::timeout(PATIENCE, self.client.call_tool(params)).await {
            Ok(outcome) => outcome,
            Err(_) => panic!("tools/call {tool}: no answer within {PATIENCE:?}"),
        }
    }

    /// The structured answer of a call that must succeed.
    pub async fn ok(&self, tool: &str, arguments: Value) -> Value {
        let result = self
            .call(tool, arguments)
            .await
            .unwrap_or_else(|e| panic!("{tool}: {e}"));
        assert_ne!(result.is_error, Some(true), "{tool}: {result:?}");
        result.structured_content.expect("structuredContent")
    }

    /// The error code of a call refused as a tool error.
    pub async fn refused(&self, tool: &str, arguments: Value) -> Value {
        let result = self
            .call(tool, arguments)
            .await
            .unwrap_or_else(|e| panic!("{tool}: {e}"));
        assert_eq!(result.is_error, Some(true), "{tool}: {result:?}");
        result.structured_content.expect("structuredContent")["error"].clone()
    }
}

/// The JSON-RPC error of a protocol-level refusal.
pub fn rpc_error(outcome: Result<CallToolResult, ServiceError>) -> rmcp::model::ErrorData {
    match outcome {
        Err(ServiceError::McpError(error)) => error,
        other => panic!("expected a JSON-RPC error, got {other:?}"),
    }
}
