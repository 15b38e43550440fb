//! Byte offsets to LSP positions (zero-based line, UTF-16 character).

use crate::types::{Position, Span};

/// Bytes between two UTF-16 checkpoints of a non-ASCII text.
const CHECKPOINT_BYTES: usize = 1024;

/// Start offsets of every line of a text, for position conversion.
///
/// A position costs a binary search, plus, on a line that is not all ASCII,
/// a scan of the line up to the offset or of at most two checkpoint
/// intervals (1 KiB each), whichever is shorter: minified and generated files
/// put megabytes on one line, and scanning from the line's start for every
/// span made them quadratic.
#[derive(Debug, Clone)]
pub struct LineIndex {
    line_starts: Vec<usize>,
    /// For a text that is not all ASCII: `(byte offset, UTF-16 units before
    /// it)` about every [`CHECKPOINT_BYTES`], each on a character boundary.
    checkpoints: Vec<(usize, usize)>,
    /// For a text that is not all ASCII: whether each line is (then a
    /// column is a byte count, as in an all-ASCII text).
    ascii_lines: Vec<bool>,
}

impl LineIndex {
    pub fn new(text: &str) -> Self {
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        let mut checkpoints = Vec::new();
        let mut ascii_lines = Vec::new();
        if !text.is_ascii() {
            let mut units = 0;
            let mut at = 0;
            while at < text.len() {
                checkpoints.push((at, units));
                let mut next = (at + CHECKPOINT_BYTES).min(text.len());
                while !text.is_char_boundary(next) {
                    next += 1;
                }
                units += text[at..next].encode_utf16().count();
                at = next;
            }
            let ends = line_starts.iter().skip(1).copied().chain([text.len()]);
            ascii_lines = line_starts
                .iter()
                .zip(ends)
                .map(|(&start, end)| text.as_bytes()[start..end].is_ascii())
                .collect();
        }
        LineIndex {
            line_starts,
            checkpoints,
            ascii_lines,
        }
    }

    /// UTF-16 units before byte `offset` (a character boundary, or the
    /// character it splits counts as one replacement character).
    fn utf16_before(&self, text: &str, offset: usize) -> usize {
        let index = self.checkpoints.partition_point(|&(at, _)| at <= offset) - 1;
        let (at, units) = self.checkpoints[index];
        units + utf16_units(&text.as_bytes()[at..offset])
    }

    /// The position of byte `offset` in `text` (the text this index was built from).
    pub fn position(&self, text: &str, offset: usize) -> Position {
        let offset = offset.min(text.len());
        let line = self.line_starts.partition_point(|&start| start <= offset) - 1;
        let line_start = self.line_starts[line];
        let character = if self.checkpoints.is_empty() || self.ascii_lines[line] {
            offset - line_start
        } else if offset - line_start <= CHECKPOINT_BYTES {
            utf16_units(&text.as_bytes()[line_start..offset])
        } else {
            self.utf16_before(text, offset) - self.utf16_before(text, line_start)
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

/// UTF-16 units of `bytes`, UTF-8 that may end inside a character (which
/// then counts as one replacement character).
fn utf16_units(bytes: &[u8]) -> usize {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.encode_utf16().count(),
        Err(_) => String::from_utf8_lossy(bytes).encode_utf16().count(),
    }
}

/// Collapse runs of whitespace into one space and trim.
pub fn collapse_whitespace(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for word in text.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The position by scanning the line, as the LSP defines it.
    fn naive(text: &str, offset: usize) -> (u32, u32) {
        let before = &text[..offset];
        let line = before.matches('\n').count();
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        (
            line as u32,
            text[line_start..offset].encode_utf16().count() as u32,
        )
    }

    /// Every `step`th character's position (and the end's) is the scan's.
    fn same_as_a_scan(text: &str, step: usize) {
        let index = LineIndex::new(text);
        for (offset, _) in text.char_indices().step_by(step).chain([(text.len(), ' ')]) {
            let position = index.position(text, offset);
            assert_eq!(
                (position.line, position.character),
                naive(text, offset),
                "{offset}"
            );
        }
    }

    #[test]
    fn positions_match_a_scan_of_the_line_on_long_mixed_lines() {
        let mut text = String::new();
        for i in 0..3000 {
            text.push_str(match i % 7 {
                0 => "é",
                1 => "😀",
                2 => "\n",
                3 => "€uro ",
                _ => "ascii ",
            });
        }
        text.push_str(&"x".repeat(5000));
        same_as_a_scan(&text, 3);
        // A long line that is not all ASCII goes by the checkpoints.
        same_as_a_scan(&format!("ab\n{}\n", "é😀x".repeat(2000)), 7);
        let ascii = "a\nbc\n".repeat(1000);
        let index = LineIndex::new(&ascii);
        assert_eq!(index.position(&ascii, 4999).character, 2);
    }
}
