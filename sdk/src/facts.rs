//! Facts from a syntax tree: symbols, locals, references, diagnostics.

use std::collections::HashMap;

use tree_sitter::{Node, Tree};

use crate::embedded::{EmbeddedTree, View};
use crate::language::{FunctionAt, Language};
use crate::query::{TaggedMatch, TreeMatches};
use crate::text::{LineIndex, collapse_whitespace};
use crate::types::{
    ContextTarget, Diagnostic, EntryPointKind, Local, ParameterContext, Receiver, Reference,
    ReferenceKind, Severity, Symbol, SymbolKind,
};

/// Longest signature kept, in characters.
const MAX_SIGNATURE_CHARS: usize = 300;

/// Where a symbol's node is, so that later passes can find it again.
#[derive(Debug, Clone, Copy)]
pub struct SymbolNode {
    pub start: usize,
    pub end: usize,
    pub kind_id: u16,
    pub name_start: usize,
    /// Where the declaration's extent ends: past `end` when
    /// [`Language::symbol_range`] reaches further than the node.
    pub extent_end: usize,
    /// The declaration whose node this one's is nested in (which may
    /// differ from the symbol's container, see `@container`).
    pub nested_in: Option<usize>,
    /// Why something outside the source calls it, as the language's
    /// [`Language::ENTRY_POINT`] hook tells.
    pub entry_point: Option<EntryPointKind>,
}

/// A local binding with the byte offsets resolution needs.
#[derive(Debug, Clone)]
pub struct LocalBinding {
    pub local: Local,
    pub start: usize,
    /// Where names start resolving to this binding: its own start, the
    /// end of the node captured as `@local.after` (`let x = x + 1;` reads
    /// the outer `x` on its right-hand side), or the start of the node
    /// captured as `@local.from`, which may come before the binding
    /// (Python's `[x.name for x in xs]` reads `x` before its `for`).
    pub visible_from: usize,
    pub scope_end: usize,
}

pub fn text<'s>(node: Node, source: &'s str) -> &'s str {
    &source[node.start_byte()..node.end_byte()]
}

/// Symbols in document order, with containers resolved structurally, from
/// the symbols query's `matches` over the file's `tree`.
pub fn symbols<L: Language>(
    matches: Vec<TaggedMatch>,
    tree: &Tree,
    source: &str,
    lines: &LineIndex,
) -> (Vec<Symbol>, Vec<SymbolNode>) {
    let config = L::symbol_config();
    // Matches are in document order: their starts are sorted.
    let starts: Vec<usize> = matches.iter().map(|m| m.node.start_byte()).collect();
    let before = after_comments(tree, &starts, config.comment_kinds, config.attribute_kinds);
    let mut symbols: Vec<Symbol> = Vec::with_capacity(matches.len());
    let mut nodes: Vec<SymbolNode> = Vec::with_capacity(matches.len());
    // Each symbol's tree node, so a hook is handed the declaration it is
    // nested in without asking the tree for a parent.
    let mut tree_nodes: Vec<Node> = Vec::with_capacity(matches.len());
    let mut stack: Vec<usize> = Vec::new();
    let mut first_declared: std::collections::HashSet<(Option<usize>, &str, &str)> =
        std::collections::HashSet::new();
    for m in matches {
        let Some(name_node) = m.capture("name") else {
            continue;
        };
        let node = m.node;
        let name_node = L::symbol_name_node(m.tag, node, name_node, source);
        while let Some(&top) = stack.last() {
            // A node that declares several names (Go's `var a, b int`) is
            // not the container of its own second name.
            let same_node = nodes[top].start == node.start_byte()
                && nodes[top].end == node.end_byte()
                && nodes[top].kind_id == node.kind_id();
            if nodes[top].extent_end <= node.start_byte() || same_node {
                stack.pop();
            } else {
                break;
            }
        }
        // A declaration whose query names its container (`@container`, a
        // constructor parameter property naming its class) belongs to the
        // enclosing declaration whose node holds that name, not to the one
        // nested deepest (the constructor).
        let named_container =
            m.capture("container").and_then(|named| {
                stack.iter().rev().copied().find(|&i| {
                    nodes[i].start <= named.start_byte() && named.end_byte() <= nodes[i].end
                })
            });
        let container = named_container.or_else(|| stack.last().copied());
        let container_tag = container.map(|c| symbols[c].language_kind.as_str());
        if !L::declares_within(m.tag, container_tag) {
            continue;
        }
        // A repeat of a declaration the language merges (Python's `self.x`
        // assigned in several methods) is the first one's: not a symbol,
        // so its name is read as a reference.
        if L::REPEATS_MERGED.contains(&m.tag)
            && !first_declared.insert((container, text(name_node, source), m.tag))
        {
            continue;
        }
        if stack.len() >= MAX_DESCRIBED_DEPTH {
            // Nested this deep (generated code), a declaration is reported
            // plainly: the hooks that describe it walk up the tree, and
            // tree-sitter answers `parent()` by searching down from the root.
            let symbol =
                plain_symbol::<L>(node, name_node, m.tag, container, &symbols, source, lines);
            // The declaration around it (read before it is pushed: a node
            // nested in itself would send `enclosing` round in a circle).
            let nested_in = stack.last().copied();
            stack.push(symbols.len());
            nodes.push(SymbolNode {
                start: node.start_byte(),
                end: node.end_byte(),
                kind_id: node.kind_id(),
                name_start: name_node.start_byte(),
                extent_end: node.end_byte(),
                nested_in,
                entry_point: None,
            });
            tree_nodes.push(node);
            symbols.push(symbol);
            continue;
        }
        let (span_start, span_end) =
            L::symbol_range(node, source).unwrap_or((node.start_byte(), node.end_byte()));
        let container_name = m
            .capture("container")
            .map(|n| text(n, source).to_string())
            .or_else(|| container.and_then(|_| L::container_name(node, source)))
            .or_else(|| container.map(|c: usize| symbols_name(&symbols, c)));
        let symbol = Symbol {
            name: L::symbol_name(m.tag, node, name_node, source)
                .unwrap_or_else(|| text(name_node, source).to_string()),
            kind: L::symbol_kind(m.tag),
            language_kind: m.tag.to_string(),
            span: lines.span(source, span_start, span_end),
            name_span: lines.span(source, name_node.start_byte(), name_node.end_byte()),
            container: container.map(|c| c as u32),
            container_name,
            signature: match (
                L::signature_text(node, source),
                L::signature_range(node, source),
            ) {
                (Some(head), _) => head_signature(&head),
                (None, Some((start, end))) => head_signature(&source[start..end]),
                (None, None) => signature(node, source, config.signature_end_fields),
            },
            doc: doc_comment::<L>(node, source, &before)
                .or_else(|| L::inner_documentation(node, source)),
            visibility: L::name_visibility(node, name_node, source),
            modifiers: L::modifiers(node, source),
            arity: L::arity(node, source),
        };
        let nested_in = stack.last().copied();
        let attached = attached_above(node, &before);
        // An allowance to be unused in force at a declaration is in force
        // at what it nests (a lint level reaches the items inside).
        let entry_point = L::ENTRY_POINT
            .and_then(|entry_point| {
                entry_point(
                    node,
                    name_node,
                    nested_in.map(|i| tree_nodes[i]),
                    &attached,
                    source,
                )
            })
            .or_else(|| {
                nested_in
                    .and_then(|i| nodes.get(i))
                    .and_then(|n: &SymbolNode| n.entry_point)
                    .filter(|kind| *kind == EntryPointKind::AllowedUnused)
            });
        stack.push(symbols.len());
        nodes.push(SymbolNode {
            start: node.start_byte(),
            end: node.end_byte(),
            kind_id: node.kind_id(),
            name_start: name_node.start_byte(),
            extent_end: span_end.max(node.end_byte()),
            nested_in,
            entry_point,
        });
        tree_nodes.push(node);
        symbols.push(symbol);
    }
    (symbols, nodes)
}

