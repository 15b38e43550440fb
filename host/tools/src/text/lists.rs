//! Text of the list answers: references, implementations, search results,
//! diagnostics and call hierarchies, grouped by file under a budget.

use std::collections::{HashMap, HashSet};

use super::{
    Request, Writer, guess_note, has_word, kind_prefix, plain, relative_to, short_decimal,
    source_line, start_of, subject_heading, view_container, view_heading, view_qualified_name,
    view_title,
};
use crate::diagnostics::DiagnosticsAnswer;
use crate::implementations::ImplementationsAnswer;
use crate::references::ReferencesAnswer;
use crate::search::SearchAnswer;
use lingo_analysis::{
    Call, CallEnd, CallHierarchy, CallSite, Completeness, Incompleteness, OutgoingCompleteness,
    ReferenceItem, SearchHit, SiteView, SubjectView, SymbolView,
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

/// Items under the line of their file (`path` of the item), in order,
/// until the budget is spent; returns how many were written. As in
/// `rg --heading`, an item's line is not indented: it starts with its line
/// number, which sets it apart from the path above it (and saves a token a
/// line).
pub(super) fn grouped<T>(
    items: &[T],
    path: impl Fn(&T) -> &str,
    writer: &mut Writer,
    line: impl Fn(&T) -> String,
) -> usize {
    items
        .iter()
        .take_while(|item| writer.grouped(path(item), &line(item)))
        .count()
}

/// `find_references`: the declaration, certain sites by file, guesses, and
/// the same-named sites nothing resolved.
pub fn references(answer: &ReferencesAnswer, request: &Request, writer: &mut Writer) {
    let items: Vec<Listed> = answer.references.iter().map(Listed::of_item).collect();
    let completeness = &answer.completeness;
    let total = answer.pagination.total as u64;
    let certain = completeness.resolved;
    let guessed = match completeness.name_only {
        0 => String::new(),
        n => format!(" + {n} guessed"),
    };
    // The declaration's own line, when the page lists it, says where it is.
    let symbol = &answer.symbol;
    let declaration_listed = items
        .iter()
        .any(|item| matches!(item, Listed::Declaration(_)));
    let heading = if declaration_listed {
        subject_title(symbol)
    } else {
        subject_heading(symbol, request)
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
        range_note(request, items.len(), total),
    ));
    let context = subject_container(symbol);
    let shown = sites(&items, context, writer);
    close_page(writer, request, shown, items.len(), Some(total));
    missed_sites(completeness, context, writer);
}

/// `kind Container.name` of a declaration or local.
fn subject_title(subject: &SubjectView) -> String {
    match subject {
        SubjectView::Symbol(view) => view_title(view),
        SubjectView::Local(local) => format!("{} {}", local.kind, local.name),
    }
}

/// The container the names of a declaration's sites are read relative to
/// (a local has none).
fn subject_container(subject: &SubjectView) -> Option<&str> {
    match subject {
        SubjectView::Symbol(view) => view_container(view),
        SubjectView::Local(_) => None,
    }
}

