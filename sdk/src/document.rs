//! The `document` resource: a parsed file kept inside the component.

use std::cell::{OnceCell, RefCell};
use std::marker::PhantomData;
use std::rc::Rc;

use tree_sitter::{InputEdit, Parser, Point, Tree};

use crate::bindings::exports::lingo::plugin::syntax::GuestDocument;
use crate::embedded::{self, EmbeddedTree};
use crate::expansion::{self, MAX_EXPANSIONS, Unexpanded, UnexpandedReason};
use crate::facts::{self, LinkedReferences, LocalBinding, SymbolNode};
use crate::language::Language;
use crate::metrics;
use crate::overloads;
use crate::query;
use crate::text::LineIndex;
use crate::types::{
    CallArguments, ContextTarget, DeclaredType, Diagnostic, EntryPoint, FunctionMetrics, Import,
    Local, MacroDefinition, MacroSource, Manifest, ModuleIdentity, Narrowing, ParameterContext,
    ParameterList, PluginError, Reference, Span, Symbol, SymbolKind, SymbolValue, SyntaxNode,
    TextEdit, Token, UnexpandedMacro,
};

/// A parsed document of language `L`.
pub struct Document<L: Language> {
    state: RefCell<State>,
    _language: PhantomData<L>,
}

/// Parse state plus facts computed on first request, dropped on edit.
pub(crate) struct State {
    /// The workspace-relative path the host named the document by.
    pub path: String,
    pub language: &'static str,
    pub source: String,
    pub tree: Tree,
    pub lines: LineIndex,
    parser: Parser,
    facts: Option<Rc<TreeFacts>>,
    /// Whether the language's macros are expanded ([`Language::expansions`]);
    /// not in a document that is itself an expansion.
    expand: bool,
    /// Definitions from other files the host handed over (`expand`).
    given: Vec<MacroSource>,
}

/// What one pass of the language's queries over the file's tree (and over
/// its embedded code) gives: symbols, local bindings and references.
struct TreeFacts {
    symbols: Vec<Symbol>,
    symbol_nodes: Vec<SymbolNode>,
    locals: Vec<LocalBinding>,
    references: LinkedReferences,
    /// The imports the file's macros make (its own are read from the tree).
    expanded_imports: Vec<Import>,
    /// The invocations left unexpanded, in source order.
    unexpanded: Vec<Unexpanded>,
    /// The types and values the expansions' declarations state, read from
    /// the expansions' own trees (the file's tree has token trees there).
    expanded_declared_types: Vec<DeclaredType>,
    expanded_symbol_values: Vec<SymbolValue>,
    /// The locals with the value each is bound to, made on first request
    /// (the `locals` call and `declared-types` both read them).
    local_values: OnceCell<Vec<Local>>,
}

impl<L: Language> Document<L> {
    /// Run `f` with the parse state (for hooks in other interfaces).
    pub(crate) fn with_state<R>(&self, f: impl FnOnce(&State) -> R) -> R {
        f(&self.state.borrow())
    }

    /// The modules the document belongs to (the WIT `module-of`).
    pub fn module_of(&self, path: &str, manifests: &[Manifest]) -> Vec<ModuleIdentity> {
        let Some(modules) = L::MODULE_RESOLUTION else {
            return Vec::new();
        };
        self.with_state(|s| (modules.module_of)(s.tree.root_node(), &s.source, path, manifests))
    }

