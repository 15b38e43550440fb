//! Text of the list answers: references, implementations, search results,
//! diagnostics and call hierarchies, grouped by file under a budget.

use serde_json::Value;

use super::{
    Request, Writer, certainty, display_container, has_word, is_certain, kind_prefix, line_col,
    plain, qualified_name, relative_to, source_line, str_of, symbol_heading, symbol_title,
};

/// Closing lines of a paged list: what the page and the budget left out,
/// and the arguments of the next page. `shown` items of the page were
/// written; `page` items were in it; `total` in the whole list.
pub(super) fn close_page(
    writer: &mut Writer,
    request: &Request,
    shown: usize,
    page: usize,
    total: Option<u64>,
) {
    let offset = request.offset();
    let next = offset + shown as u64;
    let total = total.unwrap_or(offset + page as u64);
    if next >= total {
        return;
    }
    let why = if shown < page {
        format!("max_tokens {} reached", request.max_tokens)
    } else {
        "page limit reached".to_string()
    };
    writer.always(&format!(
        "... {} more ({why}); next page: {}",
        total - next,
        request.next_page(next)
    ));
}

/// `showing a-b of n` when the answer is one page of several.
pub(super) fn range_note(request: &Request, page: usize, total: u64) -> String {
    let offset = request.offset();
    if offset == 0 && page as u64 >= total {
        return String::new();
    }
    format!(
        ", page {}-{}",
        offset + 1,
        offset + (page as u64).max(1) - u64::from(page == 0)
    )
}

/// `find_references`: the declaration, certain sites by file, guesses, and
/// the same-named sites nothing resolved.
pub fn references(value: &Value, request: &Request, writer: &mut Writer) {
    let items = value["references"].as_array().cloned().unwrap_or_default();
    let completeness = &value["completeness"];
    let total = value["pagination"]["total"].as_u64();
    let certain = completeness["resolved"].as_u64().unwrap_or(0);
    let guessed = match completeness["name_only"].as_u64().unwrap_or(0) {
        0 => String::new(),
        n => format!(" + {n} guessed"),
    };
    // The declaration's own line, when the page lists it, says where it is.
    let symbol = &value["symbol"];
    let declaration_listed = items
        .iter()
        .any(|item| str_of(item, "kind") == Some("declaration"));
    let heading = if declaration_listed {
        symbol_title(symbol)
    } else {
        symbol_heading(symbol, request)
    };
    // Say what is counted: the declaration is listed, not counted.
    let declaration = if declaration_listed {
        ", declaration listed first"
    } else {
        ""
    };
    writer.always(&format!(
        "references of {heading}: {certain} certain{guessed}{declaration}; {}{}",
        references_completeness(completeness),
        range_note(request, items.len(), total.unwrap_or(0)),
    ));
    let context = display_container(&value["symbol"]);
    let shown = sites(&items, context, writer);
    close_page(writer, request, shown, items.len(), total);
    missed_sites(completeness, context, writer);
}

/// Reference items grouped by file, the sites of one source line on one
/// line; returns how many were written.
fn sites(items: &[Value], context: Option<&str>, writer: &mut Writer) -> usize {
    let mut shown = 0;
    let mut rest = items;
    while let Some(first) = rest.first() {
        let run = if str_of(first, "kind") == Some("declaration") {
            1
        } else {
            rest.iter()
                .take_while(|item| on_one_line(first, item))
                .count()
        };
        let (line_items, after) = rest.split_at(run.max(1));
        let text = if str_of(first, "kind") == Some("declaration") {
            let (line, col) = line_col(&first["name_range"]).unwrap_or((0, 0));
            format!(
                "{line}:{col} declaration  {}",
                source_line(str_of(first, "signature").unwrap_or(""))
            )
        } else {
            sites_line(line_items, context)
        };
        if !writer.grouped(str_of(first, "file_path").unwrap_or("?"), &text) {
            break;
        }
        shown += line_items.len();
        rest = after;
    }
    shown
}