/// An entry of a reference list as its text reads it: the declaration
/// listed first, or a site with its certainty (` (guess 0.5)`, or nothing
/// for a certain one).
enum Listed<'a> {
    Declaration(&'a SubjectView),
    Site { site: &'a SiteView, guess: String },
}

impl<'a> Listed<'a> {
    fn of_item(item: &'a ReferenceItem) -> Self {
        match item {
            ReferenceItem::Declaration(declaration) => Listed::Declaration(&declaration.view),
            ReferenceItem::Site(site) => Listed::Site {
                site: &site.site,
                guess: guess_note(site.resolution, site.confidence),
            },
        }
    }

    /// A same-named site nothing resolved, which says no certainty.
    fn unresolved(site: &'a SiteView) -> Self {
        Listed::Site {
            site,
            guess: String::new(),
        }
    }

    fn file_path(&self) -> &str {
        match self {
            Listed::Declaration(SubjectView::Symbol(view)) => &view.file_path,
            Listed::Declaration(SubjectView::Local(local)) => &local.file_path,
            Listed::Site { site, .. } => &site.file_path,
        }
    }
}

/// Reference items grouped by file, the sites of one source line on one
/// line; returns how many were written.
fn sites(items: &[Listed], context: Option<&str>, writer: &mut Writer) -> usize {
    let mut shown = 0;
    let mut rest = items;
    while let Some(first) = rest.first() {
        let (text, run) = match first {
            Listed::Declaration(subject) => (declaration_line(subject), 1),
            Listed::Site { site, guess } => {
                let line: Vec<&SiteView> = rest
                    .iter()
                    .map_while(|item| match item {
                        Listed::Site {
                            site: other,
                            guess: other_guess,
                        } if on_one_line(site, other) && guess == other_guess => Some(*other),
                        _ => None,
                    })
                    .collect();
                (sites_line(&line, guess, context), line.len())
            }
        };
        let (line_items, after) = rest.split_at(run.clamp(1, rest.len()));
        if !writer.grouped(first.file_path(), &text) {
            break;
        }
        shown += line_items.len();
        rest = after;
    }
    shown
}

/// `line:col declaration  signature` of the declaration listed first.
fn declaration_line(subject: &SubjectView) -> String {
    let (name_range, signature) = match subject {
        SubjectView::Symbol(view) => (&view.name_range, view.signature.as_deref()),
        SubjectView::Local(local) => (&local.name_range, None),
    };
    let (line, col) = start_of(name_range);
    format!(
        "{line}:{col} declaration  {}",
        source_line(signature.unwrap_or(""))
    )
}

/// Whether two reference sites (resolved as surely) share a printed line:
/// the same source line of the same file, in the same declaration.
fn on_one_line(a: &SiteView, b: &SiteView) -> bool {
    a.file_path == b.file_path
        && a.range.start.line == b.range.start.line
        && a.enclosing == b.enclosing
        && a.condition == b.condition
}

/// `line:col kind in Enclosing (only when condition) (guess confidence)
/// source` for the sites
/// of one source line ([`on_one_line`]), `guess` their certainty, the
/// enclosing name relative to `context`: the source once, the columns
/// listed (`36:9,42 type`, or `90:4 type, 29 call` where their kinds
/// differ).
fn sites_line(sites: &[&SiteView], guess: &str, context: Option<&str>) -> String {
    let Some(first) = sites.first() else {
        return String::new();
    };
    let kind = |site: &SiteView| site.kind.as_str();
    let column = |site: &SiteView| start_of(&site.range).1;
    let (line, _) = start_of(&first.range);
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
    let enclosing = first
        .enclosing
        .as_deref()
        .map(|e| format!(" in {}", relative_to(e, context)))
        .unwrap_or_default();
    let condition = first
        .condition
        .as_deref()
        .map(|c| format!(" (only when {c})"))
        .unwrap_or_default();
    format!(
        "{places}{enclosing}{condition}{guess}  {}",
        source_line(&first.line_text)
    )
}

/// `complete`, or what a reference list may lack, counted: guesses are
/// labelled on their own lines and not repeated here.
fn references_completeness(completeness: &Completeness) -> String {
    if completeness.complete {
        return "complete".into();
    }
    let mut lacks = Vec::new();
    if completeness.possibly_missed > 0 {
        lacks.push(format!(
            "{} same-named uses unresolved",
            completeness.possibly_missed
        ));
    }
    if completeness.unparsed_mentions > 0 {
        lacks.push(format!(
            "{} mentions in code with syntax errors",
            completeness.unparsed_mentions
        ));
    }
    if completeness.unexpanded_mentions > 0 {
        lacks.push(format!(
            "{} mentions in macro invocations not expanded",
            completeness.unexpanded_mentions
        ));
    }
    lacks.extend(unseen(completeness.incomplete.as_ref()));
    if lacks.is_empty() && completeness.name_only > 0 {
        return "certain ones complete, guesses labelled".into();
    }
    if lacks.is_empty() {
        return completeness_word(completeness.complete, Some(&completeness.note));
    }
    format!("may miss: {}", lacks.join(", "))
}

/// `complete` or `incomplete: why` (`note`, when there is one).
fn completeness_word(complete: bool, note: Option<&str>) -> String {
    if complete {
        "complete".into()
    } else {
        format!("incomplete: {}", note.unwrap_or("some uses may be missing"))
    }
}

/// The same-named sites no resolution reached, which may be uses.
fn missed_sites(completeness: &Completeness, context: Option<&str>, writer: &mut Writer) {
    let Some(missed) = completeness
        .possibly_missed_sites
        .as_deref()
        .filter(|missed| !missed.is_empty())
    else {
        return;
    };
    writer.end_group();
    writer.always(&format!(
        "possibly missed ({} same-named, unresolved; first {}):",
        completeness.possibly_missed,
        missed.len()
    ));
    let missed: Vec<Listed> = missed.iter().map(Listed::unresolved).collect();
    sites(&missed, context, writer);
}

/// `find_implementations`: the implementing and extending declarations.
pub fn implementations(answer: &ImplementationsAnswer, request: &Request, writer: &mut Writer) {
    let items = &answer.implementations;
    let total = answer.pagination.total as u64;
    let completeness = &answer.completeness;
    writer.always(&format!(
        "implementations of {}: {total}; {}{}",
        view_heading(&answer.symbol, request),
        completeness_word(completeness.complete, Some(completeness.note)),
        range_note(request, items.len(), total),
    ));
    let shown = grouped(
        items,
        |item| &item.symbol.file_path,
        writer,
        |item| {
            let (line, col) = start_of(&item.symbol.name_range);
            let depth = if item.depth > 1 {
                format!(" depth {}", item.depth)
            } else {
                String::new()
            };
            format!(
                "{line}:{col} {} {}{depth}{}  {}",
                item.relation.as_str(),
                view_qualified_name(&item.symbol),
                guess_note(item.resolution, item.confidence),
                source_line(item.symbol.signature.as_deref().unwrap_or(""))
            )
        },
    );
    close_page(writer, request, shown, items.len(), Some(total));
}

/// `search_symbols`: declarations by file, `line kind Container.name  signature`.
pub fn search(answer: &SearchAnswer, request: &Request, writer: &mut Writer) {
    let items = &answer.symbols;
    let total = answer.total as u64;
    let query = request
        .arguments
        .get("query")
        .map(plain)
        .unwrap_or_default();
    writer.always(&format!(
        "symbols matching {query:?}: {total}{}",
        range_note(request, items.len(), total),
    ));
    let shown = grouped(items, |item| &item.file_path, writer, search_line);
    close_page(writer, request, shown, items.len(), Some(total));
}

/// `line kind Container.name  signature`, each part only where the
/// signature does not already say it: `12 in Action: requestId(id)`.
fn search_line(item: &SearchHit) -> String {
    let signature = source_line(item.signature.as_deref().unwrap_or(""));
    let name = &item.name;
    let kind = kind_prefix(&signature, item.kind);
    let container = item.container_name.as_deref().filter(|c| !c.is_empty());
    let line = item.line;
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
pub fn diagnostics(answer: &DiagnosticsAnswer, request: &Request, writer: &mut Writer) {
    let items = &answer.diagnostics;
    let summary = &answer.summary;
    let total = summary.total as u64;
    writer.always(&format!(
        "diagnostics: {total} in {} files checked{}",
        summary.files_checked,
        range_note(request, items.len(), total),
    ));
    let shown = grouped(
        items,
        |item| &item.file_path,
        writer,
        |item| {
            let (line, col) = start_of(&item.range);
            format!(
                "{line}:{col} {} {}: {}",
                item.severity.as_str(),
                item.code,
                source_line(&item.message)
            )
        },
    );
    close_page(writer, request, shown, items.len(), Some(total));
    let unanalyzed = answer.unanalyzed_files.len();
    if unanalyzed > 0 {
        writer.always(&format!("{unanalyzed} files could not be analysed"));
    }
}

/// Which way the calls of a hierarchy's tree go.
#[derive(Clone, Copy)]
enum Way {
    /// The callers.
    Incoming,
    /// The callees.
    Outgoing,
}

impl Way {
    /// What the tree lists: `callers` or `callees`.
    fn arrow(self) -> &'static str {
        match self {
            Way::Incoming => "callers",
            Way::Outgoing => "callees",
        }
    }

    /// The caller (callee) of a call in this tree.
    fn other_end(self, call: &Call) -> Option<&CallEnd> {
        match self {
            Way::Incoming => call.from.as_ref(),
            Way::Outgoing => call.to.as_ref(),
        }
    }

    /// The calls one level below a call in this tree.
    fn deeper(self, call: &Call) -> Option<&[Call]> {
        match self {
            Way::Incoming => call.incoming.as_deref(),
            Way::Outgoing => call.outgoing.as_deref(),
        }
    }
}

/// One direction of a call hierarchy, as its text reads it.
struct Tree<'a> {
    way: Way,
    calls: &'a [Call],
    /// `complete`, or what the tree lacks.
    completeness: String,
    /// Names called that the workspace declares nowhere.
    external_names: &'a [String],
    /// Calls that resolved to nothing.
    unresolved_names: &'a [String],
}

