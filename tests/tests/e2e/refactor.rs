//! The refactoring tools end to end, on copies of the navigation fixtures:
//! `rename` applied and rolled back in all four languages (the files'
//! bytes compared), the refusals (a name clash, a name that does not
//! parse, a file changed since the plan, a tampered plan, references that
//! may be incomplete), and a server killed in the middle of an apply.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use lingo_e2e::{McpServer, PATIENCE, Scratch, fixture, serve_command};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

/// Every file under `root`, path -> text.
fn files(root: &Path) -> std::collections::BTreeMap<String, String> {
    let mut out = std::collections::BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let relative = path
                    .strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                out.insert(relative, std::fs::read_to_string(&path).unwrap_or_default());
            }
        }
    }
    out
}

/// A copy of the navigation fixture of `language`.
fn copy(scratch: &Scratch, language: &str) -> PathBuf {
    let root = scratch.path().join(language);
    let source = fixture(&format!("nav/{language}"));
    for (path, text) in files(&source) {
        scratch.write(&format!("{language}/{path}"), text);
    }
    root
}

/// Occurrences of `word` as a whole word in `text`.
fn count_word(text: &str, word: &str) -> usize {
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(word)
        .filter(|(i, _)| {
            let before = text[..*i].chars().next_back();
            let after = text[i + word.len()..].chars().next();
            !before.is_some_and(is_ident) && !after.is_some_and(is_ident)
        })
        .count()
}

/// (language, path declaring the type, type, new type name, path declaring
/// the function, function, new function name, files that use both).
const CASES: &[(&str, &str, &str, &str, &str, &str, &str)] = &[
    (
        "rust",
        "src/shapes.rs",
        "Circle",
        "Round",
        "src/shapes.rs",
        "area_of",
        "total_area",
    ),
    (
        "typescript",
        "src/shapes/circle.ts",
        "Circle",
        "Round",
        "src/shapes/area.ts",
        "areaOf",
        "totalArea",
    ),
    (
        "go",
        "shapes/shapes.go",
        "Square",
        "Block",
        "shapes/area.go",
        "AreaOf",
        "TotalArea",
    ),
    (
        "csharp",
        "Shapes/Shapes.cs",
        "Circle",
        "Round",
        "Shapes/Shapes.cs",
        "Areas.AreaOf",
        "TotalArea",
    ),
];

#[tokio::test]
async fn renames_apply_across_files_and_roll_back_byte_for_byte_in_every_language() {
    let scratch = Scratch::new("refactor-rename");
    for &(language, type_path, ty, new_ty, fn_path, function, new_fn) in CASES {
        let root = copy(&scratch, language);
        let before = files(&root);
        let server = McpServer::start(&root, &[]).await.expect("start lingo");

        let references_before = server
            .call(
                "find_references",
                json!({ "symbol": ty, "path": type_path }),
            )
            .await
            .ok()["references"]
            .as_array()
            .map(Vec::len);
        // A dry run writes nothing and says what it would do.
        let plan = server
            .call(
                "rename",
                json!({ "symbol": ty, "path": type_path, "new_name": new_ty }),
            )
            .await
            .ok();
        assert_eq!(plan["plan_type"], "RenamePlan", "{language}: {plan:#}");
        assert_eq!(plan["metadata"]["language"], language);
        assert!(
            plan["warnings"].as_array().is_none_or(Vec::is_empty),
            "{language}: {plan:#}"
        );
        let edited: Vec<&str> = plan["edits"]["documentChanges"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|c| c["textDocument"]["uri"].as_str())
            .collect();
        assert!(
            edited.len() >= 2,
            "{language}: a rename across files: {edited:?}"
        );
        for path in &edited {
            let checksum = plan["file_checksums"][path].as_str().unwrap_or_default();
            assert!(
                checksum.starts_with("sha256:") && checksum.len() == 71,
                "{path}: {checksum}"
            );
        }
        assert_eq!(files(&root), before, "{language}: a dry run wrote");

        // Applied: the plan as it was returned.
        let applied = server
            .call("apply_plan", json!({ "plan": plan }))
            .await
            .ok();
        assert_eq!(applied["success"], true);
        let after = files(&root);
        for path in &edited {
            let old = &before[*path];
            let new = &after[*path];
            assert!(count_word(new, new_ty) > 0, "{language} {path}:\n{new}");
            // Only the type's own name changed in the file (a decoy of the
            // same name elsewhere keeps it).
            assert_eq!(
                count_word(old, ty) - count_word(new, ty),
                count_word(new, new_ty),
                "{language} {path}:\n{new}"
            );
        }
        let receipt = &applied["receipt"];
        assert_eq!(
            receipt["old_name_left"]["count"], 0,
            "{language}: {receipt:#}"
        );
        for file in receipt["files"].as_array().unwrap() {
            assert_eq!(
                file["syntax_errors_after"], file["syntax_errors_before"],
                "{file}"
            );
        }
        // The index sees the new name at once, with the same references.
        let found = server
            .call(
                "find_references",
                json!({ "symbol": new_ty, "path": type_path }),
            )
            .await
            .ok();
        assert_eq!(
            found["references"].as_array().map(Vec::len),
            references_before,
            "{language}: {found:#}"
        );

        // The function, applied in one call.
        let renamed = server
            .call(
                "rename",
                json!({ "symbol": function, "path": fn_path, "new_name": new_fn, "options": { "dryRun": false } }),
            )
            .await
            .ok();
        assert!(
            renamed["applied_files"].as_array().unwrap().len() >= 2,
            "{language}: {renamed:#}"
        );

        // Both undone, newest first: every byte as before.
        for snapshot in [&renamed["snapshot_id"], &applied["snapshot_id"]] {
            let undone = server
                .call("rollback", json!({ "snapshot_id": snapshot }))
                .await
                .ok();
            assert_eq!(undone["success"], true, "{undone:#}");
        }
        assert_eq!(
            files(&root),
            before,
            "{language}: rollback left differences"
        );
        let again = server
            .call("rollback", json!({ "snapshot_id": applied["snapshot_id"] }))
            .await
            .code();
        assert_eq!(again, "ROLLBACK_FAILED");
        server.stop().await;
    }
}

#[tokio::test]
async fn refusals_come_before_any_write() {
    let scratch = Scratch::new("refactor-refusals");
    let root = copy(&scratch, "rust");
    // A shorthand in a macro's arguments, which the plugin reads apart
    // from the file's tree and so cannot write out.
    let shapes = std::fs::read_to_string(root.join("src/shapes.rs")).unwrap();
    std::fs::write(
        root.join("src/shapes.rs"),
        format!("{shapes}\npub fn boxed(radius: f64) -> Vec<Circle> {{\n    vec![Circle {{ radius }}]\n}}\n"),
    )
    .unwrap();
    let before = files(&root);
    let server = McpServer::start(&root, &[]).await.expect("start lingo");
    let rename = |name: &str| json!({ "symbol": "area_of", "path": "src/shapes.rs", "new_name": name, "dryRun": false });

    let clash = server.call("rename", rename("Square")).await.err();
    assert_eq!(clash["code"], "NAME_COLLISION", "{clash:#}");
    assert_eq!(clash["details"]["field"], "new_name");
    let huge = "a".repeat(300);
    for bad in [
        "area-of",
        "two words",
        "",
        "area_of",
        "tab\tname",
        huge.as_str(),
    ] {
        let error = server.call("rename", rename(bad)).await.err();
        assert_eq!(error["code"], "INVALID_SYMBOL_NAME", "{bad}: {error:#}");
    }
    let wrong_kind = server
        .call("rename", json!({ "symbol": "area_of", "path": "src/shapes.rs", "new_name": "x", "kind": "type" }))
        .await
        .err();
    assert_eq!(wrong_kind["details"]["field"], "kind", "{wrong_kind:#}");
    // A shorthand field (`Circle { radius }`) is written out in full; the
    // one in the macro's arguments cannot be, and needs force.
    let shorthand = server
        .call(
            "rename",
            json!({ "symbol": "Circle.radius", "path": "src/shapes.rs", "new_name": "r" }),
        )
        .await
        .ok();
    let new_texts: Vec<&str> = shorthand["edits"]["documentChanges"][0]["edits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|edit| edit["newText"].as_str().unwrap())
        .collect();
    assert!(new_texts.contains(&"r: radius"), "{shorthand:#}");
    assert_eq!(
        shorthand["warnings"][0]["code"], "POTENTIAL_BEHAVIOR_CHANGE",
        "{shorthand:#}"
    );
    assert_eq!(
        shorthand["warnings"][0]["sites"].as_array().map(Vec::len),
        Some(1),
        "{shorthand:#}"
    );
    let refused = server
        .call("apply_plan", json!({ "plan": shorthand }))
        .await
        .err();
    assert_eq!(refused["code"], "POTENTIAL_BEHAVIOR_CHANGE");
    assert_eq!(files(&root), before);

    // A file changed after the plan: nothing is written.
    let plan = server
        .call(
            "rename",
            json!({ "symbol": "area_of", "path": "src/shapes.rs", "new_name": "total_area" }),
        )
        .await
        .ok();
    let report = root.join("src/report.rs");
    let edited = format!("{}// edited\n", std::fs::read_to_string(&report).unwrap());
    std::fs::write(&report, &edited).unwrap();
    let stale = server
        .call("apply_plan", json!({ "plan": plan }))
        .await
        .err();
    assert_eq!(stale["code"], "CHECKSUM_MISMATCH", "{stale:#}");
    assert_eq!(stale["details"]["file_path"], "src/report.rs");
    assert_eq!(
        std::fs::read_to_string(root.join("src/shapes.rs")).unwrap(),
        before["src/shapes.rs"]
    );

    // Tampered plans.
    let mut wrong_type = plan.clone();
    wrong_type["plan_type"] = json!("MagicPlan");
    let error = server
        .call("apply_plan", json!({ "plan": wrong_type }))
        .await
        .err();
    assert_eq!(error["code"], "INVALID_PLAN_TYPE");
    let mut outside = plan.clone();
    outside["edits"]["documentChanges"][0]["textDocument"]["uri"] = json!("../escape.rs");
    outside["summary"] = json!({ "affected_files": plan["summary"]["affected_files"], "created_files": 0, "deleted_files": 0, "text_edits": plan["summary"]["text_edits"] });
    let error = server
        .call("apply_plan", json!({ "plan": outside }))
        .await
        .err();
    assert_eq!(error["code"], "PATH_OUTSIDE_BOUNDARY", "{error:#}");
    let mut hook = plan.clone();
    hook["edits"]["documentChanges"] =
        json!([{ "kind": "create", "uri": ".git/hooks/pre-commit", "text": "#!/bin/sh\n" }]);
    hook["summary"] =
        json!({ "affected_files": 1, "created_files": 1, "deleted_files": 0, "text_edits": 0 });
    let error = server
        .call("apply_plan", json!({ "plan": hook }))
        .await
        .err();
    assert_eq!(error["code"], "INVALID_PLAN", "{error:#}");
    assert!(!root.join(".git").exists());
    let mut miscounted = plan.clone();
    miscounted["summary"]["affected_files"] = json!(99);
    let error = server
        .call("apply_plan", json!({ "plan": miscounted }))
        .await
        .err();
    assert_eq!(error["code"], "INVALID_PLAN");
    let mut unknown = plan.clone();
    unknown["edits"]["documentChanges"][0]["edits"][0]["range"]["start"]["line"] = json!(9999);
    let error = server
        .call("apply_plan", json!({ "plan": unknown }))
        .await
        .err();
    assert_eq!(error["code"], "INVALID_PLAN", "{error:#}");
    let unknown_snapshot = server
        .call("rollback", json!({ "snapshot_id": "tx-nope" }))
        .await
        .err();
    assert_eq!(unknown_snapshot["code"], "SNAPSHOT_NOT_FOUND");
    for id in ["../../etc", "/tmp", ""] {
        let error = server
            .call("rollback", json!({ "snapshot_id": id }))
            .await
            .err();
        assert_eq!(error["code"], "SNAPSHOT_NOT_FOUND", "{id}: {error:#}");
    }
    // Plans that are not plans, or nest where a string belongs.
    for not_a_plan in [
        json!("text"),
        json!([1, 2]),
        json!({ "plan_type": "RenamePlan" }),
        json!({}),
    ] {
        let error = server
            .call("apply_plan", json!({ "plan": not_a_plan }))
            .await
            .err();
        assert_eq!(error["code"], "INVALID_PLAN", "{not_a_plan}: {error:#}");
    }
    // (Deeper than serde_json's 128 levels, a request is refused as a
    // parse error before any tool: the protocol tests cover that.)
    let mut deep = json!("x");
    for _ in 0..100 {
        deep = json!([deep]);
    }
    let mut nested = plan.clone();
    nested["edits"]["documentChanges"][0]["edits"][0]["newText"] = deep;
    let error = server
        .call("apply_plan", json!({ "plan": nested }))
        .await
        .err();
    assert_eq!(error["code"], "INVALID_PLAN", "{error:#}");
    assert!(!scratch.path().join("escape.rs").exists());
    server.stop().await;
}

#[tokio::test]
async fn uses_resolved_by_name_only_make_applying_need_force() {
    let scratch = Scratch::new("refactor-force");
    let root = copy(&scratch, "go");
    scratch.write(
        "go/shapes/measure.go",
        "package shapes\n\n// Measure is the area of anything with one.\nfunc Measure(v interface{ Area() float64 }) float64 {\n\treturn v.Area()\n}\n",
    );
    let server = McpServer::start(&root, &[]).await.expect("start lingo");
    // `v.Area()` on a value of an unnamed interface type resolves to
    // `Square.Area` by name only: the plan lists it and does not rename it.
    let plan = server
        .call(
            "rename",
            json!({ "symbol": "Square.Area", "path": "shapes/shapes.go", "new_name": "Surface" }),
        )
        .await
        .ok();
    let warning = plan["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|w| w["code"] == "INCOMPLETE_REFERENCES")
        .cloned()
        .unwrap_or_else(|| panic!("{plan:#}"));
    assert!(
        warning["sites"][0]
            .as_str()
            .unwrap()
            .starts_with("shapes/measure.go:"),
        "{warning:#}"
    );
    let refused = server
        .call("apply_plan", json!({ "plan": plan }))
        .await
        .err();
    assert_eq!(refused["code"], "INCOMPLETE_REFERENCES");
    let forced = server
        .call(
            "apply_plan",
            json!({ "plan": plan, "options": { "force": true } }),
        )
        .await
        .ok();
    assert!(
        forced["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|w| w["code"] == "VALIDATION_SKIPPED")
    );
    let text = std::fs::read_to_string(root.join("shapes/shapes.go")).unwrap();
    assert!(text.contains("func (s Square) Surface() float64"), "{text}");
    server.stop().await;
}

/// A server with a pause after each file written and renamed, spoken to
/// in raw JSON-RPC lines, killed in the middle of an apply.
async fn apply_and_kill(root: &Path, kill_after: Duration) {
    let mut command = serve_command(root, &[]);
    command
        .env("LINGO_TEST_APPLY_STEP_MS", "20")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    let mut child = command.spawn().expect("spawn lingo");
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap()).lines();
    let messages = [
        json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": { "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": { "name": "crash", "version": "0" } } }),
        json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }),
        json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": { "name": "find_references", "arguments": { "symbol": "shared", "path": "src/lib.rs" } } }),
    ];
    for message in &messages {
        stdin
            .write_all(format!("{message}\n").as_bytes())
            .await
            .unwrap();
    }
    // Both answers: the index is built.
    for _ in 0..2 {
        tokio::time::timeout(PATIENCE, stdout.next_line())
            .await
            .unwrap()
            .unwrap();
    }
    let rename = json!({ "jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": { "name": "rename", "arguments": { "symbol": "shared", "path": "src/lib.rs", "new_name": "common", "dryRun": false } } });
    stdin
        .write_all(format!("{rename}\n").as_bytes())
        .await
        .unwrap();
    tokio::time::sleep(kill_after).await;
    child.start_kill().unwrap();
    let _ = child.wait().await;
}

