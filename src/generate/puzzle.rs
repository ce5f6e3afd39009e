//! Puzzles with exactly one solution: a random solved board ([`RandomFill`]), then clues removed orbit by orbit
//! (an orbit is a set of cells the chosen symmetry maps onto each other) while the puzzle keeps exactly one
//! solution, checked with [`solver::count_solutions`]. Every puzzle comes from `(seed, index)` alone, so a run is
//! reproducible whatever the thread count.
//!
//! One pass over all orbits in random order gives a *minimal* puzzle: no clue can go without a second solution
//! appearing (with a symmetry, no orbit can go). `Goal::Clues(k)` stops the pass at `k` clues; `Goal::Level`
//! keeps minimal puzzles until one rates at the level asked for. With a [`CluePattern`] the board's digits on the
//! pattern's cells are where the pass starts (a board that gives several solutions there is replaced by the next),
//! so the puzzle is minimal with its clues among the pattern's cells. With [`SeWindows`] a puzzle is kept only
//! when its Sudoku Explainer ratings fall inside them (rated by [`super::window`], which stops as soon as they
//! cannot).

use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::format::json::{json_field, json_key, json_str};
use crate::grid::{Grid, CELLS, GRID_TEXT_LEN};
use crate::human::{rate, Level, Rating, SeRating, Tenths};
use crate::ordered::Threads;
use crate::ordered_run::OrderedRun;
use crate::output::{OutputError, Target};
use crate::record::{Observer, Progress};
use crate::solver;

use super::givens::{CluePattern, MIN_CLUES};
use super::random::RandomFill;
use super::window::{self, SeWindows, Verdict};
use super::Format;
use crate::grid::rng::SplitMix64;

/// Which cells must be clues together.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Symmetry {
    /// Every cell on its own.
    #[default]
    None,
    /// Half-turn: `(r, c)` with `(8-r, 8-c)`.
    Rotate180,
    /// Quarter-turn: `(r, c)`, `(c, 8-r)`, `(8-r, 8-c)`, `(8-c, r)`.
    Rotate90,
    /// Left-right mirror: `(r, c)` with `(r, 8-c)`.
    Mirror,
    /// Main diagonal: `(r, c)` with `(c, r)`.
    Diagonal,
}

impl Symmetry {
    /// Every symmetry.
    pub const ALL: [Symmetry; 5] = [
        Symmetry::None,
        Symmetry::Rotate180,
        Symmetry::Rotate90,
        Symmetry::Mirror,
        Symmetry::Diagonal,
    ];

    /// The lower-case name used on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            Symmetry::None => "none",
            Symmetry::Rotate180 => "rotate180",
            Symmetry::Rotate90 => "rotate90",
            Symmetry::Mirror => "mirror",
            Symmetry::Diagonal => "diagonal",
        }
    }

    /// The cells mapped onto `cell` by repeating the symmetry (the cell's orbit), `cell` first.
    pub(crate) fn orbit(self, cell: usize) -> Vec<usize> {
        let (r, c) = (cell / 9, cell % 9);
        let image = |(r, c): (usize, usize)| match self {
            Symmetry::None => (r, c),
            Symmetry::Rotate180 => (8 - r, 8 - c),
            Symmetry::Rotate90 => (c, 8 - r),
            Symmetry::Mirror => (r, 8 - c),
            Symmetry::Diagonal => (c, r),
        };
        let mut out = vec![cell];
        let mut p = image((r, c));
        while p != (r, c) {
            out.push(p.0 * 9 + p.1);
            p = image(p);
        }
        out
    }

    /// All orbits, each listed once, in order of their lowest cell.
    pub(crate) fn orbits(self) -> Vec<Vec<usize>> {
        let mut seen = [false; CELLS];
        let mut out = Vec::new();
        for cell in 0..CELLS {
            if !seen[cell] {
                let o = self.orbit(cell);
                for &c in &o {
                    seen[c] = true;
                }
                out.push(o);
            }
        }
        out
    }
}

