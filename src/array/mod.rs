//! Batches in memory: puzzles held by the caller (flat arrays of 81 cell values, or puzzle texts) answered on all
//! cores into buffers the caller owns, with a status code per puzzle instead of marked output. These are the entry
//! points of the Python module's array calls; they allocate nothing per puzzle and print nothing.
//!
//! Status codes ([`OK`], [`code`]): 0 answered, then the position in [`FailureKind::ALL`] + 1: 1 malformed, 2 clashing givens, 3 no
//! solution, 4 more than one solution.
//!
//! The work runs on the crate's one ordered-parallel engine (its indexed mode), so threads follow its [`Threads`] rule: one
//! thread works on the calling thread; a count builds a pool for the call; [`Threads::Auto`] uses the one pool of
//! the process, built on first use.
//!
//! ```
//! use sudoku_batch::array::{self, Cells};
//! use sudoku_batch::Threads;
//!
//! let text = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
//! let puzzle: Vec<u8> = text.bytes().map(|b| if b == b'.' { 0 } else { b - b'0' }).collect();
//! let mut solutions = vec![0u8; 81];
//! let mut status = vec![0i8; 1];
//! array::solve(&Cells::new(&puzzle).unwrap(), true, Threads::Count(1), &mut solutions, &mut status).unwrap();
//! assert_eq!(status, [0]);
//! assert_eq!(&solutions[..9], &[4, 1, 7, 3, 6, 9, 8, 2, 5]);
//! ```

mod dataset;

use std::sync::atomic::Ordering;

pub use dataset::{canon, check, classes, copies, split, status};

use crate::generate::puzzle::{self, Generated, PuzzleError, PuzzleOptions};
use crate::grid::{Grid, ParseError, CELLS};
use crate::human::se::rate_se_within;
use crate::human::{rate as rate_one, Rating, Scale, SeRating, TechniqueCounts, Tenths};
use crate::ordered::{self, Engine, Threads, ThreadsError};
use crate::record::{Failure, FailureKind, RecordError};
use crate::solver;

/// Puzzles handed over at once: enough that the per-piece cost vanishes, few enough that every core gets many.
const PIECE: usize = 256;

/// The status code of an answered puzzle.
pub const OK: i8 = 0;

/// The status code of a failure kind: its position in [`FailureKind::ALL`] + 1.
pub fn code(kind: FailureKind) -> i8 {
    kind.index() as i8 + 1
}

/// Why a call could not run at all (a puzzle that fails is a status code, not an error).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ArrayError {
    /// The cells are not a whole number of boards.
    #[error("puzzle cells must be a multiple of 81 values, got {0}")]
    Ragged(usize),
    /// An output buffer has the wrong length.
    #[error("{what} holds {len} items for {puzzles} puzzles (expected {expected})")]
    OutputLength {
        /// Which buffer.
        what: &'static str,
        /// Its length.
        len: usize,
        /// Puzzles in the call.
        puzzles: usize,
        /// The length it needs.
        expected: usize,
    },
    /// The worker threads could not be started.
    #[error("cannot start worker threads: {0}")]
    Threads(#[from] ThreadsError),
    /// A record a call cannot do without (a puzzle to copy) cannot be read.
    #[error("{what}[{index}] cannot be read: {error}")]
    Unreadable {
        /// Which input.
        what: &'static str,
        /// The record's index in it, from 0.
        index: usize,
        /// Why.
        error: ParseError,
    },
    /// The call was stopped from outside ([`crate::ordered::with_stop`]); the buffers hold part of the answers.
    #[error("the call was stopped before it finished")]
    Stopped,
    /// A split's strata are more than it takes.
    #[error(transparent)]
    Strata(#[from] crate::tools::StrataError),
}

/// Puzzles a call works on: a count and random access. Implemented for [`Cells`] and for slices of puzzle texts;
/// a front end can implement it for its own storage (a strided array) to avoid a copy.
pub trait Puzzles: Sync {
    /// Number of puzzles.
    fn len(&self) -> usize;

    /// True when there are none.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Puzzle `i` (`i < len()`), or why it cannot be read.
    fn puzzle(&self, i: usize) -> Result<Grid, ParseError>;
}

/// Boards as flat cell values, 81 per board in row-major order, 0 for a blank and 1..=9 for a given.
#[derive(Debug, Clone, Copy)]
pub struct Cells<'a>(&'a [u8]);

