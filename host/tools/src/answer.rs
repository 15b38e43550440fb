//! A tool's answer: the typed answer, serialised only when and as the
//! caller needs it, and the notes the registry and the protocol layer add.
//!
//! The stdio server writes an answer's JSON straight from the typed value
//! ([`Answer::write_json`]); a `serde_json::Value` is built only where one
//! is read (`format: json`, SARIF, reports, the HTTP transport's SDK).
//! Building and dropping that tree was a third of the work of serving the
//! navigation tools.

use serde::Serialize;
use serde_json::{Map, Value};

use crate::error::{Refusal, ToolError};
use crate::text;

/// A tool's answer.
pub struct Answer {
    typed: Box<dyn Structured>,
    /// Fields added at the top level of the structured answer
    /// (`unanalyzedFiles`, `refreshing`, `complete`...); each replaces a
    /// field of the typed answer of the same name.
    notes: Map<String, Value>,
}

/// A typed answer, serialisable and writable as text.
trait Structured: Send + Sync {
    fn to_value(&self) -> serde_json::Result<Value>;
    fn write_json(&self, out: &mut Vec<u8>) -> serde_json::Result<()>;
    fn write_text(&self, request: &text::Request, writer: &mut text::Writer);
}

/// An answer of type `R` and the function that writes its text.
struct Typed<R> {
    answer: R,
    text: text::Text<R>,
}

impl<R: Serialize + Send + Sync> Structured for Typed<R> {
    fn to_value(&self) -> serde_json::Result<Value> {
        serde_json::to_value(&self.answer)
    }

    fn write_json(&self, out: &mut Vec<u8>) -> serde_json::Result<()> {
        serde_json::to_writer(out, &self.answer)
    }

    fn write_text(&self, request: &text::Request, writer: &mut text::Writer) {
        (self.text)(&self.answer, request, writer)
    }
}

impl Answer {
    /// `answer`, its text written by `text`.
    pub(crate) fn of<R: Serialize + Send + Sync + 'static>(
        answer: R,
        text: text::Text<R>,
    ) -> Answer {
        Answer {
            typed: Box::new(Typed { answer, text }),
            notes: Map::new(),
        }
    }

    /// A refusal as an answer, written as text by [`text::error`].
    pub fn refusal(error: &ToolError) -> Answer {
        fn write(refusal: &Refusal, _: &text::Request, writer: &mut text::Writer) {
            writer.always(&text::error(refusal));
        }
        Answer::of(error.refusal(), write)
    }

    /// Add `key` at the top level of the structured answer, replacing what
    /// the typed answer says under that name.
    pub fn note(&mut self, key: &str, value: Value) {
        self.notes.insert(key.into(), value);
    }

    /// The notes added so far.
    pub fn notes(&self) -> &Map<String, Value> {
        &self.notes
    }

    /// The structured answer (`structuredContent`) as a JSON value. An
    /// answer that cannot be serialised (a defect) reads as an internal
    /// refusal.
    pub fn value(&self) -> Value {
        match self.typed.to_value() {
            Ok(mut value) => {
                if let Value::Object(map) = &mut value {
                    map.extend(self.notes.clone());
                }
                value
            }
            Err(error) => unserialisable(&error),
        }
    }

    /// Append the structured answer's JSON to `out`: straight from the
    /// typed answer when nothing was noted, else through [`Answer::value`].
    pub fn write_json(&self, out: &mut Vec<u8>) {
        let start = out.len();
        if self.notes.is_empty() {
            match self.typed.write_json(out) {
                Ok(()) => return,
                Err(_) => out.truncate(start),
            }
        }
        // Writing a `Value` to memory cannot fail.
        let _ = serde_json::to_writer(out, &self.value());
    }

    /// Write the typed answer's compact text.
    pub(crate) fn write_text(&self, request: &text::Request, writer: &mut text::Writer) {
        self.typed.write_text(request, writer)
    }
}

/// The internal refusal standing for an answer serde could not write.
fn unserialisable(error: &serde_json::Error) -> Value {
    tracing::error!(%error, "an answer could not be serialised");
    ToolError::Internal(format!("serializing: {error}")).to_json()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[derive(Serialize)]
    struct Found {
        complete: bool,
        names: Vec<&'static str>,
    }

    fn json_text(answer: &Answer) -> String {
        let mut out = Vec::new();
        answer.write_json(&mut out);
        String::from_utf8(out).unwrap()
    }

    fn found() -> Answer {
        fn write(found: &Found, _: &text::Request, writer: &mut text::Writer) {
            writer.always(&found.names.join(","));
        }
        Answer::of(
            Found {
                complete: true,
                names: vec!["a", "é\"b"],
            },
            write,
        )
    }

    #[test]
    fn the_json_written_is_the_value_and_notes_replace_fields() {
        let mut answer = found();
        let direct: Value = serde_json::from_str(&json_text(&answer)).unwrap();
        assert_eq!(direct, json!({ "complete": true, "names": ["a", "é\"b"] }));
        assert_eq!(direct, answer.value());

        answer.note("complete", json!(false));
        answer.note("unanalyzedFiles", json!(2));
        let noted = json!({ "complete": false, "names": ["a", "é\"b"], "unanalyzedFiles": 2 });
        assert_eq!(answer.value(), noted);
        let written: Value = serde_json::from_str(&json_text(&answer)).unwrap();
        assert_eq!(written, noted);
    }
}
