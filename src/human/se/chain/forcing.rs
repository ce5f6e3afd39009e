//! SE's Forcing Chains & Cycles (the classic producer, no multiple or dynamic chains): bidirectional X-, Y- and
//! XY-cycles (6.5, XY 7.0) and forcing X- and XY-chains (6.6, XY 7.0), each plus SE's length increment.
//!
//! SE grows the implications of one assumption breadth first (on to off: the cell's other digits (Y links) and the
//! digit's other places in the cell's box, row, column; off to on: the cell's last other digit (Y) and the digit's
//! last other place in a box, row or column (X)), collects every hint of the three passes (X, then Y, then XY;
//! cells and digits ascending; cycles before chains; the chain from "on" before the one from "off"), sorts them
//! stably by rating (as Java doubles), then chain size, then kind, and applies the first. A search that provably
//! finds nothing (what its source's links can reach says so, see [`reach`]) is not run. As a nested producer
//! (every hint, no proofs), the X pass, whose hints keep to one digit, is read digit by digit from the lists of
//! the places met lately ([`XPass`]): the working grids of the dynamic chains mostly differ in a few digits.

use std::ops::Range;

use super::conclusion::{chain_hint, cycle_hint, Hint};
use super::hint::{first, sort, NestedHint};
use super::links::{Search, NO_CELL};
use super::potential::{key, Node, NAKED, NONE, NO_CAUSE, REGION};

use super::reach::Reach;
use super::set::Set729;
use super::working::Working;
use crate::human::candidates::Candidates;
use crate::human::house::{CellSet, DigitSet, PEERS};
use crate::human::se::{cells_of, count9, house_of, SeStep, SeTechnique, Tenths};
use crate::human::step::Eliminations;

