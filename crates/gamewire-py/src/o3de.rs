//! `gamewire.o3de`: O3DE JSON files kept exactly as written (the registry-free document).
//!
//! Objects are dicts, or `gamewire.o3de.Members` (a list of `(name, value)` pairs) when a
//! name repeats; numbers are `int` when their text is a plain integer, else
//! `gamewire.o3de.Number` (a `float` that keeps its source text); strings are `str`, or
//! `gamewire.o3de.String` (a `str` that keeps its escaped source text) when written
//! otherwise than rapidjson writes them. So `encode(decode(data))` gives back the same
//! document, and the same bytes for every file O3DE saved.

use crate::{errors, maybe_allow_threads, py_attr};
use gamewire::o3de::doc::{Document, Node, Str, Syntax};
use gamewire::o3de::layout::Style;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use std::cell::{Cell, RefCell};

/// The Python classes the tree is built from.
struct Classes<'py> {
    number: Bound<'py, PyAny>,
    string: Bound<'py, PyAny>,
    members: Bound<'py, PyAny>,
    /// Plain JSON values (`json=True`): `float` for `Number`, `str` for `String`, and
    /// a dict keeping the first of repeated names (the one O3DE reads) for `Members`.
    plain: bool,
    /// The deepest nesting converted on this thread.
    limit: usize,
    /// The value went past `limit` (to be converted again on a bigger stack).
    over: Cell<bool>,
    /// `encode`: the ids of the containers on the current path.
    path: RefCell<Vec<usize>>,
}

/// The text rapidjson's `Writer` gives `s` (between the quotes).
fn escape(s: &str) -> String {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\u{c}' => out.push_str("\\f"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 => {
                let b = c as usize;
                out.push_str("\\u00");
                out.push(HEX[b >> 4] as char);
                out.push(HEX[b & 15] as char);
            }
            c => out.push(c),
        }
    }
    out
}

/// A plain integer's text: what Python's `str(int(text))` gives back.
fn plain_int(t: &str) -> bool {
    let d = t.strip_prefix('-').unwrap_or(t);
    !d.is_empty()
        && d.bytes().all(|b| b.is_ascii_digit())
        && (d == "0" || !d.starts_with('0'))
        && t != "-0"
}

fn string<'py>(py: Python<'py>, s: &Str<'_>, c: &Classes<'py>) -> PyResult<Bound<'py, PyAny>> {
    let value = s.value();
    if c.plain || escape(&value) == s.raw() {
        Ok(PyString::new(py, &value).into_any())
    } else {
        c.string.call1((value.as_ref(), s.raw()))
    }
}

/// The Python value of `n`, refused (`c.over` set) past `c.limit` levels.
fn to_py<'py>(
    py: Python<'py>,
    n: &Node<'_>,
    c: &Classes<'py>,
    depth: usize,
) -> PyResult<Bound<'py, PyAny>> {
    if matches!(n, Node::Array(_) | Node::Object(_)) && depth >= c.limit {
        c.over.set(true);
        return Err(PyValueError::new_err("nested past the depth limit"));
    }
    let to_py = |py, x, c| to_py(py, x, c, depth + 1);
    Ok(match n {
        Node::Null => py.None().into_bound(py),
        Node::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Node::Number(t) if plain_int(t) => match t.parse::<i64>() {
            Ok(i) => i.into_pyobject(py)?.into_any(),
            Err(_) => py.get_type::<PyInt>().call1((*t,))?,
        },
        Node::Number(t) if c.plain => {
            let x: f64 = t.parse().map_err(|_| {
                PyValueError::new_err(format!("number {t:?} does not read as a float"))
            })?;
            PyFloat::new(py, x).into_any()
        }
        Node::Number(t) => c.number.call1((*t,))?,
        Node::String(s) => string(py, s, c)?,
        Node::Array(a) => {
            let items = a
                .iter()
                .map(|x| to_py(py, x, c))
                .collect::<PyResult<Vec<_>>>()?;
            PyList::new(py, items)?.into_any()
        }
        Node::Object(m) => {
            let d = PyDict::new(py);
            for (k, v) in m {
                let k = string(py, k, c)?;
                // Plain values keep the first of repeated names, as O3DE finds them.
                if c.plain && d.contains(&k)? {
                    continue;
                }
                d.set_item(k, to_py(py, v, c)?)?;
            }
            if c.plain || d.len() == m.len() {
                d.into_any()
            } else {
                let pairs = m
                    .iter()
                    .map(|(k, v)| PyTuple::new(py, [string(py, k, c)?, to_py(py, v, c)?]))
                    .collect::<PyResult<Vec<_>>>()?;
                c.members.call1((pairs,))?
            }
        }
    })
}

