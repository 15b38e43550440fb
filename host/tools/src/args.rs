//! Reading tool arguments: typed argument groups whose input schema is
//! derived from their types (bounds written once, as schema attributes, and
//! checked from the schema), refusal of unknown fields with "did you mean"
//! suggestions, and of strings too long to be a name, a path or a query
//! before any work.

use std::sync::LazyLock;

use schemars::JsonSchema;
use serde::de::{self, DeserializeOwned, Deserializer, Visitor};
use serde_json::{Map, Value};

use crate::error::ToolError;
use crate::text::{Format, MAX_MAX_TOKENS, MIN_MAX_TOKENS};
use lingo_model::suggest::similar;

/// Longest string argument accepted (a name, a path), in bytes.
pub const MAX_STRING_BYTES: usize = 4096;
/// Longest `query` (a name, part of one, or a regular expression), in bytes.
pub const MAX_QUERY_BYTES: usize = 1024;
/// Longest text in a plan (`newText`, a created file's `text`), in bytes.
pub const MAX_TEXT_BYTES: usize = 8 << 20;
/// Longest unknown field name echoed back in an error, in characters.
const MAX_ECHOED_CHARS: usize = 256;

/// A group of top-level arguments: a flat struct deriving `Deserialize`
/// and `JsonSchema` (doc comments are the fields' descriptions, `#[serde(
/// alias)]` the specs' other spellings, `#[schemars(range(..))]` the bounds).
/// A tool's arguments are one group or a tuple of groups read from the same
/// object, so groups shared by several tools (a target, paging) are written
/// once. Groups do not deny unknown fields themselves: [`ToolArgs::parse`]
/// refuses a field no group of the tool accepts.
pub trait Group: DeserializeOwned + JsonSchema {}

/// A tool's typed arguments: one [`Group`] or a tuple of groups.
pub trait ToolArgs: Sized {
    /// The JSON schema of the arguments (`tools/list`'s `inputSchema`).
    fn schema() -> Value;
    /// Every field name accepted, aliases included.
    fn accepted() -> Vec<&'static str>;
    /// Read the arguments from an object already checked by [`checked_object`].
    fn read(arguments: &Value) -> Result<Self, ToolError>;

    /// Read and check a call's `arguments` against `schema` (the tool's
    /// whole input schema: these arguments and the options every tool
    /// takes, whose names are `shared`).
    fn parse(arguments: &Value, schema: &Value, shared: &[&str]) -> Result<Self, ToolError> {
        let object = checked_object(arguments)?;
        let accepted = Self::accepted();
        let advertised: Vec<&str> = schema["properties"]
            .as_object()
            .map(|p| p.keys().map(String::as_str).collect())
            .unwrap_or_default();
        for key in object.keys() {
            if !accepted.contains(&key.as_str()) && !shared.contains(&key.as_str()) {
                return Err(ToolError::UnknownParam {
                    field: clip(key),
                    allowed: advertised.iter().map(|s| s.to_string()).collect(),
                    suggestions: similar(key, accepted.iter().chain(shared).copied(), 2),
                });
            }
        }
        check_bounds(&object, schema)?;
        // The shared options are read apart ([`SharedArgs::from_call`]):
        // a group that refuses unknown fields must not see them.
        let own = object
            .into_iter()
            .filter(|(key, _)| accepted.contains(&key.as_str()) || !shared.contains(&key.as_str()))
            .collect();
        Self::read(&Value::Object(own))
    }
}

impl<A: Group> ToolArgs for A {
    fn schema() -> Value {
        schema_of::<A>()
    }
    fn accepted() -> Vec<&'static str> {
        field_names::<A>()
    }
    fn read(arguments: &Value) -> Result<Self, ToolError> {
        serde_path_to_error::deserialize(arguments).map_err(refusal)
    }
}

