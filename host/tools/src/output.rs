//! The tools' output schemas (MCP `outputSchema`): what `structuredContent`
//! holds, as JSON Schema. Each names the fields a program may rely on and
//! their types; answers may carry more (notes about the index). A refusal's
//! `{"success": false, "error": ..}` is allowed by every schema, since MCP
//! clients validate the structured content of errors too.

use serde_json::{Value, json};

/// The schema of a tool whose answer is `answer`, or a refusal.
pub fn answer_or_refusal(answer: Value) -> Value {
    json!({
        "type": "object",
        "anyOf": [answer, refusal()],
    })
}

/// `{"success": false, "error": {"code", "message", "details", "suggestions"}}`.
fn refusal() -> Value {
    object(
        &["success", "error"],
        json!({
            "success": { "const": false },
            "error": object(&["code", "message"], json!({
                "code": string(),
                "message": string(),
                "details": { "type": "object" },
                "suggestions": { "type": "array", "items": string() },
            })),
        }),
    )
}

/// An object with `required` fields among `properties`; other fields allowed.
pub fn object(required: &[&str], properties: Value) -> Value {
    json!({ "type": "object", "required": required, "properties": properties })
}

pub fn string() -> Value {
    json!({ "type": "string" })
}

pub fn nullable_string() -> Value {
    json!({ "type": ["string", "null"] })
}

pub fn integer() -> Value {
    json!({ "type": "integer", "minimum": 0 })
}

pub fn boolean() -> Value {
    json!({ "type": "boolean" })
}

pub fn array_of(items: Value) -> Value {
    json!({ "type": "array", "items": items })
}

/// A certainty in [0, 1].
pub fn confidence() -> Value {
    json!({ "type": "number", "minimum": 0, "maximum": 1 })
}

/// How a name was resolved.
pub fn resolution() -> Value {
    json!({ "enum": ["declaration", "scope", "import", "qualified", "name_only", "unresolved"] })
}

/// A zero-based `{start: {line, character}, end: {line, character}}`.
pub fn range() -> Value {
    let position = object(
        &["line", "character"],
        json!({ "line": integer(), "character": integer() }),
    );
    object(
        &["start", "end"],
        json!({ "start": position, "end": position }),
    )
}

/// A declaration as the navigation tools show it.
pub fn symbol_view() -> Value {
    object(
        &["name", "kind", "file_path", "range", "name_range"],
        json!({
            "name": string(),
            "kind": string(),
            "language_kind": string(),
            "file_path": string(),
            "range": range(),
            "name_range": range(),
            "container": nullable_string(),
            "namespace": string(),
            "signature": nullable_string(),
        }),
    )
}

/// A place where a name is used.
pub fn site() -> Value {
    object(
        &["file_path", "range"],
        json!({
            "file_path": string(),
            "range": range(),
            "kind": string(),
            "enclosing": nullable_string(),
            "line_text": string(),
        }),
    )
}

/// The paging object of a paged list.
pub fn pagination() -> Value {
    object(
        &["total", "offset", "returned", "has_more"],
        json!({
            "total": integer(),
            "offset": integer(),
            "limit": integer(),
            "returned": integer(),
            "omitted": integer(),
            "has_more": boolean(),
            "next_offset": { "type": ["integer", "null"], "minimum": 0 },
            "truncated_by_bytes": boolean(),
        }),
    )
}

/// What a list may lack: at least whether it is complete, and why not.
pub fn completeness() -> Value {
    object(
        &["complete"],
        json!({ "complete": boolean(), "note": string() }),
    )
}

/// Answers written in the graph-tools-api.md text format.
pub fn graph_text() -> Value {
    object(
        &["format", "text", "generation"],
        json!({ "format": { "const": "text" }, "text": string(), "generation": integer() }),
    )
}

/// A resolved declaration: the view, with how it was resolved.
fn resolved_declaration() -> Value {
    let mut view = symbol_view();
    view["properties"]["resolution"] = resolution();
    view["properties"]["confidence"] = confidence();
    view
}

/// Counts of certain and guessed uses.
fn counts() -> Value {
    object(
        &["certain", "name_only"],
        json!({ "certain": integer(), "name_only": integer() }),
    )
}

/// `health_check` and `diagnose`.
pub fn health() -> Value {
    object(
        &[
            "healthy",
            "components",
            "workspace",
            "capabilities",
            "errors",
            "warnings",
        ],
        json!({
            "healthy": boolean(),
            "components": object(&["server", "pluginAbi", "plugins"], json!({
                "pluginAbi": string(),
                "plugins": array_of(object(&["name", "version", "abiVersion", "extensions"], json!({
                    "name": string(), "version": string(), "abiVersion": string(),
                    "extensions": array_of(string()),
                }))),
            })),
            "workspace": object(&["state", "root", "projectId", "generation", "fileCount", "symbolCount"], json!({
                "state": { "enum": ["Indexing", "Refreshing", "Ready"] },
                "root": string(), "projectId": string(), "generation": integer(),
                "fileCount": integer(), "symbolCount": integer(),
            })),
            "capabilities": array_of(string()),
            "errors": array_of(json!({ "type": "object" })),
            "warnings": array_of(json!({ "type": "object" })),
        }),
    )
}