/// An owned tree, turned into a [`Node`] (which borrows) to be written.
enum Own {
    Null,
    Bool(bool),
    Number(String),
    String(String),
    Array(Vec<Own>),
    Object(Vec<(String, Own)>),
}

impl Own {
    fn node(&self) -> Node<'_> {
        match self {
            Own::Null => Node::Null,
            Own::Bool(b) => Node::Bool(*b),
            Own::Number(t) => Node::Number(t),
            Own::String(s) => Node::String(Str::from_raw(s)),
            Own::Array(a) => Node::Array(a.iter().map(Own::node).collect()),
            Own::Object(m) => Node::Object(
                m.iter()
                    .map(|(k, v)| (Str::from_raw(k), v.node()))
                    .collect(),
            ),
        }
    }
}

/// Depth past which `encode` refuses a value (as `decode` refuses deeper text).
const MAX_DEPTH: usize = gamewire::o3de::doc::MAX_DEPTH;

fn where_(path: &str) -> String {
    if path.is_empty() {
        "$".to_owned()
    } else {
        format!("${path}")
    }
}

/// The raw text of a string: `.raw` of a `String` (checked), else rapidjson's escaping.
fn raw_text(v: &Bound<'_, PyAny>, c: &Classes<'_>, path: &str) -> PyResult<String> {
    let s = v.downcast::<PyString>().map_err(|_| {
        PyTypeError::new_err(format!(
            "{}: member names must be str, not {}",
            where_(path),
            v.get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default()
        ))
    })?;
    if v.is_instance(&c.string)? {
        let raw: String = v.getattr("raw")?.extract()?;
        let text = format!("\"{raw}\"");
        let back: Option<String> = serde_json::from_str(&text).ok();
        if back.as_deref() != Some(s.to_str()?) {
            return Err(PyValueError::new_err(format!(
                "{}: String.raw {raw:?} is not the JSON text of its value",
                where_(path)
            )));
        }
        return Ok(raw);
    }
    Ok(escape(s.to_str()?))
}

/// The error for a value past `c.limit`: at [`MAX_DEPTH`], a container seen twice on
/// the path (every cycle gets here) is a value that contains itself.
fn too_deep(v: &Bound<'_, PyAny>, c: &Classes<'_>, path: &str) -> PyErr {
    if c.limit < MAX_DEPTH {
        c.over.set(true);
        return PyValueError::new_err("deeper than the calling thread takes");
    }
    let mut ids = c.path.borrow().clone();
    ids.push(v.as_ptr() as usize);
    ids.sort_unstable();
    if ids.windows(2).any(|w| w[0] == w[1]) {
        return PyValueError::new_err(format!(
            "cannot encode a value that contains itself (a {} is inside itself)",
            v.get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default()
        ));
    }
    PyValueError::new_err(format!(
        "{}: nested deeper than {MAX_DEPTH} levels",
        where_(path)
    ))
}

fn from_py(v: &Bound<'_, PyAny>, c: &Classes<'_>, path: &str, depth: usize) -> PyResult<Own> {
    if depth > c.limit {
        return Err(too_deep(v, c, path));
    }
    let own = from_py_in(v, c, path, depth);
    if depth > 0 && c.path.borrow().last() == Some(&(v.as_ptr() as usize)) {
        c.path.borrow_mut().pop();
    }
    own
}

/// Marks `v` as a container on the current path (taken off by [`from_py`]).
fn enter(v: &Bound<'_, PyAny>, c: &Classes<'_>) {
    c.path.borrow_mut().push(v.as_ptr() as usize);
}

