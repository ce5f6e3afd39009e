//! SE's Multiple Forcing Chains as a nested producer (`Chaining(true, false, false, 0)` inside the dynamic chains
//! of nesting level 3, "(+ Multiple Forcing Chains)"): cell and region forcing chains found on a dynamic chain's
//! working grid, every hint in SE's order, with what SE's `getRuleParents` reads of their chains.
//!
//! The chains are static (the grid is not changed as they grow), so each potential has one parent. For every
//! cell with three candidates or more, each candidate is assumed on and its implications grown (SE's
//! `doChaining`: pending "on" potentials first, then one "off"; a potential met both on and off stops the growth
//! there, with what was found so far); for the cell's box, row and column where the candidate has two places or
//! more and the cell is the first of them, each other place is assumed on too. What every candidate of the cell
//! (a Cell Forcing Chain, SE's sort key 5) or every place of the house (a Region Forcing Chain, 6) implies holds.
//! The hints are sorted stably by complexity (the sum of the chains' sizes; the rating grows with it) and sort
//! key, and a hint removing the same candidates as an earlier one is dropped (SE's `LinkedHashSet`).
//!
//! The grid does not change, so an assumption's growth is the same each time SE makes it (a place of a house is
//! assumed again for each house and as a candidate of its own cell): each is grown once per grid and kept, its
//! potentials as bit sets (SE's `retainAll` becomes a few word operations) with the node of each key, and SE's
//! links of each potential are asked of [`Search`] once per grid rather than at each step. Few cells and houses
//! have anything in common: their assumptions' [`Footprints`] (the same sets, grown without the chains) tell
//! which, and only those are grown with their chains. A hint's complexity is counted along its chains; the rest of
//! what they say is read only for the hints kept after the sort. Each thread keeps the memory from call to call.

use std::cell::RefCell;

use super::footprint::Footprints;
use super::hint::NestedHint;
use super::links::Search;
use super::potential::{key, Node, NAKED, NONE, NO_CAUSE, REGION};
use super::set::Set729;
use super::working::Working;
use crate::human::house::DigitSet;
use crate::human::se::{cells_of, count9, house_of, region, two_or_more};

/// Node `i` of the "on" (`on`) or "off" potentials of [`Buffers`].
fn node(i: usize, on: bool) -> u32 {
    (i * 2 + usize::from(on)) as u32
}

/// The implications of one assumption (SE's `LinkedSet`s of "on" and "off" potentials).
struct Growth {
    on: Set729,
    off: Set729,
    /// The potentials in insertion order: ranges of [`Buffers::on`] and [`Buffers::off`].
    on_list: (u32, u32),
    off_list: (u32, u32),
    /// The nodes of the growth's keys in key order start at `Buffers::by_key[by_key]`; `rank[w]` of them have
    /// keys below `64 * w`.
    by_key: u32,
    rank: [u16; 12],
}

impl Growth {
    /// The index in [`Buffers::by_key`] of the node of key `k`, which the growth holds.
    fn index(&self, k: usize) -> usize {
        let (w, b) = (k / 64, k % 64);
        let below = (self.on.0[w] | self.off.0[w]) & ((1u64 << b) - 1);
        self.by_key as usize + self.rank[w] as usize + below.count_ones() as usize
    }
}

struct Multiple<'a> {
    c: &'a Working,
    b: Buffers,
    /// SE's links, asked of it the first time a growth follows a potential.
    search: Search<'a>,
    buf: Vec<u32>,
}

/// The memory of a [`Multiple`], kept by each thread from call to call.
#[derive(Default)]
struct Buffers {
    /// SE's links on `c` of the potentials followed so far, "on" to "off" then "off" to "on": `(key, cause)`,
    /// those of key `k` in `links[on_off[k].0..on_off[k].1]` and `links[off_on[k].0..off_on[k].1]`, once the key
    /// is in `linked.0` (`linked.1`).
    links: Vec<(u16, u8)>,
    on_off: Vec<(u32, u32)>,
    off_on: Vec<(u32, u32)>,
    linked: (Set729, Set729),
    /// The growth of the assumption "key on", once grown, else [`NONE`].
    grown: Vec<u32>,
    growths: Vec<Growth>,
    /// The "on" and "off" potentials of every growth, each with its parent: node `2 * i + 1` is `on[i]`, node
    /// `2 * i` is `off[i]` ([`node`]).
    on: Vec<Node>,
    off: Vec<Node>,
    by_key: Vec<u32>,
    /// The assumptions (growths) of the hints, `Hint::outcomes` ranges.
    outcomes: Vec<u32>,
    /// Scratch: the node of each key in the growth being grown.
    at: Vec<u32>,
    /// Scratch: the potentials common to the growths of a cell or house so far.
    common: (Set729, Set729),
}

