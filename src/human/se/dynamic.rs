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
//! size (distinct potentials over all parents), sort key; the first is applied. Only that first one is kept by
//! [`find`] (the rating grows with the size, so it is the earliest of least size and sort key), and the size of a
//! hint that cannot come before it is not counted out; [`nested_hints`] keeps them all, with their details (see
//! [`Hints`]).
//!
//! Unlike SE, the chain from "(cell, v) on" is grown once per producer call: the region chainings of the houses
//! where `v` has a place before `cell` need it as well as the cell's own, and a chain's outcome depends only on its
//! start and the grid. It is kept from its first use to its last (counted ahead), which cuts the chains grown by
//! about a third without changing a hint or their order (see [`Memo`]).

use super::super::candidates::Candidates;
use super::advanced::{self, Grids, Offs};
use super::chains::{key, length_difficulty, NestedHint, CAUSE_NAKED, CAUSE_REGION, NO_CAUSE};
use super::{cells_of, house_of, SeStep, SeTechnique, Tenths};
use crate::human::house::{CellSet, DigitSet, HOUSE_LIST};
use crate::human::step::Eliminations;

const NONE: u32 = u32::MAX;

/// Which of SE's three producers.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
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

/// Sets emptied for reuse: a set is large (one slot per candidate), so the chains recycle them rather than clear
/// or copy fresh ones; a thread keeps its sets from one producer call to the next ([`SETS`]).
// Boxed: a set moves (into the outcome lists, out of the chains) as a pointer, not as its 3 KB.
#[allow(clippy::vec_box)]
#[derive(Default)]
struct Pool(Vec<Box<LSet>>);

thread_local! {
    /// This thread's sets between producer calls.
    static SETS: std::cell::Cell<Pool> = std::cell::Cell::new(Pool::default());
}

impl Pool {
    /// At most this many sets (about 3 KB each) are kept between producer calls.
    const KEPT: usize = 512;

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
    /// it joins `same` (and so the queue: see [`Engine::chain`]). Only a potential taken in is made a node
    /// (implied through a link of `cause`), its parents pushed by `parents`.
    #[inline]
    fn take_in(
        &mut self,
        (cell, digit, on, cause): (u8, u8, bool, u8),
        same: &mut LSet,
        opposite: &LSet,
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
        None
    }

