//! C# module identity: a file's namespaces and its project's assembly name,
//! and the namespaces a `using` may name.

use lingo_plugin_sdk::types::{Manifest, ModuleIdentity};
use tree_sitter::Node;

use crate::declarations::{TYPE_KINDS, enclosing_namespace, text};
use crate::imports::without_global;

/// The value of the first `<Element>` in an MSBuild project, trimmed.
fn element<'a>(xml: &'a str, name: &str) -> Option<&'a str> {
    let open = format!("<{name}");
    let mut rest = xml;
    loop {
        let at = rest.find(&open)?;
        let after = &rest[at + open.len()..];
        // `<AssemblyNameX>` is another element.
        if after.starts_with(['>', ' ', '\t', '\r', '\n']) {
            let body = &after[after.find('>')? + 1..];
            let end = body.find(&format!("</{name}>"))?;
            return Some(body[..end].trim());
        }
        rest = after;
    }
}

/// The assembly a project builds: its `<AssemblyName>`, else the project
/// file's stem. A value computed from MSBuild properties (`$(...)`) is not
/// evaluated; the stem stands in for it.
pub fn assembly_name(manifest: &Manifest) -> String {
    let file = manifest.path.rsplit('/').next().unwrap_or(&manifest.path);
    let stem = file.strip_suffix(".csproj").unwrap_or(file);
    element(&manifest.contents, "AssemblyName")
        .filter(|name| !name.is_empty() && !name.contains("$("))
        .unwrap_or(stem)
        .to_string()
}

/// The project holding `path`: the `.csproj` in the nearest folder above it.
/// SDK-style projects include every `.cs` file below their folder.
fn project_of<'m>(path: &str, manifests: &'m [Manifest]) -> Option<&'m Manifest> {
    manifests
        .iter()
        .filter(|m| m.path.ends_with(".csproj"))
        .filter_map(|m| {
            let dir = m.path.rfind('/').map_or("", |i| &m.path[..=i]);
            path.starts_with(dir).then_some((dir.len(), m))
        })
        .max_by(|(a, ma), (b, mb)| a.cmp(b).then(mb.path.cmp(&ma.path)))
        .map(|(_, m)| m)
}

/// The namespaces a file declares, in document order, with nested ones
/// spelled in full (`A.B`). The global namespace is `""`: a file whose
/// types sit outside any namespace belongs to it.
fn declared_namespaces(root: Node, source: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut stack = vec![root];
    let mut global_types = false;
    while let Some(node) = stack.pop() {
        match node.kind() {
            "namespace_declaration" | "file_scoped_namespace_declaration" => {
                let mut full: Vec<String> = enclosing_namespace(node, source).into_iter().collect();
                if let Some(name) = node.child_by_field_name("name") {
                    full.push(text(name, source).split_whitespace().collect());
                }
                let full = full.join(".");
                if !out.contains(&full) {
                    out.push(full);
                }
            }
            kind if TYPE_KINDS.contains(&kind) || kind == "global_statement" => {
                global_types |= enclosing_namespace(node, source).is_none();
                continue;
            }
            _ => {}
        }
        let mut cursor = node.walk();
        let children: Vec<_> = node.named_children(&mut cursor).collect();
        stack.extend(children.into_iter().rev());
    }
    if global_types || out.is_empty() {
        out.push(String::new());
    }
    out
}

/// The modules of a file: each namespace it declares (the first is the
/// file's own), in the assembly of its nearest project.
pub fn module_of(
    root: Node,
    source: &str,
    path: &str,
    manifests: &[Manifest],
) -> Vec<ModuleIdentity> {
    let package = project_of(path, manifests).map(assembly_name);
    declared_namespaces(root, source)
        .into_iter()
        .map(|namespace| ModuleIdentity {
            path: namespace,
            crate_or_package: package.clone(),
        })
        .collect()
}

/// Candidate namespaces for `using import_path;` written in namespace
/// `importer`: the path as a full name first (how a top-level `using`
/// reads), then relative to each namespace enclosing the importer, innermost
/// first (how a `using` inside `namespace A.B { }` may also read).
pub fn resolve_import(importer: &ModuleIdentity, import_path: &str) -> Vec<String> {
    let path: String = import_path.split_whitespace().collect();
    let path = without_global(&path);
    if path.is_empty() {
        return Vec::new();
    }
    let mut candidates = vec![path.to_string()];
    let segments: Vec<&str> = importer.path.split('.').filter(|s| !s.is_empty()).collect();
    for end in (1..=segments.len()).rev() {
        let candidate = format!("{}.{path}", segments[..end].join("."));
        if !candidates.contains(&candidate) {
            candidates.push(candidate);
        }
    }
    candidates
}
