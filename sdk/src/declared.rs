//! Building blocks of a plugin's `declared_types` hook: which declaration
//! a name node declares, a type as written, a preorder walk that does not
//! recurse on the tree's depth, and a one-line description for tests.

use std::collections::HashMap;

use tree_sitter::Node;

use crate::{Document, Language, LineIndex};

use crate::bindings::exports::lingo::plugin::syntax::GuestDocument;
use crate::types::{DeclaredTarget, DeclaredType, DeclaredTypeSource, Local, Symbol, TypeArgument};

/// The document's declarations by where their name starts.
pub struct Targets {
    symbol_at: HashMap<u32, u32>,
    local_at: HashMap<u32, u32>,
}

impl Targets {
    /// Index `symbols` by name start and `locals` by span start (the
    /// document's facts, in the order the host receives them).
    pub fn new(symbols: &[Symbol], locals: &[Local]) -> Self {
        Targets {
            symbol_at: symbols
                .iter()
                .enumerate()
                .map(|(i, s)| (s.name_span.start.offset, i as u32))
                .collect(),
            local_at: locals
                .iter()
                .enumerate()
                .map(|(i, l)| (l.span.start.offset, i as u32))
                .collect(),
        }
    }

    /// The symbol whose name is `name`.
    pub fn symbol(&self, name: Node) -> Option<DeclaredTarget> {
        self.symbol_at
            .get(&(name.start_byte() as u32))
            .map(|&i| DeclaredTarget::Symbol(i))
    }

    /// The local whose name is `name`.
    pub fn local(&self, name: Node) -> Option<DeclaredTarget> {
        self.local_at
            .get(&(name.start_byte() as u32))
            .map(|&i| DeclaredTarget::Local(i))
    }
}

/// A named type as written: its name node and the path before it,
/// outermost first.
#[derive(Clone)]
pub struct Written<'t> {
    pub name: Node<'t>,
    pub qualifier: Vec<String>,
}

impl Written<'_> {
    /// The declared type of `target` this written type states.
    pub fn declared(
        self,
        target: DeclaredTarget,
        source_text: &str,
        lines: &LineIndex,
        source: DeclaredTypeSource,
    ) -> DeclaredType {
        let name = self.name;
        DeclaredType {
            target,
            type_name: source_text[name.byte_range()].to_string(),
            type_qualifier: self.qualifier,
            span: lines.span(source_text, name.start_byte(), name.end_byte()),
            source,
            element: Vec::new(),
            arguments: Vec::new(),
            members: Vec::new(),
        }
    }
}

/// Call `visit` on every node under `root` (itself included) in preorder,
/// with a cursor: deeply nested code cannot overflow the component's stack.
pub fn preorder<'t>(root: Node<'t>, mut visit: impl FnMut(Node<'t>)) {
    crate::walk::walk_entering(root, |node| {
        visit(node);
        true
    });
}

/// A preorder walk under `root` that visits only the nodes holding the
/// name of one of `symbols` or `locals` (see [`crate::walk`]). For a hook
/// whose every type is found at a node holding its target's name (a
/// parameter holds its pattern, a field its name), it finds what
/// [`preorder`] finds, and skips most expressions.
pub fn preorder_over_targets<'t>(
    root: Node<'t>,
    symbols: &[Symbol],
    locals: &[Local],
    mut visit: impl FnMut(Node<'t>),
) {
    let names = symbols
        .iter()
        .map(|s| s.name_span.start.offset as usize)
        .chain(locals.iter().map(|l| l.span.start.offset as usize))
        .collect();
    crate::walk::walk_holding(root, &crate::walk::Occurrences::at(names), |node| {
        visit(node);
        true
    });
}

/// One line per declared type of `document`, `target: Type.Path source`,
/// then the tuple element when it is one (`[0]`) (the path joined with `separator`; the target as `symbol X` or `local X`
/// when `label_targets`), for plugins' tests. Panics when a type's span
/// does not hold its name in `source`.
pub fn describe_declared_types<L: Language>(
    document: &Document<L>,
    source: &str,
    separator: &str,
    label_targets: bool,
) -> Vec<String> {
    let (symbols, locals) = (document.symbols(), document.locals());
    document
        .declared_types()
        .iter()
        .map(|d| {
            let target = match (d.target, label_targets) {
                (DeclaredTarget::Symbol(i), false) => symbols[i as usize].name.clone(),
                (DeclaredTarget::Local(i), false) => locals[i as usize].name.clone(),
                (DeclaredTarget::Symbol(i), true) => format!("symbol {}", symbols[i as usize].name),
                (DeclaredTarget::Local(i), true) => format!("local {}", locals[i as usize].name),
            };
            let (start, end) = (d.span.start.offset as usize, d.span.end.offset as usize);
            assert_eq!(&source[start..end], d.type_name, "span of {d:?}");
            let mut ty = d.type_qualifier.clone();
            ty.push(d.type_name.clone());
            let members: String = d.members.iter().map(|m| format!("[{m:?}]")).collect();
            let how = match d.source {
                DeclaredTypeSource::Annotation => "annotation",
                DeclaredTypeSource::Constructor => "constructor",
                DeclaredTypeSource::Literal => "literal",
                DeclaredTypeSource::ReturnType => "return-type",
                DeclaredTypeSource::Receiver => "receiver",
                DeclaredTypeSource::SelfType => "self-type",
                DeclaredTypeSource::ThisType => "this-type",
                DeclaredTypeSource::Element => "element",
                DeclaredTypeSource::Narrowed => "narrowed",
                DeclaredTypeSource::Parameter => "parameter",
                DeclaredTypeSource::TypeParameter => "type-parameter",
            };
            let element = match d.element.as_slice() {
                [] => String::new(),
                path => format!(" {path:?}"),
            };
            let arguments = match d.source {
                // A type parameter's default, as `T = Issue`.
                DeclaredTypeSource::TypeParameter if !d.arguments.is_empty() => {
                    let default = describe_arguments(&d.arguments, None, separator);
                    format!(" = {}", &default[1..default.len() - 1])
                }
                _ => describe_arguments(&d.arguments, None, separator),
            };
            format!(
                "{target}: {}{arguments}{members} {how}{element}",
                ty.join(separator)
            )
        })
        .collect()
}

/// The type arguments of `parent` (the declared type itself for `None`)
/// as `<A, B<C> | D>`, `_` at a position no named type is stated for;
/// empty when it has none.
fn describe_arguments(arguments: &[TypeArgument], parent: Option<u32>, separator: &str) -> String {
    let mut positions: Vec<Vec<String>> = Vec::new();
    for (index, argument) in arguments.iter().enumerate() {
        if argument.parent != parent {
            continue;
        }
        let position = argument.position as usize;
        if positions.len() <= position {
            positions.resize(position + 1, Vec::new());
        }
        let mut name = argument.type_qualifier.clone();
        name.push(argument.type_name.clone());
        // A parent is always before its arguments, so this ends.
        let own = describe_arguments(arguments, Some(index as u32), separator);
        let members: String = argument
            .members
            .iter()
            .map(|m| format!("[{m:?}]"))
            .collect();
        positions[position].push(format!("{}{own}{members}", name.join(separator)));
    }
    if positions.is_empty() {
        return String::new();
    }
    let written: Vec<String> = positions
        .into_iter()
        .map(|parts| match parts.is_empty() {
            true => "_".to_string(),
            false => parts.join(" | "),
        })
        .collect();
    format!("<{}>", written.join(", "))
}