impl Buffers {
    /// Appends to [`Buffers::by_key`] the nodes of the keys of `on` and `off` (a growth's, their nodes in
    /// [`Buffers::at`]) in key order: where they start, and for each word `w` of the sets how many keys are below
    /// `64 * w` (a [`Growth`]'s `by_key` and `rank`).
    #[inline]
    fn index_by_key(&mut self, on: &Set729, off: &Set729) -> (u32, [u16; 12]) {
        let by_key = self.by_key.len() as u32;
        let mut rank = [0u16; 12];
        for (w, (rank, (&on, &off))) in rank.iter_mut().zip(on.0.iter().zip(&off.0)).enumerate() {
            *rank = (self.by_key.len() as u32 - by_key) as u16;
            let mut bits = on | off;
            while bits != 0 {
                let k = w * 64 + bits.trailing_zeros() as usize;
                self.by_key.push(self.at[k]);
                bits &= bits - 1;
            }
        }
        (by_key, rank)
    }
}

thread_local! {
    static BUFFERS: RefCell<Buffers> = RefCell::new(Buffers::default());
}

/// A hint before SE's sort: its sort keys, what it removes, and where its chains are.
struct Hint {
    complexity: usize,
    sort_key: u8,
    cell: u8,
    removes: DigitSet,
    /// The conclusion's key; each chain is its potential in one of `Buffers::outcomes[outcomes]`.
    key: u16,
    outcomes: (u32, u32),
    /// The rule-parent cause of the assumptions.
    root: u8,
}

impl<'a> Multiple<'a> {
    fn new(c: &'a Working) -> Multiple<'a> {
        let mut b = BUFFERS.with(|b| std::mem::take(&mut *b.borrow_mut()));
        b.links.clear();
        b.on_off.resize(729, (0, 0));
        b.off_on.resize(729, (0, 0));
        b.linked = Default::default();
        b.grown.clear();
        b.grown.resize(729, NONE);
        b.growths.clear();
        b.on.clear();
        b.off.clear();
        b.by_key.clear();
        b.outcomes.clear();
        b.at.resize(729, NONE);
        Multiple {
            c,
            b,
            search: Search::new(c),
            buf: Vec::new(),
        }
    }

    /// The range in [`Buffers::links`] of SE's links of the potential `n` (of key `k`), asked of [`Search`] the
    /// first time.
    fn links(&mut self, k: usize, n: Node) -> (u32, u32) {
        let (linked, ranges) = if n.on {
            (&mut self.b.linked.0, &mut self.b.on_off)
        } else {
            (&mut self.b.linked.1, &mut self.b.off_on)
        };
        if linked.contains(k) {
            return ranges[k];
        }
        linked.insert(k);
        let search = &mut self.search;
        search.nodes.clear();
        let p = search.push(n.cell, n.digit, n.on, NO_CAUSE, NONE);
        if n.on {
            search.on_to_off(p, true, &mut self.buf, |_, _| true);
        } else {
            search.off_to_on(p, true, true, &mut self.buf, |_, _| true);
        }
        let start = self.b.links.len() as u32;
        self.b.links.extend(self.buf.iter().map(|&q| {
            let n = search.nodes[q as usize];
            (key(n.cell, n.digit) as u16, n.cause)
        }));
        ranges[k] = (start, self.b.links.len() as u32);
        ranges[k]
    }

    /// Grows the assumption "`cell` is `digit`" along SE's links: appends its potentials to [`Buffers::on`] and
    /// [`Buffers::off`] in SE's order (pending "on" potentials first, then one "off"; the growth stops at a
    /// potential found both on and off), notes each one's node in [`Buffers::at`], and returns the sets of its
    /// "on" and "off" keys.
    fn spread(&mut self, cell: u8, digit: u8) -> (Set729, Set729) {
        let k = key(cell, digit);
        let (on_start, off_start) = (self.b.on.len(), self.b.off.len());
        let (mut on, mut off) = (Set729::default(), Set729::default());
        on.insert(k);
        self.b.at[k] = node(on_start, true);
        self.b.on.push(Node {
            cell,
            digit,
            on: true,
            cause: NO_CAUSE,
            parent: NONE,
        });
        // The potentials pending are those of the lists not followed yet, in their order.
        let (mut next_on, mut next_off) = (on_start, off_start);
        'grow: loop {
            let (n, from_on) = if next_on < self.b.on.len() {
                next_on += 1;
                (self.b.on[next_on - 1], true)
            } else if next_off < self.b.off.len() {
                next_off += 1;
                (self.b.off[next_off - 1], false)
            } else {
                break;
            };
            let p = node(if from_on { next_on } else { next_off } - 1, from_on);
            let range = self.links(key(n.cell, n.digit), n);
            let Buffers {
                links,
                on: on_list,
                off: off_list,
                at,
                ..
            } = &mut self.b;
            let (same, opposite, list) = if from_on {
                (&mut off, &on, off_list)
            } else {
                (&mut on, &off, on_list)
            };
            for &(k, cause) in &links[range.0 as usize..range.1 as usize] {
                let k = k as usize;
                if opposite.contains(k) {
                    break 'grow;
                }
                if same.contains(k) {
                    continue;
                }
                same.insert(k);
                at[k] = node(list.len(), !from_on);
                list.push(Node {
                    cell: (k / 9) as u8,
                    digit: (k % 9) as u8 + 1,
                    on: !from_on,
                    cause,
                    parent: p,
                });
            }
        }
        (on, off)
    }

