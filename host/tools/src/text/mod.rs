//! Compact text answers, the default `content` of every tool: written for a
//! model to read at a price per token. Paths once per group, 1-based
//! `line:col`, one line per item, resolution only when it is not certain,
//! a one-line header with what was asked, the totals and completeness, and
//! a token budget (`max_tokens`) that stops the list with the exact
//! arguments of the next page. The text is a view of the structured answer,
//! which `format: json` gives whole.

mod analyses;
mod budget;
mod health_text;
mod lists;
mod refactor;
mod symbols;
mod system;

use serde_json::{Map, Value, json};

pub use analyses::{analysis, batch, complexity, gate, graph_metrics};
pub use budget::{BYTES_PER_TOKEN, DEFAULT_MAX_TOKENS, MAX_MAX_TOKENS, MIN_MAX_TOKENS, Writer};
pub use health_text::{
    churn, comprehensive, deep_context, defects, duplicates, module_dependencies, names,
};
pub use lists::{call_hierarchy, diagnostics, implementations, references, search};
pub use refactor::{applied, moved, plan_or_applied, rolled_back};
pub use symbols::{definition, node_at, node_source, outline, symbol_info, type_definition};
pub use system::{graph, health};

use super::SharedArgs;
use crate::error::Refusal;

/// How a tool's `content` text is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    // The compact text of this module (the default).
    Text,
    // The structured answer as pretty JSON, as well.
    Json,
    // A SARIF 2.1.0 log of the answer (the analyses that have one).
    Sarif,
}

/// What a text renderer gets: the structured answer, the arguments it
/// answered (for the next page's) and the budget.
pub struct Request<'a> {
    pub tool: &'a str,
    pub arguments: &'a Map<String, Value>,
    pub max_tokens: usize,
}

impl Request<'_> {
    /// The arguments of the next page: these, with `offset` set.
    pub fn next_page(&self, offset: u64) -> String {
        let mut next = self.arguments.clone();
        next.insert("offset".into(), json!(offset));
        format!("{} {}", self.tool, Value::Object(next))
    }

    /// Whether `path` is the file the request named (`path` or
    /// `file_path`), which the caller need not be told again.
    pub fn names_file(&self, path: &str) -> bool {
        ["path", "file_path"].iter().any(|key| {
            self.arguments
                .get(*key)
                .and_then(Value::as_str)
                .is_some_and(|asked| asked.trim_start_matches("./") == path)
        })
    }

    /// The offset the answered page started at.
    pub fn offset(&self) -> u64 {
        self.arguments
            .get("offset")
            .and_then(Value::as_u64)
            .unwrap_or(0)
    }
}

/// Writes a tool's typed answer `R` as text.
pub type Text<R> = fn(&R, &Request, &mut Writer);

/// `format` and `max_tokens` of a call (checked by [`SharedArgs::from_call`]).
pub fn options(shared: &SharedArgs) -> (Format, usize) {
    let format = shared.format.unwrap_or(Format::Text);
    let max_tokens = shared.max_tokens.map_or(DEFAULT_MAX_TOKENS, |n| n as usize);
    (format, max_tokens)
}

/// A refusal as text: code and message, then the details the message does
/// not already say and the suggestions, each clipped.
pub fn error(refusal: &Refusal) -> String {
    let message = refusal.message();
    let mut out = clip(&format!("error {}: {message}", refusal.code()));
    if let Some(details) = refusal.details().as_object() {
        for (key, detail) in details {
            let text = match detail {
                Value::Null => continue,
                Value::Array(items) if items.is_empty() => continue,
                Value::Array(items) => {
                    let shown: Vec<String> = items.iter().take(20).map(plain).collect();
                    let more = items.len() - shown.len();
                    if more > 0 {
                        format!("{} (+{more} more)", shown.join("; "))
                    } else {
                        shown.join("; ")
                    }
                }
                other => plain(other),
            };
            // A field, line or name the message already shows is not repeated.
            if key == "field" || message.contains(&format!("`{text}`")) || message.contains(&text) {
                continue;
            }
            out.push_str(&clip(&format!("\n{key}: {text}")));
        }
    }
    if !refusal.suggestions().is_empty() {
        out.push_str(&clip(&format!(
            "\nhint: {}",
            refusal.suggestions().join("; ")
        )));
    }
    out
}

