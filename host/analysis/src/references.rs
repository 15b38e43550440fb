//! `references`: every resolved use of a declaration, with how each was
//! resolved and what the list may be missing.

use petgraph::Direction;
use schemars::JsonSchema;
use serde::Serialize;

use super::mentions::{self, Mentions, Region};
use super::view::{ReferenceSite, SiteView, SubjectView};
use super::{Analysis, AnalysisError, Incompleteness, Subject, Target};
use lingo_model::{ReferenceKind, SymbolKind};
use lingo_resolve::graph::{CodeGraph, EdgeKind, Node, Site};
use lingo_resolve::{Resolution, SymbolRef};

/// Possibly-missed sites listed in [`Completeness`] at most.
const MAX_MISSED_SHOWN: usize = 10;

/// How complete a list of references is: certain and name-only counts,
/// and the same-named references nothing resolved (which may be uses the
/// list lacks).
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Completeness {
    pub resolved: usize,
    pub name_only: usize,
    pub possibly_missed: usize,
    /// Of the possibly missed, those with too many same-named declarations
    /// to guess (none for a local).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ambiguous: Option<usize>,
    /// The first possibly missed sites (none for a local).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub possibly_missed_sites: Option<Vec<SiteView>>,
    /// Mentions of the name inside code the parser could not read (a
    /// syntax error's region) that are no reference it found: uses there
    /// may be missed.
    #[serde(skip_serializing_if = "is_zero")]
    pub unparsed_mentions: usize,
    /// Mentions of the name inside macro invocations the language plugin
    /// could not expand (another package's macro, a procedural one, a form
    /// its expander does not read) that are no reference it found: what
    /// those make may declare or use it.
    #[serde(skip_serializing_if = "is_zero")]
    pub unexpanded_mentions: usize,
    pub complete: bool,
    pub note: String,
    /// Files and imports of the snapshot the answer could not see.
    #[serde(flatten)]
    pub incomplete: Option<Incompleteness>,
}

impl Completeness {
    /// Not complete when the snapshot had files or imports it could not see.
    pub(crate) fn seeing(mut self, incomplete: Option<Incompleteness>) -> Self {
        self.complete &= incomplete.is_none();
        self.incomplete = incomplete;
        self
    }
}

/// The answer of [`Analysis::references`].
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct References {
    pub symbol: SubjectView,
    /// By file, then position.
    pub sites: Vec<ReferenceSite>,
    pub completeness: Completeness,
    pub generation: u64,
}

/// One entry of a reference list that may start with the declaration.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum ReferenceItem {
    Declaration(DeclarationItem),
    Site(ReferenceSite),
}

/// The declaration listed first among its references (`kind: declaration`).
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct DeclarationItem {
    #[serde(flatten)]
    pub view: SubjectView,
    pub resolution: Resolution,
    #[schemars(range(min = 0, max = 1))]
    pub confidence: f64,
}

impl ReferenceItem {
    /// Whether the item is certain: the declaration, or a site resolved
    /// other than by name only, with full confidence.
    pub fn is_certain(&self) -> bool {
        match self {
            ReferenceItem::Declaration(_) => true,
            ReferenceItem::Site(site) => {
                site.resolution != Resolution::NameOnly && site.confidence >= 1.0
            }
        }
    }
}

impl References {
    /// The sites, after the declaration itself when `include_declaration`.
    pub fn items(&self, include_declaration: bool) -> Vec<ReferenceItem> {
        let declaration = include_declaration.then(|| {
            ReferenceItem::Declaration(DeclarationItem {
                view: self.symbol.with_kind("declaration"),
                resolution: Resolution::Declaration,
                confidence: 1.0,
            })
        });
        declaration
            .into_iter()
            .chain(self.sites.iter().cloned().map(ReferenceItem::Site))
            .collect()
    }
}