/// Containers deeper than this get plain symbols: name, kind, span and
/// container, without signature, doc comment, visibility or modifiers (the
/// host indexes 256 levels; deeper ones are only counted).
pub const MAX_DESCRIBED_DEPTH: usize = 256;

/// A symbol described without the language's hooks.
fn plain_symbol<L: Language>(
    node: Node,
    name_node: Node,
    tag: &str,
    container: Option<usize>,
    symbols: &[Symbol],
    source: &str,
    lines: &LineIndex,
) -> Symbol {
    Symbol {
        name: L::symbol_name(tag, node, name_node, source)
            .unwrap_or_else(|| text(name_node, source).to_string()),
        kind: L::symbol_kind(tag),
        language_kind: tag.to_string(),
        span: lines.span(source, node.start_byte(), node.end_byte()),
        name_span: lines.span(source, name_node.start_byte(), name_node.end_byte()),
        container: container.map(|c| c as u32),
        container_name: container.map(|c| symbols_name(symbols, c)),
        signature: None,
        doc: None,
        visibility: crate::types::Visibility::Unspecified,
        modifiers: Vec::new(),
        arity: None,
    }
}

fn symbols_name(symbols: &[Symbol], index: usize) -> String {
    symbols[index].name.clone()
}

/// The declaration head: from the node's start to its body, whitespace collapsed.
fn signature(node: Node, source: &str, end_fields: &[&str]) -> Option<String> {
    let end = end_fields
        .iter()
        .filter_map(|field| node.child_by_field_name(field))
        .map(|body| body.start_byte())
        .min();
    let head = match end {
        Some(end) => &source[node.start_byte()..end],
        None => {
            let whole = text(node, source);
            whole.split(['{', '\n']).next().unwrap_or(whole)
        }
    };
    head_signature(head)
}

/// A declaration head as a signature: whitespace collapsed, trailing
/// punctuation dropped, length capped.
fn head_signature(head: &str) -> Option<String> {
    // Only the start of a huge head can be kept: do not tidy all of it.
    let head = match head.char_indices().nth(8 * MAX_SIGNATURE_CHARS) {
        Some((end, _)) => &head[..end],
        None => head,
    };
    let mut signature = tidy_brackets(&collapse_whitespace(head));
    while signature.ends_with(['=', '{', ';', ':']) {
        signature.pop();
        signature = signature.trim_end().to_string();
    }
    if signature.chars().count() > MAX_SIGNATURE_CHARS {
        signature = signature
            .chars()
            .take(MAX_SIGNATURE_CHARS)
            .collect::<String>()
            + "…";
    }
    (!signature.is_empty()).then_some(signature)
}

/// The doc comment directly above a declaration (attributes and plain
/// comments may sit between: `/** Doc. */` then `// note` documents what
/// follows, as javadoc and rustdoc read it).
fn doc_comment<L: Language>(
    node: Node,
    source: &str,
    before: &HashMap<usize, Node>,
) -> Option<String> {
    let config = L::symbol_config();
    let node = L::documented_node(node);
    let mut parts = Vec::new();
    let mut next_row = node.start_position().row;
    let mut sibling = before.get(&node.id()).copied();
    while let Some(prev) = sibling {
        if last_row(prev) + 1 < next_row {
            break; // a blank line separates it from the declaration
        }
        let kind = prev.kind();
        if config.attribute_kinds.contains(&kind) {
        } else if config.comment_kinds.contains(&kind) {
            // A plain comment is skipped; the doc comments above it count.
            if let Some(doc) = L::doc_comment_node(prev, source) {
                parts.push(doc);
            }
        } else {
            break;
        }
        next_row = prev.start_position().row;
        sibling = before.get(&prev.id()).copied();
    }
    if parts.is_empty() {
        return None;
    }
    parts.reverse();
    let doc = parts.join("\n").trim().to_string();
    (!doc.is_empty()).then_some(doc)
}

