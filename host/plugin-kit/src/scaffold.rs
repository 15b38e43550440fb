//! `lingo plugin new`: a ready plugin crate outside lingo's tree: manifest,
//! C compiler settings for the wasm target, skeleton queries, `src/lib.rs`
//! with the hooks named, a conformance fixture and a README.

use std::path::{Path, PathBuf};
use std::process::Command;

/// What the new plugin is.
#[derive(Debug, Clone)]
pub struct NewPlugin {
    /// The language identifier (`python`): lowercase letters, digits, `-`.
    pub name: String,
    /// The grammar crate (`tree-sitter-python`).
    pub grammar: String,
    /// The grammar's version requirement; `None` asks `cargo add` for the
    /// newest.
    pub grammar_version: Option<String>,
    /// The grammar crate's language constant (`LANGUAGE`;
    /// `LANGUAGE_TYPESCRIPT` for a crate with several).
    pub language_fn: String,
    /// File extensions claimed, without the dot.
    pub extensions: Vec<String>,
    /// Where the crate goes: a directory that does not exist or is empty.
    pub dir: PathBuf,
    /// The SDK's source directory, for a path dependency next to the
    /// version; `None` depends on the version alone (a published SDK).
    pub sdk: Option<PathBuf>,
}

/// Why a plugin crate could not be created.
#[derive(Debug, thiserror::Error)]
pub enum ScaffoldError {
    #[error("invalid {field} `{value}`: {reason}")]
    Invalid {
        field: &'static str,
        value: String,
        reason: &'static str,
    },
    #[error("{dir} exists and is not empty; choose another --dir")]
    NotEmpty { dir: String },
    #[error("{path}: {reason}")]
    Io { path: String, reason: String },
    #[error(
        "`cargo add {grammar}` failed ({reason}); give the version yourself: --grammar {grammar}@VERSION"
    )]
    CargoAdd { grammar: String, reason: String },
}

/// The SDK's manifest, for its version and its tree-sitter requirement.
const SDK_MANIFEST: &str = include_str!("../../../sdk/Cargo.toml");
/// The C compiler settings tree-sitter's parsers need on the wasm target.
const CARGO_CONFIG: &str = include_str!("../../../.cargo/config.toml");

const CARGO_TOML: &str = include_str!("template/Cargo.toml.in");
const LIB_RS: &str = include_str!("template/lib.rs.in");
const README: &str = include_str!("template/README.md.in");
const EXPECTED: &str = include_str!("template/expected.json.in");
const SYMBOLS: &str = include_str!("template/queries/symbols.scm");
const REFERENCES: &str = include_str!("template/queries/references.scm");
const LOCALS: &str = include_str!("template/queries/locals.scm");

/// The SDK source directory of the lingo this binary was built from, when
/// it is still there.
pub fn default_sdk_dir() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../sdk");
    dir.join("Cargo.toml")
        .is_file()
        .then(|| dir.canonicalize().ok())
        .flatten()
}