fn from_py_in(v: &Bound<'_, PyAny>, c: &Classes<'_>, path: &str, depth: usize) -> PyResult<Own> {
    if v.is_none() {
        return Ok(Own::Null);
    }
    if let Ok(b) = v.downcast::<PyBool>() {
        return Ok(Own::Bool(b.is_true()));
    }
    if v.is_instance(&c.number)? {
        let t: String = v.getattr("text")?.extract()?;
        if !matches!(serde_json::from_str(&t), Ok(serde_json::Value::Number(_))) {
            return Err(PyValueError::new_err(format!(
                "{}: Number text {t:?} is not a JSON number",
                where_(path)
            )));
        }
        return Ok(Own::Number(t));
    }
    if v.is_instance_of::<PyInt>() {
        return Ok(Own::Number(v.str()?.to_str()?.to_owned()));
    }
    if let Ok(f) = v.downcast::<PyFloat>() {
        let x = f.value();
        if !x.is_finite() {
            return Err(PyValueError::new_err(format!(
                "{}: {x} has no JSON form",
                where_(path)
            )));
        }
        return Ok(Own::Number(v.repr()?.to_str()?.to_owned()));
    }
    if v.is_instance_of::<PyString>() {
        return Ok(Own::String(raw_text(v, c, path)?));
    }
    if let Ok(d) = v.downcast::<PyDict>() {
        enter(v, c);
        let mut m = Vec::with_capacity(d.len());
        for (k, x) in d.iter() {
            let raw = raw_text(&k, c, path)?;
            let p = format!("{path}.{}", k.str()?);
            m.push((raw, from_py(&x, c, &p, depth + 1)?));
        }
        return Ok(Own::Object(m));
    }
    if v.is_instance(&c.members)? {
        enter(v, c);
        let mut m = Vec::new();
        for (i, pair) in v.try_iter()?.enumerate() {
            let pair = pair?;
            let (k, x): (Bound<'_, PyAny>, Bound<'_, PyAny>) = pair.extract().map_err(|_| {
                PyTypeError::new_err(format!(
                    "{}: Members holds (name, value) pairs",
                    where_(&format!("{path}[{i}]"))
                ))
            })?;
            let raw = raw_text(&k, c, path)?;
            let p = format!("{path}.{}", k.str()?);
            m.push((raw, from_py(&x, c, &p, depth + 1)?));
        }
        return Ok(Own::Object(m));
    }
    if v.is_instance_of::<PyList>() || v.is_instance_of::<PyTuple>() {
        enter(v, c);
        let mut a = Vec::new();
        for (i, x) in v.try_iter()?.enumerate() {
            a.push(from_py(&x?, c, &format!("{path}[{i}]"), depth + 1)?);
        }
        return Ok(Own::Array(a));
    }
    Err(PyTypeError::new_err(format!(
        "{}: cannot encode a {}",
        where_(path),
        v.get_type().name()?
    )))
}

fn classes(py: Python<'_>, plain: bool, limit: usize) -> PyResult<Classes<'_>> {
    Ok(Classes {
        number: py_attr(py, "o3de", "Number")?,
        string: py_attr(py, "o3de", "String")?,
        members: py_attr(py, "o3de", "Members")?,
        plain,
        limit,
        over: Cell::new(false),
        path: RefCell::new(Vec::new()),
    })
}

/// Decodes O3DE JSON text (UTF-8, comments allowed) to Python values; `json=True` gives
/// plain JSON values instead (`float` for every number that is not a plain integer,
/// `str`, and dicts keeping the first of repeated names, the one O3DE reads).
#[pyfunction]
#[pyo3(signature = (data, *, json=false))]
fn decode(py: Python<'_>, data: &[u8], json: bool) -> PyResult<PyObject> {
    let doc = maybe_allow_threads(py, data.len(), || {
        Document::parse_with(data, MAX_DEPTH, Syntax::of(data, None))
    })
    .map_err(|e| errors::to_py(py, e))?;
    // Built on the calling thread, or again on a big stack for a deeply nested value.
    crate::build_deep(py, |py, limit| {
        let c = classes(py, json, limit)?;
        match to_py(py, &doc.root, &c, 0) {
            Err(_) if c.over.get() => Ok(None),
            r => r.map(|v| Some(v.unbind())),
        }
    })
}

/// How a file is laid out, as the library's settings say (the same as `gamewire decode
/// FILE`'s header): `{"compact": bool, "final_newline": bool, "keep": str | None}`, the
/// keyword arguments `encode` needs to give back the file's bytes. `keep` holds the rest
/// of the layout (indentation, line endings, comments, trailing commas) as JSON when the
/// file is not in O3DE's own layout, else `None`.
#[pyfunction]
fn layout<'py>(py: Python<'py>, data: &[u8]) -> PyResult<Bound<'py, PyDict>> {
    let s = crate::files::settings_of(py, data, None, gamewire::Format::O3de)?;
    let gamewire::Settings::O3de(o) = s else {
        unreachable!("opened as O3DE")
    };
    let keep = maybe_allow_threads(py, data.len(), || {
        let doc = Document::parse_with(data, MAX_DEPTH, Syntax::of(data, None))?;
        // O3DE's own layout needs nothing more (the values keep their number text).
        if Style::detect_with(data, &doc, false)?.is_plain() {
            return Ok::<_, gamewire_core::Error>(None);
        }
        let style = Style::detect(data, &doc)?;
        Ok(Some(serde_json::to_string(&style).unwrap_or_default()))
    })
    .map_err(|e| errors::to_py(py, e))?;
    let d = PyDict::new(py);
    d.set_item("compact", o.layout == gamewire::open::O3deLayout::Compact)?;
    d.set_item("final_newline", o.final_newline)?;
    d.set_item("keep", keep)?;
    Ok(d)
}

