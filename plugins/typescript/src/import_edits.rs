//! The edits that add an import (merging into an existing one from the same
//! module) or remove one.
//!
//! Requested names: `a` and `a as b` are named imports, `default as X` the
//! default export under `X`, `* as ns` the namespace, `type A` a type-only
//! named import; no names at all is a side-effect import.

use lingo_plugin_sdk::types::{PluginError, TextEdit};
use tree_sitter::Node;

use crate::imports::{has_type_keyword, required_module, string_value};

use lingo_plugin_sdk::source::{line_end, remove_list_item, text};

/// One requested name.
#[derive(Debug, PartialEq)]
enum Request {
    Named {
        name: String,
        alias: Option<String>,
        type_only: bool,
    },
    Default(String),
    Namespace(String),
}

fn parse_request(raw: &str) -> Result<Request, PluginError> {
    let words: Vec<&str> = raw.split_whitespace().collect();
    let invalid = || PluginError::InvalidInput(format!("cannot import `{raw}`"));
    Ok(match words.as_slice() {
        ["*", "as", local] => Request::Namespace(local.to_string()),
        ["default", "as", local] => Request::Default(local.to_string()),
        ["type", name] => Request::Named {
            name: name.to_string(),
            alias: None,
            type_only: true,
        },
        ["type", name, "as", alias] => Request::Named {
            name: name.to_string(),
            alias: Some(alias.to_string()),
            type_only: true,
        },
        [name] if *name != "*" && *name != "default" => Request::Named {
            name: name.to_string(),
            alias: None,
            type_only: false,
        },
        [name, "as", alias] => Request::Named {
            name: name.to_string(),
            alias: Some(alias.to_string()),
            type_only: false,
        },
        _ => return Err(invalid()),
    })
}

impl Request {
    fn specifier(&self) -> Option<String> {
        match self {
            Request::Named {
                name,
                alias,
                type_only,
            } => {
                let prefix = if *type_only { "type " } else { "" };
                Some(match alias {
                    Some(alias) => format!("{prefix}{name} as {alias}"),
                    None => format!("{prefix}{name}"),
                })
            }
            _ => None,
        }
    }
}

/// The parts of one `import ... from "m"` statement.
struct ImportParts<'t> {
    statement: Node<'t>,
    default: Option<Node<'t>>,
    namespace: Option<Node<'t>>,
    named: Option<Node<'t>>,
}

impl<'t> ImportParts<'t> {
    fn of(statement: Node<'t>) -> Self {
        let mut parts = ImportParts {
            statement,
            default: None,
            namespace: None,
            named: None,
        };
        let mut cursor = statement.walk();
        let clause = statement
            .named_children(&mut cursor)
            .find(|c| c.kind() == "import_clause");
        if let Some(clause) = clause {
            let mut c = clause.walk();
            for part in clause.named_children(&mut c) {
                match part.kind() {
                    "identifier" => parts.default = Some(part),
                    "namespace_import" => parts.namespace = Some(part),
                    "named_imports" => parts.named = Some(part),
                    _ => {}
                }
            }
        }
        parts
    }

    fn specifiers(&self) -> Vec<Node<'t>> {
        self.named
            .map(|list| {
                let mut c = list.walk();
                list.named_children(&mut c)
                    .filter(|n| n.kind() == "import_specifier")
                    .collect()
            })
            .unwrap_or_default()
    }

    fn namespace_local(&self) -> Option<Node<'t>> {
        self.namespace.and_then(|n| n.named_child(0))
    }
}

/// The module of an import or re-export statement.
fn statement_module(statement: Node, source: &str) -> Option<String> {
    statement
        .child_by_field_name("source")
        .and_then(|s| string_value(s, source))
}

/// Top-level `import` statements, in order.
fn top_level_imports(root: Node) -> Vec<Node> {
    let mut cursor = root.walk();
    root.named_children(&mut cursor)
        .filter(|n| n.kind() == "import_statement")
        .collect()
}

/// How the file writes imports: its quote character and whether statements
/// end with `;`.
fn house_style(root: Node, source: &str) -> (char, bool) {
    let first = top_level_imports(root)
        .into_iter()
        .find(|s| s.child_by_field_name("source").is_some());
    match first {
        Some(statement) => {
            let quote = statement
                .child_by_field_name("source")
                .and_then(|s| text(s, source).chars().next())
                .unwrap_or('"');
            (quote, text(statement, source).trim_end().ends_with(';'))
        }
        None => ('"', true),
    }
}

