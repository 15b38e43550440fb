//! `rename` of a symbol, a type or a parameter: the declaration (with the
//! other parts of a partial type and the constructors named after a type)
//! and every reference `find_references` resolves to it with certainty,
//! refused on a name clash, checked by parsing the edited files again.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use super::RefactorError;
use super::edit::LineIndex;
use super::plan::{
    self, DocumentChange, DocumentId, FileOperation, Plan, RenameNames, TextDocumentEdit, TextEdit,
    Warning, warning,
};
use crate::reanalyse::reanalyse;
use lingo_analysis::{Analysis, FilePosition, References, SiteView, Subject, Target};
use lingo_index::FileEntry;
use lingo_model::budget::Exhausted;
use lingo_model::{FileFacts, Span, SymbolKind};
use lingo_resolve::{SymbolRef, is_type_kind};

/// Longest new name accepted.
const MAX_NAME_BYTES: usize = 256;

/// What `rename` may be asked to rename.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RenameKind {
    /// Any declaration or local.
    Symbol,
    /// A class, struct, interface, enum or type parameter.
    Type,
    /// A parameter (a local binding the plugin tags `parameter`).
    Parameter,
}

impl RenameKind {
    pub const NAMES: &[&str] = &["symbol", "type", "parameter"];

    pub fn parse(text: &str) -> Option<RenameKind> {
        match text {
            "symbol" => Some(RenameKind::Symbol),
            "type" => Some(RenameKind::Type),
            "parameter" => Some(RenameKind::Parameter),
            _ => None,
        }
    }

    fn as_str(self) -> &'static str {
        match self {
            RenameKind::Symbol => "symbol",
            RenameKind::Type => "type",
            RenameKind::Parameter => "parameter",
        }
    }
}

/// A rename to plan.
#[derive(Debug, Clone)]
pub struct RenameRequest {
    pub target: Target,
    pub new_name: String,
    pub kind: RenameKind,
    /// Skip the checks that parse the edited files (VALIDATION_SKIPPED).
    pub force: bool,
}

/// One name to replace: a declaration's or a reference's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Site {
    start: usize,
    end: usize,
    /// Whether a declaration's own name (checked to parse as one again).
    declaration: bool,
}

