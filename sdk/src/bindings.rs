//! Rust bindings generated from `wit/lingo-plugin.wit` (`sdk/wit` is a link
//! to the repository's `wit/`, so a packaged SDK carries the ABI it builds).
#![allow(missing_docs, clippy::all)]

wit_bindgen::generate!({
    path: "wit",
    world: "language-plugin",
    pub_export_macro: true,
    export_macro_name: "export_bindings",
    default_bindings_module: "lingo_plugin_sdk::bindings",
});
