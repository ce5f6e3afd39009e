//! What a run found: the counts of records and failures, and the summary of a whole run as text or JSON.

use crate::record::FailureKind;

/// Records and failures counted over a run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Records read (each has one output record).
    pub records: u64,
    /// Failed records by [`FailureKind::index`].
    pub failed: [u64; FailureKind::COUNT],
}

impl Counts {
    /// Records with an answer.
    pub fn solved(&self) -> u64 {
        self.records - self.failures()
    }

    /// Records without an answer.
    pub fn failures(&self) -> u64 {
        self.failed.iter().sum()
    }

    /// Failed records of one kind.
    pub fn of(&self, kind: FailureKind) -> u64 {
        self.failed[kind.index()]
    }
}

/// The outcome of a whole run.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
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

impl Summary {
    /// Records per second of wall time.
    pub fn puzzles_per_second(&self) -> f64 {
        if self.seconds > 0.0 {
            self.counts.records as f64 / self.seconds
        } else {
            0.0
        }
    }

    /// One line for people: `N records, N solved, N <kind>...; S s, R puzzles/s`.
    pub fn to_text(&self) -> String {
        let c = &self.counts;
        let noun = if c.records == 1 { "record" } else { "records" };
        let mut s = format!("{} {noun}, {} solved", c.records, c.solved());
        for kind in FailureKind::ALL {
            if c.of(kind) > 0 {
                s.push_str(&format!(", {} {}", c.of(kind), kind.label()));
            }
        }
        s.push_str(&format!(
            "; {:.3} s, {:.0} puzzles/s",
            self.seconds,
            self.puzzles_per_second()
        ));
        if self.stopped {
            s.push_str("; stopped at the first failed record");
        }
        s
    }

    /// The same for machines: one JSON object on one line.
    pub fn to_json(&self) -> String {
        let c = &self.counts;
        let failures: Vec<String> = FailureKind::ALL
            .iter()
            .map(|k| format!("\"{}\":{}", k.key(), c.of(*k)))
            .collect();
        format!(
            "{{\"records\":{},\"solved\":{},\"failed\":{},\"failures\":{{{}}},\"seconds\":{:.6},\
             \"puzzles_per_second\":{:.1},\"threads\":{},\"inputs\":{},\"bytes_in\":{},\"bytes_out\":{},\
             \"stopped\":{}}}",
            c.records,
            c.solved(),
            c.failures(),
            failures.join(","),
            self.seconds,
            self.puzzles_per_second(),
            self.threads,
            self.inputs,
            self.bytes_in,
            self.bytes_out,
            self.stopped
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary() -> Summary {
        Summary {
            counts: Counts {
                records: 10,
                failed: [1, 0, 2, 0, 0],
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
    fn text_summary_names_nonzero_kinds() {
        assert_eq!(
            summary().to_text(),
            "10 records, 7 solved, 1 malformed, 2 no solution; 2.000 s, 5 puzzles/s"
        );
    }

    #[test]
    fn json_summary_has_every_kind() {
        let j = summary().to_json();
        assert!(j.starts_with("{\"records\":10,\"solved\":7,\"failed\":3,\"failures\":{\"malformed\":1,\"clashing_givens\":0,\"no_solution\":2,\"several_solutions\":0,\"wrong_solution\":0},"), "{j}");
        assert!(j.ends_with("\"stopped\":false}"), "{j}");
    }
}