/// Where a first import goes: after a `#!` line, header comments that a
/// blank line separates from the code, and directives (`"use strict"`).
fn after_file_header(root: Node, source: &str) -> usize {
    let mut offset = 0;
    let mut cursor = root.walk();
    let children: Vec<Node> = root.children(&mut cursor).collect();
    for (i, child) in children.iter().enumerate() {
        let header = match child.kind() {
            "hash_bang_line" => true,
            "comment" => children
                .get(i + 1)
                .is_none_or(|next| next.start_position().row > child.end_position().row + 1),
            "expression_statement" => child.named_child(0).is_some_and(|n| n.kind() == "string"),
            _ => false,
        };
        if !header {
            break;
        }
        offset = line_end(source, child.end_byte());
    }
    offset
}

fn insert(offset: usize, new_text: String) -> TextEdit {
    TextEdit {
        start: offset as u32,
        end: offset as u32,
        new_text,
    }
}

/// Edits adding `names` from `module_path`; see the module docs for the forms.
pub fn render_import(
    root: Node,
    source: &str,
    module_path: &str,
    names: &[String],
) -> Result<Vec<TextEdit>, PluginError> {
    if module_path.trim().is_empty() {
        return Err(PluginError::InvalidInput("module path is empty".into()));
    }
    let requests = names
        .iter()
        .map(|n| parse_request(n))
        .collect::<Result<Vec<_>, _>>()?;
    let statements: Vec<ImportParts> = top_level_imports(root)
        .into_iter()
        .filter(|s| statement_module(*s, source).as_deref() == Some(module_path))
        .map(ImportParts::of)
        .collect();
    if requests.is_empty() {
        return Ok(if statements.is_empty() {
            new_statements(root, source, module_path, None, &[], &[])
        } else {
            Vec::new()
        });
    }
    let mut edits = Vec::new();
    let mut new_default = None;
    let mut new_named = Vec::new();
    let mut new_namespaces = Vec::new();
    // The statement named imports merge into: not type-only, not a namespace import.
    let merge_target = statements
        .iter()
        .find(|p| !has_type_keyword(p.statement) && p.namespace.is_none());
    let mut merged_named = Vec::new();
    for request in &requests {
        match request {
            Request::Named { name, alias, .. } => {
                let local = alias.as_deref().unwrap_or(name);
                let present = statements.iter().flat_map(|p| p.specifiers()).any(|s| {
                    let n = s.child_by_field_name("name").map(|n| text(n, source));
                    let a = s.child_by_field_name("alias").map(|a| text(a, source));
                    n == Some(name.as_str()) && a.unwrap_or(name) == local
                });
                if !present {
                    match merge_target {
                        Some(_) => merged_named.push(request.specifier().unwrap_or_default()),
                        None => new_named.push(request.specifier().unwrap_or_default()),
                    }
                }
            }
            Request::Default(local) => {
                let present = statements
                    .iter()
                    .any(|p| p.default.is_some_and(|d| text(d, source) == local));
                if present {
                    continue;
                }
                let target = statements
                    .iter()
                    .find(|p| p.default.is_none() && p.namespace.is_none() && p.named.is_some());
                match target.and_then(|p| p.named) {
                    Some(named) => edits.push(insert(named.start_byte(), format!("{local}, "))),
                    None => new_default = Some(local.clone()),
                }
            }
            Request::Namespace(local) => {
                let present = statements.iter().any(|p| {
                    p.namespace_local()
                        .is_some_and(|n| text(n, source) == local)
                });
                if !present {
                    new_namespaces.push(local.clone());
                }
            }
        }
    }
    if let (Some(target), false) = (merge_target, merged_named.is_empty()) {
        edits.push(merge_specifiers(target, &merged_named));
    }
    if new_default.is_some() || !new_named.is_empty() || !new_namespaces.is_empty() {
        edits.extend(new_statements(
            root,
            source,
            module_path,
            new_default.as_deref(),
            &new_named,
            &new_namespaces,
        ));
    }
    Ok(edits)
}

/// Add specifiers to an existing statement: into its `{ }`, or as a new
/// `{ }` after its default import.
fn merge_specifiers(target: &ImportParts, specifiers: &[String]) -> TextEdit {
    let joined = specifiers.join(", ");
    match (target.named, target.specifiers().last()) {
        (Some(_), Some(last)) => insert(last.end_byte(), format!(", {joined}")),
        (Some(named), None) => TextEdit {
            start: named.start_byte() as u32,
            end: named.end_byte() as u32,
            new_text: format!("{{ {joined} }}"),
        },
        (None, _) => {
            let default = target
                .default
                .expect("a merge target without `{ }` has a default import");
            insert(default.end_byte(), format!(", {{ {joined} }}"))
        }
    }
}

