//! Tables, what every part of their path shares: their kinds ([`TableKind`], told by their first bytes: `PAR1`,
//! `ARROW1`, or the `FF FF FF FF` that opens an IPC stream's first message), the codecs of a table output, where
//! reading stopped, the errors, and the rows of a chunk. A table is read record batch by record batch instead of
//! line by line (`table_run`), answered row by row (`table_answer`), and written back as the same kind of table
//! (`table_writer`).
//!
//! The puzzle column is picked by the rule of the CSV path
//! ([`ColumnNames::pick`](crate::format::csv::ColumnNames::pick): `--column`, or the first of quizzes, quiz,
//! puzzles, puzzle, question), and must hold text (Arrow `utf8`, `large_utf8` or `utf8_view`). Each row is one
//! record, answered by the job as a CSV row is ([`CsvAnswer`](crate::record::CsvAnswer)), and the output keeps
//! every input column: the solution column filled or a `solution`/`solutions` column added (`solve`), the job's
//! columns appended (`rate`, `check`, `count`, `canon`), the puzzle and solution columns rewritten (`shuffle`), or
//! the rows kept whole and repeats left out (`dedupe`). A failed row keeps its place, with `error: REASON` where
//! the CSV path puts it (the first answer column, the other answer columns null; or the puzzle column); the
//! observer is told its 1-based row. Answer columns are `utf8`, nullable.
//!
//! Batches are cut into chunks of [`CHUNK_ROWS`] rows and go through the one ordered engine like text chunks: read
//! and decoded on the calling thread, answered on the workers (which also encode a Parquet chunk as one row group:
//! measured, encoding on the calling thread alone took about as long as the solving), then written in order
//! on the calling thread and handed to the one [`Writer`](crate::output::Writer) as bytes, so a table output
//! follows the output rules of every run (a file appears whole or not at all). The chunks in flight are as many as
//! the crate's one rule allows (`ordered::window`, for chunks of [`CHUNK_BYTES`]), so memory stays flat whatever
//! the thread count.
//!
//! Parquet and Arrow IPC files are read with seeks (their footer first): standard input holding one is first
//! copied to an unnamed temporary file; an IPC stream is read as it comes. A table must be the only input of its
//! run, and is not written to a terminal. Without the cargo feature `parquet` a table input is detected all the
//! same and refused with [`TableError::NotBuilt`]. Every call into a reader goes through the fence of
//! `table_guard`, after its size checks: a corrupt table is [`TableError::Corrupt`] (or `Read`), never a crash.

use std::io;

/// A kind of table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableKind {
    /// A Parquet file (`PAR1` at its start and its end).
    Parquet,
    /// An Arrow IPC file (Feather v2): `ARROW1` at its start.
    ArrowFile,
    /// An Arrow IPC stream: messages, the first one opened by the continuation marker `FF FF FF FF`.
    ArrowStream,
}

impl TableKind {
    /// The kind of table whose magic bytes start `head`, if any.
    pub(crate) fn detect(head: &[u8]) -> Option<TableKind> {
        if head.starts_with(b"PAR1") {
            Some(TableKind::Parquet)
        } else if head.starts_with(b"ARROW1") {
            Some(TableKind::ArrowFile)
        } else if head.starts_with(&[0xFF; 4]) {
            Some(TableKind::ArrowStream)
        } else {
            None
        }
    }

    /// True for the kinds read with seeks (their footer first).
    #[cfg(feature = "parquet")]
    pub(crate) fn needs_seek(self) -> bool {
        self != TableKind::ArrowStream
    }
}

impl std::fmt::Display for TableKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            TableKind::Parquet => "Parquet",
            TableKind::ArrowFile => "Arrow IPC file",
            TableKind::ArrowStream => "Arrow IPC stream",
        })
    }
}

/// How a table output is compressed: a Parquet output's pages, an Arrow IPC output's buffers. A run that names
/// none (`BatchOptions::table_compression` `None`) takes the kind's default: zstd level 1 for Parquet, none for
/// Arrow IPC (what pyarrow's IPC writers write unless asked).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum TableCompression {
    /// zstd level 1 (Parquet's default): about a third of the plain size for puzzles and solutions.
    #[default]
    Zstd,
    /// Snappy, pyarrow's Parquet default (not for Arrow IPC).
    Snappy,
    /// LZ4: `LZ4_RAW` pages in Parquet, LZ4 frames in Arrow IPC (pyarrow's Feather default).
    Lz4,
    /// None: the fastest to write, and the largest.
    None,
}

impl TableCompression {
    /// The codec a `kind` output takes when the run names none.
    #[cfg_attr(not(feature = "parquet"), allow(dead_code))]
    pub(super) fn default_for(kind: TableKind) -> TableCompression {
        match kind {
            TableKind::Parquet => TableCompression::Zstd,
            TableKind::ArrowFile | TableKind::ArrowStream => TableCompression::None,
        }
    }
}

/// Where in a table reading stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TablePart {
    /// The footer or the schema, read before any row.
    Footer,
    /// A record batch as the reader gives them (1-based), whose first row is `row` (1-based).
    Batch {
        /// The batch's number.
        batch: u64,
        /// Its first row.
        row: u64,
    },
}

impl std::fmt::Display for TablePart {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TablePart::Footer => f.write_str("footer and schema"),
            TablePart::Batch { batch, row } => write!(f, "record batch {batch}, from row {row}"),
        }
    }
}

impl std::fmt::Display for TableCompression {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            TableCompression::Zstd => "zstd",
            TableCompression::Snappy => "snappy",
            TableCompression::Lz4 => "lz4",
            TableCompression::None => "none",
        })
    }
}

