//! Python values <-> the lossless JSON tree each format crate maps its values to.
//!
//! JSON objects become dicts (keys kept in order), arrays lists, integers `int` and
//! numbers with a decimal point `float`, so the int/float split of the engines survives.
//! (Godot and KingsIsle go straight from their JSON view to Python in [`crate::pyser`].)
//! A [`Hook`] turns a format's tagged objects into the small typed classes of its Python
//! module; on the way back, any object with a `_gamewire_json()` method is replaced by
//! what it returns, and `bytes` and non-finite floats take the format's tagged form
//! ([`Format`]).

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyFloat, PyInt, PyIterator, PyList, PyString, PyTuple};
use serde_json::{Map, Number, Value as Json};
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
    to_py_limited(py, j, hook, usize::MAX)?
        .ok_or_else(|| pyo3::exceptions::PyRuntimeError::new_err("no depth limit was set"))
}

/// [`to_py_with`], `None` when `j` nests deeper than `limit` arrays and objects (for
/// [`crate::build_deep`]).
pub fn to_py_limited(
    py: Python<'_>,
    j: &Json,
    hook: &Hook<'_>,
    limit: usize,
) -> PyResult<Option<PyObject>> {
    let mut cx = Ctx {
        py,
        hook,
        keys: HashMap::new(),
        limit,
        depth: 0,
        over: false,
    };
    match cx.value(j) {
        Err(_) if cx.over => Ok(None),
        r => Ok(Some(r?.unbind())),
    }
}

/// Most distinct object keys kept as shared Python strings during one conversion.
const KEY_CACHE: usize = 4096;