/// New import statements, after the last top-level import or the header.
fn new_statements(
    root: Node,
    source: &str,
    module_path: &str,
    default: Option<&str>,
    named: &[String],
    namespaces: &[String],
) -> Vec<TextEdit> {
    let (quote, semicolon) = house_style(root, source);
    let end = if semicolon { ";" } else { "" };
    let from = format!("{quote}{module_path}{quote}");
    let mut lines = Vec::new();
    let braces = (!named.is_empty()).then(|| format!("{{ {} }}", named.join(", ")));
    match (default, braces) {
        (Some(d), Some(b)) => lines.push(format!("import {d}, {b} from {from}{end}")),
        (Some(d), None) => lines.push(format!("import {d} from {from}{end}")),
        (None, Some(b)) => lines.push(format!("import {b} from {from}{end}")),
        (None, None) if namespaces.is_empty() => lines.push(format!("import {from}{end}")),
        (None, None) => {}
    }
    for ns in namespaces {
        lines.push(format!("import * as {ns} from {from}{end}"));
    }
    let block = lines.join("\n");
    match top_level_imports(root).last() {
        Some(last) => vec![insert(last.end_byte(), format!("\n{block}"))],
        None => vec![insert(
            after_file_header(root, source),
            format!("{block}\n"),
        )],
    }
}

/// `export { a, b } from "module";` after the last import: what moved to
/// `module_path` stays exported by the file it left.
pub fn render_reexport(
    root: Node,
    source: &str,
    module_path: &str,
    names: &[String],
) -> Result<Vec<TextEdit>, PluginError> {
    if module_path.trim().is_empty() {
        return Err(PluginError::InvalidInput("module path is empty".into()));
    }
    if names.is_empty() || names.iter().any(|n| !is_identifier(n)) {
        return Err(PluginError::InvalidInput(
            "a re-export names one or more identifiers".into(),
        ));
    }
    let (quote, semicolon) = house_style(root, source);
    let end = if semicolon { ";" } else { "" };
    let statement = format!(
        "export {{ {} }} from {quote}{module_path}{quote}{end}",
        names.join(", ")
    );
    Ok(match top_level_imports(root).last() {
        Some(last) => vec![insert(last.end_byte(), format!("\n{statement}"))],
        None => vec![insert(
            after_file_header(root, source),
            format!("{statement}\n"),
        )],
    })
}

/// Whether `name` is a plain identifier (`$` and `_` allowed).
fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '$')
}

/// Remove a whole statement, with the rest of its line when that is blank.
fn remove_statement(statement: Node, source: &str) -> TextEdit {
    let end = line_end(source, statement.end_byte());
    let end = if source[statement.end_byte()..end].trim().is_empty() {
        end
    } else {
        statement.end_byte()
    };
    TextEdit {
        start: statement.start_byte() as u32,
        end: end as u32,
        new_text: String::new(),
    }
}

/// Whether a specifier (`a`, `a as b`) or pattern property names `name`.
fn names_match(node: Node, source: &str, name: &str) -> bool {
    let fields = ["name", "alias", "key", "value"];
    fields
        .iter()
        .filter_map(|f| node.child_by_field_name(f))
        .any(|n| text(n, source).trim_matches(['"', '\'']) == name)
        || (node.named_child_count() == 0 && text(node, source) == name)
}

/// The edits removing `name` from one `import` statement.
fn remove_from_import(parts: &ImportParts, source: &str, name: &str) -> Vec<TextEdit> {
    let specifiers = parts.specifiers();
    let doomed_specifiers: Vec<Node> = specifiers
        .iter()
        .copied()
        .filter(|s| names_match(*s, source, name))
        .collect();
    let default_goes = parts
        .default
        .is_some_and(|d| name == "default" || text(d, source) == name);
    let namespace_goes = parts
        .namespace_local()
        .is_some_and(|n| name == "*" || text(n, source) == name);
    if doomed_specifiers.is_empty() && !default_goes && !namespace_goes {
        return Vec::new();
    }
    let named_left = specifiers.len() - doomed_specifiers.len();
    let default_left = parts.default.is_some() && !default_goes;
    let namespace_left = parts.namespace.is_some() && !namespace_goes;
    if named_left == 0 && !default_left && !namespace_left {
        return vec![remove_statement(parts.statement, source)];
    }
    let mut edits = Vec::new();
    if named_left > 0 {
        edits.extend(
            doomed_specifiers
                .iter()
                .map(|s| remove_list_item(*s, source)),
        );
    } else if let Some(named) = parts.named.filter(|_| !doomed_specifiers.is_empty()) {
        edits.push(remove_list_item(named, source));
    }
    if default_goes {
        edits.push(remove_list_item(parts.default.expect("default"), source));
    }
    if namespace_goes {
        edits.push(remove_list_item(
            parts.namespace.expect("namespace"),
            source,
        ));
    }
    edits
}