macro_rules! tuple_of_groups {
    ($($group:ident),+) => {
        impl<$($group: Group),+> ToolArgs for ($($group,)+) {
            fn schema() -> Value {
                let mut schema = serde_json::json!({ "type": "object", "properties": {} });
                $(merge(&mut schema, $group::schema());)+
                schema
            }
            fn accepted() -> Vec<&'static str> {
                let mut names = Vec::new();
                $(names.extend($group::accepted());)+
                names
            }
            fn read(arguments: &Value) -> Result<Self, ToolError> {
                Ok(($($group::read(arguments)?,)+))
            }
        }
    };
}
tuple_of_groups!(A, B);
tuple_of_groups!(A, B, C);
tuple_of_groups!(A, B, C, D);

/// The options every tool takes: the project, and how its text is written.
#[derive(Debug, Default, serde::Deserialize, JsonSchema)]
pub struct SharedArgs {
    /// Project id: accepted everywhere (with one project, its root folder's
    /// name), advertised only by a hosted server, where it is required.
    #[serde(rename = "projectId")]
    #[schemars(skip)]
    pub project_id: Option<String>,
    /// `json`: the JSON answer instead of compact text
    pub format: Option<Format>,
    /// Text budget in tokens (default 2000)
    #[schemars(range(min = MIN_MAX_TOKENS, max = MAX_MAX_TOKENS))]
    pub max_tokens: Option<u32>,
}

impl Group for SharedArgs {}

impl SharedArgs {
    /// The field names of the shared options.
    pub fn names() -> Vec<&'static str> {
        field_names::<SharedArgs>()
    }

    /// The shared options of a call's `arguments` (its other fields are
    /// the tool's, checked by the tool).
    pub fn from_call(arguments: &Value) -> Result<SharedArgs, ToolError> {
        // Derived once: every call reads them.
        static NAMES: LazyLock<Vec<&'static str>> = LazyLock::new(SharedArgs::names);
        static SCHEMA: LazyLock<Value> = LazyLock::new(SharedArgs::schema);
        let object: Map<String, Value> = checked_object(arguments)?
            .into_iter()
            .filter(|(key, _)| NAMES.contains(&key.as_str()))
            .collect();
        check_bounds(&object, &SCHEMA)?;
        Self::read(&Value::Object(object))
    }
}

/// `arguments` as an object without its null fields (null is absent), its
/// strings checked against their length limits.
pub fn checked_object(arguments: &Value) -> Result<Map<String, Value>, ToolError> {
    let object = match arguments {
        Value::Object(map) => map
            .iter()
            .filter(|(_, value)| !value.is_null())
            .map(|(key, value)| (key.clone(), value.clone()))
            .collect(),
        Value::Null => Map::new(),
        _ => {
            return Err(ToolError::invalid(
                "arguments",
                "the arguments must be a JSON object",
            ));
        }
    };
    check_lengths(&object)?;
    Ok(object)
}

/// The input schema of `T`: subschemas inlined, and without what costs a
/// model tokens and tells it nothing (`$schema`, titles, integer formats,
/// `null` as a type of optional fields).
pub fn schema_of<T: JsonSchema>() -> Value {
    let mut generator = schemars::generate::SchemaSettings::draft2020_12()
        .with(|settings| settings.inline_subschemas = true)
        .into_generator();
    let mut schema = generator.root_schema_for::<T>().to_value();
    if let Value::Object(map) = &mut schema {
        map.remove("$schema");
        map.remove("description");
    }
    tidy(&mut schema);
    schema
}

