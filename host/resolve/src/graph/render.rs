//! Text output of the graph tools (graph-tools-api.md): the Graph section with chain compaction, branch splitting and `#N` names, and the Nodes section with Read-tool offsets and snippets.
//!
//! The renderer only formats: the caller has already chosen the nodes and
//! edges of the answer and read the declarations' source lines. Indices in an
//! [`EdgeView`] that point outside the node list are ignored, and an edge
//! given twice is rendered once, so no input makes the renderer panic.
//!
//! Where the spec's prose and its examples could be read differently, the
//! examples win: context around a focus line is one line either side (the
//! spec shows lines 17 to 19 around the call on line 18, without the
//! declaration's first line), and the Nodes section is sorted by name.

use std::collections::{HashMap, HashSet};

/// The error text of `pathsBetween` when source and target are one symbol.
pub const SAME_SYMBOL: &str = "Invalid query: source and target are the same symbol.";

/// The error text of `pathsBetween` when the two symbols are not connected.
pub const NO_PATH: &str = "No path found.";

/// Snippets are shown only when at most this many nodes are listed.
const MAX_NODES_WITH_SNIPPETS: usize = 15;

/// A node of at most this many lines is shown whole.
const SMALL_NODE_LINES: u64 = 10;

/// Lines of context shown on each side of a focus line.
const FOCUS_CONTEXT: u64 = 1;

/// Lines shown from the top of a large node that has no focus lines.
const HEAD_LINES: u64 = 3;

/// Lines shown from the bottom of a large node that has no focus lines.
const TAIL_LINES: u64 = 2;

/// The note printed once under `## Nodes` when snippets are left out.
const SNIPPETS_OMITTED_NOTE: &str = "(snippets omitted due to size)";

/// What an empty section shows.
const EMPTY_SECTION: &str = "(none)";

/// The relation an edge of the result stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EdgeLabel {
    Calls,
    References,
    Extends,
    Implements,
    Imports,
}

impl EdgeLabel {
    /// The label as printed between the dashes: `CALLS`, `REFERENCES`, ...
    pub fn as_str(self) -> &'static str {
        match self {
            EdgeLabel::Calls => "CALLS",
            EdgeLabel::References => "REFERENCES",
            EdgeLabel::Extends => "EXTENDS",
            EdgeLabel::Implements => "IMPLEMENTS",
            EdgeLabel::Imports => "IMPORTS",
        }
    }
}

/// One symbol of the result, as the renderer needs it.
#[derive(Debug, Clone)]
pub struct NodeView {
    /// Short name, e.g. "formatDate" (the renderer adds #N when needed).
    pub name: String,
    /// Workspace-relative path.
    pub file: String,
    /// 1-based first line of the declaration.
    pub start_line: u32,
    /// 1-based last line (inclusive).
    pub end_line: u32,
    /// The declaration's source text lines start_line..=end_line, or None for external/library symbols.
    pub lines: Option<Vec<String>>,
    /// 1-based lines inside the node that are relevant (call sites etc.).
    pub focus_lines: Vec<u32>,
    /// True for the nodes the query named; they appear in Graph but are not listed under Nodes.
    pub is_query: bool,
}

/// One edge of the result: `from` and `to` index into the node list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EdgeView {
    pub from: usize,
    pub to: usize,
    pub label: EdgeLabel,
}

/// Render a result graph. `edges` index into `nodes`; edges are rendered in a deterministic order (by a DFS from nodes without incoming edges in the result, taking nodes in the given order, then any leftovers, e.g. cycles). Chains: starting from a line's start node, keep following while the current node has exactly one not-yet-rendered outgoing edge; when a node has several outgoing edges, the first continues the current line and each other branch starts a new line beginning with that node's name (as in the spec's "A --CALLS--> B --CALLS--> C / B --CALLS--> D"). Every edge appears exactly once. Cycles terminate.
///
/// A node that no edge touches gets a line of its own holding just its
/// name, so every node listed under Nodes can be found in the Graph.
pub fn render(nodes: &[NodeView], edges: &[EdgeView]) -> String {
    let edges = usable_edges(nodes.len(), edges);
    let lines = graph_lines(nodes.len(), &edges);
    let names = display_names(nodes, &lines);
    let mut out = String::from("## Graph\n\n");
    out.push_str(&graph_section(&lines, &names));
    out.push_str("\n## Nodes\n\n");
    out.push_str(&nodes_section(nodes, &names));
    out
}

// ---------------------------------------------------------------------------
// Graph section
// ---------------------------------------------------------------------------

