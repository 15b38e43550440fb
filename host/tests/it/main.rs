//! The host's integration tests, one binary: each module tests one part
//! through the public API, with the built-in plugins loaded once.

mod common;

mod abi_versions;
mod analysis;
mod build_features;
mod code_map;
mod conformance;
mod csharp_real_code;
mod freshness;
mod fuzz_plugins;
mod fuzz_tool_arguments;
mod go_real_code;
mod graph_overlay;
mod graph_persist;
mod java_real_code;
mod language_knowledge;
mod macros;
mod name_table_limit;
mod python_real_code;
mod queries_compile;
mod real_code;
mod runtime_limits;
mod rust_plugin;
mod tiered_compilation;
mod typescript_plugin;
mod typescript_real_code;
