//! Generating solved boards at the speed of writing them: the run's options, its errors, and the run itself
//! (ranges of boards fill preformatted buffers on the crate's ordered engine and pass, in index order, to the
//! one writer of [`crate::output`]).
//!
//! Two methods:
//! - pattern (the default, [`PatternFill`]): transforms of one base grid, distinct by construction, up to a stated capacity;
//! - random (`RandomFill`): randomized fills, reproducible from the seed, checked for repeats in index order.
//!
//! Both give the same bytes whatever the thread count: a board depends only on the seed and its index (and, for
//! the random method, on the boards before it, which are checked in index order).
//!
//! Puzzles (`--puzzles`, [`run_puzzles`]) are made by `puzzle`: random boards with clues removed while the solution
//! stays unique (or kept on a [`CluePattern`]), kept when they meet the goal and any [`SeWindows`] (`window`).
//!
//! ```
//! use sudoku_batch::generate::{self, PatternFill};
//! use sudoku_batch::Format;
//! use sudoku_batch::output::Target;
//!
//! // One board on its own: board 7 of the run with seed 0 and first digit 5.
//! let board = PatternFill::new(Some(5), 0).board(7);
//! assert!(board.is_valid_solution() && board.get(0) == 5);
//!
//! // A whole run into a file (appears whole or not at all).
//! let dir = tempfile::tempdir().unwrap();
//! let path = dir.path().join("boards.txt");
//! let mut opts = generate::BoardOptions::new(1000);
//! opts.format = Format::Line;
//! let summary = generate::generate(&opts, &Target::File(path.clone()), &mut ()).unwrap();
//! assert_eq!(summary.bytes, 82 * 1000);
//! assert_eq!(std::fs::read(&path).unwrap().len(), 82_000);
//! ```

mod filter;
mod givens;
#[cfg_attr(not(feature = "internals"), allow(unreachable_pub))]
pub(crate) mod layout;
mod pattern;
pub(crate) mod puzzle;
#[cfg_attr(not(feature = "internals"), allow(unreachable_pub))]
pub(crate) mod random;
mod window;

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

pub use crate::grid::Transform;
pub use givens::{CluePattern, PatternError};
pub(crate) use layout::BoardTemplate;
pub use pattern::PatternFill;
pub use puzzle::{
    run_puzzles, Goal, PuzzleError, PuzzleOptions, PuzzleRun, PuzzleRunError, PuzzleSummary,
    Symmetry,
};
use random::Distinct;
pub(crate) use random::RandomFill;
pub(crate) use window::{rate_in, Verdict};
pub use window::{SeWindow, SeWindows, WindowError, WINDOW_MAX, WINDOW_MIN};

use crate::format::Format;
use crate::grid::CELLS;
use crate::ordered::{self, Engine, Flow, Threads};
use crate::ordered_run::OrderedRun;
use crate::output::{OutputError, Target, Writer};
use crate::record::{Observer, Progress};

/// Boards per buffer handed to the writer (4096 boards: 667 KB in the grid format).
pub(crate) const CHUNK_BOARDS: usize = 4096;

/// How boards are made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Method {
    /// Transforms of a base grid: the fastest; distinct by construction up to 135,444,234,240 boards with a
    /// fixed first digit, 1,218,998,108,160 without.
    #[default]
    Pattern,
    /// Randomized fills: slower; distinct by an in-order check whose memory is set at the start of the run (a
    /// Bloom filter of fingerprints, 2 bytes per board: 2 MB for 1,000,000 boards, 20 MB for 10,000,000).
    Random,
}

/// What to generate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardOptions {
    /// Number of boards.
    pub count: u64,
    /// How boards are made.
    pub method: Method,
    /// How boards are written.
    pub format: Format,
    /// The digit (1..=9) in every board's top-left cell, or `None` to let it vary.
    pub first: Option<u8>,
    /// The seed: the same options and seed give the same bytes, whatever `threads` is.
    pub seed: u64,
    /// Worker threads (the writer thread comes on top). With 1, boards are made on the calling thread.
    pub threads: Threads,
}

