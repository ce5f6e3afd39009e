//! The solver's public face: find one solution, check uniqueness, count solutions up to a limit, with per-puzzle
//! statistics. Every call is allocation-free: the search state is `Copy`, and each guess copies it into a frame of
//! a recursion at most 81 deep, on the call stack.
//!
//! Cost, in the order of the functions below:
//! - [`solve`] stops at the first solution (the cheapest; what batch solving uses by default);
//! - [`solve_unique`] searches on until it has seen a second solution or exhausted the tree (about twice the work
//!   on a proper puzzle, which has to be searched completely);
//! - [`count_solutions`] searches until `limit` solutions or exhaustion: the cost grows with `limit`.
//!
//! Two engines give the same counts, and the same solution to a puzzle that has one: the bitmask engine (the
//! default) and the vector engine; a third choice, [`Engine::Auto`], runs the bitmask engine and, counting many
//! solutions, hands a puzzle with many open cells over to the vector engine. [`solve_with`], [`solve_unique_with`]
//! and [`count_solutions_with`] pick one ([`Engine`]). [`solve`] runs on the bitmask engine (its first of several
//! solutions stays the same from release to release); [`solve_unique`] and [`count_solutions`], whose answers no
//! engine changes, on [`Engine::Auto`].

mod auto;
mod engine;
mod processor;
#[cfg(test)]
mod reference;
mod tables;
mod vector;

#[cfg(feature = "internals")]
pub use vector::every_copy as vector_copies;

use crate::grid::{Conflict, Grid};

/// Per-puzzle counters from one search.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SolveStats {
    /// Guesses made: the number of times propagation stalled and a candidate was tried (0 = solved by
    /// propagation alone).
    pub guesses: u32,
}

/// A puzzle and its solution.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Solved {
    /// The completed board.
    pub solution: Grid,
    /// What the search cost.
    pub stats: SolveStats,
}

/// Why a puzzle has no (acceptable) solution.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SolveError {
    /// The givens already break a rule (found by `Grid::check_givens` when the search found no solution).
    #[error("clashing givens: {0}")]
    InvalidGivens(#[from] Conflict),
    /// The givens are consistent but no completion exists (the search was exhausted).
    #[error("no solution")]
    NoSolution,
    /// Asked for a unique solution, found at least two. `first` is one of them.
    #[error("more than one solution")]
    MultipleSolutions {
        /// One of the solutions found.
        first: Grid,
    },
}

/// The outcome of [`count_solutions`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SolutionCount {
    /// Solutions found, at most the limit asked for.
    pub solutions: u64,
    /// True when the search stopped at the limit (there may be more).
    pub hit_limit: bool,
    /// The first solution found, if any.
    pub first: Option<Grid>,
    /// What the search cost.
    pub stats: SolveStats,
}

/// The search engine that runs a solver call. All find the same solutions and counts; they differ in speed
/// (BENCHMARKS.md) and in the first of several solutions they meet, and count guesses in their own units.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Engine {
    /// Per digit and band, a bit mask of the cells where the digit may go; guesses on cells. The default, and
    /// the engine of [`solve`].
    #[default]
    Bitmask,
    /// Per box, 16 lanes of digit sets, and per band the digits' remaining placement patterns; guesses split
    /// one digit's patterns in one band.
    Vector,
    /// Chosen per search: the bitmask engine, which, when many solutions are counted on a processor where the
    /// vector engine runs its AVX-512 copy, gives a puzzle with many cells open at its first guess up to the vector
    /// engine (searched again from the givens and the cells propagation settled before the first guess); elsewhere,
    /// and for a first solution or uniqueness, the bitmask engine alone, the faster there (the thresholds and why
    /// are in src/solver/auto.rs). Its guesses are both engines' added. The engine of [`solve_unique`] and
    /// [`count_solutions`]; not of [`solve`], whose first of several solutions is the bitmask engine's.
    Auto,
}

impl Engine {
    /// Every engine, the default first.
    pub const ALL: [Engine; 3] = [Engine::Bitmask, Engine::Vector, Engine::Auto];

    /// The engine's name: `bitmask`, `vector` or `auto`.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Bitmask => "bitmask",
            Engine::Vector => "vector",
            Engine::Auto => "auto",
        }
    }
}

/// When a search gives its puzzle up, for another engine to search from what it hands over ([`Engine::Auto`]): at
/// the first guess when more cells than `open` are open then, or at a guess once `guesses` have been made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Handover {
    /// Open cells at the first guess above which the puzzle is given up.
    open: u32,
    /// Guesses made above which the puzzle is given up at its next guess.
    guesses: u32,
}

