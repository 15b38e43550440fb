//! The move tools: `move` (typemill-api.md's envelope, answering a plan),
//! `move_type_to_file` and `move_type_to_namespace` (roslyn-move-contracts.md's
//! schemas, preview and answers), all adapters over
//! `lingo_refactor::plan_move`.

use std::time::Instant;

use serde_json::{Map, Value, json};

use super::output::{array_of, boolean, integer, object, string};
use super::refactor::{Options, answer_plan, option_flag, options_schema, read_options};
use super::target::to_json;
use super::{Args, Tool, ToolContext, text};
use crate::error::ToolError;
use lingo_analysis::Analysis;
use lingo_refactor::plan::{DocumentChange, FileOperation};
use lingo_refactor::{
    ConsolidateRequest, Location, MoveOutcome, MoveRequest, MoveSource, Moved, Plan, apply_plan,
    plan_consolidate, plan_move,
};

/// What `move` moves.
const MOVE_KINDS: &[&str] = &["symbol", "to_module", "to_namespace", "consolidate"];

/// `move`.
pub fn move_symbol() -> Tool {
    let mut properties = Map::new();
    properties.insert(
        "kind".into(),
        json!({ "type": "string", "enum": MOVE_KINDS, "description": "`symbol`: a module-level declaration to another file (`destination.file_path`); `to_module` / `to_namespace`: to another module or namespace (`destination.module_path`, as an import in the source file would name it; a namespace may be new, and the declaration then stays in its file unless `destination.file_path` says otherwise); `consolidate`: every module-level declaration of `source.file_path` (no position or name) into `destination.file_path` or `destination.module_path`, the emptied file deleted with its module's declaration where a parent declares it (Rust `mod`)" }),
    );
    properties.insert(
        "source".into(),
        json!({
            "type": "object",
            "description": "The declaration: {\"file_path\": \"src/a.rs\", \"position\": {\"line\": 0, \"character\": 0}} (zero-based), or {\"file_path\", \"name\", \"line\"} (name, 1-based line when the name is not unique)",
            "properties": {
                "file_path": { "type": "string" },
                "position": { "type": "object", "properties": { "line": { "type": "integer", "minimum": 0 }, "character": { "type": "integer", "minimum": 0 } } },
                "name": { "type": "string" },
                "line": { "type": "integer", "minimum": 1 }
            }
        }),
    );
    properties.insert(
        "destination".into(),
        json!({
            "type": "object",
            "description": "Where it goes: {\"file_path\": \"src/b.rs\"} (created when missing, where the language allows a new file), and/or {\"module_path\": \"crate::shapes\"} (a module or namespace)",
            "properties": { "file_path": { "type": "string" }, "module_path": { "type": "string" } }
        }),
    );
    let options = options_schema();
    for (name, schema) in options["properties"].as_object().into_iter().flatten() {
        properties.insert(name.clone(), schema.clone());
    }
    properties.insert("options".into(), options);
    Tool {
        name: "move",
        aliases: &["move_symbol", "moveSymbol"],
        description: "Move a module-level declaration (type, function, constant) to another file, as a plan (`dryRun: false` applies it at once): the declaration with its doc comments and attributes, the imports it uses copied to its new file, and — when the move changes module — every file that used it importing it from its new module (an import from the old one replaced), what it uses from its old module imported, with visibility raised where the language plugin does that (Rust `pub(crate)`, TypeScript `export`) or BREAKS_ACCESSIBILITY when a private declaration it uses would be out of reach. Uses written as a path through the old module get the new module's path (or, where imports bind modules, as in Go, its package name); those that cannot are listed (POTENTIAL_BEHAVIOR_CHANGE), uncertain ones under INCOMPLETE_REFERENCES; both make applying need `force`. Kind `consolidate` moves every declaration of a file, one after the other, as one plan. Errors carry stable codes (SYMBOL_NOT_FOUND, SYMBOL_AMBIGUOUS, ...).",
        input_schema: json!({ "type": "object", "properties": properties, "required": ["source", "destination"], "additionalProperties": false }),
        handler: run_move,
        text: text::plan_or_applied,
        output_schema: super::output::plan_or_applied(),
    }
}

