//! The run: open every input, decide each one's format, cut it into record-aligned chunks, work on the chunks, and
//! hand the results to the output in input order while counting and reporting failed records.
//!
//! Two paths share every step but the scheduling:
//! - sequential (`-j1`): one thread reads a chunk, processes it, writes it, and so on;
//! - parallel: the calling thread cuts chunks and spawns one rayon task per chunk, at most `8 × threads` chunks
//!   ahead of the oldest unfinished one (so memory stays flat for any input size); finished chunks are taken back in
//!   input order, reported, and passed to the one [`OrderedWriter`] thread.
//!
//! Output is committed (a file renamed into place) only when the whole run succeeded and no input changed under it.

use std::collections::BTreeMap;
use std::io::Write;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::chunk::{Boundary, Chunk, ChunkError, Chunks};
use super::input::{Data, InputSpec, Opened};
use super::report::{ChunkReport, Counts, Reporter, Summary};
use super::{BatchError, Job};
use crate::format::{self, csv::CsvAnswer, grid::SEPARATOR, Format, Plan, Prepared};
use crate::output::{OrderedWriter, OutputError, Sink, Target};

/// Default chunk size: big enough that per-chunk costs vanish, small enough that a few per thread balance the load.
pub const DEFAULT_CHUNK_SIZE: usize = 256 * 1024;

/// Chunks in flight per worker thread.
const CHUNKS_PER_THREAD: usize = 8;

/// How a run behaves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// Worker threads; 0 means one per available core, 1 the plain sequential path.
    pub threads: usize,
    /// Read every input in this format instead of detecting it.
    pub format: Option<Format>,
    /// Memory-map regular files (otherwise they are read in blocks).
    pub mmap: bool,
    /// Stop at the first failed record (its output is the last written); a file output is then not created.
    pub fail_fast: bool,
    /// At most this many per-record messages; the summary still counts every failure.
    pub max_errors: Option<u64>,
    /// Draw a progress bar on stderr when the run lasts (the caller checks that stderr is a terminal).
    pub progress: bool,
    /// Target chunk size in bytes (at least 1); chunks end at the first record boundary past it.
    pub chunk_size: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            threads: 0,
            format: None,
            mmap: true,
            fail_fast: false,
            max_errors: None,
            progress: false,
            chunk_size: DEFAULT_CHUNK_SIZE,
        }
    }
}

impl Options {
    /// The thread count this run uses.
    pub fn resolved_threads(&self) -> usize {
        if self.threads > 0 {
            self.threads
        } else {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        }
    }
}

/// Runs `job` on every record of `inputs`, in order, writing one output record per input record to `target`.
/// Per-record messages and the progress bar go to `diag`. Failed records are marked and counted, not errors; the
/// error cases are inputs that cannot be read, output that cannot be written, and inputs that change during the run.
pub fn run<J: Job + ?Sized>(
    inputs: Vec<InputSpec>,
    target: &Target,
    job: &J,
    opts: &Options,
    diag: &mut dyn Write,
) -> Result<Summary, BatchError> {
    let started = Instant::now();
    if inputs.iter().filter(|i| **i == InputSpec::Stdin).count() > 1 {
        return Err(BatchError::StdinTwice);
    }
    let mut opened = inputs
        .into_iter()
        .map(|spec| Opened::open(spec, opts.mmap))
        .collect::<Result<Vec<_>, _>>()?;
    let total = opened.iter().map(Opened::len).sum::<Option<u64>>();
    let threads = opts.resolved_threads();
    let sink = Sink::create(target)?;
    let mut col = Collector {
        reporter: Reporter::new(diag, opts.max_errors, opts.progress, total),
        fail_fast: opts.fail_fast,
        counts: Counts::default(),
        bytes_in: 0,
        bytes_out: 0,
        name: String::new(),
        line: 0,
        grid: false,
        wrote_record: false,
        stopped: false,
    };
    let result = if threads == 1 {
        sequential(&mut opened, sink, job, opts, &mut col)
    } else {
        parallel(&mut opened, sink, job, opts, &mut col, threads)
    };
    col.reporter.finish();
    result?;
    Ok(Summary {
        counts: col.counts,
        seconds: started.elapsed().as_secs_f64(),
        threads,
        inputs: opened.len(),
        bytes_in: col.bytes_in,
        bytes_out: col.bytes_out,
        stopped: col.stopped,
    })
}

/// Takes chunk results in input order: fixes up what depends on the records before (line numbers, the grid
/// separator, `--fail-fast`), reports failures and counts.
struct Collector<'d> {
    reporter: Reporter<'d>,
    fail_fast: bool,
    counts: Counts,
    bytes_in: u64,
    bytes_out: u64,
    name: String,
    /// 0-based line at the start of the next chunk of the current input.
    line: u64,
    grid: bool,
    wrote_record: bool,
    stopped: bool,
}

