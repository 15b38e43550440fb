//! The fixture format: cases on disk, `expected.json` parsed and checked against the field tables.

use lingo_model::DeclaredTypeSource;
use lingo_model::patterns::NamePatterns;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_json::{Map, Value};

use super::ConformanceError;

/// The name of the expectations file at the root of each case.
pub const EXPECTED: &str = "expected.json";

/// What values a field of an expected entry takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldType {
    Str,
    /// A string, or `null` for an absent WIT `option`.
    OptStr,
    Bool,
    Num,
    /// A number or `null`.
    OptNum,
    /// `"line:column"`, 1-based.
    Pos,
    /// A position or `null`.
    OptPos,
    /// `"l:c-l:c"`, 1-based.
    Span,
    StrList,
    /// A list of non-negative integers.
    NumList,
    Enum(&'static [&'static str]),
    /// An object with any of the Halstead count fields.
    Halstead,
}

/// The categories of facts a file is checked on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Symbols,
    References,
    Imports,
    Locals,
    Diagnostics,
    Metrics,
    Module,
    DeclaredTypes,
    Narrowings,
    ParameterContexts,
    /// Where the host's resolution takes each reference, over every file
    /// of the case.
    Definitions,
}

/// One category of facts: its name in `expected.json`, its fields in the
/// order entries are printed, and the fields that identify an entry (the
/// first one, usually the name, weighs most in finding the closest entry).
#[derive(Debug)]
pub struct Category {
    pub kind: Kind,
    pub name: &'static str,
    pub fields: &'static [(&'static str, FieldType)],
    pub identity: &'static [&'static str],
}

pub const SYMBOL_KINDS: &[&str] = &[
    "file",
    "module",
    "namespace",
    "package",
    "class",
    "method",
    "property",
    "field",
    "constructor",
    "enum",
    "interface",
    "function",
    "variable",
    "constant",
    "string",
    "number",
    "boolean",
    "array",
    "object",
    "key",
    "null",
    "enum-member",
    "struct",
    "event",
    "operator",
    "type-parameter",
];
const VISIBILITIES: &[&str] = &["public", "internal", "protected", "private", "unspecified"];
const REFERENCE_KINDS: &[&str] = &[
    "call",
    "reference",
    "type",
    "import",
    "extends",
    "implements",
    "write",
];
const IMPORT_KINDS: &[&str] = &["named", "glob", "namespace", "default", "side-effect"];
const SEVERITIES: &[&str] = &["error", "warning", "information", "hint"];
const TARGETS: &[&str] = &["symbol", "local"];
const TYPE_SOURCES: &[&str] = &type_source_names(DeclaredTypeSource::ALL);

/// The WIT names of `sources`, for the fixture's enum of sources.
const fn type_source_names<const N: usize>(sources: [DeclaredTypeSource; N]) -> [&'static str; N] {
    let mut names = [""; N];
    let mut i = 0;
    while i < N {
        names[i] = sources[i].wit_name();
        i += 1;
    }
    names
}
/// How the host found a definition (`name-only`: a guess by name), or
/// `unresolved`.
pub const RESOLUTIONS: &[&str] = &["scope", "import", "qualified", "name-only", "unresolved"];
pub const HALSTEAD_FIELDS: &[&str] = &[
    "distinctOperators",
    "distinctOperands",
    "totalOperators",
    "totalOperands",
];

use FieldType as F;

pub static SYMBOLS: Category = Category {
    kind: Kind::Symbols,
    name: "symbols",
    fields: &[
        ("name", F::Str),
        ("kind", F::Enum(SYMBOL_KINDS)),
        ("languageKind", F::Str),
        ("span", F::Span),
        ("nameSpan", F::Span),
        ("line", F::Num),
        ("container", F::OptStr),
        ("containerName", F::OptStr),
        ("visibility", F::Enum(VISIBILITIES)),
        ("signature", F::OptStr),
        ("doc", F::OptStr),
        ("modifiers", F::StrList),
    ],
    identity: &["name", "kind", "span"],
};

pub static REFERENCES: Category = Category {
    kind: Kind::References,
    name: "references",
    fields: &[
        ("name", F::Str),
        ("kind", F::Enum(REFERENCE_KINDS)),
        ("at", F::Pos),
        ("span", F::Span),
        ("line", F::Num),
        ("qualifier", F::StrList),
        ("isMember", F::Bool),
        ("enclosing", F::OptStr),
        ("local", F::OptPos),
    ],
    identity: &["name", "kind", "at"],
};

