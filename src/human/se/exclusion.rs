//! SE's Aligned Pair Exclusion (6.2): two cells, and the cells of two candidates that see both; a pair of digits
//! for the two cells is excluded when the cells see each other and the digits are equal, or when it would empty
//! one of those bivalue cells; a candidate of either cell in no remaining pair is removed.

use super::super::candidates::Candidates;
use super::{SeStep, SeTechnique};
use crate::human::house::{CellSet, PEERS};

/// SE's `AlignedPairExclusion`: base cells ascending with two candidates or more, none of whose peers has exactly
/// one candidate, and at least one peer with two; pairs of them in SE's order ((0,1), (0,2), (1,2), (0,3), ...)
/// with two common bivalue peers or more.
pub(super) fn find(c: &Candidates) -> Option<SeStep> {
    let mut base: Vec<(usize, CellSet)> = Vec::new();
    for cell in c.open().iter() {
        if c.get(cell).len() < 2 {
            continue;
        }
        let peers = PEERS[cell] & c.open();
        let mut excluders = CellSet::EMPTY;
        let mut single = false;
        for p in peers.iter() {
            match c.get(p).len() {
                1 => single = true,
                2 => excluders.insert(p),
                _ => {}
            }
        }
        if !single && !excluders.is_empty() {
            base.push((cell, excluders));
        }
    }
    for n2 in 1..base.len() {
        for n1 in 0..n2 {
            let (a, ea) = base[n1];
            let (b, eb) = base[n2];
            let common = ea & eb;
            if common.len() < 2 {
                continue;
            }
            let (va, vb) = (c.get(a), c.get(b));
            let see = PEERS[a].contains(b);
            let mut allowed_a = 0u16;
            let mut allowed_b = 0u16;
            for pa in va.iter() {
                for pb in vb.iter() {
                    if pa == pb && see {
                        continue;
                    }
                    let pair = (1u16 << (pa - 1)) | (1u16 << (pb - 1));
                    if common.iter().any(|x| c.get(x).0 & !pair == 0) {
                        continue;
                    }
                    allowed_a |= 1 << (pa - 1);
                    allowed_b |= 1 << (pb - 1);
                }
            }
            let mut s = SeStep::new(SeTechnique::AlignedPairExclusion);
            for (cell, v, allowed) in [(a, va, allowed_a), (b, vb, allowed_b)] {
                for d in v.iter().filter(|d| allowed >> (d - 1) & 1 == 0) {
                    s.eliminations.add(CellSet::single(cell), d);
                }
            }
            if !s.eliminations.is_empty() {
                s.cells = CellSet::single(a) | CellSet::single(b) | common;
                return Some(s);
            }
        }
    }
    None
}
