//! Member accesses made on a value whose type the source states: the
//! receiver's type from the plugins' `receiver` and declared-type facts,
//! then the member on that type, the blocks declared for it (Rust `impl`,
//! Go methods) and its supertypes.

use std::sync::Arc;

use super::generics::{Bindings, GenericGuard};
use super::{
    Definition, MAX_RECEIVER_DEPTH, Resolution, Resolver, SymbolRef, Target, is_type_kind,
    target_symbol,
};
use lingo_index::FileEntry;
use lingo_model::{
    ContextTarget, DeclaredTarget, DeclaredType, DeclaredTypeSource, FileFacts, ParameterContext,
    Reference, ReferenceKind, SymbolKind,
};

/// Types of one union followed at most (`type U = A | B | ...`); a larger
/// union is not followed at all (a part of it would be answered as if it
/// were all of it).
const MAX_UNION: usize = 256;

/// Parts of unions looked at for one union in all, those of the unions
/// nested in it included (`type U = V | W` with `V` and `W` unions): past
/// this, the outermost union is not followed.
const MAX_UNION_PARTS: usize = 1024;

/// Supertype levels searched for a member (`C : B`, `B : A`...); also ends
/// cycles of base lists.
const MAX_SUPERTYPE_DEPTH: usize = 8;

/// Supertypes looked at in all, whatever their depth.
const MAX_SUPERTYPES: usize = 64;

/// Same-named blocks looked at for one type's blocks declared apart.
const MAX_BLOCKS_APART: usize = 64;

/// Lookups of blocks declared apart nested in each other on this thread (a
/// block's name resolves through paths whose owners have blocks too): past
/// this, none are looked for.
const MAX_APART_NESTING: usize = 2;

