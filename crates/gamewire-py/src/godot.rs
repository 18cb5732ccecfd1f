//! `gamewire.godot`: Godot Variant binary (3.x and 4.x).
//!
//! Plain data are native Python values; every other type (Vector3, NodePath, typed
//! arrays, ...) an instance of a small class of `gamewire.godot`, built from the lossless
//! JSON mapping's `"$type"`-tagged objects (which `json=True` returns as they are).

use crate::json::Format;
use crate::pyser::PySer;
use crate::{build_deep, errors, maybe_allow_threads, py_attr};
use gamewire::godot::{self, DecodeOptions, EncodeOptions, Version};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

fn version(v: u8) -> PyResult<Version> {
    match v {
        3 => Ok(Version::V3),
        4 => Ok(Version::V4),
        _ => Err(PyValueError::new_err(format!(
            "version must be 3 or 4, not {v}"
        ))),
    }
}

/// The converter of `decode` (made on the thread that builds the value).
fn ser(py: Python<'_>, json: bool, limit: usize) -> PyResult<PySer<'_>> {
    Ok(if json {
        PySer::new(py)
    } else {
        PySer::tagged(py, "$type", py_attr(py, "godot", "_from_json")?)
    }
    .limit(limit))
}

/// Decodes one Variant (`version` 3 or 4) to Python values; with `framed=True`, every
/// length-prefixed value of a `store_var` file or stream, as a list.
#[pyfunction]
#[pyo3(signature = (data, *, version=4, allow_objects=false, json=false, framed=false))]
fn decode(
    py: Python<'_>,
    data: &[u8],
    version: u8,
    allow_objects: bool,
    json: bool,
    framed: bool,
) -> PyResult<PyObject> {
    let ver = self::version(version)?;
    let mut opts = DecodeOptions::new(ver);
    opts.allow_objects = allow_objects;
    if framed {
        let vs = maybe_allow_threads(py, data.len(), || {
            godot::framing::decode_framed_all(data, &opts)
        })
        .map_err(|e| errors::to_py(py, e))?;
        let views: Vec<_> = vs
            .iter()
            .map(|v| godot::json::JsonView::new(v, ver))
            .collect();
        let value = build_deep(py, |py, limit| {
            Ok(ser(py, json, limit)?
                .convert_limited(&views)?
                .map(Bound::unbind))
        })?;
        drop(views);
        py.allow_threads(move || drop(vs));
        return Ok(value);
    }
    let v = maybe_allow_threads(py, data.len(), || godot::decode(data, &opts))
        .map_err(|e| errors::to_py(py, e))?;
    let view = godot::json::JsonView::new(&v, ver);
    let value = build_deep(py, |py, limit| {
        Ok(ser(py, json, limit)?
            .convert_limited(&view)?
            .map(Bound::unbind))
    })?;
    py.allow_threads(move || drop(v));
    Ok(value)
}

/// Encodes Python values (as `decode` gives them) to Variant bytes; with
/// `framed=True`, a list of values, each written as `store_var` writes it.
#[pyfunction]
#[pyo3(signature = (value, *, version=4, framed=false))]
fn encode(
    py: Python<'_>,
    value: &Bound<'_, PyAny>,
    version: u8,
    framed: bool,
) -> PyResult<Vec<u8>> {
    let ver = self::version(version)?;
    let (j, depth) = crate::json::from_py_deep(value, Some(Format::Godot))?;
    crate::allow_threads_deep(py, depth, move || {
        let eo = EncodeOptions::new(ver);
        if !framed {
            let v = godot::json::from_json(&j, ver)?;
            return godot::encode(&v, &eo);
        }
        let items = j
            .as_array()
            .ok_or_else(|| gamewire::Error::msg("framed=True encodes a list of values"))?;
        let mut out = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let v = godot::json::from_json(item, ver).map_err(|e| e.in_index(i))?;
            godot::framing::encode_framed_into(&v, &eo, &mut out)?;
        }
        Ok(out)
    })?
    .map_err(|e| errors::to_py(py, e))
}

/// Decodes a `project.binary` (magic `ECFG`) to a dict of its settings, in file
/// order (`version` 3 or 4; `None` tells by the values).
#[pyfunction]
#[pyo3(signature = (data, *, version=None, json=false))]
fn decode_project_binary(
    py: Python<'_>,
    data: &[u8],
    version: Option<u8>,
    json: bool,
) -> PyResult<PyObject> {
    let ver = version.map(self::version).transpose()?;
    let j = godot::project_binary::decode(data, ver)
        .and_then(|s| godot::project_binary::to_json(&s))
        .map_err(|e| errors::to_py(py, e))?;
    build_deep(py, |py, limit| {
        Ok(ser(py, json, limit)?
            .convert_limited(&j)?
            .map(Bound::unbind))
    })
}

