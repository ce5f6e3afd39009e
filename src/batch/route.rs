//! The extra outputs of a run with several (`split`, [`run_routed`](super::run_routed)): a writer per output part
//! after the first (part 0 goes to the run's own writer), and the in-order cutting of each chunk's output into the
//! parts its records were answered for ([`Answer::Part`](crate::record::Answer::Part)), or, for a record answered
//! with [`Answer::Tagged`](crate::record::Answer::Tagged), the part the run's [`Router`] gives its tag, asked in
//! input order ([`run_routed_by`](super::run_routed_by)).
//!
//! Only records answered with a part are written: a failed record's marker, and any record answered otherwise,
//! goes nowhere. Each part is a well-formed output of its own: the record separator (the blank line between grid
//! records) is dropped before the first record of each part, and every part gets the input's preamble (a CSV
//! header).

use crate::output::{OutputError, Sink, Target, Writer};
use crate::record::ChunkReport;

/// Buffers waiting for each extra writer, at most.
const QUEUE: usize = 4;

/// Gives each record answered with [`Answer::Tagged`](crate::record::Answer::Tagged) its output part, from its tag,
/// called once per such record in input order (over every input of the run, whatever the threads and chunks): so
/// a router may keep state from record to record (`split` reads a spill file written by an earlier run, record by
/// record). A part with no output (`u8::MAX`) sends the record nowhere.
pub trait Router {
    /// The part of the next tagged record.
    ///
    /// # Errors
    /// An I/O error ends the run ([`BatchError::Route`](super::BatchError::Route)).
    fn part(&mut self, tag: u128) -> std::io::Result<u8>;
}

/// The outputs of a run beyond its first; none for a run with one output.
#[derive(Default)]
pub(super) struct Routes {
    /// The writers of parts 1, 2, ...
    writers: Vec<Writer>,
    /// Whether each part (0 included) has had a record.
    wrote: Vec<bool>,
    /// Records written to each part (0 included).
    pub(super) counts: Vec<u64>,
    /// Bytes sent to the extra writers.
    pub(super) bytes: u64,
    /// Set when an extra writer stopped (its [`Routes::finish`] says why).
    pub(super) failed: bool,
}

impl Routes {
    /// The writers of `extra`, the targets of parts 1, 2, ... (none and not `routed`: a run with one output, whose
    /// records are not cut; `routed`: a run with a router, whose records are cut even with one output).
    pub(super) fn start(extra: &[Target], routed: bool) -> Result<Routes, OutputError> {
        let writers = extra
            .iter()
            .map(|t| Sink::create(t).map(|s| Writer::spawn(s, QUEUE)))
            .collect::<Result<Vec<_>, _>>()?;
        let parts = if extra.is_empty() && !routed {
            0
        } else {
            extra.len() + 1
        };
        Ok(Routes {
            writers,
            wrote: vec![false; parts],
            counts: vec![0; parts],
            bytes: 0,
            failed: false,
        })
    }

    /// True when the records are cut into parts (a run with several outputs, or with a router).
    pub(super) fn active(&self) -> bool {
        !self.wrote.is_empty()
    }

    /// The number of output parts (0 when the run has one output).
    pub(super) fn parts(&self) -> usize {
        self.wrote.len()
    }

    /// Sends `bytes` to part `part` (1 or more).
    pub(super) fn send(&mut self, part: usize, bytes: Vec<u8>) {
        self.bytes += bytes.len() as u64;
        if self.writers[part - 1].send(bytes).is_err() {
            self.failed = true;
        }
    }

    /// Sends the input's preamble (a CSV header) to every extra part.
    pub(super) fn preamble(&mut self, preamble: &[u8]) {
        if preamble.is_empty() {
            return;
        }
        for part in 1..self.parts() {
            self.send(part, preamble.to_vec());
        }
    }

    /// Counts `n` records written to `part` (a table run, which cuts its batches itself).
    #[cfg(feature = "parquet")]
    pub(super) fn count(&mut self, part: usize, n: u64) {
        if let Some(c) = self.counts.get_mut(part) {
            *c += n;
        }
    }

    /// Cuts `out`, a chunk's output whose records `rep` routed, into its parts: part 0 is left in `out`, the others
    /// are sent to their writers; every byte outside a routed record is dropped. `separator` is the byte before each
    /// record, dropped before the first record of each part.
    pub(super) fn split(&mut self, out: &mut Vec<u8>, rep: &ChunkReport, separator: Option<u8>) {
        let mut parts: Vec<Vec<u8>> = self
            .writers
            .iter()
            .map(|w| w.buffer(out.len() / self.wrote.len().max(1)))
            .collect();
        let mut write = 0;
        for r in &rep.routed {
            if r.out_end > out.len() {
                break; // cut off by --fail-fast
            }
            let part = usize::from(r.part);
            let Some(first) = self.wrote.get_mut(part) else {
                continue; // no such part: the job's contract says this does not happen
            };
            let start = if separator.is_some() && !*first {
                r.out_start + 1
            } else {
                r.out_start
            };
            *first = true;
            self.counts[part] += 1;
            if part == 0 {
                // Spans come in order and `write` never passes the start of the current one.
                out.copy_within(start..r.out_end, write);
                write += r.out_end - start;
            } else {
                parts[part - 1].extend_from_slice(&out[start..r.out_end]);
            }
        }
        out.truncate(write);
        for (i, bytes) in parts.into_iter().enumerate() {
            if !bytes.is_empty() {
                self.send(i + 1, bytes);
            }
        }
    }

