//! The techniques, one file per family, and the search that tries them easiest first: the first technique (in
//! [`Technique::ALL`] order) that applies gives the next step.

mod basic;
mod coloring;
mod links;

use super::candidates::Candidates;
use super::step::Step;
use super::technique::{Technique, TechniqueSet};

/// The first step the given technique finds, scanning in its fixed order; `None` when it does not apply.
pub(super) fn find_with(t: Technique, c: &Candidates) -> Option<Step> {
    match t {
        Technique::NakedSingle => basic::naked_single(c),
        Technique::HiddenSingle => basic::hidden_single(c),
        Technique::Pointing => basic::pointing(c),
        Technique::Claiming => basic::claiming(c),
        Technique::NakedPair => basic::naked(c, 2),
        Technique::HiddenPair => basic::hidden(c, 2),
        Technique::NakedTriple => basic::naked(c, 3),
        Technique::HiddenTriple => basic::hidden(c, 3),
        Technique::XWing => basic::fish(c, 2),
        Technique::Skyscraper => links::skyscraper(c),
        Technique::TwoStringKite => links::two_string_kite(c),
        Technique::NakedQuad => basic::naked(c, 4),
        Technique::HiddenQuad => basic::hidden(c, 4),
        Technique::Swordfish => basic::fish(c, 3),
        Technique::XyWing => basic::wing(c, false),
        Technique::WWing => links::w_wing(c),
        Technique::SimpleColoring => coloring::simple_coloring(c),
        Technique::XyzWing => basic::wing(c, true),
        Technique::Jellyfish => basic::fish(c, 4),
    }
}

/// The next step: the easiest technique of `set` that applies. `None` when the solver is stuck.
pub(super) fn find(c: &Candidates, set: TechniqueSet) -> Option<Step> {
    set.iter().find_map(|t| find_with(t, c))
}

/// Each technique on a hand-made candidate grid holding exactly its pattern: what it must find, from the
/// definitions.
#[cfg(test)]
mod patterns {
    use super::*;
    use crate::grid::Grid;
    use crate::human::house::{CellSet, DigitSet, House, HouseSet};
    use crate::human::step::Finding;

    /// 0-based cell of 1-based row and column.
    fn rc(r: usize, c: usize) -> usize {
        (r - 1) * 9 + c - 1
    }

    fn cells(list: &[(usize, usize)]) -> CellSet {
        list.iter()
            .fold(CellSet::EMPTY, |s, &(r, c)| s | CellSet::single(rc(r, c)))
    }

    /// The empty grid (every candidate everywhere) with `digit` removed from `cells`.
    fn without(mut g: Candidates, cells: CellSet, digit: u8) -> Candidates {
        for c in cells.iter() {
            g.eliminate(c, digit);
        }
        g
    }

    fn empty() -> Candidates {
        Candidates::new(&Grid::EMPTY).unwrap()
    }

    fn houses(list: &[House]) -> HouseSet {
        HouseSet(list.iter().fold(0, |m, h| m | HouseSet::single(*h).0))
    }

    #[test]
    fn x_wing_on_two_rows_clears_the_two_columns() {
        // 5 in rows 2 and 7 only at columns 3 and 8.
        let keep = cells(&[(2, 3), (2, 8), (7, 3), (7, 8)]);
        let rows = House::row(1).cells() | House::row(6).cells();
        let g = without(empty(), rows & !keep, 5);
        let step = find_with(Technique::XWing, &g).expect("an X-Wing");
        assert_eq!(
            step.pattern,
            Finding::Fish {
                digit: 5,
                base: houses(&[House::row(1), House::row(6)]),
                cover: houses(&[House::col(2), House::col(7)]),
            }
        );
        let cols = House::col(2).cells() | House::col(7).cells();
        assert_eq!(step.eliminations.cells(5), cols & !rows);
        assert_eq!(step.eliminations.len(), 14);
        assert_eq!(
            step.to_string().split(" => ").next().unwrap(),
            "x-wing on 5 in rows 2,7 (columns 3,8)"
        );
        // Rows 2 and 7 on three columns between them are no X-Wing.
        let keep = cells(&[(2, 3), (2, 8), (7, 3), (7, 5)]);
        let g = without(empty(), rows & !keep, 5);
        assert!(find_with(Technique::XWing, &g).is_none());
    }

