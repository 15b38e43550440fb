//! Generic types: what a type parameter stands for while the types a
//! generic declaration states are followed (`type Raw<T> = Flatten<T>`
//! used as `Raw<Issue>`), from the type arguments the plugins state, else
//! the parameter's constraint (`T extends Base`).

use std::sync::Arc;

use super::{Definition, Resolver, SymbolRef, Target};
use lingo_index::FileEntry;
use lingo_model::name::Name;
use lingo_model::{
    DeclaredTarget, DeclaredType, DeclaredTypeSource, FileFacts, Reference, TypeArgument,
};

/// Generic declarations followed inside each other at most on one thread
/// (`Raw<T>` stands for `Flatten<T>`, which stands for ...); also ends
/// cycles of aliases.
const MAX_GENERIC_NESTING: usize = 24;

/// Generic declarations and constraints followed in all for one outermost
/// one: each level may resolve every argument, so the work is bounded
/// apart from the nesting.
const MAX_GENERIC_EXPANSIONS: usize = 512;

thread_local! {
    /// Generic declarations being followed on this thread, and the
    /// expansions the outermost may still make (`None`: none followed).
    static GENERIC_NESTING: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    static GENERIC_EXPANSIONS_LEFT: std::cell::Cell<Option<usize>> =
        const { std::cell::Cell::new(None) };
    /// Whether the outermost one's nesting or budget ran out: what it
    /// found is then not all of it, and it answers nothing.
    static GENERIC_SPENT: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// One generic declaration (or constraint) being followed on this thread,
/// until drop.
pub(super) struct GenericGuard {
    outermost: bool,
}

impl GenericGuard {
    /// `None` when too many nest or the outermost one's budget is spent.
    pub(super) fn enter() -> Option<GenericGuard> {
        let nesting = GENERIC_NESTING.with(|n| n.get());
        let left = GENERIC_EXPANSIONS_LEFT.with(|l| l.get());
        let outermost = left.is_none();
        let left = left.unwrap_or(MAX_GENERIC_EXPANSIONS);
        if nesting >= MAX_GENERIC_NESTING || left == 0 {
            GENERIC_SPENT.with(|spent| spent.set(true));
            return None;
        }
        GENERIC_EXPANSIONS_LEFT.with(|l| l.set(Some(left - 1)));
        GENERIC_NESTING.with(|n| n.set(nesting + 1));
        Some(GenericGuard { outermost })
    }
}

impl GenericGuard {
    /// Whether the nesting or budget ran out since the outermost one was
    /// entered: what is found is not all of it.
    pub(super) fn spent() -> bool {
        GENERIC_SPENT.with(|spent| spent.get())
    }

    /// `found`, or nothing when this is the outermost one and the nesting
    /// or budget ran out while it was followed.
    fn answer(&self, found: Vec<SymbolRef>) -> Vec<SymbolRef> {
        match self.outermost && Self::spent() {
            true => Vec::new(),
            false => found,
        }
    }
}

impl Drop for GenericGuard {
    fn drop(&mut self) {
        GENERIC_NESTING.with(|n| n.set(n.get().saturating_sub(1)));
        if self.outermost {
            GENERIC_EXPANSIONS_LEFT.with(|l| l.set(None));
            GENERIC_SPENT.with(|spent| spent.set(false));
        }
    }
}

/// A type parameter: its file's number and the index of its local.
type ParameterKey = (u32, usize);

/// The types the type parameters of the generic declarations being
/// followed are bound to by the arguments written for them; a parameter
/// bound to none stands for its constraint.
#[derive(Debug, Clone, Default)]
pub(super) struct Bindings {
    bound: Vec<(ParameterKey, Vec<SymbolRef>)>,
}

impl Bindings {
    fn get(&self, key: ParameterKey) -> Option<&Vec<SymbolRef>> {
        self.bound.iter().find(|(k, _)| *k == key).map(|(_, v)| v)
    }
}

/// A type written in a file: a declared type, or one of its type
/// arguments, with the arguments written after it.
pub(super) struct Written<'a> {
    /// The type as a type use where it is written.
    pub reference: Reference,
    /// The declared type's whole argument list, and the index of this
    /// argument in it (`None`: the declared type itself).
    pub arguments: &'a [TypeArgument],
    pub parent: Option<u32>,
    /// The members whose type, in turn, is meant (`T["_zod"]["def"]`).
    pub members: &'a [Name],
}

