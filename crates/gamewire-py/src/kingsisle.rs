//! `gamewire.kingsisle`: KingsIsle ObjectProperty blobs (and `BINd` files).
//!
//! Objects are `gamewire.kingsisle.Object` (a dict of property names to values with
//! `.type_name` and `.type_hash`), non-UTF-8 strings `bytes`, the rest the KingsIsle
//! crate's lossless JSON mapping (`json=True` gives that mapping as it is). Names come
//! from a type list (wiztype JSON or KingsIsle's XML dump), given as a path or as text.

use crate::json::Format;
use crate::pyser::PySer;
use crate::{errors, gc_paused, maybe_allow_threads, py_attr};
use gamewire::kingsisle::{self as ki, bind, Options, TypeList};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use std::sync::Arc;

/// A type list read once and reused across calls (`types=` of `decode`/`encode` takes one
/// in place of a path or text, which are read again at every call).
#[pyclass(name = "TypeList", module = "gamewire.kingsisle", frozen)]
pub struct PyTypeList {
    list: Arc<TypeList>,
}

#[pymethods]
impl PyTypeList {
    /// Reads a type list: a path to a wiztype JSON or XML dump, or such text itself.
    #[new]
    fn new(py: Python<'_>, types: &str) -> PyResult<Self> {
        Ok(PyTypeList {
            list: Arc::new(parse_types(py, types)?),
        })
    }

    /// The number of classes.
    fn __len__(&self) -> usize {
        self.list.classes().len()
    }

    fn __repr__(&self) -> String {
        format!("TypeList(<{} classes>)", self.list.classes().len())
    }
}

/// The type list of a `types=` argument: a `TypeList`, a path, or JSON/XML text.
fn types(py: Python<'_>, t: &Bound<'_, PyAny>) -> PyResult<Arc<TypeList>> {
    if let Ok(l) = t.downcast::<PyTypeList>() {
        return Ok(l.get().list.clone());
    }
    let s: &str = t.extract().map_err(|_| {
        PyTypeError::new_err("types must be a TypeList, a path or the text of a type list")
    })?;
    Ok(Arc::new(parse_types(py, s)?))
}

/// A type list from its text (JSON or XML) or from the path of such a file.
fn parse_types(py: Python<'_>, t: &str) -> PyResult<TypeList> {
    let s = t.trim_start();
    if s.starts_with('{') || s.starts_with('<') {
        let mut list = TypeList::from_bytes(s.as_bytes()).map_err(|e| errors::to_py(py, e))?;
        list.include_bases();
        Ok(list)
    } else {
        TypeList::from_files(&[t]).map_err(|e| errors::to_py(py, e))
    }
}

fn options(shallow: bool, flags: u32, property_mask: Option<u32>, zlib: bool) -> Options {
    let d = Options::default();
    Options {
        flags,
        property_mask: property_mask.unwrap_or(d.property_mask),
        shallow,
        manual_zlib: zlib,
        ..d
    }
}

/// Decodes a blob (or a `BINd` file) with the type list `types` (path, JSON or XML text)
/// and the serializer's options.
#[pyfunction]
#[pyo3(signature = (data, *, types, shallow=true, flags=0, property_mask=None, zlib=false, json=false))]
#[allow(clippy::too_many_arguments)]
fn decode(
    py: Python<'_>,
    data: &[u8],
    types: &Bound<'_, PyAny>,
    shallow: bool,
    flags: u32,
    property_mask: Option<u32>,
    zlib: bool,
    json: bool,
) -> PyResult<PyObject> {
    let t = self::types(py, types)?;
    let o = options(shallow, flags, property_mask, zlib);
    let doc = maybe_allow_threads(py, data.len(), || ki::inspect::decode_any(data, &t, &o))
        .map_err(|e| errors::to_py(py, e))?;
    let ser = if json {
        PySer::new(py)
    } else {
        PySer::kingsisle(py, py_attr(py, "kingsisle", "Object")?)?
    };
    let view = ki::json::DocumentJson {
        doc: &doc,
        types: &t,
        enum_numbers: false,
    };
    let value = gc_paused(py, || ser.convert(&view))?;
    py.allow_threads(move || drop(doc));
    Ok(value.unbind())
}

/// Encodes a value (as `decode` gives it) with the same type list and options.
#[pyfunction]
#[pyo3(signature = (value, *, types, shallow=true, flags=0, property_mask=None, zlib=false))]
fn encode(
    py: Python<'_>,
    value: &Bound<'_, PyAny>,
    types: &Bound<'_, PyAny>,
    shallow: bool,
    flags: u32,
    property_mask: Option<u32>,
    zlib: bool,
) -> PyResult<Vec<u8>> {
    let t = self::types(py, types)?;
    let o = options(shallow, flags, property_mask, zlib);
    let j = crate::json::from_py(value, Format::KingsIsle)?;
    py.allow_threads(|| {
        let doc = ki::json::from_json(&j, &t)?;
        if doc.bind {
            bind::encode(&doc, &t, &o)
        } else {
            ki::encode(&doc, &t, &o)
        }
    })
    .map_err(|e| errors::to_py(py, e))
}

/// Checks that `types` reads as a type list (so `load` can fail early and clearly).
#[pyfunction]
fn check_types(py: Python<'_>, types: &Bound<'_, PyAny>) -> PyResult<usize> {
    let t = self::types(py, types)?;
    if t.classes().is_empty() {
        return Err(PyValueError::new_err("the type list has no classes"));
    }
    Ok(t.classes().len())
}

/// Adds the module's functions.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(decode, m)?)?;
    m.add_function(wrap_pyfunction!(encode, m)?)?;
    m.add_function(wrap_pyfunction!(check_types, m)?)?;
    m.add_class::<PyTypeList>()?;
    Ok(())
}