impl fmt::Display for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Symmetry {
    type Err = PuzzleError;
    fn from_str(s: &str) -> Result<Symmetry, PuzzleError> {
        Symmetry::ALL
            .into_iter()
            .find(|x| x.name() == s)
            .ok_or_else(|| PuzzleError::UnknownSymmetry(s.to_string()))
    }
}

/// What the puzzles should be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Goal {
    /// Minimal puzzles (no clue, or no orbit of clues, can be removed).
    Minimal,
    /// Exactly this many clues (not necessarily minimal).
    Clues(usize),
    /// Minimal puzzles rated at this level.
    Level(Level),
}

/// Options for a puzzle run ([`PuzzleRun`]) or one puzzle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PuzzleOptions {
    /// What to aim for.
    pub goal: Goal,
    /// Which cells are removed together.
    pub symmetry: Symmetry,
    /// Boards tried per puzzle before giving up.
    pub max_attempts: u32,
    /// The windows the puzzle's SE ratings must fall in (none by default).
    pub se: SeWindows,
    /// The cells the clues are among (with [`Goal::Minimal`] or [`Goal::Level`] and no symmetry); `None` for
    /// anywhere.
    pub pattern: Option<CluePattern>,
}

impl Default for PuzzleOptions {
    fn default() -> PuzzleOptions {
        PuzzleOptions {
            goal: Goal::Minimal,
            symmetry: Symmetry::None,
            max_attempts: DEFAULT_MAX_ATTEMPTS,
            se: SeWindows::default(),
            pattern: None,
        }
    }
}

/// Boards tried per puzzle by default before [`PuzzleError::GaveUp`].
pub(crate) const DEFAULT_MAX_ATTEMPTS: u32 = 100_000;

impl PuzzleOptions {
    /// Checks that the options can be met at all: a clue count from 17 to 81 that the symmetry's orbits can
    /// add up to; a pattern with neither a clue count nor a symmetry; SE windows a puzzle can meet together.
    pub fn check(&self) -> Result<(), PuzzleError> {
        if let Some((low, l, high, h)) = self.se.disjoint() {
            return Err(PuzzleError::DisjointWindows { low, l, high, h });
        }
        if self.pattern.is_some() {
            if let Goal::Clues(_) = self.goal {
                return Err(PuzzleError::PatternWith("--clues"));
            }
            if self.symmetry != Symmetry::None {
                return Err(PuzzleError::PatternWith("--symmetry"));
            }
        }
        if let Goal::Clues(k) = self.goal {
            if !(MIN_CLUES..=CELLS).contains(&k) {
                return Err(PuzzleError::ClueCount(k));
            }
            // Which totals can the orbits add up to?
            let mut reach = [false; CELLS + 1];
            reach[0] = true;
            for o in self.symmetry.orbits() {
                for t in (o.len()..=CELLS).rev() {
                    reach[t] |= reach[t - o.len()];
                }
            }
            if !reach[k] {
                return Err(PuzzleError::ClueCountForSymmetry {
                    clues: k,
                    symmetry: self.symmetry,
                });
            }
        }
        Ok(())
    }
}

/// Why puzzles cannot be generated.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PuzzleError {
    /// The clue count is out of range.
    #[error("--clues {0}: a puzzle with one solution has 17 to 81 clues")]
    ClueCount(usize),
    /// The symmetry's orbits cannot add up to the clue count.
    #[error(
        "--clues {clues} cannot be made with --symmetry {symmetry} (its cells go in groups that do not add up \
         to {clues})"
    )]
    ClueCountForSymmetry {
        /// The clue count asked for.
        clues: usize,
        /// The symmetry.
        symmetry: Symmetry,
    },
    /// Two SE windows that no puzzle can meet together (ED is never above EP, nor EP above ER).
    #[error("{low} {l} and {high} {h} cannot both hold: a puzzle's ED is never above its EP, nor its EP above its ER")]
    DisjointWindows {
        /// The flag of the lower rating.
        low: &'static str,
        /// Its window.
        l: window::SeWindow,
        /// The flag of the higher rating.
        high: &'static str,
        /// Its window.
        h: window::SeWindow,
    },
    /// A pattern of givens with an option that also decides where the clues are.
    #[error("--pattern decides where the clues are: it cannot be used with {0}")]
    PatternWith(&'static str),
    /// A symmetry name that is not known.
    #[error("unknown symmetry {0:?} (known: none, rotate180, rotate90, mirror, diagonal)")]
    UnknownSymmetry(String),
    /// No board gave a puzzle meeting the goal within the attempts allowed.
    #[error("puzzle {index}: none of {attempts} boards gave a puzzle meeting the goal")]
    GaveUp {
        /// The puzzle index.
        index: u64,
        /// Boards tried.
        attempts: u32,
    },
    /// The search for puzzle `index` was stopped from outside (its stop flag was set) before a board met the
    /// goal; nothing of it is kept.
    #[error("puzzle {index}: stopped before a board met the goal")]
    Stopped {
        /// The puzzle index.
        index: u64,
    },
}

