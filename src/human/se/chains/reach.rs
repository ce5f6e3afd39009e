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

use super::{count9, key, Search, NO_CELL};
use crate::human::house::PEERS;

/// No candidate at that key, in [`Reach::id`].
const NO_ID: u16 = u16::MAX;
/// Not met yet, in Tarjan's numbering.
const UNSEEN: u16 = u16::MAX;

/// The reachability of one pass's "on" potentials; its buffers are kept from pass to pass.
#[derive(Default)]
pub(super) struct Reach {
    /// The index of each candidate (by [`key`]) among the grid's candidates, or [`NO_ID`].
    id: Vec<u16>,
    /// Words of a set of candidates.
    words: usize,
    /// For each candidate, the "on" potentials one link pair away (`words` words each).
    succ: Vec<u64>,
    /// The strongly connected component of each candidate.
    comp: Vec<u16>,
    /// The number of candidates of each component.
    size: Vec<u16>,
    /// For each component, the "on" potentials reachable from it, its own included (`words` words each).
    reach: Vec<u64>,
    /// Tarjan's numbering, lowest reachable number, component stack and depth-first frames (a candidate and the
    /// next successor to look at).
    index: Vec<u16>,
    low: Vec<u16>,
    stack: Vec<u16>,
    frames: Vec<(u16, u16)>,
}

/// Calls `f` with the key of each potential the "off" potential `digit` in `cell` turns on: the cell's other digit
/// when bivalue (Y links on), the digit's last other place in each house (X links on).
#[inline]
fn strong(s: &Search, y: bool, x: bool, cell: usize, digit: u8, mut f: impl FnMut(usize)) {
    if y {
        if let Some(d) = s.partner(cell, digit) {
            f(key(cell as u8, d));
        }
    }
    if x {
        for &o in &s.last[key(cell as u8, digit)] {
            if o != NO_CELL {
                f(key(o, digit));
            }
        }
    }
}

/// Calls `f` with `(cell, digit)` of each potential the "on" potential `digit` in `cell` turns off: the cell's other
/// digits (Y links on), the digit's other places among the cell's peers.
#[inline]
fn weak(s: &Search, y: bool, cell: usize, digit: u8, mut f: impl FnMut(usize, u8)) {
    if y {
        for d in s.c.get(cell).iter().filter(|&d| d != digit) {
            f(cell, d);
        }
    }
    for x in (PEERS[cell] & s.c.places(digit)).iter() {
        f(x, digit);
    }
}

impl Reach {
    /// The reachability of the pass on `s`'s candidates with Y links when `y` and X links when `x`. With Y links
    /// alone, only the potentials of bivalue cells are ever turned on (and searched from): the others are left out.
    pub(super) fn build(&mut self, s: &Search, y: bool, x: bool) {
        self.id.clear();
        self.id.resize(729, NO_ID);
        let counted = |cell: usize| x || count9(s.c.get(cell).0) == 2;
        let mut n = 0usize;
        for cell in (0..81).filter(|&cell| counted(cell)) {
            for d in s.c.get(cell).iter() {
                self.id[key(cell as u8, d)] = n as u16;
                n += 1;
            }
        }
        let w = n.div_ceil(64).max(1);
        self.words = w;
        self.succ.clear();
        self.succ.resize(n * w, 0);
        let mut a = 0;
        for cell in (0..81).filter(|&cell| counted(cell)) {
            for d in s.c.get(cell).iter() {
                let row = &mut self.succ[a * w..(a + 1) * w];
                let id = &self.id;
                weak(s, y, cell, d, |xc, xd| {
                    strong(s, y, x, xc, xd, |b| {
                        let b = id[b] as usize;
                        row[b / 64] |= 1 << (b % 64);
                    })
                });
                a += 1;
            }
        }
        self.components(n);
    }

