//! The protocol revision of each request: 2026-07-28 states its version and
//! the client's capabilities in every request's `_meta` (no handshake, no
//! session, `server/discover` instead of `initialize`); the revisions before
//! it negotiate once with `initialize`.

use serde_json::{Map, Value, json};

use crate::jsonrpc::{self, RpcError};

/// Revisions a request states in its `_meta`, newest first.
pub const STATELESS_PROTOCOL_VERSIONS: &[&str] = &["2026-07-28"];
/// Revisions negotiated with `initialize`, newest first.
pub const HANDSHAKE_PROTOCOL_VERSIONS: &[&str] =
    &["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];
/// JSON-RPC error code of a request stating a revision not spoken here
/// (2026-07-28's UnsupportedProtocolVersionError).
pub const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;
/// How long a client may reuse a list (the tools do not change while the
/// server runs), in milliseconds.
pub const LIST_TTL_MS: u64 = 300_000;

const VERSION_KEY: &str = "io.modelcontextprotocol/protocolVersion";
const CAPABILITIES_KEY: &str = "io.modelcontextprotocol/clientCapabilities";

/// Every revision spoken, newest first.
pub fn supported_versions() -> Vec<&'static str> {
    STATELESS_PROTOCOL_VERSIONS
        .iter()
        .chain(HANDSHAKE_PROTOCOL_VERSIONS)
        .copied()
        .collect()
}

/// How one request is answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Revision {
    /// A revision negotiated with `initialize` (or none stated).
    Handshake,
    /// A revision stated in the request's own `_meta`.
    Stateless(&'static str),
}

impl Revision {
    /// The revision `params` states for `method`: none stated (and
    /// `initialize`, which negotiates its own) is the handshake's; a
    /// stateless revision must also state the client's capabilities; one
    /// not spoken here is refused with the versions that are.
    pub fn of_request(method: &str, params: &Value) -> Result<Revision, RpcError> {
        if method == "initialize" {
            return Ok(Revision::Handshake);
        }
        let meta = params.get("_meta");
        let stated = match meta.and_then(|meta| meta.get(VERSION_KEY)) {
            None if method == "server/discover" => return Ok(Revision::Stateless(newest())),
            None => return Ok(Revision::Handshake),
            Some(Value::String(version)) => version.as_str(),
            Some(_) => {
                return Err(invalid_meta(&format!("`{VERSION_KEY}` must be a string")));
            }
        };
        if let Some(version) = STATELESS_PROTOCOL_VERSIONS
            .iter()
            .copied()
            .find(|v| *v == stated)
        {
            if !meta
                .and_then(|meta| meta.get(CAPABILITIES_KEY))
                .is_some_and(Value::is_object)
            {
                return Err(invalid_meta(&format!(
                    "`{CAPABILITIES_KEY}` (an object) is required with protocol version {version}"
                )));
            }
            return Ok(Revision::Stateless(version));
        }
        if HANDSHAKE_PROTOCOL_VERSIONS.contains(&stated) {
            return Ok(Revision::Handshake);
        }
        Err(unsupported(stated))
    }

    /// Whether `method` exists in this revision (2026-07-28 removed the
    /// handshake's `ping` and `logging/setLevel`).
    pub fn has_method(self, method: &str) -> bool {
        match self {
            Revision::Handshake => true,
            Revision::Stateless(_) => !matches!(method, "ping" | "logging/setLevel"),
        }
    }

    /// The `resultType` this revision gives every result (2026-07-28:
    /// `complete`), if any.
    pub fn result_type(self) -> Option<&'static str> {
        match self {
            Revision::Handshake => None,
            Revision::Stateless(_) => Some(RESULT_COMPLETE),
        }
    }

    /// `result` of `method` as this revision shapes it: a stateless result
    /// says it is complete, and a list says how long it may be cached.
    pub fn shape(self, method: &str, result: Value) -> Value {
        let Revision::Stateless(_) = self else {
            return result;
        };
        let mut result = match result {
            Value::Object(map) => map,
            other => return other,
        };
        result
            .entry("resultType")
            .or_insert_with(|| json!(RESULT_COMPLETE));
        if method.ends_with("/list") {
            cache_hints(&mut result);
        }
        Value::Object(result)
    }
}

/// The `resultType` of a finished result.
const RESULT_COMPLETE: &str = "complete";

/// The newest revision spoken.
fn newest() -> &'static str {
    STATELESS_PROTOCOL_VERSIONS[0]
}

