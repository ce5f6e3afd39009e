//! The text run: one text input (a map, bytes in memory, or a stream), its format decided from its first bytes,
//! cut into record-aligned chunks, each chunk's records answered on the workers into a preformatted buffer, and
//! the buffers delivered in order through the run's one [`Collector`] to the writer.

use std::ops::Range;
use std::sync::atomic::AtomicBool;

use super::chunk::{Chunk, ChunkError, Chunks};
use super::collector::{Answers, Collector};
use super::input::{Data, Opened};
use super::options::BatchOptions;
use super::route::Routes;
use super::table::{TableError, TableKind};
use super::BatchError;
use crate::format::{self, Place, Plan, Prepared, Skipped};
use crate::ordered_run::OrderedRun;
use crate::record::{ChunkReport, CsvAnswer, Job};

/// One text input: its format, then its chunks through the engine and, in order, through the collector to the
/// writer.
pub(super) fn each_input<J: Job + ?Sized>(
    input: &mut Opened,
    job: &J,
    opts: &BatchOptions,
    run: &OrderedRun,
    chunk_size: usize,
    col: &mut Collector<'_>,
) -> Result<(), BatchError> {
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
    let first = col.bytes_out() == 0;
    let (mut prep, skipped, keep) = plan_input(&mut chunks, job, opts, &name, compressed, first)?;
    // A CSV whose rows a job copies gets a `group` column: the input record's number in the run.
    let next_record =
        (job.copies() > 1 && matches!(prep.plan, Plan::Csv(_))).then_some(col.records());
    if next_record.is_some() && prep.preamble.ends_with(b"\n") {
        prep.preamble.pop();
        prep.preamble.extend_from_slice(b",group\n");
    }
    col.begin_text(&name, &prep, skipped, opts.json);
    // A CSV header alone (no comment lines kept before it) continues the same header of the input before.
    let continues = matches!(prep.plan, Plan::Csv(_)) && !opts.keep_lines && !opts.json;
    col.send_preamble(std::mem::take(&mut prep.preamble), continues, run)?;
    let mut places = Places {
        next_line: opts.json.then_some(skipped),
        next_record,
        skipped: keep,
    };
    let plan = &prep.plan;
    let writer = &run.writer;
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
        || {},
        || {
            let mut chunks = chunks.borrow_mut();
            let base = chunks.position();
            let chunk = chunks.next_chunk().map_err(chunk_error(&name))?;
            Ok(chunk.map(|c| (places.place(base, &c), c)))
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
        |(chunk, out, rep)| {
            let flow = col.deliver(out, rep, chunk.input_len(), run)?;
            chunks.borrow_mut().recycle(chunk);
            Ok(flow)
        },
    )
}

/// Where each chunk of a text input starts, told to the chunk's work: the chunks are cut in order, so running
/// counts give it.
struct Places {
    /// With JSON Lines output, the 0-based line the next chunk starts at (a count of the newlines before it: one
    /// extra pass over the bytes, in JSON mode only).
    next_line: Option<u64>,
    /// For a CSV whose rows get a `group` column, the number in the run of the next chunk's first record.
    next_record: Option<u64>,
    /// What happens to comment and blank lines.
    skipped: Skipped,
}

impl Places {
    /// The place of chunk `c`, which starts at byte `base` of its input; the counts move past it.
    fn place(&mut self, base: u64, c: &Chunk<'_>) -> Place {
        let place = Place {
            base,
            json: self.next_line,
            skipped: self.skipped,
            record: self.next_record,
        };
        if let Some(line) = &mut self.next_line {
            *line += match c {
                Chunk::Oversized { lines, .. } => *lines,
                bytes => memchr::memchr_iter(b'\n', bytes).count() as u64,
            };
        }
        if let Some(n) = &mut self.next_record {
            *n += match c {
                Chunk::Oversized { .. } => 1,
                bytes => format::records_in_lines(bytes),
            };
        }
        place
    }
}

/// Decides how the input is read and what goes out before its records: its plan (from its first bytes, `chunks`
/// moved past the preamble) with the preamble to write (in pipe mode, the comment and blank lines before a CSV
/// header first; with `header`, the job's header line when this is the `first` output), the lines skipped, and
/// what becomes of the skipped lines further on.
fn plan_input<J: Job + ?Sized>(
    chunks: &mut Chunks<'_>,
    job: &J,
    opts: &BatchOptions,
    name: &str,
    compressed: bool,
    first: bool,
) -> Result<(Prepared, u64, Skipped), BatchError> {
    let (mut prep, skipped, before_header) =
        prepare(chunks, opts, job.csv_answer(), name, compressed)?;
    let keep = if opts.keep_lines && !opts.json {
        if prep.plan == Plan::Grid {
            return Err(BatchError::KeepLinesGrid {
                name: name.to_string(),
            });
        }
        // The comment and blank lines before a CSV header go out before it.
        let mut preamble = before_header;
        preamble.append(&mut prep.preamble);
        prep.preamble = preamble;
        Skipped::Keep
    } else {
        Skipped::Drop
    };
    if opts.header && !opts.json && prep.plan == Plan::Line && first {
        if let Some(header) = job.line_header() {
            prep.preamble.extend_from_slice(header.as_bytes());
            prep.preamble.push(b'\n');
        }
    }
    Ok((prep, skipped, keep))
}

/// The chunks of a started text input.
fn chunks_of(input: &mut Opened, chunk_size: usize) -> Chunks<'_> {
    match &mut input.data {
        Data::Mapped(map) => Chunks::mapped(map, chunk_size),
        Data::Memory(bytes) => Chunks::bytes(bytes, chunk_size),
        Data::Stream(file) => Chunks::stream(file, Vec::new(), chunk_size),
        Data::Compressed { .. } => unreachable!("a compressed input is decoded once started"),
        Data::Started { head, file } => Chunks::stream(file, std::mem::take(head), chunk_size),
        Data::Decoded(text) => Chunks::stream(text, Vec::new(), chunk_size),
        Data::Table(_) => unreachable!("a table is read by batch::table_run"),
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
        if let Some(kind) = TableKind::detect(head).filter(|_| compressed) {
            return Err(BatchError::Table {
                name: name.to_string(),
                source: TableError::Compressed(kind),
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

/// A chunk's output as the collector takes it: bytes (a failure's `out_end` and a key's `out_start..out_end` are
/// offsets in it).
impl Answers for Vec<u8> {
    fn units(&self) -> usize {
        self.len()
    }

    fn cut(&mut self, end: usize) {
        self.truncate(end);
    }

    fn leave_out(&mut self, repeats: impl Iterator<Item = Range<usize>>) -> Result<(), BatchError> {
        let mut write = 0;
        let mut read = 0;
        for r in repeats {
            self.copy_within(read..r.start, write);
            write += r.start - read;
            read = r.end;
        }
        self.copy_within(read.., write);
        self.truncate(write + self.len() - read);
        Ok(())
    }

    fn drop_separator(&mut self, sep: u8) {
        debug_assert_eq!(self.first(), Some(&sep));
        self.remove(0);
    }

    fn route(
        &mut self,
        rep: &ChunkReport,
        routes: &mut Routes,
        sep: Option<u8>,
    ) -> Result<(), BatchError> {
        routes.split(self, rep, sep);
        Ok(())
    }

    fn into_bytes(self) -> Result<Vec<u8>, BatchError> {
        Ok(self)
    }
}
