//! The hosted mode's own tools: `list_projects`, `create_project` and
//! `remove_project`, answered from the registry rather than a workspace.

use serde_json::{Value, json};

use super::ProjectRegistry;
use super::access::Grant;
use lingo_tools::Args;
use lingo_tools::error::ToolError;

/// Names of the project tools.
pub const NAMES: &[&str] = &["list_projects", "create_project", "remove_project"];

/// Most include paths a run-time project may have.
pub const MAX_INCLUDE: usize = 64;

fn schema(name: &str) -> Value {
    match name {
        "list_projects" => json!({
            "type": "object",
            "properties": {},
            "additionalProperties": false,
        }),
        "create_project" => json!({
            "type": "object",
            "properties": {
                "projectId": { "type": "string", "description": "The new project's id: ASCII letters, digits, `-`, `_`, `.` (at most 64)" },
                "root": { "type": "string", "description": "The project's root folder on the server, inside one of its `project_roots`" },
                "include": { "type": "array", "items": { "type": "string" }, "description": "Folders under the root to serve (default: all of it)" },
            },
            "required": ["projectId", "root"],
            "additionalProperties": false,
        }),
        _ => json!({
            "type": "object",
            "properties": {
                "projectId": { "type": "string", "description": "The project to stop serving" },
            },
            "required": ["projectId"],
            "additionalProperties": false,
        }),
    }
}

/// What `structuredContent` holds (MCP `outputSchema`), a refusal aside.
pub fn output_schema(name: &str) -> Value {
    use lingo_tools::output::{answer_or_refusal, array_of, integer, object, string};
    let project = object(
        &[
            "projectId",
            "root",
            "include",
            "fileCount",
            "symbolCount",
            "limits",
        ],
        json!({
            "projectId": string(),
            "root": string(),
            "include": array_of(string()),
            "fileCount": integer(),
            "symbolCount": integer(),
            "limits": object(
                &["requestsPerSecond", "burst", "maxConcurrent", "maxResponseBytes", "requestTimeoutMs"],
                json!({
                    "requestsPerSecond": integer(),
                    "burst": integer(),
                    "maxConcurrent": integer(),
                    "maxResponseBytes": integer(),
                    "requestTimeoutMs": integer(),
                }),
            ),
        }),
    );
    answer_or_refusal(match name {
        "list_projects" => object(&["projects"], json!({ "projects": array_of(project) })),
        "create_project" => object(&["created"], json!({ "created": project })),
        _ => object(&["removed"], json!({ "removed": string() })),
    })
}

/// The `tools/list` entries of the project tools.
pub fn list() -> Vec<Value> {
    let describe = |name: &str| match name {
        "list_projects" => {
            "List the projects this token may use: id, root, include paths, size of the index and limits."
        }
        "create_project" => {
            "Serve a new project (tokens allowed to administer): its root must lie in one of the server's project roots. It is indexed in the background."
        }
        _ => {
            "Stop serving a project (tokens allowed to administer); calls in flight finish first. Its files and index database are left on disk."
        }
    };
    NAMES
        .iter()
        .map(|name| {
            let writes = *name != "list_projects";
            json!({
                "name": name,
                "description": describe(name),
                "inputSchema": schema(name),
                "outputSchema": output_schema(name),
                "annotations": {
                    "readOnlyHint": !writes,
                    "destructiveHint": writes,
                    "idempotentHint": !writes,
                    "openWorldHint": false,
                },
            })
        })
        .collect()
}

/// Run project tool `name`, or `None` when it is not one.
pub fn call(
    name: &str,
    registry: &ProjectRegistry,
    arguments: &Value,
    grant: &Grant,
) -> Option<Result<Value, ToolError>> {
    if !NAMES.contains(&name) {
        return None;
    }
    let schema = schema(name);
    Some(Args::new(arguments, &schema).and_then(|args| match name {
        "list_projects" => {
            let projects: Vec<Value> = registry
                .projects_for(grant)
                .iter()
                .map(|p| p.describe())
                .collect();
            Ok(json!({ "projects": projects }))
        }
        "create_project" => {
            let id = args.str("projectId")?.unwrap_or_default();
            let root = args.str("root")?.unwrap_or_default();
            let include = include_paths(arguments)?;
            let project = registry.create(id, root, include, grant)?;
            Ok(json!({ "created": project.describe() }))
        }
        _ => {
            let id = args.str("projectId")?.unwrap_or_default();
            let project = registry.remove(id, grant)?;
            Ok(json!({ "removed": project.id }))
        }
    }))
}

/// `include`, each a relative folder under the root.
fn include_paths(arguments: &Value) -> Result<Vec<String>, ToolError> {
    let Some(list) = arguments.get("include") else {
        return Ok(Vec::new());
    };
    let items = list
        .as_array()
        .ok_or_else(|| ToolError::invalid("include", "expected an array of folder paths"))?;
    if items.len() > MAX_INCLUDE {
        return Err(ToolError::invalid(
            "include",
            format!("at most {MAX_INCLUDE} folders"),
        ));
    }
    items
        .iter()
        .map(|item| {
            item.as_str()
                .map(str::to_string)
                .ok_or_else(|| ToolError::invalid("include", "each entry must be a string"))
        })
        .collect()
}

/// The compact text of a project tool's answer.
pub fn render(value: &Value) -> String {
    if let Some(projects) = value["projects"].as_array() {
        let mut out = format!("{} projects\n", projects.len());
        for project in projects {
            out.push_str(&format!(
                "{} {} files:{} symbols:{}\n",
                project["projectId"].as_str().unwrap_or("?"),
                project["root"].as_str().unwrap_or("?"),
                project["fileCount"],
                project["symbolCount"],
            ));
        }
        return out;
    }
    if let Some(created) = value.get("created") {
        return format!(
            "created {} at {} (indexing in the background)\n",
            created["projectId"].as_str().unwrap_or("?"),
            created["root"].as_str().unwrap_or("?")
        );
    }
    if let Some(removed) = value["removed"].as_str() {
        return format!("removed {removed}\n");
    }
    serde_json::to_string_pretty(value).unwrap_or_default()
}
