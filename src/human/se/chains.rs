//! SE's Forcing Chains & Cycles (the classic producer, no multiple or dynamic chains): bidirectional X-, Y- and
//! XY-cycles (6.5, XY 7.0) and forcing X- and XY-chains (6.6, XY 7.0), each plus SE's length increment.
//!
//! SE grows the implications of one assumption breadth first (on to off: the cell's other digits (Y links) and the
//! digit's other places in the cell's box, row, column; off to on: the cell's last other digit (Y) and the digit's
//! last other place in a box, row or column (X)), collects every hint of the three passes (X, then Y, then XY;
//! cells and digits ascending; cycles before chains; the chain from "on" before the one from "off"), sorts them
//! stably by rating (as Java doubles), then chain size, then kind, and applies the first.

use super::super::candidates::Candidates;
use super::{cells_of, house_of, SeStep, SeTechnique, Tenths};
use crate::human::house::{CellSet, DigitSet, PEERS};
use crate::human::step::Eliminations;

const NONE: u32 = u32::MAX;

/// A potential: `digit` in `cell`, on or off, with the potential that implied it.
#[derive(Clone, Copy)]
struct Node {
    cell: u8,
    digit: u8,
    on: bool,
    parent: u32,
}

impl Node {
    fn same(&self, o: &Node) -> bool {
        self.cell == o.cell && self.digit == o.digit && self.on == o.on
    }
}

/// Index of a potential among the 729 (cell, digit) pairs.
fn key(cell: u8, digit: u8) -> usize {
    cell as usize * 9 + digit as usize - 1
}

/// A set of the 729 (cell, digit) pairs.
#[derive(Clone, Copy, Default)]
struct Set729([u64; 12]);

impl Set729 {
    fn contains(&self, k: usize) -> bool {
        self.0[k / 64] >> (k % 64) & 1 != 0
    }
    fn insert(&mut self, k: usize) {
        self.0[k / 64] |= 1 << (k % 64);
    }
}

struct Search<'a> {
    c: &'a Candidates,
    nodes: Vec<Node>,
}

