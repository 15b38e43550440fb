//! A deliberately hostile language plugin for the sandbox tests. It claims
//! the extensions `loop`, `oom` and `trap`; parsing such a file loops
//! forever, allocates without bound, or traps. Any other file is parsed as
//! an empty document, so the same instance can be checked to recover.

use lingo_plugin_sdk::bindings::exports::lingo::plugin::{edits, modules, plugin, syntax};
use lingo_plugin_sdk::types::{
    Diagnostic, FunctionMetrics, Import, Local, Manifest, ModuleIdentity, PluginError, PluginInfo,
    Reference, Span, Symbol, SyntaxNode, TextEdit,
};

struct Hostile;

struct Document {
    text: String,
}

fn misbehave(path: &str) {
    if path.ends_with(".loop") {
        let mut counter: u64 = 0;
        loop {
            counter = std::hint::black_box(counter.wrapping_add(1));
        }
    }
    if path.ends_with(".oom") {
        let mut hoard: Vec<Vec<u8>> = Vec::new();
        loop {
            hoard.push(vec![1u8; 16 << 20]);
            std::hint::black_box(&hoard);
        }
    }
    if path.ends_with(".trap") {
        panic!("hostile plugin traps on purpose");
    }
}

impl plugin::Guest for Hostile {
    fn info() -> PluginInfo {
        PluginInfo {
            name: "hostile".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            abi_version: lingo_plugin_sdk::ABI_VERSION.into(),
            languages: vec!["hostile".into()],
            extensions: vec!["loop".into(), "oom".into(), "trap".into(), "calm".into()],
            manifests: Vec::new(),
            path_separator: ".".into(),
            capabilities: Vec::new(),
        }
    }
}

impl syntax::Guest for Hostile {
    type Document = Document;
}

impl syntax::GuestDocument for Document {
    fn new(path: String, source: String) -> Self {
        misbehave(&path);
        Document { text: source }
    }
    fn update(&self, _edits: Vec<TextEdit>) -> Result<(), PluginError> {
        Err(PluginError::Unsupported("hostile: update".into()))
    }
    fn text(&self) -> String {
        self.text.clone()
    }
    fn language(&self) -> String {
        "hostile".into()
    }
    fn symbols(&self) -> Vec<Symbol> {
        Vec::new()
    }
    fn references(&self) -> Vec<Reference> {
        Vec::new()
    }
    fn imports(&self) -> Vec<Import> {
        Vec::new()
    }
    fn locals(&self) -> Vec<Local> {
        Vec::new()
    }
    fn diagnostics(&self) -> Vec<Diagnostic> {
        Vec::new()
    }
    fn metrics(&self) -> Vec<FunctionMetrics> {
        Vec::new()
    }
    fn node_at(&self, _offset: u32) -> Vec<SyntaxNode> {
        Vec::new()
    }
}

impl edits::Guest for Hostile {
    fn render_import(
        _doc: syntax::DocumentBorrow<'_>,
        _module_path: String,
        _names: Vec<String>,
    ) -> Result<Vec<TextEdit>, PluginError> {
        Err(PluginError::Unsupported("hostile: render-import".into()))
    }
    fn remove_import(
        _doc: syntax::DocumentBorrow<'_>,
        _module_path: String,
        _name: Option<String>,
    ) -> Result<Vec<TextEdit>, PluginError> {
        Err(PluginError::Unsupported("hostile: remove-import".into()))
    }
    fn render_declaration(
        _doc: syntax::DocumentBorrow<'_>,
        _span: Span,
        _target_module: String,
    ) -> Result<String, PluginError> {
        Err(PluginError::Unsupported(
            "hostile: render-declaration".into(),
        ))
    }
}

impl modules::Guest for Hostile {
    fn module_of(
        _doc: syntax::DocumentBorrow<'_>,
        _path: String,
        _manifests: Vec<Manifest>,
    ) -> Vec<ModuleIdentity> {
        Vec::new()
    }
    fn resolve_import(
        _importer: ModuleIdentity,
        _import_path: String,
        _manifests: Vec<Manifest>,
    ) -> Vec<String> {
        Vec::new()
    }
}

lingo_plugin_sdk::bindings::export_bindings!(Hostile with_types_in lingo_plugin_sdk::bindings);