    /// The growth of "`cell` is `digit`" (SE's `doChaining` without dynamic removals: pending "on" potentials
    /// first, then one "off", stopping at a potential found both on and off), grown the first time asked: the
    /// chains are static, so it is the same each time.
    fn grow(&mut self, cell: u8, digit: u8) -> u32 {
        let k = key(cell, digit);
        if self.b.grown[k] != NONE {
            return self.b.grown[k];
        }
        let g = self.b.growths.len() as u32;
        self.b.grown[k] = g;
        let (on_start, off_start) = (self.b.on.len(), self.b.off.len());
        let (on, off) = self.spread(cell, digit);
        let (by_key, rank) = self.b.index_by_key(&on, &off);
        let b = &mut self.b;
        b.growths.push(Growth {
            on,
            off,
            on_list: (on_start as u32, b.on.len() as u32),
            off_list: (off_start as u32, b.off.len() as u32),
            by_key,
            rank,
        });
        g
    }

    /// The node of growth `g` holding key `k`.
    fn node_of(&self, g: u32, k: usize) -> u32 {
        self.b.by_key[self.b.growths[g as usize].index(k)]
    }

    /// The chain of node `i` up to its assumption (SE's `getChain`): the node, then its ancestors.
    fn chain(&self, mut i: u32) -> impl Iterator<Item = Node> + '_ {
        std::iter::from_fn(move || {
            (i != NONE).then(|| {
                let list = if i & 1 != 0 { &self.b.on } else { &self.b.off };
                let n = list[i as usize / 2];
                i = n.parent;
                n
            })
        })
    }

    /// Starts the potentials common to the growths of a cell or house with those of growth `g`.
    fn common_start(&mut self, g: u32) {
        let g = &self.b.growths[g as usize];
        self.b.common = (g.on, g.off);
    }

    /// Keeps, of the common potentials, those growth `g` holds too; whether any are left.
    fn common_retain(&mut self, g: u32) -> bool {
        let g = &self.b.growths[g as usize];
        let mut any = 0;
        for w in 0..12 {
            self.b.common.0 .0[w] &= g.on.0[w];
            self.b.common.1 .0[w] &= g.off.0[w];
            any |= self.b.common.0 .0[w] | self.b.common.1 .0[w];
        }
        any != 0
    }

    /// The hints of the common potentials, "on" ones then "off" ones in the order of the first of `outcomes`
    /// (SE's `retainAll` keeps that order), reached by every one of the growths `outcomes` (SE's
    /// `createCellReductionHint` and `createRegionReductionHint`); `root` is the rule-parent cause of the
    /// assumptions. Only their sort keys: the chains are read for the hints kept.
    fn hints(&mut self, outcomes: &[u32], sort_key: u8, root: u8, out: &mut Vec<Hint>) {
        let range = (
            self.b.outcomes.len() as u32,
            (self.b.outcomes.len() + outcomes.len()) as u32,
        );
        self.b.outcomes.extend_from_slice(outcomes);
        let first = &self.b.growths[outcomes[0] as usize];
        for (bits, list, span, on) in [
            (&self.b.common.0, &self.b.on, first.on_list, true),
            (&self.b.common.1, &self.b.off, first.off_list, false),
        ] {
            if bits.is_empty() {
                continue;
            }
            for n in &list[span.0 as usize..span.1 as usize] {
                let k = key(n.cell, n.digit) as u16;
                if !bits.contains(k as usize) {
                    continue;
                }
                let (cell, digit) = ((k / 9) as u8, (k % 9) as u8 + 1);
                let removes = if on {
                    let mut others = DigitSet(self.c.mask[cell as usize]);
                    others.remove(digit);
                    others
                } else {
                    DigitSet::single(digit)
                };
                if removes.is_empty() {
                    continue;
                }
                let complexity = outcomes
                    .iter()
                    .map(|&g| self.chain(self.node_of(g, k as usize)).count())
                    .sum();
                out.push(Hint {
                    complexity,
                    sort_key,
                    cell,
                    removes,
                    key: k,
                    outcomes: range,
                    root,
                });
            }
        }
    }

    /// The hints of the assumptions `assumed` (`(cell, digit)`: a cell's candidates, or a digit's places in a
    /// house, the first place first), whose [`Footprints`] have something in common: each grown with its chains,
    /// with sort key `sort_key` and rule-parent cause `root` (SE's `doRegionChainings` for one house, and the
    /// cell reduction of `getMultipleChainsHintList`).
    fn forced(
        &mut self,
        assumed: &[(u8, u8)],
        (sort_key, root): (u8, u8),
        outcomes: &mut Vec<u32>,
        out: &mut Vec<Hint>,
    ) {
        outcomes.clear();
        for &(cell, v) in assumed {
            let g = self.grow(cell, v);
            outcomes.push(g);
        }
        self.common_start(outcomes[0]);
        for &g in &outcomes[1..] {
            self.common_retain(g);
        }
        self.hints(outcomes, sort_key, root, out);
    }

    /// The chains of hint `h`, as a nested producer reads them (SE's `getChain` of the conclusion in each
    /// outcome: the potential, then its ancestors).
    fn detail(&self, h: &Hint) -> NestedHint {
        let mut causes = Vec::new();
        let mut identity = Vec::with_capacity(h.complexity + 8);
        for &g in &self.b.outcomes[h.outcomes.0 as usize..h.outcomes.1 as usize] {
            for n in self.chain(self.node_of(g, h.key as usize)) {
                identity.push(n.identity());
                if n.on {
                    let cause = if n.cause == NO_CAUSE { h.root } else { n.cause };
                    causes.push((n.cell, n.digit, cause));
                }
            }
            identity.push(u16::MAX);
        }
        NestedHint {
            complexity: h.complexity,
            removes: vec![(h.cell, h.removes)],
            causes,
            identity,
        }
    }
}

