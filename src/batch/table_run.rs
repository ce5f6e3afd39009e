//! The table run: a Parquet or Arrow table, its batches read and cut into chunks of [`CHUNK_ROWS`] rows
//! ([`Rows`]), answered on the workers, and delivered in order through the run's one [`Collector`] (a
//! [`TableAnswers`] each) to the writer; in a run with several outputs, a table for each, its rows cut from each
//! chunk by the part they were answered for. (Built with the cargo feature `parquet`; without it a table input is
//! refused before it gets here.)

use std::fs::File;
use std::io::{self, Read};
use std::ops::Range;
use std::sync::atomic::AtomicBool;

use arrow_array::{BooleanArray, RecordBatch, RecordBatchReader};
use arrow_schema::SchemaRef;
use parquet::arrow::arrow_writer::ArrowColumnChunk;

use super::collector::{Answers, Collector};
use super::options::BatchOptions;
use super::route::Routes;
use super::table::{TableCompression, TableError, TableKind, TablePart, CHUNK_BYTES, CHUNK_ROWS};
use super::table_answer::{answer, plan, Plan};
use super::table_guard::{self as guard, fence};
use super::table_writer::Out;
use super::BatchError;
use crate::ordered_run::OrderedRun;
use crate::record::{ChunkReport, Job};

/// What a table run needs from the run of its inputs besides the job.
pub(super) struct Context<'a, 'o> {
    pub(super) opts: &'a BatchOptions,
    pub(super) run: &'a OrderedRun,
    pub(super) col: &'a mut Collector<'o>,
}

