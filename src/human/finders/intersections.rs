//! Locked candidates, where a box meets a row or column: a digit's places in one house (`from`) all lie in a
//! crossing house (`to`), so it leaves the rest of `to`. Pointing when `from` is a box, claiming when it is a line.

use super::super::candidates::Candidates;
use super::super::house::{CellSet, House, HouseKind};

/// Locked candidates found: `digit`'s places in `from` all lie in `to`, and it leaves `removed`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Locked {
    /// The digit.
    pub digit: u8,
    /// The house whose places are confined.
    pub from: House,
    /// The crossing house holding them all.
    pub to: House,
    /// The digit's places in `from`.
    pub places: CellSet,
    /// The digit's places in `to` outside `from` (never empty).
    pub removed: CellSet,
}

/// One sweep of a locked-candidates scan: the houses of kind `from` (numbers ascending) with each digit
/// (ascending), digits outside the houses or inside; for each, the crossing house of each kind of `to` in turn.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Sweep {
    /// The kind of the confining house.
    pub from: HouseKind,
    /// The kinds of the crossing house, tried in this order.
    pub to: &'static [HouseKind],
    /// Digits in the outer loop, houses in the inner one (else houses outside, digits inside).
    pub digits_outside: bool,
}

/// A locked-candidates scan: its sweeps in order, and how many places a digit needs in `from` (one place is a
/// single, which the levels count as locked too; SE asks two).
#[derive(Debug, Clone, Copy)]
pub(crate) struct LockedScan {
    /// The sweeps, in order.
    pub sweeps: &'static [Sweep],
    /// The fewest places of the digit in `from`.
    pub min_places: u32,
}

/// Each locked candidate that removes something, in the order of `scan`: `found(&locked)` until it returns
/// `Some`, which is returned.
pub(crate) fn locked<T>(
    c: &Candidates,
    scan: &LockedScan,
    mut found: impl FnMut(&Locked) -> Option<T>,
) -> Option<T> {
    for sweep in scan.sweeps {
        for outer in 0..9 {
            for inner in 0..9 {
                let (n, digit) = if sweep.digits_outside {
                    (inner, outer as u8 + 1)
                } else {
                    (outer, inner as u8 + 1)
                };
                let from = House::of(sweep.from, n);
                let t = at(c, scan.min_places, sweep.to, from, digit, &mut found);
                if t.is_some() {
                    return t;
                }
            }
        }
    }
    None
}

/// The locked candidates of `digit` in `from`, crossing houses of the kinds `to` in turn, handed to `found`.
#[inline]
fn at<T>(
    c: &Candidates,
    min_places: u32,
    to: &[HouseKind],
    from: House,
    digit: u8,
    found: &mut impl FnMut(&Locked) -> Option<T>,
) -> Option<T> {
    let all = c.places(digit);
    let places = all & from.cells();
    if places.len() < min_places.max(1) {
        return None;
    }
    let first = places.first()?;
    for &kind in to {
        let to = House::holding(kind, first);
        if !(places & !to.cells()).is_empty() {
            continue;
        }
        let removed = all & to.cells() & !from.cells();
        if removed.is_empty() {
            continue;
        }
        let locked = Locked {
            digit,
            from,
            to,
            places,
            removed,
        };
        if let Some(t) = found(&locked) {
            return Some(t);
        }
    }
    None
}
