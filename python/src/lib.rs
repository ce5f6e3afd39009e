//! The extension module `sudoku_batch._native`: converts numpy arrays and Python strings at the edge, releases the
//! GIL for the whole of every batch, and calls the library (`sudoku_batch::array`, `generate`, `batch`). It makes
//! no Python object per puzzle on the array path. The Python package `sudoku_batch` wraps it (`Status`, the
//! summary dict of `solve_file`, the Spark helpers).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use numpy::ndarray::{ArrayView2, Dimension, Ix1, Ix2};
use numpy::{
    Element, PyArray, PyArray1, PyArray2, PyArrayDescrMethods, PyArrayMethods, PyReadonlyArray2,
    PyUntypedArray, PyUntypedArrayMethods,
};
use pyo3::exceptions::{PyMemoryError, PyOSError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};

use sudoku_batch::array::{self, ArrayError, Cells, GeneratePuzzlesError, Puzzles};
use sudoku_batch::batch::{self, BatchError, InputSpec};
use sudoku_batch::generate::{
    self, CluePattern, GenerateError, Goal, Method, PuzzleOptions, SeWindow, SeWindows, Symmetry,
};
use sudoku_batch::human::{Level, Rating, Technique};
use sudoku_batch::output::Target;
use sudoku_batch::tools::{Side, Solve};
use sudoku_batch::{Failure, FailureKind, Observer, Position};
use sudoku_batch::{Format, Grid, ParseError, Threads, CELLS, MAX_THREADS};

mod canon;
mod check;
mod classes;
mod counts;
mod explain;
mod se;
mod shuffle;
mod split;
mod texts;
use texts::{texts_arg, Texts};

/// A `uint8 (N, 81)` array of boards.
pub(crate) type Boards<'py> = Bound<'py, PyArray2<u8>>;

/// `threads=None` (one per core) or a count from 1 to `MAX_THREADS`, by the library's rule.
pub(crate) fn threads_arg(threads: Option<i64>) -> PyResult<Threads> {
    match threads {
        None => Ok(Threads::Auto),
        Some(n) => usize::try_from(n)
            .ok()
            .and_then(|n| Threads::count(n).ok())
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "the thread count must be a whole number from 1 to {MAX_THREADS}, not {n}"
                ))
            }),
    }
}

/// Rows of a 2-D array in any memory layout (strided, reversed): each row is copied into a board when read.
pub(crate) struct Rows<'a>(ArrayView2<'a, u8>);

impl Puzzles for Rows<'_> {
    fn len(&self) -> usize {
        self.0.nrows()
    }

    fn puzzle(&self, i: usize) -> Result<Grid, ParseError> {
        let mut cells = [0u8; CELLS];
        for (c, &v) in cells.iter_mut().zip(self.0.row(i)) {
            *c = v;
        }
        Grid::from_cells(cells)
    }
}

/// A batch argument: a `uint8 (N, 81)` array or an iterable of strings.
pub(crate) enum Input<'py> {
    Array(PyReadonlyArray2<'py, u8>),
    Texts(Texts),
}

impl Input<'_> {
    pub(crate) fn len(&self) -> usize {
        match self {
            Input::Array(a) => a.as_array().nrows(),
            Input::Texts(t) => t.len(),
        }
    }
}

