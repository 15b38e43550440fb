//! A plugin's actual facts, rendered as entries with every field of the fixture format.

use serde_json::{Map, Value, json};

use super::fixture::{Category, Kind};
use lingo_model::{ContextTarget, DeclaredTarget, FileFacts, Position, Span};

/// One actual entry: every field of its category, and a short label
/// (`Foo at 3:1`) for messages.
#[derive(Debug, Clone)]
pub struct Actual {
    pub fields: Map<String, Value>,
    pub label: String,
}

/// 1-based `"line:column"`.
pub fn position(p: &Position) -> String {
    format!("{}:{}", p.line + 1, p.character + 1)
}

/// 1-based `"l:c-l:c"`.
pub fn span(s: &Span) -> String {
    format!("{}-{}", position(&s.start), position(&s.end))
}

/// The WIT case name of a serde snake_case enum value (`enum_member` → `enum-member`).
fn case_name(value: impl serde::Serialize) -> Value {
    match serde_json::to_value(value) {
        Ok(Value::String(s)) => Value::String(s.replace('_', "-")),
        Ok(other) => other,
        Err(e) => Value::String(format!("<{e}>")),
    }
}

pub fn actual(label: &str, at: Option<&Position>, fields: Value) -> Actual {
    let label = match at {
        Some(at) => format!("{label} at {}", position(at)),
        None => label.to_string(),
    };
    let Value::Object(fields) = fields else {
        unreachable!("entries are built from object literals")
    };
    Actual { fields, label }
}

