//! Validation of plugin facts at the host boundary: indices in range,
//! containers a forest of bounded depth, spans inside the file and on
//! character boundaries, strings and counts capped. Broken facts are
//! repaired or dropped, never trusted, and every repair is counted.
//!
//! Everything downstream (resolution, the graph, the tools) relies on the
//! rules checked here, so facts enter the index only through [`check`].

use std::collections::BTreeMap;

use thin_vec::ThinVec;

use crate::facts::{
    ArgumentValue, ContextTarget, DeclaredTarget, DeclaredType, DeclaredTypeSource, Diagnostic,
    FileFacts, FunctionMetrics, Import, Local, Name, OptU32, ParameterList, ParameterType,
    PluginInfo, Position, Reference, ReferenceKind, Severity, Span, Symbol, SyntaxNode, Token,
    TypeArgument,
};

/// The diagnostic code of a file whose facts broke a rule and were repaired.
pub const INVALID_OUTPUT_CODE: &str = "PLUGIN_INVALID_OUTPUT";
/// The diagnostic code of a file whose facts exceeded a cap (legitimately,
/// such as generated code nested 10,000 deep) and were cut.
pub const CAPPED_CODE: &str = "FACTS_CAPPED";

/// Caps on what one file's facts may hold.
#[derive(Debug, Clone)]
pub struct FactLimits {
    pub max_symbols: usize,
    pub max_references: usize,
    pub max_locals: usize,
    pub max_declared_types: usize,
    pub max_imports: usize,
    pub max_imported_names: usize,
    pub max_diagnostics: usize,
    pub max_modules: usize,
    /// Containers deeper than this are dropped with what they contain.
    pub max_depth: usize,
    pub max_name_bytes: usize,
    pub max_signature_bytes: usize,
    pub max_doc_bytes: usize,
    pub max_message_bytes: usize,
    /// Kinds, codes, modifiers, language names.
    pub max_label_bytes: usize,
    pub max_qualifier_segments: usize,
    pub max_modifiers: usize,
    pub max_nodes: usize,
    /// Macro definitions, and unexpanded invocations, each.
    pub max_macros: usize,
    /// Indices in a tuple element's path (tuples nested in tuples).
    pub max_tuple_depth: usize,
    /// Parameters of one function and arguments of one call, each.
    pub max_parameters: usize,
    /// Type arguments stated for one declared type, nested ones included.
    pub max_type_arguments: usize,
}

impl Default for FactLimits {
    fn default() -> Self {
        FactLimits {
            max_symbols: 1_000_000,
            max_references: 4_000_000,
            max_locals: 2_000_000,
            max_declared_types: 2_000_000,
            max_imports: 100_000,
            max_imported_names: 10_000,
            max_diagnostics: 10_000,
            max_modules: 64,
            max_depth: 256,
            max_name_bytes: 1024,
            max_signature_bytes: 4096,
            max_doc_bytes: 16 * 1024,
            max_message_bytes: 1024,
            max_label_bytes: 128,
            max_qualifier_segments: 32,
            max_modifiers: 32,
            max_nodes: 512,
            max_macros: 10_000,
            max_tuple_depth: 8,
            max_parameters: 256,
            max_type_arguments: 64,
        }
    }
}

/// Which rules a file's facts broke and which caps they exceeded, and how
/// often.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Report {
    /// Facts no correct plugin reports (indices out of range, cycles,
    /// spans outside the file).
    pub broken: BTreeMap<&'static str, usize>,
    /// Facts beyond the host's caps (counts, lengths, depth).
    pub capped: BTreeMap<&'static str, usize>,
}

impl Report {
    fn count(&mut self, rule: &'static str) {
        *self.broken.entry(rule).or_default() += 1;
    }

    fn cap(&mut self, rule: &'static str, times: usize) {
        *self.capped.entry(rule).or_default() += times;
    }

    pub fn is_clean(&self) -> bool {
        self.broken.is_empty() && self.capped.is_empty()
    }

    /// `rule (×count)` for each broken rule (caps left out).
    pub fn broken_rules(&self) -> Vec<String> {
        self.broken
            .iter()
            .map(|(rule, count)| format!("{rule} (×{count})"))
            .collect()
    }

    /// `rule (×count)` for each broken rule, then each cap exceeded.
    pub fn rules(&self) -> Vec<String> {
        self.broken
            .iter()
            .chain(&self.capped)
            .map(|(rule, count)| format!("{rule} (×{count})"))
            .collect()
    }
}

/// Check and repair `facts` reported for `source`. The repaired facts keep
/// everything valid; a diagnostic coded [`INVALID_OUTPUT_CODE`] names the
/// broken rules when there were any.
pub fn check(mut facts: FileFacts, source: &str, limits: &FactLimits) -> (FileFacts, Report) {
    let mut report = Report::default();
    let lines = LineIndex::new(source);
    let mut spans = SpanChecker {
        source,
        lines: &lines,
        report: &mut report,
    };

    cap_string(
        &mut facts.language,
        limits.max_label_bytes,
        "language name too long",
        spans.report,
    );
    cap_len(
        &mut facts.symbols,
        limits.max_symbols,
        "too many symbols",
        spans.report,
    );
    for symbol in &mut facts.symbols {
        check_symbol(symbol, &mut spans, limits);
    }
    let symbol_count = facts.symbols.len();

    cap_len(
        &mut facts.locals,
        limits.max_locals,
        "too many locals",
        spans.report,
    );
    for local in &mut facts.locals {
        check_local(local, &mut spans, limits);
    }
    let local_count = facts.locals.len();

    cap_len(
        &mut facts.references,
        limits.max_references,
        "too many references",
        spans.report,
    );
    let reference_count = facts.references.len();
    for (index, reference) in facts.references.iter_mut().enumerate() {
        check_reference(reference, symbol_count, local_count, &mut spans, limits);
        // A receiver is another reference of the file (chains of them are
        // followed a bounded number of steps, so cycles are harmless).
        if reference.receiver.is_some_and(|r| {
            r.reference as usize >= reference_count || r.reference as usize == index
        }) {
            reference.receiver = None;
            spans.report.count("reference receiver index out of range");
        }
    }
    for local in &mut facts.locals {
        if local
            .value
            .is_some_and(|v| v.reference as usize >= reference_count)
        {
            local.value = None;
            spans.report.count("local value index out of range");
        }
    }

    check_symbol_values(&mut facts, limits, spans.report);
    check_narrowings(&mut facts, spans.report);
    check_parameter_contexts(&mut facts, limits, spans.report);
    check_parameter_lists(&mut facts.parameter_lists, symbol_count, &mut spans, limits);
    check_call_arguments(&mut facts, limits, spans.report);

    cap_len(
        &mut facts.imports,
        limits.max_imports,
        "too many imports",
        spans.report,
    );
    for import in &mut facts.imports {
        check_import(import, &mut spans, limits);
    }
    cap_len(
        &mut facts.diagnostics,
        limits.max_diagnostics,
        "too many diagnostics",
        spans.report,
    );
    for diagnostic in &mut facts.diagnostics {
        check_diagnostic(diagnostic, &mut spans, limits);
    }
    cap_len(
        &mut facts.modules,
        limits.max_modules,
        "too many module identities",
        spans.report,
    );
    for module in &mut facts.modules {
        cap_string(
            &mut module.path,
            limits.max_name_bytes,
            "module path too long",
            spans.report,
        );
        if let Some(package) = &mut module.crate_or_package {
            cap_string(
                package,
                limits.max_name_bytes,
                "package name too long",
                spans.report,
            );
        }
    }
    cap_len(
        &mut facts.declared_types,
        limits.max_declared_types,
        "too many declared types",
        spans.report,
    );
    facts.declared_types.retain_mut(|declared| {
        check_declared_type(declared, symbol_count, local_count, &mut spans, limits)
    });
    cap_len(
        &mut facts.macro_definitions,
        limits.max_macros,
        "too many macro definitions",
        spans.report,
    );
    facts.macro_definitions.retain_mut(|definition| {
        cap_string(
            &mut definition.name,
            limits.max_name_bytes,
            "macro name too long",
            spans.report,
        );
        spans.span(&mut definition.span);
        let kept = !definition.name.is_empty()
            && definition.span.start.offset < definition.span.end.offset;
        if !kept {
            spans
                .report
                .count("macro definition without a name or text");
        }
        kept
    });
    cap_len(
        &mut facts.unexpanded_macros,
        limits.max_macros,
        "too many unexpanded macros",
        spans.report,
    );
    for unexpanded in &mut facts.unexpanded_macros {
        cap_string(
            &mut unexpanded.name,
            limits.max_name_bytes,
            "macro name too long",
            spans.report,
        );
        spans.span(&mut unexpanded.span);
        spans.span(&mut unexpanded.extent);
    }

    facts.metrics.retain(|m| {
        let ok = (m.symbol as usize) < symbol_count;
        if !ok {
            report.count("metrics symbol index out of range");
        }
        ok
    });
    if let Some(entry_points) = &mut facts.entry_points {
        // One entry per symbol, each naming a symbol of the file: never more
        // entries than symbols.
        let mut seen = vec![false; symbol_count];
        entry_points.retain(|e| {
            let Some(first) = seen.get_mut(e.symbol as usize) else {
                report.count("entry point symbol index out of range");
                return false;
            };
            if std::mem::replace(first, true) {
                report.count("entry point listed twice");
                return false;
            }
            true
        });
    }

    make_forest(&mut facts.symbols, &mut report);
    drop_too_deep(&mut facts, limits.max_depth, &mut report);

    let zero = Position {
        line: 0,
        character: 0,
        offset: 0,
    };
    let at_start = Span {
        start: zero,
        end: zero,
    };
    let listed = |rules: &BTreeMap<&'static str, usize>| {
        rules
            .iter()
            .map(|(rule, count)| format!("{rule} (×{count})"))
            .collect::<Vec<_>>()
            .join("; ")
    };
    if !report.broken.is_empty() {
        facts.diagnostics.push(Diagnostic {
            severity: Severity::Warning,
            code: INVALID_OUTPUT_CODE.to_string(),
            message: format!(
                "the language plugin reported facts that break the host's rules; they were repaired or dropped: {}",
                listed(&report.broken)
            ),
            span: at_start,
        });
    }
    if !report.capped.is_empty() {
        facts.diagnostics.push(Diagnostic {
            severity: Severity::Information,
            code: CAPPED_CODE.to_string(),
            message: format!(
                "the file holds more than lingo indexes; the excess was cut: {}",
                listed(&report.capped)
            ),
            span: at_start,
        });
    }
    facts.shrink_to_fit();
    (facts, report)
}

