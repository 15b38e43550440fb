//! The built-in TypeScript plugin through the host runtime: what it serves,
//! the grammar each extension gets, and import edits crossing the component
//! boundary.

use crate::common;

use common::plugin_for;

/// Apply `(start, end, text)` edits, back to front.
fn apply(source: &str, mut edits: Vec<(u32, u32, String)>) -> String {
    edits.sort_by_key(|e| std::cmp::Reverse(e.0));
    let mut out = source.to_string();
    for (start, end, text) in edits {
        out.replace_range(start as usize..end as usize, &text);
    }
    out
}

#[test]
fn one_plugin_serves_typescript_tsx_and_javascript_files() {
    let info = plugin_for("a.ts").info();
    assert_eq!(info.name, "typescript");
    assert_eq!(info.languages, ["typescript", "tsx", "javascript"]);
    assert_eq!(info.path_separator, ".");
    assert_eq!(
        info.manifests,
        [
            "package.json",
            "tsconfig.json",
            "tsconfig.*.json",
            "jsconfig.json"
        ]
    );
    for path in [
        "a.tsx", "a.mts", "a.cts", "a.d.ts", "a.js", "a.jsx", "a.mjs", "a.cjs",
    ] {
        assert_eq!(plugin_for(path).info().name, "typescript", "{path}");
    }
    // JSX parses in `.tsx` and `.js`; a TypeScript cast does only in `.ts`.
    let jsx = "const e = <Panel title=\"x\" />;\n";
    for path in ["view.tsx", "view.js"] {
        let facts = plugin_for(path).analyze(path, jsx, &[]).unwrap();
        assert!(
            facts.diagnostics.is_empty(),
            "{path}: {:?}",
            facts.diagnostics
        );
        assert!(
            facts.references.iter().any(|r| r.name == "Panel"),
            "{path}: {:?}",
            facts.references
        );
    }
    let cast = "const n = <number>value;\n";
    let ts = plugin_for("a.ts").analyze("a.ts", cast, &[]).unwrap();
    assert!(ts.diagnostics.is_empty(), "{:?}", ts.diagnostics);
    let tsx = plugin_for("a.tsx").analyze("a.tsx", cast, &[]).unwrap();
    assert!(!tsx.diagnostics.is_empty(), "a cast is JSX in .tsx");
}

#[test]
fn import_edits_cross_the_component_boundary() {
    let ts = plugin_for("src/app.ts");
    let source = "import { a } from \"./m\";\n\nrun(a);\n";
    let added = ts
        .render_import("src/app.ts", source, "./m", &["b".into()])
        .unwrap();
    assert_eq!(
        apply(source, added),
        "import { a, b } from \"./m\";\n\nrun(a);\n"
    );
    let namespace = ts
        .render_import("src/app.ts", source, "node:path", &["* as path".into()])
        .unwrap();
    assert_eq!(
        apply(source, namespace),
        "import { a } from \"./m\";\nimport * as path from \"node:path\";\n\nrun(a);\n"
    );
    let removed = ts.remove_import("src/app.ts", source, "./m", None).unwrap();
    assert_eq!(apply(source, removed), "\nrun(a);\n");
    let missing = ts
        .remove_import("src/app.ts", source, "./m", Some("zzz"))
        .unwrap_err();
    assert_eq!(missing.code(), "PLUGIN_INVALID_INPUT", "{missing}");
}
