//! Which "on" potentials the links of a static chain pass can reach from which, worked out once per pass, so that
//! the searches that provably find nothing are not run (same hints, less work).
//!
//! The searches of a pass follow the same links: from "on" to "off" (the cell's other digits when Y links are on,
//! the digit's other places in the cell's houses) and from "off" to "on" (the cell's other digit when bivalue and
//! Y links are on, the digit's last other place in a house). Two steps make a link between "on" potentials; the
//! strongly connected components of that graph and what each reaches tell, for every source:
//! - a forcing chain from "on" can only meet its "off" when a potential reachable from it (itself included) sees
//!   it, i.e. turns it off;
//! - a forcing chain from "off" can only meet its "on" when it is reachable from a potential the source turns on;
//! - a cycle can only come back to its source through another "on" potential reachable from the source that
//!   reaches it: the source's component holds another potential. Every "on" potential of a cycle is in the
//!   source's component, and so is the potential that first implied it (it reaches it, and is reached from the
//!   source): a cycle search that leaves out the others finds the same cycles through the same potentials.
//!
//! These are conditions on reachability alone, and each search, breadth first with every potential met once (or
//! fewer: the cycles also leave out a potential's ancestors), meets a subset of the reachable potentials, so a
//! source that fails them has no hint.
//!
//! Sets of potentials are held digit by digit as cell sets ([`Planes`]), so a potential's links are a few set
//! operations (the places a digit is the last other place of, the bivalue cells of two digits), and a component's
//! reach joins only the reaches of successors not already in it. The buffers live as long as the thread
//! ([`Reach::with`]): a pass allocates nothing.

use std::cell::Cell;

use super::links::{Search, Tables};
use super::potential::key;
use super::working::Working;
use crate::human::house::{CellSet, PEERS};

/// Not met yet, in Tarjan's numbering; no component, in [`Reach::comp`].
const UNSEEN: u16 = u16::MAX;

/// Every digit, as [`Reach::build_digits`] takes them.
const ALL_DIGITS: u16 = 0x1FF;

/// A set of potentials: the cells of each digit (index `digit - 1`).
type Planes = [CellSet; 9];

/// The length of the tables indexed by key or by component: a power of two past the last key (728), so that an
/// index masked with `SLOTS - 1` is in range without a check (the mask leaves every key as it is).
const SLOTS: usize = 1024;

/// `k` as an index of a table of [`SLOTS`] entries (`k` itself when it is a key or a component).
#[inline]
fn slot(k: usize) -> usize {
    k & (SLOTS - 1)
}

/// The reachability of one pass's "on" potentials; its buffers are kept from pass to pass.
pub(super) struct Reach {
    /// For each potential (by [`key`]) of the pass, the "on" potentials one link pair away, and which of its
    /// digits have any (bit `digit - 1`: the X links keep to one digit, so most sets are mostly empty); only the
    /// sets of those digits are written by a pass, the others hold what an earlier pass left.
    succ: Box<[Planes; SLOTS]>,
    succ_digits: Box<[u16; SLOTS]>,
    /// The strongly connected component of each potential of the pass (by key), or [`UNSEEN`].
    comp: Box<[u16; SLOTS]>,
    /// The number of components of the pass, and the number of potentials of each.
    comps: usize,
    size: Box<[u16; SLOTS]>,
    /// For each component, the "on" potentials reachable from it, its own included, and which digits they have.
    reach: Box<[Planes; SLOTS]>,
    reach_digits: Box<[u16; SLOTS]>,
    /// Tarjan's numbering and lowest reachable number (by key), component stack and depth-first frames of the
    /// potentials being looked at but the last (a key and the next successor to look at, as `digit index * 128
    /// + cell`).
    index: Box<[u16; SLOTS]>,
    low: Box<[u16; SLOTS]>,
    stack: Vec<u16>,
    frames: Vec<(u16, u16)>,
    /// The potentials of the finished components.
    done: Planes,
    /// SE's links of the grid as cell sets.
    t: Tables,
}