/// Check the syntax nodes a plugin's `node-at` returned for `source`.
pub fn check_nodes(
    mut nodes: Vec<SyntaxNode>,
    source: &str,
    limits: &FactLimits,
) -> (Vec<SyntaxNode>, Report) {
    let mut report = Report::default();
    let lines = LineIndex::new(source);
    let mut spans = SpanChecker {
        source,
        lines: &lines,
        report: &mut report,
    };
    cap_len(
        &mut nodes,
        limits.max_nodes,
        "too many syntax nodes",
        spans.report,
    );
    for node in &mut nodes {
        cap_string(
            &mut node.kind,
            limits.max_label_bytes,
            "node kind too long",
            spans.report,
        );
        spans.span(&mut node.span);
    }
    (nodes, report)
}

/// Check the unreachable spans a plugin's `unreachable` returned for
/// `source`: spans repaired like any fact's, empty ones dropped, at most
/// one per line of the file.
pub fn check_unreachable(mut spans: Vec<Span>, source: &str) -> (Vec<Span>, Report) {
    let mut report = Report::default();
    let lines = LineIndex::new(source);
    let cap = source.bytes().filter(|&b| b == b'\n').count() + 1;
    cap_len(
        &mut spans,
        cap,
        "more unreachable spans than lines",
        &mut report,
    );
    let mut checker = SpanChecker {
        source,
        lines: &lines,
        report: &mut report,
    };
    for span in &mut spans {
        checker.span(span);
    }
    spans.retain(|s| s.start.offset < s.end.offset);
    spans.sort_by_key(|s| (s.start.offset, s.end.offset));
    spans.dedup();
    (spans, report)
}

/// Check the tokens a plugin's `tokens` returned for `source`: each must
/// cover a non-empty range of the text on character boundaries, after the
/// one before it. A token breaking that is dropped (a lexer that is wrong
/// once is not trusted to be right about the order after it either, so
/// later tokens are kept only where they follow the last good one).
pub fn check_tokens(tokens: Vec<Token>, source: &str) -> (Vec<Token>, Report) {
    let mut report = Report::default();
    let mut kept = Vec::with_capacity(tokens.len().min(source.len()));
    let mut last_end = 0usize;
    for token in tokens {
        let (start, end) = (token.start as usize, token.end as usize);
        if start >= end || end > source.len() {
            report.count("token range empty, reversed or outside the file");
        } else if start < last_end {
            report.count("token overlapping or out of order");
        } else if !source.is_char_boundary(start) || !source.is_char_boundary(end) {
            report.count("token splits a UTF-8 character");
        } else {
            last_end = end;
            kept.push(token);
        }
    }
    (kept, report)
}

/// Check what a plugin says about itself at load: names and lists capped,
/// empty extensions and folder names dropped (an empty one would match
/// every extensionless file or nothing at all).
pub fn check_info(mut info: PluginInfo, limits: &FactLimits) -> (PluginInfo, Report) {
    let mut report = Report::default();
    let label = limits.max_label_bytes;
    for (text, rule) in [
        (&mut info.name, "plugin name too long"),
        (&mut info.version, "plugin version too long"),
        (&mut info.abi_version, "ABI version too long"),
        (&mut info.path_separator, "path separator too long"),
    ] {
        cap_string(text, label, rule, &mut report);
    }
    for (list, rule) in [
        (&mut info.languages, "language names"),
        (&mut info.extensions, "extensions"),
        (&mut info.manifests, "manifest names"),
        (&mut info.capabilities, "capabilities"),
        (&mut info.policy.skip_dirs, "folders to skip"),
        (
            &mut info.policy.unused_locals.names,
            "unused-on-purpose names",
        ),
        (
            &mut info.policy.unused_locals.prefixes,
            "unused-on-purpose names",
        ),
        (
            &mut info.policy.unused_declarations.names,
            "unused-on-purpose names",
        ),
        (
            &mut info.policy.unused_declarations.prefixes,
            "unused-on-purpose names",
        ),
        (&mut info.policy.bodiless_modifiers, "bodiless modifiers"),
        (&mut info.policy.static_modifiers, "static modifiers"),
        (&mut info.policy.conversions.top_types, "top types"),
    ] {
        let before = list.len();
        list.retain(|item| !item.is_empty() && item.len() <= label);
        if list.len() < before {
            report.count(rule);
        }
        cap_len(list, MAX_INFO_LIST, rule, &mut report);
    }
    let widening = &mut info.policy.conversions.widening;
    let before = widening.len();
    widening.retain_mut(|(from, to)| {
        to.retain(|t| !t.is_empty() && t.len() <= label);
        cap_len(to, MAX_INFO_LIST, "widened types", &mut Report::default());
        !from.is_empty() && from.len() <= label
    });
    if widening.len() < before {
        report.count("built-in types");
    }
    cap_len(widening, MAX_INFO_LIST, "built-in types", &mut report);
    (info, report)
}

/// Check the parameter lists: one per function of the file, by function
/// index; each type's names capped, a named type without a name is one
/// the rules cannot compare.
fn check_parameter_lists(
    lists: &mut Vec<ParameterList>,
    symbol_count: usize,
    spans: &mut SpanChecker<'_>,
    limits: &FactLimits,
) {
    lists.retain(|list| {
        let ok = (list.function as usize) < symbol_count;
        if !ok {
            spans
                .report
                .count("parameter list function index out of range");
        }
        ok
    });
    lists.sort_by_key(|list| list.function);
    let before = lists.len();
    lists.dedup_by_key(|list| list.function);
    if lists.len() < before {
        spans.report.count("parameter list given twice");
    }
    for list in lists.iter_mut() {
        if list.types.len() > limits.max_parameters {
            spans.report.cap(
                "too many parameters",
                list.types.len() - limits.max_parameters,
            );
            let mut kept = std::mem::take(&mut list.types).into_vec();
            kept.truncate(limits.max_parameters);
            list.types = kept.into_boxed_slice();
        }
        for ty in list.types.iter_mut() {
            match ty {
                ParameterType::BuiltIn(name)
                    if name.is_empty() || name.len() > limits.max_label_bytes =>
                {
                    spans
                        .report
                        .count("parameter built-in type name empty or too long");
                    *ty = ParameterType::Other;
                }
                ParameterType::Named(named) if named.type_name.is_empty() => {
                    spans.report.count("parameter named type without a name");
                    *ty = ParameterType::Other;
                }
                ParameterType::Named(named) => {
                    cap_name(
                        &mut named.type_name,
                        limits.max_name_bytes,
                        "parameter type name too long",
                        spans.report,
                    );
                    cap_thin_len(
                        &mut named.type_qualifier,
                        limits.max_qualifier_segments,
                        "parameter type qualifier too long",
                        spans.report,
                    );
                    for segment in &mut named.type_qualifier {
                        cap_name(
                            segment,
                            limits.max_name_bytes,
                            "parameter type qualifier segment too long",
                            spans.report,
                        );
                    }
                    spans.span(&mut named.span);
                }
                _ => {}
            }
        }
    }
}

