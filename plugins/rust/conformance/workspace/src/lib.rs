//! The crate root.
pub mod a;
