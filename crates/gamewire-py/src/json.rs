//! Python values <-> the lossless JSON tree each format crate maps its values to.
//!
//! JSON objects become dicts (keys kept in order), arrays lists, integers `int` and
//! numbers with a decimal point `float`, so the int/float split of the engines survives.
//! (Godot and KingsIsle go straight from their JSON view to Python in [`crate::pyser`].)
//! A [`Hook`] turns a format's tagged objects into the small typed classes of its Python
//! module; on the way back, any object with a `_gamewire_json()` method is replaced by
//! what it returns, and `bytes` and non-finite floats take the format's tagged form
//! ([`Format`]).

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde_json::{Map, Value as Json};
use std::collections::HashMap;

/// How tagged JSON objects become Python objects.
pub enum Hook<'py> {
    /// Plain dicts everywhere (the `json=True` output).
    Plain,
    /// Objects for which the test holds are passed, converted to a dict, to the callable,
    /// whose result takes their place.
    Call(fn(&Map<String, Json>) -> bool, Bound<'py, PyAny>),
}

/// Converts a JSON tree to plain Python values.
pub fn to_py(py: Python<'_>, j: &Json) -> PyResult<PyObject> {
    to_py_with(py, j, &Hook::Plain)
}

/// Converts a JSON tree to Python values, tagged objects through `hook`.
pub fn to_py_with(py: Python<'_>, j: &Json, hook: &Hook<'_>) -> PyResult<PyObject> {
    let mut cx = Ctx {
        py,
        hook,
        keys: HashMap::new(),
    };
    Ok(cx.value(j)?.unbind())
}

/// Most distinct object keys kept as shared Python strings during one conversion.
const KEY_CACHE: usize = 4096;

/// One conversion: the hook and the Python strings made for object keys so far (keys
/// repeat across objects, and one shared string saves an allocation and a UTF-8 check).
struct Ctx<'a, 'py> {
    py: Python<'py>,
    hook: &'a Hook<'py>,
    keys: HashMap<&'a str, Bound<'py, PyString>>,
}

