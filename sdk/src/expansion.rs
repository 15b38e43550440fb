//! Code a language's macros make, placed in the file (see [`Expanded`]):
//! each expansion's facts are computed as a document of its own, their
//! spans mapped to the invocation's tokens they came from, and merged with
//! the file's in document order.

use std::collections::HashMap;

use crate::facts::{LocalBinding, SymbolNode};
use crate::text::LineIndex;
use crate::types::{DeclaredTarget, DeclaredType, Import, Reference, Span, Symbol, SymbolValue};

/// Expansions kept per file; an invocation past them is left unexpanded.
pub const MAX_EXPANSIONS: usize = 1024;

/// The code one macro invocation makes, as [`crate::Language::expansions`]
/// returns it.
#[derive(Clone, Debug, Default)]
pub struct Expanded {
    /// The text the grammar parses.
    pub text: String,
    /// The tokens of `text` that are written in the invocation, in order:
    /// their byte range in `text` and in the file.
    pub pieces: Vec<ExpandedPiece>,
    /// The invocation's name in the file (bytes): where what the macro's
    /// definition wrote, not the invocation, is placed.
    pub anchor: (u32, u32),
    /// Whether `text` wraps the expansion in one declaration standing for
    /// the invocation's context (an `impl` block, for an invocation among
    /// associated items). The wrapper is not kept: what it holds belongs to
    /// the file's declaration enclosing the invocation.
    pub wrapped: bool,
}

/// What [`crate::Language::expansions`] makes of a file: the invocations
/// it expanded, and those it left unexpanded with why.
#[derive(Clone, Debug, Default)]
pub struct Expansions {
    pub expanded: Vec<Expanded>,
    pub unexpanded: Vec<Unexpanded>,
}

/// An invocation in declaration position left unexpanded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unexpanded {
    /// The macro's name as written.
    pub name: String,
    /// The invocation's name in the file (bytes).
    pub range: (u32, u32),
    /// The whole invocation (bytes).
    pub extent: (u32, u32),
    pub reason: UnexpandedReason,
}

/// Why an invocation is left unexpanded (the WIT's `unexpanded-macro.reason`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnexpandedReason {
    /// No definition the document sees or was given.
    Undefined,
    /// A form the expander does not read (or no rule of the definition matches).
    Unsupported,
    /// A bound of the expander: nesting depth, output size or steps.
    Budget,
}

impl UnexpandedReason {
    pub fn as_str(self) -> &'static str {
        match self {
            UnexpandedReason::Undefined => "undefined",
            UnexpandedReason::Unsupported => "unsupported",
            UnexpandedReason::Budget => "budget",
        }
    }
}

/// A macro the file defines that other files may invoke, as
/// [`crate::Language::macro_definitions`] returns it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DefinedMacro {
    pub name: String,
    /// The whole definition (bytes of the file).
    pub range: (u32, u32),
    /// Visible outside the file's package.
    pub exported: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExpandedPiece {
    pub start: u32,
    pub end: u32,
    /// Bytes of the file.
    pub origin: (u32, u32),
}

impl Expanded {
    /// The file bytes of `start..end` of `text`: the range covering the
    /// invocation's tokens in it, else the anchor.
    fn place(&self, start: u32, end: u32) -> (u32, u32) {
        let end = end.max(start + 1);
        let first = self.pieces.partition_point(|p| p.end <= start);
        self.pieces[first..]
            .iter()
            .take_while(|p| p.start < end)
            .map(|p| p.origin)
            .reduce(|(s, e), (ps, pe)| (s.min(ps), e.max(pe)))
            .unwrap_or(self.anchor)
    }

    fn span(&self, span: &Span, source: &str, lines: &LineIndex) -> Span {
        let (start, end) = self.place(span.start.offset, span.end.offset);
        lines.span(source, start as usize, end as usize)
    }

    /// The file bytes of the name at `span` of `text` when it is one token
    /// written in the invocation.
    fn written(&self, span: &Span) -> Option<(u32, u32)> {
        let (start, end) = (span.start.offset, span.end.offset);
        let at = self.pieces.partition_point(|p| p.end <= start);
        let piece = self.pieces.get(at)?;
        (piece.start == start && piece.end == end).then_some(piece.origin)
    }

