//! Batch processing: many puzzles from files or standard input, cut into record-aligned chunks, worked on by all
//! cores, written back in input order with one output record per input record.
//!
//! - `input`: naming, opening and sniffing inputs ([`InputSpec`]; memory map or block reads; compressed ones and
//!   tables told by their first bytes); `mapped` the mapped file; `decode` a compressed input decoded on a thread
//!   of its own;
//! - `chunk`: record-aligned cutting, and the invariant that makes chunked and sequential runs write the same
//!   bytes (and keeps memory flat on any input);
//! - `options`: how a run behaves ([`BatchOptions`]);
//! - `run`: the run ([`run_batch`]), every input in turn on the crate's ordered run (`crate::ordered_run`: the
//!   engine and the writer of [`crate::output`]), a table input checked against the run first;
//! - `text_run`: one text input, its format decided, its chunks answered;
//! - `table_run`: one Parquet or Arrow IPC table, read and written by record batch; `table` what the table path
//!   shares (kinds, codecs, errors), `table_answer` its rows answered, `table_writer` the output table, `column`
//!   its text columns, `footer` a Parquet file's row groups read a few at a time, `table_guard` the fence and size
//!   checks that keep a corrupt table from aborting the process;
//! - `collector`: the one in-order end of both runs: fail-fast, repeats, separators, counts, observer, writer;
//! - `route`: the extra outputs of a run with several ([`run_routed`], `split`), cut from each chunk by the
//!   collector, and the [`Router`] that may decide each record's output in input order ([`run_routed_by`]);
//! - `summary`: counts and the summary of a run ([`BatchSummary`]).
//!
//! What happens to one record is a [`Job`]; what a run tells as it goes goes to an [`Observer`](crate::Observer)
//! (`&mut ()` for none).
//!
//! ```
//! use sudoku_batch::batch::{self, InputSpec, BatchOptions};
//! use sudoku_batch::output::Target;
//! use sudoku_batch::tools::Solve;
//!
//! let dir = tempfile::tempdir().unwrap();
//! let out = dir.path().join("solutions.txt");
//! let puzzles = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n";
//! let input = InputSpec::Bytes { name: "example".into(), data: puzzles.into() };
//! let summary = batch::run_batch(
//!     vec![input],
//!     &Target::File(out.clone()),
//!     &Solve::default(),
//!     &BatchOptions::default(),
//!     &mut (),
//! )
//! .unwrap();
//! assert_eq!(summary.counts.solved(), 1);
//! assert_eq!(
//!     std::fs::read_to_string(&out).unwrap(),
//!     "417369825632158947958724316825437169791586432346912758289643571573291684164875293\n"
//! );
//! ```

mod chunk;
mod collector;
#[cfg(feature = "parquet")]
mod column;
mod decode;
#[cfg(feature = "parquet")]
mod footer;
mod input;
mod mapped;
mod options;
mod route;
mod run;
mod summary;
mod table;
#[cfg(feature = "parquet")]
mod table_answer;
#[cfg(feature = "parquet")]
mod table_guard;
#[cfg(feature = "parquet")]
mod table_run;
#[cfg(feature = "parquet")]
mod table_writer;
mod text_run;

pub use crate::format::csv::ColumnNames;
pub use crate::format::{read_all, FormatError};
pub use crate::record::{Answer, CsvAnswer, Job, Record};
pub use input::InputSpec;
pub use options::BatchOptions;
pub use route::Router;
pub use run::{run_batch, run_routed, run_routed_by};
pub use summary::{BatchSummary, Counts};
pub use table::{TableCompression, TableError, TableKind, TablePart};

use crate::output::OutputError;

/// Why a run could not finish. Failed records are not errors: they are marked, counted, and the run goes on.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BatchError {
    /// An input could not be opened (or its metadata read).
    #[error("{name}: {source}")]
    Open {
        /// The input as named.
        name: String,
        /// The cause.
        source: std::io::Error,
    },
    /// Reading an input failed part way.
    #[error("{name}: read failed: {source}")]
    Read {
        /// The input as named.
        name: String,
        /// The cause.
        source: std::io::Error,
    },
    /// A compressed input turned out damaged (a checksum failed, or the data broke off) after output made from
    /// its text had already gone to standard output, a device or a FIFO. A codec checks its data only at the end
    /// of each gzip member, bzip2 block, xz block or zstd frame, so that output may hold records made up from the
    /// damaged data, and cannot be taken back. (A file output is not created: the error is then
    /// [`BatchError::Read`].)
    #[error("{name}: read failed: {source}; the output already written is not to be trusted: it may hold records made up from the damaged data")]
    Damaged {
        /// The input as named.
        name: String,
        /// The decoder's error.
        source: std::io::Error,
    },
    /// A regular file could not be memory-mapped (reading it instead, without the map, may work).
    #[error("{name}: cannot map file: {source}")]
    Map {
        /// The input as named.
        name: String,
        /// The cause.
        source: std::io::Error,
    },
    /// A regular file changed while it was being read: a file output is discarded; output already written to
    /// standard output, a device or a FIFO cannot be taken back and is not to be trusted.
    #[error("{name}: the file changed during the run ({before} bytes at the start, {after} at the end); {}",
        if *.discarded { "output discarded" } else { "the output already written may be wrong" })]
    Changed {
        /// The input as named.
        name: String,
        /// Size when opened.
        before: u64,
        /// Size at the end.
        after: u64,
        /// True when the output was a file that is now not created; false when it was already written.
        discarded: bool,
    },
    /// A record ran on without a boundary for longer than any puzzle file holds: not a puzzle file.
    #[error("{name}: a record runs on for more than {} MiB without a line end; not a puzzle file", chunk::MAX_SKIP >> 20)]
    Endless {
        /// The input as named.
        name: String,
    },
    /// The input's format could not be read (a CSV without a puzzle column).
    #[error("{name}: {source}")]
    Format {
        /// The input as named.
        name: String,
        /// The cause, with its line.
        source: FormatError,
    },
    /// A Parquet or Arrow table could not be read, or its output written.
    #[error("{name}: {source}")]
    Table {
        /// The input as named.
        name: String,
        /// The cause.
        source: table::TableError,
    },
    /// Pipe mode was asked for on an input of 9-line grids, whose records are not single lines.
    #[error("{name}: pipe mode (one output line per input line) reads line or CSV records, not 9-line grids")]
    KeepLinesGrid {
        /// The input as named.
        name: String,
    },
    /// Standard input was named more than once.
    #[error("standard input (-) is named more than once")]
    StdinTwice,
    /// The worker threads could not be started.
    #[error("cannot start worker threads: {0}")]
    Threads(#[from] crate::ordered::ThreadsError),
    /// The run was stopped from outside ([`crate::ordered::with_stop`]) before it finished: an output file was not
    /// created (nor an earlier one replaced).
    #[error("the run was stopped before it finished")]
    Stopped,
    /// Writing the results failed (a full disk, a failed rename) or the output pipe was closed (see
    /// [`OutputError::is_broken_pipe`]).
    #[error(transparent)]
    Output(#[from] OutputError),
    /// The run's [`Router`] could not give a record its part (its spill could not be read or written).
    #[error("{0}")]
    Route(std::io::Error),
}