impl Default for Reach {
    fn default() -> Reach {
        Reach {
            succ: Box::new([[CellSet::EMPTY; 9]; SLOTS]),
            succ_digits: Box::new([0; SLOTS]),
            comp: Box::new([UNSEEN; SLOTS]),
            comps: 0,
            size: Box::new([0; SLOTS]),
            reach: Box::new([[CellSet::EMPTY; 9]; SLOTS]),
            reach_digits: Box::new([0; SLOTS]),
            index: Box::new([UNSEEN; SLOTS]),
            low: Box::new([0; SLOTS]),
            stack: Vec::new(),
            frames: Vec::new(),
            done: [CellSet::EMPTY; 9],
            t: Tables::default(),
        }
    }
}

thread_local! {
    /// The thread's buffers, lent to one caller at a time.
    static SPARE: Cell<Option<Box<Reach>>> = const { Cell::new(None) };
}

/// The key of the potential at `j = digit index * 128 + cell`.
#[inline]
fn key_at(j: usize) -> usize {
    (j % 128) * 9 + j / 128
}

impl Reach {
    /// Calls `f` with the thread's buffers (new ones when they are lent already).
    pub(super) fn with<R>(f: impl FnOnce(&mut Reach) -> R) -> R {
        let mut r = SPARE.with(|c| c.take()).unwrap_or_default();
        let out = f(&mut r);
        SPARE.with(|c| c.set(Some(r)));
        out
    }

    /// Works out the links of `s`'s candidates that every pass shares ([`Tables`]). Called once per grid, before
    /// [`Reach::build`].
    pub(super) fn prepare(&mut self, s: &Search) {
        self.t.build(s.c);
    }

    /// The reachability of the pass on `s`'s candidates with Y links when `y` and X links when `x`
    /// ([`Reach::prepare`] was called on `s`). With Y links alone, only the potentials of bivalue cells are ever turned on (and
    /// searched from): the others are left out.
    pub(super) fn build(&mut self, s: &Search, y: bool, x: bool) {
        self.build_digits(s, y, x, ALL_DIGITS);
    }

    /// [`Reach::build`] for the potentials of the digits `wanted` (bit `digit - 1`) alone, in a pass without Y
    /// links (whose links keep to one digit, so that these potentials reach no other); with Y links, every digit.
    pub(super) fn build_digits(&mut self, s: &Search, y: bool, x: bool, wanted: u16) {
        let wanted = if y { ALL_DIGITS } else { wanted };
        let c = s.c;
        let bivalued = self.t.bivalued;
        // Only the entries of keys are read.
        self.comp[..729].fill(UNSEEN);
        self.index[..729].fill(UNSEEN);
        for (cell, &m) in c.mask.iter().enumerate() {
            if !x && !bivalued.contains(cell) {
                continue;
            }
            let mut ds = m & wanted;
            while ds != 0 {
                let di = ds.trailing_zeros() as usize;
                ds &= ds - 1;
                // The "off" potentials of the digit's other places among the cell's peers, then of the cell's
                // other digits (Y links), and the "on" potentials they turn on. Only the digits with any are
                // written (the others are never read).
                let row = &mut self.succ[slot(cell * 9 + di)];
                let mut digits = 0u16;
                let mut put = |e: usize, set: CellSet| {
                    if set.is_empty() {
                    } else if digits & 1 << e != 0 {
                        row[e] |= set;
                    } else {
                        row[e] = set;
                        digits |= 1 << e;
                    }
                };
                if x {
                    put(di, self.t.xrow[di][cell]);
                }
                if y {
                    // Each bivalue peer holding the digit: its other digit there.
                    for b in (PEERS[cell] & c.places[di] & bivalued).iter() {
                        let e = (c.mask[b] & !(1 << di)).trailing_zeros() as usize;
                        put(e, CellSet::single(b));
                    }
                    if bivalued.contains(cell) {
                        put(di, CellSet::single(cell));
                    }
                    if x {
                        let mut others = m & !(1 << di);
                        while others != 0 {
                            let e = others.trailing_zeros() as usize;
                            others &= others - 1;
                            put(e, self.t.conj[e][cell]);
                        }
                    }
                }
                self.succ_digits[slot(cell * 9 + di)] = digits;
            }
        }
        self.components(c, x, wanted);
    }

