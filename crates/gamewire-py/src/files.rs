//! `gamewire.open`, `gamewire.encode_document`: files opened through the library's one
//! way of opening files ([`gamewire::open`]) — the same detection, side files and
//! settings as `gamewire decode FILE` — and JSON documents written back through
//! [`gamewire::encode_document`].

use crate::errors;
use gamewire::open::{EncodeOptions, Memory, OpenError, SideFiles};
use gamewire::{Format, OpenOptions, Opened};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use std::borrow::Cow;
use std::path::{Path, PathBuf};

/// An open error as a Python `DecodeError` (with the offset where there is one).
pub(crate) fn open_err(py: Python<'_>, shown: &str, e: OpenError) -> PyErr {
    match e {
        OpenError::Failed { error, .. } => {
            let e = error;
            let msg = format!("{shown}: {e}");
            errors::to_py(
                py,
                gamewire::Error::msg(msg).or_offset(e.offset().unwrap_or(0)),
            )
        }
        OpenError::Unknown(Some(b)) => {
            let (found, e) = *b;
            let msg = format!(
                "{shown}: no format reads the whole file; it starts like {}, which fails: {e}",
                found.describe()
            );
            errors::to_py(
                py,
                gamewire::Error::msg(msg).or_offset(e.offset().unwrap_or(0)),
            )
        }
        other => errors::to_py(py, gamewire::Error::msg(format!("{shown}: {other}"))),
    }
}

/// Side files: from the file system, or the `files` mapping (name → bytes) given.
fn side_files(files: Option<&Bound<'_, PyDict>>) -> PyResult<SideFiles> {
    let Some(files) = files else {
        return Ok(SideFiles::filesystem());
    };
    let mut m = Memory::new();
    for (k, v) in files.iter() {
        let name: PathBuf = k.extract()?;
        let data: Vec<u8> = v.extract()?;
        m.insert(name, data);
    }
    Ok(SideFiles::memory(m))
}

/// A file opened by [`open`]: its format, the settings that write it back, its JSON.
#[pyclass(module = "gamewire._gamewire", frozen)]
pub struct File {
    opened: Opened,
}

impl File {
    /// A file already opened (a pack's entry).
    pub(crate) fn from_opened(opened: Opened) -> Self {
        File { opened }
    }
}

