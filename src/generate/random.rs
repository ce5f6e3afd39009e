//! The `--random` method: each board is a randomized fill of the empty grid, driven by its own random stream
//! (a function of the seed, the board index and an attempt number only), so the output does not depend on the
//! thread count; [`Distinct`] checks boards in index order and asks for the next attempt when one repeats.

use std::collections::TryReserveError;

use crate::generate::filter::Filter;
use crate::generate::layout::BoardTemplate;
use crate::grid::rng::{mix64, SplitMix64};
use crate::grid::{Grid, BOX, CELLS, COL, POP9, ROW};

const ALL: u16 = 0x1ff;

#[inline]
fn bits(mask: u16) -> u32 {
    POP9[usize::from(mask & ALL)]
}

/// Search steps after which a fill starts over with fresh random boxes (never reached in practice: the fill from
/// three random diagonal boxes takes a few hundred steps).
const STEP_LIMIT: u32 = 100_000;

/// The random generator of one run.
#[derive(Debug, Clone, Copy)]
pub struct RandomFill {
    seed: u64,
    /// The fixed first digit as a 0-based value.
    first: Option<u8>,
}

/// The search state: digits placed so far (0 = empty, else 1..=9), the digits used in each unit, and the empty
/// cells (the first `open` entries of `empty`, in no particular order).
#[derive(Clone, Copy)]
struct Fill {
    cells: [u8; CELLS],
    rows: [u16; 9],
    cols: [u16; 9],
    boxes: [u16; 9],
    empty: [u8; CELLS],
    open: usize,
}

impl Fill {
    const EMPTY: Fill = Fill {
        cells: [0; CELLS],
        rows: [0; 9],
        cols: [0; 9],
        boxes: [0; 9],
        // The other cells first, then the cells of boxes 1, 5 and 9 in the reverse of the order in which
        // `RandomFill::board` fills them, so that each of those placements takes the last open slot.
        empty: {
            let mut t = [0u8; CELLS];
            let (mut n, mut i) = (0, 0);
            while i < CELLS {
                if !on_diagonal_box(i) {
                    t[n] = i as u8;
                    n += 1;
                }
                i += 1;
            }
            let mut k = 0;
            while k < 27 {
                t[CELLS - 1 - k] = diagonal_cell(k) as u8;
                k += 1;
            }
            t
        },
        open: CELLS,
    };

    #[inline]
    fn candidates(&self, cell: usize) -> u16 {
        !(self.rows[ROW[cell] as usize]
            | self.cols[COL[cell] as usize]
            | self.boxes[BOX[cell] as usize])
            & ALL
    }

    /// Places `digit` in the empty cell `self.empty[slot]`.
    #[inline]
    fn place(&mut self, slot: usize, digit: u8) {
        let cell = self.empty[slot] as usize;
        self.open -= 1;
        self.empty.swap(slot, self.open);
        let bit = 1u16 << (digit - 1);
        self.cells[cell] = digit;
        self.rows[ROW[cell] as usize] |= bit;
        self.cols[COL[cell] as usize] |= bit;
        self.boxes[BOX[cell] as usize] |= bit;
    }

    /// Fills the empty cells depth first, most constrained cell first, trying its candidates in random order.
    /// Returns false when there is no completion or the step budget ran out.
    fn complete(&mut self, rng: &mut SplitMix64, steps: &mut u32) -> bool {
        if self.open == 0 {
            return true;
        }
        let (mut best, mut best_count) = (0, 10);
        for slot in 0..self.open {
            let n = bits(self.candidates(self.empty[slot] as usize));
            if n < best_count {
                (best, best_count) = (slot, n);
                if n <= 1 {
                    break;
                }
            }
        }
        let mut left = self.candidates(self.empty[best] as usize);
        while left != 0 {
            *steps += 1;
            if *steps > STEP_LIMIT {
                return false;
            }
            let digit = nth_bit(left, rng.below(bits(left))) + 1;
            left &= !(1 << (digit - 1));
            let mut next = *self;
            next.place(best, digit);
            if next.complete(rng, steps) {
                *self = next;
                return true;
            }
        }
        false
    }
}

/// Whether `cell` lies in box 1, 5 or 9 (the diagonal boxes, which share no row or column).
const fn on_diagonal_box(cell: usize) -> bool {
    cell / 27 == (cell % 9) / 3
}