impl Handover {
    /// Never give up: the engine alone.
    const NEVER: Handover = Handover {
        open: crate::grid::CELLS as u32,
        guesses: u32::MAX,
    };
}

/// The result of one search.
struct Outcome {
    /// Solutions found (at most the limit).
    found: u64,
    /// The first solution found.
    first: Option<Grid>,
    /// What the search cost.
    stats: SolveStats,
}

/// A stop flag given to a count is polled once per this many solutions found (a relaxed load: nothing per node).
const STOP_POLL: u64 = 4096;

impl Outcome {
    /// Counts a solution an engine has reached (`solution` reads it, for the first one only). True when the
    /// search is to end here: `stop`, polled once every [`STOP_POLL`] solutions, was found set.
    #[inline(always)]
    fn count(
        &mut self,
        stop: Option<&std::sync::atomic::AtomicBool>,
        solution: impl FnOnce() -> Grid,
    ) -> bool {
        self.found += 1;
        if self.first.is_none() {
            self.first = Some(solution());
        }
        self.found % STOP_POLL == 0
            && stop.is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed))
    }
}

/// Finds one solution (the first the search meets). Cost: one search stopped at the first solution.
pub fn solve(puzzle: &Grid) -> Result<Solved, SolveError> {
    solve_with(puzzle, Engine::default())
}

/// [`solve`] on the engine `engine`.
pub fn solve_with(puzzle: &Grid, engine: Engine) -> Result<Solved, SolveError> {
    let out = search(puzzle, 1, None, engine)?;
    match out.first {
        Some(solution) => Ok(Solved {
            solution,
            stats: out.stats,
        }),
        None => Err(SolveError::NoSolution),
    }
}

/// Finds the solution and proves it unique. Cost: a search stopped at the second solution, so a proper puzzle is
/// searched exhaustively. Runs on [`Engine::Auto`].
pub fn solve_unique(puzzle: &Grid) -> Result<Solved, SolveError> {
    solve_unique_with(puzzle, Engine::Auto)
}

/// [`solve_unique`] on the engine `engine`.
pub fn solve_unique_with(puzzle: &Grid, engine: Engine) -> Result<Solved, SolveError> {
    let out = search(puzzle, 2, None, engine)?;
    match (out.found, out.first) {
        (1, Some(solution)) => Ok(Solved {
            solution,
            stats: out.stats,
        }),
        (0, _) | (_, None) => Err(SolveError::NoSolution),
        (_, Some(first)) => Err(SolveError::MultipleSolutions { first }),
    }
}

/// Counts solutions, stopping at `limit` (a `limit` of 0 is treated as 1). Cost grows with `limit`: every
/// solution counted is a leaf of the search tree. Runs on [`Engine::Auto`].
pub fn count_solutions(puzzle: &Grid, limit: u64) -> Result<SolutionCount, Conflict> {
    count_solutions_until(puzzle, limit, None)
}

/// [`count_solutions`] on the engine `engine`.
pub fn count_solutions_with(
    puzzle: &Grid,
    limit: u64,
    engine: Engine,
) -> Result<SolutionCount, Conflict> {
    count(puzzle, limit, None, engine)
}

/// [`count_solutions`] that also ends once `stop` is set (checked every few thousand solutions): the count is
/// then what was found so far, below the limit; the caller knows from `stop` that it is not the whole count.
pub(crate) fn count_solutions_until(
    puzzle: &Grid,
    limit: u64,
    stop: Option<&std::sync::atomic::AtomicBool>,
) -> Result<SolutionCount, Conflict> {
    count(puzzle, limit, stop, Engine::Auto)
}

/// The count of [`count_solutions_until`] on the engine `engine`.
fn count(
    puzzle: &Grid,
    limit: u64,
    stop: Option<&std::sync::atomic::AtomicBool>,
    engine: Engine,
) -> Result<SolutionCount, Conflict> {
    let limit = limit.max(1);
    let out = search(puzzle, limit, stop, engine)?;
    Ok(SolutionCount {
        solutions: out.found,
        hit_limit: out.found >= limit,
        first: out.first,
        stats: out.stats,
    })
}

