//! Entry points: the declarations something outside the source calls (a
//! member overriding its base class's, anything a decorator hands to a
//! framework), which dead-code analysis must not count as unused.

use lingo_plugin_sdk::types::EntryPointKind;
use tree_sitter::Node;

/// Why something outside the source calls the declaration `node` (with
/// the comments and decorators right above it, `attached`), if it does.
pub fn entry_point(
    node: Node,
    _name: Node,
    _enclosing: Option<Node>,
    attached: &[Node],
    _source: &str,
) -> Option<EntryPointKind> {
    let mut cursor = node.walk();
    let mut decorated = false;
    let mut overrides = false;
    for child in node.children(&mut cursor) {
        match child.kind() {
            "decorator" => decorated = true,
            "override_modifier" => overrides = true,
            _ => {}
        }
    }
    decorated |= attached.iter().any(|n| n.kind() == "decorator");
    if overrides {
        Some(EntryPointKind::Implementation)
    } else if decorated {
        // A decorator registers what it decorates with a framework (a
        // route, a listener, a component), which calls it by itself.
        Some(EntryPointKind::Foreign)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use crate::TypeScript;
    use lingo_plugin_sdk::describe_entry_points;

    #[test]
    fn overrides_and_decorated_declarations_are_entry_points() {
        let source = r#"
class Base { describe(): string { return ""; } }
class Derived extends Base {
  override describe(): string { return "d"; }
  @HostListener("click")
  private onClick(): void {}
  private plain(): void {}
}
@Component({ selector: "x" })
class Widget {}
function helper() {}
"#;
        assert_eq!(
            describe_entry_points::<TypeScript>("a.ts", source),
            [
                "describe implementation",
                "onClick foreign",
                "Widget foreign",
            ]
        );
    }
}