impl<'a, 'py> Ctx<'a, 'py> {
    fn key(&mut self, k: &'a str) -> Bound<'py, PyString> {
        if let Some(s) = self.keys.get(k) {
            return s.clone();
        }
        let s = PyString::new(self.py, k);
        if self.keys.len() < KEY_CACHE {
            self.keys.insert(k, s.clone());
        }
        s
    }

    fn value(&mut self, j: &'a Json) -> PyResult<Bound<'py, PyAny>> {
        let py = self.py;
        Ok(match j {
            Json::Null => py.None().into_bound(py),
            Json::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
            Json::Number(n) => {
                if let Some(i) = n.as_i64() {
                    i.into_pyobject(py)?.into_any()
                } else if let Some(u) = n.as_u64() {
                    u.into_pyobject(py)?.into_any()
                } else {
                    PyFloat::new(py, n.as_f64().unwrap_or(f64::NAN)).into_any()
                }
            }
            Json::String(s) => PyString::new(py, s).into_any(),
            Json::Array(a) => {
                let items = a
                    .iter()
                    .map(|v| self.value(v))
                    .collect::<PyResult<Vec<_>>>()?;
                PyList::new(py, items)?.into_any()
            }
            Json::Object(m) => match self.hook {
                Hook::Call(test, f) if test(m) => f.call1((self.dict(m)?,))?,
                _ => self.dict(m)?.into_any(),
            },
        })
    }

    fn dict(&mut self, m: &'a Map<String, Json>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(self.py);
        for (k, v) in m {
            d.set_item(self.key(k), self.value(v)?)?;
        }
        Ok(d)
    }
}

/// How a format writes what plain JSON cannot hold.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Format {
    /// Godot: `PackedByteArray` (base64), `{"$type": "float", "value": "nan"}`.
    Godot,
    /// KingsIsle: `{"$bytes": hex}`, `{"$f64": bits}`.
    KingsIsle,
    /// Zeze: `{"bytes": hex}`, `{"double_bits": bits}`.
    Zeze,
    /// Resonite: `{"$binary": ...}`, `{"$numberDouble": ...}`.
    Resonite,
}

impl Format {
    /// The library's format whose JSON tags this is.
    fn library(self) -> gamewire::Format {
        match self {
            Format::Godot => gamewire::Format::Godot4,
            Format::KingsIsle => gamewire::Format::KingsIsle,
            Format::Zeze => gamewire::Format::Zeze,
            Format::Resonite => gamewire::Format::Resonite,
        }
    }
}

/// Bytes in the format's JSON form, as the format crate writes them
/// ([`gamewire::json_tags::bytes`]).
fn bytes_json(fmt: Format, b: &[u8]) -> Json {
    gamewire::json_tags::bytes(fmt.library(), b).unwrap_or(Json::Null)
}

/// A float in the format's JSON form, as the format crate writes it (non-finite ones
/// tagged; [`gamewire::json_tags::float`]).
fn float_json(fmt: Format, x: f64) -> Json {
    gamewire::json_tags::float(fmt.library(), x).unwrap_or(Json::Null)
}

/// Converts Python values (as the format's `decode` gives them) back to a JSON tree.
pub fn from_py(v: &Bound<'_, PyAny>, fmt: Format) -> PyResult<Json> {
    if v.is_none() {
        return Ok(Json::Null);
    }
    if let Ok(b) = v.downcast_exact::<PyBool>() {
        return Ok(Json::Bool(b.is_true()));
    }
    if v.is_exact_instance_of::<PyInt>() {
        return int_json(v);
    }
    if let Ok(f) = v.downcast_exact::<PyFloat>() {
        return Ok(float_json(fmt, f.value()));
    }
    if let Ok(s) = v.downcast_exact::<PyString>() {
        return Ok(Json::String(s.to_str()?.to_owned()));
    }
    if let Ok(d) = v.downcast_exact::<PyDict>() {
        return dict_json(d, fmt);
    }
    if v.is_exact_instance_of::<PyList>() || v.is_exact_instance_of::<PyTuple>() {
        return list_json(v, fmt);
    }
    if let Ok(b) = v.downcast::<PyBytes>() {
        return Ok(bytes_json(fmt, b.as_bytes()));
    }
    if v.hasattr("_gamewire_json")? {
        return from_py(&v.call_method0("_gamewire_json")?, fmt);
    }
    // Subclasses of the native types without a JSON form of their own.
    if v.is_instance_of::<PyInt>() {
        return int_json(v);
    }
    if let Ok(f) = v.downcast::<PyFloat>() {
        return Ok(float_json(fmt, f.value()));
    }
    if let Ok(s) = v.downcast::<PyString>() {
        return Ok(Json::String(s.to_str()?.to_owned()));
    }
    if let Ok(d) = v.downcast::<PyDict>() {
        return dict_json(d, fmt);
    }
    if v.is_instance_of::<PyList>() || v.is_instance_of::<PyTuple>() {
        return list_json(v, fmt);
    }
    Err(PyTypeError::new_err(format!(
        "cannot encode a {}",
        v.get_type().name()?
    )))
}

fn int_json(v: &Bound<'_, PyAny>) -> PyResult<Json> {
    if let Ok(i) = v.extract::<i64>() {
        return Ok(Json::Number(i.into()));
    }
    let u: u64 = v.extract()?;
    Ok(Json::Number(u.into()))
}

fn dict_json(d: &Bound<'_, PyDict>, fmt: Format) -> PyResult<Json> {
    let mut m = Map::new();
    for (k, val) in d.iter() {
        let key: String = k
            .extract()
            .map_err(|_| PyTypeError::new_err("dict keys must be str"))?;
        m.insert(key, from_py(&val, fmt)?);
    }
    Ok(Json::Object(m))
}

fn list_json(v: &Bound<'_, PyAny>, fmt: Format) -> PyResult<Json> {
    let mut out = Vec::new();
    for item in v.try_iter()? {
        out.push(from_py(&item?, fmt)?);
    }
    Ok(Json::Array(out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn bytes_take_each_formats_tagged_form() {
        let b = [0u8, 0xab, 0x1f, b'f'];
        assert_eq!(
            bytes_json(Format::Godot, &b),
            json!({"$type": "PackedByteArray", "base64": "AKsfZg=="})
        );
        assert_eq!(
            bytes_json(Format::KingsIsle, &b),
            json!({ "$bytes": "00ab1f66" })
        );
        assert_eq!(bytes_json(Format::Zeze, &b), json!({ "bytes": "00ab1f66" }));
        assert_eq!(
            bytes_json(Format::Resonite, b"foob"),
            json!({"$binary": {"base64": "Zm9vYg==", "subType": "00"}})
        );
    }
}
