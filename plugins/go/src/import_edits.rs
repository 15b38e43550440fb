//! Import edits: adding a package to the file's import block (creating or
//! growing one, with an alias, dot or blank binding) and removing one.

use std::collections::BTreeMap;

use lingo_plugin_sdk::source::{indentation, line_break, line_start};
use lingo_plugin_sdk::types::{PluginError, TextEdit};
use tree_sitter::Node;

use crate::imports::{Binding, Spec, all_specs, declarations, specs_of};
use crate::names::assumed_package_name;

/// How the caller wants the package bound, from the `names` of
/// `render-import`: `"x as f"` binds it as `f` (`"x as ."` and `"."` as a
/// dot import, `"x as _"` and `"_"` blank); any other name is one the
/// caller will write qualified, which a plain import provides.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Wanted {
    Plain,
    Alias(String),
    Dot,
    Blank,
}

fn wanted_bindings(names: &[String]) -> Vec<Wanted> {
    let mut out: Vec<Wanted> = names
        .iter()
        .map(|name| {
            let local = name
                .rsplit_once(" as ")
                .map_or(name.trim(), |(_, alias)| alias.trim());
            match (local, name.contains(" as ")) {
                (".", _) => Wanted::Dot,
                ("_", _) => Wanted::Blank,
                (alias, true) => Wanted::Alias(alias.to_string()),
                (_, false) => Wanted::Plain,
            }
        })
        .collect();
    if out.is_empty() {
        out.push(Wanted::Plain);
    }
    out.sort();
    out.dedup();
    out
}

fn spec_text(path: &str, wanted: &Wanted) -> String {
    match wanted {
        Wanted::Plain => format!("\"{path}\""),
        Wanted::Alias(alias) => format!("{alias} \"{path}\""),
        Wanted::Dot => format!(". \"{path}\""),
        Wanted::Blank => format!("_ \"{path}\""),
    }
}

/// Whether an existing spec already binds the package as wanted (an alias
/// equal to the package's own name is a plain import).
fn satisfies(spec: &Spec, source: &str, path: &str, wanted: &Wanted) -> bool {
    if spec.path(source) != path {
        return false;
    }
    let assumed = assumed_package_name(path);
    match (&spec.binding, wanted) {
        (Binding::Dot, Wanted::Dot) | (Binding::Blank, Wanted::Blank) => true,
        (Binding::Plain, Wanted::Plain) => true,
        (Binding::Plain, Wanted::Alias(a)) => *a == assumed,
        (Binding::Alias(node), Wanted::Plain) => source[node.byte_range()] == assumed,
        (Binding::Alias(node), Wanted::Alias(a)) => source[node.byte_range()] == *a,
        _ => false,
    }
}

/// Edits importing `module_path`: into the first import group, in path
/// order; else the last single-line import becomes a group; else a new
/// import follows the package clause. Empty when already imported.
pub fn render_import(
    root: Node,
    source: &str,
    module_path: &str,
    names: &[String],
) -> Result<Vec<TextEdit>, PluginError> {
    let path = module_path.trim();
    if path.is_empty() || path.contains(['"', '`', '\n']) {
        return Err(PluginError::InvalidInput(format!(
            "`{module_path}` is not a Go import path"
        )));
    }
    let existing = all_specs(root);
    let missing: Vec<String> = wanted_bindings(names)
        .into_iter()
        .filter(|w| !existing.iter().any(|s| satisfies(s, source, path, w)))
        .map(|w| spec_text(path, &w))
        .collect();
    if missing.is_empty() {
        return Ok(Vec::new());
    }
    let declarations = declarations(root);
    let group = declarations
        .iter()
        .find_map(|d| named_child_of_kind(*d, "import_spec_list"));
    if let Some(list) = group {
        return Ok(insert_into_group(list, source, path, &missing));
    }
    if let Some(last) = declarations.last() {
        return Ok(vec![regroup(*last, source, path, &missing)]);
    }
    let clause = named_child_of_kind(root, "package_clause")
        .ok_or_else(|| PluginError::Failed("the file has no package clause".into()))?;
    let at = line_break(source, clause.end_byte());
    let statement = match missing.as_slice() {
        [one] => format!("import {one}"),
        many => format!("import (\n\t{}\n)", many.join("\n\t")),
    };
    Ok(vec![TextEdit {
        start: at as u32,
        end: at as u32,
        new_text: format!("\n\n{statement}"),
    }])
}

fn named_child_of_kind<'t>(node: Node<'t>, kind: &str) -> Option<Node<'t>> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor).find(|c| c.kind() == kind)
}

