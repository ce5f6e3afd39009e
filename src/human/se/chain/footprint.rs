//! What each assumption of the static chains reaches, as sets only (its footprint): the "on" and "off" potentials
//! SE's `doChaining` without dynamic removals grows from "`cell` is `digit`" on a working grid, as
//! [`super::multiple`] grows them with their chains, and whether the footprints of a cell's candidates or of a
//! digit's places in a house have anything in common (a Multiple Forcing Chain needs that, and most have not).
//!
//! The growth is SE's, step for step: pending "on" potentials first, then one "off"; each potential's links in
//! SE's order (an "on" one: the cell's other digits, then the digit's other places in the cell's box, row and
//! column, each cell once; an "off" one: the cell's other digit when it has two, then the digit's last other
//! place in the box, row and column); a link to a potential met in the other state stops the growth there, with
//! what was found so far. Potentials are held digit by digit as cell sets, and no chain (parent, cause, node) is
//! written.
//!
//! Without such a stop a growth reaches every potential its links lead to, whatever their order: its closure. So
//! the closure is worked out first, a set of cells at a time (an "on" potential's "on" successors two links away
//! are unions of per-grid tables: [`Tables`]); when no potential of it is both on and off, the growth met no
//! contradiction and the closure is its footprint; else the growth is replayed step by step to find where SE's
//! stops.

use std::cell::Cell;

use super::links::Tables;
use super::potential::key;
use super::working::Working;
use crate::human::house::{CellSet, DigitSet, PEERS};
use crate::human::se::{cells_of, count9, house_of, two_or_more};

/// Potentials of one state, the cells of each digit (index `digit - 1`).
pub(super) type Planes = [CellSet; 9];

/// The "on" and "off" potentials an assumption reaches.
#[derive(Clone, Copy)]
pub(super) struct Footprint {
    pub on: Planes,
    pub off: Planes,
}

const EMPTY: Footprint = Footprint {
    on: [CellSet::EMPTY; 9],
    off: [CellSet::EMPTY; 9],
};

/// The footprints of the assumptions on one working grid, each grown the first time asked; the memory is the
/// thread's, kept from grid to grid.
pub(super) struct Footprints<'a> {
    c: &'a Working,
    b: Box<Buffers>,
}

/// What is known of one of [`Buffers::prints`].
#[derive(Clone, Copy)]
struct Meta {
    /// Whether it is its assumption's closure (it met no contradiction); false while it is grown.
    closed: bool,
    /// Its planes that hold a potential (see [`plane`]).
    planes: u32,
}

#[derive(Default)]
struct Buffers {
    /// For each key, the index in `prints` of the footprint of "key on" when it is grown, else [`UNKNOWN`]
    /// (reset for each grid).
    index: Vec<u16>,
    prints: Vec<Footprint>,
    meta: Vec<Meta>,
    /// Scratch of [`grow_into`]: the pending "on" and "off" potentials of a growth, `(cell, digit)` in SE's order.
    on: Vec<(u8, u8)>,
    off: Vec<(u8, u8)>,
    links: Tables,
}

impl Buffers {
    /// The index in `prints` of the footprint of "key `k` on", if grown.
    #[inline]
    fn known(&self, k: usize) -> Option<usize> {
        let i = self.index[k];
        (i != UNKNOWN).then_some(i as usize)
    }
}

/// In [`Buffers::index`], a key whose footprint is not grown (a grid has fewer keys).
const UNKNOWN: u16 = u16::MAX;

/// How deep [`Footprints::grow_new`] grows the footprints of the "on" potentials a closure meets before it
/// takes them in (deeper ones are followed in place).
const DEPTH: u32 = 24;

thread_local! {
    /// The thread's buffers, lent to one [`Footprints`] at a time.
    static SPARE: Cell<Option<Box<Buffers>>> = const { Cell::new(None) };
}

