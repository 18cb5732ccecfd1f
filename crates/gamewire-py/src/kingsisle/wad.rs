//! `gamewire.kingsisle.Wad`: a KIWAD archive, memory-mapped, read as a mapping from entry
//! name to bytes; `pack_folder` builds one from a folder.

use crate::errors;
use gamewire::kingsisle::wad::{self, Archive, Builder, Checked, Mapped, Prepared};
use gamewire_core::Limits;
use pyo3::exceptions::{PyKeyError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use std::collections::HashMap;
use std::path::PathBuf;

/// A KIWAD archive opened read-only (memory-mapped): its journal is read and checked
/// once; entries are read (CRC checked, inflated) when asked for.
#[pyclass(name = "_Wad", module = "gamewire.kingsisle", frozen)]
pub struct PyWad {
    archive: Archive<Mapped>,
    index: HashMap<String, usize>,
}

impl PyWad {
    fn index_of(&self, name: &str) -> PyResult<usize> {
        self.index
            .get(name)
            .copied()
            .ok_or_else(|| PyKeyError::new_err(name.to_owned()))
    }
}

#[pymethods]
impl PyWad {
    /// Opens the archive at `path`.
    #[new]
    fn new(py: Python<'_>, path: PathBuf) -> PyResult<Self> {
        let archive = py
            .allow_threads(|| Mapped::open(&path).and_then(Archive::new))
            .map_err(|e| match e.io_error() {
                Some(io) => {
                    pyo3::exceptions::PyOSError::new_err(format!("{}: {io}", path.display()))
                }
                None => errors::to_py(py, e),
            })?;
        let mut index = HashMap::with_capacity(archive.len());
        for (i, e) in archive.entries().enumerate() {
            index.entry(e.name.to_owned()).or_insert(i);
        }
        Ok(PyWad { archive, index })
    }

    /// The entry names, in journal order.
    fn names(&self) -> Vec<&str> {
        self.archive.entries().map(|e| e.name).collect()
    }

    fn __len__(&self) -> usize {
        self.archive.len()
    }

    fn __contains__(&self, name: &str) -> bool {
        self.index.contains_key(name)
    }

    /// The header: `{"version": 2, "flags": 1}` (`flags` None for version 1).
    fn header<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let h = self.archive.header();
        let d = PyDict::new(py);
        d.set_item("version", h.version)?;
        d.set_item("flags", h.flags)?;
        Ok(d)
    }

    /// The journal record of `name`: offset, size, compressed_size, compressed, crc.
    fn info<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyDict>> {
        let e = self.archive.entry(self.index_of(name)?).expect("indexed");
        let d = PyDict::new(py);
        d.set_item("name", e.name)?;
        d.set_item("offset", e.offset)?;
        d.set_item("size", e.size)?;
        d.set_item("compressed_size", e.compressed_size)?;
        d.set_item("compressed", e.compressed)?;
        d.set_item("crc", e.crc)?;
        Ok(d)
    }

    /// The bytes of `name` (CRC checked, inflated); None for a placeholder entry (data
    /// starting with four zero bytes that does not match its CRC). A compressed entry
    /// is inflated straight into the `bytes` returned (no second copy), without the GIL.
    fn read<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Option<Bound<'py, PyBytes>>> {
        let e = self.archive.entry(self.index_of(name)?).expect("indexed");
        let checked = py
            .allow_threads(|| self.archive.check(&e, &Limits::DEFAULT))
            .map_err(|err| errors::to_py(py, err))?;
        match checked {
            Checked::Placeholder => Ok(None),
            Checked::Stored(d) => Ok(Some(PyBytes::new(py, d))),
            Checked::Zlib(stream) => PyBytes::new_with(py, e.size as usize, |buf| {
                py.allow_threads(|| self.archive.inflate_into(&e, stream, buf))
                    .map_err(|err| errors::to_py(py, err))
            })
            .map(Some),
        }
    }
}

/// Packs the files under `folder` into a KIWAD archive at `path` (sorted by name; zlib
/// at `level` except `.mp3` and `.ogg`); returns the number of entries.
#[pyfunction]
#[pyo3(signature = (folder, path, *, version=2, flags=None, level=9))]
pub fn pack_folder(
    py: Python<'_>,
    folder: PathBuf,
    path: PathBuf,
    version: u32,
    flags: Option<u8>,
    level: u32,
) -> PyResult<usize> {
    py.allow_threads(|| -> Result<usize, String> {
        let mut files = Vec::new();
        let mut stack = vec![folder.clone()];
        while let Some(d) = stack.pop() {
            for item in std::fs::read_dir(&d).map_err(|e| format!("{}: {e}", d.display()))? {
                let item = item.map_err(|e| format!("{}: {e}", d.display()))?;
                let p = item.path();
                let t = item
                    .file_type()
                    .map_err(|e| format!("{}: {e}", p.display()))?;
                if t.is_dir() {
                    stack.push(p);
                } else if t.is_file() {
                    let rel = p.strip_prefix(&folder).expect("below the folder");
                    let name = rel
                        .to_str()
                        .ok_or_else(|| format!("{}: the name is not UTF-8", p.display()))?
                        .replace(std::path::MAIN_SEPARATOR, "/");
                    files.push((name, p));
                }
            }
        }
        files.sort();
        let mut b = Builder::new(version, flags).map_err(|e| e.to_string())?;
        for (name, p) in &files {
            let data = std::fs::read(p).map_err(|e| format!("{}: {e}", p.display()))?;
            b.add(Prepared::packed(name, data, level).map_err(|e| e.to_string())?)
                .map_err(|e| e.to_string())?;
        }
        let n = b.len();
        let bytes = b.to_bytes().map_err(|e| e.to_string())?;
        // Written to a temporary file beside the target, then renamed over it.
        let tmp = path.with_extension(format!("tmp{}", std::process::id()));
        std::fs::write(&tmp, &bytes).map_err(|e| format!("{}: {e}", tmp.display()))?;
        std::fs::rename(&tmp, &path).map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            format!("{}: {e}", path.display())
        })?;
        Ok(n)
    })
    .map_err(PyValueError::new_err)
}

/// Checks an entry name as unpacking does: ValueError naming it when it would leave the
/// folder (absolute, `..`, backslash, NUL).
#[pyfunction]
pub fn check_entry_name(py: Python<'_>, name: &str) -> PyResult<()> {
    wad::check_name(name).map_err(|e| errors::to_py(py, e))
}