impl Collector<'_> {
    fn begin(&mut self, name: &str, prep: &Prepared, skipped_lines: u64) {
        self.name.clear();
        self.name.push_str(name);
        self.line = skipped_lines;
        self.grid = prep.plan == Plan::Grid;
        self.bytes_in += prep.skip as u64;
        self.bytes_out += prep.preamble.len() as u64;
    }

    /// Returns false when the run must stop (`--fail-fast` met a failed record).
    fn accept(&mut self, chunk_len: u64, out: &mut Vec<u8>, mut rep: ChunkReport) -> bool {
        if self.fail_fast {
            if let Some(first) = rep.failures.first() {
                out.truncate(first.out_end);
                rep.records = first.record + 1;
                rep.failed = [0; 4];
                rep.failed[first.failure.kind().index()] = 1;
                rep.failures.truncate(1);
                self.stopped = true;
            }
        }
        if self.grid && !self.wrote_record && rep.records > 0 {
            debug_assert_eq!(out.first(), Some(&SEPARATOR));
            out.remove(0);
        }
        self.wrote_record |= rep.records > 0;
        for f in &rep.failures {
            self.reporter
                .failure(&self.name, self.line + f.line + 1, &f.failure);
        }
        self.counts.records += rep.records;
        for (total, n) in self.counts.failed.iter_mut().zip(rep.failed) {
            *total += n;
        }
        self.line += rep.lines;
        self.bytes_in += chunk_len;
        self.bytes_out += out.len() as u64;
        self.reporter.progress(self.bytes_in);
        !self.stopped
    }
}

fn chunks_of(input: &mut Opened, chunk_size: usize) -> Chunks<'_> {
    match &mut input.data {
        Data::Mapped(map) => Chunks::mapped(map, chunk_size),
        Data::Memory(bytes) => Chunks::bytes(bytes, chunk_size),
        Data::Stream(file) => Chunks::stream(file, chunk_size),
    }
}

/// Decides the input's plan from its first bytes and moves `chunks` past the preamble; returns the plan and the
/// number of lines skipped.
fn prepare(
    chunks: &mut Chunks<'_>,
    forced: Option<Format>,
    answer: CsvAnswer,
    name: &str,
) -> Result<(Prepared, u64), BatchError> {
    let mut want = 64 * 1024;
    loop {
        let (head, eof) = chunks.head(want).map_err(|source| BatchError::Read {
            name: name.to_string(),
            source,
        })?;
        let prepared =
            format::prepare(head, eof, forced, answer).map_err(|source| BatchError::Format {
                name: name.to_string(),
                source,
            })?;
        match prepared {
            Some(p) => {
                let lines = memchr::memchr_iter(b'\n', &head[..p.skip]).count() as u64;
                chunks.start(p.skip, Boundary::of(&p.plan));
                return Ok((p, lines));
            }
            None => want = want.max(head.len()) * 2,
        }
    }
}

fn read_error(name: &str) -> impl FnOnce(std::io::Error) -> BatchError + '_ {
    move |source| BatchError::Read {
        name: name.to_string(),
        source,
    }
}