/// Plan the rename `request` asks for on `analysis`'s snapshot.
pub fn plan_rename(analysis: &Analysis, request: &RenameRequest) -> Result<Plan, RefactorError> {
    let subject = analysis.subject(&request.target)?;
    let old_name = subject_name(analysis, &subject)?;
    check_kind(analysis, &subject, request.kind, &old_name)?;
    check_name_shape(&request.new_name, &old_name)?;
    check_declared(analysis, &subject, &request.new_name, &old_name)?;
    let new_name = request.new_name.as_str();

    // The declarations that carry the name: the subject, a type's other
    // parts and the constructors named after it; for a member, its
    // counterparts in the types related by base lists (what it overrides
    // or implements, what overrides or implements it), each checked for a
    // clash in its own type.
    let mut declarations = declarations_renamed_with(analysis, &subject, &old_name);
    let hierarchy = match &subject {
        Subject::Symbol(r) => hierarchy(analysis, *r, &old_name)?,
        Subject::Local { .. } => Hierarchy::default(),
    };
    for member in &hierarchy.members {
        let member = Subject::Symbol(*member);
        check_declared(analysis, &member, &request.new_name, &old_name)?;
        for renamed in declarations_renamed_with(analysis, &member, &old_name) {
            if !declarations.iter().any(|d| d.is(&renamed)) {
                declarations.push(renamed);
            }
        }
    }
    let mut sites: BTreeMap<String, BTreeSet<Site>> = BTreeMap::new();
    let mut guessed = Vec::new();
    let mut missed = Vec::new();
    let mut complete = true;
    for declaration in &declarations {
        let (file, span) = declaration.name(analysis)?;
        sites.entry(file.path.clone()).or_default().insert(Site {
            start: span.start.offset as usize,
            end: span.end.offset as usize,
            declaration: true,
        });
        let references = analysis.references(&target_at(&file, &span))?;
        complete &= references.completeness.complete;
        collect_sites(analysis, &references, &mut sites, &mut guessed)?;
        missed.extend(
            references
                .completeness
                .possibly_missed_sites
                .iter()
                .flatten()
                .map(SiteView::label),
        );
    }

    let mut warnings = Vec::new();
    if !hierarchy.unmatched.is_empty() {
        warnings.push(Warning::listed(
            warning::POTENTIAL_BEHAVIOR_CHANGE,
            format!(
                "`{old_name}` is related by base lists to {} members it could not be matched with one to one (overloads, or a base list resolved by name only), which keep their name: the types may stop matching; rename those too, or apply with `force`",
                hierarchy.unmatched.len()
            ),
            hierarchy.unmatched.clone(),
        ));
    }
    let outside = declarations_implementing_outside(analysis, &declarations, &old_name)?;
    if !outside.is_empty() {
        warnings.push(Warning::listed(
            warning::POTENTIAL_BEHAVIOR_CHANGE,
            format!(
                "`{old_name}` implements or overrides a member of a type outside the workspace, which keeps its name: the implementation stops matching it; apply with `force` only if that is meant"
            ),
            outside,
        ));
    }
    let mut edits = Vec::new();
    let mut checksums = BTreeMap::new();
    let mut language = String::new();
    let mut unparsed = Vec::new();
    let mut shared = Vec::new();
    for (path, file_sites) in &sites {
        let file = analysis.file(path)?;
        let facts = file.facts()?;
        if language.is_empty() {
            language = facts.language.clone();
        }
        check_editable(&file)?;
        check_captures(&file, facts, &subject, file_sites, new_name, &old_name)?;
        let shorthands = shared_sites(facts, file_sites);
        let source = file.source();
        let index = LineIndex::new(&source);
        let mut text_edits = Vec::with_capacity(file_sites.len());
        let mut replaced = Vec::with_capacity(file_sites.len());
        for site in file_sites {
            if shorthands.contains(&site.start) {
                // One name for a member and a value: written out in full
                // (`{ payload: body }`), each keeps its meaning.
                let written =
                    written_out(analysis, &subject, &file, facts, site, &old_name, new_name);
                if let Some(written) = written {
                    text_edits.extend(written.into_iter().map(|(start, end, new_text)| TextEdit {
                        range: plan::Range {
                            start: index.position(start),
                            end: index.position(end),
                        },
                        new_text,
                    }));
                    continue;
                }
                shared.push(format!("{path}:{}", line_of(&file.source(), site.start)));
            }
            // The name is the end of the span (`r#type`, `@class` spell it
            // with a prefix); a span that does not end with it is left.
            let text = &file.source()[site.start..site.end];
            let Some(prefix) = text.strip_suffix(old_name.as_str()) else {
                // Another word the language lets stand for the name (a
                // Rust `Self`) goes on meaning the renamed declaration.
                let another_word =
                    !text.is_empty() && text.chars().all(|c| c.is_alphanumeric() || c == '_');
                if !another_word {
                    unparsed.push(format!("{path}:{}", line_of(&file.source(), site.start)));
                }
                continue;
            };
            let start = site.start + prefix.len();
            let range = plan::Range {
                start: index.position(start),
                end: index.position(site.end),
            };
            text_edits.push(TextEdit {
                range,
                new_text: new_name.to_string(),
            });
            replaced.push((start, site.end, site.declaration));
        }
        if text_edits.is_empty() {
            continue;
        }
        if !request.force {
            validate_reparse(&file, facts, &replaced, new_name, &old_name, analysis)?;
        }
        checksums.insert(path.clone(), plan::checksum(&file.sha256));
        edits.push(DocumentChange::Edit(TextDocumentEdit {
            text_document: DocumentId {
                uri: path.clone(),
                version: None,
            },
            edits: text_edits,
        }));
    }
    // A public top-level type named as its file, where the language says
    // so (Java): the file takes the new name, after its edits.
    if let Subject::Symbol(r) = &subject
        && let Some(renamed) = file_named_after(analysis, *r, &old_name, new_name)?
    {
        edits.push(renamed);
    }
    if request.force {
        warnings.push(Warning {
            code: warning::VALIDATION_SKIPPED.into(),
            message: "made with `force`: the edited files were not parsed again".into(),
            sites: Vec::new(),
        });
    }
    if !unparsed.is_empty() {
        warnings.push(Warning::listed(
            warning::PARTIAL_APPLY,
            format!(
                "{} sites do not spell `{old_name}` as the index recorded and are left as they are",
                unparsed.len()
            ),
            unparsed,
        ));
    }
    if !shared.is_empty() {
        warnings.push(Warning::listed(
            warning::POTENTIAL_BEHAVIOR_CHANGE,
            format!(
                "{} sites name `{old_name}` and another binding at once (a shorthand field or pattern such as `{{ {old_name} }}`) that the language's plugin could not write out in full: renaming them changes what the other name means; write them out first, or apply with `force`",
                shared.len()
            ),
            shared,
        ));
    }
    if !complete || !guessed.is_empty() {
        // A site reached from two declarations (a getter and its setter)
        // is one site.
        let mut seen = BTreeSet::new();
        guessed.retain(|site| seen.insert(site.clone()));
        missed.retain(|site| seen.insert(site.clone()));
        let mut listed = guessed.clone();
        listed.extend(missed.iter().cloned());
        warnings.push(Warning::listed(
            warning::INCOMPLETE_REFERENCES,
            format!(
                "the references of `{old_name}` may not be all: {} uses resolved by name only are not renamed, and {} same-named uses nothing resolved may be missed; applying needs `force`",
                guessed.len(),
                missed.len()
            ),
            listed,
        ));
    }
    Ok(Plan::new(
        "RenamePlan",
        format!("rename.{}", request.kind.as_str()),
        language,
        analysis.generation(),
        edits,
        warnings,
        checksums,
        Some(RenameNames {
            from: old_name,
            to: new_name.to_string(),
        }),
    ))
}

