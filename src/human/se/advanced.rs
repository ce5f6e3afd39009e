//! SE's "advanced" implications of a dynamic chain (`Chaining.getAdvancedPotentials`, used from Dynamic Forcing
//! Chains (+) up): when a chain has nothing left to follow, the lower techniques are looked for on the chain's
//! working grid (the candidates it has removed so far), and what they eliminate is "off" too, resting on the
//! chain's eliminations that made the technique possible (SE's `getRuleParents`).
//!
//! At nesting level 1 (SE's default, `FCPlus` 0) the techniques are, in this order, pointing/claiming, hidden
//! pairs, naked pairs and X-Wings; only the first of them with any such hint counts, with all its hints. SE keeps
//! a hint's eliminations in a Java `HashMap` keyed by cell (hash = the cell's index), so they come out by bucket
//! (index modulo the table size), ties in insertion order: [`hash_order`] does the same, since the order decides
//! which chain reaches a potential first, hence the chain lengths and the ratings.
//!
//! At nesting level 2 (SE's "(+ Forcing Chains)") SE's Forcing Chains & Cycles producer comes fifth, asked when
//! the four above find nothing: all its hints on the working grid, sorted as SE sorts them and without repeats
//! (same eliminations), each resting on the chain's eliminations its links needed. At nesting level 3 ("(+
//! Multiple Forcing Chains)") SE's Multiple Forcing Chains come sixth, asked when the five above find nothing,
//! taken the same way ([`super::multiple`]). Their hints depend on the working grid alone and the chains meet
//! the same grids again and again, so the process remembers those of the grids met lately ([`memo`]).
//!
//! At nesting level 4 ("(+ Dynamic Forcing Chains)", [`find_dynamic`]) the four techniques of level 1 come first;
//! when they find nothing, SE's level 4 replaces the static forcing chains of levels 2 and 3 by a whole dynamic
//! forcing chains producer of its own nesting level (0 to 3, SE's `nestingLimit`) run on the working grid: all its
//! hints, in its sorted order without repeats, each resting on the chain's eliminations its chains' links needed,
//! as at levels 2 and 3 ([`super::dynamic::nested_hints`]).

use super::super::candidates::Candidates;
use super::super::house::HOUSE_LIST;
use super::super::house::{CellSet, DigitSet};
use super::chains::{NestedHint, View};
use super::memo::{self, Producer};
use super::{cells_of, count9, region, two_or_more, BOX_COL_ROW};

/// The candidates of a chain's working grid, with the grid it started from.
pub(super) struct Grids<'a> {
    /// Candidates now (bit `d - 1` for digit `d`; 0 for a cell with a value).
    pub now: &'a [u16; 81],
    /// Where each digit can go now.
    pub places: &'a [CellSet; 9],
    /// Candidates when the chain started.
    pub source: &'a [u16; 81],
    /// The cells without a value (SE's empty cells).
    pub open: CellSet,
    /// How many cells hold each digit.
    pub placed: &'a [u8; 9],
}

/// The eliminations found: each is a candidate key (`cell * 9 + digit - 1`) with the keys of the "off" potentials
/// it rests on, `parents[start..start + len]`.
///
/// At nesting level 2 an elimination may come from a forcing chain or cycle: `chain[i]` is then the index in
/// `chains` of that chain (its complexity and identity, SE's `FullChain`), else [`NO_CHAIN`].
#[derive(Default)]
pub(super) struct Offs {
    pub offs: Vec<(u16, u32, u32)>,
    pub parents: Vec<u16>,
    pub chain: Vec<u32>,
    pub chains: Vec<(usize, Vec<u16>)>,
}

/// The elimination of `Offs::offs` does not come from a nested chain.
pub(super) const NO_CHAIN: u32 = u32::MAX;

fn key(cell: usize, digit: u8) -> u16 {
    (cell * 9 + digit as usize - 1) as u16
}

impl Offs {
    fn clear(&mut self) {
        self.offs.clear();
        self.parents.clear();
        self.chain.clear();
        self.chains.clear();
    }