/// The edits removing `name` from a re-export `export { ... } from "m"`.
fn remove_from_reexport(statement: Node, source: &str, name: &str) -> Vec<TextEdit> {
    let mut cursor = statement.walk();
    let clause = statement
        .named_children(&mut cursor)
        .find(|c| c.kind() == "export_clause");
    let specifiers: Vec<Node> = clause
        .map(|clause| {
            let mut c = clause.walk();
            clause
                .named_children(&mut c)
                .filter(|n| n.kind() == "export_specifier")
                .collect()
        })
        .unwrap_or_default();
    let doomed: Vec<Node> = specifiers
        .iter()
        .copied()
        .filter(|s| names_match(*s, source, name))
        .collect();
    let namespace_goes = clause.is_none() && name == "*";
    if doomed.is_empty() && !namespace_goes {
        return Vec::new();
    }
    if namespace_goes || doomed.len() == specifiers.len() {
        return vec![remove_statement(statement, source)];
    }
    doomed
        .iter()
        .map(|s| remove_list_item(*s, source))
        .collect()
}

/// The edits removing `name` from `const ... = require("m")`.
fn remove_from_require(
    statement: Node,
    declarator: Node,
    source: &str,
    name: &str,
) -> Vec<TextEdit> {
    let Some(pattern) = declarator.child_by_field_name("name") else {
        return Vec::new();
    };
    if pattern.kind() != "object_pattern" {
        return if name == "*" || text(pattern, source) == name {
            vec![remove_statement(statement, source)]
        } else {
            Vec::new()
        };
    }
    let mut cursor = pattern.walk();
    let properties: Vec<Node> = pattern.named_children(&mut cursor).collect();
    let doomed: Vec<Node> = properties
        .iter()
        .copied()
        .filter(|p| names_match(*p, source, name))
        .collect();
    if doomed.is_empty() {
        Vec::new()
    } else if doomed.len() == properties.len() {
        vec![remove_statement(statement, source)]
    } else {
        doomed
            .iter()
            .map(|p| remove_list_item(*p, source))
            .collect()
    }
}

/// A top-level `const x = require("m")` with one declarator: the declarator.
fn require_declarator<'t>(
    statement: Node<'t>,
    source: &str,
    module_path: &str,
) -> Option<Node<'t>> {
    if !matches!(
        statement.kind(),
        "lexical_declaration" | "variable_declaration"
    ) || statement.named_child_count() != 1
    {
        return None;
    }
    let declarator = statement.named_child(0)?;
    let value = declarator.child_by_field_name("value")?;
    (required_module(value, source).as_deref() == Some(module_path)).then_some(declarator)
}

/// Edits removing `name` (every name when `None`) imported from `module_path`.
pub fn remove_import(
    root: Node,
    source: &str,
    module_path: &str,
    name: Option<&str>,
) -> Result<Vec<TextEdit>, PluginError> {
    let mut edits = Vec::new();
    let mut cursor = root.walk();
    for statement in root.named_children(&mut cursor) {
        let from_module = statement_module(statement, source).as_deref() == Some(module_path);
        match statement.kind() {
            "import_statement" if from_module => match name {
                None => edits.push(remove_statement(statement, source)),
                Some(name) => edits.extend(remove_from_import(
                    &ImportParts::of(statement),
                    source,
                    name,
                )),
            },
            "export_statement" if from_module => match name {
                None => edits.push(remove_statement(statement, source)),
                Some(name) => edits.extend(remove_from_reexport(statement, source, name)),
            },
            "expression_statement"
                if statement
                    .named_child(0)
                    .and_then(|call| required_module(call, source))
                    .as_deref()
                    == Some(module_path)
                    && name.is_none() =>
            {
                edits.push(remove_statement(statement, source))
            }
            _ => {
                if let Some(declarator) = require_declarator(statement, source, module_path) {
                    match name {
                        None => edits.push(remove_statement(statement, source)),
                        Some(name) => {
                            edits.extend(remove_from_require(statement, declarator, source, name))
                        }
                    }
                }
            }
        }
    }
    if edits.is_empty() {
        return Err(PluginError::InvalidInput(match name {
            Some(n) => format!("`{n}` is not imported from `{module_path}`"),
            None => format!("nothing is imported from `{module_path}`"),
        }));
    }
    Ok(edits)
}