    /// Tarjan's strongly connected components of the pass's potentials of the digits `wanted`, each with what it
    /// reaches (a component is finished after every component it reaches, so their sets are there to be joined).
    fn components(&mut self, c: &Working, x: bool, wanted: u16) {
        self.comps = 0;
        self.stack.clear();
        self.frames.clear();
        self.done = [CellSet::EMPTY; 9];
        let mut counter = 0u16;
        for cell in 0..81 {
            if !x && !self.t.bivalued.contains(cell) {
                continue;
            }
            let mut ds = c.mask[cell] & wanted;
            while ds != 0 {
                let root = slot(cell * 9 + ds.trailing_zeros() as usize);
                ds &= ds - 1;
                if self.index[root] != UNSEEN {
                    continue;
                }
                // The potential being looked at and the next successor to look at are kept here; the frames
                // hold those of its ancestors.
                let (mut v, mut next) = (root, 0);
                self.enter(v, &mut counter);
                loop {
                    match self.next_successor(v, next) {
                        Some(j) => {
                            next = j + 1;
                            let k = slot(key_at(j));
                            if self.index[k] == UNSEEN {
                                self.frames.push((v as u16, next as u16));
                                self.enter(k, &mut counter);
                                (v, next) = (k, 0);
                            } else if self.comp[k] == UNSEEN {
                                // On the stack: in the component being built.
                                self.low[v] = self.low[v].min(self.index[k]);
                            }
                        }
                        None => {
                            if self.low[v] == self.index[v] {
                                self.finish(v);
                            }
                            let Some((u, resume)) = self.frames.pop() else {
                                break;
                            };
                            let u = slot(u as usize);
                            self.low[u] = self.low[u].min(self.low[v]);
                            (v, next) = (u, resume as usize);
                        }
                    }
                }
            }
        }
    }

    /// Numbers the potential of key `v` and puts it on the stack.
    fn enter(&mut self, v: usize, counter: &mut u16) {
        let v = slot(v);
        self.index[v] = *counter;
        self.low[v] = *counter;
        *counter += 1;
        self.stack.push(v as u16);
    }

    /// The first successor of key `v` from `from` on (both as `digit index * 128 + cell`) not in a finished
    /// component (those leave Tarjan's numbers as they are).
    fn next_successor(&self, v: usize, from: usize) -> Option<usize> {
        let v = slot(v);
        let row = &self.succ[v];
        let p = from / 128;
        // Only the rows of `succ_digits` are written by this pass.
        if p < 9 && self.succ_digits[v] >> p & 1 != 0 {
            let m = row[p].0 & !self.done[p].0 & (!0u128 << (from % 128));
            if m != 0 {
                return Some(p * 128 + m.trailing_zeros() as usize);
            }
        }
        let mut ds = u32::from(self.succ_digits[v]) & (!1u32 << p);
        while ds != 0 {
            let q = ds.trailing_zeros() as usize;
            ds &= ds - 1;
            let m = row[q].0 & !self.done[q].0;
            if m != 0 {
                return Some(q * 128 + m.trailing_zeros() as usize);
            }
        }
        None
    }

    /// Pops the component whose root is the key `v` and sets what it reaches: its own potentials, and the reach
    /// of each successor's component not reached yet (member by member: the successors in the component itself
    /// are in the reach already).
    fn finish(&mut self, v: usize) {
        let c = slot(self.comps);
        let start = self
            .stack
            .iter()
            .rposition(|&m| m as usize == v)
            .expect("root on the stack");
        let (done, acc) = self.reach.split_at_mut(c);
        let acc = &mut acc[0];
        *acc = [CellSet::EMPTY; 9];
        let mut acc_digits = 0u16;
        let members = &self.stack[start..];
        for &m in members {
            let m = slot(m as usize);
            self.comp[m] = c as u16;
            acc[m % 9].insert(m / 9);
            self.done[m % 9].insert(m / 9);
            acc_digits |= 1 << (m % 9);
        }
        for &m in members {
            let m = slot(m as usize);
            let mut ps = self.succ_digits[m];
            while ps != 0 {
                let p = ps.trailing_zeros() as usize;
                ps &= ps - 1;
                loop {
                    let x = self.succ[m][p].0 & !acc[p].0;
                    if x == 0 {
                        break;
                    }
                    let cx = slot(self.comp[slot(x.trailing_zeros() as usize * 9 + p)] as usize);
                    let mut ds = self.reach_digits[cx];
                    acc_digits |= ds;
                    while ds != 0 {
                        let q = ds.trailing_zeros() as usize;
                        ds &= ds - 1;
                        acc[q] |= done[cx][q];
                    }
                }
            }
        }
        self.reach_digits[c] = acc_digits;
        self.size[c] = (self.stack.len() - start) as u16;
        self.comps += 1;
        self.stack.truncate(start);
    }

