//! SE's dynamic chain from one assumption (its `doChaining` with `isDynamic`, `isMultiple`, `isNishio` and a
//! nesting level): the potentials it implies, each with all its parents, grown on a working grid it removes each
//! "off" potential from as it goes, so later implications may use it (the removed candidates recorded as extra
//! parents); pending "on" potentials first, then one "off"; a potential met both on and off ends it (a
//! contradiction).
//!
//! When nothing is left to follow, from nesting level 1 up, the advanced implications are looked for on the
//! working grid ([`super::advanced`], [`super::nested`]); from nesting level 2 one may come from a hint of a nested
//! producer: a chain's complexity is then its own potentials plus, once for each distinct nested chain among its
//! potentials' ancestors, that chain's complexity (SE's `getNestedComplexity`, two nested chains being the same
//! when their potentials are, SE's `FullChain`). What a hint of these chains says, as a nesting chain reads it, is
//! [`Engine::detail`]; the producer that asks for the chains and makes the hints is [`super::chaining`].

use super::advanced::{Grids, Offs, Since, NO_CHAIN};
use super::hint::NestedHint;
use super::kind::Kind;
use super::linked::{LSet, Pool};
use super::nested;
use super::potential::{key, NAKED, NONE, NO_CAUSE, REGION};
use super::proof::{inner_chains, Link, Potential};
use super::working::Working;
use crate::human::candidates::Candidates;
use crate::human::house::{CellSet, DigitSet, HOUSE_CELLS};
use crate::human::se::{cells_of, count9, house_of, HOUSE_OF};

/// `OTHERS[cell][t]`: the cells of [`house_of`]`(t, cell)` but `cell` itself.
const OTHERS: [[CellSet; 3]; 81] = {
    let mut out = [[CellSet::EMPTY; 3]; 81];
    let mut cell = 0;
    while cell < 81 {
        let mut t = 0;
        while t < 3 {
            let house = HOUSE_CELLS[HOUSE_OF[cell][t] as usize];
            out[cell][t] = CellSet(house.0 & !(1u128 << cell));
            t += 1;
        }
        cell += 1;
    }
    out
};

/// `AROUND[cell]`: the cells of its box but `cell` itself, then those of its row outside the box, then those of its
/// column outside the box: the places SE's `getOnToOff` visits for a digit, each cell once, house by house.
const AROUND: [[CellSet; 3]; 81] = {
    let mut out = [[CellSet::EMPTY; 3]; 81];
    let mut cell = 0;
    while cell < 81 {
        let b = HOUSE_CELLS[HOUSE_OF[cell][0] as usize].0;
        out[cell][0] = CellSet(b & !(1u128 << cell));
        let mut t = 1;
        while t < 3 {
            out[cell][t] = CellSet(HOUSE_CELLS[HOUSE_OF[cell][t] as usize].0 & !b);
            t += 1;
        }
        cell += 1;
    }
    out
};

/// Whether `cells`, a set within one house, holds exactly one cell. No two cells of a house lie 64 bits apart, so
/// the two halves of the set or-ed together hold as many bits as the set.
#[inline]
fn one_cell(cells: CellSet) -> bool {
    let folded = cells.0 as u64 | (cells.0 >> 64) as u64;
    folded != 0 && folded & (folded - 1) == 0
}

/// A node's `len` when its one parent is its `start` itself (nothing in the pool).
const INLINE: u32 = u32::MAX;

#[derive(Clone, Copy)]
pub(super) struct Pot {
    pub cell: u8,
    pub digit: u8,
    pub on: bool,
    /// SE's cause of an "on" potential's link ([`NAKED`], [`REGION`] plus the house type), else
    /// [`NO_CAUSE`]: what a nesting chain's rule parents read (level 4).
    cause: u8,
    /// Its parents, `pool[start..start + len]`; when `len` is [`INLINE`], its one parent is `start`.
    start: u32,
    len: u32,
    /// The nested chain it comes from (an index in `Engine::chains`), or `NONE`.
    nested: u32,
}

