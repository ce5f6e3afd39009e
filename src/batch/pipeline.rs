//! The run: open every input, decide each one's format, cut it into record-aligned chunks, work on the chunks on
//! the engine of [`crate::ordered`] (sequential with one thread, otherwise a pool with a capped window of chunks in
//! flight, so memory stays flat for any input size), and hand the results to the one [`Writer`](crate::output::Writer) in input order
//! while counting failed records and telling the [`Observer`] about them.
//!
//! Output is committed (a file renamed into place) only when the whole run succeeded and no input changed under it.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use super::chunk::{Chunk, ChunkError, Chunks};
use super::input::{Data, InputSpec, Opened};
use super::report::{BatchSummary, Counts};
use super::route::Routes;
use super::table;
use super::BatchError;
use crate::format::csv::ColumnNames;
use crate::format::{self, Format, Place, Plan, Prepared, Skipped};
use crate::ordered::{Flow, Threads, IN_FLIGHT};
use crate::output::{Ordered, OutputError, Target};
use crate::record::{ChunkReport, CsvAnswer, Job, Observer, Progress};

/// Default chunk size: big enough that per-chunk costs vanish, small enough that a few per thread balance the load.
pub(crate) const DEFAULT_CHUNK_SIZE: usize = 256 * 1024;

/// The smallest chunk many threads shrink chunks to: below it the cost per chunk of hundreds of threads on a few
/// cores outweighs the work.
const MIN_CHUNK: usize = 32 * 1024;

/// The chunk size of a run on `threads` threads, for a chunk size of `chunk`: made smaller (down to [`MIN_CHUNK`])
/// for many threads, so that each gets two chunks in flight or more within [`IN_FLIGHT`] (the window of
/// [`crate::ordered::window`]; what a chunk holds besides its input is a small multiple of its size, see the chunker's
/// line cap).
fn chunk_size(threads: usize, chunk: usize) -> usize {
    if threads <= 1 {
        return chunk;
    }
    chunk.min((IN_FLIGHT / (2 * threads)).max(MIN_CHUNK))
}

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
    /// output line (line and CSV inputs only; a grid input is refused with [`BatchError::KeepLinesGrid`]).
    pub keep_lines: bool,
    /// The CSV columns the user named (`--column`, `--solution-column`); the default names otherwise.
    pub columns: ColumnNames,
    /// How a table output is compressed; `None`: the kind's default (zstd for Parquet, none for Arrow IPC).
    pub table_compression: Option<table::TableCompression>,
    /// Write the job's header line ([`Job::line_header`]) first when the output is in the line format (not with
    /// `json`, and not after another input's output; a CSV output has a header of its own).
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

/// Runs `job` on every record of `inputs`, in order, writing one output record per input record to `target`.
/// Failed records are marked, counted and told to `observer` (with the run's progress), not errors; the error
/// cases are inputs that cannot be read, output that cannot be written, and inputs that change during the run.
pub fn run_batch<J: Job + ?Sized>(
    inputs: Vec<InputSpec>,
    target: &Target,
    job: &J,
    opts: &BatchOptions,
    observer: &mut dyn Observer,
) -> Result<BatchSummary, BatchError> {
    run(inputs, target, &[], job, opts, observer).map(|(summary, _)| summary)
}

/// Runs `job` as [`run_batch`] does, with one output per target: each record the job answers with
/// [`Answer::Part(n)`](crate::record::Answer::Part) goes, whole and in input order, to `targets[n]`; a failed record
/// (told to `observer` and counted) and a record answered otherwise go nowhere. Each output is complete on its
/// own: the input's preamble (a CSV header) starts every one, and a table input gives a table for each. Returns the
/// summary and the records written to each target. Every output is completed only when the run succeeds; on an
/// error none is created (a file target) — except that one completed before a later one failed to complete stays.
pub fn run_routed<J: Job + ?Sized>(
    inputs: Vec<InputSpec>,
    targets: &[Target],
    job: &J,
    opts: &BatchOptions,
    observer: &mut dyn Observer,
) -> Result<(BatchSummary, Vec<u64>), BatchError> {
    match targets {
        [] => Ok((BatchSummary::default(), Vec::new())),
        [one] => run(inputs, one, &[], job, opts, observer).map(|(s, _)| {
            let written = s.counts.solved();
            (s, vec![written])
        }),
        [first, extra @ ..] => run(inputs, first, extra, job, opts, observer),
    }
}

