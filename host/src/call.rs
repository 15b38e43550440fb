//! `lingo call` and `lingo tools`: every MCP tool from the command line,
//! through the same registry, argument checks and text as a client gets,
//! on a workspace root or on a running server over Streamable HTTP.

use std::sync::Arc;

use anyhow::Context;
use serde_json::{Map, Value};

use lingo::budget::Budget;
use lingo::tools::toolsets::set_of;
use lingo::tools::{Answer, ToolContext, ToolRegistry};

/// Exit code: the tool answered.
pub const ANSWERED: i32 = 0;
/// Exit code: the tool refused (its error is printed like an answer).
pub const REFUSED: i32 = 1;
/// Exit code: the tool or its arguments are not valid.
pub const BAD_ARGUMENTS: i32 = 2;
/// Exit code: the server could not be reached.
pub const UNREACHABLE: i32 = 3;

/// The codes of refusals that mean the arguments were wrong.
const ARGUMENT_CODES: &[&str] = &["INVALID_PARAM", "MISSING_REQUIRED_PARAM", "UNKNOWN_PARAM"];

/// The arguments of one call: a JSON object, then `key=value` pairs (a value
/// that parses as JSON is that JSON, else a string) that override it.
pub fn arguments(json: Option<&str>, pairs: &[String]) -> Result<Value, String> {
    let mut arguments = match json {
        None => Map::new(),
        Some(text) => match serde_json::from_str::<Value>(text) {
            Ok(Value::Object(map)) => map,
            Ok(_) => return Err("the arguments must be a JSON object".into()),
            Err(error) => return Err(format!("the arguments are not JSON: {error}")),
        },
    };
    for pair in pairs {
        let Some((key, value)) = pair.split_once('=') else {
            return Err(format!("--arg {pair}: expected key=value"));
        };
        let key = key.trim();
        if key.is_empty() {
            return Err(format!("--arg {pair}: the key is empty"));
        }
        let value =
            serde_json::from_str::<Value>(value).unwrap_or_else(|_| Value::String(value.into()));
        arguments.insert(key.to_string(), value);
    }
    Ok(Value::Object(arguments))
}

/// Run `tool_name` with `arguments` on the workspace `open` opens and
/// print its answer as text (or JSON when the arguments ask for it); the
/// exit code.
pub fn call(
    tool_name: &str,
    arguments: Value,
    open: impl FnOnce() -> anyhow::Result<ToolContext>,
) -> anyhow::Result<i32> {
    let tools = ToolRegistry::new();
    let Some(tool) = tools.find(tool_name) else {
        let suggestions = tools.suggest(tool_name);
        eprintln!(
            "no tool `{tool_name}`{}; `lingo tools` lists them",
            if suggestions.is_empty() {
                String::new()
            } else {
                format!(" (did you mean {}?)", suggestions.join(", "))
            }
        );
        return Ok(BAD_ARGUMENTS);
    };
    let context = open().context("opening the workspace")?;
    let budget = Budget::new(None);
    let called = budget.scope(|| tools.call(tool, &context, &arguments));
    let (answer, code) = match called {
        Ok(answer) => (answer, ANSWERED),
        Err(error) => {
            let code = if ARGUMENT_CODES.contains(&error.code()) {
                BAD_ARGUMENTS
            } else {
                REFUSED
            };
            (Answer::refusal(&error), code)
        }
    };
    let mut text = tool.render(&arguments, &answer);
    if !text.ends_with('\n') {
        text.push('\n');
    }
    print!("{text}");
    std::io::Write::flush(&mut std::io::stdout())?;
    Ok(code)
}

/// Call `tool_name` with `arguments` on the MCP server at `url` (a hosted
/// `lingo serve --http`, with `token` as the bearer token) and print the
/// text content it answers; the exit code.
pub async fn call_remote(
    url: &str,
    token: Option<&str>,
    tool_name: &str,
    arguments: Value,
) -> anyhow::Result<i32> {
    use rmcp::ServiceExt;
    use rmcp::model::{CallToolRequestParams, ClientCapabilities, ClientConfig, Implementation};
    use rmcp::transport::StreamableHttpClientTransport;
    use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;

    let Value::Object(arguments) = arguments else {
        anyhow::bail!("the arguments must be a JSON object");
    };
    let mut config = StreamableHttpClientTransportConfig::with_uri(url.to_string());
    if let Some(token) = token {
        config = config.auth_header(token.to_string());
    }
    let transport = StreamableHttpClientTransport::from_config(config);
    let client = match ClientConfig::new(
        ClientCapabilities::default(),
        Implementation::new("lingo-call", env!("CARGO_PKG_VERSION")),
    )
    .serve(transport)
    .await
    {
        Ok(client) => client,
        Err(error) => {
            eprintln!("{url}: {error}");
            return Ok(UNREACHABLE);
        }
    };
    let params = CallToolRequestParams::new(tool_name.to_string()).with_arguments(arguments);
    let outcome = client.call_tool(params).await;
    let code = match outcome {
        Ok(result) => {
            for content in &result.content {
                if let Some(text) = content.as_text() {
                    println!("{}", text.text.trim_end());
                }
            }
            let refused_code = result
                .structured_content
                .as_ref()
                .and_then(|value| value["error"]["code"].as_str());
            match (result.is_error, refused_code) {
                (Some(true), Some(code)) if ARGUMENT_CODES.contains(&code) => BAD_ARGUMENTS,
                (Some(true), _) => REFUSED,
                _ => ANSWERED,
            }
        }
        Err(rmcp::service::ServiceError::McpError(error)) => {
            // A protocol refusal: no such tool, or one the server does not offer.
            eprintln!("{}", error.message);
            BAD_ARGUMENTS
        }
        Err(error) => {
            eprintln!("{url}: {error}");
            UNREACHABLE
        }
    };
    let _ = client.cancel().await;
    Ok(code)
}

/// `lingo tools`: each tool with its toolset and the first sentence of its
/// description.
pub fn list() -> String {
    let tools = ToolRegistry::new();
    let mut out = String::new();
    for tool in tools.tools() {
        let set = set_of(tool.name).map_or("", |set| set.name());
        let first = tool
            .description
            .split_once(": ")
            .map_or(tool.description, |(head, _)| head);
        let first = first.split(". ").next().unwrap_or(first);
        out.push_str(&format!("{:<28} {:<12} {first}\n", tool.name, set));
    }
    out
}

/// The context of a workspace for one call: opened, indexed once.
pub fn context_of(
    workspace: Arc<lingo::workspace::Workspace>,
    gate: lingo::analyze::GateConfig,
) -> ToolContext {
    workspace.refresh();
    ToolContext {
        workspace,
        tool_names: ToolRegistry::new().names(),
        gate,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_override_the_json_and_parse_as_json_where_they_can() {
        let arguments = arguments(
            Some(r#"{"path": "a.rs", "line": 1}"#),
            &[
                "line=4".into(),
                "symbol=parse".into(),
                "dryRun=false".into(),
            ],
        )
        .unwrap();
        assert_eq!(
            arguments,
            serde_json::json!({ "path": "a.rs", "line": 4, "symbol": "parse", "dryRun": false })
        );
        assert!(super::arguments(Some("[1]"), &[]).is_err());
        assert!(super::arguments(None, &["novalue".into()]).is_err());
        assert!(super::arguments(None, &["=x".into()]).is_err());
    }
}
