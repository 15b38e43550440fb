//! The hosted mode's own tools: `list_projects`, `create_project` and
//! `remove_project`, answered from the registry rather than a workspace.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::access::Grant;
use super::{ProjectRegistry, ProjectView};
use lingo_tools::error::ToolError;
use lingo_tools::{Group, ToolArgs};

/// Names of the project tools.
pub const NAMES: &[&str] = &["list_projects", "create_project", "remove_project"];

/// Most include paths a run-time project may have.
pub const MAX_INCLUDE: usize = 64;

#[derive(Deserialize, JsonSchema)]
struct ListArgs {}

impl Group for ListArgs {}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct CreateArgs {
    /// The new project's id: ASCII letters, digits, `-`, `_`, `.` (at most 64)
    project_id: String,
    /// The project's root folder on the server, inside one of its `project_roots`
    root: String,
    /// Folders under the root to serve (default: all of it)
    #[serde(default)]
    #[schemars(length(max = MAX_INCLUDE))]
    include: Vec<String>,
}

impl Group for CreateArgs {}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct RemoveArgs {
    /// The project to stop serving
    project_id: String,
}

impl Group for RemoveArgs {}

/// The input schema of project tool `name`, derived from its arguments.
fn schema(name: &str) -> Value {
    let mut schema = match name {
        "list_projects" => ListArgs::schema(),
        "create_project" => CreateArgs::schema(),
        _ => RemoveArgs::schema(),
    };
    schema["additionalProperties"] = Value::Bool(false);
    schema
}

/// `list_projects`' answer.
#[derive(Serialize, JsonSchema)]
struct Listed {
    projects: Vec<ProjectView>,
}

/// `create_project`'s answer.
#[derive(Serialize, JsonSchema)]
struct Created {
    created: ProjectView,
}

/// `remove_project`'s answer: the project's id.
#[derive(Serialize, JsonSchema)]
struct Removed {
    removed: String,
}

/// What `structuredContent` holds (MCP `outputSchema`), a refusal aside,
/// derived from the answers.
pub fn output_schema(name: &str) -> Value {
    use lingo_tools::output::{answer_or_refusal, schema_of};
    answer_or_refusal(match name {
        "list_projects" => schema_of::<Listed>(),
        "create_project" => schema_of::<Created>(),
        _ => schema_of::<Removed>(),
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
    Some(match name {
        "list_projects" => ListArgs::parse(arguments, &schema, &[]).and_then(|_| {
            let projects = registry
                .projects_for(grant)
                .iter()
                .map(|p| p.describe())
                .collect();
            to_json(&Listed { projects })
        }),
        "create_project" => CreateArgs::parse(arguments, &schema, &[]).and_then(|args| {
            let project = registry.create(&args.project_id, &args.root, args.include, grant)?;
            to_json(&Created {
                created: project.describe(),
            })
        }),
        _ => RemoveArgs::parse(arguments, &schema, &[]).and_then(|args| {
            let project = registry.remove(&args.project_id, grant)?;
            to_json(&Removed {
                removed: project.id.to_string(),
            })
        }),
    })
}

/// An answer as JSON, at the boundary.
fn to_json(answer: &impl Serialize) -> Result<Value, ToolError> {
    serde_json::to_value(answer).map_err(|e| ToolError::Internal(format!("serializing: {e}")))
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