    /// Adds one hint: its eliminations `(cell, digits)` in insertion order (put in `HashMap` order here), resting
    /// on `parents`; nothing when it rests on nothing (SE: the rule holds without the chain).
    fn hint(&mut self, removes: &mut [(u8, DigitSet)], parents: &[u16]) {
        if parents.is_empty() || removes.is_empty() {
            return;
        }
        hash_order(removes);
        self.push(removes, parents, NO_CHAIN);
    }

    /// Adds the eliminations `removes`, in their order, each resting on `parents` and coming from `chain`.
    fn push(&mut self, removes: &[(u8, DigitSet)], parents: &[u16], chain: u32) {
        let start = self.parents.len() as u32;
        self.parents.extend_from_slice(parents);
        for &(cell, digits) in removes {
            for d in digits.iter() {
                self.offs
                    .push((key(cell as usize, d), start, parents.len() as u32));
                self.chain.push(chain);
            }
        }
    }
}

/// Orders cells as a Java `HashMap<Cell, _>` filled in this order iterates them: by `index & (capacity - 1)`
/// (capacity 16, doubled past three quarters full), stably.
pub(super) fn hash_order(cells: &mut [(u8, DigitSet)]) {
    let mut cap = 16;
    while cells.len() * 4 > cap * 3 {
        cap *= 2;
    }
    cells.sort_by_key(|&(cell, _)| cell as usize & (cap - 1));
}

/// SE's advanced "off" potentials at nesting level `level` (1 to 3): those of the first technique with any.
///
/// A technique's hint counts only when it rests on some of the chain's eliminations, so the four of level 1 look
/// only where the chain removed candidates ([`gone_places`]): the same hints in the same order, found without
/// scanning the houses the chain left alone.
pub(super) fn find(g: &Grids, out: &mut Offs, level: u8) {
    out.clear();
    let gone = gone_places(g);
    locking(g, &gone, out);
    if out.offs.is_empty() {
        hidden_pairs(g, &gone, out);
    }
    if out.offs.is_empty() {
        naked_pairs(g, &gone, out);
    }
    if out.offs.is_empty() {
        x_wings(g, &gone, out);
    }
    if level >= 2 && out.offs.is_empty() {
        let (links, roots) = resting(g, &gone);
        if !(links || roots || cfg!(debug_assertions)) {
            return;
        }
        let view = view(g);
        nested_producer(g, out, &view, Producer::Chains, links);
        if level >= 3 && out.offs.is_empty() {
            nested_producer(g, out, &view, Producer::Multiple, roots);
        }
    }
}

/// The hints of the nested static `producer` (the chains of level 2 or the multiple forcing chains of level 3)
/// on the working grid `view` ([`memo::hints`] remembers them), taken as [`nested`] takes them. A hint resting on none of
/// the chain's eliminations is dropped there, so where none can (`may_rest` false, from [`resting`]) they are not
/// looked for; debug builds look and check.
fn nested_producer(g: &Grids, out: &mut Offs, view: &View, producer: Producer, may_rest: bool) {
    let hints_of = match producer {
        Producer::Chains => super::chains::nested_hints,
        Producer::Multiple => super::multiple::nested_hints,
        Producer::Dynamic(_) => unreachable!("a static producer"),
    };
    if may_rest {
        let hints = memo::hints(producer, &view.mask, || hints_of(view));
        nested(g, out, &hints);
    } else if cfg!(debug_assertions) {
        let before = out.offs.len();
        nested(g, out, &hints_of(view));
        debug_assert_eq!(
            out.offs.len(),
            before,
            "a skipped nested hint rests on the chain's eliminations"
        );
    }
}

