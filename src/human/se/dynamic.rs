//! SE's Nishio (7.5), multiple (8.0) and dynamic (8.5) forcing chains, dynamic forcing chains (+) (9.0) and the
//! nested forcing chains "(+ Forcing Chains)" (9.5), "(+ Multiple Forcing Chains)" (10.0) and "(+ Dynamic Forcing
//! Chains)" (10.5), each plus SE's length increment: SE's `Chaining` producer with `isMultiple`/`isDynamic`/
//! `isNishio` and nesting level 0 to 4.
//!
//! At nesting level 4 a chain with nothing left to follow looks, after the techniques of level 1, for every hint
//! of a whole dynamic producer of nesting level `n` (SE's `nestingLimit`, 0 to 3: SE asks the four producers in
//! turn, the next only when the one before found nothing) on its working grid ([`nested_hints`]: the same hints as
//! that producer would find on a puzzle with those candidates, each with its chains and the "on" potentials'
//! causes, which the nesting chain's rule parents and complexity are read from, as for the static chains of levels
//! 2 and 3).
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
use super::chains::{key, length_difficulty, NestedHint, CAUSE_NAKED, CAUSE_REGION, NO_CAUSE};
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
    /// Dynamic chains that also follow the advanced implications of nesting level 4: those of level 1, then the
    /// dynamic forcing chains of nesting level `n` (0 to 3) found on the chain's grid (SE's "(+ Dynamic Forcing
    /// Chains)", its `nestingLimit` `n`).
    NestedDfc(u8),
}

impl Kind {
    /// SE's nesting level of the advanced implications followed (0 none).
    fn level(self) -> u8 {
        match self {
            Kind::Nishio | Kind::Multiple | Kind::Dynamic => 0,
            Kind::DynamicPlus => 1,
            Kind::NestedFc => 2,
            Kind::NestedMfc => 3,
            Kind::NestedDfc(_) => 4,
        }
    }

    /// The dynamic producer of nesting level `n` (0 to 3), as [`Kind::NestedDfc`] nests it.
    fn of_level(n: u8) -> Kind {
        match n {
            0 => Kind::Dynamic,
            1 => Kind::DynamicPlus,
            2 => Kind::NestedFc,
            _ => Kind::NestedMfc,
        }
    }
}

/// A potential; its parents are `pool[start..start + len]` of its engine.
#[derive(Clone, Copy)]
struct Pot {
    cell: u8,
    digit: u8,
    on: bool,
    /// SE's cause of an "on" potential's link ([`CAUSE_NAKED`], [`CAUSE_REGION`] plus the house type), else
    /// [`NO_CAUSE`]: what a nesting chain's rule parents read (level 4).
    cause: u8,
    start: u32,
    len: u32,
    /// The nested chain it comes from (an index in `Engine::chains`), or `NONE`.
    nested: u32,
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
    /// Empties the set (its storage is kept for reuse).
    fn clear(&mut self) {
        for &k in &self.order {
            self.idx[k as usize] = NONE;
        }
        self.order.clear();
    }
}

/// Sets emptied for reuse: a set is large (one slot per candidate), so the chains of one producer recycle them
/// rather than clear or copy fresh ones.
// Boxed: a set moves (into the outcome lists, out of the chains) as a pointer, not as its 3 KB.
#[allow(clippy::vec_box)]
#[derive(Default)]
struct Pool(Vec<Box<LSet>>);

