//! A deliberately hostile language plugin for the sandbox and hardening
//! tests. What it does with a file depends on the file's extension:
//!
//! - `loop`, `oom`, `trap`: parsing loops forever, allocates without bound,
//!   or traps.
//! - `calm` (and anything else not listed): an empty document, so the same
//!   instance can be checked to recover.
//! - `cycle`: symbols whose containers form a cycle (a <-> b) and a symbol
//!   that is its own container.
//! - `range`: container, `enclosing`, `local`, metrics `symbol`,
//!   declared-type target, entry-point symbol, member-access receiver and
//!   local value indices out of range, and one entry point listed twice;
//!   parameter lists and call arguments out of range.
//! - `huge`: a huge number of references (and syntax nodes from `node-at`).
//!   The counts can be set in the file: `references=N symbols=N nodes=N`.
//! - `longstr`: names, signatures, docs and other strings of 1 MiB each.
//! - `deep`: a chain of nested symbols, each the container of the next
//!   (`depth=N` in the file, 5,000 by default).
//! - `maxline`: spans on line `u32::MAX`, beyond the end of the file,
//!   reversed, and inside a UTF-8 character; numbers at `u32::MAX`.
//! - `slow`: takes about two seconds (`ms=N` in the file) and then answers
//!   normally with one symbol.
//! - `importloop`: a calm file with an import whose `resolve-import` loops
//!   forever.
//! - `slowimport`: a calm file with an import whose `resolve-import` spins
//!   for three seconds (`ms=N` in the file) and then answers: no module.
//! - `rs`: claimed although a built-in plugin serves it (an extension
//!   conflict); such a file is parsed calmly, as an empty document.
//!
//! Except for the deliberate breakage, every fact (spans in particular)
//! describes the file correctly, so the valid facts can be kept.

use lingo_plugin_sdk::LineIndex;
use lingo_plugin_sdk::bindings::exports::lingo::plugin::{edits, modules, plugin, syntax};
use lingo_plugin_sdk::types::{
    ArgumentValue, CallArguments, Capability, ContextTarget, ConversionRules, DeclaredTarget,
    DeclaredType, DeclaredTypeSource, Diagnostic, EntryPoint, EntryPointKind, FunctionMetrics,
    Halstead, Import, ImportKind, ImportedName, LanguagePolicy, Local, MacroDefinition,
    MacroSource, Manifest, ModuleIdentity, ModuleLayout, NameRule, NamedType, Narrowing,
    ParameterContext, ParameterList, ParameterType, PluginError, PluginInfo, Position, Receiver,
    Reference, ReferenceKind, Severity, Span, Symbol, SymbolKind, SymbolValue, SyntaxNode,
    TextEdit, Token, TokenKind, TypeAnnotationPosition, TypeArgument, UnexpandedMacro, ValueOrType,
    Visibility, Widening,
};

struct Hostile;

/// One mebibyte: the length of every string of a `longstr` file.
const MIB: usize = 1 << 20;

/// Prefix of the module of an `importloop` file, so that `resolve-import`
/// knows which importer to loop for.
const LOOP_MODULE: &str = "importloop:";

/// Prefix of the import path of a `slowimport` file, followed by how many
/// milliseconds its `resolve-import` takes.
const SLOW_IMPORT: &str = "slowimport/";

/// What a document does, chosen by its path's extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Case {
    Calm,
    Cycle,
    Range,
    Huge,
    LongStrings,
    Deep,
    MaxLine,
    Slow,
    ImportLoop,
    SlowImport,
}

impl Case {
    fn of(path: &str) -> Case {
        match path.rsplit_once('.').map_or("", |(_, ext)| ext) {
            "cycle" => Case::Cycle,
            "range" => Case::Range,
            "huge" => Case::Huge,
            "longstr" => Case::LongStrings,
            "deep" => Case::Deep,
            "maxline" => Case::MaxLine,
            "slow" => Case::Slow,
            "importloop" => Case::ImportLoop,
            "slowimport" => Case::SlowImport,
            _ => Case::Calm,
        }
    }
}

struct Document {
    path: String,
    text: String,
    case: Case,
    lines: LineIndex,
}

fn misbehave(path: &str) {
    if path.ends_with(".loop") {
        let mut counter: u64 = 0;
        loop {
            counter = std::hint::black_box(counter.wrapping_add(1));
        }
    }
    if path.ends_with(".oom") {
        let mut hoard: Vec<Vec<u8>> = Vec::new();
        loop {
            hoard.push(vec![1u8; 16 << 20]);
            std::hint::black_box(&hoard);
        }
    }
    if path.ends_with(".trap") {
        panic!("hostile plugin traps on purpose");
    }
}