/// The run of comments and attributes right above `node`, nearest first,
/// from [`after_comments`]'s map (each step is to an earlier sibling, so
/// the run ends).
fn attached_above<'t>(node: Node<'t>, before: &HashMap<usize, Node<'t>>) -> Vec<Node<'t>> {
    let mut run = Vec::new();
    let mut current = node;
    while let Some(&previous) = before.get(&current.id()) {
        if run.len() >= before.len() {
            break;
        }
        run.push(previous);
        current = previous;
    }
    run
}

/// Every node whose previous sibling is a comment or an attribute, by id,
/// with that sibling: one cursor walk, where `Node::prev_sibling` per
/// symbol rescans the parent's children (quadratic in a flat file of many
/// declarations). The walk enters only nodes where a symbol node starts
/// (`symbol_starts`, sorted): a documented node and its siblings are
/// children of a node that holds the symbol's.
fn after_comments<'t>(
    tree: &'t Tree,
    symbol_starts: &[usize],
    comment_kinds: &[&str],
    attribute_kinds: &[&str],
) -> HashMap<usize, Node<'t>> {
    let mut out = HashMap::new();
    // The kinds by id: a node's kind name is a C string, measured at each
    // call. A name may be a named kind, an anonymous one, or both.
    let language = tree.language();
    let attached_kinds: Vec<u16> = comment_kinds
        .iter()
        .chain(attribute_kinds)
        .flat_map(|kind| [true, false].map(|named| language.id_for_node_kind(kind, named)))
        .filter(|&id| id != 0)
        .collect();
    let mut cursor = tree.walk();
    // The previous sibling at each depth of the cursor.
    let mut previous: Vec<Option<Node<'t>>> = vec![None];
    loop {
        let node = cursor.node();
        if let Some(Some(prev)) = previous.last()
            && attached_kinds.contains(&prev.kind_id())
        {
            out.insert(node.id(), *prev);
        }
        let first = symbol_starts.partition_point(|&start| start < node.start_byte());
        let holds_symbol = symbol_starts
            .get(first)
            .is_some_and(|&start| start <= node.end_byte());
        if holds_symbol && cursor.goto_first_child() {
            previous.push(None);
            continue;
        }
        loop {
            if let Some(last) = previous.last_mut() {
                *last = Some(cursor.node());
            }
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return out;
            }
            previous.pop();
        }
    }
}

/// The last row a node has text on: a line comment that ends with its
/// newline ends at column 0 of the next row, which holds none of it.
fn last_row(node: Node) -> usize {
    let end = node.end_position();
    if end.column == 0 && end.row > node.start_position().row {
        end.row - 1
    } else {
        end.row
    }
}

/// Local bindings with the region where each is visible, in document order:
/// the file's own and those in its embedded code.
pub fn locals<L: Language>(
    tree: &Tree,
    source: &str,
    lines: &LineIndex,
    matches: &mut TreeMatches,
    embedded: &[EmbeddedTree],
    embedded_matches: &mut [TreeMatches],
) -> Vec<LocalBinding> {
    let file = View::file(source);
    let mut out = locals_in::<L>(file, tree.root_node(), matches, source, lines);
    if !embedded.is_empty() {
        for (tree, matches) in embedded.iter().zip(embedded_matches) {
            let view = View::embedded(tree);
            out.extend(locals_in::<L>(
                view,
                tree.tree.root_node(),
                matches,
                source,
                lines,
            ));
        }
        // Resolution looks bindings up by position.
        out.sort_by_key(|b| b.start);
    }
    out
}

/// The local bindings of one tree (`view`, rooted at `root`, whose query
/// `matches` are taken), with file offsets.
fn locals_in<L: Language>(
    view: View,
    root: Node,
    matches: &mut TreeMatches,
    source: &str,
    lines: &LineIndex,
) -> Vec<LocalBinding> {
    let scopes = std::mem::take(&mut matches.local_scopes);
    std::mem::take(&mut matches.locals)
        .into_iter()
        .filter_map(|m| {
            let node = m.node;
            let (start, end) = view.range(node)?;
            // The innermost scope holding the binding, from one descent
            // (going up by `Node::parent` descends from the root per step).
            let scope = crate::walk::ancestors(root, node)
                .into_iter()
                .find(|candidate| scopes.contains(&candidate.id()));
            if scope.is_none() && L::LOCALS_NEED_A_SCOPE {
                return None;
            }
            let scope_end = view.clamp(scope.map_or(view.text.len(), |s| s.end_byte()));
            let visible_from = match (m.capture("local.after"), m.capture("local.from")) {
                (Some(after), _) => view.clamp(after.end_byte()).max(start),
                (None, Some(from)) => view.clamp(from.start_byte()).min(start),
                (None, None) => start,
            };
            Some(LocalBinding {
                local: Local {
                    name: text(node, view.text).to_string(),
                    span: lines.span(source, start, end),
                    scope: lines.span(source, visible_from.min(start), scope_end),
                    language_kind: m.tag.to_string(),
                    value: None,
                    element: Vec::new(),
                },
                start,
                visible_from,
                scope_end,
            })
        })
        .collect()
}