/// A generated puzzle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Generated {
    /// The puzzle (exactly one solution).
    pub puzzle: Grid,
    /// Its solution.
    pub solution: Grid,
    /// Boards tried to get it (1 when the first board did).
    pub attempts: u32,
    /// Its rating, when the goal needed one.
    pub rating: Option<Rating>,
    /// Its SE rating, when SE windows were given.
    pub se: Option<SeRating>,
}

/// Makes puzzle number `index` of the run seeded with `seed`. Cost: one uniqueness check per orbit per board
/// (per clue with a pattern), plus a rating per board for [`Goal::Level`] and an SE rating, stopped early, for SE
/// windows; boards are retried until the goal is met, or until `stop` is set ([`PuzzleError::Stopped`]; it is
/// looked at before every board and after every step of an SE rating, so a rare goal still ends soon).
pub(crate) fn generate(
    options: &PuzzleOptions,
    seed: u64,
    index: u64,
    stop: Option<&AtomicBool>,
) -> Result<Generated, PuzzleError> {
    options.check()?;
    let orbits = options.symmetry.orbits();
    generate_checked(options, &orbits, &mut Vec::new(), (seed, index), stop)
}

/// [`generate`] for options already checked: `base` is `options.symmetry.orbits()`, made once per run, and
/// `orbits` scratch space that is reset from it for each puzzle (no allocation once it has grown).
fn generate_checked(
    options: &PuzzleOptions,
    base: &[Vec<usize>],
    orbits: &mut Vec<Vec<usize>>,
    (seed, index): (u64, u64),
    stop: Option<&AtomicBool>,
) -> Result<Generated, PuzzleError> {
    orbits.resize_with(base.len(), Vec::new);
    for (o, b) in orbits.iter_mut().zip(base) {
        o.clone_from(b);
    }
    let boards = RandomFill::new(None, seed);
    let stop_at = match options.goal {
        Goal::Clues(k) => k,
        _ => 0,
    };
    for attempt in 1..=options.max_attempts.max(1) {
        if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            return Err(PuzzleError::Stopped { index });
        }
        let solution = boards.board(index, attempt - 1);
        let start = match options.pattern {
            Some(pattern) => match pattern.puzzle_from(&solution) {
                Some(p) => p,
                None => continue,
            },
            None => solution,
        };
        // The removal order has its own stream, apart from the one that filled the board.
        let mut rng = SplitMix64::for_board(seed ^ REMOVAL_STREAM, index, attempt - 1);
        shuffle(&mut rng, orbits);
        let puzzle = prune(start, orbits, stop_at);
        let rating = match options.goal {
            Goal::Minimal => None,
            Goal::Clues(k) => {
                if puzzle.clue_count() != k {
                    continue;
                }
                None
            }
            Goal::Level(level) => match rate(&puzzle) {
                Ok(r) if r.level == level => Some(r),
                _ => continue,
            },
        };
        let se = if options.se.any() {
            match window::rate_in(&puzzle, &options.se, stop) {
                Verdict::Inside(r) => Some(r),
                Verdict::Outside => continue,
                Verdict::Stopped => return Err(PuzzleError::Stopped { index }),
            }
        } else {
            None
        };
        return Ok(Generated {
            puzzle,
            solution,
            attempts: attempt,
            rating,
            se,
        });
    }
    Err(PuzzleError::GaveUp {
        index,
        attempts: options.max_attempts.max(1),
    })
}

