//! The vector engine against the reference search and the bitmask engine: solutions checked against the rules
//! and the givens, counts equal, clashing givens refused before any guess.

use super::*;
use crate::grid::samples::{below, g, HARD, HARD_SOLUTION};
use crate::solver::{
    count_solutions_with, reference, solve_unique_with, solve_with, Engine, SolveError,
};

const V: Engine = Engine::Vector;

/// Solutions counted by the reference search, up to `limit`.
fn reference_count(p: &Grid, limit: u64) -> u64 {
    let mut r = reference::Search::new(limit);
    r.run(p);
    r.found
}

use crate::solver::sample_puzzles as data;

/// Checks one puzzle on the vector engine against the reference (counts up to `limit`) and the bitmask engine
/// (the same count; the same solution when there is exactly one). Returns the count.
fn check(p: &Grid, limit: u64) -> u64 {
    let want = reference_count(p, limit);
    let c = count_solutions_with(p, limit, V).unwrap();
    assert_eq!(c.solutions, want, "{p}");
    assert_eq!(c.hit_limit, want >= limit);
    assert_eq!(c.first.is_some(), want > 0);
    if let Some(first) = c.first {
        assert!(first.is_solution_of(p), "{p}");
    }
    let b = count_solutions_with(p, limit, Engine::Bitmask).unwrap();
    assert_eq!(b.solutions, c.solutions, "{p}");
    match solve_with(p, V) {
        Ok(s) => assert!(s.solution.is_solution_of(p) && want >= 1, "{p}"),
        Err(e) => assert_eq!((e, want), (SolveError::NoSolution, 0), "{p}"),
    }
    match solve_unique_with(p, V) {
        Ok(s) => {
            assert_eq!(want.min(2), 1, "{p}");
            assert_eq!(Some(s.solution), b.first, "{p}");
        }
        Err(SolveError::MultipleSolutions { first }) => {
            assert!(want >= 2 && first.is_solution_of(p), "{p}")
        }
        Err(e) => assert_eq!((e, want), (SolveError::NoSolution, 0), "{p}"),
    }
    c.solutions
}

#[test]
fn every_sample_puzzle_gets_its_known_solution() {
    let puzzles = data(include_str!("../../../data/puzzles.txt"));
    let solutions = data(include_str!("../../../data/puzzles.solutions.txt"));
    assert_eq!(puzzles.len(), solutions.len());
    for (p, s) in puzzles.iter().zip(&solutions) {
        assert_eq!(solve_with(p, V).unwrap().solution, *s, "{p}");
        assert_eq!(solve_unique_with(p, V).unwrap().solution, *s, "{p}");
        assert_eq!(check(p, 3), 1);
    }
    assert_eq!(solve_with(&g(HARD), V).unwrap().solution, g(HARD_SOLUTION));
}

#[test]
fn the_shipped_sets_count_as_the_reference_counts() {
    let mut seen = [0u32; 3];
    for text in [
        include_str!("../../../data/no_solution.txt"),
        include_str!("../../../data/several_solutions.txt"),
        include_str!("../../../data/se_sample.txt"),
        include_str!("../../../data/se_sample_hard.txt"),
        include_str!("../../../data/pattern_first.txt"),
    ] {
        for p in data(text) {
            seen[check(&p, 4).min(2) as usize] += 1;
        }
    }
    assert!(seen.iter().all(|&n| n >= 20), "{seen:?}");
}

#[test]
fn the_empty_and_the_full_board() {
    let c = count_solutions_with(&Grid::EMPTY, 1000, V).unwrap();
    assert_eq!((c.solutions, c.hit_limit), (1000, true));
    assert!(c.first.unwrap().is_valid_solution());
    let full = g(HARD_SOLUTION);
    let s = solve_unique_with(&full, V).unwrap();
    assert_eq!((s.solution, s.stats.guesses), (full, 0));
}

#[test]
fn counts_match_the_reference_on_puzzles_with_clues_removed() {
    let solutions = data(include_str!("../../../data/puzzles.solutions.txt"));
    let mut draw = below(0x9E37_79B9_7F4A_7C15);
    let mut next = |n: usize| draw(n as u64) as usize;
    let mut seen = [0u32; 3];
    for sol in solutions.iter().cycle().take(400) {
        // Keep 20..=60 random draws of a solution's cells: anything from many solutions to a unique one.
        let mut p = Grid::EMPTY;
        for _ in 0..20 + next(41) {
            let cell = next(81);
            p.set(cell, sol.get(cell));
        }
        seen[check(&p, 30).min(2) as usize] += 1;
    }
    assert!(seen[1] > 20 && seen[2] > 20, "{seen:?}");
}