/// The puzzles of an [`Input`] as the library reads them, for a call that runs without the GIL.
pub(crate) enum View<'a> {
    Cells(Cells<'a>),
    Rows(Rows<'a>),
    Texts(&'a Texts),
}

impl Puzzles for View<'_> {
    fn len(&self) -> usize {
        match self {
            View::Cells(c) => c.len(),
            View::Rows(r) => r.len(),
            View::Texts(t) => t.len(),
        }
    }

    fn puzzle(&self, i: usize) -> Result<Grid, ParseError> {
        match self {
            View::Cells(c) => c.puzzle(i),
            View::Rows(r) => r.puzzle(i),
            View::Texts(t) => t.puzzle(i),
        }
    }
}

/// The [`View`] of `input`: a contiguous array read in place, any other layout row by row.
pub(crate) fn view<'a>(input: &'a Input<'_>) -> PyResult<View<'a>> {
    Ok(match input {
        Input::Array(a) => match a.as_slice() {
            Ok(cells) => View::Cells(Cells::new(cells).map_err(array_err)?),
            Err(_) => View::Rows(Rows(a.as_array())),
        },
        Input::Texts(t) => View::Texts(t),
    })
}

/// Checks that `obj` is a numpy `uint8` array of shape `(N, 81)`.
pub(crate) fn grids_arg<'py>(
    obj: &Bound<'py, PyAny>,
    name: &str,
) -> PyResult<PyReadonlyArray2<'py, u8>> {
    let Ok(arr) = obj.downcast::<PyUntypedArray>() else {
        return Err(PyTypeError::new_err(format!(
            "{name} must be a numpy uint8 array of shape (N, 81), not {}",
            obj.get_type().name()?
        )));
    };
    let dtype = arr.dtype();
    let shape = arr.shape();
    if !dtype.is_equiv_to(&numpy::dtype::<u8>(obj.py())) || shape.len() != 2 || shape[1] != CELLS {
        let shape: Vec<String> = shape.iter().map(usize::to_string).collect();
        let comma = if shape.len() == 1 { "," } else { "" };
        return Err(PyValueError::new_err(format!(
            "{name} must be a numpy uint8 array of shape (N, 81), got dtype {} and shape ({}{comma})",
            dtype.str()?,
            shape.join(", ")
        )));
    }
    Ok(obj.downcast::<PyArray2<u8>>()?.readonly())
}

/// Reads a batch argument: an array goes through [`grids_arg`]; anything else must iterate over strings.
pub(crate) fn input_arg<'py>(obj: &Bound<'py, PyAny>, name: &str) -> PyResult<Input<'py>> {
    if obj.downcast::<PyUntypedArray>().is_ok() {
        let arr = obj.downcast::<PyUntypedArray>()?;
        // An array of strings is a list of texts too.
        if arr.ndim() == 1 && arr.dtype().kind() == b'U' {
            return texts_arg(obj, name).map(Input::Texts);
        }
        return grids_arg(obj, name).map(Input::Array);
    }
    texts_arg(obj, name).map(Input::Texts)
}

/// Runs `f` without the GIL on a thread of its own while this thread checks for signals every 20 ms: when a
/// handler raises (Ctrl-C's `KeyboardInterrupt`), the library's stop flag of the call is set
/// (`sudoku_batch::with_stop`), the call ends within milliseconds (a file output is not created, nor an earlier one
/// replaced), and the exception is raised.
pub(crate) fn interruptible<T: Send>(py: Python<'_>, f: impl FnOnce() -> T + Send) -> PyResult<T> {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    let mut raised = None;
    let done = py.allow_threads(|| {
        let waiter = std::thread::current();
        std::thread::scope(|scope| {
            let worker = scope.spawn(move || {
                let out = sudoku_batch::with_stop(flag, f);
                waiter.unpark();
                out
            });
            while !worker.is_finished() {
                std::thread::park_timeout(Duration::from_millis(20));
                if raised.is_none() {
                    if let Err(e) = Python::with_gil(|py| py.check_signals()) {
                        stop.store(true, Ordering::Relaxed);
                        raised = Some(e);
                    }
                }
            }
            worker.join()
        })
    });
    match (raised, done) {
        (Some(e), _) => Err(e),
        (None, Ok(out)) => Ok(out),
        (None, Err(panic)) => std::panic::resume_unwind(panic),
    }
}

/// A zeroed buffer of `n` items, or `MemoryError` before anything is allocated when it cannot be had.
pub(crate) fn zeroed<T: Clone + Default>(n: usize, what: &str) -> PyResult<Vec<T>> {
    filled(n, T::default(), what)
}

/// A buffer of `n` copies of `value`, or `MemoryError` before anything is allocated when it cannot be had.
pub(crate) fn filled<T: Clone>(n: usize, value: T, what: &str) -> PyResult<Vec<T>> {
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| {
        PyMemoryError::new_err(format!(
            "cannot allocate {what}: {n} items of {} bytes",
            std::mem::size_of::<T>()
        ))
    })?;
    v.resize(n, value);
    Ok(v)
}