/// Take about `ms` milliseconds: sleep if the clock allows, and spin for
/// whatever is left (a sleep may return at once without a clock to wait on).
fn take_time(ms: u64) {
    let wanted = std::time::Duration::from_millis(ms);
    let start = std::time::Instant::now();
    std::thread::sleep(wanted);
    spin(wanted.saturating_sub(start.elapsed()));
}

/// Spin for `wanted`.
fn spin(wanted: std::time::Duration) {
    let start = std::time::Instant::now();
    let mut spins: u64 = 0;
    while start.elapsed() < wanted {
        spins = std::hint::black_box(spins.wrapping_add(1));
    }
}

/// A `key=value` setting written in the file, or `default`.
fn setting(text: &str, key: &str, default: u64) -> u64 {
    text.split_whitespace()
        .filter_map(|word| word.split_once('='))
        .find(|(k, _)| *k == key)
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(default)
}

fn position(line: u32, character: u32, offset: u32) -> Position {
    Position {
        line,
        character,
        offset,
    }
}

fn raw_span(start: Position, end: Position) -> Span {
    Span { start, end }
}

fn symbol(name: String, span: Span, container: Option<u32>) -> Symbol {
    Symbol {
        name,
        kind: SymbolKind::Function,
        language_kind: "function".into(),
        span,
        name_span: span,
        container,
        container_name: None,
        signature: None,
        doc: None,
        visibility: Visibility::Public,
        modifiers: Vec::new(),
        arity: None,
    }
}

fn reference(name: String, span: Span, enclosing: Option<u32>, local: Option<u32>) -> Reference {
    Reference {
        name,
        kind: ReferenceKind::Call,
        span,
        qualifier: Vec::new(),
        is_member: false,
        enclosing,
        local,
        receiver: None,
        arguments: None,
    }
}

fn metrics(symbol: u32, value: u32) -> FunctionMetrics {
    FunctionMetrics {
        symbol,
        cyclomatic: value,
        cognitive: value,
        max_nesting: value,
        parameters: value,
        lines: value,
        code_lines: value,
        comment_lines: value,
        halstead: Halstead {
            distinct_operators: value,
            distinct_operands: value,
            total_operators: value,
            total_operands: value,
        },
    }
}

impl Document {
    /// The span of bytes `[start, end)` of the text, clamped to it.
    fn span(&self, start: usize, end: usize) -> Span {
        self.lines.span(&self.text, start, end)
    }

    /// The first line of the file (without its newline): a valid span.
    fn first_line(&self) -> Span {
        let end = self.text.find('\n').unwrap_or(self.text.len());
        self.span(0, end)
    }

    /// The whole file.
    fn whole(&self) -> Span {
        self.span(0, self.text.len())
    }

    /// A span on the last possible line, with every number at `u32::MAX`.
    fn max_span() -> Span {
        raw_span(
            position(u32::MAX, u32::MAX, u32::MAX),
            position(u32::MAX, u32::MAX, u32::MAX),
        )
    }

    /// A span starting and ending beyond the end of the file.
    fn beyond_span(&self) -> Span {
        let len = self.text.len() as u32;
        raw_span(
            position(100_000, 5, len.saturating_add(1_000)),
            position(100_001, 5, len.saturating_add(2_000)),
        )
    }

    /// A span whose start comes after its end.
    fn reversed_span(&self) -> Span {
        let valid = self.whole();
        raw_span(valid.end, valid.start)
    }

    /// A span starting and ending inside a multi-byte UTF-8 character (the
    /// file's first), or at offset 1 when the file has none.
    fn mid_char_span(&self) -> Span {
        let inside = self
            .text
            .char_indices()
            .find(|(_, c)| c.len_utf8() > 1)
            .map_or(1, |(i, _)| i + 1) as u32;
        let valid = self.span(0, 0);
        raw_span(
            position(valid.start.line, 1, inside),
            position(valid.start.line, 1, inside),
        )
    }

