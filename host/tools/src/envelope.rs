//! The analyses' envelope (typemill's unified analysis API), typed: a
//! `kind` from the analysis's own list, a `scope`, `options` (paging and
//! the analysis's thresholds) and paging at the top level.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::marker::PhantomData;
use std::time::Instant;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Deserialize, Deserializer};
use serde_json::Value;

use super::ToolContext;
use crate::args::Group;
use crate::error::ToolError;
use lingo_analysis::Analysis;
use lingo_analyze::{self as analyze, AnalysisResult, Found, Scope, ScopeError, ScopeKind};
use lingo_model::budget::Exhausted;
use lingo_model::suggest::similar;

/// Findings one page holds unless asked.
pub const DEFAULT_LIMIT: u32 = 1000;
/// Most findings one page holds.
pub const MAX_LIMIT: u32 = 5000;

/// A list of names fixed by an analysis (its kinds, its threshold keys).
pub trait Names {
    const NAMES: &'static [&'static str];
    /// What the names are, for the schema (thresholds only).
    const DESCRIPTION: &'static str = "";
}

/// A string that must be one of `N::NAMES`: its schema is their enum, and
/// [`Choice::check`] refuses anything else with suggestions.
#[derive(Debug)]
pub struct Choice<N> {
    value: String,
    names: PhantomData<N>,
}

impl<'de, N> Deserialize<'de> for Choice<N> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(Choice {
            value: String::deserialize(deserializer)?,
            names: PhantomData,
        })
    }
}

impl<N: Names> JsonSchema for Choice<N> {
    fn schema_name() -> Cow<'static, str> {
        "Choice".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "type": "string", "enum": N::NAMES, "default": N::NAMES[0] })
    }
}

impl<N: Names> Choice<N> {
    /// The value, when it is one of the names; `field` names it in the refusal.
    pub fn check(&self, field: &str) -> Result<&'static str, ToolError> {
        N::NAMES
            .iter()
            .copied()
            .find(|name| *name == self.value)
            .ok_or_else(|| ToolError::InvalidParam {
                field: field.into(),
                reason: format!(
                    "`{}` is not one of {} (the kinds this analysis serves)",
                    self.value.chars().take(64).collect::<String>(),
                    N::NAMES.join(", ")
                ),
                suggestions: similar(&self.value, N::NAMES.iter().copied(), 1),
            })
    }
}

/// Numbers ≥ 0 keyed by `N::NAMES`; a key not among them is refused by
/// [`Thresholds::apply`] with the known ones.
#[derive(Debug, Default)]
pub struct Thresholds<N> {
    given: BTreeMap<String, f64>,
    names: PhantomData<N>,
}

impl<'de, N> Deserialize<'de> for Thresholds<N> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(Thresholds {
            given: BTreeMap::deserialize(deserializer)?,
            names: PhantomData,
        })
    }
}

impl<N: Names> JsonSchema for Thresholds<N> {
    fn schema_name() -> Cow<'static, str> {
        "Thresholds".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let properties: serde_json::Map<String, Value> = N::NAMES
            .iter()
            .map(|name| {
                (
                    name.to_string(),
                    serde_json::json!({ "type": "number", "minimum": 0 }),
                )
            })
            .collect();
        json_schema!({
            "type": "object",
            "description": N::DESCRIPTION,
            "properties": properties,
            "additionalProperties": false
        })
    }
}

impl<N: Names> Thresholds<N> {
    /// `defaults` with the given thresholds applied by `with` (which
    /// answers `None` for a key it does not know).
    pub fn apply<T>(
        &self,
        defaults: T,
        with: impl Fn(T, &str, f64) -> Option<T>,
    ) -> Result<T, ToolError> {
        let mut thresholds = defaults;
        for (key, value) in &self.given {
            thresholds = with(thresholds, key, *value).ok_or_else(|| ToolError::UnknownParam {
                field: format!("options.thresholds.{key}"),
                allowed: N::NAMES.iter().map(|k| k.to_string()).collect(),
                suggestions: similar(key, N::NAMES.iter().copied(), 1),
            })?;
        }
        Ok(thresholds)
    }
}

/// The files an analysis reads.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScopeArgs {
    #[serde(rename = "type")]
    kind: Option<ScopeType>,
    path: Option<String>,
    #[serde(default)]
    include: Vec<String>,
    #[serde(default)]
    exclude: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum ScopeType {
    Workspace,
    Directory,
    File,
    Symbol,
}

