//! Sandbox tests: the hostile test plugin loops, allocates without bound and
//! traps; each failure must come back as an error result with the plugin's
//! code, in bounded time, while the server keeps answering. Also: a plugin
//! file that is not a component is refused and reported by `health_check`.

use std::path::PathBuf;

use lingo_e2e::{McpServer, PATIENCE, Scratch, start_hostile};
use serde_json::{Value, json};

/// The hostile files and the error code each must produce.
const HOSTILE: [(&str, &str); 3] = [
    ("a.loop", "PLUGIN_TIMEOUT"),
    ("b.oom", "PLUGIN_OUT_OF_MEMORY"),
    ("c.trap", "PLUGIN_TRAPPED"),
];

const LIB_RS: &str = "/// Adds one.\npub fn increment(x: u32) -> u32 {\n    x + 1\n}\n";

/// A workspace with the hostile files, a calm one and a Rust file.
fn hostile_workspace(scratch: &Scratch) -> PathBuf {
    for (file, _) in HOSTILE {
        scratch.write(
            &format!("ws/{file}"),
            format!("{file}: parsing this misbehaves\n"),
        );
    }
    scratch.write("ws/d.calm", "nothing to see here\n");
    scratch.write("ws/lib.rs", LIB_RS);
    scratch.path().join("ws")
}