/// Each group of assumptions of SE's Multiple Forcing Chains on `view`, in SE's order, handed to `f` with its sort
/// key and root cause, until `f` returns false: for every cell with three candidates or more, SE's
/// `doRegionChainings` of each candidate (the places of its box, row and column where it has two places or more,
/// the cell the first: `(6, REGION + t)`), then the cell's own candidates (`(5, NAKED)`).
fn groups(view: &Working, mut f: impl FnMut(&[(u8, u8)], (u8, u8)) -> bool) {
    // `firsts[t][d]`: the first place of digit index `d` in each house of type `t` where it has two places or
    // more.
    let mut firsts = [[0u128; 9]; 3];
    for (t, firsts) in firsts.iter_mut().enumerate() {
        for i in 0..9 {
            let cells = cells_of(region(t, i)).0;
            for (first, places) in firsts.iter_mut().zip(&view.places) {
                let p = places.0 & cells;
                if two_or_more(p) {
                    *first |= p & p.wrapping_neg();
                }
            }
        }
    }
    let mut assumed = Vec::with_capacity(9);
    for cell in 0..81 {
        let cand = DigitSet(view.mask[cell]);
        if count9(cand.0) <= 2 {
            continue;
        }
        for v in cand.iter() {
            for (t, firsts) in firsts.iter().enumerate() {
                if firsts[v as usize - 1] >> cell & 1 == 0 {
                    continue;
                }
                let places = view.places[v as usize - 1] & cells_of(house_of(t, cell));
                assumed.clear();
                assumed.extend(places.iter().map(|x| (x as u8, v)));
                if !f(&assumed, (6, REGION + t as u8)) {
                    return;
                }
            }
        }
        assumed.clear();
        assumed.extend(cand.iter().map(|v| (cell as u8, v)));
        if !f(&assumed, (5, NAKED)) {
            return;
        }
    }
}

