//! The level-1 rules of the dynamic chains checked against plain scans of every house, on random working grids.

use super::super::samples::{working_grids, Xorshift};
use super::*;
use crate::human::house::House;
use crate::human::se::{cells_at, combinations, positions};

#[test]
fn digit_positions_are_the_houses_positions() {
    // Places scattered over the grid, a different pattern for each digit.
    let places: [CellSet; 9] = std::array::from_fn(|d| {
        let mut s = CellSet::EMPTY;
        for cell in (0..81).filter(|c| (c * 7 + d * 13) % (d + 2) != 0) {
            s.insert(cell);
        }
        s
    });
    let now = Working {
        mask: [0; 81],
        places,
    };
    let g = Grids {
        now: &now,
        source: &now,
        open: CellSet::ALL,
        placed: &[0; 9],
    };
    for t in 0..3 {
        for i in 0..9 {
            for d in 1..=9u8 {
                let h = region(t, i);
                let want = positions(h, places[d as usize - 1] & cells_of(h));
                assert_eq!(
                    digit_positions(&g, t, i, d),
                    want,
                    "type {t}, house {i}, digit {d}"
                );
            }
        }
    }
}

#[test]
fn line_positions_are_the_lines_positions() {
    for d in 0..9 {
        let mut places = CellSet::EMPTY;
        for cell in (0..81).filter(|c| (c * 5 + d * 11) % (d + 2) != 0) {
            places.insert(cell);
        }
        let rows = rows_of(places);
        for t in 1..3 {
            for i in 0..9 {
                let h = region(t, i);
                let want = positions(h, places & cells_of(h));
                assert_eq!(
                    line_positions(&rows, t, i),
                    want,
                    "type {t}, line {i}, digit {d}"
                );
            }
        }
    }
}

/// SE's `Locking(false)` as first written, every house scanned (the reference of [`locking`]).
fn plain_locking(g: &Grids, out: &mut Offs) {
    let mut s = Scratch::default();
    for (t1, t2) in [(0, 2), (0, 1), (2, 0), (1, 0)] {
        for d in 1..=9u8 {
            let places = g.now.places[d as usize - 1];
            for i1 in 0..9 {
                let r1 = cells_of(region(t1, i1));
                let pos = places & r1;
                if pos.len() < 2 {
                    continue;
                }
                // SE tries every house of type `t2`; the places, two or more, lie in one at most: that of the
                // first place, if in any.
                let first = pos.first().expect("two places or more");
                let r2 = cells_of(house_of(t2, first));
                if pos & r2 != pos || (places & r2 & !r1).is_empty() {
                    continue;
                }
                locked(g, d, r1, r2, &mut s, out);
            }
        }
    }
}

/// The houses in SE's order for subsets (boxes, columns, rows) with at least `open` cells without a value: type,
/// number, house and cells.
fn houses_open<'a>(
    g: &'a Grids<'a>,
    open: u32,
) -> impl Iterator<Item = (usize, usize, House, CellSet)> + 'a {
    BOX_COL_ROW
        .into_iter()
        .flat_map(|t| (0..9).map(move |i| (t, i, region(t, i))))
        .map(|(t, i, h)| (t, i, h, cells_of(h)))
        .filter(move |&(_, _, _, hc)| (g.open & hc).len() >= open)
}

/// SE's `HiddenSet(2, false)` as first written, every pair of digits of every house scanned.
fn plain_hidden_pairs(g: &Grids, out: &mut Offs) {
    let mut s = Scratch::default();
    for (t, i, h, hc) in houses_open(g, 5) {
        let at: [u16; 9] = std::array::from_fn(|d| digit_positions(g, t, i, d as u8 + 1));
        for m in combinations(2) {
            // Two digits' places, two or more each, whose union is two: the same two.
            let (a, b) = pair(m);
            let common = at[a];
            if common.count_ones() != 2 || at[b] != common {
                continue;
            }
            let cells = cells_at(h, common);
            hidden_pair(g, hc, cells, m, &mut s, out);
        }
    }
}

/// SE's `NakedSet(2)` as first written, every pair of cells of every house scanned.
fn plain_naked_pairs(g: &Grids, out: &mut Offs) {
    let mut s = Scratch::default();
    for (_, _, h, hc) in houses_open(g, 4) {
        let list = &HOUSE_LIST[h.0 as usize];
        for m in combinations(2) {
            // Two cells' candidates, two or more each, whose union is two: the same two.
            let (a, b) = pair(m);
            let common = g.now.mask[list[a] as usize];
            if common.count_ones() != 2 || g.now.mask[list[b] as usize] != common {
                continue;
            }
            let cells = cells_at(h, m);
            naked_pair(g, hc, cells, common, &mut s, out);
        }
    }
}

