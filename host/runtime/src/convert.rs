//! Conversions from the WIT bindings of each supported ABI version to the
//! host model. The types every version shares convert alike (one macro),
//! what 0.2.0 and 0.3.0 added alike for them and later versions (one macro
//! each); what a version lacks gets defaults.

/// Why a plugin call could not answer, whatever the ABI version.
pub enum Failure {
    Unsupported(String),
    InvalidInput(String),
    Failed(String),
}

/// The conversions of the types every version shares, for the version
/// whose `types` interface is in scope as `wit`.
/// Plugin strings as interned names, in any list type.
fn names<C: FromIterator<lingo_model::Name>>(texts: &[String]) -> C {
    texts
        .iter()
        .map(|text| lingo_model::Name::new(text))
        .collect()
}

macro_rules! shared_conversions {
    () => {
        impl From<wit::Position> for model::Position {
            fn from(p: wit::Position) -> Self {
                model::Position {
                    line: p.line,
                    character: p.character,
                    offset: p.offset,
                }
            }
        }

        impl From<wit::Span> for model::Span {
            fn from(s: wit::Span) -> Self {
                model::Span {
                    start: s.start.into(),
                    end: s.end.into(),
                }
            }
        }

        impl From<wit::SymbolKind> for model::SymbolKind {
            fn from(kind: wit::SymbolKind) -> Self {
                use model::SymbolKind as M;
                use wit::SymbolKind as W;
                match kind {
                    W::File => M::File,
                    W::Module => M::Module,
                    W::Namespace => M::Namespace,
                    W::Package => M::Package,
                    W::Class => M::Class,
                    W::Method => M::Method,
                    W::Property => M::Property,
                    W::Field => M::Field,
                    W::Constructor => M::Constructor,
                    W::Enum => M::Enum,
                    W::Interface => M::Interface,
                    W::Function => M::Function,
                    W::Variable => M::Variable,
                    W::Constant => M::Constant,
                    W::String => M::String,
                    W::Number => M::Number,
                    W::Boolean => M::Boolean,
                    W::Array => M::Array,
                    W::Object => M::Object,
                    W::Key => M::Key,
                    W::Null => M::Null,
                    W::EnumMember => M::EnumMember,
                    W::Struct => M::Struct,
                    W::Event => M::Event,
                    W::Operator => M::Operator,
                    W::TypeParameter => M::TypeParameter,
                }
            }
        }

        impl From<wit::Visibility> for model::Visibility {
            fn from(v: wit::Visibility) -> Self {
                match v {
                    wit::Visibility::Public => model::Visibility::Public,
                    wit::Visibility::Internal => model::Visibility::Internal,
                    wit::Visibility::Protected => model::Visibility::Protected,
                    wit::Visibility::Private => model::Visibility::Private,
                    wit::Visibility::Unspecified => model::Visibility::Unspecified,
                }
            }
        }

        impl From<wit::Symbol> for model::Symbol {
            fn from(s: wit::Symbol) -> Self {
                let arity = symbol_arity(&s);
                model::Symbol {
                    name: lingo_model::Name::new(&s.name),
                    kind: s.kind.into(),
                    language_kind: lingo_model::Name::new(&s.language_kind),
                    span: s.span.into(),
                    name_span: s.name_span.into(),
                    container: s.container,
                    container_name: s.container_name.as_deref().map(lingo_model::Name::new),
                    signature: s.signature.map(String::into_boxed_str),
                    doc: s.doc.map(String::into_boxed_str),
                    visibility: s.visibility.into(),
                    arity,
                    modifiers: s.modifiers.into_iter().collect(),
                }
            }
        }

        impl From<wit::ReferenceKind> for model::ReferenceKind {
            fn from(k: wit::ReferenceKind) -> Self {
                use model::ReferenceKind as M;
                match k {
                    wit::ReferenceKind::Call => M::Call,
                    wit::ReferenceKind::Reference => M::Reference,
                    wit::ReferenceKind::Type => M::Type,
                    wit::ReferenceKind::Import => M::Import,
                    wit::ReferenceKind::Extends => M::Extends,
                    wit::ReferenceKind::Implements => M::Implements,
                    wit::ReferenceKind::Write => M::Write,
                }
            }
        }

        impl From<wit::Import> for model::Import {
            fn from(i: wit::Import) -> Self {
                use model::ImportKind as M;
                model::Import {
                    module_path: i.module_path,
                    kind: match i.kind {
                        wit::ImportKind::Named => M::Named,
                        wit::ImportKind::Glob => M::Glob,
                        wit::ImportKind::Namespace => M::Namespace,
                        wit::ImportKind::Default => M::Default,
                        wit::ImportKind::SideEffect => M::SideEffect,
                    },
                    names: i
                        .names
                        .into_iter()
                        .map(|n| model::ImportedName {
                            name: n.name,
                            alias: n.alias,
                            span: n.span.into(),
                        })
                        .collect(),
                    type_only: i.type_only,
                    reexport: i.reexport,
                    span: i.span.into(),
                }
            }
        }

        impl From<wit::Diagnostic> for model::Diagnostic {
            fn from(d: wit::Diagnostic) -> Self {
                model::Diagnostic {
                    severity: match d.severity {
                        wit::Severity::Error => model::Severity::Error,
                        wit::Severity::Warning => model::Severity::Warning,
                        wit::Severity::Information => model::Severity::Information,
                        wit::Severity::Hint => model::Severity::Hint,
                    },
                    code: d.code,
                    message: d.message,
                    span: d.span.into(),
                }
            }
        }

        impl From<wit::FunctionMetrics> for model::FunctionMetrics {
            fn from(m: wit::FunctionMetrics) -> Self {
                model::FunctionMetrics {
                    symbol: m.symbol,
                    cyclomatic: m.cyclomatic,
                    cognitive: m.cognitive,
                    max_nesting: m.max_nesting,
                    parameters: m.parameters,
                    lines: m.lines,
                    code_lines: m.code_lines,
                    comment_lines: m.comment_lines,
                    halstead: model::Halstead {
                        distinct_operators: m.halstead.distinct_operators,
                        distinct_operands: m.halstead.distinct_operands,
                        total_operators: m.halstead.total_operators,
                        total_operands: m.halstead.total_operands,
                    },
                }
            }
        }

        impl From<wit::SyntaxNode> for model::SyntaxNode {
            fn from(n: wit::SyntaxNode) -> Self {
                model::SyntaxNode {
                    kind: n.kind,
                    span: n.span.into(),
                    named: n.named,
                }
            }
        }

        impl From<wit::ModuleIdentity> for model::ModuleIdentity {
            fn from(m: wit::ModuleIdentity) -> Self {
                model::ModuleIdentity {
                    path: m.path,
                    crate_or_package: m.crate_or_package,
                }
            }
        }

        impl From<&model::Manifest> for wit::Manifest {
            fn from(m: &model::Manifest) -> Self {
                wit::Manifest {
                    path: m.path.clone(),
                    contents: m.contents.clone(),
                }
            }
        }

        fn capability_name(c: wit::Capability) -> &'static str {
            use wit::Capability as C;
            match c {
                C::Symbols => "symbols",
                C::References => "references",
                C::Imports => "imports",
                C::Locals => "locals",
                C::Diagnostics => "diagnostics",
                C::Metrics => "metrics",
                C::IncrementalUpdate => "incremental-update",
                C::NodeAt => "node-at",
                C::ModuleResolution => "module-resolution",
                C::RenderImport => "render-import",
                C::RemoveImport => "remove-import",
                C::RenderDeclaration => "render-declaration",
                #[allow(unreachable_patterns)]
                later => later_capability_name(later),
            }
        }

        impl From<&model::ModuleIdentity> for wit::ModuleIdentity {
            fn from(m: &model::ModuleIdentity) -> Self {
                wit::ModuleIdentity {
                    path: m.path.clone(),
                    crate_or_package: m.crate_or_package.clone(),
                }
            }
        }

        impl From<wit::PluginError> for Failure {
            fn from(e: wit::PluginError) -> Self {
                match e {
                    wit::PluginError::Unsupported(s) => Failure::Unsupported(s),
                    wit::PluginError::InvalidInput(s) => Failure::InvalidInput(s),
                    wit::PluginError::Failed(s) => Failure::Failed(s),
                }
            }
        }

        /// A text edit as `(start, end, new text)`.
        pub fn edit(e: wit::TextEdit) -> (u32, u32, String) {
            (e.start, e.end, e.new_text)
        }
    };
}

