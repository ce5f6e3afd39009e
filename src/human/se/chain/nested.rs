//! SE's advanced implications of a dynamic chain at nesting levels 2 to 4: the hints of a whole producer found on
//! the chain's working grid, when the techniques of level 1 ([`super::advanced`]) find nothing there.
//!
//! At nesting level 2 (SE's "(+ Forcing Chains)") SE's Forcing Chains & Cycles producer comes fifth, asked when
//! the four of level 1 find nothing: all its hints on the working grid, sorted as SE sorts them and without
//! repeats (same eliminations), each resting on the chain's eliminations its links needed. At nesting level 3
//! ("(+ Multiple Forcing Chains)") SE's Multiple Forcing Chains come sixth, asked when the five above find nothing,
//! taken the same way ([`super::multiple`]). Their hints depend on the working grid alone and the chains meet
//! the same grids again and again, so the process remembers those of the grids met lately ([`memo`]).
//!
//! At nesting level 4 ("(+ Dynamic Forcing Chains)", [`find_dynamic`]) the four techniques of level 1 come first;
//! when they find nothing, SE's level 4 replaces the static forcing chains of levels 2 and 3 by a whole dynamic
//! forcing chains producer of its own nesting level (0 to 3, SE's `nestingLimit`) run on the working grid: all its
//! hints, in its sorted order without repeats, each resting on the chain's eliminations its chains' links needed,
//! as at levels 2 and 3. That producer is the dynamic chains' own ([`super::chaining::nested_hints`]), handed in
//! by its caller.

use super::advanced::{self, gone_keys, gone_places, Grids, Offs, Since};
use super::closure::{self, Changed};
use super::hint::NestedHint;
use super::kind::Kind;
use super::memo::{self, Producer};
use super::multiple_rest;
use super::potential::{key, NAKED, REGION};
use super::working::Working;
use crate::human::candidates::Candidates;
use crate::human::house::{CellSet, DigitSet};
use crate::human::se::{cells_of, count9, house_of};

/// SE's advanced "off" potentials at nesting level `level` (1 to 3): those of the first technique with any.
/// `since` tells where level 1's techniques may find hints on this chain ([`advanced::Since`]).
pub(super) fn find(g: &Grids, out: &mut Offs, level: u8, since: &mut Since) {
    find_above(g, out, level, 0, since);
}

/// [`find`], where the techniques of nesting levels up to `known` (0 to 2) are known to find nothing on this
/// working grid (the chain of a producer of that level ended here: [`super::dynamic::Engine::resume`]), so they
/// are not asked again.
pub(super) fn find_above(g: &Grids, out: &mut Offs, level: u8, known: u8, since: &mut Since) {
    let gone = gone_places(g);
    let houses = if known >= 1 {
        out.clear();
        since.ran(4, g.now);
        None
    } else {
        advanced::find(g, &gone, since, out)
    };
    if level >= 2 && out.offs.is_empty() {
        let houses = houses.unwrap_or_else(|| advanced::lost_houses(g, &gone));
        let changed = resting(g, &gone, houses);
        let roots = !changed.is_empty();
        if !(roots || cfg!(debug_assertions)) {
            return;
        }
        // A grid where no hint can rest is not searched ([`closure::may_rest`]).
        if known < 2 {
            let chains = roots && closure::may_rest(g, &changed);
            nested_producer(g, out, g.now, Producer::Chains, chains);
        }
        if level >= 3 && out.offs.is_empty() {
            let multiple = roots && multiple_rest::may_rest(g.now, &changed);
            nested_producer(g, out, g.now, Producer::Multiple, multiple);
        }
    }
}