/// SE's `Fisherman(2)` as first written, every pair of lines and digit scanned.
fn plain_x_wings(g: &Grids, out: &mut Offs) {
    let mut s = Scratch::default();
    for (base, cover) in [(2, 1), (1, 2)] {
        // `at[d - 1][i]`: the places of digit `d` in base line `i`.
        let at: [[u16; 9]; 9] = std::array::from_fn(|d| {
            std::array::from_fn(|i| digit_positions(g, base, i, d as u8 + 1))
        });
        for m in combinations(2) {
            let (a, b) = pair(m);
            for d in 1..=9u8 {
                if g.placed[d as usize - 1] + 4 > 9 {
                    continue;
                }
                // Two lines' places, two or more each, whose union is two: the same two.
                let common = at[d as usize - 1][a];
                if common.count_ones() != 2 || at[d as usize - 1][b] != common {
                    continue;
                }
                x_wing(g, (base, m), (cover, common), d, &mut s, out);
            }
        }
    }
}

/// A working grid to test the rules on: `(source, now, open, placed)` of [`Grids`].
type Sample = ([u16; 81], [u16; 81], CellSet, [u8; 9]);

/// Random working grids, `(source, now, open, placed)`: cells of two to six candidates (a few with a value),
/// about one candidate in four removed by the "chain", each digit placed a random number of times.
fn random_grids(n: usize) -> Vec<Sample> {
    let mut random = Xorshift::new(0x2545_F491_4F6C_DD1D);
    let mut next = move || random.next();
    (0..n)
        .map(|_| {
            let (mut source, mut open) = ([0u16; 81], CellSet::EMPTY);
            for (cell, mask) in source.iter_mut().enumerate() {
                if next() % 8 == 0 {
                    continue;
                }
                open.insert(cell);
                let want = 2 + next() % 5;
                while u64::from(mask.count_ones()) < want {
                    *mask |= 1 << (next() % 9);
                }
            }
            let mut now = source;
            for mask in now.iter_mut() {
                for d in 0..9 {
                    if next() % 4 == 0 {
                        *mask &= !(1 << d);
                    }
                }
            }
            let placed = std::array::from_fn(|_| (next() % 10) as u8);
            (source, now, open, placed)
        })
        .collect()
}

/// The chain's eliminations, the cells of two candidates and the digits of each house by their places, as
/// [`gone_places`], [`bivalue`] and [`HouseDigits`] give them, against the masks read one by one.
fn masks_agree(g: &Grids, gone: &[CellSet; 9]) {
    // The chain's eliminations and the cells of two candidates, as the masks say.
    for cell in 0..81 {
        for d in 1..=9u8 {
            assert_eq!(gone[d as usize - 1].contains(cell), super::gone(g, cell, d));
        }
        let two = g.now.mask[cell].count_ones() == 2;
        assert_eq!(g.now.bivalue().contains(cell), two);
    }
    // The digits of each house by their places, counted one by one.
    let houses = HouseDigits::of(g, gone);
    // Counted where the chain removed some, the houses of the lost digits: there the digits of two places.
    for h in 0..27 {
        let hc = cells_of(crate::human::house::House(h as u8));
        let counted = houses.counted >> h & 1 != 0;
        assert_eq!(counted, houses.lost[h] != 0, "house {h}");
        for (d, (&places, &removed)) in g.now.places.iter().zip(gone).enumerate() {
            let n = (places & hc).len();
            let lost = !(removed & hc).is_empty();
            if counted {
                assert_eq!(houses.two[h] >> d & 1 != 0, n == 2, "house {h}, digit {d}");
            }
            assert_eq!(houses.lost[h] >> d & 1 != 0, lost, "house {h}, digit {d}");
            assert_eq!(houses.locking[d] >> h & 1 != 0, n >= 2 && lost);
        }
    }
}

/// The digits' places of the candidate masks `mask`.
fn places_of(mask: &[u16; 81]) -> [CellSet; 9] {
    std::array::from_fn(|d| {
        let mut s = CellSet::EMPTY;
        (0..81)
            .filter(|&c| mask[c] >> d & 1 != 0)
            .for_each(|c| s.insert(c));
        s
    })
}