/// The conversions of what ABI 0.2.0 added (arity, receivers, local
/// values, declared types), for 0.2.0 and every later version.
macro_rules! since_0_2_0_conversions {
    () => {
        fn symbol_arity(s: &wit::Symbol) -> Option<model::Arity> {
            s.arity.map(|a| model::Arity {
                min: a.min,
                max: a.max,
            })
        }

        /// The document's declared types.
        pub fn declared_types(
            document: &GuestDocument<'_>,
            store: impl AsContextMut,
            doc: ResourceAny,
        ) -> wasmtime::Result<Vec<model::DeclaredType>> {
            Ok(document
                .call_declared_types(store, doc)?
                .into_iter()
                .map(Into::into)
                .collect())
        }

        impl From<wit::Reference> for model::Reference {
            fn from(r: wit::Reference) -> Self {
                model::Reference {
                    name: lingo_model::Name::new(&r.name),
                    kind: r.kind.into(),
                    span: r.span.into(),
                    qualifier: super::names(&r.qualifier),
                    is_member: r.is_member,
                    enclosing: model::OptU32::new(r.enclosing),
                    local: model::OptU32::new(r.local),
                    receiver: r.receiver.map(Into::into),
                    arguments: model::OptU32::new(r.arguments),
                }
            }
        }

        impl From<wit::Local> for model::Local {
            fn from(l: wit::Local) -> Self {
                let element = local_element(&l);
                model::Local {
                    name: lingo_model::Name::new(&l.name),
                    span: l.span.into(),
                    scope: l.scope.into(),
                    language_kind: lingo_model::Name::new(&l.language_kind),
                    value: l.value.map(Into::into),
                    element,
                }
            }
        }

        impl From<wit::DeclaredType> for model::DeclaredType {
            fn from(d: wit::DeclaredType) -> Self {
                let element = declared_element(&d);
                let arguments = declared_arguments(&d);
                let members = declared_members(&d);
                model::DeclaredType {
                    target: match d.target {
                        wit::DeclaredTarget::Symbol(i) => model::DeclaredTarget::Symbol(i),
                        wit::DeclaredTarget::Local(i) => model::DeclaredTarget::Local(i),
                    },
                    type_name: lingo_model::Name::new(&d.type_name),
                    type_qualifier: super::names(&d.type_qualifier),
                    span: d.span.into(),
                    source: declared_type_source(d.source),
                    element,
                    arguments,
                    members,
                }
            }
        }

        // The policy's module layout comes from each version's own
        // `module_layout`.
        impl From<wit::PluginInfo> for model::PluginInfo {
            fn from(i: wit::PluginInfo) -> Self {
                model::PluginInfo {
                    name: i.name,
                    version: i.version,
                    abi_version: i.abi_version,
                    languages: i.languages,
                    extensions: i.extensions,
                    manifests: i.manifests,
                    path_separator: i.path_separator,
                    capabilities: i
                        .capabilities
                        .into_iter()
                        .map(|c| capability_name(c).to_string())
                        .collect(),
                    policy: model::LanguagePolicy {
                        unused_locals: unused_names(&i.policy).0,
                        unused_declarations: unused_names(&i.policy).1,
                        bodiless_modifiers: bodiless_modifiers(&i.policy),
                        private_reaches_nested_modules: private_reaches_nested_modules(&i.policy),
                        file_named_after_public_type: file_named_after_public_type(&i.policy),
                        conversions: conversions(&i.policy),
                        value_or_type: value_or_type(&i.policy),
                        static_modifiers: static_modifiers(&i.policy),
                        module_layout: module_layout(&i.policy),
                        cyclic_imports: cyclic_imports(&i.policy),
                        enclosing_modules_visible: enclosing_modules_visible(&i.policy),
                        members_share_one_namespace: members_share_one_namespace(&i.policy),
                        skip_dirs: i.policy.skip_dirs,
                        bare_names_reach_members: i.policy.bare_names_reach_members,
                        type_annotation: match i.policy.type_annotation {
                            wit::TypeAnnotationPosition::AfterName => {
                                model::TypeAnnotationPosition::AfterName
                            }
                            wit::TypeAnnotationPosition::BeforeName => {
                                model::TypeAnnotationPosition::BeforeName
                            }
                            wit::TypeAnnotationPosition::None => {
                                model::TypeAnnotationPosition::None
                            }
                        },
                    },
                }
            }
        }
    };
}