/// Check the calls' arguments: one list per call reference of the file,
/// by call index, as many values as the call's argument count; a value
/// naming a reference out of range (or the call itself) is unknown.
fn check_call_arguments(facts: &mut FileFacts, limits: &FactLimits, report: &mut Report) {
    let references = &facts.references;
    let reference_count = references.len();
    facts.call_arguments.retain(|call| {
        let ok = references.get(call.call as usize).is_some_and(|r| {
            r.kind == ReferenceKind::Call && r.arguments.get() == Some(call.values.len() as u32)
        });
        if !ok {
            report.count("call arguments not of a call with that many arguments");
        }
        ok && call.values.len() <= limits.max_parameters
    });
    facts.call_arguments.sort_by_key(|call| call.call);
    let before = facts.call_arguments.len();
    facts.call_arguments.dedup_by_key(|call| call.call);
    if facts.call_arguments.len() < before {
        report.count("call arguments given twice");
    }
    for call in &mut facts.call_arguments {
        for value in call.values.iter_mut() {
            match value {
                ArgumentValue::Value(receiver)
                    if receiver.reference as usize >= reference_count
                        || receiver.reference == call.call =>
                {
                    report.count("argument value index out of range");
                    *value = ArgumentValue::Unknown;
                }
                ArgumentValue::BuiltIn(name)
                    if name.is_empty() || name.len() > limits.max_label_bytes =>
                {
                    report.count("argument built-in type name empty or too long");
                    *value = ArgumentValue::Unknown;
                }
                _ => {}
            }
        }
    }
}

/// Check the narrowings: each a read and what narrows it, two other
/// references of the file, one per read, in the order of the reads.
fn check_narrowings(facts: &mut FileFacts, report: &mut Report) {
    let reference_count = facts.references.len();
    facts.narrowings.retain(|n| {
        let ok = (n.value as usize) < reference_count
            && (n.by as usize) < reference_count
            && n.value != n.by;
        if !ok {
            report.count("narrowing index out of range");
        }
        ok
    });
    facts.narrowings.sort_by_key(|n| n.value);
    let before = facts.narrowings.len();
    facts.narrowings.dedup_by_key(|n| n.value);
    if facts.narrowings.len() < before {
        report.count("narrowing given twice");
    }
}

/// Check the values written for a parameter: one per target, by target,
/// each naming a reference and a member reference or local of the file,
/// with one to `max_tuple_depth` parameter positions.
fn check_parameter_contexts(facts: &mut FileFacts, limits: &FactLimits, report: &mut Report) {
    let (reference_count, local_count) = (facts.references.len(), facts.locals.len());
    facts.parameter_contexts.retain(|context| {
        let function = context.function.reference;
        let target_ok = match context.target {
            ContextTarget::Member(index) => (index as usize) < reference_count && index != function,
            ContextTarget::Local(index) => (index as usize) < local_count,
        };
        // No positions: an element of the collection `function` names
        // (`xs.push({ .. })`), which only a member of a literal is.
        let positions_ok = match context.parameters.is_empty() {
            true => context.function.indexed && matches!(context.target, ContextTarget::Member(_)),
            false => context.parameters.len() <= limits.max_tuple_depth,
        };
        let ok = target_ok && (function as usize) < reference_count && positions_ok;
        if !ok {
            report.count("parameter context index out of range or positions too many");
        }
        ok
    });
    facts
        .parameter_contexts
        .sort_by_key(|context| context.target);
    let before = facts.parameter_contexts.len();
    facts
        .parameter_contexts
        .dedup_by_key(|context| context.target);
    if facts.parameter_contexts.len() < before {
        report.count("parameter context given twice");
    }
}

/// Check the declarations' values: one per symbol, by symbol index, each
/// naming a reference of the file, its tuple element no deeper than
/// locals' may be.
fn check_symbol_values(facts: &mut FileFacts, limits: &FactLimits, report: &mut Report) {
    let (symbol_count, reference_count) = (facts.symbols.len(), facts.references.len());
    facts.symbol_values.retain(|value| {
        let ok = (value.symbol as usize) < symbol_count
            && (value.value.reference as usize) < reference_count
            && value.element.len() <= limits.max_tuple_depth;
        if !ok {
            report.count("symbol value index out of range or element too deep");
        }
        ok
    });
    facts.symbol_values.sort_by_key(|value| value.symbol);
    let before = facts.symbol_values.len();
    facts.symbol_values.dedup_by_key(|value| value.symbol);
    if facts.symbol_values.len() < before {
        report.count("symbol value given twice");
    }
}

/// Entries of each list in a plugin's info, at most.
const MAX_INFO_LIST: usize = 256;

fn check_symbol(symbol: &mut Symbol, spans: &mut SpanChecker<'_>, limits: &FactLimits) {
    cap_name(
        &mut symbol.name,
        limits.max_name_bytes,
        "symbol name too long",
        spans.report,
    );
    cap_name(
        &mut symbol.language_kind,
        limits.max_label_bytes,
        "symbol kind too long",
        spans.report,
    );
    spans.span(&mut symbol.span);
    spans.span(&mut symbol.name_span);
    if let Some(name) = &mut symbol.container_name {
        cap_name(
            name,
            limits.max_name_bytes,
            "container name too long",
            spans.report,
        );
    }
    if let Some(signature) = &mut symbol.signature {
        cap_boxed(
            signature,
            limits.max_signature_bytes,
            "signature too long",
            spans.report,
        );
    }
    if let Some(doc) = &mut symbol.doc {
        cap_boxed(
            doc,
            limits.max_doc_bytes,
            "doc comment too long",
            spans.report,
        );
    }
    let modifiers = &mut symbol.modifiers;
    if modifiers.len() > limits.max_modifiers {
        let over = modifiers.len() - limits.max_modifiers;
        spans.report.cap("too many modifiers", over);
        modifiers.truncate(limits.max_modifiers);
    }
    for modifier in &mut symbol.modifiers {
        cap_string(
            modifier,
            limits.max_label_bytes,
            "modifier too long",
            spans.report,
        );
    }
    // An arity whose least count exceeds its greatest fits no call.
    if symbol
        .arity
        .is_some_and(|a| a.max.is_some_and(|max| a.min > max))
    {
        symbol.arity = None;
        spans.report.count("symbol arity min above max");
    }
}

fn check_local(local: &mut Local, spans: &mut SpanChecker<'_>, limits: &FactLimits) {
    cap_name(
        &mut local.name,
        limits.max_name_bytes,
        "local name too long",
        spans.report,
    );
    cap_name(
        &mut local.language_kind,
        limits.max_label_bytes,
        "local kind too long",
        spans.report,
    );
    spans.span(&mut local.span);
    spans.span(&mut local.scope);
    // An element too deep to follow leaves the value unknown: the local
    // does not bind the whole of it.
    if local.element.len() > limits.max_tuple_depth {
        local.element = Box::default();
        local.value = None;
        spans.report.count("local tuple element too deep");
    }
}

fn check_reference(
    reference: &mut Reference,
    symbol_count: usize,
    local_count: usize,
    spans: &mut SpanChecker<'_>,
    limits: &FactLimits,
) {
    cap_name(
        &mut reference.name,
        limits.max_name_bytes,
        "reference name too long",
        spans.report,
    );
    spans.span(&mut reference.span);
    let qualifier = &mut reference.qualifier;
    if qualifier.len() > limits.max_qualifier_segments {
        spans.report.cap(
            "qualifier too long",
            qualifier.len() - limits.max_qualifier_segments,
        );
        qualifier.truncate(limits.max_qualifier_segments);
    }
    for segment in &mut reference.qualifier {
        cap_name(
            segment,
            limits.max_name_bytes,
            "qualifier segment too long",
            spans.report,
        );
    }
    if reference
        .enclosing
        .get()
        .is_some_and(|e| e as usize >= symbol_count)
    {
        reference.enclosing = OptU32::NONE;
        spans
            .report
            .count("reference enclosing-symbol index out of range");
    }
    if reference
        .local
        .get()
        .is_some_and(|l| l as usize >= local_count)
    {
        reference.local = OptU32::NONE;
        spans.report.count("reference local index out of range");
    }
}