    /// Symbols, locals and references, computed together once per version
    /// of the text: one query pass over each tree finds all three.
    fn tree_facts(&self) -> Rc<TreeFacts> {
        let mut state = self.state.borrow_mut();
        if let Some(cached) = &state.facts {
            return cached.clone();
        }
        let State {
            parser,
            source,
            tree,
            lines,
            language,
            path,
            expand,
            given,
            ..
        } = &mut *state;
        let (expansions, unexpanded) = if *expand {
            let mut found = L::expansions(tree.root_node(), source, given);
            // Past the bound, what is not expanded says so.
            for over in found.expanded.iter().skip(MAX_EXPANSIONS) {
                found.unexpanded.push(Unexpanded {
                    name: source
                        .get(over.anchor.0 as usize..over.anchor.1 as usize)
                        .unwrap_or_default()
                        .to_string(),
                    range: over.anchor,
                    extent: over.anchor,
                    reason: UnexpandedReason::Budget,
                });
            }
            found.expanded.truncate(MAX_EXPANSIONS);
            found.unexpanded.sort_by_key(|u| u.range);
            (found.expanded, found.unexpanded)
        } else {
            (Vec::new(), Vec::new())
        };
        let embedded: Vec<EmbeddedTree> = embedded::parse::<L>(parser, tree, source);
        let queries = L::queries(language);
        let mut matches = query::tree_matches(queries, tree, source.as_bytes());
        let mut embedded_matches: Vec<_> = embedded
            .iter()
            .map(|e| query::tree_matches(queries, &e.tree, e.text.as_bytes()))
            .collect();
        let (symbols, symbol_nodes) =
            facts::symbols::<L>(std::mem::take(&mut matches.symbols), tree, source, lines);
        let locals = facts::locals::<L>(
            tree,
            source,
            lines,
            &mut matches,
            &embedded,
            &mut embedded_matches,
        );
        let mut references = facts::references::<L>(
            tree,
            source,
            lines,
            matches,
            &symbols,
            &symbol_nodes,
            &locals,
            &embedded,
            embedded_matches,
        );
        let mut merged = expansion::Facts {
            symbols,
            nodes: symbol_nodes,
            locals,
            references: std::mem::take(&mut references.references),
            imports: Vec::new(),
            declared_types: Vec::new(),
            symbol_values: Vec::new(),
        };
        if !expansions.is_empty() {
            merged.drop_replaced(&expansions, &mut references.by_tagged);
            for expanded in &expansions {
                let made = Document::<L>::expansion(path, &expanded.text).facts_for_merge();
                merged.add(made, expanded, source, lines);
            }
            merged.sort(&mut references.by_tagged);
        }
        references.references = merged.references;
        let computed = Rc::new(TreeFacts {
            symbols: merged.symbols,
            symbol_nodes: merged.nodes,
            locals: merged.locals,
            references,
            expanded_imports: merged.imports,
            unexpanded,
            expanded_declared_types: merged.declared_types,
            expanded_symbol_values: merged.symbol_values,
            local_values: OnceCell::new(),
        });
        state.facts = Some(computed.clone());
        computed
    }

    /// A document of what a macro made, at the path of the file it is in:
    /// parsed as that file is, its own macros not expanded again.
    fn expansion(path: &str, text: &str) -> Self {
        let document = <Self as GuestDocument>::new(path.to_string(), text.to_string());
        document.state.borrow_mut().expand = false;
        document
    }

    /// This document's facts, to be merged into another's.
    fn facts_for_merge(&self) -> expansion::Facts {
        let facts = self.tree_facts();
        let locals = facts
            .locals
            .iter()
            .zip(self.local_values(&facts))
            .map(|(binding, valued)| LocalBinding {
                local: valued.clone(),
                ..binding.clone()
            })
            .collect();
        expansion::Facts {
            symbols: facts.symbols.clone(),
            nodes: facts.symbol_nodes.clone(),
            locals,
            references: facts.references.references.clone(),
            imports: <Self as GuestDocument>::imports(self),
            declared_types: <Self as GuestDocument>::declared_types(self),
            symbol_values: <Self as GuestDocument>::symbol_values(self),
        }
    }

    /// `facts`' locals with their values (see [`TreeFacts::local_values`]).
    fn local_values<'f>(&self, facts: &'f TreeFacts) -> &'f [Local] {
        facts.local_values.get_or_init(|| {
            let state = self.state.borrow();
            facts
                .locals
                .iter()
                .map(|binding| {
                    // A binding a macro made has the value its expansion's
                    // tree gave it; the file's tree has a token tree there.
                    if binding.local.value.is_some() {
                        return binding.local.clone();
                    }
                    let (value, element) = facts::local_value::<L>(
                        &state.tree,
                        &state.source,
                        binding,
                        &facts.references,
                    )
                    .map_or((None, Vec::new()), |(value, element)| {
                        (Some(value), element)
                    });
                    Local {
                        value,
                        element,
                        ..binding.local.clone()
                    }
                })
                .collect()
        })
    }
}

