//! Pagination of long results: an offset, a limit and a byte budget, with
//! what was left out stated in the answer.

use std::borrow::Cow;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::args::Group;
use crate::error::ToolError;

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

impl PageRequest {
    /// One page of `items`, and the `pagination` object that says what the
    /// page holds and what it left out. Only the page's window is turned
    /// into JSON (`to_value`), not the whole list.
    pub fn page_with<T>(
        &self,
        items: &[T],
        to_value: impl Fn(&T) -> Result<Value, ToolError>,
    ) -> Result<(Vec<Value>, Value), ToolError> {
        let window = items
            .iter()
            .skip(self.offset)
            .take(self.limit)
            .map(to_value)
            .collect::<Result<Vec<Value>, _>>()?;
        Ok(self.cut(items.len(), window.into_iter()))
    }

    /// The items of the window that fit the byte budget (at least one),
    /// and the `pagination` object.
    fn cut(&self, total: usize, window: impl Iterator<Item = Value>) -> (Vec<Value>, Value) {
        let mut bytes = 0usize;
        let mut out = Vec::new();
        let mut cut_by_bytes = false;
        for item in window {
            let size = item.to_string().len();
            if !out.is_empty() && bytes + size > self.max_bytes {
                cut_by_bytes = true;
                break;
            }
            bytes += size;
            out.push(item);
        }
        let end = self.offset.min(total) + out.len();
        let info = json!({
            "total": total,
            "offset": self.offset,
            "limit": self.limit,
            "returned": out.len(),
            "omitted": total - out.len(),
            "has_more": end < total,
            "next_offset": (end < total).then_some(end),
            "truncated_by_bytes": cut_by_bytes,
        });
        (out, info)
    }
}
