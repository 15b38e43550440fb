//! The component: WIT `Guest` implementations over any [`Language`].

use std::marker::PhantomData;

use crate::bindings::exports::lingo::plugin::{edits, modules, plugin, syntax};
use crate::document::Document;
use crate::language::Language;
use crate::types::{Capability, Manifest, ModuleIdentity, PluginError, PluginInfo, Span, TextEdit};

/// The exported component for language `L`.
pub struct Component<L>(PhantomData<L>);

impl<L: Language> plugin::Guest for Component<L> {
    fn info() -> PluginInfo {
        // The host asks this when it loads the plugin: compiling every query
        // now makes a broken one fail the load, with the panic message
        // naming the query file and the position, instead of the first file.
        for language in L::LANGUAGES {
            L::queries(language);
        }
        let mut capabilities = vec![
            Capability::Symbols,
            Capability::References,
            Capability::Locals,
            Capability::Diagnostics,
            Capability::Metrics,
            Capability::IncrementalUpdate,
            Capability::NodeAt,
            Capability::Tokens,
        ];
        capabilities.extend(L::extra_capabilities());
        PluginInfo {
            name: L::NAME.to_string(),
            version: L::VERSION.to_string(),
            abi_version: crate::ABI_VERSION.to_string(),
            languages: L::LANGUAGES.iter().map(|s| s.to_string()).collect(),
            extensions: L::EXTENSIONS.iter().map(|s| s.to_string()).collect(),
            manifests: L::MANIFESTS.iter().map(|s| s.to_string()).collect(),
            path_separator: L::symbol_config().path_separator.to_string(),
            capabilities,
            policy: L::policy(),
        }
    }
}

impl<L: Language> syntax::Guest for Component<L> {
    type Document = Document<L>;
}

impl<L: Language> edits::Guest for Component<L> {
    fn render_import(
        doc: syntax::DocumentBorrow<'_>,
        module_path: String,
        names: Vec<String>,
    ) -> Result<Vec<TextEdit>, PluginError> {
        doc.get::<Document<L>>()
            .with_state(|s| L::render_import(s.tree.root_node(), &s.source, &module_path, &names))
    }

    fn render_reexport(
        doc: syntax::DocumentBorrow<'_>,
        module_path: String,
        names: Vec<String>,
    ) -> Result<Vec<TextEdit>, PluginError> {
        doc.get::<Document<L>>()
            .with_state(|s| L::render_reexport(s.tree.root_node(), &s.source, &module_path, &names))
    }

    fn declare_module(
        parent: syntax::DocumentBorrow<'_>,
        path: String,
    ) -> Result<Vec<TextEdit>, PluginError> {
        parent
            .get::<Document<L>>()
            .with_state(|s| L::declare_module(s.tree.root_node(), &s.source, &path))
    }

    fn remove_import(
        doc: syntax::DocumentBorrow<'_>,
        module_path: String,
        name: Option<String>,
    ) -> Result<Vec<TextEdit>, PluginError> {
        doc.get::<Document<L>>().with_state(|s| {
            L::remove_import(s.tree.root_node(), &s.source, &module_path, name.as_deref())
        })
    }

    fn render_declaration(
        doc: syntax::DocumentBorrow<'_>,
        span: Span,
        target_module: String,
    ) -> Result<String, PluginError> {
        doc.get::<Document<L>>().with_state(|s| {
            let (start, end) = (span.start.offset as usize, span.end.offset as usize);
            if start > end || end > s.source.len() {
                return Err(PluginError::InvalidInput(format!(
                    "span {start}..{end} lies outside the document ({} bytes)",
                    s.source.len()
                )));
            }
            L::render_declaration(s.tree.root_node(), &s.source, start, end, &target_module)
        })
    }

    fn declaration_extent(
        doc: syntax::DocumentBorrow<'_>,
        span: Span,
    ) -> Result<Span, PluginError> {
        doc.get::<Document<L>>().with_state(|s| {
            let (start, end) = checked_range(&span, &s.source)?;
            let (from, to) = L::declaration_extent(s.tree.root_node(), &s.source, start, end)?;
            if from > start || to < end || to > s.source.len() {
                return Err(PluginError::Failed(format!(
                    "the extent {from}..{to} does not cover the declaration {start}..{end}"
                )));
            }
            Ok(s.lines.span(&s.source, from, to))
        })
    }

    fn place_declaration(
        source: syntax::DocumentBorrow<'_>,
        span: Span,
        target: syntax::DocumentBorrow<'_>,
        target_module: String,
    ) -> Result<Vec<TextEdit>, PluginError> {
        source.get::<Document<L>>().with_state(|s| {
            let (start, end) = checked_range(&span, &s.source)?;
            target.get::<Document<L>>().with_state(|t| {
                L::place_declaration(
                    s.tree.root_node(),
                    &s.source,
                    start,
                    end,
                    t.tree.root_node(),
                    &t.source,
                    &target_module,
                )
            })
        })
    }
}

/// The byte range of `span`, refused when it lies outside `source` or
/// splits a character.
fn checked_range(span: &Span, source: &str) -> Result<(usize, usize), PluginError> {
    let (start, end) = (span.start.offset as usize, span.end.offset as usize);
    if start > end
        || end > source.len()
        || !source.is_char_boundary(start)
        || !source.is_char_boundary(end)
    {
        return Err(PluginError::InvalidInput(format!(
            "span {start}..{end} does not fit the document ({} bytes)",
            source.len()
        )));
    }
    Ok((start, end))
}

impl<L: Language> modules::Guest for Component<L> {
    fn module_of(
        doc: syntax::DocumentBorrow<'_>,
        path: String,
        manifests: Vec<Manifest>,
    ) -> Vec<ModuleIdentity> {
        doc.get::<Document<L>>().module_of(&path, &manifests)
    }

    fn resolve_import(
        importer: ModuleIdentity,
        import_path: String,
        manifests: Vec<Manifest>,
    ) -> Vec<String> {
        L::resolve_import(&importer, &import_path, &manifests)
    }

    fn import_specifier(
        importer: ModuleIdentity,
        target: ModuleIdentity,
        manifests: Vec<Manifest>,
    ) -> Result<String, PluginError> {
        L::import_specifier(&importer, &target, &manifests)
    }

    fn module_declarers(path: String) -> Vec<String> {
        L::module_declarers(&path)
    }
}
