//! lingo-resolve: name resolution and the symbol graph over one snapshot
//! of the index. Imports `lingo-model`, `lingo-runtime` and `lingo-index`,
//! never the analysis layer, tools or the protocol.
//!
//! Name resolution across files from the plugins' facts: local scope first,
//! then imports and module paths, then the file's own declarations, and only
//! then name-only matches, which are marked as such.
//!
//! A member access through a value whose type the source states (`p.name`
//! with a parameter `p: Parser`, a local `let d = Decoder { .. }`, a field
//! `self.parser` declared `parser: Parser`, a call `Parser::new().name`
//! whose function declares its return type) resolves to that type's member
//! or its nearest supertype's, by the plugins' receiver and declared-type
//! facts, when the type is one declaration of the workspace (see
//! `receiver.rs`); otherwise it is resolved as any other member access.
//!
//! A member access (`x.name`, `self.name`) only ever resolves to members of
//! types (never to a module, namespace, type or free function), and among
//! the members of one type to the kind the access asks for: a call to a
//! method, a read or write to a field or property. A bare name is a member
//! of the enclosing type only in languages whose plugin says bare names
//! reach members (an implicit `this`): there a value or call named bare
//! means the enclosing types' member before anything the file's scope and
//! imports bind; for plugins that cannot say (ABI 0.1.0), only as a
//! name-only guess after them. A call whose argument count is known keeps
//! the overloads whose arity fits it, then those its arguments' types
//! leave (`overloads.rs`); several left are uncertain.

use std::sync::Arc;

use serde::Serialize;

mod derived;
mod generics;
pub mod graph;
pub mod name_search;
mod overloads;
mod receiver;
mod table;

pub use derived::Resolved;
pub use table::{SymbolRef, SymbolTable, is_item};

use lingo_index::{FileEntry, Snapshot};
use lingo_model::{
    DeclaredTarget, FileFacts, ImportKind, OptU32, Reference, ReferenceKind, Symbol, SymbolKind,
};

/// How a definition was found, most certain first.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Serialize,
    serde::Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Resolution {
    /// The position is the declaration itself.
    Declaration,
    /// A binding in an enclosing local scope, or a declaration of the same file.
    Scope,
    /// Through an import of the file.
    Import,
    /// Through a qualified path (`module::name`, `Type::member`).
    Qualified,
    /// Only the name matched; the target may be wrong.
    NameOnly,
}

impl Resolution {
    /// The resolution as answers spell it (its serde name).
    pub fn as_str(self) -> &'static str {
        match self {
            Resolution::Declaration => "declaration",
            Resolution::Scope => "scope",
            Resolution::Import => "import",
            Resolution::Qualified => "qualified",
            Resolution::NameOnly => "name_only",
        }
    }
}

/// Where something is declared.
#[derive(Debug, Clone)]
pub enum Target {
    Symbol { file: Arc<FileEntry>, index: usize },
    Local { file: Arc<FileEntry>, index: usize },
}

#[derive(Debug, Clone)]
pub struct Definition {
    pub target: Target,
    pub resolution: Resolution,
    /// How certain this target is, from 0 to 1.
    pub confidence: f64,
}

impl Definition {
    /// A definition found by following the language's rules: certain.
    pub fn certain(target: Target, resolution: Resolution) -> Self {
        Definition {
            target,
            resolution,
            confidence: 1.0,
        }
    }
}

/// Spread `confidence` over `found`, the candidates of one lookup (each
/// keeps its own certainty relative to the others).
fn share(mut found: Vec<Definition>, confidence: f64) -> Vec<Definition> {
    let each = confidence / found.len().max(1) as f64;
    for d in &mut found {
        d.confidence = (d.confidence * each * 100.0).round() / 100.0;
    }
    found
}

/// What sits at a position of a file.
pub enum AtPosition<'f> {
    Declaration(usize),
    LocalDeclaration(usize),
    Reference(&'f Reference),
}

/// The declaration or reference whose name covers `offset` (the end of a
/// name counts, so a cursor just after it still finds it).
pub fn at_offset(facts: &FileFacts, offset: u32) -> Option<AtPosition<'_>> {
    let covers = |s: &lingo_model::Span| s.start.offset <= offset && offset <= s.end.offset;
    if let Some(i) = facts.symbols.iter().position(|s| covers(&s.name_span)) {
        return Some(AtPosition::Declaration(i));
    }
    if let Some(r) = facts.references.iter().find(|r| covers(&r.span)) {
        return Some(AtPosition::Reference(r));
    }
    facts
        .locals
        .iter()
        .position(|l| covers(&l.span))
        .map(AtPosition::LocalDeclaration)
}

/// Resolves references against one snapshot.
pub struct Resolver<'s> {
    snapshot: &'s Snapshot,
    table: Arc<SymbolTable>,
}

/// More name-only candidates than this and a reference counts as ambiguous:
/// listing every same-named declaration would be noise, not an answer.
pub const MAX_NAME_ONLY_CANDIDATES: usize = 8;

/// Confidence of a member of the enclosing type found for a bare name (an
/// implicit `this`) when the plugin could not say whether its language has
/// that rule (ABI 0.1.0).
const ENCLOSING_MEMBER_CONFIDENCE: f64 = 0.8;

/// Factor on the confidence of a member of the other kind than the access
/// asks for (a method read as a value, a field called).
const OTHER_KIND_CONFIDENCE: f64 = 0.8;

/// Re-exports followed at most from one import (`a` re-exports `b` which
/// re-exports `c`...); also ends cycles of glob re-exports. Each file is
/// looked in once per name and lookup (`ReexportWalk`), so the work is
/// bounded by the files, not by fan-out to this depth.
const MAX_REEXPORT_DEPTH: usize = 8;

thread_local! {
    /// The (file, name) pairs the outermost re-export lookup on this thread
    /// has looked in; `None` when none is under way.
    static REEXPORTS_SEEN: std::cell::RefCell<Option<Vec<(u32, String)>>> =
        const { std::cell::RefCell::new(None) };
}

/// One re-export lookup on this thread; the outermost one forgets what it
/// saw on drop.
struct ReexportWalk {
    outermost: bool,
}

impl ReexportWalk {
    /// `None` when `file` was already looked in for `name` in this lookup.
    fn enter(file: u32, name: &str) -> Option<ReexportWalk> {
        REEXPORTS_SEEN.with(|seen| {
            let mut seen = seen.borrow_mut();
            let outermost = seen.is_none();
            let visited = seen.get_or_insert_with(Vec::new);
            if visited.iter().any(|(f, n)| *f == file && n == name) {
                return None;
            }
            visited.push((file, name.to_string()));
            Some(ReexportWalk { outermost })
        })
    }
}

impl Drop for ReexportWalk {
    fn drop(&mut self) {
        if self.outermost {
            REEXPORTS_SEEN.with(|seen| *seen.borrow_mut() = None);
        }
    }
}

/// Receivers followed at most from one member access (`a.b.c.d()`): each
/// step resolves the receiver's own receiver, or the value a declaration
/// is initialised with (`const r = s.parse(x)` then `r.error.issues[0]`).
const MAX_RECEIVER_DEPTH: usize = 10;

impl<'s> Resolver<'s> {
    /// The resolver of `snapshot`, whose name table is `table`.
    pub fn new(snapshot: &'s Snapshot, table: Arc<SymbolTable>) -> Self {
        Resolver { snapshot, table }
    }

    pub fn table(&self) -> &Arc<SymbolTable> {
        &self.table
    }

    /// Definitions of `reference`, written in `file`.
    pub fn resolve(&self, file: &Arc<FileEntry>, reference: &Reference) -> Vec<Definition> {
        self.resolve_within(file, reference, 0)
    }

