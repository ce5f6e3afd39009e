//! SE's subsets: naked pairs/triplets/quads (3.0, 3.6, 5.0), hidden pairs/triplets/quads (3.4, 4.0, 5.4) and the direct hidden
//! pair/triplet (2.0, 2.5), which counts only when the hidden set leaves another digit one place in its house.

use super::super::candidates::Candidates;
use super::{
    cells_at, cells_of, combinations, count9, region, two_or_more, SeStep, SeTechnique, BOX_COL_ROW,
};
use crate::human::house::{DigitSet, HouseSet, HOUSE_LIST};

/// SE's `NakedSet(degree)`: houses with at least `2 * degree` empty cells (boxes, columns, rows), cell positions in
/// combination order; every chosen cell holds two candidates or more and together they hold `degree` digits;
/// kept when the digits leave other cells of the house.
pub(super) fn naked(c: &Candidates, degree: u32) -> Option<SeStep> {
    let open = c.open();
    for t in BOX_COL_ROW {
        for i in 0..9 {
            let h = region(t, i);
            let hc = cells_of(h);
            if (open & hc).len() < 2 * degree {
                continue;
            }
            // Candidates per position; only positions with two candidates or more can be in the set.
            let list = &HOUSE_LIST[h.0 as usize];
            let cand: [u16; 9] = std::array::from_fn(|i| c.get(list[i] as usize).0);
            let eligible = (0..9)
                .filter(|&i| two_or_more(cand[i].into()))
                .fold(0u16, |m, i| m | 1 << i);
            for m in combinations(degree) {
                if m & !eligible != 0 {
                    continue;
                }
                let union = DigitSet(
                    (0..9)
                        .filter(|i| m >> i & 1 != 0)
                        .fold(0, |u, i| u | cand[i]),
                );
                if count9(union.0) != degree {
                    continue;
                }
                let cells = cells_at(h, m);
                let mut s = SeStep::new(match degree {
                    2 => SeTechnique::NakedPair,
                    3 => SeTechnique::NakedTriplet,
                    _ => SeTechnique::NakedQuad,
                });
                for d in union.iter() {
                    let removed = c.places(d) & hc & !cells;
                    if !removed.is_empty() {
                        s.eliminations.add(removed, d);
                    }
                }
                if s.eliminations.is_empty() {
                    continue;
                }
                s.houses = HouseSet::single(h);
                s.cells = cells;
                s.digits = union;
                return Some(s);
            }
        }
    }
    None
}

/// SE's `HiddenSet(degree, direct)`: houses with more than `2 * degree` empty cells (more than `degree` when
/// direct), digit combinations in order; every chosen digit has two places or more and together they have
/// `degree` places. Indirect: kept when the cells lose other candidates. Direct: kept when another digit with two
/// places or more has exactly one left outside the set's cells (the lowest such digit is placed there).
pub(super) fn hidden(c: &Candidates, degree: u32, direct: bool) -> Option<SeStep> {
    let open = c.open();
    for t in BOX_COL_ROW {
        for i in 0..9 {
            let h = region(t, i);
            let hc = cells_of(h);
            let empty = (open & hc).len();
            if !(empty > 2 * degree || (direct && empty > degree)) {
                continue;
            }
            // Each digit's positions in the house.
            let mut places = [0u16; 9];
            for (pos, &cell) in HOUSE_LIST[h.0 as usize].iter().enumerate() {
                for d in c.get(cell as usize).iter() {
                    places[d as usize - 1] |= 1 << pos;
                }
            }
            let count = places.map(count9);
            // Digits with fewer than two places cannot be in the set (SE's common-tuple search rejects them).
            let mut eligible = [0usize; 9];
            let mut e = 0;
            for v in (0..9).filter(|&v| count[v] >= 2) {
                eligible[e] = v;
                e += 1;
            }
            // The combinations of the eligible digits in increasing order: the combinations of the first `e`
            // bits (the first ones in `combinations`' order), each bit `j` standing for the `j`th eligible digit
            // (a map that keeps the order).
            for picks in combinations(degree).take_while(|&m| m < 1 << e) {
                let mut m = 0u16;
                let mut union = 0u16;
                for (j, &v) in eligible[..e].iter().enumerate() {
                    if picks >> j & 1 != 0 {
                        m |= 1 << v;
                        union |= places[v];
                    }
                }
                if count9(union) != degree {
                    continue;
                }
                let cells = cells_at(h, union);
                let digits = DigitSet(m);
                let (direct_t, hidden_t) = match degree {
                    2 => (SeTechnique::DirectHiddenPair, SeTechnique::HiddenPair),
                    3 => (SeTechnique::DirectHiddenTriplet, SeTechnique::HiddenTriplet),
                    _ => (SeTechnique::HiddenQuad, SeTechnique::HiddenQuad),
                };
                let mut s = SeStep::new(if direct { direct_t } else { hidden_t });
                s.houses = HouseSet::single(h);
                s.cells = cells;
                s.digits = digits;
                if direct {
                    for v in (0..9).filter(|v| m >> v & 1 == 0) {
                        if count[v] > 1 && count9(places[v] & !union) == 1 {
                            let cell = cells_at(h, places[v] & !union).first().expect("one cell");
                            s.placement = Some((cell, v as u8 + 1));
                            return Some(s);
                        }
                    }
                } else {
                    for d in (1..=9u8).filter(|&d| !digits.contains(d)) {
                        let removed = c.places(d) & cells;
                        if !removed.is_empty() {
                            s.eliminations.add(removed, d);
                        }
                    }
                    if s.eliminations.is_empty() {
                        continue;
                    }
                    return Some(s);
                }
            }
        }
    }
    None
}
