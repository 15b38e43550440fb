//! Hosted projects: the workspaces one server answers for, each with its
//! own root, include paths, index database, watcher and limits, and the
//! grants that say which caller may use which.

pub mod access;
pub mod config;
pub mod limits;
pub mod state;
pub mod tools;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};

use lingo_index::Workspace;
use lingo_runtime::PluginRegistry;
use lingo_tools::ToolContext;
use lingo_tools::error::ToolError;

use self::access::Grant;
use self::config::{LimitsSection, ProjectsFile};
use self::limits::{Concurrency, ProjectLimits, Rate};

/// Longest project id, in characters.
const MAX_ID_CHARS: usize = 64;
/// Most projects one server holds.
pub const MAX_PROJECTS: usize = 256;

/// A hosted-mode configuration that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ProjectsError {
    #[error("{}: {reason}", path.display())]
    File { path: PathBuf, reason: String },
    #[error("project id `{id}`: {reason}")]
    InvalidId { id: String, reason: &'static str },
    #[error("project `{id}` is declared twice")]
    Duplicate { id: String },
    #[error("project `{id}`: {reason}")]
    Root { id: String, reason: String },
    #[error("limit `{field}` would refuse every request")]
    Limit { field: &'static str },
    #[error("token `{name}`: {reason}")]
    Token { name: String, reason: String },
}

/// A project id: 1 to 64 of ASCII letters, digits, `-`, `_` and `.`, not
/// starting with `.`.
pub fn check_id(id: &str) -> Result<(), ProjectsError> {
    let invalid = |reason| {
        Err(ProjectsError::InvalidId {
            id: id.chars().take(MAX_ID_CHARS).collect(),
            reason,
        })
    };
    if id.is_empty() {
        return invalid("it is empty");
    }
    if id.chars().count() > MAX_ID_CHARS {
        return invalid("it is longer than 64 characters");
    }
    if id.starts_with('.') {
        return invalid("it starts with `.`");
    }
    if !id
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    {
        return invalid("only ASCII letters, digits, `-`, `_` and `.` may be used");
    }
    Ok(())
}

/// Opens a project's workspace: the plugins all projects share, where
/// index databases live, whether to watch.
pub struct WorkspaceOpener {
    pub plugins: Arc<PluginRegistry>,
    pub cache_dir: Option<PathBuf>,
    pub watch: bool,
    pub tool_names: Vec<&'static str>,
}

impl WorkspaceOpener {
    /// The workspace at `root` serving `include`, its index started.
    pub fn open(
        &self,
        id: &str,
        root: &Path,
        include: &[String],
    ) -> anyhow::Result<Arc<ToolContext>> {
        let mut workspace = match &self.cache_dir {
            Some(dir) => Workspace::with_store(root, self.plugins.clone(), dir)?,
            None => Workspace::new(root, self.plugins.clone())?,
        };
        workspace.set_include(include)?;
        workspace.set_project_id(id);
        workspace.recover();
        if self.watch {
            workspace.watch();
        }
        let workspace = Arc::new(workspace);
        workspace.start_refresh();
        Ok(Arc::new(ToolContext {
            workspace,
            tool_names: self.tool_names.clone(),
            gate: Default::default(),
        }))
    }
}

/// One served project.
pub struct Project {
    pub id: String,
    pub context: Arc<ToolContext>,
    pub include: Vec<String>,
    pub limits: ProjectLimits,
    rate: Rate,
    concurrency: Concurrency,
    /// The token that created it at run time (it may use it).
    created_by: Option<Arc<str>>,
}

impl Project {
    fn new(
        id: String,
        context: Arc<ToolContext>,
        include: Vec<String>,
        limits: ProjectLimits,
    ) -> Self {
        Project {
            rate: Rate::new(limits.requests_per_second, limits.burst),
            concurrency: Concurrency::new(limits.max_concurrent),
            id,
            context,
            include,
            limits,
            created_by: None,
        }
    }

    /// Whether `grant` may use this project.
    pub fn allows(&self, grant: &Grant) -> bool {
        grant.names(&self.id) || self.created_by.as_deref() == Some(&*grant.name)
    }

    /// Take one request from the project's rate, or the wait until one.
    pub fn take(&self) -> Result<(), std::time::Duration> {
        self.rate.take()
    }

    /// A slot among the project's concurrent calls.
    pub fn enter(&self) -> Option<tokio::sync::OwnedSemaphorePermit> {
        self.concurrency.enter()
    }

    /// The project as `list_projects` shows it.
    pub fn describe(&self) -> ProjectView {
        let snapshot = self.context.workspace.snapshot();
        ProjectView {
            project_id: self.id.to_string(),
            root: self.context.workspace.root().display().to_string(),
            include: self.include.clone(),
            file_count: snapshot.files.len(),
            symbol_count: snapshot.symbol_count(),
            limits: LimitsView {
                requests_per_second: self.limits.requests_per_second,
                burst: self.limits.burst,
                max_concurrent: self.concurrency.limit(),
                max_response_bytes: self.limits.max_response_bytes,
                request_timeout_ms: self.limits.request_timeout.as_millis() as u64,
            },
        }
    }
}

/// A project as the project tools show it.
#[derive(Debug, Clone, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProjectView {
    pub project_id: String,
    pub root: String,
    pub include: Vec<String>,
    pub file_count: usize,
    pub symbol_count: usize,
    pub limits: LimitsView,
}

