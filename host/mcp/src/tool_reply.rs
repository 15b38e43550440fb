//! A `tools/call` result (MCP `CallToolResult`): the text a model reads and,
//! where asked for, the structured answer for programs, written as a JSON
//! value or straight to the wire.

use serde::Serialize;
use serde_json::{Value, json};

use lingo_tools::Answer;
use lingo_tools::error::ToolError;

/// What a `tools/call` answered.
pub struct ToolReply {
    /// `None`: the reply is the text alone.
    structured: Option<Structured>,
    text: String,
    is_error: bool,
}

/// `structuredContent`: a tool's typed answer, or JSON already (the hosted
/// projects' own tools, answers measured against a size limit).
enum Structured {
    Answer(Answer),
    Json(Value),
}

impl ToolReply {
    /// A tool's answer and its text.
    pub fn answered(answer: Answer, text: String, is_error: bool) -> ToolReply {
        ToolReply {
            structured: Some(Structured::Answer(answer)),
            text,
            is_error,
        }
    }

    /// An answer that is JSON already.
    pub fn json(value: Value, text: String, is_error: bool) -> ToolReply {
        ToolReply {
            structured: Some(Structured::Json(value)),
            text,
            is_error,
        }
    }

    /// This reply with its text alone (no `structuredContent`).
    pub fn text_only(mut self) -> ToolReply {
        self.structured = None;
        self
    }

    /// A call refused with `error` (an `isError` result).
    pub fn refused(error: &ToolError) -> ToolReply {
        let refusal = error.refusal();
        let text = lingo_tools::text::error(&refusal);
        ToolReply::json(refusal.to_json(), text, true)
    }

    /// How many bytes the structured answer takes on the wire (0 without one).
    pub fn structured_len(&self) -> usize {
        let mut out = Vec::new();
        self.write_structured(&mut out);
        out.len()
    }

    /// The text a model reads.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The `CallToolResult` as a JSON value.
    pub fn into_value(self) -> Value {
        let mut value = json!({
            "content": [{ "type": "text", "text": self.text }],
            "isError": self.is_error,
        });
        if let Some(structured) = self.structured {
            value["structuredContent"] = match structured {
                Structured::Answer(answer) => answer.value(),
                Structured::Json(value) => value,
            };
        }
        value
    }

    /// Append the `CallToolResult`'s JSON to `out`, the structured answer
    /// written from the typed answer; with `resultType` when the protocol
    /// revision asks for one.
    pub fn write_json(&self, result_type: Option<&str>, out: &mut Vec<u8>) {
        #[derive(Serialize)]
        struct Content<'a> {
            r#type: &'static str,
            text: &'a str,
        }
        let content = [Content {
            r#type: "text",
            text: &self.text,
        }];
        out.extend_from_slice(b"{\"content\":");
        push_json(out, &content);
        if self.structured.is_some() {
            out.extend_from_slice(b",\"structuredContent\":");
            self.write_structured(out);
        }
        out.extend_from_slice(b",\"isError\":");
        push_json(out, &self.is_error);
        if let Some(result_type) = result_type {
            out.extend_from_slice(b",\"resultType\":");
            push_json(out, &result_type);
        }
        out.push(b'}');
    }

    fn write_structured(&self, out: &mut Vec<u8>) {
        match &self.structured {
            Some(Structured::Answer(answer)) => answer.write_json(out),
            Some(Structured::Json(value)) => push_json(out, value),
            None => {}
        }
    }
}

/// Append `value`'s JSON to `out`. Strings, bools, lists of them and
/// `Value`s (string keys) cannot fail to serialise into memory.
fn push_json(out: &mut Vec<u8>, value: &impl Serialize) {
    let _ = serde_json::to_writer(out, value);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_written_result_is_the_value() {
        let error = ToolError::Internal("a \"quoted\" reason é".into());
        for text_only in [false, true] {
            let reply = || {
                let reply = ToolReply::refused(&error);
                if text_only { reply.text_only() } else { reply }
            };
            for result_type in [None, Some("complete")] {
                let mut out = Vec::new();
                reply().write_json(result_type, &mut out);
                let written: Value = serde_json::from_slice(&out).expect("valid JSON");
                let mut expected = reply().into_value();
                if let Some(kind) = result_type {
                    expected["resultType"] = json!(kind);
                }
                assert_eq!(written, expected);
                assert_eq!(written.get("structuredContent").is_none(), text_only);
            }
        }
    }
}