/// The conversions of what ABI 0.3.0 added (the module layout, spans handed
/// to the plugin for moves), for 0.3.0 and every later version.
macro_rules! since_0_3_0_conversions {
    () => {
        fn module_layout(policy: &wit::LanguagePolicy) -> model::ModuleLayout {
            use model::ModuleLayout as M;
            use wit::ModuleLayout as W;
            match policy.module_layout {
                W::DeclaredInText => M::DeclaredInText,
                W::FilePerModule => M::FilePerModule,
                W::DeclaredFilePerModule => M::DeclaredFilePerModule,
                W::FolderPerModule => M::FolderPerModule,
            }
        }

        /// A span the host hands to the plugin.
        pub fn span(s: &model::Span) -> wit::Span {
            let position = |p: &model::Position| wit::Position {
                line: p.line,
                character: p.character,
                offset: p.offset,
            };
            wit::Span {
                start: position(&s.start),
                end: position(&s.end),
            }
        }
    };
}

/// The conversions of what ABI 0.4.0 added (entry points, whether imports
/// may cycle), for 0.4.0 and every later version.
macro_rules! since_0_4_0_conversions {
    () => {
        fn cyclic_imports(policy: &wit::LanguagePolicy) -> bool {
            policy.cyclic_imports
        }

        /// The declarations something outside the source calls.
        pub fn entry_points(
            document: &GuestDocument<'_>,
            store: impl AsContextMut,
            doc: ResourceAny,
        ) -> wasmtime::Result<Vec<model::EntryPoint>> {
            Ok(document
                .call_entry_points(store, doc)?
                .into_iter()
                .map(|e| model::EntryPoint {
                    symbol: e.symbol,
                    kind: entry_point_kind(e.kind),
                })
                .collect())
        }
    };
}