impl Pool {
    fn take(&mut self) -> Box<LSet> {
        self.0.pop().unwrap_or_else(|| Box::new(LSet::new()))
    }
    fn give(&mut self, mut set: Box<LSet>) {
        set.clear();
        self.0.push(set);
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
}

struct Engine {
    kind: Kind,
    nodes: Vec<Pot>,
    /// The parents of every node, node after node.
    pool: Vec<u32>,
    work: Work,
    /// Reused by `chain`: the pending "on" and "off" potentials.
    scratch: (VecDeque<u32>, VecDeque<u32>),
    /// The cells without a value and how many cells hold each digit (for the advanced implications).
    open: CellSet,
    placed: [u8; 9],
    /// Reused by `chain`: the advanced implications found.
    advanced: Offs,
    /// The nested chains the potentials come from: SE's complexity of each, and what tells two apart.
    chains: Vec<(usize, Vec<u16>)>,
    /// Reused by `ancestors`: the potentials seen (`seen[k] == stamp` for this call's), the two levels, and the
    /// nested chains met.
    seen: Vec<u32>,
    stamp: u32,
    levels: (Vec<u32>, Vec<u32>),
    nested: Vec<u32>,
    /// The grid the producer runs on (level 4 builds the working grids of its nested producer from it).
    start: Candidates,
    /// Whether hints record what a nesting chain needs of them ([`nested_hints`]).
    details: bool,
}

impl Engine {
    fn push(&mut self, cell: u8, digit: u8, on: bool, parents: &[u32]) -> u32 {
        self.nodes.push(Pot {
            cell,
            digit,
            on,
            cause: NO_CAUSE,
            start: self.pool.len() as u32,
            len: parents.len() as u32,
            nested: NONE,
        });
        self.pool.extend_from_slice(parents);
        (self.nodes.len() - 1) as u32
    }

    /// A node implied through a link of `cause`, whose parents are the end of the pool from `start` on, already
    /// pushed there.
    fn push_pooled(&mut self, cell: u8, digit: u8, on: bool, cause: u8, start: usize) -> u32 {
        self.nodes.push(Pot {
            cell,
            digit,
            on,
            cause,
            start: start as u32,
            len: (self.pool.len() - start) as u32,
            nested: NONE,
        });
        (self.nodes.len() - 1) as u32
    }

    fn parents(&self, n: &Pot) -> &[u32] {
        &self.pool[n.start as usize..(n.start + n.len) as usize]
    }

    /// Takes in a potential implied by the one being followed (SE's `doChaining` step): when its conjugate is in
    /// `opposite` the chaining ends (the potential and that conjugate are returned); else, when not in `same` yet,
    /// it joins `same` and the queue. Only a potential taken in is made a node (implied through a link of
    /// `cause`), its parents pushed by `parents`.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn take_in(
        &mut self,
        (cell, digit, on, cause): (u8, u8, bool, u8),
        same: &mut LSet,
        opposite: &LSet,
        pending: &mut VecDeque<u32>,
        parents: impl FnOnce(&mut Engine),
    ) -> Option<(u32, u32)> {
        let k = key(cell, digit);
        let conjugate = opposite.get(k);
        if conjugate.is_none() && same.get(k).is_some() {
            return None;
        }
        let start = self.pool.len();
        parents(self);
        let q = self.push_pooled(cell, digit, on, cause, start);
        if let Some(o) = conjugate {
            return Some((q, o));
        }
        same.insert(k, q);
        pending.push_back(q);
        None
    }

    /// SE's `getOnToOff` of the "on" potential `p`: the cell's other digits, then the digit's other places in the
    /// box, row and column, each cell once, taken in as found ([`Engine::take_in`]); the (on, off) pair of a
    /// contradiction if one is met.
    fn on_to_off(
        &mut self,
        p: u32,
        to_on: &LSet,
        to_off: &mut LSet,
        pending: &mut VecDeque<u32>,
    ) -> Option<(u32, u32)> {
        let (cell, digit) = (self.nodes[p as usize].cell, self.nodes[p as usize].digit);
        let c = cell as usize;
        let parent = |e: &mut Engine| e.pool.push(p);
        if self.kind != Kind::Nishio {
            for d in DigitSet(self.work.mask[c]).iter().filter(|&d| d != digit) {
                if let Some((off, on)) =
                    self.take_in((cell, d, false, NO_CAUSE), to_off, to_on, pending, parent)
                {
                    return Some((on, off));
                }
            }
        }
        let mut added = CellSet::single(c);
        for t in 0..3 {
            let places = self.work.places[digit as usize - 1] & cells_of(house_of(t, c)) & !added;
            for x in places.iter() {
                added.insert(x);
                if let Some((off, on)) = self.take_in(
                    (x as u8, digit, false, NO_CAUSE),
                    to_off,
                    to_on,
                    pending,
                    parent,
                ) {
                    return Some((on, off));
                }
            }
        }
        None
    }

