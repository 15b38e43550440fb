//! `analyze.quality`: per-function complexity from the plugins' metrics
//! (cyclomatic and cognitive complexity, nesting, parameters, length) and
//! the maintainability index computed from them, against thresholds the
//! request may set (the defaults are the usual ones, echoed in the
//! answer's metadata). `smells` and `readability` are in `smells.rs`.

use std::sync::Arc;

use serde_json::{Map, Value, json};

use super::{Finding, Found, Location, Severity, SymbolIdentifier, kind_word};
use lingo_analysis::{Analysis, Range, qualified_name};
use lingo_index::FileEntry;
use lingo_model::FunctionMetrics;

/// The kinds served.
pub const QUALITY_KINDS: &[&str] = &["complexity", "maintainability", "smells", "readability"];

/// The limits a function is held to.
#[derive(Debug, Clone, PartialEq)]
pub struct Thresholds {
    pub cyclomatic_complexity: f64,
    pub cognitive_complexity: f64,
    pub nesting_depth: f64,
    pub parameter_count: f64,
    pub function_length: f64,
    /// Below it a function is hard to maintain (0–100, Visual Studio's scale:
    /// under 10 is low, under 20 moderate).
    pub maintainability_index: f64,
    /// Members a type may have (smells).
    pub class_members: f64,
    /// Fewest characters of a declaration's name (readability).
    pub name_length: f64,
}

impl Default for Thresholds {
    fn default() -> Self {
        Thresholds {
            cyclomatic_complexity: 10.0,
            cognitive_complexity: 15.0,
            nesting_depth: 4.0,
            parameter_count: 5.0,
            function_length: 60.0,
            maintainability_index: 20.0,
            class_members: 20.0,
            name_length: 3.0,
        }
    }
}

impl Thresholds {
    /// The names the request and the answer use.
    pub const KEYS: [&str; 8] = [
        "cyclomatic_complexity",
        "cognitive_complexity",
        "nesting_depth",
        "parameter_count",
        "function_length",
        "maintainability_index",
        "class_members",
        "name_length",
    ];

    /// The thresholds with `key` set; `None` for an unknown key.
    pub fn with(mut self, key: &str, value: f64) -> Option<Self> {
        match key {
            "cyclomatic_complexity" => self.cyclomatic_complexity = value,
            "cognitive_complexity" => self.cognitive_complexity = value,
            "nesting_depth" => self.nesting_depth = value,
            "parameter_count" => self.parameter_count = value,
            "function_length" => self.function_length = value,
            "maintainability_index" => self.maintainability_index = value,
            "class_members" => self.class_members = value,
            "name_length" => self.name_length = value,
            _ => return None,
        }
        Some(self)
    }

    fn as_map(&self) -> Map<String, Value> {
        let values = [
            self.cyclomatic_complexity,
            self.cognitive_complexity,
            self.nesting_depth,
            self.parameter_count,
            self.function_length,
            self.maintainability_index,
            self.class_members,
            self.name_length,
        ];
        Self::KEYS
            .iter()
            .zip(values)
            .map(|(k, v)| (k.to_string(), json!(v)))
            .collect()
    }
}

/// The maintainability index of a function (0–100): the SEI formula
/// rescaled as Visual Studio does, `max(0, (171 − 5.2 ln V − 0.23 CC −
/// 16.2 ln LOC) × 100 / 171)`, with V the Halstead volume, CC the
/// cyclomatic complexity and LOC the lines of code.
pub fn maintainability_index(m: &FunctionMetrics) -> f64 {
    let h = &m.halstead;
    let length = (h.total_operators + h.total_operands) as f64;
    let vocabulary = (h.distinct_operators + h.distinct_operands) as f64;
    let volume = if vocabulary > 1.0 {
        length * vocabulary.log2()
    } else {
        0.0
    };
    let ln = |x: f64| if x > 1.0 { x.ln() } else { 0.0 };
    let lines = f64::from(m.code_lines.max(1));
    let raw = 171.0 - 5.2 * ln(volume) - 0.23 * f64::from(m.cyclomatic) - 16.2 * ln(lines);
    (raw * 100.0 / 171.0).clamp(0.0, 100.0)
}

/// The quality findings of `files` of kind `kind` (one of [`QUALITY_KINDS`]).
pub fn quality(
    _analysis: &Analysis,
    files: &[Arc<FileEntry>],
    kind: &str,
    thresholds: &Thresholds,
) -> Found {
    if matches!(kind, "smells" | "readability") {
        let findings = if kind == "smells" {
            super::smells::smells(files, thresholds)
        } else {
            super::smells::readability(files, thresholds)
        };
        return Found {
            findings,
            files_analyzed: files.len(),
            symbols_analyzed: super::symbol_count(files),
            thresholds: thresholds.as_map(),
            incomplete_reasons: Vec::new(),
        };
    }
    let mut findings = Vec::new();
    let mut symbols_analyzed = 0;
    for file in files {
        let Ok(facts) = file.facts() else { continue };
        for m in &facts.metrics {
            let Some(symbol) = facts.symbols.get(m.symbol as usize) else {
                continue;
            };
            symbols_analyzed += 1;
            let mi = maintainability_index(m);
            let mut metrics = Map::new();
            metrics.insert("cyclomatic_complexity".into(), json!(m.cyclomatic));
            metrics.insert("cognitive_complexity".into(), json!(m.cognitive));
            metrics.insert("nesting_depth".into(), json!(m.max_nesting));
            metrics.insert("parameter_count".into(), json!(m.parameters));
            metrics.insert("function_length".into(), json!(m.lines));
            metrics.insert(
                "maintainability_index".into(),
                json!((mi * 10.0).round() / 10.0),
            );
            let name = qualified_name(file, m.symbol as usize, symbol);
            let judged = match kind {
                "maintainability" => maintainability(mi, thresholds, &name),
                _ => complexity(m, thresholds, &name),
            };
            let Some((finding_kind, severity, message)) = judged else {
                continue;
            };
            findings.push(Finding {
                id: String::new(),
                kind: finding_kind,
                severity,
                location: Location {
                    file_path: file.path.clone(),
                    range: Range::from(&symbol.span),
                },
                symbol: Some(SymbolIdentifier {
                    symbol: name,
                    symbol_kind: kind_word(symbol.kind),
                    language: facts.language.clone(),
                }),
                metrics,
                message,
                // Splitting a function is not among lingo's refactorings:
                // nothing here is actionable by a tool.
                suggestions: Vec::new(),
            });
        }
    }
    Found {
        findings,
        files_analyzed: files.len(),
        symbols_analyzed,
        thresholds: thresholds.as_map(),
        incomplete_reasons: Vec::new(),
    }
}

