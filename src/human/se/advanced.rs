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
//! the same grids again and again, so each thread remembers those of the grids met lately ([`memo`]).
//!
//! At nesting level 4 ("(+ Dynamic Forcing Chains)", [`find_dynamic`]) the four techniques of level 1 come first;
//! when they find nothing, SE's level 4 replaces the static forcing chains of levels 2 and 3 by a whole dynamic
//! forcing chains producer of its own nesting level (0 to 3, SE's `nestingLimit`) run on the working grid: all its
//! hints, in its sorted order without repeats, each resting on the chain's eliminations its chains' links needed,
//! as at levels 2 and 3 ([`super::dynamic::nested_hints`]).

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use super::super::candidates::Candidates;
use super::super::house::HOUSE_LIST;
use super::super::house::{CellSet, DigitSet};
use super::chains::{NestedHint, View};
use super::{cells_of, combinations, region, BOX_COL_ROW};

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
pub(super) fn find(g: &Grids, out: &mut Offs, level: u8) {
    out.clear();
    locking(g, out);
    if out.offs.is_empty() {
        hidden_pairs(g, out);
    }
    if out.offs.is_empty() {
        naked_pairs(g, out);
    }
    if out.offs.is_empty() {
        x_wings(g, out);
    }
    if level >= 2 && out.offs.is_empty() {
        let view = view(g);
        let hints = memo(Producer::Chains, &view.mask, || {
            super::chains::nested_hints(&view)
        });
        nested(g, out, &hints);
        if level >= 3 && out.offs.is_empty() {
            let hints = memo(Producer::Multiple, &view.mask, || {
                super::multiple::nested_hints(&view)
            });
            nested(g, out, &hints);
        }
    }
}

/// SE's advanced "off" potentials at nesting level 4: those of the first of level 1's techniques with any, else
/// those of the nested dynamic producer of `kind` on the working grid `working` builds (the same candidates as
/// `g`), remembered as those of levels 2 and 3 are ([`memo`]).
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
        let hints = memo(Producer::Dynamic(kind), &grid, || {
            super::dynamic::nested_hints(&w, kind)
        });
        nested(g, out, &hints);
    }
}

/// A nested producer, as [`memo`] tells them apart.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Producer {
    /// [`super::chains::nested_hints`].
    Chains,
    /// [`super::multiple::nested_hints`].
    Multiple,
    /// [`super::dynamic::nested_hints`] of this kind (level 4).
    Dynamic(super::dynamic::Kind),
}

/// The hints of the nested producers on the working grids met lately, on this thread: the two generations of
/// [`memo`] and how many hints the newer holds.
#[derive(Default)]
struct Memo {
    new: HashMap<MemoKey, Rc<[NestedHint]>>,
    old: HashMap<MemoKey, Rc<[NestedHint]>>,
    hints: usize,
}

/// A producer and the working grid's candidates it ran on (all its hints depend on them; the digits' places
/// follow from them, so they are not part of the key; for [`Producer::Dynamic`], which also reads the placed
/// cells, their values too).
type MemoKey = (Producer, [u16; 81]);

/// How many hints [`Memo::new`] holds before it becomes the older generation (the memo then holds a few tens of
/// megabytes at most).
const MEMO_HINTS: usize = 1 << 16;

thread_local! {
    static MEMO: RefCell<Memo> = RefCell::new(Memo::default());
}

/// The hints of `producer` on the working grid `grid` (`hints_of` finds them), remembered: a nested producer's
/// hints depend on the working grid only, and
/// the dynamic chains meet the same working grids again and again (about two calls in three on the forum's
/// hardest puzzles: the assumptions of one cell and of the next steps of the rating lead to the same grids), so
/// a grid met lately is answered from the memo. Two generations, the newer moved to the older when full, keep
/// the grids met lately within a bounded memory.
fn memo(
    producer: Producer,
    grid: &[u16; 81],
    hints_of: impl FnOnce() -> Vec<NestedHint>,
) -> Rc<[NestedHint]> {
    let k: MemoKey = (producer, *grid);
    let found = MEMO.with(|m| {
        let mut m = m.borrow_mut();
        if let Some(h) = m.new.get(&k) {
            return Some(h.clone());
        }
        let h = m.old.remove(&k)?;
        m.hints += h.len();
        m.new.insert(k, h.clone());
        Some(h)
    });
    if let Some(h) = found {
        return h;
    }
    let hints: Rc<[NestedHint]> = hints_of().into();
    MEMO.with(|m| {
        let mut m = m.borrow_mut();
        if m.hints + hints.len() > MEMO_HINTS {
            m.old = std::mem::take(&mut m.new);
            m.hints = 0;
        }
        m.hints += hints.len();
        m.new.insert(k, hints.clone());
    });
    hints
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

/// SE's `Locking(false)`: pointing and claiming, box/column, box/row, column/box, row/box.
fn locking(g: &Grids, out: &mut Offs) {
    let mut removes = Vec::new();
    let mut parents = Vec::new();
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
                let r2 = cells_of(super::house_of(t2, first));
                if pos & r2 != pos || (places & r2 & !r1).is_empty() {
                    continue;
                }
                removes.clear();
                removes.extend(
                    (places & r2 & !r1)
                        .iter()
                        .map(|cell| (cell as u8, DigitSet::single(d))),
                );
                parents.clear();
                parents.extend(gone_keys(g, r1 & !r2, d));
                out.hint(&mut removes, &parents);
            }
        }
    }
}

