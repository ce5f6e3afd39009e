//! SE's unique rectangles and loops (types 1 to 4, with lkSudoku's fix that serate applies by default): 4.5 for a
//! rectangle, 4.6 for a loop of 6 cells, 4.7 for 8, 5.0 for 10 or more; type 3 adds 0.1 per digit of its naked set
//! beyond the first, or per cell of its hidden set beyond the first.
//!
//! SE collects every hint of this producer, sorts them by rating then type (a stable sort: ties keep the order they
//! were found in) and applies the first; this module finds them in SE's order and does the same.

use super::super::candidates::Candidates;
use super::{cells_of, house_of, positions, SeStep, SeTechnique, Tenths};
use crate::human::house::{CellSet, DigitSet, House, HOUSE_LIST, PEERS};
use crate::human::step::Eliminations;

/// What tells two hints apart for SE's duplicate check (`UniqueLoopHint.equals` and its type 3 overrides).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Type1,
    Type2,
    /// Naked set: region, digits, other cells.
    Type3Naked(House, DigitSet, CellSet),
    /// Hidden set: region, digits, cells (positions) left after the pair.
    Type3Hidden(House, DigitSet, u16),
    Type4,
}

/// One hint as SE builds it.
#[derive(Clone, Copy)]
struct Hint {
    kind: Kind,
    /// The loop's cells and length.
    cells: CellSet,
    len: usize,
    rating: u8,
    digits: DigitSet,
    eliminations: Eliminations,
}

impl Hint {
    fn ty(&self) -> u8 {
        match self.kind {
            Kind::Type1 => 1,
            Kind::Type2 => 2,
            Kind::Type3Naked(..) | Kind::Type3Hidden(..) => 3,
            Kind::Type4 => 4,
        }
    }

    /// SE's duplicate test: same type (class), same loop (length and cells), same type 3 details.
    fn same(&self, o: &Hint) -> bool {
        let class = |h: &Hint| match h.kind {
            Kind::Type3Naked(..) => 5,
            Kind::Type3Hidden(..) => 6,
            _ => h.ty(),
        };
        if class(self) != class(o) || self.len != o.len || self.cells != o.cells {
            return false;
        }
        match (self.kind, o.kind) {
            (Kind::Type3Naked(..), _) | (Kind::Type3Hidden(..), _) => self.kind == o.kind,
            _ => true,
        }
    }
}

/// SE's base rating of a loop of `len` cells.
fn base_rating(len: usize) -> u8 {
    match len {
        10.. => 50,
        8..=9 => 47,
        6..=7 => 46,
        _ => 45,
    }
}

/// Index of `cell` in its house `h`'s cell list.
fn index_in(h: House, cell: usize) -> usize {
    HOUSE_LIST[h.0 as usize]
        .iter()
        .position(|&x| x as usize == cell)
        .expect("cell in house")
}

/// SE's unique loop producer: the hint with the lowest rating (then type) among all it finds.
pub(super) fn find(c: &Candidates) -> Option<SeStep> {
    let mut hints: Vec<Hint> = Vec::new();
    let mut loops: Vec<Vec<usize>> = Vec::new();
    let mut path: Vec<usize> = Vec::with_capacity(32);
    for start in c.open().iter() {
        let pot = c.get(start);
        if pot.len() != 2 {
            continue;
        }
        let mut it = pot.iter();
        let (v1, v2) = (it.next().expect("two"), it.next().expect("two"));
        loops.clear();
        search(
            c,
            start,
            v1,
            v2,
            &mut path,
            2,
            DigitSet::EMPTY,
            None,
            &mut loops,
        );
        for lp in &loops {
            if !is_valid(lp) {
                continue;
            }
            let found = loop_hints(c, lp, v1, v2);
            for h in found {
                if !h.eliminations.is_empty() && !hints.iter().any(|x| x.same(&h)) {
                    hints.push(h);
                }
            }
        }
    }
    hints.sort_by_key(|h| (h.rating, h.ty()));
    let h = hints.first()?;
    let t = if h.len == 4 {
        SeTechnique::UniqueRectangle(h.ty())
    } else {
        SeTechnique::UniqueLoop(h.ty())
    };
    let mut s = SeStep::of(t);
    s.pattern.rating = Tenths(h.rating);
    s.eliminations = h.eliminations;
    s.pattern.cells = h.cells;
    s.pattern.digits = h.digits;
    Some(s)
}

