//! SE's producers of the basic techniques as hints with SE's ratings: the shared finders
//! ([`crate::human::finders`]) in SE's scan order, with SE's filters and its direct forms.
//!
//! - Singles: the hidden single (1.0 for the last empty cell of a house, 1.2 in a box, 1.5 in a line) and the
//!   naked single (2.3).
//! - Intersections: pointing (2.6) and claiming (2.8), one producer, and their direct forms (1.7, 1.9), which
//!   count only when the removal leaves the digit one place in another house of the first kind, and then place
//!   it there.
//! - Subsets: naked pairs/triplets/quads (3.0, 3.6, 5.0), hidden pairs/triplets/quads (3.4, 4.0, 5.4) and the
//!   direct hidden pair/triplet (2.0, 2.5), which counts only when the hidden set leaves another digit one place
//!   in its house.
//! - Fish: X-Wing (3.2), Swordfish (3.8) and Jellyfish (5.2).
//! - Wings: XY-Wing (4.2) and XYZ-Wing (4.4).

use super::super::candidates::Candidates;
use super::super::finders::{self, FishScan, Locked, LockedScan, Order, Subset, Subsets, Sweep};
use super::super::house::{CellSet, DigitSet, House, HouseKind, HouseSet};
use super::super::step::Step;
use super::finding::SeFinding;
use super::{SeStep, SeTechnique, Tenths};

/// The houses SE scans for singles and subsets (boxes, columns, rows) that have `open` empty cells or more.
fn houses_with(c: &Candidates, open: u32) -> impl Iterator<Item = House> + '_ {
    finders::BOXES_COLS_ROWS
        .into_iter()
        .filter(move |h| (c.open() & h.cells()).len() >= open)
}

/// SE's hidden single: first the houses with one empty cell (1.0), then the others (1.2 in a box, 1.5 in a
/// line); each pass scans boxes, columns, rows, houses ascending, digits ascending.
pub(super) fn hidden_single(c: &Candidates) -> Option<SeStep> {
    let empty = |h: &House| (c.open() & h.cells()).len();
    let alone = finders::BOXES_COLS_ROWS
        .into_iter()
        .filter(|h| empty(h) == 1);
    let others = finders::BOXES_COLS_ROWS
        .into_iter()
        .filter(|h| empty(h) > 1);
    finders::hidden_single(c, alone.chain(others), |h, cell, d| {
        let mut s = SeStep::of(SeTechnique::HiddenSingle);
        s.pattern.rating = Tenths(match (empty(&h) == 1, h.kind()) {
            (true, _) => 10,
            (false, HouseKind::Box) => 12,
            _ => 15,
        });
        s.placement = Some((cell, d));
        s.pattern.houses = HouseSet::single(h);
        s.pattern.digits.insert(d);
        Some(s)
    })
}

/// SE's naked single (2.3): the lowest cell with one candidate.
pub(super) fn naked_single(c: &Candidates) -> Option<SeStep> {
    let (cell, digit) = finders::naked_single(c)?;
    let mut s = SeStep::of(SeTechnique::NakedSingle);
    s.placement = Some((cell, digit));
    s.pattern.cells.insert(cell);
    s.pattern.digits.insert(digit);
    Some(s)
}

/// SE's `Locking` scan: pairs of house kinds (box, column), (box, row), (column, box), (row, box); digits
/// ascending, each first house ascending holding the digit in two places or more, in one crossing house.
const LOCKING: LockedScan = LockedScan {
    sweeps: &[
        locking(HouseKind::Box, &[HouseKind::Col]),
        locking(HouseKind::Box, &[HouseKind::Row]),
        locking(HouseKind::Col, &[HouseKind::Box]),
        locking(HouseKind::Row, &[HouseKind::Box]),
    ],
    min_places: 2,
};

const fn locking(from: HouseKind, to: &'static [HouseKind]) -> Sweep {
    Sweep {
        from,
        to,
        digits_outside: true,
    }
}

/// SE's `Locking` producer. Direct mode looks for the hidden single the removal would make in another house of
/// the first kind crossing the second, houses ascending; indirect mode keeps the first hint (all remove
/// something).
pub(super) fn intersection(c: &Candidates, direct: bool) -> Option<SeStep> {
    finders::locked(c, &LOCKING, |l| {
        let pointing = l.from.kind() == HouseKind::Box;
        if !direct {
            let t = if pointing {
                SeTechnique::Pointing
            } else {
                SeTechnique::Claiming
            };
            return Some(locked_step(t, l));
        }
        let to = l.to.cells();
        let places = c.places(l.digit);
        (0..9)
            .filter(|&n| n != l.from.number())
            .map(|n| House::of(l.from.kind(), n).cells())
            .filter(|other| !(*other & to).is_empty())
            .find_map(|other| {
                let p = places & other;
                let rest = p & !to;
                (p.len() >= 2 && rest.len() == 1).then(|| {
                    let t = if pointing {
                        SeTechnique::DirectPointing
                    } else {
                        SeTechnique::DirectClaiming
                    };
                    let mut s = SeStep::of(t);
                    s.placement = Some((rest.first().expect("one cell"), l.digit));
                    s.pattern.houses =
                        HouseSet(HouseSet::single(l.from).0 | HouseSet::single(l.to).0);
                    s.pattern.cells = l.places;
                    s.pattern.digits.insert(l.digit);
                    s
                })
            })
    })
}