impl<'a> Cells<'a> {
    /// The boards in `cells`, whose length must be a multiple of 81.
    pub fn new(cells: &'a [u8]) -> Result<Cells<'a>, ArrayError> {
        if cells.len() % CELLS == 0 {
            Ok(Cells(cells))
        } else {
            Err(ArrayError::Ragged(cells.len()))
        }
    }
}

impl Puzzles for Cells<'_> {
    fn len(&self) -> usize {
        self.0.len() / CELLS
    }

    #[inline]
    fn puzzle(&self, i: usize) -> Result<Grid, ParseError> {
        let cells: &[u8; CELLS] = self.0[i * CELLS..(i + 1) * CELLS]
            .try_into()
            .expect("81 cells");
        Grid::from_cells(*cells)
    }
}

/// Puzzle texts in the line notation ([`Grid::parse_line`]: 81 characters, `0` or `.` for blanks, surrounding
/// whitespace ignored).
impl<T: AsRef<[u8]> + Sync> Puzzles for [T] {
    fn len(&self) -> usize {
        <[T]>::len(self)
    }

    #[inline]
    fn puzzle(&self, i: usize) -> Result<Grid, ParseError> {
        Grid::parse_line(self[i].as_ref())
    }
}

/// Solves every puzzle (the first solution found, or with `unique` the proven-unique one). Puzzle `i`'s solution
/// goes to `solutions[81 * i..81 * (i + 1)]` as values 1..=9 (all 0 when it failed) and its code to `status[i]`.
/// Cost: one search per puzzle, nothing allocated per puzzle.
pub fn solve<P: Puzzles + ?Sized>(
    puzzles: &P,
    unique: bool,
    threads: Threads,
    solutions: &mut [u8],
    status: &mut [i8],
) -> Result<(), ArrayError> {
    let n = puzzles.len();
    fits("solutions", solutions.len(), n, n * CELLS)?;
    fits("status", status.len(), n, n)?;
    each(
        (threads, PIECE),
        n,
        (solutions, CELLS),
        (status, 1),
        |i, out, code| {
            let answer = puzzles
                .puzzle(i)
                .map_err(|e| Failure::Malformed(RecordError::Cells(e)))
                .and_then(|p| {
                    let solved = if unique {
                        solver::solve_unique(&p)
                    } else {
                        solver::solve(&p)
                    };
                    solved.map_err(Failure::from)
                });
            match answer {
                Ok(s) => {
                    out.copy_from_slice(s.solution.cells());
                    code[0] = OK;
                }
                Err(f) => {
                    out.fill(0);
                    code[0] = self::code(f.kind());
                }
            }
            Ok(())
        },
    )
}

/// Counts each puzzle's solutions up to `limit` (0 is taken as 1) into `counts`. A puzzle that cannot be counted
/// gets minus its status code: -1 malformed, -2 clashing givens (0 stays "no solution"). Cost grows with `limit`.
pub fn count<P: Puzzles + ?Sized>(
    puzzles: &P,
    limit: u64,
    threads: Threads,
    counts: &mut [i64],
) -> Result<(), ArrayError> {
    let n = puzzles.len();
    fits("counts", counts.len(), n, n)?;
    let limit = limit.clamp(1, i64::MAX as u64);
    let stop = ordered::stop_flag();
    each(
        (threads, PIECE),
        n,
        (counts, 1),
        (&mut vec![(); n], 1),
        |i, out, _| {
            out[0] = match puzzles.puzzle(i) {
                Err(_) => -i64::from(code(FailureKind::Malformed)),
                Ok(p) => solver::count_solutions_until(&p, limit, Some(&stop)).map_or_else(
                    |_| -i64::from(code(FailureKind::ClashingGivens)),
                    |c| c.solutions as i64,
                ),
            };
            Ok(())
        },
    )
}

/// Rates every puzzle (see [`crate::human::rate`]): `ratings[i]` is `Some` when `status[i]` is [`OK`]. Cost: the
/// human-style solving path per puzzle (microseconds to milliseconds).
pub fn rate<P: Puzzles + ?Sized>(
    puzzles: &P,
    threads: Threads,
    ratings: &mut [Option<Rating>],
    status: &mut [i8],
) -> Result<(), ArrayError> {
    rated((threads, PIECE), puzzles, ratings, status, |p| {
        rate_one(p).map_err(Failure::from)
    })
}