impl<'a> Tree<'a> {
    fn callers(calls: &'a [Call], completeness: Option<&'a Completeness>) -> Self {
        Tree {
            way: Way::Incoming,
            calls,
            completeness: completeness
                .map_or_else(|| completeness_word(false, None), references_completeness),
            external_names: &[],
            unresolved_names: &[],
        }
    }

    fn callees(calls: &'a [Call], completeness: Option<&'a OutgoingCompleteness>) -> Self {
        Tree {
            way: Way::Outgoing,
            calls,
            completeness: completeness
                .map_or_else(|| completeness_word(false, None), calls_completeness),
            external_names: completeness
                .and_then(|c| c.external_names.as_deref())
                .unwrap_or_default(),
            unresolved_names: completeness
                .and_then(|c| c.unresolved_names.as_deref())
                .unwrap_or_default(),
        }
    }
}

/// `get_call_hierarchy`: callers and callees as indented trees (direct
/// calls unindented, each level below two spaces more), one line
/// per call: `Container.name (path:line) at line:col, ...`. With one
/// direction asked, what was asked, the count and completeness are one
/// header line.
pub fn call_hierarchy(answer: &CallHierarchy, request: &Request, writer: &mut Writer) {
    let callers = answer
        .incoming
        .as_deref()
        .map(|calls| Tree::callers(calls, answer.incoming_completeness.as_ref()));
    let callees = answer
        .outgoing
        .as_deref()
        .map(|calls| Tree::callees(calls, answer.outgoing_completeness.as_ref()));
    let trees: Vec<Tree> = callers.into_iter().chain(callees).collect();
    let heading = view_heading(&answer.item, request);
    if trees.len() != 1 {
        writer.always(&format!("calls of {heading}"));
    }
    for tree in &trees {
        let arrow = tree.way.arrow();
        let counted = format!(
            "{}; {}",
            distinct_ends(tree.calls, tree.way),
            tree.completeness
        );
        if trees.len() == 1 {
            writer.always(&format!("{arrow} of {heading}: {counted}"));
        } else {
            writer.always(&format!("{arrow}: {counted}"));
        }
        let lines = call_lines(tree.calls, tree.way, &answer.item);
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
        for (names, label) in [
            (tree.external_names, "outside the workspace"),
            (tree.unresolved_names, "unresolved calls"),
        ] {
            if !names.is_empty() {
                writer.always(&format!("{label}: {}", names.join(", ")));
            }
        }
    }
}

