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

/// The text of a `///` line or a `/** */` block, the doc comments of
/// Rust, C#, Java and their kin; `None` for any other comment, `////` and
/// `/***` (banners) included.
pub fn slash_doc_text(comment: &str) -> Option<String> {
    if let Some(rest) = comment.strip_prefix("///") {
        return (!rest.starts_with('/')).then(|| line_text(rest));
    }
    let body = comment.strip_prefix("/**")?.strip_suffix("*/")?;
    (!body.starts_with('*')).then(|| block_text(body))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slash_doc_comments_and_banners() {
        assert_eq!(slash_doc_text("/// Parses."), Some("Parses.".into()));
        assert_eq!(slash_doc_text("/** Parses. */"), Some("Parses.".into()));
        assert_eq!(slash_doc_text("//// banner"), None);
        assert_eq!(slash_doc_text("/*** banner */"), None);
        assert_eq!(slash_doc_text("// plain"), None);
        assert_eq!(slash_doc_text("/* plain */"), None);
    }

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