/// Rates every puzzle on Sudoku Explainer's scale (see [`crate::human::rate_se`]), as `sudoku rate --scale se`
/// (with `max`, `--max-se`: the path stops before the first step rated above it): `ratings[i]` is `Some` when
/// `status[i]` is [`OK`]. Cost: SE's path per puzzle (milliseconds, seconds for the hardest), so puzzles are
/// handed out a few at a time.
pub fn rate_se<P: Puzzles + ?Sized>(
    puzzles: &P,
    max: Option<Tenths>,
    threads: Threads,
    ratings: &mut [Option<SeRating>],
    status: &mut [i8],
) -> Result<(), ArrayError> {
    let max = max.unwrap_or(Tenths(u8::MAX));
    rated((threads, SE_PIECE), puzzles, ratings, status, |p| {
        rate_se_within(p, max).map_err(Failure::from)
    })
}

/// How many steps of each puzzle's path used each technique, as `sudoku rate --json` gives them in `techniques`
/// (see [`TechniqueCounts`]), on `scale` (on SE's, with `max` as `--max-se`): `counts[i]` is `Some` when
/// `status[i]` is [`OK`]. Cost: one walk of the path per puzzle, as [`rate`] or [`rate_se`].
pub fn technique_counts<P: Puzzles + ?Sized>(
    puzzles: &P,
    scale: Scale,
    max: Option<Tenths>,
    threads: Threads,
    counts: &mut [Option<TechniqueCounts>],
    status: &mut [i8],
) -> Result<(), ArrayError> {
    let max = max.unwrap_or(Tenths(u8::MAX));
    let piece = match scale {
        Scale::Levels => PIECE,
        Scale::Se => SE_PIECE,
    };
    rated((threads, piece), puzzles, counts, status, |p| {
        match scale {
            Scale::Levels => {
                crate::human::rate_counting(p).map(|(_, c)| crate::human::used_techniques(&c))
            }
            Scale::Se => crate::human::rate_se_counting(p, max).map(|(_, c)| c),
        }
        .map_err(Failure::from)
    })
}

/// The run of [`rate`] and [`rate_se`]: `rate` of each puzzle into `ratings`, its code into `status`, in pieces of
/// `piece` puzzles.
fn rated<P: Puzzles + ?Sized, R: Send>(
    (threads, piece): (Threads, usize),
    puzzles: &P,
    ratings: &mut [Option<R>],
    status: &mut [i8],
    rate: impl Fn(&Grid) -> Result<R, Failure> + Sync,
) -> Result<(), ArrayError> {
    let n = puzzles.len();
    fits("ratings", ratings.len(), n, n)?;
    fits("status", status.len(), n, n)?;
    each(
        (threads, piece),
        n,
        (ratings, 1),
        (status, 1),
        |i, out, code| {
            let done = puzzles
                .puzzle(i)
                .map_err(|e| Failure::Malformed(RecordError::Cells(e)))
                .and_then(|p| rate(&p));
            (out[0], code[0]) = match done {
                Ok(r) => (Some(r), OK),
                Err(f) => (None, self::code(f.kind())),
            };
            Ok(())
        },
    )
}

/// Puzzles handed over at once by [`rate_se`]: one may take seconds.
const SE_PIECE: usize = 4;

/// Makes puzzles `0..n` of the run seeded with `seed`, the same ones as [`run_puzzles`](crate::generate::run_puzzles) writes for the same
/// options: puzzle `i` goes to `puzzles[81 * i..]` and its solution to `solutions[81 * i..]` as cell values.
/// Cost: about a millisecond per minimal puzzle, more for a level that is rare.
pub fn generate_puzzles(
    options: &PuzzleOptions,
    seed: u64,
    threads: Threads,
    puzzles: &mut [u8],
    solutions: &mut [u8],
) -> Result<(), GeneratePuzzlesError> {
    options.check()?;
    let n = puzzles.len() / CELLS;
    fits("puzzles", puzzles.len(), n, n * CELLS)?;
    fits("solutions", solutions.len(), n, n * CELLS)?;
    // The search for one puzzle can take long (a rare clue count or level): it looks at the stop flag itself.
    let stop = ordered::stop_flag();
    // A puzzle in an SE window can take seconds: one at a time, so that a few of them still use every core.
    let piece = if options.se.any() { 1 } else { PIECE };
    each(
        (threads, piece),
        n,
        (puzzles, CELLS),
        (solutions, CELLS),
        |i, p, s| {
            let Generated {
                puzzle, solution, ..
            } = puzzle::generate(options, seed, i as u64, Some(&stop)).map_err(|e| match e {
                PuzzleError::Stopped { .. } => GeneratePuzzlesError::Array(ArrayError::Stopped),
                e => e.into(),
            })?;
            p.copy_from_slice(puzzle.cells());
            s.copy_from_slice(solution.cells());
            Ok(())
        },
    )
}