/// The hints of the nested static `producer` (the chains of level 2 or the multiple forcing chains of level 3)
/// on the working grid `view` ([`memo::hints`] remembers them), taken as [`nested`] takes them. A hint resting on none of
/// the chain's eliminations is dropped there, so where none can (`may_rest` false, from [`resting`]) they are not
/// looked for; debug builds look and check.
fn nested_producer(g: &Grids, out: &mut Offs, view: &Working, producer: Producer, may_rest: bool) {
    let hints_of = match producer {
        Producer::Chains => super::forcing::nested_hints,
        Producer::Multiple => super::multiple::nested_hints,
        Producer::Dynamic(_) => unreachable!("a static producer"),
    };
    if may_rest {
        let hints = memo::hints(producer, &view.mask, || hints_of(view));
        nested(g, out, &hints);
    } else if cfg!(debug_assertions) {
        let before = out.offs.len();
        nested(g, out, &hints_of(view));
        debug_assert_eq!(
            out.offs.len(),
            before,
            "a skipped nested hint rests on the chain's eliminations"
        );
    }
}

/// SE's advanced "off" potentials at nesting level 4: those of the first of level 1's techniques with any, else
/// those of the nested dynamic producer of `kind` on the working grid `working` builds (the same candidates as
/// `g`), remembered as those of levels 2 and 3 are ([`memo::hints`]).
pub(super) fn find_dynamic(
    g: &Grids,
    out: &mut Offs,
    working: impl FnOnce() -> Candidates,
    kind: Kind,
    hints_of: impl FnOnce(&Candidates, Kind) -> Vec<NestedHint>,
    since: &mut Since,
) {
    find(g, out, 1, since);
    if out.offs.is_empty() {
        let w = working();
        // The whole grid: the open cells' candidates, and the placed cells' values (bit 15 set).
        let mut grid: [u16; 81] = std::array::from_fn(|cell| w.get(cell).0);
        for d in 1..=9u8 {
            for cell in w.placed(d).iter() {
                grid[cell] = 1 << 15 | u16::from(d);
            }
        }
        let hints = memo::hints(Producer::Dynamic(kind), &grid, || hints_of(&w, kind));
        nested(g, out, &hints);
    }
}

/// The hints of a nested producer on the working grid (SE's `Chaining(false, false, false, 0)`, Forcing Chains
/// & Cycles, from level 2; `Chaining(true, false, false, 0)`, Multiple Forcing Chains, from level 3;
/// `Chaining(true, true, false, n)`, Dynamic Forcing Chains of nesting level `n`, at level 4), in SE's order,
/// each resting on the candidates the chain removed that its links needed (SE's
/// `ChainingHint.getRuleParents`: for an "on" potential implied in a cell, the cell's removed candidates; in a
/// house, the digit's removed places in that house).
fn nested(g: &Grids, out: &mut Offs, hints: &[NestedHint]) {
    let mut parents = std::mem::take(&mut out.scratch.parents);
    for h in hints {
        rule_parents(g, h, &mut parents);
        if parents.is_empty() {
            continue;
        }
        let id = out.chains.len() as u32;
        out.chains.push((h.complexity, h.identity.clone()));
        out.push(&h.removes, &parents, id);
    }
    out.scratch.parents = parents;
}

/// The chain's eliminations the hint `h` rests on (SE's `getRuleParents`, see [`nested`]), in `parents`, each once.
pub(super) fn rule_parents(g: &Grids, h: &NestedHint, parents: &mut Vec<u16>) {
    parents.clear();
    for &(cell, digit, cause) in &h.causes {
        let c = cell as usize;
        let mut add = |k: u16| {
            if !parents.contains(&k) {
                parents.push(k);
            }
        };
        if cause == NAKED {
            // The cell's removed candidates, digits ascending.
            for d in DigitSet(g.source.mask[c] & !g.now.mask[c]).iter() {
                add(key(cell, d) as u16);
            }
        } else {
            // The digit's removed places in the house, cells ascending.
            let t = (cause - REGION) as usize;
            gone_keys(g, cells_of(house_of(t, c)), digit).for_each(add);
        }
    }
}

