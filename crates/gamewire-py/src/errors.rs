//! `gamewire.DecodeError`: a `ValueError` carrying the byte offset and the path.

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

create_exception!(
    gamewire,
    DecodeError,
    PyValueError,
    "Bad input: `.offset` is the byte offset (or None), `.path` the value path (`$...`)."
);

/// Turns a gamewire error into a `DecodeError` with `.offset` and `.path` set.
pub fn to_py(py: Python<'_>, e: gamewire_core::Error) -> PyErr {
    let err = DecodeError::new_err(e.to_string());
    let value = err.value(py);
    let _ = value.setattr("offset", e.offset());
    let _ = value.setattr("path", e.path_string());
    err
}