/// The tree of `source`, parsed as the language wants it seen
/// ([`Language::parsed_text`]). Incremental (from `old`) only when the text
/// is parsed as it is: what a language leaves out can change far from an
/// edit.
fn parse<L: Language>(parser: &mut Parser, source: &str, old: Option<&Tree>) -> Tree {
    let prepared = L::parsed_text(source).filter(|text| same_layout(text, source));
    let (text, old) = match &prepared {
        Some(text) => (text.as_str(), None),
        None => (source, old),
    };
    // Parsing only fails on cancellation or a missing language, neither of
    // which can happen here; an empty tree would hide that, so fail loudly.
    parser
        .parse(text, old)
        .expect("tree-sitter parse with a language set")
}

/// Whether `text` can stand in for `source` in a parse: as many bytes, and
/// a newline wherever `source` has one, so every span and line agrees.
fn same_layout(text: &str, source: &str) -> bool {
    text.len() == source.len()
        && text
            .bytes()
            .zip(source.bytes())
            .all(|(a, b)| (a == b'\n') == (b == b'\n'))
}

impl<L: Language> GuestDocument for Document<L> {
    fn new(path: String, source: String) -> Self {
        let (language, grammar) = L::grammar(&path);
        let mut parser = Parser::new();
        parser
            .set_language(&grammar)
            .expect("grammar compatible with the SDK's tree-sitter");
        let tree = parse::<L>(&mut parser, &source, None);
        let lines = LineIndex::new(&source);
        Document {
            state: RefCell::new(State {
                path,
                language,
                source,
                tree,
                lines,
                parser,
                facts: None,
                expand: true,
                given: Vec::new(),
            }),
            _language: PhantomData,
        }
    }

    fn update(&self, edits: Vec<TextEdit>) -> Result<(), PluginError> {
        let mut state = self.state.borrow_mut();
        let mut edits = edits;
        edits.sort_by_key(|e| e.start);
        let mut last_end = 0;
        for edit in &edits {
            let (start, end) = (edit.start as usize, edit.end as usize);
            if start < last_end || end < start || end > state.source.len() {
                return Err(PluginError::InvalidInput(format!(
                    "edit {start}..{end} overlaps another edit or lies outside the text ({} bytes)",
                    state.source.len()
                )));
            }
            if !state.source.is_char_boundary(start) || !state.source.is_char_boundary(end) {
                return Err(PluginError::InvalidInput(format!(
                    "edit {start}..{end} splits a UTF-8 character"
                )));
            }
            last_end = end;
        }
        // Apply back to front so earlier offsets stay valid.
        for edit in edits.iter().rev() {
            let (start, end) = (edit.start as usize, edit.end as usize);
            let start_position = point(&state.source, start);
            let old_end_position = point(&state.source, end);
            state.source.replace_range(start..end, &edit.new_text);
            let new_end = start + edit.new_text.len();
            let new_end_position = point(&state.source, new_end);
            state.tree.edit(&InputEdit {
                start_byte: start,
                old_end_byte: end,
                new_end_byte: new_end,
                start_position,
                old_end_position,
                new_end_position,
            });
        }
        let State {
            parser,
            source,
            tree,
            ..
        } = &mut *state;
        let new_tree = parse::<L>(parser, source, Some(tree));
        state.tree = new_tree;
        state.lines = LineIndex::new(&state.source);
        state.facts = None;
        Ok(())
    }

    fn text(&self) -> String {
        self.state.borrow().source.clone()
    }

    fn language(&self) -> String {
        self.state.borrow().language.to_string()
    }

    fn symbols(&self) -> Vec<Symbol> {
        self.tree_facts().symbols.clone()
    }

    fn references(&self) -> Vec<Reference> {
        self.tree_facts().references.references.clone()
    }

    fn imports(&self) -> Vec<Import> {
        let Some(imports) = L::IMPORTS else {
            return Vec::new();
        };
        let mut found = {
            let state = self.state.borrow();
            imports(
                &state.path,
                state.tree.root_node(),
                &state.source,
                &state.lines,
            )
        };
        found.extend(self.tree_facts().expanded_imports.iter().cloned());
        found
    }

    fn locals(&self) -> Vec<Local> {
        let facts = self.tree_facts();
        self.local_values(&facts).to_vec()
    }

    fn diagnostics(&self) -> Vec<Diagnostic> {
        let state = self.state.borrow();
        facts::diagnostics(&state.tree, &state.source, &state.lines)
    }