/// SE's advanced "off" potentials at nesting level 4: those of the first of level 1's techniques with any, else
/// those of the nested dynamic producer of `kind` on the working grid `working` builds (the same candidates as
/// `g`), remembered as those of levels 2 and 3 are ([`memo::hints`]).
pub(super) fn find_dynamic(
    g: &Grids,
    out: &mut Offs,
    working: impl FnOnce() -> Candidates,
    kind: super::dynamic::Kind,
) {
    find(g, out, 1);
    if out.offs.is_empty() {
        let w = working();
        // The whole grid: the open cells' candidates, and the placed cells' values (bit 15 set).
        let mut grid: [u16; 81] = std::array::from_fn(|cell| w.get(cell).0);
        for d in 1..=9u8 {
            for cell in w.placed(d).iter() {
                grid[cell] = 1 << 15 | u16::from(d);
            }
        }
        let hints = memo::hints(Producer::Dynamic(kind), &grid, || {
            super::dynamic::nested_hints(&w, kind)
        });
        nested(g, out, &hints);
    }
}

/// The working grid as the nested producers see it.
fn view(g: &Grids) -> View {
    View {
        mask: *g.now,
        places: *g.places,
    }
}

/// The hints of a nested producer on the working grid (SE's `Chaining(false, false, false, 0)`, Forcing Chains
/// & Cycles, from level 2; `Chaining(true, false, false, 0)`, Multiple Forcing Chains, from level 3;
/// `Chaining(true, true, false, n)`, Dynamic Forcing Chains of nesting level `n`, at level 4), in SE's order,
/// each resting on the candidates the chain removed that its links needed (SE's
/// `ChainingHint.getRuleParents`: for an "on" potential implied in a cell, the cell's removed candidates; in a
/// house, the digit's removed places in that house).
fn nested(g: &Grids, out: &mut Offs, hints: &[NestedHint]) {
    let mut parents: Vec<u16> = Vec::new();
    for h in hints {
        parents.clear();
        for &(cell, digit, cause) in &h.causes {
            let c = cell as usize;
            let mut add = |k: u16| {
                if !parents.contains(&k) {
                    parents.push(k);
                }
            };
            if cause == super::chains::CAUSE_NAKED {
                (1..=9u8)
                    .filter(|&d| gone(g, c, d))
                    .for_each(|d| add(key(c, d)));
            } else {
                let t = (cause - super::chains::CAUSE_REGION) as usize;
                gone_keys(g, cells_of(super::house_of(t, c)), digit).for_each(add);
            }
        }
        if parents.is_empty() {
            continue;
        }
        let id = out.chains.len() as u32;
        out.chains.push((h.complexity, h.identity.clone()));
        out.push(&h.removes, &parents, id);
    }
}

/// Digit `d` was a candidate of `cell` when the chain started and is no longer.
fn gone(g: &Grids, cell: usize, d: u8) -> bool {
    let bit = 1 << (d - 1);
    g.source[cell] & bit != 0 && g.now[cell] & bit == 0
}

/// The keys of digit `d` in those of `cells` where it is [`gone`]: a rule's parents.
fn gone_keys<'g>(g: &'g Grids<'_>, cells: CellSet, d: u8) -> impl Iterator<Item = u16> + 'g {
    cells
        .iter()
        .filter(move |&cell| gone(g, cell, d))
        .map(move |cell| key(cell, d))
}

/// The lists a rule fills for each of its hints, kept from one hint to the next.
#[derive(Default)]
struct Scratch {
    removes: Vec<(u8, DigitSet)>,
    parents: Vec<u16>,
}

/// The hint of a locked digit `d`: its places in house `r1` all lie in house `r2`, so it goes from the rest of
/// `r2`, resting on its places gone from the rest of `r1`.
fn locked(g: &Grids, d: u8, r1: CellSet, r2: CellSet, s: &mut Scratch, out: &mut Offs) {
    let places = g.places[d as usize - 1];
    s.removes.clear();
    s.removes.extend(
        (places & r2 & !r1)
            .iter()
            .map(|cell| (cell as u8, DigitSet::single(d))),
    );
    s.parents.clear();
    s.parents.extend(gone_keys(g, r1 & !r2, d));
    out.hint(&mut s.removes, &s.parents);
}

