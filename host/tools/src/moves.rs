//! The move tools: `move` (typemill-api.md's envelope, answering a plan),
//! `move_type_to_file` and `move_type_to_namespace` (roslyn-move-contracts.md's
//! schemas, preview and answers), all adapters over
//! `lingo_refactor::plan_move`.

use std::time::Instant;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::refactor::{OptionArgs, Options, PlanOrApplied, Planned, Position, plan_or_applied};
use super::{About, Tool, ToolContext, text};
use crate::args::Group;
use crate::error::ToolError;
use lingo_analysis::Analysis;
use lingo_refactor::plan::{DocumentChange, FileOperation};
use lingo_refactor::{
    ConsolidateRequest, Location, MoveOutcome, MoveRequest, MoveSource, Moved, Plan, Receipt,
    Warning, apply_plan, plan_consolidate, plan_move,
};

/// `move`.
pub fn move_symbol() -> Tool {
    Tool::new(
        About {
            name: "move",
            aliases: &["move_symbol", "moveSymbol"],
            description: "Move a function, type or constant to another file or module, updating imports and qualified uses everywhere (visibility raised where needed); `consolidate` moves every declaration of a file. Answers a plan; `dryRun: false` applies it. Uses it cannot update are listed and need `force`.",
            text: text::plan_or_applied,
        },
        run_move,
    )
}

/// `move_type_to_file`.
pub fn move_type_to_file() -> Tool {
    Tool::new(
        About {
            name: "move_type_to_file",
            aliases: &["moveTypeToFile"],
            description: "Move a class, struct, interface or other type to its own file or another file, updating imports where it is used. Applies atomically unless `preview: true`.",
            text: text::moved,
        },
        run_move_type_to_file,
    )
}

/// What `move` moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum MoveWhat {
    Symbol,
    ToModule,
    ToNamespace,
    Consolidate,
}

#[derive(Debug, Deserialize, JsonSchema)]
struct MoveArgs {
    /// `symbol` (default): to another file (`destination.file_path`); `to_module` / `to_namespace`: to the module or namespace `destination.module_path` names (as an import would); `consolidate`: every declaration of `source.file_path` into the destination, the emptied file deleted
    kind: Option<MoveWhat>,
    /// The declaration: `file_path` with a zero-based `position`, or with its `name` (and its 1-based `line` when the name is not unique)
    source: Source,
    /// Where it goes: `file_path` (created when missing) and/or `module_path` (`crate::shapes`, a module or namespace)
    destination: Destination,
}

impl Group for MoveArgs {}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Source {
    #[serde(alias = "path")]
    file_path: String,
    /// The declaration's position, zero-based
    position: Option<Position>,
    /// The declaration's name, instead of a position
    name: Option<String>,
    /// 1-based line of the named declaration, when the name is not unique
    #[schemars(range(min = 1))]
    line: Option<u32>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Destination {
    #[serde(alias = "path")]
    file_path: Option<String>,
    module_path: Option<String>,
}

impl Destination {
    /// The file and the module, each when given and not blank.
    fn read(self) -> (Option<String>, Option<String>) {
        let given = |s: Option<String>| s.filter(|s| !s.trim().is_empty());
        (given(self.file_path), given(self.module_path))
    }
}

fn run_move(
    context: &ToolContext,
    (args, options): (MoveArgs, OptionArgs),
) -> Result<PlanOrApplied, ToolError> {
    let options = options.read();
    let kind = args.kind.unwrap_or(MoveWhat::Symbol);
    let path = args.source.file_path;
    let (target_file, target_module) = args.destination.read();
    if kind == MoveWhat::Consolidate {
        return run_consolidate(context, &options, path, target_file, target_module);
    }
    let source = match (args.source.position, args.source.name) {
        (Some(position), _) => MoveSource::At {
            path,
            line: position.line,
            character: position.character,
        },
        (None, Some(name)) => MoveSource::Named {
            path,
            name,
            line: args.source.line,
        },
        (None, None) => {
            return Err(ToolError::invalid(
                "source",
                "give `position` {line, character} or `name`",
            ));
        }
    };
    let (wanted, given) = match kind {
        MoveWhat::Symbol => ("destination.file_path", target_file.is_some()),
        _ => ("destination.module_path", target_module.is_some()),
    };
    if !given {
        return Err(ToolError::MissingParam {
            field: wanted.into(),
        });
    }
    let request = MoveRequest {
        source,
        target_file: target_file.unwrap_or_default(),
        create_target_file: true,
        types_only: false,
        target_module,
        follow_namespace_folder: false,
        moving_along: Vec::new(),
    };
    let analysis = Analysis::fresh(&context.workspace)?;
    let outcome = plan_move(&analysis, &request)?;
    plan_or_applied(context, outcome.plan, &options)
}

/// `move` of kind `consolidate`: every declaration of `source_file` to
/// `target_file` or `target_module`.
fn run_consolidate(
    context: &ToolContext,
    options: &Options,
    source_file: String,
    target_file: Option<String>,
    target_module: Option<String>,
) -> Result<PlanOrApplied, ToolError> {
    if target_file.is_none() && target_module.is_none() {
        return Err(ToolError::MissingParam {
            field: "destination.file_path".into(),
        });
    }
    let request = ConsolidateRequest {
        source_file,
        target_file: target_file.unwrap_or_default(),
        target_module,
    };
    let analysis = Analysis::fresh(&context.workspace)?;
    let consolidated = plan_consolidate(&analysis, &request)?;
    plan_or_applied(context, consolidated.plan, options)
}

/// The Roslyn tools' declaration and how to answer.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct RoslynSource {
    /// The file declaring the type (absolute inside the workspace, or relative to its root)
    source_file: String,
    /// Name of the type to move (simple or qualified)
    #[schemars(length(min = 1))]
    symbol_name: String,
    /// 1-based line where the type is declared (for disambiguation)
    #[schemars(range(min = 1))]
    line: Option<u32>,
    /// Return the computed changes without applying them
    #[serde(default)]
    preview: bool,
    /// Apply despite INCOMPLETE_REFERENCES or POTENTIAL_BEHAVIOR_CHANGE
    #[serde(default)]
    force: bool,
}

