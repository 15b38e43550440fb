//! Toolsets: which tools a server offers, chosen by its operator (never by
//! the model): named sets, single tools added or left out, and read-only.

use std::fmt;

use lingo_model::suggest::similar;

/// A named group of tools.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Toolset {
    /// What an agent uses in every task: search, outline, definition,
    /// references, symbol info, call hierarchy, source, rename, apply.
    Default,
    /// Every navigation tool.
    Navigation,
    /// The refactorings, their plans, apply and rollback.
    Refactoring,
    /// The analyses (findings, reports, the quality gate).
    Analysis,
    /// The symbol graph: dependents, dependencies, paths.
    Graph,
    /// The server's and workspace's health.
    Workspace,
    /// Project administration in hosted mode.
    Hosted,
    /// Every tool.
    All,
}

impl Toolset {
    /// Every set, in the order they are documented.
    pub const EVERY: [Toolset; 8] = [
        Toolset::Default,
        Toolset::Navigation,
        Toolset::Refactoring,
        Toolset::Analysis,
        Toolset::Graph,
        Toolset::Workspace,
        Toolset::Hosted,
        Toolset::All,
    ];

    /// The set's name (`--toolsets`, `lingo.toml`, the URL path).
    pub fn name(self) -> &'static str {
        match self {
            Toolset::Default => "default",
            Toolset::Navigation => "navigation",
            Toolset::Refactoring => "refactoring",
            Toolset::Analysis => "analysis",
            Toolset::Graph => "graph",
            Toolset::Workspace => "workspace",
            Toolset::Hosted => "hosted",
            Toolset::All => "all",
        }
    }

    /// The set called `name`.
    pub fn named(name: &str) -> Result<Toolset, SelectionError> {
        let name = name.trim();
        Toolset::EVERY
            .into_iter()
            .find(|set| set.name().eq_ignore_ascii_case(name))
            .ok_or_else(|| SelectionError::UnknownToolset {
                name: clip(name),
                known: Toolset::EVERY.iter().map(|set| set.name()).collect(),
            })
    }
}

impl fmt::Display for Toolset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The tools of the default set.
pub const DEFAULT_TOOLS: &[&str] = &[
    "search_symbols",
    "outline",
    "find_definition",
    "find_references",
    "get_symbol_info",
    "get_call_hierarchy",
    "node_source",
    "rename",
    "apply_plan",
    // The undo of what the set writes.
    "rollback",
];

/// Each named set's tools (the hosted set's are the server's project tools).
const MEMBERS: &[(Toolset, &[&str])] = &[
    (
        Toolset::Navigation,
        &[
            "search_symbols",
            "outline",
            "find_definition",
            "find_references",
            "find_implementations",
            "find_type_definition",
            "get_symbol_info",
            "get_call_hierarchy",
            "node_at",
            "node_source",
            "get_diagnostics",
        ],
    ),
    (
        Toolset::Refactoring,
        &[
            "rename",
            "delete",
            "move",
            "move_type_to_file",
            "move_type_to_namespace",
            "apply_plan",
            "rollback",
        ],
    ),
    (
        Toolset::Analysis,
        &[
            "analyze_quality",
            "analyze_dead_code",
            "analyze_cycles",
            "analyze_dependencies",
            "analyze_structure",
            "quality_gate",
            "analyze_graph_metrics",
            "analyze_documentation",
            "analyze_tests",
            "analyze_complexity",
            "analyze_duplicates",
            "analyze_code_churn",
            "analyze_defect_probability",
            "analyze_name_similarity",
            "analyze_deep_context",
            "analyze_comprehensive",
            "analyze_module_dependencies",
            "analyze_batch",
        ],
    ),
    (
        Toolset::Graph,
        &["dependents_of", "dependencies_of", "paths_between"],
    ),
    (Toolset::Workspace, &["health_check", "diagnose"]),
    (
        Toolset::Hosted,
        &["list_projects", "create_project", "remove_project"],
    ),
];

/// The named set `tool` belongs to (every tool belongs to one).
pub fn set_of(tool: &str) -> Option<Toolset> {
    MEMBERS
        .iter()
        .find(|(_, tools)| tools.contains(&tool))
        .map(|(set, _)| *set)
}

