//! What a search of SE's Forcing Chains & Cycles producer ([`super::forcing`]) concludes: the hint of a cycle
//! (SE's `createCycleHint`) or of a forcing chain (`createForcingChainHint`), with SE's sort keys, the detail a
//! nesting chain reads of it and, when asked for, its proof, all read back from the search's potentials.

use super::hint::length_difficulty;
use super::links::Search;
use super::potential::{key, Node, NONE, NO_CAUSE};
use super::proof::{Potential, Proof, Shape};
use super::set::Set729;
use crate::human::house::{CellSet, DigitSet, PEERS};
use crate::human::step::Eliminations;

/// One hint, with SE's sort keys.
#[derive(Clone)]
pub(super) struct Hint {
    pub(super) rating: f64,
    pub(super) complexity: usize,
    pub(super) sort_key: u8,
    pub(super) cycle: bool,
    pub(super) eliminations: Eliminations,
    pub(super) placement: Option<(usize, u8)>,
    /// For a nested producer ([`super::forcing::nested_hints`]): what it removes and its chains.
    pub(super) detail: Option<Detail>,
    /// Its chain, when proofs are asked for.
    pub(super) proof: Option<Proof>,
}

/// What a dynamic chain needs of a forcing chain or cycle it nests.
#[derive(Clone)]
pub(super) struct Detail {
    /// The eliminations, cell by cell in Java `HashMap` order (SE's `getRemovablePotentials`).
    pub(super) removes: Vec<(u8, DigitSet)>,
    /// Each target's chain, SE's `getChain` (the target, then its ancestors, each potential once), as
    /// [`NestedHint::identity`](super::hint::NestedHint) reads them: `key * 2 + on`, `u16::MAX` after each chain.
    pub(super) identity: Vec<u16>,
    /// The chains' "on" potentials with a cause, in the same order, as
    /// [`NestedHint::causes`](super::hint::NestedHint) reads them: `(cell, digit, cause)`.
    pub(super) causes: Vec<(u8, u8, u8)>,
}

impl Detail {
    /// The detail of `removes` with no chain yet.
    fn of(removes: Vec<(u8, DigitSet)>) -> Detail {
        Detail {
            removes,
            identity: Vec::with_capacity(32),
            causes: Vec::with_capacity(16),
        }
    }

    /// Adds the potential `n` to the chain being written.
    #[inline]
    fn add(&mut self, n: &Node) {
        self.identity.push(n.identity());
        if n.on && n.cause != NO_CAUSE {
            self.causes.push((n.cell, n.digit, n.cause));
        }
    }

    /// Ends the chain being written.
    fn end(&mut self) {
        self.identity.push(u16::MAX);
    }

    /// Adds SE's `getChain` of the single-parent chain at `p`: `p`, then its ancestors, a potential met again
    /// left out.
    fn add_chain_of(&mut self, s: &Search, p: u32) {
        let mut seen = Seen::default();
        let mut i = p;
        while i != NONE {
            let x = s.nodes[i as usize];
            if seen.first(&x) {
                self.add(&x);
            }
            i = x.parent;
        }
        self.end();
    }
}

/// Distinct potentials from `p` up to the root (SE's ancestor count).
fn ancestors(s: &Search, p: u32) -> usize {
    let mut seen = Seen::default();
    let mut n = 0;
    let mut i = p;
    while i != NONE {
        let x = s.nodes[i as usize];
        n += usize::from(seen.first(&x));
        i = x.parent;
    }
    n
}

/// The potentials met so far on a walk up a chain: the "on" ones and the "off" ones, by key.
#[derive(Default)]
struct Seen([Set729; 2]);

impl Seen {
    /// Whether `n` (its candidate in its state) is met for the first time; it is met from now on.
    fn first(&mut self, n: &Node) -> bool {
        let (set, k) = (&mut self.0[usize::from(n.on)], key(n.cell, n.digit));
        let fresh = !set.contains(k);
        set.insert(k);
        fresh
    }
}

/// The proof of `shape` of a single-parent chain: `p` and its ancestors, the root first (a cycle's source, met
/// again at `p`, comes twice).
fn proof_of(s: &Search, p: u32, shape: Shape) -> Proof {
    let mut path = Vec::new();
    let mut i = p;
    while i != NONE {
        let n = s.nodes[i as usize];
        path.push(Potential {
            cell: n.cell,
            digit: n.digit,
            on: n.on,
        });
        i = n.parent;
    }
    path.reverse();
    Proof::linear(shape, vec![path])
}

/// SE's `createCycleHint`: a candidate seen by an "on" and by an "off" potential of the cycle (outside the
/// cycle's cells) goes. `(all, prove)`: with its detail, with its proof.
pub(super) fn cycle_hint(
    s: &Search,
    dst: u32,
    y: bool,
    x: bool,
    sort_key: u8,
    (all, prove): (bool, bool),
) -> Option<Hint> {
    let cells = cycle_cells(s, dst);
    let (forw, back) = cycle_sight(s, dst, cells);
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
    let detail = all.then(|| {
        let mut detail = Detail::of(cycle_removes(s, dst, cells, &back));
        detail.add_chain_of(s, dst);
        add_reversed_cycle(&mut detail, s, dst);
        detail
    });
    let complexity = ancestors(s, dst);
    let base = if y && x { 7.0 } else { 6.5 };
    Some(Hint {
        rating: base + length_difficulty(complexity),
        complexity,
        sort_key,
        cycle: true,
        eliminations: e,
        placement: None,
        detail,
        proof: prove.then(|| proof_of(s, dst, Shape::Cycle)),
    })
}

