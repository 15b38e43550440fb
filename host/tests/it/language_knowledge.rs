//! No language knowledge in the host: what differs between languages comes
//! from the plugins (a fact, a policy field or a hook). This test reads the
//! string literals of every host crate and fails on one that is a language's
//! name, file extension or keyword and is not on the list of those the host
//! still has (`language_knowledge.allow`), and on a listed one that is gone
//! (so the list only shrinks). Unit tests are not read: a test's fixture
//! may be written in any language (a file's `#[cfg(test)] mod tests { .. }`,
//! which ends each file that has one, and the `tests.rs` files and
//! `tests/` folders inside `src`).

use std::collections::BTreeMap;
use std::path::Path;

/// Literals that name a language or spell its syntax.
const WORDS: &[&str] = &[
    // Languages and their file extensions.
    "rust",
    "typescript",
    "javascript",
    "tsx",
    "jsx",
    "csharp",
    "c#",
    "go",
    "golang",
    "python",
    "java",
    ".rs",
    ".ts",
    ".tsx",
    ".js",
    ".go",
    ".py",
    ".cs",
    ".java",
    // Keywords and punctuation of one language or a few.
    "self",
    "this",
    "super",
    "abstract",
    "extern",
    "declare",
    "fn",
    "func",
    "def",
    "impl",
    "crate",
    "mod",
    "using",
    "export",
    "pub",
    "::",
    "//",
    "/*",
    "*/",
    "#",
    "_",
];

/// (file under `host/`, literal) -> occurrences, over every `.rs` file of
/// the host crates' `src` folders.
fn found() -> BTreeMap<(String, String), usize> {
    let host = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    let mut folders = vec![host.join("src")];
    for entry in std::fs::read_dir(host).expect("read host/") {
        let src = entry.expect("an entry").path().join("src");
        if src.is_dir() {
            folders.push(src);
        }
    }
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).expect("read a source folder") {
            let path = entry.expect("an entry").path();
            let is_tests = path.file_stem().is_some_and(|stem| stem == "tests");
            if path.is_dir() && !is_tests {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") && !is_tests {
                files.push(path);
            }
        }
    }
    let mut found = BTreeMap::new();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("read a source file");
        let text = text
            .find("\n#[cfg(test)]\nmod tests {")
            .map_or(text.as_str(), |tests| &text[..tests]);
        let relative = file
            .strip_prefix(host)
            .expect("under host/")
            .to_string_lossy()
            .replace('\\', "/");
        for literal in string_literals(text) {
            if WORDS.contains(&literal.to_lowercase().as_str()) {
                *found.entry((relative.clone(), literal)).or_insert(0) += 1;
            }
        }
    }
    found
}

/// The contents of the `"..."` literals of `text`, comments skipped.
fn string_literals(text: &str) -> Vec<String> {
    let mut literals = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '/' if chars.peek() == Some(&'/') => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            // A character literal may be a quote: skip it whole.
            '\'' => {
                let rest: String = chars.clone().take(3).collect();
                if rest.starts_with("\"'") || rest.starts_with("\\\"") {
                    chars.nth(rest.find('\'').unwrap_or(1));
                }
            }
            '"' => {
                let mut literal = String::new();
                while let Some(c) = chars.next() {
                    match c {
                        '\\' => {
                            literal.push('\\');
                            literal.extend(chars.next());
                        }
                        '"' => break,
                        c => literal.push(c),
                    }
                }
                literals.push(literal);
            }
            _ => {}
        }
    }
    literals
}

#[test]
fn the_host_names_no_language_beyond_the_listed_ones() {
    let allow_path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it/language_knowledge.allow");
    let allow_text = std::fs::read_to_string(&allow_path).expect("read the allow list");
    let mut allowed = BTreeMap::new();
    for line in allow_text
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let (path, rest) = line.split_once(' ').expect("`path \"literal\" count`");
        let (literal, count) = rest.rsplit_once(' ').expect("`path \"literal\" count`");
        let literal = literal.trim_matches('"').to_string();
        allowed.insert(
            (path.to_string(), literal),
            count.parse::<usize>().expect("a count"),
        );
    }
    let found = found();
    let new: Vec<String> = found
        .iter()
        .filter(|(key, count)| allowed.get(*key).is_none_or(|allowed| *count > allowed))
        .map(|((path, literal), count)| format!("{path} \"{literal}\" {count}"))
        .collect();
    let gone: Vec<String> = allowed
        .iter()
        .filter(|(key, count)| found.get(*key).is_none_or(|found| found < *count))
        .map(|((path, literal), count)| format!("{path} \"{literal}\" {count}"))
        .collect();
    assert!(
        new.is_empty(),
        "language knowledge in the host (it belongs in the plugins: a fact, a \
         policy field or a hook):\n{}",
        new.join("\n")
    );
    assert!(
        gone.is_empty(),
        "no longer in the host: remove from tests/it/language_knowledge.allow:\n{}",
        gone.join("\n")
    );
}

#[test]
fn string_literals_are_read_past_comments_escapes_and_quote_characters() {
    let text = "let a = \"self\"; // \"this\"\nlet q = '\"'; let b = \"a\\\"b\";";
    assert_eq!(string_literals(text), ["self", "a\\\"b"]);
}
