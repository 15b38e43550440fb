//! Reading tool arguments: required and optional fields with typed errors,
//! refusal of unknown fields with "did you mean" suggestions, and of
//! strings too long to be a name, a path or a query before any work.

use serde_json::{Map, Value};

use crate::error::ToolError;
use lingo_model::suggest::similar;

/// Longest string argument accepted (a name, a path), in bytes.
pub const MAX_STRING_BYTES: usize = 4096;
/// Longest `query` (a name, part of one, or a regular expression), in bytes.
pub const MAX_QUERY_BYTES: usize = 1024;
/// Longest text in a plan (`newText`, a created file's `text`), in bytes.
pub const MAX_TEXT_BYTES: usize = 8 << 20;
/// Longest unknown field name echoed back in an error, in characters.
const MAX_ECHOED_CHARS: usize = 256;

/// The arguments object of one call, checked against the tool's schema.
pub struct Args<'a> {
    map: &'a Map<String, Value>,
}

impl<'a> Args<'a> {
    /// Check that every field is one the schema declares.
    pub fn new(value: &'a Value, schema: &Value) -> Result<Self, ToolError> {
        static EMPTY: std::sync::OnceLock<Map<String, Value>> = std::sync::OnceLock::new();
        let map = match value {
            Value::Object(map) => map,
            Value::Null => EMPTY.get_or_init(Map::new),
            _ => {
                return Err(ToolError::invalid(
                    "arguments",
                    "the arguments must be a JSON object",
                ));
            }
        };
        let allowed: Vec<&str> = schema["properties"]
            .as_object()
            .map(|p| p.keys().map(String::as_str).collect())
            .unwrap_or_default();
        for key in map.keys() {
            if !allowed.contains(&key.as_str()) {
                return Err(ToolError::UnknownParam {
                    field: clip(key),
                    allowed: allowed.iter().map(|s| s.to_string()).collect(),
                    suggestions: similar(key, allowed.iter().copied(), 2),
                });
            }
        }
        check_lengths(map)?;
        for required in schema["required"].as_array().into_iter().flatten() {
            let field = required.as_str().unwrap_or_default();
            if map.get(field).is_none_or(Value::is_null) {
                return Err(ToolError::MissingParam {
                    field: field.to_string(),
                });
            }
        }
        Ok(Args { map })
    }

    /// A field's value, `None` when absent or null.
    fn get(&self, field: &str) -> Option<&'a Value> {
        self.map.get(field).filter(|v| !v.is_null())
    }

    /// A field's raw value, for nested objects.
    pub fn value(&self, field: &str) -> Option<&'a Value> {
        self.get(field)
    }

    pub fn str(&self, field: &str) -> Result<Option<&'a str>, ToolError> {
        match self.get(field) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(_) => Err(ToolError::invalid(field, "expected a string")),
        }
    }

    pub fn required_str(&self, field: &str) -> Result<&'a str, ToolError> {
        self.str(field)?.ok_or_else(|| ToolError::MissingParam {
            field: field.to_string(),
        })
    }

    pub fn bool(&self, field: &str, default: bool) -> Result<bool, ToolError> {
        match self.get(field) {
            None => Ok(default),
            Some(Value::Bool(b)) => Ok(*b),
            Some(_) => Err(ToolError::invalid(field, "expected true or false")),
        }
    }

    /// A non-negative integer no larger than `max`.
    pub fn uint(&self, field: &str, max: u64) -> Result<Option<u64>, ToolError> {
        match self.get(field) {
            None => Ok(None),
            Some(v) => match v.as_u64() {
                Some(n) if n <= max => Ok(Some(n)),
                Some(n) => Err(ToolError::invalid(
                    field,
                    format!("{n} is larger than the maximum {max}"),
                )),
                None => Err(ToolError::invalid(field, "expected a non-negative integer")),
            },
        }
    }

    /// A page size: at least 1, at most `max`, `default` when absent.
    pub fn limit(&self, field: &str, default: u64, max: u64) -> Result<usize, ToolError> {
        match self.uint(field, max)? {
            Some(0) => Err(ToolError::invalid(field, "must be at least 1")),
            Some(n) => Ok(n as usize),
            None => Ok(default as usize),
        }
    }

    pub fn str_list(&self, field: &str) -> Result<Vec<&'a str>, ToolError> {
        match self.get(field) {
            None => Ok(Vec::new()),
            Some(Value::Array(items)) => items
                .iter()
                .map(|i| {
                    i.as_str()
                        .ok_or_else(|| ToolError::invalid(field, "expected an array of strings"))
                })
                .collect(),
            Some(_) => Err(ToolError::invalid(field, "expected an array of strings")),
        }
    }
}

