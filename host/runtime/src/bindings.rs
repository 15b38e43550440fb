//! Host bindings generated from `wit/` (one module per supported ABI version).

/// `lingo:plugin@0.17.0`, `wit/lingo-plugin.wit` (the current ABI).
pub mod v0_17_0 {
    wasmtime::component::bindgen!({
        path: "../../wit",
        world: "language-plugin",
    });
}

/// `lingo:plugin@0.16.0`, `wit/v0.16.0/lingo-plugin.wit`.
pub mod v0_16_0 {
    wasmtime::component::bindgen!({
        path: "../../wit/v0.16.0",
        world: "language-plugin",
    });
}