/// Writes the crate and returns the files written, relative to its
/// directory. Nothing is written when an argument is refused.
pub fn create(plugin: &NewPlugin) -> Result<Vec<String>, ScaffoldError> {
    validate(plugin)?;
    if let Ok(mut entries) = std::fs::read_dir(&plugin.dir)
        && entries.next().is_some()
    {
        return Err(ScaffoldError::NotEmpty {
            dir: plugin.dir.display().to_string(),
        });
    }
    let (sdk_version, tree_sitter) = sdk_requirements();
    let sdk_dependency = match &plugin.sdk {
        Some(path) => format!(
            "lingo-plugin-sdk = {{ version = \"{sdk_version}\", path = {} }}",
            toml_string(&path.display().to_string())
        ),
        None => format!("lingo-plugin-sdk = \"{sdk_version}\""),
    };
    // Without a version, `cargo add` adds the grammar at its newest.
    let grammar_dependency = match &plugin.grammar_version {
        Some(version) => format!("{} = {}", plugin.grammar, toml_string(version)),
        None => String::new(),
    };
    let extension = plugin.extensions[0].as_str();
    let fill = |template: &str| {
        template
            .replace("{sdk_dependency}", &sdk_dependency)
            .replace("{tree_sitter}", &tree_sitter)
            .replace("{grammar_dependency}", &grammar_dependency)
            .replace("{grammar_ident}", &plugin.grammar.replace('-', "_"))
            .replace("{grammar}", &plugin.grammar)
            .replace("{language_fn}", &plugin.language_fn)
            .replace("{type_name}", &type_name(&plugin.name))
            .replace("{crate_ident}", &plugin.name.replace('-', "_"))
            .replace("{title}", &title(&plugin.name))
            .replace(
                "{extensions}",
                &plugin
                    .extensions
                    .iter()
                    .map(|e| format!("\"{e}\""))
                    .collect::<Vec<_>>()
                    .join(", "),
            )
            .replace("{extension}", extension)
            .replace("{name}", &plugin.name)
    };
    let files: Vec<(String, String)> = vec![
        ("Cargo.toml".into(), fill(CARGO_TOML)),
        (".cargo/config.toml".into(), CARGO_CONFIG.to_string()),
        (".gitignore".into(), "/target\n".into()),
        ("README.md".into(), fill(README)),
        ("src/lib.rs".into(), fill(LIB_RS)),
        ("queries/symbols.scm".into(), SYMBOLS.to_string()),
        ("queries/references.scm".into(), REFERENCES.to_string()),
        ("queries/locals.scm".into(), LOCALS.to_string()),
        ("conformance/basic/expected.json".into(), fill(EXPECTED)),
        (
            format!("conformance/basic/example.{extension}"),
            String::new(),
        ),
    ];
    for (path, contents) in &files {
        let full = plugin.dir.join(path);
        let io = |e: std::io::Error| ScaffoldError::Io {
            path: full.display().to_string(),
            reason: e.to_string(),
        };
        if let Some(parent) = full.parent() {
            std::fs::create_dir_all(parent).map_err(io)?;
        }
        std::fs::write(&full, contents).map_err(io)?;
    }
    if plugin.grammar_version.is_none() {
        cargo_add(&plugin.dir, &plugin.grammar)?;
    }
    Ok(files.into_iter().map(|(path, _)| path).collect())
}

/// Adds the grammar at its newest version, as `cargo add` picks it.
fn cargo_add(dir: &Path, grammar: &str) -> Result<(), ScaffoldError> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .current_dir(dir)
        .args(["add", grammar])
        .output()
        .map_err(|e| ScaffoldError::CargoAdd {
            grammar: grammar.to_string(),
            reason: e.to_string(),
        })?;
    if output.status.success() {
        return Ok(());
    }
    let stderr = String::from_utf8_lossy(&output.stderr);
    Err(ScaffoldError::CargoAdd {
        grammar: grammar.to_string(),
        reason: stderr.lines().last().unwrap_or("no message").to_string(),
    })
}

fn validate(plugin: &NewPlugin) -> Result<(), ScaffoldError> {
    let invalid = |field, value: &str, reason| {
        Err(ScaffoldError::Invalid {
            field,
            value: value.to_string(),
            reason,
        })
    };
    if !is_name(&plugin.name) {
        return invalid(
            "name",
            &plugin.name,
            "a lowercase ASCII letter, then lowercase letters, digits or `-`, at most 40",
        );
    }
    if !is_crate_name(&plugin.grammar) {
        return invalid(
            "--grammar",
            &plugin.grammar,
            "a crate name: ASCII letters, digits, `-` or `_`, at most 64",
        );
    }
    if let Some(version) = &plugin.grammar_version
        && (version.is_empty()
            || version.len() > 64
            || !version
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || ".-+^~=<>*, ".contains(c)))
    {
        return invalid(
            "--grammar version",
            version,
            "a version requirement such as 0.23 or ^0.25.1",
        );
    }
    if !is_identifier(&plugin.language_fn) {
        return invalid(
            "--language-fn",
            &plugin.language_fn,
            "a Rust identifier such as LANGUAGE",
        );
    }
    if plugin.extensions.is_empty() {
        return invalid("--extension", "", "at least one file extension");
    }
    for extension in &plugin.extensions {
        if extension.is_empty()
            || extension.len() > 16
            || !extension.chars().all(|c| c.is_ascii_alphanumeric())
        {
            return invalid(
                "--extension",
                extension,
                "letters and digits without the dot, at most 16",
            );
        }
    }
    Ok(())
}

fn is_name(name: &str) -> bool {
    name.len() <= 40
        && name.starts_with(|c: char| c.is_ascii_lowercase())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && !name.ends_with('-')
}

fn is_crate_name(name: &str) -> bool {
    name.len() <= 64
        && name.starts_with(|c: char| c.is_ascii_alphabetic())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

fn is_identifier(name: &str) -> bool {
    name.len() <= 64
        && name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// `my-lang` → `MyLang`.
fn type_name(name: &str) -> String {
    name.split('-')
        .map(|part| {
            let mut chars = part.chars();
            chars.next().map_or_else(String::new, |first| {
                first.to_ascii_uppercase().to_string() + chars.as_str()
            })
        })
        .collect()
}

/// `my-lang` → `My-lang`, for prose.
fn title(name: &str) -> String {
    let mut chars = name.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_ascii_uppercase().to_string() + chars.as_str()
    })
}