/// The searches of a forcing chain or cycle: SE's `doCycles` and `doForcingChains` on [`Search`]'s links.
impl Search<'_> {
    /// SE's `doCycles` from the "on" potential `source`: the "on" potentials equal to it reached again after four
    /// links or more. Only an "off" potential that turns the source on can close a cycle: a source with none (a
    /// cell not bivalue for the Y links, a digit with no other single place in a house for the X links) has no
    /// cycle, and is not searched. An "off" potential with no link to an "on" one by the pass's links (the cell
    /// bivalue with `y`, an X link with `x`) implies nothing: it is marked followed, and left out of `nodes`.
    fn cycles(&mut self, source: u32, y: bool, x: bool, within: Option<&Reach>) -> Vec<u32> {
        let src = self.nodes[source as usize];
        let mut found = Vec::new();
        let closable = (y && count9(self.c.get(src.cell as usize).0) == 2)
            || (x && self.last[key(src.cell, src.digit)] != [NO_CELL; 3]);
        if !closable {
            return found;
        }
        let mut to_on = Set729::default();
        let src_key = key(src.cell, src.digit);
        to_on.insert(src_key);
        // A round follows the pending "on" potentials, then the "off" potentials they implied that are
        // followed: those the round added to `nodes`, in the order met.
        let (mut pending_on, mut next_on, mut buf) = std::mem::take(&mut self.scratch);
        let mut followed = Set729::default();
        let closing = self.last[src_key];
        let live = self.live(y, x);
        pending_on.clear();
        pending_on.push(source);
        let mut length = 0;
        while !pending_on.is_empty() {
            length += 1;
            let offs = self.nodes.len();
            for &p in &pending_on {
                // An "off" potential that is an ancestor of `p` is not implied again (SE's `isParent`). One met
                // already turns on nothing new (what it turned on is met, or left out by `within` again) but the
                // source, through a link that turns the source on (from one of the source cell's other digits,
                // or the source digit's last other place in a house): the others are left out.
                let ancestors = self.off_ancestors(p);
                self.on_to_off(p, y, &mut buf, |_, qn| {
                    let k = key(qn.cell, qn.digit);
                    if ancestors.contains(k) {
                        return false;
                    }
                    let closes = qn.cell == src.cell
                        || (qn.digit == src.digit && closing.contains(&qn.cell));
                    if followed.contains(k) && !closes {
                        return false;
                    }
                    followed.insert(k);
                    // One with no link to an "on" potential implies nothing: it is not added.
                    let di = qn.digit as usize - 1;
                    live[di].contains(qn.cell as usize)
                });
            }
            length += 1;
            next_on.clear();
            for p in offs..self.nodes.len() {
                // Only a potential equal to the source, or new and in the source's component, is of use.
                let keep = |_: &Search, qn: &Node| {
                    let k = key(qn.cell, qn.digit);
                    (length >= 4 && qn.same(&src))
                        || (!to_on.contains(k) && within.is_none_or(|r| r.together(k, src_key)))
                };
                self.off_to_on(p as u32, y, x, &mut buf, keep);
                for &q in &buf {
                    let qn = self.nodes[q as usize];
                    if length >= 4 && qn.same(&src) {
                        found.push(q);
                    }
                    let k = key(qn.cell, qn.digit);
                    if !to_on.contains(k) {
                        to_on.insert(k);
                        next_on.push(q);
                    }
                }
            }
            std::mem::swap(&mut pending_on, &mut next_on);
        }
        self.scratch = (pending_on, next_on, buf);
        found
    }

    /// Whether a cycle of the pass may come back to "`digit` in `cell` on" (the source) through another "on"
    /// potential of its component in `reach`. The "off" potentials that turn the source on (its closing links:
    /// with Y links, the cell's other digit when it has two; with X links, the digit's last other place in a
    /// house) are all implied by the source itself, first thing, and a cycle closes through one that is not an
    /// ancestor of the potential implying it: the cycle leaves the source through another "off" potential. So
    /// the source needs a potential of its component (not itself) one link pair away through some "off"
    /// potential, and a closing link, other than that one when it is the only such, implied by a potential of its
    /// component (not itself). Without them [`Search::cycles`] finds nothing.
    fn may_close(&self, cell: usize, digit: u8, (y, x): (bool, bool), reach: &Reach) -> bool {
        let source = key(cell as u8, digit);
        let mask = |c: usize| self.c.get(c);
        let other = |c: usize, d: u8| {
            let mut m = mask(c);
            m.remove(d);
            m
        };
        let member = |c: usize, d: u8| {
            let k = key(c as u8, d);
            k != source && reach.together(k, source)
        };
        // The "on" potentials an "off" potential turns on by the pass's links: one of the component's (not the
        // source)?
        let turns_on_member = |c: usize, d: u8| {
            (y && count9(mask(c).0) == 2 && other(c, d).iter().any(|e| member(c, e)))
                || (x
                    && self.last[key(c as u8, d)]
                        .iter()
                        .any(|&o| o != NO_CELL && member(o as usize, d)))
        };
        // The source's "off" potentials leading into its component: how many (two is enough), and the last
        // counted (the only one when there is one).
        let (mut exits, mut exit) = (0, (NO_CELL, 0));
        let mut count = |c: usize, d: u8| {
            if exits < 2 && turns_on_member(c, d) {
                exits += 1;
                exit = (c as u8, d);
            }
        };
        if y {
            other(cell, digit).iter().for_each(|e| count(cell, e));
        }
        (self.c.places(digit) & PEERS[cell])
            .iter()
            .for_each(|c| count(c, digit));
        if exits == 0 {
            return false;
        }
        // A closing link, not the only exit, implied by a potential of the component (not the source): by the
        // cell's other digits (Y links) or the digit's other places among its peers.
        let implied_by_member = |c: usize, d: u8| {
            (exits > 1 || exit != (c as u8, d))
                && ((y && other(c, d).iter().any(|e| member(c, e)))
                    || (self.c.places(d) & PEERS[c]).iter().any(|o| member(o, d)))
        };
        let partner = if y { self.partner(cell, digit) } else { None };
        partner.is_some_and(|e| implied_by_member(cell, e))
            || (x
                && self.last[source]
                    .iter()
                    .any(|&o| o != NO_CELL && implied_by_member(o as usize, digit)))
    }

    /// SE's `doForcingChains` from `source` (on or off): the first potential reached that contradicts it. The
    /// potentials met are held digit by digit as cell sets, so a house's places not met yet come in one step; the
    /// search ends at the first contradiction (what it would meet after is not asked for). The search goes by
    /// rounds: the "on" potentials pending, then the "off" ones. A round of one state turns up potentials of the
    /// other state alone, pending for the next, and the source is the only potential pending at first, so the
    /// potentials pending are always those `nodes` gained in the round before (the source at first), in the order
    /// met: each round follows that range ([`Search::forcing_from_on`], [`Search::forcing_from_off`]).
    ///
    /// An "off" potential with no link to an "on" one (its cell not bivalue with `y`, no X link) implies nothing:
    /// but for the source's conjugate, it is marked met and left out of `nodes` (what the search returns, a
    /// potential and its ancestors, stays the same).
    fn forcing_chain(&mut self, source: u32, y: bool) -> Option<u32> {
        let src = self.nodes[source as usize];
        let mut live = self.live(y, true);
        if src.on {
            live[src.digit as usize - 1].insert(src.cell as usize);
        }
        self.forcing_chain_among(source, y, live)
    }

    /// [`Search::forcing_chain`] with the "off" potentials added to `nodes` those of `live` (by digit index), the
    /// others marked met only.
    fn forcing_chain_among(&mut self, source: u32, y: bool, live: [CellSet; 9]) -> Option<u32> {
        let src = self.nodes[source as usize];
        let mut f = Forcing {
            src,
            to_on: [CellSet::EMPTY; 9],
            to_off: [CellSet::EMPTY; 9],
            live,
        };
        let sd = src.digit as usize - 1;
        if src.on {
            f.to_on[sd].insert(src.cell as usize);
        } else {
            f.to_off[sd].insert(src.cell as usize);
        }
        let mut pending = source as usize..source as usize + 1;
        loop {
            if pending.is_empty() {
                return None;
            }
            let met = self.nodes.len();
            let q = if self.nodes[pending.start].on {
                self.forcing_from_on(&mut f, y, pending)
            } else {
                self.forcing_from_off(&mut f, y, pending)
            };
            if q.is_some() {
                return q;
            }
            pending = met..self.nodes.len();
        }
    }

    /// Follows the pending "on" potentials of `f` (the nodes of `pending`) to the "off" potentials they imply not
    /// met yet (with `y`, the cell's other digits; the digit's other places in the cell's box, row, column), added
    /// to `nodes` when live: the first that contradicts the source, if any (the rest of the round is then left).
    #[inline]
    fn forcing_from_on(&mut self, f: &mut Forcing, y: bool, pending: Range<usize>) -> Option<u32> {
        for p in pending {
            let n = self.nodes[p];
            let p = p as u32;
            let cell = n.cell as usize;
            let implied =
                |cell: usize, digit: u8, cause: u8| Node::implied(p, cell, digit, false, cause);
            if y {
                for d in self.c.get(cell).iter().filter(|&d| d != n.digit) {
                    let di = d as usize - 1;
                    if !f.to_off[di].contains(cell) {
                        f.to_off[di].insert(cell);
                        if !f.live[di].contains(cell) {
                            continue;
                        }
                        let q = self.meet(f.src, implied(cell, d, NAKED));
                        if q.is_some() {
                            return q;
                        }
                    }
                }
            }
            let di = n.digit as usize - 1;
            let mut added = CellSet::single(cell);
            for t in 0..3 {
                let places = self.c.places(n.digit) & cells_of(house_of(t, cell)) & !added;
                added |= places;
                let fresh = places & !f.to_off[di];
                f.to_off[di] |= fresh;
                for x in (fresh & f.live[di]).iter() {
                    let implied = implied(x, n.digit, REGION + t as u8);
                    let q = self.meet(f.src, implied);
                    if q.is_some() {
                        return q;
                    }
                }
            }
        }
        None
    }

    /// Follows the pending "off" potentials of `f` (the nodes of `pending`) to the "on" potentials they imply not
    /// met yet (with `y`, a bivalue cell's other digit; the digit's last other place in a box, row, column), added
    /// to `nodes`: the first that contradicts the source, if any (the rest of the round is then left).
    #[inline]
    fn forcing_from_off(&mut self, f: &mut Forcing, y: bool, pending: Range<usize>) -> Option<u32> {
        for p in pending {
            let n = self.nodes[p];
            let p = p as u32;
            let cell = n.cell as usize;
            let implied =
                |cell: usize, digit: u8, cause: u8| Node::implied(p, cell, digit, true, cause);
            if y {
                if let Some(d) = self.partner(cell, n.digit) {
                    if !f.to_on[d as usize - 1].contains(cell) {
                        f.to_on[d as usize - 1].insert(cell);
                        let q = self.meet(f.src, implied(cell, d, NAKED));
                        if q.is_some() {
                            return q;
                        }
                    }
                }
            }
            let di = n.digit as usize - 1;
            let last = self.last[key(n.cell, n.digit)];
            for (t, &o) in last.iter().enumerate() {
                if o != NO_CELL && !f.to_on[di].contains(o as usize) {
                    f.to_on[di].insert(o as usize);
                    let implied = implied(o as usize, n.digit, REGION + t as u8);
                    let q = self.meet(f.src, implied);
                    if q.is_some() {
                        return q;
                    }
                }
            }
        }
        None
    }

    /// Adds the potential `n`, new to a forcing chain from `src`, to `nodes`: its index when it contradicts the
    /// source (the source's conjugate).
    #[inline]
    fn meet(&mut self, src: Node, n: Node) -> Option<u32> {
        self.nodes.push(n);
        (n.on != src.on && n.cell == src.cell && n.digit == src.digit)
            .then(|| (self.nodes.len() - 1) as u32)
    }
}

