//! Python bindings of cairns: the `cairns_path` package's native module.
//!
//! Conversion and error mapping only: every behaviour is the library's
//! and is tested there. The binding wraps the owning engine
//! ([`cairns::spec::Engine`]), never the borrowing API, so that searchers
//! can leave the GIL and go to other threads. Python's own tests are in
//! `tests/` (pytest, against networkx and the Moving AI suite).

mod convert;
mod engine;
mod errors;
mod graph;
mod grid;
mod movingai;

use pyo3::prelude::*;

/// The native module, `cairns_path._native`; `cairns_path` re-exports it.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<grid::Grid>()?;
    m.add_class::<engine::Engine>()?;
    m.add_class::<graph::Graph>()?;
    m.add_class::<graph::GraphEngine>()?;
    m.add_function(wrap_pyfunction!(movingai::read_map, m)?)?;
    m.add_function(wrap_pyfunction!(movingai::parse_map, m)?)?;
    m.add_function(wrap_pyfunction!(movingai::read_scen, m)?)?;
    m.add_function(wrap_pyfunction!(movingai::run_scen, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
