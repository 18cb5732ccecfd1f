//! Side files: the type lists, solutions and registries a format reads beside its data,
//! found and read through one resolver, and each parsed once per run.

use gamewire_core::{Error, Result};
use std::any::Any;
use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

/// Where side files come from: the file system, or files held in memory (tests,
/// Python, the web page).
pub trait SideSource: Send + Sync {
    /// Reads the file at `path` (as returned by [`SideSource::start_dir`] joined with
    /// names, or named by a document).
    fn read(&self, path: &Path) -> std::io::Result<Vec<u8>>;
    /// True when something is at `path` (a file to read, or a special file that
    /// [`SideSource::read`] will refuse with the reason).
    fn is_file(&self, path: &Path) -> bool;
    /// The folder a data file at `file` (or the current folder, for `None`) sits in,
    /// as the search for its side files starts there and goes up.
    fn start_dir(&self, file: Option<&Path>) -> PathBuf;
}

/// Largest side file read (see [`gamewire_core::files::MAX_SIDE_FILE`]).
pub const MAX_SIDE_FILE: u64 = gamewire_core::files::MAX_SIDE_FILE;

/// Side files on disk.
#[derive(Debug, Default, Clone, Copy)]
pub struct FileSystem;

impl SideSource for FileSystem {
    fn read(&self, path: &Path) -> std::io::Result<Vec<u8>> {
        // Regular files only, checked before opening (a named pipe would wait for a
        // writer, a device would be read without end), of at most MAX_SIDE_FILE bytes.
        gamewire_core::files::read_regular_io(path, MAX_SIDE_FILE)
    }

    fn is_file(&self, path: &Path) -> bool {
        // Anything by the name counts as found: a pipe or device named `types.json` is
        // then refused by `read` with the reason, rather than passed over in silence.
        path.exists()
    }

    fn start_dir(&self, file: Option<&Path>) -> PathBuf {
        let dir = file
            .and_then(Path::parent)
            .filter(|p| !p.as_os_str().is_empty())
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from("."));
        std::fs::canonicalize(&dir)
            .or_else(|_| std::path::absolute(&dir))
            .unwrap_or(dir)
    }
}

/// Side files held in memory, by path (`"types.json"`, `"game/zeze-solution.xml"`).
/// Paths are relative to a virtual root; `..` is resolved lexically.
#[derive(Debug, Default, Clone)]
pub struct Memory {
    files: HashMap<PathBuf, Arc<[u8]>>,
}

impl Memory {
    /// No files.
    pub fn new() -> Self {
        Memory::default()
    }

    /// Adds (or replaces) a file.
    pub fn insert(&mut self, path: impl AsRef<Path>, data: impl Into<Arc<[u8]>>) {
        self.files.insert(normalize(path.as_ref()), data.into());
    }
}

impl SideSource for Memory {
    fn read(&self, path: &Path) -> std::io::Result<Vec<u8>> {
        self.files
            .get(&normalize(path))
            .map(|d| d.to_vec())
            .ok_or_else(|| std::io::Error::from(std::io::ErrorKind::NotFound))
    }

    fn is_file(&self, path: &Path) -> bool {
        self.files.contains_key(&normalize(path))
    }

    fn start_dir(&self, file: Option<&Path>) -> PathBuf {
        file.and_then(Path::parent)
            .map(normalize)
            .unwrap_or_default()
    }
}

