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

use std::cell::Cell;
use std::collections::HashMap;

use super::advanced::Grids;
use super::links::conjugates;
use super::working::Working;
use crate::human::house::{CellSet, House, PEERS};
use crate::human::se::{cells_of, count9};

/// Potentials of one state, the cells of each digit (index `digit - 1`).
type Planes = [CellSet; 9];

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
    /// SE's strong links in houses ([`super::links::Tables::conj`]).
    conj: Box<[[CellSet; 81]; 9]>,
    /// For each potential (by key), the index in `sets` of its closure, or [`NOT_YET`].
    index: Vec<u16>,
    sets: Vec<Closure>,
    /// The "on" potentials to follow, `(cell, digit index)`.
    queue: Vec<(u8, u8)>,
}

/// The verdicts of [`may_rest`] on the working grids met lately from one starting grid: the dynamic chains of one
/// producer all start from the same grid and meet the same working grids again and again. A verdict depends on
/// the two grids alone, so the table is emptied when the starting grid changes, and when it holds
/// [`Verdicts::MOST`] grids.
#[derive(Default)]
struct Verdicts {
    source: Option<[u16; 81]>,
    seen: HashMap<[u16; 81], bool>,
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
            conj: Box::new([[CellSet::EMPTY; 81]; 9]),
            index: vec![NOT_YET; 729],
            sets: Vec::new(),
            queue: Vec::new(),
        }
    }
}

thread_local! {
    /// The thread's buffers, lent to one caller at a time.
    static SPARE: Cell<Option<Box<(Closures, Verdicts)>>> = const { Cell::new(None) };
}

/// Whether SE's Forcing Chains & Cycles on the chain's working grid `g.now` may give a hint resting on the chain's
/// eliminations (see the module's comment): false proves none does.
pub(super) fn may_rest(g: &Grids) -> bool {
    let mut c = SPARE.with(|s| s.take()).unwrap_or_default();
    let (closures, verdicts) = &mut *c;
    let out = verdicts.of(g, || closures.may_rest(g));
    SPARE.with(|s| s.set(Some(c)));
    out
}

impl Closures {
    fn may_rest(&mut self, g: &Grids) -> bool {
        let w = g.now;
        conjugates(w, &mut self.conj);
        self.index.fill(NOT_YET);
        self.sets.clear();
        // The cells that lost candidates, and the houses where a digit lost places.
        for cell in 0..81 {
            let m = w.mask[cell];
            if g.source.mask[cell] & !m != 0 && count9(m) >= 2 {
                let digits = (0..9).filter(|&d| m >> d & 1 != 0);
                if self.offs_meet(w, digits.map(|d| (cell, d))) {
                    return true;
                }
            }
        }
        for di in 0..9 {
            let lost = g.source.places[di] & !w.places[di];
            if lost.is_empty() {
                continue;
            }
            for h in 0..27 {
                let hc = cells_of(House(h));
                let here = w.places[di] & hc;
                if !(lost & hc).is_empty()
                    && here.len() >= 2
                    && self.offs_meet(w, here.iter().map(|x| (x, di)))
                {
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
            // `x` off, and what the potentials it turns on lead to.
            let mut offs = [CellSet::EMPTY; 9];
            offs[di].insert(x);
            let partner = (count9(w.mask[x]) == 2)
                .then(|| ((w.mask[x] & !(1 << di)).trailing_zeros() as usize, x));
            let conj = self.conj[di][x];
            for (e, cell) in partner.into_iter().chain(conj.iter().map(|o| (di, o))) {
                let i = self.of(w, (cell, e));
                for (o, f) in offs.iter_mut().zip(&self.sets[i].off) {
                    *o |= *f;
                }
            }
            for (m, o) in met.iter_mut().zip(&offs) {
                if !(*m & *o).is_empty() {
                    return true;
                }
                *m |= *o;
            }
        }
        false
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
            index,
            sets,
            queue,
        } = self;
        let mut f = Closure {
            on: [CellSet::EMPTY; 9],
            off: [CellSet::EMPTY; 9],
        };
        f.on[di].insert(cell);
        queue.clear();
        queue.push((cell as u8, di as u8));
        // Turns on the potentials of `x` off not on yet, and queues them.
        let on_from_off = |f: &mut Closure, queue: &mut Vec<(u8, u8)>, x: usize, d: usize| {
            let mut turn = |e: usize, cells: CellSet| {
                let fresh = cells.0 & !f.on[e].0;
                if fresh != 0 {
                    f.on[e].0 |= fresh;
                    queue.extend(CellSet(fresh).iter().map(|y| (y as u8, e as u8)));
                }
            };
            turn(d, conj[d][x]);
            let m = w.mask[x];
            if count9(m) == 2 {
                turn(
                    (m & !(1 << d)).trailing_zeros() as usize,
                    CellSet::single(x),
                );
            }
        };
        let mut next = 0;
        while let Some(&(at, i)) = queue.get(next) {
            next += 1;
            let (at, i) = (at as usize, i as usize);
            let known = index[at * 9 + i];
            if known != NOT_YET {
                let g = sets[known as usize];
                for d in 0..9 {
                    f.on[d] |= g.on[d];
                    f.off[d] |= g.off[d];
                }
                continue;
            }
            let fresh = w.places[i] & PEERS[at] & !f.off[i];
            f.off[i] |= fresh;
            for x in fresh.iter() {
                on_from_off(&mut f, queue, x, i);
            }
            let mut others = w.mask[at] & !(1 << i);
            while others != 0 {
                let e = others.trailing_zeros() as usize;
                others &= others - 1;
                if !f.off[e].contains(at) {
                    f.off[e].insert(at);
                    on_from_off(&mut f, queue, at, e);
                }
            }
        }
        index[k] = sets.len() as u16;
        sets.push(f);
        sets.len() - 1
    }
}
