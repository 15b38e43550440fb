//! Exact answers of the tools no other end-to-end test pins down —
//! `find_type_definition`, `get_symbol_info`, `node_at`, `node_source` and
//! `dependencies_of` — on the small Rust workspace of
//! `tests/fixtures/rust-workspace` (a shop: `orders` calls into `pricing`,
//! `decoy` repeats a name).

use lingo_e2e::{McpServer, fixture};
use serde_json::{Value, json};

async fn serve() -> McpServer {
    McpServer::start(&fixture("rust-workspace"), &[])
        .await
        .expect("start lingo on the fixture")
}

/// `file:line name` (1-based line) of a declaration view.
fn place(view: &Value) -> String {
    format!(
        "{}:{} {}",
        view["file_path"].as_str().unwrap_or("?"),
        view["range"]["start"]["line"].as_u64().unwrap_or(0) + 1,
        view["name"].as_str().unwrap_or("?")
    )
}

#[tokio::test]
async fn find_type_definition_follows_written_annotations_only() {
    let server = serve().await;

    // A parameter written `carts: &[Cart]` has the type `Cart`.
    let carts = json!({ "path": "src/pricing.rs", "line": 16, "character": 19 });
    let answer = server.call("find_type_definition", carts).await.ok();
    assert_eq!(answer["symbol"]["name"], json!("carts"), "{answer:#}");
    let types: Vec<String> = answer["type_definitions"]
        .as_array()
        .unwrap()
        .iter()
        .map(place)
        .collect();
    assert_eq!(types, ["src/pricing.rs:22 Cart"], "{answer:#}");
    assert_eq!(
        answer["type_definitions"][0]["written_as"],
        json!("Cart"),
        "{answer:#}"
    );

    // A field of a type from outside the workspace: said, not guessed.
    let items = json!({ "path": "src/pricing.rs", "symbol": "items" });
    let answer = server.call("find_type_definition", items).await.ok();
    assert_eq!(answer["type_definitions"], json!([]), "{answer:#}");
    assert_eq!(answer["unresolved_types"][0]["name"], json!("Vec"));

    // `let mut cart = Cart::new();` states its type by construction.
    let cart = json!({ "path": "src/orders.rs", "line": 7, "character": 12 });
    let answer = server.call("find_type_definition", cart).await.ok();
    assert_eq!(
        place(&answer["type_definitions"][0]),
        "src/pricing.rs:22 Cart",
        "{answer:#}"
    );

    // `let subtotal = total(prices);` returns a `u64`, no type of the
    // workspace: said, not guessed.
    let subtotal = json!({ "path": "src/orders.rs", "line": 11, "character": 8 });
    let error = server.call("find_type_definition", subtotal).await.err();
    assert_eq!(error["code"], json!("TYPE_NOT_FOUND"), "{error:#}");
    assert_eq!(error["details"]["symbolName"], json!("subtotal"));

    // On a type, the type itself; on a function, a clear refusal.
    let on_type = json!({ "path": "src/pricing.rs", "symbol": "Cart" });
    let answer = server.call("find_type_definition", on_type).await.ok();
    assert_eq!(
        place(&answer["type_definitions"][0]),
        "src/pricing.rs:22 Cart"
    );
    let on_function = json!({ "path": "src/pricing.rs", "symbol": "total" });
    let error = server.call("find_type_definition", on_function).await.err();
    assert_eq!(error["code"], json!("INVALID_PARAM"), "{error:#}");
    server.stop().await;
}

#[tokio::test]
async fn get_symbol_info_counts_callers_references_and_metrics() {
    let server = serve().await;
    let total = json!({ "path": "src/pricing.rs", "symbol": "total" });
    let info = server.call("get_symbol_info", total).await.ok();
    assert_eq!(place(&info), "src/pricing.rs:7 total");
    assert_eq!(info["kind"], json!("function"));
    assert_eq!(info["module"], json!("shop::pricing"));
    assert_eq!(info["visibility"], json!("public"));
    assert_eq!(info["doc"], json!("Sum of the item prices, in cents."));
    assert_eq!(
        info["signature"],
        json!("pub fn total(prices: &[u64]) -> u64")
    );
    // Called by total_with_tax, grand_total and place_order; also imported
    // by orders.rs and re-exported by lib.rs. The decoy's `total` is
    // another declaration and counts for nothing here.
    assert_eq!(info["callers"], json!({ "certain": 3, "name_only": 0 }));
    assert_eq!(info["references"], json!({ "certain": 5, "name_only": 0 }));
    assert_eq!(info["callees"], json!({ "certain": 0, "name_only": 0 }));
    assert_eq!(info["metrics"]["cyclomatic"], json!(1));
    assert_eq!(info["metrics"]["parameters"], json!(1));
    assert_eq!(info["metrics"]["lines"], json!(3));

    let cart = json!({ "path": "src/pricing.rs", "symbol": "Cart" });
    let info = server.call("get_symbol_info", cart).await.ok();
    assert_eq!(info["kind"], json!("struct"), "{info:#}");
    let members: Vec<&str> = info["members"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| m["name"].as_str())
        .collect();
    assert!(members.contains(&"items"), "{info:#}");
    server.stop().await;
}