/// `path` with `.` and `..` resolved lexically.
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() && !out.has_root() {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

type Parsed = Arc<dyn Any + Send + Sync>;
/// A value computed once, shared by every thread that asks (an error kept as text).
type Once<T> = Arc<OnceLock<std::result::Result<T, String>>>;

/// The side files of one run: found through a [`SideSource`], read and hashed once,
/// and parsed once per kind (a type list, a solution, a registry), shared by every file
/// that needs them, across threads.
pub struct SideFiles {
    source: Box<dyn SideSource>,
    bytes: Mutex<HashMap<PathBuf, Once<Arc<[u8]>>>>,
    parsed: Mutex<HashMap<(PathBuf, &'static str), Once<Parsed>>>,
}

impl std::fmt::Debug for SideFiles {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SideFiles")
    }
}

impl SideFiles {
    /// Side files from `source`.
    pub fn new(source: impl SideSource + 'static) -> Self {
        SideFiles {
            source: Box::new(source),
            bytes: Mutex::new(HashMap::new()),
            parsed: Mutex::new(HashMap::new()),
        }
    }

    /// Side files on disk, found beside each file and then in its parent folders.
    pub fn filesystem() -> Self {
        SideFiles::new(FileSystem)
    }

    /// Side files in memory.
    pub fn memory(files: Memory) -> Self {
        SideFiles::new(files)
    }

    /// No side files at all.
    pub fn none() -> Self {
        SideFiles::new(Memory::new())
    }

    /// The folder the search for `file`'s side files starts in.
    pub fn start_dir(&self, file: Option<&Path>) -> PathBuf {
        self.source.start_dir(file)
    }

    /// The first of `names` found in `file`'s folder, then in each parent folder in turn
    /// (the nearest folder wins; within a folder, the first name).
    pub fn find(&self, file: Option<&Path>, names: &[String]) -> Option<PathBuf> {
        let start = self.source.start_dir(file);
        let mut dir = Some(start.as_path());
        while let Some(d) = dir {
            for n in names {
                let p = d.join(n);
                if self.source.is_file(&p) {
                    return Some(p);
                }
            }
            dir = d.parent();
        }
        None
    }

    /// True when a file is at `path`.
    pub fn exists(&self, path: &Path) -> bool {
        self.source.is_file(path)
    }

    /// The bytes of the side file at `path`, read once. A file that cannot be read is
    /// an [`gamewire_core::ErrorKind::Io`] error (`cannot read types.json: No such file
    /// or directory`) that keeps the I/O error as its source; it is not remembered, so
    /// each caller gets the I/O error itself.
    pub fn read(&self, path: &Path) -> Result<Arc<[u8]>> {
        let cell = {
            let mut m = self.bytes.lock().unwrap_or_else(|p| p.into_inner());
            m.entry(path.to_path_buf()).or_default().clone()
        };
        if let Some(got) = cell.get() {
            return got.clone().map_err(Error::msg);
        }
        let data = self
            .source
            .read(path)
            .map_err(|e| Error::io(format!("cannot read {}", path.display()), e))?;
        cell.get_or_init(|| Ok(Arc::from(data)))
            .clone()
            .map_err(Error::msg)
    }

    /// The SHA-256 of the side file at `path`, in hex, computed once per run.
    pub fn sha256(&self, path: &Path) -> Result<String> {
        let h = self.parsed(path, "sha256", |side, p| Ok(sha256_hex(&side.read(p)?)))?;
        Ok(String::clone(&h))
    }

    /// The side file at `path` parsed by `parse` as `kind` (`"types"`, `"solution"`,
    /// ...), parsed once per run however many files need it. `parse` is handed this
    /// resolver (a solution reads its imports through it) and the path.
    pub fn parsed<T: Any + Send + Sync>(
        &self,
        path: &Path,
        kind: &'static str,
        parse: impl FnOnce(&SideFiles, &Path) -> Result<T>,
    ) -> Result<Arc<T>> {
        let cell = {
            let mut m = self.parsed.lock().unwrap_or_else(|p| p.into_inner());
            m.entry((path.to_path_buf(), kind)).or_default().clone()
        };
        let got = cell
            .get_or_init(|| {
                parse(self, path)
                    .map(|v| Arc::new(v) as Parsed)
                    .map_err(|e| e.to_string())
            })
            .clone()
            .map_err(|e| Error::msg(e.to_string()))?;
        got.downcast::<T>().map_err(|_| {
            Error::msg(format!(
                "{}: read as two kinds of side file",
                path.display()
            ))
        })
    }
}

/// The SHA-256 of `data`, in lower-case hex.
pub fn sha256_hex(data: &[u8]) -> String {
    use sha2::Digest;
    let d = sha2::Sha256::digest(data);
    gamewire_core::hex::to_hex(&d)
}

/// `target` relative to the folder `base` (both absolute or both relative to the same
/// folder), with `/` separators: `../types.json`. `None` when there is no relative
/// path (other drive, or mixed absolute and relative).
pub fn relative_to(target: &Path, base: &Path) -> Option<String> {
    let t = normalize(target);
    let b = normalize(base);
    if t.has_root() != b.has_root() {
        return None;
    }
    let tc: Vec<Component> = t.components().collect();
    let bc: Vec<Component> = b.components().collect();
    let common = tc.iter().zip(&bc).take_while(|(x, y)| x == y).count();
    let mut parts: Vec<String> = Vec::new();
    for c in &bc[common..] {
        if matches!(c, Component::ParentDir) {
            return None;
        }
        parts.push("..".into());
    }
    for c in &tc[common..] {
        parts.push(c.as_os_str().to_string_lossy().into_owned());
    }
    Some(parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_beside_then_up_and_parses_once() {
        let mut m = Memory::new();
        m.insert("game/types.json", b"top".to_vec());
        m.insert("game/items/a.types.json", b"near".to_vec());
        let side = SideFiles::memory(m);
        let names = ["a.types.json".to_owned(), "types.json".to_owned()];
        let near = side.find(Some(Path::new("game/items/a.bin")), &names);
        assert_eq!(near, Some(PathBuf::from("game/items/a.types.json")));
        let up = side.find(Some(Path::new("game/items/b.bin")), &names[1..]);
        assert_eq!(up, Some(PathBuf::from("game/types.json")));
        assert_eq!(side.find(Some(Path::new("other/x.bin")), &names[1..]), None);
        let calls = std::sync::atomic::AtomicUsize::new(0);
        for _ in 0..3 {
            let v = side
                .parsed(Path::new("game/types.json"), "t", |s, p| {
                    calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    Ok(s.read(p)?.len())
                })
                .unwrap();
            assert_eq!(*v, 3);
        }
        assert_eq!(calls.into_inner(), 1);
    }

    #[test]
    fn relative_paths() {
        assert_eq!(
            relative_to(Path::new("/a/b/types.json"), Path::new("/a/c")),
            Some("../b/types.json".into())
        );
        assert_eq!(
            relative_to(Path::new("/a/types.json"), Path::new("/a")),
            Some("types.json".into())
        );
        assert_eq!(
            relative_to(Path::new("x/t.json"), Path::new("")),
            Some("x/t.json".into())
        );
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