impl Analysis {
    /// Every use of the declaration (or local) `target` names.
    pub fn references(&self, target: &Target) -> Result<References, AnalysisError> {
        let subject = self.subject(target)?;
        let table = self.table();
        let (sites, completeness) = match &subject {
            Subject::Symbol(r) => {
                let graph = self.graph()?;
                let mut sites = self.incoming_sites(&graph, Node::Symbol(*r), |kind| {
                    kind.is_dependency() || kind == EdgeKind::Imports
                });
                sites.extend(self.uses_of_same_binding(*r));
                let constructions = self.constructions(&graph, *r);
                if let Some(constructions) = &constructions {
                    sites.extend(constructions.sites.iter().cloned());
                }
                sort_sites(&mut sites);
                let mut completeness = self.completeness(&graph, *r, &sites);
                if let Some(chained) = constructions.and_then(|c| c.chained_from) {
                    completeness.complete = false;
                    completeness.note += &format!(
                        "; a constructor is also called from {chained}, which are not indexed as references"
                    );
                }
                (sites, completeness)
            }
            Subject::Local { file, index } => {
                let facts = file.facts()?;
                let file_number = self.file_number(file)?;
                let resolver = self.resolver();
                let sites: Vec<ReferenceSite> = facts
                    .references
                    .iter()
                    .enumerate()
                    .filter(|(_, r)| r.local.get() == Some(*index as u32))
                    .filter(|(_, r)| resolver.local_of(file, r).is_some())
                    .filter_map(|(i, _)| {
                        let site = Site {
                            file: file_number,
                            reference: i as u32,
                        };
                        Some(ReferenceSite {
                            site: SiteView::new(table, site)?,
                            resolution: Resolution::Scope,
                            confidence: 1.0,
                        })
                    })
                    .collect();
                let completeness = Completeness {
                    resolved: sites.len(),
                    name_only: 0,
                    possibly_missed: 0,
                    ambiguous: None,
                    possibly_missed_sites: None,
                    unparsed_mentions: 0,
                    unexpanded_mentions: 0,
                    complete: true,
                    note: "a local binding: every use is in its scope in this file".into(),
                    incomplete: None,
                };
                (sites, completeness)
            }
        };
        Ok(References {
            symbol: SubjectView::new(table, &subject),
            sites,
            completeness: completeness.seeing(self.incompleteness()),
            generation: self.generation(),
        })
    }

    /// The uses of a local binding declared by the very name of the
    /// declaration `symbol` (a TypeScript constructor parameter property is
    /// a parameter and a field at once): uses of the declaration too.
    fn uses_of_same_binding(&self, symbol: SymbolRef) -> Vec<ReferenceSite> {
        let table = self.table();
        let file = table.file(symbol);
        let Ok(facts) = &file.facts else {
            return Vec::new();
        };
        let name_span = table.symbol(symbol).name_span;
        let Some(local) = facts.locals.iter().position(|l| l.span == name_span) else {
            return Vec::new();
        };
        facts
            .references
            .iter()
            .enumerate()
            .filter(|(_, r)| r.local.get() == Some(local as u32))
            .filter_map(|(i, _)| {
                let site = Site {
                    file: symbol.file,
                    reference: i as u32,
                };
                Some(ReferenceSite {
                    site: SiteView::new(table, site)?,
                    resolution: Resolution::Scope,
                    confidence: 1.0,
                })
            })
            .collect()
    }

    /// For a constructor: the calls that create its type by name (`new
    /// T(..)`, the call edges into the type, its parts in other files
    /// included) whose argument count and types fit it, each shared among
    /// the type's constructors that fit as well; and whether other
    /// constructors may call it (the type's other constructors, or
    /// constructors of types extending it), which no reference names.
    fn constructions(&self, graph: &CodeGraph, symbol: SymbolRef) -> Option<Constructions> {
        let table = self.table();
        let constructor = table.symbol(symbol);
        if constructor.kind != SymbolKind::Constructor {
            return None;
        }
        let ty = SymbolRef {
            file: symbol.file,
            symbol: constructor.container?,
        };
        let parts = self.resolver().parts_of(ty);
        let siblings: Vec<SymbolRef> = parts
            .iter()
            .flat_map(|part| {
                let facts = table.file(*part).facts.as_ref().ok();
                facts
                    .into_iter()
                    .flat_map(|f| f.symbols.iter().enumerate())
                    .filter(|(_, s)| {
                        s.kind == SymbolKind::Constructor && s.container == Some(part.symbol)
                    })
                    .map(|(index, _)| SymbolRef {
                        file: part.file,
                        symbol: index as u32,
                    })
                    .collect::<Vec<_>>()
            })
            .collect();
        let mut sites: Vec<ReferenceSite> = Vec::new();
        let mut extended = false;
        for part in &parts {
            for (edge, _) in graph.edges(Node::Symbol(*part), Direction::Incoming) {
                extended |= edge.kind == EdgeKind::Extends;
                let Some(site) = edge.site() else { continue };
                let Some(reference) = table
                    .files()
                    .get(site.file as usize)
                    .and_then(|f| f.facts.as_ref().ok())
                    .and_then(|f| f.references.get(site.reference as usize))
                else {
                    continue;
                };
                if reference.kind != ReferenceKind::Call {
                    continue;
                }
                let fits = |r: &SymbolRef| match (reference.arguments.get(), table.symbol(*r).arity)
                {
                    (Some(count), Some(arity)) => arity.fits(count),
                    _ => true,
                };
                if !fits(&symbol) {
                    continue;
                }
                let fitting: Vec<SymbolRef> =
                    siblings.iter().copied().filter(|r| fits(r)).collect();
                // Of those, the ones the arguments' types leave.
                let calling = &table.files()[site.file as usize];
                let left = if fitting.len() > 1 {
                    self.resolver()
                        .overloads_left(calling, site.reference, &fitting)
                } else {
                    fitting
                };
                if !left.contains(&symbol) {
                    continue;
                }
                let fitting = left.len();
                let Some(mut found) = ReferenceSite::of_edge(table, edge) else {
                    continue;
                };
                if sites.iter().any(|s| s.site.place() == found.site.place()) {
                    continue;
                }
                found.confidence = ((found.confidence / fitting as f64) * 100.0).round() / 100.0;
                sites.push(found);
            }
        }
        let chained_from = match (siblings.len() > 1, extended) {
            (true, true) => Some("the type's other constructors and those of types extending it"),
            (true, false) => Some("the type's other constructors"),
            (false, true) => Some("the constructors of types extending it"),
            (false, false) => None,
        };
        Some(Constructions {
            sites,
            chained_from,
        })
    }

