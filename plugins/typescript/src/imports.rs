//! ES imports, re-exports and `require()` calls as imports.

use lingo_plugin_sdk::LineIndex;
use lingo_plugin_sdk::types::{Import, ImportKind, ImportedName};
use tree_sitter::Node;

use lingo_plugin_sdk::source::text;

/// The contents of a plain string literal (no escapes interpreted).
pub fn string_value(string: Node, source: &str) -> Option<String> {
    if string.kind() != "string" {
        return None;
    }
    let raw = text(string, source);
    let inner = raw.get(1..raw.len().saturating_sub(1))?;
    Some(inner.to_string())
}

/// The module a `require("m")` call names.
pub fn required_module(call: Node, source: &str) -> Option<String> {
    if call.kind() != "call_expression" {
        return None;
    }
    let function = call.child_by_field_name("function")?;
    if function.kind() != "identifier" || text(function, source) != "require" {
        return None;
    }
    let arguments = call.child_by_field_name("arguments")?;
    if arguments.named_child_count() != 1 {
        return None;
    }
    string_value(arguments.named_child(0)?, source)
}

/// Whether a node has the anonymous `type` keyword as a direct child.
pub fn has_type_keyword(node: Node) -> bool {
    let mut cursor = node.walk();
    node.children(&mut cursor)
        .any(|c| !c.is_named() && c.kind() == "type")
}

/// Builds imports with spans from one source.
struct Collector<'a> {
    source: &'a str,
    lines: &'a LineIndex,
    out: Vec<Import>,
}

