//! File-name patterns, as plugins state their manifests (`Cargo.toml`,
//! `*.csproj`): one matcher for the walk and the conformance kit.

use globset::{Glob, GlobSet, GlobSetBuilder};

/// A set of file-name patterns (`*` any run of characters, `?` one,
/// `[...]` a class, `{a,b}` alternatives), compiled once.
#[derive(Debug, Clone)]
pub struct NamePatterns(GlobSet);

impl NamePatterns {
    /// The patterns given; one the glob syntax refuses matches nothing
    /// (plugin facts are not trusted to be well formed).
    pub fn new<'a>(patterns: impl IntoIterator<Item = &'a str>) -> Self {
        let mut builder = GlobSetBuilder::new();
        for pattern in patterns {
            match Glob::new(pattern) {
                Ok(glob) => {
                    builder.add(glob);
                }
                Err(error) => tracing::debug!(%pattern, %error, "file-name pattern ignored"),
            }
        }
        NamePatterns(builder.build().unwrap_or_else(|_| GlobSet::empty()))
    }

    /// Whether `file_name` (a name, not a path) matches one of the patterns.
    pub fn matches(&self, file_name: &str) -> bool {
        self.0.is_match(file_name)
    }
}

#[cfg(test)]
mod tests {
    use super::NamePatterns;

    #[test]
    fn names_match_exactly_or_by_wildcards() {
        let patterns = NamePatterns::new(["Cargo.toml", "*.csproj", "a*b*c", "[broken"]);
        assert!(patterns.matches("Cargo.toml"));
        assert!(patterns.matches("App.csproj"));
        assert!(!patterns.matches("App.csproj.user"));
        assert!(!patterns.matches("Cargo.lock"));
        assert!(patterns.matches("aXbYc"));
        assert!(!patterns.matches("aXc"));
        assert!(!patterns.matches("[broken"));
    }
}
