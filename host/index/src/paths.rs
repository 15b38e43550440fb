//! Path boundaries: turning user-supplied paths into workspace-relative POSIX
//! paths, refusing anything that leaves the root.

use std::path::{Component, Path, PathBuf};

use super::WorkspaceError;

/// `path` relative to `root` as a POSIX string, if it lies inside `root`.
pub fn relative_posix(root: &Path, path: &Path) -> Option<String> {
    let relative = path.strip_prefix(root).ok()?;
    let parts: Vec<String> = relative
        .components()
        .map(|c| match c {
            Component::Normal(part) => part.to_str().map(str::to_string),
            _ => None,
        })
        .collect::<Option<_>>()?;
    Some(parts.join("/"))
}

/// Resolve a path given by a client (relative to the root, or absolute inside
/// it) to its workspace-relative POSIX form. `..` may not leave the root, and
/// a symbolic link may not point outside it.
pub fn resolve(root: &Path, input: &str) -> Result<String, WorkspaceError> {
    let outside = || WorkspaceError::OutsideRoot {
        path: input.to_string(),
    };
    if input.trim().is_empty() {
        return Err(WorkspaceError::InvalidPath {
            reason: "the path is empty",
        });
    }
    if input.contains('\0') {
        return Err(WorkspaceError::InvalidPath {
            reason: "the path contains a NUL byte",
        });
    }
    let given = Path::new(input);
    let joined = if given.is_absolute() {
        given.to_path_buf()
    } else {
        root.join(given)
    };
    let mut normal = PathBuf::new();
    for component in joined.components() {
        match component {
            Component::ParentDir => {
                if !normal.pop() {
                    return Err(outside());
                }
            }
            Component::CurDir => {}
            other => normal.push(other.as_os_str()),
        }
    }
    if !normal.starts_with(root) {
        return Err(outside());
    }
    // A symbolic link inside the root may still lead outside it.
    if let Ok(real) = normal.canonicalize()
        && !real.starts_with(root)
    {
        return Err(outside());
    }
    relative_posix(root, &normal).ok_or_else(outside)
}

/// Whether workspace-relative `path` lies in one of the served folders
/// (`include`; empty: everything is served).
pub fn served(include: &[String], path: &str) -> bool {
    include.is_empty()
        || include.iter().any(|folder| {
            path == folder
                || (path.starts_with(folder.as_str())
                    && path.as_bytes().get(folder.len()) == Some(&b'/'))
        })
}

/// Whether `path` is a folder holding a served folder (the root holds
/// them all).
pub fn holds_served(include: &[String], path: &str) -> bool {
    path.is_empty()
        || include
            .iter()
            .any(|folder| served(&[path.to_string()], folder))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_relative_and_absolute_inside_root() {
        let root = Path::new("/work/project");
        assert_eq!(resolve(root, "src/lib.rs").unwrap(), "src/lib.rs");
        assert_eq!(resolve(root, "./src/../src/lib.rs").unwrap(), "src/lib.rs");
        assert_eq!(
            resolve(root, "/work/project/src/lib.rs").unwrap(),
            "src/lib.rs"
        );
    }

    #[test]
    fn refuses_paths_that_leave_the_root() {
        let root = Path::new("/work/project");
        for bad in [
            "../secret.rs",
            "src/../../x.rs",
            "/etc/passwd",
            "/work/projectile/a.rs",
        ] {
            let error = resolve(root, bad).unwrap_err();
            assert!(
                matches!(error, WorkspaceError::OutsideRoot { .. }),
                "{bad}: {error:?}"
            );
        }
    }

    #[test]
    fn include_paths_serve_their_folders_and_what_holds_them() {
        let include = vec!["src/app".to_string(), "lib".to_string()];
        assert!(served(&include, "src/app"));
        assert!(served(&include, "src/app/main.rs"));
        assert!(served(&include, "lib/x.rs"));
        assert!(!served(&include, "src/application.rs"));
        assert!(!served(&include, "src/main.rs"));
        assert!(!served(&include, "library/x.rs"));
        assert!(holds_served(&include, ""));
        assert!(holds_served(&include, "src"));
        assert!(!holds_served(&include, "src/main.rs"));
        assert!(!holds_served(&include, "sr"));
        assert!(served(&[], "anything/at/all"));
    }
}