/// The `k`-th cell (0..27) filled first: boxes 1, 5, 9 in turn, each in reading order.
const fn diagonal_cell(k: usize) -> usize {
    let b = k / 9;
    (b * 3 + (k % 9) / 3) * 9 + b * 3 + k % 3
}

/// The position of the `n`-th set bit of `mask` (0-based).
#[inline]
fn nth_bit(mut mask: u16, n: u32) -> u8 {
    for _ in 0..n {
        mask &= mask - 1;
    }
    mask.trailing_zeros() as u8
}

impl RandomFill {
    /// The generator for a run. `first` is the digit (1..=9) of every board's top-left cell, or `None`.
    ///
    /// # Panics
    /// If `first` is not a digit 1..=9.
    pub fn new(first: Option<u8>, seed: u64) -> RandomFill {
        if let Some(d) = first {
            assert!((1..=9).contains(&d), "first digit {d} is not 1..=9");
        }
        RandomFill {
            seed,
            first: first.map(|d| d - 1),
        }
    }

    /// Board `index`, attempt `attempt`: a function of the seed, `index` and `attempt` only. The three diagonal
    /// boxes (which share no row, column or box) get random orders, then the rest is filled by a randomized search.
    pub fn board(&self, index: u64, attempt: u32) -> Grid {
        let mut rng = SplitMix64::for_board(self.seed, index, attempt);
        loop {
            let mut f = Fill::EMPTY;
            for b in 0..3 {
                let mut digits: [u8; 9] = [1, 2, 3, 4, 5, 6, 7, 8, 9];
                // Fisher-Yates; the top-left cell of box 1 may be pinned to the first digit.
                let start = match (b, self.first) {
                    (0, Some(d)) => {
                        digits.swap(0, usize::from(d));
                        1
                    }
                    _ => 0,
                };
                for i in start..8 {
                    let j = i + rng.below((9 - i) as u32) as usize;
                    digits.swap(i, j);
                }
                for (k, &d) in digits.iter().enumerate() {
                    debug_assert_eq!(f.empty[f.open - 1] as usize, diagonal_cell(b * 9 + k));
                    f.place(f.open - 1, d);
                }
            }
            let mut steps = 0;
            if f.complete(&mut rng, &mut steps) {
                return Grid::from_cells(f.cells).expect("digits 1..=9");
            }
        }
    }

    /// Writes attempt-0 boards `first_index .. first_index + count` into `out` (fixed bytes already laid out)
    /// and their fingerprints into `prints`, for [`Distinct::admit`] to check in index order.
    pub(crate) fn fill(
        &self,
        first_index: u64,
        count: usize,
        layout: &BoardTemplate,
        out: &mut [u8],
        prints: &mut Vec<u64>,
    ) {
        prints.clear();
        for b in 0..count {
            let g = self.board(first_index + b as u64, 0);
            put_grid(layout, out, b, &g);
            prints.push(fingerprint(&g));
        }
    }
}

fn put_grid(layout: &BoardTemplate, out: &mut [u8], record: usize, g: &Grid) {
    let mut cells = *g.cells();
    for c in cells.iter_mut() {
        *c -= 1;
    }
    layout.put(out, record * layout.stride, &cells);
}

/// A 64-bit hash of a board: equal boards have equal fingerprints, so a repeat is never missed; two different
/// boards sharing one (odds about n²/2⁶⁵) only cost a needless extra attempt.
pub(super) fn fingerprint(g: &Grid) -> u64 {
    let mut h = 0u64;
    for chunk in g.cells().chunks(8) {
        let mut w = 0u64;
        for (i, &b) in chunk.iter().enumerate() {
            w |= u64::from(b) << (8 * i);
        }
        h = mix64(h ^ w).wrapping_add(0x9e37_79b9_7f4a_7c15);
    }
    h
}

/// The distinctness check of a random run: a [`Filter`] of the fingerprints of every board so far, sized for the
/// run at its start (2 bytes per board). Boards must be admitted in index order, which makes the outcome independent
/// of the thread count.
#[derive(Debug, Clone)]
pub(super) struct Distinct {
    seen: Filter,
    /// Boards made again because the first attempt repeated an earlier board or could not be told apart from one
    /// (about 1 in 6,000 boards, by the filter's false positives; actual repeats are far rarer).
    pub retries: u64,
}

