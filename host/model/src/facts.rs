//! The host's language-neutral model of what plugins report. It is kept
//! apart from the WIT bindings so that tools never depend on an ABI version.

use serde::{Deserialize, Serialize};
use thin_vec::ThinVec;

pub use crate::name::Name;

/// Zero-based line and UTF-16 character, plus the byte offset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Position {
    pub line: u32,
    pub character: u32,
    pub offset: u32,
}

/// A half-open range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Span {
    pub start: Position,
    pub end: Position,
}

impl Span {
    pub fn contains_offset(&self, offset: u32) -> bool {
        self.start.offset <= offset && offset < self.end.offset
    }
}

/// LSP `SymbolKind`, spelled in lowercase snake case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SymbolKind {
    File,
    Module,
    Namespace,
    Package,
    Class,
    Method,
    Property,
    Field,
    Constructor,
    Enum,
    Interface,
    Function,
    Variable,
    Constant,
    String,
    Number,
    Boolean,
    Array,
    Object,
    Key,
    Null,
    EnumMember,
    Struct,
    Event,
    Operator,
    TypeParameter,
}

impl SymbolKind {
    pub const ALL: [SymbolKind; 26] = [
        SymbolKind::File,
        SymbolKind::Module,
        SymbolKind::Namespace,
        SymbolKind::Package,
        SymbolKind::Class,
        SymbolKind::Method,
        SymbolKind::Property,
        SymbolKind::Field,
        SymbolKind::Constructor,
        SymbolKind::Enum,
        SymbolKind::Interface,
        SymbolKind::Function,
        SymbolKind::Variable,
        SymbolKind::Constant,
        SymbolKind::String,
        SymbolKind::Number,
        SymbolKind::Boolean,
        SymbolKind::Array,
        SymbolKind::Object,
        SymbolKind::Key,
        SymbolKind::Null,
        SymbolKind::EnumMember,
        SymbolKind::Struct,
        SymbolKind::Event,
        SymbolKind::Operator,
        SymbolKind::TypeParameter,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            SymbolKind::File => "file",
            SymbolKind::Module => "module",
            SymbolKind::Namespace => "namespace",
            SymbolKind::Package => "package",
            SymbolKind::Class => "class",
            SymbolKind::Method => "method",
            SymbolKind::Property => "property",
            SymbolKind::Field => "field",
            SymbolKind::Constructor => "constructor",
            SymbolKind::Enum => "enum",
            SymbolKind::Interface => "interface",
            SymbolKind::Function => "function",
            SymbolKind::Variable => "variable",
            SymbolKind::Constant => "constant",
            SymbolKind::String => "string",
            SymbolKind::Number => "number",
            SymbolKind::Boolean => "boolean",
            SymbolKind::Array => "array",
            SymbolKind::Object => "object",
            SymbolKind::Key => "key",
            SymbolKind::Null => "null",
            SymbolKind::EnumMember => "enum_member",
            SymbolKind::Struct => "struct",
            SymbolKind::Event => "event",
            SymbolKind::Operator => "operator",
            SymbolKind::TypeParameter => "type_parameter",
        }
    }

    pub fn parse(text: &str) -> Option<SymbolKind> {
        let wanted = text.to_ascii_lowercase().replace(['-', ' '], "_");
        SymbolKind::ALL
            .into_iter()
            .find(|k| k.as_str() == wanted || k.as_str().replace('_', "") == wanted)
    }

    /// Kinds that have bodies worth collapsing and metrics worth measuring.
    pub fn is_callable(self) -> bool {
        matches!(
            self,
            SymbolKind::Function | SymbolKind::Method | SymbolKind::Constructor
        )
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Visibility {
    Public,
    Internal,
    Protected,
    Private,
    Unspecified,
}

impl Visibility {
    /// The lowercase word (as serialized).
    pub fn as_str(self) -> &'static str {
        match self {
            Visibility::Public => "public",
            Visibility::Internal => "internal",
            Visibility::Protected => "protected",
            Visibility::Private => "private",
            Visibility::Unspecified => "unspecified",
        }
    }
}

/// A declaration.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Symbol {
    pub name: Name,
    pub kind: SymbolKind,
    pub language_kind: Name,
    pub span: Span,
    pub name_span: Span,
    pub container: Option<u32>,
    pub container_name: Option<Name>,
    /// Boxed rather than `String`: held for every declaration, never grown.
    pub signature: Option<Box<str>>,
    pub doc: Option<Box<str>>,
    pub visibility: Visibility,
    /// Most declarations have none: an empty list takes one word.
    pub modifiers: ThinVec<String>,
    /// How many arguments a call of it takes (functions, methods,
    /// constructors), where the plugin can tell.
    #[serde(default)]
    pub arity: Option<Arity>,
}