/// References, each with its enclosing symbol and, for bare names, the local
/// binding it resolves to. Names that are themselves declarations are skipped.
/// References in embedded code are the file's own; what a tree parsed in a
/// region that was parsed again as embedded code (a token tree) is not.
#[allow(clippy::too_many_arguments)]
pub fn references<L: Language>(
    tree: &Tree,
    source: &str,
    lines: &LineIndex,
    matches: TreeMatches,
    symbols: &[Symbol],
    symbol_nodes: &[SymbolNode],
    locals: &[LocalBinding],
    embedded: &[EmbeddedTree],
    embedded_matches: Vec<TreeMatches>,
) -> LinkedReferences {
    let qualifying: std::collections::HashSet<String> =
        L::qualifying_names(tree.root_node(), source)
            .into_iter()
            .collect();
    let declared: std::collections::HashSet<usize> = symbol_nodes
        .iter()
        .zip(symbols)
        .filter(|(_, symbol)| !L::name_is_reference(&symbol.language_kind))
        .map(|(s, _)| s.name_start)
        .chain(locals.iter().map(|l| l.start))
        .collect();
    let mut locals_by_name = LocalsByName::default();
    for (i, binding) in locals.iter().enumerate() {
        let name = binding.local.name.as_str();
        locals_by_name.all.entry(name).or_default().push(i);
        if binding.visible_from < binding.start {
            locals_by_name.early.entry(name).or_default().push(i);
        }
    }
    let context = ReferenceContext {
        source,
        lines,
        symbols,
        symbol_nodes,
        locals,
        qualifying: &qualifying,
        declared: &declared,
        locals_by_name: &locals_by_name,
    };
    let reparsed = crate::embedded::reparsed(embedded);
    let mut out = references_in::<L>(
        &context,
        View::file(source),
        Some(tree.root_node()),
        matches.references,
        &reparsed[0],
    );
    for (i, (tree, matches)) in embedded.iter().zip(embedded_matches).enumerate() {
        out.extend(references_in::<L>(
            &context,
            View::embedded(tree),
            None,
            matches.references,
            &reparsed[i + 1],
        ));
    }
    if !embedded.is_empty() {
        // In the order of the file's own: by where the tagged node starts.
        out.sort_by_key(|found| found.tagged.0);
    }
    // Templates' (start, the furthest end of those starting up to it).
    let mut templates: Vec<(u32, u32)> = symbols
        .iter()
        .filter(|s| L::holds_no_references(&s.language_kind))
        .map(|s| (s.span.start.offset, s.span.end.offset))
        .collect();
    if !templates.is_empty() {
        templates.sort_unstable();
        let mut furthest = 0;
        for template in &mut templates {
            furthest = furthest.max(template.1);
            template.1 = furthest;
        }
        out.retain(|found| {
            let at = found.reference.span.start.offset;
            let before = templates.partition_point(|(start, _)| *start <= at);
            before == 0 || templates[before - 1].1 <= at
        });
    }
    link_receivers(out)
}

/// A file's references, and which of them each tagged node range holds
/// (the first, where several share one), for linking values to them.
pub struct LinkedReferences {
    pub references: Vec<Reference>,
    pub by_tagged: HashMap<(usize, usize), u32>,
    /// Which reference each name range (file bytes) is the name of (the
    /// first, where several share one).
    pub by_name: HashMap<(usize, usize), u32>,
    /// The members reached through a literal written for a parameter
    /// ([`Language::parameter_site`]), by reference index.
    pub parameter_contexts: Vec<ParameterContext>,
}

impl LinkedReferences {
    /// `node`'s value (wrappers looked through) as the reference tagged
    /// exactly there: called when that reference is a call.
    pub fn value_of<L: Language>(&self, node: Node, source: &str) -> Option<Receiver> {
        let Unwrapped {
            node: value,
            indexed,
        } = unwrapped::<L>(node, source);
        if indexed {
            return self.indexed_at((value.start_byte(), value.end_byte()));
        }
        self.at((value.start_byte(), value.end_byte()))
            .or_else(|| {
                let ty = L::literal_type(value, source)?;
                self.type_at((ty.start_byte(), ty.end_byte()))
            })
            .or_else(|| {
                let name = L::literal_context(value)?;
                self.named_at((name.start_byte(), name.end_byte()))
            })
    }

    /// The function `site` names, as a receiver: what a call calls (not its
    /// result), a function type, or a declaration or key of one.
    pub(crate) fn function_at(&self, site: SiteRange) -> Option<Receiver> {
        match site {
            SiteRange::Callee(range) => self
                .at(range)
                .filter(|r| r.called)
                .map(|r| Receiver { called: false, ..r }),
            SiteRange::Type(range) => self.type_at(range),
            SiteRange::Named(range) => self.named_at(range),
            SiteRange::ElementOf(range) => self.indexed_at(range),
        }
    }

    /// The value of the reference whose name is exactly at `range` (file
    /// bytes), as the value a literal written there takes its type from
    /// (`{ b: 1 }` as the value of the key `a`).
    pub(crate) fn named_at(&self, range: (usize, usize)) -> Option<Receiver> {
        let index = *self.by_name.get(&range)?;
        Some(Receiver {
            reference: index,
            called: false,
            indexed: false,
        })
    }

    /// One element of the value of the expression at `range` (file bytes),
    /// as [`Self::at`] finds that value: `xs` in `xs[i]`.
    pub(crate) fn indexed_at(&self, range: (usize, usize)) -> Option<Receiver> {
        self.at(range).map(|value| Receiver {
            indexed: true,
            ..value
        })
    }

    /// The type reference tagged exactly at `range` (file bytes), as the
    /// value a literal of that type is (`T{..}`).
    pub(crate) fn type_at(&self, range: (usize, usize)) -> Option<Receiver> {
        let index = *self.by_tagged.get(&range)?;
        (self.references.get(index as usize)?.kind == ReferenceKind::Type).then_some(Receiver {
            reference: index,
            called: false,
            indexed: false,
        })
    }

    /// The reference whose value the expression at `range` (file bytes)
    /// is: one tagged exactly there that is a call (the call's result), or
    /// whose name ends the expression (`x`, `a.x`, `pkg.X`); not a larger
    /// construct that merely holds the name (a literal whose key it is).
    pub(crate) fn at(&self, range: (usize, usize)) -> Option<Receiver> {
        let index = *self.by_tagged.get(&range)?;
        let reference = self.references.get(index as usize)?;
        let called = reference.kind == ReferenceKind::Call;
        (called || reference.span.end.offset as usize == range.1).then_some(Receiver {
            reference: index,
            called,
            indexed: false,
        })
    }
}