/// How many declarations are at the other end of `calls` (a caller or
/// callee with certain and guessed calls is one, though two entries).
fn distinct_ends(calls: &[Call], way: Way) -> usize {
    calls
        .iter()
        .map(|call| match way.other_end(call) {
            Some(CallEnd::Symbol(view)) => (
                view.file_path.as_str(),
                Some(start_of(&view.name_range)),
                view.name.as_str(),
            ),
            Some(CallEnd::File { file_path, .. }) => (file_path.as_str(), None, ""),
            None => ("", None, ""),
        })
        .collect::<HashSet<_>>()
        .len()
}

/// `complete`, or what a list of calls lacks: calls that resolved to
/// nothing are named on the closing line, not described here.
fn calls_completeness(completeness: &OutgoingCompleteness) -> String {
    let unresolved = completeness.unresolved_names.as_ref().map_or(0, Vec::len);
    let mut lacks = Vec::new();
    if unresolved > 0 && !completeness.complete {
        lacks.push(format!("{unresolved} unresolved (last line)"));
    }
    lacks.extend(unseen(completeness.incomplete.as_ref()));
    if lacks.is_empty() {
        completeness_word(completeness.complete, completeness.note)
    } else {
        format!("incomplete: {}", lacks.join(", "))
    }
}

/// What the snapshot could not see, counted: files their plugin could not
/// analyse, imports that resolved to nothing.
fn unseen(incomplete: Option<&Incompleteness>) -> Vec<String> {
    let Some(incomplete) = incomplete else {
        return Vec::new();
    };
    let mut out = Vec::new();
    if incomplete.unanalyzed_files > 0 {
        out.push(format!(
            "{} files not analysed",
            incomplete.unanalyzed_files
        ));
    }
    if incomplete.failed_import_resolutions > 0 {
        out.push(format!(
            "{} imports not resolved",
            incomplete.failed_import_resolutions
        ));
    }
    out
}