#[pymethods]
impl File {
    /// The format's name (`godot3`, `kingsisle`, ...).
    #[getter]
    fn format(&self) -> &'static str {
        self.opened.format().name()
    }

    /// The settings that write the file again as it was read, as a dict (the
    /// `"$gamewire"` header's content; side files by the paths they were found at).
    #[getter]
    fn settings(&self, py: Python<'_>) -> PyResult<PyObject> {
        let j = serde_json::to_value(self.opened.settings())
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        crate::json::to_py(py, &j)
    }

    /// The bytes read.
    #[getter]
    fn data<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, self.opened.data())
    }

    /// Things worth knowing that are not errors (a layout writing back will not keep).
    #[getter]
    fn notes(&self) -> Vec<String> {
        self.opened.notes().to_vec()
    }

    /// The KingsIsle type list the file was read with (`None` for other formats).
    fn type_list(&self) -> Option<crate::kingsisle::PyTypeList> {
        self.opened
            .type_list()
            .map(|t| crate::kingsisle::PyTypeList::from_list((*t).clone()))
    }

    /// A one-line description: `godot3 (store_var frames)`.
    fn describe(&self) -> String {
        self.opened.describe()
    }

    /// The file's lossless JSON text, exactly what `gamewire decode FILE` writes under
    /// `"data"` (compact unless `pretty`).
    #[pyo3(signature = (pretty=false))]
    fn json(&self, py: Python<'_>, pretty: bool) -> PyResult<String> {
        let out = py
            .allow_threads(|| self.opened.to_json(pretty))
            .map_err(|e| errors::to_py(py, e))?;
        String::from_utf8(out).map_err(|e| PyValueError::new_err(e.to_string()))
    }

    /// The whole JSON document `gamewire decode FILE` writes (header, data, float
    /// record), side files named relative to `json_dir` (default: the current folder).
    #[pyo3(signature = (pretty=true, json_dir=None))]
    fn document(
        &self,
        py: Python<'_>,
        pretty: bool,
        json_dir: Option<PathBuf>,
    ) -> PyResult<String> {
        let mut out = Vec::new();
        py.allow_threads(|| {
            self.opened
                .write_document(&mut out, pretty, json_dir.as_deref())
        })
        .map_err(|e| errors::to_py(py, e))?;
        String::from_utf8(out).map_err(|e| PyValueError::new_err(e.to_string()))
    }

    /// The inspect tree as text, containers past `max_items` elided.
    #[pyo3(signature = (max_items=8))]
    fn inspect(&self, py: Python<'_>, max_items: usize) -> PyResult<String> {
        let nodes = self
            .opened
            .inspect(max_items)
            .map_err(|e| errors::to_py(py, e))?;
        Ok(gamewire::core::inspect::render_text(&nodes))
    }

    /// Encodes JSON data (text as [`File::json`] gives it, or the plain Python values
    /// `json.loads` makes of it) with this file's settings: the engine bytes.
    fn encode_json<'py>(
        &self,
        py: Python<'py>,
        data: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let (text, depth) = json_text(data)?;
        let bytes = crate::allow_threads_deep(py, depth, || {
            self.opened.encode_json(&text, &EncodeOptions::default())
        })?
        .map_err(|e| errors::to_py(py, e))?;
        Ok(PyBytes::new(py, &bytes))
    }

    /// Encodes a value (as the format's module decodes it: `gamewire.godot` classes,
    /// `kingsisle.Object`, `zeze.Bean`, ...) with this file's settings. O3DE values go
    /// through `gamewire.o3de.encode`.
    fn encode<'py>(
        &self,
        py: Python<'py>,
        value: &Bound<'_, PyAny>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let fmt = match self.opened.format() {
            Format::Godot3 | Format::Godot4 => crate::json::Format::Godot,
            Format::KingsIsle => crate::json::Format::KingsIsle,
            Format::Zeze => crate::json::Format::Zeze,
            Format::Resonite => crate::json::Format::Resonite,
            Format::O3de => {
                return Err(PyValueError::new_err(
                    "O3DE values are written by gamewire.o3de.encode",
                ))
            }
        };
        let (j, depth) = crate::json::from_py_deep(value, Some(fmt))?;
        let bytes = crate::allow_threads_deep(py, depth, move || {
            let text = serde_json::to_vec(&j).map_err(|e| gamewire::Error::msg(e.to_string()))?;
            drop(j);
            self.opened.encode_json(&text, &EncodeOptions::default())
        })?
        .map_err(|e| errors::to_py(py, e))?;
        Ok(PyBytes::new(py, &bytes))
    }

    fn __repr__(&self) -> String {
        format!("<gamewire.File {}>", self.opened.describe())
    }
}