fn chunk_error(name: &str) -> impl FnOnce(ChunkError) -> BatchError + '_ {
    move |e| match e {
        ChunkError::Read(source) => read_error(name)(source),
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
    out: &mut Vec<u8>,
    cancel: &AtomicBool,
) -> ChunkReport {
    match chunk {
        Chunk::Oversized { lines, .. } => format::oversized(plan, *lines, out),
        bytes => format::process(plan, job, bytes, out, cancel),
    }
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

fn sequential<J: Job + ?Sized>(
    opened: &mut [Opened],
    mut sink: Sink,
    job: &J,
    opts: &Options,
    col: &mut Collector<'_>,
) -> Result<(), BatchError> {
    let never = AtomicBool::new(false);
    let mut out = Vec::new();
    for input in opened.iter_mut() {
        let name = input.name.clone();
        let mut chunks = chunks_of(input, opts.chunk_size);
        let (prep, skipped) = prepare(&mut chunks, opts.format, job.csv_answer(), &name)?;
        col.begin(&name, &prep, skipped);
        sink.write_all(&prep.preamble)?;
        while let Some(chunk) = chunks.next_chunk().map_err(chunk_error(&name))? {
            out.clear();
            let rep = work(&prep.plan, job, &chunk, &mut out, &never);
            let go = col.accept(chunk.input_len(), &mut out, rep);
            sink.write_all(&out)?;
            chunks.recycle(chunk);
            if !go {
                // Stopped by --fail-fast: dropping the sink leaves no output file.
                return Ok(());
            }
        }
    }
    check_unchanged(opened, sink.is_atomic())?;
    sink.finish()?;
    Ok(())
}

/// Why the parallel path stopped early.
enum Halt {
    /// An error of the run itself.
    Fatal(BatchError),
    /// The writer thread stopped; its error comes from [`OrderedWriter::finish`].
    Writer,
}

fn parallel<J: Job + ?Sized>(
    opened: &mut [Opened],
    sink: Sink,
    job: &J,
    opts: &Options,
    col: &mut Collector<'_>,
    threads: usize,
) -> Result<(), BatchError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("sudoku-worker-{i}"))
        .build()?;
    let window = threads * CHUNKS_PER_THREAD;
    // Finished chunks wait for the writer in a short queue of their own: the window bounds the chunks being
    // worked on, this bounds the ones being written.
    let atomic = sink.is_atomic();
    let writer = OrderedWriter::spawn(sink, threads * 2);
    let cancel = AtomicBool::new(false);
    let mut next_out = 0u64;
    let mut halt = None;
    for input in opened.iter_mut() {
        let name = input.name.clone();
        let mut chunks = chunks_of(input, opts.chunk_size);
        let (prep, skipped) = match prepare(&mut chunks, opts.format, job.csv_answer(), &name) {
            Ok(p) => p,
            Err(e) => {
                halt = Some(Halt::Fatal(e));
                break;
            }
        };
        col.begin(&name, &prep, skipped);
        if !prep.preamble.is_empty() {
            if writer.send(next_out, prep.preamble.clone()).is_err() {
                halt = Some(Halt::Writer);
                break;
            }
            next_out += 1;
        }
        let mut work = Window {
            chunks: &mut chunks,
            plan: &prep.plan,
            name: &name,
            job,
            cancel: &cancel,
            writer: &writer,
            next_out: &mut next_out,
            col: &mut *col,
            window,
        };
        halt = pool.in_place_scope_fifo(|scope| work.run(scope));
        if halt.is_some() || col.stopped {
            break;
        }
    }
    if halt.is_none() && !col.stopped {
        if let Err(e) = check_unchanged(opened, atomic) {
            halt = Some(Halt::Fatal(e));
        }
    }
    match halt {
        None if !col.stopped => writer.finish().map(drop).map_err(BatchError::from),
        None => {
            writer.abort();
            Ok(())
        }
        Some(Halt::Fatal(e)) => {
            writer.abort();
            Err(e)
        }
        Some(Halt::Writer) => match writer.finish() {
            Err(e) => Err(e.into()),
            Ok(_) => Err(OutputError::Write {
                path: "<output>".into(),
                source: std::io::Error::other("the output writer stopped"),
            }
            .into()),
        },
    }
}

/// The sliding window of chunks of one input on the thread pool.
struct Window<'w, 'a, 'd, J: ?Sized> {
    chunks: &'w mut Chunks<'a>,
    plan: &'w Plan,
    name: &'w str,
    job: &'w J,
    cancel: &'w AtomicBool,
    writer: &'w OrderedWriter,
    next_out: &'w mut u64,
    col: &'w mut Collector<'d>,
    window: usize,
}

/// A finished chunk: its index and its bytes, output and report, or the panic that ended its task.
type Done<'a> = (u64, std::thread::Result<(Chunk<'a>, Vec<u8>, ChunkReport)>);

