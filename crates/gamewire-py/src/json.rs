//! Python values <-> the lossless JSON tree each format crate maps its values to.
//!
//! JSON objects become dicts (keys kept in order), arrays lists, integers `int` and
//! numbers with a decimal point `float`, so the int/float split of the engines survives.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde_json::{Map, Number, Value as Json};

/// Converts a JSON tree to Python values.
pub fn to_py(py: Python<'_>, j: &Json) -> PyResult<PyObject> {
    Ok(match j {
        Json::Null => py.None(),
        Json::Bool(b) => PyBool::new(py, *b).to_owned().into_any().unbind(),
        Json::Number(n) => {
            if let Some(i) = n.as_i64() {
                i.into_pyobject(py)?.into_any().unbind()
            } else if let Some(u) = n.as_u64() {
                u.into_pyobject(py)?.into_any().unbind()
            } else {
                PyFloat::new(py, n.as_f64().unwrap_or(f64::NAN))
                    .into_any()
                    .unbind()
            }
        }
        Json::String(s) => PyString::new(py, s).into_any().unbind(),
        Json::Array(a) => {
            let list = PyList::empty(py);
            for v in a {
                list.append(to_py(py, v)?)?;
            }
            list.into_any().unbind()
        }
        Json::Object(m) => {
            let d = PyDict::new(py);
            for (k, v) in m {
                d.set_item(k, to_py(py, v)?)?;
            }
            d.into_any().unbind()
        }
    })
}

/// Converts Python values (as [`to_py`] gives them) back to a JSON tree.
pub fn from_py(v: &Bound<'_, PyAny>) -> PyResult<Json> {
    if v.is_none() {
        return Ok(Json::Null);
    }
    if let Ok(b) = v.downcast::<PyBool>() {
        return Ok(Json::Bool(b.is_true()));
    }
    if v.is_instance_of::<PyInt>() {
        if let Ok(i) = v.extract::<i64>() {
            return Ok(Json::Number(i.into()));
        }
        let u: u64 = v.extract()?;
        return Ok(Json::Number(u.into()));
    }
    if let Ok(f) = v.downcast::<PyFloat>() {
        let x = f.value();
        return Number::from_f64(x)
            .map(Json::Number)
            .ok_or_else(|| PyTypeError::new_err(format!("{x} has no JSON form here")));
    }
    if let Ok(s) = v.downcast::<PyString>() {
        return Ok(Json::String(s.to_str()?.to_owned()));
    }
    if let Ok(d) = v.downcast::<PyDict>() {
        let mut m = Map::new();
        for (k, val) in d.iter() {
            let key: String = k
                .extract()
                .map_err(|_| PyTypeError::new_err("dict keys must be str"))?;
            m.insert(key, from_py(&val)?);
        }
        return Ok(Json::Object(m));
    }
    if v.is_instance_of::<PyList>() || v.is_instance_of::<PyTuple>() {
        let mut out = Vec::new();
        for item in v.try_iter()? {
            out.push(from_py(&item?)?);
        }
        return Ok(Json::Array(out));
    }
    Err(PyTypeError::new_err(format!(
        "cannot encode a {}",
        v.get_type().name()?
    )))
}
