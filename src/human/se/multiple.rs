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

use std::collections::VecDeque;

use super::chains::{key, NestedHint, Node, Search, View, CAUSE_NAKED, CAUSE_REGION, NO_CAUSE};
use super::{cells_of, house_of};
use crate::human::house::DigitSet;

const NONE: u32 = u32::MAX;

/// SE's `LinkedSet` of potentials of one state: insertion order, one node per (cell, digit).
#[derive(Clone, Default)]
struct Set {
    /// The keys held.
    bits: [u64; 12],
    /// `(key, node)` in insertion order.
    order: Vec<(u16, u32)>,
}

impl Set {
    fn has(&self, k: usize) -> bool {
        self.bits[k / 64] >> (k % 64) & 1 != 0
    }
    fn insert(&mut self, k: usize, node: u32) {
        if !self.has(k) {
            self.bits[k / 64] |= 1 << (k % 64);
            self.order.push((k as u16, node));
        }
    }
    /// The node held for key `k`.
    fn node(&self, k: u16) -> u32 {
        self.order
            .iter()
            .find(|e| e.0 == k)
            .expect("a key of the set")
            .1
    }
    /// Keeps the keys `other` holds too, in this set's order.
    fn retain(&mut self, other: &Set) {
        let bits = &mut self.bits;
        self.order.retain(|&(k, _)| {
            let keep = other.has(k as usize);
            if !keep {
                bits[k as usize / 64] &= !(1 << (k % 64));
            }
            keep
        });
    }
}

struct Multiple<'a> {
    /// The potentials and SE's links between them (the static chains' own).
    links: Search<'a>,
    pending: (VecDeque<u32>, VecDeque<u32>),
    buf: Vec<u32>,
}

/// A hint before SE's sort: its sort keys, what it removes and its chains.
struct Hint {
    complexity: usize,
    sort_key: u8,
    cell: u8,
    removes: DigitSet,
    detail: NestedHint,
}

