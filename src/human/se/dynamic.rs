//! SE's Nishio (7.5), multiple (8.0) and dynamic (8.5) forcing chains, dynamic forcing chains (+) (9.0) and the
//! nested forcing chains "(+ Forcing Chains)" (9.5) and "(+ Multiple Forcing Chains)" (10.0), each plus SE's
//! length increment: SE's `Chaining` producer with `isMultiple`/`isDynamic`/`isNishio` and nesting level 0 to 3.
//!
//! From nesting level 2 an advanced implication may come from a forcing chain or cycle (from level 3, a cell or
//! region forcing chain) found on the chain's working grid (see [`super::advanced`]); a hint's complexity is then its own potentials plus, once for each distinct
//! nested chain among its potentials' ancestors, that chain's complexity (SE's `getNestedComplexity`, two nested
//! chains being the same when their potentials are, SE's `FullChain`).
//!
//! For every open cell (three candidates or more for multiple chains, two or more otherwise), each candidate is
//! assumed on and off and the implications grown (`do_chaining`: pending "on" potentials first, then one "off";
//! dynamic chains remove each "off" potential from a working grid as they go, so later implications may use it,
//! and record the removed candidates as extra parents). SE's hints: contradictions (sort key 7), double
//! implications (1), region reductions (6) and cell reductions (5), sorted stably by rating (Java doubles), chain
//! size (distinct potentials over all parents), sort key; the first is applied.

use std::collections::VecDeque;

use super::super::candidates::Candidates;
use super::advanced::{self, Grids, Offs};
use super::{cells_of, house_of, SeStep, SeTechnique, Tenths};
use crate::human::house::{CellSet, DigitSet, HOUSE_LIST};
use crate::human::step::Eliminations;

const NONE: u32 = u32::MAX;

/// Which of SE's three producers.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Nishio,
    Multiple,
    Dynamic,
    /// Dynamic chains that also follow the advanced implications of nesting level 1 (SE's "(+)").
    DynamicPlus,
    /// Dynamic chains that also follow the advanced implications of nesting level 2: those of level 1, then
    /// forcing chains and cycles (SE's "(+ Forcing Chains)").
    NestedFc,
    /// Dynamic chains that also follow the advanced implications of nesting level 3: those of level 2, then
    /// multiple forcing chains (SE's "(+ Multiple Forcing Chains)").
    NestedMfc,
}

impl Kind {
    /// SE's nesting level of the advanced implications followed (0 none).
    fn level(self) -> u8 {
        match self {
            Kind::Nishio | Kind::Multiple | Kind::Dynamic => 0,
            Kind::DynamicPlus => 1,
            Kind::NestedFc => 2,
            Kind::NestedMfc => 3,
        }
    }
}

/// A potential; its parents are `pool[start..start + len]` of its engine.
#[derive(Clone, Copy)]
struct Pot {
    cell: u8,
    digit: u8,
    on: bool,
    start: u32,
    len: u32,
    /// The nested chain it comes from (an index in `Engine::chains`), or `NONE`.
    nested: u32,
}

fn key(cell: u8, digit: u8) -> usize {
    cell as usize * 9 + digit as usize - 1
}

/// SE's `LinkedSet` of potentials of one state: insertion order, one node per (cell, digit).
#[derive(Clone)]
struct LSet {
    idx: [u32; 729],
    order: Vec<u16>,
}

impl LSet {
    fn new() -> LSet {
        LSet {
            idx: [NONE; 729],
            order: Vec::new(),
        }
    }
    fn get(&self, k: usize) -> Option<u32> {
        let i = self.idx[k];
        (i != NONE).then_some(i)
    }
    fn insert(&mut self, k: usize, node: u32) {
        if self.idx[k] == NONE {
            self.idx[k] = node;
            self.order.push(k as u16);
        }
    }
    /// Keeps the keys `other` holds too, in this set's order.
    fn retain(&mut self, other: &LSet) {
        let idx = &mut self.idx;
        self.order.retain(|&k| {
            let keep = other.idx[k as usize] != NONE;
            if !keep {
                idx[k as usize] = NONE;
            }
            keep
        });
    }
}

/// The candidates a chain works on (a copy, dynamic chains remove from it).
#[derive(Clone, Copy)]
struct Work {
    mask: [u16; 81],
    places: [CellSet; 9],
}