/// `move_type_to_file`.
pub fn move_type_to_file() -> Tool {
    Tool {
        name: "move_type_to_file",
        aliases: &["moveTypeToFile"],
        description: "Move a type declaration to another file, in every language with a plugin: a C# type keeps its namespace; a TypeScript or Rust type moves to the target file's module, with imports updated where it was used; a Go type to another file of its package. Applies at once, atomically, unless `preview: true` (then the pending changes, with diffs, and the plan for apply_plan). Errors: SYMBOL_NOT_FOUND (with nearby names), SYMBOL_AMBIGUOUS (pass `line`), SYMBOL_NOT_MOVEABLE, SYMBOL_IS_NESTED, SAME_LOCATION, NAME_COLLISION, INVALID_TARGET_PATH, INVALID_LINE_NUMBER, BREAKS_ACCESSIBILITY, COMPILATION_ERROR (the move would add syntax errors), WORKSPACE_BUSY, CHECKSUM_MISMATCH.",
        input_schema: json!({
            "type": "object",
            "required": ["sourceFile", "symbolName", "targetFile"],
            "properties": {
                "sourceFile": { "type": "string", "description": "The file declaring the type (absolute inside the workspace, or relative to its root)" },
                "symbolName": { "type": "string", "minLength": 1, "description": "Name of the type to move (simple or qualified)", "pattern": "^[A-Za-z_][A-Za-z0-9_]*((\\.|::)[A-Za-z_][A-Za-z0-9_]*)*$" },
                "line": { "type": "integer", "minimum": 1, "description": "1-based line where the type is declared (for disambiguation)" },
                "targetFile": { "type": "string", "description": "The file to move it to" },
                "createTargetFile": { "type": "boolean", "default": true, "description": "Create the target file if it does not exist" },
                "preview": { "type": "boolean", "default": false, "description": "Return the computed changes without applying them" },
                "force": { "type": "boolean", "description": "Apply despite INCOMPLETE_REFERENCES or POTENTIAL_BEHAVIOR_CHANGE" }
            },
            "additionalProperties": false
        }),
        handler: run_move_type_to_file,
        text: text::moved,
        output_schema: moved_schema(),
    }
}

fn run_move(context: &ToolContext, args: &Args) -> Result<Value, ToolError> {
    let options = read_options(args)?;
    let kind = args.str("kind")?.unwrap_or("symbol");
    if !MOVE_KINDS.contains(&kind) {
        return Err(ToolError::InvalidParam {
            field: "kind".into(),
            reason: format!("`{kind}` is not one of {}", MOVE_KINDS.join(", ")),
            suggestions: lingo_model::suggest::similar(kind, MOVE_KINDS.iter().copied(), 1),
        });
    }
    let source = match args.value("source") {
        Some(Value::Object(source)) => source,
        Some(_) => return Err(ToolError::invalid("source", "expected an object")),
        None => {
            return Err(ToolError::MissingParam {
                field: "source".into(),
            });
        }
    };
    let path = source
        .get("file_path")
        .or_else(|| source.get("path"))
        .and_then(Value::as_str)
        .ok_or_else(|| ToolError::invalid("source.file_path", "expected a string"))?
        .to_string();
    if kind == "consolidate" {
        return run_consolidate(context, args, &options, path);
    }
    let source = match (source.get("position"), source.get("name")) {
        (Some(position), _) => MoveSource::At {
            path,
            line: u32_field(&position["line"], "source.position.line")?,
            character: u32_field(&position["character"], "source.position.character")?,
        },
        (None, Some(Value::String(name))) => MoveSource::Named {
            path,
            name: name.clone(),
            line: match source.get("line") {
                None | Some(Value::Null) => None,
                Some(line) => Some(u32_field(line, "source.line")?),
            },
        },
        _ => {
            return Err(ToolError::invalid(
                "source",
                "give `position` {line, character} or `name`",
            ));
        }
    };
    let (target_file, target_module) = destination(args)?;
    let (wanted, given) = match kind {
        "symbol" => ("destination.file_path", target_file.is_some()),
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
    if options.dry_run {
        return answer_plan(&outcome.plan);
    }
    let applied = apply_plan(&context.workspace, &outcome.plan, &options.apply())?;
    to_json(&applied)
}

/// `destination.file_path` (or `path`) and `destination.module_path`,
/// each a non-empty string when given.
fn destination(args: &Args) -> Result<(Option<String>, Option<String>), ToolError> {
    let destination = match args.value("destination") {
        Some(Value::Object(destination)) => destination,
        Some(_) => return Err(ToolError::invalid("destination", "expected an object")),
        None => {
            return Err(ToolError::MissingParam {
                field: "destination".into(),
            });
        }
    };
    let text_field = |field: &str| -> Result<Option<String>, ToolError> {
        match destination.get(field) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) if !s.trim().is_empty() => Ok(Some(s.clone())),
            Some(_) => Err(ToolError::invalid(
                &format!("destination.{field}"),
                "expected a non-empty string",
            )),
        }
    };
    let target_file = match text_field("file_path")? {
        Some(file) => Some(file),
        None => text_field("path")?,
    };
    let target_module = text_field("module_path")?;
    Ok((target_file, target_module))
}