/// The longest string `field` may hold, in bytes.
pub fn max_bytes(field: &str) -> usize {
    match field {
        "query" => MAX_QUERY_BYTES,
        "newText" | "text" => MAX_TEXT_BYTES,
        _ => MAX_STRING_BYTES,
    }
}

/// Refuse the first string, at any depth, longer than its field allows
/// (the field named by its path, `from.symbol`; array items by the array).
fn check_lengths(map: &Map<String, Value>) -> Result<(), ToolError> {
    let mut stack: Vec<(String, &str, &Value)> = map
        .iter()
        .map(|(key, value)| (key.clone(), key.as_str(), value))
        .collect();
    while let Some((path, key, value)) = stack.pop() {
        match value {
            Value::String(text) => {
                let limit = max_bytes(key);
                if text.len() > limit {
                    return Err(too_long(&path, text.len(), limit));
                }
            }
            Value::Array(items) => {
                stack.extend(items.iter().map(|item| (path.clone(), key, item)));
            }
            Value::Object(fields) => stack.extend(
                fields
                    .iter()
                    .map(|(k, v)| (format!("{path}.{}", clip(k)), k.as_str(), v)),
            ),
            _ => {}
        }
    }
    Ok(())
}

/// INVALID_PARAM for a string of `len` bytes over `limit`.
fn too_long(field: &str, len: usize, limit: usize) -> ToolError {
    ToolError::InvalidParam {
        field: field.to_string(),
        reason: format!("{len} bytes is longer than the {limit}-byte limit"),
        suggestions: vec![format!("Shorten `{field}` to at most {limit} bytes")],
    }
}

/// At most [`MAX_ECHOED_CHARS`] characters of a client-supplied name.
fn clip(text: &str) -> String {
    match text.char_indices().nth(MAX_ECHOED_CHARS) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use serde_json::json;

    use super::*;

    fn schema() -> Value {
        json!({
            "properties": {
                "symbol": {}, "path": {}, "query": {}, "kinds": {}, "from": {}
            },
            "required": ["symbol"]
        })
    }

    fn refusal(arguments: Value) -> (String, String) {
        match Args::new(&arguments, &schema()) {
            Err(ToolError::InvalidParam { field, reason, .. }) => (field, reason),
            Err(other) => panic!("expected INVALID_PARAM, got {other}"),
            Ok(_) => panic!("expected INVALID_PARAM, got success"),
        }
    }

    #[test]
    fn strings_over_the_limit_are_refused_naming_field_and_limit() {
        let long = "x".repeat(MAX_STRING_BYTES + 1);
        let (field, reason) = refusal(json!({ "symbol": long }));
        assert_eq!(field, "symbol");
        assert!(reason.contains("4096-byte limit"), "{reason}");

        let query = "q".repeat(MAX_QUERY_BYTES + 1);
        let (field, reason) = refusal(json!({ "symbol": "a", "query": query }));
        assert_eq!(field, "query");
        assert!(reason.contains("1024-byte limit"), "{reason}");

        let (field, _) = refusal(json!({ "symbol": "a", "kinds": ["fn", long] }));
        assert_eq!(field, "kinds");
        let (field, _) = refusal(json!({ "symbol": "a", "from": { "symbol": long } }));
        assert_eq!(field, "from.symbol");
    }

    #[test]
    fn strings_at_the_limit_are_accepted() {
        let arguments = json!({
            "symbol": "s".repeat(MAX_STRING_BYTES),
            "query": "q".repeat(MAX_QUERY_BYTES),
            "path": "é".repeat(MAX_STRING_BYTES / 2),
        });
        assert!(Args::new(&arguments, &schema()).is_ok());
    }

    #[test]
    fn long_unknown_fields_are_echoed_clipped() {
        let key = "k".repeat(100_000);
        let arguments = json!({ key: 1, "symbol": "a" });
        match Args::new(&arguments, &schema()) {
            Err(ToolError::UnknownParam { field, .. }) => {
                assert!(
                    field.chars().count() <= MAX_ECHOED_CHARS + 1,
                    "{}",
                    field.len()
                );
            }
            _ => panic!("expected UNKNOWN_PARAM"),
        }
    }

    #[test]
    fn suggestions_are_bounded_for_huge_names_and_candidate_sets() {
        let names: Vec<String> = (0..1_000_000).map(|i| format!("symbol_{i}")).collect();
        let wanted = "symbol_12".repeat(11_112);
        let start = Instant::now();
        let found = similar(&wanted, names.iter().map(String::as_str), 5);
        let took = start.elapsed();
        // Unbounded, this took minutes; the margin is for a loaded machine.
        assert!(took < Duration::from_millis(500), "similar took {took:?}");
        assert!(found.len() <= 5);
        // Still useful on ordinary input.
        let found = similar("symbl_12", names.iter().map(String::as_str), 5);
        assert!(found.iter().any(|f| f == "symbol_12"), "{found:?}");
    }
}