    /// [`Self::resolve`], `depth` receivers deep in a member access chain.
    fn resolve_within(
        &self,
        file: &Arc<FileEntry>,
        reference: &Reference,
        depth: usize,
    ) -> Vec<Definition> {
        let Ok(facts) = &file.facts else {
            return Vec::new();
        };
        if let Some(local) = reference.local.get() {
            let shadowing = self.members_shadowing_local(file, facts, reference, local as usize);
            if !shadowing.is_empty() {
                return shadowing;
            }
            return vec![Definition::certain(
                Target::Local {
                    file: file.clone(),
                    index: local as usize,
                },
                Resolution::Scope,
            )];
        }
        if reference.kind == ReferenceKind::Call
            && let Some(invoked) = self.invoked_macro(facts, reference)
        {
            return invoked;
        }
        if reference.kind == ReferenceKind::Import
            && let Some((import, imported)) = import_at(facts, reference)
        {
            // The name an import statement brings in: exactly what the
            // import says, or (a module outside the workspace) nothing.
            let found = self.imported(file, facts, &import.module_path, &imported.name, reference);
            if found.is_empty() {
                return self.imported_macro(file, facts, &import.module_path, &imported.name);
            }
            return found;
        }
        let found = if !reference.qualifier.is_empty() {
            self.qualified(file, facts, reference)
        } else if reference.is_member {
            let typed = self.through_receiver(file, facts, reference, depth);
            if typed.is_empty() {
                self.through_imported_module(file, facts, reference)
            } else {
                typed
            }
        } else {
            self.bare(file, facts, reference)
        };
        // What a call names is a value, never a module, namespace or package.
        let found = if reference.kind == ReferenceKind::Call {
            found
                .into_iter()
                .filter(|d| {
                    !target_symbol(d).is_some_and(|s| {
                        matches!(
                            s.kind,
                            SymbolKind::Module | SymbolKind::Namespace | SymbolKind::Package
                        )
                    })
                })
                .collect()
        } else {
            found
        };
        // What a type position names is a type: where a value shares its
        // name (TypeScript's `interface X` merged with `const X`), the type.
        let found = if matches!(
            reference.kind,
            ReferenceKind::Type | ReferenceKind::Extends | ReferenceKind::Implements
        ) && found
            .iter()
            .any(|d| target_symbol(d).is_some_and(|s| is_type_kind(s.kind)))
        {
            found
                .into_iter()
                .filter(|d| target_symbol(d).is_none_or(|s| is_type_kind(s.kind)))
                .collect()
        } else {
            found
        };
        if !found.is_empty() {
            return self.by_arguments(file, facts, reference, found);
        }
        // `ext.name` where `ext` is an import the workspace cannot resolve
        // (a dependency): a same-named declaration here is not meant.
        if reference
            .qualifier
            .first()
            .is_some_and(|first| binds(facts, first))
        {
            return Vec::new();
        }
        let wanted = if reference.is_member {
            Wanted::Members
        } else if reference.qualifier.is_empty() && binds(facts, &reference.name) {
            // A bare name an import binds (to something outside the
            // workspace, or it would have resolved): a guess may be a
            // declaration of that name elsewhere, never a type's member.
            Wanted::NonMembers
        } else {
            Wanted::Any
        };
        self.name_only(&reference.name, wanted, reference)
    }

    /// The definition a macro invocation was expanded with, when the file
    /// was given it from another file (`routed_invocations`): the
    /// declarations of that name inside the given file's definitions of
    /// it. `None` when `reference` is no such invocation (or the given
    /// file declares no symbol there).
    fn invoked_macro(&self, facts: &FileFacts, reference: &Reference) -> Option<Vec<Definition>> {
        let name = reference.name.as_str();
        facts
            .routed_invocations
            .iter()
            .find(|i| i.name == name && i.span.start.offset == reference.span.start.offset)?;
        let resolution = if reference.qualifier.is_empty() {
            Resolution::Import
        } else {
            Resolution::Qualified
        };
        let (found, _) = self.given_macro(facts, name, resolution)?;
        Some(found)
    }

    /// The declarations inside the definition of `name` the file was given
    /// (`macros_given`), and the file that defines it.
    fn given_macro(
        &self,
        facts: &FileFacts,
        name: &str,
        resolution: Resolution,
    ) -> Option<(Vec<Definition>, u32)> {
        let (_, path) = facts.macros_given.iter().find(|(given, _)| given == name)?;
        let number = self.table.file_number(path)?;
        let defining = self.table.files().get(number as usize)?;
        let definitions = &defining.facts.as_ref().ok()?.macro_definitions;
        let found = self.where_named(name, resolution, |r, s| {
            r.file == number
                && definitions.iter().any(|d| {
                    d.name == name
                        && d.span.start.offset <= s.name_span.start.offset
                        && s.name_span.end.offset <= d.span.end.offset
                })
        });
        (!found.is_empty()).then_some((found, number))
    }

    /// An import that names nothing declared in its modules, of a name the
    /// file invokes as a macro given from another file of the package
    /// those modules belong to (`use tracing::error;` beside `error!(..)`,
    /// the macro exported from a module file to the crate's root): that
    /// definition.
    fn imported_macro(
        &self,
        file: &Arc<FileEntry>,
        facts: &FileFacts,
        module_path: &str,
        name: &str,
    ) -> Vec<Definition> {
        let Some((found, defining)) = self.given_macro(facts, name, Resolution::Import) else {
            return Vec::new();
        };
        let package_of = |number: u32| {
            self.table.files()[number as usize]
                .facts
                .as_ref()
                .ok()
                .and_then(|f| f.modules.first())
                .and_then(|m| m.crate_or_package.clone())
        };
        let Some(package) = package_of(defining) else {
            return Vec::new();
        };
        let imports_that_package = facts.modules.iter().any(|importer| {
            self.table
                .resolve_import(file, importer, module_path, self.snapshot)
                .iter()
                .filter_map(|module| self.snapshot.modules.get(module))
                .flatten()
                .filter_map(|p| self.table.file_number(p))
                .any(|number| package_of(number).as_deref() == Some(package.as_str()))
        });
        if imports_that_package {
            found
        } else {
            Vec::new()
        }
    }

    /// `m.name` where `m` is a name an import binds that declares nothing
    /// with a type (`from pkg import formatting`), or a path that starts
    /// with one (`z.iso.name`): the import may name a module, so `name` is
    /// looked up as `pkg.formatting.name`, the way a qualified path is.
    fn through_imported_module(
        &self,
        file: &Arc<FileEntry>,
        facts: &FileFacts,
        reference: &Reference,
    ) -> Vec<Definition> {
        let Some(receiver) = reference.receiver.filter(|r| !r.called && !r.indexed) else {
            return Vec::new();
        };
        let Some(value) = facts.references.get(receiver.reference as usize) else {
            return Vec::new();
        };
        let path_of_names =
            value.local.get().is_none() && value.receiver.is_none() && !value.is_member;
        let head = value.qualifier.first().unwrap_or(&value.name);
        if !path_of_names || !binds(facts, head) {
            return Vec::new();
        }
        let mut qualifier = value.qualifier.clone();
        qualifier.push(value.name.clone());
        let path = Reference {
            qualifier,
            is_member: false,
            receiver: None,
            ..reference.clone()
        };
        self.qualified(file, facts, &path)
    }