/// A reference with the file ranges its receiver is linked by.
struct Found {
    reference: Reference,
    /// File range of the node the query tagged (`p.name`, `f(x)`).
    tagged: (usize, usize),
    /// File range of the receiver value, wrappers looked through, and
    /// whether the receiver is one element of it.
    receiver: Option<((usize, usize), bool)>,
    /// When the receiver is a literal, what gives its type (see
    /// [`LiteralOf`]).
    receiver_type: Option<LiteralOf>,
    /// When the receiver is a literal written for a parameter, the
    /// function and the parameter's positions.
    receiver_site: Option<(SiteRange, Vec<u32>)>,
}

/// A [`FunctionAt`] by its node's file range.
#[derive(Clone, Copy)]
pub(crate) enum SiteRange {
    Callee((usize, usize)),
    Type((usize, usize)),
    Named((usize, usize)),
    ElementOf((usize, usize)),
}

impl SiteRange {
    /// `function`'s file range in `view`.
    pub(crate) fn of(function: FunctionAt, view: &View) -> Option<SiteRange> {
        Some(match function {
            FunctionAt::Callee(node) => SiteRange::Callee(view.range(node)?),
            FunctionAt::Type(node) => SiteRange::Type(view.range(node)?),
            FunctionAt::Named(node) => SiteRange::Named(view.range(node)?),
            FunctionAt::ElementOf(node) => SiteRange::ElementOf(view.range(node)?),
        })
    }
}

/// What a literal's value is, by a file range: the type named there (`T`
/// of `T{..}`, of `const x: T = {..}`), or the value of the reference
/// named there (the key `a` of `{ a: {..} }`).
#[derive(Clone, Copy)]
enum LiteralOf {
    Type((usize, usize)),
    Named((usize, usize)),
}

/// The references with each member access's receiver set to the
/// reference whose value the receiver expression is (see
/// [`LinkedReferences::at`]).
fn link_receivers(found: Vec<Found>) -> LinkedReferences {
    let mut by_tagged: HashMap<(usize, usize), u32> = HashMap::with_capacity(found.len());
    let mut by_name: HashMap<(usize, usize), u32> = HashMap::with_capacity(found.len());
    let mut receivers = Vec::with_capacity(found.len());
    let mut sites = Vec::with_capacity(found.len());
    let mut references = Vec::with_capacity(found.len());
    for (index, f) in found.into_iter().enumerate() {
        by_tagged.entry(f.tagged).or_insert(index as u32);
        let span = &f.reference.span;
        by_name
            .entry((span.start.offset as usize, span.end.offset as usize))
            .or_insert(index as u32);
        receivers.push((f.receiver, f.receiver_type));
        sites.push(f.receiver_site);
        references.push(f.reference);
    }
    let mut linked = LinkedReferences {
        references,
        by_tagged,
        by_name,
        parameter_contexts: Vec::new(),
    };
    for (index, (range, literal)) in receivers.into_iter().enumerate() {
        let receiver = match range {
            Some((range, true)) => linked.indexed_at(range),
            Some((range, false)) => linked.at(range),
            None => None,
        }
        .or_else(|| match literal? {
            LiteralOf::Type(range) => linked.type_at(range),
            LiteralOf::Named(range) => linked.named_at(range),
        })
        .filter(|r| r.reference as usize != index);
        linked.references[index].receiver = receiver;
    }
    // A member of a literal without a type of its own, written for a
    // parameter (`f({ k: v })`): typed by that parameter.
    for (index, site) in sites.into_iter().enumerate() {
        let Some((function, parameters)) = site else {
            continue;
        };
        if linked.references[index].receiver.is_some() {
            continue;
        }
        // Without positions, only an element of a collection.
        if let Some(function) = linked
            .function_at(function)
            .filter(|f| f.reference as usize != index)
            .filter(|f| !parameters.is_empty() || f.indexed)
        {
            linked.parameter_contexts.push(ParameterContext {
                target: ContextTarget::Member(index as u32),
                function,
                parameters,
            });
        }
    }
    linked
}

/// The value `binding` (a local of the file's own tree) is initialised
/// with, as the language's `local_value` hook finds it, or the value it
/// destructures and the tuple element it binds, as `destructured_value`
/// finds them, when a reference of the file is tagged exactly there.
pub fn local_value<L: Language>(
    tree: &Tree,
    source: &str,
    binding: &LocalBinding,
    linked: &LinkedReferences,
) -> Option<(Receiver, Vec<u32>)> {
    initial_value::<L>(
        tree,
        source,
        (binding.start, binding.local.span.end.offset as usize),
        linked,
    )
}

/// The value the declaration whose name is at `start..end` of the file's
/// own tree is initialised with (a local's or a symbol's), as
/// [`local_value`] finds it.
pub fn initial_value<L: Language>(
    tree: &Tree,
    source: &str,
    (start, end): (usize, usize),
    linked: &LinkedReferences,
) -> Option<(Receiver, Vec<u32>)> {
    let name = tree.root_node().descendant_for_byte_range(start, end)?;
    if (name.start_byte(), name.end_byte()) != (start, end) {
        return None;
    }
    if let Some(value) = L::local_value(name) {
        return Some((linked.value_of::<L>(value, source)?, Vec::new()));
    }
    if let Some((value, element)) = L::destructured_value(name, source) {
        return Some((linked.value_of::<L>(value, source)?, element));
    }
    // `for x in xs`: one element of the collection, when that is itself
    // no element of another.
    let collection = linked.value_of::<L>(L::iterated_value(name, source)?, source)?;
    (!collection.indexed).then_some((
        Receiver {
            indexed: true,
            ..collection
        },
        Vec::new(),
    ))
}

/// An expression with its wrappers taken off ([`unwrapped`]).
pub(crate) struct Unwrapped<'t> {
    pub node: Node<'t>,
    /// Whether the expression is one element of `node`'s value
    /// ([`Language::indexed_collection`]).
    pub indexed: bool,
}