    fn symbols(&self) -> Vec<Symbol> {
        let line = self.first_line();
        match self.case {
            Case::Calm | Case::ImportLoop | Case::SlowImport => Vec::new(),
            Case::Cycle => vec![
                symbol("cycle_a".into(), line, Some(1)),
                symbol("cycle_b".into(), line, Some(0)),
                symbol("cycle_self".into(), line, Some(2)),
                symbol("cycle_ok".into(), line, None),
                symbol("cycle_child".into(), line, Some(3)),
            ],
            Case::Range => vec![
                symbol("range_ok".into(), line, None),
                symbol("range_far".into(), line, Some(1_000_000)),
                symbol("range_max".into(), line, Some(u32::MAX)),
                symbol("range_next".into(), line, Some(4)),
            ],
            Case::Huge => {
                let count = setting(&self.text, "symbols", 1) as usize;
                let mut symbols = vec![symbol("huge_ok".into(), line, None)];
                symbols.extend((1..count).map(|i| symbol(format!("h{i}"), line, None)));
                symbols
            }
            Case::LongStrings => {
                let long = |c: char| c.to_string().repeat(MIB);
                let mut big = symbol(long('n'), line, None);
                big.language_kind = long('k');
                big.signature = Some(long('s'));
                big.doc = Some(long('d'));
                big.container_name = Some(long('c'));
                big.modifiers = vec![long('m')];
                let mut member = symbol(long('o'), line, Some(0));
                member.signature = Some(format!("fn {}", long('p')));
                member.doc = Some(long('q'));
                vec![big, member, symbol("longstr_ok".into(), line, None)]
            }
            Case::Deep => {
                let depth = setting(&self.text, "depth", 5_000) as u32;
                let whole = self.whole();
                (0..depth)
                    .map(|i| symbol(format!("d{i}"), whole, i.checked_sub(1)))
                    .collect()
            }
            Case::MaxLine => vec![
                symbol("maxline_max".into(), Self::max_span(), None),
                symbol("maxline_beyond".into(), self.beyond_span(), None),
                symbol("maxline_reversed".into(), self.reversed_span(), None),
                symbol("maxline_midchar".into(), self.mid_char_span(), None),
                symbol("maxline_ok".into(), line, None),
                Symbol {
                    name_span: Self::max_span(),
                    ..symbol("maxline_namespan".into(), line, None)
                },
            ],
            Case::Slow => vec![symbol("slow_fn".into(), line, None)],
        }
    }

    fn references(&self) -> Vec<Reference> {
        let line = self.first_line();
        match self.case {
            Case::Calm => Vec::new(),
            Case::Cycle => vec![
                reference("cycle_a".into(), line, Some(0), None),
                reference("cycle_self".into(), line, Some(2), None),
            ],
            Case::Range => vec![
                reference("range_ok".into(), line, Some(1_000_000), None),
                reference("range_ok".into(), line, Some(u32::MAX), None),
                reference("range_ok".into(), line, None, Some(7)),
                reference("range_ok".into(), line, None, Some(u32::MAX)),
                reference("range_ok".into(), line, Some(0), None),
                // A member access whose receiver is out of range, and one
                // that is its own receiver.
                Reference {
                    is_member: true,
                    receiver: Some(Receiver {
                        reference: u32::MAX,
                        called: true,
                        indexed: false,
                    }),
                    ..reference("range_ok".into(), line, Some(0), None)
                },
                Reference {
                    is_member: true,
                    receiver: Some(Receiver {
                        reference: 6,
                        called: false,
                        indexed: true,
                    }),
                    ..reference("range_ok".into(), line, Some(0), None)
                },
            ],
            Case::Huge => {
                let count = setting(&self.text, "references", 3_000_000) as usize;
                let name = self.span(0, 1);
                (0..count)
                    .map(|_| reference("h".into(), name, None, None))
                    .collect()
            }
            Case::LongStrings => {
                let mut long = reference("r".repeat(MIB), line, Some(0), None);
                long.qualifier = vec!["Q".repeat(MIB)];
                vec![long]
            }
            Case::Deep => {
                let depth = setting(&self.text, "depth", 5_000) as u32;
                vec![reference(
                    "d0".into(),
                    self.first_line(),
                    depth.checked_sub(1),
                    None,
                )]
            }
            Case::MaxLine => vec![
                reference("maxline_ok".into(), Self::max_span(), None, None),
                reference("maxline_ok".into(), self.beyond_span(), None, None),
                reference("maxline_ok".into(), self.reversed_span(), None, None),
                reference("maxline_ok".into(), self.mid_char_span(), None, None),
                reference("maxline_ok".into(), line, Some(4), None),
            ],
            Case::Slow => Vec::new(),
            Case::ImportLoop | Case::SlowImport => {
                vec![reference("increment".into(), line, None, None)]
            }
        }
    }

    /// `increment` imported by name from `module_path`, on the first line.
    fn import_of_increment(&self, module_path: String) -> Vec<Import> {
        let line = self.first_line();
        vec![Import {
            module_path,
            kind: ImportKind::Named,
            names: vec![ImportedName {
                name: "increment".into(),
                alias: None,
                span: line,
            }],
            type_only: false,
            reexport: false,
            span: line,
        }]
    }

