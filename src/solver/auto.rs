//! The engine chosen per search and puzzle ([`super::Engine::Auto`]): the bitmask engine first, and when many
//! solutions are counted and the puzzle has many open cells, the vector engine, which searches it again from the
//! grid the bitmask engine had propagated to before its first guess.
//!
//! The vector engine's guesses split a digit's placements in a band, so it searches in fewer guesses, but each
//! costs more: measured on the shared sets (`sudoku bench`, BENCHMARKS.md), the bitmask engine (with its
//! bit-extraction copy) is the faster of the two on every set for a first solution and for uniqueness (limit 2),
//! whatever the hand-over signal (many cells open at the first stall, many guesses made). Counting many solutions
//! of a puzzle with few givens, the vector engine's AVX-512 copy was the faster on a processor that runs it, its
//! AVX2 copy the slower (BENCHMARKS.md, issue 33: measured on AMD Zen 4 and Zen 3). So a search for at least
//! [`MANY`] solutions, where the AVX-512 copy runs, hands a puzzle with more than [`OPEN`] cells open at the bitmask
//! engine's first stall over to the vector engine ([`AT_OPEN`]), and every other search stays on the bitmask
//! engine. The vector engine starts from the givens and every cell the bitmask engine settled at its first stall:
//! no guess had been made there, so that grid has exactly the puzzle's solutions. (The hand-over also works deeper
//! in the tree, after some guesses; then the bitmask engine may have found solutions already, which are dropped,
//! and the vector engine counts from that grid with the whole limit, so that the count is exact. No search uses it
//! now: it never paid.) Both engines give the same counts and the same solution to a puzzle that has one, so the
//! choice changes no answer of a search whose result does not depend on which solution comes first.

use std::sync::atomic::AtomicBool;

use super::engine;
use super::{vector, Handover, Outcome};
use crate::grid::Grid;

/// A search for this many solutions or more may go to the vector engine.
const MANY: u64 = 1000;
/// The puzzle goes to the vector engine (see [`MANY`]) when more cells than this are open at the bitmask engine's
/// first guess.
const OPEN: u32 = 50;

/// The hand-over of a search for many solutions: at the first stall, when more than [`OPEN`] cells are open.
const AT_OPEN: Handover = Handover {
    open: OPEN,
    guesses: u32::MAX,
};

/// When the bitmask engine gives up a search for `limit` solutions on this processor.
fn handover(limit: u64) -> Handover {
    if limit >= MANY && vector::has_avx512_copy() {
        AT_OPEN
    } else {
        Handover::NEVER
    }
}