impl Group for RoslynSource {}

impl RoslynSource {
    /// The declaration: `sourceFile`, `symbolName` and an optional 1-based `line`.
    fn source(&self) -> Result<MoveSource, ToolError> {
        let blank = |field: &str| ToolError::MissingParam {
            field: field.into(),
        };
        if self.source_file.trim().is_empty() {
            return Err(blank("sourceFile"));
        }
        if self.symbol_name.trim().is_empty() {
            return Err(blank("symbolName"));
        }
        Ok(MoveSource::Named {
            path: self.source_file.clone(),
            name: self.symbol_name.clone(),
            line: self.line,
        })
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct ToFileArgs {
    /// The file to move it to
    target_file: String,
    /// Create the target file if it does not exist
    #[serde(default = "yes")]
    create_target_file: bool,
}

impl Group for ToFileArgs {}

fn yes() -> bool {
    true
}

fn run_move_type_to_file(
    context: &ToolContext,
    (roslyn, args): (RoslynSource, ToFileArgs),
) -> Result<RoslynAnswer, ToolError> {
    let started = Instant::now();
    if args.target_file.trim().is_empty() {
        return Err(ToolError::MissingParam {
            field: "targetFile".into(),
        });
    }
    let request = MoveRequest {
        source: roslyn.source()?,
        target_file: args.target_file,
        create_target_file: args.create_target_file,
        types_only: true,
        target_module: None,
        follow_namespace_folder: false,
        moving_along: Vec::new(),
    };
    answer_roslyn(context, &roslyn, &request, started)
}

/// `move_type_to_namespace`.
pub fn move_type_to_namespace() -> Tool {
    Tool::new(
        About {
            name: "move_type_to_namespace",
            aliases: &["moveTypeToNamespace"],
            description: "Change the namespace of a type (a namespace block in the same file or, with `updateFileLocation`, the folder that mirrors it), updating `using` imports where it is used. Applies atomically unless `preview: true`.",
            text: text::moved,
        },
        run_move_type_to_namespace,
    )
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct ToNamespaceArgs {
    /// Target namespace (e.g. MyApp.Services)
    #[schemars(length(min = 1))]
    target_namespace: String,
    /// Also move the type to the folder that matches the namespace
    #[serde(default)]
    update_file_location: bool,
}

impl Group for ToNamespaceArgs {}

fn run_move_type_to_namespace(
    context: &ToolContext,
    (roslyn, args): (RoslynSource, ToNamespaceArgs),
) -> Result<RoslynAnswer, ToolError> {
    let started = Instant::now();
    if args.target_namespace.trim().is_empty() {
        return Err(ToolError::MissingParam {
            field: "targetNamespace".into(),
        });
    }
    let request = MoveRequest {
        source: roslyn.source()?,
        target_file: String::new(),
        create_target_file: true,
        types_only: true,
        target_module: Some(args.target_namespace),
        follow_namespace_folder: args.update_file_location,
        moving_along: Vec::new(),
    };
    answer_roslyn(context, &roslyn, &request, started)
}

/// Plan `request`, then answer the Roslyn way: the preview, or the move
/// applied.
fn answer_roslyn(
    context: &ToolContext,
    roslyn: &RoslynSource,
    request: &MoveRequest,
    started: Instant,
) -> Result<RoslynAnswer, ToolError> {
    let analysis = Analysis::fresh(&context.workspace)?;
    let outcome = plan_move(&analysis, request)?;
    let root = context.workspace.root();
    let absolute = |path: &str| root.join(path).to_string_lossy().into_owned();
    if roslyn.preview {
        return preview(&analysis, &outcome, &absolute);
    }
    let apply = lingo_refactor::ApplyOptions {
        force: roslyn.force,
        validate_checksums: true,
        deadline: lingo_model::budget::current()
            .and_then(|b| b.remaining())
            .map(|r| Instant::now() + r),
    };
    let applied = apply_plan(&context.workspace, &outcome.plan, &apply)?;
    let Moved {
        references_updated,
        imports_added,
        imports_removed,
        ..
    } = &outcome.moved;
    let (mut created, mut modified, mut deleted) = (Vec::new(), Vec::new(), Vec::new());
    for (path, change) in changed_files(&outcome.plan) {
        match change {
            Change::Created => created.push(absolute(&path)),
            Change::Modified => modified.push(absolute(&path)),
            Change::Deleted => deleted.push(absolute(&path)),
        }
    }
    Ok(RoslynAnswer::Applied(RoslynApplied {
        success: Succeeded,
        operation_id: applied.snapshot_id.clone(),
        changes: Changes {
            files_modified: modified,
            files_created: created,
            files_deleted: deleted,
        },
        symbol: moved_symbol(&outcome.moved, &absolute),
        references_updated: *references_updated,
        using_directives_added: *imports_added,
        using_directives_removed: *imports_removed,
        execution_time_ms: started.elapsed().as_millis() as u64,
        snapshot_id: applied.snapshot_id,
        rollback_available: applied.rollback_available,
        receipt: applied.receipt,
        warnings: outcome.plan.warnings,
    }))
}

/// The moved declaration: name, kind, where it was and is, and its
/// namespaces when the move changed them.
fn moved_symbol(moved: &Moved, absolute: &dyn Fn(&str) -> String) -> MovedSymbol {
    let mut symbol = MovedSymbol {
        name: moved.name.clone(),
        fully_qualified_name: moved.qualified_name.clone(),
        kind: lingo_refactor::kind_name(moved.kind).to_string(),
        previous_location: location(&moved.previous, absolute),
        new_location: location(&moved.new, absolute),
        previous_namespace: None,
        new_namespace: None,
    };
    if let (Some(previous), Some(new)) = (&moved.previous_module, &moved.new_module)
        && previous != new
    {
        symbol.previous_namespace = Some(previous.clone());
        symbol.new_namespace = Some(new.clone());
        symbol.fully_qualified_name = if new.is_empty() {
            moved.name.clone()
        } else {
            format!("{new}.{}", moved.name)
        };
    }
    symbol
}

/// How a plan touches a file.
enum Change {
    Created,
    Modified,
    Deleted,
}

/// Paths the plan changes, each with how.
fn changed_files(plan: &Plan) -> Vec<(String, Change)> {
    plan.edits
        .document_changes
        .iter()
        .filter_map(|change| match change {
            DocumentChange::Edit(edit) => Some((edit.text_document.uri.clone(), Change::Modified)),
            DocumentChange::File(FileOperation::Create { uri, .. }) => {
                Some((uri.clone(), Change::Created))
            }
            DocumentChange::File(FileOperation::Delete { uri }) => {
                Some((uri.clone(), Change::Deleted))
            }
            DocumentChange::File(FileOperation::Rename { .. }) => None,
        })
        .collect()
}

fn location(location: &Location, absolute: &dyn Fn(&str) -> String) -> SourceLocation {
    SourceLocation {
        file: absolute(&location.path),
        line: location.line,
        column: location.column,
    }
}

/// The preview answer: each file's change with a unified diff (or the new
/// file's content), and the plan, which apply_plan accepts as it is.
fn preview(
    analysis: &Analysis,
    outcome: &MoveOutcome,
    absolute: &dyn Fn(&str) -> String,
) -> Result<RoslynAnswer, ToolError> {
    let name = &outcome.moved.name;
    let mut pending = Vec::new();
    for change in &outcome.plan.edits.document_changes {
        match change {
            DocumentChange::Edit(edit) => {
                let path = &edit.text_document.uri;
                let file = analysis.file(path)?;
                let new = lingo_refactor::apply_text_edits(&file.source(), &edit.edits)
                    .map_err(|e| ToolError::invalid("plan", e.to_string()))?;
                let description = if *path == outcome.moved.previous.path {
                    format!("Remove {name} declaration")
                } else if *path == outcome.moved.new.path {
                    format!("Add {name} declaration")
                } else {
                    format!("Update the imports of {name}")
                };
                pending.push(PendingChange {
                    file: absolute(path),
                    change_type: ChangeType::Modify,
                    description,
                    diff: Some(lingo_refactor::unified_diff(path, &file.source(), &new)),
                    content: None,
                });
            }
            DocumentChange::File(FileOperation::Create { uri, text }) => {
                pending.push(PendingChange {
                    file: absolute(uri),
                    change_type: ChangeType::Create,
                    description: format!("Add {name} declaration"),
                    diff: None,
                    content: Some(text.clone().unwrap_or_default()),
                });
            }
            DocumentChange::File(FileOperation::Delete { uri }) => {
                pending.push(PendingChange {
                    file: absolute(uri),
                    change_type: ChangeType::Delete,
                    description: format!("Delete the file {name} leaves without declarations"),
                    diff: None,
                    content: None,
                });
            }
            DocumentChange::File(FileOperation::Rename { .. }) => {}
        }
    }
    let warnings = outcome.plan.warnings.clone();
    Ok(RoslynAnswer::Preview(RoslynPreview {
        success: Succeeded,
        preview: Succeeded,
        operation_id: format!("preview-{}", outcome.plan.metadata.created_at),
        pending_changes: pending,
        symbol: moved_symbol(&outcome.moved, absolute),
        warnings,
        plan: Planned {
            plan: outcome.plan.clone(),
            dry_run: true,
        },
    }))
}

/// What `move_type_to_file` and `move_type_to_namespace` answer: the move
/// applied, or its preview.
#[derive(Serialize, JsonSchema)]
#[serde(untagged)]
pub enum RoslynAnswer {
    Applied(RoslynApplied),
    Preview(RoslynPreview),
}

/// `true`, always (`success` and `preview` of these answers).
pub(crate) struct Succeeded;

impl Serialize for Succeeded {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bool(true)
    }
}

impl JsonSchema for Succeeded {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "True".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "const": true })
    }
}