    /// SE's `getOnToOff` of the "on" potential `p`: the cell's other digits, then the digit's other places in the
    /// box, row and column, each cell once, taken in as found ([`Engine::take_in`]); the (on, off) pair of a
    /// contradiction if one is met.
    fn on_to_off(&mut self, p: u32, to_on: &LSet, to_off: &mut LSet) -> Option<(u32, u32)> {
        let (cell, digit) = (self.nodes[p as usize].cell, self.nodes[p as usize].digit);
        let c = cell as usize;
        let parent = |e: &mut Engine| e.pool.push(p);
        if self.kind != Kind::Nishio {
            for d in DigitSet(self.work.mask[c]).iter().filter(|&d| d != digit) {
                if let Some((off, on)) =
                    self.take_in((cell, d, false, NO_CAUSE), to_off, to_on, parent)
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
                if let Some((off, on)) =
                    self.take_in((x as u8, digit, false, NO_CAUSE), to_off, to_on, parent)
                {
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
                    let hit = self.take_in((cell, d, true, CAUSE_NAKED), to_on, to_off, parents);
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
    /// A potential joins its set and SE's queue of pending potentials at once, so the queues are the sets' orders
    /// from a cursor on.
    fn chain(&mut self, to_on: &mut LSet, to_off: &mut LSet) -> Option<(u32, u32)> {
        let save = self.work;
        let (mut next_on, mut next_off) = (0, 0);
        let result = loop {
            if let Some(&k) = to_on.order.get(next_on) {
                next_on += 1;
                let hit = self.on_to_off(to_on.idx[k as usize], to_on, to_off);
                if hit.is_some() {
                    break hit;
                }
                continue;
            }
            if let Some(&k) = to_off.order.get(next_off) {
                next_off += 1;
                let p = to_off.idx[k as usize];
                let hit = self.off_to_on(p, &save, to_on, to_off);
                if hit.is_some() {
                    break hit;
                }
                if self.kind != Kind::Multiple {
                    let (cell, digit) = (self.nodes[p as usize].cell, self.nodes[p as usize].digit);
                    self.work.remove(cell as usize, digit);
                }
                continue;
            }
            if self.kind.level() > 0 && self.advance(&save, to_off) {
                continue;
            }
            break None;
        };
        self.work = save;
        result
    }

    /// SE's `getAdvancedPotentials` once nothing is pending: the advanced "off" potentials not yet in `to_off`
    /// join it and the queue (SE checks them against nothing else). True when any did.
    fn advance(&mut self, save: &Work, to_off: &mut LSet) -> bool {
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
                advanced::find_dynamic(&grids, &mut found, || self.working(), Kind::of_level(n))
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

    /// Distinct potentials among `p` and its ancestors, found level by level as SE's `getAncestorCount` does (a
    /// potential met again is not followed again, whatever its parents); `None` once there are more than `limit`.
    fn ancestors(&mut self, p: u32, limit: usize) -> Option<usize> {
        let mut n = 0;
        let mut nested = std::mem::take(&mut self.nested);
        let whole = self.walk(p, |x, _| {
            n += 1;
            if n > limit {
                return false;
            }
            if x.nested != NONE {
                nested.push(x.nested);
            }
            true
        });
        self.nested = nested;
        whole.then_some(n)
    }

    /// Visits `p` and its ancestors level by level (SE's `getAncestorCount` and `getChain`), each potential once
    /// (one met again is not followed again, whatever its parents), with its key `key * 2 + on`, until `visit`
    /// returns false; false when it did.
    #[inline]
    fn walk(&mut self, p: u32, mut visit: impl FnMut(&Pot, usize) -> bool) -> bool {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.seen.fill(0);
            self.stamp = 1;
        }
        let stamp = self.stamp;
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
                    if !visit(x, k) {
                        self.levels = (todo, next);
                        return false;
                    }
                    next.extend_from_slice(self.parents(x));
                }
            }
            std::mem::swap(&mut todo, &mut next);
        }
        self.levels = (todo, next);
        true
    }

    /// SE's complexity of a hint with these targets: their ancestors (`ancestors`), plus the complexity of each
    /// distinct nested chain met on the way (SE's `getNestedComplexity`); `None` once it is over `limit`.
    fn complexity(&mut self, targets: &[u32], limit: usize) -> Option<usize> {
        self.nested.clear();
        let mut n = 0;
        for &t in targets {
            n += self.ancestors(t, limit - n)?;
        }
        if self.nested.is_empty() {
            return Some(n);
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
        (n <= limit).then_some(n)
    }

    /// What a nesting chain needs of a hint removing `removes` and resting on `targets`, of SE's complexity
    /// `complexity`: each target's chain as SE's `getChain` lists it (breadth first from the target up, each
    /// potential once) and the "on" potentials met with their link's cause (`root` for an assumption: a cell's or
    /// a region's forcing chains), what SE's `getRuleParents` reads.
    fn detail(
        &mut self,
        removes: (u8, DigitSet),
        complexity: usize,
        targets: &[u32],
        root: u8,
    ) -> NestedHint {
        let mut causes = Vec::new();
        let mut identity = Vec::new();
        for &t in targets {
            self.walk(t, |x, k| {
                identity.push(k as u16);
                let cause = if x.cause == NO_CAUSE { root } else { x.cause };
                if x.on && cause != NO_CAUSE {
                    causes.push((x.cell, x.digit, cause));
                }
                true
            });
            identity.push(u16::MAX);
        }
        NestedHint {
            complexity,
            removes: vec![removes],
            causes,
            identity,
        }
    }
}

/// One hint with SE's sort keys.
struct Hint {
    rating: f64,
    complexity: usize,
    sort_key: u8,
    eliminations: Eliminations,
    placement: Option<(usize, u8)>,
}

/// The hints of one producer call, in one of two modes. Best only ([`find`]): only the first of SE's sorted list
/// is kept; SE sorts them stably by rating, complexity and sort key, the rating grows with the complexity, so the
/// first is the earliest of least (complexity, sort key), and the complexity of a hint that cannot come before the
/// best so far is not counted out. All ([`nested_hints`]): every hint is kept, in the order found, with its full
/// complexity and what a nesting chain needs of it.
struct Hints<'a> {
    c: &'a Candidates,
    /// The producer's rating before the length increment.
    base: f64,
    best: Option<Hint>,
    /// Every hint with its details, when all are kept.
    all: Option<Vec<(Hint, NestedHint)>>,
}

impl Hints<'_> {
    /// The hint of a target potential resting on the potentials `targets` (SE's complexity: see
    /// [`Engine::complexity`]): "on" places it (its cell's other candidates go; none left is no hint), "off" removes
    /// it. Kept when it comes before the best so far, or when all are kept; `root` is the cause of its assumptions
    /// (a cell's or a region's forcing chains, else [`NO_CAUSE`]) for its details.
    fn offer(
        &mut self,
        e: &mut Engine,
        cell: u8,
        digit: u8,
        on: bool,
        targets: &[u32],
        (sort_key, root): (u8, u8),
    ) {
        let at = cell;
        let cell = cell as usize;
        let mut others = self.c.get(cell);
        others.remove(digit);
        if on && others.is_empty() {
            return;
        }
        let limit = match &self.best {
            _ if self.all.is_some() => usize::MAX,
            None => usize::MAX,
            Some(h) if sort_key < h.sort_key => h.complexity,
            Some(h) => h.complexity - 1,
        };
        let Some(complexity) = e.complexity(targets, limit) else {
            return;
        };
        let mut eliminations = Eliminations::NONE;
        let mut placement = None;
        if on {
            for d in others.iter() {
                eliminations.add(CellSet::single(cell), d);
            }
            placement = Some((cell, digit));
        } else {
            eliminations.add(CellSet::single(cell), digit);
        }
        let hint = Hint {
            rating: self.base + length_difficulty(complexity),
            complexity,
            sort_key,
            eliminations,
            placement,
        };
        match &mut self.all {
            None => self.best = Some(hint),
            Some(all) => {
                let removes = if on { others } else { DigitSet::single(digit) };
                all.push((hint, e.detail((at, removes), complexity, targets, root)));
            }
        }
    }
}