/// `move` of kind `consolidate`: every declaration of `source.file_path`
/// to `destination.file_path` or `destination.module_path`.
fn run_consolidate(
    context: &ToolContext,
    args: &Args,
    options: &Options,
    source_file: String,
) -> Result<Value, ToolError> {
    let (target_file, target_module) = destination(args)?;
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
    if options.dry_run {
        return answer_plan(&consolidated.plan);
    }
    let applied = apply_plan(&context.workspace, &consolidated.plan, &options.apply())?;
    to_json(&applied)
}

fn u32_field(value: &Value, field: &str) -> Result<u32, ToolError> {
    value
        .as_u64()
        .and_then(|v| u32::try_from(v).ok())
        .ok_or_else(|| ToolError::invalid(field, "expected a non-negative integer"))
}

fn run_move_type_to_file(context: &ToolContext, args: &Args) -> Result<Value, ToolError> {
    let started = Instant::now();
    let source = named_source(args)?;
    let target_file = required(args, "targetFile")?;
    let request = MoveRequest {
        source,
        target_file: target_file.to_string(),
        create_target_file: option_flag(args, "createTargetFile", true)?,
        types_only: true,
        target_module: None,
        follow_namespace_folder: false,
        moving_along: Vec::new(),
    };
    answer_roslyn(context, args, &request, started)
}

/// `move_type_to_namespace`.
pub fn move_type_to_namespace() -> Tool {
    Tool {
        name: "move_type_to_namespace",
        aliases: &["moveTypeToNamespace"],
        description: "Change the namespace of a type declaration, where the language declares namespaces in its text (C#): the type leaves its namespace block (an emptied block goes with it) for a block of the new namespace in the same file, or with `updateFileLocation` for the folder that mirrors the new namespace as the source's folder mirrors the old one (a file left without declarations is deleted). It gets `using` directives for what it used from its old namespace and the namespaces around it; every file that used it gets a `using` of the new namespace. Uses spelled with the old namespace's name are listed (POTENTIAL_BEHAVIOR_CHANGE), uncertain ones under INCOMPLETE_REFERENCES; both make applying need `force`. In a language whose modules are files or folders, the new namespace names an existing module and the type moves to its file. Applies at once, atomically, unless `preview: true`. Errors as move_type_to_file's, plus INVALID_NAMESPACE.",
        input_schema: json!({
            "type": "object",
            "required": ["sourceFile", "symbolName", "targetNamespace"],
            "properties": {
                "sourceFile": { "type": "string", "description": "The file declaring the type (absolute inside the workspace, or relative to its root)" },
                "symbolName": { "type": "string", "minLength": 1, "description": "Name of the type to move (simple or qualified)", "pattern": "^[A-Za-z_][A-Za-z0-9_]*((\\.|::)[A-Za-z_][A-Za-z0-9_]*)*$" },
                "line": { "type": "integer", "minimum": 1, "description": "1-based line where the type is declared (for disambiguation)" },
                "targetNamespace": { "type": "string", "description": "Target namespace (e.g. MyApp.Services)", "pattern": "^[A-Za-z_][A-Za-z0-9_]*((\\.|::)[A-Za-z_][A-Za-z0-9_]*)*$" },
                "updateFileLocation": { "type": "boolean", "default": false, "description": "Also move the type to the folder that matches the namespace" },
                "preview": { "type": "boolean", "default": false, "description": "Return the computed changes without applying them" },
                "force": { "type": "boolean", "description": "Apply despite INCOMPLETE_REFERENCES or POTENTIAL_BEHAVIOR_CHANGE" }
            },
            "additionalProperties": false
        }),
        handler: run_move_type_to_namespace,
        text: text::moved,
        output_schema: moved_schema(),
    }
}

