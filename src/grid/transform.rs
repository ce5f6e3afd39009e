//! [`Transform`]: one validity-preserving transformation of a board, an element of its symmetry group (the
//! transposition, row and column orders that keep bands and stacks together, a digit relabelling). The one type for
//! it in the crate: the pattern generator enumerates these, the dataset tools shuffle and canonicalize with them.
//! Also here: building one from its parts, applying it, and drawing one uniformly at random from a seed and a
//! record index ([`Transform::random`]).

use super::rng::SplitMix64;
use super::{Grid, CELLS, PERMUTATIONS_OF_3 as PERM3};

/// Keeps shuffle streams apart from the generator's streams made from the same seed.
const SHUFFLE_SALT: u64 = 0x7368_7566_666c_6521;

/// A uniformly random line order that keeps bands together: a band order and an order inside each band.
fn random_lines(rng: &mut SplitMix64) -> [u8; 9] {
    let bands = PERM3[rng.below(6) as usize];
    let mut out = [0u8; 9];
    for (b, &band) in bands.iter().enumerate() {
        let inner = PERM3[rng.below(6) as usize];
        for q in 0..3 {
            out[3 * b + q] = 3 * band + inner[q];
        }
    }
    out
}

/// A validity-preserving transformation of a board, one element of its symmetry group (the transposition, row and
/// column orders that keep bands and stacks together, a digit relabelling): cell `(r, c)` of the result is `digits[d]`, where `d` is the record's
/// cell `(rows[r], cols[c])` (of the transposed record when `transpose`); blanks stay blank.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Transform {
    pub(crate) transpose: bool,
    pub(crate) rows: [u8; 9],
    pub(crate) cols: [u8; 9],
    pub(crate) digits: [u8; 10],
}

/// True when `order` is a permutation of `0..9` that keeps the three lines of each band (or stack) together.
fn keeps_bands(order: &[u8; 9]) -> bool {
    let mut seen = 0u16;
    for (i, &x) in order.iter().enumerate() {
        if x >= 9 || seen >> x & 1 != 0 || x / 3 != order[i - i % 3] / 3 {
            return false;
        }
        seen |= 1 << x;
    }
    true
}

impl Transform {
    /// The identity.
    pub(crate) const IDENTITY: Transform = Transform {
        transpose: false,
        rows: [0, 1, 2, 3, 4, 5, 6, 7, 8],
        cols: [0, 1, 2, 3, 4, 5, 6, 7, 8],
        digits: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    };

    /// A transform from its parts: `rows[r]` and `cols[c]` are the source line of target line `r` and `c`
    /// (0-based), `digits[d]` the new digit of digit `d` (`digits[0]` must be 0). `None` unless the line orders
    /// keep bands and stacks together and `digits` is a relabelling.
    pub(crate) fn from_parts(
        transpose: bool,
        rows: [u8; 9],
        cols: [u8; 9],
        digits: [u8; 10],
    ) -> Option<Transform> {
        let mut seen = 0u16;
        for &d in &digits[1..] {
            if !(1..=9).contains(&d) || seen >> d & 1 != 0 {
                return None;
            }
            seen |= 1 << d;
        }
        (digits[0] == 0 && keeps_bands(&rows) && keeps_bands(&cols)).then_some(Transform {
            transpose,
            rows,
            cols,
            digits,
        })
    }

    /// The parts of the transform, as [`Transform::apply`] reads them: `(transpose, rows, cols, digits)`, where
    /// cell `(r, c)` of the result is `digits[d]` for `d` the record's cell `(rows[r], cols[c])` (of the
    /// transposed record when `transpose`), lines 0-based and `digits[0] == 0`.
    pub fn parts(&self) -> (bool, [u8; 9], [u8; 9], [u8; 10]) {
        (self.transpose, self.rows, self.cols, self.digits)
    }

    /// The transformed record. Allocation-free.
    pub fn apply(&self, grid: &Grid) -> Grid {
        let cells = grid.cells();
        let mut out = [0u8; CELLS];
        for (r, row) in out.chunks_exact_mut(9).enumerate() {
            let sr = usize::from(self.rows[r]);
            for (cell, &sc) in row.iter_mut().zip(self.cols.iter()) {
                let sc = usize::from(sc);
                let src = if self.transpose {
                    sc * 9 + sr
                } else {
                    sr * 9 + sc
                };
                *cell = self.digits[usize::from(cells[src])];
            }
        }
        Grid::from_cells(out).expect("digits stay 0..=9")
    }

    /// The transform of record `index` in a run with `seed`: uniform over the 2 · 6⁸ · 9! =
    /// 1,218,998,108,160 transforms, and a function of `(seed, index)` only.
    ///
    /// Each part is drawn independently and uniformly (the transposition; band order and three row-in-band
    /// orders; the same for columns; the relabelling by a Fisher-Yates shuffle), and distinct parts give distinct
    /// transforms, so the whole is uniform. Draws use `SplitMix64::below`, whose bias is below 2⁻⁵⁰.
    pub fn random(seed: u64, index: u64) -> Transform {
        Transform::random_copy(seed, index, 0)
    }

