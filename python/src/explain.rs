//! `explain`: one puzzle's solving path as the object `sudoku explain --json` writes for it (the library's
//! `Narrator` job), without `line` and with the puzzle as given.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use sudoku_batch::batch::Job;
use sudoku_batch::human::{Narrator, Scale};
use sudoku_batch::{Grid, TextLayout};

use crate::interruptible;
use crate::se::max_se_arg;

/// A ``scale`` argument: ``"levels"`` or ``"se"``.
pub(crate) fn scale_arg(scale: &str) -> PyResult<Scale> {
    match scale {
        "levels" => Ok(Scale::Levels),
        "se" => Ok(Scale::Se),
        other => Err(PyValueError::new_err(format!(
            "scale must be \"levels\" or \"se\", not {other:?}"
        ))),
    }
}

/// The native half of ``sudoku_batch.explain``: ``(status, error, fields)``, ``fields`` the JSON object of the
/// rating fields, ``solution`` and ``steps`` (``None`` when the puzzle failed, then ``error`` says why).
#[pyfunction]
#[pyo3(signature = (puzzle, *, scale = "levels", max_se = None))]
pub(crate) fn explain(
    py: Python<'_>,
    puzzle: &str,
    scale: &str,
    max_se: Option<f64>,
) -> PyResult<(&'static str, Option<String>, Option<String>)> {
    let scale = scale_arg(scale)?;
    let max = max_se_arg(max_se)?;
    if max.is_some() && scale != Scale::Se {
        return Err(PyValueError::new_err(
            "max_se explains on SE's scale: add scale=\"se\"",
        ));
    }
    let mut job = Narrator::with_scale(scale);
    if let Some(m) = max {
        job = job.with_se_max(m);
    }
    let answer = interruptible(py, || match Grid::parse_line(puzzle.as_bytes()) {
        Err(e) => Err(sudoku_batch::Failure::Malformed(
            sudoku_batch::RecordError::Cells(e),
        )),
        Ok(grid) => {
            let mut fields = Vec::new();
            job.run(&grid, TextLayout::Json, &mut fields)
                .map(|()| fields)
        }
    })?;
    Ok(match answer {
        // The fields come as `,"KEY":VALUE,...`: made an object.
        Ok(mut fields) => {
            fields[0] = b'{';
            fields.push(b'}');
            let fields =
                String::from_utf8(fields).map_err(|e| PyValueError::new_err(e.to_string()))?;
            ("explained", None, Some(fields))
        }
        Err(f) => (f.kind().key(), Some(f.to_string()), None),
    })
}
