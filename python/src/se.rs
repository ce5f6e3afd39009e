//! `rate(scale="se")`: Sudoku Explainer's ER, EP and ED of each puzzle, as `sudoku rate --scale se`; and the
//! `max_se` argument it shares with `explain`.

use numpy::ndarray::Ix1;
use numpy::PyArrayMethods;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use sudoku_batch::array;
use sudoku_batch::human::{SeRating, Tenths};

use crate::{array_err, filled, input_arg, interruptible, threads_arg, view, zeros};

/// `max_se`, a rating from 1.0 to 25.5 with one decimal (as `--max-se X`), in tenths.
pub(crate) fn max_se_arg(max_se: Option<f64>) -> PyResult<Option<Tenths>> {
    max_se
        .map(|x| {
            let tenths = (x * 10.0).round();
            if (10.0..=255.0).contains(&tenths) && (x * 10.0 - tenths).abs() < 1e-6 {
                Ok(Tenths(tenths as u8))
            } else {
                Err(PyValueError::new_err(format!(
                    "max_se must be a rating from 1.0 to 25.5 with one decimal, not {x}"
                )))
            }
        })
        .transpose()
}

/// A rating in tenths as a float (``2.3``), NaN when unknown.
fn rating(t: Option<Tenths>) -> f64 {
    t.map_or(f64::NAN, |t| f64::from(t.0) / 10.0)
}

/// The native half of ``sudoku_batch.rate(..., scale="se")``: a dict of ``er``, ``ep``, ``ed`` (``float64``,
/// NaN where unknown), ``above`` (``float64``: what an unknown rating is above, NaN where the path was
/// complete), ``hardest`` (a list of SE technique names of ER's step, ``None`` where none or ER is unknown, as the
/// CLI writes it), ``steps`` (``int32``) and
/// ``status`` (``int8``); where ``status`` is not 0 every rating is NaN and ``steps`` -1.
#[pyfunction]
#[pyo3(signature = (puzzles, *, max_se = None, threads = None))]
pub(crate) fn rate_se<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    max_se: Option<f64>,
    threads: Option<i64>,
) -> PyResult<Bound<'py, PyDict>> {
    let threads = threads_arg(threads)?;
    let max = max_se_arg(max_se)?;
    let input = input_arg(puzzles, "puzzles")?;
    let n = input.len();
    let mut ratings: Vec<Option<SeRating>> = filled(n, None, "the ratings")?;
    let status = zeros::<i8, Ix1>(py, &[n], "the status codes")?;
    {
        let mut s = status.readwrite();
        let s = s.as_slice_mut()?;
        let v = view(&input)?;
        interruptible(py, || array::rate_se(&v, max, threads, &mut ratings, s))?
            .map_err(array_err)?;
    }
    let columns: [Bound<'py, numpy::PyArray1<f64>>; 4] = [
        zeros::<f64, Ix1>(py, &[n], "the ratings")?,
        zeros::<f64, Ix1>(py, &[n], "the ratings")?,
        zeros::<f64, Ix1>(py, &[n], "the ratings")?,
        zeros::<f64, Ix1>(py, &[n], "the ratings")?,
    ];
    let steps = zeros::<i32, Ix1>(py, &[n], "the step counts")?;
    {
        let mut w: Vec<_> = columns.iter().map(|c| c.readwrite()).collect();
        let mut st = steps.readwrite();
        let st = st.as_slice_mut()?;
        let [er, ep, ed, above] = &mut w[..] else {
            unreachable!("four columns")
        };
        let (er, ep, ed, above) = (
            er.as_slice_mut()?,
            ep.as_slice_mut()?,
            ed.as_slice_mut()?,
            above.as_slice_mut()?,
        );
        for (i, r) in ratings.iter().enumerate() {
            (er[i], ep[i], ed[i], above[i], st[i]) = match r {
                Some(r) => (
                    rating(r.er),
                    rating(r.ep),
                    rating(r.ed),
                    if r.er.is_some() {
                        f64::NAN
                    } else {
                        rating(Some(r.ceiling))
                    },
                    r.steps as i32,
                ),
                None => (f64::NAN, f64::NAN, f64::NAN, f64::NAN, -1),
            };
        }
    }
    let hardest = ratings
        .iter()
        .map(|r| r.and_then(|r| r.er.and(r.hardest)).map(|t| t.name()));
    let d = PyDict::new(py);
    let [er, ep, ed, above] = columns;
    d.set_item("er", er)?;
    d.set_item("ep", ep)?;
    d.set_item("ed", ed)?;
    d.set_item("above", above)?;
    d.set_item("hardest", PyList::new(py, hardest)?)?;
    d.set_item("steps", steps)?;
    d.set_item("status", status)?;
    Ok(d)
}
