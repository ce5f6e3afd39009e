//! sudoku-batch: solve huge files of 9x9 Sudoku puzzles and generate millions of boards, on all cores.
//!
//! The library owns all the work and never prints: what a run tells as it goes reaches an
//! [`Observer`](record::Observer), and everything else is returned. The `sudoku` binary (and the Python module)
//! only parse arguments, present, and map outcomes to exit codes.
//!
//! # Layers
//! Each module imports only from the modules above it in this list:
//!
//! | module | owns |
//! |---|---|
//! | [`grid`] | the board, its cells, the givens check, the text of one board in each [`Layout`](grid::Layout) |
//! | [`solver`] | the allocation-free search: `solve`, `solve_unique`, `count_solutions` |
//! | [`record`] | the per-record contract: [`Job`](record::Job), failures, the per-chunk report, the observer |
//! | [`format`](mod@format) | codecs: line, grid, CSV; detection; record boundary and separator; writing answers and markers |
//! | [`ordered`] | the one ordered-parallel engine: window, in-order delivery, cancel, panics, the [`Threads`](ordered::Threads) rule |
//! | [`compression`] | compressed streams: gzip, zstd, xz, bzip2 told by their first bytes or a name's extension; decoders and encoders |
//! | [`output`] | where bytes go: standard output, a file written atomically, a device or FIFO in place; the writer thread |
//! | [`batch`] | inputs (map or blocks), chunking, driving a job over chunks, the summary |
//! | [`human`] | techniques, explanations, ratings (the `Rater` job) |
//! | [`generate`] | boards (pattern and random) and puzzles (which `human` rates), as clients of `ordered` |
//! | [`tools`] | dataset jobs: canonical form and dedupe keys, random equivalent transformations |
//! | [`array`](mod@array) | batches in memory: cell arrays or texts answered into the caller's buffers, status codes |
//! | [`bench`](mod@bench) | in-process timing of the solver over a dataset |
//!
//! `os` (private) holds every operating-system `unsafe` call, under all of them; the solver's engine has one more
//! `unsafe` block, the call into its copy compiled for x86-64-v3 after a run-time check of the processor.
//!
//! ```
//! use sudoku_batch::{solver, Grid};
//!
//! let puzzle: Grid = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
//!     .parse()
//!     .unwrap();
//! let solved = solver::solve_unique(&puzzle).unwrap();
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
pub mod compression;
pub mod format;
pub mod generate;
pub mod grid;
pub mod human;
pub mod ordered;
mod os;
pub mod output;
pub mod record;
pub mod solver;
pub mod tools;

pub use grid::{Conflict, Grid, ParseError};
pub use solver::{count_solutions, solve, solve_unique, Count, SolveError, SolveStats, Solved};
