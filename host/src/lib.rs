//! lingo: a code-intelligence MCP server whose languages are sandboxed
//! WebAssembly components. This package is the `lingo` binary
//! (`src/main.rs`); the library re-exports the layer crates under their
//! module names so that the integration tests (`tests/it`) and the benches
//! have one root to import from. ARCHITECTURE.md has the code map.

pub use lingo_analysis as analysis;
pub use lingo_analyze as analyze;
pub use lingo_analyze::history;
pub use lingo_index as workspace;
pub use lingo_mcp as mcp;
pub use lingo_mcp::projects;
pub use lingo_model as model;
pub use lingo_model::{budget, name, suggest, sync, validate};
pub use lingo_plugin_kit as plugin_kit;
pub use lingo_plugin_kit::conformance;
pub use lingo_refactor as refactor;
pub use lingo_resolve as resolve;
pub use lingo_resolve::graph;
pub use lingo_runtime as runtime;
pub use lingo_tools as tools;
pub use lingo_tools::error;
