//! The closures of SE's static links on a working grid (every potential an assumption leads to, "on" and "off"),
//! and from them the working grids of a dynamic chain where SE's Forcing Chains & Cycles can give no hint resting
//! on the chain's eliminations ([`may_rest`]): there the nested producer of level 2 need not run.
//!
//! The links are those of the producer's XY pass (its X and Y passes follow some of them): an "on" potential turns
//! "off" the cell's other digits and the digit's other places among the cell's peers; an "off" one turns "on" the
//! cell's other digit when it has two (a strong link in the cell) and the digit's last other place in a house (a
//! strong link in the house). They are skew-symmetric: `a` on leads to `b` off exactly when `b` on leads to `a`
//! off, `a` off to `b` on exactly when `b` off leads to `a` on; so a path read backwards, every state flipped, is
//! a path. `F(q)` is the closure of `q` on, `F(q off)` that of `q` off.
//!
//! A nested hint rests on the chain's eliminations when a potential of its chains implied "on" came through a
//! link the chain changed: one whose cell lost candidates, or whose house lost places of its digit, since the
//! chain began (as [`super::nested`] reads its cause). A forcing chain's "on" potentials come through links from
//! "off" to "on"; a cycle's chains are itself and itself reversed, all states flipped, so any link of a cycle
//! counts. Every such link joins two candidates of a changed cell, or two places of a digit in a changed house.
//!
//! - A forcing chain from `p` on to `p` off through a link from `x` off to `y` on: `y` on leads to `p` off, so
//!   `x` off does; `p` on leads to `x` off, so `x` on leads to `p` off, and `y` off (which turns `x` on) does:
//!   `p` off is in `F(x off)` and `F(y off)`. From `p` off to `p` on, `p` on is in both, and so is every potential
//!   it leads to, the "off" of the other candidates of its cell (a source has two or more) among them.
//! - A cycle removes a candidate `e` that an "on" potential `A` of it sees and an "off" one `B` sees (SE's
//!   `createCycleHint`): `e` on leads to `B` off and round the cycle to each of its potentials, and each of them
//!   round the cycle to `A` on, then `e` off. So for a link of the cycle from `a` on to `w` off, or from `w` off
//!   to `a` on: `e` on leads to `a` on, so `a` off leads to `e` off, and `w` off does: `e` off is in `F(a off)`
//!   and `F(w off)`.
//!
//! So where no two "off" potentials of a changed cell's candidates, nor of a changed house's places of a digit,
//! have closures that meet in an "off" potential, no hint of the producer rests on the chain's eliminations. Such a
//! meeting means a contradiction (`F(a off)` and `F(w off)` meet in `q` off: `q` on leads to `a` on, which turns
//! `w` off, and to `w` on), which most working grids of the hardest puzzles lack.
//!
//! An "off" potential turns on only the other end of a strong link, which on turns it off again; so `F(x off)`
//! is `F(y on)` for any `y` that `x` off turns on (or `x` off alone where there is none): one closure per member.

use std::cell::Cell;

use super::advanced::Grids;
use super::links::Conjugates;
use super::memo::GridMap;
use super::working::Working;
use crate::human::house::{CellSet, House, PEERS};
use crate::human::se::{cells_of, count9};

/// Potentials of one state, the cells of each digit (index `digit - 1`).
type Planes = [CellSet; 9];

/// The "on" potentials a closure is to follow, `(cell, digit index)`: each potential at most once.
type Queue = [(u8, u8); 729];

/// The potentials one potential leads to (itself included).
#[derive(Clone, Copy)]
struct Closure {
    on: Planes,
    off: Planes,
}

/// No closure worked out yet, in [`Closures::index`].
const NOT_YET: u16 = u16::MAX;

/// The closures of "on" potentials of one working grid, each worked out the first time asked; the buffers are the
/// thread's, kept from grid to grid.
struct Closures {
    /// SE's strong links in houses, kept from grid to grid.
    conj: Conjugates,
    /// For each digit index, the places with a strong link in a house: the others' rows in `conj` are empty.
    linked: Planes,
    /// The cells with two candidates on the working grid of the latest call.
    pairs: CellSet,
    /// For each potential (by key), the index in `sets` of its closure, or [`NOT_YET`].
    index: Vec<u16>,
    sets: Vec<Closure>,
    queue: Box<Queue>,
}

/// The verdicts of [`may_rest`] on the working grids met lately from one starting grid: the dynamic chains of one
/// producer all start from the same grid and meet the same working grids again and again. A verdict depends on
/// the two grids alone, so the table is emptied when the starting grid changes, and when it holds
/// [`Verdicts::MOST`] grids.
#[derive(Default)]
struct Verdicts {
    source: Option<[u16; 81]>,
    seen: GridMap<[u16; 81], bool>,
}

impl Verdicts {
    const MOST: usize = 1 << 12;

    /// The verdict on `g`, worked out by `verdict` unless given already.
    fn of(&mut self, g: &Grids, verdict: impl FnOnce() -> bool) -> bool {
        if self.source != Some(g.source.mask) || self.seen.len() >= Self::MOST {
            self.source = Some(g.source.mask);
            self.seen.clear();
        }
        *self.seen.entry(g.now.mask).or_insert_with(verdict)
    }
}