/// The envelope's top level: `kind` (one of `K::NAMES`), `scope`, and paging.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(bound = "")]
#[schemars(bound = "K: Names")]
pub struct Envelope<K> {
    kind: Option<Choice<K>>,
    /// Files analysed: {"type": "workspace"} (default), {"type": "directory"|"file", "path": ...}, with optional `include` / `exclude` globs (`*.rs`, `tests/`)
    scope: Option<ScopeArgs>,
    /// Findings per page (default 1000)
    #[schemars(range(min = 1, max = MAX_LIMIT))]
    limit: Option<u32>,
    /// Findings to skip (default 0)
    offset: Option<u32>,
}

impl<K: Names> Group for Envelope<K> {}

/// Paging given inside `options` (the top level wins).
pub trait Paged {
    fn limit(&self) -> Option<u32>;
    fn offset(&self) -> Option<u32>;
}

/// The options of an analysis with no options of its own.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PageOptions {
    #[schemars(range(min = 1, max = MAX_LIMIT))]
    #[schemars(extend("x-unlisted" = true))]
    pub limit: Option<u32>,
    #[schemars(extend("x-unlisted" = true))]
    pub offset: Option<u32>,
}

impl Paged for PageOptions {
    fn limit(&self) -> Option<u32> {
        self.limit
    }
    fn offset(&self) -> Option<u32> {
        self.offset
    }
}

/// `options`, a group of its own: one nested object of type `O`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(bound = "O: Deserialize<'de>")]
pub struct OptionsArg<O> {
    /// Options of the kind
    #[serde(default)]
    pub options: Option<O>,
}

impl<O: serde::de::DeserializeOwned + JsonSchema> Group for OptionsArg<O> {}

impl<O: Default> OptionsArg<O> {
    /// The options given, or their defaults.
    pub fn get(self) -> O {
        self.options.unwrap_or_default()
    }
}

impl ScopeArgs {
    /// The scope: `type` workspace (the default), directory or file; `path`
    /// for the last two.
    fn scope(self) -> Result<Scope, ToolError> {
        let kind = match self.kind.unwrap_or(ScopeType::Workspace) {
            ScopeType::Workspace => ScopeKind::Workspace,
            ScopeType::Directory => ScopeKind::Directory,
            ScopeType::File => ScopeKind::File,
            ScopeType::Symbol => {
                return Err(ToolError::invalid(
                    "scope.type",
                    "a symbol scope is not served by this analysis: use `file` with the symbol's file",
                ));
            }
        };
        if kind != ScopeKind::Workspace && self.path.is_none() {
            return Err(ToolError::MissingParam {
                field: "scope.path".into(),
            });
        }
        Ok(Scope {
            kind,
            path: self.path,
            include: self.include,
            exclude: self.exclude,
        })
    }
}

/// Run `analysis_of` on the envelope's files and answer one page of its
/// findings as an AnalysisResult of `category`.
pub fn run<K: Names>(
    context: &ToolContext,
    envelope: Envelope<K>,
    options: &dyn Paged,
    category: &'static str,
    analysis_of: impl FnOnce(
        &Analysis,
        &[std::sync::Arc<lingo_index::FileEntry>],
        &str,
    ) -> Result<Found, Exhausted>,
) -> Result<AnalysisResult, ToolError> {
    let started = Instant::now();
    let kind = match &envelope.kind {
        Some(kind) => kind.check("kind")?,
        None => K::NAMES[0],
    };
    let scope = match envelope.scope {
        Some(scope) => scope.scope()?,
        None => Scope {
            kind: ScopeKind::Workspace,
            path: None,
            include: Vec::new(),
            exclude: Vec::new(),
        },
    };
    let limit = envelope.limit.or(options.limit()).unwrap_or(DEFAULT_LIMIT) as usize;
    let offset = envelope.offset.or(options.offset()).unwrap_or(0) as usize;
    let analysis = Analysis::fresh(&context.workspace)?;
    let files = scope.files(&analysis).map_err(|e| match e {
        ScopeError::Files(e) => ToolError::from(e),
        ScopeError::Glob { .. } => ToolError::invalid("scope", e.to_string()),
    })?;
    let found = analysis_of(&analysis, &files, kind)?;
    Ok(analyze::result(
        &analysis,
        &files,
        (category, kind, scope),
        found,
        (offset, limit),
        started,
    ))
}
