//! Use declarations of every shape (fixture for imports).

use std::collections::HashMap;
use a::b::{c, d as e, f::g};
use crate::model::*;
pub use self::inner::{self as nested, Item};
pub(crate) use super::super::Shared;
use serde;
use ::core::fmt::{self, Write};
use a::b::{h::{i, j::*}, k};

fn body() {
    use std::io::Read as _;
}
