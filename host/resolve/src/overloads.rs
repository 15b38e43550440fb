//! Overloads told apart by the types of a call's arguments, by the
//! plugins' parameter lists, call arguments and conversion rules.
//!
//! An overload is dropped only when an argument's type is known and
//! provably does not pass for its parameter's: both built-in types the
//! rules list and not kin (a constant may pass for a narrower kin, as
//! C#'s `1` for `byte`: such an overload stays, behind any identity), or
//! declared types of the workspace whose supertypes are
//! all known, in a language whose rules are nominal, with no conversion
//! operator declared on either. Among those left, one whose every
//! argument passes at least as well and one better is better; the
//! overloads no other is better than are kept. An argument passes better
//! for a parameter when it passes more directly (identity, then widening
//! or a supertype, then a top type) or, both by a widening, when the
//! parameter's type passes for the other's and not the other way round
//! (`int` for `long` rather than for `double`; a class for its base
//! class): the better conversion target of C# and the most specific
//! method of Java. Where types are nominal, an identity is better than a
//! parameter of unknown type. Anything unknown keeps an overload and compares with
//! none, so a wrong type guess can only leave an answer less certain.

use std::sync::Arc;

use super::{Definition, MAX_RECEIVER_DEPTH, Resolver, SymbolRef, Target, target_symbol};
use lingo_index::FileEntry;
use lingo_model::{
    ArgumentValue, ConversionRules, DeclaredTarget, DeclaredTypeSource, FileFacts, NamedType,
    ParameterType, Reference, SymbolKind,
};

/// A type an argument has or a parameter declares, as the rules compare it.
#[derive(Clone, PartialEq, Eq)]
enum Compared {
    /// A built-in type by the language's name for it.
    BuiltIn(String),
    /// A type declared in the workspace.
    Declared(SymbolRef),
    /// A type by a name no declaration of the workspace has, nor an
    /// import or type parameter binds where it is written: a library's,
    /// which can be no workspace type and none of their subtypes.
    External(String),
    Unknown,
}

/// How directly an argument passes for a parameter, most direct first.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Fit {
    Identity,
    /// A widening of a built-in type, or a supertype.
    Widening,
    /// A type every value passes for.
    Top,
}

/// What comparing one argument with one parameter proves.
#[derive(Clone, PartialEq, Eq)]
enum Match {
    /// It passes, this directly, for the parameter's type.
    Fits(Fit, Compared),
    Fails,
    /// A built-in type the argument's does not widen to, but one of its
    /// kin (they widen to a common type): a constant may still pass for it
    /// (C#'s `1` for `byte`), which the rules do not state. Worse than an
    /// identity, and compared with nothing else.
    IfConstant(Compared),
    /// Nothing; the parameter's type, for telling equal parameters apart.
    Unknown(Compared),
}

