//! Wings: three cells whose candidates force a digit `z` into one of two pincers. XY-Wing: pivot `xy`, pincers
//! `xz` and `yz`, each seeing the pivot; `z` leaves every cell that sees both pincers. XYZ-Wing: pivot `xyz`,
//! pincers `xz` and `yz`; `z` leaves every cell that sees all three.

use super::super::candidates::Candidates;
use super::super::house::{CellSet, DigitSet, PEERS};

/// A wing found: its cells, the digit `z` and the cells it leaves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Wing {
    /// The pivot cell.
    pub pivot: usize,
    /// The two pincer cells, ascending.
    pub pincers: [usize; 2],
    /// The digit `z`, common to the pincers.
    pub digit: u8,
    /// The cells `z` leaves (never empty).
    pub removed: CellSet,
}

/// The first XY-Wing (XYZ-Wing when `xyz`) that removes something: pivots ascending, then pincer pairs ascending
/// (lowest first pincer, then lowest second). SE's scan (first pincer among the pivot's peers, then second) finds
/// the same first wing: its conditions are symmetric in the two pincers.
pub(crate) fn first_wing(c: &Candidates, xyz: bool) -> Option<Wing> {
    let pivot_size = if xyz { 3 } else { 2 };
    for pivot in c.open().iter() {
        let pm = c.get(pivot);
        if pm.len() != pivot_size {
            continue;
        }
        // Bivalue peers sharing exactly one digit with an XY pivot, or lying inside an XYZ pivot.
        let (mut pincers, mut n) = ([0usize; 20], 0);
        for p in (PEERS[pivot] & c.open()).iter() {
            let m = c.get(p);
            let fits = if xyz {
                m.0 & !pm.0 == 0
            } else {
                (m.0 & pm.0).count_ones() == 1
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
                let z = if xyz {
                    // a = xz, b = yz covering the pivot xyz.
                    if (ma.0 | mb.0) != pm.0 {
                        continue;
                    }
                    ma.0 & mb.0
                } else {
                    // a = xz, b = yz with x != y and z outside the pivot.
                    let (xa, xb) = (ma.0 & pm.0, mb.0 & pm.0);
                    let (za, zb) = (ma.0 & !pm.0, mb.0 & !pm.0);
                    if xa == xb || za != zb {
                        continue;
                    }
                    za
                };
                let digit = DigitSet(z).first()?;
                let mut seen = PEERS[a] & PEERS[b];
                if xyz {
                    seen &= PEERS[pivot];
                }
                let removed = c.places(digit) & seen;
                if removed.is_empty() {
                    continue;
                }
                return Some(Wing {
                    pivot,
                    pincers: [a, b],
                    digit,
                    removed,
                });
            }
        }
    }
    None
}
