//! Naked and hidden subsets (pairs, triples, quads) inside one house: `k` cells holding only `k` digits between
//! them (naked), or `k` digits confined to `k` cells (hidden).

use super::super::candidates::Candidates;
use super::super::house::{CellSet, DigitSet, House, HOUSE_LIST};
use super::super::step::{Eliminations, Finding, Step};
use super::super::technique::Technique;
use super::cover::first_cover;

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
        // Open cells with 2..=k candidates, and their candidates.
        let (mut cells, mut masks, mut n) = ([0usize; 9], [0u16; 9], 0);
        for cell in (c.open() & house.cells()).iter() {
            let m = c.get(cell);
            if (2..=k as u32).contains(&m.len()) {
                cells[n] = cell;
                masks[n] = m.0;
                n += 1;
            }
        }
        first_cover(&masks[..n], k, &mut |pick, digits| {
            let set = pick
                .iter()
                .fold(CellSet::EMPTY, |s, &i| s | CellSet::single(cells[i]));
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
        // Digits with 2..=k places in the house, and those places as a 9-bit mask over the house's cells.
        let order = HOUSE_LIST[house.0 as usize];
        let mut pos = [0u16; 9];
        for (i, &cell) in order.iter().enumerate() {
            for d in c.get(cell as usize).iter() {
                pos[d as usize - 1] |= 1 << i;
            }
        }
        let (mut digits, mut masks, mut n) = ([0u8; 9], [0u16; 9], 0);
        for (d, &m) in (1..=9u8).zip(pos.iter()) {
            if (2..=k as u32).contains(&m.count_ones()) {
                digits[n] = d;
                masks[n] = m;
                n += 1;
            }
        }
        first_cover(&masks[..n], k, &mut |pick, places| {
            let set = (0..9)
                .filter(|i| places >> i & 1 != 0)
                .fold(CellSet::EMPTY, |s, i| {
                    s | CellSet::single(order[i] as usize)
                });
            let ds = pick
                .iter()
                .fold(DigitSet::EMPTY, |s, &i| s | DigitSet::single(digits[i]));
            let mut eliminations = Eliminations::NONE;
            for d in (!ds).iter() {
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
        pattern: Finding::Subset {
            house,
            cells,
            digits,
        },
        placement: None,
        eliminations,
    })
}