impl Default for Closures {
    fn default() -> Closures {
        Closures {
            conj: Conjugates::default(),
            linked: [CellSet::EMPTY; 9],
            pairs: CellSet::EMPTY,
            index: vec![NOT_YET; 729],
            sets: Vec::new(),
            queue: Box::new([(0, 0); 729]),
        }
    }
}

thread_local! {
    /// The thread's buffers, lent to one caller at a time.
    static SPARE: Cell<Option<Box<(Closures, Verdicts)>>> = const { Cell::new(None) };
}

/// The groups of potentials of which at most one is true that the chain changed (see the module's comment), on
/// a working grid: the cells that lost candidates and have two or more left, and the houses where a digit lost
/// places and has two or more left.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub(super) struct Changed {
    pub cells: CellSet,
    /// For each digit index, the houses (bit `h` for `House(h)`).
    pub houses: [u32; 9],
}

impl Changed {
    /// Whether there is no group.
    pub(super) fn is_empty(&self) -> bool {
        self.cells.is_empty() && self.houses.iter().all(|&h| h == 0)
    }
}

/// Whether SE's Forcing Chains & Cycles on the chain's working grid `g.now` may give a hint resting on the chain's
/// eliminations (see the module's comment), `changed` its groups: false proves none does.
pub(super) fn may_rest(g: &Grids, changed: &Changed) -> bool {
    let mut c = SPARE.with(|s| s.take()).unwrap_or_default();
    let (closures, verdicts) = &mut *c;
    let out = verdicts.of(g, || closures.may_rest(g.now, changed));
    SPARE.with(|s| s.set(Some(c)));
    out
}

impl Closures {
    fn may_rest(&mut self, w: &Working, changed: &Changed) -> bool {
        for (linked, built) in self.linked.iter_mut().zip(self.conj.update(w)) {
            if let Some(built) = built {
                *linked = built;
            }
        }
        self.pairs = w.bivalue();
        self.index.fill(NOT_YET);
        self.sets.clear();
        for cell in changed.cells.iter() {
            let m = w.mask[cell];
            let digits = (0..9).filter(|&d| m >> d & 1 != 0);
            if self.offs_meet(w, digits.map(|d| (cell, d))) {
                return true;
            }
        }
        for (di, &houses) in changed.houses.iter().enumerate() {
            let mut rest = houses;
            while rest != 0 {
                let h = rest.trailing_zeros() as u8;
                rest &= rest - 1;
                let here = w.places[di] & cells_of(House(h));
                if self.offs_meet(w, here.iter().map(|x| (x, di))) {
                    return true;
                }
            }
        }
        false
    }

    /// Whether the closures of two of the "off" potentials `members` (`(cell, digit index)`) share an "off"
    /// potential.
    fn offs_meet(&mut self, w: &Working, members: impl Iterator<Item = (usize, usize)>) -> bool {
        let mut met = [CellSet::EMPTY; 9];
        for (x, di) in members {
            match self.off_closure(w, x, di) {
                Some(i) => {
                    let offs = &self.sets[i].off;
                    for (m, o) in met.iter_mut().zip(offs) {
                        if !(*m & *o).is_empty() {
                            return true;
                        }
                        *m |= *o;
                    }
                }
                None => {
                    if met[di].contains(x) {
                        return true;
                    }
                    met[di].insert(x);
                }
            }
        }
        false
    }

    /// The index in `sets` of the closure of `x` off (digit index `di`), or `None` when `x` off turns nothing
    /// on (its closure is itself). `x` off turns `y` on only where `y` on turns `x` off (a strong link, in the
    /// cell or a house), so the two closures hold each other and are one: that of any `y`, one known if any.
    fn off_closure(&mut self, w: &Working, x: usize, di: usize) -> Option<usize> {
        let mut first = None;
        for (cell, e) in self.strong(w, x, di) {
            let known = self.index[cell * 9 + e];
            if known != NOT_YET {
                return Some(known as usize);
            }
            first = first.or(Some((cell, e)));
        }
        first.map(|p| self.of(w, p))
    }

