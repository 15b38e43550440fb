//! The refactoring tools: `rename` (a plan, or with `dryRun: false` the
//! plan applied), `apply_plan` for a plan made earlier, and `rollback`.
//! Adapters over the planner in `crate::refactor`.

use std::time::Instant;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::target::TargetArgs;
use super::{About, Tool, ToolContext, text};
use crate::args::Group;
use crate::error::ToolError;
use lingo_analysis::{Analysis, FilePosition, SymbolQuery, Target};
use lingo_refactor::{
    self as refactor, Applied, ApplyOptions, DeleteKind, DeleteRequest, PathRenameRequest, Plan,
    RefactorError, RenameKind, RenameRequest, RolledBack, apply_plan, plan_delete,
    plan_path_rename, plan_rename,
};

/// `dryRun`, `force` and `validateChecksums` as one object: typemill-api.md's
/// `options` envelope.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(super) struct NestedOptions {
    dry_run: Option<bool>,
    force: Option<bool>,
    validate_checksums: Option<bool>,
}

/// The options every refactoring tool reads, at the top level or inside
/// `options` (which wins).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct OptionArgs {
    /// Only plan (default true); false applies the plan at once
    dry_run: Option<bool>,
    /// Apply despite INCOMPLETE_REFERENCES or added syntax errors; make a plan without parsing the edited files again (VALIDATION_SKIPPED)
    force: Option<bool>,
    /// Refuse files changed since the plan (default true)
    validate_checksums: Option<bool>,
    /// The same options as one object: {"dryRun": false}
    #[schemars(extend("x-unlisted" = true))]
    options: Option<NestedOptions>,
}

impl Group for OptionArgs {}

impl OptionArgs {
    /// The options, a nested one before its top-level twin.
    pub(super) fn read(&self) -> Options {
        let nested = self.options.as_ref();
        Options::new(
            nested.and_then(|o| o.dry_run).or(self.dry_run),
            nested.and_then(|o| o.force).or(self.force),
            nested
                .and_then(|o| o.validate_checksums)
                .or(self.validate_checksums),
        )
    }
}

/// `rename`.
pub fn rename() -> Tool {
    Tool::new(
        About {
            name: "rename",
            aliases: &["rename_symbol", "renameSymbol"],
            description: "Rename a symbol everywhere: a function, method, class, type, variable or parameter (its declaration and every certain reference, imports included; a method with what it overrides or implements and what overrides or implements it), or a file or directory (`kind`; imports and module declarations updated). Answers a plan; `dryRun: false` applies it atomically. A name clash or invalid name is refused; uses resolved by name only (INCOMPLETE_REFERENCES) and a member implementing a type outside the workspace (POTENTIAL_BEHAVIOR_CHANGE) are listed and need `force`.",
            text: text::plan_or_applied,
        },
        run_rename,
    )
}

/// `delete`.
pub fn delete() -> Tool {
    Tool::new(
        About {
            name: "delete",
            aliases: &[],
            description: "Delete unused imports (`unused_imports`), dead code (`dead_code`: private declarations nothing uses, with the imports only they used) or a `file`, as a plan; `dryRun: false` applies it. Declarations still named elsewhere are kept and listed.",
            text: text::plan_or_applied,
        },
        run_delete,
    )
}

/// `apply_plan`.
pub fn apply() -> Tool {
    Tool::new(
        About {
            name: "apply_plan",
            aliases: &["applyPlan", "apply_workspace_edit"],
            description: "Apply a plan from rename, delete or move: every file written or none. Refused when a file changed since the plan (CHECKSUM_MISMATCH) or the edit adds syntax errors. Answers the files changed and a `snapshot_id` for rollback.",
            text: text::applied,
        },
        run_apply,
    )
}

/// `rollback`.
pub fn rollback() -> Tool {
    Tool::new(
        About {
            name: "rollback",
            aliases: &["rollbackPlan"],
            description: "Undo an applied change by its `snapshot_id`: every file it touched gets its old bytes back, all or none.",
            text: text::rolled_back,
        },
        run_rollback,
    )
}

/// `dryRun`, `force` and `validateChecksums`, from `options` or the top level.
pub(super) struct Options {
    pub(super) dry_run: bool,
    /// Whether `dry_run` was given (false: the default).
    dry_run_given: bool,
    force: bool,
    validate_checksums: bool,
}

impl Options {
    /// The options given, the others at their defaults.
    fn new(dry_run: Option<bool>, force: Option<bool>, validate_checksums: Option<bool>) -> Self {
        Options {
            dry_run: dry_run.unwrap_or(true),
            dry_run_given: dry_run.is_some(),
            force: force.unwrap_or(false),
            validate_checksums: validate_checksums.unwrap_or(true),
        }
    }