#[cfg(unix)]
#[tokio::test]
async fn a_server_killed_during_an_apply_leaves_every_file_old_or_new() {
    const FILES: usize = 50;
    let scratch = Scratch::new("refactor-crash");
    let old_file =
        |i: usize| format!("use crate::shared;\npub fn f{i}() -> u32 {{ shared() + {i} }}\n");
    let new_file =
        |i: usize| format!("use crate::common;\npub fn f{i}() -> u32 {{ common() + {i} }}\n");
    let mut lib = String::from("pub fn shared() -> u32 { 1 }\n");
    for i in 0..FILES {
        lib.push_str(&format!("pub mod m{i};\n"));
    }
    let new_lib = lib.replacen("shared", "common", 1);
    // Killed early (while planning or writing temporary files), in the
    // middle, and late (while renaming): 50 files at 20 ms a step each.
    for (round, kill_after_ms) in [300u64, 1200, 2200].into_iter().enumerate() {
        let root = scratch.path().join(format!("ws{round}"));
        scratch.write(
            &format!("ws{round}/Cargo.toml"),
            "[package]\nname = \"crash\"\nversion = \"0.1.0\"\n",
        );
        scratch.write(&format!("ws{round}/src/lib.rs"), &lib);
        for i in 0..FILES {
            scratch.write(&format!("ws{round}/src/m{i}.rs"), old_file(i));
        }
        apply_and_kill(&root, Duration::from_millis(kill_after_ms)).await;

        let is_whole =
            |files: &std::collections::BTreeMap<String, String>| -> Result<bool, String> {
                let mut new = 0;
                for i in 0..FILES {
                    let text = &files[&format!("src/m{i}.rs")];
                    if *text == new_file(i) {
                        new += 1;
                    } else if *text != old_file(i) {
                        return Err(format!("src/m{i}.rs is neither old nor new:\n{text}"));
                    }
                }
                Ok(new == FILES)
            };
        let crashed = files(&root);
        is_whole(&crashed).unwrap();

        // The next start finishes or discards what was interrupted: all
        // old or all new, no temporary file left.
        let server = McpServer::start(&root, &[]).await.expect("restart lingo");
        let recovered = files(&root);
        let all_new = is_whole(&recovered).unwrap();
        eprintln!(
            "round {round}: crashed with {} new files; after restart all new: {all_new}",
            crashed
                .iter()
                .filter(|(p, t)| p.starts_with("src/m") && t.contains("common"))
                .count()
        );
        let lib_now = &recovered["src/lib.rs"];
        assert_eq!(
            lib_now == &new_lib,
            all_new,
            "round {round}: lib.rs disagrees"
        );
        if !all_new {
            assert!(
                recovered
                    .iter()
                    .all(|(p, t)| !p.starts_with("src/m") || t.contains("shared")),
                "round {round}: mixed"
            );
        }
        assert!(
            recovered.keys().all(|p| !p.ends_with(".tmp")),
            "round {round}: {:?}",
            recovered.keys()
        );
        let answer: Value = server
            .call("find_references", json!({ "symbol": if all_new { "common" } else { "shared" }, "path": "src/lib.rs" }))
            .await
            .ok();
        assert_eq!(
            answer["references"].as_array().unwrap().len(),
            2 * FILES + 1,
            "round {round}"
        );
        server.stop().await;
    }
}