impl Distinct {
    /// A check for a run of `boards` boards, or the allocation's error when its memory cannot be had.
    pub(super) fn new(boards: u64) -> Result<Distinct, TryReserveError> {
        Ok(Distinct {
            seen: Filter::for_boards(boards)?,
            retries: 0,
        })
    }

    /// Admits board `index` with fingerprint `print`. If it repeats an earlier board, asks `regenerate` for
    /// attempts 1, 2, … of the same index until one is new, and returns the board to use instead.
    pub(super) fn admit(
        &mut self,
        index: u64,
        print: u64,
        mut regenerate: impl FnMut(u64, u32) -> Grid,
    ) -> Option<Grid> {
        if !self.seen.insert(print) {
            return None;
        }
        let mut attempt = 1;
        loop {
            let g = regenerate(index, attempt);
            self.retries += 1;
            if !self.seen.insert(fingerprint(&g)) {
                return Some(g);
            }
            attempt += 1;
        }
    }

    /// Checks the boards of one filled chunk in order and rewrites any repeat in `out`.
    pub(crate) fn admit_chunk(
        &mut self,
        gen: &RandomFill,
        first_index: u64,
        prints: &[u64],
        layout: &BoardTemplate,
        out: &mut [u8],
    ) {
        for (b, &p) in prints.iter().enumerate() {
            if let Some(g) = self.admit(first_index + b as u64, p, |i, a| gen.board(i, a)) {
                put_grid(layout, out, b, &g);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::layout::Format;
    use std::collections::HashSet;

    #[test]
    fn boards_are_valid_and_reproducible() {
        let gen = RandomFill::new(None, 9);
        let mut seen = HashSet::new();
        for i in 0..2000 {
            let b = gen.board(i, 0);
            assert!(b.is_valid_solution(), "board {i}: {b}");
            assert_eq!(b, gen.board(i, 0));
            assert!(seen.insert(b));
        }
        assert_ne!(gen.board(0, 0), gen.board(0, 1));
        assert_ne!(gen.board(0, 0), RandomFill::new(None, 10).board(0, 0));
    }

    #[test]
    fn the_first_digit_is_pinned() {
        for d in 1..=9 {
            let gen = RandomFill::new(Some(d), 1);
            for i in 0..200 {
                let b = gen.board(i, 0);
                assert!(b.is_valid_solution());
                assert_eq!(b.get(0), d);
            }
        }
    }

    #[test]
    fn first_digit_varies_when_free() {
        let gen = RandomFill::new(None, 5);
        let mut seen = [false; 10];
        for i in 0..300 {
            seen[gen.board(i, 0).get(0) as usize] = true;
        }
        assert!(seen[1..].iter().all(|&s| s));
    }

    #[test]
    fn a_repeat_is_replaced_by_the_next_new_attempt() {
        let gen = RandomFill::new(None, 1);
        let mut d = Distinct::new(4).unwrap();
        let a = gen.board(0, 0);
        assert_eq!(d.admit(0, fingerprint(&a), |i, t| gen.board(i, t)), None);
        // Board 1 "comes out" equal to board 0; its attempt 1 is also a repeat (forced); attempt 2 is new.
        let forced = |i: u64, t: u32| if t == 1 { a } else { gen.board(i, t) };
        let replaced = d.admit(1, fingerprint(&a), forced).unwrap();
        assert_eq!(replaced, gen.board(1, 2));
        assert_eq!(d.retries, 2);
    }

    #[test]
    fn admit_chunk_rewrites_repeats_in_the_buffer() {
        let gen = RandomFill::new(Some(3), 2);
        let layout = BoardTemplate::new(Format::Line, 4);
        let mut buf = Vec::new();
        layout.lay_out(4, true, &mut buf);
        let mut prints = Vec::new();
        gen.fill(0, 4, &layout, &mut buf, &mut prints);
        // Make record 2 a copy of record 0, as if the fill had repeated it.
        let rec0 = buf[..82].to_vec();
        buf[164..246].copy_from_slice(&rec0);
        prints[2] = prints[0];
        let mut d = Distinct::new(4).unwrap();
        d.admit_chunk(&gen, 0, &prints, &layout, &mut buf);
        let text = String::from_utf8(buf).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[2], gen.board(2, 1).to_line());
        let unique: HashSet<&str> = lines.iter().copied().collect();
        assert_eq!(unique.len(), 4);
    }
}
