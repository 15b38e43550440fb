//! The text of a doc comment, once its language has said which comments
//! are doc comments: the markers taken off, one meaning for every plugin.

/// The text of one line comment after its marker (`///`, `//`): one
/// space after the marker dropped, trailing whitespace too.
pub fn line_text(after_marker: &str) -> String {
    after_marker
        .strip_prefix(' ')
        .unwrap_or(after_marker)
        .trim_end()
        .to_string()
}

/// The text of a block comment's body (between `/**` or `/*` and `*/`):
/// each line's leading `*` and the one space after it dropped, so an
/// indented example keeps its indentation; blank lines at either end
/// dropped.
pub fn block_text(body: &str) -> String {
    let lines: Vec<&str> = body
        .lines()
        .map(|line| {
            let line = line.trim();
            let line = line.strip_prefix('*').unwrap_or(line);
            line.strip_prefix(' ').unwrap_or(line).trim_end()
        })
        .collect();
    lines.join("\n").trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_and_one_space_go() {
        assert_eq!(line_text(" Parses a file.  "), "Parses a file.");
        assert_eq!(line_text("  indented"), " indented");
        assert_eq!(
            block_text("\n * Parses a file.\n *\n *     let x = 1;\n "),
            "Parses a file.\n\n    let x = 1;"
        );
        assert_eq!(block_text(" one line "), "one line");
    }
}
