//! The working grid of SE's chains: the candidates a chain is looked for on (a puzzle's, or the copy a dynamic
//! chain removes candidates from as it grows), cell by cell and digit by digit.

use crate::human::candidates::Candidates;
use crate::human::house::{CellSet, DigitSet};

/// The candidates of a working grid, kept two ways that agree: by cell and by digit.
#[derive(Clone, Copy)]
pub(super) struct Working {
    /// Candidates of each cell (bit `d - 1` for digit `d`; 0 for a cell with a value).
    pub mask: [u16; 81],
    /// Where each digit can go (`[d - 1]` for digit `d`).
    pub places: [CellSet; 9],
}

impl Working {
    /// The candidates of `c`.
    pub(super) fn of(c: &Candidates) -> Working {
        let mut v = Working {
            mask: [0; 81],
            places: [CellSet::EMPTY; 9],
        };
        for cell in c.open().iter() {
            v.mask[cell] = c.get(cell).0;
        }
        for d in 1..=9u8 {
            v.places[d as usize - 1] = c.places(d);
        }
        v
    }

    /// The candidates of `cell`.
    #[inline]
    pub(super) fn get(&self, cell: usize) -> DigitSet {
        DigitSet(self.mask[cell])
    }

    /// The places of digit `d`.
    #[inline]
    pub(super) fn places(&self, d: u8) -> CellSet {
        self.places[d as usize - 1]
    }

    /// The cells of two candidates, counted across the digits' places a bit slice at a time.
    #[inline]
    pub(super) fn bivalue(&self) -> CellSet {
        let (mut one, mut two, mut more) = (0u128, 0u128, 0u128);
        for p in &self.places {
            more |= two & p.0;
            two |= one & p.0;
            one |= p.0;
        }
        CellSet(two & !more)
    }

    /// Removes candidate `d` of `cell`.
    #[inline]
    pub(super) fn remove(&mut self, cell: usize, d: u8) {
        self.mask[cell] &= !(1 << (d - 1));
        self.places[d as usize - 1].0 &= !CELL_BIT[cell];
    }
}

/// `CELL_BIT[cell]`: the bit of `cell` in a [`CellSet`], looked up rather than shifted into place.
pub(super) const CELL_BIT: [u128; 81] = {
    let mut t = [0u128; 81];
    let mut cell = 0;
    while cell < 81 {
        t[cell] = CellSet::single(cell).0;
        cell += 1;
    }
    t
};