/// How many arguments a call of a declaration takes: `min` without the
/// parameters that have defaults, `max` all of them (none: any number more).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Arity {
    pub min: u32,
    pub max: Option<u32>,
}

impl Arity {
    /// Whether a call passing `arguments` arguments fits.
    pub fn fits(&self, arguments: u32) -> bool {
        self.min <= arguments && self.max.is_none_or(|max| arguments <= max)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReferenceKind {
    Call,
    Reference,
    Type,
    Import,
    Extends,
    Implements,
    Write,
}

impl ReferenceKind {
    /// The kind as answers spell it (its serde name).
    pub fn as_str(self) -> &'static str {
        match self {
            ReferenceKind::Call => "call",
            ReferenceKind::Reference => "reference",
            ReferenceKind::Type => "type",
            ReferenceKind::Import => "import",
            ReferenceKind::Extends => "extends",
            ReferenceKind::Implements => "implements",
            ReferenceKind::Write => "write",
        }
    }
}

/// A use of a name.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Reference {
    pub name: Name,
    pub kind: ReferenceKind,
    pub span: Span,
    pub qualifier: ThinVec<Name>,
    pub is_member: bool,
    /// Index of the innermost symbol around it.
    pub enclosing: OptU32,
    /// Index of the local binding it names.
    pub local: OptU32,
    /// For a member access, the reference naming the value it is made on.
    pub receiver: Option<Receiver>,
    /// For a call or object creation, how many arguments it passes, where
    /// the plugin can tell.
    #[serde(default)]
    pub arguments: OptU32,
}

/// An `Option<u32>` in four bytes, `u32::MAX` standing for none: there are
/// millions of references, each with three. A file's lists are far shorter
/// than that and no call passes that many arguments, so `Some(u32::MAX)`
/// (which the boundary would refuse anyway) is taken as none. Encoded as
/// the `Option<u32>` it stands for.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct OptU32(u32);

impl OptU32 {
    pub const NONE: OptU32 = OptU32(u32::MAX);

    pub const fn new(value: Option<u32>) -> OptU32 {
        match value {
            Some(value) => OptU32(value),
            None => OptU32::NONE,
        }
    }

    pub const fn get(self) -> Option<u32> {
        if self.0 == u32::MAX {
            None
        } else {
            Some(self.0)
        }
    }
}

impl From<Option<u32>> for OptU32 {
    fn from(value: Option<u32>) -> OptU32 {
        OptU32::new(value)
    }
}

impl Default for OptU32 {
    fn default() -> OptU32 {
        OptU32::NONE
    }
}

impl std::fmt::Debug for OptU32 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.get().fmt(f)
    }
}

impl Serialize for OptU32 {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.get().serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for OptU32 {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<OptU32, D::Error> {
        Option::<u32>::deserialize(deserializer).map(OptU32::new)
    }
}

impl Reference {
    /// A use of the type `qualifier::name` at `span`, made by the host to
    /// resolve a type written somewhere other than a reference (a declared
    /// type).
    pub fn type_use(name: Name, qualifier: ThinVec<Name>, span: Span) -> Reference {
        Reference {
            name,
            kind: ReferenceKind::Type,
            span,
            qualifier,
            is_member: false,
            enclosing: OptU32::NONE,
            local: OptU32::NONE,
            receiver: None,
            arguments: OptU32::NONE,
        }
    }

