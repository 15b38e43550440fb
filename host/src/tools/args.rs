//! Reading tool arguments: required and optional fields with typed errors,
//! and refusal of unknown fields with "did you mean" suggestions.

use serde_json::{Map, Value};

use crate::error::{ToolError, similar};

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
                    field: key.clone(),
                    allowed: allowed.iter().map(|s| s.to_string()).collect(),
                    suggestions: similar(key, allowed.iter().copied(), 2),
                });
            }
        }
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