/// The lines of a hierarchy: the tree in order, leaves of one parent that
/// share their last name segment, certainty and call sites (overloads of
/// one function, or the candidates of one uncertain call) joined on the
/// first one's line.
fn call_lines(calls: &[Call], way: Way, item: &SymbolView) -> Vec<String> {
    // (level, parent entry, parts, whether it has children), in tree order.
    let mut flat: Vec<(usize, usize, CallParts, bool)> = Vec::new();
    let mut stack: Vec<(&Call, usize, usize)> =
        calls.iter().rev().map(|c| (c, 1, usize::MAX)).collect();
    while let Some((call, level, parent)) = stack.pop() {
        let deeper = way.deeper(call).filter(|d| !d.is_empty());
        let index = flat.len();
        flat.push((level, parent, call_parts(call, way, item), deeper.is_some()));
        if let Some(deeper) = deeper {
            stack.extend(deeper.iter().rev().map(|c| (c, level + 1, index)));
        }
    }
    // Groups in tree order: a leaf joins the group of the first earlier
    // leaf of its parent with its key; a call with children is alone.
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut group_of: HashMap<(usize, &str, &str, bool), usize> = HashMap::new();
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
                format!(" (guess {}-{})", short_decimal(low), short_decimal(high))
            }
            (Some(low), _) => format!(" (guess {})", short_decimal(low)),
            _ => String::new(),
        };
        format!(
            "{}{name}{places}{certainty}{}",
            "  ".repeat(level.saturating_sub(1)),
            self.sites
        )
    }
}

/// The file whose top-level code the end of a call is, if it is one.
fn top_level_of(end: &CallEnd) -> Option<&str> {
    match end {
        CallEnd::File { file_path, .. } => Some(file_path),
        CallEnd::Symbol(view) if view.kind == "file" => Some(&view.file_path),
        CallEnd::Symbol(_) => None,
    }
}

/// The file of the end of a call.
fn end_path(end: &CallEnd) -> &str {
    match end {
        CallEnd::Symbol(view) => &view.file_path,
        CallEnd::File { file_path, .. } => file_path,
    }
}

/// The parts of one call; paths only where they differ from the file of
/// the declaration asked about (or, for a site, of the other end), names
/// relative to that declaration's container.
fn call_parts(call: &Call, way: Way, item: &SymbolView) -> CallParts {
    let other = way.other_end(call);
    let other_path = other.map(end_path);
    let home = item.file_path.as_str();
    let top_level = other.and_then(top_level_of);
    let (name, path, line) = match (top_level, other) {
        (Some(file), _) => (format!("top level of {file}"), None, 0),
        (None, Some(CallEnd::Symbol(view))) => (
            relative_to(&view_qualified_name(view), view_container(item)).to_string(),
            (view.file_path != home).then(|| view.file_path.clone()),
            u64::from(start_of(&view.name_range).0),
        ),
        (None, _) => ("?".to_string(), (home != "?").then(|| "?".to_string()), 0),
    };
    let (prefix, last) = match name.rsplit_once('.') {
        Some((prefix, last)) if !last.is_empty() && top_level.is_none() => {
            (prefix.to_string(), last.to_string())
        }
        _ => (String::new(), name),
    };
    let mut ordered: Vec<&CallSite> = call.call_sites.iter().collect();
    ordered.sort_by(|a, b| {
        (a.file_path.as_str(), a.range.start).cmp(&(b.file_path.as_str(), b.range.start))
    });
    let sites: Vec<String> = ordered
        .iter()
        .take(5)
        .map(|site| {
            let (line, col) = start_of(&site.range);
            let path = site.file_path.as_str();
            if path != home && Some(path) != other_path {
                format!("{path}:{line}:{col}")
            } else {
                format!("{line}:{col}")
            }
        })
        .collect();
    let more = match ordered.len().saturating_sub(5) {
        0 => String::new(),
        n => format!(" +{n}"),
    };
    let certain = guess_note(call.resolution, call.confidence).is_empty();
    CallParts {
        prefix,
        last,
        path,
        line,
        guess: (!certain).then_some(call.confidence),
        sites: format!(" at {}{more}", sites.join(", ")),
    }
}