/// What a chain from one assumption reached: its "on" and "off" potentials and the (on, off) pair of a
/// contradiction if it met one (the chain stopped there).
struct Outcome {
    to_on: Box<LSet>,
    to_off: Box<LSet>,
    absurd: Option<(u32, u32)>,
}

impl Engine {
    /// The chain from assuming candidate `v` of `cell` on or off.
    fn assume(&mut self, sets: &mut Pool, cell: u8, v: u8, on: bool) -> Outcome {
        let p = self.push(cell, v, on, &[]);
        let (mut to_on, mut to_off) = (sets.take(), sets.take());
        if on { &mut to_on } else { &mut to_off }.insert(key(cell, v), p);
        let absurd = self.chain(&mut to_on, &mut to_off);
        Outcome {
            to_on,
            to_off,
            absurd,
        }
    }
}

/// The chains from "(cell, v) on" of one producer call, each computed once: the cell's own chaining needs it, and
/// so do the region chainings of the houses where `v` has a place before `cell` (SE computes it anew for each).
/// A chain's outcome depends only on its start and the grid, so reusing it changes no hint. An outcome is kept
/// from its first use to its last (counted ahead by [`Memo::new`]), then its sets go back to the pool; its nodes
/// stay in the engine while any outcome is kept.
struct Memo {
    /// Per candidate key: the outcome of the chain from it "on", while uses remain.
    kept: Vec<Option<Outcome>>,
    /// Per candidate key: how many uses remain.
    uses: Vec<u16>,
    /// How many outcomes are kept.
    live: usize,
}

impl Memo {
    /// No outcome kept yet; the uses to come counted as [`find`] and [`regions`] will make them.
    fn new(c: &Candidates, kind: Kind) -> Memo {
        let mut uses = vec![0u16; 729];
        for cell in c.open().iter().filter(|&cell| chained(c, kind, cell)) {
            for v in c.get(cell).iter() {
                uses[key(cell as u8, v)] += 1;
                if kind != Kind::Nishio {
                    for t in 0..3 {
                        for x in region(c, kind, cell, v, t).iter().skip(1) {
                            uses[key(x as u8, v)] += 1;
                        }
                    }
                }
            }
        }
        Memo {
            kept: std::iter::repeat_with(|| None).take(729).collect(),
            uses,
            live: 0,
        }
    }