/// Everything that must still work after a hostile call.
async fn assert_still_serving(server: &McpServer, after: &str) {
    let health = server.call("health_check", json!({})).await.ok();
    assert_eq!(
        health["components"]["server"]["name"],
        json!("lingo"),
        "after {after}"
    );
    let names: Vec<&str> = health["components"]["plugins"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    // The built-in plugins, then the hostile one given on the command line.
    assert!(
        names.contains(&"rust") && names.last() == Some(&"hostile"),
        "after {after}: {names:?}"
    );

    let rust = server
        .call("outline", json!({ "path": "lib.rs" }))
        .await
        .ok();
    assert_eq!(rust["language"], json!("rust"), "after {after}");
    assert_eq!(
        rust["outline"][0]["name"],
        json!("increment"),
        "after {after}: {rust:#}"
    );
    assert_eq!(rust["outline"][0]["docComment"], json!("Adds one."));

    let calm = server
        .call("outline", json!({ "path": "d.calm" }))
        .await
        .ok();
    assert_eq!(
        calm["language"],
        json!("hostile"),
        "after {after}: {calm:#}"
    );
    assert_eq!(calm["outline"], json!([]), "after {after}");
}

/// Outline `file` and check the error result names the plugin's failure.
async fn assert_hostile_outline(server: &McpServer, file: &str, code: &str) -> Value {
    let error = server.call("outline", json!({ "path": file })).await.err();
    assert_eq!(
        error["code"],
        json!(code),
        "{file}: {error:#}\nserver log:\n{}",
        server.log()
    );
    let message = error["message"].as_str().unwrap();
    assert!(
        message.contains("hostile"),
        "{file}: the message names the plugin: {message}"
    );
    assert!(
        message.contains("restarted"),
        "{file}: the instance is replaced: {message}"
    );
    error
}

#[tokio::test]
async fn hostile_files_fail_with_the_plugins_code_and_the_server_carries_on() {
    let scratch = Scratch::new("hostile");
    let root = hostile_workspace(&scratch);
    let server = start_hostile(&root, &[]).await;

    // Indexed at startup: each failure was recorded with its code.
    for (file, code) in HOSTILE {
        let error = assert_hostile_outline(&server, file, code).await;
        if code == "PLUGIN_TIMEOUT" {
            assert!(
                error["message"].as_str().unwrap().contains("1s"),
                "{error:#}"
            );
            assert!(
                !error["suggestions"].as_array().unwrap().is_empty(),
                "{error:#}"
            );
        }
        if code == "PLUGIN_OUT_OF_MEMORY" {
            assert!(
                error["message"].as_str().unwrap().contains("64 MiB"),
                "{error:#}"
            );
        }
        assert_still_serving(&server, file).await;
    }

    // Changed on disk: analysed again, now inside the tool call itself.
    for (file, code) in HOSTILE {
        let path = root.join(file);
        let mut text = std::fs::read_to_string(&path).unwrap();
        text.push_str("and again\n");
        std::fs::write(&path, text).unwrap();
        assert_hostile_outline(&server, file, code).await;
        assert_still_serving(&server, &format!("{file} (edited)")).await;
    }
    server.stop().await;
}

#[tokio::test]
async fn every_tool_reports_unanalysed_files() {
    let scratch = Scratch::new("hostile-tools");
    let root = hostile_workspace(&scratch);
    let server = start_hostile(&root, &[]).await;

    let health = server.wait_until_indexed(PATIENCE).await;
    // Each file's failure is a warning; the only error may be the plugin
    // itself, reported unhealthy after failing recently.
    let errors = health["errors"].as_array().unwrap();
    assert!(
        errors.iter().all(|e| e["code"] == json!("PLUGIN_UNHEALTHY")
            && e["message"]
                .as_str()
                .unwrap_or_default()
                .contains("hostile")),
        "plugin failures on files are warnings: {health:#}"
    );
    assert_eq!(health["healthy"], json!(errors.is_empty()), "{health:#}");
    let mut warned: Vec<(String, String)> = health["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|w| w["code"] == json!("FILE_NOT_ANALYZED"))
        .map(|w| {
            let cause = w
                .get("cause")
                .and_then(Value::as_str)
                .unwrap_or("<no cause>");
            (w["path"].as_str().unwrap().to_string(), cause.to_string())
        })
        .collect();
    warned.sort();
    let expected: Vec<(String, String)> = HOSTILE
        .iter()
        .map(|(f, c)| (f.to_string(), c.to_string()))
        .collect();
    assert_eq!(warned, expected, "{health:#}");
    assert_eq!(health["workspace"]["fileCount"], json!(5));

    // An unhealthy plugin's line says how it last failed.
    let hostile = health["components"]["plugins"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == json!("hostile"))
        .cloned()
        .unwrap_or_else(|| panic!("no hostile plugin: {health:#}"));
    if hostile["health"]["healthy"] == json!(false) {
        let text = server.call("health_check", json!({})).await.text;
        let line = text
            .lines()
            .find(|l| l.starts_with("plugin hostile"))
            .unwrap_or_else(|| panic!("{text}"));
        assert!(line.contains("UNHEALTHY; last error"), "{line}");
    }

    let diagnostics = server.call("get_diagnostics", json!({})).await.ok();
    let mut unanalysed: Vec<(String, String)> = diagnostics["unanalyzed_files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| {
            let code = u.get("code").and_then(Value::as_str).unwrap_or("<no code>");
            (
                u["file_path"].as_str().unwrap().to_string(),
                code.to_string(),
            )
        })
        .collect();
    unanalysed.sort();
    assert_eq!(unanalysed, expected, "{diagnostics:#}");
    assert_eq!(
        diagnostics["summary"]["files_checked"],
        json!(2),
        "lib.rs and d.calm"
    );

    let single = server
        .call("get_diagnostics", json!({ "path": "c.trap" }))
        .await
        .ok();
    assert_eq!(single["diagnostics"], json!([]));
    assert_eq!(single["unanalyzed_files"][0]["file_path"], json!("c.trap"));

    let position = json!({ "path": "a.loop", "line": 0, "character": 0 });
    let error = server.call("find_definition", position).await.err();
    assert_eq!(error["code"], json!("PLUGIN_TIMEOUT"), "{error:#}");

    let search = server
        .call("search_symbols", json!({ "query": "increment" }))
        .await
        .ok();
    assert_eq!(search["total"], json!(1), "{search:#}");
    assert_eq!(search["symbols"][0]["filePath"], json!("lib.rs"));
    server.stop().await;
}

#[tokio::test]
async fn files_that_are_not_components_are_refused_as_plugins() {
    let scratch = Scratch::new("invalid-plugin");
    let text = scratch.write("plugins/x.wasm", "this is a text file, not a component\n");
    let core = scratch.write("plugins/core.wasm", b"\0asm\x01\0\0\0");
    let missing = scratch.path().join("plugins/missing.wasm");
    let root = scratch.copy_fixture("rust-workspace");
    let args = [
        "--plugin".to_string(),
        text.display().to_string(),
        "--plugin".to_string(),
        core.display().to_string(),
        "--plugin".to_string(),
        missing.display().to_string(),
    ];
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let server = McpServer::start(&root, &args)
        .await
        .expect("lingo starts despite bad plugins");

    let health = server.call("health_check", json!({})).await.ok();
    assert_eq!(health["healthy"], json!(false), "{health:#}");
    let errors = health["errors"].as_array().unwrap();
    let by_origin = |path: &PathBuf| {
        errors
            .iter()
            .find(|e| e["origin"] == json!(path.display().to_string()))
            .unwrap_or_else(|| panic!("no error for {}: {health:#}", path.display()))
    };
    assert_eq!(by_origin(&text)["code"], json!("PLUGIN_INVALID"));
    assert!(
        by_origin(&text)["message"]
            .as_str()
            .unwrap()
            .contains("x.wasm")
    );
    assert_eq!(by_origin(&core)["code"], json!("PLUGIN_INVALID"));
    assert_eq!(by_origin(&missing)["code"], json!("PLUGIN_UNREADABLE"));
    assert_eq!(errors.len(), 3, "{health:#}");

    // The built-in plugins still serve, and nothing else was loaded.
    let plugins = health["components"]["plugins"].as_array().unwrap();
    assert!(
        plugins
            .iter()
            .all(|p| p["origin"].as_str().unwrap().starts_with("embedded:")),
        "{plugins:#?}"
    );
    assert!(plugins.iter().any(|p| p["name"] == json!("rust")));
    let outline = server
        .call("outline", json!({ "path": "src/orders.rs" }))
        .await
        .ok();
    assert_eq!(outline["outline"][0]["name"], json!("place_order"));
    server.stop().await;
}

/// A plugin that answers a move with an extent beyond the file: the move is
/// refused with SYMBOL_NOT_MOVEABLE, nothing is written, and the server
/// carries on.
#[tokio::test]
async fn a_hostile_extent_refuses_the_move_and_writes_nothing() {
    let scratch = Scratch::new("hostile-move");
    scratch.write("ws/d.calm", "nothing to see here\n");
    scratch.write("ws/lib.rs", LIB_RS);
    scratch.write("ws/m.range", "range\n");
    let root = scratch.path().join("ws");
    let server = start_hostile(&root, &[]).await;
    let error = server
        .call(
            "move",
            json!({
                "source": { "file_path": "m.range", "name": "range_ok" },
                "destination": { "file_path": "n.range" },
                "dryRun": false,
            }),
        )
        .await
        .err();
    assert_eq!(error["code"], "SYMBOL_NOT_MOVEABLE", "{error:#}");
    assert!(
        error["message"].as_str().unwrap().contains("extent"),
        "{error:#}"
    );
    assert!(!root.join("n.range").exists());
    assert_eq!(
        std::fs::read_to_string(root.join("m.range")).unwrap(),
        "range\n"
    );
    assert_still_serving(&server, "a hostile extent").await;
    server.stop().await;
}