/// The state of a forcing chain's search from `src` ([`Search::forcing_chain`]): the potentials met, "on" and
/// "off", digit by digit as cell sets, and the "off" potentials added to `nodes` when met.
struct Forcing {
    src: Node,
    to_on: [CellSet; 9],
    to_off: [CellSet; 9],
    live: [CellSet; 9],
}

/// Every hint of the three passes, in SE's order; `all` keeps the XY pass and records each hint's detail; each
/// hint carries its chain when `prove`.
fn collect(c: &Working, all: bool, prove: bool) -> Vec<Hint> {
    Reach::with(|reach| collect_with(c, all, prove, reach))
}

/// [`collect`] with the thread's reachability buffers. Every hint of the X pass keeps to one digit and depends on
/// that digit's places alone (but the "on" targets' eliminations, the source cell's other candidates): when all
/// hints are asked for without proofs (a nested producer), that pass is taken digit by digit from [`XPass`].
fn collect_with(c: &Working, all: bool, prove: bool, reach: &mut Reach) -> Vec<Hint> {
    let mut hints: Vec<Hint> = Vec::new();
    let mut s = Search::new(c);
    reach.prepare(&s);
    for (y, x) in [(false, true), (true, false), (true, true)] {
        // Every XY hint rates 7.0 or more: when the X and Y passes found a hint rated less, the XY pass cannot
        // give the first hint of SE's sorted list, so it is skipped (same answer, less work).
        if !all && y && x && hints.iter().any(|h| h.rating < 7.0) {
            break;
        }
        if all && !prove && !y {
            XPass::hints(&mut s, reach, &mut hints);
            continue;
        }
        reach.build(&s, y, x);
        for cell in 0..81 {
            let cand = c.get(cell);
            let n = count9(cand.0);
            if n < 2 || (!x && n > 2) {
                continue;
            }
            for d in cand.iter() {
                source_hints(
                    &mut s,
                    reach,
                    (cell, d),
                    (y, x),
                    (all, prove, false),
                    &mut hints,
                );
            }
        }
    }
    hints
}