#[tokio::test]
async fn node_at_names_the_node_its_ancestors_and_the_declaration() {
    let server = serve().await;
    // Line 13 (1-based) of orders.rs: `    subtotal + shipping(subtotal)`.
    let at = json!({ "path": "src/orders.rs", "line": 13, "column": 16 });
    let answer = server.call("node_at", at).await.ok();
    assert_eq!(answer["node"]["type"], json!("identifier"), "{answer:#}");
    assert_eq!(answer["node"]["content"], json!("shipping"));
    assert_eq!(answer["node"]["startColumn"], json!(15));
    assert_eq!(answer["node"]["endColumn"], json!(23));
    let ancestors: Vec<&str> = answer["ancestors"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|a| a["type"].as_str())
        .collect();
    assert_eq!(
        ancestors,
        [
            "call_expression",
            "binary_expression",
            "block",
            "function_item",
            "source_file"
        ]
    );
    assert_eq!(answer["symbol"]["name"], json!("place_order"));
    assert_eq!(
        answer["symbol"]["chunkId"],
        json!("src/orders.rs:7:place_order")
    );

    // Lines are 1-based here (codetextor-api.md): line 0 is refused.
    let zero = json!({ "path": "src/orders.rs", "line": 0 });
    let error = server.call("node_at", zero).await.err();
    assert_eq!(error["code"], json!("INVALID_PARAM"), "{error:#}");
    server.stop().await;
}

#[tokio::test]
async fn node_source_returns_a_declaration_by_name_or_chunk_id() {
    let server = serve().await;
    let shipping = json!({ "path": "src/orders.rs", "symbol": "shipping" });
    let answer = server.call("node_source", shipping).await.ok();
    assert_eq!(
        answer["source"],
        json!(
            "fn shipping(subtotal: u64) -> u64 {\n    if subtotal > 5000 { 0 } else { 499 }\n}\n"
        )
    );
    assert_eq!(answer["chunkId"], json!("src/orders.rs:16:shipping"));
    assert_eq!(
        (answer["lineStart"].clone(), answer["lineEnd"].clone()),
        (json!(16), json!(18))
    );

    // The same declaration through its chunk id, with a line of context.
    let by_chunk = json!({ "chunkId": "src/orders.rs:16:shipping", "includeContext": 1 });
    let answer = server.call("node_source", by_chunk).await.ok();
    let source = answer["source"].as_str().unwrap();
    assert!(source.contains("fn shipping(subtotal: u64)"), "{answer:#}");
    assert_eq!(answer["lineStart"], json!(15), "{answer:#}");
    server.stop().await;
}

#[tokio::test]
async fn dependencies_of_lists_what_a_function_uses_and_not_the_decoy() {
    let server = serve().await;
    let place_order = json!({ "file_path": "src/orders.rs", "symbol": "place_order" });
    let text = server.call("dependencies_of", place_order).await.text();
    let graph: Vec<&str> = text
        .split("## Nodes")
        .next()
        .unwrap()
        .lines()
        .filter(|l| l.contains("--"))
        .collect();
    assert_eq!(
        graph,
        [
            "place_order --CALLS--> shipping",
            "place_order --CALLS--> total",
            "place_order --CALLS--> add --REFERENCES--> items",
            "place_order --REFERENCES--> Cart",
            "place_order --CALLS--> new --REFERENCES--> items",
            "new --REFERENCES--> Cart",
        ],
        "{text}"
    );
    // `total` is pricing's, never the decoy's.
    assert!(text.contains("total:\n  file: src/pricing.rs"), "{text}");
    assert!(!text.contains("src/decoy.rs"), "{text}");
    // What was left out is said.
    assert!(text.contains("name-only matches"), "{text}");
    server.stop().await;
}

/// C# writes the type before the name (its plugin's policy says so): the
/// parameter `IShape[] shapes` has the type `IShape`, and `var total = ...`
/// has none written.
#[tokio::test]
async fn find_type_definition_reads_a_type_written_before_the_name() {
    let server = McpServer::start(&fixture("nav/csharp"), &[])
        .await
        .expect("start lingo on the C# fixture");
    let shapes = json!({ "path": "Shapes/Shapes.cs", "line": 34, "character": 45 });
    let answer = server.call("find_type_definition", shapes).await.ok();
    assert_eq!(answer["symbol"]["name"], json!("shapes"), "{answer:#}");
    let types: Vec<String> = answer["type_definitions"]
        .as_array()
        .unwrap()
        .iter()
        .map(place)
        .collect();
    assert_eq!(types, ["Shapes/Shapes.cs:4 IShape"], "{answer:#}");

    let total = json!({ "path": "Reports/Report.cs", "line": 12, "character": 12 });
    let error = server.call("find_type_definition", total).await.err();
    assert_eq!(error["code"], json!("TYPE_NOT_FOUND"), "{error:#}");
    server.stop().await;
}

/// `find_definition` asked by `symbol` writes the declaration found, with
/// nothing in place of the name the query had no position for.
#[tokio::test]
async fn find_definition_by_symbol_writes_no_placeholder() {
    let server = serve().await;
    let found = server
        .call("find_definition", json!({ "symbol": "grand_total" }))
        .await;
    assert!(!found.is_error, "{:#}", found.value);
    assert!(found.text.contains("src/pricing.rs:17"), "{}", found.text);
    assert!(!found.text.contains('?'), "{}", found.text);
    server.stop().await;
}
