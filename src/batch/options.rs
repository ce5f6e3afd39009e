//! How a batch run behaves ([`BatchOptions`]): threads, format, reading, output shape, chunk size.

use super::table::TableCompression;
use crate::format::csv::ColumnNames;
use crate::format::Format;
use crate::ordered::Threads;

/// Default chunk size: big enough that per-chunk costs vanish, small enough that a few per thread balance the load.
pub(crate) const DEFAULT_CHUNK_SIZE: usize = 256 * 1024;

/// How a run behaves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BatchOptions {
    /// Worker threads.
    pub threads: Threads,
    /// Read every input in this format instead of detecting it.
    pub format: Option<Format>,
    /// Memory-map regular files (otherwise they are read in blocks).
    pub mmap: bool,
    /// Stop at the first failed record (its output is the last written); a file output is then not created.
    pub fail_fast: bool,
    /// Target chunk size in bytes (at least 1); chunks end at the first record boundary past it.
    pub chunk_size: usize,
    /// Write JSON Lines, one object per record (see the README's "JSON Lines output"), instead of each format's own output.
    pub json: bool,
    /// Pipe mode: comment and blank lines are written back unchanged, so every input line gives exactly one
    /// output line (line and CSV inputs only; a grid input is refused with
    /// [`BatchError::KeepLinesGrid`](super::BatchError::KeepLinesGrid)).
    pub keep_lines: bool,
    /// The CSV columns the user named (`--column`, `--solution-column`); the default names otherwise.
    pub columns: ColumnNames,
    /// How a table output is compressed; `None`: the kind's default (zstd for Parquet, none for Arrow IPC).
    pub table_compression: Option<TableCompression>,
    /// Write the job's header line ([`Job::line_header`](crate::record::Job::line_header)) first when the output is
    /// in the line format (not with `json`, and not after another input's output; a CSV output has a header of its
    /// own).
    pub header: bool,
}

impl Default for BatchOptions {
    fn default() -> BatchOptions {
        BatchOptions {
            threads: Threads::Auto,
            format: None,
            mmap: true,
            fail_fast: false,
            chunk_size: DEFAULT_CHUNK_SIZE,
            json: false,
            keep_lines: false,
            columns: ColumnNames::default(),
            table_compression: None,
            header: false,
        }
    }
}