/// Whether two reference sites share a printed line: the same source line
/// of the same file, in the same declaration, resolved as surely.
fn on_one_line(a: &Value, b: &Value) -> bool {
    let line = |v: &Value| line_col(&v["range"]).map(|(line, _)| line);
    str_of(b, "kind") != Some("declaration")
        && str_of(a, "file_path") == str_of(b, "file_path")
        && line(a) == line(b)
        && str_of(a, "enclosing") == str_of(b, "enclosing")
        && certainty(a) == certainty(b)
}

/// Items under the line of their file (the item's `path_key`), in order,
/// until the budget is spent; returns how many were written. As in
/// `rg --heading`, an item's line is not indented: it starts with its line
/// number, which sets it apart from the path above it (and saves a token a
/// line).
pub(super) fn grouped(
    items: &[Value],
    path_key: &str,
    writer: &mut Writer,
    line: impl Fn(&Value) -> String,
) -> usize {
    items
        .iter()
        .take_while(|item| writer.grouped(str_of(item, path_key).unwrap_or("?"), &line(item)))
        .count()
}

/// `line:col kind in Enclosing (guess confidence)  source` for the sites
/// of one source line ([`on_one_line`]), the enclosing name relative to
/// `context`: the source once, the columns listed (`36:9,42 type`, or
/// `90:4 type, 29 call` where their kinds differ).
fn sites_line(sites: &[Value], context: Option<&str>) -> String {
    let Some(first) = sites.first() else {
        return String::new();
    };
    let kind = |site: &Value| str_of(site, "kind").unwrap_or("reference").to_string();
    let column = |site: &Value| line_col(&site["range"]).map_or(0, |(_, col)| col);
    let line = line_col(&first["range"]).map_or(0, |(line, _)| line);
    let one_kind = sites.iter().all(|site| kind(site) == kind(first));
    let places = if one_kind {
        let columns: Vec<String> = sites.iter().map(|s| column(s).to_string()).collect();
        format!("{line}:{} {}", columns.join(","), kind(first))
    } else {
        let columns: Vec<String> = sites
            .iter()
            .map(|s| format!("{} {}", column(s), kind(s)))
            .collect();
        format!("{line}:{}", columns.join(", "))
    };
    let enclosing = str_of(first, "enclosing")
        .map(|e| format!(" in {}", relative_to(e, context)))
        .unwrap_or_default();
    format!(
        "{places}{enclosing}{}  {}",
        certainty(first),
        source_line(str_of(first, "line_text").unwrap_or(""))
    )
}

/// `complete`, or what a reference list may lack, counted: guesses are
/// labelled on their own lines and not repeated here.
fn references_completeness(completeness: &Value) -> String {
    if completeness["complete"].as_bool().unwrap_or(false) {
        return "complete".into();
    }
    let mut lacks = Vec::new();
    if let Some(n) = completeness["possibly_missed"].as_u64().filter(|n| *n > 0) {
        lacks.push(format!("{n} same-named uses unresolved"));
    }
    if let Some(n) = completeness["unparsed_mentions"]
        .as_u64()
        .filter(|n| *n > 0)
    {
        lacks.push(format!("{n} mentions in code with syntax errors"));
    }
    if completeness["incomplete"].is_object() || completeness["unanalyzed_files"].is_array() {
        lacks.push("files or imports not analysed".into());
    }
    if lacks.is_empty() && completeness["name_only"].as_u64().unwrap_or(0) > 0 {
        return "certain ones complete, guesses labelled".into();
    }
    if lacks.is_empty() {
        return completeness_word(completeness);
    }
    format!("may miss: {}", lacks.join(", "))
}

/// `complete` or `incomplete: why`.
fn completeness_word(completeness: &Value) -> String {
    if completeness["complete"].as_bool().unwrap_or(false) {
        "complete".into()
    } else {
        format!(
            "incomplete: {}",
            str_of(completeness, "note").unwrap_or("some uses may be missing")
        )
    }
}

