//! `check`: each claimed solution checked against its puzzle, with the verdicts of `sudoku check`.

use numpy::ndarray::Ix1;
use numpy::PyArrayMethods;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use sudoku_batch::array;

use crate::{array_err, filled, input_arg, interruptible, threads_arg, view, zeros};

/// Checks ``solutions[i]`` against ``puzzles[i]`` (each a ``uint8 (N, 81)`` array or a list of strings) as
/// ``sudoku check`` does (``unique=True``: ``--unique``). Returns a dict of ``status`` (``int8``: 0 ok, 1 the
/// puzzle is malformed, 2 its givens clash, 4 it has several solutions (with ``unique``), 5 the solution is
/// wrong) and ``error``: a list with ``None`` where the check passed, else the CLI's reason (``invalid solution:
/// row 3 has two 5s (r3c1, r3c4)``, ``solution changes given r2c7``, ...).
#[pyfunction]
#[pyo3(signature = (puzzles, solutions, *, unique = false, threads = None))]
pub(crate) fn check<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    solutions: &Bound<'py, PyAny>,
    unique: bool,
    threads: Option<i64>,
) -> PyResult<Bound<'py, PyDict>> {
    let threads = threads_arg(threads)?;
    let input = input_arg(puzzles, "puzzles")?;
    let claims = input_arg(solutions, "solutions")?;
    let n = input.len();
    if claims.len() != n {
        return Err(PyValueError::new_err(format!(
            "solutions holds {} boards for {n} puzzles",
            claims.len()
        )));
    }
    let mut verdicts = filled(n, Ok(()), "the verdicts")?;
    {
        let (p, s) = (view(&input)?, view(&claims)?);
        interruptible(py, || array::check(&p, &s, unique, threads, &mut verdicts))?
            .map_err(array_err)?;
    }
    let status = zeros::<i8, Ix1>(py, &[n], "the status codes")?;
    {
        let mut s = status.readwrite();
        for (s, v) in s.as_slice_mut()?.iter_mut().zip(&verdicts) {
            *s = match v {
                Ok(()) => array::OK,
                Err(f) => array::code(f.kind()),
            };
        }
    }
    let errors = verdicts
        .iter()
        .map(|v| v.as_ref().err().map(ToString::to_string));
    let d = PyDict::new(py);
    d.set_item("status", status)?;
    d.set_item("error", PyList::new(py, errors)?)?;
    Ok(d)
}
