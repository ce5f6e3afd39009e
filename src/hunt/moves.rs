//! The moves of a neighbourhood search (`-1+1`, `-2+2`, `+1`, `-1`, ...): their text, the removal sets of a
//! parent puzzle, and the puzzles one removal set gives: those clues gone, `add` clues put on cells the parent
//! leaves blank, keeping exactly one solution (and, when asked, minimal: no clue can go).

use std::fmt;
use std::str::FromStr;

use crate::grid::rng::SplitMix64;
use crate::grid::{Grid, CELLS};
use crate::solver;

/// The most clues a move removes, and the most it adds.
pub const MOVE_MAX: u8 = 2;

/// A move: remove `remove` clues of the parent, then add `add` clues on cells the parent leaves blank. Written
/// `-R+A` (`-1+1`, `-2+2`), `+A` or `-R`; each count from 1 to [`MOVE_MAX`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    remove: u8,
    add: u8,
}

impl Move {
    /// The forum's `{-1+1}`: one clue removed, one added.
    pub const MINUS1_PLUS1: Move = Move { remove: 1, add: 1 };

    /// The move that removes `remove` clues and adds `add`, or why it is not one.
    pub fn new(remove: u8, add: u8) -> Result<Move, MoveError> {
        if remove > MOVE_MAX || add > MOVE_MAX {
            return Err(MoveError::TooLarge { remove, add });
        }
        if remove == 0 && add == 0 {
            return Err(MoveError::Empty);
        }
        Ok(Move { remove, add })
    }

    /// Clues removed.
    pub fn remove(self) -> u8 {
        self.remove
    }

    /// Clues added.
    pub fn add(self) -> u8 {
        self.add
    }
}

impl fmt::Display for Move {
    /// `-1+1`, `+1`, `-2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.remove > 0 {
            write!(f, "-{}", self.remove)?;
        }
        if self.add > 0 {
            write!(f, "+{}", self.add)?;
        }
        Ok(())
    }
}

impl FromStr for Move {
    type Err = MoveError;

    /// `-R+A`, `-R` or `+A` with one-digit counts.
    fn from_str(s: &str) -> Result<Move, MoveError> {
        let malformed = || MoveError::Malformed(s.to_string());
        let b = s.as_bytes();
        let count = |sign: u8, at: usize| match (b.get(at), b.get(at + 1)) {
            (Some(&c), Some(&d)) if c == sign && d.is_ascii_digit() => Some(d - b'0'),
            _ => None,
        };
        let remove = count(b'-', 0);
        let at = if remove.is_some() { 2 } else { 0 };
        let add = count(b'+', at);
        let end = at + if add.is_some() { 2 } else { 0 };
        if end != b.len() || end == 0 {
            return Err(malformed());
        }
        Move::new(remove.unwrap_or(0), add.unwrap_or(0))
    }
}

/// Why a move's text is not one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum MoveError {
    /// Not `-R+A`, `-R` or `+A`.
    #[error("expected a move like -1+1, -2+2, +1 or -1, not {0:?}")]
    Malformed(String),
    /// A count above [`MOVE_MAX`].
    #[error(
        "-{remove}+{add} moves too many clues: a move removes and adds at most {MOVE_MAX} each"
    )]
    TooLarge {
        /// Clues to remove.
        remove: u8,
        /// Clues to add.
        add: u8,
    },
    /// `-0+0`.
    #[error("a move removes or adds at least one clue")]
    Empty,
}

/// At most [`MOVE_MAX`] cells, the clues one step of a move takes away.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Removal {
    cells: [u8; MOVE_MAX as usize],
    len: u8,
}

impl Removal {
    /// The cells.
    pub(crate) fn cells(&self) -> &[u8] {
        &self.cells[..usize::from(self.len)]
    }
}