    fn imports(&self) -> Vec<Import> {
        match self.case {
            // One path per file, so that no answer is shared.
            Case::SlowImport => {
                let ms = setting(&self.text, "ms", 3_000);
                self.import_of_increment(format!("{SLOW_IMPORT}{ms}/{}", self.path))
            }
            Case::ImportLoop => self.import_of_increment(format!("loop/{}", self.path)),
            Case::LongStrings => {
                let line = self.first_line();
                vec![Import {
                    module_path: "i".repeat(MIB),
                    kind: ImportKind::Named,
                    names: vec![ImportedName {
                        name: "j".repeat(MIB),
                        alias: Some("a".repeat(MIB)),
                        span: line,
                    }],
                    type_only: false,
                    reexport: false,
                    span: line,
                }]
            }
            Case::MaxLine => vec![Import {
                module_path: "maxline".into(),
                kind: ImportKind::Glob,
                names: vec![ImportedName {
                    name: "maxline_ok".into(),
                    alias: None,
                    span: self.beyond_span(),
                }],
                type_only: false,
                reexport: false,
                span: Self::max_span(),
            }],
            _ => Vec::new(),
        }
    }

    fn locals(&self) -> Vec<Local> {
        let local = |name: String, span: Span, scope: Span| Local {
            name,
            span,
            scope,
            language_kind: "variable".into(),
            value: None,
            element: Vec::new(),
        };
        match self.case {
            Case::LongStrings => {
                let line = self.first_line();
                vec![local("l".repeat(MIB), line, line)]
            }
            Case::Range => {
                let line = self.first_line();
                vec![
                    Local {
                        value: Some(Receiver {
                            reference: u32::MAX,
                            called: false,
                            indexed: false,
                        }),
                        ..local("range_local".into(), line, line)
                    },
                    // An element of a tuple nested a million deep.
                    Local {
                        value: Some(Receiver {
                            reference: 0,
                            called: true,
                            indexed: true,
                        }),
                        element: vec![u32::MAX; MIB],
                        ..local("deep_local".into(), line, line)
                    },
                ]
            }
            Case::MaxLine => vec![
                local("maxline_local".into(), Self::max_span(), Self::max_span()),
                local(
                    "maxline_scope".into(),
                    self.first_line(),
                    self.beyond_span(),
                ),
                local(
                    "maxline_reversed".into(),
                    self.reversed_span(),
                    self.reversed_span(),
                ),
            ],
            _ => Vec::new(),
        }
    }

    fn diagnostics(&self) -> Vec<Diagnostic> {
        let diagnostic = |message: String, span: Span| Diagnostic {
            severity: Severity::Warning,
            code: "hostile".into(),
            message,
            span,
        };
        match self.case {
            Case::LongStrings => vec![Diagnostic {
                code: "c".repeat(MIB),
                ..diagnostic("m".repeat(MIB), self.first_line())
            }],
            Case::MaxLine => vec![
                diagnostic("on the last line".into(), Self::max_span()),
                diagnostic("beyond the end".into(), self.beyond_span()),
                diagnostic("reversed".into(), self.reversed_span()),
                diagnostic("inside a character".into(), self.mid_char_span()),
            ],
            _ => Vec::new(),
        }
    }

    fn metrics(&self) -> Vec<FunctionMetrics> {
        match self.case {
            Case::Range => vec![metrics(1_000_000, 1), metrics(u32::MAX, 1), metrics(0, 1)],
            Case::MaxLine => vec![metrics(4, u32::MAX), metrics(4, u32::MAX)],
            Case::Cycle => vec![metrics(0, 1), metrics(2, 1)],
            _ => Vec::new(),
        }
    }

    fn node_at(&self, _offset: u32) -> Vec<SyntaxNode> {
        let node = |kind: String, span: Span| SyntaxNode {
            kind,
            span,
            named: true,
        };
        match self.case {
            Case::Huge => {
                let count = setting(&self.text, "nodes", 1_000_000) as usize;
                let whole = self.whole();
                (0..count).map(|_| node("n".into(), whole)).collect()
            }
            Case::LongStrings => vec![node("k".repeat(MIB), self.whole())],
            Case::MaxLine => vec![
                node("max".into(), Self::max_span()),
                node("beyond".into(), self.beyond_span()),
                node("reversed".into(), self.reversed_span()),
                node("midchar".into(), self.mid_char_span()),
            ],
            Case::Deep => {
                let depth = setting(&self.text, "depth", 5_000) as usize;
                let whole = self.whole();
                (0..depth).map(|_| node("d".into(), whole)).collect()
            }
            _ => Vec::new(),
        }
    }
}

