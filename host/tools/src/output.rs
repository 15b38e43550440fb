//! The tools' output schemas (MCP `outputSchema`): what `structuredContent`
//! holds, as JSON Schema, derived from each tool's answer type (the
//! refactoring tools' plans, types of `lingo-refactor`, are still written
//! here by hand). Each names the fields a program may rely on and their
//! types; answers may carry more (notes about the index). A refusal's
//! `{"success": false, "error": ..}` is allowed by every schema, since MCP
//! clients validate the structured content of errors too.

use schemars::JsonSchema;
use schemars::generate::SchemaSettings;
use serde_json::{Map, Value, json};

/// The schema of a tool whose answer is `answer`, or a refusal. The
/// definitions a derived schema refers to (recursive types) move to the
/// root, where `#/$defs/..` points.
pub fn answer_or_refusal(mut answer: Value) -> Value {
    let defs = answer.as_object_mut().and_then(|a| a.remove("$defs"));
    let mut schema = json!({
        "type": "object",
        "anyOf": [answer, refusal()],
    });
    if let Some(defs) = defs {
        schema["$defs"] = defs;
    }
    schema
}

/// The output schema of answers of type `R`, derived from it: a type used
/// in one place written there, one used in several defined once (in
/// `$defs`), and none of what a client need not read to check an answer
/// (descriptions, titles, formats).
pub fn schema_of<R: JsonSchema>() -> Value {
    let mut settings = SchemaSettings::draft2020_12().for_serialize();
    settings.meta_schema = None;
    let mut schema = settings
        .into_generator()
        .into_root_schema_for::<R>()
        .to_value();
    compact(&mut schema);
    let Some(Value::Object(mut defs)) = schema.as_object_mut().and_then(|s| s.remove("$defs"))
    else {
        return schema;
    };
    // Inline the definitions used once (not by themselves), until none is.
    loop {
        let mut uses = Map::new();
        count_refs(&schema, &mut uses);
        defs.values().for_each(|def| count_refs(def, &mut uses));
        let once = defs.keys().find(|name| {
            uses.get(*name).and_then(Value::as_u64) == Some(1) && {
                let mut own = Map::new();
                count_refs(&defs[*name], &mut own);
                !own.contains_key(*name)
            }
        });
        let Some(name) = once.cloned() else { break };
        let def = defs.remove(&name).unwrap_or_default();
        inline(&mut schema, &name, &def);
        defs.values_mut().for_each(|d| inline(d, &name, &def));
    }
    if !defs.is_empty() {
        schema["$defs"] = Value::Object(defs);
    }
    schema
}

/// The definition a `$ref` names.
fn ref_name(value: &Value) -> Option<&str> {
    value.get("$ref")?.as_str()?.strip_prefix("#/$defs/")
}

/// How often `schema` refers to each definition.
fn count_refs(schema: &Value, uses: &mut Map<String, Value>) {
    match schema {
        Value::Object(map) => {
            if let Some(name) = ref_name(schema) {
                let n = uses.get(name).and_then(Value::as_u64).unwrap_or(0);
                uses.insert(name.into(), json!(n + 1));
            }
            map.values().for_each(|v| count_refs(v, uses));
        }
        Value::Array(items) => items.iter().for_each(|v| count_refs(v, uses)),
        _ => {}
    }
}

/// `schema` with the references to definition `name` replaced by `def`.
fn inline(schema: &mut Value, name: &str, def: &Value) {
    if ref_name(schema) == Some(name)
        && let (Value::Object(map), Value::Object(def)) = (&mut *schema, def)
    {
        map.remove("$ref");
        for (key, value) in def {
            map.entry(key.clone()).or_insert_with(|| value.clone());
        }
        return;
    }
    match schema {
        Value::Object(map) => map.values_mut().for_each(|v| inline(v, name, def)),
        Value::Array(items) => items.iter_mut().for_each(|v| inline(v, name, def)),
        _ => {}
    }
}

/// Keywords of a schema only people read.
const ANNOTATIONS: &[&str] = &["description", "title", "format", "examples", "default"];

/// Keywords whose value is a schema.
const SUBSCHEMA: &[&str] = &[
    "items",
    "additionalProperties",
    "not",
    "if",
    "then",
    "else",
    "contains",
];

/// Keywords whose value is a list of schemas.
const SUBSCHEMAS: &[&str] = &["anyOf", "oneOf", "allOf", "prefixItems"];

/// Keywords whose value maps names to schemas.
const SCHEMA_MAPS: &[&str] = &["properties", "$defs", "patternProperties"];

/// `schema` without annotations, and with a choice among constants
/// (an enum whose variants have doc comments) written as one `enum`.
fn compact(schema: &mut Value) {
    let Value::Object(map) = schema else {
        return;
    };
    for key in ANNOTATIONS {
        map.remove(*key);
    }
    for key in SUBSCHEMA {
        if let Some(sub) = map.get_mut(*key) {
            compact(sub);
        }
    }
    for key in SUBSCHEMAS {
        if let Some(Value::Array(subs)) = map.get_mut(*key) {
            subs.iter_mut().for_each(compact);
        }
    }
    for key in SCHEMA_MAPS {
        if let Some(Value::Object(subs)) = map.get_mut(*key) {
            subs.values_mut().for_each(compact);
        }
    }
    for key in ["oneOf", "anyOf"] {
        if let Some(Value::Array(choices)) = map.get(key)
            && let Some(values) = constants(choices)
        {
            map.remove(key);
            map.insert("enum".into(), Value::Array(values));
        }
    }
}

/// The values of `choices` when each is a constant (`const`, or an `enum`
/// of one value, with at most a `type` beside it).
fn constants(choices: &[Value]) -> Option<Vec<Value>> {
    let constant = |choice: &Value| -> Option<Vec<Value>> {
        let choice: &Map<String, Value> = choice.as_object()?;
        if choice
            .keys()
            .any(|k| !matches!(k.as_str(), "const" | "enum" | "type"))
        {
            return None;
        }
        match (choice.get("const"), choice.get("enum")) {
            (Some(value), None) => Some(vec![value.clone()]),
            (None, Some(Value::Array(values))) => Some(values.clone()),
            _ => None,
        }
    };
    let mut values = Vec::new();
    for choice in choices {
        values.extend(constant(choice)?);
    }
    Some(values)
}

/// `{"success": false, "error": {"code", "message", "details", "suggestions"}}`.
fn refusal() -> Value {
    schema_of::<crate::error::Refusal>()
}

/// An object with `required` fields among `properties`; other fields allowed.
pub fn object(required: &[&str], properties: Value) -> Value {
    json!({ "type": "object", "required": required, "properties": properties })
}

pub fn string() -> Value {
    json!({ "type": "string" })
}

pub fn integer() -> Value {
    json!({ "type": "integer", "minimum": 0 })
}

pub fn boolean() -> Value {
    json!({ "type": "boolean" })
}

pub fn array_of(items: Value) -> Value {
    json!({ "type": "array", "items": items })
}