#[test]
fn counts_match_the_reference_on_random_givens() {
    // Random consistent givens: mostly no solution, sometimes several. Exercises the dead ends.
    let mut draw = below(0xD1B5_4A32_D192_ED03);
    let mut next = |n: usize| draw(n as u64) as usize;
    let mut seen = [0u32; 3];
    for _ in 0..1500 {
        let mut p = Grid::EMPTY;
        let want = 8 + next(22);
        let mut placed = 0;
        while placed < want {
            let (cell, d) = (next(81), 1 + next(9) as u8);
            let mut q = p;
            q.set(cell, d);
            if p.get(cell) == 0 && q.check_givens().is_ok() {
                p = q;
                placed += 1;
            }
        }
        seen[check(&p, 3).min(2) as usize] += 1;
    }
    assert!(seen[0] > 100 && seen[2] > 100, "{seen:?}");
}

/// What `solver::search` relies on: the engine never guesses on clashing givens, and never finds a solution.
#[test]
fn clashing_givens_fail_before_any_guess() {
    let mut draw = below(0x853C_49E6_748F_EA9B);
    let mut next = |n: u64| draw(n) as usize;
    let solutions = data(include_str!("../../../data/puzzles.solutions.txt"));
    let mut clashes = 0;
    for round in 0..30_000 {
        // Random givens, or a solution's cells with random digits written over some of them.
        let mut p = if round % 2 == 0 {
            Grid::EMPTY
        } else {
            let sol = solutions[next(solutions.len() as u64)];
            let mut p = Grid::EMPTY;
            for _ in 0..next(81) {
                let cell = next(81);
                p.set(cell, sol.get(cell));
            }
            p
        };
        for _ in 0..1 + round % 30 {
            p.set(next(81), 1 + next(9) as u8);
        }
        if p.check_givens().is_err() {
            clashes += 1;
            let out = run(&p, 2, None);
            assert_eq!((out.found, out.stats.guesses), (0, 0), "{p}");
            assert!(matches!(
                solve_with(&p, V),
                Err(SolveError::InvalidGivens(_))
            ));
        }
    }
    assert!(clashes > 10_000, "{clashes}");
}

/// The x86-64-v3 copy of the engine and the portable one agree (solution, count and guesses). Skipped on a
/// processor without the features, where only the portable copy runs (and every other test runs it).
#[cfg(target_arch = "x86_64")]
#[test]
fn the_portable_and_the_x86_64_v3_copies_agree() {
    if !crate::solver::processor::has_v3() {
        return;
    }
    crate::solver::assert_copies_agree(|p, limit| {
        // SAFETY: `has_v3` found the features `run_v3` is compiled for.
        (run_portable(p, limit, None), unsafe {
            run_v3(p, limit, None)
        })
    });
}

/// The AVX-512 copy of the engine and the portable one agree (solution, count and guesses). Skipped, saying so, on
/// a processor without the features.
#[cfg(all(target_arch = "x86_64", vector_avx512))]
#[test]
fn the_portable_and_the_avx512_copies_agree() {
    if !avx512::has_v4() {
        eprintln!("SKIPPED: no AVX-512F/BW/VL/BITALG on this processor");
        return;
    }
    crate::solver::assert_copies_agree(|p, limit| {
        // SAFETY: `has_v4` found the features `run_v4` is compiled for.
        (run_portable(p, limit, None), unsafe {
            run_v4(p, limit, None)
        })
    });
}