    fn offset(&self, offset: usize) -> usize {
        self.place(offset as u32, offset as u32 + 1).0 as usize
    }
}

/// The facts of one document, as the SDK keeps them before they are
/// handed to the host.
pub(crate) struct Facts {
    pub symbols: Vec<Symbol>,
    pub nodes: Vec<SymbolNode>,
    pub locals: Vec<LocalBinding>,
    pub references: Vec<Reference>,
    pub imports: Vec<Import>,
    /// The types the expansions' declarations state (the file's own are
    /// read from its tree when asked for; its macro invocations are token
    /// trees there, which state none).
    pub declared_types: Vec<DeclaredType>,
    /// The values the expansions' declarations are initialised with (the
    /// file's own likewise read from its tree when asked for).
    pub symbol_values: Vec<SymbolValue>,
}

impl Facts {
    /// Add the facts `expansion` made (computed from its text) to the
    /// file's: spans placed in the file, indices moved past the file's own.
    /// A symbol, local, reference or imported name is kept only where its
    /// name is a token written in the invocation: one the macro's
    /// definition wrote has no text of its own in the file, and a rename
    /// must never edit the invocation's other tokens for it. Call
    /// [`Facts::sort`] after the last expansion.
    pub fn add(&mut self, made: Facts, expansion: &Expanded, source: &str, lines: &LineIndex) {
        let (anchor, _) = expansion.anchor;
        // The file's innermost declaration around the invocation.
        let enclosing = self
            .nodes
            .iter()
            .enumerate()
            .filter(|(_, n)| n.start <= anchor as usize && (anchor as usize) < n.extent_end)
            .min_by_key(|(_, n)| n.extent_end - n.start)
            .map(|(i, _)| i as u32);
        let enclosing_name = enclosing.map(|e| self.symbols[e as usize].name.clone());
        let wrapper = expansion
            .wrapped
            .then(|| made.symbols.iter().position(|s| s.container.is_none()))
            .flatten();
        // Made symbol index -> file index: a kept symbol's own, else the
        // file index its container maps to (containers come first).
        let mut symbol_index: Vec<Option<u32>> = Vec::with_capacity(made.symbols.len());
        // Made symbol index -> file index, for the kept symbols only.
        let mut kept_symbol: Vec<Option<u32>> = Vec::with_capacity(made.symbols.len());
        for (i, (mut symbol, node)) in made.symbols.into_iter().zip(made.nodes).enumerate() {
            let container = match symbol.container {
                Some(c) => symbol_index.get(c as usize).copied().flatten(),
                None => enclosing,
            };
            let name = expansion.written(&symbol.name_span);
            let (Some(name), false) = (name, Some(i) == wrapper) else {
                symbol_index.push(container);
                kept_symbol.push(None);
                continue;
            };
            if container == enclosing {
                symbol.container_name = enclosing_name.clone();
            }
            symbol.container = container;
            symbol.span = expansion.span(&symbol.span, source, lines);
            symbol.name_span = lines.span(source, name.0 as usize, name.1 as usize);
            let (start, extent_end) = (
                symbol.span.start.offset as usize,
                symbol.span.end.offset as usize,
            );
            symbol_index.push(Some(self.symbols.len() as u32));
            kept_symbol.push(Some(self.symbols.len() as u32));
            self.nodes.push(SymbolNode {
                start,
                end: extent_end,
                kind_id: node.kind_id,
                name_start: name.0 as usize,
                extent_end,
                nested_in: container.map(|c| c as usize),
                entry_point: node.entry_point,
            });
            self.symbols.push(symbol);
        }
        let first_local = self.locals.len();
        let mut local_index: Vec<Option<u32>> = Vec::with_capacity(made.locals.len());
        for mut binding in made.locals {
            let Some(name) = expansion.written(&binding.local.span) else {
                local_index.push(None);
                continue;
            };
            local_index.push(Some(self.locals.len() as u32));
            binding.local.span = lines.span(source, name.0 as usize, name.1 as usize);
            binding.local.scope = expansion.span(&binding.local.scope, source, lines);
            binding.start = name.0 as usize;
            binding.visible_from = expansion.offset(binding.visible_from).max(binding.start);
            binding.scope_end = binding.local.scope.end.offset as usize;
            self.locals.push(binding);
        }
        let base = self.references.len() as u32;
        let mut reference_index: Vec<Option<u32>> = Vec::with_capacity(made.references.len());
        let mut kept: Vec<Reference> = Vec::new();
        for mut reference in made.references {
            let Some(name) = expansion.written(&reference.span) else {
                reference_index.push(None);
                continue;
            };
            reference_index.push(Some(base + kept.len() as u32));
            reference.span = lines.span(source, name.0 as usize, name.1 as usize);
            reference.enclosing = match reference.enclosing {
                Some(e) => symbol_index.get(e as usize).copied().flatten(),
                None => enclosing,
            };
            reference.local = reference
                .local
                .and_then(|l| local_index.get(l as usize).copied().flatten());
            kept.push(reference);
        }
        let moved_reference = |index: u32| reference_index.get(index as usize).copied().flatten();
        for mut reference in kept {
            if let Some(receiver) = &mut reference.receiver {
                match moved_reference(receiver.reference) {
                    Some(index) => receiver.reference = index,
                    None => reference.receiver = None,
                }
            }
            self.references.push(reference);
        }
        // A local's value is a reference the expansion made: kept only
        // where that reference is.
        for binding in &mut self.locals[first_local..] {
            let local = &mut binding.local;
            if let Some(value) = &mut local.value {
                match moved_reference(value.reference) {
                    Some(index) => value.reference = index,
                    None => {
                        local.value = None;
                        local.element.clear();
                    }
                }
            }
        }
        for mut declared in made.declared_types {
            let target = match declared.target {
                DeclaredTarget::Symbol(s) => kept_symbol
                    .get(s as usize)
                    .copied()
                    .flatten()
                    .map(DeclaredTarget::Symbol),
                DeclaredTarget::Local(l) => local_index
                    .get(l as usize)
                    .copied()
                    .flatten()
                    .map(DeclaredTarget::Local),
            };
            let (Some(target), Some(name)) = (target, expansion.written(&declared.span)) else {
                continue;
            };
            declared.target = target;
            declared.span = lines.span(source, name.0 as usize, name.1 as usize);
            self.declared_types.push(declared);
        }
        for mut value in made.symbol_values {
            let symbol = kept_symbol.get(value.symbol as usize).copied().flatten();
            let (Some(symbol), Some(reference)) = (symbol, moved_reference(value.value.reference))
            else {
                continue;
            };
            value.symbol = symbol;
            value.value.reference = reference;
            self.symbol_values.push(value);
        }
        for mut import in made.imports {
            let named = !import.names.is_empty();
            import
                .names
                .retain_mut(|name| match expansion.written(&name.span) {
                    Some((start, end)) => {
                        name.span = lines.span(source, start as usize, end as usize);
                        true
                    }
                    None => false,
                });
            // Every name it imported was the definition's.
            if named && import.names.is_empty() {
                continue;
            }
            import.span = expansion.span(&import.span, source, lines);
            self.imports.push(import);
        }
    }

