//! The techniques, one file per family, and the search that tries them easiest first: the first technique (in
//! [`Technique::ALL`] order) that applies gives the next step.

mod fish;
mod intersections;
mod singles;
mod subsets;
mod wings;

use super::candidates::Candidates;
use super::step::{Step, Technique};

/// A set of techniques the solver may use (for example, everything but X-Wing).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct TechniqueSet(u32);

impl TechniqueSet {
    /// Every technique.
    pub const ALL: TechniqueSet = TechniqueSet((1 << Technique::ALL.len()) - 1);
    /// No technique: the solver can only guess.
    pub const NONE: TechniqueSet = TechniqueSet(0);

    /// The techniques up to and including `t`, in difficulty order.
    pub const fn up_to(t: Technique) -> TechniqueSet {
        TechniqueSet((1 << (t.index() + 1)) - 1)
    }

    /// This set without `t`.
    pub const fn without(self, t: Technique) -> TechniqueSet {
        TechniqueSet(self.0 & !(1 << t.index()))
    }

    /// This set with `t`.
    pub const fn with(self, t: Technique) -> TechniqueSet {
        TechniqueSet(self.0 | 1 << t.index())
    }

    /// True when `t` is in the set.
    pub const fn contains(self, t: Technique) -> bool {
        self.0 >> t.index() & 1 != 0
    }

    /// The techniques, easiest first.
    pub fn iter(self) -> impl Iterator<Item = Technique> {
        Technique::ALL
            .into_iter()
            .filter(move |&t| self.contains(t))
    }
}

impl std::fmt::Debug for TechniqueSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set()
            .entries(self.iter().map(|t| t.name()))
            .finish()
    }
}

/// The first step the given technique finds, scanning in its fixed order; `None` when it does not apply.
pub fn find_with(t: Technique, c: &Candidates) -> Option<Step> {
    match t {
        Technique::NakedSingle => singles::naked_single(c),
        Technique::HiddenSingle => singles::hidden_single(c),
        Technique::Pointing => intersections::pointing(c),
        Technique::Claiming => intersections::claiming(c),
        Technique::NakedPair => subsets::naked(c, 2),
        Technique::HiddenPair => subsets::hidden(c, 2),
        Technique::NakedTriple => subsets::naked(c, 3),
        Technique::HiddenTriple => subsets::hidden(c, 3),
        Technique::XWing => fish::fish(c, 2),
        Technique::NakedQuad => subsets::naked(c, 4),
        Technique::HiddenQuad => subsets::hidden(c, 4),
        Technique::Swordfish => fish::fish(c, 3),
        Technique::XyWing => wings::xy_wing(c),
        Technique::XyzWing => wings::xyz_wing(c),
        Technique::Jellyfish => fish::fish(c, 4),
    }
}

/// The next step: the easiest technique of `set` that applies. `None` when the solver is stuck.
pub fn find(c: &Candidates, set: TechniqueSet) -> Option<Step> {
    set.iter().find_map(|t| find_with(t, c))
}

/// Calls `f` on each `k`-combination of `0..n` (`k` at most 4) in lexicographic order until it returns `Some`.
fn first_combination<T>(n: usize, k: usize, mut f: impl FnMut(&[usize]) -> Option<T>) -> Option<T> {
    if k == 0 || k > n || k > 4 {
        return None;
    }
    let mut idx = [0, 1, 2, 3];
    loop {
        if let Some(t) = f(&idx[..k]) {
            return Some(t);
        }
        // Advance to the next combination.
        let mut i = k;
        while i > 0 && idx[i - 1] == n - k + (i - 1) {
            i -= 1;
        }
        if i == 0 {
            return None;
        }
        idx[i - 1] += 1;
        for j in i..k {
            idx[j] = idx[j - 1] + 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combinations_are_enumerated_once_each_in_order() {
        let mut seen = Vec::new();
        let none: Option<()> = first_combination(5, 3, |c| {
            seen.push(c.to_vec());
            None
        });
        assert!(none.is_none());
        assert_eq!(seen.len(), 10);
        assert_eq!(seen[0], vec![0, 1, 2]);
        assert_eq!(seen[9], vec![2, 3, 4]);
        let mut sorted = seen.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted, seen);
        assert_eq!(
            first_combination(4, 2, |c| (c == [1, 3]).then_some(7)),
            Some(7)
        );
        assert!(first_combination(2, 3, |_| Some(())).is_none());
    }

    #[test]
    fn technique_sets() {
        let s = TechniqueSet::up_to(Technique::HiddenSingle);
        assert_eq!(
            s.iter().collect::<Vec<_>>(),
            vec![Technique::NakedSingle, Technique::HiddenSingle]
        );
        let no_x = TechniqueSet::ALL.without(Technique::XWing);
        assert!(!no_x.contains(Technique::XWing));
        assert!(no_x.contains(Technique::Swordfish));
        assert_eq!(no_x.with(Technique::XWing), TechniqueSet::ALL);
        assert_eq!(TechniqueSet::NONE.iter().count(), 0);
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
