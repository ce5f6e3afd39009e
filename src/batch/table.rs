//! Tables: Parquet files and Arrow IPC files and streams, told by their first bytes (`PAR1`, `ARROW1`, or the
//! `FF FF FF FF` that opens an IPC stream's first message), read record batch by record batch instead of line by
//! line, and written back as the same kind of table.
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

use super::input::{Data, Opened};
use super::BatchError;
use crate::record::Job;

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
    fn default_for(kind: TableKind) -> TableCompression {
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

/// Rows of each batch of an Arrow IPC output (the last one may have fewer), gathered whatever the chunks.
#[cfg_attr(not(feature = "parquet"), allow(dead_code))]
pub(crate) const OUT_BATCH: usize = 8 * 1024;

/// Copies a stream that starts with `head` to an unnamed temporary file (its name is removed at once), and gives
/// that file back at its start.
#[cfg(feature = "parquet")]
fn spool(head: &[u8], mut from: std::fs::File) -> io::Result<std::fs::File> {
    use std::io::{Seek, Write};
    use std::os::unix::fs::OpenOptionsExt;
    let dir = std::env::temp_dir();
    let mut n = 0u32;
    let mut file = loop {
        let path = dir.join(format!(".sudoku-stdin.{}.{n}", std::process::id()));
        match std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&path)
        {
            Ok(f) => {
                std::fs::remove_file(&path)?;
                break f;
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && n < 1000 => n += 1,
            Err(e) => return Err(e),
        }
    };
    file.write_all(head)?;
    io::copy(&mut from, &mut file)?;
    file.seek(io::SeekFrom::Start(0))?;
    Ok(file)
}

/// What a table run needs from the pipeline besides the job.
#[cfg_attr(not(feature = "parquet"), allow(dead_code))]
pub(super) struct Context<'a, 'o> {
    pub(super) opts: &'a super::BatchOptions,
    pub(super) engine: &'a crate::ordered::Engine,
    pub(super) writer: &'a crate::output::Writer,
    pub(super) col: &'a mut super::pipeline::Collector<'o>,
    /// The run has other inputs.
    pub(super) others: bool,
    /// The output is a terminal.
    pub(super) terminal: bool,
}

/// Runs `job` over the table `input` (whose data is [`Data::Table`]).
pub(super) fn each_table<J: Job + ?Sized>(
    input: &mut Opened,
    job: &J,
    cx: Context<'_, '_>,
) -> Result<(), BatchError> {
    let name = input.name.clone();
    let err = |source| BatchError::Table {
        name: name.clone(),
        source,
    };
    let Data::Table { kind, .. } = &input.data else {
        unreachable!("each_table is called for tables only")
    };
    let kind = *kind;
    if cx.others {
        return Err(err(TableError::NotAlone(kind)));
    }
    if cx.opts.json {
        return Err(err(TableError::Json(kind)));
    }
    if let Some(format) = cx.opts.format {
        let format = format!("{format:?}").to_ascii_lowercase();
        return Err(err(TableError::Format { kind, format }));
    }
    if cx.terminal {
        return Err(err(TableError::Terminal(kind)));
    }
    cx.col.begin_table(&name);
    #[cfg(feature = "parquet")]
    {
        let Data::Table {
            file,
            head,
            seekable,
            ..
        } = std::mem::replace(&mut input.data, Data::Memory(Vec::new()))
        else {
            unreachable!("a table")
        };
        let (file, head) = if kind.needs_seek() && !seekable {
            let file = spool(&head, file).map_err(|e| err(TableError::Spool(kind, e)))?;
            (file, Vec::new())
        } else {
            (file, head)
        };
        arrow::run(kind, file, head, job, cx).map_err(err)
    }
    #[cfg(not(feature = "parquet"))]
    {
        let _ = job;
        Err(err(TableError::NotBuilt(kind)))
    }
}

#[cfg(feature = "parquet")]
mod arrow {
    //! The Arrow side of tables: readers, the answer columns, writers.

    use std::fs::File;
    use std::io::{self, Read, Write};
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;

    use arrow_array::builder::StringBuilder;
    use arrow_array::{Array, ArrayRef, BooleanArray, RecordBatch, RecordBatchReader};
    use arrow_schema::{DataType, Field, Schema, SchemaRef};

    use parquet::arrow::arrow_writer::{compute_leaves, get_column_writers, ArrowColumnChunk};
    use parquet::errors::ParquetError;
    use parquet::file::properties::{WriterProperties, WriterPropertiesPtr};
    use parquet::file::writer::SerializedFileWriter;
    use parquet::schema::types::SchemaDescriptor;

    use super::{
        Context, TableCompression, TableError, TableKind, TablePart, CHUNK_BYTES, CHUNK_ROWS,
        OUT_BATCH,
    };
    use crate::batch::column::{is_text, type_name, Texts};
    use crate::batch::table_guard::{self as guard, fence};
    use crate::format::csv::ColumnNames;
    use crate::grid::Grid;
    use crate::ordered::Flow;
    use crate::record::{
        Answer, ChunkReport, CsvAnswer, Failure, Job, Record, RecordError, SolutionError,
        TextLayout,
    };

    /// Where the puzzles are and where the answers go.
    struct Plan {
        puzzle: usize,
        /// The solution column: the claims a job may check, and the column `solve` fills.
        claim: Option<usize>,
        answer: CsvAnswer,
        /// Answer columns appended (for `CsvAnswer::Solution` without a solution column, or `Append`).
        appended: usize,
        /// Rows are rewritten once per copy of the job ([`Job::copies`]), a `group` column (int64) added last.
        group: bool,
        schema: SchemaRef,
    }

    /// Runs `job` over the table in `file` (after `head`, the bytes already read from a stream).
    pub(super) fn run<J: Job + ?Sized>(
        kind: TableKind,
        file: File,
        head: Vec<u8>,
        job: &J,
        cx: Context<'_, '_>,
    ) -> Result<(), TableError> {
        let (mut reader, total) =
            fence(|| open(kind, file, head, CHUNK_ROWS)).map_err(|message| {
                TableError::Corrupt {
                    kind,
                    part: TablePart::Footer,
                    message,
                }
            })??;
        let schema = reader.schema();
        let plan = plan(&schema, &cx.opts.columns, job.csv_answer(), job.copies())?;
        let fields = plan.schema.fields();
        let plain: Vec<String> = std::iter::once(plan.puzzle)
            .chain(plan.claim)
            .chain(fields.len() - plan.appended..fields.len())
            .map(|i| fields[i].name().clone())
            .collect();
        let compression = cx
            .opts
            .table_compression
            .unwrap_or(TableCompression::default_for(kind));
        // A table for each output part after the first of a run with several.
        let mut extra = (1..cx.col.routes.parts())
            .map(|_| Out::new(kind, plan.schema.clone(), plain.clone(), compression))
            .collect::<Result<Vec<_>, _>>()?;
        let mut out = Out::new(kind, plan.schema.clone(), plain, compression)?;
        let parallel = out.parallel();
        let Context {
            engine,
            writer,
            col,
            ..
        } = cx;
        let window = crate::ordered::window(engine.threads(), CHUNK_BYTES);
        let file_len = col.total.unwrap_or(0);
        // The batch being cut into chunks, and where the rows not yet taken start in it.
        let mut pending: Option<(RecordBatch, usize)> = None;
        // The parts of the next chunk: whatever the input's batches, every chunk but the last has CHUNK_ROWS rows
        // (small row groups or batches are gathered, large ones cut).
        let mut parts: Vec<RecordBatch> = Vec::new();
        let mut have = 0usize;
        let mut row = 0u64;
        // Batches asked of the reader.
        let mut batches = 0u64;
        let mut failed = false;
        let produce = || -> Result<Option<(RecordBatch, u64)>, TableError> {
            loop {
                if let Some((batch, at)) = &mut pending {
                    let n = (CHUNK_ROWS - have).min(batch.num_rows() - *at);
                    if n > 0 {
                        parts.push(batch.slice(*at, n));
                        *at += n;
                        have += n;
                    }
                    if *at == batch.num_rows() {
                        pending = None;
                    }
                }
                let end = if have < CHUNK_ROWS && pending.is_none() {
                    batches += 1;
                    let next = fence(|| reader.next()).map_err(|message| TableError::Corrupt {
                        kind,
                        part: TablePart::Batch {
                            batch: batches,
                            row: row + have as u64 + 1,
                        },
                        message,
                    })?;
                    match next {
                        None => true,
                        Some(Ok(batch)) => {
                            pending = Some((batch, 0));
                            false
                        }
                        Some(Err(e)) => {
                            return Err(TableError::Read {
                                kind,
                                row: row + have as u64 + 1,
                                message: e.to_string(),
                            })
                        }
                    }
                } else {
                    false
                };
                if have == CHUNK_ROWS || (end && have > 0) {
                    let chunk =
                        match parts.len() {
                            1 => parts.pop().expect("one part"),
                            _ => arrow_select::concat::concat_batches(&schema, &parts).map_err(
                                |e| TableError::Read {
                                    kind,
                                    row: row + 1,
                                    message: e.to_string(),
                                },
                            )?,
                        };
                    parts.clear();
                    let first = row;
                    row += have as u64;
                    have = 0;
                    return Ok(Some((chunk, first)));
                }
                if end {
                    return Ok(None);
                }
            }
        };
        let work = |(batch, first): (RecordBatch, u64), cancel: &AtomicBool| {
            let (batch, rep) = answer(&plan, job, &batch, first, cancel);
            // Rows `dedupe` may leave out are encoded once known, on the calling thread.
            let encoded = match &parallel {
                Some(p) if rep.keyed.is_empty() && rep.routed.is_empty() => Some(p.encode(&batch)),
                _ => None,
            };
            (batch, rep, encoded)
        };
        let mut done_rows = 0u64;
        let deliver = |(batch, mut rep, mut encoded): Answered| {
            let mut batch = batch;
            // Input rows (a job with copies writes more).
            let rows_in = rep.lines;
            if let Some(end) = col.cut_at_failure(&mut rep) {
                batch = batch.slice(0, end);
                encoded = None;
            }
            if !rep.keyed.is_empty() {
                let mut keep = vec![true; batch.num_rows()];
                for k in &rep.keyed {
                    if k.out_start >= keep.len() {
                        break;
                    }
                    if !col.seen.insert(k.key) {
                        keep[k.out_start] = false;
                        col.counts.dropped += 1;
                    }
                }
                batch =
                    arrow_select::filter::filter_record_batch(&batch, &BooleanArray::from(keep))
                        .map_err(|e| TableError::Write {
                            kind,
                            message: e.to_string(),
                        })?;
            }
            // Progress in bytes of the file, estimated from the rows done (a table's size is not in rows).
            let before = done_rows;
            done_rows += rows_in;
            let bytes = match total {
                // In u128: bytes times rows can pass u64.
                Some(t) if t > 0 => {
                    let at = |r: u64| {
                        (u128::from(file_len) * u128::from(r.min(t)) / u128::from(t)) as u64
                    };
                    at(done_rows) - at(before)
                }
                _ => 0,
            };
            let progress = col.tally(&rep, bytes);
            if col.routes.active() {
                batch = route(kind, &batch, &rep, &mut extra, col)?;
                encoded = None;
            }
            let encoded = out.write(&batch, encoded)?;
            col.bytes_out += encoded.len() as u64;
            if (!encoded.is_empty() && writer.send(encoded).is_err()) || col.routes.failed {
                failed = true;
                return Ok(Flow::Stop);
            }
            col.observer.progress(progress);
            Ok(if col.stopped { Flow::Stop } else { Flow::Go })
        };
        engine.run(window, produce, work, deliver)?;
        if !failed {
            for (i, table) in extra.into_iter().enumerate() {
                let rest = table.finish()?;
                col.routes.send(i + 1, rest);
            }
            let rest = out.finish()?;
            col.bytes_out += rest.len() as u64;
            // A writer that stopped says why when the run finishes it.
            let _ = writer.send(rest);
        }
        Ok(())
    }

    /// Cuts `batch` into the output parts its rows were routed to (rows routed nowhere, failed ones, are left
    /// out): writes the rows of parts 1, 2, ... to their tables in `extra` and sends the bytes to their outputs;
    /// returns the rows of part 0.
    fn route(
        kind: TableKind,
        batch: &RecordBatch,
        rep: &ChunkReport,
        extra: &mut [Out],
        col: &mut crate::batch::pipeline::Collector<'_>,
    ) -> Result<RecordBatch, TableError> {
        let mut part = vec![u8::MAX; batch.num_rows()];
        for r in &rep.routed {
            if let Some(p) = part.get_mut(r.out_start) {
                *p = r.part;
            }
        }
        let rows = |p: usize| -> Result<RecordBatch, TableError> {
            let keep: BooleanArray = part.iter().map(|&q| Some(usize::from(q) == p)).collect();
            arrow_select::filter::filter_record_batch(batch, &keep).map_err(|e| TableError::Write {
                kind,
                message: e.to_string(),
            })
        };
        for (i, table) in extra.iter_mut().enumerate() {
            let rows = rows(i + 1)?;
            col.routes.count(i + 1, rows.num_rows() as u64);
            let bytes = table.write(&rows, None)?;
            if !bytes.is_empty() {
                col.routes.send(i + 1, bytes);
            }
        }
        let first = rows(0)?;
        col.routes.count(0, first.num_rows() as u64);
        Ok(first)
    }

    /// A chunk answered: the output rows, the report, and the rows encoded as a Parquet row group by the worker.
    type Answered = (
        RecordBatch,
        ChunkReport,
        Option<Result<Vec<ArrowColumnChunk>, TableError>>,
    );

    /// Opens the table for reading batches; the number of rows when the file says it.
    fn open(
        kind: TableKind,
        file: File,
        head: Vec<u8>,
        rows: usize,
    ) -> Result<(Box<dyn RecordBatchReader + Send>, Option<u64>), TableError> {
        let read = |e: &dyn std::fmt::Display| TableError::Read {
            kind,
            row: 1,
            message: e.to_string(),
        };
        // The table's own sizes, checked against its bytes before a reader allocates by them.
        let corrupt = |message| TableError::Corrupt {
            kind,
            part: TablePart::Footer,
            message,
        };
        match kind {
            TableKind::Parquet => {
                use std::os::unix::fs::FileExt;
                let len = file.metadata().map_err(|e| read(&e))?.len();
                let mut tail = [0u8; 4];
                if len < 12 || file.read_exact_at(&mut tail, len - 4).is_err() || &tail != b"PAR1" {
                    return Err(TableError::Truncated);
                }
                // The footer's declared sizes are checked, streamed, before the footer reader allocates by them; the
                // footer is then read a few row groups at a time: memory stays flat whatever their number.
                guard::check_parquet_footer(&file, len).map_err(corrupt)?;
                let (reader, total) =
                    crate::batch::footer::RowGroups::open(file, rows).map_err(|e| read(&e))?;
                Ok((Box::new(reader), u64::try_from(total).ok()))
            }
            TableKind::ArrowFile => {
                let len = file.metadata().map_err(|e| read(&e))?.len();
                guard::check_ipc_footer(&file, len).map_err(corrupt)?;
                let reader = arrow_ipc::reader::FileReader::try_new(io::BufReader::new(file), None)
                    .map_err(|e| read(&e))?;
                Ok((Box::new(reader), None))
            }
            TableKind::ArrowStream => {
                let stream = guard::Messages::new(io::Cursor::new(head).chain(file));
                let reader =
                    arrow_ipc::reader::StreamReader::try_new(stream, None).map_err(|e| read(&e))?;
                Ok((Box::new(reader), None))
            }
        }
    }

    /// The names of a schema's columns, for messages.
    fn column_list(schema: &Schema) -> String {
        let names: Vec<String> = schema
            .fields()
            .iter()
            .map(|f| format!("{:?}", f.name()))
            .collect();
        names.join(", ")
    }

    fn plan(
        schema: &SchemaRef,
        names: &ColumnNames,
        answer: CsvAnswer,
        copies: u32,
    ) -> Result<Plan, TableError> {
        let column_names: Vec<&[u8]> = schema
            .fields()
            .iter()
            .map(|f| f.name().as_bytes())
            .collect();
        let (puzzle, claim, _) = names.pick(column_names.iter().copied());
        let missing = |name: &String| TableError::NoNamedColumn {
            name: name.clone(),
            columns: column_list(schema),
        };
        let Some(puzzle) = puzzle else {
            return Err(match &names.puzzle {
                Some(n) => missing(n),
                None => TableError::NoPuzzleColumn {
                    columns: column_list(schema),
                },
            });
        };
        if let (Some(n), None) = (&names.solution, claim) {
            return Err(missing(n));
        }
        if answer == CsvAnswer::Rewrite {
            if let Some(name) = names.other_solution(&column_names) {
                return Err(TableError::SecondSolutionColumn {
                    name,
                    columns: column_list(schema),
                });
            }
        }
        for (i, solutions) in [(puzzle, false)]
            .into_iter()
            .chain(claim.map(|c| (c, true)))
        {
            let f = schema.field(i);
            if !is_text(f.data_type()) {
                let (column, data_type) = (f.name().clone(), type_name(f.data_type()));
                return Err(if solutions {
                    TableError::SolutionNotText { column, data_type }
                } else {
                    TableError::NotText { column, data_type }
                });
            }
        }
        let text = |name: &str| Arc::new(Field::new(name, DataType::Utf8, true));
        let mut fields: Vec<Arc<Field>> = schema.fields().iter().cloned().collect();
        let mut appended = 0;
        match answer {
            CsvAnswer::Solution => match claim {
                Some(c) => fields[c] = text(schema.field(c).name()),
                None => {
                    let plural = schema
                        .field(puzzle)
                        .name()
                        .trim()
                        .to_ascii_lowercase()
                        .ends_with('s');
                    fields.push(text(if plural { "solutions" } else { "solution" }));
                    appended = 1;
                }
            },
            CsvAnswer::Append(names) => {
                fields.extend(names.iter().map(|n| text(n)));
                appended = names.len();
            }
            CsvAnswer::Rewrite | CsvAnswer::Row => {
                for c in
                    std::iter::once(puzzle).chain(claim.filter(|_| answer == CsvAnswer::Rewrite))
                {
                    fields[c] = text(schema.field(c).name());
                }
            }
        }
        let group = copies > 1 && answer == CsvAnswer::Rewrite;
        if group {
            fields.push(Arc::new(Field::new("group", DataType::Int64, false)));
        }
        let schema = Arc::new(Schema::new_with_metadata(fields, schema.metadata().clone()));
        Ok(Plan {
            puzzle,
            claim,
            answer,
            appended,
            group,
            schema,
        })
    }

    /// Answers every row of `batch` (whose first row is row `first` of its input, 0-based): the output batch and
    /// the report, rows standing for lines (a failure's `line` and `record` are its row in the batch, `out_end` the
    /// rows up to and including it; a key's `out_start` is its row).
    fn answer<J: Job + ?Sized>(
        plan: &Plan,
        job: &J,
        batch: &RecordBatch,
        first: u64,
        cancel: &AtomicBool,
    ) -> (RecordBatch, ChunkReport) {
        if plan.group {
            return answer_copies(plan, job, batch, first, cancel);
        }
        let n = batch.num_rows();
        let mut report = ChunkReport {
            lines: n as u64,
            ..ChunkReport::default()
        };
        let puzzles = Texts::of(batch.column(plan.puzzle));
        let claims = plan.claim.map(|c| Texts::of(batch.column(c)));
        let builder = || StringBuilder::with_capacity(n, n * 82);
        // The answer columns: appended ones, or the puzzle column (and the claim column, for `Rewrite`).
        let mut cols: Vec<StringBuilder> = (0..plan.appended.max(1)).map(|_| builder()).collect();
        let mut claim_col =
            (plan.answer == CsvAnswer::Rewrite && plan.claim.is_some()).then(builder);
        let mut buf = Vec::with_capacity(256);
        let mut claim_buf = Vec::with_capacity(128);
        for i in 0..n {
            if cancel.load(Ordering::Relaxed) {
                // The run is stopping: the rest is never delivered.
                break;
            }
            let text = puzzles.get(i);
            let claim = claims.as_ref().and_then(|c| c.get(i));
            buf.clear();
            claim_buf.clear();
            let result = match text {
                None => Err(Failure::Malformed(RecordError::Null)),
                Some(t) => match Grid::parse_line(t) {
                    Err(e) => Err(Failure::Malformed(e.into())),
                    Ok(grid) => {
                        let record = Record {
                            puzzle: &grid,
                            claim,
                            position: first + i as u64,
                            text: t,
                        };
                        match plan.answer {
                            CsvAnswer::Rewrite => {
                                rewrite(job, &record, 0, &mut buf, &mut claim_buf)
                            }
                            _ => job.run_record(&record, TextLayout::CsvField, &mut buf),
                        }
                    }
                },
            };
            match result {
                Ok(answer) => {
                    match plan.answer {
                        CsvAnswer::Solution | CsvAnswer::Append(_) => {
                            let mut fields = buf.split(|&b| b == b',');
                            for c in cols.iter_mut() {
                                match fields.next() {
                                    Some(f) => c.append_value(String::from_utf8_lossy(f)),
                                    None => c.append_null(),
                                }
                            }
                        }
                        CsvAnswer::Rewrite => {
                            cols[0].append_value(String::from_utf8_lossy(&buf));
                            if let Some(c) = &mut claim_col {
                                if claim_buf.is_empty() {
                                    c.append_option(claim.map(String::from_utf8_lossy));
                                } else {
                                    c.append_value(String::from_utf8_lossy(&claim_buf));
                                }
                            }
                        }
                        // The row is kept as it is.
                        CsvAnswer::Row => cols[0].append_option(text.map(String::from_utf8_lossy)),
                    }
                    match answer {
                        Answer::Written => report.solved(),
                        Answer::FirstOf(key) => report.keyed(key, i, i + 1),
                        Answer::Part(part) => report.routed(part, i, i + 1),
                    }
                }
                Err(failure) => {
                    // The marker of a failed record, as the CSV path writes it (unquoted: a table needs none).
                    buf.clear();
                    crate::format::write_marker(&mut buf, &failure);
                    cols[0].append_value(String::from_utf8_lossy(&buf));
                    for c in cols.iter_mut().skip(1) {
                        c.append_null();
                    }
                    if let Some(c) = &mut claim_col {
                        c.append_option(claim.map(String::from_utf8_lossy));
                    }
                    report.failed(i as u64, failure, i + 1);
                }
            }
        }
        let done = report.records as usize;
        let mut columns: Vec<ArrayRef> = batch.columns().iter().map(|c| c.slice(0, done)).collect();
        let mut built = cols
            .into_iter()
            .map(|mut b| Arc::new(b.finish()) as ArrayRef);
        match plan.answer {
            CsvAnswer::Solution | CsvAnswer::Append(_) if plan.appended > 0 => {
                columns.extend(built)
            }
            CsvAnswer::Solution | CsvAnswer::Append(_) => {
                columns[plan.claim.expect("a solution column")] = built.next().expect("one")
            }
            CsvAnswer::Rewrite | CsvAnswer::Row => {
                columns[plan.puzzle] = built.next().expect("one");
                if let (Some(c), Some(mut b)) = (plan.claim, claim_col) {
                    columns[c] = Arc::new(b.finish());
                }
            }
        }
        let out = RecordBatch::try_new(plan.schema.clone(), columns)
            .expect("the columns follow the plan's schema");
        (out, report)
    }

    /// [`answer`] for a job with several copies of each row ([`Job::copies`]): each row answered once per copy,
    /// every other column repeated, the `group` column (the row's number in the input) added; a failed row is one
    /// row with its marker. The report's rows are input rows, but a failure's `out_end` counts output rows.
    fn answer_copies<J: Job + ?Sized>(
        plan: &Plan,
        job: &J,
        batch: &RecordBatch,
        first: u64,
        cancel: &AtomicBool,
    ) -> (RecordBatch, ChunkReport) {
        let n = batch.num_rows();
        let copies = job.copies() as usize;
        let mut report = ChunkReport {
            lines: n as u64,
            ..ChunkReport::default()
        };
        let puzzles = Texts::of(batch.column(plan.puzzle));
        let claims = plan.claim.map(|c| Texts::of(batch.column(c)));
        let builder = || StringBuilder::with_capacity(n * copies, n * copies * 82);
        let mut puzzle_col = builder();
        let mut claim_col = plan.claim.map(|_| builder());
        // The input row of each output row.
        let mut rows: Vec<u32> = Vec::with_capacity(n * copies);
        let mut made = vec![(Vec::new(), Vec::new()); copies];
        for i in 0..n {
            if cancel.load(Ordering::Relaxed) {
                break;
            }
            let text = puzzles.get(i);
            let claim = claims.as_ref().and_then(|c| c.get(i));
            let result = match text {
                None => Err(Failure::Malformed(RecordError::Null)),
                Some(t) => match Grid::parse_line(t) {
                    Err(e) => Err(Failure::Malformed(e.into())),
                    Ok(grid) => {
                        let record = Record {
                            puzzle: &grid,
                            claim,
                            position: first + i as u64,
                            text: t,
                        };
                        made.iter_mut().zip(0u32..).try_for_each(|((p, s), copy)| {
                            p.clear();
                            s.clear();
                            rewrite(job, &record, copy, p, s).map(|_| ())
                        })
                    }
                },
            };
            let lossy = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
            match result {
                Ok(()) => {
                    for (p, s) in &made {
                        puzzle_col.append_value(lossy(p));
                        if let Some(c) = &mut claim_col {
                            if s.is_empty() {
                                c.append_option(claim.map(lossy));
                            } else {
                                c.append_value(lossy(s));
                            }
                        }
                        rows.push(i as u32);
                    }
                    report.solved();
                }
                Err(failure) => {
                    let mut marker = Vec::new();
                    crate::format::write_marker(&mut marker, &failure);
                    puzzle_col.append_value(lossy(&marker));
                    if let Some(c) = &mut claim_col {
                        c.append_option(claim.map(lossy));
                    }
                    rows.push(i as u32);
                    report.failed(i as u64, failure, rows.len());
                }
            }
        }
        let take = arrow_array::UInt32Array::from(rows.clone());
        let mut columns: Vec<ArrayRef> = batch
            .columns()
            .iter()
            .map(|c| arrow_select::take::take(c, &take, None).expect("rows of the batch"))
            .collect();
        columns[plan.puzzle] = Arc::new(puzzle_col.finish());
        if let (Some(c), Some(mut b)) = (plan.claim, claim_col) {
            columns[c] = Arc::new(b.finish());
        }
        let groups = rows.iter().map(|&r| (first + u64::from(r)) as i64);
        columns.push(Arc::new(arrow_array::Int64Array::from_iter_values(groups)));
        let out = RecordBatch::try_new(plan.schema.clone(), columns)
            .expect("the columns follow the plan's schema");
        (out, report)
    }

    /// `CsvAnswer::Rewrite`: the job's answer for the puzzle (its copy `copy`) into `out`, and for the claim (when
    /// not empty) read as a puzzle into `claim_out`.
    fn rewrite<J: Job + ?Sized>(
        job: &J,
        record: &Record<'_>,
        copy: u32,
        out: &mut Vec<u8>,
        claim_out: &mut Vec<u8>,
    ) -> Result<Answer, Failure> {
        if let Some(c) = record.claim.filter(|c| !c.trim_ascii().is_empty()) {
            let solution = Grid::parse_line(c)
                .map_err(|e| Failure::WrongSolution(SolutionError::Unreadable(e)))?;
            let part = Record {
                puzzle: &solution,
                claim: None,
                ..*record
            };
            job.run_copy(&part, copy, TextLayout::CsvField, claim_out)?;
        }
        let part = Record {
            claim: None,
            ..*record
        };
        job.run_copy(&part, copy, TextLayout::CsvField, out)
    }

    /// Bytes a table writer writes, taken away after every batch.
    #[derive(Default)]
    struct Spill(Vec<u8>);

    impl Write for Spill {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    /// The output table being encoded.
    enum Out {
        /// Parquet: one row group per chunk, its columns encoded by the worker ([`Parallel`]), written in order.
        Parquet {
            file: SerializedFileWriter<Spill>,
            parallel: Arc<Parallel>,
        },
        /// Arrow IPC: rows gathered into batches of [`OUT_BATCH`] rows, encoded on the calling thread.
        Ipc(Ipc),
    }

    impl Out {
        /// A table of `schema` whose columns named in `plain` are written without a dictionary (Parquet), compressed
        /// with `compression` (refused when the kind cannot take it).
        fn new(
            kind: TableKind,
            schema: SchemaRef,
            plain: Vec<String>,
            compression: TableCompression,
        ) -> Result<Out, TableError> {
            let fail = |e: &dyn std::fmt::Display| TableError::Write {
                kind,
                message: e.to_string(),
            };
            Ok(match kind {
                TableKind::Parquet => {
                    let parallel =
                        Parallel::new(schema, plain, compression).map_err(|e| fail(&e))?;
                    let file = SerializedFileWriter::new(
                        Spill::default(),
                        parallel.descr.root_schema_ptr(),
                        parallel.props.clone(),
                    )
                    .map_err(|e| fail(&e))?;
                    Out::Parquet {
                        file,
                        parallel: Arc::new(parallel),
                    }
                }
                TableKind::ArrowFile | TableKind::ArrowStream => Out::Ipc(Ipc {
                    encoder: IpcEncoder::new(kind, &schema, compression)?,
                    schema,
                    pending: Vec::new(),
                    rows: 0,
                }),
            })
        }

        /// What the workers encode with, when they do.
        fn parallel(&self) -> Option<Arc<Parallel>> {
            match self {
                Out::Parquet { parallel, .. } => Some(parallel.clone()),
                Out::Ipc(_) => None,
            }
        }

        /// Takes the next rows, with their row group when a worker encoded them; returns the bytes ready.
        fn write(
            &mut self,
            batch: &RecordBatch,
            encoded: Option<Result<Vec<ArrowColumnChunk>, TableError>>,
        ) -> Result<Vec<u8>, TableError> {
            match self {
                Out::Ipc(ipc) => ipc.write(batch),
                Out::Parquet { file, parallel } => {
                    if batch.num_rows() == 0 {
                        return Ok(Vec::new());
                    }
                    let chunks = match encoded {
                        Some(chunks) => chunks?,
                        None => parallel.encode(batch)?,
                    };
                    let fail = |e: ParquetError| TableError::Write {
                        kind: TableKind::Parquet,
                        message: e.to_string(),
                    };
                    let mut group = file.next_row_group().map_err(fail)?;
                    for chunk in chunks {
                        chunk.append_to_row_group(&mut group).map_err(fail)?;
                    }
                    group.close().map_err(fail)?;
                    Ok(std::mem::take(&mut file.inner_mut().0))
                }
            }
        }

        /// Ends the table; returns its last bytes.
        fn finish(self) -> Result<Vec<u8>, TableError> {
            match self {
                Out::Ipc(ipc) => ipc.finish(),
                Out::Parquet { file, .. } => {
                    file.into_inner()
                        .map(|spill| spill.0)
                        .map_err(|e| TableError::Write {
                            kind: TableKind::Parquet,
                            message: e.to_string(),
                        })
                }
            }
        }
    }

    /// What a worker needs to encode a row group of a Parquet output.
    struct Parallel {
        descr: SchemaDescriptor,
        props: WriterPropertiesPtr,
        schema: SchemaRef,
    }

    impl Parallel {
        fn new(
            schema: SchemaRef,
            plain: Vec<String>,
            compression: TableCompression,
        ) -> Result<Parallel, ParquetError> {
            use parquet::basic::{Compression, ZstdLevel};
            use parquet::schema::types::ColumnPath;
            let codec = match compression {
                TableCompression::Zstd => Compression::ZSTD(ZstdLevel::try_new(1)?),
                TableCompression::Snappy => Compression::SNAPPY,
                TableCompression::Lz4 => Compression::LZ4_RAW,
                TableCompression::None => Compression::UNCOMPRESSED,
            };
            let mut props = WriterProperties::builder()
                .set_compression(codec)
                .set_max_row_group_size(CHUNK_ROWS);
            // Puzzles and answers hardly repeat: a dictionary would only cost time.
            for name in plain {
                props = props.set_column_dictionary_enabled(ColumnPath::from(name), false);
            }
            let mut props = props.build();
            parquet::arrow::add_encoded_arrow_schema_to_metadata(&schema, &mut props);
            let descr = parquet::arrow::ArrowSchemaConverter::new().convert(&schema)?;
            Ok(Parallel {
                descr,
                props: Arc::new(props),
                schema,
            })
        }

        /// The columns of `batch` encoded as the column chunks of one row group.
        fn encode(&self, batch: &RecordBatch) -> Result<Vec<ArrowColumnChunk>, TableError> {
            let run = || -> Result<Vec<ArrowColumnChunk>, ParquetError> {
                let mut writers = get_column_writers(&self.descr, &self.props, &self.schema)?;
                let mut next = writers.iter_mut();
                for (field, column) in self.schema.fields().iter().zip(batch.columns()) {
                    for leaf in compute_leaves(field, column)? {
                        next.next()
                            .ok_or_else(|| {
                                ParquetError::General("a column without a writer".into())
                            })?
                            .write(&leaf)?;
                    }
                }
                writers.into_iter().map(|w| w.close()).collect()
            };
            run().map_err(|e| TableError::Write {
                kind: TableKind::Parquet,
                message: e.to_string(),
            })
        }
    }

    /// An Arrow IPC output: rows gathered into batches of [`OUT_BATCH`] rows whatever the chunks, so that the bytes
    /// do not depend on chunk sizes or threads.
    struct Ipc {
        encoder: IpcEncoder,
        schema: SchemaRef,
        pending: Vec<RecordBatch>,
        rows: usize,
    }

    impl Ipc {
        /// Takes `batch`; encodes every whole [`OUT_BATCH`] of the rows taken so far and returns the bytes ready.
        fn write(&mut self, batch: &RecordBatch) -> Result<Vec<u8>, TableError> {
            if batch.num_rows() == 0 {
                return Ok(Vec::new());
            }
            self.rows += batch.num_rows();
            self.pending.push(batch.clone());
            let mut bytes = Vec::new();
            if self.rows >= OUT_BATCH {
                let all = self.gathered()?;
                let mut at = 0;
                while all.num_rows() - at >= OUT_BATCH {
                    bytes.append(&mut self.encoder.write(&all.slice(at, OUT_BATCH))?);
                    at += OUT_BATCH;
                }
                self.rows = all.num_rows() - at;
                if self.rows > 0 {
                    self.pending.push(all.slice(at, self.rows));
                }
            }
            Ok(bytes)
        }

        /// The pending batches as one.
        fn gathered(&mut self) -> Result<RecordBatch, TableError> {
            let pending = std::mem::take(&mut self.pending);
            arrow_select::concat::concat_batches(&self.schema, &pending).map_err(|e| {
                TableError::Write {
                    kind: self.encoder.kind(),
                    message: e.to_string(),
                }
            })
        }

        /// Encodes the rows left and ends the table; returns its last bytes.
        fn finish(mut self) -> Result<Vec<u8>, TableError> {
            let mut bytes = Vec::new();
            if self.rows > 0 {
                let all = self.gathered()?;
                bytes = self.encoder.write(&all)?;
            }
            bytes.append(&mut self.encoder.finish()?);
            Ok(bytes)
        }
    }

    enum IpcEncoder {
        File(arrow_ipc::writer::FileWriter<Spill>),
        Stream(arrow_ipc::writer::StreamWriter<Spill>),
    }

    impl IpcEncoder {
        /// An encoder of `schema` whose buffers are compressed with `compression` (lz4 frames, zstd, or none).
        fn new(
            kind: TableKind,
            schema: &Schema,
            compression: TableCompression,
        ) -> Result<IpcEncoder, TableError> {
            use arrow_ipc::writer::{FileWriter, IpcWriteOptions, StreamWriter};
            use arrow_ipc::CompressionType;
            let codec = match compression {
                TableCompression::Lz4 => Some(CompressionType::LZ4_FRAME),
                TableCompression::Zstd => Some(CompressionType::ZSTD),
                TableCompression::None => None,
                TableCompression::Snappy => return Err(TableError::IpcCodec(compression)),
            };
            let make = || -> Result<IpcEncoder, arrow_schema::ArrowError> {
                let options = IpcWriteOptions::default().try_with_compression(codec)?;
                Ok(match kind {
                    TableKind::ArrowStream => IpcEncoder::Stream(
                        StreamWriter::try_new_with_options(Spill::default(), schema, options)?,
                    ),
                    _ => IpcEncoder::File(FileWriter::try_new_with_options(
                        Spill::default(),
                        schema,
                        options,
                    )?),
                })
            };
            make().map_err(|e| TableError::Write {
                kind,
                message: e.to_string(),
            })
        }

        fn kind(&self) -> TableKind {
            match self {
                IpcEncoder::File(_) => TableKind::ArrowFile,
                IpcEncoder::Stream(_) => TableKind::ArrowStream,
            }
        }

        fn fail(&self, e: arrow_schema::ArrowError) -> TableError {
            TableError::Write {
                kind: self.kind(),
                message: e.to_string(),
            }
        }

        /// Encodes `batch`; returns the bytes ready so far.
        fn write(&mut self, batch: &RecordBatch) -> Result<Vec<u8>, TableError> {
            let r = match self {
                IpcEncoder::File(w) => w.write(batch),
                IpcEncoder::Stream(w) => w.write(batch),
            };
            r.map_err(|e| self.fail(e))?;
            let spill = match self {
                IpcEncoder::File(w) => w.get_mut(),
                IpcEncoder::Stream(w) => w.get_mut(),
            };
            Ok(std::mem::take(&mut spill.0))
        }

        /// Ends the table; returns its last bytes.
        fn finish(self) -> Result<Vec<u8>, TableError> {
            let kind = self.kind();
            let fail = |e: arrow_schema::ArrowError| TableError::Write {
                kind,
                message: e.to_string(),
            };
            let spill = match self {
                IpcEncoder::File(w) => w.into_inner().map_err(fail)?,
                IpcEncoder::Stream(w) => w.into_inner().map_err(fail)?,
            };
            Ok(spill.0)
        }
    }
}

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
