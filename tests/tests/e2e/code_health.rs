//! The code-health tools end to end: `analyze_duplicates` on a workspace
//! of four languages written for it (an exact copy in Rust, a renamed one
//! in Go, one copied from TypeScript into JavaScript, C# methods with a
//! line inserted), files whose plugin gives no tokens listed, and hostile
//! arguments refused with their field; `analyze_code_churn` on a git
//! history written for it (commits dated, two authors, a merge, a file
//! changed before the period and one lingo does not index);
//! `analyze_defect_probability`'s factors on a history where one file is
//! complex, often changed and depended on, and without a history;
//! `analyze_name_similarity` over names in four languages.

use lingo_e2e::{McpServer, Scratch};
use serde_json::{Value, json};

const RUST_SCORE: &str = "pub fn score(values: &[i64], bonus: i64) -> i64 {
    let mut total = 0;
    for value in values {
        if *value > 10 {
            total += value * 2;
        } else if *value < 0 {
            total -= 1;
        } else {
            total += bonus;
        }
    }
    total
}
";

const GO_SCORE: &str = "func Score(values []int, bonus int) int {
	total := 0
	for _, value := range values {
		if value > 10 {
			total += value * 2
		} else if value < 0 {
			total -= 1
		} else {
			total += bonus
		}
	}
	return total
}
";

const GO_RATE: &str = "func Rate(items []int, extra int) int {
	sum := 0
	for _, item := range items {
		if item > 10 {
			sum += item * 2
		} else if item < 0 {
			sum -= 1
		} else {
			sum += extra
		}
	}
	return sum
}
";

const CLAMP: &str = "export function clamp(value, low, high) {
  let total = value + low + high;
  if (value < low) {
    return low;
  }
  if (value > high) {
    return high;
  }
  const span = high - low;
  return value - span * 0 + total;
}
";

const PRICES: &str = "namespace Shop
{
    public class Prices
    {
        public int Total(int[] items, int bonus)
        {
            int total = 0;
            foreach (var item in items)
            {
                total += item * 2;
            }
            if (total > 100)
            {
                total -= bonus;
            }
            int extra = total / 3;
            total += extra % 7;
            return total + bonus;
        }

        public int Discounted(int[] items, int bonus)
        {
            int total = 0;
            foreach (var item in items)
            {
                total += item * 2;
            }
            System.Console.WriteLine(total);
            if (total > 100)
            {
                total -= bonus;
            }
            int extra = total / 3;
            total += extra % 7;
            return total + bonus;
        }
    }
}
";

/// `type: place, place` of each group (places as `path:start-end`).
fn groups(answer: &Value) -> Vec<String> {
    answer["groups"]
        .as_array()
        .unwrap_or_else(|| panic!("no groups: {answer:#}"))
        .iter()
        .map(|g| {
            let places: Vec<String> = g["fragments"]
                .as_array()
                .unwrap()
                .iter()
                .map(|f| {
                    format!(
                        "{}:{}-{}",
                        f["file_path"].as_str().unwrap(),
                        f["start_line"],
                        f["end_line"]
                    )
                })
                .collect();
            format!("{}: {}", g["type"].as_str().unwrap(), places.join(", "))
        })
        .collect()
}

