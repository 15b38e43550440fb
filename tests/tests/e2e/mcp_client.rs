//! End-to-end tests through the official MCP client (rmcp): the handshake,
//! `tools/list`, and every tool on the `rust-workspace` fixture, including
//! error results, aliases and freshness after an edit.

use lingo_e2e::{McpServer, Scratch, fixture};
use rmcp::ServiceError;
use rmcp::model::{CallToolRequestParams, ProtocolVersion};
use serde_json::{Value, json};

async fn shop() -> McpServer {
    McpServer::start(&fixture("rust-workspace"), &[])
        .await
        .expect("start lingo on the fixture")
}

/// A zero-based range as the tools render it.
fn range(start: (u32, u32), end: (u32, u32)) -> Value {
    json!({
        "start": { "line": start.0, "character": start.1 },
        "end": { "line": end.0, "character": end.1 },
    })
}

/// The parts of outline nodes these tests pin down, recursively.
fn project(nodes: &Value) -> Value {
    let nodes = nodes.as_array().expect("outline nodes are an array");
    Value::Array(
        nodes
            .iter()
            .map(|node| {
                let mut out = json!({
                    "type": node["type"],
                    "languageKind": node["languageKind"],
                    "name": node["name"],
                    "line": node["line"],
                    "endLine": node["endLine"],
                });
                for key in ["signature", "docComment", "containerName"] {
                    if let Some(value) = node.get(key) {
                        out[key] = value.clone();
                    }
                }
                if let Some(children) = node.get("children") {
                    out["children"] = project(children);
                }
                out
            })
            .collect(),
    )
}