impl plugin::Guest for Hostile {
    fn info() -> PluginInfo {
        PluginInfo {
            name: "hostile".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            abi_version: lingo_plugin_sdk::ABI_VERSION.into(),
            languages: vec!["hostile".into()],
            extensions: [
                "loop",
                "oom",
                "trap",
                "calm",
                "cycle",
                "range",
                "huge",
                "longstr",
                "deep",
                "maxline",
                "slow",
                "importloop",
                "slowimport",
                // Served by the built-in Rust plugin: a conflict.
                "rs",
            ]
            .into_iter()
            .map(String::from)
            .collect(),
            manifests: Vec::new(),
            path_separator: ".".into(),
            capabilities: vec![
                Capability::EntryPoints,
                Capability::Tokens,
                Capability::Unreachable,
            ],
            policy: LanguagePolicy {
                skip_dirs: Vec::new(),
                bare_names_reach_members: false,
                type_annotation: TypeAnnotationPosition::None,
                module_layout: ModuleLayout::DeclaredInText,
                cyclic_imports: true,
                enclosing_modules_visible: false,
                members_share_one_namespace: false,
                unused_locals: NameRule {
                    names: vec![String::new(); 300],
                    prefixes: vec!["x".repeat(100_000)],
                },
                unused_declarations: NameRule {
                    names: Vec::new(),
                    prefixes: vec![String::new()],
                },
                bodiless_modifiers: vec!["abstract".into(); 1000],
                private_reaches_nested_modules: false,
                file_named_after_public_type: false,
                conversions: ConversionRules {
                    nominal: true,
                    top_types: vec![String::new(), "x".repeat(100_000), "object".into()],
                    widening: vec![
                        Widening {
                            from: String::new(),
                            to: vec!["long".into()],
                        },
                        Widening {
                            from: "int".into(),
                            to: vec!["long".into(); 1000],
                        },
                    ],
                },
                value_or_type: ValueOrType::ByMember,
                static_modifiers: vec!["static".repeat(100_000), String::new(), "static".into()],
            },
        }
    }
}

impl syntax::Guest for Hostile {
    type Document = Document;
}