/// The potentials of the chains of one producer call, and what growing them needs.
pub(super) struct Engine {
    pub kind: Kind,
    pub nodes: Vec<Pot>,
    /// The parents of every node, node after node.
    pool: Vec<u32>,
    /// The grid a chain grows on, less the candidates its "off" potentials removed; `base` is the producer's grid,
    /// which every chain starts from and leaves `work` as.
    work: Working,
    base: Working,
    /// The cells without a value and how many cells hold each digit (for the advanced implications).
    open: CellSet,
    placed: [u8; 9],
    /// Reused by `chain`: the advanced implications found.
    advanced: Offs,
    /// Where the level-1 techniques may find hints on the chain's working grid.
    since: Since,
    /// The nested chains the potentials come from: SE's complexity of each, and what tells two apart.
    pub chains: Vec<(usize, Vec<u16>)>,
    /// Reused by `ancestors`: the potentials seen (`seen[k] == stamp` for this call's), the two levels, and the
    /// nested chains met.
    seen: Vec<u32>,
    stamp: u32,
    levels: (Vec<u32>, Vec<u32>),
    nested: Vec<u32>,
    /// The grid the producer runs on (level 4 builds the working grids of its nested producer from it).
    start: Candidates,
    /// The producer a level-4 chain nests: the dynamic chains' own nested hints on a working grid.
    nest: fn(&Candidates, Kind) -> Vec<NestedHint>,
}

impl Engine {
    /// An engine for the producer of `kind` on `c`, with no potentials yet; `nest` gives the hints of the dynamic
    /// producer a level-4 chain nests (the caller's: the producer is above this file).
    pub(super) fn new(
        c: &Candidates,
        kind: Kind,
        nest: fn(&Candidates, Kind) -> Vec<NestedHint>,
    ) -> Engine {
        Engine {
            kind,
            nodes: Vec::with_capacity(1 << 14),
            pool: Vec::with_capacity(1 << 14),
            work: Working::of(c),
            base: Working::of(c),
            open: c.open(),
            placed: std::array::from_fn(|d| c.placed(d as u8 + 1).len() as u8),
            advanced: Offs::default(),
            since: Since::START,
            chains: Vec::new(),
            seen: vec![0; 1458],
            stamp: 0,
            levels: Default::default(),
            nested: Vec::new(),
            start: *c,
            nest,
        }
    }

    /// Drops every potential (no outcome may rest on them any more).
    pub(super) fn forget(&mut self) {
        self.nodes.clear();
        self.pool.clear();
        self.chains.clear();
    }
}

impl Engine {
    fn push(&mut self, cell: u8, digit: u8, on: bool, parents: &[u32]) -> u32 {
        let pooled = self.pooled(|e| e.pool.extend_from_slice(parents));
        self.push_node(cell, digit, on, NO_CAUSE, pooled)
    }

    /// A node implied through a link of `cause`, with parents `(start, len)` as [`Pot`] keeps them.
    fn push_node(
        &mut self,
        cell: u8,
        digit: u8,
        on: bool,
        cause: u8,
        (start, len): (u32, u32),
    ) -> u32 {
        self.nodes.push(Pot {
            cell,
            digit,
            on,
            cause,
            start,
            len,
            nested: NONE,
        });
        (self.nodes.len() - 1) as u32
    }

    fn parents<'a>(&'a self, n: &'a Pot) -> &'a [u32] {
        if n.len == INLINE {
            std::slice::from_ref(&n.start)
        } else {
            &self.pool[n.start as usize..(n.start + n.len) as usize]
        }
    }

    /// Pushes the parents `pooled` pushes at the end of the pool: their `(start, len)` as [`Pot`] keeps them.
    #[inline]
    fn pooled(&mut self, pooled: impl FnOnce(&mut Engine)) -> (u32, u32) {
        let start = self.pool.len();
        pooled(self);
        (start as u32, (self.pool.len() - start) as u32)
    }

    /// Takes in a potential implied by the one being followed (SE's `doChaining` step): when its conjugate is in
    /// `opposite` the chaining ends (the potential and that conjugate are returned); else, when not in `same` yet,
    /// it joins `same` (and so the queue: see [`Engine::chain`]). Only a potential taken in is made a node
    /// (implied through a link of `cause`), with the parents `parents` gives (`(start, len)` as [`Pot`] keeps
    /// them, pushing them to the pool if need be).
    #[inline]
    fn take_in(
        &mut self,
        (cell, digit, on, cause): (u8, u8, bool, u8),
        same: &mut LSet,
        opposite: &LSet,
        parents: impl FnOnce(&mut Engine) -> (u32, u32),
    ) -> Option<(u32, u32)> {
        let k = key(cell, digit);
        let conjugate = opposite.get(k);
        if conjugate.is_none() && same.get(k).is_some() {
            return None;
        }
        let parents = parents(self);
        let q = self.push_node(cell, digit, on, cause, parents);
        if let Some(o) = conjugate {
            return Some((q, o));
        }
        same.insert_new(k, q);
        None
    }

