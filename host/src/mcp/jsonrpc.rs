//! JSON-RPC 2.0 messages: validation of incoming ones, building replies.

use serde_json::{Value, json};

pub const PARSE_ERROR: i64 = -32700;
pub const INVALID_REQUEST: i64 = -32600;
pub const METHOD_NOT_FOUND: i64 = -32601;
pub const INVALID_PARAMS: i64 = -32602;
pub const INTERNAL_ERROR: i64 = -32603;

/// A protocol-level error reply.
#[derive(Debug, Clone)]
pub struct RpcError {
    pub code: i64,
    pub message: String,
    pub data: Option<Value>,
}

impl RpcError {
    pub fn new(code: i64, message: impl Into<String>) -> Self {
        RpcError {
            code,
            message: message.into(),
            data: None,
        }
    }

    pub fn with_data(mut self, data: Value) -> Self {
        self.data = Some(data);
        self
    }
}

/// An incoming message that passed validation.
#[derive(Debug)]
pub enum Incoming {
    /// A request: a reply is owed, with this id.
    Request {
        id: Value,
        method: String,
        params: Value,
    },
    /// A notification: no reply, even on error.
    Notification { method: String, params: Value },
    /// A reply from the client to a request of ours (none are sent): ignored.
    Response,
}

/// Validate a parsed JSON value as a JSON-RPC 2.0 message. The error carries
/// the id when one could be read.
pub fn classify(value: Value) -> Result<Incoming, (Value, RpcError)> {
    let Value::Object(mut map) = value else {
        let reason = if value.is_array() {
            "batch requests are not supported; send one JSON-RPC message per line"
        } else {
            "a JSON-RPC message must be a JSON object"
        };
        return Err((
            Value::Null,
            RpcError::new(INVALID_REQUEST, format!("Invalid Request: {reason}")),
        ));
    };
    let id = map.remove("id");
    let id_for_error = match &id {
        Some(v @ (Value::String(_) | Value::Number(_))) => v.clone(),
        _ => Value::Null,
    };
    let invalid = |reason: &str| {
        (
            id_for_error.clone(),
            RpcError::new(INVALID_REQUEST, format!("Invalid Request: {reason}")),
        )
    };
    if map.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Err(invalid("`jsonrpc` must be \"2.0\""));
    }
    if let Some(id) = &id
        && !matches!(id, Value::String(_) | Value::Number(_))
    {
        return Err(invalid("`id` must be a string or a number"));
    }
    let method = match map.remove("method") {
        Some(Value::String(method)) => method,
        Some(_) => return Err(invalid("`method` must be a string")),
        None if map.contains_key("result") || map.contains_key("error") => {
            return Ok(Incoming::Response);
        }
        None => return Err(invalid("`method` is missing")),
    };
    let params = map.remove("params").unwrap_or(Value::Null);
    if !matches!(params, Value::Object(_) | Value::Array(_) | Value::Null) {
        return Err(invalid("`params` must be an object or an array"));
    }
    Ok(match id {
        Some(id) => Incoming::Request { id, method, params },
        None => Incoming::Notification { method, params },
    })
}

pub fn success(id: &Value, result: Value) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "result": result })
}

pub fn failure(id: &Value, error: &RpcError) -> Value {
    let mut body = json!({ "code": error.code, "message": error.message });
    if let Some(data) = &error.data {
        body["data"] = data.clone();
    }
    json!({ "jsonrpc": "2.0", "id": id, "error": body })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_and_string_ids_are_requests() {
        for id in [json!(0), json!("abc"), json!(-7)] {
            let message = json!({ "jsonrpc": "2.0", "id": id, "method": "ping" });
            assert!(matches!(classify(message), Ok(Incoming::Request { .. })));
        }
    }

    #[test]
    fn malformed_messages_are_invalid_requests() {
        for message in [
            json!({ "jsonrpc": "1.0", "id": 1, "method": "ping" }),
            json!({ "jsonrpc": "2.0", "id": {"a": 1}, "method": "ping" }),
            json!({ "jsonrpc": "2.0", "id": 1, "method": 5 }),
            json!({ "jsonrpc": "2.0", "id": 1 }),
            json!([{ "jsonrpc": "2.0", "id": 1, "method": "ping" }]),
            json!("ping"),
        ] {
            let (_, error) = classify(message.clone()).expect_err(&message.to_string());
            assert_eq!(error.code, INVALID_REQUEST, "{message}");
        }
    }

    #[test]
    fn notifications_have_no_id() {
        let message = json!({ "jsonrpc": "2.0", "method": "notifications/initialized" });
        assert!(matches!(
            classify(message),
            Ok(Incoming::Notification { .. })
        ));
    }
}
