//! Text edits on a file's text: LSP positions (UTF-16) to byte offsets,
//! and a set of edits applied at once, refused when two overlap.

use super::plan::{Position, TextEdit};

/// Why a set of edits cannot be applied to a text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EditError {
    #[error("position {}:{} is not in the file", .0.line, .0.character)]
    OutOfRange(Position),
    #[error("an edit ends before it starts at {}:{}", .0.line, .0.character)]
    Reversed(Position),
    #[error("two edits overlap at {}:{}", .0.line, .0.character)]
    Overlap(Position),
    #[error(
        "byte range {start}..{end} is not a range of the text ({len} bytes, on character boundaries)"
    )]
    ByteRange { start: u32, end: u32, len: usize },
}

/// Where each line of a text starts, for position lookups in O(line).
pub struct LineIndex<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    pub fn new(text: &'a str) -> Self {
        let starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        LineIndex { text, starts }
    }

    /// The byte offset of a zero-based (line, UTF-16 character), or `None`
    /// past the end of its line or in the middle of a character.
    pub fn offset(&self, position: Position) -> Option<usize> {
        let start = *self.starts.get(position.line as usize)?;
        let line = self.text[start..].split('\n').next().unwrap_or_default();
        let mut units = 0u32;
        for (i, c) in line.char_indices() {
            if units == position.character {
                return Some(start + i);
            }
            if units > position.character {
                return None;
            }
            units += c.len_utf16() as u32;
        }
        (units == position.character).then_some(start + line.len())
    }
}

impl LineIndex<'_> {
    /// The position of byte `offset` (clamped to the text, moved back to
    /// a character boundary).
    pub fn position(&self, offset: usize) -> Position {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let character = self.text[self.starts[line]..offset].encode_utf16().count();
        Position {
            line: line as u32,
            character: character as u32,
        }
    }
}

/// `text` with every edit applied (positions refer to `text` as given).
pub fn apply(text: &str, edits: &[TextEdit]) -> Result<String, EditError> {
    let index = LineIndex::new(text);
    let mut spans = Vec::with_capacity(edits.len());
    for edit in edits {
        let start = index
            .offset(edit.range.start)
            .ok_or(EditError::OutOfRange(edit.range.start))?;
        let end = index
            .offset(edit.range.end)
            .ok_or(EditError::OutOfRange(edit.range.end))?;
        if end < start {
            return Err(EditError::Reversed(edit.range.start));
        }
        spans.push((start, end, edit));
    }
    spans.sort_by_key(|(start, end, _)| (*start, *end));
    for pair in spans.windows(2) {
        if pair[1].0 < pair[0].1 {
            return Err(EditError::Overlap(pair[1].2.range.start));
        }
    }
    let spans: Vec<(usize, usize, &str)> = spans
        .iter()
        .map(|(start, end, edit)| (*start, *end, edit.new_text.as_str()))
        .collect();
    Ok(splice(text, &spans).0)
}

/// `text` with byte-range edits applied, such as a plugin returns: each
/// range must lie in the text on character boundaries, none may overlap.
pub fn apply_bytes(text: &str, edits: &[(u32, u32, String)]) -> Result<String, EditError> {
    let mut spans = Vec::with_capacity(edits.len());
    for (start, end, replacement) in edits {
        let (s, e) = (*start as usize, *end as usize);
        if s > e || e > text.len() || !text.is_char_boundary(s) || !text.is_char_boundary(e) {
            return Err(EditError::ByteRange {
                start: *start,
                end: *end,
                len: text.len(),
            });
        }
        spans.push((s, e, replacement.as_str()));
    }
    spans.sort_by_key(|(start, end, _)| (*start, *end));
    let index = LineIndex::new(text);
    for pair in spans.windows(2) {
        if pair[1].0 < pair[0].1 {
            return Err(EditError::Overlap(index.position(pair[1].0)));
        }
    }
    Ok(splice(text, &spans).0)
}

/// One edit turning `old` into `new`: the region between their common
/// prefix and common suffix (none when they are equal).
pub fn difference(old: &str, new: &str) -> Option<TextEdit> {
    if old == new {
        return None;
    }
    let mut prefix = old
        .bytes()
        .zip(new.bytes())
        .take_while(|(a, b)| a == b)
        .count();
    while !old.is_char_boundary(prefix) || !new.is_char_boundary(prefix) {
        prefix -= 1;
    }
    let room = old.len().min(new.len()) - prefix;
    let mut suffix = old
        .bytes()
        .rev()
        .zip(new.bytes().rev())
        .take(room)
        .take_while(|(a, b)| a == b)
        .count();
    while !old.is_char_boundary(old.len() - suffix) || !new.is_char_boundary(new.len() - suffix) {
        suffix -= 1;
    }
    let index = LineIndex::new(old);
    Some(TextEdit {
        range: super::plan::Range {
            start: index.position(prefix),
            end: index.position(old.len() - suffix),
        },
        new_text: new[prefix..new.len() - suffix].to_string(),
    })
}

/// `text` with each `(start, end, replacement)` byte range replaced (sorted,
/// not overlapping, on character boundaries), and where each replacement
/// starts in the result.
pub fn splice(text: &str, spans: &[(usize, usize, &str)]) -> (String, Vec<usize>) {
    let mut out = String::with_capacity(text.len());
    let mut starts = Vec::with_capacity(spans.len());
    let mut at = 0;
    for &(start, end, replacement) in spans {
        out.push_str(&text[at..start]);
        starts.push(out.len());
        out.push_str(replacement);
        at = end;
    }
    out.push_str(&text[at..]);
    (out, starts)
}