/// One line of the Graph section: a start node and the hops that follow it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct GraphLine {
    start: usize,
    hops: Vec<(EdgeLabel, usize)>,
}

/// The edges that can be rendered: both ends in range, each edge once, in
/// the given order.
fn usable_edges(node_count: usize, edges: &[EdgeView]) -> Vec<EdgeView> {
    let mut seen = HashSet::new();
    edges
        .iter()
        .filter(|e| e.from < node_count && e.to < node_count)
        .filter(|e| seen.insert((e.from, e.to, e.label)))
        .copied()
        .collect()
}

/// Splits the edges into compacted chains: roots first (in node order),
/// then whatever is left (cycles), each walked depth-first.
fn graph_lines(node_count: usize, edges: &[EdgeView]) -> Vec<GraphLine> {
    let mut has_incoming = vec![false; node_count];
    for edge in edges {
        has_incoming[edge.to] = true;
    }
    let mut walk = ChainWalk::new(node_count, edges);
    for node in (0..node_count).filter(|&n| !has_incoming[n]) {
        if walk.has_pending(node) {
            walk.walk_from(node);
        } else {
            walk.lines.push(GraphLine {
                start: node,
                hops: Vec::new(),
            });
        }
    }
    for node in 0..node_count {
        walk.walk_from(node);
    }
    walk.lines
}

/// The state of the chain walk: each node's outgoing edges in the given
/// order, and how many of them have been rendered.
struct ChainWalk<'a> {
    edges: &'a [EdgeView],
    outgoing: Vec<Vec<usize>>,
    rendered: Vec<usize>,
    lines: Vec<GraphLine>,
}

impl<'a> ChainWalk<'a> {
    fn new(node_count: usize, edges: &'a [EdgeView]) -> Self {
        let mut outgoing = vec![Vec::new(); node_count];
        for (index, edge) in edges.iter().enumerate() {
            outgoing[edge.from].push(index);
        }
        ChainWalk {
            edges,
            outgoing,
            rendered: vec![0; node_count],
            lines: Vec::new(),
        }
    }

    /// Whether `node` still has an outgoing edge to render.
    fn has_pending(&self, node: usize) -> bool {
        self.rendered[node] < self.outgoing[node].len()
    }

    /// Marks the next outgoing edge of `node` rendered and returns it.
    fn take_next(&mut self, node: usize) -> Option<EdgeView> {
        let index = *self.outgoing[node].get(self.rendered[node])?;
        self.rendered[node] += 1;
        self.edges.get(index).copied()
    }

    /// Renders every edge reachable from `root` over unrendered edges:
    /// after each chain, the deepest branch point with edges left starts the
    /// next line.
    fn walk_from(&mut self, root: usize) {
        let mut branch_points = vec![root];
        while let Some(&node) = branch_points.last() {
            if self.has_pending(node) {
                let line = self.follow_chain(node, &mut branch_points);
                self.lines.push(line);
            } else {
                branch_points.pop();
            }
        }
    }

    /// Follows first unrendered edges from `start` until a node has none
    /// left, noting the nodes where other branches remain.
    fn follow_chain(&mut self, start: usize, branch_points: &mut Vec<usize>) -> GraphLine {
        let mut line = GraphLine {
            start,
            hops: Vec::new(),
        };
        let mut current = start;
        while let Some(edge) = self.take_next(current) {
            if self.has_pending(current) {
                branch_points.push(current);
            }
            line.hops.push((edge.label, edge.to));
            current = edge.to;
        }
        line
    }
}

/// The Graph section's lines, each ending in a newline.
fn graph_section(lines: &[GraphLine], names: &[String]) -> String {
    if lines.is_empty() {
        return format!("{EMPTY_SECTION}\n");
    }
    let mut out = String::new();
    for line in lines {
        out.push_str(&format_graph_line(line, names));
        out.push('\n');
    }
    out
}

/// `A --CALLS--> B --REFERENCES--> C`.
fn format_graph_line(line: &GraphLine, names: &[String]) -> String {
    let mut out = name_of(names, line.start).to_owned();
    for &(label, to) in &line.hops {
        out.push_str(" --");
        out.push_str(label.as_str());
        out.push_str("--> ");
        out.push_str(name_of(names, to));
    }
    out
}

fn name_of(names: &[String], node: usize) -> &str {
    names.get(node).map(String::as_str).unwrap_or("?")
}

// ---------------------------------------------------------------------------
// Names
// ---------------------------------------------------------------------------