/// The hint of a hidden pair, the digits of mask `m` in `cells` alone of house `hc`: the cells' other digits go,
/// resting on the pair's digits gone from the rest of the house.
fn hidden_pair(g: &Grids, hc: CellSet, cells: CellSet, m: u16, s: &mut Scratch, out: &mut Offs) {
    s.removes.clear();
    for cell in cells.iter() {
        let others = DigitSet(g.now[cell] & !m);
        if !others.is_empty() {
            s.removes.push((cell as u8, others));
        }
    }
    s.parents.clear();
    for cell in (hc & !cells).iter() {
        for d in DigitSet(m).iter() {
            if g.source[cell] >> (d - 1) & 1 != 0 {
                s.parents.push(key(cell, d));
            }
        }
    }
    out.hint(&mut s.removes, &s.parents);
}

/// The hint of a naked pair, `cells` of house `hc` with the two digits `common` alone: these go from the rest of
/// the house, resting on the cells' other digits gone.
fn naked_pair(
    g: &Grids,
    hc: CellSet,
    cells: CellSet,
    common: u16,
    s: &mut Scratch,
    out: &mut Offs,
) {
    s.removes.clear();
    for cell in (hc & !cells).iter() {
        let r = DigitSet(g.now[cell] & common);
        if !r.is_empty() {
            s.removes.push((cell as u8, r));
        }
    }
    s.parents.clear();
    for cell in cells.iter() {
        for d in DigitSet(g.source[cell] & !common).iter() {
            s.parents.push(key(cell, d));
        }
    }
    out.hint(&mut s.removes, &s.parents);
}

/// The hint of an X-Wing of digit `d`: base lines `(type, mask)` whose places lie in cover lines `(type, mask)`;
/// it goes from the rest of the cover lines, resting on its places gone from the rest of the base lines.
fn x_wing(
    g: &Grids,
    base: (usize, u16),
    cover: (usize, u16),
    d: u8,
    s: &mut Scratch,
    out: &mut Offs,
) {
    let bases = lines(base.0, base.1);
    let covers = lines(cover.0, cover.1);
    s.removes.clear();
    // Cover line after cover line, each in its order.
    for j in (0..9).filter(|&j| cover.1 >> j & 1 != 0) {
        let line = g.places[d as usize - 1] & cells_of(region(cover.0, j)) & !bases;
        s.removes
            .extend(line.iter().map(|cell| (cell as u8, DigitSet::single(d))));
    }
    s.parents.clear();
    s.parents.extend(gone_keys(g, bases & !covers, d));
    out.hint(&mut s.removes, &s.parents);
}

/// Where each digit was a candidate when the chain started and is no longer (`[d - 1]` for digit `d`): the
/// candidates the chain removed, on which the level-1 hints rest. A hint resting on none of them is dropped
/// ([`Offs::hint`]), so a technique need only look where they lie.
fn gone_places(g: &Grids) -> [CellSet; 9] {
    let mut gone = [CellSet::EMPTY; 9];
    for cell in 0..81 {
        for d in DigitSet(g.source[cell] & !g.now[cell]).iter() {
            gone[d as usize - 1].insert(cell);
        }
    }
    gone
}

/// Whether a nested producer's "on" potential could rest on some of the chain's eliminations (`gone`, from
/// [`gone_places`]), as [`nested`] reads its cause: `(links, roots)`.
///
/// `links`: a cell of two candidates that lost some (a link inside the cell: the cell's removed candidates), or a
/// digit of two places in a house that lost some there (a link inside the house: the digit's removed places in
/// it). The static chains' "on" potentials all come from such links ([`super::chains::nested_hints`] gives no
/// cause for an assumption), so without any of them none of their hints rests on the chain's eliminations.
///
/// `roots`: the same with two or more candidates or places, since a Multiple Forcing Chain's assumptions also
/// rest on their cell's removed candidates (three or more left) or their digit's removed places in their house
/// (two or more left) ([`super::multiple::nested_hints`]).
fn resting(g: &Grids, gone: &[CellSet; 9]) -> (bool, bool) {
    let (mut links, mut roots) = (false, false);
    for cell in 0..81 {
        if g.source[cell] & !g.now[cell] != 0 {
            let n = count9(g.now[cell]);
            links |= n == 2;
            roots |= n >= 2;
        }
    }
    for (&places, &lost) in g.places.iter().zip(gone) {
        // A link is a root too: nothing more to learn.
        if links {
            break;
        }
        for h in 0..27 {
            let hc = cells_of(super::House(h));
            if (lost & hc).is_empty() {
                continue;
            }
            let here = places & hc;
            links |= exactly_two(here);
            roots |= two_or_more(here.0);
        }
    }
    (links, roots)
}

