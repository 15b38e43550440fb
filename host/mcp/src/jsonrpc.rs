//! JSON-RPC 2.0 messages: validation of incoming ones, building replies.
//!
//! Request ids are kept as the exact JSON text the client sent
//! ([`serde_json::value::RawValue`]) and written back verbatim, so an id
//! such as `18446744073709551617` or `1.50` round-trips byte for byte. The
//! alternative, serde_json's `arbitrary_precision` feature, would change
//! every `Value::Number` of the build (and, through feature unification,
//! of every crate sharing serde_json with the host, the MCP client of the
//! end-to-end tests included, whose untagged number enums it breaks); raw
//! ids touch nothing but this module.

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Value, json};

pub const PARSE_ERROR: i64 = -32700;
pub const INVALID_REQUEST: i64 = -32600;
pub const METHOD_NOT_FOUND: i64 = -32601;
pub const INVALID_PARAMS: i64 = -32602;
pub const INTERNAL_ERROR: i64 = -32603;
/// Implementation-defined server error: too many requests in flight.
pub const SERVER_BUSY: i64 = -32000;
/// Implementation-defined server error: over a token's or a project's
/// request rate (mcp-wire-protocol.md's "Rate limit exceeded").
pub const RATE_LIMITED: i64 = -32003;
/// MCP: the resource asked for does not exist (revisions before 2026-07-28).
pub const RESOURCE_NOT_FOUND: i64 = -32002;

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

/// A request id exactly as the client wrote it: the JSON text of a string
/// or a number (or `null` when no usable id could be read).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Id {
    raw: Box<str>,
}

impl Id {
    /// The `null` id of replies to messages whose id could not be read.
    pub fn null() -> Id {
        Id { raw: "null".into() }
    }

    /// The id of a parsed value (exact for strings and 64-bit integers).
    pub fn from_value(value: &Value) -> Id {
        match value {
            Value::String(_) | Value::Number(_) => Id {
                raw: value.to_string().into(),
            },
            _ => Id::null(),
        }
    }

    /// An id from the raw JSON text of a string or a number.
    fn from_raw(raw: &RawValue) -> Option<Id> {
        let text = raw.get();
        match text.as_bytes().first() {
            Some(b'"' | b'-' | b'0'..=b'9') => Some(Id { raw: text.into() }),
            _ => None,
        }
    }

    /// The JSON text, as sent.
    pub fn as_raw(&self) -> &str {
        &self.raw
    }

    /// The id as a parsed value (may lose precision; for logs and tests).
    pub fn to_value(&self) -> Value {
        serde_json::from_str(&self.raw).unwrap_or(Value::Null)
    }

    /// What identifies the request for cancellation: strings by value
    /// (escapes decoded), numbers by their text.
    pub fn key(&self) -> String {
        match serde_json::from_str::<String>(&self.raw) {
            Ok(text) => format!("s:{text}"),
            Err(_) => format!("n:{}", self.raw),
        }
    }
}

/// An incoming message that passed validation.
#[derive(Debug)]
pub enum Incoming {
    /// A request: a reply is owed, with this id.
    Request {
        id: Id,
        method: String,
        params: Value,
    },
    /// A notification: no reply, even on error.
    Notification {
        method: String,
        params: Value,
        /// `params.requestId`, as sent, when there is one (cancellation).
        request_id: Option<Id>,
    },
    /// A reply from the client to a request of ours (none are sent): ignored.
    Response,
}

/// The raw id and parameters of a message, read without converting numbers.
#[derive(Deserialize)]
struct Envelope<'a> {
    #[serde(borrow, default)]
    id: Option<&'a RawValue>,
    #[serde(borrow, default)]
    params: Option<&'a RawValue>,
}

/// The raw `requestId` of a notification's parameters.
#[derive(Deserialize)]
struct RequestIdParam<'a> {
    #[serde(borrow, default, rename = "requestId")]
    request_id: Option<&'a RawValue>,
}

/// Parse and validate one line. The error carries the id when one could be
/// read.
pub fn parse(line: &[u8]) -> Result<Incoming, (Id, RpcError)> {
    let value: Value = serde_json::from_slice(line).map_err(|e| {
        (
            Id::null(),
            RpcError::new(PARSE_ERROR, format!("Parse error: {e}")),
        )
    })?;
    // Duplicate keys (which `Value` tolerates, keeping the last) make the
    // envelope fail; the parsed value's id is used then.
    let envelope = match &value {
        Value::Object(_) => serde_json::from_slice::<Envelope>(line).ok(),
        _ => None,
    };
    let raw_id = envelope.as_ref().and_then(|e| e.id).and_then(Id::from_raw);
    let raw_request_id = envelope
        .as_ref()
        .and_then(|e| e.params)
        .and_then(|p| serde_json::from_str::<RequestIdParam>(p.get()).ok())
        .and_then(|p| p.request_id)
        .and_then(Id::from_raw);
    classify_with(value, raw_id, raw_request_id)
}

/// Validate a parsed JSON value as a JSON-RPC 2.0 message (ids as parsed).
pub fn classify(value: Value) -> Result<Incoming, (Id, RpcError)> {
    classify_with(value, None, None)
}

