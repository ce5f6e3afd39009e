//! What a run found: the counts of records and failures, and the summary of a whole run (as JSON for machines;
//! the binary words it for people).

use crate::record::FailureKind;

/// Records and failures counted over a run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Records read (each has one output record).
    pub records: u64,
    /// Failed records by kind, in the order of [`FailureKind::ALL`].
    pub failed: [u64; FailureKind::COUNT],
    /// Records left out of the output as repeats of an earlier record (`dedupe`).
    pub dropped: u64,
}

impl Counts {
    /// Records with an answer in the output (not failed, not dropped).
    pub fn solved(&self) -> u64 {
        self.records - self.failures() - self.dropped
    }

    /// Records without an answer.
    pub fn failures(&self) -> u64 {
        self.failed.iter().sum()
    }

    /// Failed records of one kind.
    pub(crate) fn of(&self, kind: FailureKind) -> u64 {
        self.failed[kind.index()]
    }
}

/// The outcome of a whole run.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BatchSummary {
    /// Records and failures.
    pub counts: Counts,
    /// Wall time of the run.
    pub seconds: f64,
    /// Worker threads used.
    pub threads: usize,
    /// Inputs read.
    pub inputs: usize,
    /// Input bytes consumed.
    pub bytes_in: u64,
    /// Output bytes written.
    pub bytes_out: u64,
    /// True when `--fail-fast` stopped the run at the first failed record.
    pub stopped: bool,
}

impl BatchSummary {
    /// Records per second of wall time.
    pub(crate) fn puzzles_per_second(&self) -> f64 {
        if self.seconds > 0.0 {
            self.counts.records as f64 / self.seconds
        } else {
            0.0
        }
    }

    /// The summary for machines: one JSON object on one line (serde_json), with every failure kind.
    pub fn to_json(&self) -> String {
        let c = &self.counts;
        let failures: serde_json::Map<String, serde_json::Value> = FailureKind::ALL
            .iter()
            .map(|k| (k.key().to_string(), c.of(*k).into()))
            .collect();
        let json = JsonSummary {
            records: c.records,
            solved: c.solved(),
            failed: c.failures(),
            failures,
            dropped: c.dropped,
            seconds: (self.seconds * 1e6).round() / 1e6,
            puzzles_per_second: (self.puzzles_per_second() * 10.0).round() / 10.0,
            threads: self.threads,
            inputs: self.inputs,
            bytes_in: self.bytes_in,
            bytes_out: self.bytes_out,
            stopped: self.stopped,
        };
        serde_json::to_string(&json).expect("a summary is always valid JSON")
    }
}

/// The fields of [`BatchSummary::to_json`], in order.
#[derive(serde::Serialize)]
struct JsonSummary {
    records: u64,
    solved: u64,
    failed: u64,
    failures: serde_json::Map<String, serde_json::Value>,
    dropped: u64,
    seconds: f64,
    puzzles_per_second: f64,
    threads: usize,
    inputs: usize,
    bytes_in: u64,
    bytes_out: u64,
    stopped: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary() -> BatchSummary {
        BatchSummary {
            counts: Counts {
                records: 10,
                failed: [1, 0, 2, 0, 0],
                dropped: 0,
            },
            seconds: 2.0,
            threads: 2,
            inputs: 1,
            bytes_in: 820,
            bytes_out: 820,
            stopped: false,
        }
    }

    #[test]
    fn json_summary_has_every_kind() {
        let j = summary().to_json();
        assert!(j.starts_with("{\"records\":10,\"solved\":7,\"failed\":3,\"failures\":{\"malformed\":1,\"clashing_givens\":0,\"no_solution\":2,\"several_solutions\":0,\"wrong_solution\":0},\"dropped\":0,"), "{j}");
        let v: serde_json::Value = serde_json::from_str(&j).unwrap();
        assert_eq!(v["seconds"], 2.0);
        assert_eq!(v["puzzles_per_second"], 5.0);
        assert_eq!(v["stopped"], false);
        assert!(!j.contains('\n'));
    }
}
