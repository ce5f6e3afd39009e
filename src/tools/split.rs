//! `sudoku split`: every record to train, validation or test, every equivalence class wholly on one side, each
//! stratum's classes in their fractions up to rounding ([`split_files`], with the [`Split`] of seed and fractions).
//!
//! Two passes over the inputs, both on the batch pipeline (every core, any format, the same bytes whatever the
//! threads and chunk sizes):
//! 1. each record's class (the 32-byte [`Key`] of its minlex form) is hashed with the seed, and its stratum's text
//!    too; in input order, each record's class hash and stratum number (12 bytes) go to a spill file (in the
//!    output folder, its name removed as soon as it is created), and each stratum's distinct class hashes are gathered ([`Strata`], bounded memory);
//! 2. once every class is known, the strata's classes are ranked into sides ([`Sides`]), and each record, read
//!    again but not canonicalized again, goes to the side its spilled hash and stratum give, in input order (a
//!    [`Router`] reading the spill back).
//!
//! An input that cannot be read twice (standard input, a FIFO or other non-regular file) is first copied whole
//! into a hidden file of the output folder, removed at the end. Memory stays flat: the spill holds 12 bytes per
//! record on disk, and the strata hold at most [`Strata::BUDGET`] hashes.

use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Seek, Write};
use std::path::{Path, PathBuf};

use crate::batch::{self, BatchError, BatchOptions, BatchSummary, InputSpec, Router};
use crate::grid::rng::mix64;
use crate::grid::Grid;
use crate::output::{Target, WorkFile};
use crate::record::{Answer, CsvAnswer, Failure, Job, Observer, Record, TextLayout};

use super::canon::{class_key, Key};
use super::strata::{Sides, Strata};
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

/// The seed and fractions of a split: classes are ranked within their stratum by a hash of the seed and the class
/// (see the module docs and [`Strata`]). With `stratify`, a record's stratum is a CSV or table row's claim field
/// (the column the run reads as the solution column, [`Record::claim`]; a line or grid record, or none, is the
/// empty stratum): the stratum must be the same for every record of a class (a rating or a clue count is; a
/// source name may not be), or a class seen under two strata may fall on two sides.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Split {
    seed: u64,
    test: f64,
    val: f64,
    stratify: bool,
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
            test,
            val: val.min(1.0 - test),
            stratify,
        })
    }

    /// The fraction of classes for test.
    pub fn test_fraction(&self) -> f64 {
        self.test
    }

    /// The fraction of classes for validation.
    pub fn val_fraction(&self) -> f64 {
        self.val
    }

    /// The seeded hash of a class (its key): the order classes are ranked in, the same in every stratum.
    pub fn class_hash(&self, key: &Key) -> u64 {
        let mut h = mix64(self.seed ^ 0x5851_f42d_4c95_7f2d);
        for word in key.to_bytes().chunks_exact(8) {
            h = mix64(h ^ u64::from_le_bytes(word.try_into().expect("8 bytes")));
        }
        h
    }

    /// The hash of a stratum's text (whitespace around it ignored); the same for every text when the split is not
    /// stratified.
    pub fn stratum_hash(&self, stratum: &[u8]) -> u64 {
        let mut h = mix64(0x2545_f491_4f6c_dd1d);
        if self.stratify {
            let stratum = stratum.trim_ascii();
            for piece in stratum.chunks(8) {
                let mut word = [0u8; 8];
                word[..piece.len()].copy_from_slice(piece);
                h = mix64(h ^ u64::from_le_bytes(word));
            }
            h = mix64(h ^ stratum.len() as u64);
        }
        h
    }

    /// The class hash of a puzzle (its class found with [`canon`](super::canon())).
    ///
    /// # Errors
    /// [`Failure::ClashingGivens`] when two givens clash.
    pub fn hash_of(&self, puzzle: &Grid) -> Result<u64, Failure> {
        let key = class_key(puzzle).map_err(Failure::ClashingGivens)?;
        Ok(self.class_hash(&key))
    }

    /// A record's stratum text: a CSV or table row's claim field (a line's claim is a solution, which differs
    /// within a class).
    fn stratum_of<'a>(record: &Record<'a>, layout: TextLayout) -> &'a [u8] {
        match layout {
            TextLayout::CsvField => record.claim.unwrap_or_default(),
            _ => b"",
        }
    }
}

/// The first pass: each record's class hash and stratum hash as its tag (its output goes nowhere).
struct Classes<'a>(&'a Split);

