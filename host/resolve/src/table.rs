//! The name table of one snapshot: every declaration by name, the files in a
//! stable order, and a memo of the plugins' import resolutions.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use lingo_index::{DerivedValue, FileEntry, Snapshot};
use lingo_model::sync::lock;
use lingo_model::{
    DeclaredTarget, FileFacts, Manifest, ModuleIdentity, Name, ReferenceKind, Symbol, SymbolKind,
};
use lingo_runtime::PluginError;

use crate::name_search::NameSearch;

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
/// A generation whose files all kept their shapes (and manifests) shares
/// the earlier one's name index and caches, which depend on nothing else.
pub struct SymbolTable {
    files: Vec<Arc<FileEntry>>,
    /// Each file's [`shape`].
    shapes: Vec<u64>,
    manifests: Arc<Vec<Manifest>>,
    file_index: Arc<HashMap<String, u32>>,
    by_name: Arc<HashMap<Name, Vec<SymbolRef>>>,
    /// `by_name`'s names laid out for search, made on the first search.
    name_search: Arc<OnceLock<NameSearch>>,
    /// Every `language_kind` a declaration has, sorted, made when first
    /// asked (not carried: a kind's spelling is not part of a shape).
    language_kinds: OnceLock<Vec<Name>>,
    imports: Arc<Mutex<HashMap<ImportQuery, Arc<Vec<String>>>>>,
    /// (plugin, importer module, import path, name) -> declarations found.
    lookups: Arc<Mutex<HashMap<Lookup, Arc<Vec<SymbolRef>>>>>,
    /// Per file number: enclosing symbol -> the base-list references
    /// (`extends`, `implements`) it holds, for finding supertypes.
    bases: Mutex<HashMap<u32, Arc<BaseLists>>>,
    /// `resolve-import` calls that failed, and the first failure's reason:
    /// resolution that depended on them may be missing references.
    import_failures: Arc<Mutex<(usize, Option<String>)>>,
}

/// Carried to the next generation, which shares its index when the shapes
/// allow.
impl DerivedValue for SymbolTable {
    const CARRIED: bool = true;
}

/// One question "which declarations does `import path` + `name` mean when
/// written in this module?", as asked by the resolver.
pub type Lookup = (String, String, String, String);