/// The file rename a rename of `symbol` brings with it: a public type at
/// the top of a file named after it (`Parser.java`), where the language's
/// policy says a file is named after its public type. An error when a
/// file of the new name exists.
fn file_named_after(
    analysis: &Analysis,
    symbol: SymbolRef,
    old_name: &str,
    new_name: &str,
) -> Result<Option<DocumentChange>, RefactorError> {
    let table = analysis.table();
    let file = table.file(symbol);
    let declared = table.symbol(symbol);
    if !file.plugin.info().policy.file_named_after_public_type
        || declared.container.is_some()
        || declared.visibility != lingo_model::Visibility::Public
        || !is_type_kind(declared.kind)
    {
        return Ok(None);
    }
    let (folder, file_name) = match file.path.rsplit_once('/') {
        Some((folder, name)) => (Some(folder), name),
        None => (None, file.path.as_str()),
    };
    let Some((stem, extension)) = file_name.split_once('.') else {
        return Ok(None);
    };
    if stem != old_name {
        return Ok(None);
    }
    let new_file = format!("{new_name}.{extension}");
    let new_path = match folder {
        Some(folder) => format!("{folder}/{new_file}"),
        None => new_file,
    };
    if analysis.file(&new_path).is_ok() || analysis.workspace().root().join(&new_path).exists() {
        return Err(RefactorError::InvalidName {
            name: new_name.to_string(),
            reason: format!(
                "`{old_name}` is public and named as its file, which would become `{new_path}`; that file exists"
            ),
        });
    }
    Ok(Some(DocumentChange::File(FileOperation::Rename {
        old_uri: file.path.clone(),
        new_uri: new_path,
    })))
}

/// A declaration whose name a rename replaces.
enum Renamed {
    Symbol(SymbolRef),
    Local { file: Arc<FileEntry>, index: usize },
}

impl Renamed {
    /// Whether it is the same declaration as `other`.
    fn is(&self, other: &Renamed) -> bool {
        match (self, other) {
            (Renamed::Symbol(a), Renamed::Symbol(b)) => a == b,
            (
                Renamed::Local { file, index },
                Renamed::Local {
                    file: other_file,
                    index: other_index,
                },
            ) => file.path == other_file.path && index == other_index,
            _ => false,
        }
    }

    /// Its file and the span of its name.
    fn name(&self, analysis: &Analysis) -> Result<(Arc<FileEntry>, Span), RefactorError> {
        Ok(match self {
            Renamed::Symbol(r) => {
                let table = analysis.table();
                (table.file(*r).clone(), table.symbol(*r).name_span)
            }
            Renamed::Local { file, index } => (file.clone(), file.facts()?.locals[*index].span),
        })
    }
}

/// A target naming the declaration whose name is at `span` of `file`.
fn target_at(file: &FileEntry, span: &Span) -> Target {
    Target::Position(FilePosition {
        path: file.path.clone(),
        line: span.start.line.into(),
        character: span.start.character.into(),
    })
}

fn subject_name(analysis: &Analysis, subject: &Subject) -> Result<String, RefactorError> {
    Ok(match subject {
        Subject::Symbol(r) => analysis.table().symbol(*r).name.to_string(),
        Subject::Local { file, index } => file.facts()?.locals[*index].name.to_string(),
    })
}

/// The subject, the other parts of a partial type, and the constructors
/// that carry a type's name (C#); no two the same.
fn declarations_renamed_with(analysis: &Analysis, subject: &Subject, name: &str) -> Vec<Renamed> {
    let r = match subject {
        Subject::Local { file, index } => {
            return vec![Renamed::Local {
                file: file.clone(),
                index: *index,
            }];
        }
        Subject::Symbol(r) => *r,
    };
    let table = analysis.table();
    // A constructor named after its type renames the type (and with it
    // every constructor).
    let symbol = table.symbol(r);
    let ty = match (symbol.kind, symbol.container) {
        (SymbolKind::Constructor, Some(container)) => {
            let owner = SymbolRef {
                file: r.file,
                symbol: container,
            };
            if table.symbol(owner).name == name {
                owner
            } else {
                return vec![Renamed::Symbol(r)];
            }
        }
        _ => r,
    };
    let parts = analysis.resolver().parts_of(ty);
    let mut out: Vec<SymbolRef> = parts.clone();
    for part in &parts {
        out.extend(named_in(
            analysis,
            *part,
            Some(part.symbol),
            SymbolKind::Constructor,
            name,
        ));
    }
    // A type has one property of a name: its declarations of that name
    // are its accessors (`get x()` and `set x(v)`), renamed together.
    if symbol.kind == SymbolKind::Property && symbol.container.is_some() {
        out.extend(named_in(
            analysis,
            r,
            symbol.container,
            SymbolKind::Property,
            name,
        ));
    }
    out.sort();
    out.dedup();
    out.into_iter().map(Renamed::Symbol).collect()
}

