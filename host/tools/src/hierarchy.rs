//! `get_call_hierarchy`: an adapter over [`Analysis::call_hierarchy`].

use super::target::TargetArgs;
use super::{About, Tool, ToolContext, text};
use crate::args::Group;
use crate::error::ToolError;
use lingo_analysis::{Analysis, CallDirection, CallHierarchy};
use schemars::JsonSchema;
use serde::Deserialize;

const MAX_DEPTH: u32 = lingo_analysis::MAX_CALL_DEPTH as u32;

#[derive(Deserialize, JsonSchema)]
struct HierarchyArgs {
    /// Callers, callees or both (default both)
    direction: Option<Direction>,
    /// Levels of callers/callees to follow (default 1)
    #[schemars(range(min = 1, max = MAX_DEPTH))]
    depth: Option<u32>,
}

impl Group for HierarchyArgs {}

#[derive(Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Direction {
    Incoming,
    Outgoing,
    Both,
}

pub fn tool() -> Tool {
    Tool::new(
        About {
            name: "get_call_hierarchy",
            aliases: &["getCallHierarchy", "call_hierarchy"],
            description: "Call hierarchy: who calls a function or method (callers, with the call sites) and what it calls (callees), up to 5 levels deep, each call with how certain its resolution is.",
            text: text::call_hierarchy,
        },
        run,
    )
}

fn run(
    context: &ToolContext,
    (target, args): (TargetArgs, HierarchyArgs),
) -> Result<CallHierarchy, ToolError> {
    let direction = match args.direction.unwrap_or(Direction::Both) {
        Direction::Incoming => CallDirection::Incoming,
        Direction::Outgoing => CallDirection::Outgoing,
        Direction::Both => CallDirection::Both,
    };
    let depth = args.depth.unwrap_or(1) as usize;
    let target = target.target()?;
    let analysis = Analysis::fresh(&context.workspace)?;
    Ok(analysis.call_hierarchy(&target, direction, depth)?)
}
