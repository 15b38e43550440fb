//! The refactoring tools: `rename` (a plan, or with `dryRun: false` the
//! plan applied), `apply_plan` for a plan made earlier, and `rollback`.
//! Adapters over the planner in `crate::refactor`.

use std::time::Instant;

use serde_json::{Map, Value, json};

use super::target::{self, to_json};
use super::{Args, Tool, ToolContext, output, text};
use crate::error::ToolError;
use lingo_analysis::{Analysis, FilePosition, SymbolQuery, Target};
use lingo_refactor::{
    self as refactor, ApplyOptions, DeleteKind, DeleteRequest, PathRenameRequest, Plan,
    RefactorError, RenameKind, RenameRequest, apply_plan, plan_delete, plan_path_rename,
    plan_rename,
};

/// The options every refactoring tool reads, at the top level or inside
/// `options` (typemill-api.md's envelope).
pub(super) fn options_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "dryRun": { "type": "boolean", "description": "Only plan (default true); false applies the plan at once" },
            "force": { "type": "boolean", "description": "Apply despite INCOMPLETE_REFERENCES or added syntax errors; make a plan without parsing the edited files again (VALIDATION_SKIPPED)" },
            "validateChecksums": { "type": "boolean", "description": "Refuse files changed since the plan (default true)" }
        },
        "additionalProperties": false
    })
}

/// `rename`.
pub fn rename() -> Tool {
    let mut properties = target::properties();
    properties.insert(
        "target".into(),
        json!({
            "type": "object",
            "description": "A target object, instead of path/line/character/symbol: {\"path\": \"src/lib.rs\", \"selector\": {\"position\": {\"line\": 0, \"character\": 0}, \"name\": \"old_name\"}}",
            "properties": {
                "path": { "type": "string" },
                "selector": { "type": "object", "properties": {
                    "position": { "type": "object", "properties": { "line": { "type": "integer", "minimum": 0 }, "character": { "type": "integer", "minimum": 0 } } },
                    "name": { "type": "string" }
                } }
            }
        }),
    );
    properties.insert(
        "new_name".into(),
        json!({ "type": "string", "description": "The new name" }),
    );
    properties.insert(
        "newName".into(),
        json!({ "type": "string", "description": "Alias of new_name" }),
    );
    properties.insert(
        "kind".into(),
        json!({ "type": "string", "enum": ["symbol", "type", "parameter", "file", "directory"], "description": "What is renamed: `symbol` (any declaration or local, the default), `type` (refused for anything else), `parameter`; `file` / `directory` (the path in `target.path` or `path`, the new path, or a bare new name, in `new_name`): the files moved and every import naming them respelled" }),
    );
    properties.insert("options".into(), options_schema());
    for (name, schema) in options_schema()["properties"]
        .as_object()
        .into_iter()
        .flatten()
    {
        properties.insert(name.clone(), schema.clone());
    }
    Tool {
        name: "rename",
        aliases: &["rename_symbol", "renameSymbol"],
        description: "Rename a declaration, type or parameter everywhere, or a file or directory (`kind: file|directory`: the files moved, and every import naming a module they make respelled by the language plugin, a Rust `mod` declaration renamed with its paths; a C# file moves alone): the declaration (a partial type's other parts and a type's same-named constructors too) and every reference find_references resolves to it with certainty, imports included. Returns a plan (LSP WorkspaceEdit, sha256 checksums, warnings) by default; `dryRun: false` applies it at once, atomically, with a snapshot to roll back to. A name that clashes is refused (NAME_COLLISION); so is one that does not parse as a name of the language (INVALID_SYMBOL_NAME, found by parsing the edited files). Uses resolved by name only are not renamed: they are listed under INCOMPLETE_REFERENCES, and applying then needs `force`.",
        input_schema: json!({ "type": "object", "properties": properties, "additionalProperties": false }),
        handler: run_rename,
        text: text::plan_or_applied,
        output_schema: output::plan_or_applied(),
    }
}