/// Mixed into the seed for the clue-removal order.
const REMOVAL_STREAM: u64 = 0x05EE_D0FC_10E5;

/// Fisher-Yates.
fn shuffle<T>(rng: &mut SplitMix64, v: &mut [T]) {
    for i in (1..v.len()).rev() {
        let j = rng.below(i as u32 + 1) as usize;
        v.swap(i, j);
    }
}

/// Removes orbits of clues from `start` (a full board, or one on a pattern), in the order given, whenever the
/// puzzle keeps one solution, never going below `stop_at` clues and stopping there; an orbit with a blank already
/// is left as it is.
fn prune(start: Grid, orbits: &[Vec<usize>], stop_at: usize) -> Grid {
    let mut puzzle = start;
    let mut clues = start.clue_count();
    for orbit in orbits {
        if clues == stop_at {
            break;
        }
        if clues - orbit.len() < stop_at || orbit.iter().any(|&c| puzzle.get(c) == 0) {
            continue;
        }
        let mut trial = puzzle;
        for &c in orbit {
            trial.set(c, 0);
        }
        if has_one_solution(&trial) {
            puzzle = trial;
            clues -= orbit.len();
        }
    }
    puzzle
}

fn has_one_solution(g: &Grid) -> bool {
    matches!(solver::count_solutions(g, 2), Ok(c) if c.solutions == 1)
}

/// Puzzles per chunk handed to the writer: small, because a puzzle costs about a millisecond (a hundred for a rare
/// level), and every core should have chunks to work on.
const CHUNK_PUZZLES: u64 = 16;

/// How often a puzzle run tells its progress while it waits for its workers.
const TICK: Duration = Duration::from_millis(250);

/// The most bytes of a chunk's text (grids, each with a blank line).
const CHUNK_BYTES: usize = CHUNK_PUZZLES as usize * (GRID_TEXT_LEN + 1);

/// Puzzles per chunk for `options`: one when SE windows are given (a puzzle in a narrow window can take seconds,
/// so a run of a few puzzles still spreads them over every core), else [`CHUNK_PUZZLES`]. Either way a puzzle
/// depends on the seed and its index only, so the chunk size never changes the bytes.
fn chunk_puzzles(options: &PuzzleOptions) -> u64 {
    if options.se.any() {
        1
    } else {
        CHUNK_PUZZLES
    }
}

/// A run of puzzles: how many, what they must be, and how they are made and written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PuzzleRun {
    /// Number of puzzles.
    pub count: u64,
    /// What each puzzle must be.
    pub options: PuzzleOptions,
    /// Puzzle `i` depends on the seed and `i` only.
    pub seed: u64,
    /// Worker threads.
    pub threads: Threads,
    /// Line (`.` for blanks) or 9-line grid (`0` for blanks, a blank line between puzzles).
    pub format: Format,
    /// JSON Lines instead of `format`: one object per puzzle, `{"index":I,"puzzle":"…","solution":"…",
    /// "clues":N}`, with `level`, `score`, `guesses` for a level goal and `er`, `ep`, `ed`, `hardest` with SE
    /// windows (`er` `null` and `above` the ladder's top for a puzzle beyond SE's ladder, when no ER window was
    /// given).
    pub json: bool,
}

/// What a finished puzzle run did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PuzzleSummary {
    /// Puzzles written.
    pub puzzles: u64,
    /// Boards made and thrown away (wrong clue count or level) before the puzzles kept.
    pub rejected: u64,
    /// Clues summed over the puzzles written.
    pub clues: u64,
    /// Worker threads used.
    pub threads: usize,
    /// Wall time, output file sync included.
    pub elapsed: Duration,
}