#[cfg(test)]
mod tests {
    use super::*;

    use lingo_plugin_sdk::testing::apply;

    fn parse(source: &str) -> tree_sitter::Tree {
        lingo_plugin_sdk::testing::parse::<crate::TypeScript>("a.ts", source)
    }

    fn render(source: &str, module: &str, names: &[&str]) -> String {
        let tree = parse(source);
        let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
        apply(
            source,
            &render_import(tree.root_node(), source, module, &names).unwrap(),
        )
    }

    fn remove(source: &str, module: &str, name: Option<&str>) -> Result<String, PluginError> {
        let tree = parse(source);
        remove_import(tree.root_node(), source, module, name).map(|edits| apply(source, &edits))
    }

    #[test]
    fn named_imports_merge_into_the_existing_import_of_the_module() {
        let source = "import { a } from './m';\nimport x from 'n';\n\nf();\n";
        assert_eq!(
            render(source, "./m", &["b", "c as d", "a"]),
            "import { a, b, c as d } from './m';\nimport x from 'n';\n\nf();\n"
        );
        // Into a default-only import, as a new `{ }`.
        assert_eq!(
            render(source, "n", &["y"]),
            "import { a } from './m';\nimport x, { y } from 'n';\n\nf();\n"
        );
        // Nothing to do when every name is there.
        assert_eq!(render(source, "./m", &["a"]), source);
    }

    #[test]
    fn new_imports_follow_the_file_style_and_place() {
        let source = "import { a } from './m'\n\nf()\n";
        assert_eq!(
            render(source, "./q", &["default as Q", "r"]),
            "import { a } from './m'\nimport Q, { r } from './q'\n\nf()\n"
        );
        assert_eq!(
            render(source, "./q", &["* as q"]),
            "import { a } from './m'\nimport * as q from './q'\n\nf()\n"
        );
        assert_eq!(
            render(source, "./q", &["type T"]),
            "import { a } from './m'\nimport { type T } from './q'\n\nf()\n"
        );
        // No import yet: after the header comment and directive.
        let bare = "// License header.\n\n\"use strict\";\nconst x = 1;\n";
        assert_eq!(
            render(bare, "fs", &[]),
            "// License header.\n\n\"use strict\";\nimport \"fs\";\nconst x = 1;\n"
        );
        // A default import merges in front of an existing `{ }`.
        assert_eq!(
            render("import { a } from \"m\";\n", "m", &["default as M"]),
            "import M, { a } from \"m\";\n"
        );
        let tree = parse(source);
        let error = render_import(tree.root_node(), source, "./q", &["* as".into()]).unwrap_err();
        assert!(matches!(error, PluginError::InvalidInput(_)), "{error:?}");
    }

    #[test]
    fn removing_takes_out_one_name_or_the_whole_statement() {
        let source = "import D, { a, b as c } from './m';\nexport { x, y } from './m';\nconst { p, q: r } = require('./m');\nimport * as ns from './n';\n";
        assert_eq!(
            remove(source, "./m", Some("c")).unwrap(),
            "import D, { a } from './m';\nexport { x, y } from './m';\nconst { p, q: r } = require('./m');\nimport * as ns from './n';\n"
        );
        assert_eq!(
            remove(source, "./m", Some("D")).unwrap(),
            "import { a, b as c } from './m';\nexport { x, y } from './m';\nconst { p, q: r } = require('./m');\nimport * as ns from './n';\n"
        );
        assert_eq!(
            remove(source, "./m", Some("r")).unwrap(),
            "import D, { a, b as c } from './m';\nexport { x, y } from './m';\nconst { p } = require('./m');\nimport * as ns from './n';\n"
        );
        assert_eq!(
            remove(source, "./n", Some("ns")).unwrap(),
            "import D, { a, b as c } from './m';\nexport { x, y } from './m';\nconst { p, q: r } = require('./m');\n"
        );
        assert_eq!(
            remove(source, "./m", None).unwrap(),
            "import * as ns from './n';\n"
        );
        assert!(matches!(
            remove(source, "./m", Some("zzz")),
            Err(PluginError::InvalidInput(_))
        ));
        // The last name of a `{ }` next to a default import takes the braces.
        assert_eq!(
            remove("import D, { a } from 'm';\n", "m", Some("a")).unwrap(),
            "import D from 'm';\n"
        );
    }
}
