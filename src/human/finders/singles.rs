//! Singles: a cell with one candidate left (naked single), and a digit with one place left in a house (hidden
//! single, in the houses of the caller's order).

use super::super::candidates::Candidates;
use super::super::house::{CellSet, House};

/// The lowest open cell with a single candidate, and that candidate.
pub(crate) fn naked_single(c: &Candidates) -> Option<(usize, u8)> {
    // Cells holding a candidate once (`once`) and more than once (`more`), over the nine digits' places.
    let (mut once, mut more) = (CellSet::EMPTY, CellSet::EMPTY);
    for d in 1..=9 {
        let p = c.places(d);
        more |= once & p;
        once |= p;
    }
    let cell = (once & !more).first()?;
    Some((cell, c.get(cell).first()?))
}

/// Each digit with exactly one place in a house, houses in the order of `houses`, digits ascending:
/// `found(house, cell, digit)` until it returns `Some`, which is returned.
pub(crate) fn hidden_single<T>(
    c: &Candidates,
    houses: impl IntoIterator<Item = House>,
    mut found: impl FnMut(House, usize, u8) -> Option<T>,
) -> Option<T> {
    for house in houses {
        let cells = house.cells();
        for digit in 1..=9u8 {
            let p = c.places(digit) & cells;
            if p.len() == 1 {
                let cell = p.first()?;
                if let Some(t) = found(house, cell, digit) {
                    return Some(t);
                }
            }
        }
    }
    None
}