impl BoardOptions {
    /// `count` boards with the defaults: pattern method, grid format, first digit free, seed 0, one thread per
    /// available core.
    pub fn new(count: u64) -> BoardOptions {
        BoardOptions {
            count,
            method: Method::Pattern,
            format: Format::Grid,
            first: None,
            seed: 0,
            threads: Threads::Auto,
        }
    }
}

/// Why a run could not be done.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GenerateError {
    /// More boards than the pattern method can make distinct.
    #[error(
        "cannot generate {asked} distinct boards: the pattern method makes at most {capacity}{} (the random method \
         has no such limit)",
        if *.first_fixed { " with a fixed first digit" } else { "" }
    )]
    OverCapacity {
        /// Boards asked for.
        asked: u64,
        /// The method's capacity for these options.
        capacity: u64,
        /// Whether the first digit was fixed (which divides the capacity by 9).
        first_fixed: bool,
    },
    /// Boards are written as lines or grids.
    #[error("boards are written in the line or grid format, not {0:?}")]
    BadFormat(Format),
    /// The worker threads could not be started.
    #[error("cannot start worker threads: {0}")]
    Threads(#[from] crate::ordered::ThreadsError),
    /// The first digit is not 1..=9.
    #[error("the first digit must be 1 to 9, not {0}")]
    BadFirst(u8),
    /// The repeat check of a `--random` run could not get its memory.
    #[error("cannot generate {boards} random boards: their repeat check needs {bytes} bytes of memory, which cannot be had")]
    CheckMemory {
        /// Boards asked for.
        boards: u64,
        /// Bytes the check needs.
        bytes: u64,
    },
    /// A cell buffer of the wrong length for the boards asked for ([`generate_cells`]).
    #[error("a buffer for {boards} boards holds {} bytes, not {len}", .boards.saturating_mul(81))]
    CellsLength {
        /// Boards asked for.
        boards: u64,
        /// Bytes in the buffer given.
        len: usize,
    },
    /// The run was stopped from outside ([`crate::ordered::with_stop`]) before every board was made.
    #[error("the run was stopped before it finished")]
    Stopped,
    /// Writing failed (or, for standard output, the reader went away: see [`OutputError::is_broken_pipe`]).
    #[error(transparent)]
    Output(#[from] OutputError),
}

/// What a finished run did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoardSummary {
    /// Boards written.
    pub boards: u64,
    /// Bytes written.
    pub bytes: u64,
    /// Random boards that repeated an earlier one and were made again (0 for the pattern method).
    pub retries: u64,
    /// Wall time of the run, output file sync included.
    pub elapsed: Duration,
}

/// Checks the options without doing anything: the format, the first digit and the capacity.
pub fn check(opts: &BoardOptions) -> Result<(), GenerateError> {
    if opts.format == Format::Csv {
        return Err(GenerateError::BadFormat(opts.format));
    }
    if let Some(d) = opts.first {
        if !(1..=9).contains(&d) {
            return Err(GenerateError::BadFirst(d));
        }
    }
    if opts.method == Method::Pattern {
        let capacity = PatternFill::capacity_for(opts.first);
        if opts.count > capacity {
            return Err(GenerateError::OverCapacity {
                asked: opts.count,
                capacity,
                first_fixed: opts.first.is_some(),
            });
        }
    }
    Ok(())
}

/// Generates `opts.count` distinct solved boards into `target`, telling `observer` the boards done after every
/// buffer. A file target appears whole or not at all.
pub fn generate(
    opts: &BoardOptions,
    target: &Target,
    observer: &mut dyn Observer,
) -> Result<BoardSummary, GenerateError> {
    check(opts)?;
    let start = Instant::now();
    let mut distinct = repeat_check(opts)?;
    let run = OrderedRun::start::<GenerateError>(opts.threads, chunk_bytes(opts.format), target)?;
    let retries = make(
        opts,
        distinct.as_mut(),
        (&run.engine, run.window),
        Some(&run.writer),
        |first, n, buf| {
            let made = first + n as u64;
            let progress = Progress {
                items: made,
                done: made,
                total: Some(opts.count),
            };
            run.put(buf, progress, observer)
        },
    );
    let written = run.writer.finish()?;
    Ok(BoardSummary {
        boards: opts.count,
        bytes: written.bytes,
        retries,
        elapsed: start.elapsed(),
    })
}

