//! Byte offsets to LSP positions (zero-based line, UTF-16 character).

use crate::types::{Position, Span};

/// Start offsets of every line of a text, for position conversion.
#[derive(Debug, Clone)]
pub struct LineIndex {
    line_starts: Vec<usize>,
}

impl LineIndex {
    pub fn new(text: &str) -> Self {
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex { line_starts }
    }

    /// The position of byte `offset` in `text` (the text this index was built from).
    pub fn position(&self, text: &str, offset: usize) -> Position {
        let offset = offset.min(text.len());
        let line = self.line_starts.partition_point(|&start| start <= offset) - 1;
        let line_start = self.line_starts[line];
        let prefix = &text.as_bytes()[line_start..offset];
        let character = if prefix.is_ascii() {
            prefix.len()
        } else {
            // Offsets from tree-sitter always fall on character boundaries.
            String::from_utf8_lossy(prefix).encode_utf16().count()
        };
        Position {
            line: line as u32,
            character: character as u32,
            offset: offset as u32,
        }
    }

    /// The span of bytes `[start, end)`.
    pub fn span(&self, text: &str, start: usize, end: usize) -> Span {
        Span {
            start: self.position(text, start),
            end: self.position(text, end),
        }
    }
}

/// Collapse runs of whitespace into one space and trim.
pub fn collapse_whitespace(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