/// Searches `puzzle` as [`super::engine::run`] does, on the bitmask engine or, once it gives the puzzle up, on the
/// vector engine from the grid it hands over (see [`engine::run_or_hand_over`]). The guesses are both engines'
/// added.
pub(super) fn run(puzzle: &Grid, limit: u64, stop: Option<&AtomicBool>) -> Outcome {
    match engine::run_or_hand_over(puzzle, limit, stop, handover(limit)) {
        (out, None) => out,
        (tried, Some(settled)) => {
            let mut out = vector::run(&settled, limit, stop);
            out.stats.guesses = out.stats.guesses.saturating_add(tried.stats.guesses);
            out
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::samples::{below, g};
    use crate::solver::{
        count_solutions, count_solutions_with, reference, solve_unique, solve_unique_with, Engine,
        SolutionCount, SolveError,
    };

    use crate::solver::sample_puzzles as data;

    /// How [`run`] went on one puzzle.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    enum Went {
        /// The bitmask engine searched it alone.
        Kept,
        /// Given up at the first guess, for its open cells.
        Open,
        /// Given up after more than the hand-over's guesses ([`DEEP`]).
        Guesses,
        /// Given up after more than the hand-over's guesses and some solutions found.
        GuessesAfterSolutions,
    }

    /// Checks `p` on the chosen engine up to `limit`: the count is the reference search's and both engines'; a
    /// solution that is the only one is both engines'; the outcome is the bitmask engine's whole (count, first
    /// solution, guesses) when it kept the puzzle, else the vector engine's count and first solution with both
    /// engines' guesses. The unique-solution search agrees with both engines. Says how the puzzle went.
    fn check(p: &Grid, limit: u64) -> Went {
        check_handing_over(p, limit, handover(limit))
    }

    /// The count of `p` up to `limit` on every engine, checked against the reference search (and the solution when
    /// it is the only one, and the unique-solution search): the reference's count, and the chosen engine's and the
    /// bitmask engine's outcomes.
    fn check_engines(p: &Grid, limit: u64) -> (u64, SolutionCount, SolutionCount) {
        let mut r = reference::Search::new(limit);
        r.run(p);
        let auto = count_solutions_with(p, limit, Engine::Auto).unwrap();
        let bitmask = count_solutions_with(p, limit, Engine::Bitmask).unwrap();
        let vector = count_solutions_with(p, limit, Engine::Vector).unwrap();
        assert_eq!(auto.solutions, r.found, "{p}");
        assert_eq!(bitmask.solutions, r.found, "{p}");
        assert_eq!(vector.solutions, r.found, "{p}");
        assert_eq!(auto.hit_limit, r.found >= limit, "{p}");
        if r.found == 1 {
            assert_eq!(auto.first, bitmask.first, "{p}");
            assert_eq!(auto.first, vector.first, "{p}");
        }
        if let Some(first) = auto.first {
            assert!(first.is_solution_of(p), "{p}");
        }
        let unique = |e| solve_unique_with(p, e).map(|s| s.solution);
        match (unique(Engine::Auto), unique(Engine::Bitmask)) {
            (Ok(a), Ok(b)) => assert_eq!(a, b, "{p}"),
            (
                Err(SolveError::MultipleSolutions { first }),
                Err(SolveError::MultipleSolutions { .. }),
            ) => {
                assert!(first.is_solution_of(p), "{p}")
            }
            (a, b) => assert_eq!(a, b, "{p}"),
        }
        (r.found, auto, bitmask)
    }

    /// [`check`], with the hand-over `h` checked as [`run`] takes it (the outcome compared with [`run`]'s when `h`
    /// is what [`run`] uses for `limit`).
    fn check_handing_over(p: &Grid, limit: u64, h: Handover) -> Went {
        let policy = handover(limit) == h;
        let (found, auto, bitmask) = check_engines(p, limit);
        let (tried, handed) = engine::run_or_hand_over(p, limit, None, h);
        let Some(settled) = handed else {
            if policy {
                assert_eq!(
                    (auto.first, auto.stats.guesses),
                    (bitmask.first, bitmask.stats.guesses),
                    "{p}"
                );
            }
            return Went::Kept;
        };
        // The grid handed over is the one where propagation first stalled, before any guess (as given up there,
        // whatever its open cells), on either signal: the puzzle's givens and more, with the same count.
        let at_root = Handover {
            open: 0,
            guesses: 0,
        };
        assert_eq!(
            engine::run_or_hand_over(p, limit, None, at_root).1,
            Some(settled),
            "{p}"
        );
        for cell in (0..81).filter(|&cell| p.get(cell) != 0) {
            assert_eq!(settled.get(cell), p.get(cell), "{p}");
        }
        let mut s = reference::Search::new(limit);
        s.run(&settled);
        assert_eq!(s.found, found, "{p}");
        // The vector engine searches that grid with the whole limit: the bitmask engine's solutions are dropped.
        let handed_on = vector::run(&settled, limit, None);
        assert_eq!(handed_on.found, found, "{p}");
        if policy {
            assert_eq!(
                (auto.solutions, auto.first, auto.stats.guesses),
                (
                    handed_on.found,
                    handed_on.first,
                    handed_on.stats.guesses + tried.stats.guesses
                ),
                "{p}"
            );
        }
        if tried.stats.guesses == 0 {
            Went::Open
        } else {
            assert!(tried.stats.guesses > h.guesses, "{p}");
            if tried.found > 0 {
                Went::GuessesAfterSolutions
            } else {
                Went::Guesses
            }
        }
    }

    /// A hand-over deep in the tree too (no search uses it: see the module's comment), so that it stays checked.
    const DEEP: Handover = Handover {
        open: OPEN,
        guesses: 16,
    };

    /// Tallies how the puzzles went: kept, given up for open cells, given up for guesses.
    fn tally(seen: &mut [u32; 4], went: Went) {
        seen[went as usize] += 1;
    }

    /// Checks `p` up to [`MANY`] solutions as this processor's policy takes it, and once more through the hand-over
    /// at the first stall where the policy does not take that, so that the hand-over is checked on every processor.
    fn check_many(seen: &mut [u32; 4], p: &Grid) {
        tally(seen, check(p, MANY));
        if handover(MANY) != AT_OPEN {
            tally(seen, check_handing_over(p, MANY, AT_OPEN));
        }
    }

    #[test]
    fn the_shipped_sets_get_the_same_answers_on_either_path() {
        let mut seen = [0u32; 4];
        for text in [
            include_str!("../../data/puzzles.txt"),
            include_str!("../../data/no_solution.txt"),
            include_str!("../../data/several_solutions.txt"),
            include_str!("../../data/se_sample.txt"),
            include_str!("../../data/se_sample_hard.txt"),
            include_str!("../../data/pattern_first.txt"),
        ] {
            for p in data(text) {
                tally(&mut seen, check(&p, 2));
                check_many(&mut seen, &p);
                tally(&mut seen, check_handing_over(&p, 2, DEEP));
                tally(&mut seen, check_handing_over(&p, 5, DEEP));
            }
        }
        // Every path taken, or the test checks less than it says.
        assert!(seen.iter().all(|&n| n >= 10), "{seen:?}");
    }

    /// Only a search for many solutions goes to the vector engine, and only where its AVX-512 copy runs: its AVX2
    /// and portable copies count more slowly than the bitmask engine.
    #[test]
    fn only_many_solutions_on_the_avx512_copy_are_handed_over() {
        for limit in [1, 2, MANY - 1] {
            assert!(handover(limit) == Handover::NEVER, "{limit}");
        }
        for limit in [MANY, u64::MAX] {
            let expected = if vector::has_avx512_copy() {
                AT_OPEN
            } else {
                Handover::NEVER
            };
            assert!(handover(limit) == expected, "{limit}");
        }
    }

    #[test]
    fn the_sample_puzzles_keep_their_known_solutions() {
        let puzzles = data(include_str!("../../data/puzzles.txt"));
        let solutions = data(include_str!("../../data/puzzles.solutions.txt"));
        assert_eq!(puzzles.len(), solutions.len());
        for (p, s) in puzzles.iter().zip(&solutions) {
            assert_eq!(solve_unique(p).unwrap().solution, *s, "{p}");
            let c = count_solutions(p, 3).unwrap();
            assert_eq!((c.solutions, c.first), (1, Some(*s)), "{p}");
        }
    }

    #[test]
    fn random_puzzles_get_the_same_answers_on_either_path() {
        // A solution's cells kept at random (many solutions to one), and random consistent givens (mostly none).
        let solutions = data(include_str!("../../data/puzzles.solutions.txt"));
        let mut draw = below(0x6A09_E667_F3BC_C908);
        let mut next = |n: usize| draw(n as u64) as usize;
        let mut seen = [0u32; 4];
        let mut counts = [0u32; 3];
        for round in 0..1200 {
            let mut p = Grid::EMPTY;
            if round % 2 == 0 {
                let sol = solutions[next(solutions.len())];
                for _ in 0..20 + next(41) {
                    let cell = next(81);
                    p.set(cell, sol.get(cell));
                }
            } else {
                for _ in 0..8 + next(22) {
                    let (cell, d) = (next(81), 1 + next(9) as u8);
                    let mut q = p;
                    q.set(cell, d);
                    if q.check_givens().is_ok() {
                        p = q;
                    }
                }
            }
            tally(&mut seen, check(&p, 3));
            check_many(&mut seen, &p);
            counts[count_solutions(&p, 3).unwrap().solutions.min(2) as usize] += 1;
        }
        // Random puzzles are easy or open: few guesses (the shipped sets take the third path).
        assert!(seen[0] >= 50 && seen[1] >= 50, "{seen:?}");
        assert!(counts.iter().all(|&n| n >= 20), "{counts:?}");
    }

    #[test]
    fn clashing_givens_are_refused_on_either_path() {
        // Few givens (given up at the first guess, if a guess came) and many (kept), each with a clash.
        for text in [
            "11...............................................................................",
            "1........1.......................................................................",
            "123456789",
        ] {
            let mut p = g(&format!("{text:.<81}"));
            if text.len() == 9 {
                // A full row, and its first digit again at the foot of its column.
                p.set(72, 1);
            }
            assert!(matches!(
                solve_unique(&p),
                Err(SolveError::InvalidGivens(_))
            ));
            assert!(count_solutions(&p, 2).is_err());
        }
    }
}
