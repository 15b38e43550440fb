//! lingo-plugin-kit: what plugin authors run. The conformance kit
//! (`lingo plugin test`), `lingo plugin new` and `lingo plugin check`.
//! Imports `lingo-model` and `lingo-runtime` only.
//!
//! Tools for plugin authors: `lingo plugin new` writes a plugin crate,
//! `lingo plugin check` loads a built one and runs it over real files
//! (`lingo plugin test`, the conformance kit, is `crate::conformance`).

pub mod check;
pub mod conformance;
pub mod scaffold;
