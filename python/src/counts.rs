//! `rate(..., techniques=True)`: how many steps of each puzzle's path used each technique, as `sudoku rate --json`
//! gives them in `techniques`.

use numpy::ndarray::Ix1;
use numpy::PyArrayMethods;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use sudoku_batch::array;
use sudoku_batch::human::TechniqueCounts;

use crate::explain::scale_arg;
use crate::se::max_se_arg;
use crate::{array_err, filled, input_arg, interruptible, threads_arg, view, zeros};

/// The native half of ``rate(..., techniques=True)``: ``(counts, status)``, ``counts`` a list with, per puzzle, a
/// dict ``{technique name: steps}`` (the techniques used at least once, in the CLI's order) or ``None`` where
/// ``status`` (``int8``) is not 0.
#[pyfunction]
#[pyo3(signature = (puzzles, *, scale = "levels", max_se = None, threads = None))]
pub(crate) fn technique_counts<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    scale: &str,
    max_se: Option<f64>,
    threads: Option<i64>,
) -> PyResult<(Bound<'py, PyList>, Bound<'py, PyAny>)> {
    let scale = scale_arg(scale)?;
    let threads = threads_arg(threads)?;
    let max = max_se_arg(max_se)?;
    let input = input_arg(puzzles, "puzzles")?;
    let n = input.len();
    let mut counts: Vec<Option<TechniqueCounts>> = filled(n, None, "the technique counts")?;
    let status = zeros::<i8, Ix1>(py, &[n], "the status codes")?;
    {
        let mut s = status.readwrite();
        let s = s.as_slice_mut()?;
        let v = view(&input)?;
        interruptible(py, || {
            array::technique_counts(&v, scale, max, threads, &mut counts, s)
        })?
        .map_err(array_err)?;
    }
    let list = PyList::empty(py);
    for c in counts {
        match c {
            Some(c) => {
                let d = PyDict::new(py);
                for (name, k) in c {
                    d.set_item(name, k)?;
                }
                list.append(d)?;
            }
            None => list.append(py.None())?,
        }
    }
    Ok((list, status.into_any()))
}