/// The actual entries of `category` in `facts`; none for
/// [`Kind::Definitions`], which the host's resolution gives
/// (`super::resolution`).
pub fn entries(category: &Category, facts: &FileFacts) -> Vec<Actual> {
    let symbol_name = |index: Option<u32>| -> Value {
        match index {
            None => Value::Null,
            Some(i) => facts
                .symbols
                .get(i as usize)
                .map_or_else(|| json!(format!("<no symbol #{i}>")), |s| json!(s.name)),
        }
    };
    match category.kind {
        Kind::Symbols => facts
            .symbols
            .iter()
            .map(|s| {
                actual(
                    &s.name,
                    Some(&s.span.start),
                    json!({
                        "name": s.name,
                        "kind": case_name(s.kind),
                        "languageKind": s.language_kind,
                        "span": span(&s.span),
                        "nameSpan": span(&s.name_span),
                        "line": s.span.start.line + 1,
                        "container": symbol_name(s.container),
                        "containerName": s.container_name,
                        "visibility": case_name(s.visibility),
                        "signature": s.signature,
                        "doc": s.doc,
                        "modifiers": s.modifiers,
                    }),
                )
            })
            .collect(),
        Kind::References => facts
            .references
            .iter()
            .map(|r| {
                let local = match r.local.get() {
                    None => Value::Null,
                    Some(l) => facts.locals.get(l as usize).map_or_else(
                        || json!(format!("<no local #{l}>")),
                        |l| json!(position(&l.span.start)),
                    ),
                };
                actual(
                    &r.name,
                    Some(&r.span.start),
                    json!({
                        "name": r.name,
                        "kind": case_name(r.kind),
                        "at": position(&r.span.start),
                        "span": span(&r.span),
                        "line": r.span.start.line + 1,
                        "qualifier": r.qualifier,
                        "isMember": r.is_member,
                        "enclosing": symbol_name(r.enclosing.get()),
                        "local": local,
                    }),
                )
            })
            .collect(),
        Kind::Imports => facts
            .imports
            .iter()
            .map(|i| {
                let names: Vec<String> = i
                    .names
                    .iter()
                    .map(|n| match &n.alias {
                        Some(alias) => format!("{} as {alias}", n.name),
                        None => n.name.clone(),
                    })
                    .collect();
                actual(
                    &i.module_path,
                    Some(&i.span.start),
                    json!({
                        "modulePath": i.module_path,
                        "kind": case_name(i.kind),
                        "names": names,
                        "typeOnly": i.type_only,
                        "reexport": i.reexport,
                        "line": i.span.start.line + 1,
                        "span": span(&i.span),
                    }),
                )
            })
            .collect(),
        Kind::Locals => facts
            .locals
            .iter()
            .map(|l| {
                actual(
                    &l.name,
                    Some(&l.span.start),
                    json!({
                        "name": l.name,
                        "kind": l.language_kind,
                        "at": position(&l.span.start),
                        "span": span(&l.span),
                        "line": l.span.start.line + 1,
                        "scope": span(&l.scope),
                    }),
                )
            })
            .collect(),
        Kind::Diagnostics => facts
            .diagnostics
            .iter()
            .map(|d| {
                actual(
                    &d.code,
                    Some(&d.span.start),
                    json!({
                        "severity": case_name(d.severity),
                        "code": d.code,
                        "message": d.message,
                        "line": d.span.start.line + 1,
                        "at": position(&d.span.start),
                        "span": span(&d.span),
                    }),
                )
            })
            .collect(),
        Kind::Metrics => facts
            .metrics
            .iter()
            .map(|m| {
                let symbol = facts.symbols.get(m.symbol as usize);
                let name = symbol.map_or_else(
                    || format!("<no symbol #{}>", m.symbol),
                    |s| s.name.to_string(),
                );
                let h = &m.halstead;
                actual(
                    &name,
                    symbol.map(|s| &s.span.start),
                    json!({
                        "name": name,
                        "line": symbol.map(|s| s.span.start.line + 1),
                        "cyclomatic": m.cyclomatic,
                        "cognitive": m.cognitive,
                        "maxNesting": m.max_nesting,
                        "parameters": m.parameters,
                        "lines": m.lines,
                        "codeLines": m.code_lines,
                        "commentLines": m.comment_lines,
                        "halstead": {
                            "distinctOperators": h.distinct_operators,
                            "distinctOperands": h.distinct_operands,
                            "totalOperators": h.total_operators,
                            "totalOperands": h.total_operands,
                        },
                    }),
                )
            })
            .collect(),
        Kind::Module => facts
            .modules
            .iter()
            .map(|m| {
                actual(
                    &m.path,
                    None,
                    json!({"path": m.path, "package": m.crate_or_package}),
                )
            })
            .collect(),
        Kind::Narrowings => facts
            .narrowings
            .iter()
            .filter_map(|n| {
                let (read, by) = (
                    facts.references.get(n.value as usize)?,
                    facts.references.get(n.by as usize)?,
                );
                let at = &read.span.start;
                Some(actual(
                    &read.name,
                    Some(at),
                    json!({
                        "name": read.name.as_str(),
                        "at": position(at),
                        "line": at.line + 1,
                        "by": by.name.as_str(),
                        "byAt": position(&by.span.start),
                    }),
                ))
            })
            .collect(),
        Kind::ParameterContexts => facts
            .parameter_contexts
            .iter()
            .filter_map(|c| {
                let (name, at) = match c.target {
                    ContextTarget::Member(index) => {
                        let member = facts.references.get(index as usize)?;
                        (format!(".{}", member.name), member.span.start)
                    }
                    ContextTarget::Local(index) => {
                        let local = facts.locals.get(index as usize)?;
                        (local.name.to_string(), local.span.start)
                    }
                };
                let function = facts.references.get(c.function.reference as usize)?;
                Some(actual(
                    &name,
                    Some(&at),
                    json!({
                        "name": name,
                        "at": position(&at),
                        "line": at.line + 1,
                        "function": function.name.as_str(),
                        "functionAt": position(&function.span.start),
                        "parameters": c.parameters,
                    }),
                ))
            })
            .collect(),
        Kind::DeclaredTypes => facts
            .declared_types
            .iter()
            .map(|d| {
                let (target, name, at) = match d.target {
                    DeclaredTarget::Symbol(i) => (
                        "symbol",
                        facts
                            .symbols
                            .get(i as usize)
                            .map(|s| (s.name.to_string(), s.name_span.start)),
                        i,
                    ),
                    DeclaredTarget::Local(i) => (
                        "local",
                        facts
                            .locals
                            .get(i as usize)
                            .map(|l| (l.name.to_string(), l.span.start)),
                        i,
                    ),
                };
                let (name, start) =
                    name.unwrap_or_else(|| (format!("<no {target} #{at}>"), d.span.start));
                actual(
                    &name,
                    Some(&start),
                    json!({
                        "name": name,
                        "target": target,
                        "at": position(&start),
                        "line": start.line + 1,
                        "type": d.type_name,
                        "qualifier": d.type_qualifier,
                        "span": span(&d.span),
                        "source": d.source.wit_name(),
                    }),
                )
            })
            .collect(),
        Kind::Definitions => Vec::new(),
    }
}
