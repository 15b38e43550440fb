//! lingo-model: what every layer of the host shares. The facts plugins
//! report about a file (symbols, references, spans, policies) in a
//! language-neutral form, interned names, the checks that make plugin facts
//! safe to use, per-request budgets, and poison-tolerant locking.
//!
//! It imports no other lingo crate and knows neither wasmtime nor JSON-RPC:
//! everything above depends on it, it depends on nothing of theirs.

pub mod budget;
pub mod facts;
pub mod name;
pub mod patterns;
pub mod suggest;
pub mod sync;
pub mod validate;

pub use facts::*;