fn run_move_type_to_namespace(context: &ToolContext, args: &Args) -> Result<Value, ToolError> {
    let started = Instant::now();
    let source = named_source(args)?;
    let namespace = required(args, "targetNamespace")?;
    let request = MoveRequest {
        source,
        target_file: String::new(),
        create_target_file: true,
        types_only: true,
        target_module: Some(namespace.to_string()),
        follow_namespace_folder: option_flag(args, "updateFileLocation", false)?,
        moving_along: Vec::new(),
    };
    answer_roslyn(context, args, &request, started)
}

/// The Roslyn tools' declaration: `sourceFile`, `symbolName` and an
/// optional 1-based `line`.
fn named_source(args: &Args) -> Result<MoveSource, ToolError> {
    let path = required(args, "sourceFile")?;
    let name = required(args, "symbolName")?;
    let line = match args.value("line") {
        None | Some(Value::Null) => None,
        Some(line) => Some(u32_field(line, "line")?),
    };
    Ok(MoveSource::Named {
        path: path.to_string(),
        name: name.to_string(),
        line,
    })
}

/// A required, non-blank string argument.
fn required<'a>(args: &'a Args, field: &str) -> Result<&'a str, ToolError> {
    match args.str(field)? {
        Some(value) if !value.trim().is_empty() => Ok(value),
        _ => Err(ToolError::MissingParam {
            field: field.into(),
        }),
    }
}

/// Plan `request`, then answer the Roslyn way: the preview, or the move
/// applied.
fn answer_roslyn(
    context: &ToolContext,
    args: &Args,
    request: &MoveRequest,
    started: Instant,
) -> Result<Value, ToolError> {
    let analysis = Analysis::fresh(&context.workspace)?;
    let outcome = plan_move(&analysis, request)?;
    let root = context.workspace.root();
    let absolute = |path: &str| root.join(path).to_string_lossy().into_owned();
    if option_flag(args, "preview", false)? {
        return preview(&analysis, &outcome, &absolute);
    }
    let apply = lingo_refactor::ApplyOptions {
        force: option_flag(args, "force", false)?,
        validate_checksums: true,
        deadline: lingo_model::budget::current()
            .and_then(|b| b.remaining())
            .map(|r| Instant::now() + r),
    };
    let applied = apply_plan(&context.workspace, &outcome.plan, &apply)?;
    let applied = to_json(&applied)?;
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
    Ok(json!({
        "success": true,
        "operationId": applied["snapshot_id"],
        "changes": {
            "filesModified": modified,
            "filesCreated": created,
            "filesDeleted": deleted,
        },
        "symbol": symbol_json(&outcome.moved, &absolute),
        "referencesUpdated": references_updated,
        "usingDirectivesAdded": imports_added,
        "usingDirectivesRemoved": imports_removed,
        "executionTimeMs": started.elapsed().as_millis() as u64,
        "snapshot_id": applied["snapshot_id"],
        "rollback_available": applied["rollback_available"],
        "receipt": applied["receipt"],
        "warnings": outcome.plan.warnings,
    }))
}