    /// The type or module its qualifier names (`a::B` of `a::B::c`), as a
    /// type use at the same place; none without a qualifier.
    pub fn qualifier_owner(&self) -> Option<Reference> {
        let (owner, outer) = self.qualifier.split_last()?;
        Some(Reference {
            enclosing: self.enclosing,
            ..Reference::type_use(owner.clone(), ThinVec::from(outer), self.span)
        })
    }
}

/// The value a member access is made on: what another reference of the
/// same file denotes, or (`called`) the result of calling it, or
/// (`indexed`) one element of either (`xs[i]`, the `x` of `for x in xs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Receiver {
    /// Index into the file's references.
    pub reference: u32,
    pub called: bool,
    pub indexed: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ImportKind {
    Named,
    Glob,
    Namespace,
    Default,
    SideEffect,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ImportedName {
    pub name: String,
    pub alias: Option<String>,
    pub span: Span,
}

impl ImportedName {
    /// The name this import binds in the importing file.
    pub fn local_name(&self) -> &str {
        self.alias.as_deref().unwrap_or(&self.name)
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Import {
    pub module_path: String,
    pub kind: ImportKind,
    pub names: Vec<ImportedName>,
    pub type_only: bool,
    pub reexport: bool,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Local {
    pub name: Name,
    pub span: Span,
    pub scope: Span,
    pub language_kind: Name,
    /// The value it is initialised with, named by another reference.
    pub value: Option<Receiver>,
    /// The tuple element of `value` it binds, as indices from the outermost
    /// tuple in (`[1]` for `rx` in `let (tx, rx) = channel()`); empty when it
    /// binds the whole value.
    pub element: Box<[u32]>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    Error,
    Warning,
    Information,
    Hint,
}

impl Severity {
    /// The severity as answers spell it (its serde name).
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Information => "information",
            Severity::Hint => "hint",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Diagnostic {
    pub severity: Severity,
    pub code: String,
    pub message: String,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Halstead {
    pub distinct_operators: u32,
    pub distinct_operands: u32,
    pub total_operators: u32,
    pub total_operands: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FunctionMetrics {
    pub symbol: u32,
    pub cyclomatic: u32,
    pub cognitive: u32,
    pub max_nesting: u32,
    pub parameters: u32,
    pub lines: u32,
    pub code_lines: u32,
    pub comment_lines: u32,
    pub halstead: Halstead,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SyntaxNode {
    pub kind: String,
    pub span: Span,
    pub named: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PluginInfo {
    pub name: String,
    pub version: String,
    pub abi_version: String,
    pub languages: Vec<String>,
    pub extensions: Vec<String>,
    pub manifests: Vec<String>,
    pub path_separator: String,
    pub capabilities: Vec<String>,
    /// The language's rules the host applies.
    pub policy: LanguagePolicy,
}

impl PluginInfo {
    /// Whether the plugin claims `capability` (`entry-points`, ...).
    pub fn has_capability(&self, capability: &str) -> bool {
        self.capabilities.iter().any(|c| c == capability)
    }
}

/// Where a declaration's type annotation is written, relative to its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TypeAnnotationPosition {
    /// `x: T`, `x T`.
    AfterName,
    /// `T x`.
    BeforeName,
    /// The language writes no type annotations.
    None,
}

/// A language's rules, from its plugin's `info()`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LanguagePolicy {
    /// Folder names under which this plugin's files are not indexed.
    pub skip_dirs: Vec<String>,
    /// Whether a bare name inside a type's body may mean a member of it.
    pub bare_names_reach_members: bool,
    pub type_annotation: TypeAnnotationPosition,
    /// How files make up modules (stated from ABI 0.3.0 on).
    #[serde(default)]
    pub module_layout: ModuleLayout,
    /// Whether two modules may import each other (stated from ABI 0.4.0
    /// on; assumed before).
    #[serde(default = "allowed")]
    pub cyclic_imports: bool,
    /// Whether a file sees, by their bare names, what the modules around
    /// its own declare (C#'s enclosing namespaces; stated from ABI 0.6.0
    /// on, not assumed before).
    #[serde(default)]
    pub enclosing_modules_visible: bool,
    /// Whether a type's fields and methods share one namespace, so that a
    /// member of the other kind than the access asks for is still meant
    /// (a Go method value; stated from ABI 0.7.0 on, not assumed before).
    #[serde(default)]
    pub members_share_one_namespace: bool,
    /// The names that say a parameter or variable is unused on purpose
    /// (stated from ABI 0.8.0 on; none before).
    #[serde(default)]
    pub unused_locals: NameRule,
    /// The names that say a declaration is unused on purpose (stated from
    /// ABI 0.8.0 on; none before).
    #[serde(default)]
    pub unused_declarations: NameRule,
    /// The modifiers of a function declared without a body (stated from ABI
    /// 0.8.0 on; none before).
    #[serde(default)]
    pub bodiless_modifiers: Vec<String>,
    /// Whether a module's private declarations are visible in the modules
    /// nested in it (Rust; stated from ABI 0.8.0 on, not assumed before).
    #[serde(default)]
    pub private_reaches_nested_modules: bool,
    /// Whether a file's public top-level type is named as the file is
    /// (Java; stated from ABI 0.10.0 on, not assumed before).
    #[serde(default)]
    pub file_named_after_public_type: bool,
    /// How values of the built-in types convert, for telling overloads
    /// apart by argument types (stated from ABI 0.11.0 on; none before).
    #[serde(default)]
    pub conversions: ConversionRules,
    /// What a name that is both a member of the enclosing type and a type
    /// means where it heads a member access (stated from ABI 0.14.0 on).
    #[serde(default)]
    pub value_or_type: ValueOrType,
    /// The modifiers that make a member the type's own rather than each
    /// value's (`static`; stated from ABI 0.14.0 on, none before).
    #[serde(default)]
    pub static_modifiers: Vec<String>,
}

/// What a name that is both a value (a member of the enclosing type) and a
/// type in scope means where it heads a member access (`Signature.Empty`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ValueOrType {
    /// Not stated: both are candidates, neither certain.
    #[default]
    Unstated,
    /// The value: a variable hides a type of its name (Java).
    Value,
    /// Where the value's type is that type: the type when the member
    /// accessed is the type's own, the value when it is each value's (C#'s
    /// "Color Color" rule).
    ByMember,
}

/// The conversions a call's arguments may undergo without a cast.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConversionRules {
    /// Whether a value passes for a declared type only as that type or a
    /// subtype of it (false: types compared by members, or not stated).
    pub nominal: bool,
    /// Built-in types every value passes for.
    pub top_types: Vec<String>,
    /// Built-in types, each with the other built-in types it passes for.
    pub widening: Vec<(String, Vec<String>)>,
}

impl ConversionRules {
    /// Whether `name` is one of the built-in types the rules know.
    pub fn is_built_in(&self, name: &str) -> bool {
        self.top_types.iter().any(|t| t == name) || self.widening.iter().any(|(f, _)| f == name)
    }

    /// Whether a value of the built-in type `from` passes for the
    /// built-in type `to` by a widening (not identity, not a top type).
    pub fn widens(&self, from: &str, to: &str) -> bool {
        self.widening
            .iter()
            .any(|(f, targets)| f == from && targets.iter().any(|t| t == to))
    }
}

/// A set of names: those equal to one of `names` and those starting with
/// one of `prefixes`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct NameRule {
    pub names: Vec<String>,
    pub prefixes: Vec<String>,
}

impl NameRule {
    /// Whether `name` is in the set.
    pub fn matches(&self, name: &str) -> bool {
        self.names.iter().any(|n| n == name)
            || self
                .prefixes
                .iter()
                .any(|prefix| !prefix.is_empty() && name.starts_with(prefix.as_str()))
    }
}

fn allowed() -> bool {
    true
}

/// How a language's files make up its modules, which decides what moving a
/// declaration to another file means.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ModuleLayout {
    /// Not stated (plugins built before ABI 0.3.0, which cannot move
    /// declarations).
    #[default]
    Unstated,
    /// A file's module is what its text declares (C# namespaces).
    DeclaredInText,
    /// Each file is a module (TypeScript).
    FilePerModule,
    /// Each file is a module once another file declares it (Rust).
    DeclaredFilePerModule,
    /// Each folder is a module (Go packages).
    FolderPerModule,
}

impl ModuleLayout {
    /// Whether a file's module follows from its path, so a move to a file
    /// is a move to that file's module.
    pub fn follows_paths(self) -> bool {
        matches!(
            self,
            ModuleLayout::FilePerModule
                | ModuleLayout::DeclaredFilePerModule
                | ModuleLayout::FolderPerModule
        )
    }
}

/// The plugin ABI whose components state no policy, declared types,
/// receivers or local values.
pub const LEGACY_ABI: &str = "0.1.0";

/// The diagnostic code of a region the parser could not read (the SDK's).
pub const SYNTAX_ERROR_CODE: &str = "syntax-error";

impl PluginInfo {
    /// Whether the plugin's ABI has the policy and the declared-type,
    /// receiver and local-value facts (0.2.0 on): then a declaration
    /// without a declared type states none.
    pub fn reports_declared_types(&self) -> bool {
        self.abi_version != LEGACY_ABI
    }
}

impl LanguagePolicy {
    /// The policy of a plugin that has not stated one (before its `info()`
    /// is read): no folders skipped, bare names never members, no
    /// annotations, no module layout, modules may import each other,
    /// nothing else assumed.
    pub fn unstated() -> Self {
        LanguagePolicy {
            skip_dirs: Vec::new(),
            bare_names_reach_members: false,
            type_annotation: TypeAnnotationPosition::None,
            module_layout: ModuleLayout::Unstated,
            cyclic_imports: true,
            enclosing_modules_visible: false,
            members_share_one_namespace: false,
            unused_locals: NameRule::default(),
            unused_declarations: NameRule::default(),
            bodiless_modifiers: Vec::new(),
            private_reaches_nested_modules: false,
            file_named_after_public_type: false,
            conversions: ConversionRules::default(),
            value_or_type: ValueOrType::Unstated,
            static_modifiers: Vec::new(),
        }
    }
}

/// What a declared type is the type of: an index into the file's symbols
/// or locals.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum DeclaredTarget {
    Symbol(u32),
    Local(u32),
}

/// Where a declared type was read from (see `wit/lingo-plugin.wit`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum DeclaredTypeSource {
    Annotation,
    Constructor,
    Literal,
    ReturnType,
    Receiver,
    SelfType,
    /// A method returning the value it is called on (TypeScript's `this`):
    /// the named type is the declaring one.
    ThisType,
    /// The type of one element of the target's value (of its return value,
    /// for a function): what indexing or iterating it gives.
    Element,
    /// The type a call of the target, a function, proves its first
    /// argument to have when it returns true (Python's `-> TypeIs[T]`).
    Narrowed,
    /// The type of one parameter of the target (a function, a class whose
    /// constructor's it is, a declaration or type of a function type):
    /// [`DeclaredType::element`] is its position, then positions in that
    /// parameter's own function type.
    Parameter,
    /// One type parameter of the target, a generic declaration:
    /// [`DeclaredType::element`] is its position; the type name and span
    /// are the parameter's own, where it is declared;
    /// [`DeclaredType::arguments`] holds its default at position 0.
    TypeParameter,
}

impl DeclaredTypeSource {
    /// Every source, in the WIT's order.
    pub const ALL: [Self; 11] = [
        Self::Annotation,
        Self::Constructor,
        Self::Literal,
        Self::ReturnType,
        Self::Receiver,
        Self::SelfType,
        Self::ThisType,
        Self::Element,
        Self::Narrowed,
        Self::Parameter,
        Self::TypeParameter,
    ];

    /// The source as the WIT spells it (`return-type`).
    pub const fn wit_name(self) -> &'static str {
        match self {
            Self::Annotation => "annotation",
            Self::Constructor => "constructor",
            Self::Literal => "literal",
            Self::ReturnType => "return-type",
            Self::Receiver => "receiver",
            Self::SelfType => "self-type",
            Self::ThisType => "this-type",
            Self::Element => "element",
            Self::Narrowed => "narrowed",
            Self::Parameter => "parameter",
            Self::TypeParameter => "type-parameter",
        }
    }
}

/// A type the source states for a declaration.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DeclaredType {
    pub target: DeclaredTarget,
    /// The type's own name, without qualifier or generic arguments.
    pub type_name: Name,
    /// Path segments written before the type name, outermost first.
    pub type_qualifier: ThinVec<Name>,
    /// Span of the type name.
    pub span: Span,
    pub source: DeclaredTypeSource,
    /// The element of a stated tuple type this type is, as indices from the
    /// outermost tuple in (`[0]` for `Sender` in `-> (Sender, Receiver)`);
    /// empty when it is the target's whole type.
    pub element: Box<[u32]>,
    /// The named types written as its type arguments, each before its own
    /// arguments (see [`TypeArgument`]).
    pub arguments: Box<[TypeArgument]>,
    /// The members whose type, in turn, is meant (`T["_zod"]["def"]`).
    pub members: Box<[Name]>,
}