/// The conversions of what ABI 0.5.0 added (tokens), for 0.5.0 and every
/// later version.
macro_rules! since_0_5_0_conversions {
    () => {
        fn later_capability_name(c: wit::Capability) -> &'static str {
            match c {
                wit::Capability::EntryPoints => "entry-points",
                wit::Capability::Tokens => "tokens",
                wit::Capability::Unreachable => "unreachable",
                _ => "unknown",
            }
        }

        /// One token of a document.
        pub fn token(t: wit::Token) -> model::Token {
            use model::TokenKind as M;
            use wit::TokenKind as W;
            model::Token {
                kind: match t.kind {
                    W::Identifier => M::Identifier,
                    W::Keyword => M::Keyword,
                    W::Literal => M::Literal,
                    W::Punctuation => M::Punctuation,
                    W::Comment => M::Comment,
                },
                start: t.start,
                end: t.end,
            }
        }
    };
}

/// What ABI 0.8.0 added: the names unused on purpose, the bodiless
/// modifiers, whether private declarations reach nested modules, and the
/// entry point kind `allowed-unused`.
macro_rules! since_0_8_0_conversions {
    () => {
        fn enclosing_modules_visible(policy: &wit::LanguagePolicy) -> bool {
            policy.enclosing_modules_visible
        }

        fn members_share_one_namespace(policy: &wit::LanguagePolicy) -> bool {
            policy.members_share_one_namespace
        }

        fn unused_names(policy: &wit::LanguagePolicy) -> (model::NameRule, model::NameRule) {
            let rule = |rule: &wit::NameRule| model::NameRule {
                names: rule.names.clone(),
                prefixes: rule.prefixes.clone(),
            };
            (
                rule(&policy.unused_locals),
                rule(&policy.unused_declarations),
            )
        }

        fn bodiless_modifiers(policy: &wit::LanguagePolicy) -> Vec<String> {
            policy.bodiless_modifiers.clone()
        }

        fn private_reaches_nested_modules(policy: &wit::LanguagePolicy) -> bool {
            policy.private_reaches_nested_modules
        }

        fn entry_point_kind(kind: wit::EntryPointKind) -> model::EntryPointKind {
            use model::EntryPointKind as M;
            use wit::EntryPointKind as W;
            match kind {
                W::Main => M::Main,
                W::Initializer => M::Initializer,
                W::Test => M::Test,
                W::Benchmark => M::Benchmark,
                W::Implementation => M::Implementation,
                W::Foreign => M::Foreign,
                W::AllowedUnused => M::AllowedUnused,
            }
        }
    };
}