/// Check the type arguments of a declared type: at most
/// `max_type_arguments`, each naming a type, its parent one before it.
/// Malformed arguments drop them all (the type is then used as written
/// without arguments).
fn check_type_arguments(
    arguments: &mut Box<[TypeArgument]>,
    spans: &mut SpanChecker<'_>,
    limits: &FactLimits,
) {
    if arguments.is_empty() {
        return;
    }
    let well_formed = arguments.len() <= limits.max_type_arguments
        && arguments.iter().enumerate().all(|(index, argument)| {
            !argument.type_name.is_empty()
                && argument
                    .parent
                    .is_none_or(|parent| (parent as usize) < index)
                && argument.members.len() <= limits.max_tuple_depth
                && !argument.members.iter().any(|m| m.is_empty())
        });
    if !well_formed {
        spans.report.count("declared type arguments malformed");
        *arguments = Box::default();
        return;
    }
    for argument in arguments.iter_mut() {
        cap_name(
            &mut argument.type_name,
            limits.max_name_bytes,
            "type argument name too long",
            spans.report,
        );
        cap_thin_len(
            &mut argument.type_qualifier,
            limits.max_qualifier_segments,
            "type argument qualifier too long",
            spans.report,
        );
        for segment in &mut argument.type_qualifier {
            cap_name(
                segment,
                limits.max_name_bytes,
                "type argument qualifier segment too long",
                spans.report,
            );
        }
        spans.span(&mut argument.span);
        for member in argument.members.iter_mut() {
            cap_name(
                member,
                limits.max_name_bytes,
                "member name too long",
                spans.report,
            );
        }
    }
}

/// Check a member path (`T["a"]["b"]`): at most `max_tuple_depth` names,
/// none empty, each capped; `false` when it is not kept.
fn members_ok(members: &mut [Name], spans: &mut SpanChecker<'_>, limits: &FactLimits) -> bool {
    if members.len() > limits.max_tuple_depth || members.iter().any(|m| m.is_empty()) {
        spans.report.count("declared type member path malformed");
        return false;
    }
    for member in members.iter_mut() {
        cap_name(
            member,
            limits.max_name_bytes,
            "member name too long",
            spans.report,
        );
    }
    true
}

/// Check a declared type; `false` when its target is out of range (it is
/// then dropped).
fn check_declared_type(
    declared: &mut DeclaredType,
    symbol_count: usize,
    local_count: usize,
    spans: &mut SpanChecker<'_>,
    limits: &FactLimits,
) -> bool {
    let in_range = match declared.target {
        DeclaredTarget::Symbol(s) => (s as usize) < symbol_count,
        DeclaredTarget::Local(l) => (l as usize) < local_count,
    };
    if !in_range {
        spans
            .report
            .count("declared type target index out of range");
        return false;
    }
    if declared.type_name.is_empty() {
        spans.report.count("declared type without a type name");
        return false;
    }
    if declared.element.len() > limits.max_tuple_depth {
        spans.report.count("declared type tuple element too deep");
        return false;
    }
    if declared.source == DeclaredTypeSource::TypeParameter && declared.element.len() != 1 {
        spans
            .report
            .count("type parameter without exactly one position");
        return false;
    }
    check_type_arguments(&mut declared.arguments, spans, limits);
    if !members_ok(&mut declared.members, spans, limits) {
        return false;
    }
    cap_name(
        &mut declared.type_name,
        limits.max_name_bytes,
        "declared type name too long",
        spans.report,
    );
    cap_thin_len(
        &mut declared.type_qualifier,
        limits.max_qualifier_segments,
        "declared type qualifier too long",
        spans.report,
    );
    for segment in &mut declared.type_qualifier {
        cap_name(
            segment,
            limits.max_name_bytes,
            "declared type qualifier segment too long",
            spans.report,
        );
    }
    spans.span(&mut declared.span);
    true
}

fn check_import(import: &mut Import, spans: &mut SpanChecker<'_>, limits: &FactLimits) {
    cap_string(
        &mut import.module_path,
        limits.max_name_bytes,
        "import path too long",
        spans.report,
    );
    spans.span(&mut import.span);
    cap_len(
        &mut import.names,
        limits.max_imported_names,
        "too many imported names",
        spans.report,
    );
    for name in &mut import.names {
        cap_string(
            &mut name.name,
            limits.max_name_bytes,
            "imported name too long",
            spans.report,
        );
        if let Some(alias) = &mut name.alias {
            cap_string(
                alias,
                limits.max_name_bytes,
                "import alias too long",
                spans.report,
            );
        }
        spans.span(&mut name.span);
    }
}

fn check_diagnostic(diagnostic: &mut Diagnostic, spans: &mut SpanChecker<'_>, limits: &FactLimits) {
    cap_string(
        &mut diagnostic.code,
        limits.max_label_bytes,
        "diagnostic code too long",
        spans.report,
    );
    cap_string(
        &mut diagnostic.message,
        limits.max_message_bytes,
        "diagnostic message too long",
        spans.report,
    );
    spans.span(&mut diagnostic.span);
}

/// Containers must point at another symbol of the file and never loop: an
/// index out of range, a symbol its own container and each link closing a
/// cycle are cut (the symbol becomes top-level). Linear in the symbols.
fn make_forest(symbols: &mut [Symbol], report: &mut Report) {
    let count = symbols.len();
    for (index, symbol) in symbols.iter_mut().enumerate() {
        match symbol.container {
            Some(c) if c as usize >= count => {
                symbol.container = None;
                report.count("container index out of range");
            }
            Some(c) if c as usize == index => {
                symbol.container = None;
                report.count("symbol is its own container");
            }
            _ => {}
        }
    }
    #[derive(Clone, Copy, PartialEq)]
    enum State {
        New,
        OnPath,
        Done,
    }
    let mut state = vec![State::New; count];
    let mut path = Vec::new();
    for start in 0..count {
        let mut current = Some(start);
        while let Some(index) = current {
            match state[index] {
                State::Done => break,
                State::OnPath => {
                    // `index` is on the path just walked: the link from the
                    // last symbol walked closes a cycle.
                    if let Some(&last) = path.last() {
                        let last: usize = last;
                        symbols[last].container = None;
                        report.count("containers form a cycle");
                    }
                    break;
                }
                State::New => {
                    state[index] = State::OnPath;
                    path.push(index);
                    current = symbols[index].container.map(|c| c as usize);
                }
            }
        }
        for index in path.drain(..) {
            state[index] = State::Done;
        }
    }
}

/// Drop symbols nested deeper than `max_depth` (and their metrics);
/// references enclosed by one are attributed to its deepest kept container.
fn drop_too_deep(facts: &mut FileFacts, max_depth: usize, report: &mut Report) {
    let symbols = &facts.symbols;
    let count = symbols.len();
    // Depths in a forest, without recursion: memoised walks up.
    let mut depth: Vec<Option<usize>> = vec![None; count];
    let mut path = Vec::new();
    for start in 0..count {
        let mut current = Some(start);
        let mut base = 0;
        while let Some(index) = current {
            if let Some(d) = depth[index] {
                base = d + 1;
                break;
            }
            path.push(index);
            current = symbols[index].container.map(|c| c as usize);
        }
        for index in path.drain(..).rev() {
            depth[index] = Some(base);
            base += 1;
        }
    }
    let depth: Vec<usize> = depth.into_iter().map(Option::unwrap_or_default).collect();
    if depth.iter().all(|&d| d <= max_depth) {
        return;
    }
    // The nearest kept symbol of each symbol (itself when kept), parents
    // first: process by increasing depth.
    let mut order: Vec<usize> = (0..count).collect();
    order.sort_by_key(|&i| depth[i]);
    let mut kept_ancestor: Vec<usize> = (0..count).collect();
    for &index in &order {
        if depth[index] > max_depth
            && let Some(container) = symbols[index].container
        {
            kept_ancestor[index] = kept_ancestor[container as usize];
        }
    }
    let mut new_index = vec![u32::MAX; count];
    let mut next = 0u32;
    for index in 0..count {
        if depth[index] <= max_depth {
            new_index[index] = next;
            next += 1;
        } else {
            report.cap("symbol nested too deep", 1);
        }
    }
    let old = std::mem::take(&mut facts.symbols);
    facts.symbols = old
        .into_iter()
        .enumerate()
        .filter(|(index, _)| depth[*index] <= max_depth)
        .map(|(_, mut symbol)| {
            symbol.container = symbol.container.map(|c| new_index[c as usize]);
            symbol
        })
        .collect();
    for reference in &mut facts.references {
        reference.enclosing = reference
            .enclosing
            .get()
            .map(|e| new_index[kept_ancestor[e as usize]])
            .into();
    }
    facts.metrics.retain_mut(|m: &mut FunctionMetrics| {
        let mapped = new_index[m.symbol as usize];
        m.symbol = mapped;
        mapped != u32::MAX
    });
    if let Some(entry_points) = &mut facts.entry_points {
        entry_points.retain_mut(|e| {
            e.symbol = new_index[e.symbol as usize];
            e.symbol != u32::MAX
        });
    }
    facts.parameter_lists.retain_mut(|list| {
        list.function = new_index[list.function as usize];
        list.function != u32::MAX
    });
    // The type of a dropped symbol goes with it.
    facts.declared_types.retain_mut(|d| match &mut d.target {
        DeclaredTarget::Symbol(s) => {
            *s = new_index[*s as usize];
            *s != u32::MAX
        }
        DeclaredTarget::Local(_) => true,
    });
}

