//! lingo: a code-intelligence MCP server whose languages are sandboxed
//! WebAssembly components. See ARCHITECTURE.md for the code map.

pub mod conformance;
pub mod plugin_kit;

pub use lingo_analysis as analysis;
pub use lingo_analyze as analyze;
pub use lingo_analyze::history;
pub use lingo_index as workspace;
pub use lingo_mcp as mcp;
pub use lingo_mcp::projects;
pub use lingo_model as model;
pub use lingo_model::{budget, name, suggest, sync, validate};
pub use lingo_refactor as refactor;
pub use lingo_resolve as resolve;
pub use lingo_resolve::graph;
pub use lingo_runtime as runtime;
pub use lingo_tools as tools;
pub use lingo_tools::error;