/// The value inside `node` with the language's transparent wrappers
/// (parentheses, `await`, `x!`...) and element accesses
/// ([`Language::element_expressions`]) and calls that keep their
/// receiver's type ([`Language::same_type_value`]) taken off, and at most
/// one indexing ([`Language::indexed_collection`]): the collection,
/// `indexed`. Each step goes one level down, so this ends.
pub(crate) fn unwrapped<'t, L: Language>(node: Node<'t>, source: &str) -> Unwrapped<'t> {
    let mut node = node;
    let mut indexed = false;
    loop {
        if let Some(value) = L::same_type_value(node, source) {
            node = value;
            continue;
        }
        if let Some(collection) = L::indexed_collection(node, source) {
            if indexed {
                // An element of an element: not a value the facts name.
                return Unwrapped {
                    node,
                    indexed: false,
                };
            }
            indexed = true;
            node = collection;
            continue;
        }
        let mut cursor = node.walk();
        let mut inner = node.named_children(&mut cursor).filter(|c| !c.is_extra());
        let kind = node.kind();
        node = match (inner.next(), inner.next()) {
            (Some(only), None) if L::transparent_expressions().contains(&kind) => only,
            (Some(collection), _) if L::element_expressions().contains(&kind) => collection,
            _ => return Unwrapped { node, indexed },
        };
    }
}

/// What resolving the references of each tree needs.
struct ReferenceContext<'a> {
    source: &'a str,
    lines: &'a LineIndex,
    symbols: &'a [Symbol],
    symbol_nodes: &'a [SymbolNode],
    locals: &'a [LocalBinding],
    qualifying: &'a std::collections::HashSet<String>,
    declared: &'a std::collections::HashSet<usize>,
    locals_by_name: &'a LocalsByName<'a>,
}

/// The indices of a tree's local bindings by name, in document order.
#[derive(Default)]
struct LocalsByName<'a> {
    all: HashMap<&'a str, Vec<usize>>,
    /// Those visible before their own name (`@local.from`).
    early: HashMap<&'a str, Vec<usize>>,
}

/// The references of one tree (`view`, with the references query's
/// `matches` over it) with file offsets, each with the file offset of its
/// tagged node; none whose name is in `skip`.
fn references_in<L: Language>(
    context: &ReferenceContext,
    view: View,
    // The file's own tree, whose nodes the symbols are: `None` for an
    // embedded one.
    root: Option<Node>,
    matches: Vec<TaggedMatch>,
    skip: &[(usize, usize)],
) -> Vec<Found> {
    let ReferenceContext {
        source,
        lines,
        symbols,
        symbol_nodes,
        locals,
        qualifying,
        declared,
        locals_by_name,
    } = *context;
    let separator = L::symbol_config().path_separator;
    let longest_qualifying = qualifying.iter().map(String::len).max().unwrap_or(0);
    let tree_text = view.text;
    matches
        .into_iter()
        .filter_map(|m| {
            let name_node = m.capture("name")?;
            let shorthand = m.capture("shorthand").is_some();
            let (start, end) = view.range(name_node)?;
            let receiver = m.capture("receiver");
            // A declaration's own name is no reference, unless the pattern
            // reads a member through a value there too (`const { kind } = this`
            // declares `kind` and reads `this.kind`).
            if (declared.contains(&start) && receiver.is_none())
                || crate::embedded::covered(skip, start)
            {
                return None;
            }
            let kind = reference_kind(m.tag)?;
            // A name, or a dotted path (`os.path`) where the language lists
            // such paths among its qualifying names.
            // such paths among its qualifying names. Only a receiver no longer
            // than the longest of them is read: a long chain (`x.a.a.a...`)
            // would otherwise be hashed whole at each of its links.
            let qualifying_receiver = receiver
                .filter(|r| r.byte_range().len() <= longest_qualifying)
                .map(|r| text(r, tree_text))
                .filter(|r| qualifying.contains(*r));
            let qualifier: Vec<String> = m
                .capture("qualifier")
                .map(|q| {
                    if let Some(path) = L::qualifier_path(q, tree_text) {
                        return path;
                    }
                    text(q, tree_text)
                        .split(separator)
                        .map(str::trim)
                        .filter(|s| !s.is_empty() && !s.starts_with('<'))
                        .map(str::to_string)
                        .collect()
                })
                .or_else(|| {
                    qualifying_receiver.map(|r| r.split(separator).map(str::to_string).collect())
                })
                .or_else(|| {
                    receiver
                        .filter(|r| L::is_self_receiver(*r, tree_text))
                        .and_then(|_| enclosing(symbol_nodes, start))
                        .and_then(|e| member_owner(symbols, e as usize))
                        .map(|owner| vec![owner])
                })
                .or_else(|| {
                    // `super().m()`, `super.m()`: the member as the
                    // enclosing type's supertype has it.
                    receiver.filter(|r| L::is_super_receiver(*r, tree_text))?;
                    let owner = owner_node(root?, symbols, symbol_nodes, start)?;
                    L::supertype_of(owner, tree_text)
                })
                .unwrap_or_default();
            let mut qualifier = qualifier;
            // A path that starts with a word standing for a declaration
            // (`Self::new`) starts with that declaration's path.
            if let Some(head) = m.capture("qualifier").map(leftmost_leaf)
                && qualifier.first().map(String::as_str) == Some(text(head, tree_text))
                && let Some((alias, path)) = L::aliased_name(head, tree_text)
            {
                qualifier.splice(0..1, path.into_iter().chain([alias]));
            }
            let is_member = receiver.is_some() && qualifying_receiver.is_none();
            let mut name = text(name_node, tree_text).to_string();
            if !is_member && let Some((alias, path)) = L::aliased_name(name_node, tree_text) {
                name = alias;
                if qualifier.is_empty() {
                    qualifier = path;
                }
            }
            let local = (qualifier.is_empty() && !is_member)
                .then(|| resolve_local(locals_by_name, locals, &name, start))
                .flatten();
            let tagged = view
                .range(m.node)
                .unwrap_or_else(|| (view.clamp(m.node.start_byte()), end));
            let receiver_value = receiver
                .filter(|_| is_member)
                .map(|r| unwrapped::<L>(r, tree_text));
            let receiver_type = receiver_value
                .as_ref()
                .filter(|r| !r.indexed)
                .and_then(|r| match L::literal_type(r.node, tree_text) {
                    Some(ty) => view.range(ty).map(LiteralOf::Type),
                    None => view
                        .range(L::literal_context(r.node)?)
                        .map(LiteralOf::Named),
                });
            let receiver_site = receiver_value
                .as_ref()
                .filter(|r| !r.indexed && receiver_type.is_none())
                .and_then(|r| L::parameter_site(r.node, view.text))
                .and_then(|site| Some((SiteRange::of(site.function, &view)?, site.parameters)));
            let receiver = receiver_value.and_then(|r| Some((view.range(r.node)?, r.indexed)));
            let span = lines.span(source, start, end);
            let enclosing = enclosing(symbol_nodes, start);
            // A shorthand (`{ body }`) is the member and, at the same
            // bytes, a read of the value of that name.
            let value = (shorthand && is_member).then(|| Found {
                tagged,
                receiver: None,
                receiver_type: None,
                receiver_site: None,
                reference: Reference {
                    kind: ReferenceKind::Reference,
                    span,
                    qualifier: Vec::new(),
                    is_member: false,
                    enclosing,
                    local: resolve_local(locals_by_name, locals, &name, start).map(|l| l as u32),
                    receiver: None,
                    arguments: None,
                    name: name.clone(),
                },
            });
            let member = Found {
                tagged,
                receiver,
                receiver_type,
                receiver_site,
                reference: Reference {
                    kind,
                    span,
                    qualifier,
                    is_member,
                    enclosing,
                    local: local.map(|l| l as u32),
                    receiver: None,
                    arguments: (kind == ReferenceKind::Call)
                        .then(|| L::call_arguments(m.node))
                        .flatten(),
                    name,
                },
            };
            Some(std::iter::once(member).chain(value))
        })
        .flatten()
        .collect()
}

