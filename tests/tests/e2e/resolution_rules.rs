//! Resolution rules that hold in every language, end to end on small
//! workspaces (`tests/fixtures/rules/<language>`):
//!
//! - a member access (`x.name`, `self.name`) resolves only to members, never
//!   to a module, namespace, type or a function outside a type;
//! - a member call means a method, a member read or write a field or
//!   property; a type with only the other kind keeps it: certain where the
//!   language gives fields and methods one namespace, less certain where a
//!   field and a method may share a name (Rust);
//! - a bare name found as a member of the enclosing type is a name-only
//!   guess (only some languages have an implicit `this`), and a name an
//!   import binds is never taken for such a member.

use lingo_e2e::{McpServer, fixture};
use serde_json::{Value, json};

async fn serve(language: &str) -> McpServer {
    McpServer::start(&fixture(&format!("rules/{language}")), &[])
        .await
        .expect("start lingo on the fixture")
}

/// `file:line kind resolution confidence` (1-based line) of one answer item.
fn line(item: &Value) -> String {
    format!(
        "{}:{} {} {} {:.2}",
        item["file_path"].as_str().unwrap(),
        item["range"]["start"]["line"].as_u64().unwrap() + 1,
        item["kind"].as_str().unwrap(),
        item["resolution"].as_str().unwrap(),
        item["confidence"].as_f64().unwrap(),
    )
}

/// The definitions `find_definition` gives at a zero-based position.
async fn definitions(server: &McpServer, path: &str, at: (u32, u32)) -> Vec<String> {
    let found = server
        .call(
            "find_definition",
            json!({ "path": path, "line": at.0, "character": at.1 }),
        )
        .await
        .ok();
    found["definitions"]
        .as_array()
        .unwrap_or_else(|| panic!("definitions missing: {found:#}"))
        .iter()
        .map(line)
        .collect()
}

/// The name and reference kind `find_definition` saw at a position.
async fn reference_at(server: &McpServer, path: &str, at: (u32, u32)) -> String {
    let found = server
        .call(
            "find_definition",
            json!({ "path": path, "line": at.0, "character": at.1 }),
        )
        .await
        .ok();
    format!(
        "{} {}",
        found["query"]["name"].as_str().unwrap_or_default(),
        found["query"]["referenceKind"].as_str().unwrap_or_default()
    )
}

/// The references `find_references` lists for the declaration at a
/// zero-based position, the declaration first.
async fn references(server: &McpServer, path: &str, at: (u32, u32)) -> Vec<String> {
    let found = server
        .call(
            "find_references",
            json!({ "path": path, "line": at.0, "character": at.1 }),
        )
        .await
        .ok();
    found["references"]
        .as_array()
        .unwrap_or_else(|| panic!("references missing: {found:#}"))
        .iter()
        .map(line)
        .collect()
}

/// A member access resolves only to members.
mod members_only {
    use super::*;

    /// `parser("1").parse()` next to a function `scan::parse` in an inline
    /// module: only the method `Parser::parse` is meant, and certainly so,
    /// through `parser`'s declared return type.
    #[tokio::test]
    async fn rust_call_on_a_value_is_not_a_function_of_a_module() {
        let server = serve("rust").await;
        assert_eq!(
            reference_at(&server, "src/geometry.rs", (14, 17)).await,
            "parse call"
        );
        assert_eq!(
            definitions(&server, "src/geometry.rs", (14, 17)).await,
            ["src/text.rs:6 method qualified 1.00"]
        );
        // The module's function is used by nothing.
        assert_eq!(
            references(&server, "src/text.rs", (17, 12)).await,
            ["src/text.rs:18 declaration declaration 1.00"]
        );
        assert_eq!(
            references(&server, "src/text.rs", (5, 12)).await,
            [
                "src/text.rs:6 declaration declaration 1.00",
                "src/geometry.rs:15 call qualified 1.00",
            ]
        );
        server.stop().await;
    }

    /// `this.Total` in class `Shop.Order` is the property `Total`, not the
    /// class `Total` of namespace `Shop.Order`.
    #[tokio::test]
    async fn csharp_this_member_is_not_a_type_of_a_same_named_namespace() {
        let server = serve("csharp").await;
        assert_eq!(
            reference_at(&server, "Orders/Order.cs", (8, 25)).await,
            "Total reference"
        );
        assert_eq!(
            definitions(&server, "Orders/Order.cs", (8, 25)).await,
            ["Orders/Order.cs:5 property qualified 1.00"]
        );
        assert_eq!(
            references(&server, "Orders/Total.cs", (2, 17)).await,
            ["Orders/Total.cs:3 declaration declaration 1.00"]
        );
        assert_eq!(
            references(&server, "Orders/Order.cs", (4, 24)).await,
            [
                "Orders/Order.cs:5 declaration declaration 1.00",
                "Orders/Order.cs:9 reference qualified 1.00",
            ]
        );
        server.stop().await;
    }