/// One conversion: the hook and the Python strings made for object keys so far (keys
/// repeat across objects, and one shared string saves an allocation and a UTF-8 check).
struct Ctx<'a, 'py> {
    py: Python<'py>,
    hook: &'a Hook<'py>,
    keys: HashMap<&'a str, Bound<'py, PyString>>,
    /// The deepest nesting converted.
    limit: usize,
    /// Arrays and objects open now.
    depth: usize,
    /// An array or object was refused past `limit`.
    over: bool,
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
        if !matches!(j, Json::Array(_) | Json::Object(_)) {
            return self.make(j);
        }
        if self.depth >= self.limit {
            self.over = true;
            return Err(PyValueError::new_err("nested past the depth limit"));
        }
        self.depth += 1;
        let v = self.make(j);
        self.depth -= 1;
        v
    }

    fn make(&mut self, j: &'a Json) -> PyResult<Bound<'py, PyAny>> {
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

/// Deepest nesting of lists, tuples and dicts `encode` takes from Python: the facade's
/// limit on JSON text ([`gamewire::open::MAX_JSON_DEPTH`]; engine formats nest up to 1024
/// levels, and a tagged value takes up to about four JSON levels per engine level).
pub const MAX_DEPTH: usize = gamewire::open::MAX_JSON_DEPTH;

/// Most `_gamewire_json()` calls in a row (an object whose JSON form is another object
/// with a JSON form, ...) before a container or a plain value must come.
pub const MAX_HOPS: usize = 64;

/// Converts Python values (as the format's `decode` gives them) back to a JSON tree.
///
/// The walk keeps its own stack (no recursion): nesting past [`MAX_DEPTH`] and a value
/// that contains itself raise `ValueError`, never exhaust the thread's stack.
pub fn from_py(v: &Bound<'_, PyAny>, fmt: Format) -> PyResult<Json> {
    Ok(from_py_deep(v, Some(fmt))?.0)
}

/// [`from_py`] with the nesting depth of the tree made; `None` for plain JSON (a
/// document for [`gamewire::encode_document`]: `bytes` and non-finite floats are errors).
pub fn from_py_deep(v: &Bound<'_, PyAny>, fmt: Option<Format>) -> PyResult<(Json, usize)> {
    Walk {
        fmt,
        stack: Vec::new(),
        deepest: 0,
    }
    .run(v)
}

/// What one Python value is.
enum Step {
    /// A plain value, converted.
    Leaf(Json),
    /// An object with a `_gamewire_json()` method: its result takes its place.
    Hop,
    /// A list or tuple (`false`) or dict (`true`) to walk.
    Open(bool),
    /// Something else (the `TypeError` to raise).
    Bad(PyErr),
}

/// A list, tuple or dict being walked.
struct Frame<'py> {
    /// The container (its id, to tell a value containing itself).
    obj: Bound<'py, PyAny>,
    /// The objects whose `_gamewire_json()` gave `obj`.
    via: Vec<Bound<'py, PyAny>>,
    /// Its items (a dict's `items()`).
    items: Items<'py>,
    /// The JSON made so far.
    out: Partial,
}

/// The items of a container being walked: a list (read by index, so that a list
/// changed meanwhile is read as it is now) or tuple, or any other iterable.
enum Items<'py> {
    List(Bound<'py, PyList>, usize),
    Tuple(Bound<'py, PyTuple>, usize),
    Iter(Bound<'py, PyIterator>),
    /// A dict's pairs, taken when it is opened.
    Pairs(std::vec::IntoIter<(Bound<'py, PyAny>, Bound<'py, PyAny>)>),
}

/// An item of a container: its key (for a dict) and value.
type Entry<'py> = (Option<Bound<'py, PyAny>>, Bound<'py, PyAny>);

impl<'py> Items<'py> {
    fn of(v: &Bound<'py, PyAny>) -> PyResult<Self> {
        Ok(if let Ok(l) = v.downcast_exact::<PyList>() {
            Items::List(l.clone(), 0)
        } else if let Ok(t) = v.downcast_exact::<PyTuple>() {
            Items::Tuple(t.clone(), 0)
        } else {
            Items::Iter(v.try_iter()?)
        })
    }

    /// The next item: a value, with its key for a dict.
    fn next(&mut self) -> Option<PyResult<Entry<'py>>> {
        let item = match self {
            // (The length is checked first: an index error would build an exception.)
            Items::List(l, i) if *i < l.len() => {
                *i += 1;
                l.get_item(*i - 1)
            }
            Items::Tuple(t, i) if *i < t.len() => {
                *i += 1;
                t.get_item(*i - 1)
            }
            Items::List(..) | Items::Tuple(..) => return None,
            Items::Iter(it) => it.next()?,
            Items::Pairs(p) => return p.next().map(|(k, v)| Ok((Some(k), v))),
        };
        Some(item.map(|v| (None, v)))
    }
}

/// The JSON of a container being walked.
enum Partial {
    List(Vec<Json>),
    Dict(Map<String, Json>, Option<String>),
}

impl Partial {
    fn put(&mut self, j: Json) {
        match self {
            Partial::List(a) => a.push(j),
            Partial::Dict(m, key) => {
                if let Some(k) = key.take() {
                    m.insert(k, j);
                }
            }
        }
    }

    fn finish(self) -> Json {
        match self {
            Partial::List(a) => Json::Array(a),
            Partial::Dict(m, _) => Json::Object(m),
        }
    }
}

/// One conversion: the open containers, outermost first.
struct Walk<'py> {
    fmt: Option<Format>,
    stack: Vec<Frame<'py>>,
    deepest: usize,
}

impl<'py> Walk<'py> {
    fn run(mut self, root: &Bound<'py, PyAny>) -> PyResult<(Json, usize)> {
        let mut value = root.clone();
        loop {
            // Turn `value` into a converted leaf, or open it as the new innermost container.
            let mut via: Vec<Bound<'py, PyAny>> = Vec::new();
            let mut done = loop {
                match self.step(&value)? {
                    Step::Leaf(j) => break Some(j),
                    Step::Bad(e) => return Err(e),
                    Step::Hop => {
                        let next = value.call_method0(intern!(value.py(), "_gamewire_json"))?;
                        if next.is(&value) || via.iter().any(|x| x.is(&next)) {
                            return Err(contains_itself(&value));
                        }
                        if via.len() >= MAX_HOPS {
                            return Err(PyValueError::new_err(format!(
                                "cannot encode a {}: its _gamewire_json() gives objects with a \
                                 _gamewire_json() more than {MAX_HOPS} times in a row",
                                type_name(&value)
                            )));
                        }
                        via.push(std::mem::replace(&mut value, next));
                    }
                    Step::Open(dict) => {
                        self.open(value.clone(), std::mem::take(&mut via), dict)?;
                        break None;
                    }
                }
            };
            // Hand the finished value to its container and take the container's next item,
            // closing the containers that are done.
            loop {
                let Some(top) = self.stack.last_mut() else {
                    let j = done.take().unwrap_or(Json::Null);
                    return Ok((j, self.deepest));
                };
                if let Some(j) = done.take() {
                    top.out.put(j);
                }
                match top.items.next() {
                    Some(item) => {
                        let (k, v) = item?;
                        if let (Partial::Dict(_, key), Some(k)) = (&mut top.out, k) {
                            *key = Some(
                                k.extract()
                                    .map_err(|_| PyTypeError::new_err("dict keys must be str"))?,
                            );
                        }
                        value = v;
                        break;
                    }
                    None => {
                        let f = self.stack.pop().expect("a frame is open");
                        done = Some(f.out.finish());
                    }
                }
            }
        }
    }

    /// Opens a list, tuple or dict, refused past [`MAX_DEPTH`].
    fn open(
        &mut self,
        obj: Bound<'py, PyAny>,
        via: Vec<Bound<'py, PyAny>>,
        dict: bool,
    ) -> PyResult<()> {
        if self.stack.len() >= MAX_DEPTH {
            return Err(self.too_deep(&obj, &via));
        }
        let (items, out) = if dict {
            // The pairs as stored (whatever a subclass's `items`), taken now: no Python
            // code runs while they are read, and a dict changed later is not read again.
            let pairs: Vec<_> = obj.downcast::<PyDict>()?.iter().collect();
            (
                Items::Pairs(pairs.into_iter()),
                Partial::Dict(Map::new(), None),
            )
        } else {
            (Items::of(&obj)?, Partial::List(Vec::new()))
        };
        self.stack.push(Frame {
            obj,
            via,
            items,
            out,
        });
        self.deepest = self.deepest.max(self.stack.len());
        Ok(())
    }

    /// The error for `obj` opened past the limit: a value on the path seen twice means a
    /// value that contains itself (every cycle ends here), else nesting too deep.
    fn too_deep(&self, obj: &Bound<'py, PyAny>, via: &[Bound<'py, PyAny>]) -> PyErr {
        let mut ids: Vec<(usize, &Bound<'py, PyAny>)> = self
            .stack
            .iter()
            .flat_map(|f| f.via.iter().chain([&f.obj]))
            .chain(via.iter().chain([obj]))
            .map(|o| (o.as_ptr() as usize, o))
            .collect();
        ids.sort_by_key(|&(id, _)| id);
        if let Some(w) = ids.windows(2).find(|w| w[0].0 == w[1].0) {
            return contains_itself(w[0].1);
        }
        PyValueError::new_err(format!(
            "cannot encode a {} nested deeper than {MAX_DEPTH} levels",
            type_name(obj)
        ))
    }

    fn step(&self, v: &Bound<'py, PyAny>) -> PyResult<Step> {
        let leaf = |j| Ok(Step::Leaf(j));
        if v.is_none() {
            return leaf(Json::Null);
        }
        if let Ok(b) = v.downcast_exact::<PyBool>() {
            return leaf(Json::Bool(b.is_true()));
        }
        if v.is_exact_instance_of::<PyInt>() {
            return leaf(int_json(v)?);
        }
        if let Ok(f) = v.downcast_exact::<PyFloat>() {
            return leaf(self.float(f.value())?);
        }
        if let Ok(s) = v.downcast_exact::<PyString>() {
            return leaf(Json::String(s.to_str()?.to_owned()));
        }
        if v.is_exact_instance_of::<PyDict>() {
            return Ok(Step::Open(true));
        }
        if v.is_exact_instance_of::<PyList>() || v.is_exact_instance_of::<PyTuple>() {
            return Ok(Step::Open(false));
        }
        if let Ok(b) = v.downcast::<PyBytes>() {
            return match self.fmt {
                Some(fmt) => leaf(bytes_json(fmt, b.as_bytes())),
                None => Ok(Step::Bad(PyTypeError::new_err(
                    "cannot encode bytes in a JSON document",
                ))),
            };
        }
        if v.hasattr(intern!(v.py(), "_gamewire_json"))? {
            return Ok(Step::Hop);
        }
        // Subclasses of the native types without a JSON form of their own.
        if v.is_instance_of::<PyInt>() {
            return leaf(int_json(v)?);
        }
        if let Ok(f) = v.downcast::<PyFloat>() {
            return leaf(self.float(f.value())?);
        }
        if let Ok(s) = v.downcast::<PyString>() {
            return leaf(Json::String(s.to_str()?.to_owned()));
        }
        if v.is_instance_of::<PyDict>() {
            return Ok(Step::Open(true));
        }
        if v.is_instance_of::<PyList>() || v.is_instance_of::<PyTuple>() {
            return Ok(Step::Open(false));
        }
        Ok(Step::Bad(PyTypeError::new_err(format!(
            "cannot encode a {}",
            type_name(v)
        ))))
    }

    fn float(&self, x: f64) -> PyResult<Json> {
        match self.fmt {
            Some(fmt) => Ok(float_json(fmt, x)),
            None => Number::from_f64(x).map(Json::Number).ok_or_else(|| {
                PyValueError::new_err(format!("{x} has no JSON form in a JSON document"))
            }),
        }
    }
}

/// The name of `v`'s type, for messages.
fn type_name(v: &Bound<'_, PyAny>) -> String {
    v.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "value".to_owned())
}

fn contains_itself(v: &Bound<'_, PyAny>) -> PyErr {
    PyValueError::new_err(format!(
        "cannot encode a value that contains itself (a {} is inside itself)",
        type_name(v)
    ))
}

fn int_json(v: &Bound<'_, PyAny>) -> PyResult<Json> {
    if let Ok(i) = v.extract::<i64>() {
        return Ok(Json::Number(i.into()));
    }
    let u: u64 = v.extract()?;
    Ok(Json::Number(u.into()))
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