    /// A bare name: the file's own top-level declarations, the module's
    /// other files, the imports, glob imports, and last the members of the
    /// enclosing type (an implicit `this`).
    fn bare(
        &self,
        file: &Arc<FileEntry>,
        facts: &FileFacts,
        reference: &Reference,
    ) -> Vec<Definition> {
        let name = reference.name.as_str();
        let at = |index: usize| Target::Symbol {
            file: file.clone(),
            index,
        };
        // Where bare names reach members (an implicit `this`), a value or
        // call named bare means a member of the enclosing types (their
        // parts in other files and their supertypes included) before
        // anything of the namespace: a property `Signature Signature` is
        // what `Signature` reads inside its class. Only where the name
        // heads a path (`Signature.Verify()`) may it mean a type of that
        // name as well: then both are candidates, neither certain. A name
        // in a type's position is looked up among types as before.
        let info = file.plugin.info();
        if may_mean_a_member(file, reference) {
            let members = self.enclosing_members(file, facts, reference);
            if !members.is_empty() {
                if heads_a_path(file, reference) {
                    let types: Vec<Definition> = self
                        .bare_scope(file, facts, reference)
                        .into_iter()
                        .filter(|d| target_symbol(d).is_some_and(|s| is_type_kind(s.kind)))
                        .collect();
                    if !types.is_empty() {
                        return self.value_or_type(file, facts, reference, members, types);
                    }
                }
                return members;
            }
        }
        // There, too, the enclosing types' nested types (declared in any
        // of their parts, or in a supertype) are in scope by their bare
        // name before the namespace's: `new Inner()` in one part of a
        // partial class names the `Inner` its other part declares.
        // A base list is not looked up this way: its names are what the
        // supertypes walk itself resolves.
        if info.reports_declared_types()
            && info.policy.bare_names_reach_members
            && matches!(
                reference.kind,
                ReferenceKind::Type
                    | ReferenceKind::Call
                    | ReferenceKind::Reference
                    | ReferenceKind::Write
            )
        {
            let nested = self.enclosing_nested_types(file, facts, reference);
            if !nested.is_empty() {
                return nested;
            }
        }
        let scope = self.bare_scope(file, facts, reference);
        if !scope.is_empty() {
            return scope;
        }
        // A name an import binds is that import's, even when the import
        // leads outside the workspace (`use std::cmp::min` in an `impl`
        // with its own `min`): the enclosing type's member is not meant.
        if binds(facts, name) {
            return Vec::new();
        }
        // Some languages let a method name its type's other members bare
        // (C#, Java: an implicit `this`); in others (Rust, Go, TypeScript)
        // such a name never means a member. The plugin states which rule
        // holds (`bare-names-reach-members` in its policy, ABI 0.2.0): a
        // member found under the first rule is certain, under the second
        // none is looked for. A plugin built against ABI 0.1.0 could not
        // say, so there a member found this way is a name-only guess. A
        // reference the plugin qualifies itself (`self.x`, `this.x`, through
        // its `is_self_receiver` hook) does not come here: it resolves as
        // `Type.x`.
        let stated = info.reports_declared_types();
        if stated && !info.policy.bare_names_reach_members {
            return Vec::new();
        }
        let owners = enclosing_types(facts, reference);
        let resolution = if stated {
            Resolution::Scope
        } else {
            Resolution::NameOnly
        };
        let members: Vec<Definition> = facts
            .symbols
            .iter()
            .enumerate()
            .filter(|(_, s)| {
                s.name == name
                    && is_item(s)
                    && s.container.is_some_and(|c| owners.contains(&(c as usize)))
            })
            .map(|(index, _)| Definition::certain(at(index), resolution))
            .collect();
        if stated {
            members
        } else {
            share(members, ENCLOSING_MEMBER_CONFIDENCE)
        }
    }

    /// Members named as the bare `reference` of the types around it,
    /// innermost first: declared in the type (in any of its parts) or, else,
    /// its nearest supertype. A call looks for methods only (`new T()` names
    /// a type, not a property `T`); constructors are never meant.
    fn enclosing_members(
        &self,
        file: &Arc<FileEntry>,
        facts: &FileFacts,
        reference: &Reference,
    ) -> Vec<Definition> {
        self.in_enclosing_types(file, facts, reference, |ty| {
            self.members_named_bare(ty, reference)
        })
    }

    /// The members of `ty` (its supertypes' included) a bare `reference`
    /// may mean: no constructor, and something callable for a call.
    fn members_named_bare(&self, ty: SymbolRef, reference: &Reference) -> Vec<Definition> {
        self.members_of_type(ty, reference)
            .into_iter()
            .filter(|d| {
                target_symbol(d).is_some_and(|s| {
                    s.kind != SymbolKind::Constructor
                        && (reference.kind != ReferenceKind::Call || s.kind.is_callable())
                })
            })
            .map(|mut d| {
                d.resolution = Resolution::Scope;
                d
            })
            .collect()
    }

    /// The local binding `reference` means: the one the plugin bound it
    /// to, unless a member of a type declared inside that local's scope
    /// shadows it ([`Self::members_shadowing_local`]).
    pub fn local_of(&self, file: &Arc<FileEntry>, reference: &Reference) -> Option<u32> {
        let local = reference.local.get()?;
        let Ok(facts) = &file.facts else {
            return Some(local);
        };
        self.members_shadowing_local(file, facts, reference, local as usize)
            .is_empty()
            .then_some(local)
    }

    /// Where bare names reach members, the members a bare `reference`
    /// the plugin bound to the local `local` means instead: those of a
    /// type declared inside the local's scope, around the reference (an
    /// anonymous or local class), which shadow the locals outside it.
    /// Java's `new Base() { .. name .. }` reads the field `name` that
    /// `Base` declares, not the enclosing method's parameter `name`.
    fn members_shadowing_local(
        &self,
        file: &Arc<FileEntry>,
        facts: &FileFacts,
        reference: &Reference,
        local: usize,
    ) -> Vec<Definition> {
        if !may_mean_a_member(file, reference) {
            return Vec::new();
        }
        let Some(binding) = facts.locals.get(local) else {
            return Vec::new();
        };
        let declared_at = binding.span.start.offset;
        let used_at = reference.span.start.offset;
        let holds = |ty: usize, offset: u32| {
            let span = &facts.symbols[ty].span;
            span.start.offset <= offset && offset < span.end.offset
        };
        // The types around the use, inside the local's scope: those whose
        // span (an anonymous class's is its body) holds the use but not
        // the local's declaration.
        let inside_scope: Vec<usize> = enclosing_types(facts, reference)
            .into_iter()
            .take_while(|&ty| !holds(ty, declared_at))
            .filter(|&ty| holds(ty, used_at))
            .collect();
        if inside_scope.is_empty() {
            return Vec::new();
        }
        let Some(number) = self.table.file_number(&file.path) else {
            return Vec::new();
        };
        inside_scope
            .into_iter()
            .map(|ty| {
                self.members_named_bare(
                    SymbolRef {
                        file: number,
                        symbol: ty as u32,
                    },
                    reference,
                )
            })
            .find(|found| !found.is_empty())
            .unwrap_or_default()
    }

    /// Types named as the bare `reference` nested in the types around it,
    /// innermost first.
    fn enclosing_nested_types(
        &self,
        file: &Arc<FileEntry>,
        facts: &FileFacts,
        reference: &Reference,
    ) -> Vec<Definition> {
        self.in_enclosing_types(file, facts, reference, |ty| {
            self.nested_types_of(ty, &reference.name)
        })
    }

    /// What `find` gives for the first of the types around `reference`,
    /// innermost first, that gives anything.
    fn in_enclosing_types(
        &self,
        file: &Arc<FileEntry>,
        facts: &FileFacts,
        reference: &Reference,
        find: impl Fn(SymbolRef) -> Vec<Definition>,
    ) -> Vec<Definition> {
        let Some(number) = self.table.file_number(&file.path) else {
            return Vec::new();
        };
        enclosing_types(facts, reference)
            .into_iter()
            .map(|owner| {
                find(SymbolRef {
                    file: number,
                    symbol: owner as u32,
                })
            })
            .find(|found| !found.is_empty())
            .unwrap_or_default()
    }

    /// What a bare name means among the declarations of the file, its
    /// module and its imports (not the enclosing types' members).
    fn bare_scope(
        &self,
        file: &Arc<FileEntry>,
        facts: &FileFacts,
        reference: &Reference,
    ) -> Vec<Definition> {
        let name = reference.name.as_str();
        let at = |index: usize| Target::Symbol {
            file: file.clone(),
            index,
        };
        // An item declared in a body (a Rust `fn` or `const` inside a
        // function, a local function of TypeScript, Python or C#) is in
        // scope in the body that declares it, before anything of the file.
        let in_body = items_in_enclosing_body(facts, name, reference);
        if !in_body.is_empty() {
            return in_body
                .into_iter()
                .map(|index| Definition::certain(at(index), Resolution::Scope))
                .collect();
        }
        // A member of a type is not in scope by its bare name: only
        // declarations at the top of the file or directly in a namespace.
        let own: Vec<Definition> = facts
            .symbols
            .iter()
            .enumerate()
            .filter(|(_, s)| s.name == name && is_item(s) && at_top(facts, s))
            .map(|(index, _)| Definition::certain(at(index), Resolution::Scope))
            .collect();
        if !own.is_empty() {
            return own;
        }
        // Other files of the same module (a Go package, a C# namespace)
        // see each other's top-level declarations.
        let mates = self.module_mates(file, facts, name);
        if !mates.is_empty() {
            return mates;
        }
        // Where the language says so, what the modules around the file's
        // own declare (C#'s `namespace A.B` sees namespace `A`), before its
        // imports.
        if file.plugin.info().policy.enclosing_modules_visible {
            let enclosing = self.in_enclosing_modules(file, facts, name);
            if !enclosing.is_empty() {
                return enclosing;
            }
        }
        for import in &facts.imports {
            if let Some(imported) = import.names.iter().find(|n| n.local_name() == name)
                && import_reaches(facts, import, reference)
            {
                let found =
                    self.imported(file, facts, &import.module_path, &imported.name, reference);
                if !found.is_empty() {
                    return found;
                }
                // The import may name a module, or a type whose members follow.
                continue;
            }
        }
        let globbed: Vec<Definition> = facts
            .imports
            .iter()
            .filter(|i| i.kind == ImportKind::Glob)
            .flat_map(|i| self.imported(file, facts, &i.module_path, name, reference))
            .collect();
        globbed
    }