    /// SE's `getOnToOff` of the "on" potential `p`: the cell's other digits, then the digit's other places in the
    /// box, row and column, each cell once, taken in as found ([`Engine::take_in`]); the (on, off) pair of a
    /// contradiction if one is met. `nishio`: the producer is Nishio's (no link inside a cell).
    fn on_to_off(
        &mut self,
        p: u32,
        nishio: bool,
        to_on: &LSet,
        to_off: &mut LSet,
    ) -> Option<(u32, u32)> {
        let (cell, digit) = (self.nodes[p as usize].cell, self.nodes[p as usize].digit);
        let c = cell as usize;
        let parent = |_: &mut Engine| (p, INLINE);
        if !nishio {
            for d in DigitSet(self.work.mask[c]).iter().filter(|&d| d != digit) {
                if let Some((off, on)) =
                    self.take_in((cell, d, false, NO_CAUSE), to_off, to_on, parent)
                {
                    return Some((on, off));
                }
            }
        }
        let places = self.work.places[digit as usize - 1];
        for &around in &AROUND[c] {
            for x in (places & around).iter() {
                if let Some((off, on)) =
                    self.take_in((x as u8, digit, false, NO_CAUSE), to_off, to_on, parent)
                {
                    return Some((on, off));
                }
            }
        }
        None
    }

    /// SE's `getOffToOn` of the "off" potential `p` (`digit` off in `cell`) on the working grid: the cell's last
    /// other digit, then the digit's last other place in the box, row or column, each resting on `p` and on the
    /// candidates the chain removed that made it last (from the grid the chain started from, `base`), taken in as
    /// found ([`Engine::take_in`]); the (on, off) pair of a contradiction if one is met. `nishio` as in
    /// [`Engine::on_to_off`].
    fn off_to_on(
        &mut self,
        (p, cell, digit): (u32, u8, u8),
        nishio: bool,
        to_on: &mut LSet,
        to_off: &LSet,
    ) -> Option<(u32, u32)> {
        let c = cell as usize;
        if !nishio {
            let cand = DigitSet(self.work.mask[c]);
            if count9(cand.0) == 2 {
                let mut other = cand;
                other.remove(digit);
                if let Some(d) = other.first() {
                    let parents = |e: &mut Engine| {
                        e.pooled(|e| {
                            e.pool.push(p);
                            for v in DigitSet(e.base.mask[c] & !e.work.mask[c]).iter() {
                                if let Some(q) = to_off.get(key(cell, v)) {
                                    e.pool.push(q);
                                }
                            }
                        })
                    };
                    let hit = self.take_in((cell, d, true, NAKED), to_on, to_off, parents);
                    if hit.is_some() {
                        return hit;
                    }
                }
            }
        }
        // The houses (bit `t` for `house_of(t, c)`) where the digit has one other place left; none, the common
        // case, is told before anything else is looked at.
        let places = self.work.places[digit as usize - 1];
        let lone = (0..3).fold(0u8, |m, t| {
            m | u8::from(one_cell(places & OTHERS[c][t])) << t
        });
        if lone == 0 {
            return None;
        }
        self.region_ons((p, cell, digit), lone, to_on, to_off)
    }

    /// The "on" potentials of SE's `getOffToOn` from the houses: in each house of `lone` (bit `t` for
    /// `house_of(t, c)`, the digit's one other place left there), that place, resting on `p` and on the digit's
    /// places the chain removed from the house; as [`Engine::off_to_on`].
    fn region_ons(
        &mut self,
        (p, cell, digit): (u32, u8, u8),
        lone: u8,
        to_on: &mut LSet,
        to_off: &LSet,
    ) -> Option<(u32, u32)> {
        let c = cell as usize;
        for t in (0..3).filter(|&t| lone >> t & 1 != 0) {
            let o = (self.work.places[digit as usize - 1] & OTHERS[c][t])
                .first()
                .expect("one place");
            let parents = |e: &mut Engine| {
                e.pooled(|e| {
                    e.pool.push(p);
                    // The digit's places the chain removed from the house, in the house's order (ascending).
                    let hc = cells_of(house_of(t, c));
                    let gone =
                        e.base.places[digit as usize - 1] & hc & !e.work.places[digit as usize - 1];
                    for x in gone.iter() {
                        if let Some(q) = to_off.get(key(x as u8, digit)) {
                            e.pool.push(q);
                        }
                    }
                })
            };
            let hit = self.take_in(
                (o as u8, digit, true, REGION + t as u8),
                to_on,
                to_off,
                parents,
            );
            if hit.is_some() {
                return hit;
            }
        }
        None
    }