/// A confidence as answers print it: two decimals at most, no trailing
/// zeros (`0.1`, `0.08`).
#[cfg(test)]
mod tests {
    use serde_json::{Map, Value, json};

    use super::*;
    use crate::page::Pagination;
    use crate::text::MIN_MAX_TOKENS;
    use lingo_analysis::{
        CallDirection, DeclarationItem, Range, RangePoint, ReferenceSite, SymbolView,
    };
    use lingo_model::ReferenceKind;
    use lingo_resolve::Resolution;

    /// A range starting at zero-based `line` and `character`.
    fn at(line: u32, character: u32) -> Range {
        let start = RangePoint { line, character };
        Range { start, end: start }
    }

    /// A declaration of `kind` named `name` in `container`, its name at
    /// `line` and `character` of `path`.
    fn declared(
        kind: &'static str,
        name: &str,
        container: Option<&str>,
        path: &str,
        (line, character): (u32, u32),
    ) -> SymbolView {
        SymbolView {
            name: name.to_string(),
            kind,
            language_kind: kind.to_string(),
            file_path: path.to_string(),
            range: at(line, 0),
            name_range: at(line, character),
            container: container.map(str::to_string),
            namespace: None,
            signature: None,
            language: None,
        }
    }

    fn site(path: &str, line: u32, resolution: Resolution, confidence: f64) -> ReferenceItem {
        ReferenceItem::Site(ReferenceSite {
            site: SiteView {
                file_path: path.to_string(),
                range: Range {
                    start: RangePoint { line, character: 4 },
                    end: RangePoint { line, character: 9 },
                },
                kind: ReferenceKind::Call,
                enclosing: Some("run".to_string()),
                condition: None,
                line_text: "  parse(input)  ".to_string(),
            },
            resolution,
            confidence,
        })
    }

    /// The completeness of a reference list with no possibly missed sites.
    fn counted(resolved: usize, name_only: usize, complete: bool) -> Completeness {
        Completeness {
            resolved,
            name_only,
            possibly_missed: 0,
            ambiguous: None,
            possibly_missed_sites: None,
            unparsed_mentions: 0,
            unexpanded_mentions: 0,
            complete,
            note: String::new(),
            incomplete: None,
        }
    }

    /// A page of `returned` items of `total`.
    fn page(total: usize, returned: usize) -> Pagination {
        Pagination {
            total,
            offset: 0,
            limit: returned,
            returned,
            omitted: total - returned,
            has_more: returned < total,
            next_offset: None,
            truncated_by_bytes: false,
        }
    }

    /// `parse`'s references.
    fn parse_references(
        references: Vec<ReferenceItem>,
        total: usize,
        completeness: Completeness,
    ) -> ReferencesAnswer {
        let returned = references.len();
        ReferencesAnswer {
            symbol: SubjectView::Symbol(declared("function", "parse", None, "src/lib.rs", (0, 7))),
            references,
            pagination: page(total, returned),
            completeness,
            generation: 0,
        }
    }

    fn render(
        answer: &ReferencesAnswer,
        arguments: &Map<String, Value>,
        max_tokens: usize,
    ) -> String {
        let request = Request {
            tool: "find_references",
            arguments,
            max_tokens,
        };
        let mut writer = Writer::new(max_tokens);
        references(answer, &request, &mut writer);
        writer.finish()
    }

    /// A call from (or to) `end`, made at `sites`.
    fn call_with(
        end: SymbolView,
        resolution: Resolution,
        confidence: f64,
        sites: &[(&str, u32, u32)],
    ) -> Call {
        Call {
            resolution,
            confidence,
            call_sites: sites
                .iter()
                .map(|&(path, line, character)| CallSite {
                    file_path: path.to_string(),
                    range: at(line, character),
                })
                .collect(),
            from: None,
            to: Some(CallEnd::Symbol(end)),
            incoming: None,
            outgoing: None,
        }
    }