/// The run of [`run_batch`] and [`run_routed`]: `extra` are the targets of output parts 1, 2, ...
fn run<J: Job + ?Sized>(
    inputs: Vec<InputSpec>,
    target: &Target,
    extra: &[Target],
    job: &J,
    opts: &BatchOptions,
    observer: &mut dyn Observer,
) -> Result<(BatchSummary, Vec<u64>), BatchError> {
    let started = Instant::now();
    if inputs.iter().filter(|i| **i == InputSpec::Stdin).count() > 1 {
        return Err(BatchError::StdinTwice);
    }
    let mut opened = inputs
        .into_iter()
        .map(|spec| Opened::open(spec, opts.mmap))
        .collect::<Result<Vec<_>, _>>()?;
    let total = opened.iter().map(Opened::len).sum::<Option<u64>>();
    let chunk_size = chunk_size(opts.threads.get(), opts.chunk_size);
    let run = Ordered::start::<BatchError>(opts.threads, chunk_size, target)?;
    let routes = Routes::start(extra)?;
    let threads = run.engine.threads();
    let mut col = Collector {
        observer,
        total,
        fail_fast: opts.fail_fast,
        counts: Counts::default(),
        bytes_in: 0,
        bytes_out: 0,
        name: String::new(),
        line: 0,
        separator: None,
        wrote_record: false,
        stopped: false,
        seen: std::collections::HashSet::new(),
        routes,
    };
    let mut result = Ok(());
    let others = opened.len() > 1;
    for input in opened.iter_mut() {
        let written_before = col.bytes_out;
        result = input.start().and_then(|()| match input.data {
            Data::Table { .. } => {
                let cx = table::Context {
                    opts,
                    engine: &run.engine,
                    writer: &run.writer,
                    col: &mut col,
                    others,
                    terminal: run.terminal,
                };
                table::each_table(input, job, cx)
            }
            _ => each_input(input, job, opts, &run, chunk_size, &mut col),
        });
        if let Err(e) = result {
            let wrote = col.bytes_out > written_before;
            result = Err(read_failure(input, e, run.atomic, wrote));
        }
        input.done();
        if result.is_err() || col.stopped {
            break;
        }
    }
    if result.is_ok() && crate::ordered::stopped() {
        result = Err(BatchError::Stopped);
    }
    if result.is_ok() && !col.stopped {
        result = check_unchanged(&opened, run.atomic);
    }
    let writer = run.writer;
    let routes = std::mem::take(&mut col.routes);
    let parts = routes.counts.clone();
    match result {
        Ok(()) if !col.stopped => {
            if let Err(e) = writer.finish() {
                routes.abort();
                return Err(e.into());
            }
            routes.finish()?;
        }
        // Stopped by --fail-fast: the output is not completed (a file is not created).
        Ok(()) => {
            writer.abort();
            routes.abort();
        }
        // A writer stopped: its own error says why.
        Err(BatchError::Output(OutputError::Aborted)) => {
            let first = writer.finish();
            let rest = routes.finish();
            return Err(match (first, rest) {
                (Err(e), _) | (_, Err(e)) => e.into(),
                _ => writer_stopped(),
            });
        }
        Err(e) => {
            writer.abort();
            routes.abort();
            return Err(e);
        }
    }
    let summary = BatchSummary {
        counts: col.counts,
        seconds: started.elapsed().as_secs_f64(),
        threads,
        inputs: opened.len(),
        bytes_in: col.bytes_in,
        bytes_out: col.bytes_out,
        stopped: col.stopped,
    };
    Ok((summary, parts))
}