/// A new numpy array of `shape` filled with zeros, or `MemoryError` when it cannot be had: a size past what an
/// array can address is refused before asking, and numpy's own `MemoryError` comes through. The memory is the
/// system's zeroed pages, taken as they are first written, so a large result costs nothing before the call fills
/// it (and a call stopped early never touches the rest).
pub(crate) fn zeros<'py, T: Element, D: Dimension>(
    py: Python<'py>,
    shape: &[usize],
    what: &str,
) -> PyResult<Bound<'py, PyArray<T, D>>> {
    let fits = shape
        .iter()
        .try_fold(std::mem::size_of::<T>(), |bytes, &d| bytes.checked_mul(d))
        .is_some_and(|bytes| isize::try_from(bytes).is_ok());
    if !fits {
        return Err(PyMemoryError::new_err(format!(
            "cannot allocate {what}: an array of shape {shape:?} is larger than memory can address"
        )));
    }
    let array = py
        .import("numpy")?
        .getattr("zeros")?
        .call1((PyTuple::new(py, shape)?, numpy::dtype::<T>(py)))?;
    Ok(array.downcast_into::<PyArray<T, D>>()?)
}

/// Puzzles `start..start + len` of another batch.
struct Part<'a> {
    all: &'a dyn Puzzles,
    start: usize,
    len: usize,
}

impl Puzzles for Part<'_> {
    fn len(&self) -> usize {
        self.len
    }

    fn puzzle(&self, i: usize) -> Result<Grid, ParseError> {
        self.all.puzzle(self.start + i)
    }
}

/// Puzzles `rate` rates at a time: its ratings are made in blocks of this many and copied into the result arrays,
/// so the call needs no memory per puzzle besides its results.
const RATE_BLOCK: usize = 1 << 16;

/// Runs `f` on the puzzles of `input` with the GIL released.
pub(crate) fn with_puzzles<T: Send>(
    py: Python<'_>,
    input: &Input<'_>,
    f: impl FnOnce(&dyn Puzzles) -> Result<T, ArrayError> + Send,
) -> PyResult<T> {
    let out = match input {
        Input::Array(a) => {
            let view = a.as_array();
            interruptible(py, || match view.as_slice() {
                Some(cells) => f(&Cells::new(cells)?),
                None => f(&Rows(view)),
            })?
        }
        Input::Texts(t) => interruptible(py, || f(t))?,
    };
    out.map_err(array_err)
}

pub(crate) fn array_err(e: ArrayError) -> PyErr {
    match e {
        ArrayError::Threads(_) => PyRuntimeError::new_err(e.to_string()),
        _ => PyValueError::new_err(e.to_string()),
    }
}

/// Solves every row of ``grids``, a numpy ``uint8`` array of shape ``(N, 81)`` (0 for a blank, 1-9 for a given;
/// any memory layout). Returns ``(solutions, status)``: ``solutions`` a new ``uint8 (N, 81)`` array (all zeros
/// where a puzzle failed) and ``status`` an ``int8 (N,)`` array of ``Status`` codes. With ``unique=True`` a
/// puzzle with more than one solution fails with ``Status.SEVERAL_SOLUTIONS``. Runs without the GIL on
/// ``threads`` threads (``None``: one per core). Memory: the two result arrays and a constant.
#[pyfunction]
#[pyo3(signature = (grids, *, unique = false, threads = None))]
fn solve_array<'py>(
    py: Python<'py>,
    grids: &Bound<'py, PyAny>,
    unique: bool,
    threads: Option<i64>,
) -> PyResult<(Boards<'py>, Bound<'py, PyArray1<i8>>)> {
    let threads = threads_arg(threads)?;
    let input = Input::Array(grids_arg(grids, "grids")?);
    let n = input.len();
    let solutions = zeros::<u8, Ix2>(py, &[n, CELLS], "the solutions")?;
    let status = zeros::<i8, Ix1>(py, &[n], "the status codes")?;
    {
        let (mut s, mut c) = (solutions.readwrite(), status.readwrite());
        let (s, c) = (s.as_slice_mut()?, c.as_slice_mut()?);
        with_puzzles(py, &input, |p| array::solve(p, unique, threads, s, c))?;
    }
    Ok((solutions, status))
}