impl syntax::GuestDocument for Document {
    fn new(path: String, source: String) -> Self {
        misbehave(&path);
        let case = Case::of(&path);
        if case == Case::Slow {
            take_time(setting(&source, "ms", 2_000));
        }
        Document {
            lines: LineIndex::new(&source),
            path,
            text: source,
            case,
        }
    }
    fn update(&self, _edits: Vec<TextEdit>) -> Result<(), PluginError> {
        Err(PluginError::Unsupported("hostile: update".into()))
    }
    fn text(&self) -> String {
        self.text.clone()
    }
    fn language(&self) -> String {
        "hostile".into()
    }
    fn symbols(&self) -> Vec<Symbol> {
        Document::symbols(self)
    }
    fn references(&self) -> Vec<Reference> {
        Document::references(self)
    }
    fn imports(&self) -> Vec<Import> {
        Document::imports(self)
    }
    fn locals(&self) -> Vec<Local> {
        Document::locals(self)
    }
    fn diagnostics(&self) -> Vec<Diagnostic> {
        Document::diagnostics(self)
    }
    fn metrics(&self) -> Vec<FunctionMetrics> {
        Document::metrics(self)
    }
    fn declared_types(&self) -> Vec<DeclaredType> {
        match self.case {
            Case::Range => [
                DeclaredTarget::Symbol(1_000_000),
                DeclaredTarget::Local(u32::MAX),
            ]
            .into_iter()
            .map(|target| DeclaredType {
                target,
                type_name: "Far".into(),
                type_qualifier: Vec::new(),
                span: self.span(0, 0),
                source: DeclaredTypeSource::Annotation,
                element: vec![0; MIB],
                arguments: Vec::new(),
                members: Vec::new(),
            })
            .chain([
                // A type on a symbol in range with 100,000 type arguments,
                // each its own parent, and a type parameter without a
                // position.
                DeclaredType {
                    target: DeclaredTarget::Symbol(0),
                    type_name: "Many".into(),
                    type_qualifier: Vec::new(),
                    span: self.span(0, 0),
                    source: DeclaredTypeSource::Annotation,
                    element: Vec::new(),
                    arguments: (0..100_000)
                        .map(|index| TypeArgument {
                            parent: Some(index),
                            position: 0,
                            type_name: "A".into(),
                            type_qualifier: Vec::new(),
                            span: self.span(0, 0),
                            members: Vec::new(),
                        })
                        .collect(),
                    members: Vec::new(),
                },
                // A member path 100,000 names deep.
                DeclaredType {
                    target: DeclaredTarget::Symbol(0),
                    type_name: "Deep".into(),
                    type_qualifier: Vec::new(),
                    span: self.span(0, 0),
                    source: DeclaredTypeSource::Annotation,
                    element: Vec::new(),
                    arguments: Vec::new(),
                    members: vec!["m".into(); 100_000],
                },
                DeclaredType {
                    target: DeclaredTarget::Symbol(0),
                    type_name: "T".into(),
                    type_qualifier: Vec::new(),
                    span: self.span(0, 0),
                    source: DeclaredTypeSource::TypeParameter,
                    element: Vec::new(),
                    arguments: Vec::new(),
                    members: Vec::new(),
                },
            ])
            .collect(),
            _ => Vec::new(),
        }
    }
    fn parameter_lists(&self) -> Vec<ParameterList> {
        match self.case {
            // A function out of range, one listed twice, a type without a
            // name, and too many parameters.
            Case::Range => vec![
                ParameterList {
                    function: 1_000_000,
                    types: vec![ParameterType::Other],
                },
                ParameterList {
                    function: 0,
                    types: vec![ParameterType::Named(NamedType {
                        type_name: String::new(),
                        type_qualifier: Vec::new(),
                        span: self.span(0, 0),
                    })],
                },
                ParameterList {
                    function: 0,
                    types: vec![ParameterType::BuiltIn("int".into()); 100_000],
                },
            ],
            _ => Vec::new(),
        }
    }
    fn call_arguments(&self) -> Vec<CallArguments> {
        match self.case {
            // A call out of range, and values naming references out of
            // range or the call itself.
            Case::Range => vec![
                CallArguments {
                    call: u32::MAX,
                    values: vec![ArgumentValue::Null],
                },
                CallArguments {
                    call: 0,
                    values: vec![
                        ArgumentValue::Value(Receiver {
                            reference: u32::MAX,
                            called: false,
                            indexed: false,
                        }),
                        ArgumentValue::BuiltIn(String::new()),
                    ],
                },
            ],
            _ => Vec::new(),
        }
    }
    fn symbol_values(&self) -> Vec<SymbolValue> {
        match self.case {
            // A symbol out of range, a value naming a reference out of
            // range, one symbol given twice, and an element a mebibyte deep.
            Case::Range => vec![
                SymbolValue {
                    symbol: u32::MAX,
                    value: Receiver {
                        reference: 0,
                        called: false,
                        indexed: false,
                    },
                    element: Vec::new(),
                },
                SymbolValue {
                    symbol: 0,
                    value: Receiver {
                        reference: u32::MAX,
                        called: true,
                        indexed: false,
                    },
                    element: Vec::new(),
                },
                SymbolValue {
                    symbol: 0,
                    value: Receiver {
                        reference: 0,
                        called: false,
                        indexed: false,
                    },
                    element: vec![0; MIB],
                },
            ],
            _ => Vec::new(),
        }
    }
    fn narrowings(&self) -> Vec<Narrowing> {
        match self.case {
            // A read out of range, what narrows it out of range, a read
            // narrowing itself, and one read narrowed twice.
            Case::Range => vec![
                Narrowing {
                    value: u32::MAX,
                    by: 0,
                },
                Narrowing {
                    value: 0,
                    by: u32::MAX,
                },
                Narrowing { value: 0, by: 0 },
                Narrowing { value: 1, by: 0 },
                Narrowing { value: 1, by: 0 },
            ],
            _ => Vec::new(),
        }
    }
    fn parameter_contexts(&self) -> Vec<ParameterContext> {
        let context = |target, reference, parameters: Vec<u32>| ParameterContext {
            target,
            function: Receiver {
                reference,
                called: false,
                indexed: false,
            },
            parameters,
        };
        match self.case {
            // Targets and functions out of range, a member that is its own
            // function, no positions, and one target given twice.
            Case::Range => vec![
                context(ContextTarget::Member(u32::MAX), 0, vec![0]),
                context(ContextTarget::Local(u32::MAX), 0, vec![0]),
                context(ContextTarget::Member(0), u32::MAX, vec![0]),
                context(ContextTarget::Member(0), 0, vec![0]),
                context(ContextTarget::Member(1), 0, Vec::new()),
                context(ContextTarget::Member(1), 0, vec![0]),
                context(ContextTarget::Member(1), 0, vec![1]),
            ],
            // A million positions.
            Case::Huge => vec![context(ContextTarget::Member(1), 0, vec![0; MIB])],
            _ => Vec::new(),
        }
    }
    fn entry_points(&self) -> Vec<EntryPoint> {
        let entry = |symbol, kind| EntryPoint { symbol, kind };
        match self.case {
            Case::Range => vec![
                entry(1_000_000, EntryPointKind::Main),
                entry(u32::MAX, EntryPointKind::Test),
                entry(0, EntryPointKind::Foreign),
                entry(0, EntryPointKind::Test),
            ],
            Case::Huge => {
                let count = setting(&self.text, "references", 3_000_000) as u32;
                (0..count).map(|i| entry(i, EntryPointKind::Test)).collect()
            }
            _ => Vec::new(),
        }
    }
    fn tokens(&self) -> Vec<Token> {
        let token = |kind, start, end| Token { kind, start, end };
        let len = self.text.len() as u32;
        match self.case {
            // Beyond the text, reversed, overlapping, out of order and
            // inside a UTF-8 character; then one good token.
            Case::Range | Case::MaxLine => vec![
                token(TokenKind::Identifier, len, u32::MAX),
                token(TokenKind::Keyword, 3, 1),
                token(TokenKind::Literal, 0, len),
                token(TokenKind::Comment, 0, 1),
                token(TokenKind::Punctuation, 0, len.min(2)),
            ],
            Case::Huge => {
                let count = setting(&self.text, "references", 3_000_000) as u32;
                (0..count)
                    .map(|_| token(TokenKind::Keyword, 0, 0))
                    .collect()
            }
            _ => Vec::new(),
        }
    }
    fn unreachable(&self) -> Vec<Span> {
        match self.case {
            // Beyond the text, reversed, inside a character, and on line
            // u32::MAX; then the whole text.
            Case::Range | Case::MaxLine => vec![
                Document::beyond_span(self),
                Document::reversed_span(self),
                Document::mid_char_span(self),
                Document::max_span(),
                Document::whole(self),
            ],
            Case::Huge => {
                let count = setting(&self.text, "references", 3_000_000) as usize;
                vec![Document::whole(self); count]
            }
            _ => Vec::new(),
        }
    }
    fn node_at(&self, offset: u32) -> Vec<SyntaxNode> {
        Document::node_at(self, offset)
    }
    fn macro_definitions(&self) -> Vec<MacroDefinition> {
        let definition = |name: &str, span| MacroDefinition {
            name: name.to_string(),
            span,
            exported: true,
        };
        match self.case {
            // Spans beyond the text, reversed, inside a character and on
            // line u32::MAX, an empty name; then one good definition.
            Case::Range | Case::MaxLine => vec![
                definition("beyond", Document::beyond_span(self)),
                definition("reversed", Document::reversed_span(self)),
                definition("mid", Document::mid_char_span(self)),
                definition("max", Document::max_span()),
                definition("", Document::whole(self)),
                definition("whole", Document::whole(self)),
            ],
            Case::Huge => {
                let count = setting(&self.text, "references", 3_000_000) as usize;
                vec![definition("m", Document::whole(self)); count]
            }
            Case::LongStrings => vec![definition(&"m".repeat(1 << 20), Document::whole(self))],
            _ => Vec::new(),
        }
    }
    fn unexpanded_macros(&self) -> Vec<UnexpandedMacro> {
        let left = |name: &str, span: Span, reason: &str| UnexpandedMacro {
            name: name.to_string(),
            extent: span,
            span,
            reason: reason.to_string(),
        };
        match self.case {
            Case::Range | Case::MaxLine => vec![
                left("beyond", Document::beyond_span(self), "undefined"),
                left("max", Document::max_span(), "no such reason"),
                left("whole", Document::whole(self), "budget"),
            ],
            Case::Huge => {
                let count = setting(&self.text, "references", 3_000_000) as usize;
                vec![left("m", Document::whole(self), "undefined"); count]
            }
            Case::LongStrings => vec![left(
                &"m".repeat(1 << 20),
                Document::whole(self),
                &"r".repeat(1 << 20),
            )],
            _ => Vec::new(),
        }
    }
    fn expand(&self, _macros: Vec<MacroSource>) -> Result<(), PluginError> {
        Err(PluginError::Unsupported("hostile: expand".into()))
    }
}

