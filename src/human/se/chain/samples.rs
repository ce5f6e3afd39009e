//! The tests' samples of the chain model: a reproducible random stream, the working grids built with it, and the
//! hard sample puzzles with their solutions.

use super::working::Working;
use crate::grid::Grid;
use crate::human::candidates::Candidates;
use crate::human::house::DigitSet;

/// Marsaglia's xorshift64 stream (shifts 13, 7, 17): the same numbers from the same seed, on every run.
pub(super) struct Xorshift(u64);

impl Xorshift {
    /// The stream from `seed` (not 0, which stays 0).
    pub(super) fn new(seed: u64) -> Xorshift {
        Xorshift(seed)
    }

    /// The next number of the stream.
    pub(super) fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// The hard sample puzzle `i` of `data/se_sample_hard.txt` (taken in turn, from the first again after the last),
/// with its solution.
pub(super) fn hard_puzzle(i: usize) -> (Grid, Grid) {
    let text = include_str!("../../../../data/se_sample_hard.txt");
    let puzzles: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    let grid = Grid::parse_line(&puzzles[i % puzzles.len()].as_bytes()[..81]).unwrap();
    let solution = crate::solver::solve(&grid).unwrap().solution;
    (grid, solution)
}

/// Working grids as a dynamic chain leaves them: the candidates of puzzles of `data/puzzles.txt`, each with
/// about one candidate in `1 / rate` removed at random (a cell keeps one at least), `n` in all.
pub(super) fn working_grids(n: usize, rate: u64) -> Vec<Working> {
    let text = include_str!("../../../../data/puzzles.txt");
    let puzzles: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    let mut random = Xorshift::new(0x9E37_79B9_7F4A_7C15);
    (0..n)
        .map(|i| {
            let g = Grid::parse_line(puzzles[i % puzzles.len()].as_bytes()).unwrap();
            let mut w = Working::of(&Candidates::new(&g).unwrap());
            for cell in 0..81 {
                for d in DigitSet(w.mask[cell]).iter() {
                    if random.next() % rate == 0 && w.mask[cell].count_ones() > 1 {
                        w.remove(cell, d);
                    }
                }
            }
            w
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stream_is_xorshift64() {
        // The first numbers of xorshift64 from 1, worked by hand from the three shifts.
        let mut r = Xorshift::new(1);
        let a = 1u64 ^ 1 << 13;
        let b = a ^ a >> 7;
        let c = b ^ b << 17;
        assert_eq!(r.next(), c);
        assert_ne!(r.next(), c);
        assert_eq!(Xorshift::new(0).next(), 0);
    }

    #[test]
    fn working_grids_keep_a_candidate_a_cell_and_agree_both_ways() {
        let grids = working_grids(20, 3);
        assert_eq!(grids.len(), 20);
        let removed: u32 = grids
            .iter()
            .enumerate()
            .map(|(i, w)| {
                let text = include_str!("../../../../data/puzzles.txt");
                let line = text.lines().filter(|l| !l.starts_with('#')).nth(i).unwrap();
                let full = Working::of(
                    &Candidates::new(&Grid::parse_line(line.as_bytes()).unwrap()).unwrap(),
                );
                let mut gone = 0;
                for cell in 0..81 {
                    // Only removals, and a cell that had candidates keeps one.
                    assert_eq!(w.mask[cell] & !full.mask[cell], 0);
                    assert_eq!(w.mask[cell] == 0, full.mask[cell] == 0);
                    gone += (full.mask[cell] & !w.mask[cell]).count_ones();
                    for d in 1..=9u8 {
                        let on = w.mask[cell] >> (d - 1) & 1 != 0;
                        assert_eq!(w.places[d as usize - 1].contains(cell), on);
                    }
                }
                gone
            })
            .sum();
        assert!(removed > 0, "some candidates removed");
    }
}