impl<'a> Written<'a> {
    /// The argument at `index` of the same list, written in `facts`.
    fn argument(&self, facts: &FileFacts, index: usize) -> Written<'a> {
        let mut reference = self.arguments[index].type_use();
        reference.enclosing = super::enclosing_symbol_at(facts, reference.span.start.offset);
        Written {
            reference,
            arguments: self.arguments,
            parent: Some(index as u32),
            members: &self.arguments[index].members,
        }
    }

    /// The indices of this type's own arguments at `position`.
    fn arguments_at(&self, position: u32) -> impl Iterator<Item = usize> + '_ {
        self.arguments
            .iter()
            .enumerate()
            .filter(move |(_, a)| a.parent == self.parent && a.position == position)
            .map(|(index, _)| index)
    }
}

impl Resolver<'_> {
    /// `declared` (written in `file`) as a written type, its name a type
    /// use inside the declarations around it.
    pub(super) fn written_declared<'a>(
        &self,
        file: &Arc<FileEntry>,
        declared: &'a DeclaredType,
    ) -> Written<'a> {
        Written {
            reference: self.type_use_at(file, declared),
            arguments: &declared.arguments,
            parent: None,
            members: &declared.members,
        }
    }

    /// The types of `written`'s own type arguments at `position` (in
    /// `file`), resolved under `bindings`: several for a union written
    /// there, none when no argument is.
    fn argument_types(
        &self,
        file: &Arc<FileEntry>,
        written: &Written,
        position: u32,
        bindings: &Bindings,
        depth: usize,
    ) -> Vec<SymbolRef> {
        let Ok(facts) = &file.facts else {
            return Vec::new();
        };
        let mut types = Vec::new();
        for index in written.arguments_at(position) {
            let argument = written.argument(facts, index);
            for ty in self.written_type(file, &argument, bindings, depth) {
                if !types.contains(&ty) {
                    types.push(ty);
                }
            }
        }
        types
    }

    /// The type stated for the declaration (a symbol or a local of
    /// `facts`) whose value is the result of the call `call` names.
    pub(super) fn result_declared_type<'f>(
        &self,
        facts: &'f FileFacts,
        call: u32,
    ) -> Option<&'f DeclaredType> {
        let holder = facts
            .symbol_values
            .iter()
            .find(|v| v.value.reference == call && v.value.called && v.element.is_empty())
            .map(|v| DeclaredTarget::Symbol(v.symbol))
            .or_else(|| {
                facts
                    .locals
                    .iter()
                    .position(|l| {
                        l.value
                            .is_some_and(|v| v.reference == call && v.called && !v.indexed)
                            && l.element.is_empty()
                    })
                    .map(|index| DeclaredTarget::Local(index as u32))
            })?;
        facts.declared_types.iter().find(|d| {
            d.target == holder && d.source == DeclaredTypeSource::Annotation && d.element.is_empty()
        })
    }

    /// The bindings of the type parameters of the generic function
    /// `function` (of `function_file`) that its stated return type names
    /// as its arguments (`make<T>(..): Ctor<T>`), to the arguments at the
    /// same positions of `declared` (written in `file`, `Ctor<Str>`), when
    /// both name the same declaration: TypeScript's inference of a call's
    /// type arguments from the type its result is assigned to.
    pub(super) fn bindings_from_result(
        &self,
        file: &Arc<FileEntry>,
        declared: &DeclaredType,
        function_file: &Arc<FileEntry>,
        function: DeclaredTarget,
        depth: usize,
    ) -> Bindings {
        let mut bindings = Bindings::default();
        let (Ok(function_facts), Some(number)) = (
            &function_file.facts,
            self.table.file_number(&function_file.path),
        ) else {
            return bindings;
        };
        let Some(returned) = function_facts.declared_types.iter().find(|d| {
            d.target == function
                && d.source == DeclaredTypeSource::ReturnType
                && d.element.is_empty()
        }) else {
            return bindings;
        };
        // The same generic declaration on both sides.
        let same = {
            let type_named = |file: &Arc<FileEntry>, declared: &DeclaredType| {
                let found = self.resolve_within(file, &self.type_use_at(file, declared), depth + 1);
                let certain: Vec<&Definition> =
                    found.iter().filter(|d| d.confidence >= 1.0).collect();
                self.one_type(&certain)
            };
            let ours = type_named(file, declared);
            ours.is_some() && ours == type_named(function_file, returned)
        };
        if !same {
            return bindings;
        }
        let declared_written = self.written_declared(file, declared);
        for (index, argument) in returned.arguments.iter().enumerate() {
            // A bare type parameter of the function at a top position.
            if argument.parent.is_some()
                || !argument.type_qualifier.is_empty()
                || !argument.members.is_empty()
                || returned
                    .arguments
                    .iter()
                    .any(|a| a.parent == Some(index as u32))
            {
                continue;
            }
            let Some(local) = self.type_parameter_at(
                function_facts,
                &argument.type_name,
                argument.span.start.offset,
            ) else {
                continue;
            };
            let types = self.argument_types(
                file,
                &declared_written,
                argument.position,
                &Bindings::default(),
                depth,
            );
            if !types.is_empty() {
                bindings.bound.push(((number, local), types));
            }
        }
        bindings
    }

    /// The type parameter a bare type name written in `facts` at `offset`
    /// names: the innermost local of that name in scope there that the
    /// facts state as a generic declaration's type parameter.
    pub(super) fn type_parameter_at(
        &self,
        facts: &FileFacts,
        name: &str,
        offset: u32,
    ) -> Option<usize> {
        facts
            .declared_types
            .iter()
            .filter(|d| d.source == DeclaredTypeSource::TypeParameter && d.type_name == name)
            .filter_map(|d| {
                facts.locals.iter().position(|l| {
                    l.span.start.offset == d.span.start.offset
                        && l.scope.start.offset <= offset
                        && offset < l.scope.end.offset
                })
            })
            .max_by_key(|&index| facts.locals[index].scope.start.offset)
    }

    /// What the type parameter `local` of `file` stands for: the types
    /// `bindings` bind it to, else those of its constraint.
    pub(super) fn type_parameter_types(
        &self,
        file: &Arc<FileEntry>,
        local: usize,
        bindings: &Bindings,
        depth: usize,
    ) -> Vec<SymbolRef> {
        let Some(number) = self.table.file_number(&file.path) else {
            return Vec::new();
        };
        if let Some(bound) = bindings.get((number, local)) {
            return bound.clone();
        }
        let Ok(facts) = &file.facts else {
            return Vec::new();
        };
        let Some(guard) = GenericGuard::enter() else {
            return Vec::new();
        };
        let target = DeclaredTarget::Local(local as u32);
        let mut types = Vec::new();
        for constraint in facts.declared_types.iter().filter(|d| {
            d.target == target && d.source == DeclaredTypeSource::Annotation && d.element.is_empty()
        }) {
            // A constraint is written where its parameter is declared:
            // no parameter of the declaration is bound there yet.
            for ty in self.declared_type_in(file, constraint, &Bindings::default(), depth) {
                if !types.contains(&ty) {
                    types.push(ty);
                }
            }
        }
        guard.answer(types)
    }

    /// The bindings of the type parameters of the generic declaration
    /// `found` names (certainly, one) to the types written as `written`'s
    /// arguments in `file`, those resolved under `outer`; a parameter with
    /// no argument written is bound to its default, if it has one (a type
    /// named without arguments from outside its declaration). Others are
    /// not bound.
    pub(super) fn bindings_for(
        &self,
        found: &[Definition],
        file: &Arc<FileEntry>,
        written: &Written,
        outer: &Bindings,
        depth: usize,
    ) -> Bindings {
        let mut bindings = Bindings::default();
        let Some(Definition {
            target:
                Target::Symbol {
                    file: generic_file,
                    index,
                },
            ..
        }) = self.one_declaration(found)
        else {
            return bindings;
        };
        let (Ok(generic_facts), Some(number)) = (
            &generic_file.facts,
            self.table.file_number(&generic_file.path),
        ) else {
            return bindings;
        };
        let target = DeclaredTarget::Symbol(*index as u32);
        for parameter in generic_facts
            .declared_types
            .iter()
            .filter(|d| d.target == target && d.source == DeclaredTypeSource::TypeParameter)
        {
            let Some(&position) = parameter.element.first() else {
                continue;
            };
            let local = generic_facts
                .locals
                .iter()
                .position(|l| l.span.start.offset == parameter.span.start.offset);
            let Some(local) = local else {
                continue;
            };
            let types = match written.arguments_at(position).next() {
                Some(_) => self.argument_types(file, written, position, outer, depth),
                // The default, written at the declaration, where the
                // parameters before it are bound as they are here.
                None => {
                    let default = self.written_declared(generic_file, parameter);
                    self.argument_types(generic_file, &default, 0, &bindings, depth)
                }
            };
            if !types.is_empty() {
                bindings.bound.push(((number, local), types));
            }
        }
        bindings
    }

    /// The workspace types `written` (in `file`) names: a type parameter's
    /// binding or constraint; through an alias, what it stands for with its
    /// parameters bound to the arguments written (see
    /// [`Self::types_named_in`]).
    pub(super) fn written_type(
        &self,
        file: &Arc<FileEntry>,
        written: &Written,
        bindings: &Bindings,
        depth: usize,
    ) -> Vec<SymbolRef> {
        let types = self.named_written_type(file, written, bindings, depth);
        if written.members.is_empty() || types.is_empty() {
            return types;
        }
        let Some(guard) = GenericGuard::enter() else {
            return Vec::new();
        };
        guard.answer(self.member_types(types, written.members, depth))
    }

    /// The types of the members `members` of `types`, in turn
    /// (`T["_zod"]["def"]`): of each type's member of the first name
    /// (through its supertypes), then of those types' next one. Empty when
    /// one of them has no member of that name with a known type.
    fn member_types(
        &self,
        mut types: Vec<SymbolRef>,
        members: &[Name],
        depth: usize,
    ) -> Vec<SymbolRef> {
        for member in members {
            let mut next = Vec::new();
            for ty in types {
                let found = self.members_named(ty, member);
                if found.is_empty() {
                    return Vec::new();
                }
                for definition in &found {
                    let Target::Symbol { file, index } = &definition.target else {
                        return Vec::new();
                    };
                    let target = DeclaredTarget::Symbol(*index as u32);
                    let member_types = self.type_of_member(file, target, depth);
                    if member_types.is_empty() {
                        return Vec::new();
                    }
                    for t in member_types {
                        if !next.contains(&t) {
                            next.push(t);
                        }
                    }
                }
            }
            types = next;
        }
        types
    }

    /// [`Self::written_type`] before its member path.
    fn named_written_type(
        &self,
        file: &Arc<FileEntry>,
        written: &Written,
        bindings: &Bindings,
        depth: usize,
    ) -> Vec<SymbolRef> {
        let Ok(facts) = &file.facts else {
            return Vec::new();
        };
        let reference = &written.reference;
        if reference.qualifier.is_empty()
            && let Some(local) =
                self.type_parameter_at(facts, reference.name.as_str(), reference.span.start.offset)
        {
            return self.type_parameter_types(file, local, bindings, depth);
        }
        let found = self.resolve_within(file, reference, depth + 1);
        let Some(guard) = GenericGuard::enter() else {
            return Vec::new();
        };
        let inner = self.bindings_for(&found, file, written, bindings, depth);
        guard.answer(self.types_named_in(&found, &inner, depth))
    }
}
