//! Test coverage reports for the quality gate: lcov (`lcov.info`) and
//! Cobertura XML (`coverage.xml`), read into line hits per workspace file.

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

use quick_xml::events::Event;

/// Largest report read, in bytes.
pub const MAX_REPORT_BYTES: usize = 64 << 20;

/// Where a report is looked for when neither the call nor `lingo.toml`
/// names one, in this order.
pub const DEFAULT_REPORTS: &[&str] = &[
    "lcov.info",
    "coverage/lcov.info",
    "coverage.xml",
    "coverage/cobertura-coverage.xml",
    "cobertura.xml",
];

/// Why a report cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum CoverageError {
    #[error("the report is {0} bytes; at most {MAX_REPORT_BYTES} are read")]
    TooLarge(usize),
    #[error("line {line}: {reason}")]
    Lcov { line: usize, reason: String },
    #[error("Cobertura XML at byte {offset}: {reason}")]
    Cobertura { offset: u64, reason: String },
    #[error("the report names no file")]
    Empty,
}

/// The lines of one file a report counts, and how many of them ran.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FileCoverage {
    pub lines: u64,
    pub covered: u64,
}

impl FileCoverage {
    /// Covered lines in percent (100 for a file with no countable line).
    pub fn percent(&self) -> f64 {
        if self.lines == 0 {
            100.0
        } else {
            100.0 * self.covered as f64 / self.lines as f64
        }
    }
}

/// A report: per workspace-relative path, the hits of each counted line.
#[derive(Debug, Clone, Default)]
pub struct CoverageReport {
    hits: BTreeMap<String, BTreeMap<u64, u64>>,
    /// Files the report names outside the workspace, left out.
    pub outside: usize,
}

impl CoverageReport {
    /// Read `bytes` (lcov, or Cobertura XML when it starts with `<`); the
    /// report's paths are made relative to `root` (an absolute path inside
    /// it, or one relative to it or to a Cobertura `<source>`).
    pub fn parse(bytes: &[u8], root: &Path) -> Result<CoverageReport, CoverageError> {
        if bytes.len() > MAX_REPORT_BYTES {
            return Err(CoverageError::TooLarge(bytes.len()));
        }
        let text = String::from_utf8_lossy(bytes);
        let body = text.trim_start_matches('\u{feff}').trim_start();
        let report = if body.starts_with('<') {
            cobertura(body, root)?
        } else {
            lcov(body, root)?
        };
        if report.hits.is_empty() && report.outside == 0 {
            return Err(CoverageError::Empty);
        }
        Ok(report)
    }

    /// The coverage of workspace file `path`, when the report names it.
    pub fn file(&self, path: &str) -> Option<FileCoverage> {
        self.hits.get(path).map(|lines| FileCoverage {
            lines: lines.len() as u64,
            covered: lines.values().filter(|hits| **hits > 0).count() as u64,
        })
    }

    /// How many files the report names inside the workspace.
    pub fn files(&self) -> usize {
        self.hits.len()
    }

    /// Count `hits` more for `line` of `path` (none: outside the workspace).
    fn add(&mut self, path: Option<String>, line: u64, hits: u64) {
        if let Some(path) = path {
            let seen = self.hits.entry(path).or_default().entry(line).or_default();
            *seen = seen.saturating_add(hits);
        }
    }
}