/// The tools the operator chose: the union of `sets` and `tools`, without
/// `excluded`, and without every tool that writes when `read_only`; and
/// whether their answers carry `structuredContent`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Selection {
    sets: Vec<Toolset>,
    tools: Vec<String>,
    excluded: Vec<String>,
    read_only: bool,
    structured_output: bool,
}

impl Selection {
    /// Every tool.
    pub fn all() -> Selection {
        Selection::of_sets(vec![Toolset::All])
    }

    /// The tools of `sets`.
    pub fn of_sets(sets: Vec<Toolset>) -> Selection {
        Selection {
            sets,
            tools: Vec::new(),
            excluded: Vec::new(),
            read_only: false,
            structured_output: false,
        }
    }

    /// A selection from the operator's words: set names (none: the default
    /// set), tool names to add and to leave out, each name checked against
    /// `known` (every tool the server has).
    pub fn new(
        sets: &[String],
        tools: &[String],
        excluded: &[String],
        read_only: bool,
        known: &[&str],
    ) -> Result<Selection, SelectionError> {
        let mut chosen = Vec::new();
        for name in sets.iter().flat_map(|s| s.split(',')) {
            if name.trim().is_empty() {
                continue;
            }
            let set = Toolset::named(name)?;
            if !chosen.contains(&set) {
                chosen.push(set);
            }
        }
        if chosen.is_empty() && tools.is_empty() {
            chosen.push(Toolset::Default);
        }
        let check = |names: &[String]| -> Result<Vec<String>, SelectionError> {
            let mut out = Vec::new();
            for name in names.iter().flat_map(|n| n.split(',')) {
                let name = name.trim();
                if name.is_empty() {
                    continue;
                }
                if !known.contains(&name) {
                    return Err(SelectionError::UnknownTool {
                        name: clip(name),
                        suggestions: similar(name, known.iter().copied(), 3),
                    });
                }
                out.push(name.to_string());
            }
            Ok(out)
        };
        let selection = Selection {
            sets: chosen,
            tools: check(tools)?,
            excluded: check(excluded)?,
            read_only,
            structured_output: false,
        };
        if !known
            .iter()
            .any(|name| selection.admits(name, crate::writes(name)))
        {
            return Err(SelectionError::Empty);
        }
        Ok(selection)
    }

    /// Whether the tool called `name` (which writes files when `writes`)
    /// is offered.
    pub fn admits(&self, name: &str, writes: bool) -> bool {
        if (self.read_only && writes) || self.excluded.iter().any(|t| t == name) {
            return false;
        }
        self.tools.iter().any(|t| t == name)
            || self.sets.iter().any(|set| match set {
                Toolset::All => true,
                Toolset::Default => DEFAULT_TOOLS.contains(&name),
                named => set_of(name) == Some(*named),
            })
    }

    /// `set` alone, with this selection's exclusions and read-only (what
    /// an endpoint naming the set offers).
    pub fn narrowed_to(&self, set: Toolset) -> Selection {
        Selection {
            sets: vec![set],
            tools: Vec::new(),
            excluded: self.excluded.clone(),
            read_only: self.read_only,
            structured_output: self.structured_output,
        }
    }

    /// This selection, its answers carrying `structuredContent` (and its
    /// tools an `outputSchema`) when `structured_output`; without, only a
    /// refusal or a call asking `format: json` carries one.
    pub fn with_structured_output(mut self, structured_output: bool) -> Selection {
        self.structured_output = structured_output;
        self
    }

    /// Whether every answer carries `structuredContent`.
    pub fn structured_output(&self) -> bool {
        self.structured_output
    }

    /// The sets chosen.
    pub fn sets(&self) -> &[Toolset] {
        &self.sets
    }

    /// Whether tools that write are left out.
    pub fn read_only(&self) -> bool {
        self.read_only
    }

    /// What the model is told of the selection: the sets offered, the
    /// others and how an operator enables them.
    pub fn describe(&self) -> String {
        let chosen: Vec<&str> = self.sets.iter().map(|set| set.name()).collect();
        let others: Vec<&str> = Toolset::EVERY
            .iter()
            .filter(|set| !self.sets.contains(set) && !self.sets.contains(&Toolset::All))
            .map(|set| set.name())
            .collect();
        let mut out = format!("Toolsets offered: {}", chosen.join(", "));
        if self.read_only {
            out.push_str(" (read-only: no tool that writes files)");
        }
        out.push('.');
        if !others.is_empty() {
            out.push_str(&format!(
                " Others ({}) are enabled by the operator: `lingo serve --toolsets NAME`, `[tools] toolsets` in lingo.toml, or the URL path /mcp/NAME.",
                others.join(", ")
            ));
        }
        out
    }
}