/// A named type written as a type argument of a declared type or of
/// another type argument (`Issue` in `ErrorMap<Issue>`); several at one
/// position are the types of a union or intersection written there.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TypeArgument {
    /// Index in the same list (before this one) of the argument whose own
    /// argument this is; `None` for the declared type's own.
    pub parent: Option<u32>,
    /// Its position among its parent's type arguments.
    pub position: u32,
    pub type_name: Name,
    pub type_qualifier: ThinVec<Name>,
    pub span: Span,
    /// The members whose type, in turn, is meant.
    pub members: Box<[Name]>,
}

impl TypeArgument {
    /// The argument as a type use at its span, for resolving it.
    pub fn type_use(&self) -> Reference {
        Reference::type_use(
            self.type_name.clone(),
            self.type_qualifier.clone(),
            self.span,
        )
    }
}

impl DeclaredType {
    /// The stated type as a type use at its span, for resolving it.
    pub fn type_use(&self) -> Reference {
        Reference::type_use(
            self.type_name.clone(),
            self.type_qualifier.clone(),
            self.span,
        )
    }
}

/// A parameter's type as the overload rules compare it (ABI 0.11.0 on).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ParameterType {
    /// A built-in type by the language's name for it.
    BuiltIn(String),
    /// A named type exactly as written, resolved where it is written.
    Named(NamedType),
    /// A type the rules cannot compare (type parameter, array, none...).
    Other,
}

