//! Wings: three cells whose candidates force a digit `z` into one of two pincers. XY-Wing: pivot `xy`, pincers
//! `xz` and `yz`, each seeing the pivot; `z` leaves every cell that sees both pincers. XYZ-Wing: pivot `xyz`,
//! pincers `xz` and `yz`; `z` leaves every cell that sees all three.

use super::super::candidates::Candidates;
use super::super::house::{DigitSet, PEERS};
use super::super::step::{Finding, Step};
use super::super::technique::Technique;

/// Pivots in cell order; pincer pairs in cell order.
pub(super) fn xy_wing(c: &Candidates) -> Option<Step> {
    wing(c, Technique::XyWing, 2)
}

/// Pivots in cell order; pincer pairs in cell order.
pub(super) fn xyz_wing(c: &Candidates) -> Option<Step> {
    wing(c, Technique::XyzWing, 3)
}

fn wing(c: &Candidates, technique: Technique, pivot_size: u32) -> Option<Step> {
    for pivot in c.open().iter() {
        let pm = c.get(pivot);
        if pm.len() != pivot_size {
            continue;
        }
        // Bivalue peers sharing exactly one digit with an XY pivot, or lying inside an XYZ pivot.
        let (mut pincers, mut n) = ([0usize; 20], 0);
        for p in (PEERS[pivot] & c.open()).iter() {
            let m = c.get(p);
            let fits = if pivot_size == 2 {
                (m.0 & pm.0).count_ones() == 1
            } else {
                m.0 & !pm.0 == 0
            };
            if m.len() == 2 && fits {
                pincers[n] = p;
                n += 1;
            }
        }
        let pincers = &pincers[..n];
        for (i, &a) in pincers.iter().enumerate() {
            for &b in &pincers[i + 1..] {
                let (ma, mb) = (c.get(a), c.get(b));
                if ma == mb {
                    continue;
                }
                let z = if pivot_size == 2 {
                    // a = xz, b = yz with x != y and z outside the pivot.
                    let (xa, xb) = (ma.0 & pm.0, mb.0 & pm.0);
                    let (za, zb) = (ma.0 & !pm.0, mb.0 & !pm.0);
                    if xa == xb || za != zb {
                        continue;
                    }
                    za
                } else {
                    // a = xz, b = yz covering the pivot xyz.
                    if (ma.0 | mb.0) != pm.0 {
                        continue;
                    }
                    ma.0 & mb.0
                };
                let digit = DigitSet(z).first()?;
                let mut seen = PEERS[a] & PEERS[b];
                if pivot_size == 3 {
                    seen &= PEERS[pivot];
                }
                let gone = c.places(digit) & seen;
                if gone.is_empty() {
                    continue;
                }
                let pattern = Finding::Wing {
                    pivot,
                    pivot_digits: pm,
                    pincers: [a, b],
                    pincer_digits: [ma, mb],
                    digit,
                };
                return Some(Step::removing(technique, pattern, gone, digit));
            }
        }
    }
    None
}