impl SymbolTable {
    /// The table of `snapshot`; with `earlier`'s when every file is where it
    /// was and kept its shape, and the manifests are the same.
    pub fn build(snapshot: &Snapshot, earlier: Option<&SymbolTable>) -> Self {
        let files: Vec<Arc<FileEntry>> = snapshot.files.values().cloned().collect();
        let same_files = earlier.filter(|e| {
            e.files.len() == files.len()
                && e.files.iter().zip(&files).all(|(a, b)| a.path == b.path)
        });
        // A file whose bytes did not change keeps its shape.
        let shapes: Vec<u64> = files
            .iter()
            .enumerate()
            .map(|(i, file)| match same_files {
                Some(e) if !file.sha256.is_empty() && e.files[i].sha256 == file.sha256 => {
                    e.shapes[i]
                }
                _ => shape(file),
            })
            .collect();
        if let Some(e) = same_files
            && e.shapes == shapes
            && *e.manifests == *snapshot.manifests
        {
            // The base lists index references, which a changed file renumbers.
            let bases: HashMap<u32, Arc<BaseLists>> = lock(&e.bases)
                .iter()
                .filter(|(number, _)| {
                    e.files[**number as usize].sha256 == files[**number as usize].sha256
                })
                .map(|(number, lists)| (*number, lists.clone()))
                .collect();
            return SymbolTable {
                files,
                shapes,
                manifests: snapshot.manifests.clone(),
                file_index: e.file_index.clone(),
                by_name: e.by_name.clone(),
                name_search: e.name_search.clone(),
                language_kinds: OnceLock::new(),
                imports: e.imports.clone(),
                lookups: e.lookups.clone(),
                bases: Mutex::new(bases),
                import_failures: e.import_failures.clone(),
            };
        }
        let mut file_index = HashMap::with_capacity(files.len());
        let mut by_name: HashMap<Name, Vec<SymbolRef>> = HashMap::new();
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
            shapes,
            manifests: snapshot.manifests.clone(),
            file_index: Arc::new(file_index),
            by_name: Arc::new(by_name),
            name_search: Arc::new(OnceLock::new()),
            language_kinds: OnceLock::new(),
            imports: Arc::new(Mutex::new(HashMap::new())),
            lookups: Arc::new(Mutex::new(HashMap::new())),
            import_failures: Arc::new(Mutex::new((0, None))),
            bases: Mutex::new(HashMap::new()),
        }
    }

    /// Each file's [`shape`], in file order.
    pub fn shapes(&self) -> &[u64] {
        &self.shapes
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
        self.by_name.keys().map(|name| -> &str { name })
    }

    /// The declared names laid out for search by part of a name.
    pub fn name_search(&self) -> &NameSearch {
        self.name_search.get_or_init(|| {
            NameSearch::new(
                self.by_name
                    .iter()
                    .map(|(name, declarations)| (name.clone(), declarations.len()))
                    .collect(),
            )
        })
    }

    /// Every `language_kind` some declaration has, sorted.
    pub fn language_kinds(&self) -> &[Name] {
        self.language_kinds.get_or_init(|| {
            let mut kinds: Vec<Name> = Vec::new();
            for file in &self.files {
                let Ok(facts) = &file.facts else { continue };
                for symbol in &facts.symbols {
                    if !kinds.contains(&symbol.language_kind) {
                        kinds.push(symbol.language_kind.clone());
                    }
                }
            }
            kinds.sort();
            kinds
        })
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
        let found = match file
            .plugin
            .resolve_import(importer, import_path, &snapshot.manifests)
        {
            Ok(found) => Arc::new(found),
            // The request asking was cancelled or ran out of time: its
            // answer is cut short anyway, and the next request asks again.
            Err(PluginError::Exhausted(_)) => return Arc::new(Vec::new()),
            Err(e) => {
                tracing::debug!(path = %file.path, import_path, error = %e, "import not resolved");
                let mut failures = lock(&self.import_failures);
                failures.0 += 1;
                failures.1.get_or_insert_with(|| e.to_string());
                Arc::new(Vec::new())
            }
        };
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
        // An answer computed while the request ran out is not kept: an
        // import it needed may have gone unasked.
        if lingo_model::budget::check().is_ok() {
            lock(&self.lookups).insert(lookup, found.clone());
        }
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
                (reference.kind, reference.enclosing.get())
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

/// What other files' references resolve against, of one file: its
/// declarations (name, kind, container), imports, module identities, the
/// types stated for its declarations and its base lists. Positions are
/// left out: an edit inside a body keeps the shape.
/// Receivers of a declaration's value hashed into its file's shape, at
/// most (as many as a member access chain is followed).
const MAX_HASHED_RECEIVERS: usize = 8;

pub fn shape(file: &FileEntry) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    file.path.hash(&mut hasher);
    match &file.facts {
        Err(_) => 0u8.hash(&mut hasher),
        Ok(facts) => {
            1u8.hash(&mut hasher);
            for symbol in &facts.symbols {
                symbol.name.hash(&mut hasher);
                symbol.kind.hash(&mut hasher);
                symbol.container.hash(&mut hasher);
                symbol.container_name.hash(&mut hasher);
            }
            for import in &facts.imports {
                import.module_path.hash(&mut hasher);
                (import.kind as u8).hash(&mut hasher);
                import.reexport.hash(&mut hasher);
                for name in &import.names {
                    name.name.hash(&mut hasher);
                    name.alias.hash(&mut hasher);
                }
            }
            for module in &facts.modules {
                module.hash(&mut hasher);
            }
            // What a reference elsewhere resolves through: the types stated
            // for declarations (a call's return type, a field's type) and
            // the base lists (inherited members).
            for declared in &facts.declared_types {
                if let DeclaredTarget::Symbol(symbol) = declared.target {
                    symbol.hash(&mut hasher);
                    declared.type_name.hash(&mut hasher);
                    declared.type_qualifier.hash(&mut hasher);
                    (declared.source as u8).hash(&mut hasher);
                }
            }
            // The values declarations are initialised with: the reference
            // each names and the receivers it is reached through.
            for value in &facts.symbol_values {
                value.symbol.hash(&mut hasher);
                value.element.hash(&mut hasher);
                value.value.called.hash(&mut hasher);
                value.value.indexed.hash(&mut hasher);
                let mut next = Some(value.value.reference);
                for _ in 0..MAX_HASHED_RECEIVERS {
                    let Some(reference) = next.and_then(|i| facts.references.get(i as usize))
                    else {
                        break;
                    };
                    reference.name.hash(&mut hasher);
                    reference.qualifier.hash(&mut hasher);
                    reference.is_member.hash(&mut hasher);
                    (reference.kind as u8).hash(&mut hasher);
                    next = reference.receiver.map(|r| {
                        r.called.hash(&mut hasher);
                        r.indexed.hash(&mut hasher);
                        r.reference
                    });
                }
            }
            for reference in &facts.references {
                if matches!(
                    reference.kind,
                    ReferenceKind::Extends | ReferenceKind::Implements
                ) {
                    (reference.kind as u8).hash(&mut hasher);
                    reference.enclosing.hash(&mut hasher);
                    reference.name.hash(&mut hasher);
                    reference.qualifier.hash(&mut hasher);
                }
            }
        }
    }
    hasher.finish()
}