/// Generates the same boards as [`generate`] for the same options (the format aside) into `cells`, 81 cell values
/// (1..=9) per board in row-major order: `cells` must hold exactly `opts.count * 81` bytes. Nothing is written
/// anywhere else and nothing is told to anyone; returns the random method's retries (0 for the pattern method).
///
/// ```
/// use sudoku_batch::generate::{self, PatternFill};
///
/// let mut opts = generate::BoardOptions::new(3);
/// opts.first = Some(5);
/// let mut cells = vec![0u8; 3 * 81];
/// generate::generate_cells(&opts, &mut cells).unwrap();
/// assert_eq!(&cells[2 * 81..], PatternFill::new(Some(5), 0).board(2).cells());
/// ```
pub fn generate_cells(opts: &BoardOptions, cells: &mut [u8]) -> Result<u64, GenerateError> {
    check(opts)?;
    let want = usize::try_from(opts.count)
        .ok()
        .and_then(|n| n.checked_mul(CELLS));
    if want != Some(cells.len()) {
        return Err(GenerateError::CellsLength {
            boards: opts.count,
            len: cells.len(),
        });
    }
    let distinct = repeat_check(opts)?;
    let piece = CHUNK_BOARDS * CELLS;
    let window = ordered::window(opts.threads.get(), piece);
    let engine = Engine::new(opts.threads.at_most(window))?;
    // Chunk `k` of `CHUNK_BOARDS` boards, as cells in place.
    let pieces = cells.chunks_mut(piece).enumerate();
    let boards = |k: usize| (k * CHUNK_BOARDS) as u64..;
    let retries = match distinct {
        None => {
            let gen = PatternFill::new(opts.first, opts.seed);
            let _ = engine.each::<_, (), _>(window, pieces, |(k, piece), _| {
                gen.fill_cells((k * CHUNK_BOARDS) as u64, piece);
                Ok(())
            });
            0
        }
        Some(mut distinct) => {
            // Attempt-0 boards are made in parallel, then admitted in index order (a repeat is made again).
            let gen = RandomFill::new(opts.first, opts.seed);
            let mut pieces = pieces;
            let _ = engine.run::<_, _, (), _, _, _>(
                window,
                || Ok(pieces.next()),
                |(k, piece), cancel| {
                    let mut prints = Vec::with_capacity(CHUNK_BOARDS);
                    for (i, board) in boards(k).zip(piece.chunks_exact_mut(CELLS)) {
                        // A random chunk takes tens of milliseconds: a stopping run does not wait for it. A chunk
                        // cut short is never admitted whole (its fingerprints are short too) and the run then
                        // returns `Stopped`.
                        if cancel.load(Ordering::Relaxed) {
                            break;
                        }
                        let g = gen.board(i, 0);
                        board.copy_from_slice(g.cells());
                        prints.push(random::fingerprint(&g));
                    }
                    (k, piece, prints)
                },
                |(k, piece, prints)| {
                    let slots = boards(k).zip(piece.chunks_exact_mut(CELLS)).zip(prints);
                    for ((i, board), print) in slots {
                        if let Some(g) = distinct.admit(i, print, |i, a| gen.board(i, a)) {
                            board.copy_from_slice(g.cells());
                        }
                    }
                    Ok(Flow::Go)
                },
            );
            distinct.retries
        }
    };
    if ordered::stopped() {
        return Err(GenerateError::Stopped);
    }
    Ok(retries)
}

/// The bytes of a chunk of [`CHUNK_BOARDS`] boards in `format`: the size of a work item, for the window.
fn chunk_bytes(format: Format) -> usize {
    CHUNK_BOARDS * format.stride()
}

