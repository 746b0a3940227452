//! The stateless API for Python: `leapfrog_wire::local::call` behind PyO3,
//! the interpreter's lock released while the engine works, and `env`:
//! `jump-env`'s environments (`Env`, `Batch`). The package's Python side
//! (`python/leapfrog_engine`) gives each operation its own function,
//! raises `ProblemError` with the problem object, wraps the environments
//! with numpy arrays, and carries the types (`.pyi`).

use pyo3::prelude::*;

mod env;

/// Runs `operation` on the JSON request `body`: `(200, answer)` or
/// `(status, problem)`, both JSON text.
#[pyfunction]
fn call(py: Python<'_>, operation: &str, body: &str) -> (u16, String) {
    py.detach(|| match leapfrog_wire::local::call(operation, body.as_bytes()) {
        Ok(answer) => (200, String::from_utf8_lossy(&answer).into_owned()),
        // A problem is strings and numbers: it always encodes.
        Err(problem) => (problem.status, serde_json::to_string(&*problem).unwrap_or_default()),
    })
}

/// The operations' names.
#[pyfunction]
fn operations() -> Vec<&'static str> {
    leapfrog_wire::local::Operation::ALL.iter().map(|op| op.name()).collect()
}

/// The module `leapfrog_engine._native`.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(call, m)?)?;
    m.add_function(wrap_pyfunction!(operations, m)?)?;
    m.add_class::<env::Env>()?;
    m.add_class::<env::Batch>()?;
    Ok(())
}
