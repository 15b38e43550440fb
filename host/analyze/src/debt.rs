//! Self-admitted technical debt: what the code's comments say is left to
//! do or wrong (`TODO`, `FIXME`, `HACK`...), from the plugins' comment
//! tokens, so a marker in a string or an identifier is not one.
//!
//! A marker is one of the words below, in capitals, as the first word of a
//! comment's line (`// TODO: split`, `# FIXME(alice) leaks`, ` * HACK`), so
//! a comment that only mentions one (documentation of the markers) is not
//! one. Its category and severity:
//!
//! | marker | category | severity |
//! |---|---|---|
//! | `FIXME`, `BUG` | defect | high |
//! | `SECURITY`, `UNSAFE` | security | high |
//! | `HACK`, `KLUDGE`, `XXX`, `WORKAROUND` | design | medium |
//! | `TODO`, `TBD` | requirement | low |
//! | `OPTIMIZE`, `SLOW` | performance | low |

use schemars::JsonSchema;
use serde::Serialize;

use super::LexedFiles;
use super::Severity;
use lingo_model::TokenKind;

/// The markers, their category and severity.
const MARKERS: &[(&str, &str, Severity)] = &[
    ("FIXME", "defect", Severity::High),
    ("BUG", "defect", Severity::High),
    ("SECURITY", "security", Severity::High),
    ("UNSAFE", "security", Severity::High),
    ("HACK", "design", Severity::Medium),
    ("KLUDGE", "design", Severity::Medium),
    ("XXX", "design", Severity::Medium),
    ("WORKAROUND", "design", Severity::Medium),
    ("TODO", "requirement", Severity::Low),
    ("TBD", "requirement", Severity::Low),
    ("OPTIMIZE", "performance", Severity::Low),
    ("SLOW", "performance", Severity::Low),
];

/// The most items listed (the counts cover all).
const MAX_ITEMS: usize = 10_000;

/// One marker in a comment.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct DebtItem {
    pub file_path: String,
    /// 1-based.
    pub line: u32,
    pub marker: &'static str,
    pub category: &'static str,
    pub severity: Severity,
    /// The comment's line, trimmed, at most 160 characters.
    pub text: String,
}

/// The markers found.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Debt {
    pub total: usize,
    pub high: usize,
    pub medium: usize,
    pub low: usize,
    /// Most severe first, then by place; at most 10,000.
    pub items: Vec<DebtItem>,
}

/// The debt markers in the comments of `lexed`.
pub fn debt(lexed: &LexedFiles) -> Debt {
    let mut items = Vec::new();
    for (file, tokens) in &lexed.read {
        let source = file.source();
        let mut line = 1u32;
        let mut counted_to = 0usize;
        for token in tokens.iter().filter(|t| t.kind == TokenKind::Comment) {
            let (start, end) = (token.start as usize, token.end as usize);
            let Some(comment) = source.get(start..end) else {
                continue;
            };
            line += source.as_bytes()[counted_to..start]
                .iter()
                .filter(|&&b| b == b'\n')
                .count() as u32;
            counted_to = start;
            for (offset, text) in comment.split('\n').scan(0u32, |n, l| {
                let at = *n;
                *n += 1;
                Some((at, l))
            }) {
                if let Some(&(marker, category, severity)) = marker_in(text) {
                    items.push(DebtItem {
                        file_path: file.path.clone(),
                        line: line + offset,
                        marker,
                        category,
                        severity,
                        text: clip(text.trim(), 160),
                    });
                }
            }
        }
    }
    items.sort_by(|a, b| {
        (a.severity, &a.file_path, a.line).cmp(&(b.severity, &b.file_path, b.line))
    });
    let count = |s: Severity| items.iter().filter(|i| i.severity == s).count();
    let (high, medium, low) = (
        count(Severity::High),
        count(Severity::Medium),
        count(Severity::Low),
    );
    let total = items.len();
    items.truncate(MAX_ITEMS);
    Debt {
        total,
        high,
        medium,
        low,
        items,
    }
}

/// The marker that is the first word of the comment line `text`, past the
/// comment's punctuation.
fn marker_in(text: &str) -> Option<&'static (&'static str, &'static str, Severity)> {
    // Comment openers of the languages: `//`, `///`, `//!`, `/*`, ` *`,
    // `#`, `--`, `;`, `%`, `<!--`.
    let words = text.trim_start_matches(|c: char| c.is_whitespace() || "/*#!-;%<".contains(c));
    let first = words
        .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
        .next()?;
    MARKERS.iter().find(|(m, ..)| *m == first)
}

fn clip(text: &str, max_chars: usize) -> String {
    match text.char_indices().nth(max_chars) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_are_whole_capitalised_words() {
        assert_eq!(marker_in("// TODO: split this").map(|m| m.0), Some("TODO"));
        assert_eq!(
            marker_in("/* FIXME(bob) leaks */").map(|m| m.0),
            Some("FIXME")
        );
        assert_eq!(marker_in("// todo later"), None);
        assert_eq!(marker_in("// TODOS are fine"), None);
        assert_eq!(marker_in("// see BUGS.md"), None);
        assert_eq!(
            marker_in("# HACK: works around #12").map(|m| m.1),
            Some("design")
        );
        assert_eq!(marker_in("   * XXX").map(|m| m.0), Some("XXX"));
        // Mentioned, not marking.
        assert_eq!(marker_in("//! | `FIXME`, `BUG` | defect | high |"), None);
        assert_eq!(marker_in("// the TODO list"), None);
    }
}