/// The first token of a path node (`a` of `a::b::c`): its first child,
/// down to a leaf, within the path's depth.
fn leftmost_leaf(node: Node) -> Node {
    let mut node = node;
    while let Some(first) = node.named_child(0) {
        node = first;
    }
    node
}

fn reference_kind(tag: &str) -> Option<ReferenceKind> {
    Some(match tag {
        "call" => ReferenceKind::Call,
        "reference" => ReferenceKind::Reference,
        "type" => ReferenceKind::Type,
        "import" => ReferenceKind::Import,
        "extends" => ReferenceKind::Extends,
        "implements" => ReferenceKind::Implements,
        "write" => ReferenceKind::Write,
        // Any other tag (`@reference.ignore`) claims the name for its pattern,
        // so that later catch-alls skip it, and reports nothing.
        _ => return None,
    })
}

/// The innermost binding named `name` visible at `offset`.
fn resolve_local(
    by_name: &LocalsByName,
    locals: &[LocalBinding],
    name: &str,
    offset: usize,
) -> Option<usize> {
    // Bindings are in document order: the nearest one before `offset` whose
    // region holds it is the innermost (linear scans made files with many
    // same-named locals quadratic).
    let visible = |i: usize| locals[i].visible_from <= offset && offset < locals[i].scope_end;
    let found = by_name.all.get(name).and_then(|candidates| {
        let before = candidates.partition_point(|&i| locals[i].start <= offset);
        candidates[..before]
            .iter()
            .rev()
            .copied()
            .find(|&i| visible(i))
    });
    // One visible before its name, whose region starts later (is inner),
    // when `offset` comes before that name.
    let early = by_name.early.get(name).and_then(|candidates| {
        (candidates.iter().rev().copied()).find(|&i| offset < locals[i].start && visible(i))
    });
    match (found, early) {
        (Some(found), Some(early)) if locals[early].visible_from > locals[found].visible_from => {
            Some(early)
        }
        (None, early) => early,
        (found, _) => found,
    }
}

/// Index of the innermost symbol containing `offset`.
pub fn enclosing(nodes: &[SymbolNode], offset: usize) -> Option<u32> {
    let mut candidate = nodes
        .partition_point(|n| n.start <= offset)
        .checked_sub(1)?;
    loop {
        let node = nodes[candidate];
        if node.start <= offset && offset < node.extent_end {
            return Some(candidate as u32);
        }
        candidate = node.nested_in?;
    }
}

/// The tree node of the innermost type declaration around `offset` of the
/// file's own tree (`root`), found through the symbols around it.
fn owner_node<'t>(
    root: Node<'t>,
    symbols: &[Symbol],
    nodes: &[SymbolNode],
    offset: usize,
) -> Option<Node<'t>> {
    let mut index = enclosing(nodes, offset)? as usize;
    // Each step goes to the declaration around: at most as many as there are.
    for _ in 0..nodes.len() {
        if matches!(
            symbols[index].kind,
            SymbolKind::Class | SymbolKind::Struct | SymbolKind::Interface | SymbolKind::Enum
        ) {
            let at = nodes[index];
            let mut node = root.descendant_for_byte_range(at.start, at.end)?;
            while node.kind_id() != at.kind_id || node.start_byte() != at.start {
                node = node.parent()?;
                if node.end_byte() > at.end {
                    return None;
                }
            }
            return Some(node);
        }
        index = nodes[index].nested_in?;
    }
    None
}

