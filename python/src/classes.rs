//! `classes`: each puzzle's equivalence class numbered in order of first appearance (the classes of `sudoku
//! dedupe` and `export`'s `group.npy`); the package's `dedupe` keeps the first of each.

use numpy::ndarray::Ix1;
use numpy::PyArrayMethods;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use sudoku_batch::array;

use crate::{array_err, input_arg, interruptible, threads_arg, view, zeros};

/// The class of each puzzle (a ``uint8 (N, 81)`` array or a list of strings): a dict of ``group`` (``int64``,
/// classes numbered from 0 in order of first appearance, -1 where the puzzle failed) and ``status`` (``int8``: 0,
/// 1 malformed, 2 clashing givens).
#[pyfunction]
#[pyo3(signature = (puzzles, *, threads = None))]
pub(crate) fn classes<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    threads: Option<i64>,
) -> PyResult<Bound<'py, PyDict>> {
    let threads = threads_arg(threads)?;
    let input = input_arg(puzzles, "puzzles")?;
    let n = input.len();
    let group = zeros::<i64, Ix1>(py, &[n], "the groups")?;
    let status = zeros::<i8, Ix1>(py, &[n], "the status codes")?;
    {
        let (mut g, mut s) = (group.readwrite(), status.readwrite());
        let (g, s) = (g.as_slice_mut()?, s.as_slice_mut()?);
        let v = view(&input)?;
        interruptible(py, || array::classes(&v, threads, g, s))?.map_err(array_err)?;
    }
    let d = PyDict::new(py);
    d.set_item("group", group)?;
    d.set_item("status", status)?;
    Ok(d)
}
