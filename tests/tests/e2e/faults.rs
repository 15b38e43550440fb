//! Faults a hosted server must survive: killed (SIGKILL) while indexing and
//! while writing the index database, then restarted and answering
//! correctly; two servers on one cache directory; a project's root deleted
//! while it is served.

use std::time::{Duration, Instant};

use lingo_e2e::Scratch;
use lingo_e2e::hosted::{HostedServer, HttpClient};
use serde_json::{Value, json};

const TOKEN: &str = "secret-faults-0123456789";
const FILES: usize = 600;
const FUNCTIONS: usize = 20;

fn tokens() -> String {
    format!("[[token]]\nname = \"t\"\nsecret = \"{TOKEN}\"\nprojects = [\"*\"]\nadmin = true\n")
}

/// `FILES` Rust files of `FUNCTIONS` functions each, named with `version`.
fn write_tree(dir: &Scratch, folder: &str, version: &str) {
    for file in 0..FILES {
        let text: String = (0..FUNCTIONS)
            .map(|f| format!("pub fn {version}_fn_{file}_{f}() -> usize {{\n    {f}\n}}\n\n"))
            .collect();
        dir.write(&format!("{folder}/src/f{file}.rs"), text);
    }
}

/// The project's health once it is indexed and quiet.
async fn settled(client: &HttpClient, project: &str) -> Value {
    let started = Instant::now();
    loop {
        let health = client
            .ok("health_check", json!({ "projectId": project }))
            .await;
        let workspace = &health["workspace"];
        if workspace["state"] == "Ready" && workspace["fileCount"] == FILES {
            return workspace.clone();
        }
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "{project} never settled: {workspace}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The number of declarations named `{version}_fn_…` the project has.
async fn count(client: &HttpClient, project: &str, version: &str) -> u64 {
    total(client, project, &format!("{version}_fn_")).await
}

/// The number of declarations matching `query`.
async fn total(client: &HttpClient, project: &str, query: &str) -> u64 {
    let answer = client
        .ok(
            "search_symbols",
            json!({ "projectId": project, "query": query, "limit": 1 }),
        )
        .await;
    answer["total"].as_u64().expect("total")
}

/// Check the project answers exactly the tree of `version`.
async fn answers_exactly(client: &HttpClient, project: &str, version: &str, stale: &str) {
    let health = settled(client, project).await;
    assert_eq!(health["symbolCount"], FILES * FUNCTIONS, "{health}");
    assert_eq!(
        count(client, project, version).await,
        (FILES * FUNCTIONS) as u64
    );
    assert_eq!(count(client, project, stale).await, 0);
    let last = format!("{version}_fn_{}_{}", FILES - 1, FUNCTIONS - 1);
    let definition = client
        .ok(
            "find_definition",
            json!({ "projectId": project, "symbol": last }),
        )
        .await;
    assert!(
        definition
            .to_string()
            .contains(&format!("src/f{}.rs", FILES - 1)),
        "{definition}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn killed_while_indexing_or_writing_the_index_it_restarts_and_answers_correctly() {
    let dir = Scratch::new("faults-kill");
    write_tree(&dir, "app", "first");
    let projects = "[[project]]\nid = \"app\"\nroot = \"app\"\n";
    let mut server = HostedServer::start_in(dir, projects, Some(&tokens()), &[])
        .await
        .expect("server starts");
    // Killed at several points of the first index (its database written
    // as files are analysed), restarted each time.
    for delay_ms in [30, 150, 400, 900] {
        tokio::time::sleep(Duration::from_millis(delay_ms)).await;
        server = server.restart(&[]).await.expect("restarts");
    }
    let client = server.connect(Some(TOKEN)).await.expect("session");
    answers_exactly(&client, "app", "first", "second").await;

    // Every file changes; killed while the new facts are written.
    let root = server.dir().join("app");
    for (delay_ms, version) in [(0, "second"), (100, "third"), (300, "second")] {
        for file in 0..FILES {
            let path = root.join(format!("src/f{file}.rs"));
            let text = std::fs::read_to_string(&path).unwrap();
            let next = ["first", "second", "third"].iter().fold(text, |text, old| {
                text.replace(&format!("{old}_fn_"), &format!("{version}_fn_"))
            });
            std::fs::write(&path, next).unwrap();
        }
        tokio::time::sleep(Duration::from_millis(delay_ms)).await;
        server = server.restart(&[]).await.expect("restarts");
    }
    let client = server.connect(Some(TOKEN)).await.expect("session");
    answers_exactly(&client, "app", "second", "first").await;
    assert_eq!(count(&client, "app", "third").await, 0);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_on_one_cache_directory_both_answer_and_see_changes() {
    let tree = Scratch::new("faults-two-tree");
    write_tree(&tree, "app", "first");
    let root = tree.path().join("app");
    let dir = Scratch::new("faults-two-a");
    let projects = format!("[[project]]\nid = \"app\"\nroot = \"{}\"\n", root.display());
    let second_dir = Scratch::new("faults-two-b");
    let tokens = tokens();
    let (one, two) = tokio::join!(
        HostedServer::start_in(dir, &projects, Some(&tokens), &[]),
        HostedServer::start_in(second_dir, &projects, Some(&tokens), &[]),
    );
    let (one, two) = (one.expect("first starts"), two.expect("second starts"));
    let (a, b) = (
        one.connect(Some(TOKEN)).await.expect("session"),
        two.connect(Some(TOKEN)).await.expect("session"),
    );
    answers_exactly(&a, "app", "first", "second").await;
    answers_exactly(&b, "app", "first", "second").await;
    std::fs::write(
        root.join("src/f0.rs"),
        "pub fn changed_while_shared() -> usize {\n    1\n}\n",
    )
    .unwrap();
    for client in [&a, &b] {
        let started = Instant::now();
        loop {
            if total(client, "app", "changed_while_shared").await == 0 {
                assert!(
                    started.elapsed() < Duration::from_secs(30),
                    "change never seen"
                );
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
            assert_eq!(
                count(client, "app", "first").await,
                ((FILES - 1) * FUNCTIONS) as u64
            );
            break;
        }
    }
    one.stop().await;
    // The survivor restarts on the database both wrote.
    let two = two.restart(&[]).await.expect("restarts");
    let b = two.connect(Some(TOKEN)).await.expect("session");
    let started = Instant::now();
    while b.ok("health_check", json!({ "projectId": "app" })).await["workspace"]["state"] != "Ready"
    {
        assert!(started.elapsed() < Duration::from_secs(60));
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(total(&b, "app", "changed_while_shared").await, 1);
    assert_eq!(
        count(&b, "app", "first").await,
        ((FILES - 1) * FUNCTIONS) as u64
    );
    two.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_project_root_deleted_while_served_answers_errors_and_the_others_go_on() {
    let dir = Scratch::new("faults-deleted");
    dir.write("gone/src/lib.rs", "pub fn doomed() {}\n");
    dir.write("kept/src/lib.rs", "pub fn survivor() {}\n");
    let projects = "[[project]]\nid = \"gone\"\nroot = \"gone\"\n\n[[project]]\nid = \"kept\"\nroot = \"kept\"\n";
    let server = HostedServer::start_in(dir, projects, Some(&tokens()), &[])
        .await
        .expect("server starts");
    let client = server.connect(Some(TOKEN)).await.expect("session");
    let started = Instant::now();
    while total(&client, "gone", "doomed").await == 0 {
        assert!(started.elapsed() < Duration::from_secs(60));
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    std::fs::remove_dir_all(server.dir().join("gone")).unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    for (tool, arguments) in [
        ("search_symbols", json!({ "query": "doomed" })),
        ("outline", json!({ "path": "src/lib.rs" })),
        ("find_references", json!({ "symbol": "doomed" })),
        ("get_diagnostics", json!({})),
        ("health_check", json!({})),
    ] {
        let mut arguments: Value = arguments;
        arguments["projectId"] = json!("gone");
        let result = client
            .call(tool, arguments.clone())
            .await
            .unwrap_or_else(|e| {
                panic!(
                    "{tool} on a deleted root: protocol error {e}\n{}",
                    server.log()
                )
            });
        // An answer about what no longer exists, or a structured refusal.
        if result.is_error == Some(true) {
            let value = result.structured_content.expect("structured");
            assert!(value["error"]["code"].is_string(), "{tool}: {value}");
        }
    }
    let gone = client
        .ok(
            "search_symbols",
            json!({ "projectId": "gone", "query": "doomed" }),
        )
        .await;
    assert_eq!(gone["total"], 0, "a deleted file is not answered: {gone}");
    let kept = client
        .ok(
            "search_symbols",
            json!({ "projectId": "kept", "query": "survivor" }),
        )
        .await;
    assert_eq!(kept["total"], 1, "{kept}");
    assert!(server.memory().is_some(), "the server is alive");
    // The administrator removes it.
    client
        .ok("remove_project", json!({ "projectId": "gone" }))
        .await;
    server.stop().await;
}
