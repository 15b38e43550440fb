//! `type_definition`: the declaration of the type written on a variable,
//! field, property, constant or parameter. lingo reads written annotations
//! (and the plugins' declared types); it does not infer types, and says so
//! when there is none.

use std::sync::Arc;

use schemars::JsonSchema;
use serde::Serialize;

use super::view::{Range, SubjectView, SymbolView};
use super::{Analysis, AnalysisError, Subject, Target};
use lingo_index::FileEntry;
use lingo_model::{
    DeclaredTarget, DeclaredTypeSource, FileFacts, Local, Reference, ReferenceKind, SymbolKind,
    TypeAnnotationPosition,
};
use lingo_resolve::{Resolution, SymbolRef};

/// The declaration of a type.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct TypeDefinition {
    #[serde(flatten)]
    pub symbol: SymbolView,
    /// The type's name as the annotation writes it (none when the subject
    /// is the type itself).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub written_as: Option<String>,
    pub resolution: Resolution,
    #[schemars(range(min = 0, max = 1))]
    pub confidence: f64,
}

/// A written type that resolved to no declaration of the workspace.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct UnresolvedType {
    pub name: String,
    pub range: Range,
}

/// The answer of [`Analysis::type_definition`].
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct TypeDefinitions {
    pub symbol: SubjectView,
    pub type_definitions: Vec<TypeDefinition>,
    /// None when the subject is a type (its own type definition).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unresolved_types: Option<Vec<UnresolvedType>>,
    pub generation: u64,
}

impl Analysis {
    /// The declarations of the type written on what `target` names; a type
    /// is its own type definition.
    pub fn type_definition(&self, target: &Target) -> Result<TypeDefinitions, AnalysisError> {
        let subject = self.subject(target)?;
        let table = self.table();
        let (file, declared, annotation_indexes): (Arc<FileEntry>, DeclaredTarget, Vec<usize>) =
            match &subject {
                Subject::Symbol(r) => {
                    let symbol = table.symbol(*r);
                    if is_type(symbol.kind) {
                        return Ok(TypeDefinitions {
                            symbol: SubjectView::new(table, &subject),
                            type_definitions: vec![TypeDefinition {
                                symbol: SymbolView::new(table, *r),
                                written_as: None,
                                resolution: Resolution::Declaration,
                                confidence: 1.0,
                            }],
                            unresolved_types: None,
                            generation: self.generation(),
                        });
                    }
                    if symbol.kind.is_callable() {
                        return Err(AnalysisError::NotApplicable {
                            reason: format!(
                                "`{}` is a {}; a type definition applies to variables, fields, properties, constants and parameters (its signature is in get_symbol_info)",
                                symbol.name,
                                symbol.kind.as_str()
                            ),
                        });
                    }
                    let file = table.file(*r).clone();
                    let facts = file.facts()?;
                    let refs: Vec<usize> = facts
                        .references
                        .iter()
                        .enumerate()
                        .filter(|(_, x)| {
                            x.kind == ReferenceKind::Type && x.enclosing.get() == Some(r.symbol)
                        })
                        .map(|(i, _)| i)
                        .collect();
                    (file.clone(), DeclaredTarget::Symbol(r.symbol), refs)
                }
                Subject::Local { file, index } => {
                    let facts = file.facts()?;
                    let refs = match facts.locals.get(*index) {
                        Some(local) => match file.plugin.info().policy.type_annotation {
                            TypeAnnotationPosition::AfterName => annotation_after(facts, local),
                            TypeAnnotationPosition::BeforeName => {
                                annotation_before(facts, local, &file.source())
                            }
                            TypeAnnotationPosition::None => Vec::new(),
                        },
                        None => Vec::new(),
                    };
                    (file.clone(), DeclaredTarget::Local(*index as u32), refs)
                }
            };
        // The type the plugin read for the declaration (ABI 0.2.0) is the
        // answer: written, or for a local initialised with a value whose
        // type is stated (`let p = make()`), that type. A 0.1.0 plugin
        // reports none; its annotations are read by their position.
        let resolver = self.resolver();
        let declared_reference = declared_type_reference(&file, declared);
        let states_types = file.plugin.info().reports_declared_types();
        if declared_reference.is_none()
            && states_types
            && let Some(r) = resolver.type_of_declaration(&file, declared)
        {
            return Ok(TypeDefinitions {
                symbol: SubjectView::new(table, &subject),
                type_definitions: vec![TypeDefinition {
                    symbol: SymbolView::new(table, r),
                    written_as: None,
                    resolution: Resolution::Scope,
                    confidence: 1.0,
                }],
                unresolved_types: Some(Vec::new()),
                generation: self.generation(),
            });
        }
        // Without a declared type (a slice `&[Cart]`, an array `Item[]`),
        // the type names written in the annotation: those before the value
        // a local is initialised with (`total := AreaOf([]Shape{..})`
        // writes no type for `total`).
        let before_value = match (&subject, file.facts.as_ref()) {
            (Subject::Local { index, .. }, Ok(facts)) => facts
                .locals
                .get(*index)
                .and_then(|l| l.value)
                .and_then(|v| facts.references.get(v.reference as usize))
                .map(|v| v.span.start.offset),
            _ => None,
        };
        let annotations: Vec<&Reference> = match &declared_reference {
            Some(reference) => vec![reference],
            None => annotation_refs(&file, &annotation_indexes)
                .into_iter()
                .filter(|r| before_value.is_none_or(|end| r.span.end.offset <= end))
                .collect(),
        };
        if annotations.is_empty() {
            return Err(AnalysisError::TypeNotWritten {
                name: SubjectView::new(table, &subject).name().to_string(),
            });
        }
        let mut definitions = Vec::new();
        let mut unresolved = Vec::new();
        for reference in annotations {
            let found = resolver.resolve(&file, reference);
            if found.is_empty() {
                unresolved.push(UnresolvedType {
                    name: reference.name.to_string(),
                    range: (&reference.span).into(),
                });
            }
            for definition in found {
                if let lingo_resolve::Target::Symbol {
                    file: target,
                    index,
                } = &definition.target
                    && let Some(number) = table.file_number(&target.path)
                {
                    let r = SymbolRef {
                        file: number,
                        symbol: *index as u32,
                    };
                    definitions.push(TypeDefinition {
                        symbol: SymbolView::new(table, r),
                        written_as: Some(reference.name.to_string()),
                        resolution: definition.resolution,
                        confidence: definition.confidence,
                    });
                }
            }
        }
        Ok(TypeDefinitions {
            symbol: SubjectView::new(table, &subject),
            type_definitions: definitions,
            unresolved_types: Some(unresolved),
            generation: self.generation(),
        })
    }
}