/// The declarations of `kind` named `name` in `container` of the file of
/// `of` (none when the file's facts are gone).
fn named_in(
    analysis: &Analysis,
    of: SymbolRef,
    container: Option<u32>,
    kind: SymbolKind,
    name: &str,
) -> Vec<SymbolRef> {
    let Ok(facts) = &analysis.table().file(of).facts else {
        return Vec::new();
    };
    facts
        .symbols
        .iter()
        .enumerate()
        .filter(|(_, s)| s.kind == kind && s.container == container && s.name == name)
        .map(|(i, _)| SymbolRef {
            file: of.file,
            symbol: i as u32,
        })
        .collect()
}

/// Most steps taken along base lists from one type.
const MAX_HIERARCHY_STEPS: usize = 8;
/// Most types a member's hierarchy takes in.
const MAX_HIERARCHY_TYPES: usize = 64;

/// A member's counterparts in the types related to its own by base lists.
#[derive(Debug, Default)]
struct Hierarchy {
    /// One per related type: the member of the name there (or the one of
    /// the same arity among its overloads), renamed with the subject.
    members: Vec<SymbolRef>,
    /// Same-named members that could not be matched one to one, as
    /// `path:line`: overloads of other arities alike, or a type related
    /// only by a base list resolved by name.
    unmatched: Vec<String>,
}

/// The counterparts of the member `member` named `name` in the types
/// related to its owner by EXTENDS and IMPLEMENTS edges, either way and
/// transitively (bounded by [`MAX_HIERARCHY_STEPS`] and
/// [`MAX_HIERARCHY_TYPES`]): what it overrides or implements, what
/// overrides or implements it, and those's siblings.
fn hierarchy(analysis: &Analysis, member: SymbolRef, name: &str) -> Result<Hierarchy, Exhausted> {
    let table = analysis.table();
    let symbol = table.symbol(member);
    let Some(owner) = symbol.container else {
        return Ok(Hierarchy::default());
    };
    if is_type_kind(symbol.kind) {
        return Ok(Hierarchy::default());
    }
    let owner = SymbolRef {
        file: member.file,
        symbol: owner,
    };
    let own_parts = analysis.resolver().parts_of(owner);
    let related = related_types(analysis, &own_parts, Reach::BothWays)?;
    let mut hierarchy = Hierarchy::default();
    for (ty, certain) in related {
        if own_parts.contains(&ty) {
            continue;
        }
        let candidates = named_in(analysis, ty, Some(ty.symbol), symbol.kind, name);
        let candidates = if candidates.is_empty() {
            // A field may stand for a property, a property for a method
            // (an interface's `name: string` a class's `get name()`).
            members_named(analysis, ty, name)
        } else {
            candidates
        };
        let counterpart = match candidates.as_slice() {
            [] => None,
            [one] => Some(*one),
            several => {
                let same_arity: Vec<SymbolRef> = several
                    .iter()
                    .copied()
                    .filter(|c| symbol.arity.is_some() && table.symbol(*c).arity == symbol.arity)
                    .collect();
                (same_arity.len() == 1).then(|| same_arity[0])
            }
        };
        match counterpart {
            Some(counterpart) if certain => hierarchy.members.push(counterpart),
            _ => hierarchy
                .unmatched
                .extend(candidates.iter().map(|c| declaration_label(analysis, *c))),
        }
    }
    Ok(hierarchy)
}

/// The members of the type `ty` named `name`, of any kind but a type's
/// (none when the file's facts are gone).
fn members_named(analysis: &Analysis, ty: SymbolRef, name: &str) -> Vec<SymbolRef> {
    let Ok(facts) = &analysis.table().file(ty).facts else {
        return Vec::new();
    };
    facts
        .symbols
        .iter()
        .enumerate()
        .filter(|(_, s)| s.container == Some(ty.symbol) && s.name == name && !is_type_kind(s.kind))
        .map(|(i, _)| SymbolRef {
            file: ty.file,
            symbol: i as u32,
        })
        .collect()
}

/// Which way [`related_types`] follows base lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reach {
    /// To the types a type extends or implements, and theirs.
    Supertypes,
    /// Both ways: supertypes, subtypes, and their other relatives.
    BothWays,
}