thread_local! {
    static APART_NESTING: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    /// The union parts the outermost union being followed on this thread
    /// may still look at; `None` when no union is being followed.
    static UNION_PARTS_LEFT: std::cell::Cell<Option<usize>> = const { std::cell::Cell::new(None) };
    /// Whether that budget ran out.
    static UNION_PARTS_SPENT: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// The types whose supertypes this thread is looking up, outermost
    /// first: a base list written through the type's own scope
    /// (`class J implements T.S`, where `T` is looked up among `J`'s
    /// nested types, and so among its supertypes) comes back to them.
    static SUPERTYPES_IN_PROGRESS: std::cell::RefCell<Vec<SymbolRef>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// Lookups of supertypes nested in each other on this thread: past this,
/// a type has none that can be found.
const MAX_SUPERTYPES_NESTING: usize = 8;

/// One type's supertypes being looked up on this thread, until drop.
struct SupertypesGuard;

impl SupertypesGuard {
    /// `None` when `ty`'s supertypes are already being looked up on this
    /// thread (a cycle through its own scope) or too many lookups nest.
    fn enter(ty: SymbolRef) -> Option<SupertypesGuard> {
        SUPERTYPES_IN_PROGRESS.with(|in_progress| {
            let mut in_progress = in_progress.borrow_mut();
            (!in_progress.contains(&ty) && in_progress.len() < MAX_SUPERTYPES_NESTING).then(|| {
                in_progress.push(ty);
                SupertypesGuard
            })
        })
    }
}

impl Drop for SupertypesGuard {
    fn drop(&mut self) {
        SUPERTYPES_IN_PROGRESS.with(|in_progress| {
            in_progress.borrow_mut().pop();
        });
    }
}

/// A union being followed on this thread, with the parts it may look at
/// (its nested unions' among them); the outermost one's budget ends on
/// drop.
struct UnionGuard {
    outermost: bool,
}

impl UnionGuard {
    fn enter() -> UnionGuard {
        UNION_PARTS_LEFT.with(|left| {
            let outermost = left.get().is_none();
            if outermost {
                left.set(Some(MAX_UNION_PARTS));
            }
            UnionGuard { outermost }
        })
    }

    /// Take `parts` from the budget: false once it is spent (and from then
    /// on, for this outermost union).
    fn take(&self, parts: usize) -> bool {
        let left = UNION_PARTS_LEFT.with(|left| left.get()).unwrap_or(0);
        if self.spent() || left < parts {
            UNION_PARTS_SPENT.with(|spent| spent.set(true));
            return false;
        }
        UNION_PARTS_LEFT.with(|cell| cell.set(Some(left - parts)));
        true
    }

    /// Whether the budget ran out while this union was followed.
    fn spent(&self) -> bool {
        UNION_PARTS_SPENT.with(|spent| spent.get())
    }
}

impl Drop for UnionGuard {
    fn drop(&mut self) {
        if self.outermost {
            UNION_PARTS_LEFT.with(|left| left.set(None));
            UNION_PARTS_SPENT.with(|spent| spent.set(false));
        }
    }
}

/// One level of [`Resolver::blocks_apart`] on this thread, left on drop.
struct ApartGuard;

impl ApartGuard {
    fn enter() -> Option<ApartGuard> {
        APART_NESTING.with(|n| {
            (n.get() < MAX_APART_NESTING).then(|| {
                n.set(n.get() + 1);
                ApartGuard
            })
        })
    }
}

impl Drop for ApartGuard {
    fn drop(&mut self) {
        APART_NESTING.with(|n| n.set(n.get().saturating_sub(1)));
    }
}

impl Resolver<'_> {
    /// `x.name` where the value `x` has a type the source states, that is
    /// exactly one type declaration of the workspace: that type's members
    /// named `name`, else its supertypes' nearest ones. Nothing when the
    /// type is not known (the caller then guesses by name).
    pub(super) fn through_receiver(
        &self,
        file: &Arc<FileEntry>,
        facts: &FileFacts,
        reference: &Reference,
        depth: usize,
    ) -> Vec<Definition> {
        if depth >= MAX_RECEIVER_DEPTH {
            return Vec::new();
        }
        let Some(receiver) = reference.receiver else {
            // A key of a literal written for a parameter (`f({ k: v })`):
            // a member of the parameter's type.
            let context = super::overloads::index_in(&facts.references, reference)
                .and_then(|index| context_of(facts, ContextTarget::Member(index)));
            let Some(context) = context else {
                return Vec::new();
            };
            let types = self.parameter_context_type(file, facts, context, depth);
            let opaque = self.has_opaque_part(&types);
            return one_part_of_union(self.members_of_types(types, reference), opaque);
        };
        let Some(value) = facts.references.get(receiver.reference as usize) else {
            return Vec::new();
        };
        // `x.name` after `assert isinstance(x, T)`: `T`'s, when the
        // narrowing names a type or a guard function stating one.
        let types = self
            .narrowed(file, facts, receiver, depth)
            .unwrap_or_else(|| self.type_of(file, value, Access::of(receiver), &[], depth));
        let opaque = self.has_opaque_part(&types);
        let found = self.members_of_types(types, reference);
        if matches!(value.kind, ReferenceKind::Type | ReferenceKind::Write) {
            // A literal of the type the reference names (`const e: Event =
            // { .. }`, `T{ .. }`), or of the key or property it is the
            // value of (a write: `{ a: { .. } }`, `x.a = { .. }`).
            return one_part_of_union(found, opaque);
        }
        found
    }

    /// The members named as `reference` of `types`: of each type of a
    /// union (`type Issue = A | B`) that has one.
    fn members_of_types(&self, types: Vec<SymbolRef>, reference: &Reference) -> Vec<Definition> {
        let mut found: Vec<Definition> = Vec::new();
        for ty in types {
            for member in self.members_of_type(ty, reference) {
                if !found.iter().any(|f| same_target(f, &member)) {
                    found.push(member);
                }
            }
        }
        found
    }

    /// Whether `types`, a union's, holds an alias standing for the members
    /// written in it (an object type among the union's types), not one
    /// whose own members every value has (`A & { own }`, stated as its
    /// self type).
    fn has_opaque_part(&self, types: &[SymbolRef]) -> bool {
        types.len() > 1
            && types.iter().any(|t| {
                self.table.symbol(*t).kind == SymbolKind::TypeParameter
                    && !self.has_own_members_always(*t)
            })
    }

    /// Whether the alias `ty` states itself as its self type: every value
    /// of it has the members written in it.
    fn has_own_members_always(&self, ty: SymbolRef) -> bool {
        self.table.file(ty).facts.as_ref().is_ok_and(|facts| {
            facts.declared_types.iter().any(|d| {
                d.target == DeclaredTarget::Symbol(ty.symbol)
                    && d.source == DeclaredTypeSource::SelfType
            })
        })
    }

    /// The type of the parameter `context` (of `file`) says its target is
    /// written for: the function its reference names, then the type that
    /// function states for the parameter at those positions. Several for a
    /// union, none when not known (also when the function is one of
    /// several overloads).
    fn parameter_context_type(
        &self,
        file: &Arc<FileEntry>,
        facts: &FileFacts,
        context: &ParameterContext,
        depth: usize,
    ) -> Vec<SymbolRef> {
        if depth + 1 >= MAX_RECEIVER_DEPTH || context.function.called {
            return Vec::new();
        }
        let Some(function) = facts.references.get(context.function.reference as usize) else {
            return Vec::new();
        };
        if context.function.indexed {
            // A literal written as one element of a collection
            // (`xs.push({ .. })`): of the collection's element type.
            if !context.parameters.is_empty() {
                return Vec::new();
            }
            let element = Access {
                called: false,
                indexed: true,
            };
            return self.type_of(file, function, element, &[], depth + 1);
        }
        let found = self.resolve_within(file, function, depth + 1);
        // A function merged with a type of its name (TypeScript's
        // `interface C` beside `function C(..)`): the one that has
        // parameters, when every one found is certain.
        let Some(definition) = self.one_declaration(&found).or_else(|| {
            let mut callable = found.iter().filter(|d| self.states_parameters(d));
            match (callable.next(), callable.next()) {
                (Some(one), None) if found.iter().all(|d| d.confidence >= 1.0) => Some(one),
                _ => None,
            }
        }) else {
            return Vec::new();
        };
        let (owner_file, target) = match &definition.target {
            Target::Symbol { file, index } => (file, DeclaredTarget::Symbol(*index as u32)),
            Target::Local { file, index } => (file, DeclaredTarget::Local(*index as u32)),
        };
        // A type written for the value (`const m: ErrorMap<I> = (issue) =>
        // ..`): its parameters bound as the declared type written there
        // says; nothing is bound where no declared type tells whether
        // arguments were written.
        let stated_there = facts
            .declared_types
            .iter()
            .find(|d| d.span.start.offset == function.span.start.offset);
        let bindings = match stated_there {
            Some(declared) => {
                let written = self.written_declared(file, declared);
                self.bindings_for(&found, file, &written, &Bindings::default(), depth)
            }
            // A call whose result a declaration of a stated type holds
            // (`const S: Ctor<Str> = make("S", (inst) => ..)`): the type
            // parameters the function's return type names, bound as that
            // type's arguments say.
            None => self
                .result_declared_type(facts, context.function.reference)
                .map(|declared| {
                    self.bindings_from_result(file, declared, owner_file, target, depth)
                })
                .unwrap_or_default(),
        };
        self.parameter_type(
            owner_file,
            target,
            &context.parameters,
            &bindings,
            depth + 1,
        )
    }

    /// Whether the declaration `definition` states parameter types (a
    /// function, or a type or declaration of a function type).
    fn states_parameters(&self, definition: &Definition) -> bool {
        let (file, target) = match &definition.target {
            Target::Symbol { file, index } => (file, DeclaredTarget::Symbol(*index as u32)),
            Target::Local { file, index } => (file, DeclaredTarget::Local(*index as u32)),
        };
        file.facts.as_ref().is_ok_and(|facts| {
            facts
                .declared_types
                .iter()
                .any(|d| d.target == target && d.source == DeclaredTypeSource::Parameter)
        })
    }

    /// The type `target` (of `owner_file`: a function, a class, a
    /// declaration or type of a function type) states for its parameter at
    /// `positions` (then in that parameter's own function type): stated
    /// for all the positions; else through the named function type of the
    /// first (`cb: Callback`), or of `target` itself (`m: ErrorMap`), the
    /// type parameters of that type bound to the arguments written there
    /// (`m: ErrorMap<Issue>`). `bindings` binds the type parameters of
    /// `target`'s own generic declaration.
    fn parameter_type(
        &self,
        owner_file: &Arc<FileEntry>,
        target: DeclaredTarget,
        positions: &[u32],
        bindings: &Bindings,
        depth: usize,
    ) -> Vec<SymbolRef> {
        if depth >= MAX_RECEIVER_DEPTH || positions.is_empty() {
            return Vec::new();
        }
        let Ok(facts) = owner_file.facts.as_ref() else {
            return Vec::new();
        };
        let stated = |source: DeclaredTypeSource, element: &[u32]| {
            facts
                .declared_types
                .iter()
                .find(|d| d.target == target && d.source == source && *d.element == *element)
        };
        if let Some(declared) = stated(DeclaredTypeSource::Parameter, positions) {
            return self.declared_type_in(owner_file, declared, bindings, depth);
        }
        let (through, rest) = match stated(DeclaredTypeSource::Parameter, &positions[..1]) {
            Some(first) if positions.len() > 1 => (first, &positions[1..]),
            _ => match stated(DeclaredTypeSource::Annotation, &[]) {
                Some(own) => (own, positions),
                None => return Vec::new(),
            },
        };
        let written = self.written_declared(owner_file, through);
        let found = self.resolve_within(owner_file, &written.reference, depth + 1);
        let inner = self.bindings_for(&found, owner_file, &written, bindings, depth);
        self.declared_type_in(owner_file, through, bindings, depth)
            .into_iter()
            .flat_map(|ty| {
                self.parameter_type(
                    self.table.file(ty),
                    DeclaredTarget::Symbol(ty.symbol),
                    rest,
                    &inner,
                    depth + 1,
                )
            })
            .collect()
    }

    /// The types the value `receiver` reads has where a test or a guard
    /// narrows it (the plugins' narrowings): the type tested for
    /// (`isinstance(x, T)`), or what the guard function called states its
    /// true result proves (`-> TypeIs[T]`). None when nothing narrows the
    /// read, or what does resolves to neither of these, certainly: the
    /// value then has its own type.
    fn narrowed(
        &self,
        file: &Arc<FileEntry>,
        facts: &FileFacts,
        receiver: lingo_model::Receiver,
        depth: usize,
    ) -> Option<Vec<SymbolRef>> {
        if receiver.called || receiver.indexed || depth + 1 >= MAX_RECEIVER_DEPTH {
            return None;
        }
        let at = facts
            .narrowings
            .binary_search_by_key(&receiver.reference, |n| n.value)
            .ok()?;
        let by = facts.references.get(facts.narrowings[at].by as usize)?;
        let found = self.resolve_within(file, by, depth + 1);
        let definition = self.one_declaration(&found)?;
        let symbol = target_symbol(definition)?;
        let Target::Symbol {
            file: owner_file,
            index,
        } = &definition.target
        else {
            return None;
        };
        let types = if by.kind != ReferenceKind::Call {
            // A type tested for: a value of it.
            if !is_type_kind(symbol.kind) {
                return None;
            }
            vec![self.symbol_ref(definition)?]
        } else {
            // A guard function called: the type its declaration states
            // that a true result proves.
            let owner_facts = owner_file.facts.as_ref().ok()?;
            let target = DeclaredTarget::Symbol(*index as u32);
            let declared = owner_facts.declared_types.iter().find(|d| {
                d.target == target
                    && d.source == DeclaredTypeSource::Narrowed
                    && d.element.is_empty()
            })?;
            self.declared_type(owner_file, declared, depth + 1)
        };
        (!types.is_empty()).then_some(types)
    }

    /// `self.name` / `this.name` (which the plugin qualifies by the
    /// enclosing type's name) where the type itself has no such member:
    /// its nearest supertype's (a base class, an embedded struct, a trait's
    /// default method).
    pub(super) fn inherited_members(
        &self,
        file: &Arc<FileEntry>,
        reference: &Reference,
    ) -> Vec<Definition> {
        let Some(owner_reference) = reference.qualifier_owner() else {
            return Vec::new();
        };
        let found = self.resolve_within(file, &owner_reference, MAX_RECEIVER_DEPTH);
        let Some(owner) = self
            .one_declaration(&found)
            .filter(|d| target_symbol(d).is_some_and(|s| is_type_kind(s.kind)))
            .and_then(|d| self.symbol_ref(d))
        else {
            return Vec::new();
        };
        self.members_of_type(owner, reference)
    }

    /// The type of the value `value` denotes, reached by `access` (what
    /// calling it returns, one element of it), or of its tuple `element`
    /// when that is not empty, when it resolves certainly and the source
    /// states it: a type itself (`Type.member`, `new Type().member`), a
    /// local, parameter, field or property with a declared type (or
    /// element type), a function with a declared return type, or a local
    /// initialised with any of these or destructuring one. Several types
    /// for a union; none when the type is not known.
    fn type_of(
        &self,
        file: &Arc<FileEntry>,
        value: &Reference,
        access: Access,
        element: &[u32],
        depth: usize,
    ) -> Vec<SymbolRef> {
        let found = self.resolve_within(file, value, depth + 1);
        let Some(definition) = self.one_declaration(&found) else {
            return self.type_of_union_members(file, value, &found, access, element, depth);
        };
        self.type_of_definition(file, value, definition, &found, access, element, depth)
    }

    /// The types of `found`, the members of several types one member
    /// access reaches through a union (`result.error` where `result` is a
    /// `Success | Failure`), each certain and of another type: the union of
    /// the members' types. A member whose type is not known adds none: a
    /// member access that compiles is valid on each type of the union, so
    /// what it names in the known types it names. Empty for anything else.
    fn type_of_union_members(
        &self,
        file: &Arc<FileEntry>,
        value: &Reference,
        found: &[Definition],
        access: Access,
        element: &[u32],
        depth: usize,
    ) -> Vec<SymbolRef> {
        if found.len() < 2 || found.len() > MAX_UNION || found.iter().any(|d| d.confidence < 1.0) {
            return Vec::new();
        }
        let mut owners = Vec::new();
        for definition in found {
            let (Target::Symbol { file, .. }, Some(symbol)) =
                (&definition.target, target_symbol(definition))
            else {
                return Vec::new();
            };
            let Some(owner) = symbol.container else {
                return Vec::new();
            };
            if is_type_kind(symbol.kind) || owners.contains(&(&file.path, owner)) {
                return Vec::new();
            }
            owners.push((&file.path, owner));
        }
        let mut types = Vec::new();
        for definition in found {
            let one = std::slice::from_ref(definition);
            for ty in self.type_of_definition(file, value, definition, one, access, element, depth)
            {
                if !types.contains(&ty) {
                    types.push(ty);
                }
            }
        }
        types
    }

    /// [`Self::type_of`] for `definition`, the one declaration `found`
    /// names.
    #[allow(clippy::too_many_arguments)]
    fn type_of_definition(
        &self,
        file: &Arc<FileEntry>,
        value: &Reference,
        definition: &Definition,
        found: &[Definition],
        access: Access,
        element: &[u32],
        depth: usize,
    ) -> Vec<SymbolRef> {
        let called = access.called;
        let calling_file = file;
        // A literal of an alias (`const e: Either = { .. }`): of what the
        // alias stands for, each type of a union.
        if !called
            && !access.indexed
            && element.is_empty()
            && target_symbol(definition).is_some_and(|s| s.kind == SymbolKind::TypeParameter)
        {
            return self.types_named(found, depth);
        }
        let (owner_file, target) = match &definition.target {
            Target::Symbol { file, index } => {
                if target_symbol(definition).is_some_and(|s| is_type_kind(s.kind)) {
                    // `Type.member`, `new Type().member`, `Type(x).member`:
                    // a value of the type, not a tuple or collection.
                    if !element.is_empty() || access.indexed {
                        return Vec::new();
                    }

                    return self
                        .table
                        .file_number(&file.path)
                        .map(|number| SymbolRef {
                            file: number,
                            symbol: *index as u32,
                        })
                        .into_iter()
                        .collect();
                }
                let target = DeclaredTarget::Symbol(*index as u32);
                // `a.b().c()` where `b` returns the value it is called on
                // (TypeScript's `this`): `a`'s type, which may be a subtype
                // of `b`'s owner. Unknown when `a`'s is.
                if called
                    && returns_its_receiver(file, target)
                    && let Some(receiver) = value.receiver
                {
                    let on = calling_file
                        .facts
                        .as_ref()
                        .ok()
                        .and_then(|facts| facts.references.get(receiver.reference as usize));
                    let Some(on) = on.filter(|_| depth + 1 < MAX_RECEIVER_DEPTH) else {
                        return Vec::new();
                    };
                    // `xs[i].pipe()[j]`: an element of an element.
                    let Some(on_access) = Access::of(receiver).then_indexed(access.indexed) else {
                        return Vec::new();
                    };
                    return self.type_of(calling_file, on, on_access, element, depth + 1);
                }
                (file, target)
            }
            Target::Local { file, index } => (file, DeclaredTarget::Local(*index as u32)),
        };
        self.type_of_target(owner_file, target, access, element, depth)
    }

    /// The one workspace type of the value `value` (written in `file`)
    /// denotes, reached as `receiver` says (called, indexed); several for
    /// a union, none when not known.
    pub(super) fn type_of_value(
        &self,
        file: &Arc<FileEntry>,
        value: &Reference,
        receiver: lingo_model::Receiver,
    ) -> Vec<SymbolRef> {
        self.type_of(file, value, Access::of(receiver), &[], 0)
    }

    /// The one workspace type the declaration `target` of `file` has, as
    /// the source states it: its declared type, or for a local without one,
    /// the type of the value it is initialised with.
    pub fn type_of_declaration(
        &self,
        file: &Arc<FileEntry>,
        target: DeclaredTarget,
    ) -> Option<SymbolRef> {
        match self
            .type_of_target(file, target, Access::default(), &[], 0)
            .as_slice()
        {
            [one] => Some(*one),
            _ => None,
        }
    }

    /// The type of `target` reached by `access` (what calling it returns,
    /// one element of it), or of that value's tuple `element` when it is
    /// not empty; several for a union.
    fn type_of_target(
        &self,
        owner_file: &Arc<FileEntry>,
        target: DeclaredTarget,
        access: Access,
        element: &[u32],
        depth: usize,
    ) -> Vec<SymbolRef> {
        let called = access.called;
        if access.indexed && !element.is_empty() {
            // A tuple element of a collection's element: not stated.
            return Vec::new();
        }
        let wanted = |source: DeclaredTypeSource| {
            if access.indexed {
                // `xs[i]`, `f()[i]`, `for x in xs`: the element type stated
                // for the collection (a function's, of what it returns).
                source == DeclaredTypeSource::Element
            } else if called {
                // A method returning what it is called on, called on no
                // value (`this.pipe()` qualified by its class): its owner.
                matches!(
                    source,
                    DeclaredTypeSource::ReturnType | DeclaredTypeSource::ThisType
                )
            } else {
                matches!(
                    source,
                    DeclaredTypeSource::Annotation
                        | DeclaredTypeSource::Constructor
                        | DeclaredTypeSource::Literal
                )
            }
        };
        let Ok(owner_facts) = owner_file.facts.as_ref() else {
            return Vec::new();
        };
        let declared = owner_facts
            .declared_types
            .iter()
            .find(|d| d.target == target && wanted(d.source) && *d.element == *element);
        if let Some(declared) = declared {
            return self.declared_type(owner_file, declared, depth);
        }
        if called && !access.indexed && depth + 1 < MAX_RECEIVER_DEPTH {
            let returned = self.returned_by_function_type(owner_file, target, element, depth);
            if !returned.is_empty() {
                return returned;
            }
        }
        // `let p = make()`, `d := NewDecoder(r)`, a module's `const p =
        // make()`: a declaration without a written type has the type of
        // the value it is initialised with; `let (tx, rx) = channel()`: of
        // the element it destructures.
        let initialised = match target {
            DeclaredTarget::Local(index) => owner_facts
                .locals
                .get(index as usize)
                .and_then(|local| Some((local.value?, &*local.element))),
            DeclaredTarget::Symbol(index) => owner_facts
                .symbol_values
                .binary_search_by_key(&index, |v| v.symbol)
                .ok()
                .map(|at| {
                    let value = &owner_facts.symbol_values[at];
                    (value.value, &*value.element)
                }),
        };
        let Some((value, own_element)) = initialised else {
            // A callback's parameter written without a type (`(x) => ..`
            // given for `cb: (x: X) => void`): the type of the parameter it
            // is written for.
            if let DeclaredTarget::Local(index) = target
                && !access.called
                && !access.indexed
                && element.is_empty()
                && let Some(context) = context_of(owner_facts, ContextTarget::Local(index))
            {
                return self.parameter_context_type(owner_file, owner_facts, context, depth);
            }
            return Vec::new();
        };
        let Some(named) = owner_facts
            .references
            .get(value.reference as usize)
            .filter(|_| depth + 1 < MAX_RECEIVER_DEPTH)
        else {
            return Vec::new();
        };
        // Calling what holds a function (`const string = ZodString.create`)
        // calls that function; what calling the result of a call, or an
        // element of a collection, returns is not written down.
        let value_called = match (called, value.called, value.indexed) {
            (false, value_called, _) => value_called,
            (true, false, false) => true,
            (true, _, _) => return Vec::new(),
        };
        // `let x = xs[i]`, `for x in xs`: one element of the value; of an
        // element of that, or of a tuple in it, nothing is stated.
        let Some(value_access) = (Access {
            called: value_called,
            indexed: value.indexed,
        })
        .then_indexed(access.indexed) else {
            return Vec::new();
        };
        if value.indexed && !(own_element.is_empty() && element.is_empty()) {
            return Vec::new();
        }
        let element: Vec<u32> = own_element.iter().chain(element).copied().collect();
        self.type_of(owner_file, named, value_access, &element, depth + 1)
    }

    /// What calling `target` returns when its stated type is a function
    /// type whose declaration states a return type: Go's `f EqualFunc` with
    /// `type EqualFunc func(x, y int) Result`, a C# delegate. Empty when
    /// it has no such type.
    fn returned_by_function_type(
        &self,
        owner_file: &Arc<FileEntry>,
        target: DeclaredTarget,
        element: &[u32],
        depth: usize,
    ) -> Vec<SymbolRef> {
        let Ok(owner_facts) = owner_file.facts.as_ref() else {
            return Vec::new();
        };
        let Some(stated) = owner_facts.declared_types.iter().find(|d| {
            d.target == target && d.source == DeclaredTypeSource::Annotation && d.element.is_empty()
        }) else {
            return Vec::new();
        };
        let mut function_types = self.declared_type(owner_file, stated, depth);
        if function_types.is_empty() {
            // A delegate is declared like a function: not a type kind.
            let found =
                self.resolve_within(owner_file, &self.type_use_at(owner_file, stated), depth + 1);
            if let [one] = found.as_slice()
                && one.confidence >= 1.0
                && let Some(declaration) = self.symbol_ref(one)
            {
                function_types.push(declaration);
            }
        }
        function_types
            .into_iter()
            .flat_map(|ty| {
                let type_file = self.table.file(ty);
                self.type_of_target(
                    type_file,
                    DeclaredTarget::Symbol(ty.symbol),
                    Access {
                        called: true,
                        indexed: false,
                    },
                    element,
                    depth + 1,
                )
            })
            .collect()
    }

    /// The type declaration of the workspace that `declared` (written in
    /// `file`) names, resolved as a type reference at that place; through
    /// an alias the source states a type for (`type One = Two`), what that
    /// names, several for a union (`type U = A | B`, each of its types
    /// stated); an alias stating none (`type P = { x: X }`) is a type of
    /// its own members. Empty when it names no one type.
    fn declared_type(
        &self,
        file: &Arc<FileEntry>,
        declared: &DeclaredType,
        depth: usize,
    ) -> Vec<SymbolRef> {
        self.declared_type_in(file, declared, &Bindings::default(), depth)
    }

    /// [`Self::declared_type`] where the type parameters of the generic
    /// declarations being followed are bound as `bindings` says (a type
    /// parameter is its binding, else its constraint).
    pub(super) fn declared_type_in(
        &self,
        file: &Arc<FileEntry>,
        declared: &DeclaredType,
        bindings: &Bindings,
        depth: usize,
    ) -> Vec<SymbolRef> {
        let written = self.written_declared(file, declared);
        self.written_type(file, &written, bindings, depth)
    }

    /// The type declarations of the workspace that `found` (the
    /// definitions of a type name) names: through an alias, what it
    /// stands for (see [`Self::declared_type`]).
    fn types_named(&self, found: &[Definition], depth: usize) -> Vec<SymbolRef> {
        self.types_named_in(found, &Bindings::default(), depth)
    }

    /// [`Self::types_named`] with the alias's type parameters bound as
    /// `bindings` says.
    pub(super) fn types_named_in(
        &self,
        found: &[Definition],
        bindings: &Bindings,
        depth: usize,
    ) -> Vec<SymbolRef> {
        let certain: Vec<&Definition> = found.iter().filter(|d| d.confidence >= 1.0).collect();
        if let [alias] = certain.as_slice()
            && target_symbol(alias).is_some_and(|s| s.kind == SymbolKind::TypeParameter)
            && let Target::Symbol {
                file: alias_file,
                index,
            } = &alias.target
            && let Some(alias_ref) = self.symbol_ref(alias)
        {
            let Ok(alias_facts) = &alias_file.facts else {
                return Vec::new();
            };
            let target = DeclaredTarget::Symbol(*index as u32);
            let stated: Vec<&DeclaredType> = alias_facts
                .declared_types
                .iter()
                .filter(|d| {
                    d.target == target
                        && matches!(
                            d.source,
                            DeclaredTypeSource::Annotation | DeclaredTypeSource::SelfType
                        )
                        && d.element.is_empty()
                })
                .take(MAX_UNION + 1)
                .collect();
            if stated.is_empty() {
                return vec![alias_ref];
            }
            if stated.len() > MAX_UNION {
                return Vec::new();
            }
            // Nested aliases are bounded by the generic guard of
            // `written_type`, not by the receiver depth.
            let guard = UnionGuard::enter();
            if !guard.take(stated.len()) {
                return Vec::new();
            }
            let own_name = alias_facts.symbols.get(*index).map(|s| s.name_span);
            let mut union = Vec::new();
            for part in stated {
                // The alias naming itself: the members written in it (an
                // object type among the union's types), which no name
                // states.
                if Some(part.span) == own_name {
                    if !union.contains(&alias_ref) {
                        union.push(alias_ref);
                    }
                    continue;
                }
                for ty in self.declared_type_in(alias_file, part, bindings, depth) {
                    if !union.contains(&ty) {
                        union.push(ty);
                    }
                }
                if guard.spent() || GenericGuard::spent() {
                    return Vec::new();
                }
            }
            return union;
        }
        self.one_type(&certain).into_iter().collect()
    }

    /// `declared` as a type reference where it is written: inside the
    /// declarations around it (whose nested types are in scope there).
    pub(super) fn type_use_at(&self, file: &Arc<FileEntry>, declared: &DeclaredType) -> Reference {
        let mut type_reference = declared.type_use();
        if let Ok(facts) = &file.facts {
            type_reference.enclosing =
                super::enclosing_symbol_at(facts, declared.span.start.offset);
        }
        type_reference
    }

    /// The one type `certain` (certain definitions of a type name) names:
    /// a single type declaration, or alternatives of one.
    pub(super) fn one_type(&self, certain: &[&Definition]) -> Option<SymbolRef> {
        let types: Vec<SymbolRef> = certain
            .iter()
            .filter(|d| target_symbol(d).is_some_and(|s| is_type_kind(s.kind)))
            .filter_map(|d| self.symbol_ref(d))
            .collect();
        // Declarations of one name in one file are alternatives of one type
        // (`#[cfg(..)]` variants): their members are looked up alike.
        let first = *types.first()?;
        let name = &self.table.symbol(first).name;
        let parts = self.parts_of(first);
        types
            .iter()
            .all(|t| {
                (t.file == first.file && self.table.symbol(*t).name == *name) || parts.contains(t)
            })
            .then_some(first)
    }

    /// Members named as `reference` of the type `ty`, else of its nearest
    /// supertypes (breadth first), the kind the access asks for first.
    pub(super) fn members_of_type(&self, ty: SymbolRef, reference: &Reference) -> Vec<Definition> {
        let found = self.through_supertypes(ty, |t| self.own_members(t, &reference.name));
        if found.is_empty() {
            return found;
        }
        self.by_access(found, reference)
    }

    /// Types named `name` declared inside the type `ty` (in any of its
    /// parts), else inside its nearest supertypes: what a bare name means
    /// where the enclosing type's scope holds its nested types.
    pub(super) fn nested_types_of(&self, ty: SymbolRef, name: &str) -> Vec<Definition> {
        self.through_supertypes(ty, |t| {
            let type_name = self.table.symbol(t).name.as_str();
            let unique = self.type_name_is_unique_to(type_name, t.file);
            let part_files: Vec<u32> = self.parts_of(t).iter().map(|p| p.file).collect();
            self.where_named(name, Resolution::Scope, |r, s| {
                is_type_kind(s.kind)
                    && s.container_name.as_deref() == Some(type_name)
                    && (r.file == t.file || unique || part_files.contains(&r.file))
            })
        })
    }

    /// What `own` finds in `ty`, else in its nearest supertypes (breadth
    /// first, bounded in depth and count).
    fn through_supertypes(
        &self,
        ty: SymbolRef,
        own: impl Fn(SymbolRef) -> Vec<Definition>,
    ) -> Vec<Definition> {
        let mut seen = vec![ty];
        let mut level = vec![ty];
        for _ in 0..=MAX_SUPERTYPE_DEPTH {
            let found: Vec<Definition> = level.iter().flat_map(|t| own(*t)).collect();
            if !found.is_empty() {
                return found;
            }
            let mut next = Vec::new();
            for t in &level {
                for base in self.supertypes(*t) {
                    if seen.len() >= MAX_SUPERTYPES {
                        break;
                    }
                    if !seen.contains(&base) {
                        seen.push(base);
                        next.push(base);
                    }
                }
            }
            if next.is_empty() {
                break;
            }
            level = next;
        }
        Vec::new()
    }

    /// Every supertype of the type `ty`, nearest first (breadth first,
    /// bounded as member lookups are); none for what is not a type.
    pub fn all_supertypes(&self, ty: SymbolRef) -> Vec<SymbolRef> {
        if !is_type_kind(self.table.symbol(ty).kind) {
            return Vec::new();
        }
        let mut seen = vec![ty];
        let mut level = vec![ty];
        for _ in 0..=MAX_SUPERTYPE_DEPTH {
            let mut next = Vec::new();
            for t in &level {
                for base in self.supertypes(*t) {
                    if seen.len() >= MAX_SUPERTYPES || seen.contains(&base) {
                        continue;
                    }
                    seen.push(base);
                    next.push(base);
                }
            }
            if next.is_empty() {
                break;
            }
            level = next;
        }
        seen.remove(0);
        seen
    }

    /// Whether the type `ty` declares a member named `name`.
    pub fn declares_member(&self, ty: SymbolRef, name: &str) -> bool {
        !self.own_members(ty, name).is_empty()
    }

    /// Members named `name` declared in the type `ty` or in blocks for it
    /// (by the type's name): in the type's file, or anywhere when no other
    /// type of the workspace has that name.
    fn own_members(&self, ty: SymbolRef, name: &str) -> Vec<Definition> {
        let type_name = self.table.symbol(ty).name.as_str();
        let unique = self.type_name_is_unique_to(type_name, ty.file);
        let part_files: Vec<u32> = self.parts_of(ty).iter().map(|p| p.file).collect();
        let found = self.where_named(name, Resolution::Qualified, |r, s| {
            s.container_name.as_deref() == Some(type_name)
                && self.is_member_at(r, s)
                && (r.file == ty.file || unique || part_files.contains(&r.file))
        });
        if !found.is_empty() || unique {
            return found;
        }
        // Blocks declared apart from the type, in other files.
        let apart = self.blocks_apart(ty);
        self.where_named(name, Resolution::Qualified, |r, s| {
            s.container_name.as_deref() == Some(type_name)
                && self.is_member_at(r, s)
                && s.container.is_some_and(|c| {
                    apart.contains(&SymbolRef {
                        file: r.file,
                        symbol: c,
                    })
                })
        })
    }

    /// The blocks for the type `ty` declared in other files (a Rust `impl
    /// Handle { .. }` beside `use crate::runtime::Handle;`): same-named
    /// non-type containers whose name, read as the reference it is in
    /// their own file, resolves certainly to `ty`.
    pub(super) fn blocks_apart(&self, ty: SymbolRef) -> Vec<SymbolRef> {
        let type_name = &self.table.symbol(ty).name;
        let Some(_guard) = ApartGuard::enter() else {
            return Vec::new();
        };
        let mut blocks = Vec::new();
        for &r in self.table.named(type_name) {
            if r.file == ty.file || blocks.len() >= MAX_BLOCKS_APART {
                continue;
            }
            let block = self.table.symbol(r);
            if block.kind != SymbolKind::Object {
                continue;
            }
            let file = self.table.file(r);
            let Ok(facts) = &file.facts else { continue };
            let at = block.name_span.start.offset;
            let first = facts
                .references
                .partition_point(|x| x.span.start.offset < at);
            let Some(named) = facts.references[first..]
                .iter()
                .take_while(|x| x.span.start.offset == at)
                .find(|x| x.name == *type_name)
            else {
                continue;
            };
            let resolved = self.resolve(file, named);
            let to_ty = |d: &Definition| d.confidence >= 1.0 && self.symbol_ref(d) == Some(ty);
            if resolved.len() == 1 && to_ty(&resolved[0]) {
                blocks.push(r);
            }
        }
        blocks
    }

    /// The types `ty`'s base lists name (`class C : B, I`, `impl I for C`,
    /// `interface I extends J`), each resolved certainly to one type.
    fn supertypes(&self, ty: SymbolRef) -> Vec<SymbolRef> {
        self.base_types(ty).0
    }

    /// Whether every supertype of `ty` is known: each name its base lists
    /// (and its supertypes') write resolves certainly to one type, or names
    /// no type of the workspace (a library's, which no workspace type can
    /// be a supertype of).
    pub(super) fn supertypes_are_known(&self, ty: SymbolRef) -> bool {
        std::iter::once(ty)
            .chain(self.all_supertypes(ty))
            .all(|t| self.base_types(t).1)
    }

    /// [`Self::supertypes`], and whether each name of the base lists
    /// either resolved or names no type of the workspace.
    fn base_types(&self, ty: SymbolRef) -> (Vec<SymbolRef>, bool) {
        let Some(_guard) = SupertypesGuard::enter(ty) else {
            return (Vec::new(), false);
        };
        let type_name = self.table.symbol(ty).name.as_str();
        let unique = self.type_name_is_unique_to(type_name, ty.file);
        // The type itself and the blocks named after it (a Rust `impl`)
        // hold base lists.
        let parts = self.parts_of(ty);
        let holders = self.table.named(type_name).iter().filter(|r| {
            parts.contains(r)
                || (self.table.symbol(**r).kind == SymbolKind::Object
                    && (r.file == ty.file || unique))
        });
        let mut out = Vec::new();
        let mut known = true;
        for holder in holders {
            let file = self.table.file(*holder);
            let Ok(facts) = &file.facts else {
                known = false;
                continue;
            };
            let lists = self.table.base_lists(holder.file, facts);
            // Its own base list, and those its direct members hold (a Go
            // embedded field is a member whose type is embedded).
            let held = lists.iter().filter(|(h, _)| {
                **h == holder.symbol
                    || facts
                        .symbols
                        .get(**h as usize)
                        .is_some_and(|s| s.container == Some(holder.symbol))
            });
            for &index in held.flat_map(|(_, bases)| bases) {
                let Some(base) = facts.references.get(index as usize) else {
                    continue;
                };
                let found = self.resolve_within(file, base, MAX_RECEIVER_DEPTH);
                if let [one] = found.as_slice()
                    && one.confidence >= 1.0
                    && target_symbol(one).is_some_and(|s| is_type_kind(s.kind))
                    && let Some(r) = self.symbol_ref(one)
                {
                    if !out.contains(&r) {
                        out.push(r);
                    }
                } else if self
                    .table
                    .named(&base.name)
                    .iter()
                    .any(|r| is_type_kind(self.table.symbol(*r).kind))
                {
                    known = false;
                }
            }
        }
        (out, known)
    }

    /// The one declaration `found` names certainly: a single one, or
    /// alternatives of one declaration (the same name declared several
    /// times in one file, under different `#[cfg(..)]`s), the first of them.
    pub(super) fn one_declaration<'d>(&self, found: &'d [Definition]) -> Option<&'d Definition> {
        let first = found.first()?;
        if found.iter().any(|d| d.confidence < 1.0) {
            return None;
        }
        if found.len() == 1 {
            return Some(first);
        }
        // Same file, same name and kind, in a container of the same name
        // (members of two types of one file are two declarations).
        let key = |d: &Definition| match &d.target {
            Target::Symbol { file, .. } => target_symbol(d).map(|s| {
                (
                    file.path.clone(),
                    s.container_name.clone(),
                    s.name.clone(),
                    s.kind,
                )
            }),
            Target::Local { .. } => None,
        };
        let first_key = key(first)?;
        if found.iter().all(|d| key(d).as_ref() == Some(&first_key)) {
            return Some(first);
        }
        // The parts of one type declared in several files of its module
        // (C# `partial` classes).
        let first_ref = self.symbol_ref(first)?;
        let parts = self.parts_of(first_ref);
        found
            .iter()
            .all(|d| self.symbol_ref(d).is_some_and(|r| parts.contains(&r)))
            .then_some(first)
    }

    /// The members named `name` of the type `ty`, else of its nearest
    /// supertypes.
    pub(super) fn members_named(&self, ty: SymbolRef, name: &str) -> Vec<Definition> {
        self.through_supertypes(ty, |t| self.own_members(t, name))
    }

    /// The types the member `target` of `file` (a field or property) is
    /// declared with.
    pub(super) fn type_of_member(
        &self,
        file: &Arc<FileEntry>,
        target: DeclaredTarget,
        depth: usize,
    ) -> Vec<SymbolRef> {
        self.type_of_target(file, target, Access::default(), &[], depth)
    }

    /// The declarations of the type `ty` across files: `ty` and the
    /// same-named types of the same kind and container in files of one of
    /// its file's modules (C# `partial` class parts, which one namespace may
    /// only declare once otherwise).
    pub fn parts_of(&self, ty: SymbolRef) -> Vec<SymbolRef> {
        let symbol = self.table.symbol(ty);
        if !is_type_kind(symbol.kind) {
            return vec![ty];
        }
        let modules = |file: u32| -> Vec<&str> {
            self.table.files()[file as usize]
                .facts
                .as_ref()
                .map(|f| f.modules.iter().map(|m| m.path.as_str()).collect())
                .unwrap_or_default()
        };
        // A type declared in a function or a value's initialiser (a local
        // or anonymous class) is whole where it is written.
        let held_by_a_body = |r: SymbolRef| {
            let symbol = self.table.symbol(r);
            symbol.container.is_some_and(|c| {
                let container = self.table.symbol(SymbolRef {
                    file: r.file,
                    symbol: c,
                });
                !is_type_kind(container.kind)
                    && !matches!(
                        container.kind,
                        SymbolKind::Module | SymbolKind::Namespace | SymbolKind::Package
                    )
            })
        };
        if held_by_a_body(ty) {
            return vec![ty];
        }
        let own = modules(ty.file);
        let mut out = vec![ty];
        for &r in self.table.named(&symbol.name) {
            if r == ty || r.file == ty.file {
                continue;
            }
            let other = self.table.symbol(r);
            if other.kind == symbol.kind
                && other.container_name == symbol.container_name
                && !held_by_a_body(r)
                && modules(r.file).iter().any(|m| own.contains(m))
            {
                out.push(r);
            }
        }
        out
    }

    /// Whether the type declared in `file` is the one type of the
    /// workspace with this name: every type declaration of the name is in
    /// that file (alternatives under `#[cfg(..)]`). Not so for a type
    /// whose declaration is no type kind's (an alias) beside a type of its
    /// name in another file: that one's members are not its.
    fn type_name_is_unique_to(&self, name: &str, file: u32) -> bool {
        let mut files = self
            .table
            .named(name)
            .iter()
            .filter(|r| is_type_kind(self.table.symbol(**r).kind))
            .map(|r| r.file)
            .peekable();
        files.peek().is_some() && files.all(|f| f == file)
    }

    pub(super) fn symbol_ref(&self, definition: &Definition) -> Option<SymbolRef> {
        match &definition.target {
            Target::Symbol { file, index } => Some(SymbolRef {
                file: self.table.file_number(&file.path)?,
                symbol: *index as u32,
            }),
            Target::Local { .. } => None,
        }
    }
}

