//! `find_type_definition`: the declaration of the type written on a
//! variable, field, property, constant or parameter. lingo reads written
//! annotations; it does not infer types, and says so when there is none.

use std::sync::Arc;

use serde_json::{Value, json};

use super::target::{self, Subject};
use super::{Args, Tool, ToolContext, range_json, view};
use crate::error::ToolError;
use crate::model::{
    DeclaredTarget, DeclaredTypeSource, FileFacts, Local, Reference, ReferenceKind, SymbolKind,
    TypeAnnotationPosition,
};
use crate::resolve::{Definition, Resolution, Resolver, Target};
use crate::workspace::FileEntry;

pub fn tool() -> Tool {
    Tool {
        name: "find_type_definition",
        aliases: &["findTypeDefinition", "goto_type_definition"],
        description: "Find the declaration of the type of a variable, field, property, constant or parameter, from its written type annotation (`x: Foo`, `Foo x`, `var x Foo`). On a type name it returns the type itself. Types that are only inferred are reported as such, never guessed.",
        input_schema: json!({
            "type": "object",
            "properties": target::properties(),
            "additionalProperties": false
        }),
        handler: run,
    }
}

fn run(context: &ToolContext, args: &Args) -> Result<Value, ToolError> {
    let workspace = &context.workspace;
    let snapshot = workspace.fresh();
    let resolver = Resolver::new(&snapshot);
    let subject = target::subject(workspace, &snapshot, &resolver, args)?;
    let table = resolver.table();
    let (file, target, annotation_indexes): (Arc<FileEntry>, DeclaredTarget, Vec<usize>) =
        match &subject {
            Subject::Symbol(r) => {
                let symbol = table.symbol(*r);
                if is_type(symbol.kind) {
                    let mut definition = view::symbol(table, *r);
                    definition["resolution"] = json!(Resolution::Declaration);
                    definition["confidence"] = json!(1.0);
                    return Ok(json!({
                        "symbol": view::symbol(table, *r),
                        "type_definitions": [definition],
                        "generation": snapshot.generation,
                    }));
                }
                if symbol.kind.is_callable() {
                    return Err(ToolError::invalid(
                        "symbol",
                        format!(
                            "`{}` is a {}; a type definition applies to variables, fields, properties, constants and parameters (its signature is in get_symbol_info)",
                            symbol.name,
                            symbol.kind.as_str()
                        ),
                    ));
                }
                let file = table.file(*r).clone();
                let facts = file.facts()?;
                let refs: Vec<usize> = facts
                    .references
                    .iter()
                    .enumerate()
                    .filter(|(_, x)| x.kind == ReferenceKind::Type && x.enclosing == Some(r.symbol))
                    .map(|(i, _)| i)
                    .collect();
                (file.clone(), DeclaredTarget::Symbol(r.symbol), refs)
            }
            Subject::Local { file, index } => {
                let facts = file.facts()?;
                let local = &facts.locals[*index];
                let refs = match file.plugin.info().policy.type_annotation {
                    TypeAnnotationPosition::AfterName => annotation_after(facts, local),
                    TypeAnnotationPosition::BeforeName => {
                        annotation_before(facts, local, &file.source)
                    }
                    TypeAnnotationPosition::None => Vec::new(),
                };
                (file.clone(), DeclaredTarget::Local(*index as u32), refs)
            }
        };
    // The type the plugin read for the declaration (ABI 0.2.0) is the
    // answer; plugins that report none are read by their annotation
    // position.
    let declared = declared_type_reference(&file, target);
    let annotations: Vec<&Reference> = match &declared {
        Some(reference) => vec![reference],
        None => annotation_refs(&file, &annotation_indexes),
    };
    if annotations.is_empty() {
        return Err(ToolError::TypeNotWritten {
            name: view::subject(table, &subject)["name"]
                .as_str()
                .unwrap_or_default()
                .to_string(),
        });
    }
    let mut definitions = Vec::new();
    let mut unresolved = Vec::new();
    for reference in annotations {
        let found: Vec<Definition> = resolver.resolve(&file, reference);
        if found.is_empty() {
            unresolved.push(json!({
                "name": reference.name,
                "range": range_json(&reference.span),
            }));
        }
        for definition in found {
            if let Target::Symbol {
                file: target,
                index,
            } = &definition.target
                && let Some(number) = table.file_number(&target.path)
            {
                let mut item = view::symbol(
                    table,
                    crate::resolve::SymbolRef {
                        file: number,
                        symbol: *index as u32,
                    },
                );
                item["written_as"] = json!(reference.name);
                item["resolution"] = json!(definition.resolution);
                item["confidence"] = json!(definition.confidence);
                definitions.push(item);
            }
        }
    }
    Ok(json!({
        "symbol": view::subject(table, &subject),
        "type_definitions": definitions,
        "unresolved_types": unresolved,
        "generation": snapshot.generation,
    }))
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
    Some(written.cloned().unwrap_or_else(|| Reference {
        name: declared.type_name.clone(),
        kind: ReferenceKind::Type,
        span: declared.span,
        qualifier: declared.type_qualifier.clone(),
        is_member: false,
        enclosing: None,
        local: None,
        receiver: None,
    }))
}

fn annotation_refs<'f>(file: &'f FileEntry, indexes: &[usize]) -> Vec<&'f Reference> {
    let facts = file.facts.as_ref().expect("analyzed file");
    indexes.iter().map(|i| &facts.references[*i]).collect()
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