impl Multiple<'_> {
    /// SE's `doChaining` without dynamic removals: completes `to_on` and `to_off`, stopping at a potential found
    /// both on and off.
    fn chain(&mut self, to_on: &mut Set, to_off: &mut Set) {
        let (mut pending_on, mut pending_off) = std::mem::take(&mut self.pending);
        let mut buf = std::mem::take(&mut self.buf);
        pending_on.clear();
        pending_off.clear();
        pending_on.extend(to_on.order.iter().map(|e| e.1));
        pending_off.extend(to_off.order.iter().map(|e| e.1));
        'grow: loop {
            let (same, opposite, pending) = if let Some(p) = pending_on.pop_front() {
                self.links.on_to_off(p, true, &mut buf, |_, _| true);
                (&mut *to_off, &*to_on, &mut pending_off)
            } else if let Some(p) = pending_off.pop_front() {
                self.links.off_to_on(p, true, true, &mut buf, |_, _| true);
                (&mut *to_on, &*to_off, &mut pending_on)
            } else {
                break;
            };
            for &q in &buf {
                let n = self.links.nodes[q as usize];
                let k = key(n.cell, n.digit);
                if opposite.has(k) {
                    break 'grow;
                }
                if !same.has(k) {
                    same.insert(k, q);
                    pending.push_back(q);
                }
            }
        }
        self.pending = (pending_on, pending_off);
        self.buf = buf;
    }

    /// What `p` is assumed to imply: its "on" and "off" sets.
    fn assume(&mut self, cell: u8, digit: u8) -> (Set, Set) {
        let (mut on, mut off) = (Set::default(), Set::default());
        let p = self.links.push(cell, digit, true, NO_CAUSE, NONE);
        on.insert(key(cell, digit), p);
        self.chain(&mut on, &mut off);
        (on, off)
    }

    /// The chain of `p` up to its assumption (SE's `getChain`).
    fn chain_of(&self, p: u32) -> impl Iterator<Item = Node> + '_ {
        let mut i = p;
        std::iter::from_fn(move || {
            (i != NONE).then(|| {
                let n = self.links.nodes[i as usize];
                i = n.parent;
                n
            })
        })
    }

    /// The hints of the conclusions of `set`, reached by every one of `outcomes` (SE's `createCellReductionHint`
    /// and `createRegionReductionHint`); `root` is the rule-parent cause of the assumptions.
    fn hints(&self, set: &Set, outcomes: &[Set], sort_key: u8, root: u8, out: &mut Vec<Hint>) {
        for &(k, node) in &set.order {
            let (cell, digit) = ((k / 9) as u8, (k % 9) as u8 + 1);
            let on = self.links.nodes[node as usize].on;
            let removes = if on {
                let mut others = DigitSet(self.links.c.mask[cell as usize]);
                others.remove(digit);
                others
            } else {
                DigitSet::single(digit)
            };
            if removes.is_empty() {
                continue;
            }
            let mut complexity = 0;
            let mut causes = Vec::new();
            let mut identity = Vec::new();
            for o in outcomes {
                for n in self.chain_of(o.node(k)) {
                    complexity += 1;
                    identity.push((key(n.cell, n.digit) * 2 + usize::from(n.on)) as u16);
                    if n.on {
                        let cause = if n.cause == NO_CAUSE { root } else { n.cause };
                        causes.push((n.cell, n.digit, cause));
                    }
                }
                identity.push(u16::MAX);
            }
            out.push(Hint {
                complexity,
                sort_key,
                cell,
                removes,
                detail: NestedHint {
                    complexity,
                    removes: vec![(cell, removes)],
                    causes,
                    identity,
                },
            });
        }
    }

    /// SE's `doRegionChainings` for candidate `v` of `cell`, whose implications are `on` and `off`.
    fn regions(&mut self, cell: usize, v: u8, on: &Set, off: &Set, out: &mut Vec<Hint>) {
        for t in 0..3 {
            let places = self.links.c.places[v as usize - 1] & cells_of(house_of(t, cell));
            if places.len() < 2 || places.first() != Some(cell) {
                continue;
            }
            let (mut outcomes_on, mut outcomes_off) = (vec![on.clone()], vec![off.clone()]);
            let (mut region_on, mut region_off) = (on.clone(), off.clone());
            for x in places.iter().skip(1) {
                let (xo, xf) = self.assume(x as u8, v);
                region_on.retain(&xo);
                region_off.retain(&xf);
                outcomes_on.push(xo);
                outcomes_off.push(xf);
            }
            let root = CAUSE_REGION + t as u8;
            self.hints(&region_on, &outcomes_on, 6, root, out);
            self.hints(&region_off, &outcomes_off, 6, root, out);
        }
    }
}

/// Every hint of SE's Multiple Forcing Chains on `view`, as a nested producer takes them: in SE's order, repeats
/// (same eliminations) dropped.
pub(super) fn nested_hints(view: &View) -> Vec<NestedHint> {
    let mut s = Multiple {
        links: Search::new(view),
        pending: Default::default(),
        buf: Vec::new(),
    };
    let mut hints: Vec<Hint> = Vec::new();
    for cell in 0..81 {
        let cand = DigitSet(view.mask[cell]);
        if cand.len() <= 2 {
            continue;
        }
        s.links.nodes.clear();
        let mut value_on: Vec<Set> = Vec::new();
        let mut value_off: Vec<Set> = Vec::new();
        let mut cell_sets: Option<(Set, Set)> = None;
        for v in cand.iter() {
            let (on, off) = s.assume(cell as u8, v);
            s.regions(cell, v, &on, &off, &mut hints);
            match &mut cell_sets {
                Some((a, b)) => {
                    a.retain(&on);
                    b.retain(&off);
                }
                None => cell_sets = Some((on.clone(), off.clone())),
            }
            value_on.push(on);
            value_off.push(off);
        }
        if let Some((cell_on, cell_off)) = &cell_sets {
            s.hints(cell_on, &value_on, 5, CAUSE_NAKED, &mut hints);
            s.hints(cell_off, &value_off, 5, CAUSE_NAKED, &mut hints);
        }
    }
    hints.sort_by_key(|h| (h.complexity, h.sort_key));
    let mut kept: Vec<(u8, DigitSet)> = Vec::new();
    let mut out = Vec::new();
    for h in hints {
        if kept.contains(&(h.cell, h.removes)) {
            continue;
        }
        kept.push((h.cell, h.removes));
        out.push(h.detail);
    }
    out
}