/// A type name as written, with the path before it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NamedType {
    pub type_name: Name,
    pub type_qualifier: ThinVec<Name>,
    /// Span of the type name.
    pub span: Span,
}

impl NamedType {
    /// The type as a type use at its span, for resolving it.
    pub fn type_use(&self) -> Reference {
        Reference::type_use(
            self.type_name.clone(),
            self.type_qualifier.clone(),
            self.span,
        )
    }
}

/// The parameter types of one function, method or constructor, in order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ParameterList {
    /// Index into the file's symbols.
    pub function: u32,
    pub types: Box<[ParameterType]>,
}

/// What one argument of a call is (ABI 0.11.0 on).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ArgumentValue {
    /// A value of a built-in type, by the language's name for it.
    BuiltIn(String),
    Null,
    /// The value another reference of the file names.
    Value(Receiver),
    Unknown,
}

/// The arguments of one call, by position.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CallArguments {
    /// Index into the file's references of the call.
    pub call: u32,
    pub values: Box<[ArgumentValue]>,
}

/// The value a declaration (a variable, constant, field or property) is
/// initialised with, as another reference of its file names it (a plugin
/// fact from ABI 0.12.0 on): what types it where no type is stated.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SymbolValue {
    /// Index into the file's symbols.
    pub symbol: u32,
    pub value: Receiver,
    /// The tuple element of `value` it binds, outermost first; empty for
    /// the whole value (as [`Local::element`]).
    pub element: Box<[u32]>,
}