/// The places of digit `d` in the house of SE's type `t` number `i`, as positions in the house (what
/// [`super::positions`] gives, read off the bits directly: the chains ask it in their innermost loops).
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

/// SE's `HiddenSet(2, false)`: boxes, columns, rows; houses with more than four empty cells.
fn hidden_pairs(g: &Grids, out: &mut Offs) {
    let mut removes = Vec::new();
    let mut parents = Vec::new();
    for t in BOX_COL_ROW {
        for i in 0..9 {
            let h = region(t, i);
            let hc = cells_of(h);
            if (g.open & hc).len() <= 4 {
                continue;
            }
            let at: [u16; 9] = std::array::from_fn(|d| digit_positions(g, t, i, d as u8 + 1));
            for m in combinations(2) {
                let digits = DigitSet(m);
                // Two digits' places, two or more each, whose union is two: the same two.
                let (a, b) = pair(m);
                let common = at[a];
                if common.count_ones() != 2 || at[b] != common {
                    continue;
                }
                let cells = super::cells_at(h, common);
                removes.clear();
                for cell in cells.iter() {
                    let others = DigitSet(g.now[cell] & !m);
                    if !others.is_empty() {
                        removes.push((cell as u8, others));
                    }
                }
                parents.clear();
                for cell in (hc & !cells).iter() {
                    for d in digits.iter() {
                        if g.source[cell] >> (d - 1) & 1 != 0 {
                            parents.push(key(cell, d));
                        }
                    }
                }
                out.hint(&mut removes, &parents);
            }
        }
    }
}

/// SE's `NakedSet(2)`: boxes, columns, rows; houses with four empty cells or more.
fn naked_pairs(g: &Grids, out: &mut Offs) {
    let mut removes = Vec::new();
    let mut parents = Vec::new();
    for t in BOX_COL_ROW {
        for i in 0..9 {
            let h = region(t, i);
            let hc = cells_of(h);
            if (g.open & hc).len() < 4 {
                continue;
            }
            let list = &HOUSE_LIST[h.0 as usize];
            for m in combinations(2) {
                // Two cells' candidates, two or more each, whose union is two: the same two.
                let (a, b) = pair(m);
                let common = g.now[list[a] as usize];
                if common.count_ones() != 2 || g.now[list[b] as usize] != common {
                    continue;
                }
                let cells = super::cells_at(h, m);
                removes.clear();
                for cell in (hc & !cells).iter() {
                    let r = DigitSet(g.now[cell] & common);
                    if !r.is_empty() {
                        removes.push((cell as u8, r));
                    }
                }
                parents.clear();
                for cell in cells.iter() {
                    for d in DigitSet(g.source[cell] & !common).iter() {
                        parents.push(key(cell, d));
                    }
                }
                out.hint(&mut removes, &parents);
            }
        }
    }
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

/// SE's `Fisherman(2)`: base columns then base rows; digits placed five times or fewer.
fn x_wings(g: &Grids, out: &mut Offs) {
    let mut removes = Vec::new();
    let mut parents = Vec::new();
    for (base, cover) in [(2, 1), (1, 2)] {
        // `at[d - 1][i]`: the places of digit `d` in base line `i`.
        let at: [[u16; 9]; 9] = std::array::from_fn(|d| {
            std::array::from_fn(|i| digit_positions(g, base, i, d as u8 + 1))
        });
        for m in combinations(2) {
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
                let bases = lines(base, m);
                let covers = lines(cover, common);
                removes.clear();
                // Cover line after cover line, each in its order.
                for j in (0..9).filter(|&j| common >> j & 1 != 0) {
                    let line = g.places[d as usize - 1] & cells_of(region(cover, j)) & !bases;
                    removes.extend(line.iter().map(|cell| (cell as u8, DigitSet::single(d))));
                }
                parents.clear();
                parents.extend(gone_keys(g, bases & !covers, d));
                out.hint(&mut removes, &parents);
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
}