/// Solves every puzzle string of ``puzzles`` (81 characters, ``0`` or ``.`` for blanks, surrounding whitespace
/// ignored). Returns a list of the same length: the 81-digit solution, or ``None`` where the puzzle failed
/// (use ``solve_array`` to learn why). Runs without the GIL once the strings are read.
#[pyfunction]
#[pyo3(signature = (puzzles, *, unique = false, threads = None))]
fn solve<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    unique: bool,
    threads: Option<i64>,
) -> PyResult<Bound<'py, PyList>> {
    let threads = threads_arg(threads)?;
    let input = Input::Texts(texts_arg(puzzles, "puzzles")?);
    let n = input.len();
    let mut solutions = zeroed::<u8>(n.saturating_mul(CELLS), "the solutions")?;
    let mut status = zeroed::<i8>(n, "the status codes")?;
    with_puzzles(py, &input, |p| {
        array::solve(p, unique, threads, &mut solutions, &mut status)?;
        for d in &mut solutions {
            *d += b'0';
        }
        Ok(())
    })?;
    let items = solutions
        .chunks_exact(CELLS)
        .zip(&status)
        .map(|(s, &code)| {
            (code == array::OK)
                .then(|| std::str::from_utf8(s).map(|s| PyString::new(py, s)))
                .transpose()
        })
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    PyList::new(py, items)
}

/// Counts the solutions of each puzzle up to ``limit`` (1 or more; a count equal to ``limit`` means the search
/// stopped there). ``puzzles`` is a ``uint8 (N, 81)`` array
/// (the result is an ``int64`` array) or a list of puzzle strings (the result is a list of ints). 0 means no
/// solution; a puzzle that cannot be counted gets minus its ``Status`` code: -1 malformed, -2 clashing givens.
#[pyfunction]
#[pyo3(signature = (puzzles, *, limit = 2, threads = None))]
fn count_solutions<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    limit: u64,
    threads: Option<i64>,
) -> PyResult<Bound<'py, PyAny>> {
    let threads = threads_arg(threads)?;
    if limit == 0 {
        return Err(PyValueError::new_err(
            "limit must be at least 1 (the count stops at limit solutions)",
        ));
    }
    let input = input_arg(puzzles, "puzzles")?;
    let n = input.len();
    match input {
        Input::Array(_) => {
            let counts = zeros::<i64, Ix1>(py, &[n], "the counts")?;
            {
                let mut c = counts.readwrite();
                let c = c.as_slice_mut()?;
                with_puzzles(py, &input, |p| array::count(p, limit, threads, c))?;
            }
            Ok(counts.into_any())
        }
        Input::Texts(_) => {
            let mut counts = zeroed::<i64>(n, "the counts")?;
            with_puzzles(py, &input, |p| array::count(p, limit, threads, &mut counts))?;
            Ok(PyList::new(py, counts)?.into_any())
        }
    }
}