/// A read of a value whose type a test or a guard narrows where it is read
/// (a plugin fact from ABI 0.14.0 on): `x` after `assert isinstance(x, T)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Narrowing {
    /// Index into the file's references of the read.
    pub value: u32,
    /// Index into the file's references of what narrows it: a type tested
    /// for (a reference that is no call), or the call of a function whose
    /// `Narrowed` declared type says what its true result proves.
    pub by: u32,
}

/// What takes its type from a parameter ([`ParameterContext`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum ContextTarget {
    /// A member reached through a literal without a type of its own (the
    /// key `k` of `f({ k: v })`): index into the file's references.
    Member(u32),
    /// A parameter written without a type (`x` of `f((x) => ..)`): index
    /// into the file's locals.
    Local(u32),
}

/// A value written for a parameter of a function, whose type is that
/// parameter's (a plugin fact from ABI 0.15.0 on): a key of an object
/// literal given as an argument, a callback's parameter.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ParameterContext {
    pub target: ContextTarget,
    /// The function, as another reference of the file names it: the
    /// function a call calls, or a declaration, key or type of a function
    /// type.
    pub function: Receiver,
    /// The parameter's position in the function's parameters, then in that
    /// parameter's own function type, outermost first.
    pub parameters: Box<[u32]>,
}

/// Why something outside the source calls a declaration (a plugin fact,
/// from ABI 0.4.0 on).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EntryPointKind {
    /// Where a program starts (`main`).
    Main,
    /// Run by the runtime before the program or on loading (`init`).
    Initializer,
    /// Run by a test harness.
    Test,
    /// Run by a benchmark harness.
    Benchmark,
    /// Called through a supertype it implements or overrides.
    Implementation,
    /// Called from outside the language or by name (`#[no_mangle]`, a
    /// decorator's framework).
    Foreign,
    /// Not called, with the source's leave (`#[allow(dead_code)]` in force
    /// at it): never reported unused.
    AllowedUnused,
}

/// A declaration something outside the source calls.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct EntryPoint {
    /// Index into the file's symbols.
    pub symbol: u32,
    pub kind: EntryPointKind,
}

/// What one token of a source is (ABI 0.5.0's `token-kind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TokenKind {
    /// A name a consistent rename changes.
    Identifier,
    Keyword,
    /// A literal value, whole.
    Literal,
    Punctuation,
    /// A comment, whole.
    Comment,
}

/// One token: its kind and the byte range `[start, end)` it covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token {
    pub kind: TokenKind,
    pub start: u32,
    pub end: u32,
}

/// A manifest file handed to plugins for module resolution.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    pub path: String,
    pub contents: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ModuleIdentity {
    pub path: String,
    pub crate_or_package: Option<String>,
}

/// A macro a file defines that other files may invoke (ABI 0.9.0 on).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MacroDefinition {
    pub name: String,
    /// The whole definition: its text is what an invoking file is given.
    pub span: Span,
    /// Visible outside its package; else to the package's files only.
    pub exported: bool,
}

/// Why an invocation is left unexpanded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum UnexpandedReason {
    /// No definition the file sees or was given.
    Undefined,
    /// A form the plugin's expander does not read.
    Unsupported,
    /// The expansion passed a bound (depth, size, steps).
    Budget,
}

impl UnexpandedReason {
    /// The ABI's spelling; an unknown one is `unsupported`.
    pub fn parse(reason: &str) -> UnexpandedReason {
        match reason {
            "undefined" => UnexpandedReason::Undefined,
            "budget" => UnexpandedReason::Budget,
            _ => UnexpandedReason::Unsupported,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            UnexpandedReason::Undefined => "undefined",
            UnexpandedReason::Unsupported => "unsupported",
            UnexpandedReason::Budget => "budget",
        }
    }
}

/// An invocation in declaration position the plugin left unexpanded: what
/// it would declare is missing from the facts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnexpandedMacro {
    pub name: String,
    /// The invocation's name.
    pub span: Span,
    /// The whole invocation.
    pub extent: Span,
    pub reason: UnexpandedReason,
}