    /// Whether `dryRun` was left to its default.
    fn dry_run_defaulted(&self) -> bool {
        !self.dry_run_given
    }

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

/// What `rename` renames.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum RenameWhat {
    Symbol,
    Type,
    Parameter,
    File,
    Directory,
}

#[derive(Debug, Deserialize, JsonSchema)]
struct RenameArgs {
    /// The new name
    #[serde(alias = "newName")]
    new_name: String,
    /// `symbol` (default: any declaration or local), `type`, `parameter`; `file` / `directory`: the path in `path`, the new path or name in `new_name`, imports updated
    kind: Option<RenameWhat>,
    /// A target object, instead of path/line/character/symbol: {"path": "src/lib.rs", "selector": {"position": {"line": 0, "character": 0}, "name": "old_name"}}
    #[schemars(extend("x-unlisted" = true))]
    target: Option<SpecTarget>,
}

impl Group for RenameArgs {}

/// typemill-api.md's target: a path, and a position or a name in it.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct SpecTarget {
    #[serde(alias = "file_path")]
    path: Option<String>,
    selector: Option<Selector>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Selector {
    position: Option<Position>,
    name: Option<String>,
}

/// A zero-based line and UTF-16 character.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct Position {
    /// Zero-based line
    pub(super) line: u32,
    /// Zero-based UTF-16 character (default 0)
    #[serde(default)]
    pub(super) character: u32,
}

impl SpecTarget {
    /// The declaration it names: `path` with `selector.position`, or `selector.name`.
    fn target(&self) -> Result<Target, ToolError> {
        let selector = self.selector.as_ref();
        match (
            &self.path,
            selector.and_then(|s| s.position.as_ref()),
            selector.and_then(|s| s.name.as_ref()),
        ) {
            (Some(path), Some(position), _) => Ok(Target::Position(FilePosition {
                path: path.clone(),
                line: position.line.into(),
                character: position.character.into(),
            })),
            (path, None, Some(name)) => Ok(Target::Symbol(SymbolQuery {
                name: name.clone(),
                path: path.clone(),
            })),
            _ => Err(ToolError::invalid(
                "target",
                "give `path` with `selector.position`, or `selector.name`",
            )),
        }
    }
}

fn run_rename(
    context: &ToolContext,
    (position, args, options): (TargetArgs, RenameArgs, OptionArgs),
) -> Result<PlanOrApplied, ToolError> {
    let options = options.read();
    let kind = match args.kind.unwrap_or(RenameWhat::Symbol) {
        RenameWhat::Symbol => RenameKind::Symbol,
        RenameWhat::Type => RenameKind::Type,
        RenameWhat::Parameter => RenameKind::Parameter,
        what @ (RenameWhat::File | RenameWhat::Directory) => {
            let from = args
                .target
                .as_ref()
                .and_then(|t| t.path.clone())
                .or(position.path)
                .ok_or_else(|| ToolError::MissingParam {
                    field: "target.path".into(),
                })?;
            let request = PathRenameRequest {
                from,
                to: args.new_name,
                directory: what == RenameWhat::Directory,
            };
            let analysis = Analysis::fresh(&context.workspace)?;
            let plan = plan_path_rename(&analysis, &request)?;
            return plan_or_applied(context, plan, &options);
        }
    };
    let target = match &args.target {
        Some(target) => target.target()?,
        None => position.target()?,
    };
    let request = RenameRequest {
        target,
        new_name: args.new_name,
        kind,
        force: options.force,
    };
    let analysis = Analysis::fresh(&context.workspace)?;
    let plan = plan_rename(&analysis, &request)?;
    plan_or_applied(context, plan, &options)
}

/// The plan, or with `dryRun: false` the plan applied.
pub(super) fn plan_or_applied(
    context: &ToolContext,
    plan: Plan,
    options: &Options,
) -> Result<PlanOrApplied, ToolError> {
    if options.dry_run {
        return Ok(PlanOrApplied::Planned(Box::new(Planned {
            plan,
            dry_run: true,
        })));
    }
    let applied = apply_plan(&context.workspace, &plan, &options.apply())?;
    Ok(PlanOrApplied::Applied(Box::new(applied)))
}

/// What a refactoring tool answers: the plan (a dry run), or the plan
/// applied.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum PlanOrApplied {
    Planned(Box<Planned>),
    Applied(Box<Applied>),
}