/// A unified diff of `old` to `new` (`--- a/path`, `+++ b/path`): a hunk
/// per run of changed lines with three lines of context, as `diff -u` and
/// `git diff` show it (Myers' algorithm, from `similar`).
pub fn unified_diff(path: &str, old: &str, new: &str) -> String {
    let diff = similar::TextDiff::from_lines(old, new);
    let mut out = format!("--- a/{path}\n+++ b/{path}\n");
    for hunk in diff.unified_diff().context_radius(3).iter_hunks() {
        out.push_str(&hunk.to_string());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::plan::Range;
    use super::*;

    fn edit(l1: u32, c1: u32, l2: u32, c2: u32, text: &str) -> TextEdit {
        TextEdit {
            range: Range {
                start: Position {
                    line: l1,
                    character: c1,
                },
                end: Position {
                    line: l2,
                    character: c2,
                },
            },
            new_text: text.into(),
        }
    }

    #[test]
    fn applies_edits_in_any_order_with_utf16_columns() {
        let text = "let é = old;\nold(é);\n";
        let edits = [edit(1, 0, 1, 3, "new"), edit(0, 8, 0, 11, "new")];
        assert_eq!(apply(text, &edits).unwrap(), "let é = new;\nnew(é);\n");
        // `é` is one UTF-16 unit: column 5 is the space after it.
        assert_eq!(
            apply(text, &[edit(0, 5, 0, 5, "x")]).unwrap(),
            "let éx = old;\nold(é);\n"
        );
    }

    #[test]
    fn positions_and_offsets_agree() {
        let text = "ab\né𝄞c\n\nz";
        let index = LineIndex::new(text);
        for (offset, _) in text.char_indices().chain([(text.len(), ' ')]) {
            assert_eq!(
                index.offset(index.position(offset)),
                Some(offset),
                "{offset}"
            );
        }
    }

    #[test]
    fn refuses_overlaps_and_positions_outside_the_text() {
        let text = "abc\ndef\n";
        let overlap = [edit(0, 0, 0, 2, "x"), edit(0, 1, 0, 3, "y")];
        assert!(matches!(apply(text, &overlap), Err(EditError::Overlap(_))));
        assert!(matches!(
            apply(text, &[edit(0, 4, 0, 4, "x")]),
            Err(EditError::OutOfRange(_))
        ));
        assert!(matches!(
            apply(text, &[edit(9, 0, 9, 0, "x")]),
            Err(EditError::OutOfRange(_))
        ));
        assert!(matches!(
            apply(text, &[edit(1, 2, 1, 1, "x")]),
            Err(EditError::Reversed(_))
        ));
        // The end of the last line, and an empty last line, are positions.
        assert_eq!(
            apply(text, &[edit(2, 0, 2, 0, "z")]).unwrap(),
            "abc\ndef\nz"
        );
    }

    #[test]
    fn a_position_inside_a_surrogate_pair_is_refused() {
        // `𝄞` is two UTF-16 units.
        assert!(apply("𝄞x", &[edit(0, 1, 0, 1, "y")]).is_err());
        assert_eq!(apply("𝄞x", &[edit(0, 2, 0, 3, "y")]).unwrap(), "𝄞y");
    }

    #[test]
    fn plugin_byte_ranges_are_checked() {
        let text = "é\nab";
        let e = |s: u32, e: u32, t: &str| (s, e, t.to_string());
        assert_eq!(apply_bytes(text, &[e(3, 4, "x")]).unwrap(), "é\nxb");
        // Inside `é`, past the end, reversed, overlapping: refused.
        for bad in [vec![e(1, 2, "")], vec![e(3, 9, "")], vec![e(4, 3, "")]] {
            assert!(
                matches!(apply_bytes(text, &bad), Err(EditError::ByteRange { .. })),
                "{bad:?}"
            );
        }
        assert!(matches!(
            apply_bytes(text, &[e(3, 5, ""), e(4, 5, "")]),
            Err(EditError::Overlap(_))
        ));
    }

    #[test]
    fn a_diff_has_a_hunk_per_change_with_context() {
        let old: String = (1..=20).map(|i| format!("line {i}\n")).collect();
        let new = old
            .replace("line 2\n", "line two\n")
            .replace("line 18\n", "");
        expect_test::expect![[r#"
            --- a/src/a.rs
            +++ b/src/a.rs
            @@ -1,5 +1,5 @@
             line 1
            -line 2
            +line two
             line 3
             line 4
             line 5
            @@ -15,6 +15,5 @@
             line 15
             line 16
             line 17
            -line 18
             line 19
             line 20
        "#]]
        .assert_eq(&unified_diff("src/a.rs", &old, &new));
        // No change: the header alone; a last line without its newline says so.
        assert_eq!(unified_diff("a", "x\n", "x\n"), "--- a/a\n+++ b/a\n");
        assert!(unified_diff("a", "x\n", "y").contains("\\ No newline at end of file"));
    }

    #[test]
    fn the_difference_of_two_texts_is_one_edit_that_makes_one_the_other() {
        for (old, new) in [
            ("use a;\nuse b;\nfn f() {}\n", "use a;\nfn f() {}\n"),
            ("aaa", "aa"),
            ("x𝄞y", "x𝄟y"),
            ("", "new"),
            ("old", ""),
        ] {
            let edit = difference(old, new).unwrap();
            assert_eq!(apply(old, &[edit]).unwrap(), new, "{old:?} -> {new:?}");
        }
        assert_eq!(difference("same", "same"), None);
    }
}
