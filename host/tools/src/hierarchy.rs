//! `get_call_hierarchy`: an adapter over [`Analysis::call_hierarchy`].

use serde_json::{Value, json};

use super::target::{self, to_json};
use super::{Args, Tool, ToolContext, output, text};
use crate::error::ToolError;
use lingo_analysis::{Analysis, CallDirection};

const MAX_DEPTH: u64 = lingo_analysis::MAX_CALL_DEPTH as u64;

pub fn tool() -> Tool {
    let mut properties = target::properties();
    properties.insert(
        "direction".into(),
        json!({ "type": "string", "enum": ["incoming", "outgoing", "both"], "description": "Callers, callees or both (default both)" }),
    );
    properties.insert(
        "depth".into(),
        json!({ "type": "integer", "minimum": 1, "maximum": MAX_DEPTH, "description": "Levels of callers/callees to follow (default 1)" }),
    );
    Tool {
        name: "get_call_hierarchy",
        aliases: &["getCallHierarchy", "call_hierarchy"],
        description: "Incoming calls (callers, with the call sites) and outgoing calls (callees) of a function or method, to a depth of up to 5 levels. Name it by position or by `symbol` (+ `path`). Every call says how it was resolved; `completeness` reports name-only guesses and calls that could not be resolved.",
        input_schema: json!({
            "type": "object",
            "properties": properties,
            "additionalProperties": false
        }),
        handler: run,
        text: text::call_hierarchy,
        output_schema: output::call_hierarchy(),
    }
}

fn run(context: &ToolContext, args: &Args) -> Result<Value, ToolError> {
    let direction = match args.str("direction")?.unwrap_or("both") {
        "incoming" => CallDirection::Incoming,
        "outgoing" => CallDirection::Outgoing,
        "both" => CallDirection::Both,
        other => {
            return Err(ToolError::InvalidParam {
                field: "direction".into(),
                reason: format!("`{other}` is not one of incoming, outgoing, both"),
                suggestions: lingo_model::suggest::similar(
                    other,
                    ["incoming", "outgoing", "both"],
                    1,
                ),
            });
        }
    };
    let depth = args.uint("depth", MAX_DEPTH)?.unwrap_or(1) as usize;
    let target = target::target(args)?;
    let analysis = Analysis::fresh(&context.workspace)?;
    to_json(&analysis.call_hierarchy(&target, direction, depth)?)
}