/// The moved declaration: name, kind, where it was and is, and its
/// namespaces when the move changed them.
fn symbol_json(moved: &Moved, absolute: &dyn Fn(&str) -> String) -> Value {
    let mut symbol = json!({
        "name": moved.name,
        "fullyQualifiedName": moved.qualified_name,
        "kind": lingo_refactor::kind_name(moved.kind),
        "previousLocation": location(&moved.previous, absolute),
        "newLocation": location(&moved.new, absolute),
    });
    if let (Some(previous), Some(new)) = (&moved.previous_module, &moved.new_module)
        && previous != new
    {
        symbol["previousNamespace"] = json!(previous);
        symbol["newNamespace"] = json!(new);
        symbol["fullyQualifiedName"] = json!(if new.is_empty() {
            moved.name.clone()
        } else {
            format!("{new}.{}", moved.name)
        });
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

fn location(location: &Location, absolute: &dyn Fn(&str) -> String) -> Value {
    json!({ "file": absolute(&location.path), "line": location.line, "column": location.column })
}

/// The preview answer: each file's change with a unified diff (or the new
/// file's content), and the plan, which apply_plan accepts as it is.
fn preview(
    analysis: &Analysis,
    outcome: &MoveOutcome,
    absolute: &dyn Fn(&str) -> String,
) -> Result<Value, ToolError> {
    let name = &outcome.moved.name;
    let mut pending = Vec::new();
    for change in &outcome.plan.edits.document_changes {
        match change {
            DocumentChange::Edit(edit) => {
                let path = &edit.text_document.uri;
                let file = analysis.file(path)?;
                let new = lingo_refactor::apply_text_edits(&file.source, &edit.edits)
                    .map_err(|e| ToolError::invalid("plan", e.to_string()))?;
                let description = if *path == outcome.moved.previous.path {
                    format!("Remove {name} declaration")
                } else if *path == outcome.moved.new.path {
                    format!("Add {name} declaration")
                } else {
                    format!("Update the imports of {name}")
                };
                pending.push(json!({
                    "file": absolute(path),
                    "changeType": "Modify",
                    "description": description,
                    "diff": lingo_refactor::unified_diff(path, &file.source, &new),
                }));
            }
            DocumentChange::File(FileOperation::Create { uri, text }) => {
                pending.push(json!({
                    "file": absolute(uri),
                    "changeType": "Create",
                    "description": format!("Add {name} declaration"),
                    "content": text.clone().unwrap_or_default(),
                }));
            }
            DocumentChange::File(FileOperation::Delete { uri }) => {
                pending.push(json!({
                    "file": absolute(uri),
                    "changeType": "Delete",
                    "description": format!("Delete the file {name} leaves without declarations"),
                }));
            }
            DocumentChange::File(FileOperation::Rename { .. }) => {}
        }
    }
    let mut plan = answer_plan(&outcome.plan)?;
    plan["dryRun"] = Value::Bool(true);
    Ok(json!({
        "success": true,
        "preview": true,
        "operationId": format!("preview-{}", outcome.plan.metadata.created_at),
        "pendingChanges": pending,
        "symbol": symbol_json(&outcome.moved, absolute),
        "warnings": outcome.plan.warnings,
        "plan": plan,
    }))
}

/// What `move_type_to_file` answers: the applied move, or its preview.
fn moved_schema() -> Value {
    let location = object(
        &["file", "line", "column"],
        json!({ "file": string(), "line": integer(), "column": integer() }),
    );
    let symbol = object(
        &["name", "fullyQualifiedName", "kind"],
        json!({
            "name": string(), "fullyQualifiedName": string(), "kind": string(),
            "previousLocation": location.clone(), "newLocation": location,
            "previousNamespace": string(), "newNamespace": string(),
        }),
    );
    let applied = object(
        &[
            "success",
            "operationId",
            "changes",
            "symbol",
            "referencesUpdated",
            "executionTimeMs",
        ],
        json!({
            "success": { "const": true },
            "operationId": string(),
            "changes": object(&["filesModified", "filesCreated", "filesDeleted"], json!({
                "filesModified": array_of(string()),
                "filesCreated": array_of(string()),
                "filesDeleted": array_of(string()),
            })),
            "symbol": symbol.clone(),
            "referencesUpdated": integer(),
            "usingDirectivesAdded": integer(),
            "usingDirectivesRemoved": integer(),
            "executionTimeMs": integer(),
            "snapshot_id": string(),
            "rollback_available": boolean(),
        }),
    );
    let preview = object(
        &["success", "preview", "operationId", "pendingChanges"],
        json!({
            "success": { "const": true },
            "preview": { "const": true },
            "operationId": string(),
            "pendingChanges": array_of(object(&["file", "changeType", "description"], json!({
                "file": string(),
                "changeType": { "enum": ["Modify", "Create", "Delete"] },
                "description": string(),
                "diff": string(),
                "content": string(),
            }))),
            "symbol": symbol,
            "plan": { "type": "object" },
        }),
    );
    json!({ "anyOf": [applied, preview] })
}
