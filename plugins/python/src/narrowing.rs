//! What narrows a name's type where it is read: `assert isinstance(x, T)`,
//! `assert is_ready(x)` or `if not is_ready(x): raise ..` before the read,
//! `if isinstance(x, T):` or `if is_ready(x):` around it, in the same
//! function, with no new binding of the name in between.

use lingo_plugin_sdk::source::text;
use lingo_plugin_sdk::walk::any_within;
use tree_sitter::Node;

/// Nodes looked at for one read, in all: its ancestors, and the statements
/// passed on the way up with their subtrees, searched for a new binding of
/// the name. Past it the read counts as not narrowed.
const MAX_NODES: usize = 4096;

/// The node that narrows the type of the value the identifier `value`
/// reads: the type of `isinstance(x, T)` (a dotted name, not a tuple), or
/// the call `is_ready(x)` of a function that may be a guard (`-> TypeIs[T]`,
/// which the host checks). Only the first argument is narrowed, as the
/// typing rules say.
pub fn narrowed_by<'t>(value: Node<'t>, source: &str) -> Option<Node<'t>> {
    if value.kind() != "identifier" {
        return None;
    }
    let name = text(value, source);
    let mut budget = MAX_NODES;
    let mut passed = Vec::new();
    let by = nearest_test(value, name, source, &mut budget, &mut passed)??;
    // Only once a test is found are the statements passed on the way to it
    // searched for a new binding of the name: most reads have no test.
    let rebound = passed
        .iter()
        .any(|statement| binds(*statement, name, source, &mut budget));
    (!rebound).then_some(by)
}

/// The nearest test of `name` before the read `value` (an assert, an `if
/// not test:` whose body leaves) or around it (the body of `if test:`), in
/// its function: what narrows it, or `Some(None)` when the test narrows it
/// in a way not followed. The statements passed on the way are pushed to
/// `passed`. None when there is no such test within `budget`.
fn nearest_test<'t>(
    value: Node<'t>,
    name: &str,
    source: &str,
    budget: &mut usize,
    passed: &mut Vec<Node<'t>>,
) -> Option<Option<Node<'t>>> {
    let mut node = value;
    loop {
        // Each step costs one of the budget: a read deep in a deeply
        // nested tree, or after many statements, stops unnarrowed.
        *budget = budget.checked_sub(1)?;
        let parent = node.parent()?;
        if matches!(parent.kind(), "block" | "module") {
            // `node` is a statement: the statements before it, nearest
            // first. The nearest test of the name decides, understood or
            // not.
            let mut before = node.prev_named_sibling();
            while let Some(statement) = before {
                *budget = budget.checked_sub(1)?;
                if statement.kind() == "assert_statement"
                    && let Some(by) = statement
                        .named_child(0)
                        .and_then(|test| narrowing_test(test, name, source))
                {
                    return Some(by);
                }
                if let Some(by) = exits_unless(statement, name, source) {
                    return Some(by);
                }
                passed.push(statement);
                before = statement.prev_named_sibling();
            }
            // The body of `if test:` or `elif test:`.
            if let Some(owner) = parent.parent().filter(|owner| {
                matches!(owner.kind(), "if_statement" | "elif_clause")
                    && owner.child_by_field_name("consequence") == Some(parent)
            }) && let Some(by) = owner
                .child_by_field_name("condition")
                .and_then(|test| narrowing_test(test, name, source))
            {
                return Some(by);
            }
        }
        // A function or class body is a scope of its own: what narrows a
        // name outside it does not narrow it there.
        if matches!(
            parent.kind(),
            "function_definition" | "lambda" | "class_definition" | "module"
        ) {
            return None;
        }
        node = parent;
    }
}

/// When `statement` is `if not test:` with no `elif` or `else`, whose body
/// always leaves (`return`, `raise`, `continue`, `break`), and `test`
/// tests `name`: what narrows it after the statement, as
/// [`narrowing_test`] says.
fn exits_unless<'t>(statement: Node<'t>, name: &str, source: &str) -> Option<Option<Node<'t>>> {
    if statement.kind() != "if_statement" || statement.child_by_field_name("alternative").is_some()
    {
        return None;
    }
    let mut condition = statement.child_by_field_name("condition")?;
    while condition.kind() == "parenthesized_expression" {
        condition = condition.named_child(0)?;
    }
    if condition.kind() != "not_operator" {
        return None;
    }
    let body = statement.child_by_field_name("consequence")?;
    let last = body.named_child(body.named_child_count().checked_sub(1)?)?;
    if !crate::leaves_block(last, source) {
        return None;
    }
    narrowing_test(condition.child_by_field_name("argument")?, name, source)
}