/// `delete`.
pub fn delete() -> Tool {
    let mut options = options_schema();
    options["properties"]["aggressive"] = json!({ "type": "boolean", "description": "unused_imports: also remove names from outside the workspace in files that call members lingo cannot resolve (a trait or extension-method import may serve them); the plan then warns POTENTIAL_BEHAVIOR_CHANGE" });
    let mut properties = Map::new();
    properties.insert(
        "kind".into(),
        json!({ "type": "string", "enum": DeleteKind::NAMES, "description": "`unused_imports` or `dead_code` (of a file, a folder, or `.` the workspace), or `file`" }),
    );
    properties.insert(
        "path".into(),
        json!({ "type": "string", "description": "The file, or for unused_imports and dead_code a folder (default `.`: the whole workspace)" }),
    );
    properties.insert(
        "target".into(),
        json!({ "type": "object", "description": "A target object, instead of path: {\"file_path\": \"src/lib.rs\"} (or `path`)", "properties": { "file_path": { "type": "string" }, "path": { "type": "string" } } }),
    );
    for (name, schema) in options["properties"].as_object().into_iter().flatten() {
        properties.insert(name.clone(), schema.clone());
    }
    properties.insert("options".into(), options);
    Tool {
        name: "delete",
        aliases: &[],
        description: "Delete what is not needed, as a plan (`dryRun: false` applies it at once). `unused_imports`: the imports nothing in a file names — no reference, no mention in macro bodies, attributes or doc links, no member call served by an imported trait — removed by the language plugin and checked by parsing the file again; imports of every name of a module outside the workspace are kept. `dead_code`: private functions, methods, types and constants that no reference resolves to and whose name is written nowhere else in the workspace outside other dead code, and that their plugin does not name as entry points (`main`, tests, trait and interface implementations, foreign exports), each taken out with its doc comments and attributes, with the imports only they used; declarations named elsewhere are kept and listed under PARTIAL_APPLY, and when the index could not see every file the plan warns INCOMPLETE_REFERENCES, so applying needs `force`. `file`: the file itself; uses of its declarations in other files are listed under POTENTIAL_BEHAVIOR_CHANGE, and applying then needs `force`.",
        input_schema: json!({ "type": "object", "properties": properties, "additionalProperties": false }),
        handler: run_delete,
        text: text::plan_or_applied,
        output_schema: output::plan_or_applied(),
    }
}

/// `apply_plan`.
pub fn apply() -> Tool {
    let mut properties = Map::new();
    properties.insert(
        "plan".into(),
        json!({ "type": "object", "description": "A plan a refactoring tool returned, unchanged" }),
    );
    properties.insert("options".into(), options_schema());
    properties.insert(
        "force".into(),
        options_schema()["properties"]["force"].clone(),
    );
    properties.insert(
        "validateChecksums".into(),
        options_schema()["properties"]["validateChecksums"].clone(),
    );
    Tool {
        name: "apply_plan",
        aliases: &["applyPlan", "apply_workspace_edit"],
        description: "Apply a plan made earlier: every file written or none (temporary files renamed into place after all are written; an interrupted apply is finished at the next start). Refused with CHECKSUM_MISMATCH / STALE_PLAN when a file changed since the plan, WORKSPACE_BUSY while another apply runs, COMPILATION_ERROR when it would add syntax errors, INCOMPLETE_REFERENCES when the plan says its references may not be all (unless `force`). Answers with the files changed, a `snapshot_id` for `rollback`, and a receipt from the re-indexed files.",
        input_schema: json!({ "type": "object", "properties": properties, "required": ["plan"], "additionalProperties": false }),
        handler: run_apply,
        text: text::plan_or_applied,
        output_schema: output::plan_or_applied(),
    }
}

/// `rollback`.
pub fn rollback() -> Tool {
    Tool {
        name: "rollback",
        aliases: &["rollbackPlan"],
        description: "Undo an applied change by its `snapshot_id`: every file it touched gets its old bytes back, all or none. Refused with CHECKSUM_MISMATCH when a file changed since (unless `force`). The rollback is itself a change with a snapshot id.",
        input_schema: json!({
            "type": "object",
            "properties": {
                "snapshot_id": { "type": "string", "description": "The snapshot_id an apply answered" },
                "snapshotId": { "type": "string", "description": "Alias of snapshot_id" },
                "force": { "type": "boolean", "description": "Restore even files changed since the apply" }
            },
            "additionalProperties": false
        }),
        handler: run_rollback,
        text: text::rolled_back,
        output_schema: output::rolled_back(),
    }
}

/// `dryRun`, `force` and `validateChecksums`, from `options` or the top level.
pub(super) struct Options {
    pub(super) dry_run: bool,
    force: bool,
    validate_checksums: bool,
}