pub static IMPORTS: Category = Category {
    kind: Kind::Imports,
    name: "imports",
    fields: &[
        ("modulePath", F::Str),
        ("kind", F::Enum(IMPORT_KINDS)),
        ("names", F::StrList),
        ("typeOnly", F::Bool),
        ("reexport", F::Bool),
        ("line", F::Num),
        ("span", F::Span),
    ],
    identity: &["modulePath", "kind", "line"],
};

pub static LOCALS: Category = Category {
    kind: Kind::Locals,
    name: "locals",
    fields: &[
        ("name", F::Str),
        ("kind", F::Str),
        ("at", F::Pos),
        ("span", F::Span),
        ("line", F::Num),
        ("scope", F::Span),
    ],
    identity: &["name", "kind", "at"],
};

pub static DIAGNOSTICS: Category = Category {
    kind: Kind::Diagnostics,
    name: "diagnostics",
    fields: &[
        ("severity", F::Enum(SEVERITIES)),
        ("code", F::Str),
        ("message", F::Str),
        ("line", F::Num),
        ("at", F::Pos),
        ("span", F::Span),
    ],
    identity: &["code", "severity", "span"],
};

pub static METRICS: Category = Category {
    kind: Kind::Metrics,
    name: "metrics",
    fields: &[
        ("name", F::Str),
        ("line", F::Num),
        ("cyclomatic", F::Num),
        ("cognitive", F::Num),
        ("maxNesting", F::Num),
        ("parameters", F::Num),
        ("lines", F::Num),
        ("codeLines", F::Num),
        ("commentLines", F::Num),
        ("halstead", F::Halstead),
    ],
    identity: &["name", "line"],
};

pub static MODULE: Category = Category {
    kind: Kind::Module,
    name: "module",
    fields: &[("path", F::Str), ("package", F::OptStr)],
    identity: &["path", "package"],
};

/// The types the plugin declares (`declared-types`): one entry per
/// declared type, at the name of the declaration it is the type of.
pub static DECLARED_TYPES: Category = Category {
    kind: Kind::DeclaredTypes,
    name: "declaredTypes",
    fields: &[
        ("name", F::Str),
        ("target", F::Enum(TARGETS)),
        ("at", F::Pos),
        ("line", F::Num),
        ("type", F::Str),
        ("qualifier", F::StrList),
        ("span", F::Span),
        ("source", F::Enum(TYPE_SOURCES)),
    ],
    identity: &["name", "at", "type"],
};

/// The reads a test or a guard narrows (`narrowings`): one entry per read,
/// at the read, with what narrows it.
pub static NARROWINGS: Category = Category {
    kind: Kind::Narrowings,
    name: "narrowings",
    fields: &[
        ("name", F::Str),
        ("at", F::Pos),
        ("line", F::Num),
        ("by", F::Str),
        ("byAt", F::Pos),
    ],
    identity: &["name", "at"],
};

/// The values written for a parameter (`parameter-contexts`): one entry
/// per member of a literal (`.k`) or untyped parameter (`x`), at its name,
/// with the function it is written for and the parameter's positions.
pub static PARAMETER_CONTEXTS: Category = Category {
    kind: Kind::ParameterContexts,
    name: "parameterContexts",
    fields: &[
        ("name", F::Str),
        ("at", F::Pos),
        ("line", F::Num),
        ("function", F::Str),
        ("functionAt", F::Pos),
        ("parameters", F::NumList),
    ],
    identity: &["name", "at"],
};

/// The definitions the host resolves a reference to, over all files of
/// the case: one entry per definition (one with `resolution`
/// `unresolved` and null targets when there is none). Only the references
/// whose `at` an entry names are checked.
pub static DEFINITIONS: Category = Category {
    kind: Kind::Definitions,
    name: "definitions",
    fields: &[
        ("name", F::Str),
        ("kind", F::Enum(REFERENCE_KINDS)),
        ("at", F::Pos),
        ("line", F::Num),
        ("targetFile", F::OptStr),
        ("target", F::OptStr),
        ("targetLine", F::OptNum),
        ("resolution", F::Enum(RESOLUTIONS)),
    ],
    identity: &["name", "at", "targetFile", "target"],
};