/// `outline`: declarations with their children.
pub fn outline() -> Value {
    let declaration = object(
        &["name", "line", "endLine"],
        json!({
            "name": string(), "line": integer(), "endLine": integer(),
            "signature": nullable_string(), "chunkId": string(),
            "children": array_of(json!({ "type": "object" })),
        }),
    );
    object(
        &["filePath", "language", "outline"],
        json!({
            "filePath": string(), "language": string(),
            "outline": array_of(declaration),
            "notes": array_of(string()),
            "truncated": boolean(),
        }),
    )
}

/// `search_symbols`.
pub fn search() -> Value {
    object(
        &["symbols", "total", "hasMore", "offset", "returned"],
        json!({
            "symbols": array_of(object(&["name", "kind", "filePath", "line", "endLine", "chunkId"], json!({
                "name": string(), "kind": string(), "filePath": string(),
                "line": integer(), "endLine": integer(), "chunkId": string(),
                "containerName": nullable_string(), "signature": nullable_string(),
            }))),
            "total": integer(), "hasMore": boolean(), "offset": integer(), "returned": integer(),
        }),
    )
}

/// `get_diagnostics`.
pub fn diagnostics() -> Value {
    object(
        &["diagnostics", "summary"],
        json!({
            "diagnostics": array_of(object(&["file_path", "range", "severity", "message"], json!({
                "file_path": string(), "range": range(), "severity": string(),
                "message": string(), "code": nullable_string(),
            }))),
            "summary": object(&["total", "files_checked", "has_more"], json!({
                "total": integer(), "files_checked": integer(), "has_more": boolean(),
            })),
            "unanalyzed_files": array_of(json!({})),
        }),
    )
}

/// `find_definition`.
pub fn definition() -> Value {
    object(
        &["definitions", "resolution", "total"],
        json!({
            "definitions": array_of(resolved_declaration()),
            "resolution": resolution(),
            "total": integer(),
            "truncated": boolean(),
            "query": { "type": "object" },
        }),
    )
}

/// `find_references`: the declaration first (when asked), then the sites.
pub fn references() -> Value {
    let item = object(
        &["file_path", "kind", "resolution", "confidence"],
        json!({
            "file_path": string(), "kind": string(),
            "resolution": resolution(), "confidence": confidence(),
            "range": range(), "name_range": range(),
            "enclosing": nullable_string(), "line_text": string(),
        }),
    );
    let mut completeness = completeness();
    completeness["required"] = json!(["complete", "resolved", "name_only", "possibly_missed"]);
    completeness["properties"]["resolved"] = integer();
    completeness["properties"]["name_only"] = integer();
    completeness["properties"]["possibly_missed"] = integer();
    completeness["properties"]["possibly_missed_sites"] = array_of(site());
    object(
        &["symbol", "references", "pagination", "completeness"],
        json!({
            "symbol": object(&["name", "kind", "file_path"], json!({})),
            "references": array_of(item),
            "pagination": pagination(),
            "completeness": completeness,
        }),
    )
}

/// `find_implementations`.
pub fn implementations() -> Value {
    let mut implementation = resolved_declaration();
    implementation["required"] = json!([
        "name",
        "kind",
        "file_path",
        "range",
        "name_range",
        "relation",
        "depth"
    ]);
    implementation["properties"]["relation"] = json!({ "enum": ["IMPLEMENTS", "EXTENDS"] });
    implementation["properties"]["depth"] = integer();
    implementation["properties"]["site"] = site();
    object(
        &["symbol", "implementations", "pagination", "completeness"],
        json!({
            "symbol": symbol_view(),
            "implementations": array_of(implementation),
            "pagination": pagination(),
            "completeness": completeness(),
        }),
    )
}

/// `find_type_definition`.
pub fn type_definition() -> Value {
    let mut found = resolved_declaration();
    found["properties"]["written_as"] = nullable_string();
    object(
        &["symbol", "type_definitions"],
        json!({
            "symbol": object(&["name", "kind", "file_path"], json!({})),
            "type_definitions": array_of(found),
            "unresolved_types": array_of(json!({})),
        }),
    )
}

/// `get_symbol_info`.
pub fn symbol_info() -> Value {
    let mut info = symbol_view();
    for key in ["references", "callers", "callees", "implementations"] {
        info["properties"][key] = counts();
    }
    info["properties"]["members"] = array_of(object(
        &["name", "kind", "line"],
        json!({ "name": string(), "kind": string(), "line": integer() }),
    ));
    info["properties"]["members_total"] = integer();
    info["properties"]["doc"] = nullable_string();
    info["properties"]["visibility"] = nullable_string();
    info
}

