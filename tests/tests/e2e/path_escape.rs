//! Path escapes against a hosted project, over HTTP: `..`, absolute paths,
//! encoded and Windows separators, NUL bytes, links inside the root to a
//! file and to a folder outside it, and an indexed file swapped for such
//! a link after indexing. No answer ever carries a byte from outside.

#![cfg(unix)]

use std::time::{Duration, Instant};

use lingo_e2e::Scratch;
use lingo_e2e::hosted::HostedServer;
use serde_json::{Value, json};

const TOKEN: &str = "secret-escape-0123456789";
/// The name of the function only the file outside the root declares.
const SECRET: &str = "top_secret_outside";
/// Text only the file outside the root holds (no request carries it).
const MARKER: &str = "OUTSIDE-MARKER-4217";

/// Whether `answer` to `arguments` holds anything from outside the root:
/// the marker, or the function's name where the request did not say it.
fn leaks(answer: &str, arguments: &Value) -> bool {
    answer.contains(MARKER) || (!arguments.to_string().contains(SECRET) && answer.contains(SECRET))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nothing_outside_the_root_is_ever_returned() {
    let dir = Scratch::new("path-escape");
    let app = dir.path().join("app");
    dir.write(
        "app/src/lib.rs",
        "pub fn inside() -> u32 {\n    1\n}\n\npub fn caller() -> u32 {\n    inside()\n}\n",
    );
    dir.write("app/src/swapped.rs", "pub fn swapped_inside() {}\n");
    let secret = dir.write(
        "outside/secret.rs",
        format!("pub fn {SECRET}() -> &'static str {{\n    \"{MARKER}\"\n}}\n"),
    );
    std::os::unix::fs::symlink(&secret, app.join("src/link_file.rs")).unwrap();
    std::os::unix::fs::symlink(dir.path().join("outside"), app.join("linked_dir")).unwrap();
    let outside = dir.path().join("outside");
    let tokens = format!("[[token]]\nname = \"t\"\nsecret = \"{TOKEN}\"\nprojects = [\"app\"]\n");
    let server = HostedServer::start_in(
        dir,
        "[[project]]\nid = \"app\"\nroot = \"app\"\n",
        Some(&tokens),
        &[],
    )
    .await
    .expect("server starts");
    let client = server.connect(Some(TOKEN)).await.expect("session");
    let started = Instant::now();
    loop {
        let outline = client
            .call(
                "outline",
                json!({ "projectId": "app", "path": "src/swapped.rs" }),
            )
            .await
            .expect("answer");
        if format!("{:?}", outline.structured_content).contains("swapped_inside") {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(60), "never indexed");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    // After indexing, an indexed file becomes a link out of the root.
    let swapped = app.join("src/swapped.rs");
    std::fs::remove_file(&swapped).unwrap();
    std::os::unix::fs::symlink(&secret, &swapped).unwrap();
    tokio::time::sleep(Duration::from_millis(500)).await;

    let absolute = secret.display().to_string();
    let escapes: Vec<String> = vec![
        "../outside/secret.rs".into(),
        "src/../../outside/secret.rs".into(),
        "./../outside/secret.rs".into(),
        absolute.clone(),
        format!("{}/../outside/secret.rs", app.display()),
        outside.display().to_string(),
        "%2e%2e/outside/secret.rs".into(),
        "..%2Foutside%2Fsecret.rs".into(),
        "src%2F..%2F..%2Foutside%2Fsecret.rs".into(),
        "..\\outside\\secret.rs".into(),
        "src\\..\\..\\outside\\secret.rs".into(),
        "src/lib.rs\u{0}../../outside/secret.rs".into(),
        "\u{0}".into(),
        "src/link_file.rs".into(),
        "linked_dir/secret.rs".into(),
        "linked_dir".into(),
        "src/swapped.rs".into(),
        "//etc/passwd".into(),
        "/etc/passwd".into(),
        "~/../../etc/passwd".into(),
    ];
    let mut codes = Vec::new();
    for path in &escapes {
        let calls = [
            ("outline", json!({ "path": path })),
            ("node_source", json!({ "path": path, "symbol": SECRET })),
            ("node_at", json!({ "path": path, "line": 0, "column": 8 })),
            ("get_diagnostics", json!({ "path": path })),
            (
                "find_definition",
                json!({ "path": path, "line": 0, "character": 8 }),
            ),
            (
                "find_references",
                json!({ "path": path, "line": 0, "character": 8 }),
            ),
            (
                "search_symbols",
                json!({ "query": "top_secret", "path": path }),
            ),
            (
                "analyze_complexity",
                json!({ "project_path": path, "toolchain": "rust" }),
            ),
            (
                "rename",
                json!({ "path": path, "line": 0, "character": 8, "newName": "renamed" }),
            ),
        ];
        for (tool, mut arguments) in calls {
            arguments["projectId"] = json!("app");
            let answer = client.call(tool, arguments.clone()).await;
            let seen = format!("{answer:?}");
            assert!(
                !leaks(&seen, &arguments) && !seen.contains("root:x:0"),
                "{tool} {arguments} returned bytes from outside the root: {seen}"
            );
            if let Ok(result) = answer
                && result.is_error == Some(true)
            {
                let code = result.structured_content.unwrap_or_default()["error"]["code"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string();
                codes.push((path.clone(), tool, code));
            }
        }
    }
    // Leaving the root is named as such; only names that stay inside it
    // (an encoded `..` is a folder name) are "not found".
    for (path, tool, code) in &codes {
        let stays_inside = path.contains('%') || path.contains('\\') || path.starts_with('~');
        let expected: &[&str] = if path.contains('\0') {
            &["INVALID_PARAM", "PATH_OUTSIDE_BOUNDARY"]
        } else if stays_inside {
            &["FILE_NOT_FOUND", "PATH_OUTSIDE_BOUNDARY", "INVALID_PARAM"]
        } else {
            &["PATH_OUTSIDE_BOUNDARY"]
        };
        assert!(
            expected.contains(&code.as_str()),
            "{tool} `{}`: {code}, expected one of {expected:?}",
            path.escape_debug()
        );
    }
    for path in [
        "src/link_file.rs",
        "linked_dir/secret.rs",
        "src/swapped.rs",
        "../outside/secret.rs",
    ] {
        assert!(
            codes
                .iter()
                .any(|(p, t, c)| p == path && *t == "outline" && c == "PATH_OUTSIDE_BOUNDARY"),
            "outline `{path}` is refused as outside the boundary: {codes:?}"
        );
    }

    // Workspace-wide answers hold nothing from outside either.
    for (tool, arguments) in [
        ("search_symbols", json!({ "query": "top_secret" })),
        ("find_references", json!({ "symbol": SECRET })),
        ("get_symbol_info", json!({ "symbol": SECRET })),
        ("get_diagnostics", json!({})),
        ("analyze_dead_code", json!({})),
        (
            "analyze_complexity",
            json!({ "project_path": ".", "toolchain": "rust" }),
        ),
    ] {
        let mut arguments: Value = arguments;
        arguments["projectId"] = json!("app");
        let answer = client.call(tool, arguments.clone()).await;
        let seen = format!("{answer:?}");
        assert!(
            !leaks(&seen, &arguments),
            "{tool} {arguments} returned bytes from outside the root: {seen}"
        );
    }
    // The project's own code is still served.
    let inside = client
        .call(
            "outline",
            json!({ "projectId": "app", "path": "src/lib.rs" }),
        )
        .await
        .expect("answer");
    assert!(format!("{:?}", inside.structured_content).contains("caller"));
    server.stop().await;
}
