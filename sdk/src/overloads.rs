//! The facts that tell overloads apart by argument types: each function's
//! parameter types (`document.parameter-lists`) and what each call passes
//! (`document.call-arguments`), from the language's [`OverloadTypes`] hook.

use std::collections::HashMap;

use tree_sitter::Node;

use crate::facts::{LinkedReferences, LocalBinding, SymbolNode, unwrapped};
use crate::metrics::find_node;
use crate::types::{
    ArgumentValue, CallArguments, ParameterList, ParameterType, Receiver, ReferenceKind, Symbol,
    SymbolKind,
};
use crate::{Language, LineIndex};

/// How a language's overloads are told apart by argument types: what
/// [`Language::OVERLOAD_TYPES`] holds. Without it the plugin reports no
/// parameter or argument types, and the host tells overloads apart by
/// their arity alone.
#[derive(Clone, Copy)]
pub struct OverloadTypes {
    /// The parameter types of the function, method or constructor whose
    /// declaration is `node`, one per argument a call passes (an extension
    /// method's `this` parameter left out); `None` where the plugin cannot
    /// tell. A `params`/varargs parameter is [`ParameterType::Other`].
    pub parameter_types:
        fn(node: Node, source: &str, lines: &LineIndex) -> Option<Vec<ParameterType>>,
    /// The argument expressions of `call` (the node a `@reference.call`
    /// pattern tags), by position; `None` when one is passed by name or
    /// spread, or the call has no argument list.
    pub argument_nodes: for<'t> fn(call: Node<'t>) -> Option<Vec<Node<'t>>>,
    /// What `argument` (wrappers looked through) is when it is a literal:
    /// [`ArgumentValue::BuiltIn`] with its type's name, or
    /// [`ArgumentValue::Null`]; `None` for anything else.
    pub literal: fn(argument: Node, source: &str) -> Option<ArgumentValue>,
    /// The built-in type the source declares for the local or parameter
    /// whose name is `name`, by the language's name for it; `None` when it
    /// declares another type or none.
    pub declared_built_in: fn(name: Node, source: &str) -> Option<String>,
    /// For a cast of a value to a named type (`(ObjectPath)value`), the
    /// node of the type as written, whose reference then names the
    /// argument's type; `None` for anything else (a cast to a built-in
    /// type is a [`OverloadTypes::literal`]).
    pub cast_type: for<'t> fn(argument: Node<'t>) -> Option<Node<'t>>,
}

/// The parameter lists of the document's functions, methods and
/// constructors that state an arity (the ones whose overloads calls tell
/// apart).
pub fn parameter_lists(
    hooks: &OverloadTypes,
    root: Node,
    source: &str,
    lines: &LineIndex,
    symbols: &[Symbol],
    nodes: &[SymbolNode],
) -> Vec<ParameterList> {
    let mut out = Vec::new();
    for (index, (symbol, at)) in symbols.iter().zip(nodes).enumerate() {
        let function_like = matches!(
            symbol.kind,
            SymbolKind::Function | SymbolKind::Method | SymbolKind::Constructor
        );
        if !function_like || symbol.arity.is_none() {
            continue;
        }
        let Some(node) = find_node(root, at) else {
            continue;
        };
        if let Some(types) = (hooks.parameter_types)(node, source, lines) {
            out.push(ParameterList {
                function: index as u32,
                types,
            });
        }
    }
    out
}