impl Job for Classes<'_> {
    fn run(&self, puzzle: &Grid, _: TextLayout, _: &mut Vec<u8>) -> Result<(), Failure> {
        self.0.hash_of(puzzle).map(|_| ())
    }

    fn run_record(
        &self,
        record: &Record<'_>,
        layout: TextLayout,
        _: &mut Vec<u8>,
    ) -> Result<Answer, Failure> {
        let class = self.0.hash_of(record.puzzle)?;
        let stratum = self.0.stratum_hash(Split::stratum_of(record, layout));
        Ok(Answer::Tagged(
            u128::from(class) << 64 | u128::from(stratum),
        ))
    }

    fn csv_answer(&self) -> CsvAnswer {
        CsvAnswer::Row
    }
}

/// The second pass: each record written whole (its text as read; a CSV row or table row with every field), to the
/// side the router gives. A record whose givens clash fails, as in the first pass, without its class found.
struct Rows;

impl Job for Rows {
    /// Without the record's text: the puzzle itself, `0` for blanks.
    fn run(&self, puzzle: &Grid, layout: TextLayout, out: &mut Vec<u8>) -> Result<(), Failure> {
        puzzle.check_givens().map_err(Failure::ClashingGivens)?;
        puzzle.write(layout, b'0', out);
        Ok(())
    }

    fn run_record(
        &self,
        record: &Record<'_>,
        _: TextLayout,
        out: &mut Vec<u8>,
    ) -> Result<Answer, Failure> {
        record
            .puzzle
            .check_givens()
            .map_err(Failure::ClashingGivens)?;
        out.extend_from_slice(record.text);
        Ok(Answer::Tagged(0))
    }

    fn csv_answer(&self) -> CsvAnswer {
        CsvAnswer::Row
    }
}

/// Bytes of a spilled record: its class hash and stratum number, little-endian.
const SPILLED: usize = 12;

/// The first pass's router: every record's class hash and stratum number to the spill, its class to the strata;
/// the record itself nowhere.
struct Spill<W: Write> {
    strata: Strata,
    out: W,
    records: u64,
}

impl<W: Write> Router for Spill<W> {
    fn part(&mut self, tag: u128) -> io::Result<u8> {
        let (class, stratum) = ((tag >> 64) as u64, tag as u64);
        let number = self
            .strata
            .add(class, stratum)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
        let mut row = [0u8; SPILLED];
        row[..8].copy_from_slice(&class.to_le_bytes());
        row[8..].copy_from_slice(&number.to_le_bytes());
        self.out.write_all(&row)?;
        self.records += 1;
        Ok(u8::MAX)
    }
}

/// The second pass's router: each record's side, from its spilled class hash and stratum.
struct Replay<R: Read> {
    sides: Sides,
    spill: R,
    left: u64,
}

impl<R: Read> Router for Replay<R> {
    fn part(&mut self, _: u128) -> io::Result<u8> {
        if self.left == 0 {
            return Err(io::Error::other(
                "split: the inputs hold more records than on their first reading",
            ));
        }
        self.left -= 1;
        let mut row = [0u8; SPILLED];
        self.spill.read_exact(&mut row)?;
        let class = u64::from_le_bytes(row[..8].try_into().expect("8 bytes"));
        let stratum = u32::from_le_bytes(row[8..].try_into().expect("4 bytes"));
        Ok(self.sides.side(class, stratum) as u8)
    }
}

/// Hidden files of a split in its output folder ([`WorkFile`]s: removed when dropped, or by a signal's clean-up).
struct Scratch(Vec<WorkFile>);

impl Scratch {
    /// A new file `.sudoku-split-WHAT.PID.N` in `dir`, open for reading and writing, listed for removal.
    fn create(&mut self, dir: &Path, what: &str) -> io::Result<(PathBuf, File)> {
        let (work, file) = WorkFile::create(dir, &format!("split-{what}"))?;
        let path = work.path().to_path_buf();
        self.0.push(work);
        Ok((path, file))
    }

    /// `spec` as an input that can be read twice: standard input and a non-regular file copied into a hidden
    /// file (named in messages as the input was).
    fn readable_twice(&mut self, dir: &Path, spec: InputSpec) -> Result<InputSpec, BatchError> {
        let (name, mut from): (String, Box<dyn Read>) = match &spec {
            InputSpec::Stdin => ("<stdin>".into(), Box::new(io::stdin().lock())),
            InputSpec::Path(p) if std::fs::metadata(p).is_ok_and(|m| !m.is_file()) => {
                let name = crate::record::display_name(p.as_os_str().as_encoded_bytes());
                match File::open(p) {
                    Ok(f) => (name, Box::new(f)),
                    Err(source) => return Err(BatchError::Open { name, source }),
                }
            }
            _ => return Ok(spec),
        };
        let read = |source| BatchError::Read {
            name: name.clone(),
            source,
        };
        let (path, mut file) = self.create(dir, "input").map_err(read)?;
        io::copy(&mut from, &mut file).map_err(read)?;
        Ok(InputSpec::Named { name, path })
    }
}

