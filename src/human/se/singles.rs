//! SE's singles: the hidden single (1.0 for the last empty cell of a house, 1.2 in a box, 1.5 in a line) and the
//! naked single (2.3), scanned in SE's order.

use super::super::candidates::Candidates;
use super::{cells_of, region, SeStep, SeTechnique, Tenths, BOX_COL_ROW};
use crate::human::house::HouseSet;

/// SE's hidden single: first the houses with one empty cell (1.0), then the others (1.2 in a box, 1.5 in a
/// line); each pass scans boxes, columns, rows, houses ascending, digits ascending.
pub(super) fn hidden_single(c: &Candidates) -> Option<SeStep> {
    let open = c.open();
    for alone in [true, false] {
        for t in BOX_COL_ROW {
            for i in 0..9 {
                let h = region(t, i);
                let cells = cells_of(h);
                let empty = (open & cells).len();
                if (empty == 1) != alone || empty == 0 {
                    continue;
                }
                for d in 1..=9u8 {
                    let at = c.places(d) & cells;
                    if at.len() == 1 {
                        let cell = at.first().expect("one cell");
                        let mut s = SeStep::new(SeTechnique::HiddenSingle);
                        s.rating = Tenths(match (alone, t) {
                            (true, _) => 10,
                            (false, 0) => 12,
                            _ => 15,
                        });
                        s.placement = Some((cell, d));
                        s.houses = HouseSet::single(h);
                        s.digits.insert(d);
                        return Some(s);
                    }
                }
            }
        }
    }
    None
}

/// SE's naked single (2.3): the lowest cell with one candidate.
pub(super) fn naked_single(c: &Candidates) -> Option<SeStep> {
    c.open().iter().find_map(|cell| {
        let m = c.get(cell);
        (m.len() == 1).then(|| {
            let mut s = SeStep::new(SeTechnique::NakedSingle);
            s.placement = Some((cell, m.first().expect("one digit")));
            s.cells.insert(cell);
            s.digits = m;
            s
        })
    })
}
