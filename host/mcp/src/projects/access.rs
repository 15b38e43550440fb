//! Who may use what: bearer tokens (kept as sha256 digests, compared in
//! constant time) and the grant each one carries.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use super::ProjectsError;
use super::config::TokensFile;
use super::limits::Rate;

/// Shortest secret accepted in clear (a digest is always 32 bytes).
const MIN_SECRET_CHARS: usize = 16;

/// What one caller may do.
#[derive(Clone)]
pub struct Grant {
    /// The token's name, for logs and for the projects it created.
    pub name: Arc<str>,
    projects: ProjectSet,
    /// May create and remove projects.
    pub admin: bool,
    /// The token's own request rate (none for a local caller).
    rate: Option<Arc<Rate>>,
}

#[derive(Clone)]
enum ProjectSet {
    All,
    Only(Arc<HashSet<String>>),
}

impl Grant {
    /// The caller of a local transport (stdio, or HTTP on loopback without
    /// tokens): every project, no rate of its own.
    pub fn local() -> Self {
        Grant {
            name: Arc::from("local"),
            projects: ProjectSet::All,
            admin: true,
            rate: None,
        }
    }

    /// Whether the grant names project `id` (or every project).
    pub fn names(&self, id: &str) -> bool {
        match &self.projects {
            ProjectSet::All => true,
            ProjectSet::Only(ids) => ids.contains(id),
        }
    }

    /// Take one request from the token's rate, or the wait until one.
    pub fn take(&self) -> Result<(), Duration> {
        self.rate.as_ref().map_or(Ok(()), |rate| rate.take())
    }
}

impl std::fmt::Debug for Grant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Grant")
            .field("name", &self.name)
            .field("admin", &self.admin)
            .finish_non_exhaustive()
    }
}

/// The tokens a hosted server accepts.
#[derive(Default)]
pub struct Tokens {
    entries: Vec<([u8; 32], Grant)>,
}

/// The default rate of a token that sets none.
pub const TOKEN_REQUESTS_PER_SECOND: u32 = 100;
pub const TOKEN_BURST: u32 = 1000;

impl Tokens {
    /// The tokens of a tokens file.
    pub fn from_file(file: TokensFile) -> Result<Self, ProjectsError> {
        let mut tokens = Tokens::default();
        let mut names = HashSet::new();
        for token in file.tokens {
            if !names.insert(token.name.clone()) {
                return Err(ProjectsError::Token {
                    name: token.name,
                    reason: "another token has this name".into(),
                });
            }
            let digest =
                digest_of_secret(&token.secret).map_err(|reason| ProjectsError::Token {
                    name: token.name.clone(),
                    reason,
                })?;
            let projects = if token.projects.iter().any(|p| p == "*") {
                ProjectSet::All
            } else {
                ProjectSet::Only(Arc::new(token.projects.into_iter().collect()))
            };
            let rate = Rate::new(
                token
                    .requests_per_second
                    .unwrap_or(TOKEN_REQUESTS_PER_SECOND),
                token.burst.unwrap_or(TOKEN_BURST),
            );
            tokens.entries.push((
                digest,
                Grant {
                    name: Arc::from(token.name),
                    projects,
                    admin: token.admin,
                    rate: Some(Arc::new(rate)),
                },
            ));
        }
        Ok(tokens)
    }

    /// One token for every project, allowed to create and remove them (the
    /// `LINGO_TOKEN` environment variable).
    pub fn single(secret: &str) -> Result<Self, ProjectsError> {
        let digest = digest_of_secret(secret).map_err(|reason| ProjectsError::Token {
            name: "LINGO_TOKEN".into(),
            reason,
        })?;
        let grant = Grant {
            name: Arc::from("LINGO_TOKEN"),
            projects: ProjectSet::All,
            admin: true,
            rate: Some(Arc::new(Rate::new(TOKEN_REQUESTS_PER_SECOND, TOKEN_BURST))),
        };
        Ok(Tokens {
            entries: vec![(digest, grant)],
        })
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The grant of `presented`, if it is one of the tokens. Every digest
    /// is compared, each in constant time, so the time taken says nothing
    /// about which one matched or how much of it.
    pub fn authenticate(&self, presented: &str) -> Option<Grant> {
        let digest: [u8; 32] = Sha256::digest(presented.as_bytes()).into();
        let mut found = None;
        for (known, grant) in &self.entries {
            if bool::from(known.ct_eq(&digest)) {
                found = Some(grant.clone());
            }
        }
        found
    }
}

/// The digest a secret is kept as: `sha256:HEX` as written, else the
/// sha256 of the secret itself (at least [`MIN_SECRET_CHARS`] long).
fn digest_of_secret(secret: &str) -> Result<[u8; 32], String> {
    if let Some(hex_digest) = secret.strip_prefix("sha256:") {
        let bytes = hex::decode(hex_digest).map_err(|e| format!("`sha256:` digest: {e}"))?;
        return bytes
            .try_into()
            .map_err(|_| "`sha256:` digest: expected 64 hex digits".to_string());
    }
    if secret.chars().count() < MIN_SECRET_CHARS {
        return Err(format!(
            "the secret is shorter than {MIN_SECRET_CHARS} characters"
        ));
    }
    Ok(Sha256::digest(secret.as_bytes()).into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::projects::config::TokenSection;

    fn section(name: &str, secret: &str, projects: &[&str]) -> TokenSection {
        TokenSection {
            name: name.into(),
            secret: secret.into(),
            projects: projects.iter().map(|p| p.to_string()).collect(),
            admin: false,
            requests_per_second: None,
            burst: None,
        }
    }

    #[test]
    fn a_token_is_known_by_its_secret_or_its_digest() {
        let digest = hex::encode(Sha256::digest(b"second-secret-0123456789"));
        let tokens = Tokens::from_file(TokensFile {
            tokens: vec![
                section("one", "first-secret-0123456789", &["app"]),
                section("two", &format!("sha256:{digest}"), &["*"]),
            ],
        })
        .expect("valid tokens");
        let one = tokens
            .authenticate("first-secret-0123456789")
            .expect("known");
        assert_eq!(&*one.name, "one");
        assert!(one.names("app") && !one.names("lib"));
        let two = tokens
            .authenticate("second-secret-0123456789")
            .expect("known");
        assert!(two.names("anything"));
        assert!(tokens.authenticate("first-secret-012345678").is_none());
        assert!(tokens.authenticate("").is_none());
    }

    #[test]
    fn weak_or_malformed_secrets_and_repeated_names_are_refused() {
        for (tokens, expected) in [
            (vec![section("a", "short", &["*"])], "shorter than"),
            (vec![section("a", "sha256:zz", &["*"])], "digest"),
            (vec![section("a", "sha256:abcd", &["*"])], "64 hex"),
            (
                vec![
                    section("a", "first-secret-0123456789", &["*"]),
                    section("a", "other-secret-0123456789", &["*"]),
                ],
                "another token",
            ),
        ] {
            let error = Tokens::from_file(TokensFile { tokens })
                .err()
                .expect("refused")
                .to_string();
            assert!(error.contains(expected), "{error}");
        }
    }
}
