//! The collector: the one in-order end of every batch run, text or table. It takes each chunk's answers in input
//! order ([`Collector::deliver`]), fixes up what depends on the records before (`--fail-fast`, repeats left out by
//! `dedupe` over the whole run, the record separator, line numbers), counts, tells the observer about failures and
//! progress, and hands the bytes to the run's writer, or, in a run with several outputs, cut into the parts its
//! records were answered for ([`Routes`]), to each part's writer.

use std::collections::HashSet;
use std::ops::Range;
use std::time::Instant;

use super::route::{Router, Routes};
use super::summary::{BatchSummary, Counts};
use super::BatchError;
use crate::format::Prepared;
use crate::ordered::Flow;
use crate::ordered_run::OrderedRun;
use crate::output::OutputError;
use crate::record::{ChunkReport, Observer, Position, Progress};

/// A chunk's answers as the collector takes them. Its records are measured in units (bytes of text, rows of a
/// table): the units its [`ChunkReport`] counts in (a failure's `out_end`, a key's `out_start..out_end`).
pub(super) trait Answers {
    /// The units the answers hold.
    fn units(&self) -> usize;

    /// Keeps the first `end` units: the answers up to a failure that stops the run (`--fail-fast`).
    fn cut(&mut self, end: usize);

    /// Leaves out the records at `repeats` (ranges of units, in order, not overlapping), keeping every other one in
    /// order.
    fn leave_out(&mut self, repeats: impl Iterator<Item = Range<usize>>) -> Result<(), BatchError>;

    /// Drops the separator byte `sep` in front of the first record (the first record of the output has none).
    fn drop_separator(&mut self, sep: u8);

    /// In a run with several outputs, keeps only the records `rep` routed to part 0 and sends those of the other
    /// parts to `routes` (the separator `sep` dropped before the first record of each part); every other record
    /// (a failed one) goes nowhere.
    fn route(
        &mut self,
        rep: &ChunkReport,
        routes: &mut Routes,
        sep: Option<u8>,
    ) -> Result<(), BatchError>;

    /// The bytes that go to the writer.
    fn into_bytes(self) -> Result<Vec<u8>, BatchError>;
}

/// The writer thread stopped; [`crate::output::Writer::finish`] says why.
pub(super) fn writer_stopped() -> BatchError {
    BatchError::Output(OutputError::Aborted)
}

/// The in-order state of a run over all its inputs: counts, the line the next chunk starts at, the separator rule,
/// the keys seen, and whether `--fail-fast` stopped it.
pub(super) struct Collector<'o> {
    observer: &'o mut dyn Observer,
    /// Bytes of all the inputs, when known.
    total: Option<u64>,
    fail_fast: bool,
    counts: Counts,
    bytes_in: u64,
    bytes_out: u64,
    name: String,
    /// 0-based line (row, in a table) at the start of the next chunk of the current input.
    line: u64,
    /// The current input is a table: its failures are told by row.
    table: bool,
    /// The byte the format writes before every record, dropped before the first record of the output.
    separator: Option<u8>,
    wrote_record: bool,
    /// Set when `--fail-fast` met a failed record.
    stopped: bool,
    /// Keys of the records kept so far ([`crate::record::Answer::FirstOf`]), over every input of the run.
    seen: HashSet<[u8; 32]>,
    /// The outputs beyond the first of a run with several ([`super::run_routed`]); none otherwise.
    routes: Routes,
    /// What gives each tagged record its part, in input order ([`super::run_routed_by`]).
    router: Option<&'o mut dyn Router>,
    /// The CSV header the previous input wrote, when it was a CSV whose header a next one with the same header
    /// continues ([`Collector::send_preamble`]).
    header: Option<Vec<u8>>,
}

