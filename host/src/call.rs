//! `lingo call` and `lingo tools`: every MCP tool from the command line,
//! through the same registry, argument checks and text as a client gets.

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
            let code = match error.code() {
                "INVALID_PARAM" | "MISSING_REQUIRED_PARAM" | "UNKNOWN_PARAM" => BAD_ARGUMENTS,
                _ => REFUSED,
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
