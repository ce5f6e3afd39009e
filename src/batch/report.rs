//! What a run found and tells: per-chunk reports, the in-order counts, the per-record messages
//! `sudoku: FILE:LINE: REASON` (limited by `--max-errors`), the progress bar, and the final summary as text or JSON.

use std::io::{BufWriter, Write};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::job::{Failure, FailureKind};

/// A record that failed, as found in its chunk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordFailure {
    /// 0-based line of the record (for a grid, of its bad row) counted from the start of the chunk.
    pub line: u64,
    /// 0-based record number counted from the start of the chunk.
    pub record: u64,
    /// What went wrong.
    pub failure: Failure,
    /// End of this record's output (marker and newline included) in the chunk's output buffer.
    pub out_end: usize,
}

/// What one chunk held.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChunkReport {
    /// Newlines in the chunk, to number the lines of the next one.
    pub lines: u64,
    /// Records answered or marked.
    pub records: u64,
    /// Failed records by [`FailureKind::index`].
    pub failed: [u64; 4],
    /// Every failed record, in order.
    pub failures: Vec<RecordFailure>,
}

impl ChunkReport {
    #[inline]
    pub(crate) fn solved(&mut self) {
        self.records += 1;
    }

    pub(crate) fn failed(&mut self, line: u64, failure: Failure, out_end: usize) {
        self.failed[failure.kind().index()] += 1;
        self.failures.push(RecordFailure {
            line,
            record: self.records,
            failure,
            out_end,
        });
        self.records += 1;
    }
}

/// Records and failures counted over a run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Records read (each has one output record).
    pub records: u64,
    /// Failed records by [`FailureKind::index`].
    pub failed: [u64; 4],
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
            s.push_str("; stopped at the first failed record (--fail-fast)");
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

/// Delay before a progress bar appears, so short runs never show one.
const PROGRESS_DELAY: Duration = Duration::from_millis(500);

/// Bytes of per-record messages held before a write (a chunk's worth of messages usually fits).
const DIAG_BUFFER: usize = 64 * 1024;

/// The diagnostic stream of a run: per-record messages and the progress bar. Messages are buffered and flushed
/// once per chunk (and at the end), so that a file of failed records costs one `write(2)` per chunk rather than one
/// per record on an unbuffered standard error.
pub(crate) struct Reporter<'d> {
    diag: BufWriter<&'d mut dyn Write>,
    max_errors: Option<u64>,
    shown: u64,
    hidden: u64,
    bar: Option<ProgressBar>,
    bar_visible: bool,
    started: Instant,
}

impl<'d> Reporter<'d> {
    /// `progress`: draw a bar on stderr once the run is long (the caller checks that stderr is a terminal);
    /// `total`: input bytes when known.
    pub(crate) fn new(
        diag: &'d mut dyn Write,
        max_errors: Option<u64>,
        progress: bool,
        total: Option<u64>,
    ) -> Reporter<'d> {
        let bar = progress.then(|| {
            let bar = ProgressBar::with_draw_target(total, ProgressDrawTarget::hidden());
            let template = if total.is_some() {
                "{bar:40} {bytes}/{total_bytes} {bytes_per_sec} eta {eta}"
            } else {
                "{spinner} {bytes} {bytes_per_sec}"
            };
            if let Ok(style) = ProgressStyle::with_template(template) {
                bar.set_style(style);
            }
            bar
        });
        Reporter {
            diag: BufWriter::with_capacity(DIAG_BUFFER, diag),
            max_errors,
            shown: 0,
            hidden: 0,
            bar,
            bar_visible: false,
            started: Instant::now(),
        }
    }

    /// Reports one failed record as `sudoku: NAME:LINE: REASON` (`line` 1-based), unless over the limit.
    pub(crate) fn failure(&mut self, name: &str, line: u64, failure: &Failure) {
        if self.max_errors.is_some_and(|m| self.shown >= m) {
            self.hidden += 1;
            return;
        }
        self.shown += 1;
        let diag = &mut self.diag;
        let _ = writeln!(diag, "sudoku: {name}:{line}: {failure}");
        match &self.bar {
            // A drawn bar must not overwrite the message: it goes out while the bar is cleared.
            Some(bar) if self.bar_visible => bar.suspend(|| {
                let _ = diag.flush();
            }),
            _ => {}
        }
    }

    /// Input bytes done so far.
    pub(crate) fn progress(&mut self, bytes: u64) {
        let _ = self.diag.flush();
        if let Some(bar) = &self.bar {
            if !self.bar_visible && self.started.elapsed() >= PROGRESS_DELAY {
                bar.set_draw_target(ProgressDrawTarget::stderr());
                self.bar_visible = true;
            }
            bar.set_position(bytes);
        }
    }

    /// Clears the bar and tells how many messages `--max-errors` held back.
    pub(crate) fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
        if self.hidden > 0 {
            let _ = writeln!(
                self.diag,
                "sudoku: {} more failed records not shown (--max-errors {})",
                self.hidden,
                self.max_errors.unwrap_or(0)
            );
        }
        let _ = self.diag.flush();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::ParseError;

    fn summary() -> Summary {
        Summary {
            counts: Counts {
                records: 10,
                failed: [1, 0, 2, 0],
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
        assert!(j.starts_with("{\"records\":10,\"solved\":7,\"failed\":3,\"failures\":{\"malformed\":1,\"clashing_givens\":0,\"no_solution\":2,\"several_solutions\":0},"), "{j}");
        assert!(j.ends_with("\"stopped\":false}"), "{j}");
    }

    #[test]
    fn max_errors_limits_messages_and_says_how_many_were_held_back() {
        let mut diag: Vec<u8> = Vec::new();
        let mut r = Reporter::new(&mut diag, Some(1), false, None);
        let f = Failure::Malformed(ParseError::WrongLength { found: 3 }.into());
        r.failure("a.txt", 4, &f);
        r.failure("a.txt", 5, &f);
        r.failure("a.txt", 9, &Failure::NoSolution);
        r.finish();
        drop(r);
        assert_eq!(
            String::from_utf8(diag).unwrap(),
            "sudoku: a.txt:4: malformed: expected 81 cells, found 3\n\
             sudoku: 2 more failed records not shown (--max-errors 1)\n"
        );
    }
}
