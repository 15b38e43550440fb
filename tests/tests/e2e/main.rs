//! End-to-end tests, one binary: a real MCP client (the official Rust SDK;
//! the TypeScript and Python SDKs and the Inspector CLI) drives the built
//! `lingo` binary.

mod analyses;
mod client_bounds;
mod code_health;
mod conformance_suite;
mod declared_types;
mod faults;
mod freshness;
mod hosted;
mod hostile_facts;
mod incremental;
mod inspector;
mod mcp_client;
mod navigation;
mod path_escape;
mod plugin_kit;
mod protocol;
mod refactor;
mod resolution_rules;
mod sandbox;
mod sdk_clients;
mod tool_answers;
mod tool_coverage;
mod toolsets;
mod torture;

/// The harness drives the binary cargo built for this test target, not some
/// other build of it.
#[test]
fn the_harness_drives_the_binary_cargo_built_for_these_tests() {
    if std::env::var_os("LINGO_BIN").is_some() {
        return;
    }
    let built = std::path::Path::new(env!("CARGO_BIN_EXE_lingo"));
    assert_eq!(
        lingo_e2e::lingo_bin().canonicalize().unwrap(),
        built.canonicalize().unwrap()
    );
}