    /// SE's `doChaining`: completes `to_on` and `to_off`; the (on, off) pair of a contradiction if one is met.
    /// A potential joins its set and SE's queue of pending potentials at once, so the queues are the sets' orders
    /// from a cursor on.
    fn chain(&mut self, to_on: &mut LSet, to_off: &mut LSet) -> Option<(u32, u32)> {
        self.chain_from(to_on, to_off, (0, 0), 0)
    }

    /// [`Engine::chain`] with the potentials of `to_on` and `to_off` before the cursors `(next_on, next_off)`
    /// already followed, and the working grid `work` less those of `to_off` (dynamic chains); at the first stall
    /// the techniques of nesting levels up to `known` are known to find nothing ([`nested::find_above`]).
    fn chain_from(
        &mut self,
        to_on: &mut LSet,
        to_off: &mut LSet,
        (mut next_on, mut next_off): (usize, usize),
        mut known: u8,
    ) -> Option<(u32, u32)> {
        let (nishio, multiple) = (self.kind == Kind::Nishio, self.kind == Kind::Multiple);
        self.since.restart();
        let result = loop {
            if let Some(&k) = to_on.order.get(next_on) {
                next_on += 1;
                let hit = self.on_to_off(to_on.idx[k as usize], nishio, to_on, to_off);
                if hit.is_some() {
                    break hit;
                }
                continue;
            }
            if let Some(&k) = to_off.order.get(next_off) {
                next_off += 1;
                let p = to_off.idx[k as usize];
                let (cell, digit) = (self.nodes[p as usize].cell, self.nodes[p as usize].digit);
                let hit = self.off_to_on((p, cell, digit), nishio, to_on, to_off);
                if hit.is_some() {
                    break hit;
                }
                if !multiple {
                    self.work.remove(cell as usize, digit);
                }
                continue;
            }
            if self.kind.level() > 0 && self.advance(to_off, std::mem::take(&mut known)) {
                continue;
            }
            break None;
        };
        self.work = self.base;
        result
    }

