//! The component: WIT `Guest` implementations over any [`Language`].

use std::marker::PhantomData;

use crate::bindings::exports::lingo::plugin::{edits, modules, plugin, syntax};
use crate::document::Document;
use crate::language::Language;
use crate::types::{Capability, Manifest, ModuleIdentity, PluginError, PluginInfo, Span, TextEdit};

/// What the SDK does for every language: the facts from the queries, the
/// diagnostics and metrics of the tree, incremental updates, `node-at` and
/// tokens.
const ALWAYS: [Capability; 8] = [
    Capability::Symbols,
    Capability::References,
    Capability::Locals,
    Capability::Diagnostics,
    Capability::Metrics,
    Capability::IncrementalUpdate,
    Capability::NodeAt,
    Capability::Tokens,
];

/// The capabilities `info()` reports for `L`: those the SDK always
/// provides (symbols, references, locals, diagnostics, metrics,
/// incremental updates, `node-at`, tokens), then one per
/// optional hook `L` provides (`Language::UNREACHABLE`, `IMPORTS`,
/// `MODULE_RESOLUTION`, `RENDER_IMPORT`, `REMOVE_IMPORT`,
/// `RENDER_DECLARATION`, `ENTRY_POINT`, in that order).
pub fn capabilities<L: Language>() -> Vec<Capability> {
    let optional = [
        (L::UNREACHABLE.is_some(), Capability::Unreachable),
        (L::IMPORTS.is_some(), Capability::Imports),
        (L::MODULE_RESOLUTION.is_some(), Capability::ModuleResolution),
        (L::RENDER_IMPORT.is_some(), Capability::RenderImport),
        (L::REMOVE_IMPORT.is_some(), Capability::RemoveImport),
        (
            L::RENDER_DECLARATION.is_some(),
            Capability::RenderDeclaration,
        ),
        (L::ENTRY_POINT.is_some(), Capability::EntryPoints),
    ];
    ALWAYS
        .into_iter()
        .chain(
            optional
                .into_iter()
                .filter(|(provided, _)| *provided)
                .map(|(_, c)| c),
        )
        .collect()
}

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
        PluginInfo {
            name: L::NAME.to_string(),
            version: L::VERSION.to_string(),
            abi_version: crate::ABI_VERSION.to_string(),
            languages: L::LANGUAGES.iter().map(|s| s.to_string()).collect(),
            extensions: L::EXTENSIONS.iter().map(|s| s.to_string()).collect(),
            manifests: L::MANIFESTS.iter().map(|s| s.to_string()).collect(),
            path_separator: L::symbol_config().path_separator.to_string(),
            capabilities: capabilities::<L>(),
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
        let render = L::RENDER_IMPORT.ok_or_else(|| unsupported::<L>("render-import"))?;
        doc.get::<Document<L>>()
            .with_state(|s| render(s.tree.root_node(), &s.source, &module_path, &names))
    }

    fn render_reexport(
        doc: syntax::DocumentBorrow<'_>,
        module_path: String,
        names: Vec<String>,
    ) -> Result<Vec<TextEdit>, PluginError> {
        doc.get::<Document<L>>()
            .with_state(|s| L::render_reexport(s.tree.root_node(), &s.source, &module_path, &names))
    }

    fn write_out_shorthand(
        doc: syntax::DocumentBorrow<'_>,
        name: Span,
        member: String,
        value: String,
    ) -> Result<Vec<TextEdit>, PluginError> {
        doc.get::<Document<L>>().with_state(|s| {
            let (start, end) = (name.start.offset as usize, name.end.offset as usize);
            let node = (start < end && end <= s.source.len())
                .then(|| {
                    s.tree
                        .root_node()
                        .named_descendant_for_byte_range(start, end)
                })
                .flatten()
                .filter(|n| n.start_byte() == start && n.end_byte() == end)
                .ok_or_else(|| {
                    PluginError::InvalidInput(format!(
                        "no name spans {start}..{end} of the document ({} bytes)",
                        s.source.len()
                    ))
                })?;
            L::write_out_shorthand(node, &s.source, &member, &value)
        })
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
        let remove = L::REMOVE_IMPORT.ok_or_else(|| unsupported::<L>("remove-import"))?;
        doc.get::<Document<L>>()
            .with_state(|s| remove(s.tree.root_node(), &s.source, &module_path, name.as_deref()))
    }

    fn render_declaration(
        doc: syntax::DocumentBorrow<'_>,
        span: Span,
        target_module: String,
    ) -> Result<String, PluginError> {
        let render = L::RENDER_DECLARATION.ok_or_else(|| unsupported::<L>("render-declaration"))?;
        doc.get::<Document<L>>().with_state(|s| {
            let (start, end) = (span.start.offset as usize, span.end.offset as usize);
            if start > end || end > s.source.len() {
                return Err(PluginError::InvalidInput(format!(
                    "span {start}..{end} lies outside the document ({} bytes)",
                    s.source.len()
                )));
            }
            render(s.tree.root_node(), &s.source, start, end, &target_module)
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

/// The answer of an operation whose hook `L` does not provide.
fn unsupported<L: Language>(operation: &str) -> PluginError {
    PluginError::Unsupported(format!("{}: {operation}", L::NAME))
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
        L::MODULE_RESOLUTION.map_or_else(Vec::new, |m| {
            (m.resolve_import)(&importer, &import_path, &manifests)
        })
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::language::{MetricsConfig, ModuleResolution, SymbolConfig};
    use crate::query::Queries;

    /// A language that provides no optional hook.
    struct Bare;

    impl Language for Bare {
        const NAME: &'static str = "bare";
        const VERSION: &'static str = "0";
        const LANGUAGES: &'static [&'static str] = &["bare"];
        const EXTENSIONS: &'static [&'static str] = &["bare"];

        fn grammar(_path: &str) -> (&'static str, tree_sitter::Language) {
            ("bare", tree_sitter_rust::LANGUAGE.into())
        }
        fn queries(_language: &str) -> &'static Queries {
            unreachable!("capabilities compile no query")
        }
        fn symbol_config() -> &'static SymbolConfig {
            unreachable!("capabilities read no configuration")
        }
        fn metrics_config() -> &'static MetricsConfig {
            unreachable!("capabilities read no configuration")
        }
    }

    /// A stranger's language: imports and module resolution written, and
    /// nothing said about capabilities.
    struct Importing;

    impl Language for Importing {
        const NAME: &'static str = "importing";
        const VERSION: &'static str = "0";
        const LANGUAGES: &'static [&'static str] = &["importing"];
        const EXTENSIONS: &'static [&'static str] = &["imp"];
        const IMPORTS: Option<crate::ImportsHook> = Some(|_, _, _, _| Vec::new());
        const MODULE_RESOLUTION: Option<ModuleResolution> = Some(ModuleResolution {
            module_of: |_, _, _, _| Vec::new(),
            resolve_import: |_, _, _| Vec::new(),
        });

        fn grammar(path: &str) -> (&'static str, tree_sitter::Language) {
            Bare::grammar(path)
        }
        fn queries(language: &str) -> &'static Queries {
            Bare::queries(language)
        }
        fn symbol_config() -> &'static SymbolConfig {
            Bare::symbol_config()
        }
        fn metrics_config() -> &'static MetricsConfig {
            Bare::metrics_config()
        }
    }

    #[test]
    fn without_optional_hooks_only_what_the_sdk_does_is_claimed() {
        assert_eq!(capabilities::<Bare>(), ALWAYS);
    }

    #[test]
    fn the_hooks_a_plugin_provides_are_its_capabilities() {
        let claimed = capabilities::<Importing>();
        assert_eq!(claimed[..ALWAYS.len()], ALWAYS);
        assert_eq!(
            claimed[ALWAYS.len()..],
            [Capability::Imports, Capability::ModuleResolution]
        );
    }

    #[test]
    fn an_edit_hook_not_provided_is_unsupported() {
        assert!(matches!(
            unsupported::<Bare>("render-import"),
            PluginError::Unsupported(m) if m == "bare: render-import"
        ));
    }
}
