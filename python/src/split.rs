//! `split`: the side (train, test, validation) `sudoku split` sends each puzzle to, every class on one side.

use numpy::ndarray::Ix1;
use numpy::PyArrayMethods;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use sudoku_batch::array;
use sudoku_batch::tools::Split;
use sudoku_batch::FailureKind;

use crate::texts::texts_arg;
use crate::{array_err, filled, input_arg, interruptible, threads_arg, view, zeros, Texts};

/// The side of each puzzle (a ``uint8 (N, 81)`` array or a list of strings), as ``sudoku split --test TEST --val
/// VAL --seed SEED`` sends the same puzzles in the same order (each stratum's classes ranked together into their
/// fractions, to within a class): a dict of ``side`` (``int8``: 0 train, 1 test, 2 validation, the indices of
/// ``SIDES``; -1 where the puzzle failed) and ``status`` (``int8``: 0, 1 malformed, 2 clashing givens).
/// ``strata``, a list of N strings, stratifies as ``--stratify COLUMN`` does with that column's values.
#[pyfunction]
#[pyo3(signature = (puzzles, *, test, val = 0.0, seed = 0, strata = None, threads = None))]
pub(crate) fn split<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    test: f64,
    val: f64,
    seed: u64,
    strata: Option<&Bound<'py, PyAny>>,
    threads: Option<i64>,
) -> PyResult<Bound<'py, PyDict>> {
    let threads = threads_arg(threads)?;
    let job = Split::new(seed, test, val, strata.is_some())
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let input = input_arg(puzzles, "puzzles")?;
    let n = input.len();
    let strata: Option<Texts> = strata.map(|s| texts_arg(s, "strata")).transpose()?;
    let strata: Option<Vec<&[u8]>> = strata.as_ref().map(Texts::items);
    if let Some(s) = &strata {
        if s.len() != n {
            return Err(PyValueError::new_err(format!(
                "strata holds {} values for {n} puzzles",
                s.len()
            )));
        }
    }
    let mut sides = filled(n, Err(FailureKind::Malformed), "the sides")?;
    {
        let v = view(&input)?;
        interruptible(py, || {
            array::split(&v, &job, strata.as_deref(), threads, &mut sides)
        })?
        .map_err(array_err)?;
    }
    let side = zeros::<i8, Ix1>(py, &[n], "the sides")?;
    let status = zeros::<i8, Ix1>(py, &[n], "the status codes")?;
    {
        let (mut a, mut b) = (side.readwrite(), status.readwrite());
        let (a, b) = (a.as_slice_mut()?, b.as_slice_mut()?);
        for ((a, b), r) in a.iter_mut().zip(b.iter_mut()).zip(&sides) {
            *a = r.map_or(-1, |s| s as i8);
            *b = array::status(r);
        }
    }
    let d = PyDict::new(py);
    d.set_item("side", side)?;
    d.set_item("status", status)?;
    Ok(d)
}
