//! SE's Nishio (7.5), multiple (8.0) and dynamic (8.5) forcing chains, dynamic forcing chains (+) (9.0) and the
//! nested forcing chains "(+ Forcing Chains)" (9.5), "(+ Multiple Forcing Chains)" (10.0) and "(+ Dynamic Forcing
//! Chains)" (10.5), each plus SE's length increment: SE's `Chaining` producer with `isMultiple`/`isDynamic`/
//! `isNishio` and nesting level 0 to 4 ([`Kind`]), the chains themselves grown by [`Engine`].
//!
//! At nesting level 4 a chain with nothing left to follow looks, after the techniques of level 1, for every hint
//! of a whole dynamic producer of nesting level `n` (SE's `nestingLimit`, 0 to 3: SE asks the four producers in
//! turn, the next only when the one before found nothing) on its working grid ([`nested_hints`]: the same hints as
//! that producer would find on a puzzle with those candidates, each with its chains and the "on" potentials'
//! causes, which the nesting chain's rule parents and complexity are read from, as for the static chains of levels
//! 2 and 3).
//!
//! For every open cell (three candidates or more for multiple chains, two or more otherwise), each candidate is
//! assumed on and off and the implications grown ([`Engine::assume`]). SE's hints: contradictions (sort key 7),
//! double implications (1), region reductions (6) and cell reductions (5), sorted stably by rating (Java doubles),
//! chain size (distinct potentials over all parents), sort key; the first is applied. Only that first one is kept
//! by [`find`] (the rating grows with the size, so it is the earliest of least size and sort key), and the size of
//! a hint that cannot come before it is not counted out; [`nested_hints`] keeps them all, with their details (see
//! [`Hints`]).
//!
//! Unlike SE, the chain from "(cell, v) on" is grown once per producer call: the region chainings of the houses
//! where `v` has a place before `cell` need it as well as the cell's own, and a chain's outcome depends only on its
//! start and the grid. It is kept from its first use to its last (counted ahead), which cuts the chains grown by
//! about a third without changing a hint or their order (see [`Memo`]).

use super::continuation::Chains;
use super::dynamic::{Engine, Outcome};
use super::hint::{length_difficulty, sort, NestedHint};
use super::kind::Kind;
use super::linked::LSet;
use super::multiple;
use super::potential::{key, NAKED, NONE, NO_CAUSE, REGION};
use super::proof::{Proof, Shape};
use super::working::Working;
use crate::human::candidates::Candidates;
use crate::human::house::{CellSet, DigitSet};
use crate::human::se::{cells_of, house_of, SeStep, SeTechnique, Tenths};
use crate::human::step::Eliminations;