/// One input: its format, then its chunks through the engine and, in order, through the collector to the writer.
fn each_input<J: Job + ?Sized>(
    input: &mut Opened,
    job: &J,
    opts: &BatchOptions,
    run: &Ordered,
    chunk_size: usize,
    col: &mut Collector<'_>,
) -> Result<(), BatchError> {
    let writer = &run.writer;
    let name = input.name.clone();
    let compressed = matches!(input.data, Data::Decoded(_));
    // Pipe mode on a pipe, FIFO or terminal answers each line as it comes (its writer may wait for the answer).
    let interactive = (opts.keep_lines && !opts.json)
        .then(|| input.interactive())
        .flatten();
    let mut chunks = chunks_of(input, chunk_size);
    if interactive.is_some() {
        chunks.answer_each_line();
    }
    let (mut prep, skipped, before_header) =
        prepare(&mut chunks, opts, job.csv_answer(), &name, compressed)?;
    let keep = if opts.keep_lines && !opts.json {
        if prep.plan == Plan::Grid {
            return Err(BatchError::KeepLinesGrid { name });
        }
        // The comment and blank lines before a CSV header go out before it.
        let mut preamble = before_header;
        preamble.append(&mut prep.preamble);
        prep.preamble = preamble;
        Skipped::Keep
    } else {
        Skipped::Drop
    };
    if opts.header && !opts.json && prep.plan == Plan::Line && col.bytes_out == 0 {
        if let Some(header) = job.line_header() {
            prep.preamble.extend_from_slice(header.as_bytes());
            prep.preamble.push(b'\n');
        }
    }
    // A CSV whose rows a job copies gets a `group` column: the input record's number in the run.
    let mut next_record =
        (job.copies() > 1 && matches!(prep.plan, Plan::Csv(_))).then_some(col.counts.records);
    if next_record.is_some() && prep.preamble.ends_with(b"\n") {
        prep.preamble.pop();
        prep.preamble.extend_from_slice(b",group\n");
    }
    col.begin(&name, &prep, skipped, opts.json);
    // With JSON Lines output, every chunk is told the line it starts at: the chunks are cut in order, so a running
    // count of their newlines gives it (one extra pass over the bytes, in JSON mode only).
    let mut next_line = skipped;
    if !prep.preamble.is_empty() {
        writer
            .send(prep.preamble.clone())
            .map_err(|_| writer_stopped())?;
        col.routes.preamble(&prep.preamble);
    }
    let plan = &prep.plan;
    let chunks = std::cell::RefCell::new(chunks);
    // Without waiting on the input while answers are in flight: they go out first.
    let ready = || {
        interactive.as_ref().is_none_or(|f| {
            chunks.borrow().has_line() || crate::os::readable_now(std::os::fd::AsFd::as_fd(f))
        })
    };
    run.engine.run_paced(
        run.window,
        ready,
        || {
            let mut chunks = chunks.borrow_mut();
            let base = chunks.position();
            let chunk = chunks.next_chunk().map_err(chunk_error(&name))?;
            Ok(chunk.map(|c| {
                let json = opts.json.then_some(next_line);
                if opts.json {
                    next_line += match &c {
                        Chunk::Oversized { lines, .. } => *lines,
                        bytes => memchr::memchr_iter(b'\n', bytes).count() as u64,
                    };
                }
                let record = next_record;
                if let Some(n) = &mut next_record {
                    *n += match &c {
                        Chunk::Oversized { .. } => 1,
                        bytes => format::records_in_lines(bytes),
                    };
                }
                (
                    Place {
                        base,
                        json,
                        skipped: keep,
                        record,
                    },
                    c,
                )
            }))
        },
        |(place, chunk): (Place, Chunk<'_>), cancel: &AtomicBool| {
            let room = if opts.json {
                chunk.len() * 3
            } else {
                chunk.len() + chunk.len() / 8
            };
            let mut out = writer.buffer(room + 256);
            let rep = work(plan, job, &chunk, place, &mut out, cancel);
            (chunk, out, rep)
        },
        |(chunk, mut out, rep)| {
            let (go, progress) = col.accept(chunk.input_len(), &mut out, rep);
            if run.put(out, progress, &mut *col.observer) == Flow::Stop || col.routes.failed {
                return Err(writer_stopped());
            }
            chunks.borrow_mut().recycle(chunk);
            Ok(if go { Flow::Go } else { Flow::Stop })
        },
    )
}