/// `get_call_hierarchy`: calls nest by level.
pub fn call_hierarchy() -> Value {
    let call = object(
        &["resolution", "confidence", "call_sites"],
        json!({
            "resolution": resolution(), "confidence": confidence(),
            "call_sites": array_of(object(&["file_path", "range"], json!({
                "file_path": string(), "range": range(),
            }))),
            "from": { "type": "object" }, "to": { "type": "object" },
            "incoming": array_of(json!({ "type": "object" })),
            "outgoing": array_of(json!({ "type": "object" })),
        }),
    );
    object(
        &["item", "direction", "depth"],
        json!({
            "item": symbol_view(),
            "direction": { "enum": ["incoming", "outgoing", "both"] },
            "depth": integer(),
            "incoming": array_of(call.clone()),
            "outgoing": array_of(call),
            "incoming_completeness": completeness(),
            "outgoing_completeness": completeness(),
        }),
    )
}

/// `node_at`: 1-based lines, 0-based columns.
pub fn node_at() -> Value {
    object(
        &["filePath", "node", "ancestors"],
        json!({
            "filePath": string(),
            "node": object(&["type", "startLine", "startColumn", "endLine", "endColumn"], json!({
                "type": string(), "startLine": integer(), "startColumn": integer(),
                "endLine": integer(), "endColumn": integer(), "content": string(),
            })),
            "ancestors": array_of(object(&["type", "startLine", "endLine"], json!({
                "type": string(), "startLine": integer(), "endLine": integer(),
            }))),
            "symbol": { "type": ["object", "null"] },
        }),
    )
}

/// `node_source`.
pub fn node_source() -> Value {
    object(
        &["filePath", "lineStart", "lineEnd", "source"],
        json!({
            "filePath": string(), "lineStart": integer(), "lineEnd": integer(),
            "source": string(), "collapsed": boolean(), "chunkId": string(),
        }),
    )
}

/// A refactoring plan (typemill-api.md PlanBase), or, once applied, the
/// apply response with its receipt (and the plan it applied).
pub fn plan_or_applied() -> Value {
    let warning = object(
        &["code", "message"],
        json!({ "code": string(), "message": string(), "sites": array_of(string()) }),
    );
    let plan = object(
        &[
            "plan_type",
            "plan_version",
            "edits",
            "summary",
            "metadata",
            "file_checksums",
        ],
        json!({
            "plan_type": string(),
            "plan_version": string(),
            "edits": object(&["documentChanges"], json!({ "documentChanges": array_of(json!({ "type": "object" })) })),
            "summary": object(&["affected_files", "created_files", "deleted_files"], json!({
                "affected_files": integer(), "created_files": integer(), "deleted_files": integer(), "text_edits": integer(),
            })),
            "warnings": array_of(warning.clone()),
            "metadata": object(&["kind", "language", "estimated_impact", "created_at"], json!({
                "kind": string(), "language": string(),
                "estimated_impact": { "enum": ["low", "medium", "high"] },
                "created_at": string(), "generation": integer(),
            })),
            "file_checksums": { "type": "object", "additionalProperties": string() },
            "dryRun": boolean(),
        }),
    );
    let applied = object(
        &[
            "success",
            "applied_files",
            "created_files",
            "deleted_files",
            "rollback_available",
            "snapshot_id",
            "receipt",
        ],
        json!({
            "success": { "const": true },
            "applied_files": array_of(string()),
            "created_files": array_of(string()),
            "deleted_files": array_of(string()),
            "warnings": array_of(warning),
            "rollback_available": boolean(),
            "snapshot_id": string(),
            "receipt": object(&["generation", "files_changed", "files"], json!({
                "generation": integer(),
                "files_changed": integer(),
                "files": array_of(object(&["path", "syntax_errors_before"], json!({
                    "path": string(), "syntax_errors_before": integer(),
                    "syntax_errors_after": { "type": ["integer", "null"], "minimum": 0 },
                }))),
            })),
            "metadata": { "type": "object" },
        }),
    );
    json!({ "anyOf": [plan, applied] })
}

/// What `rollback` answers.
pub fn rolled_back() -> Value {
    object(
        &[
            "success",
            "rolled_back",
            "restored_files",
            "recreated_files",
            "deleted_files",
            "snapshot_id",
            "generation",
        ],
        json!({
            "success": { "const": true },
            "rolled_back": string(),
            "restored_files": array_of(string()),
            "recreated_files": array_of(string()),
            "deleted_files": array_of(string()),
            "snapshot_id": string(),
            "generation": integer(),
        }),
    )
}
