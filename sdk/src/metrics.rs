//! Per-function metrics: cyclomatic and cognitive complexity, nesting,
//! parameters, lines and Halstead counts, driven by a `MetricsConfig`.

use std::collections::HashSet;

use tree_sitter::Node;

use crate::facts::{SymbolNode, text};
use crate::language::{Language, MetricsConfig};
use crate::types::{FunctionMetrics, Halstead, Symbol};

/// Metrics of every symbol whose tag is a function tag.
pub fn function_metrics<L: Language>(
    root: Node,
    source: &str,
    symbols: &[Symbol],
    nodes: &[SymbolNode],
    config: &MetricsConfig,
    comment_kinds: &[&str],
) -> Vec<FunctionMetrics> {
    let mut kinds = KindRoles::default();
    symbols
        .iter()
        .zip(nodes)
        .enumerate()
        .filter(|(_, (symbol, _))| {
            config
                .function_tags
                .contains(&symbol.language_kind.as_str())
        })
        .filter_map(|(index, (_, at))| {
            let node = L::measured_node(find_node(root, at)?);
            Some(measure(
                node,
                index as u32,
                source,
                config,
                comment_kinds,
                &mut kinds,
                nodes,
            ))
        })
        .collect()
}

/// The node a `SymbolNode` was recorded from.
pub fn find_node<'t>(root: Node<'t>, at: &SymbolNode) -> Option<Node<'t>> {
    let mut node = root.descendant_for_byte_range(at.start, at.end)?;
    loop {
        if node.start_byte() == at.start
            && node.end_byte() == at.end
            && node.kind_id() == at.kind_id
        {
            return Some(node);
        }
        node = node.parent()?;
    }
}

/// What a node kind is to the metrics, by the config's lists.
mod role {
    pub const COMMENT: u8 = 1;
    pub const BRANCH: u8 = 2;
    pub const NESTING: u8 = 4;
    pub const ELSE: u8 = 8;
    pub const NESTING_ONLY: u8 = 16;
    pub const BINARY: u8 = 32;
    pub const ATOMIC_OPERAND: u8 = 64;
}

/// Each node kind's name and roles, looked up once per kind id: the walk
/// visits every node of every function, and a kind's name is a C string
/// to measure and compare against the config's lists.
#[derive(Default)]
struct KindRoles {
    by_id: Vec<Option<(&'static str, u8)>>,
}

impl KindRoles {
    fn of(
        &mut self,
        node: Node,
        config: &MetricsConfig,
        comment_kinds: &[&str],
    ) -> (&'static str, u8) {
        let id = usize::from(node.kind_id());
        if let Some(Some(known)) = self.by_id.get(id) {
            return *known;
        }
        let name = node.kind();
        let lists: [(&[&str], u8); 7] = [
            (comment_kinds, role::COMMENT),
            (config.branch_kinds, role::BRANCH),
            (config.nesting_kinds, role::NESTING),
            (config.else_kinds, role::ELSE),
            (config.nesting_only_kinds, role::NESTING_ONLY),
            (config.binary_kinds, role::BINARY),
            (config.atomic_operand_kinds, role::ATOMIC_OPERAND),
        ];
        let roles = lists
            .iter()
            .filter(|(list, _)| list.contains(&name))
            .fold(0, |roles, (_, role)| roles | role);
        if self.by_id.len() <= id {
            self.by_id.resize(id + 1, None);
        }
        self.by_id[id] = Some((name, roles));
        (name, roles)
    }
}

struct Walk<'a> {
    config: &'a MetricsConfig,
    comment_kinds: &'a [&'a str],
    kinds: &'a mut KindRoles,
    source: &'a str,
    /// Nested function symbols, measured on their own: `(start, end,
    /// kind)`, sorted.
    nested_functions: Vec<(usize, usize, u16)>,
    cyclomatic: u32,
    cognitive: u32,
    max_nesting: u32,
    operators: HashSet<&'static str>,
    operands: HashSet<&'a str>,
    total_operators: u32,
    total_operands: u32,
    code_rows: RowCount,
    comment_rows: RowCount,
}

/// Distinct rows of text seen, for spans that come in document order
/// (each starts at or after the end of the one before): a count and the
/// last row counted, instead of a set of rows.
#[derive(Default)]
struct RowCount {
    rows: u32,
    last: Option<usize>,
}