/// The hints of loop `lp` on the digits `v1`, `v2` (its extra cells decide the types tried), before the test that
/// they remove something.
fn loop_hints(c: &Candidates, lp: &[usize], v1: u8, v2: u8) -> Vec<Hint> {
    let cells = lp
        .iter()
        .fold(CellSet::EMPTY, |s, &x| s | CellSet::single(x));
    let extra: Vec<usize> = lp.iter().copied().filter(|&x| c.get(x).len() > 2).collect();
    let base = base_rating(lp.len());
    let mut found: Vec<Hint> = Vec::new();
    let pair = DigitSet::single(v1) | DigitSet::single(v2);
    let mk = |kind, rating, eliminations: Eliminations, digits| Hint {
        kind,
        cells,
        len: lp.len(),
        rating,
        digits,
        eliminations,
    };
    match extra.len() {
        1 => {
            let mut e = Eliminations::NONE;
            e.add(CellSet::single(extra[0]), v1);
            e.add(CellSet::single(extra[0]), v2);
            found.push(mk(Kind::Type1, base, e, pair));
        }
        2 => {
            let (c1, c2) = (extra[0], extra[1]);
            let others = (c.get(c1) | c.get(c2)) & !pair;
            if others.len() == 1 {
                found.push(type2(
                    c,
                    &extra,
                    pair,
                    mk(Kind::Type2, base, Eliminations::NONE, pair),
                ));
            } else if others.len() >= 2 {
                type3(c, c1, c2, v1, v2, others, &mut |kind, add, e, digits| {
                    found.push(mk(kind, base + add, e, digits));
                });
            }
            if let Some(h) = type4(
                c,
                c1,
                c2,
                v1,
                v2,
                mk(Kind::Type4, base, Eliminations::NONE, pair),
            ) {
                found.push(h);
            }
        }
        0 => {}
        _ => found.push(type2(
            c,
            &extra,
            pair,
            mk(Kind::Type2, base, Eliminations::NONE, pair),
        )),
    }
    found
}

/// SE's `checkForLoops` (lkSudoku's version): depth first from `cell` through houses of a type other than the last
/// one's, cells holding both digits; at most two cells with more candidates, or any number sharing one extra digit.
#[allow(clippy::too_many_arguments)]
fn search(
    c: &Candidates,
    cell: usize,
    v1: u8,
    v2: u8,
    path: &mut Vec<usize>,
    allowed: i32,
    ex: DigitSet,
    last: Option<usize>,
    out: &mut Vec<Vec<usize>>,
) {
    path.push(cell);
    for t in 0..3 {
        if Some(t) == last {
            continue;
        }
        // Only cells holding both digits matter (the loop's start holds them too), in the house's order.
        let both = c.places(v1) & c.places(v2) & cells_of(house_of(t, cell));
        for next in both.iter() {
            if next == path[0] && path.len() >= 4 {
                out.push(path.clone());
            } else if !path.contains(&next) {
                let pot = c.get(next);
                {
                    let mut ex2 = ex | pot;
                    ex2.remove(v1);
                    ex2.remove(v2);
                    if pot.len() == 2 || ex2.len() == 1 || allowed > 0 {
                        let a = allowed - i32::from(pot.len() > 2);
                        search(c, next, v1, v2, path, a, ex2, Some(t), out);
                    }
                }
            }
        }
    }
    path.pop();
}

/// SE's `isValidLoop`: every house met by the cells at even positions is met exactly once among them, likewise at
/// odd positions, and both sets of houses are the same.
fn is_valid(lp: &[usize]) -> bool {
    let mut seen = [0u32; 2];
    for (i, &cell) in lp.iter().enumerate() {
        for t in 0..3 {
            let bit = 1u32 << house_of(t, cell).0;
            if seen[i % 2] & bit != 0 {
                return false;
            }
            seen[i % 2] |= bit;
        }
    }
    seen[0] == seen[1]
}

/// Type 2: the extra digit of the first extra cell leaves the cells that see every extra cell.
fn type2(c: &Candidates, extra: &[usize], pair: DigitSet, mut h: Hint) -> Hint {
    let value = (c.get(extra[0]) & !pair).first().expect("an extra digit");
    let mut seen = CellSet::ALL;
    let mut ex = CellSet::EMPTY;
    for &x in extra {
        seen &= PEERS[x];
        ex.insert(x);
    }
    h.eliminations.add(seen & !ex & c.places(value), value);
    h
}

/// Type 4: where the two extra cells share a house in which `v1` (or else `v2`) has no other place, the other
/// digit leaves both (the last such house of the types box, row, column counts).
fn type4(c: &Candidates, c1: usize, c2: usize, v1: u8, v2: u8, mut h: Hint) -> Option<Hint> {
    let (mut r1, mut r2) = (false, false);
    let both = CellSet::single(c1) | CellSet::single(c2);
    for t in 0..3 {
        let house = house_of(t, c1);
        if house != house_of(t, c2) {
            continue;
        }
        let rest = cells_of(house) & !both;
        if (rest & c.places(v1)).is_empty() {
            r1 = true;
        }
        if (rest & c.places(v2)).is_empty() {
            r2 = true;
        }
    }
    let remove = if r1 {
        v2
    } else if r2 {
        v1
    } else {
        return None;
    };
    h.eliminations.add(both, remove);
    Some(h)
}

/// The `k`-subsets of `0..n` as masks, in increasing value (SE's `Permutations(k, n)`).
fn subsets(k: u32, n: u32) -> impl Iterator<Item = u16> {
    (0u16..1 << n).filter(move |m| m.count_ones() == k)
}