/// Every category, in the order they are checked and reported.
pub static CATEGORIES: [&Category; 11] = [
    &SYMBOLS,
    &REFERENCES,
    &IMPORTS,
    &LOCALS,
    &DIAGNOSTICS,
    &METRICS,
    &MODULE,
    &DECLARED_TYPES,
    &NARROWINGS,
    &PARAMETER_CONTEXTS,
    &DEFINITIONS,
];

/// An expected entry: the fields given, in the category's field order.
pub type Entry = Vec<(&'static str, Value)>;

/// The expectations of one category of one file.
#[derive(Debug)]
pub struct CategoryExpectation {
    pub category: &'static Category,
    pub entries: Vec<Entry>,
    /// Every actual entry must be matched (the category is not `partial`).
    pub exhaustive: bool,
}

/// The expectations of one file.
#[derive(Debug)]
pub struct FileExpectation {
    pub path: String,
    pub categories: Vec<CategoryExpectation>,
}

/// One `resolveImports` entry.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResolveImportExpectation {
    pub from: String,
    pub import: String,
    /// Case-relative files the import resolves to (a set).
    pub expect: Option<Vec<String>>,
    /// The exact candidate module paths, in order.
    pub modules: Option<Vec<String>>,
}

/// One case: a tiny workspace and what the plugin must report about it.
#[derive(Debug)]
pub struct Case {
    pub dir: PathBuf,
    /// Every file of the case but `expected.json`, case-relative, sorted.
    pub files: Vec<String>,
    pub files_expected: Vec<FileExpectation>,
    pub resolve_imports: Vec<ResolveImportExpectation>,
}

/// `expected.json` as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct RawExpected {
    #[serde(default)]
    files: BTreeMap<String, RawFile>,
    #[serde(default)]
    resolve_imports: Vec<ResolveImportExpectation>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    symbols: Option<Vec<Map<String, Value>>>,
    references: Option<Vec<Map<String, Value>>>,
    imports: Option<Vec<Map<String, Value>>>,
    locals: Option<Vec<Map<String, Value>>>,
    diagnostics: Option<Vec<Map<String, Value>>>,
    metrics: Option<Vec<Map<String, Value>>>,
    /// One object, or a list of them.
    module: Option<Value>,
    #[serde(rename = "declaredTypes")]
    declared_types: Option<Vec<Map<String, Value>>>,
    narrowings: Option<Vec<Map<String, Value>>>,
    #[serde(rename = "parameterContexts")]
    parameter_contexts: Option<Vec<Map<String, Value>>>,
    definitions: Option<Vec<Map<String, Value>>>,
    #[serde(default)]
    partial: Vec<String>,
}

