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

/// Adds the module's functions.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(decode, m)?)?;
    m.add_function(wrap_pyfunction!(encode, m)?)?;
    Ok(())
}