    /// `name` as an import from `module_path` brings it in, for
    /// `reference`: declared in the modules that path names, else (a path
    /// whose last segment is a type: Java's `import static a.B.m;` and
    /// `import a.Outer.Inner;`, C#'s `using static A.B;`, Rust's `use
    /// a::Enum::Variant;`) a member or nested type of that type, itself
    /// found the same way (each step one segment shorter).
    fn imported(
        &self,
        file: &Arc<FileEntry>,
        facts: &FileFacts,
        module_path: &str,
        name: &str,
        reference: &Reference,
    ) -> Vec<Definition> {
        let calls = reference.kind == ReferenceKind::Call;
        let found = self.in_modules(file, facts, module_path, name, Resolution::Import, calls);
        if !found.is_empty() {
            return found;
        }
        let separator = file.plugin.info().path_separator.as_str();
        let split = (!separator.is_empty())
            .then(|| module_path.rsplit_once(separator))
            .flatten()
            .filter(|(parent, type_name)| !parent.is_empty() && !type_name.is_empty());
        let member = Reference {
            name: lingo_model::Name::new(name),
            qualifier: thin_vec::ThinVec::new(),
            is_member: false,
            receiver: None,
            local: OptU32::NONE,
            ..reference.clone()
        };
        let types: Vec<SymbolRef> = match split {
            Some((parent, type_name)) => {
                let owner = Reference::type_use(
                    lingo_model::Name::new(type_name),
                    thin_vec::ThinVec::new(),
                    reference.span,
                );
                self.imported(file, facts, parent, type_name, &owner)
                    .iter()
                    .filter(|d| target_symbol(d).is_some_and(|s| is_type_kind(s.kind)))
                    .filter_map(|d| self.symbol_ref(d))
                    .collect()
            }
            // A path of one segment that names no module: a type declared
            // at the top of the importing file (Rust's `use Seq::*;` beside
            // `enum Seq`), when there is exactly one of that name.
            None if !module_path.is_empty() => {
                let Some(number) = self.table.file_number(&file.path) else {
                    return found;
                };
                let top_level: Vec<SymbolRef> = facts
                    .symbols
                    .iter()
                    .enumerate()
                    .filter(|(_, s)| {
                        s.container.is_none() && is_type_kind(s.kind) && s.name == module_path
                    })
                    .map(|(index, _)| SymbolRef {
                        file: number,
                        symbol: index as u32,
                    })
                    .take(2)
                    .collect();
                if top_level.len() != 1 {
                    return found;
                }
                top_level
            }
            None => return found,
        };
        types
            .into_iter()
            .flat_map(|ty| {
                let members = self.members_of_type(ty, &member);
                if members.is_empty() {
                    self.nested_types_of(ty, name)
                } else {
                    members
                }
            })
            .map(|d| Definition {
                resolution: Resolution::Import,
                ..d
            })
            .collect()
    }

    /// `a::b::name` or `Type::name`.
    fn qualified(
        &self,
        file: &Arc<FileEntry>,
        facts: &FileFacts,
        reference: &Reference,
    ) -> Vec<Definition> {
        let separator = &file.plugin.info().path_separator;
        let qualifier = &reference.qualifier;
        let name = &reference.name;
        // The first segment may be an imported name: substitute its path.
        // A member access (`self.x` qualified by the enclosing type) names
        // a member of that type, never what a module of that name declares.
        let first = &qualifier[0];
        let mut paths = if reference.is_member {
            Vec::new()
        } else {
            vec![qualifier.join(separator)]
        };
        for import in facts.imports.iter().filter(|_| !reference.is_member) {
            for imported in import.names.iter().filter(|n| n.local_name() == first) {
                // A namespace import (`import * as ns`, Go's `import "a/pkg"`)
                // binds the module itself; a named one binds a member of it.
                let mut full = vec![import.module_path.clone()];
                if import.kind != ImportKind::Namespace {
                    full.push(imported.name.clone());
                }
                full.extend(qualifier[1..].iter().map(lingo_model::Name::to_string));
                paths.insert(0, full.join(separator));
            }
        }
        for path in &paths {
            let calls = reference.kind == ReferenceKind::Call;
            let found = self.in_modules(file, facts, path, name, Resolution::Qualified, calls);
            if !found.is_empty() {
                return found;
            }
        }
        let found = self.through_namespace_reexports(file, facts, reference);
        if !found.is_empty() {
            return found;
        }
        // `Type::member`: members of the type the qualifier resolves to (in
        // the type's file), then of a type with that name in this file.
        // Another type of the same name elsewhere could be meant.
        let owner = qualifier.last().expect("qualifier is not empty");
        let owners = self.owner_types(file, facts, reference);
        // `Program.Pool.Find()`: a qualifier ending in a value (a static
        // field or property, a module's variable) stands for the members
        // of the type the source states for it.
        let value_types = self.types_of_values(&owners);
        if !value_types.is_empty() {
            let found: Vec<Definition> = value_types
                .iter()
                .flat_map(|ty| self.members_of_type(*ty, reference))
                .collect();
            if !found.is_empty() {
                return found;
            }
        }
        let owner_files: Vec<Arc<FileEntry>> = owners
            .iter()
            .map(|o| self.table.file(*o).clone())
            .fold(Vec::new(), |mut files, f| {
                if !files.iter().any(|x: &Arc<FileEntry>| x.path == f.path) {
                    files.push(f);
                }
                files
            });
        for owner_file in &owner_files {
            let members = self.members_of(owner, reference, Some(owner_file));
            if !members.is_empty() {
                return members;
            }
        }
        // Blocks for the type declared in other files (`impl Handle` beside
        // `use crate::runtime::Handle;`).
        for ty in &owners {
            let blocks = self.blocks_apart(*ty);
            if blocks.is_empty() {
                continue;
            }
            let found = self.where_named(&reference.name, Resolution::Qualified, |r, s| {
                s.container_name.as_deref() == Some(owner.as_str())
                    && s.container.is_some_and(|c| {
                        blocks.contains(&SymbolRef {
                            file: r.file,
                            symbol: c,
                        })
                    })
                    && (!reference.is_member || self.is_member_at(r, s))
            });
            let found = self.by_access(found, reference);
            if !found.is_empty() {
                return found;
            }
        }
        // This file's type of that name, unless the qualifier resolved to
        // another file's: then a same-named type here is not meant.
        if owner_files.is_empty() || owner_files.iter().any(|f| f.path == file.path) {
            let local = self.members_of(owner, reference, Some(file));
            if !local.is_empty() {
                return local;
            }
        }
        if reference.is_member {
            let inherited = self.inherited_members(file, reference);
            if !inherited.is_empty() {
                return inherited;
            }
        }
        share(self.members_of(owner, reference, None), 0.9)
    }

    /// `ns.inner.name` where a qualifier segment is a module re-exported
    /// under a name (`export * as inner from "./inner"`, or `import * as
    /// z from "./all"; export { z }` then `import { z } from "lib"`): each
    /// segment after the imported one followed through the re-export, from
    /// the file that writes it, then `name` in the module reached.
    fn through_namespace_reexports(
        &self,
        file: &Arc<FileEntry>,
        facts: &FileFacts,
        reference: &Reference,
    ) -> Vec<Definition> {
        if reference.is_member {
            return Vec::new();
        }
        let Some((first, rest)) = reference.qualifier.split_first() else {
            return Vec::new();
        };
        let calls = reference.kind == ReferenceKind::Call;
        for import in &facts.imports {
            for imported in import.names.iter().filter(|n| n.local_name() == first) {
                // A namespace import binds the module itself; a named one
                // binds a name the module exports, itself to follow.
                let named =
                    (import.kind != ImportKind::Namespace).then_some(imported.name.as_str());
                let segments: Vec<&str> = named
                    .into_iter()
                    .chain(rest.iter().map(lingo_model::Name::as_str))
                    .collect();
                if segments.is_empty() {
                    continue;
                }
                let mut at = (file.clone(), import.module_path.clone());
                let reached = segments.iter().all(|segment| {
                    let next = at.0.facts.as_ref().ok().and_then(|their| {
                        self.namespace_reexport(&at.0, their, &at.1, segment, &mut Vec::new(), 0)
                    });
                    next.map(|next| at = next).is_some()
                });
                let Some(their) = at.0.facts.as_ref().ok().filter(|_| reached) else {
                    continue;
                };
                let found = self.in_modules(
                    &at.0,
                    their,
                    &at.1,
                    &reference.name,
                    Resolution::Qualified,
                    calls,
                );
                if !found.is_empty() {
                    return found;
                }
            }
        }
        Vec::new()
    }

