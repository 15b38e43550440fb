//! The tool reference (`docs/tools.md`), rendered from the tool registry and
//! the hosted mode's project tools, so that it says what the server serves.

use std::fmt::Write as _;

use lingo_tools::toolsets::set_of;
use lingo_tools::{Selection, ToolRegistry, Toolset};
use serde_json::Value;

/// One tool as the reference shows it.
struct ToolDoc<'a> {
    name: &'a str,
    aliases: &'a [&'a str],
    description: &'a str,
    /// The input schema as `tools/list` shows it.
    input_schema: &'a Value,
    /// Arguments accepted but not listed (the specs' other shapes).
    unlisted: Vec<&'a str>,
}

/// The whole reference, in Markdown: the toolsets, then each set's tools.
pub fn markdown() -> String {
    let registry = ToolRegistry::new();
    let project_tools = crate::projects::tools::list();
    let mut out = String::from(
        "# Tools\n\n\
         Every tool lingo serves, with its arguments, generated from the tool\n\
         registry (`cargo test -p lingo-mcp reference` checks it is current;\n\
         `UPDATE_EXPECT=1` rewrites it). Each answer comes as compact text; with\n\
         `format: json`, or from a server started with `--structured-output`\n\
         (which lists each tool's `outputSchema`), as `structuredContent` too.\n\n\
         ## Toolsets\n\n\
         A server offers the `default` set unless its operator chooses others:\n\
         `lingo serve --toolsets analysis,graph`, `[tools] toolsets = [..]` in\n\
         `lingo.toml`, or over HTTP the path `/mcp/<toolset>`. `--tools` and\n\
         `--exclude-tools` add or leave out single tools; `--read-only` leaves out\n\
         every tool that writes files. With one project, `projectId` is accepted\n\
         by every tool but not listed; a hosted server lists it as required.\n\n\
         | toolset | tools |\n|---|---|\n",
    );
    let all_names: Vec<&str> = registry
        .names()
        .into_iter()
        .chain(crate::projects::tools::NAMES.iter().copied())
        .collect();
    for set in Toolset::EVERY {
        let selection = Selection::of_sets(vec![set]);
        let members: Vec<String> = all_names
            .iter()
            .filter(|name| set != Toolset::All && selection.admits(name, false))
            .map(|name| format!("`{name}`"))
            .collect();
        let members = if set == Toolset::All {
            "every tool".to_string()
        } else {
            members.join(", ")
        };
        let _ = writeln!(out, "| `{set}` | {members} |");
    }
    out.push('\n');
    for set in Toolset::EVERY {
        if matches!(set, Toolset::Default | Toolset::All | Toolset::Hosted) {
            continue;
        }
        let _ = writeln!(out, "## {}\n", heading(set));
        for tool in registry
            .tools()
            .iter()
            .filter(|tool| set_of(tool.name) == Some(set))
        {
            let listed = lingo_tools::listed_schema(&tool.input_schema);
            let unlisted = tool.input_schema["properties"]
                .as_object()
                .map(|all| {
                    all.keys()
                        .filter(|name| listed["properties"].get(name.as_str()).is_none())
                        .map(String::as_str)
                        .collect()
                })
                .unwrap_or_default();
            render(
                &mut out,
                &ToolDoc {
                    name: tool.name,
                    aliases: tool.aliases,
                    description: tool.description,
                    input_schema: &listed,
                    unlisted,
                },
            );
        }
    }
    out.push_str(
        "## Hosted mode's project tools\n\n\
         Served over Streamable HTTP with `--projects`; `list_projects` always, the\n\
         others in the `hosted` set.\n\n",
    );
    for tool in &project_tools {
        render(
            &mut out,
            &ToolDoc {
                name: tool["name"].as_str().unwrap_or_default(),
                aliases: &[],
                description: tool["description"].as_str().unwrap_or_default(),
                input_schema: &tool["inputSchema"],
                unlisted: Vec::new(),
            },
        );
    }
    out.truncate(out.trim_end().len());
    out.push('\n');
    out
}