/// `ttlMs` and `cacheScope` of a list every client gets alike.
fn cache_hints(result: &mut Map<String, Value>) {
    result.insert("ttlMs".into(), json!(LIST_TTL_MS));
    result.insert("cacheScope".into(), json!("public"));
}

/// Where a 2026-07-28 result's metadata names the server.
const SERVER_INFO_META_KEY: &str = "io.modelcontextprotocol/serverInfo";

/// The answer to `server/discover`: the revisions, capabilities and
/// identity of the server (in `_meta`, as the revision places it).
pub fn discover(capabilities: Value, server_info: Value, instructions: &str) -> Value {
    let mut result = Map::new();
    result.insert("resultType".into(), json!("complete"));
    result.insert("supportedVersions".into(), json!(supported_versions()));
    result.insert("capabilities".into(), capabilities);
    result.insert("_meta".into(), json!({ SERVER_INFO_META_KEY: server_info }));
    result.insert("instructions".into(), json!(instructions));
    cache_hints(&mut result);
    Value::Object(result)
}

/// The refusal of a request stating a revision not spoken here.
pub fn unsupported(requested: &str) -> RpcError {
    let requested: String = requested.chars().take(64).collect();
    RpcError::new(
        UNSUPPORTED_PROTOCOL_VERSION,
        format!(
            "Unsupported protocol version: {requested}; supported: {}",
            supported_versions().join(", ")
        ),
    )
    .with_data(json!({ "supported": supported_versions(), "requested": requested }))
}

fn invalid_meta(reason: &str) -> RpcError {
    RpcError::new(
        jsonrpc::INVALID_PARAMS,
        format!("Invalid params: request _meta: {reason}"),
    )
    .with_data(json!({ "field": "_meta" }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meta(version: &str) -> Value {
        json!({ "_meta": { VERSION_KEY: version, CAPABILITIES_KEY: {} } })
    }

    #[test]
    fn a_request_states_its_revision_or_uses_the_handshake() {
        assert_eq!(
            Revision::of_request("tools/list", &json!({})).ok(),
            Some(Revision::Handshake)
        );
        assert_eq!(
            Revision::of_request("tools/list", &meta("2026-07-28")).ok(),
            Some(Revision::Stateless("2026-07-28"))
        );
        assert_eq!(
            Revision::of_request("tools/list", &meta("2025-06-18")).ok(),
            Some(Revision::Handshake)
        );
        assert_eq!(
            Revision::of_request("server/discover", &json!({})).ok(),
            Some(Revision::Stateless("2026-07-28"))
        );
    }

    #[test]
    fn an_unknown_revision_is_refused_with_the_ones_spoken() {
        let error = Revision::of_request("tools/list", &meta("2099-01-01")).unwrap_err();
        assert_eq!(error.code, UNSUPPORTED_PROTOCOL_VERSION);
        let data = error.data.expect("data");
        assert_eq!(data["requested"], json!("2099-01-01"));
        assert_eq!(data["supported"][0], json!("2026-07-28"));

        let without_capabilities = json!({ "_meta": { VERSION_KEY: "2026-07-28" } });
        let error = Revision::of_request("tools/list", &without_capabilities).unwrap_err();
        assert_eq!(error.code, jsonrpc::INVALID_PARAMS);
        assert!(
            error.message.contains(CAPABILITIES_KEY),
            "{}",
            error.message
        );
        let error = Revision::of_request("tools/list", &json!({ "_meta": { VERSION_KEY: 7 } }))
            .unwrap_err();
        assert_eq!(error.code, jsonrpc::INVALID_PARAMS);
    }

    #[test]
    fn stateless_results_are_complete_and_lists_carry_cache_hints() {
        let revision = Revision::Stateless("2026-07-28");
        let list = revision.shape("tools/list", json!({ "tools": [] }));
        assert_eq!(list["resultType"], json!("complete"));
        assert_eq!(list["ttlMs"], json!(LIST_TTL_MS));
        assert_eq!(list["cacheScope"], json!("public"));
        let call = revision.shape("tools/call", json!({ "content": [] }));
        assert_eq!(call["resultType"], json!("complete"));
        assert!(call.get("ttlMs").is_none());
        assert!(!revision.has_method("ping"));
        let legacy = Revision::Handshake.shape("tools/list", json!({ "tools": [] }));
        assert_eq!(legacy, json!({ "tools": [] }));
    }
}