    /// The reference sites of the edges into `node` whose kind `keep` accepts.
    pub(crate) fn incoming_sites(
        &self,
        graph: &CodeGraph,
        node: Node,
        keep: impl Fn(EdgeKind) -> bool,
    ) -> Vec<ReferenceSite> {
        graph
            .edges(node, Direction::Incoming)
            .filter(|(edge, _)| keep(edge.kind))
            .filter_map(|(edge, _)| ReferenceSite::of_edge(self.table(), edge))
            .collect()
    }

    /// How complete `sites`, references of `symbol`, are.
    pub(crate) fn completeness(
        &self,
        graph: &CodeGraph,
        symbol: SymbolRef,
        sites: &[ReferenceSite],
    ) -> Completeness {
        let table = self.table();
        let declaration = table.symbol(symbol);
        let name_only = sites
            .iter()
            .filter(|s| s.resolution == Resolution::NameOnly)
            .count();
        let missed: Vec<_> = graph
            .unresolved_named(table, &declaration.name)
            .filter(|miss| {
                // A use through a value (`x.name`) can only mean a member.
                let is_member = table
                    .files()
                    .get(miss.site.file as usize)
                    .and_then(|f| f.facts.as_ref().ok())
                    .and_then(|f| f.references.get(miss.site.reference as usize))
                    .is_some_and(|r| r.is_member);
                !is_member || lingo_resolve::is_member_declaration(declaration)
            })
            .collect();
        let ambiguous = missed.iter().filter(|m| m.candidates > 0).count();
        let unparsed = self.mentions(&declaration.name, Region::Unparsed);
        let unexpanded = self.mentions(&declaration.name, Region::Unexpanded);
        let shown: Vec<SiteView> = missed
            .iter()
            .take(MAX_MISSED_SHOWN)
            .filter_map(|m| SiteView::new(table, m.site))
            .collect();
        let complete = name_only == 0 && missed.is_empty() && unparsed == 0 && unexpanded == 0;
        let note = if complete {
            "every same-named reference in the workspace was resolved; these are all of them"
                .to_string()
        } else {
            let mut parts = Vec::new();
            if name_only > 0 {
                parts.push(match name_only {
                    1 => "1 reference is a name-only guess".to_string(),
                    n => format!("{n} references are name-only guesses"),
                });
            }
            if !missed.is_empty() {
                parts.push(format!(
                    "{} could not be resolved ({ambiguous} because too many declarations share the name) and may also be uses of this declaration",
                    match missed.len() {
                        1 => "1 same-named reference".to_string(),
                        n => format!("{n} same-named references"),
                    }
                ));
            }
            if unparsed > 0 {
                parts.push(format!(
                    "the name appears {unparsed} times inside code with syntax errors the parser could not read (get_diagnostics lists them), where uses may be missed"
                ));
            }
            if unexpanded > 0 {
                parts.push(format!(
                    "the name appears {unexpanded} times inside macro invocations that could not be expanded, where what they make may declare or use it"
                ));
            }
            parts.join("; ")
        };
        Completeness {
            resolved: sites.len() - name_only,
            name_only,
            possibly_missed: missed.len(),
            ambiguous: Some(ambiguous),
            possibly_missed_sites: Some(shown),
            unparsed_mentions: unparsed,
            unexpanded_mentions: unexpanded,
            complete,
            note,
            incomplete: None,
        }
    }
}

impl Analysis {
    /// Mentions of `name` no fact covers, in `region`s of every file:
    /// looked up in this generation's table of them (built by the first
    /// request that asks), or counted by a scan when that build stopped.
    fn mentions(&self, name: &str, region: Region) -> usize {
        let files = self.table().files();
        match self
            .snapshot()
            .memo()
            .get_or_init(|_| Mentions::build(files))
        {
            Ok(mentions) => mentions.of(name, region, files),
            Err(_) => mentions::scan(name, region, files),
        }
    }
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// The uses of a constructor found through its type (see
/// [`Analysis::constructions`]).
struct Constructions {
    sites: Vec<ReferenceSite>,
    /// Which constructors may call it without naming it, if any may.
    chained_from: Option<&'static str>,
}

/// By file, then position.
fn sort_sites(sites: &mut [ReferenceSite]) {
    sites.sort_by(|a, b| a.site.place().cmp(&b.site.place()));
}
