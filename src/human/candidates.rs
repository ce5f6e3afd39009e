//! The candidate grid a person pencils in: for every open cell the digits still possible, kept in step with
//! placements (placing a digit removes it from the cell's peers), with the contradiction check and the text
//! rendering `explain --candidates` prints.

use std::fmt;

use crate::grid::{Conflict, Grid, CELLS};

use super::house::{cell_name, CellSet, DigitSet, House, PEERS};

/// Why a candidate grid cannot lead to a solution.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Contradiction {
    /// An open cell has no candidate left.
    #[error("{} has no candidate left", cell_name(*cell))]
    EmptyCell {
        /// 0-based cell.
        cell: usize,
    },
    /// A digit has no place left in a house that does not hold it yet.
    #[error("{house} has no place left for {digit}")]
    MissingDigit {
        /// The house.
        house: House,
        /// The digit 1..=9.
        digit: u8,
    },
}

/// Candidates and placed values of all 81 cells. `Copy`: guessing saves the whole state by value.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct Candidates {
    /// Candidates of each open cell (bit `d - 1` for digit `d`); 0 once the cell holds a value.
    mask: [u16; CELLS],
    /// Value of each cell, 0 when open.
    value: [u8; CELLS],
    /// For each digit, the open cells where it is still a candidate.
    places: [CellSet; 9],
    /// For each digit, the cells that hold it.
    placed: [CellSet; 9],
    /// The open cells.
    open: CellSet,
}

impl Candidates {
    /// The candidate grid of a puzzle: givens placed, every other cell holding the digits its peers do not.
    pub(crate) fn new(puzzle: &Grid) -> Result<Candidates, Conflict> {
        puzzle.check_givens()?;
        let mut c = Candidates {
            mask: [0x1FF; CELLS],
            value: [0; CELLS],
            places: [CellSet::ALL; 9],
            placed: [CellSet::EMPTY; 9],
            open: CellSet::ALL,
        };
        for cell in 0..CELLS {
            let d = puzzle.get(cell);
            if d != 0 {
                c.place(cell, d);
            }
        }
        Ok(c)
    }

    /// Candidates of a cell (empty for a filled cell).
    #[inline]
    pub(crate) fn get(&self, cell: usize) -> DigitSet {
        DigitSet(self.mask[cell])
    }

    /// Value of a cell, 0 when open.
    pub(crate) fn value(&self, cell: usize) -> u8 {
        self.value[cell]
    }

    /// Open cells where `digit` (1..=9) is still a candidate.
    #[inline]
    pub(crate) fn places(&self, digit: u8) -> CellSet {
        self.places[digit as usize - 1]
    }

    /// Cells that hold `digit`.
    #[inline]
    pub(crate) fn placed(&self, digit: u8) -> CellSet {
        self.placed[digit as usize - 1]
    }

    /// The open cells.
    #[inline]
    pub(crate) fn open(&self) -> CellSet {
        self.open
    }

    /// True when every cell holds a value.
    #[inline]
    pub(crate) fn is_solved(&self) -> bool {
        self.open.is_empty()
    }

    /// Puts `digit` into `cell` and removes it from the candidates of the cell's peers.
    pub(crate) fn place(&mut self, cell: usize, digit: u8) {
        debug_assert!((1..=9).contains(&digit));
        let m = self.mask[cell];
        for d in DigitSet(m).iter() {
            self.places[d as usize - 1].remove(cell);
        }
        self.mask[cell] = 0;
        self.value[cell] = digit;
        self.open.remove(cell);
        let di = digit as usize - 1;
        self.placed[di].insert(cell);
        let hit = self.places[di] & PEERS[cell];
        for p in hit.iter() {
            self.mask[p] &= !(1 << di);
        }
        self.places[di] = CellSet(self.places[di].0 & !hit.0);
    }

    /// Removes `digit` from the candidates of `cell`; returns whether it was there.
    pub(crate) fn eliminate(&mut self, cell: usize, digit: u8) -> bool {
        let bit = 1u16 << (digit - 1);
        if self.mask[cell] & bit == 0 {
            return false;
        }
        self.mask[cell] &= !bit;
        self.places[digit as usize - 1].remove(cell);
        true
    }

    /// The lowest open cell without candidates, if any (the cheap half of [`Candidates::contradiction`]).
    #[inline]
    pub(crate) fn empty_cell(&self) -> Option<Contradiction> {
        let any = self.places.iter().fold(CellSet::EMPTY, |a, &p| a | p);
        let cell = (self.open & !any).first()?;
        Some(Contradiction::EmptyCell { cell })
    }