/// A project's limits.
#[derive(Debug, Clone, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct LimitsView {
    pub requests_per_second: u32,
    pub burst: u32,
    pub max_concurrent: u32,
    pub max_response_bytes: usize,
    pub request_timeout_ms: u64,
}

/// The projects a hosted server answers for.
pub struct ProjectRegistry {
    projects: RwLock<BTreeMap<String, Arc<Project>>>,
    opener: WorkspaceOpener,
    defaults: ProjectLimits,
    /// Canonical folders under which run-time projects may be created.
    project_roots: Vec<PathBuf>,
    /// Where run-time projects are kept across restarts (none: they are
    /// not); the lock orders the saves.
    state: Option<(PathBuf, Mutex<()>)>,
}

impl ProjectRegistry {
    /// The projects of `file`, each opened (and its index started).
    pub fn load(file: ProjectsFile, opener: WorkspaceOpener) -> Result<Self, ProjectsError> {
        let defaults = file.defaults.over(&ProjectLimits::default())?;
        let state = match (&file.runtime_projects_file, &opener.cache_dir, &file.source) {
            (Some(path), _, _) => Some(path.clone()),
            (None, Some(cache), Some(source)) => Some(state::default_path(cache, source)),
            (None, _, _) => None,
        };
        if state.is_none() && !file.project_roots.is_empty() {
            tracing::warn!("no cache directory: projects made at run time are lost at a restart");
        }
        let registry = ProjectRegistry {
            projects: RwLock::new(BTreeMap::new()),
            opener,
            defaults,
            project_roots: file
                .project_roots
                .iter()
                .filter_map(|folder| match folder.canonicalize() {
                    Ok(folder) => Some(folder),
                    Err(error) => {
                        tracing::warn!(folder = %folder.display(), %error, "project_roots entry skipped");
                        None
                    }
                })
                .collect(),
            state: state.map(|path| (path, Mutex::new(()))),
        };
        for project in file.projects {
            registry.insert(
                project.id,
                &project.root,
                project.include,
                &project.limits,
                None,
            )?;
        }
        registry.restore_runtime_projects();
        Ok(registry)
    }