    /// SE's `getOffToOn` of the "off" potential `p` on the working grid: the cell's last other digit, then the
    /// digit's last other place in the box, row or column, each resting on `p` and on the candidates the chain
    /// removed that made it last (`save` is the grid the chain started from), taken in as found
    /// ([`Engine::take_in`]); the (on, off) pair of a contradiction if one is met.
    fn off_to_on(
        &mut self,
        p: u32,
        save: &Work,
        to_on: &mut LSet,
        to_off: &LSet,
        pending: &mut VecDeque<u32>,
    ) -> Option<(u32, u32)> {
        let (cell, digit) = (self.nodes[p as usize].cell, self.nodes[p as usize].digit);
        let c = cell as usize;
        if self.kind != Kind::Nishio {
            let cand = DigitSet(self.work.mask[c]);
            if cand.len() == 2 {
                let mut other = cand;
                other.remove(digit);
                if let Some(d) = other.first() {
                    let parents = |e: &mut Engine| {
                        e.pool.push(p);
                        for v in DigitSet(save.mask[c] & !e.work.mask[c]).iter() {
                            if let Some(q) = to_off.get(key(cell, v)) {
                                e.pool.push(q);
                            }
                        }
                    };
                    let hit = self.take_in(
                        (cell, d, true, CAUSE_NAKED),
                        to_on,
                        to_off,
                        pending,
                        parents,
                    );
                    if hit.is_some() {
                        return hit;
                    }
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
                let parents = |e: &mut Engine| {
                    e.pool.push(p);
                    let gone =
                        save.places[digit as usize - 1] & hc & !e.work.places[digit as usize - 1];
                    if !gone.is_empty() {
                        for &x in &HOUSE_LIST[house.0 as usize] {
                            if gone.contains(x as usize) {
                                if let Some(q) = to_off.get(key(x, digit)) {
                                    e.pool.push(q);
                                }
                            }
                        }
                    }
                };
                let hit = self.take_in(
                    (o as u8, digit, true, CAUSE_REGION + t as u8),
                    to_on,
                    to_off,
                    pending,
                    parents,
                );
                if hit.is_some() {
                    return hit;
                }
            }
        }
        None
    }

    /// SE's `doChaining`: completes `to_on` and `to_off`; the (on, off) pair of a contradiction if one is met.
    fn chain(&mut self, to_on: &mut LSet, to_off: &mut LSet) -> Option<(u32, u32)> {
        let save = self.work;
        // The queues are the engine's, reused from call to call.
        let (mut pending_on, mut pending_off) = std::mem::take(&mut self.scratch);
        pending_on.clear();
        pending_off.clear();
        pending_on.extend(to_on.order.iter().map(|&k| to_on.idx[k as usize]));
        pending_off.extend(to_off.order.iter().map(|&k| to_off.idx[k as usize]));
        let result = loop {
            if let Some(p) = pending_on.pop_front() {
                let hit = self.on_to_off(p, to_on, to_off, &mut pending_off);
                if hit.is_some() {
                    break hit;
                }
                continue;
            }
            if let Some(p) = pending_off.pop_front() {
                let hit = self.off_to_on(p, &save, to_on, to_off, &mut pending_on);
                if hit.is_some() {
                    break hit;
                }
                if self.kind != Kind::Multiple {
                    let (cell, digit) = (self.nodes[p as usize].cell, self.nodes[p as usize].digit);
                    self.work.remove(cell as usize, digit);
                }
                continue;
            }
            if self.kind.level() > 0 && self.advance(&save, to_off, &mut pending_off) {
                continue;
            }
            break None;
        };
        self.work = save;
        self.scratch = (pending_on, pending_off);
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
        match self.kind {
            Kind::NestedDfc(n) => {
                advanced::find_dynamic(&grids, &mut found, &self.working(), Kind::of_level(n))
            }
            _ => advanced::find(&grids, &mut found, self.kind.level()),
        }
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

    /// The working grid as a candidate grid: the producer's grid without the candidates the chain removed.
    fn working(&self) -> Candidates {
        let mut w = self.start;
        for cell in self.open.iter() {
            for d in DigitSet(self.start.get(cell).0 & !self.work.mask[cell]).iter() {
                w.eliminate(cell, d);
            }
        }
        w
    }

    /// A fresh mark for `seen`: no potential carries it yet.
    fn next_stamp(&mut self) -> u32 {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.seen.fill(0);
            self.stamp = 1;
        }
        self.stamp
    }

    /// Distinct potentials among `p` and its ancestors, found level by level as SE's `getAncestorCount` does (a
    /// potential met again is not followed again, whatever its parents).
    fn ancestors(&mut self, p: u32) -> usize {
        let mut n = 0;
        let mut nested = std::mem::take(&mut self.nested);
        self.walk(p, |x, _| {
            n += 1;
            if x.nested != NONE {
                nested.push(x.nested);
            }
        });
        self.nested = nested;
        n
    }

    /// Visits `p` and its ancestors level by level (SE's `getAncestorCount` and `getChain`), each potential once
    /// (one met again is not followed again, whatever its parents), with its key `key * 2 + on`.
    #[inline]
    fn walk(&mut self, p: u32, mut visit: impl FnMut(&Pot, usize)) {
        let stamp = self.next_stamp();
        let (mut todo, mut next) = std::mem::take(&mut self.levels);
        todo.clear();
        todo.push(p);
        while !todo.is_empty() {
            next.clear();
            for &i in &todo {
                let x = &self.nodes[i as usize];
                let k = key(x.cell, x.digit) * 2 + usize::from(x.on);
                if self.seen[k] != stamp {
                    self.seen[k] = stamp;
                    visit(x, k);
                    next.extend_from_slice(self.parents(x));
                }
            }
            std::mem::swap(&mut todo, &mut next);
        }
        self.levels = (todo, next);
    }

    /// SE's complexity of a hint with these targets: their ancestors (`ancestors`), plus the complexity of each
    /// distinct nested chain met on the way (SE's `getNestedComplexity`).
    fn complexity(&mut self, targets: &[u32]) -> usize {
        self.nested.clear();
        let mut n: usize = targets.iter().map(|&t| self.ancestors(t)).sum();
        if self.nested.is_empty() {
            return n;
        }
        let nested = std::mem::take(&mut self.nested);
        let mut seen: Vec<&[u16]> = Vec::new();
        for &id in &nested {
            let (cx, identity) = &self.chains[id as usize];
            if !seen.contains(&identity.as_slice()) {
                seen.push(identity);
                n += cx;
            }
        }
        self.nested = nested;
        n
    }

    /// `h` with what a nesting chain needs of it when the engine records it ([`Engine::details`]): each target's
    /// chain as SE's `getChain` lists it (breadth first from the target up, each potential once) and the "on"
    /// potentials met with their link's cause (`root` for an assumption: a cell's or a region's forcing chains),
    /// what SE's `getRuleParents` reads.
    #[inline]
    fn detailed(&mut self, mut h: Hint, targets: &[u32], root: u8) -> Hint {
        if self.details {
            h.detail = Some(self.detail(&h, targets, root));
        }
        h
    }

    /// What [`Engine::detailed`] records of `h`.
    fn detail(&mut self, h: &Hint, targets: &[u32], root: u8) -> Box<NestedHint> {
        let mut causes = Vec::new();
        let mut identity = Vec::new();
        for &t in targets {
            self.walk(t, |x, k| {
                identity.push(k as u16);
                let cause = if x.cause == NO_CAUSE { root } else { x.cause };
                if x.on && cause != NO_CAUSE {
                    causes.push((x.cell, x.digit, cause));
                }
            });
            identity.push(u16::MAX);
        }
        let (cell, _) = h
            .eliminations
            .iter()
            .next()
            .expect("a hint removes something");
        let removes = h
            .eliminations
            .iter()
            .fold(DigitSet::EMPTY, |mut s, (_, d)| {
                s.insert(d);
                s
            });
        Box::new(NestedHint {
            complexity: h.complexity,
            removes: vec![(cell as u8, removes)],
            causes,
            identity,
        })
    }
}

/// One hint with SE's sort keys.
struct Hint {
    rating: f64,
    complexity: usize,
    sort_key: u8,
    eliminations: Eliminations,
    placement: Option<(usize, u8)>,
    /// What a nesting chain needs of it, when recorded ([`Engine::detailed`]); boxed, the hint stays small.
    detail: Option<Box<NestedHint>>,
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
        detail: None,
    })
}