impl Work {
    fn new(c: &Candidates) -> Work {
        let v = super::chains::View::of(c);
        Work {
            mask: v.mask,
            places: v.places,
        }
    }
    fn remove(&mut self, cell: usize, d: u8) {
        self.mask[cell] &= !(1 << (d - 1));
        self.places[d as usize - 1].remove(cell);
    }
    fn has(&self, cell: usize, d: u8) -> bool {
        self.mask[cell] >> (d - 1) & 1 != 0
    }
}

struct Engine {
    kind: Kind,
    nodes: Vec<Pot>,
    /// The parents of every node, node after node.
    pool: Vec<u32>,
    work: Work,
    /// Reused by `chain`: the pending "on" and "off" potentials and the implications of one.
    scratch: (VecDeque<u32>, VecDeque<u32>, Vec<u32>),
    /// The cells without a value and how many cells hold each digit (for the advanced implications).
    open: CellSet,
    placed: [u8; 9],
    /// Reused by `chain`: the advanced implications found.
    advanced: Offs,
    /// The nested chains the potentials come from: SE's complexity of each, and what tells two apart.
    chains: Vec<(usize, Vec<u16>)>,
}

impl Engine {
    fn push(&mut self, cell: u8, digit: u8, on: bool, parents: &[u32]) -> u32 {
        self.nodes.push(Pot {
            cell,
            digit,
            on,
            start: self.pool.len() as u32,
            len: parents.len() as u32,
            nested: NONE,
        });
        self.pool.extend_from_slice(parents);
        (self.nodes.len() - 1) as u32
    }

    fn parents(&self, n: &Pot) -> &[u32] {
        &self.pool[n.start as usize..(n.start + n.len) as usize]
    }

    fn on_to_off(&mut self, p: u32, out: &mut Vec<u32>) {
        out.clear();
        let (cell, digit) = (self.nodes[p as usize].cell, self.nodes[p as usize].digit);
        let c = cell as usize;
        if self.kind != Kind::Nishio {
            for d in DigitSet(self.work.mask[c]).iter().filter(|&d| d != digit) {
                let i = self.push(cell, d, false, &[p]);
                out.push(i);
            }
        }
        let mut added = CellSet::single(c);
        for t in 0..3 {
            let places = self.work.places[digit as usize - 1] & cells_of(house_of(t, c)) & !added;
            for x in places.iter() {
                added.insert(x);
                let i = self.push(x as u8, digit, false, &[p]);
                out.push(i);
            }
        }
    }

    fn off_to_on(&mut self, p: u32, save: &Work, to_off: &LSet, out: &mut Vec<u32>) {
        out.clear();
        let (cell, digit) = (self.nodes[p as usize].cell, self.nodes[p as usize].digit);
        let c = cell as usize;
        if self.kind != Kind::Nishio {
            let cand = DigitSet(self.work.mask[c]);
            if cand.len() == 2 {
                let mut other = cand;
                other.remove(digit);
                if let Some(d) = other.first() {
                    let mut parents = vec![p];
                    for v in 1..=9u8 {
                        if save.has(c, v) && !self.work.has(c, v) {
                            if let Some(q) = to_off.get(key(cell, v)) {
                                parents.push(q);
                            }
                        }
                    }
                    let i = self.push(cell, d, true, &parents);
                    out.push(i);
                }
            }
        }
        for t in 0..3 {
            let house = house_of(t, c);
            let hc = cells_of(house);
            let mut others = self.work.places[digit as usize - 1] & hc;
            others.remove(c);
            if others.len() == 1 {
                let o = others.first().expect("one cell");
                let mut parents = vec![p];
                let gone =
                    save.places[digit as usize - 1] & hc & !self.work.places[digit as usize - 1];
                for &x in &HOUSE_LIST[house.0 as usize] {
                    if gone.contains(x as usize) {
                        if let Some(q) = to_off.get(key(x, digit)) {
                            parents.push(q);
                        }
                    }
                }
                let i = self.push(o as u8, digit, true, &parents);
                out.push(i);
            }
        }
    }