    /// The callees of `item`.
    fn callees(
        item: SymbolView,
        outgoing: Vec<Call>,
        completeness: OutgoingCompleteness,
    ) -> CallHierarchy {
        CallHierarchy {
            item,
            direction: CallDirection::Outgoing,
            depth: 1,
            generation: 0,
            incoming: None,
            incoming_completeness: None,
            outgoing: Some(outgoing),
            outgoing_completeness: Some(completeness),
            omitted_calls: "none",
        }
    }

    /// The completeness of a list of callees.
    fn callees_completeness(
        complete: bool,
        unresolved_names: &[&str],
        external_names: &[&str],
    ) -> OutgoingCompleteness {
        let names = |names: &[&str]| Some(names.iter().map(|n| n.to_string()).collect());
        OutgoingCompleteness {
            unresolved_calls: None,
            unresolved_names: names(unresolved_names),
            external_names: names(external_names),
            complete,
            note: None,
            incomplete: None,
        }
    }

    /// The text of a call hierarchy answer asked with no other argument.
    fn hierarchy_text(answer: &CallHierarchy) -> String {
        let arguments = Map::new();
        let request = Request {
            tool: "get_call_hierarchy",
            arguments: &arguments,
            max_tokens: 2000,
        };
        let mut writer = Writer::new(2000);
        call_hierarchy(answer, &request, &mut writer);
        writer.finish()
    }

    #[test]
    fn references_group_by_file_and_label_only_guesses() {
        let answer = parse_references(
            vec![
                site("src/a.rs", 2, Resolution::Import, 1.0),
                site("src/a.rs", 5, Resolution::Import, 1.0),
                site("src/b.rs", 0, Resolution::NameOnly, 0.5),
            ],
            3,
            counted(2, 1, false),
        );
        assert_eq!(
            render(&answer, &Map::new(), 2000),
            "references of function parse (src/lib.rs:1): 2 certain + 1 guessed; certain ones complete, guesses labelled\n\
             src/a.rs\n3:5 call in run  parse(input)\n6:5 call in run  parse(input)\n\
             src/b.rs\n1:5 call in run (guess 0.5)  parse(input)\n"
        );
    }

    #[test]
    fn references_say_the_listed_declaration_is_not_counted() {
        let declaration = ReferenceItem::Declaration(DeclarationItem {
            view: SubjectView::Symbol(declared("declaration", "parse", None, "src/lib.rs", (0, 7))),
            resolution: Resolution::Declaration,
            confidence: 1.0,
        });
        let answer = parse_references(
            vec![declaration, site("src/a.rs", 2, Resolution::Import, 1.0)],
            2,
            counted(1, 0, true),
        );
        let text = render(&answer, &Map::new(), 2000);
        let first = text.lines().next().unwrap_or_default();
        assert!(
            first.contains(": 1 certain, declaration listed first;"),
            "{text}"
        );
        assert_eq!(text.lines().count(), 5, "{text}");
    }

    /// Files and imports the index could not see are named where the
    /// completeness is, in references and in callees.
    #[test]
    fn lists_say_what_the_index_could_not_see() {
        let unseen = Some(Incompleteness {
            unanalyzed_files: 2,
            failed_import_resolutions: 3,
            incomplete_reasons: vec!["files failed".into()],
        });
        let mut completeness = counted(1, 0, false);
        completeness.incomplete = unseen.clone();
        let answer = parse_references(
            vec![site("src/a.rs", 2, Resolution::Import, 1.0)],
            1,
            completeness,
        );
        let text = render(&answer, &Map::new(), 2000);
        assert!(
            text.lines()
                .next()
                .unwrap_or_default()
                .ends_with("may miss: 2 files not analysed, 3 imports not resolved"),
            "{text}"
        );

        let mut completeness = callees_completeness(false, &["helper"], &[]);
        completeness.incomplete = unseen;
        let answer = callees(
            declared("function", "run", None, "src/run.ts", (0, 0)),
            Vec::new(),
            completeness,
        );
        let text = hierarchy_text(&answer);
        assert!(
            text.contains(
                "incomplete: 1 unresolved (last line), 2 files not analysed, 3 imports not resolved"
            ),
            "{text}"
        );
    }