impl<'w, 'a, 'd, J: Job + ?Sized> Window<'w, 'a, 'd, J> {
    fn run<'s>(&mut self, scope: &rayon::ScopeFifo<'s>) -> Option<Halt>
    where
        'w: 's,
    {
        let (tx, rx) = crossbeam_channel::unbounded::<Done<'a>>();
        let mut spawned = 0u64;
        let mut taken = 0u64;
        let mut pending = BTreeMap::new();
        let mut halt = None;
        let mut exhausted = false;
        loop {
            while halt.is_none()
                && !self.col.stopped
                && !exhausted
                && spawned - taken < self.window as u64
            {
                match self.chunks.next_chunk() {
                    Err(e) => {
                        halt = Some(Halt::Fatal(chunk_error(self.name)(e)));
                        self.cancel.store(true, Ordering::Relaxed);
                    }
                    Ok(None) => exhausted = true,
                    Ok(Some(chunk)) => {
                        let mut out = self.writer.buffer(chunk.len() + chunk.len() / 8 + 256);
                        let (tx, plan, job, cancel) =
                            (tx.clone(), self.plan, self.job, self.cancel);
                        let index = spawned;
                        scope.spawn_fifo(move |_| {
                            // A panic is passed on to the collecting thread, which would otherwise wait for
                            // this chunk forever.
                            let done = std::panic::catch_unwind(AssertUnwindSafe(move || {
                                let rep = work(plan, job, &chunk, &mut out, cancel);
                                (chunk, out, rep)
                            }));
                            let _ = tx.send((index, done));
                        });
                        spawned += 1;
                    }
                }
            }
            if taken == spawned {
                return halt;
            }
            let (index, done) = rx.recv().expect("a spawned chunk always sends its result");
            match done {
                Ok(done) => pending.insert(index, done),
                Err(panic) => {
                    self.cancel.store(true, Ordering::Relaxed);
                    std::panic::resume_unwind(panic);
                }
            };
            while let Some((chunk, mut out, rep)) = pending.remove(&taken) {
                taken += 1;
                if halt.is_some() || self.col.stopped {
                    // Past the stopping point: the result is dropped.
                    continue;
                }
                let go = self.col.accept(chunk.input_len(), &mut out, rep);
                if self.writer.send(*self.next_out, out).is_err() {
                    halt = Some(Halt::Writer);
                    self.cancel.store(true, Ordering::Relaxed);
                }
                *self.next_out += 1;
                self.chunks.recycle(chunk);
                if !go {
                    self.cancel.store(true, Ordering::Relaxed);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::{Failure, Layout, Solve};
    use crate::grid::Grid;

    const HARD: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

    fn run_to_file<J: Job>(
        text: &[u8],
        job: &J,
        opts: &Options,
    ) -> (Result<Summary, BatchError>, Option<Vec<u8>>) {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        let input = InputSpec::Bytes {
            name: "t".into(),
            data: text.to_vec(),
        };
        let r = run(
            vec![input],
            &Target::File(out.clone()),
            job,
            opts,
            &mut std::io::sink(),
        );
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
                &Options {
                    threads: 1,
                    ..Options::default()
                },
            );
            let reference = reference.unwrap();
            let expect = expect.unwrap();
            assert!(reference.counts.failures() > 0 && reference.counts.solved() > 0);
            for threads in [1, 2] {
                for chunk_size in (1..24).chain((24..text.len() + 2).step_by(31)) {
                    let opts = Options {
                        threads,
                        chunk_size,
                        ..Options::default()
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
    fn the_pipeline_runs_any_job() {
        let clues = |g: &Grid, _: Layout, out: &mut Vec<u8>| -> Result<(), Failure> {
            if g.clue_count() < 17 {
                return Err(Failure::NoSolution);
            }
            out.extend_from_slice(g.clue_count().to_string().as_bytes());
            Ok(())
        };
        let text = format!("{HARD}\n{}\n", ".".repeat(81));
        let (r, out) = run_to_file(text.as_bytes(), &clues, &Options::default());
        assert_eq!(r.unwrap().counts.solved(), 1);
        assert_eq!(out.unwrap(), b"17\nerror: no solution\n");
    }

    #[test]
    fn a_panicking_job_panics_the_run_instead_of_hanging_it() {
        let text = format!("{HARD}\n").repeat(20);
        let boom = |_: &Grid, _: Layout, _: &mut Vec<u8>| -> Result<(), Failure> { panic!("boom") };
        let opts = Options {
            threads: 2,
            chunk_size: 100,
            ..Options::default()
        };
        let r = std::panic::catch_unwind(|| run_to_file(text.as_bytes(), &boom, &opts));
        assert!(r.is_err());
    }

    #[test]
    fn a_file_that_grows_during_the_run_fails_it_and_leaves_no_output() {
        for threads in [1, 2] {
            let dir = tempfile::tempdir().unwrap();
            let input = dir.path().join("in.txt");
            std::fs::write(&input, format!("{HARD}\n").repeat(50)).unwrap();
            let out = dir.path().join("out.txt");
            let grown = std::sync::Once::new();
            let job = |g: &Grid, layout: Layout, buf: &mut Vec<u8>| {
                grown.call_once(|| {
                    let mut f = std::fs::OpenOptions::new()
                        .append(true)
                        .open(&input)
                        .unwrap();
                    f.write_all(HARD.as_bytes()).unwrap();
                });
                Solve::default().run(g, layout, buf)
            };
            let opts = Options {
                threads,
                chunk_size: 100,
                ..Options::default()
            };
            let e = run(
                vec![InputSpec::Path(input.clone())],
                &Target::File(out.clone()),
                &job,
                &opts,
                &mut std::io::sink(),
            )
            .unwrap_err();
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
}
