//! `sudoku split`: the [`Split`] job, which sends each record to train, validation or test by a seeded hash of its
//! canonical form, so that every equivalence class lands wholly on one side.
//!
//! A record's side is a pure function of the seed, its class (the 32-byte [`Key`] of its minlex form) and, when
//! stratified, its stratum's text: it depends on no other record, so the split is streaming, holds nothing per
//! record, and is the same for a seed whatever the thread count or chunk size. The hash is SplitMix64's mixer
//! folded over those bytes; its top 64 bits read as a fraction `u` in `[0, 1)` give the side: test when
//! `u < test`, validation when `u < test + val`, train otherwise. Over many classes each side thus holds its
//! fraction of the classes, with the spread of independent draws (a standard deviation of `sqrt(f (1 - f) / n)`
//! for `n` classes).

use crate::grid::rng::mix64;
use crate::grid::Grid;
use crate::record::{Answer, CsvAnswer, Failure, Job, Record, TextLayout};

use super::canon::{class_key, Key};

/// A side of a split; its number is the output part the record goes to ([`Answer::Part`]).
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

/// Fractions of a split that are not fractions: each must be in `[0, 1]` and together at most 1.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
#[error(
    "split fractions must each be between 0 and 1 and add up to at most 1: test {test}, val {val}"
)]
pub struct FractionError {
    /// The test fraction asked for.
    pub test: f64,
    /// The validation fraction asked for.
    pub val: f64,
}

/// `sudoku split`: each record written whole (its text as read; a CSV row or table row with every field) to the
/// side its class falls on (see the module docs). A record whose givens clash has no class and fails
/// ([`Failure::ClashingGivens`]). With `stratify`, the stratum is a CSV or table row's claim field (the column
/// the run reads as the solution column, [`Record::claim`]; a line or grid record, or none, is the empty stratum), and the side is drawn for the
/// class within its stratum: the stratum must be the same for every record of a class (a rating or a clue count
/// is; a source name may not be), or a class seen under two strata may fall on two sides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Split {
    seed: u64,
    /// `u` below this: test.
    test: u64,
    /// `u` below this (and not test): validation.
    val: u64,
    stratify: bool,
}

/// `f` of 2⁶⁴, saturated: the threshold of a fraction.
fn threshold(f: f64) -> u64 {
    if f >= 1.0 {
        u64::MAX
    } else {
        (f * 18_446_744_073_709_551_616.0) as u64
    }
}

impl Split {
    /// A split with these fractions of classes for test and validation (the rest is train), drawn from `seed`;
    /// `stratify` reads each record's stratum from its claim field.
    ///
    /// # Errors
    /// A [`FractionError`] when a fraction is outside `[0, 1]` or they add up to more than 1.
    pub fn new(seed: u64, test: f64, val: f64, stratify: bool) -> Result<Split, FractionError> {
        let bad = |f: f64| !(0.0..=1.0).contains(&f);
        if bad(test) || bad(val) || test + val > 1.0 + 1e-12 {
            return Err(FractionError { test, val });
        }
        Ok(Split {
            seed,
            test: threshold(test),
            val: threshold((test + val).min(1.0)),
            stratify,
        })
    }

    /// The side of a class (`key`) in `stratum` (ignored unless the split is stratified).
    pub fn side(&self, key: &Key, stratum: &[u8]) -> Side {
        let mut h = mix64(self.seed ^ 0x5851_f42d_4c95_7f2d);
        if self.stratify {
            for piece in stratum.chunks(8) {
                let mut word = [0u8; 8];
                word[..piece.len()].copy_from_slice(piece);
                h = mix64(h ^ u64::from_le_bytes(word));
            }
            h = mix64(h ^ stratum.len() as u64);
        }
        for word in key.to_bytes().chunks_exact(8) {
            h = mix64(h ^ u64::from_le_bytes(word.try_into().expect("8 bytes")));
        }
        if h < self.test {
            Side::Test
        } else if h < self.val {
            Side::Val
        } else {
            Side::Train
        }
    }

    /// The side of a record's puzzle (its class found with [`canon`](super::canon())).
    ///
    /// # Errors
    /// [`Failure::ClashingGivens`] when two givens clash.
    pub fn side_of(&self, puzzle: &Grid, stratum: &[u8]) -> Result<Side, Failure> {
        let key = class_key(puzzle).map_err(Failure::ClashingGivens)?;
        Ok(self.side(&key, stratum))
    }
}

impl Job for Split {
    /// Without the record's text: the puzzle itself, `0` for blanks (the side is given by [`Job::run_record`]).
    fn run(&self, puzzle: &Grid, layout: TextLayout, out: &mut Vec<u8>) -> Result<(), Failure> {
        puzzle.write(layout, b'0', out);
        Ok(())
    }

    fn run_record(
        &self,
        record: &Record<'_>,
        layout: TextLayout,
        out: &mut Vec<u8>,
    ) -> Result<Answer, Failure> {
        // A column's value: a CSV or table row's (a line's claim is a solution, which differs within a class).
        let stratum = match layout {
            TextLayout::CsvField => record.claim.unwrap_or_default().trim_ascii(),
            _ => b"",
        };
        let side = self.side_of(record.puzzle, stratum)?;
        out.extend_from_slice(record.text);
        Ok(Answer::Part(side as u8))
    }

    fn csv_answer(&self) -> CsvAnswer {
        CsvAnswer::Row
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::samples::{g, HARD};
    use crate::grid::Transform;

    #[test]
    fn fractions_out_of_range_are_refused() {
        assert!(Split::new(0, 0.2, 0.1, false).is_ok());
        assert!(Split::new(0, 1.0, 0.0, false).is_ok());
        for (t, v) in [(-0.1, 0.0), (0.7, 0.4), (1.5, 0.0), (f64::NAN, 0.1)] {
            assert!(Split::new(0, t, v, false).is_err(), "{t} {v}");
        }
    }

    #[test]
    fn equivalent_records_fall_on_one_side_and_sides_hold_their_fractions() {
        let split = Split::new(3, 0.2, 0.1, false).unwrap();
        let puzzle = g(HARD);
        let side = split.side_of(&puzzle, b"").unwrap();
        for k in 0..50 {
            let copy = Transform::random(17, k).apply(&puzzle);
            assert_eq!(split.side_of(&copy, b"").unwrap(), side);
        }
        // Many classes: keys of distinct forms (a full first row fixes nothing else, so these are canonical).
        let mut counts = [0u32; 3];
        let n = 20_000u32;
        for i in 0..n {
            let mut cells = [0u8; 81];
            cells[..9].copy_from_slice(&[1, 2, 3, 4, 5, 6, 7, 8, 9]);
            let mut x = i;
            for c in cells[72..].iter_mut() {
                *c = (x % 10) as u8;
                x /= 10;
            }
            let key = Key::of(&Grid::from_cells(cells).unwrap()).unwrap();
            counts[split.side(&key, b"") as usize] += 1;
        }
        let frac = |s: Side| f64::from(counts[s as usize]) / f64::from(n);
        assert!((frac(Side::Test) - 0.2).abs() < 0.01, "{counts:?}");
        assert!((frac(Side::Val) - 0.1).abs() < 0.01, "{counts:?}");
    }
}