/// The writer thread stopped; [`Writer::finish`] says why.
fn writer_stopped() -> BatchError {
    BatchError::Output(OutputError::Aborted)
}

/// Takes chunk results in input order: fixes up what depends on the records before (line numbers, the record
/// separator, `--fail-fast`), counts, and tells the observer about failures and progress.
pub(super) struct Collector<'o> {
    pub(super) observer: &'o mut dyn Observer,
    /// Bytes of all the inputs, when known.
    pub(super) total: Option<u64>,
    fail_fast: bool,
    pub(super) counts: Counts,
    bytes_in: u64,
    pub(super) bytes_out: u64,
    name: String,
    /// 0-based line at the start of the next chunk of the current input.
    line: u64,
    /// The byte the format writes before every record, dropped before the first record of the output.
    separator: Option<u8>,
    wrote_record: bool,
    /// Set when `--fail-fast` met a failed record.
    pub(super) stopped: bool,
    /// Keys of the records kept so far ([`crate::record::Answer::FirstOf`]), over every input of the run.
    pub(super) seen: std::collections::HashSet<[u8; 32]>,
    /// The outputs beyond the first of a run with several ([`run_routed`]).
    pub(super) routes: Routes,
}

impl Collector<'_> {
    fn begin(&mut self, name: &str, prep: &Prepared, skipped_lines: u64, json: bool) {
        self.name.clear();
        self.name.push_str(name);
        self.line = skipped_lines;
        self.separator = if json { None } else { prep.plan.separator() };
        self.bytes_in += prep.skip as u64;
        self.bytes_out += prep.preamble.len() as u64;
    }

    /// Starts a table input: failures are told by its name and their 1-based row.
    pub(super) fn begin_table(&mut self, name: &str) {
        self.name.clear();
        self.name.push_str(name);
        self.line = 0;
        self.separator = None;
    }

    /// Returns false when the run must stop (`--fail-fast` met a failed record), and the run's progress.
    fn accept(
        &mut self,
        chunk_len: u64,
        out: &mut Vec<u8>,
        mut rep: ChunkReport,
    ) -> (bool, Progress) {
        if let Some(end) = self.cut_at_failure(&mut rep) {
            out.truncate(end);
        }
        if !rep.keyed.is_empty() {
            self.drop_repeats(out, &rep);
        }
        if self.routes.active() {
            self.routes.split(out, &rep, self.separator);
        } else if let Some(sep) = self.separator {
            if !self.wrote_record && rep.records > 0 {
                debug_assert_eq!(out.first(), Some(&sep));
                out.remove(0);
            }
        }
        self.wrote_record |= rep.records > 0;
        let progress = self.tally(&rep, chunk_len);
        self.bytes_out += out.len() as u64;
        (!self.stopped, progress)
    }

    /// With `--fail-fast`, cuts the report at its first failed record and stops the run; returns where that
    /// record's output ends.
    pub(super) fn cut_at_failure(&mut self, rep: &mut ChunkReport) -> Option<usize> {
        if !self.fail_fast {
            return None;
        }
        let first = rep.failures.first()?;
        let end = first.out_end;
        rep.records = first.record + 1;
        rep.failed = Default::default();
        rep.failed[first.failure.kind().index()] = 1;
        rep.failures.truncate(1);
        self.stopped = true;
        Some(end)
    }

    /// Counts the records of a chunk of `chunk_len` input bytes and tells the observer about its failures; returns
    /// the progress, told once the chunk is written.
    pub(super) fn tally(&mut self, rep: &ChunkReport, chunk_len: u64) -> Progress {
        for f in &rep.failures {
            self.observer
                .failure(&self.name, self.line + f.line + 1, &f.failure);
        }
        self.counts.records += rep.records;
        for (total, n) in self.counts.failed.iter_mut().zip(rep.failed) {
            *total += n;
        }
        self.line += rep.lines;
        self.bytes_in += chunk_len;
        Progress {
            items: self.counts.records,
            done: self.bytes_in,
            total: self.total,
        }
    }

    /// Removes from `out` the records whose key an earlier record of the run had, keeping every other byte in
    /// order, and counts them. (A record's separator goes with it; the first record of the output is never a
    /// repeat, so the separator rule above still holds.)
    fn drop_repeats(&mut self, out: &mut Vec<u8>, rep: &ChunkReport) {
        let mut write = 0;
        let mut read = 0;
        for k in &rep.keyed {
            if k.out_end > out.len() {
                break; // cut off by --fail-fast
            }
            if self.seen.insert(k.key) {
                continue;
            }
            out.copy_within(read..k.out_start, write);
            write += k.out_start - read;
            read = k.out_end;
            self.counts.dropped += 1;
        }
        out.copy_within(read.., write);
        out.truncate(write + out.len() - read);
    }
}