/// The arguments of the document's calls whose argument count is known
/// and whose arguments are all passed by position.
pub fn call_arguments<L: Language>(
    hooks: &OverloadTypes,
    root: Node,
    source: &str,
    linked: &LinkedReferences,
    locals: &[LocalBinding],
) -> Vec<CallArguments> {
    let mut reader = ArgumentReader {
        hooks,
        root,
        source,
        linked,
        locals,
        type_names: None,
    };
    let mut out = Vec::new();
    for (&(start, end), &index) in &linked.by_tagged {
        let Some(reference) = linked.references.get(index as usize) else {
            continue;
        };
        let Some(count) = reference.arguments else {
            continue;
        };
        if reference.kind != ReferenceKind::Call || count == 0 {
            continue;
        }
        // The tagged node is the call itself: nothing smaller spans it.
        let Some(call) = root
            .descendant_for_byte_range(start, end)
            .filter(|n| n.start_byte() == start && n.end_byte() == end)
        else {
            continue;
        };
        let Some(arguments) = (hooks.argument_nodes)(call) else {
            continue;
        };
        if arguments.len() != count as usize {
            continue;
        }
        let values = arguments
            .into_iter()
            .map(|argument| reader.value::<L>(argument, index))
            .collect();
        out.push(CallArguments {
            call: index,
            values,
        });
    }
    out.sort_by_key(|c| c.call);
    out
}

/// What a document's call arguments are, from its tree and references.
struct ArgumentReader<'a, 't> {
    hooks: &'a OverloadTypes,
    root: Node<'t>,
    source: &'a str,
    linked: &'a LinkedReferences,
    locals: &'a [LocalBinding],
    /// Type references by the span of their name, built at the first cast
    /// to a named type (a query may tag the cast around the type's name).
    type_names: Option<HashMap<(usize, usize), u32>>,
}

impl ArgumentReader<'_, '_> {
    /// What one argument of the call `call` is: a literal, a local or
    /// parameter declared with a built-in type, the value another
    /// reference names, or unknown.
    fn value<L: Language>(&mut self, argument: Node, call: u32) -> ArgumentValue {
        let (hooks, linked, source) = (self.hooks, self.linked, self.source);
        let argument = match unwrapped::<L>(argument, source) {
            // `xs[i]`: its value is read below, from the whole argument.
            crate::facts::Unwrapped {
                indexed: true,
                node: _,
            } => argument,
            crate::facts::Unwrapped { node, .. } => node,
        };
        if let Some(literal) = (hooks.literal)(argument, source) {
            return literal;
        }
        if let Some(ty) = (hooks.cast_type)(argument) {
            // A value of the type cast to: the type's reference names it
            // (the host takes a reference to a type as a value of it). Not
            // the operand's type, which the cast changes.
            return self
                .type_named((ty.start_byte(), ty.end_byte()))
                .map_or(ArgumentValue::Unknown, ArgumentValue::Value);
        }
        let Some(value) = linked
            .value_of::<L>(argument, source)
            .filter(|v| v.reference != call)
        else {
            return ArgumentValue::Unknown;
        };
        let built_in = linked
            .references
            .get(value.reference as usize)
            .filter(|_| !value.called)
            .and_then(|r| r.local)
            .and_then(|l| self.locals.get(l as usize))
            .and_then(|binding| {
                let end = binding.local.span.end.offset as usize;
                self.root
                    .descendant_for_byte_range(binding.start, end)
                    .filter(|n| n.start_byte() == binding.start && n.end_byte() == end)
            })
            .and_then(|name| (hooks.declared_built_in)(name, source));
        match built_in {
            Some(name) => ArgumentValue::BuiltIn(name),
            None => ArgumentValue::Value(value),
        }
    }

    /// The type reference tagged, or named, exactly at `range`.
    fn type_named(&mut self, range: (usize, usize)) -> Option<Receiver> {
        let linked = self.linked;
        if let Some(tagged) = linked.at(range).filter(|r| !r.called) {
            return Some(tagged);
        }
        let type_names = self.type_names.get_or_insert_with(|| {
            (linked.references.iter().enumerate())
                .filter(|(_, r)| r.kind == ReferenceKind::Type)
                .map(|(i, r)| {
                    let span = (r.span.start.offset as usize, r.span.end.offset as usize);
                    (span, i as u32)
                })
                .collect()
        });
        Some(Receiver {
            reference: *type_names.get(&range)?,
            called: false,
            indexed: false,
        })
    }
}