/// Copies a stream that starts with `head` to an unnamed temporary file (its name is removed at once), and gives
/// that file back at its start.
pub(super) fn spool(head: &[u8], mut from: std::fs::File) -> io::Result<std::fs::File> {
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

/// Runs `job` over the table in `file` (after `head`, the bytes already read from a stream) named `name`: chunks
/// of rows answered on the workers, delivered in order through the collector.
pub(super) fn run<J: Job + ?Sized>(
    kind: TableKind,
    file: File,
    head: Vec<u8>,
    job: &J,
    name: &str,
    cx: Context<'_, '_>,
) -> Result<(), BatchError> {
    let err = |source| BatchError::Table {
        name: name.to_string(),
        source,
    };
    let Context { opts, run, col } = cx;
    let parts = col.routes().parts().max(1);
    let (mut rows, plan, mut extra, total) =
        start(kind, file, head, job, opts, parts).map_err(err)?;
    // The run's own table; the others are those of output parts 1, 2, ... of a run with several.
    let mut out = extra.remove(0);
    let parallel = out.parallel();
    let window = crate::ordered::window(run.engine.threads(), CHUNK_BYTES);
    let file_len = col.total().unwrap_or(0);
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
    let deliver = |(batch, rep, encoded): Answered| {
        let before = done_rows;
        // Input rows (a job with copies writes more).
        done_rows += rep.lines;
        let bytes = bytes_done(file_len, total, before, done_rows);
        let answers = TableAnswers {
            batch,
            encoded,
            out: &mut out,
            extra: &mut extra,
            kind,
            name,
        };
        col.deliver(answers, rep, bytes, run)
    };
    run.engine
        .run(window, || rows.next_chunk().map_err(err), work, deliver)?;
    for (i, table) in extra.into_iter().enumerate() {
        let rest = table.finish().map_err(err)?;
        col.send_part(i + 1, rest);
    }
    let rest = out.finish().map_err(err)?;
    col.send(rest, run)
}

/// Opens the table and plans its answers: its rows to be read in chunks, the plan, the output tables (one for each
/// of `parts` outputs), and the number of rows when the file says it.
fn start<J: Job + ?Sized>(
    kind: TableKind,
    file: File,
    head: Vec<u8>,
    job: &J,
    opts: &BatchOptions,
    parts: usize,
) -> Result<(Rows, Plan, Vec<Out>, Option<u64>), TableError> {
    let (reader, total) =
        fence(|| open(kind, file, head, CHUNK_ROWS)).map_err(|message| TableError::Corrupt {
            kind,
            part: TablePart::Footer,
            message,
        })??;
    let schema = reader.schema();
    let plan = plan(&schema, &opts.columns, job.csv_answer(), job.copies())?;
    let fields = plan.schema.fields();
    let plain: Vec<String> = std::iter::once(plan.puzzle)
        .chain(plan.claim)
        .chain(fields.len() - plan.appended..fields.len())
        .map(|i| fields[i].name().clone())
        .collect();
    let compression = opts
        .table_compression
        .unwrap_or(TableCompression::default_for(kind));
    let outs = (0..parts)
        .map(|_| Out::new(kind, plan.schema.clone(), plain.clone(), compression))
        .collect::<Result<Vec<_>, _>>()?;
    let rows = Rows {
        reader,
        schema,
        kind,
        pending: None,
        parts: Vec::new(),
        have: 0,
        row: 0,
        batches: 0,
    };
    Ok((rows, plan, outs, total))
}

/// Progress in bytes of the file, estimated from the rows done (a table's size is not in rows): the bytes of
/// rows `before..after` of `total` rows, for a file of `file_len` bytes; 0 when the file does not say its rows.
fn bytes_done(file_len: u64, total: Option<u64>, before: u64, after: u64) -> u64 {
    match total {
        // In u128: bytes times rows can pass u64.
        Some(t) if t > 0 => {
            let at = |r: u64| (u128::from(file_len) * u128::from(r.min(t)) / u128::from(t)) as u64;
            at(after) - at(before)
        }
        _ => 0,
    }
}

/// A chunk answered: the output rows, the report, and the rows encoded as a Parquet row group by the worker.
type Answered = (
    RecordBatch,
    ChunkReport,
    Option<Result<Vec<ArrowColumnChunk>, TableError>>,
);

/// A table's batches cut into chunks: whatever the input's batches, every chunk but the last has [`CHUNK_ROWS`]
/// rows (small row groups or batches are gathered, large ones cut).
struct Rows {
    reader: Box<dyn RecordBatchReader + Send>,
    schema: SchemaRef,
    kind: TableKind,
    /// The batch being cut into chunks, and where the rows not yet taken start in it.
    pending: Option<(RecordBatch, usize)>,
    /// The parts of the next chunk, and their rows.
    parts: Vec<RecordBatch>,
    have: usize,
    /// Rows before the next chunk.
    row: u64,
    /// Batches asked of the reader.
    batches: u64,
}

impl Rows {
    /// The next chunk and the 0-based row it starts at, or `None` at the end of the table.
    fn next_chunk(&mut self) -> Result<Option<(RecordBatch, u64)>, TableError> {
        let kind = self.kind;
        loop {
            if let Some((batch, at)) = &mut self.pending {
                let n = (CHUNK_ROWS - self.have).min(batch.num_rows() - *at);
                if n > 0 {
                    self.parts.push(batch.slice(*at, n));
                    *at += n;
                    self.have += n;
                }
                if *at == batch.num_rows() {
                    self.pending = None;
                }
            }
            let end = self.have < CHUNK_ROWS && self.pending.is_none() && self.read_batch()?;
            if self.have == CHUNK_ROWS || (end && self.have > 0) {
                let chunk = match self.parts.len() {
                    1 => self.parts.pop().expect("one part"),
                    _ => arrow_select::concat::concat_batches(&self.schema, &self.parts).map_err(
                        |e| TableError::Read {
                            kind,
                            row: self.row + 1,
                            message: e.to_string(),
                        },
                    )?,
                };
                self.parts.clear();
                let first = self.row;
                self.row += self.have as u64;
                self.have = 0;
                return Ok(Some((chunk, first)));
            }
            if end {
                return Ok(None);
            }
        }
    }

    /// Reads the reader's next batch into `pending`; true at the end of the table.
    fn read_batch(&mut self) -> Result<bool, TableError> {
        let kind = self.kind;
        let row = self.row + self.have as u64 + 1;
        self.batches += 1;
        let batch = self.batches;
        let reader = &mut self.reader;
        let next = fence(|| reader.next()).map_err(|message| TableError::Corrupt {
            kind,
            part: TablePart::Batch { batch, row },
            message,
        })?;
        match next {
            None => Ok(true),
            Some(Ok(batch)) => {
                self.pending = Some((batch, 0));
                Ok(false)
            }
            Some(Err(e)) => Err(TableError::Read {
                kind,
                row,
                message: e.to_string(),
            }),
        }
    }
}

/// A chunk's answers as the collector takes them: rows (a failure's `out_end` and a key's `out_start` count rows),
/// encoded by the output table once the collector is done with them.
struct TableAnswers<'a> {
    batch: RecordBatch,
    /// The rows as a Parquet row group, encoded by the worker (none once rows are cut or left out).
    encoded: Option<Result<Vec<ArrowColumnChunk>, TableError>>,
    out: &'a mut Out,
    /// The output tables of parts 1, 2, ... of a run with several outputs.
    extra: &'a mut [Out],
    /// The input's kind and name, for errors.
    kind: TableKind,
    name: &'a str,
}

