//! `canon`: the canonical form of each puzzle (minlex or pattern-first, as `sudoku canon`), and on request the
//! transform that gives it, as numpy arrays.

use numpy::ndarray::{Ix1, Ix2};
use numpy::PyArrayMethods;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use sudoku_batch::array;
use sudoku_batch::tools::Form;
use sudoku_batch::{FailureKind, CELLS};

use crate::{array_err, filled, input_arg, interruptible, threads_arg, view, zeros};

/// The canonical form of each puzzle (a ``uint8 (N, 81)`` array or a list of strings): a dict of ``canon``
/// (``uint8 (N, 81)``, zeros where the puzzle failed) and ``status`` (``int8``: 0, 1 malformed, 2 clashing
/// givens). ``form`` is ``"minlex"`` (``sudoku canon``) or ``"pattern-first"`` (``sudoku canon
/// --pattern-first``). With ``transforms=True`` also ``transpose`` (``bool (N,)``), ``rows``, ``cols``
/// (``uint8 (N, 9)``) and ``digits`` (``uint8 (N, 10)``): a transform giving the form (the identity where the
/// puzzle failed).
#[pyfunction]
#[pyo3(signature = (puzzles, *, form = "minlex", transforms = false, threads = None))]
pub(crate) fn canon<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    form: &str,
    transforms: bool,
    threads: Option<i64>,
) -> PyResult<Bound<'py, PyDict>> {
    let threads = threads_arg(threads)?;
    let form = match form {
        "minlex" => Form::Minlex,
        "pattern-first" | "pattern_first" => Form::PatternFirst,
        other => {
            return Err(PyValueError::new_err(format!(
                "form must be \"minlex\" or \"pattern-first\", not {other:?}"
            )))
        }
    };
    let input = input_arg(puzzles, "puzzles")?;
    let n = input.len();
    let forms = zeros::<u8, Ix2>(py, &[n, CELLS], "the canonical forms")?;
    let mut found = filled(n, Err(FailureKind::Malformed), "the transforms")?;
    {
        let mut f = forms.readwrite();
        let f = f.as_slice_mut()?;
        let v = view(&input)?;
        interruptible(py, || array::canon(&v, form, threads, f, &mut found))?.map_err(array_err)?;
    }
    let status = zeros::<i8, Ix1>(py, &[n], "the status codes")?;
    {
        let mut s = status.readwrite();
        for (s, r) in s.as_slice_mut()?.iter_mut().zip(&found) {
            *s = array::status(r);
        }
    }
    let d = PyDict::new(py);
    d.set_item("canon", forms)?;
    d.set_item("status", status)?;
    if transforms {
        let transpose = zeros::<bool, Ix1>(py, &[n], "the transforms")?;
        let rows = zeros::<u8, Ix2>(py, &[n, 9], "the transforms")?;
        let cols = zeros::<u8, Ix2>(py, &[n, 9], "the transforms")?;
        let digits = zeros::<u8, Ix2>(py, &[n, 10], "the transforms")?;
        {
            let (mut t, mut r, mut c, mut g) = (
                transpose.readwrite(),
                rows.readwrite(),
                cols.readwrite(),
                digits.readwrite(),
            );
            let (t, r, c, g) = (
                t.as_slice_mut()?,
                r.as_slice_mut()?,
                c.as_slice_mut()?,
                g.as_slice_mut()?,
            );
            for (i, found) in found.iter().enumerate() {
                let parts = match found {
                    Ok(tr) => tr.parts(),
                    Err(_) => (
                        false,
                        std::array::from_fn(|k| k as u8),
                        std::array::from_fn(|k| k as u8),
                        std::array::from_fn(|k| k as u8),
                    ),
                };
                t[i] = parts.0;
                r[9 * i..9 * i + 9].copy_from_slice(&parts.1);
                c[9 * i..9 * i + 9].copy_from_slice(&parts.2);
                g[10 * i..10 * i + 10].copy_from_slice(&parts.3);
            }
        }
        d.set_item("transpose", transpose)?;
        d.set_item("rows", rows)?;
        d.set_item("cols", cols)?;
        d.set_item("digits", digits)?;
    }
    Ok(d)
}