/// The hints of the pass with Y links when `y` and X links when `x` from `digit` in `cell` ([`Reach::build`] was
/// called for the pass), in SE's order: its cycles, then the forcing chain from "on", then from "off".
/// `(all, prove, raw)`: with details, with proofs, and keeping a placement that removes nothing (see [`XPass`]).
#[inline]
fn source_hints(
    s: &mut Search,
    reach: &Reach,
    (cell, d): (usize, u8),
    (y, x): (bool, bool),
    flags: (bool, bool, bool),
    hints: &mut Vec<Hint>,
) {
    // The searches `reach` proves fruitless are skipped (checked in debug builds): a source with none left is
    // not set up.
    let may = (
        reach.may_cycle(cell, d),
        x && reach.may_refute_on(s, y, cell, d),
        x && reach.may_refute_off(s, y, cell, d),
    );
    if may != (false, false, false) || cfg!(debug_assertions) {
        searched_hints(s, reach, (cell, d), (y, x), flags, may, hints);
    }
}

/// [`source_hints`] once `reach` has said which searches may find anything: `(cycle, on, off)`, whether the
/// source's component holds another potential and whether the forcing chains from "on" and from "off" may meet
/// their conjugate.
fn searched_hints(
    s: &mut Search,
    reach: &Reach,
    (cell, d): (usize, u8),
    (y, x): (bool, bool),
    (all, prove, raw): (bool, bool, bool),
    (may_cycle, may_on, may_off): (bool, bool, bool),
    hints: &mut Vec<Hint>,
) {
    let sort_key = match (y, x) {
        (true, true) => 4,
        (true, false) => 3,
        _ => 2,
    };
    s.nodes.clear();
    let on = s.push(cell as u8, d, true, NO_CAUSE, NONE);
    let cycles = if may_cycle && s.may_close(cell, d, (y, x), reach) {
        s.cycles(on, y, x, Some(reach))
    } else {
        Vec::new()
    };
    #[cfg(debug_assertions)]
    {
        // The same cycles through the same potentials as the search of every potential.
        let plain = s.cycles(on, y, x, None);
        let a: Vec<_> = cycles.iter().map(|&p| path(s, p)).collect();
        let b: Vec<_> = plain.iter().map(|&p| path(s, p)).collect();
        assert!(a == b, "pruned cycles differ");
    }
    for dst in cycles {
        if let Some(h) = cycle_hint(s, dst, y, x, sort_key, (all, prove)) {
            hints.push(h);
        }
    }
    if !x {
        return;
    }
    let keep = |h: Hint| (raw || !h.eliminations.is_empty()).then_some(h);
    if may_on {
        if let Some(t) = s.forcing_chain(on, y) {
            hints.extend(keep(chain_hint(s, t, y, sort_key, (all, prove))));
        }
    } else {
        debug_assert!(s.forcing_chain(on, y).is_none());
    }
    let off = s.push(cell as u8, d, false, NO_CAUSE, NONE);
    if may_off {
        if let Some(t) = s.forcing_chain(off, y) {
            hints.extend(keep(chain_hint(s, t, y, sort_key, (all, prove))));
        }
    } else {
        debug_assert!(s.forcing_chain(off, y).is_none());
    }
}