    /// Serve again the projects made at run time before a restart. Each is
    /// checked as `create_project` checks it (the file may have been
    /// edited, a root removed, the project roots changed); one that does
    /// not pass is left out, with a warning.
    fn restore_runtime_projects(&self) {
        let Some((path, _)) = &self.state else {
            return;
        };
        let saved = state::read(path);
        for project in saved.into_iter().take(MAX_PROJECTS) {
            let id = project.id.clone();
            let restored = self
                .check_runtime(&project.id, &project.root, &project.include)
                .and_then(|root| {
                    self.insert(
                        project.id,
                        &root,
                        project.include,
                        &LimitsSection::default(),
                        Some(project.created_by.into()),
                    )
                    .map_err(|e| e.to_string())
                });
            match restored {
                Ok(_) => tracing::info!(project = %id, "run-time project restored"),
                Err(reason) => {
                    tracing::warn!(project = %id.chars().take(MAX_ID_CHARS).collect::<String>(), %reason, "run-time project not restored")
                }
            }
        }
    }

    /// A run-time project's root, canonical, if `id`, `root` and
    /// `include` are what `create_project` accepts.
    fn check_runtime(&self, id: &str, root: &Path, include: &[String]) -> Result<PathBuf, String> {
        check_id(id).map_err(|e| e.to_string())?;
        if include.len() > tools::MAX_INCLUDE {
            return Err(format!("more than {} include paths", tools::MAX_INCLUDE));
        }
        self.under_project_roots(root)
            .map_err(|e| format!("root {}: {e}", root.display()))?
            .ok_or_else(|| format!("root {} is not under a project root", root.display()))
    }

    /// `root`, canonical, when it lies under one of the project roots.
    fn under_project_roots(&self, root: &Path) -> std::io::Result<Option<PathBuf>> {
        let canonical = root.canonicalize()?;
        Ok(self
            .project_roots
            .iter()
            .any(|r| canonical.starts_with(r))
            .then_some(canonical))
    }

    /// Save the run-time projects, if they are kept.
    fn save_runtime_projects(&self) -> Result<(), ToolError> {
        let Some((path, lock)) = &self.state else {
            return Ok(());
        };
        let _saving = lingo_model::sync::lock(lock);
        let projects: Vec<state::SavedProject> = lingo_model::sync::read(&self.projects)
            .values()
            .filter_map(|project| {
                Some(state::SavedProject {
                    id: project.id.clone(),
                    root: project.context.workspace.root().to_path_buf(),
                    include: project.include.clone(),
                    created_by: project.created_by.as_deref()?.to_string(),
                })
            })
            .collect();
        state::write(path, &projects).map_err(|e| {
            ToolError::Internal(format!(
                "the run-time projects could not be saved to {}: {e}",
                path.display()
            ))
        })
    }

    /// Open and add a project.
    fn insert(
        &self,
        id: String,
        root: &Path,
        include: Vec<String>,
        limits: &LimitsSection,
        created_by: Option<Arc<str>>,
    ) -> Result<Arc<Project>, ProjectsError> {
        check_id(&id)?;
        let root_error = |reason: String| ProjectsError::Root {
            id: id.clone(),
            reason,
        };
        let canonical = root
            .canonicalize()
            .map_err(|e| root_error(format!("root {}: {e}", root.display())))?;
        let limits = limits.over(&self.defaults)?;
        {
            let projects = lingo_model::sync::read(&self.projects);
            if projects.contains_key(&id) {
                return Err(ProjectsError::Duplicate { id });
            }
            if projects.len() >= MAX_PROJECTS {
                return Err(root_error(format!(
                    "a server holds at most {MAX_PROJECTS} projects"
                )));
            }
            if let Some(other) = projects
                .values()
                .find(|p| p.context.workspace.root() == canonical)
            {
                return Err(root_error(format!(
                    "project `{}` already serves {}",
                    other.id,
                    canonical.display()
                )));
            }
        }
        let context = self
            .opener
            .open(&id, &canonical, &include)
            .map_err(|e| root_error(format!("{e:#}")))?;
        let mut project = Project::new(id.clone(), context, include, limits);
        project.created_by = created_by;
        let project = Arc::new(project);
        let mut projects = lingo_model::sync::write(&self.projects);
        if projects.contains_key(&id) {
            return Err(ProjectsError::Duplicate { id });
        }
        projects.insert(id, project.clone());
        tracing::info!(project = %project.id, root = %canonical.display(), "project served");
        Ok(project)
    }