    /// Drop the file's own references inside the invocations `expanded`
    /// (the grammar's reading of their token trees, which their expansions
    /// replace), every index that points at references moved along. Call it
    /// before [`Facts::add`]; `by_tagged` holds reference indices.
    pub fn drop_replaced(
        &mut self,
        expanded: &[Expanded],
        by_tagged: &mut HashMap<(usize, usize), u32>,
    ) {
        let mut ranges: Vec<(u32, u32)> = expanded
            .iter()
            .filter_map(|e| {
                let start = e.pieces.iter().map(|p| p.origin.0).min()?;
                let end = e.pieces.iter().map(|p| p.origin.1).max()?;
                Some((start, end))
            })
            .collect();
        ranges.sort_unstable();
        let replaced = |offset: u32| {
            let at = ranges.partition_point(|r| r.0 <= offset);
            at > 0 && offset < ranges[at - 1].1
        };
        let mut new_index: Vec<Option<u32>> = Vec::with_capacity(self.references.len());
        let mut kept = 0u32;
        for reference in &self.references {
            if replaced(reference.span.start.offset) {
                new_index.push(None);
            } else {
                new_index.push(Some(kept));
                kept += 1;
            }
        }
        if kept as usize == self.references.len() {
            return;
        }
        let mut index = 0;
        self.references.retain(|_| {
            index += 1;
            new_index[index - 1].is_some()
        });
        for reference in &mut self.references {
            if let Some(receiver) = &mut reference.receiver {
                match new_index
                    .get(receiver.reference as usize)
                    .copied()
                    .flatten()
                {
                    Some(moved) => receiver.reference = moved,
                    None => reference.receiver = None,
                }
            }
        }
        by_tagged.retain(
            |_, index| match new_index.get(*index as usize).copied().flatten() {
                Some(moved) => {
                    *index = moved;
                    true
                }
                None => false,
            },
        );
    }