impl RowCount {
    /// Count the rows `first..=last` not counted yet.
    fn add(&mut self, first: usize, last: usize) {
        let from = match self.last {
            Some(seen) => first.max(seen + 1),
            None => first,
        };
        if from <= last {
            self.rows += (last - from + 1) as u32;
            self.last = Some(last);
        }
    }
}

/// Where the walk is among the children of one node: the nesting and
/// `else` state they inherit, and whether an `else` token came before.
struct Level {
    nesting: u32,
    is_else: bool,
    after_else_token: bool,
    /// Whether `else` tokens among these children mark the next one (not
    /// for the function's own children, which are walked as they are).
    tracks_else: bool,
}

fn measure(
    function: Node,
    symbol: u32,
    source: &str,
    config: &MetricsConfig,
    comment_kinds: &[&str],
    kinds: &mut KindRoles,
    nodes: &[SymbolNode],
) -> FunctionMetrics {
    // `nodes` is in document order: the symbols inside the function are a
    // range of it (scanning all of them per function made large files
    // quadratic).
    let (start, end) = (function.start_byte(), function.end_byte());
    let first = nodes.partition_point(|n| n.start <= start);
    let last = nodes.partition_point(|n| n.start <= end).max(first);
    let mut nested_functions: Vec<(usize, usize, u16)> = nodes[first..last]
        .iter()
        .filter(|n| n.end <= end)
        .map(|n| (n.start, n.end, n.kind_id))
        .collect();
    nested_functions.sort_unstable();
    let mut walk = Walk {
        config,
        comment_kinds,
        kinds,
        source,
        nested_functions,
        cyclomatic: 1,
        cognitive: 0,
        max_nesting: 0,
        operators: HashSet::new(),
        operands: HashSet::new(),
        total_operators: 0,
        total_operands: 0,
        code_rows: RowCount::default(),
        comment_rows: RowCount::default(),
    };
    walk.walk_below(function);
    let parameters = function
        .child_by_field_name(config.parameters_field)
        .map(|list| {
            let mut c = list.walk();
            list.named_children(&mut c)
                .filter(|p| !comment_kinds.contains(&p.kind()) && !p.kind().contains("attribute"))
                .map(declared_parameters)
                .sum::<u32>()
        })
        .unwrap_or(0);
    FunctionMetrics {
        symbol,
        cyclomatic: walk.cyclomatic,
        cognitive: walk.cognitive,
        max_nesting: walk.max_nesting,
        parameters,
        lines: (function.end_position().row - function.start_position().row + 1) as u32,
        code_lines: walk.code_rows.rows,
        comment_lines: walk.comment_rows.rows,
        halstead: Halstead {
            distinct_operators: walk.operators.len() as u32,
            distinct_operands: walk.operands.len() as u32,
            total_operators: walk.total_operators,
            total_operands: walk.total_operands,
        },
    }
}

/// How many parameters one entry of a parameter list declares: one per
/// `name` field when it has several (Go's `a, b int`), else one.
fn declared_parameters(parameter: Node) -> u32 {
    let mut cursor = parameter.walk();
    (parameter
        .children_by_field_name("name", &mut cursor)
        .count() as u32)
        .max(1)
}

impl<'a> Walk<'a> {
    /// Walk the subtree below `function` in document order with one tree
    /// cursor and a stack of levels: nesting depth is the input's to
    /// choose, the wasm stack is not.
    fn walk_below(&mut self, function: Node) {
        let mut cursor = function.walk();
        if !cursor.goto_first_child() {
            return;
        }
        let mut levels = vec![Level {
            nesting: 0,
            is_else: false,
            after_else_token: false,
            tracks_else: false,
        }];
        loop {
            let node = cursor.node();
            let Some(level) = levels.last_mut() else {
                return;
            };
            let is_else =
                level.tracks_else && (level.is_else || level.after_else_token) && node.is_named();
            if node.is_named() {
                level.after_else_token = false;
            } else if level.tracks_else
                && self.kinds.of(node, self.config, self.comment_kinds).1 & role::ELSE != 0
            {
                level.after_else_token = true;
            }
            let nesting = level.nesting;
            if let Some((nesting, is_else)) = self.enter(node, nesting, is_else)
                && cursor.goto_first_child()
            {
                levels.push(Level {
                    nesting,
                    is_else,
                    after_else_token: false,
                    tracks_else: true,
                });
                continue;
            }
            // On to the next node in document order below `function`.
            while !cursor.goto_next_sibling() {
                levels.pop();
                if levels.is_empty() || !cursor.goto_parent() {
                    return;
                }
            }
        }
    }

