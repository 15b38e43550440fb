//! The tree's files of one language, read into memory before timing.

use std::path::Path;

use lingo_plugin_sdk::Language;

/// A language with a built-in plugin.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Lang {
    Rust,
    TypeScript,
    Go,
    CSharp,
    Python,
    Java,
}

impl Lang {
    pub fn parse(name: &str) -> Option<Lang> {
        Some(match name {
            "rust" => Lang::Rust,
            "typescript" => Lang::TypeScript,
            "go" => Lang::Go,
            "csharp" => Lang::CSharp,
            "python" => Lang::Python,
            "java" => Lang::Java,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Lang::Rust => "rust",
            Lang::TypeScript => "typescript",
            Lang::Go => "go",
            Lang::CSharp => "csharp",
            Lang::Python => "python",
            Lang::Java => "java",
        }
    }

    /// The plugin's own extensions.
    fn extensions(self) -> &'static [&'static str] {
        match self {
            Lang::Rust => lingo_plugin_rust::Rust::EXTENSIONS,
            Lang::TypeScript => lingo_plugin_typescript::TypeScript::EXTENSIONS,
            Lang::Go => lingo_plugin_go::Go::EXTENSIONS,
            Lang::CSharp => lingo_plugin_csharp::CSharp::EXTENSIONS,
            Lang::Python => lingo_plugin_python::Python::EXTENSIONS,
            Lang::Java => lingo_plugin_java::Java::EXTENSIONS,
        }
    }
}

/// A file of the tree.
pub struct Source {
    /// Relative to the tree's root.
    pub path: String,
    pub text: String,
}

/// Folders lingo's walk skips for every language, skipped here too.
const SKIPPED: &[&str] = &["target", "node_modules"];

/// Every file of `lang` under `root` (by the plugin's extensions, hidden
/// folders skipped, at most 4 MiB each as lingo indexes), sorted by path.
pub fn sources(root: &Path, lang: Lang) -> Vec<Source> {
    let mut files = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() {
                if !name.starts_with('.') && !SKIPPED.contains(&name.as_str()) {
                    stack.push(path);
                }
                continue;
            }
            let matches = path
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| lang.extensions().contains(&e));
            let small = entry.metadata().is_ok_and(|m| m.len() <= 4 << 20);
            if kind.is_file()
                && matches
                && small
                && let Ok(text) = std::fs::read_to_string(&path)
            {
                let relative = path.strip_prefix(root).unwrap_or(&path);
                files.push(Source {
                    path: relative.to_string_lossy().into_owned(),
                    text,
                });
            }
        }
    }
    files.sort_by(|a, b| a.path.cmp(&b.path));
    files
}
