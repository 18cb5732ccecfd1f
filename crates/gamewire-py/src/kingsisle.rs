//! `gamewire.kingsisle`: KingsIsle ObjectProperty blobs (and `BINd` files).
//!
//! Objects are `gamewire.kingsisle.Object` (a dict of property names to values with
//! `.type_name` and `.type_hash`), non-UTF-8 strings `bytes`, the rest the KingsIsle
//! crate's lossless JSON mapping (`json=True` gives that mapping as it is). Names come
//! from a type list (wiztype JSON or KingsIsle's XML dump), given as a path or as text.

mod build;
mod lazy;
mod values;
mod wad;

use crate::json::Format;
use crate::pyser::PySer;
use crate::{build_deep, errors, gc_paused, maybe_allow_threads};
use gamewire::kingsisle::view::OwnedView;
use gamewire::kingsisle::{self as ki, bind, Options, TypeList};
use lazy::{Doc, LazyList, LazyListIter, LazyObject, SharedTypes};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;
use std::sync::Arc;
use values::{Conv, Types};

/// A type list read once and reused across calls (`types=` of `decode`/`encode` takes one
/// in place of a path or text, which are read again at every call).
#[pyclass(name = "TypeList", module = "gamewire.kingsisle", frozen)]
pub struct PyTypeList {
    list: Arc<Types>,
}

impl PyTypeList {
    /// A type list already read.
    pub fn from_list(list: TypeList) -> Self {
        PyTypeList {
            list: Arc::new(Types::new(list)),
        }
    }
}

#[pymethods]
impl PyTypeList {
    /// Reads a type list: a path to a wiztype JSON or XML dump, or such text itself.
    #[new]
    fn new(py: Python<'_>, types: &str) -> PyResult<Self> {
        Ok(PyTypeList {
            list: Arc::new(Types::new(parse_types(py, types)?)),
        })
    }

    /// The number of classes.
    fn __len__(&self) -> usize {
        self.list.list.classes().len()
    }

    fn __repr__(&self) -> String {
        format!("TypeList(<{} classes>)", self.list.list.classes().len())
    }
}