/// The case directories under `dir`, by name: `dir` itself when it holds an
/// `expected.json`, else each of its subdirectories.
pub fn case_dirs(dir: &Path) -> Result<Vec<(String, PathBuf)>, ConformanceError> {
    let unreadable = |e: std::io::Error| ConformanceError::FixturesUnreadable {
        dir: dir.display().to_string(),
        reason: e.to_string(),
    };
    if dir.join(EXPECTED).is_file() {
        let name = dir
            .canonicalize()
            .ok()
            .and_then(|d| d.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_else(|| dir.display().to_string());
        return Ok(vec![(name, dir.to_path_buf())]);
    }
    let mut cases = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(unreadable)? {
        let entry = entry.map_err(unreadable)?;
        if entry.path().is_dir() {
            cases.push((
                entry.file_name().to_string_lossy().into_owned(),
                entry.path(),
            ));
        }
    }
    cases.sort();
    if cases.is_empty() {
        return Err(ConformanceError::NoCases {
            dir: dir.display().to_string(),
        });
    }
    Ok(cases)
}

/// Why a case cannot be run: `expected.json` missing or malformed.
#[derive(Debug, thiserror::Error)]
pub enum FixtureError {
    #[error("{path}: cannot be read: {reason}")]
    Unreadable { path: String, reason: String },
    #[error("{path}: {reason}")]
    Invalid { path: String, reason: String },
}

/// Load the case in `dir`.
pub fn load_case(dir: &Path) -> Result<Case, FixtureError> {
    let expected_path = dir.join(EXPECTED);
    let shown = expected_path.display().to_string();
    let text = std::fs::read_to_string(&expected_path).map_err(|e| FixtureError::Unreadable {
        path: shown.clone(),
        reason: e.to_string(),
    })?;
    let invalid = |reason: String| FixtureError::Invalid {
        path: shown.clone(),
        reason,
    };
    let raw: RawExpected = serde_json::from_str(&text).map_err(|e| invalid(e.to_string()))?;
    let mut files = Vec::new();
    list_files(dir, "", &mut files).map_err(|e| FixtureError::Unreadable {
        path: dir.display().to_string(),
        reason: e.to_string(),
    })?;
    files.retain(|f| f != EXPECTED);
    files.sort();

    let mut files_expected = Vec::new();
    for (path, raw_file) in raw.files {
        let categories =
            file_expectation(raw_file).map_err(|reason| invalid(format!("{path}: {reason}")))?;
        files_expected.push(FileExpectation { path, categories });
    }
    for (i, r) in raw.resolve_imports.iter().enumerate() {
        if r.expect.is_none() && r.modules.is_none() {
            return Err(invalid(format!(
                "resolveImports[{i}]: give `expect` (files), `modules` (candidates) or both"
            )));
        }
    }
    Ok(Case {
        dir: dir.to_path_buf(),
        files,
        files_expected,
        resolve_imports: raw.resolve_imports,
    })
}

/// Every file under `dir`, as POSIX paths relative to the case root.
fn list_files(dir: &Path, prefix: &str, out: &mut Vec<String>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let relative = if prefix.is_empty() {
            name
        } else {
            format!("{prefix}/{name}")
        };
        let kind = entry.file_type()?;
        if kind.is_dir() {
            list_files(&entry.path(), &relative, out)?;
        } else if entry.path().is_file() {
            out.push(relative);
        }
    }
    Ok(())
}

fn file_expectation(raw: RawFile) -> Result<Vec<CategoryExpectation>, String> {
    for name in &raw.partial {
        if !CATEGORIES.iter().any(|c| c.name == name) {
            return Err(format!(
                "partial: unknown category `{name}` (one of {})",
                CATEGORIES.map(|c| c.name).join(", ")
            ));
        }
    }
    let module = match raw.module {
        None => None,
        Some(Value::Array(items)) => Some(
            items
                .into_iter()
                .map(|v| match v {
                    Value::Object(map) => Ok(map),
                    other => Err(format!("module: expected objects, got {other}")),
                })
                .collect::<Result<Vec<_>, _>>()?,
        ),
        Some(Value::Object(map)) => Some(vec![map]),
        Some(other) => return Err(format!("module: expected an object or a list, got {other}")),
    };
    let given = [
        raw.symbols,
        raw.references,
        raw.imports,
        raw.locals,
        raw.diagnostics,
        raw.metrics,
        module,
        raw.declared_types,
        raw.narrowings,
        raw.parameter_contexts,
        raw.definitions,
    ];
    let mut out = Vec::new();
    for (category, entries) in CATEGORIES.iter().zip(given) {
        let Some(entries) = entries else { continue };
        let entries = entries
            .into_iter()
            .enumerate()
            .map(|(i, map)| {
                if category.kind == Kind::Definitions && !map.contains_key("at") {
                    return Err(format!(
                        "{}[{i}]: give `at`, where the reference starts",
                        category.name
                    ));
                }
                entry(category, map).map_err(|reason| format!("{}[{i}]: {reason}", category.name))
            })
            .collect::<Result<Vec<_>, _>>()?;
        out.push(CategoryExpectation {
            category,
            entries,
            exhaustive: !raw.partial.iter().any(|p| p == category.name),
        });
    }
    Ok(out)
}