/// The macros a document defines and leaves unexpanded, and the
/// definitions the host hands it (ABI 0.9.0 on).
pub struct Macros {
    pub definitions: Vec<lingo_model::MacroDefinition>,
    pub unexpanded: Vec<lingo_model::UnexpandedMacro>,
}

/// What ABI 0.9.0 added: macro definitions handed across files, and the
/// invocations a document leaves unexpanded.
macro_rules! since_0_9_0_conversions {
    () => {
        /// Hand `doc` the definitions of other files it invokes (nothing to do
        /// when there are none). A plugin that refuses them leaves the
        /// invocations unexpanded, and its facts say so.
        pub fn expand(
            document: &GuestDocument,
            mut store: impl AsContextMut,
            doc: ResourceAny,
            given: &[model::MacroSource],
        ) -> wasmtime::Result<()> {
            if given.is_empty() {
                return Ok(());
            }
            let sources: Vec<wit::MacroSource> = given
                .iter()
                .map(|g| wit::MacroSource {
                    name: g.name.clone(),
                    path: g.path.clone(),
                    text: g.text.clone(),
                })
                .collect();
            if let Err(error) = document.call_expand(&mut store, doc, &sources)? {
                let (Failure::Unsupported(reason)
                | Failure::InvalidInput(reason)
                | Failure::Failed(reason)) = Failure::from(error);
                tracing::warn!(%reason, "the plugin did not take the macros of other files");
            }
            Ok(())
        }

        /// The macros `doc` defines and leaves unexpanded.
        pub fn macros(
            document: &GuestDocument,
            mut store: impl AsContextMut,
            doc: ResourceAny,
        ) -> wasmtime::Result<Macros> {
            let definitions = document.call_macro_definitions(&mut store, doc)?;
            let unexpanded = document.call_unexpanded_macros(&mut store, doc)?;
            Ok(Macros {
                definitions: definitions
                    .into_iter()
                    .map(|d| model::MacroDefinition {
                        name: d.name,
                        span: d.span.into(),
                        exported: d.exported,
                    })
                    .collect(),
                unexpanded: unexpanded
                    .into_iter()
                    .map(|u| model::UnexpandedMacro {
                        name: u.name,
                        span: u.span.into(),
                        extent: u.extent.into(),
                        reason: model::UnexpandedReason::parse(&u.reason),
                    })
                    .collect(),
            })
        }
    };
}

/// What ABI 0.10.0 added: the tuple element a local destructures, the
/// element of a stated tuple type, the `this-type` source, and whether a
/// public type names its file.
macro_rules! since_0_10_0_conversions {
    () => {
        fn local_element(local: &wit::Local) -> Box<[u32]> {
            local.element.clone().into_boxed_slice()
        }

        fn declared_element(declared: &wit::DeclaredType) -> Box<[u32]> {
            declared.element.clone().into_boxed_slice()
        }

        fn file_named_after_public_type(policy: &wit::LanguagePolicy) -> bool {
            policy.file_named_after_public_type
        }
    };
}

