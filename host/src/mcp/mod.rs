//! mcp