impl edits::Guest for Hostile {
    fn render_import(
        _doc: syntax::DocumentBorrow<'_>,
        _module_path: String,
        _names: Vec<String>,
    ) -> Result<Vec<TextEdit>, PluginError> {
        Err(PluginError::Unsupported("hostile: render-import".into()))
    }
    /// Edits far beyond the name, a hundred thousand of them.
    fn write_out_shorthand(
        _doc: syntax::DocumentBorrow<'_>,
        _name: Span,
        member: String,
        _value: String,
    ) -> Result<Vec<TextEdit>, PluginError> {
        Ok((0..100_000)
            .map(|i| TextEdit {
                start: i,
                end: u32::MAX,
                new_text: member.clone(),
            })
            .collect())
    }
    fn declare_module(
        _parent: syntax::DocumentBorrow<'_>,
        _path: String,
    ) -> Result<Vec<TextEdit>, PluginError> {
        Err(PluginError::Unsupported("hostile: declare-module".into()))
    }
    fn render_reexport(
        _doc: syntax::DocumentBorrow<'_>,
        _module_path: String,
        _names: Vec<String>,
    ) -> Result<Vec<TextEdit>, PluginError> {
        Err(PluginError::Unsupported("hostile: render-reexport".into()))
    }
    fn remove_import(
        _doc: syntax::DocumentBorrow<'_>,
        _module_path: String,
        _name: Option<String>,
    ) -> Result<Vec<TextEdit>, PluginError> {
        Err(PluginError::Unsupported("hostile: remove-import".into()))
    }
    fn render_declaration(
        _doc: syntax::DocumentBorrow<'_>,
        _span: Span,
        _target_module: String,
    ) -> Result<String, PluginError> {
        Err(PluginError::Unsupported(
            "hostile: render-declaration".into(),
        ))
    }
    /// An extent far outside the document, which the host must refuse.
    fn declaration_extent(
        _doc: syntax::DocumentBorrow<'_>,
        span: Span,
    ) -> Result<Span, PluginError> {
        let far = Position {
            line: u32::MAX,
            character: u32::MAX,
            offset: u32::MAX,
        };
        Ok(Span {
            start: span.start,
            end: far,
        })
    }
    /// An edit whose range runs backwards, which the host must refuse.
    fn place_declaration(
        _source: syntax::DocumentBorrow<'_>,
        _span: Span,
        _target: syntax::DocumentBorrow<'_>,
        _target_module: String,
    ) -> Result<Vec<TextEdit>, PluginError> {
        Ok(vec![TextEdit {
            start: 10,
            end: 2,
            new_text: "x".into(),
        }])
    }
}