    /// Makes sure the outcome of "(cell, v) on" is kept.
    fn keep(&mut self, e: &mut Engine, sets: &mut Pool, cell: u8, v: u8) {
        let k = key(cell, v);
        if self.kept[k].is_none() {
            self.kept[k] = Some(e.assume(sets, cell, v, true));
            self.live += 1;
        }
    }

    /// A kept outcome (see [`Memo::keep`]).
    fn get(&self, cell: u8, v: u8) -> &Outcome {
        self.kept[key(cell, v)].as_ref().expect("kept")
    }

    /// One use of "(cell, v) on" done: its outcome is freed when it was the last.
    fn used(&mut self, sets: &mut Pool, cell: u8, v: u8) {
        let k = key(cell, v);
        self.uses[k] -= 1;
        if self.uses[k] == 0 {
            if let Some(o) = self.kept[k].take() {
                self.live -= 1;
                sets.give(o.to_on);
                sets.give(o.to_off);
            }
        }
    }

    /// The outcome of "(cell, v) on" for its last use, the cell's own chaining.
    fn take(&mut self, e: &mut Engine, sets: &mut Pool, cell: u8, v: u8) -> Outcome {
        let k = key(cell, v);
        self.uses[k] -= 1;
        debug_assert_eq!(self.uses[k], 0, "the cell's own chaining comes last");
        match self.kept[k].take() {
            Some(o) => {
                self.live -= 1;
                o
            }
            None => e.assume(sets, cell, v, true),
        }
    }
}

/// Whether the producer chains `cell`: three candidates or more for multiple chains, two or more otherwise.
fn chained(c: &Candidates, kind: Kind, cell: usize) -> bool {
    let card = c.get(cell).len();
    card > 2 || (card > 1 && kind != Kind::Multiple)
}

/// The places of `v` in house `t` (box, row, column) of `cell` when that house gets a region chaining from `cell`
/// (SE's `doRegionChainings`): two places (or more, multiple chains), `cell` the first; else none.
fn region(c: &Candidates, kind: Kind, cell: usize, v: u8, t: usize) -> CellSet {
    let places = c.places(v) & cells_of(house_of(t, cell));
    let n = places.len();
    if (n == 2 || (kind != Kind::Nishio && n > 2)) && places.first() == Some(cell) {
        places
    } else {
        CellSet::EMPTY
    }
}

/// SE's producer of `kind`: the first hint of SE's sorted list.
pub(super) fn find(c: &Candidates, kind: Kind) -> Option<SeStep> {
    let h = produce(c, kind, false).best?;
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
    let mut hints = produce(c, kind, true).all.expect("all kept");
    super::chains::sort(&mut hints, |(h, _)| (h.rating, h.complexity, h.sort_key));
    let mut kept: Vec<(u8, DigitSet)> = Vec::new();
    let mut out = Vec::new();
    for (_, detail) in hints {
        if kept.contains(&detail.removes[0]) {
            continue;
        }
        kept.push(detail.removes[0]);
        out.push(detail);
    }
    out
}