/// A boolean option, from `options` or the top level (`default` when
/// neither gives it).
pub(super) fn option_flag(args: &Args, name: &str, default: bool) -> Result<bool, ToolError> {
    let value = args
        .value("options")
        .and_then(|o| o.get(name))
        .filter(|v| !v.is_null())
        .or_else(|| args.value(name));
    match value {
        None | Some(Value::Null) => Ok(default),
        Some(Value::Bool(b)) => Ok(*b),
        Some(_) => Err(ToolError::invalid(name, "expected true or false")),
    }
}

pub(super) fn read_options(args: &Args) -> Result<Options, ToolError> {
    if let Some(options) = args.value("options")
        && !options.is_object()
    {
        return Err(ToolError::invalid("options", "expected an object"));
    }
    Ok(Options {
        dry_run: option_flag(args, "dryRun", true)?,
        force: option_flag(args, "force", false)?,
        validate_checksums: option_flag(args, "validateChecksums", true)?,
    })
}

impl Options {
    /// How to apply, within the request's deadline.
    pub(super) fn apply(&self) -> ApplyOptions {
        ApplyOptions {
            force: self.force,
            validate_checksums: self.validate_checksums,
            deadline: lingo_model::budget::current()
                .and_then(|b| b.remaining())
                .map(|r| Instant::now() + r),
        }
    }
}

fn run_rename(context: &ToolContext, args: &Args) -> Result<Value, ToolError> {
    let options = read_options(args)?;
    let new_name = match (args.str("new_name")?, args.str("newName")?) {
        (Some(name), _) | (None, Some(name)) => name,
        (None, None) => {
            return Err(ToolError::MissingParam {
                field: "new_name".into(),
            });
        }
    };
    let kind_name = args.str("kind")?.unwrap_or("symbol");
    if PATH_KINDS.contains(&kind_name) {
        return run_path_rename(context, args, &options, new_name, kind_name == "directory");
    }
    let kind = RenameKind::parse(kind_name).ok_or_else(|| {
        let names: Vec<&str> = RenameKind::NAMES
            .iter()
            .chain(PATH_KINDS)
            .copied()
            .collect();
        ToolError::InvalidParam {
            field: "kind".into(),
            reason: format!("`{kind_name}` is not one of {}", names.join(", ")),
            suggestions: lingo_model::suggest::similar(kind_name, names, 1),
        }
    })?;
    let target = match args.value("target") {
        Some(target) => spec_target(target)?,
        None => target::target(args)?,
    };
    let request = RenameRequest {
        target,
        new_name: new_name.to_string(),
        kind,
        force: options.force,
    };
    let analysis = Analysis::fresh(&context.workspace)?;
    let plan = plan_rename(&analysis, &request)?;
    if options.dry_run {
        return answer_plan(&plan);
    }
    let applied = apply_plan(&context.workspace, &plan, &options.apply())?;
    to_json(&applied)
}

/// typemill-api.md's `target` object naming a path: its `file_path` (or
/// `path`); `field` is the name a wrong value is reported under.
fn target_path<'a>(args: &'a Args, field: &str) -> Result<Option<&'a str>, ToolError> {
    match args.value("target") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Object(target)) => {
            let path = target
                .get("file_path")
                .or_else(|| target.get("path"))
                .ok_or_else(|| ToolError::invalid("target", "give `file_path` or `path`"))?;
            path.as_str()
                .map(Some)
                .ok_or_else(|| ToolError::invalid(field, "expected a string"))
        }
        Some(_) => Err(ToolError::invalid("target", "expected an object")),
    }
}

/// Rename kinds that name a path rather than a declaration.
const PATH_KINDS: &[&str] = &["file", "directory"];

/// `rename` of a file or directory: the path from `target.path` (or
/// `target.file_path`, or `path`), the new path (or a bare new name) from
/// `new_name`.
fn run_path_rename(
    context: &ToolContext,
    args: &Args,
    options: &Options,
    new_name: &str,
    directory: bool,
) -> Result<Value, ToolError> {
    let from = match (target_path(args, "target.path")?, args.str("path")?) {
        (Some(path), _) | (None, Some(path)) => path,
        (None, None) => {
            return Err(ToolError::MissingParam {
                field: "target.path".into(),
            });
        }
    };
    let request = PathRenameRequest {
        from: from.to_string(),
        to: new_name.to_string(),
        directory,
    };
    let analysis = Analysis::fresh(&context.workspace)?;
    let plan = plan_path_rename(&analysis, &request)?;
    if options.dry_run {
        return answer_plan(&plan);
    }
    let applied = apply_plan(&context.workspace, &plan, &options.apply())?;
    to_json(&applied)
}

