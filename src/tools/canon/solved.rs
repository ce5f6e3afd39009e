//! The search for a solved grid, over column orders (the labels follow from them), where the general search
//! would carry every reading of row 0 as its own candidate.

use super::{Cand, Canonicalizer, Lines, NEW};
use crate::grid::{CELLS, PERMUTATIONS_OF_3 as PERM3};

/// Not yet given, in an [`Order`].
const FREE: u8 = u8::MAX;

/// A partial column order of the solved-grid search: which source column goes to each target column so far, for
/// one choice of the first two rows.
#[derive(Clone, Copy)]
pub(super) struct Order {
    /// Source column at each target column ([`FREE`] if not chosen yet).
    col: [u8; 9],
    /// Target column of each source column ([`FREE`] if not placed yet).
    at: [u8; 9],
    /// Source stack given to each target stack ([`FREE`] if none yet).
    stack: [u8; 3],
    /// 1 when the record is read transposed.
    t: u8,
    /// Source rows placed at target rows 0 and 1.
    r0: u8,
    r1: u8,
}

impl Order {
    /// Puts into `orders` the orders before any column is chosen: one per reading (`t`), row 0 and row 1 of row
    /// 0's band.
    fn firsts(orders: &mut Vec<Order>) {
        for t in 0..2u8 {
            for r0 in 0..9u8 {
                for r1 in 0..9u8 {
                    if r1 != r0 && r1 / 3 == r0 / 3 {
                        orders.push(Order {
                            col: [FREE; 9],
                            at: [FREE; 9],
                            stack: [FREE; 3],
                            t,
                            r0,
                            r1,
                        });
                    }
                }
            }
        }
    }

    /// The source columns (a mask) that may go to target column `j`: the one chosen, or any free one of the target
    /// stack's source stack (of any unused stack when the target stack has none yet).
    #[inline]
    fn choices(&self, j: usize) -> u16 {
        if self.col[j] != FREE {
            return 1 << self.col[j];
        }
        let mut stacks = 0u16;
        match self.stack[j / 3] {
            FREE => {
                for s in 0..3u8 {
                    if !self.stack.contains(&s) {
                        stacks |= 7 << (3 * s);
                    }
                }
            }
            s => stacks = 7 << (3 * s),
        }
        let mut free = 0u16;
        for (s, &a) in self.at.iter().enumerate() {
            if a == FREE {
                free |= 1 << s;
            }
        }
        stacks & free
    }

    /// Places source column `y`, not placed yet, at the first free target column its stack may use.
    #[inline]
    fn place(&mut self, y: u8) {
        let target = match self.stack.iter().position(|&x| x == y / 3) {
            Some(k) => k,
            None => self
                .stack
                .iter()
                .position(|&x| x == FREE)
                .expect("a stack is left for an unplaced one"),
        };
        self.stack[target] = y / 3;
        let p = (3 * target..3 * target + 3)
            .find(|&p| self.col[p] == FREE)
            .expect("a stack keeps a free column for each unplaced one of its columns");
        self.col[p] = y;
        self.at[usize::from(y)] = p as u8;
    }

    /// The grid of a complete order and its source rows in target order: rows 0 and 1, the band's third row,
    /// then the other bands by their smallest row, each band's rows in increasing order.
    fn complete(&self, lines: &Lines, at: &[[[u8; 10]; 9]; 2]) -> ([u8; CELLS], [u8; 9]) {
        let (t, r0) = (usize::from(self.t), usize::from(self.r0));
        let read = |r: usize| -> [u8; 9] {
            let mut row = [0u8; 9];
            for (cell, &c) in row.iter_mut().zip(self.col.iter()) {
                let d = lines[t][r][usize::from(c)];
                *cell = 1 + self.at[usize::from(at[t][r0][usize::from(d)])];
            }
            row
        };
        let band = r0 / 3;
        let r2 = (3 * band..3 * band + 3)
            .find(|&r| r != r0 && r != usize::from(self.r1))
            .expect("a band has three rows");
        let mut rows = [0u8; 9];
        rows[..3].copy_from_slice(&[self.r0, self.r1, r2 as u8]);
        let mut out = [0u8; CELLS];
        for (k, &r) in rows[..3].iter().enumerate() {
            out[9 * k..9 * k + 9].copy_from_slice(&read(usize::from(r)));
        }
        let others = [(band + 1) % 3, (band + 2) % 3];
        let read_band = |b: usize| {
            let mut rs: [(_, u8); 3] = [0, 1, 2].map(|i| (read(3 * b + i), (3 * b + i) as u8));
            rs.sort_unstable();
            rs
        };
        let (mut x, mut y) = (read_band(others[0]), read_band(others[1]));
        if y[0].0 < x[0].0 {
            std::mem::swap(&mut x, &mut y);
        }
        for (k, (row, r)) in x.iter().chain(y.iter()).enumerate() {
            out[27 + 9 * k..36 + 9 * k].copy_from_slice(row);
            rows[3 + k] = *r;
        }
        (out, rows)
    }
}

