//! `gamewire.resonite`: Resonite/FrooxEngine BSON files (FrDT container or legacy).
//!
//! Values are those of the Resonite crate's lossless JSON mapping (MongoDB canonical
//! Extended JSON for non-plain types, `$entries` for documents with `$` or repeated keys).
//! `container` tells the compression and framing so that `encode` can give the same bytes.

use crate::{errors, json, maybe_allow_threads};
use gamewire::resonite::{self, container::Compression, container::Framing, EncodeOptions};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// Decodes a file's bytes to its document (`name`, the file name, picks the compression
/// of headerless legacy files; without it they are sniffed).
#[pyfunction]
#[pyo3(signature = (data, *, name=None))]
fn decode(py: Python<'_>, data: &[u8], name: Option<&str>) -> PyResult<PyObject> {
    let o = resonite::Options::default();
    let max_depth = o.limits.max_depth;
    let j = maybe_allow_threads(py, data.len(), || {
        resonite::decode(data, name, &o)
            .and_then(|d| resonite::json::document_to_json(&d.document, max_depth))
    })
    .map_err(|e| errors::to_py(py, e))?;
    json::to_py(py, &j)
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
    let o = resonite::Options::default();
    let (c, _) = maybe_allow_threads(py, data.len(), || {
        resonite::container::unpack(data, name, &o).map(|(c, b)| (c, b.len()))
    })
    .map_err(|e| errors::to_py(py, e))?;
    let d = PyDict::new(py);
    d.set_item("compression", c.compression.name())?;
    d.set_item("legacy", c.framing == Framing::Legacy)?;
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
    let j = json::from_py(value)?;
    let doc =
        resonite::json::document_from_json(&j, eo.max_depth).map_err(|e| errors::to_py(py, e))?;
    resonite::encode(&doc, &eo).map_err(|e| errors::to_py(py, e))
}

/// Adds the module's functions.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(decode, m)?)?;
    m.add_function(wrap_pyfunction!(container, m)?)?;
    m.add_function(wrap_pyfunction!(encode, m)?)?;
    Ok(())
}