    /// The index in `sets` of the closure of `(cell, digit index)` on, worked out if it is not yet. A potential
    /// met whose closure is known brings it in whole, not followed again.
    fn of(&mut self, w: &Working, (cell, di): (usize, usize)) -> usize {
        let k = cell * 9 + di;
        if self.index[k] != NOT_YET {
            return self.index[k] as usize;
        }
        let Closures {
            conj,
            linked,
            pairs,
            index,
            sets,
            queue,
        } = self;
        // The closure is grown in place, after the known ones it may bring in.
        let n = sets.len();
        sets.push(Closure {
            on: [CellSet::EMPTY; 9],
            off: [CellSet::EMPTY; 9],
        });
        let (known_sets, grown) = sets.split_at_mut(n);
        let f = &mut grown[0];
        f.on[di].insert(cell);
        let queue = &mut **queue;
        queue[0] = (cell as u8, di as u8);
        // The potentials queued: as each is queued once, when turned on, at most 729.
        let mut queued = 1;
        // Turns on the potentials of digit index `e` in `cells` not on yet, and queues them.
        let turn =
            |f: &mut Closure, queue: &mut Queue, queued: &mut usize, e: usize, cells: CellSet| {
                let fresh = cells.0 & !f.on[e].0;
                if fresh != 0 {
                    f.on[e].0 |= fresh;
                    for y in CellSet(fresh).iter() {
                        queue[*queued] = (y as u8, e as u8);
                        *queued += 1;
                    }
                }
            };
        let mut next = 0;
        while next < queued {
            let (at, i) = queue[next];
            next += 1;
            let (at, i) = (at as usize, i as usize);
            let known = index[at * 9 + i];
            if known != NOT_YET {
                let g = &known_sets[known as usize];
                for d in 0..9 {
                    f.on[d] |= g.on[d];
                    f.off[d] |= g.off[d];
                }
                continue;
            }
            let fresh = w.places[i] & PEERS[at] & !f.off[i];
            f.off[i] |= fresh;
            // What they turn on: the digit's other place in a house, the cell's other digit.
            for x in (fresh & linked[i]).iter() {
                turn(f, queue, &mut queued, i, conj[i][x]);
            }
            for x in (fresh & *pairs).iter() {
                let e = (w.mask[x] & !(1 << i)).trailing_zeros() as usize;
                turn(f, queue, &mut queued, e, CellSet::single(x));
            }
            let mut others = w.mask[at] & !(1 << i);
            while others != 0 {
                let e = others.trailing_zeros() as usize;
                others &= others - 1;
                if !f.off[e].contains(at) {
                    f.off[e].insert(at);
                    // The cell's other digit, if it has two, is `i`: on already.
                    if linked[e].contains(at) {
                        turn(f, queue, &mut queued, e, conj[e][at]);
                    }
                }
            }
        }
        index[k] = n as u16;
        n
    }

    /// The potentials (`(cell, digit index)`) that `cell` off, digit index `d`, turns on: the cell's other digit
    /// when it has two, the digit's last other place in a house. Each of them on turns `cell` off (a strong link).
    fn strong(&self, w: &Working, cell: usize, d: usize) -> impl Iterator<Item = (usize, usize)> {
        let m = w.mask[cell];
        let partner = (count9(m) == 2).then(|| (cell, (m & !(1 << d)).trailing_zeros() as usize));
        partner
            .into_iter()
            .chain(self.conj[d][cell].iter().map(move |o| (o, d)))
    }
}

/// [`may_rest`]'s verdict read off its definition, potential by potential (the tests' reference): whether the
/// closures of two "off" potentials of a group of `changed` share an "off" potential, each closure followed link
/// by link on its own.
#[cfg(test)]
pub(super) fn by_definition(w: &Working, changed: &Changed) -> bool {
    use crate::human::se::house_of;
    // The "off" potentials (by key) the closure of (`cell`, digit index `d`) off holds.
    let offs_of = |cell: usize, d: usize| -> Vec<bool> {
        // Index `key * 2 + on`.
        let mut seen = vec![false; 729 * 2];
        let mut stack = vec![(cell, d, false)];
        seen[(cell * 9 + d) * 2] = true;
        while let Some((x, e, on)) = stack.pop() {
            let mut next = Vec::new();
            if on {
                for f in (0..9).filter(|&f| f != e && w.mask[x] >> f & 1 != 0) {
                    next.push((x, f, false));
                }
                for y in (w.places[e] & PEERS[x]).iter() {
                    next.push((y, e, false));
                }
            } else {
                if count9(w.mask[x]) == 2 {
                    next.push((x, (w.mask[x] & !(1 << e)).trailing_zeros() as usize, true));
                }
                for t in 0..3 {
                    let mut others = w.places[e] & cells_of(house_of(t, x));
                    others.remove(x);
                    if others.len() == 1 {
                        next.push((others.first().expect("one"), e, true));
                    }
                }
            }
            for (y, f, on) in next {
                let i = (y * 9 + f) * 2 + usize::from(on);
                if !seen[i] {
                    seen[i] = true;
                    stack.push((y, f, on));
                }
            }
        }
        (0..729).map(|k| seen[k * 2]).collect()
    };
    let meet = |members: Vec<(usize, usize)>| {
        let offs: Vec<Vec<bool>> = members.iter().map(|&(x, d)| offs_of(x, d)).collect();
        (0..offs.len()).any(|a| (0..a).any(|b| (0..729).any(|k| offs[a][k] && offs[b][k])))
    };
    changed.cells.iter().any(|cell| {
        meet(
            (0..9)
                .filter(|&d| w.mask[cell] >> d & 1 != 0)
                .map(|d| (cell, d))
                .collect(),
        )
    }) || (0..9).any(|d| {
        (0..27u8).any(|h| {
            changed.houses[d] >> h & 1 != 0
                && meet(
                    (w.places[d] & cells_of(House(h)))
                        .iter()
                        .map(|x| (x, d))
                        .collect(),
                )
        })
    })
}
