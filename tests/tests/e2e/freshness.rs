//! Freshness: what changed on disk is what the next answer shows, even when
//! an edit leaves the file's size and modification time as they were (the
//! watcher reported the path, so it is re-read and re-hashed).

use std::time::{Duration, Instant};

use lingo_e2e::{McpServer, Scratch};
use serde_json::json;

/// The names in the outline of `path`.
async fn outline_names(server: &McpServer, path: &str) -> Vec<String> {
    let outline = server.call("outline", json!({ "path": path })).await.ok();
    outline["outline"]
        .as_array()
        .map(|nodes| {
            nodes
                .iter()
                .filter_map(|n| n["name"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

#[tokio::test]
async fn a_same_size_edit_with_the_mtime_restored_is_seen() {
    let scratch = Scratch::new("same-size-edit");
    let file = scratch.write("ws/src/lib.rs", "pub fn alpha() {}\n");
    let root = scratch.path().join("ws");
    let server = McpServer::start(&root, &[]).await.expect("start lingo");
    assert_eq!(outline_names(&server, "src/lib.rs").await, ["alpha"]);

    // Same length, same modification time: only the bytes differ.
    let modified = std::fs::metadata(&file).unwrap().modified().unwrap();
    std::fs::write(&file, "pub fn gamma() {}\n").unwrap();
    let handle = std::fs::OpenOptions::new().write(true).open(&file).unwrap();
    handle.set_modified(modified).unwrap();
    drop(handle);
    assert_eq!(
        std::fs::metadata(&file).unwrap().modified().unwrap(),
        modified
    );

    // The watcher's notice arrives asynchronously; the answer must follow it
    // within moments, never keep the old facts.
    let started = Instant::now();
    let mut names = outline_names(&server, "src/lib.rs").await;
    while names != ["gamma"] && started.elapsed() < Duration::from_secs(5) {
        tokio::time::sleep(Duration::from_millis(50)).await;
        names = outline_names(&server, "src/lib.rs").await;
    }
    assert_eq!(
        names,
        ["gamma"],
        "the edit was not seen within {:?}\n{}",
        started.elapsed(),
        server.log()
    );
    server.stop().await;
}

/// An indexed file replaced by a symbolic link to a file outside the root
/// (what a checkout can do), and a linked folder out: no answer reads
/// through them.
#[cfg(unix)]
#[tokio::test]
async fn a_file_replaced_by_a_link_out_of_the_root_is_never_read_through() {
    let scratch = Scratch::new("link-out");
    let file = scratch.write("ws/src/lib.rs", "pub fn alpha() {}\n");
    let secret = scratch.write("outside/secret.rs", "pub fn leaked_secret() {}\n");
    std::os::unix::fs::symlink(
        scratch.path().join("outside"),
        scratch.path().join("ws/linked"),
    )
    .unwrap();
    let root = scratch.path().join("ws");
    let server = McpServer::start(&root, &[]).await.expect("start lingo");
    assert_eq!(outline_names(&server, "src/lib.rs").await, ["alpha"]);

    std::fs::remove_file(&file).unwrap();
    std::os::unix::fs::symlink(&secret, &file).unwrap();
    // The watcher's notice is asynchronous: wait until alpha is gone.
    let started = Instant::now();
    loop {
        let outline = server
            .call("outline", json!({ "path": "src/lib.rs" }))
            .await;
        let gone = outline.is_error || !outline.text.contains("alpha");
        if gone || started.elapsed() > Duration::from_secs(5) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    for (tool, arguments) in [
        ("outline", json!({ "path": "src/lib.rs" })),
        (
            "node_source",
            json!({ "path": "src/lib.rs", "symbol": "leaked_secret" }),
        ),
        ("search_symbols", json!({ "query": "leaked_secret" })),
        ("find_references", json!({ "symbol": "leaked_secret" })),
        ("get_symbol_info", json!({ "symbol": "leaked_secret" })),
        ("get_diagnostics", json!({})),
        ("outline", json!({ "path": "linked/secret.rs" })),
    ] {
        let answer = server.call(tool, arguments.clone()).await;
        let text = format!("{} {}", answer.value, answer.text);
        assert!(
            !text.contains("leaked_secret()"),
            "{tool} {arguments} read outside the root: {text}"
        );
    }
    let search = server
        .call("search_symbols", json!({ "query": "leaked_secret" }))
        .await
        .ok();
    assert_eq!(search["total"], json!(0), "{search:#}");
    server.stop().await;
}