/// SE's producer of `kind`: the first hint of SE's sorted list.
pub(super) fn find(c: &Candidates, kind: Kind) -> Option<SeStep> {
    let hints = hints(c, kind, false);
    let h = super::chains::first(&hints, |h| (h.rating, h.complexity, h.sort_key))?;
    let mut step = SeStep::new(match kind {
        Kind::Nishio => SeTechnique::NishioForcingChain,
        Kind::Multiple => SeTechnique::MultipleForcingChain,
        Kind::Dynamic => SeTechnique::DynamicForcingChain,
        Kind::DynamicPlus => SeTechnique::DynamicForcingChainPlus,
        Kind::NestedFc => SeTechnique::NestedForcingChain,
        Kind::NestedMfc => SeTechnique::NestedMultipleForcingChain,
        Kind::NestedDfc(_) => SeTechnique::NestedDynamicForcingChain,
    });
    step.rating = Tenths((h.rating * 10.0).round() as u8);
    step.eliminations = h.eliminations;
    step.placement = h.placement;
    Some(step)
}

/// Every hint of the dynamic producer of `kind` on a chain's working grid `c`, as SE's nesting level 4 takes them
/// (its nested `Chaining` producer): sorted stably by rating, complexity and sort key, a hint removing the same
/// candidates as an earlier one dropped (SE's `LinkedHashSet`), each with what the nesting chain needs of it.
pub(super) fn nested_hints(c: &Candidates, kind: Kind) -> Vec<NestedHint> {
    let mut hints = hints(c, kind, true);
    super::chains::sort(&mut hints, |h| (h.rating, h.complexity, h.sort_key));
    let mut kept: Vec<(u8, DigitSet)> = Vec::new();
    let mut out = Vec::new();
    for h in hints {
        let detail = h.detail.expect("collected with details");
        if kept.contains(&detail.removes[0]) {
            continue;
        }
        kept.push(detail.removes[0]);
        out.push(*detail);
    }
    out
}