impl Search<'_> {
    fn push(&mut self, cell: u8, digit: u8, on: bool, parent: u32) -> u32 {
        self.nodes.push(Node {
            cell,
            digit,
            on,
            parent,
        });
        (self.nodes.len() - 1) as u32
    }

    /// SE's `getOnToOff`: the cell's other digits (with Y links), then the digit's other places in the box, row
    /// and column, each cell once.
    fn on_to_off(&mut self, p: u32, y: bool, out: &mut Vec<u32>) {
        out.clear();
        let n = self.nodes[p as usize];
        let cell = n.cell as usize;
        if y {
            for d in self.c.get(cell).iter().filter(|&d| d != n.digit) {
                let i = self.push(n.cell, d, false, p);
                out.push(i);
            }
        }
        let mut added = CellSet::single(cell);
        for t in 0..3 {
            let places = self.c.places(n.digit) & cells_of(house_of(t, cell)) & !added;
            for x in places.iter() {
                added.insert(x);
                let i = self.push(x as u8, n.digit, false, p);
                out.push(i);
            }
        }
    }

    /// SE's `getOffToOn`: the cell's other digit when it has two (Y links), then the digit's only other place in
    /// the box, row or column (X links).
    fn off_to_on(&mut self, p: u32, y: bool, x: bool, out: &mut Vec<u32>) {
        out.clear();
        let n = self.nodes[p as usize];
        let cell = n.cell as usize;
        if y {
            let cand = self.c.get(cell);
            if cand.len() == 2 {
                let mut other = cand;
                other.remove(n.digit);
                if let Some(d) = other.first() {
                    let i = self.push(n.cell, d, true, p);
                    out.push(i);
                }
            }
        }
        if x {
            for t in 0..3 {
                let mut others = self.c.places(n.digit) & cells_of(house_of(t, cell));
                others.remove(cell);
                if others.len() == 1 {
                    let o = others.first().expect("one cell");
                    let i = self.push(o as u8, n.digit, true, p);
                    out.push(i);
                }
            }
        }
    }

    /// Whether a strict ancestor of `p` is the potential `q`.
    fn has_ancestor(&self, p: u32, q: &Node) -> bool {
        let mut i = self.nodes[p as usize].parent;
        while i != NONE {
            let n = &self.nodes[i as usize];
            if n.same(q) {
                return true;
            }
            i = n.parent;
        }
        false
    }

    /// SE's `doCycles` from the "on" potential `source`: the "on" potentials equal to it reached again after four
    /// links or more.
    fn cycles(&mut self, source: u32, y: bool, x: bool) -> Vec<u32> {
        let src = self.nodes[source as usize];
        let mut found = Vec::new();
        let mut to_on = Set729::default();
        to_on.insert(key(src.cell, src.digit));
        let mut pending_on = std::collections::VecDeque::from([source]);
        let mut pending_off = std::collections::VecDeque::new();
        let mut buf = Vec::new();
        let mut length = 0;
        while !pending_on.is_empty() || !pending_off.is_empty() {
            length += 1;
            while let Some(p) = pending_on.pop_front() {
                self.on_to_off(p, y, &mut buf);
                for &q in &buf {
                    let qn = self.nodes[q as usize];
                    if !self.has_ancestor(p, &qn) {
                        pending_off.push_back(q);
                    }
                }
            }
            length += 1;
            while let Some(p) = pending_off.pop_front() {
                self.off_to_on(p, y, x, &mut buf);
                for &q in &buf {
                    let qn = self.nodes[q as usize];
                    if length >= 4 && qn.same(&src) {
                        found.push(q);
                    }
                    let k = key(qn.cell, qn.digit);
                    if !to_on.contains(k) {
                        to_on.insert(k);
                        pending_on.push_back(q);
                    }
                }
            }
        }
        found
    }

    /// SE's `doForcingChains` from `source` (on or off): the first potential reached that contradicts it.
    fn forcing_chain(&mut self, source: u32, y: bool) -> Option<u32> {
        let src = self.nodes[source as usize];
        let mut found = None;
        let (mut to_on, mut to_off) = (Set729::default(), Set729::default());
        let mut pending_on = std::collections::VecDeque::new();
        let mut pending_off = std::collections::VecDeque::new();
        if src.on {
            to_on.insert(key(src.cell, src.digit));
            pending_on.push_back(source);
        } else {
            to_off.insert(key(src.cell, src.digit));
            pending_off.push_back(source);
        }
        let mut buf = Vec::new();
        while !pending_on.is_empty() || !pending_off.is_empty() {
            while let Some(p) = pending_on.pop_front() {
                self.on_to_off(p, y, &mut buf);
                for &q in &buf {
                    let qn = self.nodes[q as usize];
                    if src.on && qn.cell == src.cell && qn.digit == src.digit && found.is_none() {
                        found = Some(q);
                    }
                    let k = key(qn.cell, qn.digit);
                    if !to_off.contains(k) {
                        to_off.insert(k);
                        pending_off.push_back(q);
                    }
                }
            }
            while let Some(p) = pending_off.pop_front() {
                self.off_to_on(p, y, true, &mut buf);
                for &q in &buf {
                    let qn = self.nodes[q as usize];
                    if !src.on && qn.cell == src.cell && qn.digit == src.digit && found.is_none() {
                        found = Some(q);
                    }
                    let k = key(qn.cell, qn.digit);
                    if !to_on.contains(k) {
                        to_on.insert(k);
                        pending_on.push_back(q);
                    }
                }
            }
        }
        found
    }

    /// Distinct potentials from `p` up to the root (SE's ancestor count).
    fn ancestors(&self, p: u32) -> usize {
        let mut seen: Vec<Node> = Vec::new();
        let mut i = p;
        while i != NONE {
            let n = self.nodes[i as usize];
            if !seen.iter().any(|s| s.same(&n)) {
                seen.push(n);
            }
            i = n.parent;
        }
        seen.len()
    }
}

/// SE's length increment of a chain of `complexity` potentials, as a Java double.
pub(super) fn length_difficulty(complexity: usize) -> f64 {
    let mut added = 0.0f64;
    let mut ceil = 4i64;
    let length = complexity as i64 - 2;
    let mut odd = false;
    while length > ceil {
        added += 0.1;
        ceil = if odd { ceil * 4 / 3 } else { ceil * 3 / 2 };
        odd = !odd;
    }
    added
}

/// One hint, with SE's sort keys.
struct Hint {
    rating: f64,
    complexity: usize,
    sort_key: u8,
    cycle: bool,
    eliminations: Eliminations,
    placement: Option<(usize, u8)>,
}