/// Every lane operation of `I` on `a` and `b`, shuffles with every pick of the layout, one after the other.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn every_op<I: lanes::Isa>(a: [u16; 16], b: [u16; 16]) -> Vec<u16> {
    use layout::{ALLOW, CELLS_BY, COLS_BY, IN_BOX, NEXT, ROWS_BY, TO_BANDS, TRIADS};
    let (a8, b8): ([u16; 8], [u16; 8]) = (
        std::array::from_fn(|l| a[l]),
        std::array::from_fn(|l| b[l + 8]),
    );
    let mut out = Vec::new();
    for x in [
        I::and16(a, b),
        I::or16(a, b),
        I::xor16(a, b),
        I::and_not16(a, b),
        I::counts16(a),
    ] {
        out.extend(x);
    }
    for x in [I::equal16(a, b), I::equal16(a, a), I::nonzero16(a)] {
        out.extend(x);
    }
    out.extend([I::intersects16(a, b), I::below16(a, b), I::below16(b, a)].map(u16::from));
    for x in [I::and8(a8, b8), I::or8(a8, b8), I::and_not8(a8, b8)] {
        out.extend(x);
    }
    out.extend([
        u16::from(I::intersects8(a8, b8)),
        I::count_all8(a8) as u16,
        I::first_nonzero8(a8) as u16,
    ]);
    let by = ROWS_BY
        .iter()
        .chain(&COLS_BY)
        .chain(&CELLS_BY)
        .chain(&NEXT)
        .chain(&IN_BOX);
    let allow = ALLOW.iter().flatten().flatten();
    for p in by.chain(&TO_BANDS).chain(allow).chain(&TRIADS) {
        out.extend(I::pick16(a, p));
        out.extend(I::pick8(a, p));
        out.extend(I::pick_any(a, p));
    }
    for p in &TRIADS {
        out.extend(I::spread8(a8, p));
    }
    out
}

/// Every lane operation gives the portable copy's result on every instruction set this processor has, on random
/// lanes of nine bits (a quarter of them empty), with every shuffle of the layout.
#[cfg(target_arch = "x86_64")]
#[test]
fn every_lane_operation_agrees_across_instruction_sets() {
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
    fn v3(a: [u16; 16], b: [u16; 16]) -> Vec<u16> {
        every_op::<avx2::Avx2>(a, b)
    }
    #[cfg(all(target_arch = "x86_64", vector_avx512))]
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt,avx512f,avx512bw,avx512vl,avx512bitalg")]
    fn v4(a: [u16; 16], b: [u16; 16]) -> Vec<u16> {
        every_op::<avx512::Avx512>(a, b)
    }
    let mut draw = below(0x6A09_E667_F3BC_C908);
    let mut lane = || if draw(4) == 0 { 0 } else { draw(512) as u16 };
    for round in 0..3000 {
        let a: [u16; 16] = std::array::from_fn(|_| lane());
        // Every fourth round `b` shares lanes with `a`, so that equal lanes occur.
        let b: [u16; 16] = std::array::from_fn(|l| {
            if round % 4 == 0 && l % 2 == 0 {
                a[l]
            } else {
                lane()
            }
        });
        let want = every_op::<Portable>(a, b);
        if crate::solver::processor::has_v3() {
            // SAFETY: `has_v3` found the features `v3` is compiled for.
            assert_eq!(unsafe { v3(a, b) }, want, "{a:?} {b:?}");
        }
        #[cfg(all(target_arch = "x86_64", vector_avx512))]
        if avx512::has_v4() {
            // SAFETY: `has_v4` found the features `v4` is compiled for.
            assert_eq!(unsafe { v4(a, b) }, want, "{a:?} {b:?}");
        }
    }
}

/// The first nonzero lane (a guess's first remaining pattern), on every set of nonzero lanes: the position, 8 for
/// none, and the x86-64-v3 copy the same.
#[test]
fn the_first_nonzero_lane_is_found_on_both_instruction_sets() {
    use lanes::Isa;
    /// [`Isa::first_nonzero8`] of the AVX2 lanes, in a function compiled with their features.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
    fn first_v3(a: [u16; 8]) -> usize {
        avx2::Avx2::first_nonzero8(a)
    }
    /// The same of the AVX-512 lanes.
    #[cfg(all(target_arch = "x86_64", vector_avx512))]
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt,avx512f,avx512bw,avx512vl,avx512bitalg")]
    fn first_v4(a: [u16; 8]) -> usize {
        avx512::Avx512::first_nonzero8(a)
    }
    for m in 0u32..256 {
        let a: [u16; 8] = std::array::from_fn(|l| {
            if m >> l & 1 == 1 {
                1 << ((l + m as usize) % 9)
            } else {
                0
            }
        });
        let want = if m == 0 {
            8
        } else {
            m.trailing_zeros() as usize
        };
        assert_eq!(Portable::first_nonzero8(a), want, "{a:?}");
        #[cfg(target_arch = "x86_64")]
        if crate::solver::processor::has_v3() {
            // SAFETY: `has_v3` found the features `first_v3` is compiled for.
            assert_eq!(unsafe { first_v3(a) }, want, "{a:?}");
        }
        #[cfg(all(target_arch = "x86_64", vector_avx512))]
        if avx512::has_v4() {
            // SAFETY: `has_v4` found the features `first_v4` is compiled for.
            assert_eq!(unsafe { first_v4(a) }, want, "{a:?}");
        }
    }
}