fn cap_len<T>(items: &mut Vec<T>, max: usize, rule: &'static str, report: &mut Report) {
    if items.len() > max {
        report.cap(rule, items.len() - max);
        items.truncate(max);
    }
}

/// [`cap_len`] for a thin list.
fn cap_thin_len<T>(items: &mut ThinVec<T>, max: usize, rule: &'static str, report: &mut Report) {
    if items.len() > max {
        report.cap(rule, items.len() - max);
        items.truncate(max);
    }
}

/// Truncate `text` to at most `max` bytes, on a character boundary.
fn cap_string(text: &mut String, max: usize, rule: &'static str, report: &mut Report) {
    if text.len() > max {
        let mut end = max;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
        report.cap(rule, 1);
    }
}

/// [`cap_string`] for a boxed text.
fn cap_boxed(text: &mut Box<str>, max: usize, rule: &'static str, report: &mut Report) {
    if text.len() > max {
        let mut cut = String::from(std::mem::take(text));
        cap_string(&mut cut, max, rule, report);
        *text = cut.into_boxed_str();
    }
}

/// [`cap_string`] for an interned name.
fn cap_name(name: &mut Name, max: usize, rule: &'static str, report: &mut Report) {
    if name.len() > max {
        let mut text = name.to_string();
        cap_string(&mut text, max, rule, report);
        *name = Name::new(&text);
    }
}

/// Line starts of a source, for checking positions.
struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    fn new(source: &str) -> Self {
        let mut starts = vec![0];
        starts.extend(
            source
                .bytes()
                .enumerate()
                .filter(|(_, b)| *b == b'\n')
                .map(|(i, _)| i + 1),
        );
        LineIndex { starts }
    }

    /// The line holding byte `offset`.
    fn line_of(&self, offset: usize) -> usize {
        self.starts.partition_point(|&s| s <= offset) - 1
    }
}

/// Checks spans against one source, counting repairs.
struct SpanChecker<'a> {
    source: &'a str,
    lines: &'a LineIndex,
    report: &'a mut Report,
}