/// The move applied, with its receipt.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RoslynApplied {
    pub(crate) success: Succeeded,
    pub(crate) operation_id: String,
    pub(crate) changes: Changes,
    pub(crate) symbol: MovedSymbol,
    pub(crate) references_updated: usize,
    pub(crate) using_directives_added: usize,
    pub(crate) using_directives_removed: usize,
    pub(crate) execution_time_ms: u64,
    #[serde(rename = "snapshot_id")]
    pub(crate) snapshot_id: String,
    #[serde(rename = "rollback_available")]
    pub(crate) rollback_available: bool,
    /// What the index says after the apply.
    pub(crate) receipt: Receipt,
    /// The plan's warnings.
    pub(crate) warnings: Vec<Warning>,
}

/// The files a move changed, by absolute path.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Changes {
    pub(crate) files_modified: Vec<String>,
    pub(crate) files_created: Vec<String>,
    pub(crate) files_deleted: Vec<String>,
}

/// The move's preview: each file's change, and the plan apply_plan takes.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RoslynPreview {
    pub(crate) success: Succeeded,
    pub(crate) preview: Succeeded,
    pub(crate) operation_id: String,
    pub(crate) pending_changes: Vec<PendingChange>,
    pub(crate) symbol: MovedSymbol,
    /// The plan's warnings.
    pub(crate) warnings: Vec<Warning>,
    /// The plan, as `move` answers it.
    pub(crate) plan: Planned,
}

/// One file's change in a preview.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PendingChange {
    pub(crate) file: String,
    pub(crate) change_type: ChangeType,
    pub(crate) description: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) diff: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) content: Option<String>,
}

#[derive(Serialize, JsonSchema)]
pub enum ChangeType {
    Modify,
    Create,
    Delete,
}

impl ChangeType {
    /// The name the answer spells it with.
    pub(crate) fn name(&self) -> &'static str {
        match self {
            ChangeType::Modify => "Modify",
            ChangeType::Create => "Create",
            ChangeType::Delete => "Delete",
        }
    }
}

/// The moved declaration.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct MovedSymbol {
    pub(crate) name: String,
    pub(crate) fully_qualified_name: String,
    pub(crate) kind: String,
    pub(crate) previous_location: SourceLocation,
    pub(crate) new_location: SourceLocation,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) previous_namespace: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) new_namespace: Option<String>,
}

/// An absolute file path and a position in it.
#[derive(Serialize, JsonSchema)]
pub struct SourceLocation {
    pub(crate) file: String,
    pub(crate) line: u32,
    pub(crate) column: u32,
}
