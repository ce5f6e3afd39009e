//! Forcing Chains & Cycles' shortcuts checked against plain searches on working grids: the reach tests, the cycle
//! searches (against the search that follows every "off" potential, and where no cycle can close), the X pass read
//! digit by digit.

use super::*;
use crate::grid::Grid;

/// What a hint says, proofs aside: its keys, eliminations, placement and detail.
type Said = (
    u64,
    usize,
    u8,
    bool,
    Vec<(usize, u8)>,
    Option<(usize, u8)>,
    Vec<(u8, u16)>,
    Vec<u16>,
    Vec<(u8, u8, u8)>,
);

fn said(h: &Hint) -> Said {
    let detail = h.detail.as_ref().expect("collected with details");
    (
        h.rating.to_bits(),
        h.complexity,
        h.sort_key,
        h.cycle,
        h.eliminations.iter().collect(),
        h.placement,
        detail.removes.iter().map(|&(c, d)| (c, d.0)).collect(),
        detail.identity.clone(),
        detail.causes.clone(),
    )
}

/// Working grids that share most digits' places: each the one before less a few candidates (cells left with
/// one candidate among them), from two hard puzzles.
fn grids() -> Vec<Working> {
    let mut out = Vec::new();
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    for p in [
        "98.7..6....7.96.......85...6....95...4.....3...2.....12...5.8...1......2..3....4.",
        "........1..2..3.4..5..6.7.......4..8..46...2.1...29.....6.9..3..7...6...8..3..5..",
    ] {
        let g: Grid = p.parse().unwrap();
        let mut w = Working::of(&Candidates::new(&g).unwrap());
        out.push(w);
        for _ in 0..40 {
            for _ in 0..2 {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let cell = (seed >> 33) as usize % 81;
                let d = w.get(cell).iter().nth((seed >> 20) as usize % 9);
                if let Some(d) = d.filter(|_| count9(w.mask[cell]) > 1) {
                    w.remove(cell, d);
                }
            }
            out.push(w);
        }
    }
    out
}

#[test]
fn the_reach_tests_say_exactly_where_a_forcing_chain_meets_its_source() {
    // `may_refute_on` and `may_refute_off` are exact: a forcing chain's search meets every potential its
    // links reach, so it meets its source's conjugate exactly when the reach says it may.
    let (mut on_hits, mut y_hits, mut off_hits, mut misses) = (0, 0, 0, 0);
    for w in grids() {
        let mut s = Search::new(&w);
        Reach::with(|reach| {
            reach.prepare(&s);
            for y in [false, true] {
                reach.build(&s, y, true);
                for cell in 0..81 {
                    if count9(w.mask[cell]) < 2 {
                        continue;
                    }
                    for d in w.get(cell).iter() {
                        s.nodes.clear();
                        let on = s.push(cell as u8, d, true, NO_CAUSE, NONE);
                        let found = s.forcing_chain(on, y).is_some();
                        let said = reach.may_refute_on(&s, y, cell, d);
                        assert_eq!(said, found, "on {cell} {d} y {y}");
                        // Refuted by a digit of its own cell turned on (a Y link's "off").
                        let di = d as usize - 1;
                        let own = (reach.reach_of(key(cell as u8, d))[di]
                            & crate::human::house::PEERS[cell]
                            & w.places[di])
                            .is_empty();
                        y_hits += usize::from(found && own);
                        on_hits += usize::from(found);
                        s.nodes.clear();
                        let off = s.push(cell as u8, d, false, NO_CAUSE, NONE);
                        let found = s.forcing_chain(off, y).is_some();
                        assert_eq!(
                            reach.may_refute_off(&s, y, cell, d),
                            found,
                            "off {cell} {d}"
                        );
                        off_hits += usize::from(found);
                        misses += usize::from(!found);
                    }
                }
            }
        });
    }
    assert!(on_hits > 0 && y_hits > 0 && off_hits > 0 && misses > 0);
}