/// A complexity hotspot: high when the cyclomatic or cognitive complexity
/// is twice its threshold, medium when either exceeds it, low when only
/// nesting, parameters or length do.
fn complexity(
    m: &FunctionMetrics,
    t: &Thresholds,
    name: &str,
) -> Option<(&'static str, Severity, String)> {
    let over = |value: u32, limit: f64| f64::from(value) > limit;
    let mut why = Vec::new();
    for (label, value, limit) in [
        (
            "cyclomatic complexity",
            m.cyclomatic,
            t.cyclomatic_complexity,
        ),
        ("cognitive complexity", m.cognitive, t.cognitive_complexity),
        ("nesting depth", m.max_nesting, t.nesting_depth),
        ("parameters", m.parameters, t.parameter_count),
        ("lines", m.lines, t.function_length),
    ] {
        if over(value, limit) {
            why.push(format!("{label} {value} > {limit}"));
        }
    }
    if why.is_empty() {
        return None;
    }
    let severity = if over(m.cyclomatic, 2.0 * t.cyclomatic_complexity)
        || over(m.cognitive, 2.0 * t.cognitive_complexity)
    {
        Severity::High
    } else if over(m.cyclomatic, t.cyclomatic_complexity)
        || over(m.cognitive, t.cognitive_complexity)
    {
        Severity::Medium
    } else {
        Severity::Low
    };
    Some((
        "complexity_hotspot",
        severity,
        format!("`{name}` is complex: {}", why.join(", ")),
    ))
}

/// Low maintainability: high under half the threshold, medium under it.
fn maintainability(
    mi: f64,
    t: &Thresholds,
    name: &str,
) -> Option<(&'static str, Severity, String)> {
    if mi >= t.maintainability_index {
        return None;
    }
    let severity = if mi < t.maintainability_index / 2.0 {
        Severity::High
    } else {
        Severity::Medium
    };
    Some((
        "low_maintainability",
        severity,
        format!(
            "`{name}` has a maintainability index of {:.1} (under {})",
            mi, t.maintainability_index
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use lingo_model::Halstead;

    fn function(
        cyclomatic: u32,
        code_lines: u32,
        operators: u32,
        operands: u32,
    ) -> FunctionMetrics {
        FunctionMetrics {
            symbol: 0,
            cyclomatic,
            cognitive: 0,
            max_nesting: 0,
            parameters: 0,
            lines: code_lines,
            code_lines,
            comment_lines: 0,
            halstead: Halstead {
                distinct_operators: operators,
                distinct_operands: operands,
                total_operators: operators * 2,
                total_operands: operands * 2,
            },
        }
    }

    #[test]
    fn the_maintainability_index_follows_the_formula() {
        // V = 40 × log2(20) = 172.88; (171 − 5.2 ln V − 0.23 × 3 − 16.2 ln 10) × 100 / 171.
        let m = function(3, 10, 10, 10);
        let expected =
            (171.0 - 5.2 * 172.877_f64.ln() - 0.23 * 3.0 - 16.2 * 10f64.ln()) * 100.0 / 171.0;
        assert!(
            (maintainability_index(&m) - expected).abs() < 0.01,
            "{}",
            maintainability_index(&m)
        );
        // A one-line function of one token loses only its one path.
        let trivial = maintainability_index(&function(1, 1, 1, 0));
        assert!(
            (trivial - (171.0 - 0.23) * 100.0 / 171.0).abs() < 1e-9,
            "{trivial}"
        );
        // Never below zero.
        assert_eq!(
            maintainability_index(&function(500, 100_000, 500, 500)),
            0.0
        );
    }

    #[test]
    fn complexity_severity_grows_with_the_excess() {
        let t = Thresholds::default();
        let judged = |cyclomatic, lines| {
            let mut m = function(cyclomatic, lines, 1, 1);
            m.lines = lines;
            complexity(&m, &t, "f").map(|(_, s, _)| s)
        };
        assert_eq!(judged(5, 10), None);
        assert_eq!(judged(11, 10), Some(Severity::Medium));
        assert_eq!(judged(21, 10), Some(Severity::High));
        assert_eq!(judged(5, 61), Some(Severity::Low));
    }
}