/// The SDK's version and its tree-sitter requirement, read off its manifest.
fn sdk_requirements() -> (String, String) {
    let manifest: toml::Table = SDK_MANIFEST
        .parse()
        .expect("sdk/Cargo.toml, compiled in, is TOML");
    let version = manifest["package"]["version"]
        .as_str()
        .expect("sdk/Cargo.toml states its version")
        .to_string();
    let tree_sitter = manifest["dependencies"]["tree-sitter"]
        .as_str()
        .expect("sdk/Cargo.toml states its tree-sitter requirement")
        .to_string();
    (version, tree_sitter)
}

/// `value` as a TOML basic string.
fn toml_string(value: &str) -> String {
    toml::Value::String(value.to_string()).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plugin(dir: &Path) -> NewPlugin {
        NewPlugin {
            name: "my-lang".into(),
            grammar: "tree-sitter-go".into(),
            grammar_version: Some("0.25".into()),
            language_fn: "LANGUAGE".into(),
            extensions: vec!["ml".into(), "mli".into()],
            dir: dir.to_path_buf(),
            sdk: Some(PathBuf::from("/opt/lingo \"sdk\"")),
        }
    }

    #[test]
    fn the_crate_is_filled_in() {
        let dir = tempfile::tempdir().unwrap();
        let written = create(&plugin(dir.path())).unwrap();
        assert!(written.contains(&"conformance/basic/example.ml".to_string()));
        let read = |p: &str| std::fs::read_to_string(dir.path().join(p)).unwrap();
        let manifest: toml::Table = read("Cargo.toml").parse().unwrap();
        assert_eq!(
            manifest["package"]["name"].as_str(),
            Some("lingo-plugin-my-lang")
        );
        let sdk = &manifest["dependencies"]["lingo-plugin-sdk"];
        assert_eq!(sdk["path"].as_str(), Some("/opt/lingo \"sdk\""));
        assert_eq!(sdk["version"].as_str(), Some(sdk_requirements().0.as_str()));
        assert_eq!(
            manifest["dependencies"]["tree-sitter-go"].as_str(),
            Some("0.25")
        );
        let lib = read("src/lib.rs");
        assert!(lib.contains("pub struct MyLang;"));
        assert!(lib.contains("tree_sitter_go::LANGUAGE.into()"));
        assert!(lib.contains(r#"&["ml", "mli"]"#));
        // Comment kinds come from the grammar (Java's are `line_comment`
        // and `block_comment`), not a fixed `comment`.
        assert!(!lib.contains(r#"comment_kinds: &["comment"]"#), "{lib}");
        assert!(
            lib.contains("lingo_plugin_sdk::comment_kinds(&tree_sitter_go::LANGUAGE.into())"),
            "{lib}"
        );
        for file in &written {
            let text = read(file);
            for placeholder in ["{name}", "{grammar", "{type_name}", "{title}", "{extension"] {
                assert!(!text.contains(placeholder), "{file}: {placeholder} left");
            }
        }
        assert!(read(".cargo/config.toml").contains("CC_wasm32_wasip2"));
    }

    #[test]
    fn bad_arguments_write_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("new");
        for (change, field) in [
            (
                (|p: &mut NewPlugin| p.name = "My Lang".into()) as fn(&mut NewPlugin),
                "name",
            ),
            (|p| p.grammar = "../evil".into(), "--grammar"),
            (
                |p| p.grammar_version = Some("1\"\n[x]".into()),
                "--grammar version",
            ),
            (|p| p.language_fn = "LANGUAGE()".into(), "--language-fn"),
            (|p| p.extensions = vec![".py".into()], "--extension"),
            (|p| p.extensions.clear(), "--extension"),
        ] {
            let mut p = plugin(&target);
            change(&mut p);
            match create(&p) {
                Err(ScaffoldError::Invalid { field: f, .. }) => assert_eq!(f, field),
                other => panic!("{field}: {other:?}"),
            }
            assert!(!target.exists());
        }
    }

    #[test]
    fn a_directory_in_use_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("keep.txt"), "mine").unwrap();
        assert!(matches!(
            create(&plugin(dir.path())),
            Err(ScaffoldError::NotEmpty { .. })
        ));
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            1,
            "nothing written"
        );
    }
}