    /// The module re-exported as `name` by the modules `import_path` names
    /// from `file` (directly, or through their glob and named re-exports,
    /// at most [`MAX_REEXPORT_DEPTH`] deep, each module of `seen` looked in
    /// once): the file that writes that re-export and the path it writes.
    fn namespace_reexport(
        &self,
        file: &Arc<FileEntry>,
        facts: &FileFacts,
        import_path: &str,
        name: &str,
        seen: &mut Vec<(String, String)>,
        depth: usize,
    ) -> Option<(Arc<FileEntry>, String)> {
        if depth > MAX_REEXPORT_DEPTH {
            return None;
        }
        for importer in &facts.modules {
            let candidates = self
                .table
                .resolve_import(file, importer, import_path, self.snapshot);
            for module in candidates.iter() {
                let Some(paths) = self.snapshot.modules.get(module) else {
                    continue;
                };
                let visit = (module.to_string(), name.to_string());
                if seen.contains(&visit) {
                    continue;
                }
                seen.push(visit);
                for number in paths.iter().filter_map(|p| self.table.file_number(p)) {
                    let entry = &self.table.files()[number as usize];
                    let Ok(theirs) = &entry.facts else {
                        continue;
                    };
                    for import in theirs.imports.iter().filter(|i| i.reexport) {
                        let named = import.names.iter().find(|n| n.local_name() == name);
                        let found = match (import.kind, named) {
                            (ImportKind::Namespace, Some(_)) => {
                                Some((entry.clone(), import.module_path.clone()))
                            }
                            (_, Some(named)) if named.name != "*" => self.namespace_reexport(
                                entry,
                                theirs,
                                &import.module_path,
                                &named.name,
                                seen,
                                depth + 1,
                            ),
                            (ImportKind::Glob, None) => self.namespace_reexport(
                                entry,
                                theirs,
                                &import.module_path,
                                name,
                                seen,
                                depth + 1,
                            ),
                            _ => None,
                        };
                        if found.is_some() {
                            return found;
                        }
                    }
                }
            }
        }
        None
    }

    /// The declarations of the type (or module) a reference's qualifier
    /// names, when the qualifier resolves by the language's rules.
    fn owner_types(
        &self,
        file: &Arc<FileEntry>,
        facts: &FileFacts,
        reference: &Reference,
    ) -> Vec<SymbolRef> {
        // The qualifier names a type or module: looked up as a type's name
        // (not as a member of the enclosing type named like a type).
        let Some(owner_reference) = reference.qualifier_owner() else {
            return Vec::new();
        };
        let found = if owner_reference.qualifier.is_empty() {
            self.bare(file, facts, &owner_reference)
        } else {
            self.qualified(file, facts, &owner_reference)
        };
        found
            .iter()
            .filter(|d| d.confidence >= 1.0)
            .filter_map(|d| self.symbol_ref(d))
            .collect()
    }

    /// The stated types of `owners` when every one of them is a value (a
    /// field, property, variable or constant) whose type is one workspace
    /// type; empty otherwise.
    fn types_of_values(&self, owners: &[SymbolRef]) -> Vec<SymbolRef> {
        let mut types = Vec::new();
        for &owner in owners {
            let symbol = self.table.symbol(owner);
            if !matches!(
                symbol.kind,
                SymbolKind::Field
                    | SymbolKind::Property
                    | SymbolKind::Variable
                    | SymbolKind::Constant
            ) {
                return Vec::new();
            }
            let file = self.table.file(owner);
            let Some(ty) = self.type_of_declaration(file, DeclaredTarget::Symbol(owner.symbol))
            else {
                return Vec::new();
            };
            if !types.contains(&ty) {
                types.push(ty);
            }
        }
        types
    }

    /// Symbols named as `reference` declared by a container named `owner`;
    /// with `only_in`, restricted to that file. For a member access, only
    /// members, the kind the access asks for first (see [`Self::by_access`]).
    fn members_of(
        &self,
        owner: &str,
        reference: &Reference,
        only_in: Option<&Arc<FileEntry>>,
    ) -> Vec<Definition> {
        let only_in = only_in.and_then(|f| self.table.file_number(&f.path));
        let found = self.where_named(&reference.name, Resolution::Qualified, |r, s| {
            s.container_name.as_deref() == Some(owner)
                && only_in.is_none_or(|f| f == r.file)
                && (!reference.is_member || self.is_member_at(r, s))
        });
        self.by_access(found, reference)
    }

    /// Whether the declaration `r` is a member: a method, field, property,
    /// enum member, constant or function declared inside a type, an
    /// `impl`/extension block or another non-module container, or declared
    /// apart from its type with the type's name (a Go method). Modules,
    /// namespaces, packages, types, and functions declared at the top of a
    /// file, in a namespace or module, or inside a function are not.
    fn is_member_at(&self, r: SymbolRef, symbol: &Symbol) -> bool {
        if !is_member_kind(symbol.kind) {
            return false;
        }
        let Some(container) = symbol.container else {
            return symbol.container_name.is_some();
        };
        let parent = self.table.symbol(SymbolRef {
            file: r.file,
            symbol: container,
        });
        !matches!(
            parent.kind,
            SymbolKind::File | SymbolKind::Module | SymbolKind::Namespace | SymbolKind::Package
        ) && !parent.kind.is_callable()
    }

    /// A member access that is a call means a method or function; a read or
    /// write means a field, property, constant or enum member. Among the
    /// members of one type (by container name), those of the kind the
    /// access asks for are kept and the others dropped; a type with only
    /// the other kind keeps it (a method read as a value, a field holding a
    /// function called): as found where the language gives a type's fields
    /// and methods one namespace (its plugin's policy, ABI 0.7.0), so no
    /// member of the asked kind can hide behind it; less certain where a
    /// field and a method may share a name (Rust). Other references are
    /// left as found.
    fn by_access(&self, found: Vec<Definition>, reference: &Reference) -> Vec<Definition> {
        let wants_callable = match reference.kind {
            // A path naming a member (`Type::name`) where the type has a
            // field and a method of that name: the path does not say which
            // (a field is never a path's target in some languages, the only
            // one in others), so neither is certain. A bare name does say
            // (Java's `keySet` read beside a method `keySet()`): it is
            // judged by its access as a member access is.
            _ if !reference.is_member && !reference.qualifier.is_empty() => {
                let symbol = target_symbol;
                let callable = found
                    .iter()
                    .filter(|d| symbol(d).is_some_and(|s| is_member_kind(s.kind)))
                    .map(|d| symbol(d).is_some_and(|s| s.kind.is_callable()));
                let (mut calls, mut values) = (false, false);
                for c in callable {
                    calls |= c;
                    values |= !c;
                }
                if !(calls && values) {
                    return found;
                }
                return found
                    .into_iter()
                    .map(|mut d| {
                        d.confidence =
                            (d.confidence * OTHER_KIND_CONFIDENCE * 100.0).round() / 100.0;
                        d
                    })
                    .collect();
            }
            ReferenceKind::Call => true,
            ReferenceKind::Reference | ReferenceKind::Write => false,
            _ => return found,
        };
        let symbol = target_symbol;
        // An enum member fits either access: a tuple variant is called
        // (`Two(1, 2)`), a unit one read.
        let fits = |d: &Definition| {
            symbol(d).is_some_and(|s| {
                s.kind == SymbolKind::EnumMember || s.kind.is_callable() == wants_callable
            })
        };
        let owner = |d: &Definition| symbol(d).and_then(|s| s.container_name.clone());
        let owners_fitting: Vec<Option<lingo_model::Name>> =
            found.iter().filter(|d| fits(d)).map(owner).collect();
        found
            .into_iter()
            .filter_map(|mut d| {
                if fits(&d) {
                    return Some(d);
                }
                if owners_fitting.contains(&owner(&d)) {
                    return None;
                }
                let Target::Symbol { file, .. } = &d.target else {
                    return Some(d);
                };
                if file.plugin.info().policy.members_share_one_namespace {
                    return Some(d);
                }
                d.confidence = (d.confidence * OTHER_KIND_CONFIDENCE * 100.0).round() / 100.0;
                Some(d)
            })
            .collect()
    }