/// A line of an error at most 400 bytes long (client input is echoed).
fn clip(line: &str) -> String {
    const MAX_BYTES: usize = 400;
    if line.len() <= MAX_BYTES {
        return line.to_string();
    }
    let mut end = MAX_BYTES;
    while !line.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &line[..end])
}

/// A JSON value as it reads in text: strings without quotes.
pub(crate) fn plain(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// `name` without the leading segments it shares with `context` (the
/// container of what was asked about): `DBus.Address.Parse` asked from
/// `DBus` reads `Address.Parse`. The last segment always stays.
pub(crate) fn relative_to<'n>(name: &'n str, context: Option<&str>) -> &'n str {
    let Some(context) = context.filter(|c| !c.is_empty()) else {
        return name;
    };
    let mut rest = name;
    for segment in context.split('.') {
        match rest.strip_prefix(segment).and_then(|r| r.strip_prefix('.')) {
            Some(shorter) if !shorter.is_empty() => rest = shorter,
            _ => break,
        }
    }
    rest
}

/// Whether `word` stands in `text` as a whole word (not inside a longer
/// identifier): `struct` in `type Point struct`, not in `StructA`.
pub(crate) fn has_word(text: &str, word: &str) -> bool {
    let (bytes, word) = (text.as_bytes(), word.as_bytes());
    let Some(&first) = word.first() else {
        return false;
    };
    let is_ident = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    // Signatures are short: a byte search for the word's first byte beats
    // building a substring searcher per call. A match starts and ends on
    // character boundaries, `word` being whole characters.
    let mut from = 0;
    while let Some(found) = bytes[from..].iter().position(|&b| b == first) {
        let at = from + found;
        if bytes[at..].starts_with(word) {
            let before = text[..at].chars().next_back();
            let after = text[at + word.len()..].chars().next();
            if !before.is_some_and(is_ident) && !after.is_some_and(is_ident) {
                return true;
            }
        }
        from = at + 1;
    }
    false
}

/// Whether a declaration's signature already says its kind, so that a
/// line need not: the kind as a word (`struct` in `type Point struct`,
/// `class`, `namespace`), its first part (`function` of
/// `function_signature`), or, for a callable, the parameter list itself.
pub(crate) fn kind_said_by(signature: &str, kind: &str) -> bool {
    const CALLABLE: [&str; 3] = ["function", "method", "constructor"];
    let head = kind.split('_').next().unwrap_or(kind);
    // The cheapest test first: most declarations are callables.
    (CALLABLE.contains(&head) && signature.contains('('))
        || has_word(signature, kind)
        || has_word(signature, head)
}

/// `kind ` to write before a signature, or nothing where the signature
/// already says it ([`kind_said_by`]).
pub(crate) fn kind_prefix(signature: &str, kind: &str) -> String {
    if kind_said_by(signature, kind) {
        String::new()
    } else {
        format!("{kind} ")
    }
}

/// The 1-based `(line, col)` of a range's start.
pub(crate) fn start_of(range: &lingo_analysis::Range) -> (u32, u32) {
    (range.start.line + 1, range.start.character + 1)
}

/// The part of a declaration's `container` after its `namespace`, if any:
/// `MessageReader`, not `DBus.Protocol.MessageReader`; the path beside it
/// says where it is.
pub(crate) fn container_shown<'c>(
    container: Option<&'c str>,
    namespace: Option<&str>,
) -> Option<&'c str> {
    let container = container.filter(|c| !c.is_empty())?;
    let rest = match namespace.filter(|n| !n.is_empty()) {
        Some(namespace) => match container.strip_prefix(namespace) {
            Some("") => return None,
            Some(rest) => rest.strip_prefix('.').unwrap_or(container),
            None => container,
        },
        None => container,
    };
    Some(rest)
}

/// [`container_shown`] of a declaration view.
pub(crate) fn view_container(view: &lingo_analysis::SymbolView) -> Option<&str> {
    container_shown(view.container.as_deref(), view.namespace.as_deref())
}

