//! Rendering failures: one line each, naming the case, file, category and the differing fields.

use std::fmt;

use serde_json::Value;

use super::facts::Actual;
use super::fixture::{Category, Entry};
use super::matching::{Closest, FieldDiff};

/// One failed check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    pub case: String,
    /// The case-relative file, when the failure is about one.
    pub file: Option<String>,
    /// `symbols`, `resolveImports`...; none for a fixture or plugin error.
    pub category: Option<String>,
    pub message: String,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "FAIL {}", self.case)?;
        if let Some(file) = &self.file {
            write!(f, "/{file}")?;
        }
        if let Some(category) = &self.category {
            write!(f, " {category}")?;
        }
        write!(f, ": {}", self.message)
    }
}

/// Compact JSON of `fields`, in the order given.
fn object<'a>(fields: impl Iterator<Item = (&'a str, &'a Value)>) -> String {
    let body: Vec<String> = fields
        .map(|(name, value)| format!("{}:{value}", Value::from(name)))
        .collect();
    format!("{{{}}}", body.join(","))
}

/// An expected entry as the fixture gives it.
pub fn entry(entry: &Entry) -> String {
    object(entry.iter().map(|(name, value)| (*name, value)))
}

/// An actual entry: its identifying fields plus `used` (the fields the
/// category's expected entries give), in the category's field order.
pub fn actual(category: &Category, actual: &Actual, used: &[&str]) -> String {
    object(category.fields.iter().filter_map(|(name, _)| {
        let shown = category.identity.contains(name) || used.contains(name);
        shown.then(|| actual.fields.get(*name).map(|v| (*name, v)))?
    }))
}

fn field_diffs(diffs: &[FieldDiff]) -> String {
    diffs
        .iter()
        .map(|d| format!("{} expected {}, got {}", d.field, d.expected, d.actual))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Why an expected entry found no actual entry.
pub fn missing(expected: &Entry, closest: &Closest, actual: &[Actual]) -> String {
    let explanation = match closest {
        Closest::Nothing => "no actual entries".to_string(),
        Closest::Differs { actual: j, diffs } => format!(
            "closest actual {} differs: {}",
            actual[*j].label,
            field_diffs(diffs)
        ),
        Closest::Taken { actual: j } => format!(
            "it matches only actual entries another expected entry already matched ({})",
            actual[*j].label
        ),
    };
    format!("expected {} — {explanation}", entry(expected))
}

/// An actual entry nothing expected.
pub fn unexpected(category: &Category, actual_entry: &Actual, used: &[&str]) -> String {
    format!("unexpected {}", actual(category, actual_entry, used))
}

/// A list of strings as JSON.
pub fn list(items: &[String]) -> String {
    Value::from(items.to_vec()).to_string()
}

/// `N cases, M files, K checks, F failures`.
pub fn summary(cases: usize, files: usize, checks: usize, failures: usize) -> String {
    format!("{cases} cases, {files} files, {checks} checks, {failures} failures")
}
