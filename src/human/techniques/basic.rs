//! The levels' basic techniques (singles, pointing and claiming, naked and hidden subsets, fish, XY- and
//! XYZ-Wings) as steps: the shared finders ([`crate::human::finders`]) in the levels' scan order, the first
//! pattern that places or removes something taken.

use super::super::candidates::Candidates;
use super::super::finders::{self, FishScan, Locked, LockedScan, Order, Subset, Subsets, Sweep};
use super::super::house::{DigitSet, House, HouseKind};
use super::super::step::{Eliminations, Finding, Step};
use super::super::technique::Technique;

/// The lowest open cell with a single candidate.
pub(super) fn naked_single(c: &Candidates) -> Option<Step> {
    let (cell, digit) = finders::naked_single(c)?;
    Some(single(Technique::NakedSingle, cell, digit, None))
}

/// The first house (boxes, rows, columns) and digit with exactly one place.
pub(super) fn hidden_single(c: &Candidates) -> Option<Step> {
    finders::hidden_single(c, finders::BOXES_ROWS_COLS, |house, cell, digit| {
        Some(single(Technique::HiddenSingle, cell, digit, Some(house)))
    })
}

fn single(technique: Technique, cell: usize, digit: u8, house: Option<House>) -> Step {
    Step {
        technique,
        pattern: Finding::Single { cell, digit, house },
        placement: Some((cell, digit)),
        eliminations: Eliminations::NONE,
    }
}

/// Pointing: boxes 1..9, digits 1..9 inside; the row before the column.
const POINTING: LockedScan = LockedScan {
    sweeps: &[Sweep {
        from: HouseKind::Box,
        to: &[HouseKind::Row, HouseKind::Col],
        digits_outside: false,
    }],
    min_places: 1,
};

/// Claiming: rows then columns, digits 1..9 inside.
const CLAIMING: LockedScan = LockedScan {
    sweeps: &[
        Sweep {
            from: HouseKind::Row,
            to: &[HouseKind::Box],
            digits_outside: false,
        },
        Sweep {
            from: HouseKind::Col,
            to: &[HouseKind::Box],
            digits_outside: false,
        },
    ],
    min_places: 1,
};

/// A box's candidates for a digit all in one line leave the rest of that line.
pub(super) fn pointing(c: &Candidates) -> Option<Step> {
    finders::locked(c, &POINTING, |l| Some(locked(Technique::Pointing, l)))
}

/// A line's candidates for a digit all in one box leave the rest of that box.
pub(super) fn claiming(c: &Candidates) -> Option<Step> {
    finders::locked(c, &CLAIMING, |l| Some(locked(Technique::Claiming, l)))
}

fn locked(technique: Technique, l: &Locked) -> Step {
    let pattern = Finding::Intersection {
        digit: l.digit,
        from: l.from,
        to: l.to,
    };
    Step::removing(technique, pattern, l.removed, l.digit)
}

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

/// `k` open cells of a house (rows, columns, boxes; combinations in lexicographic order) whose candidates make `k`
/// digits, which then leave the house's other cells.
pub(super) fn naked(c: &Candidates, k: usize) -> Option<Step> {
    finders::subset(c, Subsets::Naked, k, House::all(), Order::Lex, |s| {
        let mut eliminations = Eliminations::NONE;
        for d in s.digits.iter() {
            eliminations.add(c.places(d) & s.house.cells() & !s.cells, d);
        }
        subset_step(NAKED[k - 2], s, eliminations)
    })
}

/// `k` digits of a house (rows, columns, boxes; combinations in lexicographic order) whose places make `k` cells,
/// which then lose their other candidates.
pub(super) fn hidden(c: &Candidates, k: usize) -> Option<Step> {
    finders::subset(c, Subsets::Hidden, k, House::all(), Order::Lex, |s| {
        let mut eliminations = Eliminations::NONE;
        for d in (!s.digits).iter() {
            eliminations.add(c.places(d) & s.cells, d);
        }
        subset_step(HIDDEN[k - 2], s, eliminations)
    })
}

fn subset_step(technique: Technique, s: &Subset, eliminations: Eliminations) -> Option<Step> {
    (!eliminations.is_empty()).then_some(Step {
        technique,
        pattern: Finding::Subset {
            house: s.house,
            cells: s.cells,
            digits: s.digits,
        },
        placement: None,
        eliminations,
    })
}

/// X-Wing, Swordfish, Jellyfish (`n` 2 to 4): digits 1..9; for each, rows as base first, then columns; base lines
/// in lexicographic order.
pub(super) fn fish(c: &Candidates, n: usize) -> Option<Step> {
    const SCAN: FishScan = FishScan {
        bases: [HouseKind::Row, HouseKind::Col],
        digits: DigitSet::ALL,
        lines_first: false,
        order: Order::Lex,
    };
    let technique = match n {
        2 => Technique::XWing,
        3 => Technique::Swordfish,
        _ => Technique::Jellyfish,
    };
    let f = finders::first_fish(c, n, &SCAN)?;
    let pattern = Finding::Fish {
        digit: f.digit,
        base: f.base,
        cover: f.cover,
    };
    Some(Step::removing(technique, pattern, f.removed, f.digit))
}

/// XY-Wing (XYZ-Wing when `xyz`): pivots in cell order; pincer pairs in cell order.
pub(super) fn wing(c: &Candidates, xyz: bool) -> Option<Step> {
    let w = finders::first_wing(c, xyz)?;
    let [a, b] = w.pincers;
    let pattern = Finding::Wing {
        pivot: w.pivot,
        pivot_digits: c.get(w.pivot),
        pincers: w.pincers,
        pincer_digits: [c.get(a), c.get(b)],
        digit: w.digit,
    };
    let technique = if xyz {
        Technique::XyzWing
    } else {
        Technique::XyWing
    };
    Some(Step::removing(technique, pattern, w.removed, w.digit))
}