/// An invocation of a definition from another file (`macros_given`),
/// found by the host: reported `undefined` by an analysis without it, and
/// no longer so with it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoutedInvocation {
    pub name: String,
    /// The invocation's name.
    pub span: Span,
}

/// A definition from another file, handed to the plugin with a file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MacroSource {
    pub name: String,
    /// The workspace-relative file it is defined in.
    pub path: String,
    pub text: String,
}

/// The digest of `given` (names, files and texts, in order): facts made
/// with definitions of another digest are stale. Empty for none.
pub fn macros_digest(given: &[MacroSource]) -> String {
    use sha2::Digest;
    if given.is_empty() {
        return String::new();
    }
    let mut hasher = sha2::Sha256::new();
    for source in given {
        for part in [&source.name, &source.path, &source.text] {
            hasher.update((part.len() as u64).to_le_bytes());
            hasher.update(part.as_bytes());
        }
    }
    hex::encode(hasher.finalize())
}

/// Move `list` into an allocation of exactly its length when it has spare
/// room. `Vec::shrink_to_fit` is not enough: an allocator may keep a block
/// that is at most half spare as it is (mimalloc does).
fn fit<T>(list: &mut Vec<T>) {
    if list.capacity() > list.len() {
        let mut exact = Vec::with_capacity(list.len());
        exact.append(list);
        *list = exact;
    }
}

/// Everything a plugin reports about one file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FileFacts {
    pub language: String,
    pub symbols: Vec<Symbol>,
    pub references: Vec<Reference>,
    pub imports: Vec<Import>,
    pub locals: Vec<Local>,
    pub diagnostics: Vec<Diagnostic>,
    pub metrics: Vec<FunctionMetrics>,
    pub modules: Vec<ModuleIdentity>,
    /// Types stated for the symbols and locals (none from 0.1.0 plugins).
    pub declared_types: Vec<DeclaredType>,
    /// Parameter types of functions whose overloads calls tell apart, by
    /// function index (none before ABI 0.11.0).
    #[serde(default)]
    pub parameter_lists: Vec<ParameterList>,
    /// What calls pass, by call index (none before ABI 0.11.0).
    #[serde(default)]
    pub call_arguments: Vec<CallArguments>,
    /// The values declarations are initialised with, by symbol index
    /// (none before ABI 0.12.0).
    #[serde(default)]
    pub symbol_values: Vec<SymbolValue>,
    /// The reads whose value's type a test or a guard narrows, by `value`
    /// (ABI 0.14.0).
    #[serde(default)]
    pub narrowings: Vec<Narrowing>,
    /// The values that take their type from a parameter, by `target`
    /// (ABI 0.15.0).
    #[serde(default)]
    pub parameter_contexts: Vec<ParameterContext>,
    /// The declarations something outside the source calls; `None` when
    /// the plugin does not say (before ABI 0.4.0, or without the
    /// `entry-points` capability), so that nothing can be known unused.
    pub entry_points: Option<Vec<EntryPoint>>,
    /// The macros the file defines that other files may invoke.
    pub macro_definitions: Vec<MacroDefinition>,
    /// The invocations the plugin left unexpanded.
    pub unexpanded_macros: Vec<UnexpandedMacro>,
    /// The definitions from other files the facts were computed with, by
    /// name and file, and a digest of their texts: facts made with other
    /// definitions are stale.
    pub macros_given: Vec<(String, String)>,
    pub macros_digest: String,
    /// The invocations of definitions in `macros_given` (host-made): each
    /// invokes the definition given for its name.
    pub routed_invocations: Vec<RoutedInvocation>,
}

impl FileFacts {
    /// Give back the spare capacity of every list: decoding grows long
    /// lists by doubling, and a list converted in place from a plugin's
    /// records keeps the whole allocation of those, larger than ours (on a
    /// cold index of 1.7M lines, 438 MiB held by references that need 165).
    pub fn shrink_to_fit(&mut self) {
        fit(&mut self.symbols);
        fit(&mut self.references);
        fit(&mut self.imports);
        fit(&mut self.locals);
        fit(&mut self.diagnostics);
        fit(&mut self.metrics);
        fit(&mut self.modules);
        fit(&mut self.declared_types);
        fit(&mut self.parameter_lists);
        fit(&mut self.call_arguments);
        fit(&mut self.symbol_values);
        fit(&mut self.narrowings);
        fit(&mut self.parameter_contexts);
        if let Some(entry_points) = &mut self.entry_points {
            fit(entry_points);
        }
        fit(&mut self.macro_definitions);
        fit(&mut self.unexpanded_macros);
        fit(&mut self.macros_given);
        fit(&mut self.routed_invocations);
        for import in &mut self.imports {
            fit(&mut import.names);
        }
    }