/// The type a member declaration belongs to, for `self.x` / `this.x`
/// written in it: the container name of the innermost method, constructor,
/// property or field around the reference.
fn member_owner(symbols: &[Symbol], mut index: usize) -> Option<String> {
    loop {
        let symbol = &symbols[index];
        if matches!(
            symbol.kind,
            SymbolKind::Method | SymbolKind::Constructor | SymbolKind::Property | SymbolKind::Field
        ) {
            return symbol.container_name.clone();
        }
        index = symbol.container? as usize;
    }
}

/// Syntax errors: tree-sitter `ERROR` and `MISSING` nodes.
pub fn diagnostics(tree: &Tree, source: &str, lines: &LineIndex) -> Vec<Diagnostic> {
    let mut out: Vec<Diagnostic> = too_deep(tree, source, lines).into_iter().collect();
    if !tree.root_node().has_error() {
        return out;
    }
    let mut stack = vec![tree.root_node()];
    while let Some(node) = stack.pop() {
        if node.is_missing() {
            out.push(Diagnostic {
                severity: Severity::Error,
                code: "missing-node".into(),
                message: format!("syntax error: missing `{}`", node.kind()),
                span: lines.span(source, node.start_byte(), node.end_byte()),
            });
        } else if node.is_error() {
            let snippet: String = text(node, source).chars().take(40).collect();
            let snippet = collapse_whitespace(&snippet);
            out.push(Diagnostic {
                severity: Severity::Error,
                code: "syntax-error".into(),
                message: if snippet.is_empty() {
                    "syntax error".to_string()
                } else {
                    format!("syntax error: unexpected `{snippet}`")
                },
                span: lines.span(source, node.start_byte(), node.end_byte()),
            });
        } else if node.has_error() {
            let mut cursor = node.walk();
            let children: Vec<_> = node.children(&mut cursor).collect();
            stack.extend(children.into_iter().rev());
        }
    }
    out.sort_by_key(|d| d.span.start.offset);
    out
}

/// The first node nested deeper than queries look (see
/// [`crate::query::MAX_QUERY_START_DEPTH`]), reported so that what is left
/// out of the facts is not left out silently. A cursor walk: linear, and no
/// recursion. It enters only subtrees with enough nodes to reach the limit
/// (a node `k` levels down has `k` nodes above it in the subtree), so on
/// real code it visits little more than the top levels.
fn too_deep(tree: &Tree, source: &str, lines: &LineIndex) -> Option<Diagnostic> {
    let limit = crate::query::MAX_QUERY_START_DEPTH;
    let mut cursor = tree.walk();
    let mut depth: u32 = 0;
    loop {
        let node = cursor.node();
        if depth > limit {
            return Some(Diagnostic {
                severity: Severity::Information,
                code: "nesting-too-deep".into(),
                message: format!(
                    "code nested deeper than {limit} syntax levels is not analysed: declarations and references inside it are not indexed"
                ),
                span: lines.span(source, node.start_byte(), node.end_byte()),
            });
        }
        let deepest_below = depth as usize + node.descendant_count().saturating_sub(1);
        if deepest_below > limit as usize && cursor.goto_first_child() {
            depth += 1;
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return None;
            }
            depth -= 1;
        }
    }
}

/// Undo the spaces that line breaks leave inside brackets once collapsed:
/// `f( a: i32, )` reads `f(a: i32)`.
fn tidy_brackets(signature: &str) -> String {
    let mut out = signature.to_string();
    for (from, to) in [
        ("( ", "("),
        (" )", ")"),
        (",)", ")"),
        ("[ ", "["),
        (" ]", "]"),
        (",]", "]"),
    ] {
        // A two-byte scan: `str::contains` would build a substring
        // searcher per call, once per pair for every symbol.
        while out
            .as_bytes()
            .windows(2)
            .any(|pair| pair == from.as_bytes())
        {
            out = out.replace(from, to);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first node deeper than the limit by visiting every node.
    fn too_deep_by_full_walk(tree: &Tree) -> Option<(usize, usize)> {
        let limit = crate::query::MAX_QUERY_START_DEPTH;
        let mut cursor = tree.walk();
        let mut depth: u32 = 0;
        loop {
            if depth > limit {
                return Some((cursor.node().start_byte(), cursor.node().end_byte()));
            }
            if cursor.goto_first_child() {
                depth += 1;
                continue;
            }
            loop {
                if cursor.goto_next_sibling() {
                    break;
                }
                if !cursor.goto_parent() {
                    return None;
                }
                depth -= 1;
            }
        }
    }

    #[test]
    fn the_pruned_depth_walk_finds_the_node_a_full_walk_finds() {
        let rust: tree_sitter::Language = tree_sitter_rust::LANGUAGE.into();
        let mut parser = tree_sitter::Parser::new();
        parser.set_language(&rust).unwrap();
        let nested = |levels: usize| format!("{}1{}", "(".repeat(levels), ")".repeat(levels));
        let shallow_items: String = (0..300)
            .map(|i| format!("fn f{i}() -> u32 {{ {} }}\n", nested(i % 40)))
            .collect();
        let limit = crate::query::MAX_QUERY_START_DEPTH as usize;
        for (name, source) in [
            ("shallow", shallow_items.clone()),
            ("just under", format!("fn g() {{ {}; }}", nested(limit - 8))),
            ("just over", format!("fn g() {{ {}; }}", nested(limit - 2))),
            (
                "deep after shallow",
                format!("{shallow_items}fn g() {{ {}; }}", nested(limit + 50)),
            ),
        ] {
            let tree = parser.parse(&source, None).unwrap();
            let lines = LineIndex::new(&source);
            let pruned = too_deep(&tree, &source, &lines)
                .map(|d| (d.span.start.offset as usize, d.span.end.offset as usize));
            assert_eq!(pruned, too_deep_by_full_walk(&tree), "{name}");
        }
        let deep = format!("fn g() {{ {}; }}", nested(limit + 50));
        let tree = parser.parse(&deep, None).unwrap();
        assert!(
            too_deep_by_full_walk(&tree).is_some(),
            "the deep case is deep"
        );
    }
}