/// Runs an engine. Clashing givens leave either without a solution, and without a guess: the first propagation
/// already fails on them (bitmask: two singles of one digit in a row; a row or a box of the band left without a
/// placement; a given's cell emptied by a column locked in another band. Vector: see `vector::state`). So only a
/// search that ends without solution and without guess needs [`Grid::check_givens`] to tell a clash from a puzzle
/// that has no solution.
fn search(
    puzzle: &Grid,
    limit: u64,
    stop: Option<&std::sync::atomic::AtomicBool>,
    engine: Engine,
) -> Result<Outcome, Conflict> {
    let out = match engine {
        Engine::Bitmask => engine::run(puzzle, limit, stop),
        Engine::Vector => vector::run(puzzle, limit, stop),
        Engine::Auto => auto::run(puzzle, limit, stop),
    };
    if out.found == 0 && out.stats.guesses == 0 {
        puzzle.check_givens()?;
    }
    Ok(out)
}

/// Test support: the puzzles of a file of `data/` (comments and blank lines skipped; the first field of each
/// line).
#[cfg(test)]
fn sample_puzzles(text: &str) -> Vec<Grid> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| crate::grid::samples::g(l.split_whitespace().next().unwrap_or("")))
        .collect()
}

/// Test support: the two compiled copies of an engine, run by `both` (portable, then x86-64-v3), give the same
/// solution, count and guesses on every sample puzzle (limit 2) and on 2,000 random consistent givens (limit 3).
#[cfg(all(test, target_arch = "x86_64"))]
fn assert_copies_agree(both: impl Fn(&Grid, u64) -> (Outcome, Outcome)) {
    let run = |p: &Grid, limit: u64| {
        let (a, b) = both(p, limit);
        assert_eq!(
            (a.found, a.first, a.stats.guesses),
            (b.found, b.first, b.stats.guesses),
            "{p}"
        );
        a.found
    };
    let mut solved = 0;
    for line in include_str!("../../data/puzzles.txt").lines() {
        if let Ok(p) = Grid::parse_line(line.as_bytes()) {
            solved += run(&p, 2);
        }
    }
    assert_eq!(solved, 100);
    let mut below = crate::grid::samples::below(0x2545_F491_4F6C_DD1D);
    let mut next = |n: u64| below(n) as usize;
    let mut seen = [0u32; 4];
    for _ in 0..2000 {
        let mut p = Grid::EMPTY;
        for _ in 0..8 + next(20) {
            let (cell, d) = (next(81), 1 + next(9) as u8);
            let mut q = p;
            q.set(cell, d);
            if q.check_givens().is_ok() {
                p = q;
            }
        }
        seen[run(&p, 3) as usize] += 1;
    }
    assert!(seen[0] > 100 && seen[3] > 100, "{seen:?}");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::samples::{g, HARD, HARD_SOLUTION};

    /// The first puzzle of the forum's hardest list (HardestDatabase110626): singles and box/line reasoning stall
    /// on it at once, so the search must guess.
    const GUESSING: &str =
        "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3";

    #[test]
    fn a_count_ends_soon_after_its_stop_flag_is_set() {
        use std::sync::atomic::AtomicBool;
        let empty = Grid::EMPTY;
        let stop = AtomicBool::new(true);
        let c = count_solutions_until(&empty, 1_000_000_000, Some(&stop)).unwrap();
        assert!(c.solutions >= 1 && c.solutions <= 4096, "{}", c.solutions);
        assert!(!c.hit_limit);
        let go = AtomicBool::new(false);
        let c = count_solutions_until(&empty, 10_000, Some(&go)).unwrap();
        assert_eq!((c.solutions, c.hit_limit), (10_000, true));
    }

    #[test]
    fn solves_a_hard_puzzle_to_its_known_solution() {
        let s = solve(&g(HARD)).unwrap();
        assert_eq!(s.solution, g(HARD_SOLUTION));
        let u = solve_unique(&g(HARD)).unwrap();
        assert_eq!(u.solution, g(HARD_SOLUTION));
    }

    #[test]
    fn a_puzzle_that_needs_guesses_counts_them() {
        let p = g(GUESSING);
        let s = solve(&p).unwrap();
        assert!(s.solution.is_solution_of(&p));
        assert!(s.stats.guesses > 0);
        let u = solve_unique(&p).unwrap();
        assert_eq!(u.solution, s.solution);
        assert!(u.stats.guesses >= s.stats.guesses);
    }

    #[test]
    fn empty_grid_has_many_solutions() {
        let s = solve(&Grid::EMPTY).unwrap();
        assert!(s.solution.is_valid_solution());
        let e = solve_unique(&Grid::EMPTY).unwrap_err();
        match e {
            SolveError::MultipleSolutions { first } => assert!(first.is_valid_solution()),
            other => panic!("unexpected {other:?}"),
        }
        let c = count_solutions(&Grid::EMPTY, 1000).unwrap();
        assert_eq!(c.solutions, 1000);
        assert!(c.hit_limit);
    }

    #[test]
    fn full_valid_grid_is_its_own_solution() {
        let s = solve(&g(HARD_SOLUTION)).unwrap();
        assert_eq!(s.solution, g(HARD_SOLUTION));
        assert_eq!(s.stats.guesses, 0);
    }

    #[test]
    fn consistent_givens_without_solution() {
        // Row 1 leaves r1c9 needing a 9, but column 9 already holds a 9 lower down.
        let mut p = Grid::EMPTY;
        for (cell, d) in (1..=8).enumerate() {
            p.set(cell, d);
        }
        p.set(8 * 9 + 8, 9);
        // sanity: no clash among givens
        assert!(p.check_givens().is_ok());
        assert_eq!(solve(&p).unwrap_err(), SolveError::NoSolution);
        assert_eq!(solve_unique(&p).unwrap_err(), SolveError::NoSolution);
        assert_eq!(count_solutions(&p, 5).unwrap().solutions, 0);
    }

    /// What [`search`] relies on: the engine never guesses on clashing givens. Random givens, clashing or not.
    #[test]
    fn clashing_givens_fail_before_any_guess() {
        let mut below = crate::grid::samples::below(0x853C_49E6_748F_EA9B);
        let mut next = |n: u64| below(n) as usize;
        let mut clashes = 0;
        for round in 0..20_000 {
            let mut p = Grid::EMPTY;
            for _ in 0..2 + round % 30 {
                p.set(next(81), 1 + next(9) as u8);
            }
            if p.check_givens().is_err() {
                clashes += 1;
                let out = engine::run(&p, 2, None);
                assert_eq!((out.found, out.stats.guesses), (0, 0), "{p}");
            }
        }
        assert!(clashes > 5_000, "{clashes}");
    }

    #[test]
    fn clashing_givens_are_told_apart_from_no_solution() {
        let p =
            g("11...............................................................................");
        match solve(&p).unwrap_err() {
            SolveError::InvalidGivens(c) => assert_eq!(c.digit, 1),
            other => panic!("unexpected {other:?}"),
        }
        assert!(count_solutions(&p, 2).is_err());
    }

    #[test]
    fn counts_exactly_two_solutions_of_a_deadly_pattern() {
        // Remove a swappable rectangle (two 1/2 pairs in two rows, two columns, two boxes... here r1c1,r1c2,r2c1,r2c2
        // would share a box, so use the known solution and blank a rectangle spanning two boxes).
        let sol = g(HARD_SOLUTION);
        // Find a rectangle r1/r2 x cA/cB in different boxes with values {a,b} / {b,a}.
        let mut found = None;
        'outer: for r1 in 0..9 {
            for r2 in (r1 + 1)..9 {
                if r1 / 3 != r2 / 3 {
                    continue;
                }
                for c1 in 0..9 {
                    for c2 in (c1 + 1)..9 {
                        if c1 / 3 == c2 / 3 {
                            continue;
                        }
                        let (a, b) = (sol.get(r1 * 9 + c1), sol.get(r1 * 9 + c2));
                        if sol.get(r2 * 9 + c1) == b && sol.get(r2 * 9 + c2) == a {
                            found = Some((r1, r2, c1, c2));
                            break 'outer;
                        }
                    }
                }
            }
        }
        let (r1, r2, c1, c2) = found.expect("the solution has a unique rectangle");
        let mut p = sol;
        for cell in [r1 * 9 + c1, r1 * 9 + c2, r2 * 9 + c1, r2 * 9 + c2] {
            p.set(cell, 0);
        }
        let c = count_solutions(&p, 10).unwrap();
        assert_eq!(c.solutions, 2);
        assert!(!c.hit_limit);
        assert!(c.first.unwrap().is_solution_of(&p));
    }

    fn reference_count(p: &Grid, limit: u64) -> u64 {
        let mut r = reference::Search::new(limit);
        r.run(p);
        r.found
    }

    /// Solutions of the sample set shipped in `data/`, whose answers were obtained independently.
    fn known_solutions() -> Vec<Grid> {
        include_str!("../../data/puzzles.solutions.txt")
            .lines()
            .map(|l| g(l.trim()))
            .collect()
    }

    #[test]
    fn counts_match_the_reference_on_puzzles_with_clues_removed() {
        let mut draw = crate::grid::samples::below(0x9E37_79B9_7F4A_7C15);
        let mut below = |n: usize| draw(n as u64) as usize;
        for (n, sol) in known_solutions().iter().enumerate().take(60) {
            // Keep 18..=40 random cells of a solution: anything from many solutions to a unique one.
            let keep = 18 + below(23);
            let mut p = Grid::EMPTY;
            for _ in 0..keep {
                let cell = below(81);
                p.set(cell, sol.get(cell));
            }
            let limit = 40;
            let c = count_solutions(&p, limit).unwrap();
            assert_eq!(c.solutions, reference_count(&p, limit), "puzzle {n}: {p}");
            assert!(c.first.unwrap().is_solution_of(&p), "puzzle {n}");
            let s = solve(&p).unwrap();
            assert!(s.solution.is_solution_of(&p));
            match solve_unique(&p) {
                Ok(u) => assert_eq!((c.solutions, u.solution), (1, s.solution)),
                Err(SolveError::MultipleSolutions { first }) => {
                    assert!(c.solutions >= 2);
                    assert!(first.is_solution_of(&p));
                }
                Err(e) => panic!("puzzle {n}: {e}"),
            }
        }
    }

    #[test]
    fn counts_match_the_reference_on_random_givens() {
        // Random consistent givens: mostly no solution, sometimes several. Exercises the dead ends.
        let mut draw = crate::grid::samples::below(0xD1B5_4A32_D192_ED03);
        let mut below = |n: usize| draw(n as u64) as usize;
        let mut seen = [0u32; 3];
        for n in 0..300 {
            let mut p = Grid::EMPTY;
            let want = 8 + below(18);
            let mut placed = 0;
            while placed < want {
                let (cell, d) = (below(81), 1 + below(9) as u8);
                let mut q = p;
                q.set(cell, d);
                if p.get(cell) == 0 && q.check_givens().is_ok() {
                    p = q;
                    placed += 1;
                }
            }
            let c = count_solutions(&p, 3).unwrap();
            assert_eq!(c.solutions, reference_count(&p, 3), "case {n}: {p}");
            seen[c.solutions.min(2) as usize] += 1;
            match solve(&p) {
                Ok(s) => assert!(s.solution.is_solution_of(&p)),
                Err(e) => assert_eq!((e, c.solutions), (SolveError::NoSolution, 0)),
            }
        }
        // The generator must really produce both kinds, or the test checks little.
        assert!(seen[0] > 10 && seen[2] > 10, "{seen:?}");
    }

    #[test]
    fn every_sample_puzzle_gets_its_known_solution() {
        let puzzles = include_str!("../../data/puzzles.txt");
        let solutions = known_solutions();
        let mut n = 0;
        for (line, sol) in puzzles
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .zip(&solutions)
        {
            let p = g(line.trim());
            assert_eq!(solve(&p).unwrap().solution, *sol, "{line}");
            assert_eq!(solve_unique(&p).unwrap().solution, *sol, "{line}");
            n += 1;
        }
        assert_eq!(n, solutions.len());
    }

    #[test]
    fn clashing_givens_are_always_reported_as_such() {
        // Start from valid solutions, keep some cells, then copy one kept digit into a peer cell of its row, column
        // or box: the engine must never return a "solution" and the error must name a clash.
        let mut draw = crate::grid::samples::below(0x2545_F491_4F6C_DD1D);
        let mut below = |n: usize| draw(n as u64) as usize;
        for (n, sol) in known_solutions().iter().enumerate() {
            let mut p = Grid::EMPTY;
            for _ in 0..(10 + below(30)) {
                let cell = below(81);
                p.set(cell, sol.get(cell));
            }
            let cell = below(81);
            let (r, c) = (cell / 9, cell % 9);
            let peer = match below(3) {
                0 => r * 9 + (c + 1 + below(8)) % 9,
                1 => ((r + 1 + below(8)) % 9) * 9 + c,
                _ => {
                    let (br, bc) = (r / 3 * 3, c / 3 * 3);
                    let other = (cell % 9 % 3 + (cell / 9 % 3) * 3 + 1 + below(8)) % 9;
                    (br + other / 3) * 9 + bc + other % 3
                }
            };
            p.set(cell, sol.get(cell));
            p.set(peer, sol.get(cell));
            assert!(p.check_givens().is_err(), "case {n}: {p}");
            assert!(
                matches!(solve(&p), Err(SolveError::InvalidGivens(_))),
                "case {n}: {p}"
            );
            assert!(matches!(
                solve_unique(&p),
                Err(SolveError::InvalidGivens(_))
            ));
            assert!(count_solutions(&p, 10).is_err());
        }
    }
}
