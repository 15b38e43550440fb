//! `analyze.quality` of kinds `smells` and `readability`, from the
//! plugins' declarations and metrics.
//!
//! Smells, each against the request's thresholds:
//! - `long_parameter_list`: more than `parameter_count` parameters
//!   (medium);
//! - `long_function`: more than `function_length` lines (low; medium at
//!   twice);
//! - `deep_nesting`: blocks nested deeper than `nesting_depth` (medium);
//! - `large_class`: a type with more than `class_members` members
//!   (medium; high at twice).
//!
//! Readability:
//! - `inconsistent_naming`: a declaration whose case style (snake_case,
//!   camelCase, PascalCase, SCREAMING_SNAKE) differs from the style at
//!   least four in five declarations of its language, kind and visibility
//!   in the files analysed use (low; visibility too, since Go writes it in
//!   the case and C# styles private fields apart);
//! - `short_name`: a function, type, field or constant named with fewer
//!   than `name_length` characters, bar common short words (`id`, `io`,
//!   `ok`...) (low);
//! - `unexplained_complexity`: a function over the cyclomatic threshold
//!   without a doc comment (medium).

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::{Map, json};

use super::{Finding, Severity, Thresholds, declaration_finding};
use lingo_index::FileEntry;
use lingo_model::SymbolKind;

/// Short names that read as words.
const SHORT_WORDS: &[&str] = &[
    "id", "io", "ok", "os", "fs", "db", "ui", "op", "fn", "x", "y", "z", "w", "h", "r", "g", "b",
    "a", "to", "of", "is", "at", "on", "in", "or", "as", "by", "up", "rx", "tx", "ip", "eq", "ne",
    "lt", "gt", "le", "ge",
];

/// The code smells of `files`.
pub fn smells(files: &[Arc<FileEntry>], t: &Thresholds) -> Vec<Finding> {
    let mut findings = Vec::new();
    for file in files {
        let Ok(facts) = file.facts() else { continue };
        for m in &facts.metrics {
            if facts.symbols.get(m.symbol as usize).is_none() {
                continue;
            }
            let index = m.symbol as usize;
            let mut push = |kind, severity, metric: &str, value: u32, what: String| {
                let mut metrics = Map::new();
                metrics.insert(metric.into(), json!(value));
                findings.push(declaration_finding(
                    file,
                    facts,
                    index,
                    (kind, severity),
                    metrics,
                    |name| format!("`{name}` {what}"),
                ));
            };
            if f64::from(m.parameters) > t.parameter_count {
                push(
                    "long_parameter_list",
                    Severity::Medium,
                    "parameter_count",
                    m.parameters,
                    format!(
                        "takes {} parameters (at most {})",
                        m.parameters, t.parameter_count
                    ),
                );
            }
            if f64::from(m.lines) > t.function_length {
                let severity = if f64::from(m.lines) > 2.0 * t.function_length {
                    Severity::Medium
                } else {
                    Severity::Low
                };
                push(
                    "long_function",
                    severity,
                    "function_length",
                    m.lines,
                    format!("is {} lines long (at most {})", m.lines, t.function_length),
                );
            }
            if f64::from(m.max_nesting) > t.nesting_depth {
                push(
                    "deep_nesting",
                    Severity::Medium,
                    "nesting_depth",
                    m.max_nesting,
                    format!(
                        "nests blocks {} deep (at most {})",
                        m.max_nesting, t.nesting_depth
                    ),
                );
            }
        }
        let mut members: HashMap<u32, u32> = HashMap::new();
        for symbol in &facts.symbols {
            if let Some(parent) = symbol.container {
                *members.entry(parent).or_default() += 1;
            }
        }
        let mut types: Vec<(u32, u32)> = members
            .into_iter()
            .filter(|(parent, _)| {
                facts.symbols.get(*parent as usize).is_some_and(|s| {
                    matches!(
                        s.kind,
                        SymbolKind::Class | SymbolKind::Struct | SymbolKind::Interface
                    )
                })
            })
            .collect();
        types.sort();
        for (parent, count) in types {
            if f64::from(count) <= t.class_members {
                continue;
            }
            let severity = if f64::from(count) > 2.0 * t.class_members {
                Severity::High
            } else {
                Severity::Medium
            };
            let mut metrics = Map::new();
            metrics.insert("member_count".into(), json!(count));
            findings.push(declaration_finding(
                file,
                facts,
                parent as usize,
                ("large_class", severity),
                metrics,
                |name| format!("`{name}` has {count} members (at most {})", t.class_members),
            ));
        }
    }
    findings
}

/// How a name is cased.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Case {
    Snake,
    Camel,
    Pascal,
    ScreamingSnake,
}

impl Case {
    /// The style of `name`, when it has one (a single lowercase word fits
    /// snake and camel alike: none).
    fn of(name: &str) -> Option<Case> {
        let letters: Vec<char> = name
            .trim_matches('_')
            .chars()
            .filter(|c| c.is_alphabetic())
            .collect();
        let first = *letters.first()?;
        let has_lower = letters.iter().any(|c| c.is_lowercase());
        let has_upper = letters.iter().any(|c| c.is_uppercase());
        let underscore = name.trim_matches('_').contains('_');
        match (first.is_uppercase(), has_lower, has_upper, underscore) {
            // All capitals without an underscore is an acronym as often as
            // a constant (`ID`, `CRLF`): no style.
            (true, false, _, true) => Some(Case::ScreamingSnake),
            (true, true, _, false) => Some(Case::Pascal),
            (false, true, false, true) => Some(Case::Snake),
            (false, true, true, false) => Some(Case::Camel),
            _ => None,
        }
    }