/// The cells of the cycle closed at `dst`: those of `dst` and its ancestors but the root (the source, whose cell
/// `dst` shares).
#[inline]
fn cycle_cells(s: &Search, dst: u32) -> CellSet {
    let mut cells = CellSet::EMPTY;
    let mut i = dst;
    while s.nodes[i as usize].parent != NONE {
        cells.insert(s.nodes[i as usize].cell as usize);
        i = s.nodes[i as usize].parent;
    }
    cells
}

/// What the potentials of the cycle closed at `dst` (its root aside) see outside the cycle's `cells`, digit by
/// digit: the places of an "on" potential's digit among its cell's peers (SE's `cancelForw`), then those of an
/// "off" potential's (`cancelBack`).
#[inline]
fn cycle_sight(s: &Search, dst: u32, cells: CellSet) -> ([CellSet; 9], [CellSet; 9]) {
    let mut forw = [CellSet::EMPTY; 9];
    let mut back = [CellSet::EMPTY; 9];
    let mut i = dst;
    while s.nodes[i as usize].parent != NONE {
        let n = s.nodes[i as usize];
        let seen = PEERS[n.cell as usize] & !cells & s.c.places(n.digit);
        if n.on {
            forw[n.digit as usize - 1] |= seen;
        } else {
            back[n.digit as usize - 1] |= seen;
        }
        i = n.parent;
    }
    (forw, back)
}

/// The eliminations of the cycle closed at `dst`, cell by cell in Java `HashMap` order (SE's
/// `getRemovablePotentials`), each cell's digits gathered in the order of SE's `cancelForw` (the first time an
/// "on" potential sees it); `back` is what the "off" potentials see ([`cycle_sight`]).
fn cycle_removes(s: &Search, dst: u32, cells: CellSet, back: &[CellSet; 9]) -> Vec<(u8, DigitSet)> {
    let mut removes: Vec<(u8, DigitSet)> = Vec::new();
    let mut i = dst;
    while s.nodes[i as usize].parent != NONE {
        let n = s.nodes[i as usize];
        i = n.parent;
        if !n.on {
            continue;
        }
        let seen = PEERS[n.cell as usize] & !cells & s.c.places(n.digit);
        for cell in (seen & back[n.digit as usize - 1]).iter() {
            match removes.iter_mut().find(|r| r.0 as usize == cell) {
                Some(r) => r.1.insert(n.digit),
                None => removes.push((cell as u8, DigitSet::single(n.digit))),
            }
        }
    }
    super::hint::hash_order(&mut removes);
    removes
}

/// Adds SE's reversed cycle of the cycle closed at `dst` to `detail`: the same potentials, states flipped, from
/// the source on, each potential once.
fn add_reversed_cycle(detail: &mut Detail, s: &Search, dst: u32) {
    let mut path = Vec::with_capacity(32);
    let mut i = dst;
    while i != NONE {
        path.push(s.nodes[i as usize]);
        i = s.nodes[i as usize].parent;
    }
    let mut seen = Seen::default();
    for n in path.iter().rev() {
        let r = Node { on: !n.on, ..*n };
        if seen.first(&r) {
            detail.add(&r);
        }
    }
    detail.end();
}

/// SE's `createForcingChainHint`: an "off" target removes the assumed candidate; an "on" target places it (its
/// cell's other candidates go; none left is no hint, which the caller drops). `(all, prove)`: with its detail,
/// with its proof.
pub(super) fn chain_hint(
    s: &Search,
    target: u32,
    y: bool,
    sort_key: u8,
    (all, prove): (bool, bool),
) -> Hint {
    let n = s.nodes[target as usize];
    let cell = n.cell as usize;
    let mut e = Eliminations::NONE;
    let mut placement = None;
    let removed = if n.on {
        let mut others: DigitSet = s.c.get(cell);
        others.remove(n.digit);
        for d in others.iter() {
            e.add(CellSet::single(cell), d);
        }
        placement = Some((cell, n.digit));
        others
    } else {
        e.add(CellSet::single(cell), n.digit);
        DigitSet::single(n.digit)
    };
    let complexity = ancestors(s, target);
    let base = if y { 7.0 } else { 6.6 };
    Hint {
        rating: base + length_difficulty(complexity),
        complexity,
        sort_key,
        cycle: false,
        eliminations: e,
        placement,
        detail: all.then(|| {
            let mut detail = Detail::of(vec![(n.cell, removed)]);
            detail.add_chain_of(s, target);
            detail
        }),
        proof: prove.then(|| proof_of(s, target, Shape::Forcing)),
    }
}