/// Check one expected entry's fields and put them in the category's order.
fn entry(category: &Category, map: Map<String, Value>) -> Result<Entry, String> {
    if let Some(unknown) = map
        .keys()
        .find(|k| !category.fields.iter().any(|(name, _)| name == k))
    {
        let known: Vec<&str> = category.fields.iter().map(|(name, _)| *name).collect();
        return Err(format!(
            "unknown field `{unknown}` (fields: {})",
            known.join(", ")
        ));
    }
    if map.is_empty() {
        return Err("an entry needs at least one field".into());
    }
    let mut entry = Vec::new();
    for (name, kind) in category.fields {
        if let Some(value) = map.get(*name) {
            // Fixtures spell enum values as the WIT does (`enum-member`);
            // the tools' spelling (`enum_member`) is read as the same.
            let value = match (kind, value) {
                (F::Enum(_), Value::String(text)) => Value::String(text.replace('_', "-")),
                _ => value.clone(),
            };
            check_value(*kind, &value)
                .map_err(|reason| format!("{name}: {reason}, got {value}"))?;
            entry.push((*name, value));
        }
    }
    Ok(entry)
}

fn check_value(kind: FieldType, value: &Value) -> Result<(), String> {
    let ok = match kind {
        F::Str => value.is_string(),
        F::OptStr => value.is_string() || value.is_null(),
        F::Bool => value.is_boolean(),
        F::Num => value.is_u64(),
        F::OptNum => value.is_u64() || value.is_null(),
        F::Pos => value.as_str().is_some_and(is_position),
        F::OptPos => value.is_null() || value.as_str().is_some_and(is_position),
        F::Span => value.as_str().is_some_and(|s| {
            s.split_once('-')
                .is_some_and(|(a, b)| is_position(a) && is_position(b))
        }),
        F::StrList => value
            .as_array()
            .is_some_and(|items| items.iter().all(Value::is_string)),
        F::NumList => value
            .as_array()
            .is_some_and(|items| items.iter().all(Value::is_u64)),
        F::Enum(values) => {
            return match value.as_str() {
                Some(s) if values.contains(&s) => Ok(()),
                _ => Err(format!("expected one of {}", values.join(", "))),
            };
        }
        F::Halstead => {
            return match value.as_object() {
                Some(map) if !map.is_empty() => {
                    for (key, v) in map {
                        if !HALSTEAD_FIELDS.contains(&key.as_str()) || !v.is_u64() {
                            return Err(format!(
                                "expected numbers for {}",
                                HALSTEAD_FIELDS.join(", ")
                            ));
                        }
                    }
                    Ok(())
                }
                _ => Err(format!(
                    "expected an object with any of {}",
                    HALSTEAD_FIELDS.join(", ")
                )),
            };
        }
    };
    if ok {
        return Ok(());
    }
    Err(match kind {
        F::Str => "expected a string".into(),
        F::OptStr => "expected a string or null".into(),
        F::Bool => "expected true or false".into(),
        F::Num => "expected a non-negative integer".into(),
        F::OptNum => "expected a non-negative integer or null".into(),
        F::Pos => "expected a 1-based \"line:column\"".into(),
        F::OptPos => "expected a 1-based \"line:column\" or null".into(),
        F::Span => "expected a 1-based span \"line:column-line:column\"".into(),
        F::StrList => "expected a list of strings".into(),
        F::NumList => "expected a list of non-negative integers".into(),
        F::Enum(_) | F::Halstead => unreachable!("returned above"),
    })
}

/// `"line:column"`, both numbers 1 or more.
fn is_position(text: &str) -> bool {
    text.split_once(':').is_some_and(|(line, column)| {
        [line, column].iter().all(|n| {
            n.parse::<u32>().is_ok_and(|n| n >= 1) && n.bytes().all(|b| b.is_ascii_digit())
        })
    })
}

/// Whether the file name at the end of `path` matches a manifest pattern
/// from `info().manifests` (`*` matches any run of characters).
pub fn is_manifest(path: &str, patterns: &[String]) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    NamePatterns::new(patterns.iter().map(String::as_str)).matches(name)
}

/// `expected.json`'s text, as cases are written by hand: a line per file
/// and per entry, files in path order, categories and fields in the order
/// of [`CATEGORIES`].
pub fn to_text(expected: &Value) -> String {
    let Some(top) = expected.as_object() else {
        return format!("{expected}\n");
    };
    let mut parts = Vec::new();
    for (key, value) in ordered(top, &["files", "resolveImports"]) {
        let text = match (key.as_str(), value) {
            ("files", Value::Object(files)) => {
                let files: Vec<String> = files
                    .iter()
                    .map(|(path, file)| format!("    {}: {}", quoted(path), file_text(file)))
                    .collect();
                block('{', &files, '}', "  ")
            }
            ("resolveImports", Value::Array(entries)) => {
                let order = ["from", "import", "expect", "modules"];
                let lines: Vec<String> = entries
                    .iter()
                    .map(|entry| format!("    {}", entry_text(entry, &order)))
                    .collect();
                block('[', &lines, ']', "  ")
            }
            (_, other) => other.to_string(),
        };
        parts.push(format!("  {}: {text}", quoted(key)));
    }
    block('{', &parts, '}', "") + "\n"
}