/// The same-named sites no resolution reached, which may be uses.
fn missed_sites(completeness: &Value, context: Option<&str>, writer: &mut Writer) {
    let Some(missed) = completeness["possibly_missed_sites"].as_array() else {
        return;
    };
    if missed.is_empty() {
        return;
    }
    writer.end_group();
    writer.always(&format!(
        "possibly missed ({} same-named, unresolved; first {}):",
        completeness["possibly_missed"].as_u64().unwrap_or(0),
        missed.len()
    ));
    sites(missed, context, writer);
}

/// `find_implementations`: the implementing and extending declarations.
pub fn implementations(value: &Value, request: &Request, writer: &mut Writer) {
    let items = value["implementations"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let total = value["pagination"]["total"].as_u64();
    writer.always(&format!(
        "implementations of {}: {}; {}{}",
        symbol_heading(&value["symbol"], request),
        total.unwrap_or(items.len() as u64),
        completeness_word(&value["completeness"]),
        range_note(request, items.len(), total.unwrap_or(0)),
    ));
    let shown = grouped(&items, "file_path", writer, |item| {
        let (line, col) = line_col(&item["name_range"]).unwrap_or((0, 0));
        let depth = match item["depth"].as_u64() {
            Some(d) if d > 1 => format!(" depth {d}"),
            _ => String::new(),
        };
        format!(
            "{line}:{col} {} {}{depth}{}  {}",
            str_of(item, "relation").unwrap_or("IMPLEMENTS"),
            qualified_name(item),
            certainty(item),
            source_line(str_of(item, "signature").unwrap_or(""))
        )
    });
    close_page(writer, request, shown, items.len(), total);
}

/// `search_symbols`: declarations by file, `line kind Container.name  signature`.
pub fn search(value: &Value, request: &Request, writer: &mut Writer) {
    let items = value["symbols"].as_array().cloned().unwrap_or_default();
    let total = value["total"].as_u64();
    let query = request
        .arguments
        .get("query")
        .map(plain)
        .unwrap_or_default();
    writer.always(&format!(
        "symbols matching {query:?}: {}{}",
        total.unwrap_or(items.len() as u64),
        range_note(request, items.len(), total.unwrap_or(0)),
    ));
    let shown = grouped(&items, "filePath", writer, search_line);
    close_page(writer, request, shown, items.len(), total);
}

/// `line kind Container.name  signature`, each part only where the
/// signature does not already say it: `12 in Action: requestId(id)`.
fn search_line(item: &Value) -> String {
    let signature = source_line(str_of(item, "signature").unwrap_or(""));
    let name = str_of(item, "name").unwrap_or("?");
    let kind = kind_prefix(&signature, str_of(item, "kind").unwrap_or("symbol"));
    let container = str_of(item, "containerName").filter(|c| !c.is_empty());
    let line = item["line"].as_u64().unwrap_or(0);
    match (container, has_word(&signature, name)) {
        (None, true) => format!("{line} {kind}{signature}"),
        (Some(container), true) => format!("{line} {kind}in {container}: {signature}"),
        (None, false) => format!("{line} {kind}{name}  {signature}"),
        (Some(container), false) => format!("{line} {kind}{container}.{name}  {signature}"),
    }
    .trim_end()
    .to_string()
}

/// `get_diagnostics`: problems by file, `line:col severity code: message`.
pub fn diagnostics(value: &Value, request: &Request, writer: &mut Writer) {
    let items = value["diagnostics"].as_array().cloned().unwrap_or_default();
    let summary = &value["summary"];
    let total = summary["total"].as_u64();
    writer.always(&format!(
        "diagnostics: {} in {} files checked{}",
        total.unwrap_or(items.len() as u64),
        summary["files_checked"].as_u64().unwrap_or(0),
        range_note(request, items.len(), total.unwrap_or(0)),
    ));
    let shown = grouped(&items, "file_path", writer, |item| {
        let (line, col) = line_col(&item["range"]).unwrap_or((0, 0));
        format!(
            "{line}:{col} {} {}: {}",
            str_of(item, "severity").unwrap_or("error"),
            str_of(item, "code").unwrap_or(""),
            source_line(str_of(item, "message").unwrap_or(""))
        )
    });
    close_page(writer, request, shown, items.len(), total);
    let unanalyzed = value["unanalyzed_files"].as_array().map_or(0, Vec::len);
    if unanalyzed > 0 {
        writer.always(&format!("{unanalyzed} files could not be analysed"));
    }
}

/// `get_call_hierarchy`: callers and callees as indented trees (direct
/// calls unindented, each level below two spaces more), one line
/// per call: `Container.name (path:line) at line:col, ...`. With one
/// direction asked, what was asked, the count and completeness are one
/// header line.
pub fn call_hierarchy(value: &Value, request: &Request, writer: &mut Writer) {
    let directions: Vec<(&str, &str, &str)> = [
        ("incoming", "callers", "from"),
        ("outgoing", "callees", "to"),
    ]
    .into_iter()
    .filter(|(key, _, _)| value[*key].is_array())
    .collect();
    let heading = symbol_heading(&value["item"], request);
    if directions.len() != 1 {
        writer.always(&format!("calls of {heading}"));
    }
    for (key, arrow, end) in directions.iter().copied() {
        let calls = value[key].as_array().cloned().unwrap_or_default();
        let completeness = &value[format!("{key}_completeness")];
        let completeness_text = if key == "incoming" {
            references_completeness(completeness)
        } else {
            calls_completeness(completeness)
        };
        let counted = format!("{}; {completeness_text}", distinct_ends(&calls, end));
        if directions.len() == 1 {
            writer.always(&format!("{arrow} of {heading}: {counted}"));
        } else {
            writer.always(&format!("{arrow}: {counted}"));
        }
        let lines = call_lines(&calls, key, end, &value["item"]);
        let mut left_out = 0;
        for line in &lines {
            if !writer.line(line) {
                left_out += 1;
            }
        }
        if left_out > 0 {
            writer.always(&format!(
                "... {left_out} more {arrow} left out (max_tokens {}); ask with a larger max_tokens or a smaller depth",
                request.max_tokens
            ));
        }
        for (key, label) in [
            ("external_names", "outside the workspace"),
            ("unresolved_names", "unresolved calls"),
        ] {
            if let Some(names) = completeness[key].as_array()
                && !names.is_empty()
            {
                let names: Vec<String> = names.iter().map(plain).collect();
                writer.always(&format!("{label}: {}", names.join(", ")));
            }
        }
    }
}

/// How many declarations are at the other end of `calls` (a caller or
/// callee with certain and guessed calls is one, though two entries).
fn distinct_ends(calls: &[Value], end: &str) -> usize {
    calls
        .iter()
        .map(|call| {
            let other = &call[end];
            (
                str_of(other, "file_path").unwrap_or(""),
                line_col(&other["name_range"]),
                str_of(other, "name").unwrap_or(""),
            )
        })
        .collect::<std::collections::HashSet<_>>()
        .len()
}

/// `complete`, or what a list of calls lacks: calls that resolved to
/// nothing are named on the closing line, not described here.
fn calls_completeness(completeness: &Value) -> String {
    let unresolved = completeness["unresolved_names"]
        .as_array()
        .map_or(0, Vec::len);
    let other_gaps =
        completeness["incomplete"].is_object() || completeness["unanalyzed_files"].is_array();
    if unresolved > 0 && !other_gaps && completeness["complete"].as_bool() == Some(false) {
        format!("incomplete: {unresolved} unresolved (last line)")
    } else {
        completeness_word(completeness)
    }
}

/// The lines of a hierarchy: the tree in order, leaves of one parent that
/// share their last name segment, certainty and call sites (overloads of
/// one function, or the candidates of one uncertain call) joined on the
/// first one's line.
fn call_lines(calls: &[Value], key: &str, end: &str, item: &Value) -> Vec<String> {
    // (level, parent entry, parts, whether it has children), in tree order.
    let mut flat: Vec<(usize, usize, CallParts, bool)> = Vec::new();
    let mut stack: Vec<(&Value, usize, usize)> =
        calls.iter().rev().map(|c| (c, 1, usize::MAX)).collect();
    while let Some((call, level, parent)) = stack.pop() {
        let deeper = call[key].as_array().filter(|d| !d.is_empty());
        let index = flat.len();
        flat.push((level, parent, call_parts(call, end, item), deeper.is_some()));
        if let Some(deeper) = deeper {
            stack.extend(deeper.iter().rev().map(|c| (c, level + 1, index)));
        }
    }
    // Groups in tree order: a leaf joins the group of the first earlier
    // leaf of its parent with its key; a call with children is alone.
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut group_of: std::collections::HashMap<(usize, &str, &str, bool), usize> =
        std::collections::HashMap::new();
    for (index, (_, parent, parts, has_children)) in flat.iter().enumerate() {
        let key = (
            *parent,
            parts.last.as_str(),
            parts.sites.as_str(),
            parts.guess.is_some(),
        );
        match group_of.get(&key) {
            Some(&group) if !has_children => groups[group].push(index),
            _ => {
                if !has_children {
                    group_of.insert(key, groups.len());
                }
                groups.push(vec![index]);
            }
        }
    }
    groups
        .iter()
        .map(|group| {
            let (level, _, first, _) = &flat[group[0]];
            let members: Vec<&CallParts> = group.iter().map(|&i| &flat[i].2).collect();
            first.line(*level, &members)
        })
        .collect()
}

/// One call of a hierarchy in parts: the other end's name (the segments
/// before its last, and the last), where it is declared, and its
/// certainty with the call sites.
struct CallParts {
    prefix: String,
    last: String,
    path: Option<String>,
    line: u64,
    /// The confidence of a call that is not certain.
    guess: Option<f64>,
    /// ` at line:col, ...`.
    sites: String,
}

impl CallParts {
    /// `name (at, at) (guess 0.5) at line:col, ...`, indented by level;
    /// joined calls of other names show their prefix (`Interval :465`) and
    /// a path only where they change; candidates guessed with different
    /// confidences show its range (`(guess 0.08-0.1)`).
    fn line(&self, level: usize, members: &[&CallParts]) -> String {
        let all_same = members.iter().all(|m| m.prefix == self.prefix);
        let name = if all_same && !self.prefix.is_empty() {
            format!("{}.{}", self.prefix, self.last)
        } else {
            self.last.clone()
        };
        // The declaring file's own (pathless) places first, so that a bare
        // `:line` never reads as a line of the path before it.
        let mut ordered = members.to_vec();
        ordered.sort_by_key(|m| m.path.is_some());
        let mut places = Vec::new();
        let mut previous_path: Option<&str> = None;
        let mut previous_prefix: Option<&str> = None;
        for member in ordered {
            let mut place = String::new();
            if !all_same
                && !member.prefix.is_empty()
                && previous_prefix != Some(member.prefix.as_str())
            {
                place.push_str(&member.prefix);
                place.push(' ');
            }
            previous_prefix = Some(member.prefix.as_str());
            match member.path.as_deref() {
                Some(path) if previous_path != Some(path) => place.push_str(path),
                _ => {}
            }
            if member.path.is_some() || member.line > 0 {
                place.push_str(&format!(":{}", member.line));
            }
            previous_path = member.path.as_deref().or(previous_path);
            if !place.is_empty() {
                places.push(place);
            }
        }
        let places = if places.is_empty() {
            String::new()
        } else {
            format!(" ({})", places.join(", "))
        };
        let guesses: Vec<f64> = members.iter().filter_map(|m| m.guess).collect();
        let certainty = match (
            guesses.iter().copied().reduce(f64::min),
            guesses.iter().copied().reduce(f64::max),
        ) {
            (Some(low), Some(high)) if low < high => {
                format!(" (guess {}-{})", decimal(low), decimal(high))
            }
            (Some(low), _) => format!(" (guess {})", decimal(low)),
            _ => String::new(),
        };
        format!(
            "{}{name}{places}{certainty}{}",
            "  ".repeat(level.saturating_sub(1)),
            self.sites
        )
    }
}

/// The parts of one call; paths only where they differ from the file of
/// the declaration asked about (or, for a site, of the other end), names
/// relative to that declaration's container.
fn call_parts(call: &Value, end: &str, item: &Value) -> CallParts {
    let other = &call[end];
    let home = str_of(item, "file_path");
    let (name, path, line) = if str_of(other, "kind") == Some("file") {
        (
            format!("top level of {}", str_of(other, "file_path").unwrap_or("?")),
            None,
            0,
        )
    } else {
        let line = line_col(&other["name_range"]).map_or(0, |(line, _)| line);
        let path = str_of(other, "file_path").unwrap_or("?");
        let path = (Some(path) != home).then(|| path.to_string());
        let name = qualified_name(other);
        (
            relative_to(&name, display_container(item)).to_string(),
            path,
            line,
        )
    };
    let (prefix, last) = match name.rsplit_once('.') {
        Some((prefix, last)) if !last.is_empty() && str_of(other, "kind") != Some("file") => {
            (prefix.to_string(), last.to_string())
        }
        _ => (String::new(), name),
    };
    let mut ordered: Vec<&Value> = call["call_sites"]
        .as_array()
        .into_iter()
        .flatten()
        .collect();
    ordered.sort_by_key(|site| {
        (
            str_of(site, "file_path").map(str::to_string),
            line_col(&site["range"]),
        )
    });
    let sites: Vec<String> = ordered
        .iter()
        .take(5)
        .filter_map(|site| {
            let (line, col) = line_col(&site["range"])?;
            Some(match str_of(site, "file_path") {
                Some(path) if Some(path) != home && Some(path) != str_of(other, "file_path") => {
                    format!("{path}:{line}:{col}")
                }
                _ => format!("{line}:{col}"),
            })
        })
        .collect();
    let more = match ordered.len().saturating_sub(5) {
        0 => String::new(),
        n => format!(" +{n}"),
    };
    CallParts {
        prefix,
        last,
        path,
        line,
        guess: (!is_certain(call)).then(|| call["confidence"].as_f64().unwrap_or(0.0)),
        sites: format!(" at {}{more}", sites.join(", ")),
    }
}

/// A confidence as answers print it: two decimals at most, no trailing
/// zeros (`0.1`, `0.08`).
fn decimal(value: f64) -> String {
    let rounded = format!("{value:.2}");
    rounded
        .trim_end_matches('0')
        .trim_end_matches('.')
        .to_string()
}

#[cfg(test)]
mod tests {
    use serde_json::{Map, Value, json};

    use super::*;
    use crate::text::MIN_MAX_TOKENS;

    fn site(path: &str, line: u64, resolution: &str, confidence: f64) -> Value {
        json!({
            "file_path": path, "kind": "call", "enclosing": "run", "line_text": "  parse(input)  ",
            "range": { "start": { "line": line, "character": 4 }, "end": { "line": line, "character": 9 } },
            "resolution": resolution, "confidence": confidence,
        })
    }

    fn render(value: &Value, arguments: &Map<String, Value>, max_tokens: usize) -> String {
        let request = Request {
            tool: "find_references",
            arguments,
            max_tokens,
        };
        let mut writer = Writer::new(max_tokens);
        references(value, &request, &mut writer);
        writer.finish()
    }

    /// The text of a call hierarchy answer asked with no other argument.
    fn hierarchy_text(value: &Value) -> String {
        let arguments = Map::new();
        let request = Request {
            tool: "get_call_hierarchy",
            arguments: &arguments,
            max_tokens: 2000,
        };
        let mut writer = Writer::new(2000);
        call_hierarchy(value, &request, &mut writer);
        writer.finish()
    }

    #[test]
    fn references_group_by_file_and_label_only_guesses() {
        let value = json!({
            "symbol": { "kind": "function", "name": "parse", "container": null, "file_path": "src/lib.rs",
                        "name_range": { "start": { "line": 0, "character": 7 } } },
            "references": [site("src/a.rs", 2, "import", 1.0), site("src/a.rs", 5, "import", 1.0),
                           site("src/b.rs", 0, "name_only", 0.5)],
            "pagination": { "total": 3 },
            "completeness": { "resolved": 2, "name_only": 1, "complete": false, "possibly_missed": 0 },
        });
        assert_eq!(
            render(&value, &Map::new(), 2000),
            "references of function parse (src/lib.rs:1): 2 certain + 1 guessed; certain ones complete, guesses labelled\n\
             src/a.rs\n3:5 call in run  parse(input)\n6:5 call in run  parse(input)\n\
             src/b.rs\n1:5 call in run (guess 0.5)  parse(input)\n"
        );
    }

    #[test]
    fn references_say_the_listed_declaration_is_not_counted() {
        let mut declaration = site("src/lib.rs", 0, "declaration", 1.0);
        declaration["kind"] = json!("declaration");
        declaration["name_range"] = json!({ "start": { "line": 0, "character": 7 } });
        let value = json!({
            "symbol": { "kind": "function", "name": "parse", "container": null, "file_path": "src/lib.rs",
                        "name_range": { "start": { "line": 0, "character": 7 } } },
            "references": [declaration, site("src/a.rs", 2, "import", 1.0)],
            "pagination": { "total": 2 },
            "completeness": { "resolved": 1, "name_only": 0, "complete": true, "possibly_missed": 0 },
        });
        let text = render(&value, &Map::new(), 2000);
        let first = text.lines().next().unwrap_or_default();
        assert!(
            first.contains(": 1 certain, declaration listed first;"),
            "{text}"
        );
        assert_eq!(text.lines().count(), 5, "{text}");
    }

    #[test]
    fn overloads_called_at_one_site_read_as_one_callee() {
        let callee = |line: u64| {
            json!({
                "resolution": "import", "confidence": 1.0,
                "to": { "name": "timer", "container": null, "file_path": "src/timer.ts",
                        "name_range": { "start": { "line": line, "character": 0 } } },
                "call_sites": [{ "file_path": "src/interval.ts",
                                 "range": { "start": { "line": 55, "character": 9 } } }],
            })
        };
        let local = json!({
            "resolution": "scope", "confidence": 1.0,
            "to": { "name": "check", "container": null, "file_path": "src/interval.ts",
                    "name_range": { "start": { "line": 2, "character": 0 } } },
            "call_sites": [{ "file_path": "src/interval.ts",
                             "range": { "start": { "line": 51, "character": 2 } } }],
        });
        let value = json!({
            "item": { "kind": "function", "name": "interval", "container": null,
                      "file_path": "src/interval.ts",
                      "name_range": { "start": { "line": 49, "character": 16 } } },
            "outgoing": [local, callee(83), callee(125)],
            "outgoing_completeness": { "complete": true },
        });
        assert_eq!(
            hierarchy_text(&value),
            "callees of function interval (src/interval.ts:50): 3; complete\n\
             check (:3) at 52:3\n\
             timer (src/timer.ts:84, :126) at 56:10\n"
        );
    }

    /// The candidates of one uncertain call share a line whatever their
    /// confidences, which it gives as a range; a prefix shared by
    /// neighbours is written once.
    #[test]
    fn the_candidates_of_one_guessed_call_read_as_one_line() {
        let candidate = |container: &str, path: &str, line: u64, confidence: f64| {
            json!({
                "resolution": "name_only", "confidence": confidence,
                "to": { "name": "subscribe", "container": container, "file_path": path,
                        "name_range": { "start": { "line": line, "character": 2 } } },
                "call_sites": [{ "file_path": "src/op.ts",
                                 "range": { "start": { "line": 47, "character": 11 } } }],
            })
        };
        let value = json!({
            "item": { "kind": "function", "name": "op", "container": null,
                      "file_path": "src/op.ts",
                      "name_range": { "start": { "line": 40, "character": 16 } } },
            "outgoing": [candidate("Observable", "src/Observable.ts", 66, 0.1),
                         candidate("Observable", "src/Observable.ts", 68, 0.1),
                         candidate("TapObserver", "src/tap.ts", 56, 0.08)],
            "outgoing_completeness": { "complete": true },
        });
        assert_eq!(
            hierarchy_text(&value),
            "callees of function op (src/op.ts:41): 3; complete\n\
             subscribe (Observable src/Observable.ts:67, :69, TapObserver src/tap.ts:57) (guess 0.08-0.1) at 48:12\n"
        );
    }

    /// A callee called once for certain and once by guess is one callee
    /// in the count, and two lines.
    #[test]
    fn a_callee_certain_and_guessed_counts_once() {
        let call = |resolution: &str, confidence: f64, line: u64| {
            json!({
                "resolution": resolution, "confidence": confidence,
                "to": { "name": "parse", "container": "Parser", "file_path": "src/parser.ts",
                        "name_range": { "start": { "line": 7, "character": 2 } } },
                "call_sites": [{ "file_path": "src/run.ts",
                                 "range": { "start": { "line": line, "character": 11 } } }],
            })
        };
        let value = json!({
            "item": { "kind": "function", "name": "typed", "container": null,
                      "file_path": "src/run.ts",
                      "name_range": { "start": { "line": 2, "character": 16 } } },
            "outgoing": [call("qualified", 1.0, 3), call("name_only", 0.5, 4)],
            "outgoing_completeness": { "complete": true },
        });
        assert_eq!(
            hierarchy_text(&value),
            "callees of function typed (src/run.ts:3): 1; complete\n\
             Parser.parse (src/parser.ts:8) at 4:12\n\
             Parser.parse (src/parser.ts:8) (guess 0.5) at 5:12\n"
        );
    }

    /// Calls to names the workspace declares nowhere are external, which
    /// leaves the list complete; the unresolved ones close it.
    #[test]
    fn external_calls_are_named_apart_from_unresolved_ones() {
        let render_with = |completeness: Value| {
            let value = json!({
                "item": { "kind": "function", "name": "op", "container": null,
                          "file_path": "src/op.rs",
                          "name_range": { "start": { "line": 0, "character": 3 } } },
                "outgoing": [],
                "outgoing_completeness": completeness,
            });
            hierarchy_text(&value)
        };
        assert_eq!(
            render_with(json!({ "complete": true, "unresolved_names": [],
                                "external_names": ["clone", "to_string"] })),
            "callees of function op (src/op.rs:1): 0; complete\n\
             outside the workspace: clone, to_string\n"
        );
        assert_eq!(
            render_with(json!({ "complete": false, "unresolved_names": ["next"],
                                "external_names": ["clone"] })),
            "callees of function op (src/op.rs:1): 0; incomplete: 1 unresolved (last line)\n\
             outside the workspace: clone\n\
             unresolved calls: next\n"
        );
    }

    #[test]
    fn a_list_cut_by_the_budget_names_the_next_page() {
        let sites: Vec<Value> = (0..300)
            .map(|i| site("src/a.rs", i, "import", 1.0))
            .collect();
        let value = json!({
            "symbol": { "kind": "function", "name": "parse", "file_path": "src/lib.rs" },
            "references": sites,
            "pagination": { "total": 1000 },
            "completeness": { "resolved": 1000, "complete": true },
        });
        let arguments = json!({ "symbol": "parse", "offset": 100 });
        let text = render(&value, arguments.as_object().unwrap(), MIN_MAX_TOKENS);
        let shown = text
            .lines()
            .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
            .count();
        assert!(shown > 0 && shown < 300, "{text}");
        let last = text.lines().last().unwrap();
        assert_eq!(
            last,
            format!(
                "... {} more (max_tokens {MIN_MAX_TOKENS} reached); next page: find_references {}",
                1000 - 100 - shown,
                json!({ "offset": 100 + shown, "symbol": "parse" })
            )
        );
    }
}
