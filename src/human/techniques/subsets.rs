//! Naked and hidden subsets (pairs, triples, quads) inside one house: `k` cells holding only `k` digits between
//! them (naked), or `k` digits confined to `k` cells (hidden).

use super::super::candidates::Candidates;
use super::super::house::{CellSet, DigitSet, House};
use super::super::step::{Eliminations, Pattern, Step, Technique};
use super::first_combination;

const NAKED: [Technique; 3] = [
    Technique::NakedPair,
    Technique::NakedTriple,
    Technique::NakedQuad,
];
const HIDDEN: [Technique; 3] = [
    Technique::HiddenPair,
    Technique::HiddenTriple,
    Technique::HiddenQuad,
];

/// `k` open cells of a house (rows, columns, boxes) whose candidates make `k` digits, which then leave the
/// house's other cells.
pub(super) fn naked(c: &Candidates, k: usize) -> Option<Step> {
    House::all().find_map(|house| {
        let cells: Vec<usize> = (c.open() & house.cells())
            .iter()
            .filter(|&cell| (2..=k as u32).contains(&c.get(cell).len()))
            .collect();
        first_combination(cells.len(), k, |pick| {
            let mut set = CellSet::EMPTY;
            let mut digits = 0u16;
            for &i in pick {
                set.insert(cells[i]);
                digits |= c.get(cells[i]).0;
            }
            if digits.count_ones() as usize != k {
                return None;
            }
            let digits = DigitSet(digits);
            let mut eliminations = Eliminations::NONE;
            for d in digits.iter() {
                eliminations.add(c.places(d) & house.cells() & !set, d);
            }
            subset_step(NAKED[k - 2], house, set, digits, eliminations)
        })
    })
}

/// `k` digits of a house (rows, columns, boxes) whose places make `k` cells, which then lose their other
/// candidates.
pub(super) fn hidden(c: &Candidates, k: usize) -> Option<Step> {
    House::all().find_map(|house| {
        let digits: Vec<u8> = (1..=9u8)
            .filter(|&d| (2..=k as u32).contains(&(c.places(d) & house.cells()).len()))
            .collect();
        first_combination(digits.len(), k, |pick| {
            let mut set = CellSet::EMPTY;
            let mut ds = 0u16;
            for &i in pick {
                set |= c.places(digits[i]) & house.cells();
                ds |= DigitSet::single(digits[i]).0;
            }
            if set.len() as usize != k {
                return None;
            }
            let ds = DigitSet(ds);
            let mut eliminations = Eliminations::NONE;
            for d in DigitSet(!ds.0 & DigitSet::ALL.0).iter() {
                eliminations.add(c.places(d) & set, d);
            }
            subset_step(HIDDEN[k - 2], house, set, ds, eliminations)
        })
    })
}

fn subset_step(
    technique: Technique,
    house: House,
    cells: CellSet,
    digits: DigitSet,
    eliminations: Eliminations,
) -> Option<Step> {
    (!eliminations.is_empty()).then_some(Step {
        technique,
        pattern: Pattern::Subset {
            house,
            cells,
            digits,
        },
        placement: None,
        eliminations,
    })
}