    /// SE's `doChaining`: completes `to_on` and `to_off`; the (on, off) pair of a contradiction if one is met.
    fn chain(&mut self, to_on: &mut LSet, to_off: &mut LSet) -> Option<(u32, u32)> {
        let save = self.work;
        // The queues and the buffer are the engine's, reused from call to call.
        let (mut pending_on, mut pending_off, mut buf) = std::mem::take(&mut self.scratch);
        pending_on.clear();
        pending_off.clear();
        pending_on.extend(to_on.order.iter().map(|&k| to_on.idx[k as usize]));
        pending_off.extend(to_off.order.iter().map(|&k| to_off.idx[k as usize]));
        let result = loop {
            if let Some(p) = pending_on.pop_front() {
                self.on_to_off(p, &mut buf);
                if let Some((off, on)) = self.absorb(&buf, to_off, to_on, &mut pending_off) {
                    break Some((on, off));
                }
                continue;
            }
            if let Some(p) = pending_off.pop_front() {
                self.off_to_on(p, &save, to_off, &mut buf);
                if self.kind != Kind::Multiple {
                    let (cell, digit) = (self.nodes[p as usize].cell, self.nodes[p as usize].digit);
                    self.work.remove(cell as usize, digit);
                }
                if let Some(hit) = self.absorb(&buf, to_on, to_off, &mut pending_on) {
                    break Some(hit);
                }
                continue;
            }
            if self.kind.level() > 0 && self.advance(&save, to_off, &mut pending_off) {
                continue;
            }
            break None;
        };
        self.work = save;
        self.scratch = (pending_on, pending_off, buf);
        result
    }

    /// SE's `getAdvancedPotentials` once nothing is pending: the advanced "off" potentials not yet in `to_off`
    /// join it and the queue (SE checks them against nothing else). True when any did.
    fn advance(&mut self, save: &Work, to_off: &mut LSet, pending: &mut VecDeque<u32>) -> bool {
        let mut found = std::mem::take(&mut self.advanced);
        let grids = Grids {
            now: &self.work.mask,
            places: &self.work.places,
            source: &save.mask,
            open: self.open,
            placed: &self.placed,
        };
        advanced::find(&grids, &mut found, self.kind.level());
        let mut added = false;
        let mut parents = Vec::new();
        let base = self.chains.len() as u32;
        self.chains.append(&mut found.chains);
        for (&(k, start, len), &chain) in found.offs.iter().zip(&found.chain) {
            if to_off.get(k as usize).is_some() {
                continue;
            }
            parents.clear();
            parents.extend(
                found.parents[start as usize..(start + len) as usize]
                    .iter()
                    .filter_map(|&q| to_off.get(q as usize)),
            );
            let (cell, digit) = ((k / 9) as u8, (k % 9) as u8 + 1);
            let node = self.push(cell, digit, false, &parents);
            if chain != advanced::NO_CHAIN {
                self.nodes[node as usize].nested = base + chain;
            }
            to_off.insert(k as usize, node);
            pending.push_back(node);
            added = true;
        }
        self.advanced = found;
        added
    }

    /// Takes in the potentials `found` of one state: the first whose conjugate is in `opposite` ends the chaining
    /// (returned with that conjugate); the others not yet in `same` join it and the queue.
    fn absorb(
        &self,
        found: &[u32],
        same: &mut LSet,
        opposite: &LSet,
        pending: &mut VecDeque<u32>,
    ) -> Option<(u32, u32)> {
        for &q in found {
            let k = key(self.nodes[q as usize].cell, self.nodes[q as usize].digit);
            if let Some(o) = opposite.get(k) {
                return Some((q, o));
            } else if same.get(k).is_none() {
                same.insert(k, q);
                pending.push_back(q);
            }
        }
        None
    }

    /// Distinct potentials among `p` and its ancestors, found level by level as SE's `getAncestorCount` does (a
    /// potential met again is not followed again, whatever its parents).
    fn ancestors(&self, p: u32, nested: &mut Vec<u32>) -> usize {
        let mut seen = [false; 1458];
        let mut todo = vec![p];
        let mut n = 0;
        while !todo.is_empty() {
            let mut next = Vec::new();
            for &i in &todo {
                let x = &self.nodes[i as usize];
                let k = key(x.cell, x.digit) * 2 + usize::from(x.on);
                if !seen[k] {
                    seen[k] = true;
                    n += 1;
                    if x.nested != NONE {
                        nested.push(x.nested);
                    }
                    next.extend_from_slice(self.parents(x));
                }
            }
            todo = next;
        }
        n
    }

