//! The run of a batch: open every input, take each in turn through the text run or the table run on one ordered
//! engine and one writer (sequential with one thread, otherwise a pool with a capped window of chunks in flight, so
//! memory stays flat for any input size), with one [`Collector`] counting failed records and telling the
//! [`Observer`] about them over the whole run.
//!
//! A run may have several outputs ([`run_routed`]): the first on the ordered run's writer, the others on writers of
//! their own ([`Routes`]), each record going to the one its answer names, through the same collector.
//!
//! Output is committed (a file renamed into place) only when the whole run succeeded and no input changed under it.

use std::time::Instant;

use super::collector::{writer_stopped, Collector};
use super::input::{InputSpec, Opened, Table};
use super::options::BatchOptions;
use super::route::{Router, Routes};
use super::summary::BatchSummary;
use super::table::TableError;
#[cfg(feature = "parquet")]
use super::table_run;
use super::text_run::each_input;
use super::BatchError;
use crate::ordered::IN_FLIGHT;
use crate::ordered_run::OrderedRun;
use crate::output::{OutputError, Target};
use crate::record::{Job, Observer};

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
    run(inputs, (target, &[]), job, None, opts, observer).map(|(summary, _)| summary)
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
        [one] => run(inputs, (one, &[]), job, None, opts, observer).map(|(s, _)| {
            let written = s.counts.solved();
            (s, vec![written])
        }),
        [first, extra @ ..] => run(inputs, (first, extra), job, None, opts, observer),
    }
}

/// Runs `job` as [`run_routed`] does (at least one target), with `router` giving each record answered with
/// [`Answer::Tagged`](crate::record::Answer::Tagged) its part, asked in input order; a part without a target
/// (`u8::MAX`) sends the record nowhere. Records are cut into parts even with one target.
///
/// # Errors
/// As [`run_routed`]; [`BatchError::Route`] when the router fails (no output is then created).
pub fn run_routed_by<J: Job + ?Sized>(
    inputs: Vec<InputSpec>,
    targets: &[Target],
    job: &J,
    router: &mut dyn Router,
    opts: &BatchOptions,
    observer: &mut dyn Observer,
) -> Result<(BatchSummary, Vec<u64>), BatchError> {
    let Some((first, extra)) = targets.split_first() else {
        return Ok((BatchSummary::default(), Vec::new()));
    };
    run(inputs, (first, extra), job, Some(router), opts, observer)
}

/// The run of [`run_batch`], [`run_routed`] and [`run_routed_by`]: `extra` are the targets of output parts 1, 2,
/// ...; returns the summary and the records written to each part (none for a run with one output and no router).
fn run<'o, J: Job + ?Sized>(
    inputs: Vec<InputSpec>,
    (target, extra): (&Target, &[Target]),
    job: &J,
    router: Option<&'o mut dyn Router>,
    opts: &BatchOptions,
    observer: &'o mut dyn Observer,
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
    let run = OrderedRun::start::<BatchError>(opts.threads, chunk_size, target)?;
    let routes = match Routes::start(extra, router.is_some()) {
        Ok(routes) => routes,
        Err(e) => {
            run.writer.abort();
            return Err(e.into());
        }
    };
    let threads = run.engine.threads();
    let mut col = Collector::new(observer, total, opts.fail_fast, routes, router);
    let mut result = each_of(&mut opened, job, opts, &run, chunk_size, &mut col);
    if result.is_ok() && crate::ordered::stopped() {
        result = Err(BatchError::Stopped);
    }
    if result.is_ok() && !col.stopped() {
        result = check_unchanged(&opened, run.atomic);
    }
    let routes = col.take_routes();
    let parts = routes.counts.clone();
    end_output(run, routes, result, col.stopped())?;
    Ok((col.summary(started, threads, opened.len()), parts))
}

/// Every input in turn, a table through the table run and any other through the text run, until one fails or
/// `--fail-fast` stops the run.
fn each_of<J: Job + ?Sized>(
    opened: &mut [Opened],
    job: &J,
    opts: &BatchOptions,
    run: &OrderedRun,
    chunk_size: usize,
    col: &mut Collector<'_>,
) -> Result<(), BatchError> {
    let others = opened.len() > 1;
    for input in opened.iter_mut() {
        let written_before = col.bytes_out();
        let mut result = input.start().and_then(|()| match input.take_table() {
            Some(table) => each_table(&input.name, table, job, opts, run, col, others),
            None => each_input(input, job, opts, run, chunk_size, col),
        });
        if let Err(e) = result {
            let wrote = col.bytes_out() > written_before;
            result = Err(read_failure(input, e, run.atomic, wrote));
        }
        input.done();
        if result.is_err() || col.stopped() {
            return result;
        }
    }
    Ok(())
}

/// One table input, named `name`, checked against the run (the only input, no `--json`, no `--format`, not to a
/// terminal), then through the table run; without the cargo feature `parquet`, refused.
fn each_table<J: Job + ?Sized>(
    name: &str,
    table: Table,
    job: &J,
    opts: &BatchOptions,
    run: &OrderedRun,
    col: &mut Collector<'_>,
    others: bool,
) -> Result<(), BatchError> {
    let err = |source| BatchError::Table {
        name: name.to_string(),
        source,
    };
    let kind = table.kind;
    if others {
        return Err(err(TableError::NotAlone(kind)));
    }
    if opts.json {
        return Err(err(TableError::Json(kind)));
    }
    if let Some(format) = opts.format {
        let format = format!("{format:?}").to_ascii_lowercase();
        return Err(err(TableError::Format { kind, format }));
    }
    if run.terminal {
        return Err(err(TableError::Terminal(kind)));
    }
    col.begin_table(name);
    #[cfg(feature = "parquet")]
    {
        let Table {
            file,
            head,
            seekable,
            ..
        } = table;
        let (file, head) = if kind.needs_seek() && !seekable {
            let file =
                table_run::spool(&head, file).map_err(|e| err(TableError::Spool(kind, e)))?;
            (file, Vec::new())
        } else {
            (file, head)
        };
        let cx = table_run::Context { opts, run, col };
        table_run::run(kind, file, head, job, name, cx)
    }
    #[cfg(not(feature = "parquet"))]
    {
        let _ = (job, table);
        Err(err(TableError::NotBuilt(kind)))
    }
}

/// Ends the outputs (the run's own and the extra `routes`) as the run ended: completed (a file renamed into place)
/// after a whole run; given up (a file not created) after an error or when `--fail-fast` `stopped` the run; when a
/// writer stopped, its own error.
fn end_output(
    run: OrderedRun,
    routes: Routes,
    result: Result<(), BatchError>,
    stopped: bool,
) -> Result<(), BatchError> {
    let writer = run.writer;
    match result {
        Ok(()) if !stopped => {
            if let Err(e) = writer.finish() {
                routes.abort();
                return Err(e.into());
            }
            routes.finish()?;
        }
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
    Ok(())
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
    use crate::batch::options::DEFAULT_CHUNK_SIZE;
    use crate::grid::Grid;
    use crate::ordered::Threads;
    use crate::record::{Failure, TextLayout};
    use crate::tools::Solve;
    use std::io::Write;
    use std::sync::atomic::AtomicBool;

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