/// When `test` is a call on `name` (`f(name, ..)`): what narrows it, the
/// type of `isinstance(name, T)` or the call itself, or `Some(None)` when
/// the call narrows it in a way not followed (`isinstance(name, (A,
/// B))`). None when `test` is no such call.
fn narrowing_test<'t>(test: Node<'t>, name: &str, source: &str) -> Option<Option<Node<'t>>> {
    let mut test = test;
    while test.kind() == "parenthesized_expression" {
        test = test.named_child(0)?;
    }
    if test.kind() != "call" {
        return None;
    }
    let function = test.child_by_field_name("function")?;
    let arguments = test.child_by_field_name("arguments")?;
    if arguments.kind() != "argument_list" {
        return None;
    }
    let mut cursor = arguments.walk();
    let positional: Vec<Node> = arguments
        .named_children(&mut cursor)
        .filter(|a| a.kind() != "comment")
        .take(3)
        .collect();
    let first = positional.first()?;
    if first.kind() != "identifier" || text(*first, source) != name {
        return None;
    }
    Some(match (function.kind(), text(function, source)) {
        ("identifier", "isinstance") => match positional.as_slice() {
            [_, ty] if matches!(ty.kind(), "identifier" | "attribute") => Some(*ty),
            _ => None,
        },
        ("identifier" | "attribute", _) => Some(test),
        _ => None,
    })
}

/// Whether `statement` may bind `name` anew: an assignment to it, a loop,
/// `with` or `except` target, `:=`, `del`, `global` or a nested `def` or
/// `class` of that name. True when the search runs out of `budget`.
fn binds(statement: Node, name: &str, source: &str, budget: &mut usize) -> bool {
    any_within(statement, budget, |node| {
        node.kind() == "identifier"
            && text(node, source) == name
            && node.parent().is_some_and(|parent| is_binding(parent, node))
    })
    .unwrap_or(true)
}

/// Whether the identifier `name`, a child of `parent`, is bound there.
fn is_binding(parent: Node, name: Node) -> bool {
    let field_is = |field: &str| parent.child_by_field_name(field) == Some(name);
    match parent.kind() {
        "assignment" | "augmented_assignment" | "for_statement" | "for_in_clause" => {
            field_is("left")
        }
        "named_expression" | "function_definition" | "class_definition" => field_is("name"),
        "pattern_list" | "tuple_pattern" | "list_pattern" | "list_splat_pattern"
        | "as_pattern_target" | "delete_statement" | "global_statement" | "nonlocal_statement" => {
            true
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::narrowed_by;
    use lingo_plugin_sdk::testing::parse;

    /// `line: name -> what narrows it` for each read of `x` followed by
    /// `.` in `source`.
    fn narrowings(source: &str) -> Vec<String> {
        let tree = parse::<crate::Python>("a.py", source);
        let mut out = Vec::new();
        for (at, _) in source.match_indices("x.") {
            let node = tree
                .root_node()
                .descendant_for_byte_range(at, at + 1)
                .unwrap();
            let line = source[..at].matches('\n').count();
            let by = narrowed_by(node, source).map(|n| &source[n.byte_range()]);
            out.push(format!("{line}: {}", by.unwrap_or("-")));
        }
        out
    }

    /// The walk up is bounded: a read nested deeper than the budget is not
    /// narrowed (and costs no more than the budget), one less deep is.
    #[test]
    fn a_read_deeper_than_the_budget_is_not_narrowed() {
        for (depth, expected) in [(10, "2: T"), (5000, "2: -")] {
            let source = format!(
                "def f(x):\n    assert isinstance(x, T)\n    y = {}x.a{}\n",
                "(".repeat(depth),
                ")".repeat(depth)
            );
            assert_eq!(narrowings(&source), [expected], "depth {depth}");
        }
    }

    #[test]
    fn asserts_and_ifs_narrow_until_the_name_is_bound_anew() {
        let source = "def f(x: Base, y):\n\
            \x20   x.a()\n\
            \x20   assert isinstance(x, Child)\n\
            \x20   x.b()\n\
            \x20   if ok:\n\
            \x20       x.c()\n\
            \x20   x = make()\n\
            \x20   x.d()\n\
            \x20   assert is_ready(x)\n\
            \x20   x.e()\n\
            \x20   if isinstance(x, models.User):\n\
            \x20       x.f()\n\
            \x20   elif is_admin(x, strict=True):\n\
            \x20       x.g()\n\
            \x20   else:\n\
            \x20       x.h()\n\
            \x20   assert isinstance(x, (A, B))\n\
            \x20   x.i()\n\
            \x20   assert isinstance(y, A)\n\
            \x20   x.j()\n\
            \x20   def inner():\n\
            \x20       x.k()\n\
            \x20   for x in xs:\n\
            \x20       x.l()\n\
            \x20   if not isinstance(x, Leaf):\n\
            \x20       raise TypeError()\n\
            \x20   x.m()\n\
            \x20   if not is_ready(x):\n\
            \x20       log()\n\
            \x20   x.n()\n";
        assert_eq!(
            narrowings(source),
            [
                "1: -",
                "3: Child",
                "5: Child",
                "7: -",
                "9: is_ready(x)",
                "11: models.User",
                "13: is_admin(x, strict=True)",
                "15: is_ready(x)",
                // A tuple of types is not one type: nothing, and the
                // search stops at the nearest assert that tests `x`.
                "17: -",
                "19: -",
                "21: -",
                "23: -",
                // After `if not test:` whose body leaves: what the test
                // proves. One whose body may go on proves nothing, and what
                // was proven before it stays.
                "26: Leaf",
                "29: Leaf",
            ]
        );
    }
}