    /// A name heading a member access (`Signature.Empty`) that is both a
    /// member of the enclosing type (`members`) and a type in scope
    /// (`types`), as the language's policy says it reads: the member
    /// (`value`), the one the accessed member belongs to (`by-member`: the
    /// type for a static member, the value for an instance one, where the
    /// value's stated type is that type), else both, neither certain.
    fn value_or_type(
        &self,
        file: &Arc<FileEntry>,
        facts: &FileFacts,
        head: &Reference,
        members: Vec<Definition>,
        types: Vec<Definition>,
    ) -> Vec<Definition> {
        let policy = &file.plugin.info().policy;
        match policy.value_or_type {
            lingo_model::ValueOrType::Value => return members,
            lingo_model::ValueOrType::ByMember => {
                if let Some(type_is_meant) =
                    self.accessed_member_is_static(file, facts, head, &members, &types)
                {
                    return if type_is_meant { types } else { members };
                }
            }
            lingo_model::ValueOrType::Unstated => {}
        }
        share(members.into_iter().chain(types).collect(), 1.0)
    }

    /// For `head.name` where `head` is both the one value `members` names
    /// and the one type `types` names, and the value's stated type is that
    /// type: whether every member `name` of the type is the type's own
    /// (static, an enum member, a nested type). None when that is not
    /// known: the value's type is another or unknown, the access is not
    /// found, its members are not found or are of both sorts.
    fn accessed_member_is_static(
        &self,
        file: &FileEntry,
        facts: &FileFacts,
        head: &Reference,
        members: &[Definition],
        types: &[Definition],
    ) -> Option<bool> {
        let value = self.one_declaration(members)?;
        let ty = self.symbol_ref(self.one_declaration(types)?)?;
        let Target::Symbol {
            file: value_file,
            index,
        } = &value.target
        else {
            return None;
        };
        let value_type = self.type_of_declaration(
            value_file,
            lingo_model::DeclaredTarget::Symbol(*index as u32),
        )?;
        if value_type != ty {
            return None;
        }
        let separator = file.plugin.info().path_separator.as_str();
        let access = member_access_on(facts, head, separator)?;
        let found = self.members_of_type(ty, access);
        let mut sorts = found.iter().map(|d| {
            let symbol = target_symbol(d)?;
            let Target::Symbol { file: owner, .. } = &d.target else {
                return None;
            };
            let statics = &owner.plugin.info().policy.static_modifiers;
            Some(
                is_type_kind(symbol.kind)
                    || symbol.kind == SymbolKind::EnumMember
                    || symbol.modifiers.iter().any(|m| statics.contains(m)),
            )
        });
        let first = sorts.next()??;
        sorts.all(|sort| sort == Some(first)).then_some(first)
    }

    /// Top-level `name` in the files of the modules `import_path` may name,
    /// following re-exports (`pub use`, `export ... from`) of those files.
    fn in_modules(
        &self,
        file: &Arc<FileEntry>,
        facts: &FileFacts,
        import_path: &str,
        name: &str,
        resolution: Resolution,
        calls: bool,
    ) -> Vec<Definition> {
        let lookup = (
            file.plugin.info().name.clone(),
            facts
                .modules
                .iter()
                .map(|m| m.path.as_str())
                .collect::<Vec<_>>()
                .join("\n"),
            import_path.to_string(),
            // What a call names is never a module: looked up apart.
            if calls {
                format!("{name}()")
            } else {
                name.to_string()
            },
        );
        let found = self.table.lookup(lookup, || {
            self.in_modules_via(file, facts, import_path, name, resolution, calls, 0)
                .iter()
                .filter_map(|d| self.symbol_ref(d))
                .collect()
        });
        found
            .iter()
            .map(|r| self.certain_at(*r, resolution))
            .collect()
    }

    /// The declaration `r` as a certain definition found by `resolution`.
    fn certain_at(&self, r: SymbolRef, resolution: Resolution) -> Definition {
        Definition::certain(
            Target::Symbol {
                file: self.table.file(r).clone(),
                index: r.symbol as usize,
            },
            resolution,
        )
    }

    /// `name` in the modules `import_path` names from `file`, else
    /// re-exported by them; with `calls`, no module, namespace or package
    /// (what a call names is a value).
    #[allow(clippy::too_many_arguments)]
    fn in_modules_via(
        &self,
        file: &Arc<FileEntry>,
        facts: &FileFacts,
        import_path: &str,
        name: &str,
        resolution: Resolution,
        calls: bool,
        depth: usize,
    ) -> Vec<Definition> {
        let mut out = Vec::new();
        let own_package = facts.modules.first().map(|m| &m.crate_or_package);
        // A private declaration of another package is not visible from
        // here (tokio's private `mod read` beside `pub use self::read::read`,
        // imported by a test as `tokio::fs::read`): what is visible, or
        // re-exported, is meant first.
        let visible = |r: SymbolRef, s: &Symbol| {
            s.visibility != lingo_model::Visibility::Private
                || own_package.is_none_or(|own| {
                    let theirs = self
                        .table
                        .file(r)
                        .facts
                        .as_ref()
                        .ok()
                        .and_then(|f| f.modules.first());
                    own.is_none() || theirs.is_none_or(|m| &m.crate_or_package == own)
                })
        };
        for importer in &facts.modules {
            let candidates = self
                .table
                .resolve_import(file, importer, import_path, self.snapshot);
            for module in candidates.iter() {
                let Some(paths) = self.snapshot.modules.get(module) else {
                    continue;
                };
                let in_module: Vec<u32> = paths
                    .iter()
                    .filter_map(|p| self.table.file_number(p))
                    .collect();
                let declared = self.where_named(name, resolution, |r, s| {
                    in_module.contains(&r.file)
                        && self.at_module_level(r, s, module)
                        && !(calls
                            && matches!(
                                s.kind,
                                SymbolKind::Module | SymbolKind::Namespace | SymbolKind::Package
                            ))
                });
                let (seen, hidden): (Vec<Definition>, Vec<Definition>) =
                    declared.into_iter().partition(|d| {
                        self.symbol_ref(d)
                            .is_none_or(|r| visible(r, self.table.symbol(r)))
                    });
                out.extend(seen);
                if out.is_empty() && depth < MAX_REEXPORT_DEPTH {
                    for number in &in_module {
                        out.extend(self.reexported(*number, name, resolution, calls, depth + 1));
                    }
                }
                // Where nothing visible is found, what is private is still
                // what the import names (where privacy is a convention only).
                if out.is_empty() {
                    out = hidden;
                }
                if !out.is_empty() {
                    return out;
                }
            }
        }
        out
    }

    /// Whether a declaration sits directly in module `module`: at the top of
    /// its file, or directly inside a namespace declaration of that name
    /// (`namespace A.B { class C {} }` declares `C` in module `A.B`).
    fn at_module_level(&self, r: SymbolRef, symbol: &Symbol, module: &str) -> bool {
        let Some(container) = symbol.container else {
            // A member declared apart from its type (a Go method) is not.
            return symbol.container_name.is_none();
        };
        let parent = self.table.symbol(SymbolRef {
            file: r.file,
            symbol: container,
        });
        matches!(
            parent.kind,
            SymbolKind::Namespace | SymbolKind::Package | SymbolKind::Module
        ) && symbol.container_name.as_deref() == Some(module)
    }