/// Whether a set of cells holds exactly two.
#[inline]
fn exactly_two(s: CellSet) -> bool {
    let rest = s.0 & s.0.wrapping_sub(1);
    rest != 0 && rest & rest.wrapping_sub(1) == 0
}

/// SE's `Locking(false)`: pointing and claiming, box/column, box/row, column/box, row/box. A hint's parents are
/// the digit's [`gone_places`] in the first house, so only houses holding some are looked at.
fn locking(g: &Grids, gone: &[CellSet; 9], out: &mut Offs) {
    let mut s = Scratch::default();
    for (t1, t2) in [(0, 2), (0, 1), (2, 0), (1, 0)] {
        for d in 1..=9u8 {
            let lost = gone[d as usize - 1];
            if lost.is_empty() {
                continue;
            }
            let places = g.places[d as usize - 1];
            for i1 in 0..9 {
                let r1 = cells_of(region(t1, i1));
                if (lost & r1).is_empty() {
                    continue;
                }
                let pos = places & r1;
                if !two_or_more(pos.0) {
                    continue;
                }
                // SE tries every house of type `t2`; the places, two or more, lie in one at most: that of the
                // first place, if in any.
                let first = pos.first().expect("two places or more");
                let r2 = cells_of(super::house_of(t2, first));
                if pos & r2 != pos || (places & r2 & !r1).is_empty() {
                    continue;
                }
                locked(g, d, r1, r2, &mut s, out);
            }
        }
    }
}

/// The places of digit `d` in the house of SE's type `t` number `i`, as positions in the house (what
/// [`super::positions`] gives, read off the bits directly).
fn digit_positions(g: &Grids, t: usize, i: usize, d: u8) -> u16 {
    let p = g.places[d as usize - 1].0;
    let bits = |shift: usize, width: u32| (p >> shift) as u16 & ((1 << width) - 1);
    match t {
        // A row: nine bits in a row.
        1 => bits(9 * i, 9),
        // A box: three rows of three.
        0 => {
            let first = i / 3 * 27 + i % 3 * 3;
            bits(first, 3) | bits(first + 9, 3) << 3 | bits(first + 18, 3) << 6
        }
        // A column: one bit a row.
        _ => (0..9).fold(0, |m, r| m | bits(9 * r + i, 1) << r),
    }
}

/// SE's `HiddenSet(2, false)`: boxes, columns, rows; houses with more than four empty cells. A hint's parents
/// are the pair's [`gone_places`] in the house, so only pairs with some are looked at.
fn hidden_pairs(g: &Grids, gone: &[CellSet; 9], out: &mut Offs) {
    let mut s = Scratch::default();
    let any_gone = gone.iter().fold(CellSet::EMPTY, |s, &c| s | c);
    for t in BOX_COL_ROW {
        for i in 0..9 {
            let h = region(t, i);
            let hc = cells_of(h);
            if (any_gone & hc).is_empty() {
                continue;
            }
            // The digits with two places in the house, and those of them the chain removed from some of it.
            let (mut two, mut lost) = (0u16, 0u16);
            for (d, (&places, &lost_d)) in g.places.iter().zip(gone).enumerate() {
                if exactly_two(places & hc) {
                    two |= 1 << d;
                    if !(lost_d & hc).is_empty() {
                        lost |= 1 << d;
                    }
                }
            }
            if lost == 0 || two & (two - 1) == 0 || (g.open & hc).len() <= 4 {
                continue;
            }
            for m in pairs_in(two) {
                // Two digits' places, two or more each, whose union is two: the same two.
                if lost & m == 0 {
                    continue;
                }
                let (a, b) = pair(m);
                let cells = g.places[a] & hc;
                if g.places[b] & hc != cells {
                    continue;
                }
                hidden_pair(g, hc, cells, m, &mut s, out);
            }
        }
    }
}