/// Why [`generate_puzzles`] stopped.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GeneratePuzzlesError {
    /// The options cannot be met, or a puzzle could not be made.
    #[error(transparent)]
    Puzzle(#[from] PuzzleError),
    /// The buffers or threads were wrong.
    #[error(transparent)]
    Array(#[from] ArrayError),
}

impl From<ThreadsError> for GeneratePuzzlesError {
    fn from(e: ThreadsError) -> Self {
        GeneratePuzzlesError::Array(e.into())
    }
}

fn fits(what: &'static str, len: usize, puzzles: usize, expected: usize) -> Result<(), ArrayError> {
    if len == expected {
        Ok(())
    } else {
        Err(ArrayError::OutputLength {
            what,
            len,
            puzzles,
            expected,
        })
    }
}

/// Runs `work(i, a_i, b_i)` for every `i < n`, where `a_i` is item `i`'s `a_per` items of `a` and `b_i` its
/// `b_per` items of `b`, on the engine of [`crate::ordered`] in its indexed mode, in pieces of `piece` puzzles
/// (usually [`PIECE`]; one piece runs on the calling thread). `work` returning an error stops the call with it.
fn each<A, B, E, W>(
    (threads, piece): (Threads, usize),
    n: usize,
    (a, a_per): (&mut [A], usize),
    (b, b_per): (&mut [B], usize),
    work: W,
) -> Result<(), E>
where
    A: Send,
    B: Send,
    E: From<ArrayError> + Send,
    W: Fn(usize, &mut [A], &mut [B]) -> Result<(), E> + Sync,
{
    debug_assert!(a.len() == n * a_per && b.len() == n * b_per);
    if n == 0 {
        return Ok(());
    }
    let threads = if n <= piece {
        Threads::Count(1)
    } else {
        threads
    };
    let engine = Engine::new(threads).map_err(ArrayError::from)?;
    let pieces = a
        .chunks_mut(piece * a_per)
        .zip(b.chunks_mut(piece * b_per))
        .enumerate();
    let window = ordered::window(engine.threads(), piece * CELLS);
    engine.each::<_, E, _>(window, pieces, |(k, (a, b)), cancel| {
        for (j, (a, b)) in a
            .chunks_exact_mut(a_per)
            .zip(b.chunks_exact_mut(b_per))
            .enumerate()
        {
            if cancel.load(Ordering::Relaxed) {
                return Ok(());
            }
            work(k * piece + j, a, b)?;
        }
        Ok(())
    })?;
    if ordered::stopped() {
        return Err(ArrayError::Stopped.into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::puzzle::Goal;

    const HARD: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

    fn values(text: &str) -> Vec<u8> {
        text.bytes()
            .map(|b| if b == b'.' { 0 } else { b - b'0' })
            .collect()
    }

    /// Puzzles of every outcome, as texts and as cells.
    fn mixed() -> (Vec<String>, Vec<u8>, Vec<i8>) {
        let clash = format!("11{}", &HARD[2..]);
        let none =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/data/no_solution.txt"))
                .unwrap()
                .lines()
                .find(|l| l.len() == 81)
                .unwrap()
                .to_string();
        let empty = ".".repeat(81);
        let texts = vec![HARD.to_string(), clash, none, empty];
        let mut cells: Vec<u8> = texts.iter().flat_map(|t| values(t)).collect();
        // A malformed board as cells: a value above 9.
        cells.extend(std::iter::repeat_n(10, 81));
        let mut texts = texts;
        texts.push(format!("{}x", &HARD[..80]));
        (texts, cells, vec![0, 2, 3, 4, 1])
    }

    #[test]
    fn every_status_code_from_texts_and_cells() {
        let (texts, cells, expect) = mixed();
        let n = texts.len();
        for threads in [Threads::Count(1), Threads::Count(2), Threads::Auto] {
            let mut sol = vec![9u8; n * CELLS];
            let mut st = vec![-1i8; n];
            solve(
                &Cells::new(&cells).unwrap(),
                true,
                threads,
                &mut sol,
                &mut st,
            )
            .unwrap();
            assert_eq!(st, expect);
            let first = Grid::from_cells(sol[..CELLS].try_into().unwrap()).unwrap();
            assert!(first.is_solution_of(&HARD.parse().unwrap()));
            assert!(sol[CELLS..].iter().all(|&c| c == 0), "failures are zeros");
            let mut sol2 = vec![0u8; n * CELLS];
            let mut st2 = vec![0i8; n];
            solve(&texts[..], true, threads, &mut sol2, &mut st2).unwrap();
            assert_eq!((sol2, st2), (sol.clone(), st.clone()));
            // Without unique the empty board is solved.
            solve(&texts[..], false, threads, &mut sol, &mut st).unwrap();
            assert_eq!(st, [0, 2, 3, 0, 1]);
            let empty = Grid::from_cells(sol[3 * CELLS..4 * CELLS].try_into().unwrap()).unwrap();
            assert!(empty.is_valid_solution());
        }
        assert_eq!(code(FailureKind::SeveralSolutions), 4);
    }

    #[test]
    fn many_puzzles_over_pieces_agree_with_one_thread() {
        let base =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/data/puzzles.txt"))
                .unwrap();
        let lines: Vec<&str> = base.lines().filter(|l| l.len() == 81).collect();
        let texts: Vec<&str> = lines.iter().cycle().take(3 * PIECE + 7).copied().collect();
        let n = texts.len();
        let run = |threads| {
            let mut sol = vec![0u8; n * CELLS];
            let mut st = vec![0i8; n];
            solve(&texts[..], false, threads, &mut sol, &mut st).unwrap();
            (sol, st)
        };
        let one = run(Threads::Count(1));
        assert_eq!(run(Threads::Count(3)), one);
        for (i, t) in texts.iter().enumerate() {
            let s =
                Grid::from_cells(one.0[i * CELLS..(i + 1) * CELLS].try_into().unwrap()).unwrap();
            assert!(s.is_solution_of(&t.parse().unwrap()), "puzzle {i}");
        }
    }

    #[test]
    fn counts_and_ratings() {
        let (texts, _, _) = mixed();
        let mut counts = vec![0i64; texts.len()];
        count(&texts[..], 5, Threads::Count(2), &mut counts).unwrap();
        // Clashing givens, no solution, several, malformed: minus the status codes `rate` gives them.
        assert_eq!(counts, [1, -2, 0, 5, -1]);
        let mut ratings = vec![None; texts.len()];
        let mut st = vec![0i8; texts.len()];
        rate(&texts[..], Threads::Count(2), &mut ratings, &mut st).unwrap();
        assert_eq!(st, [0, 2, 3, 4, 1]);
        assert_eq!(ratings[0], Some(rate_one(&HARD.parse().unwrap()).unwrap()));
        assert!(ratings[1..].iter().all(Option::is_none));
    }

    #[test]
    fn generated_puzzles_are_those_of_the_run() {
        let options = PuzzleOptions {
            goal: Goal::Clues(30),
            ..PuzzleOptions::default()
        };
        let n = 20;
        let mut p = vec![0u8; n * CELLS];
        let mut s = vec![0u8; n * CELLS];
        generate_puzzles(&options, 3, Threads::Count(2), &mut p, &mut s).unwrap();
        for i in 0..n {
            let g = puzzle::generate(&options, 3, i as u64, None).unwrap();
            assert_eq!(&p[i * CELLS..(i + 1) * CELLS], g.puzzle.cells());
            assert_eq!(&s[i * CELLS..(i + 1) * CELLS], g.solution.cells());
            assert_eq!(g.puzzle.clue_count(), 30);
        }
        let bad = PuzzleOptions {
            goal: Goal::Clues(5),
            ..options
        };
        let e = generate_puzzles(&bad, 0, Threads::Count(1), &mut p, &mut s).unwrap_err();
        assert!(e.to_string().starts_with("--clues 5"), "{e}");
    }

    #[test]
    fn wrong_lengths_are_errors() {
        assert!(matches!(Cells::new(&[0; 80]), Err(ArrayError::Ragged(80))));
        let e = solve(
            &[HARD][..],
            false,
            Threads::Count(1),
            &mut [0; 80],
            &mut [0],
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "solutions holds 80 items for 1 puzzles (expected 81)"
        );
    }
}
