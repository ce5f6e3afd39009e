//! SE's Aligned Pair Exclusion (6.2) and Aligned Triplet Exclusion (7.5). The pair: two cells, and the cells of two candidates that see both; a pair of digits
//! for the two cells is excluded when the cells see each other and the digits are equal, or when it would empty
//! one of those bivalue cells; a candidate of either cell in no remaining pair is removed.

use super::super::candidates::Candidates;
use super::{count9, two_or_more, SeStep, SeTechnique};
use crate::human::house::{CellSet, DigitSet, PEERS};

/// SE's `AlignedPairExclusion`: base cells ascending with two candidates or more, none of whose peers has exactly
/// one candidate, and at least one peer with two; pairs of them in SE's order ((0,1), (0,2), (1,2), (0,3), ...)
/// with two common bivalue peers or more.
pub(super) fn find(c: &Candidates) -> Option<SeStep> {
    let mut base: Vec<(usize, CellSet)> = Vec::new();
    for cell in c.open().iter() {
        if count9(c.get(cell).0) < 2 {
            continue;
        }
        let peers = PEERS[cell] & c.open();
        let mut excluders = CellSet::EMPTY;
        let mut single = false;
        for p in peers.iter() {
            match count9(c.get(p).0) {
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
            if !two_or_more(common.0) {
                continue;
            }
            let (va, vb) = (c.get(a), c.get(b));
            let see = PEERS[a].contains(b);
            let mut masks = [0u16; 20];
            let mut n = 0;
            for x in common.iter() {
                masks[n] = c.get(x).0;
                n += 1;
            }
            let mut allowed_a = 0u16;
            let mut allowed_b = 0u16;
            for pa in va.iter() {
                let ba = 1u16 << (pa - 1);
                // The second digits excluded with `pa`: the same digit when the cells see each other, and each
                // excluder's candidate other than `pa` (all when it has no other).
                let mut banned = if see { ba } else { 0 };
                for &m in &masks[..n] {
                    let r = m & !ba;
                    if !two_or_more(r.into()) {
                        banned |= if r == 0 { 0x1FF } else { r };
                    }
                }
                let ok = vb.0 & !banned;
                if ok != 0 {
                    allowed_a |= ba;
                    allowed_b |= ok;
                }
            }
            let mut s = SeStep::of(SeTechnique::AlignedPairExclusion);
            for (cell, v, allowed) in [(a, va, allowed_a), (b, vb, allowed_b)] {
                for d in v.iter().filter(|d| allowed >> (d - 1) & 1 == 0) {
                    s.eliminations.add(CellSet::single(cell), d);
                }
            }
            if !s.eliminations.is_empty() {
                s.pattern.cells = CellSet::single(a) | CellSet::single(b) | common;
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
        if count9(c.get(cell).0) < 2 {
            continue;
        }
        let mut single = false;
        for p in (PEERS[cell] & c.open()).iter() {
            match count9(c.get(p).0) {
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
    let mut pos = [usize::MAX; 81];
    for (i, &cell) in base.iter().enumerate() {
        pos[cell] = i;
    }
    for n2 in 1..base.len() {
        for n1 in 0..n2 {
            let (a, b) = (base[n1], base[n2]);
            // Every triplet's common excluders are among the pair's: fewer than two, no triplet of this pair.
            let common_ab = excl[a] & excl[b];
            if !two_or_more(common_ab.0) {
                continue;
            }
            let pair = CellSet::single(a) | CellSet::single(b);
            // The first cell's excluders in order, then the second's.
            let first = excl[a] & is_base & !pair;
            let second = excl[b] & is_base & !pair & !excl[a];
            for t in first.iter().chain(second.iter()) {
                let common = common_ab & excl[t];
                if !two_or_more(common.0) {
                    continue;
                }
                if seen_before(&excl, &pos, [a, b, t]) {
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

/// Whether the triplet `[a, b, t]` (`a` before `b` among the base cells) was met before in the scan of
/// [`find_triplets`], as another pair and third cell: it had the same common excluders, hence the same (no)
/// eliminations, since what an exclusion removes does not depend on the order of its cells. By base order
/// `i < j < k`, the triplet is met as pair `(i, j)` with third `k` first, then as `(i, k)` with `j`, then as
/// `(j, k)` with `i`, each time the third is an excluder of one of the pair.
fn seen_before(excl: &[CellSet; 81], pos: &[usize; 81], [a, b, t]: [usize; 3]) -> bool {
    let third = |x: usize, y: usize, z: usize| (excl[x] | excl[y]).contains(z);
    if pos[t] > pos[b] {
        // Pair (i, j), third k: the first time.
        false
    } else if pos[t] > pos[a] {
        // Pair (i, k) = (a, b), third j = t: met as (i, j) = (a, t) with third b?
        third(a, t, b)
    } else {
        // Pair (j, k) = (a, b), third i = t: met as (t, a) with b, or as (t, b) with a?
        third(t, a, b) || third(t, b, a)
    }
}

/// The eliminations of an aligned exclusion on `cells` with excluders `common`, as a step when there are any.
fn exclude(c: &Candidates, cells: [usize; 3], common: CellSet) -> Option<SeStep> {
    let v: [DigitSet; 3] = [c.get(cells[0]), c.get(cells[1]), c.get(cells[2])];
    // An excluder with a digit none of the cells holds excludes nothing.
    let held = v[0].0 | v[1].0 | v[2].0;
    let mut masks = [0u16; 20];
    let mut n = 0;
    for x in common.iter() {
        let m = c.get(x).0;
        if m & !held == 0 {
            masks[n] = m;
            n += 1;
        }
    }
    let masks = &masks[..n];
    let see = |i: usize, j: usize| PEERS[cells[i]].contains(cells[j]);
    let (s01, s02, s12) = (see(0, 1), see(0, 2), see(1, 2));
    let mut allowed = [0u16; 3];
    let unless = |sees: bool, bits: u16| if sees { !bits } else { !0 };
    for p0 in v[0].iter() {
        let b0 = 1u16 << (p0 - 1);
        // Given the first digit, each excluder keeps its other candidates: none left, the first digit is excluded;
        // one, that digit is excluded in either other cell; two, a second and third digit that are those two.
        let mut single = 0u16;
        let mut partner = [0u16; 9];
        let mut dead = false;
        for &m in masks {
            let r = m & !b0;
            match count9(r) {
                0 => dead = true,
                1 => single |= r,
                2 => {
                    let (x, y) = (r.trailing_zeros(), 15 - r.leading_zeros());
                    partner[x as usize] |= 1 << y;
                    partner[y as usize] |= 1 << x;
                }
                _ => {}
            }
        }
        if dead {
            continue;
        }
        let seconds = v[1].0 & !single & unless(s01, b0);
        let thirds = v[2].0 & !single & unless(s02, b0);
        let mut rest = seconds;
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            let b1 = 1u16 << i;
            rest &= rest - 1;
            // A combination that can allow nothing new is not looked at.
            if allowed[0] & b0 != 0 && allowed[1] & b1 != 0 && allowed[2] == v[2].0 {
                continue;
            }
            let third = thirds & !partner[i] & unless(s12, b1);
            if third != 0 {
                allowed[0] |= b0;
                allowed[1] |= b1;
                allowed[2] |= third;
            }
        }
    }
    let mut s = SeStep::of(SeTechnique::AlignedTripletExclusion);
    for i in 0..3 {
        for d in (v[i] & DigitSet(!allowed[i] & 0x1FF)).iter() {
            s.eliminations.add(CellSet::single(cells[i]), d);
        }
    }
    if s.eliminations.is_empty() {
        return None;
    }
    s.pattern.cells =
        CellSet::single(cells[0]) | CellSet::single(cells[1]) | CellSet::single(cells[2]) | common;
    Some(s)
}
