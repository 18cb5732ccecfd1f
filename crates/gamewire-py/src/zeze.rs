//! `gamewire.zeze`: Zeze beans (the `ByteBuffer` encoding) and protocol frame streams.
//!
//! Without a schema, a bean is a `gamewire.zeze.Bean` (a dict of field ids to values) and
//! wire types without a native Python equivalent small classes of `gamewire.zeze`, built
//! from the Zeze crate's lossless schema-less JSON (`json=True` gives it as it is); with
//! a solution XML and a bean name, named typed values (the schema JSON mapping).

use crate::json::{Format, Hook};
use crate::pyser::PySer;
use crate::{build_deep, errors, maybe_allow_threads, py_attr};
use gamewire::zeze::frame::{decode_frames, encode_frames, FrameOptions, Payload};
use gamewire::zeze::json::{bean_from_json, frame_from_json};
use gamewire::zeze::json_view::{BeanView, FrameView};
use gamewire::zeze::schema::Schema;
use gamewire::zeze::{self as zeze};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// A schema from a solution XML's text, or from the path of such a file with the files
/// it imports (`<import file=..>`, found as Zeze's Gen and the CLI find them).
fn schema(py: Python<'_>, s: &str) -> PyResult<Schema> {
    if s.trim_start().starts_with('<') {
        return Schema::from_xml(s).map_err(|e| errors::to_py(py, e));
    }
    let path = std::path::Path::new(s);
    if !path.is_file() {
        return Err(PyValueError::new_err(format!(
            "cannot read schema {s}: no such file"
        )));
    }
    Schema::from_file(path).map_err(|e| errors::to_py(py, e))
}

/// The schema and bean, when both are given; an error for a schema without a bean.
fn typed(
    py: Python<'_>,
    s: Option<&str>,
    bean: Option<&str>,
) -> PyResult<Option<(Schema, String)>> {
    match (s, bean) {
        (None, None) => Ok(None),
        (Some(s), Some(b)) => {
            let schema = schema(py, s)?;
            let name = schema
                .bean(b)
                .map_err(|e| errors::to_py(py, e))?
                .name
                .clone();
            Ok(Some((schema, name)))
        }
        _ => Err(PyValueError::new_err(
            "schema and bean go together: pass both or neither",
        )),
    }
}

/// Decodes a bean (or, with `frames=True`, a stream of protocol frames, schema-less).
/// `schema` is a solution XML (text or path) and `bean` the bean's name.
#[pyfunction]
#[pyo3(signature = (data, *, schema=None, bean=None, frames=false, json=false))]
fn decode(
    py: Python<'_>,
    data: &[u8],
    schema: Option<&str>,
    bean: Option<&str>,
    frames: bool,
    json: bool,
) -> PyResult<PyObject> {
    let t = typed(py, schema, bean)?;
    let o = zeze::Options::default();
    let d = maybe_allow_threads(py, data.len(), || match (&t, frames) {
        (_, true) if t.is_some() => Err(gamewire::Error::msg(
            "frames with a schema are not supported here; decode the bodies by bean",
        )),
        (_, true) => decode_frames(data, &FrameOptions::default()).map(Decoded::Frames),
        (Some((s, b)), false) => s.decode(b, data, &o).map(Decoded::Json),
        (None, false) => zeze::view(data, &o).map(Decoded::View),
    })
    .map_err(|e| errors::to_py(py, e))?;
    // Schema-less beans go straight from their bytes to Python (no owned tree and no
    // JSON tree: a list of empty beans took some 300 bytes per input byte through them).
    let value = build_deep(py, |py, limit| {
        let ser = |py| -> PyResult<PySer<'_>> {
            Ok(if json {
                PySer::new(py)
            } else {
                PySer::hooked(py, py_attr(py, "zeze", "_from_json")?)
            }
            .limit(limit))
        };
        match &d {
            Decoded::Json(j) => crate::json::to_py_limited(py, j, &Hook::Plain, limit),
            Decoded::View(v) => {
                let ser = ser(py)?;
                match ser.convert_limited(&crate::zeze_view::Bean(v.clone())) {
                    // The walk checked all but field ids: the owned decode names the error.
                    Err(e) if !ser.went_over() => match zeze::decode(data, &o) {
                        Err(e) => Err(errors::to_py(py, e)),
                        Ok(_) => Err(e),
                    },
                    r => Ok(r?.map(Bound::unbind)),
                }
            }
            Decoded::Frames(fs) => {
                let views: Vec<_> = fs
                    .iter()
                    .map(|f| {
                        let body = match &f.payload {
                            Payload::Body(b) => Some(BeanView::new(&b.bean)),
                            Payload::Raw(_) => None,
                        };
                        FrameView::new(f, body, None)
                    })
                    .collect();
                Ok(ser(py)?.convert_limited(&views)?.map(Bound::unbind))
            }
        }
    })?;
    py.allow_threads(move || drop(d));
    Ok(value)
}

/// What `decode` read: a typed value (the schema JSON mapping), a bean's checked bytes
/// or frames.
enum Decoded<'a> {
    Json(serde_json::Value),
    View(zeze::BeanView<'a>),
    Frames(Vec<gamewire::zeze::frame::Frame>),
}

/// Encodes a value (as `decode` gives it, with the same keyword arguments) to bytes.
#[pyfunction]
#[pyo3(signature = (value, *, schema=None, bean=None, frames=false))]
fn encode(
    py: Python<'_>,
    value: &Bound<'_, PyAny>,
    schema: Option<&str>,
    bean: Option<&str>,
    frames: bool,
) -> PyResult<Vec<u8>> {
    let t = typed(py, schema, bean)?;
    let (j, depth) = crate::json::from_py_deep(value, Some(Format::Zeze))?;
    let r = crate::allow_threads_deep(py, depth, move || match (&t, frames) {
        (Some(_), true) => Err(gamewire::Error::msg(
            "frames with a schema are not supported here; encode the bodies by bean",
        )),
        (None, true) => match j.as_array() {
            None => Err(gamewire::Error::msg("expected a list of frames")),
            Some(a) => a
                .iter()
                .enumerate()
                .map(|(i, f)| frame_from_json(f, bean_from_json).map_err(|e| e.in_index(i)))
                .collect::<gamewire::Result<Vec<_>>>()
                .and_then(|fs| encode_frames(&fs)),
        },
        (Some((s, b)), false) => s.encode(b, &j),
        (None, false) => bean_from_json(&j).and_then(|b| zeze::encode(&b)),
    })?;
    r.map_err(|e| errors::to_py(py, e))
}

/// Adds the module's functions.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(decode, m)?)?;
    m.add_function(wrap_pyfunction!(encode, m)?)?;
    Ok(())
}