/// Splits the records of `inputs` into `targets` (train, test and, when there are three, validation: the part
/// numbers of [`Side`](super::Side)) with `split` (see the module docs), using `dir` (which must exist; the outputs' folder)
/// for its hidden files. Every record goes whole, as read, to its side, in input order; a record that fails
/// (malformed, clashing givens) is told to `observer`, counted and goes nowhere. Returns the first pass's summary
/// (with the time and output bytes of both) and the records written to each target.
///
/// # Errors
/// As [`batch::run_routed`]; [`BatchError::Route`] when the spill cannot be written or read, or there are more
/// strata than a split takes ([`StrataError`](super::StrataError)).
pub fn split_files(
    inputs: Vec<InputSpec>,
    targets: &[Target],
    split: &Split,
    dir: &Path,
    opts: &BatchOptions,
    observer: &mut dyn Observer,
) -> Result<(BatchSummary, Vec<u64>), BatchError> {
    let mut scratch = Scratch(Vec::new());
    let inputs = inputs
        .into_iter()
        .map(|spec| scratch.readable_twice(dir, spec))
        .collect::<Result<Vec<_>, _>>()?;
    let spill_err = BatchError::Route;
    let (spill_path, spill_file) = scratch.create(dir, "spill").map_err(spill_err)?;
    // Unnamed from now on: nothing is left of it whatever ends the process.
    std::fs::remove_file(&spill_path).map_err(spill_err)?;
    let (pass_path, _) = scratch.create(dir, "pass").map_err(spill_err)?;
    let _ = std::fs::remove_file(&pass_path);
    let mut spill = Spill {
        strata: Strata::new(),
        out: BufWriter::with_capacity(1 << 20, &spill_file),
        records: 0,
    };
    let started = std::time::Instant::now();
    let first = batch::run_routed_by(
        inputs.clone(),
        &[Target::File(pass_path)],
        &Classes(split),
        &mut spill,
        opts,
        observer,
    )?;
    let Spill {
        strata,
        out,
        records,
    } = spill;
    out.into_inner()
        .map_err(io::IntoInnerError::into_error)
        .map_err(spill_err)?;
    let mut summary = first.0;
    if summary.stopped {
        return Ok((summary, vec![0; targets.len()]));
    }
    let mut read = &spill_file;
    read.seek(io::SeekFrom::Start(0)).map_err(spill_err)?;
    let mut replay = Replay {
        sides: strata.sides(split.test_fraction(), split.val_fraction()),
        spill: BufReader::with_capacity(1 << 20, read),
        left: records,
    };
    let opts = BatchOptions {
        fail_fast: false,
        ..opts.clone()
    };
    let (second, written) =
        batch::run_routed_by(inputs, targets, &Rows, &mut replay, &opts, &mut ())?;
    if replay.left != 0 || second.counts != summary.counts {
        return Err(BatchError::Route(io::Error::other(
            "split: the inputs changed between their two readings",
        )));
    }
    summary.seconds = started.elapsed().as_secs_f64();
    summary.bytes_out = second.bytes_out;
    Ok((summary, written))
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
    fn equivalent_records_hash_alike_and_strata_only_when_stratified() {
        let split = Split::new(3, 0.2, 0.1, true).unwrap();
        let puzzle = g(HARD);
        let h = split.hash_of(&puzzle).unwrap();
        for k in 0..50 {
            let copy = Transform::random(17, k).apply(&puzzle);
            assert_eq!(split.hash_of(&copy).unwrap(), h);
        }
        assert_ne!(
            Split::new(4, 0.2, 0.1, true)
                .unwrap()
                .hash_of(&puzzle)
                .unwrap(),
            h
        );
        assert_eq!(split.stratum_hash(b" 3.5 "), split.stratum_hash(b"3.5"));
        assert_ne!(split.stratum_hash(b"3.5"), split.stratum_hash(b"3.6"));
        let plain = Split::new(3, 0.2, 0.1, false).unwrap();
        assert_eq!(plain.stratum_hash(b"3.5"), plain.stratum_hash(b""));
    }
}