/// Every hint of SE's producer of `kind` on `c`, in SE's order before its sort; with `details`, each records what a
/// nesting chain needs of it.
fn hints(c: &Candidates, kind: Kind, details: bool) -> Vec<Hint> {
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
        Kind::NestedDfc(_) => 10.5,
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
        seen: vec![0; 1458],
        stamp: 0,
        levels: Default::default(),
        nested: Vec::new(),
        start: *c,
        details,
    };
    let mut sets = Pool::default();
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
        let mut value_on: Vec<Box<LSet>> = Vec::new();
        let mut value_off: Vec<Box<LSet>> = Vec::new();
        for v in cand.iter() {
            let double = card >= 3 && !nishio && dynamic;
            let contradiction = dynamic || nishio;
            let p_on = e.push(cell8, v, true, &[]);
            let p_off = e.push(cell8, v, false, &[]);
            let mut assume = |p: u32, on: bool| {
                let (mut to_on, mut to_off) = (sets.take(), sets.take());
                if on { &mut to_on } else { &mut to_off }.insert(key(cell8, v), p);
                let absurd = e.chain(&mut to_on, &mut to_off);
                // A contradiction proves the assumption false.
                if let (true, Some((a, b))) = (contradiction, absurd) {
                    let cx = e.complexity(&[a, b]);
                    if let Some(h) = target_hint(c, cell8, v, !on, base, cx, 7) {
                        hints.push(e.detailed(h, &[a, b], NO_CAUSE));
                    }
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
                            if let Some(h) = target_hint(c, n.cell, n.digit, value, base, cx, 1) {
                                hints.push(e.detailed(h, &[a, other], NO_CAUSE));
                            }
                        }
                    }
                }
            }
            sets.give(off_on);
            sets.give(off_off);
            if !nishio {
                regions(
                    &mut e, &mut sets, c, cell, v, &on_on, &on_off, multiple, base, &mut hints,
                );
            }
            value_on.push(on_on);
            value_off.push(on_off);
        }
        if !nishio && (card == 2 || (multiple && card > 2)) {
            for (outcomes, on) in [(&value_on, true), (&value_off, false)] {
                let outcomes: Vec<&LSet> = outcomes.iter().map(|s| &**s).collect();
                common_hints(&mut e, c, &outcomes, on, base, (5, CAUSE_NAKED), &mut hints);
            }
        }
        for set in value_on.into_iter().chain(value_off) {
            sets.give(set);
        }
    }
    hints
}

