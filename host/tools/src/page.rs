//! Pagination of long results: an offset, a limit and a byte budget, with
//! what was left out stated in the answer.

use serde_json::{Value, json};

use super::Args;
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

impl PageRequest {
    /// `offset`, `limit` (1..=`max_limit`, default `default_limit`) and `max_bytes`.
    pub fn from_args(
        args: &Args,
        default_limit: u64,
        max_limit: u64,
    ) -> Result<PageRequest, ToolError> {
        Ok(PageRequest {
            offset: args.uint("offset", u32::MAX as u64)?.unwrap_or(0) as usize,
            limit: args.limit("limit", default_limit, max_limit)?,
            max_bytes: args
                .uint("max_bytes", DEFAULT_MAX_BYTES as u64)?
                .map_or(DEFAULT_MAX_BYTES, |b| b.max(1024) as usize),
        })
    }

    /// The schema properties of a paged tool.
    pub fn schema(default_limit: u64, max_limit: u64) -> Value {
        json!({
            "offset": { "type": "integer", "minimum": 0, "description": "Items to skip (default 0)" },
            "limit": { "type": "integer", "minimum": 1, "maximum": max_limit, "description": format!("Items to return (default {default_limit})") },
            "max_bytes": { "type": "integer", "minimum": 1024, "maximum": DEFAULT_MAX_BYTES, "description": "Byte budget for the items (default 256 KiB)" }
        })
    }

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

/// Add the paging properties to a tool's input schema.
pub fn add_to_schema(schema: &mut Value, default_limit: u64, max_limit: u64) {
    if let (Some(properties), Value::Object(paging)) = (
        schema["properties"].as_object_mut(),
        PageRequest::schema(default_limit, max_limit),
    ) {
        properties.extend(paging);
    }
}