fn run_delete(context: &ToolContext, args: &Args) -> Result<Value, ToolError> {
    let options = read_options(args)?;
    let kind_name = args.str("kind")?.ok_or_else(|| ToolError::MissingParam {
        field: "kind".into(),
    })?;
    let kind = DeleteKind::parse(kind_name).ok_or_else(|| ToolError::InvalidParam {
        field: "kind".into(),
        reason: format!(
            "`{kind_name}` is not one of {}",
            DeleteKind::NAMES.join(", ")
        ),
        suggestions: lingo_model::suggest::similar(kind_name, DeleteKind::NAMES.iter().copied(), 1),
    })?;
    let nested = target_path(args, "target.file_path")?;
    let path = match (args.str("path")?, nested, kind) {
        (Some(path), _, _) | (None, Some(path), _) => path,
        (None, None, DeleteKind::UnusedImports | DeleteKind::DeadCode) => ".",
        (None, None, DeleteKind::File) => {
            return Err(ToolError::MissingParam {
                field: "path".into(),
            });
        }
    };
    let aggressive = option_flag(args, "aggressive", false)?;
    let request = DeleteRequest {
        kind,
        path: path.to_string(),
        aggressive,
    };
    let analysis = Analysis::fresh(&context.workspace)?;
    let plan = plan_delete(&analysis, &request)?;
    if options.dry_run {
        return answer_plan(&plan);
    }
    let applied = apply_plan(&context.workspace, &plan, &options.apply())?;
    to_json(&applied)
}

pub(super) fn answer_plan(plan: &Plan) -> Result<Value, ToolError> {
    let mut value = to_json(plan)?;
    value["dryRun"] = Value::Bool(true);
    Ok(value)
}

/// typemill-api.md's `{path, selector: {position, name}}`.
fn spec_target(target: &Value) -> Result<Target, ToolError> {
    let path = target["path"].as_str();
    let selector = &target["selector"];
    let position = &selector["position"];
    let name = selector["name"].as_str();
    match (path, position["line"].as_u64(), name) {
        (Some(path), Some(line), _) => Ok(Target::Position(FilePosition {
            path: path.to_string(),
            line,
            character: position["character"].as_u64().unwrap_or(0),
        })),
        (path, None, Some(name)) => Ok(Target::Symbol(SymbolQuery {
            name: name.to_string(),
            path: path.map(str::to_string),
        })),
        _ => Err(ToolError::invalid(
            "target",
            "give `path` with `selector.position`, or `selector.name`",
        )),
    }
}

fn run_apply(context: &ToolContext, args: &Args) -> Result<Value, ToolError> {
    let options = read_options(args)?;
    let plan_value = args.value("plan").ok_or_else(|| ToolError::MissingParam {
        field: "plan".into(),
    })?;
    let plan: Plan = serde_json::from_value(plan_value.clone()).map_err(|e| {
        let found = plan_value["plan_type"].as_str().unwrap_or_default();
        if !found.is_empty() && !refactor::plan::PLAN_TYPES.contains(&found) {
            ToolError::from(RefactorError::InvalidPlanType {
                found: found.to_string(),
            })
        } else {
            ToolError::from(RefactorError::InvalidPlan {
                field: "plan".into(),
                reason: e.to_string(),
            })
        }
    })?;
    let applied = apply_plan(&context.workspace, &plan, &options.apply())?;
    to_json(&applied)
}

fn run_rollback(context: &ToolContext, args: &Args) -> Result<Value, ToolError> {
    let id = match (args.str("snapshot_id")?, args.str("snapshotId")?) {
        (Some(id), _) | (None, Some(id)) => id,
        (None, None) => {
            return Err(ToolError::MissingParam {
                field: "snapshot_id".into(),
            });
        }
    };
    let force = args.bool("force", false)?;
    let rolled_back = refactor::rollback(&context.workspace, id, force)?;
    to_json(&rolled_back)
}