/// Remove titles, formats and `null` types from a derived schema.
fn tidy(schema: &mut Value) {
    match schema {
        Value::Object(map) => {
            map.remove("title");
            if map.get("format").is_some_and(Value::is_string) {
                map.remove("format");
            }
            if let Some(Value::Array(types)) = map.get_mut("type") {
                types.retain(|t| t != "null");
                if types.len() == 1 {
                    let only = types.remove(0);
                    map.insert("type".into(), only);
                }
            }
            if let Some(Value::Array(values)) = map.get_mut("enum") {
                values.retain(|v| !v.is_null());
            }
            for (key, value) in map.iter_mut() {
                // A property named like a keyword is a name, not a keyword.
                if key == "properties" {
                    if let Value::Object(properties) = value {
                        properties.values_mut().for_each(tidy);
                    }
                } else {
                    tidy(value);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(tidy),
        _ => {}
    }
}

/// What `tools/list` shows of an input schema: the fields marked
/// `x-unlisted` (the specs' other shapes of listed arguments, accepted and
/// checked against the whole schema) left out, an object left without
/// properties by that left out too, and no `additionalProperties` below the
/// top level (nested objects refuse unknown fields all the same).
pub fn listed(schema: &Value) -> Value {
    let mut schema = schema.clone();
    prune(&mut schema, true);
    schema
}

fn prune(schema: &mut Value, top: bool) {
    let Value::Object(map) = schema else {
        return;
    };
    if !top {
        map.remove("additionalProperties");
    }
    if let Some(Value::Object(properties)) = map.get_mut("properties") {
        properties.retain(|_, property| property[UNLISTED] != Value::Bool(true));
        for property in properties.values_mut() {
            prune(property, false);
        }
        properties.retain(|_, property| {
            !(property["type"] == "object"
                && property["properties"]
                    .as_object()
                    .is_some_and(|p| p.is_empty()))
        });
    }
    for key in ["items", "anyOf", "oneOf"] {
        match map.get_mut(key) {
            Some(Value::Array(items)) => items.iter_mut().for_each(|item| prune(item, false)),
            Some(item @ Value::Object(_)) => prune(item, false),
            _ => {}
        }
    }
}

/// The schema keyword marking a field accepted but not listed.
const UNLISTED: &str = "x-unlisted";

/// Add `part`'s properties and required fields to `schema`.
pub fn merge(schema: &mut Value, part: Value) {
    if let (Some(properties), Some(more)) = (
        schema["properties"].as_object_mut(),
        part["properties"].as_object(),
    ) {
        properties.extend(more.iter().map(|(k, v)| (k.clone(), v.clone())));
    }
    if let Some(more) = part["required"].as_array().filter(|r| !r.is_empty()) {
        match schema["required"].as_array_mut() {
            Some(required) => required.extend(more.iter().cloned()),
            None => schema["required"] = Value::Array(more.clone()),
        }
    }
}

/// The field names `T`'s `Deserialize` accepts, aliases included (what
/// serde's derive passes to `deserialize_struct`).
fn field_names<T: DeserializeOwned>() -> Vec<&'static str> {
    let mut names = Vec::new();
    // The probe always refuses: only the names it saw matter.
    let _ = T::deserialize(FieldNameProbe(&mut names));
    names
}

/// A deserializer that records a struct's field names and refuses the rest.
struct FieldNameProbe<'a>(&'a mut Vec<&'static str>);

impl<'de> Deserializer<'de> for FieldNameProbe<'_> {
    type Error = de::value::Error;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
        Err(de::Error::custom("not a struct"))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        fields: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Self::Error> {
        self.0.extend_from_slice(fields);
        Err(de::Error::custom("field names recorded"))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map enum identifier ignored_any
    }
}

/// A deserialization error as the tool error naming its field (an array's
/// item by the array, as the length check names it).
fn refusal(error: serde_path_to_error::Error<serde_json::Error>) -> ToolError {
    let path = without_indices(&error.path().to_string());
    let message = error.inner().to_string();
    if let Some(field) = message
        .strip_prefix("missing field `")
        .and_then(|rest| rest.strip_suffix('`'))
    {
        let field = if path == "." {
            field.to_string()
        } else {
            format!("{path}.{field}")
        };
        return ToolError::MissingParam { field };
    }
    let field = if path == "." {
        "arguments".to_string()
    } else {
        clip(&path)
    };
    ToolError::InvalidParam {
        field,
        reason: clip(&message),
        suggestions: Vec::new(),
    }
}

/// `path` without its `[n]` segments.
fn without_indices(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    let mut in_index = false;
    for c in path.chars() {
        match c {
            '[' => in_index = true,
            ']' if in_index => in_index = false,
            _ if in_index => {}
            _ => out.push(c),
        }
    }
    out
}

/// Refuse the first number outside its schema's `minimum`/`maximum`, the
/// first string shorter than its `minLength` and the first array with
/// fewer than `minItems` or more than `maxItems` items, at any depth the schema
/// describes (so the walk is bounded by the schema, not the input).
fn check_bounds(object: &Map<String, Value>, schema: &Value) -> Result<(), ToolError> {
    for (key, value) in object {
        check_value(value, &schema["properties"][key.as_str()], key)?;
    }
    Ok(())
}

fn check_value(value: &Value, schema: &Value, path: &str) -> Result<(), ToolError> {
    match value {
        Value::Number(number) => {
            let Some(n) = number.as_f64() else {
                return Ok(());
            };
            if let Some(min) = schema["minimum"].as_f64()
                && n < min
            {
                return Err(ToolError::invalid(
                    path,
                    format!("{number} is below the minimum {}", schema["minimum"]),
                ));
            }
            if let Some(max) = schema["maximum"].as_f64()
                && n > max
            {
                return Err(ToolError::invalid(
                    path,
                    format!("{number} is larger than the maximum {}", schema["maximum"]),
                ));
            }
        }
        Value::String(text) => {
            if let Some(min) = schema["minLength"].as_u64()
                && (text.chars().count() as u64) < min
            {
                return Err(ToolError::invalid(
                    path,
                    format!("must be at least {min} character(s) long"),
                ));
            }
        }
        Value::Array(items) => {
            let count = items.len() as u64;
            if let Some(min) = schema["minItems"].as_u64()
                && count < min
            {
                return Err(ToolError::invalid(
                    path,
                    format!("{count} item(s) is fewer than the minimum {min}"),
                ));
            }
            if let Some(max) = schema["maxItems"].as_u64()
                && count > max
            {
                return Err(ToolError::invalid(
                    path,
                    format!("{count} items is more than the maximum {max}"),
                ));
            }
            if schema["items"].is_object() {
                for item in items {
                    check_value(item, &schema["items"], path)?;
                }
            }
        }
        Value::Object(fields) if schema["properties"].is_object() => {
            for (key, field) in fields {
                let nested = &schema["properties"][key.as_str()];
                if !nested.is_null() {
                    check_value(field, nested, &format!("{path}.{}", clip(key)))?;
                }
            }
        }
        _ => {}
    }
    Ok(())
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

    fn refusal(arguments: Value) -> (String, String) {
        match checked_object(&arguments) {
            Err(ToolError::InvalidParam { field, reason, .. }) => (field, reason),
            Err(other) => panic!("expected INVALID_PARAM, got {other}"),
            Ok(_) => panic!("expected INVALID_PARAM, got success"),
        }
    }

    /// A group shaped like the tools' own: an alias, a bound, a nested object.
    #[derive(Debug, serde::Deserialize, JsonSchema)]
    struct Sample {
        /// The new name
        #[serde(alias = "newName")]
        new_name: String,
        #[schemars(range(min = 1, max = 50))]
        limit: Option<u32>,
        nested: Option<Nested>,
        items: Option<Vec<u32>>,
    }

    #[derive(Debug, serde::Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields)]
    struct Nested {
        #[serde(rename = "dryRun")]
        dry_run: Option<bool>,
    }

    impl Group for Sample {}
    impl Group for Nested {}

    fn typed(arguments: Value) -> Result<Sample, ToolError> {
        let mut schema = Sample::schema();
        merge(&mut schema, SharedArgs::schema());
        Sample::parse(&arguments, &schema, &SharedArgs::names())
    }

    fn field_of(error: ToolError) -> (String, String) {
        let json = error.to_json();
        (
            json["error"]["code"]
                .as_str()
                .unwrap_or_default()
                .to_string(),
            json["error"]["details"]["field"]
                .as_str()
                .unwrap_or_default()
                .to_string(),
        )
    }

    #[test]
    fn typed_arguments_take_aliases_and_shared_options_and_null_as_absent() {
        let sample =
            typed(json!({ "newName": "b", "format": "json", "limit": null })).expect("accepted");
        assert_eq!(sample.new_name, "b");
        assert_eq!(sample.limit, None);
        let sample =
            typed(json!({ "new_name": "c", "nested": { "dryRun": false } })).expect("accepted");
        assert_eq!(sample.nested.and_then(|n| n.dry_run), Some(false));
        let sample = typed(json!({ "new_name": "d", "items": [1, 2] })).expect("accepted");
        assert_eq!(sample.items, Some(vec![1, 2]));
        // A group refusing unknown fields takes the shared options too.
        let mut schema = Nested::schema();
        merge(&mut schema, SharedArgs::schema());
        let arguments = json!({ "dryRun": true, "format": "json", "max_tokens": 500 });
        let nested = Nested::parse(&arguments, &schema, &SharedArgs::names()).expect("accepted");
        assert_eq!(nested.dry_run, Some(true));
    }

    #[test]
    fn typed_arguments_are_refused_naming_the_field() {
        for (arguments, code, field) in [
            (json!({ "new_nme": "x" }), "UNKNOWN_PARAM", "new_nme"),
            (json!({}), "MISSING_REQUIRED_PARAM", "new_name"),
            (json!({ "new_name": 3 }), "INVALID_PARAM", "new_name"),
            (
                json!({ "new_name": "x", "limit": 0 }),
                "INVALID_PARAM",
                "limit",
            ),
            (
                json!({ "new_name": "x", "limit": 51 }),
                "INVALID_PARAM",
                "limit",
            ),
            (
                json!({ "new_name": "x", "limit": -1 }),
                "INVALID_PARAM",
                "limit",
            ),
            (
                json!({ "new_name": "x", "limit": 1e300 }),
                "INVALID_PARAM",
                "limit",
            ),
            (
                json!({ "new_name": "x", "nested": { "dryRun": 1 } }),
                "INVALID_PARAM",
                "nested.dryRun",
            ),
            (
                json!({ "new_name": "x", "nested": { "dry": true } }),
                "INVALID_PARAM",
                "nested.dry",
            ),
            (json!([1]), "INVALID_PARAM", "arguments"),
            (
                json!({ "new_name": "x", "items": [1, "a"] }),
                "INVALID_PARAM",
                "items",
            ),
        ] {
            let refused = typed(arguments.clone()).expect_err("refused");
            assert_eq!(
                field_of(refused),
                (code.to_string(), field.to_string()),
                "{arguments}"
            );
        }
        match typed(json!({ "new_nme": "x" })) {
            Err(ToolError::UnknownParam {
                suggestions,
                allowed,
                ..
            }) => {
                assert!(
                    suggestions.contains(&"new_name".to_string()),
                    "{suggestions:?}"
                );
                // The schema's names are offered, not the aliases.
                assert!(allowed.contains(&"new_name".to_string()), "{allowed:?}");
                assert!(!allowed.contains(&"newName".to_string()), "{allowed:?}");
            }
            other => panic!("expected UNKNOWN_PARAM, got {other:?}"),
        }
    }

    #[test]
    fn the_shared_options_say_their_default() {
        let schema = SharedArgs::schema();
        let budget = schema["properties"]["max_tokens"]["description"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        assert!(
            budget.contains(&format!("default {}", crate::text::DEFAULT_MAX_TOKENS)),
            "{budget}"
        );
    }

    #[test]
    fn derived_schemas_carry_descriptions_and_bounds_without_noise() {
        let schema = Sample::schema();
        assert_eq!(
            schema["properties"]["new_name"]["description"],
            "The new name"
        );
        assert_eq!(schema["properties"]["limit"]["maximum"], 50);
        assert_eq!(schema["properties"]["limit"]["type"], "integer");
        assert_eq!(schema["required"], json!(["new_name"]));
        let text = schema.to_string();
        for noise in ["$schema", "title", "uint32", "null"] {
            assert!(!text.contains(noise), "{noise} in {text}");
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
        assert!(checked_object(&arguments).is_ok());
    }

    #[test]
    fn long_unknown_fields_are_echoed_clipped() {
        let key = "k".repeat(100_000);
        let arguments = json!({ key: 1, "new_name": "a" });
        match typed(arguments) {
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