impl Canonicalizer {
    /// The search for a solved grid, where the general one is slow: every row is nine new digits, so row 0 is
    /// `123456789` under all 2 · 9 · 1296 choices of flag, row and column order, and the general search carries
    /// each of them to row 1 as its own candidate.
    ///
    /// Here the labels are fixed by the column order `c` (target column `j` takes source column `c(j)`): a digit
    /// is labelled by its target column in row 0, plus 1. A source row `r` then reads `1 + c⁻¹(π_r(c(j)))` at
    /// target column `j`, where `π_r(s)` is the column, in the source row placed at row 0, of the digit at column
    /// `s` of row `r`. Row 1 (a row of the first row's band) is minimised first, target column by target column:
    /// the source column put at `j` is any free one of the target stack's source stack (any column of an unused
    /// stack when the target stack has none yet); the column `y = π_r(c(j))` its digit names is then placed, if it
    /// is not already, at the first free target column that its stack may use, which gives the smallest value
    /// possible at `j` (every choice that reaches the smallest value is kept). The orders left all give the
    /// smallest row 1; for each, row 2 is the band's third row, and the other bands are ordered by their
    /// smallest row, their rows in increasing order: rows of a solved grid differ in every column, so no ties
    /// are left. The smallest of these grids is the answer.
    pub(super) fn solved(&mut self, lines: &Lines) -> Cand {
        // at[t][r][d]: the column of digit d in row r.
        let mut at = [[[0u8; 10]; 9]; 2];
        for (t, side) in lines.iter().enumerate() {
            for (r, row) in side.iter().enumerate() {
                for (c, &d) in row.iter().enumerate() {
                    at[t][r][usize::from(d)] = c as u8;
                }
            }
        }
        self.orders.clear();
        Order::firsts(&mut self.orders);
        for j in 0..9 {
            let mut best = FREE;
            self.orders_next.clear();
            for o in &self.orders {
                let (t, r0, r1) = (usize::from(o.t), usize::from(o.r0), usize::from(o.r1));
                let pi = |s: u8| at[t][r0][usize::from(lines[t][r1][usize::from(s)])];
                let mut rest = o.choices(j);
                while rest != 0 {
                    let s = rest.trailing_zeros() as u8;
                    rest &= rest - 1;
                    let mut child = *o;
                    child.col[j] = s;
                    child.at[usize::from(s)] = j as u8;
                    child.stack[j / 3] = s / 3;
                    let y = pi(s);
                    if child.at[usize::from(y)] == FREE {
                        child.place(y);
                    }
                    let value = child.at[usize::from(y)];
                    if value < best {
                        best = value;
                        self.orders_next.clear();
                    }
                    if value == best {
                        self.orders_next.push(child);
                    }
                }
            }
            std::mem::swap(&mut self.orders, &mut self.orders_next);
        }
        // Complete each order with its rows; keep the smallest grid.
        let mut best: Option<([u8; CELLS], Cand)> = None;
        for o in &self.orders {
            let (out, rows) = o.complete(lines, &at);
            if best.as_ref().is_none_or(|(b, _)| out < *b) {
                best = Some((out, self.cand_of(o, rows, &at)));
            }
        }
        best.expect("some column order is left").1
    }

    /// The general search's candidate for a complete order of [`Canonicalizer::solved`].
    fn cand_of(&self, o: &Order, rows: [u8; 9], at: &[[[u8; 10]; 9]; 2]) -> Cand {
        let index = |p: [u8; 3]| {
            PERM3
                .iter()
                .position(|q| *q == p)
                .expect("an order of three") as u8
        };
        let stacks = 1 << index(o.stack);
        let mut masks = [0u8; 3];
        for j in 0..3 {
            let p = [0, 1, 2].map(|q| o.col[3 * j + q] % 3);
            masks[usize::from(o.stack[j])] = 1 << index(p);
        }
        let mut label = [NEW; 16];
        label[0] = 0;
        for d in 1..10 {
            label[d] = 1 + o.at[usize::from(at[usize::from(o.t)][usize::from(o.r0)][d])];
        }
        Cand {
            label,
            rows,
            masks,
            t: o.t,
            stacks,
            used: 0x1FF,
            next: 10,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::*;
    use crate::grid::samples::g;

    /// Solved grids take [`Canonicalizer::solved`]; it must give what the general search gives, on random grids,
    /// on their random transforms and on a grid with many automorphisms (the most ties).
    #[test]
    fn the_solved_grid_search_agrees_with_the_general_one() {
        let mut work = Canonicalizer::new();
        let mut grids: Vec<Grid> = include_str!("../../../data/puzzles.solutions.txt")
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(g)
            .collect();
        grids.push(g(
            "123456789456789123789123456234567891567891234891234567345678912678912345912345678",
        ));
        let n = grids.len();
        for i in 0..n {
            for k in 0..3 {
                grids.push(Transform::random(7, (i * 3 + k) as u64).apply(&grids[i]));
            }
        }
        for grid in &grids {
            let lines = lines_of(grid);
            let general = render(&lines, &work.general(&lines));
            let fast = render(&lines, &work.solved(&lines));
            assert_eq!(fast, general, "{}", grid.to_line());
            assert_eq!(work.canon(grid).unwrap(), general);
            let (c, t) = work.canon_with_transform(grid).unwrap();
            assert_eq!((c, t.apply(grid)), (general, general));
        }
    }
}