    /// The project `id` as `grant` may see it: PROJECT_NOT_FOUND when it is
    /// not served or not the grant's (the two are not told apart).
    pub fn get(&self, id: &str, grant: &Grant) -> Result<Arc<Project>, ToolError> {
        let projects = lingo_model::sync::read(&self.projects);
        match projects.get(id) {
            Some(project) if project.allows(grant) => Ok(project.clone()),
            _ => Err(ToolError::ProjectNotFound {
                project: id.chars().take(MAX_ID_CHARS * 2).collect(),
                known: visible(&projects, grant),
            }),
        }
    }

    /// The ids `grant` may use, sorted.
    pub fn ids_for(&self, grant: &Grant) -> Vec<String> {
        visible(&lingo_model::sync::read(&self.projects), grant)
    }

    /// The projects `grant` may use.
    pub fn projects_for(&self, grant: &Grant) -> Vec<Arc<Project>> {
        lingo_model::sync::read(&self.projects)
            .values()
            .filter(|p| p.allows(grant))
            .cloned()
            .collect()
    }

    /// Create a project at run time: `root` must lie in one of the
    /// configured project roots.
    pub fn create(
        &self,
        id: &str,
        root: &str,
        include: Vec<String>,
        grant: &Grant,
    ) -> Result<Arc<Project>, ToolError> {
        if !grant.admin {
            return Err(ToolError::NotPermitted {
                action: "create_project".into(),
                reason: "the token may not create projects".into(),
            });
        }
        check_id(id).map_err(|e| ToolError::invalid("projectId", e.to_string()))?;
        if self.project_roots.is_empty() {
            return Err(ToolError::NotPermitted {
                action: "create_project".into(),
                reason: "this server has no `project_roots`: its projects are those of its projects file".into(),
            });
        }
        if root.contains('\0') {
            return Err(ToolError::invalid("root", "the path contains a NUL byte"));
        }
        let canonical = self
            .under_project_roots(Path::new(root))
            .map_err(|e| ToolError::invalid("root", format!("{root}: {e}")))?
            .ok_or_else(|| ToolError::PathOutsideBoundary {
                path: root.to_string(),
            })?;
        self.insert(
            id.to_string(),
            &canonical,
            include,
            &LimitsSection::default(),
            Some(grant.name.clone()),
        )
        .map_err(|e| match e {
            ProjectsError::Duplicate { .. } => ToolError::invalid("projectId", e.to_string()),
            ProjectsError::Root { .. } => ToolError::invalid("root", e.to_string()),
            other => ToolError::invalid("include", other.to_string()),
        })
        .and_then(|project| match self.save_runtime_projects() {
            Ok(()) => Ok(project),
            Err(error) => {
                // Not kept, not served: the project exists in full or not.
                lingo_model::sync::write(&self.projects).remove(id);
                Err(error)
            }
        })
    }

    /// Stop serving project `id` (its calls in flight finish first).
    pub fn remove(&self, id: &str, grant: &Grant) -> Result<Arc<Project>, ToolError> {
        let project = self.get(id, grant)?;
        if !grant.admin {
            return Err(ToolError::NotPermitted {
                action: "remove_project".into(),
                reason: "the token may not remove projects".into(),
            });
        }
        lingo_model::sync::write(&self.projects).remove(id);
        if let Err(error) = self.save_runtime_projects() {
            // Still saved, so still served: put it back.
            lingo_model::sync::write(&self.projects)
                .entry(project.id.clone())
                .or_insert_with(|| project.clone());
            return Err(error);
        }
        tracing::info!(project = %id, "project removed");
        Ok(project)
    }
}