    /// What the "on" potential of key `a` reaches (itself included); `a` is one of the pass's potentials.
    pub(super) fn reach_of(&self, a: usize) -> &Planes {
        &self.reach[self.comp[a] as usize]
    }

    /// Whether the forcing chain from `digit` in `cell` "on" may meet its "off": a potential reachable from it
    /// turns it off.
    pub(super) fn may_refute_on(&self, s: &Search, y: bool, cell: usize, digit: u8) -> bool {
        let di = digit as usize - 1;
        let r = self.reach_of(key(cell as u8, digit));
        if !(r[di] & PEERS[cell] & s.c.places[di]).is_empty() {
            return true;
        }
        if !y {
            return false;
        }
        // Some other digit of the cell that something reachable turns on there (of the digits reached).
        let mut others = s.c.mask[cell]
            & !(1 << di)
            & self.reach_digits[slot(self.comp[key(cell as u8, digit)] as usize)];
        while others != 0 {
            let e = others.trailing_zeros() as usize;
            others &= others - 1;
            if r[e].contains(cell) {
                return true;
            }
        }
        false
    }

    /// Whether the forcing chain from `digit` in `cell` "off" may meet its "on": it is reachable from a potential
    /// the source turns on (the cell's other digit when bivalue and `y`, the digit's last other place in a house).
    #[inline]
    pub(super) fn may_refute_off(&self, s: &Search, y: bool, cell: usize, digit: u8) -> bool {
        let di = digit as usize - 1;
        if y {
            if let Some(d) = s.partner(cell, digit) {
                if self.reach_of(key(cell as u8, d))[di].contains(cell) {
                    return true;
                }
            }
        }
        self.t.conj[di][cell]
            .iter()
            .any(|o| self.reach_of(key(o as u8, digit))[di].contains(cell))
    }

    /// Whether a cycle may come back to `digit` in `cell`: its component holds another potential.
    pub(super) fn may_cycle(&self, cell: usize, digit: u8) -> bool {
        let a = self.comp[key(cell as u8, digit)];
        a != UNSEEN && self.size[a as usize] > 1
    }

    /// Whether the "on" potentials of keys `a` and `b` reach each other (they are in one component).
    pub(super) fn together(&self, a: usize, b: usize) -> bool {
        let (a, b) = (self.comp[a], self.comp[b]);
        a != UNSEEN && a == b
    }
}

#[cfg(test)]
mod tests {
    use super::super::samples::working_grids;
    use super::*;
    use crate::human::house::DigitSet;
    use crate::human::se::chain::potential::{NONE, NO_CAUSE};
    use crate::human::se::count9;

    /// The "on" potentials (as keys) one link pair away from `a`, by [`Search`]'s own links.
    fn successors(s: &mut Search, a: usize, y: bool, x: bool) -> Vec<usize> {
        s.nodes.clear();
        let p = s.push((a / 9) as u8, (a % 9) as u8 + 1, true, NO_CAUSE, NONE);
        let (mut offs, mut ons, mut out) = (Vec::new(), Vec::new(), Vec::new());
        s.on_to_off(p, y, &mut offs, |_, _| true);
        for &q in &offs {
            s.off_to_on(q, y, x, &mut ons, |_, _| true);
            for &r in &ons {
                let n = s.nodes[r as usize];
                out.push(key(n.cell, n.digit));
            }
        }
        out
    }