/// Makes every board of a run as text in its format and hands the buffers, in index order, to `send` (first board,
/// boards, buffer), which returns [`Flow::Stop`] to stop the run (at most `window` chunks in flight on `engine`).
/// Buffers come from `writer` when there is one. Returns the random method's retries.
fn make<S>(
    opts: &BoardOptions,
    distinct: Option<&mut Distinct>,
    engine: (&Engine, usize),
    writer: Option<&Writer>,
    send: S,
) -> u64
where
    S: FnMut(u64, usize, Vec<u8>) -> Flow,
{
    let layout = BoardTemplate::new(opts.format, CHUNK_BOARDS);
    let run = Run {
        count: opts.count,
        layout: &layout,
        writer,
    };
    match distinct {
        None => {
            let gen = PatternFill::new(opts.first, opts.seed);
            run.chunks(
                engine,
                |first, n, buf, _| gen.fill(first, n, &layout, buf),
                |_, _, _| {},
                send,
            );
            0
        }
        Some(distinct) => {
            let gen = RandomFill::new(opts.first, opts.seed);
            run.chunks(
                engine,
                |first, n, buf, prints| gen.fill(first, n, &layout, buf, prints),
                |first, prints, buf| distinct.admit_chunk(&gen, first, prints, &layout, buf),
                send,
            );
            distinct.retries
        }
    }
}

/// The random method's repeat check, with its memory taken now (before any output exists); none for the pattern
/// method.
fn repeat_check(opts: &BoardOptions) -> Result<Option<Distinct>, GenerateError> {
    match opts.method {
        Method::Pattern => Ok(None),
        Method::Random => {
            Distinct::new(opts.count)
                .map(Some)
                .map_err(|_| GenerateError::CheckMemory {
                    boards: opts.count,
                    bytes: filter::Filter::bytes_for(opts.count),
                })
        }
    }
}

/// One run's shared parts.
struct Run<'a> {
    count: u64,
    layout: &'a BoardTemplate,
    /// Where buffers come from (recycled by the writer), if anywhere.
    writer: Option<&'a Writer>,
}

