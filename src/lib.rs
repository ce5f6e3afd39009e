//! sudoku-batch: solve huge files of 9x9 Sudoku puzzles and generate millions of boards, on all cores.
//!
//! The library owns all the work and never prints: what a run tells as it goes reaches an [`Observer`], and
//! everything else is returned. The `sudoku` binary (and the Python module) only parse arguments, present, and
//! map outcomes to exit codes.
//!
//! # The public face
//! - at the root: the board ([`Grid`], its [`ParseError`] and [`Conflict`]), solving and counting ([`solve`],
//!   [`solve_unique`], [`count_solutions`]), the [`Threads`] rule, the input [`Format`], and what every run shares:
//!   [`Failure`], [`Observer`], [`Progress`], [`with_stop`];
//! - [`batch`]: files, streams and Parquet/Arrow tables of puzzles answered in order ([`batch::run_batch`] with its
//!   [`BatchOptions`](batch::BatchOptions), a [`Job`](batch::Job) per record);
//! - [`array`](mod@array): batches in memory, answered into the caller's buffers;
//! - [`human`]: ratings and step-by-step explanations;
//! - [`generate`]: solved boards and puzzles;
//! - [`tools`]: the batch jobs ([`tools::Solve`] and the dataset tools), canonical forms, dedupe keys, equivalent
//!   transformations;
//! - [`output`]: where answers go (a file written atomically, standard output, a device), with the process-wide
//!   [`output::abandon_all`] for a signal handler;
//! - [`bench`](mod@bench): the in-process solver benchmark over a dataset;
//! - for a program built on the library: [`display_name`] (a file name as messages show it) and
//!   [`share_allocator_arenas`] (flat memory for long runs on many threads).
//!
//! The `sudoku` binary is a crate of its own (`cli/` in the repository) that uses only this public face.
//!
//! # Layers
//! Each module imports only from the modules above it in this list (private ones in plain type):
//!
//! | module | owns |
//! |---|---|
//! | `grid` | the board, its cells, the givens check, the text of one board in each [`TextLayout`] |
//! | `solver` | the allocation-free search: `solve`, `solve_unique`, `count_solutions` |
//! | `record` | the per-record contract: [`Job`](batch::Job), failures, the per-chunk report, the observer |
//! | `format` | codecs: line, grid, CSV; detection; record boundary and separator; writing answers and markers; JSON Lines |
//! | `ordered` | the one ordered-parallel engine: window, in-order delivery, cancel, panics, the [`Threads`] rule |
//! | `compression` | compressed streams: gzip, zstd, xz, bzip2 told by their first bytes or a name's extension; decoders and encoders |
//! | [`output`] | where bytes go: standard output, a file written atomically, a device or FIFO in place; the writer thread |
//! | [`batch`] | inputs (map or blocks), chunking, driving a job over chunks, tables by record batch, the summary |
//! | [`human`] | techniques, explanations, ratings (the `Rater` job) |
//! | [`generate`] | boards (pattern and random) and puzzles (which `human` rates), as clients of `ordered` |
//! | [`tools`] | the batch jobs (solve, check, count, canon, dedupe, shuffle), canonical form and dedupe keys, random equivalent transformations |
//! | [`array`](mod@array) | batches in memory: cell arrays or texts answered into the caller's buffers, status codes |
//! | [`bench`](mod@bench) | in-process timing of the solver over a dataset (`sudoku bench`) |
//!
//! `os` (private) holds every operating-system `unsafe` call, under all of them; the solver's engine has one more
//! `unsafe` block, the call into its copy compiled for x86-64-v3 after a run-time check of the processor. The
//! fuzz targets and benchmarks reach a few insides through the doc-hidden `internals` module of the `internals`
//! feature, which is no part of the API.
//!
//! ```
//! use sudoku_batch::{solve_unique, Grid};
//!
//! let puzzle: Grid = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
//!     .parse()
//!     .unwrap();
//! let solved = solve_unique(&puzzle).unwrap();
//! assert!(solved.solution.is_solution_of(&puzzle));
//! assert_eq!(
//!     solved.solution.to_line(),
//!     "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
//! );
//! ```

#![warn(missing_docs, unreachable_pub)]
#![deny(unsafe_op_in_unsafe_fn)]

pub mod array;
pub mod batch;
pub mod bench;
mod compression;
mod format;
pub mod generate;
mod grid;
pub mod human;
pub mod hunt;
mod ordered;
mod ordered_run;
mod os;
pub mod output;
mod record;
mod solver;
pub mod tools;

pub use format::Format;
pub use grid::{Conflict, Grid, ParseError, TextLayout, Unit, CELLS};
pub use ordered::{
    share_allocator_arenas, with_stop, ThreadCountError, Threads, ThreadsError, MAX_THREADS,
};
pub use record::display_name;
pub use record::{Failure, FailureKind, Observer, Position, Progress, RecordError, SolutionError};
pub use solver::{
    count_solutions, count_solutions_with, solve, solve_unique, solve_unique_with, solve_with,
    Engine, SolutionCount, SolveError, SolveStats, Solved,
};

/// The crate's insides that its fuzz targets, benchmarks and property tests drive directly: not part of the API,
/// no promise kept from one version to the next. Compiled only with the `internals` feature.
#[cfg(feature = "internals")]
#[doc(hidden)]
pub mod internals {
    pub use crate::format::MAX_RECORD;
    pub use crate::format::{prepare, Plan, Prepared};
    pub use crate::generate::layout::BoardTemplate;
    pub use crate::generate::random::RandomFill;

    /// Each copy of the vector engine this processor can run (portable first, then x86-64-v3, then AVX-512), on one
    /// puzzle up to a limit: the copy's name, the count, the first solution and the guesses. They must agree.
    pub use crate::solver::vector_copies;

    /// True when a file starting with `head` is read as a table or a compressed stream (by its first bytes), not
    /// as text; bytes given in memory ([`InputSpec::Bytes`](crate::batch::InputSpec::Bytes)) are always text.
    pub fn sniffed_as_binary(head: &[u8]) -> bool {
        crate::batch::TableKind::detect(head).is_some()
            || crate::compression::Compression::detect(head).is_some()
    }
}