    /// The transform of copy `copy` of record `index` in a run with `seed` (`shuffle --copies`): uniform as
    /// [`Transform::random`], which is copy 0, and drawn from a stream of its own for each copy.
    pub(crate) fn random_copy(seed: u64, index: u64, copy: u32) -> Transform {
        let mut rng = SplitMix64::for_board(seed ^ SHUFFLE_SALT, index, copy);
        let transpose = rng.below(2) == 1;
        let rows = random_lines(&mut rng);
        let cols = random_lines(&mut rng);
        let mut digits = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
        for i in (2..10).rev() {
            let j = 1 + rng.below(i as u32) as usize;
            digits.swap(i, j);
        }
        Transform {
            transpose,
            rows,
            cols,
            digits,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::samples::{g, HARD};
    use crate::solver;

    #[test]
    fn random_transforms_are_valid_and_deterministic() {
        for i in 0..200 {
            let t = Transform::random(42, i);
            assert_eq!(t, Transform::random(42, i));
            assert_eq!(
                Transform::from_parts(t.transpose, t.rows, t.cols, t.digits),
                Some(t)
            );
        }
        assert_ne!(Transform::random(42, 0), Transform::random(43, 0));
        assert_ne!(Transform::random(42, 0), Transform::random(42, 1));
    }

    #[test]
    fn from_parts_rejects_orders_that_split_bands() {
        let id = Transform::IDENTITY;
        let split = [0, 1, 3, 2, 4, 5, 6, 7, 8];
        assert!(Transform::from_parts(false, split, id.cols, id.digits).is_none());
        assert!(Transform::from_parts(false, id.rows, split, id.digits).is_none());
        let bad_digits = [0, 1, 1, 3, 4, 5, 6, 7, 8, 9];
        assert!(Transform::from_parts(false, id.rows, id.cols, bad_digits).is_none());
        assert!(
            Transform::from_parts(true, [3, 5, 4, 0, 1, 2, 8, 6, 7], id.cols, id.digits).is_some()
        );
    }

    #[test]
    fn identity_and_transposition_apply_as_defined() {
        let p = g(HARD);
        assert_eq!(Transform::IDENTITY.apply(&p), p);
        let t = Transform::from_parts(
            true,
            Transform::IDENTITY.rows,
            Transform::IDENTITY.cols,
            Transform::IDENTITY.digits,
        )
        .unwrap();
        let q = t.apply(&p);
        for r in 0..9 {
            for c in 0..9 {
                assert_eq!(q.get(r * 9 + c), p.get(c * 9 + r));
            }
        }
    }

    #[test]
    fn shuffled_puzzle_has_the_mapped_solution_and_same_clues() {
        let p = g(HARD);
        let sol = solver::solve_unique(&p).unwrap().solution;
        for i in 0..50 {
            let t = Transform::random(7, i);
            let q = t.apply(&p);
            assert_eq!(q.clue_count(), p.clue_count());
            let qs = solver::solve_unique(&q)
                .expect("still exactly one solution")
                .solution;
            assert_eq!(qs, t.apply(&sol));
            assert!(qs.is_solution_of(&q));
        }
    }

    #[test]
    fn shuffle_keeps_solution_counts() {
        // Two solutions (a deadly pattern left open) and none (a contradiction not visible in the givens).
        let multi =
            g("2.6.3.....3.....4.5......2..7.9.1.....1.........4.7.8..8......1.9.....6.....2.5.4");
        let count = solver::count_solutions(&multi, 1000).unwrap().solutions;
        for i in 0..10 {
            let q = Transform::random(3, i).apply(&multi);
            assert_eq!(solver::count_solutions(&q, 1000).unwrap().solutions, count);
        }
    }

    #[test]
    fn draws_cover_every_part() {
        // Over many draws every row takes every source row, every digit every label, both orientations occur.
        let mut rows = [[false; 9]; 9];
        let mut digits = [[false; 10]; 10];
        let mut transposed = [false; 2];
        for i in 0..2000 {
            let t = Transform::random(1, i);
            transposed[usize::from(t.transpose)] = true;
            for r in 0..9 {
                rows[r][usize::from(t.rows[r])] = true;
            }
            for d in 1..10 {
                digits[d][usize::from(t.digits[d])] = true;
            }
        }
        assert_eq!(transposed, [true, true]);
        assert!(rows.iter().all(|r| r.iter().all(|&x| x)));
        assert!(digits[1..].iter().all(|d| d[1..].iter().all(|&x| x)));
    }
}