impl TableAnswers<'_> {
    fn fail(&self, source: TableError) -> BatchError {
        BatchError::Table {
            name: self.name.to_string(),
            source,
        }
    }

    /// The rows of the batch whose `keep` is true.
    fn filter(&self, keep: Vec<bool>) -> Result<RecordBatch, BatchError> {
        arrow_select::filter::filter_record_batch(&self.batch, &BooleanArray::from(keep)).map_err(
            |e| {
                self.fail(TableError::Write {
                    kind: self.kind,
                    message: e.to_string(),
                })
            },
        )
    }
}

impl Answers for TableAnswers<'_> {
    fn units(&self) -> usize {
        self.batch.num_rows()
    }

    fn cut(&mut self, end: usize) {
        self.batch = self.batch.slice(0, end);
        self.encoded = None;
    }

    fn leave_out(&mut self, repeats: impl Iterator<Item = Range<usize>>) -> Result<(), BatchError> {
        let mut keep = vec![true; self.batch.num_rows()];
        for rows in repeats {
            keep[rows].fill(false);
        }
        self.batch = self.filter(keep)?;
        Ok(())
    }

    /// Rows are not separated by a byte: a table input's collector has no separator to drop.
    fn drop_separator(&mut self, _: u8) {}

    /// Writes the rows of parts 1, 2, ... to their tables and sends the tables' bytes to their outputs; keeps the
    /// rows of part 0 (rows routed nowhere, failed ones, are left out).
    fn route(
        &mut self,
        rep: &ChunkReport,
        routes: &mut Routes,
        _: Option<u8>,
    ) -> Result<(), BatchError> {
        let mut part = vec![u8::MAX; self.batch.num_rows()];
        for r in &rep.routed {
            if let Some(p) = part.get_mut(r.out_start) {
                *p = r.part;
            }
        }
        let rows = |p: usize| {
            part.iter()
                .map(|&q| usize::from(q) == p)
                .collect::<Vec<_>>()
        };
        for i in 0..self.extra.len() {
            let batch = self.filter(rows(i + 1))?;
            routes.count(i + 1, batch.num_rows() as u64);
            let bytes = self.extra[i]
                .write(&batch, None)
                .map_err(|e| self.fail(e))?;
            if !bytes.is_empty() {
                routes.send(i + 1, bytes);
            }
        }
        self.batch = self.filter(rows(0))?;
        routes.count(0, self.batch.num_rows() as u64);
        self.encoded = None;
        Ok(())
    }

    fn into_bytes(self) -> Result<Vec<u8>, BatchError> {
        match self.out.write(&self.batch, self.encoded) {
            Ok(bytes) => Ok(bytes),
            Err(e) => Err(BatchError::Table {
                name: self.name.to_string(),
                source: e,
            }),
        }
    }
}

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
                super::footer::RowGroups::open(file, rows).map_err(|e| read(&e))?;
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
