//! `definition`: where the name at a position (or a named symbol) is
//! declared, with how it was resolved and how certain that is.

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Serialize, Serializer};

use super::target::{nothing_at, offset_in};
use super::{Analysis, AnalysisError, Range, Target};
use lingo_model::ReferenceKind;
use lingo_resolve::{AtPosition, Definition, Resolution, at_offset};

/// Definitions listed at most.
const MAX_DEFINITIONS: usize = 100;

/// What was asked: the symbol name, or the position (with the name and
/// kind of the reference found there).
#[derive(Debug, Clone, Default, Serialize, JsonSchema)]
pub struct DefinitionQuery {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub symbol: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub character: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(rename = "referenceKind", skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<String>")]
    pub reference_kind: Option<ReferenceKind>,
}

/// One declaration a name may mean.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct DefinitionSite {
    pub file_path: String,
    pub range: Range,
    pub name_range: Range,
    pub name: String,
    pub kind: &'static str,
    pub language_kind: String,
    /// Container and signature of a declaration; none for a local.
    #[serde(flatten)]
    pub declared: Option<Declared>,
    pub resolution: Resolution,
    #[schemars(range(min = 0, max = 1))]
    pub confidence: f64,
}

/// What a declaration (not a local) adds to a [`DefinitionSite`].
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Declared {
    /// The container's name as the plugin reported it.
    pub container: Option<String>,
    /// The namespaces and modules around the declaration (see
    /// [`super::view::SymbolView::namespace`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    pub signature: Option<String>,
}

/// The answer of [`Analysis::definition`].
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Definitions {
    pub query: DefinitionQuery,
    /// At most [`MAX_DEFINITIONS`].
    pub definitions: Vec<DefinitionSite>,
    /// The most certain resolution; `unresolved` when there is none.
    #[serde(serialize_with = "or_unresolved")]
    #[schemars(schema_with = "resolution_or_unresolved")]
    pub resolution: Option<Resolution>,
    pub total: usize,
    pub truncated: bool,
    pub generation: u64,
}

/// The schema [`or_unresolved`] writes.
fn resolution_or_unresolved(generator: &mut SchemaGenerator) -> Schema {
    let resolution = generator.subschema_for::<Resolution>();
    json_schema!({ "anyOf": [resolution, { "const": "unresolved" }] })
}

fn or_unresolved<S: Serializer>(
    resolution: &Option<Resolution>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    match resolution {
        Some(r) => r.serialize(serializer),
        None => serializer.serialize_str("unresolved"),
    }
}

impl Analysis {
    /// The declarations the name at a position means (a declaration is its
    /// own definition), or every declaration a symbol name matches.
    pub fn definition(&self, target: &Target) -> Result<Definitions, AnalysisError> {
        let resolver = self.resolver();
        let (definitions, query) = match target {
            Target::Position(position) => {
                let file = self.file(&position.path)?;
                let (line, character) = (position.line, position.character);
                let offset = offset_in(&file, line, character)?;
                let facts = file.facts()?;
                let mut query = DefinitionQuery {
                    path: Some(file.path.clone()),
                    line: Some(line),
                    character: Some(character),
                    ..DefinitionQuery::default()
                };
                let declared = |target| vec![Definition::certain(target, Resolution::Declaration)];
                let definitions = match at_offset(facts, offset) {
                    Some(AtPosition::Declaration(index)) => {
                        query.name = facts.symbols.get(index).map(|s| s.name.to_string());
                        declared(lingo_resolve::Target::Symbol {
                            file: file.clone(),
                            index,
                        })
                    }
                    Some(AtPosition::LocalDeclaration(index)) => {
                        query.name = facts.locals.get(index).map(|l| l.name.to_string());
                        declared(lingo_resolve::Target::Local {
                            file: file.clone(),
                            index,
                        })
                    }
                    Some(AtPosition::Reference(reference)) => {
                        query.name = Some(reference.name.to_string());
                        query.reference_kind = Some(reference.kind);
                        resolver.resolve(&file, reference)
                    }
                    None => return Err(nothing_at(&file, line, character)),
                };
                (definitions, query)
            }
            Target::Symbol(symbol) => {
                let found = resolver.by_name(&symbol.name, &self.separators());
                if found.is_empty() {
                    return Err(self.not_found(&symbol.name));
                }
                let query = DefinitionQuery {
                    symbol: Some(symbol.name.clone()),
                    ..DefinitionQuery::default()
                };
                (found, query)
            }
        };
        let total = definitions.len();
        Ok(Definitions {
            query,
            resolution: definitions.iter().map(|d| d.resolution).min(),
            definitions: definitions
                .iter()
                .take(MAX_DEFINITIONS)
                .filter_map(site)
                .collect(),
            total,
            truncated: total > MAX_DEFINITIONS,
            generation: self.generation(),
        })
    }
}

/// The view of one resolved definition.
fn site(definition: &Definition) -> Option<DefinitionSite> {
    let (resolution, confidence) = (definition.resolution, definition.confidence);
    match &definition.target {
        lingo_resolve::Target::Symbol { file, index } => {
            let symbol = file.facts.as_ref().ok()?.symbols.get(*index)?;
            Some(DefinitionSite {
                file_path: file.path.clone(),
                range: (&symbol.span).into(),
                name_range: (&symbol.name_span).into(),
                name: symbol.name.to_string(),
                kind: symbol.kind.as_str(),
                language_kind: symbol.language_kind.to_string(),
                declared: Some(Declared {
                    container: symbol.container_name.as_deref().map(String::from),
                    namespace: super::view::namespace_of(file, *index),
                    signature: symbol.signature.as_deref().map(String::from),
                }),
                resolution,
                confidence,
            })
        }
        lingo_resolve::Target::Local { file, index } => {
            let local = file.facts.as_ref().ok()?.locals.get(*index)?;
            Some(DefinitionSite {
                file_path: file.path.clone(),
                range: (&local.span).into(),
                name_range: (&local.span).into(),
                name: local.name.to_string(),
                kind: "variable",
                language_kind: local.language_kind.to_string(),
                declared: None,
                resolution,
                confidence,
            })
        }
    }
}