    /// `name` as re-exported by the file numbered `file`: through a named
    /// re-export of it (possibly renamed) or a glob re-export.
    fn reexported(
        &self,
        file: u32,
        name: &str,
        resolution: Resolution,
        calls: bool,
        depth: usize,
    ) -> Vec<Definition> {
        let entry = &self.table.files()[file as usize];
        let Ok(facts) = &entry.facts else {
            return Vec::new();
        };
        let Some(_walk) = ReexportWalk::enter(file, name) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for import in facts.imports.iter().filter(|i| i.reexport) {
            if let Some(imported) = import.names.iter().find(|n| n.local_name() == name) {
                out.extend(self.in_modules_via(
                    entry,
                    facts,
                    &import.module_path,
                    &imported.name,
                    resolution,
                    calls,
                    depth,
                ));
            } else if import.kind == ImportKind::Glob {
                out.extend(self.in_modules_via(
                    entry,
                    facts,
                    &import.module_path,
                    name,
                    resolution,
                    calls,
                    depth,
                ));
            }
            if !out.is_empty() {
                break;
            }
        }
        out
    }

    /// Top-level `name` declared by other files of `file`'s modules.
    fn module_mates(
        &self,
        file: &Arc<FileEntry>,
        facts: &FileFacts,
        name: &str,
    ) -> Vec<Definition> {
        let mut out = Vec::new();
        for module in &facts.modules {
            let Some(paths) = self.snapshot.modules.get(&module.path) else {
                continue;
            };
            let mates: Vec<u32> = paths
                .iter()
                .filter(|p| **p != file.path)
                .filter_map(|p| self.table.file_number(p))
                .collect();
            if mates.is_empty() {
                continue;
            }
            out.extend(self.where_named(name, Resolution::Scope, |r, s| {
                mates.contains(&r.file) && self.at_module_level(r, s, &module.path)
            }));
        }
        out
    }

    /// Declarations named `name` directly in a module enclosing one of the
    /// file's own (`A` around `A.B`, by the language's path separator), the
    /// nearest that has any. Each module's enclosing chain is as long as
    /// its path, so the walk is bounded by the module names' length.
    fn in_enclosing_modules(
        &self,
        file: &Arc<FileEntry>,
        facts: &FileFacts,
        name: &str,
    ) -> Vec<Definition> {
        let separator = file.plugin.info().path_separator.as_str();
        if separator.is_empty() {
            return Vec::new();
        }
        let mut out = Vec::new();
        for module in &facts.modules {
            let mut path = module.path.as_str();
            while let Some((outer, _)) = path.rsplit_once(separator) {
                path = outer;
                let Some(paths) = self.snapshot.modules.get(outer) else {
                    continue;
                };
                let files: Vec<u32> = paths
                    .iter()
                    .filter_map(|p| self.table.file_number(p))
                    .collect();
                let found = self.where_named(name, Resolution::Scope, |r, s| {
                    files.contains(&r.file) && self.at_module_level(r, s, outer)
                });
                if !found.is_empty() {
                    out.extend(found);
                    break;
                }
            }
        }
        out
    }

    /// Every declaration named `name` of the `wanted` sort, for a reference
    /// nothing else resolved; none when there are too many to be a useful
    /// guess.
    fn name_only(&self, name: &str, wanted: Wanted, reference: &Reference) -> Vec<Definition> {
        let found = self.where_named(name, Resolution::NameOnly, |r, s| match wanted {
            Wanted::Any => true,
            Wanted::Members => self.is_member_at(r, s),
            Wanted::NonMembers => !self.is_member_at(r, s),
        });
        if found.len() > MAX_NAME_ONLY_CANDIDATES {
            return Vec::new();
        }
        // A name match is a guess: at best even odds, split among candidates.
        by_arity(share(self.by_access(found, reference), 0.5), reference)
    }

    /// How many declarations a name-only lookup of `name` would consider.
    pub fn name_only_candidates(&self, name: &str, members_only: bool) -> usize {
        self.table
            .named(name)
            .iter()
            .filter(|r| {
                let s = self.table.symbol(**r);
                is_item(s) && (!members_only || self.is_member_at(**r, s))
            })
            .count()
    }

    /// Declarations matching a name, optionally qualified by its container
    /// (`Type::method`, `Type.method`).
    pub fn by_name(&self, query: &str, separators: &[String]) -> Vec<Definition> {
        let (owner, name) = split_qualified(query, separators);
        let found = self.where_named(name, Resolution::NameOnly, |_, s| {
            owner.is_none_or(|o| owner_fits(s.container_name.as_deref(), o, separators))
        });
        // Looking a name up is exact about the name, not about which one is meant.
        share(found, 1.0)
    }

    /// Items named `name` that `keep` accepts, as definitions found by `resolution`.
    fn where_named(
        &self,
        name: &str,
        resolution: Resolution,
        keep: impl Fn(SymbolRef, &Symbol) -> bool,
    ) -> Vec<Definition> {
        self.table
            .named(name)
            .iter()
            .filter(|r| {
                let symbol = self.table.symbol(**r);
                is_item(symbol) && keep(**r, symbol)
            })
            .map(|r| {
                let target = Target::Symbol {
                    file: self.table.file(*r).clone(),
                    index: r.symbol as usize,
                };
                Definition::certain(target, resolution)
            })
            .collect()
    }
}

/// Whether a declaration may be a member of a type: of a member's kind
/// and inside a container (nested in it, or declared apart as Go methods
/// are, with the owner's name). Without the container's kind this cannot
/// tell a type's member from a function in a namespace; the resolver's own
/// test does.
pub fn is_member_declaration(symbol: &Symbol) -> bool {
    is_member_kind(symbol.kind) && (symbol.container.is_some() || symbol.container_name.is_some())
}

/// Kinds a member access can reach: not modules, namespaces, packages or
/// types.
fn is_member_kind(kind: SymbolKind) -> bool {
    !matches!(
        kind,
        SymbolKind::File
            | SymbolKind::Module
            | SymbolKind::Namespace
            | SymbolKind::Package
            | SymbolKind::Class
            | SymbolKind::Struct
            | SymbolKind::Interface
            | SymbolKind::Enum
            | SymbolKind::Object
            | SymbolKind::TypeParameter
    )
}

/// Kinds that declare a type whose members a value of it has.
pub fn is_type_kind(kind: SymbolKind) -> bool {
    matches!(
        kind,
        SymbolKind::Class | SymbolKind::Struct | SymbolKind::Interface | SymbolKind::Enum
    )
}

/// Which declarations a name-only guess may pick.
#[derive(Clone, Copy)]
enum Wanted {
    Any,
    /// For a member access: members only.
    Members,
    /// For a bare name an import binds: no type's member.
    NonMembers,
}

/// Whether a declaration sits at the top of its file or directly in a
/// namespace, module or package declaration.
fn at_top(facts: &FileFacts, symbol: &Symbol) -> bool {
    let Some(container) = symbol.container else {
        // A member declared apart from its type (a Go method) is not.
        return symbol.container_name.is_none();
    };
    matches!(
        facts.symbols[container as usize].kind,
        SymbolKind::Namespace | SymbolKind::Package | SymbolKind::Module
    )
}

/// The items named `name` declared directly in the innermost function or
/// method body around `reference` that declares one (several when `#[cfg]`
/// variants or overloads share the name).
fn items_in_enclosing_body(facts: &FileFacts, name: &str, reference: &Reference) -> Vec<usize> {
    let offset = reference.span.start.offset;
    let declared: Vec<(u32, usize)> = facts
        .symbols
        .iter()
        .enumerate()
        .filter(|(_, s)| s.name == name && is_item(s))
        .filter_map(|(index, s)| {
            let body = facts.symbols.get(s.container? as usize)?;
            (body.kind.is_callable() && body.span.contains_offset(offset)).then(|| {
                (
                    body.span.end.offset.saturating_sub(body.span.start.offset),
                    index,
                )
            })
        })
        .collect();
    let Some(innermost) = declared.iter().map(|(size, _)| *size).min() else {
        return Vec::new();
    };
    declared
        .into_iter()
        .filter(|(size, _)| *size == innermost)
        .map(|(_, index)| index)
        .collect()
}

/// The type-like declarations around a reference, innermost first.
/// The innermost declaration of `facts` whose span holds `offset`: from
/// the last one starting at or before it, up its containers (declarations
/// are in source order and nest by container).
fn enclosing_symbol_at(facts: &FileFacts, offset: u32) -> OptU32 {
    let after = facts
        .symbols
        .partition_point(|s| s.span.start.offset <= offset);
    let mut current = after.checked_sub(1);
    let mut steps = 0;
    while let Some(index) = current {
        let Some(symbol) = facts.symbols.get(index) else {
            break;
        };
        if symbol.span.start.offset <= offset && offset < symbol.span.end.offset {
            return OptU32::new(Some(index as u32));
        }
        steps += 1;
        if steps > facts.symbols.len() {
            break;
        }
        current = symbol.container.map(|c| c as usize);
    }
    OptU32::NONE
}