/// SE's `doCycles` from `source` as written, every "off" potential met followed (the reference of
/// [`Search::cycles`]): the paths of the potentials that close a cycle, in the order found.
fn cycles_plain(s: &mut Search, source: u32, y: bool, x: bool) -> Vec<Vec<(u8, u8, bool, u8)>> {
    let src = s.nodes[source as usize];
    let mut to_on = Set729::default();
    to_on.insert(key(src.cell, src.digit));
    let (mut ons, mut found, mut buf) = (vec![source], Vec::new(), Vec::new());
    let mut length = 0;
    while !ons.is_empty() {
        let mut offs = Vec::new();
        for &p in &ons {
            let ancestors = s.off_ancestors(p);
            s.on_to_off(p, y, &mut buf, |_, qn| {
                !ancestors.contains(key(qn.cell, qn.digit))
            });
            offs.extend(&buf);
        }
        length += 2;
        ons.clear();
        for &p in &offs {
            let keep = |_: &Search, qn: &Node| {
                (length >= 4 && qn.same(&src)) || !to_on.contains(key(qn.cell, qn.digit))
            };
            s.off_to_on(p, y, x, &mut buf, keep);
            for &q in &buf {
                let qn = s.nodes[q as usize];
                if length >= 4 && qn.same(&src) {
                    found.push(q);
                }
                if !to_on.contains(key(qn.cell, qn.digit)) {
                    to_on.insert(key(qn.cell, qn.digit));
                    ons.push(q);
                }
            }
        }
    }
    found.iter().map(|&q| path(s, q)).collect()
}

/// `f` on every source with two candidates or more in its cell, of every pass of the sample grids and of `n`
/// thinned working grids, with the search, the pass's reachability and the pass (`y`, `x`).
fn each_source(n: usize, mut f: impl FnMut(&mut Search, &Reach, (usize, u8), (bool, bool))) {
    let thinned = super::super::samples::working_grids(n, 4);
    let all: Vec<Working> = grids().into_iter().chain(thinned).collect();
    each_source_of(&all, |_, s, reach, source, pass| f(s, reach, source, pass));
}

/// [`each_source`] on the grids `ws`, `f` told the index of the grid too.
fn each_source_of(
    ws: &[Working],
    mut f: impl FnMut(usize, &mut Search, &Reach, (usize, u8), (bool, bool)),
) {
    for (i, w) in ws.iter().enumerate() {
        let mut s = Search::new(w);
        Reach::with(|reach| {
            reach.prepare(&s);
            for (y, x) in [(false, true), (true, false), (true, true)] {
                reach.build(&s, y, x);
                for cell in (0..81).filter(|&c| count9(w.mask[c]) >= 2) {
                    for d in w.get(cell).iter() {
                        f(i, &mut s, reach, (cell, d), (y, x));
                    }
                }
            }
        });
    }
}

#[test]
fn cycles_are_those_of_the_search_that_follows_every_off_potential() {
    // `Search::cycles` follows an "off" potential met again only when it may turn the source on.
    let (mut sources, mut closed) = (0, 0);
    each_source(60, |s, reach, (cell, d), (y, x)| {
        s.nodes.clear();
        let on = s.push(cell as u8, d, true, NO_CAUSE, NONE);
        let want: Vec<_> = cycles_plain(s, on, y, x);
        for within in [None, Some(reach)] {
            s.nodes.clear();
            let on = s.push(cell as u8, d, true, NO_CAUSE, NONE);
            let got: Vec<_> = s
                .cycles(on, y, x, within)
                .iter()
                .map(|&q| path(s, q))
                .collect();
            assert!(got == want, "{cell} {d} y {y} x {x}");
        }
        sources += 1;
        closed += usize::from(!want.is_empty());
    });
    assert!(sources > 10_000 && closed > 100, "{sources} {closed}");
}

#[test]
fn a_source_that_cannot_close_a_cycle_has_none() {
    // Every source of every pass whose component holds another potential: where `may_close` says no cycle
    // can come back, the search of every potential finds none; and it says so of many that the components
    // let through.
    let (mut ruled_out, mut closed) = (0, 0);
    each_source(300, |s, reach, (cell, d), (y, x)| {
        if !reach.may_cycle(cell, d) {
            return;
        }
        s.nodes.clear();
        let on = s.push(cell as u8, d, true, NO_CAUSE, NONE);
        let found = !s.cycles(on, y, x, None).is_empty();
        let may = s.may_close(cell, d, (y, x), reach);
        assert!(may || !found, "{cell} {d} y {y} x {x}");
        ruled_out += usize::from(!may);
        closed += usize::from(found);
    });
    assert!(ruled_out > 100 && closed > 100, "{ruled_out} {closed}");
}