impl modules::Guest for Hostile {
    fn module_of(
        doc: syntax::DocumentBorrow<'_>,
        path: String,
        _manifests: Vec<Manifest>,
    ) -> Vec<ModuleIdentity> {
        let doc: &Document = doc.get();
        match doc.case {
            Case::ImportLoop => vec![ModuleIdentity {
                path: format!("{LOOP_MODULE}{path}"),
                crate_or_package: None,
            }],
            // A module of its own, so that its import is resolved.
            Case::SlowImport => vec![ModuleIdentity {
                path: format!("{SLOW_IMPORT}{path}"),
                crate_or_package: None,
            }],
            Case::LongStrings => vec![ModuleIdentity {
                path: "M".repeat(MIB),
                crate_or_package: Some("P".repeat(MIB)),
            }],
            _ => Vec::new(),
        }
    }
    fn resolve_import(
        importer: ModuleIdentity,
        import_path: String,
        _manifests: Vec<Manifest>,
    ) -> Vec<String> {
        if let Some(rest) = import_path.strip_prefix(SLOW_IMPORT) {
            // Spun, not slept: a call the host stops between two checks.
            let ms = rest.split('/').next().and_then(|ms| ms.parse().ok());
            spin(std::time::Duration::from_millis(ms.unwrap_or(3_000)));
            return Vec::new();
        }
        if importer.path.starts_with(LOOP_MODULE) {
            let mut counter: u64 = 0;
            loop {
                counter = std::hint::black_box(counter.wrapping_add(1));
            }
        }
        Vec::new()
    }
    /// A specifier of a mebibyte.
    fn import_specifier(
        _importer: ModuleIdentity,
        _target: ModuleIdentity,
        _manifests: Vec<Manifest>,
    ) -> Result<String, PluginError> {
        Ok("M".repeat(MIB))
    }
    fn module_declarers(_path: String) -> Vec<String> {
        let mut out = vec!["../outside.calm".to_string(); 10_000];
        out.push("d".repeat(MIB));
        out
    }
}

lingo_plugin_sdk::bindings::export_bindings!(Hostile with_types_in lingo_plugin_sdk::bindings);