    #[test]
    fn components_and_reaches_are_those_of_the_plain_closures() {
        let (mut big, mut grids) = (0, 0);
        for w in working_grids(60, 6) {
            let mut s = Search::new(&w);
            let mut r = Reach::default();
            r.prepare(&s);
            for (y, x) in [(false, true), (true, false), (true, true)] {
                r.build(&s, y, x);
                let pass: Vec<usize> = (0..81)
                    .filter(|&cell| x || count9(w.mask[cell]) == 2)
                    .flat_map(|cell| {
                        DigitSet(w.mask[cell])
                            .iter()
                            .map(move |d| key(cell as u8, d))
                    })
                    .collect();
                let succ: Vec<Vec<usize>> = (0..729)
                    .map(|a| {
                        if pass.contains(&a) {
                            successors(&mut s, a, y, x)
                        } else {
                            Vec::new()
                        }
                    })
                    .collect();
                // Each potential's closure, breadth first.
                let closure = |a: usize| {
                    let mut met = vec![false; 729];
                    let mut queue = vec![a];
                    met[a] = true;
                    let mut i = 0;
                    while let Some(&b) = queue.get(i) {
                        i += 1;
                        for &c in &succ[b] {
                            if !met[c] {
                                met[c] = true;
                                queue.push(c);
                            }
                        }
                    }
                    met
                };
                let closures: Vec<Vec<bool>> = (0..729).map(closure).collect();
                for &a in &pass {
                    let mut want = [CellSet::EMPTY; 9];
                    for b in (0..729).filter(|&b| closures[a][b]) {
                        want[b % 9].insert(b / 9);
                    }
                    assert_eq!(r.reach_of(a), &want, "reach of key {a}, y {y} x {x}");
                    let mut mates = 0;
                    for &b in &pass {
                        let both = closures[a][b] && closures[b][a];
                        assert_eq!(r.together(a, b), both, "keys {a} and {b}, y {y} x {x}");
                        mates += usize::from(both);
                    }
                    assert_eq!(r.may_cycle(a / 9, (a % 9) as u8 + 1), mates > 1);
                    big = big.max(mates);
                }
            }
            grids += 1;
        }
        // Large components were met.
        assert!(grids == 60 && big > 50, "largest component {big}");
    }

    #[test]
    fn the_x_pass_built_for_some_digits_is_the_whole_pass_there() {
        let mut compared = 0;
        for (i, w) in working_grids(120, 5).iter().enumerate() {
            let s = Search::new(w);
            let (mut whole, mut some) = (Reach::default(), Reach::default());
            whole.prepare(&s);
            whole.build(&s, false, true);
            some.prepare(&s);
            // Some other pass first, so that what it left behind is there.
            some.build(&s, true, true);
            let wanted = [0x1FF, 1 << (i % 9), 0x155, 0b11 << (i % 8)][i % 4];
            some.build_digits(&s, false, true, wanted);
            let keys = |d: usize| {
                w.places[d]
                    .iter()
                    .map(move |cell| key(cell as u8, d as u8 + 1))
            };
            for d in (0..9).filter(|&d| wanted >> d & 1 != 0) {
                for a in keys(d) {
                    let (cell, digit) = (a / 9, (a % 9) as u8 + 1);
                    assert_eq!(some.reach_of(a), whole.reach_of(a), "grid {i}, key {a}");
                    assert_eq!(some.may_cycle(cell, digit), whole.may_cycle(cell, digit));
                    assert_eq!(
                        some.may_refute_on(&s, false, cell, digit),
                        whole.may_refute_on(&s, false, cell, digit)
                    );
                    assert_eq!(
                        some.may_refute_off(&s, false, cell, digit),
                        whole.may_refute_off(&s, false, cell, digit)
                    );
                    for b in keys(d) {
                        assert_eq!(some.together(a, b), whole.together(a, b), "grid {i}");
                    }
                    compared += 1;
                }
            }
        }
        assert!(compared > 5_000, "{compared}");
    }
}