    /// Symbols, locals and references in document order again, every index
    /// that points at them moved along; `by_tagged` holds reference indices.
    pub fn sort(&mut self, by_tagged: &mut HashMap<(usize, usize), u32>) {
        let symbols = order(&self.symbols, |s| {
            (s.span.start.offset, u32::MAX - s.span.end.offset)
        });
        permute(&mut self.symbols, &symbols);
        permute(&mut self.nodes, &symbols);
        let moved = |old: &mut Option<u32>| *old = old.map(|i| symbols[i as usize]);
        for symbol in &mut self.symbols {
            moved(&mut symbol.container);
        }
        for node in &mut self.nodes {
            node.nested_in = node.nested_in.map(|i| symbols[i] as usize);
        }
        let locals = order(&self.locals, |l| (l.start as u32, 0));
        permute(&mut self.locals, &locals);
        let references = order(&self.references, |r| (r.span.start.offset, 0));
        permute(&mut self.references, &references);
        for reference in &mut self.references {
            moved(&mut reference.enclosing);
            reference.local = reference.local.map(|l| locals[l as usize]);
            if let Some(receiver) = &mut reference.receiver {
                receiver.reference = references[receiver.reference as usize];
            }
        }
        for binding in &mut self.locals {
            if let Some(value) = &mut binding.local.value {
                value.reference = references[value.reference as usize];
            }
        }
        for declared in &mut self.declared_types {
            declared.target = match declared.target {
                DeclaredTarget::Symbol(s) => DeclaredTarget::Symbol(symbols[s as usize]),
                DeclaredTarget::Local(l) => DeclaredTarget::Local(locals[l as usize]),
            };
        }
        for value in &mut self.symbol_values {
            value.symbol = symbols[value.symbol as usize];
            value.value.reference = references[value.value.reference as usize];
        }
        for index in by_tagged.values_mut() {
            *index = references[*index as usize];
        }
    }
}

/// For each item of `items`, its position once sorted (stably) by `key`.
fn order<T>(items: &[T], key: impl Fn(&T) -> (u32, u32)) -> Vec<u32> {
    let mut by_key: Vec<usize> = (0..items.len()).collect();
    by_key.sort_by_key(|&i| key(&items[i]));
    let mut position = vec![0u32; items.len()];
    for (new, old) in by_key.into_iter().enumerate() {
        position[old] = new as u32;
    }
    position
}

/// Move each item to its position in `position`.
fn permute<T>(items: &mut Vec<T>, position: &[u32]) {
    let mut slots: Vec<Option<T>> = std::mem::take(items).into_iter().map(Some).collect();
    let mut sorted: Vec<Option<T>> = (0..slots.len()).map(|_| None).collect();
    for (old, slot) in slots.iter_mut().enumerate() {
        sorted[position[old] as usize] = slot.take();
    }
    items.extend(sorted.into_iter().flatten());
}