/// Whether the function or method `target` of `file` returns the value it
/// is called on (a `this-type` declared type).
/// How a value is reached from what a reference denotes: the result of
/// calling it, one element of it (after the call, when both).
#[derive(Debug, Clone, Copy, Default)]
struct Access {
    called: bool,
    indexed: bool,
}

impl Access {
    /// How `receiver` reaches its value.
    fn of(receiver: lingo_model::Receiver) -> Access {
        Access {
            called: receiver.called,
            indexed: receiver.indexed,
        }
    }

    /// This access, then one element of its value when `indexed`; none
    /// for an element of an element, which no fact states.
    fn then_indexed(self, indexed: bool) -> Option<Access> {
        match (self.indexed, indexed) {
            (true, true) => None,
            (was, now) => Some(Access {
                indexed: was || now,
                ..self
            }),
        }
    }
}

fn returns_its_receiver(file: &FileEntry, target: DeclaredTarget) -> bool {
    file.facts.as_ref().is_ok_and(|facts| {
        facts
            .declared_types
            .iter()
            .any(|d| d.target == target && d.source == DeclaredTypeSource::ThisType)
    })
}

/// Whether two definitions are of the same declaration.
/// The members `found` for a key of a literal given a type: of one type
/// of a union, which the keys alone do not tell (TypeScript tells it by a
/// discriminant's value), so several candidates share the certainty; with
/// one of the union's types `opaque` (members no name states), that type
/// is one more candidate.
fn one_part_of_union(mut found: Vec<Definition>, opaque: bool) -> Vec<Definition> {
    let candidates = found.len() + usize::from(opaque && !found.is_empty());
    if candidates > 1 {
        let each = 1.0 / candidates as f64;
        for d in &mut found {
            d.confidence = (d.confidence * each * 100.0).round() / 100.0;
        }
    }
    found
}

/// The parameter context of `target` in `facts`, if any (they are sorted
/// by target).
fn context_of(facts: &FileFacts, target: ContextTarget) -> Option<&ParameterContext> {
    let at = facts
        .parameter_contexts
        .binary_search_by_key(&target, |c| c.target)
        .ok()?;
    facts.parameter_contexts.get(at)
}

fn same_target(a: &Definition, b: &Definition) -> bool {
    match (&a.target, &b.target) {
        (Target::Symbol { file: f, index: i }, Target::Symbol { file: g, index: j }) => {
            f.path == g.path && i == j
        }
        (Target::Local { file: f, index: i }, Target::Local { file: g, index: j }) => {
            f.path == g.path && i == j
        }
        _ => false,
    }
}