/// Encodes a dict of settings (as `decode_project_binary` gives it) to a
/// `project.binary`.
#[pyfunction]
#[pyo3(signature = (settings, *, version=4))]
fn encode_project_binary(
    py: Python<'_>,
    settings: &Bound<'_, PyAny>,
    version: u8,
) -> PyResult<Vec<u8>> {
    let ver = self::version(version)?;
    let (j, _) = crate::json::from_py_deep(settings, Some(Format::Godot))?;
    godot::project_binary::from_json(&j, ver)
        .and_then(|s| godot::project_binary::encode(&s))
        .map_err(|e| errors::to_py(py, e))
}

/// A Godot resource pack (`.pck`, formats 0 to 4; or an executable with a pack at its
/// end), read from bytes: its header, entries, and each entry's bytes or value.
#[pyclass(module = "gamewire._gamewire", frozen, name = "Pack")]
pub struct PyPack {
    data: Vec<u8>,
    listing: gamewire::open::pack::Listing,
}

#[pymethods]
impl PyPack {
    /// Reads the pack's header and directory (every entry's MD5 checked).
    #[new]
    fn new(py: Python<'_>, data: Vec<u8>) -> PyResult<Self> {
        let listing = gamewire::open::pack::list(&data).map_err(|e| errors::to_py(py, e))?;
        Ok(PyPack { data, listing })
    }

    /// The entries' paths without `res://`, in directory order.
    fn names(&self) -> Vec<String> {
        self.listing
            .entries
            .iter()
            .map(|e| e.entry.name().to_owned())
            .collect()
    }

    /// The header: `format`, `version` (major, minor, patch), `flags`, `embedded`,
    /// `start`, `entries` (their count).
    #[getter]
    fn info<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
        let i = &self.listing.info;
        let d = pyo3::types::PyDict::new(py);
        d.set_item("format", i.format)?;
        d.set_item("version", i.version)?;
        d.set_item("flags", i.flags)?;
        d.set_item("embedded", i.embedded)?;
        d.set_item("start", i.start)?;
        d.set_item("entries", self.listing.entries.len())?;
        Ok(d)
    }

    /// Every entry as a dict: `path` (as stored), `name`, `size`, `md5` (hex, or None),
    /// `flags`, `format` (what gamewire reads it as, or None) and `error` (why its
    /// bytes cannot be given, or None).
    fn entries<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, pyo3::types::PyDict>>> {
        self.listing
            .entries
            .iter()
            .map(|e| {
                let d = pyo3::types::PyDict::new(py);
                d.set_item("path", &e.entry.path)?;
                d.set_item("name", e.entry.name())?;
                d.set_item("size", e.entry.size)?;
                d.set_item("md5", e.entry.has_md5().then(|| e.entry.md5_hex()))?;
                d.set_item("flags", e.entry.flags)?;
                d.set_item("format", &e.format)?;
                d.set_item("error", &e.error)?;
                Ok(d)
            })
            .collect()
    }

    /// The bytes of entry `name` (with or without `res://`), MD5 checked.
    fn read<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, pyo3::types::PyBytes>> {
        let b = gamewire::open::pack::entry_bytes(&self.data, name)
            .map_err(|e| errors::to_py(py, e))?;
        Ok(pyo3::types::PyBytes::new(py, b))
    }

    /// Entry `name` opened through the library, as `gamewire.open` opens a file.
    #[pyo3(signature = (name, *, as_format=None, allow_objects=false))]
    fn open(
        &self,
        py: Python<'_>,
        name: &str,
        as_format: Option<&str>,
        allow_objects: bool,
    ) -> PyResult<crate::files::File> {
        let as_format = match as_format {
            None => None,
            Some(f) => Some(
                gamewire::Format::from_name(f)
                    .ok_or_else(|| PyValueError::new_err(format!("unknown format {f:?}")))?,
            ),
        };
        let opts = gamewire::OpenOptions {
            as_format,
            allow_objects,
            ..gamewire::OpenOptions::default()
        };
        let opened =
            gamewire::open::pack::open_entry(&self.data, name, &gamewire::SideFiles::none(), &opts)
                .map_err(|e| crate::files::open_err(py, name, e))?;
        Ok(crate::files::File::from_opened(opened))
    }

    fn __len__(&self) -> usize {
        self.listing.entries.len()
    }

    fn __repr__(&self) -> String {
        format!(
            "<gamewire.godot.Pack: {}>",
            gamewire::open::pack::describe(&self.listing.info, self.listing.entries.len())
        )
    }
}

/// Adds the module's functions.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(decode, m)?)?;
    m.add_function(wrap_pyfunction!(encode, m)?)?;
    m.add_function(wrap_pyfunction!(decode_project_binary, m)?)?;
    m.add_function(wrap_pyfunction!(encode_project_binary, m)?)?;
    m.add_class::<PyPack>()?;
    Ok(())
}
