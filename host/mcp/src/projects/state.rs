//! Run-time projects kept across restarts: what `create_project` made, in
//! a JSON file written whole (to a temporary file, then renamed over the
//! old one) after each `create_project` and `remove_project`.

use std::io::Read;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// The largest state file read: far more than [`super::MAX_PROJECTS`]
/// projects take, far less than a file someone filled could cost.
const MAX_STATE_BYTES: u64 = 4 << 20;

const VERSION: u32 = 1;

/// The file.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct StateFile {
    version: u32,
    projects: Vec<SavedProject>,
}

/// One project made at run time.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SavedProject {
    pub id: String,
    pub root: PathBuf,
    pub include: Vec<String>,
    /// The name of the token that made it (that token may use it).
    pub created_by: String,
}

/// Where the run-time projects of the projects file at `projects_file`
/// are kept by default: in the cache directory, named by the file's
/// canonical path, so that two servers of two files do not share one.
pub fn default_path(cache_dir: &Path, projects_file: &Path) -> PathBuf {
    use sha2::{Digest, Sha256};
    let canonical = projects_file
        .canonicalize()
        .unwrap_or_else(|_| projects_file.to_path_buf());
    let digest = Sha256::digest(canonical.as_os_str().as_encoded_bytes());
    cache_dir
        .join("projects")
        .join(format!("{}.json", &hex::encode(digest)[..16]))
}

/// The projects saved at `path`: none when there is no file yet. A file
/// that cannot be read as one (too large, not JSON, another version) is
/// moved aside to `<path>.unreadable`, so that the next save does not
/// destroy what someone may want back, and none are returned.
pub fn read(path: &Path) -> Vec<SavedProject> {
    let file = match std::fs::File::open(path) {
        Ok(file) => file,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Vec::new(),
        Err(error) => {
            tracing::warn!(path = %path.display(), %error, "run-time projects unreadable");
            return Vec::new();
        }
    };
    let mut text = String::new();
    let read = file.take(MAX_STATE_BYTES + 1).read_to_string(&mut text);
    let parsed = match read {
        Ok(n) if n as u64 > MAX_STATE_BYTES => Err(format!("larger than {MAX_STATE_BYTES} bytes")),
        Ok(_) => serde_json::from_str::<StateFile>(&text)
            .map_err(|e| e.to_string())
            .and_then(|state| match state.version {
                VERSION => Ok(state.projects),
                other => Err(format!("version {other}, not {VERSION}")),
            }),
        Err(error) => Err(error.to_string()),
    };
    parsed.unwrap_or_else(|reason| {
        let aside = path.with_extension("json.unreadable");
        let moved = std::fs::rename(path, &aside);
        tracing::warn!(path = %path.display(), %reason, aside = %aside.display(), moved = moved.is_ok(), "run-time projects file not understood; moved aside");
        Vec::new()
    })
}

/// Save `projects` at `path`, replacing what was there at once.
pub fn write(path: &Path, projects: &[SavedProject]) -> std::io::Result<()> {
    let state = StateFile {
        version: VERSION,
        projects: projects.to_vec(),
    };
    let bytes = serde_json::to_vec_pretty(&state).map_err(std::io::Error::other)?;
    lingo_runtime::write_atomically(path, &bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("lingo-state-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn saved(id: &str) -> SavedProject {
        SavedProject {
            id: id.into(),
            root: PathBuf::from("/srv/code").join(id),
            include: vec!["src".into()],
            created_by: "admin".into(),
        }
    }

    #[test]
    fn what_is_written_reads_back_and_a_missing_file_is_no_projects() {
        let dir = scratch("round-trip");
        let path = dir.join("nested/state.json");
        assert!(read(&path).is_empty());
        write(&path, &[saved("a"), saved("b")]).unwrap();
        assert_eq!(read(&path), vec![saved("a"), saved("b")]);
        write(&path, &[saved("b")]).unwrap();
        assert_eq!(read(&path), vec![saved("b")]);
        let leftovers: Vec<_> = std::fs::read_dir(path.parent().unwrap())
            .unwrap()
            .flatten()
            .map(|e| e.file_name())
            .collect();
        assert_eq!(
            leftovers.len(),
            1,
            "no temporary file is left: {leftovers:?}"
        );
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn a_file_not_understood_is_moved_aside_not_overwritten() {
        let dir = scratch("hostile");
        let path = dir.join("state.json");
        let cases: [(&str, Vec<u8>); 4] = [
            ("not JSON", b"{ projects: [".to_vec()),
            (
                "another version",
                br#"{"version": 9, "projects": []}"#.to_vec(),
            ),
            (
                "unknown field",
                br#"{"version": 1, "projects": [], "extra": 1}"#.to_vec(),
            ),
            ("too large", vec![b' '; (MAX_STATE_BYTES + 10) as usize]),
        ];
        for (what, bytes) in cases {
            std::fs::write(&path, &bytes).unwrap();
            assert!(read(&path).is_empty(), "{what}");
            assert!(!path.exists(), "{what}: moved aside");
            let aside = std::fs::read(path.with_extension("json.unreadable")).unwrap();
            assert_eq!(aside, bytes, "{what}: kept as it was");
        }
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn two_projects_files_get_two_default_files() {
        let dir = scratch("default");
        let (one, two) = (dir.join("one.toml"), dir.join("two.toml"));
        std::fs::write(&one, "").unwrap();
        std::fs::write(&two, "").unwrap();
        let cache = Path::new("/cache");
        assert_ne!(default_path(cache, &one), default_path(cache, &two));
        assert_eq!(
            default_path(cache, &one),
            default_path(cache, &dir.join("./one.toml"))
        );
        assert!(default_path(cache, &one).starts_with("/cache/projects"));
        let _ = std::fs::remove_dir_all(dir);
    }
}