/// `cargo check` of the crate at `root`: whether it compiles, and its output.
fn cargo_check(root: &Path, target: &Path) -> (bool, String) {
    let output = std::process::Command::new(env!("CARGO"))
        .args(["check", "--offline", "--quiet", "--message-format", "short"])
        .current_dir(root)
        .env("CARGO_TARGET_DIR", target)
        .output()
        .expect("run cargo check");
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// `tsc -p tsconfig.json` of the project at `root`: whether it compiles,
/// and what it said.
fn tsc(root: &Path) -> (bool, String) {
    let output = std::process::Command::new("tsc")
        .args(["-p", "tsconfig.json"])
        .current_dir(root)
        .output()
        .unwrap_or_else(|e| panic!("run tsc (bash .ci/install installs it): {e}"));
    (
        output.status.success(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ),
    )
}

/// Renames of a type, a function and a method used across files, applied
/// to a real crate: it still compiles (`cargo check`), and again once
/// they are rolled back.
#[tokio::test]
async fn renamed_rust_still_compiles_and_so_does_the_rollback() {
    let scratch = Scratch::new("refactor-compile");
    let root = copy(&scratch, "rust");
    let target = scratch.path().join("target");
    let (compiles, output) = cargo_check(&root, &target);
    assert!(compiles, "the fixture does not compile:\n{output}");
    let before = files(&root);
    let server = McpServer::start(&root, &[]).await.expect("start lingo");
    let mut snapshots = Vec::new();
    for (symbol, new_name) in [
        ("Circle", "Round"),
        ("area_of", "total_area"),
        ("Round::new", "with_radius"),
        ("summary", "one_line"),
    ] {
        let path = if symbol == "summary" {
            "src/report.rs"
        } else {
            "src/shapes.rs"
        };
        let applied = server
            .call(
                "rename",
                json!({ "symbol": symbol, "path": path, "new_name": new_name, "dryRun": false }),
            )
            .await
            .ok();
        snapshots.push(applied["snapshot_id"].clone());
        let (compiles, output) = cargo_check(&root, &target);
        assert!(
            compiles,
            "after renaming {symbol} to {new_name}:\n{output}\n{:#?}",
            files(&root)
        );
    }
    let report = std::fs::read_to_string(root.join("src/report.rs")).unwrap();
    assert!(
        report.contains("Round::with_radius(radius)") && report.contains("total_area(&["),
        "{report}"
    );
    for snapshot in snapshots.iter().rev() {
        server
            .call("rollback", json!({ "snapshot_id": snapshot }))
            .await
            .ok();
    }
    assert_eq!(files(&root), before);
    let (compiles, output) = cargo_check(&root, &target);
    assert!(compiles, "after the rollbacks:\n{output}");
    server.stop().await;
}

/// (language, file, the text it starts with, the unused imports put
/// before that text, the text a correct deletion leaves).
const UNUSED_IMPORTS: &[(&str, &str, &str, &str, &str)] = &[
    (
        "rust",
        "src/report.rs",
        "use crate::shapes::{area_of, Circle, Square};\n",
        "use crate::legacy::Circle as OldCircle;\nuse std::collections::HashMap;\n",
        "",
    ),
    (
        "typescript",
        "src/report.ts",
        "import { areaOf, Circle, Square } from \"./shapes\";\n",
        "import { Shape } from \"./legacy\";\nimport * as legacy from \"./legacy\";\n",
        "",
    ),
    (
        "go",
        "main.go",
        "\t\"example.com/geometry/report\"\n",
        "\t\"strings\"\n\t\"example.com/geometry/legacy\"\n",
        "",
    ),
    (
        "csharp",
        "Legacy/Legacy.cs",
        "namespace Geometry.Legacy",
        "using Geometry.Reports;\nusing System.Text;\n\n",
        // An import of every name of a namespace outside the workspace
        // cannot be judged: it stays.
        "using System.Text;\n\n",
    ),
];

/// Unused imports put into each fixture are found and removed (and only
/// they: the fixtures' own imports are all used), the file is whole again,
/// and the rollback brings them back.
#[tokio::test]
async fn unused_imports_are_removed_in_every_language_and_nothing_else() {
    let scratch = Scratch::new("refactor-unused-imports");
    for &(language, path, anchor, unused, kept) in UNUSED_IMPORTS {
        let root = copy(&scratch, language);
        let original = std::fs::read_to_string(root.join(path)).unwrap();
        let at = original.find(anchor).expect("anchor");
        let with_unused = format!("{}{unused}{}", &original[..at], &original[at..]);
        std::fs::write(root.join(path), &with_unused).unwrap();
        let before = files(&root);
        let server = McpServer::start(&root, &[]).await.expect("start lingo");

        let plan = server
            .call("delete", json!({ "kind": "unused_imports" }))
            .await
            .ok();
        assert_eq!(plan["plan_type"], "DeletePlan", "{language}: {plan:#}");
        assert_eq!(plan["metadata"]["kind"], "delete.unused_imports");
        let edited: Vec<&str> = plan["edits"]["documentChanges"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|c| c["textDocument"]["uri"].as_str())
            .collect();
        assert_eq!(edited, [path], "{language}: {plan:#}");
        assert!(
            plan["file_checksums"][path]
                .as_str()
                .is_some_and(|c| c.starts_with("sha256:")),
            "{plan:#}"
        );
        assert_eq!(files(&root), before, "{language}: a dry run wrote");

        let applied = server
            .call("apply_plan", json!({ "plan": plan }))
            .await
            .ok();
        assert_eq!(applied["success"], true, "{applied:#}");
        let expected = format!("{}{kept}{}", &original[..at], &original[at..]);
        assert_eq!(
            std::fs::read_to_string(root.join(path)).unwrap(),
            expected,
            "{language}"
        );
        // Nothing is left to remove.
        let again = server
            .call("delete", json!({ "kind": "unused_imports", "path": path }))
            .await
            .ok();
        assert_eq!(again["summary"]["affected_files"], 0, "{again:#}");

        server
            .call("rollback", json!({ "snapshot_id": applied["snapshot_id"] }))
            .await
            .ok();
        assert_eq!(files(&root), before, "{language}: rollback");
        server.stop().await;
    }
}

/// An import nothing mentions may still serve member calls lingo cannot
/// resolve (a trait's methods): it is kept and listed, removed only with
/// `aggressive`, and that plan needs `force`. A trait of the workspace
/// whose method the file calls is used. Whatever is removed, the crate
/// still compiles.
#[tokio::test]
async fn imports_that_may_serve_member_calls_are_kept_unless_aggressive() {
    let scratch = Scratch::new("refactor-unused-traits");
    let root = copy(&scratch, "rust");
    let report = std::fs::read_to_string(root.join("src/report.rs")).unwrap();
    let report = report.replacen(
        "use crate::shapes::",
        "use std::fmt::Write;\nuse crate::shapes::Shape;\nuse crate::shapes::",
        1,
    ) + "\n/// Loud.\npub fn shout(s: &str) -> String {\n    let mut out = String::new();\n    let _ = out.write_str(&s.to_uppercase());\n    let c = Circle::new(1.0);\n    out + &c.area().to_string()\n}\n";
    std::fs::write(root.join("src/report.rs"), &report).unwrap();
    let target = scratch.path().join("target");
    let (compiles, output) = cargo_check(&root, &target);
    assert!(compiles, "the edited fixture does not compile:\n{output}");
    let server = McpServer::start(&root, &[]).await.expect("start lingo");

    let plan = server
        .call("delete", json!({ "kind": "unused_imports", "path": "src" }))
        .await
        .ok();
    assert_eq!(plan["summary"]["affected_files"], 0, "{plan:#}");
    let kept = &plan["warnings"][0];
    assert_eq!(kept["code"], "PARTIAL_APPLY", "{plan:#}");
    assert_eq!(kept["sites"], json!(["src/report.rs:3:1"]), "{plan:#}");

    let aggressive = server
        .call(
            "delete",
            json!({ "kind": "unused_imports", "path": "src/report.rs", "options": { "aggressive": true } }),
        )
        .await
        .ok();
    assert_eq!(aggressive["summary"]["affected_files"], 1, "{aggressive:#}");
    assert_eq!(
        aggressive["warnings"][0]["code"], "POTENTIAL_BEHAVIOR_CHANGE",
        "{aggressive:#}"
    );
    let refused = server
        .call("apply_plan", json!({ "plan": aggressive }))
        .await
        .code();
    assert_eq!(refused, "POTENTIAL_BEHAVIOR_CHANGE");
    let applied = server
        .call("apply_plan", json!({ "plan": aggressive, "force": true }))
        .await
        .ok();
    assert_eq!(applied["success"], true, "{applied:#}");
    let now = std::fs::read_to_string(root.join("src/report.rs")).unwrap();
    assert!(
        !now.contains("use std::fmt::Write;") && now.contains("use crate::shapes::Shape;"),
        "{now}"
    );
    // The compiler agrees that `Write` was needed: the aggressive removal
    // breaks the build, which is why it needs `force`; the rollback mends it.
    assert!(!cargo_check(&root, &target).0);
    server
        .call("rollback", json!({ "snapshot_id": applied["snapshot_id"] }))
        .await
        .ok();
    let (compiles, output) = cargo_check(&root, &target);
    assert!(compiles, "after the rollback:\n{output}");
    server.stop().await;
}

/// `delete` of a file: a file nothing uses goes at once; one whose
/// declarations are used elsewhere lists the uses and needs `force`; a
/// folder or a file that is not there is refused with suggestions.
#[tokio::test]
async fn deleting_a_file_lists_what_would_break() {
    let scratch = Scratch::new("refactor-delete-file");
    let root = copy(&scratch, "typescript");
    let before = files(&root);
    let server = McpServer::start(&root, &[]).await.expect("start lingo");

    let used = server
        .call("delete", json!({ "kind": "file", "path": "src/report.ts" }))
        .await
        .ok();
    assert_eq!(used["summary"]["deleted_files"], 1, "{used:#}");
    let warning = &used["warnings"][0];
    assert_eq!(warning["code"], "POTENTIAL_BEHAVIOR_CHANGE", "{used:#}");
    assert!(
        warning["sites"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s.as_str().unwrap().starts_with("src/main.ts:")),
        "{used:#}"
    );
    let refused = server
        .call("apply_plan", json!({ "plan": used }))
        .await
        .code();
    assert_eq!(refused, "POTENTIAL_BEHAVIOR_CHANGE");
    assert_eq!(files(&root), before);

    // legacy.ts is only there to be confused with: nothing imports it.
    let unused = server
        .call(
            "delete",
            json!({ "kind": "file", "target": { "file_path": "src/legacy.ts" }, "dryRun": false }),
        )
        .await
        .ok();
    assert_eq!(
        unused["deleted_files"],
        json!(["src/legacy.ts"]),
        "{unused:#}"
    );
    assert!(!root.join("src/legacy.ts").exists());
    let gone = server
        .call("search_symbols", json!({ "query": "areaOf" }))
        .await
        .ok();
    assert!(!gone.to_string().contains("legacy.ts"), "{gone:#}");
    server
        .call("rollback", json!({ "snapshot_id": unused["snapshot_id"] }))
        .await
        .ok();
    assert_eq!(files(&root), before);

    let folder = server
        .call("delete", json!({ "kind": "file", "path": "src/shapes" }))
        .await
        .code();
    assert_eq!(folder, "INVALID_PARAM");
    let missing = server
        .call(
            "delete",
            json!({ "kind": "file", "path": "src/legacyy.ts" }),
        )
        .await
        .err();
    assert_eq!(missing["code"], "FILE_NOT_FOUND", "{missing:#}");
    for outside in ["../../etc", "/etc/passwd", "src/../../x.ts"] {
        for kind in ["file", "unused_imports"] {
            let refused = server
                .call("delete", json!({ "kind": kind, "path": outside }))
                .await
                .code();
            assert_eq!(refused, "PATH_OUTSIDE_BOUNDARY", "{kind} {outside}");
        }
    }
    for (arguments, field) in [
        (
            json!({ "kind": "unused_imports", "aggressive": "yes" }),
            "aggressive",
        ),
        (
            json!({ "kind": "unused_imports", "options": { "aggressive": 1 } }),
            "options.aggressive",
        ),
        (json!({ "kind": "file", "target": 5 }), "target"),
        (
            json!({ "kind": "file", "target": { "file_path": ["a"] } }),
            "target.file_path",
        ),
        (json!({ "kind": "file" }), "path"),
    ] {
        let refused = server.call("delete", arguments.clone()).await.err();
        assert_eq!(
            refused["details"]["field"], field,
            "{arguments}: {refused:#}"
        );
    }
    let kind = server
        .call("delete", json!({ "kind": "unused_import" }))
        .await
        .err();
    assert_eq!(kind["code"], "INVALID_PARAM", "{kind:#}");
    assert!(kind.to_string().contains("unused_imports"), "{kind:#}");
    server.stop().await;
}

/// The C# fixture as C# 7, which mcs speaks: its one file-scoped namespace
/// written as a block.
fn to_csharp_7(root: &Path) {
    let path = root.join("Reports/Report.cs");
    let text = std::fs::read_to_string(&path).unwrap();
    let block = text.replacen(
        "namespace Geometry.Reports;\n",
        "namespace Geometry.Reports {\n",
        1,
    ) + "}\n";
    std::fs::write(&path, block).unwrap();
}

/// A compiler's verdict on the project at `root`: whether it builds, and
/// what it said. The compilers are Debian's (`bash .ci/install` installs
/// them): `go build` and `go vet`, `tsc --noEmit`, `mcs` (C# 7), `javac`
/// (17).
fn compile(language: &str, root: &Path, scratch: &Path) -> (bool, String) {
    std::fs::create_dir_all(scratch).expect("build folder");
    let sources = |extension: &str| -> Vec<String> {
        files(root)
            .into_keys()
            .filter(|p| p.ends_with(extension))
            .collect()
    };
    let run = |program: &str, args: &[String]| {
        let output = std::process::Command::new(program)
            .args(args)
            .current_dir(root)
            .env("GOCACHE", scratch.join("go-cache"))
            .env("GOPATH", scratch.join("go-path"))
            .env("GOFLAGS", "-mod=mod")
            .env("GOPROXY", "off")
            .output()
            .unwrap_or_else(|e| panic!("run {program} (bash .ci/install installs it): {e}"));
        (
            output.status.success(),
            format!(
                "{}{}",
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            ),
        )
    };
    let strings = |args: &[&str]| args.iter().map(|a| a.to_string()).collect::<Vec<_>>();
    match language {
        "go" => {
            let (built, out) = run("go", &strings(&["build", "./..."]));
            if !built {
                return (false, out);
            }
            run("go", &strings(&["vet", "./..."]))
        }
        "typescript" => {
            let mut args = strings(&[
                "--noEmit", "--strict", "--target", "es2019", "--module", "commonjs",
            ]);
            args.extend(sources(".ts"));
            run("tsc", &args)
        }
        "csharp" => {
            let mut args = strings(&["-target:library", "-nologo"]);
            args.push(format!("-out:{}", scratch.join("out.dll").display()));
            args.extend(sources(".cs"));
            run("mcs", &args)
        }
        "java" => {
            let mut args = strings(&["-Xlint:none", "-nowarn", "-d"]);
            args.push(scratch.join("classes").display().to_string());
            args.extend(sources(".java"));
            run("javac", &args)
        }
        other => panic!("no compiler for {other}"),
    }
}

/// The removal of unused imports and renames of a type and a function
/// used across files, applied to the Go, TypeScript and C# fixtures: each
/// result compiles (go build + go vet, tsc, mcs), and so does the workspace
/// once the renames are rolled back; rolling back the removal too gives
/// every byte back.
#[tokio::test]
async fn refactored_go_typescript_and_csharp_still_compile() {
    let scratch = Scratch::new("refactor-compilers");
    for &(language, type_path, ty, new_ty, fn_path, function, new_fn) in CASES {
        if language == "rust" {
            continue; // `cargo check`ed by the tests above.
        }
        let root = copy(&scratch, language);
        if language == "csharp" {
            to_csharp_7(&root);
        }
        let out = scratch.path().join(format!("{language}-build"));
        let (compiles, output) = compile(language, &root, &out);
        assert!(
            compiles,
            "{language}: the fixture does not compile:\n{output}"
        );
        // Unused imports (in Go, a compile error).
        let &(_, unused_path, anchor, unused, _) = UNUSED_IMPORTS
            .iter()
            .find(|case| case.0 == language)
            .unwrap();
        let text = std::fs::read_to_string(root.join(unused_path)).unwrap();
        let at = text.find(anchor).unwrap();
        std::fs::write(
            root.join(unused_path),
            format!("{}{unused}{}", &text[..at], &text[at..]),
        )
        .unwrap();
        let before = files(&root);
        let server = McpServer::start(&root, &[]).await.expect("start lingo");
        let mut snapshots = Vec::new();
        for call in [
            json!({ "tool": "delete", "kind": "unused_imports" }),
            json!({ "tool": "rename", "symbol": ty, "path": type_path, "new_name": new_ty }),
            json!({ "tool": "rename", "symbol": function, "path": fn_path, "new_name": new_fn }),
        ] {
            let mut arguments = call.clone();
            let tool = arguments["tool"].as_str().unwrap().to_string();
            arguments.as_object_mut().unwrap().remove("tool");
            arguments["dryRun"] = json!(false);
            let applied = server.call(&tool, arguments).await.ok();
            assert!(
                !applied["applied_files"].as_array().unwrap().is_empty(),
                "{language} {call}: {applied:#}"
            );
            snapshots.push(applied["snapshot_id"].clone());
            let (compiles, output) = compile(language, &root, &out);
            assert!(
                compiles,
                "{language}: after {call}:\n{output}\n{:#?}",
                files(&root)
            );
        }
        for (undone, snapshot) in snapshots.iter().rev().enumerate() {
            if undone == 2 {
                let (compiles, output) = compile(language, &root, &out);
                assert!(compiles, "{language}: after the rollbacks:\n{output}");
            }
            server
                .call("rollback", json!({ "snapshot_id": snapshot }))
                .await
                .ok();
        }
        assert_eq!(files(&root), before, "{language}: rollback");
        server.stop().await;
    }
}

/// TypeScript whose files import each other through tsconfig `paths`
/// (`@/models/user`): a class and a method renamed across those imports,
/// each result checked by `tsc -p` with that tsconfig; the rollbacks give
/// every byte back.
#[tokio::test]
async fn renames_through_tsconfig_paths_still_compile() {
    let scratch = Scratch::new("refactor-ts-paths");
    scratch.write(
        "ws/tsconfig.json",
        r#"{
  "compilerOptions": {
    "strict": true, "noEmit": true, "target": "es2019", "module": "commonjs",
    "baseUrl": ".", "paths": { "@/*": ["src/*"] }
  },
  "include": ["src"]
}
"#,
    );
    scratch.write(
        "ws/src/models/user.ts",
        "export class User {\n  constructor(public name: string) {}\n  greet(): string {\n    return `hi ${this.name}`;\n  }\n}\n",
    );
    scratch.write(
        "ws/src/app/main.ts",
        "import { User } from \"@/models/user\";\n\nexport function main(): string {\n  const user: User = new User(\"ada\");\n  return user.greet();\n}\n",
    );
    let root = scratch.path().join("ws");
    let (compiles, output) = tsc(&root);
    assert!(compiles, "the fixture does not compile:\n{output}");
    let before = files(&root);
    let server = McpServer::start(&root, &[]).await.expect("start lingo");
    let mut snapshots = Vec::new();
    for call in [
        json!({ "symbol": "User", "path": "src/models/user.ts", "new_name": "Person" }),
        json!({ "symbol": "Person.greet", "path": "src/models/user.ts", "new_name": "hello" }),
    ] {
        let mut arguments = call.clone();
        arguments["dryRun"] = json!(false);
        let applied = server.call("rename", arguments).await.ok();
        assert!(
            applied["applied_files"]
                .as_array()
                .is_some_and(|files| files.len() == 2),
            "{call}: {applied:#}"
        );
        snapshots.push(applied["snapshot_id"].clone());
        let (compiles, output) = tsc(&root);
        assert!(compiles, "after {call}:\n{output}\n{:#?}", files(&root));
    }
    let main = &files(&root)["src/app/main.ts"];
    assert!(
        main.contains("import { Person } from \"@/models/user\";")
            && main.contains("new Person(\"ada\")")
            && main.contains("user.hello()"),
        "{main}"
    );
    for snapshot in snapshots.iter().rev() {
        server
            .call("rollback", json!({ "snapshot_id": snapshot }))
            .await
            .ok();
    }
    assert_eq!(files(&root), before, "the rollbacks give every byte back");
    server.stop().await;
}