impl<'o> Collector<'o> {
    /// The collector of a run over inputs of `total` bytes (when known) that tells `observer`, with `routes` for
    /// the outputs beyond the first (none for a run with one output).
    pub(super) fn new(
        observer: &'o mut dyn Observer,
        total: Option<u64>,
        fail_fast: bool,
        routes: Routes,
        router: Option<&'o mut dyn Router>,
    ) -> Collector<'o> {
        Collector {
            observer,
            total,
            fail_fast,
            counts: Counts::default(),
            bytes_in: 0,
            bytes_out: 0,
            name: String::new(),
            line: 0,
            table: false,
            separator: None,
            wrote_record: false,
            stopped: false,
            seen: HashSet::new(),
            routes,
            router,
            header: None,
        }
    }

    /// Starts a text input read as `prep` says, after its first `skipped_lines` lines.
    pub(super) fn begin_text(
        &mut self,
        name: &str,
        prep: &Prepared,
        skipped_lines: u64,
        json: bool,
    ) {
        self.name.clear();
        self.name.push_str(name);
        self.line = skipped_lines;
        self.table = false;
        self.separator = if json { None } else { prep.plan.separator() };
        self.bytes_in += prep.skip as u64;
    }

    /// Starts a table input: failures are told by its name and their 1-based row.
    pub(super) fn begin_table(&mut self, name: &str) {
        self.name.clear();
        self.name.push_str(name);
        self.line = 0;
        self.table = true;
        self.separator = None;
    }

    /// Bytes of all the inputs, when known (the table run's progress).
    #[cfg(feature = "parquet")]
    pub(super) fn total(&self) -> Option<u64> {
        self.total
    }

    /// Bytes handed to the writer so far.
    pub(super) fn bytes_out(&self) -> u64 {
        self.bytes_out
    }

    /// Records counted so far, over every input of the run.
    pub(super) fn records(&self) -> u64 {
        self.counts.records
    }

    /// The outputs beyond the first (none for a run with one output).
    #[cfg(feature = "parquet")]
    pub(super) fn routes(&self) -> &Routes {
        &self.routes
    }

    /// Takes the outputs beyond the first away, to be completed or given up as the run ends.
    pub(super) fn take_routes(&mut self) -> Routes {
        std::mem::take(&mut self.routes)
    }

    /// True when `--fail-fast` met a failed record: the run stops, its output not completed.
    pub(super) fn stopped(&self) -> bool {
        self.stopped
    }

    /// Hands `bytes` that belong to no record (an input's preamble, a table's last bytes) to the writer; nothing
    /// when empty.
    pub(super) fn send(&mut self, bytes: Vec<u8>, run: &OrderedRun) -> Result<(), BatchError> {
        self.bytes_out += bytes.len() as u64;
        if bytes.is_empty() {
            return Ok(());
        }
        run.writer.send(bytes).map_err(|_| writer_stopped())
    }

    /// Hands an input's `preamble` (a CSV header) to the writer and to every extra output: each output is complete
    /// on its own. With `continues` (a CSV header alone), a header the previous input wrote, the same bytes, is not
    /// written again: CSV inputs one after the other with the same columns give one CSV.
    pub(super) fn send_preamble(
        &mut self,
        preamble: Vec<u8>,
        continues: bool,
        run: &OrderedRun,
    ) -> Result<(), BatchError> {
        let previous = std::mem::take(&mut self.header);
        if continues && !preamble.is_empty() {
            self.header = Some(preamble.clone());
            if previous.as_ref() == Some(&preamble) {
                return Ok(());
            }
        }
        self.routes.preamble(&preamble);
        self.send(preamble, run)
    }

    /// Hands `bytes` that belong to no record (a table's last bytes) to extra output `part` (1 or more).
    #[cfg(feature = "parquet")]
    pub(super) fn send_part(&mut self, part: usize, bytes: Vec<u8>) {
        if !bytes.is_empty() {
            self.routes.send(part, bytes);
        }
    }

    /// Takes the next chunk's `answers`, with their report, in input order: cuts them at the first failure under
    /// `--fail-fast`, leaves out repeats, drops the output's first separator, counts them and tells the observer
    /// of their failures, then hands their bytes to the writer and the progress (`input_len` more input bytes
    /// done) to the observer. [`Flow::Stop`] when `--fail-fast` stopped the run; an error when the writer stopped.
    pub(super) fn deliver<A: Answers>(
        &mut self,
        mut answers: A,
        mut rep: ChunkReport,
        input_len: u64,
        run: &OrderedRun,
    ) -> Result<Flow, BatchError> {
        if let Some(end) = self.cut_at_failure(&mut rep) {
            answers.cut(end);
        }
        if !rep.keyed.is_empty() {
            self.drop_repeats(&mut answers, &rep)?;
        }
        if let Some(router) = self.router.as_deref_mut() {
            // Only the records kept: a cut at a failure leaves the rest unread.
            let units = answers.units();
            for r in rep.routed.iter_mut().take_while(|r| r.out_end <= units) {
                r.part = router.part(r.tag).map_err(BatchError::Route)?;
            }
        }
        if self.routes.active() {
            answers.route(&rep, &mut self.routes, self.separator)?;
        } else if let Some(sep) = self.separator {
            if !self.wrote_record && rep.records > 0 {
                answers.drop_separator(sep);
            }
        }
        self.wrote_record |= rep.records > 0;
        let progress = self.tally(&rep, input_len);
        let bytes = answers.into_bytes()?;
        self.bytes_out += bytes.len() as u64;
        if run.put(bytes, progress, &mut *self.observer) == Flow::Stop || self.routes.failed {
            return Err(writer_stopped());
        }
        Ok(if self.stopped { Flow::Stop } else { Flow::Go })
    }

    /// With `--fail-fast`, cuts the report at its first failed record and stops the run; returns where that
    /// record's output ends.
    fn cut_at_failure(&mut self, rep: &mut ChunkReport) -> Option<usize> {
        if !self.fail_fast {
            return None;
        }
        let first = rep.failures.first()?;
        let end = first.out_end;
        rep.records = first.record + 1;
        rep.failed = Default::default();
        rep.failed[first.failure.kind().index()] = 1;
        rep.failures.truncate(1);
        self.stopped = true;
        Some(end)
    }

    /// Leaves out of `answers` the records whose key an earlier record of the run had, and counts them. (A record's
    /// separator goes with it; the first record of the output is never a repeat, so the separator rule still
    /// holds.) Keys past a cut at a failure are not looked at.
    fn drop_repeats<A: Answers>(
        &mut self,
        answers: &mut A,
        rep: &ChunkReport,
    ) -> Result<(), BatchError> {
        let units = answers.units();
        let (seen, dropped) = (&mut self.seen, &mut self.counts.dropped);
        let repeats = rep
            .keyed
            .iter()
            .take_while(|k| k.out_end <= units)
            .filter(|k| !seen.insert(k.key))
            .map(|k| {
                *dropped += 1;
                k.out_start..k.out_end
            });
        answers.leave_out(repeats)
    }

    /// Counts the records of a chunk of `chunk_len` input bytes and tells the observer about its failures; returns
    /// the progress, told once the chunk is written.
    fn tally(&mut self, rep: &ChunkReport, chunk_len: u64) -> Progress {
        for f in &rep.failures {
            let n = self.line + f.line + 1;
            let at = if self.table {
                Position::Row(n)
            } else {
                Position::Line(n)
            };
            self.observer.failure(&self.name, at, &f.failure);
        }
        self.counts.records += rep.records;
        for (total, n) in self.counts.failed.iter_mut().zip(rep.failed) {
            *total += n;
        }
        self.line += rep.lines;
        self.bytes_in += chunk_len;
        Progress {
            items: self.counts.records,
            done: self.bytes_in,
            total: self.total,
        }
    }

    /// The summary of the run, started at `started` on `threads` threads over `inputs` inputs.
    pub(super) fn summary(self, started: Instant, threads: usize, inputs: usize) -> BatchSummary {
        BatchSummary {
            counts: self.counts,
            seconds: started.elapsed().as_secs_f64(),
            threads,
            inputs,
            bytes_in: self.bytes_in,
            bytes_out: self.bytes_out,
            stopped: self.stopped,
        }
    }
}