    /// The facts of a file of `language` that declares, references and
    /// imports nothing (a start that tests fill in).
    pub fn empty(language: &str) -> FileFacts {
        FileFacts {
            language: language.to_string(),
            symbols: Vec::new(),
            references: Vec::new(),
            imports: Vec::new(),
            locals: Vec::new(),
            diagnostics: Vec::new(),
            metrics: Vec::new(),
            modules: Vec::new(),
            declared_types: Vec::new(),
            parameter_lists: Vec::new(),
            call_arguments: Vec::new(),
            symbol_values: Vec::new(),
            narrowings: Vec::new(),
            parameter_contexts: Vec::new(),
            entry_points: None,
            macro_definitions: Vec::new(),
            unexpanded_macros: Vec::new(),
            macros_given: Vec::new(),
            macros_digest: String::new(),
            routed_invocations: Vec::new(),
        }
    }

    /// How many syntax errors the plugin reported.
    pub fn syntax_errors(&self) -> usize {
        self.diagnostics
            .iter()
            .filter(|d| d.code == SYNTAX_ERROR_CODE)
            .count()
    }

    /// `Outer::Inner::name`-style path of containers, outermost first.
    /// Bounded by the number of symbols, whatever the containers say
    /// (validated facts form a forest, so the bound is never reached).
    pub fn container_chain(&self, index: usize) -> Vec<&Symbol> {
        let mut chain = Vec::new();
        let mut current = self.symbols.get(index).and_then(|s| s.container);
        while let Some(c) = current {
            let Some(symbol) = self.symbols.get(c as usize) else {
                break;
            };
            if chain.len() >= self.symbols.len() {
                break;
            }
            chain.push(symbol);
            current = symbol.container;
        }
        chain.reverse();
        chain
    }
}

/// The prefix of a symbol modifier that states a condition the declaration
/// exists under (`when:feature = "fast"` for Rust's `#[cfg(feature =
/// "fast")]`): code the project's build leaves out unless it holds.
pub const CONDITION_MODIFIER: &str = "when:";

impl Symbol {
    /// The condition this declaration exists under, as its plugin states
    /// it (a [`CONDITION_MODIFIER`] modifier), if any.
    pub fn condition(&self) -> Option<&str> {
        self.modifiers
            .iter()
            .find_map(|m| m.strip_prefix(CONDITION_MODIFIER))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A large tree holds millions of references: their size is most of
    /// the index's memory (BENCHMARKS.md, "Memory").
    #[test]
    fn a_reference_stays_small() {
        assert!(std::mem::size_of::<Reference>() <= 64);
        assert_eq!(std::mem::size_of::<OptU32>(), 4);
    }

    /// Stored facts keep their encoding: the compact fields are written as
    /// the `Option` and `Vec` they stand for.
    #[test]
    fn compact_fields_encode_as_what_they_stand_for() {
        let reference = Reference {
            enclosing: OptU32::new(Some(3)),
            arguments: OptU32::new(Some(u32::MAX)),
            ..Reference::type_use(
                Name::from("T"),
                ThinVec::from(&[Name::from("a"), Name::from("b")][..]),
                Span {
                    start: Position {
                        line: 0,
                        character: 0,
                        offset: 0,
                    },
                    end: Position {
                        line: 0,
                        character: 1,
                        offset: 1,
                    },
                },
            )
        };
        let json = serde_json::to_value(&reference).unwrap();
        assert_eq!(json["enclosing"], 3);
        assert_eq!(json["local"], serde_json::Value::Null);
        assert_eq!(json["arguments"], serde_json::Value::Null);
        assert_eq!(json["qualifier"], serde_json::json!(["a", "b"]));
        let bytes = postcard::to_stdvec(&reference).unwrap();
        let back: Reference = postcard::from_bytes(&bytes).unwrap();
        assert_eq!(back.enclosing.get(), Some(3));
        assert_eq!(back.qualifier.len(), 2);

        #[derive(Serialize)]
        struct Before {
            name: Name,
            kind: ReferenceKind,
            span: Span,
            qualifier: Vec<Name>,
            is_member: bool,
            enclosing: Option<u32>,
            local: Option<u32>,
            receiver: Option<Receiver>,
            arguments: Option<u32>,
        }
        let before = Before {
            name: reference.name,
            kind: reference.kind,
            span: reference.span,
            qualifier: reference.qualifier.to_vec(),
            is_member: false,
            enclosing: Some(3),
            local: None,
            receiver: None,
            arguments: None,
        };
        assert_eq!(postcard::to_stdvec(&before).unwrap(), bytes);
    }
}