fn chunks_of(input: &mut Opened, chunk_size: usize) -> Chunks<'_> {
    match &mut input.data {
        Data::Mapped(map) => Chunks::mapped(map, chunk_size),
        Data::Memory(bytes) => Chunks::bytes(bytes, chunk_size),
        Data::Stream(file) => Chunks::stream(file, Vec::new(), chunk_size),
        Data::Compressed { .. } => unreachable!("a compressed input is decoded once started"),
        Data::Started { head, file } => Chunks::stream(file, std::mem::take(head), chunk_size),
        Data::Decoded(text) => Chunks::stream(text, Vec::new(), chunk_size),
        Data::Table { .. } => unreachable!("a table is read by batch::table"),
    }
}

/// Decides the input's plan from its first bytes and moves `chunks` past the preamble; returns the plan, the
/// number of lines skipped, and the comment and blank lines skipped before a CSV header (each ending in `\n`,
/// without `\r`), for pipe mode. A `compressed` input whose text is a table is refused.
fn prepare(
    chunks: &mut Chunks<'_>,
    opts: &BatchOptions,
    answer: CsvAnswer,
    name: &str,
    compressed: bool,
) -> Result<(Prepared, u64, Vec<u8>), BatchError> {
    let mut want = 64 * 1024;
    loop {
        let (head, eof) = chunks.head(want).map_err(|source| BatchError::Read {
            name: name.to_string(),
            source,
        })?;
        if let Some(kind) = table::TableKind::detect(head).filter(|_| compressed) {
            return Err(BatchError::Table {
                name: name.to_string(),
                source: table::TableError::Compressed(kind),
            });
        }
        let prepared = format::prepare(head, eof, opts.format, answer, opts.json, &opts.columns);
        let prepared = prepared.map_err(|source| BatchError::Format {
            name: name.to_string(),
            source,
        })?;
        match prepared {
            Some(p) => {
                let lines = memchr::memchr_iter(b'\n', &head[..p.skip]).count() as u64;
                let before_header = p.lines_before_header(head);
                chunks.start(p.skip, p.plan.boundary());
                return Ok((p, lines, before_header));
            }
            None => want = want.max(head.len()) * 2,
        }
    }
}

