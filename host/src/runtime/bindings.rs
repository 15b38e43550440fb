//! Host bindings generated from `wit/lingo-plugin.wit` (one module per ABI version).

wasmtime::component::bindgen!({
    path: "../wit",
    world: "language-plugin",
});