    /// Count `node` itself; `Some((nesting, is_else))` for its children when
    /// they are to be walked.
    fn enter(&mut self, node: Node, nesting: u32, parent_is_else: bool) -> Option<(u32, bool)> {
        let key = (node.start_byte(), node.end_byte(), node.kind_id());
        if self.nested_functions.binary_search(&key).is_ok() {
            return None;
        }
        let (kind, roles) = self.kinds.of(node, self.config, self.comment_kinds);
        if roles & role::COMMENT != 0 {
            self.comment_rows
                .add(node.start_position().row, node.end_position().row);
            return None;
        }
        if roles & role::BRANCH != 0 {
            self.cyclomatic += 1;
        }
        let mut child_nesting = nesting;
        let mut child_is_else = false;
        if roles & role::NESTING != 0 {
            if parent_is_else {
                // `else if` costs one, like `else`, and nests no deeper.
                self.cognitive += 1;
            } else {
                self.cognitive += 1 + nesting;
                child_nesting = nesting + 1;
            }
            self.max_nesting = self.max_nesting.max(child_nesting);
        } else if roles & role::ELSE != 0 {
            // A chained `if` inside the `else` pays for both.
            if !self.else_chains_if(node) {
                self.cognitive += 1;
            }
            child_is_else = true;
        } else if roles & role::NESTING_ONLY != 0 {
            child_nesting = nesting + 1;
        }
        if roles & role::BINARY != 0 {
            self.boolean_sequence(node);
        }
        if roles & role::ATOMIC_OPERAND != 0 || node.child_count() == 0 {
            self.token(node, kind);
            return None;
        }
        Some((child_nesting, child_is_else))
    }

    /// Whether an `else` branch is an `else if`. An `else_kinds` entry that
    /// is an unnamed token (C#'s `else`) heads the branch that follows it.
    fn else_chains_if(&self, else_node: Node) -> bool {
        if !else_node.is_named() {
            return else_node
                .next_named_sibling()
                .is_some_and(|branch| self.config.nesting_kinds.contains(&branch.kind()));
        }
        let mut cursor = else_node.walk();
        else_node
            .named_children(&mut cursor)
            .any(|c| self.config.nesting_kinds.contains(&c.kind()))
    }

    /// Cognitive complexity counts each run of the same boolean operator once.
    fn boolean_sequence(&mut self, node: Node) {
        let Some(op) = operator(node, self.source) else {
            return;
        };
        if !self.config.boolean_operators.contains(&op) {
            return;
        }
        self.cyclomatic += 1;
        let continues_run = node
            .parent()
            .filter(|p| self.config.binary_kinds.contains(&p.kind()))
            .and_then(|p| operator(p, self.source))
            .is_some_and(|parent_op| parent_op == op);
        if !continues_run {
            self.cognitive += 1;
        }
    }

    fn token(&mut self, node: Node, kind: &'static str) {
        self.code_rows
            .add(node.start_position().row, node.end_position().row);
        if node.is_named() {
            let operand: &'a str = text(node, self.source);
            self.total_operands += 1;
            self.operands.insert(operand);
        } else if !kind.trim().is_empty() {
            self.total_operators += 1;
            self.operators.insert(kind);
        }
    }
}

fn operator<'s>(binary: Node, source: &'s str) -> Option<&'s str> {
    binary
        .child_by_field_name("operator")
        .map(|op| text(op, source))
}

#[cfg(test)]
mod tests {
    use super::RowCount;

    #[test]
    fn rows_of_spans_in_document_order_are_counted_once() {
        let mut rows = RowCount::default();
        rows.add(3, 3);
        rows.add(3, 3); // a second token on the same row
        rows.add(3, 5); // a string running on to row 5
        rows.add(5, 5);
        rows.add(8, 9);
        assert_eq!(rows.rows, 5); // rows 3, 4, 5, 8 and 9
        assert_eq!(rows.last, Some(9));
        assert_eq!(RowCount::default().rows, 0);
    }
}