/// Why a puzzle run stopped.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PuzzleRunError {
    /// Puzzles are written as lines or grids.
    #[error("puzzles are written in the line or grid format, not {0:?}")]
    Format(Format),
    /// The options cannot be met, or a puzzle could not be made.
    #[error(transparent)]
    Puzzle(#[from] PuzzleError),
    /// The worker threads could not be started.
    #[error("cannot start worker threads: {0}")]
    Threads(#[from] crate::ordered::ThreadsError),
    /// Writing failed (or the reader of standard output went away).
    #[error(transparent)]
    Output(#[from] OutputError),
}

/// Generates `run.count` puzzles into `target` in index order, on a window of chunks at a time so that memory
/// stays flat; the bytes do not depend on the thread count. A file target appears whole or not at all.
pub fn run_puzzles(
    run: &PuzzleRun,
    target: &Target,
    observer: &mut dyn Observer,
) -> Result<PuzzleSummary, PuzzleRunError> {
    run.options.check()?;
    if run.format == Format::Csv && !run.json {
        return Err(PuzzleRunError::Format(run.format));
    }
    let start = Instant::now();
    let out = OrderedRun::start::<PuzzleRunError>(run.threads, CHUNK_BYTES, target)?;
    let chunks = run.count.div_ceil(chunk_puzzles(&run.options));
    let mut summary = PuzzleSummary {
        puzzles: 0,
        rejected: 0,
        clues: 0,
        threads: out.engine.threads(),
        elapsed: Duration::ZERO,
    };
    let mut next = 0u64;
    // Puzzles made so far, delivered or not: told while the workers are busy, so that a run whose puzzles are
    // rare shows how far it has come before its first chunk is written.
    let made_so_far = AtomicU64::new(0);
    let observer = std::cell::RefCell::new(observer);
    // Every puzzle delivered was counted as made: the count made is the progress.
    let progress = || {
        let made = made_so_far.load(Ordering::Relaxed);
        Progress {
            items: made,
            done: made,
            total: Some(run.count),
        }
    };
    let mut told = Instant::now();
    let made: Result<(), PuzzleError> = out.engine.run_ticking(
        out.window,
        || {
            if told.elapsed() >= TICK {
                told = Instant::now();
                observer.borrow_mut().progress(progress());
            }
        },
        || {
            let c = next;
            next += 1;
            Ok((c < chunks).then_some(c))
        },
        |chunk, cancel| make_chunk(run, chunk, cancel, &made_so_far),
        |done| {
            let (buf, s) = done?;
            summary.puzzles += s.puzzles;
            summary.rejected += s.rejected;
            summary.clues += s.clues;
            Ok(out.put(buf, progress(), *observer.borrow_mut()))
        },
    );
    if let Err(e) = made {
        // Leave no short file: an aborted output is removed, never completed.
        out.writer.abort();
        return Err(e.into());
    }
    out.writer.finish()?;
    summary.elapsed = start.elapsed();
    Ok(summary)
}

/// The text of one chunk of puzzles, and its counts; [`PuzzleError::Stopped`] once `cancel` is set (the run is
/// stopping, and a chunk cut short must not be written).
fn make_chunk(
    run: &PuzzleRun,
    chunk: u64,
    cancel: &AtomicBool,
    made: &AtomicU64,
) -> Result<(Vec<u8>, PuzzleSummary), PuzzleError> {
    let mut buf = Vec::with_capacity(CHUNK_BYTES);
    let mut s = PuzzleSummary {
        puzzles: 0,
        rejected: 0,
        clues: 0,
        threads: 0,
        elapsed: Duration::ZERO,
    };
    let per = chunk_puzzles(&run.options);
    let end = ((chunk + 1) * per).min(run.count);
    let base = run.options.symmetry.orbits();
    let mut orbits = Vec::new();
    for index in chunk * per..end {
        let p = generate_checked(
            &run.options,
            &base,
            &mut orbits,
            (run.seed, index),
            Some(cancel),
        )?;
        if run.json {
            write_json(&p, index, &mut buf);
        } else {
            super::layout::write_puzzle(&p.puzzle, run.format, index == 0, &mut buf);
        }
        s.puzzles += 1;
        made.fetch_add(1, Ordering::Relaxed);
        s.rejected += u64::from(p.attempts - 1);
        s.clues += p.puzzle.clue_count() as u64;
    }
    Ok((buf, s))
}

/// Appends one puzzle as a JSON Lines object (see [`PuzzleRun::json`]).
fn write_json(p: &Generated, index: u64, out: &mut Vec<u8>) {
    out.extend_from_slice(b"{\"index\":");
    out.extend_from_slice(index.to_string().as_bytes());
    let mut line = [0u8; CELLS];
    p.puzzle.write_line(&mut line, b'.');
    json_key(out, "puzzle");
    json_str(out, &line);
    p.solution.write_line(&mut line, b'.');
    json_key(out, "solution");
    json_str(out, &line);
    json_field(out, "clues", &p.puzzle.clue_count());
    if let Some(r) = &p.rating {
        json_field(out, "level", r.level.name());
        json_field(out, "score", &r.score);
        json_field(out, "guesses", &r.guesses);
    }
    if let Some(r) = &p.se {
        let num = |t: Option<Tenths>| t.map(Tenths::value);
        json_field(out, "er", &num(r.er));
        json_field(out, "ep", &num(r.ep));
        json_field(out, "ed", &num(r.ed));
        if r.er.is_none() {
            json_field(out, "above", &r.ceiling.value());
        }
        json_field(out, "hardest", &r.er.and(r.hardest).map(|t| t.name()));
    }
    out.extend_from_slice(b"}\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orbits_partition_the_board_with_the_right_sizes() {
        for s in Symmetry::ALL {
            let orbits = s.orbits();
            let mut seen = [0u8; CELLS];
            for o in &orbits {
                for &c in o {
                    seen[c] += 1;
                }
            }
            assert!(seen.iter().all(|&n| n == 1), "{s}");
            let sizes: Vec<usize> = orbits.iter().map(|o| o.len()).collect();
            let max = *sizes.iter().max().unwrap();
            let expect_max = match s {
                Symmetry::None => 1,
                Symmetry::Rotate90 => 4,
                _ => 2,
            };
            assert_eq!(max, expect_max, "{s}");
            assert_eq!(s.name().parse::<Symmetry>().unwrap(), s);
        }
        assert_eq!(Symmetry::Rotate180.orbit(0), vec![0, 80]);
        assert_eq!(Symmetry::Rotate90.orbit(0), vec![0, 8, 80, 72]);
        assert_eq!(Symmetry::Mirror.orbit(4), vec![4]);
        assert_eq!(Symmetry::Diagonal.orbit(1), vec![1, 9]);
    }

    #[test]
    fn clue_counts_are_checked_against_the_symmetry() {
        let opts = |goal, symmetry| PuzzleOptions {
            goal,
            symmetry,
            max_attempts: 1,
            ..PuzzleOptions::default()
        };
        assert!(opts(Goal::Clues(16), Symmetry::None).check().is_err());
        assert!(opts(Goal::Clues(82), Symmetry::None).check().is_err());
        assert!(opts(Goal::Clues(30), Symmetry::None).check().is_ok());
        // Quarter turns: 20 orbits of 4 and the centre, so only 4k and 4k+1 clues.
        assert!(opts(Goal::Clues(29), Symmetry::Rotate90).check().is_ok());
        assert!(opts(Goal::Clues(28), Symmetry::Rotate90).check().is_ok());
        assert!(opts(Goal::Clues(30), Symmetry::Rotate90).check().is_err());
        // Mirror: 36 pairs and 9 cells on the middle column: anything.
        assert!(opts(Goal::Clues(27), Symmetry::Mirror).check().is_ok());
    }

    fn solutions(g: &Grid) -> u64 {
        solver::count_solutions(g, 2).unwrap().solutions
    }

    #[test]
    fn generated_puzzles_are_unique_and_minimal() {
        let opts = PuzzleOptions::default();
        for index in 0..4 {
            let g = generate(&opts, 42, index, None).unwrap();
            assert_eq!(g.attempts, 1);
            assert_eq!(solutions(&g.puzzle), 1);
            assert!(g.solution.is_solution_of(&g.puzzle));
            for cell in (0..CELLS).filter(|&c| g.puzzle.get(c) != 0) {
                let mut fewer = g.puzzle;
                fewer.set(cell, 0);
                assert_eq!(solutions(&fewer), 2, "clue {cell} of {} can go", g.puzzle);
            }
        }
    }

    #[test]
    fn symmetric_puzzles_keep_their_symmetry_and_lose_no_orbit() {
        for symmetry in [
            Symmetry::Rotate180,
            Symmetry::Rotate90,
            Symmetry::Mirror,
            Symmetry::Diagonal,
        ] {
            let opts = PuzzleOptions {
                symmetry,
                ..PuzzleOptions::default()
            };
            let g = generate(&opts, 3, 0, None).unwrap();
            assert_eq!(solutions(&g.puzzle), 1);
            for orbit in symmetry.orbits() {
                let filled = orbit.iter().filter(|&&c| g.puzzle.get(c) != 0).count();
                assert!(
                    filled == 0 || filled == orbit.len(),
                    "{symmetry}: {}",
                    g.puzzle
                );
                if filled > 0 {
                    let mut fewer = g.puzzle;
                    for &c in &orbit {
                        fewer.set(c, 0);
                    }
                    assert_eq!(solutions(&fewer), 2, "{symmetry}: orbit {orbit:?} can go");
                }
            }
        }
    }

    #[test]
    fn clue_counts_and_levels_are_met() {
        let opts = PuzzleOptions {
            goal: Goal::Clues(30),
            ..PuzzleOptions::default()
        };
        let g = generate(&opts, 9, 0, None).unwrap();
        assert_eq!(g.puzzle.clue_count(), 30);
        assert_eq!(solutions(&g.puzzle), 1);
        for level in [Level::Easy, Level::Intermediate, Level::Expert] {
            let opts = PuzzleOptions {
                goal: Goal::Level(level),
                ..PuzzleOptions::default()
            };
            let g = generate(&opts, 9, 1, None).unwrap();
            assert_eq!(rate(&g.puzzle).unwrap().level, level);
        }
        let hopeless = PuzzleOptions {
            goal: Goal::Clues(17),
            max_attempts: 2,
            ..PuzzleOptions::default()
        };
        assert_eq!(
            generate(&hopeless, 9, 5, None),
            Err(PuzzleError::GaveUp {
                index: 5,
                attempts: 2
            })
        );
    }

    #[test]
    fn same_seed_and_index_give_the_same_puzzle() {
        let opts = PuzzleOptions::default();
        let a = generate(&opts, 11, 3, None).unwrap();
        assert_eq!(generate(&opts, 11, 3, None).unwrap(), a);
        assert_ne!(generate(&opts, 11, 4, None).unwrap().puzzle, a.puzzle);
        assert_ne!(generate(&opts, 12, 3, None).unwrap().puzzle, a.puzzle);
    }

    #[test]
    fn a_set_stop_flag_ends_the_search_without_a_puzzle() {
        let stop = AtomicBool::new(true);
        let opts = PuzzleOptions::default();
        assert_eq!(
            generate(&opts, 11, 3, Some(&stop)),
            Err(PuzzleError::Stopped { index: 3 })
        );
        // A run's chunk cut short is an error, never a short chunk to write.
        let run = PuzzleRun {
            count: 40,
            options: opts,
            seed: 11,
            threads: Threads::Count(1),
            format: Format::Line,
            json: false,
        };
        assert_eq!(
            make_chunk(&run, 1, &stop, &AtomicU64::new(0)).unwrap_err(),
            PuzzleError::Stopped { index: 16 }
        );
        // An unset flag changes nothing.
        let go = AtomicBool::new(false);
        assert_eq!(
            generate(&opts, 11, 3, Some(&go)),
            generate(&opts, 11, 3, None)
        );
        let made = AtomicU64::new(0);
        assert_eq!(
            make_chunk(&run, 1, &go, &made).unwrap().0,
            make_chunk(&run, 1, &AtomicBool::new(false), &AtomicU64::new(0))
                .unwrap()
                .0
        );
        // Every puzzle made is counted as it is made.
        assert_eq!(made.load(Ordering::Relaxed), 16);
    }
}