/// Rates each puzzle (a ``uint8 (N, 81)`` array or a list of strings) like ``sudoku rate``. Returns a dict of
/// numpy arrays of length N: ``level`` (int8 index into ``LEVELS``), ``score`` (int32), ``guesses`` (int32),
/// ``hardest`` (int8 index into ``TECHNIQUES``, -1 when none was needed) and ``status`` (int8 ``Status`` codes;
/// a puzzle must have exactly one solution to be rated). Where ``status`` is not 0 the other fields are -1.
#[pyfunction]
#[pyo3(signature = (puzzles, *, threads = None))]
fn rate<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    threads: Option<i64>,
) -> PyResult<Bound<'py, PyDict>> {
    let threads = threads_arg(threads)?;
    let input = input_arg(puzzles, "puzzles")?;
    let n = input.len();
    let level = zeros::<i8, Ix1>(py, &[n], "the levels")?;
    let score = zeros::<i32, Ix1>(py, &[n], "the scores")?;
    let guesses = zeros::<i32, Ix1>(py, &[n], "the guess counts")?;
    let hardest = zeros::<i8, Ix1>(py, &[n], "the hardest techniques")?;
    let status = zeros::<i8, Ix1>(py, &[n], "the status codes")?;
    {
        let mut out = (
            level.readwrite(),
            score.readwrite(),
            guesses.readwrite(),
            hardest.readwrite(),
            status.readwrite(),
        );
        let (level, score, guesses, hardest, status) = (
            out.0.as_slice_mut()?,
            out.1.as_slice_mut()?,
            out.2.as_slice_mut()?,
            out.3.as_slice_mut()?,
            out.4.as_slice_mut()?,
        );
        with_puzzles(py, &input, |p| {
            let mut ratings: Vec<Option<Rating>> = vec![None; RATE_BLOCK.min(n)];
            for start in (0..n).step_by(RATE_BLOCK) {
                let len = RATE_BLOCK.min(n - start);
                let part = Part { all: p, start, len };
                let end = start + len;
                array::rate(&part, threads, &mut ratings[..len], &mut status[start..end])?;
                for (i, r) in (start..end).zip(&ratings) {
                    (level[i], score[i], guesses[i], hardest[i]) = match r {
                        Some(r) => (
                            r.level as i8,
                            r.score as i32,
                            r.guesses as i32,
                            r.hardest.map_or(-1, |t| t.index() as i8),
                        ),
                        None => (-1, -1, -1, -1),
                    };
                }
            }
            Ok(())
        })?;
    }
    let d = PyDict::new(py);
    d.set_item("level", level)?;
    d.set_item("score", score)?;
    d.set_item("guesses", guesses)?;
    d.set_item("hardest", hardest)?;
    d.set_item("status", status)?;
    Ok(d)
}

/// ``n`` distinct solved boards as a ``uint8 (n, 81)`` array, the same boards as ``sudoku generate N`` writes for
/// the same ``seed``, ``random`` and ``first`` options, whatever ``threads`` is.
#[pyfunction]
#[pyo3(signature = (n, *, seed = 0, random = false, first = None, threads = None))]
fn generate_boards(
    py: Python<'_>,
    n: u64,
    seed: u64,
    random: bool,
    first: Option<u8>,
    threads: Option<i64>,
) -> PyResult<Bound<'_, PyArray2<u8>>> {
    let mut opts = generate::BoardOptions::new(n);
    opts.method = if random {
        Method::Random
    } else {
        Method::Pattern
    };
    opts.first = first;
    opts.seed = seed;
    opts.threads = threads_arg(threads)?;
    // Check the options before taking memory for an impossible run.
    generate::check(&opts).map_err(generate_err)?;
    let rows = usize::try_from(n)
        .map_err(|_| PyMemoryError::new_err(format!("cannot allocate the boards: {n} boards")))?;
    let boards = zeros::<u8, Ix2>(py, &[rows, CELLS], "the boards")?;
    {
        let mut cells = boards.readwrite();
        let cells = cells.as_slice_mut()?;
        interruptible(py, || generate::generate_cells(&opts, cells))?.map_err(generate_err)?;
    }
    Ok(boards)
}

fn generate_err(e: GenerateError) -> PyErr {
    match e {
        GenerateError::OverCapacity { .. } => {
            PyValueError::new_err(format!("{e} (use random=True for more)"))
        }
        GenerateError::Threads(_) => PyRuntimeError::new_err(e.to_string()),
        GenerateError::CheckMemory { .. } => PyMemoryError::new_err(e.to_string()),
        _ => PyValueError::new_err(e.to_string()),
    }
}

/// ``n`` puzzles with exactly one solution, the same ones as ``sudoku generate --puzzles N`` writes for the same
/// ``seed``, ``difficulty`` (``"simple"``, ``"easy"``, ``"intermediate"``, ``"expert"``), ``symmetry``
/// (``"none"``, ``"rotate180"``, ``"rotate90"``, ``"mirror"``, ``"diagonal"``), ``clues`` (17-81; not with
/// ``difficulty``), Sudoku Explainer windows ``er``, ``ep``, ``ed`` (``(min, max)``, 1.0 to 11.9 with one
/// decimal, as ``--er MIN..MAX``) and ``pattern`` (81 characters of ``x`` and ``.``: the clues' cells). Returns
/// ``(puzzles, solutions)``, two ``uint8 (n, 81)`` arrays (0 for a blank).
#[pyfunction]
#[pyo3(signature = (n, *, seed = 0, difficulty = None, symmetry = None, clues = None, er = None, ep = None,
                    ed = None, pattern = None, threads = None))]
