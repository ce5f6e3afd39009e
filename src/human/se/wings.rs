//! SE's XY-Wing (4.2) and XYZ-Wing (4.4), pivots and pincers scanned by ascending cell.

use super::super::candidates::Candidates;
use super::{SeStep, SeTechnique};
use crate::human::house::{CellSet, PEERS};

/// SE's `XYWing(xyz)`: pivots ascending with two candidates (three for XYZ); first pincer among the pivot's peers
/// ascending with two candidates sharing exactly one with the pivot; second pincer among the peers ascending
/// such that the three cells hold three digits, none common to all three (XY) or exactly one (XYZ); kept when z,
/// the pincers' common digit, leaves cells seeing both pincers (and the pivot, for XYZ).
pub(super) fn find(c: &Candidates, xyz: bool) -> Option<SeStep> {
    let size = if xyz { 3 } else { 2 };
    for pivot in c.open().iter() {
        let xy = c.get(pivot);
        if xy.len() != size {
            continue;
        }
        let peers = PEERS[pivot] & c.open();
        for a in peers.iter() {
            let xz = c.get(a);
            if xz.len() != 2 || (xy & !xz).len() != 1 {
                continue;
            }
            for b in peers.iter() {
                let yz = c.get(b);
                if yz.len() != 2 || (xy | xz | yz).len() != 3 {
                    continue;
                }
                let common = (xy & xz & yz).len();
                if common != if xyz { 1 } else { 0 } {
                    continue;
                }
                let z = (xz & yz).first().expect("pincers share z");
                let mut victims = PEERS[a] & PEERS[b];
                if xyz {
                    victims &= PEERS[pivot];
                }
                victims =
                    victims & !CellSet::single(pivot) & !CellSet::single(a) & !CellSet::single(b);
                let removed = victims & c.places(z);
                if removed.is_empty() {
                    continue;
                }
                let t = if xyz {
                    SeTechnique::XYZWing
                } else {
                    SeTechnique::XYWing
                };
                let mut s = SeStep::removing(t, removed, z);
                s.cells = CellSet::single(pivot) | CellSet::single(a) | CellSet::single(b);
                s.digits = xy | xz | yz;
                return Some(s);
            }
        }
    }
    None
}
