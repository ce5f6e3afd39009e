//! SE's Aligned Pair Exclusion (6.2) and Aligned Triplet Exclusion (7.5). The pair: two cells, and the cells of two candidates that see both; a pair of digits
//! for the two cells is excluded when the cells see each other and the digits are equal, or when it would empty
//! one of those bivalue cells; a candidate of either cell in no remaining pair is removed.

use super::super::candidates::Candidates;
use super::{SeStep, SeTechnique};
use crate::human::house::{CellSet, DigitSet, PEERS};

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

/// SE's `AlignedExclusion(3)` (Aligned Triplet Exclusion, 7.5): base cells ascending with two candidates or more,
/// none of whose peers has exactly one candidate, and at least one peer with two or three (its excluders); pairs
/// of base cells in SE's order, then each third cell among their excluders that are base cells (the first cell's
/// excluders in order, then the second's); the three cells need two common excluders or more. A combination of
/// digits is excluded when two cells that see each other get the same digit, or when it holds all of an excluder's
/// candidates.
pub(super) fn find_triplets(c: &Candidates) -> Option<SeStep> {
    let mut base: Vec<usize> = Vec::new();
    let mut excl: [CellSet; 81] = [CellSet::EMPTY; 81];
    let mut is_base = CellSet::EMPTY;
    for cell in c.open().iter() {
        if c.get(cell).len() < 2 {
            continue;
        }
        let mut single = false;
        for p in (PEERS[cell] & c.open()).iter() {
            match c.get(p).len() {
                1 => single = true,
                2 | 3 => {
                    excl[cell].insert(p);
                }
                _ => {}
            }
        }
        if !single && !excl[cell].is_empty() {
            base.push(cell);
            is_base.insert(cell);
        }
    }
    if base.len() < 3 {
        return None;
    }
    let mut twin: Vec<usize> = Vec::with_capacity(40);
    for n2 in 1..base.len() {
        for n1 in 0..n2 {
            let (a, b) = (base[n1], base[n2]);
            // Every triplet's common excluders are among the pair's: fewer than two, no triplet of this pair.
            let common_ab = excl[a] & excl[b];
            if common_ab.len() < 2 {
                continue;
            }
            twin.clear();
            let mut in_twin = CellSet::EMPTY;
            // The first cell's excluders in order, then the second's.
            for x in excl[a].iter().chain(excl[b].iter()) {
                if x != a && x != b && is_base.contains(x) && !in_twin.contains(x) {
                    in_twin.insert(x);
                    twin.push(x);
                }
            }
            for &t in &twin {
                let common = common_ab & excl[t];
                if common.len() < 2 {
                    continue;
                }
                if let Some(s) = exclude(c, [a, b, t], common) {
                    return Some(s);
                }
            }
        }
    }
    None
}

/// The eliminations of an aligned exclusion on `cells` with excluders `common`, as a step when there are any.
fn exclude(c: &Candidates, cells: [usize; 3], common: CellSet) -> Option<SeStep> {
    let mut masks = [0u16; 20];
    let mut n = 0;
    for x in common.iter() {
        masks[n] = c.get(x).0;
        n += 1;
    }
    let masks = &masks[..n];
    let see = |i: usize, j: usize| PEERS[cells[i]].contains(cells[j]);
    let (s01, s02, s12) = (see(0, 1), see(0, 2), see(1, 2));
    let mut allowed = [0u16; 3];
    let v: [DigitSet; 3] = [c.get(cells[0]), c.get(cells[1]), c.get(cells[2])];
    for p0 in v[0].iter() {
        let b0 = 1u16 << (p0 - 1);
        for p1 in v[1].iter() {
            if p0 == p1 && s01 {
                continue;
            }
            let b1 = 1u16 << (p1 - 1);
            // The third digits that would exclude the combination: those the cells seeing the third one hold,
            // and for each excluder, its one candidate the first two digits leave (all when they leave none).
            let mut banned = 0u16;
            if s02 {
                banned |= b0;
            }
            if s12 {
                banned |= b1;
            }
            for &m in masks {
                let rest = m & !(b0 | b1);
                if rest & rest.wrapping_sub(1) == 0 {
                    banned |= if rest == 0 { 0x1FF } else { rest };
                }
            }
            let third = v[2].0 & !banned;
            if third != 0 {
                allowed[0] |= b0;
                allowed[1] |= b1;
                allowed[2] |= third;
            }
        }
    }
    let mut s = SeStep::new(SeTechnique::AlignedTripletExclusion);
    for i in 0..3 {
        for d in (v[i] & DigitSet(!allowed[i] & 0x1FF)).iter() {
            s.eliminations.add(CellSet::single(cells[i]), d);
        }
    }
    if s.eliminations.is_empty() {
        return None;
    }
    s.cells =
        CellSet::single(cells[0]) | CellSet::single(cells[1]) | CellSet::single(cells[2]) | common;
    Some(s)
}