    fn metrics(&self) -> Vec<FunctionMetrics> {
        let facts = self.tree_facts();
        let state = self.state.borrow();
        metrics::function_metrics::<L>(
            state.tree.root_node(),
            &state.source,
            &facts.symbols,
            &facts.symbol_nodes,
            L::metrics_config(),
            L::symbol_config().comment_kinds,
        )
    }

    fn declared_types(&self) -> Vec<DeclaredType> {
        let facts = self.tree_facts();
        let locals = self.local_values(&facts);
        let state = self.state.borrow();
        let mut declared = L::declared_types(
            state.tree.root_node(),
            &state.source,
            &state.lines,
            &facts.symbols,
            locals,
        );
        declared.extend(facts.expanded_declared_types.iter().cloned());
        // A name the parser invented to recover from an error (a missing
        // node) is empty: no type is stated there.
        declared.retain(|d| !d.type_name.is_empty());
        declared
    }

    fn parameter_lists(&self) -> Vec<ParameterList> {
        let Some(hooks) = L::OVERLOAD_TYPES else {
            return Vec::new();
        };
        let facts = self.tree_facts();
        let state = self.state.borrow();
        overloads::parameter_lists(
            &hooks,
            state.tree.root_node(),
            &state.source,
            &state.lines,
            &facts.symbols,
            &facts.symbol_nodes,
        )
    }

    fn call_arguments(&self) -> Vec<CallArguments> {
        let Some(hooks) = L::OVERLOAD_TYPES else {
            return Vec::new();
        };
        let facts = self.tree_facts();
        let state = self.state.borrow();
        overloads::call_arguments::<L>(
            &hooks,
            state.tree.root_node(),
            &state.source,
            &facts.references,
            &facts.locals,
        )
    }

    fn symbol_values(&self) -> Vec<SymbolValue> {
        let facts = self.tree_facts();
        let state = self.state.borrow();
        facts
            .symbols
            .iter()
            .enumerate()
            .filter(|(_, symbol)| {
                matches!(
                    symbol.kind,
                    SymbolKind::Variable
                        | SymbolKind::Constant
                        | SymbolKind::Field
                        | SymbolKind::Property
                )
            })
            .filter_map(|(index, symbol)| {
                let name = (
                    symbol.name_span.start.offset as usize,
                    symbol.name_span.end.offset as usize,
                );
                let (value, element) =
                    facts::initial_value::<L>(&state.tree, &state.source, name, &facts.references)?;
                Some(SymbolValue {
                    symbol: index as u32,
                    value,
                    element,
                })
            })
            .chain(facts.expanded_symbol_values.iter().cloned())
            .collect()
    }

    fn narrowings(&self) -> Vec<Narrowing> {
        let facts = self.tree_facts();
        let state = self.state.borrow();
        let linked = &facts.references;
        let mut found: Vec<Narrowing> = linked
            .references
            .iter()
            .filter_map(|access| access.receiver)
            .filter(|receiver| !receiver.called && !receiver.indexed)
            .filter_map(|receiver| {
                let value = linked.references.get(receiver.reference as usize)?;
                value.local?;
                let (start, end) = (
                    value.span.start.offset as usize,
                    value.span.end.offset as usize,
                );
                let node = state
                    .tree
                    .root_node()
                    .descendant_for_byte_range(start, end)
                    .filter(|n| n.start_byte() == start && n.end_byte() == end)?;
                let by = L::narrowed_by(node, &state.source)?;
                let by = linked.at((by.start_byte(), by.end_byte()))?.reference;
                (by != receiver.reference).then_some(Narrowing {
                    value: receiver.reference,
                    by,
                })
            })
            .collect();
        found.sort_by_key(|n| n.value);
        found.dedup_by_key(|n| n.value);
        found
    }