/// Why the operator's choice of tools was refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SelectionError {
    #[error("unknown toolset `{name}`; toolsets: {}", known.join(", "))]
    UnknownToolset {
        name: String,
        known: Vec<&'static str>,
    },
    #[error("unknown tool `{name}`{}", did_you_mean(suggestions))]
    UnknownTool {
        name: String,
        suggestions: Vec<String>,
    },
    #[error("the toolsets and tools chosen leave no tool to offer")]
    Empty,
}

fn did_you_mean(suggestions: &[String]) -> String {
    if suggestions.is_empty() {
        String::new()
    } else {
        format!("; did you mean {}?", suggestions.join(", "))
    }
}

/// A name from outside, cut to a length fit for an error.
fn clip(name: &str) -> String {
    name.chars().take(64).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ToolRegistry;

    fn known() -> Vec<&'static str> {
        ToolRegistry::new().names()
    }

    #[test]
    fn every_tool_is_in_one_named_set_and_the_default_set_names_real_tools() {
        let registry = ToolRegistry::new();
        for tool in registry.tools() {
            let sets: Vec<Toolset> = MEMBERS
                .iter()
                .filter(|(_, tools)| tools.contains(&tool.name))
                .map(|(set, _)| *set)
                .collect();
            assert_eq!(sets.len(), 1, "{} is in {sets:?}", tool.name);
        }
        for name in DEFAULT_TOOLS {
            assert!(registry.find(name).is_some(), "{name} is not a tool");
        }
    }

    #[test]
    fn no_set_chosen_is_the_default_set() {
        let selection = Selection::new(&[], &[], &[], false, &known()).unwrap();
        assert_eq!(selection.sets(), &[Toolset::Default]);
        assert!(selection.admits("find_references", false));
        assert!(selection.admits("rename", true));
        assert!(selection.admits("rollback", true));
        assert!(!selection.admits("analyze_dead_code", false));
    }

    #[test]
    fn sets_tools_exclusions_and_read_only_combine() {
        let selection = Selection::new(
            &["refactoring,graph".into()],
            &["outline".into()],
            &["rollback".into()],
            false,
            &known(),
        )
        .unwrap();
        assert!(selection.admits("move", true));
        assert!(selection.admits("paths_between", false));
        assert!(selection.admits("outline", false));
        assert!(!selection.admits("rollback", true));
        assert!(!selection.admits("search_symbols", false));

        let read_only = Selection::new(&["all".into()], &[], &[], true, &known()).unwrap();
        assert!(read_only.admits("analyze_quality", false));
        assert!(!read_only.admits("rename", true));
    }

    #[test]
    fn unknown_names_are_refused_with_suggestions() {
        let error = Selection::new(&["refactor".into()], &[], &[], false, &known()).unwrap_err();
        assert!(matches!(error, SelectionError::UnknownToolset { .. }));
        assert!(error.to_string().contains("refactoring"), "{error}");

        let error = Selection::new(&[], &["find_refs".into()], &[], false, &known()).unwrap_err();
        let SelectionError::UnknownTool { suggestions, .. } = &error else {
            panic!("{error}")
        };
        assert!(
            suggestions.contains(&"find_references".to_string()),
            "{error}"
        );
    }

    #[test]
    fn a_selection_that_leaves_nothing_is_refused() {
        let error = Selection::new(&["refactoring".into()], &[], &[], true, &known()).unwrap_err();
        assert_eq!(error, SelectionError::Empty);
    }

    #[test]
    fn the_description_names_the_sets_left_out() {
        let selection = Selection::new(&[], &[], &[], true, &known()).unwrap();
        let text = selection.describe();
        assert!(
            text.contains("Toolsets offered: default (read-only"),
            "{text}"
        );
        assert!(text.contains("analysis"), "{text}");
        assert!(!Selection::all().describe().contains("Others"));
    }
}