impl<'a> Footprints<'a> {
    /// No footprint grown yet on `c`.
    pub(super) fn new(c: &'a Working) -> Footprints<'a> {
        let mut b = SPARE.with(|s| s.take()).unwrap_or_default();
        b.index.clear();
        b.index.resize(729, UNKNOWN);
        b.prints.clear();
        b.meta.clear();
        b.links.build(c);
        Footprints { c, b }
    }

    /// Gives the memory back to the thread, for the next grid.
    pub(super) fn keep(self) {
        SPARE.with(|s| s.set(Some(self.b)));
    }

    /// The footprint of "`cell` is `digit`" (the tests' view of it).
    #[cfg(test)]
    pub(super) fn get(&mut self, cell: u8, digit: u8) -> &Footprint {
        let i = self.grown(cell, digit);
        &self.b.prints[i]
    }

    /// The index in `prints` of the footprint of "`cell` is `digit`", grown if it is not yet.
    #[inline]
    fn grown(&mut self, cell: u8, digit: u8) -> usize {
        match self.b.known(key(cell, digit)) {
            Some(i) => i,
            None => self.grow_new(cell, digit, DEPTH),
        }
    }

    /// Grows the footprint of "`cell` is `digit`" (not grown yet) at the end of `prints`, and returns its index:
    /// its closure ([`Footprints::close`]), or the growth replayed step by step when the closure clashes. The
    /// closure takes in whole the footprints of the "on" potentials it meets that are closures, growing first,
    /// `depth` levels deep, those not grown yet.
    fn grow_new(&mut self, cell: u8, digit: u8, depth: u32) -> usize {
        let k = key(cell, digit);
        let b = &mut *self.b;
        let at = b.prints.len();
        b.prints.push(EMPTY);
        // Known from now on, and not a closure while it is grown: a closure that meets it follows it in place.
        b.meta.push(Meta {
            closed: false,
            planes: 0,
        });
        b.index[k] = at as u16;
        let (whole, mut planes) = self.close(at, cell, digit, depth);
        let b = &mut *self.b;
        let f = &mut b.prints[at];
        if !whole {
            *f = EMPTY;
            grow_into(self.c, f, &mut b.on, &mut b.off, cell, digit);
            planes = planes_of(f);
        }
        debug_assert_eq!(planes, planes_of(f));
        b.meta[at].closed = whole;
        b.meta[at].planes = planes;
        at
    }

    /// Whether some potential is in the footprints of all `assumed` (`(cell, digit)`, two or more, nine at
    /// most), grown first where they are not yet. Only the planes where all of them hold potentials are
    /// intersected. (A group of SE's, a cell's candidates or a digit's places in a house, has all but one of its
    /// footprints meet at least in the last one "off", so no early stop would spare a growth.)
    pub(super) fn meet(&mut self, assumed: &[(u8, u8)]) -> bool {
        let mut at = [0u32; 9];
        let mut live = !0u32;
        for (at, &(cell, digit)) in at.iter_mut().zip(assumed) {
            let i = self.grown(cell, digit);
            *at = i as u32;
            live &= self.b.meta[i].planes;
        }
        let (first, rest) = at[..assumed.len()].split_first().unwrap_or((&0, &[]));
        let prints = &self.b.prints;
        while live != 0 {
            let p = live.trailing_zeros() as usize;
            live &= live - 1;
            let mut common = plane(&prints[*first as usize], p);
            for &i in rest {
                common &= plane(&prints[i as usize], p);
            }
            if !common.is_empty() {
                return true;
            }
        }
        false
    }

    /// The closure of "`cell` is `digit`" (the tests' view of [`Footprints::close`]).
    #[cfg(test)]
    fn closure(&mut self, cell: u8, digit: u8) -> (Footprint, bool) {
        let at = self.b.prints.len();
        self.b.prints.push(EMPTY);
        // The footprint of no key: left in place (those grown after it keep their index), never found.
        self.b.meta.push(Meta {
            closed: false,
            planes: 0,
        });
        let (whole, _) = self.close(at, cell, digit, DEPTH);
        (self.b.prints[at], whole)
    }

    /// Writes into `prints[at]` (empty) the closure of "`cell` is `digit`": every potential its links lead to.
    /// Returns whether none of them is both on and off (then the growth meets no contradiction, and the closure
    /// is its footprint) and the closure's planes that hold a potential ([`planes_of`]). An "on" potential met
    /// whose footprint is its closure brings it in whole, not followed again; one not grown yet is grown first
    /// ([`Footprints::grow_new`]) while `depth` is not 0; one being grown (this closure or one it is grown for)
    /// is followed in place.
    fn close(&mut self, at: usize, cell: u8, digit: u8, depth: u32) -> (bool, u32) {
        let c = self.c;
        let f = &mut self.b.prints[at];
        // The "on" potentials not followed yet, digit by digit; `todo` has bit `d` when `pending[d]` has any.
        let mut pending: Planes = [CellSet::EMPTY; 9];
        let d0 = digit as usize - 1;
        f.on[d0].insert(cell as usize);
        pending[d0].insert(cell as usize);
        let mut todo = 1u32 << d0;
        let mut planes = 0u32;
        // Turns on the potentials of digit index `d` in `cells` not on yet, and makes them pending.
        let turn_on =
            |f: &mut Footprint, pending: &mut Planes, todo: &mut u32, d: usize, cells: CellSet| {
                let fresh = cells.0 & !f.on[d].0;
                if fresh != 0 {
                    f.on[d].0 |= fresh;
                    pending[d].0 |= fresh;
                    *todo |= 1 << d;
                }
            };
        while todo != 0 {
            planes |= todo;
            let i = todo.trailing_zeros() as usize;
            let cell = pending[i].0.trailing_zeros() as usize;
            pending[i].0 &= pending[i].0 - 1;
            todo &= !(u32::from(pending[i].is_empty()) << i);
            let k = cell * 9 + i;
            let mut known = self.b.known(k);
            if known.is_none() && depth > 0 {
                known = Some(self.grow_new(cell as u8, i as u8 + 1, depth - 1));
            }
            let b = &mut *self.b;
            if let Some(j) = known.filter(|&j| b.meta[j].closed) {
                let (f, g) = two(&mut b.prints, at, j);
                for d in 0..9 {
                    f.on[d] |= g.on[d];
                    f.off[d] |= g.off[d];
                }
                planes |= b.meta[j].planes;
                continue;
            }
            let (t, f) = (&b.links, &mut b.prints[at]);
            // Off: the digit's other places among the peers; on: their last other places, and the other digit
            // of those of two candidates.
            let peers = c.places[i] & PEERS[cell];
            f.off[i] |= peers;
            planes |= u32::from(!peers.is_empty()) << (i + 9);
            turn_on(f, &mut pending, &mut todo, i, t.xrow[i][cell]);
            let mut es = t.pairs[i];
            while es != 0 {
                let e = es.trailing_zeros() as usize;
                es &= es - 1;
                turn_on(f, &mut pending, &mut todo, e, peers & t.bivalue[i][e]);
            }
            // Off: the cell's other digits; on: their last other places (the cell's other digit, when it has
            // two, is this one, on already).
            let mut others = u32::from(c.mask[cell]) & !(1 << i);
            planes |= others << 9;
            while others != 0 {
                let e = others.trailing_zeros() as usize;
                others &= others - 1;
                f.off[e].insert(cell);
                turn_on(f, &mut pending, &mut todo, e, t.conj[e][cell]);
            }
        }
        // A potential both on and off is on a digit with potentials in both states.
        let f = &self.b.prints[at];
        let mut both = planes & planes >> 9 & 0x1FF;
        let mut clash = 0;
        while both != 0 {
            let d = both.trailing_zeros() as usize;
            both &= both - 1;
            clash |= f.on[d].0 & f.off[d].0;
        }
        (clash == 0, planes)
    }

    /// Grows "`cell` is `digit`" as SE does, step by step (the tests' view of [`grow_into`]).
    #[cfg(test)]
    fn grow(&mut self, cell: u8, digit: u8) -> Footprint {
        let mut f = EMPTY;
        grow_into(self.c, &mut f, &mut self.b.on, &mut self.b.off, cell, digit);
        f
    }
}

/// `prints[at]`, and `prints[j]` (another).
fn two(prints: &mut [Footprint], at: usize, j: usize) -> (&mut Footprint, &Footprint) {
    if j < at {
        let (done, rest) = prints.split_at_mut(at);
        (&mut rest[0], &done[j])
    } else {
        let (rest, done) = prints.split_at_mut(j);
        (&mut rest[at], &done[0])
    }
}

/// The planes of `f` that hold a potential: bit `p` for [`plane`] `p`.
fn planes_of(f: &Footprint) -> u32 {
    f.on.iter()
        .zip(&f.off)
        .enumerate()
        .fold(0, |m, (d, (on, off))| {
            m | u32::from(!on.is_empty()) << d | u32::from(!off.is_empty()) << (d + 9)
        })
}

/// Grows "`cell` is `digit`" on `c` as SE does, step by step (see the module's comment), into `f` (empty);
/// `on` and `off` are scratch lists for the pending potentials.
fn grow_into(
    c: &Working,
    f: &mut Footprint,
    on: &mut Vec<(u8, u8)>,
    off: &mut Vec<(u8, u8)>,
    cell: u8,
    digit: u8,
) {
    on.clear();
    off.clear();
    f.on[digit as usize - 1].insert(cell as usize);
    on.push((cell, digit));
    let (mut next_on, mut next_off) = (0, 0);
    loop {
        if let Some(&(cell, digit)) = on.get(next_on) {
            next_on += 1;
            if !on_to_off(c, f, cell as usize, digit, off) {
                break;
            }
        } else if let Some(&(cell, digit)) = off.get(next_off) {
            next_off += 1;
            if !off_to_on(c, f, cell as usize, digit, on) {
                break;
            }
        } else {
            break;
        }
    }
}

/// Plane `p` (below 18) of `f`: its "on" potentials of digit index `p`, or for `p` from 9 its "off" ones of
/// digit index `p - 9`.
#[inline]
fn plane(f: &Footprint, p: usize) -> CellSet {
    if p < 9 {
        f.on[p]
    } else {
        f.off[p - 9]
    }
}

/// Takes in the potential (`x`, `d`), "on" when `on`, that a link leads to: false (the growth stops) when `f`
/// holds it in the other state; else it joins `f` and `pending`, unless there already.
#[inline]
fn take(f: &mut Footprint, pending: &mut Vec<(u8, u8)>, x: usize, d: u8, on: bool) -> bool {
    let i = d as usize - 1;
    let (same, opposite) = if on {
        (&mut f.on, &f.off)
    } else {
        (&mut f.off, &f.on)
    };
    if opposite[i].contains(x) {
        return false;
    }
    if !same[i].contains(x) {
        same[i].insert(x);
        pending.push((x as u8, d));
    }
    true
}

/// The links of the "on" potential (`cell`, `digit`) taken in: each "off" potential not in `f` yet joins it and
/// `pending`, in SE's order; false (the growth stops) at the first that `f` holds "on", those before it taken in.
#[inline]
fn on_to_off(
    c: &Working,
    f: &mut Footprint,
    cell: usize,
    digit: u8,
    pending: &mut Vec<(u8, u8)>,
) -> bool {
    for d in DigitSet(c.mask[cell]).iter().filter(|&d| d != digit) {
        if !take(f, pending, cell, d, false) {
            return false;
        }
    }
    let i = digit as usize - 1;
    let mut added = CellSet::single(cell);
    for t in 0..3 {
        let places = c.places[i] & cells_of(house_of(t, cell)) & !added;
        added |= places;
        let hit = places & f.on[i];
        if !hit.is_empty() {
            // The places before the first met "on" are taken in, then the growth stops.
            let first = hit.0.trailing_zeros();
            f.off[i] |= CellSet(places.0 & ((1u128 << first) - 1));
            return false;
        }
        let new = places & !f.off[i];
        f.off[i] |= new;
        pending.extend(new.iter().map(|x| (x as u8, digit)));
    }
    true
}

/// The links of the "off" potential (`cell`, `digit`) taken in: each "on" potential not in `f` yet joins it and
/// `pending`, in SE's order; false (the growth stops) at the first that `f` holds "off".
#[inline]
fn off_to_on(
    c: &Working,
    f: &mut Footprint,
    cell: usize,
    digit: u8,
    pending: &mut Vec<(u8, u8)>,
) -> bool {
    let cand = DigitSet(c.mask[cell]);
    if count9(cand.0) == 2 {
        let mut other = cand;
        other.remove(digit);
        if let Some(d) = other.first() {
            if !take(f, pending, cell, d, true) {
                return false;
            }
        }
    }
    let i = digit as usize - 1;
    for t in 0..3 {
        let mut others = c.places[i] & cells_of(house_of(t, cell));
        others.remove(cell);
        // One other place: some, and not two or more.
        if !others.is_empty()
            && !two_or_more(others.0)
            && !take(f, pending, others.0.trailing_zeros() as usize, digit, true)
        {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::super::samples::working_grids;
    use super::*;

    #[test]
    fn closures_give_the_footprints_of_the_step_by_step_growths() {
        let (mut whole, mut clashed) = (0, 0);
        for (i, w) in working_grids(300, 5).iter().enumerate() {
            let mut prints = Footprints::new(w);
            for cell in 0..81u8 {
                for d in DigitSet(w.mask[cell as usize]).iter() {
                    let want = prints.grow(cell, d);
                    let (closure, no_clash) = prints.closure(cell, d);
                    let got = *prints.get(cell, d);
                    assert_eq!(
                        (got.on, got.off),
                        (want.on, want.off),
                        "grid {i}, r{}c{} is {d}",
                        cell / 9 + 1,
                        cell % 9 + 1
                    );
                    if no_clash {
                        whole += 1;
                        assert_eq!((closure.on, closure.off), (want.on, want.off));
                    } else {
                        clashed += 1;
                    }
                }
            }
            prints.keep();
        }
        // Both ways were taken many times.
        assert!(
            whole > 10_000 && clashed > 1_000,
            "{whole} closures, {clashed} growths replayed"
        );
    }

    #[test]
    fn meet_tells_whether_the_footprints_have_a_potential_in_common() {
        let (mut met, mut apart) = (0, 0);
        let mut random = super::super::samples::Xorshift::new(77);
        for (i, w) in working_grids(200, 6).iter().enumerate() {
            // Fresh footprints for each group size, so that groups meet some grown and some not.
            for size in 2..=4 {
                let mut prints = Footprints::new(w);
                let all: Vec<(u8, u8)> = (0..81u8)
                    .flat_map(|cell| {
                        DigitSet(w.mask[cell as usize])
                            .iter()
                            .map(move |d| (cell, d))
                    })
                    .collect();
                for _ in 0..150 {
                    // Two candidates of one cell or one digit's places in one house meet more often than any.
                    let (cell, d) = all[random.next() as usize % all.len()];
                    let mut group: Vec<(u8, u8)> = match random.next() % 3 {
                        0 => DigitSet(w.mask[cell as usize])
                            .iter()
                            .map(|e| (cell, e))
                            .collect(),
                        1 => (w.places[d as usize - 1] & PEERS[cell as usize])
                            .iter()
                            .map(|x| (x as u8, d))
                            .chain([(cell, d)])
                            .collect(),
                        _ => (0..size)
                            .map(|_| all[random.next() as usize % all.len()])
                            .collect(),
                    };
                    group.truncate(size);
                    if group.len() < 2 {
                        continue;
                    }
                    let got = prints.meet(&group);
                    let mut common = *prints.get(group[0].0, group[0].1);
                    for &(x, e) in &group[1..] {
                        let f = *prints.get(x, e);
                        for d in 0..9 {
                            common.on[d] &= f.on[d];
                            common.off[d] &= f.off[d];
                        }
                    }
                    let want = (0..9).any(|d| !(common.on[d] | common.off[d]).is_empty());
                    assert_eq!(got, want, "grid {i}: {group:?}");
                    if want {
                        met += 1;
                    } else {
                        apart += 1;
                    }
                }
                prints.keep();
            }
        }
        assert!(met > 1_000 && apart > 1_000, "{met} met, {apart} apart");
    }
}
