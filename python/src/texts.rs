//! Puzzle strings from Python, read once into one buffer: the `Texts` of the string calls (`solve`, and
//! `count_solutions` and `rate` given a list). Each string's text is copied and no Python object is kept per
//! puzzle, so the batch holds its own bytes (the strings may change or go once it is read) and memory grows by
//! the text and an offset per puzzle.

use pyo3::exceptions::{PyMemoryError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyString};

use sudoku_batch::array::Puzzles;
use sudoku_batch::{Grid, ParseError, CELLS};

/// Puzzle texts, end to end in `text`: puzzle `i` is `text[ends[i - 1]..ends[i]]` (from 0 for the first).
pub(crate) struct Texts {
    text: Vec<u8>,
    ends: Vec<usize>,
}

impl Puzzles for Texts {
    fn len(&self) -> usize {
        self.ends.len()
    }

    fn puzzle(&self, i: usize) -> Result<Grid, ParseError> {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        Grid::parse_line(&self.text[start..self.ends[i]])
    }
}

/// Reads `obj`, an iterable of `str`, into [`Texts`]. Refuses one `str` or `bytes` (a common slip) with a
/// `TypeError` that says so, an item that is not a `str` with a `TypeError` naming its index, a `str` that is not
/// valid text (a lone surrogate) with a `ValueError` naming its index, and raises `MemoryError` when the buffer
/// cannot grow.
pub(crate) fn texts_arg(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Texts> {
    if obj.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(format!(
            "{name} must be a list of puzzle strings, not one string (wrap it in a list)"
        )));
    }
    if obj.is_instance_of::<PyBytes>() || obj.is_instance_of::<PyByteArray>() {
        return Err(PyTypeError::new_err(format!(
            "{name} must be a list of puzzle strings, not {} (decode it, and wrap it in a list)",
            type_name(obj)
        )));
    }
    let iter = obj.try_iter().map_err(|_| {
        PyTypeError::new_err(format!(
            "{name} must be a list of puzzle strings or a uint8 array, not {}",
            type_name(obj)
        ))
    })?;
    let expected = obj.len().unwrap_or(0);
    let mut texts = Texts {
        text: Vec::new(),
        ends: Vec::new(),
    };
    grow(&mut texts.ends, expected)?;
    grow(&mut texts.text, expected.saturating_mul(CELLS))?;
    for (i, item) in iter.enumerate() {
        let item = item?;
        let Ok(s) = item.downcast::<PyString>() else {
            return Err(PyTypeError::new_err(format!(
                "{name}[{i}] must be a string, not {}",
                type_name(&item)
            )));
        };
        // The stable ABI of Python 3.9 has no view of a str's UTF-8 text: it is encoded into a bytes object
        // that is dropped at once (so the interpreter's allocator reuses its memory for the next one).
        let text = s
            .encode_utf8()
            .map_err(|e| PyValueError::new_err(format!("{name}[{i}] is not valid text: {e}")))?;
        let text = text.as_bytes();
        grow(&mut texts.text, text.len())?;
        texts.text.extend_from_slice(text);
        grow(&mut texts.ends, 1)?;
        texts.ends.push(texts.text.len());
    }
    Ok(texts)
}

/// Room for `more` items in `v`, or `MemoryError`.
fn grow<T>(v: &mut Vec<T>, more: usize) -> PyResult<()> {
    v.try_reserve(more).map_err(|_| {
        PyMemoryError::new_err(format!(
            "cannot hold the puzzle strings: {} more bytes",
            more.saturating_mul(std::mem::size_of::<T>())
        ))
    })
}

fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_default()
}

impl Texts {
    /// Each text's bytes, in order.
    pub(crate) fn items(&self) -> Vec<&[u8]> {
        let mut start = 0;
        self.ends
            .iter()
            .map(|&end| {
                let item = &self.text[start..end];
                start = end;
                item
            })
            .collect()
    }
}