/// `(filePath, line, name)` of each search hit, in order.
fn hits(result: &Value) -> Vec<(String, u64, String)> {
    result["symbols"]
        .as_array()
        .expect("symbols is an array")
        .iter()
        .map(|s| {
            (
                s["filePath"].as_str().unwrap().to_string(),
                s["line"].as_u64().unwrap(),
                s["name"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn hit(path: &str, line: u64, name: &str) -> (String, u64, String) {
    (path.to_string(), line, name.to_string())
}

#[tokio::test]
async fn handshake_names_lingo_and_answers_an_unknown_version_with_the_newest() {
    let server = shop().await;
    let info = server.client.peer_info().expect("handshake done");
    let implementation = info.server_info.as_ref().expect("serverInfo");
    assert_eq!(implementation.name, "lingo");
    assert!(!implementation.version.is_empty());
    // rmcp asks for its newest revision, which has no `initialize`; lingo
    // answers with the newest revision it speaks.
    assert_eq!(ProtocolVersion::default(), ProtocolVersion::V_2026_07_28);
    assert_eq!(info.protocol_version, ProtocolVersion::V_2025_11_25);
    assert!(
        info.capabilities.tools.is_some(),
        "tools capability: {:?}",
        info.capabilities
    );
    assert!(
        info.instructions
            .as_deref()
            .is_some_and(|i| i.contains("zero-based"))
    );
    server.stop().await;
}

#[tokio::test]
async fn handshake_echoes_a_supported_version() {
    let server = McpServer::start_with(
        &fixture("rust-workspace"),
        &[],
        ProtocolVersion::V_2025_06_18,
    )
    .await
    .expect("start lingo");
    let info = server.client.peer_info().expect("handshake done");
    assert_eq!(info.protocol_version, ProtocolVersion::V_2025_06_18);
    // The session works at that version.
    let health = server.call("health_check", json!({})).await.ok();
    assert_eq!(health["healthy"], json!(true));
    server.stop().await;
}

#[tokio::test]
async fn tools_list_declares_object_schemas() {
    let server = shop().await;
    let tools = server.client.list_all_tools().await.expect("tools/list");
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    for wanted in [
        "health_check",
        "diagnose",
        "outline",
        "search_symbols",
        "get_diagnostics",
        "find_definition",
    ] {
        assert!(names.contains(&wanted), "{wanted} missing from {names:?}");
    }
    let mut unique = names.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), names.len(), "duplicate tool names: {names:?}");
    for tool in &tools {
        let schema = &tool.input_schema;
        assert_eq!(
            schema.get("type"),
            Some(&json!("object")),
            "{}: {schema:?}",
            tool.name
        );
        let properties = schema.get("properties").and_then(Value::as_object);
        assert!(properties.is_some(), "{}: properties missing", tool.name);
        // One project: `projectId` is accepted but not listed.
        assert!(
            !properties.unwrap().contains_key("projectId"),
            "{}: projectId listed",
            tool.name
        );
        assert_eq!(
            schema.get("additionalProperties"),
            Some(&json!(false)),
            "{}",
            tool.name
        );
        // MCP 2025-06-18: an object output schema, the one the answers
        // are checked against (lingo_e2e::check_output_schema).
        let output = tool
            .output_schema
            .as_ref()
            .unwrap_or_else(|| panic!("{}: no outputSchema", tool.name));
        assert_eq!(output.get("type"), Some(&json!("object")), "{}", tool.name);
        let registry = lingo::tools::ToolRegistry::new();
        let declared = &registry
            .find(&tool.name)
            .expect("a known tool")
            .output_schema;
        assert_eq!(
            &Value::Object((**output).clone()),
            declared,
            "{}",
            tool.name
        );
        if let Some(required) = schema.get("required") {
            for field in required.as_array().expect("required is an array") {
                let field = field.as_str().expect("required names are strings");
                assert!(
                    properties.unwrap().contains_key(field),
                    "{}: required {field} undeclared",
                    tool.name
                );
            }
        }
        assert!(
            tool.description.as_deref().is_some_and(|d| !d.is_empty()),
            "{}: no description",
            tool.name
        );
        let annotations = tool.annotations.as_ref().expect("annotations");
        // The refactoring tools write files; every other tool only reads.
        let writes = [
            "rename",
            "delete",
            "move",
            "move_type_to_file",
            "move_type_to_namespace",
            "apply_plan",
            "rollback",
        ]
        .contains(&tool.name.as_ref());
        assert_eq!(annotations.read_only_hint, Some(!writes), "{}", tool.name);
        if writes {
            assert_eq!(annotations.destructive_hint, Some(true), "{}", tool.name);
        }
    }
    let required = |name: &str| {
        let tool = tools.iter().find(|t| t.name == name).unwrap();
        tool.input_schema
            .get("required")
            .cloned()
            .unwrap_or(json!([]))
    };
    assert_eq!(required("outline"), json!(["path"]));
    assert_eq!(required("search_symbols"), json!(["query"]));
    assert_eq!(required("find_definition"), json!([]));
    server.stop().await;
}

#[tokio::test]
async fn outline_reports_kinds_lines_signatures_and_docs() {
    let server = shop().await;
    let result = server
        .call("outline", json!({ "path": "src/pricing.rs" }))
        .await
        .ok();
    assert_eq!(result["filePath"], json!("src/pricing.rs"));
    assert_eq!(result["language"], json!("rust"));
    assert!(result["generation"].as_u64().is_some_and(|g| g >= 1));
    let expected = json!([
        { "type": "constant", "languageKind": "constant", "name": "MAX_ITEMS", "line": 4, "endLine": 4,
          "signature": "pub const MAX_ITEMS: usize", "docComment": "Most items one cart may hold." },
        { "type": "function", "languageKind": "function", "name": "total", "line": 7, "endLine": 9,
          "signature": "pub fn total(prices: &[u64]) -> u64", "docComment": "Sum of the item prices, in cents." },
        { "type": "function", "languageKind": "function", "name": "total_with_tax", "line": 12, "endLine": 14,
          "signature": "pub fn total_with_tax(prices: &[u64], percent: u64) -> u64",
          "docComment": "The total with value-added tax, in cents." },
        { "type": "function", "languageKind": "function", "name": "grand_total", "line": 17, "endLine": 19,
          "signature": "pub fn grand_total(carts: &[Cart]) -> u64", "docComment": "Every cart's total, added up." },
        { "type": "struct", "languageKind": "struct", "name": "Cart", "line": 22, "endLine": 24,
          "signature": "pub struct Cart", "docComment": "A shopping cart.",
          "children": [
            { "type": "field", "languageKind": "field", "name": "items", "line": 23, "endLine": 23,
              "signature": "items: Vec<u64>", "containerName": "Cart" }
          ] },
        { "type": "object", "languageKind": "impl", "name": "Cart", "line": 26, "endLine": 36,
          "signature": "impl Cart",
          "children": [
            { "type": "method", "languageKind": "method", "name": "new", "line": 28, "endLine": 30,
              "signature": "pub fn new() -> Self", "docComment": "An empty cart.", "containerName": "Cart" },
            { "type": "method", "languageKind": "method", "name": "add", "line": 33, "endLine": 35,
              "signature": "pub fn add(&mut self, price: u64)", "docComment": "Add an item priced in cents.",
              "containerName": "Cart" }
          ] },
        { "type": "enum", "languageKind": "enum", "name": "Currency", "line": 39, "endLine": 42,
          "signature": "pub enum Currency", "docComment": "How prices are shown.",
          "children": [
            { "type": "enum_member", "languageKind": "variant", "name": "Euro", "line": 40, "endLine": 40,
              "signature": "Euro", "containerName": "Currency" },
            { "type": "enum_member", "languageKind": "variant", "name": "Dollar", "line": 41, "endLine": 41,
              "signature": "Dollar", "containerName": "Currency" }
          ] },
        { "type": "interface", "languageKind": "trait", "name": "Discount", "line": 45, "endLine": 48,
          "signature": "pub trait Discount", "docComment": "A rebate applied to a total.",
          "children": [
            { "type": "method", "languageKind": "method", "name": "apply", "line": 47, "endLine": 47,
              "signature": "fn apply(&self, cents: u64) -> u64", "docComment": "The discounted amount, in cents.",
              "containerName": "Discount" }
          ] }
    ]);
    assert_eq!(
        project(&result["outline"]),
        expected,
        "{:#}",
        result["outline"]
    );

    let outline = result["outline"].as_array().unwrap();
    assert_eq!(outline[1]["visibility"], json!("public"), "pub fn total");
    assert_eq!(
        outline[4]["children"][0]["visibility"],
        json!("private"),
        "field without pub"
    );
    assert_eq!(
        outline[7]["children"][0]["visibility"],
        json!("public"),
        "trait items are public"
    );

    let orders = server
        .call("outline", json!({ "path": "src/orders.rs" }))
        .await
        .ok();
    let expected = json!([
        { "type": "function", "languageKind": "function", "name": "place_order", "line": 7, "endLine": 14,
          "signature": "pub fn place_order(prices: &[u64]) -> u64",
          "docComment": "Place an order and return what it costs, in cents." },
        { "type": "function", "languageKind": "function", "name": "shipping", "line": 16, "endLine": 18,
          "signature": "fn shipping(subtotal: u64) -> u64" }
    ]);
    assert_eq!(
        project(&orders["outline"]),
        expected,
        "{:#}",
        orders["outline"]
    );
    assert_eq!(orders["outline"][1]["visibility"], json!("private"));
    server.stop().await;
}

#[tokio::test]
async fn outline_limits_depth_and_shows_bodies_on_request() {
    let server = shop().await;
    let shallow = server
        .call("outline", json!({ "path": "src/pricing.rs", "depth": 1 }))
        .await
        .ok();
    let nodes = shallow["outline"].as_array().unwrap();
    assert_eq!(nodes.len(), 8);
    assert!(
        nodes.iter().all(|n| n.get("children").is_none()),
        "depth 1 has no children: {shallow:#}"
    );

    let full = server
        .call(
            "outline",
            json!({ "path": "src/pricing.rs", "collapseBody": false }),
        )
        .await
        .ok();
    let total = &full["outline"][1];
    assert_eq!(total["name"], json!("total"));
    assert_eq!(
        total["source"],
        json!("pub fn total(prices: &[u64]) -> u64 {\n    prices.iter().sum()\n}")
    );
    let collapsed = server
        .call("outline", json!({ "path": "src/pricing.rs" }))
        .await
        .ok();
    assert!(
        collapsed["outline"][1].get("source").is_none(),
        "bodies are collapsed by default"
    );

    let error = server
        .call("outline", json!({ "path": "src/pricing.rs", "depth": 0 }))
        .await
        .err();
    assert_eq!(error["code"], json!("INVALID_PARAM"));
    assert_eq!(error["details"]["field"], json!("depth"));
    server.stop().await;
}

#[tokio::test]
async fn search_symbols_ranks_exact_matches_first_and_paginates() {
    let server = shop().await;
    let all = server
        .call("search_symbols", json!({ "query": "total" }))
        .await
        .ok();
    // Exact matches first (by path), then prefix matches, then substrings.
    assert_eq!(
        hits(&all),
        vec![
            hit("src/decoy.rs", 4, "total"),
            hit("src/pricing.rs", 7, "total"),
            hit("src/pricing.rs", 12, "total_with_tax"),
            hit("src/pricing.rs", 17, "grand_total"),
        ]
    );
    assert_eq!(all["total"], json!(4));
    assert_eq!(all["returned"], json!(4));
    assert_eq!(all["offset"], json!(0));
    assert_eq!(all["hasMore"], json!(false));
    let first = &all["symbols"][1];
    assert_eq!(first["kind"], json!("function"));
    assert_eq!(first["endLine"], json!(9));
    assert_eq!(
        first["signature"],
        json!("pub fn total(prices: &[u64]) -> u64")
    );
    assert_eq!(
        first["docComment"],
        json!("Sum of the item prices, in cents.")
    );
    assert_eq!(first["containerName"], json!(null));

    let page = server
        .call("search_symbols", json!({ "query": "total", "limit": 2 }))
        .await
        .ok();
    assert_eq!(
        hits(&page),
        vec![
            hit("src/decoy.rs", 4, "total"),
            hit("src/pricing.rs", 7, "total")
        ]
    );
    assert_eq!(
        (
            page["total"].clone(),
            page["returned"].clone(),
            page["hasMore"].clone()
        ),
        (json!(4), json!(2), json!(true))
    );

    let next = server
        .call(
            "search_symbols",
            json!({ "query": "total", "limit": 2, "offset": 2 }),
        )
        .await
        .ok();
    assert_eq!(
        hits(&next),
        vec![
            hit("src/pricing.rs", 12, "total_with_tax"),
            hit("src/pricing.rs", 17, "grand_total")
        ]
    );
    assert_eq!(
        (
            next["offset"].clone(),
            next["returned"].clone(),
            next["hasMore"].clone()
        ),
        (json!(2), json!(2), json!(false))
    );

    let past = server
        .call("search_symbols", json!({ "query": "total", "offset": 10 }))
        .await
        .ok();
    assert_eq!(past["symbols"], json!([]));
    assert_eq!(
        (past["total"].clone(), past["hasMore"].clone()),
        (json!(4), json!(false))
    );

    let scoped = server
        .call(
            "search_symbols",
            json!({ "query": "total", "path": "src/decoy.rs" }),
        )
        .await
        .ok();
    assert_eq!(hits(&scoped), vec![hit("src/decoy.rs", 4, "total")]);

    let none = server
        .call(
            "search_symbols",
            json!({ "query": "no_such_symbol_anywhere" }),
        )
        .await
        .ok();
    assert_eq!(
        (none["symbols"].clone(), none["total"].clone()),
        (json!([]), json!(0))
    );
    server.stop().await;
}

#[tokio::test]
async fn search_symbols_filters_by_kind_case_and_regex() {
    let server = shop().await;
    let methods = server
        .call(
            "search_symbols",
            json!({ "query": "a", "kinds": ["method"] }),
        )
        .await
        .ok();
    assert_eq!(
        hits(&methods),
        vec![
            hit("src/pricing.rs", 33, "add"),
            hit("src/pricing.rs", 47, "apply")
        ],
        "{methods:#}"
    );
    // The language's own kinds work too: `trait` is an `interface`.
    let traits = server
        .call(
            "search_symbols",
            json!({ "query": "dis", "kinds": ["trait"] }),
        )
        .await
        .ok();
    assert_eq!(hits(&traits), vec![hit("src/pricing.rs", 45, "Discount")]);
    let interfaces = server
        .call(
            "search_symbols",
            json!({ "query": "dis", "kinds": ["interface"] }),
        )
        .await
        .ok();
    assert_eq!(hits(&interfaces), hits(&traits));
    let structs = server
        .call(
            "search_symbols",
            json!({ "query": "cart", "kinds": ["struct"] }),
        )
        .await
        .ok();
    assert_eq!(hits(&structs), vec![hit("src/pricing.rs", 22, "Cart")]);

    let bad_kind = server
        .call(
            "search_symbols",
            json!({ "query": "cart", "kinds": ["strukt"] }),
        )
        .await
        .err();
    assert_eq!(bad_kind["code"], json!("INVALID_PARAM"));
    assert_eq!(bad_kind["details"]["field"], json!("kinds"));
    assert!(
        bad_kind["suggestions"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s.as_str().unwrap().contains("`struct`")),
        "{bad_kind:#}"
    );

    // Case-insensitive by default; case-sensitive on request.
    let insensitive = server
        .call(
            "search_symbols",
            json!({ "query": "CART", "kinds": ["struct"] }),
        )
        .await
        .ok();
    assert_eq!(hits(&insensitive), vec![hit("src/pricing.rs", 22, "Cart")]);
    let sensitive = server
        .call(
            "search_symbols",
            json!({ "query": "CART", "kinds": ["struct"], "caseSensitive": true }),
        )
        .await
        .ok();
    assert_eq!(sensitive["total"], json!(0), "{sensitive:#}");
    let exact_case = server
        .call(
            "search_symbols",
            json!({ "query": "Cart", "kinds": ["struct"], "caseSensitive": true }),
        )
        .await
        .ok();
    assert_eq!(hits(&exact_case), vec![hit("src/pricing.rs", 22, "Cart")]);

    let regex = server
        .call(
            "search_symbols",
            json!({ "query": "^total(_with_tax)?$", "regex": true }),
        )
        .await
        .ok();
    assert_eq!(
        hits(&regex),
        vec![
            hit("src/decoy.rs", 4, "total"),
            hit("src/pricing.rs", 7, "total"),
            hit("src/pricing.rs", 12, "total_with_tax")
        ]
    );
    let regex_case = server
        .call(
            "search_symbols",
            json!({ "query": "^c", "regex": true, "caseSensitive": true }),
        )
        .await
        .ok();
    assert_eq!(
        regex_case["total"],
        json!(0),
        "no symbol starts with a lowercase c: {regex_case:#}"
    );

    let bad_regex = server
        .call(
            "search_symbols",
            json!({ "query": "(unclosed", "regex": true }),
        )
        .await
        .err();
    assert_eq!(bad_regex["code"], json!("INVALID_QUERY"));
    assert_eq!(bad_regex["details"]["field"], json!("query"));
    server.stop().await;
}

#[tokio::test]
async fn get_diagnostics_reports_the_syntax_error() {
    let server = shop().await;
    let broken = server
        .call("get_diagnostics", json!({ "path": "src/broken.rs" }))
        .await
        .ok();
    let diagnostics = broken["diagnostics"].as_array().unwrap();
    assert_eq!(diagnostics.len(), 1, "{broken:#}");
    let diagnostic = &diagnostics[0];
    assert_eq!(diagnostic["file_path"], json!("src/broken.rs"));
    // `    let y = x +;`: the operand is missing just before the `;`.
    assert_eq!(diagnostic["range"], range((3, 15), (3, 15)));
    assert_eq!(diagnostic["line"], json!(4));
    assert_eq!(diagnostic["severity"], json!("error"));
    assert_eq!(diagnostic["source"], json!("syntax"));
    assert!(diagnostic["code"].as_str().is_some_and(|c| !c.is_empty()));
    assert!(
        diagnostic["message"]
            .as_str()
            .unwrap()
            .contains("syntax error"),
        "{diagnostic:#}"
    );
    assert_eq!(broken["summary"]["total"], json!(1));
    assert_eq!(broken["summary"]["files_checked"], json!(1));

    let clean = server
        .call("get_diagnostics", json!({ "path": "src/orders.rs" }))
        .await
        .ok();
    assert_eq!(clean["diagnostics"], json!([]));
    assert_eq!(clean["summary"]["total"], json!(0));

    let everything = server.call("get_diagnostics", json!({})).await.ok();
    assert_eq!(everything["diagnostics"], broken["diagnostics"]);
    assert_eq!(
        everything["summary"]["files_checked"],
        json!(5),
        "lib, broken, decoy, orders, pricing"
    );
    assert_eq!(everything["summary"]["has_more"], json!(false));
    assert_eq!(everything["unanalyzed_files"], json!([]));

    let past = server
        .call("get_diagnostics", json!({ "offset": 1 }))
        .await
        .ok();
    assert_eq!(past["diagnostics"], json!([]));
    assert_eq!(
        (
            past["summary"]["total"].clone(),
            past["summary"]["returned"].clone()
        ),
        (json!(1), json!(0))
    );
    server.stop().await;
}

#[tokio::test]
async fn find_definition_follows_the_import_not_the_decoy() {
    let server = shop().await;
    // orders.rs line 12: `    let subtotal = total(prices);`, `total` at character 19.
    let result = server
        .call(
            "find_definition",
            json!({ "path": "src/orders.rs", "line": 11, "character": 19 }),
        )
        .await
        .ok();
    assert_eq!(result["resolution"], json!("import"), "{result:#}");
    assert_eq!(
        result["total"],
        json!(1),
        "only pricing::total, not decoy::total: {result:#}"
    );
    let definition = &result["definitions"][0];
    assert_eq!(definition["file_path"], json!("src/pricing.rs"));
    assert_eq!(definition["name"], json!("total"));
    assert_eq!(definition["kind"], json!("function"));
    assert_eq!(definition["resolution"], json!("import"));
    assert_eq!(definition["confidence"], json!(1.0));
    assert_eq!(definition["range"], range((6, 0), (8, 1)));
    assert_eq!(definition["name_range"], range((6, 7), (6, 12)));
    assert_eq!(
        definition["signature"],
        json!("pub fn total(prices: &[u64]) -> u64")
    );
    assert_eq!(result["query"]["name"], json!("total"));
    assert_eq!(result["query"]["referenceKind"], json!("call"));

    // The cursor at the end of the name still finds it.
    let at_end = server
        .call(
            "find_definition",
            json!({ "path": "src/orders.rs", "line": 11, "character": 24 }),
        )
        .await
        .ok();
    assert_eq!(at_end["definitions"], result["definitions"]);

    // The imported type resolves the same way.
    let cart = server
        .call(
            "find_definition",
            json!({ "path": "src/orders.rs", "line": 7, "character": 19 }),
        )
        .await
        .ok();
    assert_eq!(cart["resolution"], json!("import"), "{cart:#}");
    assert_eq!(cart["definitions"][0]["file_path"], json!("src/pricing.rs"));
    assert_eq!(cart["definitions"][0]["kind"], json!("struct"));
    assert_eq!(
        cart["definitions"][0]["name_range"],
        range((21, 11), (21, 15))
    );
    server.stop().await;
}

#[tokio::test]
async fn find_definition_resolves_qualified_calls_locals_and_declarations() {
    let server = shop().await;
    // `    let mut cart = Cart::new();`: `new` at character 25.
    let new = server
        .call(
            "find_definition",
            json!({ "path": "src/orders.rs", "line": 7, "character": 25 }),
        )
        .await
        .ok();
    assert_eq!(new["resolution"], json!("qualified"), "{new:#}");
    let definition = &new["definitions"][0];
    assert_eq!(new["total"], json!(1));
    assert_eq!(definition["file_path"], json!("src/pricing.rs"));
    assert_eq!(
        (definition["name"].clone(), definition["kind"].clone()),
        (json!("new"), json!("method"))
    );
    assert_eq!(definition["container"], json!("Cart"));
    assert_eq!(definition["range"], range((27, 4), (29, 5)));
    assert_eq!(definition["name_range"], range((27, 11), (27, 14)));
    assert_eq!(definition["signature"], json!("pub fn new() -> Self"));

    // `    subtotal + shipping(subtotal)`: the local `subtotal`...
    let local = server
        .call(
            "find_definition",
            json!({ "path": "src/orders.rs", "line": 12, "character": 4 }),
        )
        .await
        .ok();
    assert_eq!(local["resolution"], json!("scope"), "{local:#}");
    assert_eq!(local["total"], json!(1));
    let binding = &local["definitions"][0];
    assert_eq!(binding["file_path"], json!("src/orders.rs"));
    assert_eq!(binding["kind"], json!("variable"));
    assert_eq!(binding["name"], json!("subtotal"));
    assert_eq!(
        binding["range"],
        range((11, 8), (11, 16)),
        "the `let subtotal`, not shipping's parameter"
    );
    let argument = server
        .call(
            "find_definition",
            json!({ "path": "src/orders.rs", "line": 12, "character": 25 }),
        )
        .await
        .ok();
    assert_eq!(argument["definitions"], local["definitions"]);

    // ...and `shipping`, declared in the same file.
    let shipping = server
        .call(
            "find_definition",
            json!({ "path": "src/orders.rs", "line": 12, "character": 15 }),
        )
        .await
        .ok();
    assert_eq!(shipping["resolution"], json!("scope"), "{shipping:#}");
    assert_eq!(
        shipping["definitions"][0]["file_path"],
        json!("src/orders.rs")
    );
    assert_eq!(shipping["definitions"][0]["range"], range((15, 0), (17, 1)));

    // A method reached through a value whose type the source states
    // (`let mut cart = Cart::new()`) is that type's method, certainly.
    let add = server
        .call(
            "find_definition",
            json!({ "path": "src/orders.rs", "line": 9, "character": 13 }),
        )
        .await
        .ok();
    assert_eq!(add["resolution"], json!("qualified"), "{add:#}");
    assert_eq!(add["total"], json!(1), "{add:#}");
    assert_eq!(
        add["definitions"][0]["name_range"],
        range((32, 11), (32, 14))
    );
    assert_eq!(add["definitions"][0]["container"], json!("Cart"));
    assert_eq!(add["definitions"][0]["confidence"], json!(1.0));

    // On a declaration's name, the declaration itself.
    let itself = server
        .call(
            "find_definition",
            json!({ "path": "src/orders.rs", "line": 6, "character": 9 }),
        )
        .await
        .ok();
    assert_eq!(itself["resolution"], json!("declaration"), "{itself:#}");
    assert_eq!(itself["definitions"][0]["name"], json!("place_order"));
    assert_eq!(
        itself["definitions"][0]["name_range"],
        range((6, 7), (6, 18))
    );

    // Whitespace holds nothing.
    let nothing = server
        .call(
            "find_definition",
            json!({ "path": "src/orders.rs", "line": 1, "character": 0 }),
        )
        .await
        .err();
    assert_eq!(nothing["code"], json!("SYMBOL_NOT_FOUND"));
    server.stop().await;
}

#[tokio::test]
async fn find_definition_by_symbol_name() {
    let server = shop().await;
    let both = server
        .call("find_definition", json!({ "symbol": "total" }))
        .await
        .ok();
    let files: Vec<&str> = both["definitions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["file_path"].as_str().unwrap())
        .collect();
    assert_eq!(files, vec!["src/decoy.rs", "src/pricing.rs"], "{both:#}");
    assert_eq!(both["total"], json!(2));
    assert_eq!(both["resolution"], json!("name_only"));
    assert_eq!(both["query"], json!({ "symbol": "total" }));

    let method = server
        .call("find_definition", json!({ "symbol": "Cart::add" }))
        .await
        .ok();
    assert_eq!(method["total"], json!(1), "{method:#}");
    assert_eq!(method["definitions"][0]["container"], json!("Cart"));
    assert_eq!(
        method["definitions"][0]["name_range"],
        range((32, 11), (32, 14))
    );
    let dotted = server
        .call("find_definition", json!({ "symbol": "Cart.add" }))
        .await
        .ok();
    assert_eq!(dotted["definitions"], method["definitions"]);
    server.stop().await;
}

#[tokio::test]
async fn errors_name_the_code_the_field_and_a_way_out() {
    let server = shop().await;

    let missing = server
        .call("outline", json!({ "path": "src/order.rs" }))
        .await
        .err();
    assert_eq!(missing["code"], json!("FILE_NOT_FOUND"));
    assert_eq!(missing["details"]["path"], json!("src/order.rs"));
    assert_eq!(
        missing["suggestions"][0],
        json!("Did you mean src/orders.rs?"),
        "{missing:#}"
    );

    for outside in ["../x.rs", "/etc/passwd", "src/../../x.rs"] {
        let error = server
            .call("outline", json!({ "path": outside }))
            .await
            .err();
        assert_eq!(
            error["code"],
            json!("PATH_OUTSIDE_BOUNDARY"),
            "{outside}: {error:#}"
        );
        assert_eq!(error["details"]["field"], json!("path"));
        assert_eq!(error["details"]["path"], json!(outside));
    }
    let error = server
        .call("search_symbols", json!({ "query": "x", "path": "../" }))
        .await
        .err();
    assert_eq!(error["code"], json!("PATH_OUTSIDE_BOUNDARY"), "{error:#}");

    let unknown = server
        .call("find_definition", json!({ "symbol": "totl" }))
        .await
        .err();
    assert_eq!(unknown["code"], json!("SYMBOL_NOT_FOUND"));
    assert_eq!(unknown["details"]["symbolName"], json!("totl"));
    let nearby = unknown["details"]["nearbySymbols"].as_array().unwrap();
    assert_eq!(nearby.first(), Some(&json!("total")), "{unknown:#}");
    assert!(
        unknown["suggestions"]
            .as_array()
            .unwrap()
            .contains(&json!("Did you mean total?")),
        "{unknown:#}"
    );

    let past_end = server
        .call(
            "find_definition",
            json!({ "path": "src/orders.rs", "line": 400, "character": 0 }),
        )
        .await
        .err();
    assert_eq!(past_end["code"], json!("INVALID_LINE_NUMBER"));
    assert_eq!(past_end["details"]["line"], json!(400));
    assert_eq!(past_end["details"]["lineCount"], json!(18));

    let typo = server
        .call("search_symbols", json!({ "querry": "total" }))
        .await
        .err();
    assert_eq!(typo["code"], json!("UNKNOWN_PARAM"));
    assert_eq!(typo["details"]["field"], json!("querry"));
    assert!(
        typo["details"]["allowed"]
            .as_array()
            .unwrap()
            .contains(&json!("query"))
    );
    assert_eq!(typo["suggestions"], json!(["Did you mean `query`?"]));

    let absent = server.call("outline", json!({})).await.err();
    assert_eq!(absent["code"], json!("MISSING_REQUIRED_PARAM"));
    assert_eq!(absent["details"]["field"], json!("path"));
    let absent = server
        .call("search_symbols", json!({ "limit": 3 }))
        .await
        .err();
    assert_eq!(absent["code"], json!("MISSING_REQUIRED_PARAM"));
    assert_eq!(absent["details"]["field"], json!("query"));
    let no_line = server
        .call("find_definition", json!({ "path": "src/orders.rs" }))
        .await
        .err();
    assert_eq!(no_line["code"], json!("MISSING_REQUIRED_PARAM"));
    assert_eq!(no_line["details"]["field"], json!("line"));

    let wrong_type = server.call("outline", json!({ "path": 7 })).await.err();
    assert_eq!(wrong_type["code"], json!("INVALID_PARAM"));
    assert_eq!(wrong_type["details"]["field"], json!("path"));

    let readme = server
        .call("outline", json!({ "path": "README.md" }))
        .await
        .err();
    assert_eq!(readme["code"], json!("UNSUPPORTED_LANGUAGE"));
    let supported = readme["details"]["supportedExtensions"].as_array().unwrap();
    assert!(supported.contains(&json!("rs")), "{supported:?}");
    assert!(!supported.contains(&json!("md")), "{supported:?}");

    let project = server
        .call(
            "outline",
            json!({ "path": "src/lib.rs", "projectId": "elsewhere" }),
        )
        .await
        .err();
    assert_eq!(project["code"], json!("PROJECT_NOT_FOUND"));
    assert_eq!(
        project["details"]["knownProjects"],
        json!(["rust-workspace"])
    );
    let right_project = server
        .call(
            "outline",
            json!({ "path": "src/lib.rs", "projectId": "rust-workspace" }),
        )
        .await
        .ok();
    assert_eq!(right_project["filePath"], json!("src/lib.rs"));
    server.stop().await;
}

#[tokio::test]
async fn an_unknown_tool_is_a_protocol_error() {
    let server = shop().await;
    let call = server
        .client
        .call_tool(CallToolRequestParams::new("search_symbol"));
    let error = lingo_e2e::patiently("unknown tool", call)
        .await
        .expect_err("no such tool");
    let ServiceError::McpError(error) = error else {
        panic!("expected a JSON-RPC error, got {error}")
    };
    assert_eq!(error.code.0, -32602);
    let data = error.data.expect("error data");
    assert_eq!(data["tool"], json!("search_symbol"));
    assert_eq!(data["suggestions"][0], json!("search_symbols"), "{data:#}");
    server.stop().await;
}

/// A health report without each plugin's `health` counters.
fn without_call_counters(mut report: Value) -> Value {
    if let Some(plugins) = report["components"]["plugins"].as_array_mut() {
        for plugin in plugins {
            if let Some(plugin) = plugin.as_object_mut() {
                plugin.remove("health");
            }
        }
    }
    report
}

#[tokio::test]
async fn aliases_reach_the_same_tools() {
    let server = shop().await;
    let canonical = server
        .call("search_symbols", json!({ "query": "total" }))
        .await
        .ok();
    let alias = server
        .call("searchSymbols", json!({ "query": "total" }))
        .await
        .ok();
    assert_eq!(alias, canonical);

    let position = json!({ "path": "src/orders.rs", "line": 11, "character": 19 });
    let canonical = server.call("find_definition", position.clone()).await.ok();
    let alias = server.call("findDefinition", position).await.ok();
    assert_eq!(alias, canonical);
    assert_eq!(
        alias["definitions"][0]["file_path"],
        json!("src/pricing.rs")
    );

    let health = server.call("health_check", json!({})).await.ok();
    let diagnose = server.call("diagnose", json!({})).await.ok();
    // The same report, but for the plugins' call counters, which move
    // between two calls when the server works in the background (a
    // compile tier swapped in, a refresh).
    let health = without_call_counters(health);
    assert_eq!(without_call_counters(diagnose), health);
    // A solution path is checked, not ignored: a file of the workspace.
    let with_solution = server
        .call("diagnose", json!({ "solutionPath": "src/orders.rs" }))
        .await
        .ok();
    assert_eq!(with_solution["workspace"]["solutionPath"], "src/orders.rs");
    assert_eq!(with_solution["workspace"]["solutionLoaded"], true);
    for (path, code) in [
        ("missing.sln", "FILE_NOT_FOUND"),
        ("../elsewhere.sln", "PATH_OUTSIDE_BOUNDARY"),
    ] {
        let refused = server
            .call("diagnose", json!({ "solutionPath": path }))
            .await
            .code();
        assert_eq!(refused, code, "{path}");
    }
    let camel = server.call("healthCheck", json!({})).await.ok();
    assert_eq!(without_call_counters(camel), health);
    server.stop().await;
}

#[tokio::test]
async fn health_check_describes_plugins_and_workspace() {
    let server = shop().await;
    let health = server
        .call("health_check", json!({ "verbose": true }))
        .await
        .ok();
    assert_eq!(health["healthy"], json!(true), "{health:#}");
    assert_eq!(health["errors"], json!([]));
    assert_eq!(health["components"]["server"]["name"], json!("lingo"));
    let plugins = health["components"]["plugins"].as_array().unwrap();
    let rust = plugins
        .iter()
        .find(|p| p["name"] == json!("rust"))
        .unwrap_or_else(|| panic!("no rust plugin: {plugins:#?}"));
    assert_eq!(rust["extensions"], json!(["rs"]));
    for plugin in plugins {
        assert_eq!(plugin["abiVersion"], health["components"]["pluginAbi"]);
    }
    assert!(
        plugins[0]["origin"]
            .as_str()
            .unwrap()
            .starts_with("embedded:")
    );
    let workspace = &health["workspace"];
    assert_eq!(workspace["state"], json!("Ready"));
    assert_eq!(workspace["projectId"], json!("rust-workspace"));
    assert_eq!(workspace["fileCount"], json!(5));
    assert_eq!(workspace["filesWithSyntaxErrors"], json!(1));
    assert_eq!(workspace["languages"], json!({ "rust": 5 }));
    assert!(
        workspace["symbolCount"].as_u64().unwrap() >= 20,
        "{workspace:#}"
    );
    let capabilities = health["capabilities"].as_array().unwrap();
    for tool in [
        "health_check",
        "diagnose",
        "outline",
        "search_symbols",
        "get_diagnostics",
        "find_definition",
    ] {
        assert!(
            capabilities.contains(&json!(tool)),
            "{tool} missing from {capabilities:?}"
        );
    }
    server.stop().await;
}

#[tokio::test]
async fn edits_on_disk_are_seen_with_a_higher_generation() {
    let scratch = Scratch::new("freshness");
    let root = scratch.copy_fixture("rust-workspace");
    let server = McpServer::start(&root, &[]).await.expect("start lingo");
    let before = server
        .call("search_symbols", json!({ "query": "restock" }))
        .await
        .ok();
    assert_eq!(before["total"], json!(0));
    let generation = before["generation"].as_u64().expect("generation");

    let pricing = root.join("src/pricing.rs");
    let mut source = std::fs::read_to_string(&pricing).unwrap();
    source.push_str(
        "\n/// Put items back on the shelf.\npub fn restock(count: u32) -> u32 {\n    count\n}\n",
    );
    std::fs::write(&pricing, source).unwrap();

    let after = server
        .call("search_symbols", json!({ "query": "restock" }))
        .await
        .ok();
    assert_eq!(
        hits(&after),
        vec![hit("src/pricing.rs", 51, "restock")],
        "{after:#}"
    );
    assert_eq!(
        after["symbols"][0]["docComment"],
        json!("Put items back on the shelf.")
    );
    assert!(
        after["generation"].as_u64().unwrap() > generation,
        "{generation} -> {after:#}"
    );

    // A new file in a new folder is picked up.
    std::fs::create_dir_all(root.join("src/shelf")).unwrap();
    std::fs::write(root.join("src/shelf/mod.rs"), "pub struct Shelf;\n").unwrap();
    let shelf = server
        .call("search_symbols", json!({ "query": "Shelf" }))
        .await
        .ok();
    assert_eq!(
        hits(&shelf),
        vec![hit("src/shelf/mod.rs", 1, "Shelf")],
        "{shelf:#}"
    );
    assert!(shelf["generation"].as_u64().unwrap() > after["generation"].as_u64().unwrap());
    let after = shelf;

    // A deleted file disappears, again with a new generation.
    std::fs::remove_file(root.join("src/decoy.rs")).unwrap();
    let without = server
        .call("search_symbols", json!({ "query": "total" }))
        .await
        .ok();
    assert!(
        hits(&without)
            .iter()
            .all(|(path, _, _)| path != "src/decoy.rs"),
        "{without:#}"
    );
    assert!(without["generation"].as_u64().unwrap() > after["generation"].as_u64().unwrap());

    // Nothing changed: same generation.
    let again = server
        .call("search_symbols", json!({ "query": "total" }))
        .await
        .ok();
    assert_eq!(again["generation"], without["generation"]);
    server.stop().await;
}

#[tokio::test]
async fn positions_count_utf16_code_units() {
    let scratch = Scratch::new("unicode");
    scratch.write("ws/Cargo.toml", "[package]\nname = \"unicode\"\n");
    scratch.write(
        "ws/src/a.rs",
        "/// Größe.\npub fn größe(x: u32) -> u32 { x }\n",
    );
    // Line 4: `"😀"` is four UTF-16 units (six bytes) and `größe` five (seven bytes).
    scratch.write(
        "ws/src/lib.rs",
        "mod a;\nuse crate::a::größe;\n\npub fn sum() -> u32 {\n    let s = \"😀\"; let n = größe(1);\n    n + s.len() as u32\n}\n",
    );
    let server = McpServer::start(&scratch.path().join("ws"), &[])
        .await
        .expect("start lingo");

    // `größe` starts at UTF-16 character 26 of line 4 (byte 28).
    let call = server
        .call(
            "find_definition",
            json!({ "path": "src/lib.rs", "line": 4, "character": 26 }),
        )
        .await
        .ok();
    assert_eq!(call["resolution"], json!("import"), "{call:#}");
    let definition = &call["definitions"][0];
    assert_eq!(definition["file_path"], json!("src/a.rs"));
    assert_eq!(definition["name"], json!("größe"));
    assert_eq!(definition["name_range"], range((1, 7), (1, 12)));
    assert_eq!(definition["range"], range((1, 0), (1, 33)));

    // `n` on line 5 is the binding at UTF-16 character 22 of line 4 (byte 24).
    let local = server
        .call(
            "find_definition",
            json!({ "path": "src/lib.rs", "line": 5, "character": 4 }),
        )
        .await
        .ok();
    assert_eq!(local["resolution"], json!("scope"), "{local:#}");
    assert_eq!(local["definitions"][0]["range"], range((4, 22), (4, 23)));

    let found = server
        .call("search_symbols", json!({ "query": "größe" }))
        .await
        .ok();
    assert_eq!(hits(&found), vec![hit("src/a.rs", 2, "größe")]);
    assert_eq!(found["symbols"][0]["docComment"], json!("Größe."));
    server.stop().await;
}

/// `path` in `search_symbols` names a folder ("only files under this path"),
/// so `src` must not match `srcs/`.
#[tokio::test]
async fn search_path_filter_is_a_folder_not_a_string_prefix() {
    let scratch = Scratch::new("search-path");
    let root = scratch.copy_fixture("rust-workspace");
    std::fs::create_dir_all(root.join("srcs")).unwrap();
    std::fs::write(
        root.join("srcs/extra.rs"),
        "pub fn total() -> u64 {\n    0\n}\n",
    )
    .unwrap();
    let server = McpServer::start(&root, &[]).await.expect("start lingo");
    let scoped = server
        .call(
            "search_symbols",
            json!({ "query": "total", "path": "src", "limit": 10 }),
        )
        .await
        .ok();
    let paths: Vec<String> = hits(&scoped).into_iter().map(|(path, _, _)| path).collect();
    assert!(paths.iter().all(|p| p.starts_with("src/")), "{scoped:#}");
    assert_eq!(scoped["total"], json!(4));
    let everywhere = server
        .call("search_symbols", json!({ "query": "total", "limit": 10 }))
        .await
        .ok();
    assert_eq!(everywhere["total"], json!(5));
    server.stop().await;
}

/// Bad arguments name the exact field at fault; files left out of the index
/// say why instead of pretending not to exist.
#[tokio::test]
async fn errors_name_the_exact_field_and_why_a_file_is_not_indexed() {
    let scratch = Scratch::new("exact-field");
    let root = scratch.copy_fixture("rust-workspace");
    std::fs::write(root.join(".gitignore"), "generated.rs\n").unwrap();
    std::fs::write(root.join("src/generated.rs"), "pub fn generated() {}\n").unwrap();
    let server = McpServer::start(&root, &[]).await.expect("start lingo");

    let past_line_end = server
        .call(
            "find_definition",
            json!({ "path": "src/orders.rs", "line": 0, "character": 500 }),
        )
        .await
        .err();
    assert_eq!(past_line_end["code"], json!("INVALID_LINE_NUMBER"));
    assert_eq!(
        past_line_end["details"]["field"],
        json!("character"),
        "{past_line_end:#}"
    );

    for tool in ["search_symbols", "get_diagnostics"] {
        let zero = server
            .call(tool, json!({ "query": "total", "limit": 0 }))
            .await
            .err();
        if tool == "get_diagnostics" {
            // get_diagnostics has no `query`: the unknown field is refused first.
            assert_eq!(zero["code"], json!("UNKNOWN_PARAM"), "{zero:#}");
            continue;
        }
        assert_eq!(zero["code"], json!("INVALID_PARAM"), "{zero:#}");
        assert_eq!(zero["details"]["field"], json!("limit"));
    }
    let zero = server
        .call("get_diagnostics", json!({ "limit": 0 }))
        .await
        .err();
    assert_eq!(zero["code"], json!("INVALID_PARAM"), "{zero:#}");
    assert_eq!(zero["details"]["field"], json!("limit"));

    let ignored = server
        .call("outline", json!({ "path": "src/generated.rs" }))
        .await
        .err();
    assert_eq!(ignored["code"], json!("FILE_NOT_INDEXED"), "{ignored:#}");
    assert!(
        ignored["details"]["reason"]
            .as_str()
            .unwrap()
            .contains("ignore file"),
        "{ignored:#}"
    );
    server.stop().await;
}