/// `Container.name` of a declaration view, its container as
/// [`container_shown`] writes it.
pub(crate) fn view_qualified_name(view: &lingo_analysis::SymbolView) -> String {
    match view_container(view) {
        Some(container) => format!("{container}.{}", view.name),
        None => view.name.clone(),
    }
}

/// `kind Container.name` of a declaration view.
pub(crate) fn view_title(view: &lingo_analysis::SymbolView) -> String {
    format!("{} {}", view.kind, view_qualified_name(view))
}

/// `kind Container.name (path:line)` of a declaration view, the place
/// written by [`heading_at`].
pub(crate) fn view_heading(view: &lingo_analysis::SymbolView, request: &Request) -> String {
    heading_at(view_title(view), &view.file_path, &view.name_range, request)
}

/// `what (path:line)`, `what` being declared in `path` with its name at
/// `name_range`: the path left out (`(:line)`) when it is the file the
/// request named, and the place altogether when the request named that
/// very line.
pub(crate) fn heading_at(
    what: String,
    path: &str,
    name_range: &lingo_analysis::Range,
    request: &Request,
) -> String {
    let (line, _) = start_of(name_range);
    if !request.names_file(path) {
        return format!("{what} ({path}:{line})");
    }
    let asked_line = request.arguments.get("line").and_then(Value::as_u64);
    if asked_line == Some(u64::from(line) - 1) {
        what
    } else {
        format!("{what} (:{line})")
    }
}

/// ` (guess 0.4)` for an uncertain resolution (by name only, or with a
/// confidence below 1), nothing for a certain one.
pub(crate) fn guess_note(resolution: lingo_resolve::Resolution, confidence: f64) -> String {
    if resolution == lingo_resolve::Resolution::NameOnly || confidence < 1.0 {
        format!(" (guess {})", short_decimal(confidence))
    } else {
        String::new()
    }
}

/// `value` to two decimals without trailing zeros: `0.5`, `1`, `0.33`.
pub(crate) fn short_decimal(value: f64) -> String {
    let rounded = format!("{value:.2}");
    rounded
        .trim_end_matches('0')
        .trim_end_matches('.')
        .to_string()
}

/// `Container.name` of a declaration, or the name of a local.
pub(crate) fn subject_qualified_name(subject: &lingo_analysis::SubjectView) -> String {
    match subject {
        lingo_analysis::SubjectView::Symbol(view) => view_qualified_name(view),
        lingo_analysis::SubjectView::Local(local) => local.name.clone(),
    }
}

/// `kind Container.name (path:line)` of a declaration or local.
pub(crate) fn subject_heading(subject: &lingo_analysis::SubjectView, request: &Request) -> String {
    match subject {
        lingo_analysis::SubjectView::Symbol(view) => view_heading(view, request),
        lingo_analysis::SubjectView::Local(local) => heading_at(
            format!("{} {}", local.kind, local.name),
            &local.file_path,
            &local.name_range,
            request,
        ),
    }
}

/// One line of source as a list shows it: trimmed, at most 160 characters.
pub(crate) fn source_line(text: &str) -> String {
    let mut line = String::new();
    push_source_line(&mut line, text);
    line
}

/// [`source_line`] of `text`, written at the end of `out`.
pub(crate) fn push_source_line(out: &mut String, text: &str) {
    const MAX_CHARS: usize = 160;
    let trimmed = text.trim();
    match trimmed.char_indices().nth(MAX_CHARS) {
        Some((end, _)) => {
            out.push_str(&trimmed[..end]);
            out.push('…');
        }
        None => out.push_str(trimmed),
    }
}