impl SpanChecker<'_> {
    fn span(&mut self, span: &mut Span) {
        self.position(&mut span.start);
        self.position(&mut span.end);
        if span.start.offset > span.end.offset {
            span.end = span.start;
            self.report.count("span ends before it starts");
        }
    }

    /// An offset inside the file on a character boundary, and a line and
    /// UTF-16 column that agree with it; recomputed from the offset when not.
    fn position(&mut self, position: &mut Position) {
        let len = self.source.len();
        let mut offset = position.offset as usize;
        if offset > len {
            offset = len;
            self.report.count("offset beyond the end of the file");
        }
        if !self.source.is_char_boundary(offset) {
            while !self.source.is_char_boundary(offset) {
                offset -= 1;
            }
            self.report.count("offset inside a character");
        }
        let line = position.line as usize;
        let agrees = self.lines.starts.get(line).is_some_and(|&start| {
            let next = self.lines.starts.get(line + 1).copied().unwrap_or(len + 1);
            start <= offset && offset < next && position.character as usize <= offset - start
        });
        if agrees && offset == position.offset as usize {
            return;
        }
        if !agrees {
            self.report
                .count("line or column disagrees with the offset");
        }
        let line = self.lines.line_of(offset);
        let start = self.lines.starts[line];
        let character: usize = self.source[start..offset].encode_utf16().count();
        *position = Position {
            line: line as u32,
            character: character as u32,
            offset: offset as u32,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facts::{ReferenceKind, SymbolKind, Visibility};

    fn pos(line: u32, character: u32, offset: u32) -> Position {
        Position {
            line,
            character,
            offset,
        }
    }

    fn span(start: u32, end: u32) -> Span {
        Span {
            start: pos(0, start, start),
            end: pos(0, end, end),
        }
    }

    fn symbol(name: &str, container: Option<u32>) -> Symbol {
        Symbol {
            name: name.into(),
            kind: SymbolKind::Function,
            language_kind: "function".into(),
            span: span(0, 1),
            name_span: span(0, 1),
            container,
            container_name: None,
            signature: None,
            doc: None,
            visibility: Visibility::Public,
            modifiers: thin_vec::ThinVec::new(),
            arity: None,
        }
    }

    fn facts(symbols: Vec<Symbol>) -> FileFacts {
        FileFacts {
            symbols,
            ..FileFacts::empty("test")
        }
    }

    #[test]
    fn a_policys_unused_names_drop_empty_and_oversized_entries() {
        let mut policy = crate::facts::LanguagePolicy::unstated();
        policy.unused_locals.names = vec![String::new(); 300];
        policy.unused_locals.prefixes = vec!["x".repeat(100_000), "_".into()];
        policy.unused_declarations.prefixes = vec![String::new()];
        policy.bodiless_modifiers = vec!["abstract".into(); 1000];
        let info = PluginInfo {
            name: "n".into(),
            version: "1".into(),
            abi_version: "0.8.0".into(),
            languages: Vec::new(),
            extensions: Vec::new(),
            manifests: Vec::new(),
            path_separator: ".".into(),
            capabilities: Vec::new(),
            policy,
        };
        let (checked, report) = check_info(info, &FactLimits::default());
        let policy = checked.policy;
        assert!(policy.unused_locals.names.is_empty());
        assert_eq!(policy.unused_locals.prefixes, ["_"]);
        // An empty prefix would make every name unused on purpose.
        assert!(policy.unused_declarations.prefixes.is_empty());
        assert!(!policy.unused_declarations.matches("helper"));
        assert_eq!(policy.bodiless_modifiers.len(), MAX_INFO_LIST);
        assert!(
            report.broken.contains_key("unused-on-purpose names"),
            "{report:?}"
        );
    }

    #[test]
    fn plugin_info_lists_and_names_are_capped() {
        let info = PluginInfo {
            name: "n".repeat(1 << 20),
            version: "1".into(),
            abi_version: "0.2.0".into(),
            languages: vec!["x".into()],
            extensions: std::iter::once(String::new())
                .chain((0..100_000).map(|i| format!("e{i}")))
                .collect(),
            manifests: Vec::new(),
            path_separator: "::".into(),
            capabilities: Vec::new(),
            policy: crate::facts::LanguagePolicy::unstated(),
        };
        let limits = FactLimits::default();
        let (checked, report) = check_info(info, &limits);
        assert!(checked.name.len() <= limits.max_label_bytes);
        assert_eq!(checked.extensions.len(), MAX_INFO_LIST);
        assert!(checked.extensions.iter().all(|e| !e.is_empty()));
        assert_eq!(checked.path_separator, "::");
        assert!(report.broken.contains_key("extensions"), "{report:?}");
        assert!(
            report.capped.contains_key("plugin name too long"),
            "{report:?}"
        );
    }

    #[test]
    fn an_arity_no_call_can_fit_is_dropped_and_extreme_counts_fit_without_overflow() {
        let mut inverted = symbol("f", None);
        inverted.arity = Some(crate::facts::Arity {
            min: 5,
            max: Some(2),
        });
        let mut extreme = symbol("g", None);
        extreme.arity = Some(crate::facts::Arity {
            min: u32::MAX,
            max: None,
        });
        let (output, report) = check(
            facts(vec![inverted, extreme]),
            "abc",
            &FactLimits::default(),
        );
        assert_eq!(output.symbols[0].arity, None);
        assert!(
            report.broken.contains_key("symbol arity min above max"),
            "{report:?}"
        );
        let extreme = output.symbols[1].arity.expect("a possible arity stays");
        assert!(extreme.fits(u32::MAX) && !extreme.fits(0));
    }

    #[test]
    fn lists_leave_validation_without_spare_room() {
        // As a list converted in place from a plugin's larger records is.
        let mut symbols = Vec::with_capacity(1_000);
        symbols.extend([symbol("a", None), symbol("b", Some(0))]);
        let mut input = facts(symbols);
        input.diagnostics.reserve(64);
        let (output, report) = check(input, "abc", &FactLimits::default());
        assert!(report.is_clean(), "{report:?}");
        assert_eq!(output.symbols.len(), 2);
        assert_eq!(output.symbols.capacity(), 2);
        assert_eq!(output.diagnostics.capacity(), 0);
    }

    #[test]
    fn valid_facts_pass_unchanged() {
        let input = facts(vec![symbol("a", None), symbol("b", Some(0))]);
        let (output, report) = check(input.clone(), "abc", &FactLimits::default());
        assert!(report.is_clean(), "{report:?}");
        assert_eq!(output, input);
    }

    #[test]
    fn a_condition_a_plugin_states_is_capped_like_any_modifier() {
        let mut gated = symbol("gated", None);
        gated.modifiers.push(format!(
            "{}{}",
            crate::CONDITION_MODIFIER,
            "x".repeat(1 << 20)
        ));
        let mut plain = symbol("plain", None);
        plain.modifiers.push("async".into());
        let limits = FactLimits::default();
        let (output, report) = check(facts(vec![gated, plain]), "ab", &limits);
        assert_eq!(report.capped["modifier too long"], 1);
        let condition = output.symbols[0].condition().expect("still a condition");
        assert!(condition.len() < limits.max_label_bytes);
        assert_eq!(output.symbols[1].condition(), None);
    }

    #[test]
    fn container_cycles_and_bad_indices_are_cut() {
        let input = facts(vec![
            symbol("a", Some(1)),
            symbol("b", Some(0)),
            symbol("c", Some(2)),
            symbol("d", Some(99)),
            symbol("e", Some(1)),
        ]);
        let (output, report) = check(input, "abc", &FactLimits::default());
        assert_eq!(report.broken["containers form a cycle"], 1);
        assert_eq!(report.broken["symbol is its own container"], 1);
        assert_eq!(report.broken["container index out of range"], 1);
        // Every chain now ends.
        for index in 0..output.symbols.len() {
            assert!(output.container_chain(index).len() < output.symbols.len());
        }
        assert_eq!(output.symbols[2].container, None);
        assert_eq!(output.symbols[3].container, None);
        let last = output.diagnostics.last().expect("a diagnostic");
        assert_eq!(last.code, INVALID_OUTPUT_CODE);
        assert!(last.message.contains("cycle"), "{}", last.message);
    }

    #[test]
    fn too_deep_symbols_are_dropped_and_references_reattributed() {
        let depth = 10_000;
        let mut input = facts(
            (0..depth)
                .map(|i: usize| symbol(&format!("s{i}"), i.checked_sub(1).map(|p| p as u32)))
                .collect(),
        );
        input.references.push(Reference {
            name: "x".into(),
            kind: ReferenceKind::Call,
            span: span(0, 1),
            qualifier: thin_vec::ThinVec::new(),
            is_member: false,
            enclosing: OptU32::new(Some(depth as u32 - 1)),
            local: OptU32::NONE,
            receiver: None,
            arguments: OptU32::NONE,
        });
        let limits = FactLimits::default();
        let (output, report) = check(input, "abc", &limits);
        assert_eq!(output.symbols.len(), limits.max_depth + 1);
        assert_eq!(
            report.capped["symbol nested too deep"],
            depth - limits.max_depth - 1
        );
        assert!(report.broken.is_empty());
        assert_eq!(output.diagnostics[0].code, CAPPED_CODE);
        assert_eq!(
            output.references[0].enclosing.get(),
            Some(limits.max_depth as u32)
        );
    }

    #[test]
    fn spans_are_clamped_to_the_file_and_its_characters() {
        let source = "é\nab";
        let mut input = facts(vec![symbol("a", None)]);
        input.symbols[0].span = Span {
            start: pos(u32::MAX, u32::MAX, 1),
            end: pos(0, 0, 1000),
        };
        input.symbols[0].name_span = Span {
            start: pos(1, 1, 4),
            end: pos(1, 0, 3),
        };
        let (output, report) = check(input, source, &FactLimits::default());
        let s = &output.symbols[0];
        assert_eq!(s.span.start, pos(0, 0, 0), "inside é: moved to its start");
        assert_eq!(s.span.end, pos(1, 2, 5), "clamped to the end");
        assert_eq!(s.name_span.start, pos(1, 1, 4));
        assert_eq!(s.name_span.end, pos(1, 1, 4), "never before the start");
        assert!(report.broken.contains_key("offset inside a character"));
        assert!(
            report
                .broken
                .contains_key("offset beyond the end of the file")
        );
        assert!(report.broken.contains_key("span ends before it starts"));
    }

    #[test]
    fn strings_and_counts_are_capped() {
        let limits = FactLimits {
            max_symbols: 2,
            ..FactLimits::default()
        };
        let mut input = facts(vec![
            symbol("a", None),
            symbol("b", None),
            symbol("c", None),
        ]);
        input.symbols[0].name = Name::new(&"ü".repeat(5000));
        input.symbols[1].doc = Some("x".repeat(1 << 20).into());
        let (output, report) = check(input, "abc", &limits);
        assert_eq!(output.symbols.len(), 2);
        assert!(output.symbols[0].name.len() <= limits.max_name_bytes);
        assert!(output.symbols[1].doc.as_ref().unwrap().len() <= limits.max_doc_bytes);
        assert_eq!(report.capped["too many symbols"], 1);
    }

    /// A narrowing names two other references of the file, one per read:
    /// one out of range, one narrowing itself and a read given twice go.
    #[test]
    fn narrowings_out_of_range_on_themselves_or_twice_are_dropped() {
        let mut input = facts(Vec::new());
        for name in ["x", "T"] {
            input.references.push(Reference {
                name: name.into(),
                kind: ReferenceKind::Reference,
                span: span(0, 1),
                qualifier: thin_vec::ThinVec::new(),
                is_member: false,
                enclosing: OptU32::NONE,
                local: OptU32::NONE,
                receiver: None,
                arguments: OptU32::NONE,
            });
        }
        let narrowing = |value, by| crate::facts::Narrowing { value, by };
        input.narrowings = vec![
            narrowing(0, 1),
            narrowing(0, 1),
            narrowing(1, 1),
            narrowing(1, u32::MAX),
        ];
        let (output, report) = check(input, "abc", &FactLimits::default());
        assert_eq!(output.narrowings, [narrowing(0, 1)]);
        assert_eq!(report.broken["narrowing index out of range"], 2);
        assert_eq!(report.broken["narrowing given twice"], 1);
    }

    /// A parameter context names a member reference or a local and another
    /// reference of the file, with one to eight positions: one out of
    /// range, one its own function, one without positions, one with too
    /// many and a target given twice go.
    #[test]
    fn parameter_contexts_out_of_range_without_positions_or_twice_are_dropped() {
        let mut input = facts(Vec::new());
        for name in ["f", "k"] {
            input.references.push(Reference {
                name: name.into(),
                kind: ReferenceKind::Reference,
                span: span(0, 1),
                qualifier: thin_vec::ThinVec::new(),
                is_member: name == "k",
                enclosing: OptU32::NONE,
                local: OptU32::NONE,
                receiver: None,
                arguments: OptU32::NONE,
            });
        }
        let context = |target, function, parameters: &[u32]| crate::facts::ParameterContext {
            target,
            function: crate::facts::Receiver {
                reference: function,
                called: false,
                indexed: false,
            },
            parameters: parameters.into(),
        };
        input.parameter_contexts = vec![
            context(ContextTarget::Member(1), 0, &[0]),
            context(ContextTarget::Member(1), 0, &[1]),
            context(ContextTarget::Member(0), 0, &[0]),
            context(ContextTarget::Member(7), 0, &[0]),
            context(ContextTarget::Local(0), 0, &[0]),
            context(ContextTarget::Member(1), 9, &[0]),
            context(ContextTarget::Member(1), 0, &[]),
            context(ContextTarget::Member(1), 0, &[0; 9]),
        ];
        let (output, report) = check(input, "abc", &FactLimits::default());
        assert_eq!(
            output.parameter_contexts,
            [context(ContextTarget::Member(1), 0, &[0])]
        );
        assert_eq!(
            report.broken["parameter context index out of range or positions too many"],
            6
        );
        assert_eq!(report.broken["parameter context given twice"], 1);
        // No positions: an element of the collection a member of a literal
        // is pushed onto (indexed), nothing else.
        let mut input = output.clone();
        let element = |target| crate::facts::ParameterContext {
            target,
            function: crate::facts::Receiver {
                reference: 0,
                called: false,
                indexed: true,
            },
            parameters: Box::default(),
        };
        input.parameter_contexts = vec![element(ContextTarget::Member(1))];
        let (kept, report) = check(input.clone(), "abc", &FactLimits::default());
        assert_eq!(kept.parameter_contexts, [element(ContextTarget::Member(1))]);
        assert!(report.is_clean(), "{report:?}");
        input.locals.push(Local {
            name: "x".into(),
            span: span(0, 1),
            scope: span(0, 3),
            language_kind: "parameter".into(),
            value: None,
            element: Box::default(),
        });
        input.parameter_contexts = vec![element(ContextTarget::Local(0))];
        let (dropped, _) = check(input, "abc", &FactLimits::default());
        assert!(dropped.parameter_contexts.is_empty());
    }

    #[test]
    fn out_of_range_reference_and_metric_indices_are_dropped() {
        let mut input = facts(vec![symbol("a", None)]);
        input.references.push(Reference {
            name: "x".into(),
            kind: ReferenceKind::Call,
            span: span(0, 1),
            qualifier: thin_vec::ThinVec::new(),
            is_member: false,
            enclosing: OptU32::new(Some(7)),
            local: OptU32::new(Some(3)),
            receiver: None,
            arguments: OptU32::NONE,
        });
        input.metrics.push(FunctionMetrics {
            symbol: 5,
            cyclomatic: 1,
            cognitive: 0,
            max_nesting: 0,
            parameters: 0,
            lines: 1,
            code_lines: 1,
            comment_lines: 0,
            halstead: crate::facts::Halstead {
                distinct_operators: 0,
                distinct_operands: 0,
                total_operators: 0,
                total_operands: 0,
            },
        });
        let (output, report) = check(input, "abc", &FactLimits::default());
        assert_eq!(output.references[0].enclosing.get(), None);
        assert_eq!(output.references[0].local.get(), None);
        assert!(output.metrics.is_empty());
        assert_eq!(report.broken.len(), 3, "{report:?}");
    }

    fn declared(target: DeclaredTarget, name: &str, start: u32, end: u32) -> DeclaredType {
        DeclaredType {
            target,
            type_name: name.into(),
            type_qualifier: thin_vec::thin_vec!["m".into()],
            span: span(start, end),
            source: crate::facts::DeclaredTypeSource::Annotation,
            element: Box::default(),
            arguments: Box::default(),
            members: Box::default(),
        }
    }

    fn argument(parent: Option<u32>, name: &str) -> TypeArgument {
        TypeArgument {
            parent,
            position: 0,
            type_name: name.into(),
            type_qualifier: thin_vec::thin_vec![Name::new("q"); 100],
            span: span(1, 2),
            members: Box::default(),
        }
    }

    #[test]
    fn type_arguments_and_type_parameters_are_checked() {
        let mut input = facts(vec![symbol("a", None)]);
        let mut nested = declared(DeclaredTarget::Symbol(0), "Map", 1, 2);
        nested.arguments = vec![argument(None, "Key"), argument(Some(0), "T")].into();
        // A parent after its child, a parent that is the argument itself,
        // a nameless argument, and too many: each drops all arguments.
        let malformed = [
            vec![argument(Some(1), "A"), argument(None, "B")],
            vec![argument(Some(0), "A")],
            vec![argument(None, "")],
            vec![argument(None, "A"); 65],
        ];
        let mut parameter = declared(DeclaredTarget::Symbol(0), "T", 1, 2);
        parameter.source = DeclaredTypeSource::TypeParameter;
        parameter.element = vec![0].into();
        let mut unplaced = parameter.clone();
        unplaced.element = Box::default();
        let mut twice_placed = parameter.clone();
        twice_placed.element = vec![0, 1].into();
        input.declared_types = vec![nested, parameter.clone(), unplaced, twice_placed];
        for arguments in malformed {
            let mut bad = declared(DeclaredTarget::Symbol(0), "Bad", 1, 2);
            bad.arguments = arguments.into();
            input.declared_types.push(bad);
        }
        let (output, report) = check(input, "abc", &FactLimits::default());
        let limits = FactLimits::default();
        assert_eq!(
            output.declared_types.len(),
            6,
            "{:?}",
            output.declared_types
        );
        let kept = &output.declared_types[0].arguments;
        assert_eq!(kept.len(), 2);
        assert_eq!(kept[1].parent, Some(0));
        assert_eq!(kept[0].type_qualifier.len(), limits.max_qualifier_segments);
        assert_eq!(output.declared_types[1], parameter);
        assert!(
            output.declared_types[2..]
                .iter()
                .all(|d| d.arguments.is_empty())
        );
        assert_eq!(
            report.broken["type parameter without exactly one position"],
            2
        );
        assert_eq!(report.broken["declared type arguments malformed"], 4);
        // A member path nine deep, or with an empty name, drops the type.
        let mut input = facts(vec![symbol("a", None)]);
        let mut deep = declared(DeclaredTarget::Symbol(0), "T", 1, 2);
        deep.members = vec![Name::new("m"); 9].into();
        let mut empty = declared(DeclaredTarget::Symbol(0), "T", 1, 2);
        empty.members = vec![Name::new("")].into();
        let mut kept = declared(DeclaredTarget::Symbol(0), "T", 1, 2);
        kept.members = vec![Name::new("_zod"), Name::new("def")].into();
        input.declared_types = vec![deep, empty, kept.clone()];
        let (output, report) = check(input, "abc", &FactLimits::default());
        assert_eq!(output.declared_types, [kept]);
        assert_eq!(report.broken["declared type member path malformed"], 2);
    }

    #[test]
    fn declared_types_are_checked() {
        let mut input = facts(vec![symbol("a", None)]);
        input.locals.push(Local {
            name: "x".into(),
            span: span(0, 1),
            scope: span(0, 3),
            language_kind: "variable".into(),
            value: None,
            element: Box::default(),
        });
        // A local destructuring an element nested past the limit: its
        // value is no longer known.
        input.references.push(Reference::type_use(
            "f".into(),
            thin_vec::ThinVec::new(),
            span(2, 3),
        ));
        input.locals.push(Local {
            name: "y".into(),
            span: span(1, 2),
            scope: span(0, 3),
            language_kind: "variable".into(),
            value: Some(crate::facts::Receiver {
                reference: 0,
                called: true,
                indexed: false,
            }),
            element: vec![0; 1000].into_boxed_slice(),
        });
        let mut too_deep = declared(DeclaredTarget::Symbol(0), "Deep", 1, 2);
        too_deep.element = vec![1; 9].into_boxed_slice();
        let mut second = declared(DeclaredTarget::Symbol(0), "Second", 1, 2);
        second.element = vec![1; 8].into_boxed_slice();
        input.declared_types = vec![
            declared(DeclaredTarget::Symbol(0), "T", 1, 2),
            declared(DeclaredTarget::Local(0), "U", 2, 3),
            declared(DeclaredTarget::Symbol(1), "Gone", 0, 1),
            declared(DeclaredTarget::Local(9), "Gone", 0, 1),
            declared(DeclaredTarget::Local(0), "", 0, 1),
            declared(DeclaredTarget::Local(0), &"V".repeat(5000), 0, 99),
            too_deep,
            second.clone(),
        ];
        input.declared_types[1].type_qualifier = thin_vec::thin_vec![Name::new("q"); 100];
        let (output, report) = check(input, "abc", &FactLimits::default());
        let limits = FactLimits::default();
        assert_eq!(
            output.declared_types.len(),
            4,
            "{:?}",
            output.declared_types
        );
        assert_eq!(output.declared_types[3], second);
        assert_eq!(report.broken["declared type tuple element too deep"], 1);
        assert_eq!(output.locals[1].value, None);
        assert!(output.locals[1].element.is_empty());
        assert_eq!(report.broken["local tuple element too deep"], 1);
        assert_eq!(
            output.declared_types[0],
            declared(DeclaredTarget::Symbol(0), "T", 1, 2)
        );
        assert_eq!(
            output.declared_types[1].type_qualifier.len(),
            limits.max_qualifier_segments
        );
        let long = &output.declared_types[2];
        assert_eq!(long.type_name.len(), limits.max_name_bytes);
        assert_eq!(long.span.end.offset, 3, "the span is clamped to the file");
        assert_eq!(report.broken["declared type target index out of range"], 2);
        assert_eq!(report.broken["declared type without a type name"], 1);
        assert_eq!(report.capped["declared type name too long"], 1);
        assert_eq!(report.capped["declared type qualifier too long"], 100 - 32);
        // Valid facts come back unchanged when checked again.
        let (again, report) = check(output.clone(), "abc", &FactLimits::default());
        assert_eq!(again.declared_types, output.declared_types);
        assert!(report.broken.is_empty(), "{report:?}");
    }

    #[test]
    fn declared_types_follow_symbols_dropped_for_depth() {
        let mut input = facts(vec![
            symbol("a", None),
            symbol("b", Some(0)),
            symbol("c", Some(1)),
        ]);
        input.declared_types = vec![
            declared(DeclaredTarget::Symbol(2), "Deep", 0, 1),
            declared(DeclaredTarget::Symbol(1), "Kept", 0, 1),
        ];
        let limits = FactLimits {
            max_depth: 1,
            ..FactLimits::default()
        };
        let (output, _) = check(input, "abc", &limits);
        assert_eq!(output.symbols.len(), 2);
        assert_eq!(output.declared_types.len(), 1);
        assert_eq!(output.declared_types[0].type_name, "Kept");
        assert_eq!(output.declared_types[0].target, DeclaredTarget::Symbol(1));
    }

    #[test]
    fn entry_points_name_each_symbol_once_and_follow_dropped_symbols() {
        use crate::facts::{EntryPoint, EntryPointKind};
        let entry = |symbol, kind| EntryPoint { symbol, kind };
        let mut input = facts(vec![
            symbol("a", None),
            symbol("b", Some(0)),
            symbol("c", Some(1)),
            symbol("d", None),
        ]);
        input.entry_points = Some(vec![
            entry(3, EntryPointKind::Main),
            entry(3, EntryPointKind::Test),
            entry(2, EntryPointKind::Test),
            entry(99, EntryPointKind::Foreign),
            entry(u32::MAX, EntryPointKind::Foreign),
            entry(1, EntryPointKind::Implementation),
        ]);
        let limits = FactLimits {
            max_depth: 1,
            ..FactLimits::default()
        };
        let (output, report) = check(input, "abcd", &limits);
        // `c` is dropped for depth; `d` moves to index 2.
        assert_eq!(
            output.entry_points,
            Some(vec![
                entry(2, EntryPointKind::Main),
                entry(1, EntryPointKind::Implementation),
            ])
        );
        let rules = format!("{report:?}");
        assert!(rules.contains("entry point listed twice"), "{rules}");
        assert!(
            rules.contains("entry point symbol index out of range"),
            "{rules}"
        );
        let (again, _) = check(output.clone(), "abcd", &limits);
        assert_eq!(again.entry_points, output.entry_points);
    }

    mod properties {
        //! Arbitrary facts, as a hostile plugin could send them, through
        //! validation: whatever goes in, what comes out keeps every rule,
        //! and checking it again changes nothing.

        use super::*;
        use proptest::prelude::*;

        fn any_position() -> impl Strategy<Value = Position> {
            (
                any::<u32>(),
                any::<u32>(),
                prop_oneof![0u32..64, any::<u32>()],
            )
                .prop_map(|(line, character, offset)| Position {
                    line: line % 8,
                    character,
                    offset,
                })
        }

        fn any_span() -> impl Strategy<Value = Span> {
            (any_position(), any_position()).prop_map(|(start, end)| Span { start, end })
        }

        fn any_index() -> impl Strategy<Value = Option<u32>> {
            prop_oneof![
                Just(None),
                (0u32..40).prop_map(Some),
                any::<u32>().prop_map(Some)
            ]
        }

        fn any_symbol() -> impl Strategy<Value = Symbol> {
            (any_span(), any_span(), any_index(), "[a-zé]{0,40}").prop_map(
                |(span, name_span, container, name)| Symbol {
                    span,
                    name_span,
                    container,
                    name: Name::new(&name),
                    ..symbol("x", None)
                },
            )
        }

        fn any_reference() -> impl Strategy<Value = Reference> {
            (any_span(), any_index(), any_index(), any_index()).prop_map(
                |(span, enclosing, local, receiver)| Reference {
                    name: "r".into(),
                    kind: ReferenceKind::Call,
                    span,
                    qualifier: thin_vec::ThinVec::new(),
                    is_member: receiver.is_some(),
                    enclosing: OptU32::new(enclosing),
                    local: OptU32::new(local),
                    receiver: receiver.map(|reference| crate::facts::Receiver {
                        reference,
                        called: reference % 2 == 0,
                        indexed: reference % 3 == 0,
                    }),
                    arguments: OptU32::new(local),
                },
            )
        }

        fn any_declared_type() -> impl Strategy<Value = crate::facts::DeclaredType> {
            (
                any::<bool>(),
                any_index(),
                any_span(),
                "[A-Za-z]{0,12}",
                proptest::collection::vec(any::<u32>(), 0..12),
                proptest::collection::vec(
                    (proptest::option::of(0u32..10), "[A-Za-z]{0,4}", any_span()),
                    0..10,
                ),
            )
                .prop_map(|(on_symbol, index, span, type_name, element, arguments)| {
                    let index = index.unwrap_or(0);
                    let arguments = arguments
                        .into_iter()
                        .enumerate()
                        .map(
                            |(position, (parent, type_name, span))| crate::facts::TypeArgument {
                                parent,
                                position: position as u32,
                                type_name: type_name.into(),
                                type_qualifier: ThinVec::new(),
                                span,
                                members: Box::default(),
                            },
                        )
                        .collect();
                    crate::facts::DeclaredType {
                        target: if on_symbol {
                            crate::facts::DeclaredTarget::Symbol(index)
                        } else {
                            crate::facts::DeclaredTarget::Local(index)
                        },
                        type_name: type_name.into(),
                        type_qualifier: ThinVec::new(),
                        span,
                        source: crate::facts::DeclaredTypeSource::Annotation,
                        element: element.into_boxed_slice(),
                        arguments,
                        members: Box::default(),
                    }
                })
        }

        fn assert_rules(facts: &FileFacts, source: &str, limits: &FactLimits) {
            let count = facts.symbols.len();
            let span_ok = |span: &Span| {
                let (start, end) = (span.start.offset as usize, span.end.offset as usize);
                start <= end
                    && end <= source.len()
                    && source.is_char_boundary(start)
                    && source.is_char_boundary(end)
                    && span.end.line as usize <= source.lines().count()
            };
            for (index, symbol) in facts.symbols.iter().enumerate() {
                assert!(span_ok(&symbol.span) && span_ok(&symbol.name_span));
                let chain = facts.container_chain(index);
                assert!(chain.len() <= limits.max_depth, "depth {}", chain.len());
                assert!(symbol.container.is_none_or(|c| (c as usize) < count));
            }
            for reference in &facts.references {
                assert!(span_ok(&reference.span));
                assert!(
                    reference
                        .enclosing
                        .get()
                        .is_none_or(|e| (e as usize) < count)
                );
                assert!(
                    reference
                        .local
                        .get()
                        .is_none_or(|l| (l as usize) < facts.locals.len())
                );
                assert!(
                    reference
                        .receiver
                        .is_none_or(|r| (r.reference as usize) < facts.references.len())
                );
            }
            for local in &facts.locals {
                assert!(
                    local
                        .value
                        .is_none_or(|v| (v.reference as usize) < facts.references.len())
                );
            }
            for declared in &facts.declared_types {
                assert!(span_ok(&declared.span));
                assert!(!declared.type_name.is_empty());
                assert!(declared.element.len() <= limits.max_tuple_depth);
                assert!(declared.arguments.len() <= limits.max_type_arguments);
                for (index, argument) in declared.arguments.iter().enumerate() {
                    assert!(span_ok(&argument.span));
                    assert!(!argument.type_name.is_empty());
                    assert!(argument.parent.is_none_or(|p| (p as usize) < index));
                }
                match declared.target {
                    crate::facts::DeclaredTarget::Symbol(i) => assert!((i as usize) < count),
                    crate::facts::DeclaredTarget::Local(i) => {
                        assert!((i as usize) < facts.locals.len())
                    }
                }
            }
        }

        proptest! {
            #![proptest_config(ProptestConfig { cases: 512, rng_seed: proptest::test_runner::RngSeed::Fixed(0x6c696e676f), max_shrink_iters: 256, ..ProptestConfig::default() })]

            #[test]
            fn validated_facts_keep_every_rule(
                symbols in proptest::collection::vec(any_symbol(), 0..40),
                references in proptest::collection::vec(any_reference(), 0..40),
                declared in proptest::collection::vec(any_declared_type(), 0..20),
                source in "(a|é|\\n|☃|x){0,60}",
                max_depth in 1usize..6,
            ) {
                let limits = FactLimits { max_depth, ..FactLimits::default() };
                let mut input = facts(symbols);
                input.references = references;
                input.declared_types = declared;
                let (output, _) = check(input, &source, &limits);
                assert_rules(&output, &source, &limits);
                let mut again = output.clone();
                again.diagnostics.retain(|d| d.code != INVALID_OUTPUT_CODE && d.code != CAPPED_CODE);
                let (twice, report) = check(again.clone(), &source, &limits);
                prop_assert!(report.is_clean(), "{:?}", report);
                prop_assert_eq!(twice, again);
            }
        }
    }
}
