//! Library errors as Python exceptions, with the CLI's messages.

use std::error::Error;
use std::io;

use cairns::movingai::runner::{InstanceError, InstanceErrorKind};
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
    classify(message(error), error)
}

/// `error` as a Python exception whose message starts with `context`
/// (anyhow's `.context()` in the CLI).
pub fn prefixed(context: &str, error: &(dyn Error + 'static)) -> PyErr {
    classify(format!("{context}: {}", message(error)), error)
}

/// A scenario run that could not load its files: the CLI's message, and
/// the exception class of the file error inside (the instance error does
/// not list it as a source).
pub fn instance_to_py(error: &InstanceError) -> PyErr {
    let inner: &(dyn Error + 'static) = match error.kind() {
        InstanceErrorKind::Scen(e) | InstanceErrorKind::Map { error: e, .. } => e,
        InstanceErrorKind::Dir { error: e, .. } => e,
        _ => error,
    };
    classify(message(error), inner)
}

/// `text` as the exception that `error`'s chain calls for.
fn classify(text: String, error: &(dyn Error + 'static)) -> PyErr {
    match io_source(error).map(io::Error::kind) {
        Some(io::ErrorKind::NotFound) => PyFileNotFoundError::new_err(text),
        Some(io::ErrorKind::PermissionDenied) => PyPermissionError::new_err(text),
        Some(_) => PyOSError::new_err(text),
        None => PyValueError::new_err(text),
    }
}