/// The notes an answer carries about itself (lost work, a refreshing
/// index, files that could not be analysed), one line each.
pub fn index_notes(notes: &Map<String, Value>) -> Vec<String> {
    let mut lines = Vec::new();
    let note = |key: &str| notes.get(key).unwrap_or(&Value::Null);
    if note("complete") == &Value::Bool(false) {
        let reasons: Vec<&str> = note("incompleteReasons")
            .as_array()
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        lines.push(format!("Note: incomplete: {}", reasons.join("; ")));
    }
    if note("refreshing") == &Value::Bool(true) {
        lines.push(format!(
            "Note: answered from index generation {} while it refreshes",
            note("index")["generation"]
        ));
    }
    if let Some(files) = note("unanalyzedFiles").as_u64() {
        lines.push(format!(
            "Note: {files} files could not be analysed (health_check lists them)"
        ));
    }
    lines
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::error::ToolError;

    fn options_of(arguments: Value) -> Result<(Format, usize), ToolError> {
        Ok(options(&SharedArgs::from_call(&arguments)?))
    }

    #[test]
    fn a_word_is_found_whole_only() {
        let cases = [
            ("pub struct Point", "struct", true),
            ("pub structure Point", "struct", false),
            ("type Point struct", "struct", true),
            ("fn new() -> Self", "fn", true),
            ("fnord()", "fn", false),
            ("x_fn fn", "fn", true),
            ("é fn", "fn", true),
            ("éfn", "fn", false),
            ("class Größe", "Größe", true),
            ("class Größer", "Größe", false),
            ("", "fn", false),
            ("fn", "", false),
            ("$fn fn$", "fn", false),
        ];
        for (text, word, expected) in cases {
            assert_eq!(has_word(text, word), expected, "{word:?} in {text:?}");
        }
    }

    #[test]
    fn format_and_max_tokens_are_checked_at_the_boundary() {
        assert_eq!(
            options_of(json!({})).unwrap(),
            (Format::Text, DEFAULT_MAX_TOKENS)
        );
        assert_eq!(
            options_of(json!({ "format": "json", "max_tokens": MIN_MAX_TOKENS })).unwrap(),
            (Format::Json, MIN_MAX_TOKENS)
        );
        for (arguments, field) in [
            (json!({ "format": "yaml" }), "format"),
            (json!({ "format": 7 }), "format"),
            (json!({ "format": "x".repeat(100_000) }), "format"),
            (json!({ "max_tokens": 10 }), "max_tokens"),
            (json!({ "max_tokens": -1 }), "max_tokens"),
            (json!({ "max_tokens": 1e300 }), "max_tokens"),
            (json!({ "max_tokens": u64::MAX }), "max_tokens"),
            (json!({ "max_tokens": "2000" }), "max_tokens"),
        ] {
            let error = options_of(arguments.clone()).expect_err("refused");
            assert_eq!(
                error.to_json()["error"]["details"]["field"],
                json!(field),
                "{arguments}: {error}"
            );
        }
    }

    #[test]
    fn a_kind_is_said_by_a_signature_only_as_a_whole_word_or_a_parameter_list() {
        assert!(kind_said_by("type StructA struct", "struct"));
        assert!(kind_said_by(
            "export function tap<T>()",
            "function_signature"
        ));
        assert!(kind_said_by(
            "public static byte[] ReadBlock (TextReader r)",
            "method"
        ));
        assert!(kind_said_by("fn parse(input: &str)", "function"));
        assert!(!kind_said_by("InterfaceA()", "interface_method"));
        assert!(!kind_said_by("int position", "field"));
        assert!(!kind_said_by("type StructA1 struct", "StructA"));
        assert!(!kind_said_by("public int Position", "property"));
        assert!(!kind_said_by("", ""));
        assert!(has_word("a.b(x)", "b"));
        assert!(!has_word("ab(x)", "b"));
        assert!(!has_word("$b", "b"));
    }

    #[test]
    fn names_read_relative_to_the_container_asked_about() {
        assert_eq!(
            relative_to("DBus.Address.Parse", Some("DBus")),
            "Address.Parse"
        );
        assert_eq!(
            relative_to("DBus.Address.Parse", Some("DBus.Address")),
            "Parse"
        );
        assert_eq!(relative_to("DBus.Address", Some("DBus.Address")), "Address");
        assert_eq!(relative_to("DBusX.Parse", Some("DBus")), "DBusX.Parse");
        assert_eq!(relative_to("Error.span", None), "Error.span");
        // Malformed names stay non-empty.
        assert_eq!(relative_to("a..b", Some("a.")), "b");
        assert_eq!(relative_to("a.", Some("a")), "a.");
    }
}
