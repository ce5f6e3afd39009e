//! The exact class fractions of `split`: the distinct seeded class hashes of each stratum ([`Strata`], gathered
//! record by record in input order, in bounded memory) and the sides they rank into ([`Sides`]).
//!
//! Within a stratum of `n` distinct classes, the classes are ranked by their seeded hash (a uniformly random order
//! drawn from the seed): the first `k_test` go to test, the next `k_val` to validation, the rest to train, with the
//! counts rounded cumulatively over the strata in order of first appearance (`k_test` of a stratum is
//! `round(F_test · (N + n)) - round(F_test · N)`, `N` the classes of the ranked strata before it; likewise for
//! test and validation together). Each stratum is then within one class of its fractions (two for validation),
//! and so is the whole set: rounding does not pile up over many small strata.
//!
//! Memory: a stratum holds its distinct hashes (8 bytes each) only up to [`Strata::CAP`]; past it the stratum lets them
//! go and a class's side is its hash read as a fraction of 2⁶⁴ against the thresholds (test below `F_test`,
//! validation below `F_test + F_val`), whose spread, a standard deviation of `sqrt(F (1 - F) / n)` for `n`
//! classes, is then under 0.14%: 1% is more than seven of them, odds of well under one in a billion. All
//! strata together hold at most [`Strata::BUDGET`] hashes: past that, the largest ranked strata turn to the thresholds
//! first. Strata are at most [`Strata::MAX_STRATA`].

use std::collections::HashMap;

/// Hashes below which a stratum's list is not compacted.
const SMALL: usize = 1024;

/// A side of a split; its number is the output part the record goes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// The training set (part 0).
    Train = 0,
    /// The test set (part 1).
    Test = 1,
    /// The validation set (part 2).
    Val = 2,
}

impl Side {
    /// The sides in part order.
    pub const ALL: [Side; 3] = [Side::Train, Side::Test, Side::Val];

    /// The side's name, as its output file is named (`train`, `test`, `val`).
    pub fn name(self) -> &'static str {
        match self {
            Side::Train => "train",
            Side::Test => "test",
            Side::Val => "val",
        }
    }
}

/// More strata than [`Strata::MAX_STRATA`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
#[error(
    "more than {max} strata (distinct values of the stratify column): a stratum is a value many classes share, \
     such as a rating or a source"
)]
pub struct StrataError {
    /// The most strata a split takes.
    pub max: usize,
}

/// One stratum's hashes: every class hash met (with repeats until compacted), or none once it turned to thresholds.
#[derive(Default)]
struct Stratum {
    hashes: Vec<u64>,
    /// Distinct hashes at the last compaction.
    distinct: usize,
    /// Split by thresholds (more than [`Strata::CAP`] classes, or let go to keep within [`Strata::BUDGET`]).
    over: bool,
}

impl Stratum {
    /// Sorts and dedups the hashes; turns to thresholds past [`Strata::CAP`]. Returns the hashes let go.
    fn compact(&mut self) -> usize {
        let before = self.hashes.len();
        self.hashes.sort_unstable();
        self.hashes.dedup();
        self.distinct = self.hashes.len();
        if self.distinct > Strata::CAP {
            self.let_go();
        }
        before - self.hashes.len()
    }

    fn let_go(&mut self) {
        self.over = true;
        self.hashes = Vec::new();
        self.distinct = 0;
    }
}

/// The class hashes of a split's records, by stratum, gathered in input order.
#[derive(Default)]
pub struct Strata {
    /// A stratum's number (order of first appearance) by its hash.
    index: HashMap<u64, u32>,
    strata: Vec<Stratum>,
    /// Hashes held over all strata.
    held: usize,
}

impl Strata {
    /// Distinct classes a stratum ranks exactly; a stratum with more is split by thresholds.
    pub const CAP: usize = 1 << 17;

    /// Hashes held over all strata at most.
    pub const BUDGET: usize = 1 << 23;

    /// Strata (distinct values of the stratify column) at most.
    pub const MAX_STRATA: usize = 1 << 16;

    /// No records yet.
    pub fn new() -> Strata {
        Strata::default()
    }

    /// Adds a record of class hash `class` (see [`Split::class_hash`](super::Split::class_hash)) in the stratum
    /// of hash `stratum` (see [`Split::stratum_hash`](super::Split::stratum_hash)); returns the stratum's number, from 0 in order of first appearance.
    ///
    /// # Errors
    /// [`StrataError`] when this is a stratum more than [`Strata::MAX_STRATA`].
    pub fn add(&mut self, class: u64, stratum: u64) -> Result<u32, StrataError> {
        let next = self.strata.len();
        let number = match self.index.get(&stratum) {
            Some(&n) => n,
            None if next >= Strata::MAX_STRATA => {
                return Err(StrataError {
                    max: Strata::MAX_STRATA,
                })
            }
            None => {
                self.index.insert(stratum, next as u32);
                self.strata.push(Stratum::default());
                next as u32
            }
        };
        let s = &mut self.strata[number as usize];
        if !s.over {
            s.hashes.push(class);
            self.held += 1;
            if s.hashes.len() >= (2 * s.distinct).max(SMALL) {
                self.held -= s.compact();
            }
            if self.held > Strata::BUDGET {
                self.shrink();
            }
        }
        Ok(number)
    }