/// The secret of an encrypted Godot file: `password=`, `key=` (32 bytes, or 64 hex
/// digits), else the `GAMEWIRE_GODOT_PASSWORD` / `GAMEWIRE_GODOT_KEY` environment.
fn secret(
    password: Option<String>,
    key: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<gamewire::open::Secret>> {
    use gamewire::open::Secret;
    if password.is_some() && key.is_some() {
        return Err(PyValueError::new_err("give password= or key=, not both"));
    }
    if let Some(p) = password {
        return Ok(Some(Secret::Password(p)));
    }
    if let Some(k) = key {
        let s = if let Ok(b) = k.downcast::<PyBytes>() {
            let b = b.as_bytes();
            if b.len() != 32 {
                return Err(PyValueError::new_err(format!(
                    "key= is 32 bytes (or 64 hex digits), not {}",
                    b.len()
                )));
            }
            Secret::Key(b.to_vec())
        } else {
            let h: String = k.extract()?;
            Secret::key_hex(&h).map_err(|e| PyValueError::new_err(format!("key=: {e}")))?
        };
        return Ok(Some(s));
    }
    Secret::from_env().map_err(|e| PyValueError::new_err(e.to_string()))
}

/// Opens `data` (read from `path`, or named so: side files are found beside it) through
/// the library: detection (or `as_format`), side files from the file system or from
/// `files` (a dict of path → bytes), settings; `password`/`key`: the secret of an encrypted Godot file.
#[pyfunction]
#[pyo3(signature = (data, path=None, *, as_format=None, files=None, allow_objects=false, password=None, key=None))]
#[allow(clippy::too_many_arguments)]
pub fn open(
    py: Python<'_>,
    data: Vec<u8>,
    path: Option<PathBuf>,
    as_format: Option<&str>,
    files: Option<&Bound<'_, PyDict>>,
    allow_objects: bool,
    password: Option<String>,
    key: Option<&Bound<'_, PyAny>>,
) -> PyResult<File> {
    let as_format = match as_format {
        None => None,
        Some(f) => Some(
            Format::from_name(f)
                .ok_or_else(|| PyValueError::new_err(format!("unknown format {f:?}")))?,
        ),
    };
    let side = side_files(files)?;
    let opts = OpenOptions {
        as_format,
        allow_objects,
        secret: secret(password, key)?,
        ..OpenOptions::default()
    };
    let shown = path
        .as_deref()
        .map_or("<bytes>".to_owned(), |p| p.display().to_string());
    let len = data.len();
    let opened = crate::maybe_allow_threads(py, len, || {
        gamewire::open(data, path.as_deref(), &side, &opts)
    })
    .map_err(|e| open_err(py, &shown, e))?;
    Ok(File { opened })
}

/// JSON text: `bytes` or `str` as they are, other values (dicts, lists, ... as
/// `json.loads` gives them) written as JSON; with a bound on its nesting depth.
fn json_text<'a>(data: &'a Bound<'_, PyAny>) -> PyResult<(Cow<'a, [u8]>, usize)> {
    let text: &[u8] = if let Ok(b) = data.downcast::<PyBytes>() {
        b.as_bytes()
    } else if let Ok(s) = data.downcast::<pyo3::types::PyString>() {
        s.to_str()?.as_bytes()
    } else {
        let (j, depth) = crate::json::from_py_deep(data, None)?;
        let text = if depth <= crate::INLINE_DEPTH {
            serde_json::to_vec(&j)
        } else {
            data.py()
                .allow_threads(|| crate::on_big_stack(move || serde_json::to_vec(&j)))?
        }
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
        return Ok((text.into(), depth));
    };
    // Each level of nesting takes at least two bytes of text.
    let depth = text.len().div_ceil(2);
    Ok((text.into(), depth))
}

/// Encodes a JSON document (text with a `"$gamewire"` header, as `gamewire decode FILE`
/// writes it, or the dict `json.loads` makes of it) to engine bytes. Side files the
/// header names are found relative to `path`'s folder (where the document is; default
/// the current folder), or in `files`.
#[pyfunction]
#[pyo3(signature = (document, path=None, *, files=None, numbers_as_written=false, password=None, key=None))]
pub fn encode_document<'py>(
    py: Python<'py>,
    document: &Bound<'py, PyAny>,
    path: Option<PathBuf>,
    files: Option<&Bound<'_, PyDict>>,
    numbers_as_written: bool,
    password: Option<String>,
    key: Option<&Bound<'_, PyAny>>,
) -> PyResult<Bound<'py, PyBytes>> {
    let side = side_files(files)?;
    let opts = EncodeOptions {
        numbers_as_written,
        secret: secret(password, key)?,
        ..EncodeOptions::default()
    };
    let (text, depth) = json_text(document)?;
    let bytes = crate::allow_threads_deep(py, depth, || {
        let doc = gamewire::read_document(&text)?;
        if doc.settings.is_none() {
            return Err(gamewire::Error::msg(
                "this JSON has no \"$gamewire\" header: encode it with the format's \
                     module (gamewire.godot.encode, ...)",
            ));
        }
        gamewire::encode_document(&doc, path.as_deref().map(Path::new), None, &side, &opts)
    })?
    .map_err(|e| errors::to_py(py, e))?;
    Ok(PyBytes::new(py, &bytes.bytes))
}

/// The settings the library finds for `data` read as `format` (named `name`), with no
/// side files: what a format module's `container`/`layout` report.
pub fn settings_of(
    py: Python<'_>,
    data: &[u8],
    name: Option<&str>,
    format: Format,
) -> PyResult<gamewire::Settings> {
    let opts = OpenOptions {
        as_format: Some(format),
        ..OpenOptions::default()
    };
    let side = SideFiles::none();
    let path = name.map(Path::new);
    crate::maybe_allow_threads(py, data.len(), || {
        gamewire::open(data.to_vec(), path, &side, &opts).map(|o| o.settings().clone())
    })
    .map_err(|e| open_err(py, name.unwrap_or("<bytes>"), e))
}