/// Every set of `k` clues of `parent` (one empty set when `k` is 0), in an order drawn from `rng`.
pub(crate) fn removals(parent: &Grid, k: u8, rng: &mut SplitMix64) -> Vec<Removal> {
    let clues: Vec<u8> = (0..CELLS as u8)
        .filter(|&c| parent.get(usize::from(c)) != 0)
        .collect();
    let mut out = Vec::new();
    let mut push = |cells: &[u8]| {
        let mut r = Removal {
            cells: [0; MOVE_MAX as usize],
            len: cells.len() as u8,
        };
        r.cells[..cells.len()].copy_from_slice(cells);
        out.push(r);
    };
    match k {
        0 => push(&[]),
        1 => clues.iter().for_each(|&a| push(&[a])),
        _ => {
            for (i, &a) in clues.iter().enumerate() {
                for &b in &clues[i + 1..] {
                    push(&[a, b]);
                }
            }
        }
    }
    for i in (1..out.len()).rev() {
        let j = rng.below(i as u32 + 1) as usize;
        out.swap(i, j);
    }
    out
}

/// What making the candidates of removal sets met, counted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Made {
    /// Candidates whose solutions were counted.
    pub tried: u64,
    /// Candidates kept: one solution (and minimal when asked).
    pub kept: u64,
}

/// One clue to add: a cell the parent leaves blank and a digit no remaining clue rules out there.
#[derive(Debug, Clone, Copy)]
struct Placement {
    cell: u8,
    digit: u8,
    /// The remaining clues with this one alone have exactly one solution.
    alone_unique: bool,
}

/// The digits (bit `d`) the clues of `g` leave possible at each cell.
fn free_digits(g: &Grid) -> [u16; CELLS] {
    let (mut rows, mut cols, mut boxes) = ([0u16; 9], [0u16; 9], [0u16; 9]);
    for (cell, &d) in g.cells().iter().enumerate() {
        if d != 0 {
            let (r, c) = (cell / 9, cell % 9);
            rows[r] |= 1 << d;
            cols[c] |= 1 << d;
            boxes[r / 3 * 3 + c / 3] |= 1 << d;
        }
    }
    let mut out = [0u16; CELLS];
    for (cell, free) in out.iter_mut().enumerate() {
        let (r, c) = (cell / 9, cell % 9);
        *free = 0x3FE & !(rows[r] | cols[c] | boxes[r / 3 * 3 + c / 3]);
    }
    out
}

/// The number of solutions of `g`, counted up to 2.
fn solutions(g: &Grid) -> u64 {
    solver::count_solutions(g, 2).map_or(0, |c| c.solutions)
}

/// True when no clue of `g` (a puzzle with one solution) can go without a second solution.
pub(crate) fn is_minimal(g: &Grid) -> bool {
    (0..CELLS).filter(|&c| g.get(c) != 0).all(|c| {
        let mut fewer = *g;
        fewer.set(c, 0);
        solutions(&fewer) >= 2
    })
}