#[tokio::test]
async fn clones_are_found_in_every_language_and_across_two() {
    let scratch = Scratch::new("health-duplicates");
    let root = scratch.path();
    scratch.write("rust/src/lib.rs", "pub mod a;\npub mod b;\n");
    scratch.write("rust/src/a.rs", RUST_SCORE);
    scratch.write(
        "rust/src/b.rs",
        format!("pub fn other() -> u8 {{\n    3\n}}\n\n{RUST_SCORE}"),
    );
    scratch.write("go/a.go", format!("package p\n\n{GO_SCORE}"));
    scratch.write("go/b.go", format!("package p\n\n{GO_RATE}"));
    scratch.write("web/a.ts", CLAMP);
    scratch.write("web/b.js", format!("// Copied.\n{CLAMP}"));
    scratch.write("cs/Prices.cs", PRICES);
    let server = McpServer::start(root, &[]).await.expect("start lingo");

    let answer = server
        .call("analyze_duplicates", json!({ "threshold": 0.7 }))
        .await
        .ok();
    let found = groups(&answer);
    for expected in [
        "exact: rust/src/a.rs:1-13, rust/src/b.rs:5-17",
        "renamed: go/a.go:1-15, go/b.go:1-15",
        "exact: web/a.ts:1-11, web/b.js:2-12",
        "gapped: cs/Prices.cs:5-19, cs/Prices.cs:21-36",
    ] {
        assert!(
            found.contains(&expected.to_string()),
            "{expected} not in {found:#?}"
        );
    }
    assert_eq!(found.len(), 4, "{found:#?}");
    let summary = &answer["summary"];
    assert_eq!(
        summary["by_type"],
        json!({ "exact": 2, "renamed": 1, "gapped": 1 })
    );
    assert_eq!(summary["files_with_clones"], 7, "{summary:#}");
    assert_eq!(answer["unread"], json!([]));
    // The share of each file: all 13 lines of a.rs, 13 of b.rs's 17.
    let b = answer["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["file_path"] == "rust/src/b.rs")
        .unwrap();
    assert_eq!(
        (b["duplicated_lines"].as_u64(), b["total_lines"].as_u64()),
        (Some(13), Some(17))
    );

    // One type at a time, one folder at a time, and a page of one.
    let exact = server
        .call("analyze_duplicates", json!({ "detection_type": "exact" }))
        .await
        .ok();
    assert_eq!(
        exact["summary"]["by_type"],
        json!({ "exact": 2, "renamed": 0, "gapped": 0 })
    );
    let go = server
        .call("analyze_duplicates", json!({ "project_path": "go" }))
        .await
        .ok();
    assert_eq!(groups(&go), ["renamed: go/a.go:1-15, go/b.go:1-15"]);
    // The root's absolute path is the project (as clients send
    // `project_path`); an absolute folder inside it is that folder; the file
    // system's root is outside it.
    let absolute = root.to_string_lossy().into_owned();
    for whole in [absolute.clone(), format!("{absolute}/")] {
        let answer = server
            .call(
                "analyze_duplicates",
                json!({ "threshold": 0.7, "project_path": whole }),
            )
            .await
            .ok();
        assert_eq!(groups(&answer).len(), 4, "{whole}: {answer:#}");
        let complexity = server
            .call(
                "analyze_complexity",
                json!({ "project_path": whole, "toolchain": "go" }),
            )
            .await
            .ok();
        assert_eq!(complexity["summary"]["files"], 2, "{whole}: {complexity:#}");
    }
    let go_absolute = server
        .call(
            "analyze_duplicates",
            json!({ "project_path": format!("{absolute}/go") }),
        )
        .await
        .ok();
    assert_eq!(groups(&go_absolute), groups(&go));
    let outside = server
        .call("analyze_duplicates", json!({ "project_path": "/" }))
        .await
        .code();
    assert_eq!(outside, "PATH_OUTSIDE_BOUNDARY");
    let page = server
        .call(
            "analyze_duplicates",
            json!({ "threshold": 0.7, "limit": 1 }),
        )
        .await;
    assert!(!page.is_error, "{:#}", page.value);
    assert_eq!(page.value["pagination"]["has_more"], true);
    let text = page.text;
    assert!(
        text.starts_with("duplicates: 4 groups (2 exact, 1 renamed, 1 gapped)"),
        "{text}"
    );
    assert!(text.contains("next page: analyze_duplicates {"), "{text}");

    // Longer clones only: none here is 200 tokens long.
    let long = server
        .call("analyze_duplicates", json!({ "min_tokens": 200 }))
        .await
        .ok();
    assert_eq!(long["summary"]["clone_groups"], 0);

    // The gate's duplication check: more than half of the lines are
    // copies; each file above the threshold is a violation at its clone.
    let verdict = server
        .call("quality_gate", json!({ "duplication_threshold": 50 }))
        .await
        .ok();
    assert_eq!(verdict["passed"], false, "{verdict:#}");
    let check = verdict["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "duplication")
        .unwrap();
    assert_eq!(check["status"], "failed", "{verdict:#}");
    let a = verdict["violations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["file_path"] == "rust/src/a.rs")
        .unwrap_or_else(|| panic!("{verdict:#}"));
    assert_eq!(a["value"], 100.0);
    assert_eq!(a["range"]["start"]["line"], 0);
    let lenient = server
        .call("quality_gate", json!({ "duplication_threshold": 90 }))
        .await
        .ok();
    assert_eq!(lenient["passed"], true, "{lenient:#}");
    server.stop().await;
}

#[tokio::test]
async fn hostile_duplicates_arguments_are_refused_with_their_field() {
    let scratch = Scratch::new("health-hostile");
    scratch.write("a.rs", RUST_SCORE);
    let server = McpServer::start(scratch.path(), &[])
        .await
        .expect("start lingo");
    for (arguments, code, field) in [
        (
            json!({ "detection_type": "semantic" }),
            "INVALID_PARAM",
            "detection_type",
        ),
        (
            json!({ "detection_type": "exactly" }),
            "INVALID_PARAM",
            "detection_type",
        ),
        (json!({ "threshold": 2 }), "INVALID_PARAM", "threshold"),
        (json!({ "threshold": "high" }), "INVALID_PARAM", "threshold"),
        (json!({ "min_tokens": 1 }), "INVALID_PARAM", "min_tokens"),
        (
            json!({ "min_lines": 1u64 << 40 }),
            "INVALID_PARAM",
            "min_lines",
        ),
        (json!({ "limit": 0 }), "INVALID_PARAM", "limit"),
        (
            json!({ "project_path": "../outside" }),
            "PATH_OUTSIDE_BOUNDARY",
            "",
        ),
        (json!({ "bogus": true }), "UNKNOWN_PARAM", ""),
    ] {
        let error = server
            .call("analyze_duplicates", arguments.clone())
            .await
            .err();
        assert_eq!(error["code"], code, "{arguments}: {error:#}");
        if !field.is_empty() {
            assert_eq!(error["details"]["field"], field, "{arguments}: {error:#}");
        }
    }
    server.stop().await;
}

/// Run `git` in `dir` with `args`, as `author` at `days_ago` days before
/// now (author and committer dates).
fn git(dir: &std::path::Path, author: &str, days_ago: i64, args: &[&str]) {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64;
    let date = format!("@{} +0000", now - days_ago * 86_400);
    let status = std::process::Command::new("git")
        .current_dir(dir)
        .args(["-c", &format!("user.name={author}")])
        .args(["-c", &format!("user.email={author}@example.com")])
        .args([
            "-c",
            "commit.gpgsign=false",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args)
        .env("GIT_AUTHOR_DATE", &date)
        .env("GIT_COMMITTER_DATE", &date)
        .output()
        .expect("run git");
    assert!(
        status.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&status.stderr)
    );
}

#[tokio::test]
async fn churn_counts_the_commits_of_the_period_from_the_history() {
    let scratch = Scratch::new("health-churn");
    let root = scratch.path();
    git(root, "alice", 50, &["init", "-q"]);
    scratch.write("src/old.rs", "pub fn old() {}\n");
    git(root, "alice", 50, &["add", "."]);
    git(root, "alice", 50, &["commit", "-q", "-m", "old"]);
    scratch.write("src/lib.rs", "pub fn f() {}\n".repeat(10));
    scratch.write("README.md", "# notes\n");
    git(root, "alice", 10, &["add", "."]);
    git(root, "alice", 10, &["commit", "-q", "-m", "lib"]);
    // A branch changing lib.rs, merged: its commit counts once.
    git(root, "bob", 6, &["checkout", "-q", "-b", "side"]);
    scratch.write(
        "src/lib.rs",
        format!(
            "{}pub fn g() {{}}\npub fn h() {{}}\n",
            "pub fn f() {}\n".repeat(9)
        ),
    );
    git(root, "bob", 6, &["commit", "-q", "-am", "side"]);
    git(root, "alice", 5, &["checkout", "-q", "main"]);
    scratch.write("src/other.rs", "pub fn other() {}\n");
    git(root, "alice", 5, &["add", "."]);
    git(root, "alice", 5, &["commit", "-q", "-m", "other"]);
    git(
        root,
        "alice",
        4,
        &["merge", "-q", "--no-ff", "-m", "merge", "side"],
    );

    let server = McpServer::start(root, &[]).await.expect("start lingo");
    let month = server
        .call("analyze_code_churn", json!({ "project_path": "." }))
        .await
        .ok();
    let rows: Vec<String> = month["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            format!(
                "{} {} +{} -{} {}",
                f["file_path"].as_str().unwrap(),
                f["commits"],
                f["lines_added"],
                f["lines_deleted"],
                f["author_count"]
            )
        })
        .collect();
    // lib.rs: added (10 lines), then one line replaced by two on the branch.
    assert_eq!(
        rows,
        ["src/lib.rs 2 +12 -1 2", "src/other.rs 1 +1 -0 1"],
        "{month:#}"
    );
    assert_eq!(month["files"][0]["churn_score"], 1.0);
    assert_eq!(
        month["files"][0]["authors"],
        json!(["alice@example.com", "bob@example.com"])
    );
    // Three commits in the period (the merge not counted): README.md's
    // counts there but is not code lingo indexes.
    assert_eq!(month["summary"]["commits"], 3, "{month:#}");
    assert_eq!(month["summary"]["files_changed"], 2);
    let longer = server
        .call(
            "analyze_code_churn",
            json!({ "project_path": "src", "period_days": 60 }),
        )
        .await
        .ok();
    assert_eq!(longer["summary"]["commits"], 4);
    assert_eq!(longer["summary"]["files_changed"], 3);
    let text = server
        .call(
            "analyze_code_churn",
            json!({ "project_path": ".", "limit": 1 }),
        )
        .await
        .text;
    assert!(
        text.contains("src/lib.rs score 1.0: 2 commits +12 -1 by 2 authors"),
        "{text}"
    );
    assert!(text.contains("next page: analyze_code_churn"), "{text}");
    for (arguments, code, field) in [
        (
            json!({ "project_path": ".", "period_days": 0 }),
            "INVALID_PARAM",
            "period_days",
        ),
        (
            json!({ "project_path": ".", "period_days": 100_000 }),
            "INVALID_PARAM",
            "period_days",
        ),
        (
            json!({ "period_days": 3 }),
            "MISSING_REQUIRED_PARAM",
            "project_path",
        ),
        (
            json!({ "project_path": "../.." }),
            "PATH_OUTSIDE_BOUNDARY",
            "",
        ),
    ] {
        let error = server
            .call("analyze_code_churn", arguments.clone())
            .await
            .err();
        assert_eq!(error["code"], code, "{arguments}: {error:#}");
        if !field.is_empty() {
            assert_eq!(error["details"]["field"], field, "{arguments}: {error:#}");
        }
    }
    server.stop().await;
}

#[tokio::test]
async fn churn_without_a_repository_says_so() {
    // Outside the build tree, which is itself in a repository.
    let root = std::env::temp_dir().join(format!("lingo-churn-none-{}", std::process::id()));
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(root.join("a.rs"), "pub fn a() {}\n").unwrap();
    let server = McpServer::start(&root, &[]).await.expect("start lingo");
    let outcome = server
        .call("analyze_code_churn", json!({ "project_path": "." }))
        .await;
    server.stop().await;
    let _ = std::fs::remove_dir_all(&root);
    if std::process::Command::new("git")
        .args(["-C", root.parent().unwrap().to_str().unwrap(), "rev-parse"])
        .output()
        .is_ok_and(|o| o.status.success())
    {
        // The temporary folder is in a repository on this machine.
        return;
    }
    let error = outcome.err();
    assert_eq!(error["code"], "GIT_HISTORY_UNAVAILABLE", "{error:#}");
    assert_eq!(error["details"]["path"], ".");
}

const TANGLED: &str = "use crate::plain::half;

pub fn tangled(n: i32, m: i32) -> i32 {
    let mut total = 0;
    for i in 0..n {
        if i % 2 == 0 && m > 0 {
            total += half(i);
        } else if i % 3 == 0 || m < 0 {
            total -= 1;
        } else {
            while total > 100 {
                total /= 2;
            }
        }
    }
    total
}
";

#[tokio::test]
async fn defect_probability_shows_each_factor() {
    let scratch = Scratch::new("health-defects");
    let root = scratch.path();
    git(root, "alice", 20, &["init", "-q"]);
    scratch.write("src/lib.rs", "pub mod plain;\npub mod tangled;\n");
    scratch.write(
        "src/plain.rs",
        "pub fn half(n: i32) -> i32 {\n    n / 2\n}\n",
    );
    scratch.write("src/tangled.rs", TANGLED);
    git(root, "alice", 20, &["add", "."]);
    git(root, "alice", 20, &["commit", "-q", "-m", "start"]);
    for day in 1..5 {
        scratch.write("src/tangled.rs", format!("{TANGLED}// change {day}\n"));
        git(root, "bob", 20 - day, &["commit", "-q", "-am", "change"]);
    }
    let server = McpServer::start(root, &[]).await.expect("start lingo");
    let answer = server
        .call("analyze_defect_probability", json!({}))
        .await
        .ok();
    let first = &answer["files"][0];
    assert_eq!(first["file_path"], "src/tangled.rs", "{answer:#}");
    assert_eq!(first["confidence"], 1.0);
    let factor = |name: &str| {
        first["factors"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["name"] == name)
            .unwrap_or_else(|| panic!("no {name}: {first:#}"))
            .clone()
    };
    // 1 + for + if + && + else if + || + while = 7.
    assert_eq!(factor("complexity")["value"], 7.0, "{first:#}");
    assert_eq!(factor("complexity")["normalized"], 0.412);
    // Five commits: the first and four changes.
    assert_eq!(factor("churn")["value"], 5.0, "{first:#}");
    assert_eq!(factor("duplication")["value"], 0.0);
    // Its `use crate::plain::half` names the crate root (lib.rs) and
    // plain.rs; nothing refers into it.
    assert_eq!(factor("coupling")["value"], 2.0, "{first:#}");
    assert_eq!(
        factor("coupling")["explanation"],
        "depends on 2 files, 0 depend on it"
    );
    let sum: f64 = first["factors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["contribution"].as_f64().unwrap())
        .sum();
    assert!(
        (sum - first["probability"].as_f64().unwrap()).abs() < 0.002,
        "{first:#}"
    );
    assert_eq!(answer["summary"]["files_analyzed"], 3);
    let text = server
        .call("analyze_defect_probability", json!({ "limit": 1 }))
        .await
        .text;
    assert!(text.contains("src/tangled.rs"), "{text}");
    assert!(text.contains("complexity 0."), "{text}");
    assert!(
        text.contains("highest cyclomatic complexity of a function: 7"),
        "{text}"
    );

    // Gated when asked: tangled.rs is above 0.3, plain.rs is not.
    let verdict = server
        .call("quality_gate", json!({ "defect_threshold": 0.3 }))
        .await
        .ok();
    let defects: Vec<&str> = verdict["violations"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|v| v["check"] == "defect_probability")
        .map(|v| v["file_path"].as_str().unwrap())
        .collect();
    assert_eq!(defects, ["src/tangled.rs"], "{verdict:#}");
    let error = server
        .call(
            "analyze_defect_probability",
            json!({ "min_confidence": 1.5 }),
        )
        .await
        .err();
    assert_eq!(error["details"]["field"], "min_confidence");
    server.stop().await;
}

#[tokio::test]
async fn defect_probability_without_history_is_less_confident() {
    let root = std::env::temp_dir().join(format!("lingo-defects-none-{}", std::process::id()));
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(
        root.join("a.rs"),
        TANGLED.replace("use crate::plain::half;", "fn half(n: i32) -> i32 { n }"),
    )
    .unwrap();
    let server = McpServer::start(&root, &[]).await.expect("start lingo");
    let answer = server
        .call("analyze_defect_probability", json!({}))
        .await
        .ok();
    let strict = server
        .call(
            "analyze_defect_probability",
            json!({ "min_confidence": 0.8 }),
        )
        .await
        .ok();
    server.stop().await;
    let _ = std::fs::remove_dir_all(&root);
    if answer["unmeasured"].as_array().is_none_or(Vec::is_empty) {
        // The temporary folder is in a repository on this machine.
        return;
    }
    // Churn's weight (0.25) is not measured.
    assert_eq!(answer["files"][0]["confidence"], 0.75, "{answer:#}");
    assert!(
        answer["unmeasured"][0]
            .as_str()
            .unwrap()
            .starts_with("churn")
    );
    assert_eq!(strict["summary"]["files_reported"], 0);
    assert_eq!(strict["summary"]["files_analyzed"], 1);
}

#[tokio::test]
async fn similar_names_are_found_by_words_and_by_sound() {
    let scratch = Scratch::new("health-names");
    scratch.write("web/cart.ts", "export function calculateTotal(): number { return 1; }\nexport function computeSum(): number { return 2; }\n");
    scratch.write(
        "rust/src/lib.rs",
        "pub fn calc_total() -> u32 {\n    3\n}\n\npub struct TotalCalculator;\n",
    );
    scratch.write(
        "go/paint.go",
        "package paint\n\nfunc FetchColor() int { return 4 }\n",
    );
    scratch.write(
        "cs/Shop.cs",
        "class Shop\n{\n    int CalculateTotalPrice() { return 5; }\n}\n",
    );
    let server = McpServer::start(scratch.path(), &[])
        .await
        .expect("start lingo");
    let names = |answer: &Value| -> Vec<String> {
        answer["matches"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["name"].as_str().unwrap().to_string())
            .collect()
    };
    let answer = server
        .call(
            "analyze_name_similarity",
            json!({ "query": "calculateTotal", "top_k": 4 }),
        )
        .await
        .ok();
    assert_eq!(
        names(&answer),
        // Its words in order beat the same words reordered.
        [
            "calculateTotal",
            "calc_total",
            "CalculateTotalPrice",
            "TotalCalculator"
        ],
        "{answer:#}"
    );
    assert_eq!(answer["matches"][0]["score"], 1.0);
    assert_eq!(
        answer["matches"][0]["places"][0]["file_path"],
        "web/cart.ts"
    );
    assert_eq!(answer["query_words"], json!(["calculate", "total"]));
    let types = server
        .call(
            "analyze_name_similarity",
            json!({ "query": "calculateTotal", "scope": "types", "top_k": 5 }),
        )
        .await
        .ok();
    assert_eq!(names(&types), ["TotalCalculator", "Shop"], "{types:#}");
    let sound = server
        .call(
            "analyze_name_similarity",
            json!({ "query": "fetchColour", "phonetic": true, "top_k": 1 }),
        )
        .await;
    assert!(!sound.is_error, "{:#}", sound.value);
    assert_eq!(sound.value["matches"][0]["name"], "FetchColor");
    assert_eq!(sound.value["matches"][0]["phonetic_match"], true);
    assert!(
        sound
            .text
            .contains("FetchColor sounds alike: function go/paint.go:3"),
        "{}",
        sound.text
    );
    for (arguments, field) in [
        (json!({ "query": "" }), "query"),
        (json!({ "query": "42" }), "query"),
        (json!({ "query": "x".repeat(300) }), "query"),
        (json!({ "query": "total", "scope": "galaxies" }), "scope"),
        (json!({ "query": "total", "top_k": 0 }), "top_k"),
        (json!({ "query": "total", "phonetic": "yes" }), "phonetic"),
        (json!({}), "query"),
    ] {
        let error = server
            .call("analyze_name_similarity", arguments.clone())
            .await
            .err();
        assert_eq!(error["details"]["field"], field, "{arguments}: {error:#}");
    }
    server.stop().await;
}

/// A Rust crate with one function over the complexity limit, a FIXME,
/// a copied function and a dead helper.
fn messy_crate(scratch: &Scratch) {
    let branchy: String = (0..12)
        .map(|i| format!("    if n == {i} {{\n        return {};\n    }}\n", i * 3))
        .collect();
    scratch.write("src/lib.rs", "pub mod messy;\npub mod copy;\n");
    scratch.write(
        "src/messy.rs",
        format!(
            "// FIXME: the table below is wrong for 11.\npub fn branchy(n: u32) -> u32 {{\n{branchy}    0\n}}\n\nfn never_called() -> u32 {{\n    7\n}}\n\n{RUST_SCORE}"
        ),
    );
    scratch.write(
        "src/copy.rs",
        format!("// TODO: share with messy.rs\n{RUST_SCORE}"),
    );
}

#[tokio::test]
async fn deep_context_combines_the_analyses_into_a_report() {
    let scratch = Scratch::new("health-deep");
    messy_crate(&scratch);
    let server = McpServer::start(scratch.path(), &[])
        .await
        .expect("start lingo");
    let outcome = server.call("analyze_deep_context", json!({})).await;
    assert!(!outcome.is_error, "{:#}", outcome.value);
    let report = &outcome.value;
    assert_eq!(
        report["analyses_run"],
        json!([
            "ast",
            "complexity",
            "churn",
            "dag",
            "dead-code",
            "satd",
            "duplicates",
            "defect-probability",
            "tdg"
        ])
    );
    let satd = &report["analyses"]["satd"];
    assert_eq!(
        (satd["high"].as_u64(), satd["low"].as_u64()),
        (Some(1), Some(1)),
        "{satd:#}"
    );
    assert_eq!(satd["items"][0]["marker"], "FIXME");
    assert_eq!(satd["items"][0]["file_path"], "src/messy.rs");
    assert_eq!(satd["items"][0]["line"], 1);
    assert_eq!(report["analyses"]["complexity"]["summary"]["violations"], 1);
    // The copied function, across the two files (branchy's twelve
    // alike `if`s are a clone of their own).
    let groups = report["analyses"]["duplicates"]["groups"]
        .as_array()
        .unwrap();
    assert!(
        groups.iter().any(|g| {
            let places: Vec<&str> = g["fragments"]
                .as_array()
                .unwrap()
                .iter()
                .map(|f| f["file_path"].as_str().unwrap())
                .collect();
            places == ["src/copy.rs", "src/messy.rs"]
        }),
        "{groups:#?}"
    );
    assert_eq!(
        report["analyses"]["dead_code"]["items"][0]["symbol"],
        "never_called"
    );
    let card = &report["quality_scorecard"];
    for key in [
        "overall_health",
        "complexity_score",
        "maintainability_index",
        "duplication_percentage",
        "technical_debt_hours",
    ] {
        assert!(card[key].is_number(), "{key}: {card:#}");
    }
    // Hours are a formula over the findings, and say so.
    assert_eq!(card["estimate"], "formula", "{card:#}");
    for recommendation in report["recommendations"].as_array().unwrap() {
        assert_eq!(recommendation["estimate"], "formula", "{recommendation:#}");
    }
    for hotspot in report["hotspots"].as_array().into_iter().flatten() {
        assert_eq!(hotspot["estimate"], "formula", "{hotspot:#}");
    }
    // Three of the four functions (branchy, never_called, score twice)
    // are within the limits.
    assert_eq!(card["complexity_score"], 75.0, "{card:#}");
    assert_eq!(report["file_tree"]["files"], 3);
    assert_eq!(report["file_tree"]["children"][0]["name"], "src");
    let titles: Vec<&str> = report["recommendations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["title"].as_str().unwrap())
        .collect();
    for title in [
        "Reduce code complexity",
        "Remove duplicated code",
        "Delete dead code",
        "Resolve the defects the comments admit",
    ] {
        assert!(titles.contains(&title), "{title}: {titles:?}");
    }
    // Churn needs a repository the scratch folder may be in or not; its
    // absence is said, never guessed.
    assert!(
        report["analyses"].get("churn").is_some()
            || report["unmeasured"]
                .as_array()
                .unwrap()
                .iter()
                .any(|u| u.as_str().unwrap().starts_with("churn")),
        "{report:#}"
    );
    // The suggested call is one `delete` accepts, and it finds the helper.
    let call = report["recommendations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["title"] == "Delete dead code")
        .unwrap()["refactor_call"]
        .clone();
    assert_eq!(call["command"], "delete");
    let plan = server.call("delete", call["arguments"].clone()).await.ok();
    // One edit: never_called's lines (42-45) out of messy.rs.
    let change = &plan["edits"]["documentChanges"][0];
    assert_eq!(change["textDocument"]["uri"], "src/messy.rs", "{plan:#}");
    assert_eq!(change["edits"][0]["range"]["start"]["line"], 41, "{plan:#}");
    assert_eq!(plan["summary"]["text_edits"], 1, "{plan:#}");
    assert!(
        outcome
            .text
            .starts_with("# Deep context\nScorecard: health "),
        "{}",
        outcome.text
    );
    assert!(
        outcome.text.contains("## Recommendations"),
        "{}",
        outcome.text
    );

    // The same comments, per file, in typemill's envelope.
    let todos = server
        .call("analyze_documentation", json!({ "kind": "todos" }))
        .await
        .ok();
    let found: Vec<String> = todos["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            format!(
                "{} {} {} {}",
                f["severity"].as_str().unwrap(),
                f["location"]["file_path"].as_str().unwrap(),
                f["location"]["range"]["start"]["line"],
                f["metrics"]["todo_count"]
            )
        })
        .collect();
    assert_eq!(
        found,
        ["high src/messy.rs 0 1", "low src/copy.rs 0 1"],
        "{todos:#}"
    );
    let only = server
        .call(
            "analyze_deep_context",
            json!({ "include_analyses": ["satd", "ast"], "max_depth": 0 }),
        )
        .await
        .ok();
    assert_eq!(only["analyses_run"], json!(["ast", "satd"]));
    assert!(only["file_tree"]["children"].is_null());
    for (arguments, field) in [
        (
            json!({ "include_analyses": ["astrology"] }),
            "include_analyses",
        ),
        (
            json!({ "exclude_analyses": ["ast", "complexity", "churn", "dag", "dead-code", "satd", "duplicates", "defect-probability", "tdg"] }),
            "exclude_analyses",
        ),
        (json!({ "max_depth": 99 }), "max_depth"),
        (
            json!({ "include_patterns": ["[unclosed"] }),
            "include_patterns",
        ),
    ] {
        let error = server
            .call("analyze_deep_context", arguments.clone())
            .await
            .err();
        assert_eq!(error["details"]["field"], field, "{arguments}: {error:#}");
    }
    server.stop().await;
}

#[tokio::test]
async fn comprehensive_runs_what_is_asked_and_says_what_it_cannot() {
    let scratch = Scratch::new("health-comprehensive");
    messy_crate(&scratch);
    let server = McpServer::start(scratch.path(), &[])
        .await
        .expect("start lingo");
    let all = server
        .call("analyze_comprehensive", json!({ "perf": true }))
        .await
        .ok();
    for key in [
        "complexity",
        "duplicates",
        "dead_code",
        "defect_probability",
        "tdg",
        "perf",
        "hotspots",
    ] {
        assert!(!all[key].is_null(), "{key}: {all:#}");
    }
    // The gradient is its stated formula: 5 × the weighted mean of the
    // factors measured (churn is not: the scratch has no git history).
    let tdg = &all["tdg"];
    assert_eq!(tdg["estimate"], json!("formula"), "{tdg:#}");
    assert!(tdg["summary"]["files"].as_u64().unwrap() > 0, "{tdg:#}");
    for file in tdg["files"].as_array().unwrap() {
        let factors = file["factors"].as_array().unwrap();
        let names: Vec<&str> = factors
            .iter()
            .map(|f| f["name"].as_str().unwrap())
            .collect();
        assert_eq!(
            names,
            ["complexity", "coupling", "duplication", "debt_comments"],
            "{file:#}"
        );
        let weight: f64 = factors.iter().map(|f| f["weight"].as_f64().unwrap()).sum();
        let weighted: f64 = factors
            .iter()
            .map(|f| f["weight"].as_f64().unwrap() * f["value"].as_f64().unwrap())
            .sum();
        let score = file["score"].as_f64().unwrap();
        assert!((score - 5.0 * weighted / weight).abs() < 0.01, "{file:#}");
        assert_eq!(file["confidence"], json!(0.65), "{file:#}");
    }
    let only_tdg = server
        .call("analyze_comprehensive", json!({ "include_tdg": true }))
        .await
        .ok();
    assert_eq!(only_tdg["summary"]["analyses"], json!(["tdg"]));
    assert!(only_tdg["complexity"].is_null());
    let one = server
        .call(
            "analyze_comprehensive",
            json!({ "include_duplicates": true, "min_lines": 20 }),
        )
        .await
        .ok();
    assert_eq!(one["summary"]["analyses"], json!(["duplicates"]));
    // The copy is 13 lines: under 20, no clone.
    assert_eq!(one["duplicates"]["summary"]["clone_groups"], 0, "{one:#}");
    assert!(one["complexity"].is_null());
    let summary = server
        .call(
            "analyze_comprehensive",
            json!({ "executive_summary": true }),
        )
        .await
        .ok();
    assert!(summary["complexity"].is_null());
    assert!(
        summary["recommendations"]
            .as_array()
            .is_some_and(|r| !r.is_empty())
    );
    for (arguments, field) in [
        (
            json!({ "include_complexity": false, "include_duplicates": false }),
            "include_complexity",
        ),
        (json!({ "include_defects": "yes" }), "include_defects"),
        (
            json!({ "confidence_threshold": -1 }),
            "confidence_threshold",
        ),
        (json!({ "min_lines": 0 }), "min_lines"),
    ] {
        let error = server
            .call("analyze_comprehensive", arguments.clone())
            .await
            .err();
        assert_eq!(error["details"]["field"], field, "{arguments}: {error:#}");
    }
    server.stop().await;
}

/// The official SARIF 2.1.0 schema, compiled once.
fn sarif_validator() -> jsonschema::Validator {
    let path = lingo_e2e::fixture("sarif").join("sarif-schema-2.1.0.json");
    // `run.language`'s pattern ends in a lone `]`, a literal in the
    // ECMA-262 regular expressions JSON Schema uses but an error to the
    // validator's regex engine: escaped here, the same pattern.
    let text = std::fs::read_to_string(path)
        .unwrap()
        .replace(r#"[a-zA-Z]{2}]?$""#, r#"[a-zA-Z]{2}\\]?$""#);
    let schema: Value = serde_json::from_str(&text).unwrap();
    jsonschema::validator_for(&schema).expect("the SARIF schema compiles")
}

/// Every error of `log` against the SARIF schema.
fn sarif_errors(validator: &jsonschema::Validator, log: &Value) -> Vec<String> {
    validator
        .iter_errors(log)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect()
}

#[tokio::test]
async fn sarif_logs_validate_against_the_official_schema() {
    let scratch = Scratch::new("health-sarif");
    messy_crate(&scratch);
    let validator = sarif_validator();
    // Through the CLI, for every analysis that has a SARIF form.
    for (analysis, extra, rule) in [
        ("quality", "{}", "complexity_hotspot"),
        ("dead_code", "{}", "unused_symbol"),
        ("quality_gate", "{}", "quality-gate/complexity"),
        ("duplicates", "{}", "duplicate-code/exact"),
        ("defect_probability", r#"{"min_confidence": 0}"#, ""),
        ("documentation", "{}", ""),
        ("tests", "{}", ""),
        ("cycles", "{}", ""),
    ] {
        let output = std::process::Command::new(lingo_e2e::lingo_bin())
            .args(["analyze", analysis, "--format", "sarif", "--args", extra])
            .arg("--root")
            .arg(scratch.path())
            .arg("--cache-dir")
            .arg(lingo_e2e::cache_dir())
            .output()
            .expect("run lingo analyze");
        assert!(
            output.status.code().is_some_and(|c| c < 2),
            "{analysis}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        let log: Value = serde_json::from_slice(&output.stdout)
            .unwrap_or_else(|e| panic!("{analysis}: not JSON ({e})"));
        let errors = sarif_errors(&validator, &log);
        assert!(errors.is_empty(), "{analysis}: {errors:#?}\n{log:#}");
        assert_eq!(log["version"], "2.1.0");
        assert_eq!(log["runs"][0]["tool"]["driver"]["name"], "lingo");
        if !rule.is_empty() {
            let rules: Vec<&str> = log["runs"][0]["results"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r["ruleId"].as_str().unwrap())
                .collect();
            assert!(rules.contains(&rule), "{analysis}: {rules:?}");
        }
    }
    // The quality gate's violation is where the function is.
    let server = McpServer::start(scratch.path(), &[])
        .await
        .expect("start lingo");
    let outcome = server
        .call("quality_gate", json!({ "format": "sarif" }))
        .await;
    assert!(!outcome.is_error, "{:#}", outcome.value);
    let log: Value = serde_json::from_str(&outcome.text).expect("the text is the SARIF log");
    assert!(sarif_errors(&validator, &log).is_empty());
    let result = &log["runs"][0]["results"][0];
    assert_eq!(result["level"], "error");
    let location = &result["locations"][0]["physicalLocation"];
    assert_eq!(location["artifactLocation"]["uri"], "src/messy.rs");
    assert_eq!(location["region"]["startLine"], 2);
    // A tool without a SARIF form says so.
    let error = server
        .call(
            "analyze_code_churn",
            json!({ "project_path": ".", "format": "sarif" }),
        )
        .await
        .err();
    assert_eq!(error["details"]["field"], "format", "{error:#}");
    server.stop().await;
}

#[tokio::test]
async fn module_dependencies_say_what_extraction_needs() {
    let scratch = Scratch::new("health-modules");
    scratch.write("shared/s.ts", "export const s = 1;\n");
    scratch.write(
        "shared/t.ts",
        "import { a } from \"../feature/a\";\nexport const t = a + 1;\n",
    );
    scratch.write(
        "feature/a.ts",
        "import { s } from \"../shared/s\";\nimport { chunk } from \"lodash\";\nexport const a = s + chunk.length;\n",
    );
    scratch.write(
        "feature/b.ts",
        "import { a } from \"./a\";\nimport { t } from \"../shared/t\";\nexport const b = a + t;\n",
    );
    scratch.write(
        "app.ts",
        "import { b } from \"./feature/b\";\nexport const app = b;\n",
    );
    let server = McpServer::start(scratch.path(), &[])
        .await
        .expect("start lingo");
    let feature = server
        .call("analyze_module_dependencies", json!({ "path": "feature" }))
        .await
        .ok();
    let paths = |key: &str, name: &str| -> Vec<String> {
        feature[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c[name].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(
        paths("dependencies", "file_path"),
        ["shared/s.ts", "shared/t.ts"],
        "{feature:#}"
    );
    assert_eq!(
        paths("dependents", "file_path"),
        ["app.ts", "shared/t.ts"],
        "{feature:#}"
    );
    assert_eq!(paths("external", "module_path"), ["lodash"], "{feature:#}");
    // shared/t.ts uses feature/a.ts and feature/b.ts uses it: a cycle.
    assert_eq!(feature["cycles_through"], json!(["shared/t.ts"]));
    assert_eq!(feature["extractable"], false);
    let leaf = server
        .call(
            "analyze_module_dependencies",
            json!({ "path": "shared/s.ts" }),
        )
        .await;
    assert!(!leaf.is_error, "{:#}", leaf.value);
    assert_eq!(leaf.value["extractable"], true, "{:#}", leaf.value);
    assert!(
        leaf.text.starts_with(
            "extracting shared/s.ts (1 files): extractable; uses 0 outside files, used by 1"
        ),
        "{}",
        leaf.text
    );
    let error = server
        .call(
            "analyze_module_dependencies",
            json!({ "path": "../elsewhere" }),
        )
        .await
        .err();
    assert_eq!(error["code"], "PATH_OUTSIDE_BOUNDARY", "{error:#}");
    let missing = server
        .call("analyze_module_dependencies", json!({}))
        .await
        .err();
    assert_eq!(missing["details"]["field"], "path");
    server.stop().await;
}

#[tokio::test]
async fn long_analyses_report_progress_when_asked() {
    let scratch = Scratch::new("health-progress");
    messy_crate(&scratch);
    let mut server = lingo_e2e::RawServer::start(scratch.path(), &[]);
    server.initialize("2025-11-25").await;
    let call = |id: u64, meta: Option<Value>| {
        let mut params = json!({ "name": "analyze_deep_context", "arguments": {} });
        if let Some(meta) = meta {
            params["_meta"] = meta;
        }
        json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params })
    };
    let request = call(7, Some(json!({ "progressToken": "deep-1" })));
    server.send(&request).await;
    let mut reports = Vec::new();
    loop {
        let line: Value = serde_json::from_str(&server.recv_raw().await).unwrap();
        if line["id"] == 7 {
            assert!(line["result"]["isError"] == false, "{line:#}");
            break;
        }
        assert_eq!(line["method"], "notifications/progress", "{line:#}");
        reports.push(line["params"].clone());
    }
    assert!(!reports.is_empty());
    let numbers: Vec<u64> = reports
        .iter()
        .map(|r| r["progress"].as_u64().unwrap())
        .collect();
    assert!(numbers.windows(2).all(|w| w[0] < w[1]), "{reports:#?}");
    assert!(
        reports.iter().all(|r| r["progressToken"] == "deep-1"),
        "{reports:#?}"
    );
    assert!(
        reports.iter().any(|r| r["message"] == "analyses: 9 of 9"),
        "{reports:#?}"
    );
    // Without a token, the reply comes alone.
    let request = call(8, None);
    server.send(&request).await;
    let line: Value = serde_json::from_str(&server.recv_raw().await).unwrap();
    assert_eq!(line["id"], 8, "{line:#}");
}