/// lcov's tracefile: `SF:` opens a file's record, `DA:line,hits` counts a
/// line, `end_of_record` closes it; other records are not needed here.
fn lcov(text: &str, root: &Path) -> Result<CoverageReport, CoverageError> {
    let mut report = CoverageReport::default();
    let mut current: Option<Option<String>> = None;
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        let error = |reason: &str| CoverageError::Lcov {
            line: number + 1,
            reason: reason.to_string(),
        };
        if let Some(path) = line.strip_prefix("SF:") {
            let relative = workspace_path(root, &[], path);
            if relative.is_none() {
                report.outside += 1;
            }
            current = Some(relative);
        } else if let Some(record) = line.strip_prefix("DA:") {
            let Some(file) = &current else {
                return Err(error("DA before any SF"));
            };
            let mut fields = record.split(',');
            let (Some(at), Some(hits)) = (fields.next(), fields.next()) else {
                return Err(error("expected DA:<line>,<hits>"));
            };
            let at: u64 = at
                .trim()
                .parse()
                .map_err(|_| error("line is not a number"))?;
            // Some tools write hit counts as floats or negatives; any
            // execution counts.
            let hits = hits.trim();
            let hits = match hits.parse::<u64>() {
                Ok(n) => n,
                Err(_) => match hits.parse::<f64>() {
                    Ok(f) if f > 0.0 => 1,
                    Ok(_) => 0,
                    Err(_) => return Err(error("hits is not a number")),
                },
            };
            report.add(file.clone(), at, hits);
        } else if line == "end_of_record" {
            current = None;
        }
    }
    Ok(report)
}

/// Cobertura's `<source>` folders and each `<class filename=..>`'s
/// `<line number=.. hits=..>` (a method's lines repeat its class's).
fn cobertura(text: &str, root: &Path) -> Result<CoverageReport, CoverageError> {
    let mut reader = quick_xml::Reader::from_str(text);
    let mut report = CoverageReport::default();
    let mut sources: Vec<PathBuf> = Vec::new();
    let mut in_source = false;
    let mut class: Option<Option<String>> = None;
    loop {
        let offset = reader.buffer_position();
        let error = |reason: String| CoverageError::Cobertura { offset, reason };
        match reader.read_event() {
            Err(e) => return Err(error(e.to_string())),
            Ok(Event::Eof) => break,
            Ok(Event::Start(tag)) | Ok(Event::Empty(tag)) => match tag.name().as_ref() {
                b"source" => in_source = true,
                b"class" => {
                    let filename = attribute(&tag, b"filename").map_err(error)?;
                    let relative = filename
                        .as_deref()
                        .and_then(|f| workspace_path(root, &sources, f));
                    if relative.is_none() {
                        report.outside += 1;
                    }
                    class = Some(relative);
                }
                b"line" => {
                    if let Some(file) = &class {
                        let number = attribute(&tag, b"number").map_err(error)?;
                        let hits = attribute(&tag, b"hits").map_err(error)?;
                        let (Some(number), Some(hits)) = (number, hits) else {
                            return Err(error("a <line> without number or hits".into()));
                        };
                        let number: u64 = number
                            .parse()
                            .map_err(|_| error(format!("line number `{number}`")))?;
                        let hits = hits.parse::<u64>().unwrap_or(0);
                        // A line listed twice (class and method) counts once.
                        let path = file.clone();
                        if let Some(path) = path {
                            let seen = report
                                .hits
                                .entry(path)
                                .or_default()
                                .entry(number)
                                .or_default();
                            *seen = (*seen).max(hits);
                        }
                    }
                }
                _ => {}
            },
            Ok(Event::Text(text)) if in_source => {
                let folder = text.decode().map_err(|e| error(e.to_string()))?;
                sources.push(PathBuf::from(folder.trim()));
            }
            Ok(Event::End(tag)) => match tag.name().as_ref() {
                b"source" => in_source = false,
                b"class" => class = None,
                _ => {}
            },
            Ok(_) => {}
        }
    }
    Ok(report)
}

/// The value of attribute `name` of `tag`, unescaped.
fn attribute(tag: &quick_xml::events::BytesStart, name: &[u8]) -> Result<Option<String>, String> {
    for attribute in tag.attributes() {
        let attribute = attribute.map_err(|e| e.to_string())?;
        if attribute.key.as_ref() == name {
            let value = attribute.unescape_value().map_err(|e| e.to_string())?;
            return Ok(Some(value.into_owned()));
        }
    }
    Ok(None)
}

/// `path` as a workspace-relative path: absolute inside `root`, or
/// relative to one of `sources` inside `root`, or relative to `root`;
/// `None` outside it.
fn workspace_path(root: &Path, sources: &[PathBuf], path: &str) -> Option<String> {
    let given = Path::new(path.trim());
    let candidates: Vec<PathBuf> = if given.is_absolute() {
        vec![given.to_path_buf()]
    } else {
        sources
            .iter()
            .map(|source| source.join(given))
            .chain(std::iter::once(root.join(given)))
            .collect()
    };
    candidates
        .iter()
        .find_map(|candidate| relative_inside(root, candidate))
}

