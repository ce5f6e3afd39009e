//! Naked and hidden subsets (pairs, triples, quads) inside one house: `k` cells holding only `k` digits between
//! them (naked), or `k` digits confined to `k` cells (hidden).

use super::super::candidates::Candidates;
use super::super::house::{CellSet, DigitSet, House, HOUSE_LIST};
use super::cover::{first_cover, Order};

/// Which subsets: `k` cells holding `k` digits, or `k` digits held by `k` cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Subsets {
    /// Cells combined (by their place in the house), kept when they hold `k` digits between them.
    Naked,
    /// Digits combined (ascending), kept when their places are `k` cells.
    Hidden,
}

/// A subset found: `cells` of `house` and the `digits` they hold (naked) or that only they hold (hidden), as
/// many cells as digits. What it removes is the caller's to work out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Subset {
    /// The house.
    pub house: House,
    /// The cells of the subset.
    pub cells: CellSet,
    /// The digits of the subset.
    pub digits: DigitSet,
}

/// Each subset of `kind` and size `k` (2 to 4): houses in the order of `houses`; in each, the cells (naked) or
/// digits (hidden) of two to `k` candidates or places (one of more cannot be in a subset) combined in `order`:
/// `found(&subset)` until it returns `Some`, which is returned.
pub(crate) fn subset<T>(
    c: &Candidates,
    kind: Subsets,
    k: usize,
    houses: impl IntoIterator<Item = House>,
    order: Order,
    mut found: impl FnMut(&Subset) -> Option<T>,
) -> Option<T> {
    for house in houses {
        let list = &HOUSE_LIST[house.0 as usize];
        // For each item (a cell's place in the house, or a digit less one), its digits or places as a 9-bit mask.
        let mut of = [0u16; 9];
        match kind {
            Subsets::Naked => {
                for (m, &cell) in of.iter_mut().zip(list) {
                    *m = c.get(cell as usize).0;
                }
            }
            Subsets::Hidden => {
                for (i, &cell) in list.iter().enumerate() {
                    for d in c.get(cell as usize).iter() {
                        of[d as usize - 1] |= 1 << i;
                    }
                }
            }
        }
        let (mut items, mut masks, mut n) = ([0u8; 9], [0u16; 9], 0);
        for (i, &m) in of.iter().enumerate() {
            if (2..=k as u32).contains(&m.count_ones()) {
                items[n] = i as u8;
                masks[n] = m;
                n += 1;
            }
        }
        let t = first_cover(&masks[..n], k, order, &mut |pick, union| {
            let picked = pick.iter().fold(0u16, |m, &j| m | 1 << items[j]);
            let (places, digits) = match kind {
                Subsets::Naked => (picked, union),
                Subsets::Hidden => (union, picked),
            };
            let cells = (0..9)
                .filter(|i| places >> i & 1 != 0)
                .fold(CellSet::EMPTY, |s, i| s | CellSet::single(list[i] as usize));
            found(&Subset {
                house,
                cells,
                digits: DigitSet(digits),
            })
        });
        if t.is_some() {
            return t;
        }
    }
    None
}