    fn parameter_contexts(&self) -> Vec<ParameterContext> {
        let facts = self.tree_facts();
        let state = self.state.borrow();
        let linked = &facts.references;
        let view = embedded::View::file(&state.source);
        let root = state.tree.root_node();
        // A parameter of a function expression written for a parameter or
        // where a function type is stated: typed by the parameter of that
        // function type at its position.
        let of_locals = facts
            .locals
            .iter()
            .enumerate()
            .filter_map(|(index, binding)| {
                let (start, end) = (binding.start, binding.local.span.end.offset as usize);
                let name = root
                    .descendant_for_byte_range(start, end)
                    .filter(|n| n.start_byte() == start && n.end_byte() == end)?;
                let (function, position) = L::untyped_parameter(name)?;
                let site = L::parameter_site(function, view.text)?;
                let function = linked
                    .function_at(facts::SiteRange::of(site.function, &view)?)
                    .filter(|f| !f.indexed)?;
                let mut parameters = site.parameters;
                parameters.push(position);
                Some(ParameterContext {
                    target: ContextTarget::Local(index as u32),
                    function,
                    parameters,
                })
            });
        let mut found: Vec<ParameterContext> = linked
            .parameter_contexts
            .iter()
            .cloned()
            .chain(of_locals)
            .collect();
        found.sort_by_key(|context| match context.target {
            ContextTarget::Member(index) => (0, index),
            ContextTarget::Local(index) => (1, index),
        });
        found
    }

    fn entry_points(&self) -> Vec<EntryPoint> {
        self.tree_facts()
            .symbol_nodes
            .iter()
            .enumerate()
            .filter_map(|(index, node)| {
                Some(EntryPoint {
                    symbol: index as u32,
                    kind: node.entry_point?,
                })
            })
            .collect()
    }

    fn unreachable(&self) -> Vec<Span> {
        let state = self.state.borrow();
        crate::unreachable::unreachable::<L>(&state.tree, &state.source, &state.lines)
    }

    fn tokens(&self) -> Vec<Token> {
        let state = self.state.borrow();
        crate::tokens::tokens::<L>(&state.tree, &state.source)
    }

    fn macro_definitions(&self) -> Vec<MacroDefinition> {
        let state = self.state.borrow();
        L::macro_definitions(state.tree.root_node(), &state.source)
            .into_iter()
            .filter_map(|defined| {
                let (start, end) = (defined.range.0 as usize, defined.range.1 as usize);
                (start < end && state.source.get(start..end).is_some()).then(|| MacroDefinition {
                    span: state.lines.span(&state.source, start, end),
                    name: defined.name,
                    exported: defined.exported,
                })
            })
            .collect()
    }

    fn unexpanded_macros(&self) -> Vec<UnexpandedMacro> {
        let facts = self.tree_facts();
        let state = self.state.borrow();
        facts
            .unexpanded
            .iter()
            .filter_map(|u| {
                let (start, end) = (u.range.0 as usize, u.range.1 as usize);
                let (from, to) = (u.extent.0 as usize, u.extent.1 as usize);
                state.source.get(start..end)?;
                state.source.get(from..to)?;
                Some(UnexpandedMacro {
                    name: u.name.clone(),
                    span: state.lines.span(&state.source, start, end),
                    extent: state.lines.span(&state.source, from, to),
                    reason: u.reason.as_str().to_string(),
                })
            })
            .collect()
    }

    fn expand(&self, macros: Vec<MacroSource>) -> Result<(), PluginError> {
        let mut state = self.state.borrow_mut();
        state.given = macros;
        state.facts = None;
        Ok(())
    }

    fn node_at(&self, offset: u32) -> Vec<SyntaxNode> {
        let state = self.state.borrow();
        let offset = (offset as usize).min(state.source.len());
        let root = state.tree.root_node();
        let Some(target) = root.descendant_for_byte_range(offset, offset) else {
            return Vec::new();
        };
        // The ancestors from the root down: `Node::parent` starts from the
        // root each time, which made deep nesting quadratic.
        let mut chain = vec![root];
        let mut node = root;
        while node.id() != target.id() {
            match node.child_with_descendant(target) {
                Some(child) => {
                    chain.push(child);
                    node = child;
                }
                None => break,
            }
        }
        chain
            .into_iter()
            .rev()
            .map(|n| SyntaxNode {
                kind: n.kind().to_string(),
                span: state
                    .lines
                    .span(&state.source, n.start_byte(), n.end_byte()),
                named: n.is_named(),
            })
            .collect()
    }
}

/// The tree-sitter point (row, byte column) of `offset`.
fn point(source: &str, offset: usize) -> Point {
    let before = &source[..offset];
    let row = before.matches('\n').count();
    let column = offset - before.rfind('\n').map_or(0, |i| i + 1);
    Point { row, column }
}