impl Run<'_> {
    /// Makes every chunk of [`CHUNK_BOARDS`] boards on `engine`: chunks are filled in parallel with `fill` (first
    /// board, boards, buffer with fixed bytes laid out, fingerprint scratch), then, in index order, go through
    /// `admit` (first board, fingerprints, buffer) and to `send` (first board, boards, buffer), at most `window`
    /// chunks in flight. Stops early when `send` returns [`Flow::Stop`] (the writer stopped: its own result says
    /// why).
    fn chunks<F, A, S>(
        &self,
        (engine, window): (&Engine, usize),
        fill: F,
        mut admit: A,
        mut send: S,
    ) where
        F: Fn(u64, usize, &mut [u8], &mut Vec<u64>) + Sync,
        A: FnMut(u64, &[u64], &mut [u8]),
        S: FnMut(u64, usize, Vec<u8>) -> Flow,
    {
        let chunk = CHUNK_BOARDS as u64;
        let chunks = self.count.div_ceil(chunk);
        let mut next = 0u64;
        let _ = engine.run::<_, _, (), _, _, _>(
            window,
            || {
                let c = next;
                next += 1;
                Ok((c < chunks).then_some(c))
            },
            |c, _| {
                let first = c * chunk;
                let n = (self.count - first).min(chunk) as usize;
                let len = n * self.layout.stride;
                let mut buf = match self.writer {
                    Some(w) => w.buffer(len),
                    None => Vec::with_capacity(len),
                };
                self.layout.lay_out(n, c + 1 == chunks, &mut buf);
                let mut prints = Vec::new();
                fill(first, n, &mut buf, &mut prints);
                (first, n, buf, prints)
            },
            |(first, n, mut buf, prints)| {
                admit(first, &prints, &mut buf);
                Ok(send(first, n, buf))
            },
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn run_to_file(opts: &BoardOptions) -> Vec<u8> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("boards.txt");
        let s = generate(opts, &Target::File(path.clone()), &mut ()).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(s.bytes, bytes.len() as u64);
        assert_eq!(s.bytes, opts.format.output_len(opts.count));
        bytes
    }

    #[test]
    fn thread_count_does_not_change_the_bytes() {
        for method in [Method::Pattern, Method::Random] {
            let mut opts = BoardOptions::new(2 * CHUNK_BOARDS as u64 + 17);
            opts.method = method;
            opts.format = Format::Line;
            opts.seed = 99;
            opts.threads = Threads::Count(1);
            let one = run_to_file(&opts);
            opts.threads = Threads::Count(3);
            assert_eq!(run_to_file(&opts), one, "{method:?}");
            let lines: HashSet<&[u8]> = one
                .split(|&b| b == b'\n')
                .filter(|l| !l.is_empty())
                .collect();
            assert_eq!(lines.len() as u64, opts.count);
        }
    }

    #[test]
    fn cells_hold_the_boards_of_the_written_run() {
        for (method, first, seed, threads) in [
            (Method::Pattern, None, 0, 1),
            (Method::Pattern, Some(7), 5, 3),
            (Method::Random, None, 11, 2),
            (Method::Random, Some(2), 0, 1),
        ] {
            let mut opts = BoardOptions::new(CHUNK_BOARDS as u64 + 300);
            opts.method = method;
            opts.first = first;
            opts.seed = seed;
            opts.threads = Threads::Count(threads);
            opts.format = Format::Line;
            let text = run_to_file(&opts);
            let mut cells = vec![0u8; opts.count as usize * CELLS];
            generate_cells(&opts, &mut cells).unwrap();
            let lines: Vec<&[u8]> = text
                .split(|&b| b == b'\n')
                .filter(|l| !l.is_empty())
                .collect();
            assert_eq!(lines.len() * CELLS, cells.len());
            for (line, board) in lines.iter().zip(cells.chunks_exact(CELLS)) {
                let as_text: Vec<u8> = board.iter().map(|d| b'0' + d).collect();
                assert_eq!(&as_text[..], *line, "{method:?}");
            }
        }
        let e = generate_cells(&BoardOptions::new(2), &mut [0; 81]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "a buffer for 2 boards holds 162 bytes, not 81"
        );
    }

    #[test]
    fn over_capacity_is_refused_before_any_output() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("never.txt");
        let mut opts = BoardOptions::new(pattern::CAPACITY_FIXED_FIRST + 1);
        opts.first = Some(1);
        let e = generate(&opts, &Target::File(path.clone()), &mut ()).unwrap_err();
        assert!(
            matches!(e, GenerateError::OverCapacity { capacity, .. } if capacity == pattern::CAPACITY_FIXED_FIRST)
        );
        assert!(e.to_string().contains("135444234240"), "{e}");
        assert!(!path.exists());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
        opts.method = Method::Random;
        assert!(check(&opts).is_ok());
        opts.first = Some(0);
        assert!(matches!(check(&opts), Err(GenerateError::BadFirst(0))));
    }

    #[test]
    fn a_panicking_worker_stops_the_run_instead_of_hanging_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("never.txt");
        let outcome = std::panic::catch_unwind(|| {
            let target = Target::File(path.clone());
            let out = OrderedRun::start::<GenerateError>(Threads::Count(3), 1, &target).unwrap();
            let layout = BoardTemplate::new(Format::Line, CHUNK_BOARDS);
            let run = Run {
                count: 6 * CHUNK_BOARDS as u64,
                layout: &layout,
                writer: Some(&out.writer),
            };
            run.chunks(
                (&out.engine, out.window),
                |first, _, _, _| assert_ne!(first, CHUNK_BOARDS as u64, "a worker fails"),
                |_, _, _| {},
                |_, _, buf| out.put(buf, Progress::default(), &mut ()),
            );
            out.writer.finish()
        });
        assert!(outcome.is_err());
        // The writer may have written chunk 0, but the named file never appears short.
        assert!(!path.exists());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }
}