fn visible(projects: &BTreeMap<String, Arc<Project>>, grant: &Grant) -> Vec<String> {
    projects
        .values()
        .filter(|p| p.allows(grant))
        .map(|p| p.id.clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A registry over no plugins whose run-time projects are kept at
    /// `state` and may live under `roots`.
    fn registry(roots: &Path, state: &Path, cache: &Path) -> ProjectRegistry {
        let file = ProjectsFile {
            project_roots: vec![roots.to_path_buf()],
            runtime_projects_file: Some(state.to_path_buf()),
            ..ProjectsFile::default()
        };
        let opener = WorkspaceOpener {
            plugins: Arc::new(PluginRegistry::from_plugins(
                Vec::new(),
                &Default::default(),
            )),
            cache_dir: Some(cache.to_path_buf()),
            watch: false,
            tool_names: Vec::new(),
        };
        ProjectRegistry::load(file, opener).expect("loads")
    }

    #[test]
    fn run_time_projects_are_restored_only_as_create_project_would_make_them() {
        let dir =
            std::env::temp_dir().join(format!("lingo-runtime-projects-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let (roots, outside) = (dir.join("roots"), dir.join("outside"));
        for folder in [roots.join("one"), roots.join("two"), outside.clone()] {
            std::fs::create_dir_all(folder).unwrap();
        }
        let roots = roots.canonicalize().unwrap();
        let (state_path, cache) = (dir.join("state/projects.json"), dir.join("cache"));
        let saved = |id: &str, root: PathBuf, include: usize| state::SavedProject {
            id: id.into(),
            root,
            include: (0..include).map(|i| format!("f{i}")).collect(),
            created_by: "admin".into(),
        };
        state::write(
            &state_path,
            &[
                saved("one", roots.join("one"), 0),
                saved("bad/id", roots.join("two"), 0),
                saved("outside", outside.clone(), 0),
                saved("escape", roots.join("../outside"), 0),
                saved("gone", roots.join("gone"), 0),
                saved("wide", roots.join("two"), tools::MAX_INCLUDE + 1),
                saved("one", roots.join("two"), 0),
            ],
        )
        .unwrap();
        let admin = Grant::local();
        let registry = registry(&roots, &state_path, &cache);
        assert_eq!(registry.ids_for(&admin), ["one"]);

        // What is made and removed now is what the next start serves.
        registry
            .create(
                "two",
                roots.join("two").to_str().unwrap(),
                Vec::new(),
                &admin,
            )
            .unwrap();
        registry.remove("one", &admin).unwrap();
        let ids: Vec<String> = state::read(&state_path).into_iter().map(|p| p.id).collect();
        assert_eq!(ids, ["two"]);
        drop(registry);
        let registry = super::tests::registry(&roots, &state_path, &cache);
        assert_eq!(registry.ids_for(&admin), ["two"]);

        // A save that fails leaves the project neither served nor kept.
        std::fs::remove_dir_all(state_path.parent().unwrap()).unwrap();
        std::fs::write(state_path.parent().unwrap(), "a file where the folder was").unwrap();
        let Err(error) = registry.create(
            "one",
            roots.join("one").to_str().unwrap(),
            Vec::new(),
            &admin,
        ) else {
            panic!("created without being saved");
        };
        assert_eq!(error.code(), "INTERNAL_ERROR", "{error}");
        assert_eq!(registry.ids_for(&admin), ["two"]);
        let Err(error) = registry.remove("two", &admin) else {
            panic!("removed without being saved");
        };
        assert_eq!(error.code(), "INTERNAL_ERROR", "{error}");
        assert_eq!(
            registry.ids_for(&admin),
            ["two"],
            "still saved, so still served"
        );
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn project_ids_are_short_plain_names() {
        for good in ["app", "my-lib_2", "a.b", "X"] {
            assert!(check_id(good).is_ok(), "{good}");
        }
        for bad in [
            "",
            ".hidden",
            "a/b",
            "../x",
            "a b",
            "é",
            &"x".repeat(65),
            "a\0b",
        ] {
            assert!(check_id(bad).is_err(), "{bad:?}");
        }
    }
}