    /// Tarjan's strongly connected components of the `n` candidates, each with what it reaches (a component is
    /// finished after every component it reaches, so their sets are there to be joined).
    fn components(&mut self, n: usize) {
        let w = self.words;
        self.index.clear();
        self.index.resize(n, UNSEEN);
        self.low.clear();
        self.low.resize(n, 0);
        self.comp.clear();
        self.comp.resize(n, u16::MAX);
        self.size.clear();
        self.reach.clear();
        self.reach.resize(n * w, 0);
        self.stack.clear();
        self.frames.clear();
        let mut counter = 0u16;
        for root in 0..n {
            if self.index[root] != UNSEEN {
                continue;
            }
            self.enter(root, &mut counter);
            while let Some(&(v, next)) = self.frames.last() {
                let v = v as usize;
                match self.next_successor(v, next as usize, n) {
                    Some(x) => {
                        self.frames.last_mut().expect("a frame").1 = x as u16 + 1;
                        if self.index[x] == UNSEEN {
                            self.enter(x, &mut counter);
                        } else if self.comp[x] == u16::MAX {
                            // On the stack: in the component being built.
                            self.low[v] = self.low[v].min(self.index[x]);
                        }
                    }
                    None => {
                        self.frames.pop();
                        if self.low[v] == self.index[v] {
                            self.finish(v, w);
                        }
                        if let Some(&(u, _)) = self.frames.last() {
                            let u = u as usize;
                            self.low[u] = self.low[u].min(self.low[v]);
                        }
                    }
                }
            }
        }
    }

    /// Numbers `v` and puts it on the stack and the frames.
    fn enter(&mut self, v: usize, counter: &mut u16) {
        self.index[v] = *counter;
        self.low[v] = *counter;
        *counter += 1;
        self.stack.push(v as u16);
        self.frames.push((v as u16, 0));
    }

    /// The first successor of `v` from `from` on.
    fn next_successor(&self, v: usize, from: usize, n: usize) -> Option<usize> {
        let w = self.words;
        let row = &self.succ[v * w..(v + 1) * w];
        let mut i = from / 64;
        if from >= n {
            return None;
        }
        let mut m = row[i] & (!0u64 << (from % 64));
        loop {
            if m != 0 {
                return Some(i * 64 + m.trailing_zeros() as usize);
            }
            i += 1;
            if i == w {
                return None;
            }
            m = row[i];
        }
    }

    /// Pops the component whose root is `v` and sets what it reaches.
    fn finish(&mut self, v: usize, w: usize) {
        let c = self.size.len();
        let start = self
            .stack
            .iter()
            .rposition(|&m| m as usize == v)
            .expect("root on the stack");
        for &m in &self.stack[start..] {
            self.comp[m as usize] = c as u16;
        }
        self.size.push((self.stack.len() - start) as u16);
        for i in start..self.stack.len() {
            let m = self.stack[i] as usize;
            self.reach[c * w + m / 64] |= 1 << (m % 64);
            for j in 0..w {
                let mut bits = self.succ[m * w + j];
                while bits != 0 {
                    let x = j * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    let cx = self.comp[x] as usize;
                    if cx != c {
                        for k in 0..w {
                            self.reach[c * w + k] |= self.reach[cx * w + k];
                        }
                    }
                }
            }
        }
        self.stack.truncate(start);
    }

    /// Whether the "on" potential of key `b` is reachable from that of key `a` (itself included).
    fn reaches(&self, a: usize, b: usize) -> bool {
        let (a, b) = (self.id[a] as usize, self.id[b] as usize);
        let c = self.comp[a] as usize;
        self.reach[c * self.words + b / 64] >> (b % 64) & 1 != 0
    }

    /// Whether the forcing chain from `digit` in `cell` "on" may meet its "off": a potential reachable from it
    /// turns it off.
    pub(super) fn may_refute_on(&self, s: &Search, y: bool, cell: usize, digit: u8) -> bool {
        let from = key(cell as u8, digit);
        let mut any = false;
        weak(s, y, cell, digit, |xc, xd| {
            any = any || self.reaches(from, key(xc as u8, xd));
        });
        any
    }

    /// Whether the forcing chain from `digit` in `cell` "off" may meet its "on": it is reachable from a potential
    /// the source turns on.
    pub(super) fn may_refute_off(&self, s: &Search, y: bool, cell: usize, digit: u8) -> bool {
        let to = key(cell as u8, digit);
        let mut any = false;
        strong(s, y, true, cell, digit, |b| {
            any = any || self.reaches(b, to)
        });
        any
    }

    /// Whether a cycle may come back to `digit` in `cell`: its component holds another potential.
    pub(super) fn may_cycle(&self, cell: usize, digit: u8) -> bool {
        let a = self.id[key(cell as u8, digit)];
        a != NO_ID && self.size[self.comp[a as usize] as usize] > 1
    }

    /// Whether the "on" potentials of keys `a` and `b` reach each other (they are in one component).
    pub(super) fn together(&self, a: usize, b: usize) -> bool {
        let (a, b) = (self.id[a], self.id[b]);
        a != NO_ID && b != NO_ID && self.comp[a as usize] == self.comp[b as usize]
    }
}