    #[test]
    fn pointing_and_claiming_clear_the_rest_of_the_line_or_box() {
        // 3 in box 1 only in row 2: it leaves r2c4..r2c9.
        let g = without(
            empty(),
            cells(&[(1, 1), (1, 2), (1, 3), (3, 1), (3, 2), (3, 3)]),
            3,
        );
        let step = find_with(Technique::Pointing, &g).expect("pointing");
        assert_eq!(
            step.pattern,
            Finding::Intersection {
                digit: 3,
                from: House::boxed(0),
                to: House::row(1)
            }
        );
        assert_eq!(
            step.eliminations.cells(3),
            House::row(1).cells() & !House::boxed(0).cells()
        );
        // 4 in row 1 only in box 1: it leaves the other six cells of box 1.
        let g = without(empty(), House::row(0).cells() & !House::boxed(0).cells(), 4);
        let step = find_with(Technique::Claiming, &g).expect("claiming");
        assert_eq!(
            step.pattern,
            Finding::Intersection {
                digit: 4,
                from: House::row(0),
                to: House::boxed(0)
            }
        );
        assert_eq!(
            step.eliminations.cells(4),
            House::boxed(0).cells() & !House::row(0).cells()
        );
    }

    #[test]
    fn naked_and_hidden_pairs() {
        // r1c1 and r1c5 hold only 1 and 2: those leave the other seven cells of row 1.
        let mut g = empty();
        for cell in [rc(1, 1), rc(1, 5)] {
            for d in 3..=9 {
                g.eliminate(cell, d);
            }
        }
        let step = find_with(Technique::NakedPair, &g).expect("naked pair");
        let pair = cells(&[(1, 1), (1, 5)]);
        assert_eq!(
            step.pattern,
            Finding::Subset {
                house: House::row(0),
                cells: pair,
                digits: DigitSet(0b11)
            }
        );
        for d in [1, 2] {
            assert_eq!(step.eliminations.cells(d), House::row(0).cells() & !pair);
        }
        assert_eq!(step.eliminations.len(), 14);
        // 6 and 7 have only r1c2 and r1c9 in row 1: those cells lose every other digit.
        let pair = cells(&[(1, 2), (1, 9)]);
        let mut g = empty();
        for d in [6, 7] {
            g = without(g, House::row(0).cells() & !pair, d);
        }
        let step = find_with(Technique::HiddenPair, &g).expect("hidden pair");
        assert_eq!(
            step.pattern,
            Finding::Subset {
                house: House::row(0),
                cells: pair,
                digits: DigitSet(0b110_0000)
            }
        );
        assert_eq!(step.eliminations.len(), 14);
        for (cell, d) in step.eliminations.iter() {
            assert!(pair.contains(cell) && d != 6 && d != 7);
        }
        // The two techniques are different views: no naked pair there yet.
        assert!(find_with(Technique::NakedPair, &g).is_none());
    }