fn locked_step(t: SeTechnique, l: &Locked) -> SeStep {
    let mut s = Step::removing(t, SeFinding::showing(t, l.digit), l.removed, l.digit);
    s.pattern.houses = HouseSet(HouseSet::single(l.from).0 | HouseSet::single(l.to).0);
    s.pattern.cells = l.places;
    s
}

/// SE's `NakedSet(degree)`: houses with at least `2 * degree` empty cells (boxes, columns, rows), cells in
/// combination order (increasing mask); kept when the digits leave other cells of the house.
pub(super) fn naked(c: &Candidates, degree: u32) -> Option<SeStep> {
    let t = match degree {
        2 => SeTechnique::NakedPair,
        3 => SeTechnique::NakedTriplet,
        _ => SeTechnique::NakedQuad,
    };
    let houses = houses_with(c, 2 * degree);
    finders::subset(
        c,
        Subsets::Naked,
        degree as usize,
        houses,
        Order::Colex,
        |set| {
            let mut s = subset_step(t, set);
            let hc = set.house.cells();
            for d in set.digits.iter() {
                let removed = c.places(d) & hc & !set.cells;
                if !removed.is_empty() {
                    s.eliminations.add(removed, d);
                }
            }
            (!s.eliminations.is_empty()).then_some(s)
        },
    )
}

/// SE's `HiddenSet(degree, direct)`: houses with more than `2 * degree` empty cells (more than `degree` when
/// `direct`), boxes, columns, rows; digit combinations in increasing mask order. Direct mode keeps a set that
/// leaves another digit (ascending) one place in the house, and places it; indirect mode one whose cells lose
/// other digits.
pub(super) fn hidden(c: &Candidates, degree: u32, direct: bool) -> Option<SeStep> {
    let (direct_t, hidden_t) = match degree {
        2 => (SeTechnique::DirectHiddenPair, SeTechnique::HiddenPair),
        3 => (SeTechnique::DirectHiddenTriplet, SeTechnique::HiddenTriplet),
        _ => (SeTechnique::HiddenQuad, SeTechnique::HiddenQuad),
    };
    let houses = houses_with(c, if direct { degree + 1 } else { 2 * degree + 1 });
    finders::subset(
        c,
        Subsets::Hidden,
        degree as usize,
        houses,
        Order::Colex,
        |set| {
            let hc = set.house.cells();
            if direct {
                let mut s = subset_step(direct_t, set);
                let (d, cell) = (!set.digits).iter().find_map(|d| {
                    let p = c.places(d) & hc;
                    let rest = p & !set.cells;
                    (p.len() > 1 && rest.len() == 1).then(|| (d, rest.first().expect("one cell")))
                })?;
                s.placement = Some((cell, d));
                return Some(s);
            }
            let mut s = subset_step(hidden_t, set);
            for d in (!set.digits).iter() {
                let removed = c.places(d) & set.cells;
                if !removed.is_empty() {
                    s.eliminations.add(removed, d);
                }
            }
            (!s.eliminations.is_empty()).then_some(s)
        },
    )
}

fn subset_step(t: SeTechnique, set: &Subset) -> SeStep {
    let mut s = SeStep::of(t);
    s.pattern.houses = HouseSet::single(set.house);
    s.pattern.cells = set.cells;
    s.pattern.digits = set.digits;
    s
}

/// SE's `Fisherman(degree)`: base lines columns then rows; base line combinations in increasing mask order, and
/// for each, digits ascending that are placed at most `9 - 2 * degree` times; kept when the digit leaves other
/// cells of the cover lines.
pub(super) fn fish(c: &Candidates, degree: u32) -> Option<SeStep> {
    let digits = (1..=9u8)
        .filter(|&d| c.placed(d).len() + 2 * degree <= 9)
        .fold(DigitSet::EMPTY, |s, d| s | DigitSet::single(d));
    let scan = FishScan {
        bases: [HouseKind::Col, HouseKind::Row],
        digits,
        lines_first: true,
        order: Order::Colex,
    };
    let f = finders::first_fish(c, degree as usize, &scan)?;
    let t = match degree {
        2 => SeTechnique::XWing,
        3 => SeTechnique::Swordfish,
        _ => SeTechnique::Jellyfish,
    };
    let mut s = Step::removing(t, SeFinding::showing(t, f.digit), f.removed, f.digit);
    s.pattern.houses = HouseSet(f.base.0 | f.cover.0);
    s.pattern.cells = f.places;
    Some(s)
}

/// SE's `XYWing(xyz)`: XY-Wing, or XYZ-Wing when `xyz`; the first that removes something, pivots ascending, then
/// pincers.
pub(super) fn wing(c: &Candidates, xyz: bool) -> Option<SeStep> {
    let w = finders::first_wing(c, xyz)?;
    let t = if xyz {
        SeTechnique::XYZWing
    } else {
        SeTechnique::XYWing
    };
    let [a, b] = w.pincers;
    let mut s = Step::removing(t, SeFinding::showing(t, w.digit), w.removed, w.digit);
    s.pattern.cells = CellSet::single(w.pivot) | CellSet::single(a) | CellSet::single(b);
    s.pattern.digits = c.get(w.pivot) | c.get(a) | c.get(b);
    Some(s)
}