/// Runs SE's producer of `kind` on `c`: its hints, every one (with details) when `all`, else the first of SE's
/// sorted list only (see [`Hints`]).
fn produce(c: &Candidates, kind: Kind, all: bool) -> Hints<'_> {
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
        open: c.open(),
        placed: std::array::from_fn(|d| c.placed(d as u8 + 1).len() as u8),
        advanced: Offs::default(),
        chains: Vec::new(),
        seen: vec![0; 1458],
        stamp: 0,
        levels: Default::default(),
        nested: Vec::new(),
        start: *c,
    };
    let mut sets = SETS.take();
    let mut memo = Memo::new(c, kind);
    let mut hints = Hints {
        c,
        base,
        best: None,
        all: all.then(Vec::new),
    };
    for cell in c.open().iter().filter(|&cell| chained(c, kind, cell)) {
        let cand = c.get(cell);
        let card = cand.len();
        // The nodes are dropped when no kept outcome rests on them.
        if memo.live == 0 {
            e.nodes.clear();
            e.pool.clear();
            e.chains.clear();
        }
        let cell8 = cell as u8;
        let mut value_on: Vec<Box<LSet>> = Vec::new();
        let mut value_off: Vec<Box<LSet>> = Vec::new();
        for v in cand.iter() {
            let double = card >= 3 && !nishio && dynamic;
            let contradiction = dynamic || nishio;
            let on = memo.take(&mut e, &mut sets, cell8, v);
            let off = e.assume(&mut sets, cell8, v, false);
            // A contradiction proves the assumption false.
            for (o, assumed) in [(&on, true), (&off, false)] {
                if let (true, Some((a, b))) = (contradiction, o.absurd) {
                    hints.offer(&mut e, cell8, v, !assumed, &[a, b], (7, NO_CAUSE));
                }
            }
            if double {
                // What both assumptions make true, then what both make false.
                for (from_on, from_off, value) in [
                    (&on.to_on, &off.to_on, true),
                    (&on.to_off, &off.to_off, false),
                ] {
                    for &k in &from_on.order {
                        if let Some(other) = from_off.get(k as usize) {
                            let a = from_on.idx[k as usize];
                            let n = e.nodes[a as usize];
                            hints.offer(&mut e, n.cell, n.digit, value, &[a, other], (1, NO_CAUSE));
                        }
                    }
                }
            }
            sets.give(off.to_on);
            sets.give(off.to_off);
            if !nishio {
                regions(&mut e, &mut sets, &mut memo, c, cell, v, &on, &mut hints);
            }
            value_on.push(on.to_on);
            value_off.push(on.to_off);
        }
        if !nishio && (card == 2 || (multiple && card > 2)) {
            for (outcomes, on) in [(&value_on, true), (&value_off, false)] {
                let outcomes: Vec<&LSet> = outcomes.iter().map(|s| &**s).collect();
                common_hints(&mut e, &outcomes, on, (5, CAUSE_NAKED), &mut hints);
            }
        }
        for set in value_on.into_iter().chain(value_off) {
            sets.give(set);
        }
    }
    debug_assert_eq!(memo.live, 0, "every kept outcome used");
    sets.0.truncate(Pool::KEPT);
    SETS.set(sets);
    hints
}

/// A hint for each conclusion every one of `outcomes` reached (a cell's or a region's forcing chains), in the
/// first outcome's order: its complexity is the sum of the outcomes' chains to it. `kind` is the hints' sort key
/// and the cause of their assumptions (a cell's, a region's).
fn common_hints(e: &mut Engine, outcomes: &[&LSet], on: bool, kind: (u8, u8), hints: &mut Hints) {
    // At most nine outcomes: a cell's candidates or a digit's places in a house.
    let mut targets = [NONE; 9];
    let targets = &mut targets[..outcomes.len()];
    'keys: for &k in &outcomes[0].order {
        for (t, o) in targets.iter_mut().zip(outcomes) {
            *t = o.idx[k as usize];
            if *t == NONE {
                continue 'keys;
            }
        }
        let (tc, td) = ((k / 9) as u8, (k % 9) as u8 + 1);
        hints.offer(e, tc, td, on, targets, kind);
    }
}

/// SE's `doRegionChainings`: for the box, row and column of `cell` where `v` has two places (or more, multiple
/// chains), when `cell` is the first of them ([`region`]), what every place implies; `on` is the chain from
/// `cell`'s, the others' come from `memo`.
#[allow(clippy::too_many_arguments)]
fn regions(
    e: &mut Engine,
    sets: &mut Pool,
    memo: &mut Memo,
    c: &Candidates,
    cell: usize,
    v: u8,
    on: &Outcome,
    hints: &mut Hints,
) {
    for t in 0..3 {
        let places = region(c, e.kind, cell, v, t);
        if places.is_empty() {
            continue;
        }
        // `cell` is the first place: its outcomes come first.
        for x in places.iter().skip(1) {
            memo.keep(e, sets, x as u8, v);
        }
        for value in [true, false] {
            let mut all: Vec<&LSet> = vec![if value { &on.to_on } else { &on.to_off }];
            all.extend(places.iter().skip(1).map(|x| {
                let o = memo.get(x as u8, v);
                if value {
                    &*o.to_on
                } else {
                    &*o.to_off
                }
            }));
            common_hints(e, &all, value, (6, CAUSE_REGION + t as u8), hints);
        }
        for x in places.iter().skip(1) {
            memo.used(sets, x as u8, v);
        }
    }
}