/// [`classify`], with the ids' raw text when it was read.
fn classify_with(
    value: Value,
    raw_id: Option<Id>,
    raw_request_id: Option<Id>,
) -> Result<Incoming, (Id, RpcError)> {
    let Value::Object(mut map) = value else {
        let reason = if value.is_array() {
            "batch requests are not supported; send one JSON-RPC message per line"
        } else {
            "a JSON-RPC message must be a JSON object"
        };
        return Err((
            Id::null(),
            RpcError::new(INVALID_REQUEST, format!("Invalid Request: {reason}")),
        ));
    };
    let id = map.remove("id");
    let id_for_error = match &id {
        Some(v @ (Value::String(_) | Value::Number(_))) => {
            raw_id.clone().unwrap_or_else(|| Id::from_value(v))
        }
        _ => Id::null(),
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
        Some(_) => Incoming::Request {
            id: id_for_error,
            method,
            params,
        },
        None => {
            let request_id = match params.get("requestId") {
                Some(v @ (Value::String(_) | Value::Number(_))) => {
                    Some(raw_request_id.unwrap_or_else(|| Id::from_value(v)))
                }
                _ => None,
            };
            Incoming::Notification {
                method,
                params,
                request_id,
            }
        }
    })
}

/// The line (without newline) of a reply to `id`.
pub fn reply(id: &Id, outcome: &Result<Value, RpcError>) -> Vec<u8> {
    match outcome {
        Ok(result) => encode(id, "result", result),
        Err(error) => encode(id, "error", &error_body(error)),
    }
}

/// A success reply line.
pub fn success(id: &Id, result: Value) -> Vec<u8> {
    encode(id, "result", &result)
}

/// An error reply line.
pub fn failure(id: &Id, error: &RpcError) -> Vec<u8> {
    encode(id, "error", &error_body(error))
}

/// The `error` member of a reply.
fn error_body(error: &RpcError) -> Value {
    let mut body = json!({ "code": error.code, "message": error.message });
    if let Some(data) = &error.data {
        body["data"] = data.clone();
    }
    body
}

/// `{"jsonrpc":"2.0","id":<id as sent>,"<member>":<value>}`.
fn encode(id: &Id, member: &str, value: &Value) -> Vec<u8> {
    // Writing a `Value` into a `Vec` cannot fail (its keys are strings).
    encode_with(id, member, |line| {
        let _ = serde_json::to_writer(line, value);
    })
}

/// A success reply line whose result `write` appends.
pub fn success_with(id: &Id, write: impl FnOnce(&mut Vec<u8>)) -> Vec<u8> {
    encode_with(id, "result", write)
}

/// `{"jsonrpc":"2.0","id":<id as sent>,"<member>":<what write appends>}`.
fn encode_with(id: &Id, member: &str, write: impl FnOnce(&mut Vec<u8>)) -> Vec<u8> {
    let mut line = Vec::with_capacity(64);
    line.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"id\":");
    line.extend_from_slice(id.as_raw().as_bytes());
    line.extend_from_slice(b",\"");
    line.extend_from_slice(member.as_bytes());
    line.extend_from_slice(b"\":");
    write(&mut line);
    line.push(b'}');
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_value(message: &Value) -> Result<Incoming, (Id, RpcError)> {
        parse(message.to_string().as_bytes())
    }

    #[test]
    fn zero_and_string_ids_are_requests() {
        for id in [json!(0), json!("abc"), json!(-7)] {
            let message = json!({ "jsonrpc": "2.0", "id": id, "method": "ping" });
            assert!(matches!(
                parse_value(&message),
                Ok(Incoming::Request { .. })
            ));
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
            let (_, error) = parse_value(&message).expect_err(&message.to_string());
            assert_eq!(error.code, INVALID_REQUEST, "{message}");
        }
    }

    #[test]
    fn notifications_have_no_id() {
        let message = json!({ "jsonrpc": "2.0", "method": "notifications/initialized" });
        assert!(matches!(
            parse_value(&message),
            Ok(Incoming::Notification { .. })
        ));
    }

    #[test]
    fn ids_are_echoed_byte_exact() {
        for id in [
            "18446744073709551617",
            "-123456789012345678901234567890",
            "1.50",
            "1e300",
            "\"\\u00e9t\\u00E9\"",
            "0",
        ] {
            let line = format!(r#"{{"jsonrpc":"2.0","id": {id} ,"method":"ping"}}"#);
            let Ok(Incoming::Request { id: parsed, .. }) = parse(line.as_bytes()) else {
                panic!("{line} is a request");
            };
            let reply = String::from_utf8(success(&parsed, json!({}))).unwrap();
            assert_eq!(
                reply,
                format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{}}}}"#)
            );
        }
        let line = br#"{"jsonrpc":"2.0","id":18446744073709551617,"method":5}"#;
        let (id, _) = parse(line).expect_err("method is not a string");
        assert_eq!(id.as_raw(), "18446744073709551617");
    }

    #[test]
    fn cancellation_names_the_request_as_sent() {
        let line = br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":18446744073709551617}}"#;
        let Ok(Incoming::Notification { request_id, .. }) = parse(line) else {
            panic!("a notification");
        };
        let request = br#"{"jsonrpc":"2.0","id":18446744073709551617,"method":"tools/call"}"#;
        let Ok(Incoming::Request { id, .. }) = parse(request) else {
            panic!("a request");
        };
        assert_eq!(request_id.map(|r| r.key()), Some(id.key()));
        // Strings match by value, whatever their escapes.
        assert_eq!(
            Id::from_value(&json!("é")).key(),
            Id {
                raw: "\"\\u00e9\"".into()
            }
            .key()
        );
        assert_ne!(
            Id::from_value(&json!("1")).key(),
            Id::from_value(&json!(1)).key()
        );
    }

    #[test]
    fn duplicate_keys_fall_back_to_the_parsed_id() {
        let line = br#"{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}"#;
        let Ok(Incoming::Request { id, .. }) = parse(line) else {
            panic!("a request");
        };
        assert_eq!(id.as_raw(), "2");
    }
}