/// The puzzles `parent` gives by removing the clues of `removal` and adding `add` clues (at most [`MOVE_MAX`]) on
/// cells `parent` leaves blank, each with exactly one solution and, when `minimal`, no clue that can go; in a
/// fixed order (cells, then digits). The counts go to `made`.
///
/// Cost: with one clue to add, one solution count (up to 2) per cell and digit the remaining clues allow; with
/// two, that first, then one per pair of the placements whose puzzle still has solutions; a minimality check
/// costs one count per clue of a puzzle kept.
pub(crate) fn neighbours(
    parent: &Grid,
    removal: &Removal,
    add: u8,
    minimal: bool,
    made: &mut Made,
) -> Vec<Grid> {
    let mut base = *parent;
    for &c in removal.cells() {
        base.set(usize::from(c), 0);
    }
    let mut out = Vec::new();
    let keep = |g: Grid, made: &mut Made, out: &mut Vec<Grid>| {
        if !minimal || is_minimal(&g) {
            made.kept += 1;
            out.push(g);
        }
    };
    if add == 0 {
        made.tried += 1;
        if solutions(&base) == 1 {
            keep(base, made, &mut out);
        }
        return out;
    }
    let free = free_digits(&base);
    // The single placements that leave the puzzle some solution (with one to add: that have exactly one).
    let mut singles = Vec::new();
    for cell in (0..CELLS).filter(|&c| parent.get(c) == 0) {
        for digit in (1..=9u8).filter(|&d| free[cell] & 1 << d != 0) {
            let mut g = base;
            g.set(cell, digit);
            made.tried += 1;
            let n = solutions(&g);
            if add == 1 {
                if n == 1 {
                    keep(g, made, &mut out);
                }
            } else if n >= 1 {
                singles.push(Placement {
                    cell: cell as u8,
                    digit,
                    alone_unique: n == 1,
                });
            }
        }
    }
    if add == 1 {
        return out;
    }
    for (i, a) in singles.iter().enumerate() {
        // With a placement that pins the solution alone, the other added clue could go: never minimal.
        if minimal && a.alone_unique {
            continue;
        }
        let mut with_a = base;
        with_a.set(usize::from(a.cell), a.digit);
        let free = free_digits(&with_a);
        for b in &singles[i + 1..] {
            if b.cell == a.cell
                || free[usize::from(b.cell)] & 1 << b.digit == 0
                || (minimal && b.alone_unique)
            {
                continue;
            }
            let mut g = with_a;
            g.set(usize::from(b.cell), b.digit);
            made.tried += 1;
            if solutions(&g) == 1 {
                keep(g, made, &mut out);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    /// A forum-hardest puzzle (ER 11+), minimal, 21 clues.
    const HARDEST: &str =
        "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6";

    fn g(s: &str) -> Grid {
        s.parse().unwrap()
    }

    #[test]
    fn moves_are_read_written_and_bad_ones_refused() {
        for (s, r, a) in [("-1+1", 1, 1), ("-2+2", 2, 2), ("+1", 0, 1), ("-1", 1, 0)] {
            let m: Move = s.parse().unwrap();
            assert_eq!((m.remove(), m.add()), (r, a), "{s}");
            assert_eq!(m.to_string(), s);
        }
        assert_eq!("-1+2".parse::<Move>().unwrap(), Move::new(1, 2).unwrap());
        for bad in [
            "", "1", "+", "-", "-1+", "+1-1", "-1 +1", "--1", "-12", "-a+1",
        ] {
            assert_eq!(
                bad.parse::<Move>(),
                Err(MoveError::Malformed(bad.into())),
                "{bad:?}"
            );
        }
        assert_eq!(
            "-3+1".parse::<Move>(),
            Err(MoveError::TooLarge { remove: 3, add: 1 })
        );
        assert_eq!("-0+0".parse::<Move>(), Err(MoveError::Empty));
    }

    #[test]
    fn removal_sets_are_every_set_of_clues_once() {
        let p = g(HARDEST);
        let n = p.clue_count();
        let mut rng = SplitMix64::new(7);
        for (k, want) in [(0u8, 1), (1, n), (2, n * (n - 1) / 2)] {
            let sets = removals(&p, k, &mut rng);
            assert_eq!(sets.len(), want);
            let distinct: HashSet<Vec<u8>> = sets
                .iter()
                .map(|r| {
                    let mut v = r.cells().to_vec();
                    v.sort();
                    v
                })
                .collect();
            assert_eq!(distinct.len(), want);
            for r in &sets {
                assert_eq!(r.cells().len(), usize::from(k));
                assert!(r.cells().iter().all(|&c| p.get(usize::from(c)) != 0));
            }
        }
    }

    /// The cells where `child` has a clue `parent` lacks, and those where `parent` has one `child` lacks; panics
    /// when a cell holds a clue in both with different digits.
    fn difference(parent: &Grid, child: &Grid) -> (Vec<usize>, Vec<usize>) {
        let (mut added, mut removed) = (Vec::new(), Vec::new());
        for c in 0..CELLS {
            match (parent.get(c), child.get(c)) {
                (0, 0) => {}
                (0, _) => added.push(c),
                (_, 0) => removed.push(c),
                (a, b) => assert_eq!(a, b, "cell {c} changed digit"),
            }
        }
        (added, removed)
    }

    fn check_move(parent: &Grid, removal: &Removal, add: u8, minimal: bool) -> Vec<Grid> {
        let mut made = Made::default();
        let out = neighbours(parent, removal, add, minimal, &mut made);
        assert_eq!(made.kept, out.len() as u64);
        assert!(made.tried >= made.kept);
        for child in &out {
            let (added, removed) = difference(parent, child);
            assert_eq!(added.len(), usize::from(add), "{child}");
            let mut want: Vec<usize> = removal.cells().iter().map(|&c| usize::from(c)).collect();
            want.sort();
            assert_eq!(removed, want, "{child}");
            assert_eq!(solver::count_solutions(child, 2).unwrap().solutions, 1);
            if minimal {
                assert!(is_minimal(child), "{child}");
            }
        }
        out
    }

    #[test]
    fn every_candidate_differs_from_its_parent_by_exactly_the_move() {
        let p = g(HARDEST);
        let mut rng = SplitMix64::new(1);
        let mut kept = 0;
        for r in removals(&p, 1, &mut rng) {
            kept += check_move(&p, &r, 1, true).len();
        }
        assert!(kept > 0, "no {{-1+1}} neighbour of the seed");
        for r in removals(&p, 2, &mut rng).into_iter().take(3) {
            check_move(&p, &r, 2, true);
        }
        // {+1}: the solution's digit on any blank cell, never minimal; {-1} of a minimal puzzle: nothing.
        let empty = Removal {
            cells: [0; 2],
            len: 0,
        };
        let plus = check_move(&p, &empty, 1, false);
        assert_eq!(plus.len(), CELLS - p.clue_count());
        assert!(check_move(&p, &empty, 1, true).is_empty());
        for r in removals(&p, 1, &mut rng) {
            assert!(check_move(&p, &r, 0, false).is_empty());
        }
    }

    /// Every {-1+1} and {-1+2} puzzle of one removal set, found by trying every cell and digit (and pair of them):
    /// the same set as [`neighbours`] gives.
    #[test]
    fn the_candidates_are_all_the_unique_puzzles_the_move_makes() {
        let p = g(HARDEST);
        let mut rng = SplitMix64::new(3);
        let r = removals(&p, 1, &mut rng)[0];
        let mut base = p;
        base.set(usize::from(r.cells()[0]), 0);
        let blanks: Vec<usize> = (0..CELLS).filter(|&c| p.get(c) == 0).collect();
        let unique = |g: &Grid| g.check_givens().is_ok() && solutions(g) == 1;
        for minimal in [true, false] {
            let mut want = HashSet::new();
            for &c in &blanks {
                for d in 1..=9 {
                    let mut q = base;
                    q.set(c, d);
                    if unique(&q) && (!minimal || is_minimal(&q)) {
                        want.insert(q);
                    }
                }
            }
            let got: HashSet<Grid> = check_move(&p, &r, 1, minimal).into_iter().collect();
            assert_eq!(got, want, "minimal {minimal}");
        }
        let mut want = HashSet::new();
        for (i, &c) in blanks.iter().enumerate() {
            for &e in &blanks[i + 1..] {
                for d in 1..=9 {
                    let mut q = base;
                    q.set(c, d);
                    if q.check_givens().is_err() || solutions(&q) == 0 {
                        continue;
                    }
                    for f in 1..=9 {
                        let mut q2 = q;
                        q2.set(e, f);
                        if unique(&q2) && is_minimal(&q2) {
                            want.insert(q2);
                        }
                    }
                }
            }
        }
        let got: HashSet<Grid> = check_move(&p, &r, 2, true).into_iter().collect();
        assert_eq!(got, want, "-1+2");
    }
}