/// Each node's printed name: the short name, plus `#N` when several nodes
/// share it, numbered in order of first appearance in the Graph section.
fn display_names(nodes: &[NodeView], lines: &[GraphLine]) -> Vec<String> {
    let mut sharing: HashMap<&str, usize> = HashMap::new();
    for node in nodes {
        *sharing.entry(node.name.as_str()).or_default() += 1;
    }
    let mut names: Vec<String> = nodes.iter().map(|n| n.name.clone()).collect();
    let mut next_id: HashMap<&str, usize> = HashMap::new();
    for index in appearance_order(nodes.len(), lines) {
        let name = nodes[index].name.as_str();
        if sharing.get(name).copied().unwrap_or(0) > 1 {
            let id = next_id.entry(name).or_default();
            *id += 1;
            names[index] = format!("{name}#{id}");
        }
    }
    names
}

/// Node indices in order of first appearance in the Graph lines, followed
/// by any node that does not appear.
fn appearance_order(node_count: usize, lines: &[GraphLine]) -> Vec<usize> {
    let mut seen = vec![false; node_count];
    let mut order = Vec::with_capacity(node_count);
    let mentioned = lines
        .iter()
        .flat_map(|l| std::iter::once(l.start).chain(l.hops.iter().map(|&(_, to)| to)));
    for node in mentioned.chain(0..node_count) {
        if node < node_count && !seen[node] {
            seen[node] = true;
            order.push(node);
        }
    }
    order
}

// ---------------------------------------------------------------------------
// Nodes section
// ---------------------------------------------------------------------------

/// The Nodes section: discovered nodes sorted by printed name, one entry
/// each, separated by blank lines.
fn nodes_section(nodes: &[NodeView], names: &[String]) -> String {
    let listed = listed_nodes(nodes, names);
    if listed.is_empty() {
        return format!("{EMPTY_SECTION}\n");
    }
    let with_snippets = listed.len() <= MAX_NODES_WITH_SNIPPETS;
    let mut entries: Vec<String> = listed
        .iter()
        .map(|&i| node_entry(&nodes[i], name_of(names, i), with_snippets))
        .collect();
    if !with_snippets {
        entries.insert(0, format!("{SNIPPETS_OMITTED_NOTE}\n"));
    }
    entries.join("\n")
}

/// Indices of the discovered (non-query) nodes in listing order: by name
/// ignoring case, then by name, then by `#N`.
fn listed_nodes(nodes: &[NodeView], names: &[String]) -> Vec<usize> {
    let mut listed: Vec<usize> = (0..nodes.len()).filter(|&i| !nodes[i].is_query).collect();
    listed.sort_by_cached_key(|&i| {
        let base = nodes[i].name.as_str();
        let id: usize = name_of(names, i)
            .strip_prefix(base)
            .and_then(|rest| rest.strip_prefix('#'))
            .and_then(|n| n.parse().ok())
            .unwrap_or(0);
        (base.to_lowercase(), base.to_owned(), id, i)
    });
    listed
}

/// One entry: name, file, Read-tool offset and limit, and the snippet when
/// wanted and the source is known.
fn node_entry(node: &NodeView, name: &str, with_snippet: bool) -> String {
    let span = LineSpan::of(node);
    let mut out = format!(
        "{name}:\n  file: {}\n  offset: {}, limit: {}\n",
        node.file,
        span.start,
        span.limit()
    );
    if let (true, Some(lines)) = (with_snippet, &node.lines) {
        out.push_str("  snippet:\n");
        for row in snippet_rows(span, &node.focus_lines) {
            out.push_str(&format_row(row, span, lines));
            out.push('\n');
        }
    }
    out
}

// ---------------------------------------------------------------------------
// Snippets
// ---------------------------------------------------------------------------

/// A node's lines, 1-based and inclusive, in u64 so no arithmetic on them
/// can overflow. An end before the start is read as a one-line node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct LineSpan {
    start: u64,
    end: u64,
}

impl LineSpan {
    fn of(node: &NodeView) -> Self {
        let start = u64::from(node.start_line);
        LineSpan {
            start,
            end: u64::from(node.end_line).max(start),
        }
    }

    /// The Read tool's `limit`: how many lines the node spans.
    fn limit(self) -> u64 {
        self.end - self.start + 1
    }

    fn contains(self, line: u64) -> bool {
        (self.start..=self.end).contains(&line)
    }
}

/// One printed row of a snippet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SnippetRow {
    /// A source line, by its 1-based number.
    Line(u64),
    /// `... omitted N lines ...`.
    Omitted(u64),
}

