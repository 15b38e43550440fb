//! What narrows a name's type where it is read: the body of `if (x
//! instanceof T)` or of `if (isUser(x))` around the read, or `if
//! (!isUser(x)) return;` before it, in the same function, with no new
//! binding of the name in between.

use lingo_plugin_sdk::walk::any_within;
use tree_sitter::Node;

/// Nodes looked at for one read, in all: its ancestors, and the statements
/// passed on the way up with their subtrees, searched for a new binding of
/// the name. Past it the read counts as not narrowed.
const MAX_NODES: usize = 4096;

/// The node that narrows the type of the value the identifier `value`
/// reads: the type of `x instanceof T` (a name or a dotted one), or the
/// call `isUser(x)` of a function that may be a guard (`x is User`, which
/// the host checks), when it is the test of an `if` whose body holds the
/// read. Only the first argument is narrowed.
pub fn narrowed_by<'t>(value: Node<'t>, source: &str) -> Option<Node<'t>> {
    if value.kind() != "identifier" {
        return None;
    }
    let name = source.get(value.byte_range())?;
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

/// The nearest test of `name` around the read `value` (the body of `if
/// (test)`) or before it (`if (!test) return;`), in its function: what
/// narrows it, or `Some(None)` when the test narrows it in a way not
/// followed. The statements passed on the way are pushed to `passed`. None
/// when there is no such test within `budget`.
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
        if parent.kind() == "statement_block" {
            let mut before = node.prev_named_sibling();
            while let Some(statement) = before {
                *budget = budget.checked_sub(1)?;
                if let Some(by) = exits_unless(statement, name, source) {
                    return Some(by);
                }
                passed.push(statement);
                before = statement.prev_named_sibling();
            }
        }
        // `x instanceof T && x.m`, `x instanceof T ? x.m : ..`: the right
        // operand and the consequence read what the test narrows.
        let narrowing_sibling = match parent.kind() {
            "binary_expression"
                if parent.child_by_field_name("right") == Some(node)
                    && parent
                        .child_by_field_name("operator")
                        .is_some_and(|o| o.kind() == "&&") =>
            {
                parent.child_by_field_name("left")
            }
            "ternary_expression" if parent.child_by_field_name("consequence") == Some(node) => {
                parent.child_by_field_name("condition")
            }
            _ => None,
        };
        if let Some(by) = narrowing_sibling.and_then(|test| narrowing_test(test, name, source)) {
            return Some(by);
        }
        if parent.kind() == "if_statement"
            && parent.child_by_field_name("consequence") == Some(node)
        {
            // The nearest test of the name decides, understood or not.
            if let Some(by) = parent
                .child_by_field_name("condition")
                .and_then(|test| narrowing_test(test, name, source))
            {
                return Some(by);
            }
        }
        // A function or class body is a scope of its own.
        if matches!(
            parent.kind(),
            "function_declaration"
                | "function_expression"
                | "arrow_function"
                | "method_definition"
                | "generator_function_declaration"
                | "class_body"
                | "program"
        ) {
            return None;
        }
        node = parent;
    }
}

/// When `statement` is `if (!test)` with no `else`, whose body always
/// leaves (`return`, `throw`, `continue`, `break`, last in a block or
/// alone), and `test` tests `name`: what narrows it after the statement,
/// as [`narrowing_test`] says.
fn exits_unless<'t>(statement: Node<'t>, name: &str, source: &str) -> Option<Option<Node<'t>>> {
    if statement.kind() != "if_statement" || statement.child_by_field_name("alternative").is_some()
    {
        return None;
    }
    let mut condition = statement.child_by_field_name("condition")?;
    while condition.kind() == "parenthesized_expression" {
        condition = condition.named_child(0)?;
    }
    let negated = condition.kind() == "unary_expression"
        && condition
            .child_by_field_name("operator")
            .is_some_and(|o| o.kind() == "!");
    if !negated {
        return None;
    }
    let mut body = statement.child_by_field_name("consequence")?;
    if body.kind() == "statement_block" {
        body = body.named_child(body.named_child_count().checked_sub(1)?)?;
    }
    let leaves = matches!(
        body.kind(),
        "return_statement" | "throw_statement" | "continue_statement" | "break_statement"
    );
    if !leaves {
        return None;
    }
    narrowing_test(condition.child_by_field_name("argument")?, name, source)
}