/// The types related to `start` (the parts of one type) by EXTENDS and
/// IMPLEMENTS edges, with whether every edge on the way was resolved
/// beyond a guess by name; bounded by [`MAX_HIERARCHY_STEPS`] and
/// [`MAX_HIERARCHY_TYPES`].
fn related_types(
    analysis: &Analysis,
    start: &[SymbolRef],
    reach: Reach,
) -> Result<BTreeMap<SymbolRef, bool>, Exhausted> {
    use lingo_resolve::graph::{EdgeKind, Node};
    let graph = analysis.graph()?;
    let directions: &[petgraph::Direction] = match reach {
        Reach::Supertypes => &[petgraph::Direction::Outgoing],
        Reach::BothWays => &[petgraph::Direction::Outgoing, petgraph::Direction::Incoming],
    };
    let mut seen: BTreeMap<SymbolRef, bool> = start.iter().map(|t| (*t, true)).collect();
    let mut frontier: Vec<(SymbolRef, bool)> = start.iter().map(|t| (*t, true)).collect();
    for _ in 0..MAX_HIERARCHY_STEPS {
        let mut next = Vec::new();
        for (ty, certain) in frontier {
            for direction in directions {
                for (edge, other) in graph.edges(Node::Symbol(ty), *direction) {
                    if !matches!(edge.kind, EdgeKind::Extends | EdgeKind::Implements) {
                        continue;
                    }
                    let Node::Symbol(other) = other else {
                        continue;
                    };
                    let certain = certain && edge.resolution != lingo_resolve::Resolution::NameOnly;
                    if seen.len() < MAX_HIERARCHY_TYPES && !seen.contains_key(&other) {
                        seen.insert(other, certain);
                        next.push((other, certain));
                    }
                }
            }
        }
        if next.is_empty() {
            break;
        }
        frontier = next;
    }
    Ok(seen)
}

/// The declarations among `declarations` the plugin says are called
/// through a supertype they implement or override (an entry point of
/// kind `implementation`: a Rust trait impl's item, an `override`) while
/// no supertype in the workspace declares a member named `name`: what
/// they implement is outside it, and keeps its name. As `path:line`.
fn declarations_implementing_outside(
    analysis: &Analysis,
    declarations: &[Renamed],
    name: &str,
) -> Result<Vec<String>, Exhausted> {
    let table = analysis.table();
    let mut outside = Vec::new();
    for declaration in declarations {
        let Renamed::Symbol(r) = declaration else {
            continue;
        };
        let Ok(facts) = &table.file(*r).facts else {
            continue;
        };
        let implements = facts.entry_points.iter().flatten().any(|entry| {
            entry.symbol == r.symbol && entry.kind == lingo_model::EntryPointKind::Implementation
        });
        if !implements {
            continue;
        }
        let Some(owner) = table.symbol(*r).container else {
            // An implementation outside any type the plugin declares
            // (an `impl` for a type it does not name): what it implements
            // cannot be told, so neither can that it is renamed too.
            outside.push(declaration_label(analysis, *r));
            continue;
        };
        let owner = SymbolRef {
            file: r.file,
            symbol: owner,
        };
        let parts = analysis.resolver().parts_of(owner);
        let supertypes = related_types(analysis, &parts, Reach::Supertypes)?;
        let implemented_here = supertypes
            .keys()
            .any(|ty| !parts.contains(ty) && !members_named(analysis, *ty, name).is_empty());
        if !implemented_here {
            outside.push(declaration_label(analysis, *r));
        }
    }
    Ok(outside)
}

/// `path:line` of the declaration `r`.
fn declaration_label(analysis: &Analysis, r: SymbolRef) -> String {
    let table = analysis.table();
    format!(
        "{}:{}",
        table.file(r).path,
        table.symbol(r).name_span.start.line + 1
    )
}

/// The certain sites of `references` into `sites`; the guesses, as
/// `path:line:col`, into `guessed`.
fn collect_sites(
    analysis: &Analysis,
    references: &References,
    sites: &mut BTreeMap<String, BTreeSet<Site>>,
    guessed: &mut Vec<String>,
) -> Result<(), RefactorError> {
    let mut by_file: BTreeMap<&str, Vec<lingo_analysis::Range>> = BTreeMap::new();
    for site in &references.sites {
        let certain =
            site.resolution != lingo_resolve::Resolution::NameOnly && site.confidence >= 1.0;
        if certain {
            by_file
                .entry(&site.site.file_path)
                .or_default()
                .push(site.site.range);
        } else {
            guessed.push(site.site.label());
        }
    }
    for (path, ranges) in by_file {
        let file = analysis.file(path)?;
        let source = file.source();
        let index = LineIndex::new(&source);
        let offset = |point: lingo_analysis::RangePoint| {
            index.offset(plan::Position {
                line: point.line,
                character: point.character,
            })
        };
        let into = sites.entry(path.to_string()).or_default();
        for range in ranges {
            if let (Some(start), Some(end)) = (offset(range.start), offset(range.end)) {
                into.insert(Site {
                    start,
                    end,
                    declaration: false,
                });
            }
        }
    }
    Ok(())
}