/// One hint with SE's sort keys.
struct Hint {
    rating: f64,
    complexity: usize,
    sort_key: u8,
    eliminations: Eliminations,
    placement: Option<(usize, u8)>,
    /// Its chains, when proofs are asked for (best only).
    proof: Option<Proof>,
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
    /// Whether the best hint is kept with its proof (read from the potentials when it becomes the best).
    prove: bool,
    /// Reused by [`common_hints`]: the keys every outcome holds, with their nodes in the first.
    common: Vec<(u32, u16)>,
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
        let mut hint = Hint {
            rating: self.base + length_difficulty(complexity),
            complexity,
            sort_key,
            eliminations,
            placement,
            proof: None,
        };
        match &mut self.all {
            None => {
                if self.prove {
                    let shape = match sort_key {
                        7 => Shape::Contradiction,
                        1 => Shape::Double,
                        5 => Shape::Cell,
                        _ => Shape::Region,
                    };
                    let branches = targets.iter().map(|&t| e.branch(t)).collect();
                    hint.proof = Some(Proof { shape, branches });
                }
                self.best = Some(hint)
            }
            Some(all) => {
                let removes = if on { others } else { DigitSet::single(digit) };
                all.push((hint, e.detail((at, removes), complexity, targets, root)));
            }
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
    fn keep(&mut self, ch: &mut Chains, cell: u8, v: u8) {
        let k = key(cell, v);
        if self.kept[k].is_none() {
            self.kept[k] = Some(ch.assume(cell, v, true));
            self.live += 1;
        }
    }

    /// A kept outcome (see [`Memo::keep`]).
    fn get(&self, cell: u8, v: u8) -> &Outcome {
        self.kept[key(cell, v)].as_ref().expect("kept")
    }

    /// One use of "(cell, v) on" done: its outcome is freed when it was the last.
    fn used(&mut self, ch: &mut Chains, cell: u8, v: u8) {
        let k = key(cell, v);
        self.uses[k] -= 1;
        if self.uses[k] == 0 {
            if let Some(o) = self.kept[k].take() {
                self.live -= 1;
                ch.done(cell, v, true, o);
            }
        }
    }

    /// The outcome of "(cell, v) on" for its last use, the cell's own chaining.
    fn take(&mut self, ch: &mut Chains, cell: u8, v: u8) -> Outcome {
        let k = key(cell, v);
        self.uses[k] -= 1;
        debug_assert_eq!(self.uses[k], 0, "the cell's own chaining comes last");
        match self.kept[k].take() {
            Some(o) => {
                self.live -= 1;
                o
            }
            None => ch.assume(cell, v, true),
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

/// SE's producer of `kind`: the first hint of SE's sorted list, with its chains when `prove`.
pub(in crate::human::se) fn find(c: &Candidates, kind: Kind, prove: bool) -> Option<SeStep> {
    // Multiple Forcing Chains find nothing where no group's footprints meet; the chains are grown only elsewhere.
    if kind == Kind::Multiple && !multiple::may_find(&Working::of(c)) {
        return None;
    }
    let h = produce(c, kind, false, prove).best?;
    let mut step = SeStep::of(match kind {
        Kind::Nishio => SeTechnique::NishioForcingChain,
        Kind::Multiple => SeTechnique::MultipleForcingChain,
        Kind::Dynamic => SeTechnique::DynamicForcingChain,
        Kind::DynamicPlus => SeTechnique::DynamicForcingChainPlus,
        Kind::NestedFc => SeTechnique::NestedForcingChain,
        Kind::NestedMfc => SeTechnique::NestedMultipleForcingChain,
        Kind::NestedDfc(_) => SeTechnique::NestedDynamicForcingChain,
    });
    step.pattern.rating = Tenths((h.rating * 10.0).round() as u8);
    step.eliminations = h.eliminations;
    step.placement = h.placement;
    step.pattern.proof = h.proof.map(Box::new);
    Some(step)
}

/// Every hint of the dynamic producer of `kind` on a chain's working grid `c`, as SE's nesting level 4 takes them
/// (its nested `Chaining` producer): sorted stably by rating, complexity and sort key, a hint removing the same
/// candidates as an earlier one dropped (SE's `LinkedHashSet`), each with what the nesting chain needs of it.
pub(super) fn nested_hints(c: &Candidates, kind: Kind) -> Vec<NestedHint> {
    let mut hints = produce(c, kind, true, false).all.expect("all kept");
    sort(&mut hints, |(h, _)| (h.rating, h.complexity, h.sort_key));
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
/// sorted list only (see [`Hints`]), with its proof when `prove`.
fn produce(c: &Candidates, kind: Kind, all: bool, prove: bool) -> Hints<'_> {
    let nishio = kind == Kind::Nishio;
    let mut ch = Chains::new(c, kind, nested_hints);
    let mut memo = Memo::new(c, kind);
    let mut hints = Hints {
        c,
        base: base_rating(kind),
        best: None,
        all: all.then(Vec::new),
        prove,
        common: Vec::new(),
    };
    // The outcomes of the cell at hand's candidates assumed on, kept from candidate to candidate.
    let mut value: Vec<Outcome> = Vec::with_capacity(9);
    for cell in c.open().iter().filter(|&cell| chained(c, kind, cell)) {
        let cand = c.get(cell);
        let card = cand.len();
        // The nodes are dropped when no kept outcome rests on them.
        if memo.live == 0 && ch.may_forget() {
            ch.e.forget();
        }
        let cell8 = cell as u8;
        for v in cand.iter() {
            let on = memo.take(&mut ch, cell8, v);
            // Multiple forcing chains use no chain from a candidate assumed off (SE grows it, and reads nothing).
            if kind != Kind::Multiple {
                let off = ch.assume(cell8, v, false);
                contradictions(&mut ch.e, (cell8, v), [&on, &off], &mut hints);
                if card >= 3 && !nishio {
                    double_implications(&mut ch.e, &on, &off, &mut hints);
                }
                ch.done(cell8, v, false, off);
            }
            if !nishio {
                regions(&mut ch, &mut memo, c, cell, v, &on, &mut hints);
            }
            value.push(on);
        }
        // Cell forcing chains (a chained cell has two candidates or more).
        if !nishio {
            for on in [true, false] {
                let sets = value.iter().map(|o| o.reached(on));
                let (outcomes, n) = refs(sets);
                common_hints(&mut ch.e, &outcomes[..n], on, (5, NAKED), &mut hints);
            }
        }
        for (o, v) in value.drain(..).zip(cand.iter()) {
            ch.done(cell8, v, true, o);
        }
    }
    debug_assert_eq!(memo.live, 0, "every kept outcome used");
    let found = hints.best.is_some() || hints.all.as_ref().is_some_and(|a| !a.is_empty());
    ch.finish(c, found);
    hints
}

/// SE's rating of the hints of the producer of `kind` before the length increment.
fn base_rating(kind: Kind) -> f64 {
    match kind {
        Kind::Nishio => 7.5,
        Kind::Multiple => 8.0,
        Kind::Dynamic => 8.5,
        Kind::DynamicPlus => 9.0,
        Kind::NestedFc => 9.5,
        Kind::NestedMfc => 10.0,
        Kind::NestedDfc(_) => 10.5,
    }
}

/// The contradiction hints (sort key 7) of the outcomes of assuming `digit` in `cell` on, then off: an outcome
/// that met a potential both on and off proves its assumption false (Nishio and dynamic chains).
#[inline]
fn contradictions(
    e: &mut Engine,
    (cell, digit): (u8, u8),
    outcomes: [&Outcome; 2],
    hints: &mut Hints,
) {
    for (o, assumed) in outcomes.into_iter().zip([true, false]) {
        if let Some((a, b)) = o.absurd {
            hints.offer(e, cell, digit, !assumed, &[a, b], (7, NO_CAUSE));
        }
    }
}

/// The double implication hints (sort key 1) of a candidate assumed on (`on`) and off (`off`): what both make
/// true, then what both make false, in the order the "on" assumption met them (dynamic chains, a cell of three
/// candidates or more).
#[inline]
fn double_implications(e: &mut Engine, on: &Outcome, off: &Outcome, hints: &mut Hints) {
    for (from_on, from_off, value) in [
        (&on.to_on, &off.to_on, true),
        (&on.to_off, &off.to_off, false),
    ] {
        common_hints(e, &[from_on, from_off], value, (1, NO_CAUSE), hints);
    }
}

/// A hint for each conclusion every one of `outcomes` reached (a cell's or a region's forcing chains, or a
/// candidate's two assumptions), in the first outcome's order: its complexity is the sum of the outcomes' chains
/// to it. `kind` is the hints' sort key and the cause of their assumptions (a cell's, a region's).
fn common_hints(e: &mut Engine, outcomes: &[&LSet], on: bool, kind: (u8, u8), hints: &mut Hints) {
    let mut common = std::mem::take(&mut hints.common);
    common_keys(outcomes, &mut common);
    // At most nine outcomes: a cell's candidates or a digit's places in a house.
    let mut targets = [NONE; 9];
    let targets = &mut targets[..outcomes.len()];
    for &(_, k) in &common {
        for (t, o) in targets.iter_mut().zip(outcomes) {
            *t = o.idx[k as usize];
        }
        let (tc, td) = ((k / 9) as u8, (k % 9) as u8 + 1);
        hints.offer(e, tc, td, on, targets, kind);
    }
    hints.common = common;
}

/// The keys every one of `outcomes` holds, in the first one's order, each with its node there, in `common`. They
/// are looked for in the smallest outcome, then put in the first one's order, that of their nodes there (a set's
/// nodes are numbered in its order: see [`LSet`]).
fn common_keys(outcomes: &[&LSet], common: &mut Vec<(u32, u16)>) {
    common.clear();
    let smallest = (0..outcomes.len())
        .min_by_key(|&i| outcomes[i].order.len())
        .unwrap_or(0);
    'keys: for &k in &outcomes[smallest].order {
        for o in outcomes {
            if o.idx[k as usize] == NONE {
                continue 'keys;
            }
        }
        common.push((outcomes[0].idx[k as usize], k));
    }
    if smallest != 0 {
        common.sort_unstable();
    }
}

/// The sets of `sets` (nine at most: a cell's candidates or a digit's places in a house) in an array, and how
/// many; the rest of the array is [`NO_SET`]. Per cell and region, without an allocation.
fn refs<'a>(sets: impl Iterator<Item = &'a LSet>) -> ([&'a LSet; 9], usize) {
    let mut out = [&NO_SET; 9];
    let mut n = 0;
    for s in sets {
        out[n] = s;
        n += 1;
    }
    (out, n)
}

/// An empty set, what [`refs`] fills its array with.
static NO_SET: LSet = LSet::EMPTY;

/// SE's `doRegionChainings`: for the box, row and column of `cell` where `v` has two places (or more, multiple
/// chains), when `cell` is the first of them ([`region`]), what every place implies; `on` is the chain from
/// `cell`'s, the others' come from `memo`.
#[allow(clippy::too_many_arguments)]
fn regions(
    ch: &mut Chains,
    memo: &mut Memo,
    c: &Candidates,
    cell: usize,
    v: u8,
    on: &Outcome,
    hints: &mut Hints,
) {
    for t in 0..3 {
        let places = region(c, ch.e.kind, cell, v, t);
        if places.is_empty() {
            continue;
        }
        // `cell` is the first place: its outcomes come first.
        for x in places.iter().skip(1) {
            memo.keep(ch, x as u8, v);
        }
        for value in [true, false] {
            let others = places
                .iter()
                .skip(1)
                .map(|x| memo.get(x as u8, v).reached(value));
            let (all, n) = refs(std::iter::once(on.reached(value)).chain(others));
            common_hints(&mut ch.e, &all[..n], value, (6, REGION + t as u8), hints);
        }
        for x in places.iter().skip(1) {
            memo.used(ch, x as u8, v);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::continuation;
    use super::super::samples::{hard_puzzle, Xorshift};
    use super::*;
    use crate::grid::Grid;
    use crate::human::se::SePath;

    /// The grids of the first steps of hard puzzles' SE paths (before each step), where the dynamic producers of
    /// nesting levels 0 to 2 often find nothing.
    fn path_grids() -> Vec<Candidates> {
        let puzzles = [
            // serate 11.0: two "(+ Multiple Forcing Chains)" steps after a "(+ Forcing Chains)" one.
            "1....6...4....9.3..8.2..6....4.....7.9..2.8..5......1....3...7..3...29....58.....",
            // serate 10.7 at its seventh step ("(+ Forcing Chains)").
            ".......8...6.8.1..7....3..4.47..5...5..32............53....4..7......9...1.9...6.",
        ];
        let mut grids = Vec::new();
        for p in puzzles {
            let p: Grid = p.parse().unwrap();
            let mut path = SePath::new(&p).unwrap();
            for _ in 0..6 {
                grids.push(*path.candidates());
                if path.next().is_none() {
                    break;
                }
            }
        }
        grids
    }

    #[test]
    fn a_producer_continuing_the_chains_of_the_level_below_finds_what_it_finds_afresh() {
        let kinds = [
            Kind::Dynamic,
            Kind::DynamicPlus,
            Kind::NestedFc,
            Kind::NestedMfc,
        ];
        let mut continued = [0; 3];
        for (i, c) in path_grids().iter().enumerate() {
            for (level, pair) in kinds.windows(2).enumerate() {
                continuation::forget();
                let below = nested_hints(c, pair[0]);
                // Continued when the level below found nothing (what it left is this thread's last call).
                let above = nested_hints(c, pair[1]);
                continuation::forget();
                let fresh = nested_hints(c, pair[1]);
                assert_eq!(above, fresh, "grid {i}, level {}", level + 1);
                continued[level] += usize::from(below.is_empty());
            }
        }
        // Every level continued the one below somewhere.
        assert!(continued.iter().all(|&n| n > 0), "{continued:?}");
    }

    /// `n` candidate grids of the hard sample puzzles, thinned at random: each candidate but the solution's goes
    /// with a chance of one in 40 to 439.
    fn thinned_grids(n: usize, seed: u64) -> Vec<Candidates> {
        let mut random = Xorshift::new(seed);
        (0..n)
            .map(|i| {
                let (p, solution) = hard_puzzle(i);
                let mut c = Candidates::new(&p).unwrap();
                let rate = 40 + i as u64 * 7 % 400;
                for cell in c.open().iter() {
                    for d in c.get(cell).iter() {
                        if d != solution.get(cell) && random.next() % rate == 0 {
                            c.eliminate(cell, d);
                        }
                    }
                }
                c
            })
            .collect()
    }

    /// The keys every one of `outcomes` holds, plainly: the first outcome's keys, in its order, that all the
    /// others hold.
    fn common_keys_plain(outcomes: &[&LSet]) -> Vec<(u32, u16)> {
        let all = |k: u16| outcomes.iter().all(|o| o.get(k as usize).is_some());
        let first = outcomes[0];
        first
            .order
            .iter()
            .filter(|&&k| all(k))
            .map(|&k| (first.idx[k as usize], k))
            .collect()
    }

    #[test]
    fn common_keys_are_the_first_outcomes_held_by_all_in_its_order() {
        let (mut compared, mut reordered) = (0, 0);
        let mut common = Vec::new();
        for c in thinned_grids(24, 0x9E37_79B9_7F4A_7C15) {
            for kind in [Kind::Dynamic, Kind::DynamicPlus] {
                continuation::forget();
                let mut ch = Chains::new(&c, kind, nested_hints);
                for cell in c.open().iter().filter(|&cell| c.get(cell).len() >= 2) {
                    let cell8 = cell as u8;
                    let assumed: Vec<(u8, bool)> = c
                        .get(cell)
                        .iter()
                        .flat_map(|v| [(v, true), (v, false)])
                        .collect();
                    let outcomes: Vec<Outcome> = assumed
                        .iter()
                        .map(|&(v, on)| ch.assume(cell8, v, on))
                        .collect();
                    // The cell's "on" outcomes from each one in turn, and each candidate's "on" and "off".
                    let mut groups: Vec<Vec<&LSet>> = Vec::new();
                    for value in [true, false] {
                        let ons: Vec<&LSet> = outcomes
                            .iter()
                            .step_by(2)
                            .map(|o| o.reached(value))
                            .collect();
                        for r in 0..ons.len() {
                            groups.push(ons[r..].iter().chain(&ons[..r]).copied().collect());
                        }
                        groups.extend(
                            outcomes
                                .chunks(2)
                                .map(|p| vec![p[0].reached(value), p[1].reached(value)]),
                        );
                    }
                    for group in &groups {
                        common_keys(group, &mut common);
                        assert_eq!(common, common_keys_plain(group), "cell {cell}");
                        compared += 1;
                        let first = group[0].order.len();
                        reordered += usize::from(
                            common.len() >= 2 && group.iter().any(|o| o.order.len() < first),
                        );
                    }
                    for (&(v, on), o) in assumed.iter().zip(outcomes) {
                        ch.done(cell8, v, on, o);
                    }
                }
                ch.finish(&c, true);
            }
        }
        // The common keys were often found in an outcome other than the first, two or more of them.
        assert!(
            compared > 20_000 && reordered > 1000,
            "{compared} {reordered}"
        );
    }

    #[test]
    fn multiple_forcing_chains_are_skipped_only_where_they_find_nothing() {
        let (mut skipped, mut found) = (0, 0);
        for (i, c) in thinned_grids(300, 0x2545_F491_4F6C_DD1D).iter().enumerate() {
            let may = multiple::may_find(&Working::of(c));
            let hint = produce(c, Kind::Multiple, false, false).best.is_some();
            assert!(may || !hint, "grid {i}: a hint where no footprints meet");
            skipped += usize::from(!may);
            found += usize::from(hint);
        }
        // Both verdicts were met, many times.
        assert!(skipped > 20 && found > 20, "{skipped} {found}");
    }
}