/// When `test` tests `name`: the type of `name instanceof T` or the call
/// `f(name, ..)`, or `Some(None)` when it tests it in a way not followed
/// (`!isUser(x)`, `a && isUser(x)`). None when `test` is not about `name`.
fn narrowing_test<'t>(test: Node<'t>, name: &str, source: &str) -> Option<Option<Node<'t>>> {
    let mut test = test;
    while test.kind() == "parenthesized_expression" {
        test = test.named_child(0)?;
    }
    let is_name =
        |node: Node| node.kind() == "identifier" && source.get(node.byte_range()) == Some(name);
    match test.kind() {
        "binary_expression" => {
            let left = test.child_by_field_name("left")?;
            let right = test.child_by_field_name("right")?;
            let operator = test.child_by_field_name("operator")?;
            if operator.kind() == "&&" {
                // `a && x instanceof T`: both hold; the nearer test of the
                // name decides.
                return narrowing_test(right, name, source)
                    .or_else(|| narrowing_test(left, name, source));
            }
            if !is_name(left) {
                return mentions(test, name, source).then_some(None);
            }
            Some(
                (operator.kind() == "instanceof"
                    && matches!(right.kind(), "identifier" | "member_expression"))
                .then_some(right),
            )
        }
        "call_expression" => {
            let function = test.child_by_field_name("function")?;
            let arguments = test.child_by_field_name("arguments")?;
            let first = arguments.named_child(0).filter(|a| is_name(*a));
            match first {
                Some(_) if matches!(function.kind(), "identifier" | "member_expression") => {
                    Some(Some(test))
                }
                _ => mentions(test, name, source).then_some(None),
            }
        }
        _ => mentions(test, name, source).then_some(None),
    }
}

/// Whether the identifier `name` occurs in `node` (a test is short; past
/// 256 nodes it counts as occurring).
fn mentions(node: Node, name: &str, source: &str) -> bool {
    any_within(node, &mut 256, |here| {
        here.kind() == "identifier" && source.get(here.byte_range()) == Some(name)
    })
    .unwrap_or(true)
}

/// Whether `statement` may bind `name` anew: an assignment to it, a
/// declaration of it (`let`, `const`, a function or class of that name, a
/// destructuring), an update. True when the search runs out of `budget`.
fn binds(statement: Node, name: &str, source: &str, budget: &mut usize) -> bool {
    any_within(statement, budget, |node| {
        matches!(
            node.kind(),
            "identifier" | "shorthand_property_identifier_pattern"
        ) && source.get(node.byte_range()) == Some(name)
            && node.parent().is_some_and(|parent| is_binding(parent, node))
    })
    .unwrap_or(true)
}

/// Whether `name`, a child of `parent`, is bound or assigned there.
fn is_binding(parent: Node, name: Node) -> bool {
    let field_is = |field: &str| parent.child_by_field_name(field) == Some(name);
    match parent.kind() {
        "assignment_expression" | "augmented_assignment_expression" | "for_in_statement" => {
            field_is("left")
        }
        "variable_declarator"
        | "function_declaration"
        | "class_declaration"
        | "generator_function_declaration" => field_is("name"),
        "update_expression" => field_is("argument"),
        "array_pattern" | "object_pattern" | "pair_pattern" | "assignment_pattern"
        | "rest_pattern" => true,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::narrowed_by;
    use lingo_plugin_sdk::testing::parse;

    /// `line: what narrows it` for each read of `x` followed by `.`.
    fn narrowings(source: &str) -> Vec<String> {
        let tree = parse::<crate::TypeScript>("a.ts", source);
        source
            .match_indices("x.")
            .map(|(at, _)| {
                let node = tree
                    .root_node()
                    .descendant_for_byte_range(at, at + 1)
                    .unwrap();
                let line = source[..at].matches('\n').count();
                let by = narrowed_by(node, source).map(|n| &source[n.byte_range()]);
                format!("{line}: {}", by.unwrap_or("-"))
            })
            .collect()
    }

    #[test]
    fn the_body_of_an_if_that_tests_the_name_narrows_it() {
        let source = "function f(x: Base, y: Base) {\n\
            x.a();\n\
            if (x instanceof Child) {\n\
              x.b();\n\
              if (ok) { x.c(); }\n\
            }\n\
            if (isUser(x)) x.d();\n\
            if (m.isAdmin(x, true)) { x.e(); x = other; x.f(); }\n\
            else { x.g(); }\n\
            if (!isUser(x)) { x.h(); }\n\
            if (isUser(y)) { x.i(); }\n\
            if (x instanceof models.User) { const g = () => x.j(); }\n\
            if (!(x instanceof Leaf)) { throw new Error(); }\n\
            x.k();\n\
            if (!isUser(x)) log();\n\
            x.l();\n\
            }\n";
        assert_eq!(
            narrowings(source),
            [
                "1: -",
                "3: Child",
                "4: Child",
                "6: isUser(x)",
                "7: m.isAdmin(x, true)",
                // Assigned anew before the read.
                "7: -",
                "8: -",
                "9: -",
                "10: -",
                // Inside a function of its own.
                "11: -",
                // After `if (!test)` whose body leaves: what the test
                // proves. One whose body may go on proves nothing, and
                // what was proven before it stays.
                "13: Leaf",
                "15: Leaf",
            ]
        );
    }

    #[test]
    fn the_right_of_and_and_a_conditional_read_what_their_test_narrows() {
        let source = "function f(x: Base, y: Base) {\n\
            const a = x instanceof Child && x.a;\n\
            const b = x instanceof Child ? x.b : x.c;\n\
            const d = ok && x instanceof Leaf && x.d;\n\
            const e = x.e && x instanceof Leaf;\n\
            const g = y instanceof Leaf && x.g;\n\
            }\n";
        assert_eq!(
            narrowings(source),
            [
                "1: Child", "2: Child", // The alternative is not narrowed.
                "2: -", "3: Leaf",
                // Left of the test, or after a test of another name.
                "4: -", "5: -",
            ]
        );
    }
}