/// Where a nested producer's "on" potential could rest on some of the chain's eliminations (`gone`, from
/// [`gone_places`]), as [`nested`] reads its cause: a cell of two or more candidates that lost some (the cell's
/// removed candidates), or a digit of two or more places in a house that lost some there (the digit's removed
/// places in it). A Multiple Forcing Chain's assumptions rest on those of their cell (three or more left) or of
/// their house ([`super::multiple::nested_hints`]), and so may a static chain's "on" potentials: those of a
/// forcing chain come through a strong link (two left), but those of a cycle's second chain (the cycle reversed)
/// carry the causes of its links from "on" to "off", in a cell or house where two or more are left (see
/// [`closure`]). Without any such cell or house no hint of either producer rests on the chain's eliminations.
/// They are the groups [`closure::may_rest`] looks at; `houses` are those of the digits, as
/// [`advanced::find`] gives them.
pub(super) fn resting(g: &Grids, gone: &[CellSet; 9], houses: [u32; 9]) -> Changed {
    let lost = gone.iter().fold(CellSet::EMPTY, |s, &c| s | c);
    let cells = lost
        .iter()
        .filter(|&cell| count9(g.now.mask[cell]) >= 2)
        .fold(CellSet::EMPTY, |s, cell| s | CellSet::single(cell));
    Changed { cells, houses }
}

#[cfg(test)]
mod tests {
    use super::super::samples::{hard_puzzle, Xorshift};
    use super::*;
    use crate::grid::Grid;
    use crate::human::house::{DigitSet, House};

    /// `w` less about one candidate in `rate` at random, and one of the solution's in `wrong` (a cell keeps one
    /// at least).
    fn thinned(
        mut w: Working,
        solution: &Grid,
        (rate, wrong): (u64, u64),
        random: &mut Xorshift,
    ) -> Working {
        for cell in 0..81 {
            for d in DigitSet(w.mask[cell]).iter() {
                let r = if solution.get(cell) == d { wrong } else { rate };
                if random.next() % r == 0 && count9(w.mask[cell]) > 1 {
                    w.remove(cell, d);
                }
            }
        }
        w
    }

    #[test]
    fn a_grid_the_closures_rule_out_gives_no_resting_forcing_chain_or_cycle() {
        // Working grids as chains leave them: the candidates of hard puzzles, thinned at random (where a chain
        // starts), then thinned again (what the chain removed); the producer's hints that rest on what the second
        // thinning removed, against the closures' verdict.
        let (mut skipped, mut resting) = (0, 0);
        for (i, (source, now)) in chain_grids(1200, 0x2545_F491_4F6C_DD1D).iter().enumerate() {
            let open = (0..81)
                .filter(|&c| now.mask[c] != 0)
                .fold(CellSet::EMPTY, |s, c| s | CellSet::single(c));
            let g = Grids {
                now,
                source,
                open,
                placed: &[0; 9],
            };
            let mut parents = Vec::new();
            let rest = super::super::forcing::nested_hints(now)
                .iter()
                .filter(|h| {
                    rule_parents(&g, h, &mut parents);
                    !parents.is_empty()
                })
                .count();
            let changed = super::resting(
                &g,
                &gone_places(&g),
                advanced::lost_houses(&g, &gone_places(&g)),
            );
            let may = closure::may_rest(&g, &changed);
            assert!(may || rest == 0, "grid {i}: a resting hint ruled out");
            // The verdicts remembered for one starting grid: its own (nothing removed), then the thinned one's
            // again; and the thinned grid from itself (nothing removed either).
            let ask = |g: &Grids| {
                closure::may_rest(
                    g,
                    &super::resting(
                        g,
                        &gone_places(g),
                        advanced::lost_houses(g, &gone_places(g)),
                    ),
                )
            };
            let unchanged = Grids { now: source, ..g };
            assert!(!ask(&unchanged), "grid {i}: from itself");
            assert_eq!(ask(&g), may, "grid {i}: asked again");
            assert!(!ask(&unchanged), "grid {i}: from itself again");
            let itself = Grids { source: now, ..g };
            assert!(!ask(&itself), "grid {i}: the thinned grid from itself");
            // Nor by the gate before it (a changed cell or house with two or more left).
            assert!(
                !changed.is_empty() || rest == 0,
                "grid {i}: a resting hint gated out"
            );
            skipped += usize::from(!may);
            resting += usize::from(rest > 0);
        }
        // Both verdicts were met, many times.
        assert!(skipped > 100 && resting > 100, "{skipped} {resting}");
    }

