//! Pagination of long results: an offset, a limit and a byte budget, with
//! what was left out stated in the answer.

use std::borrow::Cow;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Deserialize, Serialize};

use crate::args::Group;

/// Bytes of items one answer carries at most, unless the caller asks for less.
pub const DEFAULT_MAX_BYTES: usize = 256 * 1024;

/// The caller's paging request.
#[derive(Debug, Clone, Copy)]
pub struct PageRequest {
    pub offset: usize,
    pub limit: usize,
    pub max_bytes: usize,
}

/// The paging arguments of a tool listing at most `MAX` items a page,
/// `DEFAULT` unless asked.
#[derive(Debug, Deserialize)]
pub struct Paging<const DEFAULT: u32, const MAX: u32> {
    offset: Option<u32>,
    limit: Option<u32>,
    max_bytes: Option<u32>,
}

impl<const DEFAULT: u32, const MAX: u32> Group for Paging<DEFAULT, MAX> {}

impl<const DEFAULT: u32, const MAX: u32> JsonSchema for Paging<DEFAULT, MAX> {
    fn schema_name() -> Cow<'static, str> {
        format!("Paging_{DEFAULT}_{MAX}").into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "object",
            "properties": {
                "offset": { "type": "integer", "minimum": 0, "description": "Items to skip (default 0)" },
                "limit": { "type": "integer", "minimum": 1, "maximum": MAX, "description": format!("Items to return (default {DEFAULT})") },
                "max_bytes": { "type": "integer", "minimum": 1024, "maximum": DEFAULT_MAX_BYTES, "description": "Byte budget for the items (default 256 KiB)" }
            }
        })
    }
}

impl<const DEFAULT: u32, const MAX: u32> Paging<DEFAULT, MAX> {
    /// The request these arguments make.
    pub fn request(&self) -> PageRequest {
        PageRequest {
            offset: self.offset.unwrap_or(0) as usize,
            limit: self.limit.unwrap_or(DEFAULT) as usize,
            max_bytes: self.max_bytes.map_or(DEFAULT_MAX_BYTES, |b| b as usize),
        }
    }
}

/// What one page of a list holds and what it left out.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Pagination {
    pub total: usize,
    pub offset: usize,
    pub limit: usize,
    pub returned: usize,
    pub omitted: usize,
    pub has_more: bool,
    pub next_offset: Option<usize>,
    pub truncated_by_bytes: bool,
}

impl PageRequest {
    /// One page of `items` (the window of offset and limit, cut to the
    /// byte budget their JSON takes, at least one item), and what it holds.
    pub fn page<T: Serialize + Clone>(&self, items: &[T]) -> (Vec<T>, Pagination) {
        let total = items.len();
        let mut bytes = 0usize;
        let mut out = Vec::new();
        let mut cut_by_bytes = false;
        for item in items.iter().skip(self.offset).take(self.limit) {
            let size = serde_json::to_string(item).map_or(0, |json| json.len());
            if !out.is_empty() && bytes + size > self.max_bytes {
                cut_by_bytes = true;
                break;
            }
            bytes += size;
            out.push(item.clone());
        }
        let end = self.offset.min(total) + out.len();
        let pagination = Pagination {
            total,
            offset: self.offset,
            limit: self.limit,
            returned: out.len(),
            omitted: total - out.len(),
            has_more: end < total,
            next_offset: (end < total).then_some(end),
            truncated_by_bytes: cut_by_bytes,
        };
        (out, pagination)
    }
}