/// A hint for each conclusion every one of `outcomes` reached (a cell's or a region's forcing chains), in the
/// first outcome's order: its complexity is the sum of the outcomes' chains to it. `kind` is the hints' sort key
/// and the cause of their assumptions (a cell's, a region's).
fn common_hints(
    e: &mut Engine,
    c: &Candidates,
    outcomes: &[&LSet],
    on: bool,
    base: f64,
    (sort_key, root): (u8, u8),
    hints: &mut Vec<Hint>,
) {
    let mut targets: Vec<u32> = Vec::with_capacity(outcomes.len());
    for &k in &outcomes[0].order {
        targets.clear();
        targets.extend(outcomes.iter().map(|o| o.idx[k as usize]));
        if targets.contains(&NONE) {
            continue;
        }
        let cx = e.complexity(&targets);
        let (tc, td) = ((k / 9) as u8, (k % 9) as u8 + 1);
        if let Some(h) = target_hint(c, tc, td, on, base, cx, sort_key) {
            hints.push(e.detailed(h, &targets, root));
        }
    }
}

/// SE's `doRegionChainings`: for the box, row and column of `cell` where `v` has two places (or more, multiple
/// chains), when `cell` is the first of them, what every place implies.
#[allow(clippy::too_many_arguments)]
fn regions(
    e: &mut Engine,
    sets: &mut Pool,
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
        // `cell` is the first place: its outcomes come first.
        let mut outcomes: Vec<(Box<LSet>, Box<LSet>)> = Vec::new();
        for x in places.iter().skip(1) {
            let p = e.push(x as u8, v, true, &[]);
            let (mut xo, mut xf) = (sets.take(), sets.take());
            xo.insert(key(x as u8, v), p);
            e.chain(&mut xo, &mut xf);
            outcomes.push((xo, xf));
        }
        let mut all_on: Vec<&LSet> = vec![on_on];
        all_on.extend(outcomes.iter().map(|o| &*o.0));
        let kind = (6, CAUSE_REGION + t as u8);
        common_hints(e, c, &all_on, true, base, kind, hints);
        let mut all_off: Vec<&LSet> = vec![on_off];
        all_off.extend(outcomes.iter().map(|o| &*o.1));
        common_hints(e, c, &all_off, false, base, kind, hints);
        for (xo, xf) in outcomes {
            sets.give(xo);
            sets.give(xf);
        }
    }
}