    /// `n` working grids as chains leave them, each with the grid its chain started from: the candidates of hard
    /// puzzles thinned at random, then thinned again.
    fn chain_grids(n: usize, seed: u64) -> Vec<(Working, Working)> {
        let mut random = Xorshift::new(seed);
        (0..n)
            .map(|i| {
                let (grid, solution) = hard_puzzle(i);
                let start = Working::of(&Candidates::new(&grid).unwrap());
                let source = thinned(start, &solution, (6 + i as u64 % 25, u64::MAX), &mut random);
                let now = thinned(
                    source,
                    &solution,
                    (20 + i as u64 * 7 % 180, [u64::MAX, 400, 100, 40][i % 4]),
                    &mut random,
                );
                (source, now)
            })
            .collect()
    }

    #[test]
    fn rule_parents_are_the_removed_candidates_their_causes_read() {
        // Every cause a hint may carry (each candidate's cell, and its place in each of its houses) on thinned
        // grids, against SE's rule read candidate by candidate.
        let mut met = 0;
        for (source, now) in chain_grids(200, 0x2545_F491_4F6C_DD1D).iter() {
            let g = Grids::of_candidates(source, now);
            let mut parents = Vec::new();
            for cell in 0..81u8 {
                for d in DigitSet(now.mask[cell as usize]).iter() {
                    for cause in [NAKED, REGION, REGION + 1, REGION + 2] {
                        let hint = NestedHint {
                            complexity: 0,
                            removes: Vec::new(),
                            causes: vec![(cell, d, cause), (cell, d, NAKED)],
                            identity: Vec::new(),
                        };
                        rule_parents(&g, &hint, &mut parents);
                        let mut want: Vec<u16> = Vec::new();
                        for &(cell, digit, cause) in &hint.causes {
                            let c = cell as usize;
                            let keys: Vec<u16> = if cause == NAKED {
                                (1..=9u8)
                                    .filter(|&d| advanced::gone(&g, c, d))
                                    .map(|d| key(cell, d) as u16)
                                    .collect()
                            } else {
                                let hc = cells_of(house_of((cause - REGION) as usize, c));
                                hc.iter()
                                    .filter(|&x| advanced::gone(&g, x, digit))
                                    .map(|x| key(x as u8, digit) as u16)
                                    .collect()
                            };
                            for k in keys {
                                if !want.contains(&k) {
                                    want.push(k);
                                }
                            }
                        }
                        assert_eq!(parents, want, "{cell} {d} {cause}");
                        met += usize::from(!want.is_empty());
                    }
                }
            }
        }
        assert!(met > 1000, "{met}");
    }

    #[test]
    fn the_gate_gives_the_verdict_of_its_definition_on_the_changed_groups() {
        let (mut rests, mut not) = (0, 0);
        for (i, (source, now)) in chain_grids(400, 0x9E37_79B9_7F4A_7C15).iter().enumerate() {
            let g = Grids::of_candidates(source, now);
            // The groups, scanned cell by cell and house by house.
            let mut want = Changed::default();
            for cell in 0..81 {
                if source.mask[cell] & !now.mask[cell] != 0 && count9(now.mask[cell]) >= 2 {
                    want.cells.insert(cell);
                }
            }
            for d in 0..9 {
                let lost = source.places[d] & !now.places[d];
                for h in 0..27u8 {
                    let hc = cells_of(House(h));
                    if !(lost & hc).is_empty() && (now.places[d] & hc).len() >= 2 {
                        want.houses[d] |= 1 << h;
                    }
                }
            }
            let gone = gone_places(&g);
            let changed = resting(&g, &gone, advanced::lost_houses(&g, &gone));
            assert_eq!(changed, want, "grid {i}");
            let may = closure::may_rest(&g, &changed);
            assert_eq!(may, closure::by_definition(now, &changed), "grid {i}");
            rests += usize::from(may);
            not += usize::from(!may);
        }
        assert!(rests > 50 && not > 50, "{rests} {not}");
    }
}
