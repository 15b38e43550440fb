//! `references`: every resolved use of a declaration, with how each was
//! resolved and what the list may be missing.

use petgraph::Direction;
use serde::Serialize;

use super::view::{ReferenceSite, SiteView, SubjectView};
use super::{Analysis, AnalysisError, Incompleteness, Subject, Target};
use crate::graph::{CodeGraph, EdgeKind, Node, Site};
use crate::resolve::{Resolution, SymbolRef};

/// Possibly-missed sites listed in [`Completeness`] at most.
const MAX_MISSED_SHOWN: usize = 10;

/// How complete a list of references is: certain and name-only counts,
/// and the same-named references nothing resolved (which may be uses the
/// list lacks).
#[derive(Debug, Clone, Serialize)]
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
#[derive(Debug, Clone, Serialize)]
pub struct References {
    pub symbol: SubjectView,
    /// By file, then position.
    pub sites: Vec<ReferenceSite>,
    pub completeness: Completeness,
    pub generation: u64,
}

/// One entry of a reference list that may start with the declaration.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum ReferenceItem {
    Declaration(DeclarationItem),
    Site(ReferenceSite),
}

/// The declaration listed first among its references (`kind: declaration`).
#[derive(Debug, Clone, Serialize)]
pub struct DeclarationItem {
    #[serde(flatten)]
    pub view: SubjectView,
    pub resolution: Resolution,
    pub confidence: f64,
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
                let graph = self.graph();
                let mut sites = self.incoming_sites(&graph, Node::Symbol(*r), |kind| {
                    kind.is_dependency() || kind == EdgeKind::Imports
                });
                sort_sites(&mut sites);
                let completeness = self.completeness(&graph, *r, &sites);
                (sites, completeness)
            }
            Subject::Local { file, index } => {
                let facts = file.facts()?;
                let file_number = self.file_number(file)?;
                let sites: Vec<ReferenceSite> = facts
                    .references
                    .iter()
                    .enumerate()
                    .filter(|(_, r)| r.local == Some(*index as u32))
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
            .unresolved_named(&declaration.name)
            .filter(|miss| {
                // A use through a value (`x.name`) can only mean a member.
                let is_member = table
                    .files()
                    .get(miss.site.file as usize)
                    .and_then(|f| f.facts.as_ref().ok())
                    .and_then(|f| f.references.get(miss.site.reference as usize))
                    .is_some_and(|r| r.is_member);
                !is_member || crate::resolve::is_member_declaration(declaration)
            })
            .collect();
        let ambiguous = missed.iter().filter(|m| m.candidates > 0).count();
        let shown: Vec<SiteView> = missed
            .iter()
            .take(MAX_MISSED_SHOWN)
            .filter_map(|m| SiteView::new(table, m.site))
            .collect();
        let complete = name_only == 0 && missed.is_empty();
        let note = if complete {
            "every same-named reference in the workspace was resolved; these are all of them"
                .to_string()
        } else {
            format!(
                "{name_only} references are name-only guesses; {} same-named references could not be resolved ({ambiguous} because too many declarations share the name) and may also be uses of this declaration",
                missed.len()
            )
        };
        Completeness {
            resolved: sites.len() - name_only,
            name_only,
            possibly_missed: missed.len(),
            ambiguous: Some(ambiguous),
            possibly_missed_sites: Some(shown),
            complete,
            note,
            incomplete: None,
        }
    }
}

/// By file, then position.
fn sort_sites(sites: &mut [ReferenceSite]) {
    sites.sort_by(|a, b| a.site.place().cmp(&b.site.place()));
}