#[allow(clippy::too_many_arguments)]
fn generate_puzzles<'py>(
    py: Python<'py>,
    n: usize,
    seed: u64,
    difficulty: Option<&str>,
    symmetry: Option<&str>,
    clues: Option<usize>,
    er: Option<(f64, f64)>,
    ep: Option<(f64, f64)>,
    ed: Option<(f64, f64)>,
    pattern: Option<&str>,
    threads: Option<i64>,
) -> PyResult<(Boards<'py>, Boards<'py>)> {
    let threads = threads_arg(threads)?;
    let goal = match (clues, difficulty) {
        (Some(_), Some(_)) => {
            return Err(PyValueError::new_err(
                "clues and difficulty cannot be used together",
            ))
        }
        (Some(k), None) => Goal::Clues(k),
        (None, Some(l)) => Goal::Level(
            l.parse::<Level>()
                .map_err(|e| PyValueError::new_err(e.to_string()))?,
        ),
        (None, None) => Goal::Minimal,
    };
    let symmetry = match symmetry {
        None => Symmetry::default(),
        Some(s) => s
            .parse::<Symmetry>()
            .map_err(|e| PyValueError::new_err(e.to_string()))?,
    };
    let options = PuzzleOptions {
        goal,
        symmetry,
        se: SeWindows {
            er: window_arg("er", er)?,
            ep: window_arg("ep", ep)?,
            ed: window_arg("ed", ed)?,
        },
        pattern: pattern
            .map(|p| p.parse::<CluePattern>())
            .transpose()
            .map_err(|e| PyValueError::new_err(format!("pattern: {e}")))?,
        ..PuzzleOptions::default()
    };
    // Options that cannot be met are refused before any memory is taken.
    options
        .check()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let puzzles = zeros::<u8, Ix2>(py, &[n, CELLS], "the puzzles")?;
    let solutions = zeros::<u8, Ix2>(py, &[n, CELLS], "the solutions")?;
    {
        let (mut p, mut s) = (puzzles.readwrite(), solutions.readwrite());
        let (p, s) = (p.as_slice_mut()?, s.as_slice_mut()?);
        interruptible(py, || {
            array::generate_puzzles(&options, seed, threads, p, s)
        })?
        .map_err(|e| match e {
            GeneratePuzzlesError::Array(a) => array_err(a),
            other => PyValueError::new_err(other.to_string()),
        })?;
    }
    Ok((puzzles, solutions))
}

/// An SE window argument, ``(min, max)``, read as the command line's ``MIN..MAX``; errors name the argument.
fn window_arg(name: &str, w: Option<(f64, f64)>) -> PyResult<Option<SeWindow>> {
    w.map(|(lo, hi)| {
        format!("{lo}..{hi}")
            .parse::<SeWindow>()
            .map_err(|e| PyValueError::new_err(format!("{name}=({lo:?}, {hi:?}): {e}")))
    })
    .transpose()
}

/// Keeps the first `max` failure messages of a run, as the CLI words them (without its `sudoku: ` prefix).
struct Messages {
    max: Option<u64>,
    kept: Vec<String>,
    hidden: u64,
}

impl Observer for Messages {
    fn failure(&mut self, input: &str, at: Position, failure: &Failure) {
        if self.max.is_some_and(|m| self.kept.len() as u64 >= m) {
            self.hidden += 1;
        } else {
            self.kept.push(format!("{}: {failure}", at.within(input)));
        }
    }
}

/// The native half of ``solve_file``: runs ``sudoku solve`` on the inputs into ``output`` (``None`` or ``"-"``:
/// standard output) and returns ``(summary_json, messages, hidden)``.
#[pyfunction]
#[pyo3(signature = (inputs, output, *, unique = false, threads = None, format = None, mmap = true,
                    fail_fast = false, max_errors = None, keep_lines = false))]