    /// Compacts every stratum, then lets the largest go until at most half the budget is held.
    fn shrink(&mut self) {
        for s in &mut self.strata {
            self.held -= s.compact();
        }
        while self.held > Strata::BUDGET / 2 {
            let Some(largest) = self.strata.iter_mut().max_by_key(|s| s.hashes.len()) else {
                break;
            };
            self.held -= largest.hashes.len();
            largest.let_go();
        }
    }

    /// The sides of the classes gathered, for these fractions of test and validation (see the module docs; a
    /// [`Split`](super::Split)'s fractions).
    pub fn sides(mut self, test: f64, val: f64) -> Sides {
        let both = test + val;
        let mut before = 0u64;
        let bounds = self
            .strata
            .iter_mut()
            .map(|s| {
                s.compact();
                if s.over {
                    return (threshold(test), threshold(both));
                }
                let n = s.hashes.len() as u64;
                let count = |f: f64| {
                    let at = |classes: u64| (f * classes as f64).round() as u64;
                    at(before + n).saturating_sub(at(before)).min(n) as usize
                };
                let bound = |k: usize| s.hashes.get(k).map_or(1u128 << 64, |&h| u128::from(h));
                let (k_test, k_both) = (count(test), count(both));
                before += n;
                (bound(k_test), bound(k_both.max(k_test)))
            })
            .collect();
        Sides { bounds }
    }
}

/// `f` of 2⁶⁴ (all of it for 1 or more).
fn threshold(f: f64) -> u128 {
    if f >= 1.0 {
        1 << 64
    } else {
        u128::from((f * 18_446_744_073_709_551_616.0) as u64)
    }
}

/// The side of each class, by its hash and stratum: per stratum, the hashes below which a class is in test, and
/// below which it is in test or validation.
#[derive(Debug, Clone)]
pub struct Sides {
    bounds: Vec<(u128, u128)>,
}

impl Sides {
    /// The side of a class of hash `class` in stratum number `stratum` (as [`Strata::add`] numbered it).
    pub fn side(&self, class: u64, stratum: u32) -> Side {
        let (test, val) = self.bounds[stratum as usize];
        let h = u128::from(class);
        if h < test {
            Side::Test
        } else if h < val {
            Side::Val
        } else {
            Side::Train
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::rng::mix64;

    /// Test and validation fractions.
    struct Split(f64, f64);

    /// Sides of `n` distinct classes in one stratum, each met `1 + i % 3` times.
    fn counts(split: &Split, n: u64, stratum: u64) -> [u64; 3] {
        let mut strata = Strata::new();
        let mut records = Vec::new();
        for i in 0..n {
            let h = mix64(i ^ 0xabc);
            for _ in 0..1 + i % 3 {
                records.push((h, strata.add(h, stratum).unwrap()));
            }
        }
        let sides = strata.sides(split.0, split.1);
        let mut seen = HashMap::new();
        let mut c = [0u64; 3];
        for (h, s) in records {
            let side = sides.side(h, s);
            if let Some(before) = seen.insert(h, side) {
                assert_eq!(before, side, "a class on one side");
            } else {
                c[side as usize] += 1;
            }
        }
        c
    }

    #[test]
    fn a_ranked_stratum_holds_its_fractions_to_the_class() {
        let split = Split(0.2, 0.1);
        for n in [1, 7, 300, 2606, 20_000] {
            let [train, test, val] = counts(&split, n, 5);
            assert_eq!(train + test + val, n);
            assert!(
                (test as f64 - 0.2 * n as f64).abs() <= 1.0,
                "{n}: test {test}"
            );
            assert!((val as f64 - 0.1 * n as f64).abs() <= 2.0, "{n}: val {val}");
        }
        let [train, test, _] = counts(&Split(1.0, 0.0), 50, 0);
        assert_eq!((train, test), (0, 50));
    }

    #[test]
    fn a_stratum_past_the_cap_falls_back_to_thresholds_within_a_percent() {
        let split = Split(0.3, 0.0);
        let n = Strata::CAP as u64 + 5000;
        let [train, test, val] = counts(&split, n, 9);
        assert_eq!((train + test, val), (n, 0));
        assert!((test as f64 / n as f64 - 0.3).abs() < 0.01, "{test}");
    }

    #[test]
    fn small_strata_round_cumulatively_and_too_many_are_refused() {
        // 1,000 strata of 2 classes: alone each would round 0.2 * 2 to 0; together they hold 20% of the classes.
        let mut strata = Strata::new();
        let mut records = Vec::new();
        for i in 0..2000u64 {
            let h = mix64(i);
            records.push((h, strata.add(h, i / 2).unwrap()));
        }
        let sides = strata.sides(0.2, 0.0);
        let test = records
            .iter()
            .filter(|&&(h, s)| sides.side(h, s) == Side::Test)
            .count();
        assert_eq!(test, 400);
        let mut many = Strata::new();
        for i in 0..Strata::MAX_STRATA as u64 {
            many.add(i, i).unwrap();
        }
        assert!(many.add(0, 0).is_ok());
        assert_eq!(
            many.add(0, u64::MAX),
            Err(StrataError {
                max: Strata::MAX_STRATA
            })
        );
    }
}