/// What ABI 0.11.0 added: the parameter types of functions, what calls
/// pass, and the language's conversions of its built-in types.
macro_rules! since_0_11_0_conversions {
    () => {
        fn conversions(policy: &wit::LanguagePolicy) -> model::ConversionRules {
            let rules = &policy.conversions;
            model::ConversionRules {
                nominal: rules.nominal,
                top_types: rules.top_types.clone(),
                widening: rules
                    .widening
                    .iter()
                    .map(|w| (w.from.clone(), w.to.clone()))
                    .collect(),
            }
        }

        /// The document's parameter lists.
        pub fn parameter_lists(
            document: &GuestDocument<'_>,
            store: impl AsContextMut,
            doc: ResourceAny,
        ) -> wasmtime::Result<Vec<model::ParameterList>> {
            Ok(document
                .call_parameter_lists(store, doc)?
                .into_iter()
                .map(|list| model::ParameterList {
                    function: list.function,
                    types: list
                        .types
                        .into_iter()
                        .map(|ty| match ty {
                            wit::ParameterType::BuiltIn(name) => {
                                model::ParameterType::BuiltIn(name)
                            }
                            wit::ParameterType::Named(named) => {
                                model::ParameterType::Named(model::NamedType {
                                    type_name: lingo_model::Name::new(&named.type_name),
                                    type_qualifier: super::names(&named.type_qualifier),
                                    span: named.span.into(),
                                })
                            }
                            wit::ParameterType::Other => model::ParameterType::Other,
                        })
                        .collect(),
                })
                .collect())
        }

        /// The document's calls' arguments.
        pub fn call_arguments(
            document: &GuestDocument<'_>,
            store: impl AsContextMut,
            doc: ResourceAny,
        ) -> wasmtime::Result<Vec<model::CallArguments>> {
            Ok(document
                .call_call_arguments(store, doc)?
                .into_iter()
                .map(|call| model::CallArguments {
                    call: call.call,
                    values: call
                        .values
                        .into_iter()
                        .map(|value| match value {
                            wit::ArgumentValue::BuiltIn(name) => {
                                model::ArgumentValue::BuiltIn(name)
                            }
                            wit::ArgumentValue::Null => model::ArgumentValue::Null,
                            wit::ArgumentValue::Value(r) => model::ArgumentValue::Value(r.into()),
                            wit::ArgumentValue::Unknown => model::ArgumentValue::Unknown,
                        })
                        .collect(),
                })
                .collect())
        }
    };
}

/// What ABI 0.12.0 added: the values declarations are initialised with.
macro_rules! since_0_12_0_conversions {
    () => {
        /// The document's declarations' values.
        pub fn symbol_values(
            document: &GuestDocument<'_>,
            store: impl AsContextMut,
            doc: ResourceAny,
        ) -> wasmtime::Result<Vec<model::SymbolValue>> {
            Ok(document
                .call_symbol_values(store, doc)?
                .into_iter()
                .map(|value| model::SymbolValue {
                    symbol: value.symbol,
                    value: value.value.into(),
                    element: value.element.into_boxed_slice(),
                })
                .collect())
        }
    };
}

/// What ABI 0.13.0 added: values that are one element of a collection.
macro_rules! since_0_13_0_conversions {
    () => {
        impl From<wit::Receiver> for model::Receiver {
            fn from(r: wit::Receiver) -> Self {
                model::Receiver {
                    reference: r.reference,
                    called: r.called,
                    indexed: r.indexed,
                }
            }
        }
    };
}

/// What ABI 0.14.0 added: the reads a test or a guard narrows, the type a
/// guard function's true result proves, and what a name that is both a
/// member and a type means.
macro_rules! since_0_14_0_conversions {
    () => {
        fn value_or_type(policy: &wit::LanguagePolicy) -> model::ValueOrType {
            match policy.value_or_type {
                wit::ValueOrType::Unstated => model::ValueOrType::Unstated,
                wit::ValueOrType::Value => model::ValueOrType::Value,
                wit::ValueOrType::ByMember => model::ValueOrType::ByMember,
            }
        }

        fn static_modifiers(policy: &wit::LanguagePolicy) -> Vec<String> {
            policy.static_modifiers.clone()
        }

        /// The document's narrowed reads.
        pub fn narrowings(
            document: &GuestDocument<'_>,
            store: impl AsContextMut,
            doc: ResourceAny,
        ) -> wasmtime::Result<Vec<model::Narrowing>> {
            Ok(document
                .call_narrowings(store, doc)?
                .into_iter()
                .map(|n| model::Narrowing {
                    value: n.value,
                    by: n.by,
                })
                .collect())
        }
    };
}

