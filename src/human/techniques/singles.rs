//! Singles: a cell with one candidate left (naked single), and a digit with one place left in a house (hidden
//! single, looked for in boxes, then rows, then columns).

use super::super::candidates::Candidates;
use super::super::house::{CellSet, House};
use super::super::step::{Eliminations, Finding, Step};
use super::super::technique::Technique;

/// The lowest open cell with a single candidate.
pub(super) fn naked_single(c: &Candidates) -> Option<Step> {
    // Cells holding a candidate once (`once`) and more than once (`more`), over the nine digits' places.
    let (mut once, mut more) = (CellSet::EMPTY, CellSet::EMPTY);
    for d in 1..=9 {
        let p = c.places(d);
        more |= once & p;
        once |= p;
    }
    let cell = (once & !more).first()?;
    let digit = c.get(cell).first()?;
    Some(single(Technique::NakedSingle, cell, digit, None))
}

/// The first house (boxes, rows, columns) and digit with exactly one place.
pub(super) fn hidden_single(c: &Candidates) -> Option<Step> {
    let houses = (18..27).chain(0..18).map(House);
    for house in houses {
        let cells = house.cells();
        for digit in 1..=9u8 {
            let p = c.places(digit) & cells;
            if p.len() == 1 {
                let cell = p.first()?;
                return Some(single(Technique::HiddenSingle, cell, digit, Some(house)));
            }
        }
    }
    None
}

fn single(technique: Technique, cell: usize, digit: u8, house: Option<House>) -> Step {
    Step {
        technique,
        pattern: Finding::Single { cell, digit, house },
        placement: Some((cell, digit)),
        eliminations: Eliminations::NONE,
    }
}