/// Each new spec on its own line, before the first spec whose path sorts
/// after it, indented like its neighbours.
fn insert_into_group(list: Node, source: &str, path: &str, missing: &[String]) -> Vec<TextEdit> {
    let specs = specs_of(list.parent().unwrap_or(list));
    let indent = specs.first().map_or("\t".to_string(), |s| {
        indentation(source, s.node.start_byte()).to_string()
    });
    let mut at_offset: BTreeMap<usize, String> = BTreeMap::new();
    for text in missing {
        let next = specs.iter().find(|s| s.path(source) > path);
        let (offset, inserted) = match (next, specs.last()) {
            (Some(next), _) => (
                line_start(source, next.node.start_byte()),
                format!("{indent}{text}\n"),
            ),
            (None, Some(last)) => (
                line_break(source, last.node.end_byte()),
                format!("\n{indent}{text}"),
            ),
            (None, None) => (list.start_byte() + 1, format!("\n{indent}{text}")),
        };
        at_offset.entry(offset).or_default().push_str(&inserted);
    }
    at_offset
        .into_iter()
        .map(|(offset, new_text)| TextEdit {
            start: offset as u32,
            end: offset as u32,
            new_text,
        })
        .collect()
}

/// Replace a single-line import by a group of it and the new specs, in
/// path order.
fn regroup(declaration: Node, source: &str, path: &str, missing: &[String]) -> TextEdit {
    let mut lines: Vec<(String, String)> = specs_of(declaration)
        .iter()
        .map(|s| {
            (
                s.path(source).to_string(),
                source[s.node.byte_range()].to_string(),
            )
        })
        .collect();
    lines.extend(missing.iter().map(|m| (path.to_string(), m.clone())));
    lines.sort_by(|a, b| a.0.cmp(&b.0));
    let body: Vec<String> = lines.into_iter().map(|(_, text)| text).collect();
    TextEdit {
        start: declaration.start_byte() as u32,
        end: declaration.end_byte() as u32,
        new_text: format!("import (\n\t{}\n)", body.join("\n\t")),
    }
}

/// Edits removing the specs that import `module_path` (only the one bound
/// as `name`, when given: an alias, `.`, `_` or the package's own name).
/// A declaration left without specs goes entirely.
pub fn remove_import(
    root: Node,
    source: &str,
    module_path: &str,
    name: Option<&str>,
) -> Result<Vec<TextEdit>, PluginError> {
    let mut edits = Vec::new();
    for declaration in declarations(root) {
        let specs = specs_of(declaration);
        let doomed: Vec<&Spec> = specs
            .iter()
            .filter(|s| s.path(source) == module_path)
            .filter(|s| name.is_none_or(|n| binds_as(s, source, n)))
            .collect();
        if doomed.is_empty() {
            continue;
        }
        if doomed.len() == specs.len() {
            edits.push(remove_lines(source, declaration));
            continue;
        }
        for spec in doomed {
            edits.push(remove_lines(source, spec.node));
        }
    }
    if edits.is_empty() {
        return Err(PluginError::InvalidInput(match name {
            Some(n) => format!("`{module_path}` is not imported as `{n}`"),
            None => format!("`{module_path}` is not imported"),
        }));
    }
    Ok(edits)
}

fn binds_as(spec: &Spec, source: &str, name: &str) -> bool {
    match spec.binding {
        Binding::Dot => name == ".",
        Binding::Blank => name == "_",
        _ => spec.local_name(source).as_deref() == Some(name),
    }
}

/// Remove `node`; when it is alone on its lines, remove the lines too (and
/// one of the blank lines around it, so that no double gap is left).
fn remove_lines(source: &str, node: Node) -> TextEdit {
    let (mut start, mut end) = (node.start_byte(), node.end_byte());
    let line_start = line_start(source, start);
    let after = line_break(source, end);
    let alone =
        source[line_start..start].trim().is_empty() && is_blank_or_comment(&source[end..after]);
    if alone {
        start = line_start;
        end = (after + 1).min(source.len());
        let blank_before = source[..start].ends_with("\n\n") || start == 0;
        let blank_after = source[end..].starts_with('\n');
        if blank_before && blank_after {
            end += 1;
        }
    } else if source[end..].starts_with(';') {
        end += 1;
    }
    TextEdit {
        start: start as u32,
        end: end as u32,
        new_text: String::new(),
    }
}