/// A named set's section heading.
fn heading(set: Toolset) -> &'static str {
    match set {
        Toolset::Navigation => "Navigation (`navigation`)",
        Toolset::Refactoring => "Refactoring (`refactoring`)",
        Toolset::Analysis => "Analysis (`analysis`)",
        Toolset::Graph => "Symbol graph (`graph`)",
        Toolset::Workspace => "Workspace (`workspace`)",
        Toolset::Default | Toolset::Hosted | Toolset::All => "",
    }
}

fn render(out: &mut String, tool: &ToolDoc) {
    let _ = writeln!(out, "### `{}`\n", tool.name);
    let _ = writeln!(out, "{}\n", tool.description.trim());
    if !tool.aliases.is_empty() {
        let aliases: Vec<String> = tool.aliases.iter().map(|a| format!("`{a}`")).collect();
        let _ = writeln!(out, "Also called {}.\n", aliases.join(", "));
    }
    if !tool.unlisted.is_empty() {
        let unlisted: Vec<String> = tool.unlisted.iter().map(|a| format!("`{a}`")).collect();
        let _ = writeln!(
            out,
            "Also accepts {} (the same arguments in another shape; not listed to clients).\n",
            unlisted.join(", ")
        );
    }
    let Some(properties) = tool.input_schema["properties"].as_object() else {
        return;
    };
    if properties.is_empty() {
        out.push_str("No arguments.\n\n");
        return;
    }
    let required: Vec<&str> = tool.input_schema["required"]
        .as_array()
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    out.push_str("| argument | type | required | description |\n|---|---|---|---|\n");
    for (name, schema) in properties {
        let description = schema["description"]
            .as_str()
            .unwrap_or_default()
            .replace('|', "\\|")
            .replace('\n', " ");
        let _ = writeln!(
            out,
            "| `{name}` | {} | {} | {description} |",
            type_name(schema),
            if required.contains(&name.as_str()) {
                "yes"
            } else {
                ""
            },
        );
    }
    out.push('\n');
}

/// A schema's type in a few words: `string`, `array of integer`, one of
/// listed values, or the alternatives of a `oneOf`/`anyOf`.
fn type_name(schema: &Value) -> String {
    if let Some(values) = schema["enum"].as_array() {
        let values: Vec<String> = values
            .iter()
            .map(|v| {
                format!(
                    "`{}`",
                    v.as_str().map_or_else(|| v.to_string(), str::to_string)
                )
            })
            .collect();
        return format!("one of {}", values.join(", "));
    }
    for key in ["oneOf", "anyOf"] {
        if let Some(options) = schema[key].as_array() {
            let options: Vec<String> = options.iter().map(type_name).collect();
            return options.join(" or ");
        }
    }
    match &schema["type"] {
        Value::String(kind) if kind == "array" => {
            format!("array of {}", type_name(&schema["items"]))
        }
        Value::String(kind) => kind.clone(),
        Value::Array(kinds) => kinds
            .iter()
            .filter_map(Value::as_str)
            .collect::<Vec<_>>()
            .join(" or "),
        _ => "any".to_string(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn reference_is_current() {
        expect_test::expect_file!["../../../docs/tools.md"].assert_eq(&super::markdown());
    }

    /// A description sent to clients names no file the repository lacks.
    #[test]
    fn descriptions_cite_only_files_of_the_repository() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let reference = super::markdown();
        let cited: Vec<&str> = reference
            .split(|c: char| c.is_whitespace() || "()`'\",;:".contains(c))
            .filter(|word| word.ends_with(".md") && *word != "tools.md")
            .collect();
        let missing: Vec<&&str> = cited
            .iter()
            .filter(|file| !root.join(file).is_file())
            .collect();
        assert!(missing.is_empty(), "descriptions cite {missing:?}");
    }

    #[test]
    fn types_read_as_words() {
        let schema = serde_json::json!({ "type": "array", "items": { "enum": ["a", "b"] } });
        assert_eq!(super::type_name(&schema), "array of one of `a`, `b`");
        let schema = serde_json::json!({ "oneOf": [{ "type": "string" }, { "type": "integer" }] });
        assert_eq!(super::type_name(&schema), "string or integer");
    }
}