/// Whether SE's Multiple Forcing Chains may find a hint on `view`: some group of assumptions ([`groups`]) has a
/// potential in all their [`Footprints`] (a hint is a potential every chain of a group implies, and a chain's
/// potentials are in its assumption's footprint).
pub(super) fn may_find(view: &Working) -> bool {
    let mut prints = Footprints::new(view);
    let mut meet = false;
    groups(view, |assumed, _| {
        meet = prints.meet(assumed);
        !meet
    });
    prints.keep();
    meet
}

/// Every hint of SE's Multiple Forcing Chains on `view`, as a nested producer takes them: in SE's order, repeats
/// (same eliminations) dropped.
pub(super) fn nested_hints(view: &Working) -> Vec<NestedHint> {
    let mut prints = Footprints::new(view);
    let mut s: Option<Multiple> = None;
    let mut hints: Vec<Hint> = Vec::new();
    let mut outcomes = Vec::new();
    groups(view, |assumed, kind| {
        if prints.meet(assumed) {
            let s = s.get_or_insert_with(|| Multiple::new(view));
            s.forced(assumed, kind, &mut outcomes, &mut hints);
        }
        true
    });
    prints.keep();
    let Some(s) = s else {
        return Vec::new();
    };
    hints.sort_by_key(|h| (h.complexity, h.sort_key));
    // The eliminations met so far: `kept[cell]` has bit `removes` for each (a cell's digits are nine bits).
    let mut kept = [[0u64; 8]; 81];
    let mut out = Vec::new();
    for h in &hints {
        let (word, bit) = (h.removes.0 as usize / 64, h.removes.0 % 64);
        let seen = &mut kept[h.cell as usize][word];
        if *seen >> bit & 1 != 0 {
            continue;
        }
        *seen |= 1 << bit;
        out.push(s.detail(h));
    }
    BUFFERS.with(|b| *b.borrow_mut() = s.b);
    out
}

#[cfg(test)]
mod tests {
    use super::super::samples::working_grids;
    use super::*;
    use crate::grid::Grid;
    use crate::human::candidates::Candidates;
    use crate::human::house::CellSet;

    /// SE's algorithm as it reads, without the shortcuts: every assumption grown afresh with [`Search`]'s links,
    /// sets as lists, every hint's chains read before the sort. Each hint as `(complexity, cell, removes,
    /// causes, identity)`.
    type Plain = (usize, u8, u16, Vec<(u8, u8, u8)>, Vec<u16>);

    /// Whether one of the potentials `set` of `s` has key `k`.
    fn holds(s: &Search, set: &[u32], k: usize) -> bool {
        set.iter().any(|&q| {
            let n = s.nodes[q as usize];
            key(n.cell, n.digit) == k
        })
    }

