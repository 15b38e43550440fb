//! Host bindings generated from `wit/` (one module per supported ABI version).

/// `lingo:plugin@0.7.0`, `wit/lingo-plugin.wit` (the current ABI).
pub mod v0_7_0 {
    wasmtime::component::bindgen!({
        path: "../../wit",
        world: "language-plugin",
    });
}

/// `lingo:plugin@0.6.0`, `wit/v0.6.0/lingo-plugin.wit`.
pub mod v0_6_0 {
    wasmtime::component::bindgen!({
        path: "../../wit/v0.6.0",
        world: "language-plugin",
    });
}

/// `lingo:plugin@0.5.0`, `wit/v0.5.0/lingo-plugin.wit`.
pub mod v0_5_0 {
    wasmtime::component::bindgen!({
        path: "../../wit/v0.5.0",
        world: "language-plugin",
    });
}

/// `lingo:plugin@0.4.0`, `wit/v0.4.0/lingo-plugin.wit`.
pub mod v0_4_0 {
    wasmtime::component::bindgen!({
        path: "../../wit/v0.4.0",
        world: "language-plugin",
    });
}

/// `lingo:plugin@0.3.0`, `wit/v0.3.0/lingo-plugin.wit`.
pub mod v0_3_0 {
    wasmtime::component::bindgen!({
        path: "../../wit/v0.3.0",
        world: "language-plugin",
    });
}

/// `lingo:plugin@0.2.0`, `wit/v0.2.0/lingo-plugin.wit`.
pub mod v0_2_0 {
    wasmtime::component::bindgen!({
        path: "../../wit/v0.2.0",
        world: "language-plugin",
    });
}

/// `lingo:plugin@0.1.0`, `wit/v0.1.0/lingo-plugin.wit`.
pub mod v0_1_0 {
    wasmtime::component::bindgen!({
        path: "../../wit/v0.1.0",
        world: "language-plugin",
    });
}