/// One file's expectations: each category a line per entry, then `partial`.
fn file_text(file: &Value) -> String {
    let Some(file) = file.as_object() else {
        return file.to_string();
    };
    let mut names: Vec<&str> = CATEGORIES.iter().map(|c| c.name).collect();
    names.push("partial");
    let lines: Vec<String> = ordered(file, &names)
        .into_iter()
        .map(|(key, value)| {
            let fields: Vec<&str> = CATEGORIES
                .iter()
                .find(|c| c.name == key)
                .map(|c| c.fields.iter().map(|(field, _)| *field).collect())
                .unwrap_or_default();
            let text = match value {
                Value::Array(entries) if !entries.is_empty() && key != "partial" => {
                    let entries: Vec<String> = entries
                        .iter()
                        .map(|entry| format!("        {}", entry_text(entry, &fields)))
                        .collect();
                    block('[', &entries, ']', "      ")
                }
                other => entry_text(other, &fields),
            };
            format!("      {}: {text}", quoted(key))
        })
        .collect();
    block('{', &lines, '}', "    ")
}

/// An entry on one line, its fields in `order` (others after, by name).
fn entry_text(entry: &Value, order: &[&str]) -> String {
    match entry {
        Value::Object(map) => {
            let fields: Vec<String> = ordered(map, order)
                .into_iter()
                .map(|(key, value)| format!("{}: {}", quoted(key), entry_text(value, &[])))
                .collect();
            format!("{{{}}}", fields.join(", "))
        }
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(|item| entry_text(item, &[])).collect();
            format!("[{}]", items.join(", "))
        }
        plain => plain.to_string(),
    }
}

/// `map`'s entries, those named in `order` first in that order.
fn ordered<'a>(map: &'a Map<String, Value>, order: &[&str]) -> Vec<(&'a String, &'a Value)> {
    let rank = |key: &str| order.iter().position(|k| *k == key).unwrap_or(order.len());
    let mut entries: Vec<_> = map.iter().collect();
    entries.sort_by(|(a, _), (b, _)| rank(a).cmp(&rank(b)).then_with(|| a.cmp(b)));
    entries
}

/// `lines` between `open` and `close`, one per line, the close indented
/// by `indent`; empty: `open` and `close` alone.
fn block(open: char, lines: &[String], close: char, indent: &str) -> String {
    if lines.is_empty() {
        return format!("{open}{close}");
    }
    format!("{open}\n{}\n{indent}{close}", lines.join(",\n"))
}

fn quoted(text: &str) -> String {
    Value::from(text).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manifest_patterns() {
        let patterns = vec!["Cargo.toml".to_string(), "*.csproj".to_string()];
        assert!(is_manifest("crates/a/Cargo.toml", &patterns));
        assert!(is_manifest("src/App.csproj", &patterns));
        assert!(!is_manifest("src/App.csproj.user", &patterns));
        assert!(!is_manifest("Cargo.lock", &patterns));
    }

    #[test]
    fn enum_values_are_read_in_either_spelling() {
        let map = |kind: &str| {
            serde_json::json!({ "name": "Red", "kind": kind })
                .as_object()
                .cloned()
                .unwrap_or_default()
        };
        for spelling in ["enum-member", "enum_member"] {
            let read = entry(&SYMBOLS, map(spelling)).expect("accepted");
            assert_eq!(read[1], ("kind", Value::String("enum-member".into())));
        }
        let refused = entry(&SYMBOLS, map("enum member")).unwrap_err();
        assert!(refused.contains("expected one of"), "{refused}");
    }

    #[test]
    fn positions_are_one_based() {
        assert!(is_position("1:1"));
        assert!(!is_position("0:1"));
        assert!(!is_position("1:+1"));
        assert!(!is_position("3"));
    }
}
