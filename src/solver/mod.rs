//! The solver's public face: find one solution, check uniqueness, count solutions up to a limit, with per-puzzle
//! statistics. Every call is allocation-free: the search state is `Copy` and guesses push it onto a fixed-capacity
//! stack that lives on the call stack.
//!
//! Cost, in the order of the functions below:
//! - [`solve`] stops at the first solution (the cheapest; what batch solving uses by default);
//! - [`solve_unique`] searches on until it has seen a second solution or exhausted the tree (about twice the work
//!   on a proper puzzle, which has to be searched completely);
//! - [`count_solutions`] searches until `limit` solutions or exhaustion: the cost grows with `limit`.

mod engine;

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
pub enum SolveError {
    /// The givens already break a rule: no search was done.
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
pub struct Count {
    /// Solutions found, at most the limit asked for.
    pub solutions: u64,
    /// True when the search stopped at the limit (there may be more).
    pub hit_limit: bool,
    /// The first solution found, if any.
    pub first: Option<Grid>,
    /// What the search cost.
    pub stats: SolveStats,
}

/// Finds one solution (the first the search meets). Cost: one search stopped at the first solution.
pub fn solve(puzzle: &Grid) -> Result<Solved, SolveError> {
    puzzle.check_givens()?;
    let mut out = engine::Search::new(1);
    out.run(puzzle);
    match out.first {
        Some(solution) => Ok(Solved {
            solution,
            stats: out.stats,
        }),
        None => Err(SolveError::NoSolution),
    }
}

/// Finds the solution and proves it unique. Cost: a search stopped at the second solution, so a proper puzzle is
/// searched exhaustively.
pub fn solve_unique(puzzle: &Grid) -> Result<Solved, SolveError> {
    puzzle.check_givens()?;
    let mut out = engine::Search::new(2);
    out.run(puzzle);
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
/// solution counted is a leaf of the search tree.
pub fn count_solutions(puzzle: &Grid, limit: u64) -> Result<Count, Conflict> {
    puzzle.check_givens()?;
    let limit = limit.max(1);
    let mut out = engine::Search::new(limit);
    out.run(puzzle);
    Ok(Count {
        solutions: out.found,
        hit_limit: out.found >= limit,
        first: out.first,
        stats: out.stats,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(s: &str) -> Grid {
        Grid::parse_line(s.as_bytes()).unwrap()
    }

    const HARD: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    const HARD_SOLUTION: &str =
        "417369825632158947958724316825437169791586432346912758289643571573291684164875293";

    #[test]
    fn solves_a_hard_puzzle_to_its_known_solution() {
        let s = solve(&g(HARD)).unwrap();
        assert_eq!(s.solution, g(HARD_SOLUTION));
        assert!(s.stats.guesses > 0);
        let u = solve_unique(&g(HARD)).unwrap();
        assert_eq!(u.solution, g(HARD_SOLUTION));
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
}
