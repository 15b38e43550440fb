//! The name table of one snapshot: every declaration by name, the files in a
//! stable order, and a memo of the plugins' import resolutions.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::model::{FileFacts, ModuleIdentity, ReferenceKind, Symbol, SymbolKind};
use crate::sync::lock;
use crate::workspace::{DerivedValue, FileEntry, Snapshot};

/// A declaration: index of its file in [`SymbolTable::files`] and of the
/// symbol in that file's facts.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct SymbolRef {
    pub file: u32,
    pub symbol: u32,
}

/// (plugin, importer module, import path): one question to `resolve-import`.
type ImportQuery = (String, String, String);

/// Lookups over all declarations of a snapshot, built once per generation.
pub struct SymbolTable {
    files: Vec<Arc<FileEntry>>,
    file_index: HashMap<String, u32>,
    by_name: HashMap<String, Vec<SymbolRef>>,
    imports: Mutex<HashMap<ImportQuery, Arc<Vec<String>>>>,
    /// (plugin, importer module, import path, name) -> declarations found.
    lookups: Mutex<HashMap<Lookup, Arc<Vec<SymbolRef>>>>,
    /// Per file number: enclosing symbol -> the base-list references
    /// (`extends`, `implements`) it holds, for finding supertypes.
    bases: Mutex<HashMap<u32, Arc<BaseLists>>>,
    /// `resolve-import` calls that failed, and the first failure's reason:
    /// resolution that depended on them may be missing references.
    import_failures: Mutex<(usize, Option<String>)>,
}

impl DerivedValue for SymbolTable {}

impl Snapshot {
    /// The name table of this generation (built on first use).
    pub fn table(&self) -> Arc<SymbolTable> {
        self.memo().get_or_init(|_| SymbolTable::build(self))
    }

    /// Failed `resolve-import` calls of this generation's name table, if it
    /// was built: (count, first reason).
    pub fn import_failures(&self) -> (usize, Option<String>) {
        self.memo()
            .get::<SymbolTable>()
            .map_or((0, None), |t| t.import_failures())
    }
}

/// One question "which declarations does `import path` + `name` mean when
/// written in this module?", as asked by the resolver.
pub type Lookup = (String, String, String, String);

impl SymbolTable {
    pub fn build(snapshot: &Snapshot) -> Self {
        let files: Vec<Arc<FileEntry>> = snapshot.files.values().cloned().collect();
        let mut file_index = HashMap::with_capacity(files.len());
        let mut by_name: HashMap<String, Vec<SymbolRef>> = HashMap::new();
        for (file_number, file) in files.iter().enumerate() {
            file_index.insert(file.path.clone(), file_number as u32);
            let Ok(facts) = &file.facts else { continue };
            for (symbol_number, symbol) in facts.symbols.iter().enumerate() {
                by_name
                    .entry(symbol.name.clone())
                    .or_default()
                    .push(SymbolRef {
                        file: file_number as u32,
                        symbol: symbol_number as u32,
                    });
            }
        }
        SymbolTable {
            files,
            file_index,
            by_name,
            imports: Mutex::new(HashMap::new()),
            lookups: Mutex::new(HashMap::new()),
            import_failures: Mutex::new((0, None)),
            bases: Mutex::new(HashMap::new()),
        }
    }

    /// The files, in path order; [`SymbolRef::file`] indexes this.
    pub fn files(&self) -> &[Arc<FileEntry>] {
        &self.files
    }

    pub fn file_number(&self, path: &str) -> Option<u32> {
        self.file_index.get(path).copied()
    }

    pub fn file(&self, symbol: SymbolRef) -> &Arc<FileEntry> {
        &self.files[symbol.file as usize]
    }

    /// The declaration `symbol` points at.
    pub fn symbol(&self, symbol: SymbolRef) -> &Symbol {
        let facts = self.files[symbol.file as usize]
            .facts
            .as_ref()
            .expect("symbol refs point into analyzed files");
        &facts.symbols[symbol.symbol as usize]
    }

    /// Every declaration named `name`.
    pub fn named(&self, name: &str) -> &[SymbolRef] {
        self.by_name.get(name).map_or(&[], Vec::as_slice)
    }

    /// All declared names, for "did you mean" suggestions.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.by_name.keys().map(String::as_str)
    }

    /// Number of declarations in the snapshot.
    pub fn len(&self) -> usize {
        self.by_name.values().map(Vec::len).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.by_name.is_empty()
    }

    /// The modules `import_path` may name when written in `importer`, asked
    /// of `file`'s plugin once per snapshot and remembered.
    pub fn resolve_import(
        &self,
        file: &FileEntry,
        importer: &ModuleIdentity,
        import_path: &str,
        snapshot: &Snapshot,
    ) -> Arc<Vec<String>> {
        let key = (
            file.plugin.info().name.clone(),
            importer.path.clone(),
            import_path.to_string(),
        );
        if let Some(found) = lock(&self.imports).get(&key) {
            return found.clone();
        }
        let found = Arc::new(
            file.plugin
                .resolve_import(importer, import_path, &snapshot.manifests)
                .unwrap_or_else(|e| {
                    tracing::debug!(path = %file.path, import_path, error = %e, "import not resolved");
                    let mut failures = lock(&self.import_failures);
                    failures.0 += 1;
                    failures.1.get_or_insert_with(|| e.to_string());
                    Vec::new()
                }),
        );
        lock(&self.imports).insert(key, found.clone());
        found
    }
}

impl SymbolTable {
    /// The answer to `lookup`, computed once per snapshot.
    pub fn lookup(
        &self,
        lookup: Lookup,
        compute: impl FnOnce() -> Vec<SymbolRef>,
    ) -> Arc<Vec<SymbolRef>> {
        if let Some(found) = lock(&self.lookups).get(&lookup) {
            return found.clone();
        }
        let found = Arc::new(compute());
        lock(&self.lookups).insert(lookup, found.clone());
        found
    }
}

/// Enclosing symbol index -> indices of the `extends`/`implements`
/// references it holds, for one file.
pub type BaseLists = HashMap<u32, Vec<u32>>;

impl SymbolTable {
    /// The base-list references of file `number` (whose facts are `facts`)
    /// by the declaration holding them; the index is built on first use,
    /// in one pass over the file's references.
    pub fn base_lists(&self, number: u32, facts: &FileFacts) -> Arc<BaseLists> {
        if let Some(found) = lock(&self.bases).get(&number) {
            return found.clone();
        }
        let mut lists = BaseLists::new();
        for (index, reference) in facts.references.iter().enumerate() {
            if let (ReferenceKind::Extends | ReferenceKind::Implements, Some(holder)) =
                (reference.kind, reference.enclosing)
            {
                lists.entry(holder).or_default().push(index as u32);
            }
        }
        let lists = Arc::new(lists);
        lock(&self.bases).insert(number, lists.clone());
        lists
    }

    /// How many `resolve-import` calls failed, and why the first did.
    pub fn import_failures(&self) -> (usize, Option<String>) {
        lock(&self.import_failures).clone()
    }
}

/// An anonymous block (LSP kind `object`, such as a Rust `impl`) is a
/// container named after a type declared elsewhere, never what a name means.
pub fn is_item(symbol: &Symbol) -> bool {
    symbol.kind != SymbolKind::Object
}
