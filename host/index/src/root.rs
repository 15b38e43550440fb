//! The workspace root as a capability (`cap_std::fs::Dir`, opened once):
//! every read and stat of a file under the root goes through it, so that
//! neither a `..` nor a symbolic link (a planted one, or an indexed file
//! later replaced by one) can make lingo read a byte outside the root.
//! A link that stays inside the root is followed; one that leaves it fails
//! like a missing file.

use std::io;
use std::path::Path;
use std::time::SystemTime;

use cap_std::ambient_authority;
use cap_std::fs::Dir;

/// What a stat under the root tells.
#[derive(Debug, Clone, Copy)]
pub struct FileStat {
    pub is_file: bool,
    pub len: u64,
    pub modified: Option<SystemTime>,
}

/// The root directory, opened once.
#[derive(Debug)]
pub struct RootDir {
    dir: Dir,
}

impl RootDir {
    /// Open `root` (a canonical directory path).
    pub fn open(root: &Path) -> io::Result<RootDir> {
        Ok(RootDir {
            dir: Dir::open_ambient_dir(root, ambient_authority())?,
        })
    }

    /// The bytes of the file at workspace path `path`.
    pub fn read(&self, path: &str) -> io::Result<Vec<u8>> {
        let mut bytes = Vec::new();
        self.read_into(path, &mut bytes)?;
        Ok(bytes)
    }

    /// The bytes of the file at workspace path `path`, into `buffer`
    /// (emptied first): for a caller that reuses one buffer.
    pub fn read_into(&self, path: &str, buffer: &mut Vec<u8>) -> io::Result<()> {
        use std::io::Read;
        buffer.clear();
        let mut file = self.dir.open(path)?;
        let len = file.metadata().map_or(0, |m| m.len());
        buffer.reserve(usize::try_from(len).unwrap_or(0));
        file.read_to_end(buffer)?;
        Ok(())
    }

    /// The file at workspace path `path` as text (lossy UTF-8 is the
    /// caller's business: this fails on invalid UTF-8).
    pub fn read_to_string(&self, path: &str) -> io::Result<String> {
        self.dir.read_to_string(path)
    }

    /// A stat of `path`, links inside the root followed.
    pub fn stat(&self, path: &str) -> io::Result<FileStat> {
        let metadata = self.dir.metadata(path)?;
        Ok(FileStat {
            is_file: metadata.is_file(),
            len: metadata.len(),
            modified: metadata.modified().ok().map(|m| m.into_std()),
        })
    }

    /// The capability itself, for the writes of `transaction.rs`.
    pub(super) fn dir(&self) -> &Dir {
        &self.dir
    }

    /// Whether `path` is a regular file reached inside the root.
    pub fn is_file(&self, path: &str) -> bool {
        self.stat(path).is_ok_and(|s| s.is_file)
    }

    /// Whether `path` is a folder reached inside the root (`""`: the root).
    pub fn is_dir(&self, path: &str) -> bool {
        if path.is_empty() {
            return true;
        }
        self.dir.symlink_metadata(path).is_ok_and(|m| m.is_dir())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scratch tree: `root/` with a file, and `outside/secret.txt`.
    fn scratch(name: &str) -> (std::path::PathBuf, RootDir) {
        let base = std::env::temp_dir().join(format!("lingo-root-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        std::fs::create_dir_all(base.join("root/src")).unwrap();
        std::fs::create_dir_all(base.join("outside")).unwrap();
        std::fs::write(base.join("root/src/lib.rs"), "fn inside() {}\n").unwrap();
        std::fs::write(base.join("outside/secret.txt"), "secret\n").unwrap();
        let root = RootDir::open(&base.join("root").canonicalize().unwrap()).unwrap();
        (base, root)
    }

    #[test]
    fn reads_and_stats_files_inside_the_root() {
        let (base, root) = scratch("inside");
        assert_eq!(root.read("src/lib.rs").unwrap(), b"fn inside() {}\n");
        let stat = root.stat("src/lib.rs").unwrap();
        assert!(stat.is_file && stat.len == 15 && stat.modified.is_some());
        assert!(!root.is_file("src"));
        let _ = std::fs::remove_dir_all(base);
    }

    #[cfg(unix)]
    #[test]
    fn links_and_dot_dots_out_of_the_root_read_nothing() {
        let (base, root) = scratch("links");
        let secret = base.join("outside/secret.txt");
        // A file replaced by a link out, a linked folder out, a `..`.
        std::fs::remove_file(base.join("root/src/lib.rs")).unwrap();
        std::os::unix::fs::symlink(&secret, base.join("root/src/lib.rs")).unwrap();
        std::os::unix::fs::symlink(base.join("outside"), base.join("root/linked")).unwrap();
        for path in [
            "src/lib.rs",
            "linked/secret.txt",
            "../outside/secret.txt",
            "/etc/passwd",
        ] {
            assert!(root.read(path).is_err(), "{path} was read");
            assert!(root.stat(path).is_err(), "{path} was stat'ed");
            assert!(!root.is_file(path), "{path}");
        }
        // A link that stays inside the root is followed.
        std::fs::write(base.join("root/src/real.rs"), "fn real() {}\n").unwrap();
        std::os::unix::fs::symlink("real.rs", base.join("root/src/alias.rs")).unwrap();
        assert_eq!(root.read("src/alias.rs").unwrap(), b"fn real() {}\n");
        let _ = std::fs::remove_dir_all(base);
    }
}
