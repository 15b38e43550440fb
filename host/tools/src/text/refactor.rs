//! Plans, applies and rollbacks as text: what changes where, in one line
//! per file; the warnings; how to apply or undo.

use serde_json::Value;

use super::{Request, Writer, str_of};

/// A plan (edits per file as `line:col` lists), or an applied change with
/// its receipt.
pub fn plan_or_applied(value: &Value, _request: &Request, writer: &mut Writer) {
    if value["success"] == Value::Bool(true) {
        applied(value, writer);
    } else {
        plan(value, writer);
    }
}

/// `rename.symbol `a` -> `b``, from a plan's metadata.
fn what(plan: &Value) -> String {
    let metadata = &plan["metadata"];
    let kind = str_of(metadata, "kind").unwrap_or("change");
    match (
        str_of(&metadata["rename"], "from"),
        str_of(&metadata["rename"], "to"),
    ) {
        (Some(from), Some(to)) => format!("{kind} `{from}` -> `{to}`"),
        _ => kind.to_string(),
    }
}

fn plan(value: &Value, writer: &mut Writer) {
    let summary = &value["summary"];
    let count = |key: &str| summary[key].as_u64().unwrap_or(0);
    writer.always(&format!(
        "{} {} ({}, generation {}): {} edits in {} files, {} created, {} deleted; dry run, apply with apply_plan {{\"plan\": <structuredContent>}} or again with dryRun false",
        str_of(value, "plan_type").unwrap_or("Plan"),
        what(value),
        str_of(&value["metadata"], "language").unwrap_or("?"),
        value["metadata"]["generation"].as_u64().unwrap_or(0),
        count("text_edits"),
        count("affected_files"),
        count("created_files"),
        count("deleted_files"),
    ));
    warnings(&value["warnings"], writer);
    for change in value["edits"]["documentChanges"]
        .as_array()
        .into_iter()
        .flatten()
    {
        let line = match (
            str_of(&change["textDocument"], "uri"),
            str_of(change, "kind"),
        ) {
            (Some(path), _) => {
                let places: Vec<String> = change["edits"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|e| {
                        let start = &e["range"]["start"];
                        format!(
                            "{}:{}",
                            start["line"].as_u64().unwrap_or(0) + 1,
                            start["character"].as_u64().unwrap_or(0) + 1
                        )
                    })
                    .collect();
                format!("{path}: {}", places.join(" "))
            }
            (None, Some("rename")) => format!(
                "rename file {} -> {}",
                str_of(change, "oldUri").unwrap_or("?"),
                str_of(change, "newUri").unwrap_or("?")
            ),
            (None, Some(kind)) => format!("{kind} file {}", str_of(change, "uri").unwrap_or("?")),
            (None, None) => continue,
        };
        if !writer.line(&line) {
            writer.always("... more files in structuredContent");
            break;
        }
    }
}

fn applied(value: &Value, writer: &mut Writer) {
    let files = |key: &str| value[key].as_array().map_or(0, Vec::len);
    let id = str_of(value, "snapshot_id").unwrap_or("?");
    writer.always(&format!(
        "applied {}: {} files written, {} created, {} deleted; undo with rollback {{\"snapshot_id\": \"{id}\"}}",
        what(value),
        files("applied_files"),
        files("created_files"),
        files("deleted_files"),
    ));
    let receipt = &value["receipt"];
    let changed: Vec<String> = receipt["files"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|f| f["syntax_errors_after"] != f["syntax_errors_before"])
        .map(|f| {
            format!(
                "{} syntax errors {} -> {}",
                str_of(f, "path").unwrap_or("?"),
                f["syntax_errors_before"],
                f["syntax_errors_after"]
            )
        })
        .collect();
    let left = &receipt["old_name_left"];
    let left = match (str_of(left, "name"), left["count"].as_u64()) {
        (Some(name), Some(count)) => {
            format!("; `{name}` still referenced {count} times in the changed files")
        }
        _ => String::new(),
    };
    writer.always(&format!(
        "receipt at generation {}: syntax errors {}{left}",
        receipt["generation"].as_u64().unwrap_or(0),
        if changed.is_empty() {
            "unchanged".to_string()
        } else {
            format!("changed in {} files", changed.len())
        }
    ));
    for line in changed {
        if !writer.line(&line) {
            break;
        }
    }
    for site in sites_of(&receipt["old_name_left"]) {
        if !writer.line(&format!("  {site}")) {
            break;
        }
    }
    warnings(&value["warnings"], writer);
}

fn sites_of(left: &Value) -> Vec<&str> {
    left["sites"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect()
}

fn warnings(warnings: &Value, writer: &mut Writer) {
    for warning in warnings.as_array().into_iter().flatten() {
        writer.always(&format!(
            "WARNING {}: {}",
            str_of(warning, "code").unwrap_or("?"),
            str_of(warning, "message").unwrap_or("")
        ));
        for site in sites_of(warning) {
            if !writer.line(&format!("  {site}")) {
                break;
            }
        }
    }
}

/// A rollback: what was restored, and the snapshot that undoes it.
pub fn rolled_back(value: &Value, _request: &Request, writer: &mut Writer) {
    let files = |key: &str| value[key].as_array().map_or(0, Vec::len);
    writer.always(&format!(
        "rolled back {}: {} files restored, {} recreated, {} deleted (generation {}); undo with rollback {{\"snapshot_id\": \"{}\"}}",
        str_of(value, "rolled_back").unwrap_or("?"),
        files("restored_files"),
        files("recreated_files"),
        files("deleted_files"),
        value["generation"].as_u64().unwrap_or(0),
        str_of(value, "snapshot_id").unwrap_or("?"),
    ));
}

/// `move_type_to_file`: what moved where, or the pending changes of a preview.
pub fn moved(value: &Value, _request: &Request, writer: &mut Writer) {
    let symbol = &value["symbol"];
    let place = |location: &Value| {
        format!(
            "{}:{}:{}",
            str_of(location, "file").unwrap_or("?"),
            location["line"].as_u64().unwrap_or(0),
            location["column"].as_u64().unwrap_or(0)
        )
    };
    let head = format!(
        "{} `{}` {} -> {}",
        str_of(symbol, "kind").unwrap_or("declaration"),
        str_of(symbol, "fullyQualifiedName").unwrap_or("?"),
        place(&symbol["previousLocation"]),
        place(&symbol["newLocation"]),
    );
    if value["preview"] == Value::Bool(true) {
        writer.always(&format!(
            "preview of move {head}; nothing written (apply with apply_plan {{\"plan\": <structuredContent.plan>}})"
        ));
        warnings(&value["warnings"], writer);
        for change in value["pendingChanges"].as_array().into_iter().flatten() {
            let _ = writer.line(&format!(
                "{} {}: {}",
                str_of(change, "changeType").unwrap_or("?"),
                str_of(change, "file").unwrap_or("?"),
                str_of(change, "description").unwrap_or("")
            ));
            let body = str_of(change, "diff").or_else(|| str_of(change, "content"));
            for line in body.unwrap_or("").lines() {
                if !writer.line(&format!("  {line}")) {
                    return;
                }
            }
        }
        return;
    }
    let files = |key: &str| value["changes"][key].as_array().map_or(0, Vec::len);
    writer.always(&format!(
        "moved {head}: {} files modified, {} created, {} uses updated; undo with rollback {{\"snapshot_id\": \"{}\"}}",
        files("filesModified"),
        files("filesCreated"),
        value["referencesUpdated"].as_u64().unwrap_or(0),
        str_of(value, "snapshot_id").unwrap_or("?"),
    ));
    warnings(&value["warnings"], writer);
}