#[test]
fn the_x_pass_read_digit_by_digit_is_the_pass_itself() {
    let (mut placements, mut singles, mut total) = (0, 0, 0);
    for w in grids() {
        // With proofs, every pass is searched on the grid itself; without, the X pass comes from the lists.
        let plain: Vec<Said> = collect(&w, true, true).iter().map(said).collect();
        let listed: Vec<Said> = collect(&w, true, false).iter().map(said).collect();
        assert!(plain == listed);
        placements += plain.iter().filter(|h| h.2 == 2 && h.5.is_some()).count();
        total += plain.iter().filter(|h| h.2 == 2).count();
        singles += (0..81).filter(|&c| count9(w.mask[c]) == 1).count();
    }
    // The grids exercise what the lists must get right: placements and cells with one candidate.
    assert!(
        placements > 0 && total > placements && singles > 0,
        "{placements} {total} {singles}"
    );
    // Lists were kept, within the budget, each counted.
    X_LISTS_KEPT.with(|m| {
        let m = m.borrow();
        let counted: usize = m.lists.values().map(|l| list_bytes(l)).sum();
        assert!(!m.lists.is_empty() && counted == m.bytes && m.bytes <= X_BYTES);
    });
}

#[test]
fn the_sources_the_reach_rules_out_give_no_hint() {
    // Every pass searched from every source, the reach's verdicts aside (the cycles' own pruning, checked
    // above, kept): the same hints as `collect`, which leaves out the sources the reach rules out.
    let (mut hints, mut skipped) = (0, 0);
    let ws = grids();
    let mut plain: Vec<Vec<Hint>> = ws.iter().map(|_| Vec::new()).collect();
    each_source_of(&ws, |i, s, reach, (cell, d), (y, x)| {
        if !x && count9(ws[i].mask[cell]) > 2 {
            return;
        }
        let may = (
            reach.may_cycle(cell, d),
            x && reach.may_refute_on(s, y, cell, d),
            x && reach.may_refute_off(s, y, cell, d),
        );
        skipped += usize::from(may == (false, false, false));
        let every = (may.0, x, x);
        let flags = (true, true, false);
        searched_hints(s, reach, (cell, d), (y, x), flags, every, &mut plain[i]);
    });
    for (w, plain) in ws.iter().zip(&plain) {
        let plain: Vec<Said> = plain.iter().map(said).collect();
        let got: Vec<Said> = collect(w, true, true).iter().map(said).collect();
        assert!(plain == got);
        hints += got.len();
    }
    assert!(hints > 1000 && skipped > 1000, "{hints} {skipped}");
}

#[test]
fn a_forcing_chain_leaving_out_dead_off_potentials_ends_on_the_same_path() {
    // The search that adds every "off" potential met to its nodes (all of them live) against the one that leaves
    // out those with no link to an "on" potential: the same contradiction, reached through the same potentials.
    let (mut found, mut none, mut fewer) = (0, 0, 0);
    let mut grids = grids();
    grids.extend(super::super::samples::working_grids(40, 4));
    for w in &grids {
        let mut s = Search::new(w);
        for y in [false, true] {
            for cell in (0..81).filter(|&cell| count9(w.mask[cell]) >= 2) {
                for d in w.get(cell).iter() {
                    for on in [true, false] {
                        s.nodes.clear();
                        let src = s.push(cell as u8, d, on, NO_CAUSE, NONE);
                        let plain = s.forcing_chain_among(src, y, [CellSet::ALL; 9]);
                        let plain_path = plain.map(|q| path(&s, q));
                        let plain_nodes = s.nodes.len();
                        s.nodes.truncate(1);
                        let pruned = s.forcing_chain(src, y);
                        assert_eq!(
                            pruned.map(|q| path(&s, q)),
                            plain_path,
                            "{cell} {d} {on} y {y}"
                        );
                        fewer += usize::from(s.nodes.len() < plain_nodes);
                        found += usize::from(pruned.is_some());
                        none += usize::from(pruned.is_none());
                    }
                }
            }
        }
    }
    assert!(
        found > 1_000 && none > 1_000 && fewer > 1_000,
        "{found} {none} {fewer}"
    );
}