/// SE's `NakedSet(2)`: boxes, columns, rows; houses with four empty cells or more. A hint's parents are the
/// pair's cells' [`gone_places`], so only houses with such a cell of two candidates are looked at.
fn naked_pairs(g: &Grids, gone: &[CellSet; 9], out: &mut Offs) {
    let mut s = Scratch::default();
    let any_gone = gone.iter().fold(CellSet::EMPTY, |s, &c| s | c);
    // The cells of two candidates.
    let mut two = CellSet::EMPTY;
    for cell in 0..81 {
        if count9(g.now[cell]) == 2 {
            two.insert(cell);
        }
    }
    for t in BOX_COL_ROW {
        for i in 0..9 {
            let h = region(t, i);
            let hc = cells_of(h);
            if (two & hc & any_gone).is_empty()
                || !two_or_more((two & hc).0)
                || (g.open & hc).len() < 4
            {
                continue;
            }
            let list = &HOUSE_LIST[h.0 as usize];
            for m in pairs_in(super::positions(h, two & hc)) {
                // Two cells' candidates, two or more each, whose union is two: the same two.
                let (a, b) = pair(m);
                let (ca, cb) = (list[a] as usize, list[b] as usize);
                if g.now[cb] != g.now[ca] {
                    continue;
                }
                let common = g.now[ca];
                let cells = super::cells_at(h, m);
                naked_pair(g, hc, cells, common, &mut s, out);
            }
        }
    }
}

/// The two-bit masks within the 9-bit mask `set`, in [`super::combinations`]`(2)`'s order.
fn pairs_in(set: u16) -> impl Iterator<Item = u16> {
    super::combinations(2).filter(move |&m| m & set == m)
}

/// The two positions of a two-bit mask, lower first.
fn pair(m: u16) -> (usize, usize) {
    let a = m.trailing_zeros() as usize;
    (a, (m & (m - 1)).trailing_zeros() as usize)
}

/// The cells of the lines of type `t` (1 rows, 2 columns) in mask `m`.
fn lines(t: usize, m: u16) -> CellSet {
    (0..9)
        .filter(|&i| m >> i & 1 != 0)
        .fold(CellSet::EMPTY, |s, i| s | cells_of(region(t, i)))
}