/// The rows of a node's snippet. Shown lines plus omitted lines always add
/// up to the node's `limit`.
fn snippet_rows(span: LineSpan, focus_lines: &[u32]) -> Vec<SnippetRow> {
    rows_from_ranges(span, &shown_ranges(span, focus_lines))
}

/// The line ranges to show, sorted and disjoint: everything for a small
/// node, the context around each focus line for a larger one, or its head
/// and tail when it has no focus line.
fn shown_ranges(span: LineSpan, focus_lines: &[u32]) -> Vec<(u64, u64)> {
    if span.limit() <= SMALL_NODE_LINES {
        return vec![(span.start, span.end)];
    }
    let windows = focus_windows(span, focus_lines);
    if windows.is_empty() {
        return vec![
            (span.start, span.start + HEAD_LINES - 1),
            (span.end + 1 - TAIL_LINES, span.end),
        ];
    }
    merge_ranges(windows)
}

/// The context window around each focus line inside the node, clipped to
/// the node.
fn focus_windows(span: LineSpan, focus_lines: &[u32]) -> Vec<(u64, u64)> {
    focus_lines
        .iter()
        .map(|&line| u64::from(line))
        .filter(|&line| span.contains(line))
        .map(|line| {
            let first = line.saturating_sub(FOCUS_CONTEXT).max(span.start);
            let last = (line + FOCUS_CONTEXT).min(span.end);
            (first, last)
        })
        .collect()
}

/// Sorts ranges and merges those that overlap or touch.
fn merge_ranges(mut ranges: Vec<(u64, u64)>) -> Vec<(u64, u64)> {
    ranges.sort_unstable();
    let mut merged: Vec<(u64, u64)> = Vec::with_capacity(ranges.len());
    for (first, last) in ranges {
        match merged.last_mut() {
            Some(previous) if first <= previous.1 + 1 => previous.1 = previous.1.max(last),
            _ => merged.push((first, last)),
        }
    }
    merged
}

/// Turns shown ranges into rows, with a marker for every gap before,
/// between and after them. A one-line gap shows its line instead: the
/// marker would take as much room.
fn rows_from_ranges(span: LineSpan, ranges: &[(u64, u64)]) -> Vec<SnippetRow> {
    let mut rows = Vec::new();
    let mut next = span.start;
    for &(first, last) in ranges {
        push_gap(&mut rows, next, first);
        rows.extend((first..=last).map(SnippetRow::Line));
        next = last + 1;
    }
    push_gap(&mut rows, next, span.end + 1);
    rows
}

/// The rows for the lines `from..to` left out between shown ranges.
fn push_gap(rows: &mut Vec<SnippetRow>, from: u64, to: u64) {
    match to.saturating_sub(from) {
        0 => {}
        1 => rows.push(SnippetRow::Line(from)),
        count => rows.push(SnippetRow::Omitted(count)),
    }
}