/// What `rename` with `kind` accepts.
fn check_kind(
    analysis: &Analysis,
    subject: &Subject,
    kind: RenameKind,
    name: &str,
) -> Result<(), RefactorError> {
    let (ok, found, expected) = match (kind, subject) {
        (RenameKind::Symbol, _) => (true, String::new(), ""),
        (RenameKind::Type, Subject::Symbol(r)) => {
            let kind = analysis.table().symbol(*r).kind;
            (
                is_type_kind(kind) || kind == SymbolKind::TypeParameter,
                kind.as_str().to_string(),
                "classes, structs, interfaces, enums and type parameters",
            )
        }
        (RenameKind::Type, Subject::Local { file, index }) => {
            let local = &file.facts()?.locals[*index];
            (
                local.language_kind == "type_parameter",
                format!("local {}", local.language_kind),
                "classes, structs, interfaces, enums and type parameters",
            )
        }
        (RenameKind::Parameter, Subject::Local { file, index }) => {
            let local = &file.facts()?.locals[*index];
            (
                local.language_kind == "parameter",
                format!("local {}", local.language_kind),
                "parameters",
            )
        }
        (RenameKind::Parameter, Subject::Symbol(r)) => (
            false,
            analysis.table().symbol(*r).kind.as_str().to_string(),
            "parameters",
        ),
    };
    if ok {
        Ok(())
    } else {
        Err(RefactorError::WrongKind {
            target: name.to_string(),
            kind: kind.as_str().to_string(),
            found,
            expected,
        })
    }
}

/// What any language's name must be: one non-empty word of printable
/// characters, different from the old name. Whether it is a valid
/// identifier of the language is checked by parsing the edited files.
fn check_name_shape(new_name: &str, old_name: &str) -> Result<(), RefactorError> {
    let invalid = |reason: &str| RefactorError::InvalidName {
        name: new_name.to_string(),
        reason: reason.to_string(),
    };
    if new_name.is_empty() {
        return Err(invalid("it is empty"));
    }
    if new_name.len() > MAX_NAME_BYTES {
        return Err(invalid("it is longer than 256 bytes"));
    }
    if new_name
        .chars()
        .any(|c| c.is_whitespace() || c.is_control())
    {
        return Err(invalid("it contains whitespace or control characters"));
    }
    if new_name == old_name {
        return Err(invalid("it is the current name"));
    }
    Ok(())
}

/// The file's text is its bytes (valid UTF-8), so edits made on the text
/// write exactly what they say.
pub(super) fn check_editable(file: &FileEntry) -> Result<(), RefactorError> {
    let sha = lingo_index::transaction::sha256_hex(file.source().as_bytes());
    if sha != file.sha256 {
        return Err(RefactorError::NotEditable {
            path: file.path.clone(),
            reason: "it is not valid UTF-8".into(),
        });
    }
    Ok(())
}

/// The sites (their starts) whose name is also another fact: a second
/// reference or a local declared on the same name (shorthand fields and
/// patterns, `Point { x }`, `{ x } = point`), where one spelling serves
/// two meanings.
fn shared_sites(facts: &FileFacts, sites: &BTreeSet<Site>) -> BTreeSet<usize> {
    let starts: BTreeSet<usize> = sites.iter().map(|s| s.start).collect();
    // The distinct uses starting at each site: the same use read again
    // (a macro invocation expanded several times) is one.
    let mut at: BTreeMap<usize, BTreeSet<String>> = BTreeMap::new();
    for reference in &facts.references {
        let start = reference.span.start.offset as usize;
        if starts.contains(&start) {
            let use_of = format!(
                "{:?} {} {:?} {} {}",
                reference.kind,
                reference.span.end.offset,
                reference.qualifier,
                reference.is_member,
                reference.local.get().is_some()
            );
            at.entry(start).or_default().insert(use_of);
        }
    }
    for local in &facts.locals {
        let start = local.span.start.offset as usize;
        if starts.contains(&start) {
            at.entry(start).or_default().insert("a binding".into());
        }
    }
    at.into_iter()
        .filter(|(_, uses)| uses.len() > 1)
        .map(|(start, _)| start)
        .collect()
}

/// Widest stretch around a shorthand's name that writing it out may edit
/// (`ref mut` before a Rust field pattern's name): a plugin's edits beyond
/// it are not trusted.
const SHORTHAND_REACH: usize = 256;

