//! Python bindings for gamewire: the `gamewire._gamewire` extension module behind the
//! `gamewire` Python package (python/gamewire). Build with maturin
//! (`pip install ./crates/gamewire-py`).
#![forbid(unsafe_code)]
#![warn(missing_docs)]

use pyo3::prelude::*;

pub mod errors;
pub mod files;
pub mod godot;
pub mod json;
pub mod kingsisle;
pub mod o3de;
pub mod pyser;
pub mod resonite;
pub mod zeze;
pub mod zeze_view;

/// Inputs at least this long are decoded with the GIL released.
pub const RELEASE_GIL_AT: usize = 64 * 1024;

/// Runs `f` with the GIL released when `len` is large, holding it otherwise.
pub fn maybe_allow_threads<T: Send>(py: Python<'_>, len: usize, f: impl FnOnce() -> T + Send) -> T {
    if len >= RELEASE_GIL_AT {
        py.allow_threads(f)
    } else {
        f()
    }
}

/// Stack of the thread deep values are converted on: engine values nest up to 1024
/// levels and their JSON up to [`json::MAX_DEPTH`], and the recursive converters of the
/// format crates take far more than a main thread's 8 MiB for that in a debug build.
/// Only the pages used are committed.
pub const WORKER_STACK: usize = 256 << 20;

/// Values nested at most this deep are converted on the calling thread.
pub const INLINE_DEPTH: usize = 64;

/// Deepest nesting of Python values a decoder builds (on the [`WORKER_STACK`] thread):
/// far past the decoders' own limits (1024 engine levels, a few JSON levels each), it
/// only stops inputs that nest without bound where a format does not count the levels
/// (Zeze's inheritance levels).
pub const WORKER_DEPTH: usize = 32 * 1024;

/// Runs `f` with the GIL released: on the calling thread when the value it works on
/// nests at most [`INLINE_DEPTH`] levels (`depth`), else on a thread with a
/// [`WORKER_STACK`] stack.
pub fn allow_threads_deep<T: Send>(
    py: Python<'_>,
    depth: usize,
    f: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    if depth <= INLINE_DEPTH {
        return Ok(py.allow_threads(f));
    }
    py.allow_threads(|| on_big_stack(f))
}

/// Runs `f` (which needs the GIL) on a thread with a [`WORKER_STACK`] stack, the calling
/// thread waiting with the GIL released.
pub fn with_gil_deep<T: Send>(
    py: Python<'_>,
    f: impl for<'py> FnOnce(Python<'py>) -> PyResult<T> + Send,
) -> PyResult<T> {
    py.allow_threads(|| on_big_stack(|| Python::with_gil(f)))?
}

/// Runs `f` on a new thread with a [`WORKER_STACK`] stack and waits for it.
pub fn on_big_stack<T: Send>(f: impl FnOnce() -> T + Send) -> PyResult<T> {
    std::thread::scope(|s| {
        let worker = std::thread::Builder::new()
            .name("gamewire".into())
            .stack_size(WORKER_STACK)
            .spawn_scoped(s, || {
                // KingsIsle's recursion checks its own stack budget (1 MiB by default).
                gamewire::kingsisle::set_stack_budget(WORKER_STACK / 2);
                f()
            })
            .map_err(|e| {
                pyo3::exceptions::PyMemoryError::new_err(format!(
                    "cannot start a thread with a {} MiB stack for a deeply nested value: {e}",
                    WORKER_STACK >> 20
                ))
            })?;
        Ok(worker
            .join()
            .unwrap_or_else(|p| std::panic::resume_unwind(p)))
    })
}

/// Builds a Python value with `f(py, limit)`, which gives `None` when the value nests
/// deeper than `limit` levels: first on the calling thread with [`INLINE_DEPTH`], then,
/// for a deeper value, again on a thread with a [`WORKER_STACK`] stack with
/// [`WORKER_DEPTH`] (a `ValueError` past it). The collector is paused meanwhile.
pub fn build_deep(
    py: Python<'_>,
    f: impl for<'py> Fn(Python<'py>, usize) -> PyResult<Option<PyObject>> + Sync,
) -> PyResult<PyObject> {
    if let Some(v) = gc_paused(py, || f(py, INLINE_DEPTH))? {
        return Ok(v);
    }
    with_gil_deep(py, |py| {
        gc_paused(py, || f(py, WORKER_DEPTH))?.ok_or_else(|| {
            pyo3::exceptions::PyValueError::new_err(format!(
                "the decoded value nests deeper than {WORKER_DEPTH} levels"
            ))
        })
    })
}

/// Runs `f` (which builds many Python objects) with Python's cyclic garbage collector
/// paused: the objects it makes hold no cycles, and collections triggered by every 700
/// new containers would traverse the growing tree again and again.
pub fn gc_paused<T>(py: Python<'_>, f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    let gc = py.import(pyo3::intern!(py, "gc"))?;
    let enabled: bool = gc.call_method0(pyo3::intern!(py, "isenabled"))?.extract()?;
    if !enabled {
        return f();
    }
    gc.call_method0(pyo3::intern!(py, "disable"))?;
    let r = f();
    gc.call_method0(pyo3::intern!(py, "enable"))?;
    r
}

/// The attribute `name` of the Python module `gamewire.<module>` (the classes and
/// converters of the pure-Python side).
pub fn py_attr<'py>(py: Python<'py>, module: &str, name: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import(format!("gamewire.{module}"))?.getattr(name)
}

/// Detects the format of `data` (file name `name` helps for formats without magic).
/// Returns the format name (`godot3`, `godot4`, `kingsisle`, `zeze`, `resonite`, `o3de`),
/// `"json"` for JSON text, a list of names when several fit, or `None`.
#[pyfunction]
#[pyo3(signature = (data, name=None))]
fn detect(py: Python<'_>, data: &[u8], name: Option<&str>) -> PyResult<PyObject> {
    use gamewire::Detection;
    Ok(match gamewire::identify(data, name) {
        Detection::Found(f) => f.format.name().into_pyobject(py)?.into_any().unbind(),
        Detection::Ambiguous(all) => {
            let names: Vec<&str> = all.iter().map(|f| f.format.name()).collect();
            names.into_pyobject(py)?.into_any().unbind()
        }
        Detection::Json => "json".into_pyobject(py)?.into_any().unbind(),
        Detection::Unknown => py.None(),
    })
}

/// The extension module.
#[pymodule]
fn _gamewire(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("DecodeError", m.py().get_type::<errors::DecodeError>())?;
    m.add_function(wrap_pyfunction!(detect, m)?)?;
    m.add_function(wrap_pyfunction!(files::open, m)?)?;
    m.add_function(wrap_pyfunction!(files::encode_document, m)?)?;
    m.add_class::<files::File>()?;
    type Register = fn(&Bound<'_, PyModule>) -> PyResult<()>;
    let modules: [(&str, Register); 5] = [
        ("godot", godot::register),
        ("kingsisle", kingsisle::register),
        ("o3de", o3de::register),
        ("resonite", resonite::register),
        ("zeze", zeze::register),
    ];
    for (name, register) in modules {
        let sub = PyModule::new(m.py(), name)?;
        register(&sub)?;
        m.add_submodule(&sub)?;
    }
    Ok(())
}