/// Whether the bare `reference` (a value, a call or a write) may mean a
/// member of a type around it: where its plugin states types and says
/// bare names reach members (an implicit `this`).
fn may_mean_a_member(file: &FileEntry, reference: &Reference) -> bool {
    let info = file.plugin.info();
    info.reports_declared_types()
        && info.policy.bare_names_reach_members
        && matches!(
            reference.kind,
            ReferenceKind::Call | ReferenceKind::Reference | ReferenceKind::Write
        )
}

fn enclosing_types(facts: &FileFacts, reference: &Reference) -> Vec<usize> {
    let mut out = Vec::new();
    let mut current = reference.enclosing.get();
    let mut steps = 0;
    while let Some(index) = current {
        let Some(symbol) = facts.symbols.get(index as usize) else {
            break;
        };
        steps += 1;
        if steps > facts.symbols.len() {
            break;
        }
        if matches!(
            symbol.kind,
            SymbolKind::Class
                | SymbolKind::Struct
                | SymbolKind::Interface
                | SymbolKind::Enum
                | SymbolKind::Object
        ) {
            out.push(index as usize);
        }
        current = symbol.container;
    }
    out
}

/// Among the candidates of a call that passes a known number of
/// arguments, the overloads whose arity fits it (all of them when none
/// fits: the count may be off, a default or `params` the plugin could not
/// read). Where several candidates remain that all state an arity, they are
/// overloads the argument types choose among, which resolution does not
/// see: each is then less than certain.
fn by_arity(found: Vec<Definition>, reference: &Reference) -> Vec<Definition> {
    let Some(arguments) = reference.arguments.get() else {
        return found;
    };
    if found.len() < 2 {
        return found;
    }
    let arity = |d: &Definition| target_symbol(d).and_then(|s| s.arity);
    let kept = fitting_arity(found, arguments);
    if kept.len() > 1 && kept.iter().all(|d| arity(d).is_some()) {
        share(kept, 1.0)
    } else {
        kept
    }
}

impl Resolver<'_> {
    /// [`by_arity`], then among several overloads left, those the
    /// arguments' types leave (`overloads.rs`): one left keeps its
    /// certainty, several are each less than certain.
    fn by_arguments(
        &self,
        file: &Arc<FileEntry>,
        facts: &FileFacts,
        reference: &Reference,
        found: Vec<Definition>,
    ) -> Vec<Definition> {
        let Some(arguments) = reference.arguments.get() else {
            return found;
        };
        if found.len() < 2 {
            return found;
        }
        let kept = fitting_arity(found, arguments);
        if kept.len() > 1
            && kept
                .iter()
                .all(|d| target_symbol(d).and_then(|s| s.arity).is_some())
        {
            let chosen = self.by_argument_types(file, facts, reference, kept);
            if chosen.len() == 1 {
                chosen
            } else {
                share(chosen, 1.0)
            }
        } else {
            kept
        }
    }
}

/// The candidates whose arity fits a call of `arguments` arguments (all of
/// them when none fits).
fn fitting_arity(found: Vec<Definition>, arguments: u32) -> Vec<Definition> {
    let fits = |d: &Definition| {
        target_symbol(d)
            .and_then(|s| s.arity)
            .is_none_or(|a| a.fits(arguments))
    };
    if found.iter().any(fits) {
        found.into_iter().filter(fits).collect()
    } else {
        found
    }
}

/// Whether the bare `reference` is the first segment of a path
/// (`Name.member`): the plugin's path separator follows its name.
fn heads_a_path(file: &FileEntry, reference: &Reference) -> bool {
    let separator = &file.plugin.info().path_separator;
    !separator.is_empty()
        && file
            .source()
            .get(reference.span.end.offset as usize..)
            .is_some_and(|rest| rest.starts_with(separator.as_str()))
}

/// The member access `head` heads (`Empty` of `Signature.Empty`): a
/// reference near `head` in the references' order (which follows the nodes
/// the queries tagged, a member access starting where its receiver does)
/// whose receiver is `head`, or whose qualifier ends in `head`'s name
/// right after it.
fn member_access_on<'f>(
    facts: &'f FileFacts,
    head: &Reference,
    separator: &str,
) -> Option<&'f Reference> {
    /// References looked at on either side.
    const NEAR: usize = 8;
    let references = &facts.references;
    let start = head.span.start.offset;
    let from = references.partition_point(|r| r.span.start.offset < start);
    let window = |at: usize| at.saturating_sub(NEAR)..references.len().min(at + NEAR + 1);
    let index = window(from)
        .find(|&i| references[i].span == head.span && references[i].name == head.name)?;
    let after_head = head.span.end.offset as usize + separator.len();
    window(index).map(|i| &references[i]).find(|r| {
        r.receiver.is_some_and(|v| v.reference as usize == index)
            || (r.qualifier.last() == Some(&head.name)
                && r.span.start.offset as usize == after_head)
    })
}

/// The declaration a definition points at, when it is one.
fn target_symbol(definition: &Definition) -> Option<&Symbol> {
    match &definition.target {
        Target::Symbol { file, index } => file.facts.as_ref().ok()?.symbols.get(*index),
        Target::Local { .. } => None,
    }
}

/// Whether an import of the file binds `name`.
/// Whether `import` is in scope at `reference`: an import written inside
/// a function's body binds its names in that function only (Python's
/// imports in a function, Rust's `use` in a `fn`).
fn import_reaches(facts: &FileFacts, import: &lingo_model::Import, reference: &Reference) -> bool {
    let at = import.span.start.offset;
    let function = facts
        .symbols
        .iter()
        .filter(|s| s.kind.is_callable() && s.span.start.offset <= at && at < s.span.end.offset)
        .min_by_key(|s| s.span.end.offset - s.span.start.offset);
    function.is_none_or(|f| {
        f.span.start.offset <= reference.span.start.offset
            && reference.span.end.offset <= f.span.end.offset
    })
}

fn binds(facts: &FileFacts, name: &str) -> bool {
    facts
        .imports
        .iter()
        .any(|i| i.names.iter().any(|n| n.local_name() == name))
}

/// The import statement and imported name a reference of kind `import`
/// stands on.
fn import_at<'f>(
    facts: &'f FileFacts,
    reference: &Reference,
) -> Option<(&'f lingo_model::Import, &'f lingo_model::ImportedName)> {
    let at = reference.span.start.offset;
    facts.imports.iter().find_map(|import| {
        import
            .names
            .iter()
            .find(|n| n.span.start.offset <= at && at < n.span.end.offset)
            .map(|n| (import, n))
    })
}

/// `a::B::c` or `A.b` -> (Some("a::B"), "c"), with the path separators
/// the loaded plugins declare.
pub fn split_qualified<'q>(query: &'q str, separators: &[String]) -> (Option<&'q str>, &'q str) {
    for separator in separators.iter().filter(|s| !s.is_empty()) {
        if let Some((head, name)) = query.rsplit_once(separator.as_str()) {
            return (Some(head).filter(|h| !h.is_empty()), name);
        }
    }
    (None, query)
}

/// Whether a declaration's container name fits the path written before its
/// name: one ends with the other, segment by segment (a container
/// `Geometry.Shapes` fits a written `Geometry.Shapes` or `Shapes`; a
/// container `Cart` fits a written `crate::pricing::Cart`).
pub fn owner_fits(container: Option<&str>, written: &str, separators: &[String]) -> bool {
    let Some(container) = container else {
        return false;
    };
    let segments = |text: &str| -> Vec<String> {
        let mut parts = vec![text.to_string()];
        for separator in separators.iter().filter(|s| !s.is_empty()) {
            parts = parts
                .iter()
                .flat_map(|p| p.split(separator.as_str()).map(str::to_string))
                .filter(|p| !p.is_empty())
                .collect();
        }
        parts
    };
    let (have, want) = (segments(container), segments(written));
    have.ends_with(&want) || want.ends_with(&have)
}