/// The edits (byte ranges of `file` and their text) that write out the
/// shorthand at `site`, the renamed meaning spelled `new_name` and the
/// other kept `old_name`: the member when a field, property or method is
/// renamed, else the value (a local, or a declaration the name reads).
/// `None` when the plugin cannot (an older ABI, no shorthand there) or
/// answers edits that do not stay around the name.
fn written_out(
    analysis: &Analysis,
    subject: &Subject,
    file: &FileEntry,
    facts: &FileFacts,
    site: &Site,
    old_name: &str,
    new_name: &str,
) -> Option<Vec<(usize, usize, String)>> {
    let renames_member = match subject {
        Subject::Local { .. } => false,
        Subject::Symbol(r) => matches!(
            analysis.table().symbol(*r).kind,
            SymbolKind::Field | SymbolKind::Property | SymbolKind::Method
        ),
    };
    let (member, value) = if renames_member {
        (new_name, old_name)
    } else {
        (old_name, new_name)
    };
    let span = facts
        .references
        .iter()
        .map(|r| r.span)
        .chain(facts.locals.iter().map(|l| l.span))
        .find(|span| {
            span.start.offset as usize == site.start && span.end.offset as usize == site.end
        })?;
    let edits =
        match file
            .plugin
            .write_out_shorthand(&file.path, &file.source(), &span, member, value)
        {
            Ok(edits) => edits,
            // Unsupported (an older plugin) or no shorthand there: the site
            // is listed in a warning instead.
            Err(_) => return None,
        };
    let trusted = trusted_shorthand_edits(&file.source(), (site.start, site.end), edits);
    if trusted.is_none() {
        let error = lingo_runtime::PluginError::InvalidOutput {
            plugin: file.plugin.info().name.clone(),
            rules: vec!["write-out-shorthand edits beyond the name".into()],
        };
        file.plugin.note_failure("write-out-shorthand", &error);
    }
    trusted
}

/// A plugin's edits writing out the shorthand named at `name` of
/// `source`, in order, if they are few, apart, on character boundaries and
/// within [`SHORTHAND_REACH`] of the name.
fn trusted_shorthand_edits(
    source: &str,
    name: (usize, usize),
    edits: Vec<(u32, u32, String)>,
) -> Option<Vec<(usize, usize, String)>> {
    if edits.is_empty() || edits.len() > 4 {
        return None;
    }
    let reach = name.0.saturating_sub(SHORTHAND_REACH)..=name.1 + SHORTHAND_REACH;
    let mut sorted: Vec<(usize, usize, String)> = edits
        .into_iter()
        .map(|(start, end, text)| (start as usize, end as usize, text))
        .collect();
    sorted.sort_by_key(|(start, end, _)| (*start, *end));
    let mut previous_end = 0;
    for (start, end, text) in &sorted {
        let fits = start <= end
            && reach.contains(start)
            && reach.contains(end)
            && *start >= previous_end
            && source.is_char_boundary(*start)
            && source.is_char_boundary(*end)
            && text.len() <= 2 * SHORTHAND_REACH + 2 * MAX_NAME_BYTES;
        if !fits {
            return None;
        }
        previous_end = *end;
    }
    Some(sorted)
}

/// Refuse a new name that clashes: another declaration of that name in
/// the same container (or at the top of the same module), or a local of
/// that name visible at a renamed site, which would capture it.
fn check_captures(
    file: &FileEntry,
    facts: &FileFacts,
    subject: &Subject,
    sites: &BTreeSet<Site>,
    new_name: &str,
    old_name: &str,
) -> Result<(), RefactorError> {
    let mut existing = Vec::new();
    let at = |offset: u32| format!("{}:{}", file.path, line_of(&file.source(), offset as usize));
    for local in facts.locals.iter().filter(|l| l.name == new_name) {
        let visible = |offset: usize| {
            local.scope.start.offset as usize <= offset && offset < local.scope.end.offset as usize
        };
        if sites.iter().any(|s| visible(s.start)) {
            existing.push(at(local.span.start.offset));
        }
    }
    // A local renamed to the name of something it then hides.
    if let Subject::Local { file: own, index } = subject
        && own.path == file.path
    {
        let scope = facts.locals[*index].scope;
        existing.extend(
            facts
                .references
                .iter()
                .filter(|r| r.name == new_name && r.local.get() != Some(*index as u32))
                .filter(|r| scope.contains_offset(r.span.start.offset))
                .map(|r| at(r.span.start.offset)),
        );
    }
    if !existing.is_empty() {
        existing.sort();
        existing.dedup();
        return Err(RefactorError::NameCollision {
            name: new_name.to_string(),
            old: old_name.to_string(),
            existing,
        });
    }
    Ok(())
}

/// Refuse a new name that clashes with a declaration in the same container,
/// or at the top level of the same module.
fn check_declared(
    analysis: &Analysis,
    subject: &Subject,
    new_name: &str,
    old_name: &str,
) -> Result<(), RefactorError> {
    let Subject::Symbol(r) = subject else {
        return Ok(());
    };
    let table = analysis.table();
    let symbol = table.symbol(*r);
    let modules = |file: u32| -> Vec<String> {
        table.files()[file as usize]
            .facts
            .as_ref()
            .map(|f| f.modules.iter().map(|m| m.path.clone()).collect())
            .unwrap_or_default()
    };
    let own_modules = modules(r.file);
    let mut existing: Vec<String> = table
        .named(new_name)
        .iter()
        .filter(|other| {
            let s = table.symbol(**other);
            s.container_name == symbol.container_name
                && (other.file == r.file && s.container == symbol.container
                    || modules(other.file).iter().any(|m| own_modules.contains(m)))
        })
        .map(|other| {
            let file = table.file(*other);
            let s = table.symbol(*other);
            format!(
                "{}:{} {}",
                file.path,
                s.name_span.start.line + 1,
                s.kind.as_str()
            )
        })
        .collect();
    if existing.is_empty() {
        return Ok(());
    }
    existing.sort();
    Err(RefactorError::NameCollision {
        name: new_name.to_string(),
        old: old_name.to_string(),
        existing,
    })
}