/// Whether the rest of a line leaves it removable: blanks or a comment.
fn is_blank_or_comment(rest: &str) -> bool {
    let rest = rest.trim();
    rest.is_empty() || rest.starts_with("//")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{apply, parse};

    fn added(source: &str, path: &str, names: &[&str]) -> String {
        let tree = parse(source);
        let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
        let edits = render_import(tree.root_node(), source, path, &names).unwrap();
        apply(source, &edits)
    }

    fn removed(source: &str, path: &str, name: Option<&str>) -> Result<String, PluginError> {
        let tree = parse(source);
        remove_import(tree.root_node(), source, path, name).map(|e| apply(source, &e))
    }

    const GROUPED: &str =
        "package p\n\nimport (\n\t\"fmt\"\n\tstr \"strings\" // text\n)\n\nfunc f() {}\n";

    #[test]
    fn a_new_import_joins_the_group_in_path_order() {
        assert_eq!(
            added(GROUPED, "os", &["Exit"]),
            "package p\n\nimport (\n\t\"fmt\"\n\t\"os\"\n\tstr \"strings\" // text\n)\n\nfunc f() {}\n"
        );
        assert_eq!(
            added(GROUPED, "zzz/last", &["* as z"]),
            "package p\n\nimport (\n\t\"fmt\"\n\tstr \"strings\" // text\n\tz \"zzz/last\"\n)\n\nfunc f() {}\n"
        );
        assert_eq!(
            added(GROUPED, "bytes", &[".", "_"]),
            "package p\n\nimport (\n\t. \"bytes\"\n\t_ \"bytes\"\n\t\"fmt\"\n\tstr \"strings\" // text\n)\n\nfunc f() {}\n"
        );
    }

    #[test]
    fn an_import_already_there_adds_nothing() {
        for (path, names) in [
            ("fmt", vec![]),
            ("fmt", vec!["Println".to_string()]),
            ("fmt", vec!["fmt as fmt".to_string()]),
            ("strings", vec!["strings as str".to_string()]),
        ] {
            let tree = parse(GROUPED);
            let edits = render_import(tree.root_node(), GROUPED, path, &names).unwrap();
            assert!(edits.is_empty(), "{path} {names:?}: {edits:?}");
        }
        assert_eq!(
            added(GROUPED, "strings", &[]),
            "package p\n\nimport (\n\t\"fmt\"\n\tstr \"strings\" // text\n\t\"strings\"\n)\n\nfunc f() {}\n"
        );
    }

    #[test]
    fn a_single_import_becomes_a_group_and_a_file_without_imports_gets_one() {
        let single = "package p\n\nimport \"os\"\n\nfunc f() {}\n";
        assert_eq!(
            added(single, "example.com/m/a", &["a as b"]),
            "package p\n\nimport (\n\tb \"example.com/m/a\"\n\t\"os\"\n)\n\nfunc f() {}\n"
        );
        let none = "// Package p.\npackage p // main\n\nfunc f() {}\n";
        assert_eq!(
            added(none, "fmt", &[]),
            "// Package p.\npackage p // main\n\nimport \"fmt\"\n\nfunc f() {}\n"
        );
        let tree = parse(none);
        let bad = render_import(tree.root_node(), none, "a\"b", &[]).unwrap_err();
        assert!(matches!(bad, PluginError::InvalidInput(_)), "{bad:?}");
    }

    #[test]
    fn removing_an_import_takes_its_line_or_its_whole_declaration() {
        assert_eq!(
            removed(GROUPED, "strings", Some("str")).unwrap(),
            "package p\n\nimport (\n\t\"fmt\"\n)\n\nfunc f() {}\n"
        );
        assert_eq!(
            removed(GROUPED, "fmt", None).unwrap(),
            "package p\n\nimport (\n\tstr \"strings\" // text\n)\n\nfunc f() {}\n"
        );
        let single = "package p\n\nimport \"os\"\n\nimport _ \"embed\"\n\nfunc f() {}\n";
        assert_eq!(
            removed(single, "os", Some("os")).unwrap(),
            "package p\n\nimport _ \"embed\"\n\nfunc f() {}\n"
        );
        assert_eq!(
            removed(single, "embed", Some("_")).unwrap(),
            "package p\n\nimport \"os\"\n\nfunc f() {}\n"
        );
        let both = "package p\n\nimport (\n\t\"fmt\"\n\tf \"fmt\"\n)\n";
        assert_eq!(removed(both, "fmt", None).unwrap(), "package p\n\n");
        assert!(matches!(
            removed(GROUPED, "strings", Some("strings")),
            Err(PluginError::InvalidInput(_))
        ));
        assert!(matches!(
            removed(GROUPED, "os", None),
            Err(PluginError::InvalidInput(_))
        ));
    }
}