/// The hints of the X pass (X links only, sort key 2) with their details and no proofs, digit by digit: those of
/// the searches from every place of a digit depend on the digit's places alone (the pass's links and reach keep
/// to one digit), but a placement's eliminations (the source cell's other candidates). The dynamic chains' working
/// grids mostly differ in a few digits, so each thread keeps the lists of the places met lately: every place's
/// hints, a placement's eliminations filled in from the grid it is read on ([`XPass::rebase`]).
struct XPass;

/// The hints of one digit's places: `(source cell, hint)`, cells ascending, each cell's in SE's order.
type DigitHints = std::rc::Rc<[(u8, Hint)]>;

/// The bytes of lists a thread keeps at most, counted by [`list_bytes`] (all are dropped when one more would pass
/// it). Lists change the speed, never a hint.
const X_BYTES: usize = 8 << 20;

/// The thread's lists, by digit index and places, and the bytes counted for them.
#[derive(Default)]
struct Kept {
    lists: std::collections::HashMap<(u8, u128), DigitHints>,
    bytes: usize,
}

thread_local! {
    static X_LISTS_KEPT: std::cell::RefCell<Kept> = std::cell::RefCell::default();
}

/// The bytes counted for keeping `list`: its slice, each detail's lists at their capacity, and its table entry
/// (counted twice over: a table is at least half full, and is kept, emptied, when the lists are dropped).
fn list_bytes(list: &[(u8, Hint)]) -> usize {
    use std::mem::size_of;
    let details: usize = list
        .iter()
        .filter_map(|(_, h)| h.detail.as_ref())
        .map(|d| {
            d.removes.capacity() * size_of::<(u8, DigitSet)>()
                + d.identity.capacity() * size_of::<u16>()
                + d.causes.capacity() * size_of::<(u8, u8, u8)>()
        })
        .sum();
    size_of_val(list) + details + 2 * size_of::<((u8, u128), DigitHints, u64)>()
}

impl XPass {
    /// Appends the X pass's hints on `s`'s grid to `hints`, sources by cell then digit as the pass takes them (a
    /// cell with one candidate is no source); `reach` is built for the pass, for the digits whose lists are
    /// missing only.
    fn hints(s: &mut Search, reach: &mut Reach, hints: &mut Vec<Hint>) {
        let c = s.c;
        let mut kept: [Option<DigitHints>; 9] = std::array::from_fn(|di| {
            X_LISTS_KEPT.with(|m| m.borrow().lists.get(&(di as u8, c.places[di].0)).cloned())
        });
        let missing = (0..9)
            .filter(|&di| kept[di].is_none())
            .fold(0u16, |m, di| m | 1 << di);
        if missing != 0 {
            reach.build_digits(s, false, true, missing);
        }
        let lists: [DigitHints; 9] = std::array::from_fn(|di| {
            let places = c.places[di];
            kept[di].take().unwrap_or_else(|| {
                let list = XPass::digit(s, reach, di as u8 + 1);
                X_LISTS_KEPT.with(|m| {
                    let mut m = m.borrow_mut();
                    let bytes = list_bytes(&list);
                    if m.bytes + bytes > X_BYTES {
                        m.lists.clear();
                        m.bytes = 0;
                    }
                    if bytes <= X_BYTES {
                        m.bytes += bytes;
                        m.lists.insert((di as u8, places.0), list.clone());
                    }
                });
                list
            })
        });
        let mut next = [0usize; 9];
        for cell in 0..81 {
            let cand = c.get(cell);
            if count9(cand.0) < 2 {
                continue;
            }
            for d in cand.iter() {
                let (list, at) = (&lists[d as usize - 1], &mut next[d as usize - 1]);
                // Lists hold every place; skip those of cells that are no source here.
                while *at < list.len() && (list[*at].0 as usize) < cell {
                    *at += 1;
                }
                while *at < list.len() && list[*at].0 as usize == cell {
                    hints.push(XPass::rebase(&list[*at].1, c));
                    *at += 1;
                }
            }
        }
    }