    fn as_str(self) -> &'static str {
        match self {
            Case::Snake => "snake_case",
            Case::Camel => "camelCase",
            Case::Pascal => "PascalCase",
            Case::ScreamingSnake => "SCREAMING_SNAKE_CASE",
        }
    }
}

/// The readability findings of `files`.
pub fn readability(files: &[Arc<FileEntry>], t: &Thresholds) -> Vec<Finding> {
    // The case styles of each (language, kind), counted.
    type Key = (String, SymbolKind, lingo_model::Visibility);
    let mut styles: HashMap<Key, HashMap<Case, usize>> = HashMap::new();
    for file in files {
        let Ok(facts) = file.facts() else { continue };
        for symbol in &facts.symbols {
            if let Some(case) = Case::of(&symbol.name) {
                *styles
                    .entry((facts.language.clone(), symbol.kind, symbol.visibility))
                    .or_default()
                    .entry(case)
                    .or_default() += 1;
            }
        }
    }
    let dominant: HashMap<Key, (Case, usize, usize)> = styles
        .into_iter()
        .filter_map(|(key, counts)| {
            let total: usize = counts.values().sum();
            let (case, count) = counts.into_iter().max_by_key(|(c, n)| (*n, c.as_str()))?;
            (total >= 5 && count * 5 >= total * 4).then_some((key, (case, count, total)))
        })
        .collect();
    let mut findings = Vec::new();
    for file in files {
        let Ok(facts) = file.facts() else { continue };
        let measured: HashMap<u32, u32> = facts
            .metrics
            .iter()
            .map(|m| (m.symbol, m.cyclomatic))
            .collect();
        for (index, symbol) in facts.symbols.iter().enumerate() {
            if let (Some(case), Some(&(usual, count, total))) = (
                Case::of(&symbol.name),
                dominant.get(&(facts.language.clone(), symbol.kind, symbol.visibility)),
            ) && case != usual
            {
                let mut metrics = Map::new();
                metrics.insert("case".into(), json!(case.as_str()));
                metrics.insert("usual_case".into(), json!(usual.as_str()));
                findings.push(declaration_finding(
                    file,
                    facts,
                    index,
                    ("inconsistent_naming", Severity::Low),
                    metrics,
                    |name| {
                        format!(
                            "`{name}` is {} where {count} of {total} {} {} {}s are {}",
                            case.as_str(),
                            symbol.visibility.as_str(),
                            facts.language,
                            symbol.kind.as_str().to_ascii_lowercase(),
                            usual.as_str()
                        )
                    },
                ));
            }
            let named_kind = matches!(
                symbol.kind,
                SymbolKind::Function
                    | SymbolKind::Method
                    | SymbolKind::Class
                    | SymbolKind::Struct
                    | SymbolKind::Interface
                    | SymbolKind::Enum
                    | SymbolKind::Field
                    | SymbolKind::Property
                    | SymbolKind::Constant
            );
            let length = symbol.name.trim_matches('_').chars().count();
            if named_kind
                && length > 0
                && (length as f64) < t.name_length
                && !SHORT_WORDS.contains(&symbol.name.to_ascii_lowercase().as_str())
            {
                let mut metrics = Map::new();
                metrics.insert("name_length".into(), json!(length));
                findings.push(declaration_finding(
                    file,
                    facts,
                    index,
                    ("short_name", Severity::Low),
                    metrics,
                    |name| {
                        format!(
                            "`{name}` has a name of {length} characters (at least {})",
                            t.name_length
                        )
                    },
                ));
            }
            if let Some(&cyclomatic) = measured.get(&(index as u32))
                && f64::from(cyclomatic) > t.cyclomatic_complexity
                && symbol.doc.as_deref().is_none_or(|d| d.trim().is_empty())
            {
                let mut metrics = Map::new();
                metrics.insert("cyclomatic_complexity".into(), json!(cyclomatic));
                findings.push(declaration_finding(
                    file,
                    facts,
                    index,
                    ("unexplained_complexity", Severity::Medium),
                    metrics,
                    |name| {
                        format!(
                            "`{name}` has a cyclomatic complexity of {cyclomatic} and no doc comment saying what it does"
                        )
                    },
                ));
            }
        }
    }
    findings
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn case_styles_are_told_apart() {
        assert_eq!(Case::of("parse_escape"), Some(Case::Snake));
        assert_eq!(Case::of("parseEscape"), Some(Case::Camel));
        assert_eq!(Case::of("ParseEscape"), Some(Case::Pascal));
        assert_eq!(Case::of("MAX_DEPTH"), Some(Case::ScreamingSnake));
        assert_eq!(Case::of("parse"), None);
        assert_eq!(Case::of("_private_thing"), Some(Case::Snake));
        assert_eq!(Case::of("X"), None);
        assert_eq!(Case::of("ID"), None);
    }
}