    /// `parser("1").parse()` next to a function `parse` of namespace `scan`:
    /// the method, through `parser`'s declared return type.
    #[tokio::test]
    async fn typescript_call_on_a_value_is_not_a_function_of_a_namespace() {
        let server = serve("typescript").await;
        assert_eq!(
            reference_at(&server, "src/main.ts", (3, 23)).await,
            "parse call"
        );
        assert_eq!(
            definitions(&server, "src/main.ts", (3, 23)).await,
            ["src/text.ts:4 method qualified 1.00"]
        );
        assert_eq!(
            references(&server, "src/text.ts", (13, 18)).await,
            ["src/text.ts:14 declaration declaration 1.00"]
        );
        server.stop().await;
    }
}

/// A member call means a method, a member read or write a field; where
/// only the other kind exists it is meant, certainly where the language
/// gives fields and methods one namespace (ABI 0.7.0's policy).
mod field_or_method {
    use super::*;

    /// `Extractor` has a field and a method `limit_repeat`: the write and
    /// the read are the field's, the call the method's, each certain.
    #[tokio::test]
    async fn rust_field_and_method_of_the_same_name() {
        let server = serve("rust").await;
        assert_eq!(
            reference_at(&server, "src/limits.rs", (11, 14)).await,
            "limit_repeat reference"
        );
        assert_eq!(
            definitions(&server, "src/limits.rs", (11, 14)).await,
            ["src/limits.rs:2 field qualified 1.00"]
        );
        assert_eq!(
            definitions(&server, "src/limits.rs", (6, 14)).await,
            ["src/limits.rs:2 field qualified 1.00"]
        );
        assert_eq!(
            definitions(&server, "src/limits.rs", (15, 14)).await,
            ["src/limits.rs:6 method qualified 1.00"]
        );
        // Through a parameter declared `&mut Extractor`: that type's
        // members, the field for the read and the method for the call.
        assert_eq!(
            definitions(&server, "src/limits.rs", (21, 15)).await,
            ["src/limits.rs:6 method qualified 1.00"]
        );
        assert_eq!(
            definitions(&server, "src/limits.rs", (22, 15)).await,
            ["src/limits.rs:2 field qualified 1.00"]
        );
        assert_eq!(
            references(&server, "src/limits.rs", (1, 6)).await,
            [
                "src/limits.rs:2 declaration declaration 1.00",
                "src/limits.rs:7 write qualified 1.00",
                "src/limits.rs:12 reference qualified 1.00",
                "src/limits.rs:23 reference qualified 1.00",
            ]
        );
        assert_eq!(
            references(&server, "src/limits.rs", (5, 12)).await,
            [
                "src/limits.rs:6 declaration declaration 1.00",
                "src/limits.rs:16 call qualified 1.00",
                "src/limits.rs:22 call qualified 1.00",
            ]
        );
        server.stop().await;
    }

    /// A read that finds only a method: in Rust a field of that name may be
    /// out of sight (declared by a macro), so the method is less certain.
    #[tokio::test]
    async fn rust_method_read_without_a_call_is_a_guess() {
        let server = serve("rust").await;
        assert_eq!(
            definitions(&server, "src/limits.rs", (38, 10)).await,
            ["src/limits.rs:33 method qualified 0.80"]
        );
        server.stop().await;
    }

    /// `c.step(...)` calls a field holding a function; `c.Next` is a method
    /// value. A Go type's fields and methods share one namespace (the
    /// plugin's policy says so), so each is the one member meant: certain.
    #[tokio::test]
    async fn go_field_called_and_method_value() {
        let server = serve("go").await;
        assert_eq!(
            definitions(&server, "counter/counter.go", (10, 14)).await,
            ["counter/counter.go:6 field qualified 1.00"]
        );
        assert_eq!(
            reference_at(&server, "counter/counter.go", (16, 11)).await,
            "Next reference"
        );
        assert_eq!(
            definitions(&server, "counter/counter.go", (16, 11)).await,
            ["counter/counter.go:10 method qualified 1.00"]
        );
        assert_eq!(
            references(&server, "counter/counter.go", (9, 18)).await,
            [
                "counter/counter.go:10 declaration declaration 1.00",
                "counter/counter.go:17 reference qualified 1.00",
            ]
        );
        server.stop().await;
    }

