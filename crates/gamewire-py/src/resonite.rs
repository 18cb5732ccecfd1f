//! `gamewire.resonite`: Resonite/FrooxEngine BSON files (FrDT container or legacy).
//!
//! Documents are dicts; int32 is `int`, int64 `gamewire.resonite.Int64` (an `int`
//! subclass), double `float`, binary (subtype 0) `bytes`, documents with `$` or repeated
//! keys `gamewire.resonite.Entries` (a list of pairs); the other BSON types stay in
//! MongoDB canonical Extended JSON form (`json=True` gives the whole mapping as it is).
//! `container` tells the compression and framing so that `encode` can give the same bytes.

use crate::json::{Format, Hook};
use crate::{build_deep, errors, maybe_allow_threads, py_attr};
use gamewire::resonite::{self, container::Compression, EncodeOptions};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// Decodes a file's bytes to its document (`name`, the file name, picks the compression
/// of headerless legacy files; without it they are sniffed).
#[pyfunction]
#[pyo3(signature = (data, *, name=None, json=false))]
fn decode(py: Python<'_>, data: &[u8], name: Option<&str>, json: bool) -> PyResult<PyObject> {
    let o = resonite::Options::default();
    let max_depth = o.limits.max_depth;
    let j = maybe_allow_threads(py, data.len(), || {
        resonite::decode(data, name, &o)
            .and_then(|d| resonite::json::document_to_json(d.document(), max_depth))
    })
    .map_err(|e| errors::to_py(py, e))?;
    let value = build_deep(py, |py, limit| {
        let hook = if json {
            Hook::Plain
        } else {
            Hook::Call(
                |m| m.keys().any(|k| k.starts_with('$')),
                py_attr(py, "resonite", "_from_json")?,
            )
        };
        crate::json::to_py_limited(py, &j, &hook, limit)
    })?;
    py.allow_threads(move || drop(j));
    Ok(value)
}

/// The container of a file: `{"compression": "brotli"|"lzma"|"lz4"|"none", "legacy": bool}`,
/// the keyword arguments `encode` needs to write the same bytes again.
#[pyfunction]
#[pyo3(signature = (data, *, name=None))]
fn container<'py>(
    py: Python<'py>,
    data: &[u8],
    name: Option<&str>,
) -> PyResult<Bound<'py, PyDict>> {
    // The library's settings, as `gamewire decode FILE`'s header records them.
    let s = crate::files::settings_of(py, data, name, gamewire::Format::Resonite)?;
    let gamewire::Settings::Resonite(r) = s else {
        unreachable!("opened as Resonite")
    };
    let d = PyDict::new(py);
    d.set_item("compression", r.compression)?;
    d.set_item(
        "legacy",
        r.container == gamewire::open::ResoniteContainer::Legacy,
    )?;
    Ok(d)
}

/// Encodes a document (as `decode` gives it) to a file's bytes.
#[pyfunction]
#[pyo3(signature = (value, *, compression="brotli", legacy=false))]
fn encode(
    py: Python<'_>,
    value: &Bound<'_, PyAny>,
    compression: &str,
    legacy: bool,
) -> PyResult<Vec<u8>> {
    let c = Compression::from_name(compression).ok_or_else(|| {
        PyValueError::new_err(format!(
            "unknown compression {compression:?}: use lz4, lzma, brotli or none"
        ))
    })?;
    let eo = EncodeOptions {
        legacy,
        ..EncodeOptions::new(c)
    };
    let (j, depth) = crate::json::from_py_deep(value, Some(Format::Resonite))?;
    crate::allow_threads_deep(py, depth, move || {
        let doc = resonite::json::document_from_json(&j, eo.max_depth)?;
        resonite::encode(&doc, &eo)
    })?
    .map_err(|e| errors::to_py(py, e))
}

/// Adds the module's functions.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(decode, m)?)?;
    m.add_function(wrap_pyfunction!(container, m)?)?;
    m.add_function(wrap_pyfunction!(encode, m)?)?;
    Ok(())
}