    #[test]
    fn overloads_called_at_one_site_read_as_one_callee() {
        let callee = |line: u32| {
            call_with(
                declared("function", "timer", None, "src/timer.ts", (line, 0)),
                Resolution::Import,
                1.0,
                &[("src/interval.ts", 55, 9)],
            )
        };
        let local = call_with(
            declared("function", "check", None, "src/interval.ts", (2, 0)),
            Resolution::Scope,
            1.0,
            &[("src/interval.ts", 51, 2)],
        );
        let answer = callees(
            declared("function", "interval", None, "src/interval.ts", (49, 16)),
            vec![local, callee(83), callee(125)],
            callees_completeness(true, &[], &[]),
        );
        assert_eq!(
            hierarchy_text(&answer),
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
        let candidate = |container: &str, path: &str, line: u32, confidence: f64| {
            call_with(
                declared("method", "subscribe", Some(container), path, (line, 2)),
                Resolution::NameOnly,
                confidence,
                &[("src/op.ts", 47, 11)],
            )
        };
        let answer = callees(
            declared("function", "op", None, "src/op.ts", (40, 16)),
            vec![
                candidate("Observable", "src/Observable.ts", 66, 0.1),
                candidate("Observable", "src/Observable.ts", 68, 0.1),
                candidate("TapObserver", "src/tap.ts", 56, 0.08),
            ],
            callees_completeness(true, &[], &[]),
        );
        assert_eq!(
            hierarchy_text(&answer),
            "callees of function op (src/op.ts:41): 3; complete\n\
             subscribe (Observable src/Observable.ts:67, :69, TapObserver src/tap.ts:57) (guess 0.08-0.1) at 48:12\n"
        );
    }

    /// A callee called once for certain and once by guess is one callee
    /// in the count, and two lines.
    #[test]
    fn a_callee_certain_and_guessed_counts_once() {
        let call = |resolution: Resolution, confidence: f64, line: u32| {
            call_with(
                declared("method", "parse", Some("Parser"), "src/parser.ts", (7, 2)),
                resolution,
                confidence,
                &[("src/run.ts", line, 11)],
            )
        };
        let answer = callees(
            declared("function", "typed", None, "src/run.ts", (2, 16)),
            vec![
                call(Resolution::Qualified, 1.0, 3),
                call(Resolution::NameOnly, 0.5, 4),
            ],
            callees_completeness(true, &[], &[]),
        );
        assert_eq!(
            hierarchy_text(&answer),
            "callees of function typed (src/run.ts:3): 1; complete\n\
             Parser.parse (src/parser.ts:8) at 4:12\n\
             Parser.parse (src/parser.ts:8) (guess 0.5) at 5:12\n"
        );
    }

    /// Calls to names the workspace declares nowhere are external, which
    /// leaves the list complete; the unresolved ones close it.
    #[test]
    fn external_calls_are_named_apart_from_unresolved_ones() {
        let render_with = |completeness: OutgoingCompleteness| {
            let answer = callees(
                declared("function", "op", None, "src/op.rs", (0, 3)),
                Vec::new(),
                completeness,
            );
            hierarchy_text(&answer)
        };
        assert_eq!(
            render_with(callees_completeness(true, &[], &["clone", "to_string"])),
            "callees of function op (src/op.rs:1): 0; complete\n\
             outside the workspace: clone, to_string\n"
        );
        assert_eq!(
            render_with(callees_completeness(false, &["next"], &["clone"])),
            "callees of function op (src/op.rs:1): 0; incomplete: 1 unresolved (last line)\n\
             outside the workspace: clone\n\
             unresolved calls: next\n"
        );
    }

    #[test]
    fn a_list_cut_by_the_budget_names_the_next_page() {
        let sites: Vec<ReferenceItem> = (0..300)
            .map(|i| site("src/a.rs", i, Resolution::Import, 1.0))
            .collect();
        let answer = parse_references(sites, 1000, counted(1000, 0, true));
        let arguments = json!({ "symbol": "parse", "offset": 100 });
        let text = render(&answer, arguments.as_object().unwrap(), MIN_MAX_TOKENS);
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