fn chunk_error(name: &str) -> impl Fn(ChunkError) -> BatchError + '_ {
    move |e| match e {
        ChunkError::Read(source) => BatchError::Read {
            name: name.to_string(),
            source,
        },
        ChunkError::Endless => BatchError::Endless {
            name: name.to_string(),
        },
    }
}

/// One chunk's output and report: its records through the job, or the marker of an oversized record.
fn work<J: Job + ?Sized>(
    plan: &Plan,
    job: &J,
    chunk: &Chunk<'_>,
    place: Place,
    out: &mut Vec<u8>,
    cancel: &AtomicBool,
) -> ChunkReport {
    match chunk {
        Chunk::Oversized { lines, .. } => format::oversized(plan, place, *lines, out),
        bytes => format::process(plan, job, bytes, place, out, cancel),
    }
}

/// The error of an input whose reading failed, said as what went wrong: a file that changed under the run is
/// [`BatchError::Changed`] (its new bytes, not damage, broke the reading: a gzip file appended to reads as
/// truncated); a compressed input whose output already went out where it cannot be taken back (`wrote`, and the
/// output not `atomic`) is [`BatchError::Damaged`]. Other errors are as they came.
fn read_failure(input: &Opened, e: BatchError, atomic: bool, wrote: bool) -> BatchError {
    let BatchError::Read { name, source } = e else {
        return e;
    };
    if let Err(BatchError::Changed {
        name,
        before,
        after,
        ..
    }) = input.check_unchanged()
    {
        return BatchError::Changed {
            name,
            before,
            after,
            discarded: atomic,
        };
    }
    if input.is_decoded() && wrote && !atomic {
        return BatchError::Damaged { name, source };
    }
    BatchError::Read { name, source }
}