/// SE's `Fisherman(2)`: base columns then base rows; digits placed five times or fewer. A hint's parents are
/// the digit's [`gone_places`] in the base lines, so only digits with some are looked at.
fn x_wings(g: &Grids, gone: &[CellSet; 9], out: &mut Offs) {
    let mut s = Scratch::default();
    for (base, cover) in [(2, 1), (1, 2)] {
        // `two[i]`: the digits (bit `d - 1`) of two places in base line `i`.
        let mut two = [0u16; 9];
        for (d, (&places, lost)) in g.places.iter().zip(gone).enumerate() {
            if g.placed[d] + 4 > 9 || lost.is_empty() {
                continue;
            }
            for (i, two) in two.iter_mut().enumerate() {
                if exactly_two(places & cells_of(region(base, i))) {
                    *two |= 1 << d;
                }
            }
        }
        let some = (0..9).filter(|&i| two[i] != 0).fold(0, |s, i| s | 1 << i);
        for m in pairs_in(some) {
            let (a, b) = pair(m);
            for d in DigitSet(two[a] & two[b]).iter() {
                // Two lines' places, two or more each, whose union is two: the same two.
                let common = digit_positions(g, base, a, d);
                if digit_positions(g, base, b, d) != common {
                    continue;
                }
                x_wing(g, (base, m), (cover, common), d, &mut s, out);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digit_positions_are_the_houses_positions() {
        // Places scattered over the grid, a different pattern for each digit.
        let places: [CellSet; 9] = std::array::from_fn(|d| {
            let mut s = CellSet::EMPTY;
            for cell in (0..81).filter(|c| (c * 7 + d * 13) % (d + 2) != 0) {
                s.insert(cell);
            }
            s
        });
        let g = Grids {
            now: &[0; 81],
            places: &places,
            source: &[0; 81],
            open: CellSet::ALL,
            placed: &[0; 9],
        };
        for t in 0..3 {
            for i in 0..9 {
                for d in 1..=9u8 {
                    let h = region(t, i);
                    let want = super::super::positions(h, places[d as usize - 1] & cells_of(h));
                    assert_eq!(
                        digit_positions(&g, t, i, d),
                        want,
                        "type {t}, house {i}, digit {d}"
                    );
                }
            }
        }
    }

    #[test]
    fn eliminations_come_in_java_hash_map_order() {
        let d = DigitSet::single(1);
        // Capacity 16: by index modulo 16, ties in insertion order.
        let mut cells: Vec<(u8, DigitSet)> = [20u8, 4, 36, 17, 1].iter().map(|&c| (c, d)).collect();
        hash_order(&mut cells);
        let order: Vec<u8> = cells.iter().map(|c| c.0).collect();
        assert_eq!(order, [17, 1, 20, 4, 36]);
        // Thirteen cells: capacity 32.
        let mut cells: Vec<(u8, DigitSet)> = (0..13u8).map(|i| (40 - i, d)).collect();
        hash_order(&mut cells);
        let order: Vec<u8> = cells.iter().map(|c| c.0).collect();
        assert_eq!(order, [32, 33, 34, 35, 36, 37, 38, 39, 40, 28, 29, 30, 31]);
    }

    /// SE's `Locking(false)` as first written, every house scanned (the reference of [`locking`]).
    fn plain_locking(g: &Grids, out: &mut Offs) {
        let mut s = Scratch::default();
        for (t1, t2) in [(0, 2), (0, 1), (2, 0), (1, 0)] {
            for d in 1..=9u8 {
                let places = g.places[d as usize - 1];
                for i1 in 0..9 {
                    let r1 = cells_of(region(t1, i1));
                    let pos = places & r1;
                    if pos.len() < 2 {
                        continue;
                    }
                    // SE tries every house of type `t2`; the places, two or more, lie in one at most: that of the
                    // first place, if in any.
                    let first = pos.first().expect("two places or more");
                    let r2 = cells_of(super::super::house_of(t2, first));
                    if pos & r2 != pos || (places & r2 & !r1).is_empty() {
                        continue;
                    }
                    locked(g, d, r1, r2, &mut s, out);
                }
            }
        }
    }

    /// SE's `HiddenSet(2, false)` as first written, every pair of digits of every house scanned.
    fn plain_hidden_pairs(g: &Grids, out: &mut Offs) {
        let mut s = Scratch::default();
        for t in BOX_COL_ROW {
            for i in 0..9 {
                let h = region(t, i);
                let hc = cells_of(h);
                if (g.open & hc).len() <= 4 {
                    continue;
                }
                let at: [u16; 9] = std::array::from_fn(|d| digit_positions(g, t, i, d as u8 + 1));
                for m in super::super::combinations(2) {
                    // Two digits' places, two or more each, whose union is two: the same two.
                    let (a, b) = pair(m);
                    let common = at[a];
                    if common.count_ones() != 2 || at[b] != common {
                        continue;
                    }
                    let cells = super::super::cells_at(h, common);
                    hidden_pair(g, hc, cells, m, &mut s, out);
                }
            }
        }
    }

    /// SE's `NakedSet(2)` as first written, every pair of cells of every house scanned.
    fn plain_naked_pairs(g: &Grids, out: &mut Offs) {
        let mut s = Scratch::default();
        for t in BOX_COL_ROW {
            for i in 0..9 {
                let h = region(t, i);
                let hc = cells_of(h);
                if (g.open & hc).len() < 4 {
                    continue;
                }
                let list = &HOUSE_LIST[h.0 as usize];
                for m in super::super::combinations(2) {
                    // Two cells' candidates, two or more each, whose union is two: the same two.
                    let (a, b) = pair(m);
                    let common = g.now[list[a] as usize];
                    if common.count_ones() != 2 || g.now[list[b] as usize] != common {
                        continue;
                    }
                    let cells = super::super::cells_at(h, m);
                    naked_pair(g, hc, cells, common, &mut s, out);
                }
            }
        }
    }

    /// SE's `Fisherman(2)` as first written, every pair of lines and digit scanned.
    fn plain_x_wings(g: &Grids, out: &mut Offs) {
        let mut s = Scratch::default();
        for (base, cover) in [(2, 1), (1, 2)] {
            // `at[d - 1][i]`: the places of digit `d` in base line `i`.
            let at: [[u16; 9]; 9] = std::array::from_fn(|d| {
                std::array::from_fn(|i| digit_positions(g, base, i, d as u8 + 1))
            });
            for m in super::super::combinations(2) {
                let (a, b) = pair(m);
                for d in 1..=9u8 {
                    if g.placed[d as usize - 1] + 4 > 9 {
                        continue;
                    }
                    // Two lines' places, two or more each, whose union is two: the same two.
                    let common = at[d as usize - 1][a];
                    if common.count_ones() != 2 || at[d as usize - 1][b] != common {
                        continue;
                    }
                    x_wing(g, (base, m), (cover, common), d, &mut s, out);
                }
            }
        }
    }

    /// A working grid to test the rules on: `(source, now, open, placed)` of [`Grids`].
    type Sample = ([u16; 81], [u16; 81], CellSet, [u8; 9]);

    /// Random working grids, `(source, now, open, placed)`: cells of two to six candidates (a few with a value),
    /// about one candidate in four removed by the "chain", each digit placed a random number of times.
    fn random_grids(n: usize) -> Vec<Sample> {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        (0..n)
            .map(|_| {
                let (mut source, mut open) = ([0u16; 81], CellSet::EMPTY);
                for (cell, mask) in source.iter_mut().enumerate() {
                    if next() % 8 == 0 {
                        continue;
                    }
                    open.insert(cell);
                    let want = 2 + next() % 5;
                    while u64::from(mask.count_ones()) < want {
                        *mask |= 1 << (next() % 9);
                    }
                }
                let mut now = source;
                for mask in now.iter_mut() {
                    for d in 0..9 {
                        if next() % 4 == 0 {
                            *mask &= !(1 << d);
                        }
                    }
                }
                let placed = std::array::from_fn(|_| (next() % 10) as u8);
                (source, now, open, placed)
            })
            .collect()
    }

    #[test]
    fn level1_rules_find_what_the_plain_scans_find() {
        type Rule = fn(&Grids, &[CellSet; 9], &mut Offs);
        type Plain = fn(&Grids, &mut Offs);
        let rules: [(&str, Rule, Plain); 4] = [
            ("locking", locking, plain_locking),
            ("hidden pairs", hidden_pairs, plain_hidden_pairs),
            ("naked pairs", naked_pairs, plain_naked_pairs),
            ("X-Wings", x_wings, plain_x_wings),
        ];
        let mut fired = [0usize; 4];
        for (source, now, open, placed) in random_grids(2000) {
            let places: [CellSet; 9] = std::array::from_fn(|d| {
                let mut s = CellSet::EMPTY;
                (0..81)
                    .filter(|&c| now[c] >> d & 1 != 0)
                    .for_each(|c| s.insert(c));
                s
            });
            let g = Grids {
                now: &now,
                places: &places,
                source: &source,
                open,
                placed: &placed,
            };
            let gone = gone_places(&g);
            for (i, (name, rule, plain)) in rules.iter().enumerate() {
                let (mut fast, mut want) = (Offs::default(), Offs::default());
                rule(&g, &gone, &mut fast);
                plain(&g, &mut want);
                assert_eq!(fast.offs, want.offs, "{name}");
                assert_eq!(fast.parents, want.parents, "{name}");
                fired[i] += usize::from(!want.offs.is_empty());
            }
        }
        // Each rule found hints on many of the grids, so the comparison tested something.
        assert!(
            fired.iter().all(|&n| n >= 100),
            "grids with hints per rule: {fired:?}"
        );
    }
}
