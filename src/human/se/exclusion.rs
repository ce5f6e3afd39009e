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
            // A third cell `t` needs two of `common_ab` or more among its excluders. Each cell of `common_ab` is
            // open with two or three candidates (an excluder of `a`), and a base cell's excluders are all its open
            // peers with two or three, so `common_ab & excl[t]` is `common_ab & PEERS[t]`: `t` must see two cells
            // of `common_ab` or more. Third cells outside `seeing_two` are exactly those the test below would
            // skip, so leaving them out changes neither the triplets tried nor their order.
            let seeing_two = seeing_two_or_more(common_ab);
            let pair = CellSet::single(a) | CellSet::single(b);
            let thirds = is_base & seeing_two & !pair;
            // The first cell's excluders in order, then the second's.
            let first = excl[a] & thirds;
            let second = excl[b] & thirds & !excl[a];
            for t in first.iter().chain(second.iter()) {
                let common = common_ab & excl[t];
                debug_assert!(two_or_more(common.0));
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

/// The cells that see two cells of `cells` or more.
fn seeing_two_or_more(cells: CellSet) -> CellSet {
    let mut once = CellSet::EMPTY;
    let mut twice = CellSet::EMPTY;
    for x in cells.iter() {
        twice |= once & PEERS[x];
        once |= PEERS[x];
    }
    twice
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

/// The eliminations of an aligned exclusion on `cells` with excluders `common` (each with two or three
/// candidates), as a step when there are any.
fn exclude(c: &Candidates, cells: [usize; 3], common: CellSet) -> Option<SeStep> {
    // What is allowed does not depend on the order of the cells (the rules are the same for each), nor do the
    // step's eliminations and cells: the cells go in order of their number of candidates, fewest first, so that
    // the loops of [`allowed`] over the first two cells' digits are as short as they can be.
    let cells = fewest_first(c, cells);
    let v: [u16; 3] = [c.get(cells[0]).0, c.get(cells[1]).0, c.get(cells[2]).0];
    let ex = Excluders::of(c, common, v[0] | v[1] | v[2]);
    let see = |i: usize, j: usize| PEERS[cells[i]].contains(cells[j]);
    let allowed = allowed(v, &ex, [see(0, 1), see(0, 2), see(1, 2)]);
    let out = [v[0] & !allowed[0], v[1] & !allowed[1], v[2] & !allowed[2]];
    if out == [0; 3] {
        return None;
    }
    let mut s = SeStep::of(SeTechnique::AlignedTripletExclusion);
    for i in 0..3 {
        for d in DigitSet(out[i]).iter() {
            s.eliminations.add(CellSet::single(cells[i]), d);
        }
    }
    s.pattern.cells =
        CellSet::single(cells[0]) | CellSet::single(cells[1]) | CellSet::single(cells[2]) | common;
    Some(s)
}

/// `cells` ordered by their number of candidates, fewest first (ties keep their order).
fn fewest_first(c: &Candidates, mut cells: [usize; 3]) -> [usize; 3] {
    let count = |cell: usize| count9(c.get(cell).0);
    if count(cells[1]) < count(cells[0]) {
        cells.swap(0, 1);
    }
    if count(cells[2]) < count(cells[1]) {
        cells.swap(1, 2);
        if count(cells[1]) < count(cells[0]) {
            cells.swap(0, 1);
        }
    }
    cells
}

/// The excluders that can exclude anything, by what they exclude: an excluder with a digit none of the cells
/// holds excludes nothing and is left out.
struct Excluders {
    /// `pairs[x]` holds each `y` such that some excluder's candidates are the two digits `x + 1` and `y + 1` (a
    /// combination holding both is excluded).
    pairs: [u16; 9],
    /// The candidates of those with three (a combination of exactly those is excluded), `triples[..n3]`.
    triples: [u16; 20],
    n3: usize,
    /// The digits of all of them.
    used: u16,
}

impl Excluders {
    /// The excluders among `common` (each with two or three candidates) whose digits are all in `held`.
    fn of(c: &Candidates, common: CellSet, held: u16) -> Excluders {
        let mut ex = Excluders {
            pairs: [0; 9],
            triples: [0; 20],
            n3: 0,
            used: 0,
        };
        for x in common.iter() {
            let m = c.get(x).0;
            if m & !held != 0 {
                continue;
            }
            ex.used |= m;
            let rest = m & (m - 1);
            if rest & (rest - 1) != 0 {
                ex.triples[ex.n3] = m;
                ex.n3 += 1;
            } else {
                let (x, y) = (m.trailing_zeros() as usize, rest.trailing_zeros() as usize);
                ex.pairs[x] |= 1 << y;
                ex.pairs[y] |= 1 << x;
            }
        }
        ex
    }
}

/// The digits of each of three cells (candidates `v`) that some allowed combination uses: one digit per cell,
/// equal digits only in cells that do not see each other (`sees`: cells 0 and 1, 0 and 2, 1 and 2), no excluder
/// of `ex` left without a candidate.
fn allowed(v: [u16; 3], ex: &Excluders, [s01, s02, s12]: [bool; 3]) -> [u16; 3] {
    let (pairs, triples, used) = (&ex.pairs, &ex.triples[..ex.n3], ex.used);
    let unless = |sees: bool, bits: u16| if sees { !bits } else { !0 };
    let mut allowed = [0u16; 3];
    let mut rest0 = v[0];
    while rest0 != 0 {
        let i0 = rest0.trailing_zeros() as usize;
        let b0 = 1u16 << i0;
        rest0 &= rest0 - 1;
        // Given the first digit, the digits that complete a two-digit excluder with it are out of either other
        // cell, and so is the first digit in a cell that sees the first.
        let seconds = v[1] & !pairs[i0] & unless(s01, b0);
        let thirds = v[2] & !pairs[i0] & unless(s02, b0);
        // A second digit of no excluder completes none: with it, a third digit is out only when it is the same
        // and the two cells see each other. So each of `plain` goes with all of `thirds` but itself (when they
        // see each other): with some of them when `thirds` holds two or more, or one other than itself.
        let plain = seconds & !used;
        if plain != 0 && thirds != 0 {
            if !s12 {
                allowed[0] |= b0;
                allowed[1] |= plain;
                allowed[2] |= thirds;
            } else if thirds & (thirds - 1) != 0 {
                allowed[0] |= b0;
                allowed[1] |= plain;
                // Two second digits or more: each third digit goes with one of them other than itself.
                allowed[2] |= if plain & (plain - 1) != 0 {
                    thirds
                } else {
                    thirds & !plain
                };
            } else if plain & !thirds != 0 {
                allowed[0] |= b0;
                allowed[1] |= plain & !thirds;
                allowed[2] |= thirds;
            }
        }
        let mut rest1 = seconds & used;
        while rest1 != 0 {
            let i1 = rest1.trailing_zeros() as usize;
            let b1 = 1u16 << i1;
            rest1 &= rest1 - 1;
            // A combination that can allow nothing new is not looked at.
            if allowed[0] & b0 != 0 && allowed[1] & b1 != 0 && allowed[2] == v[2] {
                continue;
            }
            // Given the first two digits: out are those completing a two-digit excluder with the second (the
            // first's are out already; the first two complete none, the second being in `seconds`), the second
            // digit when the cells see each other, and the third digit of a three-digit excluder holding the
            // first two when they differ (when they are equal, three digits of a combination are at most two).
            let mut third = thirds & !pairs[i1] & unless(s12, b1);
            let both = b0 | b1;
            for &m in triples {
                let r = m & !both;
                if m & both == both && r & (r - 1) == 0 {
                    third &= !r;
                }
            }
            if third != 0 {
                allowed[0] |= b0;
                allowed[1] |= b1;
                allowed[2] |= third;
            }
        }
    }
    allowed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::rng::SplitMix64;
    use crate::grid::Grid;
    use crate::human::se::next_step;

    /// [`find_triplets`] as its contract reads, without shortcuts: every pair of base cells in SE's order, every
    /// third cell among their excluders (the first's, then the second's) with two common excluders or more, and
    /// every combination of the three cells' digits tried against every common excluder.
    fn reference(c: &Candidates) -> Option<SeStep> {
        let excluders = |cell: usize| {
            let peers = PEERS[cell] & c.open();
            let mut e = CellSet::EMPTY;
            for p in peers.iter() {
                if (2..=3).contains(&c.get(p).len()) {
                    e.insert(p);
                }
            }
            e
        };
        let base: Vec<usize> = c
            .open()
            .iter()
            .filter(|&cell| {
                c.get(cell).len() >= 2
                    && (PEERS[cell] & c.open()).iter().all(|p| c.get(p).len() != 1)
                    && !excluders(cell).is_empty()
            })
            .collect();
        for n2 in 1..base.len() {
            for n1 in 0..n2 {
                let (a, b) = (base[n1], base[n2]);
                let (ea, eb) = (excluders(a), excluders(b));
                let thirds = ea.iter().chain((eb & !ea).iter());
                for t in thirds.filter(|&t| t != a && t != b && base.contains(&t)) {
                    let common = ea & eb & excluders(t);
                    if common.len() >= 2 {
                        if let Some(s) = reference_exclude(c, [a, b, t], common) {
                            return Some(s);
                        }
                    }
                }
            }
        }
        None
    }

    /// The eliminations of an aligned exclusion on `cells` with excluders `common`, by trying every combination.
    fn reference_exclude(c: &Candidates, cells: [usize; 3], common: CellSet) -> Option<SeStep> {
        let v = cells.map(|cell| c.get(cell));
        let mut allowed = [DigitSet::EMPTY; 3];
        for d0 in v[0].iter() {
            for d1 in v[1].iter() {
                for d2 in v[2].iter() {
                    let d = [d0, d1, d2];
                    let clash = (0..3).any(|i| {
                        (i + 1..3).any(|j| d[i] == d[j] && PEERS[cells[i]].contains(cells[j]))
                    });
                    let set = DigitSet::single(d0) | DigitSet::single(d1) | DigitSet::single(d2);
                    let emptied = common.iter().any(|x| c.get(x) & set == c.get(x));
                    if !clash && !emptied {
                        for i in 0..3 {
                            allowed[i].insert(d[i]);
                        }
                    }
                }
            }
        }
        let mut s = SeStep::of(SeTechnique::AlignedTripletExclusion);
        for i in 0..3 {
            for d in v[i].iter().filter(|&d| !allowed[i].contains(d)) {
                s.eliminations.add(CellSet::single(cells[i]), d);
            }
        }
        if s.eliminations.is_empty() {
            return None;
        }
        s.pattern.cells = cells
            .iter()
            .fold(common, |s, &cell| s | CellSet::single(cell));
        Some(s)
    }

    /// The sample's puzzles.
    fn puzzles() -> Vec<Grid> {
        include_str!("../../../data/se_sample.txt")
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .map(|l| l.split_whitespace().next().unwrap().parse().unwrap())
            .collect()
    }

    /// On working grids made from the sample's puzzles by cutting many cells down to a random two or three of
    /// their candidates (a few to one), [`find_triplets`] returns what the reference does, and often a step.
    #[test]
    fn triplets_match_the_reference_on_random_grids() {
        let mut rng = SplitMix64::new(75);
        let (mut tried, mut found) = (0, 0);
        for p in puzzles() {
            for _ in 0..4 {
                let mut c = Candidates::new(&p).unwrap();
                let cut = 20 + rng.below(60);
                for cell in c.open().iter() {
                    if rng.below(100) >= cut {
                        continue;
                    }
                    let keep = match rng.below(20) {
                        0 => 1,
                        1..=10 => 2,
                        _ => 3,
                    };
                    while c.get(cell).len() > keep {
                        let v: Vec<u8> = c.get(cell).iter().collect();
                        c.eliminate(cell, v[rng.below(v.len() as u32) as usize]);
                    }
                }
                let ours = find_triplets(&c);
                assert_eq!(ours, reference(&c), "{}", c.render());
                tried += 1;
                found += usize::from(ours.is_some());
            }
        }
        assert!(found * 10 > tried, "{found} steps in {tried} grids");
    }

    /// Along the sample's first solving paths, [`find_triplets`] returns what the reference does at every step.
    #[test]
    fn triplets_match_the_reference_along_paths() {
        let mut found = 0;
        for p in puzzles().iter().take(60) {
            let mut c = Candidates::new(p).unwrap();
            while let Some(s) = next_step(&c) {
                let ours = find_triplets(&c);
                assert_eq!(ours, reference(&c), "{p}");
                found += usize::from(ours.is_some());
                s.apply(&mut c);
            }
        }
        assert!(found > 0);
    }
}