impl Collector<'_> {
    fn name(&self, name: &str, alias: Option<&str>, at: Node) -> ImportedName {
        ImportedName {
            name: name.to_string(),
            alias: alias.filter(|a| *a != name).map(str::to_string),
            span: self.lines.span(self.source, at.start_byte(), at.end_byte()),
        }
    }

    fn push(
        &mut self,
        module_path: &str,
        kind: ImportKind,
        names: Vec<ImportedName>,
        type_only: bool,
        reexport: bool,
        at: Node,
    ) {
        self.out.push(Import {
            module_path: module_path.to_string(),
            kind,
            names,
            type_only,
            reexport,
            span: self.lines.span(self.source, at.start_byte(), at.end_byte()),
        });
    }

    /// `import ... from "m"`, `import "m"`, `import x = require("m")`.
    fn import_statement(&mut self, statement: Node) {
        let source = self.source;
        let statement_type = has_type_keyword(statement);
        let mut cursor = statement.walk();
        let children: Vec<Node> = statement.named_children(&mut cursor).collect();
        if let Some(clause) = children
            .iter()
            .find(|c| c.kind() == "import_require_clause")
        {
            let module = clause
                .child_by_field_name("source")
                .and_then(|s| string_value(s, source));
            if let (Some(module), Some(local)) = (module, clause.named_child(0)) {
                let name = self.name("*", Some(text(local, source)), local);
                self.push(
                    &module,
                    ImportKind::Namespace,
                    vec![name],
                    statement_type,
                    false,
                    statement,
                );
            }
            return;
        }
        let Some(module) = statement
            .child_by_field_name("source")
            .and_then(|s| string_value(s, source))
        else {
            return;
        };
        let Some(clause) = children.iter().find(|c| c.kind() == "import_clause") else {
            self.push(
                &module,
                ImportKind::SideEffect,
                Vec::new(),
                false,
                false,
                statement,
            );
            return;
        };
        let mut c = clause.walk();
        for part in clause.named_children(&mut c) {
            match part.kind() {
                "identifier" => {
                    let name = self.name("default", Some(text(part, source)), part);
                    self.push(
                        &module,
                        ImportKind::Default,
                        vec![name],
                        statement_type,
                        false,
                        statement,
                    );
                }
                "namespace_import" => {
                    if let Some(local) = part.named_child(0) {
                        let name = self.name("*", Some(text(local, source)), local);
                        self.push(
                            &module,
                            ImportKind::Namespace,
                            vec![name],
                            statement_type,
                            false,
                            statement,
                        );
                    }
                }
                "named_imports" => {
                    let (names, all_types) = self.specifiers(part);
                    self.push(
                        &module,
                        ImportKind::Named,
                        names,
                        statement_type || all_types,
                        false,
                        statement,
                    );
                }
                _ => {}
            }
        }
    }

    /// The names of `{ a, b as c, type T }` and whether every one is a type.
    fn specifiers(&self, list: Node) -> (Vec<ImportedName>, bool) {
        let source = self.source;
        let mut names = Vec::new();
        let mut all_types = true;
        let mut cursor = list.walk();
        for specifier in list.named_children(&mut cursor) {
            let Some(name) = specifier.child_by_field_name("name") else {
                continue;
            };
            let alias = specifier.child_by_field_name("alias");
            all_types &= has_type_keyword(specifier);
            // The span covers `a as b` whole: both names are references
            // to what the module exports as `a` (queries/references.scm).
            names.push(self.name(
                &unquote(text(name, source)),
                alias.map(|a| text(a, source)),
                specifier,
            ));
        }
        let all_types = all_types && !names.is_empty();
        (names, all_types)
    }

    /// `export { a } from "m"`, `export * from "m"`, `export * as ns from "m"`.
    fn export_statement(&mut self, statement: Node) {
        let source = self.source;
        let Some(module) = statement
            .child_by_field_name("source")
            .and_then(|s| string_value(s, source))
        else {
            return;
        };
        let type_only = has_type_keyword(statement);
        let mut cursor = statement.walk();
        let children: Vec<Node> = statement.named_children(&mut cursor).collect();
        if let Some(clause) = children.iter().find(|c| c.kind() == "export_clause") {
            let (names, all_types) = self.specifiers(*clause);
            self.push(
                &module,
                ImportKind::Named,
                names,
                type_only || all_types,
                true,
                statement,
            );
        } else if let Some(namespace) = children.iter().find(|c| c.kind() == "namespace_export") {
            let local = namespace.named_child(0).unwrap_or(*namespace);
            let name = self.name("*", Some(&unquote(text(local, source))), local);
            self.push(
                &module,
                ImportKind::Namespace,
                vec![name],
                type_only,
                true,
                statement,
            );
        } else {
            self.push(
                &module,
                ImportKind::Glob,
                Vec::new(),
                type_only,
                true,
                statement,
            );
        }
    }

    /// `const m = require("m")`, `const { a, b: c } = require("m")`,
    /// `require("m");` and any other `require("m")`.
    fn require_call(&mut self, call: Node, module: &str) {
        let source = self.source;
        let parent = call.parent();
        let declarator = parent.filter(|p| {
            p.kind() == "variable_declarator" && p.child_by_field_name("value") == Some(call)
        });
        if let Some(declarator) = declarator {
            let statement = declarator.parent().unwrap_or(declarator);
            let Some(pattern) = declarator.child_by_field_name("name") else {
                return;
            };
            match pattern.kind() {
                "identifier" => {
                    let name = self.name("*", Some(text(pattern, source)), pattern);
                    self.push(
                        module,
                        ImportKind::Namespace,
                        vec![name],
                        false,
                        false,
                        statement,
                    );
                }
                "object_pattern" => {
                    let names = self.pattern_names(pattern);
                    self.push(module, ImportKind::Named, names, false, false, statement);
                }
                _ => self.push(
                    module,
                    ImportKind::Namespace,
                    Vec::new(),
                    false,
                    false,
                    statement,
                ),
            }
            return;
        }
        if let Some(statement) = parent.filter(|p| p.kind() == "expression_statement") {
            self.push(
                module,
                ImportKind::SideEffect,
                Vec::new(),
                false,
                false,
                statement,
            );
            return;
        }
        self.push(
            module,
            ImportKind::Namespace,
            Vec::new(),
            false,
            false,
            call,
        );
    }

    /// The names a `{ a, b: c }` pattern takes from a required module.
    fn pattern_names(&self, pattern: Node) -> Vec<ImportedName> {
        let source = self.source;
        let mut names = Vec::new();
        let mut cursor = pattern.walk();
        for property in pattern.named_children(&mut cursor) {
            match property.kind() {
                "shorthand_property_identifier_pattern" => {
                    names.push(self.name(text(property, source), None, property))
                }
                "pair_pattern" => {
                    let (Some(key), Some(value)) = (
                        property.child_by_field_name("key"),
                        property.child_by_field_name("value"),
                    ) else {
                        continue;
                    };
                    if value.kind() == "identifier" {
                        names.push(self.name(
                            &unquote(text(key, source)),
                            Some(text(value, source)),
                            key,
                        ));
                    }
                }
                _ => {}
            }
        }
        names
    }
}

/// A module export name may be a string (`export { "a-b" as c }`).
fn unquote(name: &str) -> String {
    name.trim_matches(|c| c == '"' || c == '\'').to_string()
}

/// Every import of the file at `path`, in document order, then what its
/// local export lists (`export { a as b }`) re-export.
pub fn imports(path: &str, root: Node, source: &str, lines: &LineIndex) -> Vec<Import> {
    let mut out = statements(root, source, lines);
    let local = local_exports(path, root, source, lines, &out);
    out.extend(local);
    out
}

