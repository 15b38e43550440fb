//! lingo: a code-intelligence MCP server whose languages are sandboxed
//! WebAssembly components. See ARCHITECTURE.md for the code map.

pub mod analysis;
pub mod analyze;
pub mod budget;
pub mod conformance;
pub mod error;
pub mod graph;
pub mod history;
pub mod mcp;
pub mod model;
pub mod name;
pub mod plugin_kit;
pub mod projects;
pub mod refactor;
pub mod resolve;
pub mod runtime;
pub mod sync;
pub mod tools;
pub mod validate;
pub mod workspace;