    /// SE's complexity of a hint with these targets: their ancestors (`ancestors`), plus the complexity of each
    /// distinct nested chain met on the way (SE's `getNestedComplexity`).
    fn complexity(&self, targets: &[u32]) -> usize {
        let mut nested = Vec::new();
        let mut n: usize = targets
            .iter()
            .map(|&t| self.ancestors(t, &mut nested))
            .sum();
        let mut seen: Vec<&[u16]> = Vec::new();
        for id in nested {
            let (cx, identity) = &self.chains[id as usize];
            if !seen.contains(&identity.as_slice()) {
                seen.push(identity);
                n += cx;
            }
        }
        n
    }
}

/// SE's length increment of a chain of `complexity` potentials, as a Java double.
fn length_difficulty(complexity: usize) -> f64 {
    super::chains::length_difficulty(complexity)
}

/// One hint with SE's sort keys.
struct Hint {
    rating: f64,
    complexity: usize,
    sort_key: u8,
    eliminations: Eliminations,
    placement: Option<(usize, u8)>,
}

/// The hint of a target potential: "on" places it (its cell's other candidates go; none left is no hint), "off"
/// removes it.
fn target_hint(
    c: &Candidates,
    cell: u8,
    digit: u8,
    on: bool,
    base: f64,
    complexity: usize,
    sort_key: u8,
) -> Option<Hint> {
    let cell = cell as usize;
    let mut e = Eliminations::NONE;
    let mut placement = None;
    if on {
        let mut others = c.get(cell);
        others.remove(digit);
        if others.is_empty() {
            return None;
        }
        for d in others.iter() {
            e.add(CellSet::single(cell), d);
        }
        placement = Some((cell, digit));
    } else {
        e.add(CellSet::single(cell), digit);
    }
    Some(Hint {
        rating: base + length_difficulty(complexity),
        complexity,
        sort_key,
        eliminations: e,
        placement,
    })
}

/// SE's producer of `kind`: the first hint of SE's sorted list.
pub(super) fn find(c: &Candidates, kind: Kind) -> Option<SeStep> {
    let nishio = kind == Kind::Nishio;
    let dynamic = kind != Kind::Multiple;
    let multiple = kind != Kind::Nishio;
    let base = match kind {
        Kind::Nishio => 7.5,
        Kind::Multiple => 8.0,
        Kind::Dynamic => 8.5,
        Kind::DynamicPlus => 9.0,
        Kind::NestedFc => 9.5,
        Kind::NestedMfc => 10.0,
    };
    let mut e = Engine {
        kind,
        nodes: Vec::with_capacity(1 << 14),
        pool: Vec::with_capacity(1 << 14),
        work: Work::new(c),
        scratch: Default::default(),
        open: c.open(),
        placed: std::array::from_fn(|d| c.placed(d as u8 + 1).len() as u8),
        advanced: Offs::default(),
        chains: Vec::new(),
    };
    let mut hints: Vec<Hint> = Vec::new();
    for cell in c.open().iter() {
        let cand = c.get(cell);
        let card = cand.len();
        if !(card > 2 || (card > 1 && dynamic)) {
            continue;
        }
        e.nodes.clear();
        e.pool.clear();
        e.chains.clear();
        let cell8 = cell as u8;
        let mut value_on: Vec<LSet> = Vec::new();
        let mut value_off: Vec<LSet> = Vec::new();
        let mut cell_on: Option<LSet> = None;
        let mut cell_off: Option<LSet> = None;
        for v in cand.iter() {
            let double = card >= 3 && !nishio && dynamic;
            let contradiction = dynamic || nishio;
            let p_on = e.push(cell8, v, true, &[]);
            let p_off = e.push(cell8, v, false, &[]);
            let mut assume = |p: u32, on: bool| {
                let (mut to_on, mut to_off) = (LSet::new(), LSet::new());
                if on { &mut to_on } else { &mut to_off }.insert(key(cell8, v), p);
                let absurd = e.chain(&mut to_on, &mut to_off);
                // A contradiction proves the assumption false.
                if let (true, Some((a, b))) = (contradiction, absurd) {
                    let cx = e.complexity(&[a, b]);
                    hints.extend(target_hint(c, cell8, v, !on, base, cx, 7));
                }
                (to_on, to_off)
            };
            let (on_on, on_off) = assume(p_on, true);
            let (off_on, off_off) = assume(p_off, false);
            if double {
                // What both assumptions make true, then what both make false.
                for (from_on, from_off, value) in
                    [(&on_on, &off_on, true), (&on_off, &off_off, false)]
                {
                    for &k in &from_on.order {
                        if let Some(other) = from_off.get(k as usize) {
                            let a = from_on.idx[k as usize];
                            let cx = e.complexity(&[a, other]);
                            let n = &e.nodes[a as usize];
                            hints.extend(target_hint(c, n.cell, n.digit, value, base, cx, 1));
                        }
                    }
                }
            }
            if !nishio {
                regions(
                    &mut e, c, cell, v, &on_on, &on_off, multiple, base, &mut hints,
                );
            }
            match (&mut cell_on, &mut cell_off) {
                (Some(a), Some(b)) => {
                    a.retain(&on_on);
                    b.retain(&on_off);
                }
                _ => {
                    cell_on = Some(on_on.clone());
                    cell_off = Some(on_off.clone());
                }
            }
            value_on.push(on_on);
            value_off.push(on_off);
        }
        if !nishio && (card == 2 || (multiple && card > 2)) {
            for (set, outcomes, on) in [(&cell_on, &value_on, true), (&cell_off, &value_off, false)]
            {
                if let Some(set) = set {
                    common_hints(&e, c, set, outcomes, on, base, 5, &mut hints);
                }
            }
        }
    }
    let h = super::chains::first(&hints, |h| (h.rating, h.complexity, h.sort_key))?;
    let mut step = SeStep::new(match kind {
        Kind::Nishio => SeTechnique::NishioForcingChain,
        Kind::Multiple => SeTechnique::MultipleForcingChain,
        Kind::Dynamic => SeTechnique::DynamicForcingChain,
        Kind::DynamicPlus => SeTechnique::DynamicForcingChainPlus,
        Kind::NestedFc => SeTechnique::NestedForcingChain,
        Kind::NestedMfc => SeTechnique::NestedMultipleForcingChain,
    });
    step.rating = Tenths((h.rating * 10.0).round() as u8);
    step.eliminations = h.eliminations;
    step.placement = h.placement;
    Some(step)
}