/// Type references written after a binding's name on its line, before the
/// next binding declared after it (`x: Foo`, `a: A, b: B`, `var x Foo`).
fn annotation_after(facts: &FileFacts, local: &Local) -> Vec<usize> {
    let next_binding = facts
        .locals
        .iter()
        .map(|l| l.span.start.offset)
        .filter(|o| *o > local.span.end.offset)
        .min()
        .unwrap_or(u32::MAX);
    facts
        .references
        .iter()
        .enumerate()
        .filter(|(_, x)| {
            x.kind == ReferenceKind::Type
                && x.span.start.line == local.span.end.line
                && x.span.start.offset >= local.span.end.offset
                && x.span.start.offset < next_binding
        })
        .map(|(i, _)| i)
        .collect()
}

/// Type references written before a binding's name (`Foo x`,
/// `Dictionary<string, Foo> x`, `M(Foo a, Bar b)`): those between the name
/// and the nearest separator before it (`(`, `,`, `;`, `{`, `=`) outside
/// brackets, on the name's line.
fn annotation_before(facts: &FileFacts, local: &Local, source: &str) -> Vec<usize> {
    let name_start = local.span.start.offset as usize;
    let line_start = source
        .get(..name_start)
        .and_then(|before| before.rfind('\n'))
        .map_or(0, |i| i + 1);
    let prefix = source.get(line_start..name_start).unwrap_or_default();
    let mut depth = 0i32;
    let mut segment_start = line_start;
    for (i, c) in prefix.char_indices().rev() {
        match c {
            '>' | ']' | ')' => depth += 1,
            '<' | '[' if depth > 0 => depth -= 1,
            '(' if depth > 0 => depth -= 1,
            '(' | ',' | ';' | '{' | '=' | '<' | '[' if depth == 0 => {
                segment_start = line_start + i + c.len_utf8();
                break;
            }
            _ => {}
        }
    }
    facts
        .references
        .iter()
        .enumerate()
        .filter(|(_, x)| {
            x.kind == ReferenceKind::Type
                && x.span.start.offset as usize >= segment_start
                && (x.span.end.offset as usize) <= name_start
        })
        .map(|(i, _)| i)
        .collect()
}

/// The type reference the plugin's declared type for `target` stands on
/// (written, or stated by a constructor or literal), when it reports one.
fn declared_type_reference(file: &FileEntry, target: DeclaredTarget) -> Option<Reference> {
    let facts = file.facts.as_ref().ok()?;
    let declared = facts.declared_types.iter().find(|d| {
        d.target == target
            && matches!(
                d.source,
                DeclaredTypeSource::Annotation
                    | DeclaredTypeSource::Constructor
                    | DeclaredTypeSource::Literal
            )
    })?;
    let written = facts
        .references
        .iter()
        .find(|r| r.span == declared.span && r.name == declared.type_name);
    Some(written.cloned().unwrap_or_else(|| declared.type_use()))
}

fn annotation_refs<'f>(file: &'f FileEntry, indexes: &[usize]) -> Vec<&'f Reference> {
    let Ok(facts) = file.facts.as_ref() else {
        return Vec::new();
    };
    indexes
        .iter()
        .filter_map(|i| facts.references.get(*i))
        .collect()
}

fn is_type(kind: SymbolKind) -> bool {
    matches!(
        kind,
        SymbolKind::Class
            | SymbolKind::Struct
            | SymbolKind::Interface
            | SymbolKind::Enum
            | SymbolKind::TypeParameter
    )
}