impl Resolver<'_> {
    /// Among the declarations `candidates` (overloads that all fit the
    /// argument count of the call `call` of `file`), those its arguments'
    /// types leave: all of them when nothing is known.
    pub fn overloads_left(
        &self,
        file: &Arc<FileEntry>,
        call: u32,
        candidates: &[SymbolRef],
    ) -> Vec<SymbolRef> {
        let Ok(facts) = &file.facts else {
            return candidates.to_vec();
        };
        let Some(reference) = facts.references.get(call as usize) else {
            return candidates.to_vec();
        };
        let definitions: Vec<Definition> = candidates
            .iter()
            .map(|r| self.certain_at(*r, super::Resolution::Scope))
            .collect();
        self.by_argument_types(file, facts, reference, definitions)
            .iter()
            .filter_map(|d| self.symbol_ref(d))
            .collect()
    }

    /// Among `candidates` of the call `reference` (overloads that all fit
    /// its argument count), those its arguments' types leave (see the
    /// module's doc); all of them when nothing is known.
    pub(super) fn by_argument_types(
        &self,
        file: &Arc<FileEntry>,
        facts: &FileFacts,
        reference: &Reference,
        candidates: Vec<Definition>,
    ) -> Vec<Definition> {
        let rules = &file.plugin.info().policy.conversions;
        let Some(call) = index_in(&facts.references, reference) else {
            return candidates;
        };
        let Ok(at) = facts.call_arguments.binary_search_by_key(&call, |c| c.call) else {
            return candidates;
        };
        let arguments: Vec<Compared> = facts.call_arguments[at]
            .values
            .iter()
            .map(|value| self.argument_type(file, facts, value, rules))
            .collect();
        if arguments.iter().all(|a| *a == Compared::Unknown) {
            return candidates;
        }
        let matches: Vec<Option<Vec<Match>>> = candidates
            .iter()
            .map(|candidate| self.parameter_matches(candidate, &arguments, rules))
            .collect();
        let applicable: Vec<usize> = (0..candidates.len())
            .filter(|&i| {
                matches[i]
                    .as_ref()
                    .is_none_or(|m| !m.contains(&Match::Fails))
            })
            .collect();
        // None applies: what the facts say is off somewhere (a conversion
        // the rules do not list); nothing is dropped.
        if applicable.is_empty() {
            return candidates;
        }
        applicable
            .iter()
            .filter(|&&i| {
                !applicable
                    .iter()
                    .any(|&j| j != i && self.better(&matches[j], &matches[i], rules))
            })
            .map(|&i| candidates[i].clone())
            .collect()
    }

    /// The type of one argument: a built-in one the plugin names, or the
    /// one workspace type of the value another reference names.
    fn argument_type(
        &self,
        file: &Arc<FileEntry>,
        facts: &FileFacts,
        value: &ArgumentValue,
        rules: &ConversionRules,
    ) -> Compared {
        match value {
            ArgumentValue::BuiltIn(name) if rules.is_built_in(name) => {
                Compared::BuiltIn(name.clone())
            }
            ArgumentValue::Value(receiver) => {
                let Some(named) = facts.references.get(receiver.reference as usize) else {
                    return Compared::Unknown;
                };
                match self.type_of_value(file, named, *receiver).as_slice() {
                    [one] if self.table.symbol(*one).kind != SymbolKind::TypeParameter => {
                        Compared::Declared(*one)
                    }
                    [] => self.stated_type(file, named, *receiver, rules),
                    _ => Compared::Unknown,
                }
            }
            _ => Compared::Unknown,
        }
    }

    /// The type the source states for what `receiver` reaches through
    /// `value` (a field, property or variable: `uint Length`; `called`,
    /// what calling it returns; `indexed`, one element of it) when it
    /// names one declaration certainly and that type is no workspace
    /// type: a built-in one, or a library's ([`Compared::External`]).
    fn stated_type(
        &self,
        file: &Arc<FileEntry>,
        value: &Reference,
        receiver: lingo_model::Receiver,
        rules: &ConversionRules,
    ) -> Compared {
        let (called, indexed) = (receiver.called, receiver.indexed);
        let found = self.resolve_within(file, value, MAX_RECEIVER_DEPTH - 1);
        let [one] = found.as_slice() else {
            return Compared::Unknown;
        };
        if one.confidence < 1.0 || (called && indexed) {
            return Compared::Unknown;
        }
        let (owner, target) = match &one.target {
            Target::Symbol { file, index } => (file, DeclaredTarget::Symbol(*index as u32)),
            Target::Local { file, index } if !called => {
                (file, DeclaredTarget::Local(*index as u32))
            }
            Target::Local { .. } => return Compared::Unknown,
        };
        let wanted = if indexed {
            DeclaredTypeSource::Element
        } else if called {
            DeclaredTypeSource::ReturnType
        } else {
            DeclaredTypeSource::Annotation
        };
        let Ok(owner_facts) = owner.facts.as_ref() else {
            return Compared::Unknown;
        };
        let Some(stated) = owner_facts.declared_types.iter().find(|d| {
            d.target == target
                && d.source == wanted
                && d.element.is_empty()
                && d.type_qualifier.is_empty()
        }) else {
            return Compared::Unknown;
        };
        if rules.is_built_in(&stated.type_name) {
            return Compared::BuiltIn(stated.type_name.to_string());
        }
        self.external(
            owner,
            owner_facts,
            &stated.type_use(),
            stated.span.start.offset,
        )
    }

    /// The library type `type_use` (written in `file` at `offset`, no
    /// path before it) names: [`Compared::External`] when no type (nor
    /// alias, namespace or module) of the workspace has its name and no
    /// import or type parameter there binds it; unknown otherwise.
    fn external(
        &self,
        file: &Arc<FileEntry>,
        facts: &FileFacts,
        type_use: &Reference,
        offset: u32,
    ) -> Compared {
        let name = type_use.name.as_str();
        let declared_in_workspace = self.table.named(name).iter().any(|r| {
            let kind = self.table.symbol(*r).kind;
            super::is_type_kind(kind)
                || matches!(
                    kind,
                    SymbolKind::TypeParameter
                        | SymbolKind::Namespace
                        | SymbolKind::Module
                        | SymbolKind::Package
                )
        });
        if !type_use.qualifier.is_empty() || declared_in_workspace || super::binds(facts, name) {
            return Compared::Unknown;
        }
        let mut type_use = type_use.clone();
        type_use.enclosing = super::enclosing_symbol_at(facts, offset);
        if self
            .resolve_within(file, &type_use, MAX_RECEIVER_DEPTH - 1)
            .iter()
            .any(|d| d.resolution != super::Resolution::NameOnly)
        {
            // A type parameter, or anything else it names (not a guess by
            // name: a member of that name is no type).
            return Compared::Unknown;
        }
        Compared::External(name.to_string())
    }

    /// How each argument passes for the parameter of `candidate` at its
    /// position; `None` when the candidate's parameters are not stated.
    fn parameter_matches(
        &self,
        candidate: &Definition,
        arguments: &[Compared],
        rules: &ConversionRules,
    ) -> Option<Vec<Match>> {
        let Target::Symbol { file, index } = &candidate.target else {
            return None;
        };
        let facts = file.facts.as_ref().ok()?;
        let at = facts
            .parameter_lists
            .binary_search_by_key(&(*index as u32), |l| l.function)
            .ok()?;
        let parameters = &facts.parameter_lists[at].types;
        Some(
            arguments
                .iter()
                .enumerate()
                .map(|(position, argument)| {
                    let parameter = match parameters.get(position) {
                        Some(ParameterType::BuiltIn(name)) if rules.is_built_in(name) => {
                            Compared::BuiltIn(name.clone())
                        }
                        Some(ParameterType::Named(named)) => self.named_type(file, named),
                        _ => Compared::Unknown,
                    };
                    self.compare(argument, parameter, rules)
                })
                .collect(),
        )
    }

    /// The one workspace type `named` (written in `file`) names; unknown
    /// when it names none (a library's type) or a type parameter.
    fn named_type(&self, file: &Arc<FileEntry>, named: &NamedType) -> Compared {
        let mut type_use = named.type_use();
        if let Ok(facts) = &file.facts {
            type_use.enclosing = super::enclosing_symbol_at(facts, named.span.start.offset);
        }
        let found = self.resolve_within(file, &type_use, MAX_RECEIVER_DEPTH - 1);
        let certain: Vec<&Definition> = found.iter().filter(|d| d.confidence >= 1.0).collect();
        match (certain.as_slice(), &file.facts) {
            ([one], _) if target_symbol(one).is_some_and(|s| super::is_type_kind(s.kind)) => self
                .symbol_ref(one)
                .map_or(Compared::Unknown, Compared::Declared),
            ([], Ok(facts))
                if found
                    .iter()
                    .all(|d| d.resolution == super::Resolution::NameOnly) =>
            {
                self.external(file, facts, &type_use, named.span.start.offset)
            }
            _ => Compared::Unknown,
        }
    }

    /// What an argument of type `argument` proves about a parameter of
    /// type `parameter`.
    fn compare(&self, argument: &Compared, parameter: Compared, rules: &ConversionRules) -> Match {
        use Compared::{BuiltIn, Declared, External, Unknown};
        let unknown = |parameter| Match::Unknown(parameter);
        let fits = |fit, parameter| Match::Fits(fit, parameter);
        match (argument, &parameter) {
            (_, BuiltIn(p)) if rules.top_types.contains(p) => fits(Fit::Top, parameter),
            (Unknown, _) | (_, Unknown) => unknown(parameter),
            (BuiltIn(a), BuiltIn(p)) if a == p => fits(Fit::Identity, parameter),
            (BuiltIn(a), BuiltIn(p)) if rules.widens(a, p) => fits(Fit::Widening, parameter),
            (BuiltIn(a), BuiltIn(p)) if kin(a, p, rules) => Match::IfConstant(parameter),
            (BuiltIn(_), BuiltIn(_)) => Match::Fails,
            (External(a), External(p)) if a == p => fits(Fit::Identity, parameter),
            // A library's type is no workspace type nor a subtype of one;
            // only a conversion operator the parameter's type declares
            // takes it.
            (External(_), Declared(p)) => {
                if rules.nominal && !self.declares_conversion(*p) {
                    Match::Fails
                } else {
                    unknown(parameter)
                }
            }
            // Library types among themselves, and with built-in and
            // workspace types the other way round (a workspace class may
            // derive from a library's; `Int32` is `int`): not known.
            (External(_), _) | (_, External(_)) => unknown(parameter),
            (Declared(a), Declared(p)) => {
                if self.parts_of(*a).contains(p) {
                    fits(Fit::Identity, parameter)
                } else if self.all_supertypes(*a).contains(p) {
                    fits(Fit::Widening, parameter)
                } else if rules.nominal
                    && self.supertypes_are_known(*a)
                    && !self.declares_conversion(*a)
                    && !self.declares_conversion(*p)
                {
                    Match::Fails
                } else {
                    unknown(parameter)
                }
            }
            // A literal or built-in value for a declared type: only an
            // enumeration (C#'s `0`) or a conversion operator takes one.
            (BuiltIn(_), Declared(p)) => {
                if rules.nominal
                    && self.table.symbol(*p).kind != SymbolKind::Enum
                    && !self.declares_conversion(*p)
                {
                    Match::Fails
                } else {
                    unknown(parameter)
                }
            }
            (Declared(a), BuiltIn(_)) => {
                if rules.nominal && !self.declares_conversion(*a) {
                    Match::Fails
                } else {
                    unknown(parameter)
                }
            }
        }
    }

    /// Whether the argument comparisons `a` make an overload better than the
    /// one `b` describes: every argument passes at least as well, one
    /// better (see the module's doc). Arguments whose parameters are the
    /// same type are equal whatever is known of them.
    fn better(
        &self,
        a: &Option<Vec<Match>>,
        b: &Option<Vec<Match>>,
        rules: &ConversionRules,
    ) -> bool {
        let (Some(a), Some(b)) = (a, b) else {
            return false;
        };
        let mut strictly = false;
        for (x, y) in a.iter().zip(b) {
            match (x, y) {
                (Match::Fits(x, p), Match::Fits(y, q)) => {
                    if x > y {
                        return false;
                    }
                    if x < y {
                        strictly = true;
                    } else if *x == Fit::Widening && p != q {
                        match (self.passes_for(p, q, rules), self.passes_for(q, p, rules)) {
                            (true, false) => strictly = true,
                            (false, true) => return false,
                            // Neither target is better: equal here.
                            _ => {}
                        }
                    }
                }
                // An identity beats any conversion a constant may have.
                (Match::Fits(Fit::Identity, _), Match::IfConstant(_)) => strictly = true,
                // And, where types are nominal, whatever an unknown
                // parameter type is: another type the value converts to, a
                // type parameter (a non-generic method wins), an array or
                // varargs taking it only in expanded form.
                (Match::Fits(Fit::Identity, _), Match::Unknown(_)) if rules.nominal => {
                    strictly = true;
                }
                (Match::IfConstant(p), Match::IfConstant(q)) if p == q => {}
                (Match::Unknown(p), Match::Unknown(q)) if *p != Compared::Unknown && p == q => {}
                _ => return false,
            }
        }
        strictly
    }

    /// Whether a value of the type `from` passes for the type `to` by a
    /// widening or as a subtype (both known; not identity, not a top type).
    fn passes_for(&self, from: &Compared, to: &Compared, rules: &ConversionRules) -> bool {
        match (from, to) {
            (Compared::BuiltIn(from), Compared::BuiltIn(to)) => rules.widens(from, to),
            (Compared::Declared(from), Compared::Declared(to)) => {
                self.all_supertypes(*from).contains(to)
            }
            _ => false,
        }
    }

    /// Whether the type `ty` (in any of its parts) declares an operator
    /// that may convert its values to or from other types: one named by a
    /// word (the type it converts to, `operator uint`), not by the symbol
    /// of an operation (`operator ==`, `operator +`).
    fn declares_conversion(&self, ty: SymbolRef) -> bool {
        self.parts_of(ty).iter().any(|part| {
            let Ok(facts) = &self.table.file(*part).facts else {
                return true;
            };
            facts.symbols.iter().any(|s| {
                s.container == Some(part.symbol)
                    && s.kind == SymbolKind::Operator
                    && s.name
                        .chars()
                        .next()
                        .is_none_or(|c| c.is_alphabetic() || c == '_')
            })
        })
    }
}

/// Whether the built-in types `a` and `b` are kin: one widens to the
/// other, or both widen to a third (`int` and `uint` to `long`).
fn kin(a: &str, b: &str, rules: &ConversionRules) -> bool {
    let targets = |ty: &str| -> Vec<&str> {
        rules
            .widening
            .iter()
            .filter(|(from, _)| from == ty)
            .flat_map(|(_, to)| to.iter().map(String::as_str))
            .collect()
    };
    let (of_a, of_b) = (targets(a), targets(b));
    of_b.contains(&a) || of_a.contains(&b) || of_a.iter().any(|t| of_b.contains(t))
}

/// The index of `reference` in `references` when it is one of them (not a
/// copy): calls are looked up by index, and a reference made for a lookup
/// is no call with arguments.
pub(super) fn index_in(references: &[Reference], reference: &Reference) -> Option<u32> {
    let range = references.as_ptr_range();
    let at = reference as *const Reference;
    if !range.contains(&at) {
        return None;
    }
    let offset = (at as usize - range.start as usize) / std::mem::size_of::<Reference>();
    u32::try_from(offset).ok()
}