/// What ABI 0.15.0 added: the values written for a parameter that take
/// their type from it (the source `parameter` is in each version's
/// `declared_type_source`).
macro_rules! since_0_15_0_conversions {
    () => {
        /// The document's values written for a parameter.
        pub fn parameter_contexts(
            document: &GuestDocument<'_>,
            store: impl AsContextMut,
            doc: ResourceAny,
        ) -> wasmtime::Result<Vec<model::ParameterContext>> {
            Ok(document
                .call_parameter_contexts(store, doc)?
                .into_iter()
                .map(|c| model::ParameterContext {
                    target: match c.target {
                        wit::ContextTarget::Member(index) => model::ContextTarget::Member(index),
                        wit::ContextTarget::Local(index) => model::ContextTarget::Local(index),
                    },
                    function: c.function.into(),
                    parameters: c.parameters.into_boxed_slice(),
                })
                .collect())
        }
    };
}

/// What ABI 0.16.0 added: type arguments of declared types, and the
/// declared-type source `type-parameter`.
macro_rules! since_0_16_0_conversions {
    () => {
        fn declared_type_source(source: wit::DeclaredTypeSource) -> model::DeclaredTypeSource {
            use model::DeclaredTypeSource as M;
            use wit::DeclaredTypeSource as W;
            match source {
                W::Annotation => M::Annotation,
                W::Constructor => M::Constructor,
                W::Literal => M::Literal,
                W::ReturnType => M::ReturnType,
                W::Receiver => M::Receiver,
                W::SelfType => M::SelfType,
                W::ThisType => M::ThisType,
                W::Element => M::Element,
                W::Narrowed => M::Narrowed,
                W::Parameter => M::Parameter,
                W::TypeParameter => M::TypeParameter,
            }
        }

        fn declared_arguments(declared: &wit::DeclaredType) -> Box<[model::TypeArgument]> {
            declared
                .arguments
                .iter()
                .map(|a| model::TypeArgument {
                    parent: a.parent,
                    position: a.position,
                    type_name: lingo_model::Name::new(&a.type_name),
                    type_qualifier: super::names(&a.type_qualifier),
                    span: a.span.into(),
                    members: super::names(&a.members),
                })
                .collect()
        }

        fn declared_members(declared: &wit::DeclaredType) -> Box<[lingo_model::Name]> {
            super::names(&declared.members)
        }
    };
}

/// `lingo:plugin@0.17.0` (the current ABI).
pub mod v0_17_0 {
    use super::{Failure, Macros};
    use crate::bindings::v0_17_0::exports::lingo::plugin::syntax::GuestDocument;
    use crate::bindings::v0_17_0::exports::lingo::plugin::types as wit;
    use lingo_model::facts as model;
    use wasmtime::AsContextMut;
    use wasmtime::component::ResourceAny;

    shared_conversions!();
    since_0_2_0_conversions!();
    since_0_3_0_conversions!();
    since_0_4_0_conversions!();
    since_0_5_0_conversions!();
    since_0_8_0_conversions!();
    since_0_9_0_conversions!();
    since_0_10_0_conversions!();
    since_0_11_0_conversions!();
    since_0_12_0_conversions!();
    since_0_13_0_conversions!();
    since_0_14_0_conversions!();
    since_0_15_0_conversions!();
    since_0_16_0_conversions!();
}

/// `lingo:plugin@0.16.0`: the same facts; it cannot write out a shorthand.
pub mod v0_16_0 {
    use super::{Failure, Macros};
    use crate::bindings::v0_16_0::exports::lingo::plugin::syntax::GuestDocument;
    use crate::bindings::v0_16_0::exports::lingo::plugin::types as wit;
    use lingo_model::facts as model;
    use wasmtime::AsContextMut;
    use wasmtime::component::ResourceAny;

    shared_conversions!();
    since_0_2_0_conversions!();
    since_0_3_0_conversions!();
    since_0_4_0_conversions!();
    since_0_5_0_conversions!();
    since_0_8_0_conversions!();
    since_0_9_0_conversions!();
    since_0_10_0_conversions!();
    since_0_11_0_conversions!();
    since_0_12_0_conversions!();
    since_0_13_0_conversions!();
    since_0_14_0_conversions!();
    since_0_15_0_conversions!();
    since_0_16_0_conversions!();
}
