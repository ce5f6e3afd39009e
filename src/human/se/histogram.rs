//! [`SeHistogram`]: how many puzzles of a run fall in each ER band of SE's scale, printed at the end of
//! `rate --scale se`.

use std::fmt;

use super::{SeRating, Tenths, LADDER_TOP};

/// Counts of SE ratings per ER band (below 2.0, 2.x, … 10.x, 11 and up) and above the ladder; printed at the end
/// of `rate --scale se`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SeHistogram {
    /// Puzzles per band: ER 0.0-1.9 (index 1; 0 for a full grid's 0.0), 2.0-2.9, …, 11.0 and up (11), above the
    /// ladder (12).
    pub bands: [u64; SeHistogram::BANDS],
    /// Records that could not be rated.
    pub failed: u64,
    /// The ratings above the ladder are above this (the top of the implemented ladder when 0).
    pub ceiling: Tenths,
}

impl SeHistogram {
    /// Number of bands: ER 0.0-1.9 (index 1; 0 for a full grid's 0.0), 2.0-2.9, …, 11.0 and up (11), above the
    /// ladder (12).
    pub(crate) const BANDS: usize = 13;

    /// The band of a rating.
    pub(crate) fn band(r: &SeRating) -> usize {
        match r.er {
            None => 12,
            Some(Tenths(0)) => 0,
            Some(t) => usize::from(t.0 / 10).clamp(1, 11),
        }
    }

    /// Puzzles rated (complete or above the ladder).
    pub fn rated(&self) -> u64 {
        self.bands.iter().sum()
    }
}

impl fmt::Display for SeHistogram {
    /// One line per band that has puzzles, with counts, shares and bars, then the failures.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let total = self.rated().max(1);
        let bar = |n: u64| "#".repeat(((n * 40 + total / 2) / total) as usize);
        writeln!(f, "ER            puzzles   share")?;
        for (i, &n) in self.bands.iter().enumerate() {
            if n == 0 {
                continue;
            }
            let name = match i {
                0 => "full grid".to_string(),
                1 => "1.0-1.9".to_string(),
                11 => "11.0 and up".to_string(),
                12 if self.ceiling == Tenths(0) => format!("above {LADDER_TOP}"),
                12 => format!("above {}", self.ceiling),
                _ => format!("{i}.0-{i}.9"),
            };
            let share = 100.0 * n as f64 / total as f64;
            writeln!(f, "{name:<12} {n:>8} {share:>6.1}%  {}", bar(n))?;
        }
        write!(f, "failed records {}", self.failed)
    }
}