/// `export { a, b as c }` without `from`, at the top of the file: a name
/// this file imports is re-exported from the module it came from
/// (`import * as z from "./external"; export { z }` re-exports that module
/// as `z`); a name declared here and exported under another name is
/// re-exported from the file itself (`export { stringType as string }`),
/// so that `string` leads to `stringType`. A name exported as itself
/// needs neither: its declaration is found by its name.
fn local_exports(
    path: &str,
    root: Node,
    source: &str,
    lines: &LineIndex,
    imports: &[Import],
) -> Vec<Import> {
    let mut collector = Collector {
        source,
        lines,
        out: Vec::new(),
    };
    let own_file = format!("./{}", path.rsplit('/').next().unwrap_or(path));
    let mut statements = root.walk();
    for statement in root.named_children(&mut statements) {
        if statement.kind() != "export_statement"
            || statement.child_by_field_name("source").is_some()
        {
            continue;
        }
        let type_only = has_type_keyword(statement);
        let mut clauses = statement.walk();
        let Some(clause) = statement
            .named_children(&mut clauses)
            .find(|c| c.kind() == "export_clause")
        else {
            continue;
        };
        let mut specifiers = clause.walk();
        for specifier in clause.named_children(&mut specifiers) {
            let Some(name) = specifier.child_by_field_name("name") else {
                continue;
            };
            let local = text(name, source);
            let exported = specifier
                .child_by_field_name("alias")
                .map_or_else(|| local.to_string(), |a| unquote(text(a, source)));
            let bound = imports.iter().filter(|i| !i.reexport).find_map(|i| {
                i.names
                    .iter()
                    .find(|n| n.alias.as_deref().unwrap_or(&n.name) == local)
                    .map(|n| (i, n))
            });
            let type_only = type_only || has_type_keyword(specifier);
            match bound {
                Some((import, imported)) => {
                    let (kind, name) = match import.kind {
                        ImportKind::Namespace => (ImportKind::Namespace, "*"),
                        _ => (ImportKind::Named, imported.name.as_str()),
                    };
                    let name = collector.name(name, Some(&exported), specifier);
                    collector.push(
                        &import.module_path,
                        kind,
                        vec![name],
                        type_only || import.type_only,
                        true,
                        specifier,
                    );
                }
                None if exported != local => {
                    let name = collector.name(local, Some(&exported), specifier);
                    collector.push(
                        &own_file,
                        ImportKind::Named,
                        vec![name],
                        type_only,
                        true,
                        specifier,
                    );
                }
                None => {}
            }
        }
    }
    collector.out
}

/// The file's import and re-export statements and `require()` calls, in
/// document order.
fn statements(root: Node, source: &str, lines: &LineIndex) -> Vec<Import> {
    let mut collector = Collector {
        source,
        lines,
        out: Vec::new(),
    };
    let mut cursor = root.walk();
    let mut descend = true;
    loop {
        if descend {
            let node = cursor.node();
            match node.kind() {
                "import_statement" => {
                    collector.import_statement(node);
                    descend = false;
                }
                "export_statement" if node.child_by_field_name("source").is_some() => {
                    collector.export_statement(node);
                    descend = false;
                }
                "call_expression" => {
                    if let Some(module) = required_module(node, source) {
                        collector.require_call(node, &module);
                    }
                }
                _ => {}
            }
        }
        if descend && cursor.goto_first_child() {
            continue;
        }
        if cursor.goto_next_sibling() {
            descend = true;
            continue;
        }
        loop {
            if !cursor.goto_parent() {
                return collector.out;
            }
            if cursor.goto_next_sibling() {
                descend = true;
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use lingo_plugin_sdk::LineIndex;

    /// One line per import: `module kind name>alias,... reexport`.
    fn described(path: &str, source: &str) -> Vec<String> {
        let tree = lingo_plugin_sdk::testing::parse::<crate::TypeScript>(path, source);
        super::imports(path, tree.root_node(), source, &LineIndex::new(source))
            .iter()
            .map(|i| {
                let names: Vec<String> = i
                    .names
                    .iter()
                    .map(|n| match &n.alias {
                        Some(alias) => format!("{}>{alias}", n.name),
                        None => n.name.clone(),
                    })
                    .collect();
                let reexport = if i.reexport { " reexport" } else { "" };
                let kind = format!("{:?}", i.kind);
                let kind = kind.trim_start_matches("ImportKind::");
                format!("{} {kind} {}{reexport}", i.module_path, names.join(","))
            })
            .collect()
    }

    /// A local export list re-exports what the file imports from where it
    /// came, and what it declares under another name from the file itself;
    /// a declaration exported under its own name needs nothing.
    #[test]
    fn local_export_lists_are_reexports_where_a_name_is_imported_or_renamed() {
        let source = "import * as z from \"./external\";\n\
            import { a as b } from \"./a\";\n\
            import d from \"./d\";\n\
            function stringType() {}\n\
            function kept() {}\n\
            export { z, b as c, d, stringType as string, kept };\n\
            export type { z as zz };\n";
        assert_eq!(
            described("src/v4/types.ts", source),
            [
                "./external Namespace *>z",
                "./a Named a>b",
                "./d Default default>d",
                "./external Namespace *>z reexport",
                "./a Named a>c reexport",
                "./d Named default>d reexport",
                "./types.ts Named stringType>string reexport",
                "./external Namespace *>zz reexport",
            ]
        );
    }
}