    /// The X pass's hints from every place of `digit` ([`Reach::build`] was called for the pass on `s`).
    fn digit(s: &mut Search, reach: &Reach, digit: u8) -> DigitHints {
        let mut list = Vec::new();
        let mut found = Vec::new();
        for cell in s.c.places(digit).iter() {
            source_hints(
                s,
                reach,
                (cell, digit),
                (false, true),
                (true, false, true),
                &mut found,
            );
            list.extend(found.drain(..).map(|h| (cell as u8, h)));
        }
        list.into()
    }

    /// `h` as read on the grid `c`: a placement removes its cell's other candidates there.
    fn rebase(h: &Hint, c: &Working) -> Hint {
        let mut h = h.clone();
        if let Some((cell, digit)) = h.placement {
            let mut others = c.get(cell);
            others.remove(digit);
            h.eliminations = Eliminations::NONE;
            for d in others.iter() {
                h.eliminations.add(CellSet::single(cell), d);
            }
            if let Some(detail) = &mut h.detail {
                // The clone's own list, reused: one entry, the placement's cell.
                detail.removes.clear();
                detail.removes.push((cell as u8, others));
            }
        }
        h
    }
}

/// SE's Forcing Chains & Cycles producer; the step carries its chain when `prove`.
pub(in crate::human::se) fn find(c: &Candidates, prove: bool) -> Option<SeStep> {
    let hints = collect(&Working::of(c), false, prove);
    let h = first(&hints, |h| (h.rating, h.complexity, h.sort_key))?;
    let mut step = SeStep::of(if h.cycle {
        SeTechnique::BidirectionalCycle
    } else {
        SeTechnique::ForcingChain
    });
    step.pattern.rating = Tenths((h.rating * 10.0).round() as u8);
    step.eliminations = h.eliminations;
    step.placement = h.placement;
    step.pattern.proof = h.proof.clone().map(Box::new);
    Some(step)
}

/// Every hint of SE's Forcing Chains & Cycles producer on `c` as SE's nesting level 2 takes them: sorted stably
/// by rating, complexity and sort key, then a hint removing the same candidates as an earlier one dropped (SE
/// keeps them in a `LinkedHashSet`, its hints equal when their eliminations are).
pub(super) fn nested_hints(c: &Working) -> Vec<NestedHint> {
    let mut hints = collect(c, true, false);
    sort(&mut hints, |h| (h.rating, h.complexity, h.sort_key));
    let mut out: Vec<NestedHint> = Vec::new();
    let mut kept: Vec<Vec<(u8, u16)>> = Vec::new();
    for h in hints {
        let detail = h.detail.expect("collected with details");
        let mut set: Vec<(u8, u16)> = detail.removes.iter().map(|&(c, d)| (c, d.0)).collect();
        set.sort_unstable();
        if kept.contains(&set) {
            continue;
        }
        kept.push(set);
        out.push(NestedHint {
            complexity: h.complexity,
            removes: detail.removes,
            causes: detail.causes,
            identity: detail.identity,
        });
    }
    out
}

/// The potentials from node `q` of `s` back to its search's source, as `(cell, digit, on, cause)`: what tells two
/// cycle searches' results apart.
#[cfg(any(test, debug_assertions))]
fn path(s: &Search, q: u32) -> Vec<(u8, u8, bool, u8)> {
    let mut out = Vec::new();
    let mut i = q;
    while i != NONE {
        let n = s.nodes[i as usize];
        out.push((n.cell, n.digit, n.on, n.cause));
        i = n.parent;
    }
    out
}

#[cfg(test)]
mod tests;