    #[test]
    fn xy_wing_removes_z_where_both_pincers_see() {
        // Pivot r1c1 {1,2}, pincers r1c5 {1,3} and r5c1 {2,3}: 3 leaves r5c5.
        let mut g = empty();
        for (cell, keep) in [(rc(1, 1), [1, 2]), (rc(1, 5), [1, 3]), (rc(5, 1), [2, 3])] {
            for d in (1..=9).filter(|d| !keep.contains(d)) {
                g.eliminate(cell, d);
            }
        }
        let step = find_with(Technique::XyWing, &g).expect("xy-wing");
        match step.pattern {
            Finding::Wing {
                pivot,
                pincers,
                digit,
                ..
            } => {
                assert_eq!(pivot, rc(1, 1));
                assert_eq!(pincers, [rc(1, 5), rc(5, 1)]);
                assert_eq!(digit, 3);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(step.eliminations.cells(3), CellSet::single(rc(5, 5)));
        assert_eq!(step.eliminations.len(), 1);
        assert!(find_with(Technique::XyzWing, &g).is_none());
    }

    #[test]
    fn skyscraper_and_kite_clear_what_sees_both_far_ends() {
        // 6 in row 1 only at c1, c5 and in row 5 only at c1, c6: near ends share column 1, so r1c5 or r5c6
        // holds 6.
        let g = without(
            empty(),
            House::row(0).cells() & !cells(&[(1, 1), (1, 5)]),
            6,
        );
        let g = without(g, House::row(4).cells() & !cells(&[(5, 1), (5, 6)]), 6);
        let step = find_with(Technique::Skyscraper, &g).expect("skyscraper");
        assert_eq!(
            step.pattern,
            Finding::Links {
                digit: 6,
                links: [House::row(0), House::row(4)],
                ends: [rc(1, 5), rc(5, 6)]
            }
        );
        assert_eq!(
            step.eliminations.cells(6),
            cells(&[(2, 6), (3, 6), (4, 5), (6, 5)])
        );
        // 2 in row 1 only at c2, c8 and in column 1 only at r3, r7: near ends r1c2 and r3c1 share box 1, so
        // r1c8 or r7c1 holds 2.
        let g = without(
            empty(),
            House::row(0).cells() & !cells(&[(1, 2), (1, 8)]),
            2,
        );
        let g = without(g, House::col(0).cells() & !cells(&[(3, 1), (7, 1)]), 2);
        let step = find_with(Technique::TwoStringKite, &g).expect("kite");
        assert_eq!(
            step.pattern,
            Finding::Links {
                digit: 2,
                links: [House::row(0), House::col(0)],
                ends: [rc(1, 8), rc(7, 1)]
            }
        );
        assert_eq!(step.eliminations.cells(2), cells(&[(7, 8)]));
        assert_eq!(step.eliminations.len(), 1);
    }

    #[test]
    fn w_wing_removes_the_other_digit_where_both_cells_see() {
        // r1c1 and r9c2 hold only 4 and 7; 4 in row 5 only at r5c1 (sees r1c1) and r5c2 (sees r9c2): if neither
        // cell were 7 both would be 4 and row 5 would have no place for 4. So one of them is 7.
        let bivalue = |mut g: Candidates| {
            for cell in [rc(1, 1), rc(9, 2)] {
                for d in (1..=9).filter(|&d| d != 4 && d != 7) {
                    g.eliminate(cell, d);
                }
            }
            g
        };
        let row5 = House::row(4).cells();
        let g = bivalue(without(empty(), row5 & !cells(&[(5, 1), (5, 2)]), 4));
        let step = find_with(Technique::WWing, &g).expect("w-wing");
        assert_eq!(
            step.pattern,
            Finding::WWing {
                cells: [rc(1, 1), rc(9, 2)],
                digits: DigitSet(0b100_1000),
                link: House::row(4),
                digit: 7
            }
        );
        assert_eq!(
            step.eliminations.cells(7),
            cells(&[(1, 2), (2, 2), (3, 2), (7, 1), (8, 1), (9, 1)])
        );
        assert_eq!(step.eliminations.len(), 6);
        // With a third place for 4 in row 5 there is no link and no W-Wing.
        let g = bivalue(without(
            empty(),
            row5 & !cells(&[(5, 1), (5, 2), (5, 9)]),
            4,
        ));
        assert!(find_with(Technique::WWing, &g).is_none());
    }

    #[test]
    fn simple_coloring_traps_and_wraps() {
        // 3: row 1 only at c1, c7; column 7 only at r1, r5; row 5 only at c7, c2. Colours {r1c1, r5c7} and
        // {r1c7, r5c2}; a cell seeing both colours loses 3.
        let g = without(
            empty(),
            House::row(0).cells() & !cells(&[(1, 1), (1, 7)]),
            3,
        );
        let g = without(g, House::col(6).cells() & !cells(&[(1, 7), (5, 7)]), 3);
        let g = without(g, House::row(4).cells() & !cells(&[(5, 7), (5, 2)]), 3);
        let step = find_with(Technique::SimpleColoring, &g).expect("trap");
        assert_eq!(
            step.pattern,
            Finding::Coloring {
                digit: 3,
                colors: [cells(&[(1, 1), (5, 7)]), cells(&[(1, 7), (5, 2)])]
            }
        );
        assert_eq!(
            step.eliminations.cells(3),
            cells(&[(2, 2), (3, 2), (4, 1), (6, 1)])
        );
        // 3: row 1 {c1, c5}, column 5 {r1, r3}, row 3 {c3, c5}, column 3 {r2, r3}: r1c1 and r2c3 share a colour
        // and a box, so that colour is false.
        let mut g = empty();
        for (house, keep) in [
            (House::row(0), cells(&[(1, 1), (1, 5)])),
            (House::col(4), cells(&[(1, 5), (3, 5)])),
            (House::row(2), cells(&[(3, 3), (3, 5)])),
            (House::col(2), cells(&[(2, 3), (3, 3)])),
        ] {
            g = without(g, house.cells() & !keep, 3);
        }
        let step = find_with(Technique::SimpleColoring, &g).expect("wrap");
        assert_eq!(step.eliminations.cells(3), cells(&[(1, 1), (2, 3), (3, 5)]));
    }

    #[test]
    fn singles() {
        let mut g = empty();
        for d in 1..=8 {
            g.eliminate(rc(4, 6), d);
        }
        let step = find_with(Technique::NakedSingle, &g).unwrap();
        assert_eq!(step.placement, Some((rc(4, 6), 9)));
        assert_eq!(step.to_string(), "naked single: r4c6 = 9");
        let g = without(
            empty(),
            House::boxed(8).cells() & !CellSet::single(rc(9, 9)),
            2,
        );
        let step = find_with(Technique::HiddenSingle, &g).unwrap();
        assert_eq!(step.placement, Some((rc(9, 9), 2)));
        assert_eq!(step.to_string(), "hidden single in box 9: r9c9 = 2");
        assert!(find_with(Technique::NakedSingle, &g).is_none());
    }
}

/// Soundness and definition tests shared by the technique families.
#[cfg(test)]
mod soundness {
    use super::*;
    use crate::grid::Grid;
    use crate::human::explainer::{Event, Explainer};

    /// The golden puzzles with their independently obtained solutions.
    fn golden() -> Vec<(Grid, Grid)> {
        let lines = |t: &'static str| {
            t.lines()
                .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
                .map(|l| l.parse::<Grid>().unwrap())
                .collect::<Vec<_>>()
        };
        let p = lines(include_str!("../../../data/puzzles.txt"));
        let s = lines(include_str!("../../../data/puzzles.solutions.txt"));
        assert_eq!(p.len(), s.len());
        p.into_iter().zip(s).collect()
    }

    /// Walks a path and checks every step taken while all outstanding guesses agree with the solution: a
    /// placement must be the solution's digit and an elimination must never remove it. Counts the checked steps
    /// per technique.
    fn walk(puzzle: &Grid, solution: &Grid, set: TechniqueSet, checked: &mut [u32]) {
        let mut on_track: Vec<bool> = Vec::new();
        let mut solved = None;
        for e in Explainer::with_techniques(puzzle, set).unwrap() {
            match e {
                Event::Guess { cell, digit, .. } => on_track.push(solution.get(cell) == digit),
                Event::Backtrack { .. } => {
                    assert!(on_track.contains(&false), "the true path was undone: {e}");
                    on_track.pop();
                }
                Event::Contradiction { .. } => {
                    assert!(
                        on_track.contains(&false),
                        "contradiction on the true path: {e}"
                    );
                }
                Event::Step { step, .. } if on_track.iter().all(|&t| t) => {
                    checked[step.technique.index()] += 1;
                    if let Some((cell, digit)) = step.placement {
                        assert_eq!(solution.get(cell), digit, "{puzzle}: {step}");
                    }
                    for (cell, digit) in step.eliminations.iter() {
                        assert_ne!(solution.get(cell), digit, "{puzzle}: {step}");
                    }
                    assert!(
                        step.placement.is_some() || !step.eliminations.is_empty(),
                        "a step that changes nothing: {step}"
                    );
                }
                Event::Solved { solution: s } => solved = Some(s),
                Event::NoSolution { .. } => panic!("{puzzle}: no solution reported"),
                _ => {}
            }
        }
        assert_eq!(solved, Some(*solution), "{puzzle}");
    }

    /// The same check on the shared benchmark sets (solutions from the solver, which CI checks independently):
    /// the first 1,000 17-clue and 100 forum-hardest and top1465 puzzles, or all with `SUDOKU_SOUNDNESS_ALL=1`.
    /// Skipped with a notice when `../shared/data` is not there.
    #[test]
    fn the_path_is_sound_on_the_shared_sets() {
        let all = std::env::var_os("SUDOKU_SOUNDNESS_ALL").is_some();
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data");
        for (name, limit) in [
            ("puzzles2_17_clue", 1000),
            ("puzzles5_forum_hardest_1905_11+", 100),
            ("puzzles3_magictour_top1465", 100),
        ] {
            let Ok(text) = std::fs::read_to_string(dir.join(name)) else {
                // Straight to standard error, past the harness's capture: a plain `cargo test` shows it.
                let _ = std::io::Write::write_all(
                    &mut std::io::stderr(),
                    format!(
                        "SKIPPED part of human::techniques::tests::the_path_is_sound_on_the_shared_sets: \
                         {name} not found in {}\n",
                        dir.display()
                    )
                    .as_bytes(),
                );
                continue;
            };
            let mut checked = [0u32; Technique::ALL.len()];
            let puzzles = text
                .lines()
                .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
                .take(if all { usize::MAX } else { limit });
            let mut n = 0;
            for line in puzzles {
                let p: Grid = line.parse().unwrap();
                let s = crate::solver::solve_unique(&p).unwrap().solution;
                walk(&p, &s, TechniqueSet::ALL, &mut checked);
                n += 1;
            }
            eprintln!(
                "{name}: {n} puzzles, {} steps on the true path checked",
                checked.iter().sum::<u32>()
            );
        }
    }

    #[test]
    fn every_technique_is_sound_on_the_golden_puzzles() {
        let mut checked = [0u32; Technique::ALL.len()];
        for (p, s) in golden() {
            walk(&p, &s, TechniqueSet::ALL, &mut checked);
            // Each technique alone beside the singles, so that it fires wherever it applies.
            for t in Technique::ALL {
                let set = TechniqueSet::up_to(Technique::HiddenSingle).with(t);
                walk(&p, &s, set, &mut checked);
            }
        }
        for t in Technique::ALL {
            eprintln!("{t}: {}", checked[t.index()]);
            assert!(checked[t.index()] > 0, "{t} was never checked");
        }
    }
}