    /// One growth of "`cell` is `v`" grown afresh with [`Search`]'s links (SE's `doChaining`): its "on" and "off"
    /// nodes in insertion order.
    fn assume(s: &mut Search, cell: u8, v: u8) -> (Vec<u32>, Vec<u32>) {
        let mut buf = Vec::new();
        let p = s.push(cell, v, true, NO_CAUSE, NONE);
        let (mut on, mut off) = (vec![p], Vec::new());
        let (mut next_on, mut next_off) = (0, 0);
        'grow: loop {
            let from_on = if next_on < on.len() {
                next_on += 1;
                s.on_to_off(on[next_on - 1], true, &mut buf, |_, _| true);
                true
            } else if next_off < off.len() {
                next_off += 1;
                s.off_to_on(off[next_off - 1], true, true, &mut buf, |_, _| true);
                false
            } else {
                break;
            };
            let (same, opposite) = if from_on {
                (&mut off, &on)
            } else {
                (&mut on, &off)
            };
            for &q in &buf {
                let n = s.nodes[q as usize];
                let k = key(n.cell, n.digit);
                if holds(s, opposite, k) {
                    break 'grow;
                }
                if !holds(s, same, k) {
                    same.push(q);
                }
            }
        }
        (on, off)
    }

    /// The hint of a conclusion reached at `nodes` (one node in each outcome) whose first is `f`, or none when it
    /// removes nothing: its chains read from the nodes up; `root` is the cause of the assumptions.
    fn plain_hint(s: &Search, view: &Working, f: Node, nodes: Vec<u32>, root: u8) -> Option<Plain> {
        let mut removes = DigitSet::single(f.digit);
        if f.on {
            removes = DigitSet(view.mask[f.cell as usize]);
            removes.remove(f.digit);
        }
        if removes.is_empty() {
            return None;
        }
        let (mut causes, mut identity) = (Vec::new(), Vec::new());
        let outcomes = nodes.len();
        for mut i in nodes {
            while i != NONE {
                let n = s.nodes[i as usize];
                identity.push(n.identity());
                if n.on {
                    let cause = if n.cause == NO_CAUSE { root } else { n.cause };
                    causes.push((n.cell, n.digit, cause));
                }
                i = n.parent;
            }
            identity.push(u16::MAX);
        }
        let complexity = identity.len() - outcomes;
        Some((complexity, f.cell, removes.0, causes, identity))
    }

    /// The hints of what every one of `outcomes` reached, "on" ones then "off" ones in the first outcome's order,
    /// each with its sort key, appended to `hints`.
    fn conclude(
        s: &Search,
        view: &Working,
        outcomes: &[(Vec<u32>, Vec<u32>)],
        (sort_key, root): (u8, u8),
        hints: &mut Vec<(usize, u8, Plain)>,
    ) {
        for side in [0, 1] {
            let pick = |o: &(Vec<u32>, Vec<u32>)| if side == 0 { o.0.clone() } else { o.1.clone() };
            for &first in &pick(&outcomes[0]) {
                let f = s.nodes[first as usize];
                let k = key(f.cell, f.digit);
                let nodes: Vec<u32> = outcomes
                    .iter()
                    .filter_map(|o| {
                        pick(o).into_iter().find(|&q| {
                            let n = s.nodes[q as usize];
                            key(n.cell, n.digit) == k
                        })
                    })
                    .collect();
                if nodes.len() < outcomes.len() {
                    continue;
                }
                if let Some(h) = plain_hint(s, view, f, nodes, root) {
                    hints.push((h.0, sort_key, h));
                }
            }
        }
    }

    /// Every hint on `view`, in SE's order, repeats (same eliminations) dropped.
    fn reference(view: &Working) -> Vec<Plain> {
        let mut s = Search::new(view);
        let mut hints: Vec<(usize, u8, Plain)> = Vec::new();
        for cell in 0..81 {
            let cand = DigitSet(view.mask[cell]);
            if cand.len() <= 2 {
                continue;
            }
            let mut values = Vec::new();
            for v in cand.iter() {
                let own = assume(&mut s, cell as u8, v);
                for t in 0..3 {
                    let places = view.places[v as usize - 1] & cells_of(house_of(t, cell));
                    if places.len() < 2 || places.first() != Some(cell) {
                        continue;
                    }
                    let mut outcomes = vec![own.clone()];
                    for x in places.iter().skip(1) {
                        outcomes.push(assume(&mut s, x as u8, v));
                    }
                    conclude(&s, view, &outcomes, (6, REGION + t as u8), &mut hints);
                }
                values.push(own);
            }
            conclude(&s, view, &values, (5, NAKED), &mut hints);
        }
        hints.sort_by_key(|h| (h.0, h.1));
        let mut out: Vec<Plain> = Vec::new();
        for (_, _, h) in hints {
            if !out.iter().any(|o| (o.1, o.2) == (h.1, h.2)) {
                out.push(h);
            }
        }
        out
    }

    /// The hints of `view` as [`Plain`]s.
    fn plain(view: &Working) -> Vec<Plain> {
        nested_hints(view)
            .into_iter()
            .map(|h| {
                assert_eq!(h.removes.len(), 1);
                let (cell, removes) = h.removes[0];
                (h.complexity, cell, removes.0, h.causes, h.identity)
            })
            .collect()
    }

    #[test]
    fn nested_hints_are_those_of_ses_algorithm_as_it_reads() {
        let text = include_str!("../../../../data/puzzles.txt");
        let mut compared = 0;
        for line in text
            .lines()
            .filter(|l| !l.starts_with('#'))
            .step_by(9)
            .take(8)
        {
            let g = Grid::parse_line(line.as_bytes()).unwrap();
            let view = Working::of(&Candidates::new(&g).unwrap());
            let want = reference(&view);
            assert!(!want.is_empty(), "{line}: no hint to compare");
            assert_eq!(plain(&view), want, "{line}");
            compared += want.len();
        }
        assert!(compared > 50, "{compared} hints compared");
    }

    #[test]
    fn nested_hints_on_working_grids_are_those_of_ses_algorithm() {
        let mut compared = 0;
        for (i, view) in working_grids(60, 8).iter().enumerate() {
            let want = reference(view);
            assert_eq!(plain(view), want, "grid {i}");
            compared += want.len();
        }
        assert!(compared > 1000, "{compared} hints compared");
    }

    /// The keys of potentials held digit by digit.
    fn keys(planes: &[CellSet; 9]) -> Set729 {
        let mut s = Set729::default();
        for (d, cells) in planes.iter().enumerate() {
            cells
                .iter()
                .for_each(|cell| s.insert(key(cell as u8, d as u8 + 1)));
        }
        s
    }

    #[test]
    fn footprints_are_the_growths_sets_and_meet_as_they_do() {
        let (mut met, mut apart) = (0, 0);
        for (i, view) in working_grids(200, 6).iter().enumerate() {
            let mut prints = Footprints::new(view);
            let mut s = Multiple::new(view);
            for cell in 0..81u8 {
                let cand = DigitSet(view.mask[cell as usize]);
                for d in cand.iter() {
                    let f = *prints.get(cell, d);
                    let g = s.grow(cell, d);
                    let g = &s.b.growths[g as usize];
                    assert!(
                        keys(&f.on) == g.on && keys(&f.off) == g.off,
                        "grid {i}, cell {cell}, digit {d}"
                    );
                }
                // The cell's candidates, and each digit's places in the cell's houses.
                let mut groups: Vec<Vec<(u8, u8)>> = vec![cand.iter().map(|d| (cell, d)).collect()];
                for d in cand.iter() {
                    for t in 0..3 {
                        let places =
                            view.places[d as usize - 1] & cells_of(house_of(t, cell as usize));
                        groups.push(places.iter().map(|x| (x as u8, d)).collect());
                    }
                }
                for assumed in groups.iter().filter(|a| a.len() >= 2) {
                    let gs: Vec<u32> = assumed.iter().map(|&(x, d)| s.grow(x, d)).collect();
                    s.common_start(gs[0]);
                    let common = gs[1..].iter().all(|&g| s.common_retain(g));
                    assert_eq!(prints.meet(assumed), common, "grid {i}: {assumed:?}");
                    if common {
                        met += 1;
                    } else {
                        apart += 1;
                    }
                }
            }
            prints.keep();
        }
        assert!(met > 500 && apart > 10_000, "{met} met, {apart} apart");
    }
}