    /// Completes every extra output (a file is renamed into place); the first error met.
    pub(super) fn finish(self) -> Result<(), OutputError> {
        let mut result = Ok(());
        for w in self.writers {
            let r = w.finish().map(|_| ());
            if result.is_ok() {
                result = r;
            }
        }
        result
    }

    /// Gives up on every extra output (a file is not created).
    pub(super) fn abort(self) {
        for w in self.writers {
            w.abort();
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::batch::{run_routed, BatchOptions, InputSpec};
    use crate::grid::{Grid, CELLS};
    use crate::ordered::Threads;
    use crate::output::Target;
    use crate::record::{Answer, CsvAnswer, Failure, Job, Record, TextLayout};

    /// Sends each record, as read, to the part its clue count modulo 3 says.
    struct ByClues;

    impl Job for ByClues {
        fn run(&self, _: &Grid, _: TextLayout, _: &mut Vec<u8>) -> Result<(), Failure> {
            unreachable!("run_record is overridden")
        }

        fn run_record(
            &self,
            record: &Record<'_>,
            _: TextLayout,
            out: &mut Vec<u8>,
        ) -> Result<Answer, Failure> {
            out.extend_from_slice(record.text);
            Ok(Answer::Part((record.puzzle.clue_count() % 3) as u8))
        }

        fn csv_answer(&self) -> CsvAnswer {
            CsvAnswer::Row
        }
    }

    /// A puzzle of `clues` givens (the first cells of a solved board).
    fn puzzle(clues: usize) -> Grid {
        let board: Grid =
            "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
                .parse()
                .unwrap();
        let mut cells = [0u8; CELLS];
        cells[..clues].copy_from_slice(&board.cells()[..clues]);
        Grid::from_cells(cells).unwrap()
    }

    #[test]
    fn each_record_goes_whole_to_its_part_in_order_whatever_the_chunks() {
        let clues: Vec<usize> = (0..40).map(|i| 17 + (i * 7) % 13).collect();
        let lines: Vec<String> = clues.iter().map(|&c| puzzle(c).to_line()).collect();
        let grids: Vec<String> = clues
            .iter()
            .map(|&c| puzzle(c).to_grid_string().trim_end().to_string())
            .collect();
        let line_text = format!("{}\nbad\n", lines.join("\n"));
        let csv_text = format!(
            "id,puzzle\n{}",
            lines
                .iter()
                .enumerate()
                .map(|(i, l)| format!("{i},{l}\n"))
                .collect::<String>()
        );
        let grid_text = grids.join("\n\n");
        // The expected parts: the records of each residue, in order, as each format writes them.
        let expect = |records: &[String], head: &str, sep: &str| -> Vec<String> {
            (0..3)
                .map(|p| {
                    let kept: Vec<&str> = records
                        .iter()
                        .zip(&clues)
                        .filter(|(_, &c)| c % 3 == p)
                        .map(|(r, _)| r.as_str())
                        .collect();
                    let body: String = kept
                        .iter()
                        .map(|r| format!("{r}\n"))
                        .collect::<Vec<_>>()
                        .join(sep);
                    format!("{head}{body}")
                })
                .collect()
        };
        let rows: Vec<String> = lines
            .iter()
            .enumerate()
            .map(|(i, l)| format!("{i},{l}"))
            .collect();
        for (text, want, failed) in [
            (&line_text, expect(&lines, "", ""), 1),
            (&csv_text, expect(&rows, "id,puzzle\n", ""), 0),
            (&grid_text, expect(&grids, "", "\n"), 0),
        ] {
            for (threads, chunk_size) in [(1, 1 << 20), (2, 50), (2, 300)] {
                let dir = tempfile::tempdir().unwrap();
                let targets: Vec<Target> = (0..3)
                    .map(|p| Target::File(dir.path().join(format!("{p}"))))
                    .collect();
                let opts = BatchOptions {
                    threads: Threads::Count(threads),
                    chunk_size,
                    ..BatchOptions::default()
                };
                let input = InputSpec::Bytes {
                    name: "t".into(),
                    data: text.as_bytes().to_vec(),
                };
                let (summary, written) =
                    run_routed(vec![input], &targets, &ByClues, &opts, &mut ()).unwrap();
                assert_eq!(summary.counts.failures(), failed);
                for p in 0..3 {
                    let got = std::fs::read_to_string(dir.path().join(format!("{p}"))).unwrap();
                    assert_eq!(
                        got, want[p],
                        "part {p}, {threads} threads, chunks of {chunk_size}"
                    );
                    let n = clues.iter().filter(|&&c| c % 3 == p).count() as u64;
                    assert_eq!(written[p], n);
                }
            }
        }
    }
}