/// A hint for each conclusion of `set`, which every one of `outcomes` reached (a cell's or a region's forcing
/// chains): its complexity is the sum of the outcomes' chains to it.
#[allow(clippy::too_many_arguments)]
fn common_hints(
    e: &Engine,
    c: &Candidates,
    set: &LSet,
    outcomes: &[LSet],
    on: bool,
    base: f64,
    sort_key: u8,
    hints: &mut Vec<Hint>,
) {
    for &k in &set.order {
        let targets: Vec<u32> = outcomes.iter().map(|o| o.idx[k as usize]).collect();
        let cx = e.complexity(&targets);
        let (tc, td) = ((k / 9) as u8, (k % 9) as u8 + 1);
        hints.extend(target_hint(c, tc, td, on, base, cx, sort_key));
    }
}

/// SE's `doRegionChainings`: for the box, row and column of `cell` where `v` has two places (or more, multiple
/// chains), when `cell` is the first of them, what every place implies.
#[allow(clippy::too_many_arguments)]
fn regions(
    e: &mut Engine,
    c: &Candidates,
    cell: usize,
    v: u8,
    on_on: &LSet,
    on_off: &LSet,
    multiple: bool,
    base: f64,
    hints: &mut Vec<Hint>,
) {
    for t in 0..3 {
        let house = house_of(t, cell);
        let places = c.places(v) & cells_of(house);
        let n = places.len();
        if !(n == 2 || (multiple && n > 2)) || places.first() != Some(cell) {
            continue;
        }
        let mut outcomes_on: Vec<LSet> = Vec::new();
        let mut outcomes_off: Vec<LSet> = Vec::new();
        let mut region_on = on_on.clone();
        let mut region_off = on_off.clone();
        for x in places.iter() {
            if x == cell {
                outcomes_on.push(on_on.clone());
                outcomes_off.push(on_off.clone());
                continue;
            }
            let p = e.push(x as u8, v, true, &[]);
            let (mut xo, mut xf) = (LSet::new(), LSet::new());
            xo.insert(key(x as u8, v), p);
            e.chain(&mut xo, &mut xf);
            region_on.retain(&xo);
            region_off.retain(&xf);
            outcomes_on.push(xo);
            outcomes_off.push(xf);
        }
        for (set, outcomes, on) in [
            (&region_on, &outcomes_on, true),
            (&region_off, &outcomes_off, false),
        ] {
            common_hints(e, c, set, outcomes, on, base, 6, hints);
        }
    }
}