/// The working grid of the candidate masks `mask`.
fn working(mask: [u16; 81]) -> Working {
    Working {
        mask,
        places: places_of(&mask),
    }
}

#[test]
fn level1_rules_looking_since_their_last_run_find_what_they_find_afresh() {
    // Chains of working grids from puzzles' candidates, each grid the last less what the rules found there and
    // about one candidate in `rate` more (a cell keeps one), as a dynamic chain goes on: `find` with the rules'
    // grids kept gives what it gives with every rule looking at all the chain's eliminations.
    let mut random = Xorshift::new(0x2545_F491_4F6C_DD1D);
    let (mut asked, mut fired, mut later) = (0usize, 0usize, 0usize);
    for (i, source) in working_grids(300, 1000).into_iter().enumerate() {
        let open = (0..81)
            .filter(|&c| source.mask[c] != 0)
            .fold(CellSet::EMPTY, |s, c| s | CellSet::single(c));
        let (mut now, mut since, rate) = (source, Since::START, [30, 60, 120][i % 3]);
        for _ in 0..20 {
            for cell in 0..81 {
                for d in DigitSet(now.mask[cell]).iter() {
                    if random.next() % rate == 0 && now.mask[cell].count_ones() > 1 {
                        now.remove(cell, d);
                    }
                }
            }
            let g = Grids {
                now: &now,
                source: &source,
                open,
                placed: &[0; 9],
            };
            let gone = gone_places(&g);
            let (mut fast, mut want, mut locked) =
                (Offs::default(), Offs::default(), Offs::default());
            let houses = find(&g, &gone, &mut since, &mut fast);
            let all = find(&g, &gone, &mut { Since::START }, &mut want);
            assert_eq!(
                (&fast.offs, &fast.parents),
                (&want.offs, &want.parents),
                "grid {i}"
            );
            assert_eq!(all, Some(lost_houses(&g, &gone)));
            if let Some(houses) = houses {
                assert_eq!(houses, lost_houses(&g, &gone));
            }
            locking(&g, &gone, &HouseDigits::of(&g, &gone), &mut locked);
            asked += 1;
            fired += usize::from(!want.offs.is_empty());
            later += usize::from(!want.offs.is_empty() && locked.offs.is_empty());
            for &(k, _, _) in &want.offs {
                now.remove(k as usize / 9, (k % 9) as u8 + 1);
            }
        }
    }
    // Many grids along the chains had hints, of locking and of the later rules, so the comparison tested
    // something.
    assert!(
        fired * 4 > asked && later * 10 > asked,
        "{asked} {fired} {later}"
    );
}

#[test]
fn level1_rules_find_what_the_plain_scans_find() {
    type Rule = fn(&Grids, &[CellSet; 9], &mut Offs);
    type Plain = fn(&Grids, &mut Offs);
    let rules: [(&str, Rule, Plain); 4] = [
        (
            "locking",
            |g, gone, out| locking(g, gone, &HouseDigits::of(g, gone), out),
            plain_locking,
        ),
        (
            "hidden pairs",
            |g, gone, out| hidden_pairs(g, gone, &HouseDigits::of(g, gone), out),
            plain_hidden_pairs,
        ),
        ("naked pairs", naked_pairs, plain_naked_pairs),
        ("X-Wings", x_wings, plain_x_wings),
    ];
    let mut fired = [0usize; 4];
    for (source, now, open, placed) in random_grids(2000) {
        let (now, source) = (working(now), working(source));
        let g = Grids {
            now: &now,
            source: &source,
            open,
            placed: &placed,
        };
        let gone = gone_places(&g);
        masks_agree(&g, &gone);
        for (i, (name, rule, plain)) in rules.iter().enumerate() {
            let (mut fast, mut want) = (Offs::default(), Offs::default());
            rule(&g, &gone, &mut fast);
            plain(&g, &mut want);
            assert_eq!(fast.offs, want.offs, "{name}");
            assert_eq!(fast.parents, want.parents, "{name}");
            fired[i] += usize::from(!want.offs.is_empty());
        }
    }
    // Each rule found hints on many of the grids, so the comparison tested something.
    assert!(
        fired.iter().all(|&n| n >= 100),
        "grids with hints per rule: {fired:?}"
    );
}