/// Type 3 (lkSudoku's version): for sizes 2 to 7 and each house shared by the extra cells `c1`, `c2`, a naked set
/// of `c1`'s extra digits with other cells of the house, then a hidden set of `v1`, `v2` and other digits, `c2`
/// left out. `emit(kind, rating increment, eliminations, digits)` receives each hint that removes something.
#[allow(clippy::too_many_arguments)]
fn type3(
    c: &Candidates,
    c1: usize,
    c2: usize,
    v1: u8,
    v2: u8,
    extra: DigitSet,
    emit: &mut dyn FnMut(Kind, u8, Eliminations, DigitSet),
) {
    for degree in 2..=7u32 {
        for t in 0..3 {
            let house = house_of(t, c1);
            if house != house_of(t, c2) {
                continue;
            }
            let hc = cells_of(house);
            let empty = (c.open() & hc).len();
            if degree * 2 <= empty && degree >= extra.len() {
                naked_sets(c, (c1, c2), extra, house, degree, emit);
            }
            if degree * 2 < empty {
                hidden_sets(c, (c1, c2), (v1, v2), extra, house, degree, emit);
            }
        }
    }
}

/// Type 3's naked sets of `degree` digits in `house` (shared by the extra cells `c1`, `c2`): `c1` with other cells
/// of the house, `c2` left out.
fn naked_sets(
    c: &Candidates,
    (c1, c2): (usize, usize),
    extra: DigitSet,
    house: House,
    degree: u32,
    emit: &mut dyn FnMut(Kind, u8, Eliminations, DigitSet),
) {
    let (i1, i2) = (index_in(house, c1), index_in(house, c2));
    let list = &HOUSE_LIST[house.0 as usize];
    for m in subsets(degree, 9) {
        if m >> i1 & 1 == 0 || m >> i2 & 1 != 0 {
            continue;
        }
        // SE: the naked set (c1 and c2's common extra digits and the other cells' candidates) has
        // `degree` digits, and so do the chosen cells (c1 counting with its extra digits), each holding
        // two or more.
        let mut naked = extra & c.get(c1) & c.get(c2);
        let mut union = extra;
        let mut others = CellSet::EMPTY;
        let mut all_two = extra.len() >= 2;
        for i in (0..9).filter(|&i| m >> i & 1 != 0 && i != i1) {
            let cell = list[i] as usize;
            let pot = c.get(cell);
            others.insert(cell);
            naked |= pot;
            union |= pot;
            all_two &= pot.len() >= 2;
        }
        if naked.len() != degree || !all_two || union.len() != degree {
            continue;
        }
        let mut e = Eliminations::NONE;
        for d in union.iter() {
            let mut victims = CellSet::ALL;
            for cell in (others | CellSet::single(c1) | CellSet::single(c2)).iter() {
                if c.get(cell).contains(d) {
                    victims &= PEERS[cell];
                }
            }
            let hit = victims & c.places(d);
            if !hit.is_empty() {
                e.add(hit, d);
            }
        }
        if !e.is_empty() {
            emit(
                Kind::Type3Naked(house, union, others),
                degree as u8 - 1,
                e,
                union,
            );
        }
    }
}

/// Type 3's hidden sets of `degree` digits in `house` (shared by the extra cells `c1`, `c2`): `v1`, `v2` and
/// other digits that are not extra, `c2` left out.
fn hidden_sets(
    c: &Candidates,
    (c1, c2): (usize, usize),
    (v1, v2): (u8, u8),
    extra: DigitSet,
    house: House,
    degree: u32,
    emit: &mut dyn FnMut(Kind, u8, Eliminations, DigitSet),
) {
    let (i1, i2) = (index_in(house, c1), index_in(house, c2));
    let list = &HOUSE_LIST[house.0 as usize];
    let hc = cells_of(house);
    let rem: Vec<u8> = (1..=9u8)
        .filter(|&d| d != v1 && d != v2 && !extra.contains(d))
        .collect();
    if degree - 2 <= rem.len() as u32 {
        for p in subsets(degree - 2, rem.len() as u32) {
            let mut values = DigitSet::single(v1) | DigitSet::single(v2);
            for (i, &d) in rem.iter().enumerate() {
                if p >> i & 1 != 0 {
                    values.insert(d);
                }
            }
            let mut common = 0u16;
            let mut ok = true;
            for d in values.iter() {
                let pos = positions(house, c.places(d) & hc) & !(1 << i2);
                if pos == 0 {
                    ok = false;
                    break;
                }
                common |= pos;
            }
            if !ok || common.count_ones() != degree {
                continue;
            }
            let rest = common & !(1 << i1) & !(1 << i2);
            let mut e = Eliminations::NONE;
            for i in (0..9).filter(|i| rest >> i & 1 != 0) {
                let cell = list[i] as usize;
                for d in (c.get(cell) & !values).iter() {
                    e.add(CellSet::single(cell), d);
                }
            }
            if !e.is_empty() {
                let add = rest.count_ones().saturating_sub(1) as u8;
                emit(Kind::Type3Hidden(house, values, rest), add, e, values);
            }
        }
    }
}