/// Why a table input could not be read or its output written (a bad row is a failed record, not this).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TableError {
    /// The build has no table support.
    #[error("a {0} input, and this sudoku was built without Parquet and Arrow support (cargo feature `parquet`)")]
    NotBuilt(TableKind),
    /// A table with other inputs in the same run.
    #[error("a {0} input must be the only input of its run")]
    NotAlone(TableKind),
    /// Table output asked for on a terminal.
    #[error("{0} output is binary and is not written to a terminal: redirect it, or give -o FILE")]
    Terminal(TableKind),
    /// A table compressed whole (`.parquet.gz`): it is not read as text.
    #[error(
        "a compressed {0} input: decompress it first (a table compresses its own pages or buffers)"
    )]
    Compressed(TableKind),
    /// A text format asked for (`--format`) on a table input.
    #[error("--format {format} is for text inputs; a {kind} input is read as a table")]
    Format {
        /// The kind of table.
        kind: TableKind,
        /// The format asked for (`line`, `grid`, `csv`).
        format: String,
    },
    /// JSON Lines output asked for.
    #[error("--json is for text inputs; a {0} input gives a {0} output")]
    Json(TableKind),
    /// No column has a puzzle column's name.
    #[error("no puzzle column (quizzes, quiz, puzzles, puzzle or question; or see --column); the columns: {columns}")]
    NoPuzzleColumn {
        /// The table's column names.
        columns: String,
    },
    /// A column the user named is not there.
    #[error("no column named {name:?}; the columns: {columns}")]
    NoNamedColumn {
        /// The name asked for.
        name: String,
        /// The table's column names.
        columns: String,
    },
    /// A second solution column (named `solutions`, `solution`, `answer` or as the user named the solution column)
    /// for a job that rewrites the puzzle and its solution (`shuffle`): it would be left as it was, no longer the
    /// solution of its row's puzzle.
    #[error("a second solution column {name:?}, which rewriting the puzzles would leave unchanged (and wrong): keep one solution column; the columns: {columns}")]
    SecondSolutionColumn {
        /// The second solution column's name.
        name: String,
        /// The table's column names.
        columns: String,
    },
    /// The puzzle column does not hold text.
    #[error("column {column:?} is of type {data_type}, not text (utf8): puzzles are strings of 81 characters")]
    NotText {
        /// The column.
        column: String,
        /// Its Arrow type, named as Arrow names it (`list<utf8>`).
        data_type: String,
    },
    /// The solution column does not hold text.
    #[error("the solution column {column:?} is of type {data_type}, not text (utf8): solutions are strings of 81 characters")]
    SolutionNotText {
        /// The column.
        column: String,
        /// Its Arrow type, named as Arrow names it (`list<utf8>`).
        data_type: String,
    },
    /// A Parquet file that does not end in `PAR1`.
    #[error("not a whole Parquet file: it starts with PAR1 but does not end with it (truncated?)")]
    Truncated,
    /// Reading failed: a corrupt or truncated table.
    #[error("cannot read the {kind} data (at row {row}): {message}")]
    Read {
        /// The kind of table.
        kind: TableKind,
        /// 1-based row where reading stopped.
        row: u64,
        /// The reader's message.
        message: String,
    },
    /// A corrupt table: a size it declares runs past the bytes it holds, or the third-party reader failed on it
    /// (panicked) instead of returning an error.
    #[error("corrupt {kind} data ({part}): {message}")]
    Corrupt {
        /// The kind of table.
        kind: TableKind,
        /// Where.
        part: TablePart,
        /// What was wrong.
        message: String,
    },
    /// Copying standard input to a temporary file failed.
    #[error(
        "cannot copy standard input to a temporary file (a {0} input is read with seeks): {1}"
    )]
    Spool(TableKind, io::Error),
    /// An Arrow IPC output asked to be compressed with a codec Arrow IPC does not have.
    #[error("an Arrow IPC output cannot be compressed with {0}: it takes lz4, zstd or none (--table-compression)")]
    IpcCodec(TableCompression),
    /// Encoding the output failed.
    #[error("cannot write the {kind} output: {message}")]
    Write {
        /// The kind of table.
        kind: TableKind,
        /// The writer's message.
        message: String,
    },
}

/// Rows of a chunk: a table is cut into chunks of this many rows whatever the run's chunk size or thread count, and
/// each chunk becomes one Parquet row group (fewer rows where `dedupe` left repeats out), encoded by the worker that
/// answered it; so the output's bytes do not depend on `-j`.
#[cfg_attr(not(feature = "parquet"), allow(dead_code))]
pub(crate) const CHUNK_ROWS: usize = 4 * 1024;

/// What one chunk holds while in flight, for the window of the ordered engine: [`CHUNK_ROWS`] rows of input, answers
/// and encoded pages, about 300 bytes a row in all. Chunks cannot shrink as threads grow (the row groups would
/// change), so past `IN_FLIGHT / CHUNK_BYTES` threads (six) some workers wait rather than memory grow.
#[cfg_attr(not(feature = "parquet"), allow(dead_code))]
pub(crate) const CHUNK_BYTES: usize = CHUNK_ROWS * 300;

#[cfg(test)]
mod tests {
    use super::CHUNK_BYTES;
    use crate::ordered::{window, IN_FLIGHT};

    #[test]
    fn table_chunks_in_flight_keep_two_per_thread_on_few_threads_and_memory_bounded_on_many() {
        assert_eq!(window(1, CHUNK_BYTES), 1);
        for threads in [2, 3] {
            assert!(window(threads, CHUNK_BYTES) >= 2 * threads, "{threads}");
        }
        for threads in [4, 16, 256] {
            assert!(
                window(threads, CHUNK_BYTES) * CHUNK_BYTES <= IN_FLIGHT,
                "{threads}"
            );
        }
    }
}