/// `path` relative to `root` with `.` and `..` applied, when inside it.
fn relative_inside(root: &Path, path: &Path) -> Option<String> {
    let mut normal = PathBuf::new();
    for component in path.components() {
        match component {
            Component::ParentDir => {
                normal.pop();
            }
            Component::CurDir => {}
            other => normal.push(other.as_os_str()),
        }
    }
    let relative = normal.strip_prefix(root).ok()?;
    let parts: Vec<&str> = relative
        .components()
        .map(|c| match c {
            Component::Normal(part) => part.to_str(),
            _ => None,
        })
        .collect::<Option<_>>()?;
    (!parts.is_empty()).then(|| parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const LCOV: &str = "SF:calc.py\nDA:1,1\nDA:2,1\nDA:5,1\nDA:7,0\nLF:4\nLH:3\nend_of_record\nSF:/elsewhere/x.py\nDA:1,1\nend_of_record\nSF:/work/app/src/a.rs\nDA:3,0\nDA:3,2\nDA:4,0\nend_of_record\n";

    #[test]
    fn lcov_lines_are_counted_per_workspace_file() {
        let report = CoverageReport::parse(LCOV.as_bytes(), Path::new("/work/app")).unwrap();
        assert_eq!(
            report.file("calc.py"),
            Some(FileCoverage {
                lines: 4,
                covered: 3
            })
        );
        // Two records of one line add up; an absolute path inside the root
        // is the workspace file.
        assert_eq!(
            report.file("src/a.rs"),
            Some(FileCoverage {
                lines: 2,
                covered: 1
            })
        );
        assert_eq!(report.outside, 1);
        assert_eq!(report.files(), 2);
        assert_eq!(report.file("calc.py").unwrap().percent(), 75.0);
    }

    #[test]
    fn cobertura_lines_count_once_and_sources_are_tried() {
        let xml = r#"<?xml version="1.0" ?>
<coverage><sources><source>/build/agent/app</source></sources>
<packages><package name="."><classes>
<class name="a" filename="pkg/a.py"><methods><method name="f"><lines><line number="2" hits="1"/></lines></method></methods>
<lines><line number="1" hits="0"/><line number="2" hits="1"/></lines></class>
</classes></package></packages></coverage>"#;
        let report = CoverageReport::parse(xml.as_bytes(), Path::new("/work/app")).unwrap();
        assert_eq!(
            report.file("pkg/a.py"),
            Some(FileCoverage {
                lines: 2,
                covered: 1
            })
        );
    }

    #[test]
    fn broken_reports_are_refused_with_the_place() {
        for (report, wanted) in [
            ("DA:1,1\n", "line 1: DA before any SF"),
            ("SF:a.py\nDA:x,1\n", "line 2: line is not a number"),
            ("SF:a.py\nDA:1\n", "line 2: expected DA:<line>,<hits>"),
            ("TN:\n", "the report names no file"),
        ] {
            let error = CoverageReport::parse(report.as_bytes(), Path::new("/r")).unwrap_err();
            assert_eq!(error.to_string(), wanted, "{report}");
        }
        let error = CoverageReport::parse(
            b"<coverage><class filename=\"a\"><line number=\"q\" hits=\"1\"/></class></coverage>",
            Path::new("/r"),
        )
        .unwrap_err();
        assert!(error.to_string().contains("line number `q`"), "{error}");
    }

    #[test]
    fn deep_or_huge_input_is_bounded() {
        let deep = "<a>".repeat(100_000);
        // Nesting is not followed recursively: read, then found empty.
        assert!(CoverageReport::parse(deep.as_bytes(), Path::new("/r")).is_err());
        let huge = vec![b' '; MAX_REPORT_BYTES + 1];
        assert!(matches!(
            CoverageReport::parse(&huge, Path::new("/r")),
            Err(CoverageError::TooLarge(_))
        ));
    }
}