/// Parse the edited text with the file's plugin: it must not have more
/// syntax errors than before, and every renamed declaration must be a
/// declaration of the new name again (a keyword or a malformed name is
/// not).
fn validate_reparse(
    file: &FileEntry,
    facts: &FileFacts,
    replaced: &[(usize, usize, bool)],
    new_name: &str,
    old_name: &str,
    analysis: &Analysis,
) -> Result<(), RefactorError> {
    let mut sorted = replaced.to_vec();
    sorted.sort();
    let spans: Vec<(usize, usize, &str)> =
        sorted.iter().map(|(s, e, _)| (*s, *e, new_name)).collect();
    // Where each replaced name starts in the new text.
    let (text, starts) = super::edit::splice(&file.source(), &spans);
    let new_starts: Vec<(usize, bool)> = starts
        .into_iter()
        .zip(sorted.iter().map(|(_, _, declaration)| *declaration))
        .collect();
    let after = reanalyse(&*file.plugin, &file.path, &text, analysis.snapshot()).map_err(|e| {
        RefactorError::NotEditable {
            path: file.path.clone(),
            reason: format!("its plugin could not parse the edited text: {e}"),
        }
    })?;
    let invalid = |reason: String| RefactorError::InvalidName {
        name: new_name.to_string(),
        reason,
    };
    let (before, now) = (facts.syntax_errors(), after.syntax_errors());
    if now > before {
        return Err(invalid(format!(
            "`{}` would have {now} syntax errors instead of {before} with `{old_name}` renamed to `{new_name}`",
            file.path
        )));
    }
    // Every replaced name must be read as a name again: a declaration's,
    // a local's or a reference's (a keyword is none of them).
    let names_at = |start: usize, declaration: bool| {
        let declares = after
            .symbols
            .iter()
            .any(|s| s.name_span.start.offset as usize == start && s.name == new_name)
            || after
                .locals
                .iter()
                .any(|l| l.span.start.offset as usize == start && l.name == new_name);
        declares
            || (!declaration
                && after
                    .references
                    .iter()
                    .any(|r| r.span.start.offset as usize == start && r.name == new_name))
    };
    if let Some((start, declaration)) = new_starts
        .iter()
        .find(|(start, declaration)| !names_at(*start, *declaration))
    {
        let what = if *declaration {
            "a declaration's name"
        } else {
            "a name"
        };
        return Err(invalid(format!(
            "`{new_name}` does not parse as {what} in {} (at {}:{})",
            after.language,
            file.path,
            line_of(&text, *start)
        )));
    }
    Ok(())
}

/// The 1-based line of byte `offset`.
fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

#[cfg(test)]
mod tests {
    use super::{SHORTHAND_REACH, trusted_shorthand_edits};

    #[test]
    fn a_plugins_shorthand_edits_are_trusted_only_around_the_name() {
        let source = "let P { ref mut x, .. } = p; // é";
        let name = (16, 17);
        let edit = |start: u32, end: u32| (start, end, "x: ref mut y".to_string());
        // The pattern from `ref` through the name: kept.
        assert_eq!(
            trusted_shorthand_edits(source, name, vec![edit(8, 17)]),
            Some(vec![(8, 17, "x: ref mut y".to_string())])
        );
        // None at all, a hundred thousand, overlapping, reversed, beyond
        // the text or the reach, inside a character: refused.
        assert_eq!(trusted_shorthand_edits(source, name, Vec::new()), None);
        let many: Vec<_> = (0..100_000).map(|i| edit(i, i)).collect();
        assert_eq!(trusted_shorthand_edits(source, name, many), None);
        assert_eq!(
            trusted_shorthand_edits(source, name, vec![edit(8, 17), edit(10, 12)]),
            None
        );
        assert_eq!(
            trusted_shorthand_edits(source, name, vec![edit(17, 8)]),
            None
        );
        assert_eq!(
            trusted_shorthand_edits(source, name, vec![edit(16, u32::MAX)]),
            None
        );
        let far = (17 + SHORTHAND_REACH + 1) as u32;
        assert_eq!(
            trusted_shorthand_edits(source, name, vec![edit(16, far)]),
            None
        );
        let inside_e_acute = (source.len() - 1) as u32;
        assert_eq!(
            trusted_shorthand_edits(source, name, vec![edit(16, inside_e_acute)]),
            None
        );
        // A mebibyte of text: refused.
        let huge = vec![(16, 17, "y".repeat(1 << 20))];
        assert_eq!(trusted_shorthand_edits(source, name, huge), None);
    }
}
