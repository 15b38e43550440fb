//! `find_definition`: where the name at a position (or a named symbol) is
//! declared, with how it was resolved and how certain that is.

use serde_json::{Value, json};

use super::{Args, Tool, ToolContext, range_json, target};
use crate::error::ToolError;
use crate::resolve::{AtPosition, Definition, Resolution, Resolver, Target, at_offset};
use crate::workspace::FileEntry;

const MAX_DEFINITIONS: usize = 100;

pub fn tool() -> Tool {
    Tool {
        name: "find_definition",
        aliases: &["findDefinition", "goto_definition"],
        description: "Find where a symbol is declared. Give a position (path, zero-based line and character) to resolve the name there through local scopes, imports and module paths; or give a symbol name (optionally `Type::member`). Each definition says how it was resolved (declaration, scope, import, qualified, name_only) and a confidence.",
        input_schema: json!({
            "type": "object",
            "properties": {
                "path": { "type": "string", "description": "File containing the position" },
                "line": { "type": "integer", "minimum": 0, "description": "Zero-based line" },
                "character": { "type": "integer", "minimum": 0, "description": "Zero-based UTF-16 character in the line" },
                "symbol": { "type": "string", "description": "Symbol name to look up when no position is given (`name`, `Type::name` or `Type.name`)" }
            },
            "additionalProperties": false
        }),
        handler: run,
    }
}

fn run(context: &ToolContext, args: &Args) -> Result<Value, ToolError> {
    let workspace = &context.workspace;
    let snapshot = workspace.fresh();
    let resolver = Resolver::new(&snapshot);
    let line = args.uint("line", u32::MAX as u64)?;
    let character = args.uint("character", u32::MAX as u64)?;
    let (definitions, query) = match (args.str("path")?, line, args.str("symbol")?) {
        (Some(path), Some(line), _) => {
            let file = workspace.file(&snapshot, path)?;
            let character = character.unwrap_or(0);
            at_position(&resolver, &file, line, character)?
        }
        (_, None, Some(symbol)) => {
            let separators = target::separators(workspace);
            let found = resolver.by_name(symbol, &separators);
            if found.is_empty() {
                return Err(target::not_found(&resolver, symbol, &separators));
            }
            (found, json!({ "symbol": symbol }))
        }
        (Some(_), None, None) => {
            return Err(ToolError::MissingParam {
                field: "line".into(),
            });
        }
        (None, Some(_), _) => {
            return Err(ToolError::MissingParam {
                field: "path".into(),
            });
        }
        (None, None, None) => {
            return Err(ToolError::InvalidParam {
                field: "symbol".into(),
                reason: "give either `path` with `line` and `character`, or `symbol`".into(),
                suggestions: vec![
                    "{\"path\": \"src/lib.rs\", \"line\": 10, \"character\": 4}".into(),
                    "{\"symbol\": \"parse\"}".into(),
                ],
            });
        }
    };
    let total = definitions.len();
    let best = definitions.iter().map(|d| d.resolution).min();
    let rendered: Vec<Value> = definitions
        .iter()
        .take(MAX_DEFINITIONS)
        .map(render)
        .collect();
    Ok(json!({
        "query": query,
        "definitions": rendered,
        "resolution": best.map_or(json!("unresolved"), |r| json!(r)),
        "total": total,
        "truncated": total > MAX_DEFINITIONS,
        "generation": snapshot.generation,
    }))
}

fn at_position(
    resolver: &Resolver,
    file: &std::sync::Arc<FileEntry>,
    line: u64,
    character: u64,
) -> Result<(Vec<Definition>, Value), ToolError> {
    let offset = target::offset_in(file, line, character)?;
    let facts = file.facts()?;
    let query = json!({ "path": file.path, "line": line, "character": character });
    match at_offset(facts, offset) {
        Some(AtPosition::Declaration(index)) => Ok((
            vec![Definition::certain(
                Target::Symbol {
                    file: file.clone(),
                    index,
                },
                Resolution::Declaration,
            )],
            query,
        )),
        Some(AtPosition::LocalDeclaration(index)) => Ok((
            vec![Definition::certain(
                Target::Local {
                    file: file.clone(),
                    index,
                },
                Resolution::Declaration,
            )],
            query,
        )),
        Some(AtPosition::Reference(reference)) => {
            let mut query = query;
            query["name"] = json!(reference.name);
            query["referenceKind"] = json!(reference.kind);
            Ok((resolver.resolve(file, reference), query))
        }
        None => {
            let nearby = facts
                .symbols
                .iter()
                .filter(|s| s.span.start.line as u64 <= line && line <= s.span.end.line as u64)
                .map(|s| s.name.clone())
                .collect();
            Err(ToolError::NothingAtPosition {
                path: file.path.clone(),
                line: line as u32,
                character: character as u32,
                nearby,
            })
        }
    }
}

fn render(definition: &Definition) -> Value {
    let resolution = definition.resolution;
    let confidence = definition.confidence;
    match &definition.target {
        Target::Symbol { file, index } => {
            let facts = file.facts.as_ref().expect("resolved into analyzed file");
            let symbol = &facts.symbols[*index];
            json!({
                "file_path": file.path,
                "range": range_json(&symbol.span),
                "name_range": range_json(&symbol.name_span),
                "name": symbol.name,
                "kind": symbol.kind.as_str(),
                "language_kind": symbol.language_kind,
                "container": symbol.container_name,
                "signature": symbol.signature,
                "resolution": resolution,
                "confidence": confidence,
            })
        }
        Target::Local { file, index } => {
            let facts = file.facts.as_ref().expect("resolved into analyzed file");
            let local = &facts.locals[*index];
            json!({
                "file_path": file.path,
                "range": range_json(&local.span),
                "name_range": range_json(&local.span),
                "name": local.name,
                "kind": "variable",
                "language_kind": local.language_kind,
                "resolution": resolution,
                "confidence": confidence,
            })
        }
    }
}