/// Shorthands, one name for a member and a value (`{ body }`,
/// `Point { x }`, `let Point { mut x } = p`): renaming the member or the
/// value writes the shorthand out in full so that the other keeps its
/// name, in TypeScript (checked by `tsc`) and Rust (`cargo check`); the
/// rollbacks give every byte back.
#[tokio::test]
async fn renames_through_shorthands_write_them_out_and_still_compile() {
    let scratch = Scratch::new("refactor-shorthands");
    scratch.write(
        "ts/tsconfig.json",
        r#"{ "compilerOptions": { "strict": true, "noEmit": true, "target": "es2019" }, "include": ["src"] }"#,
    );
    scratch.write(
        "ts/src/api.ts",
        "interface Options {\n  body?: unknown;\n  method: string;\n}\n\
         function request(opts: Options): unknown {\n  return opts.body;\n}\n\
         export function send(method: string, body: unknown): unknown {\n  return request({ method, body });\n}\n\
         export function read(opts: Options): unknown {\n  const { body = 1 } = opts;\n  return body;\n}\n",
    );
    scratch.write(
        "rs/Cargo.toml",
        "[package]\nname = \"shorthands\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    scratch.write(
        "rs/src/lib.rs",
        "pub struct Point {\n    pub x: i32,\n    pub y: i32,\n}\n\n\
         pub fn make(x: i32) -> Point {\n    Point { x, y: 0 }\n}\n\n\
         pub fn bump(p: Point) -> i32 {\n    let Point { mut x, .. } = p;\n    x += 1;\n    x\n}\n",
    );
    let target = scratch.path().join("target");
    // (workspace, file, the renames as (line, character, new name) of a
    // use, the file's text after them all).
    type Renames<'a> = &'a [(u32, u32, &'a str)];
    let cases: [(&str, &str, Renames, &str); 2] = [
        (
            "ts",
            "src/api.ts",
            // The property `body`, the parameter `body`, the local `body`.
            &[(1, 2, "payload"), (7, 37, "data"), (12, 9, "content")],
            "  return request({ method, payload: data });\n}\n\
             export function read(opts: Options): unknown {\n  const { payload: content = 1 } = opts;\n  return content;\n}\n",
        ),
        (
            "rs",
            "src/lib.rs",
            // The field `x`, the parameter `x`, the local `mut x`.
            &[(1, 8, "left"), (5, 12, "start"), (12, 4, "moved")],
            "    Point { left: start, y: 0 }\n}\n\n\
             pub fn bump(p: Point) -> i32 {\n    let Point { left: mut moved, .. } = p;\n    moved += 1;\n    moved\n}\n",
        ),
    ];
    for (workspace, path, renames, after) in cases {
        let root = scratch.path().join(workspace);
        let check = |root: &Path| {
            if workspace == "ts" {
                tsc(root)
            } else {
                cargo_check(root, &target)
            }
        };
        let (compiles, output) = check(&root);
        assert!(
            compiles,
            "{workspace}: the sample does not compile:\n{output}"
        );
        let before = files(&root);
        let server = McpServer::start(&root, &[]).await.expect("start lingo");
        let mut snapshots = Vec::new();
        for &(line, character, new_name) in renames {
            let arguments = json!({
                "path": path, "line": line, "character": character,
                "new_name": new_name, "dryRun": false
            });
            let applied = server.call("rename", arguments.clone()).await.ok();
            assert!(
                applied["warnings"].as_array().is_none_or(Vec::is_empty),
                "{workspace} {arguments}: {applied:#}"
            );
            snapshots.push(applied["snapshot_id"].clone());
            let (compiles, output) = check(&root);
            assert!(
                compiles,
                "{workspace}: after {arguments}:\n{output}\n{}",
                files(&root)[path]
            );
        }
        let text = &files(&root)[path];
        assert!(text.ends_with(after), "{workspace}:\n{text}");
        for snapshot in snapshots.iter().rev() {
            server
                .call("rollback", json!({ "snapshot_id": snapshot }))
                .await
                .ok();
        }
        assert_eq!(
            files(&root),
            before,
            "{workspace}: the rollbacks give every byte back"
        );
        server.stop().await;
    }
}

/// A property declared by a `get` and a `set` accessor is one property: a
/// rename from either renames both, and `tsc` still compiles the result.
#[tokio::test]
async fn a_property_renamed_by_its_getter_renames_its_setter() {
    let scratch = Scratch::new("refactor-accessors");
    scratch.write(
        "ws/tsconfig.json",
        r#"{ "compilerOptions": { "strict": true, "noEmit": true, "target": "es2019" }, "include": ["src"] }"#,
    );
    scratch.write(
        "ws/src/flag.ts",
        "export class Flag {\n  private bits = 0;\n  get pending(): boolean {\n    return this.bits > 0;\n  }\n\
         set pending(value: boolean) {\n    this.bits = value ? 1 : 0;\n  }\n}\n\
         export function toggle(flag: Flag): void {\n  flag.pending = !flag.pending;\n}\n",
    );
    let root = scratch.path().join("ws");
    let server = McpServer::start(&root, &[]).await.expect("start lingo");
    let applied = server
        .call(
            "rename",
            json!({ "path": "src/flag.ts", "line": 2, "character": 6, "new_name": "waiting", "dryRun": false }),
        )
        .await
        .ok();
    assert!(
        applied["warnings"].as_array().is_none_or(Vec::is_empty),
        "{applied:#}"
    );
    let text = std::fs::read_to_string(root.join("src/flag.ts")).unwrap();
    assert!(
        text.contains("get waiting()")
            && text.contains("set waiting(value: boolean)")
            && text.contains("flag.waiting = !flag.waiting;"),
        "{text}"
    );
    let (compiles, output) = tsc(&root);
    assert!(compiles, "{output}{text}");
    server.stop().await;
}

/// A member renamed in a type hierarchy renames its counterparts: an
/// interface's method with the classes' that implement it, an abstract
/// method with its override, a trait's method with its impls' (one for a
/// primitive type among them), whichever
/// declaration the rename starts from; `tsc` and `cargo check` still
/// compile the result. A member implementing a type outside the workspace
/// (`Display::fmt`, `Error`'s `toString`) is only renamed with `force`.
#[tokio::test]
async fn a_member_renamed_in_a_hierarchy_renames_its_counterparts_and_still_compiles() {
    let scratch = Scratch::new("refactor-hierarchy");
    scratch.write(
        "ts/tsconfig.json",
        r#"{ "compilerOptions": { "strict": true, "noEmit": true, "target": "es2019", "noImplicitOverride": true }, "include": ["src"] }"#,
    );
    scratch.write(
        "ts/src/shapes.ts",
        "export interface Shape {\n  area(): number;\n}\n\
         export class Circle implements Shape {\n  constructor(private r: number) {}\n  area(): number {\n    return 3 * this.r * this.r;\n  }\n}\n\
         export class Square implements Shape {\n  constructor(private side: number) {}\n  area(): number {\n    return this.side * this.side;\n  }\n}\n\
         export abstract class Part {\n  abstract label(): string;\n}\n\
         export class Bolt extends Part {\n  override label(): string {\n    return \"bolt\";\n  }\n}\n\
         export class Failure extends Error {\n  override toString(): string {\n    return \"failed\";\n  }\n}\n\
         export function total(shapes: Shape[], parts: Part[]): string {\n  return shapes.map((s) => s.area()).join() + parts.map((p) => p.label()).join();\n}\n",
    );
    scratch.write(
        "rs/Cargo.toml",
        "[package]\nname = \"hierarchy\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    scratch.write(
        "rs/src/lib.rs",
        "pub trait Runner {\n    fn run(&self) -> u32;\n}\n\n\
         pub struct Fast;\n\nimpl Runner for Fast {\n    fn run(&self) -> u32 {\n        1\n    }\n}\n\n\
         pub struct Slow;\n\nimpl Runner for Slow {\n    fn run(&self) -> u32 {\n        2\n    }\n}\n\n\
         impl Runner for u8 {\n    fn run(&self) -> u32 {\n        3\n    }\n}\n\n\
         impl std::fmt::Display for Slow {\n    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {\n        f.write_str(\"slow\")\n    }\n}\n\n\
         pub fn both<R: Runner>(runner: &R) -> u32 {\n    runner.run() + Fast.run()\n}\n",
    );
    let target = scratch.path().join("target");
    // (workspace, file, renames as (line, character, new name) from one
    // declaration of the hierarchy, texts the file then has, texts it no
    // longer has).
    type Renames<'a> = &'a [(u32, u32, &'a str)];
    let cases: [(&str, &str, Renames, &[&str]); 2] = [
        (
            "ts",
            "src/shapes.ts",
            // Square's `area` (an implementation), Part's `label` (the
            // abstract method).
            &[(11, 2, "size"), (16, 11, "name")],
            &[
                "  size(): number;\n",
                "  size(): number {\n    return 3",
                "  size(): number {\n    return this.side",
                "abstract name(): string;",
                "override name(): string",
                "s.size()",
                "p.name()",
            ],
        ),
        (
            "rs",
            "src/lib.rs",
            // Slow's `run`, from its impl.
            &[(15, 7, "execute")],
            &[
                "    fn execute(&self) -> u32;\n",
                "    fn execute(&self) -> u32 {\n        1",
                "    fn execute(&self) -> u32 {\n        2",
                "    fn execute(&self) -> u32 {\n        3",
                "runner.execute() + Fast.execute()",
            ],
        ),
    ];
    for (workspace, path, renames, after) in cases {
        let root = scratch.path().join(workspace);
        let check = |root: &Path| {
            if workspace == "ts" {
                tsc(root)
            } else {
                cargo_check(root, &target)
            }
        };
        let (compiles, output) = check(&root);
        assert!(
            compiles,
            "{workspace}: the sample does not compile:\n{output}"
        );
        let server = McpServer::start(&root, &[]).await.expect("start lingo");
        for &(line, character, new_name) in renames {
            let arguments = json!({
                "path": path, "line": line, "character": character,
                "new_name": new_name, "dryRun": false
            });
            let applied = server.call("rename", arguments.clone()).await.ok();
            assert!(
                applied["warnings"].as_array().is_none_or(Vec::is_empty),
                "{workspace} {arguments}: {applied:#}"
            );
            let (compiles, output) = check(&root);
            assert!(
                compiles,
                "{workspace}: after {arguments}:\n{output}\n{}",
                files(&root)[path]
            );
        }
        let text = &files(&root)[path];
        for expected in after {
            assert!(
                text.contains(expected),
                "{workspace}: no {expected:?} in\n{text}"
            );
        }
        for old in ["area", "label", "run("] {
            assert!(!text.contains(old), "{workspace}: {old:?} left in\n{text}");
        }
        // What implements an outside type's member is refused without
        // `force`, its place listed.
        let (line, character, place) = if workspace == "ts" {
            (24, 11, "src/shapes.ts:25")
        } else {
            (27, 7, "src/lib.rs:28")
        };
        let arguments = json!({
            "path": path, "line": line, "character": character,
            "new_name": "render", "dryRun": false
        });
        let refused = server.call("rename", arguments.clone()).await.err();
        assert_eq!(
            refused["code"], "POTENTIAL_BEHAVIOR_CHANGE",
            "{workspace}: {refused:#}"
        );
        let planned = server
            .call(
                "rename",
                json!({ "path": path, "line": line, "character": character, "new_name": "render" }),
            )
            .await
            .ok();
        let warning = planned["warnings"]
            .as_array()
            .and_then(|w| w.iter().find(|w| w["code"] == "POTENTIAL_BEHAVIOR_CHANGE"))
            .unwrap_or_else(|| panic!("{workspace}: {planned:#}"));
        assert!(
            warning["message"]
                .as_str()
                .unwrap()
                .contains("outside the workspace")
                && warning.to_string().contains(place),
            "{workspace}: {warning:#}"
        );
        server.stop().await;
    }
}

/// Java, checked by javac: an unused import removed, then renames of a
/// static method used from another package (`Report.twice`, called from
/// `Main`) and of one called in its own class (`Report.summary`), each
/// result compiling; the rollbacks give every byte back. (A public
/// class's rename would also rename its file, which Java requires: not
/// done, so not tried here.)
#[tokio::test]
async fn refactored_java_still_compiles() {
    let scratch = Scratch::new("refactor-javac");
    let root = copy(&scratch, "java");
    let out = scratch.path().join("java-build");
    let (compiles, output) = compile("java", &root, &out);
    assert!(compiles, "java: the fixture does not compile:\n{output}");
    let report = "src/main/java/com/geo/report/Report.java";
    let text = std::fs::read_to_string(root.join(report)).unwrap();
    std::fs::write(
        root.join(report),
        text.replacen(
            "import java.util.List;\n",
            "import java.util.List;\nimport java.util.Map;\n",
            1,
        ),
    )
    .unwrap();
    let before = files(&root);
    let server = McpServer::start(&root, &[]).await.expect("start lingo");
    let mut snapshots = Vec::new();
    for call in [
        json!({ "tool": "delete", "kind": "unused_imports" }),
        json!({ "tool": "rename", "symbol": "Report.twice", "path": report, "new_name": "doubled" }),
        json!({ "tool": "rename", "symbol": "Report.summary", "path": report, "new_name": "describe" }),
        // A public class is named as its file: the file is renamed with it.
        json!({ "tool": "rename", "symbol": "Report", "path": report, "new_name": "Digest" }),
    ] {
        let mut arguments = call.clone();
        let tool = arguments["tool"].as_str().unwrap().to_string();
        arguments.as_object_mut().unwrap().remove("tool");
        arguments["dryRun"] = json!(false);
        let applied = server.call(&tool, arguments).await.ok();
        assert!(
            !applied["applied_files"].as_array().unwrap().is_empty(),
            "java {call}: {applied:#}"
        );
        snapshots.push(applied["snapshot_id"].clone());
        let (compiles, output) = compile("java", &root, &out);
        assert!(
            compiles,
            "java: after {call}:\n{output}\n{:#?}",
            files(&root)
        );
    }
    let now = files(&root);
    let digest = "src/main/java/com/geo/report/Digest.java";
    assert!(!now.contains_key(report), "{now:#?}");
    assert!(!now[digest].contains("java.util.Map"), "{}", now[digest]);
    assert!(
        now[digest].contains("public class Digest"),
        "{}",
        now[digest]
    );
    assert!(
        now["src/main/java/com/geo/app/Main.java"].contains("Digest.doubled(1)"),
        "{now:#?}"
    );
    for snapshot in snapshots.iter().rev() {
        server
            .call("rollback", json!({ "snapshot_id": snapshot }))
            .await
            .ok();
    }
    assert_eq!(files(&root), before, "java: rollback");
    server.stop().await;
}

/// (language, source file, type, target file, whether the target is new, a
/// file that uses the type and must now name the target's module, or "").
const MOVES: &[(&str, &str, &str, &str, bool, &str)] = &[
    (
        "rust",
        "src/shapes.rs",
        "Square",
        "src/legacy.rs",
        false,
        "src/report.rs",
    ),
    (
        "typescript",
        "src/shapes/circle.ts",
        "Circle",
        "src/shapes/round.ts",
        true,
        "src/shapes/index.ts",
    ),
    (
        "go",
        "shapes/shapes.go",
        "Square",
        "shapes/square.go",
        true,
        "",
    ),
    (
        "csharp",
        "Shapes/Shapes.cs",
        "Circle",
        "Shapes/Circle.cs",
        true,
        "",
    ),
];

/// The language's compiler on the fixture at `root` (cargo check for Rust).
fn builds(language: &str, root: &Path, out: &Path) -> (bool, String) {
    match language {
        "rust" => cargo_check(root, out),
        other => compile(other, root, out),
    }
}

/// `move_type_to_file` in every language: previewed (nothing written, a
/// diff per file), applied (the type, with its doc comment, now declared
/// in the target, gone from the source, and the users importing it from
/// its new module), compiled, moved again (SAME_LOCATION), and rolled back
/// byte for byte.
#[tokio::test]
async fn types_move_to_another_file_in_every_language_and_still_compile() {
    let scratch = Scratch::new("refactor-move");
    for &(language, source, ty, target, created, user) in MOVES {
        let root = copy(&scratch, language);
        if language == "csharp" {
            to_csharp_7(&root);
        }
        let out = scratch.path().join(format!("{language}-build"));
        let before = files(&root);
        let server = McpServer::start(&root, &[]).await.expect("start lingo");
        let arguments = json!({ "sourceFile": source, "symbolName": ty, "targetFile": target });

        let mut preview = arguments.clone();
        preview["preview"] = json!(true);
        let previewed = server.call("move_type_to_file", preview).await.ok();
        assert_eq!(previewed["preview"], true, "{language}: {previewed:#}");
        let pending = previewed["pendingChanges"].as_array().unwrap();
        assert!(
            pending.iter().any(
                |c| c["changeType"] == if created { "Create" } else { "Modify" }
                    && c["file"].as_str().unwrap().ends_with(target)
            ),
            "{language}: {previewed:#}"
        );
        assert!(
            pending
                .iter()
                .any(|c| c["file"].as_str().unwrap().ends_with(source)
                    && c["diff"].as_str().unwrap().contains("\n-")),
            "{language}: {previewed:#}"
        );
        assert_eq!(files(&root), before, "{language}: a preview writes nothing");

        let moved = server
            .call("move_type_to_file", arguments.clone())
            .await
            .ok();
        assert_eq!(moved["success"], true, "{language}: {moved:#}");
        assert!(
            moved["symbol"]["newLocation"]["file"]
                .as_str()
                .unwrap()
                .ends_with(target),
            "{moved:#}"
        );
        let now = files(&root);
        let moved_text = &now[target];
        assert!(count_word(moved_text, ty) >= 1, "{language}: {moved_text}");
        assert!(
            moved_text.contains("square") || moved_text.contains("circle"),
            "{language}: the doc comment moves with the type:\n{moved_text}"
        );
        let declared_in = |text: &str| {
            ["struct ", "class ", "type "]
                .iter()
                .any(|kw| text.contains(&format!("{kw}{ty}")))
        };
        assert!(declared_in(moved_text), "{language}:\n{moved_text}");
        assert!(!declared_in(&now[source]), "{language}:\n{}", now[source]);
        if !user.is_empty() {
            let module = Path::new(target).file_stem().unwrap().to_string_lossy();
            assert!(
                now[user].contains(&*module),
                "{language}: {user} imports from {module}:\n{}",
                now[user]
            );
        }
        let (compiles, output) = builds(language, &root, &out);
        assert!(compiles, "{language}: after the move:\n{output}\n{now:#?}");

        let again = json!({ "sourceFile": target, "symbolName": ty, "targetFile": target });
        let refusal = server.call("move_type_to_file", again).await.err();
        assert_eq!(refusal["code"], "SAME_LOCATION", "{language}: {refusal:#}");
        server
            .call("rollback", json!({ "snapshot_id": moved["snapshot_id"] }))
            .await
            .ok();
        let _ = std::fs::remove_file(root.join("Cargo.lock"));
        assert_eq!(files(&root), before, "{language}: rollback");
        server.stop().await;
    }
}

/// The Roslyn error codes a move can produce, each before anything is
/// written.
#[tokio::test]
async fn move_refusals_carry_the_roslyn_codes() {
    let scratch = Scratch::new("refactor-move-refusals");
    let root = copy(&scratch, "csharp");
    // A second circle in the shapes' namespace; Legacy's is in another one.
    scratch.write(
        "csharp/Shapes/Round.cs",
        "namespace Geometry.Shapes\n{\n    public class Circle { }\n}\n",
    );
    let rust = copy(&scratch, "rust");
    let before = files(&root);
    let server = McpServer::start(&root, &[]).await.expect("start lingo");
    let refuse = |arguments: Value| {
        let server = &server;
        async move {
            let answer = server.call("move_type_to_file", arguments.clone()).await;
            let error = answer.err();
            (
                error["code"].as_str().unwrap_or_default().to_string(),
                error,
            )
        }
    };
    let cases = [
        (
            json!({ "sourceFile": "Shapes/Shapes.cs", "symbolName": "Circel", "targetFile": "Shapes/C.cs" }),
            "SYMBOL_NOT_FOUND",
        ),
        (
            json!({ "sourceFile": "Shapes/Shapes.cs", "symbolName": "AreaOf", "targetFile": "Shapes/C.cs" }),
            "SYMBOL_NOT_MOVEABLE",
        ),
        (
            json!({ "sourceFile": "Shapes/Shapes.cs", "symbolName": "Circle", "targetFile": "Shapes/Shapes.cs" }),
            "SAME_LOCATION",
        ),
        (
            json!({ "sourceFile": "Shapes/Shapes.cs", "symbolName": "Circle", "targetFile": "Shapes/Round.cs" }),
            "NAME_COLLISION",
        ),
        (
            json!({ "sourceFile": "Shapes/Shapes.cs", "symbolName": "Circle", "targetFile": "Shapes/C.txt" }),
            "INVALID_TARGET_PATH",
        ),
        (
            json!({ "sourceFile": "Shapes/Shapes.cs", "symbolName": "Circle", "targetFile": "Shapes/C.cs", "createTargetFile": false }),
            "INVALID_TARGET_PATH",
        ),
        (
            json!({ "sourceFile": "Shapes/Shapes.cs", "symbolName": "Circle", "line": 100000, "targetFile": "Shapes/C.cs" }),
            "INVALID_LINE_NUMBER",
        ),
        (
            json!({ "sourceFile": "Shapes/Shapes.cs", "symbolName": "Circle", "targetFile": "../outside.cs" }),
            "PATH_OUTSIDE_BOUNDARY",
        ),
        (
            json!({ "sourceFile": "Shapes/Nowhere.cs", "symbolName": "Circle", "targetFile": "Shapes/C.cs" }),
            "FILE_NOT_FOUND",
        ),
        (
            json!({ "symbolName": "Circle", "targetFile": "Shapes/C.cs" }),
            "MISSING_REQUIRED_PARAM",
        ),
    ];
    for (arguments, code) in cases {
        let (found, error) = refuse(arguments.clone()).await;
        assert_eq!(found, code, "{arguments}: {error:#}");
    }
    let (_, error) = refuse(json!({ "sourceFile": "Shapes/Shapes.cs", "symbolName": "Circel", "targetFile": "Shapes/C.cs" })).await;
    assert!(
        error["details"]["nearbySymbols"]
            .to_string()
            .contains("Circle"),
        "{error:#}"
    );
    // Malformed and hostile arguments, each naming its field.
    let long = "A".repeat(300);
    for (tool, arguments, code, field) in [
        (
            "move",
            json!({ "source": "Shapes/Shapes.cs", "destination": { "file_path": "C.cs" } }),
            "INVALID_PARAM",
            "source",
        ),
        (
            "move",
            json!({ "source": { "file_path": "Shapes/Shapes.cs", "position": { "line": "one", "character": 0 } }, "destination": { "file_path": "C.cs" } }),
            "INVALID_PARAM",
            "source.position.line",
        ),
        (
            "move",
            json!({ "source": { "file_path": "Shapes/Shapes.cs", "name": "Circle" }, "destination": 7 }),
            "INVALID_PARAM",
            "destination",
        ),
        (
            "move",
            json!({ "kind": "sideways", "source": {}, "destination": {} }),
            "INVALID_PARAM",
            "kind",
        ),
        (
            "move_type_to_file",
            json!({ "sourceFile": "Shapes/Shapes.cs", "symbolName": "Circle", "line": 1_000_000_000_000u64, "targetFile": "C.cs" }),
            "INVALID_PARAM",
            "line",
        ),
        (
            "move_type_to_file",
            json!({ "sourceFile": "Shapes/Shapes.cs", "symbolName": long, "targetFile": "C.cs" }),
            "SYMBOL_NOT_FOUND",
            "symbolName",
        ),
    ] {
        let error = server.call(tool, arguments.clone()).await.err();
        assert_eq!(error["code"], code, "{arguments}: {error:#}");
        assert_eq!(error["details"]["field"], field, "{arguments}: {error:#}");
    }
    assert_eq!(files(&root), before, "refusals write nothing");
    server.stop().await;

    // A new Rust file in a folder no existing file may declare it from.
    let server = McpServer::start(&rust, &[]).await.expect("start lingo");
    let answer = server
        .call(
            "move_type_to_file",
            json!({ "sourceFile": "src/shapes.rs", "symbolName": "Circle", "targetFile": "src/nowhere/round.rs" }),
        )
        .await
        .err();
    assert_eq!(answer["code"], "INVALID_TARGET_PATH", "{answer:#}");
    let message = answer["message"].as_str().unwrap_or_default();
    assert!(message.contains("src/nowhere/mod.rs"), "{message}");
    server.stop().await;
}

/// `move` (typemill's envelope) of a Rust function to another module: a
/// MovePlan first, then applied: the function is declared in the target,
/// which imports what it uses from its old module and no longer imports
/// the function; the crate still compiles, and the rollback restores it.
#[tokio::test]
async fn a_function_moves_to_another_module_and_the_crate_still_compiles() {
    let scratch = Scratch::new("refactor-move-symbol");
    let root = copy(&scratch, "rust");
    let before = files(&root);
    let server = McpServer::start(&root, &[]).await.expect("start lingo");
    let arguments = json!({
        "kind": "symbol",
        "source": { "file_path": "src/shapes.rs", "name": "area_of" },
        "destination": { "file_path": "src/report.rs" },
    });
    let plan = server.call("move", arguments.clone()).await.ok();
    assert_eq!(plan["plan_type"], "MovePlan", "{plan:#}");
    assert_eq!(plan["metadata"]["kind"], "move.symbol", "{plan:#}");
    assert_eq!(files(&root), before, "a plan writes nothing");
    let mut apply = arguments.clone();
    apply["dryRun"] = json!(false);
    let applied = server.call("move", apply).await.ok();
    let now = files(&root);
    let report = &now["src/report.rs"];
    assert!(report.contains("pub fn area_of("), "{report}");
    assert!(
        report.contains("/// The total area of some shapes."),
        "{report}"
    );
    assert!(!now["src/shapes.rs"].contains("fn area_of"), "{now:#?}");
    assert!(report.contains("Shape"), "{report}");
    let (compiles, output) = cargo_check(&root, &scratch.path().join("target"));
    assert!(compiles, "after the move:\n{output}\n{report}");
    server
        .call("rollback", json!({ "snapshot_id": applied["snapshot_id"] }))
        .await
        .ok();
    let _ = std::fs::remove_file(root.join("Cargo.lock"));
    assert_eq!(files(&root), before, "rollback");
    server.stop().await;
}

/// Roll back the change `applied` answered, then check every file under
/// `root` has its bytes of `before` again (a build's `Cargo.lock` aside).
async fn roll_back(
    server: &McpServer,
    applied: &Value,
    root: &Path,
    before: &std::collections::BTreeMap<String, String>,
    what: &str,
) {
    server
        .call("rollback", json!({ "snapshot_id": applied["snapshot_id"] }))
        .await
        .ok();
    let _ = std::fs::remove_file(root.join("Cargo.lock"));
    assert_eq!(&files(root), before, "{what}: rollback");
}

/// `move_type_to_namespace` (roslyn-move-contracts.md §1.2) on the C#
/// fixture: a type moved to a new namespace in its own file (with a `using`
/// for what it uses from its old one, and one in every file that uses it),
/// then, with `updateFileLocation`, a type alone in its file moved to the
/// folder of its new namespace (its old file deleted); each applied, compiled
/// with mcs, and rolled back byte for byte. The same tool moves a Rust type
/// to another module, which `cargo check` accepts.
#[tokio::test]
async fn types_move_to_another_namespace_and_still_compile() {
    let scratch = Scratch::new("refactor-namespace");
    let root = copy(&scratch, "csharp");
    to_csharp_7(&root);
    let out = scratch.path().join("csharp-build");
    let before = files(&root);
    let server = McpServer::start(&root, &[]).await.expect("start lingo");

    let arguments = json!({
        "sourceFile": "Shapes/Shapes.cs", "symbolName": "Square", "targetNamespace": "Geometry.Figures",
    });
    let mut preview = arguments.clone();
    preview["preview"] = json!(true);
    let previewed = server.call("move_type_to_namespace", preview).await.ok();
    assert_eq!(previewed["preview"], true, "{previewed:#}");
    assert_eq!(files(&root), before, "a preview writes nothing");

    let moved = server.call("move_type_to_namespace", arguments).await.ok();
    assert_eq!(moved["success"], true, "{moved:#}");
    assert_eq!(
        moved["symbol"]["previousNamespace"], "Geometry.Shapes",
        "{moved:#}"
    );
    assert_eq!(
        moved["symbol"]["newNamespace"], "Geometry.Figures",
        "{moved:#}"
    );
    assert_eq!(
        moved["symbol"]["fullyQualifiedName"],
        "Geometry.Figures.Square"
    );
    let now = files(&root);
    let shapes = &now["Shapes/Shapes.cs"];
    let block = shapes.find("namespace Geometry.Figures").expect(shapes);
    assert!(shapes[block..].contains("public class Square"), "{shapes}");
    assert!(!shapes[..block].contains("class Square"), "{shapes}");
    assert!(shapes.contains("using Geometry.Shapes;"), "{shapes}");
    assert!(
        now["Reports/Report.cs"].contains("using Geometry.Figures;"),
        "{}",
        now["Reports/Report.cs"]
    );
    assert!(
        moved["usingDirectivesAdded"].as_u64().unwrap() >= 2,
        "{moved:#}"
    );
    let (compiles, output) = compile("csharp", &root, &out);
    assert!(compiles, "after the move:\n{output}\n{now:#?}");
    roll_back(&server, &moved, &root, &before, "the namespace move").await;

    // Alone in its file, with the file's folder following the namespace.
    let relocated = server
        .call(
            "move_type_to_namespace",
            json!({
                "sourceFile": "Reports/Hexagon.cs", "symbolName": "Hexagon",
                "targetNamespace": "Geometry.Figures", "updateFileLocation": true,
            }),
        )
        .await
        .ok();
    assert_eq!(relocated["success"], true, "{relocated:#}");
    assert!(
        relocated["changes"]["filesDeleted"][0]
            .as_str()
            .unwrap()
            .ends_with("Reports/Hexagon.cs"),
        "{relocated:#}"
    );
    let now = files(&root);
    assert!(!now.contains_key("Reports/Hexagon.cs"), "{now:#?}");
    let hexagon = &now["Figures/Hexagon.cs"];
    assert!(hexagon.contains("namespace Geometry.Figures"), "{hexagon}");
    assert!(hexagon.contains("using Geometry.Shapes;"), "{hexagon}");
    let (compiles, output) = compile("csharp", &root, &out);
    assert!(compiles, "after the relocation:\n{output}\n{now:#?}");
    roll_back(&server, &relocated, &root, &before, "the relocation").await;

    // Refusals, before anything is written.
    for (arguments, code, field) in [
        (
            json!({ "sourceFile": "Shapes/Shapes.cs", "symbolName": "Square", "targetNamespace": "Geometry..Figures" }),
            "INVALID_NAMESPACE",
            "targetNamespace",
        ),
        (
            json!({ "sourceFile": "Shapes/Shapes.cs", "symbolName": "Square", "targetNamespace": "Geometry.Shapes" }),
            "SAME_LOCATION",
            "targetFile",
        ),
        (
            json!({ "sourceFile": "Shapes/Shapes.cs", "symbolName": "Circle", "targetNamespace": "Geometry.Legacy" }),
            "NAME_COLLISION",
            "targetFile",
        ),
        (
            json!({ "sourceFile": "Shapes/Shapes.cs", "symbolName": "Square" }),
            "MISSING_REQUIRED_PARAM",
            "targetNamespace",
        ),
    ] {
        let error = server
            .call("move_type_to_namespace", arguments.clone())
            .await
            .err();
        assert_eq!(error["code"], code, "{arguments}: {error:#}");
        assert_eq!(error["details"]["field"], field, "{arguments}: {error:#}");
    }
    assert_eq!(files(&root), before, "refusals write nothing");
    server.stop().await;

    // Where paths make modules, the namespace names a module.
    let rust = copy(&scratch, "rust");
    let rust_before = files(&rust);
    let server = McpServer::start(&rust, &[]).await.expect("start lingo");
    let moved = server
        .call(
            "move_type_to_namespace",
            json!({ "sourceFile": "src/shapes.rs", "symbolName": "Square", "targetNamespace": "crate::legacy" }),
        )
        .await
        .ok();
    assert_eq!(moved["success"], true, "{moved:#}");
    assert!(files(&rust)["src/legacy.rs"].contains("struct Square"));
    let (compiles, output) = cargo_check(&rust, &scratch.path().join("rust-build"));
    assert!(compiles, "{output}");
    roll_back(&server, &moved, &rust, &rust_before, "the Rust module move").await;
    server.stop().await;
}

/// `rename` of files and directories in every language: each applied,
/// checked (the moved files, the imports that name them), compiled, and
/// rolled back byte for byte (folders the rename emptied or made are gone
/// again).
#[tokio::test]
async fn files_and_directories_rename_with_their_imports_and_still_compile() {
    // (language, kind, path, new name, a file that must then contain a text)
    const RENAMES: &[(&str, &str, &str, &str, &str, &str)] = &[
        (
            "rust",
            "file",
            "src/shapes.rs",
            "geometry.rs",
            "src/lib.rs",
            "mod geometry;",
        ),
        (
            "typescript",
            "file",
            "src/shapes/shape.ts",
            "base.ts",
            "src/shapes/circle.ts",
            "\"./base\"",
        ),
        (
            "typescript",
            "directory",
            "src/shapes",
            "src/geometry",
            "src/report.ts",
            "\"./geometry\"",
        ),
        (
            "typescript",
            "file",
            "src/report.ts",
            "src/out/report.ts",
            "src/main.ts",
            "\"./out/report\"",
        ),
        (
            "go",
            "directory",
            "shapes",
            "geometry",
            "report/report.go",
            "/geometry\"",
        ),
        (
            "go",
            "file",
            "shapes/area.go",
            "sum.go",
            "shapes/sum.go",
            "package shapes",
        ),
        (
            "csharp",
            "directory",
            "Reports",
            "Out",
            "Out/Report.cs",
            "class Report",
        ),
        (
            "csharp",
            "file",
            "Shapes/Shapes.cs",
            "All.cs",
            "Shapes/All.cs",
            "class Circle",
        ),
    ];
    let scratch = Scratch::new("refactor-paths");
    for (step, &(language, kind, path, new_name, witness, text)) in RENAMES.iter().enumerate() {
        let root = scratch.path().join(format!("{step}"));
        for (file, content) in files(&fixture(&format!("nav/{language}"))) {
            scratch.write(&format!("{step}/{file}"), content);
        }
        if language == "csharp" {
            to_csharp_7(&root);
        }
        let out = scratch.path().join(format!("{step}-build"));
        let before = files(&root);
        let folders = |root: &Path| {
            let mut found = Vec::new();
            let mut pending = vec![root.to_path_buf()];
            while let Some(dir) = pending.pop() {
                for entry in std::fs::read_dir(&dir).unwrap().flatten() {
                    if entry.file_type().unwrap().is_dir() {
                        found.push(entry.path());
                        pending.push(entry.path());
                    }
                }
            }
            found.sort();
            found
        };
        let folders_before = folders(&root);
        let server = McpServer::start(&root, &[]).await.expect("start lingo");
        let arguments = json!({ "kind": kind, "target": { "path": path }, "new_name": new_name });
        let plan = server.call("rename", arguments.clone()).await.ok();
        assert_eq!(plan["dryRun"], true, "{language} {path}: {plan:#}");
        assert_eq!(files(&root), before, "{language}: a plan writes nothing");
        let mut apply = arguments.clone();
        apply["dryRun"] = json!(false);
        let applied = server.call("rename", apply).await.ok();
        let now = files(&root);
        assert!(!now.contains_key(path), "{language}: {path} still there");
        assert!(
            now.get(witness).is_some_and(|t| t.contains(text)),
            "{language} {kind} {path} -> {new_name}: {witness} should contain {text}:\n{now:#?}\n{applied:#}"
        );
        let (compiles, output) = builds(language, &root, &out);
        assert!(
            compiles,
            "{language} {kind} {path} -> {new_name}:\n{output}\n{now:#?}"
        );
        let _ = std::fs::remove_dir_all(root.join("target"));
        roll_back(
            &server,
            &applied,
            &root,
            &before,
            &format!("{language} {path}"),
        )
        .await;
        let mut after = folders(&root);
        after.retain(|f| !f.ends_with("target"));
        assert_eq!(
            after, folders_before,
            "{language} {path}: folders after rollback"
        );
        server.stop().await;
    }
}

/// Hostile and mistaken file and directory renames are refused with their
/// codes and fields, before anything is written.
#[tokio::test]
async fn bad_path_renames_are_refused_and_write_nothing() {
    let scratch = Scratch::new("refactor-bad-paths");
    let root = copy(&scratch, "typescript");
    let before = files(&root);
    let server = McpServer::start(&root, &[]).await.expect("start lingo");
    std::os::unix::fs::symlink("/etc", root.join("src/shapes/etc")).unwrap();
    let long = "a".repeat(100_000);
    for (arguments, code, field) in [
        (
            json!({ "kind": "file", "target": { "path": "src/main.ts" }, "new_name": "report.ts" }),
            "INVALID_TARGET_PATH",
            "targetFile",
        ),
        (
            json!({ "kind": "file", "target": { "path": "src/main.ts" }, "new_name": "../../../x.ts" }),
            "PATH_OUTSIDE_BOUNDARY",
            "",
        ),
        (
            json!({ "kind": "file", "target": { "path": "src/main.ts" }, "new_name": "main.txt" }),
            "INVALID_TARGET_PATH",
            "targetFile",
        ),
        (
            json!({ "kind": "file", "target": { "path": "src/main.ts" }, "new_name": long }),
            "INVALID_PARAM",
            "new_name",
        ),
        (
            json!({ "kind": "file", "target": { "path": "src/main.ts" }, "new_name": format!("{}.ts", "b".repeat(300)) }),
            "INVALID_TARGET_PATH",
            "targetFile",
        ),
        (
            json!({ "kind": "directory", "target": { "path": "src/shapes" }, "new_name": "src/shapes/inner" }),
            "INVALID_TARGET_PATH",
            "targetFile",
        ),
        (
            json!({ "kind": "directory", "target": { "path": "src/shapes" }, "new_name": "geometry" }),
            "INVALID_TARGET_PATH",
            "targetFile",
        ),
        (
            json!({ "kind": "file", "new_name": "x.ts" }),
            "MISSING_REQUIRED_PARAM",
            "target.path",
        ),
        (
            json!({ "kind": "file", "target": { "path": 7 }, "new_name": "x.ts" }),
            "INVALID_PARAM",
            "target.path",
        ),
        (
            json!({ "kind": "file", "target": { "path": "src/nowhere.ts" }, "new_name": "x.ts" }),
            "FILE_NOT_FOUND",
            "",
        ),
    ] {
        let mut apply = arguments.clone();
        apply["dryRun"] = json!(false);
        let error = server.call("rename", apply).await.err();
        assert_eq!(
            error["code"],
            code,
            "{:.200}: {error:#}",
            arguments.to_string()
        );
        if !field.is_empty() {
            assert_eq!(
                error["details"]["field"],
                field,
                "{:.200}: {error:#}",
                arguments.to_string()
            );
        }
    }
    std::fs::remove_file(root.join("src/shapes/etc")).unwrap();
    assert_eq!(files(&root), before, "refusals write nothing");
    server.stop().await;
}

/// Per language: files written into a copy of the navigation fixture
/// (path, text; a path already there gets the text appended), the names
/// `delete dead_code` must take out, and those it must keep.
type DeadCodeCase = (
    &'static str,
    &'static [(&'static str, &'static str)],
    &'static [&'static str],
    &'static [&'static str],
);

const DEAD_CODE: &[DeadCodeCase] = &[
    (
        "rust",
        &[
            ("src/lib.rs", "pub mod tidy;\n"),
            (
                "src/tidy.rs",
                r#"//! Helpers, some of them dead.

use std::collections::HashSet;
use std::fmt;

/// Counts distinct words; nothing calls it.
fn distinct_words(text: &str) -> usize {
    let seen: HashSet<&str> = text.split(' ').collect();
    only_the_dead_call_me(seen.len())
}

fn only_the_dead_call_me(n: usize) -> usize {
    n + 1
}

/// Named in a macro's body, which no reference fact sees.
fn named_in_a_macro() -> u32 {
    7
}

macro_rules! seven {
    () => {
        named_in_a_macro()
    };
}

/// Used by a test only.
fn tested_only() -> u32 {
    3
}

struct Label(String);

impl fmt::Display for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The module's API.
pub fn label() -> String {
    format!("{}{}", Label("x".into()), seven!())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three() {
        assert_eq!(tested_only(), 3);
    }
}
"#,
            ),
        ],
        &["distinct_words", "only_the_dead_call_me"],
        &[
            "named_in_a_macro",
            "tested_only",
            "fn fmt",
            "fn three",
            "pub fn label",
        ],
    ),
    (
        "go",
        &[
            (
                "shapes/tidy.go",
                r#"package shapes

import (
	"fmt"
	"strings"
)

// shout is dead: nothing calls it.
func shout(s string) string {
	return strings.ToUpper(exclaim(s))
}

func exclaim(s string) string {
	return s + "!"
}

// Describe is exported: kept.
func Describe(s Shape) string {
	return fmt.Sprintf("%v", s.Area())
}

var registered []string

func init() {
	registered = append(registered, "tidy")
}
"#,
            ),
            (
                "shapes/tidy_test.go",
                r#"package shapes

import "testing"

func helperForTests() int { return 2 }

func TestHelper(t *testing.T) {
	if helperForTests() != 2 {
		t.Fatal("two")
	}
}
"#,
            ),
        ],
        &["shout", "exclaim", "\"strings\""],
        &[
            "Describe",
            "func init",
            "helperForTests",
            "TestHelper",
            "\"fmt\"",
        ],
    ),
    (
        "typescript",
        &[(
            "src/tidy.ts",
            r#"import { Circle } from "./shapes/circle";

/** Nothing calls it. */
function unusedHelper(): number {
  return new Circle(1).area() + onlyDeadCallsMe();
}

function onlyDeadCallsMe(): number {
  return 2;
}

export class Counter {
  private count = 0;

  private unusedBump(): void {
    this.count += 1;
  }

  total(): number {
    return this.count;
  }
}

export function exported(): string {
  return "kept";
}
"#,
        )],
        &["unusedHelper", "onlyDeadCallsMe", "unusedBump", "Circle"],
        &["Counter", "total", "exported"],
    ),
    (
        "csharp",
        &[(
            "Shapes/Tidy.cs",
            r#"using System;

namespace Geometry.Shapes
{
    /// Some helpers.
    public class Tidy
    {
        /// Nothing calls it.
        private int UnusedHelper() { return OnlyDeadCallsMe() + 1; }

        private int OnlyDeadCallsMe() { return 2; }

        private string Named() { return "named"; }

        /// Reaches `Named` by name only.
        public string Describe() { return nameof(Named); }

        public override string ToString() { return "tidy"; }

        [Obsolete("old")]
        private void Attributed() { }
    }
}
"#,
        )],
        &["UnusedHelper", "OnlyDeadCallsMe", "Attributed"],
        &["Named()", "Describe", "ToString", "class Tidy"],
    ),
];

/// `delete` of dead code in every language: a dry run writes nothing and
/// plans only the dead (a private function only dead code calls included);
/// what a macro or `nameof` names, tests, trait and override members and
/// `init` stay; the imports only the dead used go (in Go, a compile
/// error otherwise); the result compiles; the rollback gives every byte
/// back.
#[tokio::test]
async fn dead_code_is_deleted_in_every_language_and_the_result_compiles() {
    let scratch = Scratch::new("refactor-dead-code");
    for &(language, written, dead, alive) in DEAD_CODE {
        let root = copy(&scratch, language);
        if language == "csharp" {
            to_csharp_7(&root);
        }
        let mut changed = Vec::new();
        for (path, text) in written {
            let existing = std::fs::read_to_string(root.join(path)).unwrap_or_default();
            std::fs::write(root.join(path), format!("{existing}{text}")).unwrap();
            changed.push(path.to_string());
        }
        let out = scratch.path().join(format!("{language}-build"));
        let (compiles, output) = builds(language, &root, &out);
        assert!(
            compiles,
            "{language}: the fixture does not compile:\n{output}"
        );
        let before = files(&root);
        let server = McpServer::start(&root, &[]).await.expect("start lingo");

        let plan = server
            .call("delete", json!({ "kind": "dead_code" }))
            .await
            .ok();
        assert_eq!(plan["metadata"]["kind"], "delete.dead_code", "{plan:#}");
        assert_eq!(files(&root), before, "{language}: a dry run wrote");
        let applied = server
            .call("apply_plan", json!({ "plan": plan }))
            .await
            .ok();
        assert_eq!(
            applied["success"], true,
            "{language}: {applied:#}\n{plan:#}"
        );
        let after = files(&root);
        let edited: Vec<&String> = after
            .iter()
            .filter(|(path, text)| before.get(*path) != Some(*text))
            .map(|(path, _)| path)
            .collect();
        assert!(
            edited.iter().all(|p| changed.contains(p)),
            "{language}: edited {edited:?}\n{plan:#}"
        );
        let text: String = changed.iter().map(|p| after[p].as_str()).collect();
        for name in dead {
            assert!(
                !text.contains(name),
                "{language}: `{name}` is left:\n{text}\n{plan:#}"
            );
        }
        for name in alive {
            assert!(
                text.contains(name),
                "{language}: `{name}` is gone:\n{text}\n{plan:#}"
            );
        }
        let (compiles, output) = builds(language, &root, &out);
        assert!(
            compiles,
            "{language}: after the deletion:\n{output}\n{text}"
        );
        // Nothing dead is left.
        let again = server
            .call("delete", json!({ "kind": "dead_code" }))
            .await
            .ok();
        assert_eq!(
            again["summary"]["affected_files"], 0,
            "{language}: {again:#}"
        );

        server
            .call("rollback", json!({ "snapshot_id": applied["snapshot_id"] }))
            .await
            .ok();
        assert_eq!(files(&root), before, "{language}: rollback");
        server.stop().await;
    }
}

/// A use written as a path through the old module follows a move where
/// the language writes module paths in code: `crate::shapes::Square` and
/// `shapes::Square` become `crate::legacy::Square`,
/// `Geometry.Shapes.Square` becomes `Geometry.Figures.Square`; a file that
/// uses it only so gets no import; the results compile and roll back.
#[tokio::test]
async fn qualified_uses_follow_a_move_to_another_module() {
    let scratch = Scratch::new("refactor-qualified");
    let rust = copy(&scratch, "rust");
    let lib = std::fs::read_to_string(rust.join("src/lib.rs")).unwrap();
    std::fs::write(rust.join("src/lib.rs"), format!("{lib}pub mod paths;\n")).unwrap();
    std::fs::write(
        rust.join("src/paths.rs"),
        "//! Shapes named by their paths.\n\nuse crate::shapes;\n\n\
         pub fn unit_side() -> f64 {\n    crate::shapes::Square { side: 1.0 }.side\n}\n\n\
         pub fn double_side() -> f64 {\n    shapes::Square { side: 2.0 }.side + shapes::area_of(&[])\n}\n",
    )
    .unwrap();
    let out = scratch.path().join("rust-build");
    let (compiles, output) = cargo_check(&rust, &out);
    assert!(compiles, "the fixture does not compile:\n{output}");
    let _ = std::fs::remove_file(rust.join("Cargo.lock"));
    let before = files(&rust);
    let server = McpServer::start(&rust, &[]).await.expect("start lingo");
    let moved = server
        .call(
            "move_type_to_namespace",
            json!({ "sourceFile": "src/shapes.rs", "symbolName": "Square", "targetNamespace": "crate::legacy" }),
        )
        .await
        .ok();
    assert_eq!(moved["success"], true, "{moved:#}");
    let paths = &files(&rust)["src/paths.rs"];
    assert!(
        paths.contains("crate::legacy::Square { side: 1.0 }"),
        "{paths}"
    );
    assert!(
        paths.contains("crate::legacy::Square { side: 2.0 }"),
        "{paths}"
    );
    assert!(!paths.contains("shapes::Square"), "{paths}");
    assert!(!paths.contains("use crate::legacy"), "{paths}");
    assert!(
        !moved.to_string().contains("POTENTIAL_BEHAVIOR_CHANGE"),
        "{moved:#}"
    );
    let (compiles, output) = cargo_check(&rust, &out);
    assert!(compiles, "after the move:\n{output}\n{paths}");
    roll_back(&server, &moved, &rust, &before, "the Rust move").await;
    server.stop().await;

    let csharp = copy(&scratch, "csharp");
    to_csharp_7(&csharp);
    std::fs::write(
        csharp.join("Reports/Paths.cs"),
        "namespace Geometry.Reports\n{\n    public static class Paths\n    {\n        \
         public static double UnitSide() { return new Geometry.Shapes.Square(1).Side; }\n    }\n}\n",
    )
    .unwrap();
    let out = scratch.path().join("csharp-build");
    let (compiles, output) = compile("csharp", &csharp, &out);
    assert!(compiles, "the fixture does not compile:\n{output}");
    let before = files(&csharp);
    let server = McpServer::start(&csharp, &[]).await.expect("start lingo");
    let moved = server
        .call(
            "move_type_to_namespace",
            json!({ "sourceFile": "Shapes/Shapes.cs", "symbolName": "Square", "targetNamespace": "Geometry.Figures" }),
        )
        .await
        .ok();
    assert_eq!(moved["success"], true, "{moved:#}");
    let paths = &files(&csharp)["Reports/Paths.cs"];
    assert!(paths.contains("new Geometry.Figures.Square(1)"), "{paths}");
    assert!(!paths.contains("using"), "{paths}");
    let (compiles, output) = compile("csharp", &csharp, &out);
    assert!(compiles, "after the move:\n{output}\n{paths}");
    roll_back(&server, &moved, &csharp, &before, "the C# move").await;
    server.stop().await;
}

/// A Go function moved to another package: the new package imports what
/// it uses from its old one and names it through the package (`Shape`
/// becomes `shapes.Shape`); a file of another package that called
/// `shapes.AreaOf` calls `measure.AreaOf` and imports `measure`; it builds
/// (go build, go vet) and rolls back. A type whose methods stay behind and
/// a move that would make two packages import each other are refused
/// before anything is written.
#[tokio::test]
async fn a_go_function_moves_to_another_package_and_still_builds() {
    let scratch = Scratch::new("refactor-go-package");
    let root = copy(&scratch, "go");
    scratch.write(
        "go/report/both.go",
        "package report\n\n// Both is the summary and the summary twice.\nfunc Both(radius float64) string {\n\treturn Summary(radius, radius) + Twice(radius)\n}\n",
    );
    let out = scratch.path().join("go-build");
    let (compiles, output) = compile("go", &root, &out);
    assert!(compiles, "the fixture does not compile:\n{output}");
    let before = files(&root);
    let server = McpServer::start(&root, &[]).await.expect("start lingo");

    let moved = server
        .call(
            "move",
            json!({
                "kind": "symbol",
                "source": { "file_path": "shapes/area.go", "name": "AreaOf" },
                "destination": { "file_path": "measure/measure.go" },
                "dryRun": false,
            }),
        )
        .await
        .ok();
    assert_eq!(moved["success"], true, "{moved:#}");
    let now = files(&root);
    let measure = &now["measure/measure.go"];
    assert!(measure.starts_with("package measure"), "{measure}");
    assert!(
        measure.contains("\"example.com/geometry/shapes\""),
        "{measure}"
    );
    assert!(measure.contains("[]shapes.Shape"), "{measure}");
    let report = &now["report/report.go"];
    assert!(report.contains("measure.AreaOf("), "{report}");
    assert!(!report.contains("shapes.AreaOf"), "{report}");
    assert!(
        report.contains("\"example.com/geometry/measure\""),
        "{report}"
    );
    let (compiles, output) = compile("go", &root, &out);
    assert!(compiles, "after the move:\n{output}\n{now:#?}");
    roll_back(&server, &moved, &root, &before, "the package move").await;

    // A type without methods: what it embeds is named through its package.
    let moved = server
        .call(
            "move_type_to_file",
            json!({ "sourceFile": "shapes/shapes.go", "symbolName": "Polygon", "targetFile": "measure/polygon.go" }),
        )
        .await
        .ok();
    assert_eq!(moved["success"], true, "{moved:#}");
    let polygon = &files(&root)["measure/polygon.go"];
    assert!(polygon.contains("type Polygon interface"), "{polygon}");
    assert!(polygon.contains("\tshapes.Shape\n"), "{polygon}");
    let (compiles, output) = compile("go", &root, &out);
    assert!(compiles, "after the type move:\n{output}\n{polygon}");
    roll_back(&server, &moved, &root, &before, "the type move").await;

    for (arguments, reason) in [(
        json!({ "sourceFile": "shapes/shapes.go", "symbolName": "Square", "targetFile": "measure/square.go" }),
        "method",
    )] {
        let error = server
            .call("move_type_to_file", arguments.clone())
            .await
            .err();
        assert!(error.to_string().contains(reason), "{arguments}: {error:#}");
    }
    // `Twice` calls `Summary`, which stays, and `Both` calls `Twice`: the
    // new package would import `report`, which would import it.
    let cycle = server
        .call(
            "move",
            json!({
                "kind": "symbol",
                "source": { "file_path": "report/report.go", "name": "Twice" },
                "destination": { "file_path": "measure/measure.go" },
            }),
        )
        .await;
    let cycle = cycle.err();
    assert_eq!(cycle["code"], "INVALID_TARGET_PATH", "{cycle:#}");
    assert!(cycle.to_string().contains("import each other"), "{cycle:#}");
    assert_eq!(files(&root), before, "refusals write nothing");
    server.stop().await;
}

/// `move` of kind `consolidate`: every declaration of a Rust module file
/// (a struct, its trait impl, a private helper only they use) into another
/// module's file, as one plan; the emptied file and its `mod` declaration
/// gone, its user importing from the new module; `cargo check` passes, and
/// the rollback gives every byte back.
#[tokio::test]
async fn a_module_consolidates_into_another_and_the_crate_still_compiles() {
    let scratch = Scratch::new("refactor-consolidate");
    let root = copy(&scratch, "rust");
    let lib = std::fs::read_to_string(root.join("src/lib.rs")).unwrap();
    std::fs::write(
        root.join("src/lib.rs"),
        format!("{lib}pub mod extra;\npub mod tri;\n"),
    )
    .unwrap();
    scratch.write(
        "rust/src/extra.rs",
        "//! Extra shapes.\n\nuse crate::shapes::Shape;\n\n/// A triangle.\npub struct Triangle {\n    pub base: f64,\n    pub height: f64,\n}\n\n\
         impl Shape for Triangle {\n    fn area(&self) -> f64 {\n        half(self.base * self.height)\n    }\n}\n\n\
         fn half(x: f64) -> f64 {\n    x / 2.0\n}\n",
    );
    scratch.write(
        "rust/src/tri.rs",
        "//! A unit triangle.\n\nuse crate::extra::Triangle;\n\n\
         pub fn unit() -> f64 {\n    crate::shapes::area_of(&[&Triangle { base: 1.0, height: 1.0 }])\n}\n",
    );
    let out = scratch.path().join("rust-build");
    let (compiles, output) = cargo_check(&root, &out);
    assert!(compiles, "the fixture does not compile:\n{output}");
    let _ = std::fs::remove_file(root.join("Cargo.lock"));
    let before = files(&root);
    let server = McpServer::start(&root, &[]).await.expect("start lingo");

    let plan = server
        .call(
            "move",
            json!({
                "kind": "consolidate",
                "source": { "file_path": "src/extra.rs" },
                "destination": { "file_path": "src/shapes.rs" },
            }),
        )
        .await
        .ok();
    assert_eq!(plan["metadata"]["kind"], "move.consolidate", "{plan:#}");
    assert_eq!(files(&root), before, "a dry run writes nothing");
    let applied = server
        .call("apply_plan", json!({ "plan": plan }))
        .await
        .ok();
    assert_eq!(applied["success"], true, "{applied:#}\n{plan:#}");
    let now = files(&root);
    assert!(!now.contains_key("src/extra.rs"), "{now:#?}");
    assert!(
        !now["src/lib.rs"].contains("mod extra"),
        "{}",
        now["src/lib.rs"]
    );
    let shapes = &now["src/shapes.rs"];
    for part in ["pub struct Triangle", "impl Shape for Triangle", "fn half("] {
        assert!(shapes.contains(part), "{part}:\n{shapes}");
    }
    assert!(
        now["src/tri.rs"].contains("use crate::shapes::Triangle;"),
        "{}",
        now["src/tri.rs"]
    );
    let (compiles, output) = cargo_check(&root, &out);
    assert!(compiles, "after the consolidation:\n{output}\n{now:#?}");
    roll_back(&server, &applied, &root, &before, "the consolidation").await;

    // Nothing to consolidate, and a source that is the destination.
    for (arguments, code) in [
        (
            json!({ "kind": "consolidate", "source": { "file_path": "src/lib.rs" }, "destination": { "file_path": "src/shapes.rs" } }),
            "INVALID_TARGET_PATH",
        ),
        (
            json!({ "kind": "consolidate", "source": { "file_path": "src/extra.rs" }, "destination": { "file_path": "src/extra.rs" } }),
            "SAME_LOCATION",
        ),
        (
            json!({ "kind": "consolidate", "source": { "file_path": "src/extra.rs" } }),
            "MISSING_REQUIRED_PARAM",
        ),
    ] {
        let error = server.call("move", arguments.clone()).await.err();
        assert_eq!(error["code"], code, "{arguments}: {error:#}");
    }
    assert_eq!(files(&root), before, "refusals write nothing");
    server.stop().await;
}

/// (language, files written into the fixture, the file consolidated, its
/// destination, a text the destination must then hold, the file using it
/// and what it must then say).
type ConsolidationCase = (
    &'static str,
    &'static [(&'static str, &'static str)],
    &'static str,
    &'static str,
    &'static str,
    (&'static str, &'static str),
);

const CONSOLIDATIONS: &[ConsolidationCase] = &[
    (
        "typescript",
        &[
            (
                "src/extra.ts",
                "import { Shape } from \"./shapes/shape\";\n\n/** A triangle. */\nexport class Triangle implements Shape {\n  constructor(public base: number, public height: number) {}\n\n  area(): number {\n    return half(this.base * this.height);\n  }\n}\n\nfunction half(x: number): number {\n  return x / 2;\n}\n",
            ),
            (
                "src/tri.ts",
                "import { Triangle } from \"./extra\";\n\nexport function unit(): number {\n  return new Triangle(1, 1).area();\n}\n",
            ),
        ],
        "src/extra.ts",
        "src/triangles.ts",
        "export class Triangle implements Shape",
        ("src/tri.ts", "from \"./triangles\""),
    ),
    (
        "go",
        &[(
            "shapes/extra.go",
            "package shapes\n\n// Triangle is a triangle.\ntype Triangle struct {\n\tBase, Height float64\n}\n\n// Area of the triangle.\nfunc (t Triangle) Area() float64 {\n\treturn half(t.Base * t.Height)\n}\n\nfunc half(x float64) float64 {\n\treturn x / 2\n}\n",
        )],
        "shapes/extra.go",
        "shapes/area.go",
        "func (t Triangle) Area() float64",
        ("shapes/area.go", "func half(x float64) float64"),
    ),
    (
        "csharp",
        &[(
            "Shapes/Extra.cs",
            "namespace Geometry.Shapes\n{\n    /// A triangle.\n    public class Triangle : IShape\n    {\n        public double Base, Height;\n        public double Area() { return Halves.Half(Base * Height); }\n    }\n\n    static class Halves\n    {\n        public static double Half(double x) { return x / 2; }\n    }\n}\n",
        )],
        "Shapes/Extra.cs",
        "Shapes/Shapes.cs",
        "public class Triangle : IShape",
        ("Shapes/Shapes.cs", "static class Halves"),
    ),
];

/// `move` of kind `consolidate` in TypeScript (into a new file, its user
/// importing from there), Go (into another file of the package, methods
/// with their type) and C# (into another file of the namespace): applied,
/// compiled (tsc, go build + vet, mcs) and rolled back byte for byte.
#[tokio::test]
async fn consolidations_in_typescript_go_and_csharp_still_compile() {
    let scratch = Scratch::new("refactor-consolidations");
    for &(language, written, source, destination, declared, (user, says)) in CONSOLIDATIONS {
        let root = copy(&scratch, language);
        if language == "csharp" {
            to_csharp_7(&root);
        }
        for (path, text) in written {
            scratch.write(&format!("{language}/{path}"), text);
        }
        let out = scratch.path().join(format!("{language}-build"));
        let (compiles, output) = compile(language, &root, &out);
        assert!(
            compiles,
            "{language}: the fixture does not compile:\n{output}"
        );
        let before = files(&root);
        let server = McpServer::start(&root, &[]).await.expect("start lingo");
        let applied = server
            .call(
                "move",
                json!({
                    "kind": "consolidate",
                    "source": { "file_path": source },
                    "destination": { "file_path": destination },
                    "dryRun": false,
                }),
            )
            .await
            .ok();
        assert_eq!(applied["success"], true, "{language}: {applied:#}");
        let now = files(&root);
        assert!(!now.contains_key(source), "{language}: {now:#?}");
        assert!(
            now[destination].contains(declared),
            "{language}: {}",
            now[destination]
        );
        assert!(now[user].contains(says), "{language}: {}", now[user]);
        let (compiles, output) = compile(language, &root, &out);
        assert!(
            compiles,
            "{language}: after the consolidation:\n{output}\n{now:#?}"
        );
        roll_back(&server, &applied, &root, &before, language).await;
        server.stop().await;
    }
}

/// A consolidation into another package warns that the packages'
/// manifests are not merged, so applying it needs `force`.
#[tokio::test]
async fn a_consolidation_across_packages_warns_that_manifests_are_not_merged() {
    let scratch = Scratch::new("refactor-consolidate-packages");
    let root = scratch.path().join("ts");
    scratch.write("ts/a/package.json", "{ \"name\": \"a\" }\n");
    scratch.write(
        "ts/a/src/extra.ts",
        "export function twice(n: number): number {\n  return n * 2;\n}\n",
    );
    scratch.write("ts/b/package.json", "{ \"name\": \"b\" }\n");
    scratch.write("ts/b/src/main.ts", "export const one = 1;\n");
    let before = files(&root);
    let server = McpServer::start(&root, &[]).await.expect("start lingo");
    let plan = server
        .call(
            "move",
            json!({
                "kind": "consolidate",
                "source": { "file_path": "a/src/extra.ts" },
                "destination": { "file_path": "b/src/main.ts" },
            }),
        )
        .await
        .ok();
    let warned = plan["warnings"].as_array().unwrap().iter().any(|w| {
        w["code"] == "POTENTIAL_BEHAVIOR_CHANGE"
            && w["message"].as_str().unwrap().contains("manifests")
    });
    assert!(warned, "{plan:#}");
    let refused = server
        .call("apply_plan", json!({ "plan": plan }))
        .await
        .err();
    assert!(refused.to_string().contains("force"), "{refused:#}");
    assert_eq!(files(&root), before, "nothing written");
    server.stop().await;
}

/// The task an agent was given: move the public function `escape_into`
/// out of a crate's root into a new module `escape`, keeping
/// `thecrate::escape_into` working. The move creates `src/escape.rs` and
/// its `mod escape;`; the moved function's imports are ones rustc accepts
/// (never `use super;`), the old place re-exports it publicly, and a test
/// target that names the crate still compiles.
#[tokio::test]
async fn a_public_function_moved_out_of_the_crate_root_stays_reachable_by_its_old_path() {
    let scratch = Scratch::new("refactor-move-escape");
    let root = scratch.path().join("thecrate");
    scratch.write(
        "thecrate/Cargo.toml",
        "[package]\nname = \"thecrate\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\n",
    );
    scratch.write(
        "thecrate/src/lib.rs",
        "const QUOTE: char = '\"';\n\nfn is_special(c: char) -> bool {\n    c == QUOTE || c == '\\\\'\n}\n\n/// Writes `text` into `out`, escaped.\npub fn escape_into(text: &str, out: &mut String) {\n    for c in text.chars() {\n        if is_special(c) {\n            out.push('\\\\');\n        }\n        out.push(c);\n    }\n}\n\npub fn escape(text: &str) -> String {\n    let mut out = String::new();\n    escape_into(text, &mut out);\n    out\n}\n",
    );
    scratch.write(
        "thecrate/tests/api.rs",
        "#[test]\nfn escapes() {\n    let mut out = String::new();\n    thecrate::escape_into(\"a\\\"b\", &mut out);\n    assert_eq!(out, \"a\\\\\\\"b\");\n}\n",
    );
    let server = McpServer::start(&root, &[]).await.expect("start lingo");
    let applied = server
        .call(
            "move",
            json!({
                "kind": "symbol",
                "source": { "file_path": "src/lib.rs", "name": "escape_into" },
                "destination": { "file_path": "src/escape.rs" },
                "dryRun": false,
            }),
        )
        .await
        .ok();
    let now = files(&root);
    let moved = &now["src/escape.rs"];
    assert!(moved.contains("pub fn escape_into("), "{moved}");
    assert!(now["src/lib.rs"].contains("mod escape;"), "{now:#?}");
    assert!(!moved.contains("use super;"), "{moved}");
    let (compiles, output) = cargo_check(&root, &scratch.path().join("target"));
    assert!(compiles, "after the move:\n{output}\n{now:#?}\n{applied:#}");
    let tests = std::process::Command::new(env!("CARGO"))
        .args(["check", "--offline", "--quiet", "--tests"])
        .current_dir(&root)
        .env("CARGO_TARGET_DIR", scratch.path().join("target"))
        .output()
        .expect("run cargo check --tests");
    assert!(
        tests.status.success(),
        "the test target names the crate:\n{}\n{now:#?}",
        String::from_utf8_lossy(&tests.stderr)
    );
    server.stop().await;
}

/// Where the plugin writes no re-export (Go), a public declaration moved
/// out of its package's root says which path breaks, and applying needs
/// `force`.
#[tokio::test]
async fn a_public_go_function_moved_out_of_the_root_package_names_the_path_that_breaks() {
    let scratch = Scratch::new("refactor-move-go-root");
    let root = scratch.path().join("m");
    scratch.write("m/go.mod", "module example.com/m\n\ngo 1.21\n");
    scratch.write(
        "m/m.go",
        "package m\n\n// Exported is the package's API.\nfunc Exported() int {\n\treturn 1\n}\n",
    );
    scratch.write(
        "m/sub/sub.go",
        "package sub\n\nfunc Other() int {\n\treturn 2\n}\n",
    );
    let server = McpServer::start(&root, &[]).await.expect("start lingo");
    let arguments = json!({
        "kind": "symbol",
        "source": { "file_path": "m.go", "name": "Exported" },
        "destination": { "file_path": "sub/sub.go" },
    });
    let plan = server.call("move", arguments.clone()).await.ok();
    let warning = plan["warnings"]
        .as_array()
        .expect("warnings")
        .iter()
        .find(|w| w["code"] == "POTENTIAL_BEHAVIOR_CHANGE")
        .unwrap_or_else(|| panic!("no warning: {plan:#}"));
    assert_eq!(
        warning["sites"],
        json!(["example.com/m.Exported"]),
        "{plan:#}"
    );
    let mut apply = arguments;
    apply["dryRun"] = json!(false);
    let refused = server.call("move", apply).await.err();
    assert_eq!(refused["code"], "POTENTIAL_BEHAVIOR_CHANGE", "{refused:#}");
    server.stop().await;
}

/// Java, checked by javac: a public class moved to another package with
/// its file (`com.geo.shapes.Square` to `com.geo.legacy`, the folder that
/// mirrors it): the new file declares the package, the user in a third
/// package imports it from there, and the result compiles; the rollback
/// gives every byte back.
#[tokio::test]
async fn a_java_class_moves_to_another_package_and_still_compiles() {
    let scratch = Scratch::new("refactor-move-java");
    let root = copy(&scratch, "java");
    let out = scratch.path().join("java-build");
    let source = "src/main/java/com/geo/shapes/Square.java";
    let target = "src/main/java/com/geo/legacy/Square.java";
    let before = files(&root);
    let server = McpServer::start(&root, &[]).await.expect("start lingo");
    let moved = server
        .call(
            "move_type_to_namespace",
            json!({
                "sourceFile": source,
                "symbolName": "Square",
                "targetNamespace": "com.geo.legacy",
                "updateFileLocation": true,
            }),
        )
        .await
        .ok();
    assert_eq!(moved["success"], true, "{moved:#}");
    let now = files(&root);
    assert!(!now.contains_key(source), "{now:#?}");
    assert!(
        now[target].starts_with("package com.geo.legacy;"),
        "{now:#?}"
    );
    let report = &now["src/main/java/com/geo/report/Report.java"];
    assert!(report.contains("import com.geo.legacy.Square;"), "{report}");
    assert!(
        !report.contains("import com.geo.shapes.Square;"),
        "{report}"
    );
    let (compiles, output) = compile("java", &root, &out);
    assert!(compiles, "java: after the move:\n{output}\n{now:#?}");
    server
        .call("rollback", json!({ "snapshot_id": moved["snapshot_id"] }))
        .await
        .ok();
    assert_eq!(files(&root), before, "java: rollback");
    server.stop().await;
}
