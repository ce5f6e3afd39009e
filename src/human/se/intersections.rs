//! SE's intersections: pointing (a box's candidates of a digit in one line, 2.6) and claiming (a line's in one box,
//! 2.8), and their direct forms (1.7, 1.9), which count only when the removal leaves the digit one place in
//! another house of the first kind, and then place it there.

use super::super::candidates::Candidates;
use super::{cells_of, region, SeStep, SeTechnique};
use crate::human::house::HouseSet;

/// SE's `Locking` producer: pairs of region types (box, column), (box, row), (column, box), (row, box); for each
/// digit ascending, each first region ascending holding the digit in two places or more, each crossing second
/// region holding all of them. Direct mode then looks for the hidden single the removal would make in another
/// region of the first type crossing the second; indirect mode keeps hints that remove something.
pub(super) fn find(c: &Candidates, direct: bool) -> Option<SeStep> {
    for (t1, t2) in [(0, 2), (0, 1), (2, 0), (1, 0)] {
        for d in 1..=9u8 {
            let places = c.places(d);
            for i1 in 0..9 {
                let r1 = region(t1, i1);
                let p1 = places & cells_of(r1);
                if p1.len() < 2 {
                    continue;
                }
                for i2 in 0..9 {
                    let r2 = region(t2, i2);
                    let c2 = cells_of(r2);
                    if (c2 & cells_of(r1)).is_empty() || !(p1 & !c2).is_empty() {
                        continue;
                    }
                    let pointing = t1 == 0;
                    if direct {
                        for i3 in (0..9).filter(|&i| i != i1) {
                            let r3 = region(t1, i3);
                            let c3 = cells_of(r3);
                            if (c3 & c2).is_empty() {
                                continue;
                            }
                            let p3 = places & c3;
                            if p3.len() < 2 {
                                continue;
                            }
                            let rest = p3 & !c2;
                            if rest.len() == 1 {
                                let mut s = SeStep::new(if pointing {
                                    SeTechnique::DirectPointing
                                } else {
                                    SeTechnique::DirectClaiming
                                });
                                s.placement = Some((rest.first().expect("one cell"), d));
                                s.houses =
                                    HouseSet(HouseSet::single(r1).0 | HouseSet::single(r2).0);
                                s.cells = p1;
                                s.digits.insert(d);
                                return Some(s);
                            }
                        }
                    } else {
                        let removed = places & c2 & !cells_of(r1);
                        if removed.is_empty() {
                            continue;
                        }
                        let t = if pointing {
                            SeTechnique::Pointing
                        } else {
                            SeTechnique::Claiming
                        };
                        let mut s = SeStep::removing(t, removed, d);
                        s.houses = HouseSet(HouseSet::single(r1).0 | HouseSet::single(r2).0);
                        s.cells = p1;
                        return Some(s);
                    }
                }
            }
        }
    }
    None
}
