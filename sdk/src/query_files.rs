//! A plugin's query files as data: a file may take in others with
//! `; include: name` lines, so dialects of one grammar family share their
//! patterns without code composing strings. A plugin compiles its files in
//! (it reads nothing at run time) and hands them over as a table.
//!
//! An `; include:` line is replaced by the named file's text, itself
//! expanded, at that place: since the first pattern that captures a node
//! wins, what comes first takes precedence. A name not in the table, or a
//! file including itself through others, is an error naming the file.

/// The prefix of an include line (after leading whitespace).
const INCLUDE: &str = "; include:";

/// The text of query file `name` from `files` (`(name, text)` pairs), with
/// every `; include: other[, other...]` line replaced by those files' own
/// expanded text, in order.
pub fn expand(name: &str, files: &[(&str, &str)]) -> Result<String, String> {
    let mut out = String::new();
    let mut path = Vec::new();
    expand_into(name, files, &mut path, &mut out)?;
    Ok(out)
}

fn expand_into<'f>(
    name: &'f str,
    files: &[(&'f str, &'f str)],
    path: &mut Vec<&'f str>,
    out: &mut String,
) -> Result<(), String> {
    if path.contains(&name) {
        return Err(format!(
            "query file {name} includes itself ({} -> {name})",
            path.join(" -> ")
        ));
    }
    let Some((name, text)) = files.iter().find(|(n, _)| *n == name).copied() else {
        return Err(match path.last() {
            Some(including) => {
                format!("{including}.scm includes {name}, which is not a query file")
            }
            None => format!("no query file {name}"),
        });
    };
    path.push(name);
    for line in text.split_inclusive('\n') {
        match line.trim_start().strip_prefix(INCLUDE) {
            Some(names) => {
                for included in names.split(',').map(str::trim).filter(|n| !n.is_empty()) {
                    let included = files
                        .iter()
                        .map(|(n, _)| *n)
                        .find(|n| *n == included)
                        .ok_or_else(|| {
                            format!("{name}.scm includes {included}, which is not a query file")
                        })?;
                    expand_into(included, files, path, out)?;
                    if !out.ends_with('\n') {
                        out.push('\n');
                    }
                }
            }
            None => out.push_str(line),
        }
    }
    path.pop();
    Ok(())
}

/// What a panic message starts with when a plugin's queries do not compile:
/// the host reports the rest as the reason the plugin cannot be loaded,
/// `query error in symbols.scm line 2: unknown capture @nmae (known: ...)`.
pub const QUERY_ERROR: &str = "query error in ";

/// Stops the plugin (its load, when called from `info()`) on queries that
/// do not compile: `error` is what [`crate::Queries::new`] or [`expand`]
/// said, which names the file and the line. The panic message starts with
/// [`QUERY_ERROR`].
pub fn query_error(error: &str) -> ! {
    panic!("{QUERY_ERROR}{error}")
}

/// The `&'static Queries` of a plugin whose queries are one set, compiled
/// once, on the first call (every call of [`crate::Language::queries`]
/// after it shares them): `cached_queries!(LANGUAGE.into(), SYMBOLS,
/// REFERENCES, LOCALS)`. A query that does not compile stops the load
/// through [`query_error`] (the host names the plugin's file beside it).
#[macro_export]
macro_rules! cached_queries {
    ($language:expr, $symbols:expr, $references:expr, $locals:expr) => {{
        static QUERIES: ::std::sync::OnceLock<$crate::Queries> = ::std::sync::OnceLock::new();
        QUERIES.get_or_init(|| {
            $crate::Queries::new(&$language, $symbols, $references, $locals)
                .unwrap_or_else(|e| $crate::query_files::query_error(&e.to_string()))
        })
    }};
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILES: &[(&str, &str)] = &[
        ("shared", "(shared) @a\n"),
        ("dialect", "(dialect) @b"),
        (
            "ts",
            "; TypeScript\n; include: dialect, shared\n(last) @c\n",
        ),
        ("loop", "; include: loop2\n"),
        ("loop2", "; include: loop\n"),
        ("broken", "  ; include: missing\n"),
    ];

    #[test]
    fn includes_are_replaced_in_place_and_in_order() {
        assert_eq!(
            expand("ts", FILES).unwrap(),
            "; TypeScript\n(dialect) @b\n(shared) @a\n(last) @c\n"
        );
        assert_eq!(expand("shared", FILES).unwrap(), "(shared) @a\n");
    }

    #[test]
    fn unknown_names_and_cycles_are_errors_naming_the_file() {
        assert_eq!(
            expand("broken", FILES).unwrap_err(),
            "broken.scm includes missing, which is not a query file"
        );
        assert_eq!(
            expand("nowhere", FILES).unwrap_err(),
            "no query file nowhere"
        );
        let cycle = expand("loop", FILES).unwrap_err();
        assert!(cycle.contains("includes itself"), "{cycle}");
    }
}