/// Fails when an input changed during the run; `atomic` says whether the output can still be discarded.
fn check_unchanged(opened: &[Opened], atomic: bool) -> Result<(), BatchError> {
    opened
        .iter()
        .try_for_each(Opened::check_unchanged)
        .map_err(|e| match e {
            BatchError::Changed {
                name,
                before,
                after,
                ..
            } => BatchError::Changed {
                name,
                before,
                after,
                discarded: atomic,
            },
            other => other,
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::record::{Failure, TextLayout};
    use crate::tools::Solve;
    use std::io::Write;

    const HARD: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

    fn run_to_file<J: Job>(
        text: &[u8],
        job: &J,
        opts: &BatchOptions,
    ) -> (Result<BatchSummary, BatchError>, Option<Vec<u8>>) {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        let input = InputSpec::Bytes {
            name: "t".into(),
            data: text.to_vec(),
        };
        let r = run_batch(vec![input], &Target::File(out.clone()), job, opts, &mut ());
        (r, std::fs::read(&out).ok())
    }

    #[test]
    fn every_chunk_size_and_thread_count_gives_the_same_bytes() {
        let board = Grid::parse_line(HARD.as_bytes()).unwrap().to_grid_string();
        let lines = format!(
            "# c\n{HARD}\n\n{}\r\n{HARD}x\n{HARD}\n{}",
            &HARD[..9],
            &HARD[1..]
        );
        let grids = format!(
            "{board}\n# c\n\n{board}\r\n\r\n{}\n\n{board}",
            &board[..100]
        );
        let csv = format!("id,puzzle,solution\n1,{HARD},\n2,{HARD}\n\n3,\"{HARD}\",x\n4,x,");
        for text in [lines, grids, csv] {
            let (reference, expect) = run_to_file(
                text.as_bytes(),
                &Solve::default(),
                &BatchOptions {
                    threads: Threads::Count(1),
                    ..BatchOptions::default()
                },
            );
            let reference = reference.unwrap();
            let expect = expect.unwrap();
            assert!(reference.counts.failures() > 0 && reference.counts.solved() > 0);
            for threads in [1, 2] {
                for chunk_size in (1..24).chain((24..text.len() + 2).step_by(31)) {
                    let opts = BatchOptions {
                        threads: Threads::Count(threads),
                        chunk_size,
                        ..BatchOptions::default()
                    };
                    let (r, out) = run_to_file(text.as_bytes(), &Solve::default(), &opts);
                    assert_eq!(r.unwrap().counts, reference.counts);
                    assert!(
                        out.unwrap() == expect,
                        "{threads} threads, chunks of {chunk_size}"
                    );
                }
            }
        }
    }

    #[test]
    fn input_in_flight_is_bounded_whatever_the_thread_count() {
        let flight = |threads, chunk| {
            let chunk = chunk_size(threads, chunk);
            (chunk, crate::ordered::window(threads, chunk))
        };
        assert_eq!(flight(1, DEFAULT_CHUNK_SIZE), (DEFAULT_CHUNK_SIZE, 1));
        for threads in [2, 3, 16, 64, 1000, 1024] {
            let (chunk, window) = flight(threads, DEFAULT_CHUNK_SIZE);
            assert!(window >= 2 && window <= threads * crate::ordered::ITEMS_PER_THREAD);
            assert!(window >= 2 * threads || chunk == MIN_CHUNK, "{threads}");
            assert!(chunk * window <= IN_FLIGHT, "{threads}: {chunk} x {window}");
            assert!(chunk >= MIN_CHUNK.min(DEFAULT_CHUNK_SIZE));
        }
        // A small chunk size asked for is kept.
        assert_eq!(flight(4, 100).0, 100);
    }

    #[test]
    fn a_run_stopped_from_outside_leaves_its_target_as_it_was() {
        use std::sync::atomic::Ordering;
        use std::sync::Arc;
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        std::fs::write(&out, b"keep\n").unwrap();
        let text = format!("{HARD}\n").repeat(2000);
        for threads in [1, 2] {
            let stop = Arc::new(AtomicBool::new(false));
            let flag = Arc::clone(&stop);
            // The job sets the flag on its 100th record: the run ends there, without its output.
            let seen = std::sync::atomic::AtomicU64::new(0);
            let job = |g: &Grid, layout: TextLayout, buf: &mut Vec<u8>| {
                if seen.fetch_add(1, Ordering::Relaxed) == 100 {
                    flag.store(true, Ordering::Relaxed);
                }
                Solve::default().run(g, layout, buf)
            };
            let opts = BatchOptions {
                threads: Threads::Count(threads),
                chunk_size: 1000,
                ..BatchOptions::default()
            };
            let input = InputSpec::Bytes {
                name: "t".into(),
                data: text.clone().into_bytes(),
            };
            let r = crate::ordered::with_stop(stop.clone(), || {
                run_batch(
                    vec![input],
                    &Target::File(out.clone()),
                    &job,
                    &opts,
                    &mut (),
                )
            });
            assert!(matches!(r, Err(BatchError::Stopped)), "{r:?}");
            assert!(seen.load(Ordering::Relaxed) < 2000);
            assert_eq!(std::fs::read(&out).unwrap(), b"keep\n");
            assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        }
    }

    #[test]
    fn the_pipeline_runs_any_job() {
        let clues = |g: &Grid, _: TextLayout, out: &mut Vec<u8>| -> Result<(), Failure> {
            if g.clue_count() < 17 {
                return Err(Failure::NoSolution);
            }
            out.extend_from_slice(g.clue_count().to_string().as_bytes());
            Ok(())
        };
        let text = format!("{HARD}\n{}\n", ".".repeat(81));
        let (r, out) = run_to_file(text.as_bytes(), &clues, &BatchOptions::default());
        assert_eq!(r.unwrap().counts.solved(), 1);
        assert_eq!(out.unwrap(), b"17\nerror: no solution\n");
    }

    #[test]
    fn a_panicking_job_panics_the_run_instead_of_hanging_it() {
        let text = format!("{HARD}\n").repeat(20);
        let boom =
            |_: &Grid, _: TextLayout, _: &mut Vec<u8>| -> Result<(), Failure> { panic!("boom") };
        let opts = BatchOptions {
            threads: Threads::Count(2),
            chunk_size: 100,
            ..BatchOptions::default()
        };
        let r = std::panic::catch_unwind(|| run_to_file(text.as_bytes(), &boom, &opts));
        assert!(r.is_err());
    }

    /// Runs `solve` over the file `input` into `out`, appending `more` to the input while the first record is
    /// solved, and returns the run's error (the run must fail).
    fn append_during_run(
        input: &std::path::Path,
        more: &[u8],
        out: &std::path::Path,
        opts: &BatchOptions,
    ) -> BatchError {
        let grown = std::sync::Once::new();
        let job = |g: &Grid, layout: TextLayout, buf: &mut Vec<u8>| {
            grown.call_once(|| {
                let mut f = std::fs::OpenOptions::new()
                    .append(true)
                    .open(input)
                    .unwrap();
                f.write_all(more).unwrap();
            });
            Solve::default().run(g, layout, buf)
        };
        run_batch(
            vec![InputSpec::Path(input.to_path_buf())],
            &Target::File(out.to_path_buf()),
            &job,
            opts,
            &mut (),
        )
        .unwrap_err()
    }

    #[test]
    fn a_file_that_grows_during_the_run_fails_it_and_leaves_no_output() {
        for threads in [1, 2] {
            let dir = tempfile::tempdir().unwrap();
            let input = dir.path().join("in.txt");
            std::fs::write(&input, format!("{HARD}\n").repeat(50)).unwrap();
            let out = dir.path().join("out.txt");
            let opts = BatchOptions {
                threads: Threads::Count(threads),
                chunk_size: 100,
                ..BatchOptions::default()
            };
            let e = append_during_run(&input, HARD.as_bytes(), &out, &opts);
            assert!(
                matches!(
                    e,
                    BatchError::Changed {
                        before: 4100,
                        after: 4181,
                        ..
                    }
                ),
                "{e}"
            );
            assert!(!out.exists());
            assert_eq!(
                std::fs::read_dir(dir.path()).unwrap().count(),
                1,
                "only the input"
            );
        }
    }

    #[test]
    fn a_gzip_file_appended_to_during_the_run_is_said_to_have_changed_not_to_be_truncated() {
        use crate::compression::{Compression, Encoder};
        // A puzzle, then lines that hardly compress: the decoder is still reading the file, well before its end,
        // when the job appends to it (the decoding thread runs at most a few blocks ahead).
        let mut text = format!("{HARD}\n").into_bytes();
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..50_000 {
            for _ in 0..80 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                text.push(b'a' + (x % 26) as u8);
            }
            text.push(b'\n');
        }
        let gz = |bytes: &[u8]| {
            let mut e = Encoder::new(Compression::Gzip).unwrap();
            let mut out = std::mem::take(e.write(bytes).unwrap());
            out.extend(e.finish().unwrap());
            out
        };
        let packed = gz(&text);
        assert!(packed.len() > 2 << 20);
        // The start of another member: read on its own, it is a truncated file.
        let more = gz(HARD.as_bytes())[..20].to_vec();
        for threads in [1, 2] {
            let dir = tempfile::tempdir().unwrap();
            let input = dir.path().join("in.txt.gz");
            std::fs::write(&input, &packed).unwrap();
            let out = dir.path().join("out.txt");
            let opts = BatchOptions {
                threads: Threads::Count(threads),
                ..BatchOptions::default()
            };
            let e = append_during_run(&input, &more, &out, &opts);
            let (before, after) = (packed.len() as u64, (packed.len() + more.len()) as u64);
            assert!(
                matches!(e, BatchError::Changed { before: b, after: a, discarded: true, .. } if b == before && a == after),
                "{e}"
            );
            assert!(!out.exists());
        }
    }
}
