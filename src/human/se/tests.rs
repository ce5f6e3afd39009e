//! The SE ladder checked against `serate`'s ratings (`data/se_sample.txt`, made with the reference tool) and each
//! technique's steps checked for soundness against the solution.

use super::*;
use crate::human::step::Ladder;
use crate::solver;

/// `(puzzle, ER, EP, ED, serate's ER technique)` of the committed sample.
fn sample() -> Vec<(Grid, Tenths, Tenths, Tenths, String)> {
    let tenths = |s: &str| Tenths((s.parse::<f64>().unwrap() * 10.0).round() as u8);
    include_str!("../../../data/se_sample.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (
                f[0].parse().unwrap(),
                tenths(f[1]),
                tenths(f[2]),
                tenths(f[3]),
                f[5].to_string(),
            )
        })
        .collect()
}

#[test]
fn sample_ratings_equal_serate_within_the_ladder() {
    let mut rated = 0;
    let mut wrong = Vec::new();
    for (p, er, ep, ed, _) in &sample() {
        let r = rate_se(p).unwrap();
        match r.er {
            Some(ours) => {
                rated += 1;
                if (ours, r.ep.unwrap(), r.ed.unwrap()) != (*er, *ep, *ed) {
                    wrong.push(format!("{p}: ours {r}, serate {er} {ep} {ed}"));
                }
            }
            // Beyond the ladder: serate's ER must be above it, and what we know must be serate's.
            None => {
                if *er <= LADDER_TOP
                    || r.ep.is_some_and(|x| x != *ep)
                    || r.ed.is_some_and(|x| x != *ed)
                {
                    wrong.push(format!("{p}: ours {r}, serate {er} {ep} {ed}"));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} differ:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    // (A puzzle serate rates at or below LADDER_TOP and reported beyond it here is among `wrong`.)
    assert!(rated >= 900, "{rated}");
}

/// Each step only places the solution's digits and only removes candidates that are not the solution's.
fn assert_sound(p: &Grid) -> Vec<SeStep> {
    let solution = solver::solve_unique(p).unwrap().solution;
    let steps: Vec<SeStep> = SePath::new(p).unwrap().collect();
    for s in &steps {
        if let Some((cell, d)) = s.placement {
            assert_eq!(solution.get(cell), d, "{p}: {s}");
        }
        for (cell, d) in s.eliminations.iter() {
            assert_ne!(solution.get(cell), d, "{p}: {s}");
        }
        assert!(s.placement.is_some() || !s.eliminations.is_empty(), "{s}");
    }
    steps
}

#[test]
fn every_technique_is_met_on_the_sample_with_its_rating_and_sound_steps() {
    let mut seen: Vec<(SeTechnique, Tenths)> = Vec::new();
    for (p, ..) in sample() {
        for s in assert_sound(&p) {
            if !seen.contains(&(s.technique, s.rating())) {
                seen.push((s.technique, s.rating()));
            }
        }
    }
    // SE's rating of each technique (HiddenSingle has three).
    let expected = [
        (SeTechnique::HiddenSingle, 10),
        (SeTechnique::HiddenSingle, 12),
        (SeTechnique::HiddenSingle, 15),
        (SeTechnique::DirectPointing, 17),
        (SeTechnique::DirectHiddenPair, 20),
        (SeTechnique::NakedSingle, 23),
        (SeTechnique::Pointing, 26),
        (SeTechnique::Claiming, 28),
        (SeTechnique::NakedPair, 30),
        (SeTechnique::HiddenPair, 34),
        (SeTechnique::XYWing, 42),
        (SeTechnique::UniqueRectangle(1), 45),
        (SeTechnique::UniqueRectangle(2), 45),
        (SeTechnique::UniqueLoop(2), 46),
        (SeTechnique::Bug(1), 56),
        (SeTechnique::BidirectionalCycle, 66),
        (SeTechnique::AlignedPairExclusion, 62),
        (SeTechnique::UniqueRectangle(3), 46),
        (SeTechnique::Bug(2), 57),
        (SeTechnique::ForcingChain, 66),
        (SeTechnique::AlignedTripletExclusion, 75),
        (SeTechnique::NishioForcingChain, 76),
        (SeTechnique::MultipleForcingChain, 82),
        (SeTechnique::DynamicForcingChain, 87),
    ];
    for (t, r) in expected {
        assert!(seen.contains(&(t, Tenths(r))), "{t} {r} not met: {seen:?}");
    }
    for (t, r) in &seen {
        let want = match t {
            SeTechnique::HiddenSingle => [10, 12, 15].contains(&r.0),
            SeTechnique::DirectPointing => r.0 == 17,
            SeTechnique::DirectClaiming => r.0 == 19,
            SeTechnique::DirectHiddenPair => r.0 == 20,
            SeTechnique::NakedSingle => r.0 == 23,
            SeTechnique::DirectHiddenTriplet => r.0 == 25,
            SeTechnique::Pointing => r.0 == 26,
            SeTechnique::Claiming => r.0 == 28,
            SeTechnique::NakedPair => r.0 == 30,
            SeTechnique::XWing => r.0 == 32,
            SeTechnique::HiddenPair => r.0 == 34,
            SeTechnique::NakedTriplet => r.0 == 36,
            SeTechnique::Swordfish => r.0 == 38,
            SeTechnique::HiddenTriplet => r.0 == 40,
            SeTechnique::XYWing => r.0 == 42,
            SeTechnique::XYZWing => r.0 == 44,
            SeTechnique::UniqueRectangle(t) => (1..=4).contains(t) && (45..=50).contains(&r.0),
            SeTechnique::UniqueLoop(t) => (1..=4).contains(t) && (46..=55).contains(&r.0),
            SeTechnique::NakedQuad => r.0 == 50,
            SeTechnique::Jellyfish => r.0 == 52,
            SeTechnique::HiddenQuad => r.0 == 54,
            SeTechnique::Bug(1) => r.0 == 56,
            SeTechnique::Bug(3) => (58..=62).contains(&r.0),
            SeTechnique::Bug(t) => (2..=4).contains(t) && r.0 == 57,
            SeTechnique::AlignedPairExclusion => r.0 == 62,
            SeTechnique::BidirectionalCycle => r.0 >= 65,
            SeTechnique::ForcingChain => r.0 >= 66,
            SeTechnique::AlignedTripletExclusion => r.0 == 75,
            SeTechnique::NishioForcingChain => r.0 >= 75,
            SeTechnique::MultipleForcingChain => r.0 >= 80,
            SeTechnique::DynamicForcingChain => r.0 >= 85,
            SeTechnique::DynamicForcingChainPlus => r.0 >= 90,
            SeTechnique::NestedForcingChain => r.0 >= 95,
            SeTechnique::NestedMultipleForcingChain => r.0 >= 100,
            SeTechnique::NestedDynamicForcingChain => r.0 >= 105,
        };
        assert!(want, "{t} rated {r}");
    }
}

/// An empty grid's candidates with `digits` removed from `cells`.
fn empty_without(removals: &[(&[usize], &[u8])]) -> Candidates {
    let mut c = Candidates::new(&Grid::EMPTY).unwrap();
    for (cells, digits) in removals {
        for &cell in *cells {
            for &d in *digits {
                c.eliminate(cell, d);
            }
        }
    }
    c
}

/// The first step of the ladder on `c`, as `(technique, rating, placement, eliminations as text)`.
fn first(c: &Candidates) -> (SeTechnique, u8, Option<(usize, u8)>, String) {
    let s = next_step(c).expect("a step");
    (
        s.technique,
        s.rating().0,
        s.placement,
        s.eliminations.to_string(),
    )
}

const ALL_BUT_1: &[u8] = &[2, 3, 4, 5, 6, 7, 8, 9];

#[test]
fn hand_made_singles_rate_as_se() {
    // 5 has one place in box 1 (r1c1): 1.2.
    let box1: Vec<usize> = vec![1, 2, 9, 10, 11, 18, 19, 20];
    let c = empty_without(&[(&box1, &[5])]);
    assert_eq!(
        first(&c),
        (SeTechnique::HiddenSingle, 12, Some((0, 5)), String::new())
    );
    // 5 has one place in row 1 only (the box still has others): 1.5.
    let c = empty_without(&[(&[1, 2, 3, 4, 5, 6, 7, 8], &[5])]);
    assert_eq!(
        first(&c),
        (SeTechnique::HiddenSingle, 15, Some((0, 5)), String::new())
    );
    // A house with one empty cell: 1.0, before any other single.
    let mut g = Grid::EMPTY;
    for (i, d) in (1..=8u8).enumerate() {
        g.set(i, d);
    }
    let c = Candidates::new(&g).unwrap();
    assert_eq!(
        first(&c),
        (SeTechnique::HiddenSingle, 10, Some((8, 9)), String::new())
    );
    // r5c5 holds only 1: naked single 2.3.
    let c = empty_without(&[(&[40], ALL_BUT_1)]);
    assert_eq!(
        first(&c),
        (SeTechnique::NakedSingle, 23, Some((40, 1)), String::new())
    );
}

#[test]
fn hand_made_intersections_rate_as_se() {
    // 7 of box 1 only in row 1: pointing 2.6 removes it from the rest of row 1.
    let c = empty_without(&[(&[9, 10, 11, 18, 19, 20], &[7])]);
    assert_eq!(
        first(&c),
        (
            SeTechnique::Pointing,
            26,
            None,
            "r1c4,r1c5,r1c6,r1c7,r1c8,r1c9<>7".into()
        )
    );
    // 7 of row 1 only in box 1: claiming 2.8 removes it from the rest of box 1.
    let c = empty_without(&[(&[3, 4, 5, 6, 7, 8], &[7])]);
    assert_eq!(
        first(&c),
        (
            SeTechnique::Claiming,
            28,
            None,
            "r2c1,r2c2,r2c3,r3c1,r3c2,r3c3<>7".into()
        )
    );
    // As above, and box 2 has 7 only in row 1 and r2c4: direct pointing 1.7 places r2c4 = 7.
    let c = empty_without(&[
        (&[9, 10, 11, 18, 19, 20], &[7]),
        (&[13, 14, 21, 22, 23], &[7]),
    ]);
    assert_eq!(
        first(&c),
        (
            SeTechnique::DirectPointing,
            17,
            Some((12, 7)),
            String::new()
        )
    );
}

#[test]
fn hand_made_subsets_fish_and_wings_rate_as_se() {
    // r1c1 and r1c2 hold only 1 and 2: naked pair 3.0, found in box 1 first (SE scans boxes first).
    let c = empty_without(&[(&[0, 1], &[3, 4, 5, 6, 7, 8, 9])]);
    assert_eq!(
        first(&c),
        (
            SeTechnique::NakedPair,
            30,
            None,
            "r1c3,r2c1,r2c2,r2c3,r3c1,r3c2,r3c3<>12".into()
        )
    );
    // 1 in rows 1 and 5 only in columns 1 and 5: X-Wing 3.2 clears the rest of the two columns.
    let rows: Vec<usize> = [0, 4]
        .iter()
        .flat_map(|r| {
            (0..9)
                .filter(|c| *c != 0 && *c != 4)
                .map(move |c| r * 9 + c)
        })
        .collect();
    let c = empty_without(&[(&rows, &[1])]);
    let (t, r, p, e) = first(&c);
    assert_eq!((t, r, p), (SeTechnique::XWing, 32, None));
    assert_eq!(
        e,
        "r2c1,r2c5,r3c1,r3c5,r4c1,r4c5,r6c1,r6c5,r7c1,r7c5,r8c1,r8c5,r9c1,r9c5<>1"
    );
    // Pivot r1c1 {12}, pincers r1c5 {13} and r5c1 {23}: XY-Wing 4.2 removes 3 from r5c5.
    let c = empty_without(&[
        (&[0], &[3, 4, 5, 6, 7, 8, 9]),
        (&[4], &[2, 4, 5, 6, 7, 8, 9]),
        (&[36], &[1, 4, 5, 6, 7, 8, 9]),
    ]);
    assert_eq!(first(&c), (SeTechnique::XYWing, 42, None, "r5c5<>3".into()));
}

#[test]
fn hand_made_unique_rectangles_rate_as_se() {
    // r1c1, r1c4, r2c1 hold only 1 and 2, r2c4 also 3: type 1 (4.5) removes 1 and 2 from r2c4.
    let not12: &[u8] = &[3, 4, 5, 6, 7, 8, 9];
    let c = empty_without(&[(&[0, 3, 9], not12), (&[12], &[4, 5, 6, 7, 8, 9])]);
    let s = unique::find(&c).expect("a unique rectangle");
    assert_eq!(
        (s.technique, s.rating()),
        (SeTechnique::UniqueRectangle(1), Tenths(45))
    );
    assert_eq!(s.eliminations.to_string(), "r2c4<>12");
    // r2c1 and r2c4 both hold 1, 2 and 3: type 2 (4.5) removes 3 from the rest of row 2.
    let c = empty_without(&[(&[0, 3], not12), (&[9, 12], &[4, 5, 6, 7, 8, 9])]);
    let s = unique::find(&c).expect("a unique rectangle");
    assert_eq!(
        (s.technique, s.rating()),
        (SeTechnique::UniqueRectangle(2), Tenths(45))
    );
    assert_eq!(
        s.eliminations.to_string(),
        "r2c2,r2c3,r2c5,r2c6,r2c7,r2c8,r2c9<>3"
    );
}

#[test]
fn dynamic_forcing_chains_plus_rate_as_serate() {
    // puzzles3_magictour_top1465; serate (classic techniques) rates it 9.8 1.2 1.2, its ER step a "Dynamic
    // Contradiction Forcing Chains (+)" (see data/README.md for how serate was run).
    let p: Grid =
        "7.....4...2..7..8...3..8..9...5..3...6..2..9...1..7..6...3..9...3..4..6...9..1..5"
            .parse()
            .unwrap();
    let steps = assert_sound(&p);
    let plus: Vec<&SeStep> = steps
        .iter()
        .filter(|s| s.technique == SeTechnique::DynamicForcingChainPlus)
        .collect();
    assert!(!plus.is_empty());
    assert!(plus.iter().all(|s| s.rating() >= Tenths(90)));
    let r = rate_se(&p).unwrap();
    assert_eq!(
        (r.er, r.ep, r.ed, r.hardest),
        (
            Some(Tenths(98)),
            Some(Tenths(12)),
            Some(Tenths(12)),
            Some(SeTechnique::DynamicForcingChainPlus)
        )
    );
}

#[test]
fn nested_forcing_chains_steps_on_hardest_puzzles_are_serates() {
    // puzzles6_forum_hardest_1106. serate (classic techniques, `--after='%r %s'`) takes these steps first: without
    // Nested Forcing Chains it finds nothing after the first 9.4 ("Beyond solver"); with them it goes on at the
    // lowest nesting level, "(+ Forcing Chains)" (the 10.5 and 10.7 steps of the first, the 10.2 and 10.4 of
    // the second; the (+) chains rate 10.0 and 9.8 there on their own). Each step is (rating, the candidate it removes when checked): the 9.4
    // ones are "Double" forcing chains, the later ones "Contradiction" forcing chains whose assumption goes. Only the first steps are taken (the whole
    // path takes seconds).
    type Step = (u8, Option<(usize, u8)>);
    let cases: [(&str, &[Step]); 2] = [
        (
            ".......8...6.8.1..7....3..4.47..5...5..32............53....4..7......9...1.9...6.",
            &[
                (12, None),
                (26, None),
                (26, None),
                (94, Some((20, 5))),  // r3c3<>5
                (105, Some((47, 9))), // r6c3<>9
                (105, Some((47, 1))), // r6c3<>1
                (107, Some((42, 6))), // r5c7<>6
            ],
        ),
        (
            ".2.4...8......9..2..9.3............5..8..7....4.5..82...46..21.6.21..4...1......8",
            &[
                (94, Some((76, 5))),  // r9c5<>5
                (100, Some((78, 9))), // r9c7<>9
                (102, None),
                (104, Some((75, 7))), // r9c4<>7
                (26, None),
                (98, Some((70, 3))), // r8c8<>3
            ],
        ),
    ];
    for (p, want) in cases {
        let p: Grid = p.parse().unwrap();
        let sol = solver::solve_unique(&p).unwrap().solution;
        let steps: Vec<SeStep> = SePath::new(&p).unwrap().take(want.len()).collect();
        assert_eq!(steps.len(), want.len(), "{p}");
        for (s, &(rating, removed)) in steps.iter().zip(want) {
            for (cell, d) in s.eliminations.iter() {
                assert_ne!(sol.get(cell), d, "{p}: {s}");
            }
            assert_eq!(s.rating(), Tenths(rating), "{p}: {s}");
            if let Some(e) = removed {
                assert_eq!(s.eliminations.iter().collect::<Vec<_>>(), [e], "{s}");
            }
        }
    }
}

#[test]
fn nested_multiple_forcing_chains_steps_are_serates() {
    // puzzles6_forum_hardest_1106, serate 11.0 11.0 2.6 (data/se_sample_hard.txt). serate's first steps with
    // every classic technique (`--after='%r %S %s'`): two pointings, a "(+ Forcing Chains)" contradiction at 10.7,
    // then two at the second nesting level, "(+ Multiple Forcing Chains)" (its hardest step so far `DCFC+MFC`):
    // r4c5.1 on ==> r8c9.4 both on & off (11.0), r6c5.4 on ==> r3c9.5 both on & off (10.9).
    let p: Grid =
        "1....6...4....9.3..8.2..6....4.....7.9..2.8..5......1....3...7..3...29....58....."
            .parse()
            .unwrap();
    let sol = solver::solve_unique(&p).unwrap().solution;
    type Step = (SeTechnique, u8, Option<(usize, u8)>);
    let want: [Step; 5] = [
        (SeTechnique::Pointing, 26, None),
        (SeTechnique::Pointing, 26, None),
        (SeTechnique::NestedForcingChain, 107, Some((73, 2))), // r9c2<>2
        (SeTechnique::NestedMultipleForcingChain, 110, Some((31, 1))), // r4c5<>1
        (SeTechnique::NestedMultipleForcingChain, 109, Some((49, 4))), // r6c5<>4
    ];
    let steps: Vec<SeStep> = SePath::new(&p).unwrap().take(want.len()).collect();
    assert_eq!(steps.len(), want.len());
    for (s, &(t, rating, removed)) in steps.iter().zip(&want) {
        for (cell, d) in s.eliminations.iter() {
            assert_ne!(sol.get(cell), d, "{s}");
        }
        assert_eq!((s.technique, s.rating()), (t, Tenths(rating)), "{s}");
        if let Some(e) = removed {
            assert_eq!(s.eliminations.iter().collect::<Vec<_>>(), [e], "{s}");
        }
    }
}

#[test]
fn nested_dynamic_forcing_chains_step_is_serates() {
    // puzzles5_forum_hardest_1905_11+, serate 11.4 11.4 2.8 (data/se_paths_nested.txt). serate's first twelve steps
    // (`--after='%r %S %s'`) remove these candidates; then nothing of the lower nesting levels applies, and SE's
    // last level, "(+ Dynamic Forcing Chains)" (its nested producer at nesting level 0), finds "Cell Forcing
    // Chains: r5c6 ==> r6c6.5 off" rated 11.4, its hardest step (`DLFC+DFC`).
    let p: Grid =
        "9..76.5..6...8.9....5..9...5....78....183...........2.3..9..7......76.49.......5."
            .parse()
            .unwrap();
    let sol = solver::solve_unique(&p).unwrap().solution;
    let mut c = Candidates::new(&p).unwrap();
    let removed: [(&[usize], u8); 12] = [
        (&[55, 56, 72, 73, 74], 8), // claiming: r7c2,r7c3,r9c1,r9c2,r9c3<>8
        (&[53], 6),                 // r6c9<>6
        (&[73], 1),                 // r9c2<>1
        (&[44], 4),                 // r5c9<>4
        (&[53], 4),                 // r6c9<>4
        (&[80], 2),                 // r9c9<>2
        (&[74], 4),                 // r9c3<>4
        (&[64], 1),                 // r8c2<>1
        (&[64], 8),                 // r8c2<>8
        (&[74], 2),                 // r9c3<>2
        (&[53], 1),                 // r6c9<>1
        (&[12], 3),                 // r2c4<>3
    ];
    for (cells, d) in removed {
        for &cell in cells {
            assert!(
                c.eliminate(cell, d),
                "r{}c{}<>{d}",
                cell / 9 + 1,
                cell % 9 + 1
            );
        }
    }
    let s = SeTechnique::NestedDynamicForcingChain.find(&c).unwrap();
    assert_eq!(
        (s.technique, s.rating()),
        (SeTechnique::NestedDynamicForcingChain, Tenths(114)),
        "{s}"
    );
    assert_eq!(s.eliminations.iter().collect::<Vec<_>>(), [(50, 5)], "{s}"); // r6c6<>5
    assert_ne!(sol.get(50), 5);
}

/// Every SE technique has its own name, which reads back as it ([`Ladder::from_name`]); the producers' ladder
/// lists techniques of [`SeTechnique::ALL`] in its order.
#[test]
fn se_names_are_distinct_and_read_back() {
    for (i, &t) in SeTechnique::ALL.iter().enumerate() {
        assert_eq!(<SeTechnique as Ladder>::from_name(t.name()), Some(t));
        assert!(SeTechnique::ALL[..i].iter().all(|u| u.name() != t.name()));
    }
    assert_eq!(<SeTechnique as Ladder>::from_name("x-wing"), None);
    let at = |t: &SeTechnique| SeTechnique::ALL.iter().position(|u| u == t).unwrap();
    assert!(SeTechnique::LADDER
        .windows(2)
        .all(|w| at(&w[0]) < at(&w[1])));
}

/// [`Step::apply`] places first; SE removes first: the grids are the same after every step of the sample's first
/// 200 paths (some steps place and remove), and after steps that remove the placed cell's other candidates and
/// the placed digit from a peer, as well as that digit from the placed cell itself.
#[test]
fn either_apply_order_gives_the_same_grid() {
    let se_order = |s: &SeStep, c: &mut Candidates| {
        for (cell, digit) in s.eliminations.iter() {
            c.eliminate(cell, digit);
        }
        if let Some((cell, digit)) = s.placement {
            c.place(cell, digit);
        }
    };
    let mut both = 0;
    for (p, ..) in sample().iter().take(200) {
        let mut c = Candidates::new(p).unwrap();
        while let Some(s) = next_step(&c) {
            both += usize::from(s.placement.is_some() && !s.eliminations.is_empty());
            let mut theirs = c;
            se_order(&s, &mut theirs);
            s.apply(&mut c);
            assert!(c == theirs, "{p}: {s}");
        }
    }
    let p = &sample()[0].0;
    let c = Candidates::new(p).unwrap();
    let cell = c.open().first().unwrap();
    let digit = c.get(cell).first().unwrap();
    let mut s = SeStep::of(SeTechnique::NakedSingle);
    s.placement = Some((cell, digit));
    for d in c.get(cell).iter() {
        s.eliminations.add(CellSet::single(cell), d);
    }
    let peer = (c.places(digit) & crate::human::house::PEERS[cell])
        .first()
        .unwrap();
    s.eliminations.add(CellSet::single(peer), digit);
    let (mut ours, mut theirs) = (c, c);
    s.apply(&mut ours);
    se_order(&s, &mut theirs);
    assert!(ours == theirs);
    assert!(both > 0, "no step of the sample both places and removes");
}