    /// SE's `getAdvancedPotentials` once nothing is pending: the advanced "off" potentials not yet in `to_off`
    /// join it and the queue (SE checks them against nothing else). True when any did. The techniques of nesting
    /// levels up to `known` are not asked ([`nested::find_above`]).
    fn advance(&mut self, to_off: &mut LSet, known: u8) -> bool {
        // The implications are found in `self.advanced` (its lists kept from call to call) and read from there
        // into the nodes and the pool.
        let found = &mut self.advanced;
        let grids = Grids {
            now: &self.work,
            source: &self.base,
            open: self.open,
            placed: &self.placed,
        };
        match self.kind {
            Kind::NestedDfc(n) => {
                let of = Kind::of_level(n);
                let (start, open, work) = (&self.start, self.open, &self.work);
                let working = || working(start, open, work);
                nested::find_dynamic(&grids, found, working, of, self.nest, &mut self.since)
            }
            _ => nested::find_above(&grids, found, self.kind.level(), known, &mut self.since),
        }
        let mut added = false;
        let base = self.chains.len() as u32;
        self.chains.append(&mut found.chains);
        for i in 0..self.advanced.offs.len() {
            let ((k, start, len), chain) = (self.advanced.offs[i], self.advanced.chain[i]);
            if to_off.get(k as usize).is_some() {
                continue;
            }
            // Its parents: those of its rule's parents in `to_off`, straight into the pool.
            let parents = self.pooled(|e| {
                let rule = &e.advanced.parents[start as usize..(start + len) as usize];
                e.pool
                    .extend(rule.iter().filter_map(|&q| to_off.get(q as usize)));
            });
            let (cell, digit) = ((k / 9) as u8, (k % 9) as u8 + 1);
            let node = self.push_node(cell, digit, false, NO_CAUSE, parents);
            if chain != NO_CHAIN {
                self.nodes[node as usize].nested = base + chain;
            }
            to_off.insert(k as usize, node);
            added = true;
        }
        added
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
    pub(super) fn complexity(&mut self, targets: &[u32], limit: usize) -> Option<usize> {
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
    pub(super) fn detail(
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

impl Engine {
    /// The branch of a proof ending at `target`: `target` and its ancestors, each once, every potential after the
    /// potentials it follows from; a potential's first parent comes right before it where it can.
    pub(super) fn branch(&self, target: u32) -> Vec<Link> {
        let mut at: std::collections::HashMap<u32, u32> = std::collections::HashMap::new();
        let mut links: Vec<Link> = Vec::new();
        // Depth first, parents before children: a node is written once its parents are (the parents are pushed
        // first to last, so the first is taken up last, right before the node).
        let mut stack = vec![(target, false)];
        while let Some((i, expanded)) = stack.pop() {
            if at.contains_key(&i) {
                continue;
            }
            let n = &self.nodes[i as usize];
            if expanded {
                let from = self.parents(n).iter().map(|p| at[p]).collect();
                let inner = if n.nested == NONE {
                    Vec::new()
                } else {
                    inner_chains(&self.chains[n.nested as usize].1)
                };
                at.insert(i, links.len() as u32);
                links.push(Link {
                    potential: Potential {
                        cell: n.cell,
                        digit: n.digit,
                        on: n.on,
                    },
                    from,
                    inner,
                });
                continue;
            }
            stack.push((i, true));
            stack.extend(self.parents(n).iter().map(|&p| (p, false)));
        }
        links
    }
}

/// The working grid `work` as a candidate grid: the producer's grid `start` (open cells `open`) without the
/// candidates the chain removed.
fn working(start: &Candidates, open: CellSet, work: &Working) -> Candidates {
    let mut w = *start;
    for cell in open.iter() {
        for d in DigitSet(start.get(cell).0 & !work.mask[cell]).iter() {
            w.eliminate(cell, d);
        }
    }
    w
}

/// What a chain from one assumption reached: its "on" and "off" potentials and the (on, off) pair of a
/// contradiction if it met one (the chain stopped there).
pub(super) struct Outcome {
    pub to_on: Box<LSet>,
    pub to_off: Box<LSet>,
    pub absurd: Option<(u32, u32)>,
}

impl Outcome {
    /// The potentials it turned on (`on`) or off.
    pub(super) fn reached(&self, on: bool) -> &LSet {
        if on {
            &self.to_on
        } else {
            &self.to_off
        }
    }
}

impl Engine {
    /// The chain from assuming candidate `v` of `cell` on or off.
    pub(super) fn assume(&mut self, sets: &mut Pool, cell: u8, v: u8, on: bool) -> Outcome {
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

    /// The chain of `outcome` continued by this engine's producer: `outcome` is what a dynamic producer one
    /// nesting level below grew on the same grid with this engine from one assumption, without a contradiction
    /// (returned as it is otherwise). That chain is this producer's up to its end (a chain of level `n` follows
    /// those of level `n - 1` until nothing is left, and asks for more then: see [`super::nested::find`]), so
    /// this one goes on from there: every potential followed, the working grid less its "off" potentials.
    pub(super) fn resume(&mut self, outcome: Outcome) -> Outcome {
        let Outcome {
            mut to_on,
            mut to_off,
            absurd,
        } = outcome;
        if absurd.is_some() {
            return Outcome {
                to_on,
                to_off,
                absurd,
            };
        }
        debug_assert!(self.kind.level() >= 1 && self.kind.level() <= 3);
        for &k in &to_off.order {
            self.work.remove(k as usize / 9, (k % 9) as u8 + 1);
        }
        let cursors = (to_on.order.len(), to_off.order.len());
        // Where the chain ended, the techniques of the level below found nothing.
        let absurd = self.chain_from(&mut to_on, &mut to_off, cursors, self.kind.level() - 1);
        Outcome {
            to_on,
            to_off,
            absurd,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn others_are_the_house_cells_but_the_cell() {
        for (cell, others) in OTHERS.iter().enumerate() {
            for (t, &got) in others.iter().enumerate() {
                let mut want = cells_of(house_of(t, cell));
                want.remove(cell);
                assert!(got == want && want.len() == 8, "{cell} {t}");
            }
        }
    }

    #[test]
    fn around_is_each_peer_once_house_by_house() {
        for (cell, around) in AROUND.iter().enumerate() {
            let mut seen = CellSet::single(cell);
            for (t, &got) in around.iter().enumerate() {
                let mut want = cells_of(house_of(t, cell));
                for x in seen.iter() {
                    want.remove(x);
                }
                assert!(got == want, "{cell} {t}");
                seen |= got;
            }
            assert_eq!(seen.len(), 21, "{cell}");
        }
    }

    #[test]
    fn one_cell_tells_a_house_subset_of_one() {
        for (h, house) in HOUSE_CELLS.iter().enumerate() {
            let cells: Vec<usize> = house.iter().collect();
            for m in 0u32..512 {
                let set = (0..9)
                    .filter(|&i| m >> i & 1 != 0)
                    .fold(CellSet::EMPTY, |s, i| s | CellSet::single(cells[i]));
                assert_eq!(one_cell(set), set.len() == 1, "{h} {m}");
            }
        }
    }
}