    /// `this.onClick()` calls a property; `this.press` reads a method: one
    /// namespace for a class's members, as in Go.
    #[tokio::test]
    async fn typescript_property_called_and_method_read() {
        let server = serve("typescript").await;
        assert_eq!(
            definitions(&server, "src/button.ts", (4, 10)).await,
            ["src/button.ts:2 field qualified 1.00"]
        );
        assert_eq!(
            definitions(&server, "src/button.ts", (8, 16)).await,
            ["src/button.ts:4 method qualified 1.00"]
        );
        server.stop().await;
    }
}

/// A bare name and the members of the enclosing type.
mod bare_names {
    use super::*;

    /// `min(value, self.high)` in an `impl` with its own `min`: `min` is
    /// imported from the standard library, not the method. `area(...)` is
    /// the imported function, not the method `Range::area`.
    #[tokio::test]
    async fn rust_imported_function_wins_over_the_method() {
        let server = serve("rust").await;
        assert_eq!(
            reference_at(&server, "src/range.rs", (19, 9)).await,
            "min call"
        );
        assert_eq!(
            definitions(&server, "src/range.rs", (19, 9)).await,
            Vec::<String>::new()
        );
        assert_eq!(
            definitions(&server, "src/range.rs", (23, 9)).await,
            ["src/shapes.rs:5 function import 1.00"]
        );
        assert_eq!(
            references(&server, "src/range.rs", (10, 12)).await,
            [
                "src/range.rs:11 declaration declaration 1.00",
                "src/range.rs:28 call qualified 1.00",
            ]
        );
        server.stop().await;
    }

    /// `Amount` alone in a method of `Invoice`: the property, by C#'s
    /// implicit `this`, which the C# plugin states in its policy: certain.
    #[tokio::test]
    async fn csharp_enclosing_member_by_the_plugins_policy() {
        let server = serve("csharp").await;
        assert_eq!(
            definitions(&server, "Billing/Invoice.cs", (8, 20)).await,
            ["Billing/Invoice.cs:5 property scope 1.00"]
        );
        assert_eq!(
            references(&server, "Billing/Invoice.cs", (4, 24)).await,
            [
                "Billing/Invoice.cs:5 declaration declaration 1.00",
                "Billing/Invoice.cs:9 reference scope 1.00",
            ]
        );
        server.stop().await;
    }

    /// `Invoice` in namespace `Shop.Billing.Printing` is the class of the
    /// enclosing namespace `Shop.Billing`, which C# puts in scope (its
    /// plugin's policy says so): certain, and not `Archive.Invoice`.
    #[tokio::test]
    async fn csharp_enclosing_namespaces_are_in_scope() {
        let server = serve("csharp").await;
        assert_eq!(
            definitions(&server, "Billing/Printing/Receipt.cs", (4, 15)).await,
            ["Billing/Invoice.cs:3 class scope 1.00"]
        );
        assert_eq!(
            references(&server, "Archive/Invoice.cs", (2, 17)).await,
            ["Archive/Invoice.cs:3 declaration declaration 1.00"]
        );
        server.stop().await;
    }

    /// In class `View` with methods `format`, `clamp` and `measure`:
    /// `format(...)` is the imported function, `clamp(...)` is imported from
    /// a package outside the workspace (so nothing here), and `measure()`
    /// never means the method (TypeScript has no implicit `this`, as its
    /// plugin states): only a same-named guess, at low confidence.
    #[tokio::test]
    async fn typescript_imports_win_and_members_are_guesses() {
        let server = serve("typescript").await;
        assert_eq!(
            definitions(&server, "src/view.ts", (9, 12)).await,
            ["src/format.ts:1 function import 1.00"]
        );
        assert_eq!(
            reference_at(&server, "src/view.ts", (13, 12)).await,
            "clamp call"
        );
        assert_eq!(
            definitions(&server, "src/view.ts", (13, 12)).await,
            Vec::<String>::new()
        );
        assert_eq!(
            definitions(&server, "src/view.ts", (17, 12)).await,
            ["src/view.ts:21 method name_only 0.50"]
        );
        assert_eq!(
            references(&server, "src/view.ts", (24, 3)).await,
            ["src/view.ts:25 declaration declaration 1.00"]
        );
        server.stop().await;
    }
}
