//! The hosted mode's files: `projects.toml` (the projects, their limits,
//! where run-time projects may live) and the tokens file.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::ProjectsError;
use super::limits::ProjectLimits;

/// `projects.toml`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProjectsFile {
    /// Limits every project has unless it says otherwise.
    #[serde(default)]
    pub defaults: LimitsSection,
    /// Folders under which `create_project` may place a project's root.
    /// Empty: projects are only those of this file.
    #[serde(default)]
    pub project_roots: Vec<PathBuf>,
    /// Where the projects `create_project` made are kept across restarts
    /// (default: a file in the cache directory named after this file).
    pub runtime_projects_file: Option<PathBuf>,
    #[serde(default, rename = "project")]
    pub projects: Vec<ProjectSection>,
    /// The file this was read from.
    #[serde(skip)]
    pub source: Option<PathBuf>,
}

/// One `[[project]]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProjectSection {
    /// What clients pass as `projectId`.
    pub id: String,
    /// The project's root (relative paths are relative to the file).
    pub root: PathBuf,
    /// Folders under the root that are served; empty: all of it.
    #[serde(default)]
    pub include: Vec<String>,
    #[serde(default)]
    pub limits: LimitsSection,
}

/// Limits, each optional (a project's fall back on `[defaults]`, those on
/// [`ProjectLimits::default`]).
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LimitsSection {
    pub requests_per_second: Option<u32>,
    pub burst: Option<u32>,
    pub max_concurrent: Option<u32>,
    pub max_response_bytes: Option<usize>,
    pub request_timeout_ms: Option<u64>,
}

impl LimitsSection {
    /// These limits over `base`.
    pub fn over(&self, base: &ProjectLimits) -> Result<ProjectLimits, ProjectsError> {
        let limits = ProjectLimits {
            requests_per_second: self.requests_per_second.unwrap_or(base.requests_per_second),
            burst: self.burst.unwrap_or(base.burst),
            max_concurrent: self.max_concurrent.unwrap_or(base.max_concurrent),
            max_response_bytes: self.max_response_bytes.unwrap_or(base.max_response_bytes),
            request_timeout: self
                .request_timeout_ms
                .map_or(base.request_timeout, std::time::Duration::from_millis),
        };
        limits.check()?;
        Ok(limits)
    }
}

impl ProjectsFile {
    /// Read and check `path`; roots are made absolute against its folder.
    pub fn read(path: &Path) -> Result<Self, ProjectsError> {
        let text = std::fs::read_to_string(path).map_err(|e| ProjectsError::File {
            path: path.to_path_buf(),
            reason: e.to_string(),
        })?;
        let mut file: ProjectsFile = toml::from_str(&text).map_err(|e| ProjectsError::File {
            path: path.to_path_buf(),
            reason: e.to_string(),
        })?;
        let base = path.parent().unwrap_or(Path::new("."));
        for project in &mut file.projects {
            if project.root.is_relative() {
                project.root = base.join(&project.root);
            }
        }
        for folder in &mut file.project_roots {
            if folder.is_relative() {
                *folder = base.join(&*folder);
            }
        }
        if let Some(state) = &mut file.runtime_projects_file
            && state.is_relative()
        {
            *state = base.join(&*state);
        }
        file.source = Some(path.to_path_buf());
        let mut seen = HashSet::new();
        for project in &file.projects {
            super::check_id(&project.id)?;
            if !seen.insert(project.id.as_str()) {
                return Err(ProjectsError::Duplicate {
                    id: project.id.clone(),
                });
            }
        }
        Ok(file)
    }
}

/// The tokens file: `[[token]]` tables.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TokensFile {
    #[serde(default, rename = "token")]
    pub tokens: Vec<TokenSection>,
}

/// One `[[token]]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TokenSection {
    /// A name for logs (never the secret).
    pub name: String,
    /// The bearer token itself, or `sha256:` and its hex digest.
    pub secret: String,
    /// Project ids it may use; `"*"`: every project.
    pub projects: Vec<String>,
    /// Whether it may create and remove projects.
    #[serde(default)]
    pub admin: bool,
    /// Its own rate, else the default token rate.
    pub requests_per_second: Option<u32>,
    pub burst: Option<u32>,
}

impl TokensFile {
    pub fn read(path: &Path) -> Result<Self, ProjectsError> {
        let text = std::fs::read_to_string(path).map_err(|e| ProjectsError::File {
            path: path.to_path_buf(),
            reason: e.to_string(),
        })?;
        toml::from_str(&text).map_err(|e| ProjectsError::File {
            path: path.to_path_buf(),
            reason: e.to_string(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_documented_example_reads() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/hosted/projects.toml");
        let file = ProjectsFile::read(&path).expect("docs/hosted/projects.toml reads");
        let ids: Vec<&str> = file.projects.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(ids, ["host", "sdk"]);
        assert!(file.projects.iter().all(|p| p.root.is_dir()), "roots exist");
        let sdk = file.defaults.clone();
        assert_eq!(sdk.requests_per_second, Some(100));
    }

    #[test]
    fn unknown_fields_and_repeated_ids_are_refused() {
        let dir = std::env::temp_dir().join(format!("lingo-projects-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for (text, expected) in [
            (
                "[[project]]\nid = \"a\"\nroot = \".\"\nroots = 1\n",
                "unknown field",
            ),
            (
                "[[project]]\nid = \"a\"\nroot = \".\"\n[[project]]\nid = \"a\"\nroot = \".\"\n",
                "declared twice",
            ),
            ("[[project]]\nid = \"a/b\"\nroot = \".\"\n", "only ASCII"),
            ("[defaults]\nburst = 0\n", ""),
        ] {
            let path = dir.join("projects.toml");
            std::fs::write(&path, text).unwrap();
            let outcome = ProjectsFile::read(&path)
                .and_then(|file| file.defaults.over(&ProjectLimits::default()).map(|_| file));
            let error = outcome.expect_err("refused").to_string();
            assert!(error.contains(expected), "{text}: {error}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