    /// The first contradiction, if any: an open cell without candidates (lowest cell first), else a house with no
    /// place for a digit it lacks (rows, columns, boxes; digits ascending).
    pub(crate) fn contradiction(&self) -> Option<Contradiction> {
        if let Some(c) = self.empty_cell() {
            return Some(c);
        }
        for house in House::all() {
            let cells = house.cells();
            for d in 0..9 {
                if ((self.places[d] | self.placed[d]) & cells).is_empty() {
                    return Some(Contradiction::MissingDigit {
                        house,
                        digit: d as u8 + 1,
                    });
                }
            }
        }
        None
    }

    /// The placed values as a grid (0 for open cells).
    pub(crate) fn grid(&self) -> Grid {
        Grid::from_cells(self.value).expect("values are digits")
    }

    /// The candidate grid as text: each open cell shows its candidates, each filled cell its value, columns
    /// padded to their widest cell, boxes ruled off.
    pub(crate) fn render(&self) -> String {
        let text: Vec<String> = (0..CELLS)
            .map(|c| {
                if self.value[c] != 0 {
                    self.value[c].to_string()
                } else {
                    DigitSet(self.mask[c]).to_string()
                }
            })
            .collect();
        let width: Vec<usize> = (0..9)
            .map(|col| (0..9).map(|r| text[r * 9 + col].len()).max().unwrap_or(1))
            .collect();
        let rule = {
            let mut s = String::from("+");
            for stack in 0..3 {
                let w: usize = (0..3).map(|i| width[stack * 3 + i] + 1).sum::<usize>() + 1;
                s.push_str(&"-".repeat(w));
                s.push('+');
            }
            s.push('\n');
            s
        };
        let mut out = String::new();
        for r in 0..9 {
            if r % 3 == 0 {
                out.push_str(&rule);
            }
            out.push('|');
            for c in 0..9 {
                out.push(' ');
                let t = &text[r * 9 + c];
                out.push_str(t);
                out.push_str(&" ".repeat(width[c] - t.len()));
                if c % 3 == 2 {
                    out.push_str(" |");
                }
            }
            out.push('\n');
        }
        out.push_str(&rule);
        out
    }
}

impl fmt::Debug for Candidates {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Candidates(\n{})", self.render())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{BOX, COL, ROW};

    const PUZZLE: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

    /// Recomputes candidates from the rules alone, to compare with the incremental bookkeeping.
    fn from_rules(g: &Grid) -> [u16; CELLS] {
        let mut out = [0u16; CELLS];
        for (i, o) in out.iter_mut().enumerate() {
            if g.get(i) != 0 {
                continue;
            }
            let mut m = 0x1FFu16;
            for j in 0..CELLS {
                let same = ROW[i] == ROW[j] || COL[i] == COL[j] || BOX[i] == BOX[j];
                if j != i && same && g.get(j) != 0 {
                    m &= !(1 << (g.get(j) - 1));
                }
            }
            *o = m;
        }
        out
    }

    #[test]
    fn candidates_follow_the_rules_and_stay_consistent() {
        let g: Grid = PUZZLE.parse().unwrap();
        let mut c = Candidates::new(&g).unwrap();
        assert_eq!(c.mask, from_rules(&g));
        assert_eq!(c.grid(), g);
        // Place r1c2 = 1 and compare again with a grid holding that value.
        c.place(1, 1);
        let mut g2 = g;
        g2.set(1, 1);
        assert_eq!(c.mask, from_rules(&g2));
        for d in 1..=9u8 {
            for cell in 0..CELLS {
                assert_eq!(c.places(d).contains(cell), c.get(cell).contains(d));
                assert_eq!(c.placed(d).contains(cell), c.value(cell) == d);
            }
        }
        assert!(c.contradiction().is_none());
    }

    #[test]
    fn contradictions_are_found() {
        let g: Grid = PUZZLE.parse().unwrap();
        let mut c = Candidates::new(&g).unwrap();
        let cell = 1;
        for d in 1..=9 {
            c.eliminate(cell, d);
        }
        assert_eq!(
            c.contradiction(),
            Some(Contradiction::EmptyCell { cell: 1 })
        );
        let mut c = Candidates::new(&g).unwrap();
        // Take 1 out of every open cell of row 1.
        for cell in 0..9 {
            c.eliminate(cell, 1);
        }
        assert_eq!(
            c.contradiction(),
            Some(Contradiction::MissingDigit {
                house: House::row(0),
                digit: 1
            })
        );
        assert_eq!(
            c.contradiction().unwrap().to_string(),
            "row 1 has no place left for 1"
        );
    }

    #[test]
    fn rendering_shows_values_and_candidates() {
        let g: Grid = PUZZLE.parse().unwrap();
        let c = Candidates::new(&g).unwrap();
        let text = c.render();
        assert_eq!(text.lines().count(), 13);
        let first_row = text.lines().nth(1).unwrap();
        assert!(first_row.starts_with("| 4 "), "{first_row}");
        assert!(first_row.contains(" 8 "), "{first_row}");
        // r1c2 has candidates 1679 (from the rules above).
        assert!(first_row.contains(&DigitSet(from_rules(&g)[1]).to_string()));
    }
}