/// Encodes a value (as `decode` gives it) to JSON text, indented as O3DE writes
/// (`compact=True`: no white space), with a final newline when asked; with `keep` (from
/// `layout`), in that file's own layout: its comments, trailing commas, indentation and
/// line endings around every member still there.
#[pyfunction]
#[pyo3(signature = (value, *, compact=false, final_newline=false, keep=None))]
fn encode(
    py: Python<'_>,
    value: &Bound<'_, PyAny>,
    compact: bool,
    final_newline: bool,
    keep: Option<&str>,
) -> PyResult<Vec<u8>> {
    let style = match keep {
        Some(k) => serde_json::from_str::<Style>(k).map_err(|e| {
            PyValueError::new_err(format!("keep: not a layout from o3de.layout(): {e}"))
        })?,
        None => Style {
            compact,
            final_newline,
            ..Style::default()
        },
    };
    let style = std::sync::Arc::new(style);
    // Values nested past `INLINE_DEPTH` are walked again on a thread with a stack big
    // enough for `MAX_DEPTH` levels of the recursive walk and writer.
    let c = classes(py, false, crate::INLINE_DEPTH)?;
    match encode_with(py, value, &c, &style) {
        Err(_) if c.over.get() => {
            let value = value.clone().unbind();
            crate::with_gil_deep(py, move |py| {
                let c = classes(py, false, MAX_DEPTH)?;
                encode_with(py, value.bind(py), &c, &style)
            })
        }
        r => r,
    }
}

fn encode_with(
    py: Python<'_>,
    value: &Bound<'_, PyAny>,
    c: &Classes<'_>,
    style: &Style,
) -> PyResult<Vec<u8>> {
    let own = from_py(value, c, "", 0)?;
    Ok(py.allow_threads(move || {
        let mut out = Vec::new();
        // A Vec takes every write.
        let _ = style.write_to(&own.node(), &mut out);
        out
    }))
}

/// Flattens the level at `path` as O3DE builds it (`gamewire o3de flatten`): nested
/// prefabs read under the project root (`project`, else the nearest folder above with a
/// `project.json`), their patches applied (a failing one skipped with `keep_going`,
/// else an error naming the instance chain, the patch's index and path); `schema` is a
/// registry file merged over the bundled core types for the defaults patches need.
/// Returns `(document, entities, summary)`: the flattened level as O3DE JSON text, and
/// the entity table and summary as JSON text (the Python wrapper decodes them).
#[pyfunction]
#[pyo3(signature = (path, *, project=None, keep_going=false, root_alias=String::new(), schema=None))]
fn flatten(
    py: Python<'_>,
    path: std::path::PathBuf,
    project: Option<std::path::PathBuf>,
    keep_going: bool,
    root_alias: String,
    schema: Option<std::path::PathBuf>,
) -> PyResult<(Vec<u8>, String, String)> {
    use gamewire::o3de::flatten::{flatten_file, FlattenOptions};
    let reg = match &schema {
        None => gamewire::o3de::Registry::bundled(),
        Some(p) => {
            let bytes = std::fs::read(p)
                .map_err(|e| PyValueError::new_err(format!("{}: {e}", p.display())))?;
            gamewire::o3de::Registry::from_slice_over_bundled(&bytes)
                .map_err(|e| PyValueError::new_err(format!("{}: {e}", p.display())))?
        }
    };
    py.allow_threads(|| {
        let opts = FlattenOptions {
            registry: Some(&reg),
            keep_going,
            root_alias,
            ..FlattenOptions::default()
        };
        let f = flatten_file(&path, project.as_deref(), &opts)?;
        let mut doc = gamewire::o3de::envelope::write_json(&f.document);
        doc.push(b'\n');
        Ok((
            doc,
            f.entities_json().to_string(),
            f.summary_json().to_string(),
        ))
    })
    .map_err(|e: gamewire_core::Error| {
        errors::to_py(
            py,
            gamewire_core::Error::msg(format!("{}: {e}", path.display())),
        )
    })
}

/// Adds the module's functions.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(flatten, m)?)?;
    m.add_function(wrap_pyfunction!(decode, m)?)?;
    m.add_function(wrap_pyfunction!(layout, m)?)?;
    m.add_function(wrap_pyfunction!(encode, m)?)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_as_rapidjson() {
        assert_eq!(escape("a\"b\\c/é\u{1}\n"), "a\\\"b\\\\c/é\\u0001\\n");
        assert!(plain_int("0") && plain_int("-12") && plain_int("18446744073709551615"));
        assert!(!plain_int("-0") && !plain_int("01") && !plain_int("1.0") && !plain_int("1e2"));
    }
}