#[allow(clippy::too_many_arguments)]
fn solve_file(
    py: Python<'_>,
    inputs: Vec<std::path::PathBuf>,
    output: Option<std::path::PathBuf>,
    unique: bool,
    threads: Option<i64>,
    format: Option<&str>,
    mmap: bool,
    fail_fast: bool,
    max_errors: Option<u64>,
    keep_lines: bool,
) -> PyResult<(String, Vec<String>, u64)> {
    // `auto` detects the format; the other names are read by the library's `Format: FromStr`.
    let format = match format {
        None | Some("auto") => None,
        Some(name) => Some(
            name.parse::<Format>()
                .map_err(|e| PyValueError::new_err(format!("{e}, or auto to detect it")))?,
        ),
    };
    let opts = batch::BatchOptions {
        threads: threads_arg(threads)?,
        format,
        mmap,
        fail_fast,
        keep_lines,
        ..batch::BatchOptions::default()
    };
    let inputs: Vec<InputSpec> = if inputs.is_empty() {
        vec![InputSpec::Stdin]
    } else {
        inputs.iter().map(|p| InputSpec::from_arg(p)).collect()
    };
    let target = Target::from_arg(output.as_deref());
    let mut messages = Messages {
        max: max_errors,
        kept: Vec::new(),
        hidden: 0,
    };
    let summary = interruptible(py, || {
        batch::run_batch(inputs, &target, &Solve { unique }, &opts, &mut messages)
    })?;
    match summary {
        Ok(s) => Ok((s.to_json(), messages.kept, messages.hidden)),
        Err(e) => Err(batch_err(e)),
    }
}

/// A run that could not finish, as an exception with the CLI's message (its flag hints in Python words).
fn batch_err(e: BatchError) -> PyErr {
    let msg = e.to_string();
    match e {
        BatchError::Map { .. } => PyOSError::new_err(format!("{msg} (try mmap=False)")),
        BatchError::Open { .. }
        | BatchError::Read { .. }
        | BatchError::Changed { .. }
        | BatchError::Damaged { .. }
        | BatchError::Output(_) => PyOSError::new_err(msg),
        BatchError::Threads(_) => PyRuntimeError::new_err(msg),
        _ => PyValueError::new_err(msg),
    }
}

/// The native module. Its names are re-exported, documented and typed by the `sudoku_batch` package.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(solve_array, m)?)?;
    m.add_function(wrap_pyfunction!(count_solutions, m)?)?;
    m.add_function(wrap_pyfunction!(rate, m)?)?;
    m.add_function(wrap_pyfunction!(generate_boards, m)?)?;
    m.add_function(wrap_pyfunction!(generate_puzzles, m)?)?;
    m.add_function(wrap_pyfunction!(solve_file, m)?)?;
    m.add_function(wrap_pyfunction!(canon::canon, m)?)?;
    m.add_function(wrap_pyfunction!(check::check, m)?)?;
    m.add_function(wrap_pyfunction!(classes::classes, m)?)?;
    m.add_function(wrap_pyfunction!(explain::explain, m)?)?;
    m.add_function(wrap_pyfunction!(counts::technique_counts, m)?)?;
    m.add_function(wrap_pyfunction!(se::rate_se, m)?)?;
    m.add_function(wrap_pyfunction!(shuffle::shuffle, m)?)?;
    m.add_function(wrap_pyfunction!(split::split, m)?)?;
    m.add("SIDES", Side::ALL.map(Side::name).to_vec())?;
    let codes = PyDict::new(m.py());
    codes.set_item("SOLVED", array::OK)?;
    for kind in FailureKind::ALL {
        codes.set_item(kind.key().to_uppercase(), array::code(kind))?;
    }
    m.add("STATUS_CODES", codes)?;
    m.add("LEVELS", Level::ALL.map(Level::name).to_vec())?;
    m.add("TECHNIQUES", Technique::ALL.map(Technique::name).to_vec())?;
    m.add("MAX_THREADS", MAX_THREADS)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