/// The type list of a `types=` argument: a `TypeList`, a path, or JSON/XML text.
fn types(py: Python<'_>, t: &Bound<'_, PyAny>) -> PyResult<Arc<Types>> {
    if let Ok(l) = t.downcast::<PyTypeList>() {
        return Ok(l.get().list.clone());
    }
    let s: &str = t.extract().map_err(|_| {
        PyTypeError::new_err("types must be a TypeList, a path or the text of a type list")
    })?;
    Ok(Arc::new(Types::new(parse_types(py, s)?)))
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
/// and the serializer's options. `lazy=True` gives a `LazyObject` whose values are made
/// when read; `json=True` the JSON mapping as plain dicts. An XML object file
/// (`<Objects><Class ...>`) gives a list of such values, one per object.
#[pyfunction]
#[pyo3(signature = (data, *, types, shallow=true, flags=0, property_mask=None, zlib=false, json=false, lazy=false))]
#[allow(clippy::too_many_arguments)]
fn decode(
    py: Python<'_>,
    data: PyBackedBytes,
    types: &Bound<'_, PyAny>,
    shallow: bool,
    flags: u32,
    property_mask: Option<u32>,
    zlib: bool,
    json: bool,
    lazy: bool,
) -> PyResult<PyObject> {
    let t = self::types(py, types)?;
    let o = options(shallow, flags, property_mask, zlib);
    if json && lazy {
        return Err(PyValueError::new_err(
            "json=True and lazy=True exclude each other (a lazy value's to_python() is the eager one)",
        ));
    }
    if ki::xml::looks_like_object_file(&data) {
        return decode_xml(py, &data, &t, json, lazy);
    }
    decode_binary(py, data, t, o, json, lazy)
}

/// An XML object file: a list with one value per `<Class>` element. Each object read
/// is written as a deep-mode blob and read back through the path binary data takes, so
/// that its eager, lazy and JSON values are exactly those of the same object in binary.
fn decode_xml(
    py: Python<'_>,
    data: &[u8],
    t: &Arc<Types>,
    json: bool,
    lazy: bool,
) -> PyResult<PyObject> {
    let objects = maybe_allow_threads(py, data.len(), || ki::xml::read(data, &t.list))
        .map_err(|e| errors::to_py(py, e))?;
    let deep = options(false, 0, None, false);
    let mut out = Vec::with_capacity(objects.len());
    for (i, root) in objects.into_iter().enumerate() {
        let doc = ki::Document {
            root,
            ..ki::Document::default()
        };
        let blob =
            ki::encode(&doc, &t.list, &deep).map_err(|e| errors::to_py(py, e.in_index(i)))?;
        let bytes = PyBackedBytes::from(pyo3::types::PyBytes::new(py, &blob));
        out.push(decode_binary(py, bytes, t.clone(), deep, json, lazy)?);
    }
    Ok(pyo3::types::PyList::new(py, out)?.into_any().unbind())
}

/// A blob or `BINd` file decoded as `decode` gives it.
fn decode_binary(
    py: Python<'_>,
    data: PyBackedBytes,
    t: Arc<Types>,
    o: Options,
    json: bool,
    lazy: bool,
) -> PyResult<PyObject> {
    if json {
        let doc = maybe_allow_threads(py, data.len(), || {
            ki::inspect::decode_any(&data, &t.list, &o)
        })
        .map_err(|e| errors::to_py(py, e))?;
        let view = ki::json::DocumentJson {
            doc: &doc,
            types: &t.list,
            enum_numbers: false,
        };
        let value = build_deep(py, |py, limit| {
            let ser = PySer::new(py).limit(limit);
            Ok(ser.convert_limited(&view)?.map(Bound::unbind))
        })?;
        py.allow_threads(move || drop(doc));
        return Ok(value);
    }
    if lazy {
        let shared = SharedTypes(t);
        let owned = maybe_allow_threads(py, data.len(), move || {
            OwnedView::decode_any(data, shared, &o)
        })
        .map_err(|e| errors::to_py(py, e))?;
        let doc = Doc::new(owned);
        return Ok(Bound::new(py, doc.root())?.into_any().unbind());
    }
    // Built straight from the walk; when the walk fails (bad bytes, or its stack
    // budget used up on a deep value) the view's path below runs and gives its own
    // result or error, as before.
    let direct = gc_paused(py, || {
        // About one value per 8 bytes of input (the string table's size).
        let conv = Conv::new(py, &t)?.share_strings(data.len() / 8);
        build::eager(&conv, &data, &t.list, &o)
    })?;
    if let build::Built::Value(v) = direct {
        return Ok(v);
    }
    let owned = maybe_allow_threads(py, data.len(), || {
        OwnedView::decode_any(&*data, &t.list, &o)
    })
    .map_err(|e| errors::to_py(py, e))?;
    let value = build_deep(py, |py, limit| {
        let values = owned.view().node_count();
        let conv = Conv::new(py, &t)?.share_strings(values).limit(limit);
        limited(&conv, conv.root(&owned))
    })?;
    py.allow_threads(move || drop(owned));
    Ok(value)
}

/// The value `conv` built, `None` when it stopped at its depth limit.
fn limited(conv: &Conv<'_, '_>, r: PyResult<Bound<'_, PyAny>>) -> PyResult<Option<PyObject>> {
    match r {
        Err(_) if conv.went_over() => Ok(None),
        r => r.map(|v| Some(v.unbind())),
    }
}

/// Encodes a value (as `decode` gives it, lazy or not) with the same type list and
/// options.
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
    let t = &t.list;
    let write = |doc: &ki::Document| {
        if doc.bind {
            bind::encode(doc, t, &o)
        } else {
            ki::encode(doc, t, &o)
        }
    };
    if let Ok(lazy) = value.downcast::<LazyObject>() {
        // Straight from the decoded nodes, no Python values made.
        let doc = lazy.get().document();
        return py
            .allow_threads(|| write(&doc))
            .map_err(|e| errors::to_py(py, e));
    }
    let (j, depth) = crate::json::from_py_deep(value, Some(Format::KingsIsle))?;
    crate::allow_threads_deep(py, depth, move || write(&ki::json::from_json(&j, t)?))?
        .map_err(|e| errors::to_py(py, e))
}

/// Checks that `types` reads as a type list (so `load` can fail early and clearly).
#[pyfunction]
fn check_types(py: Python<'_>, types: &Bound<'_, PyAny>) -> PyResult<usize> {
    let t = self::types(py, types)?;
    if t.list.classes().is_empty() {
        return Err(PyValueError::new_err("the type list has no classes"));
    }
    Ok(t.list.classes().len())
}

/// Adds the module's functions.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(decode, m)?)?;
    m.add_function(wrap_pyfunction!(encode, m)?)?;
    m.add_function(wrap_pyfunction!(check_types, m)?)?;
    m.add_class::<values::KiObject>()?;
    m.add_class::<PyTypeList>()?;
    m.add_class::<wad::PyWad>()?;
    m.add_function(wrap_pyfunction!(wad::pack_folder, m)?)?;
    m.add_function(wrap_pyfunction!(wad::check_entry_name, m)?)?;
    m.add_class::<LazyObject>()?;
    m.add_class::<LazyList>()?;
    m.add_class::<LazyListIter>()?;
    Ok(())
}
