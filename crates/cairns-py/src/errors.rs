//! Library errors as Python exceptions, with the CLI's messages.

use std::error::Error;
use std::io;

use pyo3::PyErr;
use pyo3::exceptions::{PyFileNotFoundError, PyOSError, PyPermissionError, PyValueError};

/// The message the CLI prints for `error` (anyhow's `{:#}`): the error and
/// each of its sources, joined by `": "`.
pub fn message(error: &dyn Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(e) = source {
        text.push_str(": ");
        text.push_str(&e.to_string());
        source = e.source();
    }
    text
}

/// The first I/O error in `error`'s chain of sources, if any.
fn io_source<'a>(error: &'a (dyn Error + 'static)) -> Option<&'a io::Error> {
    let mut next: Option<&(dyn Error + 'static)> = Some(error);
    while let Some(e) = next {
        if let Some(io) = e.downcast_ref::<io::Error>() {
            return Some(io);
        }
        next = e.source();
    }
    None
}

/// `error` as a Python exception: `FileNotFoundError`, `PermissionError`
/// or `OSError` when a file could not be read, `ValueError` for bad input
/// (a malformed file names its path and line).
pub fn to_py(error: &(dyn Error + 'static)) -> PyErr {
    let text = message(error);
    match io_source(error).map(io::Error::kind) {
        Some(io::ErrorKind::NotFound) => PyFileNotFoundError::new_err(text),
        Some(io::ErrorKind::PermissionDenied) => PyPermissionError::new_err(text),
        Some(_) => PyOSError::new_err(text),
        None => PyValueError::new_err(text),
    }
}