/// `    17:   const x` or `    ... omitted 7 lines ...`. A line missing
/// from the given source prints empty; trailing whitespace is dropped.
fn format_row(row: SnippetRow, span: LineSpan, lines: &[String]) -> String {
    match row {
        SnippetRow::Line(number) => {
            let text = usize::try_from(number - span.start)
                .ok()
                .and_then(|index| lines.get(index))
                .map(String::as_str)
                .unwrap_or("");
            format!("    {number}: {text}").trim_end().to_owned()
        }
        SnippetRow::Omitted(count) => format!("    ... omitted {count} lines ..."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A node with source: `lines` are the texts of start..start+len.
    fn node(name: &str, file: &str, start: u32, lines: &[&str]) -> NodeView {
        let count = u32::try_from(lines.len()).expect("test node size");
        NodeView {
            name: name.to_owned(),
            file: file.to_owned(),
            start_line: start,
            end_line: start + count.max(1) - 1,
            lines: Some(lines.iter().map(|l| (*l).to_owned()).collect()),
            focus_lines: Vec::new(),
            is_query: false,
        }
    }

    /// A node with `count` lines whose texts are `line <n>`.
    fn numbered(name: &str, file: &str, start: u32, count: u32) -> NodeView {
        let texts: Vec<String> = (start..start + count)
            .map(|n| format!("line {n}"))
            .collect();
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        node(name, file, start, &refs)
    }

    /// An external node: location known, source not.
    fn external(name: &str, file: &str, start: u32, end: u32) -> NodeView {
        NodeView {
            name: name.to_owned(),
            file: file.to_owned(),
            start_line: start,
            end_line: end,
            lines: None,
            focus_lines: Vec::new(),
            is_query: false,
        }
    }

    /// A query node (shown in Graph only).
    fn query(name: &str) -> NodeView {
        NodeView {
            is_query: true,
            ..external(name, "query.ts", 1, 1)
        }
    }

    fn with_focus(mut node: NodeView, focus: &[u32]) -> NodeView {
        node.focus_lines = focus.to_vec();
        node
    }

    fn calls(from: usize, to: usize) -> EdgeView {
        EdgeView {
            from,
            to,
            label: EdgeLabel::Calls,
        }
    }

    /// The spec's "Output Format" example. The spec's processOrder entry
    /// cannot be reproduced as printed: it shows 2 + 2 lines and omits 25
    /// of a 30-line node (29 in all). The head of a node without focus is 3
    /// lines, which makes the count 25 right, so line 44 is shown here too.
    #[test]
    fn spec_output_format_example() {
        let format_date = node(
            "formatDate",
            "src/utils.ts",
            15,
            &[
                "function formatDate(timestamp: number): string {",
                "  return new Date(timestamp).toISOString();",
                "}",
            ],
        );
        let mut handle_request = numbered("handleRequest", "src/api/handler.ts", 10, 25);
        if let Some(lines) = handle_request.lines.as_mut() {
            lines[7] = "  const timestamp = req.body.timestamp;".to_owned();
            lines[8] = "  const date = formatDate(timestamp);".to_owned();
            lines[9] = "  if (date) {".to_owned();
        }
        let handle_request = with_focus(handle_request, &[18]);
        let mut process_order = numbered("processOrder", "src/orders/service.ts", 42, 30);
        if let Some(lines) = process_order.lines.as_mut() {
            lines[0] = "export function processOrder(order: Order): Result {".to_owned();
            lines[1] = "  const validated = validate(order);".to_owned();
            lines[2] = "  if (!validated.ok) {".to_owned();
            lines[28] = "  return result;".to_owned();
            lines[29] = "}".to_owned();
        }
        let to_iso_string = external("toISOString", "node_modules/date-fns/index.ts", 120, 122);
        let nodes = [format_date, handle_request, process_order, to_iso_string];
        let edges = [calls(1, 0), calls(0, 3), calls(2, 0)];
        let expected = "\
## Graph

handleRequest --CALLS--> formatDate --CALLS--> toISOString
processOrder --CALLS--> formatDate

## Nodes

formatDate:
  file: src/utils.ts
  offset: 15, limit: 3
  snippet:
    15: function formatDate(timestamp: number): string {
    16:   return new Date(timestamp).toISOString();
    17: }

handleRequest:
  file: src/api/handler.ts
  offset: 10, limit: 25
  snippet:
    ... omitted 7 lines ...
    17:   const timestamp = req.body.timestamp;
    18:   const date = formatDate(timestamp);
    19:   if (date) {
    ... omitted 15 lines ...

processOrder:
  file: src/orders/service.ts
  offset: 42, limit: 30
  snippet:
    42: export function processOrder(order: Order): Result {
    43:   const validated = validate(order);
    44:   if (!validated.ok) {
    ... omitted 25 lines ...
    70:   return result;
    71: }

toISOString:
  file: node_modules/date-fns/index.ts
  offset: 120, limit: 3
";
        assert_eq!(render(&nodes, &edges), expected);
    }

    #[test]
    fn spec_linear_chain_is_one_line() {
        let mut nodes = vec![query("entry")];
        for n in 2..=5 {
            nodes.push(external(
                &format!("step0{n}"),
                "src/steps.ts",
                n * 10,
                n * 10 + 4,
            ));
        }
        let edges = [calls(0, 1), calls(1, 2), calls(2, 3), calls(3, 4)];
        let expected = "\
## Graph

entry --CALLS--> step02 --CALLS--> step03 --CALLS--> step04 --CALLS--> step05

## Nodes

step02:
  file: src/steps.ts
  offset: 20, limit: 5

step03:
  file: src/steps.ts
  offset: 30, limit: 5

step04:
  file: src/steps.ts
  offset: 40, limit: 5

step05:
  file: src/steps.ts
  offset: 50, limit: 5
";
        assert_eq!(render(&nodes, &edges), expected);
    }

    #[test]
    fn spec_branching_starts_a_line_at_the_branch_point() {
        let nodes = [query("A"), query("B"), query("C"), query("D")];
        let edges = [calls(0, 1), calls(1, 2), calls(1, 3)];
        let expected = "\
## Graph

A --CALLS--> B --CALLS--> C
B --CALLS--> D

## Nodes

(none)
";
        assert_eq!(render(&nodes, &edges), expected);
    }

    /// The spec's disambiguation example lists only the two formatDate
    /// entries; the other three nodes are made query nodes to match it.
    #[test]
    fn spec_disambiguation_example() {
        let nodes = [
            query("handleRequest"),
            node(
                "formatDate",
                "src/api/utils.ts",
                15,
                &["export const formatDate = (d: Date) => d.toISOString();"],
            ),
            query("toISOString"),
            node(
                "formatDate",
                "src/legacy/utils.ts",
                42,
                &[
                    "function formatDate(d: Date): string {",
                    "  return parseDate(d).format(\"YYYY-MM-DD\");",
                    "}",
                ],
            ),
            query("parseDate"),
        ];
        let edges = [calls(0, 1), calls(1, 2), calls(3, 4)];
        let expected = "\
## Graph

handleRequest --CALLS--> formatDate#1 --CALLS--> toISOString
formatDate#2 --CALLS--> parseDate

## Nodes

formatDate#1:
  file: src/api/utils.ts
  offset: 15, limit: 1
  snippet:
    15: export const formatDate = (d: Date) => d.toISOString();

formatDate#2:
  file: src/legacy/utils.ts
  offset: 42, limit: 3
  snippet:
    42: function formatDate(d: Date): string {
    43:   return parseDate(d).format(\"YYYY-MM-DD\");
    44: }
";
        assert_eq!(render(&nodes, &edges), expected);
    }

    /// Numbers follow the Graph section, not the input order, and the
    /// Nodes section sorts #2 before #10.
    #[test]
    fn disambiguation_numbers_follow_first_appearance_in_graph() {
        let mut nodes = vec![query("main")];
        for n in 1..=10 {
            nodes.push(external("run", &format!("src/run{n:02}.ts"), n, n));
        }
        // main calls the run nodes from the last to the first.
        let edges: Vec<EdgeView> = (1..=10).rev().map(|to| calls(0, to)).collect();
        let out = render(&nodes, &edges);
        let graph: String = (1..=10)
            .map(|id| format!("main --CALLS--> run#{id}\n"))
            .collect();
        let entries: Vec<String> = (1..=10)
            .map(|id| {
                let n = 11 - id;
                format!("run#{id}:\n  file: src/run{n:02}.ts\n  offset: {n}, limit: 1\n")
            })
            .collect();
        let expected = format!("## Graph\n\n{graph}\n## Nodes\n\n{}", entries.join("\n"));
        assert_eq!(out, expected);
    }

    #[test]
    fn every_label_is_printed() {
        let nodes = [
            query("a"),
            query("b"),
            query("c"),
            query("d"),
            query("e"),
            query("f"),
        ];
        let labels = [
            EdgeLabel::Calls,
            EdgeLabel::References,
            EdgeLabel::Extends,
            EdgeLabel::Implements,
            EdgeLabel::Imports,
        ];
        let edges: Vec<EdgeView> = labels
            .iter()
            .enumerate()
            .map(|(i, &label)| EdgeView {
                from: i,
                to: i + 1,
                label,
            })
            .collect();
        let expected = "\
## Graph

a --CALLS--> b --REFERENCES--> c --EXTENDS--> d --IMPLEMENTS--> e --IMPORTS--> f

## Nodes

(none)
";
        assert_eq!(render(&nodes, &edges), expected);
    }

    #[test]
    fn cycle_terminates_and_renders_each_edge_once() {
        let nodes = [query("A"), external("B", "src/b.ts", 3, 4)];
        let edges = [calls(0, 1), calls(1, 0)];
        let expected = "\
## Graph

A --CALLS--> B --CALLS--> A

## Nodes

B:
  file: src/b.ts
  offset: 3, limit: 2
";
        assert_eq!(render(&nodes, &edges), expected);
    }

    #[test]
    fn cycle_behind_a_root_and_self_loop() {
        let nodes = [query("X"), query("A"), query("B"), query("S")];
        let edges = [calls(2, 1), calls(1, 2), calls(0, 1), calls(3, 3)];
        let expected = "\
## Graph

X --CALLS--> A --CALLS--> B --CALLS--> A
S --CALLS--> S

## Nodes

(none)
";
        assert_eq!(render(&nodes, &edges), expected);
    }

    /// Deeper branch points are finished first (depth-first).
    #[test]
    fn nested_branches_render_depth_first() {
        let nodes = [query("A"), query("B"), query("C"), query("D"), query("E")];
        let edges = [calls(0, 1), calls(0, 2), calls(1, 3), calls(1, 4)];
        let expected = "\
## Graph

A --CALLS--> B --CALLS--> D
B --CALLS--> E
A --CALLS--> C

## Nodes

(none)
";
        assert_eq!(render(&nodes, &edges), expected);
    }

    #[test]
    fn duplicate_and_out_of_range_edges_are_ignored_and_isolated_nodes_shown() {
        let nodes = [query("A"), query("B"), query("Lonely")];
        let edges = [calls(0, 1), calls(0, 1), calls(0, 9), calls(7, 1)];
        let expected = "\
## Graph

A --CALLS--> B
Lonely

## Nodes

(none)
";
        assert_eq!(render(&nodes, &edges), expected);
    }

    #[test]
    fn empty_result_prints_both_sections() {
        assert_eq!(
            render(&[], &[]),
            "## Graph\n\n(none)\n\n## Nodes\n\n(none)\n"
        );
    }

    #[test]
    fn external_node_has_no_snippet() {
        let nodes = [
            query("main"),
            external("readFile", "node_modules/fs/index.d.ts", 7, 30),
        ];
        let expected = "\
## Graph

main --CALLS--> readFile

## Nodes

readFile:
  file: node_modules/fs/index.d.ts
  offset: 7, limit: 24
";
        assert_eq!(render(&nodes, &[calls(0, 1)]), expected);
    }

    #[test]
    fn more_than_fifteen_nodes_omit_snippets_with_one_note() {
        let mut nodes = vec![query("main")];
        for n in 1..=16 {
            nodes.push(numbered(&format!("f{n:02}"), "src/f.ts", n * 10, 3));
        }
        let edges: Vec<EdgeView> = (1..=16).map(|to| calls(0, to)).collect();
        let graph: String = (1..=16)
            .map(|n| format!("main --CALLS--> f{n:02}\n"))
            .collect();
        let entries: Vec<String> = (1..=16)
            .map(|n| {
                format!(
                    "f{n:02}:\n  file: src/f.ts\n  offset: {}, limit: 3\n",
                    n * 10
                )
            })
            .collect();
        let expected = format!(
            "## Graph\n\n{graph}\n## Nodes\n\n(snippets omitted due to size)\n\n{}",
            entries.join("\n")
        );
        assert_eq!(render(&nodes, &edges), expected);
    }

    #[test]
    fn fifteen_nodes_keep_snippets() {
        let mut nodes = vec![query("main")];
        for n in 1..=15 {
            nodes.push(numbered(&format!("f{n:02}"), "src/f.ts", n * 10, 1));
        }
        let edges: Vec<EdgeView> = (1..=15).map(|to| calls(0, to)).collect();
        let graph: String = (1..=15)
            .map(|n| format!("main --CALLS--> f{n:02}\n"))
            .collect();
        let entries: Vec<String> = (1..=15)
            .map(|n| {
                let line = n * 10;
                format!(
                    "f{n:02}:\n  file: src/f.ts\n  offset: {line}, limit: 1\n  snippet:\n    {line}: line {line}\n"
                )
            })
            .collect();
        let expected = format!("## Graph\n\n{graph}\n## Nodes\n\n{}", entries.join("\n"));
        assert_eq!(render(&nodes, &edges), expected);
    }

    #[test]
    fn ten_line_node_is_shown_whole_and_eleven_lines_get_head_and_tail() {
        let nodes = [
            query("main"),
            numbered("ten", "src/a.ts", 1, 10),
            numbered("eleven", "src/b.ts", 20, 11),
        ];
        let expected = "\
## Graph

main --CALLS--> ten
main --CALLS--> eleven

## Nodes

eleven:
  file: src/b.ts
  offset: 20, limit: 11
  snippet:
    20: line 20
    21: line 21
    22: line 22
    ... omitted 6 lines ...
    29: line 29
    30: line 30

ten:
  file: src/a.ts
  offset: 1, limit: 10
  snippet:
    1: line 1
    2: line 2
    3: line 3
    4: line 4
    5: line 5
    6: line 6
    7: line 7
    8: line 8
    9: line 9
    10: line 10
";
        assert_eq!(render(&nodes, &[calls(0, 1), calls(0, 2)]), expected);
    }

    /// Focus 105 and 107 overlap, 112 and 114 touch, 129 is clipped at the
    /// end, 150 is outside the node and ignored; the one-line gap before
    /// 104 is shown rather than marked.
    #[test]
    fn focus_windows_merge_and_gaps_are_marked() {
        let big = with_focus(
            numbered("big", "src/big.ts", 102, 28),
            &[129, 107, 105, 112, 114, 150],
        );
        let nodes = [query("main"), big];
        let expected = "\
## Graph

main --CALLS--> big

## Nodes

big:
  file: src/big.ts
  offset: 102, limit: 28
  snippet:
    ... omitted 2 lines ...
    104: line 104
    105: line 105
    106: line 106
    107: line 107
    108: line 108
    ... omitted 2 lines ...
    111: line 111
    112: line 112
    113: line 113
    114: line 114
    115: line 115
    ... omitted 12 lines ...
    128: line 128
    129: line 129
";
        assert_eq!(render(&nodes, &[calls(0, 1)]), expected);
    }

    #[test]
    fn one_line_gap_is_shown_instead_of_marked() {
        let node = with_focus(numbered("f", "src/f.ts", 1, 12), &[3, 7, 11]);
        let rows = snippet_rows(LineSpan::of(&node), &node.focus_lines);
        let expected: Vec<SnippetRow> = (1..=12).map(SnippetRow::Line).collect();
        assert_eq!(rows, expected);
    }

    #[test]
    fn missing_source_lines_print_empty_and_inverted_span_is_one_line() {
        let mut short = numbered("short", "src/s.ts", 5, 2);
        short.end_line = 7;
        let mut inverted = numbered("inverted", "src/i.ts", 9, 1);
        inverted.end_line = 3;
        let nodes = [query("main"), short, inverted];
        let expected = "\
## Graph

main --CALLS--> short
main --CALLS--> inverted

## Nodes

inverted:
  file: src/i.ts
  offset: 9, limit: 1
  snippet:
    9: line 9

short:
  file: src/s.ts
  offset: 5, limit: 3
  snippet:
    5: line 5
    6: line 6
    7:
";
        assert_eq!(render(&nodes, &[calls(0, 1), calls(0, 2)]), expected);
    }

    /// Parses a rendered snippet back: shown lines must be increasing, and
    /// shown plus omitted lines must equal the node's limit.
    fn check_snippet_covers_limit(start: u32, count: u32, focus: &[u32]) {
        let node = with_focus(numbered("n", "src/n.ts", start, count), focus);
        let entry = node_entry(&node, "n", true);
        let mut shown = 0u64;
        let mut omitted = 0u64;
        let mut previous = 0u64;
        for row in entry.lines().skip_while(|l| *l != "  snippet:").skip(1) {
            let row = row.trim_start();
            if let Some(count) = row
                .strip_prefix("... omitted ")
                .and_then(|rest| rest.strip_suffix(" lines ..."))
            {
                let count: u64 = count.parse().expect("omitted count");
                assert!(count >= 2, "gap of {count} in {entry}");
                omitted += count;
            } else {
                let number: u64 = row
                    .split(':')
                    .next()
                    .and_then(|n| n.parse().ok())
                    .expect("line number");
                assert!(number > previous, "lines out of order in {entry}");
                previous = number;
                shown += 1;
            }
        }
        assert_eq!(shown + omitted, u64::from(count), "{entry}");
    }

    #[test]
    fn shown_plus_omitted_equals_limit_for_many_sizes() {
        let mut seed = 0x2545_f491_u32;
        let mut next = move |bound: u32| {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed % bound
        };
        for count in 1..=80 {
            for start in [1, 2, 57] {
                check_snippet_covers_limit(start, count, &[]);
                for _ in 0..20 {
                    let focus: Vec<u32> = (0..next(6))
                        .map(|_| start + next(count + 4).saturating_sub(2))
                        .collect();
                    check_snippet_covers_limit(start, count, &focus);
                }
            }
        }
    }

    #[test]
    fn huge_line_numbers_do_not_overflow() {
        let mut node = external("edge", "src/e.ts", u32::MAX - 20, u32::MAX);
        node.lines = Some(Vec::new());
        node.focus_lines = vec![u32::MAX];
        let rows = snippet_rows(LineSpan::of(&node), &node.focus_lines);
        let last = u64::from(u32::MAX);
        assert_eq!(
            rows,
            vec![
                SnippetRow::Omitted(19),
                SnippetRow::Line(last - 1),
                SnippetRow::Line(last)
            ]
        );
    }

    #[test]
    fn error_texts_match_the_spec() {
        assert_eq!(
            SAME_SYMBOL,
            "Invalid query: source and target are the same symbol."
        );
        assert_eq!(NO_PATH, "No path found.");
    }
}