/// SE's Forcing Chains & Cycles producer.
pub(super) fn find(c: &Candidates) -> Option<SeStep> {
    let mut hints: Vec<Hint> = Vec::new();
    let mut s = Search {
        c,
        nodes: Vec::with_capacity(4096),
    };
    for (y, x) in [(false, true), (true, false), (true, true)] {
        // Every XY hint rates 7.0 or more: when the X and Y passes found a hint rated less, the XY pass cannot
        // give the first hint of SE's sorted list, so it is skipped (same answer, less work).
        if y && x && hints.iter().any(|h| h.rating < 7.0) {
            break;
        }
        let sort_key = match (y, x) {
            (true, true) => 4,
            (true, false) => 3,
            _ => 2,
        };
        for cell in c.open().iter() {
            let cand = c.get(cell);
            if cand.len() < 2 {
                continue;
            }
            for d in cand.iter() {
                if !x && cand.len() > 2 {
                    continue;
                }
                s.nodes.clear();
                let on = s.push(cell as u8, d, true, NONE);
                for dst in s.cycles(on, y, x) {
                    if let Some(h) = cycle_hint(&s, dst, y, x, sort_key) {
                        hints.push(h);
                    }
                }
                if x {
                    if let Some(t) = s.forcing_chain(on, y) {
                        hints.push(chain_hint(&s, t, y, sort_key));
                    }
                    let off = s.push(cell as u8, d, false, NONE);
                    if let Some(t) = s.forcing_chain(off, y) {
                        hints.push(chain_hint(&s, t, y, sort_key));
                    }
                }
            }
        }
    }
    let h = first(&hints, |h| (h.rating, h.complexity, h.sort_key))?;
    let mut step = SeStep::new(if h.cycle {
        SeTechnique::BidirectionalCycle
    } else {
        SeTechnique::ForcingChain
    });
    step.rating = Tenths((h.rating * 10.0).round() as u8);
    step.eliminations = h.eliminations;
    step.placement = h.placement;
    Some(step)
}

/// The first hint of SE's stable sort by rating (as doubles), complexity and sort key.
pub(super) fn first<T>(hints: &[T], keys: impl Fn(&T) -> (f64, usize, u8)) -> Option<&T> {
    hints
        .iter()
        .enumerate()
        .min_by(|(i, a), (j, b)| {
            let (ra, ca, sa) = keys(a);
            let (rb, cb, sb) = keys(b);
            ra.partial_cmp(&rb)
                .expect("ratings are numbers")
                .then(ca.cmp(&cb))
                .then(sa.cmp(&sb))
                .then(i.cmp(j))
        })
        .map(|(_, h)| h)
}

/// SE's `createCycleHint`: a candidate seen by an "on" and by an "off" potential of the cycle (outside the
/// cycle's cells) goes.
fn cycle_hint(s: &Search, dst: u32, y: bool, x: bool, sort_key: u8) -> Option<Hint> {
    let mut cells = CellSet::EMPTY;
    let mut i = dst;
    while s.nodes[i as usize].parent != NONE {
        cells.insert(s.nodes[i as usize].cell as usize);
        i = s.nodes[i as usize].parent;
    }
    let mut forw = [CellSet::EMPTY; 9];
    let mut back = [CellSet::EMPTY; 9];
    let mut i = dst;
    while s.nodes[i as usize].parent != NONE {
        let n = s.nodes[i as usize];
        let seen = PEERS[n.cell as usize] & !cells & s.c.places(n.digit);
        let side = if n.on { &mut forw } else { &mut back };
        side[n.digit as usize - 1] |= seen;
        i = n.parent;
    }
    let mut e = Eliminations::NONE;
    for d in 1..=9u8 {
        let both = forw[d as usize - 1] & back[d as usize - 1];
        if !both.is_empty() {
            e.add(both, d);
        }
    }
    if e.is_empty() {
        return None;
    }
    let complexity = s.ancestors(dst);
    let base = if y && x { 7.0 } else { 6.5 };
    Some(Hint {
        rating: base + length_difficulty(complexity),
        complexity,
        sort_key,
        cycle: true,
        eliminations: e,
        placement: None,
    })
}

/// SE's `createForcingChainHint`: an "off" target removes the assumed candidate; an "on" target places it (its
/// cell's other candidates go).
fn chain_hint(s: &Search, target: u32, y: bool, sort_key: u8) -> Hint {
    let n = s.nodes[target as usize];
    let cell = n.cell as usize;
    let mut e = Eliminations::NONE;
    let mut placement = None;
    if n.on {
        let mut others: DigitSet = s.c.get(cell);
        others.remove(n.digit);
        for d in others.iter() {
            e.add(CellSet::single(cell), d);
        }
        placement = Some((cell, n.digit));
    } else {
        e.add(CellSet::single(cell), n.digit);
    }
    let complexity = s.ancestors(target);
    let base = if y { 7.0 } else { 6.6 };
    Hint {
        rating: base + length_difficulty(complexity),
        complexity,
        sort_key,
        cycle: false,
        eliminations: e,
        placement,
    }
}
