//! `shuffle`: K random equivalent copies of each puzzle (and of its solution), the copies `sudoku shuffle
//! --copies K` writes for a table of the same rows, with the group of each copy.

use numpy::ndarray::{Ix1, Ix2};
use numpy::PyArrayMethods;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use sudoku_batch::array;
use sudoku_batch::batch::Job;
use sudoku_batch::tools::Copies;
use sudoku_batch::CELLS;

use crate::{array_err, input_arg, interruptible, threads_arg, view, zeros, Boards};

/// The native half of ``sudoku_batch.shuffle``: ``(puzzles, solutions or None, group)``.
#[pyfunction]
#[pyo3(signature = (puzzles, solutions = None, *, copies = 1, seed = 0, keep_original = false, threads = None))]
#[allow(clippy::type_complexity)]
pub(crate) fn shuffle<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    solutions: Option<&Bound<'py, PyAny>>,
    copies: u32,
    seed: u64,
    keep_original: bool,
    threads: Option<i64>,
) -> PyResult<(
    Boards<'py>,
    Option<Boards<'py>>,
    Bound<'py, numpy::PyArray1<i64>>,
)> {
    let threads = threads_arg(threads)?;
    if copies == 0 {
        return Err(PyValueError::new_err("copies must be at least 1"));
    }
    let job = Copies {
        seed,
        copies,
        keep_original,
    };
    let input = input_arg(puzzles, "puzzles")?;
    let claims = solutions.map(|s| input_arg(s, "solutions")).transpose()?;
    let n = input.len();
    if let Some(c) = &claims {
        if c.len() != n {
            return Err(PyValueError::new_err(format!(
                "solutions holds {} boards for {n} puzzles",
                c.len()
            )));
        }
    }
    let k = job.copies() as usize;
    let rows = n
        .checked_mul(k)
        .ok_or_else(|| PyValueError::new_err("too many copies"))?;
    let out = zeros::<u8, Ix2>(py, &[rows, CELLS], "the copies")?;
    let out_solutions = match claims {
        Some(_) => Some(zeros::<u8, Ix2>(
            py,
            &[rows, CELLS],
            "the copies' solutions",
        )?),
        None => None,
    };
    {
        let mut p = out.readwrite();
        let p = p.as_slice_mut()?;
        let mut s = out_solutions.as_ref().map(|s| s.readwrite());
        let s: &mut [u8] = match &mut s {
            Some(s) => s.as_slice_mut()?,
            None => &mut [],
        };
        let v = view(&input)?;
        let c = claims.as_ref().map(view).transpose()?;
        interruptible(py, || array::copies(&v, c.as_ref(), &job, threads, p, s))?
            .map_err(array_err)?;
    }
    let group = zeros::<i64, Ix1>(py, &[rows], "the groups")?;
    {
        let mut g = group.readwrite();
        for (i, g) in g.as_slice_mut()?.iter_mut().enumerate() {
            *g = (i / k) as i64;
        }
    }
    Ok((out, out_solutions, group))
}