/// A plan, to hand to `apply_plan` unchanged.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Planned {
    #[serde(flatten)]
    pub(crate) plan: Plan,
    /// Always true: nothing was written.
    #[serde(rename = "dryRun")]
    pub(super) dry_run: bool,
}

/// What `delete` deletes.
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum DeleteWhat {
    UnusedImports,
    DeadCode,
    File,
}

/// `delete`'s options as one object (its `aggressive` too).
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct DeleteOptions {
    dry_run: Option<bool>,
    force: Option<bool>,
    validate_checksums: Option<bool>,
    aggressive: Option<bool>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct DeleteArgs {
    /// `unused_imports` or `dead_code` (of a file, a folder, or `.` the workspace), or `file`
    kind: DeleteWhat,
    /// The file, or for unused_imports and dead_code a folder (default `.`: the whole workspace)
    path: Option<String>,
    /// A target object, instead of path: {"file_path": "src/lib.rs"} (or `path`)
    #[schemars(extend("x-unlisted" = true))]
    target: Option<PathTarget>,
    /// Only plan (default true); false applies the plan at once
    dry_run: Option<bool>,
    /// Apply despite INCOMPLETE_REFERENCES, PARTIAL_APPLY or POTENTIAL_BEHAVIOR_CHANGE
    force: Option<bool>,
    /// Refuse files changed since the plan (default true)
    validate_checksums: Option<bool>,
    /// unused_imports: also remove outside names in files whose member calls lingo cannot resolve (POTENTIAL_BEHAVIOR_CHANGE)
    aggressive: Option<bool>,
    /// The same options as one object: {"dryRun": false}
    #[schemars(extend("x-unlisted" = true))]
    options: Option<DeleteOptions>,
}

impl Group for DeleteArgs {}

/// A target naming a file or folder.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct PathTarget {
    #[serde(alias = "path")]
    file_path: String,
}

fn run_delete(context: &ToolContext, args: DeleteArgs) -> Result<PlanOrApplied, ToolError> {
    let nested = args.options.unwrap_or_default();
    let options = Options::new(
        nested.dry_run.or(args.dry_run),
        nested.force.or(args.force),
        nested.validate_checksums.or(args.validate_checksums),
    );
    let kind = match args.kind {
        DeleteWhat::UnusedImports => DeleteKind::UnusedImports,
        DeleteWhat::DeadCode => DeleteKind::DeadCode,
        DeleteWhat::File => DeleteKind::File,
    };
    let path = match (args.path, args.target, kind) {
        (Some(path), _, _) | (None, Some(PathTarget { file_path: path }), _) => path,
        (None, None, DeleteKind::UnusedImports | DeleteKind::DeadCode) => ".".to_string(),
        (None, None, DeleteKind::File) => {
            return Err(ToolError::MissingParam {
                field: "path".into(),
            });
        }
    };
    let request = DeleteRequest {
        kind,
        path,
        aggressive: nested.aggressive.or(args.aggressive).unwrap_or(false),
    };
    let analysis = Analysis::fresh(&context.workspace)?;
    let plan = plan_delete(&analysis, &request)?;
    plan_or_applied(context, plan, &options)
}

#[derive(Debug, Deserialize, JsonSchema)]
struct ApplyArgs {
    /// A plan a refactoring tool returned, unchanged
    // Read as a `Value` and checked as a plan: anything else is INVALID_PLAN.
    #[schemars(with = "Map<String, Value>")]
    plan: Value,
}

impl Group for ApplyArgs {}

fn run_apply(
    context: &ToolContext,
    (args, options): (ApplyArgs, OptionArgs),
) -> Result<Applied, ToolError> {
    let options = options.read();
    if !options.dry_run_defaulted() && options.dry_run {
        return Err(ToolError::invalid(
            "dryRun",
            "apply_plan always applies; the plan itself is the dry run",
        ));
    }
    let plan_value = args.plan;
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
    Ok(apply_plan(&context.workspace, &plan, &options.apply())?)
}

#[derive(Debug, Deserialize, JsonSchema)]
struct RollbackArgs {
    /// The snapshot_id an apply answered
    #[serde(alias = "snapshotId")]
    snapshot_id: String,
    /// Restore even files changed since the apply
    #[serde(default)]
    force: bool,
}

impl Group for RollbackArgs {}

fn run_rollback(context: &ToolContext, args: RollbackArgs) -> Result<RolledBack, ToolError> {
    Ok(refactor::rollback(
        &context.workspace,
        &args.snapshot_id,
        args.force,
    )?)
}
